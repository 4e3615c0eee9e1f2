/* pattern_parse.c - the ECMAScript pattern parser: the pattern to a tree of characters, sets,
 * concatenations, alternatives, repetitions and assertions, with character classes as sorted
 * ranges of code points.
 *
 * The syntax taken is ECMAScript's without backreferences and flags (see sdkc/pattern.h);
 * lookaround parses to an empty match and a set with a property escape is evaluated by PCRE2.
 * Syntax that only Annex B (no 'u' flag) accepts and syntax whose meaning needs the 'u' flag are
 * both noted; a pattern with both is refused.
 */
#include "pattern_internal.h"

#include <stdlib.h>
#include <string.h>

static pnode *new_node(pctx *c, pkind kind)
{
    pnode *n = palloc(c, sizeof *n);
    if (n)
        n->kind = kind;
    return n;
}

/* ---- character sets ------------------------------------------------------------------------ */

typedef struct rvec {
    prange *v;
    size_t n, cap;
} rvec;

static bool rv_add(pctx *c, rvec *r, uint32_t lo, uint32_t hi)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 8;
        prange *v = palloc(c, cap * sizeof *v);
        if (!v)
            return false;
        if (r->n)
            memcpy(v, r->v, r->n * sizeof *v);
        r->v = v;
        r->cap = cap;
    }
    r->v[r->n++] = (prange){lo, hi};
    return spend(c, 1);
}

static int range_cmp(const void *x, const void *y)
{
    const prange *p = x, *q = y;
    return p->lo < q->lo ? -1 : p->lo > q->lo;
}

/* Sort and merge in place. */
static void rv_merge(rvec *r)
{
    if (r->n < 2)
        return;
    qsort(r->v, r->n, sizeof *r->v, range_cmp);
    size_t w = 0;
    for (size_t k = 1; k < r->n; k++) {
        if (r->v[k].lo <= r->v[w].hi || r->v[k].lo - 1 == r->v[w].hi) {
            if (r->v[k].hi > r->v[w].hi)
                r->v[w].hi = r->v[k].hi;
        } else {
            r->v[++w] = r->v[k];
        }
    }
    r->n = w + 1;
}

/* The complement within [0, 0x10FFFF] of sorted merged ranges. */
static bool rv_complement(pctx *c, const rvec *in, rvec *out)
{
    *out = (rvec){0};
    uint32_t next = 0;
    for (size_t k = 0; k < in->n; k++) {
        if (in->v[k].lo > next && !rv_add(c, out, next, in->v[k].lo - 1))
            return false;
        next = in->v[k].hi + 1;
    }
    if (next <= 0x10FFFF && !rv_add(c, out, next, 0x10FFFF))
        return false;
    return true;
}

/* Without 0 and the surrogates: neither can be in a generated (NUL-terminated UTF-8) string, so
 * dropping them changes nothing for any string we check. */
static bool rv_clean(pctx *c, const rvec *in, rvec *out)
{
    *out = (rvec){0};
    for (size_t k = 0; k < in->n; k++) {
        uint32_t lo = in->v[k].lo ? in->v[k].lo : 1, hi = in->v[k].hi;
        if (lo > hi)
            continue;
        if (lo < 0xD800 && !rv_add(c, out, lo, hi < 0xD800 ? hi : 0xD7FF))
            return false;
        if (hi > 0xDFFF && !rv_add(c, out, lo > 0xE000 ? lo : 0xE000, hi))
            return false;
    }
    return true;
}

/* The lowest member in [lo, hi], or 0. */
static uint32_t lowest_in(const prange *rg, size_t n, uint32_t lo, uint32_t hi)
{
    for (size_t k = 0; k < n; k++) {
        if (rg[k].hi < lo || rg[k].lo > hi)
            continue;
        return rg[k].lo > lo ? rg[k].lo : lo;
    }
    return 0;
}

/* The character generated for a set: a letter or digit if it has one, else printable ASCII, a
 * space, a Latin letter, other printable non-ASCII, and control characters last. */
uint32_t sdkc_pat_pick_char(const prange *rg, size_t n, uint32_t limit)
{
    static const uint32_t order[][2] = {
        {'a', 'z'},    {'A', 'Z'},   {'0', '9'},      {'!', '~'},          {' ', ' '},
        {0xC0, 0x24F}, {0xA1, 0xBF}, {0x250, 0xFFFD}, {0x10000, 0x10FFFF}, {0x80, 0xA0},
        {'\t', '\t'},  {1, 0x1F},    {0x7F, 0x7F},
    };
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
        uint32_t cp = order[k][0] <= limit ? lowest_in(rg, n, order[k][0], order[k][1]) : 0;
        if (cp)
            return cp;
    }
    return lowest_in(rg, n, 1, limit);
}

