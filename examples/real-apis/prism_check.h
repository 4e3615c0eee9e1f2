/* prism_check.h - what the examples add for their runs against a Prism mock server (run.sh):
 * Prism checks every request against the contract and lists what it found wrong in the
 * response header `sl-violations` (a JSON array of {location: ["request", ...], message}).
 * Against the real API the header never comes, and the count stays 0. */
#ifndef PRISM_CHECK_H
#define PRISM_CHECK_H

#include <jansson.h>
#include <stdio.h>
#include <string.h>

/* The request violations in one response header when it is Prism's `sl-violations` (0 for any
 * other header); each is printed to stderr. A header that is not a JSON array counts as one. */
static int prism_violations(const char *name, const char *value)
{
    const char *want = "sl-violations";
    size_t i = 0;
    for (; name[i] && want[i]; i++)
        if ((name[i] | 0x20) != want[i]) /* ASCII case-insensitive ('-' has the bit set) */
            return 0;
    if (name[i] || want[i])
        return 0;
    json_t *all = json_loads(value, 0, NULL);
    int n = json_is_array(all) ? 0 : 1;
    size_t k;
    json_t *v;
    json_array_foreach(all, k, v)
    {
        const char *side = json_string_value(json_array_get(json_object_get(v, "location"), 0));
        if (side && strcmp(side, "request") == 0) {
            const char *msg = json_string_value(json_object_get(v, "message"));
            fprintf(stderr, "request violation: %s\n", msg ? msg : "(no message)");
            n++;
        }
    }
    if (!json_is_array(all))
        fprintf(stderr, "request violations: %s\n", value);
    json_decref(all);
    return n;
}

#endif
