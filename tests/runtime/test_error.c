/* test_error.c - the `sdkrt_error **err` rules (GLib GError style): *err is NULL on entry, the
 * library never frees or overwrites an error the caller already holds (the first error is kept,
 * the new one discarded) on every runtime path that builds an error, sdkrt_error_clear and
 * sdkrt_error_propagate; and messages that end in their reason exactly once (a refused
 * connection, unary and stream, including the repeated stream error). Run under valgrind and
 * ASan: a freed first error would be read after free below. */
#include <arpa/inet.h>
#include <check.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "sdkrt/json.h"
#include "sdkrt/sdkrt.h"

/* ---- helpers ---- */

/* How many times needle occurs in hay. */
static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* The first error of every keep-first check: a DOMAIN error with a payload, a status and a body,
 * so that any change to it (freed, replaced, re-described) shows. */
static int first_payload_frees;
static void first_payload_free(void *p)
{
    first_payload_frees++;
    free(p);
}

static sdkrt_error *make_first(void)
{
    sdkrt_error *e = NULL;
    ck_assert_int_eq(sdkrt_error_new_domain(&e, 409, "FirstError", malloc(16), first_payload_free,
                                            "the first error"),
                     SDKRT_OK);
    sdkrt_error_set_content_type(e, "application/json");
    sdkrt_error_set_body(e, "{\"first\":1}", 11);
    return e;
}

/* err still holds exactly the first error, readable, unchanged. */
static void assert_first(const sdkrt_error *err, const sdkrt_error *first)
{
    ck_assert_ptr_eq(err, first);
    ck_assert_int_eq(sdkrt_error_kind(err), SDKRT_ERROR_DOMAIN);
    ck_assert_str_eq(sdkrt_error_message(err), "the first error");
    ck_assert_str_eq(sdkrt_error_tag(err), "FirstError");
    ck_assert_int_eq(sdkrt_error_status(err), 409);
    ck_assert_str_eq(sdkrt_error_content_type(err), "application/json");
    size_t len = 0;
    ck_assert_str_eq(sdkrt_error_body(err, &len), "{\"first\":1}");
    ck_assert_uint_eq(len, 11);
    ck_assert_ptr_nonnull(sdkrt_error_payload(err));
    ck_assert_int_eq(first_payload_frees, 0);
}

/* A scripted in-memory server: one status, content type and body for every request; fail makes
 * the handler refuse the connection. */
typedef struct script {
    int status;
    const char *content_type;
    const char *body;
    bool fail;
} script;

static int script_handler(void *ud, const sdkrt_memory_request *req, sdkrt_memory_response *resp)
{
    (void)req;
    const script *s = ud;
    if (s->fail)
        return -1;
    sdkrt_memory_response_set_status(resp, s->status);
    if (s->content_type)
        sdkrt_memory_response_add_header(resp, "Content-Type", s->content_type);
    if (s->body)
        sdkrt_memory_response_add_chunk(resp, s->body, strlen(s->body));
    return 0;
}

typedef struct fixture {
    script s;
    sdkrt_transport *t;
    sdkrt_client *c;
    sdkrt_request *req;
} fixture;

static void fx_open(fixture *f, script s)
{
    f->s = s;
    ck_assert_int_eq(sdkrt_memory_transport_new(&f->t, script_handler, &f->s), SDKRT_OK);
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.retry.max_attempts = 1; /* one attempt is what these tests mean */
    o.base_url = "http://api.test";
    o.transport = f->t;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_new(&f->c, &o, &err), SDKRT_OK);
    ck_assert_int_eq(sdkrt_request_new(&f->req, "GET", "/x"), SDKRT_OK);
}

static void fx_close(fixture *f)
{
    sdkrt_request_free(f->req);
    sdkrt_client_free(f->c);
    sdkrt_transport_free(f->t);
}

/* ---- the rules ---- */

