/* Incremental text/event-stream parser: see sdkrt/sse.h.
 *
 * Input is copied (one memcpy per feed) into `in`; the unparsed region is [in_start, in_end).
 * `tail` counts the bytes at the end of that region after the last line terminator, so the
 * parser knows without scanning whether a complete line is buffered, never rescans an
 * unfinished line (amortised O(n) under any split), and can refuse an oversized line in feed
 * before buffering it. Lines are found with memchr for LF plus a cached memchr for CR (an
 * LF-only stream pays one CR scan per buffered byte, not one per line). An event made of a
 * single data line points straight into `in` (no copy); the line terminator is overwritten
 * with the NUL. Such a reference is copied into `data` before next() returns NEED_MORE,
 * because feed may move `in`.
 */
#include "sdkrt/sse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SSE_MIN_IN_CAP  4096
#define SSE_MIN_STR_CAP 64
/* Buffers larger than this are released once empty, so that one large event does not pin its
 * memory for the rest of the stream. */
#define SSE_KEEP_CAP (64 * 1024)
/* Room for a data line's field name and terminators beyond its value. */
#define SSE_LINE_HEAD 64

static const unsigned char sse_bom[3] = {0xEF, 0xBB, 0xBF};

/* A growable NUL-terminated byte string. */
typedef struct sse_str {
    char *ptr;
    size_t len;
    size_t cap;
} sse_str;

struct sdkrt_sse_parser {
    size_t max_event;
    size_t max_line;

    /* Unparsed input. */
    char *in;
    size_t in_cap;
    size_t in_start;
    size_t in_end;
    size_t tail;    /* bytes at the end of [in_start,in_end) after the last terminator */
    size_t cr_next; /* no CR in [scan start, cr_next); in[cr_next] is CR or unscanned */
    int bom_done;   /* the start of the stream has been checked for a BOM */
    int skip_lf;    /* the last line ended in CR: a LF right after belongs to it */

    /* An unfinished line crossed a cap in feed: its first bytes and length so far. */
    int over;
    char over_head[6];
    size_t over_headlen;
    size_t over_n;

    /* The event being assembled. */
    size_t data_lines; /* data fields seen; 0 means the spec's data buffer is empty */
    size_t data_len;   /* joined length (no trailing LF) */
    int data_is_ref;   /* data is in[ref_off .. ref_off+data_len) instead of `data` */
    size_t ref_off;
    sse_str data;
    sse_str type;
    int64_t retry; /* this block's retry or -1 */
    int pending;   /* a field line was seen since the last blank line */

    /* Stream state. */
    sse_str id;
    int has_id;
    int64_t retry_ms;
    uint64_t comments;

    sdkrt_sse_errcode err;
    char errmsg[160];
};

static void set_error(sdkrt_sse_parser *p, sdkrt_sse_errcode code, const char *msg)
{
    if (p->err != SDKRT_SSE_ERR_NONE)
        return;
    p->err = code;
    snprintf(p->errmsg, sizeof p->errmsg, "%s", msg);
}

static void set_cap_error(sdkrt_sse_parser *p, sdkrt_sse_errcode code)
{
    if (p->err != SDKRT_SSE_ERR_NONE)
        return;
    p->err = code;
    if (code == SDKRT_SSE_ERR_EVENT_TOO_LARGE)
        snprintf(p->errmsg, sizeof p->errmsg, "SSE event data exceeds max_event_bytes (%zu bytes)",
                 p->max_event);
    else
        snprintf(p->errmsg, sizeof p->errmsg, "SSE line exceeds max_line_bytes (%zu bytes)",
                 p->max_line);
}

static sdkrt_sse_status fail_oom(sdkrt_sse_parser *p)
{
    set_error(p, SDKRT_SSE_ERR_OUT_OF_MEMORY, "out of memory in the SSE parser");
    return SDKRT_SSE_ERROR;
}

