/* map.c - the hash map and pointer vector (sdkc/map.h). */
#include "sdkc/map.h"

#include <stdlib.h>
#include <string.h>

uint64_t sdkc_hash_bytes(const void *data, size_t n)
{
    const unsigned char *p = data;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

uint64_t sdkc_hash_str(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        h ^= *p;
        h *= 0x100000001b3ull;
    }
    return h;
}

static uint64_t hash_key(const sdkc_map *m, const void *key)
{
    if (!m->by_pointer)
        return sdkc_hash_str(key);
    /* addresses share their low bits (alignment): multiply and fold the high bits down */
    uint64_t h = 0xcbf29ce484222325ull ^ (uint64_t)(uintptr_t)key;
    h *= 0x9E3779B97F4A7C15ull;
    return h ^ (h >> 29);
}

static bool key_eq(const sdkc_map *m, const void *a, const void *b)
{
    return m->by_pointer ? a == b : strcmp(a, b) == 0;
}

/* The slot of key: where it is, or the empty slot where it would go. m->cap > 0. */
static size_t slot_of(const sdkc_map *m, const void *key)
{
    size_t mask = m->cap - 1;
    size_t i = (size_t)hash_key(m, key) & mask;
    while (m->slots[i].key != NULL && !key_eq(m, m->slots[i].key, key))
        i = (i + 1) & mask;
    return i;
}

void sdkc_map_init(sdkc_map *m, sdkc_map_keys keys)
{
    memset(m, 0, sizeof *m);
    m->by_pointer = keys == SDKC_MAP_POINTERS;
}

void *sdkc_map_get(const sdkc_map *m, const void *key)
{
    if (m->cap == 0 || key == NULL)
        return NULL;
    const sdkc_map_entry *e = &m->slots[slot_of(m, key)];
    return e->key ? e->value : NULL;
}

/* Rehash into cap slots (a power of two above 2 * len). */
static bool rehash(sdkc_map *m, size_t cap)
{
    if (cap > SIZE_MAX / sizeof(sdkc_map_entry))
        return false;
    sdkc_map n = *m;
    n.cap = cap;
    n.slots = calloc(cap, sizeof *n.slots);
    if (!n.slots)
        return false;
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].key)
            n.slots[slot_of(&n, m->slots[i].key)] = m->slots[i];
    free(m->slots);
    *m = n;
    return true;
}

bool sdkc_map_reserve(sdkc_map *m, size_t n)
{
    if (n > SIZE_MAX / 4)
        return false;
    size_t cap = m->cap ? m->cap : 64;
    while ((n + 1) * 2 > cap)
        cap *= 2;
    return cap == m->cap || rehash(m, cap);
}

bool sdkc_map_put(sdkc_map *m, const void *key, void *value)
{
    if (key == NULL)
        return false;
    if ((m->len + 1) * 2 > m->cap && !sdkc_map_reserve(m, m->len + 1))
        return false;
    sdkc_map_entry *e = &m->slots[slot_of(m, key)];
    if (!e->key) {
        e->key = key;
        m->len++;
    }
    e->value = value;
    return true;
}

bool sdkc_map_del(sdkc_map *m, const void *key)
{
    if (m->cap == 0 || key == NULL)
        return false;
    size_t mask = m->cap - 1;
    size_t i = slot_of(m, key);
    if (!m->slots[i].key)
        return false;
    m->slots[i].key = NULL;
    m->slots[i].value = NULL;
    m->len--;
    /* re-insert the rest of the probe run so lookups past the hole still find their keys */
    for (size_t j = (i + 1) & mask; m->slots[j].key; j = (j + 1) & mask) {
        sdkc_map_entry moved = m->slots[j];
        m->slots[j].key = NULL;
        m->slots[j].value = NULL;
        m->slots[slot_of(m, moved.key)] = moved;
    }
    return true;
}

void sdkc_map_cleanup(sdkc_map *m)
{
    if (!m)
        return;
    free(m->slots);
    m->slots = NULL;
    m->cap = m->len = 0;
}

bool sdkc_vec_push(sdkc_vec *v, void *p)
{
    if (v->len == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 32;
        if (cap > SIZE_MAX / sizeof *v->items)
            return false;
        void **items = realloc(v->items, cap * sizeof *items);
        if (!items)
            return false;
        v->items = items;
        v->cap = cap;
    }
    v->items[v->len++] = p;
    return true;
}

void sdkc_vec_cleanup(sdkc_vec *v)
{
    if (!v)
        return;
    free(v->items);
    v->items = NULL;
    v->len = v->cap = 0;
}
