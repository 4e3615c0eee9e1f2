/* Typed values on a request: as the text of path, header and query parameters (form and
 * deepObject styles) and as the JSON body. */
#include "sdkrt/json.h"

#include "jdecode.h"
#include "json_internal.h"
#include "sdkrt/wire.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static sdkrt_status dup_text(const char *s, char **out, sdkrt_error **err)
{
    *out = strdup(s);
    return *out ? SDKRT_OK : sdkrt_json_oom_(err);
}

sdkrt_status sdkrt_json_param_text(const sdkrt_jtype *t, const void *value, char **out,
                                   sdkrt_error **err)
{
    char buf[64];
    *out = NULL;
    switch (t->kind) {
    case SDKRT_JK_STRING: {
        const char *s = *(char *const *)value;
        if (!s)
            return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT, "parameter string is NULL");
        return dup_text(s, out, err);
    }
    case SDKRT_JK_INTEGER:
        snprintf(buf, sizeof buf, "%lld", (long long)*(const int64_t *)value);
        return dup_text(buf, out, err);
    case SDKRT_JK_NUMBER: {
        double d = *(const double *)value;
        if (!isfinite(d))
            return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                                   "parameter number is not finite");
        /* Whole numbers as integers ("100", not "1e+02": servers parse query numbers with
         * stricter grammars than JSON); otherwise the shortest text that reads back the same. */
        if (d == floor(d) && fabs(d) < 1e15) {
            snprintf(buf, sizeof buf, "%.0f", d == 0 ? 0.0 : d);
            return dup_text(buf, out, err);
        }
        for (int prec = 1; prec <= 17; prec++) {
            snprintf(buf, sizeof buf, "%.*g", prec, d);
            if (strtod(buf, NULL) == d)
                break;
        }
        return dup_text(buf, out, err);
    }
    case SDKRT_JK_BOOLEAN:
        return dup_text(*(const bool *)value ? "true" : "false", out, err);
    case SDKRT_JK_ENUM: {
        const char *s = sdkrt_json_enum_wire(t, value);
        if (!s)
            return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                                   "parameter enum value out of range");
        return dup_text(s, out, err);
    }
    case SDKRT_JK_JSON_STRING:
        if (t->inner->kind == SDKRT_JK_STRING)
            return sdkrt_json_param_text(t->inner, value, out, err);
        break;
    case SDKRT_JK_LITERAL: {
        json_t *j = json_loads(t->literal ? t->literal : "null", JSON_DECODE_ANY, NULL);
        if (!j)
            return sdkrt_json_oom_(err);
        sdkrt_status st = json_is_string(j) ? dup_text(json_string_value(j), out, err)
                                            : dup_text(t->literal, out, err);
        json_decref(j);
        return st;
    }
    case SDKRT_JK_ARRAY: {
        const jarray *a = value;
        size_t sz = t->inner->size ? t->inner->size : 1;
        size_t len = 0, cap = 64;
        char *acc = malloc(cap);
        if (!acc)
            return sdkrt_json_oom_(err);
        acc[0] = '\0';
        for (size_t i = 0; i < a->count; i++) {
            char *item = NULL;
            if (sdkrt_json_param_text(t->inner, (const char *)a->items + i * sz, &item, err) !=
                SDKRT_OK) {
                free(acc);
                return SDKRT_ERR;
            }
            size_t n = strlen(item);
            if (len + n + 2 > cap) {
                size_t ncap = (len + n + 2) * 2;
                char *g = realloc(acc, ncap);
                if (!g) {
                    free(item);
                    free(acc);
                    return sdkrt_json_oom_(err);
                }
                acc = g;
                cap = ncap;
            }
            if (i > 0)
                acc[len++] = ',';
            memcpy(acc + len, item, n + 1);
            len += n;
            free(item);
        }
        *out = acc;
        return SDKRT_OK;
    }
    default:
        break;
    }
    json_t *j = NULL;
    if (sdkrt_json_encode_request_(t, value, &j, err) != SDKRT_OK)
        return SDKRT_ERR;
    *out = json_dumps(j, JSON_ENCODE_ANY | JSON_COMPACT);
    json_decref(j);
    return *out ? SDKRT_OK : sdkrt_json_oom_(err);
}

