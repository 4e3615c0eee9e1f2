/* fuzz_jdecode.c - differential: the one-pass decoder (runtime/src/jdecode.c) against the tree
 * path (json_loadb with the runtime's flags, then sdkrt_json_decode). The first byte picks the
 * type (generated OpenCode types, and a synthetic type that has every kind and flag) and whether
 * the text is read as the `{"data": X}` envelope; the rest is the JSON text. Any difference in
 * acceptance, in the value (both encoded, compared as sorted compact JSON) or in the error class
 * is a crash. */
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../generated/opencode/src/internal.h"
#include "../runtime/src/jdecode.h"
#include "sdkrt/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define LOAD_FLAGS (JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL)

/* ---- a synthetic type with every kind: storage and descriptors ---- */

typedef struct syn syn;
typedef struct {
    int64_t *items;
    size_t count;
} syn_ints;
typedef struct {
    char **keys;
    char **values;
    size_t count;
} syn_strmap;
typedef struct {
    int value;
    char *unknown;
} syn_enum;
typedef struct {
    int kind;
    json_t *unknown;
    union {
        int64_t i;
        char *s;
        syn_ints list;
    } u;
} syn_untagged;
typedef struct {
    syn *items;
    size_t count;
} syn_list;
struct syn {
    char *s;
    int64_t i;
    bool has_i;
    double n;
    bool has_n, n_null;
    bool b, has_b;
    json_t *a;
    bool has_a;
    bool has_lit, has_lits, has_z;
    syn *p; /* NULLABLE */
    bool has_p;
    syn_ints js; /* JSON_STRING of an int array */
    bool has_js;
    syn_strmap m;
    bool has_m;
    syn_enum e;
    bool has_e;
    syn_untagged u;
    bool has_u;
    syn *r; /* boxed */
    bool has_r;
    syn_list l;
    bool has_l;
};

extern const sdkrt_jtype syn_t;
static const sdkrt_jtype syn_str = {SDKRT_JK_STRING,
                                    "string",
                                    sizeof(char *),
                                    NULL,
                                    NULL,
                                    0,
                                    NULL,
                                    0,
                                    NULL,
                                    0,
                                    NULL,
                                    0,
                                    NULL,
                                    NULL};
static const sdkrt_jtype syn_int = {SDKRT_JK_INTEGER,
                                    "integer",
                                    sizeof(int64_t),
                                    NULL,
                                    NULL,
                                    0,
                                    NULL,
                                    0,
                                    NULL,
                                    0,
                                    NULL,
                                    0,
                                    NULL,
                                    NULL};
static const sdkrt_jtype syn_num = {SDKRT_JK_NUMBER,
                                    "number",
                                    sizeof(double),
                                    NULL,
                                    NULL,
                                    0,
                                    NULL,
                                    0,
                                    NULL,
                                    0,
                                    NULL,
                                    0,
                                    NULL,
                                    NULL};
static const sdkrt_jtype syn_bool = {SDKRT_JK_BOOLEAN,
                                     "boolean",
                                     sizeof(bool),
                                     NULL,
                                     NULL,
                                     0,
                                     NULL,
                                     0,
                                     NULL,
                                     0,
                                     NULL,
                                     0,
                                     NULL,
                                     NULL};
static const sdkrt_jtype syn_any = {
    SDKRT_JK_ANY, "json", sizeof(json_t *), NULL, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, NULL};
static const sdkrt_jtype syn_null = {SDKRT_JK_NULL, "null", 1,    NULL, NULL, 0,   NULL, 0,
                                     NULL,          0,      NULL, 0,    NULL, NULL};
static const sdkrt_jtype syn_lit = {
    SDKRT_JK_LITERAL, "1.0", 1, NULL, NULL, 0, NULL, 0, NULL, 0, NULL, 0, "1.0", NULL};
static const sdkrt_jtype syn_lits = {
    SDKRT_JK_LITERAL, "str", 1, NULL, NULL, 0, NULL, 0, NULL, 0, NULL, 0, "\"a\\u00e9/\"", NULL};
