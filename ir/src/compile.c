/* compile.c - the compiler driver: a loaded contract document in, an IR out. Also the shared
 * context helpers and IR lookups. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "compile_internal.h"

/* ---- context helpers ---- */

sdkc_loc cc_loc(const cctx *c, const sdkc_node *n)
{
    sdkc_loc l = {c->file, 0, 0};
    if (n) {
        l.line = n->loc.line;
        l.col = n->loc.col;
    }
    return l;
}

static void report(cctx *c, sdkc_severity sev, const sdkc_node *n, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));

static void report(cctx *c, sdkc_severity sev, const sdkc_node *n, const char *fmt, va_list ap)
{
    if (sev == SDKC_SEV_ERROR)
        c->nerrors++;
    if (c->diag)
        sdkc_diag_vadd(c->diag, sev, cc_loc(c, n), fmt, ap);
}

void cc_error(cctx *c, const sdkc_node *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(c, SDKC_SEV_ERROR, n, fmt, ap);
    va_end(ap);
}

void cc_warn(cctx *c, const sdkc_node *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(c, SDKC_SEV_WARNING, n, fmt, ap);
    va_end(ap);
}

void *cc_alloc(cctx *c, size_t n)
{
    if (n == 0)
        n = 1;
    void *p = sdkc_arena_alloc(c->a, n);
    if (!p)
        c->nomem = true;
    return p;
}

char *cc_strdup(cctx *c, const char *s)
{
    if (!s)
        return NULL;
    char *p = sdkc_arena_strdup(c->a, s);
    if (!p)
        c->nomem = true;
    return p;
}

char *cc_printf(cctx *c, const char *fmt, ...)
{
    /* sdkc_arena_vprintf: %s-only formats without vsnprintf, the rest with the same output. */
    va_list ap;
    va_start(ap, fmt);
    char *r = sdkc_arena_vprintf(c->a, fmt, ap);
    va_end(ap);
    if (!r)
        c->nomem = true;
    return r;
}

char *cc_ptr_child(cctx *c, const char *base, const char *seg)
{
    size_t bl = strlen(base ? base : ""), sl = strlen(seg ? seg : "");
    char *out = cc_alloc(c, bl + 2 * sl + 2);
    if (!out)
        return NULL;
    memcpy(out, base ? base : "", bl);
    size_t o = bl;
    out[o++] = '/';
    for (size_t i = 0; i < sl; i++) {
        if (seg[i] == '~') {
            out[o++] = '~';
            out[o++] = '0';
        } else if (seg[i] == '/') {
            out[o++] = '~';
            out[o++] = '1';
        } else {
            out[o++] = seg[i];
        }
    }
    out[o] = '\0';
    return out;
}

char *cc_ptr_index(cctx *c, const char *base, size_t i)
{
    char digits[24];
    size_t nd = 0;
    do {
        digits[nd++] = (char)('0' + i % 10);
        i /= 10;
    } while (i > 0);
    size_t bl = base ? strlen(base) : 0;
    char *out = cc_alloc(c, bl + nd + 2);
    if (!out)
        return NULL;
    if (bl)
        memcpy(out, base, bl);
    out[bl] = '/';
    for (size_t k = 0; k < nd; k++)
        out[bl + 1 + k] = digits[nd - 1 - k];
    out[bl + 1 + nd] = '\0';
    return out;
}

char *cc_concat(cctx *c, const char *a, const char *b)
{
    size_t la = a ? strlen(a) : 0, lb = b ? strlen(b) : 0;
    char *out = cc_alloc(c, la + lb + 1);
    if (!out)
        return NULL;
    if (la)
        memcpy(out, a, la);
    if (lb)
        memcpy(out + la, b, lb);
    out[la + lb] = '\0';
    return out;
}

const char *cc_text(const sdkc_node *n)
{
    return n ? sdkc_node_text(n) : NULL;
}

const char *cc_docs(cctx *c, const sdkc_node *schema)
{
    const sdkc_node *d = sdkc_node_get(schema, "description");
    const char *t = d && d->kind == SDKC_NODE_SCALAR ? d->str : NULL;
    return t ? cc_strdup(c, t) : NULL;
}

