/* The durable-stream follower (sdkrt/follow.h): a loop over cold typed streams that reopens them
 * after the last sequence delivered, with backoff, and drops replayed items. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "jdecode.h"
#include "sdkrt/follow.h"
#include "stream_core.h"

/* ---- the decisions (stream_core.h): no I/O, no clock, no sleep ---- */

sdkrt_status sdkrt_follow_sm_init_(sdkrt_follow_sm_ *sm, const sdkrt_follow_options *opts,
                                   uint64_t seed, sdkrt_error **err)
{
    sdkrt_follow_options o = SDKRT_FOLLOW_OPTIONS_INIT;
    if (opts)
        o = *opts;
    memset(sm, 0, sizeof *sm);
    if (o.initial_delay_ms < 0 || o.max_delay_ms < 0)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "follower: delays must not be negative");
    sm->initial_delay_ms =
        o.initial_delay_ms ? o.initial_delay_ms : SDKRT_FOLLOW_DEFAULT_INITIAL_DELAY_MS;
    sm->max_delay_ms = o.max_delay_ms ? o.max_delay_ms : SDKRT_FOLLOW_DEFAULT_MAX_DELAY_MS;
    if (sm->max_delay_ms < sm->initial_delay_ms)
        sm->max_delay_ms = sm->initial_delay_ms;
    sm->max_attempts = o.max_attempts;
    sm->end_when_closed = o.end_when_closed;
    sm->has_last = o.has_after;
    sm->last = o.after;
    sm->rng = seed ^ 0x9e3779b97f4a7c15ull;
    return SDKRT_OK;
}

static uint64_t next_random(sdkrt_follow_sm_ *sm)
{
    /* xorshift64 */
    uint64_t x = sm->rng ? sm->rng : 88172645463325252ull;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    sm->rng = x;
    return x;
}

/* Whether a lost stream is worth reopening: the transport failed, the idle timeout fired, the
 * server answered 5xx (declared or not) or closed the stream. A failure frame, a 4xx, a body that
 * cannot be read, cancellation and the caller's own mistakes are final. */
bool sdkrt_follow_retryable_(const sdkrt_error *e)
{
    if (!e)
        return false;
    if (sdkrt_error_kind(e) == SDKRT_ERROR_DOMAIN) {
        const char *tag = sdkrt_error_tag(e);
        if (tag && strcmp(tag, SDKRT_JSTREAM_FAILURE_TAG) == 0)
            return false;
        return sdkrt_error_status(e) >= 500 && sdkrt_error_status(e) <= 599;
    }
    switch (sdkrt_error_reason(e)) {
    case SDKRT_REASON_TRANSPORT:
    case SDKRT_REASON_TIMEOUT:
        return true;
    case SDKRT_REASON_UNEXPECTED_STATUS:
        return sdkrt_error_status(e) >= 500 && sdkrt_error_status(e) <= 599;
    default:
        return false;
    }
}

sdkrt_follow_decision_ sdkrt_follow_sm_lost_(sdkrt_follow_sm_ *sm, sdkrt_error **e,
                                             sdkrt_follow_event *ev)
{
    if (!*e && sm->end_when_closed)
        return SDKRT_FOLLOW_DO_END;
    if (*e && !sdkrt_follow_retryable_(*e))
        return SDKRT_FOLLOW_DO_FAIL;
    if (!*e)
        sdkrt_error_set(e, SDKRT_REASON_TRANSPORT, "the server closed the stream");
    if (sm->max_attempts && sm->attempt >= sm->max_attempts) {
        sdkrt_error_prefix_(*e, "gave up after %u reconnects: ", sm->attempt);
        return SDKRT_FOLLOW_DO_FAIL;
    }
    sm->attempt++;
    /* initial * 2^(attempt-1), capped; then "equal jitter": half fixed, half random */
    long d = sm->initial_delay_ms;
    for (unsigned i = 1; i < sm->attempt && d < sm->max_delay_ms; i++)
        d = d > sm->max_delay_ms / 2 ? sm->max_delay_ms : d * 2;
    if (d > sm->max_delay_ms)
        d = sm->max_delay_ms;
    memset(ev, 0, sizeof *ev);
    ev->kind = SDKRT_FOLLOW_RECONNECT;
    ev->error = *e;
    ev->attempt = sm->attempt;
    ev->delay_ms = d / 2 + (long)(next_random(sm) % (uint64_t)(d / 2 + 1));
    ev->has_after = sm->has_last;
    ev->after = sm->last;
    return SDKRT_FOLLOW_DO_RECONNECT;
}

bool sdkrt_follow_sm_item_(sdkrt_follow_sm_ *sm, bool has_seq, int64_t seq)
{
    if (has_seq && sm->has_last && seq <= sm->last)
        return false; /* not above the last one delivered: delivered already */
    sm->attempt = 0;
    if (has_seq) {
        sm->has_last = true;
        sm->last = seq;
    }
    return true;
}

