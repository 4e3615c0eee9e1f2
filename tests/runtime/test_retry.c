/* test_retry.c - retries of unary calls and idempotency keys over the in-memory transport: which
 * outcomes and methods are retried, attempt counts, the backoff and its cap, Retry-After (seconds
 * and the three HTTP-date forms) and retry-after-ms, per-call policies, keys given and generated,
 * cancellation during the wait, bodies re-read on each attempt. Waits go through an injected
 * sleep that records the requested delays: nothing here depends on wall time passing. */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "sdkrt/page.h"
#include "sdkrt/sdkrt.h"
#include "sdkrt/wire.h"

#define MAX_STEPS 8

/* What the server answers to attempt i (the last step repeats). */
typedef struct step {
    int status;           /* 0: fail the connection (handler returns -1: TRANSPORT) */
    const char *hname[3]; /* response headers */
    const char *hvalue[3];
    sdkrt_reason end_with; /* not NONE: the body ends with this error */
} step;

typedef struct server {
    step steps[MAX_STEPS];
    size_t nsteps;
    int attempts;
    char method[MAX_STEPS][16];
    char key[MAX_STEPS][80]; /* the idempotency header seen ("" if none) */
    char body[MAX_STEPS][512];
    const char *key_header;
} server;

static int handler(void *ud, const sdkrt_memory_request *req, sdkrt_memory_response *resp)
{
    server *s = ud;
    int i = s->attempts < MAX_STEPS ? s->attempts : MAX_STEPS - 1;
    s->attempts++;
    snprintf(s->method[i], sizeof s->method[i], "%s", req->method);
    s->key[i][0] = '\0';
    const char *kh = s->key_header ? s->key_header : "Idempotency-Key";
    for (size_t h = 0; h < req->header_count; h++) {
        if (strcasecmp(req->headers[h].name, kh) == 0)
            snprintf(s->key[i], sizeof s->key[i], "%s", req->headers[h].value);
    }
    size_t n = req->body_len < sizeof s->body[i] - 1 ? req->body_len : sizeof s->body[i] - 1;
    if (req->body)
        memcpy(s->body[i], req->body, n);
    s->body[i][n] = '\0';
    size_t si = (size_t)i < s->nsteps ? (size_t)i : s->nsteps - 1;
    const step *st = &s->steps[si];
    if (!st->status)
        return -1;
    sdkrt_memory_response_set_status(resp, st->status);
    for (int h = 0; h < 3 && st->hname[h]; h++)
        sdkrt_memory_response_add_header(resp, st->hname[h], st->hvalue[h]);
    sdkrt_memory_response_add_header(resp, "Content-Type", "application/json");
    sdkrt_memory_response_add_chunk(resp, "{}", 2);
    if (st->end_with != SDKRT_REASON_NONE)
        sdkrt_memory_response_end_with_error(resp, st->end_with, "scripted");
    return 0;
}

/* The waits the client asked for, and what the tests do during them. */
typedef struct waits {
    long ms[MAX_STEPS];
    int n;
    sdkrt_retry_info info[MAX_STEPS];
    int ninfo;
    sdkrt_cancel *cancel_at_wait; /* triggered during the first wait */
    const char *rewrite_path;     /* rewritten during each wait */
} waits;

static void record_sleep(void *ud, long ms, const sdkrt_cancel *cancel)
{
    (void)cancel;
    waits *w = ud;
    if (w->n < MAX_STEPS)
        w->ms[w->n] = ms;
    w->n++;
    if (w->cancel_at_wait)
        sdkrt_cancel_trigger(w->cancel_at_wait);
    if (w->rewrite_path) {
        FILE *f = fopen(w->rewrite_path, "wb");
        ck_assert_ptr_nonnull(f);
        fprintf(f, "file content %d", w->n);
        fclose(f);
    }
}

static void record_retry(void *ud, const sdkrt_retry_info *info)
{
    waits *w = ud;
    if (w->ninfo < MAX_STEPS)
        w->info[w->ninfo] = *info;
    w->ninfo++;
}

typedef struct fixture {
    server s;
    waits w;
    sdkrt_transport *t;
    sdkrt_client *c;
    sdkrt_retry_policy policy; /* for the calls that pass it */
} fixture;

static void fx_open_with(fixture *f, sdkrt_client_options *o)
{
    ck_assert_int_eq(sdkrt_memory_transport_new(&f->t, handler, &f->s), SDKRT_OK);
    if (!o->base_url)
        o->base_url = "http://api.test";
    o->transport = f->t;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_new(&f->c, o, &err), SDKRT_OK);
    ck_assert_ptr_null(err);
}

/* A client whose policy allows `attempts` attempts, waits recorded. */
static void fx_open(fixture *f, int attempts)
{
    memset(f, 0, sizeof *f);
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.retry.max_attempts = attempts;
    o.retry.sleep = record_sleep;
    o.retry.on_retry = record_retry;
    o.retry.userdata = &f->w;
    f->policy = o.retry;
    fx_open_with(f, &o);
}

static void fx_close(fixture *f)
{
    sdkrt_client_free(f->c);
    sdkrt_transport_free(f->t);
}

static void script(fixture *f, const step *steps, size_t n)
{
    memcpy(f->s.steps, steps, n * sizeof *steps);
    f->s.nsteps = n;
}

