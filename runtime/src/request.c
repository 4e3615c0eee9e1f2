/* Requests and their exact encoding. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "request_internal.h"

static void record(sdkrt_request *req, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void record(sdkrt_request *req, const char *fmt, ...)
{
    if (req->error)
        return; /* the first problem is the one to report */
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    req->error = sdkrt_strdup_(tmp);
    if (!req->error)
        req->oom = true;
}

static bool template_has(const char *tpl, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strchr(tpl, '{'); p; p = strchr(p + 1, '{')) {
        if (strncmp(p + 1, name, n) == 0 && p[1 + n] == '}')
            return true;
    }
    return false;
}

/* A template is '/'-rooted, with balanced {name} placeholders, literal text of unreserved path
 * characters, and no query or fragment. */
static void check_template(sdkrt_request *req)
{
    const char *t = req->path_template;
    if (t[0] != '/') {
        record(req, "path template \"%.200s\" must start with '/'", t);
        return;
    }
    for (const char *p = t; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '{') {
            const char *end = strchr(p + 1, '}');
            if (!end || end == p + 1 || memchr(p + 1, '{', (size_t)(end - p - 1))) {
                record(req, "path template \"%.200s\" has an unbalanced or empty {}", t);
                return;
            }
            p = end;
        } else if (c == '}' || c <= 0x20 || c >= 0x7f || c == '?' || c == '#' || c == '%') {
            record(req, "path template \"%.200s\" has a character not allowed in a path", t);
            return;
        }
    }
}

sdkrt_status sdkrt_request_new(sdkrt_request **out, const char *method, const char *path_template)
{
    *out = NULL;
    if (!method || !path_template)
        return SDKRT_ERR;
    sdkrt_request *req = calloc(1, sizeof *req);
    if (!req)
        return SDKRT_ERR;
    req->method = sdkrt_strdup_(method);
    req->path_template = sdkrt_strdup_(path_template);
    if (!req->method || !req->path_template) {
        sdkrt_request_free(req);
        return SDKRT_ERR;
    }
    if (!sdkrt_header_name_ok_(method))
        record(req, "invalid HTTP method \"%.40s\"", method);
    check_template(req);
    *out = req;
    return SDKRT_OK;
}

static void pairs_free(sdkrt_pair_ *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(v[i].name);
        free(v[i].value);
    }
    free(v);
}

void sdkrt_request_free(sdkrt_request *req)
{
    if (!req)
        return;
    free(req->method);
    free(req->path_template);
    pairs_free(req->params, req->param_count);
    pairs_free(req->headers, req->header_count);
    for (size_t i = 0; i < req->query_count; i++)
        free(req->query[i]);
    free(req->query);
    free(req->body);
    free(req->content_type);
    free(req->error);
    pairs_free(req->raw_params, req->raw_param_count);
    for (size_t i = 0; i < req->cookie_count; i++)
        free(req->cookies[i]);
    free(req->cookies);
    sdkrt_multipart_free(req->multipart);
    for (size_t i = 0; i < req->security_count; i++) {
        free((char *)req->security[i].name);
        free((char *)req->security[i].param);
    }
    free(req->security);
    free(req->origin_target);
    free(req->idempotency_header);
    free(req);
}

/* Set name=value in a pair list, replacing (case-insensitively when ci) an existing name. */
static sdkrt_status pairs_set(sdkrt_pair_ **v, size_t *n, const char *name, const char *value,
                              bool ci)
{
    char *val = sdkrt_strdup_(value);
    if (!val)
        return SDKRT_ERR;
    for (size_t i = 0; i < *n; i++) {
        if (ci ? sdkrt_strcasecmp_((*v)[i].name, name) == 0 : strcmp((*v)[i].name, name) == 0) {
            free((*v)[i].value);
            (*v)[i].value = val;
            return SDKRT_OK;
        }
    }
    char *nm = sdkrt_strdup_(name);
    sdkrt_pair_ *grown = nm ? realloc(*v, (*n + 1) * sizeof **v) : NULL;
    if (!grown) {
        free(nm);
        free(val);
        return SDKRT_ERR;
    }
    *v = grown;
    grown[*n].name = nm;
    grown[*n].value = val;
    (*n)++;
    return SDKRT_OK;
}

static sdkrt_status oom_record(sdkrt_request *req)
{
    req->oom = true;
    return SDKRT_ERR;
}