START_TEST(set_keeps_the_first_error)
{
    first_payload_frees = 0;
    sdkrt_error *first = make_first();
    sdkrt_error *err = first;
    ck_assert_int_eq(sdkrt_error_set(&err, SDKRT_REASON_TIMEOUT, "second %d", 2), SDKRT_ERR);
    assert_first(err, first);
    /* a CLIENT error is kept the same way */
    sdkrt_error *c = NULL;
    sdkrt_error_set(&c, SDKRT_REASON_TRANSPORT, "one");
    sdkrt_error *c_first = c;
    sdkrt_error_set(&c, SDKRT_REASON_TIMEOUT, "two");
    ck_assert_ptr_eq(c, c_first);
    ck_assert_str_eq(sdkrt_error_message(c), "one (TRANSPORT)");
    ck_assert_int_eq(sdkrt_error_reason(c), SDKRT_REASON_TRANSPORT);
    sdkrt_error_clear(&c);
    /* err NULL: nothing is stored, the call still fails */
    ck_assert_int_eq(sdkrt_error_set(NULL, SDKRT_REASON_TIMEOUT, "nobody"), SDKRT_ERR);
    sdkrt_error_free(err);
    ck_assert_int_eq(first_payload_frees, 1);
}
END_TEST

static int second_payload_frees;
static void second_payload_free(void *p)
{
    second_payload_frees++;
    free(p);
}

START_TEST(new_domain_keeps_the_first_error)
{
    first_payload_frees = second_payload_frees = 0;
    sdkrt_error *first = make_first();
    sdkrt_error *err = first;
    ck_assert_int_eq(
        sdkrt_error_new_domain(&err, 404, "SecondError", malloc(8), second_payload_free, "second"),
        SDKRT_ERR);
    assert_first(err, first);
    ck_assert_int_eq(second_payload_frees, 1); /* the discarded payload is released */
    ck_assert_int_eq(
        sdkrt_error_new_domain(NULL, 404, "SecondError", malloc(8), second_payload_free, "second"),
        SDKRT_ERR);
    ck_assert_int_eq(second_payload_frees, 2);
    sdkrt_error_clear(&err);
    ck_assert_ptr_null(err);
    ck_assert_int_eq(first_payload_frees, 1);
}
END_TEST

START_TEST(clear_and_propagate)
{
    sdkrt_error_clear(NULL);
    sdkrt_error *err = NULL;
    sdkrt_error_clear(&err);
    ck_assert_ptr_null(err);
    sdkrt_error_set(&err, SDKRT_REASON_TIMEOUT, "first");
    ck_assert_ptr_nonnull(err);
    sdkrt_error_clear(&err);
    ck_assert_ptr_null(err);
    /* the cleared variable takes a new error */
    sdkrt_error_set(&err, SDKRT_REASON_CANCELLED, "second");
    ck_assert_str_eq(sdkrt_error_message(err), "second (CANCELLED)");
    sdkrt_error_clear(&err);

    sdkrt_error *src = NULL;
    sdkrt_error_set(&src, SDKRT_REASON_TRANSPORT, "src");
    sdkrt_error_propagate(&err, src); /* stored */
    ck_assert_ptr_eq(err, src);
    src = NULL;
    sdkrt_error_set(&src, SDKRT_REASON_TIMEOUT, "late");
    sdkrt_error_propagate(&err, src); /* released, the first is kept */
    ck_assert_str_eq(sdkrt_error_message(err), "src (TRANSPORT)");
    src = NULL;
    sdkrt_error_set(&src, SDKRT_REASON_TIMEOUT, "unwanted");
    sdkrt_error_propagate(NULL, src); /* released */
    sdkrt_error_propagate(&err, NULL);
    ck_assert_str_eq(sdkrt_error_message(err), "src (TRANSPORT)");
    sdkrt_error_clear(&err);
}
END_TEST

/* Each runtime path that builds an error, called a second time with the first error still in the
 * variable: the first is kept, same pointer, readable. */
