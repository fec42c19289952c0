extension RuleDescriptor {
    /// The page that explains the rule's subject, given to SARIF viewers as `helpUri`: Apple's documentation of
    /// the API or setting involved, or the OWASP MASVS control for rules about the analyzer itself.
    public var helpURI: String {
        Self.helpLinks[id] ?? "https://mas.owasp.org/MASVS/"
    }

    private static let apple = "https://developer.apple.com/documentation/"

    private static let helpLinks: [String: String] = [
        "KL001": "https://mas.owasp.org/MASVS/controls/MASVS-CODE-4/",
        "KL101": apple + "security/ksecattraccessiblealways",
        "KL102": apple + "security/ksecattraccessible",
        "KL103": apple + "security/restricting-keychain-item-accessibility",
        "KL201": apple + "security/updating-and-deleting-keychain-items",
        "KL202": apple + "security/errsecinteractionnotallowed",
        "KL203": apple + "security/secitemadd(_:_:)",
        "KL204": apple + "security/secitemupdate(_:_:)",
        "KL205": apple + "security/secitemdelete(_:)",
        "KL206": apple + "security/searching-for-keychain-items",
        "KL207": apple + "security/secitemcopymatching(_:_:)",
        "KL208": apple + "security/secitemadd(_:_:)",
        "KL209": apple + "security/errsecduplicateitem",
        "KL301": apple + "security/secaccesscontrolcreatewithflags(_:_:_:_:)",
        "KL302": apple + "security/ksecattrsynchronizable",
        "KL303": apple + "security/secaccesscontrolcreateflags/biometrycurrentset",
        "KL304": apple + "localauthentication/accessing-keychain-items-with-face-id-or-touch-id",
        "KL305": apple + "bundleresources/information-property-list/nsfaceidusagedescription",
        "KL306": apple + "security/secaccesscontrolcreateflags/userpresence",
        "KL401": apple + "foundation/userdefaults",
        "KL402": "https://mas.owasp.org/MASVS/controls/MASVS-CRYPTO-2/",
        "KL403": apple + "os/oslogprivacy",
        "KL404": "https://mas.owasp.org/MASVS/controls/MASVS-CRYPTO-2/",
        "KL501": apple + "technotes/tn3137-on-mac-keychains",
        "KL502": apple
            + "bundleresources/information-property-list/nsapptransportsecurity/nsallowsarbitraryloads",
        "KL503": apple + "cryptokit",
        "KL504": apple + "bundleresources/describing-use-of-required-reason-api",
        "KL505": apple + "security/ksecattraccessiblewhenunlocked",
        "KL601": apple + "cryptokit/insecure",
        "KL602": apple + "cryptokit/symmetrickeysize",
        "KL603": apple + "cryptokit/secureenclave/isavailable",
        "KL604": apple + "cryptokit/aes/gcm/nonce",
        "KL605": apple + "security/ksecattrispermanent",
        "KL606": apple + "security/ksecattrkeysizeinbits",
        "KL607": apple + "security/seckeyalgorithm/rsaencryptionoaepsha256",
        "KL608": apple + "security/seckeyalgorithm",
        "KL609": apple + "security/seccertificatecopykey(_:)",
    ]
}
