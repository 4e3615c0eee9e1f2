/* sdkc/validate.h - check a JSON value against an IR type in its wire projection.
 *
 * Used by `sdkc conform` to judge what a live server sends, and usable on its own. Every
 * deviation is reported (up to a bound), each with a JSON path ("$.data[3].time.created"), a rule
 * name and a readable message. Rules:
 *   required       a required object field is missing
 *   type           the JSON kind is wrong (string where an object is declared, ...)
 *   closed-object  a property the closed object does not declare
 *   enum           a string outside the enumeration (for conformance an unknown enum value IS a
 *                  deviation, although SDKs keep such values)
 *   literal        a value other than the declared literal
 *   pattern        a string that does not match its pattern or brand prefix
 *   bounds         a length, item count or numeric bound broken
 *   union          no variant matches (the closest variant's deviations follow), or a
 *                  discriminator value that names no variant
 *   json-string    a JSON-string whose content does not parse as JSON
 *   depth          nesting deeper than the configured limit (validation stops there)
 * Patterns: matched as ECMAScript regular expressions with PCRE2 (sdkc/regex.h, the matcher the
 * pattern generator verifies with; compiled once per validation object); a pattern PCRE2 cannot
 * run (a variable-length lookbehind, syntax that is not ECMAScript) or a match that hits the
 * backtracking limits is not checked and is counted as unchecked, never as passed.
 */
#ifndef SDKC_VALIDATE_H
#define SDKC_VALIDATE_H

#include <jansson.h>

#include "sdkc/ir.h"
#include "sdkc/util.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sdkc_deviation {
    const char *path;    /* "$.data[3].time.created" */
    const char *rule;    /* one of the rule names above (static string) */
    const char *message; /* readable, bounded; quotes at most a short prefix of the value */
} sdkc_deviation;

typedef struct sdkc_validate_options {
    size_t max_deviations; /* kept deviations; more are counted but dropped. 0 = 100 */
    size_t max_depth;      /* nesting limit. 0 = 256 */
} sdkc_validate_options;
#define SDKC_VALIDATE_OPTIONS_INIT                                                                 \
    {                                                                                              \
        0, 0                                                                                       \
    }

/* Results of one or more validations, and a cache of compiled patterns. */
typedef struct sdkc_validation sdkc_validation;

/* New, empty result set (*out owned by the caller; sdkc_validation_free). opts may be NULL. */
sdkc_status sdkc_validation_new(sdkc_validation **out, const sdkc_validate_options *opts);
/* Release. NULL is a no-op. */
void sdkc_validation_free(sdkc_validation *v);
/* Drop the deviations and counters; keeps the pattern cache. */
void sdkc_validation_reset(sdkc_validation *v);

/* Validate value against type (both borrowed) and append deviations; root is the path of value
 * ("$" when NULL). Returns SDKC_OK whatever the verdict (look at the count), SDKC_ERR_NOMEM when
 * an allocation failed (results are then incomplete). */
sdkc_status sdkc_validate(sdkc_validation *v, const sdkc_type *type, const json_t *value,
                          const char *root);

/* Deviations kept (at most max_deviations) and found in all (kept or dropped). */
size_t sdkc_validation_count(const sdkc_validation *v);
size_t sdkc_validation_total(const sdkc_validation *v);
/* The i-th kept deviation (borrowed until reset or free), NULL when out of range. */
const sdkc_deviation *sdkc_validation_get(const sdkc_validation *v, size_t i);
/* Pattern checks skipped because the pattern cannot be run or hit a match limit: how many checks,
 * and the distinct patterns (borrowed; NULL when out of range). */
size_t sdkc_validation_unchecked(const sdkc_validation *v);
size_t sdkc_validation_unchecked_pattern_count(const sdkc_validation *v);
const char *sdkc_validation_unchecked_pattern(const sdkc_validation *v, size_t i);

#ifdef __cplusplus
}
#endif
#endif
