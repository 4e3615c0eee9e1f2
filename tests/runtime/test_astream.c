/* test_astream.c - asynchronous streams and followers on the loop (sdkrt_stream_start,
 * sdkrt_jstream_start, sdkrt_follow_start) against a single-threaded SSE server (sse_server.c):
 * items in order, poison items (lenient and strict), a failure frame, a declared error status, a
 * server closing mid-stream (inside an event and at a boundary), the idle and head timeouts,
 * pause/resume, cancel in every phase (queued, headers, body, backoff, the loop freed; each gives
 * exactly one CANCELLED on_end and nothing after), a follower across a server restart with no item
 * repeated, follower backoff on loop timers while the loop keeps running, and 1,000 streams on one
 * loop. The blocking twins over the same bytes give the same items (one core). */
#include <check.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sdkrt/follow.h"
#include "sdkrt/json.h"
#include "sdkrt/loop.h"
#include "sdkrt/sdkrt.h"
#include "sse_server.h"

/* ---- the item: {"seq": n, "text": "..."} ---- */

static const sdkrt_jtype t_string = {
    .kind = SDKRT_JK_STRING, .name = "string", .size = sizeof(char *)};
static const sdkrt_jtype t_int = {
    .kind = SDKRT_JK_INTEGER, .name = "integer", .size = sizeof(int64_t)};
typedef struct item {
    int64_t seq;
    char *text;
} item;
static const sdkrt_jfield item_fields[] = {
    {"seq", &t_int, SDKRT_JF_REQUIRED, offsetof(item, seq), SDKRT_JNONE, SDKRT_JNONE},
    {"text", &t_string, SDKRT_JF_REQUIRED, offsetof(item, text), SDKRT_JNONE, SDKRT_JNONE},
};
static const sdkrt_jtype t_item = {.kind = SDKRT_JK_OBJECT,
                                   .name = "Item",
                                   .size = sizeof(item),
                                   .fields = item_fields,
                                   .nfields = 2};
static const sdkrt_jerror op_errors[] = {{404, "NotFound", &t_item, false},
                                         {503, "Busy", &t_item, false}};
static const sdkrt_jop op_items = {.id = "t.items",
                                   .status = 200,
                                   .encoding = SDKRT_JENC_SSE,
                                   .errors = op_errors,
                                   .nerrors = 2,
                                   .item = &t_item,
                                   .failure_event = "failure"};
static const char *const seq_path[] = {"seq"};
static const sdkrt_follow_sequence seq_spec = {seq_path, 1};

/* ---- the server's routes ---- */

static void add_items(ss_reply *r, long from, long to)
{
    for (long i = from; i <= to; i++)
        ss_body_printf(r, "data: {\"seq\":%ld,\"text\":\"t%ld\"}\n\n", i, i);
}

/* /items?n=N&after=A&gap=G&end=E&delay=D: items A+1..N, G ms apart, ended by E (0 clean, 1 cut,
 * 2 hold), the head after D ms. /restart2: the second server of the restart test replays from 1.
 * Others: see each test. */
static void route(void *ud, const char *target, const char *headers, ss_reply *r)
{
    (void)ud;
    (void)headers;
    long n = ss_query_long(target, "n", 5);
    long after = ss_query_long(target, "after", 0);
    r->gap_ms = ss_query_long(target, "gap", 0);
    r->end = (ss_end)ss_query_long(target, "end", SS_END_CLEAN);
    r->head_delay_ms = ss_query_long(target, "delay", 0);
    if (strncmp(target, "/items", 6) == 0) {
        add_items(r, after + 1, n);
    } else if (strncmp(target, "/poison", 7) == 0) {
        add_items(r, 1, 1);
        ss_body_printf(r, "data: {\"seq\":2,\"text\":5}\n\n");
        add_items(r, 3, 3);
    } else if (strncmp(target, "/fail", 5) == 0) {
        add_items(r, 1, 1);
        ss_body_printf(r, "event: failure\ndata: {\"_tag\":\"Fail\",\"error\":{\"_tag\":\"Boom\"}}"
                          "\n\n");
        add_items(r, 2, 2);
    } else if (strncmp(target, "/missing", 8) == 0) {
        r->status = 404;
        r->content_type = "application/json";
        ss_body_printf(r, "{\"_tag\":\"NotFound\",\"seq\":0,\"text\":\"no such stream\"}");
    } else if (strncmp(target, "/midevent", 9) == 0) {
        add_items(r, 1, 2);
        ss_body_printf(r, "data: {\"seq\":3,");
        r->end = SS_END_CUT;
    } else if (strncmp(target, "/done", 5) == 0) {
        add_items(r, 1, 2);
        ss_body_printf(r, "data: [DONE]\n\n");
        add_items(r, 3, 3);
        r->end = SS_END_HOLD;
    } else if (strncmp(target, "/restart2", 9) == 0) {
        add_items(r, 1, n); /* ignores after: the follower must drop the overlap */
    } else {
        r->status = 404;
        r->content_type = "text/plain";
        ss_body_printf(r, "no route");
    }
}

