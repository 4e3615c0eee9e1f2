/* test_pool.c - the libcurl transport's pool of idle connections (bounded per origin, its size in
 * sdkrt_client_options.max_idle_connections) under threads sharing one client, and running out
 * of file descriptors: a TRANSPORT error that names the cause, on blocking and asynchronous
 * calls alike, instead of "Couldn't connect to server". */
#include <check.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "sdkrt/loop.h"
#include "sdkrt/sdkrt.h"
#include "test_server.h"

static int handler(void *ud, const ts_request *req, ts_conn *c)
{
    (void)ud;
    (void)req;
    return ts_respond(c, 200, "text/plain", "ok", 2) == 0 ? 0 : -1;
}

static sdkrt_client *client_of(const ts_server *srv, size_t max_idle, sdkrt_loop *loop)
{
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.base_url = ts_url(srv);
    o.max_idle_connections = max_idle;
    o.loop = loop;
    o.retry.max_attempts = 1;
    o.head_timeout_ms = 5000; /* a connect that should have failed must not wait 30 s */
    sdkrt_client *c = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_new(&c, &o, &err), SDKRT_OK);
    return c;
}

static int get(sdkrt_client *c, char *msg, size_t cap)
{
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/x"), SDKRT_OK);
    sdkrt_response *resp = NULL;
    sdkrt_error *err = NULL;
    int out = sdkrt_client_send(c, req, NULL, &resp, &err) == SDKRT_OK
                  ? sdkrt_response_status(resp)
                  : -(int)sdkrt_error_reason(err);
    if (msg)
        snprintf(msg, cap, "%s", err ? sdkrt_error_message(err) : "");
    sdkrt_error_free(err);
    sdkrt_response_free(resp);
    sdkrt_request_free(req);
    return out;
}

typedef struct worker {
    sdkrt_client *c;
    int ok;
} worker;

static void *worker_main(void *arg)
{
    worker *w = arg;
    for (int i = 0; i < 40; i++)
        w->ok += get(w->c, NULL, 0) == 200;
    return NULL;
}

/* 8 threads, 320 calls, a pool of 8: every call finds a parked connection or opens one of at most
 * 8 (never more than the threads that run at once), so no call pays for a connect after the
 * first few. With one idle connection (the old behaviour) about a third of the calls connected. */
START_TEST(pool_serves_threads)
{
    enum { THREADS = 8 };
    ts_server *srv = NULL;
    ck_assert_int_eq(ts_start(&srv, handler, NULL), 0);
    sdkrt_client *c = client_of(srv, THREADS, NULL);
    worker w[THREADS];
    pthread_t th[THREADS];
    for (int i = 0; i < THREADS; i++) {
        w[i].c = c;
        w[i].ok = 0;
        ck_assert_int_eq(pthread_create(&th[i], NULL, worker_main, &w[i]), 0);
    }
    for (int i = 0; i < THREADS; i++) {
        pthread_join(th[i], NULL);
        ck_assert_int_eq(w[i].ok, 40);
    }
    ck_assert_int_eq(ts_requests(srv), THREADS * 40);
    ck_assert_int_le(ts_connections(srv), THREADS);
    /* sequential calls afterwards reuse a parked connection */
    int before = ts_connections(srv);
    for (int i = 0; i < 10; i++)
        ck_assert_int_eq(get(c, NULL, 0), 200);
    ck_assert_int_eq(ts_connections(srv), before);
    sdkrt_client_free(c);
    ts_stop(srv);
}
END_TEST

/* Connections to another origin are pooled apart: a call to origin B never takes A's. */
START_TEST(pool_per_origin)
{
    ts_server *a = NULL, *b = NULL;
    ck_assert_int_eq(ts_start(&a, handler, NULL), 0);
    ck_assert_int_eq(ts_start(&b, handler, NULL), 0);
    sdkrt_transport *t = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_curl_transport_new(&t, &err), SDKRT_OK);
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.transport = t;
    o.base_url = ts_url(a);
    sdkrt_client *ca = NULL, *cb = NULL;
    ck_assert_int_eq(sdkrt_client_new(&ca, &o, &err), SDKRT_OK);
    o.base_url = ts_url(b);
    ck_assert_int_eq(sdkrt_client_new(&cb, &o, &err), SDKRT_OK);
    for (int i = 0; i < 5; i++) {
        ck_assert_int_eq(get(ca, NULL, 0), 200);
        ck_assert_int_eq(get(cb, NULL, 0), 200);
    }
    ck_assert_int_eq(ts_connections(a), 1);
    ck_assert_int_eq(ts_connections(b), 1);
    sdkrt_client_free(ca);
    sdkrt_client_free(cb);
    sdkrt_transport_free(t);
    ts_stop(a);
    ts_stop(b);
}
END_TEST

