/* client.ts (the client, one class per operation group, the input and cursor types, the
 * operation descriptors the runtime interprets), index.ts and README.md. */
#include "ts_internal.h"

#include <stdlib.h>
#include <string.h>

/* Members of rt.BaseClient: a group may not take their names. */

/* Every paginated operation returns an rt.Page; OpenCode's cursor object an rt.CursorPage with
 * typed cursors, continued from the input; the other styles from the raw page and the request
 * (runtime.ts pageNext, as libsdkrt's page.c). */
static const sdkc_pagination *ts_cursor_page(const sdkc_operation *op)
{
    return op->pagination && op->pagination->style == SDKC_PAGE_CURSOR_OBJECT ? op->pagination
                                                                              : NULL;
}

static const char *const client_members[] = {
    "baseUrl",   "transport",    "headers",       "credentials", "timeout",
    "schemes",   "errorClasses", "credentialFor", "authParts",   "prepare",
    "failure",   "send",         "text",          "errorFor",    "successFor",
    "call",      "decode",       "page",          "stream",      "streamFailure",
    "failureOf", "constructor",  "build",         "cursorPage",  "pageAt",
    NULL};

static bool same(const char *a, const char *b)
{
    return a && b && strcmp(a, b) == 0;
}

/* The body is flattened into the input when it is an object whose fields do not clash with a
 * parameter's key: `client.session.prompt({ sessionID, prompt, resume: false })`. */
static bool flatten_body(const sdkc_operation *op, const char *const *keys)
{
    const sdkc_body *body = op->body;
    if (!body || body->type->kind != SDKC_TYPE_OBJECT || !body->type->u.object.nfields)
        return false;
    for (size_t i = 0; i < body->type->u.object.nfields; i++) {
        for (size_t j = 0; j < op->nparams; j++) {
            if (same(body->type->u.object.fields[i].wire_name, keys[j]))
                return false;
        }
    }
    return true;
}

static bool body_has_required(const sdkc_type *t)
{
    for (size_t i = 0; i < t->u.object.nfields; i++) {
        if (t->u.object.fields[i].required && !t->u.object.fields[i].read_only)
            return true;
    }
    return false;
}

/* The TS type of what one success gives: `undefined` for no content (`void` when alone). */
static void put_success_type(const ts_ctx *cx, sdkc_buf *b, const sdkc_success *sc, bool alone)
{
    if (sc->encoding == SDKC_ENC_NONE || sc->encoding == SDKC_ENC_SSE)
        sdkc_buf_puts(b, alone ? "void" : "undefined");
    else if (sc->encoding == SDKC_ENC_BYTES)
        sdkc_buf_puts(b, "Uint8Array");
    else if (sc->encoding == SDKC_ENC_TEXT)
        sdkc_buf_puts(b, "string");
    else
        ts_put_type(cx, b, sc->result ? sc->result : sc->type, "T.");
}

/* Does a unary operation declare several successes whose values differ in TS type? Then its
 * method resolves to `{status, value}`; when they share one it resolves to the value. */
static bool several_types(ts_ctx *cx, const sdkc_operation *op)
{
    if (!op->nmore_successes || op->pagination || op->stream)
        return false;
    sdkc_buf first = SDKC_BUF_INIT, other = SDKC_BUF_INIT;
    bool differ = false;
    put_success_type(cx, &first, &op->success, true);
    for (size_t k = 0; k < op->nmore_successes && !differ; k++) {
        sdkc_buf_reset(&other);
        put_success_type(cx, &other, &op->more_successes[k], true);
        cx->oom = cx->oom || other.oom;
        differ = !same(first.data ? first.data : "", other.data ? other.data : "");
    }
    cx->oom = cx->oom || first.oom;
    sdkc_buf_cleanup(&first);
    sdkc_buf_cleanup(&other);
    return differ;
}

/* The entry of the group (or namespace, `ns`) named `name` in `parent`, added when new: the
 * property is camelCase, with `Api` when the scope has the name already (a member of
 * rt.BaseClient, a namespace); the class `<Namespace><Name>Api`. TS_ROOT when out of memory. */
static size_t plan_group(ts_ctx *cx, ts_names *scope, size_t parent, const char *name, bool ns)
{
    const char *key = ts_camel(cx, name);
    for (size_t g = 0; g < cx->ngroups; g++)
        if (cx->groups[g].parent == parent && cx->groups[g].ns == ns &&
            same(cx->groups[g].key, key))
            return g;
    if (!key)
        return TS_ROOT;
    ts_group *e = &cx->groups[cx->ngroups];
    const char *prop = ts_names_has(scope, key) ? sdkc_arena_printf(cx->arena, "%sApi", key) : key;
    const char *outer = parent == TS_ROOT ? "" : cx->groups[parent].key;
    const char *pascal = ts_pascal(cx, sdkc_arena_printf(cx->arena, "%s %s", outer, name));
    e->key = key;
    e->parent = parent;
    e->ns = ns;
    e->prop = prop ? ts_unique(cx, scope, prop) : NULL;
    e->cls =
        pascal ? ts_unique(cx, &cx->exports, sdkc_arena_printf(cx->arena, "%sApi", pascal)) : NULL;
    if (!e->prop || !e->cls)
        return TS_ROOT;
    return cx->ngroups++;
}

