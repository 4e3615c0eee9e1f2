/* sdkrt/wire.h - wire fidelity: OpenAPI parameter styles, request bodies of every media type
 * (JSON, form-urlencoded, multipart/form-data, raw bytes) and per-operation security.
 *
 * Values are given as their wire JSON (a json_t, borrowed): generated code encodes a typed value
 * with sdkrt_json_encode and hands the result here, so every kind of value (brands, enums,
 * JSON-string fields) is serialised from what it is on the wire.
 *
 * Parameter serialisation follows the OpenAPI style table (RFC 6570 derived; see
 * docs/runtime.md "Parameter styles" for the exact bytes):
 *   style            in            string        array                 object
 *   simple           path, header  blue          blue,black,brown      R,100,G,200,B,150
 * (R=100,G=200,B=150 exploded) label            path          .blue         .blue,black,brown
 * .R,100,G,200,B,150 (.blue.black.brown / .R=100.G=200.B=150 exploded) matrix           path
 * ;color=blue   ;color=blue,black,brown (;color=blue;color=black;color=brown exploded) form query,
 * cookie color=blue    color=blue,black,brown (color=blue&color=black&color=brown exploded;
 * R=100&G=200&B=150) spaceDelimited   query         -             color=blue%20black%20brown
 *   pipeDelimited    query         -             color=blue%7Cblack%7Cbrown
 *   deepObject       query         -             -
 * color%5BR%5D=100&color%5BG%5D=200&color%5BB%5D=150 Percent-encoding: every byte outside ALPHA
 * DIGIT - . _ ~ is %XX in paths, queries, cookies and form bodies (delimiters the style adds are
 * not); allowReserved keeps the RFC 3986 reserved characters and existing %XX triples of a query
 * value as they are, except '#' (it would end the URL). Header values are not percent-encoded (CR
 * and LF are refused).
 *
 * Ownership: every function copies what it keeps; json_t values are borrowed.
 */
#ifndef SDKRT_WIRE_H
#define SDKRT_WIRE_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "sdkrt/base.h"
#include "sdkrt/error.h"
#include "sdkrt/json.h"
#include "sdkrt/request.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The API stays exported when libsdkrt is built with -fvisibility=hidden. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* Where a parameter goes. */
typedef enum sdkrt_param_in {
    SDKRT_IN_PATH,
    SDKRT_IN_QUERY,
    SDKRT_IN_HEADER,
    SDKRT_IN_COOKIE
} sdkrt_param_in;

/* OpenAPI styles (same order as the IR's). */
typedef enum sdkrt_param_style {
    SDKRT_STYLE_SIMPLE,
    SDKRT_STYLE_FORM,
    SDKRT_STYLE_DEEP_OBJECT,
    SDKRT_STYLE_LABEL,
    SDKRT_STYLE_MATRIX,
    SDKRT_STYLE_SPACE_DELIMITED,
    SDKRT_STYLE_PIPE_DELIMITED
} sdkrt_param_style;

/* A parameter as the contract declares it (all borrowed). */
typedef struct sdkrt_param_spec {
    const char *name;
    sdkrt_param_in in;
    sdkrt_param_style style;
    bool explode;
    bool allow_reserved; /* query and form fields only */
} sdkrt_param_spec;

/* Serialise value (borrowed wire JSON) as spec says into *out (new, free()):
 *   PATH    the text that replaces {name}, percent-encoded ("blue,black,brown", ".blue",
 *           ";color=blue");
 *   QUERY   "name=value" pieces joined with '&', encoded, without a leading '?' or '&' (an empty
 *           array or object, and JSON null, give "": nothing is sent);
 *   HEADER  the header value ("blue,black,brown"), not encoded;
 *   COOKIE  "name=value" pieces joined with "; ", encoded.
 * A JSON null is an undefined value: "" everywhere. A value nested inside an array or object item
 * is sent as its compact JSON text, except under deepObject, where nested objects become
 * name[a][b]=v and arrays go by index, name[0]=x. INVALID_ARGUMENT for a style the location does
 * not allow (deepObject outside the query, label in a header, ...). */
sdkrt_status sdkrt_param_serialize(char **out, const sdkrt_param_spec *spec, const json_t *value,
                                   sdkrt_error **err);

/* Serialise value and put it into req: a path parameter (already encoded: sent as is; refused
 * when it would be empty or a dot segment), query pieces appended in order, a header set, cookie
 * pieces added to the Cookie header. A JSON null adds nothing (a missing path parameter is then
 * reported at send). */