/* ---- a recorder of what handlers saw ---- */

typedef struct rec {
    sdkrt_async_stream *s;
    int items;
    int64_t seqs[4096];
    int nseqs;
    int poisons;
    int reconnects;
    long delays[16];
    unsigned attempts[16];
    int64_t reconnect_after[16];
    bool reconnect_has_after[16];
    int ends;
    bool after_end; /* a handler ran after on_end */
    sdkrt_reason reason;
    char tag[64];
    char message[512];
    int status;
    bool clean;
    /* actions */
    int pause_at;  /* pause after this many items */
    int cancel_at; /* sdkrt_async_stream_cancel after this many items */
    sdkrt_cancel *trigger_on_reconnect;
    int *open_count;
} rec;

static void on_item(void *ud, const void *it)
{
    rec *r = ud;
    if (r->ends)
        r->after_end = true;
    const item *x = it;
    char want[32];
    snprintf(want, sizeof want, "t%lld", (long long)x->seq);
    ck_assert_str_eq(x->text, want);
    if (r->nseqs < 4096)
        r->seqs[r->nseqs++] = x->seq;
    r->items++;
    if (r->pause_at && r->items == r->pause_at)
        sdkrt_async_stream_pause(r->s);
    if (r->cancel_at && r->items == r->cancel_at)
        sdkrt_async_stream_cancel(r->s);
}

static void on_raw(void *ud, const void *ev)
{
    rec *r = ud;
    const sdkrt_stream_event *e = ev;
    ck_assert_str_eq(e->event, "message");
    ck_assert_ptr_nonnull(strstr(e->data, "\"seq\":"));
    r->items++;
}

static void on_poison(void *ud, const void *p)
{
    rec *r = ud;
    const sdkrt_jstream_poison *poison = p;
    ck_assert_ptr_nonnull(poison->error);
    ck_assert_ptr_nonnull(poison->json);
    ck_assert_ptr_nonnull(strstr(poison->data, "\"text\":5"));
    r->poisons++;
}

static void on_reconnect(void *ud, const void *e)
{
    rec *r = ud;
    const sdkrt_follow_event *ev = e;
    ck_assert_int_eq(ev->kind, SDKRT_FOLLOW_RECONNECT);
    ck_assert_ptr_nonnull(ev->error);
    if (r->reconnects < 16) {
        r->delays[r->reconnects] = ev->delay_ms;
        r->attempts[r->reconnects] = ev->attempt;
        r->reconnect_after[r->reconnects] = ev->after;
        r->reconnect_has_after[r->reconnects] = ev->has_after;
    }
    r->reconnects++;
    if (r->trigger_on_reconnect)
        sdkrt_cancel_trigger(r->trigger_on_reconnect);
}

static void on_end(void *ud, const sdkrt_error *err)
{
    rec *r = ud;
    r->ends++;
    r->clean = err == NULL;
    if (err) {
        r->reason = sdkrt_error_reason(err);
        r->status = sdkrt_error_status(err);
        snprintf(r->tag, sizeof r->tag, "%s", sdkrt_error_tag(err) ? sdkrt_error_tag(err) : "");
        snprintf(r->message, sizeof r->message, "%s", sdkrt_error_message(err));
    }
}

static const sdkrt_stream_handlers typed_handlers = {on_item, on_poison, on_reconnect, on_end};
static const sdkrt_stream_handlers strict_handlers = {on_item, NULL, on_reconnect, on_end};
static const sdkrt_stream_handlers raw_handlers = {on_raw, NULL, NULL, on_end};

/* ---- fixture ---- */

