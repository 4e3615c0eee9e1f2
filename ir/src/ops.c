/* ops.c - paths and operations to IR operations, with the Effect HttpApi conventions: tagged
 * errors per status, `{data: X}` unwrapping, pages, SSE streams (x-effect-stream), 204 no
 * content, implied Basic auth. */
#include <string.h>
#include <strings.h>

#include "compile_internal.h"
#include "op_groups.h"

static const char *const METHODS[] = {"get",     "put",  "post",  "delete",
                                      "options", "head", "patch", "trace"};

/* One operation found in the document, before conversion. */
typedef struct raw_op {
    const sdkc_node *node;      /* the operation object */
    const sdkc_node *path_item; /* its path item */
    const char *path;           /* the path key as written */
    const char *route;          /* path without the query string written after '?' */
    const char *query;          /* that query string (after '?'), or NULL */
    const char *fragment;       /* after '#', or NULL */
    const char *method;         /* lower case as written */
    const char *id;
    const char *prefix; /* stripped prefix or NULL */
    const char *rest;   /* id without prefix */
    const char *safe;
    const char *ptr;      /* JSON pointer of the operation object */
    const char *item_ptr; /* and of its path item */
} raw_op;

static const sdkc_node *deref(cctx *c, const sdkc_node *n)
{
    for (int i = 0; n && i < 32; i++) {
        const sdkc_node *r = sdkc_node_get(n, "$ref");
        if (!r)
            return n;
        n = cc_resolve_ref(c, r);
    }
    return n;
}

/* A specification extension (`x-...`): allowed in most OpenAPI objects, never an error. */
static bool is_extension(const char *k)
{
    return k[0] == 'x' && k[1] == '-';
}

static bool is_method(const char *k)
{
    for (size_t i = 0; i < sizeof METHODS / sizeof METHODS[0]; i++)
        if (strcmp(k, METHODS[i]) == 0)
            return true;
    return false;
}

static char *upper(cctx *c, const char *s)
{
    char *u = cc_strdup(c, s);
    for (char *p = u; p && *p; p++)
        if (*p >= 'a' && *p <= 'z')
            *p = (char)(*p - 'a' + 'A');
    return u;
}

static const char *op_context(cctx *c, const raw_op *r, const char *suffix)
{
    char *p = sdkc_pascal_case(c->a, r->safe);
    if (!p) {
        c->nomem = true;
        return NULL;
    }
    return cc_concat(c, p, suffix);
}

/* ---- parameters ---- */

typedef struct praw {
    const sdkc_node *node; /* resolved parameter object */
    const char *name;
    const char *in;
    const char *origin;    /* JSON pointer of the parameter's schema */
    const char *component; /* a $ref to components/parameters: its key, in Pascal case */
} praw;

/* The key of the component n refers to when it is a $ref to #/components/SECTION/KEY, in
 * Pascal case; else NULL. */
static const char *component_name(cctx *c, const sdkc_node *n, const char *section)
{
    const sdkc_node *refnode = sdkc_node_get(n, "$ref");
    if (!refnode)
        return NULL;
    const sdkc_node *target = cc_resolve_ref(c, refnode);
    const sdkc_node *comps = sdkc_node_get(sdkc_node_get(c->root, "components"), section);
    for (size_t i = 0; target && comps && comps->kind == SDKC_NODE_MAP && i < comps->npairs; i++) {
        if (comps->pairs[i].value != target)
            continue;
        char *p = sdkc_pascal_case(c->a, comps->pairs[i].key->str);
        if (!p)
            c->nomem = true;
        return p;
    }
    return NULL;
}

/* Types under a component shared by operations (a parameter, a response) are named by what they
 * are, not after the first operation that uses them: by the component's key, else (a schema has
 * that name) the key and suffix ("StatusParam"), else by the operation's context. */
static const char *shared_context(cctx *c, const char *key, const char *suffix, const char *op_ctx)
{
    if (!key)
        return op_ctx;
    if (cc_name_free(c, key))
        return key;
    const char *alt = cc_concat(c, key, suffix);
    return alt && cc_name_free(c, alt) ? alt : op_ctx;
}

static sdkc_param_in param_in(const char *in)
{
    if (strcmp(in, "path") == 0)
        return SDKC_PARAM_PATH;
    if (strcmp(in, "header") == 0)
        return SDKC_PARAM_HEADER;
    if (strcmp(in, "cookie") == 0)
        return SDKC_PARAM_COOKIE;
    return SDKC_PARAM_QUERY;
}

static sdkc_param_style param_style(const char *s, sdkc_param_in in)
{
    if (!s)
        return in == SDKC_PARAM_QUERY || in == SDKC_PARAM_COOKIE ? SDKC_STYLE_FORM
                                                                 : SDKC_STYLE_SIMPLE;
    static const char *const names[] = {"simple", "form",           "deepObject",   "label",
                                        "matrix", "spaceDelimited", "pipeDelimited"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(s, names[i]) == 0)
            return (sdkc_param_style)i;
    return SDKC_STYLE_SIMPLE;
}

/* Does the contract declare security schemes? Without any, an `Authorization` header parameter
 * is the only way its credentials are sent, and is kept although OpenAPI says to ignore it. */
static bool declares_schemes(cctx *c)
{
    const sdkc_node *ss = sdkc_node_get(sdkc_node_get(c->root, "components"), "securitySchemes");
    return ss && ss->kind == SDKC_NODE_MAP && ss->npairs > 0;
}

/* Collect path-item then operation parameters; an operation parameter replaces a path-item one
 * with the same name and location. */
static size_t collect_params(cctx *c, const raw_op *r, praw *out, size_t max)
{
    size_t n = 0;
    const sdkc_node *lists[2] = {sdkc_node_get(r->path_item, "parameters"),
                                 sdkc_node_get(r->node, "parameters")};
    const char *bases[2] = {cc_printf(c, "%s/parameters", nz(r->item_ptr)),
                            cc_printf(c, "%s/parameters", nz(r->ptr))};
    for (int l = 0; l < 2; l++) {
        const sdkc_node *list = lists[l];
        if (!list)
            continue;
        if (list->kind != SDKC_NODE_SEQ) {
            cc_error(c, list, "'parameters' must be a list");
            continue;
        }
        for (size_t i = 0; i < list->nitems && n < max; i++) {
            const sdkc_node *p = deref(c, list->items[i]);
            if (!p)
                continue;
            const char *name = cc_text(sdkc_node_get(p, "name"));
            const char *in = cc_text(sdkc_node_get(p, "in"));
            if (!name || !in) {
                cc_error(c, list->items[i], "parameter needs 'name' and 'in'");
                continue;
            }
            if (strcmp(in, "path") != 0 && strcmp(in, "query") != 0 && strcmp(in, "header") != 0 &&
                strcmp(in, "cookie") != 0) {
                cc_error(c, sdkc_node_get(p, "in"), "parameter '%s': unknown location '%s'", name,
                         in);
                continue;
            }
            bool auth = strcasecmp(name, "Authorization") == 0;
            if (strcmp(in, "header") == 0 &&
                (strcasecmp(name, "Accept") == 0 || strcasecmp(name, "Content-Type") == 0 ||
                 (auth && declares_schemes(c)))) {
                /* the media types and security schemes say what goes there */
                cc_warn(c, list->items[i],
                        "header parameter '%s' is ignored, as OpenAPI requires; the SDK sets it "
                        "from the operation's %s",
                        name, auth ? "security requirements" : "media types");
                continue;
            }
            size_t j = 0;
            for (; j < n; j++)
                if (strcmp(out[j].name, name) == 0 && strcmp(out[j].in, in) == 0)
                    break;
            if (j < n && l == 0) {
                cc_error(c, list->items[i], "duplicate parameter '%s' in %s", name, in);
                continue;
            }
            if (j < n && l == 1) {
                /* replaces the path-item one, unless both come from the operation */
                bool from_op = false;
                const sdkc_node *ol = lists[1];
                for (size_t q = 0; q < i && !from_op; q++)
                    from_op = deref(c, ol->items[q]) == out[j].node;
                if (from_op) {
                    cc_error(c, list->items[i], "duplicate parameter '%s' in %s", name, in);
                    continue;
                }
                out[j].node = p;
                out[j].origin = cc_ptr_child(c, cc_ptr_index(c, bases[l], i), "schema");
                out[j].component = component_name(c, list->items[i], "parameters");
                continue;
            }
            out[n].node = p;
            out[n].component = component_name(c, list->items[i], "parameters");
            out[n].name = name;
            out[n].in = in;
            out[n].origin = cc_ptr_child(c, cc_ptr_index(c, bases[l], i), "schema");
            n++;
        }
    }
    return n;
}