sdkrt_status sdkrt_request_set_path_param(sdkrt_request *req, const char *name, const char *value)
{
    if (!name || !value) {
        record(req, "path parameter name and value may not be NULL");
        return SDKRT_ERR;
    }
    if (!template_has(req->path_template, name)) {
        record(req, "unknown path parameter \"%.100s\" for %.200s", name, req->path_template);
        return SDKRT_ERR;
    }
    if (pairs_set(&req->params, &req->param_count, name, value, false) != SDKRT_OK)
        return oom_record(req);
    return SDKRT_OK;
}

static sdkrt_status add_query_encoded(sdkrt_request *req, sdkrt_buf_ *b)
{
    char **grown = b->oom ? NULL : realloc(req->query, (req->query_count + 1) * sizeof *grown);
    if (!grown) {
        sdkrt_buf_cleanup_(b);
        return oom_record(req);
    }
    req->query = grown;
    grown[req->query_count++] = b->data;
    return SDKRT_OK;
}

sdkrt_status sdkrt_request_add_query(sdkrt_request *req, const char *name, const char *value)
{
    if (!name || !*name || !value) {
        record(req, "query parameter needs a non-empty name and a value");
        return SDKRT_ERR;
    }
    sdkrt_buf_ b = {0};
    sdkrt_pct_encode_(&b, name);
    sdkrt_buf_puts_(&b, "=");
    sdkrt_pct_encode_(&b, value);
    return add_query_encoded(req, &b);
}

sdkrt_status sdkrt_request_add_query_deep(sdkrt_request *req, const char *name, const char *prop,
                                          const char *value)
{
    if (!name || !*name || !prop || !value) {
        record(req, "deepObject query parameter needs a name, a property and a value");
        return SDKRT_ERR;
    }
    sdkrt_buf_ b = {0};
    sdkrt_pct_encode_(&b, name);
    sdkrt_buf_puts_(&b, "%5B");
    sdkrt_pct_encode_(&b, prop);
    sdkrt_buf_puts_(&b, "%5D=");
    sdkrt_pct_encode_(&b, value);
    return add_query_encoded(req, &b);
}

sdkrt_status sdkrt_request_set_header(sdkrt_request *req, const char *name, const char *value)
{
    if (!sdkrt_header_name_ok_(name)) {
        record(req, "invalid header name \"%.60s\"", name ? name : "(null)");
        return SDKRT_ERR;
    }
    if (!sdkrt_header_value_ok_(value)) {
        record(req, "header %.60s: value contains CR or LF (header injection refused)", name);
        return SDKRT_ERR;
    }
    if (pairs_set(&req->headers, &req->header_count, name, value, true) != SDKRT_OK)
        return oom_record(req);
    return SDKRT_OK;
}

sdkrt_status sdkrt_request_set_body(sdkrt_request *req, const char *content_type, const void *bytes,
                                    size_t len)
{
    if (!content_type || !sdkrt_header_value_ok_(content_type) || (!bytes && len)) {
        record(req, "request body needs a content type without CR/LF and bytes");
        return SDKRT_ERR;
    }
    char *ct = sdkrt_strdup_(content_type);
    char *copy = malloc(len ? len : 1);
    if (!ct || !copy) {
        free(ct);
        free(copy);
        return oom_record(req);
    }
    if (len)
        memcpy(copy, bytes, len);
    free(req->body);
    free(req->content_type);
    sdkrt_multipart_free(req->multipart);
    req->multipart = NULL;
    req->body = copy;
    req->body_len = len;
    req->has_body = true;
    req->content_type = ct;
    return SDKRT_OK;
}

sdkrt_status sdkrt_request_set_json_body(sdkrt_request *req, json_t *json)
{
    if (!json) {
        record(req, "JSON body may not be NULL");
        return SDKRT_ERR;
    }
    char *text = json_dumps(json, JSON_COMPACT | JSON_ENCODE_ANY);
    json_decref(json);
    if (!text)
        return oom_record(req);
    sdkrt_status st = sdkrt_request_set_body(req, "application/json", text, strlen(text));
    free(text);
    return st;
}

const char *sdkrt_request_error(const sdkrt_request *req)
{
    if (req->oom && !req->error)
        return "out of memory while building the request";
    return req->error;
}

const char *sdkrt_request_method(const sdkrt_request *req)
{
    return req->method;
}

static const char *param_value(const sdkrt_request *req, const char *name, size_t n)
{
    for (size_t i = 0; i < req->param_count; i++) {
        if (strlen(req->params[i].name) == n && memcmp(req->params[i].name, name, n) == 0)
            return req->params[i].value;
    }
    return NULL;
}

static const char *raw_param_value(const sdkrt_request *req, const char *name, size_t n)
{
    for (size_t i = 0; i < req->raw_param_count; i++) {
        if (strlen(req->raw_params[i].name) == n && memcmp(req->raw_params[i].name, name, n) == 0)
            return req->raw_params[i].value;
    }
    return NULL;
}

