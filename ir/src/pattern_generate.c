/* pattern_generate.c - a string of a chosen length from the analyzed tree, preferring each node's
 * "natural" length (first alternatives, fewest repetitions) and the character picked for each
 * set (letters and digits first).
 */
#include "pattern_internal.h"

#include <string.h>

typedef struct gctx {
    pctx *c;
    const lset *zero;
    sdkc_buf *b;
} gctx;

static bool gen(gctx *g, const pnode *n, uint64_t len, bool may_start, bool may_end);

void sdkc_pat_put_utf8(sdkc_buf *b, uint32_t cp)
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
        if (!spend(c, 16) || !sdkc_pat_fs_cat(c, g->zero, &t[cnt - 1], &kid->len, &t[cnt]))
            return false;
        stable = sdkc_pat_fs_eq(&t[cnt], &t[cnt - 1]);
        cnt++;
        k++;
    }
    if (k > (uint64_t)SDKC_PATTERN_MAX_CHARS * 4)
        return fail(c, sdkc_pat_too_complex);
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
        sdkc_pat_put_utf8(g->b, n->cp);
        return true;
    case P_SET:
        sdkc_pat_put_utf8(g->b, n->pick);
        return true;
    case P_CAT:
        return gen_cat(g, n, len, may_start, may_end);
    case P_ALT:
        for (size_t i = 0; i < n->nkids; i++) {
            size_t k = g->c->variant == SDKC_PATTERN_LAST_ALTERNATIVES ? n->nkids - 1 - i : i;
            if (fs_has(&n->kids[k]->len, len, may_start, may_end))
                return gen(g, n->kids[k], len, may_start, may_end);
        }
        return fail(g->c, "internal error: no alternative");
    case P_REP:
        return gen_rep(g, n, len, may_start, may_end);
    default: /* empty, anchors, \b, \B */
        return true;
    }
}

bool sdkc_pat_generate(pctx *c, const pnode *root, const lset *zero, uint64_t total, uint64_t len,
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
    return sdkc_buf_finish(b) == SDKC_OK || fail(c, sdkc_pat_oom);
}
