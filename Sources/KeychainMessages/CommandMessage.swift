/// The `security` command's own notes, warnings and failure lines, per language (usage errors are in
/// ``UsageMessage``). Each case is a stable identifier; ``text(in:)`` is the line without the `security: `
/// prefix. macOS's message lines (`SecKeychainSearchCopyNext: …`) take their status text from
/// ``StatusMessages``; listings, JSON and exit codes are the same in every language. No message holds a secret.
public enum CommandMessage: Equatable, Sendable {
    /// The identity a search ran as, after a not-found answer or an empty listing.
    case searchedAs(identity: String, groups: [String])
    /// How to act as an app, after ``searchedAs(identity:groups:)``.
    case actAsApp
    /// `dump-keychain` found nothing the identity can see.
    case emptyDump
    /// `dump-keychain` skipped damaged items: how many, and the engine's note on them (in the same language).
    case damagedItemsSkipped(count: Int, note: String?)
    /// `lock-keychain` without a passcode.
    case lockWithoutPasscode
    /// `unlock-keychain` without a passcode.
    case unlockWithoutPasscode
    /// `unlock-keychain` through keychaind, held back by the apps' wrong passcodes: made as the owner.
    case unlockAsOwner
    /// `set-keychain-password --remove` without a passcode.
    case nothingToRemove
    /// A password given on the command line: by `option` (`-p`, `-o`), or nil for a new item's (`-w PASSWORD`,
    /// `-p`, `-X`).
    case commandLinePassword(option: String?)
    /// `-A` and `-T app` of an add, which have no effect here.
    case accessOptionsIgnored([String])
    /// After an add that collided.
    case addWithUpdate
    /// `set-keychain-settings -l`.
    case lockOnSleepIgnored
    /// `set-keychain-settings` without `-t`: the grace period stays.
    case gracePeriodUnchanged(seconds: Int)
    /// The global `-l` (macOS runs `leaks` before exiting).
    case leaksIgnored
    /// A password prompt answered with nothing (Control-D, or empty standard input); after the operation name.
    case noPasswordEntered
    /// The two typed passwords differ; after the operation name.
    case passwordsDiffer
    /// Reading the password failed; after the operation name.
    case passwordUnreadable(errno: Int32)
    /// `-i` skipped the password lines a failed command left unread.
    case skippedPasswordLines(count: Int)
    /// `-i` stopped at a line after password lines that is not a command.
    case interactiveStoppedAfterPasswordLines
    /// `-i` stopped because password lines of unknown number may follow a failed command.
    case interactiveStoppedForUnknownPasswordLines
    /// `biometry` changing the simulated sensor while the keychain uses the fingerprint reader.
    case simulatedSensorUnused
    /// `verify-cert` when the evaluation failed without an error of its own (after `Cert Verify Result: `).
    case certificateNotTrusted

