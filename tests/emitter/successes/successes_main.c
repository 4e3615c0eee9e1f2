/* The SDK generated from tests/emitter/data/successes.yaml (at build time): every declared 2xx is
 * a success that says its status (one out parameter when the successes share a type, a
 * sc_<op>_response otherwise); a JSON success also offered as text/event-stream gets a
 * _stream_open/_next/_close variant; a contract without security schemes gets the client's
 * credentials on every operation. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../memory_client.h"
#include "sc/sc.h"

START_TEST(shared_type_says_status)
{
    sc_reaction *r = NULL;
    sc_error *err = NULL;
    int status = 0;
    canned_reply(201, "{\"id\":7,\"content\":\"+1\"}");
    ck_assert_int_eq(sc_reactions_create(client, NULL, &r, &status, &err), SC_OK);
    ck_assert_int_eq(status, 201);
    ck_assert_int_eq(r->id, 7);
    sc_reaction_free(r);
    canned_reply(200, "{\"id\":8,\"content\":\"heart\"}");
    ck_assert_int_eq(sc_reactions_create(client, NULL, &r, NULL, &err), SC_OK);
    ck_assert_str_eq(r->content, "heart");
    sc_reaction_free(r);
    /* an undeclared 2xx is not a success */
    canned_reply(202, "{\"id\":9,\"content\":\"x\"}");
    status = -1;
    ck_assert_int_eq(sc_reactions_create(client, NULL, &r, &status, &err), SC_ERR);
    ck_assert_int_eq(status, 0);
    ck_assert_ptr_null(r);
    ck_assert_int_eq(sc_error_reason(err), SC_REASON_UNEXPECTED_STATUS);
    sc_error_free(err);
}
END_TEST

/* The text/plain 202 of items.put, answered by its own handler. */
static int queued_handler(void *userdata, const sdkrt_memory_request *req,
                          sdkrt_memory_response *resp)
{
    (void)userdata;
    (void)req;
    sdkrt_memory_response_set_status(resp, 202);
    sdkrt_memory_response_add_header(resp, "Content-Type", "text/plain");
    sdkrt_memory_response_add_chunk(resp, "later", 5);
    return 0;
}

START_TEST(distinct_types_in_a_response)
{
    sc_items_put_request req = {.id = "i1"};
    sc_items_put_response *r = NULL;
    sc_error *err = NULL;
    int status = 0;
    canned_reply(200, "{\"id\":\"i1\",\"name\":\"first\"}");
    ck_assert_int_eq(sc_items_put(client, &req, NULL, &r, &status, &err), SC_OK);
    ck_assert_int_eq(status, 200);
    ck_assert_int_eq(r->status, 200);
    ck_assert_str_eq(r->status_200->name, "first");
    ck_assert_ptr_null(r->status_202);
    sc_items_put_response_free(r);
    canned_reply(204, NULL);
    ck_assert_int_eq(sc_items_put(client, &req, NULL, &r, &status, &err), SC_OK);
    ck_assert_int_eq(r->status, 204);
    ck_assert_ptr_null(r->status_200);
    ck_assert_ptr_null(r->status_202);
    sc_items_put_response_free(r);
    sc_items_put_response_free(NULL);
}
END_TEST

START_TEST(bytes_member)
{
    sc_items_put_request req = {.id = "i1"};
    sc_items_put_response *r = NULL;
    sc_error *err = NULL;
    ck_assert_int_eq(sc_items_put(client, &req, NULL, &r, NULL, &err), SC_OK);
    ck_assert_int_eq(r->status, 202);
    ck_assert_ptr_nonnull(r->status_202);
    ck_assert_str_eq((const char *)r->status_202->data, "later");
    sc_items_put_response_free(r);
}
END_TEST

START_TEST(no_content_either_way)
{
    sc_items_remove_request req = {.id = "i1"};
    sc_error *err = NULL;
    int status = 0;
    canned_reply(204, NULL);
    ck_assert_int_eq(sc_items_remove(client, &req, NULL, &status, &err), SC_OK);
    ck_assert_int_eq(status, 204);
    canned_reply(200, NULL);
    ck_assert_int_eq(sc_items_remove(client, &req, NULL, &status, &err), SC_OK);
    ck_assert_int_eq(status, 200);
}
END_TEST

/* chat.create: JSON without stream, event-stream chunks with `"stream":true` in the body (as
 * OpenAI decides); the stream is also checked to be what the request accepts. */
static int chat_handler(void *userdata, const sdkrt_memory_request *req,
                        sdkrt_memory_response *resp)
{
    (void)userdata;
    const char *accept = NULL;
    for (size_t i = 0; i < req->header_count; i++)
        if (!strcasecmp(req->headers[i].name, "Accept"))
            accept = req->headers[i].value;
    char body[256] = "";
    if (req->body)
        snprintf(body, sizeof body, "%.*s", (int)req->body_len, (const char *)req->body);
    sdkrt_memory_response_set_status(resp, 200);
    if (strstr(body, "\"stream\":true") && accept && strstr(accept, "text/event-stream")) {
        static const char sse[] = "data: {\"delta\":\"Hel\"}\n\n: heartbeat\n\n"
                                  "data: {\"delta\":\"lo\"}\n\n";
        sdkrt_memory_response_add_header(resp, "Content-Type", "text/event-stream");
        sdkrt_memory_response_add_chunk(resp, sse, sizeof sse - 1);
    } else {
        static const char json[] = "{\"id\":\"c1\",\"text\":\"Hello\"}";
        sdkrt_memory_response_add_header(resp, "Content-Type", "application/json");
        sdkrt_memory_response_add_chunk(resp, json, sizeof json - 1);
    }
    return 0;
}