START_TEST(runtime_paths_keep_the_first_error)
{
    first_payload_frees = 0;
    sdkrt_error *first = make_first();
    sdkrt_error *err = first;

    /* client options */
    sdkrt_client *c = NULL;
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.retry.max_attempts = 1; /* one attempt is what these tests mean */
    o.base_url = "ftp://nope";
    ck_assert_int_eq(sdkrt_client_new(&c, &o, &err), SDKRT_ERR);
    assert_first(err, first);

    /* a transport failure (the client prefixes the transport's message) */
    fixture f;
    fx_open(&f, (script){.fail = true});
    sdkrt_response *resp = NULL;
    ck_assert_int_eq(sdkrt_client_send(f.c, f.req, NULL, &resp, &err), SDKRT_ERR);
    assert_first(err, first);
    /* a stream that fails, then repeats its failure */
    sdkrt_stream *st = NULL;
    ck_assert_int_eq(sdkrt_client_stream(f.c, f.req, NULL, &st, &err), SDKRT_OK);
    sdkrt_stream_event ev;
    ck_assert_int_eq(sdkrt_stream_next(st, &ev, &err), SDKRT_STREAM_ERROR);
    assert_first(err, first);
    ck_assert_int_eq(sdkrt_stream_next(st, &ev, &err), SDKRT_STREAM_ERROR);
    assert_first(err, first);
    sdkrt_stream_close(st);
    fx_close(&f);

    /* a response described into the error: unexpected status, content type, invalid JSON */
    fx_open(&f, (script){.status = 500, .content_type = "text/html", .body = "<html>"});
    ck_assert_int_eq(sdkrt_client_send(f.c, f.req, NULL, &resp, &err), SDKRT_OK);
    ck_assert_int_eq(sdkrt_error_unexpected_status(&err, resp), SDKRT_ERR);
    assert_first(err, first);
    json_t *j = NULL;
    ck_assert_int_eq(sdkrt_response_parse_json(resp, &j, &err), SDKRT_ERR);
    assert_first(err, first);
    sdkrt_response_free(resp);
    /* a stream whose status is not 2xx */
    ck_assert_int_eq(sdkrt_client_stream(f.c, f.req, NULL, &st, &err), SDKRT_OK);
    ck_assert_int_eq(sdkrt_stream_next(st, &ev, &err), SDKRT_STREAM_ERROR);
    assert_first(err, first);
    sdkrt_stream_close(st);
    fx_close(&f);
    fx_open(&f, (script){.status = 200, .content_type = "application/json", .body = "{nope"});
    ck_assert_int_eq(sdkrt_client_send(f.c, f.req, NULL, &resp, &err), SDKRT_OK);
    ck_assert_int_eq(sdkrt_response_parse_json(resp, &j, &err), SDKRT_ERR);
    assert_first(err, first);
    sdkrt_response_free(resp);
    fx_close(&f);

    /* table-driven decode and the generated-code helpers */
    static const sdkrt_jtype t_string = {
        .kind = SDKRT_JK_STRING, .name = "string", .size = sizeof(char *)};
    static const sdkrt_jerror errors[] = {{404, "NotFoundError", &t_string, false}};
    static const sdkrt_jop op = {"t.get", 200,  SDKRT_JENC_JSON, &t_string, "data", errors,
                                 1,       NULL, false,           NULL,      NULL,   NULL,
                                 0};
    char *s = NULL;
    ck_assert_int_eq(sdkrt_json_decode_text(&t_string, &s, "7", 1, "$", &err), SDKRT_ERR);
    assert_first(err, first);
    ck_assert_int_eq(sdkrt_json_decode_text(&t_string, &s, "[", 1, "$", &err), SDKRT_ERR);
    assert_first(err, first);
    ck_assert_int_eq(sdkrt_json_error_response(&op, 404, "application/json",
                                               "{\"_tag\":\"NotFoundError\"}", 24, &err),
                     SDKRT_ERR);
    assert_first(err, first);
    ck_assert_int_eq(sdkrt_json_error_response(&op, 500, "text/plain", "x", 1, &err), SDKRT_ERR);
    assert_first(err, first);
    void *out = NULL;
    fx_open(&f, (script){.status = 200, .content_type = "application/json", .body = "{\"x\":1}"});
    ck_assert_int_eq(sdkrt_json_call(f.c, f.req, NULL, &op, &out, &err), SDKRT_ERR);
    assert_first(err, first);
    fx_close(&f);
    fx_open(&f,
            (script){.status = 200, .content_type = "application/json", .body = "{\"data\":1}"});
    ck_assert_int_eq(sdkrt_json_call(f.c, f.req, NULL, &op, &out, &err), SDKRT_ERR);
    assert_first(err, first);
    fx_close(&f);

    sdkrt_error_clear(&err);
    ck_assert_int_eq(first_payload_frees, 1);
}
END_TEST