/* Send method /x; returns the status (or -reason on failure) and frees everything. */
static int call(fixture *f, const char *method, const sdkrt_call_options *co, sdkrt_error **keep)
{
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, method, "/x"), SDKRT_OK);
    sdkrt_response *resp = NULL;
    sdkrt_error *err = NULL;
    int out;
    if (sdkrt_client_send(f->c, req, co, &resp, &err) == SDKRT_OK) {
        ck_assert_ptr_null(err);
        out = sdkrt_response_status(resp);
    } else {
        ck_assert_ptr_nonnull(err);
        ck_assert_ptr_null(resp);
        out = -(int)sdkrt_error_reason(err);
    }
    if (keep)
        *keep = err;
    else
        sdkrt_error_free(err);
    sdkrt_response_free(resp);
    sdkrt_request_free(req);
    return out;
}

static bool is_uuid4(const char *s);

START_TEST(on_by_default)
{
    /* no option set: two retries (a real wait of about 0.5 s, then 1 s), GETs and keyed calls */
    fixture f;
    memset(&f, 0, sizeof f);
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    fx_open_with(&f, &o);
    step s[] = {{503, {NULL}, {NULL}, SDKRT_REASON_NONE}, {200, {NULL}, {NULL}, SDKRT_REASON_NONE}};
    script(&f, s, 2);
    ck_assert_int_eq(call(&f, "GET", NULL, NULL), 200);
    ck_assert_int_eq(f.s.attempts, 2);
    /* a POST without a key is sent once */
    f.s.attempts = 0;
    ck_assert_int_eq(call(&f, "POST", NULL, NULL), 503);
    ck_assert_int_eq(f.s.attempts, 1);
    /* three attempts in all: the third 503 is the result */
    f.s.attempts = 0;
    step s3[] = {{503, {"retry-after-ms"}, {"1"}, SDKRT_REASON_NONE}};
    script(&f, s3, 1);
    ck_assert_int_eq(call(&f, "GET", NULL, NULL), 503);
    ck_assert_int_eq(f.s.attempts, SDKRT_RETRY_DEFAULT_MAX_ATTEMPTS);
    /* SDKRT_RETRY_POLICY_OFF: one attempt, for the client or for one call */
    f.s.attempts = 0;
    sdkrt_retry_policy off = SDKRT_RETRY_POLICY_OFF;
    sdkrt_call_options co = SDKRT_CALL_OPTIONS_INIT;
    co.retry = &off;
    ck_assert_int_eq(call(&f, "GET", &co, NULL), 503);
    ck_assert_int_eq(f.s.attempts, 1);
    fx_close(&f);
    memset(&f, 0, sizeof f);
    sdkrt_client_options o2 = SDKRT_CLIENT_OPTIONS_INIT;
    o2.retry = off;
    fx_open_with(&f, &o2);
    script(&f, s, 2);
    ck_assert_int_eq(call(&f, "GET", NULL, NULL), 503);
    ck_assert_int_eq(f.s.attempts, 1);
    s[0].status = 0;
    script(&f, s, 2);
    f.s.attempts = 0;
    ck_assert_int_eq(call(&f, "GET", NULL, NULL), -SDKRT_REASON_TRANSPORT);
    ck_assert_int_eq(f.s.attempts, 1);
    fx_close(&f);
}
END_TEST

/* An operation whose contract declares an idempotency header: a POST gets a generated key in it
 * (the same on every attempt) and is retried; a key of the caller's goes there too. */
START_TEST(declared_idempotency_header)
{
    fixture f;
    fx_open(&f, 0); /* the default policy, waits recorded */
    f.s.key_header = "X-Idempotency-Key";
    step s[] = {{503, {NULL}, {NULL}, SDKRT_REASON_NONE},
                {0, {NULL}, {NULL}, SDKRT_REASON_NONE},
                {201, {NULL}, {NULL}, SDKRT_REASON_NONE}};
    script(&f, s, 3);
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "POST", "/x"), SDKRT_OK);
    ck_assert_int_eq(sdkrt_request_set_idempotency_header(req, "X-Idempotency-Key"), SDKRT_OK);
    sdkrt_response *resp = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_send(f.c, req, NULL, &resp, &err), SDKRT_OK);
    ck_assert_int_eq(sdkrt_response_status(resp), 201);
    sdkrt_response_free(resp);
    ck_assert_int_eq(f.s.attempts, 3);
    ck_assert_msg(is_uuid4(f.s.key[0]), "key %s", f.s.key[0]);
    ck_assert_str_eq(f.s.key[1], f.s.key[0]);
    ck_assert_str_eq(f.s.key[2], f.s.key[0]);
    char first[80];
    snprintf(first, sizeof first, "%s", f.s.key[0]);
    /* the next call: another key */
    f.s.attempts = 0;
    ck_assert_int_eq(sdkrt_client_send(f.c, req, NULL, &resp, &err), SDKRT_OK);
    sdkrt_response_free(resp);
    ck_assert(is_uuid4(f.s.key[0]));
    ck_assert_str_ne(f.s.key[0], first);
    /* the caller's key, as the call option, goes in the declared header */
    f.s.attempts = 0;
    sdkrt_call_options co = SDKRT_CALL_OPTIONS_INIT;
    co.idempotency_key = "mine";
    ck_assert_int_eq(sdkrt_client_send(f.c, req, &co, &resp, &err), SDKRT_OK);
    sdkrt_response_free(resp);
    ck_assert_int_eq(f.s.attempts, 3);
    ck_assert_str_eq(f.s.key[0], "mine");
    ck_assert_str_eq(f.s.key[2], "mine");
    /* ... and as the header parameter (set on the request) */
    f.s.attempts = 0;
    ck_assert_int_eq(sdkrt_request_set_header(req, "x-idempotency-key", "param"), SDKRT_OK);
    ck_assert_int_eq(sdkrt_client_send(f.c, req, NULL, &resp, &err), SDKRT_OK);
    sdkrt_response_free(resp);
    ck_assert_int_eq(f.s.attempts, 3);
    ck_assert_str_eq(f.s.key[1], "param");
    ck_assert_ptr_null(err);
    sdkrt_request_free(req);
    /* a bad name is recorded and reported when sent */
    ck_assert_int_eq(sdkrt_request_new(&req, "POST", "/x"), SDKRT_OK);
    ck_assert_int_eq(sdkrt_request_set_idempotency_header(req, "Bad Name"), SDKRT_ERR);
    f.s.attempts = 0;
    ck_assert_int_eq(sdkrt_client_send(f.c, req, NULL, &resp, &err), SDKRT_ERR);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_INVALID_ARGUMENT);
    ck_assert_int_eq(f.s.attempts, 0);
    sdkrt_error_free(err);
    sdkrt_request_free(req);
    fx_close(&f);
}
END_TEST

