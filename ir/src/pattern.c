/* pattern.c - an example string for a schema `pattern` (an ECMAScript regular expression).
 *
 * Four steps, all working in a private arena freed before returning:
 *
 *  1. parse the pattern into a small tree (pattern_parse.c);
 *  2. compute, for every node, the set of lengths (in code points, up to a cap) of the strings it
 *     can match, split by whether the match needs to start at the start of the string (it went
 *     through a ^ before consuming anything) and whether it needs to end at its end ($)
 *     (pattern_lengths.c);
 *  3. choose a total length (here) and generate a string of exactly that length, preferring each
 *     node's "natural" length (first alternatives, fewest repetitions) and letters/digits for
 *     classes (pattern_generate.c);
 *  4. verify the string before returning it with the matcher `sdkc conform` validates with
 *     (sdkc/regex.h, PCRE2 with match limits): independent of steps 1-3 (pattern_verify.c).
 *
 * The length sets are bitsets over 0..cap (cap = min(max_len, SDKC_PATTERN_MAX_CHARS)). All the
 * work is charged to a budget, and the working memory has a ceiling, so that hostile patterns end
 * with a reason instead of running long.
 */
#include "pattern_internal.h"

#include <stdarg.h>
#include <string.h>

#define PAT_BUDGET   200000000ull /* work units (about one 64-bit word operation each) */
#define LOOK_RETRIES 8            /* longer strings tried when a lookaround was not satisfied */

const char sdkc_pat_oom[] = "out of memory";
const char sdkc_pat_too_complex[] = "the pattern is too complex to generate a value for";

bool sdkc_pat_failf(pctx *c, const char *fallback, const char *fmt, ...)
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

static bool fail_bounds(pctx *c, size_t min_len, size_t max_len)
{
    if (max_len > SDKC_PATTERN_MAX_CHARS)
        return sdkc_pat_failf(
            c, "no string of the length bounds",
            "no string of the length bounds: none matching the pattern has a length "
            "from %zu up to the %d-character limit",
            min_len, SDKC_PATTERN_MAX_CHARS);
    return sdkc_pat_failf(c, "no string of the length bounds",
                          "no string of the length bounds: none matching the pattern has a length "
                          "within [%zu, %zu]",
                          min_len, max_len);
}

/* The length of the whole string: the one closest to the root's natural length within the bounds
 * that a match alone (may_start and may_end) has, or that a match padded on a side it does not
 * anchor reaches (any length at least the shortest such match). */
static bool choose_total(pctx *c, const pnode *root, size_t min_len, size_t max_len,
                         uint64_t *total)
{
    const fset *L = &root->len;
    uint64_t padmin = UINT64_MAX;
    for (int f = 0; f < 3; f++)
        if (L->f[f].nw && ls_min(&L->f[f]) < padmin)
            padmin = ls_min(&L->f[f]);
    uint64_t lo = min_len, hi = max_len < c->cap ? max_len : c->cap;
    uint64_t nat = c->variant == SDKC_PATTERN_LONGEST ? hi : root->nat;
    uint64_t t0 = nat < lo ? lo : nat > hi ? hi : nat;
    *total = UINT64_MAX;
    for (uint64_t d = 0; *total == UINT64_MAX && (t0 >= d + lo || t0 + d <= hi); d++) {
        if (!spend(c, 1))
            return false;
        if (t0 >= d + lo && (fs_has(L, t0 - d, true, true) || t0 - d > padmin))
            *total = t0 - d;
        else if (d && t0 + d <= hi && (fs_has(L, t0 + d, true, true) || t0 + d > padmin))
            *total = t0 + d;
    }
    return *total != UINT64_MAX || fail_bounds(c, min_len, max_len);
}

/* The match in a string of total characters: the whole string if it can be (side 0), else the
 * longest one with padding after it (side 1) or before it (side 2). */
static bool choose_match(pctx *c, const fset *L, uint64_t total, uint64_t *len, int *side)
{
    *len = total;
    *side = 0;
    if (fs_has(L, total, true, true))
        return true;
    for (*len = total; (*len)-- > 0;) {
        if (fs_has(L, *len, true, false)) {
            *side = 1;
            return true;
        }
        if (fs_has(L, *len, false, true)) {
            *side = 2;
            return true;
        }
    }
    return fail(c, "internal error: no padding plan");
}

