/* sdkrt/json.h - table-driven JSON decode, encode and cleanup of generated C values.
 *
 * Generated SDKs describe each C value type with a static, read-only
 * sdkrt_jtype descriptor (protobuf-c style) and call the three functions below; the per-type
 * generated code stays a few lines long.
 *
 * Storage of each kind (what a `void *value` points at):
 *   STRING       char * (owned, NUL-terminated; jansson refuses "\u0000", so no embedded NULs).
 *                A brand is a struct whose only member is that char *.
 *   INTEGER      int64_t            NUMBER  double            BOOLEAN  bool
 *   NULL, LITERAL, NEVER            nothing is read or written (a placeholder char in C types)
 *   ENUM         struct { int value; char *unknown; }: value 0 is the UNKNOWN member, whose wire
 *                string is kept in `unknown` (owned); known values are 1..n in contract order.
 *   ARRAY        struct { T *items; size_t count; }
 *   MAP          struct { char **keys; T *values; size_t count; }
 *   OBJECT       a struct; each field has an offset, an optional `bool has_x` (absent fields)
 *                and an optional `bool x_null` (nullable fields).
 *   UNION        struct { int kind; json_t *unknown; union {...} u; }: kind 0 is UNKNOWN (raw
 *                JSON kept in `unknown`, owned; with a `common` type its shared fields are also
 *                decoded at value_offset), variant i is kind i + 1, stored at value_offset.
 *   NULLABLE     T * (NULL is JSON null); used where no field flag can carry the null.
 *   JSON_STRING  the storage of the content type (the wire string is parsed / re-serialised).
 *   ANY          json_t * (owned reference).
 * A place flagged SDKRT_JF_BOXED holds a pointer to the storage instead (recursive types).
 */
#ifndef SDKRT_JSON_H
#define SDKRT_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "sdkrt/client.h"
#include "sdkrt/error.h"
#include "sdkrt/loop.h"
#include "sdkrt/request.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The API stays exported when libsdkrt is built with -fvisibility=hidden. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

typedef enum sdkrt_jkind {
    SDKRT_JK_STRING,
    SDKRT_JK_INTEGER,
    SDKRT_JK_NUMBER,
    SDKRT_JK_BOOLEAN,
    SDKRT_JK_NULL,
    SDKRT_JK_LITERAL,
    SDKRT_JK_ENUM,
    SDKRT_JK_ARRAY,
    SDKRT_JK_MAP,
    SDKRT_JK_OBJECT,
    SDKRT_JK_UNION,
    SDKRT_JK_NULLABLE,
    SDKRT_JK_JSON_STRING,
    SDKRT_JK_ANY,
    SDKRT_JK_NEVER
} sdkrt_jkind;

/* Field and variant flags. */
#define SDKRT_JF_REQUIRED  1u /* a missing field is MALFORMED_RESPONSE */
#define SDKRT_JF_BOXED     2u /* the place holds T * (allocated when present) */
#define SDKRT_JF_READ_ONLY 4u /* readOnly: left out when a request is encoded */

/* An offset that stores nothing (literal and null fields, required fields' has-flag). */
#define SDKRT_JNONE ((size_t)-1)

typedef struct sdkrt_jtype sdkrt_jtype;

typedef struct sdkrt_jfield {
    const char *name;        /* wire name */
    const sdkrt_jtype *type; /* the field's type with a field-level nullable removed */
    unsigned flags;          /* SDKRT_JF_* */
    size_t offset;           /* of the value; SDKRT_JNONE when nothing is stored */
    size_t has_offset;       /* bool set when present; SDKRT_JNONE for required fields */
    size_t null_offset;      /* bool set when null; SDKRT_JNONE unless nullable */
} sdkrt_jfield;

typedef struct sdkrt_jvariant {
    const char *tag; /* discriminator value, or NULL in an untagged union */
    const sdkrt_jtype *type;
    unsigned flags; /* SDKRT_JF_BOXED */
} sdkrt_jvariant;

struct sdkrt_jtype {
    sdkrt_jkind kind;
    const char *name;           /* for messages: "SessionV2Info", "string", ... */
    size_t size;                /* sizeof the storage (1 for the nothing-stored kinds) */
    const sdkrt_jtype *inner;   /* ARRAY items, MAP values, NULLABLE and JSON_STRING content */
    const sdkrt_jfield *fields; /* OBJECT */
    size_t nfields;
    const sdkrt_jvariant *variants; /* UNION */
    size_t nvariants;
    const char *discriminator; /* UNION: wire name of the tag field, or NULL (first match wins) */
    size_t value_offset;       /* UNION: offset of the variant storage */
    const char *const *values; /* ENUM wire strings in member order (member i + 1) */
    size_t nvalues;
    const char *literal; /* LITERAL: the value as JSON text ("\"text\"", "1", "true") */
    /* UNION, optional: the fields every variant shares, as an OBJECT whose fields all have a
     * has-flag. For an unknown variant they are decoded from its raw JSON, best effort (a field
     * that is absent or does not decode stays unset), into the variant storage at value_offset,
     * so that accessors of shared fields also answer for variants this client does not know. */
    const sdkrt_jtype *common;
};

