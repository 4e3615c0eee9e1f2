/* schema.c - JSON Schema (OpenAPI 3.0 / 3.1 dialects) to IR types.
 *
 * Component schemas become named types: each gets a shell up front so that references, recursive
 * ones included, resolve to a stable pointer; a shell is filled in place the first time it is
 * needed. A component that is only a $ref to another (an alias) is resolved to its target at
 * every use and gets a copy of the target under its own name at the end. Inline objects, unions
 * and enums are named from their context. Anything not understood becomes ANY with a warning.
 */
#include <string.h>

#include "compile_internal.h"

#define MAX_DEPTH      512 /* nested schema conversion frames */
#define MAX_LAZY_DEPTH 128 /* past this, a component reference is filled later, not now */

static sdkc_type *conv(cctx *c, const sdkc_node *n, const char *ctxname, const char *origin,
                       sdkc_type *dest);
static const char *infer_type(const sdkc_node *n);
#define MAX_ALLOF_PARTS 64
static bool annotation_only(const sdkc_node *n);
static const char *part_class(const sdkc_node *p);
static bool same_class(const char *a, const char *b);
static bool scalar_class(const char *k);
static bool union_admits(cctx *c, const sdkc_node *u, const char *cls);
static const sdkc_node *all_of_node(cctx *c, const sdkc_node *const *items, size_t n,
                                    const sdkc_node *at);

/* sdkc_node_get for the small maps schemas are: a scan that mostly stops at the first byte. */
static const sdkc_node *kget(const sdkc_node *n, const char *key)
{
    if (!n || n->kind != SDKC_NODE_MAP)
        return NULL;
    if (n->npairs > 16)
        return sdkc_node_get(n, key);
    for (size_t i = 0; i < n->npairs; i++) {
        const char *k = n->pairs[i].key->str;
        if (k[0] == key[0] && strcmp(k, key) == 0)
            return n->pairs[i].value;
    }
    return NULL;
}

/* ---- names ---- */

static bool register_name(cctx *c, sdkc_type *t)
{
    char *snake = sdkc_snake_case(c->a, t->name);
    if (!snake || !sdkc_map_put(&c->names, t->name, t) || !sdkc_vec_push(&c->named, t) ||
        (!sdkc_map_get(&c->snakes, snake) && !sdkc_map_put(&c->snakes, snake, t))) {
        c->nomem = true;
        return false;
    }
    return true;
}

bool cc_name_free(cctx *c, const char *name)
{
    char *snake = sdkc_snake_case(c->a, name);
    if (!snake) {
        c->nomem = true;
        return false;
    }
    return !sdkc_map_get(&c->names, name) && !sdkc_map_get(&c->snakes, snake);
}

/* Do two schemas say the same thing? Mappings compare key by key in any order, lists in order. */
static bool same_schema(const sdkc_node *a, const sdkc_node *b, int depth)
{
    if (a == b)
        return true;
    if (!a || !b || a->kind != b->kind || depth > 64)
        return false;
    switch (a->kind) {
    case SDKC_NODE_SCALAR:
        return a->scalar == b->scalar && strcmp(a->str, b->str) == 0;
    case SDKC_NODE_SEQ:
        if (a->nitems != b->nitems)
            return false;
        for (size_t i = 0; i < a->nitems; i++)
            if (!same_schema(a->items[i], b->items[i], depth + 1))
                return false;
        return true;
    case SDKC_NODE_MAP:
        if (a->npairs != b->npairs)
            return false;
        for (size_t i = 0; i < a->npairs; i++) {
            const sdkc_node *bv = kget(b, a->pairs[i].key->str);
            if (!same_schema(a->pairs[i].value, bv, depth + 1))
                return false;
        }
        return true;
    }
    return false;
}

/* The name an inline schema's `title` gives, in Pascal case; NULL without a usable title. */
static const char *title_name(cctx *c, const sdkc_node *n)
{
    const sdkc_node *title = kget(n, "title");
    if (!sdkc_node_is_string(title))
        return NULL;
    char *p = sdkc_pascal_case(c->a, title->str);
    if (!p)
        c->nomem = true;
    /* "CreateAccountRequest" under CreateAccount: the operation's context names it already, and
       emitters derive names of their own from the operation's */
    if (p && c->op_context && strncmp(p, c->op_context, strlen(c->op_context)) == 0)
        return NULL;
    return p && strcmp(p, "X") != 0 ? p : NULL;
}

/* Give an inline type a unique name: ctxname, else ctxname2, ctxname3, ... */
static void name_inline(cctx *c, sdkc_type *t, const char *ctxname)
{
    if (!ctxname)
        return;
    const char *name = ctxname;
    for (unsigned i = 2; sdkc_map_get(&c->names, name) != NULL; i++) {
        name = cc_printf(c, "%s%u", ctxname, i);
        if (!name)
            return;
    }
    t->name = name == ctxname ? cc_strdup(c, ctxname) : name;
    if (t->name)
        register_name(c, t);
}

static const char *ctx_child(cctx *c, const char *ctxname, const char *suffix)
{
    char *p = sdkc_pascal_case(c->a, suffix);
    if (!p) {
        c->nomem = true;
        return NULL;
    }
    return cc_concat(c, ctxname, p);
}

/* ---- type construction ---- */

static sdkc_type *new_type(cctx *c, sdkc_type_kind k, const sdkc_node *n, const char *origin,
                           sdkc_type **dest)
{
    sdkc_type *t;
    if (dest && *dest) {
        t = *dest;
        *dest = NULL;
    } else {
        t = cc_alloc(c, sizeof *t);
        if (!t)
            return NULL;
        t->origin = origin;
        t->loc = cc_loc(c, n);
        t->docs = n && n->kind == SDKC_NODE_MAP ? cc_docs(c, n) : NULL;
        if (!sdkc_vec_push(&c->all, t))
            c->nomem = true;
    }
    t->kind = k;
    return t;
}

/* A named kind built inline gets a context name. */
static void maybe_name(cctx *c, sdkc_type *t, const char *ctxname)
{
    if (t && !t->name &&
        (t->kind == SDKC_TYPE_OBJECT || t->kind == SDKC_TYPE_UNION || t->kind == SDKC_TYPE_ENUM))
        name_inline(c, t, ctxname);
}

sdkc_type *cc_any(cctx *c, const sdkc_node *n, const char *origin, const char *reason)
{
    sdkc_type *t = new_type(c, SDKC_TYPE_ANY, n, origin, NULL);
    if (t && reason) {
        t->u.any.fallback_reason = cc_strdup(c, reason);
        cc_warn(c, n, "%s; using raw JSON", reason);
    }
    return t;
}

sdkc_type *cc_string_literal(cctx *c, const sdkc_node *n, const char *text)
{
    sdkc_type *t = new_type(c, SDKC_TYPE_LITERAL, n, NULL, NULL);
    if (t) {
        t->docs = NULL;
        t->u.literal.kind = SDKC_LIT_STRING;
        t->u.literal.text = cc_strdup(c, text);
    }
    return t;
}

sdkc_type *cc_plain_string(cctx *c, const sdkc_node *n)
{
    sdkc_type *t = new_type(c, SDKC_TYPE_STRING, n, NULL, NULL);
    if (t)
        t->docs = NULL;
    return t;
}

static sdkc_type *any_into(cctx *c, const sdkc_node *n, const char *origin, const char *reason,
                           sdkc_type *dest)
{
    if (!dest)
        return cc_any(c, n, origin, reason);
    sdkc_type *t = new_type(c, SDKC_TYPE_ANY, n, origin, &dest);
    if (t && reason) {
        t->u.any.fallback_reason = cc_strdup(c, reason);
        cc_warn(c, n, "%s; using raw JSON", reason);
    }
    return t;
}

sdkc_type *cc_nullable(cctx *c, const sdkc_type *inner, const sdkc_node *n)
{
    if (inner && (inner->kind == SDKC_TYPE_NULLABLE || inner->kind == SDKC_TYPE_NULL ||
                  inner->kind == SDKC_TYPE_ANY))
        return (sdkc_type *)inner;
    sdkc_type *t = new_type(c, SDKC_TYPE_NULLABLE, n, inner ? inner->origin : NULL, NULL);
    if (t) {
        t->u.nullable.inner = inner;
        t->docs = NULL;
    }
    return t;
}

const sdkc_type *cc_strip_nullable(const sdkc_type *t)
{
    /* bounded: `A: anyOf [$ref A, null]` makes a nullable of itself */
    for (int i = 0; i < 64 && t && t->kind == SDKC_TYPE_NULLABLE; i++)
        t = t->u.nullable.inner;
    return t && t->kind == SDKC_TYPE_NULLABLE ? NULL : t;
}

