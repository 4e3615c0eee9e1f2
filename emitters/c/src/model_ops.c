/* The per-operation model (cop) and the model's two passes: names reserved for the runtime's
 * spellings, each operation's C types (parameters, body, result, errors, page and stream items),
 * declared error entries and their accessors, and what a page or a result looks like in C. */
#include "emit_internal.h"
#include "sdkc/naming.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The items array of a page body in C: the body itself (an array), or one of its fields. */
static bool page_items_ok(const cop *o, const sdkc_pagination *pg)
{
    if (!pg->items_field)
        return !strcmp(o->result->jk, "SDKRT_JK_ARRAY") && o->result->inner == o->item;
    if (strchr(pg->items_field, '.')) /* nested: not reachable through one member */
        return false;
    const cfield *items = emit_find_field(o->page, pg->items_field);
    return items && items->type->inner == o->item && !strcmp(items->type->jk, "SDKRT_JK_ARRAY") &&
           !items->boxed;
}

bool emit_page_cursor_object(const cop *o)
{
    return o->op->pagination && o->op->pagination->style == SDKC_PAGE_CURSOR_OBJECT;
}

/* Is the page projection usable (fields found as the IR says)? */
bool emit_page_ok(const cop *o)
{
    const sdkc_pagination *pg = o->op->pagination;
    if (!pg || !o->page || !o->item || !o->result)
        return false;
    if (pg->style != SDKC_PAGE_CURSOR_OBJECT) /* the runtime reads the rest from the raw page */
        return o->op->success.encoding == SDKC_ENC_JSON && o->result->is_struct &&
               page_items_ok(o, pg);
    const cfield *items = emit_find_field(o->page, pg->items_field);
    const cfield *cur = emit_find_field(o->page, pg->cursor_field);
    if (!items || items->type->inner != o->item || strcmp(items->type->jk, "SDKRT_JK_ARRAY") ||
        !cur || strcmp(cur->type->jk, "SDKRT_JK_OBJECT") || cur->boxed)
        return false;
    const cfield *next = emit_find_field(cur->type, pg->next_field);
    if (!next || strcmp(next->type->jk, "SDKRT_JK_STRING") || next->type->is_brand)
        return false;
    if (pg->previous_field) {
        const cfield *prev = emit_find_field(cur->type, pg->previous_field);
        if (!prev || strcmp(prev->type->jk, "SDKRT_JK_STRING") || prev->type->is_brand)
            return false;
    }
    return pg->cursor_param != NULL;
}

/* A continuation sends the path parameters and the opaque cursor only: the cursor stands for
 * the query that made it (a server may refuse a cursor combined with, say, an order). The path
 * parameters' texts travel in a page's cursors. */
bool emit_is_ctx_param(const sdkc_operation *op, const sdkc_param *p)
{
    (void)op;
    return p->in == SDKC_PARAM_PATH;
}

size_t emit_npath_params(const sdkc_operation *op)
{
    size_t n = 0;
    for (size_t i = 0; i < op->nparams; i++)
        n += emit_is_ctx_param(op, &op->params[i]);
    return n;
}

const char *emit_out_param(emit_ctx *cx, const cop *o)
{
    const sdkc_operation *op = o->op;
    if (o->several && !o->several_shared)
        return sdkc_arena_printf(cx->arena, "%s_%s_response **out", cx->prefix, o->name);
    if (op->pagination && emit_page_ok(o))
        return sdkc_arena_printf(cx->arena, "%s_%s_page **out", cx->prefix, o->name);
    switch (op->success.encoding) {
    case SDKC_ENC_JSON:
        if (!o->result || !o->result->stores)
            return NULL;
        if (o->result->is_struct)
            return sdkc_arena_printf(cx->arena, "%s **out", o->result->cdecl);
        return sdkc_arena_printf(cx->arena, "%sout", emit_ptr_decl(cx, o->result->cdecl));
    case SDKC_ENC_BYTES:
    case SDKC_ENC_TEXT:
        return sdkc_arena_printf(cx->arena, "%s_bytes **out", cx->prefix);
    default:
        return NULL;
    }
}

