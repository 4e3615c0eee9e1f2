/* regex.c - ECMAScript patterns on PCRE2: the translation where the two differ, compilation with
 * limits, matching, and a cache of compiled patterns (see sdkc/regex.h for the semantics).
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "sdkc/regex.h"
#include "sdkc/map.h"

#include <pcre2.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sdkc_regex {
    pcre2_code *code;
    pcre2_match_context *mctx;
};

/* ECMAScript's WhiteSpace and LineTerminator (\s), and their complement (\S), as class items. */
static const char SPACE_ITEMS[] = "\\t-\\r \\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}"
                                  "\\x{202f}\\x{205f}\\x{3000}\\x{feff}";
static const char NONSPACE_ITEMS[] =
    "\\x{0}-\\x{8}\\x{e}-\\x{1f}\\x{21}-\\x{9f}\\x{a1}-\\x{167f}\\x{1681}-\\x{1fff}"
    "\\x{200b}-\\x{2027}\\x{202a}-\\x{202e}\\x{2030}-\\x{205e}\\x{2060}-\\x{2fff}"
    "\\x{3001}-\\x{fefe}\\x{ff00}-\\x{10ffff}";

typedef struct tr {
    const char *s;
    size_t i, n;
    sdkc_buf *b;
    const char *why;
} tr;

static bool refuse(tr *t, const char *why)
{
    if (!t->why)
        t->why = why;
    return false;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* n hex digits at s[i..]: the value, or -1. */
static long hex_n(const tr *t, size_t i, size_t n)
{
    long v = 0;
    for (size_t k = 0; k < n; k++) {
        if (i + k >= t->n || hexval(t->s[i + k]) < 0)
            return -1;
        v = v * 16 + hexval(t->s[i + k]);
    }
    return v;
}

static bool is_surrogate(long cp)
{
    return cp >= 0xD800 && cp <= 0xDFFF;
}

/* After a backslash at t->i (pointing at the letter): \xHH, \uHHHH (a surrogate pair joined),
 * \u{H...}: the code point with t->i past it, or -1 when the escape is not one of those (Annex
 * B: the letter itself). */
static long code_escape(tr *t)
{
    char c = t->s[t->i];
    long v;
    if (c == 'x') {
        if ((v = hex_n(t, t->i + 1, 2)) < 0)
            return -1;
        t->i += 3;
        return v;
    }
    if (c != 'u')
        return -1;
    if (t->i + 1 < t->n && t->s[t->i + 1] == '{') {
        size_t k = t->i + 2;
        v = 0;
        while (k < t->n && hexval(t->s[k]) >= 0 && v <= 0x10FFFF)
            v = v * 16 + hexval(t->s[k++]);
        if (k == t->i + 2 || k >= t->n || t->s[k] != '}' || v > 0x10FFFF)
            return -1;
        t->i = k + 1;
        return v;
    }
    if ((v = hex_n(t, t->i + 1, 4)) < 0)
        return -1;
    t->i += 5;
    if (v >= 0xD800 && v <= 0xDBFF && t->i + 6 <= t->n && t->s[t->i] == '\\' &&
        t->s[t->i + 1] == 'u') {
        long lo = hex_n(t, t->i + 2, 4);
        if (lo >= 0xDC00 && lo <= 0xDFFF) {
            t->i += 6;
            return 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00);
        }
    }
    return v;
}

