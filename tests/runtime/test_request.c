/* test_request.c - URL, path and query encoding (hostile parameters included), header assembly
 * and injection refusal, client option validation, auth headers and error messages. Requests go
 * through the in-memory transport, which exposes the exact target bytes the client built. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "sdkrt/sdkrt.h"

/* What the in-memory handler saw last. */
typedef struct seen {
    char method[16];
    char target[1024];
    char url[1200];
    char headers[4096]; /* "name: value\n" lines in order */
    char body[1024];
    size_t body_len;
    int calls;
} seen;

static int record_handler(void *ud, const sdkrt_memory_request *req, sdkrt_memory_response *resp)
{
    seen *s = ud;
    s->calls++;
    snprintf(s->method, sizeof s->method, "%s", req->method);
    snprintf(s->target, sizeof s->target, "%s", req->target);
    snprintf(s->url, sizeof s->url, "%s", req->url);
    s->headers[0] = '\0';
    for (size_t i = 0; i < req->header_count; i++) {
        size_t used = strlen(s->headers);
        snprintf(s->headers + used, sizeof s->headers - used, "%s: %s\n", req->headers[i].name,
                 req->headers[i].value);
    }
    s->body_len = req->body_len < sizeof s->body - 1 ? req->body_len : sizeof s->body - 1;
    if (req->body)
        memcpy(s->body, req->body, s->body_len);
    s->body[s->body_len] = '\0';
    sdkrt_memory_response_set_status(resp, 200);
    sdkrt_memory_response_add_header(resp, "Content-Type", "application/json");
    sdkrt_memory_response_add_chunk(resp, "{}", 2);
    return 0;
}

typedef struct fixture {
    seen s;
    sdkrt_transport *t;
    sdkrt_client *c;
} fixture;

static void fx_open(fixture *f, sdkrt_client_options *o)
{
    memset(&f->s, 0, sizeof f->s);
    ck_assert_int_eq(sdkrt_memory_transport_new(&f->t, record_handler, &f->s), SDKRT_OK);
    o->transport = f->t;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_new(&f->c, o, &err), SDKRT_OK);
    ck_assert_ptr_null(err);
}

static void fx_open_base(fixture *f, const char *base)
{
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.base_url = base;
    fx_open(f, &o);
}

static void fx_close(fixture *f)
{
    sdkrt_client_free(f->c);
    sdkrt_transport_free(f->t);
}

/* Send req; SDKRT_OK expected; the response is dropped. */
static void send_ok(fixture *f, sdkrt_request *req, const sdkrt_call_options *call)
{
    sdkrt_response *resp = NULL;
    sdkrt_error *err = NULL;
    sdkrt_status st = sdkrt_client_send(f->c, req, call, &resp, &err);
    ck_assert_msg(st == SDKRT_OK, "send failed: %s", err ? sdkrt_error_message(err) : "?");
    ck_assert_int_eq(sdkrt_response_status(resp), 200);
    sdkrt_response_free(resp);
}

/* Send req expecting an error of that reason; returns the error (caller frees). */
static sdkrt_error *send_fails(fixture *f, sdkrt_request *req, const sdkrt_call_options *call,
                               sdkrt_reason reason)
{
    sdkrt_response *resp = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_send(f->c, req, call, &resp, &err), SDKRT_ERR);
    ck_assert_ptr_null(resp);
    ck_assert_ptr_nonnull(err);
    ck_assert_int_eq(sdkrt_error_kind(err), SDKRT_ERROR_CLIENT);
    ck_assert_msg(sdkrt_error_reason(err) == reason, "reason %s, want %s: %s",
                  sdkrt_reason_name(sdkrt_error_reason(err)), sdkrt_reason_name(reason),
                  sdkrt_error_message(err));
    return err;
}

static char *target_of(sdkrt_request *req)
{
    char *t = NULL;
    sdkrt_error *err = NULL;
    sdkrt_status st = sdkrt_request_target(&t, req, &err);
    ck_assert_msg(st == SDKRT_OK, "target failed: %s", err ? sdkrt_error_message(err) : "?");
    return t;
}

/* ---- path parameters ---- */

