/* sdkc/util.h - arena allocation and a growable byte buffer shared by the compiler and emitters.
 *
 * Everything the compiler builds (document trees, the IR) lives in one arena owned by the object
 * that created it, so a whole tree is released by one call and nothing is freed piecemeal.
 */
#ifndef SDKC_UTIL_H
#define SDKC_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes shared by the compiler library. */
typedef enum sdkc_status {
    SDKC_OK = 0,
    SDKC_ERR_NOMEM = 1,   /* an allocation failed */
    SDKC_ERR_IO = 2,      /* a file could not be read or written */
    SDKC_ERR_INVALID = 3, /* the input is invalid; diagnostics say where */
    SDKC_ERR_LIMIT = 4    /* a size or depth limit was hit; diagnostics say which */
} sdkc_status;

/* Printable name of a status ("ok", "out of memory", ...). Returns a static string. */
const char *sdkc_status_str(sdkc_status st);

typedef struct sdkc_arena sdkc_arena;

/* Create an arena. On success *out is new and owned by the caller (release with
 * sdkc_arena_free). */
sdkc_status sdkc_arena_new(sdkc_arena **out);
/* Release the arena and everything allocated from it. NULL is a no-op. */
void sdkc_arena_free(sdkc_arena *a);
/* Zeroed memory aligned for any type, owned by the arena; NULL when out of memory or n is 0. */
void *sdkc_arena_alloc(sdkc_arena *a, size_t n);
/* The same without the zeroing, for memory the caller fills at once. */
void *sdkc_arena_alloc_uninit(sdkc_arena *a, size_t n);
/* Copies of strings into the arena; NULL when out of memory. s may not be NULL. */
char *sdkc_arena_strdup(sdkc_arena *a, const char *s);
char *sdkc_arena_strndup(sdkc_arena *a, const char *s, size_t n);
/* printf into the arena; NULL when out of memory. */
char *sdkc_arena_printf(sdkc_arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *sdkc_arena_vprintf(sdkc_arena *a, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
/* Total bytes handed out, for statistics. */
size_t sdkc_arena_used(const sdkc_arena *a);

/* A growable, NUL-terminated byte buffer. Initialise with SDKC_BUF_INIT or sdkc_buf_init;
 * release with sdkc_buf_cleanup. After an allocation failure the buffer remembers it (oom is set),
 * further appends are ignored, and sdkc_buf_finish reports SDKC_ERR_NOMEM: callers may append
 * many times and check once. */
typedef struct sdkc_buf {
    char *data; /* NUL-terminated when len > 0 or after any append; may be NULL when empty */
    size_t len;
    size_t cap;
    bool oom;
} sdkc_buf;
#define SDKC_BUF_INIT                                                                              \
    {                                                                                              \
        NULL, 0, 0, false                                                                          \
    }

void sdkc_buf_init(sdkc_buf *b);
void sdkc_buf_cleanup(sdkc_buf *b);
void sdkc_buf_reset(sdkc_buf *b); /* length to 0, keeps capacity and clears oom */
/* Appends. The common case (room already there) is inline: the emitters append a few hundred
 * thousand fragments per SDK. The _slow functions are the rest of each and not for direct use. */
void sdkc_buf_append_slow(sdkc_buf *b, const void *data, size_t n);
void sdkc_buf_putc_slow(sdkc_buf *b, char c);
static inline void sdkc_buf_append(sdkc_buf *b, const void *data, size_t n)
{
    /* (the first test is for the compiler: it rules out impossible sizes it can see) */
    if (n <= SIZE_MAX / 2 && n < b->cap - b->len && !b->oom) {
        if (n)
            memcpy(b->data + b->len, data, n);
        b->len += n;
        b->data[b->len] = '\0';
        return;
    }
    sdkc_buf_append_slow(b, data, n);
}
static inline void sdkc_buf_puts(sdkc_buf *b, const char *s)
{
    sdkc_buf_append(b, s, strlen(s));
}
static inline void sdkc_buf_putc(sdkc_buf *b, char c)
{
    if (b->len + 2 <= b->cap && !b->oom) {
        b->data[b->len++] = c;
        b->data[b->len] = '\0';
        return;
    }
    sdkc_buf_putc_slow(b, c);
}
void sdkc_buf_printf(sdkc_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sdkc_buf_vprintf(sdkc_buf *b, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
/* SDKC_OK, or SDKC_ERR_NOMEM if any append failed. */
sdkc_status sdkc_buf_finish(const sdkc_buf *b);
/* Hand the contents to the caller (new, free()), leaving b empty. Returns NULL after oom; an
 * empty buffer gives an allocated "". */
char *sdkc_buf_steal(sdkc_buf *b, size_t *len_out);

/* Read a whole file (new, free()) with a trailing NUL. SDKC_ERR_IO with errno kept on failure. */
sdkc_status sdkc_read_file(const char *path, char **out, size_t *len_out);
/* Write a file atomically enough for generators: write to path.tmp then rename. An existing
 * path that is not a regular file (/dev/null, a FIFO, a terminal) is written in place, never
 * replaced; a directory is an error (EISDIR). */
sdkc_status sdkc_write_file(const char *path, const void *data, size_t len);
/* Writes a file's content to fp (borrowed); SDKC_OK, or an error (SDKC_ERR_IO with errno set
 * for a failed write). */
typedef sdkc_status (*sdkc_file_writer)(FILE *fp, void *userdata);
/* sdkc_write_file with the content written by write as it goes (a large text need not be held
 * whole): the same path.tmp and rename, and nothing left behind when write fails (its status is
 * returned). */
sdkc_status sdkc_write_file_with(const char *path, sdkc_file_writer write, void *userdata);

/* The value 0..15 of a hexadecimal digit (either case), or -1 for any other character (EOF
 * included). */
int sdkc_hex_digit(int c);

/* SHA-256 (FIPS 180-4) of len bytes of data (borrowed): the 32-byte digest, or 64 lowercase hex
 * digits and a NUL. */
void sdkc_sha256(uint8_t out[32], const void *data, size_t len);
void sdkc_sha256_hex(char out[65], const void *data, size_t len);

#ifdef __cplusplus
}
#endif
#endif
