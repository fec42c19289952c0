/// The Japanese wording of the keychain's reasons, by English template: this project's own translations. A template
/// is the English text with `{0}`, `{1}`, … where its arguments go; a wording may place them in another order.
extension ReasonMessages {
    static let japaneseEntries: [(english: String, japanese: String)] = {
        var entries: [(english: String, japanese: String)] = []
        func word(_ english: String, _ japanese: String) { entries.append((english, japanese)) }
        word(" ({0} for {1})", "（{1} の代わりに {0}）")
        word(" ({0} of {1} keys in use, /proc/key-users)", "（{1} 個中 {0} 個を使用中、/proc/key-users）")
        word("\"{0}\" is not a keychain item class", "\"{0}\" はキーチェーン項目のクラスではありません")
        word(
            ".privateKeyUsage applies to key items (kSecClassKey), not to items of class {0}; nothing was stored",
            ".privateKeyUsage は鍵の項目（kSecClassKey）に使うもので、クラス {0} の項目には使えません。"
                + "何も保存していません")
        word("KEYCHAIN_ENTITLEMENTS: {0}", "KEYCHAIN_ENTITLEMENTS: {0}")
        word(
            "WhenPasscodeSetThisDeviceOnly needs a keychain passcode, and none is set",
            "WhenPasscodeSetThisDeviceOnly "
                + "にはキーチェーンのパスコードが必要ですが、設定されていません")
        word("a backup cannot use {0} KDF iterations", "バックアップに KDF の反復回数 {0} は使えません")
        word(
            "a backup must hold every item that can leave the device, and {0}; nothing was written",
            "バックアップにはデバイスの外に出せる項目をすべて入れる必要がありますが、{0}。"
                + "何も書き込んでいません")
        word("a backup password cannot be empty", "バックアップのパスワードは空にできません")
        word(
            "the backup's key derivation is KDF {0}, which this version does not know (it knows KDF 1, "
                + "PBKDF2-HMAC-SHA-256)",
            "バックアップの鍵導出は KDF {0} ですが、このバージョンはそれを知りません"
                + "（知っているのは KDF 1、PBKDF2-HMAC-SHA-256 です）")
        word(
            "the backup's contents are damaged: they say {0} items were left out, more than {1}",
            "バックアップの内容が壊れています。除外した項目が {0} 個とありますが、{1} 個を超えています")
        word(
            "the backup's contents are damaged: they say they hold {0} items, more than their {1} bytes can",
            "バックアップの内容が壊れています。項目が {0} 個あるとしていますが、その {1} バイトには収まりません")
        word(
            "the backup itself holds two items of class {0} with the same persistent reference; it is damaged, and "
                + "nothing was restored",
            "バックアップ自体に、同じ永続参照を持つクラス {0} の項目が二つあります。バックアップが壊れているため、"
                + "何も復元していません")
        word(
            "the backup holds an item with a pdmn attribute, but an item's protection class is recorded apart "
                + "(here {0}); it is damaged, and nothing was restored",
            "バックアップに pdmn 属性を持つ項目がありますが、項目の保護クラスは別に記録されます（ここでは {0}）。"
                + "バックアップが壊れているため、何も復元していません")
        word(
            "the backup itself holds two items with the same primary key ({0}); nothing was restored",
            "バックアップ自体に、同じ主キー（{0}）の項目が二つあります。何も復元していません")
        word(
            "{0} is not a regular file but a {1}; only a regular file is read",
            "{0} は通常のファイルではなく {1} です。読み込むのは通常のファイルだけです")
        word("{0} grew while it was read; it was not read", "{0} は読み込む間に大きくなったため、読み込んでいません")
        word("directory", "ディレクトリ")
        word("FIFO", "FIFO")
        word("character device", "キャラクタデバイス")
        word("block device", "ブロックデバイス")
        word("socket", "ソケット")
        word("special file", "特殊ファイル")
        word(
            "{0} is larger than {1} bytes, more than any file read here; it was not read",
            "{0} は {1} バイトより大きく、ここで読み込むどのファイルよりも大きいため、読み込んでいません")
        word(
            "the backup holds an item that cannot be restored: {0}; nothing was restored",
            "バックアップに復元できない項目があります: {0}。何も復元していません")
        word(
            "every alternative of the item's access control needs the device passcode it was stored under, and that "
                + "passcode was removed (a new one does not replace it): the item can never be opened again; delete it",
            "項目のアクセス制御のどの選択肢も、保存時のデバイスパスコードを必要としますが、そのパスコードは削除されました"
                + "（新しいパスコードでは代わりになりません）。この項目は二度と開けません。削除してください")
        word("a class key of {0} bytes cannot be kept", "{0} バイトのクラス鍵は保持できません")
        word("a constrained item's key envelope is damaged", "制約付き項目の鍵エンベロープが壊れています")
        word("a constrained item's secret does not authenticate", "制約付き項目の秘密データが認証を通りません")
        word(
            "a delete removes every match; kSecMatchLimit must be absent or All",
            "削除は一致したすべての項目を消します。kSecMatchLimit は指定しないか All "
                + "にしてください")
        word(
            "a devicePasscode constraint needs a keychain passcode, and none is set",
            "devicePasscode の制約にはキーチェーンのパスコードが必要ですが、設定されていません")
        word("a dictionary key is not a string", "辞書のキーに文字列でないものがあります")
        word("a passcode cannot be empty", "パスコードは空にできません")
        word(
            "a synchronizable item cannot carry access-control constraints",
            "同期する項目にアクセス制御の制約は付けられません")
        word(
            "access group: the item is in \"{0}\", another of the caller's groups, and the query names \"{1}\", "
                + "which has no such item: name \"{2}\" or leave kSecAttrAccessGroup out",
            "アクセスグループ: 項目は呼び出し元の別のグループ \"{0}\" にあり、"
                + "クエリが指定した \"{1}\" にはその項目がありません。"
                + "\"{2}\" を指定するか、kSecAttrAccessGroup を省いてください")
        word("always available", "常に使用可")
        word("an access control has too many constraints to store", "アクセス制御の制約が多すぎて保存できません")
        word("an attribute is too large to store", "属性が大きすぎて保存できません")
        word("an item has an unknown protection class", "保護クラスが不明な項目があります")
        word("an item is too large for a backup", "バックアップに入れるには大きすぎる項目があります")
        word(
            "an item with the same persistent reference exists (was this backup restored before?); nothing "
                + "was restored",
            "同じ永続参照の項目がすでにあります（このバックアップは以前に復元済みでは？）。"
                + "何も復元していません")
        word(
            "an item with the same primary key exists ({0}); nothing was restored",
            "同じ主キーの項目がすでにあります（{0}）。何も復元していません")
        word(
            "an item with the same primary key exists ({0}); the add left out {1}, so it collides with any "
                + "item stored without it: give it a value, or use SecItemUpdate to change the existing item",
            "同じ主キーの項目がすでにあります（{0}）。追加で {1} を省いたため、"
                + "それを持たずに保存された項目と衝突します。値を指定するか、"
                + "SecItemUpdate で既存の項目を変更してください")
        word(
            "an item with the same primary key exists ({0}); the add left out {1}, so it collides with any "
                + "item stored without them: give them a value, or use SecItemUpdate to change the existing item",
            "同じ主キーの項目がすでにあります（{0}）。追加で {1} を省いたため、"
                + "それらを持たずに保存された項目と衝突します。値を指定するか、"
                + "SecItemUpdate で既存の項目を変更してください")
        word(
            "an item with the same primary key exists ({0}); use SecItemUpdate to change it",
            "同じ主キーの項目がすでにあります（{0}）。変更するには SecItemUpdate "
                + "を使ってください")
        word("an item's access control is damaged", "項目のアクセス制御が壊れています")
        word(
            "an item's ciphertext does not authenticate (the row is damaged)",
            "項目の暗号文が認証を通りません（行が壊れています）")
        word(
            "an item's index does not match its contents (the row is damaged)",
            "項目のインデックスが内容と一致しません（行が壊れています）")
        word(
            "an item's index does not match its contents (the row is damaged); nothing was deleted",
            "項目のインデックスが内容と一致しません（行が壊れています）。何も削除していません")
        word(
            "an item's key does not open with its class key (the row is damaged)",
            "項目の鍵がクラス鍵で開けません（行が壊れています）")
        word(
            "an update applies to every match; kSecMatchLimit must be absent or All",
            "更新は一致したすべての項目に適用されます。kSecMatchLimit は指定しないか All "
                + "にしてください")
        word(
            "an update query cannot ask for results (kSecReturn…)",
            "更新のクエリで結果（kSecReturn…）は求められません")
        word(
            "applicationPassword needs LAContext.setCredential(_:type: .applicationPassword) on the context "
                + "passed as kSecUseAuthenticationContext",
            "applicationPassword には、kSecUseAuthenticationCont"
                + "ext に渡すコンテキストでの LAContext.setCredential(_:type: "
                + ".applicationPassword) が必要です")
        word("available after the first unlock until restart", "再起動後の最初のロック解除から次の再起動まで使用可")
        word("available only while unlocked", "ロック解除中だけ使用可")
        word("before first unlock", "再起動後まだロック解除されていない状態")
        word(
            "biometry and passcode constraints need a keychain passcode",
            "生体認証とパスコードの制約にはキーチェーンのパスコードが必要です")
        word(
            "biometryCurrentSet needs enrolled biometry, and none is",
            "biometryCurrentSet には登録済みの生体情報が必要ですが、登録されていません")
        word("cannot create keychain home {0}", "キーチェーンのホーム {0} を作れません")
        word("cannot open {0}: {1}", "{0} を開けません: {1}")
        word("cannot read entitlements file {0}", "エンタイトルメントのファイル {0} を読めません")
        word("changing the passcode needs the current one", "パスコードを変えるには現在のパスコードが必要です")
        word(
            "class A was locked, but the kernel keyring refused to record the lock: {0}",
            "クラス A はロックしましたが、カーネルのキーリングがロックの記録を拒否しました: {0}")
        word(
            "class {0} exists only while a passcode is set, and none is set",
            "保護クラス {0} はパスコードが設定されている間だけ存在しますが、"
                + "パスコードは設定されていません")
        word("class {0} is not available", "保護クラス {0} は今は使用できません")
        word(
            "class: an item of class {0} in the caller's groups has the query's attributes{1}, but the query "
                + "asks for class {2}",
            "クラス: 呼び出し元のグループにあるクラス {0} の項目がクエリの属性{1}を持っていますが、"
                + "クエリはクラス {2} を求めています")
        word(
            "databaseBusyTimeout must be a finite number of seconds from 0 to 3600, not {0}",
            "databaseBusyTimeout は 0 から 3600 "
                + "までの有限の秒数にしてください（{0} は使えません）")
        word(
            "do not delete the item on this error: it is intact and readable again after the unlock",
            "このエラーで項目を削除しないでください。項目は無事で、ロック解除後にまた読み出せます")
        word(
            "fix: an item read in the background or while locked needs kSecAttrAccessibleAfterFirstUnlock "
                + "(move it there with SecItemUpdate while unlocked); {0}",
            "対処: バックグラウンドやロック中に読む項目には kSecAttrAccessibleAfter"
                + "FirstUnlock が必要です（ロック解除中に SecItemUpdate "
                + "で移してください）。{0}")
        word(
            "fix: retry after the first unlock since the restart; {0}",
            "対処: 再起動後の最初のロック解除のあとでやり直してください。{0}")
        word("item attributes are malformed", "項目の属性の形式が正しくありません")
        word("items of class {0} are not supported yet", "クラス {0} の項目にはまだ対応していません")
        word(
            "kSecAttrAccessible cannot be given beside a kSecAttrAccessControl with flags, whose protection class "
                + "is the item's: leave kSecAttrAccessible out",
            "フラグのある kSecAttrAccessControl と一緒に kSecAttrAccessible は指定できません。"
                + "項目の保護クラスはアクセス制御のものです。kSecAttrAccessible を省いてください")
        word(
            "kSecAttrAccessible conflicts with the access control's protection class",
            "kSecAttrAccessible がアクセス制御の保護クラスと食い違っています")
        word(
            "kSecAttrAccessible is not one of the kSecAttrAccessible… values",
            "kSecAttrAccessible の値が kSecAttrAccessible… "
                + "の定数のどれでもありません")
        word(
            "kSecAttrAccessible: the item is {0}, the query asks for {1}",
            "kSecAttrAccessible: 項目は {0} で、クエリは {1} を求めています")
        word(
            "kSecClass does not match the persistent reference's class",
            "kSecClass が永続参照のクラスと一致しません")
        word("kSecClass is not a string", "kSecClass が文字列ではありません")
        word("kSecMatchLimit is 0", "kSecMatchLimit が 0 です")
        word(
            "no external token provides items (kSecAttrAccessGroupToken)",
            "外部トークンが提供する項目はありません（kSecAttrAccessGroupToken）")
        word("kSecMatchLimit is negative", "kSecMatchLimit が負の数です")
        word("kSecMatchLimit must be One, All or a number", "kSecMatchLimit は One、All、または数値にしてください")
        word(
            "kSecUseAuthenticationContext must be an LAContext",
            "kSecUseAuthenticationContext には LAContext "
                + "を渡してください")
        word(
            "kSecUseAuthenticationUISkip is for searches (SecItemCopyMatching) only",
            "kSecUseAuthenticationUISkip "
                + "は検索（SecItemCopyMatching）専用です")
        word("kSecValueData is larger than {0} bytes", "kSecValueData が {0} バイトを超えています")
        word(
            "kSecValueData must be data (CFData), not {0}",
            "kSecValueData はデータ（CFData）にしてください（{0} は使えません）")
        word(
            "kSecValuePersistentRef is not a persistent reference",
            "kSecValuePersistentRef が永続参照ではありません")
        word("locked", "ロック中")
        word("nearest item ({0}): {1}", "最も近い項目（{0}）: {1}")
        word("no biometry is enrolled to change", "変更する生体情報が登録されていません")
        word(
            "no constraint of the item's access control opens it now (a biometryCurrentSet item cannot be "
                + "read after the enrolled biometry changed)",
            "項目のアクセス制御のどの制約でも今は開けません（biometryCurrentSet の項目は、"
                + "登録済みの生体情報が変わると読み出せません）")
        word(
            "no item of class {0} in the caller's groups matches the query",
            "呼び出し元のグループに、クエリに一致するクラス {0} の項目はありません")
        word(
            "no item of class {0} in the caller's groups matches {1}",
            "呼び出し元のグループに、{1}に一致するクラス {0} の項目はありません")
        word("no item of class {0} matches the delete's query", "削除のクエリに一致するクラス {0} の項目はありません")
        word("no item of class {0} matches the update's query", "更新のクエリに一致するクラス {0} の項目はありません")
        word(
            "no item of this class in the caller's groups shares any of the query's key values",
            "呼び出し元のグループにあるこのクラスの項目で、クエリのキーの値を 1 "
                + "つでも共有するものはありません")
        word("no keychain passcode is set", "キーチェーンのパスコードは設定されていません")
        word("no passcode", "パスコードなし")
        word(
            "passcodeDerivationTarget must be a finite number of seconds from 0 to 60, not {0}",
            "passcodeDerivationTarget は 0 から 60 "
                + "までの有限の秒数にしてください（{0} は使えません）")
        word(
            "synchronizable filter: the item is not synchronizable, and the query asks for "
                + "kSecAttrSynchronizable: true: use kSecAttrSynchronizableAny",
            "同期の条件: 項目は同期しない項目で、クエリは kSecAttrSynchronizable: "
                + "true を求めています。kSecAttrSynchronizableAny を使ってください")
        word(
            "synchronizable filter: the item is synchronizable (sync=true), and a query without "
                + "kSecAttrSynchronizable matches only non-synchronizable items: add kSecAttrSynchronizable: "
                + "kSecAttrSynchronizableAny",
            "同期の条件: 項目は同期する項目（sync=true）で、"
                + "kSecAttrSynchronizable のないクエリは同期しない項目にしか一致しません。"
                + "kSecAttrSynchronizable: kSecAttrSynchronizableAn"
                + "y を加えてください")
        word("the access control has no usable constraint", "アクセス制御に使える制約がありません")
        word("the authentication was canceled", "認証はキャンセルされました")
        word(
            "the backup file is damaged: it asks for {0} KDF iterations, and backups use 1 to {1}",
            "バックアップファイルが壊れています。KDF の反復回数 {0} を求めていますが、バックアップが使うのは 1 から {1} です")
        word("the backup file is truncated", "バックアップファイルが途中で切れています")
        word("the backup file's header is damaged", "バックアップファイルのヘッダが壊れています")
        word("the backup holds a malformed item", "バックアップに形式の正しくない項目があります")
        word("the backup holds an invalid item: {0}", "バックアップに無効な項目があります: {0}")
        word("the backup holds an item of class {0}", "バックアップに、扱えないクラス {0} の項目があります")
        word(
            "the backup holds an item of class {0}, which is never backed up; it is damaged, and nothing was restored",
            "バックアップに、バックアップされることのないクラス {0} の項目があります。バックアップが壊れているため、"
                + "何も復元していません")
        word(
            "the backup holds an item of protection class {0}, which never leaves its device; it is damaged, and "
                + "nothing was restored",
            "バックアップに、デバイスの外に出ることのない保護クラス {0} の項目があります。バックアップが壊れているため、"
                + "何も復元していません")
        word(
            "the backup holds an item with access control (accc), which never leaves its device; it is damaged, and "
                + "nothing was restored",
            "バックアップに、デバイスの外に出ることのないアクセス制御（accc）付きの項目があります。"
                + "バックアップが壊れているため、何も復元していません")
        word(
            "the backup holds an item of a token (tkid), whose key only that token can use; it is damaged, and "
                + "nothing was restored",
            "バックアップに、トークンの項目（tkid）があります。その鍵は元のトークンでしか使えません。"
                + "バックアップが壊れているため、何も復元していません")
        word(
            "the backup holds items of class {0}, which this keychain cannot write in its current lock state: "
                + "unlock it and restore again; nothing was restored",
            "バックアップにクラス {0} の項目がありますが、このキーチェーンは今のロック状態では書き込めません。"
                + "ロックを解除してから復元し直してください。何も復元していません")
        word(
            "the backup holds an item without its group, sync flag or dates",
            "バックアップに、グループ、同期フラグ、日付のいずれかを欠いた項目があります")
        word(
            "the backup is of format {0}, which this version cannot read",
            "バックアップの形式 {0} はこのバージョンでは読めません")
        word("the backup password is not correct", "バックアップのパスワードが正しくありません")
        word("the backup's contents are malformed", "バックアップの内容の形式が正しくありません")
        word(
            "the backup's contents do not authenticate (the file is damaged)",
            "バックアップの内容が認証を通りません（ファイルが壊れています）")
        word(
            "the call names access group \"{0}\", which is not among the caller's groups [{1}]; check that "
                + "\"{2}\" is in the entitlements' keychain-access-groups (with the team prefix), or leave "
                + "kSecAttrAccessGroup out to use \"{3}\"",
            "呼び出しが指定したアクセスグループ \"{0}\" は呼び出し元のグループ [{1}] "
                + "にありません。\"{2}\" がエンタイトルメントの keychain-access-groups "
                + "に（チームのプレフィックス付きで）あるか確かめるか、"
                + "kSecAttrAccessGroup を省いて \"{3}\" を使ってください")
        word("the caller has no keychain access groups", "呼び出し元にキーチェーンのアクセスグループがありません")
        word(
            "kSecAttrAccessGroup is longer than {0} bytes: no app holds such a group",
            "kSecAttrAccessGroup が {0} バイトを超えています。そのようなグループを持つアプリはありません")
        word(
            "no app holds the access group \"{0}\": nothing is written there",
            "アクセスグループ \"{0}\" を持つアプリはありません。そこには何も書き込みません")
        word("the delete's query", "削除のクエリ")
        word(
            "the deprecated Always classes cannot carry access-control constraints ({0})",
            "非推奨の Always のクラスにはアクセス制御の制約を付けられません（{0}）")
        word("the device key file is damaged", "デバイス鍵のファイルが壊れています")
        word("the file is not a keychain backup", "ファイルはキーチェーンのバックアップではありません")
        word("the fingerprint reader cannot be asked: {0}", "指紋リーダーに問い合わせられません: {0}")
        word(
            "the grace period must be from 0 to {0} seconds (one day), not {1}",
            "猶予時間は 0 から {0} 秒（1 日）までにしてください（{1} は使えません）")
        word(
            "the item needs its application password (LAContext.setCredential(_:type: .applicationPassword))",
            "項目にはアプリケーションパスワードが必要です（LAContext.setCredential(_"
                + ":type: .applicationPassword)）")
        word(
            "the item needs user authentication and interaction is not allowed",
            "項目にはユーザ認証が必要ですが、ユーザの操作は許可されていません")
        word(
            "the item needs user authentication, which failed: {0}",
            "項目にはユーザ認証が必要ですが、認証に失敗しました: {0}")
        word(
            "the items to update needed a new authentication each time the update ran again; nothing was changed",
            "更新を実行し直すたびに、更新する項目に新しい認証が必要になりました。何も変更していません")
        word(
            "the dictionary has {0} keys; the keychain reads at most {1}",
            "辞書のキーが {0} 個あります。キーチェーンが読むのは {1} 個までです")
        word("the kernel keyring refused the class keys: {0}", "カーネルのキーリングがクラス鍵を受け付けませんでした: {0}")
        word(
            "the kernel's key quota for this user is full{0}, so the class keys cannot be kept: every "
                + "keychain home unlocked since the machine started holds a keyring of up to 4 keys, and other "
                + "programs use keys too. Keys of deleted keychain homes were given back already. Make room by "
                + "running `KEYCHAIN_HOME=<home> security simulate-restart` for keychain homes not in use, or list "
                + "the keyrings with `keyctl show @u` and drop one (a keychain.<namespace> keyring) with `keyctl "
                + "invalidate <id>`; or raise the limit (as root: `sysctl kernel.keys.maxkeys=<n>`). ({1})",
            "このユーザのカーネルの鍵の割り当てがいっぱいで{0}、クラス鍵を保持できません。"
                + "マシンの起動後にロック解除したキーチェーンのホームはそれぞれ最大 4 個の鍵のキーリングを持ち、"
                + "ほかのプログラムも鍵を使います。削除したキーチェーンのホームの鍵はすでに返却済みです。"
                + "使っていないキーチェーンのホームで `KEYCHAIN_HOME=<home> "
                + "security simulate-restart` を実行して空きを作るか、"
                + "`keyctl show @u` でキーリングを一覧して 1 "
                + "つ（keychain.<namespace> のキーリング）を `keyctl "
                + "invalidate <id>` で捨ててください。"
                + "または上限を上げてください（root で `sysctl "
                + "kernel.keys.maxkeys=<n>`）。（{1}）")
        word(
            "the key's authorization is not one this keychain sealed",
            "鍵の認可情報はこのキーチェーンが封印したものではありません")
        word("the key's authorization is truncated", "鍵の認可情報が途中で切れています")
        word("the keybag does not belong to this device key", "キーバッグはこのデバイス鍵のものではありません")
        word("the keybag file is damaged or of an unknown format", "キーバッグのファイルが壊れているか、不明な形式です")
        word(
            "the keybag file is damaged: its passcode {0} is out of range",
            "キーバッグのファイルが壊れています: パスコードの {0} が範囲外です")
        word("the keybag file is missing", "キーバッグのファイルがありません")
        word(
            "the keybag's key for devicePasscode constraints is damaged; items needing the passcode cannot open",
            "キーバッグの devicePasscode 制約用の鍵が壊れています。パスコードが必要な項目は開けません")
        word(
            "the new passcode is set, but the class keys could not be kept unlocked ({0}); unlock with the new passcode",
            "新しいパスコードは設定されましたが、クラス鍵をロック解除したまま保てませんでした（{0}）。"
                + "新しいパスコードでロック解除してください")
        word("the key store refused them", "鍵ストアが受け付けませんでした")
        word(
            "the keychain's passcode kept changing while the item was being written; nothing was written",
            "項目の書き込み中にキーチェーンのパスコードが変わり続けました。何も書き込んでいません")
        word(
            "the keychain's passcode was changed since it was unlocked here, and its class keys with it; "
                + "unlock it again with the new passcode",
            "ここでロック解除された後にキーチェーンのパスコードが変更され、クラス鍵も新しくなりました。"
                + "新しいパスコードでもう一度ロック解除してください")
        word(
            "the keybag's wrapped class key of {0} is damaged",
            "キーバッグのラップされた {0} のクラス鍵が壊れています")
        word(
            "the keybag file is missing from {0}, but keychain.db holds items that only its class keys open; "
                + "a new keybag would make every one of them unreadable, so none is made: restore the keybag (with "
                + "device.key) from a copy of this keychain home, or move keychain.db away to start an empty "
                + "keychain",
            "{0} にキーバッグのファイルがありませんが、keychain.db "
                + "にはそのクラス鍵でしか開けない項目があります。新しいキーバッグを作るとそれらがすべて読めなくなる"
                + "ため、作っていません。このキーチェーンのホームのコピーからキーバッグを（device.key "
                + "と一緒に）戻すか、keychain.db を別の場所に移して空のキーチェーンから始めてください")
        word("the keybag has no key for class {0}", "キーバッグに保護クラス {0} の鍵がありません")
        word("the keybag's passcode record is damaged", "キーバッグのパスコードの記録が壊れています")
        word(
            "the keychain database is busy: another process has held its write lock for more than {0} s; "
                + "nothing is damaged and nothing was changed, try again",
            "キーチェーンのデータベースが使用中です: ほかのプロセスが {0} "
                + "秒を超えて書き込みロックを持っています。何も壊れておらず、何も変更していないので、"
                + "やり直してください")
        word("the keychain database is damaged", "キーチェーンのデータベースが壊れています")
        word(
            "the keychain is {0}; devicePasscode constraints need it unlocked",
            "キーチェーンは{0}です。devicePasscode の制約にはロック解除が必要です")
        word(
            "the keychain is {0}; items of class {1} ({2}) cannot be used until it is unlocked; {3}",
            "キーチェーンは{0}です。保護クラス {1}（{2}）の項目はロックを解除するまで使えません。"
                + "{3}")
        word("the keychain was closed", "キーチェーンは閉じられています")
        word("the query", "クエリ")
        word("the query names no class (kSecClass)", "クエリにクラス（kSecClass）がありません")
        word("the random generator failed", "乱数生成器が失敗しました")
        word(
            "the update would give an item the primary key of another ({0}); nothing was changed",
            "更新すると項目が別の項目と同じ主キー（{0}）になります。何も変更していません")
        word(
            "the update would give an item the primary key of another ({0}); nothing would be changed",
            "更新すると項目が別の項目と同じ主キー（{0}）になります。何も変更されません")
        word("the update's query", "更新のクエリ")
        word("there is no backup file at {0}", "{0} にバックアップファイルはありません")
        word("too many wrong passcodes; try again in {0} s", "パスコードの誤りが多すぎます。{0} 秒後にやり直してください")
        word("unlocked", "ロック解除中")
        word("wrong passcode ({0} wrong in a row)", "パスコードが違います（{0} 回続けて誤り）")
        word("{0} (defaulted to empty data, which matches an empty string)", "{0}（既定値は空のデータ。空の文字列と一致します）")
        word("{0} (defaulted to {1})", "{0}（既定値 {1}）")
        word(
            "{0} already exists; a backup never replaces a file",
            "{0} はすでにあります。バックアップが既存のファイルを置き換えることはありません")
        word(
            "{0} differs only in case (the item has {1}, the query {2}): set kSecMatchCaseInsensitive or fix "
                + "the case",
            "{0} は大文字と小文字だけが違います（項目は {1}、クエリは {2}）。"
                + "kSecMatchCaseInsensitive を指定するか、大文字と小文字を直してください")
        word("{0} has a value of the wrong type", "{0} の値の型が違います")
        word("{0} is damaged", "{0} が壊れています")
        word("{0} is not a key the keychain knows", "{0} はキーチェーンが知らないキーです")
        word("{0} is larger than {1} bytes", "{0} が {1} バイトを超えています")
        word(
            "{0} is not a date between the years 0 and 9999 ({1} seconds since 2001)",
            "{0} は 0 年から 9999 年までの日付ではありません（2001 年からの {1} 秒）")
        word("{0} is not a property list dictionary", "{0} はプロパティリストの辞書ではありません")
        word(
            "{0} is not an XML property list (a binary one can be converted with `plutil -convert xml1`)",
            "{0} は XML のプロパティリストではありません（バイナリのものは `plutil "
                + "-convert xml1` で変換できます）")
        word(
            "{0} is not an attribute of class {1}; its attributes are {2}",
            "{0} はクラス {1} の属性ではありません。このクラスの属性は {2} です")
        word(
            "{0} is not set on the item (the query asks for {1})",
            "項目に {0} がありません（クエリは {1} を求めています）")
        word("{0} matching item(s) cannot be read now: {1}", "一致した {0} 件の項目は今は読み出せません: {1}")
        word(
            "biometry, companion and passcode constraints need a device passcode, and none is set",
            "生体認証、コンパニオン、パスコードの制約にはデバイスパスコードが必要ですが、設定されていません")
        word(
            "the item's passcode alternatives need the device passcode it was stored under, which was removed, and "
                + "its other alternatives need biometry, and none is enrolled",
            "項目のパスコードの選択肢は保存時のデバイスパスコードを必要としますが、そのパスコードは削除されました。"
                + "ほかの選択肢は生体認証を必要としますが、登録されていません")
        word(
            "matching item {0} needs authentication for its access control: {1}",
            "一致した項目 {0} は、アクセス制御のため認証が必要です: {1}")
        word(
            "{0} matching item(s) of class {1} are damaged and were skipped (UUID {2}{3}); delete them, or "
                + "restore them from a backup",
            "一致したクラス {1} の項目のうち {0} 件が壊れていたため、"
                + "とばしました（UUID {2}{3}）。削除するか、バックアップから復元してください")
        word(
            "{0} matching item(s) were left out because their class is not available: {1}",
            "一致した {0} 件の項目は、クラスが使用できないため除きました: {1}")
        word("{0} more nearby item(s) not shown", "ほかに近い項目が {0} 件あります（表示していません）")
        word(
            "{0} nearby item(s) could not be examined: their protection class is not available now (the "
                + "keychain is {1})",
            "近い項目のうち {0} 件は調べられませんでした: "
                + "保護クラスが今は使用できません（キーチェーンは{1}です）")
        word("{0} value differs (the item has {1}, the query {2})", "{0} の値が違います（項目は {1}、クエリは {2}）")
        word("the user could not be authenticated", "ユーザを認証できませんでした")
        word("the user canceled", "ユーザがキャンセルしました")
        word("the user chose the fallback", "ユーザが代わりの認証方法を選びました")
        word(
            "the software enclave key was altered or sealed in another keychain home",
            "ソフトウェアエンクレーブの鍵が改ざんされたか、別のキーチェーンホームで封印されています")
        word("the system canceled", "システムがキャンセルしました")
        word("no biometry is available", "使える生体認証がありません")
        word("no biometry is enrolled", "生体情報が登録されていません")
        word("biometry is locked out after too many failed attempts", "失敗が続いたため生体認証がロックされています")
        word("the app canceled", "アプリがキャンセルしました")
        word("the context was invalidated", "コンテキストは無効になっています")
        word("no companion device is available", "使えるコンパニオンデバイスがありません")
        word("interaction is not allowed", "ユーザの操作は許可されていません")
        word(
            "Secure Enclave key requests are served by keychaind; a process with its own keychain uses its keys itself",
            "Secure Enclave の鍵の要求は keychaind が処理します。自分のキーチェーンを持つプロセスは鍵を自分で使います")
        word(
            "keychaind speaks protocol {0}, and this request needs protocol {1}: restart keychaind with this release",
            "keychaind のプロトコルは {0} ですが、この要求にはプロトコル {1} が必要です。"
                + "このリリースの keychaind を起動し直してください")
        word(
            "this keychaind does not serve request kind {0}: the client is newer; restart keychaind with its release",
            "この keychaind は要求の種類 {0} に対応していません。クライアントの方が新しいので、"
                + "そのリリースの keychaind を起動し直してください")
        word("not a lock-state or backup request", "ロック状態やバックアップの要求ではありません")
        word("not an authentication-context request", "認証コンテキストの要求ではありません")
        word("not an authenticator request", "認証器の要求ではありません")
        word(
            "the keychain service answered {0} with another kind",
            "キーチェーンサービスが {0} に別の種類の応答を返しました")
        word("the random source gave a short id", "乱数源が返した ID が短すぎます")
        word(
            "the request names an authentication context this keychain does not know (it was never created "
                + "here, or it was forgotten)",
            "要求が指定した認証コンテキストをこのキーチェーンは知りません（ここで作られたものではないか、"
                + "すでに破棄されています）")
        word("the request names no authentication context", "要求に認証コンテキストの指定がありません")
        word("an update", "更新")
        word("an add", "追加")
        word("key", "鍵")
        word("certificate", "証明書")
        word("secret", "秘密データ")
        word("{0}; {1}", "{0}。{1}")
        word("{0}, {1}", "{0}、{1}")
        word(
            "KEYCHAIN_ENTITLEMENTS confines this command to the groups {0}; --entitlements {1} asks for {2}, "
                + "which it does not grant",
            "KEYCHAIN_ENTITLEMENTS はこのコマンドをグループ {0} に限っています。"
                + "--entitlements {1} は {2} を求めていますが、それは許可されていません")
        word(
            "name the function: security doctor add|copy|update|delete, or \"function\" in the JSON",
            "関数を指定してください: security doctor "
                + "add|copy|update|delete、または JSON の \"function\"")
        // The administrator's Secure Enclave setting, when it is ignored.
        word("{0} cannot be examined", "{0} を調べられません")
        word("{0} cannot be read", "{0} を読み出せません")
        word("{0} cannot be read: {1}", "{0} を読み出せません: {1}")
        word("{0} holds more than one word", "{0} に複数の語が書かれています")
        word("{0} is a symbolic link", "{0} はシンボリックリンクです")
        word(
            "{0} names an unknown enclave (\"software\" or \"none\" are known)",
            "{0} に書かれたエンクレーブは不明です（使えるのは \"software\" と \"none\" です）")
        word("{0} names no enclave", "{0} にエンクレーブが書かれていません")
        // Keys and certificates as items.
        word(
            "{0} of class {1} with a {2} value: the class holds {3}; nothing was changed",
            "クラス {1} の{0}に{2}の値が渡されました。このクラスが保持するのは{3}です。何も変更していません")
        word("secret data (kSecValueData)", "秘密データ（kSecValueData）")
        word("a key (kSecValueRef with a SecKey)", "鍵（SecKey を渡した kSecValueRef）")
        word(
            "a certificate (kSecValueRef with a SecCertificate, or its DER as kSecValueData)",
            "証明書（SecCertificate を渡した kSecValueRef、または kSecValueData に渡した DER）")
        word("a certificate item needs {0}, which the certificate's DER gives", "証明書の項目には {0} が必要で、それは証明書の DER から得られます")
        word("a key item lacks its type, class or size (the row is damaged)", "鍵の項目に種類・クラス・サイズのいずれかがありません（行が壊れています）")
        word(
            "an item of class {0} needs its value (kSecValueRef); none was given",
            "クラス {0} の項目には値（kSecValueRef）が必要ですが、渡されていません")
        word(
            "an update cannot replace the value of a {0} item yet: delete it and add the new one; nothing was changed",
            "{0} の項目の値は、まだ更新では置き換えられません。削除してから新しいものを追加してください。"
                + "何も変更していません")
        word("kSecValueData is not one DER-encoded X.509 certificate", "kSecValueData が DER 形式の X.509 証明書 1 つではありません")
        word(
            "kSecValueRef must be a SecKey, a SecCertificate or a SecIdentity, not {0}",
            "kSecValueRef には {0} ではなく SecKey、SecCertificate または SecIdentity を渡してください")
        word("the certificate's subject or issuer name cannot be normalized", "証明書のサブジェクト名または発行者名を正規化できません")
        word("the key could not be exported for the keychain", "キーチェーンに保存するために鍵を書き出せませんでした")
        word("the key's type or class is not a number", "鍵の種類またはクラスが数値ではありません")
        word(
            "{0} describes the item's {1} value and cannot be changed by an update",
            "{0} は項目の{1}の値を表すもので、更新では変更できません")
        // keychaind and the messages between it and its clients.
        word("keychaind at {0} is not available: {1}", "{0} の keychaind を使用できません: {1}")
        word("keychaind at {0} is not trusted: {1}", "{0} の keychaind は信頼できません: {1}")
        word(
            "an application password is at most {0} bytes, not {1}",
            "アプリケーションパスワードは {0} バイトまでです（{1} バイトあります）")
        word(
            "a localizedReason is at most {0} bytes, not {1}",
            "localizedReason は {0} バイトまでです（{1} バイトあります）")
        word("keychaind answered a backup with something else", "keychaind がバックアップに別の応答を返しました")
        word(
            "the answer is {0} bytes, more than a client of protocol 1 takes ({1} bytes); narrow the query, or use a "
                + "client of protocol 2, which takes answers in parts",
            "応答が {0} バイトあり、プロトコル 1 のクライアントが受け取れる大きさ（{1} バイト）を超えています。"
                + "検索条件を絞り込むか、応答を分割して受け取れるプロトコル 2 のクライアントを使ってください")
        word(
            "the answer is {0} bytes, and keychaind holds as much as it keeps for answers still being read (this "
                + "user's others, or every user's); try again once they are read, or narrow the query",
            "応答が {0} バイトあり、keychaind が読み出し中の応答のために保持できる量（この利用者のほかの応答、"
                + "またはすべての利用者の応答）に達しています。それらが読み出されてから再試行するか、検索条件を絞り込んでください")
        word(
            "the answer is {0} bytes, over keychaind's limit of {1} bytes for one answer; narrow the query (by "
                + "service, account or access group)",
            "応答が {0} バイトあり、keychaind の 1 回の応答の上限（{1} バイト）を超えています。"
                + "検索条件を（サービス、アカウント、アクセスグループで）絞り込んでください")
        word(
            "the answer is {0} bytes, over this process's limit of {1} bytes for one answer",
            "応答が {0} バイトあり、このプロセスが 1 回の応答として受け取れる上限（{1} バイト）を超えています")
        word(
            "the request is {0} bytes, over keychaind's limit of {1} bytes for one message",
            "要求が {0} バイトあり、keychaind の 1 メッセージの上限（{1} バイト）を超えています")
        word("the keychain service failed ({0})", "キーチェーンサービスが失敗しました（{0}）")
        word("a text field of the message is not UTF-8", "メッセージのテキスト欄が UTF-8 ではありません")
        word(
            "a value of the request is over 4 GiB, more than a message can carry",
            "要求の値が 4 GiB を超えていて、メッセージで運べる大きさを超えています")
        word("the message carries a persistent reference of the wrong form", "メッセージに含まれる永続参照の形式が正しくありません")
        word("the message carries an unknown LAError code {0}", "メッセージに不明な LAError コード {0} が含まれています")
        word("the message has {0} bytes after its end", "メッセージの終わりのあとに {0} バイトあります")
        word(
            "the message holds a date that is not between the years 0 and 9999 ({0} seconds since 2001)",
            "メッセージに 0 年から 9999 年までの範囲にない日付があります（2001 年からの {0} 秒）")
        word("the message has {0} of unknown value {1}", "メッセージの{0}が不明な値 {1} です")
        word("the message is shorter than its fields say", "メッセージがその欄の示す長さより短くなっています")
        word("the message names an authentication context of the wrong size", "メッセージが指す認証コンテキストの大きさが正しくありません")
        word("the message names an unknown {0} ({1} characters)", "メッセージが不明な{0}（{1} 文字）を指しています")
        word("the message names the attribute {0} twice", "メッセージが属性 {0} を 2 回指定しています")
        word("no memory can be mapped for the class keys", "クラスキーを置くメモリを割り当てられません")
        word("the message carries a reason whose parts do not fit together", "メッセージの理由の各部分がかみ合っていません")
        word("the message carries a reason without text", "メッセージに本文のない理由が含まれています")
        word("the message nests reasons deeper than {0}", "メッセージの理由の入れ子が {0} 段を超えています")
        // Identities (kSecClassIdentity, SecIdentity).
        word("identity", "ID（証明書と秘密鍵の組）")
        word("an identity (kSecValueRef with a SecIdentity)", "ID（kSecValueRef に SecIdentity）")
        word("an identity is joined from two items, never read as one", "ID は 2 つの項目を結び付けたもので、1 つの項目としては読み出せません")
        word(
            "an item of class {0} is added alone (add), not among others",
            "クラス {0} の項目はほかの項目とまとめてではなく、単独で（add で）追加してください")
        word(
            "dry runs of {0} items are not supported yet; run the operation itself",
            "{0} の項目の予行はまだ対応していません。操作そのものを実行してください")
        word(
            "keychainOrArray must be nil: this keychain searches the caller's access groups, not keychain files",
            "keychainOrArray は nil にしてください。このキーチェーンはキーチェーンファイルではなく呼び出し元のアクセスグループを検索します")
        word("the certificate's private key item does not hold a key", "証明書の秘密鍵の項目に鍵が入っていません")
        word("the certificate's public key is not an EC or RSA key", "証明書の公開鍵が EC 鍵でも RSA 鍵でもありません")
        word(
            "the identity's key is not the private key of its certificate (its {0} is not the certificate's {1}); "
                + "nothing was added",
            "ID の鍵がその証明書の秘密鍵ではありません（鍵の {0} が証明書の {1} と異なります）。何も追加していません")
        word(
            "the {0} is in the keychain already: both its certificate ({1}) and its private key are there",
            "{0} はすでにキーチェーンにあります。証明書（{1}）と秘密鍵の両方が保存されています")
        word(
            "{0} item(s) of class {1} match, but none has a private key item ({2} with {3} equal to its {4}) in the "
                + "caller's groups that matches too",
            "クラス {1} の項目が {0} 件一致しましたが、呼び出し元のグループに一致する秘密鍵の項目（{3} がその {4} と等しい {2}）を"
                + "持つものはありません")
        word(
            "{0} item(s) of class {1} match, but their private key needs authentication, which "
                + "kSecUseAuthenticationUISkip skips",
            "クラス {1} の項目が {0} 件一致しましたが、その秘密鍵には認証が必要で、kSecUseAuthenticationUISkip により飛ばしました")
        word(
            "{0} matching item(s) are damaged and were skipped; delete them, or restore them from a backup",
            "一致した {0} 件の項目が壊れているため飛ばしました。削除するか、バックアップから復元してください")
        word(
            "a key of a token (kSecAttrTokenID) is bound to this device and cannot be synchronizable",
            "トークンの鍵（kSecAttrTokenID）はこのデバイスに結び付いていて、同期する項目にはできません")
        return entries
    }()
}
