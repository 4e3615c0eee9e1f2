/* test_ceremony.c - what saves a program its boilerplate: the client-wide cancel token (it ends
 * calls, streams and retry waits like a call's own token; either one fires), a client
 * configured from the environment, and libcurl's global init done by the first client (this
 * program never calls sdkrt_global_init). */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sdkrt/sdkrt.h"
#include "sdkrt/wire.h"
#include "test_server.h"

static int silent(void *ud, const ts_request *req, ts_conn *c)
{
    (void)ud;
    (void)req;
    ts_sleep(c, 60000);
    return -1;
}

static int unavailable(void *ud, const ts_request *req, ts_conn *c)
{
    (void)ud;
    (void)req;
    ts_printf(c,
              "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 30\r\nContent-Length: 0\r\n\r\n");
    return 0;
}

typedef struct later {
    sdkrt_cancel *token;
    int ms;
} later;

static void *trigger_later(void *ud)
{
    later *l = ud;
    struct timespec ts = {0, (long)l->ms * 1000000L};
    nanosleep(&ts, NULL);
    sdkrt_cancel_trigger(l->token);
    return NULL;
}

/* GET /x (or a stream of it) on c with call options co while a thread triggers token after
 * 200 ms: the reason, and the message into msg. */
static int cancelled_by(sdkrt_client *c, const sdkrt_call_options *co, sdkrt_cancel *token,
                        bool stream, char *msg, size_t cap)
{
    later l = {token, 200};
    pthread_t th;
    ck_assert_int_eq(pthread_create(&th, NULL, trigger_later, &l), 0);
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
        ck_assert_int_eq(sdkrt_client_send(c, req, co, &resp, &err), SDKRT_ERR);
    }
    pthread_join(th, NULL);
    int reason = (int)sdkrt_error_reason(err);
    snprintf(msg, cap, "%s", sdkrt_error_message(err));
    sdkrt_error_free(err);
    sdkrt_request_free(req);
    sdkrt_cancel_reset(token);
    return reason;
}

START_TEST(client_cancel_token)
{
    char msg[512];
    ts_server *srv = NULL;
    ck_assert_int_eq(ts_start(&srv, silent, NULL), 0);
    sdkrt_cancel *stop = NULL, *mine = NULL;
    ck_assert_int_eq(sdkrt_cancel_new(&stop), SDKRT_OK);
    ck_assert_int_eq(sdkrt_cancel_new(&mine), SDKRT_OK);
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.base_url = ts_url(srv);
    o.cancel = stop; /* one line: every call of the client */
    o.head_timeout_ms = SDKRT_TIMEOUT_OFF;
    sdkrt_client *c = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_new(&c, &o, &err), SDKRT_OK);
    ck_assert_ptr_eq(sdkrt_client_cancel(c), stop);
    /* the client's token ends a call and a stream that have no token of their own ... */
    ck_assert_int_eq(cancelled_by(c, NULL, stop, false, msg, sizeof msg), SDKRT_REASON_CANCELLED);
    ck_assert_int_eq(cancelled_by(c, NULL, stop, true, msg, sizeof msg), SDKRT_REASON_CANCELLED);
    /* ... and those with one: either token fires */
    sdkrt_call_options co = SDKRT_CALL_OPTIONS_INIT;
    co.cancel = mine;
    ck_assert_int_eq(cancelled_by(c, &co, stop, false, msg, sizeof msg), SDKRT_REASON_CANCELLED);
    ck_assert_int_eq(cancelled_by(c, &co, mine, false, msg, sizeof msg), SDKRT_REASON_CANCELLED);
    ck_assert_int_eq(cancelled_by(c, &co, stop, true, msg, sizeof msg), SDKRT_REASON_CANCELLED);
    ck_assert_int_eq(cancelled_by(c, &co, mine, true, msg, sizeof msg), SDKRT_REASON_CANCELLED);
    /* a token already triggered refuses the call before any I/O */
    int before = ts_requests(srv);
    sdkrt_cancel_trigger(stop);
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/x"), SDKRT_OK);
    sdkrt_response *resp = NULL;
    ck_assert_int_eq(sdkrt_client_send(c, req, &co, &resp, &err), SDKRT_ERR);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_CANCELLED);
    sdkrt_error_clear(&err);
    sdkrt_request_free(req);
    ck_assert_int_eq(ts_requests(srv), before);
    sdkrt_cancel_reset(stop);
    sdkrt_client_free(c);
    ts_stop(srv);

    /* a retry wait (Retry-After: 30 s) ends at once on the client's token */
    ck_assert_int_eq(ts_start(&srv, unavailable, NULL), 0);
    o.base_url = ts_url(srv);
    ck_assert_int_eq(sdkrt_client_new(&c, &o, &err), SDKRT_OK);
    ck_assert_int_eq(cancelled_by(c, &co, stop, false, msg, sizeof msg), SDKRT_REASON_CANCELLED);
    ck_assert_msg(strstr(msg, "cancelled while waiting to retry after HTTP 503"), "%s", msg);
    sdkrt_client_free(c);
    ts_stop(srv);
    sdkrt_cancel_free(stop);
    sdkrt_cancel_free(mine);
}
END_TEST