START_TEST(attempts_and_capped_backoff)
{
    fixture f;
    fx_open(&f, 5);
    sdkrt_retry_policy p = f.policy;
    p.initial_delay_ms = 100;
    p.max_delay_ms = 250;
    sdkrt_call_options co = SDKRT_CALL_OPTIONS_INIT;
    co.retry = &p;
    step s[] = {{503, {NULL}, {NULL}, SDKRT_REASON_NONE}};
    script(&f, s, 1);
    ck_assert_int_eq(call(&f, "GET", &co, NULL), 503); /* the last attempt's response */
    ck_assert_int_eq(f.s.attempts, 5);
    ck_assert_int_eq(f.w.n, 4);
    /* 100, 200, 250, 250 (capped), each less up to 25% of jitter */
    long base[] = {100, 200, 250, 250};
    for (int i = 0; i < 4; i++) {
        ck_assert_msg(f.w.ms[i] <= base[i] && f.w.ms[i] >= base[i] * 3 / 4, "wait %d: %ld ms", i,
                      f.w.ms[i]);
        ck_assert_int_eq(f.w.info[i].attempt, i + 1);
        ck_assert_int_eq(f.w.info[i].max_attempts, 5);
        ck_assert_int_eq(f.w.info[i].status, 503);
        ck_assert(!f.w.info[i].server_delay);
        ck_assert_int_eq(f.w.info[i].delay_ms, f.w.ms[i]);
    }
    fx_close(&f);
}
END_TEST

START_TEST(success_after_failures)
{
    fixture f;
    fx_open(&f, 4);
    step s[] = {{0, {NULL}, {NULL}, SDKRT_REASON_NONE},
                {200, {NULL}, {NULL}, SDKRT_REASON_TIMEOUT},
                {502, {NULL}, {NULL}, SDKRT_REASON_NONE},
                {200, {NULL}, {NULL}, SDKRT_REASON_NONE}};
    script(&f, s, 4);
    ck_assert_int_eq(call(&f, "DELETE", NULL, NULL), 200);
    ck_assert_int_eq(f.s.attempts, 4);
    ck_assert_int_eq(f.w.ninfo, 3);
    ck_assert_int_eq(f.w.info[0].reason, SDKRT_REASON_TRANSPORT);
    ck_assert_int_eq(f.w.info[0].status, 0);
    ck_assert_int_eq(f.w.info[1].reason, SDKRT_REASON_TIMEOUT);
    ck_assert_int_eq(f.w.info[2].status, 502);
    ck_assert_int_eq(f.w.info[2].reason, SDKRT_REASON_NONE);
    /* the default backoff: 500 ms, then doubling */
    ck_assert(f.w.ms[0] >= 375 && f.w.ms[0] <= 500);
    ck_assert(f.w.ms[2] >= 1500 && f.w.ms[2] <= 2000);
    fx_close(&f);
}
END_TEST

/* The delay a first 429 carrying these headers leads to (-1: no retry). */
static long delay_for(const char *n1, const char *v1, const char *n2, const char *v2, long cap,
                      bool *from_server)
{
    fixture f;
    fx_open(&f, 2);
    sdkrt_retry_policy p = f.policy;
    p.initial_delay_ms = 1000;
    p.max_retry_after_ms = cap;
    sdkrt_call_options co = SDKRT_CALL_OPTIONS_INIT;
    co.retry = &p;
    step s[] = {{429, {n1, n2, NULL}, {v1, v2, NULL}, SDKRT_REASON_NONE},
                {200, {NULL}, {NULL}, SDKRT_REASON_NONE}};
    script(&f, s, 2);
    ck_assert_int_eq(call(&f, "GET", &co, NULL), 200);
    long d = f.w.n == 1 ? f.w.ms[0] : -1;
    *from_server = f.w.info[0].server_delay;
    fx_close(&f);
    return d;
}

