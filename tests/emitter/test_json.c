/* The table-driven JSON helpers of libsdkrt (sdkrt/json.h) on hand-written descriptors shaped
 * like generated ones: decode, encode, cleanup, JSON paths in errors, unknown enum values and
 * union variants, nullable and optional fields, boxed recursion. */
#include <check.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sdkrt/json.h"

typedef struct color {
    int value;
    char *unknown;
} color;
static const char *const color_values[] = {"red", "green"};
static const sdkrt_jtype t_color = {.kind = SDKRT_JK_ENUM,
                                    .name = "Color",
                                    .size = sizeof(color),
                                    .values = color_values,
                                    .nvalues = 2};
static const sdkrt_jtype t_string = {
    .kind = SDKRT_JK_STRING, .name = "string", .size = sizeof(char *)};
static const sdkrt_jtype t_int = {
    .kind = SDKRT_JK_INTEGER, .name = "integer", .size = sizeof(int64_t)};
static const sdkrt_jtype t_num = {
    .kind = SDKRT_JK_NUMBER, .name = "number", .size = sizeof(double)};
static const sdkrt_jtype t_any = {.kind = SDKRT_JK_ANY, .name = "any", .size = sizeof(json_t *)};
static const sdkrt_jtype t_lit_text = {
    .kind = SDKRT_JK_LITERAL, .name = "\"text\"", .size = 1, .literal = "\"text\""};
static const sdkrt_jtype t_lit_file = {
    .kind = SDKRT_JK_LITERAL, .name = "\"file\"", .size = 1, .literal = "\"file\""};

typedef struct time_info {
    double created;
    bool has_updated;
    double updated;
} time_info;
static const sdkrt_jfield time_fields[] = {
    {"created", &t_num, SDKRT_JF_REQUIRED, offsetof(time_info, created), SDKRT_JNONE, SDKRT_JNONE},
    {"updated", &t_num, 0, offsetof(time_info, updated), offsetof(time_info, has_updated),
     SDKRT_JNONE},
};
static const sdkrt_jtype t_time = {.kind = SDKRT_JK_OBJECT,
                                   .name = "Time",
                                   .size = sizeof(time_info),
                                   .fields = time_fields,
                                   .nfields = 2};

typedef struct string_list {
    char **items;
    size_t count;
} string_list;
static const sdkrt_jtype t_string_list = {
    .kind = SDKRT_JK_ARRAY, .name = "string[]", .size = sizeof(string_list), .inner = &t_string};

typedef struct text_part {
    char *text;
} text_part;
static const sdkrt_jfield text_fields[] = {
    {"type", &t_lit_text, SDKRT_JF_REQUIRED, SDKRT_JNONE, SDKRT_JNONE, SDKRT_JNONE},
    {"text", &t_string, SDKRT_JF_REQUIRED, offsetof(text_part, text), SDKRT_JNONE, SDKRT_JNONE},
};
static const sdkrt_jtype t_text = {.kind = SDKRT_JK_OBJECT,
                                   .name = "TextPart",
                                   .size = sizeof(text_part),
                                   .fields = text_fields,
                                   .nfields = 2};
typedef struct file_part {
    int64_t size;
} file_part;
static const sdkrt_jfield file_fields[] = {
    {"type", &t_lit_file, SDKRT_JF_REQUIRED, SDKRT_JNONE, SDKRT_JNONE, SDKRT_JNONE},
    {"size", &t_int, SDKRT_JF_REQUIRED, offsetof(file_part, size), SDKRT_JNONE, SDKRT_JNONE},
};
static const sdkrt_jtype t_file = {.kind = SDKRT_JK_OBJECT,
                                   .name = "FilePart",
                                   .size = sizeof(file_part),
                                   .fields = file_fields,
                                   .nfields = 2};
typedef struct part {
    int kind;
    json_t *unknown;
    union {
        text_part text;
        file_part file;
    } u;
} part;
static const sdkrt_jvariant part_variants[] = {{"text", &t_text, 0}, {"file", &t_file, 0}};
static const sdkrt_jtype t_part = {.kind = SDKRT_JK_UNION,
                                   .name = "Part",
                                   .size = sizeof(part),
                                   .variants = part_variants,
                                   .nvariants = 2,
                                   .discriminator = "type",
                                   .value_offset = offsetof(part, u)};
typedef struct part_list {
    part *items;
    size_t count;
} part_list;
static const sdkrt_jtype t_part_list = {
    .kind = SDKRT_JK_ARRAY, .name = "Part[]", .size = sizeof(part_list), .inner = &t_part};

typedef struct string_map {
    char **keys;
    char **values;
    size_t count;
} string_map;
static const sdkrt_jtype t_string_map = {
    .kind = SDKRT_JK_MAP, .name = "map", .size = sizeof(string_map), .inner = &t_string};