sdkrt_status sdkrt_request_add_param(sdkrt_request *req, const sdkrt_param_spec *spec,
                                     const json_t *value, sdkrt_error **err);

/* The same from a typed value: *value (storage of t, borrowed) encoded with sdkrt_json_encode. */
sdkrt_status sdkrt_request_add_typed_param(sdkrt_request *req, const sdkrt_param_spec *spec,
                                           const sdkrt_jtype *t, const void *value,
                                           sdkrt_error **err);

/* ---- Request bodies ---- */

/* How one property of a form or multipart body is sent (OpenAPI Encoding Object; borrowed). */
typedef struct sdkrt_body_encoding {
    const char *property;     /* the property's wire name */
    const char *content_type; /* multipart: the part's Content-Type; form: "application/json"
                                 sends the value as JSON text. NULL: the default */
    sdkrt_param_style style;  /* form bodies only, when has_style */
    bool explode;
    bool allow_reserved;
    bool has_style; /* false: style form, explode true (the defaults) */
} sdkrt_body_encoding;

/* Bytes from memory or from a file, for raw bodies and multipart file parts (all borrowed for
 * the call that takes it). Exactly one of data (len bytes; may be NULL when len is 0 and path is
 * NULL: an empty body) and path (a file read when the request is built or, for multipart over
 * libcurl, when it is sent). */
typedef struct sdkrt_blob {
    const void *data;
    size_t len;
    const char *path;
    const char *filename;     /* multipart: the part's filename (NULL: the path's base name) */
    const char *content_type; /* NULL: the operation's media type (raw bodies) or
                                 application/octet-stream (file parts) */
} sdkrt_blob;

#define SDKRT_BLOB_INIT                                                                            \
    {                                                                                              \
        NULL, 0, NULL, NULL, NULL                                                                  \
    }

/* Whether a blob carries anything (data, a length or a path). */
bool sdkrt_blob_is_set(const sdkrt_blob *blob);

/* Media types: "application/json", "text/json" and any "+json" type count as JSON; parameters
 * (";charset=utf-8") and case are ignored. */
bool sdkrt_media_is_json(const char *media_type);

/* JSON body: value (borrowed) serialised compactly, sent with media_type (NULL:
 * application/json). */
sdkrt_status sdkrt_request_set_json_body_as(sdkrt_request *req, const char *media_type,
                                            const json_t *value, sdkrt_error **err);

/* application/x-www-form-urlencoded body from a JSON object (borrowed): each property in order as
 * a query parameter of its encoding's style (default form, explode), percent-encoded with %20
 * for a space; null properties are left out. deepObject arrays go by index: "e[0]=a&e[1]=b". A
 * JSON content_type sends the property's JSON text unless the encoding has a style.
 * INVALID_ARGUMENT when value is not an object. */
sdkrt_status sdkrt_request_set_form_body(sdkrt_request *req, const json_t *value,
                                         const sdkrt_body_encoding *enc, size_t nenc,
                                         sdkrt_error **err);

/* Raw body: the blob's bytes (a path is read now) with the blob's content type, else
 * media_type. */
sdkrt_status sdkrt_request_set_blob_body(sdkrt_request *req, const char *media_type,
                                         const sdkrt_blob *blob, sdkrt_error **err);

/* ---- multipart/form-data ---- */

typedef struct sdkrt_multipart sdkrt_multipart;

/* New empty multipart body in *out (owned by the caller until given to a request). */
sdkrt_status sdkrt_multipart_new(sdkrt_multipart **out, sdkrt_error **err);
/* Release. NULL is a no-op. */
void sdkrt_multipart_free(sdkrt_multipart *mp);
/* A field part: name and value copied; content_type NULL sends no Content-Type (text/plain by
 * RFC 7578). */
sdkrt_status sdkrt_multipart_add_field(sdkrt_multipart *mp, const char *name, const char *value,
                                       const char *content_type, sdkrt_error **err);
/* A file part from a blob (bytes copied now; a path is kept and read at send). */
sdkrt_status sdkrt_multipart_add_blob(sdkrt_multipart *mp, const char *name, const sdkrt_blob *blob,
                                      sdkrt_error **err);
/* Parts from a JSON object (borrowed), properties in order: strings, numbers and booleans as
 * field parts, objects (and array items that are objects) as application/json parts, each item
 * of an array as a part of its own, nulls left out; an encoding's content_type sets the part's
 * Content-Type (an object or array with a non-JSON type is still sent as JSON text). An encoding
 * with a style (has_style; OpenAPI 3.1) sends the property as the text parts that style makes in
 * a form body, not percent-encoded (deepObject: "meta[k]" = "v"), and ignores content_type;
 * INVALID_ARGUMENT for a style other than form, spaceDelimited, pipeDelimited and deepObject.
 * Properties named in blob_names (nblobs entries, blobs[i] for blob_names[i]) are sent from the
 * blob when the blob is set, instead of their JSON value. */