static const char *const GC_NAMES[][2] = {
    {"Letter", "L"},
    {"Cased_Letter", "LC"},
    {"Uppercase_Letter", "Lu"},
    {"Lowercase_Letter", "Ll"},
    {"Titlecase_Letter", "Lt"},
    {"Modifier_Letter", "Lm"},
    {"Other_Letter", "Lo"},
    {"Mark", "M"},
    {"Combining_Mark", "M"},
    {"Nonspacing_Mark", "Mn"},
    {"Spacing_Mark", "Mc"},
    {"Enclosing_Mark", "Me"},
    {"Number", "N"},
    {"Decimal_Number", "Nd"},
    {"digit", "Nd"},
    {"Letter_Number", "Nl"},
    {"Other_Number", "No"},
    {"Punctuation", "P"},
    {"punct", "P"},
    {"Connector_Punctuation", "Pc"},
    {"Dash_Punctuation", "Pd"},
    {"Open_Punctuation", "Ps"},
    {"Close_Punctuation", "Pe"},
    {"Initial_Punctuation", "Pi"},
    {"Final_Punctuation", "Pf"},
    {"Other_Punctuation", "Po"},
    {"Symbol", "S"},
    {"Math_Symbol", "Sm"},
    {"Currency_Symbol", "Sc"},
    {"Modifier_Symbol", "Sk"},
    {"Other_Symbol", "So"},
    {"Separator", "Z"},
    {"Space_Separator", "Zs"},
    {"Line_Separator", "Zl"},
    {"Paragraph_Separator", "Zp"},
    {"Other", "C"},
    {"Control", "Cc"},
    {"cntrl", "Cc"},
    {"Format", "Cf"},
    {"Surrogate", "Cs"},
    {"Private_Use", "Co"},
    {"Unassigned", "Cn"},
};

static const char *gc_short(const char *name, size_t n)
{
    for (size_t k = 0; k < sizeof GC_NAMES / sizeof *GC_NAMES; k++)
        if (strlen(GC_NAMES[k][0]) == n && memcmp(GC_NAMES[k][0], name, n) == 0)
            return GC_NAMES[k][1];
    return NULL;
}

static bool prop_name_ok(const char *s, size_t n)
{
    if (n == 0 || n > 64)
        return false;
    for (size_t k = 0; k < n; k++)
        if (!((s[k] >= 'a' && s[k] <= 'z') || (s[k] >= 'A' && s[k] <= 'Z') ||
              (s[k] >= '0' && s[k] <= '9') || s[k] == '_'))
            return false;
    return true;
}

/* \p{...} or \P{...} with t->i at the p: translated, t->i past the }. false when there is no
 * braced name (the caller takes \p as the letter). */
static bool property(tr *t)
{
    char pc = t->s[t->i];
    if (t->i + 1 >= t->n || t->s[t->i + 1] != '{')
        return false;
    const char *name = t->s + t->i + 2;
    const char *end = memchr(name, '}', t->n - (t->i + 2));
    if (!end)
        return false;
    size_t n = (size_t)(end - name);
    const char *eq = memchr(name, '=', n);
    sdkc_buf_printf(t->b, "\\%c{", pc);
    if (eq) {
        size_t kn = (size_t)(eq - name), vn = n - kn - 1;
        const char *v = eq + 1;
        if (!prop_name_ok(name, kn) || !prop_name_ok(v, vn))
            return refuse(t, "an invalid Unicode property escape");
        if ((kn == 2 && !memcmp(name, "gc", 2)) ||
            (kn == 16 && !memcmp(name, "General_Category", 16))) {
            const char *sh = gc_short(v, vn);
            if (sh)
                sdkc_buf_puts(t->b, sh);
            else
                sdkc_buf_append(t->b, v, vn);
        } else if ((kn == 2 && !memcmp(name, "sc", 2)) || (kn == 6 && !memcmp(name, "Script", 6))) {
            sdkc_buf_puts(t->b, "sc:");
            sdkc_buf_append(t->b, v, vn);
        } else if ((kn == 3 && !memcmp(name, "scx", 3)) ||
                   (kn == 17 && !memcmp(name, "Script_Extensions", 17))) {
            sdkc_buf_puts(t->b, "scx:");
            sdkc_buf_append(t->b, v, vn);
        } else {
            return refuse(t, "an unknown Unicode property in \\p{name=value}");
        }
    } else {
        if (!prop_name_ok(name, n))
            return refuse(t, "an invalid Unicode property escape");
        const char *sh = gc_short(name, n);
        if (sh)
            sdkc_buf_puts(t->b, sh);
        else
            sdkc_buf_append(t->b, name, n);
    }
    sdkc_buf_putc(t->b, '}');
    t->i = (size_t)(end - t->s) + 1;
    return true;
}

static void put_cp(sdkc_buf *b, long cp)
{
    sdkc_buf_printf(b, "\\x{%lx}", (unsigned long)cp);
}

