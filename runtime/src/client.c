/* Clients: options, header assembly, unary calls and SSE streams over a transport. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>

#include "internal.h"
#include "stream_core.h"
#include "request_internal.h"
#include "sdkrt/sse.h"

struct sdkrt_client {
    char *base_url;       /* normalised, no trailing slash */
    char *base_path;      /* path prefix of base_url, "" or "/p" */
    sdkrt_pair_ *headers; /* user agent, defaults, then authorization */
    size_t header_count;
    long connect_timeout_ms; /* resolved: SDKRT_TIMEOUT_OFF or > 0 */
    long head_timeout_ms;
    long timeout_ms;
    long idle_timeout_ms; /* 0 = none */
    bool verify_tls;
    char *ca_file;
    char *ca_path;
    size_t max_response_bytes;
    size_t max_event_bytes;
    const sdkrt_transport *transport;
    sdkrt_transport *own_transport;
    char *auth_value; /* Authorization from `auth` (API_KEY: the key), or NULL */
    sdkrt_auth_kind auth_kind;
    char *api_key_header;    /* API_KEY: the header for requests that name no scheme */
    sdkrt_credential *creds; /* copies (strings owned) */
    size_t cred_count;
    sdkrt_retry_policy retry; /* as given (defaults filled per call by retry.c) */
    char *idempotency_header; /* owned */
    sdkrt_cancel *cancel;     /* borrowed */
};

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void base64(sdkrt_buf_ *b, const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)s[i] << 16;
        if (i + 1 < n)
            v |= (unsigned)s[i + 1] << 8;
        if (i + 2 < n)
            v |= s[i + 2];
        char out[4] = {b64[(v >> 18) & 63], b64[(v >> 12) & 63],
                       i + 1 < n ? b64[(v >> 6) & 63] : '=', i + 2 < n ? b64[v & 63] : '='};
        sdkrt_buf_append_(b, out, 4);
    }
}

static sdkrt_status add_header(sdkrt_client *c, const char *name, const char *value)
{
    sdkrt_pair_ *g = realloc(c->headers, (c->header_count + 1) * sizeof *g);
    if (!g)
        return SDKRT_ERR;
    c->headers = g;
    g[c->header_count].name = sdkrt_strdup_(name);
    g[c->header_count].value = sdkrt_strdup_(value);
    c->header_count++;
    return g[c->header_count - 1].name && g[c->header_count - 1].value ? SDKRT_OK : SDKRT_ERR;
}

/* Parse and normalise the base URL with libcurl's URL API. */
static sdkrt_status set_base_url(sdkrt_client *c, const char *url, sdkrt_error **err)
{
    sdkrt_status st = SDKRT_ERR;
    CURLU *u = curl_url();
    char *scheme = NULL, *user = NULL, *password = NULL, *query = NULL, *fragment = NULL;
    char *full = NULL, *path = NULL;
    if (!u) {
        sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
        goto done;
    }
    if (curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK) {
        sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                        "base URL does not parse as an absolute http(s) URL");
        goto done;
    }
    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0);
    if (!scheme || (strcmp(scheme, "http") != 0 && strcmp(scheme, "https") != 0)) {
        sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                        "base URL scheme must be http or https, not %s", scheme ? scheme : "none");
        goto done;
    }
    if (curl_url_get(u, CURLUPART_USER, &user, 0) == CURLUE_OK ||
        curl_url_get(u, CURLUPART_PASSWORD, &password, 0) == CURLUE_OK) {
        sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                        "base URL may not carry credentials; use the auth options");
        goto done;
    }
    if (curl_url_get(u, CURLUPART_QUERY, &query, 0) == CURLUE_OK ||
        curl_url_get(u, CURLUPART_FRAGMENT, &fragment, 0) == CURLUE_OK) {
        sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                        "base URL may not have a query or fragment");
        goto done;
    }
    if (curl_url_get(u, CURLUPART_URL, &full, 0) != CURLUE_OK ||
        curl_url_get(u, CURLUPART_PATH, &path, 0) != CURLUE_OK) {
        sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT, "base URL is incomplete");
        goto done;
    }
    c->base_url = sdkrt_strdup_(full);
    c->base_path = sdkrt_strdup_(path);
    if (!c->base_url || !c->base_path) {
        sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
        goto done;
    }
    for (size_t n = strlen(c->base_url); n > 0 && c->base_url[n - 1] == '/'; n--)
        c->base_url[n - 1] = '\0';
    for (size_t n = strlen(c->base_path); n > 0 && c->base_path[n - 1] == '/'; n--)
        c->base_path[n - 1] = '\0';
    st = SDKRT_OK;
