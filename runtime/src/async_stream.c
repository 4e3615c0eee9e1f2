/* Asynchronous streams on a loop (sdkrt_stream_start, sdkrt_jstream_start, sdkrt_follow_start):
 * the stream core (stream_core.h) driven by libcurl transfers in the loop's multi handle.
 *
 * curl pushes body bytes into the SSE parser from its write callback and nothing else happens
 * there: events are delivered by a zero-delay loop timer (the "step"), outside curl's callbacks,
 * so a handler may pause, resume or cancel any stream, this one included. Backpressure: while the
 * program has paused the stream, or the parser holds READ_HIGH bytes not yet delivered, the write
 * callback pauses the transfer (curl stops reading the socket) until the step has drained it. The
 * head and idle timeouts are a second timer (the "watch"); a follower's backoff is the step timer
 * again, so the thread never sleeps. A client whose transport is not libcurl (the in-memory one)
 * opens through the transport on the loop thread and reads its body one chunk per step (timeouts
 * are then the transport's), so the same logic runs without sockets.
 *
 * Every entry point (timers, the transfer's end, the loop's cancel, the public calls) holds the
 * stream busy while it runs: ending it inside runs on_end at once but frees it only when the
 * outermost entry leaves, and a cancel asked for inside a handler is acted on when the handler
 * returns. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "call.h"
#include "loop_internal.h"
#include "stream_core.h"

/* Bytes the parser may hold undelivered before the transfer is paused. */
#define READ_HIGH (64 * 1024)

typedef enum { K_RAW, K_TYPED, K_FOLLOW } skind;
typedef enum {
    S_QUEUED,  /* the transfer starts on the loop's next turn */
    S_RUNNING, /* a transfer is under way or its events are being delivered */
    S_BACKOFF, /* a follower waits to reopen */
    S_DONE     /* on_end ran */
} sstate;

struct sdkrt_async_stream {
    sdkrt_loop_op_ op; /* first: the loop hands it back */
    sdkrt_client *client;
    skind kind;
    sstate state;
    sdkrt_stream_handlers h;
    void *userdata;
    sdkrt_loop_timer step;  /* start, deliver, backoff */
    sdkrt_loop_timer watch; /* head and idle timeouts */
    int busy;
    bool paused;     /* by the program */
    bool cancel_req; /* sdkrt_async_stream_cancel inside a handler */

    /* the request (a follower prepares one per open) */
    sdkrt_prepared_ p;
    bool have_p;
    sdkrt_cancel either; /* a follower's token with the client's */

    /* the connection */
    CURL *easy; /* kept across a follower's opens */
    sdkrt_xfer_ x;
    bool x_live;           /* x set up (needs cleanup) */
    sdkrt_response *head;  /* stolen from x once the body starts or the transfer ends */
    bool judged;           /* head known: sse or not */
    bool sse;              /* an event stream: body into core */
    bool notified;         /* on_response saw the head */
    bool body_full;        /* an error body reached SDKRT_ERROR_BODY_MAX: transfer stopped */
    bool curl_paused;      /* the write callback paused the transfer */
    bool body_done;        /* the transfer ended */
    sdkrt_error *body_err; /* how it ended, when not cleanly */
    sdkrt_error *cb_err;   /* raised inside the write callback */
    sdkrt_sse_core_ core;
    bool core_open;
    sdkrt_body_reader reader; /* a transport other than libcurl: its body, read on the loop */
    bool reader_open;

    /* typed streams and followers */
    const sdkrt_jop *jop;
    sdkrt_jcore_ jc;
    bool strict;

    /* followers */
    sdkrt_follow_request_fn make;
    const char **path;
    size_t depth;
    sdkrt_follow_options fo;
    sdkrt_follow_sm_ sm;
    sdkrt_error *lost; /* why the last stream ended (the RECONNECT event's error) */
};

/* ---- life ---- */

