import Foundation
import KeychainCore
import KeychainRequests
import KeychainStore
import KeychainTestSupport
import KeychainWire
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The engine served by keychaind: a client service over its socket runs the same requests, on the keychain of
/// its uid, as the identity the daemon gives it.
@Suite(.serialized) struct DaemonEngineTests {
    static func item(_ account: String, secret: String = "s3cret", accessibility: Accessibility? = nil) -> NewItem {
        NewItem(
            itemClass: .genericPassword, attributes: [.service: .string("svc"), .account: .string(account)],
            accessibility: accessibility, data: Array(secret.utf8))
    }

    static func query(_ account: String, returns: ReturnOptions = [.data], limit: MatchLimit = .one) -> ItemQuery {
        ItemQuery.genericPassword(service: "svc", account: account, returns: returns, limit: limit)
    }

    @Test func itemsRoundTripThroughTheDaemon() throws {
        let daemon = try DaemonProcess()
        let client = KeychainClient(service: DaemonKeychainService(socketPath: daemon.socketPath))
        try client.add(Self.item("ann"))
        #expect(status { try client.add(Self.item("ann")) } == -25299)
        #expect(try client.copyMatching(Self.query("ann")).first?.data?.bytes == Array("s3cret".utf8))
        try client.update(Self.query("ann", returns: [], limit: .all), with: ItemChanges(data: Array("new".utf8)))
        #expect(try client.copyMatching(Self.query("ann")).first?.data?.bytes == Array("new".utf8))
        let reference = try #require(
            try client.copyMatching(Self.query("ann", returns: [.persistentReference])).first?.persistentReference)
        #expect(try client.copyMatching(ItemQuery(returns: [.data], persistentReference: reference)).count == 1)
        #expect(try client.delete(Self.query("ann", returns: [], limit: .all)) == 1)
        #expect(status { _ = try client.copyMatching(Self.query("ann")) } == -25300)
    }

    @Test func theKeychainLivesInTheStateDirectoryPerUIDOwnerOnly() throws {
        let daemon = try DaemonProcess()
        let client = KeychainClient(service: DaemonKeychainService(socketPath: daemon.socketPath))
        try client.add(Self.item("bob"))
        let home = daemon.directory + "/state/\(getuid())"
        var info = stat()
        #expect(stat(home, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
        #expect(FileManager.default.fileExists(atPath: home + "/keychain.db"))
        #expect(try client.describeService().databasePath == home + "/keychain.db")
    }

    @Test func whileTheDaemonRunsNoOtherProcessOpensItsDatabase() throws {
        let daemon = try DaemonProcess()
        let client = KeychainClient(service: DaemonKeychainService(socketPath: daemon.socketPath))
        try client.add(Self.item("carol"))
        let path = daemon.directory + "/state/\(getuid())/keychain.db"
        // Even a process with the right to read the file (this one runs as the same uid, or root) is kept out.
        #expect(throws: StoreError.self) { _ = try Database(path: path, busyTimeout: 200) }
        // No shared-memory index either: the daemon's WAL index is in its own memory.
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
        #expect(try client.copyMatching(Self.query("carol")).count == 1)
        daemon.stop(keepingState: true)
        let database = try Database(path: path, busyTimeout: 200)
        #expect(try database.integrityCheck() == "ok")
        database.close()
        daemon.stop()
    }

    @Test func theIdentityIsTheDaemonsNotTheClients() throws {
        let daemon = try DaemonProcess()
        let service = DaemonKeychainService(socketPath: daemon.socketPath)
        // The caller the client names is ignored: the daemon runs the request as the policy's identity.
        let forged = Caller(identity: CallerIdentity(applicationIdentifier: "TEAM.other", accessGroups: ["TEAM.other"]))
        _ = try service.perform(.add(Self.item("carol")), as: forged)
        let own = try #require(service.callerIdentity.accessGroups.first)
        #expect(own.hasPrefix("LOCAL."))
        var query = Self.query("carol", returns: [.attributes])
        query.accessGroup = "TEAM.other"
        // Naming a group the daemon did not give is errSecMissingEntitlement, as on Apple's platforms.
        #expect(status { _ = try service.perform(.search(query), as: forged) } == -34018)
        guard
            case .found(let report) = try service.perform(
                .search(Self.query("carol", returns: [.attributes])), as: forged)
        else {
            Issue.record("not found")
            return
        }
        #expect(report.results.first?.attributes?[.accessGroup] == .string(own))
    }

    @Test func contextsAreTheDaemonsAndUnknownIDsAreRefused() throws {
        let daemon = try DaemonProcess()
        let service = DaemonKeychainService(socketPath: daemon.socketPath)
        let id = try service.newContext()
        #expect(status { _ = try service.perform(.authenticationContextState, as: service.caller(context: id)) } == 0)
        let forged = try #require(AuthenticationContextID(bytes: Array(repeating: 7, count: 16)))
        #expect(
            status { _ = try service.perform(.authenticationContextState, as: service.caller(context: forged)) } == -50)
    }

    @Test func aDaemonThatIsNotThereIsNotAvailableAndOneThatComesBackIsUsed() throws {
        var daemon: DaemonProcess? = try DaemonProcess()
        let socket = try #require(daemon?.socketPath)
        let directory = try #require(daemon?.directory)
        let client = KeychainClient(service: DaemonKeychainService(socketPath: socket))
        try client.add(Self.item("dan"))
        daemon?.stop(keepingState: true)
        daemon = nil
        #expect {
            try client.add(Self.item("eve"))
        } throws: { error in
            let failure = error as? KeychainError
            return failure?.status == -25291 && failure?.reason?.contains(socket) == true
        }
        let again = try DaemonProcess(directory: directory)
        #expect(try client.copyMatching(Self.query("dan")).count == 1)
        try client.add(Self.item("eve"))
        _ = again
    }

    @Test func aLockedDaemonRefusesClassAToEveryClientAndOneUnlockServesAll() throws {
        let daemon = try DaemonProcess()
        let first = KeychainClient(service: DaemonKeychainService(socketPath: daemon.socketPath))
        let second = KeychainClient(service: DaemonKeychainService(socketPath: daemon.socketPath))
        let owner = try daemon.ownerClient()
        try owner.setPasscode(Secret(Array("1234".utf8)))
        try owner.setGracePeriod(0)
        try first.add(Self.item("fay", accessibility: .whenUnlocked))
        try first.lock()
        #expect(try second.info().lockState == .locked)
        #expect(status { _ = try first.copyMatching(Self.query("fay")) } == -25308)
        #expect(status { _ = try second.copyMatching(Self.query("fay")) } == -25308)
        #expect(status { try second.unlock(passcode: Secret(Array("0000".utf8))) } != 0)
        try second.unlock(passcode: Secret(Array("1234".utf8)))
        #expect(try first.copyMatching(Self.query("fay")).count == 1)
    }

    /// The passcode, the grace period, a simulated restart and the simulated sensors guard every app's items: an
    /// app changes none of them (on a device no app sets the passcode or touches the sensor); the owner does.
    @Test func onlyTheOwnerChangesWhatGuardsEveryAppsItems() throws {
        let daemon = try DaemonProcess()
        let app = KeychainClient(service: DaemonKeychainService(socketPath: daemon.socketPath))
        let passcode = Secret(Array("1234".utf8))
        #expect(status { try app.setPasscode(passcode) } == -34018)
        #expect(try app.info().hasPasscode == false)
        #expect(status { try app.setGracePeriod(86400) } == -34018)
        #expect(status { try app.simulateRestart() } == -34018)
        #expect(status { try app.simulatedBiometry(.enroll) } == -34018)
        #expect(status { try app.simulatedBiometry(.script(.match)) } == -34018)
        #expect(status { try app.simulatedCompanion(.pair) } == -34018)
        #expect(status { _ = try app.simulatedCompanion(.status) } == 0)
        let owner = try daemon.ownerClient()
        try owner.setPasscode(passcode)
        try owner.setGracePeriod(0)
        try owner.simulatedBiometry(.enroll)
        #expect(status { try app.removePasscode(current: passcode) } == -34018)
        #expect(status { try app.setPasscode(Secret(Array("9999".utf8)), current: passcode) } == -34018)
        // Locking and unlocking with the passcode stay every app's, as `security lock-keychain` and an unlock are.
        try app.lock()
        try app.unlock(passcode: passcode)
        #expect(try app.info().hasPasscode == true)
    }

    /// Any app may feed wrong passcodes, and five start the back-off for every app; the owner's attempts are
    /// counted apart, so the owner still unlocks, and that clears the apps' count.
    @Test func wrongPasscodesFromAnAppDoNotLockTheOwnerOut() throws {
        let daemon = try DaemonProcess()
        let app = KeychainClient(service: DaemonKeychainService(socketPath: daemon.socketPath))
        let owner = try daemon.ownerClient()
        let passcode = Secret(Array("1234".utf8))
        try owner.setPasscode(passcode)
        try app.lock()
        for _ in 0..<5 { #expect(status { try app.unlock(passcode: Secret(Array("0000".utf8))) } == -25293) }
        #expect(status { try app.unlock(passcode: passcode) } == -25293, "held back")
        #expect(try app.info().retryAfterSeconds > 0)
        try owner.unlock(passcode: passcode)
        #expect(try app.info().lockState == .unlocked)
        #expect(try app.info().failedAttempts == 0)
        try app.unlock(passcode: passcode)
    }

    /// An authentication context is the connection's that created it: its id names nothing on another connection,
    /// even of the same app, which gets errSecParam as for an id that never was.
    @Test func anAuthenticationContextServesOnlyItsOwnConnection() throws {
        let daemon = try DaemonProcess()
        let creator = DaemonKeychainService(socketPath: daemon.socketPath)
        let other = DaemonKeychainService(socketPath: daemon.socketPath)
        let app = Caller(identity: creator.callerIdentity)
        guard case .authenticationContext(let id) = try creator.perform(.createAuthenticationContext, as: app) else {
            Issue.record("no context")
            return
        }
        let using = Caller(identity: other.callerIdentity, authenticationContext: id)
        #expect(status { _ = try other.perform(.authenticationContextState, as: using) } == -50)
        // An evaluation answers as on an invalidated context (LAError.invalidContext), as in process.
        #expect(throws: AuthenticationFailure.invalidContext) {
            _ = try other.perform(.canEvaluatePolicy(.deviceOwner), as: using)
        }
        // Forgetting it there forgets nothing: the creator's context stays.
        #expect(status { _ = try other.perform(.forgetAuthenticationContext, as: using) } == 0)
        let own = Caller(identity: creator.callerIdentity, authenticationContext: id)
        #expect(status { _ = try creator.perform(.authenticationContextState, as: own) } == 0)
        // A context takes an application password of a few KiB at most.
        let huge = Secret(Array(repeating: 1, count: 5000))
        #expect(status { _ = try creator.perform(.setApplicationPassword(huge), as: own) } == -50)
        #expect(status { _ = try creator.perform(.setApplicationPassword(Secret(Array("pw".utf8))), as: own) } == 0)
    }

    /// One uid's keychain has a bound (`--max-keychain-size`), so one user cannot fill the disk every user's
    /// keychain is on: an add past it is errSecDiskFull, what was stored stays, and room made by a delete is used.
    @Test func anAddPastTheKeychainsBoundIsDiskFullAndTheRestStays() throws {
        let daemon = try DaemonProcess(["--max-keychain-size", String(1 << 20)])
        let client = KeychainClient(service: DaemonKeychainService(socketPath: daemon.socketPath))
        func add(_ account: String) throws {
            try client.add(
                NewItem(
                    itemClass: .genericPassword, attributes: [.service: .string("big"), .account: .string(account)],
                    data: Array(repeating: 7, count: 100_000)))
        }
        var stored = 0
        var refusal: Int32 = 0
        while stored < 40 {
            refusal = status { try add("item-\(stored)") }
            if refusal != 0 { break }
            stored += 1
        }
        #expect(refusal == -34, "\(stored) items of 100 kB were stored in 1 MiB")
        #expect(stored >= 3)
        let all = ItemQuery(itemClass: .genericPassword, attributes: [.service: .string("big")], limit: .all)
        #expect(try client.copyMatching(all).count == stored)
        try client.delete(
            ItemQuery(
                itemClass: .genericPassword, attributes: [.service: .string("big"), .account: .string("item-0")],
                limit: .all))
        #expect(status { try add("again") } == 0)
    }

    @Test func aRestartedDaemonWantsTheUnlockAgain() throws {
        var daemon: DaemonProcess? = try DaemonProcess()
        let directory = try #require(daemon?.directory)
        let socket = try #require(daemon?.socketPath)
        let client = KeychainClient(service: DaemonKeychainService(socketPath: socket))
        try #require(daemon).ownerClient().setPasscode(Secret(Array("1234".utf8)))
        try client.add(Self.item("gus", accessibility: .afterFirstUnlock))
        daemon?.stop(keepingState: true)
        daemon = nil
        let again = try DaemonProcess(directory: directory)
        #expect(try client.info().lockState == .beforeFirstUnlock)
        #expect(status { _ = try client.copyMatching(Self.query("gus")) } == -25308)
        try client.unlock(passcode: Secret(Array("1234".utf8)))
        #expect(try client.copyMatching(Self.query("gus")).count == 1)
        _ = again
    }
}