/* ---- the blocking follower ---- */

enum follow_state {
    F_OPEN,    /* next opens a stream (first call, or after a RECONNECT item) */
    F_READING, /* a stream is open */
    F_ENDED,   /* END was returned */
    F_FAILED   /* an error was returned */
};

struct sdkrt_follow {
    sdkrt_follow_open_fn open;
    void *userdata;
    const char **path;
    size_t depth;
    sdkrt_follow_options o;
    sdkrt_follow_sm_ sm;
    enum follow_state state;
    sdkrt_jstream *js;
    long delay_ms;        /* the wait before the next open */
    sdkrt_error *lost;    /* why the last stream ended (RECONNECT's error) */
    sdkrt_error *failure; /* the error that ended the follower, repeated as a copy */
};

sdkrt_status sdkrt_follow_new(sdkrt_follow **out, sdkrt_follow_open_fn open, void *userdata,
                              const sdkrt_follow_sequence *seq, const sdkrt_follow_options *opts,
                              sdkrt_error **err)
{
    *out = NULL;
    if (!open || !seq || !seq->path || seq->depth == 0)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "follower: an open callback and a sequence path are required");
    for (size_t i = 0; i < seq->depth; i++)
        if (!seq->path[i])
            return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                                   "follower: sequence path has a NULL name");
    sdkrt_follow_sm_ sm;
    if (sdkrt_follow_sm_init_(&sm, opts, 0, err) != SDKRT_OK)
        return SDKRT_ERR;
    sdkrt_follow *f = calloc(1, sizeof *f);
    if (!f || !(f->path = calloc(seq->depth, sizeof *f->path))) {
        free(f);
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    }
    memcpy(f->path, seq->path, seq->depth * sizeof *f->path);
    f->depth = seq->depth;
    f->open = open;
    f->userdata = userdata;
    if (opts)
        f->o = *opts;
    f->sm = sm;
    /* Jitter only spreads clients apart: any seed that differs between followers will do. */
    f->sm.rng ^= (uint64_t)sdkrt_now_ms_() ^ (uint64_t)(uintptr_t)f;
    f->state = F_OPEN;
    *out = f;
    return SDKRT_OK;
}

static sdkrt_stream_result fail(sdkrt_follow *f, sdkrt_error *e, sdkrt_error **err)
{
    f->state = F_FAILED;
    sdkrt_jstream_close(f->js);
    f->js = NULL;
    sdkrt_error_free(f->failure);
    f->failure = e;
    if (err && !*err)
        *err = sdkrt_error_copy_(e);
    return SDKRT_STREAM_ERROR;
}

/* The stream ended with e (stolen; NULL: closed cleanly): a RECONNECT item, or the end. */
static sdkrt_stream_result lost(sdkrt_follow *f, sdkrt_error *e, sdkrt_follow_event *ev,
                                sdkrt_error **err)
{
    sdkrt_jstream_close(f->js);
    f->js = NULL;
    switch (sdkrt_follow_sm_lost_(&f->sm, &e, ev)) {
    case SDKRT_FOLLOW_DO_END:
        f->state = F_ENDED;
        return SDKRT_STREAM_END;
    case SDKRT_FOLLOW_DO_FAIL:
        return fail(f, e, err);
    case SDKRT_FOLLOW_DO_RECONNECT:
        break;
    }
    f->delay_ms = ev->delay_ms;
    sdkrt_error_free(f->lost);
    f->lost = e;
    f->state = F_OPEN;
    return SDKRT_STREAM_EVENT;
}

