/* sdkrt/transport.h - the transport interface, and the in-memory transport.
 *
 * A transport moves one fully prepared request (sdkrt_transport_request: method, absolute URL,
 * the final header set, body, limits, cancel token) and returns either a whole response (send) or
 * the response head plus a body reader pulled on demand (open, for streams). Two come with the
 * runtime: libcurl (the default, built by the client itself when sdkrt_client_options.transport
 * is NULL) and in-memory (a handler function answers; for tests and for embedding a server in the
 * same process). libcurl types never appear in the public API.
 *
 * Error messages from a transport describe the cause ("connection refused"); the client prepends
 * "METHOD URL: ". A transport must honour max_response_bytes (RESPONSE_TOO_LARGE), the cancel
 * token (CANCELLED) and the timeouts (TIMEOUT) as far as it can.
 *
 * Thread-safety: a transport's send/open may be called from several threads at once (one per
 * call); a body reader is used by one thread at a time.
 */
#ifndef SDKRT_TRANSPORT_H
#define SDKRT_TRANSPORT_H

#include "sdkrt/base.h"
#include "sdkrt/cancel.h"
#include "sdkrt/error.h"
#include "sdkrt/response.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The API stays exported when libsdkrt is built with -fvisibility=hidden. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* Everything borrowed for the duration of the call. */
typedef struct sdkrt_transport_request {
    const char *method;
    const char *url;    /* absolute, without credentials: "http://127.0.0.1:4096/api/x?a=1" */
    const char *target; /* the URL's path and query: "/api/x?a=1" (base path prefix included) */
    const sdkrt_header *headers; /* final set: defaults, auth, user agent, request, call */
    size_t header_count;
    const void *body; /* NULL when there is no body */
    size_t body_len;
    long connect_timeout_ms;   /* 0 = transport default */
    long timeout_ms;           /* total for send; 0 = none. Not applied to open. */
    long idle_timeout_ms;      /* open: no byte for this long -> TIMEOUT; 0 = none */
    size_t max_response_bytes; /* send: body cap; 0 = none */
    bool verify_tls;
    const char *ca_file; /* NULL = system default */
    const char *ca_path;
    const sdkrt_cancel *cancel; /* NULL = not cancellable */
    /* multipart/form-data body for the libcurl transport, which builds it with curl's mime API
     * (file parts read while sending); then body is NULL and no Content-Type header is in the
     * list. Other transports always get the serialised bytes in body and this is NULL. */
    const struct sdkrt_multipart *multipart;
    /* send and open: no response head within this long of the request's last byte sent (of the
       start while connecting) -> TIMEOUT; 0 = none. */
    long head_timeout_ms;
} sdkrt_transport_request;

/* A body pulled on demand. read fills up to cap bytes into buf, blocking until at least one
 * byte, the end (SDKRT_OK with *n == 0), an error (cut -> TRANSPORT), the idle timeout
 * (TIMEOUT) or cancellation (CANCELLED). close releases everything (the connection too); it is
 * called exactly once, also after an error. */
typedef struct sdkrt_body_reader_ops {
    sdkrt_status (*read)(void *self, void *buf, size_t cap, size_t *n, sdkrt_error **err);
    void (*close)(void *self);
} sdkrt_body_reader_ops;

typedef struct sdkrt_body_reader {
    const sdkrt_body_reader_ops *ops;
    void *self;
} sdkrt_body_reader;

typedef struct sdkrt_transport_ops {
    /* Unary: on SDKRT_OK *out is a new response (any HTTP status) with the whole body. */
    sdkrt_status (*send)(void *self, const sdkrt_transport_request *req, sdkrt_response **out,
                         sdkrt_error **err);
    /* Stream: on SDKRT_OK *head is a new response with status and headers (empty body) and
     * *reader is open (the caller closes it). On SDKRT_ERR nothing needs closing. */
    sdkrt_status (*open)(void *self, const sdkrt_transport_request *req, sdkrt_response **head,
                         sdkrt_body_reader *reader, sdkrt_error **err);
    /* Release the transport's state (called by sdkrt_transport_free). May be NULL. */
    void (*destroy)(void *self);
} sdkrt_transport_ops;

