/* OpenAPI parameter styles over wire JSON values, and form-urlencoded bodies (the same rules). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "request_internal.h"
#include "sdkrt/wire.h"

/* How the bytes of a name or value are escaped. */
typedef enum esc {
    ESC_ALL,      /* every byte but ALPHA DIGIT - . _ ~ as %XX */
    ESC_RESERVED, /* allowReserved: RFC 3986 reserved characters and %XX triples kept ('#' not) */
    ESC_NONE      /* headers */
} esc;

static bool is_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F') || (c >= 'a' && c <= 'f');
}

static void put_esc(sdkrt_buf_ *b, const char *s, esc mode)
{
    if (mode == ESC_NONE) {
        sdkrt_buf_puts_(b, s);
        return;
    }
    if (mode == ESC_ALL) {
        sdkrt_pct_encode_(b, s);
        return;
    }
    static const char hex[] = "0123456789ABCDEF";
    for (const char *p = s; *p; p++) {
        unsigned char c = (unsigned char)*p;
        bool keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                    (c && strchr("-._~:/?[]@!$&'()*+,;=", c) != NULL) ||
                    (c == '%' && is_hex(p[1]) && is_hex(p[2]));
        if (keep) {
            sdkrt_buf_append_(b, p, 1);
        } else {
            char e[3] = {'%', hex[c >> 4], hex[c & 15]};
            sdkrt_buf_append_(b, e, 3);
        }
    }
}

/* The text of a value inside a parameter: strings as they are, numbers in decimal (whole
 * numbers without a fraction), booleans true/false, null empty, arrays and objects as compact
 * JSON. New string in *out or NULL when out of memory. */
static char *scalar_text(const json_t *v)
{
    char buf[64];
    switch (json_typeof(v)) {
    case JSON_STRING:
        return sdkrt_strdup_(json_string_value(v));
    case JSON_INTEGER:
        snprintf(buf, sizeof buf, "%lld", (long long)json_integer_value(v));
        return sdkrt_strdup_(buf);
    case JSON_REAL: {
        double d = json_real_value(v);
        if (d == floor(d) && fabs(d) < 1e15) {
            snprintf(buf, sizeof buf, "%.0f", d == 0 ? 0.0 : d);
            return sdkrt_strdup_(buf);
        }
        for (int prec = 1; prec <= 17; prec++) {
            snprintf(buf, sizeof buf, "%.*g", prec, d);
            if (strtod(buf, NULL) == d)
                break;
        }
        return sdkrt_strdup_(buf);
    }
    case JSON_TRUE:
        return sdkrt_strdup_("true");
    case JSON_FALSE:
        return sdkrt_strdup_("false");
    case JSON_NULL:
        return sdkrt_strdup_("");
    default:
        return json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
    }
}

/* Append the escaped text of v. */
static void put_value(sdkrt_buf_ *b, const json_t *v, esc mode)
{
    char *t = scalar_text(v);
    if (!t) {
        b->oom = true;
        return;
    }
    put_esc(b, t, mode);
    free(t);
}

/* One name=value pair for form-like styles; sep goes before it unless it is the first. */
static void put_pair(sdkrt_buf_ *b, const char *sep, const char *name, const json_t *v, esc nmode,
                     esc vmode)
{
    if (b->len)
        sdkrt_buf_puts_(b, sep);
    put_esc(b, name, nmode);
    sdkrt_buf_puts_(b, "=");
    put_value(b, v, vmode);
}

/* Items of an array, or keys and values of an object, joined by delim; kv_sep between a key and
 * its value (',' unexploded, '=' exploded). */
static void put_list(sdkrt_buf_ *b, const json_t *v, const char *delim, const char *kv_sep,
                     esc mode)
{
    bool first = true;
    if (json_is_array(v)) {
        size_t i;
        const json_t *item;
        json_array_foreach(v, i, item)
        {
            if (!first)
                sdkrt_buf_puts_(b, delim);
            first = false;
            put_value(b, item, mode);
        }
        return;
    }
    const char *key;
    const json_t *item;
    json_object_foreach((json_t *)v, key, item)
    {
        if (!first)
            sdkrt_buf_puts_(b, delim);
        first = false;
        put_esc(b, key, mode);
        sdkrt_buf_puts_(b, kv_sep);
        put_value(b, item, mode);
    }
}

static bool is_container(const json_t *v)
{
    return json_is_array(v) || json_is_object(v);
}