/* ---- spellings ---- */

const char *sdkc_type_kind_name(sdkc_type_kind k)
{
    static const char *const names[] = {
        "string", "integer", "number", "boolean", "null",     "literal",     "enum", "array",
        "tuple",  "map",     "object", "union",   "nullable", "json-string", "any",  "never",
    };
    return (size_t)k < sizeof names / sizeof names[0] ? names[k] : "any";
}

const char *sdkc_param_in_name(sdkc_param_in in)
{
    static const char *const names[] = {"path", "query", "header", "cookie"};
    return (size_t)in < sizeof names / sizeof names[0] ? names[in] : "query";
}

const char *sdkc_param_style_name(sdkc_param_style style)
{
    static const char *const names[] = {"simple", "form",           "deepObject",   "label",
                                        "matrix", "spaceDelimited", "pipeDelimited"};
    return (size_t)style < sizeof names / sizeof names[0] ? names[style] : "simple";
}

const char *sdkc_encoding_name(sdkc_encoding e)
{
    static const char *const names[] = {"none", "json", "sse", "bytes", "text"};
    return (size_t)e < sizeof names / sizeof names[0] ? names[e] : "none";
}

/* ---- owner ---- */

sdkc_status sdkc_compiled_new(sdkc_compiled **out)
{
    *out = NULL;
    sdkc_compiled *c = calloc(1, sizeof *c);
    if (!c)
        return SDKC_ERR_NOMEM;
    if (sdkc_arena_new(&c->arena) != SDKC_OK) {
        free(c);
        return SDKC_ERR_NOMEM;
    }
    *out = c;
    return SDKC_OK;
}

void sdkc_compiled_free(sdkc_compiled *c)
{
    if (!c)
        return;
    sdkc_arena_free(c->arena);
    free(c);
}

const sdkc_ir *sdkc_compiled_ir(const sdkc_compiled *c)
{
    return c ? &c->ir : NULL;
}

const sdkc_operation *sdkc_ir_operation(const sdkc_ir *ir, const char *id)
{
    if (!ir || !id)
        return NULL;
    for (size_t i = 0; i < ir->nops; i++)
        if (ir->ops[i].id && strcmp(ir->ops[i].id, id) == 0)
            return &ir->ops[i];
    return NULL;
}

