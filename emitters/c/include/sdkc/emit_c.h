/* sdkc/emit_c.h - the C emitter: writes a C SDK on libsdkrt from an IR.
 *
 * Output layout under out_dir: include/<prefix>/<prefix>.h (umbrella), include/<prefix>/types.h,
 * include/<prefix>/ops.h, src/types.c, src/ops.c, CMakeLists.txt, <prefix>.pc.in,
 * <prefix>Config.cmake.in, README.md. Output is deterministic: the same IR and options give the
 * same bytes.
 */
#ifndef SDKC_EMIT_C_H
#define SDKC_EMIT_C_H

#include "sdkc/diag.h"
#include "sdkc/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sdkc_emit_c_options {
    const char *prefix;  /* C prefix of every generated name, e.g. "oc"; a lower-case identifier */
    const char *out_dir; /* created when missing; files in it are overwritten */
    /* Also write tests/mock.c, one call per operation against a mock server (docs/mock.md), and
       a <prefix>_mock target in CMakeLists.txt. */
    bool tests;
} sdkc_emit_c_options;
#define SDKC_EMIT_C_OPTIONS_INIT                                                                   \
    {                                                                                              \
        NULL, NULL, false                                                                          \
    }

/* Emit the SDK for ir (borrowed). Errors (bad prefix, I/O) go to diag. */
sdkc_status sdkc_emit_c(const sdkc_ir *ir, const sdkc_emit_c_options *opts, sdkc_diag *diag);

/* `sdkc generate CONTRACT|IR --lang c --prefix PREFIX --out DIR [--include GLOB]...`:
 * argv[0] is "generate". Returns the process exit status (0 ok, 1 errors, 2 usage). */
int sdkc_emit_c_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif
