import Foundation
import LocalAuthentication

// This file imports LocalAuthentication and not Security: `NSErrorPointer` must come with it, as on Apple platforms.
enum NSErrorPointerVisibility {
    static func fromLocalAuthenticationAlone(_ error: NSErrorPointer) -> Bool { error != nil }
}
