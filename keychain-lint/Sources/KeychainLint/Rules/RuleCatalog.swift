/// Every rule the analyzer knows, with the metadata reports and SARIF carry.
///
/// Ids are stable: a rule that is removed keeps its id unused forever.
public enum RuleCatalog {
    public static let suppressionWithoutReason = RuleDescriptor(
        id: "KL001", name: "suppressionWithoutReason", severity: .low, cwe: 710, masvs: "MASVS-CODE-4",
        summary: "A keychain-lint suppression comment gives no reason.",
        explanation: """
            A suppression hides a finding from every later reader. Without a reason nobody can tell whether the \
            finding was judged safe or silenced to get a green build, so the suppression is ignored.
            """,
        fix: "Write the reason after the rule id: `// keychain-lint:ignore KL101 -- read-only migration probe`.")

    public static let accessibleAlways = RuleDescriptor(
        id: "KL101", name: "accessibleAlways", severity: .high, cwe: 311,
        masvs: "MASVS-STORAGE-1, MASTG-TEST-0052",
        summary: "An item is written with kSecAttrAccessibleAlways or kSecAttrAccessibleAlwaysThisDeviceOnly.",
        explanation: """
            Items in the Always classes are encrypted with a key derived from the device key alone, not from the \
            passcode, so they can be decrypted while the device is locked and even before the first unlock after \
            a restart: anyone holding the device can have them read. Apple deprecated both constants in iOS 12.
            """,
        fix: """
            Use kSecAttrAccessibleAfterFirstUnlock (or its ThisDeviceOnly variant) for items a background task \
            needs, kSecAttrAccessibleWhenUnlocked otherwise.
            """,
        automaticFix: "`--fix KL101` rewrites this constant.",
        automaticFixScope: """
            `--fix KL101` rewrites the constant where it is written directly; a class that reaches the item \
            through a variable, a conditional or a helper, and a wrapper's option, are left to be changed by hand.
            """)

    public static let addWithoutAccessibility = RuleDescriptor(
        id: "KL102", name: "addWithoutAccessibility", severity: .low, cwe: 922, masvs: "MASVS-STORAGE-1",
        summary: "SecItemAdd is given no kSecAttrAccessible or kSecAttrAccessControl.",
        explanation: """
            Without an explicit class the item gets kSecAttrAccessibleWhenUnlocked. That is safe, but a background \
            refresh, push handler or silent notification that reads it while the device is locked gets \
            errSecInteractionNotAllowed, a failure that never shows on an unlocked test device.
            """,
        fix:
            "State the class the item needs: kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlock for background use."
    )

    public static let accessibleMigrates = RuleDescriptor(
        id: "KL103", name: "credentialMigratesToNewDevices", severity: .info, cwe: 922,
        masvs: "MASVS-STORAGE-2, MASTG-TEST-0058",
        summary: "A password or key is stored with a class that is copied into backups and to new devices.",
        explanation: """
            Classes without ThisDeviceOnly are included in encrypted backups and restored onto other devices. For \
            a device-bound credential or a private key this moves the secret off the device it was issued to.
            """,
        fix:
            "Use the ThisDeviceOnly variant, e.g. kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, unless migration "
            + "is intended."
    )

    public static let deleteThenAdd = RuleDescriptor(
        id: "KL201", name: "deleteThenAdd", severity: .medium, cwe: 367, masvs: "MASVS-STORAGE-1, MASVS-CODE-4",
        summary: "An item is deleted and added again where SecItemUpdate is the right call.",
        explanation: """
            Deleting and re-adding loses the item's creation date, access control and persistent reference, and \
            opens a window in which another thread, extension or app sees no item at all. If the add then fails \
            (a locked device, a missing entitlement) the credential is simply gone.
            """,
        fix: "Call SecItemUpdate first and SecItemAdd only when it returns errSecItemNotFound.")