/* Ensures room for `need` bytes plus a NUL; capacity never exceeds `limit` + 1 unless needed. */
static int str_reserve(sse_str *s, size_t need, size_t limit)
{
    if (need < s->cap)
        return 0;
    if (need == SIZE_MAX)
        return -1;
    size_t cap = s->cap ? s->cap : SSE_MIN_STR_CAP;
    while (cap <= need) {
        if (cap > SIZE_MAX / 2) {
            cap = need + 1;
            break;
        }
        cap *= 2;
    }
    if (cap > limit + 1 && need < limit + 1)
        cap = limit + 1;
    char *np = realloc(s->ptr, cap);
    if (!np)
        return -1;
    s->ptr = np;
    s->cap = cap;
    return 0;
}

static int str_set(sse_str *s, const char *b, size_t n, size_t limit)
{
    if (str_reserve(s, n, limit) != 0)
        return -1;
    if (n)
        memcpy(s->ptr, b, n);
    s->ptr[n] = '\0';
    s->len = n;
    return 0;
}

static void str_free(sse_str *s)
{
    free(s->ptr);
    s->ptr = NULL;
    s->len = s->cap = 0;
}

/* Which cap a line breaks, given its first bytes (head, up to 6) and its length so far. The
 * answer depends only on the line and the event state before it, never on how the input was
 * split: a line crosses the line cap at length max_line+1 and a data line crosses the event
 * cap at a fixed length; whichever comes first wins. */
static sdkrt_sse_errcode line_violation(const sdkrt_sse_parser *p, const char *head, size_t headlen,
                                        size_t n)
{
    size_t k_line = p->max_line + 1;
    size_t k_event = SIZE_MAX;
    if (headlen >= 5 && memcmp(head, "data:", 5) == 0) {
        size_t prefix = (headlen >= 6 && head[5] == ' ') ? 6 : 5;
        size_t base = p->data_len + (p->data_lines ? 1 : 0);
        size_t room = base <= p->max_event ? p->max_event - base : 0;
        if (room < SIZE_MAX - prefix - 1)
            k_event = prefix + room + 1;
    }
    size_t k = k_line < k_event ? k_line : k_event;
    if (n < k)
        return SDKRT_SSE_ERR_NONE;
    return k == k_event ? SDKRT_SSE_ERR_EVENT_TOO_LARGE : SDKRT_SSE_ERR_LINE_TOO_LARGE;
}

/* Release large buffers that hold nothing (the last event's data, drained input). */
static void release_idle(sdkrt_sse_parser *p, int input)
{
    if (p->data_lines == 0 && p->data.cap > SSE_KEEP_CAP)
        str_free(&p->data);
    if (input && p->in_start == p->in_end && p->in_cap > SSE_KEEP_CAP) {
        free(p->in);
        p->in = NULL;
        p->in_cap = p->in_start = p->in_end = p->tail = p->cr_next = 0;
    }
}

sdkrt_sse_status sdkrt_sse_parser_new(sdkrt_sse_parser **out, const sdkrt_sse_options *opts)
{
    if (!out)
        return SDKRT_SSE_ERROR;
    *out = NULL;
    sdkrt_sse_options o = SDKRT_SSE_OPTIONS_INIT;
    if (opts)
        o = *opts;
    if (o.max_event_bytes == 0)
        o.max_event_bytes = SDKRT_SSE_DEFAULT_MAX_EVENT_BYTES;
    /* Room for a line plus terminator and NUL must be representable. */
    if (o.max_event_bytes > SIZE_MAX / 4 || o.max_line_bytes > SIZE_MAX / 4)
        return SDKRT_SSE_ERROR;
    if (o.max_line_bytes == 0)
        o.max_line_bytes = o.max_event_bytes + SDKRT_SSE_LINE_SLACK_BYTES;
    if (o.max_event_bytes < SDKRT_SSE_MIN_CAP_BYTES || o.max_line_bytes < SDKRT_SSE_MIN_CAP_BYTES)
        return SDKRT_SSE_ERROR;
    sdkrt_sse_parser *p = calloc(1, sizeof *p);
    if (!p)
        return SDKRT_SSE_ERROR;
    p->max_event = o.max_event_bytes;
    p->max_line = o.max_line_bytes;
    p->retry = -1;
    p->retry_ms = -1;
    *out = p;
    return SDKRT_SSE_OK;
}

