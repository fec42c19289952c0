import Foundation
import Synchronization

/// The objects behind the raw pointers `CFArrayGetValueAtIndex` and `CFDictionaryGetValue` hand out.
///
/// On Apple platforms such a pointer is the container's own element, valid while the container lives, and code
/// turns it back into an object with `unsafeBitCast`. An element that is an object here (`SecIdentity`,
/// `SecCertificate`) is its own pointer. But Foundation on Linux hands a bridged element back as a Swift value (an
/// NSDictionary as a Dictionary), so the object made from it is kept here for as long as its container lives, and
/// until the next sweep after it is gone. Data is kept in memory that is wiped when the object goes.
enum CFContainerElements {
    // Safe to send: the container is only compared by identity, and the objects are copies this type made; both
    // are reached only under the lock.
    private struct Kept: @unchecked Sendable {
        weak var container: AnyObject?
        /// Per slot (an index or a key's identity), every object made for it, the newest last: none is let go
        /// while the container lives, so a pointer handed out stays valid even after a mutable container changes.
        var objects: [AnyHashable: [AnyObject]] = [:]
    }

    private struct Table: @unchecked Sendable {
        var entries: [ObjectIdentifier: Kept] = [:]
        /// The size at which the entries of containers gone are swept out: sweeping at every new container made
        /// a run over many containers quadratic.
        var sweepAt = 64
        /// Objects made since the last sweep: a process that makes few containers after one holding a secret
        /// still lets that secret go (and be wiped) soon.
        var madeSinceSweep = 0
    }

    private static let table = Mutex(Table())

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
        let address = table.withLock { table -> UInt in
            let known = table.entries[id].flatMap { $0.container === container ? $0 : nil }
            var entry = known ?? Kept(container: container)
            if let newest = entry.objects[slot]?.last, !mutable || (newest as? NSObject)?.isEqual(element) == true {
                return UInt(bitPattern: Unmanaged.passUnretained(newest).toOpaque())
            }
            let object = Self.object(for: element)
            entry.objects[slot, default: []].append(object)
            table.entries[id] = entry
            table.madeSinceSweep += 1
            if table.entries.count >= table.sweepAt || table.madeSinceSweep >= max(64, table.entries.count) {
                table.entries = table.entries.filter { $0.value.container != nil }
                table.sweepAt = max(64, table.entries.count * 2)
                table.madeSinceSweep = 0
            }
            return UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
        }
        // The address is of an object the table keeps, so it is never zero.
        return UnsafeRawPointer(bitPattern: address).unsafelyUnwrapped
    }

    /// The object kept for a bridged element: bytes in memory that is wiped when the object goes (a secret the
    /// keychain returned comes out of its container as `Data`), anything else as Foundation bridges it.
    private static func object(for element: Any) -> AnyObject {
        if let data = element as? Data { return data.withUnsafeBytes { ReturnedData(copying: $0) } }
        return element as AnyObject
    }
}