    public static let deleteOnReadError = RuleDescriptor(
        id: "KL202", name: "deleteOnReadError", severity: .high, cwe: 703, masvs: "MASVS-STORAGE-1, MASVS-CODE-4",
        summary: "An item is deleted, reset or regenerated when a read fails with an error other than not-found.",
        explanation: """
            errSecInteractionNotAllowed means the device is locked and the item's class key is unavailable; the \
            item is intact. A handler that deletes or regenerates on any failure destroys valid credentials every \
            time a background task runs while the phone is locked, forcing users to sign in again.
            """,
        fix: """
            Delete or regenerate only on errSecItemNotFound; on errSecInteractionNotAllowed retry after the device \
            is unlocked (protectedDataDidBecomeAvailable) and choose an AfterFirstUnlock class for background reads.
            """)

    public static let matchLimitInAdd = RuleDescriptor(
        id: "KL203", name: "searchKeyInAdd", severity: .medium, cwe: 628, masvs: "MASVS-CODE-4",
        summary: "SecItemAdd is given a kSecMatch* search key.",
        explanation: """
            SecItemAdd accepts class, attributes, value and return keys only. A search key is a sign that a read \
            query was reused as the item to add; depending on the OS version the call fails with errSecParam or \
            adds nothing.
            """,
        fix: "Build the add dictionary from attributes and kSecValueData only; keep search keys in read queries.")

    public static let invalidUpdate = RuleDescriptor(
        id: "KL204", name: "invalidUpdateDictionary", severity: .medium, cwe: 628, masvs: "MASVS-CODE-4",
        summary: "SecItemUpdate's query has kSecReturn* or a match limit, or its attributes have non-attribute keys.",
        explanation: """
            SecItemUpdate's query accepts class, attributes and search keys, and always updates every match; \
            kSecReturn* or kSecMatchLimitOne make it fail with errSecParam. Its attributes may hold only attributes \
            and values, so kSecClass or a search key there fails too. The save silently never happens.
            """,
        fix:
            "Pass a query with class and primary-key attributes only, and the new attributes and kSecValueData "
            + "separately."
    )

    public static let matchLimitInDelete = RuleDescriptor(
        id: "KL205", name: "matchLimitInDelete", severity: .medium, cwe: 628, masvs: "MASVS-CODE-4",
        summary: "SecItemDelete is given kSecMatchLimitOne or a numeric match limit.",
        explanation: """
            SecItemDelete has no limit: without one it removes every item that matches. iOS fails a delete whose \
            limit is kSecMatchLimitOne or a number with errSecParam and deletes nothing, so the code that expected \
            a single deletion deletes nothing at all. (iOS refuses kSecMatchLimitAll in a delete too; the macOS \
            file keychain takes it, which is why cross-platform wrappers send it outside their iOS builds.)
            """,
        fix: "Remove kSecMatchLimit and narrow the query with the item's primary-key attributes instead.")

    public static let copyWithoutPrimaryKey = RuleDescriptor(
        id: "KL206", name: "queryWithoutPrimaryKey", severity: .low, cwe: 628, masvs: "MASVS-STORAGE-1",
        summary: "A SecItemCopyMatching query for one item lacks a primary-key attribute of its class.",
        explanation: """
            Items are unique by their class's primary key (service and account for generic passwords). A query \
            without one of them can return a different item than the one later added or updated, which shows up \
            as errSecItemNotFound on read followed by errSecDuplicateItem on add.
            """,
        fix: "Include every primary-key attribute: kSecAttrService and kSecAttrAccount for generic passwords.")

    public static let forcedCopyResult = RuleDescriptor(
        id: "KL207", name: "forcedCopyResult", severity: .medium, cwe: 704, masvs: "MASVS-CODE-4",
        summary: "The SecItemCopyMatching result is force-cast or force-unwrapped.",
        explanation: """
            The result's type depends on the kSecReturn* keys and the match limit (data, a dictionary, an array of \
            them, or nothing). A forced cast that assumes one shape crashes the app when a query changes or an \
            item is missing.
            """,
        fix: "Use `as?` with the type the return keys imply and handle nil; casts to SecKey and friends are fine.")

