/* Table-driven JSON encode: a typed value into a jansson tree (sdkrt_json_encode; for a request
 * the readOnly fields are left out), and the wire string of an enum value. */
#include "sdkrt/json.h"

#include "jdecode.h"
#include "json_internal.h"

#include <math.h>
#include <stdlib.h>

static sdkrt_status enc_err(sdkrt_error **err, jpath *p, const char *what)
{
    return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT, "%s: %s", sdkrt_jpath_str_(p), what);
}

static sdkrt_status encode(const sdkrt_jtype *t, const void *v, json_t **out, jpath *p,
                           sdkrt_error **err);

static sdkrt_status encode_place(const sdkrt_jtype *t, unsigned flags, const void *place,
                                 json_t **out, jpath *p, sdkrt_error **err)
{
    if (!(flags & SDKRT_JF_BOXED))
        return encode(t, place, out, p, err);
    const void *box = *(void *const *)place;
    if (!box)
        return enc_err(err, p, "value is NULL");
    return encode(t, box, out, p, err);
}

static sdkrt_status encode_object(const sdkrt_jtype *t, const void *v, json_t **out, jpath *p,
                                  sdkrt_error **err)
{
    const char *base = v;
    json_t *o = json_object();
    if (!o)
        return sdkrt_json_oom_(err);
    for (size_t i = 0; i < t->nfields; i++) {
        const sdkrt_jfield *f = &t->fields[i];
        if (f->has_offset != SDKRT_JNONE && !*(const bool *)(base + f->has_offset))
            continue;
        if (p->request && (f->flags & SDKRT_JF_READ_ONLY))
            continue;
        /* A required string left NULL in an object that has no has-flag reads as absent. */
        size_t old = sdkrt_jpath_push_key_(p, f->name);
        json_t *fj = NULL;
        sdkrt_status st = SDKRT_OK;
        if (f->null_offset != SDKRT_JNONE && *(const bool *)(base + f->null_offset)) {
            fj = json_null();
        } else if (f->offset == SDKRT_JNONE) {
            char dummy = 0;
            st = encode(f->type, &dummy, &fj, p, err);
        } else {
            st = encode_place(f->type, f->flags, base + f->offset, &fj, p, err);
        }
        sdkrt_jpath_pop_(p, old);
        if (st != SDKRT_OK) {
            json_decref(o);
            return SDKRT_ERR;
        }
        if (json_object_set_new(o, f->name, fj) != 0) {
            json_decref(o);
            return sdkrt_json_oom_(err);
        }
    }
    *out = o;
    return SDKRT_OK;
}

