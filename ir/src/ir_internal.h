/* ir_internal.h - what the compiler (compile*.c) and the IR JSON reader (ir_json_read*.c)
 * share: the owner of an IR. Not installed; emitters see only sdkc/ir.h. */
#ifndef SDKC_IR_INTERNAL_H
#define SDKC_IR_INTERNAL_H

#include "sdkc/ir.h"
#include "sdkc/util.h"

/* Everything the IR points at lives in arena; the IR's arrays are arena allocations too, so
 * sdkc_compiled_free releases it all at once. */
struct sdkc_compiled {
    sdkc_arena *arena;
    sdkc_ir ir;
};

/* A zeroed sdkc_compiled with a fresh arena (new; release with sdkc_compiled_free). */
sdkc_status sdkc_compiled_new(sdkc_compiled **out);

#endif