    public static let discardedStatus = RuleDescriptor(
        id: "KL208", name: "discardedStatus", severity: .medium, cwe: 252, masvs: "MASVS-STORAGE-1, MASVS-CODE-4",
        summary: "The OSStatus of SecItemAdd, SecItemUpdate or SecItemDelete is discarded.",
        explanation: """
            A keychain write fails for ordinary reasons: a duplicate item, a locked device \
            (errSecInteractionNotAllowed), a missing entitlement, a malformed query (errSecParam). When the status is \
            thrown away the app carries on as if the credential were saved or removed: a login that is forgotten at \
            the next launch, or a token that survives sign-out. The release checklist asks for every SecItem call's \
            OSStatus to be checked.
            """,
        fix: """
            Keep the status and handle it: `let status = SecItemAdd(...)`, then throw or return an error that names \
            the operation, service and account unless it is errSecSuccess.
            """)

    public static let ignoredDuplicateItem = RuleDescriptor(
        id: "KL209", name: "ignoredDuplicateItem", severity: .medium, cwe: 390, masvs: "MASVS-STORAGE-1, MASVS-CODE-4",
        summary: "An errSecDuplicateItem branch neither updates the item nor reports the failure.",
        explanation: """
            errSecDuplicateItem from SecItemAdd means an item with the same primary key already exists, so the new \
            value was not stored and the old one is still read. A branch that only logs or returns leaves the stale \
            credential in place while the caller believes the save worked; the checklist calls the ignored \
            duplicate the most common keychain bug, and a query that does not match the item's uniqueness is its \
            usual cause.
            """,
        fix: """
            On errSecDuplicateItem call SecItemUpdate with the new value (or update first and add on \
            errSecItemNotFound), or throw or return the failure to the caller.
            """)

    public static let accessibleWithAccessControl = RuleDescriptor(
        id: "KL301", name: "accessibleWithAccessControl", severity: .high, cwe: 628, masvs: "MASVS-STORAGE-1",
        summary: "kSecAttrAccessible and kSecAttrAccessControl are set in the same dictionary.",
        explanation: """
            An access control object already carries a protection class. Setting kSecAttrAccessible as well is \
            rejected with errSecParam, so the item is never stored.
            """,
        fix: "Pass the class to SecAccessControlCreateWithFlags and drop kSecAttrAccessible from the dictionary.")

    public static let synchronizableConflict = RuleDescriptor(
        id: "KL302", name: "synchronizableConflict", severity: .high, cwe: 628, masvs: "MASVS-STORAGE-1",
        summary: "A synchronizable item uses a ThisDeviceOnly class or an access control.",
        explanation: """
            Apple's documentation says the two may not be combined. With an access control the add fails with \
            errSecParam; with a ThisDeviceOnly class iOS stores the item anyway, marked synchronizable, and \
            iCloud Keychain never carries it to another device, so the code does not do what it says.
            """,
        fix:
            "Choose: either sync the item with a migrating class, or keep it on the device without "
            + "kSecAttrSynchronizable."
    )

    public static let biometryAny = RuleDescriptor(
        id: "KL303", name: "biometryAny", severity: .low, cwe: 287, masvs: "MASVS-AUTH-2, MASTG-TEST-0064",
        summary: "An access control uses .biometryAny.",
        explanation: """
            .biometryAny keeps the item usable after a new fingerprint or face is enrolled, so anyone who learns \
            the passcode can enrol their own biometry and unlock it. Items guarding accounts or payments should \
            be invalidated when enrolment changes.
            """,
        fix:
            "Use .biometryCurrentSet (and re-enrol the secret after a change), or .userPresence where convenience wins."
    )

    public static let evaluatePolicyGate = RuleDescriptor(
        id: "KL304", name: "evaluatePolicyGate", severity: .medium, cwe: 603, masvs: "MASVS-AUTH-2, MASTG-TEST-0064",
        summary: "LAContext.evaluatePolicy's boolean alone grants access.",
        explanation: """
            evaluatePolicy returns a boolean in the app's own process; on a jailbroken or instrumented device it \
            is trivially patched to true. Nothing cryptographic depends on the result, so the protected data is \
            reachable without any biometric match.
            """,
        fix: """
            Store the secret with SecAccessControlCreateWithFlags(.biometryCurrentSet or .userPresence) and read it \
            with kSecUseAuthenticationContext, so the Secure Enclave releases it only after a real match.
            """)