static const prange R_DIGIT[] = {{'0', '9'}};
static const prange R_WORD[] = {{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}};
static const prange R_SPACE[] = {
    {0x09, 0x0D},     {0x20, 0x20},     {0xA0, 0xA0},     {0x1680, 0x1680}, {0x2000, 0x200A},
    {0x2028, 0x2029}, {0x202F, 0x202F}, {0x205F, 0x205F}, {0x3000, 0x3000}, {0xFEFF, 0xFEFF}};
static const prange R_NOT_DOT[] = {{0x0A, 0x0A}, {0x0D, 0x0D}, {0x2028, 0x2029}};

/* Add \d \D \w \W \s \S (cls is the letter) or the complement of R_NOT_DOT (cls '.'). */
static bool add_class(pctx *c, rvec *r, int cls)
{
    if (cls == 'p') { /* a property: the caller evaluates the whole set (property_set) */
        c->prop_seen = true;
        return true;
    }
    const prange *base;
    size_t n;
    bool neg = cls == 'D' || cls == 'W' || cls == 'S' || cls == '.';
    switch (cls) {
    case 'd':
    case 'D':
        base = R_DIGIT, n = sizeof R_DIGIT / sizeof R_DIGIT[0];
        break;
    case 'w':
    case 'W':
        base = R_WORD, n = sizeof R_WORD / sizeof R_WORD[0];
        break;
    case 's':
    case 'S':
        base = R_SPACE, n = sizeof R_SPACE / sizeof R_SPACE[0];
        break;
    default:
        base = R_NOT_DOT, n = sizeof R_NOT_DOT / sizeof R_NOT_DOT[0];
        break;
    }
    if (!neg) {
        for (size_t k = 0; k < n; k++)
            if (!rv_add(c, r, base[k].lo, base[k].hi))
                return false;
        return true;
    }
    uint32_t next = 0;
    for (size_t k = 0; k < n; k++) {
        if (base[k].lo > next && !rv_add(c, r, next, base[k].lo - 1))
            return false;
        next = base[k].hi + 1;
    }
    return rv_add(c, r, next, 0x10FFFF);
}

/* A P_SET node from raw (unsorted) ranges. */
static pnode *set_node(pctx *c, rvec *raw, bool negate)
{
    rvec merged = *raw, comp, clean;
    rv_merge(&merged);
    if (negate) {
        if (!rv_complement(c, &merged, &comp))
            return NULL;
        merged = comp;
    }
    if (!rv_clean(c, &merged, &clean))
        return NULL;
    pnode *n = new_node(c, P_SET);
    if (!n)
        return NULL;
    n->rg = clean.v;
    n->nrg = clean.n;
    return n;
}

/* Characters a property escape is tried on: printable ASCII and one or more of each general
 * category and of common scripts, so that \p{L}, \p{Lu}, \p{Nd}, \p{Greek}, \p{Han}... each
 * find a member (the generator prefers ASCII letters and digits where the set has them). */
static const uint32_t PROBES[] = {
    0x09,   0x0A,   0x0D,   0xA0,   0xAA,    0xB2,    0xB5,    0xBD,    0xC0,    0xDF,
    0xE9,   0x100,  0x1C5,  0x2B0,  0x300,   0x378,   0x391,   0x3B1,   0x410,   0x430,
    0x531,  0x5D0,  0x627,  0x660,  0x6F0,   0x903,   0x905,   0x966,   0x9A6,   0xB95,
    0xE01,  0x10D0, 0x1100, 0x1780, 0x2013,  0x2018,  0x2019,  0x200B,  0x2028,  0x2029,
    0x20AC, 0x2160, 0x2190, 0x2460, 0x25A0,  0x3000,  0x3041,  0x30A2,  0x4E00,  0xAC00,
    0xE000, 0xFEFF, 0xFF21, 0xFF41, 0x10400, 0x1D400, 0x1F1E6, 0x1F600, 0x20000,
};

