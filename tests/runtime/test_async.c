/* test_async.c - the event loop (built-in on epoll and on poll, and adapted through
 * sdkrt_loop_ops), its timers, and asynchronous unary calls over libcurl's multi_socket
 * interface against the scriptable test server: success, retries after 503 with Retry-After on a
 * loop timer, the head timeout, cancels in every phase (each ends the call with exactly one
 * CANCELLED callback), a loop freed with calls pending, 200 concurrent calls on one loop, the
 * response cap. Assertions are on outcomes, never on durations beyond a generous bound. */
#include <check.h>
#include <dirent.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sdkrt/json.h"
#include "sdkrt/loop.h"
#include "sdkrt/sdkrt.h"
#include "test_server.h"

/* The built-in loop on poll(2) (libsdkrt's, for tests). */
sdkrt_status sdkrt_loop_new_poll_(sdkrt_loop **out, sdkrt_error **err);

/* Idempotency keys the server saw on /keyed (one per request). */
typedef struct keys {
    char seen[4][64];
    _Atomic int n;
} keys;

static int handler(void *ud, const ts_request *req, ts_conn *c)
{
    keys *k = ud;
    const char *t = req->target;
    if (strcmp(t, "/keyed") == 0 && k) {
        int i = k->n++;
        if (i < 4)
            ts_header(req, "Idempotency-Key", k->seen[i], sizeof k->seen[i]);
        if (i == 0) {
            ts_printf(c, "HTTP/1.1 500 Oops\r\nretry-after-ms: 10\r\nContent-Length: 0\r\n\r\n");
            return 0;
        }
        return ts_respond(c, 201, "text/plain", "made", 4) == 0 ? 0 : -1;
    }
    if (strcmp(t, "/slowbody") == 0) {
        ts_printf(c, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\nx");
        ts_sleep(c, 60000);
        return -1;
    }
    if (strncmp(t, "/ok", 3) == 0)
        return ts_respond(c, 200, "application/json", "{\"ok\":true}", 11) == 0 ? 0 : -1;
    if (strcmp(t, "/echo") == 0)
        return ts_respond(c, 201, "text/plain", req->body, req->body_len) == 0 ? 0 : -1;
    if (strncmp(t, "/flaky", 6) == 0) {
        /* 503 with Retry-After on the first request for this path (its last digit names a
           counter), 200 after */
        static _Atomic int seen[8];
        int slot = t[7] ? t[7] - '0' : 0;
        if (slot < 0 || slot > 7)
            slot = 0;
        if (seen[slot]++ == 0) {
            ts_printf(c, "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Length: "
                         "0\r\n\r\n");
            return 0;
        }
        return ts_respond(c, 200, "application/json", "{\"ok\":true}", 11) == 0 ? 0 : -1;
    }
    if (strcmp(t, "/data") == 0)
        return ts_respond(c, 200, "application/json", "{\"data\":\"hi\"}", 13) == 0 ? 0 : -1;
    if (strcmp(t, "/gone") == 0)
        return ts_respond(c, 404, "application/json", "\"gone\"", 6) == 0 ? 0 : -1;
    if (strcmp(t, "/busy") == 0) {
        ts_printf(c, "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 30\r\nContent-Length: "
                     "0\r\n\r\n");
        return 0;
    }
    if (strcmp(t, "/big") == 0) {
        static char big[4096];
        memset(big, 'x', sizeof big);
        return ts_respond(c, 200, "text/plain", big, sizeof big) == 0 ? 0 : -1;
    }
    if (strcmp(t, "/silent") == 0) {
        ts_sleep(c, 60000);
        return -1;
    }
    return ts_respond(c, 404, "text/plain", "no", 2) == 0 ? 0 : -1;
}

typedef struct fx {
    ts_server *srv;
    sdkrt_loop *loop;
    sdkrt_client *c;
} fx;

static keys seen_keys;

static void fx_open(fx *f, bool use_poll, int attempts, long head_ms)
{
    memset(f, 0, sizeof *f);
    memset(&seen_keys, 0, sizeof seen_keys);
    ck_assert_int_eq(ts_start(&f->srv, handler, &seen_keys), 0);
    sdkrt_error *err = NULL;
    if (use_poll)
        ck_assert_int_eq(sdkrt_loop_new_poll_(&f->loop, &err), SDKRT_OK);
    else
        ck_assert_int_eq(sdkrt_loop_new(&f->loop, &err), SDKRT_OK);
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.base_url = ts_url(f->srv);
    o.loop = f->loop;
    o.retry.max_attempts = attempts;
    o.head_timeout_ms = head_ms;
    ck_assert_int_eq(sdkrt_client_new(&f->c, &o, &err), SDKRT_OK);
}

static void fx_close(fx *f)
{
    sdkrt_loop_free(f->loop);
    sdkrt_client_free(f->c);
    ts_stop(f->srv);
}

/* What a call's callback saw. */
typedef struct outcome {
    int calls; /* how many times the callback ran */
    int status;
    sdkrt_reason reason;
    char msg[512];
    char body[64];
} outcome;

static void on_done(void *ud, sdkrt_response *resp, const sdkrt_error *err)
{
    outcome *o = ud;
    o->calls++;
    if (resp) {
        o->status = sdkrt_response_status(resp);
        size_t n = 0;
        const char *b = sdkrt_response_body(resp, &n);
        snprintf(o->body, sizeof o->body, "%.*s", (int)(n < 63 ? n : 63), b ? b : "");
        sdkrt_response_free(resp);
    } else {
        ck_assert_ptr_nonnull(err);
        o->reason = sdkrt_error_reason(err);
        snprintf(o->msg, sizeof o->msg, "%s", sdkrt_error_message(err));
    }
}

static void start(fx *f, const char *method, const char *path, const sdkrt_call_options *co,
                  outcome *o)
{
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, method, path), SDKRT_OK);
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_send_async(f->c, req, co, on_done, o, &err), SDKRT_OK);
    sdkrt_request_free(req); /* copied by the call */
}

