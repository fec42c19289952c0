#ifndef KEYCHAIN_COPENSSL_SHIM_H
#define KEYCHAIN_COPENSSL_SHIM_H
// The SHA-256 block interface (SHA256_Init/Update/Final) is marked deprecated in OpenSSL 3 but kept, and it
// runs the same assembly as EVP without EVP's per-call provider dispatch; HMACSHA256 relies on it.
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
// OSSL_PARAM construction uses variadic-looking macros; build the HMAC digest parameter here.
static inline int kossl_mac_init_sha256(EVP_MAC_CTX *ctx, const unsigned char *key, size_t keylen) {
    OSSL_PARAM params[2];
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)"SHA256", 0);
    params[1] = OSSL_PARAM_construct_end();
    return EVP_MAC_init(ctx, key, keylen, params);
}
// HKDF-SHA256 (RFC 5869) through the provider API, whose parameters are built with macros.
static inline int kossl_hkdf_sha256(const unsigned char *ikm, size_t ikmlen, const unsigned char *salt,
                                    size_t saltlen, const unsigned char *info, size_t infolen,
                                    unsigned char *out, size_t outlen) {
    EVP_KDF *kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
    if (kdf == NULL) return 0;
    EVP_KDF_CTX *kctx = EVP_KDF_CTX_new(kdf);
    EVP_KDF_free(kdf);
    if (kctx == NULL) return 0;
    OSSL_PARAM params[5], *p = params;
    *p++ = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, (char *)"SHA256", 0);
    *p++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, (void *)ikm, ikmlen);
    *p++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, (void *)salt, saltlen);
    *p++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, (void *)info, infolen);
    *p = OSSL_PARAM_construct_end();
    int ok = EVP_KDF_derive(kctx, out, outlen, params);
    EVP_KDF_CTX_free(kctx);
    return ok;
}
#endif