    public static let missingFaceIDUsage = RuleDescriptor(
        id: "KL305", name: "missingFaceIDUsageDescription", severity: .medium, cwe: 703,
        masvs: "MASVS-AUTH-2, MASVS-PRIVACY-1",
        summary: "Biometrics are used but no NSFaceIDUsageDescription is declared.",
        explanation: """
            On a device with Face ID, the first biometric evaluation without NSFaceIDUsageDescription in the \
            Info.plist terminates the app (or falls back to the passcode on older systems); Touch ID devices \
            never show the problem during testing.
            """,
        fix:
            "Add NSFaceIDUsageDescription to the target's Info.plist, or INFOPLIST_KEY_NSFaceIDUsageDescription to "
            + "its build settings."
    )

    public static let userPresenceFallback = RuleDescriptor(
        id: "KL306", name: "userPresenceFallback", severity: .info, cwe: 287,
        masvs: "MASVS-AUTH-2, MASTG-TEST-0064",
        summary: "An item is protected with .userPresence, which accepts the device passcode instead of biometrics.",
        explanation: """
            .userPresence is satisfied by Face ID, Touch ID or the device passcode. That is a deliberate policy \
            for many apps, but it means anyone who has seen the passcode can read the item; OWASP MASTG reports \
            it for secrets that must be released only to the enrolled user.
            """,
        fix: """
            Keep .userPresence where a passcode fallback is intended; use .biometryCurrentSet (optionally with \
            .or(.devicePasscode) stated explicitly) where only the enrolled user may unlock the item.
            """)

    public static let secretInUserDefaults = RuleDescriptor(
        id: "KL401", name: "secretInUserDefaults", severity: .high, cwe: 312, masvs: "MASVS-STORAGE-1, MASTG-TEST-0052",
        summary: "A credential is written to UserDefaults, @AppStorage or NSUbiquitousKeyValueStore.",
        explanation: """
            These stores are unencrypted property lists in the app container (or in iCloud); they are readable in \
            unencrypted backups, by device-management and forensic tools, and on a jailbroken device.
            """,
        fix: "Store the credential in the keychain and keep only a non-secret flag in UserDefaults.")

    public static let hardCodedSecret = RuleDescriptor(
        id: "KL402", name: "hardCodedSecret", severity: .high, cwe: 798, masvs: "MASVS-STORAGE-1, MASVS-CRYPTO-2",
        summary: "A secret or key is hard-coded in source or in a property list.",
        explanation: """
            Everything in the app bundle ships to every user: strings are recovered from the binary or the plist \
            in seconds, and a leaked key cannot be rotated without a release.
            """,
        fix:
            "Fetch the secret from your server after authentication, or inject it at build time and keep it out of "
            + "the repository."
    )

    public static let publishableKey = RuleDescriptor(
        id: "KL404", name: "publishableKey", severity: .low, cwe: 798, masvs: "MASVS-CRYPTO-2",
        summary: "A key that is meant to ship in the app (an SDK app key or a Google API key) is in the code.",
        explanation: """
            Analytics, attribution and in-app-purchase SDK keys, Google API keys and Firebase's client \
            configuration identify the app to a service; they are readable in every copy of the app by design, so \
            hiding them protects nothing. What protects them is the service's restriction to the app's bundle id \
            and to the APIs it needs; an unrestricted key can be used by anyone who extracts it.
            """,
        fix: """
            Restrict the key in the provider's console (iOS bundle id, allowed APIs, quotas). Keep secret server \
            keys and OAuth client secrets out of the app altogether.
            """)

    public static let secretInLog = RuleDescriptor(
        id: "KL403", name: "secretInLog", severity: .medium, cwe: 532, masvs: "MASVS-STORAGE-2, MASTG-TEST-0053",
        summary: "A secret is written to the log.",
        explanation: """
            print, NSLog and unredacted os_log/Logger output reaches the device console and sysdiagnose archives, \
            which other tools and support staff can read long after the session ended.
            """,
        fix: "Do not log the value; if it must appear, use Logger with `privacy: .private` or a hash of it.")