const sdkc_type *sdkc_ir_type(const sdkc_ir *ir, const char *name)
{
    if (!ir || !name)
        return NULL;
    size_t lo = 0, hi = ir->ntypes;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int r = strcmp(ir->types[mid]->name, name);
        if (r == 0)
            return ir->types[mid];
        if (r < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* ---- driver ---- */

static void ctx_cleanup(cctx *c)
{
    sdkc_map_cleanup(&c->comp_by_node);
    sdkc_map_cleanup(&c->ref_cache);
    sdkc_map_cleanup(&c->busy);
    sdkc_map_cleanup(&c->reported);
    sdkc_map_cleanup(&c->disc_hints);
    sdkc_map_cleanup(&c->names);
    sdkc_map_cleanup(&c->snakes);
    sdkc_map_cleanup(&c->titles);
    sdkc_map_cleanup(&c->brands);
    sdkc_vec_cleanup(&c->named);
    sdkc_vec_cleanup(&c->all);
    sdkc_vec_cleanup(&c->unions);
    for (size_t i = 0; i < c->brand_list.len; i++) {
        brand_acc *b = c->brand_list.items[i];
        free(b->names);
        free(b->counts);
        free(b);
    }
    sdkc_vec_cleanup(&c->brand_list);
    sdkc_map_cleanup(&c->pages_used);
    sdkc_doc_free(c->pages_doc);
}

static const char *info_text(cctx *c, const sdkc_node *info, const char *key)
{
    const char *t = cc_text(sdkc_node_get(info, key));
    return t ? cc_strdup(c, t) : NULL;
}

const char *sdkc_ir_default_server(const sdkc_ir *ir)
{
    return ir && ir->nservers && ir->servers[0].absolute ? ir->servers[0].url : NULL;
}

/* http:// or https:// and a host. */
static bool absolute_http(const char *u)
{
    size_t n = strncasecmp(u, "https://", 8) == 0 ? 8 : strncasecmp(u, "http://", 7) == 0 ? 7 : 0;
    return n && u[n] && u[n] != '/' && u[n] != '?' && u[n] != '#';
}

/* One server: its URL with each {variable} replaced by the variable's default. */
static void cc_server(cctx *c, sdkc_server *out, const sdkc_node *node, size_t i)
{
    out->loc = cc_loc(c, node);
    const sdkc_node *un = sdkc_node_get(node, "url");
    const char *url = cc_text(un);
    if (!url) {
        cc_warn(c, node, "servers[%zu] has no url: left out", i);
        return;
    }
    const sdkc_node *vars = sdkc_node_get(node, "variables");
    bool resolved = true;
    sdkc_buf b = SDKC_BUF_INIT;
    for (const char *p = url; *p;) {
        const char *close = *p == '{' ? strchr(p, '}') : NULL;
        if (!close) {
            sdkc_buf_putc(&b, *p++);
            continue;
        }
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(close - p - 1), p + 1);
        const sdkc_node *v = sdkc_node_get(vars, name);
        const char *def = cc_text(sdkc_node_get(v, "default"));
        if (def) {
            sdkc_buf_puts(&b, def);
        } else {
            cc_warn(c, un,
                    "servers[%zu]: variable {%s} has %s: the URL keeps it and is no base URL", i,
                    name, v ? "no default" : "no declaration");
            sdkc_buf_append(&b, p, (size_t)(close - p + 1));
            resolved = false;
        }
        p = close + 1;
    }
    sdkc_buf_putc(&b, '\0');
    if (b.oom) {
        c->nomem = true;
    } else {
        out->url = cc_strdup(c, b.data);
        out->absolute = resolved && absolute_http(b.data);
    }
    sdkc_buf_cleanup(&b);
    const char *d = cc_text(sdkc_node_get(node, "description"));
    out->description = d ? cc_strdup(c, d) : NULL;
    if (out->url && resolved && !out->absolute && i == 0)
        cc_warn(c, un,
                "servers[0] URL '%s' is not an absolute http(s) URL: generated clients have no "
                "default base URL and need one given",
                out->url);
}

/* The top-level servers; servers of path items and operations are reported, not used. */
static void cc_servers(cctx *c, sdkc_ir *ir)
{
    const sdkc_node *list = sdkc_node_get(c->root, "servers");
    if (list && list->kind == SDKC_NODE_SEQ && list->nitems) {
        sdkc_server *v = cc_alloc(c, list->nitems * sizeof *v);
        if (!v)
            return;
        size_t n = 0;
        for (size_t i = 0; i < list->nitems; i++) {
            cc_server(c, &v[n], list->items[i], i);
            if (v[n].url)
                n++;
        }
        ir->servers = v;
        ir->nservers = n;
    }
    const sdkc_node *paths = sdkc_node_get(c->root, "paths");
    for (size_t i = 0; paths && paths->kind == SDKC_NODE_MAP && i < paths->npairs; i++) {
        const sdkc_node *item = paths->pairs[i].value;
        const sdkc_node *own = sdkc_node_get(item, "servers");
        if (own)
            cc_warn(c, own,
                    "servers of path '%s' are not supported: its operations use the "
                    "client's base URL",
                    cc_text(paths->pairs[i].key));
        for (size_t k = 0; item && item->kind == SDKC_NODE_MAP && k < item->npairs; k++) {
            const sdkc_node *opn = item->pairs[k].value;
            const sdkc_node *os =
                opn && opn->kind == SDKC_NODE_MAP ? sdkc_node_get(opn, "servers") : NULL;
            if (os)
                cc_warn(c, os,
                        "servers of operation %s '%s' are not supported: it uses the "
                        "client's base URL",
                        cc_text(item->pairs[k].key), cc_text(paths->pairs[i].key));
        }
    }
}

sdkc_status sdkc_compile(sdkc_compiled **out, const sdkc_doc *doc, const sdkc_compile_options *opts,
                         sdkc_diag *diag)
{
    static const sdkc_compile_options defaults = SDKC_COMPILE_OPTIONS_INIT;
    sdkc_status st = SDKC_OK;
    sdkc_compiled *res = NULL;
    cctx c;
    memset(&c, 0, sizeof c);
    sdkc_map_init(&c.comp_by_node, SDKC_MAP_POINTERS);
    sdkc_map_init(&c.ref_cache, SDKC_MAP_POINTERS);
    sdkc_map_init(&c.busy, SDKC_MAP_POINTERS);
    sdkc_map_init(&c.reported, SDKC_MAP_POINTERS);
    sdkc_map_init(&c.disc_hints, SDKC_MAP_POINTERS);
    sdkc_map_init(&c.names, SDKC_MAP_STRINGS);
    sdkc_map_init(&c.snakes, SDKC_MAP_STRINGS);
    sdkc_map_init(&c.titles, SDKC_MAP_STRINGS);
    sdkc_map_init(&c.brands, SDKC_MAP_STRINGS);
    sdkc_map_init(&c.pages_used, SDKC_MAP_POINTERS);
    if (out)
        *out = NULL;
    if (!out || !doc) {
        st = SDKC_ERR_INVALID;
        goto done;
    }
    st = sdkc_compiled_new(&res);
    if (st != SDKC_OK)
        goto done;
    c.a = res->arena;
    c.doc = doc;
    c.diag = diag;
    c.opts = opts ? opts : &defaults;
    c.root = sdkc_doc_root(doc);
    c.file = cc_strdup(&c, sdkc_doc_name(doc) ? sdkc_doc_name(doc) : "<contract>");
    if (!c.file) {
        st = SDKC_ERR_NOMEM;
        goto done;
    }
    sdkc_ir *ir = &res->ir;
    ir->source_name = c.file;
    ir->source_sha256 = cc_strdup(&c, sdkc_doc_sha256(doc) ? sdkc_doc_sha256(doc) : "");
    if (!c.root || c.root->kind != SDKC_NODE_MAP) {
        cc_error(&c, c.root, "contract is not a mapping (expected an OpenAPI document)");
        st = SDKC_ERR_INVALID;
        goto done;
    }
    const sdkc_node *ver = sdkc_node_get(c.root, "openapi");
    const char *vt = cc_text(ver);
    if (!vt)
        cc_error(&c, c.root, "missing 'openapi' version field");
    else if (strncmp(vt, "3.", 2) != 0)
        cc_error(&c, ver, "unsupported OpenAPI version '%s' (expected 3.0 or 3.1)", vt);
    else
        c.oas31 = strncmp(vt, "3.0", 3) != 0 || (vt[3] != '\0' && vt[3] != '.');
    const sdkc_node *info = sdkc_node_get(c.root, "info");
    ir->title = info_text(&c, info, "title");
    ir->version = info_text(&c, info, "version");
    ir->description = info_text(&c, info, "description");
    cc_servers(&c, ir);

    if (!cc_schemas_init(&c))
        c.nomem = true;
    if (!c.nomem)
        cc_schemas_fill(&c);
    if (!c.nomem && !cc_pages_config_load(&c))
        c.nomem = true;
    if (!c.nomem)
        cc_operations(&c, ir);
    if (!c.nomem)
        cc_pages_config_finish(&c, ir);
    if (!c.nomem)
        cc_schemas_finish(&c, ir);
    if (c.nomem) {
        st = SDKC_ERR_NOMEM;
        goto done;
    }
    if (c.nerrors > 0) {
        st = SDKC_ERR_INVALID;
        goto done;
    }
    *out = res;
    res = NULL;
done:
    ctx_cleanup(&c);
    sdkc_compiled_free(res);
    return st;
}

sdkc_status sdkc_compile_file(sdkc_compiled **out, const char *path,
                              const sdkc_compile_options *opts, sdkc_diag *diag)
{
    if (!out)
        return SDKC_ERR_INVALID;
    *out = NULL;
    sdkc_doc *doc = NULL;
    sdkc_status st = sdkc_doc_load_file(&doc, path, diag);
    if (st == SDKC_OK)
        st = sdkc_compile(out, doc, opts, diag);
    sdkc_doc_free(doc);
    return st;
}
