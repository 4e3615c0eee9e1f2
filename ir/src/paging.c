/* paging.c - the paging stage (paging.h): which style an operation's pages come in and what each
 * style reads, decided per operation from (first that applies) the --pagination config file, an
 * extension of the operation object or conservative heuristics (paging_detect.c). Here: checking
 * a recognition against the operation and adopting it, the config file, and the pass. What is
 * ambiguous stays unpaginated: the operation is still an ordinary call, and the config file can
 * say what the contract does not. docs/pagination.md describes the rules.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "paging_internal.h"

/* The paging stage's state (c->pages). */
struct sdkc_pages {
    sdkc_doc *doc;        /* the pagination config file, or NULL */
    const sdkc_node *ops; /* its "operations" mapping, or NULL */
    sdkc_map used;        /* config entries (value nodes) an operation took */
};

void sdkc_pg_report(const pgreport *r, const char *fmt, ...)
{
    if (!r->at)
        return;
    va_list ap;
    va_start(ap, fmt);
    /* the node's own position: config entries are in the config file */
    sdkc_cc_vreport(r->c, r->error ? SDKC_SEV_ERROR : SDKC_SEV_WARNING, r->at->loc, fmt, ap);
    va_end(ap);
}

/* The field at a dotted path of object fields, or NULL. A field whose own name has dots
 * ("odata.nextLink") is taken first. */
const sdkc_field *sdkc_pg_field_at(const sdkc_type *t, const char *path)
{
    char seg[256];
    const sdkc_field *f = path ? sdkc_type_field(t, path) : NULL;
    if (f)
        return f;
    while (path && *path) {
        const char *dot = strchr(path, '.');
        size_t n = dot ? (size_t)(dot - path) : strlen(path);
        if (n == 0 || n >= sizeof seg)
            return NULL;
        memcpy(seg, path, n);
        seg[n] = '\0';
        f = sdkc_type_field(t, seg);
        if (!f)
            return NULL;
        t = f->type;
        path = dot ? dot + 1 : NULL;
    }
    return f;
}

bool sdkc_pg_kind_is(const sdkc_type *t, sdkc_type_kind k)
{
    t = sdkc_type_strip_nullable(t);
    return t && t->kind == k;
}

bool sdkc_pg_field_kind(const sdkc_type *t, const char *path, sdkc_type_kind k)
{
    const sdkc_field *f = sdkc_pg_field_at(t, path);
    return f && sdkc_pg_kind_is(f->type, k);
}

bool sdkc_pg_counts(const sdkc_type *t)
{
    t = sdkc_type_strip_nullable(t);
    if (t && t->kind == SDKC_TYPE_UNION) {
        for (size_t i = 0; i < t->u.union_.nvariants; i++) {
            const sdkc_type *v = sdkc_type_strip_nullable(t->u.union_.variants[i].type);
            if (v && (v->kind == SDKC_TYPE_INTEGER || v->kind == SDKC_TYPE_NUMBER))
                return true;
        }
        return false;
    }
    return t && (t->kind == SDKC_TYPE_INTEGER || t->kind == SDKC_TYPE_NUMBER);
}

/* The first of names that is a query parameter of op (of kind k unless k is -1). */
const char *sdkc_pg_first_param(const sdkc_operation *op, const char *const *names, int k)
{
    for (size_t i = 0; names[i]; i++) {
        const sdkc_param *p = sdkc_op_query_param(op, names[i]);
        if (p && (k < 0 || sdkc_pg_kind_is(p->type, (sdkc_type_kind)k)))
            return names[i];
    }
    return NULL;
}

/* The first of paths that is a field of t of kind k. */
const char *sdkc_pg_first_field(const sdkc_type *t, const char *const *paths, sdkc_type_kind k)
{
    for (size_t i = 0; paths[i]; i++)
        if (sdkc_pg_field_kind(t, paths[i], k))
            return paths[i];
    return NULL;
}

static const sdkc_type *array_items(const sdkc_type *t)
{
    t = sdkc_type_strip_nullable(t);
    return t && t->kind == SDKC_TYPE_ARRAY ? t->u.array.items : NULL;
}