done:
    curl_free(scheme);
    curl_free(user);
    curl_free(password);
    curl_free(query);
    curl_free(fragment);
    curl_free(full);
    curl_free(path);
    curl_url_cleanup(u);
    return st;
}

static sdkrt_status set_auth(sdkrt_client *c, const sdkrt_client_options *o, sdkrt_error **err)
{
    sdkrt_buf_ b = {0};
    switch (o->auth) {
    case SDKRT_AUTH_NONE:
        return SDKRT_OK;
    case SDKRT_AUTH_BASIC: {
        if (!o->username || strchr(o->username, ':') || !o->password)
            return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                                   "basic auth needs a username without ':' and a password");
        sdkrt_buf_ up = {0};
        sdkrt_buf_printf_(&up, "%s:%s", o->username, o->password);
        sdkrt_buf_puts_(&b, "Basic ");
        if (!up.oom)
            base64(&b, (const unsigned char *)up.data, up.len);
        if (up.data)
            memset(up.data, 0, up.len);
        sdkrt_buf_cleanup_(&up);
        break;
    }
    case SDKRT_AUTH_BEARER:
        if (!o->token || !*o->token || !sdkrt_header_value_ok_(o->token))
            return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                                   "bearer auth needs a token without CR or LF");
        sdkrt_buf_printf_(&b, "Bearer %s", o->token);
        break;
    case SDKRT_AUTH_API_KEY:
        /* api_key_header is needed only by requests that name no scheme; a declared apiKey
           scheme says itself where the key goes. */
        if (!o->token || !*o->token || !sdkrt_header_value_ok_(o->token) ||
            (o->api_key_header && !sdkrt_header_name_ok_(o->api_key_header)))
            return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                                   "API key auth needs a token without CR or LF (and "
                                   "api_key_header, when set, a valid header name)");
        if (o->api_key_header) {
            c->api_key_header = sdkrt_strdup_(o->api_key_header);
            b.oom = !c->api_key_header;
        }
        sdkrt_buf_puts_(&b, o->token);
        break;
    default:
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT, "unknown auth kind %d",
                               (int)o->auth);
    }
    if (b.oom) {
        if (b.data)
            memset(b.data, 0, b.len);
        sdkrt_buf_cleanup_(&b);
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    }
    c->auth_value = b.data; /* kept (zeroed at free) */
    c->auth_kind = o->auth;
    return SDKRT_OK;
}

static void zero_free(char *s)
{
    if (s)
        memset(s, 0, strlen(s));
    free(s);
}

static void creds_free(sdkrt_credential *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free((char *)v[i].scheme);
        zero_free((char *)v[i].username);
        zero_free((char *)v[i].password);
        zero_free((char *)v[i].token);
    }
    free(v);
}

