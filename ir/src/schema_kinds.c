/* schema_kinds.c - a schema's keywords to the kind of type they describe: const and enum,
 * anyOf/oneOf unions, strings, numbers, arrays and tuples, `type` (one or a list). */
#include <stdlib.h>
#include <string.h>

#include "schema_internal.h"
#include "sdkc/naming.h"

/* ---- keywords ---- */

/* Keywords that either shape the type or are annotations safe to ignore. Sorted. */
static const char *const known_keys[] = {
    "$anchor",
    "$comment",
    "$defs",
    "$dynamicAnchor",
    "$id",
    "$ref",
    "$schema",
    "$vocabulary",
    "additionalProperties",
    "allOf",
    "anyOf",
    "const",
    "contains",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
    "default",
    "definitions",
    "dependentRequired",
    "deprecated",
    "description",
    "discriminator",
    "enum",
    "example",
    "examples",
    "exclusiveMaximum",
    "exclusiveMinimum",
    "externalDocs",
    "format",
    "items",
    "maxContains",
    "maxItems",
    "maxLength",
    "maxProperties",
    "maximum",
    "minContains",
    "minItems",
    "minLength",
    "minProperties",
    "minimum",
    "multipleOf",
    "not",
    "nullable",
    "oneOf",
    "pattern",
    "patternProperties",
    "prefixItems",
    "properties",
    "propertyNames",
    "readOnly",
    "required",
    "title",
    "type",
    "unevaluatedProperties",
    "uniqueItems",
    "writeOnly",
    "xml",
};

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static const sdkc_node *unknown_key(const sdkc_node *n)
{
    for (size_t i = 0; i < n->npairs; i++) {
        const char *k = n->pairs[i].key->str;
        if (strncmp(k, "x-", 2) == 0)
            continue;
        if (!bsearch(&k, known_keys, sizeof known_keys / sizeof known_keys[0], sizeof known_keys[0],
                     cmp_str))
            return n->pairs[i].key;
    }
    return NULL;
}

/* ---- literals and enums ---- */

static bool literal_of(cctx *c, const sdkc_node *v, sdkc_literal *lit)
{
    if (!v || v->kind != SDKC_NODE_SCALAR)
        return false;
    switch (v->scalar) {
    case SDKC_SCALAR_STRING:
        lit->kind = SDKC_LIT_STRING;
        break;
    case SDKC_SCALAR_INT:
    case SDKC_SCALAR_FLOAT:
        lit->kind = SDKC_LIT_NUMBER;
        break;
    case SDKC_SCALAR_BOOL:
        lit->kind = SDKC_LIT_BOOL;
        break;
    case SDKC_SCALAR_NULL:
        lit->kind = SDKC_LIT_NULL;
        break;
    }
    if (lit->kind == SDKC_LIT_BOOL) {
        bool b = false;
        sdkc_node_bool(v, &b);
        lit->text = b ? "true" : "false";
    } else if (lit->kind == SDKC_LIT_NULL) {
        lit->text = "null";
    } else {
        lit->text = sdkc_cc_strdup(c, v->str);
    }
    return true;
}

static sdkc_type *const_type(cctx *c, const sdkc_node *n, const sdkc_node *v, const char *origin,
                             sdkc_type *dest)
{
    sdkc_literal lit;
    if (!literal_of(c, v, &lit))
        return sdkc_sch_any_into(c, n, origin, "'const' with a structured value is not supported",
                                 dest);
    if (lit.kind == SDKC_LIT_NULL)
        return sdkc_sch_new_type(c, SDKC_TYPE_NULL, n, origin, &dest);
    sdkc_type *t = sdkc_sch_new_type(c, SDKC_TYPE_LITERAL, n, origin, &dest);
    if (t)
        t->u.literal = lit;
    return t;
}