/* A transport: an ops table and its state. Custom transports fill this in themselves. */
typedef struct sdkrt_transport {
    const sdkrt_transport_ops *ops;
    void *self;
} sdkrt_transport;

/* Release a transport created by an sdkrt_*_transport_new function: ops->destroy(self), then the
 * struct. Every client using it must be freed first. NULL is a no-op. */
void sdkrt_transport_free(sdkrt_transport *t);

/* The libcurl transport as a standalone object (clients create their own when
 * options.transport is NULL, so this is only needed to share one among clients). It keeps up to
 * SDKRT_DEFAULT_MAX_IDLE_CONNECTIONS idle connections per origin for reuse (keep-alive);
 * concurrent calls get extra connections. Out of file descriptors is a TRANSPORT error that
 * says so. The first one
 * does libcurl's global init (once, thread-safe) when the program did not call
 * sdkrt_global_init. *out is new (sdkrt_transport_free). */
sdkrt_status sdkrt_curl_transport_new(sdkrt_transport **out, sdkrt_error **err);

/* ---- In-memory transport ---- */

/* What the handler sees (all borrowed for the handler call). */
typedef struct sdkrt_memory_request {
    const char *method;
    const char *target; /* exact path and query bytes, e.g. "/api/session/a%2Fb?x=1&x=2" */
    const char *url;    /* the absolute URL the client built */
    const sdkrt_header *headers;
    size_t header_count;
    const void *body; /* NULL without a body */
    size_t body_len;
    const sdkrt_cancel *cancel; /* the call's token, or NULL: a slow handler may poll it */
} sdkrt_memory_request;

/* The response the handler fills (opaque; only through the calls below). Defaults: status 200,
 * no headers, empty body. */
typedef struct sdkrt_memory_response sdkrt_memory_response;

/* Pull callback for a streamed body: fill up to cap bytes into buf and set *n; *n == 0 ends the
 * body. Return 0, or -1 to end the body with a TRANSPORT error (a cut). Called on the thread that
 * reads the stream; may block, polling cancel (may be NULL). */
typedef int (*sdkrt_memory_pull_fn)(void *userdata, const sdkrt_cancel *cancel, void *buf,
                                    size_t cap, size_t *n);

/* Handler: fill resp. Return 0, or -1 to fail the call with a TRANSPORT error ("connection
 * refused" by the in-memory server). Called on the calling thread, possibly from several at once
 * when several threads call. */
typedef int (*sdkrt_memory_handler)(void *userdata, const sdkrt_memory_request *req,
                                    sdkrt_memory_response *resp);

void sdkrt_memory_response_set_status(sdkrt_memory_response *resp, int status);
/* Header name and value copied. */
sdkrt_status sdkrt_memory_response_add_header(sdkrt_memory_response *resp, const char *name,
                                              const char *value);
/* Append body bytes (copied) as one chunk: a stream read returns at most one chunk, so a list of
 * chunks scripts exactly how the bytes arrive. */
sdkrt_status sdkrt_memory_response_add_chunk(sdkrt_memory_response *resp, const void *bytes,
                                             size_t len);
/* Pull callback used after the chunks; free_fn (may be NULL) releases userdata with the
 * response. */
void sdkrt_memory_response_set_pull(sdkrt_memory_response *resp, sdkrt_memory_pull_fn pull,
                                    void *userdata, void (*free_fn)(void *));
/* After the chunks (and the pull callback), end with an error of that reason instead of a clean
 * end: TRANSPORT simulates a connection cut mid-body. message is copied (NULL: "connection
 * closed mid-body"). */
void sdkrt_memory_response_end_with_error(sdkrt_memory_response *resp, sdkrt_reason reason,
                                          const char *message);

/* New in-memory transport in *out (sdkrt_transport_free or sdkrt_memory_transport_free).
 * handler and userdata are borrowed for the transport's life. Sends apply max_response_bytes and
 * the cancel token (checked before the handler and between chunks). */
sdkrt_status sdkrt_memory_transport_new(sdkrt_transport **out, sdkrt_memory_handler handler,
                                        void *userdata);
/* Same as sdkrt_transport_free. */
void sdkrt_memory_transport_free(sdkrt_transport *t);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
