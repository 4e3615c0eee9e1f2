/* paging_detect.c - recognising an operation's pagination: from an extension of the operation
 * object (x-speakeasy-pagination, x-fern-pagination, x-stainless-pagination, x-ms-pageable) or
 * from the heuristics over GET operations, where a parameter name and a response field must both
 * fit one style. docs/pagination.md describes the rules. */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "paging_internal.h"

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
                                         "next",
                                         NULL};
static const char *const ITEM_PARAMS[] = {"starting_after", "after", NULL};
static const char *const MORE_FIELDS[] = {"has_more", "hasMore", "more", NULL};
static const char *const PAGE_PARAMS[] = {"page", "pageNumber", "page_number", "page[number]",
                                          NULL};
static const char *const PAGE_SIZE_PARAMS[] = {"per_page", "page_size", "pageSize",   "perPage",
                                               "limit",    "size",      "page[size]", NULL};
static const char *const OFFSET_PARAMS[] = {"offset", "skip", "startAt", "startIndex", NULL};
static const char *const LIMIT_PARAMS[] = {"limit",      "take",     "count",
                                           "maxResults", "maxCount", NULL};
/* string parameters a plain `next` token could be sent back in */
static const char *const TOKEN_BACK_PARAMS[] = {"next", "start", "from", "marker", "after", NULL};

static bool zero_based(const char *docs);

/* The first of names that is a query parameter of op that counts (sdkc_pg_counts). A
 * `startIndex` counts only when said to start at 0 (PI Web API, Google's; SCIM's is 1-based). */
static const char *first_count_param(const sdkc_operation *op, const char *const *names)
{
    for (size_t i = 0; names[i]; i++) {
        const sdkc_param *p = sdkc_op_query_param(op, names[i]);
        if (p && sdkc_pg_counts(p->type) &&
            (strcmp(names[i], "startIndex") != 0 || zero_based(p->docs)))
            return names[i];
    }
    return NULL;
}

