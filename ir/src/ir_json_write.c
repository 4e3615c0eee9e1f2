/* ir_json_write.c - the IR as "sdkc-ir/1" JSON text (docs/ir-format.md).
 *
 * Keys in one fixed order, the layout of jansson's JSON_INDENT(2) and a final newline, so equal
 * IRs give equal bytes. Named types are written once, in `types`, and referenced elsewhere as
 * {"ref": NAME}; anonymous types are written inline.
 */
#include <stdlib.h>
#include <string.h>

#include "ir_json_internal.h"
#include "sdkc/ir_json.h"

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
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
        sdkc_jw_open(w, '{');
        sdkc_jw_put_str(w, "ref", t->name);
        sdkc_jw_close(w, '}');
    } else {
        type_def(w, t, false);
    }
}

static void put_type(writer *w, const char *k, const sdkc_type *t)
{
    sdkc_jw_key(w, k);
    type_ref(w, t);
}

/* Where the IR names "the item type": its name when listed, else the type itself. */
static void put_type_name(writer *w, const char *k, const sdkc_type *t)
{
    sdkc_jw_key(w, k);
    if (t && is_listed(w, t))
        sdkc_jw_str(w, t->name);
    else
        type_ref(w, t);
}

static void fields_json(writer *w, const sdkc_type *t)
{
    sdkc_jw_open(w, '[');
    for (size_t i = 0; i < t->u.object.nfields && !w->failed; i++) {
        const sdkc_field *f = &t->u.object.fields[i];
        sdkc_jw_item(w);
        sdkc_jw_open(w, '{');
        sdkc_jw_put_str(w, "name", f->wire_name);
        sdkc_jw_put_str(w, "safe_name", f->safe_name);
        put_type(w, "type", f->type);
        sdkc_jw_put_bool(w, "required", f->required);
        sdkc_jw_put_true_if(w, "read_only", f->read_only);
        sdkc_jw_put_true_if(w, "write_only", f->write_only);
        sdkc_jw_put_str(w, "docs", f->docs);
        sdkc_jw_put_loc(w, f->loc);
        sdkc_jw_close(w, '}');
    }
    sdkc_jw_close(w, ']');
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
    sdkc_jw_open(w, '{');
    if (t->name) {
        sdkc_jw_put_str(w, "name", t->name);
        sdkc_jw_put_str(w, "safe_name", t->safe_name);
    }
    sdkc_jw_put_str(w, "kind", sdkc_type_kind_name(t->kind));
    sdkc_jw_put_str(w, "docs", t->docs);
    sdkc_jw_put_str(w, "origin", t->origin);
    sdkc_jw_put_true_if(w, "recursive", t->recursive);
    if (t->name)
        sdkc_jw_put_bool(w, "declared", t->declared);
    sdkc_jw_put_true_if(w, "inferred", t->inferred);
    if (named)
        sdkc_jw_put_loc(w, t->loc);
    switch (t->kind) {
    case SDKC_TYPE_STRING:
        sdkc_jw_put_str(w, "format", t->u.str.format);
        sdkc_jw_put_str(w, "pattern", t->u.str.pattern);
        if (t->u.str.brand)
            sdkc_jw_put_str(w, "brand", t->u.str.brand->name);
        if (t->u.str.has_min_length)
            sdkc_jw_put_uint(w, "min_length", t->u.str.min_length);
        if (t->u.str.has_max_length)
            sdkc_jw_put_uint(w, "max_length", t->u.str.max_length);
        if (t->u.str.nexamples)
            sdkc_jw_put_strs(w, "examples", t->u.str.examples, t->u.str.nexamples);
        break;
    case SDKC_TYPE_INTEGER:
    case SDKC_TYPE_NUMBER:
        sdkc_jw_put_str(w, "format", t->u.num.format);
        if (t->u.num.has_minimum) {
            sdkc_jw_key(w, "minimum");
            sdkc_jw_number(w, t->u.num.minimum);
            sdkc_jw_put_true_if(w, "exclusive_minimum", t->u.num.exclusive_minimum);
        }
        if (t->u.num.has_maximum) {
            sdkc_jw_key(w, "maximum");
            sdkc_jw_number(w, t->u.num.maximum);
            sdkc_jw_put_true_if(w, "exclusive_maximum", t->u.num.exclusive_maximum);
        }
        break;
    case SDKC_TYPE_LITERAL:
        sdkc_jw_put_str(w, "literal_kind", sdkc_irj_literal_kind_name(t->u.literal.kind));
        sdkc_jw_put_str_or_null(w, "value", t->u.literal.text);
        break;
    case SDKC_TYPE_ENUM:
        sdkc_jw_key(w, "values");
        sdkc_jw_open(w, '[');
        for (size_t i = 0; i < t->u.enumeration.nvalues; i++) {
            sdkc_jw_item(w);
            sdkc_jw_str(w, t->u.enumeration.values[i]);
        }
        sdkc_jw_close(w, ']');
        sdkc_jw_key(w, "safe_values");
        sdkc_jw_open(w, '[');
        for (size_t i = 0; i < t->u.enumeration.nvalues; i++) {
            sdkc_jw_item(w);
            sdkc_jw_str(w, t->u.enumeration.safe_values ? t->u.enumeration.safe_values[i] : NULL);
        }
        sdkc_jw_close(w, ']');
        break;
    case SDKC_TYPE_ARRAY:
        put_type(w, "items", t->u.array.items);
        if (t->u.array.has_min_items)
            sdkc_jw_put_uint(w, "min_items", t->u.array.min_items);
        if (t->u.array.has_max_items)
            sdkc_jw_put_uint(w, "max_items", t->u.array.max_items);
        sdkc_jw_put_true_if(w, "unique_items", t->u.array.unique_items);
        break;
    case SDKC_TYPE_TUPLE:
        sdkc_jw_key(w, "items");
        sdkc_jw_open(w, '[');
        for (size_t i = 0; i < t->u.tuple.nitems && !w->failed; i++) {
            sdkc_jw_item(w);
            type_ref(w, t->u.tuple.items[i]);
        }
        sdkc_jw_close(w, ']');
        put_type(w, "rest", t->u.tuple.rest);
        break;
    case SDKC_TYPE_MAP:
        put_type(w, "value", t->u.map.value);
        sdkc_jw_put_str(w, "key_pattern", t->u.map.key_pattern);
        break;
    case SDKC_TYPE_OBJECT:
        sdkc_jw_key(w, "fields");
        fields_json(w, t);
        if (t->u.object.nrequired_only)
            sdkc_jw_put_strs(w, "required_only", t->u.object.required_only,
                             t->u.object.nrequired_only);
        put_type(w, "additional", t->u.object.additional);
        break;
    case SDKC_TYPE_UNION:
        sdkc_jw_put_str(w, "discriminator", t->u.union_.discriminator);
        sdkc_jw_key(w, "variants");
        sdkc_jw_open(w, '[');
        for (size_t i = 0; i < t->u.union_.nvariants && !w->failed; i++) {
            const sdkc_variant *v = &t->u.union_.variants[i];
            sdkc_jw_item(w);
            sdkc_jw_open(w, '{');
            sdkc_jw_put_str(w, "tag", v->tag);
            sdkc_jw_put_str(w, "safe_name", v->safe_name);
            put_type(w, "type", v->type);
            sdkc_jw_close(w, '}');
        }
        sdkc_jw_close(w, ']');
        break;
    case SDKC_TYPE_NULLABLE:
        put_type(w, "inner", t->u.nullable.inner);
        sdkc_jw_put_true_if(w, "lenient", t->u.nullable.lenient);
        break;
    case SDKC_TYPE_JSON_STRING:
        sdkc_jw_put_str(w, "media_type", t->u.json_string.media_type);
        put_type(w, "content", t->u.json_string.content);
        break;
    case SDKC_TYPE_ANY:
        sdkc_jw_put_str(w, "fallback_reason", t->u.any.fallback_reason);
        break;
    case SDKC_TYPE_BOOLEAN:
    case SDKC_TYPE_NULL:
    case SDKC_TYPE_NEVER:
        break;
    }
    sdkc_jw_close(w, '}');
    w->type_depth--;
}