static sdkrt_status set_credentials(sdkrt_client *c, const sdkrt_client_options *o,
                                    sdkrt_error **err)
{
    if (!o->credential_count)
        return SDKRT_OK;
    if (!o->credentials)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "credential_count without credentials");
    for (size_t i = 0; i < o->credential_count; i++) {
        const sdkrt_credential *k = &o->credentials[i];
        bool basic = k->username && k->password;
        bool ok =
            (basic || (k->token && *k->token)) &&
            (!k->username || (sdkrt_header_value_ok_(k->username) && !strchr(k->username, ':'))) &&
            (!k->password || sdkrt_header_value_ok_(k->password)) &&
            (!k->token || sdkrt_header_value_ok_(k->token)) &&
            (!k->scheme || sdkrt_header_value_ok_(k->scheme));
        if (!ok) /* the message names the entry, never its secret */
            return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                                   "credential %zu: needs a token, or a username without ':' and "
                                   "a password, none with CR or LF",
                                   i);
    }
    c->creds = calloc(o->credential_count, sizeof *c->creds);
    if (!c->creds)
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    c->cred_count = o->credential_count;
    for (size_t i = 0; i < o->credential_count; i++) {
        const sdkrt_credential *k = &o->credentials[i];
        sdkrt_credential *d = &c->creds[i];
        d->scheme = sdkrt_strdup_(k->scheme);
        d->username = sdkrt_strdup_(k->username);
        d->password = sdkrt_strdup_(k->password);
        d->token = sdkrt_strdup_(k->token);
        if ((k->scheme && !d->scheme) || (k->username && !d->username) ||
            (k->password && !d->password) || (k->token && !d->token))
            return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    }
    return SDKRT_OK;
}

static bool timeout_ok(long ms)
{
    return ms >= 0 || ms == SDKRT_TIMEOUT_OFF;
}

/* A call's timeout over the client's: 0 takes the client's; OFF (either) gives 0, which
 * transports read as none. */
static long effective_timeout(long call, long client)
{
    long v = call ? call : client;
    return v == SDKRT_TIMEOUT_OFF ? 0 : v;
}

sdkrt_status sdkrt_client_new(sdkrt_client **out, const sdkrt_client_options *opts,
                              sdkrt_error **err)
{
    *out = NULL;
    sdkrt_client *c = NULL;
    if (!opts || !opts->base_url)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT, "client needs a base URL");
    c = calloc(1, sizeof *c);
    if (!c)
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    if (set_base_url(c, opts->base_url, err) != SDKRT_OK)
        goto fail;
    if (opts->header_count && !opts->headers) {
        sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT, "header_count without headers");
        goto fail;
    }
    char ua_default[64];
    snprintf(ua_default, sizeof ua_default, "sdkrt/%s", sdkrt_version_string());
    const char *ua = opts->user_agent ? opts->user_agent : ua_default;
    if (!sdkrt_header_value_ok_(ua)) {
        sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT, "user agent contains CR or LF");
        goto fail;
    }
    if (add_header(c, "User-Agent", ua) != SDKRT_OK)
        goto oom;
    for (size_t i = 0; i < opts->header_count; i++) {
        const sdkrt_header *h = &opts->headers[i];
        if (!sdkrt_header_name_ok_(h->name) || !sdkrt_header_value_ok_(h->value)) {
            sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                            "default header %.60s: invalid name, or value with CR or LF",
                            h->name ? h->name : "(null)");
            goto fail;
        }
        if (add_header(c, h->name, h->value) != SDKRT_OK)
            goto oom;
    }
    if (set_auth(c, opts, err) != SDKRT_OK || set_credentials(c, opts, err) != SDKRT_OK)
        goto fail;
    if (!timeout_ok(opts->connect_timeout_ms) || !timeout_ok(opts->head_timeout_ms) ||
        !timeout_ok(opts->timeout_ms) || !timeout_ok(opts->idle_timeout_ms)) {
        sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                        "timeouts may not be negative (but SDKRT_TIMEOUT_OFF)");
        goto fail;
    }
    if (sdkrt_retry_policy_check_(&opts->retry, err) != SDKRT_OK)
        goto fail;
    c->retry = opts->retry;
    if (opts->idempotency_header && !sdkrt_header_name_ok_(opts->idempotency_header)) {
        sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                        "idempotency header name is not an HTTP token");
        goto fail;
    }
    c->idempotency_header = sdkrt_strdup_(opts->idempotency_header ? opts->idempotency_header
                                                                   : SDKRT_IDEMPOTENCY_HEADER);
    if (!c->idempotency_header)
        goto oom;
    c->connect_timeout_ms =
        opts->connect_timeout_ms ? opts->connect_timeout_ms : SDKRT_DEFAULT_CONNECT_TIMEOUT_MS;
    c->head_timeout_ms =
        opts->head_timeout_ms ? opts->head_timeout_ms : SDKRT_DEFAULT_HEAD_TIMEOUT_MS;
    c->timeout_ms = opts->timeout_ms ? opts->timeout_ms : SDKRT_DEFAULT_TIMEOUT_MS;
    c->idle_timeout_ms = opts->idle_timeout_ms > 0 ? opts->idle_timeout_ms : 0;
    c->cancel = opts->cancel;
    c->verify_tls = opts->verify_tls;
    c->ca_file = sdkrt_strdup_(opts->ca_file);
    c->ca_path = sdkrt_strdup_(opts->ca_path);
    if ((opts->ca_file && !c->ca_file) || (opts->ca_path && !c->ca_path))
        goto oom;
    c->max_response_bytes =
        opts->max_response_bytes ? opts->max_response_bytes : SDKRT_DEFAULT_MAX_RESPONSE_BYTES;
    c->max_event_bytes =
        opts->max_event_bytes ? opts->max_event_bytes : SDKRT_DEFAULT_MAX_EVENT_BYTES;
    if (opts->transport) {
        c->transport = opts->transport;
    } else {
        if (sdkrt_curl_transport_new(&c->own_transport, err) != SDKRT_OK)
            goto fail;
        c->transport = c->own_transport;
    }
    *out = c;
    return SDKRT_OK;
