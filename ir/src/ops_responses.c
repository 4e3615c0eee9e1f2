/* ops_responses.c - request bodies and responses: media types, the main success, the other
 * successes, the errors by status with their tags, `{data: X}` unwrapping. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops_internal.h"

/* ---- bodies and responses ---- */

sdkc_encoding sdkc_ops_encoding_of(const char *ct)
{
    if (!ct)
        return SDKC_ENC_NONE;
    if (strncmp(ct, "text/event-stream", 17) == 0)
        return SDKC_ENC_SSE;
    if (strstr(ct, "json"))
        return SDKC_ENC_JSON;
    if (strncmp(ct, "text/", 5) == 0)
        return SDKC_ENC_TEXT;
    return SDKC_ENC_BYTES;
}

bool sdkc_error_is_text(const sdkc_error_status *e)
{
    return e && e->content_type && sdkc_ops_encoding_of(e->content_type) != SDKC_ENC_JSON &&
           e->ntags == 0 && e->untagged && e->untagged->kind == SDKC_TYPE_STRING;
}

/* A schema with JSON structure or a non-string scalar: under a media range (star/star) it is
 * JSON, as a string or an untyped schema is bytes. */
static bool structured(const sdkc_type *t)
{
    while (t && t->kind == SDKC_TYPE_NULLABLE)
        t = t->u.nullable.inner;
    return t && t->kind != SDKC_TYPE_STRING && t->kind != SDKC_TYPE_ANY &&
           t->kind != SDKC_TYPE_NEVER && t->kind != SDKC_TYPE_NULL;
}

/* The preferred media type entry of a content map: a JSON type first, else the first listed;
 * a concrete type before a media range (a '*' in it), which is no Content-Type. */
const sdkc_pair *sdkc_ops_pick_content(const sdkc_node *content)
{
    if (!content || content->kind != SDKC_NODE_MAP || content->npairs == 0)
        return NULL;
    for (int pass = 0; pass < 4; pass++) {
        bool want_json = pass == 0 || pass == 2, want_concrete = pass < 2;
        for (size_t i = 0; i < content->npairs; i++) {
            const char *k = content->pairs[i].key->str;
            if (want_json && sdkc_ops_encoding_of(k) != SDKC_ENC_JSON)
                continue;
            if (want_concrete && strchr(k, '*'))
                continue;
            return &content->pairs[i];
        }
    }
    return &content->pairs[0];
}

/* The `encoding` map of a body media type. */
static void build_encodings(cctx *c, const sdkc_node *media, sdkc_body *b)
{
    const sdkc_node *enc = sdkc_node_get(media, "encoding");
    if (!enc || enc->kind != SDKC_NODE_MAP || enc->npairs == 0)
        return;
    sdkc_body_encoding *v = sdkc_cc_alloc(c, enc->npairs * sizeof *v);
    if (!v)
        return;
    size_t n = 0;
    for (size_t i = 0; i < enc->npairs; i++) {
        const sdkc_node *e = sdkc_cc_deref(c, enc->pairs[i].value);
        if (!e || e->kind != SDKC_NODE_MAP)
            continue;
        sdkc_body_encoding *d = &v[n++];
        d->property = sdkc_cc_strdup(c, enc->pairs[i].key->str);
        const char *ct = sdkc_cc_text(sdkc_node_get(e, "contentType"));
        d->content_type = ct ? sdkc_cc_strdup(c, ct) : NULL;
        const sdkc_node *style = sdkc_node_get(e, "style");
        d->style =
            style ? sdkc_ops_param_style(sdkc_cc_text(style), SDKC_PARAM_QUERY) : SDKC_STYLE_FORM;
        bool x = false;
        bool has_explode = sdkc_node_bool(sdkc_node_get(e, "explode"), &x);
        d->explode = has_explode ? x : d->style == SDKC_STYLE_FORM;
        d->has_style = style != NULL || has_explode;
        if (sdkc_node_bool(sdkc_node_get(e, "allowReserved"), &x))
            d->allow_reserved = x;
    }
    b->encodings = v;
    b->nencodings = n;
}

