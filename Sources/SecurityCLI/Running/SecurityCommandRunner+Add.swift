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
            // Another process added it between the update and the add: update it now.
            let changes = ItemChanges(attributes: changedAttributes(command), data: password)
            guard !changes.isEmpty else { return }
            _ = try updateExisting(command, group: group, changes: changes, keychain: keychain)
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
            do {
                return try passwords.readNewItemPassword()
            } catch {
                throw CommandFailure("SecKeychainItemCreateFromContent (<default>)", error)
            }
        }
    }

    /// The attributes `-U` changes on an existing item: those given, minus its primary key.
    private func changedAttributes(_ command: AddPasswordCommand) -> [AttributeKey: AttributeValue] {
        let primaryKey = Set(ClassSchema.of(command.itemClass)?.primaryKey ?? [])
        return command.attributes.filter { !primaryKey.contains($0.key) }
    }

    /// Updates the item with the new item's exact primary key in `group`.
    /// - Returns: false when there is no such item.
    private func updateExisting(
        _ command: AddPasswordCommand, group: String?, changes: ItemChanges, keychain: KeychainClient
    ) throws(CommandFailure) -> Bool {
        let attributes = command.newItemAttributes
        var key: [AttributeKey: AttributeValue] = [:]
        for attribute in ClassSchema.of(command.itemClass)?.primaryKey ?? [] {
            key[attribute] = attributes[attribute] ?? (attribute == .port ? .number(0) : .string(""))
        }
        let query = ItemQuery(itemClass: command.itemClass, attributes: key, accessGroup: group, limit: .all)
        do {
            try keychain.update(query, with: changes)
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