/* A C name for a parameter, unique among the operation's parameters and body. */
static const char *unique_safe_name(cctx *c, sdkc_map *safe, const char *wire, sdkc_param *p)
{
    char *s = sdkc_snake_case(c->a, wire);
    if (s && sdkc_is_c_keyword(s))
        s = cc_printf(c, "%s_", s);
    const char *u = s;
    for (unsigned k = 2; u && sdkc_map_get(safe, u); k++)
        u = cc_printf(c, "%s_%u", s, k);
    if (!u || !sdkc_map_put(safe, u, p))
        c->nomem = true;
    return u;
}

static void build_param(cctx *c, const raw_op *r, const praw *pr, sdkc_param *p, sdkc_map *safe)
{
    const sdkc_node *node = pr->node;
    p->wire_name = cc_strdup(c, pr->name);
    p->in = param_in(pr->in);
    const sdkc_node *style = sdkc_node_get(node, "style");
    p->style = param_style(cc_text(style), p->in);
    if (style && p->style == SDKC_STYLE_SIMPLE &&
        strcmp(cc_text(style) ? cc_text(style) : "", "simple") != 0)
        cc_warn(c, style, "parameter '%s': unknown style '%s', using simple", pr->name,
                cc_text(style) ? cc_text(style) : "");
    bool b = false;
    if (sdkc_node_bool(sdkc_node_get(node, "explode"), &b))
        p->explode = b;
    else
        p->explode = p->style == SDKC_STYLE_FORM;
    if (sdkc_node_bool(sdkc_node_get(node, "allowReserved"), &b))
        p->allow_reserved = b && p->in == SDKC_PARAM_QUERY;
    p->required = p->in == SDKC_PARAM_PATH;
    if (sdkc_node_bool(sdkc_node_get(node, "required"), &b))
        p->required = b || p->in == SDKC_PARAM_PATH;
    p->docs = cc_docs(c, node);
    p->loc = cc_loc(c, node);
    const sdkc_node *schema = sdkc_node_get(node, "schema");
    const sdkc_node *content = sdkc_node_get(node, "content");
    if (!schema && content && content->kind == SDKC_NODE_MAP && content->npairs > 0)
        schema = sdkc_node_get(content->pairs[0].value, "schema");
    const char *ctx = cc_concat(c, op_context(c, r, ""), sdkc_pascal_case(c->a, pr->name));
    ctx = shared_context(c, pr->component, "Param", ctx);
    if (schema)
        p->type = cc_schema(c, schema, ctx, pr->origin);
    else
        p->type = cc_any(c, node, NULL, NULL);
    cc_brand_vote(c, p->type, pr->name);
    p->safe_name = unique_safe_name(c, safe, pr->name, p);
}

/* Path template variables, in order. Returns the count (up to max). */
static size_t template_vars(cctx *c, const char *path, const char **out, size_t max)
{
    size_t n = 0;
    for (const char *p = path; *p && n < max; p++) {
        if (*p != '{')
            continue;
        const char *e = strchr(p, '}');
        if (!e)
            break;
        out[n] = sdkc_arena_strndup(c->a, p + 1, (size_t)(e - p - 1));
        if (!out[n]) {
            c->nomem = true;
            return n;
        }
        n++;
        p = e;
    }
    return n;
}

