/* sdkrt/client.h - a client (base URL, auth, defaults, limits, transport), unary calls and
 * server-sent-event streams.
 *
 * Thread-safety: a client may be shared by threads once created; calls on it may run
 * concurrently (the libcurl transport keeps up to max_idle_connections idle connections per
 * origin for keep-alive reuse and opens more for concurrent calls). Requests, responses, streams
 * and errors belong to one thread at a time. Cancel tokens may be triggered from any thread. Free a
 * client after every call and stream on it has finished.
 */
#ifndef SDKRT_CLIENT_H
#define SDKRT_CLIENT_H

#include "sdkrt/base.h"
#include "sdkrt/cancel.h"
#include "sdkrt/error.h"
#include "sdkrt/request.h"
#include "sdkrt/response.h"
#include "sdkrt/transport.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The API stays exported when libsdkrt is built with -fvisibility=hidden. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

typedef enum sdkrt_auth_kind {
    SDKRT_AUTH_NONE = 0,
    SDKRT_AUTH_BASIC = 1,  /* username + password -> Authorization: Basic base64(user:pass) */
    SDKRT_AUTH_BEARER = 2, /* token -> Authorization: Bearer token */
    SDKRT_AUTH_API_KEY =
        3 /* token -> the header api_key_header (an apiKey scheme: its own place) */
} sdkrt_auth_kind;

#define SDKRT_DEFAULT_MAX_RESPONSE_BYTES ((size_t)64 * 1024 * 1024)
#define SDKRT_DEFAULT_MAX_EVENT_BYTES    ((size_t)16 * 1024 * 1024)
/* Idle connections kept per origin by a libcurl transport (sdkrt_client_options). */
#define SDKRT_DEFAULT_MAX_IDLE_CONNECTIONS ((size_t)8)
/* The longest request URL sent (libcurl's own input limit): longer is INVALID_ARGUMENT. */
#define SDKRT_MAX_URL_BYTES 8000000
/* Timeouts (docs/c-sdk.md "Timeouts and retries: the defaults"). In client options 0 selects the
 * default, in call options the client's value; SDKRT_TIMEOUT_OFF turns a timeout off (any other
 * negative value is INVALID_ARGUMENT). */
#define SDKRT_TIMEOUT_OFF                (-1L)
#define SDKRT_DEFAULT_CONNECT_TIMEOUT_MS 10000L /* TCP and TLS set-up */
#define SDKRT_DEFAULT_HEAD_TIMEOUT_MS    30000L /* calls and stream opens: the response head */
#define SDKRT_DEFAULT_TIMEOUT_MS         60000L /* unary calls: the whole attempt */

/* A credential for the security schemes of a contract (all copied by sdkrt_client_new; secrets
 * are zeroed when the client is freed and never appear in any message). */
typedef struct sdkrt_credential {
    const char *scheme;   /* the contract's scheme name; NULL: any scheme of a kind it fits */
    const char *username; /* HTTP Basic (with password) */
    const char *password;
    const char *token; /* bearer token (HTTP bearer, OAuth2, OpenID Connect) or API key */
} sdkrt_credential;

/* ---- Retries (on by default: 3 attempts) ----
 *
 * A unary call (sdkrt_client_send, and the generated calls over it) is attempted again when
 * its policy allows more than one attempt, the request may be repeated safely (method GET,
 * HEAD, PUT, DELETE, OPTIONS or TRACE, or a request carrying an idempotency key) and the
 * attempt ended in a TRANSPORT or TIMEOUT error or in HTTP 408, 409, 425, 429 or 5xx.
 * A response header `x-should-retry: true` makes any status but a 2xx (a success is the result)
 * retryable, `false` none. The wait before attempt n+1 is `retry-after-ms` or `Retry-After`
 * (delay-seconds or an HTTP-date) when the response has one, capped by max_retry_after_ms; else
 * min(initial_delay_ms * 2^(n-1), max_delay_ms) less a random jitter of up to 25%. The call's
 * cancel token ends the wait (CANCELLED). Every attempt re-sends the whole request; timeout_ms
 * applies to each attempt. Streams are never retried. */
typedef struct sdkrt_retry_info {
    int attempt;         /* the attempt that just failed, from 1 */
    int max_attempts;    /* the policy's */
    long delay_ms;       /* the wait before the next attempt */
    bool server_delay;   /* delay_ms came from retry-after-ms or Retry-After */
    int status;          /* HTTP status of the failed attempt; 0 after an error */
    sdkrt_reason reason; /* TRANSPORT or TIMEOUT after an error; NONE after a status */
} sdkrt_retry_info;

