/* ir_json_write.c - the IR as "sdkc-ir/1" JSON text (docs/ir-format.md).
 *
 * Keys in one fixed order, the layout of jansson's JSON_INDENT(2) and a final newline, so equal
 * IRs give equal bytes. Named types are written once, in `types`, and referenced elsewhere as
 * {"ref": NAME}; anonymous types are written inline.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ir_json_internal.h"

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

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
    put_str(w, "kind", sdkc_type_kind_name(t->kind));
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
        put_str(w, "literal_kind", sdkc_irj_literal_kind_name(t->u.literal.kind));
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
        put_str(w, "in", sdkc_param_in_name(p->in));
        put_str(w, "style", sdkc_param_style_name(p->style));
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
    put_str(w, "encoding", sdkc_encoding_name(s->encoding));
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
    put_str(w, "encoding", sdkc_encoding_name(s->encoding));
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
                put_str(w, "style", sdkc_param_style_name(e->style));
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
