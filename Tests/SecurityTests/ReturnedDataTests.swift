import Foundation
import KeychainCore
import Testing

@testable import Security

/// The data objects the SecItem functions return (ReturnedData) behave as any CFData does, and the dictionary
/// reader takes data, strings and flags in each form clients pass them.
@Suite struct ReturnedDataTests {
    private static let secret = Data("correct horse battery staple 123".utf8)

    @Test func returnedDataIsDataWithItsBytes() throws {
        try withFreshKeychain {
            let secret = String(decoding: Self.secret, as: UTF8.self)
            #expect(addPassword(service: "rd", account: "a", secret: secret) == errSecSuccess)
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "rd",
                kSecAttrAccount as String: "a", kSecReturnData as String: true,
            ]
            var result: AnyObject?
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
            let object = try #require(result)
            #expect(CFGetTypeID(object) == CFDataGetTypeID())
            #expect(object as? Data == Self.secret)
            let data = try #require(object as? NSData)
            #expect(data.length == Self.secret.count)
            // Equal to, and hashed as, a plain NSData of the same bytes, both ways.
            let plain = NSData(data: Self.secret)
            #expect(data.isEqual(plain))
            #expect(plain.isEqual(data))
            #expect(data.hash == plain.hash)
            #expect(Set([data, plain]).count == 1)
            #expect((data.copy() as? NSData)?.isEqual(plain) == true)
            #expect((data.mutableCopy() as? NSMutableData)?.isEqual(plain) == true)
            #expect(data.description == plain.description)
            #expect(data.base64EncodedString() == Self.secret.base64EncodedString())
        }
    }

    @Test func emptyAndSlicedData() {
        let empty = ReturnedData.holding([])
        #expect(empty.length == 0)
        #expect(empty as Data == Data())
        #expect(empty.isEqual(NSData()))
        let bytes: [UInt8] = [0, 1, 2, 255]
        let data = ReturnedData.holding(bytes)
        #expect(Array(data as Data) == bytes)
        #expect(data.subdata(with: NSRange(location: 1, length: 2)) == Data([1, 2]))
        var copied = [UInt8](repeating: 9, count: 4)
        data.getBytes(&copied, length: 4)
        #expect(copied == bytes)
    }

    @Test func persistentReferenceAloneIsTwentyBytes() throws {
        try withFreshKeychain {
            #expect(addPassword(service: "rd", account: "p", secret: "x") == errSecSuccess)
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "rd",
                kSecAttrAccount as String: "p", kSecReturnPersistentRef as String: true,
            ]
            var result: AnyObject?
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
            let reference = try #require(result as? Data)
            #expect(reference.count == 20)
            let byReference: [String: Any] = [
                kSecValuePersistentRef as String: reference, kSecReturnData as String: true,
            ]
            var found: AnyObject?
            #expect(SecItemCopyMatching(byReference as CFDictionary, &found) == errSecSuccess)
            #expect(found as? Data == Data("x".utf8))
        }
    }

    @Test func valuesAreReadInEveryForm() throws {
        // A value given as NSData or as Data, a flag as Bool or NSNumber, a string as String or NSString.
        let forms: [(data: Any, flag: Any, service: Any)] = [
            (Data("v".utf8), true, "svc"),
            (NSData(data: Data("v".utf8)), NSNumber(value: 1), NSString(string: "svc")),
            (NSMutableData(data: Data("v".utf8)), NSNumber(value: 2), "svc"),
        ]
        for form in forms {
            let add = NSMutableDictionary()
            add[kSecClass] = kSecClassGenericPassword
            add[kSecAttrService] = form.service
            add[kSecValueData] = form.data
            add[kSecReturnData] = form.flag
            let input = try SecDictionary(decoding: add)
            #expect(input.data == Array("v".utf8))
            #expect(input.returns == .data)
            #expect(input.attributes[.service] == .string("svc"))
        }
        let wrong = NSMutableDictionary()
        wrong[kSecClass] = kSecClassGenericPassword
        wrong[kSecReturnData] = "yes"
        #expect(throws: KeychainError.self) { try SecDictionary(decoding: wrong) }
        wrong[kSecReturnData] = true
        wrong[kSecValueData] = "not data"
        #expect(throws: KeychainError.self) { try SecDictionary(decoding: wrong) }
    }
}
