/* context.h - the compiler context: what every stage of the compiler shares. Allocation into the
 * IR's arena with out-of-memory tracking, diagnostics, unique names and the one `$ref` follower.
 * Below the stages (schema < paging < ops) and above the IR model (ir_internal.h) and the source
 * model (sdkc/doc.h). Not installed.
 *
 * Every allocation helper returns NULL and sets c->nomem when out of memory, so that a stage may
 * allocate many times and the driver checks once between passes. */
#ifndef SDKC_CONTEXT_H
#define SDKC_CONTEXT_H

#include <stdlib.h>

#include "ir_internal.h"
#include "sdkc/doc.h"
#include "sdkc/ir.h"
#include "sdkc/map.h"
#include "sdkc/compile.h"

/* ---- the context ---- */

/* A pass of the compiler (the driver, compile.c, lists them in order): false stops the compile
 * (out of memory, or a contract nothing more can be read from). */
typedef struct cctx cctx;
typedef bool sdkc_pass_fn(cctx *c, sdkc_ir *ir);

/* An operation of the IR and where it came from. */
typedef struct sdkc_op_source {
    sdkc_operation *op;       /* ir->ops[i], writable by the passes after the operations */
    const sdkc_node *node;    /* its operation object */
    const sdkc_node *success; /* its main success response, or NULL */
} sdkc_op_source;

struct cctx {
    sdkc_arena *a; /* the IR's arena */
    const sdkc_doc *doc;
    sdkc_diag *diag;
    const sdkc_compile_options *opts;
    const char *file; /* arena copy of the contract name, used in every sdkc_loc */
    const sdkc_node *root;
    bool nomem;
    bool oas31; /* the contract says openapi: 3.1.x (or later 3.x) */
    size_t nerrors;
    sdkc_map reported;   /* $ref nodes already reported as broken */
    sdkc_map interned;   /* texts kept once in the IR's arena (sdkc_cc_intern) */
    sdkc_map c_names;    /* a text -> its C name (sdkc_cc_c_name) */
    const char *op_name; /* the Pascal name of the operation being built, or NULL */

    /* each stage's own state, defined and used by that stage alone */
    struct sdkc_schemas *schemas; /* schema.h */
    struct sdkc_pages *pages;     /* paging.h */

    /* the operations built, for the passes after them (ir->ops, in its order) */
    sdkc_op_source *op_sources;
    size_t nop_sources;
};

/* ---- diagnostics: every report goes through sdkc_cc_report ---- */

/* The position of n in the contract (line 0 for NULL: the whole file). */
sdkc_loc sdkc_cc_loc(const cctx *c, const sdkc_node *n);
/* Report at loc; an error counts towards the compile's failure. */
void sdkc_cc_report(cctx *c, sdkc_severity sev, sdkc_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void sdkc_cc_vreport(cctx *c, sdkc_severity sev, sdkc_loc loc, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));
/* Report at a node of the contract. */
void sdkc_cc_error(cctx *c, const sdkc_node *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void sdkc_cc_warn(cctx *c, const sdkc_node *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- allocation (arena; NULL and c->nomem when out of memory) ---- */

void *sdkc_cc_alloc(cctx *c, size_t n);       /* zeroed; n 0 counts as 1 */
char *sdkc_cc_strdup(cctx *c, const char *s); /* NULL for NULL */
/* The IR arena's one copy of s (NULL for NULL): for texts that repeat and are never changed,
 * such as field wire names. */
const char *sdkc_cc_intern(cctx *c, const char *s);
char *sdkc_cc_printf(cctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *sdkc_cc_concat(cctx *c, const char *a, const char *b); /* NULL counts as "" */
/* A JSON pointer one step below base, with ~ and / escaped. */
char *sdkc_cc_ptr_child(cctx *c, const char *base, const char *seg);
char *sdkc_cc_ptr_index(cctx *c, const char *base, size_t i);
/* An arena copy of the `description` of an object of the contract, or NULL. */
const char *sdkc_cc_docs(cctx *c, const sdkc_node *n);

/* Scalar text of n, or NULL (n may be NULL). */
static inline const char *sdkc_cc_text(const sdkc_node *n)
{
    return n ? sdkc_node_text(n) : NULL;
}
/* For %s arguments that are NULL only after an allocation failed. */
static inline const char *nz(const char *s)
{
    return s ? s : "";
}

/* ---- unique names ---- */

/* Whether name is in use, as the caller keeps names: arg is the caller's. */
typedef bool sdkc_cc_taken_fn(const void *arg, const char *name);
/* The first of base, base SEP 2, base SEP 3, ... that taken does not know (base itself, or an
 * arena string). NULL only when out of memory or base is NULL. */
const char *sdkc_cc_unique(cctx *c, const char *base, const char *sep, sdkc_cc_taken_fn *taken,
                           const void *arg);
/* The same over the keys of a string map. */
const char *sdkc_cc_unique_in(cctx *c, const sdkc_map *names, const char *base, const char *sep);
/* A C identifier for text: snake_case, a trailing '_' on a C keyword. NULL when out of memory. */
const char *sdkc_cc_c_name(cctx *c, const char *text);
/* sdkc_cc_c_name made unique in names ("_2", "_3", ...) and put there with value. */
const char *sdkc_cc_unique_c_name(cctx *c, sdkc_map *names, const char *text, void *value);

/* ---- references ---- */

/* The node a local `$ref` (the value node of the key) names; NULL, reported once per reference
 * node, when it is not a string, not local, or dangles. */
const sdkc_node *sdkc_cc_resolve_ref(cctx *c, const sdkc_node *refnode);
/* An OpenAPI object that may be a `{$ref}` (a parameter, a response, a path item...): the object
 * it stands for, references followed (up to 32); NULL when one dangles. */
const sdkc_node *sdkc_cc_deref(cctx *c, const sdkc_node *n);
/* The same without reporting a broken reference (NULL then; also after 32 references): for parts
 * of a contract that change nothing clients send or decode. */
const sdkc_node *sdkc_cc_deref_quiet(cctx *c, const sdkc_node *n);

#endif