sdkc_status ts_plan_ops(ts_ctx *cx)
{
    const sdkc_ir *ir = cx->ir;
    ts_names *module = &cx->exports, groups = {0};
    sdkc_status st = SDKC_ERR_NOMEM;
    ts_names *methods = calloc(ir->nops ? 2 * ir->nops : 1, sizeof *methods);
    cx->ops = sdkc_arena_alloc(cx->arena, (ir->nops ? ir->nops : 1) * sizeof *cx->ops);
    cx->groups = sdkc_arena_alloc(cx->arena, (ir->nops ? 2 * ir->nops : 1) * sizeof *cx->groups);
    if (!methods || !cx->ops || !cx->groups)
        goto done;
    for (size_t i = 0; client_members[i]; i++)
        ts_names_add(&groups, client_members[i]);
    for (size_t i = 0; i < ir->nops; i++) {
        const sdkc_operation *op = &ir->ops[i];
        ts_op *o = &cx->ops[i];
        o->op = op;
        o->spec = sdkc_arena_printf(cx->arena, "OP_%s", op->safe_name);
        const char *gname = op->group && *op->group ? op->group : "default";
        size_t parent = TS_ROOT;
        if (op->kept_prefix &&
            (parent = plan_group(cx, &groups, TS_ROOT, op->kept_prefix, true)) == TS_ROOT)
            goto done;
        size_t g =
            plan_group(cx, parent == TS_ROOT ? &groups : &methods[parent], parent, gname, false);
        if (g == TS_ROOT)
            goto done;
        o->group_index = g;
        o->group = parent == TS_ROOT
                       ? cx->groups[g].prop
                       : sdkc_arena_printf(cx->arena, "%s.%s", cx->groups[parent].prop,
                                           cx->groups[g].prop);
        /* sdkc_kit_expand_ops puts a stream variant right after its operation */
        if (i > 0 && op->stream && op->stream == ir->ops[i - 1].stream_variant)
            o->variant_of = cx->ops[i - 1].method;
        if (o->variant_of)
            o->method =
                ts_unique(cx, &methods[g], sdkc_arena_printf(cx->arena, "%sStream", o->variant_of));
        else
            o->method =
                ts_unique(cx, &methods[g], ts_camel(cx, op->name ? op->name : op->safe_name));
        const char *base = ts_pascal(cx, op->safe_name);
        /* parameter keys: the wire name, unless two locations share it */
        o->keys = sdkc_arena_alloc(cx->arena, (op->nparams ? op->nparams : 1) * sizeof *o->keys);
        if (!o->keys)
            goto done;
        for (size_t j = 0; j < op->nparams; j++) {
            bool dup = false;
            for (size_t k = 0; k < op->nparams; k++)
                dup = dup || (k != j && same(op->params[k].wire_name, op->params[j].wire_name));
            o->keys[j] = dup ? ts_camel(cx, op->params[j].safe_name) : op->params[j].wire_name;
        }
        bool flat = flatten_body(op, o->keys);
        if (op->body && !flat) {
            o->body_key = "body";
            for (size_t j = 0; j < op->nparams; j++)
                if (same(o->keys[j], "body"))
                    o->body_key = "requestBody";
        }
        bool required = false;
        for (size_t j = 0; j < op->nparams; j++)
            required = required || op->params[j].required;
        if (op->body && op->body->required)
            required = required || !flat || body_has_required(op->body->type);
        o->input_optional = !required;
        if (o->variant_of)
            o->input = cx->ops[i - 1].input;
        else if (op->nparams || op->body)
            o->input = ts_unique(cx, module, sdkc_arena_printf(cx->arena, "%sInput", base));
        if (ts_cursor_page(op))
            o->cursor = ts_unique(cx, module, sdkc_arena_printf(cx->arena, "%sCursor", base));
        if (several_types(cx, op))
            o->result = ts_unique(cx, module, sdkc_arena_printf(cx->arena, "%sResult", base));
    }
    st = cx->oom || module->oom || groups.oom ? SDKC_ERR_NOMEM : SDKC_OK;
done:
    for (size_t i = 0; methods && i < 2 * ir->nops; i++)
        ts_names_free(&methods[i]);
    free(methods);
    ts_names_free(&groups);
    return st;
}