static int hex_digit(char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

/* Percent-decoded copy of s[0..n) (a malformed escape is kept as written). */
static char *pct_decode(cctx *c, const char *s, size_t n)
{
    char *out = cc_alloc(c, n + 1);
    size_t o = 0;
    for (size_t i = 0; out && i < n; i++) {
        int hi = i + 2 < n && s[i] == '%' ? hex_digit(s[i + 1]) : -1;
        int lo = hi >= 0 ? hex_digit(s[i + 2]) : -1;
        if (lo >= 0 && (hi || lo)) {
            out[o++] = (char)(hi * 16 + lo);
            i += 2;
        } else {
            out[o++] = s[i];
        }
    }
    if (out)
        out[o] = '\0';
    return out;
}

/* The first unused parameter named name in location in, or n. */
static size_t find_param(const praw *raw, size_t n, const bool *used, const char *name,
                         const char *in)
{
    for (size_t j = 0; j < n; j++)
        if (!used[j] && strcmp(raw[j].in, in) == 0 && strcmp(raw[j].name, name) == 0)
            return j;
    return n;
}

/* The query string written into a path template (`/uploads?convert={convert}`, `/x?action=list`):
 * each `key={var}` pair is the parameter var sent in the query as key (declared in the path or in
 * the query); each fixed `key=value` pair is a required query parameter of that one literal
 * value, unless the operation declares a query parameter of that name itself. Pairs that cannot
 * be represented (no '=', a value mixing text and variables) are dropped with a warning. */
static void build_query_string(cctx *c, const raw_op *r, const sdkc_node *pathkey, praw *raw,
                               size_t n, bool *used, sdkc_param *ps, size_t *k, sdkc_map *safe)
{
    for (const char *q = r->query; *q;) {
        const char *end = strchr(q, '&');
        if (!end)
            end = q + strlen(q);
        const char *eq = memchr(q, '=', (size_t)(end - q));
        const char *val = eq ? eq + 1 : NULL;
        size_t vlen = eq ? (size_t)(end - val) : 0;
        char *key = pct_decode(c, q, (size_t)((eq ? eq : end) - q));
        const char *next = *end ? end + 1 : end;
        if (!key)
            return;
        if (end == q) {
            q = next;
            continue;
        }
        bool braces = val && (memchr(val, '{', vlen) || memchr(val, '}', vlen));
        bool one_var = braces && vlen > 2 && val[0] == '{' && val[vlen - 1] == '}' &&
                       !memchr(val + 1, '{', vlen - 2) && !memchr(val + 1, '}', vlen - 2);
        if (!val || (braces && !one_var)) {
            cc_warn(c, pathkey,
                    "query string pair '%.*s' in path '%s' cannot be represented (%s); it is "
                    "not sent",
                    (int)(end - q), q, r->path,
                    val ? "a value mixing text and template variables" : "a key without a value");
            /* its variables are accounted for: the warning says they are dropped */
            const char *vars[16];
            size_t nv = val ? template_vars(c, cc_printf(c, "%.*s", (int)vlen, val), vars, 16) : 0;
            for (size_t v = 0; v < nv; v++) {
                size_t j = find_param(raw, n, used, vars[v], "path");
                if (j < n)
                    used[j] = true;
            }
            q = next;
            continue;
        }
        sdkc_param *p = &ps[*k];
        if (one_var) {
            char *var = sdkc_arena_strndup(c->a, val + 1, vlen - 2);
            if (!var) {
                c->nomem = true;
                return;
            }
            size_t j = find_param(raw, n, used, var, "path");
            if (j == n)
                j = find_param(raw, n, used, var, "query");
            if (j == n) {
                cc_warn(c, pathkey,
                        "query template variable '{%s}' in path '%s' has no parameter; sent as "
                        "a required string query parameter '%s'",
                        var, r->path, key);
                p->wire_name = key;
                p->in = SDKC_PARAM_QUERY;
                p->style = SDKC_STYLE_FORM;
                p->explode = true;
                p->required = true;
                p->type = cc_plain_string(c, pathkey);
                p->loc = cc_loc(c, pathkey);
                p->safe_name = unique_safe_name(c, safe, key, p);
                (*k)++;
                q = next;
                continue;
            }
            used[j] = true;
            bool from_path = strcmp(raw[j].in, "path") == 0;
            praw pr = raw[j];
            pr.name = key;
            pr.in = "query";
            build_param(c, r, &pr, p, safe);
            if (from_path) { /* its path style means nothing in a query */
                p->style = SDKC_STYLE_FORM;
                p->explode = true;
                p->required = true;
            }
            (*k)++;
            q = next;
            continue;
        }
        char *value = pct_decode(c, val, vlen);
        if (!value)
            return;
        size_t j = find_param(raw, n, used, key, "query");
        if (j < n) {
            used[j] = true;
            build_param(c, r, &raw[j], p, safe);
            const sdkc_type *t = p->type;
            if (!t || t->kind != SDKC_TYPE_LITERAL || t->u.literal.kind != SDKC_LIT_STRING ||
                strcmp(t->u.literal.text, value) != 0)
                cc_warn(c, sdkc_node_get(raw[j].node, "name"),
                        "path '%s' fixes query parameter '%s' to '%s', but it is declared with a "
                        "schema of its own; the caller must pass '%s'",
                        r->path, key, value, value);
            (*k)++;
            q = next;
            continue;
        }
        p->wire_name = key;
        p->in = SDKC_PARAM_QUERY;
        p->style = SDKC_STYLE_FORM;
        p->explode = true;
        p->required = true;
        p->type = cc_string_literal(c, pathkey, value);
        p->loc = cc_loc(c, pathkey);
        p->safe_name = unique_safe_name(c, safe, key, p);
        (*k)++;
        q = next;
    }
}

/* Pairs in a query string: an upper bound. */
static size_t query_pairs(const char *q)
{
    size_t n = q ? 1 : 0;
    for (; q && *q; q++)
        n += *q == '&';
    return n;
}

static void build_params(cctx *c, const raw_op *r, sdkc_operation *op, const sdkc_node *pathkey,
                         bool has_body)
{
    enum { MAXP = 256 };
    praw raw[MAXP];
    const char *vars[MAXP];
    size_t n = collect_params(c, r, raw, MAXP);
    size_t nv = template_vars(c, r->route, vars, MAXP);
    size_t nq = query_pairs(r->query);
    sdkc_param *ps = cc_alloc(c, (n + nq ? n + nq : 1) * sizeof *ps);
    if (!ps)
        return;
    sdkc_map safe;
    sdkc_map_init(&safe, SDKC_MAP_STRINGS);
    if (has_body && !sdkc_map_put(&safe, "body", (void *)1))
        c->nomem = true;
    size_t k = 0;
    bool *used = cc_alloc(c, (n ? n : 1) * sizeof *used);
    if (!used)
        goto done;
    for (size_t v = 0; v < nv; v++) {
        size_t j = 0;
        for (; j < n; j++)
            if (!used[j] && strcmp(raw[j].in, "path") == 0 && strcmp(raw[j].name, vars[v]) == 0)
                break;
        if (j == n) {
            cc_error(c, pathkey, "path template variable '{%s}' of %s %s has no path parameter",
                     vars[v], op->method, r->path);
            continue;
        }
        used[j] = true;
        build_param(c, r, &raw[j], &ps[k++], &safe);
    }
    if (r->query)
        build_query_string(c, r, pathkey, raw, n, used, ps, &k, &safe);
    static const char *const order[] = {"path", "query", "header", "cookie"};
    for (size_t o = 0; o < 4; o++) {
        for (size_t j = 0; j < n; j++) {
            if (used[j] || strcmp(raw[j].in, order[o]) != 0)
                continue;
            if (o == 0) {
                cc_error(c, sdkc_node_get(raw[j].node, "name"),
                         "path parameter '%s' does not appear in the path template '%s'",
                         raw[j].name, r->path);
                continue;
            }
            used[j] = true;
            build_param(c, r, &raw[j], &ps[k++], &safe);
        }
    }
    op->params = ps;
    op->nparams = k;
done:
    sdkc_map_cleanup(&safe);
}

/* ---- bodies and responses ---- */

static sdkc_encoding encoding_of(const char *ct)
{
    if (!ct)
        return SDKC_ENC_NONE;
    if (strncmp(ct, "text/event-stream", 17) == 0)
        return SDKC_ENC_SSE;
    if (strstr(ct, "json"))
        return SDKC_ENC_JSON;
    if (strncmp(ct, "text/", 5) == 0)
        return SDKC_ENC_TEXT;
    return SDKC_ENC_BYTES;
}

/* A schema with JSON structure or a non-string scalar: under a media range (star/star) it is
 * JSON, as a string or an untyped schema is bytes. */
static bool structured(const sdkc_type *t)
{
    while (t && t->kind == SDKC_TYPE_NULLABLE)
        t = t->u.nullable.inner;
    return t && t->kind != SDKC_TYPE_STRING && t->kind != SDKC_TYPE_ANY &&
           t->kind != SDKC_TYPE_NEVER && t->kind != SDKC_TYPE_NULL;
}

/* The preferred media type entry of a content map: a JSON type first, else the first listed;
 * a concrete type before a media range (a '*' in it), which is no Content-Type. */
static const sdkc_pair *pick_content(const sdkc_node *content)
{
    if (!content || content->kind != SDKC_NODE_MAP || content->npairs == 0)
        return NULL;
    for (int pass = 0; pass < 4; pass++) {
        bool want_json = pass == 0 || pass == 2, want_concrete = pass < 2;
        for (size_t i = 0; i < content->npairs; i++) {
            const char *k = content->pairs[i].key->str;
            if (want_json && encoding_of(k) != SDKC_ENC_JSON)
                continue;
            if (want_concrete && strchr(k, '*'))
                continue;
            return &content->pairs[i];
        }
    }
    return &content->pairs[0];
}

/* The `encoding` map of a body media type. */
static void build_encodings(cctx *c, const sdkc_node *media, sdkc_body *b)
{
    const sdkc_node *enc = sdkc_node_get(media, "encoding");
    if (!enc || enc->kind != SDKC_NODE_MAP || enc->npairs == 0)
        return;
    sdkc_body_encoding *v = cc_alloc(c, enc->npairs * sizeof *v);
    if (!v)
        return;
    size_t n = 0;
    for (size_t i = 0; i < enc->npairs; i++) {
        const sdkc_node *e = deref(c, enc->pairs[i].value);
        if (!e || e->kind != SDKC_NODE_MAP)
            continue;
        sdkc_body_encoding *d = &v[n++];
        d->property = cc_strdup(c, enc->pairs[i].key->str);
        const char *ct = cc_text(sdkc_node_get(e, "contentType"));
        d->content_type = ct ? cc_strdup(c, ct) : NULL;
        const sdkc_node *style = sdkc_node_get(e, "style");
        d->style = style ? param_style(cc_text(style), SDKC_PARAM_QUERY) : SDKC_STYLE_FORM;
        bool x = false;
        bool has_explode = sdkc_node_bool(sdkc_node_get(e, "explode"), &x);
        d->explode = has_explode ? x : d->style == SDKC_STYLE_FORM;
        d->has_style = style != NULL || has_explode;
        if (sdkc_node_bool(sdkc_node_get(e, "allowReserved"), &x))
            d->allow_reserved = x;
    }
    b->encodings = v;
    b->nencodings = n;
}

static void build_body(cctx *c, const raw_op *r, sdkc_operation *op)
{
    const sdkc_node *rb = sdkc_node_get(r->node, "requestBody");
    if (!rb)
        return;
    rb = deref(c, rb);
    if (!rb)
        return;
    const sdkc_node *content = sdkc_node_get(rb, "content");
    const sdkc_pair *pc = pick_content(content);
    if (!pc) {
        cc_warn(c, rb, "request body without content; ignored");
        return;
    }
    sdkc_body *b = cc_alloc(c, sizeof *b);
    if (!b)
        return;
    b->content_type = cc_strdup(c, pc->key->str);
    const sdkc_node *schema = sdkc_node_get(pc->value, "schema");
    const char *o =
        cc_ptr_child(c, cc_printf(c, "%s/requestBody/content", nz(r->ptr)), pc->key->str);
    b->type = schema ? cc_schema(c, schema, op_context(c, r, "Body"), cc_ptr_child(c, o, "schema"))
                     : cc_any(c, pc->value, NULL, NULL);
    bool req = false;
    sdkc_node_bool(sdkc_node_get(rb, "required"), &req);
    b->required = req;
    b->docs = cc_docs(c, rb);
    build_encodings(c, pc->value, b);
    /* Other media types with the same schema (the same node or the same $ref) can be chosen by
       the caller; one with a schema of its own cannot be represented beside the default. */
    const char **alts = cc_alloc(c, (content->npairs + 1) * sizeof *alts);
    size_t nalt = 0;
    const char *ref = cc_text(sdkc_node_get(schema, "$ref"));
    for (size_t i = 0; alts && i < content->npairs; i++) {
        const sdkc_pair *q = &content->pairs[i];
        if (q == pc || strchr(q->key->str, '*'))
            continue; /* a media range is not a type to send */
        const sdkc_node *qs = sdkc_node_get(q->value, "schema");
        const char *qref = cc_text(sdkc_node_get(qs, "$ref"));
        if (qs == schema || (ref && qref && strcmp(ref, qref) == 0))
            alts[nalt++] = cc_strdup(c, q->key->str);
        else
            cc_warn(c, q->key,
                    "request body media type '%s' has a schema of its own; only '%s' is "
                    "generated",
                    q->key->str, pc->key->str);
    }
    b->alternatives = alts;
    b->nalternatives = nalt;
    op->body = b;
}

/* A response key: an exact status (100..599), a range `1XX`..`5XX` (1..5), `default`
 * (SDKC_STATUS_DEFAULT), or -1 for anything else. */
static int status_of(const char *key)
{
    if (strcmp(key, "default") == 0)
        return SDKC_STATUS_DEFAULT;
    if (strlen(key) != 3 || key[0] < '1' || key[0] > '5')
        return -1;
    if ((key[1] == 'X' || key[1] == 'x') && (key[2] == 'X' || key[2] == 'x'))
        return key[0] - '0';
    int v = 0;
    for (int i = 0; i < 3; i++) {
        if (key[i] < '0' || key[i] > '9')
            return -1;
        v = v * 10 + (key[i] - '0');
    }
    return v >= 100 && v <= 599 ? v : -1;
}

const sdkc_field *cc_field_of(const sdkc_type *t, const char *wire)
{
    t = cc_strip_nullable(t);
    if (!t || t->kind != SDKC_TYPE_OBJECT)
        return NULL;
    for (size_t i = 0; i < t->u.object.nfields; i++)
        if (strcmp(t->u.object.fields[i].wire_name, wire) == 0)
            return &t->u.object.fields[i];
    return NULL;
}

static const char *error_tag(const sdkc_type *t)
{
    const sdkc_field *f = cc_field_of(t, "_tag");
    if (!f || !f->type)
        return NULL;
    if (f->type->kind == SDKC_TYPE_LITERAL && f->type->u.literal.kind == SDKC_LIT_STRING)
        return f->type->u.literal.text;
    return NULL;
}

static int cmp_tag(const void *a, const void *b)
{
    return strcmp(((const sdkc_error_tag *)a)->tag, ((const sdkc_error_tag *)b)->tag);
}

/* Unions of error bodies are taken apart, nested ones too, down to a small depth: a union that
 * contains itself (through references) ends there, as one body. */
static void collect_errors(cctx *c, sdkc_vec *out, const sdkc_type *t, int depth)
{
    if (!t)
        return;
    if (t->kind == SDKC_TYPE_UNION && depth < 8) {
        for (size_t i = 0; i < t->u.union_.nvariants; i++)
            collect_errors(c, out, t->u.union_.variants[i].type, depth + 1);
        return;
    }
    if (!sdkc_vec_push(out, (void *)t))
        c->nomem = true;
}

static const char *media_ptr(cctx *c, const raw_op *r, const char *key, const char *ct)
{
    const char *resp = cc_ptr_child(c, cc_printf(c, "%s/responses", nz(r->ptr)), key);
    return cc_ptr_child(c, cc_printf(c, "%s/content", nz(resp)), ct);
}

static void build_error(cctx *c, const raw_op *r, int status, const char *key,
                        const sdkc_node *resp, sdkc_error_status *e)
{
    e->status = status;
    cc_response_info(c, resp, &e->response);
    const sdkc_pair *pc = pick_content(sdkc_node_get(resp, "content"));
    if (!pc)
        return;
    e->content_type = cc_strdup(c, pc->key->str);
    const sdkc_node *schema = sdkc_node_get(pc->value, "schema");
    if (!schema)
        return;
    const char *ctx = op_context(c, r, "");
    if (status == SDKC_STATUS_DEFAULT)
        ctx = cc_printf(c, "%sErrorDefault", ctx ? ctx : "");
    else
        ctx = cc_printf(c, "%sError%s", ctx ? ctx : "", key);
    const sdkc_node *declared = sdkc_node_get(sdkc_node_get(r->node, "responses"), key);
    ctx = shared_context(c, component_name(c, declared, "responses"), "Response", ctx);
    const char *o = cc_printf(c, "%s/schema", nz(media_ptr(c, r, key, pc->key->str)));
    /* a list of alternatives is taken apart here rather than made a union type */
    const sdkc_node *list = sdkc_node_get(schema, "anyOf");
    const char *kw = "anyOf";
    if (!list)
        list = sdkc_node_get(schema, kw = "oneOf");
    sdkc_vec found = {0};
    if (list && list->kind == SDKC_NODE_SEQ) {
        for (size_t i = 0; i < list->nitems; i++)
            collect_errors(c, &found,
                           cc_schema(c, list->items[i], cc_printf(c, "%s_%zu", nz(ctx), i + 1),
                                     cc_printf(c, "%s/%s/%zu", nz(o), kw, i)),
                           0);
    } else {
        collect_errors(c, &found, cc_schema(c, schema, ctx, o), 0);
    }
    sdkc_error_tag *tags = cc_alloc(c, (found.len ? found.len : 1) * sizeof *tags);
    for (size_t i = 0; tags && i < found.len; i++) {
        const sdkc_type *t = found.items[i];
        const char *tag = error_tag(t);
        if (!tag) {
            if (!e->untagged)
                e->untagged = t;
            continue;
        }
        bool dup = false;
        for (size_t j = 0; j < e->ntags && !dup; j++)
            dup = strcmp(tags[j].tag, tag) == 0;
        if (!dup) {
            tags[e->ntags].tag = tag;
            tags[e->ntags].type = t;
            e->ntags++;
        }
    }
    sdkc_vec_cleanup(&found);
    if (!tags)
        return;
    qsort(tags, e->ntags, sizeof *tags, cmp_tag);
    e->tags = tags;
}

/* The Effect HttpApi contract gives a Fail cause's `error` the schema `not: {}` (never) when the
 * stream declares no typed error, yet makes it required, so no Fail cause could ever decode:
 * the server does send one. Such an `error` is raw JSON instead, so that clients can read it. */
static void loosen_fail_errors(cctx *c, const sdkc_node *cs, const sdkc_type *cause)
{
    const sdkc_type *t = cc_strip_nullable(cause);
    if (t && t->kind == SDKC_TYPE_ARRAY)
        t = cc_strip_nullable(t->u.array.items);
    size_t n = t && t->kind == SDKC_TYPE_UNION ? t->u.union_.nvariants : 1;
    for (size_t i = 0; t && i < n; i++) {
        const sdkc_type *v =
            t->kind == SDKC_TYPE_UNION ? cc_strip_nullable(t->u.union_.variants[i].type) : t;
        sdkc_field *f = (sdkc_field *)cc_field_of(v, "error");
        if (f && f->type && f->type->kind == SDKC_TYPE_NEVER) {
            sdkc_type *any = cc_any(c, cs, f->type->origin, NULL);
            if (any)
                f->type = any;
        }
    }
}

/* The stream a text/event-stream media type describes; *type is the declared body type (the
 * frame, or the item when the schema is the item). */
static sdkc_stream *build_stream(cctx *c, const raw_op *r, const sdkc_node *media, const char *mp,
                                 const sdkc_type **type)
{
    sdkc_stream *s = cc_alloc(c, sizeof *s);
    if (!s)
        return NULL;
    s->encoding = SDKC_ENC_SSE;
    const sdkc_node *schema = sdkc_node_get(media, "schema");
    const sdkc_node *xs = sdkc_node_get(media, "x-effect-stream");
    if (xs) {
        const char *enc = cc_text(sdkc_node_get(xs, "encoding"));
        if (enc && strcmp(enc, "sse") != 0)
            cc_warn(c, xs, "x-effect-stream encoding '%s' treated as sse", enc);
        s->frame = schema ? cc_schema(c, schema, op_context(c, r, "Frame"),
                                      cc_printf(c, "%s/schema", nz(mp)))
                          : cc_any(c, media, NULL, NULL);
        const sdkc_field *data = cc_field_of(s->frame, "data");
        if (data && data->type && data->type->kind == SDKC_TYPE_JSON_STRING) {
            s->item = data->type->u.json_string.content;
            s->item_encoded = true;
        } else if (data) {
            s->item = data->type;
        } else {
            cc_warn(c, schema ? schema : media,
                    "stream frame schema has no 'data' field; the frame is the item");
            s->item = s->frame;
        }
        const char *fe = cc_text(sdkc_node_get(xs, "failureEvent"));
        s->failure_event = fe ? cc_strdup(c, fe) : NULL;
        const sdkc_node *cs = sdkc_node_get(xs, "causeSchema");
        if (cs) {
            s->cause = cc_schema(c, cs, op_context(c, r, "Cause"),
                                 cc_printf(c, "%s/x-effect-stream/causeSchema", nz(mp)));
            loosen_fail_errors(c, cs, s->cause);
        }
        const sdkc_node *es = sdkc_node_get(xs, "errorSchema");
        if (es)
            s->error = cc_schema(c, es, op_context(c, r, "StreamError"),
                                 cc_printf(c, "%s/x-effect-stream/errorSchema", nz(mp)));
        *type = s->frame;
    } else {
        s->item = schema ? cc_schema(c, schema, op_context(c, r, "Event"),
                                     cc_printf(c, "%s/schema", nz(mp)))
                         : cc_any(c, media, NULL, NULL);
        *type = s->item;
    }
    return s;
}

/* ---- durable streams ---- */

static bool integer_type(const sdkc_type *t)
{
    t = cc_strip_nullable(t);
    return t && t->kind == SDKC_TYPE_INTEGER;
}

/* The integer field at path (wire names) in object t. */
static bool int_at(const sdkc_type *t, const char *const *path, size_t depth)
{
    for (size_t i = 0; i < depth; i++) {
        const sdkc_field *f = cc_field_of(t, path[i]);
        if (!f)
            return false;
        t = f->type;
    }
    return integer_type(t);
}

/* The sequence path in one object: a field `seq`/`sequence`, else such a field of an object
 * field (the first in contract order). */
static size_t find_sequence(const sdkc_type *t, const char **path)
{
    static const char *const names[] = {"seq", "sequence"};
    t = cc_strip_nullable(t);
    if (!t || t->kind != SDKC_TYPE_OBJECT)
        return 0;
    for (size_t n = 0; n < 2; n++)
        if (int_at(t, &names[n], 1)) {
            path[0] = names[n];
            return 1;
        }
    for (size_t i = 0; i < t->u.object.nfields; i++) {
        const sdkc_field *f = &t->u.object.fields[i];
        for (size_t n = 0; n < 2; n++) {
            const char *two[2] = {f->wire_name, names[n]};
            if (int_at(t, two, 2)) {
                path[0] = f->wire_name;
                path[1] = names[n];
                return 2;
            }
        }
    }
    return 0;
}

/* Whether every object the item can be (itself, or each variant of a union) has an integer at
 * path. */
static bool item_has(const sdkc_type *item, const char *const *path, size_t depth)
{
    item = cc_strip_nullable(item);
    if (!item)
        return false;
    if (item->kind != SDKC_TYPE_UNION)
        return int_at(item, path, depth);
    if (!item->u.union_.nvariants)
        return false;
    for (size_t i = 0; i < item->u.union_.nvariants; i++)
        if (!int_at(item->u.union_.variants[i].type, path, depth))
            return false;
    return true;
}

const sdkc_param *cc_query_param(const sdkc_operation *op, const char *name)
{
    for (size_t i = 0; name && i < op->nparams; i++)
        if (op->params[i].in == SDKC_PARAM_QUERY && strcmp(op->params[i].wire_name, name) == 0)
            return &op->params[i];
    return NULL;
}

/* The query parameter name when it can carry a sequence: an integer or a plain string. */
static const sdkc_param *after_param(const sdkc_operation *op, const char *name)
{
    const sdkc_param *p = cc_query_param(op, name);
    const sdkc_type *t = p ? cc_strip_nullable(p->type) : NULL;
    if (t && (t->kind == SDKC_TYPE_INTEGER || (t->kind == SDKC_TYPE_STRING && !t->u.str.brand)))
        return p;
    return NULL;
}

static void set_follow(cctx *c, sdkc_operation *op, const char **path, size_t depth,
                       const sdkc_param *after, bool from_option)
{
    sdkc_follow *f = cc_alloc(c, sizeof *f);
    const char **names = cc_alloc(c, depth * sizeof *names);
    if (!f || !names)
        return;
    for (size_t i = 0; i < depth; i++)
        names[i] = cc_strdup(c, path[i]);
    f->sequence = names;
    f->depth = depth;
    f->after_param = after;
    f->from_option = from_option;
    ((sdkc_stream *)op->stream)->follow = f;
}

/* The follow option for op ("OPID=..."), or NULL. */
static const char *follow_option(const cctx *c, const char *id)
{
    size_t n = strlen(id);
    for (size_t i = 0; c->opts && i < c->opts->nfollow; i++) {
        const char *o = c->opts->follow[i];
        if (o && strncmp(o, id, n) == 0 && o[n] == '=')
            return o + n + 1;
    }
    return NULL;
}

static void detect_follow(cctx *c, const raw_op *r, sdkc_operation *op)
{
    if (!op->stream)
        return;
    const char *opt = follow_option(c, op->id);
    const sdkc_type *item = op->stream->item;
    if (opt && strcmp(opt, "off") == 0)
        return;
    if (opt) {
        /* PATH:PARAM, PATH dotted */
        const char *colon = strrchr(opt, ':');
        const char *path[8];
        size_t depth = 0;
        char buf[256];
        bool ok = colon && colon > opt && colon[1] && (size_t)(colon - opt) < sizeof buf;
        if (ok) {
            memcpy(buf, opt, (size_t)(colon - opt));
            buf[colon - opt] = '\0';
            for (char *p = buf, *dot; ok && p; p = dot ? dot + 1 : NULL) {
                dot = strchr(p, '.');
                if (dot)
                    *dot = '\0';
                ok = *p && depth < 8;
                if (ok)
                    path[depth++] = p;
            }
        }
        if (!ok) {
            cc_error(c, r->node, "--follow %s=%s: expected PATH:PARAM (PATH: dotted field names)",
                     op->id, opt);
            return;
        }
        const sdkc_param *after = after_param(op, colon + 1);
        if (!after) {
            cc_error(c, r->node,
                     "--follow %s: '%s' is not an integer or string query parameter of the "
                     "operation",
                     op->id, colon + 1);
            return;
        }
        if (!item_has(item, path, depth)) {
            cc_error(c, r->node,
                     "--follow %s: the stream item (every variant) has no integer at '%.*s'",
                     op->id, (int)(colon - opt), opt);
            return;
        }
        set_follow(c, op, path, depth, after, true);
        return;
    }
    const sdkc_param *after = after_param(op, "after");
    if (!after)
        return;
    const sdkc_type *first = cc_strip_nullable(item);
    if (first && first->kind == SDKC_TYPE_UNION && first->u.union_.nvariants)
        first = first->u.union_.variants[0].type;
    const char *path[2];
    size_t depth = find_sequence(first, path);
    if (depth && item_has(item, path, depth))
        set_follow(c, op, path, depth, after, false);
}

/* Exact statuses, then ranges, then default: the order a response status is matched in. */
static int status_rank(int key)
{
    return key >= 100 ? 0 : key > 0 ? 1 : 2;
}

static int cmp_status_key(int x, int y)
{
    if (status_rank(x) != status_rank(y))
        return status_rank(x) - status_rank(y);
    return x - y;
}

static int cmp_err(const void *a, const void *b)
{
    return cmp_status_key(((const sdkc_error_status *)a)->status,
                          ((const sdkc_error_status *)b)->status);
}

/* A body that is an object whose only field is a required `data`: the client returns that. */
static void unwrap_data(sdkc_success *s)
{
    const sdkc_type *bt = s->type;
    if (bt && bt->kind == SDKC_TYPE_OBJECT && bt->u.object.nfields == 1 &&
        strcmp(bt->u.object.fields[0].wire_name, "data") == 0 && bt->u.object.fields[0].required) {
        s->unwrap = "data";
        s->result = bt->u.object.fields[0].type;
    }
}

/* A declared success that is not the operation's main one (another 2xx, or 2XX besides an exact
 * 2xx): its own encoding and type, decoded as the main one would be (`data` unwrapped). */
static void build_more_success(cctx *c, const raw_op *r, int st, const char *key,
                               const sdkc_node *resp, sdkc_success *out)
{
    out->status = st;
    cc_response_info(c, resp, &out->response);
    const sdkc_pair *pc = pick_content(sdkc_node_get(resp, "content"));
    if (!pc || st == 204) {
        out->encoding = SDKC_ENC_NONE;
        return;
    }
    out->content_type = cc_strdup(c, pc->key->str);
    out->encoding = encoding_of(pc->key->str);
    if (out->encoding == SDKC_ENC_SSE) {
        /* a stream answered at one status and a value at another cannot be one call */
        cc_warn(c, pc->key,
                "operation '%s': response '%s' is a stream besides the main success; it is "
                "returned as raw text",
                r->id, key);
        out->encoding = SDKC_ENC_TEXT;
    }
    const sdkc_node *schema = sdkc_node_get(pc->value, "schema");
    char suffix[24];
    snprintf(suffix, sizeof suffix, "Response%d", st);
    const sdkc_node *declared = sdkc_node_get(sdkc_node_get(r->node, "responses"), key);
    const char *ctx = shared_context(c, component_name(c, declared, "responses"), "Response",
                                     op_context(c, r, suffix));
    out->type = schema
                    ? cc_schema(c, schema, ctx,
                                cc_printf(c, "%s/schema", nz(media_ptr(c, r, key, pc->key->str))))
                    : cc_any(c, pc->value, NULL, NULL);
    out->result = out->type;
    if (out->encoding == SDKC_ENC_BYTES && strchr(pc->key->str, '*') && structured(out->type))
        out->encoding = SDKC_ENC_JSON;
    if (out->encoding == SDKC_ENC_JSON)
        unwrap_data(out);
}

/* The same response also offered as text/event-stream (besides the JSON chosen as the main
 * success): the operation gets a stream variant whose items are the event schema. */
static void build_stream_variant(cctx *c, const raw_op *r, sdkc_operation *op, const char *key,
                                 const sdkc_node *content)
{
    for (size_t i = 0; content && content->kind == SDKC_NODE_MAP && i < content->npairs; i++) {
        const char *ct = content->pairs[i].key->str;
        if (encoding_of(ct) != SDKC_ENC_SSE)
            continue;
        const sdkc_type *type = NULL;
        const sdkc_node *media = content->pairs[i].value;
        if (!sdkc_node_get(media, "schema"))
            cc_warn(c, content->pairs[i].key,
                    "operation '%s': response '%s' %s declares no event schema; stream items "
                    "are raw JSON",
                    r->id, key, ct);
        op->stream_variant = build_stream(c, r, media, media_ptr(c, r, key, ct), &type);
        return;
    }
}

static void build_responses(cctx *c, const raw_op *r, sdkc_operation *op)
{
    const sdkc_node *resps = sdkc_node_get(r->node, "responses");
    if (!resps) {
        /* optional in 3.1, required in 3.0: either way no declared success type, no content,
           any status (success.status 0) */
        if (!c->oas31)
            cc_warn(c, r->node,
                    "operation '%s' has no 'responses' (required in OpenAPI 3.0); treated as "
                    "no content with any status",
                    r->id);
        return;
    }
    if (resps->kind != SDKC_NODE_MAP) {
        cc_error(c, resps, "operation '%s': 'responses' must be a mapping", r->id);
        return;
    }
    sdkc_error_status *errs = cc_alloc(c, (resps->npairs + 1) * sizeof *errs);
    /* every declared 2xx (and 2XX), in contract order */
    size_t *succ = cc_alloc(c, (resps->npairs + 1) * sizeof *succ);
    if (!errs || !succ)
        return;
    size_t ne = 0, ns = 0;
    int best = -1;
    const sdkc_node *best_resp = NULL, *range_resp = NULL, *dflt_resp = NULL;
    const char *best_key = NULL, *range_key = NULL, *dflt_key = NULL;
    for (size_t i = 0; i < resps->npairs; i++) {
        const char *key = resps->pairs[i].key->str;
        int st = status_of(key);
        if (st < 0) {
            if (!is_extension(key))
                cc_warn(c, resps->pairs[i].key, "response '%s' ignored (not a status code)", key);
            continue;
        }
        const sdkc_node *resp = deref(c, resps->pairs[i].value);
        if (!resp)
            continue;
        if (st >= 200 && st < 300) {
            if (best < 0 || st < best) {
                best = st;
                best_resp = resp;
                best_key = key;
            }
            succ[ns++] = i;
            continue;
        }
        if (st == 2) {
            range_resp = resp;
            range_key = key;
            succ[ns++] = i;
            continue;
        }
        if (st == SDKC_STATUS_DEFAULT) {
            dflt_resp = resp;
            dflt_key = key;
            continue;
        }
        build_error(c, r, st, key, resp, &errs[ne++]);
    }
    /* the main success: the lowest 2xx, else 2XX, else `default` (OpenAPI: with no success
       declared, default describes it); otherwise default is the error for every other status.
       The other 2xx statuses (and 2XX besides an exact one) are successes too. */
    if (best < 0 && range_resp) {
        best = 2;
        best_resp = range_resp;
        best_key = range_key;
    }
    if (ns > 1) {
        sdkc_success *more = cc_alloc(c, (ns - 1) * sizeof *more);
        if (!more)
            return;
        /* exact statuses ascending, then the range: the order a status is matched in */
        for (size_t j = 1; j < ns; j++)
            for (size_t k = j;
                 k > 0 && cmp_status_key(status_of(resps->pairs[succ[k]].key->str),
                                         status_of(resps->pairs[succ[k - 1]].key->str)) < 0;
                 k--) {
                size_t t = succ[k];
                succ[k] = succ[k - 1];
                succ[k - 1] = t;
            }
        size_t nm = 0;
        for (size_t j = 0; j < ns; j++) {
            const char *key = resps->pairs[succ[j]].key->str;
            int st = status_of(key);
            if (st != best)
                build_more_success(c, r, st, key, deref(c, resps->pairs[succ[j]].value),
                                   &more[nm++]);
        }
        op->more_successes = more;
        op->nmore_successes = nm;
    }
    if (best < 0 && dflt_resp) {
        best = SDKC_STATUS_DEFAULT;
        best_resp = dflt_resp;
        best_key = dflt_key;
    } else if (dflt_resp) {
        build_error(c, r, SDKC_STATUS_DEFAULT, dflt_key, dflt_resp, &errs[ne++]);
    }
    if (best < 0) {
        /* no 2xx and no default: a redirect is the answer (a download's location), so the
           lowest declared 3xx is the success rather than an error */
        size_t low = ne;
        for (size_t i = 0; i < ne; i++)
            if (errs[i].status >= 300 && errs[i].status < 400 &&
                (low == ne || errs[i].status < errs[low].status))
                low = i;
        if (low < ne) {
            best = errs[low].status;
            char key[8];
            best_key = cc_strdup(c, sdkc_status_text(best, key, sizeof key));
            best_resp = deref(c, sdkc_node_get(resps, best_key));
            memmove(&errs[low], &errs[low + 1], (ne - low - 1) * sizeof *errs);
            ne--;
            cc_warn(c, resps, "operation '%s' declares no 2xx response; its %d is the success",
                    r->id, best);
        }
    }
    qsort(errs, ne, sizeof *errs, cmp_err);
    op->errors = errs;
    op->nerrors = ne;
    if (!best_resp) {
        cc_warn(c, resps, "operation '%s' declares no 2xx response", r->id);
        return;
    }
    op->success.status = best;
    cc_response_info(c, best_resp, &op->success.response);
    const sdkc_node *content = sdkc_node_get(best_resp, "content");
    const sdkc_pair *pc = pick_content(content);
    if (!pc || best == 204) {
        op->success.encoding = SDKC_ENC_NONE;
        return;
    }
    op->success.content_type = cc_strdup(c, pc->key->str);
    op->success.encoding = encoding_of(pc->key->str);
    if (op->success.encoding == SDKC_ENC_SSE) {
        op->stream = build_stream(c, r, pc->value, media_ptr(c, r, best_key, pc->key->str),
                                  &op->success.type);
        op->success.result = op->success.type;
        detect_follow(c, r, op);
        return;
    }
    const sdkc_node *schema = sdkc_node_get(pc->value, "schema");
    const char *ctx =
        shared_context(c, component_name(c, sdkc_node_get(resps, best_key), "responses"),
                       "Response", op_context(c, r, "Response"));
    op->success.type =
        schema ? cc_schema(c, schema, ctx,
                           cc_printf(c, "%s/schema", nz(media_ptr(c, r, best_key, pc->key->str))))
               : cc_any(c, pc->value, NULL, NULL);
    op->success.result = op->success.type;
    if (op->success.encoding == SDKC_ENC_BYTES && strchr(pc->key->str, '*') &&
        structured(op->success.type))
        op->success.encoding = SDKC_ENC_JSON; /* asked for as application/json */
    if (op->success.encoding != SDKC_ENC_JSON)
        return;
    build_stream_variant(c, r, op, best_key, content);
    cc_paginate(c, r->node, best_resp, op);
    if (op->pagination)
        return;
    unwrap_data(&op->success);
}

/* ---- security ---- */

static void build_schemes(cctx *c, sdkc_ir *ir, size_t *ndeclared)
{
    const sdkc_node *ss = sdkc_node_get(sdkc_node_get(c->root, "components"), "securitySchemes");
    size_t n = ss && ss->kind == SDKC_NODE_MAP ? ss->npairs : 0;
    sdkc_security_scheme *s = cc_alloc(c, (n + 1) * sizeof *s);
    if (!s)
        return;
    for (size_t i = 0; i < n; i++) {
        const sdkc_node *v = deref(c, ss->pairs[i].value);
        s[i].name = cc_strdup(c, ss->pairs[i].key->str);
        const char *t = cc_text(sdkc_node_get(v, "type"));
        const char *sch = cc_text(sdkc_node_get(v, "scheme"));
        const char *in = cc_text(sdkc_node_get(v, "in"));
        const char *pn = cc_text(sdkc_node_get(v, "name"));
        s[i].type = t ? cc_strdup(c, t) : NULL;
        s[i].scheme = sch ? cc_strdup(c, sch) : NULL;
        s[i].in = in ? cc_strdup(c, in) : NULL;
        s[i].param = pn ? cc_strdup(c, pn) : NULL;
    }
    ir->schemes = s;
    ir->nschemes = n;
    *ndeclared = n;
}

static void build_security(cctx *c, sdkc_ir *ir, const raw_op *r, sdkc_operation *op,
                           size_t ndeclared)
{
    const sdkc_node *sec = sdkc_node_get(r->node, "security");
    /* In a contract that declares schemes, an operation's own `security: []` (or only `{}`)
       means no credentials, and no implied scheme either. Without declared schemes the 401
       convention wins: HttpApi contracts (OpenCode's) write `security: []` on operations whose
       server wants HTTP Basic. */
    bool explicit_none = sec && sec->kind == SDKC_NODE_SEQ && ndeclared > 0;
    if (!sec)
        sec = sdkc_node_get(c->root, "security");
    size_t cap = 1;
    for (size_t i = 0; sec && sec->kind == SDKC_NODE_SEQ && i < sec->nitems; i++)
        cap += sec->items[i]->kind == SDKC_NODE_MAP ? sec->items[i]->npairs : 0;
    const sdkc_security_scheme **list = cc_alloc(c, cap * sizeof *list);
    bool *with_prev = cc_alloc(c, cap * sizeof *with_prev);
    if (!list || !with_prev || !ir->schemes)
        return;
    size_t n = 0;
    bool several = false;
    for (size_t i = 0; sec && sec->kind == SDKC_NODE_SEQ && i < sec->nitems; i++) {
        const sdkc_node *req = sec->items[i];
        size_t start = n;
        bool complete = true;
        for (size_t j = 0; req->kind == SDKC_NODE_MAP && j < req->npairs; j++) {
            const char *name = req->pairs[j].key->str;
            size_t k = 0;
            for (; k < ndeclared; k++)
                if (strcmp(ir->schemes[k].name, name) == 0)
                    break;
            if (k == ndeclared) {
                cc_error(c, req->pairs[j].key, "security requirement names undeclared scheme '%s'",
                         name);
                complete = false;
                continue;
            }
            with_prev[n] = n > start;
            list[n++] = &ir->schemes[k];
        }
        if (!complete || n - start == 0) {
            /* an empty requirement ({}) makes credentials optional */
            op->security_optional = op->security_optional || (complete && n == start);
            n = start;
            continue;
        }
        several = several || n - start > 1;
        /* a one-scheme requirement already listed as one adds nothing */
        bool dup = false;
        for (size_t q = 0; n - start == 1 && q < start && !dup; q++)
            dup = list[q] == list[start] && !with_prev[q] && (q + 1 == start || !with_prev[q + 1]);
        if (dup)
            n = start;
    }
    if (n == 0 && !explicit_none) {
        bool has401 = false;
        for (size_t i = 0; i < op->nerrors; i++)
            has401 = has401 || op->errors[i].status == 401;
        if (has401) {
            sdkc_security_scheme *imp = (sdkc_security_scheme *)&ir->schemes[ndeclared];
            if (ir->nschemes == ndeclared) {
                imp->name = "basic";
                imp->type = "http";
                imp->scheme = "basic";
                imp->implied = true;
                ir->nschemes = ndeclared + 1;
            }
            with_prev[n] = false;
            list[n++] = imp;
        }
    }
    op->security = list;
    op->security_with_previous = several ? with_prev : NULL;
    op->nsecurity = n;
}

/* Without declared schemes the contract says nothing of authentication: clients send what they
 * are configured with everywhere. Said once, unless the HttpApi convention (401
 * UnauthorizedError) tells that the server wants HTTP Basic. */
static void auth_unspecified(cctx *c, sdkc_ir *ir, size_t ndeclared)
{
    if (ndeclared > 0 || ir->nops == 0)
        return;
    ir->auth_unspecified = true;
    size_t wants = 0;
    for (size_t i = 0; i < ir->nops; i++) {
        for (size_t j = 0; j < ir->ops[i].nerrors; j++) {
            const sdkc_error_status *e = &ir->ops[i].errors[j];
            for (size_t k = 0; e->status == 401 && k < e->ntags; k++)
                if (strcmp(e->tags[k].tag, "UnauthorizedError") == 0)
                    return;
            if (e->status == 401 || e->status == 403) {
                wants++;
                break;
            }
        }
    }
    if (wants)
        cc_warn(c, c->root,
                "the contract declares no security schemes although %zu of its operations answer "
                "401 or 403: clients send their configured credentials (basic, bearer or API key "
                "header) on every operation",
                wants);
}

/* ---- driver ---- */

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
            r->prefix = cc_strdup(c, pre[i]);
            r->rest = r->id + l + 1;
            break;
        }
    }
}

