import Foundation
import Security
import Testing

/// `SecKeyCreateRandomKey`, `SecKeyCreateWithData`, `SecKeyCopyExternalRepresentation`, `SecKeyCopyPublicKey`,
/// `SecKeyCopyAttributes` and `SecKeyGetBlockSize` in Apple's formats and with Apple's errors.
@Suite struct SecKeyGenerationTests {
    @Test(arguments: [(256, 32), (384, 48), (521, 66)])
    func ecKeysHaveTheirCurvesSizes(bits: Int, coordinate: Int) throws {
        let key = try KeyFixtures.randomKey(kSecAttrKeyTypeECSECPrimeRandom, bits: bits)
        #expect(SecKeyGetBlockSize(key) == coordinate)
        let external = try KeyFixtures.external(key)
        #expect(external.count == 1 + 3 * coordinate)
        #expect(external.first == 0x04)
        let publicKey = try KeyFixtures.publicKey(key)
        let publicExternal = try KeyFixtures.external(publicKey)
        #expect(publicExternal == external.prefix(1 + 2 * coordinate))
    }

    @Test func theECTypeAndTheDefaultSizeGiveP256() throws {
        var error: Unmanaged<CFError>?
        let key = try #require(SecKeyCreateRandomKey([kSecAttrKeyType: kSecAttrKeyTypeEC] as CFDictionary, &error))
        #expect(SecKeyGetBlockSize(key) == 32)
    }

    @Test func rsaKeysExportPKCS1AndReimport() throws {
        let key = try KeyFixtures.randomKey(kSecAttrKeyTypeRSA, bits: 2048)
        #expect(SecKeyGetBlockSize(key) == 256)
        let privateDER = try KeyFixtures.external(key)
        #expect(privateDER.prefix(4) == Data([0x30, 0x82, 0x04, privateDER[3]]))
        let publicDER = try KeyFixtures.external(try KeyFixtures.publicKey(key))
        #expect(publicDER.prefix(2) == Data([0x30, 0x82]))
        var error: Unmanaged<CFError>?
        let attributes = [kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeyClass: kSecAttrKeyClassPrivate]
        let imported = try #require(SecKeyCreateWithData(privateDER as CFData, attributes as CFDictionary, &error))
        #expect(imported == key)
        #expect(try KeyFixtures.external(imported) == privateDER)
    }

    @Test(arguments: [("73", 255), ("73", 512), ("42", 511), ("42", 256), ("42", 8193), ("42", 16384)])
    func badSizesAreErrSecParam(type: String, bits: Int) {
        var error: Unmanaged<CFError>?
        let key = SecKeyCreateRandomKey([kSecAttrKeyType: type, kSecAttrKeySizeInBits: bits] as CFDictionary, &error)
        #expect(key == nil)
        let status = KeyFixtures.status(error)
        #expect(status?.domain == "NSOSStatusErrorDomain")
        #expect(status?.code == Int(errSecParam))
    }

    @Test func badOrMissingTypesAreErrSecParam() {
        for parameters in [
            [kSecAttrKeySizeInBits: 256] as CFDictionary, [kSecAttrKeyType: kSecAttrKeyTypeAES] as CFDictionary,
            [kSecAttrKeyType: "cheese"] as CFDictionary,
        ] {
            var error: Unmanaged<CFError>?
            #expect(SecKeyCreateRandomKey(parameters, &error) == nil)
            #expect(KeyFixtures.status(error)?.code == Int(errSecParam))
        }
    }

    /// Apple's SecRSAKey.c takes any size from 512 to 8192 bits (kMaximumRSAKeyBits) and has no default: without
    /// kSecAttrKeySizeInBits the generation fails (errSecParam, "failed to generate key", from SecKey.m). The odd
    /// sizes are corecrypto's to make, as they are OpenSSL's.
    @Test func rsaSizesAreApples() throws {
        for bits in [512, 520, 1000] {
            let key = try KeyFixtures.randomKey(kSecAttrKeyTypeRSA, bits: bits)
            #expect(SecKeyGetBlockSize(key) == (bits + 7) / 8)
            let attributes = try #require(SecKeyCopyAttributes(key) as? [String: Any])
            #expect(attributes[kSecAttrKeySizeInBits as String] as? Int == bits)
        }
        var error: Unmanaged<CFError>?
        #expect(SecKeyCreateRandomKey([kSecAttrKeyType: kSecAttrKeyTypeRSA] as CFDictionary, &error) == nil)
        #expect(KeyFixtures.status(error)?.code == Int(errSecParam))
    }

