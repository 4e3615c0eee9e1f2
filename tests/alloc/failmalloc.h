/* failmalloc.h - allocation-failure injection for tests: this object interposes malloc, calloc,
 * realloc, free and the aligned allocators for the whole process (glibc allows that), so that the
 * Nth allocation from then on fails, whoever makes it (our code, jansson, libyaml, libc). Not
 * for sanitizer or valgrind builds, which replace malloc themselves. No failure is injected while
 * jansson parses (json_loadb, json_loads): its lexer is not allocation-failure safe (see
 * docs/security.md). */
#ifndef FAILMALLOC_H
#define FAILMALLOC_H

#include <stdbool.h>
#include <stddef.h>

/* Fail the nth allocation from now (1-based); 0 turns injection off and resets the counter. */
void failmalloc_arm(unsigned long nth);
/* Allocations attempted since the last arm, and whether the armed one was reached (failed). */
unsigned long failmalloc_count(void);
bool failmalloc_fired(void);
/* Usable bytes of the blocks live in the process now, for leak checks. */
size_t failmalloc_in_use(void);

#endif
