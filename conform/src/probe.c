/* probe.c - the probe plan and runner: requests built from the IR, responses judged against it. */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "conform_internal.h"
#include "sdkc/validate.h"
#include "sdkrt/sdkrt.h"

#define CREATE_REPEAT 3   /* resources made by a creator, so that pages have something to walk */
#define PAGE_LIMIT    2   /* page size asked for when walking (if the operation has `limit`) */
#define MAX_PAGES     50  /* pages walked per direction */
#define MAX_FRAMES    200 /* SSE frames judged per stream */
#define SNIPPET       160 /* bytes of a body quoted in evidence */

/* Check names. */
#define CHECK_STATUS       "status"
#define CHECK_CONTENT_TYPE "content-type"
#define CHECK_HEADERS      "headers"
#define CHECK_SCHEMA       "body"

typedef struct id_value {
    const sdkc_brand *brand;
    char *value;
} id_value;

typedef struct runner {
    const sdkc_ir *ir;
    const sdkc_conform_options *opts;
    sdkc_conform_report *r;
    sdkrt_client *client; /* with credentials when given */
    sdkrt_client *anon;   /* without (NULL when no credentials are configured) */
    sdkc_validation *val;
    id_value *ids;
    size_t nids, capids;
    const sdkc_node **opnodes; /* per operation, with a document */
    long timeout_ms, stream_ms;
} runner;

/* What a probe provokes, when it provokes something. */
typedef struct expectation {
    int status;      /* 0 = anything declared */
    const char *tag; /* NULL = any declared tag of that status */
    const char *why; /* "an unknown sessionID" */
} expectation;

typedef enum probe_mode {
    MODE_VALID,
    MODE_UNKNOWN_ID,
    MODE_BAD_CURSOR,
    MODE_MALFORMED_BODY,
    MODE_NO_CREDENTIALS
} probe_mode;

static void logf_(runner *rn, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void logf_(runner *rn, const char *fmt, ...)
{
    if (!rn->opts->log)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(rn->opts->log, fmt, ap);
    va_end(ap);
    fputc('\n', rn->opts->log);
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s);
    char *p = malloc(n + 1);
    if (p)
        memcpy(p, s, n + 1);
    return p;
}

/* ---- identifiers seen in responses ---- */

static const char *id_for(const runner *rn, const sdkc_brand *b)
{
    for (size_t i = 0; i < rn->nids; i++)
        if (rn->ids[i].brand == b || (b && b->name && rn->ids[i].brand->name &&
                                      strcmp(rn->ids[i].brand->name, b->name) == 0))
            return rn->ids[i].value;
    return NULL;
}

static void remember_id(runner *rn, const sdkc_brand *b, const char *value)
{
    if (!b || !value || id_for(rn, b))
        return; /* the first one seen is kept: it was made by this run's creator */
    if (rn->nids == rn->capids) {
        size_t cap = rn->capids ? rn->capids * 2 : 8;
        id_value *p = realloc(rn->ids, cap * sizeof *p);
        if (!p) {
            rn->r->oom = true;
            return;
        }
        rn->ids = p;
        rn->capids = cap;
    }
    char *v = xstrdup(value);
    if (!v) {
        rn->r->oom = true;
        return;
    }
    rn->ids[rn->nids].brand = b;
    rn->ids[rn->nids].value = v;
    rn->nids++;
}

/* Walk a value along its type and remember every branded string. */
static void harvest(runner *rn, const sdkc_type *t, const json_t *v, int depth)
{
    if (!t || !v || depth > 32)
        return;
    switch (t->kind) {
    case SDKC_TYPE_STRING:
        if (t->u.str.brand && json_is_string(v) &&
            strncmp(json_string_value(v), t->u.str.brand->prefix ? t->u.str.brand->prefix : "",
                    strlen(t->u.str.brand->prefix ? t->u.str.brand->prefix : "")) == 0)
            remember_id(rn, t->u.str.brand, json_string_value(v));
        break;
    case SDKC_TYPE_OBJECT:
        for (size_t i = 0; json_is_object(v) && i < t->u.object.nfields; i++)
            harvest(rn, t->u.object.fields[i].type,
                    json_object_get(v, t->u.object.fields[i].wire_name), depth + 1);
        break;
    case SDKC_TYPE_ARRAY:
        for (size_t i = 0; json_is_array(v) && i < json_array_size(v) && i < 16; i++)
            harvest(rn, t->u.array.items, json_array_get(v, i), depth + 1);
        break;
    case SDKC_TYPE_NULLABLE:
        harvest(rn, t->u.nullable.inner, v, depth + 1);
        break;
    case SDKC_TYPE_UNION: {
        const char *disc = t->u.union_.discriminator;
        const char *tag = disc ? json_string_value(json_object_get(v, disc)) : NULL;
        for (size_t i = 0; i < t->u.union_.nvariants; i++)
            if (!disc || (tag && t->u.union_.variants[i].tag &&
                          strcmp(tag, t->u.union_.variants[i].tag) == 0))
                harvest(rn, t->u.union_.variants[i].type, v, depth + 1);
        break;
    }
    default:
        break;
    }
}

/* ---- synthesised values ---- */

static char *unknown_id(const sdkc_brand *b)
{
    sdkc_buf s = SDKC_BUF_INIT;
    const char *prefix = b && b->prefix ? b->prefix : "";
    size_t n = strlen(prefix);
    sdkc_buf_puts(&s, prefix);
    sdkc_buf_puts(&s, n && prefix[n - 1] != '_' ? "_" : "");
    sdkc_buf_puts(&s, "conform0unknown0000000000");
    return sdkc_buf_steal(&s, NULL);
}

/* A minimal valid value of t: required fields only, first variants, empty arrays. One built-in
 * hint: an optional boolean `resume` is sent as false, so that a prompt is admitted without
 * starting work that needs a model provider. */