static sdkc_type *enum_type(cctx *c, const sdkc_node *n, const sdkc_node *e, const char *ctxname,
                            const char *origin, sdkc_type *dest)
{
    if (e->kind != SDKC_NODE_SEQ || e->nitems == 0)
        return sdkc_sch_any_into(c, e, origin, "'enum' must be a non-empty list", dest);
    bool has_null = false, all_strings = true;
    size_t nvals = 0;
    for (size_t i = 0; i < e->nitems; i++) {
        const sdkc_node *v = e->items[i];
        if (v->kind != SDKC_NODE_SCALAR)
            return sdkc_sch_any_into(c, v, origin, "'enum' with structured values is not supported",
                                     dest);
        if (v->scalar == SDKC_SCALAR_NULL)
            has_null = true;
        else {
            nvals++;
            if (v->scalar != SDKC_SCALAR_STRING)
                all_strings = false;
        }
    }
    sdkc_type *outer = NULL;
    if (has_null) {
        if (nvals == 0)
            return sdkc_sch_new_type(c, SDKC_TYPE_NULL, n, origin, &dest);
        outer = sdkc_sch_new_type(c, SDKC_TYPE_NULLABLE, n, origin, &dest);
    }
    sdkc_type *t = NULL;
    if (nvals == 1) {
        for (size_t i = 0; i < e->nitems; i++)
            if (e->items[i]->scalar != SDKC_SCALAR_NULL)
                t = const_type(c, n, e->items[i], origin, dest);
    } else if (all_strings) {
        t = sdkc_sch_new_type(c, SDKC_TYPE_ENUM, n, origin, &dest);
        const char **vals = sdkc_cc_alloc(c, nvals * sizeof *vals);
        const char **safe = sdkc_cc_alloc(c, nvals * sizeof *safe);
        if (!t || !vals || !safe)
            return t;
        /* Values and member names are unique each in their own set: "a" and "A" are two
           values (members A and A_2); only a value listed twice is kept once. */
        sdkc_map seen, names;
        sdkc_map_init(&seen, SDKC_MAP_STRINGS);
        sdkc_map_init(&names, SDKC_MAP_STRINGS);
        size_t k = 0;
        for (size_t i = 0; i < e->nitems; i++) {
            const sdkc_node *v = e->items[i];
            if (v->scalar == SDKC_SCALAR_NULL)
                continue;
            if (sdkc_map_get(&seen, v->str)) {
                sdkc_cc_warn(c, v, "'enum' lists the value \"%s\" more than once; it is kept once",
                             v->str);
                continue;
            }
            vals[k] = sdkc_cc_strdup(c, v->str);
            char *s = sdkc_upper_snake(c->a, v->str);
            if (!vals[k] || !s) {
                c->nomem = true;
                break;
            }
            if (strcmp(s, "_") == 0)
                s = sdkc_cc_strdup(c, "EMPTY");
            const char *u = sdkc_cc_unique_in(c, &names, s, "_");
            if (!u)
                break;
            safe[k] = u;
            if (!sdkc_map_put(&seen, vals[k], (void *)1) || !sdkc_map_put(&names, u, (void *)1)) {
                c->nomem = true;
                break;
            }
            k++;
        }
        sdkc_map_cleanup(&seen);
        sdkc_map_cleanup(&names);
        t->u.enumeration.values = vals;
        t->u.enumeration.safe_values = safe;
        t->u.enumeration.nvalues = k;
        if (t != outer)
            sdkc_sch_maybe_name(c, t, ctxname);
    } else {
        t = sdkc_sch_new_type(c, SDKC_TYPE_UNION, n, origin, &dest);
        sdkc_variant *vs = sdkc_cc_alloc(c, nvals * sizeof *vs);
        if (!t || !vs)
            return t;
        size_t k = 0;
        for (size_t i = 0; i < e->nitems; i++) {
            if (e->items[i]->scalar == SDKC_SCALAR_NULL)
                continue;
            vs[k++].type = const_type(c, n, e->items[i], origin, NULL);
        }
        t->u.union_.variants = vs;
        t->u.union_.nvariants = k;
        if (!sdkc_vec_push(&c->schemas->unions, t))
            c->nomem = true;
        sdkc_sch_maybe_name(c, t, ctxname);
    }
    if (outer) {
        outer->u.nullable.inner = t;
        return outer;
    }
    return t;
}

