@_implementationOnly import CDBus

/// A private connection to a message bus: the system bus, or one at a given address (tests run their own).
/// Messages are handled by popping them in order, so no callback ever runs on libdbus's behalf.
public final class BusConnection {
    private let raw: OpaquePointer

    /// Connects and registers on the bus at `address`, or on the system bus when nil.
    public init(address: String?) throws(BusError) {
        var error = DBusError()
        dbus_error_init(&error)
        var connection: OpaquePointer?
        if let address {
            connection = dbus_connection_open_private(address, &error)
            if let opened = connection, dbus_bus_register(opened, &error) == 0 {
                dbus_connection_close(opened)
                dbus_connection_unref(opened)
                connection = nil
            }
        } else {
            connection = dbus_bus_get_private(DBUS_BUS_SYSTEM, &error)
        }
        guard let connection else { throw Self.take(&error) }
        dbus_connection_set_exit_on_disconnect(connection, 0)
        raw = connection
    }

    deinit {
        dbus_connection_close(raw)
        dbus_connection_unref(raw)
    }

    /// Calls `method` and waits for its reply. - Returns: the reply's arguments.
    /// - Throws: `BusError` with the error the service replied, or libdbus's (no such service, timeout).
    public func call(
        _ destination: String, _ path: String, _ interface: String, _ method: String, _ arguments: [BusValue] = [],
        timeoutMilliseconds: Int32 = 5_000
    ) throws(BusError) -> [BusValue] {
        guard let raw = dbus_message_new_method_call(destination, path, interface, method) else {
            throw BusError(name: "org.freedesktop.DBus.Error.NoMemory", message: "out of memory")
        }
        let message = BusMessage(taking: raw)
        message.append(arguments)
        var error = DBusError()
        dbus_error_init(&error)
        guard let reply = dbus_connection_send_with_reply_and_block(self.raw, raw, timeoutMilliseconds, &error)
        else { throw Self.take(&error) }
        return BusMessage(taking: reply).values
    }

    /// Asks the bus to route messages matching `rule` (signals) to this connection.
    public func addMatch(_ rule: String) throws(BusError) {
        var error = DBusError()
        dbus_error_init(&error)
        dbus_bus_add_match(raw, rule, &error)
        if dbus_error_is_set(&error) != 0 { throw Self.take(&error) }
    }

    /// Takes `name` on the bus (a service). - Throws: `BusError` when another connection has it.
    public func requestName(_ name: String) throws(BusError) {
        var error = DBusError()
        dbus_error_init(&error)
        let result = dbus_bus_request_name(raw, name, UInt32(DBUS_NAME_FLAG_DO_NOT_QUEUE), &error)
        if dbus_error_is_set(&error) != 0 { throw Self.take(&error) }
        guard result == DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER else {
            throw BusError(name: "org.freedesktop.DBus.Error.AddressInUse", message: "\(name) is taken")
        }
    }

    /// The next incoming message, waiting up to `timeoutMilliseconds`. - Returns: nil on timeout or when the
    /// connection is gone.
    public func next(timeoutMilliseconds: Int32) -> BusMessage? {
        if let waiting = dbus_connection_pop_message(raw) { return BusMessage(taking: waiting) }
        guard dbus_connection_read_write(raw, timeoutMilliseconds) != 0 else { return nil }
        return dbus_connection_pop_message(raw).map { BusMessage(taking: $0) }
    }

    /// Whether the connection is still open.
    public var isConnected: Bool { dbus_connection_get_is_connected(raw) != 0 }

    /// Replies to a method call.
    public func reply(to call: BusMessage, _ values: [BusValue] = []) {
        guard let raw = dbus_message_new_method_return(call.raw) else { return }
        let reply = BusMessage(taking: raw)
        reply.append(values)
        send(reply)
    }

    /// Replies to a method call with an error.
    public func replyError(to call: BusMessage, name: String, message: String) {
        guard let raw = dbus_message_new_error(call.raw, name, message) else { return }
        send(BusMessage(taking: raw))
    }

    /// Emits a signal.
    public func signal(_ path: String, _ interface: String, _ name: String, _ values: [BusValue]) {
        guard let raw = dbus_message_new_signal(path, interface, name) else { return }
        let signal = BusMessage(taking: raw)
        signal.append(values)
        send(signal)
    }

    private func send(_ message: BusMessage) {
        _ = dbus_connection_send(raw, message.raw, nil)
        dbus_connection_flush(raw)
    }

    private static func take(_ error: inout DBusError) -> BusError {
        defer { dbus_error_free(&error) }
        let name = error.name.map { String(cString: $0) } ?? "org.freedesktop.DBus.Error.Failed"
        let message = error.message.map { String(cString: $0) } ?? "the bus could not be used"
        return BusError(name: name, message: message)
    }
}
