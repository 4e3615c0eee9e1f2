/* A small scriptable HTTP/1.1 server for the transport tests (see test_server.h). */
#include "test_server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>
#ifdef __linux__
#include <linux/sockios.h>
#endif

#define MAX_CONNS 256

struct ts_conn {
    ts_server *srv;
    int fd;
    int index;
    pthread_t thread;
    size_t sent;
    bool reset;
};

struct ts_server {
    int listen_fd;
    int port;
    char url[64];
    ts_handler handler;
    void *ud;
    pthread_t accept_thread;
    atomic_bool stopping;
    atomic_int connections;
    atomic_int requests;
    pthread_mutex_t mu;
    ts_conn *conns[MAX_CONNS];
    int conn_count;
};

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

int ts_write(ts_conn *c, const void *bytes, size_t len)
{
    const char *p = bytes;
    while (len) {
        if (atomic_load(&c->srv->stopping))
            return -1;
        ssize_t n = send(c->fd, p, len, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += n;
        len -= (size_t)n;
        c->sent += (size_t)n;
    }
    return 0;
}

int ts_printf(ts_conn *c, const char *fmt, ...)
{
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof buf)
        return -1;
    return ts_write(c, buf, (size_t)n);
}

static const char *reason_phrase(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 204:
        return "No Content";
    case 400:
        return "Bad Request";
    case 404:
        return "Not Found";
    case 500:
        return "Internal Server Error";
    default:
        return "Status";
    }
}

int ts_respond(ts_conn *c, int status, const char *content_type, const void *body, size_t len)
{
    if (ts_printf(c, "HTTP/1.1 %d %s\r\nContent-Length: %zu\r\n", status, reason_phrase(status),
                  len) != 0)
        return -1;
    if (content_type && ts_printf(c, "Content-Type: %s\r\n", content_type) != 0)
        return -1;
    if (ts_write(c, "\r\n", 2) != 0)
        return -1;
    return len ? ts_write(c, body, len) : 0;
}

int ts_chunked_head(ts_conn *c, int status, const char *content_type)
{
    if (ts_printf(c, "HTTP/1.1 %d %s\r\nTransfer-Encoding: chunked\r\n", status,
                  reason_phrase(status)) != 0)
        return -1;
    if (content_type && ts_printf(c, "Content-Type: %s\r\n", content_type) != 0)
        return -1;
    return ts_write(c, "\r\n", 2);
}

int ts_chunk(ts_conn *c, const void *bytes, size_t len)
{
    if (len == 0)
        return 0;
    if (ts_printf(c, "%zx\r\n", len) != 0 || ts_write(c, bytes, len) != 0)
        return -1;
    return ts_write(c, "\r\n", 2);
}

int ts_chunk_end(ts_conn *c)
{
    return ts_write(c, "0\r\n\r\n", 5);
}

int ts_sleep(ts_conn *c, int ms)
{
    for (int t = 0; t < ms; t += 5) {
        if (atomic_load(&c->srv->stopping))
            return -1;
        sleep_ms(5);
    }
    return 0;
}

