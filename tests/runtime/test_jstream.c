/* test_jstream.c - typed streams (sdkrt_jstream) over the in-memory transport, on hand-written
 * descriptors shaped like generated ones: items, and failure frames (event
 * effect/httpapi/stream/failure, data a Cause array). A cause the contract declares decodes into
 * the StreamFailure error's payload; a cause carrying an error the contract does not declare is
 * still the stream's failure (StreamFailure, NULL payload, the raw cause kept); failure data that
 * is not JSON is MALFORMED_RESPONSE. An item that does not decode is a poison item and the stream
 * goes on (sdkrt_jstream_next_poison), or MALFORMED_RESPONSE that ends it (sdkrt_jstream_next).
 * `data: [DONE]` (OpenAI's) ends the stream either way. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "sdkrt/follow.h"
#include "sdkrt/json.h"
#include "sdkrt/sdkrt.h"

/* ---- descriptors: item {id: string}; cause [{_tag: "Fail", error: {_tag: "KnownError",
 * message?: string}}] ---- */

static const sdkrt_jtype t_string = {
    .kind = SDKRT_JK_STRING, .name = "string", .size = sizeof(char *)};
static const sdkrt_jtype t_lit_fail = {
    .kind = SDKRT_JK_LITERAL, .name = "\"Fail\"", .size = 1, .literal = "\"Fail\""};
static const sdkrt_jtype t_lit_known = {
    .kind = SDKRT_JK_LITERAL, .name = "\"KnownError\"", .size = 1, .literal = "\"KnownError\""};

typedef struct item {
    char *id;
} item;
static const sdkrt_jfield item_fields[] = {
    {"id", &t_string, SDKRT_JF_REQUIRED, offsetof(item, id), SDKRT_JNONE, SDKRT_JNONE},
};
static const sdkrt_jtype t_item = {.kind = SDKRT_JK_OBJECT,
                                   .name = "Item",
                                   .size = sizeof(item),
                                   .fields = item_fields,
                                   .nfields = 1};

typedef struct known_error {
    bool has_message;
    char *message;
} known_error;
static const sdkrt_jfield known_fields[] = {
    {"_tag", &t_lit_known, SDKRT_JF_REQUIRED, SDKRT_JNONE, SDKRT_JNONE, SDKRT_JNONE},
    {"message", &t_string, 0, offsetof(known_error, message), offsetof(known_error, has_message),
     SDKRT_JNONE},
};
static const sdkrt_jtype t_known = {.kind = SDKRT_JK_OBJECT,
                                    .name = "KnownError",
                                    .size = sizeof(known_error),
                                    .fields = known_fields,
                                    .nfields = 2};

typedef struct fail_cause {
    known_error error;
} fail_cause;
static const sdkrt_jfield fail_fields[] = {
    {"_tag", &t_lit_fail, SDKRT_JF_REQUIRED, SDKRT_JNONE, SDKRT_JNONE, SDKRT_JNONE},
    {"error", &t_known, SDKRT_JF_REQUIRED, offsetof(fail_cause, error), SDKRT_JNONE, SDKRT_JNONE},
};
static const sdkrt_jtype t_fail = {.kind = SDKRT_JK_OBJECT,
                                   .name = "Fail",
                                   .size = sizeof(fail_cause),
                                   .fields = fail_fields,
                                   .nfields = 2};

typedef struct cause_list {
    fail_cause *items;
    size_t count;
} cause_list;
static const sdkrt_jtype t_cause_list = {
    .kind = SDKRT_JK_ARRAY, .name = "Cause", .size = sizeof(cause_list), .inner = &t_fail};

#define FAILURE_EVENT "effect/httpapi/stream/failure"

static const sdkrt_jop op_events = {"t.events", 200,   SDKRT_JENC_SSE, NULL,          NULL, NULL, 0,
                                    &t_item,    false, FAILURE_EVENT,  &t_cause_list, NULL, 0};
