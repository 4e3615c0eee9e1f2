/* validate_report.c - the validator's deviation lists, their messages, the paths they name and
 * the patterns it could not check. */
#include "validate_internal.h"

#include <ctype.h>
#include <stdarg.h>

/* ---- deviations ---- */

void conform_dev_list_clear(dev_list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free((char *)l->items[i].path);
        free((char *)l->items[i].message);
    }
    free(l->items);
    memset(l, 0, sizeof *l);
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s);
    char *p = malloc(n + 1);
    if (p)
        memcpy(p, s, n + 1);
    return p;
}

static bool push_dev(dev_list *l, size_t max, char *path, const char *rule, char *msg)
{
    l->total++;
    if (l->n >= max) {
        free(path);
        free(msg);
        return true;
    }
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        sdkc_deviation *items = realloc(l->items, cap * sizeof *items);
        if (!items) {
            free(path);
            free(msg);
            return false;
        }
        l->items = items;
        l->cap = cap;
    }
    l->items[l->n].path = path;
    l->items[l->n].rule = rule;
    l->items[l->n].message = msg;
    l->n++;
    return true;
}

void conform_report(walk *w, const char *rule, const char *fmt, ...)
{
    sdkc_buf msg = SDKC_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    sdkc_buf_vprintf(&msg, fmt, ap);
    va_end(ap);
    char *m = sdkc_buf_steal(&msg, NULL);
    char *p = dup_str(w->path->data ? w->path->data : "$");
    sdkc_buf_cleanup(&msg);
    if (!m || !p) {
        free(m);
        free(p);
        w->v->oom = true;
        return;
    }
    if (!push_dev(w->out, w->v->max_dev, p, rule, m))
        w->v->oom = true;
}

/* Move src's deviations to the end of dst. */
void conform_merge_devs(walk *w, dev_list *dst, dev_list *src)
{
    for (size_t i = 0; i < src->n; i++) {
        if (!push_dev(dst, w->v->max_dev, (char *)src->items[i].path, src->items[i].rule,
                      (char *)src->items[i].message))
            w->v->oom = true;
        src->items[i].path = NULL;
        src->items[i].message = NULL;
    }
    /* Dropped ones still count. */
    dst->total += src->total - src->n;
    dst->unchecked += src->unchecked;
    src->n = 0;
    conform_dev_list_clear(src);
}

/* A short, printable rendering of a value for messages. */
void conform_describe(sdkc_buf *b, const json_t *value)
{
    switch (json_typeof(value)) {
    case JSON_OBJECT:
        sdkc_buf_puts(b, "an object");
        return;
    case JSON_ARRAY:
        sdkc_buf_puts(b, "an array");
        return;
    case JSON_STRING: {
        const char *s = json_string_value(value);
        size_t n = json_string_length(value);
        sdkc_buf_puts(b, "\"");
        for (size_t i = 0; i < n && i < 40; i++) {
            unsigned char c = (unsigned char)s[i];
            if (c == '"' || c == '\\')
                sdkc_buf_printf(b, "\\%c", c);
            else if (c < 0x20)
                sdkc_buf_printf(b, "\\u%04x", c);
            else
                sdkc_buf_putc(b, (char)c);
        }
        sdkc_buf_puts(b, n > 40 ? "...\"" : "\"");
        return;
    }
    case JSON_INTEGER:
        sdkc_buf_printf(b, "%lld", (long long)json_integer_value(value));
        return;
    case JSON_REAL:
        sdkc_buf_printf(b, "%.17g", json_real_value(value));
        return;
    case JSON_TRUE:
        sdkc_buf_puts(b, "true");
        return;
    case JSON_FALSE:
        sdkc_buf_puts(b, "false");
        return;
    case JSON_NULL:
        sdkc_buf_puts(b, "null");
        return;
    }
}

const char *conform_kind_of(const json_t *value)
{
    switch (json_typeof(value)) {
    case JSON_OBJECT:
        return "object";
    case JSON_ARRAY:
        return "array";
    case JSON_STRING:
        return "string";
    case JSON_INTEGER:
    case JSON_REAL:
        return "number";
    case JSON_TRUE:
    case JSON_FALSE:
        return "boolean";
    case JSON_NULL:
        return "null";
    }
    return "?";
}

void conform_report_type(walk *w, const char *expected, const json_t *value)
{
    sdkc_buf d = SDKC_BUF_INIT;
    conform_describe(&d, value);
    conform_report(w, "type", "expected %s, got %s %s", expected, conform_kind_of(value),
                   d.data ? d.data : "");
    sdkc_buf_cleanup(&d);
}

/* A pattern left unchecked: counted, and listed once. */
void conform_note_unchecked_pattern(walk *w, const char *pat)
{
    sdkc_validation *v = w->v;
    w->out->unchecked++;
    for (size_t i = 0; i < v->nunchecked_pats; i++)
        if (strcmp(v->unchecked_pats[i], pat) == 0)
            return;
    if (v->nunchecked_pats == v->capunchecked_pats) {
        size_t cap = v->capunchecked_pats ? v->capunchecked_pats * 2 : 4;
        char **p = realloc(v->unchecked_pats, cap * sizeof *p);
        if (!p) {
            v->oom = true;
            return;
        }
        v->unchecked_pats = p;
        v->capunchecked_pats = cap;
    }
    char *d = dup_str(pat);
    if (!d) {
        v->oom = true;
        return;
    }
    v->unchecked_pats[v->nunchecked_pats++] = d;
}

/* ---- paths ---- */

static bool is_ident(const char *s)
{
    if (!*s || isdigit((unsigned char)*s))
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_' && *s != '$')
            return false;
    return true;
}

void conform_path_key(sdkc_buf *p, const char *key)
{
    if (is_ident(key)) {
        sdkc_buf_printf(p, ".%s", key);
        return;
    }
    sdkc_buf_puts(p, "[\"");
    for (const char *s = key; *s; s++) {
        if (*s == '"' || *s == '\\')
            sdkc_buf_putc(p, '\\');
        sdkc_buf_putc(p, *s);
    }
    sdkc_buf_puts(p, "\"]");
}

void conform_path_truncate(sdkc_buf *p, size_t len)
{
    p->len = len;
    if (p->data)
        p->data[len] = '\0';
}
