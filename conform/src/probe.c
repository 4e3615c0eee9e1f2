/* probe.c - the probe plan and runner: requests built from the IR, responses judged against it. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "conform_internal.h"
#include "sdkc/synth.h"
#include "sdkc/validate.h"
#include "sdkrt/sdkrt.h"
#include "sdkrt/wire.h"
#include "sdkc/naming.h"

#define CREATE_REPEAT 3   /* resources made by a creator, so that pages have something to walk */
#define PAGE_LIMIT    2   /* page size asked for when walking (if the operation has a size) */
#define PAGE_BIG      100 /* page size of the reference page, within the parameter's maximum */
#define MAX_PAGES     50  /* pages walked per direction */
#define ENDLESS       "the pages do not end" /* how the runtime's walk rules say why */
#define MAX_FRAMES    200                    /* SSE frames judged per stream */
#define SNIPPET       160                    /* bytes of a body quoted in evidence */
#define MAX_JOBS      64

/* Check names (Schemathesis's where it has one). */
#define CHECK_SERVER_ERROR "not_a_server_error"
#define CHECK_STATUS       "status_code_conformance"
#define CHECK_CONTENT_TYPE "content_type_conformance"
#define CHECK_HEADERS      "response_headers_conformance"
#define CHECK_SCHEMA       "response_schema_conformance"
#define CHECK_NEGATIVE     "negative_data_rejection"
#define CHECK_IGNORED_AUTH "ignored_auth"
#define CHECK_USE_AFTER    "use_after_free"
#define CHECK_AVAILABILITY "ensure_resource_availability"
#define CHECK_MISSING      "missing_resource"
#define CHECK_PAGINATION   "pagination"
#define CHECK_TIMEOUT      "timeout"

static const struct {
    const char *name;
    unsigned bit;
} check_table[] = {
    {CHECK_SERVER_ERROR, SDKC_CHECK_NOT_A_SERVER_ERROR},
    {CHECK_STATUS, SDKC_CHECK_STATUS_CODE},
    {CHECK_CONTENT_TYPE, SDKC_CHECK_CONTENT_TYPE},
    {CHECK_HEADERS, SDKC_CHECK_RESPONSE_HEADERS},
    {CHECK_SCHEMA, SDKC_CHECK_RESPONSE_SCHEMA},
    {CHECK_NEGATIVE, SDKC_CHECK_NEGATIVE_DATA},
    {CHECK_IGNORED_AUTH, SDKC_CHECK_IGNORED_AUTH},
    {CHECK_USE_AFTER, SDKC_CHECK_USE_AFTER_FREE},
    {CHECK_AVAILABILITY, SDKC_CHECK_RESOURCE_AVAILABILITY},
    {CHECK_MISSING, SDKC_CHECK_MISSING_RESOURCE},
    {CHECK_PAGINATION, SDKC_CHECK_PAGINATION},
    {CHECK_TIMEOUT, SDKC_CHECK_TIMEOUT},
};

unsigned sdkc_conform_check_bit(const char *name)
{
    for (size_t i = 0; i < sizeof check_table / sizeof check_table[0]; i++)
        if (strcmp(check_table[i].name, name) == 0)
            return check_table[i].bit;
    return 0;
}

const char *sdkc_conform_check_name(size_t i)
{
    return i < sizeof check_table / sizeof check_table[0] ? check_table[i].name : NULL;
}

/* A value remembered from an answer: "brand:SessionID", "field:id", "coll:/items" (the id of
 * what a POST to /items made), "link:getItem:itemId" (an OpenAPI link's parameter). */
typedef struct stored {
    char *key;
    json_t *value;
} stored;

typedef struct runner {
    const sdkc_ir *ir;
    const sdkc_conform_options *opts;
    sdkc_conform_report *r;
    sdkrt_client *client; /* with credentials when given */
    sdkrt_client *anon;   /* without (NULL when no credentials are configured) */
    bool have_credentials;
    stored *store;
    size_t nstore, capstore;
    bool *probed; /* per operation: a valid probe got a real answer */
    long timeout_ms, stream_ms;
    unsigned checks;
    struct timespec deadline; /* tv_sec 0: none */
    pthread_mutex_t mu;       /* report, store, probed */
    /* phase queue */
    const sdkc_operation **queue;
    size_t nqueue;
    unsigned char *state; /* per queue entry: QUEUED, RUNNING, DONE */
    bool *needs;          /* nqueue x nqueue: needs[i * nqueue + j], entry i waits for j */
    pthread_cond_t cv;    /* an entry is done (with mu) */
    /* A malformed body went unanswered for the whole timeout (with mu): the server (Prism 5.16,
       for one) never answers such bodies, so the other malformed-body probes are a note each,
       not a timeout each. The probe that saw it, for the note. */
    char *malformed_hang;
    const sdkrt_transport *inner; /* what the workers' clients send through */
    sdkrt_transport *own_inner;   /* the libcurl transport made for the run, or NULL */
    conform_secret *secrets;      /* for curl lines: each secret and its variable's name */
    size_t nsecrets;
} runner;

enum { QUEUED, RUNNING, DONE };

/* Per thread: its own validator and arena. */
typedef struct worker {
    runner *rn;
    sdkc_validation *val;
    sdkc_arena *arena;
    /* The worker's clients send through rec, which writes each request's curl line into curl
       (new, or NULL) and hands it to the run's transport. */
    sdkrt_transport rec;
    sdkrt_client *client, *anon;
    char *curl;
} worker;

typedef enum probe_mode {
    MODE_VALID,
    MODE_POSITIVE,       /* every optional field and parameter set too */
    MODE_POSITIVE_BODY,  /* every optional body field, only the required parameters */
    MODE_UNKNOWN_ID,     /* a well-formed id nobody made: the declared 404 */
    MODE_BAD_CURSOR,     /* negative */
    MODE_MALFORMED_BODY, /* negative */
    MODE_NO_CREDENTIALS, /* ignored_auth */
    MODE_AFTER_DELETE,   /* use_after_free */
    MODE_AFTER_CREATE    /* ensure_resource_availability */
} probe_mode;

/* What a probe provokes, when it provokes something declared. */
typedef struct expectation {
    int status;      /* 0 = anything declared */
    const char *tag; /* NULL = any declared tag of that status */
    const char *why; /* "an unknown sessionID" */
} expectation;

static void logf_(runner *rn, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void logf_(runner *rn, const char *fmt, ...)
{
    if (!rn->opts->log)
        return;
    pthread_mutex_lock(&rn->mu);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(rn->opts->log, fmt, ap);
    va_end(ap);
    fputc('\n', rn->opts->log);
    pthread_mutex_unlock(&rn->mu);
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s);
    char *p = malloc(n + 1);
    if (p)
        memcpy(p, s, n + 1);
    return p;
}

static bool check_on(const runner *rn, const char *check)
{
    unsigned bit = sdkc_conform_check_bit(check);
    return !bit || (rn->checks & bit);
}

/* ---- the run's clock ---- */

static bool past_deadline(const runner *rn)
{
    if (rn->opts->stop && *rn->opts->stop)
        return true;
    if (!rn->deadline.tv_sec)
        return false;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec > rn->deadline.tv_sec ||
           (now.tv_sec == rn->deadline.tv_sec && now.tv_nsec >= rn->deadline.tv_nsec);
}

/* The per-request timeout, cut to what is left of --max-time. */
static long request_timeout(const runner *rn, long want)
{
    if (!rn->deadline.tv_sec)
        return want;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long left = (long)(rn->deadline.tv_sec - now.tv_sec) * 1000 +
                (rn->deadline.tv_nsec - now.tv_nsec) / 1000000;
    return left < 1 ? 1 : left < want ? left : want;
}

/* ---- values remembered from answers ---- */

/* Borrowed (values are never freed before the run ends), or NULL. Call with rn->mu held. */
static const json_t *store_get_locked(const runner *rn, const char *key)
{
    for (size_t i = 0; i < rn->nstore; i++)
        if (strcmp(rn->store[i].key, key) == 0)
            return rn->store[i].value;
    return NULL;
}

static const json_t *store_get(runner *rn, const char *key)
{
    pthread_mutex_lock(&rn->mu);
    const json_t *v = store_get_locked(rn, key);
    pthread_mutex_unlock(&rn->mu);
    return v;
}

/* The first value seen is kept: it was made by this run's creator. value is borrowed. */
static void store_put(runner *rn, const char *key, const json_t *value)
{
    if (!value || (!json_is_string(value) && !json_is_integer(value)) ||
        (json_is_string(value) && !json_string_length(value)))
        return;
    pthread_mutex_lock(&rn->mu);
    if (!store_get_locked(rn, key)) {
        if (rn->nstore == rn->capstore) {
            size_t cap = rn->capstore ? rn->capstore * 2 : 16;
            stored *p = realloc(rn->store, cap * sizeof *p);
            if (!p) {
                rn->r->oom = true;
                goto out;
            }
            rn->store = p;
            rn->capstore = cap;
        }
        char *k = xstrdup(key);
        json_t *v = json_deep_copy(value);
        if (!k || !v) {
            free(k);
            json_decref(v);
            rn->r->oom = true;
            goto out;
        }
        rn->store[rn->nstore].key = k;
        rn->store[rn->nstore].value = v;
        rn->nstore++;
    }
out:
    pthread_mutex_unlock(&rn->mu);
}

static void store_put_str(runner *rn, const char *kind, const char *name, const json_t *value)
{
    sdkc_buf k = SDKC_BUF_INIT;
    sdkc_buf_printf(&k, "%s:%s", kind, name);
    if (k.data)
        store_put(rn, k.data, value);
    sdkc_buf_cleanup(&k);
}

static const json_t *store_get_str(runner *rn, const char *kind, const char *name)
{
    sdkc_buf k = SDKC_BUF_INIT;
    sdkc_buf_printf(&k, "%s:%s", kind, name);
    const json_t *v = k.data ? store_get(rn, k.data) : NULL;
    sdkc_buf_cleanup(&k);
    return v;
}

