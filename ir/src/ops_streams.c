/* ops_streams.c - SSE streams: the frame, item, cause and error schemas of x-effect-stream, a
 * stream offered beside JSON (a stream variant), and durable streams that a client can follow
 * from a sequence number (the `after` parameter, or --follow). */
#include <string.h>

#include "ops_internal.h"

/* The Effect HttpApi contract gives a Fail cause's `error` the schema `not: {}` (never) when the
 * stream declares no typed error, yet makes it required, so no Fail cause could ever decode:
 * the server does send one. Such an `error` is raw JSON instead, so that clients can read it. */
static void loosen_fail_errors(cctx *c, const sdkc_node *cs, const sdkc_type *cause)
{
    const sdkc_type *t = sdkc_type_strip_nullable(cause);
    if (t && t->kind == SDKC_TYPE_ARRAY)
        t = sdkc_type_strip_nullable(t->u.array.items);
    size_t n = t && t->kind == SDKC_TYPE_UNION ? t->u.union_.nvariants : 1;
    for (size_t i = 0; t && i < n; i++) {
        const sdkc_type *v =
            t->kind == SDKC_TYPE_UNION ? sdkc_type_strip_nullable(t->u.union_.variants[i].type) : t;
        const sdkc_field *f = sdkc_type_field(v, "error");
        if (f && f->type && f->type->kind == SDKC_TYPE_NEVER) {
            sdkc_type *any = sdkc_schema_any(c, cs, f->type->origin, NULL);
            if (any)
                sdkc_schema_retype_field(c, v, "error", any);
        }
    }
}

/* The stream a text/event-stream media type describes; *type is the declared body type (the
 * frame, or the item when the schema is the item). */
sdkc_stream *sdkc_ops_build_stream(cctx *c, const raw_op *r, const sdkc_node *media, const char *mp,
                                   const sdkc_type **type)
{
    sdkc_stream *s = sdkc_cc_alloc(c, sizeof *s);
    if (!s)
        return NULL;
    s->encoding = SDKC_ENC_SSE;
    const sdkc_node *schema = sdkc_node_get(media, "schema");
    const sdkc_node *xs = sdkc_node_get(media, "x-effect-stream");
    if (xs) {
        const char *enc = sdkc_cc_text(sdkc_node_get(xs, "encoding"));
        if (enc && strcmp(enc, "sse") != 0)
            sdkc_cc_warn(c, xs, "x-effect-stream encoding '%s' treated as sse", enc);
        s->frame = schema ? sdkc_schema_type(c, schema, sdkc_ops_op_type_name(c, r, "Frame"),
                                             sdkc_cc_printf(c, "%s/schema", nz(mp)))
                          : sdkc_schema_any(c, media, NULL, NULL);
        const sdkc_field *data = sdkc_type_field(s->frame, "data");
        if (data && data->type && data->type->kind == SDKC_TYPE_JSON_STRING) {
            s->item = data->type->u.json_string.content;
            s->item_encoded = true;
        } else if (data) {
            s->item = data->type;
        } else {
            sdkc_cc_warn(c, schema ? schema : media,
                         "stream frame schema has no 'data' field; the frame is the item");
            s->item = s->frame;
        }
        const char *fe = sdkc_cc_text(sdkc_node_get(xs, "failureEvent"));
        s->failure_event = fe ? sdkc_cc_strdup(c, fe) : NULL;
        const sdkc_node *cs = sdkc_node_get(xs, "causeSchema");
        if (cs) {
            s->cause =
                sdkc_schema_type(c, cs, sdkc_ops_op_type_name(c, r, "Cause"),
                                 sdkc_cc_printf(c, "%s/x-effect-stream/causeSchema", nz(mp)));
            loosen_fail_errors(c, cs, s->cause);
        }
        const sdkc_node *es = sdkc_node_get(xs, "errorSchema");
        if (es)
            s->error =
                sdkc_schema_type(c, es, sdkc_ops_op_type_name(c, r, "StreamError"),
                                 sdkc_cc_printf(c, "%s/x-effect-stream/errorSchema", nz(mp)));
        *type = s->frame;
    } else {
        s->item = schema ? sdkc_schema_type(c, schema, sdkc_ops_op_type_name(c, r, "Event"),
                                            sdkc_cc_printf(c, "%s/schema", nz(mp)))
                         : sdkc_schema_any(c, media, NULL, NULL);
        *type = s->item;
    }
    return s;
}

