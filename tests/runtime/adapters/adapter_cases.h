/* adapter_cases.h - the cases every loop adapter passes (test_uv.c, test_event.c include it, then
 * define driver(): the program's loop as the adapter sees it, and ADAPTER_NAME). Real asynchronous
 * calls (sdkrt_client_send_async) against the local test server, driven by the program's own loop
 * through the adapter: many at once to completion, loop timers in order and cancelled, a call
 * cancelled by its token from a loop timer, a call timed out by the engine's timer, a refused
 * connection, and sdkrt_loop_free with a call pending. The loop is stopped from callbacks once
 * what a case waits for happened; Check's timeout catches a loop that never gets there. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sdkrt/loop.h"
#include "sdkrt/sdkrt.h"
#include "test_server.h"

typedef struct adapter_driver {
    void *(*open)(void); /* a new native loop */
    sdkrt_status (*adapt)(sdkrt_loop **out, void *native, sdkrt_error **err);
    void (*run)(void *native);   /* until stopped, or nothing is left to wait for */
    void (*stop)(void *native);  /* from a callback: make run return */
    void (*close)(void *native); /* after sdkrt_loop_free: let it release and free it */
} adapter_driver;

static const adapter_driver *driver(void); /* defined by the including test */
#define DRIVER (*driver())

/* /ok/N answers {"n":N}; /slow answers after 10 s (the server's stop wakes it). */
static int handler(void *ud, const ts_request *req, ts_conn *c)
{
    (void)ud;
    if (strncmp(req->target, "/ok/", 4) == 0) {
        char body[64];
        int n = snprintf(body, sizeof body, "{\"n\":%s}", req->target + 4);
        return ts_respond(c, 200, "application/json", body, (size_t)n);
    }
    if (strcmp(req->target, "/events") == 0) { /* three events, one chunk each, then the end */
        if (ts_chunked_head(c, 200, "text/event-stream") != 0)
            return -1;
        for (int i = 1; i <= 3; i++) {
            char ev[32];
            int n = snprintf(ev, sizeof ev, "id: %d\ndata: {\"i\":%d}\n\n", i, i);
            if (ts_chunk(c, ev, (size_t)n) != 0 || ts_sleep(c, 5) != 0)
                return -1;
        }
        return ts_chunk_end(c) == 0 ? 0 : -1;
    }
    if (strcmp(req->target, "/slow") == 0) {
        if (ts_sleep(c, 10000) != 0)
            return -1;
        return ts_respond(c, 200, "application/json", "{}", 2);
    }
    return ts_respond(c, 404, "application/json", "{}", 2);
}

typedef struct fixture {
    ts_server *server;
    void *native;
    sdkrt_loop *loop;
    sdkrt_client *client;
} fixture;

static void setup_fixture(fixture *f, const char *base_url)
{
    memset(f, 0, sizeof *f);
    ck_assert_int_eq(ts_start(&f->server, handler, NULL), 0);
    f->native = DRIVER.open();
    ck_assert_ptr_nonnull(f->native);
    sdkrt_error *err = NULL;
    ck_assert_int_eq(DRIVER.adapt(&f->loop, f->native, &err), SDKRT_OK);
    ck_assert_ptr_null(err);
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.base_url = base_url ? base_url : ts_url(f->server);
    o.loop = f->loop;
    o.retry = (sdkrt_retry_policy)SDKRT_RETRY_POLICY_OFF;
    ck_assert_int_eq(sdkrt_client_new(&f->client, &o, &err), SDKRT_OK);
}

static void teardown_fixture(fixture *f)
{
    sdkrt_client_free(f->client);
    sdkrt_loop_free(f->loop);
    DRIVER.close(f->native);
    ts_stop(f->server);
}

/* ---- one call's outcome ---- */

typedef struct outcome {
    fixture *f;
    int done; /* times the callback ran */
    int status;
    char body[64];
    sdkrt_reason reason; /* of the error, SDKRT_REASON_NONE when there was none */
    int *left;           /* calls still running: the last one stops the loop */
} outcome;

static void on_done(void *userdata, sdkrt_response *resp, const sdkrt_error *err)
{
    outcome *o = userdata;
    o->done++;
    if (resp) {
        o->status = sdkrt_response_status(resp);
        size_t len = 0;
        const char *b = sdkrt_response_body(resp, &len);
        snprintf(o->body, sizeof o->body, "%.*s", (int)len, b ? b : "");
        sdkrt_response_free(resp);
    }
    o->reason = err ? sdkrt_error_reason(err) : SDKRT_REASON_NONE;
    if (err)
        snprintf(o->body, sizeof o->body, "%s", sdkrt_error_message(err));
    if (o->left && --*o->left == 0)
        DRIVER.stop(o->f->native);
}

static void start(fixture *f, const char *path, const sdkrt_call_options *call, outcome *o)
{
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "GET", path), SDKRT_OK);
    sdkrt_error *err = NULL;
    sdkrt_status st = sdkrt_client_send_async(f->client, req, call, on_done, o, &err);
    ck_assert_msg(st == SDKRT_OK, "send_async: %s", err ? sdkrt_error_message(err) : "?");
    sdkrt_request_free(req);
}