void sdkrt_sse_parser_free(sdkrt_sse_parser *p)
{
    if (!p)
        return;
    free(p->in);
    str_free(&p->data);
    str_free(&p->type);
    str_free(&p->id);
    free(p);
}

void sdkrt_sse_parser_reset(sdkrt_sse_parser *p)
{
    if (!p)
        return;
    size_t max_event = p->max_event, max_line = p->max_line;
    /* Release the buffers: a reset usually means a new connection, and a past large event
     * should not pin its memory. */
    free(p->in);
    str_free(&p->data);
    str_free(&p->type);
    str_free(&p->id);
    memset(p, 0, sizeof *p);
    p->max_event = max_event;
    p->max_line = max_line;
    p->retry = -1;
    p->retry_ms = -1;
}

/* Makes room for n more input bytes, compacting consumed input when that is cheap (moving
 * no more bytes than it frees) and otherwise growing geometrically. */
static int in_reserve(sdkrt_sse_parser *p, size_t n)
{
    if (n <= p->in_cap - p->in_end)
        return 0;
    size_t used = p->in_end - p->in_start;
    if (n > SIZE_MAX / 2 - used)
        return -1;
    if (p->in_start > 0 && p->in_start >= used && used + n <= p->in_cap) {
        memmove(p->in, p->in + p->in_start, used);
        p->cr_next = p->cr_next > p->in_start ? p->cr_next - p->in_start : 0;
        p->in_end = used;
        p->in_start = 0;
        return 0;
    }
    size_t need = used + n;
    size_t cap = p->in_cap ? p->in_cap * 2 : SSE_MIN_IN_CAP;
    /* Do not double far past what a capped line plus this chunk can need; beyond that (a
     * caller feeding without taking events) keep doubling, so growth stays amortised O(n). A
     * data line can only be as long as the event's remaining room, so with the pending data the
     * parser stays near max_event bytes rather than twice that. */
    size_t line = p->max_line;
    size_t base = p->data_len + (p->data_lines ? 1 : 0);
    size_t room = base < p->max_event ? p->max_event - base : 0;
    if (room + SSE_LINE_HEAD < line)
        line = room + SSE_LINE_HEAD;
    size_t soft = line + n + 2;
    if (cap > soft && need <= soft)
        cap = soft;
    if (cap < need)
        cap = need;
    if (cap < SSE_MIN_IN_CAP)
        cap = SSE_MIN_IN_CAP;
    char *nb = malloc(cap);
    if (!nb)
        return -1;
    if (used)
        memcpy(nb, p->in + p->in_start, used);
    free(p->in);
    p->cr_next = p->cr_next > p->in_start ? p->cr_next - p->in_start : 0;
    p->in = nb;
    p->in_cap = cap;
    p->in_end = used;
    p->in_start = 0;
    return 0;
}

static int in_append(sdkrt_sse_parser *p, const char *b, size_t n)
{
    if (n == 0)
        return 0;
    if (in_reserve(p, n) != 0)
        return -1;
    memcpy(p->in + p->in_end, b, n);
    p->in_end += n;
    return 0;
}

/* Add n bytes at b to the input: copied, or (in_place) already written at the end of the input
 * by a reader, at b or further on (a BOM in front of them was dropped: move them down). */
static int in_add(sdkrt_sse_parser *p, const char *b, size_t n, int in_place)
{
    if (!in_place)
        return in_append(p, b, n);
    if (n && b != p->in + p->in_end)
        memmove(p->in + p->in_end, b, n);
    p->in_end += n;
    return 0;
}

