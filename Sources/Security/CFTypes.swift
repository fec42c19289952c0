import Foundation

// Core Foundation's names, mapped onto Foundation's classes so that code written for Apple platforms compiles
// unchanged on Linux. The mapping is forced by how clients use them: `var result: AnyObject?` passed as
// `&result` needs CFTypeRef == AnyObject; `[String: Any] as CFDictionary` bridges only to NSDictionary;
// `takeRetainedValue() as Error` needs CFError == NSError; `kCFBooleanTrue as? Bool` needs CFBoolean ==
// NSNumber. A client that also imports the toolchain's CoreFoundation module sees these names twice.

/// A status code (`OSStatus`), as on Apple platforms.
public typealias OSStatus = Int32
/// A four-character code (`'appl'`), as `kSecAttrCreator` and `kSecAttrType` hold one (MacTypes.h).
public typealias FourCharCode = UInt32
/// A four-character type code (MacTypes.h).
public typealias OSType = FourCharCode
/// Any Core Foundation object.
public typealias CFTypeRef = AnyObject
public typealias CFString = NSString
public typealias CFDictionary = NSDictionary
public typealias CFMutableDictionary = NSMutableDictionary
public typealias CFData = NSData
public typealias CFMutableData = NSMutableData
public typealias CFArray = NSArray
public typealias CFNumber = NSNumber
public typealias CFBoolean = NSNumber
public typealias CFDate = NSDate
public typealias CFError = NSError
public typealias CFErrorDomain = CFString
public typealias CFOptionFlags = UInt
public typealias CFIndex = Int
public typealias CFTypeID = UInt

/// A memory allocator; Foundation on Linux has one, so this only carries the name.
public final class CFAllocator: Sendable {
    fileprivate init() {}
}

/// The default allocator. Every function here also accepts nil.
public let kCFAllocatorDefault: CFAllocator! = CFAllocator()

/// The Boolean true, as a `CFBoolean` (clients force-unwrap it). NSNumber is Sendable on Linux, so unlike the
/// NSString constants these need no `nonisolated(unsafe)` (which would warn in every client's build).
public let kCFBooleanTrue: CFBoolean! = NSNumber(value: true)
/// The Boolean false, as a `CFBoolean`.
public let kCFBooleanFalse: CFBoolean! = NSNumber(value: false)

/// No error (`noErr`).
public let noErr: OSStatus = 0

/// The error domain of `OSStatus` codes.
nonisolated(unsafe) public let kCFErrorDomainOSStatus: CFErrorDomain = SecConstant("NSOSStatusErrorDomain")

/// The domain of an error.
public func CFErrorGetDomain(_ error: CFError!) -> CFErrorDomain! { error.domain as NSString }
/// The code of an error (an `OSStatus` for keychain errors).
public func CFErrorGetCode(_ error: CFError!) -> CFIndex { error.code }
/// The user info of an error.
public func CFErrorCopyUserInfo(_ error: CFError!) -> CFDictionary! { NSDictionary(dictionary: error.userInfo) }
/// A description of an error.
public func CFErrorCopyDescription(_ error: CFError!) -> CFString! { error.localizedDescription as NSString }

/// The type identifier of a Core Foundation object.
public func CFGetTypeID(_ object: CFTypeRef!) -> CFTypeID {
    switch object {
    case is SecAccessControl: SecAccessControlGetTypeID()
    case is SecKey: SecKeyGetTypeID()
    case is SecCertificate: SecCertificateGetTypeID()
    case is SecPolicy: SecPolicyGetTypeID()
    case is SecTrust: SecTrustGetTypeID()
    case is SecIdentity: SecIdentityGetTypeID()
    case let number as NSNumber where number.isBoolean: CFBooleanGetTypeID()
    case is NSNumber: CFNumberGetTypeID()
    case is NSString: CFStringGetTypeID()
    case is NSData: CFDataGetTypeID()
    case is NSDictionary: CFDictionaryGetTypeID()
    case is NSArray: CFArrayGetTypeID()
    case is NSDate: CFDateGetTypeID()
    case is NSError: CFErrorGetTypeID()
    default: 0
    }
}

public func CFArrayGetTypeID() -> CFTypeID { 19 }
public func CFBooleanGetTypeID() -> CFTypeID { 21 }
public func CFDataGetTypeID() -> CFTypeID { 20 }
public func CFDateGetTypeID() -> CFTypeID { 42 }
public func CFDictionaryGetTypeID() -> CFTypeID { 18 }
public func CFErrorGetTypeID() -> CFTypeID { 30 }
public func CFNumberGetTypeID() -> CFTypeID { 22 }
public func CFStringGetTypeID() -> CFTypeID { 7 }

extension NSNumber {
    /// Whether the number was made from a Bool (Foundation on Linux keeps that in its type).
    var isBoolean: Bool {
        String(cString: objCType) == "c" && (self == NSNumber(value: true) || self == NSNumber(value: false))
    }
}