static bool under_valgrind(void)
{
    const char *p = getenv("LD_PRELOAD");
    return p && strstr(p, "vgpreload");
}

typedef struct fx {
    ss_server *srv;
    sdkrt_loop *loop;
    sdkrt_client *c;
} fx;

static void fx_client(fx *f, const char *url, long idle_ms, long head_ms)
{
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.base_url = url;
    o.loop = f->loop;
    o.idle_timeout_ms = idle_ms;
    o.head_timeout_ms = head_ms;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_new(&f->c, &o, &err), SDKRT_OK);
}

static void fx_open(fx *f, long idle_ms, long head_ms)
{
    memset(f, 0, sizeof *f);
    ck_assert_int_eq(ss_start(&f->srv, 0, route, NULL), 0);
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_loop_new(&f->loop, &err), SDKRT_OK);
    fx_client(f, ss_url(f->srv), idle_ms, head_ms);
}

static void fx_close(fx *f)
{
    sdkrt_client_free(f->c);
    sdkrt_loop_free(f->loop);
    ss_stop(f->srv);
}

/* A GET of "/path?a=1&b=2" (the query as parameters). */
static sdkrt_status get_request(sdkrt_request **out, const char *target)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", target);
    char *q = strchr(buf, '?');
    if (q)
        *q++ = '\0';
    if (sdkrt_request_new(out, "GET", buf) != SDKRT_OK)
        return SDKRT_ERR;
    for (char *p = q; p && *p;) {
        char *amp = strchr(p, '&');
        if (amp)
            *amp = '\0';
        char *eq = strchr(p, '=');
        if (eq) {
            *eq = '\0';
            if (sdkrt_request_add_query(*out, p, eq + 1) != SDKRT_OK)
                return SDKRT_ERR;
        }
        p = amp ? amp + 1 : NULL;
    }
    return SDKRT_OK;
}

static sdkrt_request *get(const char *target)
{
    sdkrt_request *req = NULL;
    ck_assert_int_eq(get_request(&req, target), SDKRT_OK);
    return req;
}

static void start_typed(fx *f, rec *r, const char *path, const sdkrt_stream_handlers *h,
                        const sdkrt_call_options *call)
{
    sdkrt_request *req = get(path);
    sdkrt_error *err = NULL;
    sdkrt_status st = sdkrt_jstream_start(&r->s, f->c, req, call, &op_items, h, r, &err);
    ck_assert_msg(st == SDKRT_OK, "start: %s", sdkrt_error_message(err));
    ck_assert_ptr_nonnull(r->s);
    sdkrt_request_free(req);
}

/* Run the loop until *ends reaches want or limit_ms passes. */
static void run_until(sdkrt_loop *loop, const int *ends, int want, long limit_ms)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    sdkrt_error *err = NULL;
    while (*ends < want) {
        ck_assert_int_eq(sdkrt_loop_run_once(loop, 20, &err), SDKRT_OK);
        clock_gettime(CLOCK_MONOTONIC, &t);
        long ms = (t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000;
        if (ms > limit_ms)
            break;
    }
}

static void spin(sdkrt_loop *loop, long ms)
{
    int never = 0;
    run_until(loop, &never, 1, ms);
}

static void assert_in_order(const rec *r, int64_t from, int64_t to)
{
    ck_assert_int_eq(r->nseqs, (int)(to - from + 1));
    for (int i = 0; i < r->nseqs; i++)
        ck_assert_int_eq(r->seqs[i], from + i);
}

/* ---- typed streams ---- */

START_TEST(items_in_order_then_clean_end)
{
    fx f;
    fx_open(&f, 0, 0);
    rec r = {0};
    start_typed(&f, &r, "/items?n=40&gap=2", &typed_handlers, NULL);
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_loop_run(f.loop, &err), SDKRT_OK); /* returns when nothing is left */
    ck_assert_int_eq(r.ends, 1);
    ck_assert(r.clean);
    assert_in_order(&r, 1, 40);
    ck_assert(!r.after_end);
    fx_close(&f);
}
END_TEST

