/* The typed JSON layer's internals, shared by its files (see sdkrt/json.h for the API):
 *
 *   json_path.c    the JSON path of errors as text; the OUT_OF_MEMORY error of the layer
 *   json_decode.c  jansson tree -> typed value (the messages of every refusal)
 *   jdecode.c      text -> typed value in one pass (jdecode.h; jdecode_scan.c is its lexer)
 *   json_encode.c  typed value -> jansson tree
 *   json_value.c   cleanup, values on the heap, domain error payloads
 *   json_param.c   typed values as path, header and query parameters and request bodies
 *   json_call.c    typed calls: a response mapped to a declared success or error
 *   json_stream.c  typed streams: SSE events -> items, poison items, failure frames */
#ifndef SDKRT_JSON_INTERNAL_H
#define SDKRT_JSON_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "internal.h"

/* The JSON path of the value being decoded or encoded. It is kept as a stack of segments (a key,
 * borrowed from the type table or the JSON being walked, or an index) and formatted only when an
 * error names it: building the text for every field cost a fifth of a decode. Long paths are cut
 * (messages stay bounded). */
#define PATH_MAX_LEN   480
#define PATH_MAX_DEPTH 96

typedef struct jseg {
    const char *key; /* NULL: an array index */
    size_t index;
} jseg;

typedef struct jpath {
    bool request; /* encoding a request: readOnly fields are left out */
    const char *root;
    jseg seg[PATH_MAX_DEPTH];
    size_t depth; /* may exceed PATH_MAX_DEPTH; the segments past it are not kept */
    char buf[PATH_MAX_LEN + 4];
} jpath;

/* Inline: they run for every field and item. */
static inline void sdkrt_jpath_init_(jpath *p, const char *root)
{
    p->request = false;
    p->root = root;
    p->depth = 0;
    p->buf[0] = '\0';
}

static inline size_t sdkrt_jpath_push_key_(jpath *p, const char *key)
{
    size_t old = p->depth;
    if (old < PATH_MAX_DEPTH)
        p->seg[old].key = key;
    p->depth = old + 1;
    return old;
}

static inline size_t sdkrt_jpath_push_index_(jpath *p, size_t i)
{
    size_t old = p->depth;
    if (old < PATH_MAX_DEPTH) {
        p->seg[old].key = NULL;
        p->seg[old].index = i;
    }
    p->depth = old + 1;
    return old;
}

static inline void sdkrt_jpath_pop_(jpath *p, size_t old)
{
    p->depth = old;
}

/* The path as text ($.a.b[3]["not an ident"]); valid until the path changes. */
const char *sdkrt_jpath_str_(jpath *p);

/* OUT_OF_MEMORY "out of memory decoding JSON" into *err. Returns SDKRT_ERR. */
sdkrt_status sdkrt_json_oom_(sdkrt_error **err);

/* Whether a place of type t holds nothing (null, a literal, never). */
static inline bool sdkrt_jtype_stores_nothing_(const sdkrt_jtype *t)
{
    return t->kind == SDKRT_JK_NULL || t->kind == SDKRT_JK_LITERAL || t->kind == SDKRT_JK_NEVER;
}

/* ---- domain error payloads (json_value.c) ---- */

/* A zeroed value of t on the heap that remembers t, so that one destructor
 * (sdkrt_jpayload_free_, a sdkrt_payload_free_fn) releases any type. NULL when out of memory. */
void *sdkrt_jpayload_new_(const sdkrt_jtype *t);
void sdkrt_jpayload_free_(void *payload);
/* The destructor of a payload that is a JSON value (json_decref). */
void sdkrt_jpayload_json_free_(void *payload);

#endif