#define SDKRT_RETRY_DEFAULT_MAX_ATTEMPTS       3 /* two retries */
#define SDKRT_RETRY_DEFAULT_INITIAL_DELAY_MS   500L
#define SDKRT_RETRY_DEFAULT_MAX_DELAY_MS       8000L
#define SDKRT_RETRY_DEFAULT_MAX_RETRY_AFTER_MS 60000L

typedef struct sdkrt_retry_policy {
    int max_attempts; /* attempts in all, the first included; 0 = SDKRT_RETRY_DEFAULT_MAX_ATTEMPTS
                         (3); 1 = no retry (SDKRT_RETRY_POLICY_OFF) */
    long initial_delay_ms;   /* first backoff; 0 = SDKRT_RETRY_DEFAULT_INITIAL_DELAY_MS */
    long max_delay_ms;       /* backoff cap; 0 = SDKRT_RETRY_DEFAULT_MAX_DELAY_MS */
    long max_retry_after_ms; /* cap on a server's delay; 0 = SDKRT_RETRY_DEFAULT_MAX_RETRY_AFTER_MS
                              */
    /* Called before each wait (info borrowed for the call): logging, metrics. NULL = none. */
    void (*on_retry)(void *userdata, const sdkrt_retry_info *info);
    /* Waits ms milliseconds. NULL = sdkrt_cancel_wait(cancel, ms): sleeps, woken at once when
     * cancel (may be NULL: a plain sleep) is triggered. A custom one (tests, an event loop) may
     * return early; the call checks the token after it. */
    void (*sleep)(void *userdata, long ms, const sdkrt_cancel *cancel);
    void *userdata; /* passed to on_retry and sleep */
} sdkrt_retry_policy;

#define SDKRT_RETRY_POLICY_INIT                                                                    \
    {                                                                                              \
        0, 0, 0, 0, NULL, NULL, NULL                                                               \
    }
/* One attempt: retries off (for a client, or a call through sdkrt_call_options.retry). */
#define SDKRT_RETRY_POLICY_OFF                                                                     \
    {                                                                                              \
        1, 0, 0, 0, NULL, NULL, NULL                                                               \
    }

/* The default idempotency key header, and the sdkrt_call_options.idempotency_key value that
 * asks for a new random key (a UUIDv4, one per call, the same on each of its attempts). */
#define SDKRT_IDEMPOTENCY_HEADER "Idempotency-Key"
#define SDKRT_IDEMPOTENCY_AUTO   "auto"

/* Everything is copied by sdkrt_client_new except transport (borrowed; must outlive the client). */
typedef struct sdkrt_client_options {
    const char *base_url;        /* required: http or https; a path prefix ("http://h/p") is kept */
    const sdkrt_header *headers; /* default headers for every call */
    size_t header_count;
    sdkrt_auth_kind auth;
    const char *username;    /* BASIC */
    const char *password;    /* BASIC; never appears in any message */
    const char *token;       /* BEARER; never appears in any message */
    const char *user_agent;  /* NULL = "sdkrt/<version>" */
    long connect_timeout_ms; /* 0 = SDKRT_DEFAULT_CONNECT_TIMEOUT_MS; OFF = libcurl's own (300 s) */
    long timeout_ms;         /* total per attempt of a unary call; 0 = SDKRT_DEFAULT_TIMEOUT_MS */
    long idle_timeout_ms;    /* streams: no byte for this long -> TIMEOUT; 0 = none (opt-in) */
    bool verify_tls;         /* default true */
    const char *ca_file;     /* NULL = system default */
    const char *ca_path;
    size_t max_response_bytes;        /* unary body cap; 0 = SDKRT_DEFAULT_MAX_RESPONSE_BYTES */
    size_t max_event_bytes;           /* SSE event cap; 0 = SDKRT_DEFAULT_MAX_EVENT_BYTES */
    const sdkrt_transport *transport; /* NULL = libcurl */
    /* For requests that name their security schemes (sdkrt_request_set_security): the first
     * scheme of the operation with a fitting credential authenticates it (an API key in its
     * header, query parameter or cookie; Basic; Bearer). `auth` above also fits: BASIC an http
     * basic scheme, BEARER an http bearer, oauth2 or openIdConnect scheme, API_KEY an apiKey
     * scheme. Requests that name none (a contract without schemes) carry `auth` as it is. */
    const sdkrt_credential *credentials;
    size_t credential_count;
    sdkrt_retry_policy retry; /* unary calls; default: 3 attempts (SDKRT_RETRY_POLICY_OFF: 1) */
    const char *idempotency_header; /* NULL = SDKRT_IDEMPOTENCY_HEADER */
    /* API_KEY: the header that carries the key on requests whose contract declares no security
       scheme ("X-API-Key"); operations with an apiKey scheme send it where the scheme says. NULL
       is fine when every operation names its scheme; a request that names none then fails with
       INVALID_ARGUMENT. */
    const char *api_key_header;
    /* No response head within this long of the request's last byte sent (of the attempt's
       start while connecting) -> TIMEOUT; unary calls and stream opens. 0 =
       SDKRT_DEFAULT_HEAD_TIMEOUT_MS. */
    long head_timeout_ms;
    /* Cancels every call, stream (and follower without a token of its own) of the client, as
       sdkrt_call_options.cancel does; either token fires. Borrowed: must outlive the client.
       NULL = none. */
    sdkrt_cancel *cancel;
    /* The loop that runs the client's asynchronous calls and streams (sdkrt/loop.h); borrowed:
       must outlive the client. NULL = blocking calls only. */
    struct sdkrt_loop *loop;
    /* Idle connections the client's own libcurl transport keeps per origin for keep-alive reuse
       by later calls (from any thread); 0 = SDKRT_DEFAULT_MAX_IDLE_CONNECTIONS. A transport
       given in `transport` keeps its own setting. */
    size_t max_idle_connections;
} sdkrt_client_options;

