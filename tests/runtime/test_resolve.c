/* test_resolve.c - asynchronous work cancelled while libcurl still resolves the host name: a
 * unary call, a raw stream and a follower, each ended by its cancel token, by
 * sdkrt_async_stream_cancel or by sdkrt_loop_free, gets exactly one CANCELLED callback, at once,
 * while the name is still being resolved (the loop thread does not wait for the resolver), and
 * nothing leaks.
 *
 * Deterministic without a DNS server: this executable defines getaddrinfo (libcurl's threaded
 * resolver calls it on a thread of its own), and a lookup of STALL_HOST blocks until the test
 * releases it; every other name goes to the C library. Each case waits until the lookup is under
 * way before it cancels, and releases it (and waits for the resolver thread to leave) at the
 * end. */
#define _GNU_SOURCE
#include <check.h>
#include <dirent.h>
#include <dlfcn.h>
#include <netdb.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sdkrt/follow.h"
#include "sdkrt/loop.h"
#include "sdkrt/sdkrt.h"

#define STALL_HOST "resolve-stalls.test"
#define STALL_URL  "http://" STALL_HOST ":9"

/* ---- the stalled lookup ---- */

static pthread_mutex_t stall_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t stall_cv = PTHREAD_COND_INITIALIZER;
static int stall_entered; /* lookups of STALL_HOST begun */
static int stall_inside;  /* and not yet returned */
static bool stall_released;

typedef int (*gai_fn)(const char *, const char *, const struct addrinfo *, struct addrinfo **);

int getaddrinfo(const char *node, const char *service, const struct addrinfo *hints,
                struct addrinfo **res)
{
    if (!node || strcmp(node, STALL_HOST) != 0) {
        gai_fn real = NULL;
        void *sym = dlsym(RTLD_NEXT, "getaddrinfo");
        memcpy(&real, &sym, sizeof real); /* POSIX: dlsym's pointer may be a function's */
        return real ? real(node, service, hints, res) : EAI_FAIL;
    }
    /* a bound on the wait, so that a runtime that waits for the resolver fails the test instead
       of hanging it */
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 10;
    pthread_mutex_lock(&stall_mu);
    stall_entered++;
    stall_inside++;
    pthread_cond_broadcast(&stall_cv);
    while (!stall_released && pthread_cond_timedwait(&stall_cv, &stall_mu, &until) == 0)
        ;
    stall_inside--;
    pthread_cond_broadcast(&stall_cv);
    pthread_mutex_unlock(&stall_mu);
    return EAI_NONAME;
}

static int stall_count(int *which)
{
    pthread_mutex_lock(&stall_mu);
    int n = *which;
    pthread_mutex_unlock(&stall_mu);
    return n;
}

static void stall_reset(void)
{
    pthread_mutex_lock(&stall_mu);
    stall_entered = stall_inside = 0;
    stall_released = false;
    pthread_mutex_unlock(&stall_mu);
}