/* ---- durable streams ---- */

static bool integer_type(const sdkc_type *t)
{
    t = sdkc_type_strip_nullable(t);
    return t && t->kind == SDKC_TYPE_INTEGER;
}

/* The integer field at path (wire names) in object t. */
static bool int_at(const sdkc_type *t, const char *const *path, size_t depth)
{
    for (size_t i = 0; i < depth; i++) {
        const sdkc_field *f = sdkc_type_field(t, path[i]);
        if (!f)
            return false;
        t = f->type;
    }
    return integer_type(t);
}

/* The sequence path in one object: a field `seq`/`sequence`, else such a field of an object
 * field (the first in contract order). */
static size_t find_sequence(const sdkc_type *t, const char **path)
{
    static const char *const names[] = {"seq", "sequence"};
    t = sdkc_type_strip_nullable(t);
    if (!t || t->kind != SDKC_TYPE_OBJECT)
        return 0;
    for (size_t n = 0; n < 2; n++)
        if (int_at(t, &names[n], 1)) {
            path[0] = names[n];
            return 1;
        }
    for (size_t i = 0; i < t->u.object.nfields; i++) {
        const sdkc_field *f = &t->u.object.fields[i];
        for (size_t n = 0; n < 2; n++) {
            const char *two[2] = {f->wire_name, names[n]};
            if (int_at(t, two, 2)) {
                path[0] = f->wire_name;
                path[1] = names[n];
                return 2;
            }
        }
    }
    return 0;
}

/* Whether every object the item can be (itself, or each variant of a union) has an integer at
 * path. */
static bool item_has(const sdkc_type *item, const char *const *path, size_t depth)
{
    item = sdkc_type_strip_nullable(item);
    if (!item)
        return false;
    if (item->kind != SDKC_TYPE_UNION)
        return int_at(item, path, depth);
    if (!item->u.union_.nvariants)
        return false;
    for (size_t i = 0; i < item->u.union_.nvariants; i++)
        if (!int_at(item->u.union_.variants[i].type, path, depth))
            return false;
    return true;
}

/* The query parameter name when it can carry a sequence: an integer or a plain string. */
static const sdkc_param *after_param(const sdkc_operation *op, const char *name)
{
    const sdkc_param *p = sdkc_op_query_param(op, name);
    const sdkc_type *t = p ? sdkc_type_strip_nullable(p->type) : NULL;
    if (t && (t->kind == SDKC_TYPE_INTEGER || (t->kind == SDKC_TYPE_STRING && !t->u.str.brand)))
        return p;
    return NULL;
}

static void set_follow(cctx *c, sdkc_operation *op, const char **path, size_t depth,
                       const sdkc_param *after, bool from_option)
{
    sdkc_follow *f = sdkc_cc_alloc(c, sizeof *f);
    const char **names = sdkc_cc_alloc(c, depth * sizeof *names);
    if (!f || !names)
        return;
    for (size_t i = 0; i < depth; i++)
        names[i] = sdkc_cc_strdup(c, path[i]);
    f->sequence = names;
    f->depth = depth;
    f->after_param = after;
    f->from_option = from_option;
    ((sdkc_stream *)op->stream)->follow = f;
}

/* The follow option for op ("OPID=..."), or NULL. */
static const char *follow_option(const cctx *c, const char *id)
{
    size_t n = strlen(id);
    for (size_t i = 0; c->opts && i < c->opts->nfollow; i++) {
        const char *o = c->opts->follow[i];
        if (o && strncmp(o, id, n) == 0 && o[n] == '=')
            return o + n + 1;
    }
    return NULL;
}

/* op->stream->follow: from the --follow option for op, else when the stream has an `after`
 * parameter and its items a sequence number. opnode is the operation object. */
