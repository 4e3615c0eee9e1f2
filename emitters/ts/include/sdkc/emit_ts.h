/* sdkc/emit_ts.h - the TypeScript emitter: writes an ESM TypeScript package (a Promise client on
 * fetch) from an IR.
 *
 * Output layout under out_dir: package.json, tsconfig.json, README.md, src/index.ts,
 * src/client.ts (client, one class per operation group, inputs, cursors), src/types.ts,
 * src/errors.ts (one Error class per declared `_tag`), src/runtime.ts (fixed: pages, streams,
 * errors, wire rules, SSE). Deterministic: the same IR and options give the same bytes.
 */
#ifndef SDKC_EMIT_TS_H
#define SDKC_EMIT_TS_H

#include "sdkc/diag.h"
#include "sdkc/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sdkc_emit_ts_options {
    const char *package; /* the npm package name; NULL: "sdk" */
    const char *out_dir; /* created when missing; files in it are overwritten */
    /* Also write tests/mock.ts, one call per operation against a mock server (docs/mock.md),
       its fixed tests/mock-harness.ts and tests/tsconfig.json, and the `mock` npm script. */
    bool tests;
    /* The package version (a semantic version); NULL: the contract's info.version when that is
       one, else 0.0.0. */
    const char *version;
} sdkc_emit_ts_options;
#define SDKC_EMIT_TS_OPTIONS_INIT                                                                  \
    {                                                                                              \
        NULL, NULL, false, NULL                                                                    \
    }

/* Emit the package for ir (borrowed). Errors (bad package name or version, I/O) go to diag. */
sdkc_status sdkc_emit_ts(const sdkc_ir *ir, const sdkc_emit_ts_options *opts, sdkc_diag *diag);

/* `sdkc generate CONTRACT|IR --lang ts --out DIR [--prefix NAME] [--package-version V]
 * [--include GLOB]... [--quiet]`:
 * argv[0] is "generate". Returns the process exit status (0 ok, 1 errors, 2 usage). */
int sdkc_emit_ts_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif
