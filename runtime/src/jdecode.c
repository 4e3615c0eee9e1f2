/* One-pass JSON decoder: text straight into generated values, driven by the sdkrt_jtype tables
 * (see jdecode.h for the contract). The rules follow jansson 2.14's lexer and parser with
 * SDKRT_JSON_LOAD_FLAGS, then json.c's decode() on the tree that would have come out of it:
 *
 *  - whitespace is space, tab, LF, CR; one value, then only whitespace;
 *  - strings: no control characters below 0x20, escapes \" \\ \/ \b \f \n \r \t \uXXXX, a high
 *    surrogate escape must be followed by a low one, a lone low one is refused, raw bytes are
 *    valid UTF-8 (no overlong forms, no surrogates, nothing past U+10FFFF); \u0000 is kept in
 *    values but refused in object keys;
 *  - numbers: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?; without fraction and exponent an
 *    integer that must fit int64 (strtoll), otherwise a double that must not overflow (strtod);
 *  - true, false, null; every value counts one level of depth, beyond SDKRT_JD_MAX_DEPTH refused;
 *  - duplicate keys refused in every object, also in values that are only checked and skipped.
 *
 * Objects are matched to fields by a linear probe that starts after the last field matched
 * (servers send fields in schema order, so it is one comparison per key in the common case), with
 * one bit per field to refuse duplicates; keys the type does not declare are kept on a stack of
 * spans and compared pairwise, or sorted when an object has many. No hash table, no tree. */
#include "jdecode.h"

#include "internal.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { OK = SDKRT_JD_OK_, BAD = SDKRT_JD_MALFORMED_, NOMEM = SDKRT_JD_OOM_ };

/* Keys of one object compared pairwise up to this many; beyond it, sorted when it closes. */
#define LINEAR_KEYS 16

/* A key seen in an object: bytes at ptr, or (ptr NULL) at off in the scratch buffer. */
typedef struct jkey {
    const char *ptr;
    size_t off;
    size_t len;
} jkey;

typedef struct jd {
    const char *p;   /* next byte */
    const char *end; /* one past the text */
    size_t depth;    /* values open, as jansson counts them */
    jkey *keys;      /* keys of the open objects that no field took */
    size_t nkeys, capkeys;
    char *scratch; /* decoded escaped keys */
    size_t slen, scap;
} jd;

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

static bool is_digit(int c)
{
    return c >= '0' && c <= '9';
}

static void ws(jd *d)
{
    while (d->p < d->end && (*d->p == ' ' || *d->p == '\n' || *d->p == '\r' || *d->p == '\t'))
        d->p++;
}

/* The next non-whitespace byte (d->p moved to it), or -1 at the end. */
static int peek(jd *d)
{
    ws(d);
    return d->p < d->end ? (unsigned char)*d->p : -1;
}

