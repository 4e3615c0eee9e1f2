/* The C value model: maps IR types reachable from the operations onto C storage types (see
 * sdkrt/json.h for the layouts), names them uniquely and orders their definitions. */
#include "emit_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a string -> pointer hash map (arena-backed keys) ---- */

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static bool smap_grow(smap *m)
{
    size_t ncap = m->cap ? m->cap * 2 : 256;
    smap_entry *ne = calloc(ncap, sizeof *ne);
    if (!ne)
        return false;
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->e[i].key)
            continue;
        size_t j = hash_str(m->e[i].key) & (ncap - 1);
        while (ne[j].key)
            j = (j + 1) & (ncap - 1);
        ne[j] = m->e[i];
    }
    free(m->e);
    m->e = ne;
    m->cap = ncap;
    return true;
}

void *smap_get(const smap *m, const char *key)
{
    if (!m->cap)
        return NULL;
    size_t j = hash_str(key) & (m->cap - 1);
    while (m->e[j].key) {
        if (strcmp(m->e[j].key, key) == 0)
            return m->e[j].value;
        j = (j + 1) & (m->cap - 1);
    }
    return NULL;
}

bool smap_put(smap *m, const char *key, void *value)
{
    if ((m->n + 1) * 2 > m->cap && !smap_grow(m))
        return false;
    size_t j = hash_str(key) & (m->cap - 1);
    while (m->e[j].key) {
        if (strcmp(m->e[j].key, key) == 0) {
            m->e[j].value = value;
            return true;
        }
        j = (j + 1) & (m->cap - 1);
    }
    m->e[j].key = key;
    m->e[j].value = value;
    m->n++;
    return true;
}

void smap_cleanup(smap *m)
{
    free(m->e);
    m->e = NULL;
    m->cap = m->n = 0;
}

/* ---- names ---- */

/* Reserve a global name (without the prefix); when taken, append _t, _t2, ... */
const char *emit_unique(emit_ctx *cx, const char *want, void *owner)
{
    const char *name = want;
    for (int i = 1; smap_get(&cx->names, name); i++) {
        name = i == 1 ? sdkc_arena_printf(cx->arena, "%s_t", want)
                      : sdkc_arena_printf(cx->arena, "%s_t%d", want, i);
        if (!name)
            return NULL;
    }
    char *copy = sdkc_arena_strdup(cx->arena, name);
    if (!copy || !smap_put(&cx->names, copy, owner ? owner : (void *)copy))
        return NULL;
    return copy;
}

bool emit_reserve(emit_ctx *cx, const char *name)
{
    char *copy = sdkc_arena_strdup(cx->arena, name);
    return copy && smap_put(&cx->names, copy, copy);
}

/* ---- types ---- */

static ctype *ctype_new(emit_ctx *cx, const sdkc_type *t, const char *key)
{
    ctype *c = sdkc_arena_alloc(cx->arena, sizeof *c);
    if (!c)
        return NULL;
    c->t = t;
    c->key = sdkc_arena_strdup(cx->arena, key);
    if (!c->key || !smap_put(&cx->bykey, c->key, c))
        return NULL;
    if (cx->nall == cx->capall) {
        size_t ncap = cx->capall ? cx->capall * 2 : 256;
        ctype **na = realloc(cx->all, ncap * sizeof *na);
        if (!na)
            return NULL;
        cx->all = na;
        cx->capall = ncap;
    }
    cx->all[cx->nall++] = c;
    return c;
}

static const char *pointer_to(emit_ctx *cx, const char *cdecl)
{
    size_t n = strlen(cdecl);
    return sdkc_arena_printf(cx->arena, "%s%s*", cdecl, n && cdecl[n - 1] == '*' ? "" : " ");
}

static ctype *primitive(emit_ctx *cx, const sdkc_type *t, const char *key, const char *base,
                        const char *cdecl, const char *jk, bool stores)
{
    ctype *c = smap_get(&cx->bykey, key);
    if (c)
        return c;
    c = ctype_new(cx, t, key);
    if (!c)
        return NULL;
    c->base = sdkc_arena_strdup(cx->arena, base);
    c->cdecl = cdecl;
    c->jk = jk;
    c->stores = stores;
    return c;
}

