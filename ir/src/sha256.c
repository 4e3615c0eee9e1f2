/* sha256.c - SHA-256 as specified in FIPS 180-4 (sections 4.1.2, 4.2.2, 5.1.1, 6.2). Used to
 * fingerprint contract inputs: the plain algorithm, fully unrolled, with the schedule in a ring of
 * 16 words. */
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

/* The four functions of FIPS 180-4 4.1.2 with the rotations nested: rotr(x, 6) ^ rotr(x, 11) ^
 * rotr(x, 25) == rotr(x ^ rotr(x ^ rotr(x, 14), 5), 6), and so on. Same values, fewer copies of x
 * on two-operand machines. */
#define BSIG0(x) rotr((x) ^ rotr((x) ^ rotr((x), 9), 11), 2)
#define BSIG1(x) rotr((x) ^ rotr((x) ^ rotr((x), 14), 5), 6)
#define SSIG0(x) (rotr((x) ^ rotr((x), 11), 7) ^ ((x) >> 3))
#define SSIG1(x) (rotr((x) ^ rotr((x), 2), 17) ^ ((x) >> 10))

/* One round (FIPS 180-4 6.2.2 step 3) with the working variables named by the caller, so that
 * consecutive rounds rename instead of shifting eight registers. Ch(e, f, g) = g ^ (e & (f ^ g));
 * Maj(a, b, c) = b ^ ((a ^ b) & (b ^ c)), where b ^ c is the previous round's a ^ b: ab carries
 * it from round to round (set to b ^ c before the first). */
#define SHA256_ROUND(a, b, c, d, e, f, g, h, kw)                                                   \
    do {                                                                                           \
        uint32_t t1_ = (h) + BSIG1(e) + ((g) ^ ((e) & ((f) ^ (g)))) + (kw);                        \
        uint32_t ab_ = (a) ^ (b);                                                                  \
        (d) += t1_;                                                                                \
        (h) = t1_ + BSIG0(a) + ((b) ^ (ab_ & bc));                                                 \
        bc = ab_;                                                                                  \
    } while (0)

static uint32_t load_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/* The schedule in a ring of 16 words (FIPS 180-4 6.2.2 step 1, computed as the rounds need it). */
#define W16(t)   w[(t)&15]
#define SCHED(t) (W16(t) += SSIG1(W16((t)-2)) + W16((t)-7) + SSIG0(W16((t)-15)))

#define EIGHT(t, wt)                                                                               \
    do {                                                                                           \
        SHA256_ROUND(a, b, c, d, e, f, g, h, K[(t)] + wt((t)));                                    \
        SHA256_ROUND(h, a, b, c, d, e, f, g, K[(t) + 1] + wt((t) + 1));                            \
        SHA256_ROUND(g, h, a, b, c, d, e, f, K[(t) + 2] + wt((t) + 2));                            \
        SHA256_ROUND(f, g, h, a, b, c, d, e, K[(t) + 3] + wt((t) + 3));                            \
        SHA256_ROUND(e, f, g, h, a, b, c, d, K[(t) + 4] + wt((t) + 4));                            \
        SHA256_ROUND(d, e, f, g, h, a, b, c, K[(t) + 5] + wt((t) + 5));                            \
        SHA256_ROUND(c, d, e, f, g, h, a, b, K[(t) + 6] + wt((t) + 6));                            \
        SHA256_ROUND(b, c, d, e, f, g, h, a, K[(t) + 7] + wt((t) + 7));                            \
    } while (0)

/* Blocks of 64 bytes into the running hash H (FIPS 180-4 6.2.2). */
static void compress(uint32_t H[8], const uint8_t *p, size_t nblocks)
{
    uint32_t a = H[0], b = H[1], c = H[2], d = H[3], e = H[4], f = H[5], g = H[6], h = H[7];
    for (; nblocks; nblocks--, p += 64) {
        uint32_t w[16];
        for (unsigned t = 0; t < 16; t++)
            w[t] = load_be32(p + 4 * t);
        uint32_t bc = b ^ c;
        EIGHT(0, W16);
        EIGHT(8, W16);
        EIGHT(16, SCHED);
        EIGHT(24, SCHED);
        EIGHT(32, SCHED);
        EIGHT(40, SCHED);
        EIGHT(48, SCHED);
        EIGHT(56, SCHED);
        a = H[0] += a;
        b = H[1] += b;
        c = H[2] += c;
        d = H[3] += d;
        e = H[4] += e;
        f = H[5] += f;
        g = H[6] += g;
        h = H[7] += h;
    }
}

void sdkc_sha256(uint8_t out[32], const void *data, size_t len)
{
    uint32_t H[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                     0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    const uint8_t *p = data;
    size_t left = len;
    compress(H, p, left / 64);
    p += left / 64 * 64;
    left %= 64;
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
    compress(H, tail, tail_len / 64);
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
