/// The persistent references (class and UUID) a restore has read so far: a backup holds each item once, so a
/// second entry with one is damage in the file, whatever the target holds. Checked as each entry is read.
struct RestoredReferences {
    private var seen: Set<[UInt8]> = []

    /// - Throws: `errSecDecode` when an earlier entry had the same reference.
    mutating func refuseRepeated(_ entry: BackupEntry) throws {
        guard seen.insert(Array(entry.itemClass.rawValue.utf8) + entry.uuid).inserted else {
            throw KeychainError.decode.because(
                "the backup itself holds two items of class \(entry.itemClass.rawValue) with the same persistent "
                    + "reference; it is damaged, and nothing was restored")
        }
    }
}