static json_t *synth(runner *rn, const sdkc_type *t, int depth)
{
    if (!t || depth > 24)
        return json_null();
    switch (t->kind) {
    case SDKC_TYPE_STRING: {
        if (t->u.str.brand) {
            const char *id = id_for(rn, t->u.str.brand);
            if (id)
                return json_string(id);
            char *u = unknown_id(t->u.str.brand);
            json_t *j = u ? json_string(u) : NULL;
            free(u);
            return j;
        }
        if (t->u.str.pattern && t->u.str.pattern[0] == '^' &&
            isalpha((unsigned char)t->u.str.pattern[1])) {
            sdkc_buf s = SDKC_BUF_INIT;
            for (const char *p = t->u.str.pattern + 1; isalnum((unsigned char)*p) || *p == '_'; p++)
                sdkc_buf_putc(&s, *p);
            sdkc_buf_puts(&s, "conform");
            char *v = sdkc_buf_steal(&s, NULL);
            json_t *j = v ? json_string(v) : NULL;
            free(v);
            return j;
        }
        if (t->u.str.format && strcmp(t->u.str.format, "date-time") == 0)
            return json_string("2020-01-01T00:00:00Z");
        return json_string("conform");
    }
    case SDKC_TYPE_INTEGER:
        return json_integer(t->u.num.has_minimum ? (json_int_t)t->u.num.minimum +
                                                       (t->u.num.exclusive_minimum ? 1 : 0)
                                                 : 0);
    case SDKC_TYPE_NUMBER:
        return json_real(t->u.num.has_minimum ? t->u.num.minimum + 1 : 0);
    case SDKC_TYPE_BOOLEAN:
        return json_false();
    case SDKC_TYPE_NULL:
        return json_null();
    case SDKC_TYPE_LITERAL:
        switch (t->u.literal.kind) {
        case SDKC_LIT_STRING:
            return json_string(t->u.literal.text ? t->u.literal.text : "");
        case SDKC_LIT_NUMBER:
            return json_loads(t->u.literal.text ? t->u.literal.text : "0", JSON_DECODE_ANY, NULL);
        case SDKC_LIT_BOOL:
            return json_boolean(t->u.literal.text && strcmp(t->u.literal.text, "true") == 0);
        case SDKC_LIT_NULL:
            return json_null();
        }
        return json_null();
    case SDKC_TYPE_ENUM:
        return json_string(t->u.enumeration.nvalues ? t->u.enumeration.values[0] : "");
    case SDKC_TYPE_ARRAY: {
        json_t *a = json_array();
        uint64_t n = t->u.array.has_min_items ? t->u.array.min_items : 0;
        for (uint64_t i = 0; a && i < n && i < 4; i++)
            json_array_append_new(a, synth(rn, t->u.array.items, depth + 1));
        return a;
    }
    case SDKC_TYPE_TUPLE: {
        json_t *a = json_array();
        for (size_t i = 0; a && i < t->u.tuple.nitems; i++)
            json_array_append_new(a, synth(rn, t->u.tuple.items[i], depth + 1));
        return a;
    }
    case SDKC_TYPE_MAP:
        return json_object();
    case SDKC_TYPE_OBJECT: {
        json_t *o = json_object();
        for (size_t i = 0; o && i < t->u.object.nfields; i++) {
            const sdkc_field *f = &t->u.object.fields[i];
            bool resume = !f->required && strcmp(f->wire_name, "resume") == 0 && f->type &&
                          f->type->kind == SDKC_TYPE_BOOLEAN;
            if (f->required || resume)
                json_object_set_new(o, f->wire_name, synth(rn, f->type, depth + 1));
        }
        return o;
    }
    case SDKC_TYPE_UNION:
        return t->u.union_.nvariants ? synth(rn, t->u.union_.variants[0].type, depth + 1)
                                     : json_null();
    case SDKC_TYPE_NULLABLE:
        return synth(rn, t->u.nullable.inner, depth + 1);
    case SDKC_TYPE_JSON_STRING: {
        json_t *inner = synth(rn, t->u.json_string.content, depth + 1);
        char *s = inner ? json_dumps(inner, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
        json_decref(inner);
        json_t *j = s ? json_string(s) : NULL;
        free(s);
        return j;
    }
    case SDKC_TYPE_ANY:
        return json_object();
    case SDKC_TYPE_NEVER:
        return json_null();
    }
    return json_null();
}

static char *scalar_text(const json_t *j)
{
    if (json_is_string(j))
        return xstrdup(json_string_value(j));
    if (json_is_true(j))
        return xstrdup("true");
    if (json_is_false(j))
        return xstrdup("false");
    return json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY);
}

/* ---- what the contract declares ---- */

/* The declared error for a status: errors are in matching order (exact, ranges, default). */
static const sdkc_error_status *error_status(const sdkc_operation *op, int status)
{
    for (size_t i = 0; i < op->nerrors; i++)
        if (sdkc_status_covers(op->errors[i].status, status))
            return &op->errors[i];
    return NULL;
}

/* Is status the declared success? A 2XX range, a default success or none declared: any 2xx. */
static bool success_status(const sdkc_operation *op, int status)
{
    if (op->success.status >= 100)
        return status == op->success.status;
    return status / 100 == 2; /* errors never hold a 2xx status */
}

static const sdkc_error_tag *error_tag(const sdkc_error_status *es, const char *tag)
{
    for (size_t i = 0; es && tag && i < es->ntags; i++)
        if (strcmp(es->tags[i].tag, tag) == 0)
            return &es->tags[i];
    return NULL;
}

static void declared_statuses(sdkc_buf *b, const sdkc_operation *op)
{
    char st[16];
    sdkc_buf_printf(
        b, "%s", op->success.status ? sdkc_status_text(op->success.status, st, sizeof st) : "2XX");
    for (size_t i = 0; i < op->nerrors; i++)
        sdkc_buf_printf(b, ", %s", sdkc_status_text(op->errors[i].status, st, sizeof st));
}

static void declared_tags(sdkc_buf *b, const sdkc_error_status *es)
{
    for (size_t i = 0; es && i < es->ntags; i++)
        sdkc_buf_printf(b, "%s%s", i ? ", " : "", es->tags[i].tag);
    if (!es || !es->ntags)
        sdkc_buf_puts(b, "(none)");
}

/* Is op's path parameter i a query parameter named name? */
static const sdkc_param *param_named(const sdkc_operation *op, sdkc_param_in in, const char *name)
{
    for (size_t i = 0; i < op->nparams; i++)
        if (op->params[i].in == in && strcmp(op->params[i].wire_name, name) == 0)
            return &op->params[i];
    return NULL;
}

static size_t path_param_count(const sdkc_operation *op)
{
    size_t n = 0;
    for (size_t i = 0; i < op->nparams; i++)
        n += op->params[i].in == SDKC_PARAM_PATH;
    return n;
}

static const sdkc_brand *param_brand(const sdkc_param *p)
{
    const sdkc_type *t = p->type;
    while (t && t->kind == SDKC_TYPE_NULLABLE)
        t = t->u.nullable.inner;
    return t && t->kind == SDKC_TYPE_STRING ? t->u.str.brand : NULL;
}

/* ---- evidence ---- */

static void snippet(sdkc_buf *b, const char *body, size_t len)
{
    if (!body || !len) {
        sdkc_buf_puts(b, "(empty body)");
        return;
    }
    for (size_t i = 0; i < len && i < SNIPPET; i++) {
        unsigned char c = (unsigned char)body[i];
        sdkc_buf_putc(b, c < 0x20 ? ' ' : (char)c);
    }
    if (len > SNIPPET)
        sdkc_buf_puts(b, "...");
}

/* ---- judging one response ---- */

typedef struct probe_ctx {
    runner *rn;
    const sdkc_operation *op;
    const char *probe;
    const char *desc; /* "GET /api/session/ses_x" */
} probe_ctx;

#define ADD(pc, check, verdict, path, rule, ...)                                                   \
    conform_add((pc)->rn->r, (pc)->op->id, (pc)->probe, check, verdict, path, rule, __VA_ARGS__)

/* Validate v against t; each deviation is recorded under check (paths under $.data of a stream
 * frame go to item_check). Returns the number of deviations. */
