/* schema.c - the schema stage (schema.h): JSON Schema (OpenAPI 3.0 / 3.1 dialects) to IR types;
 * here the conversion core: type construction, references, the dispatch over a schema, component
 * schemas and the stage's state.
 *
 * Component schemas become named types: each gets a shell up front so that references, recursive
 * ones included, resolve to a stable pointer; a shell is filled in place the first time it is
 * needed. A component that is only a $ref to another (an alias) is resolved to its target at
 * every use and gets a copy of the target under its own name at the end. Inline objects, unions
 * and enums are named from their context. Anything not understood becomes ANY with a warning.
 */
#include <stdlib.h>
#include <string.h>

#include "schema_internal.h"
#include "sdkc/naming.h"

/* ---- type construction ---- */

sdkc_type *sdkc_sch_new_type(cctx *c, sdkc_type_kind k, const sdkc_node *n, const char *origin,
                             sdkc_type **dest)
{
    sdkc_type *t;
    if (dest && *dest) {
        t = *dest;
        *dest = NULL;
    } else {
        t = sdkc_cc_alloc(c, sizeof *t);
        if (!t)
            return NULL;
        t->origin = origin;
        t->loc = sdkc_cc_loc(c, n);
        t->docs = n && n->kind == SDKC_NODE_MAP ? sdkc_cc_docs(c, n) : NULL;
        if (!sdkc_vec_push(&c->schemas->all, t))
            c->nomem = true;
    }
    t->kind = k;
    return t;
}

/* A named kind built inline gets a context name. */
void sdkc_sch_maybe_name(cctx *c, sdkc_type *t, const char *ctxname)
{
    if (t && !t->name &&
        (t->kind == SDKC_TYPE_OBJECT || t->kind == SDKC_TYPE_UNION || t->kind == SDKC_TYPE_ENUM))
        sdkc_sch_name_inline(c, t, ctxname);
}

sdkc_type *sdkc_schema_any(cctx *c, const sdkc_node *n, const char *origin, const char *reason)
{
    sdkc_type *t = sdkc_sch_new_type(c, SDKC_TYPE_ANY, n, origin, NULL);
    if (t && reason) {
        t->u.any.fallback_reason = sdkc_cc_strdup(c, reason);
        sdkc_cc_warn(c, n, "%s; using raw JSON", reason);
    }
    return t;
}

sdkc_type *sdkc_schema_string_literal(cctx *c, const sdkc_node *n, const char *text)
{
    sdkc_type *t = sdkc_sch_new_type(c, SDKC_TYPE_LITERAL, n, NULL, NULL);
    if (t) {
        t->docs = NULL;
        t->u.literal.kind = SDKC_LIT_STRING;
        t->u.literal.text = sdkc_cc_strdup(c, text);
    }
    return t;
}

sdkc_type *sdkc_schema_plain_string(cctx *c, const sdkc_node *n)
{
    sdkc_type *t = sdkc_sch_new_type(c, SDKC_TYPE_STRING, n, NULL, NULL);
    if (t)
        t->docs = NULL;
    return t;
}

sdkc_type *sdkc_sch_any_into(cctx *c, const sdkc_node *n, const char *origin, const char *reason,
                             sdkc_type *dest)
{
    if (!dest)
        return sdkc_schema_any(c, n, origin, reason);
    sdkc_type *t = sdkc_sch_new_type(c, SDKC_TYPE_ANY, n, origin, &dest);
    if (t && reason) {
        t->u.any.fallback_reason = sdkc_cc_strdup(c, reason);
        sdkc_cc_warn(c, n, "%s; using raw JSON", reason);
    }
    return t;
}

sdkc_type *sdkc_schema_nullable(cctx *c, const sdkc_type *inner, const sdkc_node *n)
{
    if (inner && (inner->kind == SDKC_TYPE_NULLABLE || inner->kind == SDKC_TYPE_NULL ||
                  inner->kind == SDKC_TYPE_ANY))
        return (sdkc_type *)inner;
    sdkc_type *t = sdkc_sch_new_type(c, SDKC_TYPE_NULLABLE, n, inner ? inner->origin : NULL, NULL);
    if (t) {
        t->u.nullable.inner = inner;
        t->docs = NULL;
    }
    return t;
}

sdkc_type *sdkc_schema_lenient_nullable(cctx *c, const sdkc_type *inner)
{
    sdkc_type *t = sdkc_schema_nullable(c, inner, NULL);
    if (t && t != inner)
        t->u.nullable.lenient = true;
    return t;
}

