/* bench_sse.c - throughput of the SSE parser (sdkrt/sse.h) against a memchr line splitter.
 *
 * Generates a synthetic text/event-stream in memory (default 100 MB: `data: {json}\n\n` frames
 * of about 200 bytes of data, an `id:` line on every 10th frame and a `: heartbeat` comment
 * every 50 frames), then measures
 *   sdkrt_sse  the parser fed in 64 KiB chunks, every event taken with sdkrt_sse_next;
 *   floor      memchr over the same bytes finding every LF and counting blank lines.
 * Times are CPU time (user+sys). Runs alternate between the two; the table shows the best run
 * (least disturbed by other processes) and the median. Usage: bench_sse [MB] [runs] [chunk bytes].
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sdkrt/sse.h"

typedef struct result {
    uint64_t events;
    uint64_t bytes; /* data bytes seen, so that no work can be optimised away */
} result;

static double now(void)
{
    struct timespec ts;
    /* CPU time: the machine is shared, and being descheduled is not the parser's cost. */
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint32_t rng = 12345;

static uint32_t rnd(void)
{
    rng = rng * 1103515245u + 12345u;
    return rng >> 8;
}

/* Appends formatted text; the buffer was sized with room to spare. */
static size_t put(char *buf, size_t len, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static size_t put(char *buf, size_t len, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + len, cap - len, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= cap - len) {
        fprintf(stderr, "bench_sse: generator overflow\n");
        exit(1);
    }
    return len + (size_t)n;
}

static char *generate(size_t target, size_t *out_len, uint64_t *out_events)
{
    size_t cap = target + 4096;
    char *buf = malloc(cap);
    if (!buf) {
        fprintf(stderr, "bench_sse: out of memory\n");
        exit(1);
    }
    static const char *const kinds[] = {"message.part.updated", "session.updated",
                                        "message.updated", "session.status"};
    size_t len = 0;
    uint64_t events = 0;
    while (len + 1024 < target) {
        if (events % 50 == 0)
            len = put(buf, len, cap, ": heartbeat\n");
        if (events % 10 == 0)
            len = put(buf, len, cap, "id: %llu\n", (unsigned long long)events);
        /* ~200 bytes of JSON, lengths vary a little. */
        len = put(buf, len, cap,
                  "data: {\"type\":\"%s\",\"properties\":{\"sessionID\":\"ses_%08x%08x\","
                  "\"messageID\":\"msg_%08x\",\"part\":{\"id\":\"prt_%08x\",\"type\":\"text\","
                  "\"text\":\"%.*s\",\"time\":{\"start\":%u}}}}\n\n",
                  kinds[rnd() % 4], rnd(), rnd(), rnd(), rnd(), (int)(20 + rnd() % 40),
                  "The quick brown fox jumps over the lazy dog; sphinx of black quartz.", rnd());
        events++;
    }
    *out_len = len;
    *out_events = events;
    return buf;
}

static int run_parser(const char *buf, size_t len, size_t chunk, result *r)
{
    memset(r, 0, sizeof *r);
    sdkrt_sse_parser *p = NULL;
    if (sdkrt_sse_parser_new(&p, NULL) != SDKRT_SSE_OK)
        return -1;
    sdkrt_sse_event ev;
    sdkrt_sse_status st = SDKRT_SSE_NEED_MORE;
    for (size_t off = 0; off < len; off += chunk) {
        size_t n = len - off < chunk ? len - off : chunk;
        if (sdkrt_sse_feed(p, buf + off, n) != SDKRT_SSE_OK)
            break;
        while ((st = sdkrt_sse_next(p, &ev)) == SDKRT_SSE_EVENT) {
            r->events++;
            r->bytes += ev.data_len;
        }
        if (st == SDKRT_SSE_ERROR)
            break;
    }
    if (st != SDKRT_SSE_ERROR)
        st = sdkrt_sse_finish(p, &ev);
    sdkrt_sse_parser_free(p);
    return st == SDKRT_SSE_END ? 0 : -1;
}

static int run_floor(const char *buf, size_t len, result *r)
{
    memset(r, 0, sizeof *r);
    const char *s = buf, *end = buf + len;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        if (!nl)
            break;
        if (nl == s)
            r->events++;
        else
            r->bytes += (size_t)(nl - s);
        s = nl + 1;
    }
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    size_t mb = argc > 1 ? strtoul(argv[1], NULL, 10) : 100;
    int runs = argc > 2 ? (int)strtol(argv[2], NULL, 10) : 7;
    size_t chunk = argc > 3 ? strtoul(argv[3], NULL, 10) : 64 * 1024;
    if (mb == 0 || runs < 1 || runs > 100 || chunk == 0) {
        fprintf(stderr, "usage: bench_sse [MB] [runs 1..100] [chunk bytes]\n");
        return 2;
    }
    size_t len;
    uint64_t want_events;
    char *buf = generate(mb * 1000 * 1000, &len, &want_events);
    double t_parser[100], t_floor[100];
    result r;
    for (int i = 0; i < runs; i++) {
        double t0 = now();
        if (run_floor(buf, len, &r) != 0 || r.events != want_events) {
            fprintf(stderr, "bench_sse: floor saw %llu events, expected %llu\n",
                    (unsigned long long)r.events, (unsigned long long)want_events);
            return 1;
        }
        t_floor[i] = now() - t0;
        t0 = now();
        if (run_parser(buf, len, chunk, &r) != 0 || r.events != want_events) {
            fprintf(stderr, "bench_sse: parser saw %llu events, expected %llu\n",
                    (unsigned long long)r.events, (unsigned long long)want_events);
            return 1;
        }
        t_parser[i] = now() - t0;
    }
    qsort(t_parser, (size_t)runs, sizeof(double), cmp_double);
    qsort(t_floor, (size_t)runs, sizeof(double), cmp_double);
    double mbytes = (double)len / 1e6;
    printf("SSE parser benchmark: %.1f MB stream, %llu events, %zu-byte feeds, %d runs, CPU time\n",
           mbytes, (unsigned long long)want_events, chunk, runs);
    printf("%-28s %12s %14s %12s %14s\n", "contestant", "best MB/s", "best events/s", "median MB/s",
           "% of floor");
    double fb = mbytes / t_floor[0], fm = mbytes / t_floor[runs / 2];
    double pb = mbytes / t_parser[0], pm = mbytes / t_parser[runs / 2];
    printf("%-28s %12.0f %14.0f %12.0f %13.0f%%\n", "floor (memchr line split)", fb,
           (double)want_events / t_floor[0], fm, 100.0);
    printf("%-28s %12.0f %14.0f %12.0f %13.0f%%\n", "sdkrt_sse (feed + next)", pb,
           (double)want_events / t_parser[0], pm, 100.0 * pb / fb);
    printf("ratio parser/floor: best %.2f, median %.2f (aim >= 0.70)\n", pb / fb, pm / fm);
    free(buf);
    return 0;
}