/* `_embedded`: HAL's embedded resources, an array where a page has no other (loket.nl, beside
 * its `messages` warnings) */
static const char *const ITEM_NAMES[] = {"data",    "items",    "results",   "value", "entries",
                                         "records", "elements", "_embedded", NULL};

/* The items of a page body: the body when it is an array; else the first array field with a
 * usual name; else its only array field, or its only array of objects beside arrays of scalars.
 * NULL when none (or several, none usual). */
const sdkc_type *sdkc_pg_find_items(const sdkc_type *body, const char **field, bool *is_body)
{
    *field = NULL;
    *is_body = false;
    const sdkc_type *it = array_items(body);
    if (it) {
        *is_body = true;
        return it;
    }
    body = sdkc_type_strip_nullable(body);
    if (!body || body->kind != SDKC_TYPE_OBJECT)
        return NULL;
    for (size_t i = 0; ITEM_NAMES[i]; i++) {
        const sdkc_field *f = sdkc_type_field(body, ITEM_NAMES[i]);
        if (f && array_items(f->type)) {
            *field = f->wire_name;
            return array_items(f->type);
        }
    }
    const sdkc_field *only = NULL, *only_objects = NULL;
    size_t narrays = 0, nobjects = 0;
    for (size_t i = 0; i < body->u.object.nfields; i++) {
        const sdkc_field *f = &body->u.object.fields[i];
        if (!array_items(f->type))
            continue;
        narrays++;
        only = f;
        if (sdkc_pg_kind_is(array_items(f->type), SDKC_TYPE_OBJECT)) {
            nobjects++;
            only_objects = f;
        }
    }
    /* several arrays: the page is the one array of objects beside arrays of scalars (Google's
     * `unreachable` strings); otherwise which one is the page is a guess */
    if (narrays > 1)
        only = nobjects == 1 ? only_objects : NULL;
    if (!only)
        return NULL;
    *field = only->wire_name;
    return array_items(only->type);
}

/* Does every item (each variant of a union of objects) carry a string or integer id field? */
static bool has_id(const sdkc_type *t, const char *id, int depth)
{
    t = sdkc_type_strip_nullable(t);
    if (!t || depth > 4)
        return false;
    if (t->kind == SDKC_TYPE_UNION) {
        for (size_t i = 0; i < t->u.union_.nvariants; i++)
            if (!has_id(t->u.union_.variants[i].type, id, depth + 1))
                return false;
        return t->u.union_.nvariants > 0;
    }
    const sdkc_field *f = sdkc_type_field(t, id);
    return f && (sdkc_pg_kind_is(f->type, SDKC_TYPE_STRING) ||
                 sdkc_pg_kind_is(f->type, SDKC_TYPE_INTEGER));
}