/* ---- webhooks and callbacks ---- */

/* One webhook or callback per operation of a path item the API sends. */
static void hook_item(cctx *c, sdkc_vec *out, const char *name, const char *opid, const char *expr,
                      const sdkc_node *item, const char *ptr)
{
    const sdkc_node *at = item;
    item = deref(c, item);
    if (!item)
        return;
    if (item->kind != SDKC_NODE_MAP) {
        cc_warn(c, at, "%s '%s' ignored: not a path item", opid ? "callback" : "webhook", name);
        return;
    }
    for (size_t j = 0; j < item->npairs; j++) {
        const char *m = item->pairs[j].key->str;
        const sdkc_node *on = item->pairs[j].value;
        if (!is_method(m) || on->kind != SDKC_NODE_MAP)
            continue;
        sdkc_webhook *w = cc_alloc(c, sizeof *w);
        if (!w)
            return;
        const char *id = cc_text(sdkc_node_get(on, "operationId"));
        w->name = cc_strdup(c, name);
        w->operation = opid;
        w->expression = expr ? cc_strdup(c, expr) : NULL;
        w->method = upper(c, m);
        w->id = id ? cc_strdup(c, id) : NULL;
        w->loc = cc_loc(c, on);
        const char *optr = cc_ptr_child(c, ptr, m);
        /* context names: the operationId, else the hook's name and method */
        char *base = sdkc_pascal_case(c->a, id ? id : cc_printf(c, "%s-%s", name, m));
        if (!w->name || !w->method || !optr || !base) {
            c->nomem = true;
            return;
        }
        const sdkc_node *rb = deref(c, sdkc_node_get(on, "requestBody"));
        const sdkc_pair *pc = pick_content(sdkc_node_get(rb, "content"));
        if (pc) {
            sdkc_body *b = cc_alloc(c, sizeof *b);
            if (!b)
                return;
            const sdkc_node *schema = sdkc_node_get(pc->value, "schema");
            const char *o =
                cc_ptr_child(c, cc_printf(c, "%s/requestBody/content", optr), pc->key->str);
            b->content_type = cc_strdup(c, pc->key->str);
            b->type = schema ? cc_schema(c, schema, cc_concat(c, base, "Body"),
                                         cc_ptr_child(c, o, "schema"))
                             : cc_any(c, pc->value, NULL, NULL);
            bool req = false;
            sdkc_node_bool(sdkc_node_get(rb, "required"), &req);
            b->required = req;
            b->docs = cc_docs(c, rb);
            w->body = b;
        }
        const sdkc_node *resps = sdkc_node_get(on, "responses");
        int best = -1;
        const sdkc_pair *bestp = NULL;
        for (size_t i = 0; resps && resps->kind == SDKC_NODE_MAP && i < resps->npairs; i++) {
            int st = status_of(resps->pairs[i].key->str);
            if (st >= 200 && st < 300 && (best < 0 || st < best)) {
                best = st;
                bestp = &resps->pairs[i];
            }
        }
        const sdkc_node *resp = bestp ? deref(c, bestp->value) : NULL;
        const sdkc_pair *rc = pick_content(sdkc_node_get(resp, "content"));
        const sdkc_node *rs = rc ? sdkc_node_get(rc->value, "schema") : NULL;
        if (rs) {
            const char *o =
                cc_ptr_child(c, cc_printf(c, "%s/responses/%d/content", optr, best), rc->key->str);
            w->response =
                cc_schema(c, rs, cc_concat(c, base, "Response"), cc_ptr_child(c, o, "schema"));
        }
        if (!sdkc_vec_push(out, w)) {
            c->nomem = true;
            return;
        }
    }
}

