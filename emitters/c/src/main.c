/* `sdkc generate`: load a contract or an IR JSON file and emit the C SDK (public API only). */
#include "sdkc/emit_c.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int usage(void)
{
    fprintf(stderr, "usage: sdkc generate CONTRACT|IR --lang c --prefix PREFIX --out DIR "
                    "[--include GLOB]... [--follow OPID=PATH:PARAM]... [--tests] [--quiet]\n");
    return 2;
}

/* IR JSON is recognised by its format marker near the start. */
static bool looks_like_ir(const char *text, size_t len)
{
    size_t n = len < 4096 ? len : 4096;
    for (size_t i = 0; i + 9 <= n; i++) {
        if (memcmp(text + i, "sdkc-ir/1", 9) == 0)
            return true;
    }
    return false;
}

int sdkc_emit_c_main(int argc, char **argv)
{
    const char *input = NULL, *lang = NULL, *prefix = NULL, *out = NULL;
    const char **include = calloc((size_t)(argc > 0 ? argc : 1), sizeof *include);
    const char **follow = calloc((size_t)(argc > 0 ? argc : 1), sizeof *follow);
    size_t ninclude = 0, nfollow = 0;
    bool quiet = false, tests = false;
    int rc = 1;
    char *text = NULL;
    size_t len = 0;
    sdkc_diag *diag = NULL;
    sdkc_compiled *compiled = NULL;
    if (!include || !follow) {
        free(include);
        free(follow);
        return 1;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf("usage: sdkc generate CONTRACT|IR --lang c --prefix PREFIX --out DIR "
                   "[--include GLOB]... [--follow OPID=PATH:PARAM]... [--tests] [--quiet]\n"
                   "Writes a C SDK on libsdkrt: include/PREFIX/*.h, src/*.c, CMakeLists.txt, "
                   "README.md.\n"
                   "--follow marks a stream durable (or OPID=off: not), as for 'sdkc compile'; "
                   "durable streams get a follower.\n"
                   "--tests also writes tests/mock.c (target PREFIX_mock): one call per "
                   "operation against a mock server\n"
                   "(`PREFIX_mock BASE_URL`, see docs/mock.md).\n"
                   "Prints the compiler's warnings like 'sdkc compile'; --quiet prints errors "
                   "only.\n");
            rc = 0;
            goto done;
        }
        const char **slot = NULL;
        if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
            quiet = true;
            continue;
        }
        if (!strcmp(a, "--tests")) {
            tests = true;
            continue;
        }
        if (!strcmp(a, "--lang"))
            slot = &lang;
        else if (!strcmp(a, "--prefix"))
            slot = &prefix;
        else if (!strcmp(a, "--out"))
            slot = &out;
        else if (!strcmp(a, "--include"))
            slot = &include[ninclude];
        else if (!strcmp(a, "--follow"))
            slot = &follow[nfollow];
        if (slot) {
            if (i + 1 >= argc) {
                rc = usage();
                goto done;
            }
            *slot = argv[++i];
            if (slot == &include[ninclude])
                ninclude++;
            else if (slot == &follow[nfollow])
                nfollow++;
        } else if (a[0] == '-' || input) {
            rc = usage();
            goto done;
        } else {
            input = a;
        }
    }
    if (!input || !prefix || !out || (lang && strcmp(lang, "c") != 0)) {
        if (lang && strcmp(lang, "c") != 0)
            fprintf(stderr, "sdkc generate: unsupported language '%s' (only c)\n", lang);
        rc = usage();
        goto done;
    }
    if (sdkc_diag_new(&diag) != SDKC_OK)
        goto done;
    if (sdkc_read_file(input, &text, &len) != SDKC_OK) {
        fprintf(stderr, "sdkc generate: error: cannot read %s\n", input);
        rc = 2; /* as `sdkc compile` for an input it cannot read */
        goto done;
    }
    sdkc_status st;
    if (looks_like_ir(text, len)) {
        if (ninclude || nfollow)
            fprintf(stderr, "sdkc generate: --include and --follow are ignored for IR input\n");
        st = sdkc_ir_from_json(&compiled, input, text, len, diag);
    } else {
        sdkc_compile_options co = SDKC_COMPILE_OPTIONS_INIT;
        co.include = include;
        co.ninclude = ninclude;
        co.follow = follow;
        co.nfollow = nfollow;
        st = sdkc_compile_file(&compiled, input, &co, diag);
    }
    if (st != SDKC_OK) {
        /* A contract or IR error is 2, as `sdkc compile` exits; running out of memory is 1. */
        sdkc_diag_print(diag, stderr, quiet);
        if (st != SDKC_ERR_NOMEM && sdkc_diag_errors(diag) == 0)
            fprintf(stderr, "%s: error: %s\n", input, sdkc_status_str(st));
        rc = st == SDKC_ERR_NOMEM ? 1 : 2;
        goto done;
    }
    sdkc_emit_c_options eo = SDKC_EMIT_C_OPTIONS_INIT;
    eo.prefix = prefix;
    eo.out_dir = out;
    eo.tests = tests;
    st = sdkc_emit_c(sdkc_compiled_ir(compiled), &eo, diag);
    sdkc_diag_print(diag, stderr, quiet); /* the compiler's warnings too, as compile prints them */
    rc = st == SDKC_OK ? 0 : 1;
done:
    sdkc_compiled_free(compiled);
    sdkc_diag_free(diag);
    free(text);
    free(include);
    free(follow);
    return rc;
}