/* Check spec against op and, when it holds, adopt it as op->pagination. */
bool sdkc_pg_adopt_spec(cctx *c, sdkc_operation *op, const pgspec *s, const pgreport *rep)
{
    const sdkc_type *body = op->success.type;
    const char *items_field = NULL;
    const sdkc_type *item = NULL;
    if (s->items_body) {
        item = array_items(body);
        if (!item) {
            sdkc_pg_report(rep, "operation '%s': pagination: the success body is not an array",
                           op->id);
            return false;
        }
    } else if (s->items) {
        const sdkc_field *f = sdkc_pg_field_at(body, s->items);
        item = f ? array_items(f->type) : NULL;
        items_field = s->items;
        if (!item) {
            sdkc_pg_report(rep, "operation '%s': pagination: the success body has no array '%s'",
                           op->id, s->items);
            return false;
        }
    } else {
        bool is_body = false;
        item = sdkc_pg_find_items(body, &items_field, &is_body);
        if (!item) {
            sdkc_pg_report(rep,
                           "operation '%s': pagination: no items array found in the success body "
                           "(name it with 'items')",
                           op->id);
            return false;
        }
    }
    sdkc_pagination pg = {0};
    pg.style = s->style;
    pg.source = s->source;
    pg.item = item;
    pg.page = body;
    pg.items_field = items_field;
    const char *param = s->param, *next = s->next, *has_more = s->has_more;
    switch (s->style) {
    case SDKC_PAGE_CURSOR_OBJECT: {
        pg.cursor_field = s->cursor ? s->cursor : "cursor";
        const sdkc_field *cur = sdkc_pg_field_at(body, pg.cursor_field);
        pg.next_field = next ? next : "next";
        if (!cur || !sdkc_pg_kind_is(cur->type, SDKC_TYPE_OBJECT) ||
            !sdkc_pg_field_kind(cur->type, pg.next_field, SDKC_TYPE_STRING)) {
            sdkc_pg_report(rep, "operation '%s': pagination: no string '%s.%s' in the success body",
                           op->id, pg.cursor_field, pg.next_field);
            return false;
        }
        const char *prev = s->previous ? s->previous : "previous";
        if (sdkc_pg_field_kind(cur->type, prev, SDKC_TYPE_STRING))
            pg.previous_field = prev;
        if (!param)
            param = "cursor";
        break;
    }
    case SDKC_PAGE_CURSOR_TOKEN:
    case SDKC_PAGE_NEXT_URL:
        if (!next || !sdkc_pg_field_kind(body, next, SDKC_TYPE_STRING)) {
            sdkc_pg_report(rep, "operation '%s': pagination: %s needs a string field 'next' (%s)",
                           op->id, sdkc_page_style_name(s->style), next ? next : "not given");
            return false;
        }
        pg.next_field = next;
        break;
    case SDKC_PAGE_CURSOR_ITEM: {
        pg.item_id_field = s->id ? s->id : "id";
        if (!has_id(item, pg.item_id_field, 0)) {
            sdkc_pg_report(rep, "operation '%s': pagination: the items have no string field '%s'",
                           op->id, pg.item_id_field);
            return false;
        }
        break;
    }
    default:
        break;
    }
    bool wants_param = s->style != SDKC_PAGE_NEXT_URL && s->style != SDKC_PAGE_LINK_HEADER;
    if (wants_param) {
        pg.cursor_param = sdkc_op_query_param(op, param);
        if (!pg.cursor_param) {
            sdkc_pg_report(rep, "operation '%s': pagination: '%s' is not a query parameter", op->id,
                           param ? param : "(param not given)");
            return false;
        }
        bool counts = s->style == SDKC_PAGE_PAGE_NUMBER || s->style == SDKC_PAGE_OFFSET;
        if (counts && !sdkc_pg_counts(pg.cursor_param->type) &&
            !(s->count_text && sdkc_pg_kind_is(pg.cursor_param->type, SDKC_TYPE_STRING))) {
            sdkc_pg_report(rep, "operation '%s': pagination: parameter '%s' is not a number",
                           op->id, param);
            return false;
        }
    }
    if (s->size_param) {
        pg.size_param = sdkc_op_query_param(op, s->size_param);
        if (!pg.size_param) {
            sdkc_pg_report(rep, "operation '%s': pagination: '%s' is not a query parameter", op->id,
                           s->size_param);
            return false;
        }
    }
    if (has_more) {
        if (!sdkc_pg_field_kind(body, has_more, SDKC_TYPE_BOOLEAN)) {
            sdkc_pg_report(rep,
                           "operation '%s': pagination: no boolean field '%s' in the success body",
                           op->id, has_more);
            return false;
        }
        pg.has_more_field = has_more;
    }
    sdkc_pagination *p = sdkc_cc_alloc(c, sizeof *p);
    if (!p)
        return false;
    *p = pg;
    /* names are arena copies: config and extension texts belong to documents freed later */
    p->reason = sdkc_cc_strdup(c, s->reason);
    p->items_field = pg.items_field ? sdkc_cc_strdup(c, pg.items_field) : NULL;
    p->cursor_field = pg.cursor_field ? sdkc_cc_strdup(c, pg.cursor_field) : NULL;
    p->next_field = pg.next_field ? sdkc_cc_strdup(c, pg.next_field) : NULL;
    p->previous_field = pg.previous_field ? sdkc_cc_strdup(c, pg.previous_field) : NULL;
    p->has_more_field = pg.has_more_field ? sdkc_cc_strdup(c, pg.has_more_field) : NULL;
    p->item_id_field = pg.item_id_field ? sdkc_cc_strdup(c, pg.item_id_field) : NULL;
    if (s->style == SDKC_PAGE_CURSOR_OBJECT) {
        /* the live OpenCode server sends null for an absent cursor: say so in the IR (as a
           leniency, so that conformance still reports it) */
        const sdkc_type *cursor = sdkc_pg_field_at(body, p->cursor_field)->type;
        const sdkc_field *nf = sdkc_type_field(cursor, p->next_field);
        sdkc_schema_retype_field(c, cursor, p->next_field,
                                 sdkc_schema_lenient_nullable(c, nf->type));
        if (p->previous_field) {
            const sdkc_field *pf = sdkc_type_field(cursor, p->previous_field);
            sdkc_schema_retype_field(c, cursor, p->previous_field,
                                     sdkc_schema_lenient_nullable(c, pf->type));
        }
    }
    op->pagination = p;
    return true;
}

