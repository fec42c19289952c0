import Dispatch
import Synchronization

@_implementationOnly import CTSS2

/// A connection to a TPM 2.0 with its storage primary key loaded. Its ESAPI calls run on a worker thread
/// (``TPMWorker``) that owns the ESAPI context: ESAPI contexts are not thread-safe, and a caller waits for the TPM at
/// most the connection's timeouts. After a call the TPM did not answer in time, or one that broke the connection (its
/// transport failed, or the TPM no longer holds the storage primary: it was restarted), the ESAPI connection is given
/// up and the next call makes a new one, so key objects that hold this connection work again once the TPM answers.
/// While a call given up by a timeout still waits for the TPM, no new one is made (``TPMStuckCalls``).
package final class TPMConnection: Sendable {
    /// The TCTI configuration this connection was made with ("device:/dev/tpmrm0", "swtpm:host=…,port=…").
    package let tcti: String
    /// How long a call waits for the TPM.
    package let timeouts: TPMTimeouts
    private let workers: Mutex<Workers>

    /// The worker of the current ESAPI connection, or of the attempt to make one that callers wait for (none after it
    /// was given up, until a call connects anew).
    private struct Workers {
        var current: TPMWorker<Contexts>?
        /// The last worker that made its connection, counted in `made`.
        var lastMade: TPMWorker<Contexts>?
        /// How many ESAPI connections were made (1 until the first is given up and a call connects anew).
        var made = 1
    }

    /// The TCTI and ESAPI contexts and the primary keys, which only the worker thread makes, uses and releases.
    private final class Contexts {
        let tcti: String
        let tctiContext: OpaquePointer
        let context: OpaquePointer
        let primary: UInt32  // an ESYS_TR: the lockout-exempt primary, every new key's parent
        /// The primary's name (its name algorithm and the digest of its public area), which new blobs record.
        let primaryName: [UInt8]
        /// The primary of keys made before the exemption, created at the first use of such a key, and its name.
        var legacyPrimary: (handle: UInt32, name: [UInt8])?
        /// A call broke the connection: the handles may name nothing, or another process's objects after the TPM
        /// was restarted, so nothing is flushed at release.
        var isLost = false

        /// Connects and creates the storage primary key.
        init(tcti: String) throws(TPMError) {
            var tctiContext: OpaquePointer? = nil
            guard Tss2_TctiLdr_Initialize(tcti, &tctiContext) == 0, let tctiContext else {
                throw .unavailable(tcti: tcti)
            }
            var context: OpaquePointer? = nil
            guard Esys_Initialize(&context, tctiContext, nil) == 0, let context else {
                var finalized: OpaquePointer? = tctiContext
                Tss2_TctiLdr_Finalize(&finalized)
                throw .unavailable(tcti: tcti)
            }
            do {
                (primary, primaryName) = try TPMConnection.createPrimary(context, .lockoutExempt)
            } catch {
                var finalized: OpaquePointer? = context
                Esys_Finalize(&finalized)
                var finalizedTCTI: OpaquePointer? = tctiContext
                Tss2_TctiLdr_Finalize(&finalizedTCTI)
                throw error
            }
            self.tcti = tcti
            self.tctiContext = tctiContext
            self.context = context
        }

        deinit {
            var context: OpaquePointer? = self.context
            if !isLost {
                _ = Esys_FlushContext(context, primary)
                if let legacyPrimary { _ = Esys_FlushContext(context, legacyPrimary.handle) }
            }
            Esys_Finalize(&context)
            var tcti: OpaquePointer? = tctiContext
            Tss2_TctiLdr_Finalize(&tcti)
        }

        /// The handle and name of the primary `kind`, creating the legacy one at its first use.
        func primary(_ kind: TPMPrimary) throws(TPMError) -> (handle: ESYS_TR, name: [UInt8]) {
            switch kind {
            case .lockoutExempt: return (primary, primaryName)
            case .legacy:
                if let legacyPrimary { return legacyPrimary }
                let legacy = try TPMConnection.createPrimary(context, .legacy)
                legacyPrimary = legacy
                return legacy
            }
        }

        /// Checks that the TPM still holds the primary `kind` this connection made: after a restart its handle names
        /// nothing (TPM_RC_REFERENCE_H0, which ends the connection) or, on a TPM without a resource manager, another
        /// process's object. Asked before a key is called another TPM's or lost, which a stale handle would fake.
        /// - Throws: ``TPMError/connectionLost(tcti:operation:code:)`` (and the contexts are lost) when the handle
        ///   names another object; the TPM's refusal of the read otherwise.
        func confirmPrimary(_ kind: TPMPrimary) throws(TPMError) {
            let (handle, name) = try primary(kind)
            var outPublic: UnsafeMutablePointer<TPM2B_PUBLIC>? = nil
            var outName: UnsafeMutablePointer<TPM2B_NAME>? = nil
            let rc = Esys_ReadPublic(
                context, handle, ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), &outPublic,
                &outName, nil)
            defer {
                Esys_Free(outPublic)
                Esys_Free(outName)
            }
            guard rc == 0, let outName else { throw .tpm(operation: "ReadPublic", code: rc) }
            guard TPMConnection.bytes(of: outName) == name else {
                isLost = true
                throw .connectionLost(tcti: tcti, operation: "ReadPublic", code: 0)
            }
        }
    }

    /// Connects and creates the storage primary key, waiting at most `timeouts.creation`.
    /// - Throws: `TPMError.unavailable` when nothing answers, `.tpm` when the TPM refuses the primary key,
    ///   `.timedOut` when it does not answer in time, `.stillUnanswered` at once while a call given up earlier
    ///   still waits for it.
    package init(tcti: String, timeouts: TPMTimeouts = .configured()) throws(TPMError) {
        self.tcti = tcti
        self.timeouts = timeouts
        if let refusal = TPMStuckCalls.refusal(tcti: tcti, probeAfter: 2 * timeouts.creation) { throw refusal }
        let worker = TPMWorker(tcti: tcti, openWithin: timeouts.creation) { () throws(TPMError) in
            try Contexts(tcti: tcti)
        }
        try worker.waitUntilOpen()
        workers = Mutex(Workers(current: worker, lastMade: worker))
    }

    /// Closes the ESAPI connection on its thread, which flushes the primary keys (TPMConfiguration's exit handler
    /// relies on it), waiting at most `timeouts.use`.
    deinit {
        workers.withLock { $0.current }?.close(within: timeouts.use)
    }

    /// Runs `body` with the contexts on the worker, waiting at most `seconds` (``TPMWorker/run(within:_:)``).
    /// `body` must not capture `self`: a call the TPM never answers keeps it on the stuck thread. A failure that
    /// ends the connection (``TPMError/endsConnection``) marks the contexts lost, so that their release flushes
    /// nothing, and the worker gives them up; a transport failure reaches the caller as
    /// ``TPMError/connectionLost(tcti:operation:code:)``.
    private func perform<R: Sendable>(
        within seconds: Double, _ body: @escaping @Sendable (Contexts) throws(TPMError) -> R
    ) throws(TPMError) -> R {
        let tcti = tcti
        // One deadline for connecting anew (or waiting for another caller's attempt) and for the call to start.
        let arrival = DispatchTime.now()
        let worker = try currentWorker(arrival: arrival, seconds: seconds)
        return try worker.run(within: seconds, startBy: arrival + seconds) { (contexts) throws(TPMError) -> R in
            do throws(TPMError) {
                return try body(contexts)
            } catch {
                guard error.endsConnection else { throw error }
                contexts.isLost = true
                guard case .tpm(let operation, let code) = error, TPMError.isTransportFailure(code) else { throw error }
                throw .connectionLost(tcti: tcti, operation: operation, code: code)
            }
        }
    }

    /// How many ESAPI connections this connection made: 1, and one more for each time it connected anew.
    var connectionsMade: Int { workers.withLock { $0.made } }

    /// Whether an attempt to connect anew is under way: its worker is current and still making its context.
    var isConnectingAnew: Bool { workers.withLock { $0.current.map { !$0.hasOpened } ?? false } }

    /// The current worker, once its connection is made; after one was given up, a new connection, whose attempt has
    /// `timeouts.creation` from its start. A caller that arrived at `arrival` waits for the attempt (its own, or one
    /// under way, whose failure it shares) at most `seconds` from then; the attempt goes on without it. None is made
    /// while a call given up still waits for the TPM (``TPMError/stillUnanswered(tcti:secondsAgo:)``, at once). This
    /// connection worked once, so a TPM that cannot be reached now went away (``TPMError/wentAway(tcti:)``,
    /// errSecNotAvailable) rather than being absent (``TPMError/unavailable(tcti:)``, errSecUnimplemented).
    private func currentWorker(arrival: DispatchTime, seconds: Double) throws(TPMError) -> TPMWorker<Contexts> {
        let worker = try workers.withLock { (workers) throws(TPMError) -> TPMWorker<Contexts> in
            if let current = workers.current, !current.isGivenUp { return current }
            workers.current = nil
            if let refusal = TPMStuckCalls.refusal(tcti: tcti, probeAfter: 2 * timeouts.creation) { throw refusal }
            let worker = TPMWorker(tcti: tcti, openWithin: timeouts.creation, from: arrival) {
                [tcti] () throws(TPMError) in try Contexts(tcti: tcti)
            }
            workers.current = worker
            return worker
        }
        do throws(TPMError) {
            try worker.waitUntilOpen(until: arrival + seconds, seconds: seconds)
        } catch {
            if case .unavailable(let tcti) = error { throw .wentAway(tcti: tcti) }
            throw error
        }
        workers.withLock { workers in
            // Counted once, and only while current: a worker given up meanwhile was replaced by one counted itself.
            guard workers.lastMade !== worker, workers.current === worker else { return }
            workers.lastMade = worker
            workers.made += 1
        }
        return worker
    }

    /// Creates (re-creates: the owner seed and the template determine it) the storage primary key `kind`, returning
    /// its handle and its name (TPM2B_NAME: the name algorithm and the digest of the public area the TPM returned,
    /// which ESAPI checks against the name in the TPM's answer).
    private static func createPrimary(_ context: OpaquePointer, _ kind: TPMPrimary) throws(TPMError) -> (
        handle: ESYS_TR, name: [UInt8]
    ) {
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
        var name: UnsafeMutablePointer<TPM2B_NAME>? = nil
        let named = Esys_TR_GetName(context, primary, &name)
        defer { Esys_Free(name) }
        guard named == 0, let name, name.pointee.size > 0 else {
            _ = Esys_FlushContext(context, primary)
            throw .tpm(operation: "TR_GetName", code: named)
        }
        return (primary, bytes(of: name))
    }

    /// The bytes of a TPM2B_NAME the TPM returned (at most its buffer's size, whatever its size field says).
    private static func bytes(of name: UnsafeMutablePointer<TPM2B_NAME>) -> [UInt8] {
        let size = min(Int(name.pointee.size), MemoryLayout.size(ofValue: name.pointee.name))
        return withUnsafeBytes(of: &name.pointee.name) { Array($0.prefix(size)) }
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
        let authorization = TPMSecretCopy(authorization)
        return try perform(within: timeouts.creation) { (contexts) throws(TPMError) -> TPMKeyBlob in
            // The primary's handle is read back first (one ReadPublic; keys are made rarely): after a TPM restart it
            // may name nothing or another process's key, under which the key would be made and its blob would name
            // the wrong parent; the connection connects anew instead.
            try contexts.confirmPrimary(parent)
            let (parentHandle, parentName) = try contexts.primary(parent)
            var template = TPM2B_PUBLIC()
            kchtpm_key_template(&template, Int32(use.rawValue))
            var sensitive = TPM2B_SENSITIVE_CREATE()
            sensitive.sensitive.userAuth.size = UInt16(authorization.count)
            authorization.copy(into: &sensitive.sensitive.userAuth.buffer)
            defer { Self.wipe(&sensitive) }
            var outside = TPM2B_DATA()
            var pcrs = TPML_PCR_SELECTION()
            var outPrivate: UnsafeMutablePointer<TPM2B_PRIVATE>? = nil
            var outPublic: UnsafeMutablePointer<TPM2B_PUBLIC>? = nil
            // inSensitive (the auth value) is Create's first parameter: a session salted with the primary key
            // encrypts it, so that only the TPM holding the primary's private key reads it.
            let session = try Self.startEncryptingSession(
                contexts.context, saltedWith: parentHandle, attributes: TPMA_SESSION(TPMA_SESSION_DECRYPT))
            defer { _ = Esys_FlushContext(contexts.context, session) }
            let rc = Esys_Create(
                contexts.context, parentHandle, ESYS_TR(ESYS_TR_PASSWORD), session, ESYS_TR(ESYS_TR_NONE),
                &sensitive, &template, &outside, &pcrs, &outPrivate, &outPublic, nil, nil, nil)
            defer {
                Esys_Free(outPrivate)
                Esys_Free(outPublic)
            }
            guard rc == 0, let outPrivate, let outPublic else { throw .tpm(operation: "Create", code: rc) }
            return try TPMKeyBlob(
                public: outPublic.pointee, private: outPrivate.pointee, use: use, parent: parent,
                parentName: parentName)
        }
    }

    /// Signs a SHA-256 digest with the key in `blob` (ECDSA), returning `r ‖ s`.
    package func sign(digest: [UInt8], with blob: TPMKeyBlob, authorization: [UInt8] = []) throws(TPMError)
        -> [UInt8]
    {
        guard blob.use.signs, digest.count == 32, authorization.count <= Self.maximumAuthorizationSize else {
            throw .invalidKeyBlob
        }
        let digest = TPMSecretCopy(digest)
        let authorization = TPMSecretCopy(authorization)
        return try perform(within: timeouts.use) { (contexts) throws(TPMError) -> [UInt8] in
            try Self.withLoadedKey(blob, authorization: authorization, in: contexts) {
                (context, key, session) throws(TPMError) -> [UInt8] in
                var input = TPM2B_DIGEST()
                input.size = 32
                digest.copy(into: &input.buffer)
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
    }

    /// ECDH with the key in `blob` and the peer point `x ‖ y`, returning the shared x coordinate.
    package func sharedSecret(
        peerX x: [UInt8], peerY y: [UInt8], with blob: TPMKeyBlob, authorization: [UInt8] = []
    ) throws(TPMError) -> [UInt8] {
        guard blob.use.agrees, x.count == 32, y.count == 32, authorization.count <= Self.maximumAuthorizationSize
        else { throw .invalidKeyBlob }
        let x = TPMSecretCopy(x)
        let y = TPMSecretCopy(y)
        let authorization = TPMSecretCopy(authorization)
        // The secret crosses from the worker in memory that zeroes itself when released: the worker may still hold
        // its result when the caller wakes, and a shared array would make the caller's wipe hit a copy.
        let secret = try perform(within: timeouts.use) { (contexts) throws(TPMError) -> TPMSecretCopy in
            try Self.withLoadedKey(blob, authorization: authorization, in: contexts) {
                (context, key, session) throws(TPMError) -> TPMSecretCopy in
                var point = TPM2B_ECC_POINT()
                point.point.x.size = 32
                point.point.y.size = 32
                x.copy(into: &point.point.x.buffer)
                y.copy(into: &point.point.y.buffer)
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
                let size = min(Int(shared.pointee.point.x.size), 32)
                return withUnsafeBytes(of: &shared.pointee.point.x.buffer) {
                    TPMSecretCopy(leftPadding: UnsafeRawBufferPointer(rebasing: $0.prefix(size)), to: 32)
                }
            }
        }
        return secret.bytes
    }

    /// Checks that the TPM accepts `blob` by loading it (and flushing it again).
    package func check(_ blob: TPMKeyBlob) throws(TPMError) {
        try perform(within: timeouts.use) { (contexts) throws(TPMError) in
            try Self.withLoadedKey(blob, authorization: TPMSecretCopy([]), in: contexts) {
                (_, _, _) throws(TPMError) in ()
            }
        }
    }

    /// Loads the key under the primary key, runs `body` with the session that authorizes its use, and flushes the
    /// key (and session) again. A key with an auth value is used through an HMAC session with parameter
    /// encryption: the auth value never crosses the TCTI (only HMACs keyed with it), and the command's digest or
    /// point and the response's shared secret travel encrypted under a key derived from it. A key without one uses
    /// the empty password. A blob that names its parent (every blob since the name was recorded) is used only under
    /// a primary of that name: ``TPMError/foreignStorageKey`` before anything is sent otherwise.
    private static func withLoadedKey<R>(
        _ blob: TPMKeyBlob, authorization: TPMSecretCopy, in contexts: Contexts,
        _ body: (OpaquePointer, ESYS_TR, ESYS_TR) throws(TPMError) -> R
    ) throws(TPMError) -> R {
        let context = contexts.context
        let parent = try contexts.primary(blob.parent)
        if let expected = blob.parentName, expected != parent.name {
            // Unless the connection's own primary is stale (the TPM restarted): then it connects anew.
            try contexts.confirmPrimary(blob.parent)
            throw .foreignStorageKey
        }
        var keyPublic = blob.publicArea
        var keyPrivate = blob.privateArea
        var key: ESYS_TR = 0
        let rc = Esys_Load(
            context, parent.handle, ESYS_TR(ESYS_TR_PASSWORD), ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE),
            &keyPrivate, &keyPublic, &key)
        guard rc == 0 else {
            // A blob from another TPM, or from this one before its seeds changed, fails its integrity check here
            // (errSecDecode: the key is lost). A stale handle that names another process's object after a restart
            // fakes that and other refusals (a handle error) alike: it is checked first, so that the connection
            // connects anew instead of failing every use until the process restarts.
            let failure = TPMError.tpm(operation: "Load", code: rc)
            if !failure.endsConnection { try contexts.confirmPrimary(blob.parent) }
            throw failure
        }
        defer { _ = Esys_FlushContext(context, key) }
        if authorization.count > 0 {
            var auth = TPM2B_AUTH()
            auth.size = UInt16(authorization.count)
            authorization.copy(into: &auth.buffer)
            defer { wipe(&auth) }
            let set = Esys_TR_SetAuth(context, key, &auth)
            guard set == 0 else { throw .tpm(operation: "TR_SetAuth", code: set) }
            let session = try startEncryptingSession(
                context, attributes: TPMA_SESSION(TPMA_SESSION_DECRYPT | TPMA_SESSION_ENCRYPT))
            defer { _ = Esys_FlushContext(context, session) }
            return try body(context, key, session)
        }
        return try body(context, key, ESYS_TR(ESYS_TR_PASSWORD))
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
