/* Private helpers shared by the runtime's sources. */
#ifndef SDKRT_INTERNAL_H
#define SDKRT_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>

#include "sdkrt/json.h"
#include "sdkrt/sdkrt.h"

/* How every JSON text from a server is parsed: any value at the top, duplicate keys refused (two
 * readers of one body must not see different objects), \u0000 kept so that raw JSON values keep
 * it (typed strings refuse it: a C string cannot carry it). */
#define SDKRT_JSON_LOAD_FLAGS (JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL)

/* Prepend "prefix" to the error's message (best effort; no-op on the static OOM error). */
void sdkrt_error_prefix_(sdkrt_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* A new copy of err (kind, reason, status, message, content type, body, tag, raw JSON; a DOMAIN
 * payload is not copied), or the static OUT_OF_MEMORY error. */
sdkrt_error *sdkrt_error_copy_(const sdkrt_error *err);

/* The server's own message in an error body, into out (cap bytes with its NUL;
 * SDKRT_SERVER_MESSAGE_MAX), cut on a UTF-8 boundary with "...". A JSON body (by its media type,
 * or an object without one) gives the first envelope field docs/runtime.md lists, control
 * characters made single spaces; any other text (HTML, plain, JSON without such a field) its
 * first SDKRT_SERVER_TEXT_MAX bytes, control characters and invalid UTF-8 escaped (\n, \xNN).
 * Its length; 0 when there is none (no body, or a binary one). */
#define SDKRT_SERVER_MESSAGE_MAX 256
#define SDKRT_SERVER_TEXT_MAX    200
size_t sdkrt_server_message_(const char *content_type, const char *body, size_t len, char *out,
                             size_t cap);
/* The same from a parsed body (borrowed; not an object: 0). */
size_t sdkrt_server_message_json_(const json_t *body, char *out, size_t cap);

/* Case-insensitive ASCII comparison. */
int sdkrt_strcasecmp_(const char *a, const char *b);
/* Copy of a string (NULL stays NULL; *ok false when out of memory). */
char *sdkrt_strdup_(const char *s);

/* sdkrt_json_encode for a request: readOnly fields (SDKRT_JF_READ_ONLY) are left out. */
sdkrt_status sdkrt_json_encode_request_(const sdkrt_jtype *t, const void *value, json_t **out,
                                        sdkrt_error **err);

/* Whether a header name is an HTTP token and the value has no CR, LF or NUL. */
bool sdkrt_header_name_ok_(const char *name);
bool sdkrt_header_value_ok_(const char *value);

/* Media type of a Content-Type value: parameters dropped, trimmed, lower-cased. New string or
 * NULL (out of memory or value NULL). */
char *sdkrt_media_type_(const char *value);

/* Remember "METHOD URL" so messages about the response say where it came from. */
void sdkrt_response_set_origin_(sdkrt_response *resp, const char *method, const char *url);

/* Whether t is a libcurl transport (which builds multipart bodies itself). */
bool sdkrt_transport_is_curl_(const sdkrt_transport *t);

/* The shared fields of an unknown variant of union t (t->common) from its raw JSON into the
 * variant storage slot, best effort: absent, null or undecodable fields stay unset. SDKRT_ERR
 * only when out of memory (slot then holds nothing owned). No-op without t->common. */
sdkrt_status sdkrt_json_decode_common_(const sdkrt_jtype *t, void *slot, const json_t *json);

/* A copy of a DOMAIN payload made by the typed JSON layer (json_value.c; free_fn tells which kind:
 * a typed value decoded again from raw, its JSON, or a JSON value), or NULL when it is not one of
 * that layer's or memory runs out. The copy is released by the same free_fn. */
void *sdkrt_json_payload_copy_(const void *payload, sdkrt_payload_free_fn free_fn,
                               const json_t *raw);

/* The item type of a typed stream. */
const sdkrt_jtype *sdkrt_jstream_item_type_(const sdkrt_jstream *s);

/* A token: a lock-free flag and a self-pipe (cancel.c); or a view that is triggered when either
 * of two tokens is (a call's and its client's), with no pipe of its own. */
#include <stdatomic.h>
struct sdkrt_cancel {
    atomic_bool triggered;
    int rd, wr; /* self-pipe, both ends non-blocking and close-on-exec */
    bool either;
    const sdkrt_cancel *pair[2];
};
/* The token a call waits on: a or b when only one is set (or they are the same), else *view
 * made a view of both (borrowed: valid while view, a and b are). */
const sdkrt_cancel *sdkrt_cancel_either_(sdkrt_cancel *view, const sdkrt_cancel *a,
                                         const sdkrt_cancel *b);
/* The pipes to poll for c: up to two into fds; how many. */
int sdkrt_cancel_fds_(const sdkrt_cancel *c, int fds[2]);

/* Monotonic clock in milliseconds. */
long long sdkrt_now_ms_(void);

/* ---- client internals shared with retry.c ---- */

/* The absolute URL req goes to from client, without credentials (new; free()), or NULL with
 * *err set: req's recorded problem, or OUT_OF_MEMORY. */
char *sdkrt_client_url_(const sdkrt_client *client, const sdkrt_request *req, sdkrt_error **err);
/* INVALID_ARGUMENT for a negative setting. */
sdkrt_status sdkrt_retry_policy_check_(const sdkrt_retry_policy *p, sdkrt_error **err);

/* Call options with the idempotency key (given, or a UUIDv4 for SDKRT_IDEMPOTENCY_AUTO) put
 * first among the call headers, so that every attempt of the call sends the same key. */
typedef struct sdkrt_keyed_call_ {
    sdkrt_call_options call; /* what to send with; borrows from the caller's and from below */
    sdkrt_header *headers;   /* owned array (names and values borrowed) */
    char key[37];            /* a generated key */
    bool keyed;              /* the request or the call carries an idempotency key */
} sdkrt_keyed_call_;

/* Fill k from call (may be NULL). INVALID_ARGUMENT for an empty key; OUT_OF_MEMORY. Call
 * sdkrt_keyed_call_cleanup_ in every case. */
sdkrt_status sdkrt_keyed_call_init_(sdkrt_keyed_call_ *k, const sdkrt_client *client,
                                    const sdkrt_request *req, const sdkrt_call_options *call,
                                    sdkrt_error **err);
void sdkrt_keyed_call_cleanup_(sdkrt_keyed_call_ *k);

/* A growable byte buffer that remembers allocation failure. */
typedef struct sdkrt_buf_ {
    char *data;
    size_t len;
    size_t cap;
    bool oom;
} sdkrt_buf_;

void sdkrt_buf_append_(sdkrt_buf_ *b, const void *bytes, size_t len);
void sdkrt_buf_puts_(sdkrt_buf_ *b, const char *s);
void sdkrt_buf_printf_(sdkrt_buf_ *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sdkrt_buf_cleanup_(sdkrt_buf_ *b);

/* Percent-encode everything except ALPHA DIGIT - . _ ~ into b. */
void sdkrt_pct_encode_(sdkrt_buf_ *b, const char *s);

/* The value of a hexadecimal digit, or -1. */
static inline int sdkrt_hex_digit_(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

#endif