static void run(fx *f)
{
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_loop_run(f->loop, &err), SDKRT_OK);
}

START_TEST(unary_success)
{
    fx f;
    fx_open(&f, _i == 1, 0, 0);
    outcome a = {0}, b = {0};
    start(&f, "GET", "/ok", NULL, &a);
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "POST", "/echo"), SDKRT_OK);
    ck_assert_int_eq(sdkrt_request_set_body(req, "text/plain", "hello", 5), SDKRT_OK);
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_send_async(f.c, req, NULL, on_done, &b, &err), SDKRT_OK);
    sdkrt_request_free(req);
    ck_assert_int_eq(a.calls, 0); /* never from inside the start */
    run(&f);
    ck_assert_int_eq(a.calls, 1);
    ck_assert_int_eq(a.status, 200);
    ck_assert_str_eq(a.body, "{\"ok\":true}");
    ck_assert_int_eq(b.calls, 1);
    ck_assert_int_eq(b.status, 201);
    ck_assert_str_eq(b.body, "hello");
    fx_close(&f);
}
END_TEST

static void count_response(void *ud, int status, const sdkrt_header *h, size_t n)
{
    (void)h;
    (void)n;
    int *seen = ud;
    *seen = *seen * 1000 + status;
}

typedef struct retry_seen {
    int retries;
    long delay;
    bool server;
    int timer_fired; /* a program timer that fell inside the backoff */
} retry_seen;

static void on_retry(void *ud, const sdkrt_retry_info *info)
{
    retry_seen *r = ud;
    r->retries++;
    r->delay = info->delay_ms;
    r->server = info->server_delay;
}

static void tick(void *ud)
{
    ((retry_seen *)ud)->timer_fired++;
}

