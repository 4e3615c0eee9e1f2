/* canned_epoll.c - the canned server of the concurrency benchmark: the bodies of canned_server.c
 * (canned_shapes.h) served by one thread with epoll, so that it holds any number of open SSE
 * streams for a few hundred bytes each (a thread per connection would cost more than the
 * clients it measures). Binds 127.0.0.1 only, keep-alive, non-blocking sockets; it raises its
 * open-files limit to the hard limit.
 *   GET /api/session?limit=L[&cursor=C]  a SessionsResponse page, as canned_server.c.
 *   GET /api/session/{id}/event          a chunked text/event-stream of small durable events,
 *                                        one chunk per event; the count is the number after the
 *                                        last '_' in {id}. When {id} starts with "ses_hold" the
 *                                        stream is held (head sent, no event) in the group named
 *                                        by {id} up to its last '_' until the group's release, so
 *                                        that a client's streams are all open before any event
 *                                        flows (a held stream's body starts with the comment
 *                                        ": opened"); events then go out round-robin, one per
 *                                        stream per round (streams not held start at once).
 *   GET /bench/release?group=G           start the held streams of group G: {"released":K}.
 *   GET /bench/stats                     {"accepts":A,"requests":R,"open":O,"api_connections":
 *                                        C,"api_requests":Q}: connections accepted, requests
 *                                        served, connections open; C and Q count only /api/
 *                                        requests and the connections whose first request was
 *                                        one, so that C/Q is a client's connects per call.
 *   anything else                        404 with a JSON body.
 * Usage: canned_epoll [port] [items]; the port is printed on the first line of stdout. */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "canned_shapes.h"

enum { IN_CAP = 2048 };

typedef enum { C_READ, C_REPLY, C_HEAD, C_HELD, C_EVENTS } conn_state;

typedef struct group group;

typedef struct conn {
    int fd;
    conn_state state;
    char in[IN_CAP];
    size_t in_len;
    size_t drop;    /* request body bytes still to discard */
    char *out;      /* unsent bytes (own copy) */
    size_t out_len; /* of out */
    size_t out_off;
    int close_after;
    long long served; /* requests on this connection */
    char *session;    /* streams: the aggregate id in each event */
    long long left;
    long long seq;
    group *group;
    struct conn *prev, *next; /* in the server's ready list or a group's held list */
} conn;

struct group {
    char *key;
    long long held;
    conn *first;
    group *next;
};

typedef struct server {
    int ep;
    long long items;
    char *first_page;
    size_t first_page_len;
    conn **by_fd;
    int max_fd;
    conn *ready; /* streams with events to send and nothing unsent, round-robin */
    group *groups;
    long long accepts, requests, open, api_connections, api_requests;
    buf scratch;
} server;

static void list_push(conn **head, conn *c)
{
    c->prev = NULL;
    c->next = *head;
    if (*head)
        (*head)->prev = c;
    *head = c;
}

static void list_remove(conn **head, conn *c)
{
    if (c->prev)
        c->prev->next = c->next;
    else if (*head == c)
        *head = c->next;
    if (c->next)
        c->next->prev = c->prev;
    c->prev = c->next = NULL;
}

static void set_events(server *s, conn *c, uint32_t ev)
{
    struct epoll_event e = {.events = ev, .data.ptr = c};
    epoll_ctl(s->ep, EPOLL_CTL_MOD, c->fd, &e);
}

static void group_free(server *s, group *g)
{
    for (group **p = &s->groups; *p; p = &(*p)->next)
        if (*p == g) {
            *p = g->next;
            break;
        }
    free(g->key);
    free(g);
}

