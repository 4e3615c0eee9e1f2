/* The error value: creation under the GError rules of sdkrt/error.h, accessors, setters. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "sdkrt/wire.h"

struct sdkrt_error {
    sdkrt_kind kind;
    sdkrt_reason reason;
    int status;
    bool is_static; /* the preallocated OUT_OF_MEMORY error: never freed or changed */
    bool body_truncated;
    char *message;
    char *content_type;
    char *body;
    size_t body_len;
    char *tag;
    void *payload;
    sdkrt_payload_free_fn payload_free;
    json_t *raw; /* the JSON a DOMAIN payload was (or could not be) decoded from, or NULL */
};

/* Returned when an error cannot be allocated; immutable. */
static const sdkrt_error oom_error = {SDKRT_ERROR_CLIENT,
                                      SDKRT_REASON_OUT_OF_MEMORY,
                                      0,
                                      true,
                                      false,
                                      (char *)"out of memory (OUT_OF_MEMORY)",
                                      NULL,
                                      NULL,
                                      0,
                                      NULL,
                                      NULL,
                                      NULL,
                                      NULL};

static sdkrt_error *oom(void)
{
    return (sdkrt_error *)&oom_error;
}

const char *sdkrt_reason_name(sdkrt_reason reason)
{
    switch (reason) {
    case SDKRT_REASON_NONE:
        return "NONE";
    case SDKRT_REASON_TRANSPORT:
        return "TRANSPORT";
    case SDKRT_REASON_TIMEOUT:
        return "TIMEOUT";
    case SDKRT_REASON_CANCELLED:
        return "CANCELLED";
    case SDKRT_REASON_UNEXPECTED_STATUS:
        return "UNEXPECTED_STATUS";
    case SDKRT_REASON_UNSUPPORTED_CONTENT_TYPE:
        return "UNSUPPORTED_CONTENT_TYPE";
    case SDKRT_REASON_MALFORMED_RESPONSE:
        return "MALFORMED_RESPONSE";
    case SDKRT_REASON_INVALID_ARGUMENT:
        return "INVALID_ARGUMENT";
    case SDKRT_REASON_RESPONSE_TOO_LARGE:
        return "RESPONSE_TOO_LARGE";
    case SDKRT_REASON_EVENT_TOO_LARGE:
        return "EVENT_TOO_LARGE";
    case SDKRT_REASON_OUT_OF_MEMORY:
        return "OUT_OF_MEMORY";
    }
    return "UNKNOWN";
}

/* Store e in *err when err is not NULL and *err is empty; otherwise e is discarded: the library
 * never frees or overwrites an error the caller already holds (the first error wins). */
static void store(sdkrt_error **err, sdkrt_error *e)
{
    if (!err || *err) {
        sdkrt_error_free(e);
        return;
    }
    *err = e;
}

void sdkrt_error_propagate(sdkrt_error **dest, sdkrt_error *src)
{
    store(dest, src);
}

void sdkrt_error_clear(sdkrt_error **err)
{
    if (!err || !*err)
        return;
    sdkrt_error_free(*err);
    *err = NULL;
}

sdkrt_status sdkrt_error_setv(sdkrt_error **err, sdkrt_reason reason, const char *fmt, va_list ap)
{
    if (!err || *err)
        return SDKRT_ERR; /* nobody wants it, or the first error is kept */
    sdkrt_error *e = calloc(1, sizeof *e);
    sdkrt_buf_ b = {0};
    if (!e)
        goto fail;
    e->kind = SDKRT_ERROR_CLIENT;
    e->reason = reason;
    {
        va_list ap2;
        va_copy(ap2, ap);
        int n = vsnprintf(NULL, 0, fmt, ap2);
        va_end(ap2);
        if (n < 0)
            goto fail;
        char *msg = malloc((size_t)n + 1);
        if (!msg)
            goto fail;
        vsnprintf(msg, (size_t)n + 1, fmt, ap);
        sdkrt_buf_printf_(&b, "%s (%s)", msg, sdkrt_reason_name(reason));
        free(msg);
    }
    if (b.oom || !b.data)
        goto fail;
    e->message = b.data;
    store(err, e);
    return SDKRT_ERR;
fail:
    sdkrt_buf_cleanup_(&b);
    free(e);
    store(err, oom());
    return SDKRT_ERR;
}

sdkrt_status sdkrt_error_set(sdkrt_error **err, sdkrt_reason reason, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sdkrt_status st = sdkrt_error_setv(err, reason, fmt, ap);
    va_end(ap);
    return st;
}

