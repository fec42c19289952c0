import Foundation
import Testing

@testable import KeychainCore

/// A right passcode that opens the keybag's class keys but one, whose wrapped bytes were damaged, is no wrong
/// passcode: the unlock fails as damage (errSecNotAvailable) and the count of wrong attempts, whose delays lock
/// the owner out for up to an hour, stays as it was. A wrong passcode, which opens none, still counts.
@Suite(.serialized) struct DamagedKeybagEntryTests {
    @Test func aDamagedClassKeyIsNotAWrongPasscode() throws {
        let home = temporaryHome()
        let keychain = try fastKDFKeychain(home: home)
        defer { keychain.simulateRestart() }
        try keychain.setPasscode(testPasscode)
        keychain.simulateRestart()

        try editKeybag(in: home) { document in
            var classes = try #require(document["classes"] as? [String: String])
            let encoded = try #require(classes["cku"])
            var wrapped = try #require(Data(base64Encoded: encoded))
            wrapped[wrapped.count - 1] ^= 0x01
            classes["cku"] = wrapped.base64EncodedString()
            document["classes"] = classes
        }

        let right = keychainStatus { try keychain.unlock(passcode: testPasscode) }
        #expect(right == -25291)
        #expect(try keychain.info().failedAttempts == 0)
        let wrong = keychainStatus { try keychain.unlock(passcode: Secret(Array("not the passcode".utf8))) }
        #expect(wrong == -25293)
        #expect(try keychain.info().failedAttempts == 1)
    }
}
