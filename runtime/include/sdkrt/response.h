/* sdkrt/response.h - a received HTTP response (status, headers, body), and the builder calls that
 * transports use to produce one.
 *
 * Responses are not thread-safe; hand one to another thread as a whole if needed.
 */
#ifndef SDKRT_RESPONSE_H
#define SDKRT_RESPONSE_H

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

typedef struct sdkrt_response sdkrt_response;

/* Release. NULL is a no-op. */
void sdkrt_response_free(sdkrt_response *resp);

/* Accessors: all borrowed, valid until sdkrt_response_free. */
int sdkrt_response_status(const sdkrt_response *resp);
/* The media type without parameters, lower-cased ("application/json"), or NULL without a
 * Content-Type header. */
const char *sdkrt_response_content_type(const sdkrt_response *resp);
/* The first header of that name (case-insensitive), value trimmed, or NULL. */
const char *sdkrt_response_header(const sdkrt_response *resp, const char *name);
size_t sdkrt_response_header_count(const sdkrt_response *resp);
/* The i-th header in arrival order (i < count). */
void sdkrt_response_header_at(const sdkrt_response *resp, size_t i, const char **name,
                              const char **value);
/* The body, always NUL-terminated (an empty body gives ""); *len (if len not NULL) gets its
 * length. Bodies may contain NUL bytes. */
const char *sdkrt_response_body(const sdkrt_response *resp, size_t *len);

/* For generated code: decode the body as JSON into *json (new reference, owned by the caller).
 * UNSUPPORTED_CONTENT_TYPE unless the content type is application/json (or +json);
 * MALFORMED_RESPONSE (with jansson's line/column) on bad JSON. Errors carry status, content type
 * and the bounded body. */
sdkrt_status sdkrt_response_parse_json(const sdkrt_response *resp, json_t **json,
                                       sdkrt_error **err);

/* For generated code: an UNEXPECTED_STATUS error (new, in *err) carrying the status, content type
 * and the first SDKRT_ERROR_BODY_MAX bytes of the body: "HTTP 500 with text/html body
 * (UNEXPECTED_STATUS)". Returns SDKRT_ERR. */
sdkrt_status sdkrt_error_unexpected_status(sdkrt_error **err, const sdkrt_response *resp);

/* ---- Builder calls for transports ---- */

/* New response with that status; the body may grow to max_body bytes (0 = no limit). *out is new,
 * owned by the caller. SDKRT_ERR only when out of memory (*err is then OUT_OF_MEMORY). */
sdkrt_status sdkrt_response_new(sdkrt_response **out, int status, size_t max_body,
                                sdkrt_error **err);
void sdkrt_response_set_status(sdkrt_response *resp, int status);
/* Append a header (name and value copied; value trimmed of surrounding blanks). */
sdkrt_status sdkrt_response_add_header(sdkrt_response *resp, const char *name, const char *value,
                                       sdkrt_error **err);
/* Append body bytes (copied). RESPONSE_TOO_LARGE when the body would exceed max_body: nothing is
 * appended then, so memory never holds more than the cap. */
sdkrt_status sdkrt_response_append_body(sdkrt_response *resp, const void *bytes, size_t len,
                                        sdkrt_error **err);
/* The cap given to sdkrt_response_new (0 = none). */
size_t sdkrt_response_max_body(const sdkrt_response *resp);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
