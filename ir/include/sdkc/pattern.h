/* sdkc/pattern.h - an example string for a schema `pattern` (OpenAPI / JSON Schema: an ECMAScript
 * regular expression), for the generated mock tests.
 *
 * The supported syntax is ECMAScript's without backreferences and flags: literals (UTF-8 copied
 * through), `.`, escapes (\d \w \s \D \W \S \t \n \v \f \r \cX \xHH \uHHHH \u{H...} \0 and
 * escaped punctuation), Unicode property escapes \p{..} \P{..} (in and out of classes: the set is
 * the members PCRE2 finds among printable ASCII and representatives of each general category and
 * common scripts), character classes (ranges, negation, escapes), groups ( ), (?: ), (?<name> ),
 * alternation, the quantifiers * + ? {n} {n,} {n,m} (lazy or not), the anchors ^ $ anywhere, and
 * \b \B and lookaround (?= ) (?! ) (?<= ) (?<! ) when the generated string happens to satisfy
 * them (generation takes them as empty). Where ECMAScript's Unicode mode ('u') rejects a form
 * that its Annex B mode takes ([\w-_], \-, a lone { or ]), the Annex B meaning is used.
 *
 * Every string returned has been checked independently of how it was generated, with the matcher
 * `sdkc conform` validates with (sdkc/regex.h: PCRE2, ECMAScript's meaning, match limits). A
 * string that fails the check, or that cannot be checked within the limits, is never returned.
 */
#ifndef SDKC_PATTERN_H
#define SDKC_PATTERN_H

#include <stddef.h>

#include "sdkc/util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Limits: longer generated strings, longer patterns and deeper group nesting are refused with a
 * reason. */
#define SDKC_PATTERN_MAX_CHARS 4096
#define SDKC_PATTERN_MAX_BYTES 32768
#define SDKC_PATTERN_MAX_DEPTH 64

/* A string matching the ECMAScript regular expression `pattern` (JSON Schema semantics: a search,
 * anchored only by ^ and $), with a length in characters (Unicode code points) within
 * [min_len, max_len] (max_len SIZE_MAX = unbounded). The simplest such string is preferred: first
 * alternatives, the fewest repetitions, letters and digits for classes; repetitions grow (or
 * other alternatives are taken) to reach min_len, and an unanchored side is padded only when
 * nothing else reaches it. Returns a NUL-terminated UTF-8 copy in `a`, or NULL with *why (when
 * why is not NULL) set to a static or arena-allocated reason ("lookahead is not supported", "no
 * string of the length bounds ...", ...). Never aborts on any input. */
const char *sdkc_pattern_example(sdkc_arena *a, const char *pattern, size_t min_len, size_t max_len,
                                 const char **why);

/* Which string sdkc_pattern_variant prefers. */
typedef enum sdkc_pattern_choice {
    SDKC_PATTERN_NATURAL = 0,           /* sdkc_pattern_example's: the simplest */
    SDKC_PATTERN_LONGEST = 1,           /* the longest within [min_len, max_len] */
    SDKC_PATTERN_LAST_ALTERNATIVES = 2, /* the natural length, each alternation's last
                                           alternative of that length */
} sdkc_pattern_choice;

/* Like sdkc_pattern_example, with another preference: other matches of the same pattern, for
 * tests that vary a value (the result may equal sdkc_pattern_example's when the pattern has one
 * match of a kind). Verified the same way. */
const char *sdkc_pattern_variant(sdkc_arena *a, const char *pattern, size_t min_len, size_t max_len,
                                 sdkc_pattern_choice choice, const char **why);

#ifdef __cplusplus
}
#endif
#endif