START_TEST(path_params_hostile_values)
{
    static const struct {
        const char *value;
        const char *encoded;
    } cases[] = {
        {"ses_123", "ses_123"},
        {"../x", "..%2Fx"},
        {"a/b", "a%2Fb"},
        {"q?x=1", "q%3Fx%3D1"},
        {"frag#1", "frag%231"},
        {"100%", "100%25"},
        {"%2F", "%252F"},
        {"a b", "a%20b"},
        {"a+b", "a%2Bb"},
        {"\xc3\xa9t\xc3\xa9", "%C3%A9t%C3%A9"},
        {"..", NULL},
        {".", NULL},
        {"", NULL},
        {"...", "..."},
        {"~a-b.c_d", "~a-b.c_d"},
        {"\\..\\", "%5C..%5C"},
        {"a;b,c", "a%3Bb%2Cc"},
        {"\x01\x7f\xff", "%01%7F%FF"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sdkrt_request *req = NULL;
        ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/api/session/{id}/message"), SDKRT_OK);
        ck_assert_int_eq(sdkrt_request_set_path_param(req, "id", cases[i].value), SDKRT_OK);
        char *t = NULL;
        sdkrt_error *err = NULL;
        sdkrt_status st = sdkrt_request_target(&t, req, &err);
        if (cases[i].encoded) {
            ck_assert_msg(st == SDKRT_OK, "case %zu refused", i);
            char want[256];
            snprintf(want, sizeof want, "/api/session/%s/message", cases[i].encoded);
            ck_assert_str_eq(t, want);
        } else {
            ck_assert_int_eq(st, SDKRT_ERR);
            ck_assert_ptr_null(t);
            ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_INVALID_ARGUMENT);
            ck_assert_ptr_nonnull(strstr(sdkrt_error_message(err), "{id}"));
        }
        free(t);
        sdkrt_error_free(err);
        sdkrt_request_free(req);
    }
}
END_TEST

START_TEST(path_params_two_and_replaced)
{
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/a/{x}/b/{y}"), SDKRT_OK);
    ck_assert_int_eq(sdkrt_request_set_path_param(req, "y", "2"), SDKRT_OK);
    ck_assert_int_eq(sdkrt_request_set_path_param(req, "x", "old"), SDKRT_OK);
    ck_assert_int_eq(sdkrt_request_set_path_param(req, "x", "1/1"), SDKRT_OK);
    char *t = target_of(req);
    ck_assert_str_eq(t, "/a/1%2F1/b/2");
    free(t);
    sdkrt_request_free(req);
}
END_TEST

START_TEST(path_params_missing_unknown)
{
    sdkrt_request *req = NULL;
    sdkrt_error *err = NULL;
    char *t = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/a/{x}/b/{y}"), SDKRT_OK);
    ck_assert_int_eq(sdkrt_request_set_path_param(req, "x", "1"), SDKRT_OK);
    ck_assert_int_eq(sdkrt_request_target(&t, req, &err), SDKRT_ERR);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_INVALID_ARGUMENT);
    ck_assert_str_eq(sdkrt_error_message(err),
                     "GET /a/{x}/b/{y}: path parameter {y} is missing (INVALID_ARGUMENT)");
    sdkrt_error_free(err);
    err = NULL;
    /* an unknown name, also a prefix of a real one */
    ck_assert_int_eq(sdkrt_request_set_path_param(req, "z", "1"), SDKRT_ERR);
    ck_assert_int_eq(sdkrt_request_set_path_param(req, "", "1"), SDKRT_ERR);
    ck_assert_int_eq(sdkrt_request_set_path_param(req, "y", "2"), SDKRT_OK);
    ck_assert_ptr_nonnull(sdkrt_request_error(req));
    ck_assert_int_eq(sdkrt_request_target(&t, req, &err), SDKRT_ERR);
    ck_assert_str_eq(sdkrt_error_message(err), "GET /a/{x}/b/{y}: unknown path parameter \"z\" "
                                               "for /a/{x}/b/{y} (INVALID_ARGUMENT)");
    sdkrt_error_free(err);
    sdkrt_request_free(req);
}
END_TEST

