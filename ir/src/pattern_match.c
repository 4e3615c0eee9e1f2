/* pattern_match.c - a matcher over the parsed tree, for what the POSIX ERE check of
 * pattern_verify.c cannot decide alone.
 */
#include "pattern_internal.h"

#include <string.h>

#define PAT_MATCH_BUDGET 30000000ull /* of PAT_BUDGET, for match_tree */
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
        return fail(m->c, sdkc_pat_too_complex), NULL;
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

/* Does the assertion n (^ $ \b \B) hold at p? */
static bool assertion_holds(const mctx *m, const pnode *n, size_t p)
{
    bool boundary = (p > 0 && is_word(m, p - 1)) != is_word(m, p);
    return n->kind == P_BOL     ? p == 0
           : n->kind == P_EOL   ? p == m->n
           : n->kind == P_WORDB ? boundary
                                : !boundary;
}

static bool ends_cat(mctx *m, const pnode *n, size_t p, uint64_t *out, unsigned d)
{
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

/* The union of S_k for k in [min, max]: S_0 = {p}, S_k = the kid's ends from S_(k-1); as in
 * rep_general, stop when S_k adds nothing (or, before min, stays the same). */
static bool ends_rep(mctx *m, const pnode *n, size_t p, uint64_t *out, unsigned d)
{
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

/* out |= the positions where a match of n that starts at p can end (n is at depth d). */
static bool ends(mctx *m, const pnode *n, size_t p, uint64_t *out, unsigned d)
{
    if (!spend(m->c, 1))
        return false;
    switch (n->kind) {
    case P_EMPTY:
        pset_add(out, p);
        return true;
    case P_CHAR:
        if (p < m->n && m->s[p] == n->cp)
            pset_add(out, p + 1);
        return true;
    case P_SET:
        if (p < m->n && sdkc_pat_in_set(n, m->s[p]))
            pset_add(out, p + 1);
        return true;
    case P_BOL:
    case P_EOL:
    case P_WORDB:
    case P_NWORDB:
        if (assertion_holds(m, n, p))
            pset_add(out, p);
        return true;
    case P_ALT:
        for (size_t k = 0; k < n->nkids; k++)
            if (!ends(m, n->kids[k], p, out, d + 1))
                return false;
        return true;
    case P_CAT:
        return ends_cat(m, n, p, out, d);
    case P_REP:
        break;
    }
    return ends_rep(m, n, p, out, d);
}

/* 1: root matches the text from character `start` on; 0: it does not; -1: out of budget (at most
 * PAT_MATCH_BUDGET of it) or memory. */
int sdkc_pat_match_tree(pctx *c, const pnode *root, const uint32_t *text, size_t n, size_t start)
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