/// Prompts through the daemon: it forwards the passcode question and judges the answer against its keybag.
@Suite(.serialized) struct DaemonPromptTests {
    /// Answers the daemon's passcode question with `typed`, or says "authenticated" when nil.
    struct Relay: UserPrompter {
        let typed: String?
        func ask(_ prompt: UserPrompt) throws -> PromptAnswer {
            guard case .devicePasscode = prompt else { throw AuthenticationFailure.notInteractive }
            guard let typed else { return .confirmed }
            return .passcode(SecureBytesBox(Array(typed.utf8)))
        }
    }

    static func constrainedItem() -> NewItem {
        NewItem(
            itemClass: .genericPassword, attributes: [.service: .string("svc"), .account: .string("vault")],
            accessControl: AccessControlPolicy(accessibility: .whenPasscodeSetThisDeviceOnly, flags: [.devicePasscode]),
            data: Array("gold".utf8))
    }

    @Test func thePasscodeTypedAtTheClientIsCheckedByTheDaemon() throws {
        let daemon = try DaemonProcess()
        let right = KeychainClient(
            service: DaemonKeychainService(socketPath: daemon.socketPath, prompter: Relay(typed: "1234")))
        try daemon.ownerClient().setPasscode(Secret(Array("1234".utf8)))
        try right.add(Self.constrainedItem())
        let query = ItemQuery.genericPassword(service: "svc", account: "vault", returns: [.data])
        #expect(try right.copyMatching(query).first?.data?.bytes == Array("gold".utf8))

        let wrong = KeychainClient(
            service: DaemonKeychainService(socketPath: daemon.socketPath, prompter: Relay(typed: "9999")))
        #expect(status { _ = try wrong.copyMatching(query) } == -25293)
        // A client cannot say "authenticated": only a passcode the daemon verifies counts.
        let claims = KeychainClient(
            service: DaemonKeychainService(socketPath: daemon.socketPath, prompter: Relay(typed: nil)))
        #expect(status { _ = try claims.copyMatching(query) } != 0)
    }