/* Generate and verify, with each padding character in turn when there is padding; the string
 * (in the caller's arena) or NULL with c->why set. */
static const char *generate_verified(pctx *c, const pnode *root, const lset *zero, uint64_t total,
                                     uint64_t len, int side)
{
    sdkc_buf b = SDKC_BUF_INIT;
    static const char pads[] = {'a', ' '};
    const char *res = NULL;
    for (size_t p = 0; p < (side ? sizeof pads : 1); p++) {
        if (!sdkc_pat_generate(c, root, zero, total, len, side, pads[p], &b))
            break;
        int v = sdkc_pat_verify(c, b.data);
        if (v < 0)
            break;
        if (v == 1) {
            res = sdkc_arena_strdup(c->out, b.data);
            if (!res)
                fail(c, sdkc_pat_oom);
            break;
        }
    }
    if (!res && !c->why)
        fail(c, c->has_look    ? "the generated value failed verification (a lookaround "
                                 "assertion could not be satisfied)"
                : c->has_wordb ? "the generated value failed verification (a word boundary \\b "
                                 "or \\B could not be satisfied)"
                               : "the generated value failed verification");
    sdkc_buf_cleanup(&b);
    return res;
}

static const char *example(pctx *c, size_t min_len, size_t max_len)
{
    pnode *root = sdkc_pat_parse(c);
    if (!root)
        return NULL;
    if (min_len > max_len)
        return fail_bounds(c, min_len, max_len), NULL;
    if (min_len > SDKC_PATTERN_MAX_CHARS)
        return fail(c, "the minimum length is over the 4096-character limit"), NULL;

    lset zero;
    if (!sdkc_pat_analyze(c, root, &zero))
        return NULL;
    if (fs_empty(&root->len)) {
        if (root->tmin > SDKC_PATTERN_MAX_CHARS)
            return fail(c, "the shortest match is longer than the 4096-character limit"), NULL;
        if (c->cap < SDKC_PATTERN_MAX_CHARS)
            return fail_bounds(c, min_len, max_len), NULL;
        return fail(c, "the pattern cannot match any string"), NULL;
    }
    uint64_t total, len;
    int side;
    if (!choose_total(c, root, min_len, max_len, &total) ||
        !choose_match(c, &root->len, total, &len, &side))
        return NULL;
    const char *res = generate_verified(c, root, &zero, total, len, side);
    /* A lookaround the string missed, such as (?!\s*$) on an empty one or (?=.{8}) on a short
     * one: a few longer strings are tried before giving up. */
    for (int more = 0; !res && c->has_look && more < LOOK_RETRIES && total < max_len; more++) {
        const char *first = c->why;
        uint64_t t2;
        c->why = NULL;
        if (!choose_total(c, root, (size_t)total + 1, max_len, &t2) ||
            !choose_match(c, &root->len, t2, &len, &side)) {
            c->why = first; /* no longer string: the first reason stands */
            break;
        }
        total = t2;
        res = generate_verified(c, root, &zero, total, len, side);
        if (!res && c->why != sdkc_pat_oom && c->why != sdkc_pat_too_complex)
            c->why = first;
    }
    return res;
}

const char *sdkc_pattern_example(sdkc_arena *a, const char *pattern, size_t min_len, size_t max_len,
                                 const char **why)
{
    return sdkc_pattern_variant(a, pattern, min_len, max_len, SDKC_PATTERN_NATURAL, why);
}

const char *sdkc_pattern_variant(sdkc_arena *a, const char *pattern, size_t min_len, size_t max_len,
                                 sdkc_pattern_choice choice, const char **why)
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
    c.variant = (int)choice;
    if (sdkc_arena_new(&c.a) != SDKC_OK) {
        *why = sdkc_pat_oom;
        return NULL;
    }
    const char *res = example(&c, min_len, max_len);
    sdkc_regex_free(c.re);
    sdkc_arena_free(c.a);
    if (!res)
        *why = c.why ? c.why : "internal error";
    return res;
}