#define SDKRT_CLIENT_OPTIONS_INIT                                                                  \
    {                                                                                              \
        NULL, NULL, 0, SDKRT_AUTH_NONE, NULL, NULL, NULL, NULL, 0, 0, 0, true, NULL, NULL, 0, 0,   \
            NULL, NULL, 0, SDKRT_RETRY_POLICY_INIT, NULL, NULL, 0, NULL, NULL, 0                   \
    }

typedef struct sdkrt_client sdkrt_client;

/* Validate and copy opts into a new client (*out, owned by the caller). INVALID_ARGUMENT for a
 * base URL that does not parse, a scheme other than http/https, a base URL with a query,
 * fragment or credentials, a bad default header, BASIC without username or BEARER without
 * token, a credential with neither a token nor a username and password (or with CR or LF), a
 * negative retry setting, an idempotency header name that is not an HTTP token. */
sdkrt_status sdkrt_client_new(sdkrt_client **out, const sdkrt_client_options *opts,
                              sdkrt_error **err);
/* Release. NULL is a no-op. */
void sdkrt_client_free(sdkrt_client *client);
/* A security scheme as the environment names its secret: STEM_TOKEN, or STEM_USERNAME and
 * STEM_PASSWORD for HTTP Basic (stem "OC_BEARER_AUTH"; generated SDKs fill the table). */
typedef struct sdkrt_env_scheme {
    const char *scheme; /* the contract's scheme name */
    const char *stem;
    bool basic;
} sdkrt_env_scheme;

/* sdkrt_client_new with what the environment gives (getenv; unset and empty are the same):
 * base_url from opts, else PREFIX_BASE_URL, else default_base_url (may be NULL); a credential
 * for each scheme whose variables are set, after the options' own (which win); for a contract
 * without schemes (nschemes 0) and auth NONE, PREFIX_USERNAME (else opts->username) with
 * PREFIX_PASSWORD gives BASIC, PREFIX_TOKEN BEARER. INVALID_ARGUMENT for no base URL, or a
 * username without a password (the message names the variables, never a value). opts (may be
 * NULL) and schemes are borrowed. */
sdkrt_status sdkrt_client_new_from_env(sdkrt_client **out, const sdkrt_client_options *opts,
                                       const char *prefix, const char *default_base_url,
                                       const sdkrt_env_scheme *schemes, size_t nschemes,
                                       sdkrt_error **err);

/* The client's cancel token (sdkrt_client_options.cancel; borrowed), or NULL. */
sdkrt_cancel *sdkrt_client_cancel(const sdkrt_client *client);
/* The normalised base URL (borrowed; no trailing slash). */
const char *sdkrt_client_base_url(const sdkrt_client *client);

