/* tcp_bridge.c - see tcp_bridge.h. */
#define _POSIX_C_SOURCE 200809L
#include "tcp_bridge.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_HEAD    65536
#define MAX_HEADERS 64

struct tcp_bridge {
    int fd;
    char url[64];
    pthread_t thread;
    atomic_bool stop;
    sdkrt_transport *transport;
};

static int write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t w = send(fd, c, n, MSG_NOSIGNAL);
        if (w <= 0)
            return -1;
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Read until the end of the head; *len bytes are in buf (maybe some of the body too). */
static char *read_head(int fd, char *buf, size_t cap, size_t *len)
{
    *len = 0;
    while (*len + 1 < cap) {
        ssize_t n = recv(fd, buf + *len, cap - 1 - *len, 0);
        if (n <= 0)
            return NULL;
        *len += (size_t)n;
        buf[*len] = '\0';
        char *end = strstr(buf, "\r\n\r\n");
        if (end)
            return end + 4;
    }
    return NULL;
}

static void serve_one(tcp_bridge *b, int fd)
{
    char *buf = malloc(MAX_HEAD);
    char *body = NULL;
    sdkrt_response *head = NULL;
    sdkrt_error *err = NULL;
    sdkrt_body_reader rd = {0};
    bool opened = false;
    size_t have = 0;
    if (!buf)
        goto done;
    char *after = read_head(fd, buf, MAX_HEAD, &have);
    if (!after)
        goto done;
    after[-2] = '\0'; /* the head, with the last CRLF of the header lines */
    char *save = NULL;
    char *line = strtok_r(buf, "\r\n", &save);
    char method[16], target[4096];
    if (!line || sscanf(line, "%15s %4095s", method, target) != 2)
        goto done;
    sdkrt_header headers[MAX_HEADERS];
    size_t nheaders = 0;
    size_t content_length = 0;
    while ((line = strtok_r(NULL, "\r\n", &save)) && nheaders < MAX_HEADERS) {
        char *colon = strchr(line, ':');
        if (!colon)
            continue;
        *colon = '\0';
        char *value = colon + 1;
        while (*value == ' ')
            value++;
        headers[nheaders].name = line;
        headers[nheaders].value = value;
        nheaders++;
        if (strcasecmp(line, "Content-Length") == 0)
            content_length = (size_t)strtoul(value, NULL, 10);
    }
    size_t got = have - (size_t)(after - buf);
    if (content_length > (size_t)1 << 20)
        goto done;
    body = malloc(content_length + 1);
    if (!body)
        goto done;
    memcpy(body, after, got < content_length ? got : content_length);
    while (got < content_length) {
        ssize_t n = recv(fd, body + got, content_length - got, 0);
        if (n <= 0)
            goto done;
        got += (size_t)n;
    }
    char url[4200];
    snprintf(url, sizeof url, "%s%s", b->url, target);
    sdkrt_transport_request rq = {0};
    rq.method = method;
    rq.url = url;
    rq.target = target;
    rq.headers = headers;
    rq.header_count = nheaders;
    rq.body = content_length ? body : NULL;
    rq.body_len = content_length;
    rq.verify_tls = true;
    if (b->transport->ops->open(b->transport->self, &rq, &head, &rd, &err) != SDKRT_OK)
        goto done; /* the handler refused: close without an answer */
    opened = true;
    int status = sdkrt_response_status(head);
    const char *ctype = sdkrt_response_header(head, "Content-Type");
    char line_out[512];
    int n =
        snprintf(line_out, sizeof line_out, "HTTP/1.1 %d X\r\n%s%s%sConnection: close\r\n%s",
                 status, ctype ? "Content-Type: " : "", ctype ? ctype : "", ctype ? "\r\n" : "",
                 status == 204 || status == 304 ? "\r\n" : "Transfer-Encoding: chunked\r\n\r\n");
    if (n < 0 || (size_t)n >= sizeof line_out || write_all(fd, line_out, (size_t)n) != 0)
        goto done;
    if (status == 204 || status == 304)
        goto done;
    for (;;) {
        char chunk[8192];
        size_t len = 0;
        if (rd.ops->read(rd.self, chunk, sizeof chunk, &len, &err) != SDKRT_OK)
            goto done; /* a cut: no final chunk */
        if (len == 0) {
            write_all(fd, "0\r\n\r\n", 5);
            goto done;
        }
        char size[32];
        int sn = snprintf(size, sizeof size, "%zx\r\n", len);
        if (write_all(fd, size, (size_t)sn) != 0 || write_all(fd, chunk, len) != 0 ||
            write_all(fd, "\r\n", 2) != 0)
            goto done;
    }
done:
    if (opened)
        rd.ops->close(rd.self);
    sdkrt_response_free(head);
    sdkrt_error_free(err);
    free(body);
    free(buf);
}

static void *accept_loop(void *arg)
{
    tcp_bridge *b = arg;
    while (!atomic_load(&b->stop)) {
        struct pollfd p = {b->fd, POLLIN, 0};
        if (poll(&p, 1, 50) <= 0)
            continue;
        int c = accept(b->fd, NULL, NULL);
        if (c < 0)
            continue;
        serve_one(b, c);
        shutdown(c, SHUT_RDWR);
        close(c);
    }
    return NULL;
}

int tcp_bridge_start(tcp_bridge **out, sdkrt_memory_handler handler, void *ud)
{
    *out = NULL;
    tcp_bridge *b = calloc(1, sizeof *b);
    if (!b)
        return -1;
    b->fd = -1;
    if (sdkrt_memory_transport_new(&b->transport, handler, ud) != SDKRT_OK)
        goto fail;
    b->fd = socket(AF_INET, SOCK_STREAM, 0);
    if (b->fd < 0)
        goto fail;
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t alen = sizeof a;
    if (bind(b->fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(b->fd, 16) != 0 ||
        getsockname(b->fd, (struct sockaddr *)&a, &alen) != 0)
        goto fail;
    snprintf(b->url, sizeof b->url, "http://127.0.0.1:%d", ntohs(a.sin_port));
    if (pthread_create(&b->thread, NULL, accept_loop, b) != 0)
        goto fail;
    *out = b;
    return 0;
fail:
    if (b->fd >= 0)
        close(b->fd);
    sdkrt_memory_transport_free(b->transport);
    free(b);
    return -1;
}

const char *tcp_bridge_url(const tcp_bridge *b)
{
    return b->url;
}

void tcp_bridge_stop(tcp_bridge *b)
{
    if (!b)
        return;
    atomic_store(&b->stop, true);
    pthread_join(b->thread, NULL);
    close(b->fd);
    sdkrt_memory_transport_free(b->transport);
    free(b);
}