static const sdkrt_jtype syn_ints_t = {
    SDKRT_JK_ARRAY, "ints", sizeof(syn_ints), &syn_int, NULL, 0, NULL, 0, NULL, 0, NULL, 0,
    NULL,           NULL};
static const sdkrt_jtype syn_js = {SDKRT_JK_JSON_STRING,
                                   "ints_json",
                                   sizeof(syn_ints),
                                   &syn_ints_t,
                                   NULL,
                                   0,
                                   NULL,
                                   0,
                                   NULL,
                                   0,
                                   NULL,
                                   0,
                                   NULL,
                                   NULL};
static const sdkrt_jtype syn_map = {
    SDKRT_JK_MAP, "strmap", sizeof(syn_strmap), &syn_str, NULL, 0, NULL, 0, NULL, 0, NULL, 0,
    NULL,         NULL};
static const char *const syn_enum_values[] = {"x", "y", "a\xc3\xa9"};
static const sdkrt_jtype syn_enum_t = {
    SDKRT_JK_ENUM, "E", sizeof(syn_enum), NULL, NULL, 0,   NULL, 0,
    NULL,          0,   syn_enum_values,  3,    NULL, NULL};
static const sdkrt_jvariant syn_u_v[] = {
    {NULL, &syn_int, 0},
    {NULL, &syn_str, 0},
    {NULL, &syn_ints_t, 0},
};
static const sdkrt_jtype syn_u = {SDKRT_JK_UNION,
                                  "U",
                                  sizeof(syn_untagged),
                                  NULL,
                                  NULL,
                                  0,
                                  syn_u_v,
                                  3,
                                  NULL,
                                  offsetof(syn_untagged, u),
                                  NULL,
                                  0,
                                  NULL,
                                  NULL};
static const sdkrt_jtype syn_nullable = {SDKRT_JK_NULLABLE,
                                         "syn?",
                                         sizeof(syn *),
                                         &syn_t,
                                         NULL,
                                         0,
                                         NULL,
                                         0,
                                         NULL,
                                         0,
                                         NULL,
                                         0,
                                         NULL,
                                         NULL};
static const sdkrt_jtype syn_list_t = {
    SDKRT_JK_ARRAY, "syns", sizeof(syn_list), &syn_t, NULL, 0, NULL, 0, NULL, 0, NULL, 0,
    NULL,           NULL};
#define F(name, type, flags, member, has)                                                          \
    {                                                                                              \
        name, type, flags, member, has, SDKRT_JNONE                                                \
    }
static const sdkrt_jfield syn_fields[] = {
    F("s", &syn_str, SDKRT_JF_REQUIRED, offsetof(syn, s), SDKRT_JNONE),
    F("i", &syn_int, 0, offsetof(syn, i), offsetof(syn, has_i)),
    {"n", &syn_num, 0, offsetof(syn, n), offsetof(syn, has_n), offsetof(syn, n_null)},
    F("b", &syn_bool, 0, offsetof(syn, b), offsetof(syn, has_b)),
    F("a", &syn_any, 0, offsetof(syn, a), offsetof(syn, has_a)),
    F("lit", &syn_lit, 0, SDKRT_JNONE, offsetof(syn, has_lit)),
    F("lits", &syn_lits, 0, SDKRT_JNONE, offsetof(syn, has_lits)),
    F("z", &syn_null, 0, SDKRT_JNONE, offsetof(syn, has_z)),
    F("p", &syn_nullable, 0, offsetof(syn, p), offsetof(syn, has_p)),
    F("js", &syn_js, 0, offsetof(syn, js), offsetof(syn, has_js)),
    F("m", &syn_map, 0, offsetof(syn, m), offsetof(syn, has_m)),
    F("e", &syn_enum_t, 0, offsetof(syn, e), offsetof(syn, has_e)),
    F("u", &syn_u, 0, offsetof(syn, u), offsetof(syn, has_u)),
    F("r", &syn_t, SDKRT_JF_BOXED, offsetof(syn, r), offsetof(syn, has_r)),
    F("l", &syn_list_t, 0, offsetof(syn, l), offsetof(syn, has_l)),
};
const sdkrt_jtype syn_t = {SDKRT_JK_OBJECT,
                           "Syn",
                           sizeof(syn),
                           NULL,
                           syn_fields,
                           sizeof syn_fields / sizeof syn_fields[0],
                           NULL,
                           0,
                           NULL,
                           0,
                           NULL,
                           0,
                           NULL,
                           NULL};

