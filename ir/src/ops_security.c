/* ops_security.c - security schemes, each operation's requirements, and the Basic scheme that a
 * contract without schemes implies by answering 401. */
#include <string.h>

#include "ops_internal.h"

/* ---- security ---- */

void sdkc_ops_build_schemes(cctx *c, sdkc_ir *ir, size_t *ndeclared)
{
    const sdkc_node *ss = sdkc_node_get(sdkc_node_get(c->root, "components"), "securitySchemes");
    size_t n = ss && ss->kind == SDKC_NODE_MAP ? ss->npairs : 0;
    sdkc_security_scheme *s = sdkc_cc_alloc(c, (n + 1) * sizeof *s);
    if (!s)
        return;
    for (size_t i = 0; i < n; i++) {
        const sdkc_node *v = sdkc_cc_deref(c, ss->pairs[i].value);
        s[i].name = sdkc_cc_strdup(c, ss->pairs[i].key->str);
        const char *t = sdkc_cc_text(sdkc_node_get(v, "type"));
        const char *sch = sdkc_cc_text(sdkc_node_get(v, "scheme"));
        const char *in = sdkc_cc_text(sdkc_node_get(v, "in"));
        const char *pn = sdkc_cc_text(sdkc_node_get(v, "name"));
        s[i].type = t ? sdkc_cc_strdup(c, t) : NULL;
        s[i].scheme = sch ? sdkc_cc_strdup(c, sch) : NULL;
        s[i].in = in ? sdkc_cc_strdup(c, in) : NULL;
        s[i].param = pn ? sdkc_cc_strdup(c, pn) : NULL;
    }
    ir->schemes = s;
    ir->nschemes = n;
    *ndeclared = n;
}

void sdkc_ops_build_security(cctx *c, sdkc_ir *ir, const raw_op *r, sdkc_operation *op,
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
    const sdkc_security_scheme **list = sdkc_cc_alloc(c, cap * sizeof *list);
    bool *with_prev = sdkc_cc_alloc(c, cap * sizeof *with_prev);
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
                sdkc_cc_error(c, req->pairs[j].key,
                              "security requirement names undeclared scheme '%s'", name);
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
void sdkc_ops_auth_unspecified(cctx *c, sdkc_ir *ir, size_t ndeclared)
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
        sdkc_cc_warn(
            c, c->root,
            "the contract declares no security schemes although %zu of its operations answer "
            "401 or 403: clients send their configured credentials (basic, bearer or API key "
            "header) on every operation",
            wants);
}