sdkrt_status sdkrt_request_target(char **out, const sdkrt_request *req, sdkrt_error **err)
{
    *out = NULL;
    if (req->oom)
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory building %s %s",
                               req->method, req->path_template);
    if (req->error)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT, "%s %s: %s", req->method,
                               req->path_template, req->error);
    if (req->origin_target) {
        *out = sdkrt_strdup_(req->origin_target);
        return *out ? SDKRT_OK : sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    }
    sdkrt_buf_ b = {0};
    const char *t = req->path_template;
    while (*t) {
        if (*t != '{') {
            size_t n = strcspn(t, "{");
            sdkrt_buf_append_(&b, t, n);
            t += n;
            continue;
        }
        const char *end = strchr(t, '}');
        size_t n = (size_t)(end - t - 1);
        const char *raw = raw_param_value(req, t + 1, n);
        if (raw) {
            sdkrt_buf_puts_(&b, raw);
            t = end + 1;
            continue;
        }
        const char *v = param_value(req, t + 1, n);
        if (!v || !*v || strcmp(v, ".") == 0 || strcmp(v, "..") == 0) {
            sdkrt_buf_cleanup_(&b);
            return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                                   "%s %s: path parameter {%.*s} is %s", req->method,
                                   req->path_template, (int)n, t + 1,
                                   !v   ? "missing"
                                   : *v ? "a dot segment (\".\" or \"..\")"
                                        : "empty");
        }
        sdkrt_pct_encode_(&b, v);
        t = end + 1;
    }
    for (size_t i = 0; i < req->query_count; i++) {
        sdkrt_buf_puts_(&b, i ? "&" : "?");
        sdkrt_buf_puts_(&b, req->query[i]);
    }
    if (b.oom) {
        sdkrt_buf_cleanup_(&b);
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory building %s %s",
                               req->method, req->path_template);
    }
    *out = b.data;
    return SDKRT_OK;
}

/* ---- pieces encoded by a parameter style (wire_param.c) ---- */

/* Bytes that may stand in a path segment as sent: unreserved, sub-delims, ':', '@' and %XX. */
static bool segment_ok(const char *s)
{
    for (const char *p = s; *p; p++) {
        unsigned char c = (unsigned char)*p;
        bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                  strchr("-._~!$&'()*+,;=:@", c) != NULL;
        if (c == '%') {
            ok = p[1] && p[2] && strchr("0123456789ABCDEFabcdef", p[1]) &&
                 strchr("0123456789ABCDEFabcdef", p[2]);
        }
        if (!ok)
            return false;
    }
    return true;
}

sdkrt_status sdkrt_request_set_path_encoded_(sdkrt_request *req, const char *name,
                                             const char *encoded)
{
    if (!name || !encoded) {
        record(req, "path parameter name and value may not be NULL");
        return SDKRT_ERR;
    }
    if (!template_has(req->path_template, name)) {
        record(req, "unknown path parameter \"%.100s\" for %.200s", name, req->path_template);
        return SDKRT_ERR;
    }
    if (!*encoded || strcmp(encoded, ".") == 0 || strcmp(encoded, "..") == 0) {
        record(req, "path parameter {%.100s} is %s", name,
               *encoded ? "a dot segment (\".\" or \"..\")" : "empty");
        return SDKRT_ERR;
    }
    if (!segment_ok(encoded)) {
        record(req, "path parameter {%.100s}: encoded text has a byte not allowed in a segment",
               name);
        return SDKRT_ERR;
    }
    if (pairs_set(&req->raw_params, &req->raw_param_count, name, encoded, false) != SDKRT_OK)
        return oom_record(req);
    return SDKRT_OK;
}

static bool query_ok(const char *s)
{
    for (const char *p = s; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c <= 0x20 || c >= 0x7f || c == '#')
            return false;
    }
    return true;
}

sdkrt_status sdkrt_request_add_query_encoded_(sdkrt_request *req, const char *encoded)
{
    if (!encoded || !*encoded || !query_ok(encoded)) {
        record(req, "encoded query piece is empty or has a byte not allowed in a query");
        return SDKRT_ERR;
    }
    sdkrt_buf_ b = {0};
    sdkrt_buf_puts_(&b, encoded);
    return add_query_encoded(req, &b);
}