/* A loop timer that stops the native loop (a bound on cases that wait for nothing else). */
static void stop_native(void *userdata)
{
    fixture *f = userdata;
    DRIVER.stop(f->native);
}

START_TEST(many_calls_complete)
{
    enum { N = 64 };
    fixture f;
    setup_fixture(&f, NULL);
    outcome o[N];
    int left = N;
    for (int i = 0; i < N; i++) {
        memset(&o[i], 0, sizeof o[i]);
        o[i].f = &f;
        o[i].left = &left;
        char path[32];
        snprintf(path, sizeof path, "/ok/%d", i);
        start(&f, path, NULL, &o[i]);
    }
    DRIVER.run(f.native);
    ck_assert_int_eq(left, 0);
    for (int i = 0; i < N; i++) {
        char want[32];
        snprintf(want, sizeof want, "{\"n\":%d}", i);
        ck_assert_int_eq(o[i].done, 1);
        ck_assert_int_eq(o[i].reason, SDKRT_REASON_NONE);
        ck_assert_int_eq(o[i].status, 200);
        ck_assert_str_eq(o[i].body, want);
    }
    ck_assert_int_eq(ts_requests(f.server), N);
    /* A second round on the same loop: kept connections are reused. */
    int before = ts_connections(f.server);
    left = 8;
    for (int i = 0; i < 8; i++) {
        memset(&o[i], 0, sizeof o[i]);
        o[i].f = &f;
        o[i].left = &left;
        start(&f, "/ok/7", NULL, &o[i]);
    }
    DRIVER.run(f.native);
    for (int i = 0; i < 8; i++)
        ck_assert_str_eq(o[i].body, "{\"n\":7}");
    ck_assert_int_le(ts_connections(f.server), before + 8);
    ck_assert_int_eq(ts_requests(f.server), N + 8);
    teardown_fixture(&f);
}
END_TEST

typedef struct events {
    fixture *f;
    char seen[64]; /* the data of every event, in order */
    int ended;
    sdkrt_reason reason;
    int *left;
} events;

static void on_item(void *userdata, const void *item)
{
    events *e = userdata;
    const sdkrt_stream_event *ev = item;
    size_t have = strlen(e->seen);
    snprintf(e->seen + have, sizeof e->seen - have, "%s", ev->data);
}

static void on_end(void *userdata, const sdkrt_error *err)
{
    events *e = userdata;
    e->ended++;
    e->reason = err ? sdkrt_error_reason(err) : SDKRT_REASON_NONE;
    if (--*e->left == 0)
        DRIVER.stop(e->f->native);
}

START_TEST(streams_run_to_their_end)
{
    enum { N = 8 };
    fixture f;
    setup_fixture(&f, NULL);
    events e[N];
    int left = N;
    sdkrt_stream_handlers h = {on_item, NULL, NULL, on_end};
    for (int i = 0; i < N; i++) {
        memset(&e[i], 0, sizeof e[i]);
        e[i].f = &f;
        e[i].left = &left;
        sdkrt_request *req = NULL;
        ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/events"), SDKRT_OK);
        sdkrt_error *err = NULL;
        ck_assert_int_eq(sdkrt_stream_start(NULL, f.client, req, NULL, &h, &e[i], &err), SDKRT_OK);
        sdkrt_request_free(req);
    }
    DRIVER.run(f.native);
    ck_assert_int_eq(left, 0);
    for (int i = 0; i < N; i++) {
        ck_assert_int_eq(e[i].ended, 1);
        ck_assert_int_eq(e[i].reason, SDKRT_REASON_NONE);
        ck_assert_str_eq(e[i].seen, "{\"i\":1}{\"i\":2}{\"i\":3}");
    }
    teardown_fixture(&f);
}
END_TEST

typedef struct timers {
    fixture *f;
    char order[8];
    int fired;
} timers;

static void fire_a(void *userdata)
{
    timers *t = userdata;
    t->order[t->fired++] = 'a';
    DRIVER.stop(t->f->native);
}

static void fire_b(void *userdata)
{
    timers *t = userdata;
    t->order[t->fired++] = 'b';
}

static void fire_c(void *userdata)
{
    timers *t = userdata;
    t->order[t->fired++] = 'c';
}

START_TEST(timers_fire_in_order_and_cancel)
{
    fixture f;
    setup_fixture(&f, NULL);
    timers t = {&f, "", 0};
    sdkrt_error *err = NULL;
    sdkrt_loop_timer *c = NULL;
    ck_assert_int_eq(sdkrt_loop_timer_start(NULL, f.loop, 60, fire_a, &t, &err), SDKRT_OK);
    ck_assert_int_eq(sdkrt_loop_timer_start(NULL, f.loop, 5, fire_b, &t, &err), SDKRT_OK);
    ck_assert_int_eq(sdkrt_loop_timer_start(&c, f.loop, 20, fire_c, &t, &err), SDKRT_OK);
    sdkrt_loop_timer_cancel(c);
    DRIVER.run(f.native);
    ck_assert_str_eq(t.order, "ba");
    teardown_fixture(&f);
}
END_TEST