/* The readOnly fields of an object body (left out of requests) as string literals joined by sep. */
static bool put_read_only(sdkc_buf *b, const sdkc_type *t, const char *sep)
{
    bool any = false;
    if (t->kind != SDKC_TYPE_OBJECT)
        return false;
    for (size_t i = 0; i < t->u.object.nfields; i++) {
        if (!t->u.object.fields[i].read_only)
            continue;
        sdkc_buf_puts(b, any ? sep : "");
        ts_put_string(b, t->u.object.fields[i].wire_name);
        any = true;
    }
    return any;
}

static void put_body_type(const ts_ctx *cx, sdkc_buf *b, const sdkc_type *t)
{
    sdkc_buf ro = SDKC_BUF_INIT;
    if (put_read_only(&ro, t, " | ") && !ro.oom) {
        sdkc_buf_puts(b, "Omit<");
        ts_put_type(cx, b, t, "T.");
        sdkc_buf_printf(b, ", %s>", ro.data);
    } else {
        ts_put_type(cx, b, t, "T.");
    }
    b->oom = b->oom || ro.oom;
    sdkc_buf_cleanup(&ro);
}

static void emit_input(const ts_ctx *cx, sdkc_buf *b, const ts_op *o)
{
    const sdkc_operation *op = o->op;
    bool flat_only = op->body && !o->body_key && !op->nparams;
    sdkc_buf_printf(b, "/** The input of %s.%s (%s %s). */\nexport type %s = %s", o->group,
                    o->method, op->method, op->path, o->input, flat_only ? "" : "{\n");
    for (size_t j = 0; j < op->nparams; j++) {
        const sdkc_param *p = &op->params[j];
        char where[96];
        snprintf(where, sizeof where, "%s parameter", sdkc_param_in_name(p->in));
        ts_put_doc(b, "  ", p->docs,
                   ts_cursor_page(op) && p == ts_cursor_page(op)->cursor_param
                       ? "An opaque cursor from a page of this operation."
                       : NULL);
        sdkc_buf_puts(b, "  ");
        ts_put_key(b, o->keys[j]);
        sdkc_buf_puts(b, p->required ? ": " : "?: ");
        if (ts_cursor_page(op) && p == ts_cursor_page(op)->cursor_param)
            sdkc_buf_puts(b, o->cursor);
        else
            ts_put_type(cx, b, p->type, "T.");
        sdkc_buf_puts(b, ";\n");
    }
    if (o->body_key) {
        ts_put_doc(b, "  ", op->body->docs, NULL);
        sdkc_buf_printf(b, "  %s%s: ", o->body_key, op->body->required ? "" : "?");
        put_body_type(cx, b, op->body->type);
        sdkc_buf_puts(b, ";\n");
    }
    if (!flat_only)
        sdkc_buf_puts(b, "}");
    if (op->body && !o->body_key) {
        sdkc_buf_puts(b, flat_only ? "" : " & ");
        bool partial = !op->body->required;
        sdkc_buf_puts(b, partial ? "Partial<" : "");
        put_body_type(cx, b, op->body->type);
        sdkc_buf_puts(b, partial ? ">" : "");
    }
    sdkc_buf_puts(b, ";\n\n");
}

static const char *style_name(sdkc_param_style s)
{
    return sdkc_param_style_name(s);
}

/* Accept: the media type of every success with a body, once each, in declaration order; a JSON
 * result under a media range is asked for as JSON first (as the C SDK does). */
static void put_accept(sdkc_buf *b, const sdkc_operation *op)
{
    size_t n = op->pagination || op->stream ? 0 : op->nmore_successes;
    sdkc_buf acc = SDKC_BUF_INIT;
    for (size_t k = 0; k <= n; k++) {
        const sdkc_success *sc = k ? &op->more_successes[k - 1] : &op->success;
        if (!sc->content_type || sc->encoding == SDKC_ENC_SSE || sc->encoding == SDKC_ENC_NONE)
            continue;
        bool seen = false;
        for (size_t q = 0; q < k && !seen; q++) {
            const sdkc_success *p = q ? &op->more_successes[q - 1] : &op->success;
            seen = p->encoding != SDKC_ENC_SSE && same(p->content_type, sc->content_type);
        }
        if (seen)
            continue;
        if (acc.len)
            sdkc_buf_puts(&acc, ", ");
        if (sc->encoding == SDKC_ENC_JSON && strchr(sc->content_type, '*'))
            sdkc_buf_printf(&acc, "application/json, %s;q=0.8", sc->content_type);
        else
            sdkc_buf_puts(&acc, sc->content_type);
    }
    if (acc.len && !acc.oom) {
        sdkc_buf_puts(b, "  accept: ");
        ts_put_string(b, acc.data);
        sdkc_buf_puts(b, ",\n");
    }
    b->oom = b->oom || acc.oom;
    sdkc_buf_cleanup(&acc);
}

/* `paging: { style, items, ... }`: what runtime.ts pageNext needs (the fields of sdkrt_page_desc).
 */
