/* names.c - names for emitters (sdkc/emitkit.h). */
#include "sdkc/emitkit.h"

#include <ctype.h>
#include <string.h>

char *sdkc_kit_upper(sdkc_arena *a, const char *s)
{
    char *u = sdkc_arena_strdup(a, s);
    for (char *p = u; p && *p; p++)
        *p = (char)toupper((unsigned char)*p);
    return u;
}

const char *sdkc_kit_base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}
