import Foundation

/// A small JSON document in the keychain home that every process of the keychain reads and changes (the
/// simulated sensor and companion): read whole, changed under a file lock, replaced atomically, mode 0600.
/// A missing file reads as `Document()`.
struct SharedStateFile<Document: Codable & Equatable & SharedStateDocument>: Sendable {
    let url: URL
    let path: String
    private let lockURL: URL

    init(home: URL) {
        url = home.appendingPathComponent(Document.fileName)
        path = url.path
        lockURL = home.appendingPathComponent(Document.fileName + ".lock")
    }

    /// The document now. - Throws: `errSecDecode` when the file is damaged.
    func read() throws -> Document {
        guard let bytes = try SecretFile.read(url) else { return Document() }
        do { return try JSONDecoder().decode(Document.self, from: Data(bytes)) } catch {
            throw KeychainError.decode.because("\(Document.fileName) is damaged")
        }
    }

    /// Read-modify-write under the lock; the file is rewritten only when `body` changed the document.
    func modify(_ body: (inout Document) throws -> Void) throws {
        try SecretFile.withExclusiveLock(lockURL) {
            let old = try read()
            var document = old
            try body(&document)
            guard document != old else { return }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try SecretFile.replace(url, bytes: Array(try encoder.encode(document)))
        }
    }
}

/// A document kept in a ``SharedStateFile``.
protocol SharedStateDocument: Sendable {
    /// The file's name in the keychain home.
    static var fileName: String { get }
    /// The state before the file exists.
    init()
}
