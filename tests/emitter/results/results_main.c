/* The SDK generated from tests/emitter/data/results.yaml (at build time): success values that are
 * not generated structs (scalars, strings, nullable values, raw JSON) come back through *out by
 * value. Before the fix the generated ops.c dereferenced one pointer too many and did not
 * compile (or, for bool, returned the pointer's truth). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../memory_client.h"
#include "rs/rs.h"

START_TEST(scalars_by_value)
{
    rs_error *err = NULL;
    char *s = NULL;
    canned_reply(200, "\"hello\"");
    ck_assert_int_eq(rs_get_string(client, NULL, &s, &err), RS_OK);
    ck_assert_str_eq(s, "hello");
    free(s);

    int64_t i = 0;
    canned_reply(200, "9007199254740993");
    ck_assert_int_eq(rs_get_integer(client, NULL, &i, &err), RS_OK);
    ck_assert(i == INT64_C(9007199254740993));

    double d = 0;
    canned_reply(200, "2.5");
    ck_assert_int_eq(rs_get_number(client, NULL, &d, &err), RS_OK);
    ck_assert(d == 2.5);

    bool b = true;
    canned_reply(200, "false");
    ck_assert_int_eq(rs_get_boolean(client, NULL, &b, &err), RS_OK);
    ck_assert(!b);
    canned_reply(200, "true");
    ck_assert_int_eq(rs_get_boolean(client, NULL, &b, &err), RS_OK);
    ck_assert(b);
    ck_assert_ptr_null(err);
}
END_TEST

START_TEST(pointers_by_value)
{
    rs_error *err = NULL;
    rs_string_list *l = NULL;
    canned_reply(200, "[\"a\",\"b\"]");
    ck_assert_int_eq(rs_get_nullable_array(client, NULL, &l, &err), RS_OK);
    ck_assert_ptr_nonnull(l);
    ck_assert_uint_eq(l->count, 2);
    ck_assert_str_eq(l->items[1], "b");
    rs_string_list_free(l);
    canned_reply(200, "null");
    ck_assert_int_eq(rs_get_nullable_array(client, NULL, &l, &err), RS_OK);
    ck_assert_ptr_null(l);

    char **ns = NULL;
    canned_reply(200, "\"x\"");
    ck_assert_int_eq(rs_get_nullable_string(client, NULL, &ns, &err), RS_OK);
    ck_assert_ptr_nonnull(ns);
    ck_assert_str_eq(*ns, "x");
    free(*ns);
    free(ns);

    json_t *j = NULL;
    canned_reply(200, "{\"k\":[1]}");
    ck_assert_int_eq(rs_get_no_schema(client, NULL, &j, &err), RS_OK);
    ck_assert(json_is_array(json_object_get(j, "k")));
    json_decref(j);
    canned_reply(200, "[1,2,3]");
    ck_assert_int_eq(rs_get_raw(client, NULL, &j, &err), RS_OK);
    ck_assert_uint_eq(json_array_size(j), 3);
    json_decref(j);
    ck_assert_ptr_null(err);
}
END_TEST

START_TEST(out_cleared_on_error)
{
    rs_error *err = NULL;
    int64_t i = 42;
    canned_reply(500, NULL);
    ck_assert_int_eq(rs_get_integer(client, NULL, &i, &err), RS_ERR);
    ck_assert(i == 0);
    ck_assert_ptr_nonnull(err);
    rs_error_free(err);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("results");
    TCase *tc = tcase_create("results");
    tcase_add_checked_fixture(tc, canned_setup, memory_client_close);
    tcase_add_test(tc, scalars_by_value);
    tcase_add_test(tc, pointers_by_value);
    tcase_add_test(tc, out_cleared_on_error);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
