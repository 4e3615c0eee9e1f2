/* Blocking server-sent-event streams: a prepared exchange opened on the transport, its body
 * read on demand through the SSE parser. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exchange.h"
#include "stream_core.h"

enum stream_state { STREAM_COLD, STREAM_OPEN, STREAM_ENDED, STREAM_FAILED };

/* Bytes a stream asks its reader for at least (up to four times as many when the parser's
 * buffer has room). */
#define STREAM_READ_BYTES 16384

struct sdkrt_stream {
    const sdkrt_client *client;
    sdkrt_prepared_ p;
    enum stream_state state;
    sdkrt_response *head;
    sdkrt_body_reader reader;
    bool reader_open;
    sdkrt_sse_core_ core; /* bytes -> events (stream_core.c), once the head is accepted */
    bool core_open;
    sdkrt_error *failure; /* repeated (as a copy) by every call after a failure */
    char buf[16384];      /* an error body being read */
};

sdkrt_status sdkrt_client_stream(sdkrt_client *client, const sdkrt_request *req,
                                 const sdkrt_call_options *call, sdkrt_stream **out,
                                 sdkrt_error **err)
{
    *out = NULL;
    sdkrt_stream *s = calloc(1, sizeof *s);
    if (!s)
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    sdkrt_keyed_call_ k; /* an idempotency key, copied into the stream's headers */
    sdkrt_status st = sdkrt_keyed_call_init_(&k, client, req, call, err);
    if (st == SDKRT_OK)
        st = sdkrt_prepare_(&s->p, client, req, &k.call, true, err);
    sdkrt_keyed_call_cleanup_(&k);
    if (st != SDKRT_OK) {
        free(s);
        return SDKRT_ERR;
    }
    s->client = client;
    s->state = STREAM_COLD;
    *out = s;
    return SDKRT_OK;
}

static void stream_release(sdkrt_stream *s)
{
    if (s->reader_open) {
        s->reader.ops->close(s->reader.self);
        s->reader_open = false;
    }
    if (s->core_open) {
        sdkrt_sse_core_cleanup_(&s->core);
        s->core_open = false;
    }
}

/* Finish the stream with e (stolen; NULL only if the transport failed without one): keep it to
 * repeat it, release the connection, hand a copy to the caller. */
static sdkrt_stream_result stream_fail(sdkrt_stream *s, sdkrt_error *e, sdkrt_error **err)
{
    s->state = STREAM_FAILED;
    if (!e)
        sdkrt_error_set(&e, SDKRT_REASON_TRANSPORT, "%s %s: stream failed", s->p.method,
                        s->p.shown_url);
    sdkrt_error_free(s->failure);
    s->failure = e;
    stream_release(s);
    if (err && !*err)
        *err = sdkrt_error_copy_(e);
    return SDKRT_STREAM_ERROR;
}

static sdkrt_stream_result stream_failf(sdkrt_stream *s, sdkrt_error **err, sdkrt_reason reason,
                                        const char *what)
{
    sdkrt_error *e = NULL;
    sdkrt_error_set(&e, reason, "%s %s: %s", s->p.method, s->p.shown_url, what);
    if (s->head) {
        sdkrt_error_set_status(e, sdkrt_response_status(s->head));
        sdkrt_error_set_content_type(e, sdkrt_response_content_type(s->head));
    }
    return stream_fail(s, e, err);
}

/* Read up to SDKRT_ERROR_BODY_MAX bytes of the body into the head response, for diagnostics. */
static void read_error_body(sdkrt_stream *s)
{
    sdkrt_error *ignored = NULL;
    size_t total = 0;
    while (total < SDKRT_ERROR_BODY_MAX) {
        size_t n = 0;
        size_t want = SDKRT_ERROR_BODY_MAX - total;
        if (want > sizeof s->buf)
            want = sizeof s->buf;
        if (s->reader.ops->read(s->reader.self, s->buf, want, &n, &ignored) != SDKRT_OK || n == 0)
            break;
        if (sdkrt_response_append_body(s->head, s->buf, n, &ignored) != SDKRT_OK)
            break;
        total += n;
    }
    sdkrt_error_free(ignored);
}

