import Foundation

/// Makes a `kSec…` constant: an ordinary NSString, so that `kSecAttrAccount as String` takes Foundation's
/// fast bridging path.
func SecConstant(_ raw: String) -> CFString { NSString(string: raw) }

// On Apple platforms `AnyHashable(kSecAttrAccount)` equals `AnyHashable("acct")`: Foundation there gives
// NSString a custom AnyHashable representation (the Swift String). A keychain result bridged to
// `[AnyHashable: Any]` has String keys, so iOS code indexes it with the constant itself. Foundation on Linux
// lacks that representation, and such lookups miss. This restores Apple's behaviour, for every NSString of a
// process that links Security (the same scope it has on Apple platforms). A subclass scoped to the constants
// would do the same for them alone, but Foundation on Linux bridges a subclass to String about 25 times more
// slowly (1.7 µs against 0.07 µs a key), a cost every `kSec… as String` in a client would pay.
// swift-format-ignore: AvoidRetroactiveConformances
extension NSString: @retroactive _HasCustomAnyHashableRepresentation {
    public func _toCustomAnyHashable() -> AnyHashable? {
        AnyHashable(String._unconditionallyBridgeFromObjectiveC(self))
    }
}