sdkrt_status sdkrt_multipart_add_json(sdkrt_multipart *mp, const json_t *value,
                                      const sdkrt_body_encoding *enc, size_t nenc,
                                      const char *const *blob_names, const sdkrt_blob *const *blobs,
                                      size_t nblobs, sdkrt_error **err);
/* Use the boundary (copied; 1-70 characters of [A-Za-z0-9'()+_,-./:=?], not ending in a space)
 * instead of a random one; for tests that compare bytes. */
sdkrt_status sdkrt_multipart_set_boundary(sdkrt_multipart *mp, const char *boundary,
                                          sdkrt_error **err);
/* The whole body as bytes (file parts read now) in *bytes (new, free(); *len bytes) and its
 * Content-Type ("multipart/form-data; boundary=...") in *content_type (new, free()). A transport
 * that does not stream multipart bodies itself receives exactly these bytes. */
sdkrt_status sdkrt_multipart_serialize(const sdkrt_multipart *mp, char **bytes, size_t *len,
                                       char **content_type, sdkrt_error **err);
/* Number of parts, and the i-th part (all borrowed; data NULL for a file part, path NULL for an
 * in-memory one). For transports that build the body themselves. */
size_t sdkrt_multipart_count(const sdkrt_multipart *mp);
void sdkrt_multipart_part(const sdkrt_multipart *mp, size_t i, const char **name,
                          const char **filename, const char **content_type, const void **data,
                          size_t *len, const char **path);
/* Make mp the request's body (stolen, also on failure); replaces any earlier body. */
sdkrt_status sdkrt_request_set_multipart_body(sdkrt_request *req, sdkrt_multipart *mp);

/* A body in the media type the caller chose: JSON types as JSON, form-urlencoded, multipart
 * (blobs as in sdkrt_multipart_add_json), anything else from the JSON value as raw bytes (a
 * string's text, other values as JSON text). value is borrowed. */
sdkrt_status sdkrt_request_set_body_as(sdkrt_request *req, const char *media_type,
                                       const json_t *value, const sdkrt_body_encoding *enc,
                                       size_t nenc, const char *const *blob_names,
                                       const sdkrt_blob *const *blobs, size_t nblobs,
                                       sdkrt_error **err);

/* The same from a typed value: *value (storage of t, borrowed) encoded with sdkrt_json_encode,
 * then sent as media_type. */
sdkrt_status sdkrt_request_set_typed_body(sdkrt_request *req, const char *media_type,
                                          const sdkrt_jtype *t, const void *value,
                                          const sdkrt_body_encoding *enc, size_t nenc,
                                          sdkrt_error **err);

/* ---- Security ---- */

typedef enum sdkrt_security_kind {
    SDKRT_SECURITY_API_KEY,    /* in header, query or cookie, under param */
    SDKRT_SECURITY_HTTP_BASIC, /* Authorization: Basic base64(user:password) */
    SDKRT_SECURITY_HTTP_BEARER /* Authorization: Bearer token; also OAuth2 and OpenID Connect */
} sdkrt_security_kind;

/* A security scheme as the contract declares it (borrowed; generated code keeps static tables). */
typedef struct sdkrt_security_scheme {
    const char *name; /* the contract's scheme name ("api_key", "petstore_auth") */
    sdkrt_security_kind kind;
    sdkrt_param_in in; /* API_KEY: HEADER, QUERY or COOKIE */
    const char *param; /* API_KEY: the header, query parameter or cookie name */
    /* Needed together with the scheme before it: a requirement of several schemes is a run of
       entries whose later ones set this (an API key and a client id, both sent). */
    bool with_previous;
} sdkrt_security_scheme;

#define SDKRT_SECURITY_MAX_TOGETHER 8 /* schemes one requirement may need together */

/* The requirements an operation accepts, any one of them (copied): a requirement is one scheme,
 * or a run of schemes tied by with_previous. A request with security set sends the credentials
 * of the first requirement the client has credentials for, every scheme of it, and nothing
 * else: n == 0 (the contract's `security: []`) sends none, not even the client's `auth`. A
 * request without it sends the client's `auth` as before. */
sdkrt_status sdkrt_request_set_security(sdkrt_request *req, const sdkrt_security_scheme *schemes,
                                        size_t n);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