static size_t utf8_put(char *out, uint32_t cp)
{
    if (cp < 0x80)
        return out[0] = (char)cp, 1;
    if (cp < 0x800)
        return out[0] = (char)(0xC0 | cp >> 6), out[1] = (char)(0x80 | (cp & 0x3F)), 2;
    if (cp < 0x10000)
        return out[0] = (char)(0xE0 | cp >> 12), out[1] = (char)(0x80 | (cp >> 6 & 0x3F)),
               out[2] = (char)(0x80 | (cp & 0x3F)), 3;
    return out[0] = (char)(0xF0 | cp >> 18), out[1] = (char)(0x80 | (cp >> 12 & 0x3F)),
           out[2] = (char)(0x80 | (cp >> 6 & 0x3F)), out[3] = (char)(0x80 | (cp & 0x3F)), 4;
}

static bool probe_one(pctx *c, const sdkc_regex *re, rvec *r, uint32_t cp)
{
    char u[4];
    if (!cp || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
        return true;
    if (!spend(c, 64))
        return false;
    sdkc_regex_result m = sdkc_regex_match(re, u, utf8_put(u, cp), NULL);
    if (m == SDKC_REGEX_LIMIT)
        return fail(c, "a Unicode property could not be evaluated");
    return m == SDKC_REGEX_NOMATCH || rv_add(c, r, cp, cp);
}

/* The set written at c->s[start..c->i) (a class or a property escape holding \p{..}) as the
 * members among the probe characters and the characters its own ranges begin and end with
 * (given), as PCRE2 decides: a subset of the real set, enough to generate from. */
static pnode *property_set(pctx *c, size_t start, const rvec *given)
{
    char *text = palloc(c, c->i - start + 1);
    if (!text)
        return NULL;
    memcpy(text, c->s + start, c->i - start);
    text[c->i - start] = '\0';
    sdkc_regex *re = NULL;
    const char *why = NULL;
    sdkc_status st = sdkc_regex_new(&re, text, c->out, &why);
    if (st != SDKC_OK)
        return st == SDKC_ERR_NOMEM
                   ? (fail(c, sdkc_pat_oom), NULL)
                   : (sdkc_pat_failf(c, "an unknown Unicode property", "%s", why), NULL);
    rvec r = {0};
    bool ok = true;
    for (uint32_t cp = 0x20; cp < 0x7F && ok; cp++)
        ok = probe_one(c, re, &r, cp);
    for (size_t k = 0; k < sizeof PROBES / sizeof *PROBES && ok; k++)
        ok = probe_one(c, re, &r, PROBES[k]);
    for (size_t k = 0; given && k < given->n && ok; k++)
        ok = probe_one(c, re, &r, given->v[k].lo) && probe_one(c, re, &r, given->v[k].hi);
    sdkc_regex_free(re);
    return ok ? set_node(c, &r, false) : NULL;
}

static pnode *class_node(pctx *c, int cls)
{
    rvec r = {0};
    if (!add_class(c, &r, cls))
        return NULL;
    return set_node(c, &r, false);
}

bool sdkc_pat_in_set(const pnode *n, uint32_t cp)
{
    size_t lo = 0, hi = n->nrg;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cp < n->rg[mid].lo)
            hi = mid;
        else if (cp > n->rg[mid].hi)
            lo = mid + 1;
        else
            return true;
    }
    return false;
}

/* ---- parsing ------------------------------------------------------------------------------- */

static int peek(const pctx *c)
{
    return c->i < c->n ? c->s[c->i] : -1;
}

static int peek_at(const pctx *c, size_t k)
{
    return c->i + k < c->n ? c->s[c->i + k] : -1;
}

/* (the pattern was validated as a whole beforehand) */
uint32_t sdkc_pat_next_cp(pctx *c)
{
    const unsigned char *s = c->s + c->i;
    uint32_t b = s[0];
    size_t len = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
    uint32_t v = len == 1 ? b : len == 2 ? b & 0x1F : len == 3 ? b & 0x0F : b & 0x07;
    for (size_t k = 1; k < len; k++)
        v = v << 6 | (s[k] & 0x3F);
    c->i += len;
    return v;
}

