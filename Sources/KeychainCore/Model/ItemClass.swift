/// A keychain item class: one table each, named by Apple's raw `kSecClass` values.
public enum ItemClass: String, Sendable, CaseIterable {
    case genericPassword = "genp"
    case internetPassword = "inet"
    case certificate = "cert"
    case key = "keys"
    case identity = "idnt"

    /// Whether this engine stores items of the class yet; the others answer `errSecUnimplemented`.
    public var isImplemented: Bool { ClassSchema.of(self) != nil }
}
