/* test_server.h - a small scriptable HTTP/1.1 server for the runtime's transport tests.
 *
 * ts_start binds 127.0.0.1 on an ephemeral port and serves every connection on its own thread,
 * with keep-alive: each request is parsed (request line, headers, Content-Length body) and given
 * to the test's handler, which writes whatever bytes it wants (well-formed or not) through the
 * ts_* helpers and returns whether the connection stays open. The server counts the TCP
 * connections it accepted and the requests it parsed, so tests can assert keep-alive reuse.
 * ts_stop closes every socket, wakes sleeping handlers and joins all threads.
 */
#ifndef SDKRT_TEST_SERVER_H
#define SDKRT_TEST_SERVER_H

#include <stdbool.h>
#include <stddef.h>

typedef struct ts_server ts_server;
typedef struct ts_conn ts_conn;

typedef struct ts_request {
    char method[16];
    char target[2048];
    char headers[8192]; /* raw header lines, CRLF-separated */
    char *body;         /* NUL-terminated, body_len bytes */
    size_t body_len;
    int conn_index; /* 0-based index of the TCP connection it arrived on */
} ts_request;

/* Answer one request. Return 0 to keep the connection open for the next request, -1 to close
 * it. Runs on the connection's thread. */
typedef int (*ts_handler)(void *ud, const ts_request *req, ts_conn *c);

/* Start a server (0 on success). */
int ts_start(ts_server **out, ts_handler handler, void *ud);
/* Stop it: closes sockets, joins threads, frees. NULL is a no-op. */
void ts_stop(ts_server *s);
int ts_port(const ts_server *s);
/* "http://127.0.0.1:<port>" (borrowed). */
const char *ts_url(const ts_server *s);
int ts_connections(const ts_server *s);
int ts_requests(const ts_server *s);
/* Copy of the value of header name in a request (case-insensitive), or false. */
bool ts_header(const ts_request *req, const char *name, char *out, size_t cap);

/* ---- for handlers ---- */
/* Write all bytes; -1 once the peer is gone or the server stops. Counts bytes sent. */
int ts_write(ts_conn *c, const void *bytes, size_t len);
int ts_printf(ts_conn *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A whole response with Content-Length. content_type NULL sends none. */
int ts_respond(ts_conn *c, int status, const char *content_type, const void *body, size_t len);
/* Status line and headers for a chunked response ("Transfer-Encoding: chunked"). */
int ts_chunked_head(ts_conn *c, int status, const char *content_type);
/* One chunk of a chunked body (len > 0), and the terminating chunk. */
int ts_chunk(ts_conn *c, const void *bytes, size_t len);
int ts_chunk_end(ts_conn *c);
/* Sleep up to ms, returning early (-1) when the server stops. */
int ts_sleep(ts_conn *c, int ms);
/* Abort the connection with a TCP RST (SO_LINGER 0); the handler must then return -1. */
void ts_reset(ts_conn *c);
/* Bytes written on this connection so far. */
size_t ts_sent(const ts_conn *c);

/* gzip-compress (new buffer in *out, free()); 0 on success. */
int ts_gzip(const void *in, size_t len, unsigned char **out, size_t *out_len);

#endif
