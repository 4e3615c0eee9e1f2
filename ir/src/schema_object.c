/* schema_object.c - objects and maps: properties (merged over allOf members), required,
 * readOnly/writeOnly, additional and pattern properties, unique field names. */
#include <string.h>

#include "schema_internal.h"

/* ---- objects ---- */

static bool in_required(const sdkc_node *const *reqs, size_t nreqs, const char *name)
{
    for (size_t r = 0; r < nreqs; r++) {
        const sdkc_node *req = reqs[r];
        if (!req || req->kind != SDKC_NODE_SEQ)
            continue;
        for (size_t i = 0; i < req->nitems; i++) {
            const char *s = sdkc_cc_text(req->items[i]);
            if (s && strcmp(s, name) == 0)
                return true;
        }
    }
    return false;
}

/* A schema that never names anything it builds (a reference or a plain scalar), so its context
 * name need not be computed. */
static bool trivial_schema(const sdkc_node *n)
{
    if (!n || n->kind != SDKC_NODE_MAP)
        return true;
    bool scalar = false;
    for (size_t i = 0; i < n->npairs; i++) {
        const char *k = n->pairs[i].key->str;
        const sdkc_node *v = n->pairs[i].value;
        if (strcmp(k, "$ref") == 0)
            return true;
        if (strcmp(k, "type") == 0) {
            const char *t = v->kind == SDKC_NODE_SCALAR ? v->str : "";
            scalar = strcmp(t, "string") == 0 || strcmp(t, "number") == 0 ||
                     strcmp(t, "integer") == 0 || strcmp(t, "boolean") == 0 ||
                     strcmp(t, "null") == 0;
        } else if (strcmp(k, "enum") == 0 || strcmp(k, "anyOf") == 0 || strcmp(k, "oneOf") == 0 ||
                   strcmp(k, "allOf") == 0 || strcmp(k, "contentSchema") == 0 ||
                   strcmp(k, "contentMediaType") == 0) {
            return false;
        }
    }
    return scalar;
}

static long field_index(const sdkc_field *fields, size_t n, const char *name, bool safe)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(safe ? fields[i].safe_name : fields[i].wire_name, name) == 0)
            return (long)i;
    return -1;
}

/* The names of the required lists that no field declares (each once, in list order): the IR
 * keeps them so that a value is still checked for them. */
static void required_only(cctx *c, sdkc_type *t, const sdkc_node *const *reqs, size_t nreqs)
{
    size_t n = 0, k = 0;
    for (size_t i = 0; i < nreqs; i++)
        n += reqs[i] && reqs[i]->kind == SDKC_NODE_SEQ ? reqs[i]->nitems : 0;
    const char **names = n ? sdkc_cc_alloc(c, n * sizeof *names) : NULL;
    for (size_t i = 0; names && i < nreqs; i++)
        for (size_t j = 0; reqs[i] && reqs[i]->kind == SDKC_NODE_SEQ && j < reqs[i]->nitems; j++) {
            const char *name = sdkc_cc_text(reqs[i]->items[j]);
            bool seen =
                !name || field_index(t->u.object.fields, t->u.object.nfields, name, false) >= 0;
            for (size_t m = 0; !seen && m < k; m++)
                seen = strcmp(names[m], name) == 0;
            if (!seen && (names[k] = sdkc_cc_strdup(c, name)) != NULL)
                k++;
        }
    t->u.object.required_only = names;
    t->u.object.nrequired_only = k;
}

/* The fields an object has so far, for a scan of their safe names. */
typedef struct field_scan {
    const sdkc_field *fields;
    size_t n;
} field_scan;

static bool safe_name_taken(const void *arg, const char *name)
{
    const field_scan *s = arg;
    return field_index(s->fields, s->n, name, true) >= 0;
}

/* The schema of property `wire` of an object merged from allOf parts, first seen in parts[i]:
 * that schema, or an allOf over its differing declarations in the later parts. NULL (with a
 * warning at the conflicting declaration) when two of them have different types. */