    /// Apple's SecKeyCreateRandomKey compares kSecAttrKeyType with its constants by CFEqual: the strings "73"
    /// (kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyTypeEC) and "42" (kSecAttrKeyTypeRSA), never a number and
    /// never "43" (kSecAttrKeyTypeDSA).
    @Test func theKeyTypeMustBeOneOfApplesStrings() throws {
        for type in [73 as NSNumber, 42 as NSNumber, "43" as NSString, kSecAttrKeyTypeDSA] as [AnyObject] {
            var error: Unmanaged<CFError>?
            let parameters = [kSecAttrKeyType: type, kSecAttrKeySizeInBits: 256] as CFDictionary
            #expect(SecKeyCreateRandomKey(parameters, &error) == nil, "\(type)")
            #expect(KeyFixtures.status(error)?.code == Int(errSecParam))
        }
        for type in ["73", kSecAttrKeyTypeEC, kSecAttrKeyTypeECSECPrimeRandom] as [AnyObject] {
            var error: Unmanaged<CFError>?
            let parameters = [kSecAttrKeyType: type, kSecAttrKeySizeInBits: 256] as CFDictionary
            #expect(SecKeyCreateRandomKey(parameters, &error).map(SecKeyGetBlockSize) == 32)
        }
    }

    @Test func sizesGivenAsStringsAreRead() throws {
        var error: Unmanaged<CFError>?
        let key = SecKeyCreateRandomKey(
            [kSecAttrKeyType: kSecAttrKeyTypeEC, kSecAttrKeySizeInBits: "384"] as CFDictionary, &error)
        #expect(key.map(SecKeyGetBlockSize) == 48)
    }

    @Test func attributesAreApplesForAPrivateAndAPublicKey() throws {
        let key = try KeyFixtures.randomKey(kSecAttrKeyTypeECSECPrimeRandom, bits: 256)
        let attributes = try #require(SecKeyCopyAttributes(key) as? [String: Any])
        #expect(attributes[kSecAttrKeyClass as String] as? String == kSecAttrKeyClassPrivate as String)
        #expect(attributes[kSecAttrKeyType as String] as? String == "73")
        #expect(attributes[kSecAttrKeySizeInBits as String] as? Int == 256)
        #expect(attributes[kSecAttrEffectiveKeySize as String] as? Int == 256)
        #expect(attributes[kSecAttrCanSign as String] as? Bool == true)
        #expect(attributes[kSecAttrCanVerify as String] as? Bool == false)
        #expect(attributes[kSecAttrCanDecrypt as String] as? Bool == true)
        #expect(attributes[kSecAttrCanEncrypt as String] as? Bool == false)
        #expect(attributes[kSecAttrCanDerive as String] as? Bool == true)
        #expect(attributes[kSecAttrCanUnwrap as String] as? Bool == true)
        #expect(attributes[kSecAttrCanWrap as String] as? Bool == false)
        #expect(attributes[kSecAttrIsExtractable as String] as? Bool == true)
        #expect(attributes[kSecValueData as String] as? Data == (try KeyFixtures.external(key)))
        // klbl is the SHA-1 of the public key's external representation.
        let publicExternal = try KeyFixtures.external(try KeyFixtures.publicKey(key))
        let openssl = try OpenSSLCommand()
        defer { openssl.remove() }
        try openssl.write(publicExternal, to: "public.bin")
        let sha1 = try openssl.run(["dgst", "-sha1", "-binary", openssl.path("public.bin")]).output
        #expect(attributes[kSecAttrApplicationLabel as String] as? Data == sha1)

        let publicAttributes = try #require(SecKeyCopyAttributes(try KeyFixtures.publicKey(key)) as? [String: Any])
        #expect(publicAttributes[kSecAttrKeyClass as String] as? String == kSecAttrKeyClassPublic as String)
        #expect(publicAttributes[kSecAttrCanVerify as String] as? Bool == true)
        #expect(publicAttributes[kSecAttrCanSign as String] as? Bool == false)
        #expect(publicAttributes[kSecAttrCanEncrypt as String] as? Bool == true)
        #expect(publicAttributes[kSecAttrApplicationLabel as String] as? Data == sha1)
        #expect(publicAttributes[kSecValueData as String] as? Data == publicExternal)
    }

    /// The usage flags Apple's key classes report (Security's SecECKey.m, SecRSAKey.c): derive only for an EC
    /// private key, and decrypt for an RSA public key too.
    static var usageFlags: [(type: CFString, isPrivate: Bool, flags: [CFString: Bool])] {
        let names = [
            kSecAttrCanEncrypt, kSecAttrCanDecrypt, kSecAttrCanDerive, kSecAttrCanSign, kSecAttrCanVerify,
            kSecAttrCanWrap, kSecAttrCanUnwrap,
        ]
        func flags(_ values: [Bool]) -> [CFString: Bool] { Dictionary(uniqueKeysWithValues: zip(names, values)) }
        // In the order of `names`: encr, decr, drve, sign, vrfy, wrap, unwp.
        return [
            (kSecAttrKeyTypeECSECPrimeRandom, true, flags([false, true, true, true, false, false, true])),
            (kSecAttrKeyTypeECSECPrimeRandom, false, flags([true, false, false, false, true, true, false])),
            (kSecAttrKeyTypeRSA, true, flags([false, true, false, true, false, false, true])),
            (kSecAttrKeyTypeRSA, false, flags([true, true, false, false, true, true, false])),
        ]
    }

