/* conform_internal.h - the report under construction, shared by the runner and the report code. */
#ifndef SDKC_CONFORM_INTERNAL_H
#define SDKC_CONFORM_INTERNAL_H

#include <stdarg.h>
#include <stdatomic.h>

#include "sdkc/conform.h"
#include "sdkrt/transport.h"

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
    unsigned long long seed; /* of the generated requests */
    size_t max_examples;     /* per operation and phase */
};

/* Record a result; strings are copied; path indices are normalised to [*]. A deviation equal to
 * an earlier one in (operation, check, path, rule), whichever probe saw it, only increments its
 * count (keeping the first probe and evidence); so does a pass equal in (operation, probe, check,
 * path, rule). */
void conform_add(sdkc_conform_report *r, const char *op, const char *probe, const char *check,
                 sdkc_verdict v, const char *path, const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 8, 9)));
/* curl: the request's command line (copied; kept by a new deviation), or NULL. */
void conform_vadd(sdkc_conform_report *r, const char *op, const char *probe, const char *check,
                  sdkc_verdict v, const char *path, const char *rule, const char *curl,
                  const char *fmt, va_list ap) __attribute__((format(printf, 9, 0)));
void conform_note_unchecked(sdkc_conform_report *r, const char *pattern, size_t count);

/* curl.c: a secret of the run and the environment variable it came from (--auth SCHEME=ENV,
 * --password-env VAR). basic_user: the user of an HTTP Basic pair (whole_pair: ENV holds
 * "user:password", so the pair is "$ENV"). */
typedef struct conform_secret {
    const char *value;
    const char *env;
    const char *basic_user;
    bool whole_pair;
} conform_secret;

/* The request as a curl command line (new), secrets as "$ENV"; NULL when one could not be
 * replaced (it is never shown) or out of memory. */
char *conform_curl(const sdkrt_transport_request *req, const conform_secret *sec, size_t n);

/* contract.c */
bool conform_media_is_json(const char *media_type); /* json or +json, parameters ignored */

#endif