static const sdkc_node *merged_property(cctx *c, const sdkc_node *const *parts, size_t nparts,
                                        size_t i, const char *wire)
{
    const sdkc_node *pvs[MAX_ALLOF_PARTS], *ds[MAX_ALLOF_PARTS];
    const char *pcs[MAX_ALLOF_PARTS], *scalar = NULL;
    size_t npv = 0;
    for (size_t j = i; j < nparts && npv < MAX_ALLOF_PARTS; j++) {
        const sdkc_node *q = kget(kget(parts[j], "properties"), wire);
        if (!q)
            continue;
        const sdkc_node *d = kget(q, "$ref") ? sdkc_sch_deref_schema(c, q) : q;
        bool dup = false;
        for (size_t k = 0; k < npv && !dup; k++)
            dup = pvs[k] == q || (d && d != q && kget(pvs[k], "$ref") &&
                                  sdkc_sch_annotation_only(q) && ds[k] == d);
        if (dup)
            continue;
        pvs[npv] = q;
        ds[npv] = d;
        pcs[npv] = d ? sdkc_sch_part_class(d) : NULL;
        if (!scalar && sdkc_sch_scalar_class(pcs[npv]))
            scalar = pcs[npv];
        npv++;
    }
    /* a union that admits a scalar declaration beside it only narrows it */
    const char *cls = NULL;
    size_t k = 0;
    for (size_t j = 0; j < npv; j++) {
        const char *pc = pcs[j];
        if (pc && scalar && strcmp(pc, "union") == 0 && sdkc_sch_union_admits(c, ds[j], scalar))
            continue;
        if (pc && cls && !sdkc_sch_same_class(cls, pc)) {
            sdkc_cc_warn(
                c, pvs[j],
                "property '%s' has conflicting types in 'allOf' members (%s and %s); using "
                "raw JSON for it",
                wire, cls, pc);
            return NULL;
        }
        cls = cls ? cls : pc;
        pvs[k++] = pvs[j];
    }
    if (k <= 1)
        return pvs[0];
    return sdkc_sch_all_of_node(c, pvs, k, pvs[k - 1]);
}

/* Build an object (or a map) from one schema, or from the parts of an allOf. */

