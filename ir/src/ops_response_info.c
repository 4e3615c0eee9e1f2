/* ops_response_info.c - what a declared response says besides its body: every media type of its
 * content, its headers and its OpenAPI links (sdkc_response_info), kept in the IR so that
 * conformance needs nothing but the IR. */
#include <string.h>

#include "ops_internal.h"

/* A $ref of a header or link followed without a report: they do not change what clients send
 * or decode, so a broken one leaves only that header or link out. */
static const sdkc_node *deref_quiet(cctx *c, const sdkc_node *n)
{
    for (int i = 0; n && i < 32; i++) {
        const char *ref = sdkc_cc_text(sdkc_node_get(n, "$ref"));
        if (!ref)
            return n->kind == SDKC_NODE_MAP ? n : NULL;
        n = ref[0] == '#' ? sdkc_doc_pointer(c->doc, ref + 1) : NULL;
    }
    return NULL;
}

/* The response's media types, headers and links (what conformance checks besides the body). */
void sdkc_ops_response_info(cctx *c, const sdkc_node *resp, sdkc_response_info *out)
{
    const sdkc_node *content = sdkc_node_get(resp, "content");
    const sdkc_node *headers = sdkc_node_get(resp, "headers");
    const sdkc_node *links = sdkc_node_get(resp, "links");
    if (content && content->kind == SDKC_NODE_MAP && content->npairs) {
        const char **mt = sdkc_cc_alloc(c, content->npairs * sizeof *mt);
        for (size_t i = 0; mt && i < content->npairs; i++)
            mt[out->nmedia_types++] = sdkc_cc_strdup(c, content->pairs[i].key->str);
        out->media_types = mt;
    }
    if (headers && headers->kind == SDKC_NODE_MAP && headers->npairs) {
        sdkc_header *hs = sdkc_cc_alloc(c, headers->npairs * sizeof *hs);
        for (size_t i = 0; hs && i < headers->npairs; i++) {
            const sdkc_node *h = deref_quiet(c, headers->pairs[i].value);
            if (!h)
                continue;
            sdkc_header *o = &hs[out->nheaders++];
            bool req = false;
            o->name = sdkc_cc_strdup(c, headers->pairs[i].key->str);
            o->required = sdkc_node_bool(sdkc_node_get(h, "required"), &req) && req;
            o->docs = sdkc_cc_docs(c, h);
        }
        out->headers = hs;
    }
    if (links && links->kind == SDKC_NODE_MAP && links->npairs) {
        sdkc_link *ls = sdkc_cc_alloc(c, links->npairs * sizeof *ls);
        for (size_t i = 0; ls && i < links->npairs; i++) {
            const sdkc_node *l = deref_quiet(c, links->pairs[i].value);
            const char *target = sdkc_cc_text(sdkc_node_get(l, "operationId"));
            if (!target)
                continue;
            sdkc_link *o = &ls[out->nlinks++];
            o->name = sdkc_cc_strdup(c, links->pairs[i].key->str);
            o->operation_id = sdkc_cc_strdup(c, target);
            const sdkc_node *ps = sdkc_node_get(l, "parameters");
            if (!ps || ps->kind != SDKC_NODE_MAP || !ps->npairs)
                continue;
            sdkc_link_param *lp = sdkc_cc_alloc(c, ps->npairs * sizeof *lp);
            for (size_t j = 0; lp && j < ps->npairs; j++) {
                const char *v = sdkc_cc_text(ps->pairs[j].value);
                if (!v)
                    continue;
                lp[o->nparams].name = sdkc_cc_strdup(c, ps->pairs[j].key->str);
                lp[o->nparams++].value = sdkc_cc_strdup(c, v);
            }
            o->params = lp;
        }
        out->links = ls;
    }
}