static bool is_class_escape(char c)
{
    return c && strchr("dDwWsSpP", c) != NULL;
}

/* A surrogate code point in a class, t->i past it. No UTF-8 string holds one: alone it adds
 * nothing; as a range's start it is U+E000, as its end U+D7FF, and a range of surrogates only
 * is left out. */
static bool class_surrogate(tr *t)
{
    sdkc_buf *b = t->b;
    bool is_end = b->len >= 2 && b->data[b->len - 1] == '-' && b->data[b->len - 2] != '\\' &&
                  b->data[b->len - 2] != '[' &&
                  !(b->len >= 3 && b->data[b->len - 3] == '[' && b->data[b->len - 2] == '^');
    if (is_end) {
        sdkc_buf_puts(b, "\\x{d7ff}");
        return true;
    }
    if (t->i + 1 < t->n && t->s[t->i] == '-' && t->s[t->i + 1] != ']') {
        size_t save = t->i;
        t->i++;
        long hi = t->s[t->i] == '\\' && t->i + 1 < t->n ? (t->i++, code_escape(t)) : -1;
        if (is_surrogate(hi))
            return true; /* surrogates only: nothing */
        t->i = save;
        sdkc_buf_puts(b, "\\x{e000}");
    }
    return true;
}

/* One escape with t->i at the backslash, appended; in_class: inside [ ]. *cls is set when it is
 * a class (\d \s \p{..} ...), which cannot be a range end. */
static bool escape(tr *t, bool in_class, bool *cls)
{
    *cls = false;
    t->i++;
    if (t->i >= t->n)
        return refuse(t, "a pattern ending in a backslash");
    char c = t->s[t->i];
    long cp;
    switch (c) {
    case 'd':
    case 'D':
    case 'w':
    case 'W':
        sdkc_buf_putc(t->b, '\\');
        sdkc_buf_putc(t->b, c);
        *cls = true;
        t->i++;
        return true;
    case 's':
    case 'S':
        if (!in_class)
            sdkc_buf_putc(t->b, '[');
        sdkc_buf_puts(t->b, c == 's' ? SPACE_ITEMS : NONSPACE_ITEMS);
        if (!in_class)
            sdkc_buf_putc(t->b, ']');
        *cls = true;
        t->i++;
        return true;
    case 'p':
    case 'P':
        if (property(t)) {
            *cls = true;
            return true;
        }
        if (t->why)
            return false;
        sdkc_buf_putc(t->b, c);
        t->i++;
        return true;
    case 'b':
    case 'B':
        if (in_class)
            sdkc_buf_puts(t->b, c == 'b' ? "\\x{8}" : "B");
        else
            sdkc_buf_puts(t->b, c == 'b' ? "\\b" : "\\B");
        t->i++;
        return true;
    case 't':
    case 'n':
    case 'r':
    case 'f':
        sdkc_buf_putc(t->b, '\\');
        sdkc_buf_putc(t->b, c);
        t->i++;
        return true;
    case 'v':
        sdkc_buf_puts(t->b, "\\x{b}");
        t->i++;
        return true;
    case '0':
        if (t->i + 1 < t->n && t->s[t->i + 1] >= '0' && t->s[t->i + 1] <= '9')
            return refuse(t, "an octal escape (not ECMAScript in Unicode mode)");
        sdkc_buf_puts(t->b, "\\x{0}");
        t->i++;
        return true;
    case 'c': {
        char l = t->i + 1 < t->n ? t->s[t->i + 1] : 0;
        if ((l >= 'a' && l <= 'z') || (l >= 'A' && l <= 'Z')) {
            put_cp(t->b, l % 32);
            t->i += 2;
        } else { /* Annex B: a backslash and a c */
            sdkc_buf_puts(t->b, "\\\\c");
            t->i++;
        }
        return true;
    }
    case 'k':
        if (!in_class && t->i + 1 < t->n && t->s[t->i + 1] == '<') {
            sdkc_buf_puts(t->b, "\\k");
            t->i++;
            return true;
        }
        sdkc_buf_putc(t->b, 'k');
        t->i++;
        return true;
    case 'x':
    case 'u':
        cp = code_escape(t);
        if (cp < 0) {
            sdkc_buf_putc(t->b, c);
            t->i++;
            return true;
        }
        if (is_surrogate(cp)) {
            if (in_class)
                return class_surrogate(t);
            sdkc_buf_puts(t->b, "(?!)"); /* no UTF-8 string holds one */
            return true;
        }
        put_cp(t->b, cp);
        return true;
    default:
        break;
    }
    if (c >= '1' && c <= '9') {
        if (in_class)
            return refuse(t, "an octal escape (not ECMAScript in Unicode mode)");
        size_t k = t->i;
        while (k < t->n && t->s[k] >= '0' && t->s[k] <= '9' && k - t->i < 6)
            k++;
        sdkc_buf_puts(t->b, "\\g{");
        sdkc_buf_append(t->b, t->s + t->i, k - t->i);
        sdkc_buf_putc(t->b, '}');
        t->i = k;
        return true;
    }
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') {
        sdkc_buf_putc(t->b, c); /* Annex B: an escaped letter without a meaning is the letter */
        t->i++;
        return true;
    }
    if ((unsigned char)c < 0x80) {
        sdkc_buf_putc(t->b, '\\');
        sdkc_buf_putc(t->b, c);
        t->i++;
        return true;
    }
    return true; /* an escaped non-ASCII character: the character itself, copied next */
}