/* A property's readOnly or writeOnly: on the property, or on the schema its $ref names. */
static bool property_flag(cctx *c, const sdkc_node *pv, const char *key)
{
    bool b = false;
    if (sdkc_node_bool(kget(pv, key), &b))
        return b;
    const sdkc_node *ref = kget(pv, "$ref");
    const sdkc_node *target = ref ? sdkc_cc_resolve_ref(c, ref) : NULL;
    return target && sdkc_node_bool(kget(target, key), &b) && b;
}
sdkc_type *sdkc_sch_object_type(cctx *c, const sdkc_node *const *parts, const char *const *origins,
                                size_t nparts, const char *ctxname, sdkc_type *dest)
{
    const sdkc_node *n = parts[0];
    const char *origin = origins[0];
    const sdkc_node *reqs[64];
    size_t nreqs = 0, nprops = 0;
    const sdkc_node *addl = NULL, *pattern = NULL;
    const char *addl_origin = NULL, *pattern_origin = NULL;
    for (size_t i = 0; i < nparts; i++) {
        const sdkc_node *props = kget(parts[i], "properties");
        if (props && props->kind != SDKC_NODE_MAP)
            return sdkc_sch_any_into(c, props, origin, "'properties' must be a mapping", dest);
        nprops += props ? props->npairs : 0;
        if (nreqs < 64)
            reqs[nreqs++] = kget(parts[i], "required");
        /* unevaluatedProperties says the same of a merged allOf */
        const char *akey = "additionalProperties";
        const sdkc_node *a = kget(parts[i], akey);
        if (!a)
            a = kget(parts[i], akey = "unevaluatedProperties");
        if (a) {
            addl = a;
            addl_origin = sdkc_cc_ptr_child(c, origins[i], akey);
        }
        const sdkc_node *pp = kget(parts[i], "patternProperties");
        if (pp) {
            if (pp->kind != SDKC_NODE_MAP || pp->npairs != 1)
                return sdkc_sch_any_into(
                    c, pp, origin,
                    "'patternProperties' with other than one pattern is not supported", dest);
            pattern = pp;
            pattern_origin = sdkc_cc_ptr_child(c, origins[i], "patternProperties");
        }
    }
    bool addl_false = addl && addl->scalar == SDKC_SCALAR_BOOL && addl->kind == SDKC_NODE_SCALAR &&
                      strcmp(addl->str, "false") == 0;
    if (nprops == 0 && !addl_false) {
        /* no fixed properties: a string-keyed map */
        sdkc_type *t = sdkc_sch_new_type(c, SDKC_TYPE_MAP, n, origin, &dest);
        if (!t)
            return NULL;
        if (pattern) {
            const sdkc_pair *pp = &pattern->pairs[0];
            t->u.map.key_pattern = sdkc_cc_strdup(c, pp->key->str);
            t->u.map.value =
                sdkc_sch_type(c, pp->value, sdkc_sch_ctx_child(c, ctxname, "Value"),
                              sdkc_cc_ptr_child(c, pattern_origin, pp->key->str), NULL);
        } else if (addl && addl->kind == SDKC_NODE_MAP) {
            t->u.map.value =
                sdkc_sch_type(c, addl, sdkc_sch_ctx_child(c, ctxname, "Value"), addl_origin, NULL);
        } else {
            t->u.map.value =
                sdkc_sch_new_type(c, SDKC_TYPE_ANY, addl ? addl : n, addl_origin, NULL);
        }
        return t;
    }
    sdkc_type *t = sdkc_sch_new_type(c, SDKC_TYPE_OBJECT, n, origin, &dest);
    sdkc_field *fields = sdkc_cc_alloc(c, (nprops ? nprops : 1) * sizeof *fields);
    if (!t || !fields)
        return t;
    /* name before the fields so inline children sort after their parent's name is taken */
    sdkc_sch_maybe_name(c, t, ctxname);
    const char *base = t->name ? t->name : ctxname;
    /* uniqueness of wire and safe names: a scan for the usual handful, hash maps past that */
    bool big = nprops > 32;
    sdkc_map seen, safe;
    sdkc_map_init(&seen, SDKC_MAP_STRINGS);
    sdkc_map_init(&safe, SDKC_MAP_STRINGS);
    size_t nf = 0;
    for (size_t i = 0; i < nparts; i++) {
        const sdkc_node *props = kget(parts[i], "properties");
        const char *porigin = props ? sdkc_cc_ptr_child(c, origins[i], "properties") : NULL;
        for (size_t j = 0; props && j < props->npairs; j++) {
            const char *wire = props->pairs[j].key->str;
            const sdkc_node *pv = props->pairs[j].value;
            if (big ? sdkc_map_get(&seen, wire) != NULL : field_index(fields, nf, wire, false) >= 0)
                continue;
            sdkc_field *f = &fields[nf];
            f->wire_name = sdkc_cc_intern(c, wire);
            const char *forigin = sdkc_cc_ptr_child(c, porigin, wire);
            const sdkc_node *use = nparts > 1 ? merged_property(c, parts, nparts, i, wire) : pv;
            if (use) {
                f->type = sdkc_sch_type(
                    c, use, trivial_schema(use) ? NULL : sdkc_sch_ctx_child(c, base, wire), forigin,
                    NULL);
            } else { /* the members disagree on its type (reported) */
                sdkc_type *a = sdkc_sch_new_type(c, SDKC_TYPE_ANY, pv, forigin, NULL);
                if (a)
                    a->u.any.fallback_reason = "conflicting types in 'allOf' members";
                f->type = a;
            }
            f->required = in_required(reqs, nreqs, wire);
            f->read_only = property_flag(c, pv, "readOnly");
            f->write_only = property_flag(c, pv, "writeOnly");
            f->docs = pv->kind == SDKC_NODE_MAP ? sdkc_cc_docs(c, pv) : NULL;
            f->loc = sdkc_cc_loc(c, props->pairs[j].key);
            const char *s = sdkc_cc_c_name(c, wire);
            if (!s || !f->wire_name) {
                c->nomem = true;
                break;
            }
            field_scan done = {fields, nf};
            const char *u = big ? sdkc_cc_unique_in(c, &safe, s, "_")
                                : sdkc_cc_unique(c, s, "_", safe_name_taken, &done);
            if (!u)
                break;
            f->safe_name = u;
            if (big && (!sdkc_map_put(&seen, f->wire_name, f) || !sdkc_map_put(&safe, u, f))) {
                c->nomem = true;
                break;
            }
            nf++;
        }
    }
    sdkc_map_cleanup(&seen);
    sdkc_map_cleanup(&safe);
    t->u.object.fields = fields;
    t->u.object.nfields = nf;
    required_only(c, t, reqs, nreqs);
    field_list *votes = sdkc_cc_alloc(c, sizeof *votes);
    if (votes) {
        votes->fields = fields;
        votes->n = nf;
        if (!sdkc_vec_push(&c->schemas->field_lists, votes) ||
            !sdkc_map_put(&c->schemas->fields_by_array, fields, votes))
            c->nomem = true;
    }
    if (addl_false)
        t->u.object.additional = NULL;
    else if (addl && addl->kind == SDKC_NODE_MAP)
        t->u.object.additional =
            sdkc_sch_type(c, addl, sdkc_sch_ctx_child(c, base, "Extra"), addl_origin, NULL);
    else if (pattern)
        t->u.object.additional = sdkc_sch_type(
            c, pattern->pairs[0].value, sdkc_sch_ctx_child(c, base, "Extra"), pattern_origin, NULL);
    else
        t->u.object.additional =
            sdkc_sch_new_type(c, SDKC_TYPE_ANY, addl ? addl : n, addl_origin, NULL);
    return t;
}