static void scheme_json(writer *w, const sdkc_security_scheme *s)
{
    sdkc_jw_open(w, '{');
    sdkc_jw_put_str(w, "name", s->name);
    sdkc_jw_put_str(w, "type", s->type);
    sdkc_jw_put_str(w, "scheme", s->scheme);
    sdkc_jw_put_str(w, "in", s->in);
    sdkc_jw_put_str(w, "param", s->param);
    sdkc_jw_put_true_if(w, "implied", s->implied);
    sdkc_jw_close(w, '}');
}

static void params_json(writer *w, const sdkc_operation *op)
{
    sdkc_jw_open(w, '[');
    for (size_t i = 0; i < op->nparams && !w->failed; i++) {
        const sdkc_param *p = &op->params[i];
        sdkc_jw_item(w);
        sdkc_jw_open(w, '{');
        sdkc_jw_put_str(w, "name", p->wire_name);
        sdkc_jw_put_str(w, "safe_name", p->safe_name);
        sdkc_jw_put_str(w, "in", sdkc_param_in_name(p->in));
        sdkc_jw_put_str(w, "style", sdkc_param_style_name(p->style));
        sdkc_jw_put_bool(w, "explode", p->explode);
        sdkc_jw_put_bool(w, "required", p->required);
        sdkc_jw_put_true_if(w, "allow_reserved", p->allow_reserved);
        put_type(w, "type", p->type);
        sdkc_jw_put_str(w, "docs", p->docs);
        sdkc_jw_put_loc(w, p->loc);
        sdkc_jw_close(w, '}');
    }
    sdkc_jw_close(w, ']');
}