/* Is t->s[i..] a quantifier {n}, {n,} or {n,m}? Its length, or 0. */
static size_t brace_quantifier(const tr *t, size_t i)
{
    size_t k = i + 1, d = 0;
    while (k < t->n && t->s[k] >= '0' && t->s[k] <= '9')
        k++, d++;
    if (!d)
        return 0;
    if (k < t->n && t->s[k] == ',') {
        k++;
        while (k < t->n && t->s[k] >= '0' && t->s[k] <= '9')
            k++;
    }
    return k < t->n && t->s[k] == '}' ? k + 1 - i : 0;
}

/* One UTF-8 character at t->i copied; its byte length. */
static void copy_char(tr *t)
{
    size_t k = t->i + 1;
    while (k < t->n && ((unsigned char)t->s[k] & 0xC0) == 0x80)
        k++;
    sdkc_buf_append(t->b, t->s + t->i, k - t->i);
    t->i = k;
}

/* A class with t->i at its [, to its ]. */
static bool klass(tr *t)
{
    t->i++;
    bool neg = t->i < t->n && t->s[t->i] == '^';
    if (neg)
        t->i++;
    if (t->i < t->n && t->s[t->i] == ']') {
        sdkc_buf_puts(t->b, neg ? "[\\x{0}-\\x{10ffff}]" : "(?!)");
        t->i++;
        return true;
    }
    sdkc_buf_puts(t->b, neg ? "[^" : "[");
    size_t body = t->b->len;
    bool prev_cls = false;
    while (t->i < t->n && t->s[t->i] != ']') {
        char c = t->s[t->i];
        if (c == '\\') {
            if (!escape(t, true, &prev_cls))
                return false;
            continue;
        }
        if (c == '-') {
            /* Annex B: a - next to a class escape ([\w-x], [a-\d]) is a literal - */
            bool next_cls =
                t->i + 2 < t->n && t->s[t->i + 1] == '\\' && is_class_escape(t->s[t->i + 2]);
            bool edge = t->i + 1 < t->n && t->s[t->i + 1] == ']';
            sdkc_buf_puts(t->b, prev_cls || next_cls || edge ? "\\-" : "-");
            t->i++;
            prev_cls = false;
            continue;
        }
        if (c == '[' || c == '^') {
            sdkc_buf_putc(t->b, '\\'); /* no POSIX [:alpha:], no ^ negation */
            sdkc_buf_putc(t->b, c);
            t->i++;
        } else {
            copy_char(t);
        }
        prev_cls = false;
    }
    if (t->i >= t->n)
        return refuse(t, "an unterminated character class");
    t->i++;
    if (t->b->len == body) { /* only surrogates: an empty class */
        t->b->len = body - (neg ? 2 : 1);
        sdkc_buf_puts(t->b, neg ? "[\\x{0}-\\x{10ffff}]" : "(?!)");
        return true;
    }
    sdkc_buf_putc(t->b, ']');
    return true;
}

