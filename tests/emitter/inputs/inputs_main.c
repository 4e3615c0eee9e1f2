/* The SDK generated from tests/emitter/data/inputs.yaml (at build time): requests take input
 * twins whose pointers are const, so a caller lends string literals and values it only reads
 * without a cast. This file is compiled with -Wcast-qual -Wwrite-strings -Werror: with the
 * plain value types (char *) in requests it does not build. The twins are encoded with the value
 * types' descriptors; the wire must be exactly what the plain values would give. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "../memory_client.h"
#include "ip/ip.h"

static char *seen_target;
static char *seen_trace;
static char *seen_type;
static char *seen_text;
static json_t *seen_body;
static char *seen_bytes; /* the body as sent, seen_len bytes */
static size_t seen_len;

static int handler(void *userdata, const sdkrt_memory_request *req, sdkrt_memory_response *resp)
{
    (void)userdata;
    free(seen_target);
    free(seen_trace);
    free(seen_type);
    free(seen_text);
    json_decref(seen_body);
    seen_target = strdup(req->target);
    seen_trace = seen_type = NULL;
    for (size_t i = 0; i < req->header_count; i++) {
        if (!strcmp(req->headers[i].name, "X-Trace") ||
            !strcmp(req->headers[i].name, "X-Amz-Target"))
            seen_trace = strdup(req->headers[i].value);
        if (!strcasecmp(req->headers[i].name, "Content-Type"))
            seen_type = strdup(req->headers[i].value);
    }
    seen_text = strndup(req->body ? (const char *)req->body : "", req->body_len);
    free(seen_bytes);
    seen_bytes = malloc(req->body_len + 1);
    if (seen_bytes && req->body_len)
        memcpy(seen_bytes, req->body, req->body_len);
    seen_len = req->body_len;
    seen_body = req->body ? json_loadb(req->body, req->body_len, 0, NULL) : NULL;
    if (!strcmp(req->target, "/forms") || !strncmp(req->target, "/uploads", 8) ||
        !strncmp(req->target, "/ns/", 4) || !strcmp(req->target, "/")) {
        sdkrt_memory_response_set_status(resp, 204);
        return 0;
    }
    if (!strcmp(req->target, "/accounts")) { /* read-only fields come back, write-only do not */
        static const char account[] = "{\"id\":\"a1\",\"name\":\"n\",\"created\":5}";
        sdkrt_memory_response_set_status(resp, 200);
        sdkrt_memory_response_add_header(resp, "Content-Type", "application/json");
        sdkrt_memory_response_add_chunk(resp, account, sizeof account - 1);
        return 0;
    }
    static const char reply[] = "{\"name\":\"stored\"}";
    sdkrt_memory_response_set_status(resp, 200);
    sdkrt_memory_response_add_header(resp, "Content-Type", "application/json");
    sdkrt_memory_response_add_chunk(resp, reply, sizeof reply - 1);
    return 0;
}

static void setup(void)
{
    memory_client_open(handler);
}

static void teardown(void)
{
    memory_client_close();
    free(seen_target);
    free(seen_trace);
    free(seen_type);
    free(seen_text);
    json_decref(seen_body);
    free(seen_bytes);
    seen_target = seen_trace = seen_type = seen_text = seen_bytes = NULL;
    seen_body = NULL;
}

static void assert_body(const char *want_text)
{
    json_t *want = json_loads(want_text, 0, NULL);
    ck_assert_ptr_nonnull(want);
    ck_assert_ptr_nonnull(seen_body);
    char *got = json_dumps(seen_body, JSON_SORT_KEYS | JSON_COMPACT);
    ck_assert_msg(json_equal(want, seen_body), "body %s", got);
    free(got);
    json_decref(want);
}