/* The PREFIX_<op>_response member of success k (0: op->success, k: more_successes[k - 1]), or
 * NULL when that success gives nothing ("status_201", "status_2xx"). */
const char *emit_success_member(emit_ctx *cx, const cop *o, size_t k)
{
    const sdkc_success *s = k ? &o->op->more_successes[k - 1] : &o->op->success;
    const ctype *c = k ? o->more[k - 1] : o->result;
    bool bytes = s->encoding == SDKC_ENC_BYTES || s->encoding == SDKC_ENC_TEXT;
    if (!bytes && !(s->encoding == SDKC_ENC_JSON && c && c->stores))
        return NULL;
    char st[16];
    sdkc_status_text(s->status, st, sizeof st);
    for (char *p = st; *p; p++)
        *p = (char)(*p == 'X' ? 'x' : *p);
    return sdkc_arena_printf(cx->arena, "status_%s", st);
}

/* The C declaration of that member ("oc_reaction *status_201"), or NULL. */
const char *emit_success_member_decl(emit_ctx *cx, const cop *o, size_t k)
{
    const char *m = emit_success_member(cx, o, k);
    if (!m)
        return NULL;
    const sdkc_success *s = k ? &o->op->more_successes[k - 1] : &o->op->success;
    const ctype *c = k ? o->more[k - 1] : o->result;
    if (s->encoding != SDKC_ENC_JSON)
        return sdkc_arena_printf(cx->arena, "%s_bytes *%s", cx->prefix, m);
    if (c->is_struct)
        return sdkc_arena_printf(cx->arena, "%s *%s", c->cdecl, m);
    return sdkc_arena_printf(cx->arena, "%s%s", emit_ptr_decl(cx, c->cdecl), m);
}

/* The handle type of a stream operation: PREFIX_<op>_stream, or for a stream variant (whose
 * name already ends in _stream) PREFIX_<op>. */
const char *emit_stream_handle(emit_ctx *cx, const cop *o)
{
    return o->variant ? sdkc_arena_printf(cx->arena, "%s_%s", cx->prefix, o->name)
                      : sdkc_arena_printf(cx->arena, "%s_%s_stream", cx->prefix, o->name);
}

/* May the request be NULL (no required parameter, no required body)? */
/* A required body that the zero value satisfies: an object none of whose fields is required
 * (it is sent as {}). */
static bool zero_body_ok(const sdkc_body *body)
{
    const sdkc_type *t = body->type;
    if (!t || t->kind != SDKC_TYPE_OBJECT)
        return false;
    for (size_t i = 0; i < t->u.object.nfields; i++)
        if (t->u.object.fields[i].required)
            return false;
    return true;
}

bool emit_request_optional(const sdkc_operation *op)
{
    for (size_t i = 0; i < op->nparams; i++) {
        if (op->params[i].required)
            return false;
    }
    return !op->body || !op->body->required || zero_body_ok(op->body);
}

/* The DOMAIN errors an operation declares, in the order of cop.errs: each status (exact, ranges,
 * default) with its tags, then its body without a tag. NULL *tag for that untagged body. */
size_t emit_error_entries(const sdkc_operation *op)
{
    size_t n = 0;
    for (size_t k = 0; k < op->nerrors; k++)
        n += op->errors[k].ntags + (op->errors[k].untagged ? 1 : 0);
    return n;
}

void emit_error_entry(const sdkc_operation *op, size_t idx, int *status, const char **tag,
                      const sdkc_type **type)
{
    for (size_t k = 0; k < op->nerrors; k++) {
        const sdkc_error_status *e = &op->errors[k];
        size_t n = e->ntags + (e->untagged ? 1 : 0);
        if (idx >= n) {
            idx -= n;
            continue;
        }
        *status = e->status;
        *tag = idx < e->ntags ? e->tags[idx].tag : NULL;
        *type = idx < e->ntags ? e->tags[idx].type : e->untagged;
        return;
    }
}

