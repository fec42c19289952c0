/// The Japanese wording of the reasons the Security face and the `security` command write themselves (the
/// engine's are in `japaneseEntries`), by English template: this project's own translations.
extension ReasonMessages {
    static let japaneseFaceEntries: [(english: String, japanese: String)] = {
        var entries: [(english: String, japanese: String)] = []
        func word(_ english: String, _ japanese: String) { entries.append((english, japanese)) }
        // The SecItem functions: keys a function does not take, and the property groups it does.
        word("{0}; {1}; {2}", "{0}。{1}。{2}")
        word("SecItemUpdate's query", "SecItemUpdate のクエリ")
        word("SecItemUpdate's attributesToUpdate", "SecItemUpdate の attributesToUpdate")
        word("{0} takes {1} properties", "{0} が受け付けるのは {1} のプロパティです")
        word("{0} does not take {1} properties ({2})", "{0} は {1} のプロパティを受け付けません（{2}）")
        word("item class (kSecClass)", "項目クラス（kSecClass）")
        word("attribute (kSecAttr…)", "属性（kSecAttr…）")
        word("search (kSecMatch…)", "検索（kSecMatch…）")
        word("return type (kSecReturn…)", "戻り値の型（kSecReturn…）")
        word("value (kSecValue…)", "値（kSecValue…）")
        word("an add cannot name an existing item", "追加で既存の項目を指定することはできません")
        word("kSecClass is missing", "kSecClass がありません")
        word(
            "kSecUseAuthenticationUISkip is for SecItemCopyMatching only",
            "kSecUseAuthenticationUISkip を使えるのは SecItemCopyMatching だけです")
        word(
            "iOS refuses every search key but kSecMatchLimit here, and changes nothing",
            "iOS はここで kSecMatchLimit 以外の検索キーをすべて拒否し、何も変更しません")
        word(
            "iOS refuses attributes beside kSecValuePersistentRef, which names the item alone",
            "iOS は kSecValuePersistentRef と並べた属性を拒否します。参照だけで項目が決まるためです")
        word(
            "kSecAttrSynchronizable is the string \"{0}\": iOS stores such a string as a third value of the flag, "
                + "which only a query with the same string finds",
            "kSecAttrSynchronizable が文字列 \"{0}\" です。iOS はこのような文字列をフラグの第三の値として保存し、"
                + "同じ文字列を指定したクエリでしか見つかりません")
        word(
            "kSecAttrIssuer must be data (CFData), not {0}",
            "kSecAttrIssuer はデータ（CFData）にしてください（{0} は使えません）")
        word("an update cannot change an item's class", "更新で項目のクラスを変えることはできません")
        word("of the values, only kSecValueData", "値のうち受け付けるのは kSecValueData だけです")
        word(
            "a kSecValueRef stands for its item's attributes, kSecClass among them, which an update cannot change",
            "kSecValueRef はその項目の属性（kSecClass を含む）を表し、更新ではそれらを変更できません")
        // What KEYCHAIN_DEBUG notes about a SecItem call that goes ahead.
        word(
            "kSecAttrSynchronizableAny in an add is ignored, as by the iOS keychain: the item is not synchronizable",
            "追加での kSecAttrSynchronizableAny は iOS のキーチェーンと同じく無視します。項目は同期しない項目になります")
        word(
            "kSecAttrSynchronizableAny in attributesToUpdate is ignored, as by the iOS keychain: each item stays "
                + "synchronizable or not",
            "attributesToUpdate の kSecAttrSynchronizableAny は iOS のキーチェーンと同じく無視します。"
                + "各項目の同期の有無は変わりません")
        word(
            "kSecValueData in the query is ignored: a query never matches on an item's data",
            "クエリの kSecValueData は無視します: 検索は項目のデータでは照合しません")
        word(
            "{0} is ignored, as by the iOS keychain: strings match exactly",
            "{0} は iOS のキーチェーンと同じく無視します: 文字列は完全に一致するものだけを照合します")
        word(
            "kSecAttrSynchronizable with the ThisDeviceOnly ({0}) class: stored as iOS stores it, but Apple's "
                + "documentation rules the combination out, and the item never leaves this machine",
            "kSecAttrSynchronizable と ThisDeviceOnly の保護クラス（{0}）の組み合わせです: iOS と同じく保存しますが、"
                + "Apple のドキュメントはこの組み合わせを認めておらず、項目がこのマシンの外に出ることはありません")
        // The certificate search keys of SecItemCopyMatching.
        word(
            "kSecMatchValidOnDate must be a date or kCFNull (now), not {0}",
            "kSecMatchValidOnDate には日付か kCFNull（現在）を指定してください（{0} が指定されました）")
        word(
            "kSecMatchValidOnDate is not a date between the years 0 and 9999",
            "kSecMatchValidOnDate は 0 年から 9999 年までの日付ではありません")
        word(
            "kSecMatchPolicy must be one SecPolicy, not {0}",
            "kSecMatchPolicy には SecPolicy を 1 つ指定してください（{0} が指定されました）")
        word("{0} must be a string, not {1}", "{0} には文字列を指定してください（{1} が指定されました）")
        word(
            "kSecMatchIssuers must be an array of DER-encoded distinguished names",
            "kSecMatchIssuers には DER 形式の識別名（distinguished name）の配列を指定してください")
        word(
            "kSecMatchIssuers is an empty array: no issuer could match",
            "kSecMatchIssuers が空の配列です: 一致しうる発行者がありません")
        word(
            "kSecMatchItemList must be an array of SecCertificate, SecIdentity, SecKey or persistent references",
            "kSecMatchItemList には SecCertificate、SecIdentity、SecKey、永続参照の配列を指定してください")
        word(
            "{0} names macOS file keychains or their items; this keychain has none, as on iOS",
            "{0} は macOS のファイル型キーチェーンやその項目を指定するキーです。iOS と同じく、"
                + "このキーチェーンにはありません")
        word(
            "{0} applies only to certificates and identities, not to class {1}",
            "{0} は証明書とアイデンティティにだけ使えます。クラス {1} には使えません")
        word(
            "m_HostOrSubdomainOfHost applies only to internet passwords (inet), not to class {0}",
            "m_HostOrSubdomainOfHost はインターネットパスワード（inet）にだけ使えます。クラス {0} には使えません")
        word(
            "{0} item(s) of class {1} match the query's attributes, but none passes {2}",
            "クラス {1} の {0} 件の項目がクエリの属性に一致しましたが、{2} の条件を満たすものはありません")
        word(
            "a dry run does not apply {0} and the other certificate search keys; SecItemCopyMatching does",
            "ドライランでは {0} などの証明書の検索キーを適用しません。適用するのは SecItemCopyMatching です")
        word(
            "the certificate search keys filter only what SecItemCopyMatching returns",
            "証明書の検索キーで絞り込めるのは SecItemCopyMatching の結果だけです")
        // SecAccessControl and PKCS #12.
        word("the protection is not a kSecAttrAccessible value", "保護クラスが kSecAttrAccessible の値ではありません")
        word(
            "the flags combine .biometryAny and .biometryCurrentSet; one may be set",
            "フラグが .biometryAny と .biometryCurrentSet を組み合わせています。設定できるのはどちらか一つです")
        word(
            ".userPresence combines only with .applicationPassword and .privateKeyUsage",
            ".userPresence と組み合わせられるのは .applicationPassword と .privateKeyUsage だけです")
        word("the flags combine .or and .and", "フラグに .or と .and が両方含まれています")
        word(
            "a PKCS#12 file holds private keys, not public ones",
            "PKCS#12 ファイルに入れられるのは秘密鍵で、公開鍵は入れられません")
        word("the private key does not parse", "秘密鍵を解析できません")
        // The `security` command: certificate and key files.
        word("{0} holds no certificate (PEM or DER)", "{0} には証明書（PEM または DER）がありません")
        word("it cannot be read", "読み取れません")
        word("cannot read {0}: {1}", "{0} を読み取れません: {1}")
        word("cannot create {0}: {1}", "{0} を作成できません: {1}")
        word("cannot write {0}", "{0} に書き込めません")
        word(
            "{0} private keys: a PKCS#12 file written here holds one identity; delete or export the others apart",
            "秘密鍵が {0} 個あります。ここで書き出す PKCS#12 ファイルに入るアイデンティティは 1 つだけです。"
                + "ほかの鍵は削除するか、別に書き出してください")
        word(
            "the private key has no certificate in the keychain; export it with -f pemseq",
            "この秘密鍵の証明書がキーチェーンにありません。-f pemseq で書き出してください")
        word("no key", "鍵を作成できませんでした")
        word(
            "{0} certificates match; name one by its hash with -Z (find-certificate -Z prints them)",
            "一致する証明書が {0} 件あります。-Z でハッシュを指定して 1 つにしてください"
                + "（ハッシュは find-certificate -Z で表示できます）")
        word("the trust could not be created", "信頼オブジェクト（SecTrust）を作成できませんでした")
        word(
            "{0} blocks are not read here; convert the key with `openssl pkcs8 -topk8 -nocrypt`, or import a "
                + "PKCS#12 file",
            "{0} ブロックはここでは読み込めません。`openssl pkcs8 -topk8 -nocrypt` で鍵を変換するか、"
                + "PKCS#12 ファイルを読み込んでください")
        word("a CERTIFICATE block of {0} does not parse", "{0} の CERTIFICATE ブロックを解析できません")
        word(
            "the PRIVATE KEY of {0} is not RSA or EC P-256/384/521",
            "{0} の PRIVATE KEY は RSA でも EC P-256/384/521 でもありません")
        word("the RSA PRIVATE KEY of {0} does not parse", "{0} の RSA PRIVATE KEY を解析できません")
        word("{0} holds no certificate or key", "{0} には証明書も鍵もありません")
        word("the PKCS#12 file's key has no certificate", "PKCS#12 ファイルの鍵に証明書がありません")
        word("the PKCS#12 file is empty", "PKCS#12 ファイルが空です")
        word("everything in {0} is already in the keychain", "{0} の中身はすべてキーチェーンにすでにあります")
        word("SecItemAdd returned no persistent reference", "SecItemAdd が永続参照を返しませんでした")
        word("the item has no persistent reference", "項目に永続参照がありません")
        // The `security` command: identity, backups and doctor.
        word(
            "{0} {1}, and KEYCHAIN_ENTITLEMENTS confines this command to its identity's groups; run it without "
                + "KEYCHAIN_ENTITLEMENTS",
            "{0} は{1}ため、KEYCHAIN_ENTITLEMENTS でアイデンティティのグループに限られたこのコマンドでは"
                + "実行できません。KEYCHAIN_ENTITLEMENTS を外して実行してください")
        word(
            "{0} {1} for the keychain's owner, and {2} would make it act as an app; run it without -G and "
                + "--entitlements",
            "{0} はキーチェーンの所有者として{1}コマンドですが、{2} はアプリとして実行させます。"
                + "-G と --entitlements を外して実行してください")
        word("reads the items of every access group", "すべてのアクセスグループの項目を読む")
        word("writes items into every access group", "すべてのアクセスグループに項目を書き込む")
        word("the input is not a JSON object", "入力が JSON オブジェクトではありません")
        word(
            "\"function\": \"{0}\" is not add, copy, update or delete",
            "\"function\": \"{0}\" は add、copy、update、delete のどれでもありません")
        return entries
    }()
}