/* ---- unions ---- */

static bool is_null_schema(const sdkc_node *v)
{
    if (!v || v->kind != SDKC_NODE_MAP)
        return false;
    const char *t = sdkc_cc_text(kget(v, "type"));
    if (t && strcmp(t, "null") == 0)
        return true;
    const sdkc_node *e = kget(v, "enum");
    return e && e->kind == SDKC_NODE_SEQ && e->nitems == 1 &&
           e->items[0]->scalar == SDKC_SCALAR_NULL;
}

/* A tag value visible in an inline variant (`type` or `_tag` with one literal), for naming. */
static const char *peek_tag(const sdkc_node *v)
{
    static const char *const keys[] = {"type", "_tag", "kind"};
    const sdkc_node *props = kget(v, "properties");
    for (size_t i = 0; props && i < 3; i++) {
        const sdkc_node *p = kget(props, keys[i]);
        const sdkc_node *cv = kget(p, "const");
        if (sdkc_node_is_string(cv))
            return cv->str;
        const sdkc_node *e = kget(p, "enum");
        if (e && e->kind == SDKC_NODE_SEQ && e->nitems == 1 && sdkc_node_is_string(e->items[0]))
            return e->items[0]->str;
    }
    return NULL;
}

static sdkc_type *union_type(cctx *c, const sdkc_node *n, const sdkc_node *list, const char *kw,
                             const char *ctxname, const char *origin, sdkc_type *dest)
{
    if (list->kind != SDKC_NODE_SEQ || list->nitems == 0)
        return sdkc_sch_any_into(c, list, origin, "'anyOf'/'oneOf' must be a non-empty list", dest);
    const char *lorigin = sdkc_cc_ptr_child(c, origin, kw);
    bool has_null = false;
    sdkc_type **vs = sdkc_cc_alloc(c, list->nitems * sizeof *vs);
    if (!vs)
        return NULL;
    size_t nv = 0;
    for (size_t i = 0; i < list->nitems; i++) {
        const sdkc_node *v = list->items[i];
        if (is_null_schema(v)) {
            has_null = true;
            continue;
        }
        const char *tag = peek_tag(v);
        const char *vctx = tag ? sdkc_sch_ctx_child(c, ctxname, tag)
                               : sdkc_cc_printf(c, "%sVariant%zu", nz(ctxname), i + 1);
        sdkc_type *t = sdkc_sch_type(c, v, vctx, sdkc_cc_ptr_index(c, lorigin, i), NULL);
        if (!t)
            return NULL;
        if (t->kind == SDKC_TYPE_NULLABLE) {
            has_null = true;
            t = (sdkc_type *)t->u.nullable.inner;
        } else if (t->kind == SDKC_TYPE_NULL) {
            has_null = true;
            continue;
        }
        bool dup = false;
        for (size_t j = 0; j < nv && !dup; j++)
            dup = vs[j] == t;
        if (!dup)
            vs[nv++] = t;
    }
    sdkc_type *outer = NULL;
    if (has_null) {
        if (nv == 0)
            return sdkc_sch_new_type(c, SDKC_TYPE_NULL, n, origin, &dest);
        outer = sdkc_sch_new_type(c, SDKC_TYPE_NULLABLE, n, origin, &dest);
    }
    sdkc_type *inner;
    if (nv == 1) {
        inner = dest ? sdkc_sch_copy_into(c, dest, vs[0], n) : vs[0];
    } else {
        inner = sdkc_sch_new_type(c, SDKC_TYPE_UNION, n, origin, &dest);
        sdkc_variant *vv = sdkc_cc_alloc(c, nv * sizeof *vv);
        if (!inner || !vv)
            return inner;
        for (size_t i = 0; i < nv; i++)
            vv[i].type = vs[i];
        inner->u.union_.variants = vv;
        inner->u.union_.nvariants = nv;
        if (!sdkc_vec_push(&c->schemas->unions, inner))
            c->nomem = true;
        const sdkc_node *disc = kget(n, "discriminator");
        if (disc && !sdkc_map_put(&c->schemas->disc_hints, inner, (void *)disc))
            c->nomem = true;
        sdkc_sch_maybe_name(c, inner, ctxname);
    }
    if (outer) {
        outer->u.nullable.inner = inner;
        return outer;
    }
    return inner;
}