static size_t validate_into(probe_ctx *pc, const char *check, const char *item_check,
                            const sdkc_type *t, const json_t *v, const char *where)
{
    runner *rn = pc->rn;
    sdkc_validation_reset(rn->val);
    if (sdkc_validate(rn->val, t, v, "$") != SDKC_OK)
        rn->r->oom = true;
    size_t n = sdkc_validation_count(rn->val);
    for (size_t i = 0; i < n; i++) {
        const sdkc_deviation *d = sdkc_validation_get(rn->val, i);
        const char *c = check;
        if (item_check && strncmp(d->path, "$.data", 6) == 0 && strcmp(d->rule, "json-string"))
            c = item_check;
        ADD(pc, c, SDKC_VERDICT_DEVIATION, d->path, d->rule, "%s: %s", where, d->message);
    }
    if (sdkc_validation_total(rn->val) > n)
        ADD(pc, check, SDKC_VERDICT_DEVIATION, "$", "more", "%s: %zu further deviations not kept",
            where, sdkc_validation_total(rn->val) - n);
    for (size_t i = 0; i < sdkc_validation_unchecked_pattern_count(rn->val); i++)
        conform_note_unchecked(rn->r, sdkc_validation_unchecked_pattern(rn->val, i), 0);
    rn->r->unchecked += sdkc_validation_unchecked(rn->val);
    return sdkc_validation_total(rn->val);
}

/* The operation's node in the contract document, or NULL. */
static const sdkc_node *op_node(const runner *rn, const sdkc_operation *op)
{
    return rn->opnodes ? rn->opnodes[op - rn->ir->ops] : NULL;
}

/* Is status a declared success? The IR keeps one (the lowest 2xx); the document has them all. */
static bool declared_success(const runner *rn, const sdkc_operation *op, int status,
                             const sdkc_node **resp_node)
{
    const sdkc_node *on = op_node(rn, op);
    *resp_node = on ? conform_response(rn->opts->doc, on, status, false) : NULL;
    if (success_status(op, status))
        return true;
    return status / 100 == 2 && *resp_node;
}

/* Required response headers the answer lacks (Content-Type is never a declared header). */
static void judge_headers(probe_ctx *pc, const sdkc_node *resp_node, const sdkrt_response *resp,
                          int status, const char *evidence)
{
    const sdkc_node *h = sdkc_node_get(resp_node, "headers");
    if (!resp || !h || h->kind != SDKC_NODE_MAP)
        return;
    size_t checked = 0;
    for (size_t i = 0; i < h->npairs; i++) {
        const char *name = h->pairs[i].key->str;
        const sdkc_node *hn = conform_deref(pc->rn->opts->doc, h->pairs[i].value);
        bool req = false;
        if (!hn || strcasecmp(name, "Content-Type") == 0 ||
            !sdkc_node_bool(sdkc_node_get(hn, "required"), &req) || !req)
            continue;
        checked++;
        if (!sdkrt_response_header(resp, name)) {
            sdkc_buf path = SDKC_BUF_INIT;
            sdkc_buf_printf(&path, "header %s", name);
            ADD(pc, CHECK_HEADERS, SDKC_VERDICT_DEVIATION, path.data, "required",
                "required header %s is missing from the %d answer; %s", name, status, evidence);
            sdkc_buf_cleanup(&path);
        }
    }
    if (checked)
        ADD(pc, CHECK_HEADERS, SDKC_VERDICT_PASS, NULL, NULL, "%zu required header%s present",
            checked, checked == 1 ? "" : "s");
}

/* Does ct match one media type the response declares? The IR's, and the document's. */
static bool media_declared(const runner *rn, const char *ir_ct, const sdkc_node *content,
                           const char *ct, sdkc_buf *declared)
{
    bool ok = false;
    if (ir_ct) {
        ok = sdkc_conform_media_match(ir_ct, ct);
        sdkc_buf_puts(declared, ir_ct);
    }
    for (size_t i = 0; content && i < content->npairs; i++) {
        const char *mt = content->pairs[i].key->str;
        if (ir_ct && strcmp(mt, ir_ct) == 0)
            continue;
        ok = ok || sdkc_conform_media_match(mt, ct);
        sdkc_buf_printf(declared, "%s%s", declared->len ? ", " : "", mt);
    }
    (void)rn;
    return ok;
}

/* Judge status, content type, headers, tag and body of a complete response. Returns the parsed
 * body of a success response (new reference) for the caller to use, else NULL. */