/* An exact status as a number; a range ("4XX") or default ("default") as a string. Success
 * status 0 (no success declared) stays the number 0. */
static void v_status(writer *w, int status, bool success)
{
    char buf[16];
    if (status >= 100 || (success && status == 0))
        sdkc_jw_int(w, status);
    else
        sdkc_jw_str(w, sdkc_status_text(status, buf, sizeof buf));
}

/* Media types are written unless they are just content_type (the reader's default). */
static void response_info_json(writer *w, const sdkc_response_info *ri, const char *content_type)
{
    bool just_ct = content_type
                       ? ri->nmedia_types == 1 && strcmp(ri->media_types[0], content_type) == 0
                       : ri->nmedia_types == 0;
    if (!just_ct)
        sdkc_jw_put_strs(w, "media_types", ri->media_types, ri->nmedia_types);
    if (ri->nheaders) {
        sdkc_jw_key(w, "headers");
        sdkc_jw_open(w, '[');
        for (size_t i = 0; i < ri->nheaders; i++) {
            sdkc_jw_item(w);
            sdkc_jw_open(w, '{');
            sdkc_jw_put_str(w, "name", ri->headers[i].name);
            sdkc_jw_put_bool(w, "required", ri->headers[i].required);
            sdkc_jw_put_str(w, "docs", ri->headers[i].docs);
            sdkc_jw_close(w, '}');
        }
        sdkc_jw_close(w, ']');
    }
    if (ri->nlinks) {
        sdkc_jw_key(w, "links");
        sdkc_jw_open(w, '[');
        for (size_t i = 0; i < ri->nlinks; i++) {
            const sdkc_link *l = &ri->links[i];
            sdkc_jw_item(w);
            sdkc_jw_open(w, '{');
            sdkc_jw_put_str(w, "name", l->name);
            sdkc_jw_put_str(w, "operation_id", l->operation_id);
            sdkc_jw_key(w, "parameters");
            sdkc_jw_open(w, '[');
            for (size_t j = 0; j < l->nparams; j++) {
                sdkc_jw_item(w);
                sdkc_jw_open(w, '{');
                sdkc_jw_put_str(w, "name", l->params[j].name);
                sdkc_jw_put_str(w, "value", l->params[j].value);
                sdkc_jw_close(w, '}');
            }
            sdkc_jw_close(w, ']');
            sdkc_jw_close(w, '}');
        }
        sdkc_jw_close(w, ']');
    }
}

