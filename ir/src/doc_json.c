/* doc_json.c - JSON input prepared for libyaml.
 *
 * Some valid JSON strings are refused or changed by libyaml (a YAML 1.1 parser):
 *   - surrogate pairs written as two \u escapes (libyaml refuses a surrogate escape);
 *   - unescaped DEL and C1 controls U+007F..U+009F, and U+FFFE, U+FFFF ("control characters are
 *     not allowed"), which JSON allows in strings (only C0 controls must be escaped);
 *   - unescaped U+0085, U+2028, U+2029, which YAML 1.1 reads as line breaks and folds.
 * JSON input that has them is rewritten before parsing, inside strings only: a pair as one \U
 * escape, the others as \x or \u escapes of themselves. Marks on the rewritten text are mapped
 * back (sdkc_doc_json_shift) with the column shift each rewrite leaves on its line.
 */
#include "doc_internal.h"

#include <stdlib.h>
#include <string.h>

/* The 16-bit value of a \uXXXX escape at s (6 chars available), or -1. */
static long u_escape(const char *s, size_t avail)
{
    if (avail < 6 || s[0] != '\\' || s[1] != 'u')
        return -1;
    long v = 0;
    for (int i = 2; i < 6; i++) {
        int h = sdkc_hex_digit(s[i]);
        if (h < 0)
            return -1;
        v = v * 16 + h;
    }
    return v;
}

static bool looks_like_json(const char *s, size_t n)
{
    size_t i = 0;
    if (n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0)
        i = 3;
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
        i++;
    return i < n && (s[i] == '{' || s[i] == '[');
}

/* A \u escape of a high surrogate somewhere (maybe outside a string: the rewrite checks). */
static bool has_surrogate_escape(const char *s, size_t n)
{
    const char *p = s, *end = s + n;
    while ((p = memchr(p, '\\', (size_t)(end - p))) != NULL) {
        if (end - p >= 4 && p[1] == 'u' && (p[2] == 'd' || p[2] == 'D') && p[3] &&
            strchr("89abAB", p[3]))
            return true;
        p++;
        if (p >= end)
            break;
    }
    return false;
}

/* The width in bytes of a character at s that libyaml refuses or reads as a line break but JSON
 * allows unescaped in a string (DEL, U+0080..U+009F, U+2028, U+2029, U+FFFE, U+FFFF), or 0.
 * Its code point goes to *cp. */
static size_t yaml_unsafe_char(const unsigned char *s, size_t avail, unsigned long *cp)
{
    if (s[0] == 0x7F) {
        *cp = 0x7F;
        return 1;
    }
    if (s[0] == 0xC2 && avail >= 2 && s[1] >= 0x80 && s[1] <= 0x9F) {
        *cp = s[1];
        return 2;
    }
    if (avail >= 3 && ((s[0] == 0xE2 && s[1] == 0x80 && (s[2] == 0xA8 || s[2] == 0xA9)) ||
                       (s[0] == 0xEF && s[1] == 0xBF && (s[2] == 0xBE || s[2] == 0xBF)))) {
        *cp = ((unsigned long)(s[0] & 0x0F) << 12) | ((unsigned long)(s[1] & 0x3F) << 6) |
              (s[2] & 0x3F);
        return 3;
    }
    return 0;
}

static bool has_yaml_unsafe_char(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n; i++) {
        unsigned char b = u[i];
        unsigned long cp;
        if ((b == 0x7F || b == 0xC2 || b == 0xE2 || b == 0xEF) &&
            yaml_unsafe_char(u + i, n - i, &cp))
            return true;
    }
    return false;
}

static bool add_shift(sdkc_doc_rewrite *rw, size_t *cap, size_t line, size_t col, int delta)
{
    if (rw->npoints == *cap) {
        size_t ncap = *cap ? *cap * 2 : 16;
        sdkc_doc_shift *p = realloc(rw->points, ncap * sizeof *p);
        if (!p)
            return false;
        rw->points = p;
        *cap = ncap;
    }
    rw->points[rw->npoints++] = (sdkc_doc_shift){line, col, delta};
    return true;
}

