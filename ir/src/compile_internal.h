/* compile_internal.h - private declarations shared by the compiler's source files (compile.c,
 * schema.c, ops.c, naming.c). Not installed. */
#ifndef SDKC_COMPILE_INTERNAL_H
#define SDKC_COMPILE_INTERNAL_H

#include <stdlib.h>

#include "ir_internal.h"
#include "sdkc/map.h"
#include "sdkc/doc.h"
#include "sdkc/ir.h"

/* ---- compile context ---- */

typedef enum comp_state { COMP_TODO, COMP_BUSY, COMP_DONE, COMP_ALIAS } comp_state;

typedef struct comp {
    const char *name;      /* component name as written (arena copy) */
    const sdkc_node *node; /* its schema */
    sdkc_type *shell;      /* the named type, filled in place */
    comp_state state;
    const sdkc_node *target; /* COMP_ALIAS: the final schema of its $ref chain */
} comp;

/* A brand's vote count per field name that uses it. */
typedef struct brand_acc {
    sdkc_brand *brand;
    const char **names;
    size_t *counts;
    size_t n, cap;
} brand_acc;

typedef struct cctx {
    sdkc_arena *a; /* the IR's arena */
    const sdkc_doc *doc;
    sdkc_diag *diag;
    const sdkc_compile_options *opts;
    const char *file; /* arena copy of the contract name, used in every sdkc_loc */
    const sdkc_node *root;
    bool nomem;
    bool oas31; /* the contract says openapi: 3.1.x (or later 3.x) */
    int depth;
    const char *op_context; /* the Pascal name of the operation being built, or NULL */
    size_t nerrors;

    comp *comps;
    size_t ncomps;
    sdkc_map comp_by_node;      /* schema node -> comp* */
    sdkc_map ref_cache;         /* non-component $ref target node -> sdkc_type* */
    sdkc_map busy;              /* sdkc_type* being filled -> non-NULL */
    sdkc_map reported;          /* $ref nodes already reported as broken */
    sdkc_map disc_hints;        /* union sdkc_type* -> its OpenAPI `discriminator` node */
    sdkc_map names;             /* type name -> sdkc_type* (every named type) */
    sdkc_map snakes;            /* snake_case of every type name -> sdkc_type* (the first) */
    sdkc_map titles;            /* name from an inline schema's `title` -> that schema's node */
    sdkc_vec named;             /* named types, creation order */
    sdkc_vec all;               /* every type, creation order */
    sdkc_vec unions;            /* unions awaiting discriminator detection */
    sdkc_map brands;            /* prefix -> brand_acc* */
    sdkc_vec brand_list;        /* brand_acc*, creation order */
    sdkc_doc *pages_doc;        /* the pagination config file, or NULL */
    const sdkc_node *pages_ops; /* its "operations" mapping, or NULL */
    sdkc_map pages_used;        /* config entries (value nodes) an operation took */
} cctx;

sdkc_loc cc_loc(const cctx *c, const sdkc_node *n);
void cc_error(cctx *c, const sdkc_node *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void cc_warn(cctx *c, const sdkc_node *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void *cc_alloc(cctx *c, size_t n);
char *cc_strdup(cctx *c, const char *s);
char *cc_printf(cctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A JSON pointer one step below base, with ~ and / escaped. */
char *cc_ptr_child(cctx *c, const char *base, const char *seg);
char *cc_ptr_index(cctx *c, const char *base, size_t i);
char *cc_concat(cctx *c, const char *a, const char *b); /* NULL counts as "" */
const char *cc_text(const sdkc_node *n);                /* scalar text or NULL */
/* For %s arguments that are NULL only after an allocation failed. */
static inline const char *nz(const char *s)
{
    return s ? s : "";
}
const char *cc_docs(cctx *c, const sdkc_node *schema);

/* schema.c */
bool cc_schemas_init(cctx *c); /* components: shells, names */
void cc_schemas_fill(cctx *c); /* fill every component */
sdkc_type *cc_schema(cctx *c, const sdkc_node *n, const char *ctxname, const char *origin);
/* Is name free for a new type: no type has it, nor its snake_case spelling? */
bool cc_name_free(cctx *c, const char *name);
sdkc_type *cc_any(cctx *c, const sdkc_node *n, const char *origin, const char *reason);
/* A string literal type (one fixed value) and a plain string type, for parameters that the
 * contract implies without a schema. */
sdkc_type *cc_string_literal(cctx *c, const sdkc_node *n, const char *text);
sdkc_type *cc_plain_string(cctx *c, const sdkc_node *n);
sdkc_type *cc_nullable(cctx *c, const sdkc_type *inner, const sdkc_node *n);
/* After operations: discriminators, brands, recursion, alias copies, sorted list, safe names. */
void cc_schemas_finish(cctx *c, sdkc_ir *ir);
/* The type behind NULLABLE wrappers. */
const sdkc_type *cc_strip_nullable(const sdkc_type *t);
/* Follow a local $ref; NULL (with an error reported) when it dangles. */
const sdkc_node *cc_resolve_ref(cctx *c, const sdkc_node *refnode);
/* Count a field or parameter name that uses a brand. */
void cc_brand_vote(cctx *c, const sdkc_type *t, const char *field);

/* ops.c */
void cc_operations(cctx *c, sdkc_ir *ir);
/* The field of an object type (through NULLABLE) with that wire name, or NULL. */
const sdkc_field *cc_field_of(const sdkc_type *t, const char *wire);
/* The query parameter of op with that wire name, or NULL. */
const sdkc_param *cc_query_param(const sdkc_operation *op, const char *name);

/* response_info.c: the media types, headers and links of a response node into *out. */
void cc_response_info(cctx *c, const sdkc_node *resp, sdkc_response_info *out);

/* paging.c */
/* Load opts->pagination_file (errors at its own positions); false only when out of memory. */
bool cc_pages_config_load(cctx *c);
/* Decide op->pagination for a JSON success: the config entry for op->id, else an extension of
 * the operation object, else the heuristics. resp is the success response object. */
void cc_paginate(cctx *c, const sdkc_node *opnode, const sdkc_node *resp, sdkc_operation *op);
/* Warn about config entries no compiled operation took. */
void cc_pages_config_finish(cctx *c, const sdkc_ir *ir);

#endif
