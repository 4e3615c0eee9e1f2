/* Table-driven JSON decode: a jansson tree into a typed value (sdkrt_json_decode), with a
 * message naming the JSON path of every refusal; sdkrt_json_decode_text, which tries the one-pass
 * decoder (jdecode.c) first and comes here for the message of a refusal; and the shared fields of
 * an unknown union variant. */
#include "sdkrt/json.h"

#include "jdecode.h"
#include "json_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *json_type_name(const json_t *j)
{
    switch (json_typeof(j)) {
    case JSON_OBJECT:
        return "object";
    case JSON_ARRAY:
        return "array";
    case JSON_STRING:
        return "string";
    case JSON_INTEGER:
        return "integer";
    case JSON_REAL:
        return "number";
    case JSON_TRUE:
    case JSON_FALSE:
        return "boolean";
    case JSON_NULL:
        return "null";
    }
    return "value";
}

static sdkrt_status expected(sdkrt_error **err, jpath *p, const char *what, const json_t *j)
{
    return sdkrt_error_set(err, SDKRT_REASON_MALFORMED_RESPONSE, "%s: expected %s, got %s",
                           sdkrt_jpath_str_(p), what, json_type_name(j));
}

static sdkrt_status decode(const sdkrt_jtype *t, void *v, const json_t *j, jpath *p,
                           sdkrt_error **err);

/* Decode into a place that may be boxed (holds T *). */
static sdkrt_status decode_place(const sdkrt_jtype *t, unsigned flags, void *place, const json_t *j,
                                 jpath *p, sdkrt_error **err)
{
    if (!(flags & SDKRT_JF_BOXED))
        return decode(t, place, j, p, err);
    void *box = calloc(1, t->size ? t->size : 1);
    if (!box)
        return sdkrt_json_oom_(err);
    if (decode(t, box, j, p, err) != SDKRT_OK) {
        free(box);
        return SDKRT_ERR;
    }
    *(void **)place = box;
    return SDKRT_OK;
}

static sdkrt_status decode_literal(const sdkrt_jtype *t, const json_t *j, jpath *p,
                                   sdkrt_error **err)
{
    json_t *want = json_loads(t->literal ? t->literal : "null", JSON_DECODE_ANY, NULL);
    if (!want)
        return sdkrt_json_oom_(err);
    bool same = json_equal(want, (json_t *)j);
    if (!same && json_is_number(want) && json_is_number(j))
        same = json_number_value(want) == json_number_value(j);
    json_decref(want);
    if (!same)
        return sdkrt_error_set(err, SDKRT_REASON_MALFORMED_RESPONSE, "%s: expected %s",
                               sdkrt_jpath_str_(p), t->literal ? t->literal : "null");
    return SDKRT_OK;
}

static sdkrt_status decode_object(const sdkrt_jtype *t, void *v, const json_t *j, jpath *p,
                                  sdkrt_error **err)
{
    if (!json_is_object(j))
        return expected(err, p, "object", j);
    char *base = v;
    for (size_t i = 0; i < t->nfields; i++) {
        const sdkrt_jfield *f = &t->fields[i];
        const json_t *fj = json_object_get(j, f->name);
        size_t old = sdkrt_jpath_push_key_(p, f->name);
        if (!fj || (json_is_null(fj) && f->null_offset == SDKRT_JNONE &&
                    f->type->kind != SDKRT_JK_NULL && f->type->kind != SDKRT_JK_ANY)) {
            /* Absent, or null where the contract has no null: optional fields accept both. */
            if (f->flags & SDKRT_JF_REQUIRED) {
                if (fj)
                    expected(err, p, f->type->name ? f->type->name : "value", fj);
                else
                    sdkrt_error_set(err, SDKRT_REASON_MALFORMED_RESPONSE,
                                    "%s: missing required field", sdkrt_jpath_str_(p));
                sdkrt_jpath_pop_(p, old);
                goto fail;
            }
            sdkrt_jpath_pop_(p, old);
            continue;
        }
        if (f->has_offset != SDKRT_JNONE)
            *(bool *)(base + f->has_offset) = true;
        if (json_is_null(fj) && f->null_offset != SDKRT_JNONE) {
            *(bool *)(base + f->null_offset) = true;
            sdkrt_jpath_pop_(p, old);
            continue;
        }
        sdkrt_status st;
        if (f->offset == SDKRT_JNONE) {
            /* Nothing stored (a literal): still check the value. */
            char dummy = 0;
            st = decode(f->type, &dummy, fj, p, err);
        } else {
            st = decode_place(f->type, f->flags, base + f->offset, fj, p, err);
        }
        sdkrt_jpath_pop_(p, old);
        if (st != SDKRT_OK)
            goto fail;
    }
    return SDKRT_OK;
fail:
    sdkrt_json_cleanup(t, v);
    return SDKRT_ERR;
}