/* JSON-aware copy of the input with each \uD8xx\uDCxx pair as one \U escape and each character
 * yaml_unsafe_char finds in a string as an escape of itself. */
bool sdkc_doc_json_rewrite(sdkc_doc_rewrite *rw, const char *s, size_t n)
{
    sdkc_buf out = SDKC_BUF_INIT;
    size_t cap = 0;
    size_t line = 0, col = 0;
    bool in_string = false;
    bool bom = n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0;
    for (size_t i = 0; i < n;) {
        char c = s[i];
        unsigned long cp;
        size_t w = in_string ? yaml_unsafe_char((const unsigned char *)s + i, n - i, &cp) : 0;
        if (w > 0) {
            int width = cp <= 0xFF ? 4 : 6; /* \xXX or \uXXXX */
            if (cp <= 0xFF)
                sdkc_buf_printf(&out, "\\x%02lX", cp);
            else
                sdkc_buf_printf(&out, "\\u%04lX", cp);
            col += (size_t)width;
            if (!add_shift(rw, &cap, line, col, 1 - width))
                goto fail;
            i += w;
            continue;
        }
        if (in_string && c == '\\') {
            long hi = u_escape(s + i, n - i);
            long lo = hi >= 0xD800 && hi <= 0xDBFF ? u_escape(s + i + 6, n - i - 6) : -1;
            if (lo >= 0xDC00 && lo <= 0xDFFF) {
                unsigned long pair =
                    0x10000 + (((unsigned long)hi - 0xD800) << 10) + ((unsigned long)lo - 0xDC00);
                sdkc_buf_printf(&out, "\\U%08lX", pair);
                col += 10;
                if (!add_shift(rw, &cap, line, col, 2))
                    goto fail;
                i += 12;
                continue;
            }
            /* any other escape: copy the backslash and the escaped character as they are */
            sdkc_buf_putc(&out, c);
            col++;
            i++;
            if (i < n && s[i] != '\n' && s[i] != '\r') {
                if (((unsigned char)s[i] & 0xC0) != 0x80)
                    col++;
                sdkc_buf_putc(&out, s[i]);
                i++;
            }
            continue;
        }
        if (c == '"')
            in_string = !in_string;
        if (c == '\n' || (c == '\r' && (i + 1 >= n || s[i + 1] != '\n'))) {
            line++;
            col = 0;
        } else if (c != '\r' && ((unsigned char)c & 0xC0) != 0x80 && !(bom && i == 0)) {
            col++;
        }
        sdkc_buf_putc(&out, c);
        i++;
    }
    if (sdkc_buf_finish(&out) != SDKC_OK)
        goto fail;
    rw->text = sdkc_buf_steal(&out, &rw->len);
    if (!rw->text)
        goto fail;
    return true;
fail:
    sdkc_buf_cleanup(&out);
    return false;
}

bool sdkc_doc_json_needs_rewrite(const char *data, size_t len)
{
    return looks_like_json(data, len) &&
           (has_surrogate_escape(data, len) || has_yaml_unsafe_char(data, len));
}

int64_t sdkc_doc_json_shift(const sdkc_doc_rewrite *rw, size_t line, size_t col)
{
    /* The shifts of every rewrite that ends on this line at or before the column. */
    size_t lo = 0, hi = rw->npoints;
    while (lo < hi) { /* first point with (line, col) > (line, col) of the mark */
        size_t mid = lo + (hi - lo) / 2;
        const sdkc_doc_shift *p = &rw->points[mid];
        if (p->line < line || (p->line == line && p->col <= col))
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t first = lo;
    while (first > 0 && rw->points[first - 1].line == line)
        first--;
    int64_t add = 0;
    for (size_t i = first; i < lo; i++)
        add += rw->points[i].delta;
    return add;
}

void sdkc_doc_rewrite_cleanup(sdkc_doc_rewrite *rw)
{
    free(rw->text);
    free(rw->points);
    rw->text = NULL;
    rw->points = NULL;
    rw->len = rw->npoints = 0;
}
