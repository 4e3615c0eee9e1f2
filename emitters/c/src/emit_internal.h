/* Internal state of the C emitter. */
#ifndef SDKC_EMIT_INTERNAL_H
#define SDKC_EMIT_INTERNAL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "sdkc/emit_c.h"
#include "sdkc/emitkit.h"
#include "sdkc/ir.h"
#include "sdkc/util.h"

/* The libsdkrt version generated code is written against (sdkrt/base.h). */
#define SDKRT_MAJOR_WANT 0
#define SDKRT_MINOR_WANT 2
/* Schemes one security requirement may need together (SDKRT_SECURITY_MAX_TOGETHER). */
#define SDKRT_SECURITY_MAX_TOGETHER_WANT 8

typedef struct ctype ctype;

typedef struct cfield {
    const sdkc_field *f;
    const char *cname;        /* member name, unique in its struct with has_ and _null companions */
    ctype *type;              /* with a field-level nullable removed */
    const sdkc_type *ir_type; /* the IR type it was mapped from (nullable removed) */
    bool nullable;            /* the field may be JSON null (x_null flag) */
    bool boxed;               /* stored through a pointer (breaks a by-value cycle) */
} cfield;

typedef struct cvariant {
    const sdkc_variant *v;
    ctype *type;
    bool boxed;
} cvariant;

/* One C storage type. */
struct ctype {
    const sdkc_type *t; /* the IR type it was made from (first seen) */
    const char *key;    /* structural identity */
    const char *base;   /* unique name without the prefix: "session_info", "string_list" */
    const char *cdecl;  /* C spelling of the storage: "oc_session_info", "char *" */
    const char *jk;     /* SDKRT_JK_* */
    const char *docs;
    const char *literal; /* LITERAL: JSON text */
    bool stores;         /* false for literal, null, never (nothing is stored) */
    bool is_struct;      /* a generated struct: object, union, enum, array, map, brand */
    bool is_brand;
    bool shape;      /* an inline object or enum, merged with every other of the same shape */
    bool named;      /* came from a named IR type (or a brand) */
    ctype *inner;    /* array items, map values, nullable inner, json-string content */
    ctype *value_of; /* JSON_STRING: same storage as this type */
    cfield *fields;  /* OBJECT */
    size_t nfields;
    cvariant *variants; /* UNION */
    size_t nvariants;
    const char **consts;       /* ENUM values / UNION kinds: the constants' names, unique */
    const char *unknown_const; /* ENUM / UNION: the constant for an unknown value */
    int mark;
    int id;                 /* creation order: a ctype's identity in shape keys */
    struct ccommon *common; /* UNION: fields every variant has alike, with their accessors */
    size_t ncommon;
    bool input;       /* reachable from a request parameter or body */
    const char *twin; /* input twin: same layout, borrowed const members ("oc_x_in"), or NULL */
};

/* A field that every variant of a union has: same wire name, same C type, same nullability. */
typedef struct ccommon {
    const char *accessor; /* function name without the prefix */
    const cfield **in;    /* the field in each variant */
} ccommon;

typedef struct emit_ctx {
    const sdkc_ir *ir;
    sdkc_arena *arena;
    const char *prefix; /* "oc" */
    const char *upper;  /* "OC" */
    sdkc_kit_map bykey; /* ctype by key */
    sdkc_kit_map names; /* reserved global names (without prefix) */
    ctype **all;
    size_t nall, capall;
    ctype **order; /* struct types in definition order */
    size_t norder;
    size_t nliterals;
    bool seeding;   /* mapping a seed: its name wins over the IR's contextual name */
    bool merge_all; /* first pass: merge every inline shape, to find common union fields */
    bool tests;     /* also write tests/mock.c (`sdkc generate --tests`) */
} emit_ctx;

/* A shared inline type to map first, under a name of its own (a union's common field). */
typedef struct emit_seed {
    const sdkc_type *type;
    char *want; /* owned (malloc): seeds outlive the pass that found them */
} emit_seed;

const char *emit_unique(emit_ctx *cx, const char *want, void *owner);
const char *emit_unique_with(emit_ctx *cx, const char *want, const char *suffix,
                             const char *const *derived, void *owner);
bool emit_reserve(emit_ctx *cx, const char *name);
ctype *emit_map_type(emit_ctx *cx, const sdkc_type *t, const char *ctx_name);
bool emit_order_types(emit_ctx *cx);
/* Member names for n fields (safe_name, required, nullable given per field) that do not collide
 * with each other or their has_x / x_null companions, nor with the names in taken. */
const char **emit_member_names(emit_ctx *cx, size_t n, const char *const *safe,
                               const bool *optional, const bool *nullable,
                               const char *const *taken);
bool emit_name_constants(emit_ctx *cx);
/* Find the fields every variant of each union shares and name their accessors. */
bool emit_union_commons(emit_ctx *cx);
/* Seeds for a second pass: the inline types of common fields that several variants repeat. */
emit_seed *emit_collect_seeds(emit_ctx *cx, const sdkc_ir *ir, size_t *n_out);
void emit_free_seeds(emit_seed *seeds, size_t n);
/* Input twins: every struct type that requests reach and that holds a pointer gets a twin with
 * the same layout whose pointers are const (borrowed). roots: the request members' types. */
bool emit_input_twins(emit_ctx *cx, ctype *const *roots, size_t nroots);
/* The spelling of c in a request: its twin, or const pointers ("const char *"). */
const char *emit_in_decl(emit_ctx *cx, const ctype *c);
/* Whether c's storage holds a pointer (a string, raw JSON, a list, a box, ...). */
bool emit_holds_pointer(const ctype *c);

/* One operation as the C SDK spells it. */
typedef struct cop {
    const sdkc_operation *op;
    const char *name;     /* "session_list" (unique, reserved with its derived names) */
    ctype **params;       /* per op->params */
    ctype *body;          /* NULL without a body */
    ctype *result;        /* JSON result (after unwrap); NULL otherwise */
    ctype **errs;         /* per flattened declared tag */
    ctype *item;          /* page item or stream item */
    ctype *cause;         /* stream failure cause, or NULL */
    ctype *page;          /* page body object */
    const char **pnames;  /* request struct member per op->params (unique with has_ and body) */
    bool has_request;     /* any parameter or body */
    bool blob_body;       /* a binary body: the request's body is a blob */
    const cfield **files; /* multipart: the body's binary properties (body_files members) */
    size_t nfiles;
} cop;

/* Shared with emit_mock.c (defined in emit_c.c). */
bool emit_page_ok(const cop *o);
/* tests/mock.c: one call per operation against a mock server (`sdkc generate --tests`). */
void emit_mock_c(emit_ctx *cx, sdkc_buf *b, const cop *ops, size_t nops);

#endif
