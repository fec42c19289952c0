import KeychainStore

/// Every schema the keychain database has had, as append-only steps of frozen SQL. A new table or column is a
/// new step at the end; a shipped step is never edited, so a home written by any earlier release migrates
/// (`SchemaHistoryTests` opens one written by each). `ItemTables` names the columns the engine reads and
/// writes; a test checks they exist after the last step.
enum SchemaHistory {
    static let migrations: [Migration] = [
        Migration(version: 1, identifier: "v1 generic and internet password tables", sql: v1PasswordTables),
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
}
