/* canned_server.c - a canned OpenCode-shaped HTTP/1.1 server for the client benchmarks.
 *
 * Binds 127.0.0.1 only, one thread per connection, keep-alive. It answers the routes the
 * contestants call, with bodies shaped like the real server's (captured from opencode 1.18.33):
 *   GET /api/session?limit=L[&cursor=C]  a SessionsResponse page of L sessions (limit 100 is
 *                                        about 35 KB) out of --items (default 100000); the
 *                                        cursor is opaque to clients ("off.<offset>").
 *   GET /api/session/{id}/event          a text/event-stream (chunked) of small durable events
 *                                        ("data: {json}\n\n", about 330 bytes each); the count
 *                                        is the number after the last '_' in {id}, e.g.
 *                                        ses_bench_1000000; the stream ends after the last one.
 *   anything else                        404 with a JSON body.
 * Usage: canned_server [port] [items]. Port 0 (the default) picks a free port; the port is
 * printed on the first line of stdout. Server CPU is not measured by the benchmarks. */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "canned_shapes.h"

static long long g_items = 100000;
static char *g_first_page; /* the page every unary call asks for, rendered once */
static size_t g_first_page_len;

static int send_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static int send_response(int fd, int status, const char *ctype, const char *body, size_t len)
{
    char head[256];
    int n = snprintf(head, sizeof head,
                     "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
                     "Connection: keep-alive\r\n\r\n",
                     status, status == 200 ? "OK" : "Not Found", ctype, len);
    if (n < 0 || (size_t)n >= sizeof head)
        return -1;
    struct iovec iov[2] = {{head, (size_t)n}, {(void *)body, len}};
    size_t total = (size_t)n + len;
    size_t done = 0;
    while (done < total) {
        ssize_t w = writev(fd, iov, 2);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        done += (size_t)w;
        size_t skip = (size_t)w;
        for (int k = 0; k < 2; k++) {
            size_t take = skip < iov[k].iov_len ? skip : iov[k].iov_len;
            iov[k].iov_base = (char *)iov[k].iov_base + take;
            iov[k].iov_len -= take;
            skip -= take;
        }
    }
    return 0;
}

static int send_chunk(int fd, const char *p, size_t n)
{
    char head[32];
    int h = snprintf(head, sizeof head, "%zx\r\n", n);
    if (send_all(fd, head, (size_t)h) != 0 || send_all(fd, p, n) != 0 ||
        send_all(fd, "\r\n", 2) != 0)
        return -1;
    return 0;
}

/* Events are rendered once per stream as a block of EVENT_BLOCK and re-sent with only the seq
 * digits patched: seq runs from SEQ_BASE + 1 (always 10 digits), so the server stays far cheaper
 * than any client and the events-per-second figures measure the client. */
enum { EVENT_BLOCK = 200 };

static int serve_events(int fd, const char *session, long long count)
{
    static const char head[] = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                               "Cache-Control: no-cache\r\nTransfer-Encoding: chunked\r\n"
                               "Connection: keep-alive\r\n\r\n";
    if (send_all(fd, head, sizeof head - 1) != 0)
        return -1;
    buf b = {0};
    size_t seq_at[EVENT_BLOCK];
    size_t ends[EVENT_BLOCK];
    int rc = 0;
    for (int k = 0; k < EVENT_BLOCK && rc == 0; k++) {
        char eid[27], mid[27];
        make_id(eid, (unsigned long long)k * 2);
        make_id(mid, (unsigned long long)k * 2 + 1);
        rc = buf_printf(&b, EVENT_HEAD, eid, session);
        seq_at[k] = b.len;
        if (rc == 0)
            rc = buf_printf(&b, EVENT_TAIL, SEQ_BASE, 1795312829363LL + k, session, mid);
        ends[k] = b.len;
    }
    for (long long sent = 0; sent < count && rc == 0;) {
        long long n = count - sent < EVENT_BLOCK ? count - sent : EVENT_BLOCK;
        for (long long k = 0; k < n; k++) {
            long long seq = SEQ_BASE + sent + k + 1;
            for (int d = 9; d >= 0; d--, seq /= 10)
                b.data[seq_at[k] + (size_t)d] = (char)('0' + seq % 10);
        }
        rc = send_chunk(fd, b.data, ends[n - 1]);
        sent += n;
    }
    free(b.data);
    if (rc == 0)
        rc = send_all(fd, "0\r\n\r\n", 5);
    return rc;
}