/* dest (a named shell) takes the contents of src, which already exists. */
static sdkc_type *copy_into(cctx *c, sdkc_type *dest, sdkc_type *src, const sdkc_node *n)
{
    if (!dest || !src)
        return src;
    if (sdkc_map_get(&c->busy, src) == NULL && src != dest) {
        sdkc_type keep = *dest;
        *dest = *src;
        dest->name = keep.name;
        dest->safe_name = keep.safe_name;
        dest->origin = keep.origin;
        dest->loc = keep.loc;
        dest->docs = keep.docs ? keep.docs : src->docs;
        if (dest->kind == SDKC_TYPE_UNION && !sdkc_vec_push(&c->unions, dest))
            c->nomem = true;
        /* the copy shares the variants: it must reach the same tags */
        const sdkc_node *hint = sdkc_map_get(&c->disc_hints, src);
        if (hint && !sdkc_map_put(&c->disc_hints, dest, (void *)hint))
            c->nomem = true;
        return dest;
    }
    /* src is still being built: name it through a one-variant union */
    sdkc_type *t = new_type(c, SDKC_TYPE_UNION, n, NULL, &dest);
    sdkc_variant *v = cc_alloc(c, sizeof *v);
    if (!t || !v)
        return t;
    v->type = src;
    t->u.union_.variants = v;
    t->u.union_.nvariants = 1;
    if (!sdkc_vec_push(&c->unions, t))
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

const sdkc_node *cc_resolve_ref(cctx *c, const sdkc_node *refnode)
{
    const char *ref = cc_text(refnode);
    const sdkc_node *t = NULL;
    if (ref && sdkc_node_is_string(refnode) && ref[0] == '#')
        t = ref[1] == '\0' ? c->root : sdkc_doc_pointer(c->doc, ref + 1);
    if (t)
        return t;
    /* one report per broken reference, however often it is followed */
    if (sdkc_map_get(&c->reported, refnode))
        return NULL;
    if (!sdkc_map_put(&c->reported, refnode, (void *)1))
        c->nomem = true;
    if (!ref || !sdkc_node_is_string(refnode))
        cc_error(c, refnode, "$ref must be a string");
    else if (ref[0] != '#')
        cc_error(c, refnode, "external $ref '%s' is not supported (only local '#/...' references)",
                 ref);
    else
        cc_error(c, refnode, "dangling $ref '%s': no such location in the document", ref);
    return NULL;
}

/* Follow a chain of pure $refs to the schema that has content. NULL on a dangling reference or
 * a cycle (reported). */
static const sdkc_node *final_target(cctx *c, const sdkc_node *n)
{
    enum { SEEN = 64 };
    const sdkc_node *seen[SEEN];
    size_t steps = 0;
    while (is_pure_ref(n)) {
        if (steps < SEEN)
            seen[steps] = n;
        const sdkc_node *refnode = kget(n, "$ref");
        n = cc_resolve_ref(c, refnode);
        if (!n)
            return NULL;
        bool again = false;
        for (size_t i = 0; i <= steps && i < SEEN && !again; i++)
            again = seen[i] == n;
        if (++steps > c->ncomps + SEEN || again) {
            if (sdkc_map_get(&c->reported, refnode))
                return NULL;
            /* one report per cycle: every reference on it counts as reported */
            for (size_t i = 0; i < steps && i < SEEN; i++)
                if (!sdkc_map_put(&c->reported, kget(seen[i], "$ref"), (void *)1))
                    c->nomem = true;
            cc_error(c, refnode,
                     "$ref cycle with no structure: '%s' refers back to itself through "
                     "references only",
                     cc_text(refnode));
            return NULL;
        }
    }
    return n;
}

/* What a schema with a $ref stands for: the $ref is followed even when siblings sit beside it
 * (3.0 ignores them; 3.1 keeps only annotations), then any chain of pure references. */
static const sdkc_node *deref_schema(cctx *c, const sdkc_node *n)
{
    const sdkc_node *refnode = kget(n, "$ref");
    if (!refnode)
        return n;
    if (is_pure_ref(n))
        return final_target(c, n);
    const sdkc_node *t = cc_resolve_ref(c, refnode);
    return t ? final_target(c, t) : NULL;
}

static void fill_component(cctx *c, comp *k);

static sdkc_type *conv_ref(cctx *c, const sdkc_node *n, const char *origin)
{
    const sdkc_node *refnode = kget(n, "$ref");
    const sdkc_node *target = deref_schema(c, n);
    if (!target)
        return cc_any(c, refnode, origin, NULL);
    comp *k = sdkc_map_get(&c->comp_by_node, target);
    if (k) {
        if (k->state == COMP_TODO && c->depth < MAX_LAZY_DEPTH)
            fill_component(c, k);
        return k->shell;
    }
    sdkc_type *t = sdkc_map_get(&c->ref_cache, target);
    if (t)
        return t;
    /* a reference into some other part of the document: convert it once, under a name taken
       from the pointer's last segment */
    const char *ref = cc_text(refnode);
    const char *last = strrchr(ref, '/');
    const char *ctxname = sdkc_pascal_case(c->a, last ? last + 1 : ref);
    t = new_type(c, SDKC_TYPE_ANY, target, cc_strdup(c, ref + 1), NULL);
    if (!t || !ctxname)
        return t;
    if (!sdkc_map_put(&c->ref_cache, target, t) || !sdkc_map_put(&c->busy, t, t)) {
        c->nomem = true;
        return t;
    }
    conv(c, target, ctxname, t->origin, t);
    maybe_name(c, t, ctxname); /* a union made by copy_into has no name yet */
    sdkc_map_del(&c->busy, t);
    return t;
}

/* ---- brands ---- */

static bool brand_prefix(const char *pattern, size_t *len)
{
    if (!pattern || pattern[0] != '^' || pattern[1] == '\0')
        return false;
    size_t i = 1;
    for (; pattern[i]; i++) {
        char ch = pattern[i];
        bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                  (ch >= '0' && ch <= '9') || ch == '_' || ch == '-';
        if (!ok)
            return false;
    }
    *len = i - 1;
    return true;
}

static const sdkc_brand *brand_for(cctx *c, const char *pattern)
{
    size_t len;
    if (!brand_prefix(pattern, &len))
        return NULL;
    const char *prefix = pattern + 1;
    brand_acc *b = sdkc_map_get(&c->brands, prefix);
    if (!b) {
        b = calloc(1, sizeof *b);
        sdkc_brand *br = cc_alloc(c, sizeof *br);
        if (!b || !br || !sdkc_vec_push(&c->brand_list, b)) {
            free(b);
            c->nomem = true;
            return NULL;
        }
        br->prefix = cc_strdup(c, prefix);
        br->pattern = cc_strdup(c, pattern);
        b->brand = br;
        if (!br->prefix || !sdkc_map_put(&c->brands, br->prefix, b)) {
            c->nomem = true;
            return NULL;
        }
    }
    b->brand->uses++;
    return b->brand;
}

void cc_brand_vote(cctx *c, const sdkc_type *t, const char *field)
{
    t = cc_strip_nullable(t);
    if (!t || t->kind != SDKC_TYPE_STRING || !t->u.str.brand || !field)
        return;
    /* "id" says nothing about which kind of id */
    if (strcmp(field, "id") == 0)
        return;
    brand_acc *b = sdkc_map_get(&c->brands, t->u.str.brand->prefix);
    if (!b)
        return;
    for (size_t i = 0; i < b->n; i++) {
        if (strcmp(b->names[i], field) == 0) {
            b->counts[i]++;
            return;
        }
    }
    if (b->n == b->cap) {
        size_t ncap = b->cap ? b->cap * 2 : 8;
        const char **nn = realloc(b->names, ncap * sizeof *nn);
        if (!nn) {
            c->nomem = true;
            return;
        }
        b->names = nn;
        size_t *nc = realloc(b->counts, ncap * sizeof *nc);
        if (!nc) {
            c->nomem = true;
            return;
        }
        b->counts = nc;
        b->cap = ncap;
    }
    b->names[b->n] = cc_strdup(c, field);
    b->counts[b->n] = 1;
    if (b->names[b->n])
        b->n++;
}

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
        lit->text = cc_strdup(c, v->str);
    }
    return true;
}

static sdkc_type *conv_const(cctx *c, const sdkc_node *n, const sdkc_node *v, const char *origin,
                             sdkc_type *dest)
{
    sdkc_literal lit;
    if (!literal_of(c, v, &lit))
        return any_into(c, n, origin, "'const' with a structured value is not supported", dest);
    if (lit.kind == SDKC_LIT_NULL)
        return new_type(c, SDKC_TYPE_NULL, n, origin, &dest);
    sdkc_type *t = new_type(c, SDKC_TYPE_LITERAL, n, origin, &dest);
    if (t)
        t->u.literal = lit;
    return t;
}