static void put_paging(sdkc_buf *b, const sdkc_pagination *pg)
{
    const char *keys[] = {"items", "next", "param", "hasMore", "itemId", "sizeParam"};
    const char *vals[] = {pg->items_field,
                          pg->next_field,
                          pg->cursor_param ? pg->cursor_param->wire_name : NULL,
                          pg->has_more_field,
                          pg->item_id_field,
                          pg->size_param ? pg->size_param->wire_name : NULL};
    sdkc_buf_printf(b, "  paging: { style: '%s'", sdkc_page_style_name(pg->style));
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        if (!vals[k])
            continue;
        sdkc_buf_printf(b, ", %s: ", keys[k]);
        ts_put_string(b, vals[k]);
    }
    sdkc_buf_puts(b, " },\n");
}

static void emit_spec(ts_ctx *cx, sdkc_buf *b, const ts_op *o)
{
    const sdkc_operation *op = o->op;
    char st[16];
    sdkc_buf_printf(b, "const %s: rt.OperationSpec = {\n  id: ", o->spec);
    ts_put_string(b, op->id);
    sdkc_buf_puts(b, ",\n  method: ");
    ts_put_string(b, op->method);
    sdkc_buf_puts(b, ",\n  path: ");
    /* a fragment in the path key is never sent */
    const char *hash = strchr(op->path, '#');
    char *path = hash ? sdkc_arena_strndup(cx->arena, op->path, (size_t)(hash - op->path))
                      : (char *)op->path;
    ts_put_string(b, path ? path : op->path);
    sdkc_buf_puts(b, ",\n  params: [");
    for (size_t j = 0; j < op->nparams; j++) {
        const sdkc_param *p = &op->params[j];
        sdkc_buf_puts(b, j ? ", [" : "[");
        ts_put_string(b, o->keys[j]);
        sdkc_buf_puts(b, ", ");
        ts_put_string(b, p->wire_name);
        sdkc_buf_printf(b, ", '%s', '%s', %s, %s]", sdkc_param_in_name(p->in), style_name(p->style),
                        p->explode ? "true" : "false", p->allow_reserved ? "true" : "false");
    }
    sdkc_buf_puts(b, "],\n");
    if (op->body) {
        const sdkc_body *bd = op->body;
        sdkc_buf_puts(b, "  body: { contentType: ");
        ts_put_string(b, bd->content_type);
        sdkc_buf_printf(b, ", required: %s", bd->required ? "true" : "false");
        if (o->body_key) {
            sdkc_buf_puts(b, ", key: ");
            ts_put_string(b, o->body_key);
        }
        if (bd->nalternatives) {
            sdkc_buf_puts(b, ", alternatives: [");
            for (size_t k = 0; k < bd->nalternatives; k++) {
                sdkc_buf_puts(b, k ? ", " : "");
                ts_put_string(b, bd->alternatives[k]);
            }
            sdkc_buf_puts(b, "]");
        }
        sdkc_buf ro = SDKC_BUF_INIT;
        if (put_read_only(&ro, bd->type, ", "))
            sdkc_buf_printf(b, ", readOnly: [%s]", ro.data ? ro.data : "");
        b->oom = b->oom || ro.oom;
        sdkc_buf_cleanup(&ro);
        if (bd->nencodings) {
            sdkc_buf_puts(b, ", encodings: {");
            for (size_t k = 0; k < bd->nencodings; k++) {
                const sdkc_body_encoding *e = &bd->encodings[k];
                sdkc_buf_puts(b, k ? ", " : " ");
                ts_put_string(b, e->property);
                sdkc_buf_puts(b, ": [");
                if (e->content_type)
                    ts_put_string(b, e->content_type);
                else
                    sdkc_buf_puts(b, "undefined");
                if (e->has_style)
                    sdkc_buf_printf(b, ", '%s'", style_name(e->style));
                else
                    sdkc_buf_puts(b, ", undefined");
                sdkc_buf_printf(b, ", %s, %s]", e->explode ? "true" : "false",
                                e->allow_reserved ? "true" : "false");
            }
            sdkc_buf_puts(b, " }");
        }
        if (o->variant_of && op->stream_flag) {
            /* the stream form selects itself */
            sdkc_buf_puts(b, ", set: { ");
            ts_put_string(b, op->stream_flag);
            sdkc_buf_puts(b, ": true }");
        }
        sdkc_buf_puts(b, " },\n");
    }
    sdkc_buf_printf(b, "  status: %d,\n  encoding: '%s',\n", op->success.status,
                    sdkc_encoding_name(op->success.encoding));
    put_accept(b, op);
    if (op->success.unwrap && !op->pagination) {
        sdkc_buf_puts(b, "  unwrap: ");
        ts_put_string(b, op->success.unwrap);
        sdkc_buf_puts(b, ",\n");
    }
    if (op->nmore_successes && !op->pagination && !op->stream) {
        sdkc_buf_puts(b, "  successes: [");
        for (size_t k = 0; k < op->nmore_successes; k++) {
            const sdkc_success *m = &op->more_successes[k];
            sdkc_buf_printf(b, "%s[%d, '%s', ", k ? ", " : "", m->status,
                            sdkc_encoding_name(m->encoding));
            if (m->unwrap)
                ts_put_string(b, m->unwrap);
            else
                sdkc_buf_puts(b, "undefined");
            sdkc_buf_puts(b, "]");
        }
        sdkc_buf_puts(b, "],\n");
        if (o->result)
            sdkc_buf_puts(b, "  tagged: true,\n");
    }
    sdkc_buf_puts(b, "  errors: [");
    for (size_t k = 0; k < op->nerrors; k++) {
        const sdkc_error_status *e = &op->errors[k];
        sdkc_buf_printf(b, "%s[%d, [", k ? ", " : "", e->status);
        for (size_t t = 0; t < e->ntags; t++) {
            sdkc_buf_puts(b, t ? ", " : "");
            ts_put_string(b, e->tags[t].tag);
        }
        sdkc_buf_puts(b, "], ");
        if (e->untagged) {
            const char *n = e->untagged->name;
            if (!n)
                n = sdkc_arena_printf(cx->arena, "%s%s", ts_pascal(cx, op->safe_name),
                                      sdkc_status_text(e->status, st, sizeof st));
            ts_put_string(b, n ? n : "Error");
        } else {
            sdkc_buf_puts(b, "undefined");
        }
        sdkc_buf_puts(b, sdkc_error_is_text(e) ? ", true]" : "]");
    }
    sdkc_buf_puts(b, "],\n");
    /* a contract without schemes says nothing of authentication: no `security`, and the client
       sends the credentials it has on every operation (an implied scheme never narrows that) */
    if (!cx->ir->auth_unspecified && cx->ir->nschemes) {
        sdkc_buf_puts(b, "  security: [");
        for (size_t k = 0; k < op->nsecurity;) {
            size_t end = sdkc_security_requirement_end(op, k);
            sdkc_buf_puts(b, k ? ", [" : "[");
            for (size_t q = k; q < end; q++) {
                sdkc_buf_puts(b, q > k ? ", " : "");
                ts_put_string(b, op->security[q]->name);
            }
            sdkc_buf_puts(b, "]");
            k = end;
        }
        sdkc_buf_puts(b, "],\n");
    }
    if (op->pagination && !ts_cursor_page(op))
        put_paging(b, op->pagination);
    if (ts_cursor_page(op)) {
        const sdkc_pagination *pg = ts_cursor_page(op);
        sdkc_buf_puts(b, "  page: [");
        ts_put_string(b, pg->items_field);
        sdkc_buf_puts(b, ", ");
        ts_put_string(b, pg->cursor_field);
        sdkc_buf_puts(b, ", ");
        ts_put_string(b, pg->next_field);
        sdkc_buf_puts(b, ", ");
        if (pg->previous_field)
            ts_put_string(b, pg->previous_field);
        else
            sdkc_buf_puts(b, "undefined");
        sdkc_buf_puts(b, ", ");
        const char *key = pg->cursor_param->wire_name;
        for (size_t j = 0; j < op->nparams; j++)
            if (&op->params[j] == pg->cursor_param)
                key = o->keys[j];
        ts_put_string(b, key);
        sdkc_buf_puts(b, "],\n");
    }
    if (op->stream) {
        const sdkc_type *it = op->stream->item;
        bool encoded = op->stream->item_encoded && it->kind != SDKC_TYPE_STRING &&
                       it->kind != SDKC_TYPE_ENUM && it->kind != SDKC_TYPE_ANY;
        sdkc_buf_puts(b, "  stream: [");
        if (op->stream->failure_event)
            ts_put_string(b, op->stream->failure_event);
        else
            sdkc_buf_puts(b, "undefined");
        sdkc_buf_printf(b, ", %s],\n", encoded ? "true" : "false");
    }
    const sdkc_param *idem = sdkc_operation_idempotency_param(op);
    if (idem) {
        sdkc_buf_puts(b, "  idempotencyHeader: ");
        ts_put_string(b, idem->wire_name);
        sdkc_buf_puts(b, ",\n");
    }
    sdkc_buf_puts(b, "};\n\n");
}

