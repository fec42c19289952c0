@_implementationOnly import CDBus

/// One D-Bus message, owned (unreferenced when released).
public final class BusMessage {
    let raw: OpaquePointer

    init(taking raw: OpaquePointer) {
        self.raw = raw
    }

    deinit { dbus_message_unref(raw) }

    public var isMethodCall: Bool { dbus_message_get_type(raw) == DBUS_MESSAGE_TYPE_METHOD_CALL }
    public var isSignal: Bool { dbus_message_get_type(raw) == DBUS_MESSAGE_TYPE_SIGNAL }
    public var interface: String? { dbus_message_get_interface(raw).map { String(cString: $0) } }
    public var member: String? { dbus_message_get_member(raw).map { String(cString: $0) } }
    public var path: String? { dbus_message_get_path(raw).map { String(cString: $0) } }
    public var errorName: String? { dbus_message_get_error_name(raw).map { String(cString: $0) } }

    /// The arguments, as far as they are of the kinds `BusValue` has.
    public var values: [BusValue] {
        var iterator = DBusMessageIter()
        guard dbus_message_iter_init(raw, &iterator) != 0 else { return [] }
        var values: [BusValue] = []
        repeat {
            if let value = Self.value(at: &iterator) { values.append(value) }
        } while dbus_message_iter_next(&iterator) != 0
        return values
    }

    private static func value(at iterator: inout DBusMessageIter) -> BusValue? {
        switch dbus_message_iter_get_arg_type(&iterator) {
        case CDBusTypeString, CDBusTypeObjectPath:
            var text: UnsafePointer<CChar>?
            dbus_message_iter_get_basic(&iterator, &text)
            let value = text.map { String(cString: $0) } ?? ""
            return dbus_message_iter_get_arg_type(&iterator) == CDBusTypeString ? .string(value) : .objectPath(value)
        case CDBusTypeBoolean:
            var flag: dbus_bool_t = 0
            dbus_message_iter_get_basic(&iterator, &flag)
            return .boolean(flag != 0)
        case CDBusTypeArray:
            var element = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &element)
            var strings: [String] = []
            while dbus_message_iter_get_arg_type(&element) != CDBusTypeInvalid {
                if case .string(let text)? = value(at: &element) { strings.append(text) }
                if case .objectPath(let text)? = value(at: &element) { strings.append(text) }
                dbus_message_iter_next(&element)
            }
            return .strings(strings)
        default:
            return nil
        }
    }

    /// Appends `values` as the message's arguments.
    func append(_ values: [BusValue]) {
        var iterator = DBusMessageIter()
        dbus_message_iter_init_append(raw, &iterator)
        for value in values {
            switch value {
            case .string(let text): Self.appendText(text, type: CDBusTypeString, to: &iterator)
            case .objectPath(let text): Self.appendText(text, type: CDBusTypeObjectPath, to: &iterator)
            case .boolean(let flag):
                var bit: dbus_bool_t = flag ? 1 : 0
                dbus_message_iter_append_basic(&iterator, CDBusTypeBoolean, &bit)
            case .strings(let texts):
                var array = DBusMessageIter()
                dbus_message_iter_open_container(&iterator, CDBusTypeArray, "s", &array)
                for text in texts { Self.appendText(text, type: CDBusTypeString, to: &array) }
                dbus_message_iter_close_container(&iterator, &array)
            }
        }
    }

    private static func appendText(_ text: String, type: Int32, to iterator: inout DBusMessageIter) {
        text.withCString { characters in
            var pointer: UnsafePointer<CChar>? = characters
            _ = dbus_message_iter_append_basic(&iterator, type, &pointer)  // libdbus copies the string
        }
    }
}
