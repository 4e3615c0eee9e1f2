/* One exchange: preparing a request for a transport, and reading its outcome (exchange.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exchange.h"

/* Show the response's status and headers to the call's on_response, if any. */
sdkrt_status sdkrt_prepared_notify_(const sdkrt_prepared_ *p, const sdkrt_response *resp,
                                    sdkrt_error **err)
{
    if (!p->on_response)
        return SDKRT_OK;
    size_t n = sdkrt_response_header_count(resp);
    sdkrt_header *h = calloc(n ? n : 1, sizeof *h);
    if (!h)
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    for (size_t i = 0; i < n; i++)
        sdkrt_response_header_at(resp, i, &h[i].name, &h[i].value);
    p->on_response(p->userdata, sdkrt_response_status(resp), h, n);
    free(h);
    return SDKRT_OK;
}

void sdkrt_prepared_cleanup_(sdkrt_prepared_ *p)
{
    free(p->method);
    if (p->url)
        memset(p->url, 0, strlen(p->url)); /* may hold an API key */
    if (p->target)
        memset(p->target, 0, strlen(p->target));
    free(p->url);
    free(p->shown_url);
    free(p->target);
    sdkrt_multipart_free(p->multipart);
    sdkrt_multipart_free(p->reread);
    free(p->headers);
    for (size_t i = 0; i < p->owned_count; i++) {
        if (p->owned[i].value)
            memset(p->owned[i].value, 0, strlen(p->owned[i].value));
        free(p->owned[i].name);
        free(p->owned[i].value);
    }
    free(p->owned);
    free(p->body);
    memset(p, 0, sizeof *p);
}

/* Add or replace (case-insensitively) a header in the sdkrt_prepared_ set. */
static bool prepared_header(sdkrt_prepared_ *p, const char *name, const char *value)
{
    char *v = sdkrt_strdup_(value);
    if (!v)
        return false;
    for (size_t i = 0; i < p->owned_count; i++) {
        if (sdkrt_strcasecmp_(p->owned[i].name, name) == 0) {
            free(p->owned[i].value);
            p->owned[i].value = v;
            return true;
        }
    }
    char *n = sdkrt_strdup_(name);
    sdkrt_pair_ *g = n ? realloc(p->owned, (p->owned_count + 1) * sizeof *g) : NULL;
    if (!g) {
        free(n);
        free(v);
        return false;
    }
    p->owned = g;
    g[p->owned_count].name = n;
    g[p->owned_count].value = v;
    p->owned_count++;
    return true;
}

static bool has_header(const sdkrt_prepared_ *p, const char *name)
{
    for (size_t i = 0; i < p->owned_count; i++) {
        if (sdkrt_strcasecmp_(p->owned[i].name, name) == 0)
            return true;
    }
    return false;
}

static void prepared_drop_header(sdkrt_prepared_ *p, const char *name)
{
    for (size_t i = 0; i < p->owned_count; i++) {
        if (sdkrt_strcasecmp_(p->owned[i].name, name) == 0) {
            free(p->owned[i].name);
            free(p->owned[i].value);
            memmove(&p->owned[i], &p->owned[i + 1], (p->owned_count - i - 1) * sizeof *p->owned);
            p->owned_count--;
            return;
        }
    }
}

/* Does credential k fit a scheme of kind `kind`? */
static bool cred_fits(const sdkrt_credential *k, sdkrt_security_kind kind)
{
    if (kind == SDKRT_SECURITY_HTTP_BASIC)
        return k->username && k->password;
    return k->token && *k->token;
}

/* What one scheme puts on a sdkrt_prepared_ call: an Authorization value or an API key header, or
 * an API key in the query or a cookie. Strings owned (zeroed when released). */
typedef struct auth_part {
    char *header_name; /* "Authorization" or the API key header; NULL: no header */
    char *header_value;
    char *query; /* encoded "param=key" */
    char *query_shown;
    char *cookie; /* encoded "param=key" */
} auth_part;

/* What authenticates one sdkrt_prepared_ call: the parts of every scheme of one requirement. */
typedef struct auth_plan {
    auth_part parts[SDKRT_SECURITY_MAX_TOGETHER];
    size_t n;
    bool oom;
    bool key_nowhere; /* an API key for a request that names no scheme, and no api_key_header */
} auth_plan;

static void auth_plan_cleanup(auth_plan *a)
{
    for (size_t i = 0; i < a->n; i++) {
        auth_part *p = &a->parts[i];
        free(p->header_name);
        sdkrt_zero_free_(p->header_value);
        sdkrt_zero_free_(p->query);
        free(p->query_shown);
        sdkrt_zero_free_(p->cookie);
    }
    memset(a, 0, sizeof *a);
}

