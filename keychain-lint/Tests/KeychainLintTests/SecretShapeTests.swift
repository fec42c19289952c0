import Testing

@testable import KeychainLint

/// Secrets under other names and shapes are found; keys that are meant to ship in the app are not called secrets.
@Suite struct SecretShapeTests {
    @Test func pinsPasscodesAndCardCodesInDefaultsAreReported() {
        let source = """
            func remember(passcode: String, card: Card) {
                UserDefaults.standard.set("1234", forKey: "PIN")
                let defaults = UserDefaults(suiteName: "group.shop")
                defaults?.set(passcode, forKey: "lockSetting")
                defaults?.set(card.cvv, forKey: "checkoutCard")
                UserDefaults.standard.set(true, forKey: "pinEnabled")
                UserDefaults.standard.set(card.last4, forKey: "lastCard")
                UserDefaults.standard.set(newValue, forKey: Keys.useBiometryInsteadOfPin)
            }
            """
        #expect(locations(of: "KL401", in: source) == ["2:5", "4:5", "5:5"])
    }

    @Test func keyMaterialUnderOtherNamesAndShapesIsReported() {
        let source = """
            final class Cipher {
                var encryptionKey = "letmeinletmein"
                var aesKey = "0123456789abcdef0123456789abcdef"
                let masterPasscode = "Open-4-Sesame"
                static let hmacKey = "hmacKey"
                let password = "password"
            }
            enum Credentials: String {
                case clientSecret = "9e107d9d372bb6826bd81d3542a419d6a5b5f2b0e1b7d3c4f6a8e9d0c1b2a3f4"
                case clientName = "ios-app"
            }
            func configure(store: SecretStore) {
                store.set("Tr0ub4dor&3", forKey: "adminPassword")
                store.set("Tr0ub4dor&3", forKey: "displayName")
            }
            """
        #expect(locations(of: "KL402", in: source) == ["2:25", "3:18", "4:26", "9:25", "13:15"])
    }

    @Test func publishableKeysAreLowWithTheRightAdvice() {
        let source = """
            enum Services {
                static let mapsKey = "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW"
                static let mixpanelToken = "5d3c0b2a9f8e7d6c5b4a39281706f5e4"
            }
            func start() {
                Mixpanel.initialize(token: "a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5")
                Purchases.configure(withAPIKey: "appl_Zx8Yw7Vu6Ts5Rq4Po3Nm2Lk1Ji")
                AppsFlyerLib.shared().appsFlyerDevKey = "Q7w8E9r0T1y2U3i4O5p6A7"
            }
            """
        let found = findings(in: source)
        #expect(found.filter { $0.rule.id == "KL402" }.isEmpty)
        let publishable = found.filter { $0.rule.id == "KL404" }
        let places = publishable.map { "\($0.position.line):\($0.position.column)" }
        #expect(places == ["2:26", "3:32", "6:32", "7:37", "8:45"])
        #expect(publishable.allSatisfy { $0.severity == .low })
        #expect(publishable.first?.message.contains("restrict") == true)
    }

    @Test func firebaseConfigurationIsPublishable() {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>API_KEY</key><string>AIzaSyB9x8Y7w6V5u4T3s2R1q0PoNmLkJiHgFeD</string>
            <key>CLIENT_SECRET</key><string>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</string>
            </dict></plist>
            """
        let found = findings(in: plist, path: "App/GoogleService-Info.plist")
        #expect(found.map(\.rule.id) == ["KL404", "KL402"])
    }

    @Test func cloudCredentialsAndPrivateKeysStayHigh() {
        let source = """
            let awsAccessKey = "AKIAQ3EXAMPLEZ7KXW2P"
            let signingKey = \"""
            -----BEGIN EC PRIVATE KEY-----
            MHcCAQEEIBn0s2cVq0Q7p1gWx2lH3R2a8b6kQ6h0Lk5C0W2a1o5VoAoGCCqGSM49
            -----END EC PRIVATE KEY-----
            \"""
            let oauthClientSecret = "Xk2_9fLq-Wm4Zr7TbN1vHs8c"
            """
        #expect(locations(of: "KL402", in: source) == ["1:20", "2:18", "7:25"])
    }

