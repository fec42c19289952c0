/// Why the `security` command cannot run a command line as written, per language: the first line of a usage
/// error (the usage itself stays in English, as macOS prints it). Each case is a stable identifier; values the
/// user typed are passed in as they were.
public enum UsageMessage: Equatable, Sendable {
    /// An option the verb does not take (`-- Z` for a letter, the word for a long option).
    case illegalOption(String)
    /// A valued option given last without its value (`-- a`, `--entitlements`).
    case missingArgument(String)
    case fourCharacterCode(option: Character, value: String)
    case protocolCode(String)
    case authenticationType(String)
    case port(String)
    case hexPassword
    case gracePeriodValue(String)
    case errorCodeMissing
    case notAnErrorCode(String)
    case doctorOperands
    case unterminatedQuote(Character)
    case nameOneAction
    case removeTakesNoNewPassword
    case entitlementsFileMissing
    case emptyAccessGroup
    case interactiveTakesNoCommand
    case noCommand
    case helpTakesOneCommand
    /// `help NAME` for a name that is no command (macOS: `help: no such command: NAME`, exit 1).
    case helpNoSuchCommand(String)
    /// `VERB -h`: the usage alone, on standard error, as macOS answers it.
    case usageRequested
    case dumpAccessLists
    case dumpRawData
    case dumpAccessListEditing
    case backupFileMissing
    case oneBackupFile
    case nestedInteractive
    case doctorNeedsFileInInteractive
    /// A value that must be one of a few words (`-p basic|ssl`, `-t certs|privKeys|identities`).
    case oneOf(option: Character, allowed: [String], value: String)
    /// `verify-cert -d`: not a date in macOS's form.
    case verifyDate(String)
    /// An option the verb cannot run without.
    case optionRequired(Character)
    /// A delete that names nothing to delete.
    case searchOptionRequired
    /// `verify-cert -R`: revocation checking is not done here.
    case revocationChecking
    /// `add-certificates`, `import`: the file operand is missing or there are several.
    case oneFileOperand
    /// `create-keypair`: the name operand.
    case oneNameOperand
    /// A macOS verb this keychain does not have: why, and the nearest verb that it has (one line, no usage).
    case unsupportedVerb(verb: String, reason: UnsupportedVerbReason, nearest: String)
    /// A keychain named as an operand (one line, no usage).
    case keychainOperand(name: String)
    /// A verb that neither this command nor macOS's has (one line, no usage).
    case unknownCommand(String)

    /// Why a macOS verb is not here.
    public enum UnsupportedVerbReason: Sendable {
        /// Keychain files: there is one keychain, chosen by `KEYCHAIN_HOME`.
        case oneKeychain
        /// Access-control and partition lists: access is by access group.
        case accessGroups
        /// Keys, certificates, identities and trust: not stored yet.
        case keysAndCertificates
        /// A macOS system service (authorization, leaks, translocation, smart cards).
        case macOSService
    }

    /// The message in `language`, without the `security: ` prefix.
    public func text(in language: MessageLanguage) -> String {
        language == .japanese ? japanese : english
    }