bool emit_error_entry_text(const sdkc_operation *op, size_t idx)
{
    for (size_t k = 0; k < op->nerrors; k++) {
        const sdkc_error_status *e = &op->errors[k];
        size_t n = e->ntags + (e->untagged ? 1 : 0);
        if (idx < n)
            return idx >= e->ntags && sdkc_error_is_text(e);
        idx -= n;
    }
    return false;
}

/* The DOMAIN tag of an error entry: its `_tag`, or for a body without one its type's name (the
 * name its descriptor carries, which the runtime reports). */
const char *emit_entry_tag(const char *tag, const ctype *t)
{
    return tag ? tag : t->t->name ? t->t->name : t->base;
}

static int cmp_tagref(const void *a, const void *b)
{
    const tagref *x = a, *y = b;
    int c = strcmp(x->tag, y->tag);
    return c ? c : strcmp(x->type->base, y->type->base);
}

tagref *emit_collect_tags(emit_ctx *cx, cop *ops, size_t nops, size_t *n_out)
{
    size_t cap = 0, n = 0;
    for (size_t i = 0; i < nops; i++)
        cap += emit_error_entries(ops[i].op);
    tagref *t = calloc(cap ? cap : 1, sizeof *t);
    if (!t)
        return NULL;
    for (size_t i = 0; i < nops; i++) {
        for (size_t j = 0; j < emit_error_entries(ops[i].op); j++) {
            int status = 0;
            const char *tag = NULL;
            const sdkc_type *ty = NULL;
            emit_error_entry(ops[i].op, j, &status, &tag, &ty);
            tagref r = {emit_entry_tag(tag, ops[i].errs[j]), ops[i].errs[j], NULL};
            bool dup = false;
            for (size_t q = 0; q < n && !dup; q++)
                dup = !strcmp(t[q].tag, r.tag) && t[q].type == r.type;
            if (!dup)
                t[n++] = r;
        }
    }
    qsort(t, n, sizeof *t, cmp_tagref);
    /* Accessors are named by tag; when one tag has several payload types, also by type. They are
       named after every type, so a clash (a type ErrorError beside a tag Error, a tag Status and
       PREFIX_error_status) gives the accessor a _payload suffix. */
    for (size_t i = 0; i < n; i++) {
        size_t same = 0;
        for (size_t k = 0; k < n; k++)
            same += !strcmp(t[k].tag, t[i].tag);
        const char *s = sdkc_snake_case(cx->arena, t[i].tag);
        const char *want =
            same > 1 ? sdkc_arena_printf(cx->arena, "error_%s_as_%s", s ? s : "", t[i].type->base)
                     : sdkc_arena_printf(cx->arena, "error_%s", s ? s : "");
        const char *name = want ? emit_unique_with(cx, want, "_payload", NULL, NULL) : NULL;
        t[i].accessor = name ? sdkc_arena_printf(cx->arena, "%s_%s", cx->prefix, name) : NULL;
        if (!t[i].accessor) {
            free(t);
            return NULL;
        }
    }
    *n_out = n;
    return t;
}

/* The runtime's enumerations under this SDK's prefix. Kept in step with sdkrt/error.h and
 * sdkrt/client.h (tests/emitter/test_opencode.c fails when the runtime gains a reason). */
const char *const emit_runtime_reasons[] = {"NONE",
                                            "TRANSPORT",
                                            "TIMEOUT",
                                            "CANCELLED",
                                            "UNEXPECTED_STATUS",
                                            "UNSUPPORTED_CONTENT_TYPE",
                                            "MALFORMED_RESPONSE",
                                            "INVALID_ARGUMENT",
                                            "RESPONSE_TOO_LARGE",
                                            "EVENT_TOO_LARGE",
                                            "OUT_OF_MEMORY",
                                            NULL};

const char *const emit_runtime_auths[] = {"NONE", "BASIC", "BEARER", "API_KEY", NULL};

int emit_cmp_desc(const void *a, const void *b)
{
    const ctype *x = *(ctype *const *)a, *y = *(ctype *const *)b;
    if (x->is_struct != y->is_struct)
        return x->is_struct ? 1 : -1;
    return strcmp(x->base, y->base);
}