START_TEST(retry_after_honoured)
{
    bool by_server = false;
    ck_assert_int_eq(delay_for("Retry-After", "2", NULL, NULL, 0, &by_server), 2000);
    ck_assert(by_server);
    ck_assert_int_eq(delay_for("retry-after-ms", "1500", NULL, NULL, 0, &by_server), 1500);
    ck_assert_int_eq(delay_for("Retry-After-Ms", " 250.7 ", NULL, NULL, 0, &by_server), 250);
    /* retry-after-ms is the more precise: it wins */
    ck_assert_int_eq(delay_for("Retry-After", "3", "retry-after-ms", "20", 0, &by_server), 20);
    ck_assert_int_eq(delay_for("Retry-After", "0", NULL, NULL, 0, &by_server), 0);
    /* capped: by default at 60 s, else at max_retry_after_ms */
    ck_assert_int_eq(delay_for("Retry-After", "120", NULL, NULL, 0, &by_server), 60000);
    ck_assert_int_eq(delay_for("Retry-After", "120", NULL, NULL, 5000, &by_server), 5000);
    ck_assert_int_eq(delay_for("Retry-After", "99999999999999999999", NULL, NULL, 0, &by_server),
                     60000);
    ck_assert_int_eq(delay_for("retry-after-ms", "7000", NULL, NULL, 5000, &by_server), 5000);
    /* HTTP-dates in the past: retry at once; far in the future: the cap */
    ck_assert_int_eq(
        delay_for("Retry-After", "Sun, 06 Nov 1994 08:49:37 GMT", NULL, NULL, 0, &by_server), 0);
    ck_assert(by_server);
    ck_assert_int_eq(
        delay_for("Retry-After", "Sunday, 06-Nov-94 08:49:37 GMT", NULL, NULL, 0, &by_server), 0);
    ck_assert(by_server);
    ck_assert_int_eq(
        delay_for("Retry-After", "Sun Nov  6 08:49:37 1994", NULL, NULL, 0, &by_server), 0);
    ck_assert(by_server);
    ck_assert_int_eq(
        delay_for("Retry-After", "Fri, 31 Dec 2100 23:59:59 GMT", NULL, NULL, 0, &by_server),
        60000);
    /* a date 30 s from now (the delay is computed from the clock, not waited for) */
    char date[64];
    time_t at = time(NULL) + 30;
    struct tm tm;
    gmtime_r(&at, &tm);
    strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S GMT", &tm);
    long d = delay_for("Retry-After", date, NULL, NULL, 0, &by_server);
    ck_assert_msg(d >= 27000 && d <= 30000, "%s gave %ld ms", date, d);
    /* unreadable: the backoff (1000 ms less jitter) */
    const char *bad[] = {"soon",
                         "-5",
                         "Sun, 06 Nov 1994 08:49:37 UTC",
                         "Sun, 32 Nov 1994 08:49:37 GMT",
                         "Sun, 06 Nov 1994 25:49:37 GMT",
                         "Sun, 06 Foo 1994 08:49:37 GMT",
                         ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        d = delay_for("Retry-After", bad[i], NULL, NULL, 0, &by_server);
        ck_assert_msg(d >= 750 && d <= 1000 && !by_server, "'%s' gave %ld ms", bad[i], d);
    }
}
END_TEST

START_TEST(which_statuses)
{
    static const int yes[] = {408, 409, 425, 429, 500, 501, 502, 503, 504, 505, 599};
    static const int no[] = {400, 401, 403, 404, 410, 422, 301, 200, 201};
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
        fixture f;
        fx_open(&f, 2);
        step s[] = {{yes[i], {NULL}, {NULL}, SDKRT_REASON_NONE}};
        script(&f, s, 1);
        ck_assert_int_eq(call(&f, "GET", NULL, NULL), yes[i]);
        ck_assert_msg(f.s.attempts == 2, "HTTP %d: %d attempts", yes[i], f.s.attempts);
        fx_close(&f);
    }
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) {
        fixture f;
        fx_open(&f, 2);
        step s[] = {{no[i], {NULL}, {NULL}, SDKRT_REASON_NONE}};
        script(&f, s, 1);
        ck_assert_int_eq(call(&f, "GET", NULL, NULL), no[i]);
        ck_assert_msg(f.s.attempts == 1, "HTTP %d: %d attempts", no[i], f.s.attempts);
        fx_close(&f);
    }
    /* the server's x-should-retry overrides the status */
    fixture f;
    fx_open(&f, 3);
    step s1[] = {{422, {"X-Should-Retry"}, {"true"}, SDKRT_REASON_NONE}};
    script(&f, s1, 1);
    ck_assert_int_eq(call(&f, "GET", NULL, NULL), 422);
    ck_assert_int_eq(f.s.attempts, 3);
    f.s.attempts = 0;
    step s2[] = {{503, {"x-should-retry"}, {"false"}, SDKRT_REASON_NONE}};
    script(&f, s2, 1);
    ck_assert_int_eq(call(&f, "GET", NULL, NULL), 503);
    ck_assert_int_eq(f.s.attempts, 1);
    /* ... but never makes a success a failure to repeat */
    static const int ok[] = {200, 201, 204, 299};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        f.s.attempts = 0;
        step s3[] = {{ok[i], {"x-should-retry"}, {"true"}, SDKRT_REASON_NONE}};
        script(&f, s3, 1);
        ck_assert_int_eq(call(&f, "GET", NULL, NULL), ok[i]);
        ck_assert_msg(f.s.attempts == 1, "HTTP %d: %d attempts", ok[i], f.s.attempts);
    }
    f.s.attempts = 0;
    step s4[] = {{304, {"x-should-retry"}, {"true"}, SDKRT_REASON_NONE}};
    script(&f, s4, 1);
    ck_assert_int_eq(call(&f, "GET", NULL, NULL), 304);
    ck_assert_int_eq(f.s.attempts, 3);
    fx_close(&f);
}
END_TEST

