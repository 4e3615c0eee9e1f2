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
    {"...", "dot_dot_dot", "DOT_DOT_DOT", "DotDotDot"},
    {"_ $@[]", "_", "_", "X"},
    {"a__b", "a_b", "A_B", "AB"},
    {"x-effect-stream", "x_effect_stream", "X_EFFECT_STREAM", "XEffectStream"},
    {"snake_case_already", "snake_case_already", "SNAKE_CASE_ALREADY", "SnakeCaseAlready"},
    {"ABC", "abc", "ABC", "ABC"},
    {"getURLForID", "get_url_for_id", "GET_URL_FOR_ID", "GetURLForID"},
    /* acronyms stay whole, plurals of acronyms too */
    {"getURLs", "get_urls", "GET_URLS", "GetURLs"},
    {"listIDsForUser", "list_ids_for_user", "LIST_IDS_FOR_USER", "ListIDsForUser"},
    {"APIsList", "apis_list", "APIS_LIST", "APIsList"},
    {"HTTPSession", "http_session", "HTTP_SESSION", "HTTPSession"},
    {"sessionID", "session_id", "SESSION_ID", "SessionID"},
    {"userIds", "user_ids", "USER_IDS", "UserIds"},
    /* compound words of the table */
    {"OpenAIFile", "openai_file", "OPENAI_FILE", "OpenAIFile"},
    {"listOpenAIFiles", "list_openai_files", "LIST_OPENAI_FILES", "ListOpenAIFiles"},
    {"IntegrationOAuthMethod", "integration_oauth_method", "INTEGRATION_OAUTH_METHOD",
     "IntegrationOAuthMethod"},
    {"OAuth2Token", "oauth2_token", "OAUTH2_TOKEN", "OAuth2Token"},
    {"HTTPOAuth", "http_oauth", "HTTP_OAUTH", "HTTPOAuth"},
    {"GitHubApp", "github_app", "GITHUB_APP", "GitHubApp"},
    {"iOSDevice", "ios_device", "IOS_DEVICE", "IOSDevice"},
    {"macOS-version", "macos_version", "MACOS_VERSION", "MacOSVersion"},
    {"MacOSVersion", "macos_version", "MACOS_VERSION", "MacOSVersion"},
    {"IPv4Address", "ipv4_address", "IPV4_ADDRESS", "IPv4Address"},
    {"OAuthor", "o_author", "O_AUTHOR", "OAuthor"}, /* not followed by a word start: no match */
    {"NaN", "nan", "NAN", "NaN"},
    {"-Infinity", "minus_infinity", "MINUS_INFINITY", "MinusInfinity"},
    {"opengraph", "opengraph", "OPENGRAPH", "Opengraph"},
    /* symbols spelled */
    {"+1", "plus_1", "PLUS_1", "Plus1"},
    {"-1", "minus_1", "MINUS_1", "Minus1"},
    {"-created", "minus_created", "MINUS_CREATED", "MinusCreated"},
    {"*", "star", "STAR", "Star"},
    {"<=", "le", "LE", "Le"},
    {">=", "ge", "GE", "Ge"},
    {"<", "lt", "LT", "Lt"},
    {">", "gt", "GT", "Gt"},
    {"!=", "ne", "NE", "Ne"},
    {"=", "eq", "EQ", "Eq"},
    {"c++", "c_plus_plus", "C_PLUS_PLUS", "CPlusPlus"},
    {"text/*", "text_star", "TEXT_STAR", "TextStar"},
    {"image/svg+xml", "image_svg_plus_xml", "IMAGE_SVG_PLUS_XML", "ImageSvgPlusXml"},
    {"-0.5", "minus_0_5", "MINUS_0_5", "Minus05"},
    {"1-2", "_1_2", "_1_2", "N12"},
    {"/", "slash", "SLASH", "Slash"},
    {"$filter", "filter", "FILTER", "Filter"},
    {"@odata.type", "odata_type", "ODATA_TYPE", "OdataType"},
    {"50%", "_50_percent", "_50_PERCENT", "N50Percent"},
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
