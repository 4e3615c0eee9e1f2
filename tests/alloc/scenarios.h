/* scenarios.h - what alloc_inject runs. A scenario does one complete job from scratch, frees
 * everything it made, returns 0 on success (with a digest of its result in *digest) or nonzero
 * when the library reported an error. */
#ifndef SCENARIOS_H
#define SCENARIOS_H

#include <stddef.h>
#include <stdint.h>

typedef struct scenario {
    const char *name;
    const char *label; /* CTest area */
    int (*run)(uint64_t *digest);
} scenario;

extern const scenario scenarios[];
extern const size_t n_scenarios;

uint64_t digest_bytes(uint64_t h, const void *p, size_t n);

#endif
