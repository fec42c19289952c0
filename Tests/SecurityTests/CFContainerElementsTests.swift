import Foundation
import Testing

@testable import Security

/// What the raw-pointer accessors keep for an element Foundation on Linux bridges to a Swift value.
@Suite struct CFContainerElementsTests {
    /// A secret the keychain returned (data wiped when it goes) comes out of its array as `Data`: the object kept
    /// for its pointer wipes its bytes too, instead of being a plain copy that outlives the result.
    @Test func dataElementsAreKeptInWipedMemory() {
        let secret = Array("hunter2-secret".utf8)
        let results = NSArray(array: [ReturnedData.holding(secret)])
        let element = unsafeBitCast(CFArrayGetValueAtIndex(results, 0), to: NSData.self)
        #expect(element is ReturnedData)
        #expect(element as Data == Data(secret))
        let dictionary = NSDictionary(dictionary: ["v_Data": ReturnedData.holding(secret)])
        let key = "v_Data" as NSString
        let value = unsafeBitCast(
            CFDictionaryGetValue(dictionary, Unmanaged.passUnretained(key).toOpaque()), to: NSData.self)
        #expect(value is ReturnedData)
    }

    /// Many containers, each asked once (the PKCS#12 idiom over many results), stay cheap: the table of kept
    /// objects is swept of containers gone now and then, not at every new one.
    @Test func manyContainersAreSweptNowAndThen() {
        for index in 0..<5_000 {
            let array = NSArray(array: [NSDictionary(dictionary: ["n": index])])
            let element = unsafeBitCast(CFArrayGetValueAtIndex(array, 0), to: NSDictionary.self)
            #expect(element["n"] as? Int == index)
        }
    }
}