/* ---- config file ---- */

void sdkc_paging_cleanup(cctx *c)
{
    if (!c->pages)
        return;
    sdkc_map_cleanup(&c->pages->used);
    sdkc_doc_free(c->pages->doc);
    free(c->pages);
    c->pages = NULL;
}

bool sdkc_paging_load_config(cctx *c, sdkc_ir *ir)
{
    (void)ir;
    c->pages = calloc(1, sizeof *c->pages);
    if (!c->pages) {
        c->nomem = true;
        return false;
    }
    sdkc_map_init(&c->pages->used, SDKC_MAP_POINTERS);
    const char *path = c->opts->pagination_file;
    if (!path)
        return true;
    sdkc_status st = sdkc_doc_load_file(&c->pages->doc, path, c->diag);
    if (st == SDKC_ERR_NOMEM) {
        c->nomem = true;
        return false;
    }
    if (st != SDKC_OK) {
        c->nerrors++; /* the loader said why */
        return true;
    }
    const sdkc_node *root = sdkc_doc_root(c->pages->doc);
    pgreport rep = {c, root, true};
    const sdkc_node *ops = sdkc_node_get(root, "operations");
    if (!root || root->kind != SDKC_NODE_MAP || !ops || ops->kind != SDKC_NODE_MAP) {
        sdkc_pg_report(&rep, "pagination config: expected a mapping with an 'operations' mapping");
        return true;
    }
    for (size_t i = 0; i < root->npairs; i++) {
        if (strcmp(root->pairs[i].key->str, "operations") != 0) {
            rep.at = root->pairs[i].key;
            sdkc_pg_report(&rep, "pagination config: unknown key '%s'", root->pairs[i].key->str);
        }
    }
    c->pages->ops = ops;
    return true;
}

static const char *const CONFIG_KEYS[] = {"style",    "items", "cursor", "next",       "previous",
                                          "has_more", "id",    "param",  "size_param", NULL};