void ts_reset(ts_conn *c)
{
    /* SO_LINGER 0 drops what the kernel has not sent yet, and Nagle holds a handler's last small
       writes until the peer acknowledges the earlier ones (late on a loaded machine): the peer
       would miss bytes the handler wrote before the reset. Push them out first (bytes the peer
       has received survive the RST); a peer that stopped reading gets the reset after 2 s. */
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
#ifdef SIOCOUTQNSD
    int unsent = 0;
    for (int i = 0; i < 400 && ioctl(c->fd, SIOCOUTQNSD, &unsent) == 0 && unsent > 0; i++)
        sleep_ms(5);
#endif
    struct linger l = {1, 0};
    setsockopt(c->fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
    c->reset = true;
}

size_t ts_sent(const ts_conn *c)
{
    return c->sent;
}

bool ts_header(const ts_request *req, const char *name, char *out, size_t cap)
{
    size_t n = strlen(name);
    for (const char *line = req->headers; *line;) {
        const char *end = strstr(line, "\r\n");
        size_t ll = end ? (size_t)(end - line) : strlen(line);
        if (ll > n && line[n] == ':' && strncasecmp(line, name, n) == 0) {
            const char *v = line + n + 1;
            while (*v == ' ')
                v++;
            size_t vl = ll - (size_t)(v - line);
            if (vl >= cap)
                vl = cap - 1;
            memcpy(out, v, vl);
            out[vl] = '\0';
            return true;
        }
        if (!end)
            break;
        line = end + 2;
    }
    return false;
}

int ts_gzip(const void *in, size_t len, unsigned char **out, size_t *out_len)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return -1;
    uLong cap = deflateBound(&z, (uLong)len) + 32;
    unsigned char *buf = malloc(cap);
    if (!buf) {
        deflateEnd(&z);
        return -1;
    }
    z.next_in = (Bytef *)(uintptr_t)in;
    z.avail_in = (uInt)len;
    z.next_out = buf;
    z.avail_out = (uInt)cap;
    int rc = deflate(&z, Z_FINISH);
    *out_len = z.total_out;
    deflateEnd(&z);
    if (rc != Z_STREAM_END) {
        free(buf);
        return -1;
    }
    *out = buf;
    return 0;
}

/* Read one request into req (body malloc'd). 0 ok, -1 closed or malformed. buf/have carry bytes
 * across keep-alive requests. */
static int read_request(ts_conn *c, char *buf, size_t cap, size_t *have, ts_request *req)
{
    char *end = NULL;
    for (;;) {
        buf[*have] = '\0';
        if (*have && (buf[0] < 'A' || buf[0] > 'Z'))
            return -1; /* not HTTP (e.g. a TLS hello): hang up */
        end = strstr(buf, "\r\n\r\n");
        if (end)
            break;
        if (*have + 1 >= cap)
            return -1;
        ssize_t n = recv(c->fd, buf + *have, cap - 1 - *have, 0);
        if (n <= 0)
            return -1;
        *have += (size_t)n;
    }
    memset(req, 0, sizeof *req);
    req->conn_index = c->index;
    size_t head_len = (size_t)(end - buf) + 4;
    *end = '\0';
    char *line_end = strstr(buf, "\r\n");
    char *headers = line_end ? line_end + 2 : end;
    if (line_end)
        *line_end = '\0';
    if (sscanf(buf, "%15s %2047s", req->method, req->target) != 2)
        return -1;
    snprintf(req->headers, sizeof req->headers, "%s", line_end ? headers : "");
    char cl[32];
    size_t body_len = 0;
    if (ts_header(req, "Content-Length", cl, sizeof cl))
        body_len = (size_t)strtoull(cl, NULL, 10);
    if (body_len > (64u << 20))
        return -1;
    req->body = malloc(body_len + 1);
    if (!req->body)
        return -1;
    size_t from_buf = *have - head_len < body_len ? *have - head_len : body_len;
    memcpy(req->body, buf + head_len, from_buf);
    size_t got = from_buf;
    while (got < body_len) {
        ssize_t n = recv(c->fd, req->body + got, body_len - got, 0);
        if (n <= 0) {
            free(req->body);
            req->body = NULL;
            return -1;
        }
        got += (size_t)n;
    }
    req->body[body_len] = '\0';
    req->body_len = body_len;
    size_t used = head_len + from_buf;
    memmove(buf, buf + used, *have - used);
    *have -= used;
    return 0;
}

