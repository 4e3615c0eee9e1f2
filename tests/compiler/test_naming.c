/* test_naming.c - identifier derivation, keywords and glob matching; the names a small contract
 * is given (data/compile/good/names.yaml, docs/naming.md). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "sdkc/compile.h"
#include "sdkc/doc.h"
#include "sdkc/ir.h"
#include "sdkc/naming.h"

#define NAMES SDKC_SOURCE_DIR "/tests/compiler/data/compile/good/names.yaml"

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

/* Two spellings that meet: the second gets a number, whatever the order. */
START_TEST(symbol_collisions)
{
    ck_assert_str_eq(sdkc_upper_snake(arena, "+1"), sdkc_upper_snake(arena, "plus_1"));
    ck_assert_str_eq(sdkc_upper_snake(arena, "-"), "MINUS");
    ck_assert_str_eq(sdkc_upper_snake(arena, "a-b"), "A_B");
    ck_assert_str_eq(sdkc_upper_snake(arena, "a -b"), "A_MINUS_B");
    ck_assert_str_eq(sdkc_upper_snake(arena, "--force"), "MINUS_MINUS_FORCE");
    /* every spelling is a valid identifier: letters, digits and '_', not starting with a digit */
    static const char *const odd[] = {"+", "-", "*/*", "<>", "1+1", "!", "?", "#1", "%", "&&"};
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) {
        const char *u = sdkc_upper_snake(arena, odd[i]);
        ck_assert_msg(u[0] == '_' || (u[0] >= 'A' && u[0] <= 'Z'), "%s -> %s", odd[i], u);
        for (const char *p = u; *p; p++)
            ck_assert_msg((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_',
                          "%s -> %s", odd[i], u);
    }
}
END_TEST

static sdkc_compiled *compiled;
static const sdkc_ir *ir;

static void setup_contract(void)
{
    sdkc_diag *diag = NULL;
    ck_assert_int_eq(sdkc_diag_new(&diag), SDKC_OK);
    sdkc_status st = sdkc_compile_file(&compiled, NAMES, NULL, diag);
    if (st != SDKC_OK || sdkc_diag_warnings(diag) > 0)
        sdkc_diag_print(diag, stderr, false);
    ck_assert_int_eq(st, SDKC_OK);
    ck_assert_uint_eq(sdkc_diag_warnings(diag), 0);
    sdkc_diag_free(diag);
    ir = sdkc_compiled_ir(compiled);
}

static void teardown_contract(void)
{
    sdkc_compiled_free(compiled);
    compiled = NULL;
    ir = NULL;
}

static const sdkc_type *type(const char *name)
{
    const sdkc_type *t = sdkc_ir_type(ir, name);
    ck_assert_msg(t != NULL, "type %s missing", name);
    return t;
}

static const sdkc_operation *op(const char *id)
{
    const sdkc_operation *o = sdkc_ir_operation(ir, id);
    ck_assert_msg(o != NULL, "operation %s missing", id);
    return o;
}

static const sdkc_param *param(const sdkc_operation *o, const char *wire)
{
    for (size_t i = 0; i < o->nparams; i++)
        if (strcmp(o->params[i].wire_name, wire) == 0)
            return &o->params[i];
    ck_abort_msg("%s has no parameter %s", o->id, wire);
    return NULL;
}

static const sdkc_field *field(const sdkc_type *t, const char *wire)
{
    ck_assert_int_eq(t->kind, SDKC_TYPE_OBJECT);
    for (size_t i = 0; i < t->u.object.nfields; i++)
        if (strcmp(t->u.object.fields[i].wire_name, wire) == 0)
            return &t->u.object.fields[i];
    ck_abort_msg("%s has no field %s", t->name, wire);
    return NULL;
}

START_TEST(operation_names)
{
    ck_assert_str_eq(op("PostCustomers")->safe_name, "post_customers");
    ck_assert_str_eq(op("GetCustomers")->safe_name, "get_customers");
    ck_assert_str_eq(op("listOpenAIFiles")->safe_name, "list_openai_files");
    ck_assert_str_eq(op("getURLs")->safe_name, "get_urls");
    ck_assert_str_eq(op("issues/list")->safe_name, "issues_list");
    ck_assert_str_eq(op("HTTPServer.createReaction")->safe_name, "http_server_create_reaction");
    ck_assert_str_eq(param(op("listOpenAIFiles"), "sessionID")->safe_name, "session_id");
}
END_TEST

/* A parameter shared through components/parameters is named by its component, the same type
 * for every operation; a parameter of one operation by that operation. */
