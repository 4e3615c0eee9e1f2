/* schema_allof.c - allOf: members flattened (references followed, nested allOf), classified by
 * the JSON type they stand for, and merged into one schema or one object. */
#include <stdlib.h>
#include <string.h>

#include "schema_internal.h"

/* ---- allOf ---- */

#define MAX_ALLOF_DEPTH 32

/* Keywords that give a schema a shape of its own; the others annotate or constrain it. */
static bool shape_key(const char *k)
{
    static const char *const keys[] = {
        "$ref",          "additionalProperties",
        "allOf",         "anyOf",
        "const",         "contentMediaType",
        "contentSchema", "enum",
        "items",         "not",
        "oneOf",         "patternProperties",
        "prefixItems",   "properties",
        "type",          "unevaluatedProperties",
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strcmp(k, keys[i]) == 0)
            return true;
    return false;
}

/* Keywords that only annotate: nothing to merge when an allOf member has no other. */
static bool annotation_key(const char *k)
{
    static const char *const keys[] = {
        "$comment", "default",  "deprecated",   "description", "discriminator",
        "example",  "examples", "externalDocs", "nullable",    "readOnly",
        "summary",  "title",    "writeOnly",    "xml",
    };
    if (strncmp(k, "x-", 2) == 0)
        return true;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strcmp(k, keys[i]) == 0)
            return true;
    return false;
}

/* A schema that only constrains or annotates (`{required: [a]}`, `{description}`,
 * `{minLength: 1}`): it refines its neighbours and has no type of its own. An anyOf/oneOf whose
 * members are all such (`anyOf: [{required: [a]}, {required: [b]}]`) counts too. With
 * skip_merged, `allOf` and `$ref` (being merged already) are ignored. */
bool sdkc_sch_constraint_only(const sdkc_node *n, bool skip_merged, int depth)
{
    if (!n)
        return false;
    if (n->kind != SDKC_NODE_MAP) {
        bool b = false;
        return n->kind == SDKC_NODE_SCALAR && sdkc_node_bool(n, &b) && b; /* `true` */
    }
    for (size_t i = 0; i < n->npairs; i++) {
        const char *k = n->pairs[i].key->str;
        const sdkc_node *v = n->pairs[i].value;
        if (skip_merged && (strcmp(k, "allOf") == 0 || strcmp(k, "$ref") == 0))
            continue;
        if (strcmp(k, "not") == 0) {
            /* `not: {required: [x]}` constrains; `not: {}` (nothing is valid) does not */
            if (v->kind != SDKC_NODE_MAP || v->npairs == 0 || depth > 8 ||
                !sdkc_sch_constraint_only(v, false, depth + 1))
                return false;
        } else if (strcmp(k, "anyOf") == 0 || strcmp(k, "oneOf") == 0) {
            if (v->kind != SDKC_NODE_SEQ || v->nitems == 0 || depth > 8)
                return false;
            for (size_t j = 0; j < v->nitems; j++)
                if (!sdkc_sch_constraint_only(v->items[j], false, depth + 1))
                    return false;
        } else if (shape_key(k)) {
            return false;
        }
    }
    return true;
}

bool sdkc_sch_annotation_only(const sdkc_node *n)
{
    if (!n || n->kind != SDKC_NODE_MAP)
        return sdkc_sch_constraint_only(n, true, 0);
    for (size_t i = 0; i < n->npairs; i++) {
        const char *k = n->pairs[i].key->str;
        if (strcmp(k, "allOf") != 0 && strcmp(k, "$ref") != 0 && !annotation_key(k))
            return false;
    }
    return true;
}

/* The JSON type a part of an allOf stands for ("object", "string", ..., "union", "not"), or NULL
 * when it only constrains. */