/* The process's threads now. */
static int threads(void)
{
    DIR *d = opendir("/proc/self/task");
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

/* Let the lookup return, and wait until the resolver thread (left to finish on its own) is gone,
 * so that nothing of it is in use when the case ends. */
static void stall_release(int before)
{
    pthread_mutex_lock(&stall_mu);
    stall_released = true;
    pthread_cond_broadcast(&stall_cv);
    while (stall_inside > 0)
        pthread_cond_wait(&stall_cv, &stall_mu);
    pthread_mutex_unlock(&stall_mu);
    struct timespec ms = {0, 1000000L};
    for (int i = 0; i < 10000 && threads() > before; i++)
        nanosleep(&ms, NULL);
    ck_assert_int_le(threads(), before);
}

/* ---- fixtures ---- */

typedef struct fx {
    sdkrt_loop *loop;
    sdkrt_client *c;
    int threads; /* before the case */
} fx;

static void fx_open(fx *f)
{
    sdkrt_error *err = NULL;
    stall_reset();
    f->threads = threads();
    ck_assert_int_eq(sdkrt_loop_new(&f->loop, &err), SDKRT_OK);
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.base_url = STALL_URL;
    o.loop = f->loop;
    o.retry.max_attempts = 1;
    ck_assert_int_eq(sdkrt_client_new(&f->c, &o, &err), SDKRT_OK);
}

static void fx_close(fx *f)
{
    sdkrt_loop_free(f->loop);
    sdkrt_client_free(f->c);
    stall_release(f->threads);
}

/* Turn the loop until the resolver thread is inside the lookup (the loop starts it). */
static void until_resolving(fx *f)
{
    sdkrt_error *err = NULL;
    for (int i = 0; i < 1000 && stall_count(&stall_entered) == 0; i++)
        ck_assert_int_eq(sdkrt_loop_run_once(f->loop, 10, &err), SDKRT_OK);
    ck_assert_msg(stall_count(&stall_entered) == 1,
                  "libcurl did not look " STALL_HOST " up through getaddrinfo (%d calls): this "
                  "test needs its threaded resolver (curl-config --features: AsynchDNS, no c-ares)",
                  stall_count(&stall_entered));
}

/* What a callback saw, and whether the lookup was still blocked then. */
typedef struct outcome {
    int calls;
    sdkrt_reason reason;
    char msg[512];
    int resolving; /* lookups still blocked when the callback ran */
} outcome;

static void note(outcome *o, const sdkrt_error *err)
{
    o->calls++;
    o->reason = err ? sdkrt_error_reason(err) : SDKRT_REASON_NONE;
    snprintf(o->msg, sizeof o->msg, "%s", err ? sdkrt_error_message(err) : "");
    o->resolving = stall_count(&stall_inside);
}

static void assert_cancelled(const outcome *o, const char *want)
{
    ck_assert_int_eq(o->calls, 1);
    ck_assert_int_eq(o->reason, SDKRT_REASON_CANCELLED);
    ck_assert_msg(strstr(o->msg, want), "%s", o->msg);
    ck_assert_msg(o->resolving == 1, "the callback waited for the resolver");
}

/* ---- unary calls ---- */

static void on_done(void *ud, sdkrt_response *resp, const sdkrt_error *err)
{
    sdkrt_response_free(resp);
    note(ud, err);
}

static void start_call(fx *f, const sdkrt_call_options *co, outcome *o)
{
    sdkrt_request *req = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/ok"), SDKRT_OK);
    ck_assert_int_eq(sdkrt_client_send_async(f->c, req, co, on_done, o, &err), SDKRT_OK);
    sdkrt_request_free(req);
}

START_TEST(call_cancelled_by_its_token)
{
    fx f;
    fx_open(&f);
    sdkrt_cancel *tok = NULL;
    ck_assert_int_eq(sdkrt_cancel_new(&tok), SDKRT_OK);
    sdkrt_call_options co = SDKRT_CALL_OPTIONS_INIT;
    co.cancel = tok;
    outcome o = {0};
    start_call(&f, &co, &o);
    until_resolving(&f);
    ck_assert_int_eq(o.calls, 0);
    sdkrt_cancel_trigger(tok);
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_loop_run(f.loop, &err), SDKRT_OK);
    assert_cancelled(&o, "GET " STALL_URL "/ok: cancelled");
    fx_close(&f);
    ck_assert_int_eq(o.calls, 1);
    sdkrt_cancel_free(tok);
}
END_TEST

START_TEST(call_ended_by_loop_free)
{
    fx f;
    fx_open(&f);
    outcome o = {0};
    start_call(&f, NULL, &o);
    until_resolving(&f);
    sdkrt_loop_free(f.loop);
    f.loop = NULL;
    assert_cancelled(&o, "the loop was freed");
    fx_close(&f);
    ck_assert_int_eq(o.calls, 1);
}
END_TEST

/* ---- streams and followers ---- */

static void on_item(void *ud, const void *item)
{
    (void)item;
    ((outcome *)ud)->calls += 100; /* no item can come */
}

static void on_end(void *ud, const sdkrt_error *err)
{
    note(ud, err);
}

static const sdkrt_stream_handlers handlers = {.on_item = on_item, .on_end = on_end};

START_TEST(stream_cancelled_while_resolving)
{
    fx f;
    fx_open(&f);
    sdkrt_request *req = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/events"), SDKRT_OK);
    outcome o = {0};
    sdkrt_async_stream *s = NULL;
    ck_assert_int_eq(sdkrt_stream_start(&s, f.c, req, NULL, &handlers, &o, &err), SDKRT_OK);
    sdkrt_request_free(req);
    until_resolving(&f);
    sdkrt_async_stream_cancel(s);
    assert_cancelled(&o, "GET " STALL_URL "/events: cancelled");
    ck_assert_int_eq(sdkrt_loop_run(f.loop, &err), SDKRT_OK);
    fx_close(&f);
    ck_assert_int_eq(o.calls, 1);
}
END_TEST