static bool container_empty(const json_t *v)
{
    return json_is_array(v) ? json_array_size(v) == 0 : json_object_size(v) == 0;
}

/* Append "[" text "]" (encoded) to prefix, or restore it to keep bytes. */
static void deep_push(sdkrt_buf_ *prefix, const char *text)
{
    sdkrt_buf_puts_(prefix, "%5B");
    put_esc(prefix, text, ESC_ALL);
    sdkrt_buf_puts_(prefix, "%5D");
}

static void deep_pop(sdkrt_buf_ *prefix, size_t keep)
{
    prefix->len = keep;
    if (prefix->data)
        prefix->data[keep] = '\0';
}

/* deepObject: name[k]=v, nested objects name[k][k2]=v. OpenAPI leaves arrays undefined; they
 * are sent by index, name[0]=a&name[1]=b and name[0][k]=v (nulls left out, the rest numbered
 * on): what Prism reads as an array (it reads name[]=a&name[]=b as one item), what Stripe
 * accepts beside its documented name[]= and what qs, Rails and PHP parse as arrays. */
static void put_deep(sdkrt_buf_ *b, sdkrt_buf_ *prefix, const json_t *v, esc mode)
{
    if (json_is_array(v)) {
        size_t i, n = 0;
        const json_t *item;
        json_array_foreach(v, i, item)
        {
            if (json_is_null(item))
                continue;
            size_t keep = prefix->len;
            char index[24];
            snprintf(index, sizeof index, "%zu", n++);
            deep_push(prefix, index);
            if (!prefix->oom)
                put_deep(b, prefix, item, mode);
            deep_pop(prefix, keep);
        }
        return;
    }
    if (json_is_object(v)) {
        const char *key;
        const json_t *item;
        json_object_foreach((json_t *)v, key, item)
        {
            size_t keep = prefix->len;
            deep_push(prefix, key);
            if (!prefix->oom)
                put_deep(b, prefix, item, mode);
            deep_pop(prefix, keep);
        }
        return;
    }
    if (json_is_null(v))
        return;
    if (b->len)
        sdkrt_buf_puts_(b, "&");
    sdkrt_buf_append_(b, prefix->data, prefix->len);
    sdkrt_buf_puts_(b, "=");
    put_value(b, v, mode);
}

static bool style_allowed(sdkrt_param_in in, sdkrt_param_style s)
{
    switch (in) {
    case SDKRT_IN_PATH:
        return s == SDKRT_STYLE_SIMPLE || s == SDKRT_STYLE_LABEL || s == SDKRT_STYLE_MATRIX;
    case SDKRT_IN_QUERY:
        return s == SDKRT_STYLE_FORM || s == SDKRT_STYLE_SPACE_DELIMITED ||
               s == SDKRT_STYLE_PIPE_DELIMITED || s == SDKRT_STYLE_DEEP_OBJECT;
    case SDKRT_IN_HEADER:
        return s == SDKRT_STYLE_SIMPLE;
    case SDKRT_IN_COOKIE:
        return s == SDKRT_STYLE_FORM || s == SDKRT_STYLE_SIMPLE;
    }
    return false;
}

static const char *const style_names[] = {"simple", "form",           "deepObject",   "label",
                                          "matrix", "spaceDelimited", "pipeDelimited"};
static const char *const in_names[] = {"path", "query", "header", "cookie"};