sdkrt_status sdkrt_request_add_cookie_encoded_(sdkrt_request *req, const char *encoded)
{
    if (!encoded || !*encoded || !sdkrt_header_value_ok_(encoded)) {
        record(req, "encoded cookie piece is empty or has CR or LF");
        return SDKRT_ERR;
    }
    char *copy = sdkrt_strdup_(encoded);
    char **grown = copy ? realloc(req->cookies, (req->cookie_count + 1) * sizeof *grown) : NULL;
    if (!grown) {
        free(copy);
        return oom_record(req);
    }
    req->cookies = grown;
    grown[req->cookie_count++] = copy;
    return SDKRT_OK;
}

sdkrt_status sdkrt_request_set_multipart_body(sdkrt_request *req, sdkrt_multipart *mp)
{
    if (!mp) {
        record(req, "multipart body may not be NULL");
        return SDKRT_ERR;
    }
    free(req->body);
    free(req->content_type);
    req->body = NULL;
    req->content_type = NULL;
    req->body_len = 0;
    req->has_body = false;
    sdkrt_multipart_free(req->multipart);
    req->multipart = mp;
    return SDKRT_OK;
}

sdkrt_status sdkrt_request_set_security(sdkrt_request *req, const sdkrt_security_scheme *schemes,
                                        size_t n)
{
    if (n && !schemes) {
        record(req, "security schemes may not be NULL");
        return SDKRT_ERR;
    }
    sdkrt_security_scheme *copy = calloc(n ? n : 1, sizeof *copy);
    if (!copy)
        return oom_record(req);
    for (size_t i = 0; i < n; i++) {
        copy[i] = schemes[i];
        copy[i].name = sdkrt_strdup_(schemes[i].name);
        copy[i].param = sdkrt_strdup_(schemes[i].param);
        if ((schemes[i].name && !copy[i].name) || (schemes[i].param && !copy[i].param)) {
            for (size_t j = 0; j <= i; j++) {
                free((char *)copy[j].name);
                free((char *)copy[j].param);
            }
            free(copy);
            return oom_record(req);
        }
    }
    for (size_t i = 0; i < req->security_count; i++) {
        free((char *)req->security[i].name);
        free((char *)req->security[i].param);
    }
    free(req->security);
    req->security = copy;
    req->security_count = n;
    req->has_security = true;
    return SDKRT_OK;
}

/* ---- copies and query edits (pagination) ---- */

static bool pairs_copy(sdkrt_pair_ **dst, const sdkrt_pair_ *src, size_t n)
{
    *dst = calloc(n ? n : 1, sizeof **dst);
    if (!*dst)
        return false;
    for (size_t i = 0; i < n; i++) {
        (*dst)[i].name = sdkrt_strdup_(src[i].name);
        (*dst)[i].value = sdkrt_strdup_(src[i].value);
        if (!(*dst)[i].name || !(*dst)[i].value)
            return false;
    }
    return true;
}

static bool strings_copy(char ***dst, char *const *src, size_t n)
{
    *dst = calloc(n ? n : 1, sizeof **dst);
    if (!*dst)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!((*dst)[i] = sdkrt_strdup_(src[i])))
            return false;
    return true;
}

sdkrt_status sdkrt_request_set_idempotency_header(sdkrt_request *req, const char *name)
{
    if (!sdkrt_header_name_ok_(name)) {
        record(req, "idempotency header name is not an HTTP token");
        return SDKRT_ERR;
    }
    char *d = sdkrt_strdup_(name);
    if (!d)
        return oom_record(req);
    free(req->idempotency_header);
    req->idempotency_header = d;
    return SDKRT_OK;
}

