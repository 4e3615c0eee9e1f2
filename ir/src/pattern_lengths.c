/* pattern_lengths.c - the lengths (in code points, up to the cap) of the strings every node of
 * the tree can match, split by whether the match needs to start at the start of the string (it
 * went through a ^ before consuming anything) and whether it needs to end at its end ($).
 *
 * The length sets are bitsets over 0..cap (cap = min(max_len, SDKC_PATTERN_MAX_CHARS)); every
 * operation on them is charged to the budget.
 */
#include "pattern_internal.h"

#include <string.h>

/* ---- length sets --------------------------------------------------------------------------- */

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

static bool fs_union(pctx *c, const fset *x, const fset *y, fset *out)
{
    fset r;
    for (int f = 0; f < 4; f++)
        if (!ls_union(c, &x->f[f], &y->f[f], &r.f[f]))
            return false;
    *out = r;
    return true;
}

bool sdkc_pat_fs_eq(const fset *x, const fset *y)
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
bool sdkc_pat_fs_cat(pctx *c, const lset *zero, const fset *x, const fset *y, fset *out)
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
        if (!spend(c, 16) || !sdkc_pat_fs_cat(c, &x->zero, &prev, kid, &t))
            return false;
        if (fs_empty(&t))
            break;
        if (k < n->min &&
            sdkc_pat_fs_eq(&t, &prev)) { /* stable: T_min = t, and so is every later T */
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

static bool analyze(actx *x, pnode *n);

static bool analyze_cat(actx *x, pnode *n)
{
    pctx *c = x->c;
    n->pre = palloc(c, n->nkids * sizeof *n->pre);
    if (!n->pre)
        return false;
    for (size_t k = 0; k < n->nkids; k++) {
        if (!analyze(x, n->kids[k]))
            return false;
        if (k == 0)
            n->pre[0] = n->kids[0]->len;
        else if (!sdkc_pat_fs_cat(c, &x->zero, &n->pre[k - 1], &n->kids[k]->len, &n->pre[k]))
            return false;
        n->nat = sat_add(n->nat, n->kids[k]->nat);
        n->tmin = sat_add(n->tmin, n->kids[k]->tmin);
    }
    n->len = n->pre[n->nkids - 1];
    return true;
}

static bool analyze_alt(actx *x, pnode *n)
{
    bool have_nat = false;
    n->tmin = PAT_BIG;
    for (size_t k = 0; k < n->nkids; k++) {
        pnode *kid = n->kids[k];
        if (!analyze(x, kid) || !fs_union(x->c, &n->len, &kid->len, &n->len))
            return false;
        if (!have_nat && !fs_empty(&kid->len)) {
            n->nat = kid->nat;
            have_nat = true;
        }
        if (kid->tmin < n->tmin)
            n->tmin = kid->tmin;
    }
    return true;
}

/* A repetition of a plain kid (lengths [lo, hi]): the union of [k*lo, k*hi] for k in [min, max]. */
static bool rep_plain(actx *x, pnode *n, const pnode *kid)
{
    pctx *c = x->c;
    uint64_t lo = kid->plo, hi = kid->phi, mx = n->max == PAT_INF ? PAT_BIG : n->max;
    lset r = {0}, part;
    if (lo == 0) {
        if (!ls_range(c, &r, 0, sat_mul(hi, mx)))
            return false;
    } else {
        for (uint64_t k = n->min; k <= mx && k * lo <= c->cap; k++) {
            /* once consecutive runs touch ((k+1)*lo <= k*hi + 1, which stays true for larger k)
             * or reach the cap, one range covers the rest */
            bool rest = k * hi >= c->cap || (k + 1) * lo <= k * hi + 1;
            if (!ls_range(c, &part, k * lo, rest ? sat_mul(mx, hi) : k * hi) ||
                !ls_union(c, &r, &part, &r))
                return false;
            if (rest)
                break;
        }
    }
    n->len.f[0] = r;
    return true;
}

static bool analyze_rep(actx *x, pnode *n)
{
    pnode *kid = n->kids[0];
    if (!analyze(x, kid))
        return false;
    n->nat = sat_mul(kid->nat, n->min);
    n->tmin = sat_mul(kid->tmin, n->min);
    if (fs_empty(&kid->len)) {
        if (n->min == 0)
            n->len.f[0] = x->zero;
        return true;
    }
    return kid->plain ? rep_plain(x, n, kid) : rep_general(x, n, &kid->len);
}

/* Does n match the empty string without any condition (^ $ \b \B)? Its kids know already. */
static bool empty_without_condition(const pnode *n)
{
    bool eps = false;
    switch (n->kind) {
    case P_EMPTY:
        return true;
    case P_CAT:
        eps = true;
        for (size_t k = 0; k < n->nkids; k++)
            eps = eps && n->kids[k]->eps;
        return eps;
    case P_ALT:
        for (size_t k = 0; k < n->nkids; k++)
            eps = eps || n->kids[k]->eps;
        return eps;
    case P_REP:
        return n->min == 0 || n->kids[0]->eps;
    default:
        return false;
    }
}

static bool analyze(actx *x, pnode *n)
{
    pctx *c = x->c;
    if (!spend(c, 1))
        return false;
    bool ok = true;
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
        n->pick = sdkc_pat_pick_char(n->rg, n->nrg, c->legacy ? 0xFFFF : 0x10FFFF);
        if (n->pick)
            n->len.f[0] = x->one;
        n->nat = n->tmin = 1;
        break;
    case P_CAT:
        ok = analyze_cat(x, n);
        break;
    case P_ALT:
        ok = analyze_alt(x, n);
        break;
    case P_REP:
        ok = analyze_rep(x, n);
        break;
    }
    if (!ok)
        return false;
    if (n->nat > c->cap + 1)
        n->nat = c->cap + 1;
    n->eps = empty_without_condition(n);
    n->plain = !n->len.f[1].nw && !n->len.f[2].nw && !n->len.f[3].nw &&
               ls_interval(&n->len.f[0], &n->plo, &n->phi);
    return true;
}

bool sdkc_pat_analyze(pctx *c, pnode *root, lset *zero)
{
    actx x = {c, {0}, {0}};
    if (!ls_range(c, &x.zero, 0, 0) || !ls_range(c, &x.one, 1, 1) || !analyze(&x, root))
        return false;
    *zero = x.zero;
    return true;
}