START_TEST(retry_after_503_on_a_timer)
{
    fx f;
    fx_open(&f, false, 3, 0);
    retry_seen rs = {0};
    sdkrt_retry_policy p = SDKRT_RETRY_POLICY_INIT;
    p.on_retry = on_retry;
    p.userdata = &rs;
    int seen = 0;
    sdkrt_call_options co = SDKRT_CALL_OPTIONS_INIT;
    co.retry = &p;
    co.on_response = count_response;
    co.userdata = &seen;
    outcome o = {0};
    start(&f, "GET", "/flaky/1", &co, &o);
    sdkrt_error *err = NULL;
    /* the backoff is a timer: the loop keeps turning, a program timer runs inside it */
    ck_assert_int_eq(sdkrt_loop_timer_start(NULL, f.loop, 300, tick, &rs, &err), SDKRT_OK);
    run(&f);
    ck_assert_int_eq(o.calls, 1);
    ck_assert_int_eq(o.status, 200);
    ck_assert_int_eq(rs.retries, 1);
    ck_assert(rs.server);
    ck_assert_int_eq(rs.delay, 1000);
    ck_assert_int_eq(rs.timer_fired, 1);
    ck_assert_int_eq(seen, 503200); /* on_response saw both attempts */
    ck_assert_int_eq(ts_requests(f.srv), 2);
    fx_close(&f);
}
END_TEST

START_TEST(head_timeout)
{
    fx f;
    fx_open(&f, false, 1, 200);
    outcome o = {0};
    start(&f, "GET", "/silent", NULL, &o);
    time_t t0 = time(NULL);
    run(&f);
    ck_assert_int_eq(o.calls, 1);
    ck_assert_int_eq(o.reason, SDKRT_REASON_TIMEOUT);
    ck_assert_msg(strstr(o.msg, "head timeout") && strstr(o.msg, "/silent"), "%s", o.msg);
    ck_assert_int_le(time(NULL) - t0, 20);
    fx_close(&f);
}
END_TEST

/* A POST is repeated only with an idempotency key, the same one on every attempt. */
START_TEST(idempotency_key_kept_across_attempts)
{
    fx f;
    fx_open(&f, false, 3, 0);
    sdkrt_call_options co = SDKRT_CALL_OPTIONS_INIT;
    co.idempotency_key = SDKRT_IDEMPOTENCY_AUTO;
    outcome o = {0};
    start(&f, "POST", "/keyed", &co, &o);
    run(&f);
    ck_assert_int_eq(o.calls, 1);
    ck_assert_int_eq(o.status, 201);
    ck_assert_int_eq(seen_keys.n, 2);
    ck_assert_int_eq(strlen(seen_keys.seen[0]), 36);
    ck_assert_str_eq(seen_keys.seen[0], seen_keys.seen[1]);
    /* without a key the POST is not repeated: the 500 is the result */
    outcome once = {0};
    seen_keys.n = 0;
    start(&f, "POST", "/keyed", NULL, &once);
    run(&f);
    ck_assert_int_eq(once.status, 500);
    ck_assert_int_eq(seen_keys.n, 1);
    fx_close(&f);
}
END_TEST

/* The total timeout of an attempt ends a body that never finishes. */
START_TEST(total_timeout)
{
    fx f;
    fx_open(&f, false, 1, 0);
    sdkrt_call_options co = SDKRT_CALL_OPTIONS_INIT;
    co.timeout_ms = 300;
    outcome o = {0};
    start(&f, "GET", "/slowbody", &co, &o);
    run(&f);
    ck_assert_int_eq(o.calls, 1);
    ck_assert_int_eq(o.reason, SDKRT_REASON_TIMEOUT);
    ck_assert_msg(strstr(o.msg, "GET http"), "%s", o.msg);
    fx_close(&f);
}
END_TEST

/* ---- cancels ---- */

static void trigger(void *ud)
{
    sdkrt_cancel_trigger(ud);
}

/* Cancel a GET of path after ms (-1: before it starts); exactly one CANCELLED callback whose
 * message holds want. */