    public static let macOSFileKeychain = RuleDescriptor(
        id: "KL501", name: "macOSFileBasedKeychain", severity: .medium, cwe: 922, masvs: "MASVS-STORAGE-1",
        summary: "macOS code adds an item without kSecUseDataProtectionKeychain.",
        explanation: """
            On macOS an add without kSecUseDataProtectionKeychain goes to the legacy file-based keychain, which \
            ignores kSecAttrAccessible and access groups and shares items through per-item ACLs instead, so the \
            protection written in the code does not apply.
            """,
        fix: "Add kSecUseDataProtectionKeychain: true to every query on macOS.")

    public static let arbitraryLoads = RuleDescriptor(
        id: "KL502", name: "arbitraryLoads", severity: .medium, cwe: 319, masvs: "MASVS-NETWORK-1, MASTG-TEST-0065",
        summary: "App Transport Security is disabled with NSAllowsArbitraryLoads.",
        explanation: """
            With ATS off, every connection may use plain HTTP or weak TLS, so credentials and tokens can be read or \
            altered on any hostile network. App Review also asks for a justification.
            """,
        fix: "Remove NSAllowsArbitraryLoads and add narrow NSExceptionDomains entries for the hosts that need them.")

    public static let commonCrypto = RuleDescriptor(
        id: "KL503", name: "commonCrypto", severity: .low, cwe: 327, masvs: "MASVS-CRYPTO-1, MASTG-TEST-0061",
        summary: "CommonCrypto is used where CryptoKit serves.",
        explanation: """
            CommonCrypto's C API leaves modes, padding, IVs and buffer sizes to the caller and offers no \
            authenticated encryption; mistakes there (ECB, a constant IV, unchecked status) are the usual source \
            of broken app cryptography. CryptoKit provides AES-GCM, ChaChaPoly, SHA-2 and HMAC with safe defaults.
            """,
        fix: "Use CryptoKit (AES.GCM, SHA256, HMAC<SHA256>) on iOS 13/macOS 10.15 and later.")

    public static let weakDigestForSecurity = RuleDescriptor(
        id: "KL601", name: "weakDigestForSecurity", severity: .medium, cwe: 328,
        masvs: "MASVS-CRYPTO-1, MASTG-TEST-0061",
        summary: "MD5 or SHA-1 (Insecure.MD5, Insecure.SHA1, CC_MD5, CC_SHA1) decides something about security.",
        explanation: """
            Collisions for MD5 and SHA-1 can be computed, and both are fast enough to search for a password by \
            brute force, which is why CryptoKit puts them under `Insecure`. A digest that authenticates a message, \
            stands for a password, a token or a licence, or is compared to decide access can be forged or reversed.
            """,
        fix: """
            Use SHA256 (or SHA384/SHA512), HMAC<SHA256> for a message authentication code, and a password key \
            derivation function for passwords. MD5 and SHA-1 remain fine for cache keys, ETags and checksums.
            """)

    public static let shortSymmetricKey = RuleDescriptor(
        id: "KL602", name: "shortSymmetricKey", severity: .low, cwe: 326, masvs: "MASVS-CRYPTO-1, MASTG-TEST-0061",
        summary: "A SymmetricKey is created with 128 or 192 bits where the advice is 256.",
        explanation: """
            iOS security guidance asks for 256-bit symmetric keys: they cost nothing more with AES-GCM on Apple \
            hardware and keep a margin against future attacks on long-lived data. ChaChaPoly accepts only 256-bit \
            keys, so a shorter one makes every seal throw.
            """,
        fix: "Create the key with SymmetricKey(size: .bits256) unless a protocol fixes its size.")

    public static let secureEnclaveWithoutAvailabilityCheck = RuleDescriptor(
        id: "KL603", name: "secureEnclaveWithoutAvailabilityCheck", severity: .medium, cwe: 754,
        masvs: "MASVS-CRYPTO-2, MASVS-CODE-4",
        summary: "A Secure Enclave key is created without checking SecureEnclave.isAvailable.",
        explanation: """
            Creating a SecureEnclave.P256 key throws on devices and Macs without a Secure Enclave and in the \
            Simulator. Code that assumes it succeeds fails at the first key, often in a path nobody tested; \
            checking SecureEnclave.isAvailable first lets the app fall back or explain what is missing.
            """,
        fix: """
            Test SecureEnclave.isAvailable (a guard or an if) before creating the key, and fall back to a P256 key \
            kept in the keychain, or disable the feature, when it is false.
            """)

