/* test_timeouts.c - the timeouts that bound every wait: their defaults (what reaches the
 * transport when nothing is set), and over libcurl against a server that accepts and never
 * answers, and one that sends the head and then stalls: the head timeout of calls and stream
 * opens, the total timeout of unary calls, per-client and per-call values, SDKRT_TIMEOUT_OFF.
 * Assertions are on the reason and the message, never on how long something took (beyond a
 * generous upper bound); overrides are small (200 ms) and servers stall far longer. Retries are
 * off where a single attempt is meant. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sdkrt/sdkrt.h"
#include "test_server.h"

/* ---- the defaults, as a recording transport sees them ---- */

typedef struct seen {
    sdkrt_transport_request req; /* the last one (pointers not kept) */
    int sends, opens;
} seen;

static sdkrt_status rec_send(void *self, const sdkrt_transport_request *req, sdkrt_response **out,
                             sdkrt_error **err)
{
    seen *s = self;
    s->req = *req;
    s->sends++;
    return sdkrt_response_new(out, 204, 0, err);
}

static sdkrt_status rec_open(void *self, const sdkrt_transport_request *req, sdkrt_response **head,
                             sdkrt_body_reader *reader, sdkrt_error **err)
{
    (void)reader;
    seen *s = self;
    s->req = *req;
    s->opens++;
    *head = NULL;
    return sdkrt_error_set(err, SDKRT_REASON_TRANSPORT, "recorded");
}

static const sdkrt_transport_ops rec_ops = {rec_send, rec_open, NULL};

/* Send GET /x (or open it as a stream) with call options co; the transport records. */
static void rec_call(sdkrt_client *c, const sdkrt_call_options *co, bool stream)
{
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/x"), SDKRT_OK);
    sdkrt_error *err = NULL;
    if (stream) {
        sdkrt_stream *st = NULL;
        ck_assert_int_eq(sdkrt_client_stream(c, req, co, &st, &err), SDKRT_OK);
        sdkrt_stream_event ev;
        ck_assert_int_eq(sdkrt_stream_next(st, &ev, &err), SDKRT_STREAM_ERROR);
        sdkrt_stream_close(st);
    } else {
        sdkrt_response *resp = NULL;
        ck_assert_int_eq(sdkrt_client_send(c, req, co, &resp, &err), SDKRT_OK);
        sdkrt_response_free(resp);
    }
    sdkrt_error_free(err);
    sdkrt_request_free(req);
}