typedef struct node node;
typedef struct node_list {
    node *items;
    size_t count;
} node_list;
struct node {
    char *id;
    bool has_parent;
    bool parent_null;
    node *parent; /* boxed */
    bool has_title;
    bool title_null;
    char *title;
    time_info time;
    bool has_color;
    color color;
    bool has_tags;
    string_list tags;
    bool has_parts;
    part_list parts;
    bool has_meta;
    string_map meta;
    bool has_extra;
    json_t *extra;
};
extern const sdkrt_jtype t_node;
static const sdkrt_jfield node_fields[] = {
    {"id", &t_string, SDKRT_JF_REQUIRED, offsetof(node, id), SDKRT_JNONE, SDKRT_JNONE},
    {"parent", &t_node, SDKRT_JF_BOXED, offsetof(node, parent), offsetof(node, has_parent),
     offsetof(node, parent_null)},
    {"title", &t_string, 0, offsetof(node, title), offsetof(node, has_title),
     offsetof(node, title_null)},
    {"time", &t_time, SDKRT_JF_REQUIRED, offsetof(node, time), SDKRT_JNONE, SDKRT_JNONE},
    {"color", &t_color, 0, offsetof(node, color), offsetof(node, has_color), SDKRT_JNONE},
    {"tags", &t_string_list, 0, offsetof(node, tags), offsetof(node, has_tags), SDKRT_JNONE},
    {"parts", &t_part_list, 0, offsetof(node, parts), offsetof(node, has_parts), SDKRT_JNONE},
    {"meta", &t_string_map, 0, offsetof(node, meta), offsetof(node, has_meta), SDKRT_JNONE},
    {"extra", &t_any, 0, offsetof(node, extra), offsetof(node, has_extra), SDKRT_JNONE},
};
const sdkrt_jtype t_node = {.kind = SDKRT_JK_OBJECT,
                            .name = "Node",
                            .size = sizeof(node),
                            .fields = node_fields,
                            .nfields = 9};

static const char *full_node =
    "{\"id\":\"n1\",\"parent\":{\"id\":\"n0\",\"time\":{\"created\":1}},\"title\":null,"
    "\"time\":{\"created\":5,\"updated\":6.5},\"color\":\"purple\",\"tags\":[\"a\",\"b\"],"
    "\"parts\":[{\"type\":\"text\",\"text\":\"hi\"},{\"type\":\"file\",\"size\":3},"
    "{\"type\":\"video\",\"url\":\"x\"}],\"meta\":{\"k\":\"v\"},\"extra\":[1,2],"
    "\"surprise\":true}";

static void decode_ok(const char *text, node *n)
{
    sdkrt_error *err = NULL;
    memset(n, 0, sizeof *n);
    sdkrt_status st = sdkrt_json_decode_text(&t_node, n, text, strlen(text), NULL, &err);
    ck_assert_msg(st == SDKRT_OK, "decode failed: %s", err ? sdkrt_error_message(err) : "?");
}

static void decode_fails(const char *text, const char *want_msg)
{
    sdkrt_error *err = NULL;
    node n;
    memset(&n, 0, sizeof n);
    sdkrt_status st = sdkrt_json_decode_text(&t_node, &n, text, strlen(text), NULL, &err);
    ck_assert_int_eq(st, SDKRT_ERR);
    ck_assert_ptr_nonnull(err);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_MALFORMED_RESPONSE);
    ck_assert_msg(strstr(sdkrt_error_message(err), want_msg) != NULL, "message '%s' lacks '%s'",
                  sdkrt_error_message(err), want_msg);
    sdkrt_error_free(err);
    /* Nothing owned is left behind on failure. */
    ck_assert_ptr_null(n.id);
    ck_assert_ptr_null(n.parent);
}

START_TEST(decode_full)
{
    node n;
    decode_ok(full_node, &n);
    ck_assert_str_eq(n.id, "n1");
    ck_assert(n.has_parent && !n.parent_null);
    ck_assert_str_eq(n.parent->id, "n0");
    ck_assert(n.has_title && n.title_null);
    ck_assert_ptr_null(n.title);
    ck_assert(n.time.created == 5.0 && n.time.has_updated && n.time.updated == 6.5);
    ck_assert(n.has_color);
    ck_assert_int_eq(n.color.value, 0);
    ck_assert_str_eq(n.color.unknown, "purple");
    ck_assert_uint_eq(n.tags.count, 2);
    ck_assert_str_eq(n.tags.items[1], "b");
    ck_assert_uint_eq(n.parts.count, 3);
    ck_assert_int_eq(n.parts.items[0].kind, 1);
    ck_assert_str_eq(n.parts.items[0].u.text.text, "hi");
    ck_assert_int_eq(n.parts.items[1].kind, 2);
    ck_assert_int_eq(n.parts.items[1].u.file.size, 3);
    ck_assert_int_eq(n.parts.items[2].kind, 0);
    ck_assert_str_eq(json_string_value(json_object_get(n.parts.items[2].unknown, "url")), "x");
    ck_assert_uint_eq(n.meta.count, 1);
    ck_assert_str_eq(n.meta.keys[0], "k");
    ck_assert_str_eq(n.meta.values[0], "v");
    ck_assert(json_is_array(n.extra));
    sdkrt_json_cleanup(&t_node, &n);
    ck_assert_ptr_null(n.id);
}
END_TEST

