import Foundation
import Security
import Testing

@Suite("Type identifiers")
struct TypeIdentifierTests {
    @Test func everySecurityTypeHasItsOwnIdentifier() throws {
        let key = try #require(
            SecKeyCreateRandomKey(
                [kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits: 256] as CFDictionary, nil))
        let identifiers: [CFTypeID] = [
            SecAccessControlGetTypeID(), SecCertificateGetTypeID(), SecPolicyGetTypeID(), SecTrustGetTypeID(),
            SecKeyGetTypeID(), CFStringGetTypeID(), CFDataGetTypeID(), CFNumberGetTypeID(), CFBooleanGetTypeID(),
            CFDictionaryGetTypeID(), CFArrayGetTypeID(), CFDateGetTypeID(), CFErrorGetTypeID(),
        ]
        #expect(Set(identifiers).count == identifiers.count)
        #expect(CFGetTypeID(key) == SecKeyGetTypeID())
        #expect(CFGetTypeID(SecPolicyCreateBasicX509()) == SecPolicyGetTypeID())
    }
}