void sdkc_ops_build_body(cctx *c, const raw_op *r, sdkc_operation *op)
{
    const sdkc_node *rb = sdkc_node_get(r->node, "requestBody");
    if (!rb)
        return;
    rb = sdkc_cc_deref(c, rb);
    if (!rb)
        return;
    const sdkc_node *content = sdkc_node_get(rb, "content");
    const sdkc_pair *pc = sdkc_ops_pick_content(content);
    if (!pc) {
        sdkc_cc_warn(c, rb, "request body without content; ignored");
        return;
    }
    sdkc_body *b = sdkc_cc_alloc(c, sizeof *b);
    if (!b)
        return;
    b->content_type = sdkc_cc_strdup(c, pc->key->str);
    const sdkc_node *schema = sdkc_node_get(pc->value, "schema");
    const char *o =
        sdkc_cc_ptr_child(c, sdkc_cc_printf(c, "%s/requestBody/content", nz(r->ptr)), pc->key->str);
    b->type = schema ? sdkc_schema_type(c, schema, sdkc_ops_op_type_name(c, r, "Body"),
                                        sdkc_cc_ptr_child(c, o, "schema"))
                     : sdkc_schema_any(c, pc->value, NULL, NULL);
    bool req = false;
    sdkc_node_bool(sdkc_node_get(rb, "required"), &req);
    b->required = req;
    b->docs = sdkc_cc_docs(c, rb);
    build_encodings(c, pc->value, b);
    /* Other media types with the same schema (the same node or the same $ref) can be chosen by
       the caller; one with a schema of its own cannot be represented beside the default. */
    const char **alts = sdkc_cc_alloc(c, (content->npairs + 1) * sizeof *alts);
    size_t nalt = 0;
    const char *ref = sdkc_cc_text(sdkc_node_get(schema, "$ref"));
    for (size_t i = 0; alts && i < content->npairs; i++) {
        const sdkc_pair *q = &content->pairs[i];
        if (q == pc || strchr(q->key->str, '*'))
            continue; /* a media range is not a type to send */
        const sdkc_node *qs = sdkc_node_get(q->value, "schema");
        const char *qref = sdkc_cc_text(sdkc_node_get(qs, "$ref"));
        if (qs == schema || (ref && qref && strcmp(ref, qref) == 0))
            alts[nalt++] = sdkc_cc_strdup(c, q->key->str);
        else
            sdkc_cc_warn(c, q->key,
                         "request body media type '%s' has a schema of its own; only '%s' is "
                         "generated",
                         q->key->str, pc->key->str);
    }
    b->alternatives = alts;
    b->nalternatives = nalt;
    op->body = b;
}

/* A response key: an exact status (100..599), a range `1XX`..`5XX` (1..5), `default`
 * (SDKC_STATUS_DEFAULT), or -1 for anything else. */
int sdkc_ops_status_of(const char *key)
{
    if (strcmp(key, "default") == 0)
        return SDKC_STATUS_DEFAULT;
    if (strlen(key) != 3 || key[0] < '1' || key[0] > '5')
        return -1;
    if ((key[1] == 'X' || key[1] == 'x') && (key[2] == 'X' || key[2] == 'x'))
        return key[0] - '0';
    int v = 0;
    for (int i = 0; i < 3; i++) {
        if (key[i] < '0' || key[i] > '9')
            return -1;
        v = v * 10 + (key[i] - '0');
    }
    return v >= 100 && v <= 599 ? v : -1;
}

static const char *error_tag(const sdkc_type *t)
{
    const sdkc_field *f = sdkc_type_field(t, "_tag");
    if (!f || !f->type)
        return NULL;
    if (f->type->kind == SDKC_TYPE_LITERAL && f->type->u.literal.kind == SDKC_LIT_STRING)
        return f->type->u.literal.text;
    return NULL;
}

static int cmp_tag(const void *a, const void *b)
{
    return strcmp(((const sdkc_error_tag *)a)->tag, ((const sdkc_error_tag *)b)->tag);
}

/* Unions of error bodies are taken apart, nested ones too, down to a small depth: a union that
 * contains itself (through references) ends there, as one body. */
