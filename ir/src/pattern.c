/* pattern.c - an example string for a schema `pattern` (an ECMAScript regular expression).
 *
 * Four steps, all working in a private arena freed before returning:
 *
 *  1. parse the pattern into a small tree (parse_*);
 *  2. compute, for every node, the set of lengths (in code points, up to a cap) of the strings it
 *     can match, split by whether the match needs to start at the start of the string (it went
 *     through a ^ before consuming anything) and whether it needs to end at its end ($);
 *  3. choose a total length and generate a string of exactly that length, preferring each node's
 *     "natural" length (first alternatives, fewest repetitions) and letters/digits for classes;
 *  4. verify the string before returning it: translate the pattern to a POSIX ERE over UTF-8 bytes
 *     and run regcomp/regexec under a thread-local C locale; for \b and \B, and for the shapes
 *     where glibc's regcomp blows up, a small matcher over the tree decides (see verify).
 *
 * The length sets are bitsets over 0..cap (cap = min(max_len, SDKC_PATTERN_MAX_CHARS)). All the
 * work is charged to a budget, and the working memory has a ceiling, so that hostile patterns end
 * with a reason instead of running long.
 */
#include "sdkc/pattern.h"

#include <locale.h>
#include <regex.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define PAT_INF          UINT32_MAX   /* an unbounded repetition */
#define PAT_BIG          1000000000u  /* counts saturate here: far beyond any length we generate */
#define PAT_BUDGET       200000000ull /* work units (about one 64-bit word operation each) */
#define PAT_ERE_EST      400000ull /* regcomp expands {n,m}: larger translations go to match_tree */
#define PAT_VERIFY_COST  20000000ull  /* regexec takes about (size after expansion) x (length) */
#define PAT_NULLABLE_EST 3000ull      /* regcomp is quadratic in optional repetitions: same */
#define PAT_ALTERNATIVES 1500ull      /* regcomp is quadratic in them: 4000 take seconds */
#define PAT_MATCH_BUDGET 30000000ull  /* of PAT_BUDGET, for match_tree */
#define PAT_MEMORY       (256u << 20) /* working memory ceiling, bytes */
#define PAT_RE_DUP       32767u       /* glibc's RE_DUP_MAX */

static const char OOM[] = "out of memory";
static const char TOO_COMPLEX[] = "the pattern is too complex to generate a value for";

/* ---- context and errors ---------------------------------------------------------------------- */

typedef struct pctx {
    sdkc_arena *out; /* the caller's arena: the result and formatted reasons */
    sdkc_arena *a;   /* private working memory */
    const unsigned char *s;
    size_t n, i;
    const char *why; /* the first failure wins */
    uint32_t cap;    /* lengths above cap are dropped from the length sets */
    uint64_t work;   /* budget left */
    size_t mem;      /* bytes taken from the private arena */
    bool has_wordb;  /* \b or \B seen */
    bool legacy;     /* syntax only Annex B (no 'u' flag) accepts: a lone { } ], \- outside a
                      * class, [\w-x], other escaped punctuation */
    bool unicode;    /* syntax whose meaning needs the 'u' flag: \u{...}, characters outside
                      * the BMP (without 'u' they are two UTF-16 units) */
} pctx;

static bool fail(pctx *c, const char *why)
{
    if (!c->why)
        c->why = why;
    return false;
}