START_TEST(decode_absent_and_null_optional)
{
    node n;
    decode_ok("{\"id\":\"x\",\"time\":{\"created\":1,\"updated\":null},\"tags\":null}", &n);
    ck_assert(!n.has_parent && !n.has_title && !n.has_color && !n.time.has_updated);
    ck_assert(!n.has_tags);
    sdkrt_json_cleanup(&t_node, &n);
}
END_TEST

START_TEST(decode_errors_name_path)
{
    decode_fails("{\"time\":{\"created\":1}}", "$.id: missing required field");
    decode_fails("{\"id\":\"x\",\"time\":{\"created\":\"soon\"}}",
                 "$.time.created: expected number, got string");
    decode_fails("{\"id\":\"x\",\"time\":{\"created\":1},\"parts\":[{\"type\":\"text\","
                 "\"text\":\"a\"},{\"type\":\"file\",\"size\":\"big\"}]}",
                 "$.parts[1].size: expected integer, got string");
    decode_fails("{\"id\":\"x\",\"time\":{\"created\":1},\"parent\":{\"id\":3,\"time\":{"
                 "\"created\":1}}}",
                 "$.parent.id: expected string, got integer");
    decode_fails("[]", "$: expected object, got array");
    decode_fails("{\"id\":\"x\",\"time\":{\"created\":1},\"tags\":[\"a\",null]}", "$.tags[1]");
    decode_fails("{\"id\":\"x\",\"time\":{\"created\":1},\"meta\":{\"a b\":1}}",
                 "$.meta[\"a b\"]: expected string, got integer");
    decode_fails("{\"id\":\"x\"", "");
}
END_TEST

/* What a hostile server may send, through the typed decoder: each is MALFORMED_RESPONSE. */
START_TEST(decode_hostile_values)
{
    const char *base = "{\"id\":\"x\",\"time\":{\"created\":1},";
    struct {
        const char *tail, *want;
    } cases[] = {
        {"\"parts\":[{\"type\":\"file\",\"size\":99999999999999999999}]}", "too big integer"},
        {"\"parts\":[{\"type\":\"file\",\"size\":-99999999999999999999}]}",
         "too big negative integer"},
        {"\"parts\":[{\"type\":\"file\",\"size\":1e19}]}",
         "$.parts[0].size: expected integer, got number"},
        {"\"parts\":[{\"type\":\"file\",\"size\":1.5}]}",
         "$.parts[0].size: expected integer, got number"},
        {"\"title\":\"a\\u0000b\"}", "$.title: string holds a NUL character"},
        {"\"meta\":{\"k\\u0000x\":\"v\"}}", "NUL byte in object key"},
        {"\"title\":\"a\",\"title\":\"b\"}", "duplicate object key"},
        {"\"title\":\"\xff\"}", "unable to decode byte"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "%s%s", base, cases[i].tail);
        decode_fails(text, cases[i].want);
    }
}
END_TEST

/* A path deeper than the runtime keeps is cut with "..." and stays bounded; one that fits is
 * exact. */
START_TEST(decode_error_deep_path)
{
    for (int depth = 10; depth <= 150; depth += 140) {
        char *text = malloc((size_t)depth * 64 + 64);
        char *want = malloc((size_t)depth * 8 + 64);
        ck_assert_ptr_nonnull(text);
        ck_assert_ptr_nonnull(want);
        size_t tl = 0, wl = 0;
        memcpy(want, "$", 2);
        wl = 1;
        for (int i = 0; i < depth; i++) {
            const char *open = "{\"id\":\"x\",\"time\":{\"created\":1},\"parent\":";
            memcpy(text + tl, open, strlen(open));
            tl += strlen(open);
            memcpy(want + wl, ".parent", 8);
            wl += 7;
        }
        const char *leaf = "{\"id\":7,\"time\":{\"created\":1}}";
        memcpy(text + tl, leaf, strlen(leaf));
        tl += strlen(leaf);
        for (int i = 0; i < depth; i++)
            text[tl++] = '}';
        text[tl] = '\0';
        sdkrt_error *err = NULL;
        node n;
        memset(&n, 0, sizeof n);
        ck_assert_int_eq(sdkrt_json_decode_text(&t_node, &n, text, tl, NULL, &err), SDKRT_ERR);
        const char *msg = sdkrt_error_message(err);
        if (depth == 10) {
            memcpy(want + wl, ".id: expected string, got integer", 34);
            ck_assert_msg(strstr(msg, want) != NULL, "message '%s' lacks '%s'", msg, want);
        } else {
            ck_assert_msg(strstr(msg, "$.parent.parent") != NULL, "%s", msg);
            ck_assert_msg(strstr(msg, "...: expected string, got integer") != NULL, "%s", msg);
            ck_assert_uint_lt(strlen(msg), 1024);
        }
        ck_assert_ptr_null(n.parent);
        sdkrt_error_free(err);
        free(text);
        free(want);
    }
}
END_TEST

