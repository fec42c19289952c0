#include "CryptoKitBaseline.h"

#include <openssl/evp.h>
#include <openssl/rand.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

double cryptokit_baseline_sha256(size_t length, int iterations) {
    EVP_MD *md = EVP_MD_fetch(NULL, "SHA256", NULL);
    unsigned char *input = malloc(length);
    unsigned char digest[32];
    if (md == NULL || input == NULL) return -1;
    memset(input, 0x61, length);
    double start = now_ns();
    for (int i = 0; i < iterations; i++) {
        if (EVP_Digest(input, length, digest, NULL, md, NULL) != 1) return -1;
    }
    double elapsed = now_ns() - start;
    free(input);
    EVP_MD_free(md);
    return elapsed / iterations;
}

double cryptokit_baseline_aes_gcm_seal(size_t length, int iterations) {
    EVP_CIPHER *cipher = EVP_CIPHER_fetch(NULL, "AES-256-GCM", NULL);
    unsigned char key[32], nonce[12], tag[16];
    unsigned char *input = malloc(length + 1);
    unsigned char *output = malloc(length + 16);
    if (cipher == NULL || input == NULL || output == NULL || RAND_bytes(key, sizeof key) != 1) return -1;
    memset(input, 0x61, length);
    double start = now_ns();
    for (int i = 0; i < iterations; i++) {
        int written = 0;
        EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
        if (ctx == NULL || RAND_bytes(nonce, sizeof nonce) != 1
            || EVP_EncryptInit_ex2(ctx, cipher, key, nonce, NULL) != 1
            || EVP_EncryptUpdate(ctx, output, &written, input, (int)length) != 1
            || EVP_EncryptFinal_ex(ctx, output + written, &written) != 1
            || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag) != 1)
            return -1;
        EVP_CIPHER_CTX_free(ctx);
    }
    double elapsed = now_ns() - start;
    free(input);
    free(output);
    EVP_CIPHER_free(cipher);
    return elapsed / iterations;
}

double cryptokit_baseline_p256_sign(int iterations) {
    EVP_PKEY *key = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
    unsigned char message[64], signature[80];
    if (key == NULL) return -1;
    memset(message, 0x61, sizeof message);
    double start = now_ns();
    for (int i = 0; i < iterations; i++) {
        size_t length = sizeof signature;
        EVP_MD_CTX *ctx = EVP_MD_CTX_new();
        if (ctx == NULL || EVP_DigestSignInit_ex(ctx, NULL, "SHA256", NULL, NULL, key, NULL) != 1
            || EVP_DigestSign(ctx, signature, &length, message, sizeof message) != 1)
            return -1;
        EVP_MD_CTX_free(ctx);
    }
    double elapsed = now_ns() - start;
    EVP_PKEY_free(key);
    return elapsed / iterations;
}

double cryptokit_baseline_x25519(int iterations) {
    EVP_PKEY *mine = EVP_PKEY_Q_keygen(NULL, NULL, "X25519");
    EVP_PKEY *peer = EVP_PKEY_Q_keygen(NULL, NULL, "X25519");
    unsigned char secret[32];
    if (mine == NULL || peer == NULL) return -1;
    double start = now_ns();
    for (int i = 0; i < iterations; i++) {
        size_t length = sizeof secret;
        EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(mine, NULL);
        if (ctx == NULL || EVP_PKEY_derive_init(ctx) != 1 || EVP_PKEY_derive_set_peer(ctx, peer) != 1
            || EVP_PKEY_derive(ctx, secret, &length) != 1)
            return -1;
        EVP_PKEY_CTX_free(ctx);
    }
    double elapsed = now_ns() - start;
    EVP_PKEY_free(mine);
    EVP_PKEY_free(peer);
    return elapsed / iterations;
}

double cryptokit_baseline_p256_verify(int iterations) {
    EVP_PKEY *key = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
    unsigned char message[64], signature[80];
    size_t signature_length = sizeof signature;
    if (key == NULL) return -1;
    memset(message, 0x61, sizeof message);
    EVP_MD_CTX *signer = EVP_MD_CTX_new();
    if (signer == NULL || EVP_DigestSignInit_ex(signer, NULL, "SHA256", NULL, NULL, key, NULL) != 1
        || EVP_DigestSign(signer, signature, &signature_length, message, sizeof message) != 1)
        return -1;
    EVP_MD_CTX_free(signer);
    double start = now_ns();
    for (int i = 0; i < iterations; i++) {
        EVP_MD_CTX *ctx = EVP_MD_CTX_new();
        if (ctx == NULL || EVP_DigestVerifyInit_ex(ctx, NULL, "SHA256", NULL, NULL, key, NULL) != 1
            || EVP_DigestVerify(ctx, signature, signature_length, message, sizeof message) != 1)
            return -1;
        EVP_MD_CTX_free(ctx);
    }
    double elapsed = now_ns() - start;
    EVP_PKEY_free(key);
    return elapsed / iterations;
}

double cryptokit_baseline_rsa2048_sign(int iterations) {
    EVP_PKEY *key = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)2048);
    unsigned char message[64], signature[256];
    if (key == NULL) return -1;
    memset(message, 0x61, sizeof message);
    double start = now_ns();
    for (int i = 0; i < iterations; i++) {
        size_t length = sizeof signature;
        EVP_MD_CTX *ctx = EVP_MD_CTX_new();
        if (ctx == NULL || EVP_DigestSignInit_ex(ctx, NULL, "SHA256", NULL, NULL, key, NULL) != 1
            || EVP_DigestSign(ctx, signature, &length, message, sizeof message) != 1)
            return -1;
        EVP_MD_CTX_free(ctx);
    }
    double elapsed = now_ns() - start;
    EVP_PKEY_free(key);
    return elapsed / iterations;
}
