import KeychainCrypto

/// The simulated sensor's document as last read, with the file identity it was read at and the keys derived
/// from it, so that reads within a reused context do not re-read and re-derive them while the file is unchanged.
struct BiometrySnapshot: Sendable {
    let identity: [Int]
    let document: BiometryDocument
    let domainState: [UInt8]?
    let currentSetKey: SecureBytes?
    let anyKey: SecureBytes?
}
