/* sdkrt/request.h - an HTTP request under construction: method, path template and parameters,
 * query, headers, body.
 *
 * Encoding rules (exact bytes; see docs/runtime.md):
 * - Path parameters replace `{name}` in the template and are percent-encoded as one segment:
 *   every byte except the unreserved set ALPHA DIGIT - . _ ~ becomes %XX (upper-case hex), so
 *   `/`, `?`, `#`, `%`, spaces, `..` tricks and UTF-8 can never change the path's shape. A value
 *   of "." or ".." (which would be dot segments) is refused as INVALID_ARGUMENT, as is an empty
 *   value.
 * - Query names and values use the same rule (space is %20, never '+'), joined as name=value
 *   with '&', in the order added. Arrays (form style, explode) repeat the key.
 * - deepObject: name[prop]=value, with the brackets sent literally encoded as %5B and %5D
 *   (name%5Bprop%5D=value), name and prop percent-encoded.
 *
 * A request records the first invalid argument (a header name or value with CR, LF or NUL, a
 * header name that is not an HTTP token, an unknown path parameter, a bad template); the setter
 * returns SDKRT_ERR and the later send fails with INVALID_ARGUMENT and that message. A missing
 * path parameter is detected at send. Requests are not thread-safe; one request may be sent
 * many times (by one thread at a time).
 */
#ifndef SDKRT_REQUEST_H
#define SDKRT_REQUEST_H

#include <jansson.h>

#include "sdkrt/base.h"
#include "sdkrt/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The API stays exported when libsdkrt is built with -fvisibility=hidden. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

typedef struct sdkrt_request sdkrt_request;

/* New request in *out (owned by the caller; sdkrt_request_free). method ("GET", "POST", ...)
 * and path_template ("/api/session/{sessionID}", relative to the client's base URL; must start
 * with '/') are copied. SDKRT_ERR only when out of memory or an argument is NULL (*out is then
 * NULL); a malformed template or method is recorded and reported at send. */
sdkrt_status sdkrt_request_new(sdkrt_request **out, const char *method, const char *path_template);
/* Release. NULL is a no-op. */
void sdkrt_request_free(sdkrt_request *req);

/* Set path parameter `name` (must appear as {name} in the template) to value (copied; encoded
 * as one segment at send). Setting it again replaces the value. */
sdkrt_status sdkrt_request_set_path_param(sdkrt_request *req, const char *name, const char *value);
/* Append name=value to the query (copied; repeatable for exploded arrays). */
sdkrt_status sdkrt_request_add_query(sdkrt_request *req, const char *name, const char *value);
/* Append name[prop]=value (deepObject style; copied). */
sdkrt_status sdkrt_request_add_query_deep(sdkrt_request *req, const char *name, const char *prop,
                                          const char *value);
/* Set a header (copied; replaces a previous one of the same name, case-insensitively). These
 * override the client's default headers; call options override these. A value with CR, LF or
 * NUL, or a name that is not an HTTP token, is refused (INVALID_ARGUMENT, recorded). */
sdkrt_status sdkrt_request_set_header(sdkrt_request *req, const char *name, const char *value);
/* Body bytes (copied) with their content type (copied; e.g. "application/json"). */
sdkrt_status sdkrt_request_set_body(sdkrt_request *req, const char *content_type, const void *bytes,
                                    size_t len);
/* JSON body: json is stolen (its reference released, also on failure) and serialised compactly
 * at once; content type application/json. */
sdkrt_status sdkrt_request_set_json_body(sdkrt_request *req, json_t *json);

/* The header in which the operation's contract declares an idempotency key (copied;
 * "Idempotency-Key", "X-Idempotency-Key"). A unary call of such a request without that header
 * (and without sdkrt_call_options.idempotency_key) sends a new random key in it, the same on
 * every attempt, so a POST or PATCH is retried safely; a key given in the call goes there too,
 * instead of the client's idempotency_header. A name that is not an HTTP token is recorded. */
sdkrt_status sdkrt_request_set_idempotency_header(sdkrt_request *req, const char *name);

/* A deep copy of req in *out (new; sdkrt_request_free): method, template, parameters, query,
 * headers, cookies, body and security, and the problem recorded on req (an invalid argument, or
 * a piece lost to out of memory), which the copy reports when sent as req would. SDKRT_ERR only
 * when out of memory (*out NULL). */
sdkrt_status sdkrt_request_copy(sdkrt_request **out, const sdkrt_request *req);
/* Replace every name=... of the query with one name=value (copied), in the place of the first
 * (at the end when absent); value NULL removes them all. */
sdkrt_status sdkrt_request_set_query(sdkrt_request *req, const char *name, const char *value);
/* Remove the whole query. */
void sdkrt_request_clear_query(sdkrt_request *req);
/* The decoded value of the first name=... of the query in *out (new, free()), or NULL when
 * absent. SDKRT_ERR only when out of memory. */
sdkrt_status sdkrt_request_query_value(const sdkrt_request *req, const char *name, char **out);

/* The message of the first recorded invalid argument (borrowed), or NULL if none. */
const char *sdkrt_request_error(const sdkrt_request *req);
/* The method (borrowed). */
const char *sdkrt_request_method(const sdkrt_request *req);

/* Build the encoded path and query ("/api/session/ses%2F1?limit=10"), relative to the base
 * URL's path prefix, into *out (new, free()) - what a transport will receive after the prefix.
 * SDKRT_ERR with INVALID_ARGUMENT for a recorded error or a missing path parameter. */
sdkrt_status sdkrt_request_target(char **out, const sdkrt_request *req, sdkrt_error **err);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