START_TEST(raw_stream_events)
{
    fx f;
    fx_open(&f, 0, 0);
    rec r = {0};
    sdkrt_request *req = get("/items?n=7");
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_stream_start(&r.s, f.c, req, NULL, &raw_handlers, &r, &err), SDKRT_OK);
    sdkrt_request_free(req);
    run_until(f.loop, &r.ends, 1, 5000);
    ck_assert_int_eq(r.ends, 1);
    ck_assert(r.clean);
    ck_assert_int_eq(r.items, 7);
    /* a raw stream's 404 is UNEXPECTED_STATUS with the body */
    rec r2 = {0};
    req = get("/missing");
    ck_assert_int_eq(sdkrt_stream_start(&r2.s, f.c, req, NULL, &raw_handlers, &r2, &err), SDKRT_OK);
    sdkrt_request_free(req);
    run_until(f.loop, &r2.ends, 1, 5000);
    ck_assert_int_eq(r2.ends, 1);
    ck_assert_int_eq(r2.reason, SDKRT_REASON_UNEXPECTED_STATUS);
    ck_assert_int_eq(r2.status, 404);
    ck_assert_ptr_nonnull(strstr(r2.message, "no such stream"));
    fx_close(&f);
}
END_TEST

START_TEST(poison_lenient_and_strict)
{
    fx f;
    fx_open(&f, 0, 0);
    rec lenient = {0}, strict = {0};
    start_typed(&f, &lenient, "/poison", &typed_handlers, NULL);
    start_typed(&f, &strict, "/poison", &strict_handlers, NULL);
    run_until(f.loop, &lenient.ends, 1, 5000);
    run_until(f.loop, &strict.ends, 1, 5000);
    ck_assert_int_eq(lenient.ends, 1);
    ck_assert(lenient.clean);
    ck_assert_int_eq(lenient.items, 2);
    ck_assert_int_eq(lenient.poisons, 1);
    ck_assert_int_eq(strict.ends, 1);
    ck_assert_int_eq(strict.items, 1);
    ck_assert_int_eq(strict.reason, SDKRT_REASON_MALFORMED_RESPONSE);
    ck_assert(!strict.after_end);
    fx_close(&f);
}
END_TEST

START_TEST(failure_frame_and_declared_error)
{
    fx f;
    fx_open(&f, 0, 0);
    rec fail = {0}, missing = {0}, done = {0};
    start_typed(&f, &fail, "/fail", &typed_handlers, NULL);
    start_typed(&f, &missing, "/missing", &typed_handlers, NULL);
    start_typed(&f, &done, "/done", &typed_handlers, NULL);
    run_until(f.loop, &fail.ends, 1, 5000);
    run_until(f.loop, &missing.ends, 1, 5000);
    run_until(f.loop, &done.ends, 1, 5000);
    ck_assert_int_eq(fail.ends, 1);
    ck_assert_int_eq(fail.items, 1); /* nothing after the failure frame */
    ck_assert_str_eq(fail.tag, SDKRT_JSTREAM_FAILURE_TAG);
    ck_assert_ptr_nonnull(strstr(fail.message, "Boom"));
    ck_assert_int_eq(missing.ends, 1);
    ck_assert_int_eq(missing.items, 0);
    ck_assert_str_eq(missing.tag, "NotFound");
    ck_assert_int_eq(missing.status, 404);
    ck_assert_int_eq(done.ends, 1); /* "[DONE]" ends it although the server holds on */
    ck_assert(done.clean);
    ck_assert_int_eq(done.items, 2);
    fx_close(&f);
}
END_TEST

START_TEST(server_closes_mid_stream)
{
    fx f;
    fx_open(&f, 0, 0);
    rec mid = {0}, cut = {0};
    start_typed(&f, &mid, "/midevent", &typed_handlers, NULL);
    start_typed(&f, &cut, "/items?n=4&end=1", &typed_handlers, NULL);
    run_until(f.loop, &mid.ends, 1, 5000);
    run_until(f.loop, &cut.ends, 1, 5000);
    ck_assert_int_eq(mid.ends, 1);
    assert_in_order(&mid, 1, 2);
    ck_assert_int_eq(mid.reason, SDKRT_REASON_TRANSPORT);
    ck_assert_int_eq(cut.ends, 1);
    assert_in_order(&cut, 1, 4); /* the events before the cut are delivered, then the cut */
    ck_assert_int_eq(cut.reason, SDKRT_REASON_TRANSPORT);
    ck_assert_ptr_nonnull(strstr(cut.message, "GET http://127.0.0.1:"));
    fx_close(&f);
}
END_TEST

