/* Typed calls: a response mapped to the operation's declared success (decoded, bytes or text) or
 * to its declared error (a DOMAIN error with the decoded payload), blocking or on a loop. */
#include "sdkrt/json.h"

#include "jdecode.h"
#include "json_internal.h"
#include "sdkrt/loop.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- responses ---- */

/* application/json or any +json media type (as sdkrt_response_parse_json requires). */
static bool is_json_type(const char *ct)
{
    if (!ct)
        return false;
    size_t n = strlen(ct);
    return strcmp(ct, "application/json") == 0 || (n > 5 && strcmp(ct + n - 5, "+json") == 0);
}

static void keep_response(sdkrt_error *e, int status, const char *content_type, const char *body,
                          size_t len)
{
    sdkrt_error_set_status(e, status);
    if (content_type)
        sdkrt_error_set_content_type(e, content_type);
    if (body)
        sdkrt_error_set_body(e, body, len);
}

/* The declared status key that covers status (sdkrt_jerror.status): the exact status first,
 * then its range (4 for 4XX), then default (0); -1 when none does. */
static int declared_key(const sdkrt_jop *op, int status)
{
    int key = -1;
    for (size_t i = 0; i < op->nerrors; i++) {
        int k = op->errors[i].status;
        if (k == status)
            return k;
        if (k >= 1 && k <= 5 && k == status / 100)
            key = k;
        else if (k == 0 && key < 0)
            key = 0;
    }
    return key;
}

/* The declared success a status matches: the main one or one of op->more, as a view with that
 * success's status, encoding, result and unwrap (*view); false when none matches. Exact statuses
 * match before ranges. */
static bool match_success(const sdkrt_jop *op, int status, sdkrt_jop *view)
{
    *view = *op;
    if (op->status == status)
        return true;
    for (size_t i = 0; i < op->nmore; i++) {
        if (op->more[i].status == status) {
            view->status = status;
            view->encoding = op->more[i].encoding;
            view->result = op->more[i].result;
            view->unwrap = op->more[i].unwrap;
            return true;
        }
    }
    if (op->status < 100 && status / 100 == 2)
        return true;
    for (size_t i = 0; i < op->nmore; i++) {
        if (op->more[i].status < 100 && status / 100 == 2) {
            view->status = op->more[i].status;
            view->encoding = op->more[i].encoding;
            view->result = op->more[i].result;
            view->unwrap = op->more[i].unwrap;
            return true;
        }
    }
    return false;
}

