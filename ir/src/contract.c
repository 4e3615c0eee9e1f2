/* contract.c - the contract's header: its OpenAPI version, info and servers. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "contract.h"

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
static void server(cctx *c, sdkc_server *out, const sdkc_node *node, size_t i)
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
static void servers(cctx *c, sdkc_ir *ir)
{
    const sdkc_node *list = sdkc_node_get(c->root, "servers");
    if (list && list->kind == SDKC_NODE_SEQ && list->nitems) {
        sdkc_server *v = sdkc_cc_alloc(c, list->nitems * sizeof *v);
        if (!v)
            return;
        size_t n = 0;
        for (size_t i = 0; i < list->nitems; i++) {
            server(c, &v[n], list->items[i], i);
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

bool sdkc_contract_header(cctx *c, sdkc_ir *ir)
{
    ir->source_name = c->file;
    ir->source_sha256 = sdkc_cc_strdup(c, sdkc_doc_sha256(c->doc) ? sdkc_doc_sha256(c->doc) : "");
    if (!c->root || c->root->kind != SDKC_NODE_MAP) {
        sdkc_cc_error(c, c->root, "contract is not a mapping (expected an OpenAPI document)");
        return false;
    }
    const sdkc_node *ver = sdkc_node_get(c->root, "openapi");
    const char *vt = sdkc_cc_text(ver);
    if (!vt)
        sdkc_cc_error(c, c->root, "missing 'openapi' version field");
    else if (strncmp(vt, "3.", 2) != 0)
        sdkc_cc_error(c, ver, "unsupported OpenAPI version '%s' (expected 3.0 or 3.1)", vt);
    else
        c->oas31 = strncmp(vt, "3.0", 3) != 0 || (vt[3] != '\0' && vt[3] != '.');
    const sdkc_node *info = sdkc_node_get(c->root, "info");
    ir->title = info_text(c, info, "title");
    ir->version = info_text(c, info, "version");
    ir->description = info_text(c, info, "description");
    servers(c, ir);
    return !c->nomem;
}
