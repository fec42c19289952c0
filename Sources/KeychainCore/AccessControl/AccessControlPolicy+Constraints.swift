extension AccessControlPolicy {
    /// The attribute under which an item's access control is stored and returned (`kSecAttrAccessControl`).
    static let attributeKey = AttributeKey("accc")

    /// The constraints as alternatives, each a set of factors that must all hold: `.or` makes each flag an
    /// alternative, `.and` (or no combinator) puts them all in one; `.userPresence` is biometry (any) or the
    /// passcode, so it splits an alternative in two. The application password is no alternative but a requirement
    /// of every one, whatever the combinator: Apple's `SecAccessControlCreateWithFlags` leaves it out of the
    /// constraints it combines and requires it on top of them.
    var alternatives: [[ConstraintFactor]] {
        var factors: [[ConstraintFactor]] = []  // each entry: the choices for one flag
        if flags.contains(.userPresence) { factors.append([.biometryAny, .devicePasscode]) }
        if flags.contains(.biometryAny) { factors.append([.biometryAny]) }
        if flags.contains(.biometryCurrentSet) { factors.append([.biometryCurrentSet]) }
        if flags.contains(.devicePasscode) { factors.append([.devicePasscode]) }
        if flags.contains(.companion) { factors.append([.companion]) }
        var result: [[ConstraintFactor]]
        if flags.contains(.or) {
            result = factors.flatMap { $0.map { [$0] } }
        } else {
            result = [[]]
            for choices in factors {
                result = result.flatMap { partial in choices.map { Array(Set(partial + [$0])) } }
            }
            if factors.isEmpty { result = [] }
        }
        guard flags.contains(.applicationPassword) else { return result.map { $0.sorted() } }
        return (result.isEmpty ? [[]] : result).map { ($0 + [.applicationPassword]).sorted() }
    }

    /// The bytes stored in the item's sealed attributes and bound into its secret's additional data.
    var encoded: [UInt8] {
        [1] + Array(accessibility.rawValue.utf8) + [0] + UInt64(flags.rawValue).bigEndianBytes
    }

    /// Reads ``encoded``; nil when the bytes are not an access control.
    init?(encoded bytes: [UInt8]) {
        guard bytes.first == 1, let zero = bytes.firstIndex(of: 0), bytes.count == zero + 9,
            let raw = String(bytes: bytes[1..<zero], encoding: .utf8), let accessibility = Accessibility(rawValue: raw)
        else { return nil }
        let flags = bytes[(zero + 1)...].withUnsafeBytes { raw in
            var reader = BinaryReader(raw, damaged: KeychainError.decode)
            return try? reader.integer(UInt64.self)
        }
        guard let flags else { return nil }
        self.init(accessibility: accessibility, flags: AccessControlFlags(rawValue: UInt(flags)))
    }
}