static sdkrt_status decode_union(const sdkrt_jtype *t, void *v, const json_t *j, jpath *p,
                                 sdkrt_error **err)
{
    junion *u = v;
    char *slot = (char *)v + t->value_offset;
    if (t->discriminator) {
        if (!json_is_object(j))
            return expected(err, p, "object", j);
        const json_t *tag = json_object_get(j, t->discriminator);
        if (!json_is_string(tag)) {
            size_t old = sdkrt_jpath_push_key_(p, t->discriminator);
            sdkrt_status st =
                tag ? expected(err, p, "string", tag)
                    : sdkrt_error_set(err, SDKRT_REASON_MALFORMED_RESPONSE,
                                      "%s: missing discriminator", sdkrt_jpath_str_(p));
            sdkrt_jpath_pop_(p, old);
            return st;
        }
        for (size_t i = 0; i < t->nvariants; i++) {
            const sdkrt_jvariant *var = &t->variants[i];
            if (var->tag && strcmp(var->tag, json_string_value(tag)) == 0) {
                if (decode_place(var->type, var->flags, slot, j, p, err) != SDKRT_OK)
                    return SDKRT_ERR;
                u->kind = (int)i + 1;
                return SDKRT_OK;
            }
        }
        /* A variant this client does not know: keep the raw JSON (forward compatibility). */
        u->kind = 0;
        u->unknown = json_deep_copy(j);
        if (!u->unknown || sdkrt_json_decode_common_(t, slot, u->unknown) != SDKRT_OK) {
            json_decref(u->unknown);
            u->unknown = NULL;
            return sdkrt_json_oom_(err);
        }
        return SDKRT_OK;
    }
    /* Untagged: the first variant that decodes wins. */
    for (size_t i = 0; i < t->nvariants; i++) {
        const sdkrt_jvariant *var = &t->variants[i];
        sdkrt_error *e = NULL;
        if (decode_place(var->type, var->flags, slot, j, p, &e) == SDKRT_OK) {
            u->kind = (int)i + 1;
            return SDKRT_OK;
        }
        bool is_oom = sdkrt_error_reason(e) == SDKRT_REASON_OUT_OF_MEMORY;
        sdkrt_error_free(e);
        if (is_oom)
            return sdkrt_json_oom_(err);
    }
    return sdkrt_error_set(err, SDKRT_REASON_MALFORMED_RESPONSE, "%s: %s matches no variant of %s",
                           sdkrt_jpath_str_(p), json_type_name(j), t->name ? t->name : "the union");
}