START_TEST(which_errors)
{
    fixture f;
    fx_open(&f, 3);
    /* a body over the cap, a cancellation, an invalid argument: not retried */
    step s[] = {{200, {NULL}, {NULL}, SDKRT_REASON_RESPONSE_TOO_LARGE}};
    script(&f, s, 1);
    ck_assert_int_eq(call(&f, "GET", NULL, NULL), -SDKRT_REASON_RESPONSE_TOO_LARGE);
    ck_assert_int_eq(f.s.attempts, 1);
    step ok[] = {{503, {NULL}, {NULL}, SDKRT_REASON_NONE}};
    script(&f, ok, 1);
    sdkrt_header bad = {"X-Bad", "a\r\nb"};
    sdkrt_call_options co = SDKRT_CALL_OPTIONS_INIT;
    co.headers = &bad;
    co.header_count = 1;
    ck_assert_int_eq(call(&f, "GET", &co, NULL), -SDKRT_REASON_INVALID_ARGUMENT);
    ck_assert_int_eq(f.s.attempts, 1);
    sdkrt_cancel *cancel = NULL;
    ck_assert_int_eq(sdkrt_cancel_new(&cancel), SDKRT_OK);
    sdkrt_cancel_trigger(cancel);
    sdkrt_call_options cc = SDKRT_CALL_OPTIONS_INIT;
    cc.cancel = cancel;
    ck_assert_int_eq(call(&f, "GET", &cc, NULL), -SDKRT_REASON_CANCELLED);
    ck_assert_int_eq(f.s.attempts, 1);
    sdkrt_cancel_free(cancel);
    fx_close(&f);
}
END_TEST

START_TEST(methods)
{
    static const char *idempotent[] = {"GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"};
    static const char *not_idempotent[] = {"POST", "PATCH", "CONNECT"};
    for (size_t i = 0; i < 6; i++) {
        fixture f;
        fx_open(&f, 2);
        step s[] = {{503, {NULL}, {NULL}, SDKRT_REASON_NONE}};
        script(&f, s, 1);
        call(&f, idempotent[i], NULL, NULL);
        ck_assert_msg(f.s.attempts == 2, "%s: %d attempts", idempotent[i], f.s.attempts);
        fx_close(&f);
    }
    for (size_t i = 0; i < 3; i++) {
        fixture f;
        fx_open(&f, 3);
        step s[] = {{0, {NULL}, {NULL}, SDKRT_REASON_NONE}};
        script(&f, s, 1);
        ck_assert_int_eq(call(&f, not_idempotent[i], NULL, NULL), -SDKRT_REASON_TRANSPORT);
        ck_assert_msg(f.s.attempts == 1, "%s: %d attempts", not_idempotent[i], f.s.attempts);
        ck_assert_str_eq(f.s.key[0], ""); /* no key unless asked for */
        fx_close(&f);
    }
}
END_TEST

static bool is_uuid4(const char *s)
{
    if (strlen(s) != 36 || s[14] != '4' || !strchr("89ab", s[19]))
        return false;
    for (int i = 0; i < 36; i++) {
        bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash ? s[i] != '-' : !strchr("0123456789abcdef", s[i]))
            return false;
    }
    return true;
}

START_TEST(post_with_key)
{
    fixture f;
    fx_open(&f, 3);
    step s[] = {{503, {NULL}, {NULL}, SDKRT_REASON_NONE},
                {0, {NULL}, {NULL}, SDKRT_REASON_NONE},
                {201, {NULL}, {NULL}, SDKRT_REASON_NONE}};
    script(&f, s, 3);
    sdkrt_call_options co = SDKRT_CALL_OPTIONS_INIT;
    co.idempotency_key = "order-42";
    ck_assert_int_eq(call(&f, "POST", &co, NULL), 201);
    ck_assert_int_eq(f.s.attempts, 3);
    for (int i = 0; i < 3; i++) {
        ck_assert_str_eq(f.s.method[i], "POST");
        ck_assert_str_eq(f.s.key[i], "order-42");
    }
    /* auto: one UUIDv4 per call, the same on each attempt, another for the next call */
    char first[80];
    f.s.attempts = 0;
    co.idempotency_key = SDKRT_IDEMPOTENCY_AUTO;
    ck_assert_int_eq(call(&f, "POST", &co, NULL), 201);
    ck_assert_int_eq(f.s.attempts, 3);
    ck_assert_msg(is_uuid4(f.s.key[0]), "key %s", f.s.key[0]);
    ck_assert_str_eq(f.s.key[1], f.s.key[0]);
    ck_assert_str_eq(f.s.key[2], f.s.key[0]);
    snprintf(first, sizeof first, "%s", f.s.key[0]);
    f.s.attempts = 0;
    ck_assert_int_eq(call(&f, "PATCH", &co, NULL), 201);
    ck_assert_int_eq(f.s.attempts, 3);
    ck_assert(is_uuid4(f.s.key[0]));
    ck_assert_str_ne(f.s.key[0], first);
    /* a key the caller sets as a header counts too; a call header replaces the option's */
    f.s.attempts = 0;
    sdkrt_header h = {"idempotency-key", "from-header"};
    sdkrt_call_options ch = SDKRT_CALL_OPTIONS_INIT;
    ch.headers = &h;
    ch.header_count = 1;
    ck_assert_int_eq(call(&f, "POST", &ch, NULL), 201);
    ck_assert_int_eq(f.s.attempts, 3);
    ck_assert_str_eq(f.s.key[2], "from-header");
    f.s.attempts = 0;
    ch.idempotency_key = "option";
    ck_assert_int_eq(call(&f, "POST", &ch, NULL), 201);
    ck_assert_str_eq(f.s.key[0], "from-header");
    f.s.attempts = 0;
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "POST", "/x"), SDKRT_OK);
    ck_assert_int_eq(sdkrt_request_set_header(req, "Idempotency-Key", "on-request"), SDKRT_OK);
    sdkrt_response *resp = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_send(f.c, req, NULL, &resp, &err), SDKRT_OK);
    ck_assert_int_eq(f.s.attempts, 3);
    ck_assert_str_eq(f.s.key[1], "on-request");
    sdkrt_response_free(resp);
    sdkrt_request_free(req);
    fx_close(&f);
}
END_TEST

