import Foundation

/// A pointer through which a call hands back an `NSError`, the name Foundation gives it on Apple platforms; the
/// type of `canEvaluatePolicy(_:error:)`'s error, which mocks of `LAContext` override with this name.
///
/// Security declares the same alias (a file may import either face alone); two aliases of one type do not make
/// the name ambiguous in a file that imports both.
public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?
