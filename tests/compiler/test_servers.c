/* test_servers.c - the contract's `servers` in the IR: variables replaced by their defaults, the
 * first absolute http(s) URL as the default base URL, relative URLs and variables without a
 * default kept but not used (with a warning at their location), servers of paths and operations
 * reported, and IR JSON keeping all of it. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "sdkc/diag.h"
#include "sdkc/doc.h"
#include "sdkc/ir.h"
#include "sdkc/compile.h"
#include "sdkc/ir_json.h"

#define HEAD "openapi: 3.1.0\ninfo: {title: t, version: '1'}\n"
#define PATHS                                                                                      \
    "paths:\n  /x:\n    get:\n      operationId: x\n"                                              \
    "      responses: {'204': {description: none}}\n"

typedef struct compiled {
    sdkc_diag *diag;
    sdkc_compiled *c;
    const sdkc_ir *ir;
} compiled;

static compiled compile_text(const char *yaml)
{
    compiled r = {NULL, NULL, NULL};
    sdkc_doc *doc = NULL;
    ck_assert_int_eq(sdkc_diag_new(&r.diag), SDKC_OK);
    ck_assert_int_eq(sdkc_doc_load_buffer(&doc, "s.yaml", yaml, strlen(yaml), r.diag), SDKC_OK);
    sdkc_status st = sdkc_compile(&r.c, doc, NULL, r.diag);
    if (st != SDKC_OK)
        sdkc_diag_print(r.diag, stderr, false);
    ck_assert_int_eq(st, SDKC_OK);
    sdkc_doc_free(doc);
    r.ir = sdkc_compiled_ir(r.c);
    return r;
}

static void done(compiled *r)
{
    sdkc_compiled_free(r->c);
    sdkc_diag_free(r->diag);
}

/* The i-th diagnostic's message contains needle, at line `line`. */
static void warned(const compiled *r, size_t i, unsigned line, const char *needle)
{
    const sdkc_diag_entry *e = sdkc_diag_get(r->diag, i);
    ck_assert_ptr_nonnull(e);
    ck_assert_int_eq(e->severity, SDKC_SEV_WARNING);
    ck_assert_msg(strstr(e->message, needle), "'%s' lacks '%s'", e->message, needle);
    ck_assert_uint_eq(e->loc.line, line);
}

/* IR JSON round trip: the same servers, the same bytes. */
static void round_trip(const compiled *r)
{
    char *json = NULL, *again = NULL;
    size_t len = 0, len2 = 0;
    ck_assert_int_eq(sdkc_ir_to_json(r->ir, &json, &len), SDKC_OK);
    sdkc_compiled *back = NULL;
    ck_assert_int_eq(sdkc_ir_from_json(&back, "s.ir.json", json, len, r->diag), SDKC_OK);
    const sdkc_ir *b = sdkc_compiled_ir(back);
    ck_assert_uint_eq(b->nservers, r->ir->nservers);
    for (size_t i = 0; i < b->nservers; i++) {
        ck_assert_str_eq(b->servers[i].url, r->ir->servers[i].url);
        ck_assert_int_eq(b->servers[i].absolute, r->ir->servers[i].absolute);
        ck_assert_uint_eq(b->servers[i].loc.line, r->ir->servers[i].loc.line);
    }
    ck_assert_int_eq(sdkc_ir_to_json(b, &again, &len2), SDKC_OK);
    ck_assert_uint_eq(len, len2);
    ck_assert(memcmp(json, again, len) == 0);
    free(json);
    free(again);
    sdkc_compiled_free(back);
}

START_TEST(first_absolute_server_with_variables)
{
    compiled r = compile_text(HEAD "servers:\n"
                                   "  - url: https://{region}.api.test:{port}/{version}\n"
                                   "    description: Production\n"
                                   "    variables:\n"
                                   "      region: {default: eu, enum: [eu, us]}\n"
                                   "      port: {default: '8443'}\n"
                                   "      version: {default: v2}\n"
                                   "  - url: http://localhost:4010\n" PATHS);
    ck_assert_uint_eq(sdkc_diag_warnings(r.diag), 0);
    ck_assert_uint_eq(r.ir->nservers, 2);
    ck_assert_str_eq(r.ir->servers[0].url, "https://eu.api.test:8443/v2");
    ck_assert_str_eq(r.ir->servers[0].description, "Production");
    ck_assert(r.ir->servers[0].absolute);
    ck_assert_uint_eq(r.ir->servers[0].loc.line, 4);
    ck_assert_ptr_null(r.ir->servers[1].description);
    ck_assert_str_eq(sdkc_ir_default_server(r.ir), "https://eu.api.test:8443/v2");
    char *json = NULL;
    size_t len = 0;
    ck_assert_int_eq(sdkc_ir_to_json(r.ir, &json, &len), SDKC_OK);
    ck_assert_ptr_nonnull(strstr(json, "\"servers\": [\n    {\n      \"url\": "
                                       "\"https://eu.api.test:8443/v2\",\n      \"description\": "
                                       "\"Production\",\n      \"absolute\": true,\n      \"loc\": "
                                       "\"4:5\"\n    },"));
    free(json);
    round_trip(&r);
    done(&r);
}
END_TEST

