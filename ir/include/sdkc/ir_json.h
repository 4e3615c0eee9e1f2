/* sdkc/ir_json.h - the IR as versioned JSON ("sdkc-ir/1", docs/ir-format.md) and back. */
#ifndef SDKC_IR_JSON_H
#define SDKC_IR_JSON_H

#include <stdio.h>

#include "sdkc/compile.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Serialise as "sdkc-ir/1" JSON (new, free()); deterministic bytes, ending in a newline. */
sdkc_status sdkc_ir_to_json(const sdkc_ir *ir, char **out, size_t *len_out);
/* The same bytes written to fp (borrowed) as they are made, a block at a time, so that the text
 * of a large IR is never held whole. SDKC_ERR_IO (errno set) when a write fails. */
sdkc_status sdkc_ir_write_json(const sdkc_ir *ir, FILE *fp);
/* Read IR JSON back. Writing the result again gives the same bytes. Errors go to diag with
 * positions in the JSON text. */
sdkc_status sdkc_ir_from_json(sdkc_compiled **out, const char *name, const char *json, size_t len,
                              sdkc_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