/* The TS type of what the method gives back. */
static void put_result(const ts_ctx *cx, sdkc_buf *b, const ts_op *o)
{
    const sdkc_operation *op = o->op;
    if (op->stream) {
        sdkc_buf_puts(b, "rt.Stream<");
        ts_put_type(cx, b, op->stream->item, "T.");
        sdkc_buf_puts(b, ">");
        return;
    }
    sdkc_buf_puts(b, "Promise<");
    if (ts_cursor_page(op)) {
        sdkc_buf_puts(b, "rt.CursorPage<");
        ts_put_type(cx, b, op->pagination->item, "T.");
        sdkc_buf_printf(b, ", %s>", o->cursor);
    } else if (op->pagination) {
        sdkc_buf_puts(b, "rt.Page<");
        ts_put_type(cx, b, op->pagination->item, "T.");
        sdkc_buf_puts(b, ">");
    } else if (o->result) {
        sdkc_buf_puts(b, o->result);
    } else {
        put_success_type(cx, b, &op->success, true);
    }
    sdkc_buf_puts(b, ">");
}

/* `export type XResult = | { status: 200; value: A } | ...`: one member per success (a `2XX`
 * success has `status: number`). */
static void emit_result_type(const ts_ctx *cx, sdkc_buf *b, const ts_op *o)
{
    const sdkc_operation *op = o->op;
    sdkc_buf_printf(b,
                    "/** What %s.%s resolves to: the status that came back and its value "
                    "(`switch (r.status)`). */\nexport type %s =\n",
                    o->group, o->method, o->result);
    for (size_t k = 0; k <= op->nmore_successes; k++) {
        const sdkc_success *sc = k ? &op->more_successes[k - 1] : &op->success;
        if (sc->status >= 100)
            sdkc_buf_printf(b, "  | { status: %d; value: ", sc->status);
        else
            sdkc_buf_puts(b, "  | { status: number; value: ");
        put_success_type(cx, b, sc, false);
        sdkc_buf_puts(b, " }");
        sdkc_buf_puts(b, k == op->nmore_successes ? ";\n\n" : "\n");
    }
}

