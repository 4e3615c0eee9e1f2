/* test_real_world.c - constructs that public contracts (the APIs-guru directory) use and that
 * the compiler must accept: extension keys anywhere, query strings in path templates, C1
 * control characters in JSON strings, 3.1 operations without responses, allOf merging. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sdkc/doc.h"
#include "sdkc/ir.h"

#define DATA SDKC_SOURCE_DIR "/tests/compiler/data/compile/real/"

/* Compile path, expecting success with no errors; *d keeps the diagnostics. */
static sdkc_compiled *compile_ok(const char *path, sdkc_diag **d)
{
    ck_assert_int_eq(sdkc_diag_new(d), SDKC_OK);
    sdkc_compiled *c = NULL;
    sdkc_status st = sdkc_compile_file(&c, path, NULL, *d);
    if (st != SDKC_OK || sdkc_diag_errors(*d) > 0)
        sdkc_diag_print(*d, stderr, false);
    ck_assert_int_eq(st, SDKC_OK);
    ck_assert_uint_eq(sdkc_diag_errors(*d), 0);
    ck_assert_ptr_nonnull(c);
    return c;
}

/* Does some diagnostic of severity sev contain text? */
static bool has_diag(const sdkc_diag *d, sdkc_severity sev, const char *text)
{
    for (size_t i = 0; i < sdkc_diag_count(d); i++) {
        const sdkc_diag_entry *e = sdkc_diag_get(d, i);
        if (e->severity == sev && strstr(e->message, text))
            return true;
    }
    return false;
}

/* ---- 1. extension keys ---- */

START_TEST(extension_keys_ignored)
{
    sdkc_diag *d = NULL;
    sdkc_compiled *c = compile_ok(DATA "extensions.yaml", &d);
    if (sdkc_diag_warnings(d) > 0)
        sdkc_diag_print(d, stderr, false);
    ck_assert_uint_eq(sdkc_diag_warnings(d), 0);
    const sdkc_ir *ir = sdkc_compiled_ir(c);
    ck_assert_uint_eq(ir->nops, 1);
    const sdkc_operation *op = sdkc_ir_operation(ir, "items.get");
    ck_assert_ptr_nonnull(op);
    ck_assert_str_eq(op->path, "/items/{id}");
    ck_assert_uint_eq(op->nparams, 1);
    ck_assert_int_eq(op->success.status, 200);
    ck_assert_ptr_nonnull(op->success.type);
    ck_assert_str_eq(op->success.type->name, "Item");
    ck_assert_uint_eq(op->nerrors, 0);
    ck_assert_uint_eq(ir->nschemes, 1);
    ck_assert_str_eq(ir->schemes[0].name, "key");
    sdkc_compiled_free(c);
    sdkc_diag_free(d);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("real_world");
    TCase *tc = tcase_create("real_world");
    tcase_add_test(tc, extension_keys_ignored);
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