static void collect_errors(cctx *c, sdkc_vec *out, const sdkc_type *t, int depth)
{
    if (!t)
        return;
    if (t->kind == SDKC_TYPE_UNION && depth < 8) {
        for (size_t i = 0; i < t->u.union_.nvariants; i++)
            collect_errors(c, out, t->u.union_.variants[i].type, depth + 1);
        return;
    }
    if (!sdkc_vec_push(out, (void *)t))
        c->nomem = true;
}

const char *sdkc_ops_media_ptr(cctx *c, const raw_op *r, const char *key, const char *ct)
{
    const char *resp = sdkc_cc_ptr_child(c, sdkc_cc_printf(c, "%s/responses", nz(r->ptr)), key);
    return sdkc_cc_ptr_child(c, sdkc_cc_printf(c, "%s/content", nz(resp)), ct);
}

static void build_error(cctx *c, const raw_op *r, int status, const char *key,
                        const sdkc_node *resp, sdkc_error_status *e)
{
    e->status = status;
    sdkc_ops_response_info(c, resp, &e->response);
    const sdkc_pair *pc = sdkc_ops_pick_content(sdkc_node_get(resp, "content"));
    if (!pc)
        return;
    e->content_type = sdkc_cc_strdup(c, pc->key->str);
    const sdkc_node *schema = sdkc_node_get(pc->value, "schema");
    /* A non-JSON body (text/plain, text/html, XML, ...) is the server's text, whatever its
       schema says; under a media range (star/star) a structured schema stays JSON, as for
       successes. */
    bool text = sdkc_ops_encoding_of(pc->key->str) != SDKC_ENC_JSON;
    if (text && (!schema || !strchr(pc->key->str, '*'))) {
        e->untagged = sdkc_schema_plain_string(c, pc->value);
        return;
    }
    if (!schema)
        return;
    const char *ctx = sdkc_ops_op_type_name(c, r, "");
    if (status == SDKC_STATUS_DEFAULT)
        ctx = sdkc_cc_printf(c, "%sErrorDefault", ctx ? ctx : "");
    else
        ctx = sdkc_cc_printf(c, "%sError%s", ctx ? ctx : "", key);
    const sdkc_node *declared = sdkc_node_get(sdkc_node_get(r->node, "responses"), key);
    ctx = sdkc_ops_shared_context(c, sdkc_ops_component_name(c, declared, "responses"), "Response",
                                  ctx);
    const char *o = sdkc_cc_printf(c, "%s/schema", nz(sdkc_ops_media_ptr(c, r, key, pc->key->str)));
    /* a list of alternatives is taken apart here rather than made a union type */
    const sdkc_node *list = sdkc_node_get(schema, "anyOf");
    const char *kw = "anyOf";
    if (!list)
        list = sdkc_node_get(schema, kw = "oneOf");
    sdkc_vec found = {0};
    if (list && list->kind == SDKC_NODE_SEQ) {
        for (size_t i = 0; i < list->nitems; i++)
            collect_errors(c, &found,
                           sdkc_schema_type(c, list->items[i],
                                            sdkc_cc_printf(c, "%s_%zu", nz(ctx), i + 1),
                                            sdkc_cc_printf(c, "%s/%s/%zu", nz(o), kw, i)),
                           0);
    } else {
        collect_errors(c, &found, sdkc_schema_type(c, schema, ctx, o), 0);
    }
    sdkc_error_tag *tags = sdkc_cc_alloc(c, (found.len ? found.len : 1) * sizeof *tags);
    for (size_t i = 0; tags && i < found.len; i++) {
        const sdkc_type *t = found.items[i];
        const char *tag = error_tag(t);
        if (!tag) {
            if (!e->untagged)
                e->untagged = t;
            continue;
        }
        bool dup = false;
        for (size_t j = 0; j < e->ntags && !dup; j++)
            dup = strcmp(tags[j].tag, tag) == 0;
        if (!dup) {
            tags[e->ntags].tag = tag;
            tags[e->ntags].type = t;
            e->ntags++;
        }
    }
    sdkc_vec_cleanup(&found);
    if (!tags)
        return;
    qsort(tags, e->ntags, sizeof *tags, cmp_tag);
    e->tags = tags;
    if (text && !e->ntags && !structured(e->untagged) &&
        (!e->untagged || e->untagged->kind != SDKC_TYPE_STRING))
        e->untagged = sdkc_schema_plain_string(c, pc->value);
}

