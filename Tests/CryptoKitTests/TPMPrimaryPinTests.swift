#if canImport(CTSS2)
    import CTSS2
    import Foundation
    import KeychainTestSupport
    import Testing

    @testable import CryptoKit
    @testable import TPMEnclave

    // keychain-lint:ignore-file KL603 -- these tests create keys in the software TPM they start (SoftwareTPM)

    /// Key blobs record the name of the storage primary they were made under, and a key is used only under a primary
    /// of that name: a TPM that answers on the key's TCTI with another storage key (another swtpm, with its own
    /// seeds, on the same port) is refused before the key is loaded or a session is salted with it. Blobs of
    /// earlier releases carry no name and load as before; earlier releases refuse blobs that carry one.
    @Suite(.serialized, .enabled(if: SoftwareTPM.isInstalled, "swtpm is not installed"))
    struct TPMPrimaryPinTests {
        static let short = TPMTimeouts(creation: 5, use: 5)
        let authorization = [UInt8](repeating: 5, count: 32)
        let digest = Array(SHA256.hash(data: Data("sign me".utf8)))

        /// The bytes an earlier release wrote for `blob`: no name, and no bit saying one follows.
        static func earlierForm(of blob: TPMKeyBlob) throws -> [UInt8] {
            var bytes = blob.serialized
            let name = try #require(blob.parentName)
            #expect(bytes[4] & 0x40 != 0)
            bytes[4] &= ~0x40
            bytes.removeLast(2 + name.count)
            return bytes
        }

        /// Whether the release before the name reads `bytes` as a blob for `use`: its parser as it was (the use
        /// byte but for the primary's bit 0x80, the public and private areas, and nothing after them).
        static func earlierReleaseReads(_ bytes: [UInt8], use: TPMKeyUse) -> Bool {
            guard bytes.count > 5, Array(bytes[0..<4]) == Array("KTPM".utf8), bytes[4] & ~0x80 == use.rawValue
            else { return false }
            var publicArea = TPM2B_PUBLIC()
            var privateArea = TPM2B_PRIVATE()
            var offset = 5
            let parsed = bytes.withUnsafeBufferPointer { buffer in
                Tss2_MU_TPM2B_PUBLIC_Unmarshal(buffer.baseAddress, buffer.count, &offset, &publicArea) == 0
                    && Tss2_MU_TPM2B_PRIVATE_Unmarshal(buffer.baseAddress, buffer.count, &offset, &privateArea) == 0
            }
            return parsed && offset == bytes.count
        }

        @Test func newBlobsNameTheirParentAndEarlierBlobsLoadWithout() throws {
            let tpm = try SoftwareTPM()
            let connection = try TPMConnection(tcti: tpm.tcti, timeouts: Self.short)
            for use in [TPMKeyUse.signing, .keyAgreement, .general] {
                let blob = try connection.createKey(use: use, authorization: authorization)
                // SHA-256 names: the algorithm (0x000B) and the digest of the primary's public area.
                let name = try #require(blob.parentName)
                #expect(name.count == 34 && Array(name.prefix(2)) == [0x00, 0x0B])
                #expect(blob.serialized[4] == use.rawValue | 0x80 | 0x40)
                let reread = try TPMKeyBlob(serialized: blob.serialized, use: use)
                #expect(reread.parentName == name && reread.parent == .lockoutExempt)
                #expect(reread.serialized == blob.serialized)

                let earlier = try Self.earlierForm(of: blob)
                #expect(Self.earlierReleaseReads(earlier, use: use))
                // The release before the name refuses the new form (errSecParam), for every use: it reads 0x40 as
                // part of the use, and would not take the bytes after the private area either.
                for any in [TPMKeyUse.signing, .keyAgreement, .general] {
                    #expect(!Self.earlierReleaseReads(blob.serialized, use: any))
                }
                var withoutTheBit = blob.serialized
                withoutTheBit[4] &= ~0x40
                #expect(!Self.earlierReleaseReads(withoutTheBit, use: use))

                let old = try TPMKeyBlob(serialized: earlier, use: use)
                #expect(old.parentName == nil && old.parent == .lockoutExempt)
                #expect(old.serialized == earlier)
                try connection.check(old)
                if use.signs {
                    #expect(try connection.sign(digest: digest, with: old, authorization: authorization).count == 64)
                }
            }
            // A key under the primary of releases before the lockout exemption names that primary, another one.
            let legacy = try connection.createKey(use: .signing, authorization: authorization, parent: .legacy)
            let current = try connection.createKey(use: .signing, authorization: authorization)
            #expect(legacy.serialized[4] == 0x01 | 0x40)
            #expect(try #require(legacy.parentName) != current.parentName)
            #expect(try connection.sign(digest: digest, with: legacy, authorization: authorization).count == 64)
            let oldLegacy = try TPMKeyBlob(serialized: try Self.earlierForm(of: legacy), use: .signing)
            #expect(oldLegacy.parent == .legacy && oldLegacy.parentName == nil)
            #expect(try connection.sign(digest: digest, with: oldLegacy, authorization: authorization).count == 64)
        }

        @Test func damagedNamesAreRefused() throws {
            let tpm = try SoftwareTPM()
            let connection = try TPMConnection(tcti: tpm.tcti, timeouts: Self.short)
            let blob = try connection.createKey(use: .signing)
            let bytes = blob.serialized
            let earlier = try Self.earlierForm(of: blob)
            var flaggedWithoutName = earlier
            flaggedWithoutName[4] |= 0x40
            var emptyName = earlier + [0, 0]
            emptyName[4] |= 0x40
            var unknownBit = bytes
            unknownBit[4] |= 0x20
            for damaged in [
                flaggedWithoutName, emptyName, unknownBit, Array(bytes.dropLast()), bytes + [0],
                earlier + [0, 34] + Array(bytes.suffix(34)),  // a name without the bit
            ] {
                #expect(throws: TPMError.invalidKeyBlob) { try TPMKeyBlob(serialized: damaged, use: .signing) }
            }
        }

        @Test func anotherTPMOnTheKeysTCTIIsRefusedBeforeTheKeyIsLoaded() throws {
            let first = try SoftwareTPM()
            let connection = try TPMConnection(tcti: first.tcti, timeouts: Self.short)
            let blob = try connection.createKey(use: .signing, authorization: authorization)
            let earlier = try TPMKeyBlob(serialized: try Self.earlierForm(of: blob), use: .signing)
            let port = first.port

            // A TPM of its own (other seeds, so another storage primary) takes the first one's place on its port.
            first.crash()
            let impostor = try SoftwareTPM(port: port)
            #expect(impostor.tcti == first.tcti)
            // The connection finds its primary gone, connects anew, and is answered with another primary.
            #expect(throws: TPMError.connectionLost(tcti: first.tcti, operation: "Load", code: 0x910)) {
                try connection.sign(digest: digest, with: blob, authorization: authorization)
            }
            for _ in 0..<2 {
                let refused = try #require(throws: TPMError.self) {
                    try connection.sign(digest: digest, with: blob, authorization: authorization)
                }
                #expect(refused == .foreignStorageKey)
                #expect(refused.status == -26275)
                #expect(refused.description == "the TPM's storage key is not the one this key was made under")
            }
            // Not a break of the connection: it is kept.
            #expect(connection.connectionsMade == 2)
            let fresh = try TPMConnection(tcti: impostor.tcti, timeouts: Self.short)
            #expect(throws: TPMError.foreignStorageKey) { try fresh.check(blob) }
            // A blob of an earlier release names no primary: the TPM's refusal of it, as before (errSecDecode).
            let refusal = try #require(throws: TPMError.self) { try fresh.check(earlier) }
            #expect(refusal == .tpm(operation: "Load", code: 0x1DF))
            #expect(refusal.status == -26275)

            // The key's own TPM back on the port: the connection's primary (the impostor's) is not the key's, and
            // the TPM no longer has it at its handle, so the connection connects anew and signs again.
            impostor.crash()
            try first.start(port: port)
            #expect(throws: TPMError.connectionLost(tcti: first.tcti, operation: "ReadPublic", code: 0x910)) {
                try connection.sign(digest: digest, with: blob, authorization: authorization)
            }
            #expect(try connection.sign(digest: digest, with: blob, authorization: authorization).count == 64)
            #expect(connection.connectionsMade == 3)
        }

        /// On a TPM without a resource manager, a restart can leave the connection's primary handle naming another
        /// process's primary: the key's blob, loaded under it, would look lost (errSecDecode), and another TPM's key
        /// would look like this one's. The handle is read back first, and the connection connects anew.
        @Test func aHandleThatNamesAnotherProcesssPrimaryAfterARestartIsNotTakenForTheKeys() throws {
            let first = try SoftwareTPM()
            let connection = try TPMConnection(tcti: first.tcti, timeouts: Self.short)
            let blob = try connection.createKey(use: .signing, authorization: authorization)
            let earlier = try TPMKeyBlob(serialized: try Self.earlierForm(of: blob), use: .signing)
            let port = first.port

            for form in [blob, earlier] {
                first.crash()
                try first.start(port: port)
                // Another process makes a primary of its own first: at the handle this connection's had.
                let bystander = try Bystander(tcti: first.tcti)
                // Loaded under the bystander's primary, the key would fail as another TPM's does; the handle is read
                // back, names another key, and the connection connects anew.
                let stale = try #require(throws: TPMError.self) { try connection.check(form) }
                #expect(stale == .connectionLost(tcti: first.tcti, operation: "ReadPublic", code: 0))
                #expect(stale.status == -25291)
                #expect(stale.description.contains("its storage primary's handle names another object"))
                // The connection given up flushes nothing at its release: the handle is the bystander's now.
                usleep(200_000)
                #expect(bystander.holdsItsPrimary)
                bystander.close()
                try connection.check(form)
                #expect(try connection.sign(digest: digest, with: form, authorization: authorization).count == 64)
            }
            #expect(connection.connectionsMade == 3)
        }

        /// The same with a key creation, and with a signing key of the other process at the handle (a load under it
        /// is refused for the handle, not for the blob): every path reads the handle back and connects anew, so
        /// the next call works instead of failing until the process restarts.
        @Test(arguments: [false, true])
        func aKeyCreationAndAUseMeetingAStaleHandleConnectAnew(bystanderSigns: Bool) throws {
            let tpm = try SoftwareTPM()
            let connection = try TPMConnection(tcti: tpm.tcti, timeouts: Self.short)
            let blob = try connection.createKey(use: .signing, authorization: authorization)
            for creating in [true, false] {
                tpm.crash()
                try tpm.start(port: tpm.port)
                let bystander = try Bystander(tcti: tpm.tcti, signingKey: bystanderSigns)
                let stale = try #require(throws: TPMError.self) {
                    if creating {
                        _ = try connection.createKey(use: .signing, authorization: authorization)
                    } else {
                        _ = try connection.sign(digest: digest, with: blob, authorization: authorization)
                    }
                }
                #expect(stale.status == -25291, "\(stale)")
                let made = try connection.createKey(use: .signing, authorization: authorization)
                #expect(try connection.sign(digest: digest, with: made, authorization: authorization).count == 64)
                #expect(try connection.sign(digest: digest, with: blob, authorization: authorization).count == 64)
                bystander.close()
            }
        }

        /// Another process's ESAPI connection, holding a primary of its own (the template without noDA: another key
        /// than the keychain's; or, with `signingKey`, a signing key) until closed.
        final class Bystander {
            private var tctiContext: OpaquePointer?
            private var context: OpaquePointer?
            private var primary: ESYS_TR = 0

            init(tcti: String, signingKey: Bool = false) throws {
                try #require(Tss2_TctiLdr_Initialize(tcti, &tctiContext) == 0)
                try #require(Esys_Initialize(&context, tctiContext, nil) == 0)
                var template = TPM2B_PUBLIC()
                if signingKey {
                    kchtpm_key_template(&template, 1)
                } else {
                    kchtpm_primary_template(&template, 0)
                }
                var sensitive = TPM2B_SENSITIVE_CREATE()
                var outside = TPM2B_DATA()
                var pcrs = TPML_PCR_SELECTION()
                let made = Esys_CreatePrimary(
                    context, ESYS_TR(ESYS_TR_RH_OWNER), ESYS_TR(ESYS_TR_PASSWORD), ESYS_TR(ESYS_TR_NONE),
                    ESYS_TR(ESYS_TR_NONE), &sensitive, &template, &outside, &pcrs, &primary, nil, nil, nil, nil)
                try #require(made == 0)
            }

            /// Whether the TPM still has the primary at its handle.
            var holdsItsPrimary: Bool {
                var outPublic: UnsafeMutablePointer<TPM2B_PUBLIC>? = nil
                defer { Esys_Free(outPublic) }
                return Esys_ReadPublic(
                    context, primary, ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), &outPublic,
                    nil, nil) == 0
            }

            func close() {
                guard context != nil else { return }
                _ = Esys_FlushContext(context, primary)
                Esys_Finalize(&context)
                Tss2_TctiLdr_Finalize(&tctiContext)
            }
        }
    }
#endif