/* An open-files limit under which exactly `spare` descriptors can still be made: the number of
 * the (spare+1)-th lowest free descriptor (free ones may sit between open ones). */
static rlim_t limit_leaving(int spare)
{
    int fds[8];
    ck_assert_int_lt(spare, 8);
    for (int i = 0; i <= spare; i++) {
        fds[i] = open("/dev/null", O_RDONLY | O_CLOEXEC);
        ck_assert_int_ge(fds[i], 0);
    }
    int last = fds[spare];
    for (int i = 0; i <= spare; i++)
        close(fds[i]);
    return (rlim_t)last;
}

typedef struct outcome {
    int calls;
    sdkrt_reason reason;
    char msg[512];
} outcome;

static void on_done(void *ud, sdkrt_response *resp, const sdkrt_error *err)
{
    outcome *o = ud;
    o->calls++;
    o->reason = err ? sdkrt_error_reason(err) : SDKRT_REASON_NONE;
    snprintf(o->msg, sizeof o->msg, "%s", err ? sdkrt_error_message(err) : "");
    sdkrt_response_free(resp);
}

/* With the open-files limit at the descriptors in use (plus `spare`), a call fails with TRANSPORT
 * "out of file descriptors": whether curl's wake-up pair (spare 0) or the connection's socket
 * (spare 2) is the one that cannot be made. Then the same on the loop. */
START_TEST(out_of_descriptors_says_so)
{
    ts_server *srv = NULL;
    ck_assert_int_eq(ts_start(&srv, handler, NULL), 0);
    sdkrt_client *c = client_of(srv, 0, NULL);
    sdkrt_loop *loop = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_loop_new(&loop, &err), SDKRT_OK);
    sdkrt_client *ac = client_of(srv, 0, loop);
    struct rlimit old;
    ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &old), 0);
    char msg[512];
    for (int spare = 0; spare <= 2; spare += 2) {
        struct rlimit low = old;
        low.rlim_cur = limit_leaving(spare);
        ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &low), 0);
        int got = get(c, msg, sizeof msg);
        ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &old), 0);
        ck_assert_int_eq(got, -(int)SDKRT_REASON_TRANSPORT);
        ck_assert_msg(strstr(msg, "out of file descriptors") && strstr(msg, "open-files limit"),
                      "spare %d: %s", spare, msg);
    }
    /* the loop holds its descriptors already: the connection's socket is what fails */
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/x"), SDKRT_OK);
    outcome o = {0};
    ck_assert_int_eq(sdkrt_client_send_async(ac, req, NULL, on_done, &o, &err), SDKRT_OK);
    struct rlimit low = old;
    low.rlim_cur = limit_leaving(0);
    ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &low), 0);
    sdkrt_status st = sdkrt_loop_run(loop, &err);
    ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &old), 0);
    ck_assert_int_eq(st, SDKRT_OK);
    ck_assert_int_eq(o.calls, 1);
    ck_assert_int_eq(o.reason, SDKRT_REASON_TRANSPORT);
    ck_assert_msg(strstr(o.msg, "out of file descriptors"), "%s", o.msg);
    /* with descriptors back, the same client works */
    ck_assert_int_eq(get(c, NULL, 0), 200);
    sdkrt_request_free(req);
    sdkrt_client_free(ac);
    sdkrt_loop_free(loop);
    sdkrt_client_free(c);
    ts_stop(srv);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("pool");
    TCase *tc = tcase_create("pool");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, pool_serves_threads);
    tcase_add_test(tc, pool_per_origin);
    tcase_add_test(tc, out_of_descriptors_says_so);
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
