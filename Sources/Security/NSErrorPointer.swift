import Foundation

/// A pointer through which a call hands back an `NSError`, the name Foundation gives it on Apple platforms.
///
/// Foundation on Linux does not declare it, and iOS code writes it in the mocks and protocols it puts in front of
/// `LAContext.canEvaluatePolicy(_:error:)`. LocalAuthentication declares the same alias, because it does not
/// re-export Security; two aliases of one type do not make the name ambiguous in a file that imports both.
public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?
