import Foundation
import Synchronization

/// The objects behind the raw pointers `CFArrayGetValueAtIndex` and `CFDictionaryGetValue` hand out.
///
/// On Apple platforms such a pointer is the container's own element, valid while the container lives, and code
/// turns it back into an object with `unsafeBitCast`. An element that is an object here (`SecIdentity`,
/// `SecCertificate`) is its own pointer. But Foundation on Linux hands a bridged element back as a Swift value (an
/// NSDictionary as a Dictionary), so the object made from it is kept here for as long as its container lives.
enum CFContainerElements {
    // Safe to send: the container is only compared by identity, and the objects are copies this type made; both
    // are reached only under the lock.
    private struct Kept: @unchecked Sendable {
        weak var container: AnyObject?
        /// Per slot (an index or a key's identity), every object made for it, the newest last: none is let go
        /// while the container lives, so a pointer handed out stays valid even after a mutable container changes.
        var objects: [AnyHashable: [AnyObject]] = [:]
    }

    private static let kept = Mutex<[ObjectIdentifier: Kept]>([:])

    /// A pointer to `element`, valid while `container` lives.
    /// - Parameters:
    ///   - element: what the container gave for `slot`.
    ///   - slot: the index or the key's identity.
    ///   - container: the array or dictionary.
    /// - Returns: the element's object, unretained.
    static func pointer(to element: Any, at slot: AnyHashable, in container: AnyObject) -> UnsafeRawPointer {
        if type(of: element) is AnyObject.Type {
            return UnsafeRawPointer(Unmanaged.passUnretained(element as AnyObject).toOpaque())
        }
        // An immutable container's element never changes; a mutable one's is made again when it no longer equals.
        let mutable = container is NSMutableArray || container is NSMutableDictionary
        let id = ObjectIdentifier(container)
        let made = Kept(container: container, objects: [slot: [element as AnyObject]])
        let address = kept.withLock { kept -> UInt in
            var entry: Kept
            if let known = kept[id], known.container === container {
                if let newest = known.objects[slot]?.last,
                    !mutable || (newest as? NSObject)?.isEqual(element) == true
                {
                    return UInt(bitPattern: Unmanaged.passUnretained(newest).toOpaque())
                }
                entry = known
                entry.objects[slot, default: []] += made.objects[slot] ?? []
            } else {
                kept = kept.filter { $0.value.container != nil }
                entry = made
            }
            kept[id] = entry
            let object = entry.objects[slot]?.last ?? (element as AnyObject)
            return UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
        }
        // The address is of an object the table keeps, so it is never zero.
        return UnsafeRawPointer(bitPattern: address).unsafelyUnwrapped
    }
}