/* The literal as JSON text. */
static const char *literal_json(emit_ctx *cx, const sdkc_literal *l)
{
    switch (l->kind) {
    case SDKC_LIT_STRING: {
        json_t *s = json_string(l->text ? l->text : "");
        char *d = s ? json_dumps(s, JSON_ENCODE_ANY) : NULL;
        json_decref(s);
        char *r = d ? sdkc_arena_strdup(cx->arena, d) : NULL;
        free(d);
        return r;
    }
    case SDKC_LIT_NUMBER:
    case SDKC_LIT_BOOL:
        return l->text;
    case SDKC_LIT_NULL:
        break;
    }
    return "null";
}

static ctype *map_type(emit_ctx *cx, const sdkc_type *t, const char *ctx_name);

static const char *ctx_join(emit_ctx *cx, const char *a, const char *b)
{
    return sdkc_arena_printf(cx->arena, "%s_%s", a, b);
}

/* A named compound (object, union, enum) gets its own struct. Anonymous ones are named from
 * context. */
static ctype *compound(emit_ctx *cx, const sdkc_type *t, const char *ctx_name, const char *jk)
{
    char keybuf[64];
    const char *key;
    if (t->safe_name) {
        key = sdkc_arena_printf(cx->arena, "N:%s", t->safe_name);
    } else {
        /* Anonymous: identity is the IR node itself (the IR is immutable while we run). */
        snprintf(keybuf, sizeof keybuf, "A:%p", (const void *)t);
        key = keybuf;
    }
    if (!key)
        return NULL;
    ctype *c = smap_get(&cx->bykey, key);
    if (c)
        return c;
    c = ctype_new(cx, t, key);
    if (!c)
        return NULL;
    c->is_struct = true;
    c->stores = true;
    c->jk = jk;
    c->named = t->safe_name != NULL;
    c->base = emit_unique(cx, t->safe_name ? t->safe_name : ctx_name, c);
    if (!c->base)
        return NULL;
    c->cdecl = sdkc_arena_printf(cx->arena, "%s_%s", cx->prefix, c->base);
    c->docs = t->docs;
    if (t->kind == SDKC_TYPE_OBJECT) {
        c->nfields = t->u.object.nfields;
        c->fields = c->nfields ? sdkc_arena_alloc(cx->arena, c->nfields * sizeof *c->fields) : NULL;
        if (c->nfields && !c->fields)
            return NULL;
        for (size_t i = 0; i < c->nfields; i++) {
            const sdkc_field *f = &t->u.object.fields[i];
            cfield *cf = &c->fields[i];
            cf->f = f;
            const sdkc_type *ft = f->type;
            if (ft->kind == SDKC_TYPE_NULLABLE) {
                cf->nullable = true;
                ft = ft->u.nullable.inner;
            }
            cf->type = map_type(cx, ft, ctx_join(cx, c->base, f->safe_name));
            if (!cf->type)
                return NULL;
        }
    } else if (t->kind == SDKC_TYPE_UNION) {
        c->nvariants = t->u.union_.nvariants;
        c->variants =
            c->nvariants ? sdkc_arena_alloc(cx->arena, c->nvariants * sizeof *c->variants) : NULL;
        if (c->nvariants && !c->variants)
            return NULL;
        for (size_t i = 0; i < c->nvariants; i++) {
            const sdkc_variant *v = &t->u.union_.variants[i];
            c->variants[i].v = v;
            c->variants[i].type = map_type(cx, v->type, ctx_join(cx, c->base, v->safe_name));
            if (!c->variants[i].type)
                return NULL;
        }
    }
    return c;
}

