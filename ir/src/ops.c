/* ops.c - the operations stage (ops.h): paths and operations to IR operations, with the Effect
 * HttpApi conventions: tagged errors per status, `{data: X}` unwrapping, SSE streams
 * (x-effect-stream), 204 no content, implied Basic auth. Here: finding the operations (paths,
 * methods, operationIds, safe names) and converting each one. */
#include <stdlib.h>
#include <string.h>

#include "ops_internal.h"
#include "sdkc/compile.h"
#include "sdkc/naming.h"

static const char *const METHODS[] = {"get",     "put",  "post",  "delete",
                                      "options", "head", "patch", "trace"};

/* A specification extension (`x-...`): allowed in most OpenAPI objects, never an error. */
bool sdkc_ops_is_extension(const char *k)
{
    return k[0] == 'x' && k[1] == '-';
}

bool sdkc_ops_is_method(const char *k)
{
    for (size_t i = 0; i < sizeof METHODS / sizeof METHODS[0]; i++)
        if (strcmp(k, METHODS[i]) == 0)
            return true;
    return false;
}

char *sdkc_ops_upper(cctx *c, const char *s)
{
    char *u = sdkc_cc_strdup(c, s);
    for (char *p = u; p && *p; p++)
        if (*p >= 'a' && *p <= 'z')
            *p = (char)(*p - 'a' + 'A');
    return u;
}

const char *sdkc_ops_op_type_name(cctx *c, const raw_op *r, const char *suffix)
{
    char *p = sdkc_pascal_case(c->a, r->safe);
    if (!p) {
        c->nomem = true;
        return NULL;
    }
    return sdkc_cc_concat(c, p, suffix);
}

/* ---- ids ---- */

static bool included(const sdkc_compile_options *o, const char *id)
{
    if (o->ninclude == 0)
        return true;
    for (size_t i = 0; i < o->ninclude; i++)
        if (sdkc_glob_match(o->include[i], id))
            return true;
    return false;
}

static void split_id(cctx *c, raw_op *r)
{
    static const char *const def[] = {"v2"};
    const char *const *pre = c->opts->strip_prefixes ? c->opts->strip_prefixes : def;
    size_t npre = c->opts->strip_prefixes ? c->opts->nstrip_prefixes : 1;
    r->rest = r->id;
    for (size_t i = 0; i < npre; i++) {
        size_t l = strlen(pre[i]);
        if (l > 0 && strncmp(r->id, pre[i], l) == 0 && r->id[l] == '.' && r->id[l + 1]) {
            r->prefix = sdkc_cc_strdup(c, pre[i]);
            r->rest = r->id + l + 1;
            break;
        }
    }
}

/* ---- discovery ---- */

/* The operations a contract declares, in path order, before conversion. */
typedef struct found_ops {
    raw_op *raw; /* the included ones */
    size_t n, cap;
    sdkc_map ids; /* every operationId seen, included or not -> its raw_op (arena) */
} found_ops;

/* route, query and fragment of r from its path key. A fragment is never sent (RFC 3986):
 * converted AWS contracts tell operations on one path apart with "/#X-Amz-Target=...". A query
 * string is parsed for its variables. */
static bool split_path(cctx *c, raw_op *r)
{
    const char *key = r->path;
    const char *hash = strchr(key, '#');
    size_t plen = hash ? (size_t)(hash - key) : strlen(key);
    const char *qm = memchr(key, '?', plen);
    size_t rlen = qm ? (size_t)(qm - key) : plen;
    r->route = rlen == strlen(key) ? key : sdkc_arena_strndup(c->a, key, rlen);
    r->query = qm ? sdkc_arena_strndup(c->a, qm + 1, plen - rlen - 1) : NULL;
    r->fragment = hash ? hash + 1 : NULL;
    if (!r->route || (qm && !r->query)) {
        c->nomem = true;
        return false;
    }
    return true;
}

/* The operationId of r (made up from method and path when there is none, or when the operation
 * is reached a second time through $ref); NULL, reported, when another operation has it, and
 * when out of memory. at: where a second visit is reported. */