static void success_json(writer *w, const sdkc_success *s)
{
    sdkc_jw_open(w, '{');
    sdkc_jw_key(w, "status");
    v_status(w, s->status, true);
    sdkc_jw_put_str(w, "encoding", sdkc_encoding_name(s->encoding));
    sdkc_jw_put_str(w, "content_type", s->content_type);
    if (s->type)
        put_type(w, "type", s->type);
    sdkc_jw_put_str(w, "unwrap", s->unwrap);
    /* result defaults to type; written only when it differs */
    if (s->result != s->type)
        put_type(w, "result", s->result);
    response_info_json(w, &s->response, s->content_type);
    sdkc_jw_close(w, '}');
}

static void errors_json(writer *w, const sdkc_operation *op)
{
    sdkc_jw_open(w, '[');
    for (size_t i = 0; i < op->nerrors && !w->failed; i++) {
        const sdkc_error_status *e = &op->errors[i];
        sdkc_jw_item(w);
        sdkc_jw_open(w, '{');
        sdkc_jw_key(w, "status");
        v_status(w, e->status, false);
        sdkc_jw_key(w, "tags");
        sdkc_jw_open(w, '[');
        for (size_t j = 0; j < e->ntags; j++) {
            sdkc_jw_item(w);
            sdkc_jw_str(w, e->tags[j].tag);
        }
        sdkc_jw_close(w, ']');
        sdkc_jw_key(w, "tag_types");
        sdkc_jw_open(w, '[');
        for (size_t j = 0; j < e->ntags; j++) {
            sdkc_jw_item(w);
            type_ref(w, e->tags[j].type);
        }
        sdkc_jw_close(w, ']');
        if (e->untagged)
            put_type(w, "untagged", e->untagged);
        sdkc_jw_put_str(w, "content_type", e->content_type);
        response_info_json(w, &e->response, e->content_type);
        sdkc_jw_close(w, '}');
    }
    sdkc_jw_close(w, ']');
}

static void pagination_json(writer *w, const sdkc_pagination *p)
{
    sdkc_jw_open(w, '{');
    sdkc_jw_put_str(w, "style", sdkc_page_style_name(p->style));
    sdkc_jw_put_str(w, "source", sdkc_page_source_name(p->source));
    sdkc_jw_put_str(w, "reason", p->reason);
    put_type_name(w, "item", p->item);
    put_type_name(w, "page", p->page);
    sdkc_jw_put_str_or_null(w, "items_field", p->items_field);
    sdkc_jw_put_str(w, "cursor_field", p->cursor_field);
    sdkc_jw_put_str(w, "next_field", p->next_field);
    sdkc_jw_put_str(w, "previous_field", p->previous_field);
    sdkc_jw_put_str_or_null(w, "cursor_param", p->cursor_param ? p->cursor_param->wire_name : NULL);
    sdkc_jw_put_str(w, "has_more_field", p->has_more_field);
    sdkc_jw_put_str(w, "item_id_field", p->item_id_field);
    sdkc_jw_put_str(w, "size_param", p->size_param ? p->size_param->wire_name : NULL);
    sdkc_jw_close(w, '}');
}

static void stream_json(writer *w, const sdkc_stream *s)
{
    sdkc_jw_open(w, '{');
    sdkc_jw_put_str(w, "encoding", sdkc_encoding_name(s->encoding));
    put_type_name(w, "item", s->item);
    sdkc_jw_put_bool(w, "item_encoded", s->item_encoded);
    sdkc_jw_put_str_or_null(w, "failure_event", s->failure_event);
    if (s->frame)
        put_type(w, "frame", s->frame);
    if (s->cause)
        put_type(w, "cause", s->cause);
    if (s->error)
        put_type(w, "error", s->error);
    if (s->follow) {
        sdkc_jw_key(w, "follow");
        sdkc_jw_open(w, '{');
        sdkc_jw_key(w, "sequence");
        sdkc_jw_open(w, '[');
        for (size_t i = 0; i < s->follow->depth; i++) {
            sdkc_jw_item(w);
            sdkc_jw_str(w, s->follow->sequence[i]);
        }
        sdkc_jw_close(w, ']');
        sdkc_jw_put_str(w, "after_param", s->follow->after_param->wire_name);
        sdkc_jw_put_bool(w, "from_option", s->follow->from_option);
        sdkc_jw_close(w, '}');
    }
    sdkc_jw_close(w, '}');
}