static ctype *map_type(emit_ctx *cx, const sdkc_type *t, const char *ctx_name)
{
    if (!ctx_name)
        return NULL;
    switch (t->kind) {
    case SDKC_TYPE_STRING:
        if (t->u.str.brand) {
            const sdkc_brand *b = t->u.str.brand;
            const char *key = sdkc_arena_printf(cx->arena, "B:%s", b->safe_name);
            ctype *c = key ? smap_get(&cx->bykey, key) : NULL;
            if (c || !key)
                return c;
            c = ctype_new(cx, t, key);
            if (!c)
                return NULL;
            c->is_struct = true;
            c->is_brand = true;
            c->named = true;
            c->stores = true;
            c->jk = "SDKRT_JK_STRING";
            c->base = emit_unique(cx, b->safe_name, c);
            if (!c->base)
                return NULL;
            c->cdecl = sdkc_arena_printf(cx->arena, "%s_%s", cx->prefix, c->base);
            c->docs = sdkc_arena_printf(
                cx->arena, "Identifier %s: a string starting with \"%s\" (pattern %s).", b->name,
                b->prefix, b->pattern);
            return c;
        }
        return primitive(cx, t, "P:string", "string", "char *", "SDKRT_JK_STRING", true);
    case SDKC_TYPE_INTEGER:
        return primitive(cx, t, "P:int64", "int64", "int64_t", "SDKRT_JK_INTEGER", true);
    case SDKC_TYPE_NUMBER:
        return primitive(cx, t, "P:double", "double", "double", "SDKRT_JK_NUMBER", true);
    case SDKC_TYPE_BOOLEAN:
        return primitive(cx, t, "P:bool", "bool", "bool", "SDKRT_JK_BOOLEAN", true);
    case SDKC_TYPE_ANY:
    case SDKC_TYPE_TUPLE:
        return primitive(cx, t, "P:json", "json", "json_t *", "SDKRT_JK_ANY", true);
    case SDKC_TYPE_NULL:
        return primitive(cx, t, "P:null", "null", "char", "SDKRT_JK_NULL", false);
    case SDKC_TYPE_NEVER:
        return primitive(cx, t, "P:never", "never", "char", "SDKRT_JK_NEVER", false);
    case SDKC_TYPE_LITERAL: {
        const char *lit = literal_json(cx, &t->u.literal);
        const char *key = lit ? sdkc_arena_printf(cx->arena, "L:%s", lit) : NULL;
        if (!key)
            return NULL;
        ctype *c = smap_get(&cx->bykey, key);
        if (c)
            return c;
        char base[32];
        snprintf(base, sizeof base, "lit%zu", cx->nliterals++);
        c = primitive(cx, t, key, base, "char", "SDKRT_JK_LITERAL", false);
        if (c)
            c->literal = lit;
        return c;
    }
    case SDKC_TYPE_ENUM:
        return compound(cx, t, ctx_name, "SDKRT_JK_ENUM");
    case SDKC_TYPE_OBJECT:
        return compound(cx, t, ctx_name, "SDKRT_JK_OBJECT");
    case SDKC_TYPE_UNION:
        return compound(cx, t, ctx_name, "SDKRT_JK_UNION");
    case SDKC_TYPE_ARRAY:
    case SDKC_TYPE_MAP: {
        bool arr = t->kind == SDKC_TYPE_ARRAY;
        ctype *inner = map_type(cx, arr ? t->u.array.items : t->u.map.value,
                                ctx_join(cx, ctx_name, arr ? "item" : "value"));
        if (!inner)
            return NULL;
        const char *key = sdkc_arena_printf(cx->arena, "%s:%s", arr ? "A" : "M", inner->key);
        ctype *c = key ? smap_get(&cx->bykey, key) : NULL;
        if (c || !key)
            return c;
        c = ctype_new(cx, t, key);
        if (!c)
            return NULL;
        c->is_struct = true;
        c->stores = true;
        c->inner = inner;
        c->jk = arr ? "SDKRT_JK_ARRAY" : "SDKRT_JK_MAP";
        c->base = emit_unique(
            cx, sdkc_arena_printf(cx->arena, "%s_%s", inner->base, arr ? "list" : "map"), c);
        if (!c->base)
            return NULL;
        c->cdecl = sdkc_arena_printf(cx->arena, "%s_%s", cx->prefix, c->base);
        return c;
    }
    case SDKC_TYPE_NULLABLE: {
        ctype *inner = map_type(cx, t->u.nullable.inner, ctx_name);
        if (!inner)
            return NULL;
        const char *key = sdkc_arena_printf(cx->arena, "N?:%s", inner->key);
        ctype *c = key ? smap_get(&cx->bykey, key) : NULL;
        if (c || !key)
            return c;
        c = ctype_new(cx, t, key);
        if (!c)
            return NULL;
        c->stores = true;
        c->inner = inner;
        c->jk = "SDKRT_JK_NULLABLE";
        c->base = sdkc_arena_printf(cx->arena, "%s_or_null", inner->base);
        c->cdecl = pointer_to(cx, inner->cdecl);
        return c;
    }
    case SDKC_TYPE_JSON_STRING: {
        ctype *inner = map_type(cx, t->u.json_string.content, ctx_name);
        if (!inner)
            return NULL;
        const char *key = sdkc_arena_printf(cx->arena, "J:%s", inner->key);
        ctype *c = key ? smap_get(&cx->bykey, key) : NULL;
        if (c || !key)
            return c;
        c = ctype_new(cx, t, key);
        if (!c)
            return NULL;
        c->stores = inner->stores;
        c->inner = inner;
        c->jk = "SDKRT_JK_JSON_STRING";
        c->base = sdkc_arena_printf(cx->arena, "%s_json", inner->base);
        c->cdecl = inner->cdecl;
        c->value_of = inner;
        return c;
    }
    }
    return NULL;
}