/* The callbacks of one operation: {name: {expression: path item}}, each possibly a $ref. */
static void op_callbacks(cctx *c, sdkc_vec *out, const raw_op *r, const sdkc_operation *op)
{
    const sdkc_node *cbs = sdkc_node_get(r->node, "callbacks");
    if (!cbs)
        return;
    if (cbs->kind != SDKC_NODE_MAP) {
        cc_warn(c, cbs, "operation '%s': 'callbacks' must be a mapping; ignored", op->id);
        return;
    }
    const char *base = cc_printf(c, "%s/callbacks", nz(r->ptr));
    for (size_t i = 0; i < cbs->npairs; i++) {
        const char *name = cbs->pairs[i].key->str;
        if (is_extension(name))
            continue;
        const sdkc_node *cb = deref(c, cbs->pairs[i].value);
        if (!cb || cb->kind != SDKC_NODE_MAP) {
            if (cb)
                cc_warn(c, cbs->pairs[i].key, "callback '%s' ignored: not a mapping", name);
            continue;
        }
        const char *cptr = cc_ptr_child(c, base, name);
        for (size_t j = 0; j < cb->npairs; j++) {
            const char *expr = cb->pairs[j].key->str;
            if (!is_extension(expr))
                hook_item(c, out, name, op->id, expr, cb->pairs[j].value,
                          cc_ptr_child(c, cptr, expr));
        }
    }
}

