/* jdecode.h - the one-pass JSON decoder (jdecode.c, its lexer jdecode_scan.c; private to libsdkrt;
 * used by the typed JSON layer, the tests and the differential fuzzer).
 *
 * It reads JSON text straight into the storage a sdkrt_jtype describes, with no intermediate
 * tree: only ANY places and unknown union variants build a jansson value, from their own
 * sub-span. It accepts exactly what json_loadb(SDKRT_JSON_LOAD_FLAGS) followed by
 * sdkrt_json_decode accepts (same depth cap, duplicate keys, NUL, int64 and UTF-8 rules) and
 * produces the same value, but it keeps no JSON path and writes no message: callers that need the
 * message of a refusal run the tree path on the same text (refusals are the cold path), so every
 * message stays what it was. */
#ifndef SDKRT_JDECODE_H
#define SDKRT_JDECODE_H

#include <stddef.h>

#include "sdkrt/json.h"

typedef enum sdkrt_jd_result_ {
    SDKRT_JD_OK_,        /* *value holds the decoded value */
    SDKRT_JD_MALFORMED_, /* not JSON, or not a value of the type; *value holds nothing owned */
    SDKRT_JD_OOM_        /* an allocation failed; *value holds nothing owned */
} sdkrt_jd_result_;

/* The nesting depth jansson refuses beyond (JSON_PARSER_MAX_DEPTH): every value counts one. */
#define SDKRT_JD_MAX_DEPTH 2048

/* Layouts of the values generated code hands to the JSON descriptors (documented in json.h),
 * shared by the typed JSON layer (json_*.c) and the one-pass decoder (jdecode.c). */
typedef struct jenum {
    int value;
    char *unknown;
} jenum;

typedef struct jarray {
    void *items;
    size_t count;
} jarray;

typedef struct jmap {
    char **keys;
    void *values;
    size_t count;
} jmap;

typedef struct junion {
    int kind;
    json_t *unknown;
} junion;

/* Decode text[0..len) (the whole text: one value, whitespace around it) into *value (zeroed
 * storage of t). With unwrap non-NULL the text must be an object and its member `unwrap` is
 * decoded as t (the `{"data": X}` envelope; the other members are checked and skipped). */
sdkrt_jd_result_ sdkrt_jd_decode_(const sdkrt_jtype *t, void *value, const char *text, size_t len,
                                  const char *unwrap);

/* Whether text[0..len) is one JSON string (whitespace around it allowed); if so *out is its
 * decoded bytes (new, NUL-terminated, may hold NULs) and *out_len their count. MALFORMED when the
 * text is anything else (nothing is allocated). */
sdkrt_jd_result_ sdkrt_jd_string_(const char *text, size_t len, char **out, size_t *out_len);

#endif
