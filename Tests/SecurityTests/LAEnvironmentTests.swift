import Foundation
import KeychainCore
import LocalAuthentication
import Synchronization
import Testing

/// iOS 17's `LAEnvironment`: the user's mechanisms as the keychain's authenticators are, and observers told of
/// changes.
@Suite struct LAEnvironmentTests {
    /// Counts the changes it is told of, keeping the last old state.
    final class Recorder: NSObject, LAEnvironmentObserver, @unchecked Sendable {
        let changes = Mutex<[Bool?]>([])  // the old state's biometry enrollment, per change

        func environment(_ environment: LAEnvironment, stateDidChangeFrom oldState: LAEnvironmentState) {
            changes.withLock { $0.append(oldState.biometry?.isEnrolled) }
        }

        var count: Int { changes.withLock { $0.count } }
    }

    @Test func theStateIsTheAuthenticators() async throws {
        try await withAuthenticatingKeychain(passcode: nil, enrolled: false) { keychain, _ in
            let empty = LAEnvironment.currentUser.state
            let sensor = try #require(empty.biometry)
            #expect(sensor.biometryType == .touchID)
            #expect(!sensor.isEnrolled && !sensor.isUsable && sensor.stateHash.isEmpty)
            #expect(empty.userPassword?.isSet == false)
            #expect(empty.companions.isEmpty)
            #expect(empty.allMechanisms.count == 2)

            try keychain.setPasscode(Secret(Array("1234".utf8)))
            try keychain.authenticators.biometry.enroll()
            try keychain.authenticators.companion.pair()
            let state = LAEnvironment.currentUser.state
            let enrolled = try #require(state.biometry)
            #expect(enrolled.isEnrolled && enrolled.isUsable && !enrolled.isLockedOut)
            #expect(enrolled.stateHash == LAContext().domainState.biometry.stateHash)
            #expect(state.userPassword?.isSet == true && state.userPassword?.isUsable == true)
            #expect(state.companions.map(\.type) == [.watch])
            #expect(state.allMechanisms.count == 3)
            #expect(state != empty)
            #expect(state == LAEnvironment.currentUser.state)
        }
    }

    @Test func eachKeychainHasOneEnvironment() async throws {
        let first = try await withAuthenticatingKeychain { _, _ in
            #expect(LAEnvironment.currentUser === LAEnvironment.currentUser)
            return LAEnvironment.currentUser
        }
        try await withAuthenticatingKeychain { _, _ in
            #expect(LAEnvironment.currentUser !== first)
        }
    }

    /// The environment of a task's keychain does not keep that keychain alive.
    @Test func anEnvironmentLetsItsKeychainGo() async throws {
        weak var released: Keychain?
        try await withAuthenticatingKeychain { keychain, _ in
            released = keychain
            _ = LAEnvironment.currentUser.state
        }
        #expect(released == nil)
    }

    @Test func observersAreToldOfChangesUntilRemoved() async throws {
        try await withAuthenticatingKeychain(enrolled: false) { keychain, _ in
            let environment = LAEnvironment.currentUser
            let recorder = Recorder()
            environment.addObserver(recorder)
            try keychain.authenticators.biometry.enroll()
            #expect(await waitUntil { recorder.count == 1 })
            #expect(recorder.changes.withLock { $0 } == [false])

            environment.removeObserver(recorder)
            try keychain.authenticators.biometry.changeEnrollment()
            try await Task.sleep(for: .milliseconds(1_200))
            #expect(recorder.count == 1)
        }
    }

    @Test func anObserverIsHeldWeakly() async throws {
        try await withAuthenticatingKeychain(enrolled: false) { keychain, _ in
            let kept = Recorder()
            var dropped: Recorder? = Recorder()
            LAEnvironment.currentUser.addObserver(kept)
            LAEnvironment.currentUser.addObserver(try #require(dropped))
            weak let gone = dropped
            dropped = nil
            #expect(gone == nil)
            try keychain.authenticators.companion.pair()
            #expect(await waitUntil { kept.count == 1 })
            LAEnvironment.currentUser.removeObserver(kept)
        }
    }

    /// Polls `condition` for up to five seconds.
    private func waitUntil(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<100 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return condition()
    }
}