/* Top-level `webhooks` (OpenAPI 3.1): {name: path item}. */
static void webhooks(cctx *c, sdkc_vec *out)
{
    const sdkc_node *wh = sdkc_node_get(c->root, "webhooks");
    if (!wh)
        return;
    if (wh->kind != SDKC_NODE_MAP) {
        cc_error(c, wh, "'webhooks' must be a mapping");
        return;
    }
    for (size_t i = 0; i < wh->npairs; i++) {
        const char *name = wh->pairs[i].key->str;
        if (!is_extension(name))
            hook_item(c, out, name, NULL, NULL, wh->pairs[i].value,
                      cc_ptr_child(c, "/webhooks", name));
    }
}

static void finish_hooks(cctx *c, sdkc_ir *ir, sdkc_vec *hooks)
{
    sdkc_webhook *ws = hooks->len ? cc_alloc(c, hooks->len * sizeof *ws) : NULL;
    for (size_t i = 0; ws && i < hooks->len; i++)
        ws[i] = *(const sdkc_webhook *)hooks->items[i];
    ir->webhooks = ws;
    ir->nwebhooks = ws ? hooks->len : 0;
    sdkc_vec_cleanup(hooks);
}

void cc_operations(cctx *c, sdkc_ir *ir)
{
    sdkc_vec hooks = {0};
    webhooks(c, &hooks);
    const sdkc_node *paths = sdkc_node_get(c->root, "paths");
    if (!paths) {
        if (!hooks.len) /* 3.1: a contract may hold only webhooks */
            cc_warn(c, c->root, "contract has no 'paths'");
        finish_hooks(c, ir, &hooks);
        return;
    }
    if (paths->kind != SDKC_NODE_MAP) {
        cc_error(c, paths, "'paths' must be a mapping");
        sdkc_vec_cleanup(&hooks);
        return;
    }
    size_t cap = 0;
    for (size_t i = 0; i < paths->npairs; i++) {
        const sdkc_node *item = deref(c, paths->pairs[i].value); /* a $ref: its target's count */
        if (item && item->kind == SDKC_NODE_MAP)
            cap += item->npairs;
    }
    raw_op *raw = calloc(cap ? cap : 1, sizeof *raw);
    sdkc_operation *ops = cc_alloc(c, (cap ? cap : 1) * sizeof *ops);
    const sdkc_node **keys = calloc(cap ? cap : 1, sizeof *keys);
    sdkc_map ids;
    sdkc_map_init(&ids, SDKC_MAP_STRINGS);
    size_t n = 0, ndeclared = 0;
    if (!raw || !ops || !keys) {
        c->nomem = true;
        goto done;
    }
    for (size_t i = 0; i < paths->npairs; i++) {
        const sdkc_node *pk = paths->pairs[i].key;
        if (is_extension(pk->str))
            continue; /* the Paths object may be extended */
        const sdkc_node *item = deref(c, paths->pairs[i].value);
        bool item_ref = item != paths->pairs[i].value;
        if (item_ref && paths->pairs[i].value->npairs > 1)
            cc_warn(c, pk,
                    "path item '%s' has a $ref and other fields: only the referenced path item "
                    "is used",
                    pk->str);
        if (!item || item->kind != SDKC_NODE_MAP) {
            if (item)
                cc_error(c, pk, "path item '%s' must be a mapping", pk->str);
            continue;
        }
        if (pk->str[0] != '/')
            cc_error(c, pk, "path '%s' must start with '/'", pk->str);
        for (size_t j = 0; j < item->npairs; j++) {
            const char *m = item->pairs[j].key->str;
            if (!is_method(m))
                continue;
            /* An operation is no $ref target by the specification, but contracts write one: it is
             * followed (the operation is the referenced one's, at this path and method). */
            const sdkc_node *on = deref(c, item->pairs[j].value);
            if (!on)
                continue; /* a dangling $ref, reported */
            if (on->kind != SDKC_NODE_MAP) {
                cc_error(c, on, "operation %s %s must be a mapping", m, pk->str);
                continue;
            }
            raw_op *r = &raw[n];
            r->node = on;
            r->path_item = item;
            r->path = pk->str;
            /* A fragment is never sent (RFC 3986): converted AWS contracts tell operations on one
             * path apart with "/#X-Amz-Target=...". A query string is parsed for its variables. */
            const char *hash = strchr(pk->str, '#');
            size_t plen = hash ? (size_t)(hash - pk->str) : strlen(pk->str);
            const char *qm = memchr(pk->str, '?', plen);
            size_t rlen = qm ? (size_t)(qm - pk->str) : plen;
            r->route = rlen == strlen(pk->str) ? pk->str : sdkc_arena_strndup(c->a, pk->str, rlen);
            r->query = qm ? sdkc_arena_strndup(c->a, qm + 1, plen - rlen - 1) : NULL;
            r->fragment = hash ? hash + 1 : NULL;
            if (!r->route || (qm && !r->query)) {
                c->nomem = true;
                goto done;
            }
            r->method = m;
            r->item_ptr = cc_ptr_child(c, "/paths", pk->str);
            r->ptr = cc_ptr_child(c, r->item_ptr, m);
            const sdkc_node *idn = sdkc_node_get(on, "operationId");
            const char *id = cc_text(idn);
            if (!id) {
                char *gen = cc_printf(c, "%s%s", m, pk->str);
                id = gen;
                cc_warn(c, on, "operation %s %s has no operationId; using '%s'", m, pk->str,
                        gen ? gen : "");
            }
            if (!id)
                goto done;
            raw_op *prev = sdkc_map_get(&ids, id);
            if (prev && prev->node == on) {
                /* one operation reached twice through $ref (two paths referring to one path item,
                   an operation referring to another): the second gets an id of its own */
                char *gen = cc_printf(c, "%s%s", m, pk->str);
                if (!gen)
                    goto done;
                cc_warn(c, item_ref ? pk : item->pairs[j].value,
                        "operation %s %s is, through $ref, the operation of %s %s: its operationId "
                        "'%s' stays there; using '%s' here",
                        m, pk->str, prev->method, prev->path, id, gen);
                id = gen;
                prev = sdkc_map_get(&ids, id);
            }
            if (prev) {
                const sdkc_node *pn = sdkc_node_get(prev->node, "operationId");
                cc_error(c, idn ? idn : on,
                         "duplicate operationId '%s' (first used at line %u, column %u)", id,
                         pn ? (unsigned)pn->loc.line : 0, pn ? (unsigned)pn->loc.col : 0);
                continue;
            }
            if (!sdkc_map_put(&ids, id, r)) {
                c->nomem = true;
                goto done;
            }
            if (!included(c->opts, id))
                continue;
            r->id = cc_strdup(c, id);
            if (!r->id)
                goto done;
            split_id(c, r);
            keys[n] = pk;
            n++;
        }
    }
    for (size_t i = 0; i < n; i++)
        cc_op_seed(c, &ops[i], raw[i].node, raw[i].id, raw[i].prefix, raw[i].route);
    cc_name_ops(c, ops, n);
    for (size_t i = 0; i < n; i++)
        raw[i].safe = ops[i].safe_name;
    build_schemes(c, ir, &ndeclared);
    for (size_t i = 0; i < n && !c->nomem; i++) {
        raw_op *r = &raw[i];
        sdkc_operation *op = &ops[i];
        op->method = upper(c, r->method);
        op->path = cc_strdup(c, r->route);
        op->fragment = r->fragment ? cc_strdup(c, r->fragment) : NULL;
        const char *s = cc_text(sdkc_node_get(r->node, "summary"));
        op->summary = s ? cc_strdup(c, s) : NULL;
        op->description = cc_docs(c, r->node);
        bool dep = false;
        sdkc_node_bool(sdkc_node_get(r->node, "deprecated"), &dep);
        op->deprecated = dep;
        op->loc = cc_loc(c, r->node);
        c->op_context = op_context(c, r, "");
        build_body(c, r, op);
        build_params(c, r, op, keys[i], op->body != NULL);
        build_responses(c, r, op);
        c->op_context = NULL;
        build_security(c, ir, r, op, ndeclared);
        op_callbacks(c, &hooks, r, op);
    }
    for (size_t k = 0; c->opts && k < c->opts->nfollow; k++) {
        const char *o = c->opts->follow[k];
        const char *eq = o ? strchr(o, '=') : NULL;
        bool found = false;
        for (size_t i = 0; eq && i < n && !found; i++)
            found = ops[i].stream && strlen(ops[i].id) == (size_t)(eq - o) &&
                    strncmp(ops[i].id, o, (size_t)(eq - o)) == 0;
        if (!found)
            cc_warn(c, NULL, "--follow %s: no stream operation has that id", o ? o : "(null)");
    }
    ir->ops = ops;
    ir->nops = n;
    auth_unspecified(c, ir, ndeclared);
done:
    finish_hooks(c, ir, &hooks);
    sdkc_map_cleanup(&ids);
    free(raw);
    free(keys);
}
