/* sse_server.c - see sse_server.h. One thread, poll(), non-blocking sockets. */
#include "sse_server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef enum { C_REQUEST, C_HEAD_WAIT, C_SENDING, C_HOLD } cstate;

typedef struct sconn {
    int fd;
    cstate st;
    char req[8192];
    size_t req_len;
    ss_reply r;
    long long due;   /* head or next piece due (ms) */
    size_t body_off; /* body bytes queued so far */
    char *out;       /* bytes to write */
    size_t out_len, out_off, out_cap;
    int last_queued; /* everything (and the end) is queued */
} sconn;

struct ss_server {
    int lfd;
    int wake[2];
    int port;
    char url[64];
    ss_handler h;
    void *ud;
    pthread_t th;
    atomic_bool stop;
    atomic_int accepted;
    atomic_int open;
    sconn **conns;
    size_t nconns, cap;
};

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

long ss_query_long(const char *target, const char *name, long dflt)
{
    const char *q = strchr(target, '?');
    size_t n = strlen(name);
    while (q) {
        q++;
        if (strncmp(q, name, n) == 0 && q[n] == '=')
            return strtol(q + n + 1, NULL, 10);
        q = strchr(q, '&');
    }
    return dflt;
}

void ss_body_printf(ss_reply *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    size_t need = r->body_len + (size_t)n + 1;
    if (need > r->body_cap) {
        size_t cap = r->body_cap ? r->body_cap : 256;
        while (cap < need)
            cap *= 2;
        char *nb = realloc(r->body, cap);
        if (!nb)
            return;
        r->body = nb;
        r->body_cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(r->body + r->body_len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    r->body_len += (size_t)n;
}

static void out_add(sconn *c, const void *b, size_t n)
{
    if (c->out_len + n > c->out_cap) {
        size_t cap = c->out_cap ? c->out_cap : 4096;
        while (cap < c->out_len + n)
            cap *= 2;
        char *nb = realloc(c->out, cap);
        if (!nb)
            abort(); /* a test helper: out of memory ends the test */
        c->out = nb;
        c->out_cap = cap;
    }
    memcpy(c->out + c->out_len, b, n);
    c->out_len += n;
}

static void out_chunk(sconn *c, const char *b, size_t n)
{
    char h[32];
    int k = snprintf(h, sizeof h, "%zx\r\n", n);
    out_add(c, h, (size_t)k);
    out_add(c, b, n);
    out_add(c, "\r\n", 2);
}

static void conn_free(ss_server *s, sconn *c)
{
    close(c->fd);
    free(c->r.body);
    free(c->out);
    free(c);
    atomic_fetch_sub(&s->open, 1);
}

/* Queue what is due: the head, then body pieces. */
static void advance(sconn *c, long long now)
{
    if (c->st == C_HEAD_WAIT) {
        if (now < c->due)
            return;
        char h[256];
        int k = snprintf(h, sizeof h,
                         "HTTP/1.1 %d X\r\nContent-Type: %s\r\nTransfer-Encoding: chunked\r\n"
                         "Connection: close\r\n\r\n",
                         c->r.status, c->r.content_type);
        out_add(c, h, (size_t)k);
        c->st = C_SENDING;
        c->due = now;
    }
    while (c->st == C_SENDING && !c->last_queued && now >= c->due) {
        size_t rest = c->r.body_len - c->body_off;
        size_t n = rest;
        if (c->r.gap_ms > 0 && rest) {
            const char *p = c->r.body + c->body_off;
            const char *e = NULL;
            for (size_t i = 0; i + 1 < rest; i++)
                if (p[i] == '\n' && p[i + 1] == '\n') {
                    e = p + i + 2;
                    break;
                }
            if (e)
                n = (size_t)(e - p);
        }
        if (n)
            out_chunk(c, c->r.body + c->body_off, n);
        c->body_off += n;
        if (c->body_off >= c->r.body_len) {
            if (c->r.end == SS_END_CLEAN)
                out_add(c, "0\r\n\r\n", 5);
            c->last_queued = 1;
        } else {
            c->due = now + c->r.gap_ms;
        }
    }
}

static void handle_request(ss_server *s, sconn *c)
{
    char target[4096] = "";
    sscanf(c->req, "%*15s %4095s", target);
    const char *hdrs = strstr(c->req, "\r\n");
    memset(&c->r, 0, sizeof c->r);
    c->r.status = 200;
    c->r.content_type = "text/event-stream";
    s->h(s->ud, target, hdrs ? hdrs + 2 : "", &c->r);
    c->st = C_HEAD_WAIT;
    c->due = now_ms() + c->r.head_delay_ms;
}

/* Returns -1 when the connection is finished. */
static int service(ss_server *s, sconn *c, short revents, long long now)
{
    if (revents & (POLLIN | POLLHUP | POLLERR)) {
        char tmp[4096];
        ssize_t n = read(c->fd, tmp, sizeof tmp);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
            return -1;
        if (n > 0 && c->st == C_REQUEST) {
            size_t k = (size_t)n;
            if (k > sizeof c->req - 1 - c->req_len)
                k = sizeof c->req - 1 - c->req_len;
            memcpy(c->req + c->req_len, tmp, k);
            c->req_len += k;
            c->req[c->req_len] = '\0';
            if (strstr(c->req, "\r\n\r\n"))
                handle_request(s, c);
        }
    }
    advance(c, now);
    while (c->out_off < c->out_len) {
        ssize_t n = send(c->fd, c->out + c->out_off, c->out_len - c->out_off, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                break;
            return -1;
        }
        c->out_off += (size_t)n;
    }
    if (c->out_off == c->out_len) {
        c->out_off = c->out_len = 0;
        if (c->last_queued && c->r.end != SS_END_HOLD)
            return -1;
    }
    return 0;
}

static void *run(void *arg)
{
    ss_server *s = arg;
    struct pollfd *pf = NULL;
    size_t pf_cap = 0;
    while (!atomic_load(&s->stop)) {
        if (pf_cap < s->nconns + 2) {
            pf_cap = (s->nconns + 2) * 2;
            struct pollfd *np = realloc(pf, pf_cap * sizeof *pf);
            if (!np)
                abort();
            pf = np;
        }
        long long now = now_ms();
        long timeout = 100;
        pf[0] = (struct pollfd){s->lfd, POLLIN, 0};
        pf[1] = (struct pollfd){s->wake[0], POLLIN, 0};
        for (size_t i = 0; i < s->nconns; i++) {
            sconn *c = s->conns[i];
            short ev = POLLIN;
            if (c->out_off < c->out_len)
                ev |= POLLOUT;
            if ((c->st == C_HEAD_WAIT || (c->st == C_SENDING && !c->last_queued))) {
                long d = (long)(c->due - now);
                if (d < timeout)
                    timeout = d < 0 ? 0 : d;
            }
            pf[i + 2] = (struct pollfd){c->fd, ev, 0};
        }
        size_t n = s->nconns;
        if (poll(pf, n + 2, (int)timeout) < 0 && errno != EINTR)
            break;
        now = now_ms();
        /* service existing connections (compacting the array) */
        size_t w = 0;
        for (size_t i = 0; i < n; i++) {
            sconn *c = s->conns[i];
            if (service(s, c, pf[i + 2].revents, now) < 0)
                conn_free(s, c);
            else
                s->conns[w++] = c;
        }
        for (size_t i = n; i < s->nconns; i++)
            s->conns[w++] = s->conns[i];
        s->nconns = w;
        if (pf[0].revents & POLLIN) {
            for (;;) {
                int fd = accept(s->lfd, NULL, NULL);
                if (fd < 0)
                    break;
                fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
                sconn *c = calloc(1, sizeof *c);
                if (!c)
                    abort();
                c->fd = fd;
                if (s->nconns == s->cap) {
                    s->cap = s->cap ? s->cap * 2 : 64;
                    sconn **nc = realloc(s->conns, s->cap * sizeof *nc);
                    if (!nc)
                        abort();
                    s->conns = nc;
                }
                s->conns[s->nconns++] = c;
                atomic_fetch_add(&s->accepted, 1);
                atomic_fetch_add(&s->open, 1);
            }
        }
    }
    free(pf);
    return NULL;
}

int ss_start(ss_server **out, int port, ss_handler h, void *ud)
{
    *out = NULL;
    ss_server *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    s->h = h;
    s->ud = ud;
    s->lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int one = 1;
    setsockopt(s->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons((unsigned short)port);
    socklen_t al = sizeof a;
    if (s->lfd < 0 || bind(s->lfd, (struct sockaddr *)&a, sizeof a) != 0 ||
        listen(s->lfd, 4096) != 0 || getsockname(s->lfd, (struct sockaddr *)&a, &al) != 0 ||
        pipe(s->wake) != 0) {
        if (s->lfd >= 0)
            close(s->lfd);
        free(s);
        return -1;
    }
    s->port = ntohs(a.sin_port);
    snprintf(s->url, sizeof s->url, "http://127.0.0.1:%d", s->port);
    if (pthread_create(&s->th, NULL, run, s) != 0) {
        close(s->lfd);
        close(s->wake[0]);
        close(s->wake[1]);
        free(s);
        return -1;
    }
    *out = s;
    return 0;
}

void ss_stop(ss_server *s)
{
    if (!s)
        return;
    atomic_store(&s->stop, true);
    if (write(s->wake[1], "x", 1) < 0) {
        /* the poll timeout wakes it anyway */
    }
    pthread_join(s->th, NULL);
    for (size_t i = 0; i < s->nconns; i++)
        conn_free(s, s->conns[i]);
    free(s->conns);
    close(s->lfd);
    close(s->wake[0]);
    close(s->wake[1]);
    free(s);
}

int ss_port(const ss_server *s)
{
    return s->port;
}

const char *ss_url(const ss_server *s)
{
    return s->url;
}

int ss_accepted(const ss_server *s)
{
    return atomic_load(&((ss_server *)s)->accepted);
}

int ss_open(const ss_server *s)
{
    return atomic_load(&((ss_server *)s)->open);
}