/* sdkrt_sse_feed of len bytes at b; in_place: b is the end of the input (feed_commit). */
static sdkrt_sse_status feed(sdkrt_sse_parser *p, const char *b, size_t len, int in_place)
{
    if (len == 0 || p->over)
        return SDKRT_SSE_OK; /* after an oversized line nothing more is parsed */

    if (!p->bom_done) {
        /* Until 3 bytes are in, every buffered byte is a BOM prefix and nothing is parsed. */
        size_t have = p->in_end - p->in_start, k = 0;
        int match = 1;
        while (have + k < 3 && k < len) {
            if ((unsigned char)b[k] != sse_bom[have + k]) {
                match = 0;
                break;
            }
            k++;
        }
        if (!match) {
            p->bom_done = 1;
        } else if (have + k == 3) {
            p->bom_done = 1;
            p->in_end = p->in_start;
            p->tail = 0;
            b += k;
            len -= k;
            if (len == 0)
                return SDKRT_SSE_OK;
        }
    }

    size_t i = len;
    while (i > 0 && b[i - 1] != '\n' && b[i - 1] != '\r')
        i--;
    size_t new_tail = i ? len - i : p->tail + len;
    if (new_tail > p->max_line || (new_tail > 0 && i == 0)) {
        /* Check the unfinished line against the caps. The event cap needs the event state as
         * of that line, known only when no complete line is waiting to be parsed. */
        char head[6];
        size_t headlen = 0;
        if (i > 0) {
            headlen = new_tail < 6 ? new_tail : 6;
            memcpy(head, b + i, headlen);
        } else {
            size_t from_old = p->tail < 6 ? p->tail : 6;
            if (from_old) /* `in` may still be NULL otherwise */
                memcpy(head, p->in + p->in_end - p->tail, from_old);
            size_t from_new = 6 - from_old < len ? 6 - from_old : len;
            memcpy(head + from_old, b, from_new);
            headlen = from_old + from_new;
        }
        int lagging = i > 0 || p->in_end - p->in_start > p->tail;
        int broken = new_tail > p->max_line;
        if (!broken && !lagging)
            broken = line_violation(p, head, headlen, new_tail) != SDKRT_SSE_ERR_NONE;
        if (broken) {
            p->over = 1;
            memcpy(p->over_head, head, headlen);
            p->over_headlen = headlen;
            p->over_n = new_tail;
            if (in_add(p, b, i, in_place) != 0)
                return fail_oom(p);
            if (i > 0)
                p->tail = 0;
            return SDKRT_SSE_OK;
        }
    }
    if (in_add(p, b, len, in_place) != 0)
        return fail_oom(p);
    p->tail = new_tail;
    return SDKRT_SSE_OK;
}

sdkrt_sse_status sdkrt_sse_feed(sdkrt_sse_parser *p, const void *bytes, size_t len)
{
    if (!p)
        return SDKRT_SSE_ERROR;
    if (p->err != SDKRT_SSE_ERR_NONE)
        return SDKRT_SSE_ERROR;
    if (!bytes && len) {
        set_error(p, SDKRT_SSE_ERR_INVALID_ARGUMENT, "sdkrt_sse_feed: bytes is NULL");
        return SDKRT_SSE_ERROR;
    }
    release_idle(p, 1);
    return feed(p, bytes, len, 0);
}

sdkrt_sse_status sdkrt_sse_feed_buffer(sdkrt_sse_parser *p, size_t want, void **buf, size_t *room)
{
    if (!p)
        return SDKRT_SSE_ERROR;
    if (p->err != SDKRT_SSE_ERR_NONE)
        return SDKRT_SSE_ERROR;
    if (!buf || !room) {
        set_error(p, SDKRT_SSE_ERR_INVALID_ARGUMENT, "sdkrt_sse_feed_buffer: buf or room is NULL");
        return SDKRT_SSE_ERROR;
    }
    release_idle(p, 1);
    if (in_reserve(p, want ? want : 1) != 0)
        return fail_oom(p);
    *buf = p->in + p->in_end;
    *room = p->in_cap - p->in_end;
    return SDKRT_SSE_OK;
}

sdkrt_sse_status sdkrt_sse_feed_commit(sdkrt_sse_parser *p, size_t n)
{
    if (!p)
        return SDKRT_SSE_ERROR;
    if (p->err != SDKRT_SSE_ERR_NONE)
        return SDKRT_SSE_ERROR;
    if (n > p->in_cap - p->in_end) {
        set_error(p, SDKRT_SSE_ERR_INVALID_ARGUMENT,
                  "sdkrt_sse_feed_commit: more bytes than sdkrt_sse_feed_buffer gave room for");
        return SDKRT_SSE_ERROR;
    }
    return feed(p, p->in ? p->in + p->in_end : NULL, n, 1);
}