static json_t *judge(probe_ctx *pc, int status, const char *ct, const char *body, size_t len,
                     const expectation *ex, const sdkrt_response *resp)
{
    const sdkc_operation *op = pc->op;
    runner *rn = pc->rn;
    sdkc_buf ev = SDKC_BUF_INIT;
    sdkc_buf_printf(&ev, "%s -> %d %s: ", pc->desc, status, ct ? ct : "(no content type)");
    snippet(&ev, body, len);
    const char *evidence = ev.data ? ev.data : "";
    json_t *result = NULL;
    const char *got_tag = NULL;
    json_t *parsed = NULL;
    const sdkc_node *resp_node = NULL;
    bool success = declared_success(rn, op, status, &resp_node);
    bool ir_success = success_status(op, status);
    const sdkc_error_status *es = success ? NULL : error_status(op, status);
    if (!success && op_node(rn, op))
        resp_node = conform_response(rn->opts->doc, op_node(rn, op), status, true);

    if (!success && !es) {
        sdkc_buf d = SDKC_BUF_INIT;
        declared_statuses(&d, op);
        ADD(pc, CHECK_STATUS, SDKC_VERDICT_DEVIATION, NULL, NULL,
            "HTTP %d is not declared (declared: %s); %s", status, d.data ? d.data : "", evidence);
        sdkc_buf_cleanup(&d);
        goto expect;
    }
    ADD(pc, CHECK_STATUS, SDKC_VERDICT_PASS, NULL, NULL, "%d declared", status);
    judge_headers(pc, resp_node, resp, status, evidence);

    const char *want_ct = ir_success ? op->success.content_type : es ? es->content_type : NULL;
    const sdkc_node *content = conform_response_content(resp_node);
    bool want_body = ir_success ? op->success.encoding != SDKC_ENC_NONE
                     : es       ? es->content_type != NULL
                                : false;
    want_body = want_body || content;
    if (!want_body) {
        if (len > 0)
            ADD(pc, CHECK_CONTENT_TYPE, SDKC_VERDICT_DEVIATION, NULL, NULL,
                "%d declares no content, got %zu bytes; %s", status, len, evidence);
        else
            ADD(pc, CHECK_CONTENT_TYPE, SDKC_VERDICT_PASS, NULL, NULL, "no content");
        goto expect;
    }
    if (len == 0 && !ct) {
        /* An empty answer where content is declared: nothing to judge by type. */
        ADD(pc, CHECK_CONTENT_TYPE, SDKC_VERDICT_PASS, NULL, NULL, "empty body");
        goto expect;
    }
    sdkc_buf declared = SDKC_BUF_INIT;
    bool ct_ok = ct && media_declared(rn, want_ct, content, ct, &declared);
    if (!ct_ok) {
        ADD(pc, CHECK_CONTENT_TYPE, SDKC_VERDICT_DEVIATION, NULL, NULL, "expected %s; %s",
            declared.data ? declared.data : "?", evidence);
        sdkc_buf_cleanup(&declared);
        goto expect;
    }
    sdkc_buf_cleanup(&declared);
    ADD(pc, CHECK_CONTENT_TYPE, SDKC_VERDICT_PASS, NULL, NULL, "%s", ct);
    if (!conform_media_is_json(ct))
        goto expect; /* not JSON: nothing more the contract says */
    /* The IR's schema belongs to its own media type: a body of another declared type (XML
       beside JSON, a second 2xx) is not judged against it. */
    if (want_ct && !sdkc_conform_media_match(want_ct, ct))
        goto expect;
    if ((success && !ir_success) || (!success && !want_ct))
        goto expect;

    json_error_t jerr;
    parsed = json_loadb(body ? body : "", len, JSON_DECODE_ANY, &jerr);
    if (!parsed) {
        ADD(pc, CHECK_SCHEMA, SDKC_VERDICT_DEVIATION, "$", "json", "body is not JSON (%s); %s",
            jerr.text, evidence);
        goto expect;
    }
    if (success) {
        if (op->success.type &&
            validate_into(pc, CHECK_SCHEMA, NULL, op->success.type, parsed, evidence) == 0)
            ADD(pc, CHECK_SCHEMA, SDKC_VERDICT_PASS, NULL, NULL, "matches the success schema");
        result = json_incref(parsed);
        goto expect;
    }
    got_tag = json_string_value(json_object_get(parsed, "_tag"));
    if (es->ntags) {
        const sdkc_error_tag *et = error_tag(es, got_tag);
        if (!et) {
            sdkc_buf d = SDKC_BUF_INIT;
            declared_tags(&d, es);
            ADD(pc, "tag", SDKC_VERDICT_DEVIATION, NULL, NULL,
                "_tag %s%s%s is not declared for %d (declared: %s); %s", got_tag ? "\"" : "",
                got_tag ? got_tag : "missing", got_tag ? "\"" : "", status, d.data ? d.data : "",
                evidence);
            sdkc_buf_cleanup(&d);
            goto expect;
        }
        ADD(pc, "tag", SDKC_VERDICT_PASS, NULL, NULL, "%s declared for %d", got_tag, status);
        if (validate_into(pc, "body", NULL, et->type, parsed, evidence) == 0)
            ADD(pc, "body", SDKC_VERDICT_PASS, NULL, NULL, "matches %s", got_tag);
    } else if (es->untagged) {
        if (validate_into(pc, "body", NULL, es->untagged, parsed, evidence) == 0)
            ADD(pc, "body", SDKC_VERDICT_PASS, NULL, NULL, "matches the error schema");
    }

expect:
    if (status == 401 && !pc->rn->opts->password && (!ex || ex->status != 401)) {
        /* Without credentials the server cannot be exercised: say so, never pass. */
        ADD(pc, "probe", SDKC_VERDICT_SKIP, NULL, NULL,
            "the server wants credentials and none are configured (--password-env); %s", evidence);
    } else if (ex && ex->status) {
        bool ok = status == ex->status && (!ex->tag || (got_tag && strcmp(got_tag, ex->tag) == 0));
        if (ok)
            ADD(pc, "expect", SDKC_VERDICT_PASS, NULL, NULL, "%d %s for %s", ex->status,
                ex->tag ? ex->tag : "", ex->why);
        else
            ADD(pc, "expect", SDKC_VERDICT_DEVIATION, NULL, NULL,
                "%s should give the declared %d%s%s, got %d%s%s; %s", ex->why, ex->status,
                ex->tag ? " " : "", ex->tag ? ex->tag : "", status, got_tag ? " " : "",
                got_tag ? got_tag : "", evidence);
    }
    json_decref(parsed);
    sdkc_buf_cleanup(&ev);
    return result;
}

/* ---- requests ---- */

typedef struct req_plan {
    probe_mode mode;
    const char *cursor; /* continuation cursor, or NULL */
    long limit;         /* > 0: send `limit` when the operation has it */
    bool no_id;         /* set when a path parameter had no known value */
    const sdkc_param *unknown_param;
} req_plan;

static sdkrt_request *build(runner *rn, const sdkc_operation *op, req_plan *plan, sdkc_buf *desc)
{
    sdkrt_request *req = NULL;
    if (sdkrt_request_new(&req, op->method, op->path) != SDKRT_OK)
        return NULL;
    /* The last path parameter is the one made unknown; the ones before it stay valid so that
       the 404 is about the resource probed. */
    size_t npath = path_param_count(op), seen = 0;
    for (size_t i = 0; i < op->nparams; i++) {
        const sdkc_param *p = &op->params[i];
        if (p->in != SDKC_PARAM_PATH)
            continue;
        seen++;
        const sdkc_brand *b = param_brand(p);
        const char *known = b ? id_for(rn, b) : NULL;
        char *value = NULL;
        if (plan->mode == MODE_UNKNOWN_ID && seen == npath) {
            value = unknown_id(b);
            plan->unknown_param = p;
        } else if (known) {
            value = xstrdup(known);
        } else {
            value = unknown_id(b);
            plan->no_id = true;
        }
        if (!value || sdkrt_request_set_path_param(req, p->wire_name, value) != SDKRT_OK) {
            free(value);
            sdkrt_request_free(req);
            return NULL;
        }
        free(value);
    }
    for (size_t i = 0; i < op->nparams; i++) {
        const sdkc_param *p = &op->params[i];
        if (p->in != SDKC_PARAM_QUERY)
            continue;
        const char *cursor_name = op->pagination && op->pagination->cursor_param
                                      ? op->pagination->cursor_param->wire_name
                                      : NULL;
        char *value = NULL;
        if (cursor_name && strcmp(p->wire_name, cursor_name) == 0) {
            if (plan->mode == MODE_BAD_CURSOR)
                value = xstrdup("conform-not-a-cursor");
            else if (plan->cursor)
                value = xstrdup(plan->cursor);
        } else if (plan->limit > 0 && strcmp(p->wire_name, "limit") == 0) {
            sdkc_buf s = SDKC_BUF_INIT;
            sdkc_buf_printf(&s, "%ld", plan->limit);
            value = sdkc_buf_steal(&s, NULL);
        } else if (p->required) {
            json_t *j = synth(rn, p->type, 0);
            value = j ? scalar_text(j) : NULL;
            json_decref(j);
        }
        if (value && sdkrt_request_add_query(req, p->wire_name, value) != SDKRT_OK) {
            free(value);
            sdkrt_request_free(req);
            return NULL;
        }
        free(value);
    }
    if (op->body) {
        if (plan->mode == MODE_MALFORMED_BODY) {
            static const char bad[] = "{\"conform\": ";
            sdkrt_request_set_body(
                req, op->body->content_type ? op->body->content_type : "application/json", bad,
                sizeof bad - 1);
        } else if (op->body->content_type &&
                   strcmp(op->body->content_type, "application/json") == 0) {
            json_t *b = synth(rn, op->body->type, 0);
            if (b)
                sdkrt_request_set_json_body(req, b);
        }
    }
    char *target = NULL;
    sdkrt_error *err = NULL;
    if (sdkrt_request_target(&target, req, &err) == SDKRT_OK)
        sdkc_buf_printf(desc, "%s %s", op->method, target);
    else
        sdkc_buf_printf(desc, "%s %s", op->method, op->path);
    free(target);
    sdkrt_error_free(err);
    return req;
}

