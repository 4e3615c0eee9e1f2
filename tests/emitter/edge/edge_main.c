/* The SDK generated from tests/emitter/data/edge.yaml (at build time): recursion by value is
 * boxed, colliding names get a suffix, an enum member and a union variant named "unknown" stay
 * distinct from the UNKNOWN member, nullable items, maps of arrays, JSON-string fields. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ed/ed.h"

static const char *node_json =
    "{\"id\":\"nod_2\",\"kind\":\"unknown\",\"parent\":{\"id\":\"nod_1\",\"kind\":\"mystery\","
    "\"parent\":{\"id\":\"nod_0\",\"kind\":\"leaf\"}},"
    "\"pair\":{\"b\":{\"a\":{\"b\":{\"flag\":true}}}},"
    "\"shape\":{\"type\":\"unknown\"},\"maybe\":[\"x\",null],\"groups\":{\"g\":[1,2]},"
    "\"payload\":\"{\\\"name\\\":\\\"n\\\",\\\"status\\\":3}\",\"point\":[1,2],\"title\":null}";

static void decode(ed_node *n, const char *text)
{
    json_t *j = json_loads(text, 0, NULL);
    ck_assert_ptr_nonnull(j);
    ed_error *err = NULL;
    memset(n, 0, sizeof *n);
    ck_assert_msg(ed_node_decode(n, j, NULL, &err) == ED_OK, "%s",
                  err ? sdkrt_error_message(err) : "");
    json_decref(j);
}

START_TEST(recursion_names_and_unknowns)
{
    ed_node n;
    decode(&n, node_json);
    ck_assert_int_eq(n.kind.value, ED_NODE_KIND_UNKNOWN);
    ck_assert(n.has_parent);
    ck_assert_int_eq(n.parent->kind.value, ED_NODE_KIND_UNKNOWN_VALUE);
    ck_assert_str_eq(n.parent->kind.unknown, "mystery");
    ck_assert_str_eq(n.parent->parent->id.value, "nod_0");
    ck_assert(!n.parent->parent->has_parent);
    ck_assert(n.pair.b.has_a && n.pair.b.a->b.has_flag && n.pair.b.a->b.flag);
    ck_assert_int_eq(n.shape.kind, ED_NODE_SHAPE_UNKNOWN);
    ck_assert_uint_eq(n.maybe.count, 2);
    ck_assert_str_eq(*n.maybe.items[0], "x");
    ck_assert_ptr_null(n.maybe.items[1]);
    ck_assert_uint_eq(n.groups.count, 1);
    ck_assert_int_eq(n.groups.values[0].items[1], 2);
    ck_assert(n.has_payload);
    ck_assert_str_eq(n.payload.name, "n");
    ck_assert_int_eq(n.payload.status, 3);
    ck_assert(n.has_title && n.title_null);
    ck_assert(json_is_array(n.point));
    /* The encoding decodes to the same encoding; the JSON string stays a string. */
    json_t *j = NULL;
    ed_error *err = NULL;
    ck_assert_int_eq(ed_node_encode(&n, &j, &err), ED_OK);
    ck_assert(json_is_string(json_object_get(j, "payload")));
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "parent"), "kind")),
                     "mystery");
    char *once = json_dumps(j, JSON_SORT_KEYS);
    ed_node m;
    decode(&m, once);
    json_t *j2 = NULL;
    ck_assert_int_eq(ed_node_encode(&m, &j2, &err), ED_OK);
    char *twice = json_dumps(j2, JSON_SORT_KEYS);
    ck_assert_str_eq(once, twice);
    free(once);
    free(twice);
    json_decref(j);
    json_decref(j2);
    ed_node_cleanup(&n);
    ed_node_cleanup(&m);
    ck_assert_ptr_null(n.parent);
}
END_TEST