START_TEST(shared_parameters)
{
    const sdkc_type *dir = type("Direction");
    ck_assert_str_eq(dir->safe_name, "direction");
    ck_assert_ptr_eq(param(op("issues/list"), "direction")->type, dir);
    ck_assert_ptr_eq(param(op("pulls/list"), "direction")->type, dir);
    ck_assert_ptr_null(sdkc_ir_type(ir, "IssuesListDirection"));
    /* the key names a schema already: key + "Param"; the schema keeps its name */
    ck_assert_ptr_eq(param(op("pulls/list"), "status")->type, type("StatusParam"));
    ck_assert_ptr_eq(param(op("issues/list"), "status")->type, type("StatusParam"));
    ck_assert_str_eq(type("Status")->safe_name, "status");
    ck_assert_str_eq(type("StatusParam")->safe_name, "status_param");
    ck_assert_ptr_eq(param(op("issues/list"), "sort")->type, type("IssuesListSort"));
    /* a shared response likewise */
    const sdkc_type *nf = type("NotFound");
    ck_assert_uint_eq(op("issues/list")->nerrors, 1);
    ck_assert_ptr_eq(op("issues/list")->errors[0].untagged, nf);
    ck_assert_ptr_eq(op("pulls/list")->errors[0].untagged, nf);
    ck_assert_uint_eq(op("getURLs")->nmore_successes, 1);
    ck_assert_ptr_eq(op("getURLs")->more_successes[0].type, type("Accepted"));
}
END_TEST

START_TEST(titles)
{
    /* one type for the two schemas titled range_query_specs with the same content */
    const sdkc_type *range = type("RangeQuerySpecs");
    ck_assert_str_eq(range->safe_name, "range_query_specs");
    const sdkc_type *q = param(op("GetCustomers"), "created")->type;
    const sdkc_type *b = field(type("PostCustomersBody"), "created")->type;
    ck_assert_int_eq(q->kind, SDKC_TYPE_UNION);
    ck_assert_int_eq(b->kind, SDKC_TYPE_UNION);
    ck_assert_ptr_eq(q->u.union_.variants[0].type, range);
    ck_assert_ptr_eq(b->u.union_.variants[0].type, range);
    ck_assert_ptr_null(sdkc_ir_type(ir, "GetCustomersCreatedVariant1"));
    /* the same title on other content: the first keeps it, the second is named by context */
    const sdkc_type *body = type("PostCustomersBody");
    ck_assert_ptr_eq(field(body, "address")->type, type("AddressSpecs"));
    ck_assert_ptr_eq(field(body, "shipping_address")->type,
                     type("PostCustomersBodyShippingAddress"));
    /* a title that names a component already, or that starts with the operation's name: the
       context names the type; a component's own title never renames it */
    ck_assert_ptr_eq(field(body, "tier")->type, type("PostCustomersBodyTier"));
    ck_assert_ptr_eq(op("PostCustomers")->body->type, body);
    ck_assert_ptr_null(sdkc_ir_type(ir, "PostCustomersRequest"));
    ck_assert_str_eq(type("Issue")->safe_name, "issue");
    ck_assert_str_eq(type("OpenAIFile")->safe_name, "openai_file");
}
END_TEST

START_TEST(symbol_values)
{
    const sdkc_type *body = op("HTTPServer.createReaction")->body->type;
    const sdkc_type *e = field(body, "content")->type;
    ck_assert_int_eq(e->kind, SDKC_TYPE_ENUM);
    static const char *const want[] = {"PLUS_1", "MINUS_1", "LAUGH",   "STAR",
                                       "LE",     "GE",      "PLUS_1_2"};
    ck_assert_uint_eq(e->u.enumeration.nvalues, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < e->u.enumeration.nvalues; i++)
        ck_assert_str_eq(e->u.enumeration.safe_values[i], want[i]);
    const sdkc_type *resp = op("HTTPServer.createReaction")->success.type;
    ck_assert_str_eq(field(resp, "+1")->safe_name, "plus_1");
    ck_assert_str_eq(field(resp, "-1")->safe_name, "minus_1");
    ck_assert_str_eq(field(resp, "default")->safe_name, "default_"); /* a C keyword */
}
END_TEST

/* Values that differ only by case are all kept, each with its own member name. */
START_TEST(case_values)
{
    const sdkc_type *e = type("Sort");
    ck_assert_int_eq(e->kind, SDKC_TYPE_ENUM);
    static const char *const values[] = {"a", "A", "a_b", "A_B", "a-b"};
    static const char *const names[] = {"A", "A_2", "A_B", "A_B_2", "A_B_3"};
    ck_assert_uint_eq(e->u.enumeration.nvalues, 5);
    for (size_t i = 0; i < 5; i++) {
        ck_assert_str_eq(e->u.enumeration.values[i], values[i]);
        ck_assert_str_eq(e->u.enumeration.safe_values[i], names[i]);
    }
}
END_TEST