static char *dup_or_oom(auth_plan *a, const char *s)
{
    char *d = sdkrt_strdup_(s);
    if (!d)
        a->oom = true;
    return d;
}

/* Add to a the part of scheme s, from either credential k or the client's `auth` value. */
static void plan_apply(auth_plan *a, const sdkrt_security_scheme *s, const sdkrt_credential *k,
                       const char *auth_value)
{
    if (a->n == SDKRT_SECURITY_MAX_TOGETHER)
        return; /* the caller checks the requirement's size first */
    auth_part *p = &a->parts[a->n++];
    if (s->kind != SDKRT_SECURITY_API_KEY) {
        p->header_name = dup_or_oom(a, "Authorization");
        if (!k) {
            p->header_value = dup_or_oom(a, auth_value);
            return;
        }
        sdkrt_buf_ b = {0};
        if (s->kind == SDKRT_SECURITY_HTTP_BASIC) {
            sdkrt_buf_ up = {0};
            sdkrt_buf_printf_(&up, "%s:%s", k->username, k->password);
            sdkrt_buf_puts_(&b, "Basic ");
            if (!up.oom)
                sdkrt_base64_(&b, (const unsigned char *)up.data, up.len);
            b.oom = b.oom || up.oom;
            if (up.data)
                memset(up.data, 0, up.len);
            sdkrt_buf_cleanup_(&up);
        } else {
            sdkrt_buf_printf_(&b, "Bearer %s", k->token);
        }
        if (b.oom) {
            a->oom = true;
            if (b.data)
                memset(b.data, 0, b.len);
            sdkrt_buf_cleanup_(&b);
            return;
        }
        p->header_value = b.data;
        return;
    }
    const char *key = k ? k->token : auth_value;
    const char *param = s->param ? s->param : "";
    if (s->in == SDKRT_IN_HEADER) {
        p->header_name = dup_or_oom(a, param);
        p->header_value = dup_or_oom(a, key);
        return;
    }
    sdkrt_buf_ b = {0}, shown = {0};
    sdkrt_pct_encode_(&b, param);
    sdkrt_buf_puts_(&b, "=");
    sdkrt_pct_encode_(&b, key);
    if (b.oom) {
        a->oom = true;
        if (b.data)
            memset(b.data, 0, b.len);
        sdkrt_buf_cleanup_(&b);
        return;
    }
    if (s->in == SDKRT_IN_COOKIE) {
        p->cookie = b.data;
        return;
    }
    p->query = b.data;
    sdkrt_pct_encode_(&shown, param);
    sdkrt_buf_puts_(&shown, "=REDACTED");
    if (shown.oom)
        a->oom = true;
    p->query_shown = shown.data;
}

/* The credential for scheme s: one named for it, then one without a scheme name; NULL when
 * none fits. *legacy is set when the client's `auth` of the matching kind fits instead. */
static const sdkrt_credential *credential_for(const sdkrt_client *c, const sdkrt_security_scheme *s,
                                              bool *legacy)
{
    for (size_t j = 0; j < c->cred_count; j++) {
        if (c->creds[j].scheme && s->name && strcmp(c->creds[j].scheme, s->name) == 0 &&
            cred_fits(&c->creds[j], s->kind))
            return &c->creds[j];
    }
    for (size_t j = 0; j < c->cred_count; j++) {
        if (!c->creds[j].scheme && cred_fits(&c->creds[j], s->kind))
            return &c->creds[j];
    }
    *legacy = c->auth_value &&
              ((s->kind == SDKRT_SECURITY_HTTP_BASIC && c->auth_kind == SDKRT_AUTH_BASIC) ||
               (s->kind == SDKRT_SECURITY_HTTP_BEARER && c->auth_kind == SDKRT_AUTH_BEARER) ||
               (s->kind == SDKRT_SECURITY_API_KEY && c->auth_kind == SDKRT_AUTH_API_KEY));
    return NULL;
}

/* Choose how req is authenticated. Without security on the request: the client's `auth`. With
 * it: the first requirement whose every scheme has a fitting credential (named for it, then one
 * without a scheme name, then `auth` of the matching kind); none fits or none is declared:
 * nothing. */
