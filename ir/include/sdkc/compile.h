/* sdkc/compile.h - compiling a loaded contract (sdkc/doc.h) into the IR (sdkc/ir.h). */
#ifndef SDKC_COMPILE_H
#define SDKC_COMPILE_H

#include "sdkc/diag.h"
#include "sdkc/doc.h"
#include "sdkc/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sdkc_compile_options {
    const char *const *include; /* glob patterns over operation ids; none = all */
    size_t ninclude;
    /* Prefixes removed from operation ids to form group and name, e.g. "v2". NULL = {"v2"} */
    const char *const *strip_prefixes;
    size_t nstrip_prefixes;
    /* Durable-stream overrides, "OPID=PATH:PARAM" (PATH dotted wire names: "durable.seq") or
       "OPID=off"; they replace detection for that operation (see sdkc_follow). */
    const char *const *follow;
    size_t nfollow;
    /* A pagination config file (docs/pagination.md) that overrides detection per operation, or
       NULL. Its errors are reported at its own file:line:col. */
    const char *pagination_file;
} sdkc_compile_options;
#define SDKC_COMPILE_OPTIONS_INIT                                                                  \
    {                                                                                              \
        NULL, 0, NULL, 0, NULL, 0, NULL                                                            \
    }

typedef struct sdkc_compiled sdkc_compiled; /* owns an IR and its arena */

/* Compile a loaded document. On success (no errors; warnings may be present) *out is new and
 * owned by the caller. On failure *out is NULL and diag holds the errors. doc is borrowed and may
 * be freed after the call (names and locations are copied). */
sdkc_status sdkc_compile(sdkc_compiled **out, const sdkc_doc *doc, const sdkc_compile_options *opts,
                         sdkc_diag *diag);
/* Load and compile a contract file in one step. */
sdkc_status sdkc_compile_file(sdkc_compiled **out, const char *path,
                              const sdkc_compile_options *opts, sdkc_diag *diag);
/* Borrowed; valid until the compiled object is freed. */
const sdkc_ir *sdkc_compiled_ir(const sdkc_compiled *c);
void sdkc_compiled_free(sdkc_compiled *c); /* NULL is a no-op */

#ifdef __cplusplus
}
#endif
#endif