static bool valid_utf8(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        uint32_t b = s[i];
        if (b < 0x80) {
            i++;
            continue;
        }
        size_t len;
        uint32_t v, min;
        if ((b & 0xE0) == 0xC0)
            len = 2, v = b & 0x1F, min = 0x80;
        else if ((b & 0xF0) == 0xE0)
            len = 3, v = b & 0x0F, min = 0x800;
        else if ((b & 0xF8) == 0xF0)
            len = 4, v = b & 0x07, min = 0x10000;
        else
            return false;
        if (n - i < len)
            return false;
        for (size_t k = 1; k < len; k++) {
            if ((s[i + k] & 0xC0) != 0x80)
                return false;
            v = v << 6 | (s[i + k] & 0x3Fu);
        }
        if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
            return false;
        i += len;
    }
    return true;
}

/* k hex digits at c->i + off, or -1. */
static long hex_at(const pctx *c, size_t off, int k)
{
    long v = 0;
    for (int j = 0; j < k; j++) {
        int h = sdkc_hex_digit(peek_at(c, off + (size_t)j));
        if (h < 0)
            return -1;
        v = v * 16 + h;
    }
    return v;
}

/* Digits at *j (at least one), saturating at PAT_BIG. */
static bool digits_at(const pctx *c, size_t *j, uint32_t *out)
{
    size_t k = *j;
    uint64_t v = 0;
    while (k < c->n && c->s[k] >= '0' && c->s[k] <= '9') {
        v = v * 10 + (uint64_t)(c->s[k] - '0');
        if (v > PAT_BIG)
            v = PAT_BIG;
        k++;
    }
    if (k == *j)
        return false;
    *j = k;
    *out = (uint32_t)v;
    return true;
}

/* {n}, {n,} or {n,m} at c->i: true and advanced past it, or false (then `{` is a literal). */
static bool brace_quant(pctx *c, uint32_t *mn, uint32_t *mx, bool advance)
{
    size_t j = c->i + 1;
    uint32_t a, b;
    if (!digits_at(c, &j, &a))
        return false;
    if (j < c->n && c->s[j] == '}') {
        b = a;
    } else if (j < c->n && c->s[j] == ',') {
        j++;
        if (j < c->n && c->s[j] == '}')
            b = PAT_INF;
        else if (!digits_at(c, &j, &b) || j >= c->n || c->s[j] != '}')
            return false;
    } else {
        return false;
    }
    if (advance)
        c->i = j + 1;
    *mn = a;
    *mx = b;
    return true;
}

enum { E_FAIL, E_CHAR, E_CLASS, E_WORDB, E_NWORDB };

/* \uXXXX (a surrogate pair of two as one character) or \u{X...}; c->i is after the 'u'. */
static int parse_u_escape(pctx *c, uint32_t *cp)
{
    if (peek(c) == '{') { /* \u{...}: Unicode mode */
        c->unicode = true;
        size_t k = 1;
        uint64_t v = 0;
        int h;
        while ((h = sdkc_hex_digit(peek_at(c, k))) >= 0 && v <= 0x10FFFF) {
            v = v * 16 + (uint64_t)h;
            k++;
        }
        if (k == 1 || peek_at(c, k) != '}' || v > 0x10FFFF)
            return fail(c, "malformed \\u{...} escape"), E_FAIL;
        c->i += k + 1;
        *cp = (uint32_t)v;
        return E_CHAR;
    }
    long v = hex_at(c, 0, 4);
    if (v < 0)
        return fail(c, "malformed \\u escape (four hex digits expected)"), E_FAIL;
    c->i += 4;
    if (v >= 0xD800 && v <= 0xDBFF && peek(c) == '\\' && peek_at(c, 1) == 'u') {
        long lo = hex_at(c, 2, 4);
        if (lo >= 0xDC00 && lo <= 0xDFFF) { /* a surrogate pair is one character */
            c->i += 6;
            v = 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00);
        }
    }
    *cp = (uint32_t)v;
    return E_CHAR;
}

/* An escape at c->i (a backslash): a character (*cp), a class escape (*cls is its letter), or an
 * assertion (outside classes). */
