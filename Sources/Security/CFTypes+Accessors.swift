import Foundation

// Core Foundation's accessors, for the CF types of CFTypes.swift (Foundation's classes), with Apple's Swift
// signatures: code that reads Security's results through them compiles and behaves unchanged.

/// Seconds since 1 January 2001 00:00:00 UTC.
public typealias CFAbsoluteTime = Double
/// A time interval in seconds.
public typealias CFTimeInterval = Double
/// A hash code, as `CFHash` gives it.
public typealias CFHashCode = UInt

/// The current time.
/// - Returns: seconds since 1 January 2001 00:00:00 UTC.
public func CFAbsoluteTimeGetCurrent() -> CFAbsoluteTime { Date().timeIntervalSinceReferenceDate }

/// The number of bytes of a data object.
/// - Parameter theData: the data.
/// - Returns: its length.
public func CFDataGetLength(_ theData: CFData!) -> CFIndex { theData.length }

/// The bytes of a data object, valid while it lives.
/// - Parameter theData: the data.
/// - Returns: a pointer to its first byte.
public func CFDataGetBytePtr(_ theData: CFData!) -> UnsafePointer<UInt8>! {
    theData.bytes.assumingMemoryBound(to: UInt8.self)
}

/// The number of elements of an array.
/// - Parameter theArray: the array.
/// - Returns: its count.
public func CFArrayGetCount(_ theArray: CFArray!) -> CFIndex { theArray.count }

/// An element of an array, as a raw pointer to the object, valid while the array lives: turn it back with
/// `unsafeBitCast(_:to:)` or `Unmanaged.fromOpaque`.
/// - Parameters:
///   - theArray: the array.
///   - idx: the index, within the array.
/// - Returns: the element, unretained.
public func CFArrayGetValueAtIndex(_ theArray: CFArray!, _ idx: CFIndex) -> UnsafeRawPointer! {
    CFContainerElements.pointer(to: theArray.object(at: idx), at: idx, in: theArray)
}

/// The value of a key in a dictionary, as a raw pointer to the object, valid while the dictionary lives.
/// - Parameters:
///   - theDict: the dictionary.
///   - key: a pointer to the key object (`Unmanaged.passUnretained(kSecImportItemIdentity).toOpaque()`).
/// - Returns: the value, unretained, or nil when the key is absent.
public func CFDictionaryGetValue(_ theDict: CFDictionary!, _ key: UnsafeRawPointer!) -> UnsafeRawPointer! {
    guard let key else { return nil }
    let keyObject = Unmanaged<AnyObject>.fromOpaque(key).takeUnretainedValue()
    guard let value = theDict.object(forKey: keyObject) else { return nil }
    // Keys are compared by value, so the slot is the key's value, not its pointer.
    let slot = (keyObject as? NSObject).map { AnyHashable($0) } ?? AnyHashable(ObjectIdentifier(keyObject))
    return CFContainerElements.pointer(to: value, at: slot, in: theDict)
}

/// Whether two objects are equal: Foundation's `isEqual` for its classes, the Security types' own equality (a
/// `SecTrust` only to itself, as on Apple platforms).
/// - Parameters:
///   - cf1: an object.
///   - cf2: another.
/// - Returns: whether they are equal.
public func CFEqual(_ cf1: CFTypeRef!, _ cf2: CFTypeRef!) -> Bool {
    let first: AnyObject = cf1
    let second: AnyObject = cf2
    if first === second { return true }
    if let first = first as? NSObject, let second = second as? NSObject { return first.isEqual(second) }
    if let first = first as? any Hashable, let second = second as? any Hashable {
        return AnyHashable(first) == AnyHashable(second)
    }
    return false
}

/// A hash code of an object, the same for objects `CFEqual` finds equal.
/// - Parameter cf: the object.
/// - Returns: its hash code.
public func CFHash(_ cf: CFTypeRef!) -> CFHashCode {
    let object: AnyObject = cf
    if let object = object as? NSObject { return CFHashCode(bitPattern: object.hash) }
    if let object = object as? any Hashable { return CFHashCode(bitPattern: AnyHashable(object).hashValue) }
    return CFHashCode(bitPattern: ObjectIdentifier(object).hashValue)
}

/// The value of a Boolean.
/// - Parameter boolean: `kCFBooleanTrue` or `kCFBooleanFalse` (or any number).
/// - Returns: its truth.
public func CFBooleanGetValue(_ boolean: CFBoolean!) -> Bool { boolean.boolValue }

/// A description of an object, for debugging.
/// - Parameter cf: the object.
/// - Returns: its description.
public func CFCopyDescription(_ cf: CFTypeRef!) -> CFString! {
    let object: AnyObject = cf
    return String(describing: object) as NSString
}