static void plan_auth(auth_plan *a, const sdkrt_client *c, const sdkrt_request *req)
{
    memset(a, 0, sizeof *a);
    if (!req->has_security) {
        if (c->auth_value && c->auth_kind == SDKRT_AUTH_API_KEY && !c->api_key_header) {
            a->key_nowhere = true;
        } else if (c->auth_value) {
            a->parts[0].header_name = dup_or_oom(
                a, c->auth_kind == SDKRT_AUTH_API_KEY ? c->api_key_header : "Authorization");
            a->parts[0].header_value = dup_or_oom(a, c->auth_value);
            a->n = 1;
        }
        return;
    }
    for (size_t i = 0; i < req->security_count;) {
        size_t end = i + 1;
        while (end < req->security_count && req->security[end].with_previous)
            end++;
        bool fits = end - i <= SDKRT_SECURITY_MAX_TOGETHER;
        for (size_t q = i; q < end && fits; q++) {
            bool legacy = false;
            fits = credential_for(c, &req->security[q], &legacy) || legacy;
        }
        if (fits) {
            for (size_t q = i; q < end; q++) {
                bool legacy = false;
                const sdkrt_credential *k = credential_for(c, &req->security[q], &legacy);
                plan_apply(a, &req->security[q], k, k ? NULL : c->auth_value);
            }
            return;
        }
        i = end;
    }
}

/* How much of the base URL goes before req's target: all of it, or for a followed next-page URL
 * (relative to the origin, not to the base path) the origin only. */
static int url_prefix_len(const sdkrt_client *c, const sdkrt_request *req)
{
    return (int)(strlen(c->base_url) - (req->origin_target ? strlen(c->base_path) : 0));
}