static void emit_method(const ts_ctx *cx, sdkc_buf *b, const ts_op *o)
{
    const sdkc_operation *op = o->op;
    char line[512];
    snprintf(line, sizeof line, "%s %s (%s)%s", op->method, op->path, op->id,
             op->deprecated ? "\n@deprecated" : "");
    sdkc_buf ds = SDKC_BUF_INIT;
    if (op->summary)
        sdkc_buf_printf(&ds, "%s\n", op->summary);
    if (op->description && !same(op->description, op->summary))
        sdkc_buf_printf(&ds, "%s\n", op->description);
    sdkc_buf_puts(&ds, line);
    if (ts_cursor_page(op))
        sdkc_buf_puts(&ds, "\nA page: `items`, `next()`, `previous()`, `iterAll()`.");
    else if (op->pagination)
        sdkc_buf_printf(&ds, "\nA page (%s): `items`, `next()`, `iterAll()`.",
                        sdkc_page_style_name(op->pagination->style));
    if (op->stream)
        sdkc_buf_puts(&ds, "\nA cold stream: nothing is sent before the first `next()`; "
                           "`break` or `return()` closes it.");
    if (o->variant_of)
        sdkc_buf_printf(&ds,
                        "\nThe event-stream form of `%s`, with the same input: set the flag the "
                        "contract asks for (such as `stream: true`).",
                        o->variant_of);
    if (o->result)
        sdkc_buf_puts(&ds, "\nSeveral successes: resolves to `{ status, value }`.");
    else if (op->nmore_successes && !op->pagination && !op->stream)
        sdkc_buf_puts(&ds, "\nSeveral successes of one type: `options.onResponse` sees the "
                           "status.");
    ts_put_doc(b, "  ", ds.data, NULL);
    b->oom = b->oom || ds.oom;
    sdkc_buf_cleanup(&ds);
    sdkc_buf_printf(b, "  %s(", o->method);
    if (o->input)
        sdkc_buf_printf(b, "input: %s%s, ", o->input, o->input_optional ? " = {}" : "");
    sdkc_buf_puts(b, "options?: rt.RequestOptions): ");
    put_result(cx, b, o);
    const char *in = o->input ? "input" : "{}";
    if (op->stream) {
        sdkc_buf_puts(b, " {\n    return this.client.stream(");
    } else if (ts_cursor_page(op)) {
        sdkc_buf_puts(b, " {\n    return this.client.cursorPage(");
    } else if (op->pagination) {
        sdkc_buf_puts(b, " {\n    return this.client.page(");
    } else {
        sdkc_buf_puts(b, " {\n    return this.client.call(");
    }
    sdkc_buf_printf(b, "%s, %s, options)", o->spec, in);
    if (!op->stream && !op->pagination) {
        sdkc_buf_puts(b, " as ");
        put_result(cx, b, o);
    }
    sdkc_buf_puts(b, ";\n  }\n\n");
}

/* The properties of a namespace (or of the client: TS_ROOT) and the constructor that fills them
 * with `new <Class>(<client>)`; `first` is the constructor's first statement, or NULL. */
static void put_members(const ts_ctx *cx, sdkc_buf *b, size_t parent, const char *params,
                        const char *first, const char *client)
{
    for (size_t g = 0; g < cx->ngroups; g++)
        if (cx->groups[g].parent == parent)
            sdkc_buf_printf(b, "  readonly %s: %s;\n", cx->groups[g].prop, cx->groups[g].cls);
    sdkc_buf_printf(b, "\n  constructor(%s) {\n", params);
    if (first)
        sdkc_buf_printf(b, "    %s;\n", first);
    for (size_t g = 0; g < cx->ngroups; g++)
        if (cx->groups[g].parent == parent)
            sdkc_buf_printf(b, "    this.%s = new %s(%s);\n", cx->groups[g].prop, cx->groups[g].cls,
                            client);
    sdkc_buf_puts(b, "  }\n}\n");
}