    /// A key of each kind of `usageFlags`, private or public.
    static func key(_ type: CFString, isPrivate: Bool) throws -> SecKey {
        let key = try KeyFixtures.randomKey(type, bits: type == kSecAttrKeyTypeRSA ? 1024 : 256)
        return isPrivate ? key : try KeyFixtures.publicKey(key)
    }

    @Test func usageFlagsAreApplesForEachKind() throws {
        for (type, isPrivate, flags) in Self.usageFlags {
            let attributes = try #require(
                SecKeyCopyAttributes(try Self.key(type, isPrivate: isPrivate)) as? [String: Any])
            for (flag, value) in flags {
                #expect(attributes[flag as String] as? Bool == value, "\(type) private \(isPrivate): \(flag)")
            }
            #expect(attributes["snrc"] as? Bool == false)
            #expect(attributes["vyrc"] as? Bool == false)
        }
    }

    @Test func ecDataImportsByClassAndRejectsWhatIsNotAKey() throws {
        let key = try KeyFixtures.randomKey(kSecAttrKeyTypeECSECPrimeRandom, bits: 384)
        let external = try KeyFixtures.external(key)
        var error: Unmanaged<CFError>?
        let privateAttributes = [
            kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClass: kSecAttrKeyClassPrivate,
        ]
        #expect(SecKeyCreateWithData(external as CFData, privateAttributes as CFDictionary, &error) == key)
        // A scalar that does not give the point is refused, not silently accepted.
        var altered = external
        altered[altered.count - 1] ^= 0x01
        #expect(SecKeyCreateWithData(altered as CFData, privateAttributes as CFDictionary, &error) == nil)
        #expect(KeyFixtures.status(error)?.code == Int(errSecParam))
        let publicAttributes = [
            kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClass: kSecAttrKeyClassPublic,
        ]
        var offCurve = external.prefix(97)
        offCurve[offCurve.startIndex + 96] ^= 0x01
        #expect(SecKeyCreateWithData(Data(offCurve) as CFData, publicAttributes as CFDictionary, &error) == nil)
        #expect(KeyFixtures.status(error)?.code == Int(errSecParam))
        #expect(SecKeyCreateWithData(Data([1, 2, 3]) as CFData, publicAttributes as CFDictionary, &error) == nil)
        #expect(KeyFixtures.status(error)?.code == Int(errSecParam))
        #expect(
            SecKeyCreateWithData(external as CFData, [kSecAttrKeyType: kSecAttrKeyTypeEC] as CFDictionary, &error)
                == nil)
        #expect(KeyFixtures.status(error)?.code == Int(errSecParam))
        let symmetric = [kSecAttrKeyType: kSecAttrKeyTypeAES, kSecAttrKeyClass: kSecAttrKeyClassSymmetric]
        #expect(SecKeyCreateWithData(external as CFData, symmetric as CFDictionary, &error) == nil)
        #expect(KeyFixtures.status(error)?.code == Int(errSecUnimplemented))
    }

    @Test func rsaGarbageIsErrSecParam() {
        var error: Unmanaged<CFError>?
        let attributes = [kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeyClass: kSecAttrKeyClassPublic]
        #expect(
            SecKeyCreateWithData(Data([0x30, 0x03, 0x02, 0x01, 0x01]) as CFData, attributes as CFDictionary, &error)
                == nil)
        let failure = error?.takeRetainedValue()
        #expect(failure?.code == Int(errSecParam))
        #expect(failure?.userInfo["NSDescription"] as? String == "RSA public key creation from data failed")
    }

    @Test func keysAreCFTypesAndDescribeNoSecret() throws {
        let key = try KeyFixtures.randomKey(kSecAttrKeyTypeECSECPrimeRandom, bits: 256)
        #expect(CFGetTypeID(key) == SecKeyGetTypeID())
        let external = try KeyFixtures.external(key)
        let scalarHex = external.suffix(32).hex
        #expect(!"\(key)".lowercased().contains(scalarHex))
        #expect("\(key)".contains("ECPrivateKey"))
        #expect(SecKeyCopyPublicKey(try KeyFixtures.publicKey(key)) == (try KeyFixtures.publicKey(key)))
    }
}