START_TEST(bad_templates_and_methods)
{
    static const char *bad[] = {"api/x",  "/a/{x", "/a/{}",  "/a/x}",    "/a b",
                                "/a?x=1", "/a#f",  "/a/%2F", "/a/{{x}}", "/\xc3\xa9"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sdkrt_request *req = NULL;
        ck_assert_int_eq(sdkrt_request_new(&req, "GET", bad[i]), SDKRT_OK);
        ck_assert_msg(sdkrt_request_error(req) != NULL, "template %zu accepted", i);
        char *t = NULL;
        sdkrt_error *err = NULL;
        ck_assert_int_eq(sdkrt_request_target(&t, req, &err), SDKRT_ERR);
        ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_INVALID_ARGUMENT);
        sdkrt_error_free(err);
        sdkrt_request_free(req);
    }
    static const char *bad_methods[] = {"", "GE T", "GET\r\n", "G:ET"};
    for (size_t i = 0; i < sizeof bad_methods / sizeof bad_methods[0]; i++) {
        sdkrt_request *req = NULL;
        ck_assert_int_eq(sdkrt_request_new(&req, bad_methods[i], "/x"), SDKRT_OK);
        ck_assert_msg(sdkrt_request_error(req) != NULL, "method %zu accepted", i);
        sdkrt_request_free(req);
    }
    sdkrt_request *req = (sdkrt_request *)1;
    ck_assert_int_eq(sdkrt_request_new(&req, NULL, "/x"), SDKRT_ERR);
    ck_assert_ptr_null(req);
    sdkrt_request_free(NULL);
}
END_TEST

/* ---- query ---- */

START_TEST(query_form_and_arrays)
{
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/find"), SDKRT_OK);
    ck_assert_int_eq(sdkrt_request_add_query(req, "directory", "/home/me/my project"), SDKRT_OK);
    ck_assert_int_eq(sdkrt_request_add_query(req, "tag", "a&b=c"), SDKRT_OK);
    ck_assert_int_eq(sdkrt_request_add_query(req, "tag", "x#y"), SDKRT_OK);
    ck_assert_int_eq(sdkrt_request_add_query(req, "tag", ""), SDKRT_OK);
    ck_assert_int_eq(sdkrt_request_add_query(req, "na me[]", "\xe2\x82\xac+%"), SDKRT_OK);
    char *t = target_of(req);
    ck_assert_str_eq(t, "/find?directory=%2Fhome%2Fme%2Fmy%20project&tag=a%26b%3Dc&tag=x%23y&tag="
                        "&na%20me%5B%5D=%E2%82%AC%2B%25");
    free(t);
    ck_assert_int_eq(sdkrt_request_add_query(req, "", "v"), SDKRT_ERR);
    ck_assert_ptr_nonnull(sdkrt_request_error(req));
    sdkrt_request_free(req);
}
END_TEST

START_TEST(query_deep_object)
{
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/s/{id}"), SDKRT_OK);
    ck_assert_int_eq(sdkrt_request_set_path_param(req, "id", "1"), SDKRT_OK);
    ck_assert_int_eq(sdkrt_request_add_query_deep(req, "filter", "type", "file"), SDKRT_OK);
    ck_assert_int_eq(sdkrt_request_add_query_deep(req, "filter", "a]b[", "1&2"), SDKRT_OK);
    ck_assert_int_eq(sdkrt_request_add_query(req, "limit", "10"), SDKRT_OK);
    char *t = target_of(req);
    ck_assert_str_eq(t, "/s/1?filter%5Btype%5D=file&filter%5Ba%5Db%5B%5D=1%262&limit=10");
    free(t);
    ck_assert_int_eq(sdkrt_request_add_query_deep(req, "f", NULL, "1"), SDKRT_ERR);
    sdkrt_request_free(req);
}
END_TEST

