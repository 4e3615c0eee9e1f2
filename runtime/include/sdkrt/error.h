/* sdkrt/error.h - the one error value of libsdkrt (and of the SDKs generated on it).
 *
 * An error is either CLIENT (something went wrong on this side of the API contract: transport,
 * timeout, cancel, a response the client cannot use, a bad argument) with a reason, or DOMAIN (the
 * server answered with an error the contract declares; generated code sets a tag such as
 * "SessionNotFoundError" and a typed payload). Messages name what failed and where (method and
 * URL) and never contain a password, a token or an Authorization header.
 *
 * Errors are plain heap objects: not shared, not thread-safe; pass them between threads freely
 * but use one from one thread at a time.
 *
 * The `sdkrt_error **err` out parameter follows GLib's GError rules:
 *   - err may be NULL: the caller does not want details (the function still fails).
 *   - Otherwise *err must be NULL on entry. On failure the function stores one new error, owned by
 *     the caller, who releases it with sdkrt_error_free (or sdkrt_error_clear, which also resets
 *     the variable to NULL so that it can be passed again).
 *   - The library never frees or overwrites a non-NULL *err: if *err already holds an error (a
 *     caller that reuses a variable without clearing it), the first error is kept untouched and
 *     the new one is discarded, as g_set_error does. The call still returns its failure code.
 */
#ifndef SDKRT_ERROR_H
#define SDKRT_ERROR_H

#include <stdarg.h>
#include <stddef.h>

#include <jansson.h>

#include "sdkrt/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The API stays exported when libsdkrt is built with -fvisibility=hidden. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

typedef enum sdkrt_kind {
    SDKRT_ERROR_CLIENT = 1, /* see sdkrt_error_reason */
    SDKRT_ERROR_DOMAIN = 2  /* see sdkrt_error_tag / sdkrt_error_payload */
} sdkrt_kind;

typedef enum sdkrt_reason {
    SDKRT_REASON_NONE = 0,                 /* DOMAIN errors */
    SDKRT_REASON_TRANSPORT,                /* connect failure, reset, cut stream, TLS, DNS */
    SDKRT_REASON_TIMEOUT,                  /* connect, total (unary) or idle (stream) timeout */
    SDKRT_REASON_CANCELLED,                /* the call's cancel token was triggered */
    SDKRT_REASON_UNEXPECTED_STATUS,        /* an HTTP status the contract does not declare */
    SDKRT_REASON_UNSUPPORTED_CONTENT_TYPE, /* e.g. text/html where JSON was expected */
    SDKRT_REASON_MALFORMED_RESPONSE,       /* the body does not decode as the contract says */
    SDKRT_REASON_INVALID_ARGUMENT,         /* a bad option, path parameter, header, ... */
    SDKRT_REASON_RESPONSE_TOO_LARGE,       /* body above max_response_bytes */
    SDKRT_REASON_EVENT_TOO_LARGE,          /* one SSE event above max_event_bytes */
    SDKRT_REASON_OUT_OF_MEMORY
} sdkrt_reason;

/* How much of a response body an error keeps for diagnostics. */
#define SDKRT_ERROR_BODY_MAX (64u * 1024u)

typedef struct sdkrt_error sdkrt_error;

/* Destructor of a DOMAIN payload. */
typedef void (*sdkrt_payload_free_fn)(void *payload);

/* "TRANSPORT", "TIMEOUT", ... ("NONE" for 0, "UNKNOWN" outside the enum). Static string. */
const char *sdkrt_reason_name(sdkrt_reason reason);

/* Create a CLIENT error with a printf message and store it in *err (new, owned by the caller)
 * when err is not NULL and *err is NULL; when *err already holds an error, that error is kept
 * and nothing is created. Always returns SDKRT_ERR so callers can
 * `return sdkrt_error_set(err, ...)`. The message gets " (REASON)" appended. If memory runs out,
 * *err receives a static OUT_OF_MEMORY error that sdkrt_error_free accepts. */