static int parse_escape(pctx *c, bool in_class, uint32_t *cp, int *cls)
{
    c->i++;
    int ch = peek(c);
    if (ch < 0)
        return fail(c, "the pattern ends with a backslash"), E_FAIL;
    if (ch >= 0x80) { /* Annex B: an escaped non-ASCII character is itself */
        *cp = sdkc_pat_next_cp(c);
        c->legacy = true;
        return E_CHAR;
    }
    c->i++;
    switch (ch) {
    case 'd':
    case 'D':
    case 'w':
    case 'W':
    case 's':
    case 'S':
        *cls = ch;
        return E_CLASS;
    case 'b':
        if (in_class) {
            *cp = 8;
            return E_CHAR;
        }
        c->has_wordb = true;
        return E_WORDB;
    case 'B':
        if (in_class)
            return fail(c, "\\B inside a character class is not supported"), E_FAIL;
        c->has_wordb = true;
        return E_NWORDB;
    case 't':
        *cp = '\t';
        return E_CHAR;
    case 'n':
        *cp = '\n';
        return E_CHAR;
    case 'v':
        *cp = '\v';
        return E_CHAR;
    case 'f':
        *cp = '\f';
        return E_CHAR;
    case 'r':
        *cp = '\r';
        return E_CHAR;
    case 'c': {
        int l = peek(c);
        if (!((l >= 'a' && l <= 'z') || (l >= 'A' && l <= 'Z')))
            return fail(c, "malformed \\c escape"), E_FAIL;
        c->i++;
        *cp = (uint32_t)l % 32;
        return E_CHAR;
    }
    case '0':
        if (peek(c) >= '0' && peek(c) <= '9')
            return fail(c, "octal escapes are not supported"), E_FAIL;
        *cp = 0;
        return E_CHAR;
    case 'x': {
        long v = hex_at(c, 0, 2);
        if (v < 0)
            return fail(c, "malformed \\x escape (two hex digits expected)"), E_FAIL;
        c->i += 2;
        *cp = (uint32_t)v;
        return E_CHAR;
    }
    case 'u':
        return parse_u_escape(c, cp);
    case 'k':
        return fail(c, "backreferences are not supported"), E_FAIL;
    case 'p':
    case 'P': {
        size_t k = 0;
        if (peek(c) != '{') { /* Annex B: \p without a name is the letter */
            c->legacy = true;
            *cp = (uint32_t)ch;
            return E_CHAR;
        }
        while (peek_at(c, k) >= 0 && peek_at(c, k) != '}')
            k++;
        if (peek_at(c, k) != '}')
            return fail(c, "malformed \\p{...} escape"), E_FAIL;
        c->i += k + 1;
        c->unicode = true;
        *cls = 'p';
        return E_CLASS;
    }
    default:
        break;
    }
    if (ch >= '1' && ch <= '9')
        return fail(c, "backreferences are not supported"), E_FAIL;
    if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch < 0x20)
        return sdkc_pat_failf(c, "unsupported escape", "unsupported escape \\%c",
                              ch < 0x20 ? '?' : ch),
               E_FAIL;
    /* escaped punctuation: syntax characters and / (and - in a class) with or without the 'u'
     * flag, any other one only without it */
    if (!strchr("^$\\.*+?()[]{}|/", ch) && !(in_class && ch == '-'))
        c->legacy = true;
    *cp = (uint32_t)ch;
    return E_CHAR;
}

/* A character class; c->i is at '['. */
static pnode *parse_class(pctx *c)
{
    size_t start = c->i;
    c->prop_seen = false;
    c->i++;
    bool negate = false;
    if (peek(c) == '^') {
        negate = true;
        c->i++;
    }
    rvec r = {0};
    for (;;) {
        int ch = peek(c);
        if (ch < 0)
            return fail(c, "unterminated character class"), NULL;
        if (ch == ']') {
            c->i++;
            break;
        }
        /* one atom: a character or a class escape */
        uint32_t lo = 0, hi;
        int cls = 0, k = E_CHAR;
        if (ch == '\\') {
            k = parse_escape(c, true, &lo, &cls);
            if (k == E_FAIL)
                return NULL;
        } else {
            lo = sdkc_pat_next_cp(c);
        }
        if (peek(c) == '-' && peek_at(c, 1) >= 0 && peek_at(c, 1) != ']') {
            c->i++;
            int cls2 = 0, k2 = E_CHAR;
            if (peek(c) == '\\') {
                k2 = parse_escape(c, true, &hi, &cls2);
                if (k2 == E_FAIL)
                    return NULL;
            } else {
                hi = sdkc_pat_next_cp(c);
            }
            if (k == E_CHAR && k2 == E_CHAR) {
                if (hi >= 0x10000)
                    c->unicode = true;
                if (lo > hi)
                    return fail(c, "character class range out of order"), NULL;
                if (!rv_add(c, &r, lo, hi))
                    return NULL;
                continue;
            }
            /* Annex B: a class escape at either end makes '-' a literal */
            c->legacy = true;
            if (!(k == E_CLASS ? add_class(c, &r, cls) : rv_add(c, &r, lo, lo)) ||
                !rv_add(c, &r, '-', '-') ||
                !(k2 == E_CLASS ? add_class(c, &r, cls2) : rv_add(c, &r, hi, hi)))
                return NULL;
            continue;
        }
        if (k == E_CHAR && lo >= 0x10000)
            c->unicode = true;
        if (!(k == E_CLASS ? add_class(c, &r, cls) : rv_add(c, &r, lo, lo)))
            return NULL;
    }
    if (c->prop_seen)
        return property_set(c, start, &r);
    return set_node(c, &r, negate);
}