START_TEST(base_path_prefix_kept)
{
    static const struct {
        const char *base;
        const char *url;
        const char *target;
    } cases[] = {
        {"http://127.0.0.1:4096", "http://127.0.0.1:4096/api/x%2Fy?q=a%20b", "/api/x%2Fy?q=a%20b"},
        {"http://127.0.0.1:4096/", "http://127.0.0.1:4096/api/x%2Fy?q=a%20b", "/api/x%2Fy?q=a%20b"},
        {"http://h.example/prefix/v1/", "http://h.example/prefix/v1/api/x%2Fy?q=a%20b",
         "/prefix/v1/api/x%2Fy?q=a%20b"},
        {"https://h.example:8443/p", "https://h.example:8443/p/api/x%2Fy?q=a%20b",
         "/p/api/x%2Fy?q=a%20b"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fixture f;
        fx_open_base(&f, cases[i].base);
        sdkrt_request *req = NULL;
        ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/api/{p}"), SDKRT_OK);
        ck_assert_int_eq(sdkrt_request_set_path_param(req, "p", "x/y"), SDKRT_OK);
        ck_assert_int_eq(sdkrt_request_add_query(req, "q", "a b"), SDKRT_OK);
        send_ok(&f, req, NULL);
        ck_assert_str_eq(f.s.url, cases[i].url);
        ck_assert_str_eq(f.s.target, cases[i].target);
        ck_assert_str_eq(f.s.method, "GET");
        sdkrt_request_free(req);
        fx_close(&f);
    }
}
END_TEST

/* ---- client options ---- */

START_TEST(client_options_refused)
{
    static const char *bad_urls[] = {"",
                                     "not a url",
                                     "ftp://h/x",
                                     "file:///etc/passwd",
                                     "http://user:secret@h/x",
                                     "http://h/x?q=1",
                                     "http://h/x#frag",
                                     "/relative/path"};
    for (size_t i = 0; i < sizeof bad_urls / sizeof bad_urls[0]; i++) {
        sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
        o.base_url = bad_urls[i];
        sdkrt_client *c = NULL;
        sdkrt_error *err = NULL;
        ck_assert_msg(sdkrt_client_new(&c, &o, &err) == SDKRT_ERR, "accepted %s", bad_urls[i]);
        ck_assert_ptr_null(c);
        ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_INVALID_ARGUMENT);
        ck_assert_ptr_null(strstr(sdkrt_error_message(err), "secret"));
        sdkrt_error_free(err);
    }
    sdkrt_header evil[] = {{"X-Ok", "fine"}, {"X-Evil", "a\r\nX-Injected: 1"}};
    sdkrt_header evil_name[] = {{"X Bad", "v"}};
    struct {
        sdkrt_client_options o;
    } variants[6];
    for (size_t i = 0; i < 6; i++) {
        sdkrt_client_options init = SDKRT_CLIENT_OPTIONS_INIT;
        variants[i].o = init;
        variants[i].o.base_url = "http://127.0.0.1:1";
    }
    variants[0].o.headers = evil;
    variants[0].o.header_count = 2;
    variants[1].o.headers = evil_name;
    variants[1].o.header_count = 1;
    variants[2].o.user_agent = "ua\nX-Injected: 1";
    variants[3].o.auth = SDKRT_AUTH_BEARER;
    variants[3].o.token = "t0psecret\r\nX-Injected: 1";
    variants[4].o.auth = SDKRT_AUTH_BASIC;
    variants[4].o.username = "a:b";
    variants[4].o.password = "secret";
    variants[5].o.timeout_ms = -2; /* -1 is SDKRT_TIMEOUT_OFF */
    for (size_t i = 0; i < 6; i++) {
        sdkrt_client *c = NULL;
        sdkrt_error *err = NULL;
        ck_assert_msg(sdkrt_client_new(&c, &variants[i].o, &err) == SDKRT_ERR, "variant %zu", i);
        ck_assert_ptr_null(c);
        ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_INVALID_ARGUMENT);
        ck_assert_ptr_null(strstr(sdkrt_error_message(err), "secret"));
        sdkrt_error_free(err);
    }
    sdkrt_client_free(NULL);
}
END_TEST

START_TEST(client_base_url_normalised)
{
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.base_url = "HTTP://Example.COM:8080/api/";
    sdkrt_client *c = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_new(&c, &o, &err), SDKRT_OK);
    ck_assert_str_eq(sdkrt_client_base_url(c), "http://Example.COM:8080/api");
    sdkrt_client_free(c);
}
END_TEST

/* ---- headers ---- */

static const char *header_line(const seen *s, const char *name_colon)
{
    return strstr(s->headers, name_colon);
}

