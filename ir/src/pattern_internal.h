/* pattern_internal.h - what the steps of sdkc_pattern_example share: the context with its budget
 * and errors, the length sets, and the parsed tree.
 *
 *   pattern.c           the entry point: parse, analyze, choose a length, generate, verify
 *   pattern_parse.c     the ECMAScript pattern parser and its character sets
 *   pattern_lengths.c   length sets and the analysis that gives every node its match lengths
 *   pattern_generate.c  a string of a chosen length from the analyzed tree
 *   pattern_verify.c    the check of a generated string with the shared matcher (sdkc/regex.h)
 *
 * Not installed. Everything here lives in the private arena of one call.
 */
#ifndef SDKC_PATTERN_INTERNAL_H
#define SDKC_PATTERN_INTERNAL_H

#include "sdkc/pattern.h"
#include "sdkc/regex.h"
#include "sdkc/util.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PAT_INF    UINT32_MAX   /* an unbounded repetition */
#define PAT_BIG    1000000000u  /* counts saturate here: far beyond any length we generate */
#define PAT_MEMORY (256u << 20) /* working memory ceiling, bytes */

/* Reasons shared by the steps; a reason is compared by address to tell "out of budget" apart. */
extern const char sdkc_pat_oom[];
extern const char sdkc_pat_too_complex[];

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
    sdkc_regex *re;  /* the pattern compiled for verification, made on first use */
    bool has_wordb;  /* \b or \B seen */
    bool has_look;   /* lookaround seen (taken as empty by the generator) */
    int variant;     /* sdkc_pattern_variant's: 0 natural, 1 longest, 2 last alternatives */
    bool prop_seen;  /* (parser) a \p{..} in the class being parsed */
    bool legacy;     /* syntax only Annex B (no 'u' flag) accepts: a lone { } ], \- outside a
                      * class, [\w-x], other escaped punctuation */
    bool unicode;    /* syntax whose meaning needs the 'u' flag: \u{...}, characters outside
                      * the BMP (without 'u' they are two UTF-16 units) */
} pctx;

static inline bool fail(pctx *c, const char *why)
{
    if (!c->why)
        c->why = why;
    return false;
}

/* The first failure wins; a reason formatted into the caller's arena, or fallback without
 * memory. Returns false. */
bool sdkc_pat_failf(pctx *c, const char *fallback, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static inline bool spend(pctx *c, uint64_t units)
{
    if (units >= c->work) {
        c->work = 0;
        return fail(c, sdkc_pat_too_complex);
    }
    c->work -= units;
    return true;
}

static inline void *palloc(pctx *c, size_t n)
{
    if (n > PAT_MEMORY - c->mem)
        return fail(c, sdkc_pat_too_complex), NULL;
    c->mem += n;
    void *p = sdkc_arena_alloc(c->a, n ? n : 1);
    if (!p)
        fail(c, sdkc_pat_oom);
    return p;
}

static inline uint64_t sat_add(uint64_t x, uint64_t y)
{
    return x + y > PAT_BIG || x + y < x ? PAT_BIG : x + y;
}

static inline uint64_t sat_mul(uint64_t x, uint64_t y)
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

static inline bool ls_has(const lset *s, uint64_t len)
{
    return len / 64 < s->nw && (s->w[len / 64] >> (len % 64) & 1);
}

static inline uint64_t ls_min(const lset *s)
{
    for (uint32_t k = 0; k < s->nw; k++)
        if (s->w[k])
            return (uint64_t)k * 64 + (uint64_t)__builtin_ctzll(s->w[k]);
    return UINT64_MAX;
}

static inline uint64_t ls_max(const lset *s)
{
    if (!s->nw)
        return 0;
    return (uint64_t)(s->nw - 1) * 64 + 63 - (uint64_t)__builtin_clzll(s->w[s->nw - 1]);
}

static inline bool fs_empty(const fset *s)
{
    return !s->f[0].nw && !s->f[1].nw && !s->f[2].nw && !s->f[3].nw;
}

/* Does s have a match of length len whose anchoring is allowed: at the start of the string when
 * may_start, at its end when may_end? */
static inline bool fs_has(const fset *s, uint64_t len, bool may_start, bool may_end)
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

/* ---- the steps ---------------------------------------------------------------------------------
 */

/* pattern_parse.c: the tree of c->s[0..c->n), checked to be valid UTF-8 within the size limit and
 * not to mix 'u'-only with Annex B-only syntax; NULL with c->why set on failure. */
pnode *sdkc_pat_parse(pctx *c);
/* One UTF-8 code point at c->s + c->i (valid UTF-8), c->i moved past it. */
uint32_t sdkc_pat_next_cp(pctx *c);
/* The character generated for a set of n ranges (see there); 0 if none below limit. */
uint32_t sdkc_pat_pick_char(const prange *rg, size_t n, uint32_t limit);
/* Is cp in the P_SET node n? */
bool sdkc_pat_in_set(const pnode *n, uint32_t cp);

/* pattern_lengths.c: the lengths of every node's matches (pnode.len, nat, tmin, plain, eps), and
 * *zero = {0} for the later steps. */
bool sdkc_pat_analyze(pctx *c, pnode *root, lset *zero);
/* Concatenation and equality of length sets by anchoring (see there). */
bool sdkc_pat_fs_cat(pctx *c, const lset *zero, const fset *x, const fset *y, fset *out);
bool sdkc_pat_fs_eq(const fset *x, const fset *y);

/* pattern_generate.c: a string of total characters in *b (reset first): a match of root of len
 * characters, alone (side 0), padded after it (side 1) or before it (side 2) with pad. */
bool sdkc_pat_generate(pctx *c, const pnode *root, const lset *zero, uint64_t total, uint64_t len,
                       int side, char pad, sdkc_buf *b);
void sdkc_pat_put_utf8(sdkc_buf *b, uint32_t cp);

/* pattern_verify.c: 1 if s matches the pattern c->s, 0 if not, -1 if it could not be checked
 * (c->why set). */
int sdkc_pat_verify(pctx *c, const char *s);

#endif