oom:
    sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory creating a client");
fail:
    sdkrt_client_free(c);
    return SDKRT_ERR;
}

void sdkrt_client_free(sdkrt_client *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->header_count; i++) {
        if (c->headers[i].value)
            memset(c->headers[i].value, 0, strlen(c->headers[i].value));
        free(c->headers[i].name);
        free(c->headers[i].value);
    }
    free(c->headers);
    free(c->base_url);
    free(c->base_path);
    free(c->ca_file);
    free(c->ca_path);
    free(c->idempotency_header);
    zero_free(c->auth_value);
    free(c->api_key_header);
    creds_free(c->creds, c->cred_count);
    sdkrt_transport_free(c->own_transport);
    free(c);
}

sdkrt_cancel *sdkrt_client_cancel(const sdkrt_client *client)
{
    return client ? client->cancel : NULL;
}

const char *sdkrt_client_base_url(const sdkrt_client *client)
{
    return client->base_url;
}

const sdkrt_retry_policy *sdkrt_client_retry_policy_(const sdkrt_client *client)
{
    return &client->retry;
}

const char *sdkrt_client_idempotency_header_(const sdkrt_client *client)
{
    return client->idempotency_header;
}

/* A fully prepared call: strings owned here, the transport request borrowing them. */
typedef struct prepared {
    char *method;
    char *url;
    char *shown_url; /* url with an API key in the query replaced: for messages */
    char *target;
    sdkrt_header *headers; /* borrowed names/values from owned[] */
    size_t header_count;
    sdkrt_pair_ *owned; /* copies, so a stream outlives the request and call options */
    size_t owned_count;
    char *body;
    size_t body_len;
    bool has_body;
    sdkrt_multipart *multipart; /* a copy, for the libcurl transport */
    sdkrt_transport_request treq;
    void (*on_response)(void *userdata, int status, const sdkrt_header *headers, size_t count);
    void *userdata;
    sdkrt_cancel either; /* the call's and the client's token, when both are set */
} prepared;