static void body_json(writer *w, const sdkc_body *b)
{
    sdkc_jw_key(w, "body");
    sdkc_jw_open(w, '{');
    sdkc_jw_put_str(w, "content_type", b->content_type);
    put_type(w, "type", b->type);
    sdkc_jw_put_bool(w, "required", b->required);
    sdkc_jw_put_str(w, "docs", b->docs);
    if (b->nencodings) {
        sdkc_jw_key(w, "encoding");
        sdkc_jw_open(w, '[');
        for (size_t i = 0; i < b->nencodings; i++) {
            const sdkc_body_encoding *e = &b->encodings[i];
            sdkc_jw_item(w);
            sdkc_jw_open(w, '{');
            sdkc_jw_put_str(w, "property", e->property);
            sdkc_jw_put_str(w, "content_type", e->content_type);
            if (e->has_style) {
                sdkc_jw_put_str(w, "style", sdkc_param_style_name(e->style));
                sdkc_jw_put_bool(w, "explode", e->explode);
            }
            sdkc_jw_put_true_if(w, "allow_reserved", e->allow_reserved);
            sdkc_jw_close(w, '}');
        }
        sdkc_jw_close(w, ']');
    }
    if (b->nalternatives) {
        sdkc_jw_key(w, "alternatives");
        sdkc_jw_open(w, '[');
        for (size_t i = 0; i < b->nalternatives; i++) {
            sdkc_jw_item(w);
            sdkc_jw_str(w, b->alternatives[i]);
        }
        sdkc_jw_close(w, ']');
    }
    sdkc_jw_close(w, '}');
}

static void webhook_json(writer *w, const sdkc_webhook *h)
{
    sdkc_jw_open(w, '{');
    sdkc_jw_put_str(w, "name", h->name);
    sdkc_jw_put_str(w, "operation", h->operation);
    sdkc_jw_put_str(w, "expression", h->expression);
    sdkc_jw_put_str(w, "method", h->method);
    sdkc_jw_put_str(w, "id", h->id);
    if (h->body)
        body_json(w, h->body);
    if (h->response)
        put_type(w, "response", h->response);
    sdkc_jw_put_loc(w, h->loc);
    sdkc_jw_close(w, '}');
}

