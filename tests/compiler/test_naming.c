/* test_naming.c - identifier derivation, keywords and glob matching. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "sdkc/ir.h"

static sdkc_arena *arena;

static void setup(void)
{
    ck_assert_int_eq(sdkc_arena_new(&arena), SDKC_OK);
}

static void teardown(void)
{
    sdkc_arena_free(arena);
    arena = NULL;
}

static const struct {
    const char *in, *snake, *upper, *pascal;
} cases[] = {
    {"sessionID.list", "session_id_list", "SESSION_ID_LIST", "SessionIDList"},
    {"session.idle", "session_idle", "SESSION_IDLE", "SessionIdle"},
    {"session-v2.info", "session_v2_info", "SESSION_V2_INFO", "SessionV2Info"},
    {"SessionV2Info", "session_v2_info", "SESSION_V2_INFO", "SessionV2Info"},
    {"HTTPServer", "http_server", "HTTP_SERVER", "HTTPServer"},
    {"parentID", "parent_id", "PARENT_ID", "ParentID"},
    {"_tag", "tag", "TAG", "Tag"},
    {"Models-devRefreshed", "models_dev_refreshed", "MODELS_DEV_REFRESHED", "ModelsDevRefreshed"},
    {"effect/httpapi/stream/failure", "effect_httpapi_stream_failure",
     "EFFECT_HTTPAPI_STREAM_FAILURE", "EffectHttpapiStreamFailure"},
    {"v2.session.list", "v2_session_list", "V2_SESSION_LIST", "V2SessionList"},
    {"2fa", "_2fa", "_2FA", "N2fa"},
    {"", "_", "_", "X"},
    {"...", "_", "_", "X"},
    {"a__b", "a_b", "A_B", "AB"},
    {"x-effect-stream", "x_effect_stream", "X_EFFECT_STREAM", "XEffectStream"},
    {"snake_case_already", "snake_case_already", "SNAKE_CASE_ALREADY", "SnakeCaseAlready"},
    {"ABC", "abc", "ABC", "ABC"},
    {"getURLForID", "get_url_for_id", "GET_URL_FOR_ID", "GetURLForID"},
};

START_TEST(case_conversions)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ck_assert_str_eq(sdkc_snake_case(arena, cases[i].in), cases[i].snake);
        ck_assert_str_eq(sdkc_upper_snake(arena, cases[i].in), cases[i].upper);
        ck_assert_str_eq(sdkc_pascal_case(arena, cases[i].in), cases[i].pascal);
    }
    ck_assert_ptr_null(sdkc_snake_case(arena, NULL));
    ck_assert_ptr_null(sdkc_pascal_case(arena, NULL));
}
END_TEST

START_TEST(keywords)
{
    static const char *const yes[] = {"int",  "default", "struct",  "while",         "bool",
                                      "true", "false",   "NULL",    "_Bool",         "alignas",
                                      "auto", "typeof",  "static",  "static_assert", "signed",
                                      "void", "const",   "continue"};
    static const char *const no[] = {"type",    "data", "id",      "Int",  "message",
                                     "session", "",     "structs", "intx", "_tag"};
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
        ck_assert_msg(sdkc_is_c_keyword(yes[i]), "%s should be a keyword", yes[i]);
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        ck_assert_msg(!sdkc_is_c_keyword(no[i]), "%s should not be a keyword", no[i]);
    ck_assert(!sdkc_is_c_keyword(NULL));
}
END_TEST

START_TEST(globs)
{
    ck_assert(sdkc_glob_match("v2.*", "v2.session.list"));
    ck_assert(!sdkc_glob_match("v2.*", "session.list"));
    ck_assert(sdkc_glob_match("*", ""));
    ck_assert(sdkc_glob_match("*", "anything"));
    ck_assert(sdkc_glob_match("", ""));
    ck_assert(!sdkc_glob_match("", "a"));
    ck_assert(sdkc_glob_match("v?.session.*", "v2.session.get"));
    ck_assert(!sdkc_glob_match("v?.session.*", "v22.session.get"));
    ck_assert(sdkc_glob_match("*.list", "v2.session.list"));
    ck_assert(!sdkc_glob_match("*.list", "v2.session.lists"));
    ck_assert(sdkc_glob_match("*session*messages", "v2.session.messages"));
    ck_assert(sdkc_glob_match("a*b*c", "aXbYbZc"));
    ck_assert(!sdkc_glob_match("a*b*c", "aXbYbZ"));
    ck_assert(sdkc_glob_match("**a", "bba"));
    ck_assert(!sdkc_glob_match("?", ""));
    ck_assert(!sdkc_glob_match(NULL, "a"));
    ck_assert(!sdkc_glob_match("a", NULL));
    /* a pathological pattern stays fast (no exponential backtracking) */
    char s[4001];
    memset(s, 'a', 4000);
    s[4000] = '\0';
    ck_assert(!sdkc_glob_match("*a*a*a*a*a*a*a*a*a*a*b", s));
}
END_TEST

static Suite *naming_suite(void)
{
    Suite *s = suite_create("naming");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, case_conversions);
    tcase_add_test(tc, keywords);
    tcase_add_test(tc, globs);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(naming_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