START_TEST(stream_variant)
{
    sc_chat_create_request req;
    memset(&req, 0, sizeof req);
    req.body.prompt = "hi";
    sc_completion *c = NULL;
    sc_error *err = NULL;
    ck_assert_int_eq(sc_chat_create(client, &req, NULL, &c, &err), SC_OK);
    ck_assert_str_eq(c->text, "Hello");
    sc_completion_free(c);

    /* the stream form sends `stream: true` itself: unset, or even set to false by the caller
       (whose request is left as it was) */
    for (int pass = 0; pass < 2; pass++) {
        req.body.has_stream = pass == 1;
        req.body.stream = false;
        sc_chat_create_stream *s = NULL;
        ck_assert_int_eq(sc_chat_create_stream_open(&s, client, &req, NULL, &err), SC_OK);
        const sc_chunk *chunk = NULL;
        char text[16] = "";
        while (sc_chat_create_stream_next(s, &chunk, &err) == SC_NEXT_ITEM)
            strncat(text, chunk->delta, sizeof text - strlen(text) - 1);
        ck_assert_msg(err == NULL, "%s", sc_error_message(err));
        ck_assert_str_eq(text, "Hello");
        sc_chat_create_stream_close(s);
        ck_assert_int_eq(req.body.has_stream, pass == 1);
        ck_assert(!req.body.stream);
    }
}
END_TEST

/* The request headers of the last call (copied). */
static char last_headers[1024];

static int header_handler(void *userdata, const sdkrt_memory_request *req,
                          sdkrt_memory_response *resp)
{
    (void)userdata;
    last_headers[0] = '\0';
    for (size_t i = 0; i < req->header_count; i++) {
        size_t n = strlen(last_headers);
        snprintf(last_headers + n, sizeof last_headers - n, "%s: %s\n", req->headers[i].name,
                 req->headers[i].value);
    }
    sdkrt_memory_response_set_status(resp, 204);
    return 0;
}

/* No security scheme in the contract: the configured credentials go on every operation, those
 * that declare a 401 and those that do not. */
START_TEST(unspecified_auth_everywhere)
{
    static const struct {
        sc_auth_kind kind;
        const char *want;
    } cases[] = {
        {SC_AUTH_BEARER, "Authorization: Bearer t0k\n"},
        {SC_AUTH_BASIC, "Authorization: Basic dTpw\n"},
        {SC_AUTH_API_KEY, "X-Api-Key: t0k\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        sdkrt_transport *t = NULL;
        sc_client *c = NULL;
        sc_error *err = NULL;
        ck_assert_int_eq(sdkrt_memory_transport_new(&t, header_handler, NULL), SDKRT_OK);
        sc_client_options o = SC_CLIENT_OPTIONS_INIT;
        o.base_url = "http://127.0.0.1:1";
        o.transport = t;
        o.auth = cases[i].kind;
        o.token = "t0k";
        o.username = "u";
        o.password = "p";
        o.api_key_header = "X-Api-Key";
        ck_assert_int_eq(sc_client_new(&c, &o, &err), SC_OK);
        sc_items_remove_request rm = {.id = "i1"};
        ck_assert_int_eq(sc_items_remove(c, &rm, NULL, NULL, &err), SC_OK);
        ck_assert_msg(strstr(last_headers, cases[i].want), "%s", last_headers);
        sc_reaction *r = NULL;
        ck_assert_int_eq(sc_reactions_create(c, NULL, &r, NULL, &err), SC_ERR);
        ck_assert_msg(strstr(last_headers, cases[i].want), "%s", last_headers);
        sc_error_free(err);
        sc_client_free(c);
        sdkrt_transport_free(t);
    }
}
END_TEST

static void queued_setup(void)
{
    memory_client_open(queued_handler);
}

static void chat_setup(void)
{
    memory_client_open(chat_handler);
}

int main(void)
{
    Suite *s = suite_create("successes");
    TCase *tc = tcase_create("canned");
    tcase_add_checked_fixture(tc, canned_setup, memory_client_close);
    tcase_add_test(tc, shared_type_says_status);
    tcase_add_test(tc, distinct_types_in_a_response);
    tcase_add_test(tc, no_content_either_way);
    suite_add_tcase(s, tc);
    TCase *tq = tcase_create("queued");
    tcase_add_checked_fixture(tq, queued_setup, memory_client_close);
    tcase_add_test(tq, bytes_member);
    suite_add_tcase(s, tq);
    TCase *tv = tcase_create("variant");
    tcase_add_checked_fixture(tv, chat_setup, memory_client_close);
    tcase_add_test(tv, stream_variant);
    suite_add_tcase(s, tv);
    TCase *ta = tcase_create("auth");
    tcase_add_test(ta, unspecified_auth_everywhere);
    suite_add_tcase(s, ta);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
