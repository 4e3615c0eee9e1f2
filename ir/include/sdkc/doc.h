/* sdkc/doc.h - a YAML or JSON document read into one tree that keeps line and column on every
 * node. JSON is read by the same libyaml parser (JSON is YAML 1.2 flow syntax), so contracts in
 * either form load through one path.
 */
#ifndef SDKC_DOC_H
#define SDKC_DOC_H

#include "sdkc/diag.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Limits that keep hostile input bounded. */
#define SDKC_DOC_MAX_DEPTH 256          /* nesting of sequences and mappings */
#define SDKC_DOC_MAX_NODES 20000000u    /* nodes, counting each alias expansion */
#define SDKC_DOC_MAX_BYTES (256u << 20) /* input size */

typedef enum sdkc_node_kind { SDKC_NODE_SCALAR, SDKC_NODE_SEQ, SDKC_NODE_MAP } sdkc_node_kind;

/* How a scalar reads under the YAML 1.2 core schema: quoted scalars are always strings. */
typedef enum sdkc_scalar_type {
    SDKC_SCALAR_STRING,
    SDKC_SCALAR_INT,
    SDKC_SCALAR_FLOAT,
    SDKC_SCALAR_BOOL,
    SDKC_SCALAR_NULL
} sdkc_scalar_type;

typedef struct sdkc_node sdkc_node;

typedef struct sdkc_pair {
    const sdkc_node *key; /* always a scalar */
    const sdkc_node *value;
} sdkc_pair;

/* The members of one kind share their storage with those of the others (a document is mostly
 * nodes: this halves them, to 48 bytes): read str/len only when kind is SCALAR, items/nitems
 * only for SEQ, pairs/npairs only for MAP (sdkc_node_get and the readers below check it). */
struct sdkc_node {
    sdkc_node_kind kind;
    sdkc_scalar_type scalar; /* SCALAR */
    sdkc_loc loc;
    union {
        struct {             /* SCALAR */
            const char *str; /* NUL-terminated text (may hold NUL bytes; see len) */
            size_t len;
        };
        struct { /* SEQ */
            const sdkc_node *const *items;
            size_t nitems;
        };
        struct { /* MAP, in source order; keys are unique (a duplicate key is an error) */
            const sdkc_pair *pairs;
            size_t npairs;
            /* Private to the loader: a key index for large maps (NULL: sdkc_node_get scans). */
            const void *index_;
        };
    };
};

typedef struct sdkc_doc sdkc_doc;

/* Load a file. On success *out is new (owned by the caller, sdkc_doc_free). On failure returns
 * SDKC_ERR_IO / SDKC_ERR_INVALID / SDKC_ERR_LIMIT / SDKC_ERR_NOMEM, *out is NULL, and diag
 * holds "path:line:col" errors (as many as could be found). An empty file is an error. */
sdkc_status sdkc_doc_load_file(sdkc_doc **out, const char *path, sdkc_diag *diag);
/* Same from memory; name is used in diagnostics and copied; data is borrowed for the call. */
sdkc_status sdkc_doc_load_buffer(sdkc_doc **out, const char *name, const char *data, size_t len,
                                 sdkc_diag *diag);
void sdkc_doc_free(sdkc_doc *doc); /* NULL is a no-op */

/* Borrowed from the document. */
const sdkc_node *sdkc_doc_root(const sdkc_doc *doc);
const char *sdkc_doc_name(const sdkc_doc *doc);
/* SHA-256 of the raw input bytes as 64 lowercase hex digits (borrowed). */
const char *sdkc_doc_sha256(const sdkc_doc *doc);
size_t sdkc_doc_node_count(const sdkc_doc *doc);

/* Helpers. All return borrowed pointers or NULL. */
const sdkc_node *sdkc_node_get(const sdkc_node *map, const char *key); /* NULL if not a map */
bool sdkc_node_is_string(const sdkc_node *n);                          /* scalar of type STRING */
/* Scalar text regardless of scalar type, or NULL if not a scalar. */
const char *sdkc_node_text(const sdkc_node *n);
bool sdkc_node_bool(const sdkc_node *n, bool *out);     /* false unless a BOOL scalar */
bool sdkc_node_int64(const sdkc_node *n, int64_t *out); /* false unless an INT that fits */
bool sdkc_node_double(const sdkc_node *n, double *out); /* INT or FLOAT */
/* Resolve a local JSON pointer ("/components/schemas/A~1B", without the leading '#'), with
 * ~0 and ~1 unescaped and percent-decoding applied. NULL if any step is missing. */
const sdkc_node *sdkc_doc_pointer(const sdkc_doc *doc, const char *pointer);

#ifdef __cplusplus
}
#endif
#endif