/* Exact statuses, then ranges, then default: the order a response status is matched in. */
static int status_rank(int key)
{
    return key >= 100 ? 0 : key > 0 ? 1 : 2;
}

static int cmp_status_key(int x, int y)
{
    if (status_rank(x) != status_rank(y))
        return status_rank(x) - status_rank(y);
    return x - y;
}

static int cmp_err(const void *a, const void *b)
{
    return cmp_status_key(((const sdkc_error_status *)a)->status,
                          ((const sdkc_error_status *)b)->status);
}

/* A body that is an object whose only field is a required `data`: the client returns that (the
 * main success's once pagination is decided: a page is returned whole). */
static void unwrap_data(sdkc_success *s)
{
    const sdkc_type *bt = s->type;
    if (bt && bt->kind == SDKC_TYPE_OBJECT && bt->u.object.nfields == 1 &&
        strcmp(bt->u.object.fields[0].wire_name, "data") == 0 && bt->u.object.fields[0].required) {
        s->unwrap = "data";
        s->result = bt->u.object.fields[0].type;
    }
}

/* A declared success that is not the operation's main one (another 2xx, or 2XX besides an exact
 * 2xx): its own encoding and type, decoded as the main one would be (`data` unwrapped). */
static void build_more_success(cctx *c, const raw_op *r, int st, const char *key,
                               const sdkc_node *resp, sdkc_success *out)
{
    out->status = st;
    sdkc_ops_response_info(c, resp, &out->response);
    const sdkc_pair *pc = sdkc_ops_pick_content(sdkc_node_get(resp, "content"));
    if (!pc || st == 204) {
        out->encoding = SDKC_ENC_NONE;
        return;
    }
    out->content_type = sdkc_cc_strdup(c, pc->key->str);
    out->encoding = sdkc_ops_encoding_of(pc->key->str);
    if (out->encoding == SDKC_ENC_SSE) {
        /* a stream answered at one status and a value at another cannot be one call */
        sdkc_cc_warn(c, pc->key,
                     "operation '%s': response '%s' is a stream besides the main success; it is "
                     "returned as raw text",
                     r->id, key);
        out->encoding = SDKC_ENC_TEXT;
    }
    const sdkc_node *schema = sdkc_node_get(pc->value, "schema");
    char suffix[24];
    snprintf(suffix, sizeof suffix, "Response%d", st);
    const sdkc_node *declared = sdkc_node_get(sdkc_node_get(r->node, "responses"), key);
    const char *ctx = sdkc_ops_shared_context(c, sdkc_ops_component_name(c, declared, "responses"),
                                              "Response", sdkc_ops_op_type_name(c, r, suffix));
    out->type =
        schema ? sdkc_schema_type(c, schema, ctx,
                                  sdkc_cc_printf(c, "%s/schema",
                                                 nz(sdkc_ops_media_ptr(c, r, key, pc->key->str))))
               : sdkc_schema_any(c, pc->value, NULL, NULL);
    out->result = out->type;
    if (out->encoding == SDKC_ENC_BYTES && strchr(pc->key->str, '*') && structured(out->type))
        out->encoding = SDKC_ENC_JSON;
    if (out->encoding == SDKC_ENC_JSON)
        unwrap_data(out);
}

/* A response picked by its status: the status (as sdkc_ops_status_of gives it), its key and its
 * object (references followed); resp NULL when none. */
typedef struct picked {
    int status;
    const char *key;
    const sdkc_node *resp;
} picked;

/* An operation's responses by what they are. */
typedef struct response_set {
    const sdkc_node *resps;
    sdkc_error_status *errs; /* built in contract order */
    size_t ne;
    size_t *succ; /* every declared 2xx (and 2XX), in contract order: indexes of resps' pairs */
    size_t ns;
    picked best;  /* the lowest 2xx */
    picked range; /* 2XX */
    picked dflt;  /* default */
} response_set;

/* Sort the responses; the errors (neither 2xx nor default) are built on the way. false when out
 * of memory. */
