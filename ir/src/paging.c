/* paging.c - pagination: which style an operation's pages come in and what each style reads,
 * decided per operation from (first that applies) the --pagination config file, an extension of
 * the operation object (x-speakeasy-pagination, x-fern-pagination, x-stainless-pagination,
 * x-ms-pageable), or conservative heuristics over GET operations, where a parameter name and a
 * response field must both fit one style. What is ambiguous stays unpaginated: the operation is
 * still an ordinary call, and the config file can say what the contract does not.
 * docs/pagination.md describes the rules.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "compile_internal.h"

static const char *const STYLE_NAMES[] = {"cursor-object", "cursor-token", "cursor-item",
                                          "next-url",      "link-header",  "page-number",
                                          "offset"};
static const char *const SOURCE_NAMES[] = {"heuristic", "extension", "config"};

const char *sdkc_page_style_name(sdkc_page_style s)
{
    return (size_t)s < sizeof STYLE_NAMES / sizeof STYLE_NAMES[0] ? STYLE_NAMES[s] : "offset";
}

bool sdkc_page_style_parse(const char *name, sdkc_page_style *out)
{
    for (size_t i = 0; name && i < sizeof STYLE_NAMES / sizeof STYLE_NAMES[0]; i++) {
        if (strcmp(name, STYLE_NAMES[i]) == 0) {
            *out = (sdkc_page_style)i;
            return true;
        }
    }
    return false;
}

const char *sdkc_page_source_name(sdkc_page_source s)
{
    return (size_t)s < sizeof SOURCE_NAMES / sizeof SOURCE_NAMES[0] ? SOURCE_NAMES[s] : "heuristic";
}

bool sdkc_page_source_parse(const char *name, sdkc_page_source *out)
{
    for (size_t i = 0; name && i < sizeof SOURCE_NAMES / sizeof SOURCE_NAMES[0]; i++) {
        if (strcmp(name, SOURCE_NAMES[i]) == 0) {
            *out = (sdkc_page_source)i;
            return true;
        }
    }
    return false;
}

/* ---- what a recognition says, before it is checked against the operation ---- */

typedef struct pgspec {
    sdkc_page_style style;
    sdkc_page_source source;
    const char *reason;
    bool items_body;   /* the body is the array */
    const char *items; /* path of the items array; NULL (and !items_body): look for it */
    const char *cursor, *next, *previous, *has_more, *id;
    const char *param, *size_param; /* query parameter names */
} pgspec;

/* How problems with an explicit recognition are reported: heuristics stay silent (the operation
 * is simply not paginated), an extension the contract carries gets a warning, a config entry an
 * error (the user asked for it). */
typedef struct pgreport {
    cctx *c;
    const sdkc_node *at; /* NULL: silent */
    bool error;
} pgreport;