/* What the server saw of the last request's Authorization and X-Key headers. */
static char seen_auth[256], seen_key[256];

static int echo(void *ud, const ts_request *req, ts_conn *c)
{
    (void)ud;
    seen_auth[0] = seen_key[0] = '\0';
    ts_header(req, "Authorization", seen_auth, sizeof seen_auth);
    ts_header(req, "X-Key", seen_key, sizeof seen_key);
    ts_respond(c, 204, NULL, NULL, 0);
    return 0;
}

static void get_with_security(sdkrt_client *c, const sdkrt_security_scheme *s, size_t n)
{
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/x"), SDKRT_OK);
    if (s)
        ck_assert_int_eq(sdkrt_request_set_security(req, s, n), SDKRT_OK);
    sdkrt_response *resp = NULL;
    sdkrt_error *err = NULL;
    ck_assert_msg(sdkrt_client_send(c, req, NULL, &resp, &err) == SDKRT_OK, "%s",
                  err ? sdkrt_error_message(err) : "");
    ck_assert_int_eq(sdkrt_response_status(resp), 204);
    sdkrt_response_free(resp);
    sdkrt_request_free(req);
}

START_TEST(client_from_environment)
{
    ts_server *srv = NULL;
    ck_assert_int_eq(ts_start(&srv, echo, NULL), 0);
    sdkrt_client *c = NULL;
    sdkrt_error *err = NULL;
    unsetenv("TE_BASE_URL");
    /* no base URL anywhere */
    ck_assert_int_eq(sdkrt_client_new_from_env(&c, NULL, "TE", NULL, NULL, 0, &err), SDKRT_ERR);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_INVALID_ARGUMENT);
    ck_assert_msg(strstr(sdkrt_error_message(err), "TE_BASE_URL"), "%s", sdkrt_error_message(err));
    sdkrt_error_clear(&err);
    /* a contract without schemes: TE_USERNAME + TE_PASSWORD is Basic */
    setenv("TE_BASE_URL", ts_url(srv), 1);
    setenv("TE_USERNAME", "u", 1);
    setenv("TE_PASSWORD", "p", 1);
    ck_assert_int_eq(sdkrt_client_new_from_env(&c, NULL, "TE", NULL, NULL, 0, &err), SDKRT_OK);
    ck_assert_str_eq(sdkrt_client_base_url(c), ts_url(srv));
    get_with_security(c, NULL, 0);
    ck_assert_str_eq(seen_auth, "Basic dTpw");
    sdkrt_client_free(c);
    /* the password alone, with the options' username; a token is Bearer */
    unsetenv("TE_USERNAME");
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.username = "u";
    ck_assert_int_eq(sdkrt_client_new_from_env(&c, &o, "TE", NULL, NULL, 0, &err), SDKRT_OK);
    get_with_security(c, NULL, 0);
    ck_assert_str_eq(seen_auth, "Basic dTpw");
    sdkrt_client_free(c);
    ck_assert_int_eq(sdkrt_client_new_from_env(&c, NULL, "TE", NULL, NULL, 0, &err), SDKRT_ERR);
    ck_assert_msg(strstr(sdkrt_error_message(err), "TE_PASSWORD is set without TE_USERNAME"), "%s",
                  sdkrt_error_message(err));
    ck_assert_ptr_null(strstr(sdkrt_error_message(err), "=p"));
    sdkrt_error_clear(&err);
    unsetenv("TE_PASSWORD");
    setenv("TE_TOKEN", "tok", 1);
    ck_assert_int_eq(sdkrt_client_new_from_env(&c, NULL, "TE", NULL, NULL, 0, &err), SDKRT_OK);
    get_with_security(c, NULL, 0);
    ck_assert_str_eq(seen_auth, "Bearer tok");
    sdkrt_client_free(c);
    unsetenv("TE_TOKEN");
    /* the options' base URL wins over TE_BASE_URL */
    setenv("TE_BASE_URL", "http://not.used.test", 1);
    o.base_url = ts_url(srv);
    ck_assert_int_eq(sdkrt_client_new_from_env(&c, &o, "TE", NULL, NULL, 0, &err), SDKRT_OK);
    ck_assert_str_eq(sdkrt_client_base_url(c), ts_url(srv));
    sdkrt_client_free(c);
    /* declared schemes: a bearer and an API key, each from its variable */
    static const sdkrt_env_scheme schemes[] = {{"bearerAuth", "TE_BEARER_AUTH", false},
                                               {"apiKey", "TE_API_KEY", false},
                                               {"basic", "TE_BASIC", true}};
    static const sdkrt_security_scheme bearer[] = {
        {"bearerAuth", SDKRT_SECURITY_HTTP_BEARER, SDKRT_IN_HEADER, NULL, false}};
    static const sdkrt_security_scheme key[] = {
        {"apiKey", SDKRT_SECURITY_API_KEY, SDKRT_IN_HEADER, "X-Key", false}};
    setenv("TE_BEARER_AUTH_TOKEN", "b1", 1);
    setenv("TE_API_KEY_TOKEN", "k1", 1);
    ck_assert_int_eq(sdkrt_client_new_from_env(&c, &o, "TE", NULL, schemes, 3, &err), SDKRT_OK);
    get_with_security(c, bearer, 1);
    ck_assert_str_eq(seen_auth, "Bearer b1");
    get_with_security(c, key, 1);
    ck_assert_str_eq(seen_key, "k1");
    sdkrt_client_free(c);
    /* a credential in the options wins */
    sdkrt_credential mine = {"apiKey", NULL, NULL, "k-opts"};
    o.credentials = &mine;
    o.credential_count = 1;
    ck_assert_int_eq(sdkrt_client_new_from_env(&c, &o, "TE", NULL, schemes, 3, &err), SDKRT_OK);
    get_with_security(c, key, 1);
    ck_assert_str_eq(seen_key, "k-opts");
    sdkrt_client_free(c);
    /* Basic needs both halves */
    setenv("TE_BASIC_USERNAME", "u", 1);
    ck_assert_int_eq(sdkrt_client_new_from_env(&c, &o, "TE", NULL, schemes, 3, &err), SDKRT_ERR);
    ck_assert_msg(strstr(sdkrt_error_message(err), "TE_BASIC_USERNAME is set without "
                                                   "TE_BASIC_PASSWORD"),
                  "%s", sdkrt_error_message(err));
    sdkrt_error_clear(&err);
    unsetenv("TE_BASIC_USERNAME");
    unsetenv("TE_BEARER_AUTH_TOKEN");
    unsetenv("TE_API_KEY_TOKEN");
    unsetenv("TE_BASE_URL");
    /* the contract's default base URL comes last */
    ck_assert_int_eq(
        sdkrt_client_new_from_env(&c, NULL, "TE", "http://default.test/v1", NULL, 0, &err),
        SDKRT_OK);
    ck_assert_str_eq(sdkrt_client_base_url(c), "http://default.test/v1");
    sdkrt_client_free(c);
    ts_stop(srv);
}
END_TEST

static Suite *ceremony_suite(void)
{
    Suite *s = suite_create("ceremony");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, client_cancel_token);
    tcase_add_test(tc, client_from_environment);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    /* no sdkrt_global_init: the first libcurl client does it */
    SRunner *sr = srunner_create(ceremony_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
