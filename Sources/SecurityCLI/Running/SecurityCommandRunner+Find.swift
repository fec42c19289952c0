import KeychainCore
import KeychainMessages
import KeychainRequests
import TerminalIO

extension SecurityCommandRunner {
    /// `find-…-password`: the first matching item's attributes; with `-g` the password on standard error, with
    /// `-w` only the password on standard output.
    func findPassword(_ command: FindPasswordCommand, keychain: KeychainClient, identity: IdentityOptions)
        throws(CommandFailure)
    {
        var returns: ReturnOptions = [.attributes]
        if command.display != .hidden { returns.insert(.data) }
        let item = try firstItem(
            command.itemClass, command.attributes, returns: returns, keychain: keychain,
            identity: identity)
        if format.json {
            var object = JSONText.item(item.itemClass, item.attributes ?? [:])
            if command.display == .only { object = [:] }
            if command.display != .hidden {
                var printed: [UInt8] = []
                Self.appendPasswordOnly(item.data?.bytes ?? [], to: &printed)
                object["password"] = String(decoding: printed, as: UTF8.self)
                PosixIO.wipe(&printed)
            }
            output.writeLine(JSONText.encode(object))
            return
        }
        switch command.display {
        case .only:
            writeSecret(item.data, to: output, format: Self.appendPasswordOnly)
        case .withAttributes:
            output.write(
                listing(keychain).attributesText(itemClass: item.itemClass, attributes: item.attributes ?? [:]))
            writeSecret(item.data, to: errors, prefix: "password: ", format: BufferFormatter.appendFormatted)
        case .hidden:
            output.write(
                listing(keychain).attributesText(itemClass: item.itemClass, attributes: item.attributes ?? [:]))
        }
    }

    /// `delete-…-password`: prints the first matching item's attributes and deletes that one item, as macOS does.
    func deletePassword(_ command: DeletePasswordCommand, keychain: KeychainClient, identity: IdentityOptions)
        throws(CommandFailure)
    {
        let item = try firstItem(
            command.itemClass, command.attributes, returns: [.attributes, .persistentReference],
            keychain: keychain, identity: identity)
        if !format.json {
            output.write(
                listing(keychain).attributesText(itemClass: item.itemClass, attributes: item.attributes ?? [:]))
        }
        let byReference = ItemQuery(
            itemClass: command.itemClass, limit: .all, persistentReference: item.persistentReference)
        _ = try perform("SecKeychainItemDelete") { try keychain.delete(byReference) }
        if format.json {
            output.writeLine(JSONText.encode(["deleted": JSONText.item(item.itemClass, item.attributes ?? [:])]))
        } else {
            // On standard error, as macOS writes it: the listing alone goes to standard output.
            errors.writeLine("password has been deleted.")
        }
    }

    /// The first item of `itemClass` with `attributes` (as macOS searches them: `FirstMatchSearch`),
    /// synchronizable or not, in the chosen group or in all of the caller's.
    /// - Throws: a `SecKeychainSearchCopyNext` failure (exit 44) when there is none.
    private func firstItem(
        _ itemClass: ItemClass, _ attributes: [AttributeKey: AttributeValue], returns: ReturnOptions,
        keychain: KeychainClient, identity: IdentityOptions
    ) throws(CommandFailure) -> ItemResult {
        let query = ItemQuery(
            itemClass: itemClass, attributes: FirstMatchSearch.attributes(itemClass, attributes),
            accessGroup: identity.accessGroup,
            synchronizable: .any, limit: .one, returns: returns)
        let found: [ItemResult]
        do {
            found = try perform("SecKeychainSearchCopyNext") { try keychain.copyMatching(query) }
        } catch var failure {
            if case .keychain(let error) = failure.cause, error.status == SecurityStatus.itemNotFound {
                failure.notes = searchedAs(keychain, identity)
            }
            throw failure
        }
        guard let first = found.first else {
            var failure = CommandFailure("SecKeychainSearchCopyNext", KeychainError.itemNotFound)
            failure.notes = searchedAs(keychain, identity)
            throw failure
        }
        return first
    }

    /// Who a search ran as and how to act as an app instead: the notes after a not-found answer or an empty
    /// listing, since a command that acts as `LOCAL.security` cannot see what an app stored.
    func searchedAs(_ keychain: KeychainClient, _ identity: IdentityOptions) -> [CommandMessage] {
        let caller = keychain.caller.identity
        // The owner searched every group: no app's item was out of its sight.
        if caller.isOwner && identity.accessGroup == nil { return [] }
        let groups = identity.accessGroup.map { [$0] } ?? caller.accessGroups
        let name = caller.applicationIdentifier ?? groups.first ?? "(no identity)"
        return [
            .searchedAs(identity: TerminalText.escaped(name), groups: groups.map { TerminalText.escaped($0) }),
            .actAsApp,
        ]
    }

    /// `-w`'s form: the password as it is when it is UTF-8 text whose every character `TerminalText` deems safe,
    /// else as hex digits.
    static func appendPasswordOnly(_ bytes: [UInt8], to output: inout [UInt8]) {
        if isSafeText(bytes) {
            output += bytes
        } else {
            BufferFormatter.appendHex(bytes, to: &output)
        }
    }

    /// Whether `bytes` are valid UTF-8 without an unsafe character, decoded in place: no `String` copy of a
    /// secret is made.
    private static func isSafeText(_ bytes: [UInt8]) -> Bool {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): if !TerminalText.isSafe(scalar) { return false }
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}