/* ---- several declared successes ---- */

/* Each declared 2xx decodes as its own type and says which status came back; an undeclared 2xx
 * is UNEXPECTED_STATUS when every success is exact, and 2XX catches the rest. */
START_TEST(several_successes_say_their_status)
{
    static const sdkrt_jtype t_string = {
        .kind = SDKRT_JK_STRING, .name = "string", .size = sizeof(char *)};
    static const sdkrt_jtype t_int = {
        .kind = SDKRT_JK_INTEGER, .name = "integer", .size = sizeof(int64_t)};
    static const sdkrt_jsuccess more[] = {{201, SDKRT_JENC_JSON, &t_int, NULL},
                                          {204, SDKRT_JENC_NONE, NULL, NULL}};
    static const sdkrt_jop op = {"t.put", 200,  SDKRT_JENC_JSON, &t_string, "data", NULL,
                                 0,       NULL, false,           NULL,      NULL,   more,
                                 2};
    static const sdkrt_jsuccess ranged[] = {{2, SDKRT_JENC_TEXT, NULL, NULL}};
    static const sdkrt_jop op2 = {"t.put", 200,  SDKRT_JENC_JSON, &t_string, NULL, NULL,
                                  0,       NULL, false,           NULL,      NULL, ranged,
                                  1};
    fixture f;
    sdkrt_error *err = NULL;
    void *out = NULL;
    int status = -1;

    fx_open(
        &f,
        (script){.status = 200, .content_type = "application/json", .body = "{\"data\":\"ok\"}"});
    ck_assert_int_eq(sdkrt_json_call_status(f.c, f.req, NULL, &op, &out, &status, &err), SDKRT_OK);
    ck_assert_int_eq(status, 200);
    ck_assert_str_eq(*(char **)out, "ok");
    sdkrt_json_value_free(&t_string, out);
    fx_close(&f);

    fx_open(&f, (script){.status = 201, .content_type = "application/json", .body = "42"});
    ck_assert_int_eq(sdkrt_json_call_status(f.c, f.req, NULL, &op, &out, &status, &err), SDKRT_OK);
    ck_assert_int_eq(status, 201);
    ck_assert_int_eq(*(int64_t *)out, 42);
    sdkrt_json_value_free(&t_int, out);
    fx_close(&f);

    fx_open(&f, (script){.status = 204});
    ck_assert_int_eq(sdkrt_json_call_status(f.c, f.req, NULL, &op, &out, &status, &err), SDKRT_OK);
    ck_assert_int_eq(status, 204);
    ck_assert_ptr_null(out);
    fx_close(&f);

    fx_open(&f, (script){.status = 202, .content_type = "text/plain", .body = "queued"});
    ck_assert_int_eq(sdkrt_json_call_status(f.c, f.req, NULL, &op, &out, &status, &err), SDKRT_ERR);
    ck_assert_int_eq(status, 0);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_UNEXPECTED_STATUS);
    sdkrt_error_clear(&err);
    ck_assert_int_eq(sdkrt_json_call_status(f.c, f.req, NULL, &op2, &out, &status, &err), SDKRT_OK);
    ck_assert_int_eq(status, 202);
    ck_assert_str_eq((const char *)((sdkrt_bytes *)out)->data, "queued");
    sdkrt_bytes_free(out);
    fx_close(&f);
}
END_TEST

/* ---- the server's own message ---- */