/* The C result a JSON success gives the caller, or NULL (nothing stored). */
static const ctype *json_out(const sdkc_success *s, const ctype *result)
{
    return s->encoding == SDKC_ENC_JSON && result && result->stores ? result : NULL;
}

/* Do two successes give the caller the same out parameter (nothing, bytes, one C type)? */
static bool out_kind_equal(const sdkc_success *a, const ctype *ra, const sdkc_success *b,
                           const ctype *rb)
{
    bool ba = a->encoding == SDKC_ENC_BYTES || a->encoding == SDKC_ENC_TEXT;
    bool bb = b->encoding == SDKC_ENC_BYTES || b->encoding == SDKC_ENC_TEXT;
    if (ba || bb)
        return ba && bb;
    return json_out(a, ra) == json_out(b, rb);
}

/* The JSON result type of each further success, and whether they all give the caller what the
 * main success gives (then the call keeps its out parameter and only says the status). */
static bool map_more_successes(emit_ctx *cx, cop *o)
{
    const sdkc_operation *op = o->op;
    if (!op->nmore_successes || op->pagination || op->stream)
        return true;
    o->more = sdkc_arena_alloc(cx->arena, op->nmore_successes * sizeof *o->more);
    if (!o->more)
        return false;
    o->several = true;
    o->several_shared = true;
    for (size_t k = 0; k < op->nmore_successes; k++) {
        const sdkc_success *m = &op->more_successes[k];
        char st[16];
        o->more[k] = NULL;
        if (m->encoding == SDKC_ENC_JSON && m->result) {
            o->more[k] =
                emit_map_type(cx, m->result,
                              sdkc_arena_printf(cx->arena, "%s_result_%s", o->name,
                                                sdkc_status_text(m->status, st, sizeof st)));
            if (!o->more[k])
                return false;
        }
        o->several_shared =
            o->several_shared && out_kind_equal(&op->success, o->result, m, o->more[k]);
    }
    return true;
}