/* Offset of the first CR in [from, end), or end. */
static size_t find_cr(sdkrt_sse_parser *p, size_t from, size_t end)
{
    if (p->cr_next < from)
        p->cr_next = from;
    if (p->cr_next >= end)
        return end;
    if (p->in[p->cr_next] == '\r')
        return p->cr_next;
    const char *q = memchr(p->in + p->cr_next, '\r', end - p->cr_next);
    p->cr_next = q ? (size_t)(q - p->in) : end;
    return p->cr_next;
}

/* The pending data must not point into `in` once feed may move it. When the data is most of
 * the input buffer, the buffer becomes the data string and the few unparsed bytes move to a new
 * input buffer: copying the data instead would hold it twice. */
static int materialize(sdkrt_sse_parser *p, int may_steal)
{
    if (!p->data_is_ref)
        return 0;
    size_t rest = p->in_end - p->in_start;
    if (may_steal && p->data_len > SSE_KEEP_CAP && p->data_len > rest) {
        size_t cap = rest > SSE_MIN_IN_CAP ? rest : SSE_MIN_IN_CAP;
        char *nb = malloc(cap);
        if (!nb)
            return -1;
        if (rest)
            memcpy(nb, p->in + p->in_start, rest);
        memmove(p->in, p->in + p->ref_off, p->data_len);
        p->in[p->data_len] = '\0'; /* its terminator followed it: data_len < in_cap */
        str_free(&p->data);
        p->data.ptr = p->in;
        p->data.cap = p->in_cap;
        p->data.len = p->data_len;
        p->cr_next = p->cr_next > p->in_start ? p->cr_next - p->in_start : 0;
        p->in = nb;
        p->in_cap = cap;
        p->in_start = 0;
        p->in_end = rest;
        p->data_is_ref = 0;
        return 0;
    }
    if (str_set(&p->data, p->in + p->ref_off, p->data_len, p->max_event) != 0)
        return -1;
    p->data_is_ref = 0;
    return 0;
}

static int append_data(sdkrt_sse_parser *p, size_t off, size_t n)
{
    if (p->data_lines == 0) {
        p->data_lines = 1;
        p->data_is_ref = 1;
        p->ref_off = off;
        p->data_len = n;
        return 0;
    }
    if (materialize(p, 0) != 0) /* off points into `in`: keep it */
        return -1;
    size_t need = p->data_len + 1 + n;
    if (need > p->max_event) /* only a bare "data" line gets here: longer ones fail earlier */
        return 1;
    if (str_reserve(&p->data, need, p->max_event) != 0)
        return -1;
    p->data.ptr[p->data_len] = '\n';
    memcpy(p->data.ptr + p->data_len + 1, p->in + off, n);
    p->data.ptr[need] = '\0';
    p->data_len = need;
    p->data.len = need;
    p->data_lines++;
    return 0;
}

static sdkrt_sse_status add_data(sdkrt_sse_parser *p, size_t off, size_t n)
{
    int r = append_data(p, off, n);
    if (r > 0) {
        set_cap_error(p, SDKRT_SSE_ERR_EVENT_TOO_LARGE);
        return SDKRT_SSE_ERROR;
    }
    return r < 0 ? fail_oom(p) : SDKRT_SSE_OK;
}

static int64_t parse_retry(const char *v, size_t n)
{
    if (n == 0)
        return -1;
    int64_t r = 0;
    for (size_t i = 0; i < n; i++) {
        if (v[i] < '0' || v[i] > '9')
            return -1;
        int d = v[i] - '0';
        r = r > (INT64_MAX - d) / 10 ? INT64_MAX : r * 10 + d;
    }
    return r;
}