/* ---- the types tried ---- */

static const sdkrt_jtype *const types[] = {
    &syn_t,
    &syn_list_t,
    &syn_u,
    &oc__j_session_durable_event,
    &oc__j_v2_event,
    &oc__j_sessions_response,
    &oc__j_session_messages_response,
    &oc__j_session_message_value,
    &oc__j_session_v2_info,
    &oc__j_agent_color,
    &oc__j_assistant_message_error,
    &oc__j_json_map_map,
    &oc__j_integration_attempt_status_variant1_time_created,
    &syn_any,
    &syn_js,
    &syn_enum_t,
};
#define NTYPES (sizeof types / sizeof types[0])

/* The value as sorted compact JSON (new string), or NULL when it does not encode. */
static char *dump(const sdkrt_jtype *t, const void *v)
{
    json_t *j = NULL;
    if (sdkrt_json_encode(t, v, &j, NULL) != SDKRT_OK)
        return NULL;
    char *s = json_dumps(j, JSON_ENCODE_ANY | JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(j);
    return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const sdkrt_jtype *t = types[(data[0] & 0x7f) % NTYPES];
    const char *unwrap = (data[0] & 0x80) ? "data" : NULL;
    const char *text = (const char *)data + 1;
    size_t len = size - 1;

    /* The tree path, as sdkrt_json_response does it. */
    void *a = calloc(1, t->size);
    void *b = calloc(1, t->size);
    if (!a || !b)
        __builtin_trap();
    bool ref_ok = false;
    sdkrt_error *e = NULL;
    json_t *j = json_loadb(text, len, LOAD_FLAGS, NULL);
    const json_t *src = j;
    if (j && unwrap)
        src = json_is_object(j) ? json_object_get(j, unwrap) : NULL;
    if (src) {
        ref_ok = sdkrt_json_decode(t, a, src, "$", &e) == SDKRT_OK;
        if (!ref_ok && sdkrt_error_reason(e) != SDKRT_REASON_MALFORMED_RESPONSE)
            __builtin_trap(); /* only MALFORMED_RESPONSE without allocation failures */
    }
    sdkrt_error_free(e);

    sdkrt_jd_result_ r = sdkrt_jd_decode_(t, b, text, len, unwrap);
    if (r == SDKRT_JD_OOM_)
        __builtin_trap(); /* the error class differs: no allocation fails here */
    if ((r == SDKRT_JD_OK_) != ref_ok)
        __builtin_trap(); /* acceptance differs */
    if (ref_ok) {
        char *da = dump(t, a), *db = dump(t, b);
        if (!da != !db || (da && strcmp(da, db) != 0))
            __builtin_trap(); /* value differs */
        free(da);
        free(db);
    } else {
        /* Refused: the value must hold nothing (cleanup of a zeroed value frees nothing). */
        static const char zero[4096];
        if (t->size <= sizeof zero && memcmp(b, zero, t->size) != 0)
            __builtin_trap();
    }
    sdkrt_json_cleanup(t, a);
    sdkrt_json_cleanup(t, b);
    free(a);
    free(b);

    /* A whole text that is one string: sdkrt_jd_string_ against jansson. */
    char *s = NULL;
    size_t n = 0;
    bool is_str = j && json_is_string(j);
    if ((sdkrt_jd_string_(text, len, &s, &n) == SDKRT_JD_OK_) != is_str)
        __builtin_trap();
    if (is_str && (n != json_string_length(j) || memcmp(s, json_string_value(j), n) != 0))
        __builtin_trap();
    free(s);
    json_decref(j);
    return 0;
}