START_TEST(key_header_and_no_retries)
{
    /* a key is sent even without retries; the header name is the client's */
    fixture f;
    memset(&f, 0, sizeof f);
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.idempotency_header = "X-Request-Key";
    sdkrt_retry_policy off = SDKRT_RETRY_POLICY_OFF;
    o.retry = off;
    f.s.key_header = "X-Request-Key";
    fx_open_with(&f, &o);
    step s[] = {{503, {NULL}, {NULL}, SDKRT_REASON_NONE}};
    script(&f, s, 1);
    sdkrt_call_options co = SDKRT_CALL_OPTIONS_INIT;
    co.idempotency_key = SDKRT_IDEMPOTENCY_AUTO;
    ck_assert_int_eq(call(&f, "POST", &co, NULL), 503);
    ck_assert_int_eq(f.s.attempts, 1);
    ck_assert(is_uuid4(f.s.key[0]));
    /* a stream sends the key, and is never retried */
    f.s.attempts = 0;
    co.idempotency_key = "stream-key";
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "POST", "/events"), SDKRT_OK);
    sdkrt_stream *st = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_stream(f.c, req, &co, &st, &err), SDKRT_OK);
    sdkrt_stream_event ev;
    ck_assert_int_eq(sdkrt_stream_next(st, &ev, &err), SDKRT_STREAM_ERROR);
    ck_assert_int_eq(sdkrt_error_status(err), 503);
    ck_assert_int_eq(f.s.attempts, 1);
    ck_assert_str_eq(f.s.key[0], "stream-key");
    sdkrt_error_free(err);
    sdkrt_stream_close(st);
    sdkrt_request_free(req);
    fx_close(&f);
}
END_TEST

START_TEST(per_call_policy)
{
    fixture f;
    fx_open(&f, 4);
    step s[] = {{503, {NULL}, {NULL}, SDKRT_REASON_NONE}};
    script(&f, s, 1);
    sdkrt_retry_policy once = SDKRT_RETRY_POLICY_INIT;
    once.max_attempts = 1;
    sdkrt_call_options co = SDKRT_CALL_OPTIONS_INIT;
    co.retry = &once;
    ck_assert_int_eq(call(&f, "GET", &co, NULL), 503);
    ck_assert_int_eq(f.s.attempts, 1);
    f.s.attempts = 0;
    ck_assert_int_eq(call(&f, "GET", NULL, NULL), 503);
    ck_assert_int_eq(f.s.attempts, 4);
    fx_close(&f);
    /* a client without retries, a call with them */
    fixture g;
    memset(&g, 0, sizeof g);
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    fx_open_with(&g, &o);
    script(&g, s, 1);
    sdkrt_retry_policy twice = SDKRT_RETRY_POLICY_INIT;
    twice.max_attempts = 2;
    twice.sleep = record_sleep;
    twice.userdata = &g.w;
    co.retry = &twice;
    ck_assert_int_eq(call(&g, "GET", &co, NULL), 503);
    ck_assert_int_eq(g.s.attempts, 2);
    ck_assert_int_eq(g.w.n, 1);
    fx_close(&g);
}
END_TEST

START_TEST(invalid_options)
{
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.base_url = "http://api.test";
    sdkrt_client *c = NULL;
    sdkrt_error *err = NULL;
    o.retry.max_delay_ms = -1;
    ck_assert_int_eq(sdkrt_client_new(&c, &o, &err), SDKRT_ERR);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_INVALID_ARGUMENT);
    sdkrt_error_clear(&err);
    o.retry.max_delay_ms = 0;
    o.idempotency_header = "Bad Header";
    ck_assert_int_eq(sdkrt_client_new(&c, &o, &err), SDKRT_ERR);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_INVALID_ARGUMENT);
    sdkrt_error_clear(&err);
    ck_assert_ptr_null(c);
    fixture f;
    fx_open(&f, 2);
    step s[] = {{200, {NULL}, {NULL}, SDKRT_REASON_NONE}};
    script(&f, s, 1);
    sdkrt_retry_policy neg = SDKRT_RETRY_POLICY_INIT;
    neg.max_attempts = -2;
    sdkrt_call_options co = SDKRT_CALL_OPTIONS_INIT;
    co.retry = &neg;
    ck_assert_int_eq(call(&f, "GET", &co, NULL), -SDKRT_REASON_INVALID_ARGUMENT);
    sdkrt_call_options ck = SDKRT_CALL_OPTIONS_INIT;
    ck.idempotency_key = "";
    ck_assert_int_eq(call(&f, "POST", &ck, NULL), -SDKRT_REASON_INVALID_ARGUMENT);
    ck.idempotency_key = "a\r\nInjected: 1";
    ck_assert_int_eq(call(&f, "POST", &ck, NULL), -SDKRT_REASON_INVALID_ARGUMENT);
    ck_assert_int_eq(f.s.attempts, 0);
    fx_close(&f);
}
END_TEST