/* The message of the UNEXPECTED_STATUS error a response with this body becomes. */
static char *unexpected_message(const char *content_type, const char *body)
{
    fixture f;
    fx_open(&f, (script){.status = 404, .content_type = content_type, .body = body});
    sdkrt_response *resp = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_send(f.c, f.req, NULL, &resp, &err), SDKRT_OK);
    ck_assert_int_eq(sdkrt_error_unexpected_status(&err, resp), SDKRT_ERR);
    char *m = strdup(sdkrt_error_message(err));
    ck_assert_int_eq(sdkrt_error_status(err), 404);
    size_t len = 0;
    ck_assert_str_eq(sdkrt_error_body(err, &len), body); /* the body is still kept whole */
    sdkrt_error_free(err);
    sdkrt_response_free(resp);
    fx_close(&f);
    return m;
}

static void expect_unexpected(const char *content_type, const char *body, const char *said)
{
    char *m = unexpected_message(content_type, body);
    char want[1024];
    snprintf(want, sizeof want, "GET http://api.test/x: HTTP 404%s (UNEXPECTED_STATUS)", said);
    ck_assert_str_eq(m, want);
    free(m);
}

START_TEST(server_message_in_errors)
{
    const char *json = "application/json";
    /* Stripe and OpenAI */
    expect_unexpected(json,
                      "{\"error\":{\"message\":\"No such customer: 'cus_x'\",\"type\":"
                      "\"invalid_request_error\"}}",
                      ": No such customer: 'cus_x'");
    /* GitHub */
    expect_unexpected(json, "{\"message\":\"Not Found\",\"documentation_url\":\"https://d\"}",
                      ": Not Found");
    /* OAuth 2: the description, not the code */
    expect_unexpected(json, "{\"error\":\"invalid_grant\",\"error_description\":\"code expired\"}",
                      ": code expired");
    /* a plain error string; problem details: title and detail together */
    expect_unexpected(json, "{\"error\":\"channel_not_found\"}", ": channel_not_found");
    expect_unexpected("application/problem+json",
                      "{\"type\":\"about:blank\",\"title\":\"Not Found\",\"detail\":\"no pet 7\"}",
                      ": Not Found: no pet 7");
    expect_unexpected("application/problem+json", "{\"title\":\"Not Found\"}", ": Not Found");
    expect_unexpected("application/problem+json", "{\"detail\":\"no pet 7\"}", ": no pet 7");
    /* Asana: the first of `errors`, and how many more */
    expect_unexpected(json, "{\"errors\":[{\"message\":\"project: Missing input\"}]}",
                      ": project: Missing input");
    expect_unexpected(json, "{\"errors\":[{\"code\":1},{\"message\":\"a\"},{\"message\":\"b\"}]}",
                      ": a (and 1 more)");
    /* the documented order: error.message before errors[], errors[] before message */
    expect_unexpected(json, "{\"message\":\"m\",\"errors\":[{\"message\":\"e\"}]}", ": e");
    expect_unexpected(json, "{\"errors\":[{\"message\":\"e\"}],\"error\":{\"message\":\"em\"}}",
                      ": em");
    /* control characters become one space, at the ends nothing */
    expect_unexpected(json, "{\"message\":\"\\n\\tline one\\r\\n\\u001b[31mline two\\u0000\\n\"}",
                      ": line one [31mline two");
    /* empty or non-string fields are passed over; none: the body's text itself */
    expect_unexpected(json, "{\"message\":\"\",\"detail\":[{\"loc\":1}],\"title\":\"T\"}", ": T");
    expect_unexpected(json, "{\"message\":7,\"error\":{\"code\":1}}",
                      ": {\"message\":7,\"error\":{\"code\":1}}");
    expect_unexpected(json, "[\"message\"]", ": [\"message\"]");
    expect_unexpected(json, "{not json", ": {not json");
    expect_unexpected("text/plain", "{\"message\":\"ignored\"}", ": {\"message\":\"ignored\"}");
    /* other text: its first 200 bytes, control characters and bad UTF-8 escaped */
    expect_unexpected("text/plain", "  Service Unavailable\r\n", ": Service Unavailable");
    expect_unexpected("text/html", "<h1>502</h1>\n<p>\tBad\x01 gateway\xff</p>\n",
                      ": <h1>502</h1>\\n<p>\\tBad\\x01 gateway\\xFF</p>");
    /* JSON without a Content-Type is still read as JSON; a binary body is only counted */
    expect_unexpected(NULL, "{\"message\":\"no type\"}", ": no type");
    expect_unexpected("application/octet-stream", "\x01\x02",
                      " with application/octet-stream body (2 bytes)");
    char html[400];
    memset(html, 'h', sizeof html - 1);
    html[sizeof html - 1] = '\0';
    char *cut = unexpected_message("text/html", html);
    ck_assert_msg(strstr(cut, ": hhhh") && strstr(cut, "h... (UNEXPECTED_STATUS)"), "%s", cut);
    ck_assert_uint_eq(strlen(strstr(cut, "404: ") + 5), 200 + 3 + strlen(" (UNEXPECTED_STATUS)"));
    free(cut);
    /* long: cut with "..." on a UTF-8 boundary, 255 bytes at most */
    char body[2048], said[1024];
    size_t n = (size_t)snprintf(body, sizeof body, "{\"message\":\"");
    for (int i = 0; i < 300; i++)
        n += (size_t)snprintf(body + n, sizeof body - n, "%s", i == 0 ? "a" : "\xc3\xa9");
    snprintf(body + n, sizeof body - n, "\"}");
    char *m = unexpected_message(json, body);
    const char *msg = strstr(m, "HTTP 404: ") + 10;
    const char *end = strstr(msg, "... (UNEXPECTED_STATUS)");
    ck_assert_ptr_nonnull(end);
    size_t kept = (size_t)(end - msg);
    ck_assert_uint_le(kept + 3, 255);
    ck_assert_uint_eq(kept % 2, 1); /* "a" then whole two-byte sequences */
    snprintf(said, sizeof said, "%.*s", (int)kept, msg);
    ck_assert_uint_eq(strlen(said), kept);
    ck_assert_uint_ge(kept, 240);
    free(m);

    /* through the generated-code helper: undeclared and declared (untagged and tagged) */
    static const sdkrt_jtype t_any = {
        .kind = SDKRT_JK_ANY, .name = "Problem", .size = sizeof(json_t *)};
    static const sdkrt_jerror errors[] = {{404, NULL, &t_any, false},
                                          {409, "ConflictError", &t_any, false}};
    static const sdkrt_jop op = {"customers.get",
                                 200,
                                 SDKRT_JENC_JSON,
                                 &t_any,
                                 NULL,
                                 errors,
                                 2,
                                 NULL,
                                 false,
                                 NULL,
                                 NULL,
                                 NULL,
                                 0};
    const char *stripe = "{\"error\":{\"message\":\"No such customer: 'cus_x'\"}}";
    sdkrt_error *err = NULL;
    sdkrt_json_error_response(&op, 400, json, stripe, strlen(stripe), &err);
    ck_assert_str_eq(sdkrt_error_message(err), "customers.get: HTTP 400: No such customer: "
                                               "'cus_x' (UNEXPECTED_STATUS)");
    sdkrt_error_clear(&err);
    sdkrt_json_error_response(&op, 404, json, stripe, strlen(stripe), &err);
    ck_assert_int_eq(sdkrt_error_kind(err), SDKRT_ERROR_DOMAIN);
    ck_assert_str_eq(sdkrt_error_message(err), "Problem (HTTP 404): No such customer: 'cus_x'");
    sdkrt_error_clear(&err);
    const char *tagged = "{\"_tag\":\"ConflictError\",\"detail\":\"busy\\nnow\"}";
    sdkrt_json_error_response(&op, 409, json, tagged, strlen(tagged), &err);
    ck_assert_str_eq(sdkrt_error_message(err), "ConflictError (HTTP 409): busy now");
    sdkrt_error_clear(&err);
    const char *other = "{\"_tag\":\"OtherError\",\"message\":\"m\"}";
    sdkrt_json_error_response(&op, 409, json, other, strlen(other), &err);
    ck_assert_str_eq(sdkrt_error_message(err), "customers.get: HTTP 409 with undeclared error tag "
                                               "OtherError: m (UNEXPECTED_STATUS)");
    sdkrt_error_clear(&err);
    /* a stream refused with a JSON error */
    fixture f;
    fx_open(&f,
            (script){.status = 429, .content_type = json, .body = "{\"message\":\"slow down\"}"});
    sdkrt_stream *st = NULL;
    sdkrt_stream_event ev;
    ck_assert_int_eq(sdkrt_client_stream(f.c, f.req, NULL, &st, &err), SDKRT_OK);
    ck_assert_int_eq(sdkrt_stream_next(st, &ev, &err), SDKRT_STREAM_ERROR);
    ck_assert_str_eq(sdkrt_error_message(err),
                     "GET http://api.test/x: HTTP 429: slow down (UNEXPECTED_STATUS)");
    sdkrt_error_clear(&err);
    sdkrt_stream_close(st);
    fx_close(&f);
}
END_TEST

