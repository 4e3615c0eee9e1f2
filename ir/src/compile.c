/* compile.c - the compiler driver: a loaded contract document in, an IR out. Also the shared
 * context helpers and IR lookups. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "compile_internal.h"

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
    const char *t = sdkc_cc_text(sdkc_node_get(info, key));
    return t ? sdkc_cc_strdup(c, t) : NULL;
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
    out->loc = sdkc_cc_loc(c, node);
    const sdkc_node *un = sdkc_node_get(node, "url");
    const char *url = sdkc_cc_text(un);
    if (!url) {
        sdkc_cc_warn(c, node, "servers[%zu] has no url: left out", i);
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
        const char *def = sdkc_cc_text(sdkc_node_get(v, "default"));
        if (def) {
            sdkc_buf_puts(&b, def);
        } else {
            sdkc_cc_warn(c, un,
                         "servers[%zu]: variable {%s} has %s: the URL keeps it and is no base URL",
                         i, name, v ? "no default" : "no declaration");
            sdkc_buf_append(&b, p, (size_t)(close - p + 1));
            resolved = false;
        }
        p = close + 1;
    }
    sdkc_buf_putc(&b, '\0');
    if (b.oom) {
        c->nomem = true;
    } else {
        out->url = sdkc_cc_strdup(c, b.data);
        out->absolute = resolved && absolute_http(b.data);
    }
    sdkc_buf_cleanup(&b);
    const char *d = sdkc_cc_text(sdkc_node_get(node, "description"));
    out->description = d ? sdkc_cc_strdup(c, d) : NULL;
    if (out->url && resolved && !out->absolute && i == 0)
        sdkc_cc_warn(
            c, un,
            "servers[0] URL '%s' is not an absolute http(s) URL: generated clients have no "
            "default base URL and need one given",
            out->url);
}

/* The top-level servers; servers of path items and operations are reported, not used. */
static void cc_servers(cctx *c, sdkc_ir *ir)
{
    const sdkc_node *list = sdkc_node_get(c->root, "servers");
    if (list && list->kind == SDKC_NODE_SEQ && list->nitems) {
        sdkc_server *v = sdkc_cc_alloc(c, list->nitems * sizeof *v);
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
            sdkc_cc_warn(c, own,
                         "servers of path '%s' are not supported: its operations use the "
                         "client's base URL",
                         sdkc_cc_text(paths->pairs[i].key));
        for (size_t k = 0; item && item->kind == SDKC_NODE_MAP && k < item->npairs; k++) {
            const sdkc_node *opn = item->pairs[k].value;
            const sdkc_node *os =
                opn && opn->kind == SDKC_NODE_MAP ? sdkc_node_get(opn, "servers") : NULL;
            if (os)
                sdkc_cc_warn(c, os,
                             "servers of operation %s '%s' are not supported: it uses the "
                             "client's base URL",
                             sdkc_cc_text(item->pairs[k].key), sdkc_cc_text(paths->pairs[i].key));
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
    c.file = sdkc_cc_strdup(&c, sdkc_doc_name(doc) ? sdkc_doc_name(doc) : "<contract>");
    if (!c.file) {
        st = SDKC_ERR_NOMEM;
        goto done;
    }
    sdkc_ir *ir = &res->ir;
    ir->source_name = c.file;
    ir->source_sha256 = sdkc_cc_strdup(&c, sdkc_doc_sha256(doc) ? sdkc_doc_sha256(doc) : "");
    if (!c.root || c.root->kind != SDKC_NODE_MAP) {
        sdkc_cc_error(&c, c.root, "contract is not a mapping (expected an OpenAPI document)");
        st = SDKC_ERR_INVALID;
        goto done;
    }
    const sdkc_node *ver = sdkc_node_get(c.root, "openapi");
    const char *vt = sdkc_cc_text(ver);
    if (!vt)
        sdkc_cc_error(&c, c.root, "missing 'openapi' version field");
    else if (strncmp(vt, "3.", 2) != 0)
        sdkc_cc_error(&c, ver, "unsupported OpenAPI version '%s' (expected 3.0 or 3.1)", vt);
    else
        c.oas31 = strncmp(vt, "3.0", 3) != 0 || (vt[3] != '\0' && vt[3] != '.');
    const sdkc_node *info = sdkc_node_get(c.root, "info");
    ir->title = info_text(&c, info, "title");
    ir->version = info_text(&c, info, "version");
    ir->description = info_text(&c, info, "description");
    cc_servers(&c, ir);

    if (!sdkc_schema_declare_components(&c))
        c.nomem = true;
    if (!c.nomem)
        sdkc_schema_fill_components(&c);
    if (!c.nomem && !sdkc_paging_load_config(&c))
        c.nomem = true;
    if (!c.nomem)
        sdkc_ops_build(&c, ir);
    if (!c.nomem)
        sdkc_paging_check_config(&c, ir);
    if (!c.nomem)
        sdkc_schema_finish(&c, ir);
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