START_TEST(cancel_during_wait)
{
    fixture f;
    fx_open(&f, 5);
    step s[] = {{503, {NULL}, {NULL}, SDKRT_REASON_NONE}};
    script(&f, s, 1);
    sdkrt_cancel *cancel = NULL;
    ck_assert_int_eq(sdkrt_cancel_new(&cancel), SDKRT_OK);
    f.w.cancel_at_wait = cancel;
    sdkrt_call_options co = SDKRT_CALL_OPTIONS_INIT;
    co.cancel = cancel;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(call(&f, "GET", &co, &err), -SDKRT_REASON_CANCELLED);
    ck_assert_int_eq(f.s.attempts, 1);
    ck_assert_int_eq(f.w.n, 1);
    ck_assert_str_eq(sdkrt_error_message(err),
                     "GET http://api.test/x: cancelled while waiting to retry after HTTP 503 "
                     "(attempt 1 of 5) (CANCELLED)");
    sdkrt_error_free(err);
    sdkrt_cancel_free(cancel);
    fx_close(&f);
}
END_TEST

typedef struct canceller {
    sdkrt_cancel *cancel;
    server *s;
} canceller;

static void *cancel_later(void *ud)
{
    canceller *k = ud;
    struct timespec ts = {0, 20 * 1000000L};
    nanosleep(&ts, NULL);
    sdkrt_cancel_trigger(k->cancel);
    return NULL;
}

/* The real wait (no injected sleep): a minute's Retry-After, cut short by another thread. */
START_TEST(cancel_interrupts_real_wait)
{
    fixture f;
    memset(&f, 0, sizeof f);
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.retry.max_attempts = 2;
    fx_open_with(&f, &o);
    step s[] = {{429, {"Retry-After"}, {"60"}, SDKRT_REASON_NONE}};
    script(&f, s, 1);
    sdkrt_cancel *cancel = NULL;
    ck_assert_int_eq(sdkrt_cancel_new(&cancel), SDKRT_OK);
    sdkrt_call_options co = SDKRT_CALL_OPTIONS_INIT;
    co.cancel = cancel;
    canceller k = {cancel, &f.s};
    pthread_t th;
    ck_assert_int_eq(pthread_create(&th, NULL, cancel_later, &k), 0);
    ck_assert_int_eq(call(&f, "GET", &co, NULL), -SDKRT_REASON_CANCELLED);
    pthread_join(th, NULL);
    ck_assert_int_eq(f.s.attempts, 1);
    sdkrt_cancel_free(cancel);
    fx_close(&f);
}
END_TEST

/* The real wait without a cancel token is a plain sleep. */
START_TEST(real_wait_without_token)
{
    fixture f;
    memset(&f, 0, sizeof f);
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.retry.max_attempts = 2;
    fx_open_with(&f, &o);
    step s[] = {{429, {"retry-after-ms"}, {"50"}, SDKRT_REASON_NONE},
                {200, {NULL}, {NULL}, SDKRT_REASON_NONE}};
    script(&f, s, 2);
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    ck_assert_int_eq(call(&f, "GET", NULL, NULL), 200);
    clock_gettime(CLOCK_MONOTONIC, &b);
    long ms = (long)(b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000;
    ck_assert_msg(ms >= 45, "waited %ld ms", ms);
    ck_assert_int_eq(f.s.attempts, 2);
    fx_close(&f);
}
END_TEST

/* A followed next-page URL is relative to the origin: the cancellation message names the URL the
 * attempts went to, the base path not doubled. */
START_TEST(cancel_message_of_followed_page)
{
    fixture f;
    memset(&f, 0, sizeof f);
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.base_url = "http://api.test/v1";
    o.retry.max_attempts = 3;
    o.retry.sleep = record_sleep;
    o.retry.userdata = &f.w;
    fx_open_with(&f, &o);
    step s[] = {{503, {NULL}, {NULL}, SDKRT_REASON_NONE}};
    script(&f, s, 1);
    sdkrt_response *page = NULL;
    ck_assert_int_eq(sdkrt_response_new(&page, 200, 0, NULL), SDKRT_OK);
    const char *text = "{\"next\":\"/v1/x?page=2\"}";
    sdkrt_response_add_header(page, "Content-Type", "application/json", NULL);
    sdkrt_response_append_body(page, text, strlen(text), NULL);
    const sdkrt_page_desc d = {.style = SDKRT_PAGE_NEXT_URL, .next = "next"};
    sdkrt_request *first = NULL, *next = NULL;
    ck_assert_int_eq(sdkrt_request_new(&first, "GET", "/x"), SDKRT_OK);
    ck_assert_int_eq(sdkrt_page_next(&next, f.c, &d, first, page, NULL), SDKRT_OK);
    ck_assert_ptr_nonnull(next);
    sdkrt_cancel *cancel = NULL;
    ck_assert_int_eq(sdkrt_cancel_new(&cancel), SDKRT_OK);
    f.w.cancel_at_wait = cancel;
    sdkrt_call_options co = SDKRT_CALL_OPTIONS_INIT;
    co.cancel = cancel;
    sdkrt_response *resp = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_send(f.c, next, &co, &resp, &err), SDKRT_ERR);
    ck_assert_ptr_null(resp);
    ck_assert_str_eq(sdkrt_error_message(err),
                     "GET http://api.test/v1/x?page=2: cancelled while waiting to retry after "
                     "HTTP 503 (attempt 1 of 3) (CANCELLED)");
    sdkrt_error_free(err);
    sdkrt_cancel_free(cancel);
    sdkrt_request_free(next);
    sdkrt_request_free(first);
    sdkrt_response_free(page);
    fx_close(&f);
}
END_TEST