static sdkrt_stream_result stream_connect(sdkrt_stream *s, sdkrt_error **err)
{
    const sdkrt_transport *t = s->client->transport;
    if (sdkrt_cancel_is_triggered(s->p.treq.cancel))
        return stream_failf(s, err, SDKRT_REASON_CANCELLED, "cancelled before connecting");
    sdkrt_error *e = NULL;
    if (t->ops->open(t->self, &s->p.treq, &s->head, &s->reader, &e) != SDKRT_OK) {
        s->head = NULL;
        sdkrt_error_prefix_(e, "%s %s: ", s->p.method, s->p.shown_url);
        return stream_fail(s, e, err);
    }
    s->reader_open = true;
    sdkrt_response_set_origin_(s->head, s->p.method, s->p.shown_url);
    if (sdkrt_prepared_notify_(&s->p, s->head, &e) != SDKRT_OK)
        return stream_fail(s, e, err);
    if (!sdkrt_sse_head_ok_(s->head)) {
        read_error_body(s);
        return stream_fail(s, sdkrt_sse_head_error_(s->head, s->p.method, s->p.shown_url), err);
    }
    if (sdkrt_sse_core_init_(&s->core, s->client->max_event_bytes, s->p.method, s->p.shown_url,
                             s->head, &e) != SDKRT_OK)
        return stream_fail(s, e, err);
    s->core_open = true;
    s->state = STREAM_OPEN;
    return SDKRT_STREAM_EVENT;
}

sdkrt_stream_result sdkrt_stream_next(sdkrt_stream *s, sdkrt_stream_event *event, sdkrt_error **err)
{
    if (s->state == STREAM_ENDED)
        return SDKRT_STREAM_END;
    if (s->state == STREAM_FAILED) {
        /* The same error again: a copy, so its message keeps its one " (REASON)". */
        if (err && !*err)
            *err = sdkrt_error_copy_(s->failure);
        return SDKRT_STREAM_ERROR;
    }
    if (s->state == STREAM_COLD && stream_connect(s, err) != SDKRT_STREAM_EVENT)
        return SDKRT_STREAM_ERROR;
    for (;;) {
        sdkrt_error *e = NULL;
        sdkrt_sc_result_ r = sdkrt_sse_core_next_(&s->core, event, &e);
        if (r == SDKRT_SC_EVENT)
            return SDKRT_STREAM_EVENT;
        if (r == SDKRT_SC_ERROR)
            return stream_fail(s, e, err);
        if (sdkrt_cancel_is_triggered(s->p.treq.cancel))
            return stream_failf(s, err, SDKRT_REASON_CANCELLED, "cancelled");
        /* Read straight into the parser's input buffer: no copy between reader and parser. */
        size_t n = 0, room = 0;
        void *into = NULL;
        if (sdkrt_sse_core_buffer_(&s->core, STREAM_READ_BYTES, &into, &room, &e) !=
            SDKRT_SC_NEED_MORE)
            return stream_fail(s, e, err);
        if (room > 4 * STREAM_READ_BYTES)
            room = 4 * STREAM_READ_BYTES;
        if (s->reader.ops->read(s->reader.self, into, room, &n, &e) != SDKRT_OK) {
            sdkrt_error_prefix_(e, "%s %s: ", s->p.method, s->p.shown_url);
            return stream_fail(s, e, err);
        }
        if (n == 0) {
            r = sdkrt_sse_core_finish_(&s->core, event, &e);
            if (r == SDKRT_SC_EVENT)
                return SDKRT_STREAM_EVENT;
            if (r == SDKRT_SC_ERROR)
                return stream_fail(s, e, err);
            s->state = STREAM_ENDED;
            stream_release(s);
            return SDKRT_STREAM_END;
        }
        if (sdkrt_sse_core_commit_(&s->core, n, &e) != SDKRT_SC_NEED_MORE)
            return stream_fail(s, e, err);
    }
}

int sdkrt_stream_status(const sdkrt_stream *s)
{
    return s->head ? sdkrt_response_status(s->head) : 0;
}

void sdkrt_stream_close(sdkrt_stream *s)
{
    if (!s)
        return;
    stream_release(s);
    sdkrt_response_free(s->head);
    sdkrt_prepared_cleanup_(&s->p);
    sdkrt_error_free(s->failure);
    free(s);
}