/* A value listed twice is kept once, and a warning says so. */
START_TEST(duplicate_value_warns)
{
    static const char text[] = "openapi: 3.0.3\n"
                               "info: {title: t, version: '1'}\n"
                               "paths: {}\n"
                               "components:\n"
                               "  schemas:\n"
                               "    Mode: {type: string, enum: [x, X, x]}\n";
    sdkc_diag *d = NULL;
    sdkc_doc *doc = NULL;
    ck_assert_int_eq(sdkc_diag_new(&d), SDKC_OK);
    ck_assert_int_eq(sdkc_doc_load_buffer(&doc, "dup.yaml", text, sizeof text - 1, d), SDKC_OK);
    sdkc_compiled *c = NULL;
    ck_assert_int_eq(sdkc_compile(&c, doc, NULL, d), SDKC_OK);
    ck_assert_uint_eq(sdkc_diag_warnings(d), 1);
    const sdkc_diag_entry *w = sdkc_diag_get(d, 0);
    ck_assert_msg(strstr(w->message, "'enum' lists the value \"x\" more than once"), "%s",
                  w->message);
    ck_assert_uint_eq(w->loc.line, 6);
    const sdkc_type *e = sdkc_ir_type(sdkc_compiled_ir(c), "Mode");
    ck_assert_uint_eq(e->u.enumeration.nvalues, 2);
    ck_assert_str_eq(e->u.enumeration.values[1], "X");
    ck_assert_str_eq(e->u.enumeration.safe_values[1], "X_2");
    sdkc_compiled_free(c);
    sdkc_doc_free(doc);
    sdkc_diag_free(d);
}
END_TEST

/* A field name that objects share is kept once in the IR, with its C name. */
START_TEST(shared_field_names)
{
    static const char text[] = "openapi: 3.0.3\n"
                               "info: {title: t, version: '1'}\n"
                               "paths: {}\n"
                               "components:\n"
                               "  schemas:\n"
                               "    A: {type: object, properties: {nodeId: {type: string}}}\n"
                               "    B: {type: object, properties: {nodeId: {type: integer}}}\n";
    sdkc_diag *d = NULL;
    sdkc_doc *doc = NULL;
    ck_assert_int_eq(sdkc_diag_new(&d), SDKC_OK);
    ck_assert_int_eq(sdkc_doc_load_buffer(&doc, "f.yaml", text, sizeof text - 1, d), SDKC_OK);
    sdkc_compiled *c = NULL;
    ck_assert_int_eq(sdkc_compile(&c, doc, NULL, d), SDKC_OK);
    const sdkc_ir *cir = sdkc_compiled_ir(c);
    const sdkc_field *a = &sdkc_ir_type(cir, "A")->u.object.fields[0];
    const sdkc_field *b = &sdkc_ir_type(cir, "B")->u.object.fields[0];
    ck_assert_str_eq(a->wire_name, "nodeId");
    ck_assert_str_eq(a->safe_name, "node_id");
    ck_assert_ptr_eq(a->wire_name, b->wire_name);
    ck_assert_ptr_eq(a->safe_name, b->safe_name);
    sdkc_compiled_free(c);
    sdkc_doc_free(doc);
    sdkc_diag_free(d);
}
END_TEST

/* Compiling twice gives the same names (nothing depends on addresses or hash order). */
START_TEST(deterministic)
{
    sdkc_diag *diag = NULL;
    sdkc_compiled *again = NULL;
    ck_assert_int_eq(sdkc_diag_new(&diag), SDKC_OK);
    ck_assert_int_eq(sdkc_compile_file(&again, NAMES, NULL, diag), SDKC_OK);
    const sdkc_ir *ir2 = sdkc_compiled_ir(again);
    ck_assert_uint_eq(ir2->ntypes, ir->ntypes);
    for (size_t i = 0; i < ir->ntypes; i++) {
        ck_assert_str_eq(ir2->types[i]->name, ir->types[i]->name);
        ck_assert_str_eq(ir2->types[i]->safe_name, ir->types[i]->safe_name);
        for (size_t j = 0; j < i; j++)
            ck_assert_str_ne(ir->types[j]->safe_name, ir->types[i]->safe_name);
    }
    sdkc_compiled_free(again);
    sdkc_diag_free(diag);
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
    tcase_add_test(tc, symbol_collisions);
    tcase_add_test(tc, duplicate_value_warns);
    tcase_add_test(tc, shared_field_names);
    suite_add_tcase(s, tc);
    tc = tcase_create("contract");
    tcase_add_checked_fixture(tc, setup_contract, teardown_contract);
    tcase_add_test(tc, operation_names);
    tcase_add_test(tc, shared_parameters);
    tcase_add_test(tc, titles);
    tcase_add_test(tc, symbol_values);
    tcase_add_test(tc, case_values);
    tcase_add_test(tc, deterministic);
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
