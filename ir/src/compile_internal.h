/* compile_internal.h - private declarations shared by the compiler's source files (compile.c,
 * schema.c, ops.c, naming.c). Not installed. */
#ifndef SDKC_COMPILE_INTERNAL_H
#define SDKC_COMPILE_INTERNAL_H

#include "context.h"

/* schema.c */
bool sdkc_schema_declare_components(cctx *c); /* components: shells, names */
void sdkc_schema_fill_components(cctx *c);    /* fill every component */
sdkc_type *sdkc_schema_type(cctx *c, const sdkc_node *n, const char *ctxname, const char *origin);
/* Is name free for a new type: no type has it, nor its snake_case spelling? */
bool sdkc_schema_name_free(cctx *c, const char *name);
sdkc_type *sdkc_schema_any(cctx *c, const sdkc_node *n, const char *origin, const char *reason);
/* A string literal type (one fixed value) and a plain string type, for parameters that the
 * contract implies without a schema. */
sdkc_type *sdkc_schema_string_literal(cctx *c, const sdkc_node *n, const char *text);
sdkc_type *sdkc_schema_plain_string(cctx *c, const sdkc_node *n);
sdkc_type *sdkc_schema_nullable(cctx *c, const sdkc_type *inner, const sdkc_node *n);
/* After operations: discriminators, brands, recursion, alias copies, sorted list, safe names. */
void sdkc_schema_finish(cctx *c, sdkc_ir *ir);
/* Count a field or parameter name that uses a brand. */
void sdkc_schema_brand_vote(cctx *c, const sdkc_type *t, const char *field);

/* ops.c */
void sdkc_ops_build(cctx *c, sdkc_ir *ir);

/* paging.c */
/* Load opts->pagination_file (errors at its own positions); false only when out of memory. */
bool sdkc_paging_load_config(cctx *c);
/* Decide op->pagination for a JSON success: the config entry for op->id, else an extension of
 * the operation object, else the heuristics. resp is the success response object. */
void sdkc_paging_decide(cctx *c, const sdkc_node *opnode, const sdkc_node *resp,
                        sdkc_operation *op);
/* Warn about config entries no compiled operation took. */
void sdkc_paging_check_config(cctx *c, const sdkc_ir *ir);

#endif
