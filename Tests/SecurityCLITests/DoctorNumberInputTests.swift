import Foundation
import Testing

/// `security doctor` reads JSON numbers for number attributes as SecItemAdd would get them from Swift: 0 and 1
/// included (issue 11), for text attributes too, and JSON `true`/`false` only where Apple's securityd takes a
/// Boolean.
@Suite struct DoctorNumberInputTests {
    @Test func zeroAndOneAreNumbersForNumberAttributes() {
        let harness = CommandHarness()
        let add = harness.doctor(
            "add",
            json: #"{"class":"inet","srvr":"example.com","port":0,"crtr":1,"type":0,"v_Data":"pw"}"#)
        #expect(add.exitCode == 0)
        #expect(add.output.hasPrefix("SecItemAdd would return 0: No error."))
        let copy = harness.doctor(
            "copy", json: #"{"class":"inet","srvr":"example.com","port":1,"crtr":true,"m_Limit":1}"#)
        #expect(copy.output.hasPrefix("SecItemCopyMatching would return -25300"))
    }

    @Test func booleansStayRefusedWhereAppleRefusesThem() {
        let harness = CommandHarness()
        let limit = harness.doctor("copy", json: #"{"class":"genp","m_Limit":true}"#)
        #expect(limit.output.hasPrefix("SecItemCopyMatching would return -50"))
        let text = harness.doctor("add", json: #"{"class":"genp","acct":true,"v_Data":"pw"}"#)
        #expect(text.output.hasPrefix("SecItemAdd would return -50"))
        // A number is kept for a text attribute, as securityd keeps one for its blob attributes.
        let number = harness.doctor("add", json: #"{"class":"genp","acct":1,"v_Data":"pw"}"#)
        #expect(number.output.hasPrefix("SecItemAdd would return 0"))
    }
}