static sdkrt_status decode(const sdkrt_jtype *t, void *v, const json_t *j, jpath *p,
                           sdkrt_error **err)
{
    switch (t->kind) {
    case SDKRT_JK_STRING: {
        if (!json_is_string(j))
            return expected(err, p, "string", j);
        if (strlen(json_string_value(j)) != json_string_length(j))
            return sdkrt_error_set(err, SDKRT_REASON_MALFORMED_RESPONSE,
                                   "%s: string holds a NUL character (\\u0000)",
                                   sdkrt_jpath_str_(p));
        char *s = strdup(json_string_value(j));
        if (!s)
            return sdkrt_json_oom_(err);
        *(char **)v = s;
        return SDKRT_OK;
    }
    case SDKRT_JK_INTEGER: {
        if (json_is_integer(j)) {
            *(int64_t *)v = (int64_t)json_integer_value(j);
            return SDKRT_OK;
        }
        if (json_is_real(j)) {
            double d = json_real_value(j);
            /* 1.0 is an integer in JSON Schema terms. */
            if (d == floor(d) && d >= -9223372036854775808.0 && d < 9223372036854775808.0) {
                *(int64_t *)v = (int64_t)d;
                return SDKRT_OK;
            }
        }
        return expected(err, p, "integer", j);
    }
    case SDKRT_JK_NUMBER:
        if (!json_is_number(j))
            return expected(err, p, "number", j);
        *(double *)v = json_number_value(j);
        return SDKRT_OK;
    case SDKRT_JK_BOOLEAN:
        if (!json_is_boolean(j))
            return expected(err, p, "boolean", j);
        *(bool *)v = json_is_true(j);
        return SDKRT_OK;
    case SDKRT_JK_NULL:
        if (!json_is_null(j))
            return expected(err, p, "null", j);
        return SDKRT_OK;
    case SDKRT_JK_NEVER:
        return sdkrt_error_set(err, SDKRT_REASON_MALFORMED_RESPONSE, "%s: no value is allowed here",
                               sdkrt_jpath_str_(p));
    case SDKRT_JK_LITERAL:
        return decode_literal(t, j, p, err);
    case SDKRT_JK_ENUM: {
        if (!json_is_string(j))
            return expected(err, p, "string", j);
        jenum *e = v;
        const char *s = json_string_value(j);
        for (size_t i = 0; i < t->nvalues; i++) {
            if (strcmp(t->values[i], s) == 0) {
                e->value = (int)i + 1;
                return SDKRT_OK;
            }
        }
        e->value = 0;
        e->unknown = strdup(s);
        return e->unknown ? SDKRT_OK : sdkrt_json_oom_(err);
    }
    case SDKRT_JK_ARRAY: {
        if (!json_is_array(j))
            return expected(err, p, "array", j);
        jarray *a = v;
        size_t n = json_array_size(j);
        size_t sz = t->inner->size ? t->inner->size : 1;
        if (n == 0)
            return SDKRT_OK;
        a->items = calloc(n, sz);
        if (!a->items)
            return sdkrt_json_oom_(err);
        for (size_t i = 0; i < n; i++) {
            size_t old = sdkrt_jpath_push_index_(p, i);
            sdkrt_status st =
                decode(t->inner, (char *)a->items + i * sz, json_array_get(j, i), p, err);
            sdkrt_jpath_pop_(p, old);
            if (st != SDKRT_OK) {
                sdkrt_json_cleanup(t, v);
                return SDKRT_ERR;
            }
            a->count = i + 1;
        }
        return SDKRT_OK;
    }
    case SDKRT_JK_MAP: {
        if (!json_is_object(j))
            return expected(err, p, "object", j);
        jmap *m = v;
        size_t n = json_object_size(j);
        size_t sz = t->inner->size ? t->inner->size : 1;
        if (n == 0)
            return SDKRT_OK;
        m->keys = calloc(n, sizeof(char *));
        m->values = calloc(n, sz);
        if (!m->keys || !m->values) {
            sdkrt_json_cleanup(t, v);
            return sdkrt_json_oom_(err);
        }
        /* jansson iterates in insertion order (the order of the text): deterministic. */
        const char *key;
        const json_t *val;
        size_t i = 0;
        json_object_foreach((json_t *)j, key, val)
        {
            m->keys[i] = strdup(key);
            if (!m->keys[i]) {
                sdkrt_json_cleanup(t, v);
                return sdkrt_json_oom_(err);
            }
            m->count = i + 1;
            size_t old = sdkrt_jpath_push_key_(p, key);
            sdkrt_status st = decode(t->inner, (char *)m->values + i * sz, val, p, err);
            sdkrt_jpath_pop_(p, old);
            if (st != SDKRT_OK) {
                sdkrt_json_cleanup(t, v);
                return SDKRT_ERR;
            }
            i++;
        }
        return SDKRT_OK;
    }
    case SDKRT_JK_OBJECT:
        return decode_object(t, v, j, p, err);
    case SDKRT_JK_UNION:
        return decode_union(t, v, j, p, err);
    case SDKRT_JK_NULLABLE:
        if (json_is_null(j)) {
            *(void **)v = NULL;
            return SDKRT_OK;
        }
        return decode_place(t->inner, SDKRT_JF_BOXED, v, j, p, err);
    case SDKRT_JK_JSON_STRING: {
        /* Servers differ: accept the encoded string, or the content inline. */
        if (!json_is_string(j) || t->inner->kind == SDKRT_JK_STRING ||
            t->inner->kind == SDKRT_JK_ENUM)
            return decode(t->inner, v, j, p, err);
        json_error_t jerr;
        json_t *inner =
            json_loadb(json_string_value(j), json_string_length(j), SDKRT_JSON_LOAD_FLAGS, &jerr);
        if (!inner)
            return sdkrt_error_set(err, SDKRT_REASON_MALFORMED_RESPONSE,
                                   "%s: string does not hold JSON: %s", sdkrt_jpath_str_(p),
                                   jerr.text);
        sdkrt_status st = decode(t->inner, v, inner, p, err);
        json_decref(inner);
        return st;
    }
    case SDKRT_JK_ANY: {
        json_t *c = json_deep_copy(j);
        if (!c)
            return sdkrt_json_oom_(err);
        *(json_t **)v = c;
        return SDKRT_OK;
    }
    }
    return sdkrt_error_set(err, SDKRT_REASON_MALFORMED_RESPONSE, "%s: unsupported type",
                           sdkrt_jpath_str_(p));
}