    private var english: String {
        switch self {
        case .illegalOption(let option): "illegal option \(option)"
        case .missingArgument(let option): "option requires an argument \(option)"
        case .fourCharacterCode(let option, let value): "-\(option) needs a four-character code, not \"\(value)\""
        case .protocolCode(let value): "-r needs a protocol code such as \"http\" or \"htps\", not \"\(value)\""
        case .authenticationType(let value):
            "-t needs an authentication type code such as \"dflt\", not \"\(value)\""
        case .port(let value): "-P needs a port number from 0 to 65535, not \"\(value)\""
        case .hexPassword: "-X needs the password as an even number of hexadecimal digits"
        case .gracePeriodValue(let value): "-t needs a number of seconds from 0 to \(UInt32.max), not \"\(value)\""
        case .errorCodeMissing: "error needs at least one error code"
        case .notAnErrorCode(let value): "\"\(value)\" is not an error code (decimal, or hexadecimal with 0x)"
        case .doctorOperands: "doctor takes a function and one file"
        case .unterminatedQuote(let quote): "unterminated \(quote) quote"
        case .nameOneAction: "name one action"
        case .removeTakesNoNewPassword: "--remove takes no new password (-p)"
        case .entitlementsFileMissing: "--entitlements needs a file"
        case .emptyAccessGroup: "the access group is empty"
        case .interactiveTakesNoCommand: "-i takes its commands from standard input"
        case .noCommand: "no command given"
        case .helpTakesOneCommand: "help takes at most one command"
        case .helpNoSuchCommand(let name): "help: no such command: \(name)"
        case .usageRequested: "usage"
        case .dumpAccessLists: "-a: this keychain has no access control lists; access is by access group"
        case .dumpRawData: "-r: raw encrypted data is not shown; use -d for the secrets"
        case .dumpAccessListEditing: "-i: interactive access-list editing is not supported"
        case .backupFileMissing: "the backup file is missing"
        case .oneBackupFile: "name one backup file"
        case .nestedInteractive: "-i cannot be nested"
        case .doctorNeedsFileInInteractive: "doctor needs a FILE in -i (standard input holds the commands)"
        case .oneOf(let option, let allowed, let value):
            "-\(option) needs one of \(allowed.joined(separator: ", ")), not \"\(value)\""
        case .verifyDate(let value): "-d needs a date in GMT as YYYY-MM-DD-hh:mm:ss (time optional), not \"\(value)\""
        case .optionRequired(let option): "-\(option) is required"
        case .searchOptionRequired: "name the item to delete with at least one of its options (-a, -s, -l, …)"
        case .revocationChecking: "-R: revocation checking (OCSP, CRL) is not supported"
        case .oneFileOperand: "name the file (add-certificates takes several)"
        case .oneNameOperand: "name the key pair (its label)"
        case .unsupportedVerb(let verb, let reason, let nearest):
            "\(verb) is not supported: " + Self.english(reason) + "; the nearest command here is `\(nearest)`"
        case .keychainOperand(let name):
            "naming a keychain (\"\(name)\") is not supported: there is one keychain, the one in KEYCHAIN_HOME; "
                + "leave the name out"
        case .unknownCommand(let name): "unknown command \"\(name)\"; `security help` lists the commands"
        }
    }

    private static func english(_ reason: UnsupportedVerbReason) -> String {
        switch reason {
        case .oneKeychain:
            "there is one keychain, chosen by KEYCHAIN_HOME (iOS's model), so there are no keychain files to list, "
                + "create, delete or choose"
        case .accessGroups:
            "this keychain has no access-control or partition lists; which programs read an item is decided by its "
                + "access group"
        case .keysAndCertificates:
            "identity preferences, smart cards, CMS and trust settings have no counterpart here (certificates, "
                + "identities and keys have find-certificate, find-identity, import, export, create-keypair)"
        case .macOSService:
            "it is a macOS system service with no counterpart here"
        }
    }