const char *sdkc_sch_part_class(const sdkc_node *p)
{
    if (sdkc_sch_constraint_only(p, true, 0))
        return NULL;
    if (p->kind != SDKC_NODE_MAP)
        return "never"; /* `false` */
    const sdkc_node *ty = kget(p, "type");
    if (ty && ty->kind == SDKC_NODE_SEQ) {
        const char *only = NULL;
        for (size_t i = 0; i < ty->nitems; i++) {
            const char *s = sdkc_cc_text(ty->items[i]);
            if (!s || (strcmp(s, "null") != 0 && only))
                return "union";
            if (strcmp(s, "null") != 0)
                only = s;
        }
        return only ? only : "null";
    }
    if (ty)
        return sdkc_cc_text(ty) ? sdkc_cc_text(ty) : "union";
    for (int u = 0; u < 2; u++) {
        const sdkc_node *list = kget(p, u ? "oneOf" : "anyOf");
        if (!list)
            continue;
        if (list->kind != SDKC_NODE_SEQ)
            return "union";
        for (size_t i = 0; i < list->nitems; i++)
            if (!sdkc_sch_constraint_only(list->items[i], false, 0))
                return "union";
    }
    if (kget(p, "not"))
        return "not";
    const sdkc_node *e = kget(p, "const");
    if (!e) {
        e = kget(p, "enum");
        e = e && e->kind == SDKC_NODE_SEQ && e->nitems ? e->items[0] : NULL;
    }
    if (e && e->kind == SDKC_NODE_SCALAR)
        return e->scalar == SDKC_SCALAR_STRING ? "string"
               : e->scalar == SDKC_SCALAR_BOOL ? "boolean"
               : e->scalar == SDKC_SCALAR_NULL ? "null"
                                               : "number";
    const char *inf = sdkc_sch_infer_type(p);
    if (!inf && kget(p, "unevaluatedProperties"))
        inf = "object";
    return inf ? inf : "union";
}

/* Do two part classes describe the same JSON type? integer refines number. */
bool sdkc_sch_same_class(const char *a, const char *b)
{
    if (strcmp(a, b) == 0)
        return true;
    bool an = strcmp(a, "integer") == 0 || strcmp(a, "number") == 0;
    bool bn = strcmp(b, "integer") == 0 || strcmp(b, "number") == 0;
    return an && bn;
}

bool sdkc_sch_scalar_class(const char *k)
{
    return k && (strcmp(k, "string") == 0 || strcmp(k, "integer") == 0 ||
                 strcmp(k, "number") == 0 || strcmp(k, "boolean") == 0);
}

/* Does a union (anyOf/oneOf members, or a list of types) admit values of the scalar class cls?
 * Beside a member of that class it then only narrows it: `oneOf: [integer, string]` and
 * `type: string` together are a string. */
bool sdkc_sch_union_admits(cctx *c, const sdkc_node *u, const char *cls)
{
    const sdkc_node *ty = kget(u, "type");
    if (ty && ty->kind == SDKC_NODE_SEQ) {
        for (size_t i = 0; i < ty->nitems; i++) {
            const char *s = sdkc_cc_text(ty->items[i]);
            if (s && sdkc_sch_same_class(s, cls))
                return true;
        }
        return false;
    }
    for (int k = 0; k < 2; k++) {
        const sdkc_node *list = kget(u, k ? "oneOf" : "anyOf");
        for (size_t i = 0; list && list->kind == SDKC_NODE_SEQ && i < list->nitems; i++) {
            const sdkc_node *m = list->items[i];
            m = kget(m, "$ref") ? sdkc_sch_deref_schema(c, m) : m;
            const char *pc = m ? sdkc_sch_part_class(m) : NULL;
            if (pc && sdkc_sch_same_class(pc, cls))
                return true;
        }
    }
    return false;
}

typedef struct allof_parts {
    const sdkc_node *node[MAX_ALLOF_PARTS];
    const char *origin[MAX_ALLOF_PARTS];
    const sdkc_node *via[MAX_ALLOF_PARTS]; /* the `{$ref}` schema that led to the part, or NULL */
    size_t n;
    bool nullable;       /* a member says `nullable: true` */
    const char *trouble; /* why the members cannot be flattened, or NULL */
    const sdkc_node *trouble_at;
} allof_parts;

/* Collect the schemas an allOf stands for: the members, references followed (a `$ref` with
 * siblings gives both), nested allOf members flattened. */