/* Does text contain one of words (ASCII, any case) as a whole word? */
static bool says_word(const char *text, const char *const *words)
{
    for (const char *p = text; p && *p; p++) {
        if (p != text && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
            continue;
        for (size_t i = 0; words[i]; i++) {
            size_t n = strlen(words[i]);
            if (strncasecmp(p, words[i], n) == 0 && !(isalnum((unsigned char)p[n]) || p[n] == '_'))
                return true;
        }
    }
    return false;
}

/* Does a description say the index starts at 0 ("zero based", "0-based", "starts at 0", "The
 * default is 0")? */
static bool zero_based(const char *docs)
{
    static const char *const says[] = {"zero based",   "zero-based",     "0-based", "starts at 0",
                                       "default is 0", "default is '0'", NULL};
    for (const char *p = docs; p && *p; p++)
        for (size_t i = 0; says[i]; i++)
            if (strncasecmp(p, says[i], strlen(says[i])) == 0)
                return true;
    return false;
}

static const char *const TOKEN_WORDS[] = {"token", "tokens", "cursor", "opaque", NULL};

/* A string parameter that may carry a token: one of names, or said to take a token. */
static bool token_param(const sdkc_param *p)
{
    if (!p || !sdkc_pg_kind_is(p->type, SDKC_TYPE_STRING))
        return false;
    for (size_t i = 0; TOKEN_PARAMS[i]; i++)
        if (strcmp(p->wire_name, TOKEN_PARAMS[i]) == 0)
            return true;
    for (size_t i = 0; TOKEN_BACK_PARAMS[i]; i++)
        if (strcmp(p->wire_name, TOKEN_BACK_PARAMS[i]) == 0)
            return true;
    return says_word(p->docs, TOKEN_WORDS);
}

/* A page number or offset declared as a string (illumidesk's offset/limit, VTEX's page/size): it
 * counts when its size parameter is a string too, so that the contract writes every number of
 * the pair as a string, and neither is said to be a token (Asana's string `offset` is a token,
 * its `limit` an integer). *param and *size are set when the pair holds. */
static bool string_pair(const sdkc_operation *op, const char *const *names,
                        const char *const *sizes, const char **param, const char **size)
{
    const char *n = sdkc_pg_first_param(op, names, SDKC_TYPE_STRING);
    const char *s = sdkc_pg_first_param(op, sizes, SDKC_TYPE_STRING);
    if (!n || !s || says_word(sdkc_op_query_param(op, n)->docs, TOKEN_WORDS) ||
        says_word(sdkc_op_query_param(op, s)->docs, TOKEN_WORDS))
        return false;
    *param = n;
    *size = s;
    return true;
}

static bool declares_link_header(const sdkc_node *resp)
{
    const sdkc_node *h = sdkc_node_get(resp, "headers");
    for (size_t i = 0; h && h->kind == SDKC_NODE_MAP && i < h->npairs; i++)
        if (strcasecmp(h->pairs[i].key->str, "link") == 0)
            return true;
    return false;
}

static const char *const URL_WORDS[] = {"url",   "urls", "uri",  "uris", "link",
                                        "links", "path", "href", NULL};

/* A plain `next` holds a URL when it is declared as one (format uri), when its description says
 * so (URL, URI, link, path, href: Spotify, Docker Hub, eBay, Jira), or, undescribed, when no
 * string parameter could take a token back (Mist: `next` beside integer start/end times); a
 * described `next` that says none of those is a token or a flag (Shutterstock's "cursor value",
 * eBay's "for future use"). Other names are URLs by name or under a links object. */
static bool url_field(const sdkc_operation *op, const sdkc_type *body, const char *path)
{
    const sdkc_field *f = sdkc_pg_field_at(body, path);
    if (!f || !sdkc_pg_kind_is(f->type, SDKC_TYPE_STRING))
        return false;
    const char *fmt = sdkc_type_strip_nullable(f->type)->u.str.format;
    if (strcmp(path, "next") != 0)
        return true; /* a URL by its name, or under a links object */
    if (fmt &&
        (strcmp(fmt, "uri") == 0 || strcmp(fmt, "url") == 0 || strcmp(fmt, "uri-reference") == 0))
        return true;
    const char *docs = f->docs ? f->docs : sdkc_type_strip_nullable(f->type)->docs;
    if (docs && *docs)
        return says_word(docs, URL_WORDS);
    for (size_t i = 0; i < op->nparams; i++)
        if (op->params[i].in == SDKC_PARAM_QUERY && token_param(&op->params[i]))
            return false;
    return true;
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

/* The parameter object of op's query parameter name: the operation's, else its path item's. */
static const sdkc_node *param_node(cctx *c, const sdkc_node *opnode, const sdkc_operation *op,
                                   const char *name)
{
    const sdkc_node *item = sdkc_node_get(sdkc_node_get(c->root, "paths"), op->path);
    const sdkc_node *lists[2] = {sdkc_node_get(opnode, "parameters"), NULL};
    if (item && sdkc_node_get(item, "get") == opnode)
        lists[1] = sdkc_node_get(item, "parameters");
    for (size_t l = 0; l < 2; l++) {
        for (size_t i = 0; lists[l] && lists[l]->kind == SDKC_NODE_SEQ && i < lists[l]->nitems;
             i++) {
            const sdkc_node *p = sdkc_cc_deref_quiet(c, lists[l]->items[i]);
            const char *n = sdkc_cc_text(sdkc_node_get(p, "name"));
            const char *in = sdkc_cc_text(sdkc_node_get(p, "in"));
            if (n && in && strcmp(n, name) == 0 && strcmp(in, "query") == 0)
                return p;
        }
    }
    return NULL;
}

static bool is_zero(const sdkc_node *n)
{
    return n && n->kind == SDKC_NODE_SCALAR && n->scalar != SDKC_SCALAR_NULL &&
           n->scalar != SDKC_SCALAR_BOOL && n->str && strcmp(n->str, "0") == 0;
}

/* Does page number param start at 0: its default is 0 (or, without a default, its example), or
 * its description says so? The walk takes a request without the parameter for page 1 and asks
 * for page 2 next, which would skip page 1 of such an API (Ticketmaster, SwaggerHub). */
static bool starts_at_zero(cctx *c, const sdkc_node *opnode, const sdkc_operation *op,
                           const char *param)
{
    if (zero_based(sdkc_op_query_param(op, param)->docs))
        return true;
    const sdkc_node *p = param_node(c, opnode, op, param);
    const sdkc_node *schema = sdkc_cc_deref_quiet(c, sdkc_node_get(p, "schema"));
    const sdkc_node *dflt = sdkc_node_get(schema, "default");
    if (dflt)
        return is_zero(dflt);
    const sdkc_node *ex = sdkc_node_get(p, "example");
    return is_zero(ex ? ex : sdkc_node_get(schema, "example"));
}

void sdkc_pg_heuristics(cctx *c, const sdkc_node *opnode, const sdkc_node *resp, sdkc_operation *op)
{
    if (strcmp(op->method, "GET") != 0)
        return;
    const sdkc_type *body = op->success.type;
    const char *items = NULL;
    bool is_body = false;
    if (!sdkc_pg_find_items(body, &items, &is_body))
        return;
    pgspec s = {0};
    s.source = SDKC_PAGE_FROM_HEURISTIC;
    pgreport quiet = {c, NULL, false};
    /* OpenCode's shape: {data, cursor: {next, previous}} and a cursor parameter */
    const sdkc_field *cur = sdkc_type_field(body, "cursor");
    if (items && strcmp(items, "data") == 0 && cur &&
        sdkc_pg_kind_is(cur->type, SDKC_TYPE_OBJECT) && sdkc_op_query_param(op, "cursor")) {
        s.style = SDKC_PAGE_CURSOR_OBJECT;
        s.items = "data";
        s.reason = "heuristic: cursor + cursor.next";
        if (sdkc_pg_adopt_spec(c, op, &s, &quiet))
            return;
    }
    s.items = items;
    s.items_body = is_body;
    if (declares_link_header(resp)) {
        s.style = SDKC_PAGE_LINK_HEADER;
        s.reason = "heuristic: Link header";
        sdkc_pg_adopt_spec(c, op, &s, &quiet);
        return;
    }
    for (size_t i = 0; !is_body && URL_FIELDS[i]; i++) {
        if (!url_field(op, body, URL_FIELDS[i]))
            continue;
        s.style = SDKC_PAGE_NEXT_URL;
        s.next = URL_FIELDS[i];
        s.reason = sdkc_cc_printf(c, "heuristic: %s", URL_FIELDS[i]);
        sdkc_pg_adopt_spec(c, op, &s, &quiet);
        return;
    }
    const char *more = is_body ? NULL : sdkc_pg_first_field(body, MORE_FIELDS, SDKC_TYPE_BOOLEAN);
    const char *tok = is_body ? NULL : sdkc_pg_first_field(body, TOKEN_FIELDS, SDKC_TYPE_STRING);
    const char *tokp = sdkc_pg_first_param(op, TOKEN_PARAMS, SDKC_TYPE_STRING);
    /* Asana: an offset token (a string `offset`, never a count) and next_page {offset, path,
     * uri}; the token, not the absolute uri, so that the request keeps the client's base URL */
    const sdkc_param *token_offset = sdkc_op_query_param(op, "offset");
    if (!is_body && token_offset && sdkc_pg_kind_is(token_offset->type, SDKC_TYPE_STRING) &&
        sdkc_pg_field_kind(body, "next_page.offset", SDKC_TYPE_STRING)) {
        tok = "next_page.offset";
        tokp = "offset";
    }
    if (tok && tokp) {
        s.style = SDKC_PAGE_CURSOR_TOKEN;
        s.next = tok;
        s.param = tokp;
        s.has_more = more;
        s.reason = sdkc_cc_printf(c, "heuristic: %s + %s", tokp, tok);
        sdkc_pg_adopt_spec(c, op, &s, &quiet);
        return;
    }
    const char *after = sdkc_pg_first_param(op, ITEM_PARAMS, SDKC_TYPE_STRING);
    if (after && strcmp(after, "after") == 0 && !says_id(sdkc_op_query_param(op, after)->docs))
        after =
            NULL; /* `after` may be a sequence number or a time: only an id is the last item's */
    const char *page = first_count_param(op, PAGE_PARAMS);
    const char *size = first_count_param(op, PAGE_SIZE_PARAMS);
    const char *off = first_count_param(op, OFFSET_PARAMS);
    const char *lim = first_count_param(op, LIMIT_PARAMS);
    bool page_text = false, off_text = false;
    if (!(page && size))
        page_text = string_pair(op, PAGE_PARAMS, PAGE_SIZE_PARAMS, &page, &size);
    if (!(off && lim))
        off_text = string_pair(op, OFFSET_PARAMS, LIMIT_PARAMS, &off, &lim);
    /* a parameter and what confirms it, in order: the first pair present wins */
    const struct {
        sdkc_page_style style;
        const char *param, *other;
        bool other_is_size, text;
    } pairs[] = {
        {SDKC_PAGE_CURSOR_ITEM, after, more, false, false},
        {SDKC_PAGE_PAGE_NUMBER, page, size, true, page_text},
        {SDKC_PAGE_OFFSET, off, lim, true, off_text},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        if (!pairs[i].param || !pairs[i].other)
            continue;
        if (pairs[i].style == SDKC_PAGE_PAGE_NUMBER && starts_at_zero(c, opnode, op, page))
            continue;
        s.style = pairs[i].style;
        s.param = pairs[i].param;
        s.size_param = pairs[i].other_is_size ? pairs[i].other : NULL;
        s.has_more = more;
        s.count_text = pairs[i].text;
        s.reason = sdkc_cc_printf(c, "heuristic: %s + %s%s", pairs[i].param, pairs[i].other,
                                  pairs[i].text ? " (strings)" : "");
        sdkc_pg_adopt_spec(c, op, &s, &quiet);
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
    return sdkc_cc_strdup(c, p);
}

/* "$.data[-1].id" (the last item's id): items path and id field. */
static bool last_item_path(cctx *c, const char *p, const char **items, const char **id)
{
    const char *m = p ? strstr(p, "[-1].") : NULL;
    if (!m || strncmp(p, "$.", 2) != 0 || m == p + 2)
        return false;
    *items = sdkc_cc_printf(c, "%.*s", (int)(m - p - 2), p + 2);
    *id = sdkc_cc_strdup(c, m + 5);
    return *items && *id && !strchr(*id, '.') && !strchr(*id, '[');
}

void sdkc_pg_items_from_path(pgspec *s, const char *path)
{
    if (!path)
        return;
    if (*path == '\0')
        s->items_body = true;
    else
        s->items = path;
}

bool sdkc_pg_speakeasy(cctx *c, const sdkc_node *x, sdkc_operation *op)
{
    pgreport rep = {c, x, false};
    pgspec s = {0};
    s.source = SDKC_PAGE_FROM_EXTENSION;
    s.reason = "x-speakeasy-pagination";
    const char *type = sdkc_cc_text(sdkc_node_get(x, "type"));
    const sdkc_node *inputs = sdkc_node_get(x, "inputs");
    const sdkc_node *outputs = sdkc_node_get(x, "outputs");
    const char *results = sdkc_cc_text(sdkc_node_get(outputs, "results"));
    if (results) {
        const char *p = json_path(c, results, "$");
        if (!p) {
            sdkc_pg_report(&rep,
                           "operation '%s': x-speakeasy-pagination: results '%s' is not a plain "
                           "member path; operation not paginated",
                           op->id, results);
            return false;
        }
        sdkc_pg_items_from_path(&s, p);
    }
    const char *in_page = NULL, *in_offset = NULL, *in_limit = NULL, *in_cursor = NULL;
    for (size_t i = 0; inputs && inputs->kind == SDKC_NODE_SEQ && i < inputs->nitems; i++) {
        const sdkc_node *in = inputs->items[i];
        const char *name = sdkc_cc_text(sdkc_node_get(in, "name"));
        const char *where = sdkc_cc_text(sdkc_node_get(in, "in"));
        const char *t = sdkc_cc_text(sdkc_node_get(in, "type"));
        if (!name || !t)
            continue;
        if (where && strcmp(where, "parameters") != 0) {
            sdkc_pg_report(&rep,
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
        return sdkc_pg_adopt_spec(c, op, &s, &rep);
    }
    if (type && strcmp(type, "cursor") == 0 && in_cursor) {
        const char *nc = sdkc_cc_text(sdkc_node_get(outputs, "nextCursor"));
        const char *items = NULL, *id = NULL;
        s.param = in_cursor;
        s.size_param = in_limit;
        if (last_item_path(c, nc, &items, &id)) {
            s.style = SDKC_PAGE_CURSOR_ITEM;
            s.items = items;
            s.items_body = false;
            s.id = id;
            s.has_more = sdkc_pg_first_field(op->success.type, MORE_FIELDS, SDKC_TYPE_BOOLEAN);
            return sdkc_pg_adopt_spec(c, op, &s, &rep);
        }
        s.style = SDKC_PAGE_CURSOR_TOKEN;
        s.next = json_path(c, nc, "$");
        return sdkc_pg_adopt_spec(c, op, &s, &rep);
    }
    if (type && strcmp(type, "url") == 0) {
        s.style = SDKC_PAGE_NEXT_URL;
        s.next = json_path(c, sdkc_cc_text(sdkc_node_get(outputs, "nextUrl")), "$");
        return sdkc_pg_adopt_spec(c, op, &s, &rep);
    }
    sdkc_pg_report(&rep,
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

bool sdkc_pg_fern(cctx *c, const sdkc_node *x, sdkc_operation *op)
{
    pgreport rep = {c, x, false};
    pgspec s = {0};
    s.source = SDKC_PAGE_FROM_EXTENSION;
    s.reason = "x-fern-pagination";
    const char *results = sdkc_cc_text(sdkc_node_get(x, "results"));
    if (results)
        sdkc_pg_items_from_path(&s, json_path(c, results, "$response"));
    const char *more = sdkc_cc_text(sdkc_node_get(x, "has-next-page"));
    s.has_more = more ? json_path(c, more, "$response") : NULL;
    const char *cursor = request_name(sdkc_cc_text(sdkc_node_get(x, "cursor")));
    const char *offset = request_name(sdkc_cc_text(sdkc_node_get(x, "offset")));
    const char *next_uri = sdkc_cc_text(sdkc_node_get(x, "next_uri"));
    if (cursor) {
        s.style = SDKC_PAGE_CURSOR_TOKEN;
        s.param = cursor;
        s.next = json_path(c, sdkc_cc_text(sdkc_node_get(x, "next_cursor")), "$response");
        return sdkc_pg_adopt_spec(c, op, &s, &rep);
    }
    if (offset) {
        /* with a step the offset advances by items; without, it counts pages */
        const char *step = request_name(sdkc_cc_text(sdkc_node_get(x, "step")));
        s.style = step ? SDKC_PAGE_OFFSET : SDKC_PAGE_PAGE_NUMBER;
        s.param = offset;
        s.size_param = step;
        return sdkc_pg_adopt_spec(c, op, &s, &rep);
    }
    if (next_uri) {
        s.style = SDKC_PAGE_NEXT_URL;
        s.next = json_path(c, next_uri, "$response");
        return sdkc_pg_adopt_spec(c, op, &s, &rep);
    }
    sdkc_pg_report(&rep,
                   "operation '%s': x-fern-pagination: neither cursor, offset nor next_uri is a "
                   "$request/$response reference; operation not paginated",
                   op->id);
    return false;
}

/* Stainless names a page type; the fields are found as the heuristics find them, within that
 * type only. An object form may name them: {type, items, param, next, has_more, id}. */
bool sdkc_pg_stainless(cctx *c, const sdkc_node *x, sdkc_operation *op)
{
    pgreport rep = {c, x, false};
    pgspec s = {0};
    s.source = SDKC_PAGE_FROM_EXTENSION;
    s.reason = "x-stainless-pagination";
    const sdkc_node *obj = x->kind == SDKC_NODE_MAP ? x : NULL;
    const char *type = obj ? sdkc_cc_text(sdkc_node_get(obj, "type")) : sdkc_cc_text(x);
    const sdkc_type *body = op->success.type;
    s.items = obj ? sdkc_cc_text(sdkc_node_get(obj, "items")) : NULL;
    s.param = obj ? sdkc_cc_text(sdkc_node_get(obj, "param")) : NULL;
    s.next = obj ? sdkc_cc_text(sdkc_node_get(obj, "next")) : NULL;
    s.has_more = obj ? sdkc_cc_text(sdkc_node_get(obj, "has_more")) : NULL;
    s.id = obj ? sdkc_cc_text(sdkc_node_get(obj, "id")) : NULL;
    if (!s.has_more)
        s.has_more = sdkc_pg_first_field(body, MORE_FIELDS, SDKC_TYPE_BOOLEAN);
    if (type && strcmp(type, "cursor_id") == 0) {
        s.style = SDKC_PAGE_CURSOR_ITEM;
        if (!s.param)
            s.param = sdkc_pg_first_param(op, ITEM_PARAMS, -1);
    } else if (type && strcmp(type, "cursor") == 0) {
        s.style = SDKC_PAGE_CURSOR_TOKEN;
        if (!s.param)
            s.param = sdkc_pg_first_param(op, TOKEN_PARAMS, -1);
        if (!s.next)
            s.next = sdkc_pg_first_field(body, TOKEN_FIELDS, SDKC_TYPE_STRING);
    } else if (type && strcmp(type, "cursor_url") == 0) {
        s.style = SDKC_PAGE_NEXT_URL;
        for (size_t i = 0; !s.next && URL_FIELDS[i]; i++)
            if (sdkc_pg_field_kind(body, URL_FIELDS[i], SDKC_TYPE_STRING))
                s.next = URL_FIELDS[i];
    } else if (type && strcmp(type, "page_number") == 0) {
        s.style = SDKC_PAGE_PAGE_NUMBER;
        if (!s.param)
            s.param = sdkc_pg_first_param(op, PAGE_PARAMS, -1);
        s.size_param = sdkc_pg_first_param(op, PAGE_SIZE_PARAMS, -1);
    } else if (type && strcmp(type, "offset") == 0) {
        s.style = SDKC_PAGE_OFFSET;
        if (!s.param)
            s.param = sdkc_pg_first_param(op, OFFSET_PARAMS, -1);
        s.size_param = sdkc_pg_first_param(op, LIMIT_PARAMS, -1);
    } else {
        sdkc_pg_report(&rep,
                       "operation '%s': x-stainless-pagination: page type '%s' is not one of "
                       "cursor, cursor_id, cursor_url, page_number, offset; operation not "
                       "paginated",
                       op->id, type ? type : "(none)");
        return false;
    }
    return sdkc_pg_adopt_spec(c, op, &s, &rep);
}

/* Azure's x-ms-pageable: {nextLinkName, itemName (default "value")}; a null nextLinkName means
 * one page. */
bool sdkc_pg_ms_pageable(cctx *c, const sdkc_node *x, sdkc_operation *op)
{
    pgreport rep = {c, x, false};
    const sdkc_node *nl = sdkc_node_get(x, "nextLinkName");
    if (!nl || nl->kind != SDKC_NODE_SCALAR || nl->scalar == SDKC_SCALAR_NULL)
        return false; /* all items in one response: nothing to follow */
    pgspec s = {0};
    s.source = SDKC_PAGE_FROM_EXTENSION;
    s.reason = "x-ms-pageable";
    s.style = SDKC_PAGE_NEXT_URL;
    s.next = sdkc_cc_text(nl);
    const char *item = sdkc_cc_text(sdkc_node_get(x, "itemName"));
    s.items = item ? item : "value";
    return sdkc_pg_adopt_spec(c, op, &s, &rep);
}