    @Test func anEvaluationOfTheDevicePasscodeIsJudgedByTheDaemon() throws {
        let daemon = try DaemonProcess()
        let service = DaemonKeychainService(socketPath: daemon.socketPath, prompter: Relay(typed: "1234"))
        try daemon.ownerClient().setPasscode(Secret(Array("1234".utf8)))
        let id = try service.newContext()
        let evaluated = try service.perform(
            .evaluatePolicy(.devicePasscode, reason: "test"), as: service.caller(context: id))
        guard case .evaluated(let method) = evaluated else {
            Issue.record("not evaluated")
            return
        }
        #expect(method == .devicePasscode)
        let liar = DaemonKeychainService(socketPath: daemon.socketPath, prompter: Relay(typed: nil))
        guard case .authenticationContext(let other) = try liar.perform(.createAuthenticationContext, as: liar.caller())
        else {
            Issue.record("no context")
            return
        }
        #expect(
            status {
                _ = try liar.perform(.evaluatePolicy(.devicePasscode, reason: "t"), as: liar.caller(context: other))
            } == -1004)
    }

    /// A passcode typed at a device-passcode prompt counts with its connection's attempts: an app's after the
    /// wrong ones any app may feed, held back; the owner's apart, and accepted.
    @Test func theOwnersDevicePasscodePromptIsNotHeldBackByAnAppsWrongPasscodes() throws {
        let daemon = try DaemonProcess()
        try daemon.ownerClient().setPasscode(Secret(Array("1234".utf8)))
        let app = DaemonKeychainService(socketPath: daemon.socketPath, prompter: Relay(typed: "1234"))
        for _ in 0..<5 { _ = try? app.perform(.unlock(passcode: Secret(Array("0000".utf8))), as: app.caller()) }
        func evaluate(_ service: DaemonKeychainService) throws -> KeychainResponse {
            let id = try service.newContext()
            return try service.perform(
                .evaluatePolicy(.devicePasscode, reason: "test"), as: service.caller(context: id))
        }
        #expect(throws: AuthenticationFailure.authenticationFailed) { _ = try evaluate(app) }
        let owner = DaemonKeychainService(
            socketPath: daemon.socketPath, prompter: Relay(typed: "1234"),
            systemPrompter: ScriptedRelay([DaemonProcess.ownerPassword]))
        #expect(try owner.claimOwnerRights(message: "test").isGranted)
        guard case .evaluated(let method) = try evaluate(owner) else {
            Issue.record("not evaluated")
            return
        }
        #expect(method == .devicePasscode)
    }
}
