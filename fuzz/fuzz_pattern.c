/* fuzz_pattern.c - schema patterns on arbitrary bytes: the example generator (sdkc/pattern.h) and
 * the shared matcher (sdkc/regex.h). A value the generator returns must match the pattern with
 * the matcher (it was verified with it) and keep to the length bounds; the matcher must end on
 * any pattern and subject, within its limits. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sdkc/pattern.h"
#include "sdkc/regex.h"
#include "sdkc/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t chars(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    /* the first byte picks the length bounds, the rest is the pattern */
    size_t min = size ? data[0] % 8 : 0, max = size && data[0] & 0x80 ? min + 16 : SIZE_MAX;
    char *pat = malloc(size ? size : 1);
    if (!pat)
        return 0;
    memcpy(pat, data + (size ? 1 : 0), size ? size - 1 : 0);
    pat[size ? size - 1 : 0] = '\0';
    sdkc_arena *a = NULL;
    sdkc_regex *re = NULL;
    if (sdkc_arena_new(&a) != SDKC_OK)
        goto done;
    const char *why = NULL;
    const char *v = sdkc_pattern_example(a, pat, min, max, &why);
    if (!v && !why)
        __builtin_trap(); /* a failure always has a reason */
    if (sdkc_regex_new(&re, pat, a, &why) == SDKC_OK) {
        if (v && (sdkc_regex_match(re, v, strlen(v), NULL) != SDKC_REGEX_MATCH || chars(v) < min ||
                  chars(v) > max))
            __builtin_trap();
        sdkc_regex_match(re, pat, strlen(pat), NULL);
        sdkc_regex_match(re, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!", 37, NULL);
    } else if (v) {
        __builtin_trap(); /* a returned value was verified: the pattern compiles */
    }
done:
    sdkc_regex_free(re);
    sdkc_arena_free(a);
    free(pat);
    return 0;
}