START_TEST(headers_precedence_and_auth)
{
    sdkrt_header defaults[] = {{"X-Default", "d"}, {"X-Over", "default"}, {"Accept", "*/*"}};
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.base_url = "http://127.0.0.1:9";
    o.headers = defaults;
    o.header_count = 3;
    o.auth = SDKRT_AUTH_BASIC;
    o.username = "user";
    o.password = "pa:ss\xc3\xa9";
    fixture f;
    fx_open(&f, &o);
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "POST", "/x"), SDKRT_OK);
    ck_assert_int_eq(sdkrt_request_set_header(req, "x-over", "request"), SDKRT_OK);
    ck_assert_int_eq(sdkrt_request_set_header(req, "X-Req", "r1"), SDKRT_OK);
    ck_assert_int_eq(sdkrt_request_set_header(req, "X-REQ", "r2"), SDKRT_OK);
    json_t *body = json_pack("{s:s,s:i}", "text", "h\xc3\xa9llo \"q\"", "n", 3);
    ck_assert_int_eq(sdkrt_request_set_json_body(req, body), SDKRT_OK);
    sdkrt_header call_h[] = {{"X-Req", "call"}, {"X-Empty", ""}};
    sdkrt_call_options call = SDKRT_CALL_OPTIONS_INIT;
    call.headers = call_h;
    call.header_count = 2;
    send_ok(&f, req, &call);
    /* base64("user:pa:ssé") */
    ck_assert_str_eq(f.s.headers, "User-Agent: sdkrt/0.5.0\n"
                                  "X-Default: d\n"
                                  "X-Over: request\n"
                                  "Accept: */*\n"
                                  "Authorization: Basic dXNlcjpwYTpzc8Op\n"
                                  "X-Req: call\n"
                                  "X-Empty: \n"
                                  "Content-Type: application/json\n");
    ck_assert_str_eq(f.s.method, "POST");
    ck_assert_str_eq(f.s.body, "{\"text\":\"h\xc3\xa9llo \\\"q\\\"\",\"n\":3}");
    ck_assert_uint_eq(f.s.body_len, strlen(f.s.body));
    /* without call options the request's header wins */
    send_ok(&f, req, NULL);
    ck_assert_ptr_nonnull(header_line(&f.s, "X-Req: r2\n"));
    sdkrt_request_free(req);
    fx_close(&f);
}
END_TEST

/* What on_response saw. */
typedef struct observed {
    int calls;
    int status;
    char headers[512];
} observed;

static void observe(void *ud, int status, const sdkrt_header *h, size_t n)
{
    observed *o = ud;
    o->calls++;
    o->status = status;
    o->headers[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        size_t used = strlen(o->headers);
        snprintf(o->headers + used, sizeof o->headers - used, "%s=%s;", h[i].name, h[i].value);
    }
}

static int sse_handler(void *ud, const sdkrt_memory_request *req, sdkrt_memory_response *resp)
{
    (void)ud;
    (void)req;
    sdkrt_memory_response_set_status(resp, 200);
    sdkrt_memory_response_add_header(resp, "Content-Type", "text/event-stream");
    sdkrt_memory_response_add_header(resp, "X-Request-Id", "r-7");
    sdkrt_memory_response_add_chunk(resp, "data: 1\n\n", 9);
    return 0;
}

START_TEST(on_response_sees_status_and_headers)
{
    fixture f;
    fx_open_base(&f, "http://127.0.0.1:9");
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/x"), SDKRT_OK);
    observed seen_resp = {0, 0, ""};
    sdkrt_call_options call = SDKRT_CALL_OPTIONS_INIT;
    call.on_response = observe;
    call.userdata = &seen_resp;
    send_ok(&f, req, &call);
    ck_assert_int_eq(seen_resp.calls, 1);
    ck_assert_int_eq(seen_resp.status, 200);
    ck_assert_str_eq(seen_resp.headers, "Content-Type=application/json;");
    send_ok(&f, req, NULL); /* without it nothing is called */
    ck_assert_int_eq(seen_resp.calls, 1);
    fx_close(&f);

    /* a stream shows its first response, once */
    sdkrt_transport *t = NULL;
    ck_assert_int_eq(sdkrt_memory_transport_new(&t, sse_handler, NULL), SDKRT_OK);
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.base_url = "http://127.0.0.1:9";
    o.transport = t;
    sdkrt_client *c = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_new(&c, &o, &err), SDKRT_OK);
    sdkrt_stream *st = NULL;
    ck_assert_int_eq(sdkrt_client_stream(c, req, &call, &st, &err), SDKRT_OK);
    sdkrt_stream_event ev;
    ck_assert_int_eq(sdkrt_stream_next(st, &ev, &err), SDKRT_STREAM_EVENT);
    ck_assert_str_eq(ev.data, "1");
    ck_assert_int_eq(sdkrt_stream_next(st, &ev, &err), SDKRT_STREAM_END);
    ck_assert_int_eq(seen_resp.calls, 2);
    ck_assert_str_eq(seen_resp.headers, "Content-Type=text/event-stream;X-Request-Id=r-7;");
    sdkrt_stream_close(st);
    sdkrt_client_free(c);
    sdkrt_transport_free(t);
    sdkrt_request_free(req);
}
END_TEST