/* The same operation without a cause type: the payload is the raw json_t. */
static const sdkrt_jop op_events_untyped = {"t.events", 200,   SDKRT_JENC_SSE, NULL, NULL, NULL, 0,
                                            &t_item,    false, FAILURE_EVENT,  NULL, NULL, 0};

/* ---- an in-memory server that sends one item, then the scripted failure frame ---- */

typedef struct script {
    const char *failure_data; /* the data line of the failure frame */
} script;

static int stream_handler(void *ud, const sdkrt_memory_request *req, sdkrt_memory_response *resp)
{
    (void)req;
    const script *s = ud;
    static const char first[] = "data: {\"id\":\"a\"}\n\n";
    char failure[1024];
    snprintf(failure, sizeof failure, "event: " FAILURE_EVENT "\ndata: %s\n\n", s->failure_data);
    sdkrt_memory_response_set_status(resp, 200);
    sdkrt_memory_response_add_header(resp, "Content-Type", "text/event-stream");
    sdkrt_memory_response_add_chunk(resp, first, sizeof first - 1);
    sdkrt_memory_response_add_chunk(resp, failure, strlen(failure));
    return 0;
}

typedef struct fixture {
    script s;
    sdkrt_transport *t;
    sdkrt_client *c;
    sdkrt_request *req;
    sdkrt_jstream *js;
} fixture;

/* Open a typed stream over the scripted server and read its first item. */
static void fx_open(fixture *f, const sdkrt_jop *op, const char *failure_data)
{
    f->s.failure_data = failure_data;
    ck_assert_int_eq(sdkrt_memory_transport_new(&f->t, stream_handler, &f->s), SDKRT_OK);
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.base_url = "http://api.test";
    o.transport = f->t;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_new(&f->c, &o, &err), SDKRT_OK);
    ck_assert_int_eq(sdkrt_request_new(&f->req, "GET", "/events"), SDKRT_OK);
    ck_assert_int_eq(sdkrt_jstream_open(&f->js, f->c, f->req, NULL, op, &err), SDKRT_OK);
    const void *it = NULL;
    ck_assert_int_eq(sdkrt_jstream_next(f->js, &it, &err), SDKRT_STREAM_EVENT);
    ck_assert_str_eq(((const item *)it)->id, "a");
}

static void fx_close(fixture *f)
{
    sdkrt_jstream_close(f->js);
    sdkrt_request_free(f->req);
    sdkrt_client_free(f->c);
    sdkrt_transport_free(f->t);
}

/* The next call gives the failure; the one after it the end. */
static sdkrt_error *next_fails(fixture *f)
{
    const void *it = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_jstream_next(f->js, &it, &err), SDKRT_STREAM_ERROR);
    ck_assert_ptr_null(it);
    ck_assert_ptr_nonnull(err);
    sdkrt_error *none = NULL;
    ck_assert_int_eq(sdkrt_jstream_next(f->js, &it, &none), SDKRT_STREAM_END);
    ck_assert_ptr_null(none);
    return err;
}

START_TEST(declared_cause_is_decoded)
{
    fixture f;
    const char *data =
        "[{\"_tag\":\"Fail\",\"error\":{\"_tag\":\"KnownError\",\"message\":\"m\"}}]";
    fx_open(&f, &op_events, data);
    sdkrt_error *err = next_fails(&f);
    ck_assert_int_eq(sdkrt_error_kind(err), SDKRT_ERROR_DOMAIN);
    ck_assert_str_eq(sdkrt_error_tag(err), SDKRT_JSTREAM_FAILURE_TAG);
    ck_assert_int_eq(sdkrt_error_status(err), 200);
    const cause_list *cause = sdkrt_error_payload(err);
    ck_assert_ptr_nonnull(cause);
    ck_assert_uint_eq(cause->count, 1);
    ck_assert(cause->items[0].error.has_message);
    ck_assert_str_eq(cause->items[0].error.message, "m");
    json_t *want = json_loads(data, 0, NULL);
    ck_assert(json_equal(want, (json_t *)sdkrt_error_raw_payload(err)));
    json_decref(want);
    ck_assert_msg(strstr(sdkrt_error_message(err), "stream failed: Fail: KnownError") != NULL, "%s",
                  sdkrt_error_message(err));
    sdkrt_error_clear(&err);
    fx_close(&f);
}
END_TEST