static bool sort_responses(cctx *c, const raw_op *r, response_set *set)
{
    const sdkc_node *resps = set->resps;
    set->errs = sdkc_cc_alloc(c, (resps->npairs + 1) * sizeof *set->errs);
    set->succ = sdkc_cc_alloc(c, (resps->npairs + 1) * sizeof *set->succ);
    if (!set->errs || !set->succ)
        return false;
    set->best.status = -1;
    for (size_t i = 0; i < resps->npairs; i++) {
        const char *key = resps->pairs[i].key->str;
        int st = sdkc_ops_status_of(key);
        if (st < 0) {
            if (!sdkc_ops_is_extension(key))
                sdkc_cc_warn(c, resps->pairs[i].key, "response '%s' ignored (not a status code)",
                             key);
            continue;
        }
        const sdkc_node *resp = sdkc_cc_deref(c, resps->pairs[i].value);
        if (!resp)
            continue;
        picked p = {st, key, resp};
        if (st >= 200 && st < 300) {
            if (set->best.status < 0 || st < set->best.status)
                set->best = p;
            set->succ[set->ns++] = i;
        } else if (st == 2) {
            set->range = p;
            set->succ[set->ns++] = i;
        } else if (st == SDKC_STATUS_DEFAULT) {
            set->dflt = p;
        } else {
            build_error(c, r, st, key, resp, &set->errs[set->ne++]);
        }
    }
    return true;
}

/* op->more_successes: the declared successes but the main one, exact statuses ascending, then
 * the range (the order a status is matched in). false when out of memory. */
static bool build_more_successes(cctx *c, const raw_op *r, sdkc_operation *op, response_set *set)
{
    const sdkc_node *resps = set->resps;
    size_t *succ = set->succ;
    sdkc_success *more = sdkc_cc_alloc(c, (set->ns - 1) * sizeof *more);
    if (!more)
        return false;
    for (size_t j = 1; j < set->ns; j++)
        for (size_t k = j;
             k > 0 && cmp_status_key(sdkc_ops_status_of(resps->pairs[succ[k]].key->str),
                                     sdkc_ops_status_of(resps->pairs[succ[k - 1]].key->str)) < 0;
             k--) {
            size_t t = succ[k];
            succ[k] = succ[k - 1];
            succ[k - 1] = t;
        }
    size_t nm = 0;
    for (size_t j = 0; j < set->ns; j++) {
        const char *key = resps->pairs[succ[j]].key->str;
        int st = sdkc_ops_status_of(key);
        if (st != set->best.status)
            build_more_success(c, r, st, key, sdkc_cc_deref(c, resps->pairs[succ[j]].value),
                               &more[nm++]);
    }
    op->more_successes = more;
    op->nmore_successes = nm;
    return true;
}

/* No 2xx and no default: a redirect is the answer (a download's location), so the lowest
 * declared 3xx becomes the main success rather than an error. */
static void redirect_success(cctx *c, const raw_op *r, response_set *set)
{
    sdkc_error_status *errs = set->errs;
    size_t ne = set->ne, low = ne;
    for (size_t i = 0; i < ne; i++)
        if (errs[i].status >= 300 && errs[i].status < 400 &&
            (low == ne || errs[i].status < errs[low].status))
            low = i;
    if (low == ne)
        return;
    set->best.status = errs[low].status;
    char key[8];
    set->best.key = sdkc_cc_strdup(c, sdkc_status_text(set->best.status, key, sizeof key));
    set->best.resp = sdkc_cc_deref(c, sdkc_node_get(set->resps, set->best.key));
    memmove(&errs[low], &errs[low + 1], (ne - low - 1) * sizeof *errs);
    set->ne--;
    sdkc_cc_warn(c, set->resps, "operation '%s' declares no 2xx response; its %d is the success",
                 r->id, set->best.status);
}

