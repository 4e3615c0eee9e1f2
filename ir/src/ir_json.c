/* ir_json.c - the IR as "sdkc-ir/1" JSON, both ways.
 *
 * Writing inserts keys in one fixed order and dumps with jansson (insertion order kept, indent 2,
 * trailing newline), so equal IRs give equal bytes. Named types are written once, in `types`,
 * and referenced elsewhere as {"ref": NAME}; anonymous types are written inline. Reading builds
 * the same structures in a fresh arena; writing the result again gives identical bytes.
 * docs/ir-format.md describes the format.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ir_internal.h"
#include "sdkc/map.h"
#include "sdkc/ir.h"

/* ---- spellings shared by writer and reader ---- */

static const char *const KIND_NAMES[] = {
    "string", "integer", "number", "boolean", "null",     "literal",     "enum", "array",
    "tuple",  "map",     "object", "union",   "nullable", "json-string", "any",  "never",
};
static const char *const IN_NAMES[] = {"path", "query", "header", "cookie"};
static const char *const STYLE_NAMES[] = {"simple", "form",           "deepObject",   "label",
                                          "matrix", "spaceDelimited", "pipeDelimited"};
static const char *const ENC_NAMES[] = {"none", "json", "sse", "bytes", "text"};
static const char *const LIT_NAMES[] = {"string", "number", "boolean", "null"};

#define NELEMS(a) (sizeof(a) / sizeof((a)[0]))

static int name_index(const char *const *names, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(names[i], s) == 0)
            return (int)i;
    return -1;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* =============================== writing =============================== */

/* The writer emits text directly, in the layout jansson's JSON_INDENT(2) gives (so the bytes
   match what a jansson dump of the same tree would be), without building a tree: the IR of a
   large contract is megabytes and this is on the path of every `sdkc compile`. */

#define MAX_JSON_DEPTH 8192

typedef struct writer {
    sdkc_map named; /* name -> the type listed in ir->types */
    sdkc_buf out;
    int depth;       /* open containers */
    int type_depth;  /* nested inline type definitions */
    bool *has_items; /* per open container: something was written in it */
    bool failed;     /* nesting without end (an unlisted named type containing itself) */
} writer;

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

/* Before a member or an item of the innermost container. */
static void next_slot(writer *w)
{
    if (w->depth == 0)
        return;
    if (w->has_items[w->depth - 1])
        sdkc_buf_putc(&w->out, ',');
    w->has_items[w->depth - 1] = true;
    sdkc_buf_putc(&w->out, '\n');
    indent(w);
}

static void open_c(writer *w, char c)
{
    if (w->depth >= MAX_JSON_DEPTH) {
        w->failed = true;
        return;
    }
    sdkc_buf_putc(&w->out, c);
    w->has_items[w->depth++] = false;
}

static void close_c(writer *w, char c)
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

static void key(writer *w, const char *k)
{
    next_slot(w);
    raw_str(w, k);
    sdkc_buf_puts(&w->out, ": ");
}

/* Values, written where the caller positioned them (after key() or item()). */
static void v_str(writer *w, const char *s)
{
    if (s)
        raw_str(w, s);
    else
        sdkc_buf_puts(&w->out, "null");
}

static void v_bool(writer *w, bool b)
{
    sdkc_buf_puts(&w->out, b ? "true" : "false");
}

static void v_int(writer *w, long long v)
{
    sdkc_buf_printf(&w->out, "%lld", v);
}

/* Integral values as JSON integers (readable, exact); others with 17 significant digits, which
   read back to the same double, spelled the way jansson spells reals. */