char *sdkrt_client_url_(const sdkrt_client *client, const sdkrt_request *req, sdkrt_error **err)
{
    char *target = NULL;
    if (sdkrt_request_target(&target, req, err) != SDKRT_OK)
        return NULL;
    sdkrt_buf_ b = {0};
    sdkrt_buf_printf_(&b, "%.*s%s", url_prefix_len(client, req), client->base_url, target);
    free(target);
    if (b.oom) {
        sdkrt_buf_cleanup_(&b);
        sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    return b.data;
}

/* Messages quote the URL; a huge one (a long parameter) is cut so that errors stay readable. */
static void shorten_shown(sdkrt_buf_ *shown)
{
    enum { KEEP = 200 };
    if (shown->oom || shown->len <= KEEP + 40)
        return;
    size_t total = shown->len;
    shown->len = KEEP;
    while (shown->len && (shown->data[shown->len] & 0xC0) == 0x80)
        shown->len--; /* not inside a UTF-8 sequence (percent-encoding makes this rare) */
    shown->data[shown->len] = '\0';
    sdkrt_buf_printf_(shown, "... (%zu bytes)", total);
}

sdkrt_status sdkrt_prepare_(sdkrt_prepared_ *p, const sdkrt_client *c, const sdkrt_request *req,
                            const sdkrt_call_options *call, bool stream, sdkrt_error **err)
{
    memset(p, 0, sizeof *p);
    char *rel = NULL;
    auth_plan auth;
    plan_auth(&auth, c, req);
    if (auth.key_nowhere)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "%s %s declares no security scheme, so an API key goes in the "
                               "client's api_key_header, which is not set",
                               req->method ? req->method : "?",
                               req->path_template ? req->path_template : "?");
    if (sdkrt_request_target(&rel, req, err) != SDKRT_OK) {
        auth_plan_cleanup(&auth);
        return SDKRT_ERR;
    }
    sdkrt_buf_ t = {0}, u = {0}, shown = {0};
    const char *qsep = strchr(rel, '?') ? "&" : "?";
    const char *prefix = req->origin_target ? "" : c->base_path;
    int origin = url_prefix_len(c, req);
    sdkrt_buf_printf_(&t, "%s%s", prefix, rel);
    sdkrt_buf_printf_(&u, "%.*s%s", origin, c->base_url, rel);
    sdkrt_buf_printf_(&shown, "%.*s%s", origin, c->base_url, rel);
    for (size_t i = 0; i < auth.n; i++) {
        const auth_part *ap = &auth.parts[i];
        if (!ap->query)
            continue;
        sdkrt_buf_printf_(&t, "%s%s", qsep, ap->query);
        sdkrt_buf_printf_(&u, "%s%s", qsep, ap->query);
        sdkrt_buf_printf_(&shown, "%s%s", qsep, ap->query_shown);
        qsep = "&";
    }
    free(rel);
    shorten_shown(&shown);
    p->target = t.data;
    p->url = u.data;
    p->shown_url = shown.data;
    p->method = sdkrt_strdup_(req->method);
    if (t.oom || u.oom || shown.oom || !p->method || auth.oom)
        goto oom;
    if (u.len > SDKRT_MAX_URL_BYTES) {
        /* libcurl refuses it as a malformed URL: say what is wrong instead */
        sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                        "%s %s: the request URL is %zu bytes, more than the %zu that can be sent",
                        p->method, req->path_template ? req->path_template : "?", u.len,
                        (size_t)SDKRT_MAX_URL_BYTES);
        goto fail;
    }
    if (call && call->header_count && !call->headers)
        goto bad_call;
    for (size_t i = 0; call && i < call->header_count; i++) {
        const sdkrt_header *h = &call->headers[i];
        if (!sdkrt_header_name_ok_(h->name) || !sdkrt_header_value_ok_(h->value)) {
            sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                            "%s %s: call header %.60s: invalid name, or value with CR or LF "
                            "(header injection refused)",
                            p->method, p->shown_url, h->name ? h->name : "(null)");
            goto fail;
        }
    }
    for (size_t i = 0; i < auth.n; i++) {
        const auth_part *ap = &auth.parts[i];
        if (ap->header_name && (!sdkrt_header_name_ok_(ap->header_name) ||
                                !sdkrt_header_value_ok_(ap->header_value))) {
            sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                            "%s %s: the API key header name of the security scheme is not a token",
                            p->method, p->shown_url);
            goto fail;
        }
    }
    if (call &&
        (!sdkrt_timeout_ok_(call->timeout_ms) || !sdkrt_timeout_ok_(call->connect_timeout_ms) ||
         !sdkrt_timeout_ok_(call->head_timeout_ms)))
        goto bad_call;
    for (size_t i = 0; i < c->header_count; i++) {
        if (!prepared_header(p, c->headers[i].name, c->headers[i].value))
            goto oom;
    }
    bool auth_cookie = false;
    for (size_t i = 0; i < auth.n; i++) {
        const auth_part *ap = &auth.parts[i];
        if (ap->header_name && !prepared_header(p, ap->header_name, ap->header_value))
            goto oom;
        auth_cookie = auth_cookie || ap->cookie;
    }
    if (auth_cookie || req->cookie_count) {
        sdkrt_buf_ ck = {0};
        for (size_t i = 0; i < auth.n; i++) {
            if (!auth.parts[i].cookie)
                continue;
            if (ck.len)
                sdkrt_buf_puts_(&ck, "; ");
            sdkrt_buf_puts_(&ck, auth.parts[i].cookie);
        }
        for (size_t i = 0; i < req->cookie_count; i++) {
            if (ck.len)
                sdkrt_buf_puts_(&ck, "; ");
            sdkrt_buf_puts_(&ck, req->cookies[i]);
        }
        bool ok = !ck.oom && prepared_header(p, "Cookie", ck.data);
        if (ck.data)
            memset(ck.data, 0, ck.len);
        sdkrt_buf_cleanup_(&ck);
        if (!ok)
            goto oom;
    }
    if (stream && !has_header(p, "Accept") && !prepared_header(p, "Accept", "text/event-stream"))
        goto oom;
    for (size_t i = 0; i < req->header_count; i++) {
        if (!prepared_header(p, req->headers[i].name, req->headers[i].value))
            goto oom;
    }
    for (size_t i = 0; call && i < call->header_count; i++) {
        if (!prepared_header(p, call->headers[i].name, call->headers[i].value))
            goto oom;
    }
    if (req->multipart && sdkrt_transport_is_curl_(c->transport)) {
        /* libcurl builds the body itself (curl_mime) and its own Content-Type with the boundary */
        p->multipart = sdkrt_multipart_copy_(req->multipart);
        if (!p->multipart)
            goto oom;
        prepared_drop_header(p, "Content-Type");
    } else if (req->multipart) {
        char *ct = NULL;
        sdkrt_error *e = NULL;
        if (sdkrt_multipart_serialize(req->multipart, &p->body, &p->body_len, &ct, &e) !=
            SDKRT_OK) {
            sdkrt_error_prefix_(e, "%s %s: ", p->method, p->shown_url);
            sdkrt_error_propagate(err, e);
            goto fail;
        }
        bool ok = prepared_header(p, "Content-Type", ct);
        free(ct);
        if (!ok)
            goto oom;
        p->has_body = true;
        bool files = false;
        for (size_t i = 0; i < sdkrt_multipart_count(req->multipart); i++) {
            const char *name, *filename, *pct, *path;
            const void *data;
            size_t len;
            sdkrt_multipart_part(req->multipart, i, &name, &filename, &pct, &data, &len, &path);
            files = files || path;
        }
        if (files && !stream && !(p->reread = sdkrt_multipart_copy_(req->multipart)))
            goto oom;
    } else if (req->has_body) {
        if (!has_header(p, "Content-Type") &&
            !prepared_header(p, "Content-Type", req->content_type))
            goto oom;
        p->body = malloc(req->body_len ? req->body_len : 1);
        if (!p->body)
            goto oom;
        if (req->body_len)
            memcpy(p->body, req->body, req->body_len);
        p->body_len = req->body_len;
        p->has_body = true;
    }
    p->headers = calloc(p->owned_count ? p->owned_count : 1, sizeof *p->headers);
    if (!p->headers)
        goto oom;
    for (size_t i = 0; i < p->owned_count; i++) {
        p->headers[i].name = p->owned[i].name;
        p->headers[i].value = p->owned[i].value;
    }
    p->header_count = p->owned_count;
    long call_timeout = call ? call->timeout_ms : 0;
    sdkrt_transport_request *tr = &p->treq;
    tr->method = p->method;
    tr->url = p->url;
    tr->target = p->target;
    tr->headers = p->headers;
    tr->header_count = p->header_count;
    tr->body = p->has_body ? p->body : NULL;
    tr->body_len = p->body_len;
    tr->connect_timeout_ms =
        sdkrt_effective_timeout_(call ? call->connect_timeout_ms : 0, c->connect_timeout_ms);
    tr->head_timeout_ms =
        sdkrt_effective_timeout_(call ? call->head_timeout_ms : 0, c->head_timeout_ms);
    tr->timeout_ms = stream ? 0 : sdkrt_effective_timeout_(call_timeout, c->timeout_ms);
    tr->idle_timeout_ms = stream ? sdkrt_effective_timeout_(call_timeout, c->idle_timeout_ms) : 0;
    tr->max_response_bytes = c->max_response_bytes;
    tr->verify_tls = c->verify_tls;
    tr->ca_file = c->ca_file;
    tr->ca_path = c->ca_path;
    tr->cancel = sdkrt_cancel_either_(&p->either, call ? call->cancel : NULL, c->cancel);
    tr->multipart = p->multipart;
    p->on_response = call ? call->on_response : NULL;
    p->userdata = call ? call->userdata : NULL;
    auth_plan_cleanup(&auth);
    return SDKRT_OK;