START_TEST(defaults_reach_the_transport)
{
    seen s;
    memset(&s, 0, sizeof s);
    sdkrt_transport t = {&rec_ops, &s};
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.base_url = "http://api.test";
    o.transport = &t;
    sdkrt_client *c = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_new(&c, &o, &err), SDKRT_OK);
    /* a unary call: connect 10 s, head 30 s, total 60 s; no idle timeout */
    rec_call(c, NULL, false);
    ck_assert_int_eq(s.req.connect_timeout_ms, SDKRT_DEFAULT_CONNECT_TIMEOUT_MS);
    ck_assert_int_eq(s.req.head_timeout_ms, SDKRT_DEFAULT_HEAD_TIMEOUT_MS);
    ck_assert_int_eq(s.req.timeout_ms, SDKRT_DEFAULT_TIMEOUT_MS);
    ck_assert_int_eq(s.req.idle_timeout_ms, 0);
    ck_assert_int_eq(SDKRT_DEFAULT_CONNECT_TIMEOUT_MS, 10000);
    ck_assert_int_eq(SDKRT_DEFAULT_HEAD_TIMEOUT_MS, 30000);
    ck_assert_int_eq(SDKRT_DEFAULT_TIMEOUT_MS, 60000);
    /* a stream: connect and head; no total, no idle timeout (opt-in) */
    rec_call(c, NULL, true);
    ck_assert_int_eq(s.opens, 1);
    ck_assert_int_eq(s.req.connect_timeout_ms, SDKRT_DEFAULT_CONNECT_TIMEOUT_MS);
    ck_assert_int_eq(s.req.head_timeout_ms, SDKRT_DEFAULT_HEAD_TIMEOUT_MS);
    ck_assert_int_eq(s.req.timeout_ms, 0);
    ck_assert_int_eq(s.req.idle_timeout_ms, 0);
    /* per call: a value, and OFF (0 to the transport: none) */
    sdkrt_call_options co = SDKRT_CALL_OPTIONS_INIT;
    co.connect_timeout_ms = 1111;
    co.head_timeout_ms = SDKRT_TIMEOUT_OFF;
    co.timeout_ms = 3333;
    rec_call(c, &co, false);
    ck_assert_int_eq(s.req.connect_timeout_ms, 1111);
    ck_assert_int_eq(s.req.head_timeout_ms, 0);
    ck_assert_int_eq(s.req.timeout_ms, 3333);
    co.timeout_ms = SDKRT_TIMEOUT_OFF;
    co.head_timeout_ms = 2222;
    rec_call(c, &co, false);
    ck_assert_int_eq(s.req.head_timeout_ms, 2222);
    ck_assert_int_eq(s.req.timeout_ms, 0);
    /* a stream call's timeout_ms is its idle timeout */
    co.timeout_ms = 4444;
    rec_call(c, &co, true);
    ck_assert_int_eq(s.req.idle_timeout_ms, 4444);
    ck_assert_int_eq(s.req.timeout_ms, 0);
    sdkrt_client_free(c);

    /* per client: values and OFF; a call's 0 keeps the client's */
    o.connect_timeout_ms = SDKRT_TIMEOUT_OFF;
    o.head_timeout_ms = 500;
    o.timeout_ms = SDKRT_TIMEOUT_OFF;
    o.idle_timeout_ms = 700;
    ck_assert_int_eq(sdkrt_client_new(&c, &o, &err), SDKRT_OK);
    sdkrt_call_options zero = SDKRT_CALL_OPTIONS_INIT;
    rec_call(c, &zero, false);
    ck_assert_int_eq(s.req.connect_timeout_ms, 0);
    ck_assert_int_eq(s.req.head_timeout_ms, 500);
    ck_assert_int_eq(s.req.timeout_ms, 0);
    rec_call(c, NULL, true);
    ck_assert_int_eq(s.req.idle_timeout_ms, 700);
    sdkrt_client_free(c);

    /* other negative values are refused, for the client and for a call */
    long bad[] = {-2, -1000};
    for (size_t i = 0; i < 2; i++) {
        sdkrt_client_options b = o;
        b.head_timeout_ms = bad[i];
        ck_assert_int_eq(sdkrt_client_new(&c, &b, &err), SDKRT_ERR);
        ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_INVALID_ARGUMENT);
        sdkrt_error_clear(&err);
    }
    ck_assert_int_eq(sdkrt_client_new(&c, &o, &err), SDKRT_OK);
    sdkrt_call_options neg = SDKRT_CALL_OPTIONS_INIT;
    neg.connect_timeout_ms = -5;
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/x"), SDKRT_OK);
    sdkrt_response *resp = NULL;
    int before = s.sends;
    ck_assert_int_eq(sdkrt_client_send(c, req, &neg, &resp, &err), SDKRT_ERR);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_INVALID_ARGUMENT);
    ck_assert_int_eq(s.sends, before);
    sdkrt_error_clear(&err);
    sdkrt_request_free(req);
    sdkrt_client_free(c);
}
END_TEST

/* ---- over libcurl ---- */

typedef enum mode {
    SILENT,        /* accept, read the request, never answer */
    HEAD_STALL,    /* send a 200 head with a Content-Length, then nothing */
    SSE_STALL,     /* send an event-stream head, then nothing */
    LATE_ANSWER,   /* answer 200 after 800 ms */
    SSE_LATE_EVENT /* event-stream head at once, one event after 2500 ms */
} mode;