START_TEST(bearer_and_user_agent)
{
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.base_url = "http://127.0.0.1:9";
    o.auth = SDKRT_AUTH_BEARER;
    o.token = "t0k3n";
    o.user_agent = "my-sdk/1.2";
    fixture f;
    fx_open(&f, &o);
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/x"), SDKRT_OK);
    send_ok(&f, req, NULL);
    ck_assert_str_eq(f.s.headers, "User-Agent: my-sdk/1.2\nAuthorization: Bearer t0k3n\n");
    ck_assert_ptr_null(strstr(f.s.body, "x"));
    sdkrt_request_free(req);
    fx_close(&f);
}
END_TEST

START_TEST(header_injection_refused)
{
    fixture f;
    fx_open_base(&f, "http://127.0.0.1:9");
    static const struct {
        const char *name;
        const char *value;
    } bad[] = {
        {"X-A", "v\r\nX-Injected: 1"},
        {"X-A", "v\nX-Injected: 1"},
        {"X-A", "v\r"},
        {"X-A\r\nX-Injected", "1"},
        {"X A", "1"},
        {"X-A:", "1"},
        {"", "1"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        /* on the request */
        sdkrt_request *req = NULL;
        ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/x"), SDKRT_OK);
        ck_assert_int_eq(sdkrt_request_set_header(req, bad[i].name, bad[i].value), SDKRT_ERR);
        sdkrt_error *err = send_fails(&f, req, NULL, SDKRT_REASON_INVALID_ARGUMENT);
        ck_assert_ptr_nonnull(strstr(sdkrt_error_message(err), "GET /x: "));
        sdkrt_error_free(err);
        sdkrt_request_free(req);
        /* in call options */
        ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/x"), SDKRT_OK);
        sdkrt_header h[] = {{bad[i].name, bad[i].value}};
        sdkrt_call_options call = SDKRT_CALL_OPTIONS_INIT;
        call.headers = h;
        call.header_count = 1;
        err = send_fails(&f, req, &call, SDKRT_REASON_INVALID_ARGUMENT);
        ck_assert_ptr_nonnull(strstr(sdkrt_error_message(err), "header injection refused"));
        sdkrt_error_free(err);
        err = NULL;
        sdkrt_stream *st = NULL;
        ck_assert_int_eq(sdkrt_client_stream(f.c, req, &call, &st, &err), SDKRT_ERR);
        ck_assert_ptr_null(st);
        ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_INVALID_ARGUMENT);
        sdkrt_error_free(err);
        sdkrt_request_free(req);
    }
    ck_assert_int_eq(f.s.calls, 0); /* nothing reached the server */
    fx_close(&f);
}
END_TEST

START_TEST(request_body_raw)
{
    fixture f;
    fx_open_base(&f, "http://127.0.0.1:9");
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "PUT", "/x"), SDKRT_OK);
    const char bytes[] = {'a', '\0', 'b'};
    ck_assert_int_eq(sdkrt_request_set_body(req, "application/octet-stream", bytes, 3), SDKRT_OK);
    send_ok(&f, req, NULL);
    ck_assert_str_eq(f.s.method, "PUT");
    ck_assert_uint_eq(f.s.body_len, 3);
    ck_assert_int_eq(memcmp(f.s.body, bytes, 3), 0);
    ck_assert_ptr_nonnull(strstr(f.s.headers, "Content-Type: application/octet-stream\n"));
    ck_assert_int_eq(sdkrt_request_set_body(req, "text/plain\r\nX: 1", "a", 1), SDKRT_ERR);
    sdkrt_error *err = send_fails(&f, req, NULL, SDKRT_REASON_INVALID_ARGUMENT);
    sdkrt_error_free(err);
    sdkrt_request_free(req);
    fx_close(&f);
}
END_TEST