static sdkrt_status request_failed(const sdkrt_request *req, sdkrt_error **err)
{
    const char *m = sdkrt_request_error(req);
    if (!m)
        return sdkrt_json_oom_(err);
    return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT, "%s", m);
}

sdkrt_status sdkrt_json_path_param(sdkrt_request *req, const char *name, const sdkrt_jtype *t,
                                   const void *value, sdkrt_error **err)
{
    char *text = NULL;
    if (sdkrt_json_param_text(t, value, &text, err) != SDKRT_OK)
        return SDKRT_ERR;
    sdkrt_status st = sdkrt_request_set_path_param(req, name, text);
    free(text);
    return st == SDKRT_OK ? SDKRT_OK : request_failed(req, err);
}

sdkrt_status sdkrt_json_header_param(sdkrt_request *req, const char *name, const sdkrt_jtype *t,
                                     const void *value, sdkrt_error **err)
{
    char *text = NULL;
    if (sdkrt_json_param_text(t, value, &text, err) != SDKRT_OK)
        return SDKRT_ERR;
    sdkrt_status st = sdkrt_request_set_header(req, name, text);
    free(text);
    return st == SDKRT_OK ? SDKRT_OK : request_failed(req, err);
}

static sdkrt_status add_query_text(sdkrt_request *req, const char *name, const char *prop,
                                   const sdkrt_jtype *t, const void *value, sdkrt_error **err)
{
    char *text = NULL;
    if (sdkrt_json_param_text(t, value, &text, err) != SDKRT_OK)
        return SDKRT_ERR;
    sdkrt_status st = prop ? sdkrt_request_add_query_deep(req, name, prop, text)
                           : sdkrt_request_add_query(req, name, text);
    free(text);
    return st == SDKRT_OK ? SDKRT_OK : request_failed(req, err);
}

sdkrt_status sdkrt_json_query_param(sdkrt_request *req, const char *name, sdkrt_jstyle style,
                                    bool explode, const sdkrt_jtype *t, const void *value,
                                    sdkrt_error **err)
{
    if (t->kind == SDKRT_JK_ARRAY && explode && style == SDKRT_JSTYLE_FORM) {
        const jarray *a = value;
        size_t sz = t->inner->size ? t->inner->size : 1;
        for (size_t i = 0; i < a->count; i++) {
            if (add_query_text(req, name, NULL, t->inner, (const char *)a->items + i * sz, err) !=
                SDKRT_OK)
                return SDKRT_ERR;
        }
        return SDKRT_OK;
    }
    if (t->kind == SDKRT_JK_OBJECT && style == SDKRT_JSTYLE_DEEP_OBJECT) {
        const char *base = value;
        for (size_t i = 0; i < t->nfields; i++) {
            const sdkrt_jfield *f = &t->fields[i];
            if (f->has_offset != SDKRT_JNONE && !*(const bool *)(base + f->has_offset))
                continue;
            if (f->null_offset != SDKRT_JNONE && *(const bool *)(base + f->null_offset))
                continue;
            if (f->offset == SDKRT_JNONE || (f->flags & SDKRT_JF_BOXED))
                continue;
            /* A required string field left NULL is treated as absent in a query object. */
            if (f->type->kind == SDKRT_JK_STRING && !*(char *const *)(base + f->offset))
                continue;
            if (add_query_text(req, name, f->name, f->type, base + f->offset, err) != SDKRT_OK)
                return SDKRT_ERR;
        }
        return SDKRT_OK;
    }
    return add_query_text(req, name, NULL, t, value, err);
}

sdkrt_status sdkrt_json_body(sdkrt_request *req, const sdkrt_jtype *t, const void *value,
                             sdkrt_error **err)
{
    json_t *j = NULL;
    if (sdkrt_json_encode_request_(t, value, &j, err) != SDKRT_OK)
        return SDKRT_ERR;
    if (sdkrt_request_set_json_body(req, j) != SDKRT_OK)
        return request_failed(req, err);
    return SDKRT_OK;
}