START_TEST(idle_and_head_timeouts)
{
    fx f;
    long t = under_valgrind() ? 5000 : 1000; /* valgrind: room to connect */
    fx_open(&f, t, t);
    rec idle = {0}, head = {0};
    start_typed(&f, &idle, "/items?n=2&end=2", &typed_handlers, NULL);
    start_typed(&f, &head, "/items?n=2&delay=60000", &typed_handlers, NULL);
    run_until(f.loop, &idle.ends, 1, 4 * t);
    run_until(f.loop, &head.ends, 1, 4 * t);
    ck_assert_int_eq(idle.ends, 1);
    ck_assert_msg(idle.items == 2, "%d items: %s", idle.items, idle.message);
    ck_assert_int_eq(idle.reason, SDKRT_REASON_TIMEOUT);
    ck_assert_ptr_nonnull(strstr(idle.message, "idle timeout"));
    ck_assert_int_eq(head.ends, 1);
    ck_assert_int_eq(head.items, 0);
    ck_assert_int_eq(head.reason, SDKRT_REASON_TIMEOUT);
    ck_assert_ptr_nonnull(strstr(head.message, "head timeout"));
    fx_close(&f);
}
END_TEST

START_TEST(pause_stops_delivery_until_resume)
{
    fx f;
    /* a pause longer than the idle timeout is not a silent server (valgrind: more room to start) */
    long idle = under_valgrind() ? 5000 : 1000;
    fx_open(&f, idle, 0);
    rec r = {0};
    r.pause_at = 5;
    start_typed(&f, &r, "/items?n=3000", &typed_handlers, NULL);
    run_until(f.loop, &r.items, 5, 10000);
    ck_assert_msg(r.ends == 0, "ended: %s", r.message);
    spin(f.loop, idle + 300);
    ck_assert_int_eq(r.items, 5);
    ck_assert_int_eq(r.ends, 0);
    sdkrt_async_stream_resume(r.s);
    run_until(f.loop, &r.ends, 1, 10000);
    ck_assert_int_eq(r.ends, 1);
    ck_assert(r.clean);
    assert_in_order(&r, 1, 3000);
    fx_close(&f);
}
END_TEST

/* ---- cancel in every phase ---- */

static void count_head(void *userdata, int status, const sdkrt_header *headers, size_t count)
{
    (void)headers;
    (void)count;
    int *seen = userdata;
    *seen = status;
}

