import KeychainCore
import Testing

@testable import SecurityCLI

@Suite struct CommandParserTests {
    private func command(_ arguments: [String]) throws -> SecurityCommand {
        try CommandParser.parse(arguments).command
    }

    private func usageError(_ arguments: [String]) -> UsageError? {
        do {
            _ = try CommandParser.parse(arguments)
            return nil
        } catch {
            return error
        }
    }

    @Test func addGenericPasswordTakesEveryMacOSOption() throws {
        let parsed = try command([
            "add-generic-password", "-a", "alice", "-s", "svc", "-l", "Label", "-j", "note", "-D", "kind",
            "-c", "abcd", "-C", "type", "-G", "generic", "-U", "-w", "pw",
        ])
        let expected = AddPasswordCommand(
            itemClass: .genericPassword,
            attributes: [
                .account: .string("alice"), .service: .string("svc"), .label: .string("Label"),
                .comment: .string("note"), .description: .string("kind"), .creator: .number(0x6162_6364),
                .type: .number(0x7479_7065), .generic: .string("generic"),
            ],
            password: .commandLine(CommandLineSecret(utf8: "pw")), updateIfExists: true)
        #expect(parsed == .addPassword(expected))
    }

    @Test func passwordOptionLastPromptsAndOtherwiseTakesAValue() throws {
        #expect(
            try command(["add-generic-password", "-a", "a", "-s", "s", "-w"])
                == .addPassword(
                    AddPasswordCommand(
                        itemClass: .genericPassword, attributes: [.account: .string("a"), .service: .string("s")],
                        password: .prompt)))
        #expect(
            try command(["add-generic-password", "-s", "s", "-Uw"])
                == .addPassword(
                    AddPasswordCommand(
                        itemClass: .genericPassword, attributes: [.service: .string("s")], password: .prompt,
                        updateIfExists: true)))
        // As with getopt on macOS, a word after -w is the password even when it looks like an option.
        #expect(
            try command(["add-generic-password", "-w", "-U"])
                == .addPassword(
                    AddPasswordCommand(
                        itemClass: .genericPassword,
                        password: .commandLine(CommandLineSecret(utf8: "-U")))))
        #expect(
            try command(["add-generic-password", "-wsecret"])
                == .addPassword(
                    AddPasswordCommand(
                        itemClass: .genericPassword,
                        password: .commandLine(CommandLineSecret(utf8: "secret")))))
        #expect(
            try command(["add-generic-password", "-p", "legacy"])
                == .addPassword(
                    AddPasswordCommand(
                        itemClass: .genericPassword,
                        password: .commandLine(CommandLineSecret(utf8: "legacy")))))
        #expect(try command(["add-generic-password"]) == .addPassword(AddPasswordCommand(itemClass: .genericPassword)))
    }

    @Test func hexPasswordIsDecoded() throws {
        #expect(
            try command(["add-generic-password", "-X", "00ff41"])
                == .addPassword(
                    AddPasswordCommand(
                        itemClass: .genericPassword,
                        password: .commandLine(CommandLineSecret([0, 0xFF, 0x41])))))
        #expect(usageError(["add-generic-password", "-X", "abc"])?.verb == .addGenericPassword)
        #expect(usageError(["add-generic-password", "-X", "zz"])?.verb == .addGenericPassword)
    }

    @Test func accessListOptionsAreKeptToWarnAbout() throws {
        let parsed = try command(["add-generic-password", "-A", "-T", "/usr/bin/git", "-s", "s"])
        guard case .addPassword(let add) = parsed else {
            Issue.record("not an add: \(parsed)")
            return
        }
        #expect(add.ignoredAccessOptions == ["-A", "-T /usr/bin/git"])
    }

    @Test func labelDefaultsToServiceOrServer() {
        let generic = AddPasswordCommand(itemClass: .genericPassword, attributes: [.service: .string("svc")])
        #expect(generic.newItemAttributes[.label] == .string("svc"))
        let labelled = AddPasswordCommand(
            itemClass: .genericPassword, attributes: [.service: .string("svc"), .label: .string("mine")])
        #expect(labelled.newItemAttributes[.label] == .string("mine"))
        let internet = AddPasswordCommand(itemClass: .internetPassword, attributes: [.server: .string("host")])
        #expect(internet.newItemAttributes[.label] == .string("host"))
        #expect(internet.newItemAttributes[.authenticationType] == .string("dflt"))
    }

    @Test func findGenericPasswordOptions() throws {
        #expect(
            try command([
                "find-generic-password", "-a", "alice", "-s", "svc", "-l", "L", "-j", "c", "-D", "k", "-c", "crtr",
                "-C", "type", "-G", "g",
            ])
                == .findPassword(
                    FindPasswordCommand(
                        itemClass: .genericPassword,
                        attributes: [
                            .account: .string("alice"), .service: .string("svc"), .label: .string("L"),
                            .comment: .string("c"),
                            .description: .string("k"), .creator: .number(0x6372_7472), .type: .number(0x7479_7065),
                            .generic: .string("g"),
                        ])))
        #expect(
            try command(["find-generic-password", "-s", "svc", "-g"])
                == .findPassword(
                    FindPasswordCommand(
                        itemClass: .genericPassword, attributes: [.service: .string("svc")], display: .withAttributes)))
        #expect(
            try command(["find-generic-password", "-s", "svc", "-w"])
                == .findPassword(
                    FindPasswordCommand(
                        itemClass: .genericPassword, attributes: [.service: .string("svc")], display: .only)))
        #expect(
            try command(["find-generic-password", "-gw", "-ssvc"])
                == .findPassword(
                    FindPasswordCommand(
                        itemClass: .genericPassword, attributes: [.service: .string("svc")], display: .only)))
    }

    @Test func deleteGenericPasswordOptions() throws {
        #expect(
            try command(["delete-generic-password", "-a", "alice", "-s", "svc", "-l", "L"])
                == .deletePassword(
                    DeletePasswordCommand(
                        itemClass: .genericPassword,
                        attributes: [.account: .string("alice"), .service: .string("svc"), .label: .string("L")])))
        #expect(usageError(["delete-generic-password", "-g"])?.verb == .deleteGenericPassword)
        #expect(usageError(["delete-generic-password", "-w"])?.verb == .deleteGenericPassword)
    }

    @Test func internetPasswordOptions() throws {
        let attributes: [AttributeKey: AttributeValue] = [
            .account: .string("bob"), .server: .string("example.com"), .protocol: .string("htps"),
            .port: .number(443), .path: .string("/login"), .authenticationType: .string("form"),
            .securityDomain: .string("realm"), .label: .string("L"), .comment: .string("c"),
            .description: .string("k"), .creator: .number(0x6162_6364), .type: .number(0x7479_7065),
        ]
        let options = [
            "-a", "bob", "-s", "example.com", "-r", "https", "-P", "443", "-p", "/login", "-t", "htmlform",
            "-d", "realm", "-l", "L", "-j", "c", "-D", "k", "-c", "abcd", "-C", "type",
        ]
        #expect(
            try command(["add-internet-password"] + options + ["-U", "-w", "pw"])
                == .addPassword(
                    AddPasswordCommand(
                        itemClass: .internetPassword, attributes: attributes,
                        password: .commandLine(CommandLineSecret(utf8: "pw")),
                        updateIfExists: true)))
        #expect(
            try command(["find-internet-password"] + options + ["-g"])
                == .findPassword(
                    FindPasswordCommand(
                        itemClass: .internetPassword, attributes: attributes,
                        display: .withAttributes)))
        #expect(
            try command(["delete-internet-password"] + options)
                == .deletePassword(DeletePasswordCommand(itemClass: .internetPassword, attributes: attributes)))
        #expect(
            try command(["add-internet-password", "-s", "h", "-X", "41"])
                == .addPassword(
                    AddPasswordCommand(
                        itemClass: .internetPassword, attributes: [.server: .string("h")],
                        password: .commandLine(CommandLineSecret([0x41])))))
    }

    @Test func protocolAndAuthenticationCodes() throws {
        func protocolCode(_ text: String) throws -> AttributeValue? {
            guard case .findPassword(let find) = try command(["find-internet-password", "-r", text]) else { return nil }
            return find.attributes[.protocol]
        }
        #expect(try protocolCode("http") == .string("http"))
        #expect(try protocolCode("htps") == .string("htps"))
        #expect(try protocolCode("https") == .string("htps"))
        #expect(try protocolCode("ftp") == .string("ftp "))
        #expect(try protocolCode("ssh") == .string("ssh "))
        #expect(try protocolCode("imaps") == .string("imps"))
        #expect(usageError(["find-internet-password", "-r", "gopherplus"])?.verb == .findInternetPassword)
        #expect(usageError(["find-internet-password", "-r", ""])?.verb == .findInternetPassword)
        #expect(FourCharCode.authenticationTypeCode("default") == "dflt")
        #expect(FourCharCode.authenticationTypeCode("httpbasic") == "http")
        #expect(FourCharCode.authenticationTypeCode("ntlm") == "ntlm")
        #expect(FourCharCode.authenticationTypeCode("toolong") == nil)
    }

    @Test func badValuesAreUsageErrors() {
        #expect(usageError(["find-internet-password", "-P", "65536"])?.verb == .findInternetPassword)
        #expect(usageError(["find-internet-password", "-P", "-1"])?.verb == .findInternetPassword)
        #expect(usageError(["find-generic-password", "-c", "toolong"])?.verb == .findGenericPassword)
        #expect(usageError(["find-generic-password", "-C", "caf\u{E9}"])?.verb == .findGenericPassword)
    }

    @Test func fourCharCodesAreBigEndianNumbers() {
        #expect(FourCharCode.number("aapl") == 0x6161_706C)
        #expect(FourCharCode.number("ab") == 0x6162_2020)
        #expect(FourCharCode.number("") == nil)
    }

    @Test func getoptConventions() throws {
        #expect(
            try command(["find-generic-password", "-aalice", "-a", "bob"])
                == .findPassword(
                    FindPasswordCommand(itemClass: .genericPassword, attributes: [.account: .string("bob")])))
        // An operand is a keychain name, which gets one line without the usage.
        #expect(usageError(["find-generic-password", "-s", "svc", "--", "extra"])?.showsUsage == false)
        #expect(usageError(["find-generic-password", "login.keychain"])?.message.contains("naming a keychain") == true)
        #expect(usageError(["find-generic-password", "-a"])?.message == "option requires an argument -- a")
        #expect(usageError(["find-generic-password", "-Z"])?.message == "illegal option -- Z")
        #expect(usageError(["add-internet-password", "-G", "g"])?.verb == .addInternetPassword)
    }

    @Test func dumpKeychainOptions() throws {
        #expect(try command(["dump-keychain"]) == .dumpKeychain(DumpKeychainCommand(includeSecrets: false)))
        #expect(try command(["dump-keychain", "-d"]) == .dumpKeychain(DumpKeychainCommand(includeSecrets: true)))
        for rejected in ["-a", "-r", "-i"] {
            #expect(usageError(["dump-keychain", rejected])?.verb == .dumpKeychain)
        }
    }

    @Test func globalIdentityOptions() throws {
        let invocation = try CommandParser.parse([
            "--entitlements", "app.entitlements", "-G", "TEAM.group", "dump-keychain",
        ])
        #expect(invocation.identity == IdentityOptions(entitlementsFile: "app.entitlements", accessGroup: "TEAM.group"))
        let equals = try CommandParser.parse(["--entitlements=e.plist", "--access-group=g", "dump-keychain"])
        #expect(equals.identity == IdentityOptions(entitlementsFile: "e.plist", accessGroup: "g"))
        let long = try CommandParser.parse(["--access-group", "g", "find-generic-password", "-G", "generic"])
        #expect(long.identity.accessGroup == "g")
        #expect(
            long.command
                == .findPassword(
                    FindPasswordCommand(
                        itemClass: .genericPassword, attributes: [.generic: .string("generic")])))
        #expect(usageError(["--entitlements"])?.verb == nil)
        #expect(usageError(["-G", "", "dump-keychain"]) != nil)
        #expect(usageError(["--bogus", "dump-keychain"]) != nil)
    }

    @Test func helpAndMissingOrUnknownVerbs() throws {
        #expect(try command(["help"]) == .help(nil))
        #expect(try command(["help", "dump-keychain"]) == .help(.dumpKeychain))
        #expect(try command(["-h"]) == .help(nil))
        #expect(try command(["-h", "find-generic-password"]) == .help(.findGenericPassword))
        #expect(usageError(["find-generic-password", "-h"]) == UsageError(.usageRequested, verb: .findGenericPassword))
        #expect(usageError([])?.message == "no command given")
        #expect(usageError(["unlock-keychain"])?.verb == nil)
        #expect(usageError(["help", "nope"]) == UsageError(.helpNoSuchCommand("nope"), verb: .help))
    }

    /// keychaind's verbs are verbs like the others: listed by `help`, with usage, after global options.
    @Test func daemonAndAppsVerbsParseLikeTheOthers() throws {
        #expect(try command(["daemon", "status"]) == .daemonQuery(.status))
        #expect(try command(["apps", "list"]) == .daemonQuery(.listApps))
        #expect(try command(["apps", "show", "/usr/bin/tool"]) == .daemonQuery(.showApp("/usr/bin/tool")))
        #expect(try command(["-q", "daemon", "status"]) == .daemonQuery(.status))
        #expect(try command(["help", "daemon"]) == .help(.daemon))
        #expect(usageError(["apps", "-h"]) == UsageError(.usageRequested, verb: .apps))
        for wrong in [["daemon"], ["daemon", "stop"], ["apps"], ["apps", "show"], ["apps", "list", "x"]] {
            let error = usageError(wrong)
            #expect(error?.verb?.rawValue == wrong[0], "\(wrong)")
            #expect(error?.message == "name one action", "\(wrong)")
        }
    }

    @Test func everyVerbHasUsageText() {
        for verb in SecurityVerb.allCases {
            #expect(verb.usage.hasPrefix("Usage: \(verb.rawValue)"))
            #expect(SecurityVerb.overview.contains(verb.rawValue))
        }
    }
}

@Suite("Secrets on the command line")
struct CommandLineSecretTests {
    @Test func aPasswordFromArgvIsHeldInWipedMemoryAndNeverPrinted() throws {
        let command = try CommandParser.parse(["add-generic-password", "-a", "a", "-s", "s", "-w", "hunter2"]).command
        guard case .addPassword(let add) = command, case .commandLine(let given) = add.password else {
            Issue.record("not an add with a command-line password: \(command)")
            return
        }
        #expect(given.secret.bytes == Array("hunter2".utf8))
        #expect(!"\(command)".contains("hunter2"))
        #expect(!String(reflecting: given).contains("hunter2"))
    }
}
