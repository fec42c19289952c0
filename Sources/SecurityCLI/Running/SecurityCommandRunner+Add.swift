import KeychainCore
import KeychainMessages
import KeychainRequests
import TerminalIO

extension SecurityCommandRunner {
    /// `add-…-password`: adds the item; with `-U`, updates an existing one first and adds only when there is
    /// none (never delete-then-add, which would lose the item's creation date and persistent reference).
    func addPassword(_ command: AddPasswordCommand, keychain: KeychainClient, identity: IdentityOptions)
        throws(CommandFailure)
    {
        if !command.ignoredAccessOptions.isEmpty {
            let warning = CommandMessage.accessOptionsIgnored(command.ignoredAccessOptions)
            errors.writeLine("security: " + warning.text(in: language))
        }
        var password = try password(for: command)
        defer { if password != nil { PosixIO.wipe(&password!) } }

        let group = identity.accessGroup ?? keychain.caller.identity.accessGroups.first
        let item = NewItem(
            itemClass: command.itemClass, attributes: command.newItemAttributes, accessGroup: identity.accessGroup,
            data: password)
        if command.updateIfExists {
            let changes = ItemChanges(attributes: changedAttributes(command), data: password)
            if !changes.isEmpty, try updateExisting(command, group: group, changes: changes, keychain: keychain) {
                return
            }
        }
        do {
            try keychain.add(item)
        } catch KeychainError.duplicateItem where command.updateIfExists {
            // Another process added it between the update and the add: update it now. An item the search does
            // not match (another label, with part of the key given) is a collision, as on macOS.
            let changes = ItemChanges(attributes: changedAttributes(command), data: password)
            guard !changes.isEmpty else { return }
            guard try updateExisting(command, group: group, changes: changes, keychain: keychain) else {
                throw CommandFailure("SecKeychainItemCreateFromContent (<default>)", KeychainError.duplicateItem)
            }
        } catch let error as KeychainError {
            var failure = CommandFailure("SecKeychainItemCreateFromContent (<default>)", error)
            if error.status == SecurityStatus.duplicateItem { failure.notes = [.addWithUpdate] }
            throw failure
        } catch {
            throw CommandFailure("SecKeychainItemCreateFromContent (<default>)", KeychainError.io.because("\(error)"))
        }
    }

    /// The new item's password (one from the command line was warned of as the run started). Nil when none was
    /// given.
    private func password(for command: AddPasswordCommand) throws(CommandFailure) -> [UInt8]? {
        switch command.password {
        case .none:
            return nil
        case .commandLine(let given):
            return given.secret.bytes
        case .prompt:
            secretLinesRead += 1
            return try promptedPassword()
        }
    }

    /// Asks as macOS's `security` does: up to three times while the two entries differ, saying so each time;
    /// when the prompt ends (Control-D) or the third pair differs, the command fails with 1 and says nothing
    /// more, as macOS does.
    private func promptedPassword() throws(CommandFailure) -> [UInt8] {
        for _ in 1...3 {
            do {
                return try passwords.readNewItemPassword()
            } catch .mismatch {
                errors.writeLine("passwords don't match")
            } catch .canceled {
                break
            } catch {
                throw CommandFailure("SecKeychainItemCreateFromContent (<default>)", error)
            }
        }
        throw CommandFailure.silent
    }

    /// The attributes `-U` sets on the item it finds: those given, the label reset to the service (or server)
    /// when `-l` is not given, as macOS passes it; the primary key, which the search matched, is left alone.
    private func changedAttributes(_ command: AddPasswordCommand) -> [AttributeKey: AttributeValue] {
        let primaryKey = Set(ClassSchema.of(command.itemClass)?.primaryKey ?? [])
        return command.newItemAttributes.filter { !primaryKey.contains($0.key) }
    }

    /// Updates the first item in `group` that matches the new item's attributes as macOS searches them
    /// (`FirstMatchSearch`: its primary key alone when the whole key is given), and only that one.
    /// - Returns: false when there is no such item.
    private func updateExisting(
        _ command: AddPasswordCommand, group: String?, changes: ItemChanges, keychain: KeychainClient
    ) throws(CommandFailure) -> Bool {
        let search = ItemQuery(
            itemClass: command.itemClass,
            attributes: FirstMatchSearch.attributes(command.itemClass, command.newItemAttributes),
            accessGroup: group, limit: .one, returns: [.persistentReference])
        do {
            guard let reference = try keychain.copyMatching(search).first?.persistentReference else { return false }
            let found = ItemQuery(itemClass: command.itemClass, limit: .all, persistentReference: reference)
            try keychain.update(found, with: changes)
            return true
        } catch KeychainError.itemNotFound {
            return false
        } catch let error as KeychainError {
            throw CommandFailure("SecKeychainItemModifyContent", error)
        } catch {
            throw CommandFailure("SecKeychainItemModifyContent", KeychainError.io.because("\(error)"))
        }
    }
}