/* Decode json into *value (storage of t, zeroed by the caller or holding nothing owned). path
 * names json in messages ("$", "$.data"; NULL means "$"). On failure value holds nothing owned and
 * *err is a new MALFORMED_RESPONSE error naming the JSON path, e.g.
 * "$.data[3].time.created: expected number, got string". json is borrowed. */
sdkrt_status sdkrt_json_decode(const sdkrt_jtype *t, void *value, const json_t *json,
                               const char *path, sdkrt_error **err);

/* Encode *value (borrowed) as JSON; *out is a new reference. A required string that is NULL or
 * an enum / union with an impossible member gives INVALID_ARGUMENT naming the path. */
sdkrt_status sdkrt_json_encode(const sdkrt_jtype *t, const void *value, json_t **out,
                               sdkrt_error **err);

/* Release everything *value owns and zero it. Safe on a zeroed value. */
void sdkrt_json_cleanup(const sdkrt_jtype *t, void *value);

/* Parse text as JSON (any value, NULs refused) and decode it as t; MALFORMED_RESPONSE names the
 * path (prefix path) or the parse position. */
sdkrt_status sdkrt_json_decode_text(const sdkrt_jtype *t, void *value, const char *text, size_t len,
                                    const char *path, sdkrt_error **err);

/* The wire string of an ENUM value (borrowed from t or value), or NULL when the value is
 * UNKNOWN without a kept string or out of range. */
const char *sdkrt_json_enum_wire(const sdkrt_jtype *t, const void *value);

/* ---- Operation helpers for generated code ---- */

/* Query parameter styles (OpenAPI). */
typedef enum sdkrt_jstyle {
    SDKRT_JSTYLE_FORM,        /* name=value; arrays repeat the key when exploded, else a,b,c */
    SDKRT_JSTYLE_DEEP_OBJECT, /* name[prop]=value for each present scalar field */
    SDKRT_JSTYLE_SIMPLE       /* path and header: a,b,c for arrays */
} sdkrt_jstyle;

/* The text of a scalar value for a path, query or header parameter, in *out (new, free()):
 * strings and brands as is, integers in decimal, numbers shortest round-trip ("7", "0.5"),
 * booleans "true"/"false", enums their wire string. Arrays join items with ','. Other kinds are
 * sent as compact JSON. INVALID_ARGUMENT for a NULL string or an impossible enum. */
sdkrt_status sdkrt_json_param_text(const sdkrt_jtype *t, const void *value, char **out,
                                   sdkrt_error **err);

/* Set path parameter name from *value; INVALID_ARGUMENT with the request's message on failure. */
sdkrt_status sdkrt_json_path_param(sdkrt_request *req, const char *name, const sdkrt_jtype *t,
                                   const void *value, sdkrt_error **err);
/* Add query parameter name from *value in the given style (see sdkrt_jstyle). */
sdkrt_status sdkrt_json_query_param(sdkrt_request *req, const char *name, sdkrt_jstyle style,
                                    bool explode, const sdkrt_jtype *t, const void *value,
                                    sdkrt_error **err);
/* Set header name from *value. */
sdkrt_status sdkrt_json_header_param(sdkrt_request *req, const char *name, const sdkrt_jtype *t,
                                     const void *value, sdkrt_error **err);
/* Encode *value as the JSON body of req. */
sdkrt_status sdkrt_json_body(sdkrt_request *req, const sdkrt_jtype *t, const void *value,
                             sdkrt_error **err);

/* How a success response is read. */
typedef enum sdkrt_jencoding {
    SDKRT_JENC_NONE,  /* no content: nothing is returned */
    SDKRT_JENC_JSON,  /* decoded as result (after unwrap) */
    SDKRT_JENC_BYTES, /* returned as sdkrt_bytes */
    SDKRT_JENC_TEXT,  /* returned as sdkrt_bytes (NUL-terminated) */
    SDKRT_JENC_SSE    /* a stream: see sdkrt_jstream */
} sdkrt_jencoding;

/* A declared domain error: at this status, this `_tag`, decoded as type. status is an exact
 * status, a range (4 for 4XX) or 0 for `default`; a response matches the exact status first, then
 * the range, then default. tag NULL: a body without a `_tag` (the error's tag is type->name). */