sdkrt_status sdkrt_json_error_response(const sdkrt_jop *op, int status, const char *content_type,
                                       const char *body, size_t len, sdkrt_error **err)
{
    sdkrt_error *e = NULL;
    json_t *j = NULL;
    void *payload = NULL;
    int key = declared_key(op, status);
    bool declared = key >= 0;
    const sdkrt_jerror *match = NULL;
    for (size_t i = 0; declared && i < op->nerrors && !match; i++) {
        if (op->errors[i].status == key && op->errors[i].text &&
            op->errors[i].type->kind == SDKRT_JK_STRING)
            match = &op->errors[i];
    }
    /* JSON by its media type; without one, a body that parses as JSON is taken as such */
    bool is_json = false;
    if (declared && !match && body && len && content_type) {
        char *media = sdkrt_media_type_(content_type); /* NULL: no memory, not "not JSON" */
        if (!media)
            return sdkrt_json_oom_(err);
        size_t n = strlen(media);
        is_json = strcmp(media, "application/json") == 0 || strcmp(media, "text/json") == 0 ||
                  (n > 5 && strcmp(media + n - 5, "+json") == 0);
        free(media);
    }
    json_error_t jerr;
    if (declared && !match && body && len && (content_type ? is_json : !memchr(body, '\0', len))) {
        j = json_loadb(body, len, SDKRT_JSON_LOAD_FLAGS, &jerr);
        if (!j && json_error_code(&jerr) == json_error_out_of_memory)
            return sdkrt_json_oom_(err);
    }
    const char *tag = json_string_value(json_object_get(j, "_tag"));
    for (size_t i = 0; tag && i < op->nerrors && !match; i++) {
        if (op->errors[i].status == key && op->errors[i].tag && strcmp(op->errors[i].tag, tag) == 0)
            match = &op->errors[i];
    }
    /* a body declared without a `_tag` (its type's name is the error's tag); a body whose
       `_tag` is undeclared where tags are declared stays an undeclared tag */
    bool tagged = false;
    for (size_t i = 0; tag && i < op->nerrors; i++)
        tagged = tagged || (op->errors[i].status == key && op->errors[i].tag);
    for (size_t i = 0; j && !tagged && i < op->nerrors && !match; i++) {
        if (op->errors[i].status == key && !op->errors[i].tag)
            match = &op->errors[i];
    }
    char said[SDKRT_SERVER_MESSAGE_MAX];
    bool has_said = (j ? sdkrt_server_message_json_(j, said, sizeof said)
                     : match && match->text
                         ? sdkrt_server_message_("text/plain", body, len, said, sizeof said)
                         : sdkrt_server_message_(content_type, body, len, said, sizeof said)) > 0;
    if (!match) {
        if (tag)
            sdkrt_error_set(&e, SDKRT_REASON_UNEXPECTED_STATUS,
                            "%s: HTTP %d with undeclared error tag %s%s%s", op->id, status, tag,
                            has_said ? ": " : "", has_said ? said : "");
        else if (has_said)
            sdkrt_error_set(&e, SDKRT_REASON_UNEXPECTED_STATUS, "%s: HTTP %d: %s", op->id, status,
                            said);
        else if (len)
            sdkrt_error_set(&e, SDKRT_REASON_UNEXPECTED_STATUS,
                            "%s: HTTP %d with %s body (%zu bytes)", op->id, status,
                            content_type ? content_type : "untyped", len);
        else
            sdkrt_error_set(&e, SDKRT_REASON_UNEXPECTED_STATUS, "%s: HTTP %d with empty body",
                            op->id, status);
        keep_response(e, status, content_type, body, len);
        goto done;
    }
    payload = sdkrt_jpayload_new_(match->type);
    if (!payload) {
        sdkrt_json_oom_(&e);
        goto done;
    }
    if (match->text) {
        /* the server's text as the declared string */
        const char *nul = body ? memchr(body, '\0', len) : NULL;
        size_t n = !body ? 0 : nul ? (size_t)(nul - body) : len;
        char *copy = malloc(n + 1);
        if (!copy) {
            sdkrt_jpayload_free_(payload);
            payload = NULL;
            sdkrt_json_oom_(&e);
            goto done;
        }
        if (n)
            memcpy(copy, body, n);
        copy[n] = '\0';
        *(char **)payload = copy;
    } else if (sdkrt_json_decode(match->type, payload, j, "$", &e) != SDKRT_OK) {
        keep_response(e, status, content_type, body, len);
        sdkrt_jpayload_free_(payload);
        payload = NULL;
        goto done;
    }
    const char *mtag = match->tag ? match->tag : match->type->name;
    const char *msg = has_said ? said : NULL;
    size_t mlen = strlen(mtag) + (msg ? strlen(msg) : 0) + 32;
    char *text = malloc(mlen);
    if (text) {
        if (msg)
            snprintf(text, mlen, "%s (HTTP %d): %s", mtag, status, msg);
        else
            snprintf(text, mlen, "%s (HTTP %d)", mtag, status);
    }
    /* The payload is stolen by the error, also on failure. */
    sdkrt_error_new_domain(&e, status, mtag, payload, sdkrt_jpayload_free_, text);
    payload = NULL;
    free(text);
    keep_response(e, status, content_type, body, len);
    sdkrt_error_set_raw_payload(e, json_incref(j));
done:
    json_decref(j);
    sdkrt_error_propagate(err, e);
    return SDKRT_ERR;
}

sdkrt_status sdkrt_json_response(const sdkrt_jop *op, const sdkrt_response *resp, void **out,
                                 sdkrt_error **err)
{
    return sdkrt_json_response_status(op, resp, out, NULL, err);
}