/* ---- errors ---- */

START_TEST(error_values)
{
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_error_set(&err, SDKRT_REASON_MALFORMED_RESPONSE,
                                     "GET /x: $.items[%d].id: expected a string", 3),
                     SDKRT_ERR);
    ck_assert_str_eq(sdkrt_error_message(err),
                     "GET /x: $.items[3].id: expected a string (MALFORMED_RESPONSE)");
    ck_assert_int_eq(sdkrt_error_kind(err), SDKRT_ERROR_CLIENT);
    ck_assert_int_eq(sdkrt_error_status(err), 0);
    ck_assert_ptr_null(sdkrt_error_body(err, NULL));
    ck_assert_ptr_null(sdkrt_error_tag(err));
    /* setting again keeps the first error (GError rules; test_error has the details) */
    sdkrt_error *first = err;
    sdkrt_error_set(&err, SDKRT_REASON_TIMEOUT, "later");
    ck_assert_ptr_eq(err, first);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_MALFORMED_RESPONSE);
    /* bounded body */
    size_t big = SDKRT_ERROR_BODY_MAX + 100;
    char *body = malloc(big);
    memset(body, 'b', big);
    sdkrt_error_set_body(err, body, big);
    size_t len = 0;
    const char *kept = sdkrt_error_body(err, &len);
    ck_assert_uint_eq(len, SDKRT_ERROR_BODY_MAX);
    ck_assert_int_eq(kept[len], '\0');
    ck_assert(sdkrt_error_body_truncated(err));
    free(body);
    sdkrt_error_free(err);
    sdkrt_error_free(NULL);

    static const char *names[] = {"NONE",
                                  "TRANSPORT",
                                  "TIMEOUT",
                                  "CANCELLED",
                                  "UNEXPECTED_STATUS",
                                  "UNSUPPORTED_CONTENT_TYPE",
                                  "MALFORMED_RESPONSE",
                                  "INVALID_ARGUMENT",
                                  "RESPONSE_TOO_LARGE",
                                  "EVENT_TOO_LARGE",
                                  "OUT_OF_MEMORY"};
    for (int i = 0; i <= (int)SDKRT_REASON_OUT_OF_MEMORY; i++)
        ck_assert_str_eq(sdkrt_reason_name((sdkrt_reason)i), names[i]);
    ck_assert_str_eq(sdkrt_reason_name((sdkrt_reason)99), "UNKNOWN");
}
END_TEST

static int payload_frees;
static void payload_free(void *p)
{
    payload_frees++;
    free(p);
}

START_TEST(error_domain)
{
    payload_frees = 0;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_error_new_domain(&err, 404, "NotFoundError", malloc(8), payload_free,
                                            "session ses_1 not found"),
                     SDKRT_OK);
    ck_assert_int_eq(sdkrt_error_kind(err), SDKRT_ERROR_DOMAIN);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_NONE);
    ck_assert_int_eq(sdkrt_error_status(err), 404);
    ck_assert_str_eq(sdkrt_error_tag(err), "NotFoundError");
    ck_assert_str_eq(sdkrt_error_message(err), "session ses_1 not found");
    ck_assert_ptr_nonnull(sdkrt_error_payload(err));
    sdkrt_error_set_payload(err, malloc(4), payload_free);
    ck_assert_int_eq(payload_frees, 1);
    sdkrt_error_free(err);
    ck_assert_int_eq(payload_frees, 2);
    err = NULL;
    ck_assert_int_eq(sdkrt_error_new_domain(&err, 400, "Bad", NULL, NULL, NULL), SDKRT_OK);
    ck_assert_str_eq(sdkrt_error_message(err), "HTTP 400 Bad");
    sdkrt_error_free(err);
}
END_TEST