static const sdkrt_jtype t_int = {
    .kind = SDKRT_JK_INTEGER, .name = "integer", .size = sizeof(int64_t)};
typedef struct item {
    int64_t seq;
} item;
static const sdkrt_jfield item_fields[] = {
    {"seq", &t_int, SDKRT_JF_REQUIRED, offsetof(item, seq), SDKRT_JNONE, SDKRT_JNONE},
};
static const sdkrt_jtype t_item = {.kind = SDKRT_JK_OBJECT,
                                   .name = "Item",
                                   .size = sizeof(item),
                                   .fields = item_fields,
                                   .nfields = 1};
static const sdkrt_jop op_items = {
    .id = "t.items", .status = 200, .encoding = SDKRT_JENC_SSE, .item = &t_item};
static const char *const seq_path[] = {"seq"};
static const sdkrt_follow_sequence seq_spec = {seq_path, 1};

static sdkrt_status make_request(void *ud, const int64_t *after, sdkrt_request **out,
                                 sdkrt_error **err)
{
    (void)ud;
    (void)after;
    return sdkrt_request_new(out, "GET", "/follow") == SDKRT_OK
               ? SDKRT_OK
               : sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
}

/* A follower ended while its first open resolves: by its token (run the loop) or the loop freed. */
static void follower_case(bool free_loop)
{
    fx f;
    fx_open(&f);
    sdkrt_cancel *tok = NULL;
    ck_assert_int_eq(sdkrt_cancel_new(&tok), SDKRT_OK);
    sdkrt_follow_options fo = SDKRT_FOLLOW_OPTIONS_INIT;
    fo.cancel = tok;
    outcome o = {0};
    sdkrt_error *err = NULL;
    ck_assert_int_eq(
        sdkrt_follow_start(NULL, f.c, &op_items, make_request, &seq_spec, &fo, &handlers, &o, &err),
        SDKRT_OK);
    until_resolving(&f);
    if (free_loop) {
        sdkrt_loop_free(f.loop);
        f.loop = NULL;
        assert_cancelled(&o, "the loop was freed");
    } else {
        sdkrt_cancel_trigger(tok);
        ck_assert_int_eq(sdkrt_loop_run(f.loop, &err), SDKRT_OK);
        assert_cancelled(&o, "GET " STALL_URL "/follow: cancelled");
    }
    fx_close(&f);
    ck_assert_int_eq(o.calls, 1);
    sdkrt_cancel_free(tok);
}

START_TEST(follower_cancelled_by_its_token)
{
    follower_case(false);
}
END_TEST

START_TEST(follower_ended_by_loop_free)
{
    follower_case(true);
}
END_TEST

/* ---- blocking work, cancelled from another thread ---- */

/* Triggers tok once `want` lookups of STALL_HOST are under way (or after a bound, so that a
 * runtime that never resolves fails the assertions instead of hanging). */
typedef struct canceller {
    pthread_t th;
    sdkrt_cancel *tok;
    int want;
} canceller;

static void *cancel_when_resolving(void *ud)
{
    canceller *k = ud;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 10;
    pthread_mutex_lock(&stall_mu);
    while (stall_entered < k->want && pthread_cond_timedwait(&stall_cv, &stall_mu, &until) == 0)
        ;
    pthread_mutex_unlock(&stall_mu);
    sdkrt_cancel_trigger(k->tok);
    return NULL;
}

static void canceller_start(canceller *k, int want)
{
    k->want = want;
    ck_assert_int_eq(sdkrt_cancel_new(&k->tok), SDKRT_OK);
    ck_assert_int_eq(pthread_create(&k->th, NULL, cancel_when_resolving, k), 0);
}

/* Joins k, and checks that the blocking call noted in o was cancelled while `want` lookups
 * (all begun) were still blocked. */
static void canceller_check(canceller *k, const outcome *o, const char *want)
{
    pthread_join(k->th, NULL);
    sdkrt_cancel_free(k->tok);
    ck_assert_msg(stall_count(&stall_entered) == k->want,
                  "libcurl did not look " STALL_HOST " up through getaddrinfo (%d calls): this "
                  "test needs its threaded resolver (curl-config --features: AsynchDNS, no c-ares)",
                  stall_count(&stall_entered));
    ck_assert_msg(o->resolving == k->want, "the blocking call returned only after the lookup (%s)",
                  o->msg);
    ck_assert_int_eq(o->reason, SDKRT_REASON_CANCELLED);
    ck_assert_msg(strstr(o->msg, want), "%s", o->msg);
}