static void release_conn(sdkrt_async_stream *s)
{
    sdkrt_loop_timer_disarm_(&s->watch);
    if (s->reader_open) {
        s->reader.ops->close(s->reader.self);
        s->reader_open = false;
    }
    if (s->x_live) {
        sdkrt_loop_xfer_remove_(s->op.loop, &s->x);
        sdkrt_xfer_cleanup_(&s->x);
        s->x_live = false;
    }
    if (s->core_open) {
        sdkrt_sse_core_cleanup_(&s->core);
        s->core_open = false;
    }
    if (s->jop)
        sdkrt_jcore_release_(&s->jc);
    sdkrt_response_free(s->head);
    s->head = NULL;
    sdkrt_error_free(s->body_err);
    sdkrt_error_free(s->cb_err);
    s->body_err = s->cb_err = NULL;
    s->judged = s->sse = s->notified = s->body_full = s->curl_paused = s->body_done = false;
}

static void stream_free(sdkrt_async_stream *s)
{
    release_conn(s);
    sdkrt_loop_timer_disarm_(&s->step);
    sdkrt_loop_easy_give_(s->op.loop, s->easy);
    if (s->have_p)
        sdkrt_prepared_cleanup_(&s->p);
    if (s->jop)
        sdkrt_jcore_cleanup_(&s->jc);
    sdkrt_error_free(s->lost);
    free(s->path);
    free(s);
}

static void finish_cancelled(sdkrt_async_stream *s, const char *why);

static void enter(sdkrt_async_stream *s)
{
    s->busy++;
}

/* Leave an entry point: the stream is freed here once it ended and nothing else runs in it. */
static void leave(sdkrt_async_stream *s)
{
    if (s->busy == 1 && s->state != S_DONE && s->cancel_req)
        finish_cancelled(s, "cancelled");
    if (--s->busy == 0 && s->state == S_DONE)
        stream_free(s);
}

/* The end: on_end once with e (stolen; NULL: a clean end). */
static void finish(sdkrt_async_stream *s, sdkrt_error *e)
{
    if (s->state == S_DONE) {
        sdkrt_error_free(e);
        return;
    }
    s->state = S_DONE;
    sdkrt_loop_op_remove_(&s->op);
    release_conn(s);
    sdkrt_loop_timer_disarm_(&s->step);
    if (s->h.on_end)
        s->h.on_end(s->userdata, e);
    sdkrt_error_free(e);
}

static const char *method_of(const sdkrt_async_stream *s)
{
    return s->have_p ? s->p.method : "?";
}

static const char *url_of(const sdkrt_async_stream *s)
{
    return s->have_p ? s->p.shown_url : "?";
}

static void finish_cancelled(sdkrt_async_stream *s, const char *why)
{
    sdkrt_error *e = NULL;
    sdkrt_error_set(&e, SDKRT_REASON_CANCELLED, "%s %s: %s", method_of(s), url_of(s), why);
    finish(s, e);
}

static void finish_oom(sdkrt_async_stream *s, const char *what)
{
    sdkrt_error *e = NULL;
    sdkrt_error_set(&e, SDKRT_REASON_OUT_OF_MEMORY, "%s %s: out of memory %s", method_of(s),
                    url_of(s), what);
    finish(s, e);
}

/* After a handler: whether the stream must stop (cancelled inside it); then it has ended. */
static bool stopped(sdkrt_async_stream *s)
{
    if (s->state == S_DONE)
        return true;
    if (s->cancel_req || sdkrt_cancel_is_triggered(s->op.cancel)) {
        finish_cancelled(s, s->state == S_BACKOFF ? "cancelled while waiting to reconnect"
                                                  : "cancelled");
        return true;
    }
    return false;
}

/* ---- a lost connection: the end, or a follower's reconnect ---- */

static void open_later(sdkrt_async_stream *s, long ms)
{
    if (sdkrt_loop_timer_arm_(&s->step, ms) != SDKRT_OK)
        finish_oom(s, "arming a timer");
}

/* The connection ended with e (stolen; NULL: the server closed cleanly). */
static void conn_lost(sdkrt_async_stream *s, sdkrt_error *e)
{
    release_conn(s);
    if (s->kind != K_FOLLOW) {
        finish(s, e);
        return;
    }
    sdkrt_follow_event ev;
    switch (sdkrt_follow_sm_lost_(&s->sm, &e, &ev)) {
    case SDKRT_FOLLOW_DO_END:
        finish(s, NULL);
        return;
    case SDKRT_FOLLOW_DO_FAIL:
        finish(s, e);
        return;
    case SDKRT_FOLLOW_DO_RECONNECT:
        break;
    }
    sdkrt_error_free(s->lost);
    s->lost = e; /* ev.error points to it */
    s->state = S_BACKOFF;
    if (s->h.on_reconnect) {
        s->h.on_reconnect(s->userdata, &ev);
        if (stopped(s))
            return;
    }
    open_later(s, ev.delay_ms);
}

