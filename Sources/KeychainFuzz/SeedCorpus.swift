import Foundation
import KeychainCore
import KeychainDaemon
import KeychainRequests
import KeychainWire

/// The seed inputs of Fuzz/Corpus, written by `KeychainFuzz seeds DIRECTORY`: well-formed examples of each
/// format, built with the project's own encoders so that the fuzzer starts from inputs that get far.
enum SeedCorpus {
    static func write(to directory: URL) {
        let seeds: [String: [[UInt8]]] = [
            "secitem-dictionary": secItemDictionaries(),
            "attribute-codec": attributeEncodings(),
            "constraint-envelope": constraintEnvelopes(),
            "keybag": keybags(),
            "persistent-reference": ["genp", "inet", "cert", "keys", "idnt"].map { Array($0.utf8) + uuid },
            "backup-reader": backupPayloads(),
            "entitlements": entitlements(),
            "command-parser": commandLines(),
            "frame-decoder": frameStreams(),
            "request-decoder": typedMessages(),
            "certificate": certificates(),
            "pkcs12": pkcs12Files(),
            "key-data": keyData(),
        ]
        for (target, inputs) in seeds.sorted(by: { $0.key < $1.key }) {
            let folder = directory.appendingPathComponent(target, isDirectory: true)
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (index, input) in inputs.enumerated() {
                let file = folder.appendingPathComponent(String(format: "seed-%02d", index))
                guard FileManager.default.createFile(atPath: file.path, contents: Data(input)) else {
                    fatalError("cannot write \(file.path)")
                }
            }
            print("\(target): \(inputs.count) seeds")
        }
    }

    private static let uuid = (0..<16).map { UInt8($0 * 17) }

