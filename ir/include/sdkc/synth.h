/* sdkc/synth.h - a valid JSON value for an IR type, for generated tests and conformance probes.
 *
 * The value is the wire projection of a small instance of the type: required fields only (unless
 * a hook asks for an optional one), the first enum value, the first union variant (a tagged
 * variant carries its tag; an untagged union prefers a plain string variant over a leading
 * number or boolean, since "1" in a path or query would match both), the fewest items the bounds
 * allow (distinct ones under uniqueItems: other numbers, enum members, booleans, plain string
 * texts, format values (sdkc_synth_format_variant) and longer pattern matches; the type fails
 * when they still come out equal), numbers moved into their bounds, a string
 * of the schema format ("2024-01-02", a UUID,
 * ...), a brand's prefix, or a string the schema pattern matches (sdkc_pattern_example), padded
 * to a minimum length. A JSON string holds the text of its content's value.
 *
 * The same type and options always give the same value (objects keep field order), so emitters
 * that write the value into generated code stay deterministic. Where no value satisfies the type
 * faithfully (an empty numeric range, a pattern that cannot be matched, a required field cycle,
 * `not: {}`), nothing is made and the reason is given: the caller reports it, never an invalid
 * value in its place.
 */
#ifndef SDKC_SYNTH_H
#define SDKC_SYNTH_H

#include <jansson.h>
#include <stdbool.h>

#include "sdkc/ir.h"
#include "sdkc/util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How deep required values may nest before the type counts as a required cycle. */
#define SDKC_SYNTH_MAX_DEPTH 24

typedef struct sdkc_synth_options {
    /* The text of a plain string, the suffix of a brand's prefix ("ses_mock") and the key of the
       one entry of a map. Borrowed; NULL means "mock". */
    const char *filler;
    /* Nesting limit for required values (arrays, objects, unions, JSON strings). */
    int max_depth;
    /* Optional: a value for a branded string, e.g. an id the caller created earlier (borrowed,
       copied), or NULL for "<prefix>_<filler>". A value returned is used as given. */
    const char *(*brand_value)(void *user, const sdkc_brand *brand);
    /* Optional: whether to also send the optional field f of object type t (default: no). */
    bool (*want_optional)(void *user, const sdkc_type *t, const sdkc_field *f);
    void *user; /* passed to the hooks */
} sdkc_synth_options;
#define SDKC_SYNTH_OPTIONS_INIT                                                                    \
    {                                                                                              \
        "mock", SDKC_SYNTH_MAX_DEPTH, NULL, NULL, NULL                                             \
    }

/* A value of type t (borrowed). opts NULL means SDKC_SYNTH_OPTIONS_INIT. Working strings
 * (pattern examples, reasons) are allocated from arena a (borrowed; one arena may serve many
 * calls).
 *
 * Returns SDKC_OK with *out a new reference (json_decref it); SDKC_ERR_INVALID when no value of
 * the type can be made, with *out NULL and *why (when why is not NULL) a reason that is static or
 * lives in a, such as "empty numeric range" or "string pattern '^a{3}$': ..." (the first
 * failure met); SDKC_ERR_NOMEM when an allocation fails. */
sdkc_status sdkc_synth_value(json_t **out, sdkc_arena *a, const sdkc_type *t,
                             const sdkc_synth_options *opts, const char **why);

/* A string for a schema string format ("date-time" -> "2024-01-02T03:04:05Z", "uuid", "email",
 * "uri", "ipv4", "byte", ...), or NULL when sdkc knows no value for the format. Static. */
const char *sdkc_synth_format_value(const char *format);

/* The i-th (from 0) other valid value of a string format, besides sdkc_synth_format_value's
 * (a date-time with an offset or fractional seconds, an upper case uuid, an email with a plus
 * tag and a subdomain, a compressed ipv6, ...), with *note (note may be NULL) a short
 * description; NULL past the last (or for a format without variants). Static. */
const char *sdkc_synth_format_variant(const char *format, size_t i, const char **note);

#ifdef __cplusplus
}
#endif
#endif