/* ---- streams: a watchdog cancels the stream after stream_ms ---- */

typedef struct watchdog {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool done, started;
    long ms;
    sdkrt_cancel *cancel;
} watchdog;

static void *watchdog_main(void *arg)
{
    watchdog *w = arg;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += w->ms / 1000;
    until.tv_nsec += (w->ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&w->mu);
    int rc = 0;
    while (!w->done && rc != ETIMEDOUT)
        rc = pthread_cond_timedwait(&w->cv, &w->mu, &until);
    bool fire = !w->done;
    pthread_mutex_unlock(&w->mu);
    if (fire)
        sdkrt_cancel_trigger(w->cancel);
    return NULL;
}

static bool watchdog_start(watchdog *w, sdkrt_cancel *c, long ms)
{
    memset(w, 0, sizeof *w);
    w->cancel = c;
    w->ms = ms;
    if (pthread_mutex_init(&w->mu, NULL) != 0)
        return false;
    if (pthread_cond_init(&w->cv, NULL) != 0) {
        pthread_mutex_destroy(&w->mu);
        return false;
    }
    w->started = pthread_create(&w->thread, NULL, watchdog_main, w) == 0;
    if (!w->started) {
        pthread_cond_destroy(&w->cv);
        pthread_mutex_destroy(&w->mu);
    }
    return w->started;
}

static void watchdog_stop(watchdog *w)
{
    if (!w->started)
        return;
    pthread_mutex_lock(&w->mu);
    w->done = true;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->cv);
    pthread_mutex_destroy(&w->mu);
}

static void judge_frame(probe_ctx *pc, const sdkrt_stream_event *e, size_t index)
{
    const sdkc_stream *st = pc->op->stream;
    sdkc_buf where = SDKC_BUF_INIT;
    sdkc_buf_printf(&where, "%s frame %zu: ", pc->desc, index);
    if (e->event && strcmp(e->event, "message") != 0)
        sdkc_buf_printf(&where, "event: %s ", e->event);
    sdkc_buf_puts(&where, "data: ");
    snippet(&where, e->data, e->data_len);
    const char *w = where.data ? where.data : "";
    bool failure = st->failure_event && e->event && strcmp(e->event, st->failure_event) == 0;
    if (e->event && strcmp(e->event, "message") != 0 && !failure) {
        ADD(pc, "frame", SDKC_VERDICT_DEVIATION, NULL, "event",
            "event type \"%s\" is not declared (%s%s); %s", e->event,
            st->failure_event ? "only data frames and " : "only data frames",
            st->failure_event ? st->failure_event : "", w);
        sdkc_buf_cleanup(&where);
        return;
    }
    if (failure) {
        json_t *cause = json_loadb(e->data, e->data_len, JSON_DECODE_ANY, NULL);
        if (!cause)
            ADD(pc, "frame", SDKC_VERDICT_DEVIATION, "$", "json", "failure data is not JSON; %s",
                w);
        else if (!st->cause || validate_into(pc, "frame", NULL, st->cause, cause, w) == 0)
            ADD(pc, "frame", SDKC_VERDICT_PASS, NULL, NULL, "declared failure frame");
        json_decref(cause);
        sdkc_buf_cleanup(&where);
        return;
    }
    size_t bad;
    if (st->frame) {
        /* The frame as its schema sees it: {"data": "<the data line text>"}. */
        json_t *frame = json_object();
        json_t *data = json_stringn(e->data, e->data_len);
        if (!frame || !data || json_object_set_new(frame, "data", data) != 0) {
            json_decref(frame);
            pc->rn->r->oom = true;
            sdkc_buf_cleanup(&where);
            return;
        }
        bad = validate_into(pc, "frame", "item", st->frame, frame, w);
        json_decref(frame);
    } else {
        json_t *item = json_loadb(e->data, e->data_len, JSON_DECODE_ANY, NULL);
        if (!item) {
            ADD(pc, "frame", SDKC_VERDICT_DEVIATION, "$.data", "json-string",
                "data is not JSON; %s", w);
            sdkc_buf_cleanup(&where);
            return;
        }
        bad = st->item ? validate_into(pc, "item", NULL, st->item, item, w) : 0;
        json_decref(item);
    }
    if (bad == 0)
        ADD(pc, "frame", SDKC_VERDICT_PASS, NULL, NULL, "frames match their schema");
    sdkc_buf_cleanup(&where);
}