static sdkrt_status encode(const sdkrt_jtype *t, const void *v, json_t **out, jpath *p,
                           sdkrt_error **err)
{
    json_t *j = NULL;
    switch (t->kind) {
    case SDKRT_JK_STRING: {
        const char *s = *(char *const *)v;
        if (!s)
            return enc_err(err, p, "string is NULL");
        j = json_string(s);
        if (!j)
            return enc_err(err, p, "string is not valid UTF-8");
        break;
    }
    case SDKRT_JK_INTEGER:
        j = json_integer((json_int_t) * (const int64_t *)v);
        break;
    case SDKRT_JK_NUMBER: {
        double d = *(const double *)v;
        if (!isfinite(d))
            return enc_err(err, p, "number is not finite");
        /* Whole numbers go out as integers ("limit=7", {"limit": 7}), as servers expect. */
        if (d == floor(d) && fabs(d) < 9007199254740992.0)
            j = json_integer((json_int_t)d);
        else
            j = json_real(d);
        break;
    }
    case SDKRT_JK_BOOLEAN:
        j = json_boolean(*(const bool *)v);
        break;
    case SDKRT_JK_NULL:
        j = json_null();
        break;
    case SDKRT_JK_NEVER:
        return enc_err(err, p, "no value is allowed here");
    case SDKRT_JK_LITERAL:
        j = json_loads(t->literal ? t->literal : "null", JSON_DECODE_ANY, NULL);
        break;
    case SDKRT_JK_ENUM: {
        const char *s = sdkrt_json_enum_wire(t, v);
        if (!s)
            return enc_err(err, p, "enum value out of range (UNKNOWN without a wire string)");
        j = json_string(s);
        break;
    }
    case SDKRT_JK_ARRAY: {
        const jarray *a = v;
        size_t sz = t->inner->size ? t->inner->size : 1;
        if (a->count && !a->items)
            return enc_err(err, p, "array items are NULL with a non-zero count");
        j = json_array();
        if (!j)
            return sdkrt_json_oom_(err);
        for (size_t i = 0; i < a->count; i++) {
            json_t *item = NULL;
            size_t old = sdkrt_jpath_push_index_(p, i);
            sdkrt_status st = encode(t->inner, (const char *)a->items + i * sz, &item, p, err);
            sdkrt_jpath_pop_(p, old);
            if (st != SDKRT_OK) {
                json_decref(j);
                return SDKRT_ERR;
            }
            if (json_array_append_new(j, item) != 0) {
                json_decref(j);
                return sdkrt_json_oom_(err);
            }
        }
        *out = j;
        return SDKRT_OK;
    }
    case SDKRT_JK_MAP: {
        const jmap *m = v;
        size_t sz = t->inner->size ? t->inner->size : 1;
        if (m->count && (!m->keys || !m->values))
            return enc_err(err, p, "map keys or values are NULL with a non-zero count");
        j = json_object();
        if (!j)
            return sdkrt_json_oom_(err);
        for (size_t i = 0; i < m->count; i++) {
            if (!m->keys[i]) {
                json_decref(j);
                return enc_err(err, p, "map key is NULL");
            }
            json_t *item = NULL;
            size_t old = sdkrt_jpath_push_key_(p, m->keys[i]);
            sdkrt_status st = encode(t->inner, (const char *)m->values + i * sz, &item, p, err);
            sdkrt_jpath_pop_(p, old);
            if (st != SDKRT_OK) {
                json_decref(j);
                return SDKRT_ERR;
            }
            if (json_object_set_new(j, m->keys[i], item) != 0) {
                json_decref(j);
                return sdkrt_json_oom_(err);
            }
        }
        *out = j;
        return SDKRT_OK;
    }
    case SDKRT_JK_OBJECT:
        return encode_object(t, v, out, p, err);
    case SDKRT_JK_UNION: {
        const junion *u = v;
        if (u->kind == 0) {
            if (!u->unknown)
                return enc_err(err, p, "union is UNKNOWN without raw JSON");
            *out = json_incref(u->unknown);
            return SDKRT_OK;
        }
        if (u->kind < 0 || (size_t)u->kind > t->nvariants)
            return enc_err(err, p, "union kind out of range");
        const sdkrt_jvariant *var = &t->variants[u->kind - 1];
        return encode_place(var->type, var->flags, (const char *)v + t->value_offset, out, p, err);
    }
    case SDKRT_JK_NULLABLE: {
        const void *box = *(void *const *)v;
        if (!box)
            j = json_null();
        else
            return encode(t->inner, box, out, p, err);
        break;
    }
    case SDKRT_JK_JSON_STRING: {
        if (t->inner->kind == SDKRT_JK_STRING || t->inner->kind == SDKRT_JK_ENUM)
            return encode(t->inner, v, out, p, err);
        json_t *inner = NULL;
        if (encode(t->inner, v, &inner, p, err) != SDKRT_OK)
            return SDKRT_ERR;
        char *text = json_dumps(inner, JSON_ENCODE_ANY | JSON_COMPACT);
        json_decref(inner);
        if (!text)
            return sdkrt_json_oom_(err);
        j = json_string(text);
        free(text);
        break;
    }
    case SDKRT_JK_ANY: {
        json_t *a = *(json_t *const *)v;
        j = a ? json_incref(a) : json_null();
        break;
    }
    }
    if (!j)
        return sdkrt_json_oom_(err);
    *out = j;
    return SDKRT_OK;
}

static sdkrt_status encode_root(const sdkrt_jtype *t, const void *value, json_t **out, bool request,
                                sdkrt_error **err)
{
    if (!t || !value || !out)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "sdkrt_json_encode: NULL argument");
    *out = NULL;
    jpath p;
    sdkrt_jpath_init_(&p, "$");
    p.request = request;
    return encode(t, value, out, &p, err);
}

sdkrt_status sdkrt_json_encode(const sdkrt_jtype *t, const void *value, json_t **out,
                               sdkrt_error **err)
{
    return encode_root(t, value, out, false, err);
}

sdkrt_status sdkrt_json_encode_request_(const sdkrt_jtype *t, const void *value, json_t **out,
                                        sdkrt_error **err)
{
    return encode_root(t, value, out, true, err);
}

const char *sdkrt_json_enum_wire(const sdkrt_jtype *t, const void *value)
{
    const jenum *e = value;
    if (e->value == 0)
        return e->unknown;
    if (e->value < 0 || (size_t)e->value > t->nvalues)
        return NULL;
    return t->values[e->value - 1];
}