START_TEST(undeclared_cause_is_a_stream_failure_with_the_raw_cause)
{
    fixture f;
    const char *data = "[{\"_tag\":\"Fail\",\"error\":{\"_tag\":\"SurpriseError\",\"n\":1}}]";
    fx_open(&f, &op_events, data);
    sdkrt_error *err = next_fails(&f);
    ck_assert_msg(sdkrt_error_kind(err) == SDKRT_ERROR_DOMAIN, "%s", sdkrt_error_message(err));
    ck_assert_str_eq(sdkrt_error_tag(err), SDKRT_JSTREAM_FAILURE_TAG);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_NONE);
    /* the generated _failure() accessor returns the payload: NULL, it did not decode */
    ck_assert_ptr_null(sdkrt_error_payload(err));
    const json_t *raw = sdkrt_error_raw_payload(err);
    ck_assert_ptr_nonnull(raw);
    json_t *want = json_loads(data, 0, NULL);
    ck_assert(json_equal(want, (json_t *)raw));
    json_decref(want);
    const char *m = sdkrt_error_message(err);
    ck_assert_msg(strstr(m, "t.events: stream failed: Fail: SurpriseError") == m, "%s", m);
    ck_assert_msg(strstr(m, "does not declare") != NULL, "%s", m);
    ck_assert_msg(strstr(m, "$[0].error._tag") != NULL, "%s", m);
    sdkrt_error_clear(&err);
    fx_close(&f);
}
END_TEST

START_TEST(die_cause_not_declared_is_kept_raw)
{
    fixture f;
    const char *data = "[{\"_tag\":\"Die\",\"defect\":\"boom\"}]";
    fx_open(&f, &op_events, data);
    sdkrt_error *err = next_fails(&f);
    ck_assert_str_eq(sdkrt_error_tag(err), SDKRT_JSTREAM_FAILURE_TAG);
    ck_assert_ptr_null(sdkrt_error_payload(err));
    ck_assert(json_is_array(sdkrt_error_raw_payload(err)));
    ck_assert_msg(strstr(sdkrt_error_message(err), "Die: \"boom\"") != NULL, "%s",
                  sdkrt_error_message(err));
    sdkrt_error_clear(&err);
    fx_close(&f);
}
END_TEST

START_TEST(untyped_cause_payload_is_the_json)
{
    fixture f;
    fx_open(&f, &op_events_untyped, "[{\"_tag\":\"Interrupt\"}]");
    sdkrt_error *err = next_fails(&f);
    ck_assert_str_eq(sdkrt_error_tag(err), SDKRT_JSTREAM_FAILURE_TAG);
    const json_t *payload = sdkrt_error_payload(err);
    ck_assert(json_is_array(payload));
    ck_assert_ptr_eq(payload, sdkrt_error_raw_payload(err));
    sdkrt_error_clear(&err);
    fx_close(&f);
}
END_TEST

START_TEST(failure_data_not_json_is_malformed)
{
    fixture f;
    fx_open(&f, &op_events, "{oops");
    sdkrt_error *err = next_fails(&f);
    ck_assert_int_eq(sdkrt_error_kind(err), SDKRT_ERROR_CLIENT);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_MALFORMED_RESPONSE);
    ck_assert_ptr_null(sdkrt_error_raw_payload(err));
    sdkrt_error_clear(&err);
    fx_close(&f);
}
END_TEST