/* A server that sends its head and then nothing: on_response sees the head at once. */
START_TEST(quiet_stream_reports_its_head)
{
    fx f;
    fx_open(&f, 0, 0);
    int status = 0;
    sdkrt_call_options call = SDKRT_CALL_OPTIONS_INIT;
    call.on_response = count_head;
    call.userdata = &status;
    rec quiet = {0};
    start_typed(&f, &quiet, "/items?n=0&end=2", &typed_handlers, &call);
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    sdkrt_error *err = NULL;
    for (long ms = 0; status == 0 && ms < 5000;) {
        ck_assert_int_eq(sdkrt_loop_run_once(f.loop, 20, &err), SDKRT_OK);
        clock_gettime(CLOCK_MONOTONIC, &t);
        ms = (t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000;
    }
    ck_assert_int_eq(status, 200);
    ck_assert_int_eq(quiet.items, 0);
    ck_assert_int_eq(quiet.ends, 0);
    sdkrt_async_stream_cancel(quiet.s);
    ck_assert_int_eq(quiet.ends, 1);
    ck_assert_int_eq(quiet.reason, SDKRT_REASON_CANCELLED);
    fx_close(&f);
}
END_TEST

START_TEST(cancel_in_every_phase)
{
    fx f;
    fx_open(&f, 0, 0);
    sdkrt_error *err = NULL;
    /* queued: before the loop ran at all */
    rec queued = {0};
    start_typed(&f, &queued, "/items?n=5", &typed_handlers, NULL);
    sdkrt_async_stream_cancel(queued.s);
    ck_assert_int_eq(queued.ends, 1);
    ck_assert_int_eq(queued.reason, SDKRT_REASON_CANCELLED);
    /* headers: the server waits before its head; the call's token fires */
    sdkrt_cancel *tok = NULL;
    ck_assert_int_eq(sdkrt_cancel_new(&tok), SDKRT_OK);
    sdkrt_call_options call = SDKRT_CALL_OPTIONS_INIT;
    call.cancel = tok;
    rec head = {0};
    start_typed(&f, &head, "/items?n=5&delay=5000", &typed_handlers, &call);
    spin(f.loop, 100);
    ck_assert_int_eq(head.ends, 0);
    sdkrt_cancel_trigger(tok);
    run_until(f.loop, &head.ends, 1, 3000);
    ck_assert_int_eq(head.ends, 1);
    ck_assert_int_eq(head.reason, SDKRT_REASON_CANCELLED);
    ck_assert_int_eq(head.items, 0);
    /* body: from inside on_item; nothing after it although more items are buffered */
    rec body = {0};
    body.cancel_at = 3;
    start_typed(&f, &body, "/items?n=50", &typed_handlers, NULL);
    run_until(f.loop, &body.ends, 1, 3000);
    spin(f.loop, 50);
    ck_assert_int_eq(body.ends, 1);
    ck_assert_int_eq(body.items, 3);
    ck_assert_int_eq(body.reason, SDKRT_REASON_CANCELLED);
    ck_assert(!body.after_end);
    /* a trickling body, cancelled from outside a handler */
    rec trickle = {0};
    start_typed(&f, &trickle, "/items?n=100&gap=20", &typed_handlers, NULL);
    run_until(f.loop, &trickle.items, 2, 3000);
    sdkrt_async_stream_cancel(trickle.s);
    ck_assert_int_eq(trickle.ends, 1);
    int seen = trickle.items;
    spin(f.loop, 100);
    ck_assert_int_eq(trickle.items, seen);
    ck_assert_int_eq(trickle.reason, SDKRT_REASON_CANCELLED);
    /* the loop freed with a stream open */
    rec open = {0};
    start_typed(&f, &open, "/items?n=2&end=2", &typed_handlers, NULL);
    run_until(f.loop, &open.items, 2, 3000);
    sdkrt_client_free(f.c);
    sdkrt_loop_free(f.loop);
    f.c = NULL;
    f.loop = NULL;
    ck_assert_int_eq(open.ends, 1);
    ck_assert_int_eq(open.reason, SDKRT_REASON_CANCELLED);
    ck_assert_int_eq(queued.ends + head.ends + body.ends + trickle.ends, 4);
    sdkrt_cancel_free(tok);
    fx_close(&f);
}
END_TEST

/* ---- followers ---- */

typedef struct follow_ctx {
    rec r;
    const char *path; /* "/items?n=6&end=1" */
    int opens;
    int64_t afters[16];
    bool has_after[16];
} follow_ctx;

static sdkrt_status make_request(void *ud, const int64_t *after, sdkrt_request **out,
                                 sdkrt_error **err)
{
    follow_ctx *c = ud;
    if (c->opens < 16) {
        c->has_after[c->opens] = after != NULL;
        c->afters[c->opens] = after ? *after : -1;
    }
    c->opens++;
    char path[128];
    snprintf(path, sizeof path, "%s%s%lld", c->path,
             strchr(c->path, '?') ? "&after=" : "?after=", after ? (long long)*after : 0LL);
    if (get_request(out, path) != SDKRT_OK)
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    return SDKRT_OK;
}

/* The handlers see the rec at the start of the context. */
static void start_follow(fx *f, follow_ctx *c, const sdkrt_follow_options *o)
{
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_follow_start(&c->r.s, f->c, &op_items, make_request, &seq_spec, o,
                                        &typed_handlers, c, &err),
                     SDKRT_OK);
}