/* Show the response's status and headers to the call's on_response, if any. */
static sdkrt_status notify_response(const prepared *p, const sdkrt_response *resp,
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

static void prepared_cleanup(prepared *p)
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

/* Add or replace (case-insensitively) a header in the prepared set. */
static bool prepared_header(prepared *p, const char *name, const char *value)
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

static bool has_header(const prepared *p, const char *name)
{
    for (size_t i = 0; i < p->owned_count; i++) {
        if (sdkrt_strcasecmp_(p->owned[i].name, name) == 0)
            return true;
    }
    return false;
}

static void prepared_drop_header(prepared *p, const char *name)
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

/* What one scheme puts on a prepared call: an Authorization value or an API key header, or an
 * API key in the query or a cookie. Strings owned (zeroed when released). */
typedef struct auth_part {
    char *header_name; /* "Authorization" or the API key header; NULL: no header */
    char *header_value;
    char *query; /* encoded "param=key" */
    char *query_shown;
    char *cookie; /* encoded "param=key" */
} auth_part;

/* What authenticates one prepared call: the parts of every scheme of one requirement. */
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
        zero_free(p->header_value);
        zero_free(p->query);
        free(p->query_shown);
        zero_free(p->cookie);
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
                base64(&b, (const unsigned char *)up.data, up.len);
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

static sdkrt_status prepare(prepared *p, const sdkrt_client *c, const sdkrt_request *req,
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
    if (call && (!timeout_ok(call->timeout_ms) || !timeout_ok(call->connect_timeout_ms) ||
                 !timeout_ok(call->head_timeout_ms)))
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
        effective_timeout(call ? call->connect_timeout_ms : 0, c->connect_timeout_ms);
    tr->head_timeout_ms = effective_timeout(call ? call->head_timeout_ms : 0, c->head_timeout_ms);
    tr->timeout_ms = stream ? 0 : effective_timeout(call_timeout, c->timeout_ms);
    tr->idle_timeout_ms = stream ? effective_timeout(call_timeout, c->idle_timeout_ms) : 0;
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
    prepared_cleanup(p);
    return SDKRT_ERR;
}

/* sdkrt_client_send (retry.c) repeats this. */
sdkrt_status sdkrt_client_send_once_(sdkrt_client *client, const sdkrt_request *req,
                                     const sdkrt_call_options *call, sdkrt_response **resp,
                                     sdkrt_error **err)
{
    *resp = NULL;
    prepared p;
    if (prepare(&p, client, req, call, false, err) != SDKRT_OK)
        return SDKRT_ERR;
    sdkrt_status st = SDKRT_ERR;
    if (sdkrt_cancel_is_triggered(p.treq.cancel)) {
        sdkrt_error_set(err, SDKRT_REASON_CANCELLED, "%s %s: cancelled before sending", p.method,
                        p.shown_url);
        goto done;
    }
    sdkrt_error *e = NULL; /* the transport's error, prefixed before the caller gets it */
    st = client->transport->ops->send(client->transport->self, &p.treq, resp, &e);
    if (st != SDKRT_OK) {
        *resp = NULL;
        sdkrt_error_prefix_(e, "%s %s: ", p.method, p.shown_url);
        sdkrt_error_propagate(err, e);
        goto done;
    }
    sdkrt_response_set_origin_(*resp, p.method, p.shown_url);
    if (notify_response(&p, *resp, err) != SDKRT_OK) {
        sdkrt_response_free(*resp);
        *resp = NULL;
        st = SDKRT_ERR;
    }
done:
    prepared_cleanup(&p);
    return st;
}

/* ---- Streams ---- */

enum stream_state { STREAM_COLD, STREAM_OPEN, STREAM_ENDED, STREAM_FAILED };

/* Bytes a stream asks its reader for at least (up to four times as many when the parser's
 * buffer has room). */
#define STREAM_READ_BYTES 16384

struct sdkrt_stream {
    const sdkrt_client *client;
    prepared p;
    enum stream_state state;
    sdkrt_response *head;
    sdkrt_body_reader reader;
    bool reader_open;
    sdkrt_sse_core_ core; /* bytes -> events (stream_core.c), once the head is accepted */
    bool core_open;
    sdkrt_error *failure; /* repeated (as a copy) by every call after a failure */
    char buf[16384];      /* an error body being read */
};

sdkrt_status sdkrt_client_stream(sdkrt_client *client, const sdkrt_request *req,
                                 const sdkrt_call_options *call, sdkrt_stream **out,
                                 sdkrt_error **err)
{
    *out = NULL;
    sdkrt_stream *s = calloc(1, sizeof *s);
    if (!s)
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    sdkrt_keyed_call_ k; /* an idempotency key, copied into the stream's headers */
    sdkrt_status st = sdkrt_keyed_call_init_(&k, client, req, call, err);
    if (st == SDKRT_OK)
        st = prepare(&s->p, client, req, &k.call, true, err);
    sdkrt_keyed_call_cleanup_(&k);
    if (st != SDKRT_OK) {
        free(s);
        return SDKRT_ERR;
    }
    s->client = client;
    s->state = STREAM_COLD;
    *out = s;
    return SDKRT_OK;
}

static void stream_release(sdkrt_stream *s)
{
    if (s->reader_open) {
        s->reader.ops->close(s->reader.self);
        s->reader_open = false;
    }
    if (s->core_open) {
        sdkrt_sse_core_cleanup_(&s->core);
        s->core_open = false;
    }
}

/* Finish the stream with e (stolen; NULL only if the transport failed without one): keep it to
 * repeat it, release the connection, hand a copy to the caller. */
static sdkrt_stream_result stream_fail(sdkrt_stream *s, sdkrt_error *e, sdkrt_error **err)
{
    s->state = STREAM_FAILED;
    if (!e)
        sdkrt_error_set(&e, SDKRT_REASON_TRANSPORT, "%s %s: stream failed", s->p.method,
                        s->p.shown_url);
    sdkrt_error_free(s->failure);
    s->failure = e;
    stream_release(s);
    if (err && !*err)
        *err = sdkrt_error_copy_(e);
    return SDKRT_STREAM_ERROR;
}

static sdkrt_stream_result stream_failf(sdkrt_stream *s, sdkrt_error **err, sdkrt_reason reason,
                                        const char *what)
{
    sdkrt_error *e = NULL;
    sdkrt_error_set(&e, reason, "%s %s: %s", s->p.method, s->p.shown_url, what);
    if (s->head) {
        sdkrt_error_set_status(e, sdkrt_response_status(s->head));
        sdkrt_error_set_content_type(e, sdkrt_response_content_type(s->head));
    }
    return stream_fail(s, e, err);
}

/* Read up to SDKRT_ERROR_BODY_MAX bytes of the body into the head response, for diagnostics. */
static void read_error_body(sdkrt_stream *s)
{
    sdkrt_error *ignored = NULL;
    size_t total = 0;
    while (total < SDKRT_ERROR_BODY_MAX) {
        size_t n = 0;
        size_t want = SDKRT_ERROR_BODY_MAX - total;
        if (want > sizeof s->buf)
            want = sizeof s->buf;
        if (s->reader.ops->read(s->reader.self, s->buf, want, &n, &ignored) != SDKRT_OK || n == 0)
            break;
        if (sdkrt_response_append_body(s->head, s->buf, n, &ignored) != SDKRT_OK)
            break;
        total += n;
    }
    sdkrt_error_free(ignored);
}

static sdkrt_stream_result stream_connect(sdkrt_stream *s, sdkrt_error **err)
{
    const sdkrt_transport *t = s->client->transport;
    if (sdkrt_cancel_is_triggered(s->p.treq.cancel))
        return stream_failf(s, err, SDKRT_REASON_CANCELLED, "cancelled before connecting");
    sdkrt_error *e = NULL;
    if (t->ops->open(t->self, &s->p.treq, &s->head, &s->reader, &e) != SDKRT_OK) {
        s->head = NULL;
        sdkrt_error_prefix_(e, "%s %s: ", s->p.method, s->p.shown_url);
        return stream_fail(s, e, err);
    }
    s->reader_open = true;
    sdkrt_response_set_origin_(s->head, s->p.method, s->p.shown_url);
    if (notify_response(&s->p, s->head, &e) != SDKRT_OK)
        return stream_fail(s, e, err);
    if (!sdkrt_sse_head_ok_(s->head)) {
        read_error_body(s);
        return stream_fail(s, sdkrt_sse_head_error_(s->head, s->p.method, s->p.shown_url), err);
    }
    if (sdkrt_sse_core_init_(&s->core, s->client->max_event_bytes, s->p.method, s->p.shown_url,
                             s->head, &e) != SDKRT_OK)
        return stream_fail(s, e, err);
    s->core_open = true;
    s->state = STREAM_OPEN;
    return SDKRT_STREAM_EVENT;
}

sdkrt_stream_result sdkrt_stream_next(sdkrt_stream *s, sdkrt_stream_event *event, sdkrt_error **err)
{
    if (s->state == STREAM_ENDED)
        return SDKRT_STREAM_END;
    if (s->state == STREAM_FAILED) {
        /* The same error again: a copy, so its message keeps its one " (REASON)". */
        if (err && !*err)
            *err = sdkrt_error_copy_(s->failure);
        return SDKRT_STREAM_ERROR;
    }
    if (s->state == STREAM_COLD && stream_connect(s, err) != SDKRT_STREAM_EVENT)
        return SDKRT_STREAM_ERROR;
    for (;;) {
        sdkrt_error *e = NULL;
        sdkrt_sc_result_ r = sdkrt_sse_core_next_(&s->core, event, &e);
        if (r == SDKRT_SC_EVENT)
            return SDKRT_STREAM_EVENT;
        if (r == SDKRT_SC_ERROR)
            return stream_fail(s, e, err);
        if (sdkrt_cancel_is_triggered(s->p.treq.cancel))
            return stream_failf(s, err, SDKRT_REASON_CANCELLED, "cancelled");
        /* Read straight into the parser's input buffer: no copy between reader and parser. */
        size_t n = 0, room = 0;
        void *into = NULL;
        if (sdkrt_sse_core_buffer_(&s->core, STREAM_READ_BYTES, &into, &room, &e) !=
            SDKRT_SC_NEED_MORE)
            return stream_fail(s, e, err);
        if (room > 4 * STREAM_READ_BYTES)
            room = 4 * STREAM_READ_BYTES;
        if (s->reader.ops->read(s->reader.self, into, room, &n, &e) != SDKRT_OK) {
            sdkrt_error_prefix_(e, "%s %s: ", s->p.method, s->p.shown_url);
            return stream_fail(s, e, err);
        }
        if (n == 0) {
            r = sdkrt_sse_core_finish_(&s->core, event, &e);
            if (r == SDKRT_SC_EVENT)
                return SDKRT_STREAM_EVENT;
            if (r == SDKRT_SC_ERROR)
                return stream_fail(s, e, err);
            s->state = STREAM_ENDED;
            stream_release(s);
            return SDKRT_STREAM_END;
        }
        if (sdkrt_sse_core_commit_(&s->core, n, &e) != SDKRT_SC_NEED_MORE)
            return stream_fail(s, e, err);
    }
}

int sdkrt_stream_status(const sdkrt_stream *s)
{
    return s->head ? sdkrt_response_status(s->head) : 0;
}

void sdkrt_stream_close(sdkrt_stream *s)
{
    if (!s)
        return;
    stream_release(s);
    sdkrt_response_free(s->head);
    prepared_cleanup(&s->p);
    sdkrt_error_free(s->failure);
    free(s);
}
