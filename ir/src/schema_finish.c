/* schema_finish.c - the schema stage's finishing passes, after the operations: discriminators and
 * variant names, recursion, empty cycles, aliases and the sorted type list. */
#include <stdlib.h>
#include <string.h>

#include "schema_internal.h"

/* ---- finishing passes ---- */

static const char *literal_tag(const sdkc_type *vt, const char *field)
{
    const sdkc_field *f = sdkc_object_field(vt, field);
    if (!f || !f->required || !f->type)
        return NULL;
    const sdkc_type *ft = f->type;
    if (ft->kind == SDKC_TYPE_LITERAL && ft->u.literal.kind == SDKC_LIT_STRING)
        return ft->u.literal.text;
    return NULL;
}

static int cmp_cstr(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Does every variant have field as a required string literal, all values distinct? */
static bool try_discriminator(cctx *c, const sdkc_type *u, const char *field)
{
    size_t n = u->u.union_.nvariants;
    const char **tags = malloc((n ? n : 1) * sizeof *tags);
    bool ok = tags != NULL;
    if (!tags)
        c->nomem = true;
    for (size_t i = 0; ok && i < n; i++) {
        tags[i] = literal_tag(u->u.union_.variants[i].type, field);
        ok = tags[i] != NULL;
    }
    if (ok && n > 1) {
        qsort(tags, n, sizeof *tags, cmp_cstr);
        for (size_t i = 1; ok && i < n; i++)
            ok = strcmp(tags[i - 1], tags[i]) != 0;
    }
    free(tags);
    return ok;
}

/* The type an OpenAPI discriminator mapping value names ("#/components/schemas/X" or "X"). */
static const sdkc_type *mapped_type(cctx *c, const sdkc_node *v)
{
    const char *s = sdkc_cc_text(v);
    if (!s)
        return NULL;
    if (s[0] != '#')
        return sdkc_map_get(&c->schemas->names, s);
    const sdkc_node *t = sdkc_cc_resolve_ref(c, v);
    t = t ? sdkc_sch_final_target(c, t) : NULL;
    comp *k = t ? sdkc_map_get(&c->schemas->comp_by_node, t) : NULL;
    return k ? k->shell : (t ? sdkc_map_get(&c->schemas->ref_cache, t) : NULL);
}

/* An explicit OpenAPI discriminator: tags from the property's literal, else the mapping, else the
 * variant's schema name. false (with a warning) when that does not tell every variant apart. */
static bool explicit_discriminator(cctx *c, sdkc_type *u, const sdkc_node *hint)
{
    sdkc_variant *vs = (sdkc_variant *)u->u.union_.variants;
    size_t n = u->u.union_.nvariants;
    const char *prop = sdkc_cc_text(kget(hint, "propertyName"));
    if (!prop) {
        sdkc_cc_warn(c, hint, "discriminator without 'propertyName' ignored");
        return false;
    }
    const sdkc_node *mapping = kget(hint, "mapping");
    const char **tags = sdkc_cc_alloc(c, (n ? n : 1) * sizeof *tags);
    if (!tags)
        return false;
    for (size_t i = 0; i < n; i++) {
        tags[i] = literal_tag(vs[i].type, prop);
        for (size_t j = 0;
             !tags[i] && mapping && mapping->kind == SDKC_NODE_MAP && j < mapping->npairs; j++)
            if (mapped_type(c, mapping->pairs[j].value) == vs[i].type)
                tags[i] = sdkc_cc_strdup(c, mapping->pairs[j].key->str);
        if (!tags[i] && vs[i].type && vs[i].type->name && vs[i].type->origin &&
            strncmp(vs[i].type->origin, "/components/schemas/", 20) == 0)
            tags[i] = vs[i].type->name;
        bool dup = false;
        for (size_t j = 0; j < i && tags[i] && !dup; j++)
            dup = strcmp(tags[j], tags[i]) == 0;
        if (!tags[i] || dup) {
            sdkc_cc_warn(
                c, hint,
                "discriminator '%s' does not tell every variant apart; union left untagged", prop);
            return false;
        }
    }
    u->u.union_.discriminator = sdkc_cc_strdup(c, prop);
    for (size_t i = 0; i < n; i++)
        vs[i].tag = tags[i];
    return true;
}

static void finish_union(cctx *c, sdkc_type *u)
{
    if (u->kind != SDKC_TYPE_UNION)
        return;
    sdkc_variant *vs = (sdkc_variant *)u->u.union_.variants;
    size_t n = u->u.union_.nvariants;
    const char *disc = NULL;
    const sdkc_node *hint = sdkc_map_get(&c->schemas->disc_hints, u);
    bool expl = hint && explicit_discriminator(c, u, hint);
    if (expl)
        disc = u->u.union_.discriminator;
    else if (n > 0 && vs[0].type && vs[0].type->kind == SDKC_TYPE_OBJECT) {
        static const char *const preferred[] = {"type", "_tag", "kind"};
        for (size_t i = 0; i < 3 && !disc; i++)
            if (try_discriminator(c, u, preferred[i]))
                disc = preferred[i];
        const sdkc_type *v0 = vs[0].type;
        for (size_t i = 0; i < v0->u.object.nfields && !disc; i++)
            if (try_discriminator(c, u, v0->u.object.fields[i].wire_name))
                disc = v0->u.object.fields[i].wire_name;
    }
    u->u.union_.discriminator = disc;
    sdkc_map seen;
    sdkc_map_init(&seen, SDKC_MAP_STRINGS);
    for (size_t i = 0; i < n; i++) {
        if (!expl)
            vs[i].tag = disc ? literal_tag(vs[i].type, disc) : NULL;
        const char *basis = vs[i].tag;
        if (!basis)
            basis = vs[i].type && vs[i].type->name
                        ? vs[i].type->name
                        : sdkc_type_kind_name(vs[i].type ? vs[i].type->kind : SDKC_TYPE_ANY);
        vs[i].safe_name = sdkc_cc_unique_c_name(c, &seen, basis, (void *)1);
        if (!vs[i].safe_name)
            break;
    }
    sdkc_map_cleanup(&seen);
}

/* ---- recursion: Tarjan's strongly connected components, iterative ---- */

typedef struct tnode {
    size_t index, low;
    bool on_stack, visited;
} tnode;

static size_t children(const sdkc_type *t, const sdkc_type **out, size_t max)
{
    size_t n = 0;
#define ADD(x)                                                                                     \
    do {                                                                                           \
        if ((x) && n < max)                                                                        \
            out[n++] = (x);                                                                        \
    } while (0)
    switch (t->kind) {
    case SDKC_TYPE_ARRAY:
        ADD(t->u.array.items);
        break;
    case SDKC_TYPE_TUPLE:
        for (size_t i = 0; i < t->u.tuple.nitems; i++)
            ADD(t->u.tuple.items[i]);
        ADD(t->u.tuple.rest);
        break;
    case SDKC_TYPE_MAP:
        ADD(t->u.map.value);
        break;
    case SDKC_TYPE_OBJECT:
        for (size_t i = 0; i < t->u.object.nfields; i++)
            ADD(t->u.object.fields[i].type);
        ADD(t->u.object.additional);
        break;
    case SDKC_TYPE_UNION:
        for (size_t i = 0; i < t->u.union_.nvariants; i++)
            ADD(t->u.union_.variants[i].type);
        break;
    case SDKC_TYPE_NULLABLE:
        ADD(t->u.nullable.inner);
        break;
    case SDKC_TYPE_JSON_STRING:
        ADD(t->u.json_string.content);
        break;
    default:
        break;
    }
#undef ADD
    return n;
}

static size_t nchildren(const sdkc_type *t)
{
    switch (t->kind) {
    case SDKC_TYPE_TUPLE:
        return t->u.tuple.nitems + 1;
    case SDKC_TYPE_OBJECT:
        return t->u.object.nfields + 1;
    case SDKC_TYPE_UNION:
        return t->u.union_.nvariants;
    default:
        return 1;
    }
}

typedef struct frame {
    size_t v;
    const sdkc_type **kids;
    size_t nkids, next;
} frame;

static void mark_recursive(cctx *c)
{
    size_t n = c->schemas->all.len;
    sdkc_map idx;
    sdkc_map_init(&idx, SDKC_MAP_POINTERS);
    tnode *tn = calloc(n ? n : 1, sizeof *tn);
    size_t *stack = malloc((n ? n : 1) * sizeof *stack);
    frame *fr = malloc((n ? n : 1) * sizeof *fr);
    if (!tn || !stack || !fr) {
        c->nomem = true;
        goto done;
    }
    if (!sdkc_map_reserve(&idx, n))
        c->nomem = true;
    for (size_t i = 0; i < n && !c->nomem; i++)
        if (!sdkc_map_put(&idx, c->schemas->all.items[i], (void *)(uintptr_t)(i + 1))) {
            c->nomem = true;
            goto done;
        }
    size_t counter = 0, sp = 0;
    for (size_t root = 0; root < n; root++) {
        if (tn[root].visited)
            continue;
        size_t fp = 0;
        fr[fp].v = root;
        fr[fp].nkids = 0;
        fr[fp].kids = NULL;
        fr[fp].next = 0;
        bool enter = true;
        while (true) {
            frame *f = &fr[fp];
            if (enter) {
                tn[f->v].visited = true;
                tn[f->v].index = tn[f->v].low = counter++;
                tn[f->v].on_stack = true;
                stack[sp++] = f->v;
                const sdkc_type *t = c->schemas->all.items[f->v];
                size_t cap = nchildren(t);
                f->kids = cap ? sdkc_cc_alloc(c, cap * sizeof *f->kids) : NULL;
                f->nkids = f->kids ? children(t, f->kids, cap) : 0;
                f->next = 0;
                enter = false;
            }
            if (f->next < f->nkids) {
                const sdkc_type *k = f->kids[f->next++];
                size_t w = (size_t)(uintptr_t)sdkc_map_get(&idx, k);
                if (w == 0)
                    continue;
                w--;
                if (w == f->v) {
                    ((sdkc_type *)c->schemas->all.items[w])->recursive = true;
                    continue;
                }
                if (!tn[w].visited) {
                    fp++;
                    fr[fp].v = w;
                    enter = true;
                } else if (tn[w].on_stack && tn[w].index < tn[f->v].low) {
                    tn[f->v].low = tn[w].index;
                }
                continue;
            }
            /* all children done */
            size_t v = f->v;
            if (tn[v].low == tn[v].index) {
                size_t count = 0, base = sp;
                do {
                    base--;
                    count++;
                } while (stack[base] != v);
                for (size_t i = base; i < sp; i++) {
                    tn[stack[i]].on_stack = false;
                    if (count > 1)
                        ((sdkc_type *)c->schemas->all.items[stack[i]])->recursive = true;
                }
                sp = base;
            }
            if (fp == 0)
                break;
            fp--;
            if (tn[v].low < tn[fr[fp].v].low)
                tn[fr[fp].v].low = tn[v].low;
        }
    }
done:
    sdkc_map_cleanup(&idx);
    free(tn);
    free(stack);
    free(fr);
}

static int cmp_type_name(const void *a, const void *b)
{
    return strcmp((*(const sdkc_type *const *)a)->name, (*(const sdkc_type *const *)b)->name);
}

static bool plain_name(const char *s)
{
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')))
            return false;
    return true;
}

/* A named type that is only itself, through nullables and one-variant unions (`A: anyOf [$ref A,
 * null]`), describes no value: report it like a cycle of pure references. */
static void check_empty_cycles(cctx *c)
{
    for (size_t i = 0; i < c->schemas->all.len; i++) {
        const sdkc_type *start = c->schemas->all.items[i], *t = start;
        for (int step = 0; step < 64 && t; step++) {
            if (t->kind == SDKC_TYPE_NULLABLE)
                t = t->u.nullable.inner;
            else if (t->kind == SDKC_TYPE_UNION && t->u.union_.nvariants == 1)
                t = t->u.union_.variants[0].type;
            else
                break;
            if (t == start) {
                sdkc_cc_report(c, SDKC_SEV_ERROR, start->loc,
                               "schema '%s' is only itself (or null): a cycle with no structure",
                               start->name ? start->name : nz(start->origin));
                break;
            }
        }
    }
}

bool sdkc_schema_check_empty_cycles(cctx *c, sdkc_ir *ir)
{
    (void)ir;
    check_empty_cycles(c);
    return !c->nomem;
}

bool sdkc_schema_find_discriminators(cctx *c, sdkc_ir *ir)
{
    (void)ir;
    for (size_t i = 0; i < c->schemas->unions.len && !c->nomem; i++)
        finish_union(c, c->schemas->unions.items[i]);
    return !c->nomem;
}

bool sdkc_schema_mark_recursive(cctx *c, sdkc_ir *ir)
{
    (void)ir;
    mark_recursive(c);
    return !c->nomem;
}

/* An alias component becomes a copy of its target under its own name. */
bool sdkc_schema_copy_aliases(cctx *c, sdkc_ir *ir)
{
    (void)ir;
    for (size_t i = 0; i < c->schemas->ncomps; i++) {
        comp *k = &c->schemas->comps[i];
        if (k->state != COMP_ALIAS || !k->target)
            continue;
        comp *t = sdkc_map_get(&c->schemas->comp_by_node, k->target);
        if (!t)
            continue;
        sdkc_type keep = *k->shell;
        *k->shell = *t->shell;
        k->shell->name = keep.name;
        k->shell->origin = keep.origin;
        k->shell->loc = keep.loc;
        k->shell->docs = keep.docs ? keep.docs : t->shell->docs;
    }
    return true;
}

/* Built from a component schema's own node (origin "/components/schemas/X"), not from a
 * property or member inside one: a type the contract declared. */
static bool component_root(const char *origin)
{
    static const char schemas[] = "/components/schemas/";
    return origin && strncmp(origin, schemas, sizeof schemas - 1) == 0 &&
           !strchr(origin + sizeof schemas - 1, '/');
}

/* ir->types: the named types sorted by name, each with its C-safe name. */
bool sdkc_schema_list_types(cctx *c, sdkc_ir *ir)
{
    size_t n = c->schemas->named.len;
    const sdkc_type **types = sdkc_cc_alloc(c, (n ? n : 1) * sizeof *types);
    if (!types)
        return false;
    if (n > 0) {
        memcpy(types, c->schemas->named.items, n * sizeof *types);
        qsort(types, n, sizeof *types, cmp_type_name);
    }
    /* safe names: identifier-like names first so they keep the plain spelling */
    sdkc_map safe;
    sdkc_map_init(&safe, SDKC_MAP_STRINGS);
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < n; i++) {
            sdkc_type *t = (sdkc_type *)types[i];
            if (plain_name(t->name) != (pass == 0))
                continue;
            t->safe_name = sdkc_cc_unique_c_name(c, &safe, t->name, t);
            if (!t->safe_name)
                break;
        }
    }
    sdkc_map_cleanup(&safe);
    for (size_t i = 0; i < n; i++)
        ((sdkc_type *)types[i])->declared = component_root(types[i]->origin);
    ir->types = types;
    ir->ntypes = n;
    return !c->nomem;
}