START_TEST(follower_across_a_server_restart)
{
    fx f;
    fx_open(&f, 0, 0);
    int port = ss_port(f.srv);
    follow_ctx c = {0};
    c.path = "/items?n=3&end=2"; /* three items, then the server holds the stream open */
    sdkrt_follow_options o = SDKRT_FOLLOW_OPTIONS_INIT;
    o.initial_delay_ms = 20;
    o.max_delay_ms = 80;
    o.end_when_closed = true;
    start_follow(&f, &c, &o);
    run_until(f.loop, &c.r.items, 3, 5000);
    ck_assert_int_eq(c.r.items, 3);
    ss_stop(f.srv); /* the stream is cut, and nothing listens for a while */
    f.srv = NULL;
    run_until(f.loop, &c.r.reconnects, 3, 5000);
    ck_assert_int_ge(c.r.reconnects, 3);
    ck_assert_int_eq(c.r.ends, 0);
    /* back on the same port; it replays from 1 whatever `after` says */
    ck_assert_int_eq(ss_start(&f.srv, port, route, NULL), 0);
    c.path = "/restart2?n=6";
    run_until(f.loop, &c.r.ends, 1, 5000);
    ck_assert_int_eq(c.r.ends, 1);
    ck_assert(c.r.clean); /* end_when_closed */
    assert_in_order(&c.r, 1, 6);
    ck_assert_int_eq(c.has_after[0], false);
    ck_assert(c.has_after[c.opens - 1]);
    ck_assert_int_eq(c.afters[c.opens - 1], 3); /* resumed after the last sequence */
    for (int i = 0; i < c.r.reconnects && i < 16; i++) {
        ck_assert(c.r.reconnect_has_after[i]);
        ck_assert_int_eq(c.r.reconnect_after[i], 3);
    }
    fx_close(&f);
}
END_TEST

static void tick(void *ud)
{
    int *n = ud;
    (*n)++;
}

START_TEST(follower_backoff_on_loop_timers)
{
    fx f;
    memset(&f, 0, sizeof f);
    ck_assert_int_eq(ss_start(&f.srv, 0, route, NULL), 0);
    int port = ss_port(f.srv);
    ss_stop(f.srv); /* nothing listens there now */
    f.srv = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_loop_new(&f.loop, &err), SDKRT_OK);
    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%d", port);
    fx_client(&f, url, 0, 0);
    follow_ctx c = {0};
    c.path = "/items?n=3";
    sdkrt_follow_options o = SDKRT_FOLLOW_OPTIONS_INIT;
    o.initial_delay_ms = 40;
    o.max_delay_ms = 100;
    o.max_attempts = 4;
    start_follow(&f, &c, &o);
    /* the loop keeps running other work during the waits: a 5 ms ticker */
    int ticks = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    while (c.r.ends == 0) {
        ck_assert_int_eq(sdkrt_loop_timer_start(NULL, f.loop, 5, tick, &ticks, &err), SDKRT_OK);
        ck_assert_int_eq(sdkrt_loop_run_once(f.loop, 50, &err), SDKRT_OK);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    long elapsed = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
    ck_assert_int_eq(c.r.ends, 1);
    ck_assert_int_eq(c.r.reason, SDKRT_REASON_TRANSPORT);
    ck_assert_ptr_nonnull(strstr(c.r.message, "gave up after 4 reconnects"));
    ck_assert_int_eq(c.r.reconnects, 4);
    ck_assert_int_eq(c.opens, 5);
    long want[4] = {40, 80, 100, 100}, sum = 0;
    for (int i = 0; i < 4; i++) {
        ck_assert_uint_eq(c.r.attempts[i], (unsigned)(i + 1));
        ck_assert_int_ge(c.r.delays[i], want[i] / 2); /* equal jitter: [d/2, d] */
        ck_assert_int_le(c.r.delays[i], want[i]);
        sum += c.r.delays[i];
    }
    ck_assert_int_ge(elapsed, sum - 5); /* the waits happened */
    ck_assert_int_ge(ticks, 10);        /* and the loop ran other work meanwhile */
    fx_close(&f);
}
END_TEST

