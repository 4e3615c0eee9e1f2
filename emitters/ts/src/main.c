/* `sdkc generate --lang ts`: what the TypeScript emitter takes; the command line and loading are
 * the kit's (sdkc_kit_generate_main). */
#include "ts_internal.h"

static sdkc_status emit(const sdkc_ir *ir, const sdkc_kit_generate_args *a, sdkc_diag *diag)
{
    sdkc_emit_ts_options eo = SDKC_EMIT_TS_OPTIONS_INIT;
    eo.package = a->prefix;
    eo.out_dir = a->out;
    eo.tests = a->tests;
    eo.version = a->package_version;
    return sdkc_emit_ts(ir, &eo, diag);
}

int sdkc_emit_ts_main(int argc, char **argv)
{
    static const sdkc_kit_generate g = {
        "ts",
        "usage: sdkc generate CONTRACT|IR --lang ts --out DIR [--prefix PACKAGE] "
        "[--package-version V] [--include GLOB]... [--follow OPID=PATH:PARAM]... [--examples DIR] "
        "[--tests] [--quiet]\n",
        "Writes an ESM TypeScript package (a Promise client on fetch): package.json, "
        "tsconfig.json,\nREADME.md, src/{index,client,types,errors,runtime}.ts (docs/ts-sdk.md). "
        "--prefix names the\npackage (default: sdk). --package-version sets its version (semver; "
        "default: the\ncontract's info.version when that is semver, else 0.0.0). --tests also "
        "writes tests/mock.ts: one call "
        "per operation against a\nmock server (`npm run mock -- BASE_URL`, see docs/mock.md). "
        "--examples DIR copies DIR/*.ts to examples/.\n"
        "Prints the compiler's warnings\nlike 'sdkc compile'; --quiet prints errors only.\n",
        false,
        emit,
        ".ts",
        true,
    };
    return sdkc_kit_generate_main(&g, argc, argv);
}
