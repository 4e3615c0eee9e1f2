/* Typed values in memory: releasing what a decode stored (sdkrt_json_cleanup), values on the heap,
 * response bytes, and the payloads of domain errors (json_internal.h). */
#include "sdkrt/json.h"

#include "jdecode.h"
#include "json_internal.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* ---- cleanup ---- */

static void cleanup_place(const sdkrt_jtype *t, unsigned flags, void *place)
{
    if (!(flags & SDKRT_JF_BOXED)) {
        sdkrt_json_cleanup(t, place);
        return;
    }
    void *box = *(void **)place;
    if (box) {
        sdkrt_json_cleanup(t, box);
        free(box);
    }
    *(void **)place = NULL;
}

void sdkrt_json_cleanup(const sdkrt_jtype *t, void *v)
{
    if (!t || !v)
        return;
    switch (t->kind) {
    case SDKRT_JK_STRING:
        free(*(char **)v);
        *(char **)v = NULL;
        return;
    case SDKRT_JK_INTEGER:
    case SDKRT_JK_NUMBER:
    case SDKRT_JK_BOOLEAN:
    case SDKRT_JK_NULL:
    case SDKRT_JK_LITERAL:
    case SDKRT_JK_NEVER:
        memset(v, 0, t->size);
        return;
    case SDKRT_JK_ENUM: {
        jenum *e = v;
        free(e->unknown);
        e->unknown = NULL;
        e->value = 0;
        return;
    }
    case SDKRT_JK_ARRAY: {
        jarray *a = v;
        size_t sz = t->inner->size ? t->inner->size : 1;
        for (size_t i = 0; a->items && i < a->count; i++)
            sdkrt_json_cleanup(t->inner, (char *)a->items + i * sz);
        free(a->items);
        a->items = NULL;
        a->count = 0;
        return;
    }
    case SDKRT_JK_MAP: {
        jmap *m = v;
        size_t sz = t->inner->size ? t->inner->size : 1;
        for (size_t i = 0; i < m->count; i++) {
            if (m->keys)
                free(m->keys[i]);
            if (m->values)
                sdkrt_json_cleanup(t->inner, (char *)m->values + i * sz);
        }
        free(m->keys);
        free(m->values);
        m->keys = NULL;
        m->values = NULL;
        m->count = 0;
        return;
    }
    case SDKRT_JK_OBJECT: {
        char *base = v;
        for (size_t i = 0; i < t->nfields; i++) {
            const sdkrt_jfield *f = &t->fields[i];
            if (f->offset != SDKRT_JNONE && !sdkrt_jtype_stores_nothing_(f->type))
                cleanup_place(f->type, f->flags, base + f->offset);
        }
        memset(v, 0, t->size);
        return;
    }
    case SDKRT_JK_UNION: {
        junion *u = v;
        if (u->kind > 0 && (size_t)u->kind <= t->nvariants) {
            const sdkrt_jvariant *var = &t->variants[u->kind - 1];
            cleanup_place(var->type, var->flags, (char *)v + t->value_offset);
        } else if (u->kind == 0 && t->common) {
            sdkrt_json_cleanup(t->common, (char *)v + t->value_offset);
        }
        json_decref(u->unknown);
        memset(v, 0, t->size);
        return;
    }
    case SDKRT_JK_NULLABLE:
        cleanup_place(t->inner, SDKRT_JF_BOXED, v);
        return;
    case SDKRT_JK_JSON_STRING:
        sdkrt_json_cleanup(t->inner, v);
        return;
    case SDKRT_JK_ANY:
        json_decref(*(json_t **)v);
        *(json_t **)v = NULL;
        return;
    }
}

/* ---- values on the heap ---- */

void *sdkrt_json_value_new(const sdkrt_jtype *t)
{
    return calloc(1, t->size ? t->size : 1);
}

void sdkrt_json_value_free(const sdkrt_jtype *t, void *value)
{
    if (!value)
        return;
    sdkrt_json_cleanup(t, value);
    free(value);
}

void sdkrt_bytes_free(sdkrt_bytes *b)
{
    if (!b)
        return;
    free(b->data);
    free(b->content_type);
    free(b);
}

/* ---- domain error payloads ---- */

/* A domain error payload remembers its descriptor in a header before it, so one destructor
 * (the runtime's sdkrt_payload_free_fn takes only the pointer) can release any type. */
typedef union payload_head {
    const sdkrt_jtype *type;
    max_align_t align;
} payload_head;

void sdkrt_jpayload_free_(void *payload)
{
    if (!payload)
        return;
    payload_head *h = (payload_head *)payload - 1;
    sdkrt_json_cleanup(h->type, payload);
    free(h);
}

void *sdkrt_jpayload_new_(const sdkrt_jtype *t)
{
    payload_head *h = calloc(1, sizeof(payload_head) + (t->size ? t->size : 1));
    if (!h)
        return NULL;
    h->type = t;
    return h + 1;
}

void sdkrt_jpayload_json_free_(void *p)
{
    json_decref(p);
}

void *sdkrt_json_payload_copy_(const void *payload, sdkrt_payload_free_fn free_fn,
                               const json_t *raw)
{
    if (!payload)
        return NULL;
    if (free_fn == sdkrt_jpayload_json_free_)
        return json_incref((json_t *)payload);
    if (free_fn != sdkrt_jpayload_free_ || !raw)
        return NULL;
    const sdkrt_jtype *t = ((const payload_head *)payload - 1)->type;
    void *copy = sdkrt_jpayload_new_(t);
    sdkrt_error *e = NULL;
    if (copy && sdkrt_json_decode(t, copy, raw, "$", &e) != SDKRT_OK) {
        sdkrt_jpayload_free_(copy);
        copy = NULL;
    }
    sdkrt_error_free(e);
    return copy;
}