static bool build_model(emit_ctx *cx, cop *ops, const emit_seed *seeds, size_t nseeds)
{
    const sdkc_ir *ir = cx->ir;
    static const char *const reserved[] = {"client",
                                           "client_options",
                                           "call_options",
                                           "error",
                                           "status",
                                           "bytes",
                                           "blob",
                                           "bytes_free",
                                           "client_new",
                                           "client_free",
                                           "cancel",
                                           "next",
                                           "global_init",
                                           "global_cleanup",
                                           "error_free",
                                           "error_clear",
                                           "error_is_domain",
                                           "reason",
                                           "reason_name",
                                           "auth_kind",
                                           "header",
                                           "credential",
                                           "transport",
                                           "transport_free",
                                           "curl_transport_new",
                                           "memory_transport_new",
                                           "memory_request",
                                           "memory_response",
                                           "memory_handler",
                                           "memory_response_set_status",
                                           "memory_response_add_header",
                                           "memory_response_add_chunk",
                                           "memory_response_end_with_error",
                                           "cancel_new",
                                           "cancel_trigger",
                                           "cancel_is_triggered",
                                           "cancel_reset",
                                           "cancel_free",
                                           "follow_options",
                                           "follow_kind",
                                           "retry_policy",
                                           "retry_info",
                                           "stream_kind",
                                           "loop",
                                           "loop_new",
                                           "loop_run",
                                           "loop_run_once",
                                           "loop_stop",
                                           "loop_free",
                                           "loop_timer",
                                           "loop_timer_start",
                                           "loop_timer_cancel",
                                           "async_stream",
                                           "async_stream_pause",
                                           "async_stream_resume",
                                           "async_stream_cancel",
                                           "stream_poison",
                                           "follow_event",
                                           "error_copy",
                                           "error_tag",
                                           "error_reason",
                                           "error_reason_name",
                                           "error_status",
                                           "error_message",
                                           "error_body",
                                           "types",
                                           "ops",
                                           "internal",
                                           "string",
                                           "int64",
                                           "double",
                                           "bool",
                                           "json"};
    for (size_t i = 0; i < sizeof reserved / sizeof *reserved; i++) {
        if (!emit_reserve(cx, reserved[i]))
            return false;
    }
    /* Fixed macros and constants, so that no enum or union constant takes their spelling. */
    static const char *const fixed[] = {"OK",
                                        "ERR",
                                        "NEXT_ERROR",
                                        "NEXT_END",
                                        "NEXT_ITEM",
                                        "CLIENT_OPTIONS_INIT",
                                        "CALL_OPTIONS_INIT",
                                        "FOLLOW_OPTIONS_INIT",
                                        "FOLLOW_ITEM",
                                        "FOLLOW_POISON",
                                        "FOLLOW_RECONNECT",
                                        "STREAM_ITEM",
                                        "STREAM_POISON",
                                        "BLOB_INIT",
                                        "RETRY_POLICY_INIT",
                                        "IDEMPOTENCY_AUTO",
                                        "DEFAULT_BASE_URL",
                                        "API_TITLE",
                                        "API_VERSION",
                                        "H",
                                        "TYPES_H",
                                        "OPS_H",
                                        "INTERNAL_H",
                                        "INTERNAL"};
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++) {
        if (!emit_reserve(cx, sdkc_arena_printf(cx->arena, "#%s_%s", cx->upper, fixed[i])))
            return false;
    }
    for (size_t i = 0; emit_runtime_reasons[i]; i++) {
        if (!emit_reserve(cx, sdkc_arena_printf(cx->arena, "#%s_REASON_%s", cx->upper,
                                                emit_runtime_reasons[i])))
            return false;
    }
    for (size_t i = 0; emit_runtime_auths[i]; i++) {
        if (!emit_reserve(
                cx, sdkc_arena_printf(cx->arena, "#%s_AUTH_%s", cx->upper, emit_runtime_auths[i])))
            return false;
    }
    /* the names each operation derives from its own; several successes add its _response, a
       stream variant the names of "<op>_stream" (reserved here, so that it can take them) */
    static const char *const op_suffixes[] = {
        "_request",    "_page",         "_cursor",      "_iter",       "_stream",
        "_continue",   "_open",         "_next",        "_close",      "_failure",
        "_page_free",  "_cursor_free",  "_cursor_dup",  "_iter_new",   "_iter_next",
        "_iter_free",  "_cursor_value", "_cursor_new",  "_follower",   "_follow_event",
        "_follow_new", "_follow_next",  "_follow_free", "_next_event", "_stream_event",
        "_async",      "_done",         "_page_async",  "_page_done",  "_continue_async",
        "_start",      "_handlers",     "_follow_start"};
    static const char *const several_suffixes[] = {"_response", "_response_free"};
    static const char *const variant_suffixes[] = {
        "_stream_open",       "_stream_next",        "_stream_next_event",  "_stream_close",
        "_stream_failure",    "_stream_request",     "_stream_follower",    "_stream_follow_event",
        "_stream_follow_new", "_stream_follow_next", "_stream_follow_free", "_stream_start",
        "_stream_handlers",   "_stream_follow_start"};
    enum { NSUFFIXES = sizeof op_suffixes / sizeof *op_suffixes };
    enum { NSEVERAL = sizeof several_suffixes / sizeof *several_suffixes };
    enum { NVARIANT = sizeof variant_suffixes / sizeof *variant_suffixes };
    for (size_t i = 0; i < ir->nops; i++) {
        ops[i].op = &ir->ops[i];
        /* a stream variant (sdkc_kit_expand_ops puts it after its operation) takes the name its
           operation reserved with "_stream", and shares its request type */
        if (i > 0 && ir->ops[i].stream && ir->ops[i].stream == ir->ops[i - 1].stream_variant) {
            ops[i].variant = true;
            ops[i].name = sdkc_arena_printf(cx->arena, "%s_stream", ops[i - 1].name);
        } else {
            const char *derived[NSUFFIXES + NSEVERAL + NVARIANT + 1];
            size_t n = 0;
            for (size_t k = 0; k < NSUFFIXES; k++)
                derived[n++] = op_suffixes[k];
            for (size_t k = 0; ir->ops[i].nmore_successes && k < NSEVERAL; k++)
                derived[n++] = several_suffixes[k];
            for (size_t k = 0; ir->ops[i].stream_variant && k < NVARIANT; k++)
                derived[n++] = variant_suffixes[k];
            derived[n] = NULL;
            ops[i].name = emit_unique_with(cx, ir->ops[i].safe_name, "_op", derived, NULL);
        }
        if (!ops[i].name)
            return false;
    }
    cx->seeding = true;
    for (size_t i = 0; i < nseeds; i++) {
        if (!emit_map_type(cx, seeds[i].type, seeds[i].want))
            return false;
    }
    cx->seeding = false;
    for (size_t i = 0; i < ir->nops; i++) {
        cop *o = &ops[i];
        const sdkc_operation *op = o->op;
        o->has_request = op->nparams > 0 || op->body != NULL;
        if (op->nparams) {
            const char **safe = sdkc_arena_alloc(cx->arena, op->nparams * sizeof *safe);
            bool *opt = sdkc_arena_alloc(cx->arena, op->nparams * sizeof *opt);
            bool *nul = sdkc_arena_alloc(cx->arena, op->nparams * sizeof *nul);
            if (!safe || !opt || !nul)
                return false;
            for (size_t k = 0; k < op->nparams; k++) {
                safe[k] = op->params[k].safe_name;
                opt[k] = !op->params[k].required;
                nul[k] = false;
            }
            static const char *const taken[] = {"body", "has_body", "body_media_type", NULL};
            o->pnames = emit_member_names(cx, op->nparams, safe, opt, nul, taken);
            if (!o->pnames)
                return false;
        }
        o->params =
            op->nparams ? sdkc_arena_alloc(cx->arena, op->nparams * sizeof *o->params) : NULL;
        if (op->nparams && !o->params)
            return false;
        for (size_t k = 0; k < op->nparams; k++) {
            o->params[k] = emit_map_type(
                cx, op->params[k].type,
                sdkc_arena_printf(cx->arena, "%s_%s", o->name, op->params[k].safe_name));
            if (!o->params[k])
                return false;
        }
        if (op->body) {
            o->body =
                emit_map_type(cx, op->body->type, sdkc_arena_printf(cx->arena, "%s_body", o->name));
            if (!o->body)
                return false;
            sdkc_kit_media mk = op->body->content_type ? sdkc_kit_media_of(op->body->content_type)
                                                       : SDKC_KIT_MEDIA_JSON;
            o->blob_body = mk == SDKC_KIT_MEDIA_OTHER && sdkc_kit_is_binary(op->body->type);
            if (mk == SDKC_KIT_MEDIA_MULTIPART && o->body->nfields &&
                !strcmp(o->body->jk, "SDKRT_JK_OBJECT")) {
                o->files = sdkc_arena_alloc(cx->arena, o->body->nfields * sizeof *o->files);
                if (!o->files)
                    return false;
                for (size_t k = 0; k < o->body->nfields; k++) {
                    const cfield *f = &o->body->fields[k];
                    if (f->type->stores && !f->boxed && sdkc_kit_is_binary(f->ir_type))
                        o->files[o->nfiles++] = f;
                }
            }
        }
        if (op->success.encoding == SDKC_ENC_JSON && op->success.result) {
            o->result = emit_map_type(cx, op->success.result,
                                      sdkc_arena_printf(cx->arena, "%s_result", o->name));
            if (!o->result)
                return false;
        }
        if (!map_more_successes(cx, o))
            return false;
        size_t nerr = emit_error_entries(op);
        o->errs = nerr ? sdkc_arena_alloc(cx->arena, nerr * sizeof *o->errs) : NULL;
        if (nerr && !o->errs)
            return false;
        for (size_t j = 0; j < nerr; j++) {
            int status = 0;
            const char *tag = NULL;
            const sdkc_type *ty = NULL;
            char st[16];
            emit_error_entry(op, j, &status, &tag, &ty);
            const char *ctx = sdkc_arena_printf(cx->arena, "%s_error_%s", o->name,
                                                sdkc_status_text(status, st, sizeof st));
            o->errs[j] = emit_map_type(cx, ty, ctx ? sdkc_snake_case(cx->arena, ctx) : NULL);
            if (!o->errs[j])
                return false;
        }
        if (op->pagination) {
            o->item = emit_map_type(cx, op->pagination->item,
                                    sdkc_arena_printf(cx->arena, "%s_item", o->name));
            o->page = o->result;
            if (!o->item)
                return false;
        }
        if (op->stream && op->stream->item) {
            o->item = emit_map_type(cx, op->stream->item,
                                    sdkc_arena_printf(cx->arena, "%s_item", o->name));
            if (!o->item)
                return false;
            if (op->stream->cause) {
                o->cause = emit_map_type(cx, op->stream->cause,
                                         sdkc_arena_printf(cx->arena, "%s_cause", o->name));
                if (!o->cause)
                    return false;
            }
        }
    }
    /* webhooks and callbacks: their types, for a receiver to decode and answer with */
    for (size_t i = 0; i < ir->nwebhooks; i++) {
        const sdkc_webhook *h = &ir->webhooks[i];
        const char *base = sdkc_snake_case(cx->arena, h->id ? h->id : h->name);
        if (!base)
            return false;
        if (h->body && h->body->type &&
            !emit_map_type(cx, h->body->type, sdkc_arena_printf(cx->arena, "%s_body", base)))
            return false;
        if (h->response &&
            !emit_map_type(cx, h->response, sdkc_arena_printf(cx->arena, "%s_response", base)))
            return false;
    }
    if (!emit_order_types(cx) || !emit_name_constants(cx) || !emit_union_commons(cx))
        return false;
    size_t nroots = 0;
    for (size_t i = 0; i < ir->nops; i++)
        nroots += ir->ops[i].nparams + 1;
    ctype **roots = malloc((nroots ? nroots : 1) * sizeof *roots);
    if (!roots)
        return false;
    nroots = 0;
    for (size_t i = 0; i < ir->nops; i++) {
        for (size_t k = 0; k < ir->ops[i].nparams; k++)
            roots[nroots++] = ops[i].params[k];
        if (ops[i].body)
            roots[nroots++] = ops[i].body;
    }
    bool ok = emit_input_twins(cx, roots, nroots);
    free(roots);
    return ok;
}