/* ---- scalars and arrays ---- */

static bool get_u64(const sdkc_node *n, const char *key, uint64_t *out)
{
    int64_t v;
    if (!sdkc_node_int64(kget(n, key), &v) || v < 0)
        return false;
    *out = (uint64_t)v;
    return true;
}

/* The string values of `example`, `examples` (a list), `default` and `enum`, in that order. */
static bool string_examples(cctx *c, const sdkc_node *n, sdkc_type *t)
{
    const sdkc_node *one[] = {kget(n, "example"), NULL, kget(n, "default"), NULL};
    const sdkc_node *lists[] = {NULL, kget(n, "examples"), NULL, kget(n, "enum")};
    size_t cap = 0;
    for (size_t k = 0; k < 4; k++)
        cap += one[k] ? 1 : lists[k] && lists[k]->kind == SDKC_NODE_SEQ ? lists[k]->nitems : 0;
    if (!cap)
        return true;
    const char **v = sdkc_cc_alloc(c, cap * sizeof *v);
    if (!v)
        return false;
    size_t m = 0;
    for (size_t k = 0; k < 4; k++) {
        size_t cnt = one[k]                                        ? 1
                     : lists[k] && lists[k]->kind == SDKC_NODE_SEQ ? lists[k]->nitems
                                                                   : 0;
        for (size_t i = 0; i < cnt; i++) {
            const sdkc_node *e = one[k] ? one[k] : lists[k]->items[i];
            if (sdkc_node_is_string(e) && strlen(e->str) == e->len &&
                !(v[m] = sdkc_cc_strdup(c, e->str)))
                return false;
            m += sdkc_node_is_string(e) && strlen(e->str) == e->len;
        }
    }
    t->u.str.examples = v;
    t->u.str.nexamples = m;
    return true;
}

static sdkc_type *string_type(cctx *c, const sdkc_node *n, const char *ctxname, const char *origin,
                              sdkc_type *dest)
{
    const sdkc_node *cs = kget(n, "contentSchema");
    const char *cmt = sdkc_cc_text(kget(n, "contentMediaType"));
    if (cs || (cmt && strstr(cmt, "json"))) {
        sdkc_type *t = sdkc_sch_new_type(c, SDKC_TYPE_JSON_STRING, n, origin, &dest);
        if (!t)
            return NULL;
        t->u.json_string.media_type = sdkc_cc_strdup(c, cmt ? cmt : "application/json");
        t->u.json_string.content =
            cs ? sdkc_sch_type(c, cs, sdkc_sch_ctx_child(c, ctxname, "Content"),
                               sdkc_cc_ptr_child(c, origin, "contentSchema"), NULL)
               : sdkc_sch_new_type(c, SDKC_TYPE_ANY, n, origin, NULL);
        return t;
    }
    sdkc_type *t = sdkc_sch_new_type(c, SDKC_TYPE_STRING, n, origin, &dest);
    if (!t)
        return NULL;
    const char *fmt = sdkc_cc_text(kget(n, "format"));
    const char *pat = sdkc_cc_text(kget(n, "pattern"));
    t->u.str.format = fmt ? sdkc_cc_strdup(c, fmt) : NULL;
    t->u.str.pattern = pat ? sdkc_cc_strdup(c, pat) : NULL;
    t->u.str.brand = pat ? sdkc_sch_brand_for(c, pat) : NULL;
    t->u.str.has_min_length = get_u64(n, "minLength", &t->u.str.min_length);
    t->u.str.has_max_length = get_u64(n, "maxLength", &t->u.str.max_length);
    if (pat && !string_examples(c, n, t))
        return NULL;
    return t;
}