/* ( with t->i at it: the group kinds ECMAScript has. */
static bool group(tr *t)
{
    const char *s = t->s + t->i;
    size_t left = t->n - t->i;
    if (left > 1 && s[1] == '*')
        return refuse(t, "(* is not ECMAScript");
    if (left < 2 || s[1] != '?') {
        sdkc_buf_putc(t->b, '(');
        t->i++;
        return true;
    }
    size_t k = 0;
    if (left > 2 && (s[2] == ':' || s[2] == '=' || s[2] == '!'))
        k = 3;
    else if (left > 3 && s[2] == '<' && (s[3] == '=' || s[3] == '!'))
        k = 4;
    else if (left > 3 && s[2] == '<') {
        size_t e = 3;
        while (e < left && s[e] != '>' &&
               ((s[e] >= 'a' && s[e] <= 'z') || (s[e] >= 'A' && s[e] <= 'Z') ||
                (s[e] >= '0' && s[e] <= '9') || s[e] == '_' || s[e] == '$'))
            e++;
        if (e < left && s[e] == '>' && e > 3)
            k = e + 1;
    }
    if (!k) {
        if (left > 2 && (s[2] == 'i' || s[2] == 'm' || s[2] == 's' || s[2] == 'x' || s[2] == '-'))
            return refuse(t, "inline flags such as (?i) are not ECMAScript");
        return refuse(t, "a group (?... that ECMAScript does not have");
    }
    if (memchr(s, '$', k))
        return refuse(t, "a group name with $ (PCRE2 does not take it)");
    sdkc_buf_append(t->b, s, k);
    t->i += k;
    return true;
}

#define PCRE2_MAX_COUNT 65535u /* the largest count PCRE2 takes in {n,m} */

/* atom{lo} for any lo: (?:atom{65535}) repeated, nested as often as lo needs (PCRE2 takes no
 * larger count). atom is one quantifiable item. */
static void rep_exact(sdkc_buf *b, const char *atom, size_t an, unsigned long long lo)
{
    if (lo <= PCRE2_MAX_COUNT) {
        sdkc_buf_append(b, atom, an); /* one atom: a quantifier applies to it as a whole */
        sdkc_buf_printf(b, "{%llu}", lo);
        return;
    }
    sdkc_buf inner = SDKC_BUF_INIT;
    sdkc_buf_puts(&inner, "(?:");
    sdkc_buf_append(&inner, atom, an);
    sdkc_buf_printf(&inner, "{%u})", PCRE2_MAX_COUNT);
    if (inner.data)
        rep_exact(b, inner.data, inner.len, lo / PCRE2_MAX_COUNT);
    else
        b->oom = true;
    sdkc_buf_cleanup(&inner);
    rep_exact(b, atom, an, lo % PCRE2_MAX_COUNT);
}

/* atom{0,hi} for any hi: (atom{0,65535}){0,q} atom{0,r}, hi = q * 65535 + r. */
static void rep_upto(sdkc_buf *b, const char *atom, size_t an, unsigned long long hi)
{
    if (hi <= PCRE2_MAX_COUNT) {
        sdkc_buf_append(b, atom, an); /* one atom: a quantifier applies to it as a whole */
        sdkc_buf_printf(b, "{0,%llu}", hi);
        return;
    }
    sdkc_buf inner = SDKC_BUF_INIT;
    sdkc_buf_puts(&inner, "(?:");
    sdkc_buf_append(&inner, atom, an);
    sdkc_buf_printf(&inner, "{0,%u})", PCRE2_MAX_COUNT);
    if (inner.data)
        rep_upto(b, inner.data, inner.len, hi / PCRE2_MAX_COUNT);
    else
        b->oom = true;
    sdkc_buf_cleanup(&inner);
    rep_upto(b, atom, an, hi % PCRE2_MAX_COUNT);
}

static unsigned long long count_at(const char *s, size_t *k, size_t end)
{
    unsigned long long v = 0;
    while (*k < end && s[*k] >= '0' && s[*k] <= '9') {
        if (v < 1000000000000ull)
            v = v * 10 + (unsigned long long)(s[*k] - '0');
        (*k)++;
    }
    return v;
}

