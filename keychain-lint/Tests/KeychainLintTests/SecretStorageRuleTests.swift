import Testing

@testable import KeychainLint

@Suite struct SecretStorageRuleTests {
    @Test func credentialsInUserDefaultsAreReported() {
        let source = """
            func persist(token: String, refreshToken: String, password: String, deviceToken: Data) {
                UserDefaults.standard.set(token, forKey: "authToken")
                let shared = UserDefaults(suiteName: "group.app")
                shared?.setValue(refreshToken, forKey: Keys.refreshToken)
                defaults.set(password, forKey: "userPassword")
                NSUbiquitousKeyValueStore.default.set(token, forKey: "api_key")
                UserDefaults.standard.set(true, forKey: "hasToken")
                UserDefaults.standard.set(deviceToken, forKey: "pushToken")
                UserDefaults.standard.set(token.sha256, forKey: "tokenHash")
                UserDefaults.standard.set(3, forKey: "passwordAttempts")
                UserDefaults.standard.set(Date(), forKey: "tokenExpiry")
                UserDefaults.standard.set(isLoggedIn, forKey: "isLoggedIn")
                keychain.set(token, forKey: "authToken")
            }
            """
        #expect(locations(of: "KL401", in: source) == ["2:5", "4:5", "5:5", "6:5"])
    }

    @Test func appStorageAndObjectiveCDefaultsAreReported() {
        let source = """
            struct SettingsView {
                @AppStorage("apiToken") var apiToken: String = ""
                @AppStorage("hasSeenToken") var hasSeenToken: Bool = false
                @AppStorage("tokenCount") var count = 0
            }
            """
        #expect(locations(of: "KL401", in: source) == ["2:33"])
        let objc = """
            - (void)save:(NSString *)password {
                [[NSUserDefaults standardUserDefaults] setObject:password forKey:@"password"];
                [[NSUserDefaults standardUserDefaults] setBool:YES forKey:@"hasPassword"];
            }
            """
        #expect(locations(of: "KL401", in: objc, path: "Settings.m") == ["2:5"])
    }

    @Test func hardCodedSecretsAreReported() {
        let source = """
            let apiKey = "sk_live_51HxQ2bGvXyZ0123456789ab"
            let clientSecret = "9f86d081884c7d65"
            let tokenKey = "auth_token"
            let passwordKeychainService = "com.example.password"
            let apiKeyPlaceholder = "YOUR_API_KEY_HERE"
            let secretFromBuild = "$(API_SECRET)"
            let password = "password"
            let passwordPrompt = "Enter your password"
            let githubToken = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
            func configure() {
                let client = Client(apiKey: "AbC123xYz789QwE456")
                let headers = ["Authorization": "Bearer abc", "api_key": "Zx9Yw8Vu7Ts6Rq5P"]
                let service = Client(apiKey: apiKey)
            }
            """
        #expect(locations(of: "KL402", in: source) == ["1:14", "2:20", "9:19", "11:33", "12:62"])
    }

    @Test func secretsInLogsAreReported() {
        let source = """
            import os
            func log(token: String, user: User, password: String) {
                print("token: \\(token)")
                logger.debug("user \\(user.name) logged in with \\(user.authToken)")
                logger.info("token \\(token, privacy: .private)")
                NSLog("password %@", password)
                print("token length \\(token.count)")
                print("has token \\(token.isEmpty)")
                logger.info("refreshing the token")
                os_log("stored %{private}@", password)
                os_log("stored %{public}@", password)
            }
            """
        #expect(locations(of: "KL403", in: source) == ["3:21", "4:54", "6:26", "11:33"])
    }

    /// A secret encoded before it is stored is still the secret: `.data(using:)`, `Data(x.utf8)`, base64 and a
    /// collection literal's values are looked through; a hash or a ciphertext is not the secret.
    @Test func secretsConvertedBeforeStoringAreReported() {
        let source = """
            func persist(password: String, privateKey: Data, token: String, expiry: Date) {
                UserDefaults.standard.set(password.data(using: .utf8), forKey: "p")
                UserDefaults.standard.set(Data(password.utf8).base64EncodedString(), forKey: "pw")
                UserDefaults.standard.set(privateKey.base64EncodedString(), forKey: "pk")
                UserDefaults.standard.set(["token": token], forKey: "session")
                UserDefaults.standard.set(String(data: privateKey, encoding: .utf8), forKey: "k")
                UserDefaults.standard.set([token, "x"], forKey: "list")
                UserDefaults.standard.set(SHA256.hash(data: Data(password.utf8)).description, forKey: "h")
                UserDefaults.standard.set(try encrypt(password.data(using: .utf8)!), forKey: "e")
                UserDefaults.standard.set(["expiry": expiry], forKey: "session")
                UserDefaults.standard.set(token.count.description, forKey: "n")
            }
            """
        #expect(locations(of: "KL401", in: source) == ["2:5", "3:5", "4:5", "5:5", "6:5", "7:5"])
    }

    /// A secret serialised with an encoder, or stored through `setValue(_:forKeyPath:)`, is still stored.
    @Test func secretsEncodedOrStoredByKeyPathAreReported() {
        let source = """
            func persist(refreshToken: String, theme: String) throws {
                UserDefaults.standard.set(try? JSONEncoder().encode(["r": refreshToken]), forKey: "auth")
                UserDefaults.standard.set(try PropertyListEncoder().encode([refreshToken]), forKey: "list")
                UserDefaults.standard.setValue(refreshToken, forKeyPath: "refresh")
                UserDefaults.standard.set(try? JSONEncoder().encode(["t": theme]), forKey: "ui")
                UserDefaults.standard.setValue(theme, forKeyPath: "ui.theme")
            }
            """
        #expect(locations(of: "KL401", in: source) == ["2:5", "3:5", "4:5"])
    }
}
