import Foundation
import KeychainCore
import Security

/// The SecItem dictionary decoder, through the four public functions on a keychain with seed items: the input
/// chooses the function and builds its dictionaries from Apple's keys and values of every type a caller can
/// pass (NaN and infinite dates and numbers, huge limits, wrong types, unknown keys). A successful change puts
/// the seed items back, so each input starts from the same keychain.
extension FuzzTarget {
    static let secItemDictionary = FuzzTarget(
        name: "secitem-dictionary",
        summary: "SecItemAdd/CopyMatching/Update/Delete with dictionaries built from the input"
    ) { bytes in
        SecItemFuzzing.prepare()
        var input = FuzzInput(bytes)
        let function = input.byte() % 4
        let first = SecItemFuzzing.dictionary(&input)
        var status: OSStatus
        var result: CFTypeRef?
        switch function {
        case 0:
            status = SecItemCopyMatching(first, &result)
        case 1:
            status = SecItemAdd(first, &result)
        case 2:
            status = SecItemUpdate(first, SecItemFuzzing.dictionary(&input))
        default:
            status = SecItemDelete(first)
        }
        fuzzNote("function \(function) of \(first): \(status) \(result.map { String(describing: $0) } ?? "")")
        if function != 0 && status == errSecSuccess { SecItemFuzzing.restoreSeeds() }
    }
}

enum SecItemFuzzing {
    private static let installed: Bool = {
        SecurityRuntime.install(FuzzKeychain.shared)
        return true
    }()

    static func prepare() { _ = installed }

    /// Empties the keychain and adds the seed items again.
    static func restoreSeeds() {
        for itemClass in ["genp", "inet", "cert", "keys", "idnt"] {
            let query: NSDictionary = ["class": itemClass, "sync": "syna"]
            _ = SecItemDelete(query)
        }
        FuzzKeychain.seed(FuzzKeychain.shared)
    }

    static let keys = [
        "class", "acct", "svce", "gena", "labl", "desc", "icmt", "crtr", "type", "invi", "nega", "srvr", "sdmn",
        "ptcl", "atyp", "port", "path", "agrp", "sync", "pdmn", "accc", "cdat", "mdat", "m_Limit",
        "m_CaseInsensitive", "r_Data", "r_Attributes", "r_Ref", "r_PersistentRef", "v_Data", "v_PersistentRef",
        "v_Ref", "nleg", "u_OpPrompt", "u_NoAuthUI", "u_AuthUI", "u_AuthCtx", "u_ItemList", "tkid", "m_Policy",
        "klbl", "kcls", "bsiz", "subj", "issr", "slnr",
    ]

    static let strings = [
        "genp", "inet", "cert", "keys", "idnt", "seed", "alice", "bob", "example.com", "ak", "ck", "dk", "aku", "cku",
        "dku", "akpu", "m_LimitOne", "m_LimitAll", "syna", "u_AuthUIA", "u_AuthUIF", "u_AuthUIS", FuzzKeychain.group,
        FuzzKeychain.otherGroup, "TEAMFUZZ.elsewhere", "", "htps", "dflt",
    ]

    /// A dictionary of up to 15 entries read from the input.
    static func dictionary(_ input: inout FuzzInput) -> NSDictionary {
        let result = NSMutableDictionary()
        for _ in 0..<Int(input.byte() % 16) {
            let key = input.byte() < 224 ? input.pick(keys) : input.text(limit: 12)
            result[key] = value(&input, depth: 0)
        }
        return result
    }

    private static func value(_ input: inout FuzzInput, depth: Int) -> Any {
        switch input.byte() % 12 {
        case 0, 1: return input.pick(strings)
        case 2: return input.text()
        case 3: return Data(input.lengthPrefixed())
        case 4: return NSNumber(value: input.integer())
        case 5: return NSNumber(value: input.double())
        case 6: return input.byte() & 1 == 1
        case 7: return Date(timeIntervalSinceReferenceDate: input.double())
        case 8: return Int(Int8(bitPattern: input.byte()))
        case 9:
            let protection = input.pick(["ak", "ck", "dk", "aku", "cku", "dku", "akpu", "bogus"])
            let flags = SecAccessControlCreateFlags(rawValue: CFOptionFlags(input.word() & 0xC000_C03B))
            let control = SecAccessControlCreateWithFlags(nil, protection as CFString, flags, nil)
            return control.map { $0 as Any } ?? NSNull()
        case 10 where depth < 2: return [value(&input, depth: depth + 1), value(&input, depth: depth + 1)]
        case 11 where depth < 2: return [input.pick(keys): value(&input, depth: depth + 1)] as NSDictionary
        default: return NSNull()
        }
    }
}
