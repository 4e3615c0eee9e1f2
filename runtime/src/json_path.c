/* The JSON path of a typed decode or encode as text, for its error messages, and the layer's
 * OUT_OF_MEMORY error (json_internal.h). */
#include "json_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Append n bytes at *len, cutting at PATH_MAX_LEN - 1; false once full. */
static bool path_put(char *buf, size_t *len, const char *s, size_t n)
{
    size_t room = PATH_MAX_LEN - 1 - *len;
    bool fits = n <= room;
    if (!fits)
        n = room;
    memcpy(buf + *len, s, n);
    *len += n;
    return fits;
}

static bool is_ident(const char *key)
{
    if (key[0] == '\0' || isdigit((unsigned char)key[0]))
        return false;
    for (const char *c = key; *c; c++)
        if (!isalnum((unsigned char)*c) && *c != '_' && *c != '$')
            return false;
    return true;
}

const char *sdkrt_jpath_str_(jpath *p)
{
    char *b = p->buf;
    size_t len = 0;
    bool ok = path_put(b, &len, p->root, strlen(p->root));
    size_t kept = p->depth < PATH_MAX_DEPTH ? p->depth : PATH_MAX_DEPTH;
    for (size_t i = 0; i < kept && ok; i++) {
        const jseg *g = &p->seg[i];
        if (!g->key) {
            char num[32];
            int n = snprintf(num, sizeof num, "[%zu]", g->index);
            ok = n > 0 && path_put(b, &len, num, (size_t)n);
        } else if (is_ident(g->key)) {
            ok = path_put(b, &len, ".", 1) && path_put(b, &len, g->key, strlen(g->key));
        } else {
            ok = path_put(b, &len, "[\"", 2) && path_put(b, &len, g->key, strlen(g->key)) &&
                 path_put(b, &len, "\"]", 2);
        }
    }
    if (!ok || p->depth > PATH_MAX_DEPTH) { /* cut: say so (buf has room past the cap) */
        memcpy(b + len, "...", 3);
        len += 3;
    }
    b[len] = '\0';
    return p->buf;
}

sdkrt_status sdkrt_json_oom_(sdkrt_error **err)
{
    return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory decoding JSON");
}
