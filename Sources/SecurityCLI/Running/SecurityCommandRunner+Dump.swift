import KeychainCore
import KeychainMessages
import KeychainRequests
import TerminalIO

#if canImport(Glibc)
    import Glibc
#endif

extension SecurityCommandRunner {
    /// Runs `dump-keychain`, failing with 1 whatever failed (a search, the `-o` file), as macOS's does
    /// (keychain_find.c); the message lines are the failure's own. A keychain that cannot be opened, or a group
    /// the identity does not grant (30), keeps its status, as for every verb: macOS has no such identities.
    func exitingWithOne(_ dump: () throws(CommandFailure) -> Void) throws(CommandFailure) {
        do {
            try dump()
        } catch {
            var failure = error
            if case .keychain(let cause) = failure.cause, cause.status == SecurityStatus.missingEntitlement {
                throw failure
            }
            failure.exitCodeOverride = ExitCode.failure
            throw failure
        }
    }

    /// `dump-keychain`: every item the caller can see (generic passwords, internet passwords, certificates, then
    /// keys, each in the order they were added); with `-d`, each password followed by `data:` and its secret (a
    /// key's or certificate's data is never printed: `security export` writes them to a file).
    func dumpKeychain(_ command: DumpKeychainCommand, keychain: KeychainClient, identity: IdentityOptions)
        throws(CommandFailure)
    {
        let file = try command.outputFile.map { path throws(CommandFailure) in try createDumpFile(path) }
        defer { if let file { close(file) } }
        let output: any OutputSink = file.map { FileDescriptorOutput(descriptor: $0) } ?? self.output
        let returns: ReturnOptions = command.includeSecrets ? [.attributes, .data] : [.attributes]
        let printer = listing(keychain)
        var damagedNotes: [CommandMessage] = []
        var listed = 0
        for itemClass in [ItemClass.genericPassword, .internetPassword, .certificate, .key] {
            let isPassword = itemClass == .genericPassword || itemClass == .internetPassword
            let query = ItemQuery(
                itemClass: itemClass, accessGroup: identity.accessGroup, synchronizable: .any,
                limit: .all, returns: isPassword ? returns : [.attributes])
            let items: [ItemResult]
            do {
                let report = try perform("SecKeychainSearchCopyNext") { try keychain.search(query) }
                items = report.results
                if report.damaged > 0 {
                    let note = report.explanation?.text(in: language)
                    damagedNotes.append(.damagedItemsSkipped(count: report.damaged, note: note))
                }
            } catch let failure {
                if case .keychain(let error) = failure.cause, error.status == SecurityStatus.itemNotFound { continue }
                throw failure
            }
            listed += items.count
            for item in items where format.json {
                var object = JSONText.item(item.itemClass, item.attributes ?? [:])
                if command.includeSecrets && isPassword {
                    var printed: [UInt8] = []
                    Self.appendPasswordOnly(item.data?.bytes ?? [], to: &printed)
                    object["data"] = String(decoding: printed, as: UTF8.self)
                    PosixIO.wipe(&printed)
                }
                output.writeLine(JSONText.encode(object))
            }
            for item in items where !format.json {
                output.write(printer.attributesText(itemClass: item.itemClass, attributes: item.attributes ?? [:]))
                if command.includeSecrets && isPassword {
                    output.writeLine("data:")
                    writeSecret(item.data, to: output, format: BufferFormatter.appendFormatted)
                }
            }
        }
        // Damaged items hide nothing else; they are counted on standard error, with their UUIDs.
        for note in damagedNotes { errors.writeLine("security: " + note.text(in: language)) }
        // An empty listing says whose groups it looked in: an app's items are not `LOCAL.security`'s.
        if listed == 0, damagedNotes.isEmpty {
            note(.emptyDump)
            for message in searchedAs(keychain, identity) { note(message) }
        }
    }

    /// Opens `-o FILE` for writing as macOS's `fopen(path, "w")` does (created, or emptied), but readable by its
    /// owner only when created, since `-d` puts secrets in it.
    private func createDumpFile(_ path: String) throws(CommandFailure) -> Int32 {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw CommandFailure("dump-keychain", KeychainError.io.because("cannot create \(path): \(reason)"))
        }
        return descriptor
    }
}