/* A declared error under a non-JSON media type is a DOMAIN error whose payload is the server's
 * text, whatever Content-Type the response carries; an undeclared status stays UNEXPECTED_STATUS
 * with the text in its message. */
START_TEST(declared_text_error_is_domain)
{
    static const sdkrt_jtype t_string = {
        .kind = SDKRT_JK_STRING, .name = "string", .size = sizeof(char *)};
    static const sdkrt_jerror errors[] = {{404, NULL, &t_string, true}, {5, NULL, &t_string, true}};
    static const sdkrt_jop op = {.id = "t.get",
                                 .status = 200,
                                 .encoding = SDKRT_JENC_JSON,
                                 .result = &t_string,
                                 .errors = errors,
                                 .nerrors = 2};
    sdkrt_error *err = NULL;
    const char *text = "no such item: i1\n";
    sdkrt_json_error_response(&op, 404, "text/plain; charset=utf-8", text, strlen(text), &err);
    ck_assert_int_eq(sdkrt_error_kind(err), SDKRT_ERROR_DOMAIN);
    ck_assert_str_eq(sdkrt_error_tag(err), "string");
    ck_assert_int_eq(sdkrt_error_status(err), 404);
    char *const *payload = sdkrt_error_payload(err);
    ck_assert_ptr_nonnull(payload);
    ck_assert_str_eq(*payload, text);
    ck_assert_str_eq(sdkrt_error_message(err), "string (HTTP 404): no such item: i1");
    ck_assert_ptr_null(sdkrt_error_raw_payload(err));
    sdkrt_error_clear(&err);
    /* an HTML page under 5XX, sent without a Content-Type; a body that looks like JSON is text */
    const char *html = "<html><body>Bad\tgateway</body></html>";
    sdkrt_json_error_response(&op, 502, NULL, html, strlen(html), &err);
    ck_assert_int_eq(sdkrt_error_kind(err), SDKRT_ERROR_DOMAIN);
    ck_assert_str_eq(*(char *const *)sdkrt_error_payload(err), html);
    ck_assert_ptr_nonnull(strstr(sdkrt_error_message(err), "Bad\\tgateway"));
    sdkrt_error_clear(&err);
    const char *json = "{\"message\":\"down\"}";
    sdkrt_json_error_response(&op, 503, "application/json", json, strlen(json), &err);
    ck_assert_int_eq(sdkrt_error_kind(err), SDKRT_ERROR_DOMAIN);
    ck_assert_str_eq(*(char *const *)sdkrt_error_payload(err), json);
    sdkrt_error_clear(&err);
    /* an empty body: the empty text */
    sdkrt_json_error_response(&op, 404, "text/plain", "", 0, &err);
    ck_assert_int_eq(sdkrt_error_kind(err), SDKRT_ERROR_DOMAIN);
    ck_assert_str_eq(*(char *const *)sdkrt_error_payload(err), "");
    ck_assert_str_eq(sdkrt_error_message(err), "string (HTTP 404)");
    sdkrt_error_clear(&err);
    /* not declared: UNEXPECTED_STATUS, the text in the message */
    sdkrt_json_error_response(&op, 409, "text/plain", "busy", 4, &err);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_UNEXPECTED_STATUS);
    ck_assert_ptr_nonnull(strstr(sdkrt_error_message(err), "HTTP 409: busy"));
    sdkrt_error_clear(&err);
}
END_TEST