static void operation_json(writer *w, const sdkc_operation *op)
{
    sdkc_jw_open(w, '{');
    sdkc_jw_put_str(w, "id", op->id);
    sdkc_jw_put_str(w, "prefix", op->prefix);
    sdkc_jw_put_str(w, "group", op->group);
    sdkc_jw_put_str(w, "name", op->name);
    sdkc_jw_put_str(w, "safe_name", op->safe_name);
    sdkc_jw_put_str(w, "kept_prefix", op->kept_prefix);
    if (op->group_source != SDKC_GROUP_NONE)
        sdkc_jw_put_str(w, "group_source", sdkc_group_source_name(op->group_source));
    if (op->ntags) /* left out when empty */
        sdkc_jw_put_strs(w, "tags", op->tags, op->ntags);
    sdkc_jw_put_str(w, "method", op->method);
    sdkc_jw_put_str(w, "path", op->path);
    sdkc_jw_put_str(w, "fragment", op->fragment);
    sdkc_jw_put_str(w, "summary", op->summary);
    sdkc_jw_put_str(w, "description", op->description);
    sdkc_jw_put_true_if(w, "deprecated", op->deprecated);
    sdkc_jw_key(w, "params");
    params_json(w, op);
    if (op->body)
        body_json(w, op->body);
    sdkc_jw_key(w, "success");
    success_json(w, &op->success);
    if (op->nmore_successes) {
        sdkc_jw_key(w, "more_successes");
        sdkc_jw_open(w, '[');
        for (size_t i = 0; i < op->nmore_successes; i++) {
            sdkc_jw_item(w);
            success_json(w, &op->more_successes[i]);
        }
        sdkc_jw_close(w, ']');
    }
    sdkc_jw_key(w, "errors");
    errors_json(w, op);
    if (op->pagination) {
        sdkc_jw_key(w, "pagination");
        pagination_json(w, op->pagination);
    }
    if (op->stream) {
        sdkc_jw_key(w, "stream");
        stream_json(w, op->stream);
    }
    if (op->stream_variant) {
        sdkc_jw_key(w, "stream_variant");
        stream_json(w, op->stream_variant);
    }
    sdkc_jw_put_str(w, "stream_flag", op->stream_flag);
    sdkc_jw_put_true_if(w, "security_optional", op->security_optional);
    /* a requirement of one scheme is its name; of several, the list of their names */
    sdkc_jw_key(w, "security");
    sdkc_jw_open(w, '[');
    for (size_t i = 0; i < op->nsecurity;) {
        size_t end = sdkc_security_requirement_end(op, i);
        sdkc_jw_item(w);
        if (end - i > 1)
            sdkc_jw_open(w, '[');
        for (size_t k = i; k < end; k++) {
            if (end - i > 1)
                sdkc_jw_item(w);
            sdkc_jw_str(w, op->security[k] ? op->security[k]->name : NULL);
        }
        if (end - i > 1)
            sdkc_jw_close(w, ']');
        i = end;
    }
    sdkc_jw_close(w, ']');
    sdkc_jw_put_loc(w, op->loc);
    sdkc_jw_close(w, '}');
}

static void ir_json(writer *w, const sdkc_ir *ir)
{
    sdkc_jw_open(w, '{');
    sdkc_jw_put_str(w, "format", SDKC_IR_FORMAT);
    sdkc_jw_key(w, "source");
    sdkc_jw_open(w, '{');
    sdkc_jw_put_str_or_null(w, "name", ir->source_name ? base_name(ir->source_name) : NULL);
    sdkc_jw_put_str_or_null(w, "sha256", ir->source_sha256);
    sdkc_jw_close(w, '}');
    sdkc_jw_key(w, "info");
    sdkc_jw_open(w, '{');
    sdkc_jw_put_str_or_null(w, "title", ir->title);
    sdkc_jw_put_str_or_null(w, "version", ir->version);
    sdkc_jw_put_str(w, "description", ir->description);
    sdkc_jw_close(w, '}');
    if (ir->nservers) {
        sdkc_jw_key(w, "servers");
        sdkc_jw_open(w, '[');
        for (size_t i = 0; i < ir->nservers; i++) {
            const sdkc_server *sv = &ir->servers[i];
            sdkc_jw_item(w);
            sdkc_jw_open(w, '{');
            sdkc_jw_put_str(w, "url", sv->url);
            sdkc_jw_put_str(w, "description", sv->description);
            sdkc_jw_put_bool(w, "absolute", sv->absolute);
            sdkc_jw_put_loc(w, sv->loc);
            sdkc_jw_close(w, '}');
        }
        sdkc_jw_close(w, ']');
    }
    sdkc_jw_put_true_if(w, "auth_unspecified", ir->auth_unspecified);

    sdkc_jw_key(w, "security_schemes");
    sdkc_jw_open(w, '[');
    for (size_t i = 0; i < ir->nschemes; i++) {
        sdkc_jw_item(w);
        scheme_json(w, &ir->schemes[i]);
    }
    sdkc_jw_close(w, ']');

    sdkc_jw_key(w, "brands");
    sdkc_jw_open(w, '[');
    for (size_t i = 0; i < ir->nbrands; i++) {
        const sdkc_brand *b = &ir->brands[i];
        sdkc_jw_item(w);
        sdkc_jw_open(w, '{');
        sdkc_jw_put_str(w, "name", b->name);
        sdkc_jw_put_str(w, "safe_name", b->safe_name);
        sdkc_jw_put_str(w, "prefix", b->prefix);
        sdkc_jw_put_str(w, "pattern", b->pattern);
        sdkc_jw_put_uint(w, "uses", b->uses);
        sdkc_jw_close(w, '}');
    }
    sdkc_jw_close(w, ']');

    sdkc_jw_key(w, "types");
    sdkc_jw_open(w, '[');
    for (size_t i = 0; i < ir->ntypes && !w->failed; i++) {
        sdkc_jw_item(w);
        type_def(w, ir->types[i], true);
    }
    sdkc_jw_close(w, ']');

    sdkc_jw_key(w, "operations");
    sdkc_jw_open(w, '[');
    for (size_t i = 0; i < ir->nops && !w->failed; i++) {
        sdkc_jw_item(w);
        operation_json(w, &ir->ops[i]);
    }
    sdkc_jw_close(w, ']');
    if (ir->nwebhooks) {
        sdkc_jw_key(w, "webhooks");
        sdkc_jw_open(w, '[');
        for (size_t i = 0; i < ir->nwebhooks && !w->failed; i++) {
            sdkc_jw_item(w);
            webhook_json(w, &ir->webhooks[i]);
        }
        sdkc_jw_close(w, ']');
    }
    sdkc_jw_close(w, '}');
    sdkc_buf_putc(&w->out, '\n');
}