static void cancel_case(const char *path, long ms, const char *want)
{
    fx f;
    fx_open(&f, false, 3, 0);
    sdkrt_cancel *tok = NULL;
    ck_assert_int_eq(sdkrt_cancel_new(&tok), SDKRT_OK);
    sdkrt_call_options co = SDKRT_CALL_OPTIONS_INIT;
    co.cancel = tok;
    outcome o = {0}, other = {0};
    if (ms < 0)
        sdkrt_cancel_trigger(tok);
    start(&f, "GET", path, &co, &o);
    start(&f, "GET", "/ok", NULL, &other); /* a call without the token is untouched */
    sdkrt_error *err = NULL;
    if (ms >= 0)
        ck_assert_int_eq(sdkrt_loop_timer_start(NULL, f.loop, ms, trigger, tok, &err), SDKRT_OK);
    run(&f);
    ck_assert_int_eq(o.calls, 1);
    ck_assert_int_eq(o.reason, SDKRT_REASON_CANCELLED);
    ck_assert_msg(strstr(o.msg, want), "%s", o.msg);
    ck_assert_int_eq(other.calls, 1);
    ck_assert_int_eq(other.status, 200);
    fx_close(&f);
    sdkrt_cancel_free(tok);
}

START_TEST(cancel_before_start)
{
    cancel_case("/ok", -1, "cancelled before sending");
}
END_TEST

START_TEST(cancel_while_connecting)
{
    cancel_case("/silent", 0, "GET http");
}
END_TEST

START_TEST(cancel_while_waiting_for_headers)
{
    cancel_case("/silent", 150, ": cancelled (CANCELLED)");
}
END_TEST

START_TEST(cancel_during_backoff)
{
    cancel_case("/busy", 300, "cancelled while waiting to retry after HTTP 503 (attempt 1 of 3)");
}
END_TEST

START_TEST(loop_freed_with_calls_pending)
{
    fx f;
    fx_open(&f, false, 3, 0);
    outcome o[3] = {{0}};
    start(&f, "GET", "/silent", NULL, &o[0]);
    start(&f, "GET", "/busy", NULL, &o[1]);
    start(&f, "GET", "/ok", NULL, &o[2]);
    sdkrt_error *err = NULL;
    for (int i = 0; i < 20; i++)
        ck_assert_int_eq(sdkrt_loop_run_once(f.loop, 20, &err), SDKRT_OK);
    ck_assert_int_eq(o[2].calls, 1); /* finished already */
    ck_assert_int_eq(o[0].calls, 0);
    sdkrt_loop_free(f.loop);
    f.loop = NULL;
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(o[i].calls, 1);
        ck_assert_int_eq(o[i].reason, SDKRT_REASON_CANCELLED);
        ck_assert_msg(strstr(o[i].msg, "the loop was freed"), "%s", o[i].msg);
    }
    ck_assert_int_eq(o[2].calls, 1);
    fx_close(&f);
}
END_TEST

START_TEST(many_concurrent_calls)
{
    enum { N = 200 };
    fx f;
    fx_open(&f, false, 0, 0);
    outcome *o = calloc(N, sizeof *o);
    ck_assert_ptr_nonnull(o);
    for (int i = 0; i < N; i++)
        start(&f, "GET", "/ok", NULL, &o[i]);
    run(&f);
    for (int i = 0; i < N; i++) {
        ck_assert_int_eq(o[i].calls, 1);
        ck_assert_int_eq(o[i].status, 200);
    }
    free(o);
    fx_close(&f);
}
END_TEST

#ifdef __linux__
static int open_fds(void)
{
    int n = 0;
    DIR *d = opendir("/proc/self/fd");
    ck_assert_ptr_nonnull(d);
    while (readdir(d))
        n++;
    closedir(d);
    return n;
}

/* No wake-up descriptors per call: with 50 calls waiting for their heads, the process holds the
 * 50 client sockets, the test server's 50, and a few of the loop's, not 3 per call. */