bad_call:
    sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT, "%s %s: invalid call options", p->method,
                    p->shown_url);
    goto fail;
oom:
    sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory preparing %s %s", req->method,
                    req->path_template);
fail:
    auth_plan_cleanup(&auth);
    sdkrt_prepared_cleanup_(p);
    return SDKRT_ERR;
}

sdkrt_status sdkrt_prepared_reread_(sdkrt_prepared_ *p, sdkrt_error **err)
{
    if (!p->reread)
        return SDKRT_OK;
    char *body = NULL, *ct = NULL;
    size_t len = 0;
    sdkrt_error *e = NULL;
    if (sdkrt_multipart_serialize(p->reread, &body, &len, &ct, &e) != SDKRT_OK) {
        sdkrt_error_prefix_(e, "%s %s: ", p->method, p->shown_url);
        sdkrt_error_propagate(err, e);
        return SDKRT_ERR;
    }
    bool ok = prepared_header(p, "Content-Type", ct); /* replaces the value: count unchanged */
    free(ct);
    if (!ok) {
        free(body);
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory preparing %s %s",
                               p->method, p->shown_url);
    }
    for (size_t i = 0; i < p->owned_count; i++) {
        p->headers[i].name = p->owned[i].name;
        p->headers[i].value = p->owned[i].value;
    }
    free(p->body);
    p->body = body;
    p->body_len = len;
    p->treq.body = body;
    p->treq.body_len = len;
    return SDKRT_OK;
}

sdkrt_status sdkrt_exchange_cancelled_(const sdkrt_prepared_ *p, sdkrt_error **err)
{
    return sdkrt_error_set(err, SDKRT_REASON_CANCELLED, "%s %s: cancelled before sending",
                           p->method, p->shown_url);
}

sdkrt_status sdkrt_exchange_outcome_(const sdkrt_prepared_ *p, sdkrt_status st,
                                     sdkrt_response **resp, sdkrt_error *e, sdkrt_error **err)
{
    if (st != SDKRT_OK) {
        sdkrt_response_free(*resp);
        *resp = NULL;
        sdkrt_error_prefix_(e, "%s %s: ", p->method, p->shown_url);
        sdkrt_error_propagate(err, e);
        return SDKRT_ERR;
    }
    sdkrt_error_free(e);
    sdkrt_response_set_origin_(*resp, p->method, p->shown_url);
    if (sdkrt_prepared_notify_(p, *resp, err) != SDKRT_OK) {
        sdkrt_response_free(*resp);
        *resp = NULL;
        return SDKRT_ERR;
    }
    return SDKRT_OK;
}
