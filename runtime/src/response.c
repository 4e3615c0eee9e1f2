/* Responses and the decoding helpers for generated code. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "request_internal.h"

struct sdkrt_response {
    int status;
    size_t max_body;
    sdkrt_pair_ *headers;
    size_t header_count;
    size_t header_cap;
    char *content_type; /* media type, cached when Content-Type is added */
    sdkrt_buf_ body;
    char *origin; /* "METHOD URL" for messages, set by the client */
};

sdkrt_status sdkrt_response_new(sdkrt_response **out, int status, size_t max_body,
                                sdkrt_error **err)
{
    sdkrt_response *r = calloc(1, sizeof *r);
    *out = r;
    if (!r)
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    r->status = status;
    r->max_body = max_body;
    return SDKRT_OK;
}

void sdkrt_response_free(sdkrt_response *resp)
{
    if (!resp)
        return;
    for (size_t i = 0; i < resp->header_count; i++) {
        free(resp->headers[i].name);
        free(resp->headers[i].value);
    }
    free(resp->headers);
    free(resp->content_type);
    free(resp->origin);
    sdkrt_buf_cleanup_(&resp->body);
    free(resp);
}

void sdkrt_response_set_status(sdkrt_response *resp, int status)
{
    resp->status = status;
}

int sdkrt_response_status(const sdkrt_response *resp)
{
    return resp->status;
}

const char *sdkrt_response_content_type(const sdkrt_response *resp)
{
    return resp->content_type;
}

const char *sdkrt_response_header(const sdkrt_response *resp, const char *name)
{
    for (size_t i = 0; i < resp->header_count; i++) {
        if (sdkrt_strcasecmp_(resp->headers[i].name, name) == 0)
            return resp->headers[i].value;
    }
    return NULL;
}

size_t sdkrt_response_header_count(const sdkrt_response *resp)
{
    return resp->header_count;
}

void sdkrt_response_header_at(const sdkrt_response *resp, size_t i, const char **name,
                              const char **value)
{
    *name = resp->headers[i].name;
    *value = resp->headers[i].value;
}

const char *sdkrt_response_body(const sdkrt_response *resp, size_t *len)
{
    if (len)
        *len = resp->body.len;
    return resp->body.data ? resp->body.data : "";
}

size_t sdkrt_response_max_body(const sdkrt_response *resp)
{
    return resp->max_body;
}

void sdkrt_response_set_origin_(sdkrt_response *resp, const char *method, const char *url)
{
    sdkrt_buf_ b = {0};
    sdkrt_buf_printf_(&b, "%s %s: ", method, url);
    if (b.oom) {
        sdkrt_buf_cleanup_(&b);
        return;
    }
    free(resp->origin);
    resp->origin = b.data;
}

sdkrt_status sdkrt_response_add_header(sdkrt_response *resp, const char *name, const char *value,
                                       sdkrt_error **err)
{
    while (*value == ' ' || *value == '\t')
        value++;
    size_t vn = strlen(value);
    while (vn > 0 && strchr(" \t\r\n", value[vn - 1]))
        vn--;
    char *nm = sdkrt_strdup_(name);
    char *v = malloc(vn + 1);
    char *ct = NULL;
    if (!nm || !v)
        goto oom;
    memcpy(v, value, vn);
    v[vn] = '\0';
    if (sdkrt_strcasecmp_(name, "Content-Type") == 0 && !resp->content_type) {
        ct = sdkrt_media_type_(v);
        if (!ct)
            goto oom;
    }
    if (resp->header_count == resp->header_cap) {
        size_t cap = resp->header_cap ? resp->header_cap * 2 : 16;
        sdkrt_pair_ *g = realloc(resp->headers, cap * sizeof *g);
        if (!g)
            goto oom;
        resp->headers = g;
        resp->header_cap = cap;
    }
    resp->headers[resp->header_count].name = nm;
    resp->headers[resp->header_count].value = v;
    resp->header_count++;
    if (ct)
        resp->content_type = ct;
    return SDKRT_OK;
oom:
    free(nm);
    free(v);
    free(ct);
    return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory storing a header");
}

