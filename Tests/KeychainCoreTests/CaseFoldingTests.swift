import Foundation
import Testing

@testable import KeychainCore

/// The case-folded form that case-insensitive digests are made of (`kSecMatchCaseInsensitive`): digests of items
/// stored before must still match, so every way of folding must give what Foundation's folding gives.
@Suite struct CaseFoldingTests {
    private func foundation(_ text: String) -> [UInt8] {
        Array(text.folding(options: [.caseInsensitive], locale: nil).utf8)
    }

    @Test func everyASCIICharacterFoldsAsFoundationFoldsIt() {
        for code in UInt8(0)...UInt8(127) {
            let text = String(decoding: [code, UInt8(ascii: "x"), code], as: UTF8.self)
            #expect(AttributeValue.string(text).foldedBytes == foundation(text), "code point \(code)")
            #expect(AttributeValue.data(Array(text.utf8)).foldedBytes == foundation(text), "code point \(code)")
        }
    }

    @Test func textBeyondASCIIFoldsAsFoundationFoldsIt() {
        for text in ["Straße", "ÉCOLE école", "İstanbul", "ΣΊΣΥΦΟΣ", "ﬁle", "mixed ASCII and Ä", "日本語のアカウント", ""] {
            #expect(AttributeValue.string(text).foldedBytes == foundation(text), "\(text)")
        }
    }

    @Test func onlyTextHasAFoldedForm() {
        #expect(AttributeValue.data([0xFF, 0xFE]).foldedBytes == nil)
        #expect(AttributeValue.number(7).foldedBytes == nil)
        #expect(AttributeValue.string("ABC").foldedBytes == Array("abc".utf8))
    }
}
