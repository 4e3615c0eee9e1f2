/* probe_chain.c - the stateful phase's sequences. A POST makes a resource of the chain's own, and
 * the chain follows that very id through the operations the creating answer links to (OpenAPI
 * links) and those its path implies: read it (after-create), update it and read it again
 * (after-update), find it in the list (in-list), delete it and read it no more (after-delete).
 * A chain runs in one worker, in order; chains of different creators may run at once (-j N). */
#include "probe_internal.h"

typedef struct chain {
    worker *wk;
    const sdkc_operation *creator;
    /* inferred from the creator's path P: GET, PUT, PATCH, DELETE of P/{x}; GET of P */
    const sdkc_operation *reader, *updaters[2], *deleter, *lister;
    const sdkc_response_info *links; /* of the creating answer, or NULL */
    const json_t *body;              /* the creating answer's body (borrowed), or NULL */
    const sdkrt_response *resp;      /* the creating answer (borrowed) */
    json_t *id;                      /* what the POST made (new) */
    bool conditional;                /* the contract says the creation is conditional */
} chain;

static bool usable(const runner *rn, const sdkc_operation *o)
{
    return o && conform_included(rn->opts, o->id) && !conform_skip_reason(rn->opts, o->id);
}

static const sdkc_operation *op_by_id(const runner *rn, const char *id)
{
    for (size_t i = 0; id && i < rn->ir->nops; i++)
        if (strcmp(rn->ir->ops[i].id, id) == 0)
            return &rn->ir->ops[i];
    return NULL;
}

static bool item_op(const chain *c, const sdkc_operation *o)
{
    return o && (o == c->reader || o == c->updaters[0] || o == c->updaters[1] || o == c->deleter);
}

/* ---- OpenAPI links of the creating answer ---- */

/* A link expression's value in the creating answer (new), or NULL: $response.body#/pointer,
 * $response.header.NAME, or a constant. Other expressions ($request.*, templates) are not
 * resolved. */
static json_t *link_expr(const chain *c, const char *expr)
{
    if (strncmp(expr, "$response.body#", 15) == 0) {
        const json_t *v = conform_link_value(expr, c->body);
        return v ? json_deep_copy(v) : NULL;
    }
    if (strncmp(expr, "$response.header.", 17) == 0) {
        const char *h = c->resp ? sdkrt_response_header(c->resp, expr + 17) : NULL;
        return h ? json_string(h) : NULL;
    }
    if (expr[0] != '$' && !strchr(expr, '{'))
        return json_string(expr);
    return NULL;
}

/* The target's parameter a link names: "path.itemId" (qualified) or "itemId" (by name). */
static const sdkc_param *link_param(const sdkc_operation *t, const char *name)
{
    static const sdkc_param_in ins[] = {SDKC_PARAM_PATH, SDKC_PARAM_QUERY, SDKC_PARAM_HEADER,
                                        SDKC_PARAM_COOKIE};
    for (size_t i = 0; i < sizeof ins / sizeof ins[0]; i++) {
        const char *in = sdkc_param_in_name(ins[i]);
        size_t n = strlen(in);
        if (strncmp(name, in, n) == 0 && name[n] == '.')
            return conform_param_named(t, ins[i], name + n + 1);
    }
    for (size_t i = 0; i < sizeof ins / sizeof ins[0]; i++) {
        const sdkc_param *p = conform_param_named(t, ins[i], name);
        if (p)
            return p;
    }
    return NULL;
}

/* The first link of the creating answer to t, or NULL. */
static const sdkc_link *link_to(const chain *c, const sdkc_operation *t)
{
    for (size_t i = 0; c->links && i < c->links->nlinks; i++)
        if (c->links->links[i].operation_id && strcmp(c->links->links[i].operation_id, t->id) == 0)
            return &c->links->links[i];
    return NULL;
}

/* The values link l gives its target t, as a generated request's changes (gc->params); false
 * with *why (new) when one cannot be resolved or does not fit its parameter. */
static bool link_case(chain *c, const sdkc_link *l, const sdkc_operation *t, gen_case *gc,
                      char **why)
{
    memset(gc, 0, sizeof *gc);
    gc->mode = MODE_VALID;
    gc->target = -1;
    gc->params = json_object();
    *why = NULL;
    for (size_t j = 0; gc->params && j < l->nparams && !*why; j++) {
        const sdkc_link_param *lp = &l->params[j];
        const sdkc_param *p = link_param(t, lp->name);
        json_t *raw = p ? link_expr(c, lp->value) : NULL;
        json_t *v = raw ? conform_param_value(c->wk, p, raw) : NULL;
        char *key = v ? conform_param_key(p) : NULL;
        if (key && json_object_set_new(gc->params, key, v) == 0) {
            v = NULL;
        } else {
            sdkc_buf b = SDKC_BUF_INIT;
            sdkc_buf_printf(&b, "the link %s to %s: %s = %s %s", l->name ? l->name : "?", t->id,
                            lp->name, lp->value,
                            !p     ? "names no parameter of it"
                            : !raw ? "is not in the answer (or not an expression sdkc resolves)"
                                   : "does not fit the parameter");
            *why = sdkc_buf_steal(&b, NULL);
            sdkc_buf_cleanup(&b);
            if (!*why)
                *why = conform_strdup("out of memory");
        }
        json_decref(raw);
        json_decref(v);
        free(key);
    }
    if (!gc->params && !*why)
        *why = conform_strdup("out of memory");
    return !*why;
}