    private var japanese: String {
        switch self {
        case .illegalOption(let option): "不正なオプションです: \(option)"
        case .missingArgument(let option): "オプションには引数が必要です: \(option)"
        case .fourCharacterCode(let option, let value):
            "-\(option) には 4 文字のコードを指定してください（\"\(value)\" は不可）"
        case .protocolCode(let value):
            "-r には \"http\" や \"htps\" のようなプロトコルコードを指定してください（\"\(value)\" は不可）"
        case .authenticationType(let value):
            "-t には \"dflt\" のような認証タイプのコードを指定してください（\"\(value)\" は不可）"
        case .port(let value): "-P には 0 から 65535 のポート番号を指定してください（\"\(value)\" は不可）"
        case .hexPassword: "-X にはパスワードを偶数桁の 16 進数で指定してください"
        case .gracePeriodValue(let value):
            "-t には 0 から \(UInt32.max) の秒数を指定してください（\"\(value)\" は不可）"
        case .errorCodeMissing: "error にはエラーコードを 1 つ以上指定してください"
        case .notAnErrorCode(let value): "\"\(value)\" はエラーコードではありません（10 進数か、0x を付けた 16 進数）"
        case .doctorOperands: "doctor に指定できるのは関数名とファイル 1 つです"
        case .unterminatedQuote(let quote): "\(quote) の引用符が閉じていません"
        case .nameOneAction: "動作を 1 つ指定してください"
        case .removeTakesNoNewPassword: "--remove には新しいパスワード（-p）を指定できません"
        case .entitlementsFileMissing: "--entitlements にはファイルを指定してください"
        case .emptyAccessGroup: "アクセスグループが空です"
        case .interactiveTakesNoCommand: "-i はコマンドを標準入力から読みます"
        case .noCommand: "コマンドが指定されていません"
        case .helpTakesOneCommand: "help に指定できるコマンドは 1 つまでです"
        case .helpNoSuchCommand(let name): "help: \(name) というコマンドはありません"
        case .usageRequested: "使い方"
        case .dumpAccessLists:
            "-a: このキーチェーンにはアクセス制御リストがありません。アクセスはアクセスグループで決まります"
        case .dumpRawData: "-r: 暗号化された生データは表示しません。秘密を表示するには -d を使ってください"
        case .dumpAccessListEditing: "-i: アクセスリストの対話的な編集には対応していません"
        case .backupFileMissing: "バックアップファイルが指定されていません"
        case .oneBackupFile: "バックアップファイルを 1 つ指定してください"
        case .nestedInteractive: "-i の中で -i は使えません"
        case .doctorNeedsFileInInteractive:
            "-i の中の doctor にはファイルが必要です（標準入力はコマンドを読むために使います）"
        case .oneOf(let option, let allowed, let value):
            "-\(option) には \(allowed.joined(separator: ", ")) のいずれかを指定してください（\"\(value)\" は不可）"
        case .verifyDate(let value):
            "-d には GMT の日時を YYYY-MM-DD-hh:mm:ss（時刻は省略可）で指定してください（\"\(value)\" は不可）"
        case .optionRequired(let option): "-\(option) を指定してください"
        case .searchOptionRequired: "削除する項目をオプション（-a、-s、-l など）の少なくとも 1 つで指定してください"
        case .revocationChecking: "-R: 失効確認（OCSP、CRL）には対応していません"
        case .oneFileOperand: "ファイルを指定してください（add-certificates には複数指定できます）"
        case .oneNameOperand: "鍵ペアの名前（ラベル）を指定してください"
        case .unsupportedVerb(let verb, let reason, let nearest):
            "\(verb) には対応していません。" + Self.japanese(reason) + "。いちばん近いコマンドは `\(nearest)` です"
        case .keychainOperand(let name):
            "キーチェーンの指定（\"\(name)\"）には対応していません。キーチェーンは KEYCHAIN_HOME にある 1 つだけです。"
                + "名前を省いてください"
        case .unknownCommand(let name):
            "\"\(name)\" というコマンドはありません。`security help` でコマンドの一覧を表示します"
        }
    }

    private static func japanese(_ reason: UnsupportedVerbReason) -> String {
        switch reason {
        case .oneKeychain:
            "キーチェーンは KEYCHAIN_HOME で決まる 1 つだけ（iOS と同じモデル）なので、"
                + "一覧・作成・削除・選択するキーチェーンファイルはありません"
        case .accessGroups:
            "このキーチェーンにはアクセス制御リストもパーティションリストもなく、"
                + "項目を読めるプログラムはアクセスグループで決まります"
        case .keysAndCertificates:
            "アイデンティティの優先設定・スマートカード・CMS・信頼設定には対応するものがありません"
                + "（証明書・アイデンティティ・鍵には find-certificate、find-identity、import、export、create-keypair があります）"
        case .macOSService:
            "macOS のシステムサービスで、ここには対応するものがありません"
        }
    }

    /// Whether the verb's usage follows this message: not for the one-line refusals, which say what to do.
    public var showsUsage: Bool {
        switch self {
        case .unsupportedVerb, .keychainOperand, .unknownCommand, .helpNoSuchCommand: false
        default: true
        }
    }
}