/* ---- the reason appears once ---- */

/* A port on 127.0.0.1 that nobody listens on: bound, noted, closed. */
static int closed_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    ck_assert_int_ge(fd, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ck_assert_int_eq(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    socklen_t len = sizeof a;
    ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&a, &len), 0);
    close(fd);
    return ntohs(a.sin_port);
}

START_TEST(refused_connection_names_its_reason_once)
{
    ck_assert_int_eq(sdkrt_global_init(), SDKRT_OK);
    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%d", closed_port());
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.retry.max_attempts = 1; /* one attempt is what these tests mean */
    o.base_url = url;
    sdkrt_client *c = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_new(&c, &o, &err), SDKRT_OK);
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/api/session"), SDKRT_OK);
    sdkrt_response *resp = NULL;
    ck_assert_int_eq(sdkrt_client_send(c, req, NULL, &resp, &err), SDKRT_ERR);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_TRANSPORT);
    ck_assert_msg(count(sdkrt_error_message(err), "(TRANSPORT)") == 1, "%s",
                  sdkrt_error_message(err));
    sdkrt_error_clear(&err);
    /* a stream: the failure, then the same failure repeated by the next call */
    sdkrt_stream *st = NULL;
    ck_assert_int_eq(sdkrt_client_stream(c, req, NULL, &st, &err), SDKRT_OK);
    sdkrt_stream_event ev;
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(sdkrt_stream_next(st, &ev, &err), SDKRT_STREAM_ERROR);
        ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_TRANSPORT);
        const char *m = sdkrt_error_message(err);
        ck_assert_msg(count(m, "(TRANSPORT)") == 1, "call %d: %s", i, m);
        ck_assert_msg(strstr(m, url) != NULL, "call %d: %s", i, m);
        sdkrt_error_clear(&err);
    }
    sdkrt_stream_close(st);
    sdkrt_request_free(req);
    sdkrt_client_free(c);
    sdkrt_global_cleanup();
}
END_TEST

