import Synchronization

@_implementationOnly import CTSS2

/// One ESAPI connection to a TPM 2.0 with its storage primary key loaded. ESAPI contexts are not thread-safe:
/// every operation runs under the connection's mutex.
package final class TPMConnection: Sendable {
    /// The TCTI configuration this connection was made with ("device:/dev/tpmrm0", "swtpm:host=…,port=…").
    package let tcti: String
    /// How long a call waits for the TPM.
    package let timeouts: TPMTimeouts
    private let state: Mutex<State>

    private struct State: ~Copyable {
        let tctiContext: OpaquePointer
        let context: OpaquePointer
        let primary: UInt32  // an ESYS_TR: the lockout-exempt primary, every new key's parent
        /// The primary of keys made before the exemption, created at the first use of such a key.
        var legacyPrimary: UInt32?

        deinit {
            var context: OpaquePointer? = self.context
            _ = Esys_FlushContext(context, primary)
            if let legacyPrimary { _ = Esys_FlushContext(context, legacyPrimary) }
            Esys_Finalize(&context)
            var tcti: OpaquePointer? = tctiContext
            Tss2_TctiLdr_Finalize(&tcti)
        }
    }

    /// Connects and creates the storage primary key.
    /// - Throws: `TPMError.unavailable` when nothing answers, `.tpm` when the TPM refuses the primary key.
    package init(tcti: String, timeouts: TPMTimeouts = .configured()) throws(TPMError) {
        self.tcti = tcti
        self.timeouts = timeouts
        var tctiContext: OpaquePointer? = nil
        guard Tss2_TctiLdr_Initialize(tcti, &tctiContext) == 0, let tctiContext else {
            throw .unavailable(tcti: tcti)
        }
        var context: OpaquePointer? = nil
        guard Esys_Initialize(&context, tctiContext, nil) == 0, let context else {
            var tcti: OpaquePointer? = tctiContext
            Tss2_TctiLdr_Finalize(&tcti)
            throw .unavailable(tcti: self.tcti)
        }
        let primary: ESYS_TR
        do {
            primary = try Self.createPrimary(context, .lockoutExempt)
        } catch {
            var finalized: OpaquePointer? = context
            Esys_Finalize(&finalized)
            var tcti: OpaquePointer? = tctiContext
            Tss2_TctiLdr_Finalize(&tcti)
            throw error
        }
        state = Mutex(State(tctiContext: tctiContext, context: context, primary: primary))
    }

    /// Creates (re-creates: the owner seed and the template determine it) the storage primary key `kind`.
    private static func createPrimary(_ context: OpaquePointer, _ kind: TPMPrimary) throws(TPMError) -> ESYS_TR {
        var template = TPM2B_PUBLIC()
        kchtpm_primary_template(&template, kind == .lockoutExempt ? 1 : 0)
        var sensitive = TPM2B_SENSITIVE_CREATE()
        var outside = TPM2B_DATA()
        var pcrs = TPML_PCR_SELECTION()
        var primary: ESYS_TR = 0
        let rc = Esys_CreatePrimary(
            context, ESYS_TR(ESYS_TR_RH_OWNER), ESYS_TR(ESYS_TR_PASSWORD), ESYS_TR(ESYS_TR_NONE),
            ESYS_TR(ESYS_TR_NONE), &sensitive, &template, &outside, &pcrs, &primary, nil, nil, nil, nil)
        guard rc == 0 else { throw .tpm(operation: "CreatePrimary", code: rc) }
        return primary
    }

    /// The handle of the primary `kind`, creating the legacy one at its first use.
    private static func primary(_ kind: TPMPrimary, in state: inout State) throws(TPMError) -> ESYS_TR {
        switch kind {
        case .lockoutExempt: return state.primary
        case .legacy:
            if let legacy = state.legacyPrimary { return legacy }
            let legacy = try createPrimary(state.context, .legacy)
            state.legacyPrimary = legacy
            return legacy
        }
    }

    /// The longest authorization value a key takes (the size of its name algorithm's digest, SHA-256).
    package static let maximumAuthorizationSize = 32

    /// Creates a P-256 key inside the TPM under the primary key.
    /// - Parameter authorization: the key's auth value (empty: none), which every later use must present.
    /// - Returns: the key's blob (its public area and its private area wrapped by the TPM) and its public point.
    package func createKey(signing: Bool, authorization: [UInt8] = []) throws(TPMError) -> TPMKeyBlob {
        try createKey(use: signing ? .signing : .keyAgreement, authorization: authorization)
    }

    /// Creates a P-256 key for `use` inside the TPM under the primary key.
    /// - Parameter authorization: the key's auth value (empty: none), which every later use must present.
    /// - Parameter parent: the primary key to make it under; only tests make keys under the legacy one, as older
    ///   releases did.
    package func createKey(use: TPMKeyUse, authorization: [UInt8] = [], parent: TPMPrimary = .lockoutExempt)
        throws(TPMError) -> TPMKeyBlob
    {
        guard authorization.count <= Self.maximumAuthorizationSize else { throw .invalidKeyBlob }
        return try state.withLock { (state: inout State) throws(TPMError) -> TPMKeyBlob in
            let parentHandle = try Self.primary(parent, in: &state)
            var template = TPM2B_PUBLIC()
            kchtpm_key_template(&template, Int32(use.rawValue))
            var sensitive = TPM2B_SENSITIVE_CREATE()
            sensitive.sensitive.userAuth.size = UInt16(authorization.count)
            withUnsafeMutableBytes(of: &sensitive.sensitive.userAuth.buffer) { $0.copyBytes(from: authorization) }
            defer { Self.wipe(&sensitive) }
            var outside = TPM2B_DATA()
            var pcrs = TPML_PCR_SELECTION()
            var outPrivate: UnsafeMutablePointer<TPM2B_PRIVATE>? = nil
            var outPublic: UnsafeMutablePointer<TPM2B_PUBLIC>? = nil
            // inSensitive (the auth value) is Create's first parameter: a session salted with the primary key
            // encrypts it, so that only the TPM holding the primary's private key reads it.
            let session = try Self.startEncryptingSession(
                state.context, saltedWith: parentHandle, attributes: TPMA_SESSION(TPMA_SESSION_DECRYPT))
            defer { _ = Esys_FlushContext(state.context, session) }
            let rc = Esys_Create(
                state.context, parentHandle, ESYS_TR(ESYS_TR_PASSWORD), session, ESYS_TR(ESYS_TR_NONE),
                &sensitive, &template, &outside, &pcrs, &outPrivate, &outPublic, nil, nil, nil)
            defer {
                Esys_Free(outPrivate)
                Esys_Free(outPublic)
            }
            guard rc == 0, let outPrivate, let outPublic else { throw .tpm(operation: "Create", code: rc) }
            return try TPMKeyBlob(public: outPublic.pointee, private: outPrivate.pointee, use: use, parent: parent)
        }
    }

    /// Signs a SHA-256 digest with the key in `blob` (ECDSA), returning `r ‖ s`.
    package func sign(digest: [UInt8], with blob: TPMKeyBlob, authorization: [UInt8] = []) throws(TPMError)
        -> [UInt8]
    {
        guard blob.use.signs, digest.count == 32 else { throw .invalidKeyBlob }
        return try withLoadedKey(blob, authorization: authorization) {
            (context, key, session) throws(TPMError) -> [UInt8] in
            var input = TPM2B_DIGEST()
            input.size = 32
            withUnsafeMutableBytes(of: &input.buffer) { $0.copyBytes(from: digest) }
            var scheme = TPMT_SIG_SCHEME()
            var ticket = TPMT_TK_HASHCHECK()
            kchtpm_ecdsa_sha256(&scheme, &ticket)
            var signature: UnsafeMutablePointer<TPMT_SIGNATURE>? = nil
            let rc = Esys_Sign(
                context, key, session, ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), &input,
                &scheme, &ticket, &signature)
            defer { Esys_Free(signature) }
            guard rc == 0, let signature else { throw .tpm(operation: "Sign", code: rc) }
            let ecdsa = signature.pointee.signature.ecdsa
            return Self.padded(ecdsa.signatureR) + Self.padded(ecdsa.signatureS)
        }
    }

    /// ECDH with the key in `blob` and the peer point `x ‖ y`, returning the shared x coordinate.
    package func sharedSecret(
        peerX x: [UInt8], peerY y: [UInt8], with blob: TPMKeyBlob, authorization: [UInt8] = []
    ) throws(TPMError) -> [UInt8] {
        guard blob.use.agrees, x.count == 32, y.count == 32 else { throw .invalidKeyBlob }
        return try withLoadedKey(blob, authorization: authorization) {
            (context, key, session) throws(TPMError) -> [UInt8] in
            var point = TPM2B_ECC_POINT()
            point.point.x.size = 32
            point.point.y.size = 32
            withUnsafeMutableBytes(of: &point.point.x.buffer) { $0.copyBytes(from: x) }
            withUnsafeMutableBytes(of: &point.point.y.buffer) { $0.copyBytes(from: y) }
            var shared: UnsafeMutablePointer<TPM2B_ECC_POINT>? = nil
            let rc = Esys_ECDH_ZGen(
                context, key, session, ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), &point, &shared)
            defer {
                if let shared {
                    _ = withUnsafeMutableBytes(of: &shared.pointee) {
                        $0.initializeMemory(as: UInt8.self, repeating: 0)
                    }
                }
                Esys_Free(shared)
            }
            guard rc == 0, let shared else { throw .tpm(operation: "ECDH_ZGen", code: rc) }
            return Self.padded(shared.pointee.point.x)
        }
    }

    /// Checks that the TPM accepts `blob` by loading it (and flushing it again).
    package func check(_ blob: TPMKeyBlob) throws(TPMError) {
        try withLoadedKey(blob, authorization: []) { (_, _, _) throws(TPMError) in () }
    }

    /// Loads the key under the primary key, runs `body` with the session that authorizes its use, and flushes the
    /// key (and session) again. A key with an auth value is used through an HMAC session with parameter
    /// encryption: the auth value never crosses the TCTI (only HMACs keyed with it), and the command's digest or
    /// point and the response's shared secret travel encrypted under a key derived from it. A key without one uses
    /// the empty password.
    private func withLoadedKey<R: Sendable>(
        _ blob: TPMKeyBlob, authorization: [UInt8], _ body: (OpaquePointer, ESYS_TR, ESYS_TR) throws(TPMError) -> R
    ) throws(TPMError) -> R {
        guard authorization.count <= Self.maximumAuthorizationSize else { throw .invalidKeyBlob }
        return try state.withLock { (state: inout State) throws(TPMError) -> R in
            var keyPublic = blob.publicArea
            var keyPrivate = blob.privateArea
            var key: ESYS_TR = 0
            let rc = Esys_Load(
                state.context, try Self.primary(blob.parent, in: &state), ESYS_TR(ESYS_TR_PASSWORD),
                ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), &keyPrivate, &keyPublic, &key)
            // A blob from another TPM, or from this one before its seeds changed, fails its integrity check here.
            guard rc == 0 else { throw .tpm(operation: "Load", code: rc) }
            defer { _ = Esys_FlushContext(state.context, key) }
            if !authorization.isEmpty {
                var auth = TPM2B_AUTH()
                auth.size = UInt16(authorization.count)
                withUnsafeMutableBytes(of: &auth.buffer) { $0.copyBytes(from: authorization) }
                defer { Self.wipe(&auth) }
                let set = Esys_TR_SetAuth(state.context, key, &auth)
                guard set == 0 else { throw .tpm(operation: "TR_SetAuth", code: set) }
                let session = try Self.startEncryptingSession(
                    state.context, attributes: TPMA_SESSION(TPMA_SESSION_DECRYPT | TPMA_SESSION_ENCRYPT))
                defer { _ = Esys_FlushContext(state.context, session) }
                return try body(state.context, key, session)
            }
            return try body(state.context, key, ESYS_TR(ESYS_TR_PASSWORD))
        }
    }

    /// An unbound HMAC session with AES-128-CFB parameter encryption in the directions `attributes` name. Unsalted,
    /// its keys come from the auth value of the object it authorizes; salted with `saltKey` (the primary key), from
    /// a salt only the TPM holding that key's private part can decrypt. It is kept after each command
    /// (continueSession), so the caller flushes it on every path.
    private static func startEncryptingSession(
        _ context: OpaquePointer, saltedWith saltKey: ESYS_TR = ESYS_TR(ESYS_TR_NONE), attributes: TPMA_SESSION
    ) throws(TPMError) -> ESYS_TR {
        var symmetric = TPMT_SYM_DEF()
        symmetric.algorithm = TPM2_ALG_ID(TPM2_ALG_AES)
        symmetric.keyBits.aes = 128
        symmetric.mode.aes = TPM2_ALG_ID(TPM2_ALG_CFB)
        var session: ESYS_TR = 0
        let rc = Esys_StartAuthSession(
            context, saltKey, ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE),
            ESYS_TR(ESYS_TR_NONE), nil, TPM2_SE(TPM2_SE_HMAC), &symmetric, TPMI_ALG_HASH(TPM2_ALG_SHA256), &session)
        guard rc == 0 else { throw .tpm(operation: "StartAuthSession", code: rc) }
        let set = Esys_TRSess_SetAttributes(
            context, session, TPMA_SESSION(TPMA_SESSION_CONTINUESESSION) | attributes, 0xFF)
        guard set == 0 else {
            _ = Esys_FlushContext(context, session)
            throw .tpm(operation: "TRSess_SetAttributes", code: set)
        }
        return session
    }

    /// Zeroes a structure that held an auth value.
    private static func wipe<T>(_ value: inout T) {
        withUnsafeMutableBytes(of: &value) { $0.initializeMemory(as: UInt8.self, repeating: 0) }
    }

    /// A TPM2B_ECC_PARAMETER as 32 big-endian bytes.
    private static func padded(_ parameter: TPM2B_ECC_PARAMETER) -> [UInt8] {
        var value = parameter
        let size = min(Int(value.size), 32)
        let bytes = withUnsafeBytes(of: &value.buffer) { Array($0.prefix(size)) }
        return [UInt8](repeating: 0, count: 32 - size) + bytes
    }
}
