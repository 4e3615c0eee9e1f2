/* canned_shapes.h - the bodies of the canned benchmark servers (canned_server.c, canned_epoll.c):
 * OpenCode-shaped session pages and durable events (captured from opencode 1.18.33), a growable
 * buffer and the request parsing both servers share. Static functions: included by each server. */
#ifndef BENCH_CANNED_SHAPES_H
#define BENCH_CANNED_SHAPES_H
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct buf {
    char *data;
    size_t len;
    size_t cap;
} buf;

static int buf_reserve(buf *b, size_t extra)
{
    if (b->len + extra + 1 <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + extra + 1)
        cap *= 2;
    char *p = realloc(b->data, cap);
    if (!p)
        return -1;
    b->data = p;
    b->cap = cap;
    return 0;
}

static int buf_printf(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int buf_printf(buf *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n =
            vsnprintf(b->data ? b->data + b->len : NULL, b->data ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0)
            return -1;
        if (b->data && (size_t)n < b->cap - b->len) {
            b->len += (size_t)n;
            return 0;
        }
        if (buf_reserve(b, (size_t)n + 1) != 0)
            return -1;
    }
}

/* A deterministic 26-character id suffix, like the real server's. */
static void make_id(char out[27], unsigned long long seed)
{
    static const char alpha[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    unsigned long long x = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    for (int i = 0; i < 26; i++) {
        x ^= x >> 29;
        x *= 0xbf58476d1ce4e5b9ULL;
        x ^= x >> 32;
        out[i] = alpha[x % 62];
    }
    out[26] = '\0';
}

static int render_session(buf *b, long long i)
{
    char id[27];
    make_id(id, (unsigned long long)i);
    long long t = 1795312764883LL + i * 37;
    return buf_printf(
        b,
        "{\"id\":\"ses_%s\",\"projectID\":\"f1ed65e179be7e445eec5a88d292be53a6cdfa4d\","
        "\"cost\":%lld.%04lld,\"tokens\":{\"input\":%lld,\"output\":%lld,"
        "\"reasoning\":%lld,\"cache\":{\"read\":%lld,\"write\":%lld}},"
        "\"time\":{\"created\":%lld,\"updated\":%lld},"
        "\"title\":\"Benchmark session %lld: refactor the request builder\","
        "\"location\":{\"directory\":\"/home/dev/projects/opencode-bench/repo\"}}",
        id, i % 3, (i * 7919) % 10000, 1000 + i % 5000, 200 + i % 900, i % 64, (i * 13) % 20000,
        i % 700, t, t + 1000, i + 1);
}

static int render_page(buf *b, long long offset, long long limit, long long items)
{
    if (buf_printf(b, "{\"data\":[") != 0)
        return -1;
    long long end = offset + limit < items ? offset + limit : items;
    for (long long i = offset; i < end; i++) {
        if (i > offset && buf_printf(b, ",") != 0)
            return -1;
        if (render_session(b, i) != 0)
            return -1;
    }
    if (buf_printf(b, "],\"cursor\":{") != 0)
        return -1;
    int comma = 0;
    if (offset > 0) {
        if (buf_printf(b, "\"previous\":\"off.%lld\"", offset) != 0)
            return -1;
        comma = 1;
    }
    if (end < items && buf_printf(b, "%s\"next\":\"off.%lld\"", comma ? "," : "", end) != 0)
        return -1;
    return buf_printf(b, "}}");
}

/* One durable event in two parts around its seq (always 10 digits from SEQ_BASE + 1, so that a
 * rendered event can be re-sent with the digits patched): EVENT_HEAD (event id, session), then
 * the seq, then EVENT_TAIL (timestamp, session, message id). */
#define SEQ_BASE 1000000000LL
#define EVENT_HEAD                                                                                 \
    "data: {\"id\":\"evt_%s\",\"type\":\"session.next.prompt.admitted\","                          \
    "\"durable\":{\"aggregateID\":\"%s\",\"seq\":"
#define EVENT_TAIL                                                                                 \
    "%lld,\"version\":1},"                                                                         \
    "\"data\":{\"timestamp\":%lld,\"sessionID\":\"%s\","                                           \
    "\"messageID\":\"msg_%s\","                                                                    \
    "\"prompt\":{\"text\":\"hello\"},\"delivery\":\"steer\"}}\n\n"

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Value of query parameter `name` in `query`, percent-decoded ('+' is a space). */
static int query_param(const char *query, const char *name, char *out, size_t cap)
{
    size_t nl = strlen(name);
    const char *p = query;
    while (p && *p) {
        const char *amp = strchr(p, '&');
        size_t seg = amp ? (size_t)(amp - p) : strlen(p);
        if (seg > nl && strncmp(p, name, nl) == 0 && p[nl] == '=') {
            size_t o = 0;
            for (size_t i = nl + 1; i < seg; i++) {
                char c = p[i];
                if (c == '%' && i + 2 < seg && hexval(p[i + 1]) >= 0 && hexval(p[i + 2]) >= 0) {
                    c = (char)(hexval(p[i + 1]) * 16 + hexval(p[i + 2]));
                    i += 2;
                } else if (c == '+') {
                    c = ' ';
                }
                if (o + 1 >= cap)
                    return -1;
                out[o++] = c;
            }
            out[o] = '\0';
            return 0;
        }
        p = amp ? amp + 1 : NULL;
    }
    return -1;
}

static char *find_blank_line(char *p, size_t n)
{
    for (size_t i = 0; i + 4 <= n; i++)
        if (p[i] == '\r' && memcmp(p + i, "\r\n\r\n", 4) == 0)
            return p + i;
    return NULL;
}

#endif