sdkrt_status sdkrt_response_append_body(sdkrt_response *resp, const void *bytes, size_t len,
                                        sdkrt_error **err)
{
    if (resp->max_body && (len > resp->max_body || resp->body.len > resp->max_body - len))
        return sdkrt_error_set(err, SDKRT_REASON_RESPONSE_TOO_LARGE,
                               "response body exceeds the limit of %zu bytes", resp->max_body);
    sdkrt_buf_append_(&resp->body, bytes, len);
    if (resp->body.oom)
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY,
                               "out of memory storing a %zu-byte response body",
                               resp->body.len + len);
    return SDKRT_OK;
}

static const char *origin(const sdkrt_response *resp)
{
    return resp->origin ? resp->origin : "";
}

/* Attach status, content type and the bounded body to an error about resp. */
static void describe(sdkrt_error *e, const sdkrt_response *resp)
{
    sdkrt_error_set_status(e, resp->status);
    sdkrt_error_set_content_type(e, resp->content_type);
    sdkrt_error_set_body(e, sdkrt_response_body(resp, NULL), resp->body.len);
}

static bool is_json(const char *ct)
{
    if (!ct)
        return false;
    if (strcmp(ct, "application/json") == 0)
        return true;
    size_t n = strlen(ct);
    return n > 5 && strcmp(ct + n - 5, "+json") == 0;
}

sdkrt_status sdkrt_response_parse_json(const sdkrt_response *resp, json_t **json, sdkrt_error **err)
{
    *json = NULL;
    sdkrt_error *e = NULL; /* described, then handed to the caller */
    if (!is_json(resp->content_type)) {
        sdkrt_error_set(&e, SDKRT_REASON_UNSUPPORTED_CONTENT_TYPE,
                        "%sHTTP %d: expected application/json, got %s", origin(resp), resp->status,
                        resp->content_type ? resp->content_type : "no content type");
        describe(e, resp);
        sdkrt_error_propagate(err, e);
        return SDKRT_ERR;
    }
    json_error_t jerr;
    *json =
        json_loadb(sdkrt_response_body(resp, NULL), resp->body.len, SDKRT_JSON_LOAD_FLAGS, &jerr);
    if (!*json) {
        sdkrt_error_set(&e, SDKRT_REASON_MALFORMED_RESPONSE,
                        "%sHTTP %d: invalid JSON body at line %d, column %d: %s", origin(resp),
                        resp->status, jerr.line, jerr.column, jerr.text);
        describe(e, resp);
        sdkrt_error_propagate(err, e);
        return SDKRT_ERR;
    }
    return SDKRT_OK;
}

sdkrt_status sdkrt_error_unexpected_status(sdkrt_error **err, const sdkrt_response *resp)
{
    if (!err || *err)
        return SDKRT_ERR; /* nobody wants it, or the first error is kept */
    sdkrt_error *e = NULL;
    char said[SDKRT_SERVER_MESSAGE_MAX];
    if (sdkrt_server_message_(resp->content_type, sdkrt_response_body(resp, NULL), resp->body.len,
                              said, sizeof said))
        sdkrt_error_set(&e, SDKRT_REASON_UNEXPECTED_STATUS, "%sHTTP %d: %s", origin(resp),
                        resp->status, said);
    else if (resp->body.len)
        sdkrt_error_set(&e, SDKRT_REASON_UNEXPECTED_STATUS, "%sHTTP %d with %s body (%zu bytes)",
                        origin(resp), resp->status,
                        resp->content_type ? resp->content_type : "untyped", resp->body.len);
    else
        sdkrt_error_set(&e, SDKRT_REASON_UNEXPECTED_STATUS, "%sHTTP %d with empty body",
                        origin(resp), resp->status);
    describe(e, resp);
    *err = e;
    return SDKRT_ERR;
}