static pnode *parse_alt(pctx *c, int depth);

/* (?= ) (?! ) (?<= ) (?<! ) with c->i at the '(': parsed for its syntax, then taken as an empty
 * match. Generation ignores the condition; verification (PCRE2) decides whether the string
 * generated satisfies it, and the caller falls back on the contract's examples when not. */
static pnode *parse_lookaround(pctx *c, int depth)
{
    c->i += peek_at(c, 1) == '<' ? 3 : 2;
    pnode *in = parse_alt(c, depth + 1);
    if (!in)
        return NULL;
    if (peek(c) != ')')
        return fail(c, "unbalanced parenthesis: a ( is not closed"), NULL;
    c->i++;
    c->has_look = true;
    return new_node(c, P_EMPTY);
}

/* ( ... ); c->i is at '('. */
static pnode *parse_group(pctx *c, int depth)
{
    if (depth >= SDKC_PATTERN_MAX_DEPTH)
        return fail(c, "groups are nested too deeply (more than 64 levels)"), NULL;
    c->i++;
    if (peek(c) == '?') {
        int ch = peek_at(c, 1);
        if (ch == '=' || ch == '!' ||
            (ch == '<' && (peek_at(c, 2) == '=' || peek_at(c, 2) == '!'))) {
            c->i--;
            return parse_lookaround(c, depth);
        }
        if (ch == ':') {
            c->i += 2;
        } else if (ch == '<') {
            size_t k = 2;
            while (peek_at(c, k) >= 0 && peek_at(c, k) != '>') {
                int b = peek_at(c, k);
                if (!(b >= 0x80 || b == '_' || b == '$' || (b >= 'a' && b <= 'z') ||
                      (b >= 'A' && b <= 'Z') || (k > 2 && b >= '0' && b <= '9')))
                    return fail(c, "malformed group name"), NULL;
                k++;
            }
            if (k == 2 || peek_at(c, k) != '>')
                return fail(c, "malformed group name"), NULL;
            c->i += k + 1;
        } else {
            return fail(c, "unsupported group syntax (?...): inline flags and other extensions "
                           "are not supported"),
                   NULL;
        }
    }
    pnode *in = parse_alt(c, depth + 1);
    if (!in)
        return NULL;
    if (peek(c) != ')')
        return fail(c, "unbalanced parenthesis: a ( is not closed"), NULL;
    c->i++;
    return in;
}

static pnode *char_node(pctx *c, uint32_t cp)
{
    if (cp >= 0x10000)
        c->unicode = true;
    pnode *n = new_node(c, P_CHAR);
    if (n)
        n->cp = cp;
    return n;
}

static pnode *parse_atom(pctx *c, int depth)
{
    int ch = peek(c);
    uint32_t a, b;
    switch (ch) {
    case '^':
        c->i++;
        return new_node(c, P_BOL);
    case '$':
        c->i++;
        return new_node(c, P_EOL);
    case '.':
        c->i++;
        return class_node(c, '.');
    case '(':
        return parse_group(c, depth);
    case '[':
        return parse_class(c);
    case '*':
    case '+':
    case '?':
        return fail(c, "nothing to repeat (a quantifier without an atom)"), NULL;
    case '{':
        if (brace_quant(c, &a, &b, false))
            return fail(c, "nothing to repeat (a quantifier without an atom)"), NULL;
        c->i++;
        c->legacy = true;
        return char_node(c, '{');
    case '\\': {
        uint32_t cp = 0;
        int cls = 0;
        size_t start = c->i;
        switch (parse_escape(c, false, &cp, &cls)) {
        case E_CHAR:
            return char_node(c, cp);
        case E_CLASS:
            return cls == 'p' ? property_set(c, start, NULL) : class_node(c, cls);
        case E_WORDB:
            return new_node(c, P_WORDB);
        case E_NWORDB:
            return new_node(c, P_NWORDB);
        default:
            return NULL;
        }
    }
    default:
        if (ch == ']' || ch == '}')
            c->legacy = true;
        return char_node(c, sdkc_pat_next_cp(c));
    }
}