START_TEST(encode_round_trip)
{
    node n;
    decode_ok(full_node, &n);
    json_t *j = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_json_encode(&t_node, &n, &j, &err), SDKRT_OK);
    ck_assert(json_is_null(json_object_get(j, "title")));
    ck_assert_str_eq(json_string_value(json_object_get(j, "color")), "purple");
    const json_t *p0 = json_array_get(json_object_get(j, "parts"), 0);
    ck_assert_str_eq(json_string_value(json_object_get(p0, "type")), "text");
    const json_t *p2 = json_array_get(json_object_get(j, "parts"), 2);
    ck_assert_str_eq(json_string_value(json_object_get(p2, "type")), "video");
    ck_assert_ptr_null(json_object_get(j, "surprise"));
    /* Decoding the encoding gives the same encoding again. */
    char *once = json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT);
    node m;
    decode_ok(once, &m);
    json_t *j2 = NULL;
    ck_assert_int_eq(sdkrt_json_encode(&t_node, &m, &j2, &err), SDKRT_OK);
    char *twice = json_dumps(j2, JSON_SORT_KEYS | JSON_COMPACT);
    ck_assert_str_eq(once, twice);
    free(once);
    free(twice);
    json_decref(j);
    json_decref(j2);
    sdkrt_json_cleanup(&t_node, &n);
    sdkrt_json_cleanup(&t_node, &m);
}
END_TEST

START_TEST(encode_known_enum_and_invalid)
{
    node n;
    memset(&n, 0, sizeof n);
    n.id = strdup("a");
    n.has_color = true;
    n.color.value = 2;
    json_t *j = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_json_encode(&t_node, &n, &j, &err), SDKRT_OK);
    ck_assert_str_eq(json_string_value(json_object_get(j, "color")), "green");
    json_decref(j);
    n.color.value = 7;
    ck_assert_int_eq(sdkrt_json_encode(&t_node, &n, &j, &err), SDKRT_ERR);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_INVALID_ARGUMENT);
    sdkrt_error_free(err);
    sdkrt_json_cleanup(&t_node, &n);
}
END_TEST

START_TEST(param_text)
{
    char *s = NULL;
    sdkrt_error *err = NULL;
    int64_t i = -42;
    ck_assert_int_eq(sdkrt_json_param_text(&t_int, &i, &s, &err), SDKRT_OK);
    ck_assert_str_eq(s, "-42");
    free(s);
    static const struct {
        double d;
        const char *text;
    } nums[] = {{0.5, "0.5"}, {100, "100"}, {7, "7"},        {-3, "-3"},
                {-0.0, "0"},  {0.1, "0.1"}, {1e20, "1e+20"}, {123456.25, "123456.25"}};
    for (size_t k = 0; k < sizeof nums / sizeof *nums; k++) {
        ck_assert_int_eq(sdkrt_json_param_text(&t_num, &nums[k].d, &s, &err), SDKRT_OK);
        ck_assert_str_eq(s, nums[k].text);
        free(s);
    }
    color c = {1, NULL};
    ck_assert_int_eq(sdkrt_json_param_text(&t_color, &c, &s, &err), SDKRT_OK);
    ck_assert_str_eq(s, "red");
    free(s);
    char *items[] = {"a", "b"};
    string_list l = {items, 2};
    ck_assert_int_eq(sdkrt_json_param_text(&t_string_list, &l, &s, &err), SDKRT_OK);
    ck_assert_str_eq(s, "a,b");
    free(s);
    char *none = NULL;
    ck_assert_int_eq(sdkrt_json_param_text(&t_string, &none, &s, &err), SDKRT_ERR);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_INVALID_ARGUMENT);
    sdkrt_error_free(err);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("json");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, decode_full);
    tcase_add_test(tc, decode_absent_and_null_optional);
    tcase_add_test(tc, decode_errors_name_path);
    tcase_add_test(tc, decode_error_deep_path);
    tcase_add_test(tc, decode_hostile_values);
    tcase_add_test(tc, encode_round_trip);
    tcase_add_test(tc, encode_known_enum_and_invalid);
    tcase_add_test(tc, param_text);
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
