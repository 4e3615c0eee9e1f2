/* ir_internal.h - the IR model inside libsdkc: the owner of an IR, the spelling tables and the
 * queries over IR values that the compiler stages and the IR JSON writer and reader share. Not
 * installed; emitters see only sdkc/ir.h. */
#ifndef SDKC_IR_INTERNAL_H
#define SDKC_IR_INTERNAL_H

#include "sdkc/ir.h"
#include "sdkc/util.h"
#include "sdkc/compile.h"

/* Everything the IR points at lives in arena; the IR's arrays are arena allocations too, so
 * sdkc_compiled_free releases it all at once. */
struct sdkc_compiled {
    sdkc_arena *arena;
    sdkc_ir ir;
};

/* A zeroed sdkc_compiled with a fresh arena (new; release with sdkc_compiled_free). */
sdkc_status sdkc_compiled_new(sdkc_compiled **out);

/* ---- spellings: one table per enum, indexed by value (ir_model.c) ---- */

#define SDKC_NTYPE_KINDS ((size_t)SDKC_TYPE_NEVER + 1)
extern const char *const sdkc_type_kind_names[SDKC_NTYPE_KINDS];
extern const char *const sdkc_literal_kind_names[4];
extern const char *const sdkc_param_in_names[4];
extern const char *const sdkc_param_style_names[7];
extern const char *const sdkc_encoding_names[5];
extern const char *const sdkc_page_style_names[7];
extern const char *const sdkc_page_source_names[3];
extern const char *const sdkc_group_source_names[5];
/* The index of s (NULL allowed) in names (of n), or -1. */
int sdkc_spelling_index(const char *const *names, size_t n, const char *s);
#define SDKC_SPELLING_INDEX(names, s)                                                              \
    sdkc_spelling_index(names, sizeof(names) / sizeof((names)[0]), s)

/* ---- queries over IR values ---- */

/* The type behind NULLABLE wrappers (NULL for a nullable of itself). */
const sdkc_type *sdkc_type_strip_nullable(const sdkc_type *t);
/* The field of object t with that wire name, or NULL (t not an object, or no such field). */
const sdkc_field *sdkc_object_field(const sdkc_type *t, const char *wire);
/* The same through NULLABLE wrappers. */
const sdkc_field *sdkc_type_field(const sdkc_type *t, const char *wire);
/* The query parameter of op with that wire name, or NULL. */
const sdkc_param *sdkc_op_query_param(const sdkc_operation *op, const char *name);

#endif
