/* Clients: options, defaults, credentials (the outermost layer: what every call starts from). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>

#include "client_internal.h"
#include "curl_xfer.h"

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void sdkrt_base64_(sdkrt_buf_ *b, const unsigned char *s, size_t n)
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
            sdkrt_base64_(&b, (const unsigned char *)up.data, up.len);
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

void sdkrt_zero_free_(char *s)
{
    if (s)
        memset(s, 0, strlen(s));
    free(s);
}

static void creds_free(sdkrt_credential *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free((char *)v[i].scheme);
        sdkrt_zero_free_((char *)v[i].username);
        sdkrt_zero_free_((char *)v[i].password);
        sdkrt_zero_free_((char *)v[i].token);
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

bool sdkrt_timeout_ok_(long ms)
{
    return ms >= 0 || ms == SDKRT_TIMEOUT_OFF;
}

/* A call's timeout over the client's: 0 takes the client's; OFF (either) gives 0, which
 * transports read as none. */
long sdkrt_effective_timeout_(long call, long client)
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
    if (!sdkrt_timeout_ok_(opts->connect_timeout_ms) || !sdkrt_timeout_ok_(opts->head_timeout_ms) ||
        !sdkrt_timeout_ok_(opts->timeout_ms) || !sdkrt_timeout_ok_(opts->idle_timeout_ms)) {
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
    c->loop = opts->loop;
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
        sdkrt_curl_transport_set_max_idle_(
            c->own_transport, opts->max_idle_connections ? opts->max_idle_connections
                                                         : SDKRT_DEFAULT_MAX_IDLE_CONNECTIONS);
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
    sdkrt_zero_free_(c->auth_value);
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
