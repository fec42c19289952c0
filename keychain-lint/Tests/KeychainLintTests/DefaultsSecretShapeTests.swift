import Testing

@testable import KeychainLint

/// KL401 over the shapes real apps use to put credentials in UserDefaults (reviewer's cases c3 and c10).
@Suite struct DefaultsSecretShapeTests {
    @Test func secretValueUnderADescriptiveKey() {
        let source = """
            final class Login {
                let defaults = UserDefaults.standard
                func remember(email: String, password: String) {
                    UserDefaults.standard.set(email, forKey: "savedEmail")
                    UserDefaults.standard.set(password, forKey: "savedPassword")
                }
                func firebase(idToken: String) { UserDefaults.standard.set(idToken, forKey: "id_token") }
                func k(pin: String) { defaults.set(pin, forKey: "lastPin") }
                func l(token: String) { defaults.set(token, forKey: "storedToken") }
                func c(tokenResponse: Data) { defaults.set(tokenResponse, forKey: "tokenResponse") }
                func e(sid: String) { defaults.set(sid, forKey: "sessionId") }
                func f(cookie: String) { defaults.set(cookie, forKey: "sessionCookie") }
                func s(pw: String) { defaults.set(pw, forKey: "kPasswordStore") }
            }
            """
        #expect(
            locations(of: "KL401", in: source) == ["5:9", "7:38", "8:27", "9:29", "10:35", "11:27", "12:30", "13:26"])
    }

    @Test func receiversKnownByWhatTheyWereInitialisedFrom() {
        let source = """
            struct UserToken {
                static let userSessionKey = "com.save.usersession"
                private static let userDefault = UserDefaults.standard
                static func save(_ access_token: String) { userDefault.set(access_token, forKey: userSessionKey) }
            }
            final class W {
                let prefs = UserDefaults.standard
                func a(token: String) { prefs.set(token, forKey: "accessToken") }
            }
            extension UserDefaults {
                func setAccessToken(value: String) {
                    set(value, forKey: "accessToken")
                }
            }
            """
        #expect(locations(of: "KL401", in: source) == ["4:48", "8:29", "12:9"])
    }

    @Test func setterNewValueAndResolvedKeyConstants() {
        let source = """
            final class OAuthTokenStorage {
                private let key = "accessToken"
                var token: String? {
                    get { UserDefaults.standard.string(forKey: key) }
                    set { UserDefaults.standard.set(newValue, forKey: key) }
                }
            }
            final class Session {
                private let storeKey = "session"
                var sessionToken: String? {
                    get { nil }
                    set { UserDefaults.standard.set(newValue, forKey: storeKey) }
                }
            }
            """
        #expect(locations(of: "KL401", in: source) == ["5:15", "12:15"])
    }

    /// Flags, counts, dates and hashes about a secret are not the secret; other stores named like defaults are
    /// not UserDefaults.
    @Test func silentOnFactsAboutSecretsAndOtherStores() {
        let source = """
            final class Prefs {
                let defaults = UserDefaults.standard
                let cache = NSCache<NSString, NSString>()
                let defaultsStore = InMemoryStore()
                func t1(has: Bool) { defaults.set(has, forKey: "hasToken") }
                func t2() { defaults.set(Date(), forKey: "tokenExpiry") }
                func t3(n: Int) { defaults.set(n, forKey: "passwordAttempts") }
                func t4(passwordHash: String) { defaults.set(passwordHash, forKey: "password") }
                func t5(token: String) { defaults.set(token.count, forKey: "tokenLength") }
                func t6(userId: String) { defaults.set(userId, forKey: "userId") }
                func t7(isOn: Bool) { defaults.set(isOn, forKey: "useBiometryInsteadOfPin") }
                func t8(token: String) { defaultsStore.set(token, forKey: "token") }
                func t9(theme: String) { defaults.set(theme, forKey: "lastTheme") }
                func t10(session: URLSession) { print(session) }
            }
            """
        #expect(locations(of: "KL401", in: source).isEmpty)
        #expect(locations(of: "KL403", in: source).isEmpty)
    }
}
