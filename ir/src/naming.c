/* naming.c - identifier derivation (snake, SCREAMING_SNAKE, Pascal), the C keyword table and glob
 * matching over operation ids. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir_internal.h"
#include "sdkc/naming.h"

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

/* Mixed-case words that are one word, not two: "OpenAIFile" is openai_file, not open_ai_file.
 * Matched case-sensitively where a word starts (or inside a run of capitals), followed by digits
 * ("OAuth2") and then anything but a lower-case letter. "MacOS" is there because Pascal case
 * turns "macOS" into it and Pascal names are turned into snake ones. */
static const char *const compounds[] = {
    "GitHub", "GitLab", "GraphQL", "IPv4",       "IPv6", "MacOS", "MySQL",
    "NaN",    "OAuth",  "OpenAI",  "PostgreSQL", "iOS",  "macOS",
};

static size_t compound_at(const char *s, size_t i)
{
    for (size_t k = 0; k < sizeof compounds / sizeof compounds[0]; k++) {
        size_t n = strlen(compounds[k]);
        if (strncmp(s + i, compounds[k], n) != 0)
            continue;
        while (is_digit(s[i + n]))
            n++;
        if (!is_lower(s[i + n]))
            return n;
    }
    return 0;
}

/* Symbols that carry meaning, spelled as words: "+1" is PLUS_1, "-1" MINUS_1, "<=" LE. '-', '/'
 * and '.' separate words between letters or digits ("foo-bar", "a/b", "v1.2") and are spelled
 * only where no letter or digit comes before them. Every other character separates words. */
static const struct {
    const char *sym, *word;
} symbols[] = {
    {"<=", "LE"},   {">=", "GE"},     {"!=", "NE"},   {"==", "EQ"},      {"+", "PLUS"},
    {"-", "MINUS"}, {"*", "STAR"},    {"/", "SLASH"}, {".", "DOT"},      {"<", "LT"},
    {">", "GT"},    {"=", "EQ"},      {"!", "NOT"},   {"&", "AND"},      {"|", "OR"},
    {"^", "CARET"}, {"%", "PERCENT"}, {"#", "HASH"},  {"?", "QUESTION"},
};

static const char *symbol_at(const char *s, size_t i, size_t *len)
{
    char c = s[i];
    if ((c == '-' || c == '/' || c == '.') && i > 0 && is_alnum(s[i - 1]))
        return NULL;
    for (size_t k = 0; k < sizeof symbols / sizeof symbols[0]; k++) {
        size_t n = strlen(symbols[k].sym);
        if (strncmp(s + i, symbols[k].sym, n) == 0) {
            *len = n;
            return symbols[k].word;
        }
    }
    return NULL;
}

/* Inside a run of letters and digits, a new word starts at a lower->Upper or digit->Upper
 * change, and inside an upper-case run before its last capital when a lower-case letter follows
 * ("HTTPServer" -> HTTP, Server) unless that letter is a plural 's' ending the word ("URLs",
 * "IDs"), or where a compound word starts inside the run ("HTTPOAuth"). */
static bool word_break(const char *s, size_t i)
{
    char p = s[i - 1], c = s[i], n = s[i + 1];
    if (!is_upper(c))
        return false;
    if (is_lower(p) || is_digit(p))
        return true;
    if (is_upper(p) && compound_at(s, i) > 0)
        return true;
    return is_upper(p) && is_lower(n) && !(n == 's' && !is_lower(s[i + 2]));
}

typedef struct word {
    const char *text; /* in s, or a spelled symbol (upper case) */
    size_t len;
    bool spelled;
} word;

/* The next word of s from *pos; false at the end. */
static bool next_word(const char *s, size_t *pos, word *w)
{
    size_t i = *pos;
    while (!is_alnum(s[i])) {
        if (s[i] == '\0') {
            *pos = i;
            return false;
        }
        size_t n = 0;
        const char *sp = symbol_at(s, i, &n);
        if (sp) {
            *w = (word){sp, strlen(sp), true};
            *pos = i + n;
            return true;
        }
        i++;
    }
    size_t start = i, n = compound_at(s, i);
    if (n > 0)
        i += n;
    else
        for (i++; is_alnum(s[i]) && !word_break(s, i); i++)
            ;
    *w = (word){s + start, i - start, false};
    *pos = i;
    return true;
}

/* Writes the words of s joined by '_' in the case given by upper; with the result starting with
 * '_' when it would begin with a digit, and "_" when s has no words. */
static char *join_words(sdkc_arena *a, const char *s, bool upper)
{
    if (s == NULL)
        return NULL;
    /* a spelled symbol (at most 8 letters) replaces at least one character: with the separator,
       at most 9 bytes per input byte; plus a leading '_' and the NUL */
    size_t n = strlen(s);
    char *out = sdkc_arena_alloc(a, 9 * n + 3);
    if (out == NULL)
        return NULL;
    size_t o = 0, pos = 0;
    word w;
    while (next_word(s, &pos, &w)) {
        if (o == 0 && is_digit(w.text[0]))
            out[o++] = '_';
        else if (o > 0)
            out[o++] = '_';
        for (size_t k = 0; k < w.len; k++)
            out[o++] = upper ? to_upper(w.text[k]) : to_lower(w.text[k]);
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

/* Words concatenated, each with its first letter in upper case and the rest as written (a
 * spelled symbol in lower case after its first letter); 'N' before a leading digit, "X" when s
 * has no words. */
char *sdkc_pascal_case(sdkc_arena *a, const char *s)
{
    if (s == NULL)
        return NULL;
    size_t n = strlen(s);
    char *out = sdkc_arena_alloc(a, 8 * n + 3);
    if (out == NULL)
        return NULL;
    size_t o = 0, pos = 0;
    word w;
    while (next_word(s, &pos, &w)) {
        if (o == 0 && is_digit(w.text[0]))
            out[o++] = 'N';
        for (size_t k = 0; k < w.len; k++) {
            char c = w.text[k];
            out[o++] = k == 0 ? to_upper(c) : w.spelled ? to_lower(c) : c;
        }
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