/* op->success (and op->stream, op->stream_variant) from the main success response. */
static void build_main_success(cctx *c, const raw_op *r, sdkc_operation *op, const picked *best,
                               const sdkc_node *resps)
{
    op->success.status = best->status;
    sdkc_ops_response_info(c, best->resp, &op->success.response);
    const sdkc_node *content = sdkc_node_get(best->resp, "content");
    const sdkc_pair *pc = sdkc_ops_pick_content(content);
    if (!pc || best->status == 204) {
        op->success.encoding = SDKC_ENC_NONE;
        return;
    }
    const char *ct = pc->key->str;
    op->success.content_type = sdkc_cc_strdup(c, ct);
    op->success.encoding = sdkc_ops_encoding_of(ct);
    if (op->success.encoding == SDKC_ENC_SSE) {
        op->stream = sdkc_ops_build_stream(c, r, pc->value, sdkc_ops_media_ptr(c, r, best->key, ct),
                                           &op->success.type);
        op->success.result = op->success.type;
        return;
    }
    const sdkc_node *schema = sdkc_node_get(pc->value, "schema");
    const char *ctx = sdkc_ops_shared_context(
        c, sdkc_ops_component_name(c, sdkc_node_get(resps, best->key), "responses"), "Response",
        sdkc_ops_op_type_name(c, r, "Response"));
    op->success.type =
        schema ? sdkc_schema_type(
                     c, schema, ctx,
                     sdkc_cc_printf(c, "%s/schema", nz(sdkc_ops_media_ptr(c, r, best->key, ct))))
               : sdkc_schema_any(c, pc->value, NULL, NULL);
    op->success.result = op->success.type;
    if (op->success.encoding == SDKC_ENC_BYTES && strchr(ct, '*') && structured(op->success.type))
        op->success.encoding = SDKC_ENC_JSON; /* asked for as application/json */
    if (op->success.encoding == SDKC_ENC_JSON)
        sdkc_ops_build_stream_variant(c, r, op, best->key, content);
}

/* op->success, op->more_successes and op->errors; the main success response object (NULL when
 * none). */
const sdkc_node *sdkc_ops_build_responses(cctx *c, const raw_op *r, sdkc_operation *op)
{
    response_set set = {0};
    set.resps = sdkc_node_get(r->node, "responses");
    if (!set.resps) {
        /* optional in 3.1, required in 3.0: either way no declared success type, no content,
           any status (success.status 0) */
        if (!c->oas31)
            sdkc_cc_warn(c, r->node,
                         "operation '%s' has no 'responses' (required in OpenAPI 3.0); treated as "
                         "no content with any status",
                         r->id);
        return NULL;
    }
    if (set.resps->kind != SDKC_NODE_MAP) {
        sdkc_cc_error(c, set.resps, "operation '%s': 'responses' must be a mapping", r->id);
        return NULL;
    }
    if (!sort_responses(c, r, &set))
        return NULL;
    /* the main success: the lowest 2xx, else 2XX, else `default` (OpenAPI: with no success
       declared, default describes it); otherwise default is the error for every other status.
       The other 2xx statuses (and 2XX besides an exact one) are successes too. */
    if (set.best.status < 0 && set.range.resp)
        set.best = set.range;
    if (set.ns > 1 && !build_more_successes(c, r, op, &set))
        return NULL;
    if (set.best.status < 0 && set.dflt.resp)
        set.best = set.dflt;
    else if (set.dflt.resp)
        build_error(c, r, SDKC_STATUS_DEFAULT, set.dflt.key, set.dflt.resp, &set.errs[set.ne++]);
    if (set.best.status < 0)
        redirect_success(c, r, &set);
    qsort(set.errs, set.ne, sizeof *set.errs, cmp_err);
    op->errors = set.errs;
    op->nerrors = set.ne;
    if (!set.best.resp) {
        sdkc_cc_warn(c, set.resps, "operation '%s' declares no 2xx response", r->id);
        return NULL;
    }
    build_main_success(c, r, op, &set.best, set.resps);
    return set.best.resp;
}

bool sdkc_ops_unwrap_data(cctx *c, sdkc_ir *ir)
{
    (void)ir;
    for (size_t i = 0; i < c->nop_sources; i++) {
        sdkc_operation *op = c->op_sources[i].op;
        if (op->success.encoding == SDKC_ENC_JSON && !op->pagination)
            unwrap_data(&op->success);
    }
    return true;
}
