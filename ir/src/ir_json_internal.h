/* ir_json_internal.h - what the IR JSON files share: the spellings of the IR's enumerations
 * (ir_json_names.c), and the reader's state and member accessors (ir_json_read.c) that the
 * operations reader (ir_json_read_ops.c) uses too. Not installed. */
#ifndef SDKC_IR_JSON_INTERNAL_H
#define SDKC_IR_JSON_INTERNAL_H

#include <jansson.h>

#include "ir_internal.h"
#include "sdkc/map.h"

/* ---- spellings (ir_json_names.c) ---- */

/* The enumerations IR JSON spells as strings. */
typedef enum sdkc_irj_enum {
    SDKC_IRJ_KIND,    /* sdkc_type_kind: sdkc_type_kind_name */
    SDKC_IRJ_LITERAL, /* sdkc_literal_kind: sdkc_irj_literal_kind_name */
    SDKC_IRJ_IN,      /* sdkc_param_in: sdkc_param_in_name */
    SDKC_IRJ_STYLE,   /* sdkc_param_style: sdkc_param_style_name */
    SDKC_IRJ_ENCODING /* sdkc_encoding: sdkc_encoding_name */
} sdkc_irj_enum;

/* "string", "number", "boolean", "null" (static). */
const char *sdkc_irj_literal_kind_name(sdkc_literal_kind k);
/* The value of enumeration e that IR JSON spells s, or -1 when none is. */
int sdkc_irj_enum_value(sdkc_irj_enum e, const char *s);

/* ---- writing (ir_json_text.c: JSON text; ir_json_write.c: the IR) ---- */

#define MAX_JSON_DEPTH 8192 /* open containers; deeper nesting fails the write */

typedef struct writer {
    sdkc_map named; /* name -> the type listed in ir->types */
    sdkc_buf out;
    int depth;       /* open containers */
    int type_depth;  /* nested inline type definitions */
    bool *has_items; /* per open container: something was written in it */
    bool failed;     /* nesting without end (an unlisted named type containing itself) */
    FILE *sink;      /* or NULL: out holds the whole text */
    bool io_failed;  /* a write to sink failed (errno kept) */
} writer;

/* Containers: c is '{' or '['; too deep a nesting sets failed. */
void sdkc_jw_open(writer *w, char c);
/* With a sink: write out what is buffered (a failure sets io_failed). */
void sdkc_jw_flush(writer *w);
void sdkc_jw_close(writer *w, char c);
void sdkc_jw_key(writer *w, const char *k); /* a member's key; its value follows */
void sdkc_jw_item(writer *w);               /* an array item follows */
void sdkc_jw_str(writer *w, const char *s); /* NULL: null */
void sdkc_jw_bool(writer *w, bool b);
void sdkc_jw_int(writer *w, long long v);
/* Integral values as integers, others with 17 significant digits; not finite: null. */
void sdkc_jw_number(writer *w, double d);
/* Members: put_str leaves out NULL, put_str_or_null writes null, put_true_if leaves out false,
   put_loc leaves out an unknown location. */
void sdkc_jw_put_str(writer *w, const char *k, const char *s);
void sdkc_jw_put_str_or_null(writer *w, const char *k, const char *s);
void sdkc_jw_put_bool(writer *w, const char *k, bool b);
void sdkc_jw_put_true_if(writer *w, const char *k, bool b);
void sdkc_jw_put_uint(writer *w, const char *k, uint64_t v);
void sdkc_jw_put_strs(writer *w, const char *k, const char *const *v, size_t n);
void sdkc_jw_put_loc(writer *w, sdkc_loc loc);

/* ---- reading (ir_json_read.c) ---- */

typedef struct reader {
    sdkc_arena *arena;
    sdkc_diag *diag;
    const char *name; /* for diagnostics */
    const char *file; /* loc.file of everything read back: the source name */
    sdkc_map named;   /* name -> type of `types` */
    sdkc_ir *ir;
    bool nomem;
    size_t errors;
} reader;

/* Every accessor reports a wrong member as an error at `where` (the path of the object being
 * read, for the message) and allocates in the IR's arena (out of memory sets nomem). */
void sdkc_irj_error(reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void *sdkc_irj_alloc(reader *r, size_t n); /* NULL for n 0 */
char *sdkc_irj_strdup(reader *r, const char *s);
/* Optional string member: NULL when absent or null. */
const char *sdkc_irj_get_str(reader *r, const json_t *obj, const char *key, const char *where);
const char *sdkc_irj_need_str(reader *r, const json_t *obj, const char *key, const char *where);
bool sdkc_irj_get_bool(reader *r, const json_t *obj, const char *key, const char *where);
/* Optional array of strings (NULL and *n 0 when absent). */
const char *const *sdkc_irj_get_strs(reader *r, const json_t *obj, const char *key, size_t *n,
                                     const char *where);
/* A status as written: an HTTP status, 0 (a success of any 2xx), "1XX".."5XX" or "default". */
int sdkc_irj_need_status(reader *r, const json_t *obj, const char *key, const char *where);
/* The array member (NULL when absent and not required). */
const json_t *sdkc_irj_get_array(reader *r, const json_t *obj, const char *key, bool required,
                                 const char *where);
sdkc_loc sdkc_irj_get_loc(reader *r, const json_t *obj, const char *where);
/* The value of enumeration e the member spells (0, reported, when it spells none). */
int sdkc_irj_get_enum(reader *r, const json_t *obj, const char *key, sdkc_irj_enum e,
                      const char *where);
/* A type use: null (NULL), {"ref": NAME}, a bare NAME where names_ok, or an inline definition. */
const sdkc_type *sdkc_irj_read_ref(reader *r, const json_t *v, bool names_ok, const char *where,
                                   int depth);

/* ---- operations (ir_json_read_ops.c); types, brands and schemes are read before them ---- */

void sdkc_irj_read_operation(reader *r, sdkc_operation *op, const json_t *o);
void sdkc_irj_read_webhook(reader *r, sdkc_webhook *h, const json_t *o, size_t i);

#endif