/* Send a probe; judge it. Returns the success body (new) when there is one. */
static json_t *run_probe(runner *rn, const sdkc_operation *op, const char *probe, req_plan *plan,
                         const expectation *ex)
{
    sdkc_buf desc = SDKC_BUF_INIT;
    json_t *result = NULL;
    sdkrt_response *resp = NULL;
    sdkrt_error *err = NULL;
    sdkrt_stream *stream = NULL;
    sdkrt_cancel *cancel = NULL;
    sdkrt_request *req = build(rn, op, plan, &desc);
    probe_ctx pc = {rn, op, probe, desc.data ? desc.data : op->path};
    sdkrt_client *client = plan->mode == MODE_NO_CREDENTIALS ? rn->anon : rn->client;
    if (!req) {
        rn->r->oom = true;
        goto done;
    }
    if (op->stream && op->success.encoding == SDKC_ENC_SSE) {
        watchdog wd;
        if (sdkrt_cancel_new(&cancel) != SDKRT_OK) {
            rn->r->oom = true;
            goto done;
        }
        sdkrt_call_options co = SDKRT_CALL_OPTIONS_INIT;
        co.cancel = cancel;
        co.timeout_ms = rn->stream_ms;
        if (sdkrt_client_stream(client, req, &co, &stream, &err) != SDKRT_OK) {
            ADD(&pc, "transport", SDKC_VERDICT_SKIP, NULL, NULL, "could not open the stream: %s",
                sdkrt_error_message(err));
            goto done;
        }
        bool wd_ok = watchdog_start(&wd, cancel, rn->stream_ms);
        size_t frames = 0;
        for (;;) {
            sdkrt_stream_event e;
            sdkrt_error *serr = NULL;
            sdkrt_stream_result sr = sdkrt_stream_next(stream, &e, &serr);
            if (sr == SDKRT_STREAM_EVENT) {
                if (frames == 0) {
                    int st = sdkrt_stream_status(stream);
                    if (st == op->success.status) {
                        ADD(&pc, "status", SDKC_VERDICT_PASS, NULL, NULL, "%d declared", st);
                        ADD(&pc, "content-type", SDKC_VERDICT_PASS, NULL, NULL,
                            "text/event-stream");
                    } else {
                        ADD(&pc, "status", SDKC_VERDICT_DEVIATION, NULL, NULL,
                            "stream opened with HTTP %d, declared %d; %s", st, op->success.status,
                            pc.desc);
                    }
                    if (ex && ex->status)
                        ADD(&pc, "expect", SDKC_VERDICT_DEVIATION, NULL, NULL,
                            "%s should give the declared %d%s%s, got a %d event stream; %s",
                            ex->why, ex->status, ex->tag ? " " : "", ex->tag ? ex->tag : "", st,
                            pc.desc);
                }
                judge_frame(&pc, &e, frames);
                if (++frames >= MAX_FRAMES)
                    break;
                continue;
            }
            if (sr == SDKRT_STREAM_END) {
                if (frames == 0)
                    ADD(&pc, "frame", SDKC_VERDICT_SKIP, NULL, NULL,
                        "the stream ended without a frame; %s", pc.desc);
                sdkrt_error_free(serr);
                break;
            }
            sdkrt_reason why = sdkrt_error_reason(serr);
            if (why == SDKRT_REASON_UNEXPECTED_STATUS) {
                size_t blen = 0;
                const char *b = sdkrt_error_body(serr, &blen);
                json_t *j = judge(&pc, sdkrt_error_status(serr), sdkrt_error_content_type(serr), b,
                                  blen, ex, NULL);
                json_decref(j);
            } else if (why == SDKRT_REASON_UNSUPPORTED_CONTENT_TYPE) {
                size_t blen = 0;
                const char *b = sdkrt_error_body(serr, &blen);
                sdkc_buf ev = SDKC_BUF_INIT;
                snippet(&ev, b, blen);
                ADD(&pc, "content-type", SDKC_VERDICT_DEVIATION, NULL, NULL,
                    "expected text/event-stream, got %s with HTTP %d; %s: %s",
                    sdkrt_error_content_type(serr) ? sdkrt_error_content_type(serr) : "none",
                    sdkrt_error_status(serr), pc.desc, ev.data ? ev.data : "");
                sdkc_buf_cleanup(&ev);
            } else if (why == SDKRT_REASON_TIMEOUT || why == SDKRT_REASON_CANCELLED) {
                if (frames == 0)
                    ADD(&pc, "frame", SDKC_VERDICT_SKIP, NULL, NULL, "no frame within %ld ms; %s",
                        rn->stream_ms, pc.desc);
            } else if (why == SDKRT_REASON_TRANSPORT && frames == 0 &&
                       sdkrt_stream_status(stream) == 0) {
                ADD(&pc, "transport", SDKC_VERDICT_SKIP, NULL, NULL, "not probed: %s",
                    sdkrt_error_message(serr));
            } else {
                ADD(&pc, "frame", SDKC_VERDICT_DEVIATION, NULL, "sse",
                    "malformed event stream after %zu frame%s: %s; %s", frames,
                    frames == 1 ? "" : "s", sdkrt_error_message(serr), pc.desc);
            }
            sdkrt_error_free(serr);
            break;
        }
        if (wd_ok)
            watchdog_stop(&wd);
        goto done;
    }
    sdkrt_call_options co = SDKRT_CALL_OPTIONS_INIT;
    co.timeout_ms = rn->timeout_ms;
    if (sdkrt_client_send(client, req, &co, &resp, &err) != SDKRT_OK) {
        if (sdkrt_error_reason(err) == SDKRT_REASON_TIMEOUT)
            ADD(&pc, "probe", SDKC_VERDICT_SKIP, NULL, NULL,
                "no answer within %ld ms (it may wait for work that cannot run here); %s",
                rn->timeout_ms, pc.desc);
        else
            /* The message ends with its reason already: "... (TRANSPORT)". */
            ADD(&pc, "transport", SDKC_VERDICT_SKIP, NULL, NULL, "not probed: %s",
                sdkrt_error_message(err));
        goto done;
    }
    size_t blen = 0;
    const char *body = sdkrt_response_body(resp, &blen);
    logf_(rn, "  %-16s %s -> %d", probe, pc.desc, sdkrt_response_status(resp));
    result = judge(&pc, sdkrt_response_status(resp), sdkrt_response_content_type(resp), body, blen,
                   ex, resp);
done:
    sdkrt_stream_close(stream);
    sdkrt_cancel_free(cancel);
    sdkrt_response_free(resp);
    sdkrt_error_free(err);
    sdkrt_request_free(req);
    sdkc_buf_cleanup(&desc);
    return result;
}

/* ---- the plan ---- */

static int phase_of(const sdkc_operation *op)
{
    bool write = strcmp(op->method, "GET") != 0 && strcmp(op->method, "HEAD") != 0 &&
                 strcmp(op->method, "DELETE") != 0;
    if (write && path_param_count(op) == 0)
        return 0; /* creators first: they make the ids everything else needs */
    if (write)
        return 1;
    if (strcmp(op->method, "DELETE") == 0)
        return 3;
    return 2;
}

/* Does a success result hold an `id` of a brand (is this a creator)? */
static bool creates_ids(const sdkc_operation *op)
{
    const sdkc_type *t = op->success.result;
    while (t && t->kind == SDKC_TYPE_NULLABLE)
        t = t->u.nullable.inner;
    if (!t || t->kind != SDKC_TYPE_OBJECT || op->pagination)
        return false;
    for (size_t i = 0; i < t->u.object.nfields; i++) {
        const sdkc_type *f = t->u.object.fields[i].type;
        if (strcmp(t->u.object.fields[i].wire_name, "id") == 0 && f &&
            f->kind == SDKC_TYPE_STRING && f->u.str.brand)
            return true;
    }
    return false;
}

static bool included(const sdkc_conform_options *o, const char *id)
{
    if (!o->ninclude)
        return true;
    for (size_t i = 0; i < o->ninclude; i++)
        if (sdkc_glob_match(o->include[i], id))
            return true;
    return false;
}

static const char *skip_reason(const sdkc_conform_options *o, const char *id)
{
    for (size_t i = 0; i < o->nskips; i++)
        if (sdkc_glob_match(o->skips[i].glob, id))
            return o->skips[i].reason ? o->skips[i].reason : "skipped by request";
    return NULL;
}

/* The error a probe provokes, if the contract declares one for it. */
static bool expect_error(const sdkc_operation *op, int status, const char *tag, const char *why,
                         expectation *ex)
{
    const sdkc_error_status *es = error_status(op, status);
    if (!es)
        return false;
    if (tag && es->ntags && !error_tag(es, tag))
        return false;
    ex->status = status;
    ex->tag = tag && es->ntags ? tag : NULL;
    ex->why = why;
    return true;
}

static json_t *items_of(const sdkc_pagination *pg, const json_t *page)
{
    return json_object_get(page, pg->items_field ? pg->items_field : "data");
}

static const char *cursor_of(const sdkc_pagination *pg, const json_t *page, const char *field)
{
    if (!field)
        return NULL;
    json_t *c = json_object_get(page, pg->cursor_field ? pg->cursor_field : "cursor");
    const char *s = json_string_value(json_object_get(c, field));
    return s && *s ? s : NULL;
}

