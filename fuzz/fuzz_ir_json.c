/* fuzz_ir_json.c - the IR JSON reader on arbitrary bytes. What it accepts must write back, read
 * again and write the same bytes (the format's round-trip promise). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sdkc/diag.h"
#include "sdkc/ir.h"
#include "sdkc/compile.h"
#include "sdkc/ir_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sdkc_diag *diag = NULL;
    sdkc_compiled *a = NULL, *b = NULL;
    char *ja = NULL, *jb = NULL;
    size_t la = 0, lb = 0;
    if (sdkc_diag_new(&diag) != SDKC_OK)
        return 0;
    if (sdkc_ir_from_json(&a, "fuzz.ir.json", (const char *)data, size, diag) != SDKC_OK)
        goto done;
    if (sdkc_ir_to_json(sdkc_compiled_ir(a), &ja, &la) != SDKC_OK)
        goto done;
    if (sdkc_ir_from_json(&b, "fuzz.ir.json", ja, la, diag) != SDKC_OK)
        __builtin_trap(); /* our own output must read back */
    if (sdkc_ir_to_json(sdkc_compiled_ir(b), &jb, &lb) != SDKC_OK)
        goto done;
    if (la != lb || memcmp(ja, jb, la) != 0)
        __builtin_trap();
done:
    free(ja);
    free(jb);
    sdkc_compiled_free(a);
    sdkc_compiled_free(b);
    sdkc_diag_free(diag);
    return 0;
}