sdkrt_status sdkrt_error_new_domain(sdkrt_error **out, int status, const char *tag, void *payload,
                                    sdkrt_payload_free_fn free_fn, const char *message)
{
    if (!out || *out) {
        /* Nobody wants it, or the first error is kept: nothing is created. */
        if (payload && free_fn)
            free_fn(payload);
        return SDKRT_ERR;
    }
    sdkrt_error *e = calloc(1, sizeof *e);
    if (!e)
        goto fail;
    e->kind = SDKRT_ERROR_DOMAIN;
    e->reason = SDKRT_REASON_NONE;
    e->status = status;
    e->tag = sdkrt_strdup_(tag ? tag : "");
    if (message) {
        e->message = sdkrt_strdup_(message);
    } else {
        sdkrt_buf_ b = {0};
        sdkrt_buf_printf_(&b, "HTTP %d %s", status, tag ? tag : "");
        e->message = b.oom ? NULL : b.data;
        if (b.oom)
            sdkrt_buf_cleanup_(&b);
    }
    if (!e->tag || !e->message)
        goto fail;
    e->payload = payload;
    e->payload_free = free_fn;
    *out = e;
    return SDKRT_OK;
fail:
    if (payload && free_fn)
        free_fn(payload);
    if (e) {
        free(e->tag);
        free(e->message);
        free(e);
    }
    *out = oom();
    return SDKRT_ERR;
}

void sdkrt_error_free(sdkrt_error *err)
{
    if (!err || err->is_static)
        return;
    if (err->payload && err->payload_free)
        err->payload_free(err->payload);
    json_decref(err->raw);
    free(err->message);
    free(err->content_type);
    free(err->body);
    free(err->tag);
    free(err);
}

sdkrt_kind sdkrt_error_kind(const sdkrt_error *err)
{
    return err->kind;
}

sdkrt_reason sdkrt_error_reason(const sdkrt_error *err)
{
    return err->reason;
}

int sdkrt_error_status(const sdkrt_error *err)
{
    return err->status;
}

const char *sdkrt_error_message(const sdkrt_error *err)
{
    return err->message ? err->message : "";
}

const char *sdkrt_error_content_type(const sdkrt_error *err)
{
    return err->content_type;
}

const char *sdkrt_error_body(const sdkrt_error *err, size_t *len)
{
    if (len)
        *len = err->body_len;
    return err->body;
}

bool sdkrt_error_body_truncated(const sdkrt_error *err)
{
    return err->body_truncated;
}

const char *sdkrt_error_tag(const sdkrt_error *err)
{
    return err->kind == SDKRT_ERROR_DOMAIN ? err->tag : NULL;
}

void *sdkrt_error_payload(const sdkrt_error *err)
{
    return err->payload;
}

const json_t *sdkrt_error_raw_payload(const sdkrt_error *err)
{
    return err->raw;
}

void sdkrt_error_set_raw_payload(sdkrt_error *err, json_t *raw)
{
    if (!err || err->is_static || err->kind != SDKRT_ERROR_DOMAIN) {
        json_decref(raw);
        return;
    }
    json_decref(err->raw);
    err->raw = raw;
}

sdkrt_error *sdkrt_error_copy_(const sdkrt_error *err)
{
    if (!err || err->is_static)
        return oom();
    sdkrt_error *e = calloc(1, sizeof *e);
    if (!e)
        return oom();
    e->kind = err->kind;
    e->reason = err->reason;
    e->status = err->status;
    e->message = sdkrt_strdup_(err->message);
    e->content_type = sdkrt_strdup_(err->content_type);
    e->tag = sdkrt_strdup_(err->tag);
    if (!e->message || (err->content_type && !e->content_type) || (err->tag && !e->tag)) {
        sdkrt_error_free(e);
        return oom();
    }
    if (err->body)
        sdkrt_error_set_body(e, err->body, err->body_len);
    e->body_truncated = err->body_truncated;
    e->raw = json_incref(err->raw);
    return e;
}

sdkrt_error *sdkrt_error_copy(const sdkrt_error *err)
{
    if (!err)
        return NULL;
    sdkrt_error *e = sdkrt_error_copy_(err);
    if (e->is_static || !err->payload)
        return e;
    e->payload = sdkrt_json_payload_copy_(err->payload, err->payload_free, err->raw);
    e->payload_free = e->payload ? err->payload_free : NULL;
    return e;
}

void sdkrt_error_set_status(sdkrt_error *err, int status)
{
    if (err && !err->is_static)
        err->status = status;
}

