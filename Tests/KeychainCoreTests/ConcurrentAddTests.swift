import Foundation
import Testing

@testable import KeychainCore

/// Two processes adding the same primary key at the same moment: exactly one succeeds, the other gets
/// errSecDuplicateItem, every time.
@Suite(.serialized) struct ConcurrentAddTests {
    private static let group = "TEAM1.race"

    @Test func twoProcessesRacingOnOneKeyGiveOneSuccessAndOneDuplicate() throws {
        let home = temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        // Both children open the fresh home at once too: device key, keybag and schema creation race.
        var children: [(process: Process, input: FileHandle, output: LineReader, errors: Pipe)] = []
        for _ in 0..<2 {
            let input = Pipe()
            let output = Pipe()
            let errors = Pipe()
            let process = try TestChild.launch(
                ["race", home.path, Self.group], stdin: input, stdout: output, stderr: errors)
            children.append((process, input.fileHandleForWriting, LineReader(output), errors))
        }
        defer {
            for child in children {
                try? child.input.close()
                child.process.waitUntilExit()
            }
        }
        for child in children {
            let first = child.output.nextLine()
            if first != "ready" {
                child.process.waitUntilExit()
                let stderr = String(decoding: child.errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                Issue.record(
                    """
                    child said \(String(describing: first)) instead of ready; exit status \
                    \(child.process.terminationStatus): \(stderr)
                    """)
            }
        }

        let rounds = 150
        for round in 0..<rounds {
            let account = "account-\(round)"
            for child in children { child.input.write(Data((account + "\n").utf8)) }
            let answers = children.map { $0.output.nextLine() }
            let statuses = answers.map { answer in answer.flatMap { Int32($0.split(separator: " ").last ?? "") } }
            #expect(answers.allSatisfy { $0?.hasPrefix(account + " ") == true }, "round \(round): \(answers)")
            #expect(statuses.filter { $0 == 0 }.count == 1, "round \(round): \(answers)")
            #expect(statuses.filter { $0 == -25299 }.count == 1, "round \(round): \(answers)")
        }
        for child in children { try child.input.close() }
        for child in children {
            child.process.waitUntilExit()
            #expect(child.process.terminationStatus == 0)
        }
        children.removeAll()

        let keychain = try makeKeychain(groups: [Self.group], home: home)
        let items = try keychain.copyMatching(
            genericQuery(
                [.service: .string("race")], limit: .all,
                returns: [.attributes, .data]))
        #expect(items.count == rounds)
        #expect(Set(items.compactMap { $0.attributes?[.account] }).count == rounds)
        for item in items {
            guard case .string(let account) = item.attributes?[.account] else { continue }
            #expect(item.data?.bytes == bytes("secret:\(account)"))
        }
        #expect(try keychain.integrityCheck() == "ok")
    }

    @Test func twoConnectionsOnThreadsRacingOnOneKeyGiveOneSuccessAndOneDuplicate() async throws {
        let home = temporaryHome()
        let keychains = try [makeKeychain(home: home), makeKeychain(home: home)]
        for round in 0..<100 {
            let item = genericPassword(account: "account-\(round)")
            let statuses = await withTaskGroup(of: Int32.self) { group in
                for keychain in keychains {
                    group.addTask {
                        do { try keychain.add(item) } catch let error as KeychainError { return error.status } catch {
                            return 1
                        }
                        return 0
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.sorted() == [-25299, 0], "round \(round)")
        }
        #expect(try keychains[0].count(genericQuery([:])) == 100)
    }
}