static void complain(const pgreport *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void complain(const pgreport *r, const char *fmt, ...)
{
    if (!r->at)
        return;
    va_list ap;
    va_start(ap, fmt);
    if (r->error)
        r->c->nerrors++;
    if (r->c->diag)
        sdkc_diag_vadd(r->c->diag, r->error ? SDKC_SEV_ERROR : SDKC_SEV_WARNING, r->at->loc, fmt,
                       ap);
    va_end(ap);
}

/* The field at a dotted path of object fields, or NULL. A field whose own name has dots
 * ("odata.nextLink") is taken first. */
static const sdkc_field *field_at(const sdkc_type *t, const char *path)
{
    char seg[256];
    const sdkc_field *f = path ? cc_field_of(t, path) : NULL;
    if (f)
        return f;
    while (path && *path) {
        const char *dot = strchr(path, '.');
        size_t n = dot ? (size_t)(dot - path) : strlen(path);
        if (n == 0 || n >= sizeof seg)
            return NULL;
        memcpy(seg, path, n);
        seg[n] = '\0';
        f = cc_field_of(t, seg);
        if (!f)
            return NULL;
        t = f->type;
        path = dot ? dot + 1 : NULL;
    }
    return f;
}

static bool kind_is(const sdkc_type *t, sdkc_type_kind k)
{
    t = cc_strip_nullable(t);
    return t && t->kind == k;
}

static bool field_kind(const sdkc_type *t, const char *path, sdkc_type_kind k)
{
    const sdkc_field *f = field_at(t, path);
    return f && kind_is(f->type, k);
}

/* The first of names that is a query parameter of op (of kind k unless k is -1). */
static const char *first_param(const sdkc_operation *op, const char *const *names, int k)
{
    for (size_t i = 0; names[i]; i++) {
        const sdkc_param *p = cc_query_param(op, names[i]);
        if (p && (k < 0 || kind_is(p->type, (sdkc_type_kind)k)))
            return names[i];
    }
    return NULL;
}

/* The first of names that is an integer or number query parameter of op. */
static const char *first_count_param(const sdkc_operation *op, const char *const *names)
{
    const char *n = first_param(op, names, SDKC_TYPE_INTEGER);
    return n ? n : first_param(op, names, SDKC_TYPE_NUMBER);
}

/* The first of paths that is a field of t of kind k. */
static const char *first_field(const sdkc_type *t, const char *const *paths, sdkc_type_kind k)
{
    for (size_t i = 0; paths[i]; i++)
        if (field_kind(t, paths[i], k))
            return paths[i];
    return NULL;
}

static const sdkc_type *array_items(const sdkc_type *t)
{
    t = cc_strip_nullable(t);
    return t && t->kind == SDKC_TYPE_ARRAY ? t->u.array.items : NULL;
}

static const char *const ITEM_NAMES[] = {"data",    "items",   "results",  "value",
                                         "entries", "records", "elements", NULL};

/* The items of a page body: the body when it is an array; else the first array field with a
 * usual name; else its only array field, or its only array of objects beside arrays of scalars.
 * NULL when none (or several, none usual). */
static const sdkc_type *find_items(const sdkc_type *body, const char **field, bool *is_body)
{
    *field = NULL;
    *is_body = false;
    const sdkc_type *it = array_items(body);
    if (it) {
        *is_body = true;
        return it;
    }
    body = cc_strip_nullable(body);
    if (!body || body->kind != SDKC_TYPE_OBJECT)
        return NULL;
    for (size_t i = 0; ITEM_NAMES[i]; i++) {
        const sdkc_field *f = cc_field_of(body, ITEM_NAMES[i]);
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
        if (kind_is(array_items(f->type), SDKC_TYPE_OBJECT)) {
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
    t = cc_strip_nullable(t);
    if (!t || depth > 4)
        return false;
    if (t->kind == SDKC_TYPE_UNION) {
        for (size_t i = 0; i < t->u.union_.nvariants; i++)
            if (!has_id(t->u.union_.variants[i].type, id, depth + 1))
                return false;
        return t->u.union_.nvariants > 0;
    }
    const sdkc_field *f = cc_field_of(t, id);
    return f && (kind_is(f->type, SDKC_TYPE_STRING) || kind_is(f->type, SDKC_TYPE_INTEGER));
}

/* A null the contract does not allow, accepted because live servers send it: marked lenient so
 * that conformance still reports it. */
static const sdkc_type *lenient_nullable(cctx *c, const sdkc_type *t)
{
    sdkc_type *n = cc_nullable(c, t, NULL);
    if (n && n != t)
        n->u.nullable.lenient = true;
    return n;
}

/* Check spec against op and, when it holds, make it op->pagination. */
static bool install(cctx *c, sdkc_operation *op, const pgspec *s, const pgreport *rep)
{
    const sdkc_type *body = op->success.type;
    const char *items_field = NULL;
    const sdkc_type *item = NULL;
    if (s->items_body) {
        item = array_items(body);
        if (!item) {
            complain(rep, "operation '%s': pagination: the success body is not an array", op->id);
            return false;
        }
    } else if (s->items) {
        const sdkc_field *f = field_at(body, s->items);
        item = f ? array_items(f->type) : NULL;
        items_field = s->items;
        if (!item) {
            complain(rep, "operation '%s': pagination: the success body has no array '%s'", op->id,
                     s->items);
            return false;
        }
    } else {
        bool is_body = false;
        item = find_items(body, &items_field, &is_body);
        if (!item) {
            complain(rep,
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
        const sdkc_field *cur = field_at(body, pg.cursor_field);
        pg.next_field = next ? next : "next";
        if (!cur || !kind_is(cur->type, SDKC_TYPE_OBJECT) ||
            !field_kind(cur->type, pg.next_field, SDKC_TYPE_STRING)) {
            complain(rep, "operation '%s': pagination: no string '%s.%s' in the success body",
                     op->id, pg.cursor_field, pg.next_field);
            return false;
        }
        const char *prev = s->previous ? s->previous : "previous";
        if (field_kind(cur->type, prev, SDKC_TYPE_STRING))
            pg.previous_field = prev;
        if (!param)
            param = "cursor";
        break;
    }
    case SDKC_PAGE_CURSOR_TOKEN:
    case SDKC_PAGE_NEXT_URL:
        if (!next || !field_kind(body, next, SDKC_TYPE_STRING)) {
            complain(rep, "operation '%s': pagination: %s needs a string field 'next' (%s)", op->id,
                     sdkc_page_style_name(s->style), next ? next : "not given");
            return false;
        }
        pg.next_field = next;
        break;
    case SDKC_PAGE_CURSOR_ITEM: {
        pg.item_id_field = s->id ? s->id : "id";
        if (!has_id(item, pg.item_id_field, 0)) {
            complain(rep, "operation '%s': pagination: the items have no string field '%s'", op->id,
                     pg.item_id_field);
            return false;
        }
        break;
    }
    default:
        break;
    }
    bool wants_param = s->style != SDKC_PAGE_NEXT_URL && s->style != SDKC_PAGE_LINK_HEADER;
    if (wants_param) {
        pg.cursor_param = cc_query_param(op, param);
        if (!pg.cursor_param) {
            complain(rep, "operation '%s': pagination: '%s' is not a query parameter", op->id,
                     param ? param : "(param not given)");
            return false;
        }
        bool counts = s->style == SDKC_PAGE_PAGE_NUMBER || s->style == SDKC_PAGE_OFFSET;
        if (counts && !kind_is(pg.cursor_param->type, SDKC_TYPE_INTEGER) &&
            !kind_is(pg.cursor_param->type, SDKC_TYPE_NUMBER)) {
            complain(rep, "operation '%s': pagination: parameter '%s' is not a number", op->id,
                     param);
            return false;
        }
    }
    if (s->size_param) {
        pg.size_param = cc_query_param(op, s->size_param);
        if (!pg.size_param) {
            complain(rep, "operation '%s': pagination: '%s' is not a query parameter", op->id,
                     s->size_param);
            return false;
        }
    }
    if (has_more) {
        if (!field_kind(body, has_more, SDKC_TYPE_BOOLEAN)) {
            complain(rep, "operation '%s': pagination: no boolean field '%s' in the success body",
                     op->id, has_more);
            return false;
        }
        pg.has_more_field = has_more;
    }
    sdkc_pagination *p = cc_alloc(c, sizeof *p);
    if (!p)
        return false;
    *p = pg;
    /* names are arena copies: config and extension texts belong to documents freed later */
    p->reason = cc_strdup(c, s->reason);
    p->items_field = pg.items_field ? cc_strdup(c, pg.items_field) : NULL;
    p->cursor_field = pg.cursor_field ? cc_strdup(c, pg.cursor_field) : NULL;
    p->next_field = pg.next_field ? cc_strdup(c, pg.next_field) : NULL;
    p->previous_field = pg.previous_field ? cc_strdup(c, pg.previous_field) : NULL;
    p->has_more_field = pg.has_more_field ? cc_strdup(c, pg.has_more_field) : NULL;
    p->item_id_field = pg.item_id_field ? cc_strdup(c, pg.item_id_field) : NULL;
    if (s->style == SDKC_PAGE_CURSOR_OBJECT) {
        /* the live OpenCode server sends null for an absent cursor: say so in the IR */
        const sdkc_field *cur = field_at(body, p->cursor_field);
        sdkc_field *mnext = (sdkc_field *)cc_field_of(cur->type, p->next_field);
        mnext->type = lenient_nullable(c, mnext->type);
        if (p->previous_field) {
            sdkc_field *mprev = (sdkc_field *)cc_field_of(cur->type, p->previous_field);
            mprev->type = lenient_nullable(c, mprev->type);
        }
    }
    op->pagination = p;
    return true;
}

/* ---- heuristics ---- */

static const char *const TOKEN_FIELDS[] = {"next_cursor",
                                           "nextCursor",
                                           "next_page_token",
                                           "nextPageToken",
                                           "next_token",
                                           "nextToken",
                                           "meta.next_cursor",
                                           "pagination.next_cursor",
                                           "response_metadata.next_cursor",
                                           "page_info.next_cursor",
                                           "meta.nextCursor",
                                           "pagination.nextCursor",
                                           "next_page",
                                           "cursor",
                                           NULL};
static const char *const TOKEN_PARAMS[] = {"cursor",    "page_token",  "pageToken",  "next_token",
                                           "nextToken", "page_cursor", "pageCursor", "page",
                                           "Cursor",    NULL};
static const char *const URL_FIELDS[] = {"next_page_uri",
                                         "next_page_url",
                                         "nextPageUrl",
                                         "nextLink",
                                         "next_link",
                                         "next_url",
                                         "nextUrl",
                                         "links.next",
                                         "_links.next.href",
                                         "_links.next",
                                         "meta.next_page_url",
                                         "meta.next_page_uri",
                                         "meta.next",
                                         "paging.next",
                                         "pagination.next_url",
                                         "_metadata.next",
                                         NULL};
static const char *const ITEM_PARAMS[] = {"starting_after", "after", NULL};
static const char *const MORE_FIELDS[] = {"has_more", "hasMore", "more", NULL};
static const char *const PAGE_PARAMS[] = {"page", "pageNumber", "page_number", "page[number]",
                                          NULL};
static const char *const PAGE_SIZE_PARAMS[] = {"per_page", "page_size", "pageSize",   "perPage",
                                               "limit",    "size",      "page[size]", NULL};
static const char *const OFFSET_PARAMS[] = {"offset", "skip", NULL};
static const char *const LIMIT_PARAMS[] = {"limit", "take", NULL};

static bool declares_link_header(const sdkc_node *resp)
{
    const sdkc_node *h = sdkc_node_get(resp, "headers");
    for (size_t i = 0; h && h->kind == SDKC_NODE_MAP && i < h->npairs; i++)
        if (strcasecmp(h->pairs[i].key->str, "link") == 0)
            return true;
    return false;
}

/* `next` holds a URL when it is declared as one (format uri) or sits under a links object. */
static bool url_field(const sdkc_type *body, const char *path)
{
    const sdkc_field *f = field_at(body, path);
    if (!f || !kind_is(f->type, SDKC_TYPE_STRING))
        return false;
    const char *fmt = cc_strip_nullable(f->type)->u.str.format;
    if (strchr(path, '.'))
        return true;
    return strcmp(path, "next") != 0 ||
           (fmt && (strcmp(fmt, "uri") == 0 || strcmp(fmt, "url") == 0 ||
                    strcmp(fmt, "uri-reference") == 0));
}

/* Does a parameter's description say it takes an id (the word "id", any case)? */
static bool says_id(const char *docs)
{
    for (const char *p = docs; p && *p; p++) {
        bool start = p == docs || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
        if (start && (p[0] == 'i' || p[0] == 'I') && (p[1] == 'd' || p[1] == 'D') &&
            !(isalnum((unsigned char)p[2]) || p[2] == '_'))
            return true;
    }
    return false;
}

static void heuristics(cctx *c, const sdkc_node *resp, sdkc_operation *op)
{
    if (strcmp(op->method, "GET") != 0)
        return;
    const sdkc_type *body = op->success.type;
    const char *items = NULL;
    bool is_body = false;
    if (!find_items(body, &items, &is_body))
        return;
    pgspec s = {0};
    s.source = SDKC_PAGE_FROM_HEURISTIC;
    pgreport quiet = {c, NULL, false};
    /* OpenCode's shape: {data, cursor: {next, previous}} and a cursor parameter */
    const sdkc_field *cur = cc_field_of(body, "cursor");
    if (items && strcmp(items, "data") == 0 && cur && kind_is(cur->type, SDKC_TYPE_OBJECT) &&
        cc_query_param(op, "cursor")) {
        s.style = SDKC_PAGE_CURSOR_OBJECT;
        s.items = "data";
        s.reason = "heuristic: cursor + cursor.next";
        if (install(c, op, &s, &quiet))
            return;
    }
    s.items = items;
    s.items_body = is_body;
    if (declares_link_header(resp)) {
        s.style = SDKC_PAGE_LINK_HEADER;
        s.reason = "heuristic: Link header";
        install(c, op, &s, &quiet);
        return;
    }
    for (size_t i = 0; !is_body && URL_FIELDS[i]; i++) {
        if (!url_field(body, URL_FIELDS[i]))
            continue;
        s.style = SDKC_PAGE_NEXT_URL;
        s.next = URL_FIELDS[i];
        s.reason = cc_printf(c, "heuristic: %s", URL_FIELDS[i]);
        install(c, op, &s, &quiet);
        return;
    }
    const char *more = is_body ? NULL : first_field(body, MORE_FIELDS, SDKC_TYPE_BOOLEAN);
    const char *tok = is_body ? NULL : first_field(body, TOKEN_FIELDS, SDKC_TYPE_STRING);
    const char *tokp = first_param(op, TOKEN_PARAMS, SDKC_TYPE_STRING);
    /* Asana: an offset token (a string `offset`, never a count) and next_page {offset, path,
     * uri}; the token, not the absolute uri, so that the request keeps the client's base URL */
    const sdkc_param *token_offset = cc_query_param(op, "offset");
    if (!is_body && token_offset && kind_is(token_offset->type, SDKC_TYPE_STRING) &&
        field_kind(body, "next_page.offset", SDKC_TYPE_STRING)) {
        tok = "next_page.offset";
        tokp = "offset";
    }
    if (tok && tokp) {
        s.style = SDKC_PAGE_CURSOR_TOKEN;
        s.next = tok;
        s.param = tokp;
        s.has_more = more;
        s.reason = cc_printf(c, "heuristic: %s + %s", tokp, tok);
        install(c, op, &s, &quiet);
        return;
    }
    const char *after = first_param(op, ITEM_PARAMS, SDKC_TYPE_STRING);
    if (after && strcmp(after, "after") == 0 && !says_id(cc_query_param(op, after)->docs))
        after =
            NULL; /* `after` may be a sequence number or a time: only an id is the last item's */
    const char *page = first_count_param(op, PAGE_PARAMS);
    const char *size = first_count_param(op, PAGE_SIZE_PARAMS);
    const char *off = first_count_param(op, OFFSET_PARAMS);
    const char *lim = first_count_param(op, LIMIT_PARAMS);
    /* a parameter and what confirms it, in order: the first pair present wins */
    const struct {
        sdkc_page_style style;
        const char *param, *other;
        bool other_is_size;
    } pairs[] = {
        {SDKC_PAGE_CURSOR_ITEM, after, more, false},
        {SDKC_PAGE_PAGE_NUMBER, page, size, true},
        {SDKC_PAGE_OFFSET, off, lim, true},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        if (!pairs[i].param || !pairs[i].other)
            continue;
        s.style = pairs[i].style;
        s.param = pairs[i].param;
        s.size_param = pairs[i].other_is_size ? pairs[i].other : NULL;
        s.has_more = more;
        s.reason = cc_printf(c, "heuristic: %s + %s", pairs[i].param, pairs[i].other);
        install(c, op, &s, &quiet);
        return;
    }
}

/* ---- extensions ---- */

/* A response JSONPath as the extensions write it ("$.data.items", "$response.next",
 * "$response.body#/next" is not supported) as a dotted path; "" for the body itself. NULL when
 * the path uses anything but plain member steps. */
static const char *json_path(cctx *c, const char *p, const char *root)
{
    size_t rl = strlen(root);
    if (!p || strncmp(p, root, rl) != 0)
        return NULL;
    p += rl;
    if (*p == '\0')
        return "";
    if (*p != '.')
        return NULL;
    p++;
    for (const char *q = p; *q; q++)
        if (*q == '[' || *q == '*' || *q == '#' || *q == '/' || *q == ' ')
            return NULL;
    return cc_strdup(c, p);
}

/* "$.data[-1].id" (the last item's id): items path and id field. */
static bool last_item_path(cctx *c, const char *p, const char **items, const char **id)
{
    const char *m = p ? strstr(p, "[-1].") : NULL;
    if (!m || strncmp(p, "$.", 2) != 0 || m == p + 2)
        return false;
    *items = cc_printf(c, "%.*s", (int)(m - p - 2), p + 2);
    *id = cc_strdup(c, m + 5);
    return *items && *id && !strchr(*id, '.') && !strchr(*id, '[');
}

static void items_from_path(pgspec *s, const char *path)
{
    if (!path)
        return;
    if (*path == '\0')
        s->items_body = true;
    else
        s->items = path;
}

static bool speakeasy(cctx *c, const sdkc_node *x, sdkc_operation *op)
{
    pgreport rep = {c, x, false};
    pgspec s = {0};
    s.source = SDKC_PAGE_FROM_EXTENSION;
    s.reason = "x-speakeasy-pagination";
    const char *type = cc_text(sdkc_node_get(x, "type"));
    const sdkc_node *inputs = sdkc_node_get(x, "inputs");
    const sdkc_node *outputs = sdkc_node_get(x, "outputs");
    const char *results = cc_text(sdkc_node_get(outputs, "results"));
    if (results) {
        const char *p = json_path(c, results, "$");
        if (!p) {
            complain(&rep,
                     "operation '%s': x-speakeasy-pagination: results '%s' is not a plain "
                     "member path; operation not paginated",
                     op->id, results);
            return false;
        }
        items_from_path(&s, p);
    }
    const char *in_page = NULL, *in_offset = NULL, *in_limit = NULL, *in_cursor = NULL;
    for (size_t i = 0; inputs && inputs->kind == SDKC_NODE_SEQ && i < inputs->nitems; i++) {
        const sdkc_node *in = inputs->items[i];
        const char *name = cc_text(sdkc_node_get(in, "name"));
        const char *where = cc_text(sdkc_node_get(in, "in"));
        const char *t = cc_text(sdkc_node_get(in, "type"));
        if (!name || !t)
            continue;
        if (where && strcmp(where, "parameters") != 0) {
            complain(&rep,
                     "operation '%s': x-speakeasy-pagination: input '%s' in %s is not "
                     "supported (only parameters); operation not paginated",
                     op->id, name, where);
            return false;
        }
        if (strcmp(t, "page") == 0)
            in_page = name;
        else if (strcmp(t, "offset") == 0)
            in_offset = name;
        else if (strcmp(t, "limit") == 0)
            in_limit = name;
        else if (strcmp(t, "cursor") == 0)
            in_cursor = name;
    }
    if (type && strcmp(type, "offsetLimit") == 0 && (in_page || in_offset)) {
        s.style = in_page ? SDKC_PAGE_PAGE_NUMBER : SDKC_PAGE_OFFSET;
        s.param = in_page ? in_page : in_offset;
        s.size_param = in_limit;
        return install(c, op, &s, &rep);
    }
    if (type && strcmp(type, "cursor") == 0 && in_cursor) {
        const char *nc = cc_text(sdkc_node_get(outputs, "nextCursor"));
        const char *items = NULL, *id = NULL;
        s.param = in_cursor;
        s.size_param = in_limit;
        if (last_item_path(c, nc, &items, &id)) {
            s.style = SDKC_PAGE_CURSOR_ITEM;
            s.items = items;
            s.items_body = false;
            s.id = id;
            s.has_more = first_field(op->success.type, MORE_FIELDS, SDKC_TYPE_BOOLEAN);
            return install(c, op, &s, &rep);
        }
        s.style = SDKC_PAGE_CURSOR_TOKEN;
        s.next = json_path(c, nc, "$");
        return install(c, op, &s, &rep);
    }
    if (type && strcmp(type, "url") == 0) {
        s.style = SDKC_PAGE_NEXT_URL;
        s.next = json_path(c, cc_text(sdkc_node_get(outputs, "nextUrl")), "$");
        return install(c, op, &s, &rep);
    }
    complain(&rep,
             "operation '%s': x-speakeasy-pagination: type '%s' with these inputs is not "
             "understood; operation not paginated",
             op->id, type ? type : "(none)");
    return false;
}

/* "$request.name" -> "name" */
static const char *request_name(const char *p)
{
    return p && strncmp(p, "$request.", 9) == 0 && p[9] && !strchr(p + 9, '.') ? p + 9 : NULL;
}

static bool fern(cctx *c, const sdkc_node *x, sdkc_operation *op)
{
    pgreport rep = {c, x, false};
    pgspec s = {0};
    s.source = SDKC_PAGE_FROM_EXTENSION;
    s.reason = "x-fern-pagination";
    const char *results = cc_text(sdkc_node_get(x, "results"));
    if (results)
        items_from_path(&s, json_path(c, results, "$response"));
    const char *more = cc_text(sdkc_node_get(x, "has-next-page"));
    s.has_more = more ? json_path(c, more, "$response") : NULL;
    const char *cursor = request_name(cc_text(sdkc_node_get(x, "cursor")));
    const char *offset = request_name(cc_text(sdkc_node_get(x, "offset")));
    const char *next_uri = cc_text(sdkc_node_get(x, "next_uri"));
    if (cursor) {
        s.style = SDKC_PAGE_CURSOR_TOKEN;
        s.param = cursor;
        s.next = json_path(c, cc_text(sdkc_node_get(x, "next_cursor")), "$response");
        return install(c, op, &s, &rep);
    }
    if (offset) {
        /* with a step the offset advances by items; without, it counts pages */
        const char *step = request_name(cc_text(sdkc_node_get(x, "step")));
        s.style = step ? SDKC_PAGE_OFFSET : SDKC_PAGE_PAGE_NUMBER;
        s.param = offset;
        s.size_param = step;
        return install(c, op, &s, &rep);
    }
    if (next_uri) {
        s.style = SDKC_PAGE_NEXT_URL;
        s.next = json_path(c, next_uri, "$response");
        return install(c, op, &s, &rep);
    }
    complain(&rep,
             "operation '%s': x-fern-pagination: neither cursor, offset nor next_uri is a "
             "$request/$response reference; operation not paginated",
             op->id);
    return false;
}

/* Stainless names a page type; the fields are found as the heuristics find them, within that
 * type only. An object form may name them: {type, items, param, next, has_more, id}. */
static bool stainless(cctx *c, const sdkc_node *x, sdkc_operation *op)
{
    pgreport rep = {c, x, false};
    pgspec s = {0};
    s.source = SDKC_PAGE_FROM_EXTENSION;
    s.reason = "x-stainless-pagination";
    const sdkc_node *obj = x->kind == SDKC_NODE_MAP ? x : NULL;
    const char *type = obj ? cc_text(sdkc_node_get(obj, "type")) : cc_text(x);
    const sdkc_type *body = op->success.type;
    s.items = obj ? cc_text(sdkc_node_get(obj, "items")) : NULL;
    s.param = obj ? cc_text(sdkc_node_get(obj, "param")) : NULL;
    s.next = obj ? cc_text(sdkc_node_get(obj, "next")) : NULL;
    s.has_more = obj ? cc_text(sdkc_node_get(obj, "has_more")) : NULL;
    s.id = obj ? cc_text(sdkc_node_get(obj, "id")) : NULL;
    if (!s.has_more)
        s.has_more = first_field(body, MORE_FIELDS, SDKC_TYPE_BOOLEAN);
    if (type && strcmp(type, "cursor_id") == 0) {
        s.style = SDKC_PAGE_CURSOR_ITEM;
        if (!s.param)
            s.param = first_param(op, ITEM_PARAMS, -1);
    } else if (type && strcmp(type, "cursor") == 0) {
        s.style = SDKC_PAGE_CURSOR_TOKEN;
        if (!s.param)
            s.param = first_param(op, TOKEN_PARAMS, -1);
        if (!s.next)
            s.next = first_field(body, TOKEN_FIELDS, SDKC_TYPE_STRING);
    } else if (type && strcmp(type, "cursor_url") == 0) {
        s.style = SDKC_PAGE_NEXT_URL;
        for (size_t i = 0; !s.next && URL_FIELDS[i]; i++)
            if (field_kind(body, URL_FIELDS[i], SDKC_TYPE_STRING))
                s.next = URL_FIELDS[i];
    } else if (type && strcmp(type, "page_number") == 0) {
        s.style = SDKC_PAGE_PAGE_NUMBER;
        if (!s.param)
            s.param = first_param(op, PAGE_PARAMS, -1);
        s.size_param = first_param(op, PAGE_SIZE_PARAMS, -1);
    } else if (type && strcmp(type, "offset") == 0) {
        s.style = SDKC_PAGE_OFFSET;
        if (!s.param)
            s.param = first_param(op, OFFSET_PARAMS, -1);
        s.size_param = first_param(op, LIMIT_PARAMS, -1);
    } else {
        complain(&rep,
                 "operation '%s': x-stainless-pagination: page type '%s' is not one of "
                 "cursor, cursor_id, cursor_url, page_number, offset; operation not "
                 "paginated",
                 op->id, type ? type : "(none)");
        return false;
    }
    return install(c, op, &s, &rep);
}

/* Azure's x-ms-pageable: {nextLinkName, itemName (default "value")}; a null nextLinkName means
 * one page. */
static bool ms_pageable(cctx *c, const sdkc_node *x, sdkc_operation *op)
{
    pgreport rep = {c, x, false};
    const sdkc_node *nl = sdkc_node_get(x, "nextLinkName");
    if (!nl || nl->kind != SDKC_NODE_SCALAR || nl->scalar == SDKC_SCALAR_NULL)
        return false; /* all items in one response: nothing to follow */
    pgspec s = {0};
    s.source = SDKC_PAGE_FROM_EXTENSION;
    s.reason = "x-ms-pageable";
    s.style = SDKC_PAGE_NEXT_URL;
    s.next = cc_text(nl);
    const char *item = cc_text(sdkc_node_get(x, "itemName"));
    s.items = item ? item : "value";
    return install(c, op, &s, &rep);
}

/* ---- config file ---- */

bool cc_pages_config_load(cctx *c)
{
    const char *path = c->opts->pagination_file;
    if (!path)
        return true;
    sdkc_status st = sdkc_doc_load_file(&c->pages_doc, path, c->diag);
    if (st == SDKC_ERR_NOMEM)
        return false;
    if (st != SDKC_OK) {
        c->nerrors++; /* the loader said why */
        return true;
    }
    const sdkc_node *root = sdkc_doc_root(c->pages_doc);
    pgreport rep = {c, root, true};
    const sdkc_node *ops = sdkc_node_get(root, "operations");
    if (!root || root->kind != SDKC_NODE_MAP || !ops || ops->kind != SDKC_NODE_MAP) {
        complain(&rep, "pagination config: expected a mapping with an 'operations' mapping");
        return true;
    }
    for (size_t i = 0; i < root->npairs; i++) {
        if (strcmp(root->pairs[i].key->str, "operations") != 0) {
            rep.at = root->pairs[i].key;
            complain(&rep, "pagination config: unknown key '%s'", root->pairs[i].key->str);
        }
    }
    c->pages_ops = ops;
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
        complain(&rep,
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
            complain(&at,
                     "pagination config: unknown key '%s' (expected one of style, items, "
                     "cursor, next, previous, has_more, id, param, size_param)",
                     k);
            return;
        }
        if (v->kind != SDKC_NODE_SCALAR || v->scalar != SDKC_SCALAR_STRING) {
            at.at = v;
            complain(&at, "pagination config: '%s' must be a string", k);
            return;
        }
        const char *t = v->str;
        switch (j) {
        case 0:
            if (!sdkc_page_style_parse(t, &s.style)) {
                at.at = v;
                complain(&at,
                         "pagination config: unknown style '%s' (expected cursor-object, "
                         "cursor-token, cursor-item, next-url, link-header, page-number, "
                         "offset)",
                         t);
                return;
            }
            break;
        case 1:
            items_from_path(&s, strcmp(t, "$") == 0 ? "" : t);
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
        complain(&rep, "pagination config: operation '%s': 'style' is required", op->id);
        return;
    }
    s.reason = cc_printf(c, "config %s:%u:%u", nz(entry->loc.file), (unsigned)entry->loc.line,
                         (unsigned)entry->loc.col);
    install(c, op, &s, &rep);
}

void cc_pages_config_finish(cctx *c, const sdkc_ir *ir)
{
    if (!c->pages_ops)
        return;
    for (size_t i = 0; i < c->pages_ops->npairs; i++) {
        const sdkc_pair *p = &c->pages_ops->pairs[i];
        if (sdkc_map_get(&c->pages_used, p->value))
            continue;
        pgreport rep = {c, p->key, false};
        if (sdkc_ir_operation(ir, p->key->str))
            complain(&rep,
                     "pagination config: operation '%s' has no JSON success to page; entry "
                     "ignored",
                     p->key->str);
        else
            complain(&rep, "pagination config: no compiled operation has the id '%s'", p->key->str);
    }
}

/* ---- entry ---- */

void cc_paginate(cctx *c, const sdkc_node *opnode, const sdkc_node *resp, sdkc_operation *op)
{
    const sdkc_node *entry = c->pages_ops ? sdkc_node_get(c->pages_ops, op->id) : NULL;
    if (entry) {
        if (!sdkc_map_put(&c->pages_used, entry, (void *)entry))
            c->nomem = true;
        from_config(c, entry, op);
        return;
    }
    if (!op->success.type)
        return;
    const sdkc_node *x;
    if ((x = sdkc_node_get(opnode, "x-speakeasy-pagination")) != NULL)
        speakeasy(c, x, op);
    else if ((x = sdkc_node_get(opnode, "x-fern-pagination")) != NULL)
        fern(c, x, op);
    else if ((x = sdkc_node_get(opnode, "x-stainless-pagination")) != NULL)
        stainless(c, x, op);
    else if ((x = sdkc_node_get(opnode, "x-ms-pageable")) != NULL)
        ms_pageable(c, x, op);
    else
        heuristics(c, resp, op);
}