static void flatten_all_of(cctx *c, allof_parts *ps, const sdkc_node *n, const char *origin,
                           const sdkc_node *via, int depth)
{
    if (ps->trouble)
        return;
    if (depth > MAX_ALLOF_DEPTH || ps->n >= MAX_ALLOF_PARTS) {
        ps->trouble = "'allOf' members nest too deeply (or refer back to themselves)";
        ps->trouble_at = n;
        return;
    }
    if (!n || n->kind != SDKC_NODE_MAP) {
        if (!sdkc_sch_constraint_only(n, false, 0)) {
            ps->trouble = "an 'allOf' member is not a schema mapping";
            ps->trouble_at = n;
        }
        return;
    }
    bool b = false;
    if (depth > 0 && sdkc_node_bool(kget(n, "nullable"), &b) && b)
        ps->nullable = true;
    const sdkc_node *refnode = kget(n, "$ref");
    const sdkc_node *list = kget(n, "allOf");
    if (!refnode || !sdkc_sch_annotation_only(n)) {
        ps->node[ps->n] = n;
        ps->via[ps->n] = via;
        ps->origin[ps->n++] = origin;
    }
    if (refnode) {
        const sdkc_node *t = sdkc_sch_deref_schema(c, n);
        if (!t) {
            ps->trouble = ""; /* dangling: reported already */
            ps->trouble_at = refnode;
            return;
        }
        const char *ref = sdkc_cc_text(refnode);
        flatten_all_of(c, ps, t, ref && ref[0] == '#' ? sdkc_cc_strdup(c, ref + 1) : origin, n,
                       depth + 1);
    }
    if (list) {
        if (list->kind != SDKC_NODE_SEQ || list->nitems == 0) {
            ps->trouble = "'allOf' must be a non-empty list";
            ps->trouble_at = list;
            return;
        }
        const char *lorigin = sdkc_cc_ptr_child(c, origin, "allOf");
        for (size_t i = 0; i < list->nitems; i++)
            flatten_all_of(c, ps, list->items[i], sdkc_cc_ptr_index(c, lorigin, i), NULL,
                           depth + 1);
    }
}

static sdkc_node *synth_node(cctx *c, sdkc_node_kind kind, const sdkc_node *at)
{
    sdkc_node *s = sdkc_cc_alloc(c, sizeof *s);
    if (s) {
        s->kind = kind;
        s->loc = at ? at->loc : (sdkc_loc){0};
    }
    return s;
}

/* One schema with the keys of every part, the first part's value winning; allOf and $ref are
 * left out (they were flattened). */
static const sdkc_node *merge_parts(cctx *c, const sdkc_node *const *parts, size_t np,
                                    const sdkc_node *at)
{
    size_t cap = 0;
    for (size_t i = 0; i < np; i++)
        cap += parts[i]->kind == SDKC_NODE_MAP ? parts[i]->npairs : 0;
    sdkc_node *m = synth_node(c, SDKC_NODE_MAP, at);
    sdkc_pair *pairs = sdkc_cc_alloc(c, (cap ? cap : 1) * sizeof *pairs);
    if (!m || !pairs)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < np; i++) {
        for (size_t j = 0; parts[i]->kind == SDKC_NODE_MAP && j < parts[i]->npairs; j++) {
            const sdkc_pair *p = &parts[i]->pairs[j];
            if (strcmp(p->key->str, "allOf") == 0 || strcmp(p->key->str, "$ref") == 0 ||
                kget(m, p->key->str))
                continue;
            pairs[k++] = *p;
            m->pairs = pairs;
            m->npairs = k;
        }
    }
    m->pairs = pairs;
    m->npairs = k;
    return m;
}

/* `{allOf: [a, b, ...]}` over the schemas a property has in several allOf members. */
const sdkc_node *sdkc_sch_all_of_node(cctx *c, const sdkc_node *const *items, size_t n,
                                      const sdkc_node *at)
{
    sdkc_node *key = synth_node(c, SDKC_NODE_SCALAR, at);
    sdkc_node *seq = synth_node(c, SDKC_NODE_SEQ, at);
    sdkc_node *m = synth_node(c, SDKC_NODE_MAP, at);
    sdkc_pair *pair = sdkc_cc_alloc(c, sizeof *pair);
    const sdkc_node **its = sdkc_cc_alloc(c, n * sizeof *its);
    if (!key || !seq || !m || !pair || !its)
        return NULL;
    key->scalar = SDKC_SCALAR_STRING;
    key->str = "allOf";
    key->len = 5;
    memcpy(its, items, n * sizeof *its);
    seq->items = its;
    seq->nitems = n;
    pair->key = key;
    pair->value = seq;
    m->pairs = pair;
    m->npairs = 1;
    return m;
}