START_TEST(paths_in_nested_errors)
{
    static const struct {
        const char *json, *msg;
    } cases[] = {
        {"{\"id\":\"nod_1\"}", "$.kind: missing required field"},
        {"{\"id\":\"nod_1\",\"kind\":\"leaf\",\"parent\":{\"id\":1,\"kind\":\"leaf\"}}",
         "$.parent.id: expected string, got integer"},
        {"{\"id\":\"n\",\"kind\":\"leaf\",\"groups\":{\"g\":[1,\"x\"]}}", "$.groups.g[1]"},
        {"{\"id\":\"n\",\"kind\":\"leaf\",\"payload\":\"{not json\"}", "$.payload"},
        {"{\"id\":\"n\",\"kind\":\"leaf\",\"pair\":{\"b\":{\"a\":{}}}}", "$.pair.b.a.b"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        json_t *j = json_loads(cases[i].json, 0, NULL);
        ck_assert_ptr_nonnull(j);
        ed_node n;
        memset(&n, 0, sizeof n);
        ed_error *err = NULL;
        ck_assert_int_eq(ed_node_decode(&n, j, NULL, &err), ED_ERR);
        ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_MALFORMED_RESPONSE);
        ck_assert_msg(strstr(sdkrt_error_message(err), cases[i].msg) != NULL, "%zu: %s", i,
                      sdkrt_error_message(err));
        ck_assert_ptr_null(n.parent);
        sdkrt_error_free(err);
        json_decref(j);
    }
}
END_TEST

/* The contract's first server is the default base URL; retries and idempotency keys come with
 * the generated options (typedefs of the runtime's). */
static int attempts;
static int flaky(void *ud, const ed_memory_request *req, ed_memory_response *resp)
{
    (void)ud;
    ck_assert_str_eq(req->url, "https://eu.edge.test/v1/api/node/nod_1");
    if (attempts++ == 0) {
        sdkrt_memory_response_set_status(resp, 503);
        sdkrt_memory_response_add_header(resp, "Retry-After", "0");
        return 0;
    }
    static const char body[] = "{\"data\":{\"id\":\"nod_1\",\"kind\":\"leaf\",\"pair\":{\"b\":{}},"
                               "\"shape\":{\"type\":\"unknown\"},\"maybe\":[],\"groups\":{},"
                               "\"payload\":\"{\\\"name\\\":\\\"n\\\",\\\"status\\\":3}\","
                               "\"point\":[1,2],\"title\":null}}";
    sdkrt_memory_response_set_status(resp, 200);
    sdkrt_memory_response_add_header(resp, "Content-Type", "application/json");
    sdkrt_memory_response_add_chunk(resp, body, sizeof body - 1);
    return 0;
}

START_TEST(default_base_url_and_retries)
{
    ck_assert_str_eq(ED_DEFAULT_BASE_URL, "https://eu.edge.test/v1");
    ed_client *c = NULL;
    ed_error *err = NULL;
    ck_assert_int_eq(ed_client_new(&c, NULL, &err), ED_OK);
    ck_assert_str_eq(sdkrt_client_base_url(c), "https://eu.edge.test/v1");
    ed_client_free(c);
    ed_transport *t = NULL;
    ck_assert_int_eq(sdkrt_memory_transport_new(&t, flaky, NULL), SDKRT_OK);
    ed_client_options o = ED_CLIENT_OPTIONS_INIT;
    o.transport = t;
    o.retry.max_attempts = 2;
    ck_assert_int_eq(ed_client_new(&c, &o, &err), ED_OK);
    ed_node_get_request req = {{"nod_1"}, false, {NULL, 0}};
    ed_node *n = NULL;
    ck_assert_msg(ed_node_get(c, &req, NULL, &n, &err) == ED_OK, "%s",
                  err ? sdkrt_error_message(err) : "");
    ck_assert_int_eq(attempts, 2);
    ck_assert_str_eq(n->id.value, "nod_1");
    ed_node_free(n);
    /* a call's own policy: one attempt */
    attempts = 0;
    ed_retry_policy once = ED_RETRY_POLICY_INIT;
    once.max_attempts = 1;
    ed_call_options call = ED_CALL_OPTIONS_INIT;
    call.retry = &once;
    call.idempotency_key = ED_IDEMPOTENCY_AUTO;
    ck_assert_int_eq(ed_node_get(c, &req, &call, &n, &err), ED_ERR);
    ck_assert_int_eq(attempts, 1);
    ck_assert_int_eq(sdkrt_error_status(err), 503);
    ed_error_free(err);
    ed_client_free(c);
    sdkrt_transport_free(t);
}
END_TEST