/* dest (a named shell) takes the contents of src, which already exists. */
sdkc_type *sdkc_sch_copy_into(cctx *c, sdkc_type *dest, sdkc_type *src, const sdkc_node *n)
{
    if (!dest || !src)
        return src;
    if (sdkc_map_get(&c->schemas->busy, src) == NULL && src != dest) {
        sdkc_type keep = *dest;
        *dest = *src;
        dest->name = keep.name;
        dest->safe_name = keep.safe_name;
        dest->origin = keep.origin;
        dest->loc = keep.loc;
        dest->docs = keep.docs ? keep.docs : src->docs;
        if (dest->kind == SDKC_TYPE_UNION && !sdkc_vec_push(&c->schemas->unions, dest))
            c->nomem = true;
        /* the copy shares the variants: it must reach the same tags */
        const sdkc_node *hint = sdkc_map_get(&c->schemas->disc_hints, src);
        if (hint && !sdkc_map_put(&c->schemas->disc_hints, dest, (void *)hint))
            c->nomem = true;
        return dest;
    }
    /* src is still being built: name it through a one-variant union */
    sdkc_type *t = sdkc_sch_new_type(c, SDKC_TYPE_UNION, n, NULL, &dest);
    sdkc_variant *v = sdkc_cc_alloc(c, sizeof *v);
    if (!t || !v)
        return t;
    v->type = src;
    t->u.union_.variants = v;
    t->u.union_.nvariants = 1;
    if (!sdkc_vec_push(&c->schemas->unions, t))
        c->nomem = true;
    return t;
}

/* ---- references ---- */

static bool is_pure_ref(const sdkc_node *n)
{
    if (!n || n->kind != SDKC_NODE_MAP || !kget(n, "$ref"))
        return false;
    for (size_t i = 0; i < n->npairs; i++) {
        const char *k = n->pairs[i].key->str;
        if (strcmp(k, "$ref") != 0 && strcmp(k, "description") != 0 && strcmp(k, "summary") != 0 &&
            strcmp(k, "title") != 0 && strncmp(k, "x-", 2) != 0)
            return false;
    }
    return true;
}

/* Follow a chain of pure $refs to the schema that has content. NULL on a dangling reference or
 * a cycle (reported). */
const sdkc_node *sdkc_sch_final_target(cctx *c, const sdkc_node *n)
{
    enum { SEEN = 64 };
    const sdkc_node *seen[SEEN];
    size_t steps = 0;
    while (is_pure_ref(n)) {
        if (steps < SEEN)
            seen[steps] = n;
        const sdkc_node *refnode = kget(n, "$ref");
        n = sdkc_cc_resolve_ref(c, refnode);
        if (!n)
            return NULL;
        bool again = false;
        for (size_t i = 0; i <= steps && i < SEEN && !again; i++)
            again = seen[i] == n;
        if (++steps > c->schemas->ncomps + SEEN || again) {
            if (sdkc_map_get(&c->reported, refnode))
                return NULL;
            /* one report per cycle: every reference on it counts as reported */
            for (size_t i = 0; i < steps && i < SEEN; i++)
                if (!sdkc_map_put(&c->reported, kget(seen[i], "$ref"), (void *)1))
                    c->nomem = true;
            sdkc_cc_error(c, refnode,
                          "$ref cycle with no structure: '%s' refers back to itself through "
                          "references only",
                          sdkc_cc_text(refnode));
            return NULL;
        }
    }
    return n;
}

/* What a schema with a $ref stands for: the $ref is followed even when siblings sit beside it
 * (3.0 ignores them; 3.1 keeps only annotations), then any chain of pure references. */
const sdkc_node *sdkc_sch_deref_schema(cctx *c, const sdkc_node *n)
{
    const sdkc_node *refnode = kget(n, "$ref");
    if (!refnode)
        return n;
    if (is_pure_ref(n))
        return sdkc_sch_final_target(c, n);
    const sdkc_node *t = sdkc_cc_resolve_ref(c, refnode);
    return t ? sdkc_sch_final_target(c, t) : NULL;
}

static void fill_component(cctx *c, comp *k);