sdkrt_stream_result sdkrt_follow_next(sdkrt_follow *f, sdkrt_follow_event *ev, sdkrt_error **err)
{
    if (ev)
        memset(ev, 0, sizeof *ev);
    if (!f || !ev)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "follower: f and ev are required"),
               SDKRT_STREAM_ERROR;
    if (f->state == F_ENDED)
        return SDKRT_STREAM_END;
    if (f->state == F_FAILED) {
        if (err && !*err)
            *err = sdkrt_error_copy_(f->failure);
        return SDKRT_STREAM_ERROR;
    }
    if (f->state == F_OPEN) {
        if (f->sm.attempt && sdkrt_cancel_wait(f->o.cancel, f->delay_ms)) {
            sdkrt_error *e = NULL;
            sdkrt_error_set(&e, SDKRT_REASON_CANCELLED, "cancelled while waiting to reconnect");
            return fail(f, e, err);
        }
        sdkrt_error *e = NULL;
        sdkrt_call_options call = SDKRT_CALL_OPTIONS_INIT;
        if (f->o.call)
            call = *f->o.call;
        if (f->o.cancel)
            call.cancel = f->o.cancel;
        if (f->open(f->userdata, f->sm.has_last ? &f->sm.last : NULL, &call, &f->js, &e) !=
            SDKRT_OK) {
            f->js = NULL;
            if (!e)
                sdkrt_error_set(&e, SDKRT_REASON_INVALID_ARGUMENT, "follower: open failed");
            return fail(f, e, err);
        }
        f->state = F_READING;
    }
    for (;;) {
        const void *item = NULL;
        sdkrt_jstream_poison p;
        sdkrt_error *e = NULL;
        sdkrt_stream_result r = f->o.strict ? sdkrt_jstream_next(f->js, &item, &e)
                                            : sdkrt_jstream_next_poison(f->js, &item, &p, &e);
        if (r == SDKRT_STREAM_END)
            return lost(f, NULL, ev, err);
        if (r == SDKRT_STREAM_ERROR)
            return lost(f, e, ev, err);
        bool has_seq;
        int64_t seq = 0;
        if (r == SDKRT_STREAM_EVENT) {
            has_seq = sdkrt_json_int_at(sdkrt_jstream_item_type_(f->js), item,
                                        (const char *const *)f->path, f->depth, &seq);
            if (!sdkrt_follow_sm_item_(&f->sm, has_seq, seq))
                continue;
            ev->kind = SDKRT_FOLLOW_ITEM;
            ev->item = item;
        } else {
            has_seq = sdkrt_json_raw_int_at(p.json, (const char *const *)f->path, f->depth, &seq);
            if (!sdkrt_follow_sm_item_(&f->sm, has_seq, seq))
                continue;
            ev->kind = SDKRT_FOLLOW_POISON;
            ev->data = p.data;
            ev->data_len = p.data_len;
            ev->raw = p.json;
            ev->error = p.error;
        }
        ev->has_seq = has_seq;
        ev->seq = seq;
        return SDKRT_STREAM_EVENT;
    }
}

bool sdkrt_follow_last_seq(const sdkrt_follow *f, int64_t *seq)
{
    if (!f || !f->sm.has_last)
        return false;
    if (seq)
        *seq = f->sm.last;
    return true;
}

void sdkrt_follow_free(sdkrt_follow *f)
{
    if (!f)
        return;
    sdkrt_jstream_close(f->js);
    sdkrt_error_free(f->lost);
    sdkrt_error_free(f->failure);
    free(f->path);
    free(f);
}

/* ---- integers inside values ---- */

bool sdkrt_json_raw_int_at(const json_t *json, const char *const *path, size_t depth, int64_t *out)
{
    for (size_t i = 0; i < depth && json; i++)
        json = json_is_object(json) ? json_object_get(json, path[i]) : NULL;
    if (!json_is_integer(json))
        return false;
    *out = (int64_t)json_integer_value(json);
    return true;
}

bool sdkrt_json_int_at(const sdkrt_jtype *t, const void *value, const char *const *path,
                       size_t depth, int64_t *out)
{
    while (t && value) {
        switch (t->kind) {
        case SDKRT_JK_NULLABLE:
            value = *(void *const *)value;
            t = t->inner;
            continue;
        case SDKRT_JK_JSON_STRING:
            t = t->inner;
            continue;
        case SDKRT_JK_ANY:
            return sdkrt_json_raw_int_at(*(json_t *const *)value, path, depth, out);
        case SDKRT_JK_UNION: {
            const junion *u = value;
            if (u->kind == 0)
                return sdkrt_json_raw_int_at(u->unknown, path, depth, out);
            if (u->kind < 0 || (size_t)u->kind > t->nvariants)
                return false;
            const sdkrt_jvariant *var = &t->variants[u->kind - 1];
            value = (const char *)value + t->value_offset;
            if (var->flags & SDKRT_JF_BOXED)
                value = *(void *const *)value;
            t = var->type;
            continue;
        }
        case SDKRT_JK_INTEGER:
            if (depth)
                return false;
            *out = *(const int64_t *)value;
            return true;
        case SDKRT_JK_OBJECT: {
            if (!depth)
                return false;
            const sdkrt_jfield *f = NULL;
            for (size_t i = 0; i < t->nfields && !f; i++)
                if (strcmp(t->fields[i].name, path[0]) == 0)
                    f = &t->fields[i];
            if (!f || f->offset == SDKRT_JNONE)
                return false;
            const char *base = value;
            if (f->has_offset != SDKRT_JNONE && !*(const bool *)(base + f->has_offset))
                return false;
            if (f->null_offset != SDKRT_JNONE && *(const bool *)(base + f->null_offset))
                return false;
            value = base + f->offset;
            if (f->flags & SDKRT_JF_BOXED)
                value = *(void *const *)value;
            t = f->type;
            path++;
            depth--;
            continue;
        }
        default:
            return false;
        }
    }
    return false;
}