/* Consume byte c after whitespace. */
static bool expect(jd *d, char c)
{
    if (peek(d) != (unsigned char)c)
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
static bool scan_string(jd *d, const char **raw, size_t *len, bool *esc)
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
static char *string_copy(const char *raw, size_t len, bool esc, size_t *n)
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

/* ---- numbers and words ---- */

typedef struct jnum {
    bool is_int;
    int64_t i;
    double r;
} jnum;

static double num_value(const jnum *n)
{
    return n->is_int ? (double)n->i : n->r;
}

/* jansson reads one byte past a number or a word and puts it back; a NUL byte put back is lost
 * (its stream takes a NUL in its one-character buffer for "empty"), so "1\0" loads as 1. The
 * same byte is skipped here, so that both accept the same texts. */
static void skip_ungot_nul(jd *d)
{
    if (d->p < d->end && *d->p == '\0')
        d->p++;
}

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
static int scan_number(jd *d, jnum *n)
{
    const char *s = d->p, *p = s, *end = d->end;
    if (p < end && *p == '-')
        p++;
    if (p >= end)
        return BAD;
    if (*p == '0') {
        p++;
        if (p < end && is_digit(*p))
            return BAD;
    } else if (is_digit(*p)) {
        while (p < end && is_digit(*p))
            p++;
    } else {
        return BAD;
    }
    bool real = false;
    if (p < end && *p == '.') {
        p++;
        if (p >= end || !is_digit(*p))
            return BAD;
        while (p < end && is_digit(*p))
            p++;
        real = true;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < end && (*p == '+' || *p == '-'))
            p++;
        if (p >= end || !is_digit(*p))
            return BAD;
        while (p < end && is_digit(*p))
            p++;
        real = true;
    }
    d->p = p;
    skip_ungot_nul(d);
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

/* The word w (true, false, null) at d->p. */
static bool scan_word(jd *d, const char *w, size_t n)
{
    if ((size_t)(d->end - d->p) < n || memcmp(d->p, w, n) != 0)
        return false;
    d->p += n;
    skip_ungot_nul(d);
    return true;
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
static int key_add(jd *d, size_t base, const char *ptr, size_t off, size_t len)
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
static int keys_close(jd *d, size_t base)
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
static int scan_key(jd *d, const char **key, size_t *len, bool *in_scratch)
{
    const char *raw;
    size_t n;
    bool esc;
    if (peek(d) != '"' || !scan_string(d, &raw, &n, &esc))
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
    return expect(d, ':') && peek(d) >= 0 ? OK : BAD;
}

/* Keep the key scan_key returned as a key of the object starting at base. */
static int key_keep(jd *d, size_t base, const char *key, size_t len, bool in_scratch)
{
    if (!in_scratch)
        return key_add(d, base, key, 0, len);
    size_t off = d->slen;
    d->slen += len;
    return key_add(d, base, NULL, off, len);
}

/* After a member or an item: OK with *more true at ',', false at the closing byte. */
static bool next_member(jd *d, char close, bool *more)
{
    int c = peek(d);
    *more = false;
    if (c < 0)
        return false;
    d->p++;
    if (c == ',') {
        *more = true;
        return true;
    }
    return c == close;
}

/* ---- checking without storing ---- */

static int skip_value(jd *d);

/* The value at d->p (its depth already counted), checked and passed over. */
static int skip_inner(jd *d)
{
    switch (*d->p) {
    case '"': {
        const char *raw;
        size_t len;
        bool esc;
        return scan_string(d, &raw, &len, &esc) ? OK : BAD;
    }
    case 't':
        return scan_word(d, "true", 4) ? OK : BAD;
    case 'f':
        return scan_word(d, "false", 5) ? OK : BAD;
    case 'n':
        return scan_word(d, "null", 4) ? OK : BAD;
    case '[': {
        d->p++;
        if (peek(d) == ']') {
            d->p++;
            return OK;
        }
        bool more = true;
        while (more) {
            if (peek(d) < 0)
                return BAD;
            int r = skip_value(d);
            if (r != OK)
                return r;
            if (!next_member(d, ']', &more))
                return BAD;
        }
        return OK;
    }
    case '{': {
        d->p++;
        if (peek(d) == '}') {
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
            r = scan_key(d, &key, &len, &in_scratch);
            if (r == OK)
                r = key_keep(d, base, key, len, in_scratch);
            if (r == OK)
                r = skip_value(d);
            if (r == OK && !next_member(d, '}', &more))
                r = BAD;
        }
        if (r == OK)
            r = keys_close(d, base);
        d->nkeys = base;
        d->slen = sbase;
        return r;
    }
    default: {
        jnum n;
        return scan_number(d, &n);
    }
    }
}

/* One more value (at d->p, after whitespace): counts its depth. */
static int skip_value(jd *d)
{
    if (d->depth >= SDKRT_JD_MAX_DEPTH)
        return BAD;
    d->depth++;
    int r = skip_inner(d);
    d->depth--;
    return r;
}

/* The value at d->p as a jansson value of its own (ANY, unknown variants), checked first so
 * that the depth and every rule apply as in the whole text. */
static int load_span(jd *d, json_t **out)
{
    const char *start = d->p;
    int r = skip_inner(d);
    if (r != OK)
        return r;
    *out = json_loadb(start, (size_t)(d->p - start), SDKRT_JSON_LOAD_FLAGS, NULL);
    return *out ? OK : NOMEM; /* the span was checked: only memory can fail */
}

/* ---- decoding ---- */

static int dk(jd *d, const sdkrt_jtype *t, void *v);

/* One more value into v: counts its depth. */
static int dv(jd *d, const sdkrt_jtype *t, unsigned flags, void *place)
{
    if (d->depth >= SDKRT_JD_MAX_DEPTH)
        return BAD;
    d->depth++;
    int r;
    if (!(flags & SDKRT_JF_BOXED)) {
        r = dk(d, t, place);
    } else {
        void *box = calloc(1, t->size ? t->size : 1);
        if (!box) {
            r = NOMEM;
        } else if ((r = dk(d, t, box)) != OK) {
            free(box);
        } else {
            *(void **)place = box;
        }
    }
    d->depth--;
    return r;
}

/* The same value as another type (union variant, nullable content): no depth of its own. */
static int dk_place(jd *d, const sdkrt_jtype *t, unsigned flags, void *place)
{
    if (!(flags & SDKRT_JF_BOXED))
        return dk(d, t, place);
    void *box = calloc(1, t->size ? t->size : 1);
    if (!box)
        return NOMEM;
    int r = dk(d, t, box);
    if (r != OK) {
        free(box);
        return r;
    }
    *(void **)place = box;
    return OK;
}

/* A scalar at d->p for comparing with a literal. */
typedef struct jscalar {
    int kind; /* '"' string, '0' number, 't' true, 'f' false, 'n' null */
    const char *raw;
    size_t len;
    bool esc;
    jnum num;
} jscalar;

static int scan_scalar(jd *d, jscalar *s)
{
    int c = peek(d);
    s->kind = c;
    switch (c) {
    case '"':
        return scan_string(d, &s->raw, &s->len, &s->esc) ? OK : BAD;
    case 't':
        return scan_word(d, "true", 4) ? OK : BAD;
    case 'f':
        return scan_word(d, "false", 5) ? OK : BAD;
    case 'n':
        return scan_word(d, "null", 4) ? OK : BAD;
    case '{':
    case '[':
    case -1:
        return BAD;
    default:
        s->kind = '0';
        return scan_number(d, &s->num);
    }
}

/* Whether two scanned strings hold the same bytes. */
static int same_string(const jscalar *a, const jscalar *b, bool *same)
{
    if (!a->esc && !b->esc) {
        *same = a->len == b->len && memcmp(a->raw, b->raw, a->len) == 0;
        return OK;
    }
    size_t na, nb;
    char *x = string_copy(a->raw, a->len, a->esc, &na);
    char *y = string_copy(b->raw, b->len, b->esc, &nb);
    int r = x && y ? OK : NOMEM;
    *same = x && y && na == nb && memcmp(x, y, na) == 0;
    free(x);
    free(y);
    return r;
}

/* A LITERAL: the value must equal t->literal as json_equal sees it (numbers by value). */
static int dk_literal(jd *d, const sdkrt_jtype *t)
{
    const char *lit = t->literal ? t->literal : "null";
    jd ld = {.p = lit, .end = lit + strlen(lit)};
    jscalar want, got;
    if (scan_scalar(&ld, &want) != OK) {
        /* An object or array literal: compare trees, as json.c does. */
        json_t *a = NULL;
        int r = load_span(d, &a);
        if (r != OK)
            return r;
        json_t *b = json_loads(lit, JSON_DECODE_ANY, NULL);
        r = b ? (json_equal(a, b) ? OK : BAD) : NOMEM;
        json_decref(a);
        json_decref(b);
        return r;
    }
    if (*d->p == '{' || *d->p == '[')
        return BAD;
    int r = scan_scalar(d, &got);
    if (r != OK)
        return r;
    if (want.kind != got.kind)
        return BAD;
    bool same = true;
    if (want.kind == '"') {
        r = same_string(&want, &got, &same);
        if (r != OK)
            return r;
    } else if (want.kind == '0') {
        same = (want.num.is_int && got.num.is_int && want.num.i == got.num.i) ||
               num_value(&want.num) == num_value(&got.num);
    }
    return same ? OK : BAD;
}

/* strcmp(name, the C string of the decoded key) == 0, for a key without NUL bytes. */
static bool name_is(const char *name, const char *key, size_t len)
{
    return name[0] == (len ? key[0] : '\0') && strncmp(name, key, len) == 0 && name[len] == '\0';
}

/* The field of t named key, probing from *hint on; t->nfields when none. */
static size_t find_field(const sdkrt_jtype *t, const char *key, size_t len, size_t *hint)
{
    size_t n = t->nfields;
    for (size_t k = 0, i = *hint; k < n; k++, i++) {
        if (i >= n)
            i = 0;
        if (name_is(t->fields[i].name, key, len)) {
            *hint = i + 1;
            return i;
        }
    }
    return n;
}

/* A member value for field f of the object at base (json.c's decode_object rules). */
static int dk_field(jd *d, const sdkrt_jfield *f, char *base)
{
    bool is_null = *d->p == 'n';
    if (is_null && f->null_offset == SDKRT_JNONE && f->type->kind != SDKRT_JK_NULL &&
        f->type->kind != SDKRT_JK_ANY) {
        /* null where the contract has no null: absent, which a required field may not be */
        if (d->depth >= SDKRT_JD_MAX_DEPTH || !scan_word(d, "null", 4))
            return BAD;
        return (f->flags & SDKRT_JF_REQUIRED) ? BAD : OK;
    }
    if (f->has_offset != SDKRT_JNONE)
        *(bool *)(base + f->has_offset) = true;
    if (is_null && f->null_offset != SDKRT_JNONE) {
        if (d->depth >= SDKRT_JD_MAX_DEPTH || !scan_word(d, "null", 4))
            return BAD;
        *(bool *)(base + f->null_offset) = true;
        return OK;
    }
    if (f->offset == SDKRT_JNONE) {
        char dummy = 0; /* nothing stored (a literal): still checked */
        return dv(d, f->type, 0, &dummy);
    }
    return dv(d, f->type, f->flags, base + f->offset);
}

static int dk_object(jd *d, const sdkrt_jtype *t, void *v)
{
    if (*d->p != '{')
        return BAD;
    d->p++;
    uint64_t small[4] = {0};
    uint64_t *seen = small;
    size_t words = (t->nfields + 63) / 64;
    if (words > 4) {
        seen = calloc(words, sizeof *seen);
        if (!seen)
            return NOMEM;
    }
    size_t base = d->nkeys, sbase = d->slen, hint = 0;
    int r = OK;
    bool more = peek(d) != '}';
    if (!more)
        d->p++;
    while (more && r == OK) {
        const char *key;
        size_t len;
        bool in_scratch;
        r = scan_key(d, &key, &len, &in_scratch);
        if (r != OK)
            break;
        size_t i = find_field(t, key, len, &hint);
        if (i == t->nfields) {
            r = key_keep(d, base, key, len, in_scratch);
            if (r == OK)
                r = skip_value(d);
        } else if (seen[i / 64] & ((uint64_t)1 << (i % 64))) {
            r = BAD; /* duplicate key */
        } else {
            seen[i / 64] |= (uint64_t)1 << (i % 64);
            r = dk_field(d, &t->fields[i], v);
        }
        if (r == OK && !next_member(d, '}', &more))
            r = BAD;
    }
    if (r == OK)
        r = keys_close(d, base);
    for (size_t i = 0; i < t->nfields && r == OK; i++)
        if ((t->fields[i].flags & SDKRT_JF_REQUIRED) && !(seen[i / 64] & ((uint64_t)1 << (i % 64))))
            r = BAD; /* missing required field */
    d->nkeys = base;
    d->slen = sbase;
    if (seen != small)
        free(seen);
    if (r != OK)
        sdkrt_json_cleanup(t, v);
    return r;
}

/* Find the discriminator of the object at d->p without moving: *variant is the index of the
 * variant it names, or t->nvariants for a tag this client does not know. */
static int find_tag(jd *d, const sdkrt_jtype *t, size_t *variant)
{
    const char *start = d->p;
    size_t base = d->nkeys, sbase = d->slen;
    int r = BAD;
    bool more;
    d->p++;
    more = peek(d) != '}';
    while (more) {
        const char *key;
        size_t len;
        bool in_scratch;
        r = scan_key(d, &key, &len, &in_scratch);
        if (r != OK)
            break;
        if (!name_is(t->discriminator, key, len)) {
            r = skip_value(d);
            if (r == OK && !next_member(d, '}', &more))
                r = BAD;
            if (r != OK)
                break;
            r = BAD; /* missing discriminator if the object ends here */
            continue;
        }
        const char *raw;
        bool esc;
        if (*d->p != '"' || !scan_string(d, &raw, &len, &esc)) {
            r = BAD; /* not a string */
            break;
        }
        r = OK;
        char *tag = NULL;
        if (esc) { /* compared as a C string, as strcmp on jansson's value does */
            size_t n;
            tag = string_copy(raw, len, true, &n);
            if (!tag) {
                r = NOMEM;
                break;
            }
            raw = tag;
            len = strlen(tag);
        }
        *variant = t->nvariants;
        for (size_t i = 0; i < t->nvariants; i++) {
            if (t->variants[i].tag && name_is(t->variants[i].tag, raw, len)) {
                *variant = i;
                break;
            }
        }
        free(tag);
        break;
    }
    d->p = start;
    d->nkeys = base;
    d->slen = sbase;
    return r;
}

static int dk_union(jd *d, const sdkrt_jtype *t, void *v)
{
    junion *u = v;
    char *slot = (char *)v + t->value_offset;
    if (t->discriminator) {
        if (*d->p != '{')
            return BAD;
        size_t i = 0;
        int r = find_tag(d, t, &i);
        if (r != OK)
            return r;
        if (i == t->nvariants) { /* unknown variant: the raw JSON (forward compatibility) */
            u->kind = 0;
            r = load_span(d, &u->unknown);
            if (r == OK && sdkrt_json_decode_common_(t, slot, u->unknown) != SDKRT_OK)
                r = NOMEM;
            return r;
        }
        r = dk_place(d, t->variants[i].type, t->variants[i].flags, slot);
        if (r == OK)
            u->kind = (int)i + 1;
        return r;
    }
    /* Untagged: the first variant that decodes wins. */
    const char *start = d->p;
    size_t depth = d->depth, nkeys = d->nkeys, slen = d->slen;
    for (size_t i = 0; i < t->nvariants; i++) {
        int r = dk_place(d, t->variants[i].type, t->variants[i].flags, slot);
        if (r == OK) {
            u->kind = (int)i + 1;
            return OK;
        }
        if (r == NOMEM)
            return r;
        d->p = start;
        d->depth = depth;
        d->nkeys = nkeys;
        d->slen = slen;
    }
    return BAD;
}

static int dk_array(jd *d, const sdkrt_jtype *t, void *v)
{
    if (*d->p != '[')
        return BAD;
    d->p++;
    if (peek(d) == ']') {
        d->p++;
        return OK;
    }
    jarray *a = v;
    size_t sz = t->inner->size ? t->inner->size : 1, cap = 0;
    int r = OK;
    bool more = true;
    while (more && r == OK) {
        if (peek(d) < 0) {
            r = BAD;
            break;
        }
        if (a->count == cap) {
            size_t ncap = cap ? cap * 2 : 4;
            void *items = ncap <= SIZE_MAX / sz ? realloc(a->items, ncap * sz) : NULL;
            if (!items) {
                r = NOMEM;
                break;
            }
            memset((char *)items + cap * sz, 0, (ncap - cap) * sz);
            a->items = items;
            cap = ncap;
        }
        r = dv(d, t->inner, 0, (char *)a->items + a->count * sz);
        if (r != OK)
            break;
        a->count++;
        if (!next_member(d, ']', &more))
            r = BAD;
    }
    if (r != OK)
        sdkrt_json_cleanup(t, v);
    return r;
}

static int dk_map(jd *d, const sdkrt_jtype *t, void *v)
{
    if (*d->p != '{')
        return BAD;
    d->p++;
    if (peek(d) == '}') {
        d->p++;
        return OK;
    }
    jmap *m = v;
    size_t sz = t->inner->size ? t->inner->size : 1, cap = 0;
    size_t base = d->nkeys, sbase = d->slen;
    int r = OK;
    bool more = true;
    while (more && r == OK) {
        const char *key;
        size_t len;
        bool in_scratch;
        r = scan_key(d, &key, &len, &in_scratch);
        if (r != OK)
            break;
        if (m->count == cap) {
            size_t ncap = cap ? cap * 2 : 4;
            char **keys = ncap <= SIZE_MAX / sz ? realloc(m->keys, ncap * sizeof *keys) : NULL;
            if (keys)
                m->keys = keys;
            void *values = keys ? realloc(m->values, ncap * sz) : NULL;
            if (!values) {
                r = NOMEM;
                break;
            }
            memset((char *)values + cap * sz, 0, (ncap - cap) * sz);
            m->values = values;
            cap = ncap;
        }
        char *k = malloc(len + 1);
        if (!k) {
            r = NOMEM;
            break;
        }
        memcpy(k, key, len);
        k[len] = '\0';
        m->keys[m->count++] = k;
        r = key_add(d, base, k, 0, len);
        if (r == OK)
            r = dv(d, t->inner, 0, (char *)m->values + (m->count - 1) * sz);
        if (r == OK && !next_member(d, '}', &more))
            r = BAD;
    }
    if (r == OK)
        r = keys_close(d, base);
    d->nkeys = base;
    d->slen = sbase;
    if (r != OK)
        sdkrt_json_cleanup(t, v);
    return r;
}

/* A string value with the decoded bytes in a new buffer (for ENUM and JSON_STRING). */
static int dk_string_bytes(jd *d, char **out, size_t *n)
{
    const char *raw;
    size_t len;
    bool esc;
    if (*d->p != '"' || !scan_string(d, &raw, &len, &esc))
        return BAD;
    *out = string_copy(raw, len, esc, n);
    return *out ? OK : NOMEM;
}

static int dk_enum(jd *d, const sdkrt_jtype *t, void *v)
{
    jenum *e = v;
    const char *raw;
    size_t len;
    bool esc;
    if (*d->p != '"' || !scan_string(d, &raw, &len, &esc))
        return BAD;
    char *owned = NULL;
    if (esc) { /* compared and kept as a C string, as json.c does */
        size_t n;
        owned = string_copy(raw, len, true, &n);
        if (!owned)
            return NOMEM;
        raw = owned;
        len = strlen(owned);
    }
    for (size_t i = 0; i < t->nvalues; i++) {
        if (name_is(t->values[i], raw, len)) {
            e->value = (int)i + 1;
            free(owned);
            return OK;
        }
    }
    e->value = 0;
    if (!owned) {
        owned = malloc(len + 1);
        if (!owned)
            return NOMEM;
        memcpy(owned, raw, len);
        owned[len] = '\0';
    }
    e->unknown = owned;
    return OK;
}

static int dk_json_string(jd *d, const sdkrt_jtype *t, void *v)
{
    /* Servers differ: accept the encoded string, or the content inline. */
    if (*d->p != '"' || t->inner->kind == SDKRT_JK_STRING || t->inner->kind == SDKRT_JK_ENUM)
        return dk(d, t->inner, v);
    char *text = NULL;
    size_t n = 0;
    int r = dk_string_bytes(d, &text, &n);
    if (r == OK)
        r = sdkrt_jd_decode_(t->inner, v, text, n, NULL);
    free(text);
    return r;
}

static int dk(jd *d, const sdkrt_jtype *t, void *v)
{
    switch (t->kind) {
    case SDKRT_JK_STRING: {
        const char *raw;
        size_t len, n;
        bool esc;
        if (*d->p != '"' || !scan_string(d, &raw, &len, &esc))
            return BAD;
        char *s = string_copy(raw, len, esc, &n);
        if (!s)
            return NOMEM;
        if (esc && memchr(s, '\0', n)) { /* a C string cannot carry it */
            free(s);
            return BAD;
        }
        *(char **)v = s;
        return OK;
    }
    case SDKRT_JK_INTEGER: {
        jnum n;
        if (*d->p != '-' && !is_digit(*d->p))
            return BAD;
        int r = scan_number(d, &n);
        if (r != OK)
            return r;
        if (n.is_int) {
            *(int64_t *)v = n.i;
            return OK;
        }
        /* 1.0 is an integer in JSON Schema terms. */
        if (n.r == floor(n.r) && n.r >= -9223372036854775808.0 && n.r < 9223372036854775808.0) {
            *(int64_t *)v = (int64_t)n.r;
            return OK;
        }
        return BAD;
    }
    case SDKRT_JK_NUMBER: {
        jnum n;
        if (*d->p != '-' && !is_digit(*d->p))
            return BAD;
        int r = scan_number(d, &n);
        if (r == OK)
            *(double *)v = num_value(&n);
        return r;
    }
    case SDKRT_JK_BOOLEAN:
        if (scan_word(d, "true", 4)) {
            *(bool *)v = true;
            return OK;
        }
        if (scan_word(d, "false", 5)) {
            *(bool *)v = false;
            return OK;
        }
        return BAD;
    case SDKRT_JK_NULL:
        return scan_word(d, "null", 4) ? OK : BAD;
    case SDKRT_JK_NEVER:
        return BAD;
    case SDKRT_JK_LITERAL:
        return dk_literal(d, t);
    case SDKRT_JK_ENUM:
        return dk_enum(d, t, v);
    case SDKRT_JK_ARRAY:
        return dk_array(d, t, v);
    case SDKRT_JK_MAP:
        return dk_map(d, t, v);
    case SDKRT_JK_OBJECT:
        return dk_object(d, t, v);
    case SDKRT_JK_UNION:
        return dk_union(d, t, v);
    case SDKRT_JK_NULLABLE:
        if (scan_word(d, "null", 4)) {
            *(void **)v = NULL;
            return OK;
        }
        return dk_place(d, t->inner, SDKRT_JF_BOXED, v);
    case SDKRT_JK_JSON_STRING:
        return dk_json_string(d, t, v);
    case SDKRT_JK_ANY:
        return load_span(d, (json_t **)v);
    }
    return BAD;
}

/* The `{"unwrap": X, ...}` envelope at d->p: X decoded as t, the other members checked. */
static int dk_unwrap(jd *d, const sdkrt_jtype *t, void *v, const char *unwrap)
{
    if (*d->p != '{')
        return BAD;
    d->p++;
    d->depth = 1;
    size_t base = d->nkeys;
    bool found = false, more = peek(d) != '}';
    int r = OK;
    if (!more)
        d->p++;
    while (more && r == OK) {
        const char *key;
        size_t len;
        bool in_scratch;
        r = scan_key(d, &key, &len, &in_scratch);
        if (r != OK)
            break;
        if (name_is(unwrap, key, len)) {
            if (found) {
                r = BAD; /* duplicate key */
                break;
            }
            found = true;
            r = dv(d, t, 0, v);
        } else {
            r = key_keep(d, base, key, len, in_scratch);
            if (r == OK)
                r = skip_value(d);
        }
        if (r == OK && !next_member(d, '}', &more))
            r = BAD;
    }
    if (r == OK)
        r = keys_close(d, base);
    if (r == OK && !found)
        r = BAD; /* missing required field */
    if (r != OK && found)
        sdkrt_json_cleanup(t, v);
    d->depth = 0;
    return r;
}

sdkrt_jd_result_ sdkrt_jd_decode_(const sdkrt_jtype *t, void *value, const char *text, size_t len,
                                  const char *unwrap)
{
    jd d = {.p = text, .end = text + len};
    int r = BAD;
    if (!t || !value || !text || peek(&d) < 0)
        goto done;
    r = unwrap ? dk_unwrap(&d, t, value, unwrap) : dv(&d, t, 0, value);
    if (r == OK && peek(&d) >= 0) {
        sdkrt_json_cleanup(t, value);
        r = BAD; /* more than one value */
    }
done:
    free(d.keys);
    free(d.scratch);
    return (sdkrt_jd_result_)r;
}

sdkrt_jd_result_ sdkrt_jd_string_(const char *text, size_t len, char **out, size_t *out_len)
{
    jd d = {.p = text, .end = text + len};
    const char *raw;
    size_t n;
    bool esc;
    *out = NULL;
    if (!text || peek(&d) != '"' || !scan_string(&d, &raw, &n, &esc) || peek(&d) >= 0)
        return SDKRT_JD_MALFORMED_;
    *out = string_copy(raw, n, esc, out_len);
    return *out ? SDKRT_JD_OK_ : SDKRT_JD_OOM_;
}
