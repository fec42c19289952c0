import Foundation

/// The class of every `kSec…` constant: an immutable NSString that hashes, in an `AnyHashable`, as the Swift
/// String with the same characters.
///
/// On Apple platforms `AnyHashable(kSecAttrAccount)` equals `AnyHashable("acct")`, so a result bridged to
/// `[AnyHashable: Any]` (whose keys become Strings) can be indexed with the constant itself. On Linux a plain
/// NSString keeps its own identity in an `AnyHashable` and such lookups miss; this class restores Apple's
/// behaviour for the keychain's constants.
final class SecConstant: NSString, @unchecked Sendable {  // safe: immutable after init
    private let units: [unichar]

    init(_ value: String) {
        units = Array(value.utf16)
        super.init(characters: [], length: 0)
    }

    required convenience init(string aString: String) { self.init(aString) }
    required convenience init(stringLiteral value: StaticString) { self.init(value.description) }
    required convenience init(unicodeScalarLiteral value: StaticString) { self.init(value.description) }
    required convenience init(extendedGraphemeClusterLiteral value: StaticString) { self.init(value.description) }
    required init?(coder: NSCoder) { nil }
    required init(itemProviderData data: Data, typeIdentifier: String) throws {
        throw CocoaError(.coderReadCorrupt)
    }

    override var length: Int { units.count }
    override func character(at index: Int) -> unichar { units[index] }
}

extension SecConstant: _HasCustomAnyHashableRepresentation {
    func _toCustomAnyHashable() -> AnyHashable? {
        AnyHashable(String(utf16CodeUnits: units, count: units.count))
    }
}
