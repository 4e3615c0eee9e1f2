/* pattern_verify.c - the check of a generated string before it is returned, by the matcher
 * `sdkc conform` validates with (sdkc/regex.h: PCRE2), independent of how the string was made.
 */
#include "pattern_internal.h"
#include "sdkc/regex.h"

#include <string.h>

/* 1 if s matches the pattern (a search, as JSON Schema asks), 0 if not, -1 if it could not be
 * checked (c->why set). The pattern is compiled on the first call and kept in c. */
int sdkc_pat_verify(pctx *c, const char *s)
{
    if (!c->re) {
        const char *why = NULL;
        sdkc_status st = sdkc_regex_new(&c->re, (const char *)c->s, c->out, &why);
        if (st == SDKC_ERR_NOMEM)
            return fail(c, sdkc_pat_oom), -1;
        if (st != SDKC_OK)
            return sdkc_pat_failf(c, "the generated value cannot be verified",
                                  "the generated value cannot be verified: %s", why),
                   -1;
    }
    const char *why = NULL;
    sdkc_regex_result r = sdkc_regex_match(c->re, s, strlen(s), &why);
    if (r == SDKC_REGEX_LIMIT)
        return sdkc_pat_failf(c, "the generated value cannot be verified",
                              "the generated value cannot be verified: %s", why),
               -1;
    return r == SDKC_REGEX_MATCH;
}