START_TEST(follower_cancel_during_backoff_and_final_errors)
{
    fx f;
    fx_open(&f, 0, 0);
    sdkrt_error *err = NULL;
    sdkrt_cancel *tok = NULL;
    ck_assert_int_eq(sdkrt_cancel_new(&tok), SDKRT_OK);
    /* the first stream is cut; the token fires inside on_reconnect: the wait ends with CANCELLED
       and nothing reopens */
    follow_ctx c = {0};
    c.path = "/items?n=2&end=1";
    c.r.trigger_on_reconnect = tok;
    sdkrt_follow_options o = SDKRT_FOLLOW_OPTIONS_INIT;
    o.initial_delay_ms = 5000;
    o.cancel = tok;
    start_follow(&f, &c, &o);
    run_until(f.loop, &c.r.ends, 1, 3000);
    ck_assert_int_eq(c.r.ends, 1);
    ck_assert_int_eq(c.r.reason, SDKRT_REASON_CANCELLED);
    ck_assert_int_eq(c.r.items, 2);
    ck_assert_int_eq(c.r.reconnects, 1);
    ck_assert_int_eq(c.opens, 1);
    ck_assert_ptr_nonnull(strstr(c.r.message, "waiting to reconnect"));
    /* a token fired during the wait, from outside */
    sdkrt_cancel *tok2 = NULL;
    ck_assert_int_eq(sdkrt_cancel_new(&tok2), SDKRT_OK);
    follow_ctx w = {0};
    w.path = "/items?n=1&end=1";
    o.cancel = tok2;
    start_follow(&f, &w, &o);
    run_until(f.loop, &w.r.reconnects, 1, 3000);
    ck_assert_int_eq(w.r.reconnects, 1);
    sdkrt_cancel_trigger(tok2);
    run_until(f.loop, &w.r.ends, 1, 3000);
    ck_assert_int_eq(w.r.ends, 1);
    ck_assert_int_eq(w.r.reason, SDKRT_REASON_CANCELLED);
    ck_assert_ptr_nonnull(strstr(w.r.message, "waiting to reconnect"));
    /* a 404 and a failure frame are final: no reconnect */
    follow_ctx nf = {0}, ff = {0};
    nf.path = "/missing";
    ff.path = "/fail";
    o = (sdkrt_follow_options)SDKRT_FOLLOW_OPTIONS_INIT;
    o.initial_delay_ms = 10;
    start_follow(&f, &nf, &o);
    start_follow(&f, &ff, &o);
    run_until(f.loop, &nf.r.ends, 1, 3000);
    run_until(f.loop, &ff.r.ends, 1, 3000);
    ck_assert_str_eq(nf.r.tag, "NotFound");
    ck_assert_int_eq(nf.r.reconnects, 0);
    ck_assert_str_eq(ff.r.tag, SDKRT_JSTREAM_FAILURE_TAG);
    ck_assert_int_eq(ff.r.reconnects, 0);
    ck_assert_int_eq(ff.r.items, 1);
    sdkrt_cancel_free(tok);
    sdkrt_cancel_free(tok2);
    fx_close(&f);
}
END_TEST

/* ---- many streams ---- */

START_TEST(a_thousand_streams_on_one_loop)
{
    fx f;
    fx_open(&f, 0, 0);
    int n = under_valgrind() ? 100 : 1000;
    rec *r = calloc((size_t)n, sizeof *r);
    ck_assert_ptr_nonnull(r);
    int ends = 0;
    for (int i = 0; i < n; i++)
        start_typed(&f, &r[i], "/items?n=20&gap=150", &typed_handlers, NULL);
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    sdkrt_error *err = NULL;
    while (ends < n) {
        ck_assert_int_eq(sdkrt_loop_run_once(f.loop, 50, &err), SDKRT_OK);
        ends = 0;
        for (int i = 0; i < n; i++)
            ends += r[i].ends;
        clock_gettime(CLOCK_MONOTONIC, &t);
        if (t.tv_sec - t0.tv_sec > 60)
            break;
    }
    ck_assert_int_eq(ends, n);
    for (int i = 0; i < n; i++) {
        ck_assert_int_eq(r[i].ends, 1);
        ck_assert_msg(r[i].clean, "stream %d: %s", i, r[i].message);
        assert_in_order(&r[i], 1, 20);
    }
    ck_assert_int_ge(ss_accepted(f.srv), n);
    free(r);
    fx_close(&f);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("astream");
    TCase *t = tcase_create("streams");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, items_in_order_then_clean_end);
    tcase_add_test(t, raw_stream_events);
    tcase_add_test(t, poison_lenient_and_strict);
    tcase_add_test(t, failure_frame_and_declared_error);
    tcase_add_test(t, server_closes_mid_stream);
    tcase_add_test(t, idle_and_head_timeouts);
    tcase_add_test(t, quiet_stream_reports_its_head);
    tcase_add_test(t, pause_stops_delivery_until_resume);
    tcase_add_test(t, cancel_in_every_phase);
    tcase_add_test(t, follower_across_a_server_restart);
    tcase_add_test(t, follower_backoff_on_loop_timers);
    tcase_add_test(t, follower_cancel_during_backoff_and_final_errors);
    tcase_add_test(t, a_thousand_streams_on_one_loop);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
