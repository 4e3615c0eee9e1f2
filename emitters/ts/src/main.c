/* `sdkc generate --lang ts`: load a contract or an IR JSON file and emit the TypeScript package. */
#include "ts_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: sdkc generate CONTRACT|IR --lang ts --out DIR [--prefix PACKAGE] "
    "[--include GLOB]... [--quiet]\n";

static int usage(void)
{
    fputs(usage_text, stderr);
    return 2;
}

/* IR JSON is recognised by its format marker near the start. */
static bool looks_like_ir(const char *text, size_t len)
{
    size_t n = len < 4096 ? len : 4096;
    for (size_t i = 0; i + 9 <= n; i++) {
        if (memcmp(text + i, SDKC_IR_FORMAT, 9) == 0)
            return true;
    }
    return false;
}

int sdkc_emit_ts_main(int argc, char **argv)
{
    const char *input = NULL, *lang = NULL, *prefix = NULL, *out = NULL;
    const char **include = calloc((size_t)(argc > 0 ? argc : 1), sizeof *include);
    size_t ninclude = 0;
    bool quiet = false;
    int rc = 1;
    char *text = NULL;
    size_t len = 0;
    sdkc_diag *diag = NULL;
    sdkc_compiled *compiled = NULL;
    if (!include)
        return 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf("%s", usage_text);
            printf("Writes an ESM TypeScript package (a Promise client on fetch): package.json, "
                   "tsconfig.json,\nREADME.md, src/{index,client,types,errors,runtime}.ts "
                   "(docs/ts-sdk.md). --prefix names the\npackage (default: sdk). Prints the "
                   "compiler's warnings like 'sdkc compile'; --quiet prints errors only.\n");
            rc = 0;
            goto done;
        }
        const char **slot = NULL;
        if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
            quiet = true;
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
        if (slot) {
            if (i + 1 >= argc) {
                rc = usage();
                goto done;
            }
            *slot = argv[++i];
            if (slot == &include[ninclude])
                ninclude++;
        } else if (a[0] == '-' || input) {
            rc = usage();
            goto done;
        } else {
            input = a;
        }
    }
    if (!input || !out || !lang || strcmp(lang, "ts") != 0) {
        rc = usage();
        goto done;
    }
    if (sdkc_diag_new(&diag) != SDKC_OK)
        goto done;
    if (sdkc_read_file(input, &text, &len) != SDKC_OK) {
        fprintf(stderr, "sdkc generate: cannot read %s\n", input);
        goto done;
    }
    sdkc_status st;
    if (looks_like_ir(text, len)) {
        if (ninclude)
            fprintf(stderr, "sdkc generate: --include is ignored for IR input\n");
        st = sdkc_ir_from_json(&compiled, input, text, len, diag);
    } else {
        sdkc_compile_options co = SDKC_COMPILE_OPTIONS_INIT;
        co.include = include;
        co.ninclude = ninclude;
        st = sdkc_compile_file(&compiled, input, &co, diag);
    }
    if (st != SDKC_OK) {
        sdkc_diag_print(diag, stderr, quiet);
        goto done;
    }
    sdkc_emit_ts_options eo = SDKC_EMIT_TS_OPTIONS_INIT;
    eo.package = prefix;
    eo.out_dir = out;
    st = sdkc_emit_ts(sdkc_compiled_ir(compiled), &eo, diag);
    sdkc_diag_print(diag, stderr, quiet);
    rc = st == SDKC_OK ? 0 : 1;
done:
    sdkc_compiled_free(compiled);
    sdkc_diag_free(diag);
    free(text);
    free(include);
    return rc;
}