typedef struct sdkrt_jerror {
    int status;
    const char *tag;
    const sdkrt_jtype *type;
} sdkrt_jerror;

/* Another declared success of an operation that declares several 2xx statuses: at status (exact,
 * or 2 for 2XX) the body is read as encoding, result and unwrap say (as sdkrt_jop's own). */
typedef struct sdkrt_jsuccess {
    int status;
    sdkrt_jencoding encoding;
    const sdkrt_jtype *result;
    const char *unwrap;
} sdkrt_jsuccess;

/* An operation as generated code describes it. */
typedef struct sdkrt_jop {
    const char *id; /* "v2.session.get", for messages */
    int status;     /* the success status; 2 (2XX) or 0 (none declared): any 2xx */
    sdkrt_jencoding encoding;
    const sdkrt_jtype *result;  /* JSON: the value returned (after unwrap) */
    const char *unwrap;         /* JSON: the single field holding the result ("data"), or NULL */
    const sdkrt_jerror *errors; /* declared domain errors */
    size_t nerrors;
    /* SSE */
    const sdkrt_jtype *item;   /* each event's data decodes as this */
    bool item_encoded;         /* data may be a JSON string holding the item */
    const char *failure_event; /* event name of a failure frame, or NULL */
    const sdkrt_jtype *cause;  /* type of a failure frame's data, or NULL (kept as raw JSON) */
    /* The other declared successes (exact statuses, then 2XX), or NULL: a status matches the
       main success's exact status or one of these exactly first, then a range. */
    const sdkrt_jsuccess *more;
    size_t nmore;
} sdkrt_jop;

/* The tag of the DOMAIN error a stream failure frame becomes (the stream did fail, whatever its
 * cause). Its payload is the cause decoded as op->cause, or a json_t * when the operation declares
 * no cause type; sdkrt_error_raw_payload is the cause as received in both cases. A cause that
 * op->cause does not decode (a Fail carrying an error the contract does not declare, a Die, ...)
 * gives a NULL payload, the raw cause, and a message that says why it did not decode. Failure
 * data that is not JSON at all is MALFORMED_RESPONSE. */
#define SDKRT_JSTREAM_FAILURE_TAG "StreamFailure"

/* Bytes of a non-JSON success body (owned; sdkrt_bytes_free). data is NUL-terminated. */
typedef struct sdkrt_bytes {
    unsigned char *data;
    size_t len;
    char *content_type; /* or NULL */
} sdkrt_bytes;
void sdkrt_bytes_free(sdkrt_bytes *b); /* NULL is a no-op */

/* A heap value of type t: zeroed storage (sdkrt_json_value_free releases it). NULL on OOM. */
void *sdkrt_json_value_new(const sdkrt_jtype *t);
/* Cleanup and free a heap value. NULL is a no-op. */
void sdkrt_json_value_free(const sdkrt_jtype *t, void *value);

/* Send req and map the response: the success status gives *out (new heap value of op->result,
 * an sdkrt_bytes for BYTES/TEXT, NULL for NONE); a declared status + `_tag` gives a DOMAIN error
 * whose payload is the decoded error body (typed by the sdkrt_jerror entry); anything else is
 * UNEXPECTED_STATUS with the body kept. req and call are borrowed. */
sdkrt_status sdkrt_json_call(sdkrt_client *client, const sdkrt_request *req,
                             const sdkrt_call_options *call, const sdkrt_jop *op, void **out,
                             sdkrt_error **err);
/* sdkrt_json_call for an operation with several declared successes: *status (may be NULL) gets
 * the HTTP status of a success (0 otherwise), and *out the value of that status's declared type. */
sdkrt_status sdkrt_json_call_status(sdkrt_client *client, const sdkrt_request *req,
                                    const sdkrt_call_options *call, const sdkrt_jop *op, void **out,
                                    int *status, sdkrt_error **err);
/* What an asynchronous typed call reports: exactly what sdkrt_json_call_status gives. out is new
 * (the callback owns it, as sdkrt_json_call's *out; NULL on failure or for NONE), status the
 * success status (0 otherwise), err borrowed until the callback returns (NULL on success;
 * sdkrt_error_copy keeps it). */
typedef void (*sdkrt_json_done_fn)(void *userdata, void *out, int status, const sdkrt_error *err);
/* sdkrt_json_call_status on the client's loop (sdkrt/loop.h): started at once, finished by done
 * on the loop thread, exactly once. req and call are copied (call's cancel token stays borrowed
 * until done runs); op is borrowed until then. SDKRT_ERR only when the call cannot start (no
 * loop in the client's options, a bad request, out of memory): then done never runs. */