    private static func bigEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.bigEndian) { Array($0) }
    }

    // MARK: - SecItem dictionaries, in the encoding SecItemFuzzing.dictionary reads

    private enum Entry {
        case string(String)
        case text(String)
        case data([UInt8])
        case number(Int64)
        case bool(Bool)
        case date(Double)
        case accessControl(String, UInt64)
    }

    private static func dictionary(_ entries: [(String, Entry)]) -> [UInt8] {
        var bytes = [UInt8(entries.count)]
        for (key, value) in entries {
            guard let keyIndex = SecItemFuzzing.keys.firstIndex(of: key) else { fatalError("no key \(key)") }
            bytes += [0, UInt8(keyIndex)]
            switch value {
            case .string(let text):
                guard let index = SecItemFuzzing.strings.firstIndex(of: text) else { fatalError("no value \(text)") }
                bytes += [0, UInt8(index)]
            case .text(let text): bytes += [2, UInt8(text.utf8.count)] + Array(text.utf8)
            case .data(let data): bytes += [3, UInt8(data.count)] + data
            case .number(let number): bytes += [4, 255] + bigEndian(number)
            case .bool(let flag): bytes += [6, flag ? 1 : 0]
            case .date(let seconds): bytes += [7, 255] + bigEndian(seconds.bitPattern)
            case .accessControl(let protection, let flags):
                let protections = ["ak", "ck", "dk", "aku", "cku", "dku", "akpu", "bogus"]
                bytes += [9, UInt8(protections.firstIndex(of: protection)!)] + bigEndian(flags)
            }
        }
        return bytes
    }

    private static func secItemDictionaries() -> [[UInt8]] {
        let copy: UInt8 = 0
        let add: UInt8 = 1
        let update: UInt8 = 2
        let delete: UInt8 = 3
        return [
            [copy] + dictionary([("class", .string("genp")), ("svce", .string("seed")), ("r_Data", .bool(true))]),
            [copy]
                + dictionary([
                    ("class", .string("inet")), ("m_Limit", .string("m_LimitAll")), ("r_Attributes", .bool(true)),
                    ("r_PersistentRef", .bool(true)),
                ]),
            [copy] + dictionary([("class", .string("genp")), ("cdat", .date(0)), ("m_Limit", .number(5))]),
            [add]
                + dictionary([
                    ("class", .string("genp")), ("svce", .text("new")), ("acct", .text("x")),
                    ("v_Data", .data(Array("secret".utf8))), ("pdmn", .string("ck")),
                ]),
            [add]
                + dictionary([
                    ("class", .string("genp")), ("svce", .text("guarded")), ("accc", .accessControl("ak", 1)),
                    ("v_Data", .data(Array("secret".utf8))),
                ]),
            [update] + dictionary([("class", .string("genp")), ("svce", .string("seed"))])
                + dictionary([("labl", .text("changed")), ("v_Data", .data([1, 2, 3]))]),
            [delete] + dictionary([("class", .string("inet")), ("srvr", .string("example.com"))]),
        ]
    }

    // MARK: - Stored formats

    private static let sampleAttributes: [AttributeKey: AttributeValue] = [
        .service: .string("svc"), .account: .string("alice"), .generic: .data([0, 1, 2]), .isInvisible: .bool(true),
        .creationDate: .date(Date(timeIntervalSinceReferenceDate: 700_000_000)),
        .modificationDate: .date(Date(timeIntervalSinceReferenceDate: 700_000_001)),
        .accessGroup: .string(FuzzKeychain.group), .synchronizable: .bool(false),
    ]

    private static func attributeEncodings() -> [[UInt8]] {
        [
            [],
            (try? FuzzEntryPoints.encodeAttributes([.account: .string("alice")])) ?? [],
            (try? FuzzEntryPoints.encodeAttributes(sampleAttributes)) ?? [],
        ]
    }

    private static func constraintEnvelopes() -> [[UInt8]] {
        let salt = [UInt8](repeating: 0x53, count: 16)
        let wrapped = [UInt8](repeating: 0x57, count: 40)
        let sealed = [UInt8](repeating: 0x45, count: 44)
        func alternative(_ factors: [String], iterations: UInt32) -> [UInt8] {
            [UInt8(factors.count)] + factors.flatMap { Array($0.utf8) } + [UInt8(salt.count)] + salt
                + bigEndian(iterations) + bigEndian(UInt16(wrapped.count)) + wrapped
        }
        let json = Array(
            """
            {"alternatives":[{"factors":["ba"],"salt":"\(Data(salt).base64EncodedString())","iterations":0,\
            "wrapped":"\(Data(wrapped).base64EncodedString())"}]}
            """.utf8)
        return [
            [0xC2, 1] + alternative(["ba"], iterations: 0) + sealed,
            [0xC2, 2] + alternative(["pc"], iterations: 0) + alternative(["ap", "bc"], iterations: 10_000) + sealed,
            bigEndian(UInt32(json.count)) + json + sealed,
        ]
    }

    /// Keybags under ``KeybagFuzzing/deviceKey``: without a passcode, with a grace period, with a passcode.
    private static func keybags() -> [[UInt8]] {
        let home = FuzzKeychain.makeDirectory("seed-keybag")
        defer { try? FileManager.default.removeItem(at: home) }
        KeybagFuzzing.write(KeybagFuzzing.deviceKey, to: home.appendingPathComponent("device.key"))
        let keychain = FuzzKeychain.open(home)
        defer {
            keychain.simulateRestart()
            keychain.close()
        }
        let keybag = home.appendingPathComponent("keybag")
        func current() -> [UInt8] { Array(FileManager.default.contents(atPath: keybag.path) ?? Data()) }
        var bags = [current()]
        do {
            try keychain.setGracePeriod(30)
            bags.append(current())
            try keychain.setPasscode(Secret(Array("1234".utf8)))
            bags.append(current())
        } catch {
            fatalError("cannot make the seed keybags: \(error)")
        }
        return bags
    }

    private static func backupPayloads() -> [[UInt8]] {
        func item(_ itemClass: String, _ protection: String, _ attributes: [AttributeKey: AttributeValue]) -> [UInt8] {
            let encoded = (try? FuzzEntryPoints.encodeAttributes(attributes)) ?? []
            let secret = Array("backed-up secret".utf8)
            return [UInt8(itemClass.utf8.count)] + Array(itemClass.utf8) + [UInt8(uuid.count)] + uuid
                + [UInt8(protection.utf8.count)] + Array(protection.utf8)
                + bigEndian(UInt32(encoded.count)) + encoded + bigEndian(UInt32(secret.count)) + secret
        }
        var internet = sampleAttributes
        internet[.server] = .string("example.com")
        internet[.service] = nil
        internet[.generic] = nil
        internet[.port] = .number(443)
        return [
            bigEndian(UInt32(0)) + bigEndian(UInt32(0)),
            bigEndian(UInt32(1)) + bigEndian(UInt32(1)) + item("genp", "ak", sampleAttributes),
            bigEndian(UInt32(0)) + bigEndian(UInt32(1)) + item("inet", "ck", internet),
        ]
    }

    private static func entitlements() -> [[UInt8]] {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
                <key>application-identifier</key><string>$(AppIdentifierPrefix)com.example.app</string>
                <key>com.apple.developer.team-identifier</key><string>TEAM123456</string>
                <key>keychain-access-groups</key>
                <array><string>$(AppIdentifierPrefix)com.example.shared</string></array>
                <key>com.apple.security.application-groups</key>
                <array><string>group.com.example</string></array>
            </dict>
            </plist>
            """
        let dictionary: [String: Any] = [
            "application-identifier": "TEAM123456.com.example.app",
            "keychain-access-groups": ["TEAM123456.com.example.shared", "TEAM123456.com.example.app"],
        ]
        let binary =
            (try? PropertyListSerialization.data(fromPropertyList: dictionary, format: .binary, options: 0))
            ?? Data()
        return [
            Array(xml.utf8), Array(binary),
            Array("{ \"application-identifier\" = \"TEAM.app\"; \"keychain-access-groups\" = (\"TEAM.a\"); }".utf8),
        ]
    }

    private static func commandLines() -> [[UInt8]] {
        [
            "add-generic-password -s svc -a alice -w 'pass word' -U",
            "find-generic-password -s svc -a alice -g\nfind-internet-password -s example.com -P 443 -r htps -w",
            "delete-generic-password -s \"a \\\"quoted\\\" service\" -a bob # comment",
            "-G TEAM.group --json dump-keychain -d",
            "set-keychain-settings -t 3600\nlock-keychain\nunlock-keychain -p 1234",
            "backup-keychain /tmp/backup.kcb\nrestore-keychain /tmp/backup.kcb\nerror -25300 -34018",
            "add-internet-password -s example.com -a bob -r htps -P 8443 -X 6869 -T /usr/bin/app -A",
            "doctor -- -25300\nhelp find-generic-password",
        ].map { Array($0.utf8) } + [Array("find-generic-password\0-s\0svc\0-w".utf8)]
    }

    /// keychaind's frames: a ping, two frames in one stream, the daemon's own answers, a header over the limit, a
    /// hello and an answer in parts.
    private static func frameStreams() -> [[UInt8]] {
        let ping = Frame(kind: .ping, requestID: 1, payload: [1, 2, 3]).encoded()
        let status = Frame(
            kind: .statusReply, requestID: 2,
            payload: FieldList([("version", "0.1.0"), ("clients", "2")]).encoded()
        ).encoded()
        let error = ErrorReply(status: -34018, reason: "refused").frame(requestID: 3).encoded()
        var oversized = Frame(kind: .ping, requestID: 4).encoded()
        oversized.replaceSubrange(16..<20, with: [0, 0, 0x10, 0])
        let hello = Frame(
            kind: .hello, requestID: 5,
            payload: ProtocolHello(protocolVersion: 2, largestPayload: 1024, largestAnswer: 4096).fields.encoded()
        ).encoded()
        let parts = AnswerPart.frames(
            carrying: Array(repeating: 0x5A, count: 1500), requestID: 6, largestPayload: 512
        ).flatMap { $0.encoded() }
        return [ping, ping + status, error, oversized, Array(ping.prefix(11)), hello, parts]
    }

    /// The payloads of keychaind's typed frames: requests of each kind, responses, errors and prompts.
    private static func typedMessages() -> [[UInt8]] {
        let context = AuthenticationContextID(bytes: uuid)
        var query = ItemQuery(
            itemClass: .genericPassword, attributes: [.service: .string("svc"), .account: .string("ann")],
            accessGroup: "TEAM1.app", synchronizable: .any, limit: .count(3), returns: [.data, .attributes],
            persistentReference: PersistentReference(itemClass: .genericPassword, uuid: uuid))
        query.authentication = ReadAuthentication(ui: .fail, operationPrompt: "Sign in")
        let item = NewItem(
            itemClass: .internetPassword, attributes: [.server: .string("example.com"), .port: .number(443)],
            accessControl: AccessControlPolicy(accessibility: .whenUnlocked, flags: [.userPresence]),
            data: Array("hunter2".utf8), returns: [.persistentReference])
        let requests: [KeychainRequest] = [
            .add(item), .search(query), .update(query, ItemChanges(attributes: [.label: .bool(true)], data: [1])),
            .delete(ItemQuery(limit: .all)), .createAuthenticationContext,
            .configureAuthenticationContext(
                AuthenticationContextSettings(reuseDuration: 5, interactionNotAllowed: false)),
            .evaluatePolicy(.deviceOwner, reason: "unlock"),
            .evaluateAccessControl(
                AccessControlPolicy(accessibility: .whenUnlocked, flags: [.biometryAny]), operation: .useItem,
                reason: "use"),
            .unlock(passcode: Secret([1, 2, 3, 4])),
            .setPasscode(new: Secret([5]), current: nil), .simulatedBiometry(.script(.match)), .describeService,
            .enclaveKey(.backing),
            .enclaveKey(
                .create(
                    use: 1,
                    policy: AccessControlPolicy(
                        accessibility: .whenUnlockedThisDeviceOnly, flags: [.privateKeyUsage, .devicePasscode]),
                    compactRepresentable: true)),
            .enclaveKey(.restore(storedForm: Array("KSWE".utf8) + [1, 1], use: 1)),
            .enclaveKey(
                .sign(storedForm: Array("KTPA".utf8), use: 3, digest: Array(repeating: 7, count: 32), reason: "sign")),
            .enclaveKey(.agree(storedForm: [], use: 2, peerPoint: [4, 1, 2], reason: nil)),
        ]
        var messages = requests.compactMap { try? RequestCodec.encode($0, context: context) }
        let result = ItemResult(
            itemClass: .genericPassword, value: .secret(Secret([7])), attributes: [.account: .string("a")],
            persistentReference: PersistentReference(itemClass: .genericPassword, uuid: uuid))
        let responses: [Result<KeychainResponse, any Error>] = [
            .success(.found(SearchReport(results: [result], leftOut: 1, damaged: 0, explanation: "n"))),
            .success(.deleted(count: 2)), .failure(KeychainError.itemNotFound.because("none")),
            .failure(AuthenticationFailure.userCancel), .success(.enclaveBacking(.tpm(tcti: "device:/dev/tpmrm0"))),
            .success(
                .enclaveKey(
                    EnclaveKeyDescription(storedForm: [1, 2], publicPoint: [4, 9], isHardwareBacked: true))),
            .success(.enclaveSignature([3, 4])), .success(.enclaveSecret(Secret(Array(repeating: 5, count: 32)))),
        ]
        messages += responses.compactMap { try? ResponseCodec.encode($0) }
        messages.append(PromptCodec.encode(.devicePasscode(reason: "Unlock")))
        messages += [.passcode(SecureBytesBox([1, 2])), .canceled].compactMap { try? PromptCodec.encode($0) }
        let backups: [KeychainRequest] = [
            .backupArchive(password: Secret(Array("pw".utf8))),
            .restoreArchive([0xB1, 2, 3], password: Secret(Array("pw".utf8))),
        ]
        messages += backups.compactMap { try? RequestCodec.encode($0, context: context) }
        return messages
    }
}