static sdkc_type *ref_type(cctx *c, const sdkc_node *n, const char *origin)
{
    const sdkc_node *refnode = kget(n, "$ref");
    const sdkc_node *target = sdkc_sch_deref_schema(c, n);
    if (!target)
        return sdkc_schema_any(c, refnode, origin, NULL);
    comp *k = sdkc_map_get(&c->schemas->comp_by_node, target);
    if (k) {
        if (k->state == COMP_TODO && c->schemas->depth < MAX_LAZY_DEPTH)
            fill_component(c, k);
        return k->shell;
    }
    sdkc_type *t = sdkc_map_get(&c->schemas->ref_cache, target);
    if (t)
        return t;
    /* a reference into some other part of the document: convert it once, under a name taken
       from the pointer's last segment */
    const char *ref = sdkc_cc_text(refnode);
    const char *last = strrchr(ref, '/');
    const char *ctxname = sdkc_pascal_case(c->a, last ? last + 1 : ref);
    t = sdkc_sch_new_type(c, SDKC_TYPE_ANY, target, sdkc_cc_strdup(c, ref + 1), NULL);
    if (!t || !ctxname)
        return t;
    if (!sdkc_map_put(&c->schemas->ref_cache, target, t) ||
        !sdkc_map_put(&c->schemas->busy, t, t)) {
        c->nomem = true;
        return t;
    }
    sdkc_sch_type(c, target, ctxname, t->origin, t);
    sdkc_sch_maybe_name(c, t, ctxname); /* a union made by sdkc_sch_copy_into has no name yet */
    sdkc_map_del(&c->schemas->busy, t);
    return t;
}

sdkc_type *sdkc_sch_type(cctx *c, const sdkc_node *n, const char *ctxname, const char *origin,
                         sdkc_type *dest)
{
    if (c->nomem)
        return NULL;
    if (!n)
        return sdkc_sch_any_into(c, NULL, origin, "missing schema", dest);
    if (n->kind == SDKC_NODE_SCALAR && n->scalar == SDKC_SCALAR_BOOL) {
        bool b = false;
        sdkc_node_bool(n, &b);
        return sdkc_sch_new_type(c, b ? SDKC_TYPE_ANY : SDKC_TYPE_NEVER, n, origin, &dest);
    }
    if (n->kind != SDKC_NODE_MAP)
        return sdkc_sch_any_into(c, n, origin, "a schema must be a mapping or a boolean", dest);
    if (c->schemas->depth >= MAX_DEPTH) {
        sdkc_cc_error(c, n, "schemas nest too deeply (over %d levels)", MAX_DEPTH);
        return sdkc_sch_any_into(c, n, origin, NULL, dest);
    }
    /* a schema already converted (reached again through a $ref into it, or a YAML alias) is the
       same type */
    bool had_dest = dest != NULL;
    if (!had_dest) {
        sdkc_type *seen = sdkc_map_get(&c->schemas->ref_cache, n);
        if (seen)
            return seen;
    }
    /* an inline schema with a `title` is named by it; a second schema with that title and the
       same content is the same type, one with other content is named from its context */
    const char *titled = NULL;
    if (!had_dest && !kget(n, "$ref")) {
        const char *tn = sdkc_sch_title_name(c, n);
        const sdkc_node *first = tn ? sdkc_map_get(&c->schemas->titles, tn) : NULL;
        sdkc_type *same = first ? sdkc_map_get(&c->schemas->ref_cache, first) : NULL;
        if (same && sdkc_sch_same_schema(first, n, 0)) {
            if (!sdkc_map_put(&c->schemas->ref_cache, n, same))
                c->nomem = true;
            return same;
        }
        if (tn && !first && sdkc_schema_name_free(c, tn))
            ctxname = titled = tn;
    }
    c->schemas->depth++;
    sdkc_type *t;
    if (kget(n, "$ref")) {
        sdkc_type *r = ref_type(c, n, origin);
        bool b = false;
        /* `$ref` beside `nullable: true` (3.0 ignores siblings of $ref, but this is what
           contracts mean by it) */
        if (r && sdkc_node_bool(kget(n, "nullable"), &b) && b)
            r = sdkc_schema_nullable(c, r, n);
        t = dest ? sdkc_sch_copy_into(c, dest, r, n) : r;
    } else {
        bool wrap_null = false, b = false;
        if (sdkc_node_bool(kget(n, "nullable"), &b) && b)
            wrap_null = true; /* OpenAPI 3.0 */
        /* a named schema known to be nullable: the shell is the nullable, the inner type is
           built apart (and named from the context) */
        sdkc_type *shell = dest, *outer = NULL;
        if (dest && wrap_null) {
            outer = dest;
            dest = NULL;
        }
        sdkc_type *made = sdkc_sch_keywords_type(c, n, ctxname, origin, dest, &wrap_null);
        t = made;
        bool nullish = made && (made->kind == SDKC_TYPE_NULLABLE || made->kind == SDKC_TYPE_NULL ||
                                made->kind == SDKC_TYPE_ANY);
        if (outer) {
            if (made && !nullish) {
                outer->kind = SDKC_TYPE_NULLABLE;
                outer->u.nullable.inner = made;
                t = outer;
            } else if (made) {
                t = sdkc_sch_copy_into(c, outer, made, n);
            }
        } else if (made && wrap_null && !nullish) {
            if (shell && made == shell) {
                /* `type: [X, "null"]` on a named schema: move X out of the shell */
                sdkc_type *inner = sdkc_sch_new_type(c, made->kind, n, origin, NULL);
                if (inner) {
                    sdkc_loc loc = inner->loc;
                    *inner = *made;
                    inner->name = NULL;
                    inner->safe_name = NULL;
                    inner->recursive = false;
                    inner->loc = loc;
                    if (inner->kind == SDKC_TYPE_UNION &&
                        !sdkc_vec_push(&c->schemas->unions, inner))
                        c->nomem = true;
                    const sdkc_node *hint = sdkc_map_get(&c->schemas->disc_hints, made);
                    if (hint && !sdkc_map_put(&c->schemas->disc_hints, inner, (void *)hint))
                        c->nomem = true;
                    sdkc_sch_maybe_name(c, inner, ctxname);
                    made->kind = SDKC_TYPE_NULLABLE;
                    memset(&made->u, 0, sizeof made->u);
                    made->u.nullable.inner = inner;
                }
            } else {
                t = sdkc_schema_nullable(c, made, n);
            }
        }
    }
    c->schemas->depth--;
    if (t && t->name && !had_dest && !kget(n, "$ref") && !sdkc_map_get(&c->schemas->ref_cache, n) &&
        !sdkc_map_put(&c->schemas->ref_cache, n, t))
        c->nomem = true;
    if (titled && t && t->name && strcmp(t->name, titled) == 0 &&
        !sdkc_map_put(&c->schemas->titles, titled, (void *)n))
        c->nomem = true;
    return t;
}

