/* The C value model: maps IR types reachable from the operations onto C storage types (see
 * sdkrt/json.h for the layouts) and orders their definitions; model_names.c names them. */
#include "emit_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- types ---- */

static ctype *ctype_new(emit_ctx *cx, const sdkc_type *t, const char *key)
{
    ctype *c = sdkc_arena_alloc(cx->arena, sizeof *c);
    if (!c)
        return NULL;
    c->t = t;
    c->id = (int)cx->nall;
    c->key = sdkc_arena_strdup(cx->arena, key);
    if (!c->key || !sdkc_map_put(&cx->bykey, c->key, c))
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

static ctype *primitive(emit_ctx *cx, const sdkc_type *t, const char *key, const char *base,
                        const char *cdecl, const char *jk, bool stores)
{
    ctype *c = sdkc_map_get(&cx->bykey, key);
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
/* Map the fields of object type t, naming anonymous field types from ctx. */
static cfield *map_fields(emit_ctx *cx, const sdkc_type *t, const char *ctx)
{
    size_t n = t->u.object.nfields;
    cfield *fields = n ? sdkc_arena_alloc(cx->arena, n * sizeof *fields) : NULL;
    if (n && !fields)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        const sdkc_field *f = &t->u.object.fields[i];
        cfield *cf = &fields[i];
        cf->f = f;
        const sdkc_type *ft = f->type;
        if (ft->kind == SDKC_TYPE_NULLABLE) {
            cf->nullable = true;
            ft = ft->u.nullable.inner;
        }
        cf->ir_type = ft;
        cf->type = map_type(cx, ft, ctx_join(cx, ctx, f->safe_name));
        if (!cf->type)
            return NULL;
    }
    return fields;
}

static bool name_members(emit_ctx *cx, ctype *c)
{
    if (!c->nfields)
        return true;
    const char **safe = sdkc_arena_alloc(cx->arena, c->nfields * sizeof *safe);
    bool *opt = sdkc_arena_alloc(cx->arena, c->nfields * sizeof *opt);
    bool *nul = sdkc_arena_alloc(cx->arena, c->nfields * sizeof *nul);
    if (!safe || !opt || !nul)
        return false;
    for (size_t i = 0; i < c->nfields; i++) {
        safe[i] = c->fields[i].f->safe_name;
        opt[i] = !c->fields[i].f->required;
        nul[i] = c->fields[i].nullable;
    }
    static const char *const taken[] = {"none_", NULL};
    const char **names = emit_member_names(cx, c->nfields, safe, opt, nul, taken);
    if (!names)
        return false;
    for (size_t i = 0; i < c->nfields; i++)
        c->fields[i].cname = names[i];
    return true;
}

/* Was t declared by the contract (a component schema of its own), rather than written inline
 * and named by the compiler? */
static bool declared(const sdkc_type *t)
{
    return t->safe_name && t->declared;
}

/* Inline objects and enums of the same shape may be one C type: the contract repeats inline
 * schemas (every event's `durable` block), and one type lets code that reads them be shared. The
 * shape key names field types by their ctype id, so equal keys mean equal C storage. */
static ctype *anonymous_shape(emit_ctx *cx, const sdkc_type *t, const char *ctx_name,
                              const char *jk)
{
    char ptrkey[64];
    snprintf(ptrkey, sizeof ptrkey, "A:%p", (const void *)t);
    ctype *c = sdkc_map_get(&cx->bykey, ptrkey);
    if (c)
        return c;
    cfield *fields = NULL;
    sdkc_buf k = SDKC_BUF_INIT;
    if (t->kind == SDKC_TYPE_OBJECT) {
        fields = map_fields(cx, t, ctx_name);
        if (t->u.object.nfields && !fields)
            return NULL;
        sdkc_buf_puts(&k, "O:");
        for (size_t i = 0; i < t->u.object.nfields; i++)
            sdkc_buf_printf(&k, "%s\x1f%c%c%d;", fields[i].f->wire_name,
                            fields[i].f->required ? 'r' : 'o', fields[i].nullable ? 'n' : '-',
                            fields[i].type->id);
    } else {
        sdkc_buf_puts(&k, "E:");
        for (size_t i = 0; i < t->u.enumeration.nvalues; i++)
            sdkc_buf_printf(&k, "%s\x1f", t->u.enumeration.values[i]);
    }
    const char *skey = k.data ? sdkc_arena_strdup(cx->arena, k.data) : NULL;
    sdkc_buf_cleanup(&k);
    const char *pkey = sdkc_arena_strdup(cx->arena, ptrkey);
    if (!skey || !pkey)
        return NULL;
    c = sdkc_map_get(&cx->bykey, skey);
    if (c)
        return sdkc_map_put(&cx->bykey, pkey, c) ? c : NULL;
    /* Only shapes seeded as a union's common field (and what they contain) are merged in the
     * final pass: elsewhere a merged type would carry the name of another context. */
    bool mergeable = cx->merge_all || cx->seeding;
    c = ctype_new(cx, t, mergeable ? skey : pkey);
    if (!c || (mergeable && !sdkc_map_put(&cx->bykey, pkey, c)))
        return NULL;
    c->shape = true;
    c->is_struct = true;
    c->stores = true;
    c->jk = jk;
    c->base =
        emit_unique_with(cx, ctx_name, "_value",
                         t->kind == SDKC_TYPE_ENUM ? emit_enum_derived : emit_type_derived, c);
    if (!c->base)
        return NULL;
    c->cdecl = sdkc_arena_printf(cx->arena, "%s_%s", cx->prefix, c->base);
    c->docs = t->docs;
    if (t->kind == SDKC_TYPE_OBJECT) {
        c->nfields = t->u.object.nfields;
        c->fields = fields;
        if (!name_members(cx, c))
            return NULL;
    }
    return c->cdecl ? c : NULL;
}

/* A named compound (object, union, enum) gets its own struct. Anonymous ones are named from
 * context. */
static ctype *compound(emit_ctx *cx, const sdkc_type *t, const char *ctx_name, const char *jk)
{
    char keybuf[64];
    const char *key;
    /* A recursive inline type cannot be keyed by its shape (the key would contain itself): it
     * is one type of its own, registered before its fields are mapped. */
    if ((t->kind == SDKC_TYPE_OBJECT || t->kind == SDKC_TYPE_ENUM) && !declared(t) && !t->recursive)
        return anonymous_shape(cx, t, t->safe_name && !cx->seeding ? t->safe_name : ctx_name, jk);
    if (t->safe_name) {
        key = sdkc_arena_printf(cx->arena, "N:%s", t->safe_name);
    } else {
        /* Anonymous: identity is the IR node itself (the IR is immutable while we run). */
        snprintf(keybuf, sizeof keybuf, "A:%p", (const void *)t);
        key = keybuf;
    }
    if (!key)
        return NULL;
    ctype *c = sdkc_map_get(&cx->bykey, key);
    if (c)
        return c;
    c = ctype_new(cx, t, key);
    if (!c)
        return NULL;
    c->is_struct = true;
    c->stores = true;
    c->jk = jk;
    c->named = t->safe_name != NULL;
    c->base = emit_unique_with(cx, t->safe_name ? t->safe_name : ctx_name, "_value",
                               t->kind == SDKC_TYPE_ENUM    ? emit_enum_derived
                               : t->kind == SDKC_TYPE_UNION ? emit_union_derived
                                                            : emit_type_derived,
                               c);
    if (!c->base)
        return NULL;
    c->cdecl = sdkc_arena_printf(cx->arena, "%s_%s", cx->prefix, c->base);
    c->docs = t->docs;
    if (t->kind == SDKC_TYPE_OBJECT) {
        c->nfields = t->u.object.nfields;
        c->fields = map_fields(cx, t, c->base);
        if ((c->nfields && !c->fields) || !name_members(cx, c))
            return NULL;
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
            ctype *c = key ? sdkc_map_get(&cx->bykey, key) : NULL;
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
        ctype *c = sdkc_map_get(&cx->bykey, key);
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
        ctype *c = key ? sdkc_map_get(&cx->bykey, key) : NULL;
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
        ctype *c = key ? sdkc_map_get(&cx->bykey, key) : NULL;
        if (c || !key)
            return c;
        c = ctype_new(cx, t, key);
        if (!c)
            return NULL;
        c->stores = true;
        c->inner = inner;
        c->jk = "SDKRT_JK_NULLABLE";
        c->base = sdkc_arena_printf(cx->arena, "%s_or_null", inner->base);
        c->cdecl = emit_ptr_decl(cx, inner->cdecl);
        return c;
    }
    case SDKC_TYPE_JSON_STRING: {
        ctype *inner = map_type(cx, t->u.json_string.content, ctx_name);
        if (!inner)
            return NULL;
        const char *key = sdkc_arena_printf(cx->arena, "J:%s", inner->key);
        ctype *c = key ? sdkc_map_get(&cx->bykey, key) : NULL;
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

/* ---- fields common to every variant of a union ---- */

/* The object a union variant holds, or NULL. */
static const ctype *variant_object(const cvariant *v)
{
    const ctype *t = v->type;
    return t && t->t->kind == SDKC_TYPE_OBJECT && !strcmp(t->jk, "SDKRT_JK_OBJECT") ? t : NULL;
}

bool emit_union_commons(emit_ctx *cx)
{
    for (size_t i = 0; i < cx->norder; i++) {
        ctype *u = cx->order[i];
        if (u->t->kind != SDKC_TYPE_UNION || !u->nvariants)
            continue;
        bool objects = true;
        for (size_t k = 0; k < u->nvariants && objects; k++)
            objects = variant_object(&u->variants[k]) != NULL;
        if (!objects)
            continue;
        const ctype *first = variant_object(&u->variants[0]);
        u->common = sdkc_arena_alloc(cx->arena, (first->nfields + 1) * sizeof *u->common);
        if (!u->common)
            return false;
        for (size_t f = 0; f < first->nfields; f++) {
            const cfield *want = &first->fields[f];
            if (!want->type->stores)
                continue; /* literals: the union's _tag tells them */
            const cfield **in = sdkc_arena_alloc(cx->arena, u->nvariants * sizeof *in);
            if (!in)
                return false;
            bool all = true;
            for (size_t k = 0; k < u->nvariants && all; k++) {
                const cfield *g =
                    emit_find_field(variant_object(&u->variants[k]), want->f->wire_name);
                all = g && g->type == want->type && g->nullable == want->nullable;
                in[k] = g;
            }
            if (!all)
                continue;
            const char *acc =
                emit_unique_with(cx, sdkc_arena_printf(cx->arena, "%s_%s", u->base, want->cname),
                                 "_value", NULL, NULL);
            if (!acc)
                return false;
            u->common[u->ncommon].accessor = acc;
            u->common[u->ncommon].in = in;
            u->ncommon++;
        }
    }
    return true;
}

emit_seed *emit_collect_seeds(emit_ctx *cx, const sdkc_ir *ir, size_t *n_out)
{
    size_t cap = 0, n = 0;
    for (size_t i = 0; i < cx->norder; i++)
        cap += cx->order[i]->ncommon;
    emit_seed *seeds = calloc(cap ? cap : 1, sizeof *seeds);
    const ctype **seen = calloc(cap ? cap : 1, sizeof *seen);
    if (!seeds || !seen)
        goto fail;
    for (size_t i = 0; i < cx->norder; i++) {
        const ctype *u = cx->order[i];
        if (u->nvariants < 2)
            continue;
        for (size_t k = 0; k < u->ncommon; k++) {
            const cfield *f = u->common[k].in[0];
            bool dup = !f->type->shape;
            for (size_t j = 0; j < n && !dup; j++)
                dup = seen[j] == f->type;
            if (dup)
                continue;
            /* named after the field, unless a declared schema has that name */
            const char *name = f->f->safe_name;
            const char *suffix = "";
            for (size_t j = 0; j < ir->ntypes; j++) {
                if (ir->types[j]->safe_name && !strcmp(ir->types[j]->safe_name, name) &&
                    declared(ir->types[j])) {
                    suffix = "_value";
                    break;
                }
            }
            size_t len = strlen(name) + strlen(suffix) + 1;
            char *want = malloc(len); /* outlives this pass's arena */
            if (!want)
                goto fail;
            snprintf(want, len, "%s%s", name, suffix);
            seeds[n].type = f->ir_type;
            seeds[n].want = want;
            seen[n++] = f->type;
        }
    }
    free(seen);
    *n_out = n;
    return seeds;
fail:
    emit_free_seeds(seeds, n);
    free(seen);
    return NULL;
}

void emit_free_seeds(emit_seed *seeds, size_t n)
{
    for (size_t i = 0; seeds && i < n; i++)
        free(seeds[i].want);
    free(seeds);
}

/* ---- input twins ---- */

static bool ends_in_star(const char *s)
{
    size_t n = strlen(s);
    return n && s[n - 1] == '*';
}

bool emit_holds_pointer(const ctype *c)
{
    if (!c->stores)
        return false;
    if (ends_in_star(c->cdecl))
        return true;
    if (c->value_of)
        return emit_holds_pointer(c->value_of);
    if (!c->is_struct)
        return false;
    if (c->t->kind != SDKC_TYPE_OBJECT || strcmp(c->jk, "SDKRT_JK_OBJECT") != 0)
        return true; /* brand, enum (unknown), union, array, map */
    for (size_t i = 0; i < c->nfields; i++) {
        const cfield *f = &c->fields[i];
        if (f->type->stores && (f->boxed || emit_holds_pointer(f->type)))
            return true;
    }
    return false;
}

static void mark_input(ctype *c)
{
    if (!c || c->input)
        return;
    c->input = true;
    mark_input(c->inner);
    mark_input(c->value_of);
    for (size_t i = 0; i < c->nfields; i++)
        mark_input(c->fields[i].type);
    for (size_t i = 0; i < c->nvariants; i++)
        mark_input(c->variants[i].type);
}

bool emit_input_twins(emit_ctx *cx, ctype *const *roots, size_t nroots)
{
    static const char *const none[] = {NULL};
    for (size_t i = 0; i < nroots; i++)
        mark_input(roots[i]);
    /* Named in definition order, after every value type has its name: a contract's own type
     * named "x_in" keeps it and the twin of x becomes "x_input". */
    for (size_t i = 0; i < cx->norder; i++) {
        ctype *c = cx->order[i];
        if (!c->input || !emit_holds_pointer(c))
            continue;
        const char *want = sdkc_arena_printf(cx->arena, "%s_in", c->base);
        const char *base = want ? emit_unique_with(cx, want, "put", none, c) : NULL;
        if (!base)
            return false;
        c->twin = sdkc_arena_printf(cx->arena, "%s_%s", cx->prefix, base);
        if (!c->twin)
            return false;
    }
    return true;
}

const char *emit_in_decl(emit_ctx *cx, const ctype *c)
{
    if (!c->stores)
        return c->cdecl;
    if (c->twin)
        return c->twin;
    if (c->value_of)
        return emit_in_decl(cx, c->value_of);
    if (!strcmp(c->jk, "SDKRT_JK_NULLABLE")) {
        const char *in = emit_in_decl(cx, c->inner);
        return ends_in_star(in) ? sdkc_arena_printf(cx->arena, "%sconst *", in)
                                : sdkc_arena_printf(cx->arena, "const %s *", in);
    }
    if (ends_in_star(c->cdecl)) /* char *, json_t * */
        return sdkc_arena_printf(cx->arena, "const %s", c->cdecl);
    return c->cdecl;
}