void emit_model_cleanup(emit_ctx *cx)
{
    free(cx->all);
    free(cx->order);
    sdkc_map_cleanup(&cx->bykey);
    sdkc_map_cleanup(&cx->names);
    sdkc_arena_free(cx->arena);
    memset(cx, 0, sizeof *cx);
}

/* The model in two passes: the first merges every inline shape to find the inline types that
 * every variant of a union repeats; the second maps those first, under the field's own name
 * ("durable"), and merges only them. */
bool emit_model_make(emit_ctx *cx, const sdkc_ir *ir, const char *prefix, cop *ops)
{
    emit_seed *seeds = NULL;
    size_t nseeds = 0;
    bool ok = false;
    for (int pass = 0; pass < 2; pass++) {
        emit_model_cleanup(cx);
        memset(ops, 0, (ir->nops ? ir->nops : 1) * sizeof *ops);
        cx->ir = ir;
        cx->prefix = prefix;
        cx->merge_all = pass == 0;
        if (sdkc_arena_new(&cx->arena) != SDKC_OK ||
            !(cx->upper = sdkc_kit_upper(cx->arena, prefix)) ||
            !build_model(cx, ops, seeds, nseeds))
            goto done;
        if (pass == 0 && !(seeds = emit_collect_seeds(cx, ir, &nseeds)))
            goto done;
    }
    ok = true;
done:
    emit_free_seeds(seeds, nseeds);
    return ok;
}