static const char *operation_id(cctx *c, found_ops *f, const raw_op *r, const sdkc_node *at)
{
    const sdkc_node *idn = sdkc_node_get(r->node, "operationId");
    const char *id = sdkc_cc_text(idn);
    if (!id) {
        char *gen = sdkc_cc_printf(c, "%s%s", r->method, r->path);
        id = gen;
        sdkc_cc_warn(c, r->node, "operation %s %s has no operationId; using '%s'", r->method,
                     r->path, gen ? gen : "");
    }
    if (!id)
        return NULL;
    const raw_op *prev = sdkc_map_get(&f->ids, id);
    if (prev && prev->node == r->node) {
        /* one operation reached twice through $ref (two paths referring to one path item, an
           operation referring to another): the second gets an id of its own */
        char *gen = sdkc_cc_printf(c, "%s%s", r->method, r->path);
        if (!gen)
            return NULL;
        sdkc_cc_warn(c, at,
                     "operation %s %s is, through $ref, the operation of %s %s: its operationId "
                     "'%s' stays there; using '%s' here",
                     r->method, r->path, prev->method, prev->path, id, gen);
        id = gen;
        prev = sdkc_map_get(&f->ids, id);
    }
    if (prev) {
        const sdkc_node *pn = sdkc_node_get(prev->node, "operationId");
        sdkc_cc_error(c, idn ? idn : r->node,
                      "duplicate operationId '%s' (first used at line %u, column %u)", id,
                      pn ? (unsigned)pn->loc.line : 0, pn ? (unsigned)pn->loc.col : 0);
        return NULL;
    }
    /* the map keeps a copy: the slot in f->raw is reused when the operation is not included */
    raw_op *seen = sdkc_cc_alloc(c, sizeof *seen);
    if (!seen)
        return NULL;
    *seen = *r;
    if (!sdkc_map_put(&f->ids, id, seen)) {
        c->nomem = true;
        return NULL;
    }
    return id;
}

/* The operation at method m of a path item; false only when out of memory. */
static bool add_operation(cctx *c, found_ops *f, const sdkc_node *pk, const sdkc_node *item,
                          bool item_ref, size_t j)
{
    const char *m = item->pairs[j].key->str;
    /* An operation is no $ref target by the specification, but contracts write one: it is
     * followed (the operation is the referenced one's, at this path and method). */
    const sdkc_node *on = sdkc_cc_deref(c, item->pairs[j].value);
    if (!on)
        return true; /* a dangling $ref, reported */
    if (on->kind != SDKC_NODE_MAP) {
        sdkc_cc_error(c, on, "operation %s %s must be a mapping", m, pk->str);
        return true;
    }
    raw_op *r = &f->raw[f->n];
    memset(r, 0, sizeof *r);
    r->node = on;
    r->path_item = item;
    r->path = pk->str;
    r->pathkey = pk;
    r->method = m;
    if (!split_path(c, r))
        return false;
    r->item_ptr = sdkc_cc_ptr_child(c, "/paths", pk->str);
    r->ptr = sdkc_cc_ptr_child(c, r->item_ptr, m);
    const char *id = operation_id(c, f, r, item_ref ? pk : item->pairs[j].value);
    if (!id)
        return !c->nomem;
    if (!included(c->opts, id))
        return true;
    r->id = sdkc_cc_strdup(c, id);
    if (!r->id)
        return false;
    split_id(c, r);
    f->n++;
    return true;
}

/* Every operation of every path item, in contract order; false only when out of memory. */
static bool find_operations(cctx *c, const sdkc_node *paths, found_ops *f)
{
    for (size_t i = 0; i < paths->npairs; i++) {
        const sdkc_node *item = sdkc_cc_deref(c, paths->pairs[i].value); /* its target's count */
        if (item && item->kind == SDKC_NODE_MAP)
            f->cap += item->npairs;
    }
    f->raw = calloc(f->cap ? f->cap : 1, sizeof *f->raw);
    if (!f->raw) {
        c->nomem = true;
        return false;
    }
    for (size_t i = 0; i < paths->npairs; i++) {
        const sdkc_node *pk = paths->pairs[i].key;
        if (sdkc_ops_is_extension(pk->str))
            continue; /* the Paths object may be extended */
        const sdkc_node *item = sdkc_cc_deref(c, paths->pairs[i].value);
        bool item_ref = item != paths->pairs[i].value;
        if (item_ref && paths->pairs[i].value->npairs > 1)
            sdkc_cc_warn(c, pk,
                         "path item '%s' has a $ref and other fields: only the referenced path "
                         "item is used",
                         pk->str);
        if (!item || item->kind != SDKC_NODE_MAP) {
            if (item)
                sdkc_cc_error(c, pk, "path item '%s' must be a mapping", pk->str);
            continue;
        }
        if (pk->str[0] != '/')
            sdkc_cc_error(c, pk, "path '%s' must start with '/'", pk->str);
        for (size_t j = 0; j < item->npairs; j++)
            if (sdkc_ops_is_method(item->pairs[j].key->str) &&
                !add_operation(c, f, pk, item, item_ref, j))
                return false;
    }
    return true;
}

