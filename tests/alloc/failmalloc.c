/* failmalloc.c - see failmalloc.h. */
#define _GNU_SOURCE /* RTLD_NEXT */
#include "failmalloc.h"

#include <dlfcn.h>
#include <jansson.h>

#include <errno.h>
#include <malloc.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t n);
void __libc_free(void *p);
void *__libc_memalign(size_t align, size_t n);

/* Test-only process state; the harness is single-threaded while armed. */
static atomic_ulong fail_at, counter;
static atomic_bool fired;
/* Usable bytes of live blocks (malloc_usable_size), exact whatever the allocator caches. */
static atomic_size_t live;

static void *track(void *p)
{
    if (p)
        atomic_fetch_add(&live, malloc_usable_size(p));
    return p;
}

void failmalloc_arm(unsigned long nth)
{
    atomic_store(&counter, 0);
    atomic_store(&fired, false);
    atomic_store(&fail_at, nth);
}

unsigned long failmalloc_count(void)
{
    return atomic_load(&counter);
}

bool failmalloc_fired(void)
{
    return atomic_load(&fired);
}

size_t failmalloc_in_use(void)
{
    return atomic_load(&live);
}

/* Nonzero while jansson parses or serialises. jansson 2.14 is not allocation-failure safe there:
 * its lexer ignores a failed append (drops bytes; lex_scan_string may then assert) and json_dumps
 * can return invalid JSON (`{"c:"x"}`) after a failed allocation. No failure is injected inside
 * json_loadb, json_loads and json_dumps; every other allocation is. See docs/security.md. */
static atomic_int paused;

static bool should_fail(void)
{
    unsigned long at = atomic_load(&fail_at);
    if (!at || atomic_load(&paused))
        return false;
    unsigned long n = atomic_fetch_add(&counter, 1) + 1;
    if (n != at)
        return false;
    atomic_store(&fired, true);
    errno = ENOMEM;
    return true;
}

void *malloc(size_t n)
{
    return should_fail() ? NULL : track(__libc_malloc(n));
}

void *calloc(size_t n, size_t size)
{
    return should_fail() ? NULL : track(__libc_calloc(n, size));
}

void *realloc(void *p, size_t n)
{
    /* realloc(p, 0) frees in glibc; count it anyway: callers must cope with NULL. */
    if (should_fail())
        return NULL;
    size_t old = p ? malloc_usable_size(p) : 0;
    void *q = __libc_realloc(p, n);
    if (q || n == 0) {
        atomic_fetch_sub(&live, old);
        track(q);
    }
    return q;
}

void free(void *p)
{
    if (p)
        atomic_fetch_sub(&live, malloc_usable_size(p));
    __libc_free(p);
}

void *memalign(size_t align, size_t n)
{
    return should_fail() ? NULL : track(__libc_memalign(align, n));
}

void *aligned_alloc(size_t align, size_t n)
{
    return should_fail() ? NULL : track(__libc_memalign(align, n));
}

int posix_memalign(void **out, size_t align, size_t n)
{
    if (should_fail())
        return ENOMEM;
    void *p = __libc_memalign(align, n);
    if (!p)
        return ENOMEM;
    *out = track(p);
    return 0;
}

typedef json_t *(*loadb_fn)(const char *, size_t, size_t, json_error_t *);
typedef json_t *(*loads_fn)(const char *, size_t, json_error_t *);

json_t *json_loadb(const char *buf, size_t len, size_t flags, json_error_t *error)
{
    loadb_fn real;
    void *sym = dlsym(RTLD_NEXT, "json_loadb");
    memcpy(&real, &sym, sizeof real); /* POSIX guarantees this conversion; ISO C does not */
    atomic_fetch_add(&paused, 1);
    json_t *j = real(buf, len, flags, error);
    atomic_fetch_sub(&paused, 1);
    return j;
}

json_t *json_loads(const char *input, size_t flags, json_error_t *error)
{
    loads_fn real;
    void *sym = dlsym(RTLD_NEXT, "json_loads");
    memcpy(&real, &sym, sizeof real);
    atomic_fetch_add(&paused, 1);
    json_t *j = real(input, flags, error);
    atomic_fetch_sub(&paused, 1);
    return j;
}

typedef char *(*dumps_fn)(const json_t *, size_t);

char *json_dumps(const json_t *json, size_t flags)
{
    dumps_fn real;
    void *sym = dlsym(RTLD_NEXT, "json_dumps");
    memcpy(&real, &sym, sizeof real);
    atomic_fetch_add(&paused, 1);
    char *s = real(json, flags);
    atomic_fetch_sub(&paused, 1);
    return s;
}
