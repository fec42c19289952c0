#ifndef CRYPTOKIT_BASELINE_H
#define CRYPTOKIT_BASELINE_H
#include <stddef.h>

// The operations cryptokit-benchmarks times, written directly against OpenSSL 3 libcrypto in C, the way a C
// program would do each one. Every function runs `iterations` operations and returns the nanoseconds per
// operation, or a negative value when OpenSSL fails.

/// SHA-256 of `length` bytes (EVP_Digest with a prefetched EVP_MD).
double cryptokit_baseline_sha256(size_t length, int iterations);

/// AES-256-GCM seal of `length` bytes with a fresh random 12-byte nonce (RAND_bytes), into a preallocated
/// buffer: context new, init with key and nonce, update, final, tag, free.
double cryptokit_baseline_aes_gcm_seal(size_t length, int iterations);

/// ECDSA P-256 with SHA-256 over a 64-byte message with one key made beforehand (EVP_DigestSign).
double cryptokit_baseline_p256_sign(int iterations);

/// X25519 with a private and a peer key made beforehand (EVP_PKEY_derive, context per operation).
double cryptokit_baseline_x25519(int iterations);

/// ECDSA P-256 with SHA-256 verification of one signature over a 64-byte message (EVP_DigestVerify).
double cryptokit_baseline_p256_verify(int iterations);

/// RSA-2048 PKCS #1 v1.5 with SHA-256 over a 64-byte message with one key made beforehand (EVP_DigestSign).
double cryptokit_baseline_rsa2048_sign(int iterations);

#endif
