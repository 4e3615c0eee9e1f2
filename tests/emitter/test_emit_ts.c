/* test_emit_ts.c - sdkc_emit_ts through its API: the package version (the options' version, else
 * the contract's info.version when it is semver, else 0.0.0) and a version that is not semver
 * refused before anything is written. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sdkc/emit_ts.h"
#include "sdkc/ir.h"
#include "sdkc/util.h"
#include "sdkc/compile.h"

static char tmpdir[] = "/tmp/sdkc-emit-ts-XXXXXX";

static void setup(void)
{
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown(void)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
    memcpy(tmpdir + strlen(tmpdir) - 6, "XXXXXX", 6);
}

/* Emit contract (under the source tree) into tmpdir/out with version; the status, the diagnostics
 * in *diag (the caller frees them). */
static sdkc_status emit(const char *contract, const char *version, const char *out,
                        sdkc_diag **diag)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", SDKC_SOURCE_DIR, contract);
    sdkc_compiled *c = NULL;
    ck_assert_int_eq(sdkc_diag_new(diag), SDKC_OK);
    sdkc_compile_options co = SDKC_COMPILE_OPTIONS_INIT;
    ck_assert_int_eq(sdkc_compile_file(&c, path, &co, *diag), SDKC_OK);
    sdkc_emit_ts_options eo = SDKC_EMIT_TS_OPTIONS_INIT;
    eo.out_dir = out;
    eo.version = version;
    sdkc_status st = sdkc_emit_ts(sdkc_compiled_ir(c), &eo, *diag);
    sdkc_compiled_free(c);
    return st;
}

START_TEST(package_version)
{
    static const struct {
        const char *contract, *version, *want;
    } cases[] = {
        {"tests/emitter/data/inputs.yaml", NULL, "\"version\": \"0.0.0\","}, /* info.version 1 */
        {"tests/emitter/data/inputs.yaml", "1.2.0-beta.2+exp",
         "\"version\": \"1.2.0-beta.2+exp\","},
        {"spec/opencode/openapi.json", NULL, "\"version\": \"1.0.0\","},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char out[600], path[700];
        snprintf(out, sizeof out, "%s/ok%zu", tmpdir, i);
        sdkc_diag *diag = NULL;
        ck_assert_int_eq(emit(cases[i].contract, cases[i].version, out, &diag), SDKC_OK);
        ck_assert_int_eq(sdkc_diag_errors(diag), 0);
        sdkc_diag_free(diag);
        snprintf(path, sizeof path, "%s/package.json", out);
        char *text = NULL;
        size_t len = 0;
        ck_assert_int_eq(sdkc_read_file(path, &text, &len), SDKC_OK);
        ck_assert_msg(strstr(text, cases[i].want), "case %zu: %s", i, text);
        free(text);
    }
}
END_TEST

START_TEST(bad_version_refused)
{
    static const char *const bad[] = {"", "1.2", "v1.0.0", "1.0.0-", "01.0.0"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char out[600];
        snprintf(out, sizeof out, "%s/bad", tmpdir);
        sdkc_diag *diag = NULL;
        ck_assert_int_eq(emit("tests/emitter/data/inputs.yaml", bad[i], out, &diag),
                         SDKC_ERR_INVALID);
        ck_assert_int_eq(sdkc_diag_errors(diag), 1);
        const sdkc_diag_entry *e = sdkc_diag_get(diag, sdkc_diag_count(diag) - 1);
        ck_assert_ptr_nonnull(strstr(e->message, "is not a semantic version"));
        sdkc_diag_free(diag);
        ck_assert_int_ne(access(out, F_OK), 0);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("emit_ts");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, package_version);
    tcase_add_test(tc, bad_version_refused);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