sdkrt_status sdkrt_request_copy(sdkrt_request **out, const sdkrt_request *req)
{
    *out = NULL;
    if (!req)
        return SDKRT_ERR;
    sdkrt_request *c = NULL;
    if (sdkrt_request_new(&c, req->method, req->path_template) != SDKRT_OK)
        return SDKRT_ERR;
    /* counts follow each list as it is filled, so a failure part-way frees what was copied */
    bool ok = pairs_copy(&c->params, req->params, req->param_count);
    c->param_count = c->params ? req->param_count : 0;
    ok = ok && pairs_copy(&c->raw_params, req->raw_params, req->raw_param_count);
    c->raw_param_count = c->raw_params ? req->raw_param_count : 0;
    ok = ok && pairs_copy(&c->headers, req->headers, req->header_count);
    c->header_count = c->headers ? req->header_count : 0;
    ok = ok && strings_copy(&c->query, req->query, req->query_count);
    c->query_count = c->query ? req->query_count : 0;
    ok = ok && strings_copy(&c->cookies, req->cookies, req->cookie_count);
    c->cookie_count = c->cookies ? req->cookie_count : 0;
    if (ok && req->has_body)
        ok = sdkrt_request_set_body(c, req->content_type, req->body, req->body_len) == SDKRT_OK;
    if (ok && req->multipart)
        ok = (c->multipart = sdkrt_multipart_copy_(req->multipart)) != NULL;
    if (ok && req->has_security)
        ok = sdkrt_request_set_security(c, req->security, req->security_count) == SDKRT_OK;
    if (ok && req->origin_target)
        ok = (c->origin_target = sdkrt_strdup_(req->origin_target)) != NULL;
    if (ok && req->idempotency_header)
        ok = (c->idempotency_header = sdkrt_strdup_(req->idempotency_header)) != NULL;
    /* the copy's own sdkrt_request_new recorded any method or template problem, which is the
       source's first one too; keep it, or take the source's later one */
    if (ok && req->error && !c->error)
        ok = (c->error = sdkrt_strdup_(req->error)) != NULL;
    if (!ok || c->oom) {
        sdkrt_request_free(c);
        return SDKRT_ERR;
    }
    c->oom = req->oom; /* a piece the source lost to OOM is missing from the copy too */
    *out = c;
    return SDKRT_OK;
}

/* Does the encoded piece "n=v" carry the encoded name? */
static bool piece_named(const char *piece, const char *enc_name)
{
    size_t n = strlen(enc_name);
    return strncmp(piece, enc_name, n) == 0 && (piece[n] == '=' || piece[n] == '\0');
}

sdkrt_status sdkrt_request_set_query(sdkrt_request *req, const char *name, const char *value)
{
    if (!name || !*name) {
        record(req, "query parameter needs a non-empty name");
        return SDKRT_ERR;
    }
    sdkrt_buf_ en = {0}, piece = {0};
    sdkrt_pct_encode_(&en, name);
    if (value) {
        sdkrt_buf_printf_(&piece, "%s=", en.data ? en.data : "");
        sdkrt_pct_encode_(&piece, value);
    }
    if (en.oom || piece.oom) {
        sdkrt_buf_cleanup_(&en);
        sdkrt_buf_cleanup_(&piece);
        return oom_record(req);
    }
    size_t k = 0;
    bool placed = false;
    for (size_t i = 0; i < req->query_count; i++) {
        if (!piece_named(req->query[i], en.data)) {
            req->query[k++] = req->query[i];
            continue;
        }
        free(req->query[i]);
        if (value && !placed) {
            req->query[k++] = piece.data;
            placed = true;
        }
    }
    req->query_count = k;
    sdkrt_buf_cleanup_(&en);
    if (!value || placed)
        return SDKRT_OK;
    return add_query_encoded(req, &piece);
}

void sdkrt_request_clear_query(sdkrt_request *req)
{
    for (size_t i = 0; i < req->query_count; i++)
        free(req->query[i]);
    req->query_count = 0;
}

sdkrt_status sdkrt_request_query_value(const sdkrt_request *req, const char *name, char **out)
{
    *out = NULL;
    sdkrt_buf_ en = {0};
    sdkrt_pct_encode_(&en, name ? name : "");
    if (en.oom)
        return SDKRT_ERR;
    const char *v = NULL;
    for (size_t i = 0; i < req->query_count && !v; i++)
        if (piece_named(req->query[i], en.data ? en.data : ""))
            v = req->query[i] + en.len + (req->query[i][en.len] == '=');
    sdkrt_buf_cleanup_(&en);
    if (!v)
        return SDKRT_OK;
    char *d = malloc(strlen(v) + 1), *w = d;
    if (!d)
        return SDKRT_ERR;
    for (const char *p = v; *p; p++) {
        int hi = p[0] == '%' ? sdkrt_hex_digit_((unsigned char)p[1]) : -1;
        int lo = hi >= 0 ? sdkrt_hex_digit_((unsigned char)p[2]) : -1;
        if (lo >= 0) {
            *w++ = (char)(hi * 16 + lo);
            p += 2;
        } else {
            *w++ = *p == '+' ? ' ' : *p;
        }
    }
    *w = '\0';
    *out = d;
    return SDKRT_OK;
}

sdkrt_status sdkrt_request_set_origin_target_(sdkrt_request *req, const char *target)
{
    if (!target || target[0] != '/' || !query_ok(target)) {
        record(req, "next-page target is not an absolute path of printable ASCII");
        return SDKRT_ERR;
    }
    char *t = sdkrt_strdup_(target);
    if (!t)
        return oom_record(req);
    free(req->origin_target);
    req->origin_target = t;
    return SDKRT_OK;
}