static bool is_assertion(const pnode *n)
{
    return n->kind == P_BOL || n->kind == P_EOL || n->kind == P_WORDB || n->kind == P_NWORDB;
}

/* An atom and its quantifier. */
static pnode *parse_term(pctx *c, int depth)
{
    bool group = peek(c) == '('; /* (\b)* is allowed, \b* is not */
    pnode *atom = parse_atom(c, depth);
    if (!atom)
        return NULL;
    uint32_t mn, mx;
    int ch = peek(c);
    if (ch == '*')
        mn = 0, mx = PAT_INF, c->i++;
    else if (ch == '+')
        mn = 1, mx = PAT_INF, c->i++;
    else if (ch == '?')
        mn = 0, mx = 1, c->i++;
    else if (!(ch == '{' && brace_quant(c, &mn, &mx, true)))
        return atom;
    if (!group && is_assertion(atom))
        return fail(c, "nothing to repeat (a quantifier after an assertion)"), NULL;
    if (mn > mx)
        return fail(c, "numbers out of order in a {} quantifier"), NULL;
    if (peek(c) == '?') /* lazy: the same strings match */
        c->i++;
    ch = peek(c);
    uint32_t d1, d2;
    if (ch == '*' || ch == '+' || ch == '?' || (ch == '{' && brace_quant(c, &d1, &d2, false)))
        return fail(c, "nothing to repeat (a quantifier after a quantifier)"), NULL;
    pnode *n = new_node(c, P_REP);
    pnode **kids = palloc(c, sizeof *kids);
    if (!n || !kids)
        return NULL;
    kids[0] = atom;
    n->kids = kids;
    n->nkids = 1;
    n->min = mn;
    n->max = mx;
    return n;
}

typedef struct nvec {
    pnode **v;
    size_t n, cap;
} nvec;

static bool nv_add(pctx *c, nvec *v, pnode *n)
{
    if (v->n == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 4;
        pnode **p = palloc(c, cap * sizeof *p);
        if (!p)
            return false;
        if (v->n)
            memcpy(p, v->v, v->n * sizeof *p);
        v->v = p;
        v->cap = cap;
    }
    v->v[v->n++] = n;
    return true;
}

static pnode *parse_cat(pctx *c, int depth)
{
    nvec v = {0};
    while (c->i < c->n && peek(c) != '|' && peek(c) != ')') {
        pnode *t = parse_term(c, depth);
        if (!t || !nv_add(c, &v, t))
            return NULL;
    }
    if (v.n == 1)
        return v.v[0];
    pnode *n = new_node(c, v.n ? P_CAT : P_EMPTY);
    if (n) {
        n->kids = v.v;
        n->nkids = v.n;
    }
    return n;
}

static pnode *parse_alt(pctx *c, int depth)
{
    nvec v = {0};
    for (;;) {
        pnode *t = parse_cat(c, depth);
        if (!t || !nv_add(c, &v, t))
            return NULL;
        if (peek(c) != '|')
            break;
        c->i++;
    }
    if (v.n == 1)
        return v.v[0];
    pnode *n = new_node(c, P_ALT);
    if (n) {
        n->kids = v.v;
        n->nkids = v.n;
    }
    return n;
}

pnode *sdkc_pat_parse(pctx *c)
{
    if (c->n > SDKC_PATTERN_MAX_BYTES)
        return fail(c, "the pattern is longer than 32768 bytes"), NULL;
    if (!valid_utf8(c->s, c->n))
        return fail(c, "the pattern is not valid UTF-8"), NULL;
    pnode *root = parse_alt(c, 0);
    if (!root)
        return NULL;
    if (c->i < c->n) /* parse_alt stops only at the end or at a ')' */
        return fail(c, "unbalanced parenthesis: a ) without a ("), NULL;
    if (c->legacy && c->unicode)
        return fail(c, "the pattern mixes syntax that needs the 'u' flag (\\u{...} or a "
                       "character outside the BMP) with syntax that the 'u' flag rejects (a lone "
                       "{ } ], \\- outside a class, [\\w-x]...)"),
               NULL;
    return root;
}