/* ---- the steps ---- */

/* One step on the chain's resource: op with the values a link to it gives, else with the
 * chain's id as its last path parameter. Returns the answer's status (0: none); *used (new, may
 * be NULL) gets the last path parameter's value it was sent with. */
static int step(chain *c, const sdkc_operation *op, const char *probe, probe_mode mode,
                json_t **used)
{
    gen_case gc;
    char *why = NULL;
    const sdkc_link *l = link_to(c, op);
    bool linked = l && link_case(c, l, op, &gc, &why);
    free(why);
    req_plan plan = {.mode = mode};
    const sdkc_param *last = conform_last_path_param(op);
    json_t *id = NULL;
    if (linked) {
        plan.gc = &gc;
        char *key = last ? conform_param_key(last) : NULL;
        id = key ? json_incref(json_object_get(gc.params, key)) : NULL;
        free(key);
    } else {
        if (l)
            json_decref(gc.params);
        /* the id made to fit the parameter (a Location's "7" for an integer): a valid request;
           else it is sent as it came, and the request is not judged as a valid one (Prism's
           Location example /messages/{messageId} for a uuid) */
        id = last ? conform_param_value(c->wk, last, c->id) : NULL;
        plan.chain = id != NULL;
        if (!id)
            id = json_incref(c->id);
        plan.last_id = id;
    }
    probe_out out;
    conform_run_probe(c->wk, op, probe, &plan, NULL, &out);
    free(plan.why);
    int status = out.status;
    conform_probe_out_cleanup(&out);
    if (linked)
        json_decref(gc.params);
    if (used)
        *used = id;
    else
        json_decref(id);
    return status;
}

/* Links to operations the inferred steps do not take, of one kind (LINK_GET, LINK_WRITE,
 * LINK_DELETE): GETs are read like after-create (the resource just made is there to read), other
 * methods judged by the response checks. */
enum { LINK_GET, LINK_WRITE, LINK_DELETE };

static void follow_links(chain *c, int kind)
{
    runner *rn = c->wk->rn;
    for (size_t i = 0; c->links && i < c->links->nlinks; i++) {
        const sdkc_link *l = &c->links->links[i];
        const sdkc_operation *t = op_by_id(rn, l->operation_id);
        if (!usable(rn, t) || item_op(c, t) || (t->stream && t->success.encoding == SDKC_ENC_SSE))
            continue;
        bool get = strcmp(t->method, "GET") == 0;
        int k = get ? LINK_GET : strcmp(t->method, "DELETE") == 0 ? LINK_DELETE : LINK_WRITE;
        if (k != kind)
            continue;
        if (get && (!conform_check_on(rn, CHECK_AVAILABILITY) || c->conditional))
            continue;
        sdkc_buf name = SDKC_BUF_INIT;
        sdkc_buf_printf(&name, "link:%s", t->id);
        gen_case gc;
        char *why = NULL;
        if (!name.data) {
            rn->r->oom = true;
        } else if (!link_case(c, l, t, &gc, &why)) {
            probe_ctx pc = {.wk = c->wk, .rn = rn, .op = t, .probe = name.data, .desc = t->path};
            ADD(&pc, "probe", SDKC_VERDICT_SKIP, NULL, NULL, "not followed: %s", why);
            json_decref(gc.params);
        } else {
            req_plan plan = {.mode = get ? MODE_AFTER_CREATE : MODE_VALID, .gc = &gc};
            probe_out out;
            conform_run_probe(c->wk, t, name.data, &plan, NULL, &out);
            free(plan.why);
            conform_probe_out_cleanup(&out);
            json_decref(gc.params);
        }
        free(why);
        sdkc_buf_cleanup(&name);
    }
}