sdkrt_status sdkrt_error_set(sdkrt_error **err, sdkrt_reason reason, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
sdkrt_status sdkrt_error_setv(sdkrt_error **err, sdkrt_reason reason, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

/* Create a DOMAIN error: HTTP status, tag (copied, e.g. "SessionNotFoundError"), payload (stolen:
 * released with free_fn by sdkrt_error_free, also when this function fails), message (copied;
 * NULL gives "HTTP <status> <tag>"). *out is new, owned by the caller. Returns SDKRT_OK when the
 * new error was stored in *out; SDKRT_ERR when out of memory (then *out is the static
 * OUT_OF_MEMORY error), or when out is NULL or *out already holds an error (then *out is left
 * as it was and the payload is released at once). */
sdkrt_status sdkrt_error_new_domain(sdkrt_error **out, int status, const char *tag, void *payload,
                                    sdkrt_payload_free_fn free_fn, const char *message);

/* Release an error and its payload. NULL is a no-op. */
void sdkrt_error_free(sdkrt_error *err);

/* Release *err and set it to NULL, so the variable can be passed to another call. err NULL or
 * *err NULL is a no-op. */
void sdkrt_error_clear(sdkrt_error **err);

/* Hand src (stolen) to the caller's *dest under the rules above: stored when dest is not NULL and
 * *dest is NULL, otherwise released (the first error is kept). src NULL is a no-op. */
void sdkrt_error_propagate(sdkrt_error **dest, sdkrt_error *src);

/* A new copy of err (owned by the caller; sdkrt_error_free): kind, reason, status, message,
 * content type, body, tag, raw JSON and the DOMAIN payload of the runtime's typed calls and
 * streams (decoded again from the raw JSON; a payload set by other code through
 * sdkrt_error_new_domain is not copied: sdkrt_error_payload of the copy is then NULL). What an
 * asynchronous callback uses to keep the error it borrows. Out of memory gives the static
 * OUT_OF_MEMORY error (sdkrt_error_free accepts it). NULL gives NULL. */
sdkrt_error *sdkrt_error_copy(const sdkrt_error *err);

/* Accessors (all borrowed, valid until sdkrt_error_free; err may not be NULL). */
sdkrt_kind sdkrt_error_kind(const sdkrt_error *err);
sdkrt_reason sdkrt_error_reason(const sdkrt_error *err);      /* NONE for DOMAIN */
int sdkrt_error_status(const sdkrt_error *err);               /* HTTP status, 0 if none */
const char *sdkrt_error_message(const sdkrt_error *err);      /* never NULL */
const char *sdkrt_error_content_type(const sdkrt_error *err); /* NULL if none */
/* The first SDKRT_ERROR_BODY_MAX bytes of the response body (NUL-terminated), or NULL. *len (if
 * len not NULL) gets the kept length; sdkrt_error_body_truncated tells whether more was cut. */
const char *sdkrt_error_body(const sdkrt_error *err, size_t *len);
bool sdkrt_error_body_truncated(const sdkrt_error *err);
const char *sdkrt_error_tag(const sdkrt_error *err); /* DOMAIN tag, NULL for CLIENT */
void *sdkrt_error_payload(const sdkrt_error *err);   /* DOMAIN payload (borrowed), or NULL */
/* The JSON a DOMAIN error came with, as received (borrowed), or NULL: the error body of a
 * declared error status, or the Cause array of a stream failure frame. When the JSON does not
 * decode as the type the contract declares (a stream failure whose cause carries an undeclared
 * error), sdkrt_error_payload is NULL and this is the only view of it. */
const json_t *sdkrt_error_raw_payload(const sdkrt_error *err);

/* Setters used by the runtime and generated code. Strings and bodies are copied (a body beyond
 * SDKRT_ERROR_BODY_MAX is cut and marked truncated). They are no-ops on the static
 * OUT_OF_MEMORY error and keep the old value when memory runs out (diagnostics are best effort). */
void sdkrt_error_set_status(sdkrt_error *err, int status);
void sdkrt_error_set_content_type(sdkrt_error *err, const char *content_type);
void sdkrt_error_set_body(sdkrt_error *err, const void *body, size_t len);
/* Replace the DOMAIN payload (stolen; the old one is released; on a CLIENT error or the static
 * OUT_OF_MEMORY error the payload is released at once). */
void sdkrt_error_set_payload(sdkrt_error *err, void *payload, sdkrt_payload_free_fn free_fn);
/* Replace the raw JSON of a DOMAIN error (raw: a reference, stolen; the old one is released; on a
 * CLIENT error or the static OUT_OF_MEMORY error it is released at once). */
void sdkrt_error_set_raw_payload(sdkrt_error *err, json_t *raw);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