START_TEST(bodies_resent_and_reread)
{
    fixture f;
    fx_open(&f, 3);
    char path[] = "/tmp/sdkrt-retry-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, "file content 0", 14), 14);
    close(fd);
    f.w.rewrite_path = path;
    step s[] = {{503, {NULL}, {NULL}, SDKRT_REASON_NONE}};
    script(&f, s, 1);
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "PUT", "/upload"), SDKRT_OK);
    sdkrt_multipart *mp = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_multipart_new(&mp, &err), SDKRT_OK);
    ck_assert_int_eq(sdkrt_multipart_set_boundary(mp, "b0undary", &err), SDKRT_OK);
    ck_assert_int_eq(sdkrt_multipart_add_field(mp, "purpose", "test", NULL, &err), SDKRT_OK);
    sdkrt_blob blob = SDKRT_BLOB_INIT;
    blob.path = path;
    blob.filename = "f.txt";
    ck_assert_int_eq(sdkrt_multipart_add_blob(mp, "file", &blob, &err), SDKRT_OK);
    ck_assert_int_eq(sdkrt_request_set_multipart_body(req, mp), SDKRT_OK);
    sdkrt_response *resp = NULL;
    ck_assert_int_eq(sdkrt_client_send(f.c, req, NULL, &resp, &err), SDKRT_OK);
    ck_assert_int_eq(f.s.attempts, 3);
    for (int i = 0; i < 3; i++) {
        char want[32];
        snprintf(want, sizeof want, "file content %d", i);
        ck_assert_msg(strstr(f.s.body[i], want) && strstr(f.s.body[i], "name=\"purpose\""),
                      "attempt %d sent %s", i, f.s.body[i]);
    }
    sdkrt_response_free(resp);
    sdkrt_request_free(req);
    unlink(path);
    fx_close(&f);
}
END_TEST

typedef struct seen_statuses {
    int status[MAX_STEPS];
    int n;
} seen_statuses;

static void on_resp(void *ud, int status, const sdkrt_header *h, size_t n)
{
    (void)h;
    (void)n;
    seen_statuses *s = ud;
    if (s->n < MAX_STEPS)
        s->status[s->n] = status;
    s->n++;
}

START_TEST(on_response_sees_every_attempt)
{
    fixture f;
    fx_open(&f, 3);
    step s[] = {{429, {NULL}, {NULL}, SDKRT_REASON_NONE},
                {503, {NULL}, {NULL}, SDKRT_REASON_NONE},
                {200, {NULL}, {NULL}, SDKRT_REASON_NONE}};
    script(&f, s, 3);
    seen_statuses seen = {{0}, 0};
    sdkrt_call_options co = SDKRT_CALL_OPTIONS_INIT;
    co.on_response = on_resp;
    co.userdata = &seen;
    ck_assert_int_eq(call(&f, "GET", &co, NULL), 200);
    ck_assert_int_eq(seen.n, 3);
    ck_assert_int_eq(seen.status[0], 429);
    ck_assert_int_eq(seen.status[1], 503);
    ck_assert_int_eq(seen.status[2], 200);
    fx_close(&f);
}
END_TEST

static Suite *retry_suite(void)
{
    Suite *s = suite_create("retry");
    TCase *tc = tcase_create("retry");
    tcase_add_test(tc, on_by_default);
    tcase_add_test(tc, declared_idempotency_header);
    tcase_add_test(tc, attempts_and_capped_backoff);
    tcase_add_test(tc, success_after_failures);
    tcase_add_test(tc, retry_after_honoured);
    tcase_add_test(tc, which_statuses);
    tcase_add_test(tc, which_errors);
    tcase_add_test(tc, methods);
    tcase_add_test(tc, post_with_key);
    tcase_add_test(tc, key_header_and_no_retries);
    tcase_add_test(tc, per_call_policy);
    tcase_add_test(tc, invalid_options);
    tcase_add_test(tc, cancel_during_wait);
    tcase_add_test(tc, cancel_interrupts_real_wait);
    tcase_add_test(tc, real_wait_without_token);
    tcase_add_test(tc, cancel_message_of_followed_page);
    tcase_add_test(tc, bodies_resent_and_reread);
    tcase_add_test(tc, on_response_sees_every_attempt);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(retry_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
