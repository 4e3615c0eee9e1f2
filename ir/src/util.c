/* util.c - arena, growable buffer, whole-file I/O and status names. */
#include "sdkc/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *sdkc_status_str(sdkc_status st)
{
    switch (st) {
    case SDKC_OK:
        return "ok";
    case SDKC_ERR_NOMEM:
        return "out of memory";
    case SDKC_ERR_IO:
        return "i/o error";
    case SDKC_ERR_INVALID:
        return "invalid input";
    case SDKC_ERR_LIMIT:
        return "limit exceeded";
    }
    return "unknown status";
}

/* ---- arena ---------------------------------------------------------------------------------- */

/* Blocks start small (most arenas hold a few diagnostics) and double up to a cap, so a big
 * document costs a few dozen mallocs, not one per node. Requests above a quarter of the current
 * block size get a block of their own, which keeps the waste at block ends bounded. */
#define ARENA_FIRST_BLOCK ((size_t)16 << 10)
#define ARENA_MAX_BLOCK   ((size_t)4 << 20)
#define ARENA_ALIGN       (_Alignof(max_align_t))

typedef struct arena_block {
    struct arena_block *next;
    size_t size; /* usable bytes after the header */
    size_t used;
    max_align_t data[]; /* aligned for any type */
} arena_block;

struct sdkc_arena {
    arena_block *head; /* current block for small requests */
    arena_block *big;  /* dedicated blocks for large requests */
    size_t next_size;
    size_t used;
    sdkc_buf scratch; /* sdkc_arena_printf formats here, then copies into the arena */
};

sdkc_status sdkc_arena_new(sdkc_arena **out)
{
    *out = NULL;
    sdkc_arena *a = calloc(1, sizeof *a);
    if (!a)
        return SDKC_ERR_NOMEM;
    a->next_size = ARENA_FIRST_BLOCK;
    sdkc_buf_init(&a->scratch);
    *out = a;
    return SDKC_OK;
}

static void free_blocks(arena_block *b)
{
    while (b) {
        arena_block *next = b->next;
        free(b);
        b = next;
    }
}

void sdkc_arena_free(sdkc_arena *a)
{
    if (!a)
        return;
    free_blocks(a->head);
    free_blocks(a->big);
    sdkc_buf_cleanup(&a->scratch);
    free(a);
}

static arena_block *new_block(size_t size)
{
    if (size > SIZE_MAX - sizeof(arena_block))
        return NULL;
    /* Not zeroed here: sdkc_arena_alloc zeroes what it hands out, strings need no zeroing, and
     * the unused end of the last block is never touched (calloc zeroed whole blocks: 14 M
     * instructions and the page faults of untouched tails in `sdkc generate`). */
    arena_block *b = malloc(sizeof(arena_block) + size);
    if (!b)
        return NULL;
    b->next = NULL;
    b->size = size;
    b->used = 0;
    return b;
}

/* Uninitialised memory aligned for any type; the callers below fill or zero it. */
static void *arena_alloc_raw(sdkc_arena *a, size_t n)
{
    if (!a || n == 0 || n > SIZE_MAX - ARENA_ALIGN)
        return NULL;
    size_t need = (n + ARENA_ALIGN - 1) & ~(ARENA_ALIGN - 1);
    arena_block *b = a->head;
    if (b && b->size - b->used >= need) {
        void *p = (char *)b->data + b->used;
        b->used += need;
        a->used += n;
        return p;
    }
    if (need > a->next_size / 4) {
        arena_block *big = new_block(need);
        if (!big)
            return NULL;
        big->used = need;
        big->next = a->big;
        a->big = big;
        a->used += n;
        return big->data;
    }
    arena_block *nb = new_block(a->next_size);
    if (!nb)
        return NULL;
    if (a->next_size < ARENA_MAX_BLOCK)
        a->next_size *= 2;
    nb->next = a->head;
    a->head = nb;
    nb->used = need;
    a->used += n;
    return nb->data;
}

void *sdkc_arena_alloc_uninit(sdkc_arena *a, size_t n)
{
    return arena_alloc_raw(a, n);
}

void *sdkc_arena_alloc(sdkc_arena *a, size_t n)
{
    void *p = arena_alloc_raw(a, n);
    if (p)
        memset(p, 0, n);
    return p;
}

