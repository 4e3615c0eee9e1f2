/* The durable-stream follower (sdkrt/follow.h): a loop over cold typed streams that reopens them
 * after the last sequence delivered, with backoff, and drops replayed items. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "jdecode.h"
#include "sdkrt/follow.h"

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
    enum follow_state state;
    sdkrt_jstream *js;
    bool has_last;
    int64_t last;
    unsigned attempt;     /* reconnects in a row without an item */
    long delay_ms;        /* the wait before the next open */
    sdkrt_error *lost;    /* why the last stream ended (RECONNECT's error) */
    sdkrt_error *failure; /* the error that ended the follower, repeated as a copy */
    uint64_t rng;
};

sdkrt_status sdkrt_follow_new(sdkrt_follow **out, sdkrt_follow_open_fn open, void *userdata,
                              const sdkrt_follow_sequence *seq, const sdkrt_follow_options *opts,
                              sdkrt_error **err)
{
    *out = NULL;
    sdkrt_follow_options o = SDKRT_FOLLOW_OPTIONS_INIT;
    if (opts)
        o = *opts;
    if (!open || !seq || !seq->path || seq->depth == 0)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "follower: an open callback and a sequence path are required");
    for (size_t i = 0; i < seq->depth; i++)
        if (!seq->path[i])
            return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                                   "follower: sequence path has a NULL name");
    if (o.initial_delay_ms < 0 || o.max_delay_ms < 0)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "follower: delays must not be negative");
    if (!o.initial_delay_ms)
        o.initial_delay_ms = SDKRT_FOLLOW_DEFAULT_INITIAL_DELAY_MS;
    if (!o.max_delay_ms)
        o.max_delay_ms = SDKRT_FOLLOW_DEFAULT_MAX_DELAY_MS;
    if (o.max_delay_ms < o.initial_delay_ms)
        o.max_delay_ms = o.initial_delay_ms;
    sdkrt_follow *f = calloc(1, sizeof *f);
    if (!f || !(f->path = calloc(seq->depth, sizeof *f->path))) {
        free(f);
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    }
    memcpy(f->path, seq->path, seq->depth * sizeof *f->path);
    f->depth = seq->depth;
    f->open = open;
    f->userdata = userdata;
    f->o = o;
    f->has_last = o.has_after;
    f->last = o.after;
    f->state = F_OPEN;
    /* Jitter only spreads clients apart: any seed that differs between followers will do. */
    f->rng = (uint64_t)sdkrt_now_ms_() ^ (uint64_t)(uintptr_t)f ^ 0x9e3779b97f4a7c15ull;
    *out = f;
    return SDKRT_OK;
}

static uint64_t next_random(sdkrt_follow *f)
{
    /* xorshift64 */
    uint64_t x = f->rng ? f->rng : 88172645463325252ull;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    f->rng = x;
    return x;
}

/* Whether a lost stream is worth reopening: the transport failed, the idle timeout fired, the
 * server answered 5xx (declared or not) or closed the stream. A failure frame, a 4xx, a body that
 * cannot be read, cancellation and the caller's own mistakes are final. */
static bool retryable(const sdkrt_error *e)
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
    if (!e && f->o.end_when_closed) {
        f->state = F_ENDED;
        return SDKRT_STREAM_END;
    }
    if (e && !retryable(e))
        return fail(f, e, err);
    if (!e)
        sdkrt_error_set(&e, SDKRT_REASON_TRANSPORT, "the server closed the stream");
    if (f->o.max_attempts && f->attempt >= f->o.max_attempts) {
        sdkrt_error_prefix_(e, "gave up after %u reconnects: ", f->attempt);
        return fail(f, e, err);
    }
    f->attempt++;
    /* initial * 2^(attempt-1), capped; then "equal jitter": half fixed, half random */
    long d = f->o.initial_delay_ms;
    for (unsigned i = 1; i < f->attempt && d < f->o.max_delay_ms; i++)
        d = d > f->o.max_delay_ms / 2 ? f->o.max_delay_ms : d * 2;
    if (d > f->o.max_delay_ms)
        d = f->o.max_delay_ms;
    f->delay_ms = d / 2 + (long)(next_random(f) % (uint64_t)(d / 2 + 1));
    sdkrt_error_free(f->lost);
    f->lost = e;
    f->state = F_OPEN;
    ev->kind = SDKRT_FOLLOW_RECONNECT;
    ev->error = e;
    ev->attempt = f->attempt;
    ev->delay_ms = f->delay_ms;
    ev->has_after = f->has_last;
    ev->after = f->last;
    return SDKRT_STREAM_EVENT;
}

/* A sequence that is not above the last one delivered was delivered already. */
static bool replayed(const sdkrt_follow *f, bool has_seq, int64_t seq)
{
    return has_seq && f->has_last && seq <= f->last;
}

static void delivered(sdkrt_follow *f, bool has_seq, int64_t seq)
{
    f->attempt = 0;
    if (has_seq) {
        f->has_last = true;
        f->last = seq;
    }
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
        if (f->attempt && sdkrt_cancel_wait(f->o.cancel, f->delay_ms)) {
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
        if (f->open(f->userdata, f->has_last ? &f->last : NULL, &call, &f->js, &e) != SDKRT_OK) {
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
            if (replayed(f, has_seq, seq))
                continue;
            ev->kind = SDKRT_FOLLOW_ITEM;
            ev->item = item;
        } else {
            has_seq = sdkrt_json_raw_int_at(p.json, (const char *const *)f->path, f->depth, &seq);
            if (replayed(f, has_seq, seq))
                continue;
            ev->kind = SDKRT_FOLLOW_POISON;
            ev->data = p.data;
            ev->data_len = p.data_len;
            ev->raw = p.json;
            ev->error = p.error;
        }
        ev->has_seq = has_seq;
        ev->seq = seq;
        delivered(f, has_seq, seq);
        return SDKRT_STREAM_EVENT;
    }
}

bool sdkrt_follow_last_seq(const sdkrt_follow *f, int64_t *seq)
{
    if (!f || !f->has_last)
        return false;
    if (seq)
        *seq = f->last;
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