sdkc_status ts_emit_client(ts_ctx *cx, sdkc_buf *b)
{
    const sdkc_ir *ir = cx->ir;
    sdkc_kit_banner(b, ir, "client.ts: the client, one class per group, one method per operation");
    sdkc_buf_puts(b, "import * as rt from './runtime.js';\nimport type * as T from './types.js';\n"
                     "import { ERRORS } from './errors.js';\n\n");
    sdkc_buf_puts(b, "/** The contract's security schemes by name. */\n"
                     "const SCHEMES: Readonly<Record<string, rt.SchemeSpec>> = {\n");
    for (size_t i = 0; i < ir->nschemes; i++) {
        const sdkc_security_scheme *s = &ir->schemes[i];
        sdkc_buf_puts(b, "  ");
        ts_put_string(b, s->name);
        sdkc_buf_puts(b, ": { type: ");
        ts_put_string(b, s->type ? s->type : "");
        const char *vals[3] = {s->scheme, s->in, s->param};
        const char *keys[3] = {"scheme", "in", "param"};
        for (int k = 0; k < 3; k++) {
            if (!vals[k])
                continue;
            sdkc_buf_printf(b, ", %s: ", keys[k]);
            ts_put_string(b, vals[k]);
        }
        sdkc_buf_puts(b, " },\n");
    }
    sdkc_buf_puts(b, "};\n\n");
    for (size_t i = 0; i < ir->nops; i++) {
        const ts_op *o = &cx->ops[i];
        if (o->cursor)
            sdkc_buf_printf(b,
                            "/** An opaque cursor of %s.%s: only a page of that operation gives "
                            "one. */\nexport type %s = string & { readonly __brand: '%s' };\n\n",
                            o->group, o->method, o->cursor, o->cursor);
        if (o->input && !o->variant_of)
            emit_input(cx, b, o);
        if (o->result)
            emit_result_type(cx, b, o);
        emit_spec(cx, b, o);
    }
    for (size_t g = 0; g < cx->ngroups; g++) {
        if (cx->groups[g].ns)
            continue;
        sdkc_buf_printf(
            b,
            "/** The operations of group %s%s%s. */\nexport class %s {\n"
            "  constructor(private readonly client: rt.BaseClient) {}\n\n",
            cx->groups[g].parent == TS_ROOT ? "" : cx->groups[cx->groups[g].parent].prop,
            cx->groups[g].parent == TS_ROOT ? "" : ".", cx->groups[g].prop, cx->groups[g].cls);
        for (size_t i = 0; i < ir->nops; i++)
            if (cx->ops[i].group_index == g)
                emit_method(cx, b, &cx->ops[i]);
        b->len -= 1; /* no blank line before the brace */
        sdkc_buf_puts(b, "}\n\n");
    }
    for (size_t g = 0; g < cx->ngroups; g++) {
        if (!cx->groups[g].ns)
            continue;
        sdkc_buf_printf(b,
                        "/** The groups under %s: operations whose operationIds keep the prefix "
                        "`%s.`, beside others\n * of the same names without it. */\nexport class "
                        "%s {\n",
                        cx->groups[g].prop, cx->groups[g].key, cx->groups[g].cls);
        put_members(cx, b, g, "client: rt.BaseClient", NULL, "client");
        sdkc_buf_puts(b, "\n");
    }
    sdkc_buf_puts(
        b, "/** The client: `new Client({ baseUrl })`, then `client.<group>.<operation>(input, "
           "options)`. */\nexport class Client extends rt.BaseClient {\n");
    put_members(cx, b, TS_ROOT, "options: rt.ClientOptions", "super(options, SCHEMES, ERRORS)",
                "this");
    return cx->oom ? SDKC_ERR_NOMEM : sdkc_buf_finish(b);
}

