/* fuzz_loader.c - the contract loader (libyaml events to a positioned tree) on arbitrary bytes. */
#include <stdint.h>
#include <stdio.h>

#include "sdkc/diag.h"
#include "sdkc/doc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sdkc_diag *diag = NULL;
    sdkc_doc *doc = NULL;
    if (sdkc_diag_new(&diag) != SDKC_OK)
        return 0;
    if (sdkc_doc_load_buffer(&doc, "fuzz.yaml", (const char *)data, size, diag) == SDKC_OK) {
        /* Walk what the helpers expose so a malformed tree would show. */
        const sdkc_node *root = sdkc_doc_root(doc);
        (void)sdkc_node_get(root, "openapi");
        (void)sdkc_doc_pointer(doc, "/components/schemas");
        (void)sdkc_doc_node_count(doc);
    } else if (sdkc_diag_errors(diag) == 0) {
        /* A failed load must say why. */
        __builtin_trap();
    }
    sdkc_doc_free(doc);
    sdkc_diag_free(diag);
    return 0;
}