/* A failure of the raw stream (stolen): a typed stream's non-2xx becomes the declared error. */
static void raw_lost(sdkrt_async_stream *s, sdkrt_error *e)
{
    if (s->jop && e) {
        sdkrt_error *d = NULL;
        sdkrt_jcore_stream_error_(&s->jc, e, &d);
        e = d;
    }
    conn_lost(s, e);
}

/* ---- curl's side: bytes in ---- */

/* The head is known (the body starts, or the transfer ended without one). */
static void judge(sdkrt_async_stream *s, sdkrt_response *head)
{
    s->judged = true;
    s->head = head;
    sdkrt_response_set_origin_(head, s->p.method, s->p.shown_url);
    s->sse = sdkrt_sse_head_ok_(head);
    if (s->sse && sdkrt_sse_core_init_(&s->core, s->client->max_event_bytes, s->p.method,
                                       s->p.shown_url, head, &s->cb_err) == SDKRT_OK)
        s->core_open = true;
}

static bool kick_step(sdkrt_async_stream *s)
{
    if (s->step.index != SIZE_MAX)
        return true;
    return sdkrt_loop_timer_arm_(&s->step, 0) == SDKRT_OK;
}

/* Take the head from the transfer and let the step report it (on_response). */
static bool take_head(sdkrt_async_stream *s)
{
    sdkrt_response *head = s->x.resp;
    s->x.resp = NULL; /* ours now: later header lines (trailers) are not needed */
    if (!head && sdkrt_response_new(&head, 0, 0, &s->cb_err) != SDKRT_OK)
        return false;
    judge(s, head);
    if (s->cb_err)
        return false;
    if (!kick_step(s)) {
        sdkrt_error_set(&s->cb_err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory arming a timer");
        return false;
    }
    return true;
}

/* The head is complete (curl's header callback, at the blank line): a stream that opens and then
 * stays quiet reports open at once. */
static bool head_cb(sdkrt_xfer_ *x)
{
    sdkrt_async_stream *s = x->owner;
    return s->judged || take_head(s);
}

static size_t write_cb(char *data, size_t size, size_t nmemb, void *ud)
{
    sdkrt_async_stream *s = ud;
    sdkrt_xfer_ *x = &s->x;
    size_t n = size * nmemb;
    if (!s->judged && !take_head(s)) /* no head seen (header callback skipped) */
        return 0;
    if (!s->sse) {
        /* an error body, for the error's message: its first SDKRT_ERROR_BODY_MAX bytes */
        size_t have = 0;
        sdkrt_response_body(s->head, &have);
        size_t k = have < SDKRT_ERROR_BODY_MAX ? SDKRT_ERROR_BODY_MAX - have : 0;
        if (k > n)
            k = n;
        if (k && sdkrt_response_append_body(s->head, data, k, &s->cb_err) != SDKRT_OK)
            return 0;
        if (k < n) {
            s->body_full = true;
            return 0;
        }
        return n;
    }
    if (s->paused || sdkrt_sse_buffered_bytes(s->core.parser) >= READ_HIGH) {
        s->curl_paused = true;
        return CURL_WRITEFUNC_PAUSE;
    }
    x->last_byte_ms = sdkrt_now_ms_();
    if (sdkrt_sse_core_feed_(&s->core, data, n, &s->cb_err) != SDKRT_SC_NEED_MORE)
        return 0;
    if (!kick_step(s))
        goto oom;
    return n;
oom:
    sdkrt_error_set(&s->cb_err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory arming a timer");
    return 0;
}

/* The transfer ended (curl is done with it): note how, and let the step deliver the rest. */
static void xfer_done(sdkrt_xfer_ *x)
{
    sdkrt_async_stream *s = x->owner;
    enter(s);
    sdkrt_response *r = NULL;
    sdkrt_error *e = NULL;
    if (s->cb_err) {
        e = s->cb_err;
        s->cb_err = NULL;
    } else if (!s->body_full && sdkrt_xfer_outcome_(x, false, &r, &e) != SDKRT_OK) {
        sdkrt_error_prefix_(e, "%s %s: ", s->p.method, s->p.shown_url);
    }
    if (!s->judged && r) {
        judge(s, r);
        r = NULL;
        if (s->cb_err) {
            e = s->cb_err;
            s->cb_err = NULL;
        }
    }
    sdkrt_response_free(r);
    sdkrt_loop_xfer_remove_(s->op.loop, x);
    sdkrt_loop_timer_disarm_(&s->watch);
    s->body_done = true;
    s->body_err = e;
    if (!kick_step(s))
        finish_oom(s, "arming a timer");
    leave(s);
}

/* ---- the step: events out ---- */

/* Deliver one event; false when the stream stopped or lost its connection. */
static bool deliver_event(sdkrt_async_stream *s, const sdkrt_stream_event *ev)
{
    if (s->kind == K_RAW) {
        if (s->h.on_item)
            s->h.on_item(s->userdata, ev);
        return !stopped(s);
    }
    sdkrt_jcore_release_(&s->jc);
    const void *item = NULL;
    sdkrt_jstream_poison poison;
    memset(&poison, 0, sizeof poison);
    sdkrt_error *e = NULL;
    bool lenient = s->h.on_poison && !s->strict;
    switch (sdkrt_jcore_event_(&s->jc, ev, sdkrt_response_status(s->head), &item,
                               lenient ? &poison : NULL, &e)) {
    case SDKRT_JC_SKIP:
        return true;
    case SDKRT_JC_END:
        conn_lost(s, NULL);
        return false;
    case SDKRT_JC_ERROR:
        conn_lost(s, e);
        return false;
    case SDKRT_JC_ITEM:
        if (s->kind == K_FOLLOW) {
            int64_t seq = 0;
            bool has =
                sdkrt_json_int_at(s->jop->item, item, (const char *const *)s->path, s->depth, &seq);
            if (!sdkrt_follow_sm_item_(&s->sm, has, seq))
                return true;
        }
        if (s->h.on_item)
            s->h.on_item(s->userdata, item);
        return !stopped(s);
    case SDKRT_JC_POISON:
        if (s->kind == K_FOLLOW) {
            int64_t seq = 0;
            bool has =
                sdkrt_json_raw_int_at(poison.json, (const char *const *)s->path, s->depth, &seq);
            if (!sdkrt_follow_sm_item_(&s->sm, has, seq))
                return true;
        }
        s->h.on_poison(s->userdata, &poison);
        return !stopped(s);
    }
    return true;
}

/* A transport other than libcurl: one read of its body reader into the parser. */
static void read_chunk(sdkrt_async_stream *s)
{
    void *into = NULL;
    size_t room = 0, n = 0;
    sdkrt_error *e = NULL;
    if (sdkrt_sse_core_buffer_(&s->core, 16384, &into, &room, &e) == SDKRT_SC_NEED_MORE) {
        if (s->reader.ops->read(s->reader.self, into, room, &n, &e) != SDKRT_OK)
            sdkrt_error_prefix_(e, "%s %s: ", s->p.method, s->p.shown_url);
        else if (n && sdkrt_sse_core_commit_(&s->core, n, &e) != SDKRT_SC_NEED_MORE)
            n = 0;
    }
    if (n == 0 || e) {
        s->body_done = true;
        s->body_err = e;
        s->reader.ops->close(s->reader.self);
        s->reader_open = false;
    }
}

/* A transport other than libcurl: open on the loop thread (an in-memory transport answers at
 * once), then the body is read a chunk per step. */
/* A stream owns its connection: a fresh one, closed when the stream ends. libcurl 7.88 walks
 * every connection to the host when it looks for one to reuse, and again when it returns one to
 * its cache or trims that cache, which made opening and ending each of n streams O(n); an idle
 * connection saved for reuse is worth little next to a stream that holds one for its life. */
static CURLcode own_connection(CURL *easy)
{
    CURLcode rc = curl_easy_setopt(easy, CURLOPT_FRESH_CONNECT, 1L);
    return rc == CURLE_OK ? curl_easy_setopt(easy, CURLOPT_FORBID_REUSE, 1L) : rc;
}

static void open_through_transport(sdkrt_async_stream *s)
{
    const sdkrt_transport *t = s->client->transport;
    sdkrt_response *head = NULL;
    sdkrt_error *e = NULL;
    if (t->ops->open(t->self, &s->p.treq, &head, &s->reader, &e) != SDKRT_OK) {
        sdkrt_error_prefix_(e, "%s %s: ", s->p.method, s->p.shown_url);
        raw_lost(s, e);
        return;
    }
    s->reader_open = true;
    judge(s, head);
    if (s->cb_err) {
        s->body_done = true;
        s->body_err = s->cb_err;
        s->cb_err = NULL;
    } else if (!s->sse) {
        /* the error body, for the error's message: its first SDKRT_ERROR_BODY_MAX bytes */
        char buf[4096];
        size_t total = 0, n = 0;
        sdkrt_error *ignored = NULL;
        while (total < SDKRT_ERROR_BODY_MAX &&
               s->reader.ops->read(s->reader.self, buf, sizeof buf, &n, &ignored) == SDKRT_OK &&
               n > 0) {
            size_t k = n < SDKRT_ERROR_BODY_MAX - total ? n : SDKRT_ERROR_BODY_MAX - total;
            if (sdkrt_response_append_body(head, buf, k, &s->body_err) != SDKRT_OK)
                break;
            total += k;
        }
        if (!s->body_err && ignored && sdkrt_error_reason(ignored) == SDKRT_REASON_OUT_OF_MEMORY)
            s->body_err = ignored; /* a cut body still makes the status's error; no memory not */
        else
            sdkrt_error_free(ignored);
        s->body_done = true;
    }
    if (s->body_done) {
        s->reader.ops->close(s->reader.self);
        s->reader_open = false;
    }
    if (!kick_step(s))
        finish_oom(s, "arming a timer");
}

static void deliver(sdkrt_async_stream *s)
{
    if (!s->judged) {
        if (s->body_done) { /* no response at all */
            sdkrt_error *e = s->body_err;
            s->body_err = NULL;
            raw_lost(s, e);
        }
        return;
    }
    if (!s->notified) {
        s->notified = true;
        sdkrt_error *e = NULL;
        if (sdkrt_prepared_notify_(&s->p, s->head, &e) != SDKRT_OK) {
            finish(s, e);
            return;
        }
        if (stopped(s))
            return;
    }
    if (!s->sse) {
        if (!s->body_done)
            return;                   /* the error body is still coming */
        sdkrt_error *e = s->body_err; /* a cut error body still makes the status's error */
        s->body_err = NULL;
        if (!e || sdkrt_error_reason(e) != SDKRT_REASON_OUT_OF_MEMORY) {
            sdkrt_error_free(e);
            e = sdkrt_sse_head_error_(s->head, s->p.method, s->p.shown_url);
        }
        raw_lost(s, e);
        return;
    }
    if (!s->core_open) { /* the parser could not be made */
        sdkrt_error *e = s->body_err;
        s->body_err = NULL;
        raw_lost(s, e);
        return;
    }
    while (!s->paused && s->state == S_RUNNING) {
        if (stopped(s))
            return;
        sdkrt_stream_event ev;
        sdkrt_error *e = NULL;
        sdkrt_sc_result_ r = sdkrt_sse_core_next_(&s->core, &ev, &e);
        if (r == SDKRT_SC_NEED_MORE) {
            if (!s->body_done && s->reader_open) {
                read_chunk(s);
                if (!kick_step(s)) /* one chunk per turn: the loop's other work goes on */
                    finish_oom(s, "arming a timer");
                return;
            }
            if (!s->body_done) {
                if (s->curl_paused) {
                    s->curl_paused = false;
                    s->x.last_byte_ms = sdkrt_now_ms_();      /* we were slow, not the server */
                    curl_easy_pause(s->easy, CURLPAUSE_CONT); /* may feed bytes right here */
                    sdkrt_loop_kick_(s->op.loop);
                    continue;
                }
                return;
            }
            if (s->body_err) {
                e = s->body_err;
                s->body_err = NULL;
                raw_lost(s, e);
                return;
            }
            r = sdkrt_sse_core_finish_(&s->core, &ev, &e);
            if (r == SDKRT_SC_END) {
                conn_lost(s, NULL);
                return;
            }
        }
        if (r == SDKRT_SC_ERROR) {
            raw_lost(s, e);
            return;
        }
        if (!deliver_event(s, &ev))
            return;
    }
}

/* ---- opening ---- */

static sdkrt_status follow_prepare(sdkrt_async_stream *s, sdkrt_error **err)
{
    sdkrt_request *req = NULL;
    const int64_t *after = s->sm.has_last ? &s->sm.last : NULL;
    if (s->make(s->userdata, after, &req, err) != SDKRT_OK || !req) {
        sdkrt_request_free(req);
        if (err && !*err)
            sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT, "follower: no request to open");
        return SDKRT_ERR;
    }
    sdkrt_call_options call = SDKRT_CALL_OPTIONS_INIT;
    if (s->fo.call)
        call = *s->fo.call;
    if (s->fo.cancel)
        call.cancel = s->fo.cancel;
    if (s->have_p)
        sdkrt_prepared_cleanup_(&s->p);
    s->have_p = false;
    sdkrt_keyed_call_ k;
    sdkrt_status st = sdkrt_keyed_call_init_(&k, s->client, req, &call, err);
    if (st == SDKRT_OK)
        st = sdkrt_prepare_(&s->p, s->client, req, &k.call, true, err);
    sdkrt_keyed_call_cleanup_(&k);
    sdkrt_request_free(req);
    s->have_p = st == SDKRT_OK;
    return st;
}

static void on_watch(void *userdata);

static void start_conn(sdkrt_async_stream *s)
{
    if (sdkrt_cancel_is_triggered(s->op.cancel)) {
        finish_cancelled(s, s->state == S_BACKOFF ? "cancelled while waiting to reconnect"
                                                  : "cancelled before connecting");
        return;
    }
    sdkrt_error *e = NULL;
    if (s->kind == K_FOLLOW && follow_prepare(s, &e) != SDKRT_OK) {
        finish(s, e);
        return;
    }
    s->state = S_RUNNING;
    if (!sdkrt_transport_is_curl_(s->client->transport)) {
        open_through_transport(s);
        return;
    }
    if (s->easy)
        curl_easy_reset(s->easy);
    else
        s->easy = sdkrt_loop_easy_take_(s->op.loop);
    memset(&s->x, 0, sizeof s->x);
    sdkrt_status st = SDKRT_ERR;
    if (!s->easy) {
        sdkrt_error_set(&e, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    } else {
        s->x_live = true;
        st = sdkrt_xfer_setup_(&s->x, s->easy, &s->p.treq, true, &e);
    }
    s->x.on_done = xfer_done;
    s->x.on_head = head_cb;
    s->x.owner = s;
    if (st == SDKRT_OK && (curl_easy_setopt(s->easy, CURLOPT_WRITEFUNCTION, write_cb) != CURLE_OK ||
                           curl_easy_setopt(s->easy, CURLOPT_WRITEDATA, s) != CURLE_OK ||
                           own_connection(s->easy) != CURLE_OK))
        st = sdkrt_error_set(&e, SDKRT_REASON_TRANSPORT, "libcurl refused the write callback");
    if (st == SDKRT_OK)
        st = sdkrt_loop_xfer_add_(s->op.loop, &s->x, &e);
    if (st == SDKRT_OK)
        on_watch(s); /* arms the timeouts */
    else {
        sdkrt_error_prefix_(e, "%s %s: ", s->p.method, s->p.shown_url);
        raw_lost(s, e);
    }
}

static void on_step(void *userdata)
{
    sdkrt_async_stream *s = userdata;
    enter(s);
    if (s->state == S_QUEUED || s->state == S_BACKOFF)
        start_conn(s);
    else if (s->state == S_RUNNING)
        deliver(s);
    leave(s);
}

/* The head and idle timeouts (also called once to arm them when a transfer starts). */
static void on_watch(void *userdata)
{
    sdkrt_async_stream *s = userdata;
    if (s->state != S_RUNNING || !s->x_live || s->body_done)
        return;
    enter(s);
    long long now = sdkrt_now_ms_();
    sdkrt_xfer_ *x = &s->x;
    sdkrt_error *e = NULL;
    long next = -1;
    if (sdkrt_xfer_head_overdue_(x, now)) {
        sdkrt_response *none = NULL;
        sdkrt_xfer_outcome_(x, true, &none, &e);
    } else if (x->idle_timeout_ms > 0 && !s->paused && now - x->last_byte_ms > x->idle_timeout_ms) {
        sdkrt_error_set(&e, SDKRT_REASON_TIMEOUT, "no data for %ld ms (idle timeout)",
                        x->idle_timeout_ms);
    } else {
        next = sdkrt_xfer_head_left_(x, now);
        if (x->idle_timeout_ms > 0) {
            long long left =
                s->paused ? x->idle_timeout_ms : x->last_byte_ms + x->idle_timeout_ms + 1 - now;
            if (left < 1)
                left = 1;
            if (next < 0 || left < next)
                next = (long)left;
        }
    }
    if (e) {
        sdkrt_error_prefix_(e, "%s %s: ", s->p.method, s->p.shown_url);
        raw_lost(s, e);
    } else if (next >= 0 && sdkrt_loop_timer_arm_(&s->watch, next) != SDKRT_OK) {
        finish_oom(s, "arming a timer");
    }
    leave(s);
}

/* The loop ends the stream: its token fired, or the loop is being freed. */
static void on_cancel(sdkrt_loop_op_ *op, bool loop_freed)
{
    sdkrt_async_stream *s = (sdkrt_async_stream *)op;
    enter(s);
    if (loop_freed)
        finish_cancelled(s, "cancelled: the loop was freed");
    else if (s->state == S_BACKOFF)
        finish_cancelled(s, "cancelled while waiting to reconnect");
    else if (s->state == S_QUEUED)
        finish_cancelled(s, "cancelled before connecting");
    else
        finish_cancelled(s, "cancelled");
    leave(s);
}

/* ---- starting ---- */

static sdkrt_status check_start(sdkrt_client *client, const sdkrt_stream_handlers *handlers,
                                sdkrt_error **err)
{
    if (!client || !handlers)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "an asynchronous stream needs a client and handlers");
    if (!client->loop)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "the client has no loop (sdkrt_client_options.loop)");
    return SDKRT_OK;
}