static void detect_follow(cctx *c, const sdkc_node *opnode, sdkc_operation *op)
{
    if (!op->stream)
        return;
    const char *opt = follow_option(c, op->id);
    const sdkc_type *item = op->stream->item;
    if (opt && strcmp(opt, "off") == 0)
        return;
    if (opt) {
        /* PATH:PARAM, PATH dotted */
        const char *colon = strrchr(opt, ':');
        const char *path[8];
        size_t depth = 0;
        char buf[256];
        bool ok = colon && colon > opt && colon[1] && (size_t)(colon - opt) < sizeof buf;
        if (ok) {
            memcpy(buf, opt, (size_t)(colon - opt));
            buf[colon - opt] = '\0';
            for (char *p = buf, *dot; ok && p; p = dot ? dot + 1 : NULL) {
                dot = strchr(p, '.');
                if (dot)
                    *dot = '\0';
                ok = *p && depth < 8;
                if (ok)
                    path[depth++] = p;
            }
        }
        if (!ok) {
            sdkc_cc_error(c, opnode,
                          "--follow %s=%s: expected PATH:PARAM (PATH: dotted field names)", op->id,
                          opt);
            return;
        }
        const sdkc_param *after = after_param(op, colon + 1);
        if (!after) {
            sdkc_cc_error(c, opnode,
                          "--follow %s: '%s' is not an integer or string query parameter of the "
                          "operation",
                          op->id, colon + 1);
            return;
        }
        if (!item_has(item, path, depth)) {
            sdkc_cc_error(c, opnode,
                          "--follow %s: the stream item (every variant) has no integer at '%.*s'",
                          op->id, (int)(colon - opt), opt);
            return;
        }
        set_follow(c, op, path, depth, after, true);
        return;
    }
    const sdkc_param *after = after_param(op, "after");
    if (!after)
        return;
    const sdkc_type *first = sdkc_type_strip_nullable(item);
    if (first && first->kind == SDKC_TYPE_UNION && first->u.union_.nvariants)
        first = first->u.union_.variants[0].type;
    const char *path[2];
    size_t depth = find_sequence(first, path);
    if (depth && item_has(item, path, depth))
        set_follow(c, op, path, depth, after, false);
}

bool sdkc_ops_detect_follow(cctx *c, sdkc_ir *ir)
{
    for (size_t i = 0; i < c->nop_sources && !c->nomem; i++)
        detect_follow(c, c->op_sources[i].node, c->op_sources[i].op);
    for (size_t k = 0; c->opts && k < c->opts->nfollow; k++) {
        const char *o = c->opts->follow[k];
        const char *eq = o ? strchr(o, '=') : NULL;
        bool found = false;
        for (size_t i = 0; eq && i < ir->nops && !found; i++)
            found = ir->ops[i].stream && strlen(ir->ops[i].id) == (size_t)(eq - o) &&
                    strncmp(ir->ops[i].id, o, (size_t)(eq - o)) == 0;
        if (!found)
            sdkc_cc_warn(c, NULL, "--follow %s: no stream operation has that id", o ? o : "(null)");
    }
    return !c->nomem;
}

/* The body's boolean field `stream` (OpenAI's chat and completions, Anthropic's messages), which
 * selects the event stream of a response offered both ways; NULL without one. */
static const char *stream_flag(const sdkc_body *body)
{
    const sdkc_type *t = body ? body->type : NULL;
    if (!t || t->kind != SDKC_TYPE_OBJECT)
        return NULL;
    for (size_t i = 0; i < t->u.object.nfields; i++) {
        const sdkc_field *f = &t->u.object.fields[i];
        const sdkc_type *ft = f->type;
        while (ft && ft->kind == SDKC_TYPE_NULLABLE)
            ft = ft->u.nullable.inner;
        if (ft && ft->kind == SDKC_TYPE_BOOLEAN && !f->read_only &&
            strcmp(f->wire_name, "stream") == 0)
            return f->wire_name;
    }
    return NULL;
}

/* The same response also offered as text/event-stream (besides the JSON chosen as the main
 * success): the operation gets a stream variant whose items are the event schema. */
void sdkc_ops_build_stream_variant(cctx *c, const raw_op *r, sdkc_operation *op, const char *key,
                                   const sdkc_node *content)
{
    for (size_t i = 0; content && content->kind == SDKC_NODE_MAP && i < content->npairs; i++) {
        const char *ct = content->pairs[i].key->str;
        if (sdkc_ops_encoding_of(ct) != SDKC_ENC_SSE)
            continue;
        const sdkc_type *type = NULL;
        const sdkc_node *media = content->pairs[i].value;
        if (!sdkc_node_get(media, "schema"))
            sdkc_cc_warn(c, content->pairs[i].key,
                         "operation '%s': response '%s' %s declares no event schema; stream items "
                         "are raw JSON",
                         r->id, key, ct);
        op->stream_variant =
            sdkc_ops_build_stream(c, r, media, sdkc_ops_media_ptr(c, r, key, ct), &type);
        op->stream_flag = stream_flag(op->body);
        return;
    }
}