static void conn_close(server *s, conn *c)
{
    if (c->state == C_EVENTS && !c->out)
        list_remove(&s->ready, c);
    if (c->state == C_HELD && c->group) {
        list_remove(&c->group->first, c); /* the group itself goes at its release */
        c->group->held--;
    }
    epoll_ctl(s->ep, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    s->by_fd[c->fd] = NULL;
    s->open--;
    free(c->out);
    free(c->session);
    free(c);
}

/* Write what the socket takes now; keep the rest (copied) and ask for EPOLLOUT. 0, or -1 when
 * the connection is gone or out of memory. */
static int conn_send(server *s, conn *c, struct iovec *iov, int n)
{
    size_t total = 0;
    for (int i = 0; i < n; i++)
        total += iov[i].iov_len;
    ssize_t w;
    do
        w = writev(c->fd, iov, n);
    while (w < 0 && errno == EINTR);
    if (w < 0 && errno != EAGAIN)
        return -1;
    size_t done = w < 0 ? 0 : (size_t)w;
    if (done == total)
        return 0;
    c->out = malloc(total - done);
    if (!c->out)
        return -1;
    c->out_len = 0;
    c->out_off = 0;
    size_t skip = done;
    for (int i = 0; i < n; i++) {
        size_t take = skip < iov[i].iov_len ? skip : iov[i].iov_len;
        skip -= take;
        memcpy(c->out + c->out_len, (char *)iov[i].iov_base + take, iov[i].iov_len - take);
        c->out_len += iov[i].iov_len - take;
    }
    set_events(s, c, EPOLLIN | EPOLLOUT);
    return 0;
}

static int send_response(server *s, conn *c, int status, const char *body, size_t len)
{
    char head[256];
    int n = snprintf(head, sizeof head,
                     "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %zu\r\n"
                     "Connection: keep-alive\r\n\r\n",
                     status, status == 200 ? "OK" : "Not Found", len);
    if (n < 0 || (size_t)n >= sizeof head)
        return -1;
    struct iovec iov[2] = {{head, (size_t)n}, {(void *)body, len}};
    c->state = C_REPLY;
    return conn_send(s, c, iov, 2);
}

/* The stream's head is out: hold it in its group, or send events now. */
static void stream_head_sent(server *s, conn *c)
{
    if (!c->group) {
        c->state = C_EVENTS;
        list_push(&s->ready, c);
        return;
    }
    c->state = C_HELD;
    list_push(&c->group->first, c);
    c->group->held++;
}

/* Start every held stream of the group named key; how many (-1: no such group). */
static long long release_group(server *s, const char *key)
{
    group *g = s->groups;
    while (g && strcmp(g->key, key) != 0)
        g = g->next;
    if (!g)
        return -1;
    long long k = 0;
    while (g->first) {
        conn *m = g->first;
        list_remove(&g->first, m);
        m->group = NULL;
        m->state = C_EVENTS;
        list_push(&s->ready, m);
        k++;
    }
    for (int fd = 0; fd < s->max_fd; fd++) /* heads still going out start when they are out */
        if (s->by_fd[fd] && s->by_fd[fd]->group == g)
            s->by_fd[fd]->group = NULL;
    group_free(s, g);
    return k;
}

static int start_stream(server *s, conn *c, const char *session)
{
    static const char head[] = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                               "Cache-Control: no-cache\r\nTransfer-Encoding: chunked\r\n"
                               "Connection: keep-alive\r\n\r\n";
    const char *us = strrchr(session, '_');
    c->left = us ? strtoll(us + 1, NULL, 10) : 0;
    if (c->left < 0)
        c->left = 0;
    c->seq = 0;
    free(c->session);
    c->session = strdup(session);
    if (!c->session)
        return -1;
    c->group = NULL;
    if (strncmp(session, "ses_hold", 8) == 0 && us) {
        size_t kl = (size_t)(us - session);
        group *g = s->groups;
        while (g && (strlen(g->key) != kl || strncmp(g->key, session, kl) != 0))
            g = g->next;
        if (!g) {
            g = calloc(1, sizeof *g);
            if (!g || !(g->key = strndup(session, kl))) {
                free(g);
                return -1;
            }
            g->next = s->groups;
            s->groups = g;
        }
        c->group = g;
    }
    /* A held stream opens with an SSE comment, as servers that hold streams open do: a client
     * that reports a stream open at its first body bytes sees it open too. */
    static const char opened[] = "a\r\n: opened\n\n\r\n";
    struct iovec iov[2] = {{(void *)head, sizeof head - 1}, {(void *)opened, sizeof opened - 1}};
    c->state = C_HEAD;
    if (conn_send(s, c, iov, c->group ? 2 : 1) != 0)
        return -1;
    if (!c->out)
        stream_head_sent(s, c);
    return 0;
}

static int handle(server *s, conn *c, char *target)
{
    s->requests++;
    if (strncmp(target, "/api/", 5) == 0) {
        s->api_requests++;
        s->api_connections += c->served == 0;
    }
    c->served++;
    char *query = strchr(target, '?');
    if (query)
        *query++ = '\0';
    if (strcmp(target, "/api/session") == 0) {
        char v[64];
        long long limit = 100, offset = 0;
        if (query && query_param(query, "limit", v, sizeof v) == 0)
            limit = (long long)strtod(v, NULL);
        if (query && query_param(query, "cursor", v, sizeof v) == 0 && strncmp(v, "off.", 4) == 0)
            offset = strtoll(v + 4, NULL, 10);
        if (limit <= 0 || limit > 1000)
            limit = 100;
        if (offset < 0 || offset > s->items)
            offset = s->items;
        if (offset == 0 && limit == 100)
            return send_response(s, c, 200, s->first_page, s->first_page_len);
        s->scratch.len = 0;
        if (render_page(&s->scratch, offset, limit, s->items) != 0)
            return -1;
        return send_response(s, c, 200, s->scratch.data, s->scratch.len);
    }
    if (strcmp(target, "/bench/release") == 0) {
        char key[IN_CAP], body[64];
        long long k =
            query && query_param(query, "group", key, sizeof key) == 0 ? release_group(s, key) : -1;
        int n = snprintf(body, sizeof body, "{\"released\":%lld}", k);
        return send_response(s, c, k < 0 ? 404 : 200, body, (size_t)n);
    }
    if (strcmp(target, "/bench/stats") == 0) {
        char body[256];
        int n = snprintf(body, sizeof body,
                         "{\"accepts\":%lld,\"requests\":%lld,\"open\":%lld,"
                         "\"api_connections\":%lld,\"api_requests\":%lld}",
                         s->accepts, s->requests, s->open, s->api_connections, s->api_requests);
        return send_response(s, c, 200, body, (size_t)n);
    }
    static const char prefix[] = "/api/session/";
    size_t pl = sizeof prefix - 1;
    size_t tl = strlen(target);
    if (strncmp(target, prefix, pl) == 0 && tl > pl + 6 && strcmp(target + tl - 6, "/event") == 0) {
        target[tl - 6] = '\0';
        return start_stream(s, c, target + pl);
    }
    static const char nf[] = "{\"_tag\":\"NotFound\",\"message\":\"no such route\"}";
    return send_response(s, c, 404, nf, sizeof nf - 1);
}

/* Serve the requests in c->in while the connection is reading. -1: close it. */
static int serve_input(server *s, conn *c)
{
    while (c->state == C_READ) {
        if (c->drop) {
            size_t d = c->drop < c->in_len ? c->drop : c->in_len;
            memmove(c->in, c->in + d, c->in_len - d);
            c->in_len -= d;
            c->drop -= d;
            if (c->drop)
                return 0;
        }
        char *end = find_blank_line(c->in, c->in_len);
        if (!end)
            return c->in_len == IN_CAP ? -1 : 0;
        size_t head_len = (size_t)(end - c->in) + 4;
        *end = '\0';
        size_t body = 0;
        c->close_after = 0;
        for (char *line = strstr(c->in, "\r\n"); line; line = strstr(line + 2, "\r\n")) {
            if (strncasecmp(line + 2, "connection: close", 17) == 0)
                c->close_after = 1;
            if (strncasecmp(line + 2, "content-length:", 15) == 0)
                body = (size_t)strtoull(line + 17, NULL, 10);
        }
        char *sp1 = strchr(c->in, ' ');
        char *sp2 = sp1 ? strchr(sp1 + 1, ' ') : NULL;
        if (!sp2)
            return -1;
        *sp2 = '\0';
        char target[IN_CAP];
        memcpy(target, sp1 + 1, (size_t)(sp2 - sp1));
        memmove(c->in, c->in + head_len, c->in_len - head_len);
        c->in_len -= head_len;
        c->drop = body;
        if (handle(s, c, target) != 0)
            return -1;
        if (c->state == C_REPLY && !c->out) {
            if (c->close_after)
                return -1;
            c->state = C_READ;
        }
    }
    return 0;
}

/* One event of a ready stream (and the stream's end after its last one). -1: close it. */
static int send_event(server *s, conn *c)
{
    char eid[27], mid[27];
    long long k = c->seq;
    make_id(eid, (unsigned long long)(k % 200) * 2);
    make_id(mid, (unsigned long long)(k % 200) * 2 + 1);
    s->scratch.len = 0;
    if (buf_printf(&s->scratch, EVENT_HEAD, eid, c->session) != 0 ||
        buf_printf(&s->scratch, EVENT_TAIL, SEQ_BASE + k + 1, 1795312829363LL + k % 200, c->session,
                   mid) != 0)
        return -1;
    char head[32];
    int h = snprintf(head, sizeof head, "%zx\r\n", s->scratch.len);
    c->seq++;
    c->left--;
    static const char tail[] = "\r\n0\r\n\r\n";
    struct iovec iov[3] = {{head, (size_t)h},
                           {s->scratch.data, s->scratch.len},
                           {(void *)tail, c->left > 0 ? 2 : sizeof tail - 1}};
    list_remove(&s->ready, c);
    if (conn_send(s, c, iov, 3) != 0)
        return -1;
    if (c->out)
        return 0;
    if (c->left > 0) {
        list_push(&s->ready, c);
        return 0;
    }
    c->state = C_READ;
    return serve_input(s, c);
}

/* Everything unsent went out: carry on from the state it was sent in. -1: close. */
static int flushed(server *s, conn *c)
{
    free(c->out);
    c->out = NULL;
    set_events(s, c, EPOLLIN);
    switch (c->state) {
    case C_REPLY:
        if (c->close_after)
            return -1;
        c->state = C_READ;
        return serve_input(s, c);
    case C_HEAD:
        stream_head_sent(s, c);
        return 0;
    case C_EVENTS:
        if (c->left > 0) {
            list_push(&s->ready, c);
            return 0;
        }
        c->state = C_READ;
        return serve_input(s, c);
    default:
        return 0;
    }
}

static int on_event(server *s, conn *c, uint32_t ev)
{
    if (ev & EPOLLOUT && c->out) {
        ssize_t w = send(c->fd, c->out + c->out_off, c->out_len - c->out_off, MSG_NOSIGNAL);
        if (w < 0 && errno != EAGAIN && errno != EINTR)
            return -1;
        if (w > 0)
            c->out_off += (size_t)w;
        if (c->out_off == c->out_len && flushed(s, c) != 0)
            return -1;
    }
    if (ev & (EPOLLIN | EPOLLHUP | EPOLLERR)) {
        if (c->in_len == IN_CAP) /* a client sending while its stream runs: drop it */
            c->in_len = 0;
        ssize_t r = recv(c->fd, c->in + c->in_len, IN_CAP - c->in_len, 0);
        if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR))
            return -1;
        if (r > 0) {
            c->in_len += (size_t)r;
            if (c->state == C_READ)
                return serve_input(s, c);
        }
    }
    return 0;
}