/* A client without a loop: its blocking transport, with the default pool of idle connections. */
static sdkrt_client *blocking_client(int *threads_before)
{
    sdkrt_error *err = NULL;
    stall_reset();
    *threads_before = threads();
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.base_url = STALL_URL;
    o.retry.max_attempts = 1;
    sdkrt_client *c = NULL;
    ck_assert_int_eq(sdkrt_client_new(&c, &o, &err), SDKRT_OK);
    return c;
}

static void blocking_send(sdkrt_client *c, int want_lookups)
{
    canceller k;
    canceller_start(&k, want_lookups);
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/ok"), SDKRT_OK);
    sdkrt_call_options co = SDKRT_CALL_OPTIONS_INIT;
    co.cancel = k.tok;
    sdkrt_response *resp = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_send(c, req, &co, &resp, &err), SDKRT_ERR);
    outcome o = {0};
    note(&o, err);
    ck_assert_ptr_null(resp);
    sdkrt_error_free(err);
    sdkrt_request_free(req);
    canceller_check(&k, &o, "cancelled");
}

START_TEST(blocking_send_cancelled)
{
    int before = 0;
    sdkrt_client *c = blocking_client(&before);
    blocking_send(c, 1);
    /* again on the same client while the first lookup still blocks: whatever the pool kept of
       the first transfer must not make this one wait either */
    blocking_send(c, 2);
    sdkrt_client_free(c);
    stall_release(before);
}
END_TEST

START_TEST(blocking_stream_cancelled)
{
    int before = 0;
    sdkrt_client *c = blocking_client(&before);
    canceller k;
    canceller_start(&k, 1);
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/events"), SDKRT_OK);
    sdkrt_call_options co = SDKRT_CALL_OPTIONS_INIT;
    co.cancel = k.tok;
    sdkrt_stream *s = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_stream(c, req, &co, &s, &err), SDKRT_OK);
    sdkrt_request_free(req);
    sdkrt_stream_event ev;
    ck_assert_int_eq(sdkrt_stream_next(s, &ev, &err), SDKRT_STREAM_ERROR);
    outcome o = {0};
    note(&o, err);
    sdkrt_error_free(err);
    sdkrt_stream_close(s);
    canceller_check(&k, &o, "cancelled");
    sdkrt_client_free(c);
    stall_release(before);
}
END_TEST

static sdkrt_status open_items(void *ud, const int64_t *after, const sdkrt_call_options *call,
                               sdkrt_jstream **out, sdkrt_error **err)
{
    sdkrt_request *req = NULL;
    if (make_request(NULL, after, &req, err) != SDKRT_OK)
        return SDKRT_ERR;
    sdkrt_status st = sdkrt_jstream_open(out, ud, req, call, &op_items, err);
    sdkrt_request_free(req);
    return st;
}

START_TEST(blocking_follower_cancelled)
{
    int before = 0;
    sdkrt_client *c = blocking_client(&before);
    canceller k;
    canceller_start(&k, 1);
    sdkrt_follow_options fo = SDKRT_FOLLOW_OPTIONS_INIT;
    fo.cancel = k.tok;
    sdkrt_follow *fl = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_follow_new(&fl, open_items, c, &seq_spec, &fo, &err), SDKRT_OK);
    sdkrt_follow_event ev;
    ck_assert_int_eq(sdkrt_follow_next(fl, &ev, &err), SDKRT_STREAM_ERROR);
    outcome o = {0};
    note(&o, err);
    sdkrt_error_free(err);
    sdkrt_follow_free(fl);
    canceller_check(&k, &o, "cancelled");
    sdkrt_client_free(c);
    stall_release(before);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("resolve");
    TCase *tc = tcase_create("cancel while resolving");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, call_cancelled_by_its_token);
    tcase_add_test(tc, call_ended_by_loop_free);
    tcase_add_test(tc, stream_cancelled_while_resolving);
    tcase_add_test(tc, follower_cancelled_by_its_token);
    tcase_add_test(tc, follower_ended_by_loop_free);
    suite_add_tcase(s, tc);
    TCase *tb = tcase_create("blocking, cancelled while resolving");
    tcase_set_timeout(tb, 60);
    tcase_add_test(tb, blocking_send_cancelled);
    tcase_add_test(tb, blocking_stream_cancelled);
    tcase_add_test(tb, blocking_follower_cancelled);
    suite_add_tcase(s, tb);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