START_TEST(descriptors_per_call)
{
    enum { N = 50 };
    fx f;
    fx_open(&f, false, 1, 0);
    int before = open_fds();
    outcome o[N];
    memset(o, 0, sizeof o);
    for (int i = 0; i < N; i++)
        start(&f, "GET", "/silent", NULL, &o[i]);
    sdkrt_error *err = NULL;
    for (int i = 0; i < 500 && ts_requests(f.srv) < N; i++)
        ck_assert_int_eq(sdkrt_loop_run_once(f.loop, 10, &err), SDKRT_OK);
    ck_assert_int_eq(ts_requests(f.srv), N);
    int during = open_fds() - before;
    ck_assert_msg(during <= 2 * N + 8, "%d descriptors for %d calls", during, N);
    sdkrt_loop_free(f.loop); /* ends them all */
    f.loop = NULL;
    for (int i = 0; i < N; i++)
        ck_assert_int_eq(o[i].reason, SDKRT_REASON_CANCELLED);
    fx_close(&f);
}
END_TEST
#endif

START_TEST(response_cap)
{
    fx f;
    memset(&f, 0, sizeof f);
    ck_assert_int_eq(ts_start(&f.srv, handler, NULL), 0);
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_loop_new(&f.loop, &err), SDKRT_OK);
    sdkrt_client_options opts = SDKRT_CLIENT_OPTIONS_INIT;
    opts.base_url = ts_url(f.srv);
    opts.loop = f.loop;
    opts.max_response_bytes = 1000;
    ck_assert_int_eq(sdkrt_client_new(&f.c, &opts, &err), SDKRT_OK);
    outcome o = {0};
    start(&f, "GET", "/big", NULL, &o);
    run(&f);
    ck_assert_int_eq(o.calls, 1);
    ck_assert_int_eq(o.reason, SDKRT_REASON_RESPONSE_TOO_LARGE);
    fx_close(&f);
}
END_TEST

START_TEST(no_loop_no_start)
{
    sdkrt_client_options opts = SDKRT_CLIENT_OPTIONS_INIT;
    opts.base_url = "http://127.0.0.1:9";
    sdkrt_client *c = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_new(&c, &opts, &err), SDKRT_OK);
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/x"), SDKRT_OK);
    outcome o = {0};
    ck_assert_int_eq(sdkrt_client_send_async(c, req, NULL, on_done, &o, &err), SDKRT_ERR);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_INVALID_ARGUMENT);
    ck_assert_ptr_nonnull(strstr(sdkrt_error_message(err), "no loop"));
    ck_assert_int_eq(o.calls, 0);
    sdkrt_error_free(err);
    sdkrt_request_free(req);
    sdkrt_client_free(c);
}
END_TEST

/* ---- typed calls ---- */

static const sdkrt_jtype t_string = {
    .kind = SDKRT_JK_STRING, .name = "string", .size = sizeof(char *)};
static const sdkrt_jerror gone_errors[] = {{404, NULL, &t_string}};
static const sdkrt_jop op_get = {.id = "t.get",
                                 .status = 200,
                                 .encoding = SDKRT_JENC_JSON,
                                 .result = &t_string,
                                 .unwrap = "data",
                                 .errors = gone_errors,
                                 .nerrors = 1};

typedef struct typed {
    int calls;
    int status;
    char value[32];
    sdkrt_error *kept; /* a copy of the error the callback borrowed */
} typed;

static void on_typed(void *ud, void *out, int status, const sdkrt_error *err)
{
    typed *t = ud;
    t->calls++;
    t->status = status;
    if (out) {
        snprintf(t->value, sizeof t->value, "%s", *(char **)out);
        sdkrt_json_value_free(&t_string, out);
    }
    if (err)
        t->kept = sdkrt_error_copy(err);
}