char *sdkc_arena_strndup(sdkc_arena *a, const char *s, size_t n)
{
    if (n == SIZE_MAX)
        return NULL;
    char *p = arena_alloc_raw(a, n + 1);
    if (!p)
        return NULL;
    if (n)
        memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *sdkc_arena_strdup(sdkc_arena *a, const char *s)
{
    return sdkc_arena_strndup(a, s, strlen(s));
}

/* The fast path of sdkc_arena_printf: a format whose only conversions are %s (most of them join
 * names from parts) is measured first and copied once into an allocation of the exact size. Fills
 * *res (NULL when out of memory) and returns true, or returns false for any other format, having
 * consumed some of ap. */
#define ARENA_JOIN_PARTS 16
static bool arena_join(sdkc_arena *a, char **res, const char *fmt, va_list ap)
{
    struct {
        const char *s;
        size_t n;
    } parts[ARENA_JOIN_PARTS];
    size_t np = 0, total = 0;
    const char *run = fmt;
    for (const char *p = fmt;; p++) {
        if (*p != '%' && *p != '\0')
            continue;
        if (np + 2 > ARENA_JOIN_PARTS)
            return false;
        if (p > run) {
            parts[np].s = run;
            parts[np].n = (size_t)(p - run);
            total += parts[np++].n;
        }
        if (*p == '\0')
            break;
        if (p[1] != 's')
            return false;
        const char *str = va_arg(ap, const char *);
        if (!str)
            str = "(null)";
        size_t n = strlen(str);
        if (n > SIZE_MAX / 4 || total > SIZE_MAX / 4)
            return false;
        parts[np].s = str;
        parts[np++].n = n;
        total += n;
        run = ++p + 1;
    }
    char *out = arena_alloc_raw(a, total + 1);
    *res = out;
    if (!out)
        return true;
    for (size_t i = 0; i < np; i++) {
        memcpy(out, parts[i].s, parts[i].n);
        out += parts[i].n;
    }
    *out = '\0';
    return true;
}

char *sdkc_arena_vprintf(sdkc_arena *a, const char *fmt, va_list ap)
{
    if (!a)
        return NULL;
    char *res = NULL;
    va_list ap2;
    va_copy(ap2, ap);
    bool joined = arena_join(a, &res, fmt, ap2);
    va_end(ap2);
    if (joined)
        return res;
    /* Other formats through sdkc_buf_vprintf's fast path rather than vsnprintf, in a scratch
     * buffer kept from call to call (a malloc, realloc and free per call were a third of the
     * cost). */
    sdkc_buf *tmp = &a->scratch;
    sdkc_buf_reset(tmp);
    sdkc_buf_vprintf(tmp, fmt, ap);
    if (!tmp->oom)
        res = sdkc_arena_strndup(a, tmp->data ? tmp->data : "", tmp->len);
    return res;
}

char *sdkc_arena_printf(sdkc_arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *res = sdkc_arena_vprintf(a, fmt, ap);
    va_end(ap);
    return res;
}

size_t sdkc_arena_used(const sdkc_arena *a)
{
    return a ? a->used : 0;
}

/* ---- buffer --------------------------------------------------------------------------------- */

void sdkc_buf_init(sdkc_buf *b)
{
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
    b->oom = false;
}

void sdkc_buf_cleanup(sdkc_buf *b)
{
    if (!b)
        return;
    free(b->data);
    sdkc_buf_init(b);
}

void sdkc_buf_reset(sdkc_buf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
    b->oom = false;
}

/* Room for `extra` more bytes plus the NUL; false (and oom set) on failure. */
static bool buf_reserve(sdkc_buf *b, size_t extra)
{
    if (b->oom)
        return false;
    if (extra > SIZE_MAX - 1 - b->len) {
        b->oom = true;
        return false;
    }
    size_t need = b->len + extra + 1;
    if (need <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < need) {
        if (cap > SIZE_MAX / 2) {
            cap = need;
            break;
        }
        cap *= 2;
    }
    char *p = realloc(b->data, cap);
    if (!p) {
        b->oom = true;
        return false;
    }
    b->data = p;
    b->cap = cap;
    return true;
}

void sdkc_buf_append_slow(sdkc_buf *b, const void *data, size_t n)
{
    if (!buf_reserve(b, n))
        return;
    if (n)
        memcpy(b->data + b->len, data, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void sdkc_buf_putc_slow(sdkc_buf *b, char c)
{
    sdkc_buf_append_slow(b, &c, 1);
}

/* vsnprintf into the buffer: for the conversions the fast path below does not handle. */
__attribute__((format(printf, 2, 0))) static void buf_vprintf_libc(sdkc_buf *b, const char *fmt,
                                                                   va_list ap)
{
    if (b->oom)
        return;
    va_list ap2;
    va_copy(ap2, ap);
    size_t room = b->cap > b->len ? b->cap - b->len : 0;
    int n = vsnprintf(room ? b->data + b->len : NULL, room, fmt, ap);
    if (n < 0) {
        b->oom = true; /* an encoding error: report it through the one sticky flag */
        goto done;
    }
    if ((size_t)n >= room) {
        if (!buf_reserve(b, (size_t)n))
            goto done;
        vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap2);
    }
    b->len += (size_t)n;
done:
    if (b->data)
        b->data[b->len] = '\0'; /* also undoes a truncated partial write */
    va_end(ap2);
}

static void buf_put_unsigned(sdkc_buf *b, unsigned long long v, bool negative)
{
    char digits[24];
    size_t i = sizeof digits;
    do {
        digits[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    if (negative)
        digits[--i] = '-';
    sdkc_buf_append(b, digits + i, sizeof digits - i);
}

static void buf_put_signed(sdkc_buf *b, long long v)
{
    if (v < 0)
        buf_put_unsigned(b, 0ULL - (unsigned long long)v, true);
    else
        buf_put_unsigned(b, (unsigned long long)v, false);
}

/* printf into the buffer. Literal runs and the plain conversions the emitters use (%s, %.*s, %c,
 * %d, %i, %u, %ld, %lu, %lld, %llu, %zu, %%) are appended directly: going through vsnprintf for
 * every fragment was a third of `sdkc generate`. Anything else (flags, widths, other
 * conversions) hands the rest of the format to vsnprintf, with the same output. */
void sdkc_buf_vprintf(sdkc_buf *b, const char *fmt, va_list ap)
{
    const char *run = fmt;
    const char *spec = fmt;
    for (const char *p = fmt; !b->oom; p++) {
        p = strchr(p, '%'); /* vectorised: most of a format is literal text */
        if (!p) {
            sdkc_buf_puts(b, run);
            return;
        }
        if (p > run)
            sdkc_buf_append(b, run, (size_t)(p - run));
        spec = p++;      /* p at the character after '%' */
        if (*p == 's') { /* the most common conversion by far */
            const char *str = va_arg(ap, const char *);
            if (!str)
                str = "(null)";
            sdkc_buf_puts(b, str);
            run = p + 1;
            continue;
        }
        bool star = false;
        if (p[0] == '.' && p[1] == '*' && p[2] == 's') {
            star = true;
            p += 2;
        }
        int longs = 0;
        bool size = false;
        if (!star && *p == 'z') {
            size = true;
            p++;
        } else if (!star) {
            while (*p == 'l' && longs < 2) {
                longs++;
                p++;
            }
        }
        switch (*p) {
        case '%':
            if (size || longs)
                goto libc;
            sdkc_buf_putc(b, '%');
            break;
        case 's': {
            if (size || longs)
                goto libc;
            int prec = star ? va_arg(ap, int) : -1;
            const char *str = va_arg(ap, const char *);
            if (!str)
                str = "(null)";
            size_t n = prec < 0 ? strlen(str) : strnlen(str, (size_t)prec);
            sdkc_buf_append(b, str, n);
            break;
        }
        case 'c':
            if (size || longs)
                goto libc;
            sdkc_buf_putc(b, (char)va_arg(ap, int));
            break;
        case 'd':
        case 'i':
            if (size)
                goto libc;
            buf_put_signed(b, longs == 2   ? va_arg(ap, long long)
                              : longs == 1 ? (long long)va_arg(ap, long)
                                           : (long long)va_arg(ap, int));
            break;
        case 'u':
            buf_put_unsigned(b,
                             size         ? (unsigned long long)va_arg(ap, size_t)
                             : longs == 2 ? va_arg(ap, unsigned long long)
                             : longs == 1 ? (unsigned long long)va_arg(ap, unsigned long)
                                          : (unsigned long long)va_arg(ap, unsigned),
                             false);
            break;
        default:
            goto libc;
        }
        run = p + 1;
    }
    return;
libc:
    /* The rest of the format from this conversion on: a suffix of a format the caller's
     * compiler checked, so it is one too. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    buf_vprintf_libc(b, spec, ap);
#pragma GCC diagnostic pop
}

void sdkc_buf_printf(sdkc_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sdkc_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

sdkc_status sdkc_buf_finish(const sdkc_buf *b)
{
    return b->oom ? SDKC_ERR_NOMEM : SDKC_OK;
}

char *sdkc_buf_steal(sdkc_buf *b, size_t *len_out)
{
    char *res = NULL;
    size_t len = 0;
    if (b->oom)
        goto done;
    if (!b->data) {
        res = calloc(1, 1);
        if (!res)
            goto done;
    } else {
        res = b->data;
        len = b->len;
        b->data = NULL;
    }
done:
    if (len_out)
        *len_out = len;
    if (res || b->oom) {
        free(b->data);
        sdkc_buf_init(b);
    }
    return res;
}

/* ---- files ---------------------------------------------------------------------------------- */

sdkc_status sdkc_read_file(const char *path, char **out, size_t *len_out)
{
    *out = NULL;
    if (len_out)
        *len_out = 0;
    sdkc_status st = SDKC_ERR_IO;
    char *data = NULL;
    size_t len = 0, cap = 0;
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return SDKC_ERR_IO;
    struct stat sb;
    if (fstat(fileno(fp), &sb) == 0 && S_ISDIR(sb.st_mode)) {
        errno = EISDIR;
        goto done;
    }
    /* Regular files are read in one go (one spare byte to see EOF without growing); pipes and
     * the like grow by doubling. */
    if (fstat(fileno(fp), &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0 &&
        (unsigned long long)sb.st_size < SIZE_MAX / 2)
        cap = (size_t)sb.st_size + 2;
    else
        cap = 4096;
    data = malloc(cap);
    if (!data) {
        st = SDKC_ERR_NOMEM;
        goto done;
    }
    for (;;) {
        if (len + 1 >= cap) {
            if (cap > SIZE_MAX / 2) {
                st = SDKC_ERR_NOMEM;
                goto done;
            }
            char *p = realloc(data, cap * 2);
            if (!p) {
                st = SDKC_ERR_NOMEM;
                goto done;
            }
            data = p;
            cap *= 2;
        }
        size_t want = cap - 1 - len;
        errno = 0;
        size_t got = fread(data + len, 1, want, fp);
        len += got;
        if (got < want) {
            if (ferror(fp)) {
                if (errno == 0)
                    errno = EIO;
                goto done;
            }
            break; /* EOF */
        }
    }
    data[len] = '\0';
    *out = data;
    data = NULL;
    if (len_out)
        *len_out = len;
    st = SDKC_OK;
done : {
    int saved = errno;
    fclose(fp);
    free(data);
    errno = saved;
}
    return st;
}

/* The bytes of sdkc_write_file, as an sdkc_file_writer. */
typedef struct bytes_out {
    const void *data;
    size_t len;
} bytes_out;

static sdkc_status write_bytes(FILE *fp, void *userdata)
{
    const bytes_out *o = userdata;
    return !o->len || fwrite(o->data, 1, o->len, fp) == o->len ? SDKC_OK : SDKC_ERR_IO;
}

/* Write into an existing file that is not a regular one (a device such as /dev/null, a FIFO,
 * a terminal) without replacing it. */
static sdkc_status write_in_place(const char *path, sdkc_file_writer write, void *userdata)
{
    sdkc_status st = SDKC_ERR_IO;
    FILE *fp = fopen(path, "wb");
    if (!fp)
        goto done;
    st = write(fp, userdata);
    bool ok = st == SDKC_OK && fflush(fp) == 0;
    int saved = errno;
    if (fclose(fp) != 0)
        ok = false;
    else
        errno = saved;
    if (ok)
        st = SDKC_OK;
    else if (st == SDKC_OK)
        st = SDKC_ERR_IO;
done:
    return st;
}

sdkc_status sdkc_write_file(const char *path, const void *data, size_t len)
{
    bytes_out o = {data, len};
    return sdkc_write_file_with(path, write_bytes, &o);
}

sdkc_status sdkc_write_file_with(const char *path, sdkc_file_writer write, void *userdata)
{
    sdkc_status st = SDKC_ERR_IO;
    sdkc_buf tmp = SDKC_BUF_INIT;
    FILE *fp = NULL;
    struct stat sb;
    if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
        /* renaming over it would replace the device (as root: /dev/null itself) */
        st = S_ISDIR(sb.st_mode) ? SDKC_ERR_IO : write_in_place(path, write, userdata);
        if (S_ISDIR(sb.st_mode))
            errno = EISDIR;
        goto done;
    }
    sdkc_buf_printf(&tmp, "%s.tmp", path);
    if (sdkc_buf_finish(&tmp) != SDKC_OK) {
        st = SDKC_ERR_NOMEM;
        goto done;
    }
    fp = fopen(tmp.data, "wb");
    if (!fp)
        goto done;
    st = write(fp, userdata);
    if (st != SDKC_OK)
        goto fail;
    st = SDKC_ERR_IO;
    if (fflush(fp) != 0)
        goto fail;
    {
        int rc = fclose(fp);
        fp = NULL;
        if (rc != 0)
            goto fail;
    }
    if (rename(tmp.data, path) != 0)
        goto fail;
    st = SDKC_OK;
    goto done;
fail : {
    int saved = errno;
    if (fp)
        fclose(fp);
    fp = NULL;
    remove(tmp.data);
    errno = saved;
}
done:
    sdkc_buf_cleanup(&tmp);
    return st;
}

int sdkc_hex_digit(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}
