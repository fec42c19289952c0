#ifndef KEYCHAIN_CTSS2_SHIM_H
#define KEYCHAIN_CTSS2_SHIM_H
// The TPM 2.0 Software Stack's ESAPI (Debian's libtss2-dev), for SecureEnclave keys kept in a TPM.
#include <tss2/tss2_esys.h>
#include <tss2/tss2_tctildr.h>
#include <tss2/tss2_mu.h>
#include <string.h>

// The TSS constants are cast macros ("((TPM2_ALG_ID) 0x0023)"), which Swift does not import: the templates and
// schemes are filled in here.

// The storage primary key: ECC P-256, restricted decryption with AES-128-CFB, under the owner hierarchy. The
// same template always gives the same key for one owner seed, so it is re-created rather than stored.
// With `lockout_exempt` (noDA) its use as a parent works while the TPM is in dictionary-attack lockout, which any
// process with access to the TPM can cause with wrong auth values for an object of its own; its auth value is
// empty, so there is nothing to guess. Without it, the primary of the keys made before noDA was set: a different
// template, so a different key, which those keys' blobs are bound to.
static inline void kchtpm_primary_template(TPM2B_PUBLIC *template, int lockout_exempt) {
    memset(template, 0, sizeof *template);
    TPMT_PUBLIC *area = &template->publicArea;
    area->type = TPM2_ALG_ECC;
    area->nameAlg = TPM2_ALG_SHA256;
    area->objectAttributes = TPMA_OBJECT_FIXEDTPM | TPMA_OBJECT_FIXEDPARENT | TPMA_OBJECT_SENSITIVEDATAORIGIN
        | TPMA_OBJECT_USERWITHAUTH | TPMA_OBJECT_RESTRICTED | TPMA_OBJECT_DECRYPT
        | (lockout_exempt ? TPMA_OBJECT_NODA : 0);
    area->parameters.eccDetail.symmetric.algorithm = TPM2_ALG_AES;
    area->parameters.eccDetail.symmetric.keyBits.aes = 128;
    area->parameters.eccDetail.symmetric.mode.aes = TPM2_ALG_CFB;
    area->parameters.eccDetail.scheme.scheme = TPM2_ALG_NULL;
    area->parameters.eccDetail.curveID = TPM2_ECC_NIST_P256;
    area->parameters.eccDetail.kdf.scheme = TPM2_ALG_NULL;
}

// The object attributes of a key's use: 1 signs, 2 agrees on keys (ECDH), 3 both (a SecKey enclave key, whose
// unrestricted ECC key has no scheme of its own and takes ECDSA per signature).
static inline TPMA_OBJECT kchtpm_use_attributes(int use) {
    return ((use & 1) ? TPMA_OBJECT_SIGN_ENCRYPT : 0) | ((use & 2) ? TPMA_OBJECT_DECRYPT : 0);
}

// A P-256 key that never leaves the TPM (fixedTPM, fixedParent, generated inside), for `use`. noDA: its auth value
// is 32 random bytes, which no dictionary attack guesses, so wrong values must not count towards the TPM's lockout,
// which would stop every user's keys (and the machine's other TPM uses) for all.
static inline void kchtpm_key_template(TPM2B_PUBLIC *template, int use) {
    memset(template, 0, sizeof *template);
    TPMT_PUBLIC *area = &template->publicArea;
    area->type = TPM2_ALG_ECC;
    area->nameAlg = TPM2_ALG_SHA256;
    area->objectAttributes = TPMA_OBJECT_FIXEDTPM | TPMA_OBJECT_FIXEDPARENT | TPMA_OBJECT_SENSITIVEDATAORIGIN
        | TPMA_OBJECT_USERWITHAUTH | TPMA_OBJECT_NODA | kchtpm_use_attributes(use);
    area->parameters.eccDetail.symmetric.algorithm = TPM2_ALG_NULL;
    area->parameters.eccDetail.scheme.scheme = TPM2_ALG_NULL;
    area->parameters.eccDetail.curveID = TPM2_ECC_NIST_P256;
    area->parameters.eccDetail.kdf.scheme = TPM2_ALG_NULL;
}

// ECDSA with SHA-256, and the "no ticket" hash check a non-restricted key signs with.
static inline void kchtpm_ecdsa_sha256(TPMT_SIG_SCHEME *scheme, TPMT_TK_HASHCHECK *ticket) {
    memset(scheme, 0, sizeof *scheme);
    scheme->scheme = TPM2_ALG_ECDSA;
    scheme->details.ecdsa.hashAlg = TPM2_ALG_SHA256;
    memset(ticket, 0, sizeof *ticket);
    ticket->tag = TPM2_ST_HASHCHECK;
    ticket->hierarchy = TPM2_RH_NULL;
}

// Whether a loaded public area is what kchtpm_key_template makes: ECC P-256, fixed to this TPM, for exactly `use`.
static inline int kchtpm_is_enclave_key(const TPM2B_PUBLIC *key, int use) {
    const TPMT_PUBLIC *area = &key->publicArea;
    TPMA_OBJECT required = TPMA_OBJECT_FIXEDTPM | TPMA_OBJECT_FIXEDPARENT | TPMA_OBJECT_SENSITIVEDATAORIGIN
        | kchtpm_use_attributes(use);
    TPMA_OBJECT uses = TPMA_OBJECT_SIGN_ENCRYPT | TPMA_OBJECT_DECRYPT;
    return area->type == TPM2_ALG_ECC && area->parameters.eccDetail.curveID == TPM2_ECC_NIST_P256
        && (area->objectAttributes & required) == required
        && (area->objectAttributes & uses) == kchtpm_use_attributes(use);
}
#endif