sdkc_type *sdkc_schema_type(cctx *c, const sdkc_node *n, const char *ctxname, const char *origin)
{
    return sdkc_sch_type(c, n, ctxname, origin, NULL);
}

/* ---- components ---- */

static bool new_state(cctx *c)
{
    struct sdkc_schemas *s = calloc(1, sizeof *s);
    if (!s)
        return false;
    sdkc_map_init(&s->comp_by_node, SDKC_MAP_POINTERS);
    sdkc_map_init(&s->ref_cache, SDKC_MAP_POINTERS);
    sdkc_map_init(&s->busy, SDKC_MAP_POINTERS);
    sdkc_map_init(&s->disc_hints, SDKC_MAP_POINTERS);
    sdkc_map_init(&s->fields_by_array, SDKC_MAP_POINTERS);
    sdkc_map_init(&s->names, SDKC_MAP_STRINGS);
    sdkc_map_init(&s->snakes, SDKC_MAP_STRINGS);
    sdkc_map_init(&s->titles, SDKC_MAP_STRINGS);
    sdkc_map_init(&s->brands, SDKC_MAP_STRINGS);
    c->schemas = s;
    return true;
}

void sdkc_schema_cleanup(cctx *c)
{
    struct sdkc_schemas *s = c->schemas;
    if (!s)
        return;
    sdkc_map_cleanup(&s->comp_by_node);
    sdkc_map_cleanup(&s->ref_cache);
    sdkc_map_cleanup(&s->busy);
    sdkc_map_cleanup(&s->disc_hints);
    sdkc_map_cleanup(&s->fields_by_array);
    sdkc_map_cleanup(&s->names);
    sdkc_map_cleanup(&s->snakes);
    sdkc_map_cleanup(&s->titles);
    sdkc_map_cleanup(&s->brands);
    sdkc_vec_cleanup(&s->named);
    sdkc_vec_cleanup(&s->all);
    sdkc_vec_cleanup(&s->unions);
    sdkc_vec_cleanup(&s->field_lists);
    for (size_t i = 0; i < s->brand_list.len; i++) {
        brand_acc *b = s->brand_list.items[i];
        free(b->names);
        free(b->counts);
        free(b);
    }
    sdkc_vec_cleanup(&s->brand_list);
    free(s);
    c->schemas = NULL;
}

