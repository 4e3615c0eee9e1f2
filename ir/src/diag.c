/* diag.c - a capped list of positioned diagnostics. */
#include "sdkc/diag.h"

#include <stdlib.h>
#include <string.h>

/* Entries live in fixed chunks (arena memory), so pointers handed out stay valid as more are
 * added; the table of chunks is malloc'd and grows. */
#define CHUNK 256

struct sdkc_diag {
    sdkc_arena *arena;        /* messages, file names and entry chunks */
    sdkc_diag_entry **chunks; /* malloc'd table of CHUNK-entry blocks */
    size_t nchunks, capchunks;
    size_t count;
    size_t stored_warnings;
    size_t errors, warnings;  /* all, stored or not */
    size_t dropped_warnings;  /* past SDKC_DIAG_MAX stored warnings */
    size_t lost;              /* not stored for lack of memory */
    const char *last_file_in; /* caller's pointer for the last file name copied */
    const char *last_file_copy;
};

sdkc_status sdkc_diag_new(sdkc_diag **out)
{
    *out = NULL;
    sdkc_status st = SDKC_ERR_NOMEM;
    sdkc_diag *d = calloc(1, sizeof *d);
    if (!d)
        goto done;
    st = sdkc_arena_new(&d->arena);
    if (st != SDKC_OK)
        goto done;
    *out = d;
    d = NULL;
done:
    sdkc_diag_free(d);
    return st;
}

void sdkc_diag_free(sdkc_diag *d)
{
    if (!d)
        return;
    sdkc_arena_free(d->arena);
    free(d->chunks);
    free(d);
}

/* The slot for entry number d->count, or NULL when out of memory. */
static sdkc_diag_entry *next_slot(sdkc_diag *d)
{
    size_t ci = d->count / CHUNK;
    if (ci == d->nchunks) {
        if (d->nchunks == d->capchunks) {
            size_t cap = d->capchunks ? d->capchunks * 2 : 8;
            sdkc_diag_entry **t = realloc(d->chunks, cap * sizeof *t);
            if (!t)
                return NULL;
            d->chunks = t;
            d->capchunks = cap;
        }
        sdkc_diag_entry *chunk = sdkc_arena_alloc(d->arena, CHUNK * sizeof *chunk);
        if (!chunk)
            return NULL;
        d->chunks[d->nchunks++] = chunk;
    }
    return &d->chunks[ci][d->count % CHUNK];
}

static const char *copy_file(sdkc_diag *d, const char *file)
{
    if (!file)
        return NULL;
    /* Most diagnostics name the same file: keep one copy of it. */
    if (d->last_file_copy && (file == d->last_file_in || strcmp(file, d->last_file_copy) == 0))
        return d->last_file_copy;
    const char *copy = sdkc_arena_strdup(d->arena, file);
    if (copy) {
        d->last_file_in = file;
        d->last_file_copy = copy;
    }
    return copy;
}

void sdkc_diag_vadd(sdkc_diag *d, sdkc_severity sev, sdkc_loc loc, const char *fmt, va_list ap)
{
    if (!d)
        return;
    bool is_error = sev == SDKC_SEV_ERROR;
    if (is_error)
        d->errors++;
    else
        d->warnings++;
    sdkc_buf msg = SDKC_BUF_INIT;
    if (!is_error && d->stored_warnings >= SDKC_DIAG_MAX) {
        d->dropped_warnings++; /* errors are always kept: warnings never hide them */
        return;
    }
    sdkc_buf_vprintf(&msg, fmt, ap);
    if (sdkc_buf_finish(&msg) != SDKC_OK)
        goto lost;
    const char *text = sdkc_arena_strndup(d->arena, msg.data ? msg.data : "", msg.len);
    const char *file = copy_file(d, loc.file);
    sdkc_diag_entry *e = text && (!loc.file || file) ? next_slot(d) : NULL;
    if (!e)
        goto lost;
    d->count++;
    if (!is_error)
        d->stored_warnings++;
    e->severity = is_error ? SDKC_SEV_ERROR : SDKC_SEV_WARNING;
    e->loc.file = file;
    e->loc.line = loc.line;
    e->loc.col = loc.col;
    e->message = text;
    sdkc_buf_cleanup(&msg);
    return;
lost:
    d->lost++;
    sdkc_buf_cleanup(&msg);
}

void sdkc_diag_add(sdkc_diag *d, sdkc_severity sev, sdkc_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sdkc_diag_vadd(d, sev, loc, fmt, ap);
    va_end(ap);
}

size_t sdkc_diag_errors(const sdkc_diag *d)
{
    return d ? d->errors : 0;
}

size_t sdkc_diag_warnings(const sdkc_diag *d)
{
    return d ? d->warnings : 0;
}

size_t sdkc_diag_count(const sdkc_diag *d)
{
    return d ? d->count : 0;
}

const sdkc_diag_entry *sdkc_diag_get(const sdkc_diag *d, size_t i)
{
    if (!d || i >= d->count)
        return NULL;
    return &d->chunks[i / CHUNK][i % CHUNK];
}

void sdkc_diag_print(const sdkc_diag *d, FILE *fp, bool errors_only)
{
    if (!d || !fp)
        return;
    for (size_t i = 0; i < d->count; i++) {
        const sdkc_diag_entry *e = sdkc_diag_get(d, i);
        if (errors_only && e->severity != SDKC_SEV_ERROR)
            continue;
        const char *sev = e->severity == SDKC_SEV_ERROR ? "error" : "warning";
        const char *file = e->loc.file ? e->loc.file : "sdkc";
        if (e->loc.file && e->loc.line > 0)
            fprintf(fp, "%s:%u:%u: %s: %s\n", file, (unsigned)e->loc.line, (unsigned)e->loc.col,
                    sev, e->message);
        else
            fprintf(fp, "%s: %s: %s\n", file, sev, e->message);
    }
    if (!errors_only && d->dropped_warnings > 0)
        fprintf(fp, "sdkc: ... and %zu more warning%s\n", d->dropped_warnings,
                d->dropped_warnings == 1 ? "" : "s");
    if (d->lost > 0)
        fprintf(fp, "sdkc: %zu diagnostic%s lost (out of memory)\n", d->lost,
                d->lost == 1 ? "" : "s");
}
