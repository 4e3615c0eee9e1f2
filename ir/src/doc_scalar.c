/* doc_scalar.c - scalars under the YAML 1.2 core schema: how a plain scalar resolves (null, bool,
 * int, float or string) and how a resolved scalar reads as a C value.
 */
#include "doc_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- resolution ----------------------------------------------------------------------------- */

static bool all_in(const char *s, size_t n, const char *set)
{
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!s[i] || !strchr(set, s[i]))
            return false;
    return true;
}

static bool text_is(const char *s, size_t n, const char *a, const char *b, const char *c)
{
    return (strlen(a) == n && memcmp(s, a, n) == 0) || (strlen(b) == n && memcmp(s, b, n) == 0) ||
           (strlen(c) == n && memcmp(s, c, n) == 0);
}

static bool is_core_int(const char *s, size_t n)
{
    if (n > 2 && s[0] == '0' && s[1] == 'o')
        return all_in(s + 2, n - 2, "01234567");
    if (n > 2 && s[0] == '0' && s[1] == 'x')
        return all_in(s + 2, n - 2, "0123456789abcdefABCDEF");
    if (n > 0 && (s[0] == '-' || s[0] == '+')) {
        s++;
        n--;
    }
    return all_in(s, n, "0123456789");
}

static size_t digits(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && s[i] >= '0' && s[i] <= '9')
        i++;
    return i;
}

static bool is_core_float(const char *s, size_t n)
{
    if (text_is(s, n, ".nan", ".NaN", ".NAN"))
        return true;
    if (n > 0 && (s[0] == '-' || s[0] == '+')) {
        s++;
        n--;
    }
    if (text_is(s, n, ".inf", ".Inf", ".INF"))
        return true;
    /* (\.[0-9]+ | [0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)? */
    size_t i = digits(s, n);
    if (i == 0) {
        if (n < 2 || s[0] != '.')
            return false;
        size_t f = digits(s + 1, n - 1);
        if (f == 0)
            return false;
        i = 1 + f;
    } else if (i < n && s[i] == '.') {
        i++;
        i += digits(s + i, n - i);
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '-' || s[i] == '+'))
            i++;
        size_t e = digits(s + i, n - i);
        if (e == 0)
            return false;
        i += e;
    }
    return i == n;
}

/* YAML 1.2 core schema resolution of a plain scalar. */
sdkc_scalar_type sdkc_doc_resolve_plain(const char *s, size_t n)
{
    if (n == 0 || text_is(s, n, "~", "null", "Null") || text_is(s, n, "NULL", "NULL", "NULL"))
        return SDKC_SCALAR_NULL;
    if (text_is(s, n, "true", "True", "TRUE") || text_is(s, n, "false", "False", "FALSE"))
        return SDKC_SCALAR_BOOL;
    if (is_core_int(s, n))
        return SDKC_SCALAR_INT;
    if (is_core_float(s, n))
        return SDKC_SCALAR_FLOAT;
    return SDKC_SCALAR_STRING;
}

const char *sdkc_doc_scalar_type_name(sdkc_scalar_type t)
{
    switch (t) {
    case SDKC_SCALAR_STRING:
        return "str";
    case SDKC_SCALAR_INT:
        return "int";
    case SDKC_SCALAR_FLOAT:
        return "float";
    case SDKC_SCALAR_BOOL:
        return "bool";
    case SDKC_SCALAR_NULL:
        return "null";
    }
    return "?";
}

/* ---- reading -------------------------------------------------------------------------------- */

bool sdkc_node_bool(const sdkc_node *n, bool *out)
{
    if (!n || n->kind != SDKC_NODE_SCALAR || n->scalar != SDKC_SCALAR_BOOL)
        return false;
    *out = n->str[0] == 't' || n->str[0] == 'T';
    return true;
}

/* Magnitude of an INT scalar's digits (after any sign) in base 8, 10 or 16; false on overflow. */
static bool int_magnitude(const char *s, size_t n, bool *neg, uint64_t *mag)
{
    unsigned base = 10;
    *neg = false;
    if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'o')) {
        base = s[1] == 'x' ? 16 : 8;
        s += 2;
        n -= 2;
    } else if (n > 0 && (s[0] == '-' || s[0] == '+')) {
        *neg = s[0] == '-';
        s++;
        n--;
    }
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        int d = sdkc_hex_digit(s[i]);
        if (d < 0 || (unsigned)d >= base)
            return false;
        if (v > (UINT64_MAX - (unsigned)d) / base)
            return false;
        v = v * base + (unsigned)d;
    }
    *mag = v;
    return true;
}

bool sdkc_node_int64(const sdkc_node *n, int64_t *out)
{
    if (!n || n->kind != SDKC_NODE_SCALAR || n->scalar != SDKC_SCALAR_INT)
        return false;
    bool neg;
    uint64_t mag;
    if (!int_magnitude(n->str, n->len, &neg, &mag))
        return false;
    if (neg) {
        if (mag > (uint64_t)INT64_MAX + 1)
            return false;
        *out = mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag;
    } else {
        if (mag > (uint64_t)INT64_MAX)
            return false;
        *out = (int64_t)mag;
    }
    return true;
}

bool sdkc_node_double(const sdkc_node *n, double *out)
{
    if (!n || n->kind != SDKC_NODE_SCALAR)
        return false;
    const char *s = n->str;
    size_t len = n->len;
    if (n->scalar == SDKC_SCALAR_INT) {
        if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'o')) {
            double v = 0, base = s[1] == 'x' ? 16 : 8;
            for (size_t i = 2; i < len; i++)
                v = v * base + sdkc_hex_digit(s[i]);
            *out = v;
            return true;
        }
    } else if (n->scalar == SDKC_SCALAR_FLOAT) {
        bool neg = len > 0 && s[0] == '-';
        size_t skip = len > 0 && (s[0] == '-' || s[0] == '+') ? 1 : 0;
        if (len - skip == 4 && s[skip] == '.') {
            if (s[skip + 1] == 'n' || s[skip + 1] == 'N') {
                *out = NAN;
                return true;
            }
            *out = neg ? -INFINITY : INFINITY;
            return true;
        }
    } else {
        return false;
    }
    /* Core-schema numbers are a subset of what strtod reads in the C locale. */
    char *end = NULL;
    double v = strtod(s, &end);
    if (end != s + len)
        return false;
    *out = v;
    return true;
}
