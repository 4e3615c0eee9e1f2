/* fuzz_compile.c - load and compile arbitrary contracts: every input either compiles to an IR
 * that serialises, or fails with at least one located error. */
#include <stdint.h>
#include <stdlib.h>

#include "sdkc/diag.h"
#include "sdkc/doc.h"
#include "sdkc/ir.h"
#include "sdkc/compile.h"
#include "sdkc/ir_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sdkc_diag *diag = NULL;
    sdkc_doc *doc = NULL;
    sdkc_compiled *c = NULL;
    char *json = NULL;
    size_t len = 0;
    if (sdkc_diag_new(&diag) != SDKC_OK)
        return 0;
    if (sdkc_doc_load_buffer(&doc, "fuzz.yaml", (const char *)data, size, diag) != SDKC_OK)
        goto done;
    sdkc_compile_options opts = SDKC_COMPILE_OPTIONS_INIT;
    sdkc_status st = sdkc_compile(&c, doc, &opts, diag);
    if (st == SDKC_OK) {
        if (sdkc_ir_to_json(sdkc_compiled_ir(c), &json, &len) != SDKC_OK)
            __builtin_trap();
    } else if (st != SDKC_ERR_NOMEM && sdkc_diag_errors(diag) == 0) {
        __builtin_trap(); /* a rejected contract must say why */
    }
done:
    free(json);
    sdkc_compiled_free(c);
    sdkc_doc_free(doc);
    sdkc_diag_free(diag);
    return 0;
}