ctype *emit_map_type(emit_ctx *cx, const sdkc_type *t, const char *ctx_name)
{
    return map_type(cx, t, ctx_name);
}

/* The struct a value is stored in by value (object, union, enum, array, map, brand), following
 * JSON_STRING to its content; NULL for scalars and pointers. */
static ctype *by_value_struct(ctype *c)
{
    while (c && c->value_of)
        c = c->value_of;
    return c && c->is_struct ? c : NULL;
}

/* Depth-first over by-value members; an edge back into the current path is a cycle and gets
 * boxed (stored through a pointer). The resulting post-order is a valid definition order. */
static bool order_visit(emit_ctx *cx, ctype *c)
{
    if (c->mark == 2)
        return true;
    c->mark = 1;
    for (size_t i = 0; i < c->nfields; i++) {
        ctype *d = by_value_struct(c->fields[i].type);
        if (!d)
            continue;
        if (d->mark == 1) {
            c->fields[i].boxed = true;
            continue;
        }
        if (!order_visit(cx, d))
            return false;
    }
    for (size_t i = 0; i < c->nvariants; i++) {
        ctype *d = by_value_struct(c->variants[i].type);
        if (!d)
            continue;
        if (d->mark == 1) {
            c->variants[i].boxed = true;
            continue;
        }
        if (!order_visit(cx, d))
            return false;
    }
    c->mark = 2;
    cx->order[cx->norder++] = c;
    return true;
}

static int cmp_base(const void *a, const void *b)
{
    const ctype *x = *(ctype *const *)a, *y = *(ctype *const *)b;
    return strcmp(x->base, y->base);
}

bool emit_order_types(emit_ctx *cx)
{
    /* Sorted by name first so the order does not depend on discovery order more than needed. */
    ctype **sorted = malloc((cx->nall ? cx->nall : 1) * sizeof *sorted);
    cx->order = malloc((cx->nall ? cx->nall : 1) * sizeof *cx->order);
    if (!sorted || !cx->order) {
        free(sorted);
        return false;
    }
    size_t n = 0;
    for (size_t i = 0; i < cx->nall; i++) {
        if (cx->all[i]->is_struct)
            sorted[n++] = cx->all[i];
    }
    qsort(sorted, n, sizeof *sorted, cmp_base);
    cx->norder = 0;
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++)
        ok = order_visit(cx, sorted[i]);
    free(sorted);
    return ok;
}