START_TEST(typed_calls)
{
    fx f;
    fx_open(&f, false, 1, 0);
    typed ok = {0}, gone = {0};
    sdkrt_request *req = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/data"), SDKRT_OK);
    ck_assert_int_eq(sdkrt_json_call_async(f.c, req, NULL, &op_get, on_typed, &ok, &err), SDKRT_OK);
    sdkrt_request_free(req);
    ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/gone"), SDKRT_OK);
    ck_assert_int_eq(sdkrt_json_call_async(f.c, req, NULL, &op_get, on_typed, &gone, &err),
                     SDKRT_OK);
    sdkrt_request_free(req);
    run(&f);
    ck_assert_int_eq(ok.calls, 1);
    ck_assert_int_eq(ok.status, 200);
    ck_assert_str_eq(ok.value, "hi");
    ck_assert_ptr_null(ok.kept);
    /* the declared error, kept past the callback with its typed payload */
    ck_assert_int_eq(gone.calls, 1);
    ck_assert_int_eq(gone.status, 0);
    ck_assert_ptr_nonnull(gone.kept);
    ck_assert_int_eq(sdkrt_error_kind(gone.kept), SDKRT_ERROR_DOMAIN);
    ck_assert_int_eq(sdkrt_error_status(gone.kept), 404);
    ck_assert_str_eq(sdkrt_error_tag(gone.kept), "string");
    ck_assert_ptr_nonnull(sdkrt_error_payload(gone.kept));
    ck_assert_str_eq(*(char **)sdkrt_error_payload(gone.kept), "gone");
    ck_assert_ptr_nonnull(sdkrt_error_raw_payload(gone.kept));
    sdkrt_error_free(gone.kept);
    /* the blocking twin gives the same */
    void *out = NULL;
    int status = -1;
    ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/gone"), SDKRT_OK);
    ck_assert_int_eq(sdkrt_json_call_status(f.c, req, NULL, &op_get, &out, &status, &err),
                     SDKRT_ERR);
    ck_assert_int_eq(status, 0);
    ck_assert_str_eq(*(char **)sdkrt_error_payload(err), "gone");
    sdkrt_error_free(err);
    sdkrt_request_free(req);
    ck_assert_ptr_null(sdkrt_error_copy(NULL));
    fx_close(&f);
}
END_TEST

/* ---- timers ---- */

typedef struct order {
    char seen[16];
    int n;
} order;

typedef struct mark {
    order *o;
    char c;
} mark;

static void put(void *ud)
{
    mark *m = ud;
    m->o->seen[m->o->n++] = m->c;
}

START_TEST(timers_in_order_and_cancelled)
{
    sdkrt_loop *l = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_loop_new(&l, &err), SDKRT_OK);
    order o = {{0}, 0};
    mark a = {&o, 'a'}, b = {&o, 'b'}, c = {&o, 'c'}, d = {&o, 'd'};
    sdkrt_loop_timer *tb = NULL;
    ck_assert_int_eq(sdkrt_loop_timer_start(NULL, l, 60, put, &c, &err), SDKRT_OK);
    ck_assert_int_eq(sdkrt_loop_timer_start(&tb, l, 30, put, &b, &err), SDKRT_OK);
    ck_assert_int_eq(sdkrt_loop_timer_start(NULL, l, 0, put, &a, &err), SDKRT_OK);
    ck_assert_int_eq(sdkrt_loop_timer_start(NULL, l, 0, put, &d, &err), SDKRT_OK);
    sdkrt_loop_timer_cancel(tb);
    ck_assert_int_eq(sdkrt_loop_run(l, &err), SDKRT_OK);
    ck_assert_str_eq(o.seen, "adc");
    ck_assert_int_eq(sdkrt_loop_timer_start(NULL, l, -1, put, &a, &err), SDKRT_ERR);
    sdkrt_error_clear(&err);
    /* a timer left pending when the loop is freed is released, never run */
    ck_assert_int_eq(sdkrt_loop_timer_start(NULL, l, 10000, put, &a, &err), SDKRT_OK);
    sdkrt_loop_free(l);
    ck_assert_str_eq(o.seen, "adc");
}
END_TEST