void sdkrt_error_set_content_type(sdkrt_error *err, const char *content_type)
{
    if (!err || err->is_static)
        return;
    char *ct = NULL;
    if (content_type) {
        ct = sdkrt_strdup_(content_type);
        if (!ct)
            return;
    }
    free(err->content_type);
    err->content_type = ct;
}

void sdkrt_error_set_body(sdkrt_error *err, const void *body, size_t len)
{
    if (!err || err->is_static)
        return;
    bool cut = len > SDKRT_ERROR_BODY_MAX;
    size_t keep = cut ? SDKRT_ERROR_BODY_MAX : len;
    char *copy = NULL;
    if (body) {
        copy = malloc(keep + 1);
        if (!copy)
            return;
        memcpy(copy, body, keep);
        copy[keep] = '\0';
    }
    free(err->body);
    err->body = copy;
    err->body_len = copy ? keep : 0;
    err->body_truncated = copy ? cut : false;
}

void sdkrt_error_set_payload(sdkrt_error *err, void *payload, sdkrt_payload_free_fn free_fn)
{
    if (!err || err->is_static || err->kind != SDKRT_ERROR_DOMAIN) {
        if (payload && free_fn)
            free_fn(payload);
        return;
    }
    if (err->payload && err->payload_free)
        err->payload_free(err->payload);
    err->payload = payload;
    err->payload_free = free_fn;
}

void sdkrt_error_prefix_(sdkrt_error *err, const char *fmt, ...)
{
    if (!err || err->is_static)
        return;
    sdkrt_buf_ b = {0};
    va_list ap;
    va_start(ap, fmt);
    {
        int n = vsnprintf(NULL, 0, fmt, ap);
        va_end(ap);
        if (n < 0)
            return;
        char *pre = malloc((size_t)n + 1);
        if (!pre)
            return;
        va_start(ap, fmt);
        vsnprintf(pre, (size_t)n + 1, fmt, ap);
        sdkrt_buf_puts_(&b, pre);
        free(pre);
    }
    va_end(ap);
    sdkrt_buf_puts_(&b, sdkrt_error_message(err));
    if (b.oom) {
        sdkrt_buf_cleanup_(&b);
        return;
    }
    free(err->message);
    err->message = b.data;
}

/* A JSON value's string at a path of up to two keys, or NULL; "" counts as none. */
static const char *string_at(const json_t *j, const char *k1, const char *k2)
{
    const json_t *v = json_object_get(j, k1);
    if (k2)
        v = json_object_get(v, k2);
    const char *s = json_string_value(v);
    return s && *s ? s : NULL;
}

/* out[w..] += text (whole UTF-8 sequences; control characters either one space between words or
 * escaped as \n, \r, \t, \xNN), stopping with "..." where cap would be passed. Returns w. */
static size_t put_text(char *out, size_t cap, size_t w, const unsigned char *p, size_t n,
                       bool escape)
{
    bool space = false;
    const unsigned char *end = p + n;
    while (p < end) {
        char tmp[8];
        size_t tn = 0, adv = 1;
        if (*p < 0x20 || *p == 0x7F) {
            if (!escape) {
                space = w > 0;
                p++;
                continue;
            }
            const char *e = *p == '\n' ? "\\n" : *p == '\r' ? "\\r" : *p == '\t' ? "\\t" : NULL;
            tn = e ? (size_t)snprintf(tmp, sizeof tmp, "%s", e)
                   : (size_t)snprintf(tmp, sizeof tmp, "\\x%02X", *p);
        } else {
            size_t seq = *p < 0x80                 ? 1
                         : *p >= 0xC2 && *p < 0xE0 ? 2
                         : *p >= 0xE0 && *p < 0xF0 ? 3
                         : *p >= 0xF0 && *p < 0xF5 ? 4
                                                   : 0;
            bool ok = seq && (size_t)(end - p) >= seq;
            for (size_t k = 1; ok && k < seq; k++)
                ok = (p[k] & 0xC0) == 0x80;
            if (ok) {
                memcpy(tmp, p, seq);
                tn = adv = seq;
            } else {
                tn = (size_t)snprintf(tmp, sizeof tmp, "\\x%02X", *p); /* not UTF-8 */
            }
        }
        if (w + (space ? 1 : 0) + tn + 3 + 1 > cap) {
            memcpy(out + w, "...", 3);
            w += 3;
            break;
        }
        if (space)
            out[w++] = ' ';
        space = false;
        memcpy(out + w, tmp, tn);
        w += tn;
        p += adv;
    }
    out[w] = '\0';
    return w;
}