/* The whole IR through w (set up here; w->sink may be set): SDKC_OK, NOMEM, LIMIT or IO. */
static sdkc_status write_ir(writer *w, const sdkc_ir *ir)
{
    w->has_items = calloc(MAX_JSON_DEPTH, sizeof *w->has_items);
    if (!w->has_items || !sdkc_map_reserve(&w->named, ir->ntypes))
        return SDKC_ERR_NOMEM;
    for (size_t i = 0; i < ir->ntypes; i++) {
        const sdkc_type *t = ir->types[i];
        /* the first listed wins */
        if (t && t->name && !sdkc_map_get(&w->named, t->name) &&
            !sdkc_map_put(&w->named, t->name, (sdkc_type *)t))
            return SDKC_ERR_NOMEM;
    }
    ir_json(w, ir);
    if (w->failed)
        return SDKC_ERR_LIMIT;
    if (w->out.oom)
        return SDKC_ERR_NOMEM;
    sdkc_jw_flush(w);
    return w->io_failed ? SDKC_ERR_IO : SDKC_OK;
}

static void writer_cleanup(writer *w)
{
    sdkc_buf_cleanup(&w->out);
    free(w->has_items);
    sdkc_map_cleanup(&w->named);
}

sdkc_status sdkc_ir_to_json(const sdkc_ir *ir, char **out, size_t *len_out)
{
    writer w;
    memset(&w, 0, sizeof w);
    sdkc_buf_init(&w.out);
    *out = NULL;
    if (len_out)
        *len_out = 0;
    sdkc_status st = write_ir(&w, ir);
    if (st == SDKC_OK && sdkc_buf_finish(&w.out) != SDKC_OK)
        st = SDKC_ERR_NOMEM;
    size_t n = 0;
    char *text = st == SDKC_OK ? sdkc_buf_steal(&w.out, &n) : NULL;
    if (st == SDKC_OK && !text)
        st = SDKC_ERR_NOMEM;
    if (text) {
        *out = text;
        if (len_out)
            *len_out = n;
    }
    writer_cleanup(&w);
    return st;
}

sdkc_status sdkc_ir_write_json(const sdkc_ir *ir, FILE *fp)
{
    writer w;
    memset(&w, 0, sizeof w);
    sdkc_buf_init(&w.out);
    w.sink = fp;
    sdkc_status st = write_ir(&w, ir);
    writer_cleanup(&w);
    return st;
}
