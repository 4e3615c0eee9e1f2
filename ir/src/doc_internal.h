/* doc_internal.h - what the parts of the document layer share (doc_load.c builds the tree,
 * doc_json.c prepares JSON for libyaml, doc_scalar.c resolves scalars, doc.c answers queries).
 * Source-model layer: it uses the base layer only. Not installed. */
#ifndef SDKC_DOC_INTERNAL_H
#define SDKC_DOC_INTERNAL_H

#include "sdkc/doc.h"
#include "sdkc/map.h"
#include "sdkc/util.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sdkc_doc {
    sdkc_arena *arena;
    const char *name;
    const sdkc_node *root;
    size_t nodes;
    char sha256[65];
};

/* Maps with more pairs than this get a key index (sdkc_node.index_) for sdkc_node_get. */
#define SDKC_DOC_MAP_INDEX_MIN 16

/* Open-addressing index of a map's keys: slots hold pair index + 1, 0 is empty; the slot of a key
 * is probed from sdkc_doc_key_hash(key) & mask. */
typedef struct sdkc_doc_map_index {
    size_t mask;
    uint32_t slots[];
} sdkc_doc_map_index;

/* The hash of a key of n bytes, its high bits folded into the low ones that pick a slot. (Not an
 * sdkc_map: keys may hold NUL bytes, lookups come with a length, and the index lives in the
 * document's arena, read through const nodes.) */
static inline uint64_t sdkc_doc_key_hash(const char *s, size_t n)
{
    uint64_t h = sdkc_hash_bytes(s, n);
    return h ^ (h >> 29);
}

/* ---- doc_json.c: JSON that libyaml would refuse or change, rewritten ----------------------- */

/* Where a rewrite changed the width of the text on a line. */
typedef struct sdkc_doc_shift {
    size_t line; /* 0-based, as in libyaml marks */
    size_t col;  /* 0-based column in the rewritten text just after the escape */
    int delta;   /* original minus rewritten width in characters */
} sdkc_doc_shift;

typedef struct sdkc_doc_rewrite {
    char *text; /* malloc */
    size_t len;
    sdkc_doc_shift *points; /* malloc, sorted by (line, col) */
    size_t npoints;
} sdkc_doc_rewrite;

/* Is data JSON that has something libyaml refuses or reads differently (see doc_json.c)? */
bool sdkc_doc_json_needs_rewrite(const char *data, size_t len);
/* Rewrite data into *rw (zeroed by the caller); false when out of memory. */
bool sdkc_doc_json_rewrite(sdkc_doc_rewrite *rw, const char *data, size_t len);
/* The column shift to add to a libyaml mark (0-based line and column) on the rewritten text. */
int64_t sdkc_doc_json_shift(const sdkc_doc_rewrite *rw, size_t line, size_t col);
void sdkc_doc_rewrite_cleanup(sdkc_doc_rewrite *rw);

/* ---- doc_scalar.c: the YAML 1.2 core schema -------------------------------------------------- */

/* The type of a plain (unquoted, untagged) scalar of n bytes. */
sdkc_scalar_type sdkc_doc_resolve_plain(const char *s, size_t n);
/* Its short name as in a tag ("str", "int", "float", "bool", "null"). Static. */
const char *sdkc_doc_scalar_type_name(sdkc_scalar_type t);

#endif
