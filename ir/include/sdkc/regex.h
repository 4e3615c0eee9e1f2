/* sdkc/regex.h - schema `pattern`s (ECMAScript regular expressions) matched with PCRE2.
 *
 * The one matcher of sdkc: the pattern generator verifies its strings with it and `sdkc conform`
 * validates response strings with it. A pattern is read with ECMAScript's Unicode ('u') meaning,
 * as JSON Schema asks, keeping what only Annex B accepts where 'u' would reject it (a lone { or
 * ], escaped letters without a meaning, [\w-x]); it is translated where PCRE2 differs:
 *
 *   \d \w \b     ASCII only (PCRE2 without UCP)      \s \S   ECMAScript's white space and line
 *   .            anything but \n \r U+2028 U+2029             terminators (Unicode)
 *   $            the end of the string only          \v      U+000B (not a class)
 *   \uHHHH \u{H...} \xHH \0 \cX   code points; a surrogate pair \uD83D\uDE00 is one
 *   \p{..} \P{..}  Unicode properties: L, Letter, gc=Lu, General_Category=Letter, Script=Greek,
 *                  sc=, scx=, binary properties (Alphabetic, White_Space, ...)
 *   [^] []       any character, nothing             (?=) (?!) (?<=) (?<!) (?<name>) \k<name>
 *   a back reference to a group that has not matched matches the empty string
 *
 * and refused where ECMAScript has no such syntax (inline flags (?i), possessive a*+, verbs (*..),
 * octal escapes) or where PCRE2 cannot follow (a lookbehind of variable length). Subjects are
 * UTF-8; matching is a search (anchored only by ^ and $), bounded by the limits below so that a
 * hostile pattern ends with SDKC_REGEX_LIMIT instead of running long.
 */
#ifndef SDKC_REGEX_H
#define SDKC_REGEX_H

#include <stddef.h>

#include "sdkc/util.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SDKC_REGEX_MAX_BYTES      32768   /* longer patterns are refused */
#define SDKC_REGEX_MAX_NEST       64      /* parenthesis nesting */
#define SDKC_REGEX_MATCH_LIMIT    1000000 /* PCRE2 match limit: backtracking steps per match */
#define SDKC_REGEX_DEPTH_LIMIT    10000   /* PCRE2 depth limit: nested backtracking points */
#define SDKC_REGEX_HEAP_LIMIT_KIB 20480   /* PCRE2 heap limit for backtracking, KiB */

typedef enum sdkc_regex_result {
    SDKC_REGEX_NOMATCH = 0,
    SDKC_REGEX_MATCH = 1,
    SDKC_REGEX_LIMIT = -1, /* a limit was hit (or the subject is not UTF-8): no answer */
} sdkc_regex_result;

typedef struct sdkc_regex sdkc_regex;

/* Compile `pattern` (NUL-terminated UTF-8). Returns SDKC_OK with *out new (sdkc_regex_free);
 * SDKC_ERR_INVALID with *out NULL and *why set when the pattern is not ECMAScript PCRE2 can run
 * ("lookbehind assertion is not fixed length at offset 9", "inline flags (?i) are not
 * ECMAScript", ...); SDKC_ERR_NOMEM. *why (why may be NULL) is static, or allocated in arena a
 * when a is not NULL. */
sdkc_status sdkc_regex_new(sdkc_regex **out, const char *pattern, sdkc_arena *a, const char **why);
void sdkc_regex_free(sdkc_regex *re);

/* Search s[0..len) (UTF-8; NUL bytes are part of it). *why (why may be NULL) is set to a static
 * reason on SDKC_REGEX_LIMIT. One regex may be matched from several threads at once. */
sdkc_regex_result sdkc_regex_match(const sdkc_regex *re, const char *s, size_t len,
                                   const char **why);

/* The PCRE2 pattern `pattern` translates to, into *out (reset first), for tests and messages.
 * SDKC_OK, SDKC_ERR_INVALID with *why static, or SDKC_ERR_NOMEM. */
sdkc_status sdkc_regex_translate(sdkc_buf *out, const char *pattern, const char **why);

/* Compiled patterns by their text, for a caller that matches the same patterns many times. Not
 * safe for concurrent use: one cache per thread. */
typedef struct sdkc_regex_cache sdkc_regex_cache;
sdkc_status sdkc_regex_cache_new(sdkc_regex_cache **out);
void sdkc_regex_cache_free(sdkc_regex_cache *c);
/* The compiled `pattern` (borrowed: lives as long as the cache), compiled on first use; a
 * pattern that does not compile is remembered too. SDKC_OK with *out; SDKC_ERR_INVALID with *out
 * NULL and *why (owned by the cache) the reason; SDKC_ERR_NOMEM. */
sdkc_status sdkc_regex_cache_get(sdkc_regex_cache *c, const sdkc_regex **out, const char *pattern,
                                 const char **why);

#ifdef __cplusplus
}
#endif
#endif
