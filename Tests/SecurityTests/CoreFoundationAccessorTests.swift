import Foundation
import Security
import Testing

/// The Core Foundation accessors iOS code calls on Security's results, in the shapes it calls them.
@Suite struct CoreFoundationAccessorTests {
    let fixtures: CertificateFixtures

    init() throws { fixtures = try CertificateFixtures.shared() }

    @Test func dataBytesAndLength() throws {
        let certificate = try fixtures.certificate("leaf")
        let data = SecCertificateCopyData(certificate)
        let copy = NSData(bytes: CFDataGetBytePtr(data), length: CFDataGetLength(data))
        #expect(copy as Data == (try fixtures.data("leaf.der")))
        #expect(CFDataGetLength(data) == (data as Data).count)
        let first: UInt8 = CFDataGetBytePtr(data)[0]
        #expect(first == 0x30)  // a DER SEQUENCE
    }

    /// The PKCS#12 idiom: the first item as a dictionary, its identity and chain read with `kSecImportItem…` keys.
    @Test func pkcs12ItemsReadThroughRawPointers() throws {
        let options = [kSecImportExportPassphrase as String: "correct-horse"] as CFDictionary
        var items: CFArray?
        #expect(SecPKCS12Import(try fixtures.data("default.p12") as CFData, options, &items) == errSecSuccess)
        #expect(CFArrayGetCount(items) == 1)
        let dict = unsafeBitCast(CFArrayGetValueAtIndex(items, 0), to: CFDictionary.self)
        #expect(dict === unsafeBitCast(CFArrayGetValueAtIndex(items, 0), to: CFDictionary.self))
        let identity = unsafeBitCast(
            CFDictionaryGetValue(dict, Unmanaged.passUnretained(kSecImportItemIdentity).toOpaque()),
            to: SecIdentity.self)
        var certificate: SecCertificate?
        #expect(SecIdentityCopyCertificate(identity, &certificate) == errSecSuccess)
        #expect(certificate.map { SecCertificateCopyData($0) as Data } == (try fixtures.data("leaf.der")))
        let rawIdentity = try #require(
            CFDictionaryGetValue(dict, Unmanaged.passUnretained(kSecImportItemIdentity).toOpaque()))
        #expect(Unmanaged<SecIdentity>.fromOpaque(rawIdentity).takeUnretainedValue() == identity)

        let chain = unsafeBitCast(
            CFDictionaryGetValue(dict, Unmanaged.passUnretained(kSecImportItemCertChain).toOpaque()),
            to: CFArray.self)
        #expect(CFArrayGetCount(chain) == 3)
        let leaf = unsafeBitCast(CFArrayGetValueAtIndex(chain, 0), to: SecCertificate.self)
        #expect(SecCertificateCopyData(leaf) as Data == (try fixtures.data("leaf.der")))
        let absent: CFString = "no such key" as CFString
        #expect(CFDictionaryGetValue(dict, Unmanaged.passUnretained(absent).toOpaque()) == nil)
    }

    @Test func elementsOfAnArrayOfValuesStayValidWhileTheArrayLives() {
        let labels = ["one", "two"] as CFArray
        let first = unsafeBitCast(CFArrayGetValueAtIndex(labels, 0), to: CFString.self)
        let again = unsafeBitCast(CFArrayGetValueAtIndex(labels, 0), to: CFString.self)
        #expect(first === again)
        #expect(first as String == "one")
        #expect(unsafeBitCast(CFArrayGetValueAtIndex(labels, 1), to: CFString.self) as String == "two")
    }

    @Test func equalityHashBooleanAndDescription() throws {
        let certificate = try fixtures.certificate("leaf")
        var trust: SecTrust?
        var other: SecTrust?
        #expect(SecTrustCreateWithCertificates(certificate, SecPolicyCreateBasicX509(), &trust) == errSecSuccess)
        #expect(SecTrustCreateWithCertificates(certificate, SecPolicyCreateBasicX509(), &other) == errSecSuccess)
        #expect(CFEqual(trust, trust))
        #expect(!CFEqual(trust, other))
        #expect(CFEqual(certificate, try fixtures.certificate("leaf")))
        #expect(CFHash(certificate) == CFHash(try fixtures.certificate("leaf")))
        #expect(CFEqual("acct" as CFString, kSecAttrAccount))
        #expect(CFHash("acct" as CFString) == CFHash(kSecAttrAccount))
        #expect(!CFEqual(kSecAttrAccount, kSecAttrService))
        #expect(CFBooleanGetValue(kCFBooleanTrue) && !CFBooleanGetValue(kCFBooleanFalse))
        #expect((CFCopyDescription(certificate) as String).isEmpty == false)
        #expect(CFCopyDescription("text" as CFString) as String == "text")
    }

    @Test func absoluteTime() throws {
        var trust: SecTrust?
        #expect(
            SecTrustCreateWithCertificates(try fixtures.certificate("leaf"), SecPolicyCreateBasicX509(), &trust)
                == errSecSuccess)
        let evaluated = try #require(trust)
        #expect(SecTrustSetVerifyDate(evaluated, Date(timeIntervalSinceReferenceDate: 700_000_000) as CFDate) == 0)
        let time: CFAbsoluteTime = SecTrustGetVerifyTime(evaluated)
        #expect(time == 700_000_000)
        let now: CFAbsoluteTime = CFAbsoluteTimeGetCurrent()
        #expect(abs(now - Date().timeIntervalSinceReferenceDate) < 60)
    }
}