sdkrt_status sdkrt_json_response_status(const sdkrt_jop *whole, const sdkrt_response *resp,
                                        void **out, int *status_out, sdkrt_error **err)
{
    size_t len = 0;
    const char *body = sdkrt_response_body(resp, &len);
    int status = sdkrt_response_status(resp);
    sdkrt_jop view;
    const sdkrt_jop *op = &view;
    if (out)
        *out = NULL;
    if (status_out)
        *status_out = 0;
    if (!match_success(whole, status, &view))
        return sdkrt_json_error_response(whole, status, sdkrt_response_content_type(resp), body,
                                         len, err);
    if (status_out)
        *status_out = status;
    switch (op->encoding) {
    case SDKRT_JENC_NONE:
    case SDKRT_JENC_SSE:
        return SDKRT_OK;
    case SDKRT_JENC_BYTES:
    case SDKRT_JENC_TEXT: {
        sdkrt_bytes *b = calloc(1, sizeof *b);
        if (!b)
            return sdkrt_json_oom_(err);
        b->data = malloc(len + 1);
        const char *ct = sdkrt_response_content_type(resp);
        if (ct)
            b->content_type = strdup(ct);
        if (!b->data || (ct && !b->content_type)) {
            sdkrt_bytes_free(b);
            return sdkrt_json_oom_(err);
        }
        memcpy(b->data, body, len);
        b->data[len] = '\0';
        b->len = len;
        if (out)
            *out = b;
        else
            sdkrt_bytes_free(b);
        return SDKRT_OK;
    }
    case SDKRT_JENC_JSON:
        break;
    }
    json_t *j = NULL;
    void *v = NULL;
    sdkrt_status st = SDKRT_ERR;
    sdkrt_error *e = NULL; /* completed with the response, then handed to the caller */
    if (is_json_type(sdkrt_response_content_type(resp))) {
        /* One pass from the body into the value. A refusal goes the tree way below, which
         * builds the message (invalid JSON at line and column, or the JSON path). */
        v = sdkrt_json_value_new(op->result);
        if (!v) {
            sdkrt_json_oom_(&e);
            goto done;
        }
        switch (sdkrt_jd_decode_(op->result, v, body, len, op->unwrap)) {
        case SDKRT_JD_OK_:
            st = SDKRT_OK;
            goto done;
        case SDKRT_JD_OOM_:
            sdkrt_json_oom_(&e);
            free(v);
            v = NULL;
            goto done;
        case SDKRT_JD_MALFORMED_:
            free(v);
            v = NULL;
            break;
        }
    }
    if (sdkrt_response_parse_json(resp, &j, err) != SDKRT_OK)
        return SDKRT_ERR;
    const json_t *src = j;
    char path[80] = "$";
    if (op->unwrap) {
        snprintf(path, sizeof path, "$.%s", op->unwrap);
        src = json_is_object(j) ? json_object_get(j, op->unwrap) : NULL;
        if (!src) {
            sdkrt_error_set(&e, SDKRT_REASON_MALFORMED_RESPONSE, "%s: %s", path,
                            json_is_object(j) ? "missing required field"
                                              : "expected object around the result");
            goto done;
        }
    }
    v = sdkrt_json_value_new(op->result);
    if (!v) {
        sdkrt_json_oom_(&e);
        goto done;
    }
    if (sdkrt_json_decode(op->result, v, src, path, &e) != SDKRT_OK) {
        free(v);
        v = NULL;
        goto done;
    }
    st = SDKRT_OK;
done:
    if (e) {
        keep_response(e, status, sdkrt_response_content_type(resp), body, len);
        sdkrt_error_propagate(err, e);
    }
    json_decref(j);
    if (st == SDKRT_OK) {
        if (out)
            *out = v;
        else
            sdkrt_json_value_free(op->result, v);
    }
    return st;
}

/* ---- calls ---- */

sdkrt_status sdkrt_json_call(sdkrt_client *client, const sdkrt_request *req,
                             const sdkrt_call_options *call, const sdkrt_jop *op, void **out,
                             sdkrt_error **err)
{
    return sdkrt_json_call_status(client, req, call, op, out, NULL, err);
}

sdkrt_status sdkrt_json_call_status(sdkrt_client *client, const sdkrt_request *req,
                                    const sdkrt_call_options *call, const sdkrt_jop *op, void **out,
                                    int *status, sdkrt_error **err)
{
    sdkrt_response *resp = NULL;
    if (out)
        *out = NULL;
    if (status)
        *status = 0;
    if (sdkrt_client_send(client, req, call, &resp, err) != SDKRT_OK)
        return SDKRT_ERR;
    sdkrt_status st = sdkrt_json_response_status(op, resp, out, status, err);
    sdkrt_response_free(resp);
    return st;
}

/* An asynchronous typed call: the response mapped as sdkrt_json_call_status maps it. */
typedef struct json_async {
    const sdkrt_jop *op;
    sdkrt_json_done_fn done;
    void *userdata;
} json_async;

static void json_async_done(void *userdata, sdkrt_response *resp, const sdkrt_error *err)
{
    json_async j = *(json_async *)userdata;
    free(userdata);
    if (!resp) {
        j.done(j.userdata, NULL, 0, err);
        return;
    }
    void *out = NULL;
    int status = 0;
    sdkrt_error *e = NULL;
    sdkrt_json_response_status(j.op, resp, &out, &status, &e);
    sdkrt_response_free(resp);
    j.done(j.userdata, out, status, e);
    sdkrt_error_free(e);
}

sdkrt_status sdkrt_json_call_async(sdkrt_client *client, const sdkrt_request *req,
                                   const sdkrt_call_options *call, const sdkrt_jop *op,
                                   sdkrt_json_done_fn done, void *userdata, sdkrt_error **err)
{
    if (!op || !done)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "sdkrt_json_call_async needs an operation and a callback");
    json_async *j = malloc(sizeof *j);
    if (!j)
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    j->op = op;
    j->done = done;
    j->userdata = userdata;
    if (sdkrt_client_send_async(client, req, call, json_async_done, j, err) != SDKRT_OK) {
        free(j);
        return SDKRT_ERR;
    }
    return SDKRT_OK;
}