static int handle(int fd, char *target)
{
    char *query = strchr(target, '?');
    if (query)
        *query++ = '\0';
    if (strcmp(target, "/api/session") == 0) {
        char v[64];
        long long limit = 100, offset = 0;
        if (query && query_param(query, "limit", v, sizeof v) == 0)
            limit = (long long)strtod(v, NULL); /* like the real server: "1e+02" is 100 */
        if (query && query_param(query, "cursor", v, sizeof v) == 0 && strncmp(v, "off.", 4) == 0)
            offset = strtoll(v + 4, NULL, 10);
        if (limit <= 0 || limit > 1000)
            limit = 100;
        if (offset < 0 || offset > g_items)
            offset = g_items;
        if (offset == 0 && limit == 100)
            return send_response(fd, 200, "application/json", g_first_page, g_first_page_len);
        buf b = {0};
        int rc = render_page(&b, offset, limit, g_items);
        if (rc == 0)
            rc = send_response(fd, 200, "application/json", b.data, b.len);
        free(b.data);
        return rc;
    }
    static const char prefix[] = "/api/session/";
    size_t pl = sizeof prefix - 1;
    size_t tl = strlen(target);
    if (strncmp(target, prefix, pl) == 0 && tl > pl + 6 && strcmp(target + tl - 6, "/event") == 0) {
        target[tl - 6] = '\0';
        const char *session = target + pl;
        const char *us = strrchr(session, '_');
        long long count = us ? strtoll(us + 1, NULL, 10) : 0;
        if (count < 0)
            count = 0;
        return serve_events(fd, session, count);
    }
    static const char nf[] = "{\"_tag\":\"NotFound\",\"message\":\"no such route\"}";
    return send_response(fd, 404, "application/json", nf, sizeof nf - 1);
}

static void *connection(void *arg)
{
    int fd = (int)(intptr_t)arg;
    char req[16384];
    size_t have = 0;
    for (;;) {
        char *end = NULL;
        while (!(end = find_blank_line(req, have))) {
            if (have == sizeof req)
                goto done;
            ssize_t r = recv(fd, req + have, sizeof req - have, 0);
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0)
                goto done;
            have += (size_t)r;
        }
        size_t head_len = (size_t)(end - req) + 4;
        *end = '\0';
        int close_after = 0;
        size_t body = 0;
        for (char *line = strstr(req, "\r\n"); line; line = strstr(line + 2, "\r\n")) {
            if (strncasecmp(line + 2, "connection: close", 17) == 0)
                close_after = 1;
            if (strncasecmp(line + 2, "content-length:", 15) == 0)
                body = (size_t)strtoull(line + 17, NULL, 10);
        }
        char *sp1 = strchr(req, ' ');
        char *sp2 = sp1 ? strchr(sp1 + 1, ' ') : NULL;
        if (!sp2)
            goto done;
        *sp2 = '\0';
        if (handle(fd, sp1 + 1) != 0 || close_after)
            goto done;
        /* Drop the body (none of our routes read one), keep any pipelined bytes. */
        size_t consumed = head_len;
        while (have < consumed + body) {
            size_t drop = have - consumed;
            body -= drop;
            have = consumed;
            ssize_t r = recv(fd, req + have, sizeof req - have, 0);
            if (r <= 0)
                goto done;
            have += (size_t)r;
        }
        consumed += body;
        memmove(req, req + consumed, have - consumed);
        have -= consumed;
    }
done:
    close(fd);
    return NULL;
}

int main(int argc, char **argv)
{
    int port = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 0;
    if (argc > 2)
        g_items = strtoll(argv[2], NULL, 10);
    signal(SIGPIPE, SIG_IGN);
    buf first = {0};
    if (render_page(&first, 0, 100, g_items) != 0) {
        fprintf(stderr, "canned_server: out of memory\n");
        return 1;
    }
    g_first_page = first.data;
    g_first_page_len = first.len;

    int ls = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in addr = {0};
    addr.sin_family = AF_INET;
    addr.sin_port = htons((unsigned short)port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (ls < 0 || bind(ls, (struct sockaddr *)&addr, sizeof addr) != 0 || listen(ls, 64) != 0) {
        perror("canned_server: bind 127.0.0.1");
        return 1;
    }
    socklen_t al = sizeof addr;
    getsockname(ls, (struct sockaddr *)&addr, &al);
    printf("%d\n", ntohs(addr.sin_port));
    fflush(stdout);
    for (;;) {
        int fd = accept(ls, NULL, NULL);
        if (fd < 0) {
            if (errno == EINTR)
                continue;
            perror("canned_server: accept");
            return 1;
        }
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        pthread_t t;
        if (pthread_create(&t, NULL, connection, (void *)(intptr_t)fd) != 0) {
            close(fd);
            continue;
        }
        pthread_detach(t);
    }
}