START_TEST(failure_keeps_a_held_error)
{
    fixture f;
    fx_open(&f, &op_events, "[{\"_tag\":\"Interrupt\"}]");
    sdkrt_error *err = NULL;
    sdkrt_error_set(&err, SDKRT_REASON_TIMEOUT, "held");
    sdkrt_error *held = err;
    const void *it = NULL;
    ck_assert_int_eq(sdkrt_jstream_next(f.js, &it, &err), SDKRT_STREAM_ERROR);
    ck_assert_ptr_eq(err, held);
    ck_assert_str_eq(sdkrt_error_message(err), "held (TIMEOUT)");
    sdkrt_error_clear(&err);
    fx_close(&f);
}
END_TEST

/* ---- items that do not decode: good, poison, good ---- */

/* An item, an item whose id is a number (with a sequence in its JSON), an item. */
static int poison_handler(void *ud, const sdkrt_memory_request *req, sdkrt_memory_response *resp)
{
    (void)ud;
    (void)req;
    static const char body[] = "data: {\"id\":\"a\"}\n\n"
                               "data: {\"id\":5,\"seq\":7}\n\n"
                               "data: {\"id\":\"c\"}\n\n";
    sdkrt_memory_response_set_status(resp, 200);
    sdkrt_memory_response_add_header(resp, "Content-Type", "text/event-stream");
    sdkrt_memory_response_add_chunk(resp, body, sizeof body - 1);
    return 0;
}

static void open_poison(fixture *f)
{
    memset(f, 0, sizeof *f);
    ck_assert_int_eq(sdkrt_memory_transport_new(&f->t, poison_handler, NULL), SDKRT_OK);
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.base_url = "http://api.test";
    o.transport = f->t;
    ck_assert_int_eq(sdkrt_client_new(&f->c, &o, NULL), SDKRT_OK);
    ck_assert_int_eq(sdkrt_request_new(&f->req, "GET", "/events"), SDKRT_OK);
    ck_assert_int_eq(sdkrt_jstream_open(&f->js, f->c, f->req, NULL, &op_events, NULL), SDKRT_OK);
}

START_TEST(poison_is_delivered_and_the_stream_goes_on)
{
    fixture f;
    open_poison(&f);
    const void *it = NULL;
    sdkrt_jstream_poison p;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_jstream_next_poison(f.js, &it, &p, &err), SDKRT_STREAM_EVENT);
    ck_assert_str_eq(((const item *)it)->id, "a");
    ck_assert_ptr_null(p.json);
    ck_assert_int_eq(sdkrt_jstream_next_poison(f.js, &it, &p, &err), SDKRT_STREAM_POISON);
    ck_assert_ptr_null(it);
    ck_assert_ptr_null(err);
    ck_assert_str_eq(p.data, "{\"id\":5,\"seq\":7}");
    ck_assert_uint_eq(p.data_len, strlen(p.data));
    ck_assert_int_eq(json_integer_value(json_object_get(p.json, "id")), 5);
    static const char *const path[] = {"seq"};
    int64_t seq = 0;
    ck_assert(sdkrt_json_raw_int_at(p.json, path, 1, &seq));
    ck_assert_int_eq(seq, 7);
    ck_assert_int_eq(sdkrt_error_reason(p.error), SDKRT_REASON_MALFORMED_RESPONSE);
    ck_assert_msg(strstr(sdkrt_error_message(p.error), "$.id: expected string") != NULL, "%s",
                  sdkrt_error_message(p.error));
    ck_assert_int_eq(sdkrt_jstream_next_poison(f.js, &it, &p, &err), SDKRT_STREAM_EVENT);
    ck_assert_str_eq(((const item *)it)->id, "c");
    ck_assert_int_eq(sdkrt_jstream_next_poison(f.js, &it, &p, &err), SDKRT_STREAM_END);
    ck_assert_ptr_null(err);
    fx_close(&f);
}
END_TEST