/* The quantifier q (qn bytes: {n}, {n,}, {n,m}) applied to the atom at b[atom..): copied when
 * PCRE2 takes its counts, else the atom rewritten as nested repetitions of the same language.
 * Such an atom may not hold a capture group (the copies would renumber them). */
static bool brace(tr *t, size_t atom, const char *q, size_t qn)
{
    size_t k = 1;
    unsigned long long lo = count_at(q, &k, qn), hi = lo;
    bool unbounded = false;
    if (q[k] == ',') {
        k++;
        unbounded = q[k] == '}';
        hi = count_at(q, &k, qn);
    }
    if (lo <= PCRE2_MAX_COUNT && (unbounded || hi <= PCRE2_MAX_COUNT)) {
        sdkc_buf_append(t->b, q, qn);
        return true;
    }
    if (!unbounded && hi < lo)
        return refuse(t, "numbers out of order in a {} quantifier");
    sdkc_buf *b = t->b;
    size_t an = b->len - atom;
    if (!an || !b->data)
        return refuse(t, "nothing to repeat (a quantifier without an atom)");
    char *a = malloc(an + 1);
    if (!a)
        return b->oom = true, true;
    memcpy(a, b->data + atom, an);
    for (size_t i = 0; i < an; i++)
        if (a[i] == '(' && (i == 0 || a[i - 1] != '\\') && (i + 1 >= an || a[i + 1] != '?')) {
            free(a);
            return refuse(t, "a repetition count over 65535 of a group that captures");
        }
    b->len = atom;
    b->data[atom] = '\0';
    sdkc_buf_puts(b, "(?:");
    rep_exact(b, a, an, lo);
    if (unbounded) {
        sdkc_buf_puts(b, "(?:");
        sdkc_buf_append(b, a, an);
        sdkc_buf_puts(b, ")*");
    } else if (hi > lo) {
        rep_upto(b, a, an, hi - lo);
    }
    sdkc_buf_putc(b, ')');
    free(a);
    return true;
}

static bool translate(tr *t)
{
    bool quantified = false; /* the previous token was a quantifier */
    size_t atom = 0;         /* where the output of the last atom starts */
    size_t groups[SDKC_REGEX_MAX_NEST + 1];
    size_t depth = 0;
    while (t->i < t->n && !t->why) {
        char c = t->s[t->i];
        bool q = false, cls;
        size_t here = t->b->len;
        switch (c) {
        case '\\':
            if (!escape(t, false, &cls))
                return false;
            atom = here;
            break;
        case '[':
            if (!klass(t))
                return false;
            atom = here;
            break;
        case '(':
            if (depth > SDKC_REGEX_MAX_NEST)
                return refuse(t, "groups nested deeper than 64");
            groups[depth++] = here;
            if (!group(t))
                return false;
            break;
        case ')':
            sdkc_buf_putc(t->b, ')');
            t->i++;
            atom = depth ? groups[--depth] : here;
            break;
        case '.':
            sdkc_buf_puts(t->b, "[^\\n\\r\\x{2028}\\x{2029}]");
            t->i++;
            atom = here;
            break;
        case '{': {
            size_t qn = brace_quantifier(t, t->i);
            if (qn) {
                if (!brace(t, atom, t->s + t->i, qn))
                    return false;
                t->i += qn;
                q = true;
            } else {
                sdkc_buf_puts(t->b, "\\{"); /* Annex B: a lone { is literal */
                t->i++;
                atom = here;
            }
            break;
        }
        case '}':
        case ']':
            sdkc_buf_putc(t->b, '\\');
            sdkc_buf_putc(t->b, c);
            t->i++;
            atom = here;
            break;
        case '*':
        case '+':
        case '?':
            if (quantified && c == '+')
                return refuse(t, "a possessive quantifier (not ECMAScript)");
            sdkc_buf_putc(t->b, c);
            t->i++;
            q = !quantified; /* the ? of a lazy quantifier ends it */
            if (quantified && c == '?' && t->i < t->n && t->s[t->i] == '+')
                return refuse(t, "a quantifier after a lazy quantifier (not ECMAScript)");
            break;
        case '#':
            sdkc_buf_puts(t->b, "\\#");
            t->i++;
            atom = here;
            break;
        case '|':
        case '^':
        case '$':
            sdkc_buf_putc(t->b, c);
            t->i++;
            atom = t->b->len;
            break;
        default:
            copy_char(t);
            atom = here;
            break;
        }
        quantified = q;
    }
    return !t->why;
}