/* POST /api/order: 503 first, then 201; records the key and the Authorization of each attempt. */
static char order_keys[4][64], order_auth[4][64];
static int order_attempts;
static int order_server(void *ud, const ed_memory_request *req, ed_memory_response *resp)
{
    (void)ud;
    int i = order_attempts < 4 ? order_attempts : 3;
    order_keys[i][0] = order_auth[i][0] = '\0';
    for (size_t h = 0; h < req->header_count; h++) {
        if (strcmp(req->headers[h].name, "Idempotency-Key") == 0)
            snprintf(order_keys[i], sizeof order_keys[i], "%s", req->headers[h].value);
        if (strcmp(req->headers[h].name, "Authorization") == 0)
            snprintf(order_auth[i], sizeof order_auth[i], "%s", req->headers[h].value);
    }
    sdkrt_memory_response_set_status(resp, order_attempts++ == 0 ? 503 : 201);
    return 0;
}

/* The contract declares Idempotency-Key on a POST: a key is generated and kept across the
 * default retries; the client from the environment takes the bearer scheme's token. */
START_TEST(declared_idempotency_key_and_env)
{
    ed_transport *t = NULL;
    ck_assert_int_eq(sdkrt_memory_transport_new(&t, order_server, NULL), SDKRT_OK);
    setenv("ED_BEARER_AUTH_TOKEN", "tok-env", 1);
    unsetenv("ED_BASE_URL");
    ed_client_options o = ED_CLIENT_OPTIONS_INIT;
    o.transport = t;
    ed_client *c = NULL;
    ed_error *err = NULL;
    ck_assert_int_eq(ed_client_new_from_env(&c, &o, &err), ED_OK);
    ck_assert_str_eq(sdkrt_client_base_url(c), "https://eu.edge.test/v1");
    ck_assert_msg(ed_order_create(c, NULL, NULL, &err) == ED_OK, "%s",
                  err ? sdkrt_error_message(err) : "");
    ck_assert_int_eq(order_attempts, 2);
    ck_assert_int_eq((int)strlen(order_keys[0]), 36);
    ck_assert_str_eq(order_keys[1], order_keys[0]);
    ck_assert_str_eq(order_auth[0], "Bearer tok-env");
    /* the caller's key, as the parameter */
    order_attempts = 0;
    ed_order_create_request req = {true, "mine"};
    ck_assert_int_eq(ed_order_create(c, &req, NULL, &err), ED_OK);
    ck_assert_int_eq(order_attempts, 2);
    ck_assert_str_eq(order_keys[0], "mine");
    ck_assert_str_eq(order_keys[1], "mine");
    ed_client_free(c);
    sdkrt_transport_free(t);
    unsetenv("ED_BEARER_AUTH_TOKEN");
}
END_TEST

/* Enum values that differ only by case are two members, each decoded and encoded as itself. */
START_TEST(enum_values_differ_by_case)
{
    ed_node n;
    decode(&n, "{\"id\":\"nod_1\",\"kind\":\"leaf\",\"sort\":\"A\"}");
    ck_assert(n.has_sort);
    ck_assert_int_eq(n.sort.value, ED_NODE_SORT_A_2);
    ck_assert_str_eq(ed_node_sort_wire(&n.sort), "A");
    json_t *j = NULL;
    ed_error *err = NULL;
    ck_assert_int_eq(ed_node_encode(&n, &j, &err), ED_OK);
    ck_assert_str_eq(json_string_value(json_object_get(j, "sort")), "A");
    json_decref(j);
    ed_node_cleanup(&n);
    decode(&n, "{\"id\":\"nod_1\",\"kind\":\"leaf\",\"sort\":\"a\"}");
    ck_assert_int_eq(n.sort.value, ED_NODE_SORT_A);
    ck_assert_ptr_null(n.sort.unknown);
    ed_node_cleanup(&n);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("edge");
    TCase *tc = tcase_create("values");
    tcase_add_test(tc, recursion_names_and_unknowns);
    tcase_add_test(tc, paths_in_nested_errors);
    tcase_add_test(tc, default_base_url_and_retries);
    tcase_add_test(tc, declared_idempotency_key_and_env);
    tcase_add_test(tc, enum_values_differ_by_case);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