bool sdkc_schema_declare_components(cctx *c, sdkc_ir *ir)
{
    (void)ir;
    if (!new_state(c)) {
        c->nomem = true;
        return false;
    }
    const sdkc_node *comps = kget(kget(c->root, "components"), "schemas");
    if (!comps)
        return true;
    if (comps->kind != SDKC_NODE_MAP) {
        sdkc_cc_error(c, comps, "components.schemas must be a mapping");
        return true;
    }
    c->schemas->ncomps = comps->npairs;
    c->schemas->comps =
        sdkc_cc_alloc(c, (c->schemas->ncomps ? c->schemas->ncomps : 1) * sizeof *c->schemas->comps);
    if (!c->schemas->comps)
        goto nomem;
    for (size_t i = 0; i < c->schemas->ncomps; i++) {
        comp *k = &c->schemas->comps[i];
        k->name = sdkc_cc_strdup(c, comps->pairs[i].key->str);
        k->node = comps->pairs[i].value;
        k->shell = sdkc_cc_alloc(c, sizeof *k->shell);
        if (!k->name || !k->shell)
            goto nomem;
        k->shell->name = k->name;
        k->shell->kind = SDKC_TYPE_ANY;
        k->shell->origin = sdkc_cc_ptr_child(c, "/components/schemas", k->name);
        k->shell->loc = sdkc_cc_loc(c, comps->pairs[i].key);
        /* busy until filled: sdkc_sch_copy_into must not copy an empty shell */
        if (!sdkc_vec_push(&c->schemas->all, k->shell) || !sdkc_sch_register_name(c, k->shell) ||
            !sdkc_map_put(&c->schemas->comp_by_node, k->node, k) ||
            !sdkc_map_put(&c->schemas->busy, k->shell, k->shell))
            goto nomem;
    }
    return !c->nomem;
nomem:
    c->nomem = true;
    return false;
}

static void fill_component(cctx *c, comp *k)
{
    if (k->state != COMP_TODO)
        return;
    if (is_pure_ref(k->node)) {
        k->state = COMP_ALIAS;
        k->shell->docs = sdkc_cc_docs(c, k->node);
        k->target = sdkc_sch_final_target(c, k->node);
        if (!k->target) {
            k->shell->kind = SDKC_TYPE_ANY;
            return;
        }
        comp *t = sdkc_map_get(&c->schemas->comp_by_node, k->target);
        if (t)
            fill_component(c, t);
        else {
            /* alias of a non-component schema: convert that into this shell */
            k->state = COMP_BUSY;
            sdkc_map_put(&c->schemas->busy, k->shell, k->shell);
            sdkc_sch_type(c, k->target, k->name, k->shell->origin, k->shell);
            sdkc_map_del(&c->schemas->busy, k->shell);
            k->state = COMP_DONE;
            k->target = NULL;
        }
        return;
    }
    k->state = COMP_BUSY;
    if (!sdkc_map_put(&c->schemas->busy, k->shell, k->shell)) {
        c->nomem = true;
        return;
    }
    const char *docs = k->node->kind == SDKC_NODE_MAP ? sdkc_cc_docs(c, k->node) : NULL;
    sdkc_sch_type(c, k->node, k->name, k->shell->origin, k->shell);
    if (docs)
        k->shell->docs = docs;
    sdkc_map_del(&c->schemas->busy, k->shell);
    k->state = COMP_DONE;
}

bool sdkc_schema_fill_components(cctx *c, sdkc_ir *ir)
{
    (void)ir;
    for (size_t i = 0; i < c->schemas->ncomps && !c->nomem; i++)
        fill_component(c, &c->schemas->comps[i]);
    return !c->nomem;
}

/* ---- amendments by later stages ---- */

bool sdkc_schema_retype_field(cctx *c, const sdkc_type *object, const char *wire,
                              const sdkc_type *type)
{
    object = sdkc_type_strip_nullable(object);
    if (!object || object->kind != SDKC_TYPE_OBJECT)
        return false;
    field_list *l = sdkc_map_get(&c->schemas->fields_by_array, object->u.object.fields);
    for (size_t i = 0; l && i < l->n; i++) {
        if (strcmp(l->fields[i].wire_name, wire) == 0) {
            l->fields[i].type = type; /* copies of the object share the array */
            return true;
        }
    }
    return false;
}
