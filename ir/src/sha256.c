/* sha256.c - SHA-256 as specified in FIPS 180-4 (sections 4.1.2, 4.2.2, 5.1.1, 6.2). Used to
 * fingerprint contract inputs: the plain algorithm, with the rounds unrolled by eight. */
#include "sdkc/util.h"

#include <string.h>

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

static uint32_t rotr(uint32_t x, unsigned n)
{
    return (x >> n) | (x << (32 - n));
}

/* One round (FIPS 180-4 6.2.2 step 3) with the working variables named by the caller, so that
 * eight rounds in a row rename instead of shifting eight registers; kw = K[t] + W[t]. Ch and Maj
 * in their equivalent forms with fewer operations. */
#define SHA256_ROUND(a, b, c, d, e, f, g, h, kw)                                                   \
    do {                                                                                           \
        uint32_t t1_ = (h) + (rotr((e), 6) ^ rotr((e), 11) ^ rotr((e), 25)) +                      \
                       ((g) ^ ((e) & ((f) ^ (g)))) + (kw);                                         \
        uint32_t t2_ =                                                                             \
            (rotr((a), 2) ^ rotr((a), 13) ^ rotr((a), 22)) + (((a) & (b)) | ((c) & ((a) | (b))));  \
        (d) += t1_;                                                                                \
        (h) = t1_ + t2_;                                                                           \
    } while (0)

/* One 512-bit block into the running hash H (FIPS 180-4 6.2.2). */
static void compress(uint32_t H[8], const uint8_t *block)
{
    uint32_t W[64];
    for (unsigned t = 0; t < 16; t++)
        W[t] = (uint32_t)block[4 * t] << 24 | (uint32_t)block[4 * t + 1] << 16 |
               (uint32_t)block[4 * t + 2] << 8 | (uint32_t)block[4 * t + 3];
    for (unsigned t = 16; t < 64; t++) {
        uint32_t s0 = rotr(W[t - 15], 7) ^ rotr(W[t - 15], 18) ^ (W[t - 15] >> 3);
        uint32_t s1 = rotr(W[t - 2], 17) ^ rotr(W[t - 2], 19) ^ (W[t - 2] >> 10);
        W[t] = s1 + W[t - 7] + s0 + W[t - 16];
    }
    uint32_t a = H[0], b = H[1], c = H[2], d = H[3], e = H[4], f = H[5], g = H[6], h = H[7];
    for (unsigned t = 0; t < 64; t += 8) {
        SHA256_ROUND(a, b, c, d, e, f, g, h, K[t] + W[t]);
        SHA256_ROUND(h, a, b, c, d, e, f, g, K[t + 1] + W[t + 1]);
        SHA256_ROUND(g, h, a, b, c, d, e, f, K[t + 2] + W[t + 2]);
        SHA256_ROUND(f, g, h, a, b, c, d, e, K[t + 3] + W[t + 3]);
        SHA256_ROUND(e, f, g, h, a, b, c, d, K[t + 4] + W[t + 4]);
        SHA256_ROUND(d, e, f, g, h, a, b, c, K[t + 5] + W[t + 5]);
        SHA256_ROUND(c, d, e, f, g, h, a, b, K[t + 6] + W[t + 6]);
        SHA256_ROUND(b, c, d, e, f, g, h, a, K[t + 7] + W[t + 7]);
    }
    H[0] += a;
    H[1] += b;
    H[2] += c;
    H[3] += d;
    H[4] += e;
    H[5] += f;
    H[6] += g;
    H[7] += h;
}

void sdkc_sha256(uint8_t out[32], const void *data, size_t len)
{
    uint32_t H[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                     0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    const uint8_t *p = data;
    size_t left = len;
    while (left >= 64) {
        compress(H, p);
        p += 64;
        left -= 64;
    }
    /* Padding (5.1.1): a 1 bit, zeros, then the message length in bits as 64-bit big endian;
     * one or two final blocks. */
    uint8_t tail[128];
    memset(tail, 0, sizeof tail);
    if (left)
        memcpy(tail, p, left);
    tail[left] = 0x80;
    size_t tail_len = left + 1 + 8 <= 64 ? 64 : 128;
    uint64_t bits = (uint64_t)len * 8u;
    for (unsigned i = 0; i < 8; i++)
        tail[tail_len - 1 - i] = (uint8_t)(bits >> (8 * i));
    compress(H, tail);
    if (tail_len == 128)
        compress(H, tail + 64);
    for (unsigned i = 0; i < 8; i++) {
        out[4 * i] = (uint8_t)(H[i] >> 24);
        out[4 * i + 1] = (uint8_t)(H[i] >> 16);
        out[4 * i + 2] = (uint8_t)(H[i] >> 8);
        out[4 * i + 3] = (uint8_t)H[i];
    }
}

void sdkc_sha256_hex(char out[65], const void *data, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    uint8_t digest[32];
    sdkc_sha256(digest, data, len);
    for (unsigned i = 0; i < 32; i++) {
        out[2 * i] = hex[digest[i] >> 4];
        out[2 * i + 1] = hex[digest[i] & 15];
    }
    out[64] = '\0';
}
