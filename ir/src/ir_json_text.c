/* ir_json_text.c - JSON text as the IR JSON writer emits it: containers, members and items in
 * the layout of jansson's JSON_INDENT(2) (so the bytes are what a jansson dump of the same tree
 * would be), escaped strings, numbers that read back the same. Text is emitted directly, without
 * building a tree: the IR of a large contract is megabytes and this is on the path of every
 * `sdkc compile`.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ir_json_internal.h"

static void indent(writer *w)
{
    static const char spaces[] = "                                                                ";
    size_t n = (size_t)w->depth * 2;
    while (n > 0) {
        size_t k = n < sizeof spaces - 1 ? n : sizeof spaces - 1;
        sdkc_buf_append(&w->out, spaces, k);
        n -= k;
    }
}

/* With a sink, what is written so far goes out a block at a time. */
#define SINK_BLOCK ((size_t)64 << 10)

void sdkc_jw_flush(writer *w)
{
    if (!w->sink || w->io_failed || !w->out.len)
        return;
    if (fwrite(w->out.data, 1, w->out.len, w->sink) != w->out.len)
        w->io_failed = true;
    w->out.len = 0;
}

/* Before a member or an item of the innermost container. */
static void next_slot(writer *w)
{
    if (w->depth == 0)
        return;
    if (w->sink && w->out.len >= SINK_BLOCK)
        sdkc_jw_flush(w);
    if (w->has_items[w->depth - 1])
        sdkc_buf_putc(&w->out, ',');
    w->has_items[w->depth - 1] = true;
    sdkc_buf_putc(&w->out, '\n');
    indent(w);
}

void sdkc_jw_open(writer *w, char c)
{
    if (w->depth >= MAX_JSON_DEPTH) {
        w->failed = true;
        return;
    }
    sdkc_buf_putc(&w->out, c);
    w->has_items[w->depth++] = false;
}

void sdkc_jw_close(writer *w, char c)
{
    if (w->failed)
        return;
    w->depth--;
    if (w->has_items[w->depth]) {
        sdkc_buf_putc(&w->out, '\n');
        indent(w);
    }
    sdkc_buf_putc(&w->out, c);
}

static void raw_str(writer *w, const char *s)
{
    sdkc_buf_putc(&w->out, '"');
    const char *run = s;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        sdkc_buf_append(&w->out, run, (size_t)(s - run));
        run = s + 1;
        switch (c) {
        case '"':
            sdkc_buf_puts(&w->out, "\\\"");
            break;
        case '\\':
            sdkc_buf_puts(&w->out, "\\\\");
            break;
        case '\b':
            sdkc_buf_puts(&w->out, "\\b");
            break;
        case '\f':
            sdkc_buf_puts(&w->out, "\\f");
            break;
        case '\n':
            sdkc_buf_puts(&w->out, "\\n");
            break;
        case '\r':
            sdkc_buf_puts(&w->out, "\\r");
            break;
        case '\t':
            sdkc_buf_puts(&w->out, "\\t");
            break;
        default:
            sdkc_buf_printf(&w->out, "\\u%04X", (unsigned)c);
            break;
        }
    }
    sdkc_buf_append(&w->out, run, (size_t)(s - run));
    sdkc_buf_putc(&w->out, '"');
}

void sdkc_jw_key(writer *w, const char *k)
{
    next_slot(w);
    raw_str(w, k);
    sdkc_buf_puts(&w->out, ": ");
}

/* Values, written where the caller positioned them (after sdkc_jw_key() or sdkc_jw_item()). */
void sdkc_jw_str(writer *w, const char *s)
{
    if (s)
        raw_str(w, s);
    else
        sdkc_buf_puts(&w->out, "null");
}

void sdkc_jw_bool(writer *w, bool b)
{
    sdkc_buf_puts(&w->out, b ? "true" : "false");
}

void sdkc_jw_int(writer *w, long long v)
{
    sdkc_buf_printf(&w->out, "%lld", v);
}

/* Integral values as JSON integers (readable, exact); others with 17 significant digits, which
   read back to the same double, spelled the way jansson spells reals. */
void sdkc_jw_number(writer *w, double d)
{
    if (isfinite(d) && d == floor(d) && fabs(d) < 9007199254740992.0) {
        sdkc_jw_int(w, (long long)d);
        return;
    }
    if (!isfinite(d)) { /* not representable in JSON */
        sdkc_buf_puts(&w->out, "null");
        return;
    }
    char buf[64];
    snprintf(buf, sizeof buf, "%.17g", d);
    char *e = strchr(buf, 'e');
    if (!strchr(buf, '.') && !e) {
        sdkc_buf_puts(&w->out, buf);
        sdkc_buf_puts(&w->out, ".0");
        return;
    }
    if (e) { /* "1e+20" -> "1e20", "1e-05" -> "1e-5" */
        char *p = e + 1, *q = e + 1;
        if (*p == '+')
            p++;
        else if (*p == '-')
            *q++ = *p++;
        while (*p == '0' && p[1])
            p++;
        memmove(q, p, strlen(p) + 1);
    }
    sdkc_buf_puts(&w->out, buf);
}

void sdkc_jw_item(writer *w)
{
    next_slot(w);
}

void sdkc_jw_put_str(writer *w, const char *k, const char *s)
{
    if (s) {
        sdkc_jw_key(w, k);
        raw_str(w, s);
    }
}

void sdkc_jw_put_str_or_null(writer *w, const char *k, const char *s)
{
    sdkc_jw_key(w, k);
    sdkc_jw_str(w, s);
}

void sdkc_jw_put_bool(writer *w, const char *k, bool b)
{
    sdkc_jw_key(w, k);
    sdkc_jw_bool(w, b);
}

void sdkc_jw_put_true_if(writer *w, const char *k, bool b)
{
    if (b)
        sdkc_jw_put_bool(w, k, true);
}

void sdkc_jw_put_uint(writer *w, const char *k, uint64_t v)
{
    sdkc_jw_key(w, k);
    sdkc_jw_int(w, v > (uint64_t)INT64_MAX ? INT64_MAX : (long long)v);
}

void sdkc_jw_put_strs(writer *w, const char *k, const char *const *v, size_t n)
{
    sdkc_jw_key(w, k);
    sdkc_jw_open(w, '[');
    for (size_t i = 0; i < n; i++) {
        sdkc_jw_item(w);
        sdkc_jw_str(w, v[i]);
    }
    sdkc_jw_close(w, ']');
}

void sdkc_jw_put_loc(writer *w, sdkc_loc loc)
{
    if (loc.line > 0) {
        sdkc_jw_key(w, "loc");
        sdkc_buf_printf(&w->out, "\"%u:%u\"", (unsigned)loc.line, (unsigned)loc.col);
    }
}