/* Per-call options (borrowed for the call). */
typedef struct sdkrt_call_options {
    const sdkrt_header *headers; /* override default and request headers of the same name */
    size_t header_count;
    sdkrt_cancel *cancel; /* NULL = not cancellable */
    long timeout_ms;      /* unary total / stream idle timeout; 0 = the client's; OFF = none */
    /* Called with each response's status and headers once they arrive, before the body is
       decoded (a stream: its first response): rate limits, request ids. headers is borrowed for
       the callback only; userdata is passed through. NULL = none. */
    void (*on_response)(void *userdata, int status, const sdkrt_header *headers, size_t count);
    void *userdata;
    const sdkrt_retry_policy *retry; /* NULL = the client's; borrowed for the call */
    /* Sent in the client's idempotency header (unary calls and streams): a key of the caller's,
       or SDKRT_IDEMPOTENCY_AUTO for a random UUIDv4 made once per call and kept across its
       retries. A key makes a POST or PATCH retryable. NULL = none (a key set as a request or
       call header counts too). */
    const char *idempotency_key;
    long connect_timeout_ms; /* 0 = the client's; SDKRT_TIMEOUT_OFF = libcurl's own */
    long head_timeout_ms;    /* 0 = the client's; SDKRT_TIMEOUT_OFF = none */
} sdkrt_call_options;

#define SDKRT_CALL_OPTIONS_INIT                                                                    \
    {                                                                                              \
        NULL, 0, NULL, 0, NULL, NULL, NULL, NULL, 0, 0                                             \
    }

/* Unary call. On SDKRT_OK *resp is new (owned by the caller) for ANY HTTP status; the generated
 * code maps statuses. SDKRT_ERR for transport failure, timeout, cancellation, a body above
 * max_response_bytes, an invalid argument. req and call (may be NULL) are borrowed. With a retry
 * policy (see above) the result is that of the last attempt; on_response sees every attempt's
 * response. */
sdkrt_status sdkrt_client_send(sdkrt_client *client, const sdkrt_request *req,
                               const sdkrt_call_options *call, sdkrt_response **resp,
                               sdkrt_error **err);

/* ---- Server-sent-event streams ---- */

typedef struct sdkrt_stream sdkrt_stream;

/* One event, borrowed until the next sdkrt_stream_next or sdkrt_stream_close. */
typedef struct sdkrt_stream_event {
    const char *event; /* event type; "message" by default */
    const char *data;  /* NUL-terminated; data_len bytes (may contain NUL) */
    size_t data_len;
    const char *id; /* last event id seen on the stream ("" if none) */
    bool has_id;
    long retry; /* retry field of this event in ms, or -1 */
} sdkrt_stream_event;

typedef enum sdkrt_stream_result {
    SDKRT_STREAM_ERROR = -1, /* *err set; the stream is finished (only close remains) */
    SDKRT_STREAM_END = 0,    /* the server closed cleanly at an event boundary */
    SDKRT_STREAM_EVENT = 1,  /* *event filled */
    SDKRT_STREAM_POISON =
        2 /* typed streams only (sdkrt_jstream_next_poison): an undecodable item */
} sdkrt_stream_result;

/* Prepare a cold stream (no I/O) in *out (owned by the caller; sdkrt_stream_close). The request
 * and call options are copied (the cancel token stays borrowed). Accept: text/event-stream is
 * added unless set. INVALID_ARGUMENT is reported here. */
sdkrt_status sdkrt_client_stream(sdkrt_client *client, const sdkrt_request *req,
                                 const sdkrt_call_options *call, sdkrt_stream **out,
                                 sdkrt_error **err);
/* Next event. The first call connects. A non-2xx status gives UNEXPECTED_STATUS with status,
 * content type and bounded body; a 2xx that is not text/event-stream UNSUPPORTED_CONTENT_TYPE;
 * an event above max_event_bytes EVENT_TOO_LARGE; a cut mid-event TRANSPORT; silence longer
 * than the idle timeout TIMEOUT; cancellation CANCELLED. Comments (heartbeats) are skipped.
 * After END or ERROR, further calls repeat END or return ERROR again. */
sdkrt_stream_result sdkrt_stream_next(sdkrt_stream *stream, sdkrt_stream_event *event,
                                      sdkrt_error **err);
/* HTTP status of the stream once connected, else 0. */
int sdkrt_stream_status(const sdkrt_stream *stream);
/* Release the stream and its connection at any point. NULL is a no-op. */
void sdkrt_stream_close(sdkrt_stream *stream);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
