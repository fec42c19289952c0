import CryptoKit
import Foundation
import Security
import Testing

/// `SecKeyCopyKeyExchangeResult`: ECDH with and without the X9.63 KDF, and its parameters' errors.
@Suite struct SecKeyKeyExchangeTests {
    @Test func bothSidesAgreeOnEveryVariant() throws {
        let alice = try KeyFixtures.randomKey(kSecAttrKeyTypeECSECPrimeRandom, bits: 256)
        let bob = try KeyFixtures.randomKey(kSecAttrKeyTypeECSECPrimeRandom, bits: 256)
        let parameters =
            [
                SecKeyKeyExchangeParameter.requestedSize.rawValue: 42,
                SecKeyKeyExchangeParameter.sharedInfo.rawValue: Data("context".utf8),
            ] as CFDictionary
        let algorithms = SecKeyAlgorithm.all.filter { ($0.rawValue as String).hasPrefix("algid:keyexchange") }
        #expect(algorithms.count == 12)
        for algorithm in algorithms {
            var error: Unmanaged<CFError>?
            let ours = try #require(
                SecKeyCopyKeyExchangeResult(alice, algorithm, try KeyFixtures.publicKey(bob), parameters, &error)
                    as Data?, "\(algorithm.rawValue)")
            let theirs = SecKeyCopyKeyExchangeResult(
                bob, algorithm, try KeyFixtures.publicKey(alice), parameters, &error)
            #expect(ours == theirs as Data?)
            #expect(ours.count == ((algorithm.rawValue as String).contains("KDFX963") ? 42 : 32))
        }
    }

    @Test func theKDFVariantIsX963OverTheSharedSecret() throws {
        let alice = try KeyFixtures.randomKey(kSecAttrKeyTypeECSECPrimeRandom, bits: 256)
        let bob = try KeyFixtures.publicKey(try KeyFixtures.randomKey(kSecAttrKeyTypeECSECPrimeRandom, bits: 256))
        var error: Unmanaged<CFError>?
        let z = try #require(
            SecKeyCopyKeyExchangeResult(alice, .ecdhKeyExchangeStandard, bob, [:] as CFDictionary, &error) as Data?)
        let info = Data("info".utf8)
        let parameters =
            [
                SecKeyKeyExchangeParameter.requestedSize.rawValue: 48,
                SecKeyKeyExchangeParameter.sharedInfo.rawValue: info,
            ] as CFDictionary
        let derived = SecKeyCopyKeyExchangeResult(alice, .ecdhKeyExchangeStandardX963SHA256, bob, parameters, &error)
        #expect(derived as Data? == SecKeyEncryptionTests.x963SHA256(z, sharedInfo: info, count: 48))
    }

    @Test func missingSizeWrongInfoAndOtherCurvesAreErrSecParam() throws {
        let alice = try KeyFixtures.randomKey(kSecAttrKeyTypeECSECPrimeRandom, bits: 256)
        let bob = try KeyFixtures.publicKey(try KeyFixtures.randomKey(kSecAttrKeyTypeECSECPrimeRandom, bits: 256))
        let carol = try KeyFixtures.publicKey(try KeyFixtures.randomKey(kSecAttrKeyTypeECSECPrimeRandom, bits: 384))
        var error: Unmanaged<CFError>?
        #expect(
            SecKeyCopyKeyExchangeResult(alice, .ecdhKeyExchangeStandardX963SHA256, bob, [:] as CFDictionary, &error)
                == nil)
        let failure = error?.takeRetainedValue()
        #expect(failure?.code == Int(errSecParam))
        #expect(failure?.userInfo["NSDescription"] as? String == "kSecKeyKeyExchangeParameterRequestedSize is missing")
        let badInfo =
            [
                SecKeyKeyExchangeParameter.requestedSize.rawValue: 16,
                SecKeyKeyExchangeParameter.sharedInfo.rawValue: "text",
            ] as CFDictionary
        #expect(SecKeyCopyKeyExchangeResult(alice, .ecdhKeyExchangeStandardX963SHA256, bob, badInfo, &error) == nil)
        #expect(KeyFixtures.status(error)?.code == Int(errSecParam))
        #expect(SecKeyCopyKeyExchangeResult(alice, .ecdhKeyExchangeStandard, carol, [:] as CFDictionary, &error) == nil)
        #expect(KeyFixtures.status(error)?.code == Int(errSecParam))
        #expect(SecKeyCopyKeyExchangeResult(bob, .ecdhKeyExchangeStandard, bob, [:] as CFDictionary, &error) == nil)
        #expect(KeyFixtures.status(error)?.code == Int(errSecParam))
        #expect(!SecKeyIsAlgorithmSupported(bob, .keyExchange, .ecdhKeyExchangeStandard))
        #expect(SecKeyIsAlgorithmSupported(alice, .keyExchange, .ecdhKeyExchangeCofactorX963SHA512))
    }
}
