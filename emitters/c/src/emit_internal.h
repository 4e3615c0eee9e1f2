/* The C emitter's shared model: the C storage types (ctype) mapped from the IR, the operations as
 * the C SDK spells them (cop), and the helpers every output kind may use. Each output kind
 * (types_h.c, types_c.c, ops_h.c, ops_c.c, build_files.c, readme.c, mock.c) includes this header
 * and sdkc/emitkit.h only, and is called by the driver (emit_c.c) alone. */
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
#define SDKRT_MINOR_WANT 5
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
    sdkc_map bykey;     /* ctype by key */
    sdkc_map names;     /* reserved global names (without prefix) */
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
    /* Several declared successes (op->more_successes): the call says which status came back
       (`int *status`); when they all give the same C result (several_shared) `out` is as for
       one success, otherwise it is a PREFIX_<op>_response holding one member per status. */
    bool several;
    bool several_shared;
    ctype **more; /* per op->more_successes: its JSON result type, or NULL */
    /* The stream variant of the operation before it ("<name>_stream"): its request type is that
       operation's (PREFIX_<name>_stream_request is a typedef of it). */
    bool variant;
} cop;

/* A distinct declared error (tag, payload type) with its accessor function. */
typedef struct tagref {
    const char *tag;
    ctype *type;
    const char *accessor; /* PREFIX_error_<tag>, unique among the SDK's names */
} tagref;

/* ---- the model (model.c, model_names.c, model_ops.c) ---- */

/* Names derived from a type's name (NULL-terminated): its functions and, for enums and unions,
 * their typedefs. */
extern const char *const emit_type_derived[];
extern const char *const emit_enum_derived[];
extern const char *const emit_union_derived[];
/* The runtime's reasons and auth kinds (NULL-terminated), spelled under the SDK's prefix. */
extern const char *const emit_runtime_reasons[];
extern const char *const emit_runtime_auths[];

/* Build the model of ir for prefix into cx (zeroed or cleaned up) and ops (ir->nops entries).
 * false when out of memory; cx is to be cleaned up either way. */
bool emit_model_make(emit_ctx *cx, const sdkc_ir *ir, const char *prefix, cop *ops);
void emit_model_cleanup(emit_ctx *cx);
/* qsort order of descriptors: scalar descriptors first, then structs, each by name. */
int emit_cmp_desc(const void *a, const void *b);
/* Distinct (tag, type) pairs of the declared errors over all operations, sorted by tag, with
 * their accessors named (new, free()); NULL when out of memory. */
tagref *emit_collect_tags(emit_ctx *cx, cop *ops, size_t nops, size_t *n_out);

/* The DOMAIN errors an operation declares, in the order of cop.errs: each status (exact, ranges,
 * default) with its tags, then its body without a tag. NULL *tag for that untagged body. */
size_t emit_error_entries(const sdkc_operation *op);
void emit_error_entry(const sdkc_operation *op, size_t idx, int *status, const char **tag,
                      const sdkc_type **type);
/* Is that entry a body declared under a non-JSON media type (its text is the payload)? */
bool emit_error_entry_text(const sdkc_operation *op, size_t idx);
/* The DOMAIN tag of an error entry: its `_tag`, or for a body without one its type's name. */
const char *emit_entry_tag(const char *tag, const ctype *t);
/* Is the page projection usable (fields found as the IR says)? */
bool emit_page_ok(const cop *o);
/* Does it page in OpenCode's style (cursor types of its own, cursor_value/_new/_dup, previous)?
 * Every other style pages through the runtime's engine (sdkrt/page.h). */
bool emit_page_cursor_object(const cop *o);
/* Is p sent by a page continuation (a path parameter)? And how many of op's are. */
bool emit_is_ctx_param(const sdkc_operation *op, const sdkc_param *p);
size_t emit_npath_params(const sdkc_operation *op);
/* The out parameter of an operation's call ("oc_x **out"), or NULL when it has none. */
const char *emit_out_param(emit_ctx *cx, const cop *o);
/* The handle type of a stream operation ("oc_session_events_stream"; a variant's "x_y_stream"). */
const char *emit_stream_handle(emit_ctx *cx, const cop *o);
/* Success k of an operation with several (0: the main one) as a PREFIX_<op>_response member:
 * its name ("status_201") and declaration; NULL when that success returns nothing. */