static sdkc_type *conv_enum(cctx *c, const sdkc_node *n, const sdkc_node *e, const char *ctxname,
                            const char *origin, sdkc_type *dest)
{
    if (e->kind != SDKC_NODE_SEQ || e->nitems == 0)
        return any_into(c, e, origin, "'enum' must be a non-empty list", dest);
    bool has_null = false, all_strings = true;
    size_t nvals = 0;
    for (size_t i = 0; i < e->nitems; i++) {
        const sdkc_node *v = e->items[i];
        if (v->kind != SDKC_NODE_SCALAR)
            return any_into(c, v, origin, "'enum' with structured values is not supported", dest);
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
            return new_type(c, SDKC_TYPE_NULL, n, origin, &dest);
        outer = new_type(c, SDKC_TYPE_NULLABLE, n, origin, &dest);
    }
    sdkc_type *t = NULL;
    if (nvals == 1) {
        for (size_t i = 0; i < e->nitems; i++)
            if (e->items[i]->scalar != SDKC_SCALAR_NULL)
                t = conv_const(c, n, e->items[i], origin, dest);
    } else if (all_strings) {
        t = new_type(c, SDKC_TYPE_ENUM, n, origin, &dest);
        const char **vals = cc_alloc(c, nvals * sizeof *vals);
        const char **safe = cc_alloc(c, nvals * sizeof *safe);
        if (!t || !vals || !safe)
            return t;
        sdkc_map seen;
        sdkc_map_init(&seen, SDKC_MAP_STRINGS);
        size_t k = 0;
        for (size_t i = 0; i < e->nitems; i++) {
            const sdkc_node *v = e->items[i];
            if (v->scalar == SDKC_SCALAR_NULL || sdkc_map_get(&seen, v->str))
                continue;
            vals[k] = cc_strdup(c, v->str);
            char *s = sdkc_upper_snake(c->a, v->str);
            if (!vals[k] || !s) {
                c->nomem = true;
                break;
            }
            if (strcmp(s, "_") == 0)
                s = cc_strdup(c, "EMPTY");
            const char *u = s;
            for (unsigned j = 2; u && sdkc_map_get(&seen, u); j++)
                u = cc_printf(c, "%s_%u", s, j);
            if (!u)
                break;
            safe[k] = u;
            /* values and member names share one set: both must be unique */
            if (!sdkc_map_put(&seen, vals[k], (void *)1) || !sdkc_map_put(&seen, u, (void *)1)) {
                c->nomem = true;
                break;
            }
            k++;
        }
        sdkc_map_cleanup(&seen);
        t->u.enumeration.values = vals;
        t->u.enumeration.safe_values = safe;
        t->u.enumeration.nvalues = k;
        if (t != outer)
            maybe_name(c, t, ctxname);
    } else {
        t = new_type(c, SDKC_TYPE_UNION, n, origin, &dest);
        sdkc_variant *vs = cc_alloc(c, nvals * sizeof *vs);
        if (!t || !vs)
            return t;
        size_t k = 0;
        for (size_t i = 0; i < e->nitems; i++) {
            if (e->items[i]->scalar == SDKC_SCALAR_NULL)
                continue;
            vs[k++].type = conv_const(c, n, e->items[i], origin, NULL);
        }
        t->u.union_.variants = vs;
        t->u.union_.nvariants = k;
        if (!sdkc_vec_push(&c->unions, t))
            c->nomem = true;
        maybe_name(c, t, ctxname);
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
    const char *t = cc_text(kget(v, "type"));
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

static sdkc_type *conv_union(cctx *c, const sdkc_node *n, const sdkc_node *list, const char *kw,
                             const char *ctxname, const char *origin, sdkc_type *dest)
{
    if (list->kind != SDKC_NODE_SEQ || list->nitems == 0)
        return any_into(c, list, origin, "'anyOf'/'oneOf' must be a non-empty list", dest);
    const char *lorigin = cc_ptr_child(c, origin, kw);
    bool has_null = false;
    sdkc_type **vs = cc_alloc(c, list->nitems * sizeof *vs);
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
        const char *vctx =
            tag ? ctx_child(c, ctxname, tag) : cc_printf(c, "%sVariant%zu", nz(ctxname), i + 1);
        sdkc_type *t = conv(c, v, vctx, cc_ptr_index(c, lorigin, i), NULL);
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
            return new_type(c, SDKC_TYPE_NULL, n, origin, &dest);
        outer = new_type(c, SDKC_TYPE_NULLABLE, n, origin, &dest);
    }
    sdkc_type *inner;
    if (nv == 1) {
        inner = dest ? copy_into(c, dest, vs[0], n) : vs[0];
    } else {
        inner = new_type(c, SDKC_TYPE_UNION, n, origin, &dest);
        sdkc_variant *vv = cc_alloc(c, nv * sizeof *vv);
        if (!inner || !vv)
            return inner;
        for (size_t i = 0; i < nv; i++)
            vv[i].type = vs[i];
        inner->u.union_.variants = vv;
        inner->u.union_.nvariants = nv;
        if (!sdkc_vec_push(&c->unions, inner))
            c->nomem = true;
        const sdkc_node *disc = kget(n, "discriminator");
        if (disc && !sdkc_map_put(&c->disc_hints, inner, (void *)disc))
            c->nomem = true;
        maybe_name(c, inner, ctxname);
    }
    if (outer) {
        outer->u.nullable.inner = inner;
        return outer;
    }
    return inner;
}

/* ---- objects ---- */

static bool in_required(const sdkc_node *const *reqs, size_t nreqs, const char *name)
{
    for (size_t r = 0; r < nreqs; r++) {
        const sdkc_node *req = reqs[r];
        if (!req || req->kind != SDKC_NODE_SEQ)
            continue;
        for (size_t i = 0; i < req->nitems; i++) {
            const char *s = cc_text(req->items[i]);
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
        const sdkc_node *d = kget(q, "$ref") ? deref_schema(c, q) : q;
        bool dup = false;
        for (size_t k = 0; k < npv && !dup; k++)
            dup = pvs[k] == q ||
                  (d && d != q && kget(pvs[k], "$ref") && annotation_only(q) && ds[k] == d);
        if (dup)
            continue;
        pvs[npv] = q;
        ds[npv] = d;
        pcs[npv] = d ? part_class(d) : NULL;
        if (!scalar && scalar_class(pcs[npv]))
            scalar = pcs[npv];
        npv++;
    }
    /* a union that admits a scalar declaration beside it only narrows it */
    const char *cls = NULL;
    size_t k = 0;
    for (size_t j = 0; j < npv; j++) {
        const char *pc = pcs[j];
        if (pc && scalar && strcmp(pc, "union") == 0 && union_admits(c, ds[j], scalar))
            continue;
        if (pc && cls && !same_class(cls, pc)) {
            cc_warn(c, pvs[j],
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
    return all_of_node(c, pvs, k, pvs[k - 1]);
}

/* Build an object (or a map) from one schema, or from the parts of an allOf. */

/* A property's readOnly or writeOnly: on the property, or on the schema its $ref names. */
static bool property_flag(cctx *c, const sdkc_node *pv, const char *key)
{
    bool b = false;
    if (sdkc_node_bool(kget(pv, key), &b))
        return b;
    const sdkc_node *ref = kget(pv, "$ref");
    const sdkc_node *target = ref ? cc_resolve_ref(c, ref) : NULL;
    return target && sdkc_node_bool(kget(target, key), &b) && b;
}

/* The names of the required lists that no field declares (each once, in list order): the IR
 * keeps them so that a value is still checked for them. */
static void required_only(cctx *c, sdkc_type *t, const sdkc_node *const *reqs, size_t nreqs)
{
    size_t n = 0, k = 0;
    for (size_t i = 0; i < nreqs; i++)
        n += reqs[i] && reqs[i]->kind == SDKC_NODE_SEQ ? reqs[i]->nitems : 0;
    const char **names = n ? cc_alloc(c, n * sizeof *names) : NULL;
    for (size_t i = 0; names && i < nreqs; i++)
        for (size_t j = 0; reqs[i] && reqs[i]->kind == SDKC_NODE_SEQ && j < reqs[i]->nitems; j++) {
            const char *name = cc_text(reqs[i]->items[j]);
            bool seen =
                !name || field_index(t->u.object.fields, t->u.object.nfields, name, false) >= 0;
            for (size_t m = 0; !seen && m < k; m++)
                seen = strcmp(names[m], name) == 0;
            if (!seen && (names[k] = cc_strdup(c, name)) != NULL)
                k++;
        }
    t->u.object.required_only = names;
    t->u.object.nrequired_only = k;
}

static sdkc_type *conv_object(cctx *c, const sdkc_node *const *parts, const char *const *origins,
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
            return any_into(c, props, origin, "'properties' must be a mapping", dest);
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
            addl_origin = cc_ptr_child(c, origins[i], akey);
        }
        const sdkc_node *pp = kget(parts[i], "patternProperties");
        if (pp) {
            if (pp->kind != SDKC_NODE_MAP || pp->npairs != 1)
                return any_into(c, pp, origin,
                                "'patternProperties' with other than one pattern is not supported",
                                dest);
            pattern = pp;
            pattern_origin = cc_ptr_child(c, origins[i], "patternProperties");
        }
    }
    bool addl_false = addl && addl->scalar == SDKC_SCALAR_BOOL && addl->kind == SDKC_NODE_SCALAR &&
                      strcmp(addl->str, "false") == 0;
    if (nprops == 0 && !addl_false) {
        /* no fixed properties: a string-keyed map */
        sdkc_type *t = new_type(c, SDKC_TYPE_MAP, n, origin, &dest);
        if (!t)
            return NULL;
        if (pattern) {
            const sdkc_pair *pp = &pattern->pairs[0];
            t->u.map.key_pattern = cc_strdup(c, pp->key->str);
            t->u.map.value = conv(c, pp->value, ctx_child(c, ctxname, "Value"),
                                  cc_ptr_child(c, pattern_origin, pp->key->str), NULL);
        } else if (addl && addl->kind == SDKC_NODE_MAP) {
            t->u.map.value = conv(c, addl, ctx_child(c, ctxname, "Value"), addl_origin, NULL);
        } else {
            t->u.map.value = new_type(c, SDKC_TYPE_ANY, addl ? addl : n, addl_origin, NULL);
        }
        return t;
    }
    sdkc_type *t = new_type(c, SDKC_TYPE_OBJECT, n, origin, &dest);
    sdkc_field *fields = cc_alloc(c, (nprops ? nprops : 1) * sizeof *fields);
    if (!t || !fields)
        return t;
    /* name before the fields so inline children sort after their parent's name is taken */
    maybe_name(c, t, ctxname);
    const char *base = t->name ? t->name : ctxname;
    /* uniqueness of wire and safe names: a scan for the usual handful, hash maps past that */
    bool big = nprops > 32;
    sdkc_map seen, safe;
    sdkc_map_init(&seen, SDKC_MAP_STRINGS);
    sdkc_map_init(&safe, SDKC_MAP_STRINGS);
    size_t nf = 0;
    for (size_t i = 0; i < nparts; i++) {
        const sdkc_node *props = kget(parts[i], "properties");
        const char *porigin = props ? cc_ptr_child(c, origins[i], "properties") : NULL;
        for (size_t j = 0; props && j < props->npairs; j++) {
            const char *wire = props->pairs[j].key->str;
            const sdkc_node *pv = props->pairs[j].value;
            if (big ? sdkc_map_get(&seen, wire) != NULL : field_index(fields, nf, wire, false) >= 0)
                continue;
            sdkc_field *f = &fields[nf];
            f->wire_name = cc_strdup(c, wire);
            const char *forigin = cc_ptr_child(c, porigin, wire);
            const sdkc_node *use = nparts > 1 ? merged_property(c, parts, nparts, i, wire) : pv;
            if (use) {
                f->type = conv(c, use, trivial_schema(use) ? NULL : ctx_child(c, base, wire),
                               forigin, NULL);
            } else { /* the members disagree on its type (reported) */
                sdkc_type *a = new_type(c, SDKC_TYPE_ANY, pv, forigin, NULL);
                if (a)
                    a->u.any.fallback_reason = "conflicting types in 'allOf' members";
                f->type = a;
            }
            f->required = in_required(reqs, nreqs, wire);
            f->read_only = property_flag(c, pv, "readOnly");
            f->write_only = property_flag(c, pv, "writeOnly");
            f->docs = pv->kind == SDKC_NODE_MAP ? cc_docs(c, pv) : NULL;
            f->loc = cc_loc(c, props->pairs[j].key);
            char *s = sdkc_snake_case(c->a, wire);
            if (!s || !f->wire_name) {
                c->nomem = true;
                break;
            }
            if (sdkc_is_c_keyword(s))
                s = cc_printf(c, "%s_", s);
            const char *u = s;
            for (unsigned k = 2; u && (big ? sdkc_map_get(&safe, u) != NULL
                                           : field_index(fields, nf, u, true) >= 0);
                 k++)
                u = cc_printf(c, "%s_%u", s, k);
            if (!u)
                break;
            f->safe_name = u;
            if (big && (!sdkc_map_put(&seen, f->wire_name, f) || !sdkc_map_put(&safe, u, f))) {
                c->nomem = true;
                break;
            }
            cc_brand_vote(c, f->type, wire);
            nf++;
        }
    }
    sdkc_map_cleanup(&seen);
    sdkc_map_cleanup(&safe);
    t->u.object.fields = fields;
    t->u.object.nfields = nf;
    required_only(c, t, reqs, nreqs);
    if (addl_false)
        t->u.object.additional = NULL;
    else if (addl && addl->kind == SDKC_NODE_MAP)
        t->u.object.additional = conv(c, addl, ctx_child(c, base, "Extra"), addl_origin, NULL);
    else if (pattern)
        t->u.object.additional =
            conv(c, pattern->pairs[0].value, ctx_child(c, base, "Extra"), pattern_origin, NULL);
    else
        t->u.object.additional = new_type(c, SDKC_TYPE_ANY, addl ? addl : n, addl_origin, NULL);
    return t;
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

static sdkc_type *conv_string(cctx *c, const sdkc_node *n, const char *ctxname, const char *origin,
                              sdkc_type *dest)
{
    const sdkc_node *cs = kget(n, "contentSchema");
    const char *cmt = cc_text(kget(n, "contentMediaType"));
    if (cs || (cmt && strstr(cmt, "json"))) {
        sdkc_type *t = new_type(c, SDKC_TYPE_JSON_STRING, n, origin, &dest);
        if (!t)
            return NULL;
        t->u.json_string.media_type = cc_strdup(c, cmt ? cmt : "application/json");
        t->u.json_string.content = cs ? conv(c, cs, ctx_child(c, ctxname, "Content"),
                                             cc_ptr_child(c, origin, "contentSchema"), NULL)
                                      : new_type(c, SDKC_TYPE_ANY, n, origin, NULL);
        return t;
    }
    sdkc_type *t = new_type(c, SDKC_TYPE_STRING, n, origin, &dest);
    if (!t)
        return NULL;
    const char *fmt = cc_text(kget(n, "format"));
    const char *pat = cc_text(kget(n, "pattern"));
    t->u.str.format = fmt ? cc_strdup(c, fmt) : NULL;
    t->u.str.pattern = pat ? cc_strdup(c, pat) : NULL;
    t->u.str.brand = pat ? brand_for(c, pat) : NULL;
    t->u.str.has_min_length = get_u64(n, "minLength", &t->u.str.min_length);
    t->u.str.has_max_length = get_u64(n, "maxLength", &t->u.str.max_length);
    return t;
}

static sdkc_type *conv_number(cctx *c, const sdkc_node *n, sdkc_type_kind k, const char *origin,
                              sdkc_type *dest)
{
    sdkc_type *t = new_type(c, k, n, origin, &dest);
    if (!t)
        return NULL;
    const char *fmt = cc_text(kget(n, "format"));
    t->u.num.format = fmt ? cc_strdup(c, fmt) : NULL;
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

static sdkc_type *conv_array(cctx *c, const sdkc_node *n, const char *ctxname, const char *origin,
                             sdkc_type *dest)
{
    const sdkc_node *items = kget(n, "items");
    const sdkc_node *prefix = kget(n, "prefixItems");
    uint64_t maxi = 0;
    bool has_max = get_u64(n, "maxItems", &maxi);
    if (prefix) {
        if (prefix->kind != SDKC_NODE_SEQ)
            return any_into(c, prefix, origin, "'prefixItems' must be a list", dest);
        sdkc_type *t = new_type(c, SDKC_TYPE_TUPLE, n, origin, &dest);
        const sdkc_type **its = cc_alloc(c, (prefix->nitems + 1) * sizeof *its);
        if (!t || !its)
            return t;
        const char *porigin = cc_ptr_child(c, origin, "prefixItems");
        for (size_t i = 0; i < prefix->nitems; i++)
            its[i] = conv(c, prefix->items[i], cc_printf(c, "%sItem%zu", nz(ctxname), i + 1),
                          cc_ptr_index(c, porigin, i), NULL);
        t->u.tuple.items = its;
        t->u.tuple.nitems = prefix->nitems;
        bool items_false = items && items->kind == SDKC_NODE_SCALAR &&
                           items->scalar == SDKC_SCALAR_BOOL && strcmp(items->str, "false") == 0;
        if (items_false || (has_max && maxi <= prefix->nitems))
            t->u.tuple.rest = NULL;
        else if (items && items->kind == SDKC_NODE_MAP)
            t->u.tuple.rest = conv(c, items, ctx_child(c, ctxname, "Item"),
                                   cc_ptr_child(c, origin, "items"), NULL);
        else
            t->u.tuple.rest = new_type(c, SDKC_TYPE_ANY, n, origin, NULL);
        return t;
    }
    sdkc_type *t = new_type(c, SDKC_TYPE_ARRAY, n, origin, &dest);
    if (!t)
        return NULL;
    if (items && items->kind == SDKC_NODE_MAP)
        t->u.array.items =
            conv(c, items, ctx_child(c, ctxname, "Item"), cc_ptr_child(c, origin, "items"), NULL);
    else if (items && items->kind == SDKC_NODE_SEQ)
        t->u.array.items = cc_any(c, items, origin, "'items' as a list (draft 4 tuple)");
    else
        t->u.array.items = new_type(c, SDKC_TYPE_ANY, n, origin, NULL);
    t->u.array.has_min_items = get_u64(n, "minItems", &t->u.array.min_items);
    t->u.array.has_max_items = has_max;
    t->u.array.max_items = maxi;
    return t;
}

/* One `type` name applied to the schema's keywords. */
static sdkc_type *conv_typed(cctx *c, const sdkc_node *n, const sdkc_node *tynode, const char *ty,
                             const char *ctxname, const char *origin, sdkc_type *dest)
{
    if (strcmp(ty, "string") == 0)
        return conv_string(c, n, ctxname, origin, dest);
    if (strcmp(ty, "integer") == 0)
        return conv_number(c, n, SDKC_TYPE_INTEGER, origin, dest);
    if (strcmp(ty, "number") == 0) {
        /* multipleOf a whole number: only integers are valid (JSON Schema 6.2.1) */
        double m = 0;
        bool integral = sdkc_node_double(kget(n, "multipleOf"), &m) && m >= 1 && m < 9e15 &&
                        m == (double)(long long)m;
        return conv_number(c, n, integral ? SDKC_TYPE_INTEGER : SDKC_TYPE_NUMBER, origin, dest);
    }
    if (strcmp(ty, "boolean") == 0)
        return new_type(c, SDKC_TYPE_BOOLEAN, n, origin, &dest);
    if (strcmp(ty, "null") == 0)
        return new_type(c, SDKC_TYPE_NULL, n, origin, &dest);
    if (strcmp(ty, "array") == 0)
        return conv_array(c, n, ctxname, origin, dest);
    if (strcmp(ty, "object") == 0)
        return conv_object(c, &n, &origin, 1, ctxname, dest);
    const char *why = cc_printf(c, "unknown schema type '%s'", ty);
    return any_into(c, tynode, origin, why, dest);
}

static const char *infer_type(const sdkc_node *n)
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
static bool constraint_only(const sdkc_node *n, bool skip_merged, int depth)
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
                !constraint_only(v, false, depth + 1))
                return false;
        } else if (strcmp(k, "anyOf") == 0 || strcmp(k, "oneOf") == 0) {
            if (v->kind != SDKC_NODE_SEQ || v->nitems == 0 || depth > 8)
                return false;
            for (size_t j = 0; j < v->nitems; j++)
                if (!constraint_only(v->items[j], false, depth + 1))
                    return false;
        } else if (shape_key(k)) {
            return false;
        }
    }
    return true;
}

static bool annotation_only(const sdkc_node *n)
{
    if (!n || n->kind != SDKC_NODE_MAP)
        return constraint_only(n, true, 0);
    for (size_t i = 0; i < n->npairs; i++) {
        const char *k = n->pairs[i].key->str;
        if (strcmp(k, "allOf") != 0 && strcmp(k, "$ref") != 0 && !annotation_key(k))
            return false;
    }
    return true;
}

/* The JSON type a part of an allOf stands for ("object", "string", ..., "union", "not"), or NULL
 * when it only constrains. */
static const char *part_class(const sdkc_node *p)
{
    if (constraint_only(p, true, 0))
        return NULL;
    if (p->kind != SDKC_NODE_MAP)
        return "never"; /* `false` */
    const sdkc_node *ty = kget(p, "type");
    if (ty && ty->kind == SDKC_NODE_SEQ) {
        const char *only = NULL;
        for (size_t i = 0; i < ty->nitems; i++) {
            const char *s = cc_text(ty->items[i]);
            if (!s || (strcmp(s, "null") != 0 && only))
                return "union";
            if (strcmp(s, "null") != 0)
                only = s;
        }
        return only ? only : "null";
    }
    if (ty)
        return cc_text(ty) ? cc_text(ty) : "union";
    for (int u = 0; u < 2; u++) {
        const sdkc_node *list = kget(p, u ? "oneOf" : "anyOf");
        if (!list)
            continue;
        if (list->kind != SDKC_NODE_SEQ)
            return "union";
        for (size_t i = 0; i < list->nitems; i++)
            if (!constraint_only(list->items[i], false, 0))
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
    const char *inf = infer_type(p);
    if (!inf && kget(p, "unevaluatedProperties"))
        inf = "object";
    return inf ? inf : "union";
}

/* Do two part classes describe the same JSON type? integer refines number. */
static bool same_class(const char *a, const char *b)
{
    if (strcmp(a, b) == 0)
        return true;
    bool an = strcmp(a, "integer") == 0 || strcmp(a, "number") == 0;
    bool bn = strcmp(b, "integer") == 0 || strcmp(b, "number") == 0;
    return an && bn;
}

static bool scalar_class(const char *k)
{
    return k && (strcmp(k, "string") == 0 || strcmp(k, "integer") == 0 ||
                 strcmp(k, "number") == 0 || strcmp(k, "boolean") == 0);
}

/* Does a union (anyOf/oneOf members, or a list of types) admit values of the scalar class cls?
 * Beside a member of that class it then only narrows it: `oneOf: [integer, string]` and
 * `type: string` together are a string. */
static bool union_admits(cctx *c, const sdkc_node *u, const char *cls)
{
    const sdkc_node *ty = kget(u, "type");
    if (ty && ty->kind == SDKC_NODE_SEQ) {
        for (size_t i = 0; i < ty->nitems; i++) {
            const char *s = cc_text(ty->items[i]);
            if (s && same_class(s, cls))
                return true;
        }
        return false;
    }
    for (int k = 0; k < 2; k++) {
        const sdkc_node *list = kget(u, k ? "oneOf" : "anyOf");
        for (size_t i = 0; list && list->kind == SDKC_NODE_SEQ && i < list->nitems; i++) {
            const sdkc_node *m = list->items[i];
            m = kget(m, "$ref") ? deref_schema(c, m) : m;
            const char *pc = m ? part_class(m) : NULL;
            if (pc && same_class(pc, cls))
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
        if (!constraint_only(n, false, 0)) {
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
    if (!refnode || !annotation_only(n)) {
        ps->node[ps->n] = n;
        ps->via[ps->n] = via;
        ps->origin[ps->n++] = origin;
    }
    if (refnode) {
        const sdkc_node *t = deref_schema(c, n);
        if (!t) {
            ps->trouble = ""; /* dangling: reported already */
            ps->trouble_at = refnode;
            return;
        }
        const char *ref = cc_text(refnode);
        flatten_all_of(c, ps, t, ref && ref[0] == '#' ? cc_strdup(c, ref + 1) : origin, n,
                       depth + 1);
    }
    if (list) {
        if (list->kind != SDKC_NODE_SEQ || list->nitems == 0) {
            ps->trouble = "'allOf' must be a non-empty list";
            ps->trouble_at = list;
            return;
        }
        const char *lorigin = cc_ptr_child(c, origin, "allOf");
        for (size_t i = 0; i < list->nitems; i++)
            flatten_all_of(c, ps, list->items[i], cc_ptr_index(c, lorigin, i), NULL, depth + 1);
    }
}

static sdkc_node *synth_node(cctx *c, sdkc_node_kind kind, const sdkc_node *at)
{
    sdkc_node *s = cc_alloc(c, sizeof *s);
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
    sdkc_pair *pairs = cc_alloc(c, (cap ? cap : 1) * sizeof *pairs);
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
static const sdkc_node *all_of_node(cctx *c, const sdkc_node *const *items, size_t n,
                                    const sdkc_node *at)
{
    sdkc_node *key = synth_node(c, SDKC_NODE_SCALAR, at);
    sdkc_node *seq = synth_node(c, SDKC_NODE_SEQ, at);
    sdkc_node *m = synth_node(c, SDKC_NODE_MAP, at);
    sdkc_pair *pair = cc_alloc(c, sizeof *pair);
    const sdkc_node **its = cc_alloc(c, n * sizeof *its);
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

static sdkc_type *conv_all_of(cctx *c, const sdkc_node *n, const sdkc_node *list,
                              const char *ctxname, const char *origin, sdkc_type *dest)
{
    if (list->kind != SDKC_NODE_SEQ || list->nitems == 0)
        return any_into(c, list, origin, "'allOf' must be a non-empty list", dest);
    sdkc_type *t = NULL;
    allof_parts *ps = calloc(1, sizeof *ps);
    if (!ps) {
        c->nomem = true;
        return NULL;
    }
    flatten_all_of(c, ps, n, origin, NULL, 0);
    if (ps->trouble) {
        t = any_into(c, ps->trouble_at, origin, ps->trouble[0] ? ps->trouble : NULL, dest);
        goto done;
    }
    /* a union beside a scalar member that it admits only narrows that member */
    const char *scalar = NULL;
    for (size_t i = 0; i < ps->n && !scalar; i++)
        scalar = scalar_class(part_class(ps->node[i])) ? part_class(ps->node[i]) : NULL;
    if (scalar) {
        size_t k = 0;
        for (size_t i = 0; i < ps->n; i++) {
            const char *pc = part_class(ps->node[i]);
            if (pc && strcmp(pc, "union") == 0 && union_admits(c, ps->node[i], scalar))
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
        const char *pc = part_class(ps->node[i]);
        if (!pc) {
            refining = refining || !annotation_only(ps->node[i]);
            continue;
        }
        if (cls && !same_class(cls, pc)) {
            const char *why =
                cc_printf(c, "'allOf' members have incompatible types (%s and %s)", cls, pc);
            t = any_into(c, ps->node[i], origin, why, dest);
            goto done;
        }
        if (!cls)
            first = i;
        cls = cls ? cls : pc;
        shaped++;
    }
    if (cls && (strcmp(cls, "union") == 0 || strcmp(cls, "not") == 0) && (shaped > 1 || refining)) {
        t = any_into(c, ps->node[first], origin,
                     "'allOf' over an 'anyOf'/'oneOf' member and other members is not supported",
                     dest);
    } else if (shaped == 1 && !refining && ps->node[first] != n) {
        /* one schema plus annotations: that schema (a reference keeps its named type) */
        const sdkc_node *one = ps->via[first] ? ps->via[first] : ps->node[first];
        t = conv(c, one, ctxname, ps->origin[first], dest);
    } else if (cls && strcmp(cls, "object") == 0) {
        t = conv_object(c, ps->node, ps->origin, ps->n, ctxname, dest);
    } else {
        /* scalars, arrays, constraint-only members: one schema with every member's keywords */
        const sdkc_node *m = merge_parts(c, ps->node, ps->n, n);
        if (m)
            t = conv(c, m, ctxname, origin, dest);
    }
    if (t && ps->nullable && !dest)
        t = cc_nullable(c, t, n);
done:
    free(ps);
    return t;
}

static sdkc_type *conv_body(cctx *c, const sdkc_node *n, const char *ctxname, const char *origin,
                            sdkc_type *dest, bool *wrap_null)
{
    const sdkc_node *bad = unknown_key(n);
    if (bad) {
        const char *why = cc_printf(c, "unsupported schema keyword '%s'", bad->str);
        return any_into(c, bad, origin, why, dest);
    }
    const sdkc_node *x;
    if ((x = kget(n, "not")) != NULL) {
        if (x->kind == SDKC_NODE_MAP && x->npairs == 0)
            return new_type(c, SDKC_TYPE_NEVER, n, origin, &dest);
        return any_into(c, x, origin, "'not' other than 'not: {}' is not supported", dest);
    }
    if ((x = kget(n, "const")) != NULL)
        return conv_const(c, n, x, origin, dest);
    if ((x = kget(n, "enum")) != NULL)
        return conv_enum(c, n, x, ctxname, origin, dest);
    const sdkc_node *any_of = kget(n, "anyOf");
    const sdkc_node *one_of = kget(n, "oneOf");
    if ((any_of || one_of) && !(any_of && one_of) && !constraint_only(n, false, 0)) {
        /* `properties` plus `anyOf: [{required: [a]}, {required: [b]}]`: the members only
           constrain the schema beside them, which keeps its own type */
        const sdkc_node *list = any_of ? any_of : one_of;
        bool constraints = list->kind == SDKC_NODE_SEQ && list->nitems > 0;
        for (size_t i = 0; constraints && i < list->nitems; i++)
            constraints = constraint_only(list->items[i], false, 0);
        if (constraints)
            any_of = one_of = NULL;
    }
    if (any_of && one_of)
        return any_into(c, n, origin, "both 'anyOf' and 'oneOf' in one schema", dest);
    if (any_of || one_of)
        return conv_union(c, n, any_of ? any_of : one_of, any_of ? "anyOf" : "oneOf", ctxname,
                          origin, dest);
    if ((x = kget(n, "allOf")) != NULL)
        return conv_all_of(c, n, x, ctxname, origin, dest);
    const sdkc_node *tynode = kget(n, "type");
    if (tynode && tynode->kind == SDKC_NODE_SEQ) {
        const sdkc_node *only = NULL;
        size_t nn = 0;
        for (size_t i = 0; i < tynode->nitems; i++) {
            const char *s = cc_text(tynode->items[i]);
            if (!s)
                return any_into(c, tynode, origin, "'type' list of non-strings", dest);
            if (strcmp(s, "null") == 0)
                *wrap_null = true;
            else {
                nn++;
                only = tynode->items[i];
            }
        }
        if (nn == 0)
            return new_type(c, SDKC_TYPE_NULL, n, origin, &dest);
        if (nn == 1)
            return conv_typed(c, n, tynode, only->str, ctxname, origin, dest);
        sdkc_type *t = new_type(c, SDKC_TYPE_UNION, n, origin, &dest);
        sdkc_variant *vs = cc_alloc(c, nn * sizeof *vs);
        if (!t || !vs)
            return t;
        size_t k = 0;
        for (size_t i = 0; i < tynode->nitems; i++) {
            const char *s = tynode->items[i]->str;
            if (strcmp(s, "null") != 0)
                vs[k++].type = conv_typed(c, n, tynode, s, ctx_child(c, ctxname, s), origin, NULL);
        }
        t->u.union_.variants = vs;
        t->u.union_.nvariants = k;
        if (!sdkc_vec_push(&c->unions, t))
            c->nomem = true;
        maybe_name(c, t, ctxname);
        return t;
    }
    const char *ty = tynode ? cc_text(tynode) : infer_type(n);
    if (!ty) {
        if (tynode)
            return any_into(c, tynode, origin, "'type' must be a string or a list", dest);
        return new_type(c, SDKC_TYPE_ANY, n, origin, &dest); /* `{}`: any value, as declared */
    }
    sdkc_type *t = conv_typed(c, n, tynode, ty, ctxname, origin, dest);
    if (t && !tynode && !kget(n, "anyOf") && !kget(n, "oneOf"))
        t->inferred = true;
    return t;
}

static sdkc_type *conv(cctx *c, const sdkc_node *n, const char *ctxname, const char *origin,
                       sdkc_type *dest)
{
    if (c->nomem)
        return NULL;
    if (!n)
        return any_into(c, NULL, origin, "missing schema", dest);
    if (n->kind == SDKC_NODE_SCALAR && n->scalar == SDKC_SCALAR_BOOL) {
        bool b = false;
        sdkc_node_bool(n, &b);
        return new_type(c, b ? SDKC_TYPE_ANY : SDKC_TYPE_NEVER, n, origin, &dest);
    }
    if (n->kind != SDKC_NODE_MAP)
        return any_into(c, n, origin, "a schema must be a mapping or a boolean", dest);
    if (c->depth >= MAX_DEPTH) {
        cc_error(c, n, "schemas nest too deeply (over %d levels)", MAX_DEPTH);
        return any_into(c, n, origin, NULL, dest);
    }
    /* a schema already converted (reached again through a $ref into it, or a YAML alias) is the
       same type */
    bool had_dest = dest != NULL;
    if (!had_dest) {
        sdkc_type *seen = sdkc_map_get(&c->ref_cache, n);
        if (seen)
            return seen;
    }
    /* an inline schema with a `title` is named by it; a second schema with that title and the
       same content is the same type, one with other content is named from its context */
    const char *titled = NULL;
    if (!had_dest && !kget(n, "$ref")) {
        const char *tn = title_name(c, n);
        const sdkc_node *first = tn ? sdkc_map_get(&c->titles, tn) : NULL;
        sdkc_type *same = first ? sdkc_map_get(&c->ref_cache, first) : NULL;
        if (same && same_schema(first, n, 0)) {
            if (!sdkc_map_put(&c->ref_cache, n, same))
                c->nomem = true;
            return same;
        }
        if (tn && !first && cc_name_free(c, tn))
            ctxname = titled = tn;
    }
    c->depth++;
    sdkc_type *t;
    if (kget(n, "$ref")) {
        sdkc_type *r = conv_ref(c, n, origin);
        bool b = false;
        /* `$ref` beside `nullable: true` (3.0 ignores siblings of $ref, but this is what
           contracts mean by it) */
        if (r && sdkc_node_bool(kget(n, "nullable"), &b) && b)
            r = cc_nullable(c, r, n);
        t = dest ? copy_into(c, dest, r, n) : r;
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
        sdkc_type *made = conv_body(c, n, ctxname, origin, dest, &wrap_null);
        t = made;
        bool nullish = made && (made->kind == SDKC_TYPE_NULLABLE || made->kind == SDKC_TYPE_NULL ||
                                made->kind == SDKC_TYPE_ANY);
        if (outer) {
            if (made && !nullish) {
                outer->kind = SDKC_TYPE_NULLABLE;
                outer->u.nullable.inner = made;
                t = outer;
            } else if (made) {
                t = copy_into(c, outer, made, n);
            }
        } else if (made && wrap_null && !nullish) {
            if (shell && made == shell) {
                /* `type: [X, "null"]` on a named schema: move X out of the shell */
                sdkc_type *inner = new_type(c, made->kind, n, origin, NULL);
                if (inner) {
                    sdkc_loc loc = inner->loc;
                    *inner = *made;
                    inner->name = NULL;
                    inner->safe_name = NULL;
                    inner->recursive = false;
                    inner->loc = loc;
                    if (inner->kind == SDKC_TYPE_UNION && !sdkc_vec_push(&c->unions, inner))
                        c->nomem = true;
                    const sdkc_node *hint = sdkc_map_get(&c->disc_hints, made);
                    if (hint && !sdkc_map_put(&c->disc_hints, inner, (void *)hint))
                        c->nomem = true;
                    maybe_name(c, inner, ctxname);
                    made->kind = SDKC_TYPE_NULLABLE;
                    memset(&made->u, 0, sizeof made->u);
                    made->u.nullable.inner = inner;
                }
            } else {
                t = cc_nullable(c, made, n);
            }
        }
    }
    c->depth--;
    if (t && t->name && !had_dest && !kget(n, "$ref") && !sdkc_map_get(&c->ref_cache, n) &&
        !sdkc_map_put(&c->ref_cache, n, t))
        c->nomem = true;
    if (titled && t && t->name && strcmp(t->name, titled) == 0 &&
        !sdkc_map_put(&c->titles, titled, (void *)n))
        c->nomem = true;
    return t;
}

sdkc_type *cc_schema(cctx *c, const sdkc_node *n, const char *ctxname, const char *origin)
{
    return conv(c, n, ctxname, origin, NULL);
}

/* ---- components ---- */

bool cc_schemas_init(cctx *c)
{
    const sdkc_node *comps = kget(kget(c->root, "components"), "schemas");
    if (!comps)
        return true;
    if (comps->kind != SDKC_NODE_MAP) {
        cc_error(c, comps, "components.schemas must be a mapping");
        return true;
    }
    c->ncomps = comps->npairs;
    c->comps = cc_alloc(c, (c->ncomps ? c->ncomps : 1) * sizeof *c->comps);
    if (!c->comps)
        return false;
    for (size_t i = 0; i < c->ncomps; i++) {
        comp *k = &c->comps[i];
        k->name = cc_strdup(c, comps->pairs[i].key->str);
        k->node = comps->pairs[i].value;
        k->shell = cc_alloc(c, sizeof *k->shell);
        if (!k->name || !k->shell)
            return false;
        k->shell->name = k->name;
        k->shell->kind = SDKC_TYPE_ANY;
        k->shell->origin = cc_ptr_child(c, "/components/schemas", k->name);
        k->shell->loc = cc_loc(c, comps->pairs[i].key);
        /* busy until filled: copy_into must not copy an empty shell */
        if (!sdkc_vec_push(&c->all, k->shell) || !register_name(c, k->shell) ||
            !sdkc_map_put(&c->comp_by_node, k->node, k) ||
            !sdkc_map_put(&c->busy, k->shell, k->shell))
            return false;
    }
    return !c->nomem;
}

static void fill_component(cctx *c, comp *k)
{
    if (k->state != COMP_TODO)
        return;
    if (is_pure_ref(k->node)) {
        k->state = COMP_ALIAS;
        k->shell->docs = cc_docs(c, k->node);
        k->target = final_target(c, k->node);
        if (!k->target) {
            k->shell->kind = SDKC_TYPE_ANY;
            return;
        }
        comp *t = sdkc_map_get(&c->comp_by_node, k->target);
        if (t)
            fill_component(c, t);
        else {
            /* alias of a non-component schema: convert that into this shell */
            k->state = COMP_BUSY;
            sdkc_map_put(&c->busy, k->shell, k->shell);
            conv(c, k->target, k->name, k->shell->origin, k->shell);
            sdkc_map_del(&c->busy, k->shell);
            k->state = COMP_DONE;
            k->target = NULL;
        }
        return;
    }
    k->state = COMP_BUSY;
    if (!sdkc_map_put(&c->busy, k->shell, k->shell)) {
        c->nomem = true;
        return;
    }
    const char *docs = k->node->kind == SDKC_NODE_MAP ? cc_docs(c, k->node) : NULL;
    conv(c, k->node, k->name, k->shell->origin, k->shell);
    if (docs)
        k->shell->docs = docs;
    sdkc_map_del(&c->busy, k->shell);
    k->state = COMP_DONE;
}

void cc_schemas_fill(cctx *c)
{
    for (size_t i = 0; i < c->ncomps && !c->nomem; i++)
        fill_component(c, &c->comps[i]);
}

/* ---- finishing passes ---- */

static const sdkc_field *find_field(const sdkc_type *t, const char *wire)
{
    if (!t || t->kind != SDKC_TYPE_OBJECT)
        return NULL;
    for (size_t i = 0; i < t->u.object.nfields; i++)
        if (strcmp(t->u.object.fields[i].wire_name, wire) == 0)
            return &t->u.object.fields[i];
    return NULL;
}

static const char *literal_tag(const sdkc_type *vt, const char *field)
{
    const sdkc_field *f = find_field(vt, field);
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
    const char *s = cc_text(v);
    if (!s)
        return NULL;
    if (s[0] != '#')
        return sdkc_map_get(&c->names, s);
    const sdkc_node *t = cc_resolve_ref(c, v);
    t = t ? final_target(c, t) : NULL;
    comp *k = t ? sdkc_map_get(&c->comp_by_node, t) : NULL;
    return k ? k->shell : (t ? sdkc_map_get(&c->ref_cache, t) : NULL);
}

/* An explicit OpenAPI discriminator: tags from the property's literal, else the mapping, else the
 * variant's schema name. false (with a warning) when that does not tell every variant apart. */
static bool explicit_discriminator(cctx *c, sdkc_type *u, const sdkc_node *hint)
{
    sdkc_variant *vs = (sdkc_variant *)u->u.union_.variants;
    size_t n = u->u.union_.nvariants;
    const char *prop = cc_text(kget(hint, "propertyName"));
    if (!prop) {
        cc_warn(c, hint, "discriminator without 'propertyName' ignored");
        return false;
    }
    const sdkc_node *mapping = kget(hint, "mapping");
    const char **tags = cc_alloc(c, (n ? n : 1) * sizeof *tags);
    if (!tags)
        return false;
    for (size_t i = 0; i < n; i++) {
        tags[i] = literal_tag(vs[i].type, prop);
        for (size_t j = 0;
             !tags[i] && mapping && mapping->kind == SDKC_NODE_MAP && j < mapping->npairs; j++)
            if (mapped_type(c, mapping->pairs[j].value) == vs[i].type)
                tags[i] = cc_strdup(c, mapping->pairs[j].key->str);
        if (!tags[i] && vs[i].type && vs[i].type->name && vs[i].type->origin &&
            strncmp(vs[i].type->origin, "/components/schemas/", 20) == 0)
            tags[i] = vs[i].type->name;
        bool dup = false;
        for (size_t j = 0; j < i && tags[i] && !dup; j++)
            dup = strcmp(tags[j], tags[i]) == 0;
        if (!tags[i] || dup) {
            cc_warn(c, hint,
                    "discriminator '%s' does not tell every variant apart; union left untagged",
                    prop);
            return false;
        }
    }
    u->u.union_.discriminator = cc_strdup(c, prop);
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
    const sdkc_node *hint = sdkc_map_get(&c->disc_hints, u);
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
        char *s = sdkc_snake_case(c->a, basis);
        if (s && sdkc_is_c_keyword(s))
            s = cc_printf(c, "%s_", s);
        const char *uq = s;
        for (unsigned k = 2; uq && sdkc_map_get(&seen, uq); k++)
            uq = cc_printf(c, "%s_%u", s, k);
        if (!uq || !sdkc_map_put(&seen, uq, (void *)1)) {
            c->nomem = true;
            break;
        }
        vs[i].safe_name = uq;
    }
    sdkc_map_cleanup(&seen);
}

static char lower_c(char ch)
{
    return ch >= 'A' && ch <= 'Z' ? (char)(ch - 'A' + 'a') : ch;
}

/* Is suffix, compared without case, the tail of name starting at a word boundary? */
static bool camel_suffix(const char *name, const char *suffix)
{
    size_t n = strlen(name), m = strlen(suffix);
    if (m > n)
        return false;
    const char *tail = name + (n - m);
    for (size_t i = 0; i < m; i++)
        if (lower_c(tail[i]) != lower_c(suffix[i]))
            return false;
    return m == n || (tail[0] >= 'A' && tail[0] <= 'Z') || tail[-1] == '_';
}

static int cmp_brand_acc(const void *a, const void *b)
{
    const brand_acc *x = *(brand_acc *const *)a, *y = *(brand_acc *const *)b;
    if (x->brand->uses != y->brand->uses)
        return x->brand->uses > y->brand->uses ? -1 : 1;
    return strcmp(x->brand->prefix, y->brand->prefix);
}

static int cmp_brand(const void *a, const void *b)
{
    return strcmp(((const sdkc_brand *)a)->name, ((const sdkc_brand *)b)->name);
}

/* Name brands after the field that uses them most; brands that want a taken name, most used
 * first, fall back to the name plus their prefix, then numbers. */
static void finish_brands(cctx *c, sdkc_ir *ir)
{
    size_t n = c->brand_list.len;
    if (n == 0)
        return;
    brand_acc **order = malloc(n * sizeof *order);
    sdkc_brand *out = cc_alloc(c, n * sizeof *out);
    sdkc_map taken;
    sdkc_map_init(&taken, SDKC_MAP_STRINGS);
    if (!order || !out) {
        c->nomem = true;
        goto done;
    }
    memcpy(order, c->brand_list.items, n * sizeof *order);
    qsort(order, n, sizeof *order, cmp_brand_acc);
    for (size_t i = 0; i < n; i++) {
        brand_acc *b = order[i];
        const char *best = NULL;
        size_t bestn = 0;
        for (size_t j = 0; j < b->n; j++) {
            /* a qualified name (assistantMessageID) also counts for its plain suffix
               (messageID) */
            size_t score = 0;
            for (size_t q = 0; q < b->n; q++)
                if (camel_suffix(b->names[q], b->names[j]))
                    score += b->counts[q];
            if (score > bestn || (score == bestn && strcmp(b->names[j], best) < 0)) {
                best = b->names[j];
                bestn = score;
            }
        }
        char *base = best ? sdkc_pascal_case(c->a, best)
                          : cc_printf(c, "%sID", nz(sdkc_pascal_case(c->a, b->brand->prefix)));
        if (!base) {
            c->nomem = true;
            goto done;
        }
        const char *name = base;
        if (sdkc_map_get(&taken, name) || sdkc_map_get(&c->names, name))
            name = cc_printf(c, "%s%s", base, nz(sdkc_pascal_case(c->a, b->brand->prefix)));
        const char *cand = name;
        for (unsigned k = 2; cand && (sdkc_map_get(&taken, cand) || sdkc_map_get(&c->names, cand));
             k++)
            cand = cc_printf(c, "%s%u", name, k);
        if (!cand || !sdkc_map_put(&taken, cand, (void *)1)) {
            c->nomem = true;
            goto done;
        }
        b->brand->name = cand;
        b->brand->safe_name = sdkc_snake_case(c->a, cand);
    }
    /* the IR holds brands by value, sorted by name; string types point at these copies */
    for (size_t i = 0; i < n; i++)
        out[i] = *((brand_acc *)c->brand_list.items[i])->brand;
    qsort(out, n, sizeof *out, cmp_brand);
    sdkc_map byprefix;
    sdkc_map_init(&byprefix, SDKC_MAP_STRINGS);
    for (size_t i = 0; i < n; i++)
        if (!sdkc_map_put(&byprefix, out[i].prefix, &out[i]))
            c->nomem = true;
    for (size_t i = 0; i < c->all.len; i++) {
        sdkc_type *t = c->all.items[i];
        if (t->kind == SDKC_TYPE_STRING && t->u.str.brand)
            t->u.str.brand = sdkc_map_get(&byprefix, t->u.str.brand->prefix);
    }
    sdkc_map_cleanup(&byprefix);
    ir->brands = out;
    ir->nbrands = n;
done:
    sdkc_map_cleanup(&taken);
    free(order);
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
    size_t n = c->all.len;
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
        if (!sdkc_map_put(&idx, c->all.items[i], (void *)(uintptr_t)(i + 1))) {
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
                const sdkc_type *t = c->all.items[f->v];
                size_t cap = nchildren(t);
                f->kids = cap ? cc_alloc(c, cap * sizeof *f->kids) : NULL;
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
                    ((sdkc_type *)c->all.items[w])->recursive = true;
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
                        ((sdkc_type *)c->all.items[stack[i]])->recursive = true;
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
    for (size_t i = 0; i < c->all.len; i++) {
        const sdkc_type *start = c->all.items[i], *t = start;
        for (int step = 0; step < 64 && t; step++) {
            if (t->kind == SDKC_TYPE_NULLABLE)
                t = t->u.nullable.inner;
            else if (t->kind == SDKC_TYPE_UNION && t->u.union_.nvariants == 1)
                t = t->u.union_.variants[0].type;
            else
                break;
            if (t == start) {
                c->nerrors++;
                if (c->diag)
                    sdkc_diag_add(c->diag, SDKC_SEV_ERROR, start->loc,
                                  "schema '%s' is only itself (or null): a cycle with no structure",
                                  start->name ? start->name : nz(start->origin));
                break;
            }
        }
    }
}

/* Built from a component schema's own node (origin "/components/schemas/X"), not from a
 * property or member inside one: a type the contract declared. */
static bool component_root(const char *origin)
{
    static const char schemas[] = "/components/schemas/";
    return origin && strncmp(origin, schemas, sizeof schemas - 1) == 0 &&
           !strchr(origin + sizeof schemas - 1, '/');
}

void cc_schemas_finish(cctx *c, sdkc_ir *ir)
{
    check_empty_cycles(c);
    for (size_t i = 0; i < c->unions.len && !c->nomem; i++)
        finish_union(c, c->unions.items[i]);
    if (!c->nomem)
        finish_brands(c, ir);
    if (!c->nomem)
        mark_recursive(c);
    if (c->nomem)
        return;
    /* aliases: a copy of their target under their own name */
    for (size_t i = 0; i < c->ncomps; i++) {
        comp *k = &c->comps[i];
        if (k->state != COMP_ALIAS || !k->target)
            continue;
        comp *t = sdkc_map_get(&c->comp_by_node, k->target);
        if (!t)
            continue;
        sdkc_type keep = *k->shell;
        *k->shell = *t->shell;
        k->shell->name = keep.name;
        k->shell->origin = keep.origin;
        k->shell->loc = keep.loc;
        k->shell->docs = keep.docs ? keep.docs : t->shell->docs;
    }
    size_t n = c->named.len;
    const sdkc_type **types = cc_alloc(c, (n ? n : 1) * sizeof *types);
    if (!types)
        return;
    if (n > 0) {
        memcpy(types, c->named.items, n * sizeof *types);
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
            char *s = sdkc_snake_case(c->a, t->name);
            if (s && sdkc_is_c_keyword(s))
                s = cc_printf(c, "%s_", s);
            const char *u = s;
            for (unsigned k = 2; u && sdkc_map_get(&safe, u); k++)
                u = cc_printf(c, "%s_%u", s, k);
            if (!u || !sdkc_map_put(&safe, u, t)) {
                c->nomem = true;
                break;
            }
            t->safe_name = u;
        }
    }
    sdkc_map_cleanup(&safe);
    for (size_t i = 0; i < n; i++)
        ((sdkc_type *)types[i])->declared = component_root(types[i]->origin);
    ir->types = types;
    ir->ntypes = n;
}