sdkrt_status sdkrt_json_decode(const sdkrt_jtype *t, void *value, const json_t *json,
                               const char *path, sdkrt_error **err)
{
    if (!t || !value || !json)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "sdkrt_json_decode: NULL argument");
    jpath p;
    sdkrt_jpath_init_(&p, path ? path : "$");
    return decode(t, value, json, &p, err);
}

sdkrt_status sdkrt_json_decode_text(const sdkrt_jtype *t, void *value, const char *text, size_t len,
                                    const char *path, sdkrt_error **err)
{
    /* One pass straight into value; a refusal is decoded again through the tree below, which
     * names the path and the reason (the same messages as ever). */
    switch (t && value && text ? sdkrt_jd_decode_(t, value, text, len, NULL)
                               : SDKRT_JD_MALFORMED_) {
    case SDKRT_JD_OK_:
        return SDKRT_OK;
    case SDKRT_JD_OOM_:
        return sdkrt_json_oom_(err);
    case SDKRT_JD_MALFORMED_:
        break;
    }
    json_error_t jerr;
    json_t *j = json_loadb(text ? text : "", text ? len : 0, SDKRT_JSON_LOAD_FLAGS, &jerr);
    if (!j)
        return sdkrt_error_set(err, SDKRT_REASON_MALFORMED_RESPONSE,
                               "%s: invalid JSON at line %d column %d: %s", path ? path : "$",
                               jerr.line, jerr.column, jerr.text);
    sdkrt_status st = sdkrt_json_decode(t, value, j, path, err);
    json_decref(j);
    return st;
}

sdkrt_status sdkrt_json_decode_common_(const sdkrt_jtype *t, void *slot, const json_t *json)
{
    const sdkrt_jtype *c = t->common;
    if (!c || c->kind != SDKRT_JK_OBJECT || !json_is_object(json))
        return SDKRT_OK;
    char *base = slot;
    for (size_t i = 0; i < c->nfields; i++) {
        const sdkrt_jfield *f = &c->fields[i];
        const json_t *fj = json_object_get(json, f->name);
        if (!fj || json_is_null(fj) || f->offset == SDKRT_JNONE || f->has_offset == SDKRT_JNONE ||
            sdkrt_jtype_stores_nothing_(f->type))
            continue;
        jpath p;
        sdkrt_jpath_init_(&p, "$");
        sdkrt_error *e = NULL;
        if (decode_place(f->type, f->flags, base + f->offset, fj, &p, &e) == SDKRT_OK) {
            *(bool *)(base + f->has_offset) = true;
            continue;
        }
        bool is_oom = sdkrt_error_reason(e) == SDKRT_REASON_OUT_OF_MEMORY;
        sdkrt_error_free(e);
        if (is_oom) {
            sdkrt_json_cleanup(c, slot);
            return SDKRT_ERR;
        }
    }
    return SDKRT_OK;
}