START_TEST(strict_read_ends_at_the_poison)
{
    fixture f;
    open_poison(&f);
    const void *it = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_jstream_next(f.js, &it, &err), SDKRT_STREAM_EVENT);
    ck_assert_str_eq(((const item *)it)->id, "a");
    ck_assert_int_eq(sdkrt_jstream_next(f.js, &it, &err), SDKRT_STREAM_ERROR);
    ck_assert_ptr_null(it);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_MALFORMED_RESPONSE);
    ck_assert_msg(strstr(sdkrt_error_message(err), "$.id: expected string") != NULL, "%s",
                  sdkrt_error_message(err));
    sdkrt_error_clear(&err);
    ck_assert_int_eq(sdkrt_jstream_next(f.js, &it, &err), SDKRT_STREAM_END);
    ck_assert_ptr_null(err);
    fx_close(&f);
}
END_TEST

/* OpenAI ends its streams with `data: [DONE]`: the end, neither a malformed item nor a poison
 * one; nothing after it is read. */
static int done_handler(void *ud, const sdkrt_memory_request *req, sdkrt_memory_response *resp)
{
    (void)ud;
    (void)req;
    static const char body[] = "data: {\"id\":\"a\"}\n\ndata: [DONE]\n\ndata: {\"id\":\"b\"}\n\n";
    sdkrt_memory_response_set_status(resp, 200);
    sdkrt_memory_response_add_header(resp, "Content-Type", "text/event-stream");
    sdkrt_memory_response_add_chunk(resp, body, sizeof body - 1);
    return 0;
}

START_TEST(done_sentinel_ends_the_stream)
{
    fixture f;
    memset(&f, 0, sizeof f);
    ck_assert_int_eq(sdkrt_memory_transport_new(&f.t, done_handler, NULL), SDKRT_OK);
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.base_url = "http://api.test";
    o.transport = f.t;
    ck_assert_int_eq(sdkrt_client_new(&f.c, &o, NULL), SDKRT_OK);
    ck_assert_int_eq(sdkrt_request_new(&f.req, "POST", "/chat/completions"), SDKRT_OK);
    ck_assert_int_eq(sdkrt_jstream_open(&f.js, f.c, f.req, NULL, &op_events, NULL), SDKRT_OK);
    const void *it = NULL;
    sdkrt_jstream_poison p;
    sdkrt_error *err = NULL;
    /* _i == 0: the strict read; 1: the read that delivers poison */
    if (_i == 0)
        ck_assert_int_eq(sdkrt_jstream_next(f.js, &it, &err), SDKRT_STREAM_EVENT);
    else
        ck_assert_int_eq(sdkrt_jstream_next_poison(f.js, &it, &p, &err), SDKRT_STREAM_EVENT);
    ck_assert_str_eq(((const item *)it)->id, "a");
    for (int k = 0; k < 2; k++) {
        sdkrt_stream_result r = _i == 0 ? sdkrt_jstream_next(f.js, &it, &err)
                                        : sdkrt_jstream_next_poison(f.js, &it, &p, &err);
        ck_assert_int_eq(r, SDKRT_STREAM_END);
        ck_assert_ptr_null(it);
        ck_assert_ptr_null(err);
    }
    fx_close(&f);
}
END_TEST

static Suite *jstream_suite(void)
{
    Suite *s = suite_create("jstream");
    TCase *tc = tcase_create("failure");
    tcase_add_test(tc, declared_cause_is_decoded);
    tcase_add_test(tc, undeclared_cause_is_a_stream_failure_with_the_raw_cause);
    tcase_add_test(tc, die_cause_not_declared_is_kept_raw);
    tcase_add_test(tc, untyped_cause_payload_is_the_json);
    tcase_add_test(tc, failure_data_not_json_is_malformed);
    tcase_add_test(tc, failure_keeps_a_held_error);
    suite_add_tcase(s, tc);
    tc = tcase_create("poison");
    tcase_add_test(tc, poison_is_delivered_and_the_stream_goes_on);
    tcase_add_test(tc, strict_read_ends_at_the_poison);
    tcase_add_loop_test(tc, done_sentinel_ends_the_stream, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(jstream_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