/* The serialisation proper into b (name and value escaping chosen by the location). */
static void serialize(sdkrt_buf_ *b, const sdkrt_param_spec *sp, const json_t *v)
{
    bool ex = sp->explode;
    const char *name = sp->name;
    if (json_is_null(v) || (is_container(v) && container_empty(v)))
        return;
    switch (sp->in) {
    case SDKRT_IN_HEADER:
    case SDKRT_IN_PATH: {
        esc m = sp->in == SDKRT_IN_PATH ? ESC_ALL : ESC_NONE;
        if (sp->style == SDKRT_STYLE_LABEL) {
            sdkrt_buf_puts_(b, ".");
            if (!is_container(v))
                put_value(b, v, m);
            else
                put_list(b, v, ex ? "." : ",", ex ? "=" : ",", m);
        } else if (sp->style == SDKRT_STYLE_MATRIX) {
            if (!is_container(v)) {
                sdkrt_buf_puts_(b, ";");
                put_esc(b, name, m);
                char *t = scalar_text(v);
                if (!t)
                    b->oom = true;
                else if (*t) {
                    sdkrt_buf_puts_(b, "=");
                    put_esc(b, t, m);
                }
                free(t);
            } else if (ex && json_is_array(v)) {
                size_t i;
                const json_t *item;
                json_array_foreach(v, i, item)
                {
                    sdkrt_buf_puts_(b, ";");
                    put_esc(b, name, m);
                    sdkrt_buf_puts_(b, "=");
                    put_value(b, item, m);
                }
            } else if (ex) {
                sdkrt_buf_puts_(b, ";");
                put_list(b, v, ";", "=", m);
            } else {
                sdkrt_buf_puts_(b, ";");
                put_esc(b, name, m);
                sdkrt_buf_puts_(b, "=");
                put_list(b, v, ",", ",", m);
            }
        } else if (!is_container(v)) {
            put_value(b, v, m);
        } else {
            put_list(b, v, ",", ex ? "=" : ",", m);
        }
        return;
    }
    case SDKRT_IN_QUERY:
    case SDKRT_IN_COOKIE: {
        const char *sep = sp->in == SDKRT_IN_COOKIE ? "; " : "&";
        esc vm = sp->in == SDKRT_IN_QUERY && sp->allow_reserved ? ESC_RESERVED : ESC_ALL;
        if (sp->style == SDKRT_STYLE_DEEP_OBJECT && is_container(v)) {
            sdkrt_buf_ prefix = {0};
            put_esc(&prefix, name, ESC_ALL);
            if (prefix.oom)
                b->oom = true;
            else
                put_deep(b, &prefix, v, vm);
            sdkrt_buf_cleanup_(&prefix);
            return;
        }
        if (!is_container(v)) {
            put_pair(b, sep, name, v, ESC_ALL, vm);
            return;
        }
        bool delimited =
            sp->style == SDKRT_STYLE_SPACE_DELIMITED || sp->style == SDKRT_STYLE_PIPE_DELIMITED;
        if (ex || sp->style == SDKRT_STYLE_DEEP_OBJECT) {
            if (json_is_array(v)) {
                size_t i;
                const json_t *item;
                json_array_foreach(v, i, item) put_pair(b, sep, name, item, ESC_ALL, vm);
            } else {
                const char *key;
                const json_t *item;
                json_object_foreach((json_t *)v, key, item)
                    put_pair(b, sep, key, item, ESC_ALL, vm);
            }
            return;
        }
        const char *delim = !delimited                                 ? ","
                            : sp->style == SDKRT_STYLE_SPACE_DELIMITED ? "%20"
                                                                       : "%7C";
        put_esc(b, name, ESC_ALL);
        sdkrt_buf_puts_(b, "=");
        put_list(b, v, delim, delim, vm);
        return;
    }
    }
}

sdkrt_status sdkrt_param_serialize(char **out, const sdkrt_param_spec *spec, const json_t *value,
                                   sdkrt_error **err)
{
    *out = NULL;
    if (!spec || !spec->name || !*spec->name || !value || (unsigned)spec->in > SDKRT_IN_COOKIE ||
        (unsigned)spec->style > SDKRT_STYLE_PIPE_DELIMITED)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "parameter needs a name, a location, a style and a value");
    if (!style_allowed(spec->in, spec->style))
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "parameter %.100s: style %s is not defined for %s parameters",
                               spec->name, style_names[spec->style], in_names[spec->in]);
    sdkrt_buf_ b = {0};
    sdkrt_buf_puts_(&b, "");
    serialize(&b, spec, value);
    if (b.oom) {
        sdkrt_buf_cleanup_(&b);
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    }
    *out = b.data;
    return SDKRT_OK;
}

static sdkrt_status request_failed(const sdkrt_request *req, sdkrt_error **err)
{
    const char *m = sdkrt_request_error(req);
    if (req->oom)
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT, "%s", m ? m : "invalid request");
}

/* Errors name the operation's method and template and, where the message does not, the
 * parameter: a generated call's message then says which call and which argument. */
static sdkrt_status param_failed(const sdkrt_request *req, const sdkrt_param_spec *spec, bool named,
                                 sdkrt_error **err)
{
    if (err && *err) {
        if (named)
            sdkrt_error_prefix_(*err, "%s %s: ", req->method, req->path_template);
        else
            sdkrt_error_prefix_(*err, "%s %s: parameter %s: ", req->method, req->path_template,
                                spec->name ? spec->name : "?");
    }
    return SDKRT_ERR;
}