sdkrt_status sdkrt_json_call_async(sdkrt_client *client, const sdkrt_request *req,
                                   const sdkrt_call_options *call, const sdkrt_jop *op,
                                   sdkrt_json_done_fn done, void *userdata, sdkrt_error **err);
/* The mapping half of sdkrt_json_call, for a response already received (resp borrowed). */
sdkrt_status sdkrt_json_response(const sdkrt_jop *op, const sdkrt_response *resp, void **out,
                                 sdkrt_error **err);
/* The same with the success status (see sdkrt_json_call_status). */
sdkrt_status sdkrt_json_response_status(const sdkrt_jop *op, const sdkrt_response *resp, void **out,
                                        int *status, sdkrt_error **err);
/* An error response (status, content type, body borrowed) as a DOMAIN error when declared by op
 * (payload: the decoded body; raw payload: the body's JSON), else UNEXPECTED_STATUS. Always
 * returns SDKRT_ERR with *err set (unless *err already held an error: see sdkrt/error.h). */
sdkrt_status sdkrt_json_error_response(const sdkrt_jop *op, int status, const char *content_type,
                                       const char *body, size_t len, sdkrt_error **err);

/* A typed stream: events decoded as op->item; failure frames become errors. */
typedef struct sdkrt_jstream sdkrt_jstream;
/* Prepare (no I/O). *out is new (sdkrt_jstream_close). req and call are copied. */
sdkrt_status sdkrt_jstream_open(sdkrt_jstream **out, sdkrt_client *client, const sdkrt_request *req,
                                const sdkrt_call_options *call, const sdkrt_jop *op,
                                sdkrt_error **err);
/* Next item: SDKRT_STREAM_EVENT with *item (borrowed until the next call or close),
 * SDKRT_STREAM_END, or SDKRT_STREAM_ERROR with *err. A non-2xx status becomes the declared
 * DOMAIN error; a failure frame becomes a StreamFailure DOMAIN error and ends the stream (END
 * afterwards). Strict: an event that does not decode is MALFORMED_RESPONSE (with the JSON path)
 * and ends the stream too (END afterwards). */
sdkrt_stream_result sdkrt_jstream_next(sdkrt_jstream *s, const void **item, sdkrt_error **err);

/* An event whose data does not decode as the item. Borrowed until the next call or close. */
typedef struct sdkrt_jstream_poison {
    const char *data; /* the event's data as received, NUL-terminated */
    size_t data_len;
    const json_t *json;       /* that data as JSON (the content of a JSON string holding the
                                 item's JSON), or NULL when it is not JSON */
    const sdkrt_error *error; /* why: MALFORMED_RESPONSE naming the JSON path */
} sdkrt_jstream_poison;

/* As sdkrt_jstream_next, but an event that does not decode is SDKRT_STREAM_POISON with *poison
 * filled, and the stream goes on (the next call reads the next event). The two may be mixed on
 * one stream. */
sdkrt_stream_result sdkrt_jstream_next_poison(sdkrt_jstream *s, const void **item,
                                              sdkrt_jstream_poison *poison, sdkrt_error **err);
/* Release (closes the connection). NULL is a no-op. */
void sdkrt_jstream_close(sdkrt_jstream *s);

/* The asynchronous typed stream on the client's loop (sdkrt_client_options.loop): what
 * sdkrt_jstream_next yields, delivered to handlers on the loop thread. on_item gets each item
 * (borrowed for the callback); on_poison, when set, each event that does not decode
 * (sdkrt_jstream_poison) and the stream goes on, else such an event ends it with
 * MALFORMED_RESPONSE; on_end runs once: NULL after the last item (the server closed at an event
 * boundary, or "[DONE]"), else the declared DOMAIN error of a non-2xx status, the StreamFailure
 * of a failure frame, TRANSPORT (a cut, also in the middle of an event), TIMEOUT (the head
 * timeout; the idle timeout: no byte for that long, pauses excepted), CANCELLED (the call's or the
 * client's token, sdkrt_async_stream_cancel, the loop freed). req and call are copied (call's
 * cancel token stays borrowed), handlers copied, op borrowed (static). *out is borrowed until
 * on_end returns (then freed by the runtime); may be NULL. SDKRT_ERR only when it cannot start
 * (no loop, bad request or options, out of memory): then no handler runs. Loop thread only. */
sdkrt_status sdkrt_jstream_start(sdkrt_async_stream **out, sdkrt_client *client,
                                 const sdkrt_request *req, const sdkrt_call_options *call,
                                 const sdkrt_jop *op, const sdkrt_stream_handlers *handlers,
                                 void *userdata, sdkrt_error **err);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
