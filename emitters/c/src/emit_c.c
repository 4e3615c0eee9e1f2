/* The C emitter: entry points. */
#include "sdkc/emit_c.h"

#include <stdio.h>

sdkc_status sdkc_emit_c(const sdkc_ir *ir, const sdkc_emit_c_options *opts, sdkc_diag *diag)
{
    (void)ir;
    (void)opts;
    sdkc_loc loc = {NULL, 0, 0};
    sdkc_diag_add(diag, SDKC_SEV_ERROR, loc, "the C emitter is not implemented yet");
    return SDKC_ERR_INVALID;
}

int sdkc_emit_c_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "sdkc generate: not implemented yet\n");
    return 1;
}
