/* The request's fields, shared by request.c and client.c. */
#ifndef SDKRT_REQUEST_INTERNAL_H
#define SDKRT_REQUEST_INTERNAL_H

#include "sdkrt/request.h"

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
};

#endif