sdkc_status ts_emit_index(ts_ctx *cx, sdkc_buf *b)
{
    sdkc_kit_banner(b, cx->ir, "index.ts: the entry point");
    sdkc_buf_puts(b, "// Names exported here win over a contract type of the same name; every "
                     "contract type\n// is also under Types.\n");
    sdkc_buf_puts(b, "export * from './types.js';\nexport * as Types from './types.js';\n"
                     "export {\n  Client,\n");
    for (size_t g = 0; g < cx->ngroups; g++)
        sdkc_buf_printf(b, "  %s,\n", cx->groups[g].cls);
    for (size_t i = 0; i < cx->ir->nops; i++) {
        if (cx->ops[i].input && !cx->ops[i].variant_of)
            sdkc_buf_printf(b, "  type %s,\n", cx->ops[i].input);
        if (cx->ops[i].result)
            sdkc_buf_printf(b, "  type %s,\n", cx->ops[i].result);
        if (cx->ops[i].cursor)
            sdkc_buf_printf(b, "  type %s,\n", cx->ops[i].cursor);
    }
    sdkc_buf_puts(b, "} from './client.js';\n");
    if (cx->ntags) {
        sdkc_buf_puts(b, "export {\n");
        for (size_t i = 0; i < cx->ntags; i++)
            sdkc_buf_printf(b, "  %s,\n  is%s,\n", cx->tags[i].cls, cx->tags[i].cls);
        sdkc_buf_puts(b, "} from './errors.js';\n");
    }
    sdkc_buf_puts(
        b,
        "export {\n  ClientError,\n  isClientError,\n  StatusError,\n  isStatusError,\n"
        "  StreamFailureError,\n  isStreamFailureError,\n  DeclaredError,\n  hasTag,\n"
        "  Page,\n  CursorPage,\n  Stream,\n  SseParser,\n  DEFAULT_TIMEOUT,\n"
        "  DEFAULT_HEAD_TIMEOUT,\n  DEFAULT_MAX_RETRIES,\n  type Binary,\n  type ClientOptions,\n"
        "  type RequestOptions,\n  type Credential,\n  type ClientErrorReason,\n"
        "  type Transport,\n  type HeaderMap,\n  type SseEvent,\n  type ResponseInfo,\n"
        "} from './runtime.js';\n");
    return sdkc_buf_finish(b);
}

sdkc_status ts_emit_readme(ts_ctx *cx, sdkc_buf *b)
{
    const sdkc_ir *ir = cx->ir;
    const char *pkg = cx->opts->package ? cx->opts->package : "sdk";
    sdkc_buf_printf(
        b,
        "<!-- generated by sdkc %s from %s (sha256 %s). DO NOT EDIT: regenerate with "
        "`sdkc generate`. -->\n# %s\n\nA TypeScript client for %s %s, generated by sdkc. "
        "ESM, no runtime dependency beyond `fetch`.\nBuild with `npm run build` (tsc: "
        "`dist/*.js` and `.d.ts`). See sdkc's docs/ts-sdk.md.\n\n",
        SDKC_VERSION, sdkc_kit_source_name(ir, "(unknown)"),
        ir->source_sha256 ? ir->source_sha256 : "(unknown)", pkg, ir->title ? ir->title : "the API",
        ir->version ? ir->version : "");
    /* npm names the tarball after the name, without '@' and with '/' as '-', and the version */
    char *tarball =
        sdkc_arena_printf(cx->arena, "%s-%s.tgz", pkg[0] == '@' ? pkg + 1 : pkg, cx->version);
    if (!tarball)
        return SDKC_ERR_NOMEM;
    char *slash = strchr(tarball, '/');
    if (slash)
        *slash = '-';
    sdkc_buf_printf(
        b,
        "## Depending on it\n\nThis folder is the npm package `%s` %s, built into `dist/` by "
        "TypeScript %s (a devDependency) when it is packed:\n\n"
        "```sh\nnpm install   # once: TypeScript\nnpm pack      # runs tsc (prepack), writes "
        "%s\n```\n\n"
        "In the project that uses it, install the tarball (its `package.json` then records the "
        "path, `file:...`):\n\n```sh\nnpm install /path/to/%s\n```\n\n"
        "Or link this folder once it is built (`npm run build`): `npm install "
        "/path/to/this/folder`; or publish it (`npm publish`). Then import it (ESM, with its "
        "declarations):\n\n",
        pkg, cx->version, TS_TYPESCRIPT_VERSION, tarball, tarball);
    sdkc_buf_printf(b,
                    "```ts\nimport { Client, isClientError } from '%s';\n\n"
                    "const client = new Client({ baseUrl: 'http://127.0.0.1:4096' });\n```\n\n",
                    pkg);
    sdkc_buf_puts(b, "| Method | HTTP | Operation | Result |\n|---|---|---|---|\n");
    for (size_t i = 0; i < ir->nops; i++) {
        const ts_op *o = &cx->ops[i];
        const sdkc_operation *op = o->op;
        sdkc_buf_printf(b, "| `%s.%s` | %s `%s` | %s | ", o->group, o->method, op->method, op->path,
                        op->id);
        sdkc_buf tmp = SDKC_BUF_INIT;
        put_result(cx, &tmp, o);
        for (const char *p = tmp.data; p && *p; p++) {
            if (*p == '|')
                sdkc_buf_puts(b, "\\|");
            else
                sdkc_buf_putc(b, *p);
        }
        b->oom = b->oom || tmp.oom;
        sdkc_buf_cleanup(&tmp);
        sdkc_buf_puts(b, " |\n");
    }
    return sdkc_buf_finish(b);
}