static void stop_it(void *ud)
{
    sdkrt_loop_stop(ud);
}

START_TEST(stop_returns)
{
    sdkrt_loop *l = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_loop_new(&l, &err), SDKRT_OK);
    order o = {{0}, 0};
    mark a = {&o, 'a'};
    ck_assert_int_eq(sdkrt_loop_timer_start(NULL, l, 0, stop_it, l, &err), SDKRT_OK);
    ck_assert_int_eq(sdkrt_loop_timer_start(NULL, l, 200, put, &a, &err), SDKRT_OK);
    ck_assert_int_eq(sdkrt_loop_run(l, &err), SDKRT_OK);
    ck_assert_str_eq(o.seen, ""); /* stopped before the second timer */
    ck_assert_int_eq(sdkrt_loop_run(l, &err), SDKRT_OK);
    ck_assert_str_eq(o.seen, "a");
    sdkrt_loop_free(l);
}
END_TEST

/* ---- an adapted loop: a minimal adapter over poll(2), as a program's own loop would be ---- */

typedef struct mini {
    struct {
        int fd, events;
    } w[256];
    int n;
    long long due; /* ms since start, -1 none */
    int watches, unwatches, destroyed;
    struct timespec t0;
} mini;

static long long mini_now(const mini *m)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (t.tv_sec - m->t0.tv_sec) * 1000LL + (t.tv_nsec - m->t0.tv_nsec) / 1000000;
}

static int mini_watch(void *self, int fd, int events, void **slot)
{
    mini *m = self;
    m->watches++;
    if (!*slot) {
        if (m->n == 256)
            return -1;
        m->w[m->n].fd = fd;
        *slot = &m->w[m->n++];
    }
    ((int *)*slot)[1] = events;
    return 0;
}

static void mini_unwatch(void *self, int fd, void *slot)
{
    (void)fd;
    mini *m = self;
    m->unwatches++;
    int i = (int)(((char *)slot - (char *)m->w) / (ptrdiff_t)sizeof m->w[0]);
    m->w[i].fd = -1; /* poll skips it */
    m->w[i].events = 0;
}

static int mini_timer(void *self, long ms)
{
    mini *m = self;
    m->due = ms < 0 ? -1 : mini_now(m) + ms;
    return 0;
}

static void mini_destroy(void *self)
{
    ((mini *)self)->destroyed++;
}

static void mini_turn(mini *m, sdkrt_loop *l)
{
    struct pollfd p[256];
    for (int i = 0; i < m->n; i++) {
        p[i].fd = m->w[i].events ? m->w[i].fd : -1;
        p[i].events = (short)((m->w[i].events & SDKRT_WATCH_READ ? POLLIN : 0) |
                              (m->w[i].events & SDKRT_WATCH_WRITE ? POLLOUT : 0));
        p[i].revents = 0;
    }
    long long wait = m->due < 0 ? 100 : m->due - mini_now(m);
    poll(p, (nfds_t)m->n, wait < 0 ? 0 : (int)wait);
    for (int i = 0; i < m->n; i++) {
        if (p[i].revents)
            sdkrt_loop_ready(
                l, p[i].fd,
                (p[i].revents & (POLLIN | POLLHUP | POLLERR) ? SDKRT_WATCH_READ : 0) |
                    (p[i].revents & (POLLOUT | POLLHUP | POLLERR) ? SDKRT_WATCH_WRITE : 0));
    }
    if (m->due >= 0 && mini_now(m) >= m->due) {
        m->due = -1;
        sdkrt_loop_timeout(l);
    }
}