static sdkrt_async_stream *stream_new(sdkrt_client *client, skind kind,
                                      const sdkrt_stream_handlers *handlers, void *userdata,
                                      sdkrt_error **err)
{
    sdkrt_async_stream *s = calloc(1, sizeof *s);
    if (!s) {
        sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    s->client = client;
    s->kind = kind;
    s->h = *handlers;
    s->userdata = userdata;
    s->state = S_QUEUED;
    s->op.loop = client->loop;
    s->op.cancel_fn = on_cancel;
    sdkrt_loop_timer_init_(&s->step, client->loop, on_step, s);
    sdkrt_loop_timer_init_(&s->watch, client->loop, on_watch, s);
    return s;
}

/* Register s (its token set) and queue its first open. */
static sdkrt_status stream_go(sdkrt_async_stream *s, sdkrt_async_stream **out, sdkrt_error **err)
{
    if (sdkrt_loop_op_add_(&s->op, err) != SDKRT_OK) {
        stream_free(s);
        return SDKRT_ERR;
    }
    if (sdkrt_loop_timer_arm_(&s->step, 0) != SDKRT_OK) {
        sdkrt_loop_op_remove_(&s->op);
        stream_free(s);
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    }
    if (out)
        *out = s;
    return SDKRT_OK;
}

static sdkrt_status start_once(sdkrt_async_stream **out, sdkrt_client *client,
                               const sdkrt_request *req, const sdkrt_call_options *call,
                               const sdkrt_jop *op, const sdkrt_stream_handlers *handlers,
                               void *userdata, sdkrt_error **err)
{
    if (out)
        *out = NULL;
    if (check_start(client, handlers, err) != SDKRT_OK)
        return SDKRT_ERR;
    if (!req)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT, "the request is NULL");
    sdkrt_async_stream *s = stream_new(client, op ? K_TYPED : K_RAW, handlers, userdata, err);
    if (!s)
        return SDKRT_ERR;
    if (op) {
        s->jop = op;
        if (sdkrt_jcore_init_(&s->jc, op, err) != SDKRT_OK) {
            s->jop = NULL;
            stream_free(s);
            return SDKRT_ERR;
        }
    }
    sdkrt_keyed_call_ k;
    sdkrt_status st = sdkrt_keyed_call_init_(&k, client, req, call, err);
    if (st == SDKRT_OK)
        st = sdkrt_prepare_(&s->p, client, req, &k.call, true, err);
    sdkrt_keyed_call_cleanup_(&k);
    if (st != SDKRT_OK) {
        stream_free(s);
        return SDKRT_ERR;
    }
    s->have_p = true;
    s->op.cancel = s->p.treq.cancel;
    return stream_go(s, out, err);
}