    public static let nonceReuse = RuleDescriptor(
        id: "KL604", name: "nonceReuse", severity: .high, cwe: 323, masvs: "MASVS-CRYPTO-1, MASTG-TEST-0061",
        summary: "AES.GCM or ChaChaPoly seals with a nonce that repeats under the same key.",
        explanation: """
            AES-GCM and ChaCha20-Poly1305 need a nonce that never repeats under one key. A nonce made from \
            constant bytes, kept in a stored property, or reused for several seals gives two messages the same \
            keystream, so their XOR leaks, and it exposes the authentication key, so tags can be forged.
            """,
        fix: "Leave out the nonce: argument; CryptoKit then draws a fresh random nonce for every seal.")

    public static let ephemeralKeyQueriedAsStored = RuleDescriptor(
        id: "KL605", name: "ephemeralKeyQueriedAsStored", severity: .medium, cwe: 664,
        masvs: "MASVS-CRYPTO-2, MASVS-CODE-4",
        summary: "A private key is created without kSecAttrIsPermanent, and the code later looks it up as stored.",
        explanation: """
            SecKeyCreateRandomKey keeps the key pair in memory only unless kSecAttrIsPermanent is true (at the top \
            of the parameters or in kSecPrivateKeyAttrs). A later SecItemCopyMatching for the key finds nothing, \
            so the app signs with a key that is gone at the next launch, or generates a new one each time and the \
            server no longer recognises its signatures.
            """,
        fix: """
            Set kSecAttrIsPermanent: true in kSecPrivateKeyAttrs (with the kSecAttrApplicationTag the lookup uses), \
            or keep the key object instead of looking it up when it is meant to be ephemeral.
            """)

    public static let shortRSAKey = RuleDescriptor(
        id: "KL606", name: "shortRSAKey", severity: .medium, cwe: 326, masvs: "MASVS-CRYPTO-1, MASTG-TEST-0061",
        summary: "An RSA key is generated with fewer than 2048 bits.",
        explanation: """
            RSA keys below 2048 bits no longer meet NIST's or the platforms' guidance: 1024-bit moduli are within \
            reach of well-funded attackers, and 512-bit ones are factored in hours. A signature or an encryption \
            made with such a key protects nothing for the lifetime of the data.
            """,
        fix: """
            Generate RSA keys of at least 2048 bits (3072 for data that must stay safe past 2030), or use a P-256 \
            key (kSecAttrKeyTypeECSECPrimeRandom), which is smaller and faster at a comparable strength.
            """)

    public static let rsaPKCS1Encryption = RuleDescriptor(
        id: "KL607", name: "rsaPKCS1Encryption", severity: .medium, cwe: 780, masvs: "MASVS-CRYPTO-1, MASTG-TEST-0061",
        summary: "Data is encrypted or decrypted with RSA PKCS#1 v1.5 padding (rsaEncryptionPKCS1).",
        explanation: """
            PKCS#1 v1.5 encryption padding is open to padding-oracle attacks (Bleichenbacher's and its successors): \
            a party that learns whether a ciphertext decrypts to valid padding can decrypt messages without the \
            key. OAEP was designed to close that gap.
            """,
        fix: """
            Use .rsaEncryptionOAEPSHA256 (or another OAEP algorithm), or ECIES \
            (.eciesEncryptionCofactorVariableIVX963SHA256AESGCM) with an EC key.
            """)

    public static let sha1Signature = RuleDescriptor(
        id: "KL608", name: "sha1Signature", severity: .medium, cwe: 328, masvs: "MASVS-CRYPTO-1, MASTG-TEST-0061",
        summary: "A signature algorithm hashes with SHA-1 (…SHA1 signature algorithms, PKCS1SHA1 padding).",
        explanation: """
            A signature is only as strong as the hash it signs. SHA-1 collisions can be computed (SHAttered, \
            Shambles), so an attacker can prepare two messages with the same digest and make a signature on one \
            hold for the other. Certificate authorities and TLS stopped accepting SHA-1 signatures for this reason.
            """,
        fix: """
            Sign and verify with SHA-256 or stronger: .ecdsaSignatureMessageX962SHA256, \
            .rsaSignatureMessagePSSSHA256 or .rsaSignatureMessagePKCS1v15SHA256.
            """)