static sdkc_type *number_type(cctx *c, const sdkc_node *n, sdkc_type_kind k, const char *origin,
                              sdkc_type *dest)
{
    sdkc_type *t = sdkc_sch_new_type(c, k, n, origin, &dest);
    if (!t)
        return NULL;
    const char *fmt = sdkc_cc_text(kget(n, "format"));
    t->u.num.format = fmt ? sdkc_cc_strdup(c, fmt) : NULL;
    t->u.num.has_minimum = sdkc_node_double(kget(n, "minimum"), &t->u.num.minimum);
    t->u.num.has_maximum = sdkc_node_double(kget(n, "maximum"), &t->u.num.maximum);
    const sdkc_node *emin = kget(n, "exclusiveMinimum");
    const sdkc_node *emax = kget(n, "exclusiveMaximum");
    bool b;
    double d;
    if (sdkc_node_bool(emin, &b))
        t->u.num.exclusive_minimum = b && t->u.num.has_minimum; /* 3.0 */
    else if (sdkc_node_double(emin, &d)) {
        t->u.num.has_minimum = true; /* 3.1: the bound itself */
        t->u.num.minimum = d;
        t->u.num.exclusive_minimum = true;
    }
    if (sdkc_node_bool(emax, &b))
        t->u.num.exclusive_maximum = b && t->u.num.has_maximum;
    else if (sdkc_node_double(emax, &d)) {
        t->u.num.has_maximum = true;
        t->u.num.maximum = d;
        t->u.num.exclusive_maximum = true;
    }
    return t;
}

static sdkc_type *array_type(cctx *c, const sdkc_node *n, const char *ctxname, const char *origin,
                             sdkc_type *dest)
{
    const sdkc_node *items = kget(n, "items");
    const sdkc_node *prefix = kget(n, "prefixItems");
    uint64_t maxi = 0;
    bool has_max = get_u64(n, "maxItems", &maxi);
    if (prefix) {
        if (prefix->kind != SDKC_NODE_SEQ)
            return sdkc_sch_any_into(c, prefix, origin, "'prefixItems' must be a list", dest);
        sdkc_type *t = sdkc_sch_new_type(c, SDKC_TYPE_TUPLE, n, origin, &dest);
        const sdkc_type **its = sdkc_cc_alloc(c, (prefix->nitems + 1) * sizeof *its);
        if (!t || !its)
            return t;
        const char *porigin = sdkc_cc_ptr_child(c, origin, "prefixItems");
        for (size_t i = 0; i < prefix->nitems; i++)
            its[i] = sdkc_sch_type(c, prefix->items[i],
                                   sdkc_cc_printf(c, "%sItem%zu", nz(ctxname), i + 1),
                                   sdkc_cc_ptr_index(c, porigin, i), NULL);
        t->u.tuple.items = its;
        t->u.tuple.nitems = prefix->nitems;
        bool items_false = items && items->kind == SDKC_NODE_SCALAR &&
                           items->scalar == SDKC_SCALAR_BOOL && strcmp(items->str, "false") == 0;
        if (items_false || (has_max && maxi <= prefix->nitems))
            t->u.tuple.rest = NULL;
        else if (items && items->kind == SDKC_NODE_MAP)
            t->u.tuple.rest = sdkc_sch_type(c, items, sdkc_sch_ctx_child(c, ctxname, "Item"),
                                            sdkc_cc_ptr_child(c, origin, "items"), NULL);
        else
            t->u.tuple.rest = sdkc_sch_new_type(c, SDKC_TYPE_ANY, n, origin, NULL);
        return t;
    }
    sdkc_type *t = sdkc_sch_new_type(c, SDKC_TYPE_ARRAY, n, origin, &dest);
    if (!t)
        return NULL;
    if (items && items->kind == SDKC_NODE_MAP)
        t->u.array.items = sdkc_sch_type(c, items, sdkc_sch_ctx_child(c, ctxname, "Item"),
                                         sdkc_cc_ptr_child(c, origin, "items"), NULL);
    else if (items && items->kind == SDKC_NODE_SEQ)
        t->u.array.items = sdkc_schema_any(c, items, origin, "'items' as a list (draft 4 tuple)");
    else
        t->u.array.items = sdkc_sch_new_type(c, SDKC_TYPE_ANY, n, origin, NULL);
    t->u.array.has_min_items = get_u64(n, "minItems", &t->u.array.min_items);
    t->u.array.has_max_items = has_max;
    t->u.array.max_items = maxi;
    bool unique = false;
    t->u.array.unique_items = sdkc_node_bool(kget(n, "uniqueItems"), &unique) && unique;
    return t;
}

