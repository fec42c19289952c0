/// The `security` command's own messages (its notes, warnings and one-line refusals), per language. Each case is
/// a stable identifier; ``text(in:)`` is the line without the `security: ` prefix. English and Japanese are this
/// project's own texts. macOS's message lines (`SecKeychainSearchCopyNext: …`) take their status text from
/// ``StatusMessages``; listings, JSON and exit codes are the same in every language.
public enum CommandMessage: Equatable, Sendable {
    /// The identity a search ran as, after a not-found answer or an empty listing.
    case searchedAs(identity: String, groups: [String])
    /// How to act as an app, after ``searchedAs(identity:groups:)``.
    case actAsApp
    /// `dump-keychain` found nothing the identity can see.
    case emptyDump
    /// `lock-keychain` without a passcode.
    case lockWithoutPasscode
    /// `unlock-keychain` without a passcode.
    case unlockWithoutPasscode
    /// A password given on the command line: by `option` (`-p`, `-o`), or nil for a new item's (`-w PASSWORD`,
    /// `-p`, `-X`).
    case commandLinePassword(option: String?)
    /// `set-keychain-settings -l`.
    case lockOnSleepIgnored
    /// `set-keychain-settings` without `-t`: the grace period stays.
    case gracePeriodUnchanged(seconds: Int)
    /// The global `-l` (macOS runs `leaks` before exiting).
    case leaksIgnored
    /// A macOS verb this keychain does not have: why, and the nearest verb that it has.
    case unsupportedVerb(verb: String, reason: UnsupportedVerbReason, nearest: String)
    /// A keychain named as an operand.
    case keychainOperand(name: String)
    /// A verb that neither this command nor macOS's has.
    case unknownCommand(String)

    /// Why a macOS verb is not here.
    public enum UnsupportedVerbReason: Sendable {
        /// Keychain files: there is one keychain, chosen by `KEYCHAIN_HOME`.
        case oneKeychain
        /// Access-control and partition lists: access is by access group.
        case accessGroups
        /// Keys, certificates, identities and trust: not stored yet.
        case keysAndCertificates
        /// A macOS system service (authorization, code signing, leaks, translocation, smart cards).
        case macOSService
    }

    /// The message in `language`, without the `security: ` prefix; never holds a secret.
    public func text(in language: MessageLanguage) -> String {
        language == .japanese ? japanese : english
    }

    private var english: String {
        switch self {
        case .searchedAs(let identity, let groups):
            "searched as \(identity) (access groups: \(groups.joined(separator: ", ")))"
        case .actAsApp:
            "an app's items are in the app's groups: act as the app with `security -G LOCAL.<app's executable name> "
                + "VERB …` (a program without entitlements), or `security --entitlements App.entitlements VERB …`"
        case .emptyDump:
            "dump-keychain: no items in the groups this command can see"
        case .lockWithoutPasscode:
            "the keychain has no passcode, so locking has no effect: items stay readable until a passcode is set "
                + "(security set-keychain-password)"
        case .unlockWithoutPasscode:
            "the keychain has no passcode, so there is nothing to unlock: items are readable until a passcode is "
                + "set (security set-keychain-password)"
        case .commandLinePassword(let option?):
            "warning: a password on the command line (\(option)) is visible to other processes; leave \(option) out "
                + "to be asked for it, or pipe it on standard input"
        case .commandLinePassword(nil):
            "warning: a password on the command line is visible to other processes; put -w last to be asked for it, "
                + "or pipe it on standard input"
        case .lockOnSleepIgnored:
            "warning: -l (lock when the system sleeps) has no meaning here; lock-keychain locks"
        case .gracePeriodUnchanged(let seconds):
            "warning: without -t the grace period stays \(seconds)s (macOS's \"no timeout\" has no counterpart: "
                + "WhenUnlocked items go after at most one day); -t SECONDS changes it"
        case .leaksIgnored:
            "warning: -l (run leaks before exiting) has no meaning here and is ignored"
        case .unsupportedVerb(let verb, let reason, let nearest):
            "\(verb) is not supported: " + Self.english(reason) + "; the nearest command here is `\(nearest)`"
        case .keychainOperand(let name):
            "naming a keychain (\"\(name)\") is not supported: there is one keychain, the one in KEYCHAIN_HOME; "
                + "leave the name out"
        case .unknownCommand(let name):
            "unknown command \"\(name)\"; `security help` lists the commands"
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
            "keys, certificates and identities are not stored yet (generic and internet passwords are); they come "
                + "with their own issue"
        case .macOSService:
            "it is a macOS system service with no counterpart here"
        }
    }

    private var japanese: String {
        switch self {
        case .searchedAs(let identity, let groups):
            "\(identity) として検索しました（アクセスグループ: \(groups.joined(separator: ", "))）"
        case .actAsApp:
            "アプリが保存した項目はそのアプリのグループにあります。アプリとして動かすには "
                + "`security -G LOCAL.<アプリの実行ファイル名> VERB …`（エンタイトルメントのないプログラムの場合）か "
                + "`security --entitlements App.entitlements VERB …` を使ってください"
        case .emptyDump:
            "dump-keychain: このコマンドから見えるグループに項目はありません"
        case .lockWithoutPasscode:
            "キーチェーンにパスコードがないため、ロックしても効果はありません。"
                + "パスコードを設定するまで項目は読み出せます（security set-keychain-password）"
        case .unlockWithoutPasscode:
            "キーチェーンにパスコードがないため、ロック解除するものはありません。"
                + "パスコードを設定するまで項目は読み出せます（security set-keychain-password）"
        case .commandLinePassword(let option?):
            "警告: コマンドラインのパスワード（\(option)）はほかのプロセスから見えます。"
                + "\(option) を省いて入力を求めさせるか、標準入力から渡してください"
        case .commandLinePassword(nil):
            "警告: コマンドラインのパスワードはほかのプロセスから見えます。-w を最後に置いて入力を求めさせるか、"
                + "標準入力から渡してください"
        case .lockOnSleepIgnored:
            "警告: -l（スリープ時にロック）はここでは意味がありません。ロックは lock-keychain で行います"
        case .gracePeriodUnchanged(let seconds):
            "警告: -t がないため猶予時間は \(seconds) 秒のままです（macOS の「タイムアウトなし」に当たるものはなく、"
                + "WhenUnlocked の項目は長くても 1 日で使えなくなります）。変えるには -t 秒数 を指定してください"
        case .leaksIgnored:
            "警告: -l（終了前に leaks を実行）はここでは意味がないため無視します"
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
            "キーチェーンは KEYCHAIN_HOME で決まる 1 つだけ（iOS と同じモデル）なので、一覧・作成・削除・選択する"
                + "キーチェーンファイルはありません"
        case .accessGroups:
            "このキーチェーンにはアクセス制御リストもパーティションリストもなく、"
                + "項目を読めるプログラムはアクセスグループで決まります"
        case .keysAndCertificates:
            "鍵・証明書・アイデンティティはまだ保存できません"
                + "（汎用パスワードとインターネットパスワードは保存できます）。これらは別の issue で扱います"
        case .macOSService:
            "macOS のシステムサービスで、ここには対応するものがありません"
        }
    }
}
