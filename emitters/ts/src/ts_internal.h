/* Internal to the TypeScript emitter: the shared context, names and type expressions. */
#ifndef SDKC_TS_INTERNAL_H
#define SDKC_TS_INTERNAL_H

#include "sdkc/emit_ts.h"
#include "sdkc/emitkit.h"
#include "sdkc/util.h"

/* A set of names in use in one module (keys borrowed from the arena). */
typedef struct ts_names {
    sdkc_map map;
    bool oom;
} ts_names;

/* A name given to an error tag: the class, its guard, and the payload type. */
typedef struct ts_tag {
    const char *tag;
    const char *cls;       /* "SessionNotFoundError" */
    const sdkc_type *type; /* the error body */
} ts_tag;

/* What the emitter decides about one operation. */
typedef struct ts_op {
    const sdkc_operation *op;
    const char *spec;   /* "OP_session_list" */
    const char *method; /* "list" (unique in its group) */
    const char *group;  /* index into groups */
    size_t group_index;
    const char *input;    /* "SessionListInput", or NULL when the operation takes no input */
    const char *cursor;   /* "SessionListCursor" for paginated operations */
    const char **keys;    /* input key of each parameter */
    const char *body_key; /* NULL: the body's fields are the input's (flattened) */
    bool input_optional;
    /* Several declared successes of different TS types: the method resolves to `{status, value}`
       of this exported union type ("ItemsPutResult"); NULL otherwise. */
    const char *result;
    /* The stream variant of the operation before it (sdkc_kit_expand_ops), which it names
       ("create"): it shares that operation's input. NULL otherwise. */
    const char *variant_of;
} ts_op;

typedef struct ts_group {
    const char *prop; /* "session" */
    const char *cls;  /* "SessionApi" */
} ts_group;

typedef struct ts_ctx {
    const sdkc_ir *ir;
    const sdkc_emit_ts_options *opts;
    sdkc_diag *diag;
    sdkc_arena *arena;
    const char **type_names; /* parallel to ir->types: the TS name, NULL when not declared */
    const char **brand_names;
    ts_tag *tags;
    size_t ntags;
    ts_op *ops;
    ts_group *groups;
    size_t ngroups;
    ts_names exports; /* every name index.ts exports explicitly */
    bool oom;
} ts_ctx;

/* names */
bool ts_names_add(ts_names *s, const char *name); /* false if present (or on OOM: s->oom) */
bool ts_names_has(const ts_names *s, const char *name);
void ts_names_free(ts_names *s);
/* base, base2, base3 ... the first not in s; added. Arena copy. */
const char *ts_unique(ts_ctx *cx, ts_names *s, const char *base);
const char *ts_pascal(ts_ctx *cx, const char *s);
const char *ts_camel(ts_ctx *cx, const char *s);
bool ts_is_ident(const char *s);

/* text */
/* string literals and doc comments come from the kit (sdkc/emitkit.h) */
#define ts_put_string sdkc_kit_put_js_string
void ts_put_key(sdkc_buf *b, const char *s); /* a property key: bare or quoted */
void ts_put_doc(sdkc_buf *b, const char *indent, const char *docs, const char *extra); /* JSDoc */

/* types: q is the qualifier of named types ("" in types.ts, "T." elsewhere) */
const char *ts_type_name(const ts_ctx *cx, const sdkc_type *t); /* declared name or NULL */
void ts_put_type(const ts_ctx *cx, sdkc_buf *b, const sdkc_type *t, const char *q);

/* files */
sdkc_status ts_emit_types(ts_ctx *cx, sdkc_buf *b);
sdkc_status ts_emit_errors(ts_ctx *cx, sdkc_buf *b);
sdkc_status ts_plan_ops(ts_ctx *cx);
sdkc_status ts_emit_client(ts_ctx *cx, sdkc_buf *b);
sdkc_status ts_emit_index(ts_ctx *cx, sdkc_buf *b);
sdkc_status ts_emit_readme(ts_ctx *cx, sdkc_buf *b);
sdkc_status ts_emit_mock(ts_ctx *cx, sdkc_buf *b); /* tests/mock.ts (--tests) */

extern const unsigned char sdkc_ts_runtime[];
extern const size_t sdkc_ts_runtime_len;
extern const unsigned char sdkc_ts_mock_harness[];
extern const size_t sdkc_ts_mock_harness_len;

#endif