    @Test func headersEndpointsAndItemNamesAreNotSecrets() {
        let source = """
            enum PEM {
                static let privateKeyHeader = "-----BEGIN PRIVATE KEY-----"
                static let privateKeyFooter = "-----END RSA PRIVATE KEY-----"
            }
            enum Endpoints {
                static let token = "/oauth2/token"
                static let refreshToken = "/api/v2/auth/refresh-token"
            }
            let secretItem = "com.example.app2.secret"
            let tokenAccount = "com.acme.widget.v3.token"
            """
        #expect(locations(of: "KL402", in: source).isEmpty)
    }

    /// Key material built from a literal is hard-coded however it is wrapped: `Data(...)`, `.data(using:)`,
    /// `Array(... .utf8)`, a byte array, or `SymmetricKey(data:)`, whose literal argument is a key whatever its name.
    @Test func keysBuiltFromLiteralsAreReported() {
        let source = """
            import CryptoKit
            let encryptionKey = SymmetricKey(data: "0123456789abcdef0123456789abcdef".data(using: .utf8)!)
            let aesKey = Data("0123456789abcdef0123456789abcdef".utf8)
            let secretKeyBytes: [UInt8] = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10]
            func seal(_ data: Data) throws -> Data? {
                let box = try AES.GCM.seal(data, using: SymmetricKey(data: Array("my super secret key 32 bytes!!!!".utf8)))
                return box.combined
            }
            func open(_ data: Data) throws -> Data {
                let material = "k3y-m4terial-0123456789abcdef!!"
                let key = SymmetricKey(data: Data(material.utf8))
                return try AES.GCM.open(AES.GCM.SealedBox(combined: data), using: key)
            }
            let random = SymmetricKey(size: .bits256)
            let fromKeychain = SymmetricKey(data: loadKeyData())
            let headerBytes: [UInt8] = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08]
            let tokenName = Data("auth_token".utf8)
            """
        #expect(locations(of: "KL402", in: source) == ["2:21", "3:14", "4:31", "6:45", "11:15"])
    }

    /// UserDefaults key names are not secrets even with digits in them: a literal that spells its own identifier,
    /// or a reverse-DNS name with a dash suffix.
    @Test func keyNameConstantsWithDigitsAreNotSecrets() {
        let source = """
            struct Keys {
                static let lastTokenV2Number = "lastTokenV2Number"
                static let refreshToken2 = "refresh_token_2"
                static let sessionToken = "s3ss10n-T0ken-9f8e7d"
            }
            enum K: String {
                case nextToken = "com.2fas.NextTokenStateController-TokenEnabled"
                case apiToken = "com.acme.app-3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c"
            }
            """
        #expect(locations(of: "KL402", in: source) == ["4:31", "8:21"])
    }

    /// A key decoded from a base64 literal, or derived by hashing a literal, is as hard-coded as the literal.
    @Test func keysDecodedOrHashedFromLiteralsAreReported() {
        let source = """
            import CryptoKit
            let k2 = SymmetricKey(data: Data(base64Encoded: "q83vEjRWeJASNFZ4kBI0VniQEjRWeJASNFZ4kBI0Vng=")!)
            let derived = SymmetricKey(data: SHA256.hash(data: "hunter2-static-pass".data(using: .utf8)!))
            let hmacKey = Data(base64Encoded: "c2VjcmV0LWhtYWMta2V5LTIwMjQ=")!
            func fromUser(_ pass: String) -> SymmetricKey { SymmetricKey(data: SHA256.hash(data: Data(pass.utf8))) }
            """
        #expect(locations(of: "KL402", in: source) == ["2:10", "3:15", "4:15"])
    }
}