static void v_number(writer *w, double d)
{
    if (isfinite(d) && d == floor(d) && fabs(d) < 9007199254740992.0) {
        v_int(w, (long long)d);
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

static void item(writer *w)
{
    next_slot(w);
}

static void put_str(writer *w, const char *k, const char *s)
{
    if (s) {
        key(w, k);
        raw_str(w, s);
    }
}

static void put_str_or_null(writer *w, const char *k, const char *s)
{
    key(w, k);
    v_str(w, s);
}

static void put_bool(writer *w, const char *k, bool b)
{
    key(w, k);
    v_bool(w, b);
}

static void put_true_if(writer *w, const char *k, bool b)
{
    if (b)
        put_bool(w, k, true);
}

static void put_uint(writer *w, const char *k, uint64_t v)
{
    key(w, k);
    v_int(w, v > (uint64_t)INT64_MAX ? INT64_MAX : (long long)v);
}

static void put_strs(writer *w, const char *k, const char *const *v, size_t n)
{
    key(w, k);
    open_c(w, '[');
    for (size_t i = 0; i < n; i++) {
        item(w);
        v_str(w, v[i]);
    }
    close_c(w, ']');
}

static void put_loc(writer *w, sdkc_loc loc)
{
    if (loc.line > 0) {
        key(w, "loc");
        sdkc_buf_printf(&w->out, "\"%u:%u\"", (unsigned)loc.line, (unsigned)loc.col);
    }
}

static void type_def(writer *w, const sdkc_type *t, bool named);

static bool is_listed(const writer *w, const sdkc_type *t)
{
    return t->name && sdkc_map_get(&w->named, t->name) == t;
}

/* A use of a type: a reference when it is a listed named type, else the type inline. */
static void type_ref(writer *w, const sdkc_type *t)
{
    if (!t) {
        sdkc_buf_puts(&w->out, "null");
    } else if (is_listed(w, t)) {
        open_c(w, '{');
        put_str(w, "ref", t->name);
        close_c(w, '}');
    } else {
        type_def(w, t, false);
    }
}

static void put_type(writer *w, const char *k, const sdkc_type *t)
{
    key(w, k);
    type_ref(w, t);
}

/* Where the IR names "the item type": its name when listed, else the type itself. */
static void put_type_name(writer *w, const char *k, const sdkc_type *t)
{
    key(w, k);
    if (t && is_listed(w, t))
        raw_str(w, t->name);
    else
        type_ref(w, t);
}

static void fields_json(writer *w, const sdkc_type *t)
{
    open_c(w, '[');
    for (size_t i = 0; i < t->u.object.nfields && !w->failed; i++) {
        const sdkc_field *f = &t->u.object.fields[i];
        item(w);
        open_c(w, '{');
        put_str(w, "name", f->wire_name);
        put_str(w, "safe_name", f->safe_name);
        put_type(w, "type", f->type);
        put_bool(w, "required", f->required);
        put_true_if(w, "read_only", f->read_only);
        put_true_if(w, "write_only", f->write_only);
        put_str(w, "docs", f->docs);
        put_loc(w, f->loc);
        close_c(w, '}');
    }
    close_c(w, ']');
}

static void type_def(writer *w, const sdkc_type *t, bool named)
{
    /* Cycles go through listed named types; an unlisted named type that contains itself would
       never end. */
    if (w->type_depth > 4096 || w->failed) {
        w->failed = true;
        return;
    }
    w->type_depth++;
    open_c(w, '{');
    if (t->name) {
        put_str(w, "name", t->name);
        put_str(w, "safe_name", t->safe_name);
    }
    put_str(w, "kind", (size_t)t->kind < NELEMS(KIND_NAMES) ? KIND_NAMES[t->kind] : "any");
    put_str(w, "docs", t->docs);
    put_str(w, "origin", t->origin);
    put_true_if(w, "recursive", t->recursive);
    if (t->name)
        put_bool(w, "declared", t->declared);
    put_true_if(w, "inferred", t->inferred);
    if (named)
        put_loc(w, t->loc);
    switch (t->kind) {
    case SDKC_TYPE_STRING:
        put_str(w, "format", t->u.str.format);
        put_str(w, "pattern", t->u.str.pattern);
        if (t->u.str.brand)
            put_str(w, "brand", t->u.str.brand->name);
        if (t->u.str.has_min_length)
            put_uint(w, "min_length", t->u.str.min_length);
        if (t->u.str.has_max_length)
            put_uint(w, "max_length", t->u.str.max_length);
        break;
    case SDKC_TYPE_INTEGER:
    case SDKC_TYPE_NUMBER:
        put_str(w, "format", t->u.num.format);
        if (t->u.num.has_minimum) {
            key(w, "minimum");
            v_number(w, t->u.num.minimum);
            put_true_if(w, "exclusive_minimum", t->u.num.exclusive_minimum);
        }
        if (t->u.num.has_maximum) {
            key(w, "maximum");
            v_number(w, t->u.num.maximum);
            put_true_if(w, "exclusive_maximum", t->u.num.exclusive_maximum);
        }
        break;
    case SDKC_TYPE_LITERAL:
        put_str(w, "literal_kind",
                (size_t)t->u.literal.kind < NELEMS(LIT_NAMES) ? LIT_NAMES[t->u.literal.kind]
                                                              : "null");
        put_str_or_null(w, "value", t->u.literal.text);
        break;
    case SDKC_TYPE_ENUM:
        key(w, "values");
        open_c(w, '[');
        for (size_t i = 0; i < t->u.enumeration.nvalues; i++) {
            item(w);
            v_str(w, t->u.enumeration.values[i]);
        }
        close_c(w, ']');
        key(w, "safe_values");
        open_c(w, '[');
        for (size_t i = 0; i < t->u.enumeration.nvalues; i++) {
            item(w);
            v_str(w, t->u.enumeration.safe_values ? t->u.enumeration.safe_values[i] : NULL);
        }
        close_c(w, ']');
        break;
    case SDKC_TYPE_ARRAY:
        put_type(w, "items", t->u.array.items);
        if (t->u.array.has_min_items)
            put_uint(w, "min_items", t->u.array.min_items);
        if (t->u.array.has_max_items)
            put_uint(w, "max_items", t->u.array.max_items);
        break;
    case SDKC_TYPE_TUPLE:
        key(w, "items");
        open_c(w, '[');
        for (size_t i = 0; i < t->u.tuple.nitems && !w->failed; i++) {
            item(w);
            type_ref(w, t->u.tuple.items[i]);
        }
        close_c(w, ']');
        put_type(w, "rest", t->u.tuple.rest);
        break;
    case SDKC_TYPE_MAP:
        put_type(w, "value", t->u.map.value);
        put_str(w, "key_pattern", t->u.map.key_pattern);
        break;
    case SDKC_TYPE_OBJECT:
        key(w, "fields");
        fields_json(w, t);
        if (t->u.object.nrequired_only)
            put_strs(w, "required_only", t->u.object.required_only, t->u.object.nrequired_only);
        put_type(w, "additional", t->u.object.additional);
        break;
    case SDKC_TYPE_UNION:
        put_str(w, "discriminator", t->u.union_.discriminator);
        key(w, "variants");
        open_c(w, '[');
        for (size_t i = 0; i < t->u.union_.nvariants && !w->failed; i++) {
            const sdkc_variant *v = &t->u.union_.variants[i];
            item(w);
            open_c(w, '{');
            put_str(w, "tag", v->tag);
            put_str(w, "safe_name", v->safe_name);
            put_type(w, "type", v->type);
            close_c(w, '}');
        }
        close_c(w, ']');
        break;
    case SDKC_TYPE_NULLABLE:
        put_type(w, "inner", t->u.nullable.inner);
        put_true_if(w, "lenient", t->u.nullable.lenient);
        break;
    case SDKC_TYPE_JSON_STRING:
        put_str(w, "media_type", t->u.json_string.media_type);
        put_type(w, "content", t->u.json_string.content);
        break;
    case SDKC_TYPE_ANY:
        put_str(w, "fallback_reason", t->u.any.fallback_reason);
        break;
    case SDKC_TYPE_BOOLEAN:
    case SDKC_TYPE_NULL:
    case SDKC_TYPE_NEVER:
        break;
    }
    close_c(w, '}');
    w->type_depth--;
}

static void scheme_json(writer *w, const sdkc_security_scheme *s)
{
    open_c(w, '{');
    put_str(w, "name", s->name);
    put_str(w, "type", s->type);
    put_str(w, "scheme", s->scheme);
    put_str(w, "in", s->in);
    put_str(w, "param", s->param);
    put_true_if(w, "implied", s->implied);
    close_c(w, '}');
}

static void params_json(writer *w, const sdkc_operation *op)
{
    open_c(w, '[');
    for (size_t i = 0; i < op->nparams && !w->failed; i++) {
        const sdkc_param *p = &op->params[i];
        item(w);
        open_c(w, '{');
        put_str(w, "name", p->wire_name);
        put_str(w, "safe_name", p->safe_name);
        put_str(w, "in", (size_t)p->in < NELEMS(IN_NAMES) ? IN_NAMES[p->in] : "query");
        put_str(w, "style",
                (size_t)p->style < NELEMS(STYLE_NAMES) ? STYLE_NAMES[p->style] : "form");
        put_bool(w, "explode", p->explode);
        put_bool(w, "required", p->required);
        put_true_if(w, "allow_reserved", p->allow_reserved);
        put_type(w, "type", p->type);
        put_str(w, "docs", p->docs);
        put_loc(w, p->loc);
        close_c(w, '}');
    }
    close_c(w, ']');
}

static const char *enc_name(sdkc_encoding e)
{
    return (size_t)e < NELEMS(ENC_NAMES) ? ENC_NAMES[e] : "none";
}

/* An exact status as a number; a range ("4XX") or default ("default") as a string. Success
 * status 0 (no success declared) stays the number 0. */
static void v_status(writer *w, int status, bool success)
{
    char buf[16];
    if (status >= 100 || (success && status == 0))
        v_int(w, status);
    else
        v_str(w, sdkc_status_text(status, buf, sizeof buf));
}

/* Media types are written unless they are just content_type (the reader's default). */
static void response_info_json(writer *w, const sdkc_response_info *ri, const char *content_type)
{
    bool just_ct = content_type
                       ? ri->nmedia_types == 1 && strcmp(ri->media_types[0], content_type) == 0
                       : ri->nmedia_types == 0;
    if (!just_ct)
        put_strs(w, "media_types", ri->media_types, ri->nmedia_types);
    if (ri->nheaders) {
        key(w, "headers");
        open_c(w, '[');
        for (size_t i = 0; i < ri->nheaders; i++) {
            item(w);
            open_c(w, '{');
            put_str(w, "name", ri->headers[i].name);
            put_bool(w, "required", ri->headers[i].required);
            put_str(w, "docs", ri->headers[i].docs);
            close_c(w, '}');
        }
        close_c(w, ']');
    }
    if (ri->nlinks) {
        key(w, "links");
        open_c(w, '[');
        for (size_t i = 0; i < ri->nlinks; i++) {
            const sdkc_link *l = &ri->links[i];
            item(w);
            open_c(w, '{');
            put_str(w, "name", l->name);
            put_str(w, "operation_id", l->operation_id);
            key(w, "parameters");
            open_c(w, '[');
            for (size_t j = 0; j < l->nparams; j++) {
                item(w);
                open_c(w, '{');
                put_str(w, "name", l->params[j].name);
                put_str(w, "value", l->params[j].value);
                close_c(w, '}');
            }
            close_c(w, ']');
            close_c(w, '}');
        }
        close_c(w, ']');
    }
}

static void success_json(writer *w, const sdkc_success *s)
{
    open_c(w, '{');
    key(w, "status");
    v_status(w, s->status, true);
    put_str(w, "encoding", enc_name(s->encoding));
    put_str(w, "content_type", s->content_type);
    if (s->type)
        put_type(w, "type", s->type);
    put_str(w, "unwrap", s->unwrap);
    /* result defaults to type; written only when it differs */
    if (s->result != s->type)
        put_type(w, "result", s->result);
    response_info_json(w, &s->response, s->content_type);
    close_c(w, '}');
}

static void errors_json(writer *w, const sdkc_operation *op)
{
    open_c(w, '[');
    for (size_t i = 0; i < op->nerrors && !w->failed; i++) {
        const sdkc_error_status *e = &op->errors[i];
        item(w);
        open_c(w, '{');
        key(w, "status");
        v_status(w, e->status, false);
        key(w, "tags");
        open_c(w, '[');
        for (size_t j = 0; j < e->ntags; j++) {
            item(w);
            v_str(w, e->tags[j].tag);
        }
        close_c(w, ']');
        key(w, "tag_types");
        open_c(w, '[');
        for (size_t j = 0; j < e->ntags; j++) {
            item(w);
            type_ref(w, e->tags[j].type);
        }
        close_c(w, ']');
        if (e->untagged)
            put_type(w, "untagged", e->untagged);
        put_str(w, "content_type", e->content_type);
        response_info_json(w, &e->response, e->content_type);
        close_c(w, '}');
    }
    close_c(w, ']');
}

static void pagination_json(writer *w, const sdkc_pagination *p)
{
    open_c(w, '{');
    put_str(w, "style", sdkc_page_style_name(p->style));
    put_str(w, "source", sdkc_page_source_name(p->source));
    put_str(w, "reason", p->reason);
    put_type_name(w, "item", p->item);
    put_type_name(w, "page", p->page);
    put_str_or_null(w, "items_field", p->items_field);
    put_str(w, "cursor_field", p->cursor_field);
    put_str(w, "next_field", p->next_field);
    put_str(w, "previous_field", p->previous_field);
    put_str_or_null(w, "cursor_param", p->cursor_param ? p->cursor_param->wire_name : NULL);
    put_str(w, "has_more_field", p->has_more_field);
    put_str(w, "item_id_field", p->item_id_field);
    put_str(w, "size_param", p->size_param ? p->size_param->wire_name : NULL);
    close_c(w, '}');
}

static void stream_json(writer *w, const sdkc_stream *s)
{
    open_c(w, '{');
    put_str(w, "encoding", enc_name(s->encoding));
    put_type_name(w, "item", s->item);
    put_bool(w, "item_encoded", s->item_encoded);
    put_str_or_null(w, "failure_event", s->failure_event);
    if (s->frame)
        put_type(w, "frame", s->frame);
    if (s->cause)
        put_type(w, "cause", s->cause);
    if (s->error)
        put_type(w, "error", s->error);
    if (s->follow) {
        key(w, "follow");
        open_c(w, '{');
        key(w, "sequence");
        open_c(w, '[');
        for (size_t i = 0; i < s->follow->depth; i++) {
            item(w);
            v_str(w, s->follow->sequence[i]);
        }
        close_c(w, ']');
        put_str(w, "after_param", s->follow->after_param->wire_name);
        put_bool(w, "from_option", s->follow->from_option);
        close_c(w, '}');
    }
    close_c(w, '}');
}

static void body_json(writer *w, const sdkc_body *b)
{
    key(w, "body");
    open_c(w, '{');
    put_str(w, "content_type", b->content_type);
    put_type(w, "type", b->type);
    put_bool(w, "required", b->required);
    put_str(w, "docs", b->docs);
    if (b->nencodings) {
        key(w, "encoding");
        open_c(w, '[');
        for (size_t i = 0; i < b->nencodings; i++) {
            const sdkc_body_encoding *e = &b->encodings[i];
            item(w);
            open_c(w, '{');
            put_str(w, "property", e->property);
            put_str(w, "content_type", e->content_type);
            if (e->has_style) {
                put_str(w, "style",
                        (size_t)e->style < NELEMS(STYLE_NAMES) ? STYLE_NAMES[e->style] : "form");
                put_bool(w, "explode", e->explode);
            }
            put_true_if(w, "allow_reserved", e->allow_reserved);
            close_c(w, '}');
        }
        close_c(w, ']');
    }
    if (b->nalternatives) {
        key(w, "alternatives");
        open_c(w, '[');
        for (size_t i = 0; i < b->nalternatives; i++) {
            item(w);
            v_str(w, b->alternatives[i]);
        }
        close_c(w, ']');
    }
    close_c(w, '}');
}

static void webhook_json(writer *w, const sdkc_webhook *h)
{
    open_c(w, '{');
    put_str(w, "name", h->name);
    put_str(w, "operation", h->operation);
    put_str(w, "expression", h->expression);
    put_str(w, "method", h->method);
    put_str(w, "id", h->id);
    if (h->body)
        body_json(w, h->body);
    if (h->response)
        put_type(w, "response", h->response);
    put_loc(w, h->loc);
    close_c(w, '}');
}

static void operation_json(writer *w, const sdkc_operation *op)
{
    open_c(w, '{');
    put_str(w, "id", op->id);
    put_str(w, "prefix", op->prefix);
    put_str(w, "group", op->group);
    put_str(w, "name", op->name);
    put_str(w, "safe_name", op->safe_name);
    put_str(w, "method", op->method);
    put_str(w, "path", op->path);
    put_str(w, "fragment", op->fragment);
    put_str(w, "summary", op->summary);
    put_str(w, "description", op->description);
    put_true_if(w, "deprecated", op->deprecated);
    key(w, "params");
    params_json(w, op);
    if (op->body)
        body_json(w, op->body);
    key(w, "success");
    success_json(w, &op->success);
    if (op->nmore_successes) {
        key(w, "more_successes");
        open_c(w, '[');
        for (size_t i = 0; i < op->nmore_successes; i++) {
            item(w);
            success_json(w, &op->more_successes[i]);
        }
        close_c(w, ']');
    }
    key(w, "errors");
    errors_json(w, op);
    if (op->pagination) {
        key(w, "pagination");
        pagination_json(w, op->pagination);
    }
    if (op->stream) {
        key(w, "stream");
        stream_json(w, op->stream);
    }
    if (op->stream_variant) {
        key(w, "stream_variant");
        stream_json(w, op->stream_variant);
    }
    put_true_if(w, "security_optional", op->security_optional);
    /* a requirement of one scheme is its name; of several, the list of their names */
    key(w, "security");
    open_c(w, '[');
    for (size_t i = 0; i < op->nsecurity;) {
        size_t end = sdkc_security_requirement_end(op, i);
        item(w);
        if (end - i > 1)
            open_c(w, '[');
        for (size_t k = i; k < end; k++) {
            if (end - i > 1)
                item(w);
            v_str(w, op->security[k] ? op->security[k]->name : NULL);
        }
        if (end - i > 1)
            close_c(w, ']');
        i = end;
    }
    close_c(w, ']');
    put_loc(w, op->loc);
    close_c(w, '}');
}

static void ir_json(writer *w, const sdkc_ir *ir)
{
    open_c(w, '{');
    put_str(w, "format", SDKC_IR_FORMAT);
    key(w, "source");
    open_c(w, '{');
    put_str_or_null(w, "name", ir->source_name ? base_name(ir->source_name) : NULL);
    put_str_or_null(w, "sha256", ir->source_sha256);
    close_c(w, '}');
    key(w, "info");
    open_c(w, '{');
    put_str_or_null(w, "title", ir->title);
    put_str_or_null(w, "version", ir->version);
    put_str(w, "description", ir->description);
    close_c(w, '}');
    if (ir->nservers) {
        key(w, "servers");
        open_c(w, '[');
        for (size_t i = 0; i < ir->nservers; i++) {
            const sdkc_server *sv = &ir->servers[i];
            item(w);
            open_c(w, '{');
            put_str(w, "url", sv->url);
            put_str(w, "description", sv->description);
            put_bool(w, "absolute", sv->absolute);
            put_loc(w, sv->loc);
            close_c(w, '}');
        }
        close_c(w, ']');
    }
    put_true_if(w, "auth_unspecified", ir->auth_unspecified);

    key(w, "security_schemes");
    open_c(w, '[');
    for (size_t i = 0; i < ir->nschemes; i++) {
        item(w);
        scheme_json(w, &ir->schemes[i]);
    }
    close_c(w, ']');

    key(w, "brands");
    open_c(w, '[');
    for (size_t i = 0; i < ir->nbrands; i++) {
        const sdkc_brand *b = &ir->brands[i];
        item(w);
        open_c(w, '{');
        put_str(w, "name", b->name);
        put_str(w, "safe_name", b->safe_name);
        put_str(w, "prefix", b->prefix);
        put_str(w, "pattern", b->pattern);
        put_uint(w, "uses", b->uses);
        close_c(w, '}');
    }
    close_c(w, ']');

    key(w, "types");
    open_c(w, '[');
    for (size_t i = 0; i < ir->ntypes && !w->failed; i++) {
        item(w);
        type_def(w, ir->types[i], true);
    }
    close_c(w, ']');

    key(w, "operations");
    open_c(w, '[');
    for (size_t i = 0; i < ir->nops && !w->failed; i++) {
        item(w);
        operation_json(w, &ir->ops[i]);
    }
    close_c(w, ']');
    if (ir->nwebhooks) {
        key(w, "webhooks");
        open_c(w, '[');
        for (size_t i = 0; i < ir->nwebhooks && !w->failed; i++) {
            item(w);
            webhook_json(w, &ir->webhooks[i]);
        }
        close_c(w, ']');
    }
    close_c(w, '}');
    sdkc_buf_putc(&w->out, '\n');
}

sdkc_status sdkc_ir_to_json(const sdkc_ir *ir, char **out, size_t *len_out)
{
    sdkc_status st = SDKC_ERR_NOMEM;
    writer w;
    memset(&w, 0, sizeof w);
    sdkc_buf_init(&w.out);
    *out = NULL;
    if (len_out)
        *len_out = 0;
    w.has_items = calloc(MAX_JSON_DEPTH, sizeof *w.has_items);
    if (!w.has_items || !sdkc_map_reserve(&w.named, ir->ntypes))
        goto done;
    for (size_t i = 0; i < ir->ntypes; i++) {
        const sdkc_type *t = ir->types[i];
        /* the first listed wins */
        if (t && t->name && !sdkc_map_get(&w.named, t->name) &&
            !sdkc_map_put(&w.named, t->name, (sdkc_type *)t))
            goto done;
    }
    ir_json(&w, ir);
    if (w.failed) {
        st = SDKC_ERR_LIMIT;
        goto done;
    }
    if (sdkc_buf_finish(&w.out) != SDKC_OK)
        goto done;
    size_t n = 0;
    char *text = sdkc_buf_steal(&w.out, &n);
    if (!text)
        goto done;
    *out = text;
    if (len_out)
        *len_out = n;
    st = SDKC_OK;
done:
    sdkc_buf_cleanup(&w.out);
    free(w.has_items);
    sdkc_map_cleanup(&w.named);
    return st;
}

/* =============================== reading =============================== */

typedef struct reader {
    sdkc_arena *arena;
    sdkc_diag *diag;
    const char *name; /* for diagnostics */
    const char *file; /* loc.file of everything read back: the source name */
    sdkc_map named;   /* name -> type of `types` */
    sdkc_ir *ir;
    bool nomem;
    size_t errors;
} reader;

static void rerr(reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void rerr(reader *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sdkc_loc loc = {r->name, 0, 0};
    sdkc_diag_vadd(r->diag, SDKC_SEV_ERROR, loc, fmt, ap);
    va_end(ap);
    r->errors++;
}

static bool rfailed(const reader *r)
{
    return r->errors > 0 || r->nomem;
}

static void *ralloc(reader *r, size_t n)
{
    if (n == 0)
        return NULL;
    void *p = sdkc_arena_alloc(r->arena, n);
    if (!p)
        r->nomem = true;
    return p;
}

static char *rdup(reader *r, const char *s)
{
    char *p = sdkc_arena_strdup(r->arena, s);
    if (!p)
        r->nomem = true;
    return p;
}

/* Optional string member: NULL when absent or null. */
static const char *get_str(reader *r, const json_t *obj, const char *key, const char *where)
{
    const json_t *v = json_object_get(obj, key);
    if (!v || json_is_null(v))
        return NULL;
    if (!json_is_string(v)) {
        rerr(r, "%s: \"%s\" must be a string", where, key);
        return NULL;
    }
    return rdup(r, json_string_value(v));
}

static const char *need_str(reader *r, const json_t *obj, const char *key, const char *where)
{
    const json_t *v = json_object_get(obj, key);
    if (!v || !json_is_string(v)) {
        rerr(r, "%s: missing string \"%s\"", where, key);
        return NULL;
    }
    return rdup(r, json_string_value(v));
}

static bool get_bool(reader *r, const json_t *obj, const char *key, const char *where)
{
    const json_t *v = json_object_get(obj, key);
    if (!v)
        return false;
    if (!json_is_boolean(v)) {
        rerr(r, "%s: \"%s\" must be true or false", where, key);
        return false;
    }
    return json_is_true(v);
}

/* Optional unsigned integer; *has tells whether it was there. */
static uint64_t get_uint(reader *r, const json_t *obj, const char *key, bool *has,
                         const char *where)
{
    const json_t *v = json_object_get(obj, key);
    *has = false;
    if (!v)
        return 0;
    if (!json_is_integer(v) || json_integer_value(v) < 0) {
        rerr(r, "%s: \"%s\" must be a non-negative integer", where, key);
        return 0;
    }
    *has = true;
    return (uint64_t)json_integer_value(v);
}

static double get_number(reader *r, const json_t *obj, const char *key, bool *has,
                         const char *where)
{
    const json_t *v = json_object_get(obj, key);
    *has = false;
    if (!v)
        return 0;
    if (!json_is_number(v)) {
        rerr(r, "%s: \"%s\" must be a number", where, key);
        return 0;
    }
    *has = true;
    return json_number_value(v);
}

static int need_int(reader *r, const json_t *obj, const char *key, const char *where)
{
    const json_t *v = json_object_get(obj, key);
    if (!v || !json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > 999) {
        rerr(r, "%s: \"%s\" must be an HTTP status", where, key);
        return 0;
    }
    return (int)json_integer_value(v);
}

/* A status written by v_status: a number, "1XX".."5XX" or "default". */
static int need_status(reader *r, const json_t *obj, const char *key, const char *where)
{
    const char *s = json_string_value(json_object_get(obj, key));
    if (!s) {
        /* as the writer writes them: an HTTP status, or 0 for a success that is any 2xx */
        int v = need_int(r, obj, key, where);
        if (v != 0 && (v < 100 || v > 599))
            rerr(r, "%s: \"%s\" must be an HTTP status, \"NXX\" or \"default\"", where, key);
        return v;
    }
    if (strcmp(s, "default") == 0)
        return SDKC_STATUS_DEFAULT;
    if (strlen(s) == 3 && s[0] >= '1' && s[0] <= '5' && s[1] == 'X' && s[2] == 'X')
        return s[0] - '0';
    rerr(r, "%s: \"%s\" must be an HTTP status, \"NXX\" or \"default\"", where, key);
    return 0;
}

static const json_t *get_array(reader *r, const json_t *obj, const char *key, bool required,
                               const char *where)
{
    const json_t *v = json_object_get(obj, key);
    if (!v && !required)
        return NULL;
    if (!v || !json_is_array(v)) {
        rerr(r, "%s: \"%s\" must be an array", where, key);
        return NULL;
    }
    return v;
}

static sdkc_loc get_loc(reader *r, const json_t *obj, const char *where)
{
    sdkc_loc loc = {NULL, 0, 0};
    const json_t *v = json_object_get(obj, "loc");
    if (!v)
        return loc;
    unsigned line = 0, col = 0;
    char tail = 0;
    if (!json_is_string(v) || sscanf(json_string_value(v), "%u:%u%c", &line, &col, &tail) != 2 ||
        line == 0) {
        rerr(r, "%s: \"loc\" must be \"LINE:COL\"", where);
        return loc;
    }
    loc.file = r->file;
    loc.line = line;
    loc.col = col;
    return loc;
}

static int get_enum(reader *r, const json_t *obj, const char *key, const char *const *names,
                    size_t n, const char *where)
{
    const json_t *v = json_object_get(obj, key);
    int i = v && json_is_string(v) ? name_index(names, n, json_string_value(v)) : -1;
    if (i < 0)
        rerr(r, "%s: \"%s\" has no valid value", where, key);
    return i < 0 ? 0 : i;
}

static const sdkc_type *read_type(reader *r, const json_t *v, const char *where, int depth);

/* A type use: null (NULL), {"ref": NAME}, a bare NAME string where names are allowed, or an
 * inline definition. */
static const sdkc_type *read_ref(reader *r, const json_t *v, bool names_ok, const char *where,
                                 int depth)
{
    if (!v || json_is_null(v))
        return NULL;
    const char *name = NULL;
    if (names_ok && json_is_string(v))
        name = json_string_value(v);
    else if (json_is_object(v) && json_object_get(v, "ref")) {
        const json_t *ref = json_object_get(v, "ref");
        if (!json_is_string(ref) || json_object_size(v) != 1) {
            rerr(r, "%s: a reference is {\"ref\": NAME} and nothing else", where);
            return NULL;
        }
        name = json_string_value(ref);
    }
    if (name) {
        sdkc_type *t = sdkc_map_get(&r->named, name);
        if (!t)
            rerr(r, "%s: unknown type \"%s\"", where, name);
        return t;
    }
    return read_type(r, v, where, depth + 1);
}

static const sdkc_brand *find_brand(reader *r, const char *name, const char *where)
{
    for (size_t i = 0; i < r->ir->nbrands; i++)
        if (strcmp(r->ir->brands[i].name, name) == 0)
            return &r->ir->brands[i];
    rerr(r, "%s: unknown brand \"%s\"", where, name);
    return NULL;
}

/* Optional array of strings (NULL and *n 0 when absent). */
static const char *const *get_strs(reader *r, const json_t *obj, const char *key, size_t *n,
                                   const char *where)
{
    const json_t *arr = get_array(r, obj, key, false, where);
    size_t len = json_array_size(arr);
    const char **v = len ? ralloc(r, len * sizeof *v) : NULL;
    *n = 0;
    for (size_t i = 0; v && i < len; i++) {
        const char *s = json_string_value(json_array_get(arr, i));
        if (!s) {
            rerr(r, "%s: \"%s\" must hold strings", where, key);
            return NULL;
        }
        v[i] = rdup(r, s);
    }
    *n = v ? len : 0;
    return v;
}

/* A named type built from a component schema's own node: how IR written before `declared`
 * existed tells it (the compiler's rule). */
static bool component_root(const char *origin)
{
    static const char comp[] = "/components/schemas/";
    return origin && strncmp(origin, comp, sizeof comp - 1) == 0 &&
           !strchr(origin + sizeof comp - 1, '/');
}

/* Media types (default: content_type alone), headers and links of a response. */
static void read_response_info(reader *r, sdkc_response_info *ri, const json_t *o,
                               const char *content_type, const char *where)
{
    if (json_object_get(o, "media_types")) {
        ri->media_types = get_strs(r, o, "media_types", &ri->nmedia_types, where);
    } else if (content_type) {
        const char **mt = ralloc(r, sizeof *mt);
        if (mt) {
            mt[0] = content_type;
            ri->media_types = mt;
            ri->nmedia_types = 1;
        }
    }
    const json_t *hs = get_array(r, o, "headers", false, where);
    size_t nh = json_array_size(hs);
    sdkc_header *h = nh ? ralloc(r, nh * sizeof *h) : NULL;
    for (size_t i = 0; h && i < nh; i++) {
        const json_t *ho = json_array_get(hs, i);
        if (!json_is_object(ho)) {
            rerr(r, "%s: headers must be objects", where);
            return;
        }
        h[i].name = need_str(r, ho, "name", where);
        h[i].required = get_bool(r, ho, "required", where);
        h[i].docs = get_str(r, ho, "docs", where);
    }
    ri->headers = h;
    ri->nheaders = h ? nh : 0;
    const json_t *ls = get_array(r, o, "links", false, where);
    size_t nl = json_array_size(ls);
    sdkc_link *l = nl ? ralloc(r, nl * sizeof *l) : NULL;
    for (size_t i = 0; l && i < nl; i++) {
        const json_t *lo = json_array_get(ls, i);
        const json_t *ps = json_is_object(lo) ? get_array(r, lo, "parameters", true, where) : NULL;
        if (!ps) {
            rerr(r, "%s: links must be objects with \"parameters\"", where);
            return;
        }
        l[i].name = need_str(r, lo, "name", where);
        l[i].operation_id = need_str(r, lo, "operation_id", where);
        size_t np = json_array_size(ps);
        sdkc_link_param *p = np ? ralloc(r, np * sizeof *p) : NULL;
        for (size_t j = 0; p && j < np; j++) {
            const json_t *po = json_array_get(ps, j);
            if (!json_is_object(po)) {
                rerr(r, "%s: link parameters must be objects", where);
                return;
            }
            p[j].name = need_str(r, po, "name", where);
            p[j].value = need_str(r, po, "value", where);
        }
        l[i].params = p;
        l[i].nparams = p ? np : 0;
    }
    ri->links = l;
    ri->nlinks = l ? nl : 0;
}

static void read_fields(reader *r, sdkc_type *t, const json_t *arr, const char *where, int depth)
{
    size_t n = json_array_size(arr);
    sdkc_field *fields = ralloc(r, n * sizeof *fields);
    if (n && !fields)
        return;
    for (size_t i = 0; i < n; i++) {
        const json_t *fo = json_array_get(arr, i);
        char fw[512];
        snprintf(fw, sizeof fw, "%s.fields[%zu]", where, i);
        if (!json_is_object(fo)) {
            rerr(r, "%s: must be an object", fw);
            continue;
        }
        sdkc_field *f = &fields[i];
        f->wire_name = need_str(r, fo, "name", fw);
        f->safe_name = get_str(r, fo, "safe_name", fw);
        f->type = read_ref(r, json_object_get(fo, "type"), false, fw, depth);
        if (!f->type && !rfailed(r))
            rerr(r, "%s: missing \"type\"", fw);
        f->required = get_bool(r, fo, "required", fw);
        f->read_only = get_bool(r, fo, "read_only", fw);
        f->write_only = get_bool(r, fo, "write_only", fw);
        f->docs = get_str(r, fo, "docs", fw);
        f->loc = get_loc(r, fo, fw);
    }
    t->u.object.fields = fields;
    t->u.object.nfields = n;
}

/* Fill t from its definition object. */
static void fill_type(reader *r, sdkc_type *t, const json_t *o, const char *where, int depth)
{
    if (depth > 4096) {
        rerr(r, "%s: types nested too deeply", where);
        return;
    }
    t->kind = (sdkc_type_kind)get_enum(r, o, "kind", KIND_NAMES, NELEMS(KIND_NAMES), where);
    t->docs = get_str(r, o, "docs", where);
    t->origin = get_str(r, o, "origin", where);
    t->recursive = get_bool(r, o, "recursive", where);
    /* IR written before `declared` existed: a named type whose origin is a component schema */
    t->declared = json_object_get(o, "declared") ? get_bool(r, o, "declared", where)
                                                 : t->name && component_root(t->origin);
    t->inferred = get_bool(r, o, "inferred", where);
    t->loc = get_loc(r, o, where);
    bool has = false;
    switch (t->kind) {
    case SDKC_TYPE_STRING: {
        t->u.str.format = get_str(r, o, "format", where);
        t->u.str.pattern = get_str(r, o, "pattern", where);
        const char *brand = get_str(r, o, "brand", where);
        if (brand)
            t->u.str.brand = find_brand(r, brand, where);
        t->u.str.min_length = get_uint(r, o, "min_length", &has, where);
        t->u.str.has_min_length = has;
        t->u.str.max_length = get_uint(r, o, "max_length", &has, where);
        t->u.str.has_max_length = has;
        break;
    }
    case SDKC_TYPE_INTEGER:
    case SDKC_TYPE_NUMBER:
        t->u.num.format = get_str(r, o, "format", where);
        t->u.num.minimum = get_number(r, o, "minimum", &has, where);
        t->u.num.has_minimum = has;
        t->u.num.maximum = get_number(r, o, "maximum", &has, where);
        t->u.num.has_maximum = has;
        t->u.num.exclusive_minimum = get_bool(r, o, "exclusive_minimum", where);
        t->u.num.exclusive_maximum = get_bool(r, o, "exclusive_maximum", where);
        break;
    case SDKC_TYPE_LITERAL:
        t->u.literal.kind =
            (sdkc_literal_kind)get_enum(r, o, "literal_kind", LIT_NAMES, NELEMS(LIT_NAMES), where);
        t->u.literal.text = get_str(r, o, "value", where);
        break;
    case SDKC_TYPE_ENUM: {
        const json_t *vals = get_array(r, o, "values", true, where);
        const json_t *safe = get_array(r, o, "safe_values", true, where);
        if (!vals || !safe)
            break;
        size_t n = json_array_size(vals);
        if (json_array_size(safe) != n) {
            rerr(r, "%s: \"values\" and \"safe_values\" differ in length", where);
            break;
        }
        const char **v = ralloc(r, n * sizeof *v), **s = ralloc(r, n * sizeof *s);
        if (n && (!v || !s))
            break;
        for (size_t i = 0; i < n; i++) {
            const json_t *a = json_array_get(vals, i), *b = json_array_get(safe, i);
            if (!json_is_string(a) || !(json_is_string(b) || json_is_null(b))) {
                rerr(r, "%s: enum values must be strings", where);
                break;
            }
            v[i] = rdup(r, json_string_value(a));
            s[i] = json_is_null(b) ? NULL : rdup(r, json_string_value(b));
        }
        t->u.enumeration.values = v;
        t->u.enumeration.safe_values = s;
        t->u.enumeration.nvalues = n;
        break;
    }
    case SDKC_TYPE_ARRAY:
        t->u.array.items = read_ref(r, json_object_get(o, "items"), false, where, depth);
        t->u.array.min_items = get_uint(r, o, "min_items", &has, where);
        t->u.array.has_min_items = has;
        t->u.array.max_items = get_uint(r, o, "max_items", &has, where);
        t->u.array.has_max_items = has;
        break;
    case SDKC_TYPE_TUPLE: {
        const json_t *items = get_array(r, o, "items", true, where);
        size_t n = json_array_size(items);
        const sdkc_type **ts = ralloc(r, n * sizeof *ts);
        for (size_t i = 0; ts && i < n; i++)
            ts[i] = read_ref(r, json_array_get(items, i), false, where, depth);
        t->u.tuple.items = ts;
        t->u.tuple.nitems = ts ? n : 0;
        t->u.tuple.rest = read_ref(r, json_object_get(o, "rest"), false, where, depth);
        break;
    }
    case SDKC_TYPE_MAP:
        t->u.map.value = read_ref(r, json_object_get(o, "value"), false, where, depth);
        t->u.map.key_pattern = get_str(r, o, "key_pattern", where);
        break;
    case SDKC_TYPE_OBJECT: {
        const json_t *fields = get_array(r, o, "fields", true, where);
        if (fields)
            read_fields(r, t, fields, where, depth);
        t->u.object.required_only =
            get_strs(r, o, "required_only", &t->u.object.nrequired_only, where);
        t->u.object.additional = read_ref(r, json_object_get(o, "additional"), false, where, depth);
        break;
    }
    case SDKC_TYPE_UNION: {
        t->u.union_.discriminator = get_str(r, o, "discriminator", where);
        const json_t *vars = get_array(r, o, "variants", true, where);
        size_t n = json_array_size(vars);
        sdkc_variant *vs = ralloc(r, n * sizeof *vs);
        for (size_t i = 0; vs && i < n; i++) {
            const json_t *vo = json_array_get(vars, i);
            if (!json_is_object(vo)) {
                rerr(r, "%s: variants must be objects", where);
                break;
            }
            vs[i].tag = get_str(r, vo, "tag", where);
            vs[i].safe_name = get_str(r, vo, "safe_name", where);
            vs[i].type = read_ref(r, json_object_get(vo, "type"), false, where, depth);
        }
        t->u.union_.variants = vs;
        t->u.union_.nvariants = vs ? n : 0;
        break;
    }
    case SDKC_TYPE_NULLABLE:
        t->u.nullable.inner = read_ref(r, json_object_get(o, "inner"), false, where, depth);
        t->u.nullable.lenient = get_bool(r, o, "lenient", where);
        break;
    case SDKC_TYPE_JSON_STRING:
        t->u.json_string.media_type = get_str(r, o, "media_type", where);
        t->u.json_string.content = read_ref(r, json_object_get(o, "content"), false, where, depth);
        break;
    case SDKC_TYPE_ANY:
        t->u.any.fallback_reason = get_str(r, o, "fallback_reason", where);
        break;
    case SDKC_TYPE_BOOLEAN:
    case SDKC_TYPE_NULL:
    case SDKC_TYPE_NEVER:
        break;
    }
}

static const sdkc_type *read_type(reader *r, const json_t *v, const char *where, int depth)
{
    if (!json_is_object(v)) {
        rerr(r, "%s: a type must be an object", where);
        return NULL;
    }
    sdkc_type *t = ralloc(r, sizeof *t);
    if (!t)
        return NULL;
    t->name = get_str(r, v, "name", where);
    t->safe_name = get_str(r, v, "safe_name", where);
    fill_type(r, t, v, where, depth);
    return t;
}

static void read_schemes(reader *r, const json_t *arr)
{
    size_t n = json_array_size(arr);
    sdkc_security_scheme *s = ralloc(r, n * sizeof *s);
    for (size_t i = 0; s && i < n; i++) {
        const json_t *o = json_array_get(arr, i);
        if (!json_is_object(o)) {
            rerr(r, "security_schemes[%zu]: must be an object", i);
            continue;
        }
        s[i].name = need_str(r, o, "name", "security_schemes");
        s[i].type = get_str(r, o, "type", "security_schemes");
        s[i].scheme = get_str(r, o, "scheme", "security_schemes");
        s[i].in = get_str(r, o, "in", "security_schemes");
        s[i].param = get_str(r, o, "param", "security_schemes");
        s[i].implied = get_bool(r, o, "implied", "security_schemes");
    }
    r->ir->schemes = s;
    r->ir->nschemes = s ? n : 0;
}

static void read_servers(reader *r, const json_t *arr)
{
    size_t n = json_array_size(arr);
    sdkc_server *s = n ? ralloc(r, n * sizeof *s) : NULL;
    for (size_t i = 0; s && i < n; i++) {
        const json_t *o = json_array_get(arr, i);
        if (!json_is_object(o)) {
            rerr(r, "servers[%zu]: must be an object", i);
            continue;
        }
        s[i].url = need_str(r, o, "url", "servers");
        s[i].description = get_str(r, o, "description", "servers");
        s[i].absolute = get_bool(r, o, "absolute", "servers");
        s[i].loc = get_loc(r, o, "servers");
    }
    r->ir->servers = s;
    r->ir->nservers = s ? n : 0;
}

static void read_brands(reader *r, const json_t *arr)
{
    size_t n = json_array_size(arr);
    sdkc_brand *b = ralloc(r, n * sizeof *b);
    for (size_t i = 0; b && i < n; i++) {
        const json_t *o = json_array_get(arr, i);
        if (!json_is_object(o)) {
            rerr(r, "brands[%zu]: must be an object", i);
            continue;
        }
        bool has = false;
        b[i].name = need_str(r, o, "name", "brands");
        b[i].safe_name = get_str(r, o, "safe_name", "brands");
        b[i].prefix = get_str(r, o, "prefix", "brands");
        b[i].pattern = get_str(r, o, "pattern", "brands");
        b[i].uses = (size_t)get_uint(r, o, "uses", &has, "brands");
        if (!b[i].name)
            b[i].name = "";
    }
    r->ir->brands = b;
    r->ir->nbrands = b ? n : 0;
}

static void read_types(reader *r, const json_t *arr)
{
    size_t n = json_array_size(arr);
    sdkc_type **ts = ralloc(r, n * sizeof *ts);
    if (n && !ts)
        return;
    if (!sdkc_map_reserve(&r->named, n)) {
        r->nomem = true;
        return;
    }
    /* Two passes: every name exists before any definition refers to it (types may be
       recursive). */
    for (size_t i = 0; i < n; i++) {
        const json_t *o = json_array_get(arr, i);
        char where[64];
        snprintf(where, sizeof where, "types[%zu]", i);
        ts[i] = ralloc(r, sizeof **ts);
        if (!ts[i])
            return;
        if (!json_is_object(o)) {
            rerr(r, "%s: must be an object", where);
            continue;
        }
        ts[i]->name = need_str(r, o, "name", where);
        ts[i]->safe_name = get_str(r, o, "safe_name", where);
        if (ts[i]->name && sdkc_map_get(&r->named, ts[i]->name))
            rerr(r, "%s: type \"%s\" is defined twice", where, ts[i]->name);
        else if (ts[i]->name && !sdkc_map_put(&r->named, ts[i]->name, ts[i]))
            r->nomem = true;
    }
    for (size_t i = 0; i < n && !r->nomem; i++) {
        const json_t *o = json_array_get(arr, i);
        if (!json_is_object(o) || !ts[i]->name)
            continue;
        char where[600];
        snprintf(where, sizeof where, "type %s", ts[i]->name);
        fill_type(r, ts[i], o, where, 0);
    }
    r->ir->types = (const sdkc_type *const *)ts;
    r->ir->ntypes = n;
}

static void read_params(reader *r, sdkc_operation *op, const json_t *arr, const char *where)
{
    size_t n = json_array_size(arr);
    sdkc_param *ps = ralloc(r, n * sizeof *ps);
    for (size_t i = 0; ps && i < n; i++) {
        const json_t *o = json_array_get(arr, i);
        char pw[1024];
        snprintf(pw, sizeof pw, "%s.params[%zu]", where, i);
        if (!json_is_object(o)) {
            rerr(r, "%s: must be an object", pw);
            continue;
        }
        ps[i].wire_name = need_str(r, o, "name", pw);
        ps[i].safe_name = get_str(r, o, "safe_name", pw);
        ps[i].in = (sdkc_param_in)get_enum(r, o, "in", IN_NAMES, NELEMS(IN_NAMES), pw);
        ps[i].style =
            (sdkc_param_style)get_enum(r, o, "style", STYLE_NAMES, NELEMS(STYLE_NAMES), pw);
        ps[i].explode = get_bool(r, o, "explode", pw);
        ps[i].required = get_bool(r, o, "required", pw);
        ps[i].allow_reserved = get_bool(r, o, "allow_reserved", pw);
        ps[i].type = read_ref(r, json_object_get(o, "type"), false, pw, 0);
        ps[i].docs = get_str(r, o, "docs", pw);
        ps[i].loc = get_loc(r, o, pw);
    }
    op->params = ps;
    op->nparams = ps ? n : 0;
}

/* A pagination parameter named by its wire name: one of the operation's query parameters. */
static const sdkc_param *page_param(reader *r, const sdkc_operation *op, const json_t *name,
                                    const char *where)
{
    if (!json_is_string(name))
        return NULL;
    for (size_t i = 0; i < op->nparams; i++)
        if (op->params[i].wire_name &&
            strcmp(op->params[i].wire_name, json_string_value(name)) == 0)
            return &op->params[i];
    rerr(r, "%s: pagination parameter \"%s\" is not a parameter", where, json_string_value(name));
    return NULL;
}

static void read_errors(reader *r, sdkc_operation *op, const json_t *arr, const char *where)
{
    size_t n = json_array_size(arr);
    sdkc_error_status *es = ralloc(r, n * sizeof *es);
    for (size_t i = 0; es && i < n; i++) {
        const json_t *o = json_array_get(arr, i);
        if (!json_is_object(o)) {
            rerr(r, "%s: errors must be objects", where);
            continue;
        }
        es[i].status = need_status(r, o, "status", where);
        const json_t *tags = get_array(r, o, "tags", true, where);
        const json_t *types = get_array(r, o, "tag_types", true, where);
        size_t nt = json_array_size(tags);
        if (tags && types && json_array_size(types) != nt) {
            rerr(r, "%s: \"tags\" and \"tag_types\" differ in length", where);
            nt = 0;
        }
        sdkc_error_tag *ts = ralloc(r, nt * sizeof *ts);
        for (size_t j = 0; ts && j < nt; j++) {
            const json_t *tag = json_array_get(tags, j);
            if (!json_is_string(tag)) {
                rerr(r, "%s: tags must be strings", where);
                continue;
            }
            ts[j].tag = rdup(r, json_string_value(tag));
            ts[j].type = read_ref(r, json_array_get(types, j), false, where, 0);
        }
        es[i].tags = ts;
        es[i].ntags = ts ? nt : 0;
        es[i].untagged = read_ref(r, json_object_get(o, "untagged"), false, where, 0);
        es[i].content_type = get_str(r, o, "content_type", where);
        read_response_info(r, &es[i].response, o, es[i].content_type, where);
    }
    op->errors = es;
    op->nerrors = es ? n : 0;
}

static const sdkc_body *read_body(reader *r, const json_t *body, const char *where)
{
    if (!body || json_is_null(body))
        return NULL;
    sdkc_body *b = ralloc(r, sizeof *b);
    if (b && json_is_object(body)) {
        b->content_type = get_str(r, body, "content_type", where);
        b->type = read_ref(r, json_object_get(body, "type"), false, where, 0);
        b->required = get_bool(r, body, "required", where);
        b->docs = get_str(r, body, "docs", where);
        const json_t *enc = json_object_get(body, "encoding");
        size_t ne = json_array_size(enc);
        sdkc_body_encoding *ev = ne ? ralloc(r, ne * sizeof *ev) : NULL;
        for (size_t i = 0; ev && i < ne; i++) {
            const json_t *e = json_array_get(enc, i);
            ev[i].property = need_str(r, e, "property", where);
            ev[i].content_type = get_str(r, e, "content_type", where);
            ev[i].has_style = json_object_get(e, "style") != NULL;
            ev[i].style = ev[i].has_style ? (sdkc_param_style)get_enum(r, e, "style", STYLE_NAMES,
                                                                       NELEMS(STYLE_NAMES), where)
                                          : SDKC_STYLE_FORM;
            ev[i].explode = ev[i].has_style ? get_bool(r, e, "explode", where) : true;
            ev[i].allow_reserved = get_bool(r, e, "allow_reserved", where);
        }
        b->encodings = ev;
        b->nencodings = ev ? ne : 0;
        const json_t *alts = json_object_get(body, "alternatives");
        size_t na = json_array_size(alts);
        const char **av = na ? ralloc(r, na * sizeof *av) : NULL;
        for (size_t i = 0; av && i < na; i++) {
            const json_t *a = json_array_get(alts, i);
            av[i] = json_is_string(a) ? rdup(r, json_string_value(a)) : NULL;
            if (!av[i])
                rerr(r, "%s: body alternatives must be strings", where);
        }
        b->alternatives = av;
        b->nalternatives = av ? na : 0;
    } else if (b) {
        rerr(r, "%s: \"body\" must be an object", where);
    }
    return b;
}

static void read_webhook(reader *r, sdkc_webhook *h, const json_t *o, size_t i)
{
    char where[64];
    snprintf(where, sizeof where, "webhooks[%zu]", i);
    h->name = need_str(r, o, "name", where);
    h->operation = get_str(r, o, "operation", where);
    h->expression = get_str(r, o, "expression", where);
    h->method = need_str(r, o, "method", where);
    h->id = get_str(r, o, "id", where);
    h->body = read_body(r, json_object_get(o, "body"), where);
    const json_t *resp = json_object_get(o, "response");
    if (resp && !json_is_null(resp))
        h->response = read_ref(r, resp, false, where, 0);
    h->loc = get_loc(r, o, where);
}

/* A stream's "follow": {"sequence": [names], "after_param": name, "from_option": bool}. */
static const sdkc_follow *read_follow(reader *r, const json_t *fj, const sdkc_operation *op,
                                      const char *where)
{
    const json_t *seq = json_object_get(fj, "sequence");
    const char *after = json_is_object(fj) ? need_str(r, fj, "after_param", where) : NULL;
    size_t depth = json_array_size(seq);
    if (!json_is_object(fj) || !json_is_array(seq) || depth == 0 || !after) {
        rerr(r, "%s: \"follow\" needs a non-empty \"sequence\" and an \"after_param\"", where);
        return NULL;
    }
    sdkc_follow *f = ralloc(r, sizeof *f);
    const char **names = ralloc(r, depth * sizeof *names);
    if (!f || !names)
        return NULL;
    for (size_t i = 0; i < depth; i++) {
        const json_t *n = json_array_get(seq, i);
        if (!json_is_string(n)) {
            rerr(r, "%s: \"follow\".sequence must hold strings", where);
            return NULL;
        }
        names[i] = rdup(r, json_string_value(n));
    }
    for (size_t i = 0; i < op->nparams && !f->after_param; i++)
        if (op->params[i].in == SDKC_PARAM_QUERY && op->params[i].wire_name &&
            strcmp(op->params[i].wire_name, after) == 0)
            f->after_param = &op->params[i];
    if (!f->after_param) {
        rerr(r, "%s: follow after_param \"%s\" is not a query parameter", where, after);
        return NULL;
    }
    f->sequence = names;
    f->depth = depth;
    f->from_option = get_bool(r, fj, "from_option", where);
    return f;
}

static void read_success(reader *r, sdkc_success *s, const json_t *succ, const char *where)
{
    s->status = need_status(r, succ, "status", where);
    s->encoding = (sdkc_encoding)get_enum(r, succ, "encoding", ENC_NAMES, NELEMS(ENC_NAMES), where);
    s->content_type = get_str(r, succ, "content_type", where);
    s->type = read_ref(r, json_object_get(succ, "type"), false, where, 0);
    s->unwrap = get_str(r, succ, "unwrap", where);
    const json_t *res = json_object_get(succ, "result");
    s->result = res ? read_ref(r, res, false, where, 0) : s->type;
    read_response_info(r, &s->response, succ, s->content_type, where);
}

/* A stream object (name: its key, for messages); NULL when absent. */
static const sdkc_stream *read_stream(reader *r, const json_t *sm, const char *name,
                                      const char *where)
{
    if (!sm)
        return NULL;
    sdkc_stream *s = ralloc(r, sizeof *s);
    if (s && json_is_object(sm)) {
        s->encoding =
            (sdkc_encoding)get_enum(r, sm, "encoding", ENC_NAMES, NELEMS(ENC_NAMES), where);
        s->item = read_ref(r, json_object_get(sm, "item"), true, where, 0);
        s->item_encoded = get_bool(r, sm, "item_encoded", where);
        s->failure_event = get_str(r, sm, "failure_event", where);
        s->frame = read_ref(r, json_object_get(sm, "frame"), false, where, 0);
        s->cause = read_ref(r, json_object_get(sm, "cause"), false, where, 0);
        s->error = read_ref(r, json_object_get(sm, "error"), false, where, 0);
    } else if (s) {
        rerr(r, "%s: \"%s\" must be an object", where, name);
    }
    return s;
}

static void read_operation(reader *r, sdkc_operation *op, const json_t *o)
{
    char where[600];
    const json_t *idv = json_object_get(o, "id");
    snprintf(where, sizeof where, "operation %s",
             json_is_string(idv) ? json_string_value(idv) : "(no id)");
    op->id = need_str(r, o, "id", where);
    op->prefix = get_str(r, o, "prefix", where);
    op->group = get_str(r, o, "group", where);
    op->name = get_str(r, o, "name", where);
    op->safe_name = get_str(r, o, "safe_name", where);
    op->method = need_str(r, o, "method", where);
    op->path = need_str(r, o, "path", where);
    op->fragment = get_str(r, o, "fragment", where);
    op->summary = get_str(r, o, "summary", where);
    op->description = get_str(r, o, "description", where);
    op->deprecated = get_bool(r, o, "deprecated", where);
    const json_t *params = get_array(r, o, "params", true, where);
    if (params)
        read_params(r, op, params, where);

    op->body = read_body(r, json_object_get(o, "body"), where);

    const json_t *succ = json_object_get(o, "success");
    if (!json_is_object(succ))
        rerr(r, "%s: missing \"success\"", where);
    else
        read_success(r, &op->success, succ, where);
    const json_t *more = get_array(r, o, "more_successes", false, where);
    size_t nmore = json_array_size(more);
    sdkc_success *mv = nmore ? ralloc(r, nmore * sizeof *mv) : NULL;
    for (size_t i = 0; mv && i < nmore; i++) {
        const json_t *e = json_array_get(more, i);
        if (!json_is_object(e))
            rerr(r, "%s: more_successes[%zu] must be an object", where, i);
        else
            read_success(r, &mv[i], e, where);
    }
    op->more_successes = mv;
    op->nmore_successes = mv ? nmore : 0;

    const json_t *errors = get_array(r, o, "errors", true, where);
    if (errors)
        read_errors(r, op, errors, where);

    const json_t *pg = json_object_get(o, "pagination");
    if (pg) {
        sdkc_pagination *p = ralloc(r, sizeof *p);
        if (p && json_is_object(pg)) {
            p->item = read_ref(r, json_object_get(pg, "item"), true, where, 0);
            p->page = read_ref(r, json_object_get(pg, "page"), true, where, 0);
            p->items_field = get_str(r, pg, "items_field", where);
            p->cursor_field = get_str(r, pg, "cursor_field", where);
            p->next_field = get_str(r, pg, "next_field", where);
            p->previous_field = get_str(r, pg, "previous_field", where);
            p->has_more_field = get_str(r, pg, "has_more_field", where);
            p->item_id_field = get_str(r, pg, "item_id_field", where);
            p->reason = get_str(r, pg, "reason", where);
            const char *style = get_str(r, pg, "style", where);
            const char *source = get_str(r, pg, "source", where);
            /* absent in IR written before styles: OpenCode's cursor object, found by heuristic */
            if (style && !sdkc_page_style_parse(style, &p->style))
                rerr(r, "%s: unknown pagination style \"%s\"", where, style);
            if (source && !sdkc_page_source_parse(source, &p->source))
                rerr(r, "%s: unknown pagination source \"%s\"", where, source);
            p->cursor_param = page_param(r, op, json_object_get(pg, "cursor_param"), where);
            p->size_param = page_param(r, op, json_object_get(pg, "size_param"), where);
        } else if (p) {
            rerr(r, "%s: \"pagination\" must be an object", where);
        }
        op->pagination = p;
    }

    op->stream = read_stream(r, json_object_get(o, "stream"), "stream", where);
    const json_t *fj = json_object_get(json_object_get(o, "stream"), "follow");
    if (op->stream && fj)
        ((sdkc_stream *)op->stream)->follow = read_follow(r, fj, op, where);
    op->stream_variant =
        read_stream(r, json_object_get(o, "stream_variant"), "stream_variant", where);

    op->security_optional = get_bool(r, o, "security_optional", where);
    const json_t *sec = get_array(r, o, "security", true, where);
    size_t ns = 0;
    for (size_t i = 0; i < json_array_size(sec); i++) {
        const json_t *e = json_array_get(sec, i);
        ns += json_is_array(e) ? json_array_size(e) : 1;
    }
    const sdkc_security_scheme **ss = ralloc(r, (ns ? ns : 1) * sizeof *ss);
    bool *with_prev = ralloc(r, (ns ? ns : 1) * sizeof *with_prev);
    bool several = false, bad = false;
    size_t n = 0;
    for (size_t i = 0; ss && with_prev && !bad && i < json_array_size(sec); i++) {
        const json_t *e = json_array_get(sec, i);
        size_t m = json_is_array(e) ? json_array_size(e) : 1;
        if (json_is_array(e) && m < 2) {
            rerr(r, "%s: security[%zu]: a requirement list names two schemes or more", where, i);
            break;
        }
        several = several || m > 1;
        for (size_t k = 0; k < m && !bad; k++) {
            const json_t *name = json_is_array(e) ? json_array_get(e, k) : e;
            ss[n] = NULL;
            with_prev[n] = k > 0;
            for (size_t j = 0; json_is_string(name) && j < r->ir->nschemes && !ss[n]; j++)
                if (r->ir->schemes[j].name &&
                    strcmp(r->ir->schemes[j].name, json_string_value(name)) == 0)
                    ss[n] = &r->ir->schemes[j];
            if (!ss[n]) {
                rerr(r, "%s: security[%zu] names no security scheme", where, i);
                bad = true;
            }
            n++;
        }
    }
    op->security = (const sdkc_security_scheme *const *)ss;
    op->security_with_previous = several ? with_prev : NULL;
    op->nsecurity = ss && with_prev ? n : 0;
    op->loc = get_loc(r, o, where);
}

sdkc_status sdkc_ir_from_json(sdkc_compiled **out, const char *name, const char *json, size_t len,
                              sdkc_diag *diag)
{
    sdkc_status st = SDKC_ERR_INVALID;
    sdkc_compiled *c = NULL;
    json_t *root = NULL;
    reader r;
    memset(&r, 0, sizeof r);
    *out = NULL;

    json_error_t jerr;
    root = json_loadb(json, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        sdkc_loc loc = {name, jerr.line > 0 ? (uint32_t)jerr.line : 1,
                        jerr.column > 0 ? (uint32_t)jerr.column : 1};
        sdkc_diag_add(diag, SDKC_SEV_ERROR, loc, "%s", jerr.text);
        goto done;
    }
    st = sdkc_compiled_new(&c);
    if (st != SDKC_OK)
        goto done;
    st = SDKC_ERR_INVALID;
    r.arena = c->arena;
    r.diag = diag;
    r.name = name;
    r.ir = &c->ir;

    if (!json_is_object(root)) {
        rerr(&r, "the IR must be a JSON object");
        goto done;
    }
    const json_t *fmt = json_object_get(root, "format");
    if (!json_is_string(fmt) || strcmp(json_string_value(fmt), SDKC_IR_FORMAT) != 0) {
        rerr(&r, "\"format\" is not \"%s\"", SDKC_IR_FORMAT);
        goto done;
    }
    const json_t *src = json_object_get(root, "source");
    if (json_is_object(src)) {
        c->ir.source_name = get_str(&r, src, "name", "source");
        c->ir.source_sha256 = get_str(&r, src, "sha256", "source");
    }
    r.file = c->ir.source_name;
    const json_t *info = json_object_get(root, "info");
    if (json_is_object(info)) {
        c->ir.title = get_str(&r, info, "title", "info");
        c->ir.version = get_str(&r, info, "version", "info");
        c->ir.description = get_str(&r, info, "description", "info");
    }
    read_servers(&r, get_array(&r, root, "servers", false, "IR"));
    c->ir.auth_unspecified = get_bool(&r, root, "auth_unspecified", "IR");
    const json_t *schemes = get_array(&r, root, "security_schemes", true, "IR");
    const json_t *brands = get_array(&r, root, "brands", true, "IR");
    const json_t *types = get_array(&r, root, "types", true, "IR");
    const json_t *ops = get_array(&r, root, "operations", true, "IR");
    if (rfailed(&r))
        goto done;
    read_schemes(&r, schemes);
    read_brands(&r, brands);
    read_types(&r, types);
    if (rfailed(&r))
        goto done;
    size_t nops = json_array_size(ops);
    sdkc_operation *opv = ralloc(&r, nops * sizeof *opv);
    for (size_t i = 0; opv && i < nops; i++) {
        const json_t *o = json_array_get(ops, i);
        if (!json_is_object(o)) {
            rerr(&r, "operations[%zu]: must be an object", i);
            continue;
        }
        read_operation(&r, &opv[i], o);
    }
    c->ir.ops = opv;
    c->ir.nops = opv ? nops : 0;
    const json_t *hooks = get_array(&r, root, "webhooks", false, "IR");
    size_t nhooks = json_array_size(hooks);
    sdkc_webhook *hv = nhooks ? ralloc(&r, nhooks * sizeof *hv) : NULL;
    for (size_t i = 0; hv && i < nhooks; i++) {
        const json_t *o = json_array_get(hooks, i);
        if (!json_is_object(o)) {
            rerr(&r, "webhooks[%zu]: must be an object", i);
            continue;
        }
        read_webhook(&r, &hv[i], o, i);
    }
    c->ir.webhooks = hv;
    c->ir.nwebhooks = hv ? nhooks : 0;
    if (r.nomem) {
        st = SDKC_ERR_NOMEM;
        goto done;
    }
    if (r.errors)
        goto done;
    *out = c;
    c = NULL;
    st = SDKC_OK;
done:
    sdkc_map_cleanup(&r.named);
    json_decref(root);
    sdkc_compiled_free(c);
    return st;
}
