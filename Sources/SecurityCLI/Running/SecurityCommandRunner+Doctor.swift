import Foundation
import KeychainCore
import KeychainMessages
import KeychainRequests
import Security

extension SecurityCommandRunner {
    /// `doctor`: runs the SecItem function's own dictionary checks (the `Security` face's decoder) and the
    /// engine's dry run, and says what the call would return and why, which items it would act on (their
    /// primary keys, never secrets) and, for an add, whether it would collide. Nothing is changed.
    /// - Returns: 0 when the call would succeed, else the exit code of the status it would return.
    func diagnose(_ command: DoctorCommand, keychain: KeychainClient, identity: IdentityOptions) throws(CommandFailure)
        -> Int32
    {
        let input: DoctorInput
        do {
            input = try DoctorInput(json: try readDoctorJSON(command.file))
        } catch let error as DoctorInputError {
            throw CommandFailure("doctor", KeychainError.decode.because(error.message))
        } catch {
            throw CommandFailure("doctor", KeychainError.io.because("\(error)"))
        }
        guard let function = command.function ?? input.function else {
            throw CommandFailure(
                "doctor",
                KeychainError.param.because(
                    "name the function: security doctor add|copy|update|delete, or \"function\" in the JSON"))
        }
        var preview: OperationPreview?
        var failure: KeychainError?
        do {
            switch function {
            case .add: try keychain.previewAdd(try SecItemRequest.add(input.dictionary))
            case .copy: preview = try keychain.previewSearch(try SecItemRequest.copyMatching(input.dictionary))
            case .update:
                let request = try SecItemRequest.update(input.dictionary, input.attributesToUpdate ?? NSDictionary())
                preview = try keychain.previewUpdate(request.query, with: request.changes)
            case .delete: preview = try keychain.previewDelete(try SecItemRequest.delete(input.dictionary))
            }
        } catch let error as KeychainError {
            failure = error
        } catch {
            failure = KeychainError(SecurityStatus.internalComponent, reason: "\(error)")
        }
        let itemClass = classOf(input.dictionary)
        if format.json {
            writeDiagnosisJSON(function, failure: failure, preview: preview, itemClass: itemClass)
        } else {
            // A not-found answer says who it searched as: an app's items are not `LOCAL.security`'s.
            let notes = failure?.status == SecurityStatus.itemNotFound ? searchedAs(keychain, identity) : []
            writeDiagnosisText(function, failure: failure, preview: preview, itemClass: itemClass, notes: notes)
        }
        return failure.map { ExitCode.forStatus($0.status) } ?? ExitCode.success
    }

    private func readDoctorJSON(_ file: String?) throws -> Data {
        if let file { return try Data(contentsOf: URL(fileURLWithPath: file)) }
        return FileHandle.standardInput.readDataToEndOfFile()
    }

    private func classOf(_ dictionary: NSDictionary) -> ItemClass {
        (dictionary.object(forKey: "class") as? String).flatMap(ItemClass.init(rawValue:)) ?? .genericPassword
    }

    private func writeDiagnosisText(
        _ function: DoctorCommand.Function, failure: KeychainError?, preview: OperationPreview?, itemClass: ItemClass,
        notes: [CommandMessage]
    ) {
        let name = function.secItemName
        if let failure {
            let message = StatusMessages.text(for: failure.status, english: failure.message, in: language)
            output.writeLine("\(name) would return \(failure.status): \(message)")
            if let reason = failure.localizedReason(in: language) { output.writeLine("    reason: \(reason)") }
            for note in notes { output.writeLine("    " + note.text(in: language)) }
        } else {
            let message = StatusMessages.text(for: 0, english: SecurityStatus.message(for: 0), in: language)
            output.writeLine("\(name) would return 0: \(message)")
            if function == .add { output.writeLine("    no item has the new item's primary key: it would be added") }
        }
        if let preview {
            let verb = function == .copy ? "return" : function == .update ? "change" : "delete"
            output.writeLine("    it would \(verb) \(preview.items.count) item(s):")
            for item in preview.items { output.writeLine("        " + Self.primaryKeyText(item, itemClass)) }
            if preview.unavailable > 0 {
                output.writeLine(
                    "    \(preview.unavailable) more matching item(s) cannot be read now: their protection class is "
                        + "not available in the current lock state")
            }
        }
        output.writeLine("    (nothing was changed)")
    }

    private func writeDiagnosisJSON(
        _ function: DoctorCommand.Function, failure: KeychainError?, preview: OperationPreview?, itemClass: ItemClass
    ) {
        var object: [String: Any] = [
            "function": function.secItemName, "status": Int(failure?.status ?? 0),
            "message": failure?.message ?? SecurityStatus.message(for: 0), "changed": false,
        ]
        if let reason = failure?.reason { object["reason"] = reason }
        if let preview {
            object["matches"] = preview.items.map { JSONText.item(itemClass, $0) }
            object["unavailable"] = preview.unavailable
        }
        output.writeLine(JSONText.encode(object))
    }

    /// `acct="a", svce="s", agrp="G", sync=false, pdmn=ak`, in the class's primary-key order.
    static func primaryKeyText(_ item: [AttributeKey: AttributeValue], _ itemClass: ItemClass) -> String {
        let order = (ClassSchema.of(itemClass)?.primaryKey ?? []) + [.accessGroup, .synchronizable, .accessible]
        return order.compactMap { key in
            guard let value = item[key] else { return nil }
            let text: String =
                switch value {
                case .string(let string): key == .accessible ? string : "\"\(string)\""
                case .data(let bytes): "<\(bytes.count) bytes>"
                case .number(let number): "\(number)"
                case .bool(let flag): flag ? "true" : "false"
                case .date(let date): DateText.iso8601(date)
                }
            return "\(key.rawValue)=\(text)"
        }.joined(separator: ", ")
    }
}
