/* schema_internal.h - what the files of the schema stage share: its state (struct sdkc_schemas,
 * c->schemas) and the functions one file gives the others (sdkc_sch_*). Only schema*.c include
 * it. Not installed.
 *
 *   schema.c         the conversion core: type construction, references, schema_type, components,
 *                    the stage's entry points (schema.h)
 *   schema_names.c   type names (context names, titles) and brands (prefixes, votes, names)
 *   schema_kinds.c   keywords to kinds: const and enum, unions, scalars, arrays, `type`
 *   schema_object.c  objects and maps, properties merged from allOf members
 *   schema_allof.c   allOf: members flattened, classified and merged
 *   schema_finish.c  the finishing passes: discriminators, recursion, empty cycles, type list
 */
#ifndef SDKC_SCHEMA_INTERNAL_H
#define SDKC_SCHEMA_INTERNAL_H

#include <string.h>

#include "schema.h"

#define MAX_DEPTH       512 /* nested schema conversion frames */
#define MAX_LAZY_DEPTH  128 /* past this, a component reference is filled later, not now */
#define MAX_ALLOF_PARTS 64  /* schemas one allOf flattens to */

typedef enum comp_state { COMP_TODO, COMP_BUSY, COMP_DONE, COMP_ALIAS } comp_state;

/* A component schema: its named type is made up front (a shell), filled when first needed. */
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

/* The schema stage's state (c->schemas). */
struct sdkc_schemas {
    int depth; /* nested sdkc_sch_type frames */
    comp *comps;
    size_t ncomps;
    sdkc_map comp_by_node;    /* schema node -> comp* */
    sdkc_map ref_cache;       /* non-component $ref target node -> sdkc_type* */
    sdkc_map busy;            /* sdkc_type* being filled -> non-NULL */
    sdkc_map disc_hints;      /* union sdkc_type* -> its OpenAPI `discriminator` node */
    sdkc_map names;           /* type name -> sdkc_type* (every named type) */
    sdkc_map snakes;          /* snake_case of every type name -> sdkc_type* (the first) */
    sdkc_map titles;          /* name from an inline schema's `title` -> that schema's node */
    sdkc_vec named;           /* named types, creation order */
    sdkc_vec all;             /* every type, creation order */
    sdkc_vec unions;          /* unions awaiting discriminator detection */
    sdkc_vec field_lists;     /* field_list*: the fields of each object built (brand votes) */
    sdkc_map fields_by_array; /* an object's fields array -> its field_list* (amendments) */
    sdkc_map brands;          /* prefix -> brand_acc* */
    sdkc_vec brand_list;      /* brand_acc*, creation order */
};

/* The fields of an object as it was built. */
typedef struct field_list {
    sdkc_field *fields;
    size_t n;
} field_list;

/* sdkc_node_get for the small maps schemas are: a scan that mostly stops at the first byte. */
static inline const sdkc_node *kget(const sdkc_node *n, const char *key)
{
    if (!n || n->kind != SDKC_NODE_MAP)
        return NULL;
    if (n->npairs > 16)
        return sdkc_node_get(n, key);
    for (size_t i = 0; i < n->npairs; i++) {
        const char *k = n->pairs[i].key->str;
        if (k[0] == key[0] && strcmp(k, key) == 0)
            return n->pairs[i].value;
    }
    return NULL;
}

/* ---- schema.c: construction and references ---- */

/* A type of kind k for schema n: *dest (a shell, taken: *dest becomes NULL) when given, else a
 * new one with origin, location and docs. */
sdkc_type *sdkc_sch_new_type(cctx *c, sdkc_type_kind k, const sdkc_node *n, const char *origin,
                             sdkc_type **dest);
/* An inline object, union or enum without a name gets ctxname (made unique). */
void sdkc_sch_maybe_name(cctx *c, sdkc_type *t, const char *ctxname);
/* ANY (into dest when given); with a reason, a warning at n. */
sdkc_type *sdkc_sch_any_into(cctx *c, const sdkc_node *n, const char *origin, const char *reason,
                             sdkc_type *dest);
/* dest (a named shell) takes the contents of src. */
sdkc_type *sdkc_sch_copy_into(cctx *c, sdkc_type *dest, sdkc_type *src, const sdkc_node *n);
/* The schema at the end of a chain of pure $refs; NULL (reported) when it dangles or cycles. */
const sdkc_node *sdkc_sch_final_target(cctx *c, const sdkc_node *n);
/* What a schema with a $ref stands for (siblings beside the $ref ignored). */
const sdkc_node *sdkc_sch_deref_schema(cctx *c, const sdkc_node *n);
/* The type of schema n, named from ctxname, built into dest (a component shell) when given. */
sdkc_type *sdkc_sch_type(cctx *c, const sdkc_node *n, const char *ctxname, const char *origin,
                         sdkc_type *dest);

/* ---- schema_names.c ---- */

/* Record t's name (and its snake_case spelling) as taken. */
bool sdkc_sch_register_name(cctx *c, sdkc_type *t);
/* Do two schemas say the same thing? */
bool sdkc_sch_same_schema(const sdkc_node *a, const sdkc_node *b, int depth);
/* The name an inline schema's `title` gives, or NULL. */
const char *sdkc_sch_title_name(cctx *c, const sdkc_node *n);
/* Name t ctxname, ctxname2, ... (the first free). */
void sdkc_sch_name_inline(cctx *c, sdkc_type *t, const char *ctxname);
/* ctxname followed by suffix in Pascal case. */
const char *sdkc_sch_ctx_child(cctx *c, const char *ctxname, const char *suffix);
/* The brand of a string pattern with a fixed prefix (`^ses_`), or NULL. */
const sdkc_brand *sdkc_sch_brand_for(cctx *c, const char *pattern);

/* ---- schema_kinds.c ---- */

/* The JSON type a schema without `type` implies by its keywords, or NULL. */
const char *sdkc_sch_infer_type(const sdkc_node *n);
/* The type a schema mapping's keywords describe (no $ref); *wrap_null when `type` lists null. */
sdkc_type *sdkc_sch_keywords_type(cctx *c, const sdkc_node *n, const char *ctxname,
                                  const char *origin, sdkc_type *dest, bool *wrap_null);

/* ---- schema_object.c ---- */

/* An object (or a map) from one schema, or from the nparts parts of an allOf. */
sdkc_type *sdkc_sch_object_type(cctx *c, const sdkc_node *const *parts, const char *const *origins,
                                size_t nparts, const char *ctxname, sdkc_type *dest);

/* ---- schema_allof.c ---- */

/* Does a schema only constrain or annotate (no type of its own)? */
bool sdkc_sch_constraint_only(const sdkc_node *n, bool skip_merged, int depth);
bool sdkc_sch_annotation_only(const sdkc_node *n);
/* The JSON type an allOf part stands for ("object", "string", ..., "union", "not"), or NULL. */
const char *sdkc_sch_part_class(const sdkc_node *p);
bool sdkc_sch_same_class(const char *a, const char *b);
bool sdkc_sch_scalar_class(const char *k);
/* Does a union admit values of the scalar class cls? */
bool sdkc_sch_union_admits(cctx *c, const sdkc_node *u, const char *cls);
/* `{allOf: [items...]}` as a synthetic node located at at. */
const sdkc_node *sdkc_sch_all_of_node(cctx *c, const sdkc_node *const *items, size_t n,
                                      const sdkc_node *at);
/* The type of a schema with `allOf` (list). */
sdkc_type *sdkc_sch_all_of_type(cctx *c, const sdkc_node *n, const sdkc_node *list,
                                const char *ctxname, const char *origin, sdkc_type *dest);

#endif
