/* ops_hooks.c - webhooks (OpenAPI 3.1) and callbacks: requests the API sends, with their bodies
 * and expected responses. */
#include <string.h>

#include "ops_internal.h"
#include "sdkc/naming.h"

/* ---- webhooks and callbacks ---- */

/* One webhook or callback per operation of a path item the API sends. */
static void hook_item(cctx *c, sdkc_vec *out, const char *name, const char *opid, const char *expr,
                      const sdkc_node *item, const char *ptr)
{
    const sdkc_node *at = item;
    item = sdkc_cc_deref(c, item);
    if (!item)
        return;
    if (item->kind != SDKC_NODE_MAP) {
        sdkc_cc_warn(c, at, "%s '%s' ignored: not a path item", opid ? "callback" : "webhook",
                     name);
        return;
    }
    for (size_t j = 0; j < item->npairs; j++) {
        const char *m = item->pairs[j].key->str;
        const sdkc_node *on = item->pairs[j].value;
        if (!sdkc_ops_is_method(m) || on->kind != SDKC_NODE_MAP)
            continue;
        sdkc_webhook *w = sdkc_cc_alloc(c, sizeof *w);
        if (!w)
            return;
        const char *id = sdkc_cc_text(sdkc_node_get(on, "operationId"));
        w->name = sdkc_cc_strdup(c, name);
        w->operation = opid;
        w->expression = expr ? sdkc_cc_strdup(c, expr) : NULL;
        w->method = sdkc_ops_upper(c, m);
        w->id = id ? sdkc_cc_strdup(c, id) : NULL;
        w->loc = sdkc_cc_loc(c, on);
        const char *optr = sdkc_cc_ptr_child(c, ptr, m);
        /* context names: the operationId, else the hook's name and method */
        char *base = sdkc_pascal_case(c->a, id ? id : sdkc_cc_printf(c, "%s-%s", name, m));
        if (!w->name || !w->method || !optr || !base) {
            c->nomem = true;
            return;
        }
        const sdkc_node *rb = sdkc_cc_deref(c, sdkc_node_get(on, "requestBody"));
        const sdkc_pair *pc = sdkc_ops_pick_content(sdkc_node_get(rb, "content"));
        if (pc) {
            sdkc_body *b = sdkc_cc_alloc(c, sizeof *b);
            if (!b)
                return;
            const sdkc_node *schema = sdkc_node_get(pc->value, "schema");
            const char *o = sdkc_cc_ptr_child(c, sdkc_cc_printf(c, "%s/requestBody/content", optr),
                                              pc->key->str);
            b->content_type = sdkc_cc_strdup(c, pc->key->str);
            b->type = schema ? sdkc_schema_type(c, schema, sdkc_cc_concat(c, base, "Body"),
                                                sdkc_cc_ptr_child(c, o, "schema"))
                             : sdkc_schema_any(c, pc->value, NULL, NULL);
            bool req = false;
            sdkc_node_bool(sdkc_node_get(rb, "required"), &req);
            b->required = req;
            b->docs = sdkc_cc_docs(c, rb);
            w->body = b;
        }
        const sdkc_node *resps = sdkc_node_get(on, "responses");
        int best = -1;
        const sdkc_pair *bestp = NULL;
        for (size_t i = 0; resps && resps->kind == SDKC_NODE_MAP && i < resps->npairs; i++) {
            int st = sdkc_ops_status_of(resps->pairs[i].key->str);
            if (st >= 200 && st < 300 && (best < 0 || st < best)) {
                best = st;
                bestp = &resps->pairs[i];
            }
        }
        const sdkc_node *resp = bestp ? sdkc_cc_deref(c, bestp->value) : NULL;
        const sdkc_pair *rc = sdkc_ops_pick_content(sdkc_node_get(resp, "content"));
        const sdkc_node *rs = rc ? sdkc_node_get(rc->value, "schema") : NULL;
        if (rs) {
            const char *o = sdkc_cc_ptr_child(
                c, sdkc_cc_printf(c, "%s/responses/%d/content", optr, best), rc->key->str);
            w->response = sdkc_schema_type(c, rs, sdkc_cc_concat(c, base, "Response"),
                                           sdkc_cc_ptr_child(c, o, "schema"));
        }
        if (!sdkc_vec_push(out, w)) {
            c->nomem = true;
            return;
        }
    }
}

/* The callbacks of one operation: {name: {expression: path item}}, each possibly a $ref. */
void sdkc_ops_op_callbacks(cctx *c, sdkc_vec *out, const raw_op *r, const sdkc_operation *op)
{
    const sdkc_node *cbs = sdkc_node_get(r->node, "callbacks");
    if (!cbs)
        return;
    if (cbs->kind != SDKC_NODE_MAP) {
        sdkc_cc_warn(c, cbs, "operation '%s': 'callbacks' must be a mapping; ignored", op->id);
        return;
    }
    const char *base = sdkc_cc_printf(c, "%s/callbacks", nz(r->ptr));
    for (size_t i = 0; i < cbs->npairs; i++) {
        const char *name = cbs->pairs[i].key->str;
        if (sdkc_ops_is_extension(name))
            continue;
        const sdkc_node *cb = sdkc_cc_deref(c, cbs->pairs[i].value);
        if (!cb || cb->kind != SDKC_NODE_MAP) {
            if (cb)
                sdkc_cc_warn(c, cbs->pairs[i].key, "callback '%s' ignored: not a mapping", name);
            continue;
        }
        const char *cptr = sdkc_cc_ptr_child(c, base, name);
        for (size_t j = 0; j < cb->npairs; j++) {
            const char *expr = cb->pairs[j].key->str;
            if (!sdkc_ops_is_extension(expr))
                hook_item(c, out, name, op->id, expr, cb->pairs[j].value,
                          sdkc_cc_ptr_child(c, cptr, expr));
        }
    }
}

/* Top-level `webhooks` (OpenAPI 3.1): {name: path item}. */
void sdkc_ops_webhooks(cctx *c, sdkc_vec *out)
{
    const sdkc_node *wh = sdkc_node_get(c->root, "webhooks");
    if (!wh)
        return;
    if (wh->kind != SDKC_NODE_MAP) {
        sdkc_cc_error(c, wh, "'webhooks' must be a mapping");
        return;
    }
    for (size_t i = 0; i < wh->npairs; i++) {
        const char *name = wh->pairs[i].key->str;
        if (!sdkc_ops_is_extension(name))
            hook_item(c, out, name, NULL, NULL, wh->pairs[i].value,
                      sdkc_cc_ptr_child(c, "/webhooks", name));
    }
}

void sdkc_ops_finish_hooks(cctx *c, sdkc_ir *ir, sdkc_vec *hooks)
{
    sdkc_webhook *ws = hooks->len ? sdkc_cc_alloc(c, hooks->len * sizeof *ws) : NULL;
    for (size_t i = 0; ws && i < hooks->len; i++)
        ws[i] = *(const sdkc_webhook *)hooks->items[i];
    ir->webhooks = ws;
    ir->nwebhooks = ws ? hooks->len : 0;
    sdkc_vec_cleanup(hooks);
}
