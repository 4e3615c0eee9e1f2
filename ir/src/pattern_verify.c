/* pattern_verify.c - the check of a generated string before it is returned: the pattern
 * translated to a POSIX extended regular expression over UTF-8 bytes, run with regcomp/regexec
 * under a thread-local C locale, and the guards that hand the decision to the matcher of
 * pattern_match.c where glibc is not up to it (\b and \B, shapes that make regcomp exponential
 * or quadratic, translations too large).
 */
#include "pattern_internal.h"

#include <locale.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#define PAT_ERE_EST      400000ull /* regcomp expands {n,m}: larger translations go to match_tree */
#define PAT_VERIFY_COST  20000000ull /* regexec takes about (size after expansion) x (length) */
#define PAT_NULLABLE_EST 3000ull     /* regcomp is quadratic in optional repetitions: same */
#define PAT_ALTERNATIVES 1500ull     /* regcomp is quadratic in them: 4000 take seconds */
#define PAT_RE_DUP       32767u      /* glibc's RE_DUP_MAX */

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

/* A set, cut down to the characters that occur in the string (the others cannot take part in any
 * match of it): a bracket for the ASCII ones, each other one as its UTF-8 bytes. */
static void ere_set(tctx *t, const pnode *n)
{
    bool bits[128] = {false};
    size_t wide = 0;
    for (size_t k = 0; k < t->nchars; k++)
        if (sdkc_pat_in_set(n, t->chars[k])) {
            if (t->chars[k] < 128)
                bits[t->chars[k]] = true;
            else
                wide++;
        }
    if (wide)
        sdkc_buf_putc(t->b, '(');
    bool any = ere_ascii(t->b, bits);
    for (size_t k = 0; k < t->nchars; k++)
        if (t->chars[k] >= 128 && sdkc_pat_in_set(n, t->chars[k])) {
            if (any)
                sdkc_buf_putc(t->b, '|');
            sdkc_pat_put_utf8(t->b, t->chars[k]);
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

static bool translate(tctx *t, const pnode *n, uint64_t *est);

/* ^ $ \b \B; \b and \B are left out when t->erase_wordb. */
static void translate_assertion(tctx *t, const pnode *n, uint64_t *est)
{
    if ((n->kind == P_WORDB || n->kind == P_NWORDB) && t->erase_wordb) {
        *est = 0;
        return;
    }
    sdkc_buf_puts(t->b, n->kind == P_BOL     ? "^"
                        : n->kind == P_EOL   ? "$"
                        : n->kind == P_WORDB ? "\\b"
                                             : "\\B");
    t->risky += t->nullable_reps > 0;
}

/* (x|y), without empty alternatives: (x|y)? when there were some. An alternative that only
 * matches empty strings (under a condition such as \b) adds nothing when another one matches the
 * empty string unconditionally, or when the caller says so (drop_zw: a repetition of this that
 * may have no iteration). */
static bool translate_alt(tctx *t, const pnode *n, uint64_t *est)
{
    sdkc_buf *b = t->b;
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
        if (!translate(t, n->kids[k], &e))
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

/* {mn,mx} in its shortest ERE spelling; mx PAT_BIG is unbounded. */
static void put_quantifier(sdkc_buf *b, uint64_t mn, uint64_t mx)
{
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
}

/* x{n,m} on a string of len characters: an iteration that consumes something consumes a
 * character, so at most len of them do, and an empty one can be dropped: m >= len is as good as
 * unbounded. When x can match the empty string unconditionally, any count of iterations can be
 * padded with empty ones: x{n,m} is x{0,m}. When x cannot match the empty string at all, n > len
 * cannot match. When x only matches empty strings, x{0,m} is nothing and x{n,m} with n > 0 is x.
 * (Each also keeps regcomp's expansion and regexec's work small.) */
static bool translate_rep(tctx *t, const pnode *n, uint64_t *est)
{
    sdkc_buf *b = t->b;
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
    bool ok = translate(t, kid, &e);
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
    put_quantifier(b, mn, mx);
    *est = sat_add(1, sat_mul(e, mx == PAT_BIG ? (mn ? mn : 1) : mx));
    if (empty_any && *est > t->nullable_est)
        t->nullable_est = *est;
    return true;
}

/* The translation of n appended to t->b; *est is about the size regcomp expands it to. What only
 * matches the empty string without condition translates to nothing at all, and a repetition of
 * what only matches empty strings to no repetition: glibc's regcomp can take exponential time on
 * nested nullable repetitions around \b and empty groups, such as (\B()?\b()?)*. */
static bool translate(tctx *t, const pnode *n, uint64_t *est)
{
    if (!spend(t->c, 1))
        return false;
    *est = 1;
    switch (n->kind) {
    case P_EMPTY:
        *est = 0;
        return true;
    case P_CHAR:
        if (n->cp == 0 || (n->cp >= 0xD800 && n->cp <= 0xDFFF))
            sdkc_buf_puts(t->b, NEVER);
        else if (n->cp < 0x80)
            ere_byte_char(t->b, n->cp);
        else
            sdkc_pat_put_utf8(t->b, n->cp);
        return true;
    case P_SET:
        ere_set(t, n);
        return true;
    case P_BOL:
    case P_EOL:
    case P_WORDB:
    case P_NWORDB:
        translate_assertion(t, n, est);
        return true;
    case P_CAT:
        *est = 0;
        for (size_t k = 0; k < n->nkids; k++) {
            uint64_t e;
            if (!translate(t, n->kids[k], &e))
                return false;
            *est = sat_add(*est, e);
        }
        return true;
    case P_ALT:
        return translate_alt(t, n, est);
    case P_REP:
        break;
    }
    return translate_rep(t, n, est);
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
        v[n++] = sdkc_pat_next_cp(&r);
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
int sdkc_pat_verify(pctx *c, const pnode *root, const char *s, uint64_t chars, uint64_t lead)
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
    if (!translate(&t, root, &est)) {
        sdkc_buf_cleanup(&b);
        return -1;
    }
    sdkc_buf_putc(&b, ')');
    if (sdkc_buf_finish(&b) != SDKC_OK) {
        sdkc_buf_cleanup(&b);
        return fail(c, sdkc_pat_oom), -1;
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
            sdkc_pat_failf(c, "the generated value cannot be verified (regcomp failed)",
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
        res = sdkc_pat_match_tree(c, root, t.text, (size_t)chars, (size_t)lead);
        if (res < 0 && c->why == sdkc_pat_too_complex)
            c->why = "the pattern is too complex to verify the generated value";
    }
    return res;
}
