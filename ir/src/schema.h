/* schema.h - the schema stage: JSON Schema (OpenAPI 3.0 / 3.1 dialects) to IR types. The lowest
 * stage: it includes the compiler context only, and its state (struct sdkc_schemas, c->schemas)
 * is its own. The stages above (paging, ops) convert the schemas they meet through
 * sdkc_schema_type and amend finished types only through sdkc_schema_retype_field. Not installed.
 */
#ifndef SDKC_SCHEMA_H
#define SDKC_SCHEMA_H

#include "context.h"

/* ---- passes (the driver lists them) ---- */

/* The stage's state, then a named shell for every component schema (names reserved). */
sdkc_pass_fn sdkc_schema_declare_components;
/* Fill every component shell. */
sdkc_pass_fn sdkc_schema_fill_components;
/* After the operations: count the field and parameter names that use each brand. */
sdkc_pass_fn sdkc_schema_count_brand_votes;
/* Report named types that are only themselves (through nullables and one-variant unions). */
sdkc_pass_fn sdkc_schema_check_empty_cycles;
/* Discriminators and variant names of every union. */
sdkc_pass_fn sdkc_schema_find_discriminators;
/* Name the brands after their votes; ir->brands. */
sdkc_pass_fn sdkc_schema_name_brands;
/* Mark the types that reach themselves. */
sdkc_pass_fn sdkc_schema_mark_recursive;
/* An alias component becomes a copy of its target under its own name. */
sdkc_pass_fn sdkc_schema_copy_aliases;
/* ir->types: every named type, sorted by name, with its C-safe name. */
sdkc_pass_fn sdkc_schema_list_types;
/* Release the stage's state (c->schemas may be NULL). */
void sdkc_schema_cleanup(cctx *c);

/* ---- for the stages above ---- */

/* The type of schema n. ctxname names the inline types it makes (NULL: unnamed); origin is the
 * JSON pointer of n (arena, borrowed). NULL only when out of memory. */
sdkc_type *sdkc_schema_type(cctx *c, const sdkc_node *n, const char *ctxname, const char *origin);
/* Is name free for a new type: no type has it, nor its snake_case spelling? */
bool sdkc_schema_name_free(cctx *c, const char *name);
/* An ANY type; with a reason, a warning at n says why the schema became raw JSON. */
sdkc_type *sdkc_schema_any(cctx *c, const sdkc_node *n, const char *origin, const char *reason);
/* A string literal type (one fixed value) and a plain string type, for parameters that the
 * contract implies without a schema. */
sdkc_type *sdkc_schema_string_literal(cctx *c, const sdkc_node *n, const char *text);
sdkc_type *sdkc_schema_plain_string(cctx *c, const sdkc_node *n);
/* inner that admits null: inner itself when it already does. */
sdkc_type *sdkc_schema_nullable(cctx *c, const sdkc_type *inner, const sdkc_node *n);
/* inner admitting a null the contract does not allow (a new nullable marked lenient, so that
 * conformance still reports it): what live servers send beside the contract. */
sdkc_type *sdkc_schema_lenient_nullable(cctx *c, const sdkc_type *inner);
/* Give field wire of object (through NULLABLE) another type: how a later stage amends a type this
 * stage built. false when object has no such field. */
bool sdkc_schema_retype_field(cctx *c, const sdkc_type *object, const char *wire,
                              const sdkc_type *type);

#endif