START_TEST(relative_first_server_is_no_default)
{
    compiled r = compile_text(HEAD "servers:\n  - url: /api/v3\n  - url: https://a.test\n" PATHS);
    ck_assert_uint_eq(r.ir->nservers, 2);
    ck_assert_str_eq(r.ir->servers[0].url, "/api/v3");
    ck_assert(!r.ir->servers[0].absolute);
    ck_assert(r.ir->servers[1].absolute);
    ck_assert_ptr_null(sdkc_ir_default_server(r.ir));
    ck_assert_uint_eq(sdkc_diag_warnings(r.diag), 1);
    warned(&r, 0, 4, "servers[0] URL '/api/v3' is not an absolute http(s) URL");
    round_trip(&r);
    done(&r);
}
END_TEST

START_TEST(unusable_urls)
{
    /* a variable without a default, one not declared, another scheme, no host */
    static const char *const urls[][2] = {
        {"  - url: https://{tenant}.api.test\n    variables: {tenant: {enum: [a]}}\n",
         "variable {tenant} has no default"},
        {"  - url: https://{tenant}.api.test\n", "variable {tenant} has no declaration"},
        {"  - url: ftp://files.test\n", "not an absolute http(s) URL"},
        {"  - url: 'https://'\n", "not an absolute http(s) URL"},
        {"  - url: //cdn.test/api\n", "not an absolute http(s) URL"},
    };
    for (size_t i = 0; i < sizeof urls / sizeof urls[0]; i++) {
        char yaml[1024];
        snprintf(yaml, sizeof yaml, "%s%s%s%s", HEAD, "servers:\n", urls[i][0], PATHS);
        compiled r = compile_text(yaml);
        ck_assert_uint_eq(r.ir->nservers, 1);
        ck_assert(!r.ir->servers[0].absolute);
        ck_assert_ptr_null(sdkc_ir_default_server(r.ir));
        ck_assert_uint_eq(sdkc_diag_warnings(r.diag), 1);
        warned(&r, 0, 4, urls[i][1]);
        round_trip(&r);
        done(&r);
    }
}
END_TEST

START_TEST(no_servers_and_local_servers)
{
    compiled r = compile_text(HEAD PATHS);
    ck_assert_uint_eq(r.ir->nservers, 0);
    ck_assert_ptr_null(sdkc_ir_default_server(r.ir));
    char *json = NULL;
    size_t len = 0;
    ck_assert_int_eq(sdkc_ir_to_json(r.ir, &json, &len), SDKC_OK);
    ck_assert_ptr_null(strstr(json, "\"servers\""));
    free(json);
    done(&r);
    r = compile_text(HEAD "servers: [{url: 'https://a.test'}]\n"
                          "paths:\n  /x:\n    servers: [{url: 'https://b.test'}]\n"
                          "    get:\n      operationId: x\n"
                          "      servers: [{url: 'https://c.test'}]\n"
                          "      responses: {'204': {description: none}}\n");
    ck_assert_uint_eq(sdkc_diag_warnings(r.diag), 2);
    warned(&r, 0, 6, "servers of path '/x' are not supported");
    warned(&r, 1, 9, "servers of operation get '/x' are not supported");
    ck_assert_str_eq(sdkc_ir_default_server(r.ir), "https://a.test");
    done(&r);
}
END_TEST

static Suite *servers_suite(void)
{
    Suite *s = suite_create("servers");
    TCase *tc = tcase_create("servers");
    tcase_add_test(tc, first_absolute_server_with_variables);
    tcase_add_test(tc, relative_first_server_is_no_default);
    tcase_add_test(tc, unusable_urls);
    tcase_add_test(tc, no_servers_and_local_servers);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(servers_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
