// Apple's CryptoKit, on Linux, over OpenSSL 3 libcrypto (through CryptoKitOpenSSL).
// Apple's CryptoKit speaks Foundation (`Data`, `DataProtocol`, `ContiguousBytes`) in its signatures, and code
// written for it uses `Data` after `import CryptoKit` alone; Foundation is re-exported so that such code compiles.
@_exported import Foundation
