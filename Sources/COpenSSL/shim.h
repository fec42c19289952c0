#ifndef KEYCHAIN_COPENSSL_SHIM_H
#define KEYCHAIN_COPENSSL_SHIM_H
// The MD5/SHA-1/SHA-256 block interfaces (SHA256_Init/Update/Final, …) are marked deprecated in OpenSSL 3 but
// kept; CryptoKit's incremental hashes (CryptoKitOpenSSL's HashState) use them.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/err.h>
#include <openssl/kdf.h>
// CryptoKit's backend (CryptoKitOpenSSL): MD5 and SHA-1 contexts, EC points and keys, DER encoders, key building.
#include <openssl/md5.h>
#include <openssl/ec.h>
#include <openssl/bn.h>
#include <openssl/x509.h>
#include <openssl/param_build.h>
// SecKey's RSA keys: padding modes and their EVP_PKEY_CTX settings.
#include <openssl/rsa.h>

// GCM with nonces longer than EVP takes (CryptoKitOpenSSL's LongNonceGCM): OpenSSL's own GCM mode.
#include <openssl/modes.h>

// EVP_CTRL_GCM_* are macros; name them as functions so Swift can call them.
static inline int kossl_gcm_set_ivlen(EVP_CIPHER_CTX *ctx, int len) {
    return EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, len, NULL);
}
static inline int kossl_gcm_get_tag(EVP_CIPHER_CTX *ctx, int len, void *tag) {
    return EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, len, tag);
}
static inline int kossl_gcm_set_tag(EVP_CIPHER_CTX *ctx, int len, void *tag) {
    return EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, len, tag);
}
// X509Certificates: certificate parsing, chain verification, PKCS#12. Stacks and OPENSSL_free are macros, so
// each gets a small typed function here.
#include <openssl/x509v3.h>
// Stapled OCSP responses (X509Certificates' OCSPStaple).
#include <openssl/ocsp.h>
#include <openssl/x509_vfy.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/provider.h>
static inline void kossl_free(void *pointer) { OPENSSL_free(pointer); }
static inline STACK_OF(X509) *kossl_x509_stack_new(void) { return sk_X509_new_null(); }
static inline int kossl_x509_stack_push(STACK_OF(X509) *stack, X509 *certificate) {
    return sk_X509_push(stack, certificate);
}
static inline int kossl_x509_stack_count(const STACK_OF(X509) *stack) { return sk_X509_num(stack); }
static inline X509 *kossl_x509_stack_value(const STACK_OF(X509) *stack, int index) {
    return sk_X509_value(stack, index);
}
// Frees the stack and drops one reference on each certificate it holds.
static inline void kossl_x509_stack_free_all(STACK_OF(X509) *stack) { sk_X509_pop_free(stack, X509_free); }
// Frees the stack only; the certificates stay owned by whoever holds them.
static inline void kossl_x509_stack_free(STACK_OF(X509) *stack) { sk_X509_free(stack); }
// The number of purposes in the certificate's extendedKeyUsage extension, or -1 when it has none that parses.
static inline int kossl_extended_key_usage_count(X509 *certificate) {
    EXTENDED_KEY_USAGE *usage = X509_get_ext_d2i(certificate, NID_ext_key_usage, NULL, NULL);
    if (usage == NULL) return -1;
    int count = sk_ASN1_OBJECT_num(usage);
    sk_ASN1_OBJECT_pop_free(usage, ASN1_OBJECT_free);
    return count;
}
static inline int kossl_general_names_count(const GENERAL_NAMES *names) { return sk_GENERAL_NAME_num(names); }
static inline const GENERAL_NAME *kossl_general_names_value(const GENERAL_NAMES *names, int index) {
    return sk_GENERAL_NAME_value(names, index);
}
static inline int kossl_general_name_type(const GENERAL_NAME *name) { return name->type; }
// The IA5String of an rfc822Name, dNSName or uniformResourceIdentifier, or the OCTET STRING of an iPAddress.
static inline const ASN1_STRING *kossl_general_name_string(const GENERAL_NAME *name) {
    return (const ASN1_STRING *)name->d.ia5;
}
// X509_STORE_CTX_set_app_data is a macro over ex_data slot 0.
static inline void kossl_store_ctx_set_context(X509_STORE_CTX *ctx, void *context) {
    X509_STORE_CTX_set_app_data(ctx, context);
}
static inline void *kossl_store_ctx_context(X509_STORE_CTX *ctx) { return X509_STORE_CTX_get_app_data(ctx); }
// A PKCS#12 file's safes and bags, walked for their iteration counts before any key derivation.
static inline int kossl_pkcs7_stack_count(const STACK_OF(PKCS7) *stack) { return sk_PKCS7_num(stack); }
static inline PKCS7 *kossl_pkcs7_stack_value(const STACK_OF(PKCS7) *stack, int index) {
    return sk_PKCS7_value(stack, index);
}
static inline void kossl_pkcs7_stack_free_all(STACK_OF(PKCS7) *stack) { sk_PKCS7_pop_free(stack, PKCS7_free); }
static inline int kossl_pkcs7_type(const PKCS7 *p7) { return OBJ_obj2nid(p7->type); }
// The encryption algorithm of an EncryptedData safe, which OpenSSL has no accessor for; NULL for another type.
static inline const X509_ALGOR *kossl_pkcs7_encryption_algorithm(const PKCS7 *p7) {
    if (OBJ_obj2nid(p7->type) != NID_pkcs7_encrypted || p7->d.encrypted == NULL) return NULL;
    return p7->d.encrypted->enc_data == NULL ? NULL : p7->d.encrypted->enc_data->algorithm;
}
static inline int kossl_safebag_stack_count(const STACK_OF(PKCS12_SAFEBAG) *stack) {
    return sk_PKCS12_SAFEBAG_num(stack);
}
static inline const PKCS12_SAFEBAG *kossl_safebag_stack_value(const STACK_OF(PKCS12_SAFEBAG) *stack, int index) {
    return sk_PKCS12_SAFEBAG_value(stack, index);
}
static inline void kossl_safebag_stack_free_all(STACK_OF(PKCS12_SAFEBAG) *stack) {
    sk_PKCS12_SAFEBAG_pop_free(stack, PKCS12_SAFEBAG_free);
}
#endif