sdkc_status sdkc_regex_translate(sdkc_buf *out, const char *pattern, const char **why)
{
    const char *dummy;
    if (!why)
        why = &dummy;
    *why = NULL;
    if (!out || !pattern) {
        *why = "no pattern";
        return SDKC_ERR_INVALID;
    }
    sdkc_buf_reset(out);
    tr t = {pattern, 0, strlen(pattern), out, NULL};
    if (t.n > SDKC_REGEX_MAX_BYTES) {
        *why = "the pattern is longer than the 32768-byte limit";
        return SDKC_ERR_INVALID;
    }
    if (!translate(&t)) {
        *why = t.why;
        return SDKC_ERR_INVALID;
    }
    if (sdkc_buf_finish(out) != SDKC_OK) {
        *why = "out of memory";
        return SDKC_ERR_NOMEM;
    }
    return SDKC_OK;
}

void sdkc_regex_free(sdkc_regex *re)
{
    if (!re)
        return;
    pcre2_code_free(re->code);
    pcre2_match_context_free(re->mctx);
    free(re);
}

sdkc_status sdkc_regex_new(sdkc_regex **out, const char *pattern, sdkc_arena *a, const char **why)
{
    const char *dummy;
    if (!why)
        why = &dummy;
    *why = NULL;
    if (!out)
        return SDKC_ERR_INVALID;
    *out = NULL;
    sdkc_buf b = SDKC_BUF_INIT;
    sdkc_status st = sdkc_regex_translate(&b, pattern, why);
    if (st != SDKC_OK) {
        sdkc_buf_cleanup(&b);
        return st;
    }
    sdkc_regex *re = calloc(1, sizeof *re);
    pcre2_compile_context *cctx = pcre2_compile_context_create(NULL);
    st = SDKC_ERR_NOMEM;
    if (!re || !cctx || !(re->mctx = pcre2_match_context_create(NULL)))
        goto done;
    pcre2_set_parens_nest_limit(cctx, SDKC_REGEX_MAX_NEST);
    pcre2_set_match_limit(re->mctx, SDKC_REGEX_MATCH_LIMIT);
    pcre2_set_depth_limit(re->mctx, SDKC_REGEX_DEPTH_LIMIT);
    pcre2_set_heap_limit(re->mctx, SDKC_REGEX_HEAP_LIMIT_KIB);
    int err;
    PCRE2_SIZE off;
    re->code = pcre2_compile((PCRE2_SPTR)(b.data ? b.data : ""), b.len,
                             PCRE2_UTF | PCRE2_DOLLAR_ENDONLY | PCRE2_MATCH_UNSET_BACKREF |
                                 PCRE2_NEVER_BACKSLASH_C | PCRE2_NEVER_UCP,
                             &err, &off, cctx);
    if (!re->code) {
        if (err == PCRE2_ERROR_NOMEMORY || err == PCRE2_ERROR_HEAP_FAILED)
            goto done;
        PCRE2_UCHAR msg[160];
        if (pcre2_get_error_message(err, msg, sizeof msg) < 0)
            snprintf((char *)msg, sizeof msg, "an invalid pattern");
        const char *m = a ? sdkc_arena_printf(a, "%s (PCRE2)", (const char *)msg) : NULL;
        *why = m ? m : "a pattern PCRE2 cannot compile";
        st = SDKC_ERR_INVALID;
        goto done;
    }
    *out = re;
    re = NULL;
    st = SDKC_OK;
done:
    if (st == SDKC_ERR_NOMEM)
        *why = "out of memory";
    sdkc_regex_free(re);
    pcre2_compile_context_free(cctx);
    sdkc_buf_cleanup(&b);
    return st;
}