    public static let wholeCertificatePinning = RuleDescriptor(
        id: "KL609", name: "wholeCertificatePinning", severity: .low, cwe: 295,
        masvs: "MASVS-NETWORK-2, MASTG-TEST-0068",
        summary: "Certificate pinning compares the whole certificate (SecCertificateCopyData) with a bundled copy.",
        explanation: """
            A server's certificate is replaced at every renewal, often every 90 days, while its key can stay. An \
            app that pins the whole certificate (its DER bytes, or a hash of them) rejects the renewed one and \
            stops connecting until an update ships, which pushes teams to turn pinning off. Pinning the public key \
            (a SHA-256 of the SubjectPublicKeyInfo) survives renewals with the same key and lets a backup key be \
            pinned ahead of time.
            """,
        fix: """
            Pin the public key: take SecCertificateCopyKey and SecKeyCopyExternalRepresentation, prefix the ASN.1 \
            header of the key type, hash with SHA256 and compare with the pinned hashes (include a backup key).
            """)

    public static let backgroundReadOfWhenUnlockedItem = RuleDescriptor(
        id: "KL505", name: "backgroundReadOfWhenUnlockedItem", severity: .medium, cwe: 703,
        masvs: "MASVS-STORAGE-1, MASVS-CODE-4",
        summary: "A background entry point reads a keychain item that is readable only while the device is unlocked.",
        explanation: """
            Background fetch, silent pushes, BGTaskScheduler tasks, background URL sessions and notification \
            service extensions run while the device is locked. An item added with kSecAttrAccessibleWhenUnlocked \
            (the class an item gets when none is given) cannot be decrypted then, so the read fails with \
            errSecInteractionNotAllowed (-25308): the task runs signed out, and code that treats the failure as a \
            missing item destroys it.
            """,
        fix: """
            Add the item with kSecAttrAccessibleAfterFirstUnlock (or its ThisDeviceOnly variant), migrate existing \
            items with SecItemUpdate, and treat -25308 as "try again later".
            """)

    public static let missingPrivacyManifest = RuleDescriptor(
        id: "KL504", name: "missingPrivacyManifest", severity: .info, cwe: 359, masvs: "MASVS-PRIVACY-1",
        summary: "Required-reason APIs are used but no PrivacyInfo.xcprivacy declares them.",
        explanation: """
            Since May 2024 App Store Connect rejects uploads that use required-reason APIs (UserDefaults, file \
            timestamps, system boot time, disk space, active keyboards) without declaring an approved reason in a \
            privacy manifest.
            """,
        fix: "Add PrivacyInfo.xcprivacy with an NSPrivacyAccessedAPITypes entry and reason for each category used.")

    /// All rules, in id order.
    public static let all: [RuleDescriptor] = [
        suppressionWithoutReason, accessibleAlways, addWithoutAccessibility, accessibleMigrates, deleteThenAdd,
        deleteOnReadError, matchLimitInAdd, invalidUpdate, matchLimitInDelete, copyWithoutPrimaryKey,
        forcedCopyResult, discardedStatus, ignoredDuplicateItem, accessibleWithAccessControl, synchronizableConflict,
        biometryAny, evaluatePolicyGate,
        missingFaceIDUsage, userPresenceFallback, secretInUserDefaults, hardCodedSecret, publishableKey, secretInLog,
        macOSFileKeychain, arbitraryLoads, commonCrypto, missingPrivacyManifest, backgroundReadOfWhenUnlockedItem,
        weakDigestForSecurity, shortSymmetricKey, secureEnclaveWithoutAvailabilityCheck, nonceReuse,
        ephemeralKeyQueriedAsStored, shortRSAKey, rsaPKCS1Encryption, sha1Signature, wholeCertificatePinning,
    ]

    /// Looks a rule up by id (`KL101`) or name (`accessibleAlways`).
    public static func rule(named idOrName: String) -> RuleDescriptor? {
        all.first { $0.id == idOrName.uppercased() || $0.name == idOrName }
    }
}
