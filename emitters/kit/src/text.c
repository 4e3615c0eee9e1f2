/* text.c - string literals, comments and Markdown cells for generated files (sdkc/emitkit.h). */
#include "sdkc/emitkit.h"

#include <stdio.h>
#include <string.h>

void sdkc_kit_put_c_string(sdkc_buf *b, const char *s)
{
    sdkc_buf_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            sdkc_buf_printf(b, "\\%c", *p);
        else if (*p == '?')
            sdkc_buf_puts(b, "\\?");
        else if (*p < 0x20 || *p >= 0x7f)
            sdkc_buf_printf(b, "\\%03o", *p);
        else
            sdkc_buf_putc(b, (char)*p);
    }
    sdkc_buf_putc(b, '"');
}

void sdkc_kit_put_js_string(sdkc_buf *b, const char *s)
{
    sdkc_buf_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"':
            sdkc_buf_puts(b, "\\\"");
            break;
        case '\\':
            sdkc_buf_puts(b, "\\\\");
            break;
        case '\n':
            sdkc_buf_puts(b, "\\n");
            break;
        case '\r':
            sdkc_buf_puts(b, "\\r");
            break;
        case '\t':
            sdkc_buf_puts(b, "\\t");
            break;
        case '\b':
            sdkc_buf_puts(b, "\\b");
            break;
        case '\f':
            sdkc_buf_puts(b, "\\f");
            break;
        default:
            if (*p < 0x20 || *p == 0x7f)
                sdkc_buf_printf(b, "\\u%04x", *p);
            else if (*p == 0xe2 && p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9)) {
                /* U+2028, U+2029: line terminators in older JavaScript string literals */
                sdkc_buf_printf(b, "\\u%04x", p[2] == 0xa8 ? 0x2028 : 0x2029);
                p += 2;
            } else
                sdkc_buf_putc(b, (char)*p);
        }
    }
    sdkc_buf_putc(b, '"');
}

void sdkc_kit_put_comment_text(sdkc_buf *b, const char *s, size_t n)
{
    size_t run = 0; /* start of the bytes copied as they are, appended in one go */
    for (size_t i = 0; i < n; i++) {
        /* Skip to the next byte that may need replacing (s is NUL-terminated at or after n; the
         * newline bounds the scan of a line cut short by the caller). */
        i += strcspn(s + i, "*/?\\\t\r\n");
        if (i >= n)
            break;
        char c = s[i];
        const char *rep = NULL;
        if (c == '*' && i + 1 < n && s[i + 1] == '/')
            rep = "* ";
        else if (c == '/' && i + 1 < n && s[i + 1] == '*')
            rep = "/ ";
        else if (c == '?' && i + 1 < n && s[i + 1] == '?')
            rep = "? ";
        else if (c == '\\' && i + 1 == n)
            rep = "\\ ";
        else if (c == '\t' || c == '\r')
            rep = " ";
        if (!rep)
            continue;
        sdkc_buf_append(b, s + run, i - run);
        sdkc_buf_puts(b, rep);
        run = i + 1;
    }
    sdkc_buf_append(b, s + run, n - run);
}

void sdkc_kit_put_template(sdkc_buf *b, const char *const *lines, const char *const (*keys)[2],
                           size_t nkeys)
{
    for (; *lines; lines++) {
        for (const char *t = *lines; *t;) {
            const char *end = t[0] == '{' && t[1] == '{' ? strstr(t, "}}") : NULL;
            size_t i = 0, n = end ? (size_t)(end - t - 2) : 0;
            while (end && i < nkeys && !(strlen(keys[i][0]) == n && !strncmp(t + 2, keys[i][0], n)))
                i++;
            if (end && i < nkeys && keys[i][1]) {
                sdkc_buf_puts(b, keys[i][1]);
                t = end + 2;
            } else {
                sdkc_buf_putc(b, *t++);
            }
        }
    }
}

const char *sdkc_kit_comment_safe(sdkc_arena *a, const char *s)
{
    sdkc_buf b = SDKC_BUF_INIT;
    sdkc_kit_put_comment_text(&b, s, strlen(s));
    char *text = sdkc_buf_finish(&b) == SDKC_OK ? sdkc_arena_strdup(a, b.data ? b.data : "") : NULL;
    sdkc_buf_cleanup(&b);
    return text;
}

/* The lines of a comment part: a line starts at the beginning and after each newline but a last
 * one. */
static size_t doc_lines(const char *s)
{
    size_t n = 0;
    while (s && *s) {
        const char *nl = strchr(s, '\n');
        n++;
        s = nl ? nl + 1 : s + strlen(s);
    }
    return n;
}

void sdkc_kit_put_doc(sdkc_buf *b, sdkc_kit_doc_style style, const char *indent, const char *docs,
                      const char *extra)
{
    size_t total = doc_lines(docs) + doc_lines(extra);
    if (!total)
        return;
    /* JSDoc puts several lines between an opener and a closer on lines of their own; C starts
       the first line after the opener. */
    bool own_lines = style == SDKC_KIT_DOC_JSDOC && total > 1;
    sdkc_buf_puts(b, indent);
    if (style == SDKC_KIT_DOC_JSDOC)
        sdkc_buf_append(b, "/**", 3);
    else
        sdkc_buf_append(b, "/*", 2);
    const char *parts[2] = {docs, extra};
    size_t nlines = 0;
    for (int k = 0; k < 2; k++) {
        for (const char *s = parts[k]; s && *s;) {
            const char *nl = strchr(s, '\n');
            size_t n = nl ? (size_t)(nl - s) : strlen(s);
            while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\r'))
                n--;
            if (nlines || own_lines) {
                sdkc_buf_putc(b, '\n');
                sdkc_buf_puts(b, indent);
                sdkc_buf_append(b, " *", 2);
            }
            if (n)
                sdkc_buf_putc(b, ' ');
            sdkc_kit_put_comment_text(b, s, n);
            nlines++;
            s = nl ? nl + 1 : s + strlen(s);
        }
    }
    if (total > 1) {
        sdkc_buf_putc(b, '\n');
        sdkc_buf_puts(b, indent);
    }
    sdkc_buf_append(b, " */\n", 4);
}

void sdkc_kit_put_md_cell(sdkc_buf *b, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            sdkc_buf_puts(b, "\\|");
        else if (*s == '\n' || *s == '\r')
            sdkc_buf_putc(b, ' ');
        else
            sdkc_buf_putc(b, *s);
    }
}
