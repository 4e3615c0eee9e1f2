/* The lexer of the one-pass JSON decoder (jdecode_scan.c; private to jdecode.c and it): JSON
 * text checked as jansson 2.14 checks it with SDKRT_JSON_LOAD_FLAGS (the rules are listed at the
 * top of jdecode.c), a value at a time, with nothing stored but what the caller asks for. The
 * small steps every value takes are inline here; the rest are functions of jdecode_scan.c. */
#ifndef SDKRT_JDECODE_SCAN_H
#define SDKRT_JDECODE_SCAN_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "jdecode.h"

/* What every step returns (sdkrt_jd_result_ by shorter names). */
enum { OK = SDKRT_JD_OK_, BAD = SDKRT_JD_MALFORMED_, NOMEM = SDKRT_JD_OOM_ };

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

typedef struct jnum {
    bool is_int;
    int64_t i;
    double r;
} jnum;

static inline bool sdkrt_jd_is_digit_(int c)
{
    return c >= '0' && c <= '9';
}

static inline void sdkrt_jd_ws_(jd *d)
{
    while (d->p < d->end && (*d->p == ' ' || *d->p == '\n' || *d->p == '\r' || *d->p == '\t'))
        d->p++;
}

/* The next non-whitespace byte (d->p moved to it), or -1 at the end. */
static inline int sdkrt_jd_peek_(jd *d)
{
    sdkrt_jd_ws_(d);
    return d->p < d->end ? (unsigned char)*d->p : -1;
}

/* ---- strings ---- */

/* The string at d->p (a '"'), checked as jansson checks it; d->p moves past it. *raw and *len
 * are the bytes between the quotes, *esc whether they hold a backslash. */
bool sdkrt_jd_scan_string_(jd *d, const char **raw, size_t *len, bool *esc);
/* A new NUL-terminated copy of a checked string's decoded bytes; *n its length. */
char *sdkrt_jd_string_copy_(const char *raw, size_t len, bool esc, size_t *n);

/* ---- numbers and words ---- */

static inline double sdkrt_jd_num_value_(const jnum *n)
{
    return n->is_int ? (double)n->i : n->r;
}

/* jansson reads one byte past a number or a word and puts it back; a NUL byte put back is lost
 * (its stream takes a NUL in its one-character buffer for "empty"), so "1\0" loads as 1. The
 * same byte is skipped here, so that both accept the same texts. */
static inline void sdkrt_jd_skip_ungot_nul_(jd *d)
{
    if (d->p < d->end && *d->p == '\0')
        d->p++;
}

/* The number at d->p; d->p moves past it. */
int sdkrt_jd_scan_number_(jd *d, jnum *n);

/* The word w (true, false, null) at d->p. */
static inline bool sdkrt_jd_scan_word_(jd *d, const char *w, size_t n)
{
    if ((size_t)(d->end - d->p) < n || memcmp(d->p, w, n) != 0)
        return false;
    d->p += n;
    sdkrt_jd_skip_ungot_nul_(d);
    return true;
}

/* ---- keys of an object ---- */

/* Record a key of the object whose keys start at base; BAD when it repeats one. */
int sdkrt_jd_key_add_(jd *d, size_t base, const char *ptr, size_t off, size_t len);
/* Close the object whose keys start at base: BAD when two of many keys are equal. */
int sdkrt_jd_keys_close_(jd *d, size_t base);
/* The key at d->p, decoded, and the ':' after it: *key points into the text, or (escaped keys)
 * into the scratch buffer at d->slen, not yet kept. Keys holding NUL are refused (jansson does). */
int sdkrt_jd_scan_key_(jd *d, const char **key, size_t *len, bool *in_scratch);

/* Keep the key sdkrt_jd_scan_key_ returned as a key of the object starting at base. */
static inline int sdkrt_jd_key_keep_(jd *d, size_t base, const char *key, size_t len,
                                     bool in_scratch)
{
    if (!in_scratch)
        return sdkrt_jd_key_add_(d, base, key, 0, len);
    size_t off = d->slen;
    d->slen += len;
    return sdkrt_jd_key_add_(d, base, NULL, off, len);
}

/* After a member or an item: OK with *more true at ',', false at the closing byte. */
static inline bool sdkrt_jd_next_member_(jd *d, char close, bool *more)
{
    int c = sdkrt_jd_peek_(d);
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

/* The value at d->p (its depth already counted), checked and passed over. */
int sdkrt_jd_skip_inner_(jd *d);

/* One more value (at d->p, after whitespace), checked and passed over: counts its depth. */
static inline int sdkrt_jd_skip_value_(jd *d)
{
    if (d->depth >= SDKRT_JD_MAX_DEPTH)
        return BAD;
    d->depth++;
    int r = sdkrt_jd_skip_inner_(d);
    d->depth--;
    return r;
}

/* The value at d->p as a jansson value of its own (ANY, unknown variants), checked first so
 * that the depth and every rule apply as in the whole text. */
int sdkrt_jd_load_span_(jd *d, json_t **out);

#endif