sdkc_type *sdkc_sch_all_of_type(cctx *c, const sdkc_node *n, const sdkc_node *list,
                                const char *ctxname, const char *origin, sdkc_type *dest)
{
    if (list->kind != SDKC_NODE_SEQ || list->nitems == 0)
        return sdkc_sch_any_into(c, list, origin, "'allOf' must be a non-empty list", dest);
    sdkc_type *t = NULL;
    allof_parts *ps = calloc(1, sizeof *ps);
    if (!ps) {
        c->nomem = true;
        return NULL;
    }
    flatten_all_of(c, ps, n, origin, NULL, 0);
    if (ps->trouble) {
        t = sdkc_sch_any_into(c, ps->trouble_at, origin, ps->trouble[0] ? ps->trouble : NULL, dest);
        goto done;
    }
    /* a union beside a scalar member that it admits only narrows that member */
    const char *scalar = NULL;
    for (size_t i = 0; i < ps->n && !scalar; i++)
        scalar = sdkc_sch_scalar_class(sdkc_sch_part_class(ps->node[i]))
                     ? sdkc_sch_part_class(ps->node[i])
                     : NULL;
    if (scalar) {
        size_t k = 0;
        for (size_t i = 0; i < ps->n; i++) {
            const char *pc = sdkc_sch_part_class(ps->node[i]);
            if (pc && strcmp(pc, "union") == 0 && sdkc_sch_union_admits(c, ps->node[i], scalar))
                continue;
            ps->node[k] = ps->node[i];
            ps->origin[k] = ps->origin[i];
            ps->via[k++] = ps->via[i];
        }
        ps->n = k;
    }
    /* the parts that give a type, and whether the others add more than annotations */
    size_t shaped = 0, first = 0;
    bool refining = false;
    const char *cls = NULL;
    for (size_t i = 0; i < ps->n; i++) {
        const char *pc = sdkc_sch_part_class(ps->node[i]);
        if (!pc) {
            refining = refining || !sdkc_sch_annotation_only(ps->node[i]);
            continue;
        }
        if (cls && !sdkc_sch_same_class(cls, pc)) {
            const char *why =
                sdkc_cc_printf(c, "'allOf' members have incompatible types (%s and %s)", cls, pc);
            t = sdkc_sch_any_into(c, ps->node[i], origin, why, dest);
            goto done;
        }
        if (!cls)
            first = i;
        cls = cls ? cls : pc;
        shaped++;
    }
    if (cls && (strcmp(cls, "union") == 0 || strcmp(cls, "not") == 0) && (shaped > 1 || refining)) {
        t = sdkc_sch_any_into(
            c, ps->node[first], origin,
            "'allOf' over an 'anyOf'/'oneOf' member and other members is not supported", dest);
    } else if (shaped == 1 && !refining && ps->node[first] != n) {
        /* one schema plus annotations: that schema (a reference keeps its named type) */
        const sdkc_node *one = ps->via[first] ? ps->via[first] : ps->node[first];
        t = sdkc_sch_type(c, one, ctxname, ps->origin[first], dest);
    } else if (cls && strcmp(cls, "object") == 0) {
        t = sdkc_sch_object_type(c, ps->node, ps->origin, ps->n, ctxname, dest);
    } else {
        /* scalars, arrays, constraint-only members: one schema with every member's keywords */
        const sdkc_node *m = merge_parts(c, ps->node, ps->n, n);
        if (m)
            t = sdkc_sch_type(c, m, ctxname, origin, dest);
    }
    if (t && ps->nullable && !dest)
        t = sdkc_schema_nullable(c, t, n);
done:
    free(ps);
    return t;
}
