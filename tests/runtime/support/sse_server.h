/* sse_server.h - a single-threaded (poll) HTTP/1.1 server of scripted event streams, for the
 * asynchronous stream tests: one thread serves any number of connections (the 1,000-stream soak),
 * a reply can wait before its head, trickle its events, end cleanly, be cut mid-stream or stay
 * open, and a server can be stopped and started again on the same port (a follower across a
 * restart). Bodies are chunked; every connection closes after its one response. */
#ifndef SDKRT_TEST_SSE_SERVER_H
#define SDKRT_TEST_SSE_SERVER_H

#include <stddef.h>

typedef enum ss_end {
    SS_END_CLEAN = 0, /* the terminating chunk, then close */
    SS_END_CUT,       /* close without the terminating chunk (a cut body) */
    SS_END_HOLD       /* send nothing more; keep the connection until the client or stop */
} ss_end;

/* What to answer. The handler fills it; body is malloc'd and freed by the server. */
typedef struct ss_reply {
    int status;               /* default 200 */
    const char *content_type; /* default "text/event-stream"; static string */
    long head_delay_ms;       /* wait this long before the head */
    char *body;               /* the body's bytes (may be NULL) */
    size_t body_len;
    size_t body_cap;
    long gap_ms; /* > 0: send the body one event (up to a blank line) at a time, this far apart */
    ss_end end;
} ss_reply;

/* Called on the server's thread for each request with its target ("/path?query") and raw header
 * lines. */
typedef void (*ss_handler)(void *ud, const char *target, const char *headers, ss_reply *r);

typedef struct ss_server ss_server;

/* Start on 127.0.0.1:port (0: a free one). 0 on success. */
int ss_start(ss_server **out, int port, ss_handler h, void *ud);
/* Stop: every connection is closed (cut), the thread joined. NULL is a no-op. */
void ss_stop(ss_server *s);
int ss_port(const ss_server *s);
/* "http://127.0.0.1:<port>" (borrowed). */
const char *ss_url(const ss_server *s);
/* Connections accepted so far, and connections open now. */
int ss_accepted(const ss_server *s);
int ss_open(const ss_server *s);

/* The integer value of query parameter name in target, or dflt. */
long ss_query_long(const char *target, const char *name, long dflt);
/* printf into a reply's body (appends). */
void ss_body_printf(ss_reply *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