/* The first non-empty `message` of an `errors` array, with how many others there are. */
static const char *first_of_errors(const json_t *j, size_t *others)
{
    const json_t *a = json_object_get(j, "errors");
    const char *first = NULL;
    size_t n = 0;
    for (size_t i = 0; i < json_array_size(a); i++) {
        const char *m = string_at(json_array_get(a, i), "message", NULL);
        if (m && !first)
            first = m;
        else if (m)
            n++;
    }
    *others = n;
    return first;
}

size_t sdkrt_server_message_json_(const json_t *j, char *out, size_t cap)
{
    if (cap)
        out[0] = '\0';
    if (!json_is_object(j) || cap < 8)
        return 0;
    /* Where APIs put their message (docs/runtime.md, in this order): an RFC 9457 problem's title
     * and detail together; Stripe and OpenAI {"error": {"message"}}; Asana and GraphQL-style
     * {"errors": [{"message"}]}; GitHub and most {"message"}; FastAPI {"detail"}; OAuth 2
     * {"error_description"} (before its code in "error"); Slack-like {"error": "..."}; a lone
     * {"title"}; OpenCode's {"name", "data": {"message"}}. */
    const char *title = string_at(j, "title", NULL), *detail = string_at(j, "detail", NULL);
    size_t w = 0;
    if (title && detail) {
        w = put_text(out, cap, 0, (const unsigned char *)title, strlen(title), false);
        if (w + 2 + 4 < cap) {
            memcpy(out + w, ": ", 3);
            w = put_text(out, cap, w + 2, (const unsigned char *)detail, strlen(detail), false);
        }
        return w;
    }
    const char *msg = string_at(j, "error", "message");
    size_t others = 0;
    if (!msg && (msg = first_of_errors(j, &others)) != NULL) {
        w = put_text(out, cap, 0, (const unsigned char *)msg, strlen(msg), false);
        if (others && w + 32 < cap)
            w += (size_t)snprintf(out + w, cap - w, " (and %zu more)", others);
        return w;
    }
    static const char *const where[][2] = {
        {"message", NULL}, {"detail", NULL}, {"error_description", NULL},
        {"error", NULL},   {"title", NULL},  {"data", "message"}};
    for (size_t i = 0; !msg && i < sizeof where / sizeof where[0]; i++)
        msg = string_at(j, where[i][0], where[i][1]);
    return msg ? put_text(out, cap, 0, (const unsigned char *)msg, strlen(msg), false) : 0;
}

/* A body worth quoting as text: a textual media type, or none and no NUL byte. */
static bool textual(const char *ct, const char *body, size_t len)
{
    if (!ct)
        return !memchr(body, '\0', len);
    return strncmp(ct, "text/", 5) == 0 || strstr(ct, "xml") || strstr(ct, "json") ||
           strstr(ct, "javascript") || strcmp(ct, "application/x-www-form-urlencoded") == 0;
}

size_t sdkrt_server_message_(const char *content_type, const char *body, size_t len, char *out,
                             size_t cap)
{
    if (cap)
        out[0] = '\0';
    if (!body || !len || cap < 8)
        return 0;
    /* JSON by its media type, or by its look when the server sent none */
    size_t i = 0;
    while (i < len && (body[i] == ' ' || body[i] == '\t' || body[i] == '\r' || body[i] == '\n'))
        i++;
    bool json = content_type ? sdkrt_media_is_json(content_type) : i < len && body[i] == '{';
    if (json) {
        json_t *j = json_loadb(body, len, SDKRT_JSON_LOAD_FLAGS, NULL);
        size_t w = sdkrt_server_message_json_(j, out, cap);
        json_decref(j);
        if (w)
            return w;
    }
    if (!textual(content_type, body, len))
        return 0;
    /* any other text (HTML, plain text, JSON without a known field): its first bytes */
    size_t n = len - i;
    while (n && (body[i + n - 1] == ' ' || body[i + n - 1] == '\t' || body[i + n - 1] == '\r' ||
                 body[i + n - 1] == '\n'))
        n--;
    size_t keep = n > SDKRT_SERVER_TEXT_MAX ? SDKRT_SERVER_TEXT_MAX : n;
    size_t w = put_text(out, cap, 0, (const unsigned char *)body + i, keep, true);
    if (keep < n && w + 3 < cap && (w < 3 || strcmp(out + w - 3, "...") != 0)) {
        memcpy(out + w, "...", 4);
        w += 3;
    }
    return w;
}
