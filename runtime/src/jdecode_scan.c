/* The lexer of the one-pass JSON decoder (jdecode_scan.h): strings, numbers, words and the keys
 * of objects checked as jansson checks them, and values checked and passed over without storing
 * them. The rules are listed at the top of jdecode.c. */
#include "jdecode_scan.h"

#include "internal.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Keys of one object compared pairwise up to this many; beyond it, sorted when it closes. */
#define LINEAR_KEYS 16

/* Bytes a string can hold as they are: printable ASCII other than '"' and '\\'. */
static const unsigned char plain[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

/* Consume byte c after whitespace. */
static bool expect(jd *d, char c)
{
    if (sdkrt_jd_peek_(d) != (unsigned char)c)
        return false;
    d->p++;
    return true;
}

/* ---- strings ---- */

/* Four hex digits at p (before end) as a code unit, or -1. */
static long hex4(const unsigned char *p, const unsigned char *end)
{
    if (end - p < 4)
        return -1;
    long v = 0;
    for (int i = 0; i < 4; i++) {
        int h = sdkrt_hex_digit_(p[i]);
        if (h < 0)
            return -1;
        v = v * 16 + h;
    }
    return v;
}

/* Length of the valid UTF-8 sequence of two to four bytes at p, or 0 (jansson's utf8_check_*). */
static size_t utf8_len(const unsigned char *p, const unsigned char *end)
{
    unsigned c = p[0];
    size_t n;
    unsigned lo = 0x80, hi = 0xBF; /* range of the second byte */
    if (c < 0xC2)
        return 0;
    if (c < 0xE0) {
        n = 2;
    } else if (c < 0xF0) {
        n = 3;
        if (c == 0xE0)
            lo = 0xA0; /* overlong */
        else if (c == 0xED)
            hi = 0x9F; /* surrogates */
    } else if (c < 0xF5) {
        n = 4;
        if (c == 0xF0)
            lo = 0x90; /* overlong */
        else if (c == 0xF4)
            hi = 0x8F; /* past U+10FFFF */
    } else {
        return 0;
    }
    if ((size_t)(end - p) < n || p[1] < lo || p[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (p[i] < 0x80 || p[i] > 0xBF)
            return 0;
    return n;
}

/* The string at d->p (a '"'), checked as jansson checks it; d->p moves past it. *raw and *len
 * are the bytes between the quotes, *esc whether they hold a backslash. */
bool sdkrt_jd_scan_string_(jd *d, const char **raw, size_t *len, bool *esc)
{
    const unsigned char *p = (const unsigned char *)d->p + 1;
    const unsigned char *end = (const unsigned char *)d->end;
    bool e = false;
    for (;;) {
        while (p < end && plain[*p])
            p++;
        if (p >= end)
            return false;
        unsigned c = *p;
        if (c == '"')
            break;
        if (c == '\\') {
            e = true;
            if (end - p < 2)
                return false;
            c = p[1];
            if (c == 'u') {
                long v = hex4(p + 2, end);
                if (v < 0)
                    return false;
                p += 6;
                if (v >= 0xD800 && v <= 0xDBFF) {
                    if (end - p < 2 || p[0] != '\\' || p[1] != 'u')
                        return false;
                    long v2 = hex4(p + 2, end);
                    if (v2 < 0xDC00 || v2 > 0xDFFF)
                        return false;
                    p += 6;
                } else if (v >= 0xDC00 && v <= 0xDFFF) {
                    return false;
                }
            } else if (c == '"' || c == '\\' || c == '/' || c == 'b' || c == 'f' || c == 'n' ||
                       c == 'r' || c == 't') {
                p += 2;
            } else {
                return false;
            }
            continue;
        }
        if (c < 0x20)
            return false;
        size_t n = utf8_len(p, end); /* c >= 0x80 */
        if (!n)
            return false;
        p += n;
    }
    *raw = d->p + 1;
    *len = (size_t)((const char *)p - *raw);
    *esc = e;
    d->p = (const char *)p + 1;
    return true;
}

/* Decode the escapes of a checked string's bytes into out (room for len bytes); the decoded
 * length, never more than len. */
static size_t unescape(const char *raw, size_t len, char *out)
{
    const unsigned char *p = (const unsigned char *)raw, *end = p + len;
    char *o = out;
    while (p < end) {
        if (*p != '\\') {
            *o++ = (char)*p++;
            continue;
        }
        unsigned c = p[1];
        p += 2;
        switch (c) {
        case 'b':
            *o++ = '\b';
            continue;
        case 'f':
            *o++ = '\f';
            continue;
        case 'n':
            *o++ = '\n';
            continue;
        case 'r':
            *o++ = '\r';
            continue;
        case 't':
            *o++ = '\t';
            continue;
        case 'u':
            break;
        default: /* " \ / */
            *o++ = (char)c;
            continue;
        }
        unsigned long v = (unsigned long)hex4(p, end);
        p += 4;
        if (v >= 0xD800 && v <= 0xDBFF) { /* checked: a low surrogate escape follows */
            unsigned long v2 = (unsigned long)hex4(p + 2, end);
            p += 6;
            v = ((v - 0xD800) << 10) + (v2 - 0xDC00) + 0x10000;
        }
        if (v < 0x80) {
            *o++ = (char)v;
        } else if (v < 0x800) {
            *o++ = (char)(0xC0 | (v >> 6));
            *o++ = (char)(0x80 | (v & 0x3F));
        } else if (v < 0x10000) {
            *o++ = (char)(0xE0 | (v >> 12));
            *o++ = (char)(0x80 | ((v >> 6) & 0x3F));
            *o++ = (char)(0x80 | (v & 0x3F));
        } else {
            *o++ = (char)(0xF0 | (v >> 18));
            *o++ = (char)(0x80 | ((v >> 12) & 0x3F));
            *o++ = (char)(0x80 | ((v >> 6) & 0x3F));
            *o++ = (char)(0x80 | (v & 0x3F));
        }
    }
    return (size_t)(o - out);
}

/* A new NUL-terminated copy of a checked string's decoded bytes; *n its length. */
char *sdkrt_jd_string_copy_(const char *raw, size_t len, bool esc, size_t *n)
{
    char *s = malloc(len + 1);
    if (!s)
        return NULL;
    if (esc) {
        *n = unescape(raw, len, s);
    } else {
        memcpy(s, raw, len);
        *n = len;
    }
    s[*n] = '\0';
    return s;
}

/* ---- numbers ---- */

/* strtod of s[0..len) as jansson calls it (the locale's decimal point). */
static int to_double(const char *s, size_t len, double *out)
{
    char small[64];
    char *buf = len < sizeof small ? small : malloc(len + 1);
    if (!buf)
        return NOMEM;
    memcpy(buf, s, len);
    buf[len] = '\0';
    const char *point = localeconv()->decimal_point;
    if (point && point[0] && point[0] != '.') {
        char *dot = memchr(buf, '.', len);
        if (dot)
            *dot = point[0];
    }
    errno = 0;
    double v = strtod(buf, NULL);
    int r = (v == HUGE_VAL || v == -HUGE_VAL) && errno == ERANGE ? BAD : OK;
    if (buf != small)
        free(buf);
    *out = v;
    return r;
}

/* The number at d->p; d->p moves past it. */
int sdkrt_jd_scan_number_(jd *d, jnum *n)
{
    const char *s = d->p, *p = s, *end = d->end;
    if (p < end && *p == '-')
        p++;
    if (p >= end)
        return BAD;
    if (*p == '0') {
        p++;
        if (p < end && sdkrt_jd_is_digit_(*p))
            return BAD;
    } else if (sdkrt_jd_is_digit_(*p)) {
        while (p < end && sdkrt_jd_is_digit_(*p))
            p++;
    } else {
        return BAD;
    }
    bool real = false;
    if (p < end && *p == '.') {
        p++;
        if (p >= end || !sdkrt_jd_is_digit_(*p))
            return BAD;
        while (p < end && sdkrt_jd_is_digit_(*p))
            p++;
        real = true;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < end && (*p == '+' || *p == '-'))
            p++;
        if (p >= end || !sdkrt_jd_is_digit_(*p))
            return BAD;
        while (p < end && sdkrt_jd_is_digit_(*p))
            p++;
        real = true;
    }
    d->p = p;
    sdkrt_jd_skip_ungot_nul_(d);
    size_t len = (size_t)(p - s);
    n->is_int = !real;
    if (real)
        return to_double(s, len, &n->r);
    bool neg = s[0] == '-';
    size_t digits = len - neg;
    if (digits <= 18) { /* fits whatever the digits */
        int64_t v = 0;
        for (const char *q = s + neg; q < p; q++)
            v = v * 10 + (*q - '0');
        n->i = neg ? -v : v;
        return OK;
    }
    if (digits > 19) /* no leading zeros: out of int64 */
        return BAD;
    char buf[24];
    memcpy(buf, s, len);
    buf[len] = '\0';
    errno = 0;
    long long v = strtoll(buf, NULL, 10);
    if (errno == ERANGE)
        return BAD;
    n->i = (int64_t)v;
    return OK;
}

/* ---- keys of an object ---- */

static const char *key_bytes(const jd *d, const jkey *k)
{
    return k->ptr ? k->ptr : d->scratch + k->off;
}

static int key_cmp(const void *a, const void *b)
{
    const jkey *x = a, *y = b;
    if (x->len != y->len)
        return x->len < y->len ? -1 : 1;
    return memcmp(x->ptr, y->ptr, x->len);
}

/* Record a key of the object whose keys start at base; BAD when it repeats one. */
int sdkrt_jd_key_add_(jd *d, size_t base, const char *ptr, size_t off, size_t len)
{
    if (d->nkeys == d->capkeys) {
        size_t cap = d->capkeys ? d->capkeys * 2 : 32;
        jkey *k = realloc(d->keys, cap * sizeof *k);
        if (!k)
            return NOMEM;
        d->keys = k;
        d->capkeys = cap;
    }
    jkey *k = &d->keys[d->nkeys++];
    k->ptr = ptr;
    k->off = off;
    k->len = len;
    if (d->nkeys - base > LINEAR_KEYS)
        return OK; /* checked when the object closes */
    const char *b = key_bytes(d, k);
    for (size_t i = base; i + 1 < d->nkeys; i++) {
        const jkey *o = &d->keys[i];
        if (o->len == len && memcmp(key_bytes(d, o), b, len) == 0)
            return BAD;
    }
    return OK;
}

/* Close the object whose keys start at base: BAD when two of many keys are equal. */
int sdkrt_jd_keys_close_(jd *d, size_t base)
{
    size_t n = d->nkeys - base;
    int r = OK;
    if (n > LINEAR_KEYS) {
        jkey *k = d->keys + base;
        for (size_t i = 0; i < n; i++) {
            k[i].ptr = key_bytes(d, &k[i]);
        }
        qsort(k, n, sizeof *k, key_cmp);
        for (size_t i = 1; i < n && r == OK; i++)
            if (key_cmp(&k[i - 1], &k[i]) == 0)
                r = BAD;
    }
    d->nkeys = base;
    return r;
}

/* The key at d->p, decoded: *key points into the text, or (escaped keys) into the scratch
 * buffer at d->slen, not yet kept. Keys holding NUL are refused (jansson does). */
int sdkrt_jd_scan_key_(jd *d, const char **key, size_t *len, bool *in_scratch)
{
    const char *raw;
    size_t n;
    bool esc;
    if (sdkrt_jd_peek_(d) != '"' || !sdkrt_jd_scan_string_(d, &raw, &n, &esc))
        return BAD;
    *in_scratch = esc;
    if (!esc) {
        *key = raw;
        *len = n;
    } else {
        if (d->scap - d->slen < n) {
            size_t cap = d->scap ? d->scap : 256;
            while (cap - d->slen < n)
                cap *= 2;
            char *s = realloc(d->scratch, cap);
            if (!s)
                return NOMEM;
            d->scratch = s;
            d->scap = cap;
        }
        *len = unescape(raw, n, d->scratch + d->slen);
        *key = d->scratch + d->slen;
        if (memchr(*key, '\0', *len))
            return BAD;
    }
    return expect(d, ':') && sdkrt_jd_peek_(d) >= 0 ? OK : BAD;
}

/* ---- checking without storing ---- */

int sdkrt_jd_skip_inner_(jd *d)
{
    switch (*d->p) {
    case '"': {
        const char *raw;
        size_t len;
        bool esc;
        return sdkrt_jd_scan_string_(d, &raw, &len, &esc) ? OK : BAD;
    }
    case 't':
        return sdkrt_jd_scan_word_(d, "true", 4) ? OK : BAD;
    case 'f':
        return sdkrt_jd_scan_word_(d, "false", 5) ? OK : BAD;
    case 'n':
        return sdkrt_jd_scan_word_(d, "null", 4) ? OK : BAD;
    case '[': {
        d->p++;
        if (sdkrt_jd_peek_(d) == ']') {
            d->p++;
            return OK;
        }
        bool more = true;
        while (more) {
            if (sdkrt_jd_peek_(d) < 0)
                return BAD;
            int r = sdkrt_jd_skip_value_(d);
            if (r != OK)
                return r;
            if (!sdkrt_jd_next_member_(d, ']', &more))
                return BAD;
        }
        return OK;
    }
    case '{': {
        d->p++;
        if (sdkrt_jd_peek_(d) == '}') {
            d->p++;
            return OK;
        }
        size_t base = d->nkeys, sbase = d->slen;
        int r = OK;
        bool more = true;
        while (more && r == OK) {
            const char *key;
            size_t len;
            bool in_scratch;
            r = sdkrt_jd_scan_key_(d, &key, &len, &in_scratch);
            if (r == OK)
                r = sdkrt_jd_key_keep_(d, base, key, len, in_scratch);
            if (r == OK)
                r = sdkrt_jd_skip_value_(d);
            if (r == OK && !sdkrt_jd_next_member_(d, '}', &more))
                r = BAD;
        }
        if (r == OK)
            r = sdkrt_jd_keys_close_(d, base);
        d->nkeys = base;
        d->slen = sbase;
        return r;
    }
    default: {
        jnum n;
        return sdkrt_jd_scan_number_(d, &n);
    }
    }
}

/* The value at d->p as a jansson value of its own (ANY, unknown variants), checked first so
 * that the depth and every rule apply as in the whole text. */
int sdkrt_jd_load_span_(jd *d, json_t **out)
{
    const char *start = d->p;
    int r = sdkrt_jd_skip_inner_(d);
    if (r != OK)
        return r;
    *out = json_loadb(start, (size_t)(d->p - start), SDKRT_JSON_LOAD_FLAGS, NULL);
    return *out ? OK : NOMEM; /* the span was checked: only memory can fail */
}