static void from_config(cctx *c, const sdkc_node *entry, sdkc_operation *op)
{
    pgreport rep = {c, entry, true};
    if (entry->kind == SDKC_NODE_SCALAR && strcmp(entry->str, "none") == 0)
        return; /* turned off */
    if (entry->kind != SDKC_NODE_MAP) {
        sdkc_pg_report(&rep,
                       "pagination config: operation '%s': expected \"none\" or a mapping with "
                       "'style'",
                       op->id);
        return;
    }
    pgspec s = {0};
    s.source = SDKC_PAGE_FROM_CONFIG;
    for (size_t i = 0; i < entry->npairs; i++) {
        const char *k = entry->pairs[i].key->str;
        const sdkc_node *v = entry->pairs[i].value;
        pgreport at = {c, entry->pairs[i].key, true};
        size_t j = 0;
        while (CONFIG_KEYS[j] && strcmp(CONFIG_KEYS[j], k) != 0)
            j++;
        if (!CONFIG_KEYS[j]) {
            sdkc_pg_report(&at,
                           "pagination config: unknown key '%s' (expected one of style, items, "
                           "cursor, next, previous, has_more, id, param, size_param)",
                           k);
            return;
        }
        if (v->kind != SDKC_NODE_SCALAR || v->scalar != SDKC_SCALAR_STRING) {
            at.at = v;
            sdkc_pg_report(&at, "pagination config: '%s' must be a string", k);
            return;
        }
        const char *t = v->str;
        switch (j) {
        case 0:
            if (!sdkc_page_style_parse(t, &s.style)) {
                at.at = v;
                sdkc_pg_report(&at,
                               "pagination config: unknown style '%s' (expected cursor-object, "
                               "cursor-token, cursor-item, next-url, link-header, page-number, "
                               "offset)",
                               t);
                return;
            }
            break;
        case 1:
            sdkc_pg_items_from_path(&s, strcmp(t, "$") == 0 ? "" : t);
            break;
        case 2:
            s.cursor = t;
            break;
        case 3:
            s.next = t;
            break;
        case 4:
            s.previous = t;
            break;
        case 5:
            s.has_more = t;
            break;
        case 6:
            s.id = t;
            break;
        case 7:
            s.param = t;
            break;
        default:
            s.size_param = t;
            break;
        }
    }
    if (!sdkc_node_get(entry, "style")) {
        sdkc_pg_report(&rep, "pagination config: operation '%s': 'style' is required", op->id);
        return;
    }
    s.reason = sdkc_cc_printf(c, "config %s:%u:%u", nz(entry->loc.file), (unsigned)entry->loc.line,
                              (unsigned)entry->loc.col);
    sdkc_pg_adopt_spec(c, op, &s, &rep);
}

bool sdkc_paging_check_config(cctx *c, sdkc_ir *ir)
{
    if (!c->pages->ops)
        return true;
    for (size_t i = 0; i < c->pages->ops->npairs; i++) {
        const sdkc_pair *p = &c->pages->ops->pairs[i];
        if (sdkc_map_get(&c->pages->used, p->value))
            continue;
        pgreport rep = {c, p->key, false};
        if (sdkc_ir_operation(ir, p->key->str))
            sdkc_pg_report(&rep,
                           "pagination config: operation '%s' has no JSON success to page; entry "
                           "ignored",
                           p->key->str);
        else
            sdkc_pg_report(&rep, "pagination config: no compiled operation has the id '%s'",
                           p->key->str);
    }
    return !c->nomem;
}

/* ---- the pass ---- */

/* Decide op->pagination for a JSON success: the config entry for op->id, else an extension of
 * the operation object, else the heuristics. resp is the success response object. */
static void paginate(cctx *c, const sdkc_node *opnode, const sdkc_node *resp, sdkc_operation *op)
{
    const sdkc_node *entry = c->pages->ops ? sdkc_node_get(c->pages->ops, op->id) : NULL;
    if (entry) {
        if (!sdkc_map_put(&c->pages->used, entry, (void *)entry))
            c->nomem = true;
        from_config(c, entry, op);
        return;
    }
    if (!op->success.type)
        return;
    const sdkc_node *x;
    if ((x = sdkc_node_get(opnode, "x-speakeasy-pagination")) != NULL)
        sdkc_pg_speakeasy(c, x, op);
    else if ((x = sdkc_node_get(opnode, "x-fern-pagination")) != NULL)
        sdkc_pg_fern(c, x, op);
    else if ((x = sdkc_node_get(opnode, "x-stainless-pagination")) != NULL)
        sdkc_pg_stainless(c, x, op);
    else if ((x = sdkc_node_get(opnode, "x-ms-pageable")) != NULL)
        sdkc_pg_ms_pageable(c, x, op);
    else
        sdkc_pg_heuristics(c, opnode, resp, op);
}

bool sdkc_paging_decide(cctx *c, sdkc_ir *ir)
{
    (void)ir;
    for (size_t i = 0; i < c->nop_sources && !c->nomem; i++) {
        const sdkc_op_source *src = &c->op_sources[i];
        if (src->op->success.encoding == SDKC_ENC_JSON)
            paginate(c, src->node, src->success, src->op);
    }
    return !c->nomem;
}