/* Borrowed everywhere: literals, const arrays, a const parent, a const raw JSON value. */
START_TEST(every_shape_from_const_data)
{
    const char *const keys[] = {"env", "team"};
    const char *const values[] = {"prod", "core"};
    const int64_t seven = 7;
    const int64_t *const scores[] = {&seven, NULL};
    const char *const tags[] = {"a b", "c"};
    json_t *extra = json_pack("{s:i}", "deep", 1);
    const json_t *borrowed = extra;

    ip_node_input parent = {.name = "root"};
    ip_node_input leaf = {.name = "leaf", .has_size = true, .size = 3};
    ip_node_input child = {.name = "child"};
    child.has_shape = true;
    child.shape.kind = IP_SHAPE_SQUARE;
    child.shape.u.square.side = 2;
    child.shape.u.square.label = "sq";
    child.has_children = true;
    child.children.items = &leaf;
    child.children.count = 1;

    ip_trees_put_request req = {0};
    req.tree_id.value = "tre_1";
    req.has_tags = true;
    req.tags.items = tags;
    req.tags.count = 2;
    req.has_mode = true;
    req.mode.value = IP_MODE_SLOW;
    req.has_x_trace = true;
    req.x_trace = "trace-1";
    req.body.name = "top";
    req.body.has_note = true;
    req.body.note_null = true;
    req.body.has_labels = true;
    req.body.labels.keys = keys;
    req.body.labels.values = values;
    req.body.labels.count = 2;
    req.body.has_scores = true;
    req.body.scores.items = scores;
    req.body.scores.count = 2;
    req.body.has_children = true;
    req.body.children.items = &child;
    req.body.children.count = 1;
    req.body.has_parent = true;
    req.body.parent = &parent;
    req.body.has_extra = true;
    req.body.extra = borrowed;
    req.body.has_mode = true;
    req.body.mode.value = IP_MODE_UNKNOWN;
    req.body.mode.unknown = "turbo"; /* an enum value this SDK does not know, sent as given */

    ip_node *out = NULL;
    ip_error *err = NULL;
    ck_assert_int_eq(ip_trees_put(client, &req, NULL, &out, &err), IP_OK);
    ck_assert_ptr_null(err);
    ck_assert_str_eq(out->name, "stored");
    ip_node_free(out);

    ck_assert_str_eq(seen_target, "/trees/tre_1?tags=a%20b&tags=c&mode=slow");
    ck_assert_ptr_nonnull(seen_trace);
    ck_assert_str_eq(seen_trace, "trace-1");
    assert_body("{\"name\":\"top\",\"note\":null,\"labels\":{\"env\":\"prod\",\"team\":\"core\"},"
                "\"scores\":[7,null],\"children\":[{\"name\":\"child\",\"shape\":{\"kind\":"
                "\"square\",\"side\":2,\"label\":\"sq\"},\"children\":[{\"name\":\"leaf\","
                "\"size\":3}]}],\"parent\":{\"name\":\"root\"},\"extra\":{\"deep\":1},"
                "\"mode\":\"turbo\"}");
    json_decref(extra);
}
END_TEST

/* Nothing the caller lends is written: const data in read-only storage survives the call. */
START_TEST(static_const_request)
{
    static const ip_node_input leaf = {.name = "leaf"};
    static const ip_trees_put_request req = {
        .tree_id = {.value = "tre_2"},
        .body = {.name = "top", .has_children = true, .children = {.items = &leaf, .count = 1}},
    };
    ip_node *out = NULL;
    ip_error *err = NULL;
    ck_assert_int_eq(ip_trees_put(client, &req, NULL, &out, &err), IP_OK);
    ip_node_free(out);
    ck_assert_str_eq(seen_target, "/trees/tre_2");
    assert_body("{\"name\":\"top\",\"children\":[{\"name\":\"leaf\"}]}");
}
END_TEST

/* A NULL where the contract requires a string is a client error, not a crash. */
START_TEST(null_required_string_is_an_error)
{
    ip_trees_put_request req = {0};
    req.tree_id.value = "tre_3";
    req.body.name = "top";
    ip_node_input child = {0}; /* name left NULL */
    req.body.has_children = true;
    req.body.children.items = &child;
    req.body.children.count = 1;
    ip_node *out = NULL;
    ip_error *err = NULL;
    ck_assert_int_eq(ip_trees_put(client, &req, NULL, &out, &err), IP_ERR);
    ck_assert_ptr_null(out);
    ck_assert_int_eq(ip_error_reason(err), IP_REASON_INVALID_ARGUMENT);
    ck_assert_msg(strstr(ip_error_message(err), "children[0]") != NULL, "%s",
                  ip_error_message(err));
    ip_error_free(err);
}
END_TEST

/* An operation that accepts several media types sends JSON (a concrete type, though a range is
 * listed first) unless the caller chooses another declared one; an undeclared choice is refused
 * before anything is sent. */