sdkrt_status sdkrt_stream_start(sdkrt_async_stream **out, sdkrt_client *client,
                                const sdkrt_request *req, const sdkrt_call_options *call,
                                const sdkrt_stream_handlers *handlers, void *userdata,
                                sdkrt_error **err)
{
    return start_once(out, client, req, call, NULL, handlers, userdata, err);
}

sdkrt_status sdkrt_jstream_start(sdkrt_async_stream **out, sdkrt_client *client,
                                 const sdkrt_request *req, const sdkrt_call_options *call,
                                 const sdkrt_jop *op, const sdkrt_stream_handlers *handlers,
                                 void *userdata, sdkrt_error **err)
{
    if (!op) {
        if (out)
            *out = NULL;
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT, "the operation is NULL");
    }
    return start_once(out, client, req, call, op, handlers, userdata, err);
}

sdkrt_status sdkrt_follow_start(sdkrt_async_stream **out, sdkrt_client *client, const sdkrt_jop *op,
                                sdkrt_follow_request_fn make_request,
                                const sdkrt_follow_sequence *seq, const sdkrt_follow_options *opts,
                                const sdkrt_stream_handlers *handlers, void *userdata,
                                sdkrt_error **err)
{
    if (out)
        *out = NULL;
    if (check_start(client, handlers, err) != SDKRT_OK)
        return SDKRT_ERR;
    if (!op || !make_request || !seq || !seq->path || seq->depth == 0)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "follower: an operation, a request callback and a sequence path "
                               "are required");
    for (size_t i = 0; i < seq->depth; i++)
        if (!seq->path[i])
            return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                                   "follower: sequence path has a NULL name");
    sdkrt_follow_sm_ sm;
    if (sdkrt_follow_sm_init_(&sm, opts, 0, err) != SDKRT_OK)
        return SDKRT_ERR;
    sdkrt_async_stream *s = stream_new(client, K_FOLLOW, handlers, userdata, err);
    if (!s)
        return SDKRT_ERR;
    s->path = calloc(seq->depth, sizeof *s->path);
    if (!s->path) {
        stream_free(s);
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    }
    memcpy(s->path, seq->path, seq->depth * sizeof *s->path);
    s->depth = seq->depth;
    s->jop = op;
    if (sdkrt_jcore_init_(&s->jc, op, err) != SDKRT_OK) {
        s->jop = NULL;
        stream_free(s);
        return SDKRT_ERR;
    }
    if (opts)
        s->fo = *opts;
    s->strict = s->fo.strict;
    s->make = make_request;
    s->sm = sm;
    /* Jitter only spreads clients apart: any seed that differs between followers will do. */
    s->sm.rng ^= (uint64_t)sdkrt_now_ms_() ^ (uint64_t)(uintptr_t)s;
    const sdkrt_cancel *mine = s->fo.cancel ? s->fo.cancel : s->fo.call ? s->fo.call->cancel : NULL;
    s->op.cancel = sdkrt_cancel_either_(&s->either, mine, client->cancel);
    return stream_go(s, out, err);
}

bool sdkrt_async_follow_last_seq(const sdkrt_async_stream *s, int64_t *seq)
{
    if (!s || s->kind != K_FOLLOW || !s->sm.has_last)
        return false;
    if (seq)
        *seq = s->sm.last;
    return true;
}

/* ---- the program's controls ---- */

void sdkrt_async_stream_pause(sdkrt_async_stream *s)
{
    if (s && s->state != S_DONE)
        s->paused = true;
}

void sdkrt_async_stream_resume(sdkrt_async_stream *s)
{
    if (!s || s->state == S_DONE || !s->paused)
        return;
    enter(s);
    s->paused = false;
    s->x.last_byte_ms = sdkrt_now_ms_(); /* the idle timeout counts from here */
    if (s->state == S_RUNNING && !kick_step(s))
        finish_oom(s, "arming a timer");
    leave(s);
}

void sdkrt_async_stream_cancel(sdkrt_async_stream *s)
{
    if (!s || s->state == S_DONE)
        return;
    if (s->busy) {
        s->cancel_req = true; /* inside one of its handlers: acted on when it returns */
        return;
    }
    enter(s);
    on_cancel(&s->op, false);
    leave(s);
}