/* Interprets one complete line at in[off], n bytes, terminator at in[off+n]. */
static sdkrt_sse_status process_field(sdkrt_sse_parser *p, size_t off, size_t n)
{
    const char *l = p->in + off;
    if (l[0] == ':') {
        p->comments++;
        return SDKRT_SSE_OK;
    }
    p->pending = 1;
    if (n >= 5 && memcmp(l, "data:", 5) == 0) { /* the common line, without the general path */
        size_t voff = n > 5 && l[5] == ' ' ? 6 : 5;
        return add_data(p, off + voff, n - voff);
    }
    const char *c = memchr(l, ':', n);
    size_t name_len = c ? (size_t)(c - l) : n;
    size_t voff = c ? name_len + 1 : n;
    if (voff < n && l[voff] == ' ')
        voff++;
    const char *v = l + voff;
    size_t vn = n - voff;
    switch (name_len) {
    case 4:
        if (memcmp(l, "data", 4) == 0)
            return add_data(p, off + voff, vn);
        break;
    case 5:
        if (memcmp(l, "event", 5) == 0) {
            if (str_set(&p->type, v, vn, p->max_line) != 0)
                return fail_oom(p);
        } else if (memcmp(l, "retry", 5) == 0) {
            int64_t r = parse_retry(v, vn);
            if (r >= 0) {
                p->retry = r;
                p->retry_ms = r;
            }
        }
        break;
    case 2:
        if (memcmp(l, "id", 2) == 0 && (vn == 0 || !memchr(v, '\0', vn))) {
            if (str_set(&p->id, v, vn, p->max_line) != 0)
                return fail_oom(p);
            p->has_id = 1;
        }
        break;
    default:
        break;
    }
    return SDKRT_SSE_OK;
}

static void fill_event(sdkrt_sse_parser *p, sdkrt_sse_event *ev)
{
    if (p->data_is_ref) {
        /* The byte after the value is its line terminator, already consumed. */
        p->in[p->ref_off + p->data_len] = '\0';
        ev->data = p->in + p->ref_off;
    } else {
        ev->data = p->data.ptr;
    }
    ev->data_len = p->data_len;
    ev->event = p->type.len ? p->type.ptr : "message";
    ev->id = p->id.ptr ? p->id.ptr : "";
    ev->has_id = p->has_id;
    ev->retry = p->retry;
}

static void reset_block(sdkrt_sse_parser *p)
{
    p->data_lines = 0;
    p->data_len = 0;
    p->data_is_ref = 0;
    p->data.len = 0;
    p->type.len = 0;
    p->retry = -1;
    p->pending = 0;
}