/* "7" for 7 and "7" alike: ids compared as the text they are in a URL. */
static char *id_text(const json_t *v)
{
    char buf[32];
    if (json_is_string(v))
        return conform_strdup(json_string_value(v));
    if (json_is_integer(v)) {
        snprintf(buf, sizeof buf, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
        return conform_strdup(buf);
    }
    return NULL;
}

/* in-list: the collection's GET shows what the chain made, where it is certain to: the item's
 * GET served it (a POST may answer with an id and make nothing), the list is
 * not paginated and needs no parameter the run would have to invent (no required query, header
 * or cookie parameter); either it has a size parameter, asked for up to 100 items (within its
 * maximum) and answered with fewer (a short page is the last, as the runtime's page rules say),
 * or it has no optional parameter at all (nothing that could filter or page by default); and
 * every item of the answer has an `id`. Otherwise nothing is judged. */
static void in_list(chain *c)
{
    worker *wk = c->wk;
    runner *rn = wk->rn;
    const sdkc_operation *l = c->lister;
    if (!usable(rn, l) || l->pagination || !conform_check_on(rn, CHECK_AVAILABILITY))
        return;
    for (size_t i = 0; i < l->nparams; i++)
        if (l->params[i].required && l->params[i].in != SDKC_PARAM_PATH)
            return;
    const sdkc_param *size = conform_size_param(l);
    long limit = size ? conform_page_size(l, PAGE_BIG) : 0;
    if ((size && limit < 1) || (!size && conform_has_optional_params(l)))
        return;
    char *want = id_text(c->id);
    req_plan plan = {.mode = MODE_VALID, .limit = limit};
    probe_out out;
    conform_run_probe(wk, l, "in-list", &plan, NULL, &out);
    free(plan.why);
    const sdkc_success *sx = conform_success_read(l, out.status);
    const json_t *items = sx && sx->unwrap && json_is_object(out.body)
                              ? json_object_get(out.body, sx->unwrap)
                              : out.body;
    size_t n = json_array_size(items);
    bool certain = want && json_is_array(items) && (!limit || (long)n < limit);
    bool found = false;
    for (size_t i = 0; certain && i < n; i++) {
        const json_t *it = json_array_get(items, i);
        char *got = id_text(json_object_get(it, "id"));
        certain = got != NULL; /* an item without an id: the list cannot be read for ours */
        found = found || (got && strcmp(got, want) == 0);
        free(got);
    }
    if (certain) {
        probe_ctx pc = {.wk = wk, .rn = rn, .op = l, .probe = "in-list", .desc = l->path};
        if (found)
            ADD(&pc, CHECK_AVAILABILITY, SDKC_VERDICT_PASS, NULL, NULL,
                "the resource just made (id %s) is listed", want);
        else
            ADD(&pc, CHECK_AVAILABILITY, SDKC_VERDICT_DEVIATION, NULL, "in-list",
                "the resource %s just made (id %s) is not among the %zu items of its list (%s); "
                "GET %s",
                c->creator->id, want, n,
                limit ? "fewer than the page size asked for: the whole list"
                      : "no parameter that pages or filters: the whole list",
                l->path);
    }
    free(want);
    conform_probe_out_cleanup(&out);
}

/* The first string of brand b in v, read along its type t (borrowed), or NULL. */
static const json_t *find_brand(const sdkc_type *t, const json_t *v, const sdkc_brand *b, int depth)
{
    if (!t || !v || depth > 16)
        return NULL;
    const json_t *got = NULL;
    switch (t->kind) {
    case SDKC_TYPE_STRING: {
        const char *pre = b->prefix ? b->prefix : "";
        return t->u.str.brand == b && json_is_string(v) &&
                       strncmp(json_string_value(v), pre, strlen(pre)) == 0
                   ? v
                   : NULL;
    }
    case SDKC_TYPE_NULLABLE:
        return find_brand(t->u.nullable.inner, v, b, depth + 1);
    case SDKC_TYPE_OBJECT:
        for (size_t i = 0; !got && json_is_object(v) && i < t->u.object.nfields; i++)
            got = find_brand(t->u.object.fields[i].type,
                             json_object_get(v, t->u.object.fields[i].wire_name), b, depth + 1);
        return got;
    default:
        return NULL; /* not in arrays or unions: one value of the brand, the made one's */
    }
}

/* The id the chain follows: the last path parameter a link to an item operation gives, else
 * the made resource's `id` field or Location, else the first value in the answer of the brand
 * the item operations' last path parameter has ({"location": ..., "data": {"id": "pty_..."}}).
 * New, or NULL. */
static json_t *chain_id(chain *c, int status, const char *location)
{
    const sdkc_operation *items[] = {c->reader, c->updaters[0], c->updaters[1], c->deleter};
    for (size_t i = 0; i < sizeof items / sizeof items[0]; i++) {
        const sdkc_link *l = items[i] ? link_to(c, items[i]) : NULL;
        const sdkc_param *last = items[i] ? conform_last_path_param(items[i]) : NULL;
        for (size_t j = 0; l && last && j < l->nparams; j++) {
            json_t *v = link_param(items[i], l->params[j].name) == last
                            ? link_expr(c, l->params[j].value)
                            : NULL;
            if (v)
                return v;
        }
    }
    json_t *id = conform_created_id(c->creator, status, c->body, location);
    const sdkc_success *sx = conform_success_read(c->creator, status);
    for (size_t i = 0; !id && sx && i < sizeof items / sizeof items[0]; i++) {
        const sdkc_param *last = items[i] ? conform_last_path_param(items[i]) : NULL;
        const sdkc_type *t = last ? conform_unwrap_nullable(last->type) : NULL;
        const json_t *v = t && t->kind == SDKC_TYPE_STRING && t->u.str.brand
                              ? find_brand(sx->type, c->body, t->u.str.brand, 0)
                              : NULL;
        id = v ? json_deep_copy(v) : NULL;
    }
    return id;
}

/* Does the chain have anything to follow (and a check to follow it for)? */
static bool worth(const chain *c, const runner *rn)
{
    bool avail = conform_check_on(rn, CHECK_AVAILABILITY);
    bool gone = conform_check_on(rn, CHECK_USE_AFTER);
    const sdkc_response_info *ri = &c->creator->success.response;
    return (avail || gone) && (c->reader || c->updaters[0] || c->updaters[1] || c->deleter ||
                               (c->lister && avail) || ri->nlinks);
}

void conform_chain(worker *wk, const sdkc_operation *op)
{
    runner *rn = wk->rn;
    if (strcmp(op->method, "POST") != 0)
        return;
    chain c = {.wk = wk, .creator = op};
    const sdkc_operation *r = conform_item_op(rn, op->path, "GET");
    c.reader = usable(rn, r) ? r : NULL;
    r = conform_item_op(rn, op->path, "PUT");
    c.updaters[0] = usable(rn, r) ? r : NULL;
    r = conform_item_op(rn, op->path, "PATCH");
    c.updaters[1] = usable(rn, r) ? r : NULL;
    r = conform_item_op(rn, op->path, "DELETE");
    c.deleter = usable(rn, r) ? r : NULL;
    c.lister = conform_reader_at(rn, op->path);
    if (!worth(&c, rn))
        return;

    /* the chain's own resource: later operations keep the one the valid probe made */
    sdkrt_response *resp = NULL;
    req_plan plan = {.mode = MODE_VALID, .keep = &resp};
    probe_out out;
    conform_run_probe(wk, op, "chain-create", &plan, NULL, &out);
    free(plan.why);
    c.body = out.body;
    c.resp = resp;
    c.links = out.status / 100 == 2 ? conform_response_info(op, out.status) : NULL;
    c.id = out.status / 100 == 2 ? chain_id(&c, out.status, out.location) : NULL;
    if (out.status / 100 == 2 && !c.id &&
        (c.reader || c.updaters[0] || c.updaters[1] || c.deleter || c.lister)) {
        probe_ctx pc = {.wk = wk, .rn = rn, .op = op, .probe = "chain-create", .desc = op->path};
        ADD(&pc, "probe", SDKC_VERDICT_SKIP, NULL, NULL,
            "the chain stops: the answer (HTTP %d) gives no id (no `id` field, Location, "
            "link to %s/{id} or value of its brand)",
            out.status, op->path);
    }
    if (out.status / 100 == 2) {
        /* a conditional creation may have made nothing to read back (one skip says why) */
        c.conditional = conform_check_on(rn, CHECK_AVAILABILITY) &&
                        conform_conditional_creation(wk, op, "chain-create");
        bool avail = conform_check_on(rn, CHECK_AVAILABILITY) && !c.conditional;
        follow_links(&c, LINK_GET);
        follow_links(&c, LINK_WRITE);
        bool served = false;
        if (c.id && c.reader && avail)
            served = step(&c, c.reader, "after-create", MODE_AFTER_CREATE, NULL) / 100 == 2;
        for (size_t i = 0; c.id && i < 2; i++) {
            if (!c.updaters[i])
                continue;
            int st = step(&c, c.updaters[i], "chain-update", MODE_VALID, NULL);
            if (st / 100 == 2 && c.reader && avail)
                step(&c, c.reader, "after-update", MODE_AFTER_UPDATE, NULL);
        }
        if (c.id && c.lister && served)
            in_list(&c);
        follow_links(&c, LINK_DELETE);
        json_t *gone = NULL;
        if (c.id && c.deleter &&
            step(&c, c.deleter, "chain-delete", MODE_VALID, &gone) / 100 == 2 && gone)
            conform_after_delete(wk, c.deleter, gone);
        json_decref(gone);
    }
    json_decref(c.id);
    sdkrt_response_free(resp);
    conform_probe_out_cleanup(&out);
}
