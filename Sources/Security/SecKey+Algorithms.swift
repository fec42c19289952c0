import CryptoKitOpenSSL
import Foundation

/// Whether `key` can perform `operation` with `algorithm`.
public func SecKeyIsAlgorithmSupported(_ key: SecKey, _ operation: SecKeyOperationType, _ algorithm: SecKeyAlgorithm)
    -> Bool
{
    (try? KeyAlgorithmPlan.resolve(algorithm, key: key, operation: operation)) != nil
}

extension KeyAlgorithmPlan {
    /// The plan of `algorithm` for `key` and `operation`.
    /// - Throws: `errSecParam` "algorithm not supported by the key", as Apple reports an algorithm that does not
    ///   fit the key or operation (or is unknown).
    static func resolve(_ algorithm: SecKeyAlgorithm, key: SecKey, operation: SecKeyOperationType) throws
        -> KeyAlgorithmPlan
    {
        guard let plan = KeyAlgorithmPlan(algorithm), plan.isSupported(by: key, for: operation) else {
            throw SecKeyError.param("\(algorithm.rawValue): algorithm not supported by the key \(key)")
        }
        return plan
    }
}