/* A repeated stream failure is the same error: reason, status, content type and body too. */
START_TEST(repeated_stream_failure_is_the_same_error)
{
    fixture f;
    fx_open(&f, (script){.status = 503, .content_type = "text/plain", .body = "busy"});
    sdkrt_stream *st = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_stream(f.c, f.req, NULL, &st, &err), SDKRT_OK);
    sdkrt_stream_event ev;
    ck_assert_int_eq(sdkrt_stream_next(st, &ev, &err), SDKRT_STREAM_ERROR);
    char first[512];
    snprintf(first, sizeof first, "%s", sdkrt_error_message(err));
    ck_assert_int_eq(count(first, "(UNEXPECTED_STATUS)"), 1);
    sdkrt_error_clear(&err);
    ck_assert_int_eq(sdkrt_stream_next(st, &ev, &err), SDKRT_STREAM_ERROR);
    ck_assert_str_eq(sdkrt_error_message(err), first);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_UNEXPECTED_STATUS);
    ck_assert_int_eq(sdkrt_error_status(err), 503);
    ck_assert_str_eq(sdkrt_error_content_type(err), "text/plain");
    ck_assert_str_eq(sdkrt_error_body(err, NULL), "busy");
    sdkrt_error_clear(&err);
    /* err NULL: still an error, nothing stored */
    ck_assert_int_eq(sdkrt_stream_next(st, &ev, NULL), SDKRT_STREAM_ERROR);
    sdkrt_stream_close(st);
    fx_close(&f);
}
END_TEST

static Suite *error_suite(void)
{
    Suite *s = suite_create("error");
    TCase *tc = tcase_create("rules");
    tcase_add_test(tc, set_keeps_the_first_error);
    tcase_add_test(tc, new_domain_keeps_the_first_error);
    tcase_add_test(tc, clear_and_propagate);
    tcase_add_test(tc, runtime_paths_keep_the_first_error);
    tcase_add_test(tc, several_successes_say_their_status);
    tcase_add_test(tc, refused_connection_names_its_reason_once);
    tcase_add_test(tc, repeated_stream_failure_is_the_same_error);
    tcase_add_test(tc, server_message_in_errors);
    tcase_add_test(tc, declared_text_error_is_domain);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(error_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