sdkrt_status sdkrt_request_add_param(sdkrt_request *req, const sdkrt_param_spec *spec,
                                     const json_t *value, sdkrt_error **err)
{
    char *text = NULL;
    if (sdkrt_param_serialize(&text, spec, value, err) != SDKRT_OK)
        return param_failed(req, spec, true, err);
    sdkrt_status st = SDKRT_OK;
    if (json_is_null(value)) {
        free(text);
        return SDKRT_OK;
    }
    switch (spec->in) {
    case SDKRT_IN_PATH:
        st = sdkrt_request_set_path_encoded_(req, spec->name, text);
        break;
    case SDKRT_IN_QUERY:
        if (*text)
            st = sdkrt_request_add_query_encoded_(req, text);
        break;
    case SDKRT_IN_HEADER:
        st = sdkrt_request_set_header(req, spec->name, text);
        break;
    case SDKRT_IN_COOKIE:
        if (*text)
            st = sdkrt_request_add_cookie_encoded_(req, text);
        break;
    }
    free(text);
    if (st == SDKRT_OK)
        return SDKRT_OK;
    request_failed(req, err);
    return param_failed(req, spec, true, err);
}

sdkrt_status sdkrt_request_add_typed_param(sdkrt_request *req, const sdkrt_param_spec *spec,
                                           const sdkrt_jtype *t, const void *value,
                                           sdkrt_error **err)
{
    json_t *j = NULL;
    if (sdkrt_json_encode_request_(t, value, &j, err) != SDKRT_OK)
        return param_failed(req, spec, false, err);
    sdkrt_status st = sdkrt_request_add_param(req, spec, j, err);
    json_decref(j);
    return st;
}

/* ---- application/x-www-form-urlencoded ---- */

const sdkrt_body_encoding *sdkrt_body_encoding_find_(const sdkrt_body_encoding *enc, size_t nenc,
                                                     const char *property)
{
    for (size_t i = 0; enc && i < nenc; i++) {
        if (enc[i].property && strcmp(enc[i].property, property) == 0)
            return &enc[i];
    }
    return NULL;
}

sdkrt_status sdkrt_request_set_form_body(sdkrt_request *req, const json_t *value,
                                         const sdkrt_body_encoding *enc, size_t nenc,
                                         sdkrt_error **err)
{
    if (!json_is_object(value))
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "a form-urlencoded body must be an object");
    sdkrt_buf_ b = {0};
    sdkrt_buf_puts_(&b, "");
    const char *key;
    const json_t *item;
    json_object_foreach((json_t *)value, key, item)
    {
        const sdkrt_body_encoding *e = sdkrt_body_encoding_find_(enc, nenc, key);
        sdkrt_param_spec sp = {key, SDKRT_IN_QUERY, SDKRT_STYLE_FORM, true, false};
        if (e && e->has_style) {
            sp.style = e->style;
            sp.explode = e->explode;
        }
        if (e)
            sp.allow_reserved = e->allow_reserved;
        if (!style_allowed(SDKRT_IN_QUERY, sp.style)) {
            sdkrt_buf_cleanup_(&b);
            return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                                   "form property %.100s: style %s is not defined for form bodies",
                                   key, style_names[sp.style]);
        }
        sdkrt_buf_ piece = {0};
        if (e && e->content_type && !e->has_style && sdkrt_media_is_json(e->content_type) &&
            !json_is_null(item)) {
            /* The property's own media type: its JSON text as one value. */
            char *text = json_dumps(item, JSON_COMPACT | JSON_ENCODE_ANY);
            json_t *s = text ? json_string(text) : NULL;
            free(text);
            if (!s)
                piece.oom = true;
            else
                serialize(&piece, &sp, s);
            json_decref(s);
        } else {
            serialize(&piece, &sp, item);
        }
        if (piece.len) {
            if (b.len)
                sdkrt_buf_puts_(&b, "&");
            sdkrt_buf_append_(&b, piece.data, piece.len);
        }
        b.oom = b.oom || piece.oom;
        sdkrt_buf_cleanup_(&piece);
    }
    sdkrt_status st = SDKRT_ERR;
    if (b.oom)
        sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    else if (sdkrt_request_set_body(req, "application/x-www-form-urlencoded", b.data, b.len) !=
             SDKRT_OK)
        request_failed(req, err);
    else
        st = SDKRT_OK;
    sdkrt_buf_cleanup_(&b);
    return st;
}
