/* naming.c - identifier derivation (snake, SCREAMING_SNAKE, Pascal), the C keyword table and glob
 * matching over operation ids. */
#include <stdio.h>
#include <string.h>

#include "compile_internal.h"

static bool is_lower(char c)
{
    return c >= 'a' && c <= 'z';
}

static bool is_upper(char c)
{
    return c >= 'A' && c <= 'Z';
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_alnum(char c)
{
    return is_lower(c) || is_upper(c) || is_digit(c);
}

static char to_lower(char c)
{
    return is_upper(c) ? (char)(c - 'A' + 'a') : c;
}

static char to_upper(char c)
{
    return is_lower(c) ? (char)(c - 'a' + 'A') : c;
}

/* Words are runs of letters and digits; a new word starts at a lower->Upper or digit->Upper
 * change, and inside an upper-case run before its last capital when a lower-case letter follows
 * ("HTTPServer" -> HTTP, Server). Everything else separates words. */
static bool word_break(const char *s, size_t i)
{
    char p = s[i - 1], c = s[i], n = s[i + 1];
    if (!is_upper(c))
        return false;
    if (is_lower(p) || is_digit(p))
        return true;
    return is_upper(p) && is_lower(n);
}

/* Writes the words of s joined by '_' in the case given by upper; with the result starting with
 * '_' when it would begin with a digit, and "_" when s has no letters or digits. */
static char *join_words(sdkc_arena *a, const char *s, bool upper)
{
    if (s == NULL)
        return NULL;
    size_t n = strlen(s);
    /* each char may add a separator; plus leading '_' and NUL */
    char *out = sdkc_arena_alloc(a, 2 * n + 3);
    if (out == NULL)
        return NULL;
    size_t o = 0;
    bool in_word = false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!is_alnum(c)) {
            in_word = false;
            continue;
        }
        if (o == 0 && is_digit(c))
            out[o++] = '_';
        if (o > 0 && out[o - 1] != '_' && (!in_word || word_break(s, i)))
            out[o++] = '_';
        out[o++] = upper ? to_upper(c) : to_lower(c);
        in_word = true;
    }
    if (o == 0)
        out[o++] = '_';
    out[o] = '\0';
    return out;
}

char *sdkc_snake_case(sdkc_arena *a, const char *s)
{
    return join_words(a, s, false);
}

char *sdkc_upper_snake(sdkc_arena *a, const char *s)
{
    return join_words(a, s, true);
}

char *sdkc_pascal_case(sdkc_arena *a, const char *s)
{
    if (s == NULL)
        return NULL;
    size_t n = strlen(s);
    char *out = sdkc_arena_alloc(a, n + 2);
    if (out == NULL)
        return NULL;
    size_t o = 0;
    bool start = true;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!is_alnum(c)) {
            start = true;
            continue;
        }
        if (o == 0 && is_digit(c))
            out[o++] = 'N';
        out[o++] = start ? to_upper(c) : c;
        start = false;
    }
    if (o == 0)
        out[o++] = 'X';
    out[o] = '\0';
    return out;
}

/* C11 keywords, the C23 ones, and names of <stdbool.h>/<stddef.h> macros that generated code
 * includes. Sorted for bsearch. */
static const char *const keywords[] = {
    "NULL",
    "_Alignas",
    "_Alignof",
    "_Atomic",
    "_BitInt",
    "_Bool",
    "_Complex",
    "_Decimal128",
    "_Decimal32",
    "_Decimal64",
    "_Generic",
    "_Imaginary",
    "_Noreturn",
    "_Static_assert",
    "_Thread_local",
    "alignas",
    "alignof",
    "asm",
    "auto",
    "bool",
    "break",
    "case",
    "char",
    "const",
    "constexpr",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extern",
    "false",
    "float",
    "for",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "nullptr",
    "register",
    "restrict",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "static_assert",
    "struct",
    "switch",
    "thread_local",
    "true",
    "typedef",
    "typeof",
    "typeof_unqual",
    "union",
    "unsigned",
    "void",
    "volatile",
    "while",
};

static int cmp_kw(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

bool sdkc_is_c_keyword(const char *s)
{
    if (s == NULL)
        return false;
    return bsearch(&s, keywords, sizeof keywords / sizeof keywords[0], sizeof keywords[0],
                   cmp_kw) != NULL;
}

bool sdkc_glob_match(const char *p, const char *s)
{
    if (p == NULL || s == NULL)
        return false;
    /* Iterative matcher: on mismatch, retry from the last '*' consuming one more char. Linear
     * in practice, never exponential. */
    const char *star = NULL, *resume = NULL;
    while (*s != '\0') {
        if (*p == '*') {
            star = p++;
            resume = s;
        } else if (*p == '?' || *p == *s) {
            p++;
            s++;
        } else if (star != NULL) {
            p = star + 1;
            s = ++resume;
        } else {
            return false;
        }
    }
    while (*p == '*')
        p++;
    return *p == '\0';
}

size_t sdkc_security_requirement_end(const sdkc_operation *op, size_t i)
{
    size_t end = i + 1;
    while (op->security_with_previous && end < op->nsecurity && op->security_with_previous[end])
        end++;
    return end;
}

bool sdkc_status_covers(int key, int status)
{
    if (key == SDKC_STATUS_DEFAULT)
        return true;
    if (key >= 1 && key <= 5)
        return status / 100 == key;
    return key == status;
}

const char *sdkc_status_text(int key, char *buf, size_t size)
{
    if (!buf || size == 0)
        return "";
    if (key == SDKC_STATUS_DEFAULT)
        snprintf(buf, size, "default");
    else if (key >= 1 && key <= 5)
        snprintf(buf, size, "%dXX", key);
    else
        snprintf(buf, size, "%d", key);
    return buf;
}