START_TEST(adapted_loop)
{
    static const sdkrt_loop_ops ops = {mini_watch, mini_unwatch, mini_timer, mini_destroy};
    mini m;
    memset(&m, 0, sizeof m);
    m.due = -1;
    clock_gettime(CLOCK_MONOTONIC, &m.t0);
    ts_server *srv = NULL;
    ck_assert_int_eq(ts_start(&srv, handler, NULL), 0);
    sdkrt_loop *l = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_loop_new_adapted(&l, &ops, &m, &err), SDKRT_OK);
    ck_assert_int_eq(sdkrt_loop_run(l, &err), SDKRT_ERR); /* the program runs its own loop */
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_INVALID_ARGUMENT);
    sdkrt_error_clear(&err);
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.base_url = ts_url(srv);
    o.loop = l;
    sdkrt_client *c = NULL;
    ck_assert_int_eq(sdkrt_client_new(&c, &o, &err), SDKRT_OK);
    fx f = {srv, l, c};
    outcome a = {0}, b = {0};
    start(&f, "GET", "/ok", NULL, &a);
    start(&f, "GET", "/ok2", NULL, &b);
    for (int i = 0; i < 500 && (!a.calls || !b.calls); i++)
        mini_turn(&m, l);
    ck_assert_int_eq(a.status, 200);
    ck_assert_int_eq(b.status, 200);
    ck_assert_int_gt(m.watches, 0);
    sdkrt_loop_free(l);
    ck_assert_int_eq(m.destroyed, 1);
    sdkrt_client_free(c);
    ts_stop(srv);
}
END_TEST

/* ---- the same call logic without sockets: the in-memory transport on the loop ---- */

static int mem_handler(void *ud, const sdkrt_memory_request *req, sdkrt_memory_response *resp)
{
    int *n = ud;
    (*n)++;
    if (*n == 1) {
        sdkrt_memory_response_set_status(resp, 429);
        sdkrt_memory_response_add_header(resp, "retry-after-ms", "10");
        return 0;
    }
    sdkrt_memory_response_set_status(resp, 200);
    sdkrt_memory_response_add_chunk(resp, req->target, strlen(req->target));
    return 0;
}

START_TEST(memory_transport_on_the_loop)
{
    int n = 0;
    sdkrt_transport *t = NULL;
    ck_assert_int_eq(sdkrt_memory_transport_new(&t, mem_handler, &n), SDKRT_OK);
    sdkrt_loop *l = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_loop_new(&l, &err), SDKRT_OK);
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.base_url = "http://api.test/v1";
    o.transport = t;
    o.loop = l;
    sdkrt_client *c = NULL;
    ck_assert_int_eq(sdkrt_client_new(&c, &o, &err), SDKRT_OK);
    fx f = {NULL, l, c};
    outcome a = {0};
    start(&f, "GET", "/things", NULL, &a);
    run(&f);
    ck_assert_int_eq(a.calls, 1);
    ck_assert_int_eq(a.status, 200);
    ck_assert_str_eq(a.body, "/v1/things");
    ck_assert_int_eq(n, 2);
    sdkrt_loop_free(l);
    sdkrt_client_free(c);
    sdkrt_transport_free(t);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("async");
    TCase *tc = tcase_create("async");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, unary_success, 0, 2);
    tcase_add_test(tc, retry_after_503_on_a_timer);
    tcase_add_test(tc, head_timeout);
    tcase_add_test(tc, idempotency_key_kept_across_attempts);
    tcase_add_test(tc, total_timeout);
    tcase_add_test(tc, cancel_before_start);
    tcase_add_test(tc, cancel_while_connecting);
    tcase_add_test(tc, cancel_while_waiting_for_headers);
    tcase_add_test(tc, cancel_during_backoff);
    tcase_add_test(tc, loop_freed_with_calls_pending);
    tcase_add_test(tc, many_concurrent_calls);
    tcase_add_test(tc, response_cap);
#ifdef __linux__
    tcase_add_test(tc, descriptors_per_call);
#endif
    tcase_add_test(tc, no_loop_no_start);
    tcase_add_test(tc, typed_calls);
    tcase_add_test(tc, timers_in_order_and_cancelled);
    tcase_add_test(tc, stop_returns);
    tcase_add_test(tc, adapted_loop);
    tcase_add_test(tc, memory_transport_on_the_loop);
    suite_add_tcase(s, tc);
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