sdkc_regex_result sdkc_regex_match(const sdkc_regex *re, const char *s, size_t len,
                                   const char **why)
{
    const char *dummy;
    if (!why)
        why = &dummy;
    *why = NULL;
    if (!re || (!s && len)) {
        *why = "no pattern or subject";
        return SDKC_REGEX_LIMIT;
    }
    pcre2_match_data *md = pcre2_match_data_create(1, NULL);
    if (!md) {
        *why = "out of memory";
        return SDKC_REGEX_LIMIT;
    }
    int rc = pcre2_match(re->code, (PCRE2_SPTR)(s ? s : ""), len, 0, 0, md, re->mctx);
    pcre2_match_data_free(md);
    if (rc >= 0)
        return SDKC_REGEX_MATCH;
    if (rc == PCRE2_ERROR_NOMATCH)
        return SDKC_REGEX_NOMATCH;
    switch (rc) {
    case PCRE2_ERROR_MATCHLIMIT:
        *why = "the match limit was reached (the pattern backtracks catastrophically)";
        break;
    case PCRE2_ERROR_DEPTHLIMIT:
        *why = "the depth limit was reached (the pattern backtracks too deep)";
        break;
    case PCRE2_ERROR_HEAPLIMIT:
        *why = "the heap limit was reached (the pattern backtracks too deep)";
        break;
    case PCRE2_ERROR_NOMEMORY:
        *why = "out of memory";
        break;
    default:
        *why = rc <= PCRE2_ERROR_UTF8_ERR1 && rc >= PCRE2_ERROR_UTF8_ERR21
                   ? "the string is not valid UTF-8"
                   : "the match failed (PCRE2 error)";
        break;
    }
    return SDKC_REGEX_LIMIT;
}

/* ---- the cache ---- */

typedef struct entry {
    sdkc_regex *re; /* or NULL: why */
    const char *why;
} entry;

struct sdkc_regex_cache {
    sdkc_map by_text; /* pattern (in arena) -> entry */
    sdkc_arena *arena;
    sdkc_vec entries; /* entry *, to free */
};

sdkc_status sdkc_regex_cache_new(sdkc_regex_cache **out)
{
    if (!out)
        return SDKC_ERR_INVALID;
    *out = calloc(1, sizeof **out);
    if (!*out)
        return SDKC_ERR_NOMEM;
    sdkc_map_init(&(*out)->by_text, SDKC_MAP_STRINGS);
    if (sdkc_arena_new(&(*out)->arena) != SDKC_OK) {
        free(*out);
        *out = NULL;
        return SDKC_ERR_NOMEM;
    }
    return SDKC_OK;
}

void sdkc_regex_cache_free(sdkc_regex_cache *c)
{
    if (!c)
        return;
    for (size_t k = 0; k < c->entries.len; k++)
        sdkc_regex_free(((entry *)c->entries.items[k])->re);
    sdkc_vec_cleanup(&c->entries);
    sdkc_map_cleanup(&c->by_text);
    sdkc_arena_free(c->arena);
    free(c);
}

sdkc_status sdkc_regex_cache_get(sdkc_regex_cache *c, const sdkc_regex **out, const char *pattern,
                                 const char **why)
{
    const char *dummy;
    if (!why)
        why = &dummy;
    *why = NULL;
    if (!out || !c || !pattern)
        return SDKC_ERR_INVALID;
    *out = NULL;
    entry *e = sdkc_map_get(&c->by_text, pattern);
    if (!e) {
        char *key = sdkc_arena_strdup(c->arena, pattern);
        e = sdkc_arena_alloc(c->arena, sizeof *e);
        if (!key || !e || !sdkc_map_reserve(&c->by_text, c->by_text.len + 1) ||
            !sdkc_vec_push(&c->entries, e))
            return SDKC_ERR_NOMEM;
        sdkc_status st = sdkc_regex_new(&e->re, pattern, c->arena, &e->why);
        if (st == SDKC_ERR_NOMEM) {
            c->entries.len--;
            return st;
        }
        sdkc_map_put(&c->by_text, key, e);
    }
    *out = e->re;
    *why = e->why;
    return e->re ? SDKC_OK : SDKC_ERR_INVALID;
}
