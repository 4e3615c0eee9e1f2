/* sdkc/map.h - the one hash map and pointer vector of libsdkc and the emitters.
 *
 * sdkc_map maps keys to pointers with open addressing (FNV-1a for strings). Keys are strings
 * compared by content (the default, SDKC_MAP_INIT) or pointers compared by address
 * (SDKC_MAP_POINTER_INIT). Keys are borrowed and must outlive the map (arena strings, nodes,
 * types); values are borrowed too. Nothing iterates a map, so its slot order never reaches any
 * output. sdkc_vec is a growable array of borrowed pointers.
 *
 * Both start empty without allocating (the _INIT initializers or zeroing) and are released with
 * their _cleanup, which leaves them empty and usable again; _cleanup of a cleaned-up container is a
 * no-op.
 */
#ifndef SDKC_MAP_H
#define SDKC_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* FNV-1a over n bytes (data borrowed, may be NULL when n is 0), and over a NUL-terminated string.
 */
uint64_t sdkc_hash_bytes(const void *data, size_t n);
uint64_t sdkc_hash_str(const char *s);

typedef struct sdkc_map_entry {
    const void *key; /* NULL: the slot is empty */
    void *value;
} sdkc_map_entry;

typedef struct sdkc_map {
    sdkc_map_entry *slots; /* cap slots, cap a power of two (0 before the first put) */
    size_t cap;
    size_t len;      /* keys present (read-only for callers) */
    bool by_pointer; /* keys compare by address; false: by string content */
} sdkc_map;

#define SDKC_MAP_INIT                                                                              \
    {                                                                                              \
        NULL, 0, 0, false                                                                          \
    }
#define SDKC_MAP_POINTER_INIT                                                                      \
    {                                                                                              \
        NULL, 0, 0, true                                                                           \
    }

typedef enum sdkc_map_keys {
    SDKC_MAP_STRINGS = 0, /* keys are NUL-terminated strings, equal when their bytes are */
    SDKC_MAP_POINTERS = 1 /* keys are addresses, equal when they are the same address */
} sdkc_map_keys;

/* An empty map of that kind of keys (the same as its _INIT initializer). */
void sdkc_map_init(sdkc_map *m, sdkc_map_keys keys);
/* The value of key (borrowed), or NULL when absent or key is NULL. */
void *sdkc_map_get(const sdkc_map *m, const void *key);
/* Set key (borrowed, not NULL) to value, replacing an older value. false when out of memory or
 * key is NULL; the map is unchanged then. */
bool sdkc_map_put(sdkc_map *m, const void *key, void *value);
/* Remove key; false when it was absent. */
bool sdkc_map_del(sdkc_map *m, const void *key);
/* Make room for n keys in all, so that the next puts up to n keys do not allocate. false when out
 * of memory (the map is unchanged). */
bool sdkc_map_reserve(sdkc_map *m, size_t n);
/* Release the slots (not the keys or values); the map is empty afterwards. NULL is a no-op. */
void sdkc_map_cleanup(sdkc_map *m);

typedef struct sdkc_vec {
    void **items; /* len borrowed pointers */
    size_t len, cap;
} sdkc_vec;

#define SDKC_VEC_INIT                                                                              \
    {                                                                                              \
        NULL, 0, 0                                                                                 \
    }

/* Append p (borrowed; NULL allowed). false when out of memory (the vector is unchanged). */
bool sdkc_vec_push(sdkc_vec *v, void *p);
/* Release the array (not what it points at); the vector is empty afterwards. NULL is a no-op. */
void sdkc_vec_cleanup(sdkc_vec *v);

#ifdef __cplusplus
}
#endif
#endif