    /// The message in `language`, without the `security: ` prefix.
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
        case .damagedItemsSkipped(let count, let note):
            "dump-keychain: \(count) damaged item\(count == 1 ? "" : "s") skipped" + (note.map { ": " + $0 } ?? "")
        case .lockWithoutPasscode:
            "the keychain has no passcode, so locking has no effect: items stay readable until a passcode is set "
                + "(security set-keychain-password)"
        case .unlockWithoutPasscode:
            "the keychain has no passcode, so there is nothing to unlock: items are readable until a passcode is "
                + "set (security set-keychain-password)"
        case .unlockAsOwner:
            "the apps' passcode attempts are held back after wrong passcodes (any app may enter them); unlocking "
                + "as the keychain's owner, whose attempts are counted apart (keychaind may ask for your system password)"
        case .nothingToRemove:
            "no passcode is set; there is nothing to remove"
        case .commandLinePassword(let option?):
            "warning: a password on the command line (\(option)) is visible to other processes; leave \(option) out "
                + "to be asked for it, or pipe it on standard input"
        case .commandLinePassword(nil):
            "warning: a password on the command line is visible to other processes; put -w last to be asked for it, "
                + "or pipe it on standard input"
        case .accessOptionsIgnored(let options):
            "warning: \(options.joined(separator: ", ")) ignored: this keychain has no application access lists; "
                + "access is by access group"
        case .addWithUpdate:
            "add -U to update the existing item"
        case .lockOnSleepIgnored:
            "warning: -l (lock when the system sleeps) has no meaning here; lock-keychain locks"
        case .gracePeriodUnchanged(let seconds):
            "warning: without -t the grace period stays \(seconds)s (macOS's \"no timeout\" has no counterpart: "
                + "WhenUnlocked items go after at most one day); -t SECONDS changes it"
        case .leaksIgnored:
            "warning: -l (run leaks before exiting) has no meaning here and is ignored"
        case .noPasswordEntered:
            "no password was entered"
        case .passwordsDiffer:
            "passwords don't match"
        case .passwordUnreadable(let number):
            "cannot read the password (errno \(number))"
        case .skippedPasswordLines(let count):
            "skipped the \(count == 1 ? "password line" : "\(count) password lines") that followed the failed "
                + "command; \(count == 1 ? "it was" : "they were") not run or shown"
        case .interactiveStoppedAfterPasswordLines:
            "-i stopped: the line after the password lines is not a command, and is not shown in case it is a "
                + "password (did the command before read fewer password lines than were given?)"
        case .interactiveStoppedForUnknownPasswordLines:
            "-i stopped: password lines may follow the failed command, and they are never read as commands; "
                + "nothing after it was read"
        case .simulatedSensorUnused:
            "note: this keychain uses the fingerprint reader (fprintd); the simulated sensor this changes is used "
                + "only with KEYCHAIN_AUTHENTICATION=simulated"
        case .certificateNotTrusted:
            "the certificate is not trusted"
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
        case .damagedItemsSkipped(let count, let note):
            "dump-keychain: 壊れた項目を \(count) 件とばしました" + (note.map { ": " + $0 } ?? "")
        case .lockWithoutPasscode:
            "キーチェーンにパスコードがないため、ロックしても効果はありません。"
                + "パスコードを設定するまで項目は読み出せます（security set-keychain-password）"
        case .unlockWithoutPasscode:
            "キーチェーンにパスコードがないため、ロック解除するものはありません。"
                + "パスコードを設定するまで項目は読み出せます（security set-keychain-password）"
        case .unlockAsOwner:
            "誤ったパスコードが続いたため、アプリからのパスコード入力は待機中です（どのアプリも入力できます）。"
                + "試行回数を別に数えるキーチェーンの所有者としてロックを解除します（keychaind がシステムのパスワードを尋ねることがあります）"
        case .nothingToRemove:
            "パスコードは設定されていないため、削除するものはありません"
        case .commandLinePassword(let option?):
            "警告: コマンドラインのパスワード（\(option)）はほかのプロセスから見えます。"
                + "\(option) を省いて入力を求めさせるか、標準入力から渡してください"
        case .commandLinePassword(nil):
            "警告: コマンドラインのパスワードはほかのプロセスから見えます。-w を最後に置いて入力を求めさせるか、"
                + "標準入力から渡してください"
        case .accessOptionsIgnored(let options):
            "警告: \(options.joined(separator: ", ")) は無視しました。"
                + "このキーチェーンにはアプリのアクセスリストがなく、アクセスはアクセスグループで決まります"
        case .addWithUpdate:
            "既存の項目を更新するには -U を付けてください"
        case .lockOnSleepIgnored:
            "警告: -l（スリープ時にロック）はここでは意味がありません。ロックは lock-keychain で行います"
        case .gracePeriodUnchanged(let seconds):
            "警告: -t がないため猶予時間は \(seconds) 秒のままです（macOS の「タイムアウトなし」に当たるものはなく、"
                + "WhenUnlocked の項目は長くても 1 日で使えなくなります）。変えるには -t 秒数 を指定してください"
        case .leaksIgnored:
            "警告: -l（終了前に leaks を実行）はここでは意味がないため無視します"
        case .noPasswordEntered:
            "パスワードが入力されませんでした"
        case .passwordsDiffer:
            "2 回入力したパスワードが一致しません"
        case .passwordUnreadable(let number):
            "パスワードを読み取れません（errno \(number)）"
        case .skippedPasswordLines(let count):
            "失敗したコマンドに続くパスワード行を \(count) 行とばしました。実行も表示もしていません"
        case .interactiveStoppedAfterPasswordLines:
            "-i を中止しました: パスワード行の次の行がコマンドではありません。パスワードかもしれないため表示しません"
                + "（前のコマンドが読んだパスワード行は、渡された行より少なかったのでは？）"
        case .interactiveStoppedForUnknownPasswordLines:
            "-i を中止しました: 失敗したコマンドのあとにパスワード行が続いているかもしれず、"
                + "パスワード行はコマンドとして読まないため、それ以降は読んでいません"
        case .simulatedSensorUnused:
            "注意: このキーチェーンは指紋リーダー（fprintd）を使っています。ここで変える模擬センサーが使われるのは "
                + "KEYCHAIN_AUTHENTICATION=simulated のときだけです"
        case .certificateNotTrusted:
            "証明書は信頼されていません"
        }
    }
}