static void trigger(void *userdata)
{
    sdkrt_cancel_trigger(userdata);
}

START_TEST(cancel_token_ends_a_call)
{
    fixture f;
    setup_fixture(&f, NULL);
    sdkrt_cancel *cancel = NULL;
    ck_assert_int_eq(sdkrt_cancel_new(&cancel), SDKRT_OK);
    sdkrt_call_options call = SDKRT_CALL_OPTIONS_INIT;
    call.cancel = cancel;
    outcome slow = {.f = &f};
    int left = 1;
    slow.left = &left;
    start(&f, "/slow", &call, &slow);
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_loop_timer_start(NULL, f.loop, 50, trigger, cancel, &err), SDKRT_OK);
    DRIVER.run(f.native);
    ck_assert_int_eq(slow.done, 1);
    ck_assert_int_eq(slow.reason, SDKRT_REASON_CANCELLED);
    /* Nothing more comes from it: run on for a while. */
    ck_assert_int_eq(sdkrt_loop_timer_start(NULL, f.loop, 50, stop_native, &f, &err), SDKRT_OK);
    DRIVER.run(f.native);
    ck_assert_int_eq(slow.done, 1);
    teardown_fixture(&f);
    sdkrt_cancel_free(cancel);
}
END_TEST

START_TEST(timeout_from_the_engine_timer)
{
    fixture f;
    setup_fixture(&f, NULL);
    sdkrt_call_options call = SDKRT_CALL_OPTIONS_INIT;
    call.timeout_ms = 150;
    outcome slow = {.f = &f};
    int left = 1;
    slow.left = &left;
    start(&f, "/slow", &call, &slow);
    DRIVER.run(f.native);
    ck_assert_int_eq(slow.done, 1);
    ck_assert_msg(slow.reason == SDKRT_REASON_TIMEOUT, "reason %s: %s",
                  sdkrt_reason_name(slow.reason), slow.body);
    teardown_fixture(&f);
}
END_TEST

START_TEST(refused_connection_is_a_transport_error)
{
    /* A port that was just free: bind, read it, close. */
    ts_server *gone = NULL;
    ck_assert_int_eq(ts_start(&gone, handler, NULL), 0);
    char url[64];
    snprintf(url, sizeof url, "%s", ts_url(gone));
    ts_stop(gone);
    fixture f;
    setup_fixture(&f, url);
    outcome o = {.f = &f};
    int left = 1;
    o.left = &left;
    start(&f, "/ok/1", NULL, &o);
    DRIVER.run(f.native);
    ck_assert_int_eq(o.done, 1);
    ck_assert_msg(o.reason == SDKRT_REASON_TRANSPORT, "reason %s: %s", sdkrt_reason_name(o.reason),
                  o.body);
    teardown_fixture(&f);
}
END_TEST

START_TEST(free_cancels_what_is_pending)
{
    fixture f;
    setup_fixture(&f, NULL);
    outcome slow = {.f = &f};
    start(&f, "/slow", NULL, &slow);
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_loop_timer_start(NULL, f.loop, 50, stop_native, &f, &err), SDKRT_OK);
    DRIVER.run(f.native); /* the request is out, the server sleeps */
    ck_assert_int_eq(slow.done, 0);
    sdkrt_loop_free(f.loop);
    f.loop = NULL;
    ck_assert_int_eq(slow.done, 1);
    ck_assert_int_eq(slow.reason, SDKRT_REASON_CANCELLED);
    teardown_fixture(&f);
}
END_TEST

START_TEST(bad_arguments)
{
    void *native = DRIVER.open();
    sdkrt_loop *loop = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(DRIVER.adapt(NULL, native, &err), SDKRT_ERR);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_INVALID_ARGUMENT);
    sdkrt_error_clear(&err);
    ck_assert_int_eq(DRIVER.adapt(&loop, NULL, &err), SDKRT_ERR);
    ck_assert_ptr_null(loop);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_INVALID_ARGUMENT);
    sdkrt_error_clear(&err);
    /* An adapted loop is run by its own loop, not by sdkrt_loop_run. */
    ck_assert_int_eq(DRIVER.adapt(&loop, native, &err), SDKRT_OK);
    ck_assert_int_eq(sdkrt_loop_run(loop, &err), SDKRT_ERR);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_INVALID_ARGUMENT);
    sdkrt_error_clear(&err);
    sdkrt_loop_free(loop);
    DRIVER.close(native);
}
END_TEST

int main(void)
{
    sdkrt_global_init();
    Suite *s = suite_create("adapter");
    TCase *tc = tcase_create("calls");
    tcase_add_test(tc, many_calls_complete);
    tcase_add_test(tc, streams_run_to_their_end);
    tcase_add_test(tc, timers_fire_in_order_and_cancel);
    tcase_add_test(tc, cancel_token_ends_a_call);
    tcase_add_test(tc, timeout_from_the_engine_timer);
    tcase_add_test(tc, refused_connection_is_a_transport_error);
    tcase_add_test(tc, free_cancels_what_is_pending);
    tcase_add_test(tc, bad_arguments);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    sdkrt_global_cleanup();
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