static char *item_key(const json_t *item)
{
    const char *id = json_string_value(json_object_get(item, "id"));
    if (id)
        return xstrdup(id);
    return json_dumps(item, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
}

typedef struct key_list {
    char **keys;
    size_t n, cap;
} key_list;

static bool keys_push(key_list *k, char *key)
{
    if (!key)
        return false;
    if (k->n == k->cap) {
        size_t cap = k->cap ? k->cap * 2 : 16;
        char **p = realloc(k->keys, cap * sizeof *p);
        if (!p) {
            free(key);
            return false;
        }
        k->keys = p;
        k->cap = cap;
    }
    k->keys[k->n++] = key;
    return true;
}

static bool keys_has(const key_list *k, const char *key)
{
    for (size_t i = 0; i < k->n; i++)
        if (strcmp(k->keys[i], key) == 0)
            return true;
    return false;
}

static void keys_free(key_list *k)
{
    for (size_t i = 0; i < k->n; i++)
        free(k->keys[i]);
    free(k->keys);
    memset(k, 0, sizeof *k);
}

/* One page fetch for the walk: the body (new) or NULL (a deviation was recorded). */
static json_t *fetch_page(runner *rn, const sdkc_operation *op, const char *cursor, long limit,
                          const char *probe)
{
    req_plan plan = {MODE_VALID, cursor, limit, false, NULL};
    return run_probe(rn, op, probe, &plan, NULL);
}

/* Walk from the first page forward with `next`, then back with `previous` from the last page:
 * no item may repeat, and the way back must see the items of the way forward. */
static void page_walk(runner *rn, const sdkc_operation *op)
{
    const sdkc_pagination *pg = op->pagination;
    probe_ctx pc = {rn, op, "page-walk", op->path};
    long limit = param_named(op, SDKC_PARAM_QUERY, "limit") ? PAGE_LIMIT : 0;
    key_list fwd = {0}, back = {0}, cursors = {0};
    json_t *page = fetch_page(rn, op, NULL, limit, "page-walk");
    json_t *last = NULL;
    size_t pages = 0, last_page_items = 0;
    bool bad = false;
    if (!page) {
        ADD(&pc, "cursor", SDKC_VERDICT_SKIP, NULL, NULL, "the first page could not be read");
        goto done;
    }
    while (page && pages < MAX_PAGES) {
        json_t *items = items_of(pg, page);
        size_t n = json_array_size(items);
        pages++;
        for (size_t i = 0; i < n; i++) {
            char *k = item_key(json_array_get(items, i));
            if (k && keys_has(&fwd, k)) {
                ADD(&pc, "cursor", SDKC_VERDICT_DEVIATION, NULL, "repeat",
                    "walking forward, item %s came again on page %zu", k, pages);
                bad = true;
                free(k);
                continue;
            }
            if (!keys_push(&fwd, k))
                rn->r->oom = true;
        }
        const char *next = cursor_of(pg, page, pg->next_field);
        if (n == 0 || !next)
            break;
        if (keys_has(&cursors, next)) {
            ADD(&pc, "cursor", SDKC_VERDICT_DEVIATION, NULL, "loop",
                "walking forward, page %zu gave a next cursor seen before", pages);
            bad = true;
            break;
        }
        keys_push(&cursors, xstrdup(next));
        json_decref(last);
        last = page;
        last_page_items = n;
        page = fetch_page(rn, op, next, limit, "page-walk");
    }
    if (page && json_array_size(items_of(pg, page)) > 0) {
        json_decref(last);
        last = page;
        last_page_items = json_array_size(items_of(pg, page));
        page = NULL;
    }
    /* Back from the last non-empty page: expect every forward item before it. */
    if (last && pg->previous_field) {
        size_t expect = fwd.n - last_page_items;
        const char *prev = cursor_of(pg, last, pg->previous_field);
        char *prev_copy = prev ? xstrdup(prev) : NULL;
        size_t bpages = 0;
        while (prev_copy && bpages < MAX_PAGES) {
            json_t *p = fetch_page(rn, op, prev_copy, limit, "page-walk");
            free(prev_copy);
            prev_copy = NULL;
            if (!p)
                break;
            bpages++;
            json_t *items = items_of(pg, p);
            size_t n = json_array_size(items);
            for (size_t i = 0; i < n; i++) {
                char *k = item_key(json_array_get(items, i));
                if (k && keys_has(&back, k)) {
                    ADD(&pc, "cursor", SDKC_VERDICT_DEVIATION, NULL, "repeat",
                        "walking back, item %s came again on page %zu", k, bpages);
                    bad = true;
                    free(k);
                    continue;
                }
                if (!keys_push(&back, k))
                    rn->r->oom = true;
            }
            const char *pv = cursor_of(pg, p, pg->previous_field);
            if (n > 0 && pv)
                prev_copy = xstrdup(pv);
            json_decref(p);
        }
        free(prev_copy);
        for (size_t i = 0; i < fwd.n - last_page_items; i++)
            if (!keys_has(&back, fwd.keys[i])) {
                ADD(&pc, "cursor", SDKC_VERDICT_DEVIATION, NULL, "loss",
                    "walking back from the last page, item %s of the way forward never came",
                    fwd.keys[i]);
                bad = true;
            }
        for (size_t i = 0; i < back.n; i++)
            if (!keys_has(&fwd, back.keys[i]) || back.n > expect) {
                ADD(&pc, "cursor", SDKC_VERDICT_DEVIATION, NULL, "extra",
                    "walking back, item %s was not among the items before the last page",
                    back.keys[i]);
                bad = true;
                break;
            }
    }
    if (!bad)
        ADD(&pc, "cursor", SDKC_VERDICT_PASS, NULL, NULL,
            "%zu items over %zu pages, no loss or repeat", fwd.n, pages);
done:
    json_decref(page);
    json_decref(last);
    keys_free(&fwd);
    keys_free(&back);
    keys_free(&cursors);
}

static void probe_operation(runner *rn, const sdkc_operation *op)
{
    const char *why = skip_reason(rn->opts, op->id);
    probe_ctx pc = {rn, op, "*", op->path};
    if (why) {
        ADD(&pc, "probe", SDKC_VERDICT_SKIP, NULL, NULL, "%s", why);
        return;
    }
    logf_(rn, "%s %s %s", op->id, op->method, op->path);

    /* valid */
    req_plan plan = {MODE_VALID, NULL, 0, false, NULL};
    int repeat = phase_of(op) == 0 && creates_ids(op) ? CREATE_REPEAT : 1;
    for (int i = 0; i < repeat; i++) {
        plan.no_id = false;
        sdkc_buf probe_desc = SDKC_BUF_INIT;
        /* A probe whose ids nobody made would only test unknown ids (done below): skip it. */
        req_plan dry = plan;
        sdkrt_request *dry_req = build(rn, op, &dry, &probe_desc);
        sdkrt_request_free(dry_req);
        if (dry.no_id) {
            probe_ctx v = {rn, op, "valid", probe_desc.data ? probe_desc.data : op->path};
            ADD(&v, "probe", SDKC_VERDICT_SKIP, NULL, NULL,
                "no valid identifier for a path parameter (no included operation creates one)");
            sdkc_buf_cleanup(&probe_desc);
            break;
        }
        sdkc_buf_cleanup(&probe_desc);
        json_t *body = run_probe(rn, op, "valid", &plan, NULL);
        if (body) {
            const json_t *res = body;
            if (op->success.unwrap && json_is_object(body))
                res = json_object_get(body, op->success.unwrap);
            harvest(rn, op->success.result, res, 0);
        }
        json_decref(body);
    }

    expectation ex = {0, NULL, NULL};
    /* unknown-id */
    if (path_param_count(op) > 0) {
        sdkc_buf why_buf = SDKC_BUF_INIT;
        const sdkc_param *last = NULL;
        for (size_t i = 0; i < op->nparams; i++)
            if (op->params[i].in == SDKC_PARAM_PATH)
                last = &op->params[i];
        sdkc_buf_printf(&why_buf, "an unknown %s", last->wire_name);
        if (expect_error(op, 404, NULL, why_buf.data, &ex)) {
            req_plan p = {MODE_UNKNOWN_ID, NULL, 0, false, NULL};
            json_decref(run_probe(rn, op, "unknown-id", &p, &ex));
        } else {
            probe_ctx u = {rn, op, "unknown-id", op->path};
            ADD(&u, "probe", SDKC_VERDICT_SKIP, NULL, NULL, "the contract declares no 404");
        }
        sdkc_buf_cleanup(&why_buf);
    }
    /* bad-cursor */
    if (op->pagination && op->pagination->cursor_param) {
        if (expect_error(op, 400, "InvalidCursorError", "an invalid cursor", &ex)) {
            req_plan p = {MODE_BAD_CURSOR, NULL, 0, false, NULL};
            json_decref(run_probe(rn, op, "bad-cursor", &p, &ex));
        } else {
            probe_ctx u = {rn, op, "bad-cursor", op->path};
            ADD(&u, "probe", SDKC_VERDICT_SKIP, NULL, NULL,
                "the contract declares no 400 InvalidCursorError");
        }
    }
    /* malformed-body */
    if (op->body && op->body->content_type &&
        strcmp(op->body->content_type, "application/json") == 0) {
        if (expect_error(op, 400, "InvalidRequestError", "a body that is not JSON", &ex)) {
            req_plan p = {MODE_MALFORMED_BODY, NULL, 0, false, NULL};
            json_decref(run_probe(rn, op, "malformed-body", &p, &ex));
        } else {
            probe_ctx u = {rn, op, "malformed-body", op->path};
            ADD(&u, "probe", SDKC_VERDICT_SKIP, NULL, NULL,
                "the contract declares no 400 InvalidRequestError");
        }
    }
    /* no-credentials */
    {
        probe_ctx u = {rn, op, "no-credentials", op->path};
        if (!rn->anon)
            ADD(&u, "probe", SDKC_VERDICT_SKIP, NULL, NULL,
                "no credentials configured (--password-env)");
        else if (expect_error(op, 401, "UnauthorizedError", "a request without credentials", &ex)) {
            req_plan p = {MODE_NO_CREDENTIALS, NULL, 0, false, NULL};
            json_decref(run_probe(rn, op, "no-credentials", &p, &ex));
        } else {
            ADD(&u, "probe", SDKC_VERDICT_SKIP, NULL, NULL, "the contract declares no 401");
        }
    }
    /* page-walk */
    if (op->pagination) {
        req_plan dry = {MODE_VALID, NULL, 0, false, NULL};
        sdkc_buf d = SDKC_BUF_INIT;
        sdkrt_request_free(build(rn, op, &dry, &d));
        sdkc_buf_cleanup(&d);
        if (dry.no_id) {
            probe_ctx u = {rn, op, "page-walk", op->path};
            ADD(&u, "probe", SDKC_VERDICT_SKIP, NULL, NULL,
                "no valid identifier for a path parameter");
        } else {
            page_walk(rn, op);
        }
    }
}

sdkc_status sdkc_conform_run(sdkc_conform_report **out, const sdkc_ir *ir,
                             const sdkc_conform_options *opts, char **errmsg)
{
    *out = NULL;
    if (errmsg)
        *errmsg = NULL;
    sdkc_status st = SDKC_OK;
    runner rn;
    memset(&rn, 0, sizeof rn);
    rn.ir = ir;
    rn.opts = opts;
    rn.timeout_ms = opts->timeout_ms > 0 ? opts->timeout_ms : 5000;
    rn.stream_ms = opts->stream_ms > 0 ? opts->stream_ms : 1500;
    sdkrt_error *err = NULL;
    rn.r = calloc(1, sizeof *rn.r);
    sdkc_validate_options vo = SDKC_VALIDATE_OPTIONS_INIT;
    vo.doc = opts->doc;
    if (!rn.r || sdkc_validation_new(&rn.val, &vo) != SDKC_OK) {
        st = SDKC_ERR_NOMEM;
        goto done;
    }
    if (opts->doc && ir->nops) {
        rn.opnodes = calloc(ir->nops, sizeof *rn.opnodes);
        if (!rn.opnodes) {
            st = SDKC_ERR_NOMEM;
            goto done;
        }
        for (size_t i = 0; i < ir->nops; i++)
            rn.opnodes[i] = conform_op_node(opts->doc, &ir->ops[i]);
    }
    rn.r->base_url = opts->base_url ? xstrdup(opts->base_url) : NULL;
    rn.r->contract = ir->source_name ? xstrdup(ir->source_name) : NULL;
    sdkrt_client_options co = SDKRT_CLIENT_OPTIONS_INIT;
    co.base_url = opts->base_url;
    co.transport = opts->transport;
    co.user_agent = "sdkc-conform/" SDKC_VERSION;
    if (opts->password) {
        co.auth = SDKRT_AUTH_BASIC;
        co.username = opts->username ? opts->username : "opencode";
        co.password = opts->password;
    }
    if (!opts->base_url || sdkrt_client_new(&rn.client, &co, &err) != SDKRT_OK) {
        if (errmsg) {
            sdkc_buf m = SDKC_BUF_INIT;
            sdkc_buf_printf(&m, "bad base URL: %s",
                            err ? sdkrt_error_message(err) : "none given (--base-url)");
            *errmsg = sdkc_buf_steal(&m, NULL);
            sdkc_buf_cleanup(&m);
        }
        st = SDKC_ERR_INVALID;
        goto done;
    }
    if (opts->password) {
        co.auth = SDKRT_AUTH_NONE;
        co.username = co.password = NULL;
        if (sdkrt_client_new(&rn.anon, &co, &err) != SDKRT_OK) {
            st = SDKC_ERR_NOMEM;
            goto done;
        }
    }
    for (int phase = 0; phase <= 3; phase++)
        for (size_t i = 0; i < ir->nops; i++) {
            const sdkc_operation *op = &ir->ops[i];
            if (!included(opts, op->id) || phase_of(op) != phase)
                continue;
            rn.r->operations++;
            probe_operation(&rn, op);
        }
    if (rn.r->oom)
        st = SDKC_ERR_NOMEM;
done:
    sdkrt_error_free(err);
    sdkrt_client_free(rn.client);
    sdkrt_client_free(rn.anon);
    sdkc_validation_free(rn.val);
    free(rn.opnodes);
    for (size_t i = 0; i < rn.nids; i++)
        free(rn.ids[i].value);
    free(rn.ids);
    if (st == SDKC_OK)
        *out = rn.r;
    else
        sdkc_conform_report_free(rn.r);
    return st;
}