START_TEST(error_messages_from_responses)
{
    fixture f;
    fx_open_base(&f, "http://127.0.0.1:4096");
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/api/session"), SDKRT_OK);
    sdkrt_response *resp = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_send(f.c, req, NULL, &resp, &err), SDKRT_OK);
    ck_assert_int_eq(sdkrt_error_unexpected_status(&err, resp), SDKRT_ERR);
    ck_assert_str_eq(sdkrt_error_message(err),
                     "GET http://127.0.0.1:4096/api/session: HTTP 200: {} (UNEXPECTED_STATUS)");
    ck_assert_int_eq(sdkrt_error_status(err), 200);
    ck_assert_str_eq(sdkrt_error_content_type(err), "application/json");
    size_t len = 0;
    ck_assert_str_eq(sdkrt_error_body(err, &len), "{}");
    ck_assert_uint_eq(len, 2);
    sdkrt_error_free(err);
    json_t *j = NULL;
    err = NULL;
    ck_assert_int_eq(sdkrt_response_parse_json(resp, &j, &err), SDKRT_OK);
    ck_assert(json_is_object(j));
    json_decref(j);
    sdkrt_response_free(resp);
    sdkrt_request_free(req);
    fx_close(&f);
}
END_TEST

START_TEST(version_and_cancel)
{
    ck_assert_int_eq(sdkrt_version_check(SDKRT_VERSION_MAJOR, SDKRT_VERSION_MINOR), 1);
    ck_assert_int_eq(sdkrt_version_check(SDKRT_VERSION_MAJOR + 1, 0), 0);
    ck_assert_int_eq(sdkrt_version_check(SDKRT_VERSION_MAJOR, SDKRT_VERSION_MINOR + 1), 0);
    ck_assert_str_eq(sdkrt_version_string(), "0.5.0");
    sdkrt_cancel *c = NULL;
    ck_assert_int_eq(sdkrt_cancel_new(&c), SDKRT_OK);
    ck_assert(!sdkrt_cancel_is_triggered(c));
    sdkrt_cancel_trigger(c);
    sdkrt_cancel_trigger(c);
    ck_assert(sdkrt_cancel_is_triggered(c));
    /* a triggered token refuses a call before it reaches the transport */
    fixture f;
    fx_open_base(&f, "http://127.0.0.1:9");
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/x"), SDKRT_OK);
    sdkrt_call_options call = SDKRT_CALL_OPTIONS_INIT;
    call.cancel = c;
    sdkrt_error *err = send_fails(&f, req, &call, SDKRT_REASON_CANCELLED);
    sdkrt_error_free(err);
    ck_assert_int_eq(f.s.calls, 0);
    sdkrt_cancel_reset(c);
    ck_assert(!sdkrt_cancel_is_triggered(c));
    send_ok(&f, req, &call);
    ck_assert_int_eq(f.s.calls, 1);
    sdkrt_request_free(req);
    fx_close(&f);
    sdkrt_cancel_free(c);
    sdkrt_cancel_free(NULL);
    sdkrt_cancel_trigger(NULL);
    ck_assert(!sdkrt_cancel_is_triggered(NULL));
}
END_TEST

static Suite *request_suite(void)
{
    Suite *s = suite_create("request");
    TCase *tc = tcase_create("encoding");
    tcase_add_test(tc, path_params_hostile_values);
    tcase_add_test(tc, path_params_two_and_replaced);
    tcase_add_test(tc, path_params_missing_unknown);
    tcase_add_test(tc, bad_templates_and_methods);
    tcase_add_test(tc, query_form_and_arrays);
    tcase_add_test(tc, query_deep_object);
    tcase_add_test(tc, base_path_prefix_kept);
    suite_add_tcase(s, tc);
    tc = tcase_create("client");
    tcase_add_test(tc, client_options_refused);
    tcase_add_test(tc, client_base_url_normalised);
    tcase_add_test(tc, headers_precedence_and_auth);
    tcase_add_test(tc, bearer_and_user_agent);
    tcase_add_test(tc, header_injection_refused);
    tcase_add_test(tc, request_body_raw);
    suite_add_tcase(s, tc);
    tc = tcase_create("errors");
    tcase_add_test(tc, error_values);
    tcase_add_test(tc, error_domain);
    tcase_add_test(tc, error_messages_from_responses);
    tcase_add_test(tc, version_and_cancel);
    tcase_add_test(tc, on_response_sees_status_and_headers);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    if (sdkrt_global_init() != SDKRT_OK)
        return 1;
    SRunner *sr = srunner_create(request_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    sdkrt_global_cleanup();
    return failed ? 1 : 0;
}
