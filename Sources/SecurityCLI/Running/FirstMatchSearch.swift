import KeychainCore

/// The attributes macOS's `security` searches on to pick "the first item" for `find`, `delete` and `add -U`
/// (`find_first_generic_password` and `find_first_internet_password`, keychain_find.c): with the whole primary key
/// given it searches on that key alone, since it names at most one item and the other options are new values (for
/// `-U`); else on every attribute given. A port of 0 (also `-P abc`, read with `atoi`) means no port.
enum FirstMatchSearch {
    static func attributes(_ itemClass: ItemClass, _ given: [AttributeKey: AttributeValue])
        -> [AttributeKey: AttributeValue]
    {
        var searched = given
        if searched[.port] == .number(0) { searched[.port] = nil }
        let primaryKey = ClassSchema.of(itemClass)?.primaryKey ?? []
        guard !primaryKey.isEmpty, primaryKey.allSatisfy({ searched[$0] != nil }) else { return searched }
        return searched.filter { primaryKey.contains($0.key) }
    }
}