/* One `type` name applied to the schema's keywords. */
static sdkc_type *declared_type(cctx *c, const sdkc_node *n, const sdkc_node *tynode,
                                const char *ty, const char *ctxname, const char *origin,
                                sdkc_type *dest)
{
    if (strcmp(ty, "string") == 0)
        return string_type(c, n, ctxname, origin, dest);
    if (strcmp(ty, "integer") == 0)
        return number_type(c, n, SDKC_TYPE_INTEGER, origin, dest);
    if (strcmp(ty, "number") == 0) {
        /* multipleOf a whole number: only integers are valid (JSON Schema 6.2.1) */
        double m = 0;
        bool integral = sdkc_node_double(kget(n, "multipleOf"), &m) && m >= 1 && m < 9e15 &&
                        m == (double)(long long)m;
        return number_type(c, n, integral ? SDKC_TYPE_INTEGER : SDKC_TYPE_NUMBER, origin, dest);
    }
    if (strcmp(ty, "boolean") == 0)
        return sdkc_sch_new_type(c, SDKC_TYPE_BOOLEAN, n, origin, &dest);
    if (strcmp(ty, "null") == 0)
        return sdkc_sch_new_type(c, SDKC_TYPE_NULL, n, origin, &dest);
    if (strcmp(ty, "array") == 0)
        return array_type(c, n, ctxname, origin, dest);
    if (strcmp(ty, "object") == 0)
        return sdkc_sch_object_type(c, &n, &origin, 1, ctxname, dest);
    const char *why = sdkc_cc_printf(c, "unknown schema type '%s'", ty);
    return sdkc_sch_any_into(c, tynode, origin, why, dest);
}

const char *sdkc_sch_infer_type(const sdkc_node *n)
{
    if (kget(n, "properties") || kget(n, "additionalProperties") || kget(n, "patternProperties"))
        return "object";
    if (kget(n, "items") || kget(n, "prefixItems"))
        return "array";
    if (kget(n, "pattern") || kget(n, "contentMediaType") || kget(n, "contentSchema") ||
        kget(n, "minLength") || kget(n, "maxLength"))
        return "string";
    return NULL;
}