/* Walk a value along its type: remember every branded string, and every scalar field by name. */
static void harvest(runner *rn, const sdkc_type *t, const json_t *v, int depth)
{
    if (!t || !v || depth > 32)
        return;
    switch (t->kind) {
    case SDKC_TYPE_STRING:
        if (t->u.str.brand && json_is_string(v) && t->u.str.brand->name &&
            strncmp(json_string_value(v), t->u.str.brand->prefix ? t->u.str.brand->prefix : "",
                    strlen(t->u.str.brand->prefix ? t->u.str.brand->prefix : "")) == 0)
            store_put_str(rn, "brand", t->u.str.brand->name, v);
        break;
    case SDKC_TYPE_OBJECT:
        for (size_t i = 0; json_is_object(v) && i < t->u.object.nfields; i++) {
            const sdkc_field *f = &t->u.object.fields[i];
            json_t *m = json_object_get(v, f->wire_name);
            if (depth < 3)
                store_put_str(rn, "field", f->wire_name, m);
            harvest(rn, f->type, m, depth + 1);
        }
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

static const sdkc_type *unwrap_nullable(const sdkc_type *t)
{
    while (t && t->kind == SDKC_TYPE_NULLABLE)
        t = t->u.nullable.inner;
    return t;
}

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

typedef struct synth_ctx {
    worker *wk;
    probe_mode mode;
} synth_ctx;

static const char *brand_hook(void *user, const sdkc_brand *b)
{
    synth_ctx *sc = user;
    const json_t *v = b && b->name ? store_get_str(sc->wk->rn, "brand", b->name) : NULL;
    return json_string_value(v);
}

/* The positive probe sets every optional field; the others only one built-in hint: an optional
 * boolean `resume` is sent (false), so that a prompt is admitted without starting work that
 * needs a model provider. Read-only fields are never sent. */
static bool optional_hook(void *user, const sdkc_type *t, const sdkc_field *f)
{
    synth_ctx *sc = user;
    (void)t;
    if (f->read_only)
        return false;
    if (sc->mode == MODE_POSITIVE || sc->mode == MODE_POSITIVE_BODY)
        return true;
    return strcmp(f->wire_name, "resume") == 0 && f->type && f->type->kind == SDKC_TYPE_BOOLEAN;
}

/* A valid value of t (new), or NULL with *why. */
static json_t *synth(worker *wk, probe_mode mode, const sdkc_type *t, const char **why)
{
    synth_ctx sc = {wk, mode};
    sdkc_synth_options so = SDKC_SYNTH_OPTIONS_INIT;
    so.filler = "conform";
    so.brand_value = brand_hook;
    so.want_optional = optional_hook;
    so.user = &sc;
    json_t *v = NULL;
    *why = NULL;
    sdkc_status st = sdkc_synth_value(&v, wk->arena, t, &so, why);
    if (st == SDKC_ERR_NOMEM) {
        wk->rn->r->oom = true;
        *why = "out of memory";
    }
    return st == SDKC_OK ? v : NULL;
}

/* A value for a parameter from --param NAME=VALUE, typed like the parameter (new), or NULL. */
static json_t *user_param(const runner *rn, const sdkc_param *p)
{
    for (size_t i = 0; i < rn->opts->nparams; i++) {
        if (strcmp(rn->opts->params[i].name, p->wire_name) != 0)
            continue;
        const char *s = rn->opts->params[i].value;
        const sdkc_type *t = unwrap_nullable(p->type);
        if (t && (t->kind == SDKC_TYPE_INTEGER || t->kind == SDKC_TYPE_NUMBER)) {
            json_t *j = json_loads(s, JSON_DECODE_ANY, NULL);
            if (json_is_number(j))
                return j;
            json_decref(j);
        }
        return json_string(s);
    }
    return NULL;
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

/* The declared success a status answers, as clients match it: exact statuses first, then a 2XX
   range; a default success or none declared takes any 2xx. NULL when none. */
static const sdkc_success *success_for(const sdkc_operation *op, int status)
{
    if (status / 100 != 2)
        return NULL; /* with neither a 2xx nor default, a 3xx success is never probed for */
    const sdkc_success *range = NULL;
    for (size_t i = 0; i <= op->nmore_successes; i++) {
        const sdkc_success *s = i ? &op->more_successes[i - 1] : &op->success;
        if (s->status == status)
            return s;
        if (s->status < 100 && !range)
            range = s;
    }
    return range;
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
    for (size_t i = 0; i < op->nmore_successes; i++)
        sdkc_buf_printf(b, ", %s", sdkc_status_text(op->more_successes[i].status, st, sizeof st));
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
    worker *wk;
    runner *rn;
    const sdkc_operation *op;
    const char *probe;
    const char *desc; /* "GET /api/session/ses_x" */
    probe_mode mode;
    int status;    /* the answer's, 0 when none */
    bool answered; /* a valid probe got an answer that was not a refusal */
} probe_ctx;

static void padd(probe_ctx *pc, const char *check, sdkc_verdict v, const char *path,
                 const char *rule, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static void padd(probe_ctx *pc, const char *check, sdkc_verdict v, const char *path,
                 const char *rule, const char *fmt, ...)
{
    if (!check_on(pc->rn, check))
        return;
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&pc->rn->mu);
    conform_vadd(pc->rn->r, pc->op->id, pc->probe, check, v, path, rule,
                 v == SDKC_VERDICT_DEVIATION ? pc->wk->curl : NULL, fmt, ap);
    pthread_mutex_unlock(&pc->rn->mu);
    va_end(ap);
}

#define ADD padd

/* Validate v against t; each deviation is recorded under check. Returns the number of
 * deviations. */
static size_t validate_into(probe_ctx *pc, const char *check, const sdkc_type *t, const json_t *v,
                            const char *where)
{
    sdkc_validation *val = pc->wk->val;
    sdkc_validation_reset(val);
    if (sdkc_validate(val, t, v, "$") != SDKC_OK)
        pc->rn->r->oom = true;
    size_t n = sdkc_validation_count(val);
    for (size_t i = 0; i < n; i++) {
        const sdkc_deviation *d = sdkc_validation_get(val, i);
        ADD(pc, check, SDKC_VERDICT_DEVIATION, d->path, d->rule, "%s: %s", where, d->message);
    }
    if (sdkc_validation_total(val) > n)
        ADD(pc, check, SDKC_VERDICT_DEVIATION, "$", "more", "%s: %zu further deviations not kept",
            where, sdkc_validation_total(val) - n);
    pthread_mutex_lock(&pc->rn->mu);
    for (size_t i = 0; i < sdkc_validation_unchecked_pattern_count(val); i++)
        conform_note_unchecked(pc->rn->r, sdkc_validation_unchecked_pattern(val, i), 0);
    pc->rn->r->unchecked += sdkc_validation_unchecked(val);
    pthread_mutex_unlock(&pc->rn->mu);
    return sdkc_validation_total(val);
}

/* The declared response a status answers (a success, else an error status), or NULL. */
static const sdkc_response_info *response_info(const sdkc_operation *op, int status)
{
    const sdkc_success *sx = success_for(op, status);
    const sdkc_error_status *es = sx ? NULL : error_status(op, status);
    return sx ? &sx->response : es ? &es->response : NULL;
}

/* Required response headers the answer lacks (Content-Type is never a declared header). */
static void judge_headers(probe_ctx *pc, const sdkc_response_info *ri, const sdkrt_response *resp,
                          int status, const char *evidence)
{
    if (!resp || !ri)
        return;
    size_t checked = 0;
    for (size_t i = 0; i < ri->nheaders; i++) {
        const char *name = ri->headers[i].name;
        if (!ri->headers[i].required || strcasecmp(name, "Content-Type") == 0)
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

/* Does ct match one media type the response declares? The one the IR decodes first, then the
 * others. */
static bool media_declared(const char *ir_ct, const sdkc_response_info *ri, const char *ct,
                           sdkc_buf *declared)
{
    bool ok = false;
    if (ir_ct) {
        ok = sdkc_conform_media_match(ir_ct, ct);
        sdkc_buf_puts(declared, ir_ct);
    }
    for (size_t i = 0; ri && i < ri->nmedia_types; i++) {
        const char *mt = ri->media_types[i];
        if (ir_ct && strcmp(mt, ir_ct) == 0)
            continue;
        ok = ok || sdkc_conform_media_match(mt, ct);
        sdkc_buf_printf(declared, "%s%s", declared->len ? ", " : "", mt);
    }
    return ok;
}

static bool is_negative(probe_mode m)
{
    return m == MODE_BAD_CURSOR || m == MODE_MALFORMED_BODY || m == MODE_NO_CREDENTIALS;
}

static bool is_valid(probe_mode m)
{
    return m == MODE_VALID || m == MODE_POSITIVE || m == MODE_POSITIVE_BODY ||
           m == MODE_AFTER_CREATE;
}

/* What each probe provokes, judged once the answer is known. */
static void judge_expectation(probe_ctx *pc, int status, const char *got_tag, const expectation *ex,
                              const char *evidence)
{
    bool ok2xx = status / 100 == 2;
    bool tag_ok = !ex || !ex->tag || (got_tag && strcmp(got_tag, ex->tag) == 0);
    bool declared_ok = !ex || !ex->status || (status == ex->status && tag_ok);
    const char *want_tag = ex && ex->tag ? ex->tag : "";
    switch (pc->mode) {
    case MODE_BAD_CURSOR:
    case MODE_MALFORMED_BODY:
        if (ok2xx)
            ADD(pc, CHECK_NEGATIVE, SDKC_VERDICT_DEVIATION, NULL, NULL,
                "%s was accepted with HTTP %d; %s", ex ? ex->why : "an invalid request", status,
                evidence);
        else if (!declared_ok)
            ADD(pc, CHECK_NEGATIVE, SDKC_VERDICT_DEVIATION, NULL, NULL,
                "%s should give the declared %d%s%s, got %d%s%s; %s", ex->why, ex->status,
                *want_tag ? " " : "", want_tag, status, got_tag ? " " : "", got_tag ? got_tag : "",
                evidence);
        else if (status / 100 == 4)
            ADD(pc, CHECK_NEGATIVE, SDKC_VERDICT_PASS, NULL, NULL, "rejected with %d", status);
        break;
    case MODE_NO_CREDENTIALS:
        if (ok2xx)
            ADD(pc, CHECK_IGNORED_AUTH, SDKC_VERDICT_DEVIATION, NULL, NULL,
                "a request without credentials was served (HTTP %d) where the contract requires "
                "them; %s",
                status, evidence);
        else if (status / 100 == 4)
            ADD(pc, CHECK_IGNORED_AUTH, SDKC_VERDICT_PASS, NULL, NULL, "refused with %d", status);
        break;
    case MODE_UNKNOWN_ID:
        if (declared_ok)
            ADD(pc, CHECK_MISSING, SDKC_VERDICT_PASS, NULL, NULL, "%d %s for %s", ex->status,
                want_tag, ex->why);
        else
            ADD(pc, CHECK_MISSING, SDKC_VERDICT_DEVIATION, NULL, NULL,
                "%s should give the declared %d%s%s, got %d%s%s; %s", ex->why, ex->status,
                *want_tag ? " " : "", want_tag, status, got_tag ? " " : "", got_tag ? got_tag : "",
                evidence);
        break;
    case MODE_AFTER_DELETE:
        if (ok2xx)
            ADD(pc, CHECK_USE_AFTER, SDKC_VERDICT_DEVIATION, NULL, NULL,
                "a deleted resource is still served (HTTP %d); %s", status, evidence);
        else if (status / 100 == 4)
            ADD(pc, CHECK_USE_AFTER, SDKC_VERDICT_PASS, NULL, NULL, "gone: %d", status);
        break;
    case MODE_AFTER_CREATE:
        if (ok2xx)
            ADD(pc, CHECK_AVAILABILITY, SDKC_VERDICT_PASS, NULL, NULL, "created resource served");
        else
            ADD(pc, CHECK_AVAILABILITY, SDKC_VERDICT_DEVIATION, NULL, NULL,
                "a resource just created is not available (HTTP %d); %s", status, evidence);
        break;
    case MODE_VALID:
    case MODE_POSITIVE:
    case MODE_POSITIVE_BODY:
        break;
    }
}

/* Judge status, content type, headers, tag and body of a complete response, then what the probe
 * provokes. Returns the parsed body of a success response (new reference), else NULL. */
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
    pc->status = status;

    if (pc->mode != MODE_NO_CREDENTIALS && (status == 401 || status == 403)) {
        /* Refused: the server could not be exercised; say so, never pass (not even
         * not_a_server_error: a server refusing everything must not count passes). */
        ADD(pc, "probe", SDKC_VERDICT_SKIP, NULL, NULL, "refused (%s); %s",
            rn->have_credentials ? "with the credentials given"
                                 : "the server wants credentials and none are configured (--auth)",
            evidence);
        goto out;
    }
    if (status >= 500)
        ADD(pc, CHECK_SERVER_ERROR, SDKC_VERDICT_DEVIATION, NULL, NULL, "HTTP %d; %s", status,
            evidence);
    else
        ADD(pc, CHECK_SERVER_ERROR, SDKC_VERDICT_PASS, NULL, NULL, "%d", status);
    if (is_valid(pc->mode) || pc->mode == MODE_AFTER_DELETE || pc->mode == MODE_UNKNOWN_ID)
        pc->answered = is_valid(pc->mode);

    const sdkc_success *sx = success_for(op, status);
    bool success = sx != NULL;
    const sdkc_error_status *es = success ? NULL : error_status(op, status);
    const sdkc_response_info *ri = sx ? &sx->response : es ? &es->response : NULL;

    if (!success && !es) {
        /* An invalid request may be refused with any 4xx: APIs seldom declare them all. */
        if (!(is_negative(pc->mode) && status / 100 == 4)) {
            sdkc_buf d = SDKC_BUF_INIT;
            declared_statuses(&d, op);
            ADD(pc, CHECK_STATUS, SDKC_VERDICT_DEVIATION, NULL, NULL,
                "HTTP %d is not declared (declared: %s); %s", status, d.data ? d.data : "",
                evidence);
            sdkc_buf_cleanup(&d);
        }
        goto expect;
    }
    ADD(pc, CHECK_STATUS, SDKC_VERDICT_PASS, NULL, NULL, "%d declared", status);
    judge_headers(pc, ri, resp, status, evidence);

    const char *want_ct = success ? sx->content_type : es ? es->content_type : NULL;
    bool want_body = success ? sx->encoding != SDKC_ENC_NONE
                     : es    ? es->content_type != NULL
                             : false;
    want_body = want_body || (ri && ri->nmedia_types);
    if (!want_body) {
        if (len > 0)
            ADD(pc, CHECK_CONTENT_TYPE, SDKC_VERDICT_DEVIATION, NULL, NULL,
                "%d declares no content, got %zu bytes; %s", status, len, evidence);
        else
            ADD(pc, CHECK_CONTENT_TYPE, SDKC_VERDICT_PASS, NULL, NULL, "no content");
        goto expect;
    }
    if (len == 0 && (!ct || status == 204 || status == 205 || status == 304)) {
        /* 204, 205 and 304 carry no body whatever Content-Type says (RFC 9110 15.3.5, 15.3.6,
           15.4.5): an empty one is no JSON to judge */
        ADD(pc, CHECK_CONTENT_TYPE, SDKC_VERDICT_PASS, NULL, NULL, "empty body");
        goto expect;
    }
    sdkc_buf declared = SDKC_BUF_INIT;
    bool ct_ok = ct && media_declared(want_ct, ri, ct, &declared);
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
       beside JSON) is not judged against it. Every declared 2xx has its own. */
    if (want_ct && !sdkc_conform_media_match(want_ct, ct))
        goto expect;
    if (!success && !want_ct)
        goto expect;

    json_error_t jerr;
    parsed = json_loadb(body ? body : "", len, JSON_DECODE_ANY, &jerr);
    if (!parsed) {
        ADD(pc, CHECK_SCHEMA, SDKC_VERDICT_DEVIATION, "$", "json", "body is not JSON (%s); %s",
            jerr.text, evidence);
        goto expect;
    }
    if (success) {
        if (sx->type && validate_into(pc, CHECK_SCHEMA, sx->type, parsed, evidence) == 0)
            ADD(pc, CHECK_SCHEMA, SDKC_VERDICT_PASS, NULL, NULL, "matches the %d schema", status);
        result = json_incref(parsed);
        goto expect;
    }
    got_tag = json_string_value(json_object_get(parsed, "_tag"));
    if (es->ntags) {
        const sdkc_error_tag *et = error_tag(es, got_tag);
        if (!et) {
            sdkc_buf d = SDKC_BUF_INIT;
            declared_tags(&d, es);
            ADD(pc, CHECK_SCHEMA, SDKC_VERDICT_DEVIATION, "$._tag", "tag",
                "_tag %s%s%s is not declared for %d (declared: %s); %s", got_tag ? "\"" : "",
                got_tag ? got_tag : "missing", got_tag ? "\"" : "", status, d.data ? d.data : "",
                evidence);
            sdkc_buf_cleanup(&d);
            goto expect;
        }
        if (validate_into(pc, CHECK_SCHEMA, et->type, parsed, evidence) == 0)
            ADD(pc, CHECK_SCHEMA, SDKC_VERDICT_PASS, NULL, NULL, "matches %s", got_tag);
    } else if (es->untagged) {
        if (validate_into(pc, CHECK_SCHEMA, es->untagged, parsed, evidence) == 0)
            ADD(pc, CHECK_SCHEMA, SDKC_VERDICT_PASS, NULL, NULL, "matches the error schema");
    }

expect:
    judge_expectation(pc, status, got_tag, ex, evidence);
out:
    json_decref(parsed);
    sdkc_buf_cleanup(&ev);
    return result;
}

/* ---- requests ---- */

typedef struct req_plan {
    probe_mode mode;
    const char *cursor;    /* continuation cursor, or NULL */
    long limit;            /* > 0: send `limit` when the operation has it */
    const json_t *last_id; /* the last path parameter's value, or NULL */
    bool no_id;            /* a branded path parameter had no known value */
    bool made_up;          /* a path parameter had no value from the server or --param */
    char *why;             /* a value that could not be made (new), or NULL */
    bool optional_params;  /* some optional parameter or body field exists */
} req_plan;

/* The text of the path template up to "/{name}": the collection a parameter indexes. */
static char *collection_of(const char *path, const char *name)
{
    sdkc_buf pat = SDKC_BUF_INIT;
    sdkc_buf_printf(&pat, "/{%s}", name);
    const char *at = pat.data ? strstr(path, pat.data) : NULL;
    char *out = NULL;
    if (at) {
        size_t n = (size_t)(at - path);
        out = malloc(n + 2);
        if (out) {
            memcpy(out, path, n);
            out[n] = '\0';
            if (!n) {
                out[0] = '/';
                out[1] = '\0';
            }
        }
    }
    sdkc_buf_cleanup(&pat);
    return out;
}

/* A remembered value made to fit the parameter's type (new), or NULL. */
static json_t *coerce(const sdkc_type *t, const json_t *v)
{
    t = unwrap_nullable(t);
    if (!v || !t)
        return NULL;
    if (t->kind == SDKC_TYPE_INTEGER || t->kind == SDKC_TYPE_NUMBER) {
        if (json_is_number(v))
            return json_deep_copy(v);
        if (json_is_string(v)) {
            char *end = NULL;
            long long ll = strtoll(json_string_value(v), &end, 10);
            if (end && !*end && end != json_string_value(v))
                return json_integer((json_int_t)ll);
        }
        return NULL;
    }
    if (t->kind == SDKC_TYPE_STRING || t->kind == SDKC_TYPE_ANY || t->kind == SDKC_TYPE_UNION) {
        if (json_is_string(v))
            return json_deep_copy(v);
        if (json_is_integer(v)) {
            char buf[32];
            snprintf(buf, sizeof buf, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
            return json_string(buf);
        }
    }
    return NULL;
}

/* v (new, taken) when it is valid for the parameter's type, else NULL: a value remembered from
 * another field must still match this parameter's pattern, bounds or enum. */
static json_t *fitting(worker *wk, const sdkc_param *p, json_t *v)
{
    if (!v)
        return NULL;
    sdkc_validation_reset(wk->val);
    if (sdkc_validate(wk->val, p->type, v, "$") != SDKC_OK || sdkc_validation_total(wk->val) != 0) {
        json_decref(v);
        return NULL;
    }
    return v;
}

/* A value for a path parameter, from what the run knows: an OpenAPI link, --param, a brand, the
 * id of what the collection's creator made, a field of the same name. NULL when none. */
static json_t *known_path_value(worker *wk, const sdkc_operation *op, const sdkc_param *p)
{
    runner *rn = wk->rn;
    sdkc_buf k = SDKC_BUF_INIT;
    sdkc_buf_printf(&k, "%s:%s", op->id, p->wire_name);
    json_t *v = k.data ? fitting(wk, p, coerce(p->type, store_get_str(rn, "link", k.data))) : NULL;
    sdkc_buf_cleanup(&k);
    if (!v)
        v = user_param(rn, p);
    const sdkc_type *t = unwrap_nullable(p->type);
    if (!v && t && t->kind == SDKC_TYPE_STRING && t->u.str.brand && t->u.str.brand->name)
        return coerce(p->type, store_get_str(rn, "brand", t->u.str.brand->name));
    if (!v) {
        char *coll = collection_of(op->path, p->wire_name);
        v = coll ? fitting(wk, p, coerce(p->type, store_get_str(rn, "coll", coll))) : NULL;
        free(coll);
    }
    if (!v)
        v = fitting(wk, p, coerce(p->type, store_get_str(rn, "field", p->wire_name)));
    return v;
}

/* A well-formed value nobody made: a brand's prefix, a string or a large integer. NULL when the
 * type leaves no room (an enum, a pattern, a format). */
static json_t *unknown_value(const sdkc_param *p)
{
    const sdkc_type *t = unwrap_nullable(p->type);
    if (!t)
        return NULL;
    if (t->kind == SDKC_TYPE_STRING && t->u.str.brand) {
        char *u = unknown_id(t->u.str.brand);
        json_t *j = u ? json_string(u) : NULL;
        free(u);
        return j;
    }
    if (t->kind == SDKC_TYPE_STRING && !t->u.str.pattern && !t->u.str.format &&
        (!t->u.str.has_max_length || t->u.str.max_length >= 24) &&
        (!t->u.str.has_min_length || t->u.str.min_length <= 24))
        return json_string("conform0unknown000000000");
    if (t->kind == SDKC_TYPE_INTEGER) {
        double v = 987654321;
        if (t->u.num.has_maximum && t->u.num.maximum < v)
            v = t->u.num.maximum;
        if (t->u.num.has_minimum && v < t->u.num.minimum)
            return NULL;
        return json_integer((json_int_t)v);
    }
    return NULL;
}

static sdkrt_param_spec param_spec(const sdkc_param *p)
{
    sdkrt_param_spec s = {p->wire_name, (sdkrt_param_in)p->in, (sdkrt_param_style)p->style,
                          p->explode, p->allow_reserved};
    return s;
}

static void plan_why(req_plan *plan, const char *what, const char *name, const char *why)
{
    if (plan->why)
        return;
    sdkc_buf b = SDKC_BUF_INIT;
    sdkc_buf_printf(&b, "no valid value for %s %s: %s", what, name, why ? why : "unknown reason");
    plan->why = sdkc_buf_steal(&b, NULL);
    sdkc_buf_cleanup(&b);
}

static bool put_param(sdkrt_request *req, const sdkc_param *p, const json_t *v, req_plan *plan)
{
    sdkrt_param_spec spec = param_spec(p);
    sdkrt_error *err = NULL;
    bool ok = sdkrt_request_add_param(req, &spec, v, &err) == SDKRT_OK;
    if (!ok)
        plan_why(plan, sdkc_param_in_name(p->in), p->wire_name, sdkrt_error_message(err));
    sdkrt_error_free(err);
    return ok;
}

/* Does a value of t have an optional field the positive probe would set, at any depth (in
 * objects, array items, map values and union variants)? */
static bool type_has_optional(const sdkc_type *t, int depth)
{
    if (!t || depth > SDKC_SYNTH_MAX_DEPTH)
        return false;
    switch (t->kind) {
    case SDKC_TYPE_NULLABLE:
        return type_has_optional(t->u.nullable.inner, depth);
    case SDKC_TYPE_OBJECT:
        for (size_t i = 0; i < t->u.object.nfields; i++) {
            const sdkc_field *f = &t->u.object.fields[i];
            if (f->read_only)
                continue;
            if (!f->required || type_has_optional(f->type, depth + 1))
                return true;
        }
        return false;
    case SDKC_TYPE_ARRAY:
        return type_has_optional(t->u.array.items, depth + 1);
    case SDKC_TYPE_MAP:
        return type_has_optional(t->u.map.value, depth + 1);
    case SDKC_TYPE_UNION:
        /* whichever variant the synthesiser picks: a wasted probe at worst */
        for (size_t i = 0; i < t->u.union_.nvariants; i++)
            if (type_has_optional(t->u.union_.variants[i].type, depth + 1))
                return true;
        return false;
    default:
        return false;
    }
}

static bool has_optional_body(const sdkc_operation *op)
{
    return op->body && type_has_optional(op->body->type, 0);
}

static bool has_optional_params(const sdkc_operation *op)
{
    for (size_t i = 0; i < op->nparams; i++)
        if (!op->params[i].required && op->params[i].in != SDKC_PARAM_PATH)
            return true;
    return false;
}

static bool has_optional(const sdkc_operation *op)
{
    return has_optional_params(op) || has_optional_body(op);
}

static void set_security(sdkrt_request *req, const sdkc_operation *op)
{
    if (!op->nsecurity)
        return;
    sdkrt_security_scheme *s = calloc(op->nsecurity, sizeof *s);
    if (!s)
        return;
    for (size_t i = 0; i < op->nsecurity; i++) {
        const sdkc_security_scheme *sc = op->security[i];
        s[i].name = sc->name;
        s[i].with_previous = op->security_with_previous && op->security_with_previous[i];
        if (sc->type && strcmp(sc->type, "apiKey") == 0) {
            s[i].kind = SDKRT_SECURITY_API_KEY;
            s[i].in = sc->in && strcmp(sc->in, "query") == 0    ? SDKRT_IN_QUERY
                      : sc->in && strcmp(sc->in, "cookie") == 0 ? SDKRT_IN_COOKIE
                                                                : SDKRT_IN_HEADER;
            s[i].param = sc->param;
        } else if (sc->type && strcmp(sc->type, "http") == 0 && sc->scheme &&
                   strcasecmp(sc->scheme, "basic") == 0) {
            s[i].kind = SDKRT_SECURITY_HTTP_BASIC;
        } else {
            s[i].kind = SDKRT_SECURITY_HTTP_BEARER; /* bearer, oauth2, openIdConnect */
        }
    }
    sdkrt_request_set_security(req, s, op->nsecurity);
    free(s);
}

/* A body of a single media type that is neither JSON nor a form, whose schema is an object,
   array or map: its bytes are not described (JSON text there would be sdkc's guess). */
static bool raw_container_body(const sdkc_body *b)
{
    const char *mt = b->content_type;
    if (!mt || conform_media_is_json(mt) || strncasecmp(mt, "multipart/", 10) == 0 ||
        strncasecmp(mt, "application/x-www-form-urlencoded", 33) == 0)
        return false;
    const sdkc_type *t = unwrap_nullable(b->type);
    return t && (t->kind == SDKC_TYPE_OBJECT || t->kind == SDKC_TYPE_ARRAY ||
                 t->kind == SDKC_TYPE_MAP || t->kind == SDKC_TYPE_TUPLE);
}

/* The query parameter that sets a page's size: the pagination's own, else `limit`. */
static const sdkc_param *size_param(const sdkc_operation *op)
{
    if (op->pagination && op->pagination->size_param)
        return op->pagination->size_param;
    return param_named(op, SDKC_PARAM_QUERY, "limit");
}

static sdkrt_request *build(worker *wk, const sdkc_operation *op, req_plan *plan, sdkc_buf *desc)
{
    runner *rn = wk->rn;
    sdkrt_request *req = NULL;
    if (sdkrt_request_new(&req, op->method, op->path) != SDKRT_OK)
        return NULL;
    set_security(req, op);
    plan->optional_params = has_optional(op);
    /* The last path parameter is the one probed; the ones before it stay valid so that a 404 is
       about the resource probed. */
    size_t npath = path_param_count(op), seen = 0;
    const char *why = NULL;
    for (size_t i = 0; i < op->nparams; i++) {
        const sdkc_param *p = &op->params[i];
        if (p->in != SDKC_PARAM_PATH)
            continue;
        seen++;
        json_t *v = NULL;
        if (seen == npath && plan->last_id)
            v = json_deep_copy(plan->last_id);
        else if (seen == npath && plan->mode == MODE_UNKNOWN_ID)
            v = unknown_value(p);
        else
            v = known_path_value(wk, op, p);
        if (!v) {
            const sdkc_type *t = unwrap_nullable(p->type);
            if (t && t->kind == SDKC_TYPE_STRING && t->u.str.brand) {
                char *u = unknown_id(t->u.str.brand);
                v = u ? json_string(u) : NULL;
                free(u);
                plan->no_id = true;
            } else {
                v = synth(wk, plan->mode, p->type, &why);
                plan->made_up = true;
                if (json_is_string(v) && json_string_length(v) == 0) {
                    /* the shortest string (minLength 0) is no path segment: the filler,
                       where the schema takes it */
                    json_decref(v);
                    v = fitting(wk, p, json_string("conform"));
                    why = "an empty string is no path segment, and \"conform\" does not fit";
                }
                if (!v)
                    plan_why(plan, "path parameter", p->wire_name, why);
            }
        }
        if (v)
            put_param(req, p, v, plan);
        json_decref(v);
    }
    const char *cursor_name = op->pagination && op->pagination->cursor_param
                                  ? op->pagination->cursor_param->wire_name
                                  : NULL;
    for (size_t i = 0; i < op->nparams; i++) {
        const sdkc_param *p = &op->params[i];
        if (p->in == SDKC_PARAM_PATH)
            continue;
        json_t *v = NULL;
        /* a required page number or offset is sent on the first page too (as any required
           parameter, below) */
        if (cursor_name && p->in == SDKC_PARAM_QUERY && strcmp(p->wire_name, cursor_name) == 0 &&
            (plan->mode == MODE_BAD_CURSOR || plan->cursor || !p->required)) {
            if (plan->mode == MODE_BAD_CURSOR)
                v = json_string("conform-not-a-cursor");
            else if (plan->cursor)
                v = json_string(plan->cursor);
        } else if (plan->limit > 0 && p == size_param(op)) {
            v = json_integer(plan->limit);
        } else if ((v = user_param(rn, p)) != NULL) {
            /* given on the command line */
        } else if (p->required || plan->mode == MODE_POSITIVE) {
            v = synth(wk, plan->mode, p->type, &why);
            if (!v && p->required)
                plan_why(plan, sdkc_param_in_name(p->in), p->wire_name, why);
        }
        if (v)
            put_param(req, p, v, plan);
        json_decref(v);
    }
    const char *left_out = NULL;
    if (op->body && raw_container_body(op->body)) {
        /* JSON text under a media type that is not JSON is a guess, not the bytes the contract
           describes: an optional body is left out, a required one has no valid value. */
        if (op->body->required)
            plan_why(plan, "body", op->body->content_type,
                     "a structured schema for a media type that is neither JSON nor a form");
        else
            left_out = op->body->content_type;
    } else if (op->body) {
        const char *mt = op->body->content_type ? op->body->content_type : "application/json";
        if (plan->mode == MODE_MALFORMED_BODY) {
            static const char bad[] = "{\"conform\": ";
            sdkrt_request_set_body(req, mt, bad, sizeof bad - 1);
        } else {
            json_t *b = synth(wk, plan->mode, op->body->type, &why);
            if (!b) {
                plan_why(plan, "body", mt, why);
            } else {
                sdkrt_body_encoding enc[32];
                size_t nenc = op->body->nencodings < 32 ? op->body->nencodings : 32;
                for (size_t i = 0; i < nenc; i++) {
                    const sdkc_body_encoding *e = &op->body->encodings[i];
                    enc[i].property = e->property;
                    enc[i].content_type = e->content_type;
                    enc[i].style = (sdkrt_param_style)e->style;
                    enc[i].explode = e->explode;
                    enc[i].allow_reserved = e->allow_reserved;
                    enc[i].has_style = e->has_style;
                }
                sdkrt_error *err = NULL;
                if (sdkrt_request_set_body_as(req, mt, b, enc, nenc, NULL, NULL, 0, &err) !=
                    SDKRT_OK)
                    plan_why(plan, "body", mt, sdkrt_error_message(err));
                sdkrt_error_free(err);
            }
            json_decref(b);
        }
    }
    char *target = NULL;
    sdkrt_error *err = NULL;
    if (sdkrt_request_target(&target, req, &err) == SDKRT_OK)
        sdkc_buf_printf(desc, "%s %s", op->method, target);
    else
        sdkc_buf_printf(desc, "%s %s", op->method, op->path);
    if (left_out)
        sdkc_buf_printf(desc, " (no %s body: its schema is structured)", left_out);
    free(target);
    sdkrt_error_free(err);
    return req;
}
/* ---- streams: a watchdog cancels the stream if it does not open within the request timeout,
 * and stream_ms after it opened ---- */

typedef struct watchdog {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool done, started;
    struct timespec until; /* CLOCK_REALTIME; moved by watchdog_rearm */
    sdkrt_cancel *cancel;
    const sdkrt_cancel *run; /* the run's token (an interrupt), or NULL */
} watchdog;

static struct timespec realtime_in(long ms)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_sec += ms / 1000;
    t.tv_nsec += (ms % 1000) * 1000000L;
    if (t.tv_nsec >= 1000000000L) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000L;
    }
    return t;
}

static void *watchdog_main(void *arg)
{
    watchdog *w = arg;
    pthread_mutex_lock(&w->mu);
    for (;;) {
        if (w->done)
            break;
        struct timespec until = w->until;
        /* an interrupt is seen within 50 ms */
        struct timespec slice = realtime_in(50);
        bool sliced = w->run && (slice.tv_sec < until.tv_sec ||
                                 (slice.tv_sec == until.tv_sec && slice.tv_nsec < until.tv_nsec));
        int rc = pthread_cond_timedwait(&w->cv, &w->mu, sliced ? &slice : &until);
        if (w->run && sdkrt_cancel_is_triggered(w->run))
            break;
        /* a rearm moved the deadline: wait again for the new one */
        if (rc == ETIMEDOUT && !sliced && w->until.tv_sec == until.tv_sec &&
            w->until.tv_nsec == until.tv_nsec)
            break;
    }
    bool fire = !w->done;
    pthread_mutex_unlock(&w->mu);
    if (fire)
        sdkrt_cancel_trigger(w->cancel);
    return NULL;
}

/* Fire ms from now instead (the stream opened: watch it for stream_ms). */
static void watchdog_rearm(watchdog *w, long ms)
{
    if (!w->started)
        return;
    pthread_mutex_lock(&w->mu);
    w->until = realtime_in(ms);
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

static bool watchdog_start(watchdog *w, sdkrt_cancel *c, const sdkrt_cancel *run, long ms)
{
    memset(w, 0, sizeof *w);
    w->cancel = c;
    w->run = run;
    w->until = realtime_in(ms);
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
        ADD(pc, CHECK_SCHEMA, SDKC_VERDICT_DEVIATION, "event:", "event",
            "event type \"%s\" is not declared (%s%s); %s", e->event,
            st->failure_event ? "only data frames and " : "only data frames",
            st->failure_event ? st->failure_event : "", w);
        sdkc_buf_cleanup(&where);
        return;
    }
    if (failure) {
        json_t *cause = json_loadb(e->data, e->data_len, JSON_DECODE_ANY, NULL);
        if (!cause)
            ADD(pc, CHECK_SCHEMA, SDKC_VERDICT_DEVIATION, "$", "json",
                "failure data is not JSON; %s", w);
        else if (!st->cause || validate_into(pc, CHECK_SCHEMA, st->cause, cause, w) == 0)
            ADD(pc, CHECK_SCHEMA, SDKC_VERDICT_PASS, NULL, NULL, "declared failure frame");
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
        bad = validate_into(pc, CHECK_SCHEMA, st->frame, frame, w);
        json_decref(frame);
    } else {
        json_t *item = json_loadb(e->data, e->data_len, JSON_DECODE_ANY, NULL);
        if (!item) {
            ADD(pc, CHECK_SCHEMA, SDKC_VERDICT_DEVIATION, "$.data", "json-string",
                "data is not JSON; %s", w);
            sdkc_buf_cleanup(&where);
            return;
        }
        bad = st->item ? validate_into(pc, CHECK_SCHEMA, st->item, item, w) : 0;
        json_decref(item);
    }
    if (bad == 0)
        ADD(pc, CHECK_SCHEMA, SDKC_VERDICT_PASS, NULL, NULL, "frames match their schema");
    sdkc_buf_cleanup(&where);
}

/* What a probe brought back. */
typedef struct probe_out {
    json_t *body;   /* the success body (new), or NULL */
    int status;     /* 0: no answer */
    char *location; /* a Location header (new), or NULL */
    bool answered;  /* a valid probe got an answer that was not a refusal */
} probe_out;

static void probe_out_cleanup(probe_out *o)
{
    json_decref(o->body);
    free(o->location);
    memset(o, 0, sizeof *o);
}

/* A stream opening: once a 2xx status and headers arrive, it is watched for stream_ms (cut to
 * what is left of --max-time). */
typedef struct stream_watch {
    runner *rn;
    watchdog *wd;
    bool opened;
    long watch_ms; /* what the watch was rearmed to */
} stream_watch;

static void stream_opened(void *userdata, int status, const sdkrt_header *headers, size_t count)
{
    (void)headers;
    (void)count;
    stream_watch *sw = userdata;
    if (status / 100 != 2 || sw->opened)
        return;
    sw->opened = true;
    sw->watch_ms = request_timeout(sw->rn, sw->rn->stream_ms);
    watchdog_rearm(sw->wd, sw->watch_ms);
}

static void run_stream(probe_ctx *pc, sdkrt_client *client, sdkrt_request *req,
                       const expectation *ex)
{
    runner *rn = pc->rn;
    const sdkc_operation *op = pc->op;
    sdkrt_stream *stream = NULL;
    sdkrt_cancel *cancel = NULL;
    sdkrt_error *err = NULL;
    watchdog wd;
    bool wd_ok = false;
    memset(&wd, 0, sizeof wd);
    stream_watch sw = {rn, &wd, false, rn->stream_ms};
    if (sdkrt_cancel_new(&cancel) != SDKRT_OK) {
        rn->r->oom = true;
        goto done;
    }
    /* Opened within the request timeout (--timeout-ms, as a unary call: headers may come late),
     * then watched for stream_ms; the idle timeout between bytes is the request timeout too. */
    sdkrt_call_options co = SDKRT_CALL_OPTIONS_INIT;
    co.cancel = cancel;
    co.timeout_ms = request_timeout(rn, rn->timeout_ms);
    co.on_response = stream_opened;
    co.userdata = &sw;
    long open_ms = co.timeout_ms;
    /* watched from the start: an interrupt ends the wait for the stream's headers too */
    wd_ok = watchdog_start(&wd, cancel, rn->opts->cancel, open_ms);
    if (sdkrt_client_stream(client, req, &co, &stream, &err) != SDKRT_OK) {
        ADD(pc, "transport", SDKC_VERDICT_SKIP, NULL, NULL, "could not open the stream: %s",
            sdkrt_error_message(err));
        goto done;
    }
    size_t frames = 0;
    for (;;) {
        sdkrt_stream_event e;
        sdkrt_error *serr = NULL;
        sdkrt_stream_result sr = sdkrt_stream_next(stream, &e, &serr);
        if (sr == SDKRT_STREAM_EVENT) {
            if (frames == 0) {
                int st = sdkrt_stream_status(stream);
                pc->status = st;
                pc->answered = is_valid(pc->mode);
                if (st == op->success.status || (op->success.status < 100 && st / 100 == 2)) {
                    ADD(pc, CHECK_STATUS, SDKC_VERDICT_PASS, NULL, NULL, "%d declared", st);
                    ADD(pc, CHECK_CONTENT_TYPE, SDKC_VERDICT_PASS, NULL, NULL, "text/event-stream");
                } else {
                    ADD(pc, CHECK_STATUS, SDKC_VERDICT_DEVIATION, NULL, NULL,
                        "stream opened with HTTP %d, declared %d; %s", st, op->success.status,
                        pc->desc);
                }
                if (ex && ex->status)
                    judge_expectation(pc, st, NULL, ex, pc->desc);
            }
            judge_frame(pc, &e, frames);
            if (++frames >= MAX_FRAMES)
                break;
            continue;
        }
        if (sr == SDKRT_STREAM_END) {
            if (frames == 0)
                ADD(pc, CHECK_SCHEMA, SDKC_VERDICT_SKIP, NULL, NULL,
                    "the stream ended without a frame; %s", pc->desc);
            sdkrt_error_free(serr);
            break;
        }
        sdkrt_reason why = sdkrt_error_reason(serr);
        if (why == SDKRT_REASON_UNEXPECTED_STATUS) {
            size_t blen = 0;
            const char *b = sdkrt_error_body(serr, &blen);
            json_decref(judge(pc, sdkrt_error_status(serr), sdkrt_error_content_type(serr), b, blen,
                              ex, NULL));
        } else if (why == SDKRT_REASON_UNSUPPORTED_CONTENT_TYPE) {
            size_t blen = 0;
            const char *b = sdkrt_error_body(serr, &blen);
            sdkc_buf ev = SDKC_BUF_INIT;
            snippet(&ev, b, blen);
            pc->answered = is_valid(pc->mode);
            ADD(pc, CHECK_CONTENT_TYPE, SDKC_VERDICT_DEVIATION, NULL, NULL,
                "expected text/event-stream, got %s with HTTP %d; %s: %s",
                sdkrt_error_content_type(serr) ? sdkrt_error_content_type(serr) : "none",
                sdkrt_error_status(serr), pc->desc, ev.data ? ev.data : "");
            sdkc_buf_cleanup(&ev);
        } else if (why == SDKRT_REASON_TIMEOUT || why == SDKRT_REASON_CANCELLED) {
            bool opened = sw.opened || sdkrt_stream_status(stream) != 0;
            /* As send_probe: only a wait of the whole --timeout-ms is a timeout deviation; a
             * wait cut by --max-time (or an interrupt) is a skip. */
            bool cut = open_ms < rn->timeout_ms || past_deadline(rn);
            if (frames == 0 && !opened && cut)
                ADD(pc, "probe", SDKC_VERDICT_SKIP, NULL, NULL,
                    "cut short by %s after %ld ms, the stream not open; %s",
                    rn->opts->stop && *rn->opts->stop ? "an interrupt" : "--max-time", open_ms,
                    pc->desc);
            else if (frames == 0 && !opened && check_on(rn, CHECK_TIMEOUT))
                ADD(pc, CHECK_TIMEOUT, SDKC_VERDICT_DEVIATION, NULL, NULL,
                    "the stream did not open within %ld ms; %s", open_ms, pc->desc);
            else if (frames == 0 && !opened)
                ADD(pc, "probe", SDKC_VERDICT_SKIP, NULL, NULL,
                    "the stream did not open within %ld ms (the timeout check is off); %s", open_ms,
                    pc->desc);
            else if (frames == 0)
                ADD(pc, CHECK_SCHEMA, SDKC_VERDICT_SKIP, NULL, NULL, "no frame within %ld ms; %s",
                    sw.watch_ms, pc->desc);
        } else if (why == SDKRT_REASON_TRANSPORT && frames == 0 &&
                   sdkrt_stream_status(stream) == 0) {
            ADD(pc, "transport", SDKC_VERDICT_SKIP, NULL, NULL, "not probed: %s",
                sdkrt_error_message(serr));
        } else {
            ADD(pc, CHECK_SCHEMA, SDKC_VERDICT_DEVIATION, "stream", "sse",
                "malformed event stream after %zu frame%s: %s; %s", frames, frames == 1 ? "" : "s",
                sdkrt_error_message(serr), pc->desc);
        }
        sdkrt_error_free(serr);
        break;
    }
done:
    if (wd_ok)
        watchdog_stop(&wd);
    sdkrt_stream_close(stream);
    sdkrt_cancel_free(cancel);
    sdkrt_error_free(err);
}

/* Send a probe and judge it; *out gets what came back. */
static void send_probe(probe_ctx *pc, sdkrt_client *client, sdkrt_request *req,
                       const expectation *ex, probe_out *out, sdkrt_response **keep);

static void run_probe(worker *wk, const sdkc_operation *op, const char *probe, req_plan *plan,
                      const expectation *ex, probe_out *out)
{
    runner *rn = wk->rn;
    sdkc_buf desc = SDKC_BUF_INIT;
    sdkrt_request *req = build(wk, op, plan, &desc);
    probe_ctx pc = {wk, rn, op, probe, desc.data ? desc.data : op->path, plan->mode, 0, false};
    sdkrt_client *client = plan->mode == MODE_NO_CREDENTIALS ? wk->anon : wk->client;
    memset(out, 0, sizeof *out);
    if (!req)
        rn->r->oom = true;
    else if (plan->why)
        ADD(&pc, "probe", SDKC_VERDICT_SKIP, NULL, NULL, "%s", plan->why);
    else
        send_probe(&pc, client, req, ex, out, NULL);
    sdkrt_request_free(req);
    sdkc_buf_cleanup(&desc);
}

/* Send req (borrowed; a stream reads it) as pc's probe and judge the answer into out. keep, when
 * not NULL, gets the response (new; NULL when there was none) for a caller that reads more of it.
 */
static void send_probe(probe_ctx *pc, sdkrt_client *client, sdkrt_request *req,
                       const expectation *ex, probe_out *out, sdkrt_response **keep)
{
    runner *rn = pc->rn;
    const sdkc_operation *op = pc->op;
    sdkrt_response *resp = NULL;
    sdkrt_error *err = NULL;
    if (keep)
        *keep = NULL;
    free(pc->wk->curl); /* the line of this probe's request, once sent */
    pc->wk->curl = NULL;
    if (past_deadline(rn)) {
        ADD(pc, "probe", SDKC_VERDICT_SKIP, NULL, NULL, "not sent: the run was stopped (%s)",
            rn->opts->stop && *rn->opts->stop ? "interrupted" : "--max-time reached");
        goto done;
    }
    if (op->stream && op->success.encoding == SDKC_ENC_SSE) {
        run_stream(pc, client, req, ex);
        goto done;
    }
    sdkrt_call_options co = SDKRT_CALL_OPTIONS_INIT;
    co.timeout_ms = request_timeout(rn, rn->timeout_ms);
    co.cancel = rn->opts->cancel;
    if (sdkrt_client_send(client, req, &co, &resp, &err) != SDKRT_OK) {
        if (sdkrt_error_reason(err) == SDKRT_REASON_TIMEOUT && co.timeout_ms == rn->timeout_ms &&
            pc->mode == MODE_MALFORMED_BODY) {
            pthread_mutex_lock(&rn->mu);
            if (!rn->malformed_hang && !(rn->malformed_hang = xstrdup(pc->desc)))
                rn->r->oom = true;
            pthread_mutex_unlock(&rn->mu);
        }
        if (sdkrt_error_reason(err) == SDKRT_REASON_CANCELLED)
            ADD(pc, "probe", SDKC_VERDICT_SKIP, NULL, NULL, "cut short by an interrupt; %s",
                pc->desc);
        else if (sdkrt_error_reason(err) == SDKRT_REASON_TIMEOUT &&
                 co.timeout_ms == rn->timeout_ms && check_on(rn, CHECK_TIMEOUT))
            ADD(pc, CHECK_TIMEOUT, SDKC_VERDICT_DEVIATION, NULL, NULL,
                "no answer within %ld ms; %s", co.timeout_ms, pc->desc);
        else if (sdkrt_error_reason(err) == SDKRT_REASON_TIMEOUT && co.timeout_ms == rn->timeout_ms)
            ADD(pc, "probe", SDKC_VERDICT_SKIP, NULL, NULL,
                "no answer within %ld ms (the timeout check is off); %s", co.timeout_ms, pc->desc);
        else if (sdkrt_error_reason(err) == SDKRT_REASON_TIMEOUT)
            ADD(pc, "probe", SDKC_VERDICT_SKIP, NULL, NULL,
                "cut short by --max-time after %ld ms; %s", co.timeout_ms, pc->desc);
        else
            /* The message ends with its reason already: "... (TRANSPORT)". */
            ADD(pc, "transport", SDKC_VERDICT_SKIP, NULL, NULL, "not probed: %s",
                sdkrt_error_message(err));
        goto done;
    }
    size_t blen = 0;
    const char *body = sdkrt_response_body(resp, &blen);
    logf_(rn, "  %-16s %s -> %d", pc->probe, pc->desc, sdkrt_response_status(resp));
    out->body = judge(pc, sdkrt_response_status(resp), sdkrt_response_content_type(resp), body,
                      blen, ex, resp);
    const char *loc = sdkrt_response_header(resp, "Location");
    out->location = loc ? xstrdup(loc) : NULL;
done:
    out->status = pc->status;
    out->answered = pc->answered;
    if (keep)
        *keep = resp;
    else
        sdkrt_response_free(resp);
    sdkrt_error_free(err);
}
static json_t *items_of(const sdkc_pagination *pg, const json_t *page)
{
    if (!pg->items_field)
        return json_is_array(page) ? (json_t *)page : NULL;
    json_t *v = json_object_get(page, pg->items_field);
    if (v)
        return v;
    v = (json_t *)page;
    for (const char *f = pg->items_field; v && *f;) {
        size_t n = strcspn(f, ".");
        char key[128];
        if (n >= sizeof key)
            return NULL;
        memcpy(key, f, n);
        key[n] = '\0';
        v = json_object_get(v, key);
        f += n + (f[n] == '.');
    }
    return v;
}

static const char *cursor_of(const sdkc_pagination *pg, const json_t *page, const char *field)
{
    if (!field)
        return NULL;
    json_t *c = json_object_get(page, pg->cursor_field ? pg->cursor_field : "cursor");
    const char *s = json_string_value(json_object_get(c, field));
    return s && *s ? s : NULL;
}

/* An item's identity across pages: its id (the pagination's item id field, else `id`; a string
 * or an integer), else the whole item. */
static char *item_key(const sdkc_pagination *pg, const json_t *item)
{
    const json_t *id = json_object_get(item, pg->item_id_field ? pg->item_id_field : "id");
    if (json_is_string(id))
        return xstrdup(json_string_value(id));
    if (json_is_integer(id)) {
        char buf[32];
        snprintf(buf, sizeof buf, "%" JSON_INTEGER_FORMAT, json_integer_value(id));
        return xstrdup(buf);
    }
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
static json_t *fetch_page(worker *wk, const sdkc_operation *op, const char *cursor, long limit,
                          const char *probe)
{
    req_plan plan = {MODE_VALID, cursor, limit, NULL, false, false, NULL, false};
    probe_out out;
    run_probe(wk, op, probe, &plan, NULL, &out);
    free(plan.why);
    json_t *body = out.body;
    out.body = NULL;
    probe_out_cleanup(&out);
    return body;
}

/* The size to ask for: want, within the size parameter's bounds. */
static long page_size(const sdkc_operation *op, long want)
{
    const sdkc_param *sp = size_param(op);
    const sdkc_type *t = sp ? unwrap_nullable(sp->type) : NULL;
    if (t && (t->kind == SDKC_TYPE_INTEGER || t->kind == SDKC_TYPE_NUMBER)) {
        if (t->u.num.has_maximum && want > (long)t->u.num.maximum)
            want = (long)t->u.num.maximum - t->u.num.exclusive_maximum;
        if (t->u.num.has_minimum && want < (long)t->u.num.minimum)
            want = (long)t->u.num.minimum + t->u.num.exclusive_minimum;
    }
    return want;
}

/* The engine's descriptor of an operation's pagination (strings borrowed from the IR), as the
 * C emitter writes it. */
static sdkrt_page_desc page_desc(const sdkc_pagination *pg)
{
    sdkrt_page_desc d = SDKRT_PAGE_DESC_INIT;
    d.style = (sdkrt_page_style)pg->style; /* the same order */
    d.items = pg->items_field;
    d.next = pg->next_field;
    d.param = pg->cursor_param ? pg->cursor_param->wire_name : NULL;
    d.has_more = pg->has_more_field;
    d.item_id = pg->item_id_field;
    d.size_param = pg->size_param ? pg->size_param->wire_name : NULL;
    return d;
}

/* One page of PAGE_BIG items, the reference a walk's items are compared with (sizes allowing):
 * its keys in order, and whether it was the whole list (no next page). */
typedef struct reference {
    key_list keys;
    bool whole;
    bool have;
} reference;

static void reference_fetch(worker *wk, const sdkc_operation *op, reference *ref)
{
    const sdkc_pagination *pg = op->pagination;
    memset(ref, 0, sizeof *ref);
    long big = page_size(op, PAGE_BIG);
    if (!size_param(op) || big <= page_size(op, PAGE_LIMIT))
        return;
    req_plan plan = {MODE_VALID, NULL, big, NULL, false, false, NULL, false};
    sdkc_buf desc = SDKC_BUF_INIT;
    sdkrt_request *req = build(wk, op, &plan, &desc);
    probe_ctx pc = {wk,         wk->rn, op,   "page-walk", desc.data ? desc.data : op->path,
                    MODE_VALID, 0,      false};
    probe_out out;
    sdkrt_response *resp = NULL;
    memset(&out, 0, sizeof out);
    if (req && !plan.why)
        send_probe(&pc, wk->client, req, NULL, &out, &resp);
    json_t *items = out.body ? items_of(pg, out.body) : NULL;
    if (json_is_array(items)) {
        ref->have = true;
        for (size_t i = 0; i < json_array_size(items); i++)
            if (!keys_push(&ref->keys, item_key(pg, json_array_get(items, i))))
                wk->rn->r->oom = true;
        sdkrt_page_desc d = page_desc(pg);
        sdkrt_request *next = NULL;
        sdkrt_error *err = NULL;
        if (pg->style == SDKC_PAGE_CURSOR_OBJECT)
            ref->whole = !cursor_of(pg, out.body, pg->next_field);
        else if (sdkrt_page_next(&next, wk->client, &d, req, resp, &err) == SDKRT_OK)
            ref->whole = !next;
        sdkrt_request_free(next);
        sdkrt_error_free(err);
    }
    probe_out_cleanup(&out);
    sdkrt_response_free(resp);
    sdkrt_request_free(req);
    free(plan.why);
    sdkc_buf_cleanup(&desc);
}

/* Every item of the reference that the walk reached must have come: all of them when both the
 * walk and the reference went to the end, else those up to the last one the walk saw. Items of a
 * whole reference are the only ones a walk may give. Returns whether a deviation was added. */
static bool reference_compare(probe_ctx *pc, const reference *ref, const key_list *walk,
                              bool walk_whole, size_t pages)
{
    if (!ref->have)
        return false;
    size_t upto = ref->keys.n;
    if (!walk_whole) {
        upto = 0;
        for (size_t i = 0; i < ref->keys.n; i++)
            if (keys_has(walk, ref->keys.keys[i]))
                upto = i + 1;
    }
    size_t lost = 0;
    const char *first = NULL;
    for (size_t i = 0; i < upto; i++)
        if (!keys_has(walk, ref->keys.keys[i]) && !lost++)
            first = ref->keys.keys[i];
    if (lost) {
        ADD(pc, CHECK_PAGINATION, SDKC_VERDICT_DEVIATION, NULL, "loss",
            "%zu item%s of one page of %zu never came in a walk of %zu pages: %s%s", lost,
            lost == 1 ? "" : "s", ref->keys.n, pages, first, lost > 1 ? ", ..." : "");
        return true;
    }
    for (size_t i = 0; ref->whole && i < walk->n; i++)
        if (!keys_has(&ref->keys, walk->keys[i])) {
            ADD(pc, CHECK_PAGINATION, SDKC_VERDICT_DEVIATION, NULL, "extra",
                "item %s came in the walk but not in one page of all %zu items", walk->keys[i],
                ref->keys.n);
            return true;
        }
    return false;
}

/* Is the pagination's items field an optional field of the success result? (A top-level array
 * or a nested path is never optional here.) */
static bool items_optional(const sdkc_operation *op)
{
    const sdkc_pagination *pg = op->pagination;
    const sdkc_type *t = unwrap_nullable(op->success.type);
    if (!pg || !pg->items_field || strchr(pg->items_field, '.') || !t ||
        t->kind != SDKC_TYPE_OBJECT)
        return false;
    for (size_t i = 0; i < t->u.object.nfields; i++)
        if (strcmp(t->u.object.fields[i].wire_name, pg->items_field) == 0)
            return !t->u.object.fields[i].required;
    return false;
}

/* Walk forward as the runtime's engine (and so every generated SDK) does, from a first page of
 * PAGE_LIMIT items until no next page, at most MAX_PAGES: no item may come twice, no request
 * come back, and the items must be those of one big page (the reference). */
static void engine_walk(worker *wk, const sdkc_operation *op)
{
    runner *rn = wk->rn;
    const sdkc_pagination *pg = op->pagination;
    sdkrt_page_desc d = page_desc(pg);
    reference ref;
    key_list items = {0};
    size_t pages = 0;
    bool bad = false, whole = false, cut = false;
    sdkrt_page_walk *walk = NULL;
    reference_fetch(wk, op, &ref);
    long small = size_param(op) ? page_size(op, PAGE_LIMIT) : 0;
    req_plan plan = {MODE_VALID, NULL, small, NULL, false, false, NULL, false};
    sdkc_buf desc = SDKC_BUF_INIT;
    sdkrt_request *req = build(wk, op, &plan, &desc);
    probe_ctx pc = {wk, rn, op, "page-walk", op->path, MODE_VALID, 0, false};
    if (!req || plan.why || sdkrt_page_walk_new(&walk, NULL, NULL) != SDKRT_OK) {
        ADD(&pc, CHECK_PAGINATION, SDKC_VERDICT_SKIP, NULL, NULL, "the first page: %s",
            plan.why ? plan.why : "out of memory");
        goto done;
    }
    while (req && pages < MAX_PAGES && !bad) {
        char *target = NULL;
        sdkrt_error *err = NULL;
        if (sdkrt_request_target(&target, req, &err) != SDKRT_OK) {
            ADD(&pc, CHECK_PAGINATION, SDKC_VERDICT_SKIP, NULL, NULL, "page %zu: %s", pages + 1,
                sdkrt_error_message(err));
            sdkrt_error_free(err);
            break;
        }
        sdkc_buf_reset(&desc);
        sdkc_buf_printf(&desc, "%s %s", sdkrt_request_method(req), target);
        free(target);
        pc.desc = desc.data;
        probe_out out;
        sdkrt_response *resp = NULL;
        memset(&out, 0, sizeof out);
        send_probe(&pc, wk->client, req, NULL, &out, &resp);
        json_t *its = out.body ? items_of(pg, out.body) : NULL;
        json_t *none = NULL;
        if (!its && out.body && items_optional(op)) {
            /* an optional items array left out: a page of no items, not a deviation */
            its = none = json_array();
            if (!none)
                rn->r->oom = true;
        }
        if (!json_is_array(its)) {
            if (out.body)
                ADD(&pc, CHECK_PAGINATION, SDKC_VERDICT_DEVIATION, NULL, "items",
                    "page %zu has no items array; %s", pages + 1, pc.desc);
            else /* the answer was judged (or skipped) as a probe of its own */
                ADD(&pc, CHECK_PAGINATION, SDKC_VERDICT_SKIP, NULL, NULL,
                    "the walk stopped: page %zu gave no success body; %s", pages + 1, pc.desc);
            cut = !out.body;
            bad = bad || out.body;
            probe_out_cleanup(&out);
            sdkrt_response_free(resp);
            break;
        }
        pages++;
        for (size_t i = 0; i < json_array_size(its); i++) {
            char *k = item_key(pg, json_array_get(its, i));
            if (k && keys_has(&items, k)) {
                ADD(&pc, CHECK_PAGINATION, SDKC_VERDICT_DEVIATION, NULL, "repeat",
                    "item %s came again on page %zu; %s", k, pages, pc.desc);
                bad = true;
                free(k);
                continue;
            }
            if (!keys_push(&items, k))
                rn->r->oom = true;
        }
        json_decref(none);
        sdkrt_request *next = NULL;
        /* the runtime's rules for pages that would go on forever, as every SDK applies them */
        if (sdkrt_page_next(&next, wk->client, &d, req, resp, &err) != SDKRT_OK ||
            sdkrt_page_walk_step(walk, wk->client, req, resp, json_array_size(its), next, &err) !=
                SDKRT_OK) {
            const char *msg = sdkrt_error_message(err);
            if (msg && strstr(msg, "leaves the API's origin")) {
                /* Not following another origin is the client's safety policy (credentials go
                   nowhere else), not something the contract forbids: a note, and the walk
                   ends there. */
                ADD(&pc, CHECK_PAGINATION, SDKC_VERDICT_SKIP, NULL, NULL,
                    "the walk stopped after page %zu: %s; %s", pages, msg, pc.desc);
                cut = true;
            } else if (msg && strstr(msg, ENDLESS)) {
                ADD(&pc, CHECK_PAGINATION, SDKC_VERDICT_DEVIATION, NULL, "endless",
                    "the walk stopped at page %zu: %s; %s", pages, msg, pc.desc);
                bad = true;
            } else {
                ADD(&pc, CHECK_PAGINATION, SDKC_VERDICT_DEVIATION, NULL, "next",
                    "no next page can be made of page %zu: %s; %s", pages, msg, pc.desc);
                bad = true;
            }
            sdkrt_error_free(err);
            sdkrt_request_free(next);
            next = NULL;
        }
        whole = !next && !bad && !cut;
        probe_out_cleanup(&out);
        sdkrt_response_free(resp);
        sdkrt_request_free(req);
        req = next;
    }
    if (!bad && reference_compare(&pc, &ref, &items, whole, pages))
        bad = true;
    if (!bad && !cut && pages)
        ADD(&pc, CHECK_PAGINATION, SDKC_VERDICT_PASS, NULL, NULL,
            "%zu items over %zu pages%s, no repeat%s", items.n, pages,
            whole ? "" : " (stopped at the bound)",
            ref.have ? ", none lost" : " (losses not checked: no page size to ask one big page)");
done:
    sdkrt_request_free(req);
    free(plan.why);
    sdkc_buf_cleanup(&desc);
    keys_free(&items);
    keys_free(&ref.keys);
    sdkrt_page_walk_free(walk);
}

/* Walk from the first page forward with `next`, then back with `previous` from the last page:
 * no item may repeat, and the way back must see the items of the way forward. */
static void page_walk(worker *wk, const sdkc_operation *op)
{
    runner *rn = wk->rn;
    const sdkc_pagination *pg = op->pagination;
    probe_ctx pc = {wk, rn, op, "page-walk", op->path, MODE_VALID, 0, false};
    long limit = param_named(op, SDKC_PARAM_QUERY, "limit") ? PAGE_LIMIT : 0;
    key_list fwd = {0}, back = {0};
    reference ref;
    reference_fetch(wk, op, &ref);
    json_t *page = fetch_page(wk, op, NULL, limit, "page-walk");
    json_t *last = NULL;
    size_t pages = 0, last_page_items = 0;
    bool bad = false, whole = false;
    sdkrt_page_walk *walk = NULL;
    char *sent = NULL; /* the cursor that fetched page */
    const char *param = pg->cursor_param ? pg->cursor_param->wire_name : "cursor";
    if (sdkrt_page_walk_new(&walk, NULL, NULL) != SDKRT_OK)
        rn->r->oom = true;
    if (!page || !walk) {
        ADD(&pc, CHECK_PAGINATION, SDKC_VERDICT_SKIP, NULL, NULL,
            "the first page could not be read");
        goto done;
    }
    while (page && pages < MAX_PAGES) {
        json_t *items = items_of(pg, page);
        size_t n = json_array_size(items);
        pages++;
        for (size_t i = 0; i < n; i++) {
            char *k = item_key(pg, json_array_get(items, i));
            if (k && keys_has(&fwd, k)) {
                ADD(&pc, CHECK_PAGINATION, SDKC_VERDICT_DEVIATION, NULL, "repeat",
                    "walking forward, item %s came again on page %zu", k, pages);
                bad = true;
                free(k);
                continue;
            }
            if (!keys_push(&fwd, k))
                rn->r->oom = true;
        }
        const char *next = cursor_of(pg, page, pg->next_field);
        /* as the SDKs walk: on while there is a next cursor (empty pages too), until the
           runtime's rules say the pages would not end */
        sdkrt_error *err = NULL;
        if (sdkrt_page_walk_cursor(walk, param, sent, n, next, &err) != SDKRT_OK) {
            ADD(&pc, CHECK_PAGINATION, SDKC_VERDICT_DEVIATION, NULL, "endless",
                "walking forward, the walk stopped at page %zu: %s", pages,
                sdkrt_error_message(err));
            sdkrt_error_free(err);
            bad = true;
            break;
        }
        if (!next) {
            whole = true;
            break;
        }
        free(sent);
        sent = xstrdup(next);
        if (n > 0) {
            json_decref(last);
            last = page;
            last_page_items = n;
        } else {
            json_decref(page);
        }
        page = fetch_page(wk, op, sent, limit, "page-walk");
    }
    if (!page && !whole && !bad) { /* that answer was judged as a probe of its own */
        ADD(&pc, CHECK_PAGINATION, SDKC_VERDICT_SKIP, NULL, NULL,
            "the walk stopped: page %zu gave no success body", pages + 1);
        goto done;
    }
    if (page && json_array_size(items_of(pg, page)) > 0) {
        json_decref(last);
        last = page;
        last_page_items = json_array_size(items_of(pg, page));
        page = NULL;
    }
    if (!bad && reference_compare(&pc, &ref, &fwd, whole, pages))
        bad = true;
    /* Back from the last non-empty page: expect every forward item before it. */
    if (last && pg->previous_field) {
        size_t expect = fwd.n - last_page_items;
        const char *prev = cursor_of(pg, last, pg->previous_field);
        char *prev_copy = prev ? xstrdup(prev) : NULL;
        size_t bpages = 0;
        while (prev_copy && bpages < MAX_PAGES) {
            json_t *p = fetch_page(wk, op, prev_copy, limit, "page-walk");
            free(prev_copy);
            prev_copy = NULL;
            if (!p)
                break;
            bpages++;
            json_t *items = items_of(pg, p);
            size_t n = json_array_size(items);
            for (size_t i = 0; i < n; i++) {
                char *k = item_key(pg, json_array_get(items, i));
                if (k && keys_has(&back, k)) {
                    ADD(&pc, CHECK_PAGINATION, SDKC_VERDICT_DEVIATION, NULL, "repeat",
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
                ADD(&pc, CHECK_PAGINATION, SDKC_VERDICT_DEVIATION, NULL, "loss",
                    "walking back from the last page, item %s of the way forward never came",
                    fwd.keys[i]);
                bad = true;
            }
        for (size_t i = 0; i < back.n; i++)
            if (!keys_has(&fwd, back.keys[i]) || back.n > expect) {
                ADD(&pc, CHECK_PAGINATION, SDKC_VERDICT_DEVIATION, NULL, "extra",
                    "walking back, item %s was not among the items before the last page",
                    back.keys[i]);
                bad = true;
                break;
            }
    }
    if (!bad)
        ADD(&pc, CHECK_PAGINATION, SDKC_VERDICT_PASS, NULL, NULL,
            "%zu items over %zu pages, no loss or repeat", fwd.n, pages);
done:
    json_decref(page);
    json_decref(last);
    keys_free(&fwd);
    keys_free(&back);
    keys_free(&ref.keys);
    sdkrt_page_walk_free(walk);
    free(sent);
}
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

/* ---- what answers teach: created ids, Location headers, OpenAPI links ---- */

/* The result the client returns of a success body (its `data` when the success unwraps it). */
static const json_t *result_of(const sdkc_operation *op, int status, const json_t *body)
{
    const sdkc_success *sx = success_for(op, status);
    if (sx && sx->unwrap && json_is_object(body))
        return json_object_get(body, sx->unwrap);
    return body;
}

/* The id of what a write made: its `id` field, else the last segment of its Location. */
static json_t *created_id(const sdkc_operation *op, int status, const json_t *body,
                          const char *location)
{
    const json_t *res = result_of(op, status, body);
    const json_t *id = json_object_get(res, "id");
    if (json_is_string(id) || json_is_integer(id))
        return json_deep_copy(id);
    if (location) {
        size_t n = strcspn(location, "?#");
        while (n > 0 && location[n - 1] == '/')
            n--;
        size_t s = n;
        while (s > 0 && location[s - 1] != '/')
            s--;
        if (n > s)
            return json_stringn(location + s, n - s);
    }
    return NULL;
}

/* "$response.body#/a/b" of body, or NULL (borrowed). */
static const json_t *link_value(const char *expr, const json_t *body)
{
    const char *pre = "$response.body#";
    if (strncmp(expr, pre, strlen(pre)) != 0)
        return NULL;
    const json_t *v = body;
    for (const char *p = expr + strlen(pre); v && *p == '/';) {
        p++;
        size_t n = strcspn(p, "/");
        char key[128];
        if (n >= sizeof key)
            return NULL;
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            if (p[i] == '~' && i + 1 < n && (p[i + 1] == '0' || p[i + 1] == '1')) {
                key[k++] = p[i + 1] == '0' ? '~' : '/';
                i++;
            } else {
                key[k++] = p[i];
            }
        }
        key[k] = '\0';
        if (json_is_array(v)) {
            char *end = NULL;
            long idx = strtol(key, &end, 10);
            v = end && !*end ? json_array_get(v, (size_t)idx) : NULL;
        } else {
            v = json_object_get(v, key);
        }
        p += n;
    }
    return v;
}

/* Remember the parameters an answer's OpenAPI links give other operations. */
static void learn_links(runner *rn, const sdkc_operation *op, int status, const json_t *body)
{
    const sdkc_response_info *ri = response_info(op, status);
    for (size_t i = 0; ri && i < ri->nlinks; i++) {
        const char *target = ri->links[i].operation_id;
        for (size_t j = 0; j < ri->links[i].nparams; j++) {
            const json_t *v = link_value(ri->links[i].params[j].value, body);
            const char *pname = ri->links[i].params[j].name;
            const char *dot = strchr(pname, '.'); /* "path.itemId" */
            sdkc_buf k = SDKC_BUF_INIT;
            sdkc_buf_printf(&k, "%s:%s", target, dot ? dot + 1 : pname);
            if (v && k.data)
                store_put_str(rn, "link", k.data, v);
            sdkc_buf_cleanup(&k);
        }
    }
}

static void learn(runner *rn, const sdkc_operation *op, const probe_out *o)
{
    if (o->body) {
        const sdkc_success *sx = success_for(op, o->status);
        if (sx)
            harvest(rn, sx->result, result_of(op, o->status, o->body), 0);
        learn_links(rn, op, o->status, o->body);
    }
    if (o->status / 100 == 2 && strcmp(op->method, "POST") == 0) {
        json_t *id = created_id(op, o->status, o->body, o->location);
        store_put_str(rn, "coll", op->path, id);
        json_decref(id);
    }
}

/* The GET operation that reads one item of path + "/{param}". */
static const sdkc_operation *item_reader(const runner *rn, const char *path)
{
    size_t n = strlen(path);
    for (size_t i = 0; i < rn->ir->nops; i++) {
        const sdkc_operation *o = &rn->ir->ops[i];
        if (strcmp(o->method, "GET") || o->stream || strncmp(o->path, path, n) != 0)
            continue;
        const char *rest = o->path + n;
        if (rest[0] == '/' && rest[1] == '{' && strchr(rest, '}') && strchr(rest, '}')[1] == '\0' &&
            !strchr(rest + 2, '/'))
            return o;
    }
    return NULL;
}

static bool included(const sdkc_conform_options *o, const char *id);

/* ---- the plan ---- */

static void mark_probed(runner *rn, const sdkc_operation *op)
{
    pthread_mutex_lock(&rn->mu);
    rn->probed[op - rn->ir->ops] = true;
    pthread_mutex_unlock(&rn->mu);
}

static void probe_mode_op(worker *wk, const sdkc_operation *op, const char *probe, probe_mode mode,
                          const expectation *ex, const json_t *last_id)
{
    req_plan p = {mode, NULL, 0, last_id, false, false, NULL, false};
    probe_out out;
    run_probe(wk, op, probe, &p, ex, &out);
    free(p.why);
    probe_out_cleanup(&out);
}

/* Does a request of op carry a credential (one given for one of its schemes)? */
/* Do the run's credentials authenticate op, which requires them? An operation whose security
 * also allows none (`{}`) has nothing for ignored_auth to find. */
static bool sends_credentials(const runner *rn, const sdkc_operation *op)
{
    if (op->security_optional)
        return false;
    for (size_t i = 0; i < op->nsecurity; i++) {
        const sdkc_security_scheme *s = op->security[i];
        if (rn->opts->password && s->type && strcmp(s->type, "http") == 0 && s->scheme &&
            strcasecmp(s->scheme, "basic") == 0)
            return true;
        for (size_t j = 0; j < rn->opts->ncredentials; j++)
            if (rn->opts->credentials[j].scheme &&
                strcmp(rn->opts->credentials[j].scheme, s->name) == 0)
                return true;
    }
    return false;
}

static void probe_operation(worker *wk, const sdkc_operation *op)
{
    runner *rn = wk->rn;
    const char *why = skip_reason(rn->opts, op->id);
    probe_ctx pc = {wk, rn, op, "*", op->path, MODE_VALID, 0, false};
    if (why) {
        ADD(&pc, "probe", SDKC_VERDICT_SKIP, NULL, NULL, "%s", why);
        return;
    }
    logf_(rn, "%s %s %s", op->id, op->method, op->path);

    /* valid, then positive (every optional field and parameter, at every depth), then
       positive-body (every optional body field with the required parameters only), so that a
       5xx caused by the body is told apart from one caused by a parameter */
    int repeat = phase_of(op) == 0 && creates_ids(op) ? CREATE_REPEAT : 1;
    bool no_id = false, optional = false;
    json_t *delete_id = NULL;
    for (int i = 0; i < repeat + 2; i++) {
        probe_mode mode = i < repeat    ? MODE_VALID
                          : i == repeat ? MODE_POSITIVE
                                        : MODE_POSITIVE_BODY;
        const char *name = mode == MODE_VALID      ? "valid"
                           : mode == MODE_POSITIVE ? "positive"
                                                   : "positive-body";
        if (mode == MODE_POSITIVE_BODY && !(has_optional_params(op) && has_optional_body(op)))
            break;
        req_plan dry = {mode, NULL, 0, NULL, false, false, NULL, false};
        sdkc_buf d = SDKC_BUF_INIT;
        sdkrt_request_free(build(wk, op, &dry, &d));
        sdkc_buf_cleanup(&d);
        free(dry.why);
        optional = dry.optional_params;
        if (dry.no_id) {
            /* A probe whose ids nobody made would only test unknown ids (done below). */
            probe_ctx v = {wk, rn, op, name, op->path, mode, 0, false};
            ADD(&v, "probe", SDKC_VERDICT_SKIP, NULL, NULL,
                "no valid identifier for a path parameter (no included operation creates one; "
                "--param NAME=VALUE gives one)");
            no_id = true;
            break;
        }
        if (mode == MODE_POSITIVE && !optional)
            break;
        if (strcmp(op->method, "DELETE") == 0 && path_param_count(op) && !delete_id) {
            const sdkc_param *last = NULL;
            for (size_t k = 0; k < op->nparams; k++)
                if (op->params[k].in == SDKC_PARAM_PATH)
                    last = &op->params[k];
            delete_id = known_path_value(wk, op, last);
        }
        req_plan plan = {mode, NULL, 0, NULL, false, false, NULL, false};
        probe_out out;
        run_probe(wk, op, name, &plan, NULL, &out);
        free(plan.why);
        if (out.answered)
            mark_probed(rn, op);
        learn(rn, op, &out);
        /* ensure_resource_availability: what a POST made can be read back */
        if (i == 0 && out.status / 100 == 2 && strcmp(op->method, "POST") == 0 &&
            check_on(rn, CHECK_AVAILABILITY)) {
            json_t *id = created_id(op, out.status, out.body, out.location);
            const sdkc_operation *reader = id ? item_reader(rn, op->path) : NULL;
            if (reader && included(rn->opts, reader->id))
                probe_mode_op(wk, reader, "after-create", MODE_AFTER_CREATE, NULL, id);
            json_decref(id);
        }
        /* use_after_free: what a DELETE removed is gone */
        if (mode == MODE_VALID && out.status / 100 == 2 && delete_id &&
            check_on(rn, CHECK_USE_AFTER)) {
            const sdkc_operation *reader = NULL;
            for (size_t k = 0; k < rn->ir->nops && !reader; k++)
                if (strcmp(rn->ir->ops[k].method, "GET") == 0 && !rn->ir->ops[k].stream &&
                    strcmp(rn->ir->ops[k].path, op->path) == 0)
                    reader = &rn->ir->ops[k];
            if (reader)
                probe_mode_op(wk, reader, "after-delete", MODE_AFTER_DELETE, NULL, delete_id);
        }
        probe_out_cleanup(&out);
        if (mode == MODE_VALID && strcmp(op->method, "DELETE") == 0)
            break; /* what is deleted cannot be deleted again with all its options */
    }
    json_decref(delete_id);

    expectation ex = {0, NULL, NULL};
    /* unknown-id: where the contract declares a 404 */
    if (path_param_count(op) > 0 && check_on(rn, CHECK_MISSING)) {
        sdkc_buf why_buf = SDKC_BUF_INIT;
        const sdkc_param *last = NULL;
        for (size_t i = 0; i < op->nparams; i++)
            if (op->params[i].in == SDKC_PARAM_PATH)
                last = &op->params[i];
        json_t *u = unknown_value(last);
        sdkc_buf_printf(&why_buf, "an unknown %s", last->wire_name);
        /* `default` covers every status but says nothing of a 404: only an exact 404 or a 4XX
           range is a declared answer to an unknown id */
        const sdkc_error_status *es404 = error_status(op, 404);
        if (u && es404 && es404->status != SDKC_STATUS_DEFAULT &&
            expect_error(op, 404, NULL, why_buf.data, &ex))
            probe_mode_op(wk, op, "unknown-id", MODE_UNKNOWN_ID, &ex, NULL);
        json_decref(u);
        sdkc_buf_cleanup(&why_buf);
    }
    /* bad-cursor: rejected; with the declared 400 InvalidCursorError where there is one */
    /* OpenCode's cursors only: a page number, a last id or a page token may be any value a
       server (or a mock) accepts */
    if (op->pagination && op->pagination->cursor_param &&
        op->pagination->style == SDKC_PAGE_CURSOR_OBJECT && check_on(rn, CHECK_NEGATIVE)) {
        expectation e = {0, NULL, "an invalid cursor"};
        if (!expect_error(op, 400, "InvalidCursorError", "an invalid cursor", &e) || !e.tag ||
            strcmp(e.tag, "InvalidCursorError") != 0)
            e = (expectation){0, NULL, "an invalid cursor"};
        if (!no_id)
            probe_mode_op(wk, op, "bad-cursor", MODE_BAD_CURSOR, &e, NULL);
    }
    /* malformed-body: rejected; with the declared 400 InvalidRequestError where there is one */
    if (op->body && conform_media_is_json(op->body->content_type) && check_on(rn, CHECK_NEGATIVE) &&
        !no_id) {
        expectation e = {0, NULL, "a body that is not JSON"};
        if (!expect_error(op, 400, "InvalidRequestError", "a body that is not JSON", &e) ||
            !e.tag || strcmp(e.tag, "InvalidRequestError") != 0)
            e = (expectation){0, NULL, "a body that is not JSON"};
        pthread_mutex_lock(&rn->mu);
        char *hang = rn->malformed_hang ? xstrdup(rn->malformed_hang) : NULL;
        pthread_mutex_unlock(&rn->mu);
        if (hang) {
            probe_ctx m = {wk, rn, op, "malformed-body", op->path, MODE_MALFORMED_BODY, 0, false};
            ADD(&m, "probe", SDKC_VERDICT_SKIP, NULL, NULL,
                "not sent: the server at %s answered no body that is not JSON within %ld ms "
                "(%s), so no other is sent",
                rn->opts->base_url ? rn->opts->base_url : "?", rn->timeout_ms, hang);
            free(hang);
        } else {
            probe_mode_op(wk, op, "malformed-body", MODE_MALFORMED_BODY, &e, NULL);
        }
    }
    /* no-credentials: where the contract requires credentials and the valid probe sent some */
    if (rn->anon && sends_credentials(rn, op) && check_on(rn, CHECK_IGNORED_AUTH) && !no_id) {
        expectation e = {0, NULL, "a request without credentials"};
        if (!expect_error(op, 401, "UnauthorizedError", "a request without credentials", &e) ||
            !e.tag || strcmp(e.tag, "UnauthorizedError") != 0)
            e = (expectation){0, NULL, "a request without credentials"};
        probe_mode_op(wk, op, "no-credentials", MODE_NO_CREDENTIALS, &e, NULL);
    }
    /* page-walk: OpenCode's cursor object forwards and back; the other styles forwards as the
       runtime's engine goes */
    if (op->pagination && check_on(rn, CHECK_PAGINATION) && !no_id) {
        if (op->pagination->style == SDKC_PAGE_CURSOR_OBJECT)
            page_walk(wk, op);
        else
            engine_walk(wk, op);
    }
}

/* ---- the stateful order under -j N ---- */

/* Does t hold a string of brand b (at any depth)? */
static bool type_has_brand(const sdkc_type *t, const sdkc_brand *b, int depth)
{
    if (!t || depth > 16)
        return false;
    switch (t->kind) {
    case SDKC_TYPE_STRING:
        return t->u.str.brand == b;
    case SDKC_TYPE_NULLABLE:
        return type_has_brand(t->u.nullable.inner, b, depth + 1);
    case SDKC_TYPE_OBJECT:
        for (size_t i = 0; i < t->u.object.nfields; i++)
            if (type_has_brand(t->u.object.fields[i].type, b, depth + 1))
                return true;
        return false;
    case SDKC_TYPE_ARRAY:
        return type_has_brand(t->u.array.items, b, depth + 1);
    case SDKC_TYPE_UNION:
        for (size_t i = 0; i < t->u.union_.nvariants; i++)
            if (type_has_brand(t->u.union_.variants[i].type, b, depth + 1))
                return true;
        return false;
    default:
        return false;
    }
}

/* Does a give b the value of one of b's path parameters that the run does not know yet (from
 * --param or an earlier phase): a POST to the parameter's collection, an OpenAPI link to b, or a
 * write whose answer holds the parameter's brand? Such a b waits for a under -j N, as it comes
 * after it with -j 1. */
static bool gives_id(runner *rn, const sdkc_operation *a, const sdkc_operation *b)
{
    bool linked = false;
    for (size_t i = 0; i <= a->nmore_successes && !linked; i++) {
        const sdkc_response_info *ri =
            i ? &a->more_successes[i - 1].response : &a->success.response;
        for (size_t j = 0; j < ri->nlinks; j++)
            linked = linked ||
                     (ri->links[j].operation_id && strcmp(ri->links[j].operation_id, b->id) == 0);
    }
    for (size_t i = 0; i < b->nparams; i++) {
        const sdkc_param *p = &b->params[i];
        if (p->in != SDKC_PARAM_PATH)
            continue;
        bool known = false;
        for (size_t k = 0; k < rn->opts->nparams && !known; k++)
            known = strcmp(rn->opts->params[k].name, p->wire_name) == 0;
        sdkc_buf lk = SDKC_BUF_INIT;
        sdkc_buf_printf(&lk, "%s:%s", b->id, p->wire_name);
        known = known || (lk.data && store_get_str(rn, "link", lk.data));
        sdkc_buf_cleanup(&lk);
        if (known)
            continue;
        if (linked)
            return true;
        const sdkc_type *t = unwrap_nullable(p->type);
        const sdkc_brand *brand = t && t->kind == SDKC_TYPE_STRING ? t->u.str.brand : NULL;
        if (brand && brand->name && store_get_str(rn, "brand", brand->name))
            continue;
        if (brand && strcmp(a->method, "GET") != 0 && type_has_brand(a->success.type, brand, 0))
            return true;
        char *coll = collection_of(b->path, p->wire_name);
        bool creates = coll && !store_get_str(rn, "coll", coll) && strcmp(a->method, "POST") == 0 &&
                       strcmp(a->path, coll) == 0;
        free(coll);
        if (creates)
            return true;
    }
    return false;
}

/* The next operation of the phase whose id givers are done: waits while one runs; with none
 * running and none ready (givers that need each other), the first queued. NULL when all have
 * started. Call with rn->mu held; returns the queue index in *at. */
static const sdkc_operation *next_ready(runner *rn, size_t *at)
{
    for (;;) {
        bool queued = false, running = false;
        for (size_t i = 0; i < rn->nqueue; i++) {
            running = running || rn->state[i] == RUNNING;
            if (rn->state[i] != QUEUED)
                continue;
            queued = true;
            bool ready = true;
            for (size_t j = 0; j < rn->nqueue && ready; j++)
                ready = !rn->needs[i * rn->nqueue + j] || rn->state[j] == DONE;
            if (ready) {
                *at = i;
                return rn->queue[i];
            }
        }
        if (!queued)
            return NULL;
        if (!running) {
            for (size_t i = 0; i < rn->nqueue; i++)
                if (rn->state[i] == QUEUED) {
                    *at = i;
                    return rn->queue[i];
                }
        }
        pthread_cond_wait(&rn->cv, &rn->mu);
    }
}

static void *worker_main(void *arg)
{
    worker *wk = arg;
    runner *rn = wk->rn;
    for (;;) {
        size_t at = 0;
        pthread_mutex_lock(&rn->mu);
        const sdkc_operation *op = next_ready(rn, &at);
        if (op)
            rn->state[at] = RUNNING;
        pthread_mutex_unlock(&rn->mu);
        if (!op)
            break;
        probe_operation(wk, op);
        pthread_mutex_lock(&rn->mu);
        rn->state[at] = DONE;
        pthread_cond_broadcast(&rn->cv);
        pthread_mutex_unlock(&rn->mu);
    }
    return NULL;
}

static sdkrt_status rec_send(void *self, const sdkrt_transport_request *req, sdkrt_response **out,
                             sdkrt_error **err)
{
    worker *wk = self;
    free(wk->curl);
    wk->curl = conform_curl(req, wk->rn->secrets, wk->rn->nsecrets);
    return wk->rn->inner->ops->send(wk->rn->inner->self, req, out, err);
}

static sdkrt_status rec_open(void *self, const sdkrt_transport_request *req, sdkrt_response **head,
                             sdkrt_body_reader *reader, sdkrt_error **err)
{
    worker *wk = self;
    free(wk->curl);
    wk->curl = conform_curl(req, wk->rn->secrets, wk->rn->nsecrets);
    return wk->rn->inner->ops->open(wk->rn->inner->self, req, head, reader, err);
}

static const sdkrt_transport_ops rec_ops = {rec_send, rec_open, NULL};

/* co and anon (NULL: no anonymous client) are the run's client options; the worker's clients
 * take them with its recording transport. */
static bool worker_init(worker *wk, runner *rn, const sdkrt_client_options *co,
                        const sdkrt_client_options *anon)
{
    memset(wk, 0, sizeof *wk);
    wk->rn = rn;
    wk->rec.ops = &rec_ops;
    wk->rec.self = wk;
    sdkrt_client_options o = *co;
    o.transport = &wk->rec;
    sdkrt_error *err = NULL;
    bool ok = sdkrt_client_new(&wk->client, &o, &err) == SDKRT_OK;
    if (ok && anon) {
        o = *anon;
        o.transport = &wk->rec;
        ok = sdkrt_client_new(&wk->anon, &o, &err) == SDKRT_OK;
    }
    sdkrt_error_free(err);
    sdkc_validate_options vo = SDKC_VALIDATE_OPTIONS_INIT;
    return ok && sdkc_validation_new(&wk->val, &vo) == SDKC_OK &&
           sdkc_arena_new(&wk->arena) == SDKC_OK;
}

static void worker_cleanup(worker *wk)
{
    sdkc_validation_free(wk->val);
    sdkc_arena_free(wk->arena);
    sdkrt_client_free(wk->client);
    sdkrt_client_free(wk->anon);
    free(wk->curl);
}

/* Each secret of the run with the name of the variable it came from (for curl lines). */
static bool secrets_init(runner *rn, const sdkc_conform_options *o)
{
    rn->secrets = calloc(o->ncredentials + 1, sizeof *rn->secrets);
    if (!rn->secrets)
        return false;
    for (size_t i = 0; i < o->ncredentials; i++) {
        const sdkrt_credential *c = &o->credentials[i];
        const char *env =
            o->credential_envs && o->credential_envs[i] ? o->credential_envs[i] : "SECRET";
        conform_secret *s = &rn->secrets[rn->nsecrets++];
        s->env = env;
        if (c->token) {
            s->value = c->token;
        } else {
            s->value = c->password;
            s->basic_user = c->username;
            s->whole_pair = true;
        }
    }
    if (o->password) {
        conform_secret *s = &rn->secrets[rn->nsecrets++];
        s->value = o->password;
        s->env = o->password_env ? o->password_env : "PASSWORD";
        s->basic_user = o->username ? o->username : "opencode";
    }
    return true;
}

/* Client options shared by both clients: base URL, transport, user agent, --header. The
 * anonymous client leaves out headers that could carry credentials. */
static bool auth_header(const runner *rn, const char *name)
{
    if (strcasecmp(name, "Authorization") == 0 || strcasecmp(name, "Cookie") == 0 ||
        strcasecmp(name, "Proxy-Authorization") == 0)
        return true;
    for (size_t i = 0; i < rn->ir->nschemes; i++)
        if (rn->ir->schemes[i].param && strcasecmp(rn->ir->schemes[i].param, name) == 0)
            return true;
    return false;
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
    rn.checks = opts->checks ? opts->checks : SDKC_CHECK_ALL;
    int jobs = opts->jobs > 0 ? (opts->jobs < MAX_JOBS ? opts->jobs : MAX_JOBS) : 1;
    worker workers[MAX_JOBS];
    pthread_t threads[MAX_JOBS];
    int nworkers = 0;
    bool mu = false;
    sdkrt_header *anon_headers = NULL;
    sdkrt_error *err = NULL;
    if (opts->max_time_ms > 0) {
        clock_gettime(CLOCK_MONOTONIC, &rn.deadline);
        rn.deadline.tv_sec += opts->max_time_ms / 1000;
        rn.deadline.tv_nsec += (opts->max_time_ms % 1000) * 1000000L;
        if (rn.deadline.tv_nsec >= 1000000000L) {
            rn.deadline.tv_sec++;
            rn.deadline.tv_nsec -= 1000000000L;
        }
    }
    rn.r = calloc(1, sizeof *rn.r);
    rn.probed = calloc(ir->nops ? ir->nops : 1, sizeof *rn.probed);
    rn.queue = calloc(ir->nops ? ir->nops : 1, sizeof *rn.queue);
    rn.state = calloc(ir->nops ? ir->nops : 1, sizeof *rn.state);
    anon_headers = calloc(opts->nheaders ? opts->nheaders : 1, sizeof *anon_headers);
    if (!rn.r || !rn.probed || !rn.queue || !rn.state || !anon_headers ||
        pthread_mutex_init(&rn.mu, NULL)) {
        st = SDKC_ERR_NOMEM;
        goto done;
    }
    if (pthread_cond_init(&rn.cv, NULL)) {
        pthread_mutex_destroy(&rn.mu);
        st = SDKC_ERR_NOMEM;
        goto done;
    }
    mu = true;
    rn.r->base_url = opts->base_url ? xstrdup(opts->base_url) : NULL;
    rn.r->contract = ir->source_name ? xstrdup(ir->source_name) : NULL;
    sdkrt_client_options co = SDKRT_CLIENT_OPTIONS_INIT;
    co.base_url = opts->base_url;
    co.transport = opts->transport;
    co.user_agent = "sdkc-conform/" SDKC_VERSION;
    co.retry.max_attempts = 1; /* a check judges the server's own first answer */
    co.headers = opts->headers;
    co.header_count = opts->nheaders;
    co.credentials = opts->credentials;
    co.credential_count = opts->ncredentials;
    if (opts->password) {
        co.auth = SDKRT_AUTH_BASIC;
        co.username = opts->username ? opts->username : "opencode";
        co.password = opts->password;
    }
    co.ca_file = opts->ca_file;
    co.verify_tls = !opts->insecure;
    rn.have_credentials = opts->password || opts->ncredentials;
    if (!opts->base_url || sdkrt_client_new(&rn.client, &co, &err) != SDKRT_OK) {
        if (errmsg) {
            sdkc_buf m = SDKC_BUF_INIT;
            sdkc_buf_printf(&m, "bad base URL or credentials: %s",
                            err ? sdkrt_error_message(err) : "none given (--base-url)");
            *errmsg = sdkc_buf_steal(&m, NULL);
            sdkc_buf_cleanup(&m);
        }
        st = SDKC_ERR_INVALID;
        goto done;
    }
    sdkrt_client_options co_anon = co;
    if (rn.have_credentials) {
        size_t nh = 0;
        for (size_t i = 0; i < opts->nheaders; i++)
            if (!auth_header(&rn, opts->headers[i].name))
                anon_headers[nh++] = opts->headers[i];
        co_anon.auth = SDKRT_AUTH_NONE;
        co_anon.username = co_anon.password = NULL;
        co_anon.credentials = NULL;
        co_anon.credential_count = 0;
        co_anon.headers = anon_headers;
        co_anon.header_count = nh;
        if (sdkrt_client_new(&rn.anon, &co_anon, &err) != SDKRT_OK) {
            st = SDKC_ERR_NOMEM;
            goto done;
        }
    }
    rn.inner = opts->transport;
    if (!rn.inner && sdkrt_curl_transport_new(&rn.own_inner, &err) != SDKRT_OK) {
        st = SDKC_ERR_NOMEM;
        goto done;
    }
    if (!rn.inner)
        rn.inner = rn.own_inner;
    if (!secrets_init(&rn, opts)) {
        st = SDKC_ERR_NOMEM;
        goto done;
    }
    for (int i = 0; i < jobs; i++) {
        if (!worker_init(&workers[i], &rn, &co, rn.anon ? &co_anon : NULL)) {
            worker_cleanup(&workers[i]);
            st = SDKC_ERR_NOMEM;
            goto done;
        }
        nworkers++;
    }
    for (int phase = 0; phase <= 3; phase++) {
        rn.nqueue = 0;
        for (size_t i = 0; i < ir->nops; i++) {
            const sdkc_operation *op = &ir->ops[i];
            if (!included(opts, op->id) || phase_of(op) != phase)
                continue;
            rn.r->operations++;
            rn.queue[rn.nqueue++] = op;
        }
        free(rn.needs);
        rn.needs = calloc(rn.nqueue * rn.nqueue + 1, sizeof *rn.needs);
        if (!rn.needs) {
            st = SDKC_ERR_NOMEM;
            goto done;
        }
        memset(rn.state, QUEUED, ir->nops ? ir->nops : 1);
        for (size_t i = 0; i < rn.nqueue; i++)
            for (size_t j = 0; j < rn.nqueue; j++)
                rn.needs[i * rn.nqueue + j] = i != j && gives_id(&rn, rn.queue[j], rn.queue[i]);
        int started = 0;
        for (int i = 1; i < nworkers && (size_t)i < rn.nqueue; i++)
            if (pthread_create(&threads[i], NULL, worker_main, &workers[i]) == 0)
                started = i;
            else
                break;
        worker_main(&workers[0]);
        for (int i = 1; i <= started; i++)
            pthread_join(threads[i], NULL);
    }
    for (size_t i = 0; i < ir->nops; i++)
        rn.r->probed += rn.probed[i];
    rn.r->interrupted = opts->stop && *opts->stop;
    rn.r->deadline = !rn.r->interrupted && past_deadline(&rn);
    if (rn.r->oom)
        st = SDKC_ERR_NOMEM;
done:
    for (int i = 0; i < nworkers; i++)
        worker_cleanup(&workers[i]);
    sdkrt_error_free(err);
    sdkrt_client_free(rn.client);
    sdkrt_client_free(rn.anon);
    sdkrt_transport_free(rn.own_inner); /* after every client that used it */
    free(rn.secrets);
    free(anon_headers);
    free(rn.probed);
    free(rn.queue);
    free(rn.state);
    free(rn.needs);
    free(rn.malformed_hang);
    for (size_t i = 0; i < rn.nstore; i++) {
        free(rn.store[i].key);
        json_decref(rn.store[i].value);
    }
    free(rn.store);
    if (mu) {
        pthread_cond_destroy(&rn.cv);
        pthread_mutex_destroy(&rn.mu);
    }
    if (st == SDKC_OK)
        *out = rn.r;
    else
        sdkc_conform_report_free(rn.r);
    return st;
}