static bool failf(pctx *c, const char *fallback, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static bool failf(pctx *c, const char *fallback, const char *fmt, ...)
{
    if (c->why)
        return false;
    va_list ap;
    va_start(ap, fmt);
    char *s = sdkc_arena_vprintf(c->out, fmt, ap);
    va_end(ap);
    c->why = s ? s : fallback;
    return false;
}

static bool spend(pctx *c, uint64_t units)
{
    if (units >= c->work) {
        c->work = 0;
        return fail(c, TOO_COMPLEX);
    }
    c->work -= units;
    return true;
}

static void *palloc(pctx *c, size_t n)
{
    if (n > PAT_MEMORY - c->mem)
        return fail(c, TOO_COMPLEX), NULL;
    c->mem += n;
    void *p = sdkc_arena_alloc(c->a, n ? n : 1);
    if (!p)
        fail(c, OOM);
    return p;
}

static uint64_t sat_add(uint64_t x, uint64_t y)
{
    return x + y > PAT_BIG || x + y < x ? PAT_BIG : x + y;
}

static uint64_t sat_mul(uint64_t x, uint64_t y)
{
    if (x == 0 || y == 0)
        return 0;
    return x > PAT_BIG / y ? PAT_BIG : x * y;
}

/* ---- length sets --------------------------------------------------------------------------- */

/* A set of lengths 0..cap as a bitset; nw == 0 exactly when empty (trailing zero words are
 * trimmed). Sets are immutable once built: operations make new ones. */
typedef struct lset {
    uint64_t *w;
    uint32_t nw;
} lset;

/* The lengths of one node's matches by anchoring: f[F_START | F_END]. F_START: the match must
 * begin at the start of the string; F_END: it must finish at its end. */
typedef struct fset {
    lset f[4];
} fset;
enum { F_END = 1, F_START = 2 };

static bool ls_make(pctx *c, lset *s, uint32_t nw)
{
    s->nw = 0;
    s->w = palloc(c, (size_t)nw * sizeof(uint64_t));
    if (!s->w)
        return false;
    s->nw = nw;
    return spend(c, nw);
}

static void ls_trim(lset *s)
{
    while (s->nw && !s->w[s->nw - 1])
        s->nw--;
    if (!s->nw)
        s->w = NULL;
}

static bool ls_has(const lset *s, uint64_t len)
{
    return len / 64 < s->nw && (s->w[len / 64] >> (len % 64) & 1);
}

static uint64_t ls_min(const lset *s)
{
    for (uint32_t k = 0; k < s->nw; k++)
        if (s->w[k])
            return (uint64_t)k * 64 + (uint64_t)__builtin_ctzll(s->w[k]);
    return UINT64_MAX;
}

static uint64_t ls_max(const lset *s)
{
    if (!s->nw)
        return 0;
    return (uint64_t)(s->nw - 1) * 64 + 63 - (uint64_t)__builtin_clzll(s->w[s->nw - 1]);
}

static void set_bits(uint64_t *w, uint64_t lo, uint64_t hi)
{
    uint64_t wl = lo / 64, wh = hi / 64;
    uint64_t ml = ~0ull << (lo % 64), mh = ~0ull >> (63 - hi % 64);
    if (wl == wh) {
        w[wl] |= ml & mh;
        return;
    }
    w[wl] |= ml;
    for (uint64_t k = wl + 1; k < wh; k++)
        w[k] = ~0ull;
    w[wh] |= mh;
}

/* [lo, hi] cut at the cap. */
static bool ls_range(pctx *c, lset *s, uint64_t lo, uint64_t hi)
{
    *s = (lset){0};
    if (hi > c->cap)
        hi = c->cap;
    if (lo > hi)
        return true;
    if (!ls_make(c, s, (uint32_t)(hi / 64 + 1)))
        return false;
    set_bits(s->w, lo, hi);
    return true;
}

static bool ls_union(pctx *c, const lset *x, const lset *y, lset *out)
{
    if (!x->nw || !y->nw) {
        *out = x->nw ? *x : *y;
        return true;
    }
    uint32_t nw = x->nw > y->nw ? x->nw : y->nw;
    lset r;
    if (!ls_make(c, &r, nw))
        return false;
    for (uint32_t k = 0; k < nw; k++)
        r.w[k] = (k < x->nw ? x->w[k] : 0) | (k < y->nw ? y->w[k] : 0);
    *out = r;
    return true;
}

static bool ls_eq(const lset *x, const lset *y)
{
    return x->nw == y->nw && (!x->nw || !memcmp(x->w, y->w, x->nw * sizeof(uint64_t)));
}

static bool ls_subset(const lset *x, const lset *y)
{
    if (x->nw > y->nw)
        return false;
    for (uint32_t k = 0; k < x->nw; k++)
        if (x->w[k] & ~y->w[k])
            return false;
    return true;
}

/* Is s one run [lo, hi]? */
static bool ls_interval(const lset *s, uint64_t *lo, uint64_t *hi)
{
    if (!s->nw)
        return false;
    uint64_t n = 0;
    for (uint32_t k = 0; k < s->nw; k++)
        n += (uint64_t)__builtin_popcountll(s->w[k]);
    *lo = ls_min(s);
    *hi = ls_max(s);
    return n == *hi - *lo + 1;
}

/* The first element >= p, or UINT64_MAX. */
static uint64_t ls_next(const lset *s, uint64_t p)
{
    for (uint64_t k = p / 64; k < s->nw; k++) {
        uint64_t word = s->w[k];
        if (k == p / 64)
            word &= ~0ull << (p % 64);
        if (word)
            return k * 64 + (uint64_t)__builtin_ctzll(word);
    }
    return UINT64_MAX;
}

/* The first non-element >= p (may be past the last word). */
static uint64_t ls_next_gap(const lset *s, uint64_t p)
{
    for (uint64_t k = p / 64; k < s->nw; k++) {
        uint64_t word = ~s->w[k];
        if (k == p / 64)
            word &= ~0ull << (p % 64);
        if (word)
            return k * 64 + (uint64_t)__builtin_ctzll(word);
    }
    return (uint64_t)s->nw * 64;
}

/* dst |= src << k over nw words (dst may be src). */
static void shl_or(uint64_t *dst, const uint64_t *src, uint32_t nw, uint64_t k)
{
    uint64_t ws = k / 64, bs = k % 64;
    for (uint64_t i = nw; i-- > ws;) {
        uint64_t v = src[i - ws] << bs;
        if (bs && i - ws >= 1)
            v |= src[i - ws - 1] >> (64 - bs);
        dst[i] |= v;
    }
}

/* { a + b : a in x, b in y } cut at the cap: for each run [lo, hi] of x, y widened by hi - lo and
 * shifted by lo. */
static bool ls_sum(pctx *c, const lset *x, const lset *y, lset *out)
{
    *out = (lset){0};
    if (!x->nw || !y->nw)
        return true;
    uint64_t ymin = ls_min(y);
    uint64_t top = ls_max(x) + ls_max(y);
    if (top > c->cap)
        top = c->cap;
    if (ls_min(x) + ymin > top)
        return true;
    uint32_t nw = (uint32_t)(top / 64 + 1);
    lset r;
    if (!ls_make(c, &r, nw))
        return false;
    uint64_t *tmp = palloc(c, nw * sizeof(uint64_t));
    if (!tmp)
        return false;
    for (uint64_t lo = ls_next(x, 0); lo != UINT64_MAX && lo + ymin <= top;) {
        uint64_t end = ls_next_gap(x, lo); /* the run is [lo, end) */
        uint64_t width = end - 1 - lo;
        uint32_t copy = y->nw < nw ? y->nw : nw;
        memcpy(tmp, y->w, copy * sizeof(uint64_t));
        memset(tmp + copy, 0, (nw - copy) * sizeof(uint64_t));
        uint64_t span = 1, steps = 2;
        while (span * 2 <= width + 1) {
            shl_or(tmp, tmp, nw, span);
            span *= 2;
            steps++;
        }
        if (span < width + 1)
            shl_or(tmp, tmp, nw, width + 1 - span);
        shl_or(r.w, tmp, nw, lo);
        if (!spend(c, steps * nw))
            return false;
        lo = ls_next(x, end);
    }
    if (top % 64 != 63)
        r.w[nw - 1] &= ~0ull >> (63 - top % 64);
    ls_trim(&r);
    *out = r;
    return true;
}

static bool fs_empty(const fset *s)
{
    return !s->f[0].nw && !s->f[1].nw && !s->f[2].nw && !s->f[3].nw;
}

static bool fs_union(pctx *c, const fset *x, const fset *y, fset *out)
{
    fset r;
    for (int f = 0; f < 4; f++)
        if (!ls_union(c, &x->f[f], &y->f[f], &r.f[f]))
            return false;
    *out = r;
    return true;
}

static bool fs_eq(const fset *x, const fset *y)
{
    for (int f = 0; f < 4; f++)
        if (!ls_eq(&x->f[f], &y->f[f]))
            return false;
    return true;
}

static bool fs_subset(const fset *x, const fset *y)
{
    for (int f = 0; f < 4; f++)
        if (!ls_subset(&x->f[f], &y->f[f]))
            return false;
    return true;
}

/* Concatenation: a part that must start at the start of the string can only follow empty
 * matches, a part that must end at the end can only precede empty ones. */
static bool fs_cat(pctx *c, const lset *zero, const fset *x, const fset *y, fset *out)
{
    fset r = {0};
    for (int fx = 0; fx < 4; fx++)
        for (int fy = 0; fy < 4; fy++) {
            const lset *xs = &x->f[fx], *ys = &y->f[fy];
            if (!xs->nw || !ys->nw)
                continue;
            if ((fy & F_START) && !ls_has(xs, 0))
                continue;
            if ((fx & F_END) && !ls_has(ys, 0))
                continue;
            lset s;
            if ((fy & F_START) && (fx & F_END))
                s = *zero;
            else if (fy & F_START)
                s = *ys;
            else if (fx & F_END)
                s = *xs;
            else if (!ls_sum(c, xs, ys, &s))
                return false;
            if (!ls_union(c, &r.f[fx | fy], &s, &r.f[fx | fy]))
                return false;
        }
    *out = r;
    return true;
}

/* Does s have a match of length len whose anchoring is allowed: at the start of the string when
 * may_start, at its end when may_end? */
static bool fs_has(const fset *s, uint64_t len, bool may_start, bool may_end)
{
    return ls_has(&s->f[0], len) || (may_end && ls_has(&s->f[F_END], len)) ||
           (may_start && ls_has(&s->f[F_START], len)) ||
           (may_start && may_end && ls_has(&s->f[F_START | F_END], len));
}

/* ---- the tree ------------------------------------------------------------------------------- */

typedef enum pkind {
    P_EMPTY,
    P_CHAR,
    P_SET,
    P_CAT,
    P_ALT,
    P_REP,
    P_BOL,
    P_EOL,
    P_WORDB,
    P_NWORDB
} pkind;

typedef struct prange {
    uint32_t lo, hi;
} prange;

typedef struct pnode pnode;
struct pnode {
    pkind kind;
    uint32_t cp;       /* P_CHAR (0 or a surrogate: can never match) */
    prange *rg;        /* P_SET: sorted disjoint ranges without 0 and surrogates */
    size_t nrg;        /* P_SET */
    uint32_t pick;     /* P_SET: the character generated, 0 = the set is empty */
    pnode **kids;      /* P_CAT, P_ALT; P_REP has one */
    size_t nkids;      /* P_CAT, P_ALT, P_REP */
    uint32_t min, max; /* P_REP; max PAT_INF = unbounded */
    fset len;          /* lengths of the matches */
    fset *pre;         /* P_CAT: pre[i] = lengths of kids[0..i] */
    uint64_t nat;      /* the preferred length */
    uint64_t tmin;     /* the shortest match ignoring the cap and anchors (for reasons) */
    bool plain;        /* only unanchored matches, lengths one run [plo, phi] */
    bool eps;          /* matches the empty string without any condition (^ $ \b \B) */
    uint64_t plo, phi; /* when plain */
};

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
static uint32_t pick_char(const prange *rg, size_t n, uint32_t limit)
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

static pnode *class_node(pctx *c, int cls)
{
    rvec r = {0};
    if (!add_class(c, &r, cls))
        return NULL;
    return set_node(c, &r, false);
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

/* One UTF-8 code point at c->i (the pattern was validated as a whole beforehand). */
static uint32_t next_cp(pctx *c)
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

static int hexval(int ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

/* k hex digits at c->i + off, or -1. */
static long hex_at(const pctx *c, size_t off, int k)
{
    long v = 0;
    for (int j = 0; j < k; j++) {
        int h = hexval(peek_at(c, off + (size_t)j));
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

/* An escape at c->i (a backslash): a character (*cp), a class escape (*cls is its letter), or an
 * assertion (outside classes). */
static int parse_escape(pctx *c, bool in_class, uint32_t *cp, int *cls)
{
    c->i++;
    int ch = peek(c);
    if (ch < 0)
        return fail(c, "the pattern ends with a backslash"), E_FAIL;
    if (ch >= 0x80) { /* Annex B: an escaped non-ASCII character is itself */
        *cp = next_cp(c);
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
    case 'u': {
        if (peek(c) == '{') { /* \u{...}: Unicode mode */
            c->unicode = true;
            size_t k = 1;
            uint64_t v = 0;
            int h;
            while ((h = hexval(peek_at(c, k))) >= 0 && v <= 0x10FFFF) {
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
    case 'k':
        return fail(c, "backreferences are not supported"), E_FAIL;
    case 'p':
    case 'P':
        return fail(c, "Unicode property escapes (\\p{...}) are not supported"), E_FAIL;
    default:
        break;
    }
    if (ch >= '1' && ch <= '9')
        return fail(c, "backreferences are not supported"), E_FAIL;
    if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch < 0x20)
        return failf(c, "unsupported escape", "unsupported escape \\%c", ch < 0x20 ? '?' : ch),
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
            lo = next_cp(c);
        }
        if (peek(c) == '-' && peek_at(c, 1) >= 0 && peek_at(c, 1) != ']') {
            c->i++;
            int cls2 = 0, k2 = E_CHAR;
            if (peek(c) == '\\') {
                k2 = parse_escape(c, true, &hi, &cls2);
                if (k2 == E_FAIL)
                    return NULL;
            } else {
                hi = next_cp(c);
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
    return set_node(c, &r, negate);
}

static pnode *parse_alt(pctx *c, int depth);

/* ( ... ); c->i is at '('. */
static pnode *parse_group(pctx *c, int depth)
{
    if (depth >= SDKC_PATTERN_MAX_DEPTH)
        return fail(c, "groups are nested too deeply (more than 64 levels)"), NULL;
    c->i++;
    if (peek(c) == '?') {
        int ch = peek_at(c, 1);
        if (ch == ':') {
            c->i += 2;
        } else if (ch == '=' || ch == '!') {
            return fail(c, "lookahead is not supported"), NULL;
        } else if (ch == '<' && (peek_at(c, 2) == '=' || peek_at(c, 2) == '!')) {
            return fail(c, "lookbehind is not supported"), NULL;
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
        switch (parse_escape(c, false, &cp, &cls)) {
        case E_CHAR:
            return char_node(c, cp);
        case E_CLASS:
            return class_node(c, cls);
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
        return char_node(c, next_cp(c));
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

/* ---- analysis: the lengths of every node's matches ------------------------------------------ */

typedef struct actx {
    pctx *c;
    lset zero; /* {0} */
    lset one;  /* {1} when the cap allows */
} actx;

/* R = the union of T_k for k in [min, max], T_0 = {0}, T_k = T_(k-1) . kid; stops when T_k adds
 * nothing new (then no later T does either) or is empty. */
static bool rep_general(actx *x, pnode *n, const fset *kid)
{
    pctx *c = x->c;
    fset t0 = {0}, r = {0}, t, prev;
    t0.f[0] = x->zero;
    if (n->min == 0)
        r = t0;
    prev = t0;
    for (uint64_t k = 1;; k++) {
        if (!spend(c, 16) || !fs_cat(c, &x->zero, &prev, kid, &t))
            return false;
        if (fs_empty(&t))
            break;
        if (k < n->min && fs_eq(&t, &prev)) { /* stable: T_min = t, and so is every later T */
            if (!fs_union(c, &r, &t, &r))
                return false;
            break;
        }
        if (k >= n->min) {
            if (k > n->min && fs_subset(&t, &r))
                break;
            if (!fs_union(c, &r, &t, &r))
                return false;
        }
        if (k >= n->max)
            break;
        prev = t;
    }
    n->len = r;
    return true;
}

static bool analyze(actx *x, pnode *n)
{
    pctx *c = x->c;
    if (!spend(c, 1))
        return false;
    switch (n->kind) {
    case P_EMPTY:
    case P_WORDB:
    case P_NWORDB:
        n->len.f[0] = x->zero;
        break;
    case P_BOL:
        n->len.f[F_START] = x->zero;
        break;
    case P_EOL:
        n->len.f[F_END] = x->zero;
        break;
    case P_CHAR:
        if (n->cp != 0 && !(n->cp >= 0xD800 && n->cp <= 0xDFFF))
            n->len.f[0] = x->one;
        n->nat = n->tmin = 1;
        break;
    case P_SET:
        /* without the 'u' flag a class matches one UTF-16 unit: no character outside the BMP */
        n->pick = pick_char(n->rg, n->nrg, c->legacy ? 0xFFFF : 0x10FFFF);
        if (n->pick)
            n->len.f[0] = x->one;
        n->nat = n->tmin = 1;
        break;
    case P_CAT:
        n->pre = palloc(c, n->nkids * sizeof *n->pre);
        if (!n->pre)
            return false;
        for (size_t k = 0; k < n->nkids; k++) {
            if (!analyze(x, n->kids[k]))
                return false;
            if (k == 0)
                n->pre[0] = n->kids[0]->len;
            else if (!fs_cat(c, &x->zero, &n->pre[k - 1], &n->kids[k]->len, &n->pre[k]))
                return false;
            n->nat = sat_add(n->nat, n->kids[k]->nat);
            n->tmin = sat_add(n->tmin, n->kids[k]->tmin);
        }
        n->len = n->pre[n->nkids - 1];
        break;
    case P_ALT: {
        bool have_nat = false;
        n->tmin = PAT_BIG;
        for (size_t k = 0; k < n->nkids; k++) {
            pnode *kid = n->kids[k];
            if (!analyze(x, kid) || !fs_union(c, &n->len, &kid->len, &n->len))
                return false;
            if (!have_nat && !fs_empty(&kid->len)) {
                n->nat = kid->nat;
                have_nat = true;
            }
            if (kid->tmin < n->tmin)
                n->tmin = kid->tmin;
        }
        break;
    }
    case P_REP: {
        pnode *kid = n->kids[0];
        if (!analyze(x, kid))
            return false;
        n->nat = sat_mul(kid->nat, n->min);
        n->tmin = sat_mul(kid->tmin, n->min);
        if (fs_empty(&kid->len)) {
            if (n->min == 0)
                n->len.f[0] = x->zero;
        } else if (kid->plain) {
            /* the union of [k*lo, k*hi] for k in [min, max] */
            uint64_t lo = kid->plo, hi = kid->phi, mx = n->max == PAT_INF ? PAT_BIG : n->max;
            lset r = {0}, part;
            if (lo == 0) {
                if (!ls_range(c, &r, 0, sat_mul(hi, mx)))
                    return false;
            } else {
                for (uint64_t k = n->min; k <= mx && k * lo <= c->cap; k++) {
                    /* once consecutive runs touch ((k+1)*lo <= k*hi + 1, which stays true for
                     * larger k) or reach the cap, one range covers the rest */
                    bool rest = k * hi >= c->cap || (k + 1) * lo <= k * hi + 1;
                    if (!ls_range(c, &part, k * lo, rest ? sat_mul(mx, hi) : k * hi) ||
                        !ls_union(c, &r, &part, &r))
                        return false;
                    if (rest)
                        break;
                }
            }
            n->len.f[0] = r;
        } else if (!rep_general(x, n, &kid->len)) {
            return false;
        }
        break;
    }
    }
    if (n->nat > c->cap + 1)
        n->nat = c->cap + 1;
    switch (n->kind) {
    case P_EMPTY:
        n->eps = true;
        break;
    case P_CAT:
        n->eps = true;
        for (size_t k = 0; k < n->nkids; k++)
            n->eps = n->eps && n->kids[k]->eps;
        break;
    case P_ALT:
        for (size_t k = 0; k < n->nkids; k++)
            n->eps = n->eps || n->kids[k]->eps;
        break;
    case P_REP:
        n->eps = n->min == 0 || n->kids[0]->eps;
        break;
    default:
        break;
    }
    n->plain = !n->len.f[1].nw && !n->len.f[2].nw && !n->len.f[3].nw &&
               ls_interval(&n->len.f[0], &n->plo, &n->phi);
    return true;
}

/* ---- generation ----------------------------------------------------------------------------- */

typedef struct gctx {
    pctx *c;
    const lset *zero;
    sdkc_buf *b;
} gctx;

static bool gen(gctx *g, const pnode *n, uint64_t len, bool may_start, bool may_end);

static void put_utf8(sdkc_buf *b, uint32_t cp)
{
    char u[4];
    size_t k;
    if (cp < 0x80) {
        u[0] = (char)cp, k = 1;
    } else if (cp < 0x800) {
        u[0] = (char)(0xC0 | cp >> 6), u[1] = (char)(0x80 | (cp & 0x3F)), k = 2;
    } else if (cp < 0x10000) {
        u[0] = (char)(0xE0 | cp >> 12), u[1] = (char)(0x80 | (cp >> 6 & 0x3F));
        u[2] = (char)(0x80 | (cp & 0x3F)), k = 3;
    } else {
        u[0] = (char)(0xF0 | cp >> 18), u[1] = (char)(0x80 | (cp >> 12 & 0x3F));
        u[2] = (char)(0x80 | (cp >> 6 & 0x3F)), u[3] = (char)(0x80 | (cp & 0x3F)), k = 4;
    }
    sdkc_buf_append(b, u, k);
}

/* Lengths for k parts (part i: lengths kid[i], natural length nat[i]; parts 0..i together:
 * pre[i]) that add up to len, chosen from the last part back: each part takes the length closest
 * to its natural one that leaves a feasible rest. */
static bool plan(gctx *g, size_t k, const fset *const *kid, const fset *const *pre,
                 const uint64_t *nat, uint64_t len, bool may_start, bool may_end, uint64_t *out)
{
    uint64_t after = 0;
    for (size_t i = k; i-- > 0;) {
        uint64_t rem = len - after;
        if (i == 0) {
            if (!fs_has(kid[0], rem, may_start, may_end && after == 0))
                return fail(g->c, "internal error: no length plan");
            out[0] = rem;
            break;
        }
        uint64_t t = nat[i] < rem ? nat[i] : rem, span = t > rem - t ? t : rem - t;
        bool found = false;
        for (uint64_t d = 0; d <= span && !found; d++) {
            for (int side = 0; side < 2 && !found; side++) {
                if ((side == 0 && d > t) || (side == 1 && (d == 0 || t + d > rem)))
                    continue;
                uint64_t li = side == 0 ? t - d : t + d;
                if (!spend(g->c, 1))
                    return false;
                if (fs_has(kid[i], li, may_start && rem - li == 0, may_end && after == 0) &&
                    fs_has(pre[i - 1], rem - li, may_start, may_end && after + li == 0)) {
                    out[i] = li;
                    found = true;
                }
            }
        }
        if (!found)
            return fail(g->c, "internal error: no length plan");
        after += out[i];
    }
    return true;
}

/* Generate the parts in order with their planned lengths. */
static bool gen_parts(gctx *g, size_t k, const pnode *const *kids, const uint64_t *lens,
                      uint64_t len, bool may_start, bool may_end)
{
    uint64_t before = 0;
    for (size_t i = 0; i < k; i++) {
        if (lens[i] &&
            !gen(g, kids[i], lens[i], may_start && before == 0, may_end && before + lens[i] == len))
            return false;
        before += lens[i];
    }
    return true;
}

static bool gen_cat(gctx *g, const pnode *n, uint64_t len, bool may_start, bool may_end)
{
    pctx *c = g->c;
    const fset **kid = palloc(c, n->nkids * sizeof *kid);
    const fset **pre = palloc(c, n->nkids * sizeof *pre);
    uint64_t *nat = palloc(c, n->nkids * sizeof *nat);
    uint64_t *lens = palloc(c, n->nkids * sizeof *lens);
    if (!kid || !pre || !nat || !lens)
        return false;
    for (size_t i = 0; i < n->nkids; i++) {
        kid[i] = &n->kids[i]->len;
        pre[i] = &n->pre[i];
        nat[i] = n->kids[i]->nat;
    }
    return plan(g, n->nkids, kid, pre, nat, len, may_start, may_end, lens) &&
           gen_parts(g, n->nkids, (const pnode *const *)n->kids, lens, len, may_start, may_end);
}

/* A repetition of a plain kid (lengths [lo, hi], no anchors): arithmetic. */
static bool gen_rep_plain(gctx *g, const pnode *n, uint64_t len)
{
    const pnode *kid = n->kids[0];
    uint64_t lo = kid->plo, hi = kid->phi, mx = n->max == PAT_INF ? PAT_BIG : n->max;
    uint64_t nat = kid->nat < lo ? lo : kid->nat > hi ? hi : kid->nat;
    uint64_t k, base, extra;
    if (len == 0)
        return true;
    if (nat > 0 && len % nat == 0 && len / nat >= n->min && len / nat <= mx) {
        k = len / nat, base = nat, extra = 0;
    } else if (lo > 0) {
        k = len / lo < mx ? len / lo : mx, base = lo, extra = len - k * lo;
    } else {
        k = (len + hi - 1) / hi, base = 0, extra = len;
    }
    if (k < (lo > 0 ? n->min : 0) || k > mx || extra > k * (hi - base))
        return fail(g->c, "internal error: no repetition plan");
    for (uint64_t i = 0; i < k; i++) {
        uint64_t add = extra < hi - base ? extra : hi - base;
        extra -= add;
        if (!spend(g->c, 1) || (base + add && !gen(g, kid, base + add, false, false)))
            return false;
    }
    return true;
}

/* A repetition of any kid: the fewest repetitions k >= min that can have length len, then a plan
 * over k parts with T_(i) as the prefix sets. */
static bool gen_rep(gctx *g, const pnode *n, uint64_t len, bool may_start, bool may_end)
{
    pctx *c = g->c;
    const pnode *kid = n->kids[0];
    if (kid->plain)
        return gen_rep_plain(g, n, len);
    size_t cap = 16, cnt = 1; /* T_0 .. T_(cnt-1) */
    fset *t = palloc(c, cap * sizeof *t);
    if (!t)
        return false;
    t[0].f[0] = *g->zero;
    uint64_t k = 0;
    bool stable = false;
    for (;;) {
        const fset *tk = &t[cnt - 1 < k ? cnt - 1 : k];
        if (k >= n->min && fs_has(tk, len, may_start, may_end))
            break;
        if (k >= n->max || (stable && k >= n->min) || fs_empty(tk))
            return fail(c, "internal error: no repetition count");
        if (stable) { /* every later T is the same: jump to min */
            k = n->min;
            continue;
        }
        if (cnt == cap) {
            fset *nt = palloc(c, cap * 2 * sizeof *nt);
            if (!nt)
                return false;
            memcpy(nt, t, cap * sizeof *t);
            t = nt;
            cap *= 2;
        }
        if (!spend(c, 16) || !fs_cat(c, g->zero, &t[cnt - 1], &kid->len, &t[cnt]))
            return false;
        stable = fs_eq(&t[cnt], &t[cnt - 1]);
        cnt++;
        k++;
    }
    if (k > (uint64_t)SDKC_PATTERN_MAX_CHARS * 4)
        return fail(c, TOO_COMPLEX);
    size_t nk = (size_t)k;
    if (nk == 0)
        return true;
    const fset **kids = palloc(c, nk * sizeof *kids);
    const fset **pre = palloc(c, nk * sizeof *pre);
    uint64_t *nat = palloc(c, nk * sizeof *nat);
    uint64_t *lens = palloc(c, nk * sizeof *lens);
    const pnode **kn = palloc(c, nk * sizeof *kn);
    if (!kids || !pre || !nat || !lens || !kn)
        return false;
    for (size_t i = 0; i < nk; i++) {
        kids[i] = &kid->len;
        pre[i] = &t[i + 1 < cnt ? i + 1 : cnt - 1];
        nat[i] = kid->nat;
        kn[i] = kid;
    }
    return plan(g, nk, kids, pre, nat, len, may_start, may_end, lens) &&
           gen_parts(g, nk, kn, lens, len, may_start, may_end);
}

static bool gen(gctx *g, const pnode *n, uint64_t len, bool may_start, bool may_end)
{
    if (!spend(g->c, 1))
        return false;
    if (!fs_has(&n->len, len, may_start, may_end))
        return fail(g->c, "internal error: generating an impossible length");
    switch (n->kind) {
    case P_CHAR:
        put_utf8(g->b, n->cp);
        return true;
    case P_SET:
        put_utf8(g->b, n->pick);
        return true;
    case P_CAT:
        return gen_cat(g, n, len, may_start, may_end);
    case P_ALT:
        for (size_t k = 0; k < n->nkids; k++)
            if (fs_has(&n->kids[k]->len, len, may_start, may_end))
                return gen(g, n->kids[k], len, may_start, may_end);
        return fail(g->c, "internal error: no alternative");
    case P_REP:
        return gen_rep(g, n, len, may_start, may_end);
    default: /* empty, anchors, \b, \B */
        return true;
    }
}

/* ---- verification: a POSIX ERE over UTF-8 bytes ---------------------------------------------- */

typedef struct tctx {
    pctx *c;
    sdkc_buf *b;
    uint64_t len;          /* the characters of the string to check */
    const uint32_t *chars; /* the distinct characters in it, sorted */
    size_t nchars;
    unsigned nullable_reps; /* enclosing repetitions of something that can match empty */
    unsigned risky;         /* anchors translated inside such repetitions */
    unsigned max_nullable;  /* the deepest nesting of those repetitions */
    uint64_t nullable_est;  /* the largest expanded size of one of them */
    uint64_t alternatives;  /* | translated */
    bool drop_zw;           /* (for the next P_ALT) leave out its zero-width alternatives */
    bool erase_wordb;       /* translate \b and \B to nothing (see verify) */
    const uint32_t *text;   /* the string's characters, in order */
} tctx;

/* Never matches: the string has no NUL. */
static const char NEVER[] = "[^\x01-\x7f\x80-\xff]";

static void ere_byte_char(sdkc_buf *b, unsigned ch)
{
    if (strchr(".[]()*+?{}|^$\\", (int)ch) && ch) {
        sdkc_buf_putc(b, '\\');
        sdkc_buf_putc(b, (char)ch);
    } else if (ch < 0x20 || ch == 0x7F) {
        sdkc_buf_putc(b, '[');
        sdkc_buf_putc(b, (char)ch);
        sdkc_buf_putc(b, ']');
    } else {
        sdkc_buf_putc(b, (char)ch);
    }
}

/* A bracket for the ASCII bytes in bits (bits[k] for byte k, 1..127); false if there are none.
 * ']' goes first, '^' never first, '[' and '-' last, so nothing is special. */
static bool ere_ascii(sdkc_buf *b, const bool *bits)
{
    bool any = false, others = false;
    for (unsigned k = 1; k < 128; k++) {
        any |= bits[k];
        if (bits[k] && k != ']' && k != '^' && k != '[' && k != '-')
            others = true;
    }
    if (!any)
        return false;
    if (bits['^'] && !bits[']'] && !others && !bits['[']) { /* only ^ and maybe - */
        sdkc_buf_puts(b, bits['-'] ? "(\\^|-)" : "\\^");
        return true;
    }
    sdkc_buf_putc(b, '[');
    if (bits[']'])
        sdkc_buf_putc(b, ']');
    for (unsigned k = 1; k < 128;) {
        if (!bits[k] || k == ']' || k == '^' || k == '[' || k == '-') {
            k++;
            continue;
        }
        unsigned e = k;
        while (e + 1 < 128 && bits[e + 1] && e + 1 != ']' && e + 1 != '^' && e + 1 != '[' &&
               e + 1 != '-')
            e++;
        sdkc_buf_putc(b, (char)k);
        if (e > k + 1)
            sdkc_buf_putc(b, '-');
        if (e > k)
            sdkc_buf_putc(b, (char)e);
        k = e + 1;
    }
    if (bits['^'])
        sdkc_buf_putc(b, '^');
    if (bits['['])
        sdkc_buf_putc(b, '[');
    if (bits['-'])
        sdkc_buf_putc(b, '-');
    sdkc_buf_putc(b, ']');
    return true;
}

static bool in_set(const pnode *n, uint32_t cp)
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

/* A set, cut down to the characters that occur in the string (the others cannot take part in any
 * match of it): a bracket for the ASCII ones, each other one as its UTF-8 bytes. */
static void ere_set(tctx *t, const pnode *n)
{
    bool bits[128] = {false};
    size_t wide = 0;
    for (size_t k = 0; k < t->nchars; k++)
        if (in_set(n, t->chars[k])) {
            if (t->chars[k] < 128)
                bits[t->chars[k]] = true;
            else
                wide++;
        }
    if (wide)
        sdkc_buf_putc(t->b, '(');
    bool any = ere_ascii(t->b, bits);
    for (size_t k = 0; k < t->nchars; k++)
        if (t->chars[k] >= 128 && in_set(n, t->chars[k])) {
            if (any)
                sdkc_buf_putc(t->b, '|');
            put_utf8(t->b, t->chars[k]);
            any = true;
        }
    if (!any)
        sdkc_buf_puts(t->b, NEVER);
    if (wide)
        sdkc_buf_putc(t->b, ')');
}

static void buf_cut(sdkc_buf *b, size_t len)
{
    if (b->data && len <= b->len) {
        b->len = len;
        b->data[len] = '\0';
    }
}

/* Does every match of n have length 0? */
static bool zero_width(const pnode *n)
{
    for (int f = 0; f < 4; f++)
        if (n->len.f[f].nw && ls_max(&n->len.f[f]) > 0)
            return false;
    return true;
}

/* The translation of n appended to t->b; *est is about the size regcomp expands it to. What only
 * matches the empty string without condition translates to nothing at all, and a repetition of
 * what only matches empty strings to no repetition: glibc's regcomp can take exponential time on
 * nested nullable repetitions around \b and empty groups, such as (\B()?\b()?)*. */
static bool tr(tctx *t, const pnode *n, uint64_t *est)
{
    sdkc_buf *b = t->b;
    if (!spend(t->c, 1))
        return false;
    *est = 1;
    switch (n->kind) {
    case P_EMPTY:
        *est = 0;
        return true;
    case P_CHAR:
        if (n->cp == 0 || (n->cp >= 0xD800 && n->cp <= 0xDFFF))
            sdkc_buf_puts(b, NEVER);
        else if (n->cp < 0x80)
            ere_byte_char(b, n->cp);
        else
            put_utf8(b, n->cp);
        return true;
    case P_SET:
        ere_set(t, n);
        return true;
    case P_BOL:
        sdkc_buf_putc(b, '^');
        t->risky += t->nullable_reps > 0;
        return true;
    case P_EOL:
        sdkc_buf_putc(b, '$');
        t->risky += t->nullable_reps > 0;
        return true;
    case P_WORDB:
        if (t->erase_wordb) {
            *est = 0;
            return true;
        }
        sdkc_buf_puts(b, "\\b");
        t->risky += t->nullable_reps > 0;
        return true;
    case P_NWORDB:
        if (t->erase_wordb) {
            *est = 0;
            return true;
        }
        sdkc_buf_puts(b, "\\B");
        t->risky += t->nullable_reps > 0;
        return true;
    case P_CAT:
        *est = 0;
        for (size_t k = 0; k < n->nkids; k++) {
            uint64_t e;
            if (!tr(t, n->kids[k], &e))
                return false;
            *est = sat_add(*est, e);
        }
        return true;
    case P_ALT: {
        /* (x|y), without empty alternatives: (x|y)? when there were some. An alternative that
         * only matches empty strings (under a condition such as \b) adds nothing when another
         * one matches the empty string unconditionally, or when the caller says so (drop_zw: a
         * repetition of this that may have no iteration). */
        size_t start = b->len;
        bool any = false, empty = false, drop_zw = t->drop_zw;
        t->drop_zw = false;
        for (size_t k = 0; k < n->nkids && !drop_zw; k++)
            drop_zw = n->kids[k]->eps;
        *est = 0;
        sdkc_buf_putc(b, '(');
        for (size_t k = 0; k < n->nkids; k++) {
            size_t mark = b->len;
            uint64_t e;
            if (drop_zw && zero_width(n->kids[k])) {
                empty = true;
                continue;
            }
            if (any) {
                sdkc_buf_putc(b, '|');
                t->alternatives++;
            }
            size_t body = b->len;
            if (!tr(t, n->kids[k], &e))
                return false;
            if (b->len == body) {
                buf_cut(b, mark);
                empty = true;
            } else {
                any = true;
            }
            *est = sat_add(*est, e);
        }
        if (!any) {
            buf_cut(b, start);
            return true;
        }
        sdkc_buf_putc(b, ')');
        if (empty)
            sdkc_buf_putc(b, '?');
        return true;
    }
    case P_REP:
        break;
    }
    /* x{n,m} on a string of len characters: an iteration that consumes something consumes a
     * character, so at most len of them do, and an empty one can be dropped: m >= len is as good
     * as unbounded. When x can match the empty string unconditionally, any count of iterations can
     * be padded with empty ones: x{n,m} is x{0,m}. When x cannot match the empty string at all, n >
     * len cannot match. When x only matches empty strings, x{0,m} is nothing and x{n,m} with n > 0
     * is x. (Each also keeps regcomp's expansion and regexec's work small.) */
    const pnode *kid = n->kids[0];
    uint64_t mn = n->min, mx = n->max == PAT_INF ? PAT_BIG : n->max;
    bool empty_free = kid->eps;
    bool empty_any = ls_has(&kid->len.f[0], 0) || ls_has(&kid->len.f[1], 0) ||
                     ls_has(&kid->len.f[2], 0) || ls_has(&kid->len.f[3], 0);
    *est = 0;
    if (mx == 0 || (mn == 0 && zero_width(kid)))
        return true;
    if (empty_free)
        mn = 0;
    if (mx >= t->len)
        mx = PAT_BIG;
    if (mn > t->len && !empty_any) {
        sdkc_buf_puts(b, NEVER);
        *est = 1;
        return true;
    }
    if (mn > PAT_RE_DUP)
        return fail(t->c, "the generated value cannot be verified (a repetition count too large "
                          "for regcomp)");
    size_t start = b->len;
    uint64_t e;
    sdkc_buf_putc(b, '(');
    t->nullable_reps += empty_any;
    if (t->nullable_reps > t->max_nullable)
        t->max_nullable = t->nullable_reps;
    t->drop_zw = mn == 0 && kid->kind == P_ALT; /* a zero-width iteration can be left out */
    bool ok = tr(t, kid, &e);
    t->nullable_reps -= empty_any;
    t->drop_zw = false;
    if (!ok)
        return false;
    if (b->len == start + 1) { /* the kid is nothing: so is its repetition */
        buf_cut(b, start);
        return true;
    }
    sdkc_buf_putc(b, ')');
    if (zero_width(kid)) { /* mn > 0: once is the same */
        *est = e;
        return true;
    }
    if (mx == PAT_BIG) {
        if (mn == 0)
            sdkc_buf_putc(b, '*');
        else if (mn == 1)
            sdkc_buf_putc(b, '+');
        else
            sdkc_buf_printf(b, "{%llu,}", (unsigned long long)mn);
    } else if (mn == 0 && mx == 1) {
        sdkc_buf_putc(b, '?');
    } else if (mn == mx) {
        sdkc_buf_printf(b, "{%llu}", (unsigned long long)mn);
    } else {
        sdkc_buf_printf(b, "{%llu,%llu}", (unsigned long long)mn, (unsigned long long)mx);
    }
    *est = sat_add(1, sat_mul(e, mx == PAT_BIG ? (mn ? mn : 1) : mx));
    if (empty_any && *est > t->nullable_est)
        t->nullable_est = *est;
    return true;
}

static int cp_cmp(const void *x, const void *y)
{
    uint32_t p = *(const uint32_t *)x, q = *(const uint32_t *)y;
    return p < q ? -1 : p > q;
}

/* The characters of s (valid UTF-8 of `chars` characters) in t->text, the distinct ones sorted in
 * t->chars. */
static bool distinct_chars(pctx *c, const char *s, uint64_t chars, tctx *t)
{
    uint32_t *v = palloc(c, (size_t)(chars ? chars : 1) * sizeof *v);
    if (!v)
        return false;
    uint32_t *text = palloc(c, (size_t)(chars ? chars : 1) * sizeof *text);
    if (!text)
        return false;
    pctx r = {0};
    r.s = (const unsigned char *)s;
    r.n = strlen(s);
    size_t n = 0;
    while (r.i < r.n && n < chars)
        v[n++] = next_cp(&r);
    memcpy(text, v, n * sizeof *v);
    t->text = text;
    qsort(v, n, sizeof *v, cp_cmp);
    size_t w = 0;
    for (size_t k = 0; k < n; k++)
        if (!w || v[k] != v[w - 1])
            v[w++] = v[k];
    t->chars = v;
    t->nchars = w;
    return spend(c, n);
}

/* ---- a second check for \b and \B ---------------------------------------------------------- */

/* glibc's regexec gets \b and \B wrong in some repetitions: in the C locale it finds
 * ^aab(\béé!!){3} in "aabéé!!éé!!éé!!" and [\b]{2}(.{3}\b){2} in "\b\baaaaaa", though no word
 * boundary precedes the second "éé" or follows "aaa" there. So a pattern with \b or \B is checked
 * twice: regexec with \b and \B left out (a pattern that matches more strings), and this
 * matcher, which walks the tree over the string with sets of positions: for a node and a start,
 * the set of positions where a match of the node can end. */
typedef struct mctx {
    pctx *c;
    const uint32_t *s; /* the string's characters */
    size_t n;          /* how many */
    size_t nw;         /* words in a position set (positions 0..n) */
    uint64_t **pool;   /* scratch sets: three per depth of the tree */
    size_t npool;
} mctx;

#define PAT_MATCH_DEPTH 1024

static void pset_zero(mctx *m, uint64_t *s)
{
    memset(s, 0, m->nw * sizeof(uint64_t));
}

/* Scratch set i of depth d, emptied: a node's walk at depth d only runs while no other one at
 * that depth does. */
static uint64_t *scratch(mctx *m, unsigned d, unsigned i)
{
    size_t k = (size_t)d * 3 + i;
    if (k >= m->npool)
        return fail(m->c, TOO_COMPLEX), NULL;
    if (!m->pool[k] && !(m->pool[k] = palloc(m->c, m->nw * sizeof(uint64_t))))
        return NULL;
    if (!spend(m->c, m->nw))
        return NULL;
    pset_zero(m, m->pool[k]);
    return m->pool[k];
}

static void pset_add(uint64_t *s, size_t p)
{
    s[p / 64] |= 1ull << (p % 64);
}

static bool pset_any(const mctx *m, const uint64_t *s)
{
    for (size_t k = 0; k < m->nw; k++)
        if (s[k])
            return true;
    return false;
}

static bool is_word(const mctx *m, size_t p)
{
    if (p >= m->n)
        return false;
    uint32_t ch = m->s[p];
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '_';
}

static bool ends(mctx *m, const pnode *n, size_t p, uint64_t *out, unsigned d);

/* out |= ends of n from every position in `from`. */
static bool ends_from(mctx *m, const pnode *n, const uint64_t *from, uint64_t *out, unsigned d)
{
    if (!spend(m->c, m->nw))
        return false;
    for (size_t k = 0; k < m->nw; k++)
        for (uint64_t w = from[k]; w; w &= w - 1)
            if (!ends(m, n, k * 64 + (size_t)__builtin_ctzll(w), out, d))
                return false;
    return true;
}

/* out |= the positions where a match of n that starts at p can end (n is at depth d). */
static bool ends(mctx *m, const pnode *n, size_t p, uint64_t *out, unsigned d)
{
    if (!spend(m->c, 1))
        return false;
    bool boundary = (p > 0 && is_word(m, p - 1)) != is_word(m, p);
    switch (n->kind) {
    case P_EMPTY:
        pset_add(out, p);
        return true;
    case P_CHAR:
        if (p < m->n && m->s[p] == n->cp)
            pset_add(out, p + 1);
        return true;
    case P_SET:
        if (p < m->n && in_set(n, m->s[p]))
            pset_add(out, p + 1);
        return true;
    case P_BOL:
    case P_EOL:
    case P_WORDB:
    case P_NWORDB:
        if (n->kind == P_BOL     ? p == 0
            : n->kind == P_EOL   ? p == m->n
            : n->kind == P_WORDB ? boundary
                                 : !boundary)
            pset_add(out, p);
        return true;
    case P_ALT:
        for (size_t k = 0; k < n->nkids; k++)
            if (!ends(m, n->kids[k], p, out, d + 1))
                return false;
        return true;
    case P_CAT: {
        uint64_t *cur = scratch(m, d, 0), *next = scratch(m, d, 1);
        if (!cur || !next)
            return false;
        pset_add(cur, p);
        for (size_t k = 0; k < n->nkids; k++) {
            pset_zero(m, next);
            if (!ends_from(m, n->kids[k], cur, next, d + 1))
                return false;
            uint64_t *t = cur;
            cur = next;
            next = t;
            if (!pset_any(m, cur))
                return true;
        }
        for (size_t k = 0; k < m->nw; k++)
            out[k] |= cur[k];
        return true;
    }
    case P_REP:
        break;
    }
    /* the union of S_k for k in [min, max]: S_0 = {p}, S_k = the kid's ends from S_(k-1); as in
     * rep_general, stop when S_k adds nothing (or, before min, stays the same) */
    uint64_t *cur = scratch(m, d, 0), *next = scratch(m, d, 1), *acc = scratch(m, d, 2);
    if (!cur || !next || !acc)
        return false;
    pset_add(cur, p);
    if (n->min == 0)
        pset_add(acc, p);
    for (uint64_t k = 1; k <= n->max; k++) {
        pset_zero(m, next);
        if (!ends_from(m, n->kids[0], cur, next, d + 1))
            return false;
        if (!pset_any(m, next))
            break;
        bool same = !memcmp(next, cur, m->nw * sizeof(uint64_t)), sub = true;
        for (size_t w = 0; w < m->nw; w++)
            sub = sub && !(next[w] & ~acc[w]);
        if (k >= n->min || same) {
            if (k > n->min && sub)
                break;
            for (size_t w = 0; w < m->nw; w++)
                acc[w] |= next[w];
            if (k < n->min) /* the same from here on: S_min is this one */
                break;
        }
        uint64_t *t = cur;
        cur = next;
        next = t;
    }
    for (size_t k = 0; k < m->nw; k++)
        out[k] |= acc[k];
    return true;
}

/* 1: root matches the text from character `start` on; 0: it does not; -1: out of budget (at most
 * PAT_MATCH_BUDGET of it) or memory. */
static int match_tree(pctx *c, const pnode *root, const uint32_t *text, size_t n, size_t start)
{
    mctx m = {c, text, n, n / 64 + 1, NULL, (size_t)PAT_MATCH_DEPTH * 3};
    m.pool = palloc(c, m.npool * sizeof *m.pool);
    uint64_t *out = palloc(c, m.nw * sizeof(uint64_t));
    if (!m.pool || !out)
        return -1;
    uint64_t left = c->work, limit = left < PAT_MATCH_BUDGET ? left : PAT_MATCH_BUDGET;
    c->work = limit;
    bool ok = ends(&m, root, start, out, 0);
    c->work = left - (limit - c->work);
    if (!ok)
        return -1;
    return pset_any(&m, out);
}

/* 1: s matches with a match of the pattern R at character (and byte: the padding is ASCII)
 * `lead`, where it was generated; 0: it does not; -1: could not check (c->why set).
 *
 * The check is regexec with the ERE ^[\x01-\xff]{lead}(R): a match there is a match of the
 * search, and anchoring it keeps glibc's regexec from trying R at every offset (quadratic time on
 * long strings: [a-z]{1,1024}$ on 4096 letters takes seconds). A pattern with \b or \B is also
 * checked with match_tree (see there). glibc's regcomp takes exponential time or worse on some
 * nested optional repetitions, such as ((x?y?){0,40}z?){0,40}, ((a*\b)?(a*\B)?)* or
 * (($)?(\B)?)*, and quadratic time in the number of alternatives: when R has optional
 * repetitions nested, anchors in optional repetitions, a large optional repetition, many
 * alternatives, or is large as a whole, match_tree alone decides. */
static int verify(pctx *c, const pnode *root, const char *s, uint64_t chars, uint64_t lead)
{
    sdkc_buf b = SDKC_BUF_INIT;
    tctx t = {0};
    t.c = c;
    t.b = &b;
    t.len = chars;
    t.erase_wordb = c->has_wordb;
    uint64_t est = 0;
    if (!distinct_chars(c, s, chars, &t))
        return -1;
    if (lead)
        sdkc_buf_printf(&b, "^[\x01-\x7f\x80-\xff]{%llu}(", (unsigned long long)lead);
    else
        sdkc_buf_puts(&b, "^(");
    if (!tr(&t, root, &est)) {
        sdkc_buf_cleanup(&b);
        return -1;
    }
    sdkc_buf_putc(&b, ')');
    if (sdkc_buf_finish(&b) != SDKC_OK) {
        sdkc_buf_cleanup(&b);
        return fail(c, OOM), -1;
    }
    bool use_regcomp = t.risky < 2 && t.max_nullable < 2 && t.nullable_est <= PAT_NULLABLE_EST &&
                       t.alternatives <= PAT_ALTERNATIVES && est <= PAT_ERE_EST &&
                       sat_mul(est, chars + 1) <= PAT_VERIFY_COST;
    int res = 1;
    if (use_regcomp) {
        locale_t loc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
        if (loc == (locale_t)0) {
            sdkc_buf_cleanup(&b);
            return fail(c, "cannot create the C locale to verify the generated value"), -1;
        }
        locale_t old = uselocale(loc);
        regex_t re;
        int rc = regcomp(&re, b.data, REG_EXTENDED | REG_NOSUB);
        if (rc != 0) {
            char msg[128];
            regerror(rc, &re, msg, sizeof msg);
            failf(c, "the generated value cannot be verified (regcomp failed)",
                  "the generated value cannot be verified (regcomp: %s)", msg);
            res = -1;
        } else {
            res = regexec(&re, s, 0, NULL, 0) == 0;
            regfree(&re);
        }
        uselocale(old);
        freelocale(loc);
    }
    sdkc_buf_cleanup(&b);
    if (res == 1 && (c->has_wordb || !use_regcomp)) {
        res = match_tree(c, root, t.text, (size_t)chars, (size_t)lead);
        if (res < 0 && c->why == TOO_COMPLEX)
            c->why = "the pattern is too complex to verify the generated value";
    }
    return res;
}

/* ---- the entry point ------------------------------------------------------------------------ */

/* Generate with padding char pad; the string is left in *b. */
static bool build(pctx *c, const pnode *root, const lset *zero, uint64_t total, uint64_t len,
                  int side, char pad, sdkc_buf *b)
{
    gctx g = {c, zero, b};
    sdkc_buf_reset(b);
    for (uint64_t k = 0; side == 2 && k < total - len; k++)
        sdkc_buf_putc(b, pad);
    if (!gen(&g, root, len, side != 2, side != 1))
        return false;
    for (uint64_t k = 0; side == 1 && k < total - len; k++)
        sdkc_buf_putc(b, pad);
    if (!b->data)
        sdkc_buf_puts(b, "");
    return sdkc_buf_finish(b) == SDKC_OK || fail(c, OOM);
}

static bool fail_bounds(pctx *c, size_t min_len, size_t max_len)
{
    if (max_len > SDKC_PATTERN_MAX_CHARS)
        return failf(c, "no string of the length bounds",
                     "no string of the length bounds: none matching the pattern has a length "
                     "from %zu up to the %d-character limit",
                     min_len, SDKC_PATTERN_MAX_CHARS);
    return failf(c, "no string of the length bounds",
                 "no string of the length bounds: none matching the pattern has a length "
                 "within [%zu, %zu]",
                 min_len, max_len);
}

static const char *example(pctx *c, size_t min_len, size_t max_len)
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
    if (min_len > max_len)
        return fail_bounds(c, min_len, max_len), NULL;
    if (min_len > SDKC_PATTERN_MAX_CHARS)
        return fail(c, "the minimum length is over the 4096-character limit"), NULL;

    actx x = {c, {0}, {0}};
    if (!ls_range(c, &x.zero, 0, 0) || !ls_range(c, &x.one, 1, 1) || !analyze(&x, root))
        return NULL;
    const fset *L = &root->len;
    if (fs_empty(L)) {
        if (root->tmin > SDKC_PATTERN_MAX_CHARS)
            return fail(c, "the shortest match is longer than the 4096-character limit"), NULL;
        if (c->cap < SDKC_PATTERN_MAX_CHARS)
            return fail_bounds(c, min_len, max_len), NULL;
        return fail(c, "the pattern cannot match any string"), NULL;
    }

    /* Totals: a match alone (may_start and may_end), or a match padded on a side it does not
     * anchor, any length at least the shortest such match. */
    uint64_t padmin = UINT64_MAX;
    for (int f = 0; f < 3; f++)
        if (L->f[f].nw && ls_min(&L->f[f]) < padmin)
            padmin = ls_min(&L->f[f]);
    uint64_t lo = min_len, hi = max_len < c->cap ? max_len : c->cap;
    uint64_t t0 = root->nat < lo ? lo : root->nat > hi ? hi : root->nat, total = UINT64_MAX;
    for (uint64_t d = 0; total == UINT64_MAX && (t0 >= d + lo || t0 + d <= hi); d++) {
        if (!spend(c, 1))
            return NULL;
        if (t0 >= d + lo && (fs_has(L, t0 - d, true, true) || t0 - d > padmin))
            total = t0 - d;
        else if (d && t0 + d <= hi && (fs_has(L, t0 + d, true, true) || t0 + d > padmin))
            total = t0 + d;
    }
    if (total == UINT64_MAX)
        return fail_bounds(c, min_len, max_len), NULL;
    /* The match: the whole string if it can be, else the longest one with padding after it
     * (side 1) or before it (side 2). */
    uint64_t len = total;
    int side = 0;
    if (!fs_has(L, total, true, true)) {
        for (len = total; len-- > 0;) {
            if (fs_has(L, len, true, false)) {
                side = 1;
                break;
            }
            if (fs_has(L, len, false, true)) {
                side = 2;
                break;
            }
        }
        if (!side)
            return fail(c, "internal error: no padding plan"), NULL;
    }

    sdkc_buf b = SDKC_BUF_INIT;
    static const char pads[] = {'a', ' '};
    const char *res = NULL;
    for (size_t p = 0; p < (side ? sizeof pads : 1); p++) {
        if (!build(c, root, &x.zero, total, len, side, pads[p], &b))
            break;
        int v = verify(c, root, b.data, total, side == 2 ? total - len : 0);
        if (v < 0)
            break;
        if (v == 1) {
            res = sdkc_arena_strdup(c->out, b.data);
            if (!res)
                fail(c, OOM);
            break;
        }
    }
    if (!res && !c->why)
        fail(c, c->has_wordb ? "the generated value failed verification (a word boundary \\b "
                               "or \\B could not be satisfied)"
                             : "the generated value failed verification");
    sdkc_buf_cleanup(&b);
    return res;
}

const char *sdkc_pattern_example(sdkc_arena *a, const char *pattern, size_t min_len, size_t max_len,
                                 const char **why)
{
    const char *dummy;
    if (!why)
        why = &dummy;
    *why = NULL;
    if (!a || !pattern) {
        *why = "no pattern";
        return NULL;
    }
    pctx c = {0};
    c.out = a;
    c.s = (const unsigned char *)pattern;
    c.n = strlen(pattern);
    c.cap = max_len < SDKC_PATTERN_MAX_CHARS ? (uint32_t)max_len : SDKC_PATTERN_MAX_CHARS;
    c.work = PAT_BUDGET;
    if (sdkc_arena_new(&c.a) != SDKC_OK) {
        *why = OOM;
        return NULL;
    }
    const char *res = example(&c, min_len, max_len);
    sdkc_arena_free(c.a);
    if (!res)
        *why = c.why ? c.why : "internal error";
    return res;
}