static int stall_handler(void *ud, const ts_request *req, ts_conn *c)
{
    (void)req;
    mode m = *(const mode *)ud;
    switch (m) {
    case SILENT:
        ts_sleep(c, 60000);
        return -1;
    case HEAD_STALL:
        ts_printf(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                     "100\r\n\r\n{");
        ts_sleep(c, 60000);
        return -1;
    case SSE_STALL:
        ts_printf(c, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n");
        ts_sleep(c, 60000);
        return -1;
    case LATE_ANSWER:
        if (ts_sleep(c, 800) != 0)
            return -1;
        ts_respond(c, 200, "application/json", "{}", 2);
        return 0;
    case SSE_LATE_EVENT:
        ts_printf(c, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n");
        if (ts_sleep(c, 2500) != 0)
            return -1;
        ts_printf(c, "data: {\"n\":1}\n\n");
        ts_sleep(c, 60000);
        return -1;
    }
    return -1;
}

typedef struct live {
    mode m;
    ts_server *srv;
    sdkrt_client *c;
} live;

/* A libcurl client of the stalling server; retries off (one attempt is what is measured). */
static void live_open(live *l, mode m, long head_ms, long total_ms)
{
    l->m = m;
    ck_assert_int_eq(ts_start(&l->srv, stall_handler, &l->m), 0);
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.base_url = ts_url(l->srv);
    o.head_timeout_ms = head_ms;
    o.timeout_ms = total_ms;
    sdkrt_retry_policy off = SDKRT_RETRY_POLICY_OFF;
    o.retry = off;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_new(&l->c, &o, &err), SDKRT_OK);
}

static void live_close(live *l)
{
    sdkrt_client_free(l->c);
    ts_stop(l->srv);
}

/* GET /x; the status, or -reason (message into msg). */
static int live_get(live *l, const sdkrt_call_options *co, char *msg, size_t cap)
{
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/x"), SDKRT_OK);
    sdkrt_response *resp = NULL;
    sdkrt_error *err = NULL;
    int out;
    if (sdkrt_client_send(l->c, req, co, &resp, &err) == SDKRT_OK)
        out = sdkrt_response_status(resp);
    else
        out = -(int)sdkrt_error_reason(err);
    snprintf(msg, cap, "%s", err ? sdkrt_error_message(err) : "");
    sdkrt_error_free(err);
    sdkrt_response_free(resp);
    sdkrt_request_free(req);
    return out;
}

/* Open GET /x as a stream and read one event: 1 for an event, else -reason (message in msg). */
static int live_stream(live *l, const sdkrt_call_options *co, char *msg, size_t cap)
{
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/x"), SDKRT_OK);
    sdkrt_stream *st = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_stream(l->c, req, co, &st, &err), SDKRT_OK);
    sdkrt_stream_event ev;
    int out =
        sdkrt_stream_next(st, &ev, &err) == SDKRT_STREAM_EVENT ? 1 : -(int)sdkrt_error_reason(err);
    snprintf(msg, cap, "%s", err ? sdkrt_error_message(err) : "");
    sdkrt_error_free(err);
    sdkrt_stream_close(st);
    sdkrt_request_free(req);
    return out;
}

START_TEST(head_timeout_on_a_silent_server)
{
    char msg[512];
    live l;
    live_open(&l, SILENT, 200, 0); /* the client's head timeout; the total stays 60 s */
    ck_assert_int_eq(live_get(&l, NULL, msg, sizeof msg), -SDKRT_REASON_TIMEOUT);
    ck_assert_msg(strstr(msg, "no response head within 200 ms"), "%s", msg);
    /* a stream open too */
    ck_assert_int_eq(live_stream(&l, NULL, msg, sizeof msg), -SDKRT_REASON_TIMEOUT);
    ck_assert_msg(strstr(msg, "no response head within 200 ms"), "%s", msg);
    /* per call */
    sdkrt_call_options co = SDKRT_CALL_OPTIONS_INIT;
    co.head_timeout_ms = 300;
    ck_assert_int_eq(live_get(&l, &co, msg, sizeof msg), -SDKRT_REASON_TIMEOUT);
    ck_assert_msg(strstr(msg, "no response head within 300 ms"), "%s", msg);
    live_close(&l);
    /* a client with the default head timeout, the call's 200 ms */
    live_open(&l, SILENT, 0, 0);
    co.head_timeout_ms = 200;
    ck_assert_int_eq(live_stream(&l, &co, msg, sizeof msg), -SDKRT_REASON_TIMEOUT);
    ck_assert_msg(strstr(msg, "no response head within 200 ms"), "%s", msg);
    live_close(&l);
}
END_TEST

