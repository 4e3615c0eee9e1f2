/* conform_internal.h - the report under construction, shared by the runner and the report code. */
#ifndef SDKC_CONFORM_INTERNAL_H
#define SDKC_CONFORM_INTERNAL_H

#include <stdarg.h>
#include <stdatomic.h>

#include "sdkc/conform.h"

struct sdkc_conform_report {
    sdkc_conform_result *items;
    size_t n, cap;
    /* Set by conform_add (under the runner's mutex) and by workers outside it (-j N): atomic. */
    atomic_bool oom;
    size_t unchecked;
    char **unchecked_patterns;
    size_t nunchecked_patterns;
    char *base_url;
    char *contract;
    size_t operations; /* operations included */
    size_t probed;     /* ... of which a valid probe got a real answer */
    bool interrupted, deadline;
};

/* Record a result; strings are copied; path indices are normalised to [*]. A deviation equal to
 * an earlier one in (operation, check, path), whichever probe or rule saw it, only increments its
 * count (keeping the first probe and rule); so does a pass equal in (operation, probe, check,
 * path, rule). */
void conform_add(sdkc_conform_report *r, const char *op, const char *probe, const char *check,
                 sdkc_verdict v, const char *path, const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 8, 9)));
void conform_vadd(sdkc_conform_report *r, const char *op, const char *probe, const char *check,
                  sdkc_verdict v, const char *path, const char *rule, const char *fmt, va_list ap)
    __attribute__((format(printf, 8, 0)));
void conform_note_unchecked(sdkc_conform_report *r, const char *pattern, size_t count);

/* contract.c */
bool conform_media_is_json(const char *media_type); /* json or +json, parameters ignored */

#endif
