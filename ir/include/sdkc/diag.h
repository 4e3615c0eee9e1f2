/* sdkc/diag.h - diagnostics with source positions.
 *
 * The loader and the compiler report into one sdkc_diag; the CLI prints them as
 *   path:line:col: error: message
 * Many are collected in one run. Every error is kept; past SDKC_DIAG_MAX warnings the rest are
 * counted, not stored, so that warnings never hide an error.
 */
#ifndef SDKC_DIAG_H
#define SDKC_DIAG_H

#include <stdio.h>
#include "sdkc/util.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SDKC_DIAG_MAX 200 /* warnings stored; errors are not capped */

typedef enum sdkc_severity { SDKC_SEV_WARNING = 0, SDKC_SEV_ERROR = 1 } sdkc_severity;

/* A source position: file name as given by the user (borrowed from whoever loaded it), 1-based
 * line and column; line 0 means "the whole file". */
typedef struct sdkc_loc {
    const char *file;
    uint32_t line;
    uint32_t col;
} sdkc_loc;

typedef struct sdkc_diag_entry {
    sdkc_severity severity;
    sdkc_loc loc;
    const char *message;
} sdkc_diag_entry;

typedef struct sdkc_diag sdkc_diag;

/* New, empty list (owned by the caller). */
sdkc_status sdkc_diag_new(sdkc_diag **out);
void sdkc_diag_free(sdkc_diag *d); /* NULL is a no-op */
/* Add one diagnostic; the file name is copied. Allocation failures are counted, never fatal. */
void sdkc_diag_add(sdkc_diag *d, sdkc_severity sev, sdkc_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void sdkc_diag_vadd(sdkc_diag *d, sdkc_severity sev, sdkc_loc loc, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));
size_t sdkc_diag_errors(const sdkc_diag *d);   /* counts all, stored or not */
size_t sdkc_diag_warnings(const sdkc_diag *d); /* likewise */
size_t sdkc_diag_count(const sdkc_diag *d);    /* stored entries */
/* Borrowed; valid until the list is freed. */
const sdkc_diag_entry *sdkc_diag_get(const sdkc_diag *d, size_t i);
/* Print entries in the order they were added, then "sdkc: ... and N more warnings" if warnings
 * past the cap were dropped (and a count of any lost to allocation failure). With errors_only,
 * warnings are skipped (--quiet). */
void sdkc_diag_print(const sdkc_diag *d, FILE *fp, bool errors_only);

#ifdef __cplusplus
}
#endif
#endif