START_TEST(body_media_type_choice)
{
    const char *const tags[] = {"x", "y z"};
    ip_forms_post_request req = {0};
    req.body.name = "a&b";
    req.body.has_tags = true;
    req.body.tags.items = tags;
    req.body.tags.count = 2;
    ip_error *err = NULL;
    ck_assert_int_eq(ip_forms_post(client, &req, NULL, &err), IP_OK);
    ck_assert_str_eq(seen_type, "application/json");
    assert_body("{\"name\":\"a&b\",\"tags\":[\"x\",\"y z\"]}");

    req.body_media_type = "application/x-www-form-urlencoded";
    ck_assert_int_eq(ip_forms_post(client, &req, NULL, &err), IP_OK);
    ck_assert_str_eq(seen_type, "application/x-www-form-urlencoded");
    ck_assert_str_eq(seen_text, "name=a%26b&tags=x&tags=y%20z");

    req.body_media_type = "application/*+json"; /* a media range is no Content-Type */
    ck_assert_int_eq(ip_forms_post(client, &req, NULL, &err), IP_ERR);
    ip_error_clear(&err);

    req.body_media_type = "application/json"; /* the default, named */
    ck_assert_int_eq(ip_forms_post(client, &req, NULL, &err), IP_OK);
    ck_assert_str_eq(seen_type, "application/json");

    free(seen_target);
    seen_target = NULL;
    req.body_media_type = "application/xml";
    ck_assert_int_eq(ip_forms_post(client, &req, NULL, &err), IP_ERR);
    ck_assert_ptr_null(seen_target); /* nothing was sent */
    ck_assert_int_eq(ip_error_reason(err), IP_REASON_INVALID_ARGUMENT);
    ck_assert_str_eq(ip_error_message(err),
                     "forms.post: body media type 'application/xml' is not one the operation "
                     "accepts (INVALID_ARGUMENT)");
    ip_error_clear(&err);
}
END_TEST

static bool seen_has(const void *needle, size_t n)
{
    for (size_t i = 0; seen_bytes && i + n <= seen_len; i++) {
        if (!memcmp(seen_bytes + i, needle, n))
            return true;
    }
    return false;
}

/* A binary body is a blob: bytes with NULs from memory, or a file's content. */
START_TEST(binary_body_from_a_blob)
{
    static const unsigned char bytes[] = {0x00, 0xff, 'a', 0x00, '\n'};
    ip_uploads_put_request req = {0};
    req.name = "a b";
    req.body.data = bytes;
    req.body.len = sizeof bytes;
    ip_error *err = NULL;
    ck_assert_msg(ip_uploads_put(client, &req, NULL, &err) == IP_OK, "%s", ip_error_message(err));
    ck_assert_str_eq(seen_target, "/uploads/a%20b");
    ck_assert_str_eq(seen_type, "application/octet-stream");
    ck_assert_uint_eq(seen_len, sizeof bytes);
    ck_assert(!memcmp(seen_bytes, bytes, sizeof bytes));

    char path[] = "/tmp/sdkc-blob-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "wb");
    ck_assert_ptr_nonnull(f);
    fwrite("\0file\0", 1, 6, f);
    fclose(f);
    ip_uploads_put_request from_file = {0};
    from_file.name = "f";
    from_file.body.path = path;
    from_file.body.content_type = "image/png"; /* the blob's own type wins */
    ck_assert_int_eq(ip_uploads_put(client, &from_file, NULL, &err), IP_OK);
    ck_assert_str_eq(seen_type, "image/png");
    ck_assert_uint_eq(seen_len, 6);
    ck_assert(!memcmp(seen_bytes, "\0file\0", 6));
    unlink(path);
    from_file.body.path = path; /* gone now: a client error, nothing sent */
    ck_assert_int_eq(ip_uploads_put(client, &from_file, NULL, &err), IP_ERR);
    ck_assert_ptr_nonnull(err);
    ip_error_clear(&err);
}
END_TEST

/* Multipart file parts come from blobs (body_files), the other properties from the body; a
 * required file part with no blob is the body's string. */
START_TEST(multipart_file_parts_from_blobs)
{
    static const unsigned char png[] = {0x89, 'P', 'N', 'G', 0x00, 0x01};
    ip_uploads_post_request req = {0};
    req.body.title = "holiday";
    req.body_files.file.data = png;
    req.body_files.file.len = sizeof png;
    req.body_files.file.filename = "me.png";
    req.body_files.file.content_type = "image/png";
    ip_error *err = NULL;
    ck_assert_msg(ip_uploads_post(client, &req, NULL, &err) == IP_OK, "%s", ip_error_message(err));
    ck_assert_ptr_nonnull(seen_type);
    ck_assert_msg(!strncmp(seen_type, "multipart/form-data; boundary=", 30), "%s", seen_type);
    static const char title[] = "Content-Disposition: form-data; name=\"title\"\r\n\r\nholiday\r\n";
    ck_assert_msg(seen_has(title, sizeof title - 1), "%.*s", (int)seen_len, seen_bytes);
    static const char file[] = "Content-Disposition: form-data; name=\"file\"; filename=\"me.png\"";
    ck_assert(seen_has(file, sizeof file - 1));
    ck_assert(seen_has("Content-Type: image/png", 23));
    ck_assert(seen_has(png, sizeof png));
    static const char thumb[] = "name=\"thumb\"";
    ck_assert(!seen_has(thumb, sizeof thumb - 1)); /* optional, not set: not sent */

    /* no blob for the required file: the body's string is the part */
    ip_uploads_post_request text = {0};
    text.body.title = "t";
    text.body.file = "plain text";
    ck_assert_int_eq(ip_uploads_post(client, &text, NULL, &err), IP_OK);
    static const char part[] = "name=\"file\"\r\n\r\nplain text\r\n";
    ck_assert_msg(seen_has(part, sizeof part - 1), "%.*s", (int)seen_len, seen_bytes);
}
END_TEST