/* ---- conversion ---- */

/* The IR operation of r (named already), but for its security and callbacks; its main success
 * response. */
static const sdkc_node *build_operation(cctx *c, const raw_op *r, sdkc_operation *op)
{
    op->method = sdkc_ops_upper(c, r->method);
    op->path = sdkc_cc_strdup(c, r->route);
    op->fragment = r->fragment ? sdkc_cc_strdup(c, r->fragment) : NULL;
    const char *s = sdkc_cc_text(sdkc_node_get(r->node, "summary"));
    op->summary = s ? sdkc_cc_strdup(c, s) : NULL;
    op->description = sdkc_cc_docs(c, r->node);
    bool dep = false;
    sdkc_node_bool(sdkc_node_get(r->node, "deprecated"), &dep);
    op->deprecated = dep;
    op->loc = sdkc_cc_loc(c, r->node);
    /* the inline types of the operation are named after it */
    c->op_name = sdkc_ops_op_type_name(c, r, "");
    sdkc_ops_build_body(c, r, op);
    sdkc_ops_build_params(c, r, op, r->pathkey, op->body != NULL);
    const sdkc_node *success = sdkc_ops_build_responses(c, r, op);
    c->op_name = NULL;
    return success;
}

/* The IR operations of those found, grouped and named (docs/naming.md#groups); NULL when out of
 * memory. */
static sdkc_operation *name_operations(cctx *c, found_ops *f)
{
    sdkc_operation *ops = sdkc_cc_alloc(c, (f->cap ? f->cap : 1) * sizeof *ops);
    if (!ops)
        return NULL;
    for (size_t i = 0; i < f->n; i++)
        sdkc_ops_seed(c, &ops[i], f->raw[i].node, f->raw[i].id, f->raw[i].prefix, f->raw[i].route);
    sdkc_ops_name(c, ops, f->n);
    for (size_t i = 0; i < f->n; i++)
        f->raw[i].safe = ops[i].safe_name;
    return ops;
}

/* ir->ops and c->op_sources: the operations found, converted; callbacks into hooks. */
static void build_operations(cctx *c, sdkc_ir *ir, const found_ops *f, sdkc_operation *ops,
                             size_t ndeclared, sdkc_vec *hooks)
{
    sdkc_op_source *srcs = sdkc_cc_alloc(c, (f->cap ? f->cap : 1) * sizeof *srcs);
    if (!srcs)
        return;
    for (size_t i = 0; i < f->n && !c->nomem; i++) {
        const raw_op *r = &f->raw[i];
        srcs[i].op = &ops[i];
        srcs[i].node = r->node;
        srcs[i].success = build_operation(c, r, &ops[i]);
        sdkc_ops_build_security(c, ir, r, &ops[i], ndeclared);
        sdkc_ops_op_callbacks(c, hooks, r, &ops[i]);
    }
    ir->ops = ops;
    ir->nops = f->n;
    c->op_sources = srcs;
    c->nop_sources = f->n;
}

bool sdkc_ops_build(cctx *c, sdkc_ir *ir)
{
    sdkc_vec hooks = SDKC_VEC_INIT;
    sdkc_ops_webhooks(c, &hooks);
    const sdkc_node *paths = sdkc_node_get(c->root, "paths");
    if (!paths) {
        if (!hooks.len) /* 3.1: a contract may hold only webhooks */
            sdkc_cc_warn(c, c->root, "contract has no 'paths'");
        sdkc_ops_finish_hooks(c, ir, &hooks);
        return !c->nomem;
    }
    if (paths->kind != SDKC_NODE_MAP) {
        sdkc_cc_error(c, paths, "'paths' must be a mapping");
        sdkc_vec_cleanup(&hooks);
        return !c->nomem;
    }
    found_ops f = {0};
    sdkc_map_init(&f.ids, SDKC_MAP_STRINGS);
    if (find_operations(c, paths, &f)) {
        size_t ndeclared = 0;
        sdkc_operation *ops = name_operations(c, &f);
        sdkc_ops_build_schemes(c, ir, &ndeclared);
        if (ops)
            build_operations(c, ir, &f, ops, ndeclared, &hooks);
        if (!c->nomem)
            sdkc_ops_auth_unspecified(c, ir, ndeclared);
    }
    sdkc_ops_finish_hooks(c, ir, &hooks);
    sdkc_map_cleanup(&f.ids);
    free(f.raw);
    return !c->nomem;
}