sdkrt_sse_status sdkrt_sse_next(sdkrt_sse_parser *p, sdkrt_sse_event *ev)
{
    if (!p)
        return SDKRT_SSE_ERROR;
    if (!ev) {
        set_error(p, SDKRT_SSE_ERR_INVALID_ARGUMENT, "sdkrt_sse_next: ev is NULL");
        return SDKRT_SSE_ERROR;
    }
    if (p->err != SDKRT_SSE_ERR_NONE)
        return SDKRT_SSE_ERROR;
    release_idle(p, 0); /* the previous event's pointers end here */
    for (;;) {
        if (p->skip_lf && p->in_start < p->in_end) {
            if (p->in[p->in_start] == '\n')
                p->in_start++;
            p->skip_lf = 0;
        }
        size_t avail = p->in_end - p->in_start;
        if (avail <= p->tail)
            break;
        /* A terminator ends [in_start, end): the tail starts right after the last one. */
        size_t start = p->in_start, end = p->in_end - p->tail;
        const char *nl = memchr(p->in + start, '\n', end - start);
        size_t eol = nl ? (size_t)(nl - p->in) : end;
        /* Searching to `end`, not `eol`, lets an LF-only stream skip the CR scan after one
         * miss per feed instead of paying it once per line. */
        size_t cr = eol > start ? find_cr(p, start, end) : eol;
        if (cr < eol)
            eol = cr;
        size_t n = eol - start;
        p->in_start = eol + 1;
        if (p->in[eol] == '\r') {
            if (p->in_start < p->in_end) {
                if (p->in[p->in_start] == '\n')
                    p->in_start++;
            } else {
                p->skip_lf = 1;
            }
        }
        if (n == 0) {
            if (p->data_lines == 0) {
                reset_block(p);
                continue;
            }
            fill_event(p, ev);
            reset_block(p);
            return SDKRT_SSE_EVENT;
        }
        /* Quick bound first: a line that fits both caps even if it were all data. */
        if (n > p->max_line || n + p->data_len >= p->max_event) {
            const char *l = p->in + start;
            sdkrt_sse_errcode v = line_violation(p, l, n < 6 ? n : 6, n);
            if (v != SDKRT_SSE_ERR_NONE) {
                set_cap_error(p, v);
                return SDKRT_SSE_ERROR;
            }
        }
        if (process_field(p, start, n) != SDKRT_SSE_OK)
            return SDKRT_SSE_ERROR;
        /* LF LF, the usual end of an event: take the blank line without another scan. */
        if (p->in[eol] == '\n' && p->in_start < end && p->in[p->in_start] == '\n') {
            p->in_start++;
            if (p->data_lines == 0) {
                reset_block(p);
                continue;
            }
            fill_event(p, ev);
            reset_block(p);
            return SDKRT_SSE_EVENT;
        }
    }
    /* No complete line left: check the unfinished one against the caps. */
    if (p->over) {
        sdkrt_sse_errcode v = line_violation(p, p->over_head, p->over_headlen, p->over_n);
        set_cap_error(p, v != SDKRT_SSE_ERR_NONE ? v : SDKRT_SSE_ERR_LINE_TOO_LARGE);
        return SDKRT_SSE_ERROR;
    }
    size_t t = p->in_end - p->in_start;
    if (t > 0) {
        sdkrt_sse_errcode v = line_violation(p, p->in + p->in_start, t < 6 ? t : 6, t);
        if (v != SDKRT_SSE_ERR_NONE) {
            set_cap_error(p, v);
            return SDKRT_SSE_ERROR;
        }
    }
    if (materialize(p, 1) != 0)
        return fail_oom(p);
    return SDKRT_SSE_NEED_MORE;
}

sdkrt_sse_status sdkrt_sse_finish(sdkrt_sse_parser *p, sdkrt_sse_event *ev)
{
    sdkrt_sse_status st = sdkrt_sse_next(p, ev);
    if (st != SDKRT_SSE_NEED_MORE)
        return st;
    memset(ev, 0, sizeof *ev);
    if (p->in_end > p->in_start || p->pending)
        return SDKRT_SSE_TRUNCATED;
    return SDKRT_SSE_END;
}

sdkrt_sse_errcode sdkrt_sse_error(const sdkrt_sse_parser *p)
{
    return p ? p->err : SDKRT_SSE_ERR_NONE;
}

const char *sdkrt_sse_error_message(const sdkrt_sse_parser *p)
{
    return p ? p->errmsg : "";
}

const char *sdkrt_sse_errcode_name(sdkrt_sse_errcode code)
{
    switch (code) {
    case SDKRT_SSE_ERR_NONE:
        return "NONE";
    case SDKRT_SSE_ERR_EVENT_TOO_LARGE:
        return "EVENT_TOO_LARGE";
    case SDKRT_SSE_ERR_LINE_TOO_LARGE:
        return "LINE_TOO_LARGE";
    case SDKRT_SSE_ERR_OUT_OF_MEMORY:
        return "OUT_OF_MEMORY";
    case SDKRT_SSE_ERR_INVALID_ARGUMENT:
        return "INVALID_ARGUMENT";
    }
    return "UNKNOWN";
}

uint64_t sdkrt_sse_comment_count(const sdkrt_sse_parser *p)
{
    return p ? p->comments : 0;
}

int64_t sdkrt_sse_retry_ms(const sdkrt_sse_parser *p)
{
    return p ? p->retry_ms : -1;
}

size_t sdkrt_sse_held_bytes(const sdkrt_sse_parser *p)
{
    if (!p)
        return 0;
    return p->in_cap + p->data.cap + p->type.cap + p->id.cap;
}

size_t sdkrt_sse_buffered_bytes(const sdkrt_sse_parser *p)
{
    if (!p)
        return 0;
    return (p->in_end - p->in_start) + (p->data_is_ref ? 0 : p->data_len);
}