/* A parameter whose schema allows one value (a single-value enum) has nothing to set, and is
 * still sent: required ones always, optional ones when has_x. They used to be left out. */
START_TEST(single_value_parameters_are_sent)
{
    ip_items_list_request req = {0};
    ip_error *err = NULL;
    ck_assert_msg(ip_items_list(client, &req, NULL, &err) == IP_OK, "%s", ip_error_message(err));
    ck_assert_str_eq(seen_target, "/ns/Microsoft.Management/items?fields=%2A");
    req.has_showall = true;
    ck_assert_int_eq(ip_items_list(client, &req, NULL, &err), IP_OK);
    ck_assert_str_eq(seen_target, "/ns/Microsoft.Management/items?fields=%2A&showall=true");
}
END_TEST

/* A path key with a fragment ("/#X-Amz-Target=...", as converted AWS contracts write them) is
 * sent without it: a fragment never goes on the wire. */
START_TEST(path_fragment_is_not_sent)
{
    ip_aws_do_request req = {0};
    ip_error *err = NULL;
    ck_assert_msg(ip_aws_do(client, &req, NULL, &err) == IP_OK, "%s", ip_error_message(err));
    ck_assert_str_eq(seen_target, "/");
    ck_assert_ptr_nonnull(seen_trace);
    ck_assert_str_eq(seen_trace, "Service.Do");
}
END_TEST

/* readOnly fields are left out of a request (required binds responses only), writeOnly fields
 * may be absent from a response (required binds requests only). */
START_TEST(read_only_and_write_only_fields)
{
    ip_accounts_create_request req = {0};
    req.body.id = "set by the server";
    req.body.name = "n";
    req.body.password = "secret";
    req.body.created = 9;
    ip_account *out = NULL;
    ip_error *err = NULL;
    ck_assert_msg(ip_accounts_create(client, &req, NULL, &out, &err) == IP_OK, "%s",
                  ip_error_message(err));
    assert_body("{\"name\":\"n\",\"password\":\"secret\"}");
    ck_assert_str_eq(out->id, "a1");
    ck_assert_int_eq(out->created, 5);
    ck_assert_ptr_null(out->password);
    ip_account_free(out);
    /* the value's own encoder keeps every field */
    char id[] = "a2", name[] = "m", password[] = "p";
    ip_account whole = {.id = id, .name = name, .password = password, .created = 1};
    json_t *j = NULL;
    ck_assert_int_eq(ip_account_encode(&whole, &j, &err), IP_OK);
    ck_assert_str_eq(json_string_value(json_object_get(j, "id")), "a2");
    ck_assert_int_eq(json_integer_value(json_object_get(j, "created")), 1);
    json_decref(j);
}
END_TEST

/* The contract's own NodeIn keeps the name node_in; Node's twin is node_input. */
START_TEST(twin_names_yield_to_contract_names)
{
    ip_node_in mine = {.has_x = true, .x = 1};
    ck_assert(mine.has_x);
    ck_assert_uint_eq(sizeof(ip_node_input), sizeof(ip_node));
    ck_assert_uint_eq(sizeof(ip_shape_in), sizeof(ip_shape));
    ck_assert_uint_eq(sizeof(ip_tree_id_tre_in), sizeof(ip_tree_id_tre));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("emitter_inputs");
    TCase *tc = tcase_create("inputs");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, every_shape_from_const_data);
    tcase_add_test(tc, static_const_request);
    tcase_add_test(tc, null_required_string_is_an_error);
    tcase_add_test(tc, twin_names_yield_to_contract_names);
    tcase_add_test(tc, body_media_type_choice);
    tcase_add_test(tc, binary_body_from_a_blob);
    tcase_add_test(tc, multipart_file_parts_from_blobs);
    tcase_add_test(tc, single_value_parameters_are_sent);
    tcase_add_test(tc, path_fragment_is_not_sent);
    tcase_add_test(tc, read_only_and_write_only_fields);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
