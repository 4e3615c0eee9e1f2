/* The request's fields, shared by request.c and client.c. */
#ifndef SDKRT_REQUEST_INTERNAL_H
#define SDKRT_REQUEST_INTERNAL_H

#include "sdkrt/request.h"
#include "sdkrt/wire.h"

typedef struct sdkrt_pair_ {
    char *name;
    char *value;
} sdkrt_pair_;

struct sdkrt_request {
    char *method;
    char *path_template;
    sdkrt_pair_ *params;
    size_t param_count;
    char **query; /* encoded "name=value" pieces in order */
    size_t query_count;
    sdkrt_pair_ *headers;
    size_t header_count;
    char *content_type;
    char *body;
    size_t body_len;
    bool has_body;
    char *error; /* first invalid argument */
    bool oom;
    sdkrt_pair_ *raw_params; /* path parameters already encoded by their style */
    size_t raw_param_count;
    char **cookies; /* encoded "name=value" pieces in order */
    size_t cookie_count;
    sdkrt_multipart *multipart;      /* the body when multipart (then has_body is false) */
    sdkrt_security_scheme *security; /* copies (names and params owned) */
    size_t security_count;
    bool has_security; /* set: only these schemes authenticate the request */
    /* A target already encoded and relative to the base URL's origin (a followed next-page
       URL), sent instead of path_template and query; or NULL. */
    char *origin_target;
    /* The header the contract declares for an idempotency key, or NULL (the client's). */
    char *idempotency_header;
};

/* Send req to origin_target (copied: "/path?query", printable ASCII without '#' or space)
 * instead of its template and query; refused (recorded) otherwise. */
sdkrt_status sdkrt_request_set_origin_target_(sdkrt_request *req, const char *target);

/* Set a path parameter whose text is already encoded (sent as is). Refused (recorded): empty, a
 * dot segment, or a byte not allowed in a path segment. */
sdkrt_status sdkrt_request_set_path_encoded_(sdkrt_request *req, const char *name,
                                             const char *encoded);
/* Append encoded query pieces ("a=1&b=2"; printable ASCII without '#' or space). */
sdkrt_status sdkrt_request_add_query_encoded_(sdkrt_request *req, const char *encoded);
/* Append encoded cookie pieces ("a=1; b=2"), joined into one Cookie header at send. */
sdkrt_status sdkrt_request_add_cookie_encoded_(sdkrt_request *req, const char *encoded);

/* The encoding entry of a property, or NULL. */
const sdkrt_body_encoding *sdkrt_body_encoding_find_(const sdkrt_body_encoding *enc, size_t nenc,
                                                     const char *property);

/* A deep copy of a multipart body (NULL when out of memory). */
sdkrt_multipart *sdkrt_multipart_copy_(const sdkrt_multipart *mp);

#endif
