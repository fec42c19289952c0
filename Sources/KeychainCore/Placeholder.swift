// KeychainCore
