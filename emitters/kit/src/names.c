/* names.c - names and a string map for emitters (sdkc/emitkit.h). */
#include "sdkc/emitkit.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
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

/* ---- a string -> pointer hash map (open addressing, FNV-1a) ---- */

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static bool map_grow(sdkc_kit_map *m)
{
    size_t ncap = m->cap ? m->cap * 2 : 256;
    sdkc_kit_map_entry *ne = calloc(ncap, sizeof *ne);
    if (!ne)
        return false;
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->e[i].key)
            continue;
        size_t j = hash_str(m->e[i].key) & (ncap - 1);
        while (ne[j].key)
            j = (j + 1) & (ncap - 1);
        ne[j] = m->e[i];
    }
    free(m->e);
    m->e = ne;
    m->cap = ncap;
    return true;
}

void *sdkc_kit_map_get(const sdkc_kit_map *m, const char *key)
{
    if (!m->cap)
        return NULL;
    size_t j = hash_str(key) & (m->cap - 1);
    while (m->e[j].key) {
        if (strcmp(m->e[j].key, key) == 0)
            return m->e[j].value;
        j = (j + 1) & (m->cap - 1);
    }
    return NULL;
}

bool sdkc_kit_map_put(sdkc_kit_map *m, const char *key, void *value)
{
    if ((m->n + 1) * 2 > m->cap && !map_grow(m))
        return false;
    size_t j = hash_str(key) & (m->cap - 1);
    while (m->e[j].key) {
        if (strcmp(m->e[j].key, key) == 0) {
            m->e[j].value = value;
            return true;
        }
        j = (j + 1) & (m->cap - 1);
    }
    m->e[j].key = key;
    m->e[j].value = value;
    m->n++;
    return true;
}

void sdkc_kit_map_cleanup(sdkc_kit_map *m)
{
    free(m->e);
    m->e = NULL;
    m->cap = m->n = 0;
}
