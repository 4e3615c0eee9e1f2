/* compile.c - the compiler driver: a loaded contract document in, an IR out, through the passes
 * below in order. Nothing but the list of passes and the context's lifetime lives here
 * (docs/compiler.md). */
#include <string.h>

#include "contract.h"
#include "ops.h"
#include "paging.h"
#include "schema.h"
#include "sdkc/compile.h"

static const struct {
    const char *name;
    sdkc_pass_fn *run;
} PASSES[] = {
    {"contract header", sdkc_contract_header},
    {"component shells", sdkc_schema_declare_components},
    {"component schemas", sdkc_schema_fill_components},
    {"pagination config", sdkc_paging_load_config},
    {"operations", sdkc_ops_build},
    {"pagination", sdkc_paging_decide},
    {"data unwrapping", sdkc_ops_unwrap_data},
    {"durable streams", sdkc_ops_detect_follow},
    {"unused pagination config", sdkc_paging_check_config},
    {"empty cycles", sdkc_schema_check_empty_cycles},
    {"discriminators", sdkc_schema_find_discriminators},
    {"brand votes", sdkc_schema_count_brand_votes},
    {"brand names", sdkc_schema_name_brands},
    {"recursion", sdkc_schema_mark_recursive},
    {"aliases", sdkc_schema_copy_aliases},
    {"type list", sdkc_schema_list_types},
};

sdkc_status sdkc_compile(sdkc_compiled **out, const sdkc_doc *doc, const sdkc_compile_options *opts,
                         sdkc_diag *diag)
{
    static const sdkc_compile_options defaults = SDKC_COMPILE_OPTIONS_INIT;
    if (out)
        *out = NULL;
    if (!out || !doc)
        return SDKC_ERR_INVALID;
    sdkc_compiled *res = NULL;
    sdkc_status st = sdkc_compiled_new(&res);
    if (st != SDKC_OK)
        return st;
    cctx c;
    memset(&c, 0, sizeof c);
    sdkc_map_init(&c.reported, SDKC_MAP_POINTERS);
    sdkc_map_init(&c.interned, SDKC_MAP_STRINGS);
    sdkc_map_init(&c.c_names, SDKC_MAP_STRINGS);
    c.a = res->arena;
    c.doc = doc;
    c.diag = diag;
    c.opts = opts ? opts : &defaults;
    c.root = sdkc_doc_root(doc);
    c.file = sdkc_cc_strdup(&c, sdkc_doc_name(doc) ? sdkc_doc_name(doc) : "<contract>");
    bool go = c.file != NULL;
    for (size_t i = 0; go && i < sizeof PASSES / sizeof PASSES[0]; i++)
        go = PASSES[i].run(&c, &res->ir) && !c.nomem;
    st = c.nomem ? SDKC_ERR_NOMEM : c.nerrors > 0 || !go ? SDKC_ERR_INVALID : SDKC_OK;
    if (st == SDKC_OK) {
        *out = res;
        res = NULL;
    }
    sdkc_schema_cleanup(&c);
    sdkc_paging_cleanup(&c);
    sdkc_map_cleanup(&c.reported);
    sdkc_map_cleanup(&c.interned);
    sdkc_map_cleanup(&c.c_names);
    sdkc_compiled_free(res);
    return st;
}

sdkc_status sdkc_compile_file(sdkc_compiled **out, const char *path,
                              const sdkc_compile_options *opts, sdkc_diag *diag)
{
    if (!out)
        return SDKC_ERR_INVALID;
    *out = NULL;
    sdkc_doc *doc = NULL;
    sdkc_status st = sdkc_doc_load_file(&doc, path, diag);
    if (st == SDKC_OK)
        st = sdkc_compile(out, doc, opts, diag);
    sdkc_doc_free(doc);
    return st;
}