sdkc_type *sdkc_sch_keywords_type(cctx *c, const sdkc_node *n, const char *ctxname,
                                  const char *origin, sdkc_type *dest, bool *wrap_null)
{
    const sdkc_node *bad = unknown_key(n);
    if (bad) {
        const char *why = sdkc_cc_printf(c, "unsupported schema keyword '%s'", bad->str);
        return sdkc_sch_any_into(c, bad, origin, why, dest);
    }
    const sdkc_node *x;
    if ((x = kget(n, "not")) != NULL) {
        if (x->kind == SDKC_NODE_MAP && x->npairs == 0)
            return sdkc_sch_new_type(c, SDKC_TYPE_NEVER, n, origin, &dest);
        return sdkc_sch_any_into(c, x, origin, "'not' other than 'not: {}' is not supported", dest);
    }
    if ((x = kget(n, "const")) != NULL)
        return const_type(c, n, x, origin, dest);
    if ((x = kget(n, "enum")) != NULL)
        return enum_type(c, n, x, ctxname, origin, dest);
    const sdkc_node *any_of = kget(n, "anyOf");
    const sdkc_node *one_of = kget(n, "oneOf");
    if ((any_of || one_of) && !(any_of && one_of) && !sdkc_sch_constraint_only(n, false, 0)) {
        /* `properties` plus `anyOf: [{required: [a]}, {required: [b]}]`: the members only
           constrain the schema beside them, which keeps its own type */
        const sdkc_node *list = any_of ? any_of : one_of;
        bool constraints = list->kind == SDKC_NODE_SEQ && list->nitems > 0;
        for (size_t i = 0; constraints && i < list->nitems; i++)
            constraints = sdkc_sch_constraint_only(list->items[i], false, 0);
        if (constraints)
            any_of = one_of = NULL;
    }
    if (any_of && one_of)
        return sdkc_sch_any_into(c, n, origin, "both 'anyOf' and 'oneOf' in one schema", dest);
    if (any_of || one_of)
        return union_type(c, n, any_of ? any_of : one_of, any_of ? "anyOf" : "oneOf", ctxname,
                          origin, dest);
    if ((x = kget(n, "allOf")) != NULL)
        return sdkc_sch_all_of_type(c, n, x, ctxname, origin, dest);
    const sdkc_node *tynode = kget(n, "type");
    if (tynode && tynode->kind == SDKC_NODE_SEQ) {
        const sdkc_node *only = NULL;
        size_t nn = 0;
        for (size_t i = 0; i < tynode->nitems; i++) {
            const char *s = sdkc_cc_text(tynode->items[i]);
            if (!s)
                return sdkc_sch_any_into(c, tynode, origin, "'type' list of non-strings", dest);
            if (strcmp(s, "null") == 0)
                *wrap_null = true;
            else {
                nn++;
                only = tynode->items[i];
            }
        }
        if (nn == 0)
            return sdkc_sch_new_type(c, SDKC_TYPE_NULL, n, origin, &dest);
        if (nn == 1)
            return declared_type(c, n, tynode, only->str, ctxname, origin, dest);
        sdkc_type *t = sdkc_sch_new_type(c, SDKC_TYPE_UNION, n, origin, &dest);
        sdkc_variant *vs = sdkc_cc_alloc(c, nn * sizeof *vs);
        if (!t || !vs)
            return t;
        size_t k = 0;
        for (size_t i = 0; i < tynode->nitems; i++) {
            const char *s = tynode->items[i]->str;
            if (strcmp(s, "null") != 0)
                vs[k++].type =
                    declared_type(c, n, tynode, s, sdkc_sch_ctx_child(c, ctxname, s), origin, NULL);
        }
        t->u.union_.variants = vs;
        t->u.union_.nvariants = k;
        if (!sdkc_vec_push(&c->schemas->unions, t))
            c->nomem = true;
        sdkc_sch_maybe_name(c, t, ctxname);
        return t;
    }
    const char *ty = tynode ? sdkc_cc_text(tynode) : sdkc_sch_infer_type(n);
    if (!ty) {
        if (tynode)
            return sdkc_sch_any_into(c, tynode, origin, "'type' must be a string or a list", dest);
        return sdkc_sch_new_type(c, SDKC_TYPE_ANY, n, origin,
                                 &dest); /* `{}`: any value, as declared */
    }
    sdkc_type *t = declared_type(c, n, tynode, ty, ctxname, origin, dest);
    if (t && !tynode && !kget(n, "anyOf") && !kget(n, "oneOf"))
        t->inferred = true;
    return t;
}