static void accept_all(server *s, int ls)
{
    static const int one = 1;
    for (;;) {
        int fd = accept4(ls, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno != EAGAIN && errno != EINTR && errno != ECONNABORTED)
                perror("canned_epoll: accept");
            return;
        }
        conn *c = fd < s->max_fd ? calloc(1, sizeof *c) : NULL;
        if (!c) {
            fprintf(stderr, "canned_epoll: connection %d refused (limit or memory)\n", fd);
            close(fd);
            continue;
        }
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        c->fd = fd;
        c->state = C_READ;
        struct epoll_event e = {.events = EPOLLIN, .data.ptr = c};
        if (epoll_ctl(s->ep, EPOLL_CTL_ADD, fd, &e) != 0) {
            close(fd);
            free(c);
            continue;
        }
        s->by_fd[fd] = c;
        s->accepts++;
        s->open++;
    }
}

int main(int argc, char **argv)
{
    int port = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 0;
    server s = {.items = argc > 2 ? strtoll(argv[2], NULL, 10) : 100000};
    signal(SIGPIPE, SIG_IGN);
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    getrlimit(RLIMIT_NOFILE, &rl);
    s.max_fd = rl.rlim_cur > 1 << 20 ? 1 << 20 : (int)rl.rlim_cur;
    s.by_fd = calloc((size_t)s.max_fd, sizeof *s.by_fd);
    buf first = {0};
    if (!s.by_fd || render_page(&first, 0, 100, s.items) != 0) {
        fprintf(stderr, "canned_epoll: out of memory\n");
        return 1;
    }
    s.first_page = first.data;
    s.first_page_len = first.len;

    int ls = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int one = 1;
    setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in addr = {0};
    addr.sin_family = AF_INET;
    addr.sin_port = htons((unsigned short)port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (ls < 0 || bind(ls, (struct sockaddr *)&addr, sizeof addr) != 0 || listen(ls, 4096) != 0) {
        perror("canned_epoll: bind 127.0.0.1");
        return 1;
    }
    socklen_t al = sizeof addr;
    getsockname(ls, (struct sockaddr *)&addr, &al);
    s.ep = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event le = {.events = EPOLLIN, .data.ptr = NULL};
    if (s.ep < 0 || epoll_ctl(s.ep, EPOLL_CTL_ADD, ls, &le) != 0) {
        perror("canned_epoll: epoll");
        return 1;
    }
    printf("%d\n", ntohs(addr.sin_port));
    fflush(stdout);
    enum { BATCH = 256 };
    struct epoll_event evs[BATCH];
    for (;;) {
        int n = epoll_wait(s.ep, evs, BATCH, s.ready ? 0 : -1);
        if (n < 0 && errno != EINTR) {
            perror("canned_epoll: epoll_wait");
            return 1;
        }
        for (int i = 0; i < n; i++) {
            conn *c = evs[i].data.ptr;
            if (!c)
                accept_all(&s, ls);
            else if (on_event(&s, c, evs[i].events) != 0)
                conn_close(&s, c);
        }
        /* One round: an event to every ready stream (pushed to the front, so take the list). */
        conn *round = s.ready;
        s.ready = NULL;
        while (round) {
            conn *c = round;
            round = c->next;
            if (round)
                round->prev = NULL;
            c->prev = c->next = NULL;
            list_push(&s.ready, c);
            if (send_event(&s, c) != 0)
                conn_close(&s, c);
        }
    }
}
