/* `sdkc generate --lang c`: what the C emitter takes; the command line and loading are the
 * kit's (sdkc_kit_generate_main). */
#include "sdkc/emit_c.h"
#include "sdkc/emitkit.h"

static sdkc_status emit(const sdkc_ir *ir, const sdkc_kit_generate_args *a, sdkc_diag *diag)
{
    sdkc_emit_c_options eo = SDKC_EMIT_C_OPTIONS_INIT;
    eo.prefix = a->prefix;
    eo.out_dir = a->out;
    eo.tests = a->tests;
    return sdkc_emit_c(ir, &eo, diag);
}

int sdkc_emit_c_main(int argc, char **argv)
{
    static const sdkc_kit_generate g = {
        "c",
        "usage: sdkc generate CONTRACT|IR --lang c --prefix PREFIX --out DIR "
        "[--include GLOB]... [--follow OPID=PATH:PARAM]... [--pagination FILE] [--examples DIR] "
        "[--tests] [--quiet]\n",
        "Writes a C SDK on libsdkrt: include/PREFIX/*.h, src/*.c, CMakeLists.txt, README.md.\n"
        "--follow marks a stream durable (or OPID=off: not), as for 'sdkc compile'; durable "
        "streams get a follower.\n"
        "--pagination FILE overrides how operations page (docs/pagination.md); every paginated "
        "operation gets _iter.\n"
        "--examples DIR copies DIR/*.c to examples/, installed with the SDK to "
        "share/doc/PREFIX/examples.\n"
        "--tests also writes tests/mock.c (target PREFIX_mock): one call per operation against a "
        "mock server\n(`PREFIX_mock BASE_URL`, see docs/mock.md).\n"
        "Prints the compiler's warnings like 'sdkc compile'; --quiet prints errors only.\n",
        true,
        emit,
        ".c",
        false, /* no --package-version: the C SDK's version is the contract's */
    };
    return sdkc_kit_generate_main(&g, argc, argv);
}
