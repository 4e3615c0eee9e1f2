/* ops_params.c - an operation's parameters: path-item and operation parameters merged, path
 * template variables matched, a query string written into the path, styles, safe names. */
#include <string.h>
#include <strings.h>

#include "ops_internal.h"
#include "sdkc/naming.h"

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
const char *sdkc_ops_component_name(cctx *c, const sdkc_node *n, const char *section)
{
    const sdkc_node *refnode = sdkc_node_get(n, "$ref");
    if (!refnode)
        return NULL;
    const sdkc_node *target = sdkc_cc_resolve_ref(c, refnode);
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
const char *sdkc_ops_shared_context(cctx *c, const char *key, const char *suffix,
                                    const char *op_ctx)
{
    if (!key)
        return op_ctx;
    if (sdkc_schema_name_free(c, key))
        return key;
    const char *alt = sdkc_cc_concat(c, key, suffix);
    return alt && sdkc_schema_name_free(c, alt) ? alt : op_ctx;
}

static sdkc_param_in param_in(const char *in)
{
    int i = SDKC_SPELLING_INDEX(sdkc_param_in_names, in);
    return i < 0 ? SDKC_PARAM_QUERY : (sdkc_param_in)i;
}

sdkc_param_style sdkc_ops_param_style(const char *s, sdkc_param_in in)
{
    if (!s)
        return in == SDKC_PARAM_QUERY || in == SDKC_PARAM_COOKIE ? SDKC_STYLE_FORM
                                                                 : SDKC_STYLE_SIMPLE;
    int i = SDKC_SPELLING_INDEX(sdkc_param_style_names, s);
    return i < 0 ? SDKC_STYLE_SIMPLE : (sdkc_param_style)i;
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
    const char *bases[2] = {sdkc_cc_printf(c, "%s/parameters", nz(r->item_ptr)),
                            sdkc_cc_printf(c, "%s/parameters", nz(r->ptr))};
    for (int l = 0; l < 2; l++) {
        const sdkc_node *list = lists[l];
        if (!list)
            continue;
        if (list->kind != SDKC_NODE_SEQ) {
            sdkc_cc_error(c, list, "'parameters' must be a list");
            continue;
        }
        for (size_t i = 0; i < list->nitems && n < max; i++) {
            const sdkc_node *p = sdkc_cc_deref(c, list->items[i]);
            if (!p)
                continue;
            const char *name = sdkc_cc_text(sdkc_node_get(p, "name"));
            const char *in = sdkc_cc_text(sdkc_node_get(p, "in"));
            if (!name || !in) {
                sdkc_cc_error(c, list->items[i], "parameter needs 'name' and 'in'");
                continue;
            }
            if (strcmp(in, "path") != 0 && strcmp(in, "query") != 0 && strcmp(in, "header") != 0 &&
                strcmp(in, "cookie") != 0) {
                sdkc_cc_error(c, sdkc_node_get(p, "in"), "parameter '%s': unknown location '%s'",
                              name, in);
                continue;
            }
            bool auth = strcasecmp(name, "Authorization") == 0;
            if (strcmp(in, "header") == 0 &&
                (strcasecmp(name, "Accept") == 0 || strcasecmp(name, "Content-Type") == 0 ||
                 (auth && declares_schemes(c)))) {
                /* the media types and security schemes say what goes there */
                sdkc_cc_warn(
                    c, list->items[i],
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
                sdkc_cc_error(c, list->items[i], "duplicate parameter '%s' in %s", name, in);
                continue;
            }
            if (j < n && l == 1) {
                /* replaces the path-item one, unless both come from the operation */
                bool from_op = false;
                const sdkc_node *ol = lists[1];
                for (size_t q = 0; q < i && !from_op; q++)
                    from_op = sdkc_cc_deref(c, ol->items[q]) == out[j].node;
                if (from_op) {
                    sdkc_cc_error(c, list->items[i], "duplicate parameter '%s' in %s", name, in);
                    continue;
                }
                out[j].node = p;
                out[j].origin = sdkc_cc_ptr_child(c, sdkc_cc_ptr_index(c, bases[l], i), "schema");
                out[j].component = sdkc_ops_component_name(c, list->items[i], "parameters");
                continue;
            }
            out[n].node = p;
            out[n].component = sdkc_ops_component_name(c, list->items[i], "parameters");
            out[n].name = name;
            out[n].in = in;
            out[n].origin = sdkc_cc_ptr_child(c, sdkc_cc_ptr_index(c, bases[l], i), "schema");
            n++;
        }
    }
    return n;
}

static void build_param(cctx *c, const raw_op *r, const praw *pr, sdkc_param *p, sdkc_map *safe)
{
    const sdkc_node *node = pr->node;
    p->wire_name = sdkc_cc_strdup(c, pr->name);
    p->in = param_in(pr->in);
    const sdkc_node *style = sdkc_node_get(node, "style");
    p->style = sdkc_ops_param_style(sdkc_cc_text(style), p->in);
    if (style && p->style == SDKC_STYLE_SIMPLE &&
        strcmp(sdkc_cc_text(style) ? sdkc_cc_text(style) : "", "simple") != 0)
        sdkc_cc_warn(c, style, "parameter '%s': unknown style '%s', using simple", pr->name,
                     sdkc_cc_text(style) ? sdkc_cc_text(style) : "");
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
    p->docs = sdkc_cc_docs(c, node);
    p->loc = sdkc_cc_loc(c, node);
    const sdkc_node *schema = sdkc_node_get(node, "schema");
    const sdkc_node *content = sdkc_node_get(node, "content");
    if (!schema && content && content->kind == SDKC_NODE_MAP && content->npairs > 0)
        schema = sdkc_node_get(content->pairs[0].value, "schema");
    const char *ctx =
        sdkc_cc_concat(c, sdkc_ops_op_type_name(c, r, ""), sdkc_pascal_case(c->a, pr->name));
    ctx = sdkc_ops_shared_context(c, pr->component, "Param", ctx);
    if (schema)
        p->type = sdkc_schema_type(c, schema, ctx, pr->origin);
    else
        p->type = sdkc_schema_any(c, node, NULL, NULL);
    p->safe_name = sdkc_cc_unique_c_name(c, safe, pr->name, p);
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

/* Percent-decoded copy of s[0..n) (a malformed escape is kept as written). */
static char *pct_decode(cctx *c, const char *s, size_t n)
{
    char *out = sdkc_cc_alloc(c, n + 1);
    size_t o = 0;
    for (size_t i = 0; out && i < n; i++) {
        int hi = i + 2 < n && s[i] == '%' ? sdkc_hex_digit(s[i + 1]) : -1;
        int lo = hi >= 0 ? sdkc_hex_digit(s[i + 2]) : -1;
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
            sdkc_cc_warn(c, pathkey,
                         "query string pair '%.*s' in path '%s' cannot be represented (%s); it is "
                         "not sent",
                         (int)(end - q), q, r->path,
                         val ? "a value mixing text and template variables"
                             : "a key without a value");
            /* its variables are accounted for: the warning says they are dropped */
            const char *vars[16];
            size_t nv =
                val ? template_vars(c, sdkc_cc_printf(c, "%.*s", (int)vlen, val), vars, 16) : 0;
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
                sdkc_cc_warn(
                    c, pathkey,
                    "query template variable '{%s}' in path '%s' has no parameter; sent as "
                    "a required string query parameter '%s'",
                    var, r->path, key);
                p->wire_name = key;
                p->in = SDKC_PARAM_QUERY;
                p->style = SDKC_STYLE_FORM;
                p->explode = true;
                p->required = true;
                p->type = sdkc_schema_plain_string(c, pathkey);
                p->loc = sdkc_cc_loc(c, pathkey);
                p->safe_name = sdkc_cc_unique_c_name(c, safe, key, p);
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
                sdkc_cc_warn(
                    c, sdkc_node_get(raw[j].node, "name"),
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
        p->type = sdkc_schema_string_literal(c, pathkey, value);
        p->loc = sdkc_cc_loc(c, pathkey);
        p->safe_name = sdkc_cc_unique_c_name(c, safe, key, p);
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

void sdkc_ops_build_params(cctx *c, const raw_op *r, sdkc_operation *op, const sdkc_node *pathkey,
                           bool has_body)
{
    enum { MAXP = 256 };
    praw raw[MAXP];
    const char *vars[MAXP];
    size_t n = collect_params(c, r, raw, MAXP);
    size_t nv = template_vars(c, r->route, vars, MAXP);
    size_t nq = query_pairs(r->query);
    sdkc_param *ps = sdkc_cc_alloc(c, (n + nq ? n + nq : 1) * sizeof *ps);
    if (!ps)
        return;
    sdkc_map safe;
    sdkc_map_init(&safe, SDKC_MAP_STRINGS);
    if (has_body && !sdkc_map_put(&safe, "body", (void *)1))
        c->nomem = true;
    size_t k = 0;
    bool *used = sdkc_cc_alloc(c, (n ? n : 1) * sizeof *used);
    if (!used)
        goto done;
    for (size_t v = 0; v < nv; v++) {
        size_t j = 0;
        for (; j < n; j++)
            if (!used[j] && strcmp(raw[j].in, "path") == 0 && strcmp(raw[j].name, vars[v]) == 0)
                break;
        if (j == n) {
            sdkc_cc_error(c, pathkey,
                          "path template variable '{%s}' of %s %s has no path parameter", vars[v],
                          op->method, r->path);
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
                sdkc_cc_error(c, sdkc_node_get(raw[j].node, "name"),
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
