/* fuzz_sse.c - the SSE parser on arbitrary bytes, split at input-chosen points. The first two
 * bytes pick the split seed and a small event cap; the same input fed whole must give the same
 * events, so the fuzzer also checks split-independence. Split runs feed some pieces through
 * sdkrt_sse_feed and others through sdkrt_sse_feed_buffer / sdkrt_sse_feed_commit. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sdkrt/sse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct digest {
    uint64_t events, bytes, hash;
    sdkrt_sse_status last;
    sdkrt_sse_errcode err;
} digest;

static void mix(digest *d, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        d->hash = (d->hash ^ b[i]) * 1099511628211u; /* FNV-1a */
    d->hash ^= 0xff;
}

static int drain(sdkrt_sse_parser *p, digest *d, int finish)
{
    sdkrt_sse_event ev;
    for (;;) {
        sdkrt_sse_status st = finish ? sdkrt_sse_finish(p, &ev) : sdkrt_sse_next(p, &ev);
        if (st != SDKRT_SSE_EVENT) {
            d->last = st;
            d->err = sdkrt_sse_error(p);
            return st == SDKRT_SSE_ERROR ? -1 : 0;
        }
        if (ev.data[ev.data_len] != '\0' || !ev.event || !ev.id)
            __builtin_trap();
        d->events++;
        d->bytes += ev.data_len;
        mix(d, ev.event, strlen(ev.event));
        mix(d, ev.data, ev.data_len);
        mix(d, ev.id, strlen(ev.id));
    }
}

static void run(const uint8_t *data, size_t size, size_t cap, unsigned seed, digest *d)
{
    sdkrt_sse_options o = SDKRT_SSE_OPTIONS_INIT;
    o.max_event_bytes = cap;
    sdkrt_sse_parser *p = NULL;
    memset(d, 0, sizeof *d);
    if (sdkrt_sse_parser_new(&p, &o) != SDKRT_SSE_OK)
        return;
    size_t off = 0;
    unsigned x = seed | 1;
    while (off < size) {
        size_t n = size - off;
        if (seed) {
            x = x * 1103515245u + 12345u;
            size_t step = 1 + (x >> 16) % 17;
            if (step < n)
                n = step;
        }
        void *into = NULL;
        size_t room = 0;
        if (seed && (x & 0x100)) { /* the in-place API for this piece */
            if (sdkrt_sse_feed_buffer(p, n, &into, &room) != SDKRT_SSE_OK)
                break;
            if (room < n)
                __builtin_trap();
            memcpy(into, data + off, n);
            if (sdkrt_sse_feed_commit(p, n) != SDKRT_SSE_OK)
                break;
        } else if (sdkrt_sse_feed(p, data + off, n) != SDKRT_SSE_OK)
            break;
        off += n;
        if (drain(p, d, 0) < 0)
            break;
        /* Taking events between feeds keeps the parser within its caps (sse.h). */
        if (seed && sdkrt_sse_buffered_bytes(p) > 2 * cap + 32)
            __builtin_trap();
    }
    if (d->last != SDKRT_SSE_ERROR)
        drain(p, d, 1);
    sdkrt_sse_parser_free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    unsigned seed = data[0];
    size_t cap = SDKRT_SSE_MIN_CAP_BYTES + (size_t)data[1] * 4;
    data += 2;
    size -= 2;
    digest whole, split;
    run(data, size, cap, 0, &whole);
    run(data, size, cap, seed, &split);
    if (whole.events != split.events || whole.hash != split.hash || whole.last != split.last ||
        whole.err != split.err)
        __builtin_trap();
    return 0;
}