const char *emit_success_member(emit_ctx *cx, const cop *o, size_t k);
const char *emit_success_member_decl(emit_ctx *cx, const cop *o, size_t k);
/* May the request be NULL (no required parameter, no required body)? */
bool emit_request_optional(const sdkc_operation *op);

/* ---- C spellings (model_decl.c); strings in cx->arena ---- */

/* The name of c's sdkrt_jtype descriptor. */
const char *emit_desc_name(emit_ctx *cx, const ctype *c);
/* The member declaration of a storage type: "oc_x name;" / "char *name;" (boxed: a pointer). */
void emit_put_member(sdkc_buf *b, const ctype *c, const char *name, bool boxed);
/* The same in an input twin: borrowed, so every pointer is to const. */
void emit_put_in_member(emit_ctx *cx, sdkc_buf *b, const ctype *c, const char *name, bool boxed);
/* A pointer to a const cdecl: "const oc_x *", and for a pointer type "json_t *const *". */
const char *emit_const_ptr(emit_ctx *cx, const char *cdecl);
/* A pointer to cdecl: "oc_x *", "char **". */
const char *emit_ptr_decl(emit_ctx *cx, const char *cdecl);
/* The number of c's common fields that store a value: they make up its "_common" struct, which
 * holds them for an unknown variant (decoded from its raw JSON). 0: no such struct. */
size_t emit_common_stored(const ctype *c);
/* What a union common-field accessor returns: a pointer member as itself, else by address. */
const char *emit_common_ret(emit_ctx *cx, const cfield *f);
/* The field of obj with that wire name, or NULL. */
const cfield *emit_find_field(const ctype *obj, const char *wire);
/* C condition that field f of the struct pointed to by v holds a value, and the value. */
const char *emit_field_present(emit_ctx *cx, const char *v, const cfield *f);
const char *emit_field_value(emit_ctx *cx, const char *v, const cfield *f);

/* ---- the output kinds, called by the driver (emit_c.c) ---- */

/* include/PREFIX/PREFIX.h, include/PREFIX/types.h, include/PREFIX/ops.h */
void emit_umbrella(emit_ctx *cx, sdkc_buf *b);
void emit_types_h(emit_ctx *cx, sdkc_buf *b);
void emit_ops_h(emit_ctx *cx, sdkc_buf *b, cop *ops, size_t nops, tagref *tags, size_t ntags);
/* src/internal.h and src/types.c over the descriptors sorted by emit_cmp_desc; src/ops.c */
void emit_internal_h(emit_ctx *cx, sdkc_buf *b, ctype **sorted, size_t n);
void emit_types_c(emit_ctx *cx, sdkc_buf *b, ctype **sorted, size_t n);
void emit_ops_c(emit_ctx *cx, sdkc_buf *b, cop *ops, size_t nops, tagref *tags, size_t ntags);
/* CMakeLists.txt, PREFIX.pc.in, PREFIXConfig.cmake.in, README.md */
void emit_cmake(emit_ctx *cx, sdkc_buf *b);
void emit_pc(emit_ctx *cx, sdkc_buf *b);
void emit_config(emit_ctx *cx, sdkc_buf *b);
void emit_readme(emit_ctx *cx, sdkc_buf *b, cop *ops, size_t nops);
/* The environment variable stem of each of the contract's security schemes, in ir->schemes
 * order: PREFIX_<SCHEME> ("OC_BEARER_AUTH"), numbered when two meet. NULL when out of memory. */
const char **emit_env_stems(emit_ctx *cx);
/* tests/mock.c: one call per operation against a mock server (`sdkc generate --tests`). */
void emit_mock_c(emit_ctx *cx, sdkc_buf *b, const cop *ops, size_t nops);

#endif
