import KeychainStore

/// Every schema the keychain database has had, as append-only steps of frozen SQL. A new table or column is a
/// new step at the end; a shipped step is never edited, so a home written by any earlier release migrates
/// (`SchemaHistoryTests` opens one written by each). `ItemTables` names the columns the engine reads and
/// writes; a test checks they exist after the last step.
enum SchemaHistory {
    static let migrations: [Migration] = [
        Migration(version: 1, identifier: "v1 generic and internet password tables", sql: v1PasswordTables),
        Migration(version: 2, identifier: "v2 key and certificate tables", sql: v2KeyAndCertificateTables),
        Migration(version: 3, identifier: "v3 token ID of keys", sql: v3KeyTokenID),
        Migration(version: 4, identifier: "v4 alias of passwords", sql: v4PasswordAlias),
    ]

    /// The first release: one table per password class, keyed digests of each searchable attribute.
    static let v1PasswordTables = """
        CREATE TABLE genp (
            rowid INTEGER PRIMARY KEY,
            uuid BLOB NOT NULL UNIQUE,
            pkey BLOB NOT NULL UNIQUE,
            pdmn TEXT NOT NULL,
            version INTEGER NOT NULL,
            wrappedkey BLOB NOT NULL,
            meta BLOB NOT NULL,
            secret BLOB NOT NULL,
            d_agrp BLOB, d_sync BLOB, d_acct BLOB, f_acct BLOB, d_crtr BLOB, d_desc BLOB, f_desc BLOB, d_gena BLOB,
            d_icmt BLOB, f_icmt BLOB, d_invi BLOB, d_labl BLOB, f_labl BLOB, d_nega BLOB, d_svce BLOB, f_svce BLOB,
            d_type BLOB);
        CREATE INDEX genp_d_svce_d_acct ON genp (d_svce, d_acct);
        CREATE INDEX genp_d_acct ON genp (d_acct);
        CREATE TABLE inet (
            rowid INTEGER PRIMARY KEY,
            uuid BLOB NOT NULL UNIQUE,
            pkey BLOB NOT NULL UNIQUE,
            pdmn TEXT NOT NULL,
            version INTEGER NOT NULL,
            wrappedkey BLOB NOT NULL,
            meta BLOB NOT NULL,
            secret BLOB NOT NULL,
            d_agrp BLOB, d_sync BLOB, d_acct BLOB, f_acct BLOB, d_atyp BLOB, f_atyp BLOB, d_crtr BLOB, d_desc BLOB,
            f_desc BLOB, d_icmt BLOB, f_icmt BLOB, d_invi BLOB, d_labl BLOB, f_labl BLOB, d_nega BLOB, d_path BLOB,
            f_path BLOB, d_port BLOB, d_ptcl BLOB, f_ptcl BLOB, d_sdmn BLOB, f_sdmn BLOB, d_srvr BLOB, f_srvr BLOB,
            d_type BLOB);
        CREATE INDEX inet_d_srvr_d_acct ON inet (d_srvr, d_acct);
        CREATE INDEX inet_d_acct ON inet (d_acct);
        """

    /// Key and certificate items: the same row shape as the passwords, with a digest column per attribute of
    /// `Classes/Key.swift` and `Classes/Certificate.swift`. Keys are looked up by application tag or label,
    /// certificates by issuer and serial or by public-key hash (an identity's join).
    static let v2KeyAndCertificateTables = """
        CREATE TABLE keys (
            rowid INTEGER PRIMARY KEY,
            uuid BLOB NOT NULL UNIQUE,
            pkey BLOB NOT NULL UNIQUE,
            pdmn TEXT NOT NULL,
            version INTEGER NOT NULL,
            wrappedkey BLOB NOT NULL,
            meta BLOB NOT NULL,
            secret BLOB NOT NULL,
            d_agrp BLOB, d_sync BLOB, d_alis BLOB, f_alis BLOB, d_asen BLOB, d_atag BLOB, f_atag BLOB, d_bsiz BLOB,
            d_crtr BLOB, d_decr BLOB, d_drve BLOB, d_encr BLOB, d_esiz BLOB, d_extr BLOB, d_kcls BLOB, d_klbl BLOB,
            d_labl BLOB, f_labl BLOB, d_modi BLOB, d_next BLOB, d_perm BLOB, d_priv BLOB, d_sens BLOB, d_sign BLOB,
            d_snrc BLOB, d_type BLOB, d_unwp BLOB, d_vrfy BLOB, d_vyrc BLOB, d_wrap BLOB);
        CREATE INDEX keys_d_atag ON keys (d_atag);
        CREATE INDEX keys_d_klbl ON keys (d_klbl);
        CREATE TABLE cert (
            rowid INTEGER PRIMARY KEY,
            uuid BLOB NOT NULL UNIQUE,
            pkey BLOB NOT NULL UNIQUE,
            pdmn TEXT NOT NULL,
            version INTEGER NOT NULL,
            wrappedkey BLOB NOT NULL,
            meta BLOB NOT NULL,
            secret BLOB NOT NULL,
            d_agrp BLOB, d_sync BLOB, d_alis BLOB, f_alis BLOB, d_cenc BLOB, d_ctyp BLOB, d_issr BLOB, d_labl BLOB,
            f_labl BLOB, d_pkhh BLOB, d_skid BLOB, d_slnr BLOB, d_subj BLOB);
        CREATE INDEX cert_d_pkhh ON cert (d_pkhh);
        CREATE INDEX cert_d_issr_d_slnr ON cert (d_issr, d_slnr);
        """

    /// The token of a key item (`tkid`, `kSecAttrTokenID`: the Secure Enclave's keys), searchable like the key's
    /// other attributes. Rows written before this step have none (NULL digests), as their keys had none.
    static let v3KeyTokenID = """
        ALTER TABLE keys ADD COLUMN d_tkid BLOB;
        ALTER TABLE keys ADD COLUMN f_tkid BLOB;
        """

    /// The alias of both password classes (`alis`, `kSecAttrAlias`: Apple's genp and inet tables have it). Rows
    /// written before this step have none (NULL digests), as their items had none.
    static let v4PasswordAlias = """
        ALTER TABLE genp ADD COLUMN d_alis BLOB;
        ALTER TABLE genp ADD COLUMN f_alis BLOB;
        ALTER TABLE inet ADD COLUMN d_alis BLOB;
        ALTER TABLE inet ADD COLUMN f_alis BLOB;
        """
}
