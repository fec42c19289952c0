import Foundation
import Security

// This file imports Security and not LocalAuthentication: `NSErrorPointer` must come with it too.
extension NSErrorPointerVisibility {
    static func fromSecurityAlone(_ error: NSErrorPointer) -> Bool { error != nil }
}