START_TEST(off_and_overrides_let_a_late_answer_through)
{
    char msg[512];
    live l;
    /* the server answers after 800 ms: the client's 200 ms head timeout fires ... */
    live_open(&l, LATE_ANSWER, 200, 0);
    ck_assert_int_eq(live_get(&l, NULL, msg, sizeof msg), -SDKRT_REASON_TIMEOUT);
    /* ... a call with it off, or longer, gets the answer */
    sdkrt_call_options co = SDKRT_CALL_OPTIONS_INIT;
    co.head_timeout_ms = SDKRT_TIMEOUT_OFF;
    ck_assert_int_eq(live_get(&l, &co, msg, sizeof msg), 200);
    co.head_timeout_ms = 30000;
    ck_assert_int_eq(live_get(&l, &co, msg, sizeof msg), 200);
    /* the total timeout alone (head off) fires as well, and off lets it through */
    co.head_timeout_ms = SDKRT_TIMEOUT_OFF;
    co.timeout_ms = 200;
    ck_assert_int_eq(live_get(&l, &co, msg, sizeof msg), -SDKRT_REASON_TIMEOUT);
    co.timeout_ms = SDKRT_TIMEOUT_OFF;
    ck_assert_int_eq(live_get(&l, &co, msg, sizeof msg), 200);
    live_close(&l);
    /* a client with both off */
    live_open(&l, LATE_ANSWER, SDKRT_TIMEOUT_OFF, SDKRT_TIMEOUT_OFF);
    ck_assert_int_eq(live_get(&l, NULL, msg, sizeof msg), 200);
    live_close(&l);
}
END_TEST

START_TEST(total_timeout_after_the_head)
{
    char msg[512];
    live l;
    /* the head arrives, the body never finishes: the head timeout is satisfied, the total is not
       (a head timeout of seconds: under valgrind on a loaded machine the head took over 200 ms) */
    live_open(&l, HEAD_STALL, 2000, 2500);
    ck_assert_int_eq(live_get(&l, NULL, msg, sizeof msg), -SDKRT_REASON_TIMEOUT);
    ck_assert_msg(!strstr(msg, "response head"), "%s", msg);
    live_close(&l);
}
END_TEST

START_TEST(stream_head_timeout_ends_with_the_head)
{
    char msg[512];
    live l;
    /* an event 2.5 s after the head: a 2 s head timeout does not cut the open stream (a head
       timeout of seconds: under valgrind on a loaded machine the head itself took over 200 ms) */
    live_open(&l, SSE_LATE_EVENT, 2000, 2000);
    ck_assert_int_eq(live_stream(&l, NULL, msg, sizeof msg), 1);
    live_close(&l);
    /* a stream that stalls after its head: only an idle timeout (opt-in) ends it */
    live_open(&l, SSE_STALL, 200, 200);
    sdkrt_call_options co = SDKRT_CALL_OPTIONS_INIT;
    co.timeout_ms = 300; /* a stream call's timeout_ms: its idle timeout */
    ck_assert_int_eq(live_stream(&l, &co, msg, sizeof msg), -SDKRT_REASON_TIMEOUT);
    ck_assert_msg(strstr(msg, "idle timeout"), "%s", msg);
    live_close(&l);
}
END_TEST

static Suite *timeouts_suite(void)
{
    Suite *s = suite_create("timeouts");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, defaults_reach_the_transport);
    tcase_add_test(tc, head_timeout_on_a_silent_server);
    tcase_add_test(tc, off_and_overrides_let_a_late_answer_through);
    tcase_add_test(tc, total_timeout_after_the_head);
    tcase_add_test(tc, stream_head_timeout_ends_with_the_head);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    sdkrt_global_init();
    SRunner *sr = srunner_create(timeouts_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    sdkrt_global_cleanup();
    return failed ? 1 : 0;
}