static void *conn_main(void *arg)
{
    ts_conn *c = arg;
    size_t cap = 65536, have = 0;
    char *buf = malloc(cap);
    while (buf && !atomic_load(&c->srv->stopping)) {
        ts_request req;
        if (read_request(c, buf, cap, &have, &req) != 0)
            break;
        atomic_fetch_add(&c->srv->requests, 1);
        int keep = c->srv->handler(c->srv->ud, &req, c);
        free(req.body);
        if (keep != 0 || c->reset)
            break;
    }
    free(buf);
    pthread_mutex_lock(&c->srv->mu);
    if (c->reset) {
        close(c->fd); /* with SO_LINGER 0 this sends the RST */
        c->fd = -1;
    } else {
        shutdown(c->fd, SHUT_WR); /* a graceful close lets the peer read what was sent */
    }
    pthread_mutex_unlock(&c->srv->mu);
    return NULL;
}

static void *accept_main(void *arg)
{
    ts_server *s = arg;
    while (!atomic_load(&s->stopping)) {
        struct pollfd pfd = {s->listen_fd, POLLIN, 0};
        if (poll(&pfd, 1, 20) <= 0)
            continue;
        int fd = accept(s->listen_fd, NULL, NULL);
        if (fd < 0)
            continue;
        ts_conn *c = calloc(1, sizeof *c);
        pthread_mutex_lock(&s->mu);
        if (!c || s->conn_count == MAX_CONNS) {
            pthread_mutex_unlock(&s->mu);
            free(c);
            close(fd);
            continue;
        }
        c->srv = s;
        c->fd = fd;
        c->index = atomic_fetch_add(&s->connections, 1);
        if (pthread_create(&c->thread, NULL, conn_main, c) != 0) {
            pthread_mutex_unlock(&s->mu);
            close(fd);
            free(c);
            continue;
        }
        s->conns[s->conn_count++] = c;
        pthread_mutex_unlock(&s->mu);
    }
    return NULL;
}

int ts_start(ts_server **out, ts_handler handler, void *ud)
{
    *out = NULL;
    ts_server *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    s->handler = handler;
    s->ud = ud;
    pthread_mutex_init(&s->mu, NULL);
    s->listen_fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    socklen_t al = sizeof a;
    if (s->listen_fd < 0 || bind(s->listen_fd, (struct sockaddr *)&a, sizeof a) != 0 ||
        listen(s->listen_fd, 64) != 0 ||
        getsockname(s->listen_fd, (struct sockaddr *)&a, &al) != 0) {
        if (s->listen_fd >= 0)
            close(s->listen_fd);
        pthread_mutex_destroy(&s->mu);
        free(s);
        return -1;
    }
    s->port = ntohs(a.sin_port);
    snprintf(s->url, sizeof s->url, "http://127.0.0.1:%d", s->port);
    if (pthread_create(&s->accept_thread, NULL, accept_main, s) != 0) {
        close(s->listen_fd);
        pthread_mutex_destroy(&s->mu);
        free(s);
        return -1;
    }
    *out = s;
    return 0;
}

void ts_stop(ts_server *s)
{
    if (!s)
        return;
    atomic_store(&s->stopping, true);
    pthread_join(s->accept_thread, NULL);
    close(s->listen_fd);
    pthread_mutex_lock(&s->mu);
    for (int i = 0; i < s->conn_count; i++) {
        if (s->conns[i]->fd >= 0)
            shutdown(s->conns[i]->fd, SHUT_RDWR); /* wakes a blocked recv */
    }
    pthread_mutex_unlock(&s->mu);
    for (int i = 0; i < s->conn_count; i++) {
        pthread_join(s->conns[i]->thread, NULL);
        if (s->conns[i]->fd >= 0)
            close(s->conns[i]->fd);
        free(s->conns[i]);
    }
    pthread_mutex_destroy(&s->mu);
    free(s);
}

int ts_port(const ts_server *s)
{
    return s->port;
}

const char *ts_url(const ts_server *s)
{
    return s->url;
}

int ts_connections(const ts_server *s)
{
    return atomic_load(&((ts_server *)s)->connections);
}

int ts_requests(const ts_server *s)
{
    return atomic_load(&((ts_server *)s)->requests);
}
