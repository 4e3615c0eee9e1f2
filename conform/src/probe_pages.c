/* probe_pages.c - the pages phase: page walks of every style, compared with one big page. */
#include "probe_internal.h"

static json_t *items_of(const sdkc_pagination *pg, const json_t *page)
{
    if (!pg->items_field)
        return json_is_array(page) ? (json_t *)page : NULL;
    json_t *v = json_object_get(page, pg->items_field);
    if (v)
        return v;
    v = (json_t *)page;
    for (const char *f = pg->items_field; v && *f;) {
        size_t n = strcspn(f, ".");
        char key[128];
        if (n >= sizeof key)
            return NULL;
        memcpy(key, f, n);
        key[n] = '\0';
        v = json_object_get(v, key);
        f += n + (f[n] == '.');
    }
    return v;
}

static const char *cursor_of(const sdkc_pagination *pg, const json_t *page, const char *field)
{
    if (!field)
        return NULL;
    json_t *c = json_object_get(page, pg->cursor_field ? pg->cursor_field : "cursor");
    const char *s = json_string_value(json_object_get(c, field));
    return s && *s ? s : NULL;
}

/* An item's identity across pages: its id (the pagination's item id field, else `id`; a string
 * or an integer), else the whole item. */
static char *item_key(const sdkc_pagination *pg, const json_t *item)
{
    const json_t *id = json_object_get(item, pg->item_id_field ? pg->item_id_field : "id");
    if (json_is_string(id))
        return conform_strdup(json_string_value(id));
    if (json_is_integer(id)) {
        char buf[32];
        snprintf(buf, sizeof buf, "%" JSON_INTEGER_FORMAT, json_integer_value(id));
        return conform_strdup(buf);
    }
    return json_dumps(item, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
}

typedef struct key_list {
    char **keys;
    size_t n, cap;
} key_list;

static bool keys_push(key_list *k, char *key)
{
    if (!key)
        return false;
    if (k->n == k->cap) {
        size_t cap = k->cap ? k->cap * 2 : 16;
        char **p = realloc(k->keys, cap * sizeof *p);
        if (!p) {
            free(key);
            return false;
        }
        k->keys = p;
        k->cap = cap;
    }
    k->keys[k->n++] = key;
    return true;
}

static bool keys_has(const key_list *k, const char *key)
{
    for (size_t i = 0; i < k->n; i++)
        if (strcmp(k->keys[i], key) == 0)
            return true;
    return false;
}

static void keys_free(key_list *k)
{
    for (size_t i = 0; i < k->n; i++)
        free(k->keys[i]);
    free(k->keys);
    memset(k, 0, sizeof *k);
}

/* One page fetch for the walk: the body (new) or NULL (a deviation was recorded). */
static json_t *fetch_page(worker *wk, const sdkc_operation *op, const char *cursor, long limit,
                          const char *probe)
{
    req_plan plan = {.mode = MODE_VALID, .cursor = cursor, .limit = limit, .last_id = NULL};
    probe_out out;
    conform_run_probe(wk, op, probe, &plan, NULL, &out);
    free(plan.why);
    json_t *body = out.body;
    out.body = NULL;
    conform_probe_out_cleanup(&out);
    return body;
}

/* The size to ask for: want, within the size parameter's bounds. */
long conform_page_size(const sdkc_operation *op, long want)
{
    const sdkc_param *sp = conform_size_param(op);
    const sdkc_type *t = sp ? conform_unwrap_nullable(sp->type) : NULL;
    if (t && (t->kind == SDKC_TYPE_INTEGER || t->kind == SDKC_TYPE_NUMBER)) {
        if (t->u.num.has_maximum && want > (long)t->u.num.maximum)
            want = (long)t->u.num.maximum - t->u.num.exclusive_maximum;
        if (t->u.num.has_minimum && want < (long)t->u.num.minimum)
            want = (long)t->u.num.minimum + t->u.num.exclusive_minimum;
    }
    return want;
}

/* The engine's descriptor of an operation's pagination (strings borrowed from the IR), as the
 * C emitter writes it. */
static sdkrt_page_desc page_desc(const sdkc_pagination *pg)
{
    sdkrt_page_desc d = SDKRT_PAGE_DESC_INIT;
    d.style = (sdkrt_page_style)pg->style; /* the same order */
    d.items = pg->items_field;
    d.next = pg->next_field;
    d.param = pg->cursor_param ? pg->cursor_param->wire_name : NULL;
    d.has_more = pg->has_more_field;
    d.item_id = pg->item_id_field;
    d.size_param = pg->size_param ? pg->size_param->wire_name : NULL;
    return d;
}

/* One page of PAGE_BIG items, the reference a walk's items are compared with (sizes allowing):
 * its keys in order, and whether it was the whole list (no next page). */
typedef struct reference {
    key_list keys;
    bool whole;
    bool have;
} reference;

static void reference_fetch(worker *wk, const sdkc_operation *op, reference *ref)
{
    const sdkc_pagination *pg = op->pagination;
    memset(ref, 0, sizeof *ref);
    long big = conform_page_size(op, PAGE_BIG);
    if (!conform_size_param(op) || big <= conform_page_size(op, PAGE_LIMIT))
        return;
    req_plan plan = {.mode = MODE_VALID, .cursor = NULL, .limit = big, .last_id = NULL};
    sdkc_buf desc = SDKC_BUF_INIT;
    sdkrt_request *req = conform_build(wk, op, &plan, &desc);
    probe_ctx pc = {.wk = wk,
                    .rn = wk->rn,
                    .op = op,
                    .probe = "page-walk",
                    .desc = desc.data ? desc.data : op->path,
                    .mode = MODE_VALID};
    probe_out out;
    sdkrt_response *resp = NULL;
    memset(&out, 0, sizeof out);
    if (req && !plan.why)
        conform_send_probe(&pc, wk->client, req, NULL, &out, &resp);
    json_t *items = out.body ? items_of(pg, out.body) : NULL;
    if (json_is_array(items)) {
        ref->have = true;
        for (size_t i = 0; i < json_array_size(items); i++)
            if (!keys_push(&ref->keys, item_key(pg, json_array_get(items, i))))
                wk->rn->r->oom = true;
        sdkrt_page_desc d = page_desc(pg);
        sdkrt_request *next = NULL;
        sdkrt_error *err = NULL;
        if (pg->style == SDKC_PAGE_CURSOR_OBJECT)
            ref->whole = !cursor_of(pg, out.body, pg->next_field);
        else if (sdkrt_page_next(&next, wk->client, &d, req, resp, &err) == SDKRT_OK)
            ref->whole = !next;
        sdkrt_request_free(next);
        sdkrt_error_free(err);
    }
    conform_probe_out_cleanup(&out);
    sdkrt_response_free(resp);
    sdkrt_request_free(req);
    free(plan.why);
    sdkc_buf_cleanup(&desc);
}

/* Every item of the reference that the walk reached must have come: all of them when both the
 * walk and the reference went to the end, else those up to the last one the walk saw. Items of a
 * whole reference are the only ones a walk may give. Returns whether a deviation was added. */
static bool reference_compare(probe_ctx *pc, const reference *ref, const key_list *walk,
                              bool walk_whole, size_t pages)
{
    if (!ref->have)
        return false;
    size_t upto = ref->keys.n;
    if (!walk_whole) {
        upto = 0;
        for (size_t i = 0; i < ref->keys.n; i++)
            if (keys_has(walk, ref->keys.keys[i]))
                upto = i + 1;
    }
    size_t lost = 0;
    const char *first = NULL;
    for (size_t i = 0; i < upto; i++)
        if (!keys_has(walk, ref->keys.keys[i]) && !lost++)
            first = ref->keys.keys[i];
    if (lost) {
        ADD(pc, CHECK_PAGINATION, SDKC_VERDICT_DEVIATION, NULL, "loss",
            "%zu item%s of one page of %zu never came in a walk of %zu pages: %s%s", lost,
            lost == 1 ? "" : "s", ref->keys.n, pages, first, lost > 1 ? ", ..." : "");
        return true;
    }
    for (size_t i = 0; ref->whole && i < walk->n; i++)
        if (!keys_has(&ref->keys, walk->keys[i])) {
            ADD(pc, CHECK_PAGINATION, SDKC_VERDICT_DEVIATION, NULL, "extra",
                "item %s came in the walk but not in one page of all %zu items", walk->keys[i],
                ref->keys.n);
            return true;
        }
    return false;
}

/* Is the pagination's items field an optional field of the success result? (A top-level array
 * or a nested path is never optional here.) */
static bool items_optional(const sdkc_operation *op)
{
    const sdkc_pagination *pg = op->pagination;
    const sdkc_type *t = conform_unwrap_nullable(op->success.type);
    if (!pg || !pg->items_field || strchr(pg->items_field, '.') || !t ||
        t->kind != SDKC_TYPE_OBJECT)
        return false;
    for (size_t i = 0; i < t->u.object.nfields; i++)
        if (strcmp(t->u.object.fields[i].wire_name, pg->items_field) == 0)
            return !t->u.object.fields[i].required;
    return false;
}

/* Walk forward as the runtime's engine (and so every generated SDK) does, from a first page of
 * PAGE_LIMIT items until no next page, at most MAX_PAGES: no item may come twice, no request
 * come back, and the items must be those of one big page (the reference). */
void conform_engine_walk(worker *wk, const sdkc_operation *op)
{
    runner *rn = wk->rn;
    const sdkc_pagination *pg = op->pagination;
    sdkrt_page_desc d = page_desc(pg);
    reference ref;
    key_list items = {0};
    size_t pages = 0;
    bool bad = false, whole = false, cut = false;
    sdkrt_page_walk *walk = NULL;
    reference_fetch(wk, op, &ref);
    long small = conform_size_param(op) ? conform_page_size(op, PAGE_LIMIT) : 0;
    req_plan plan = {.mode = MODE_VALID, .cursor = NULL, .limit = small, .last_id = NULL};
    sdkc_buf desc = SDKC_BUF_INIT;
    sdkrt_request *req = conform_build(wk, op, &plan, &desc);
    probe_ctx pc = {
        .wk = wk, .rn = rn, .op = op, .probe = "page-walk", .desc = op->path, .mode = MODE_VALID};
    if (!req || plan.why || sdkrt_page_walk_new(&walk, NULL, NULL) != SDKRT_OK) {
        ADD(&pc, CHECK_PAGINATION, SDKC_VERDICT_SKIP, NULL, NULL, "the first page: %s",
            plan.why ? plan.why : "out of memory");
        goto done;
    }
    while (req && pages < MAX_PAGES && !bad) {
        char *target = NULL;
        sdkrt_error *err = NULL;
        if (sdkrt_request_target(&target, req, &err) != SDKRT_OK) {
            ADD(&pc, CHECK_PAGINATION, SDKC_VERDICT_SKIP, NULL, NULL, "page %zu: %s", pages + 1,
                sdkrt_error_message(err));
            sdkrt_error_free(err);
            break;
        }
        sdkc_buf_reset(&desc);
        sdkc_buf_printf(&desc, "%s %s", sdkrt_request_method(req), target);
        free(target);
        pc.desc = desc.data;
        probe_out out;
        sdkrt_response *resp = NULL;
        memset(&out, 0, sizeof out);
        conform_send_probe(&pc, wk->client, req, NULL, &out, &resp);
        json_t *its = out.body ? items_of(pg, out.body) : NULL;
        json_t *none = NULL;
        if (!its && out.body && items_optional(op)) {
            /* an optional items array left out: a page of no items, not a deviation */
            its = none = json_array();
            if (!none)
                rn->r->oom = true;
        }
        if (!json_is_array(its)) {
            if (out.body)
                ADD(&pc, CHECK_PAGINATION, SDKC_VERDICT_DEVIATION, NULL, "items",
                    "page %zu has no items array; %s", pages + 1, pc.desc);
            else /* the answer was judged (or skipped) as a probe of its own */
                ADD(&pc, CHECK_PAGINATION, SDKC_VERDICT_SKIP, NULL, NULL,
                    "the walk stopped: page %zu gave no success body; %s", pages + 1, pc.desc);
            cut = !out.body;
            bad = bad || out.body;
            conform_probe_out_cleanup(&out);
            sdkrt_response_free(resp);
            break;
        }
        pages++;
        for (size_t i = 0; i < json_array_size(its); i++) {
            char *k = item_key(pg, json_array_get(its, i));
            if (k && keys_has(&items, k)) {
                ADD(&pc, CHECK_PAGINATION, SDKC_VERDICT_DEVIATION, NULL, "repeat",
                    "item %s came again on page %zu; %s", k, pages, pc.desc);
                bad = true;
                free(k);
                continue;
            }
            if (!keys_push(&items, k))
                rn->r->oom = true;
        }
        json_decref(none);
        sdkrt_request *next = NULL;
        /* the runtime's rules for pages that would go on forever, as every SDK applies them */
        if (sdkrt_page_next(&next, wk->client, &d, req, resp, &err) != SDKRT_OK ||
            sdkrt_page_walk_step(walk, wk->client, req, resp, json_array_size(its), next, &err) !=
                SDKRT_OK) {
            const char *msg = sdkrt_error_message(err);
            if (msg && strstr(msg, "leaves the API's origin")) {
                /* Not following another origin is the client's safety policy (credentials go
                   nowhere else), not something the contract forbids: a note, and the walk
                   ends there. */
                ADD(&pc, CHECK_PAGINATION, SDKC_VERDICT_SKIP, NULL, NULL,
                    "the walk stopped after page %zu: %s; %s", pages, msg, pc.desc);
                cut = true;
            } else if (msg && strstr(msg, ENDLESS)) {
                ADD(&pc, CHECK_PAGINATION, SDKC_VERDICT_DEVIATION, NULL, "endless",
                    "the walk stopped at page %zu: %s; %s", pages, msg, pc.desc);
                bad = true;
            } else {
                ADD(&pc, CHECK_PAGINATION, SDKC_VERDICT_DEVIATION, NULL, "next",
                    "no next page can be made of page %zu: %s; %s", pages, msg, pc.desc);
                bad = true;
            }
            sdkrt_error_free(err);
            sdkrt_request_free(next);
            next = NULL;
        }
        whole = !next && !bad && !cut;
        conform_probe_out_cleanup(&out);
        sdkrt_response_free(resp);
        sdkrt_request_free(req);
        req = next;
    }
    if (!bad && reference_compare(&pc, &ref, &items, whole, pages))
        bad = true;
    if (!bad && !cut && pages)
        ADD(&pc, CHECK_PAGINATION, SDKC_VERDICT_PASS, NULL, NULL,
            "%zu items over %zu pages%s, no repeat%s", items.n, pages,
            whole ? "" : " (stopped at the bound)",
            ref.have ? ", none lost" : " (losses not checked: no page size to ask one big page)");
done:
    sdkrt_request_free(req);
    free(plan.why);
    sdkc_buf_cleanup(&desc);
    keys_free(&items);
    keys_free(&ref.keys);
    sdkrt_page_walk_free(walk);
}

/* Walk from the first page forward with `next`, then back with `previous` from the last page:
 * no item may repeat, and the way back must see the items of the way forward. */
void conform_page_walk(worker *wk, const sdkc_operation *op)
{
    runner *rn = wk->rn;
    const sdkc_pagination *pg = op->pagination;
    probe_ctx pc = {
        .wk = wk, .rn = rn, .op = op, .probe = "page-walk", .desc = op->path, .mode = MODE_VALID};
    long limit = conform_param_named(op, SDKC_PARAM_QUERY, "limit") ? PAGE_LIMIT : 0;
    key_list fwd = {0}, back = {0};
    reference ref;
    reference_fetch(wk, op, &ref);
    json_t *page = fetch_page(wk, op, NULL, limit, "page-walk");
    json_t *last = NULL;
    size_t pages = 0, last_page_items = 0;
    bool bad = false, whole = false;
    sdkrt_page_walk *walk = NULL;
    char *sent = NULL; /* the cursor that fetched page */
    const char *param = pg->cursor_param ? pg->cursor_param->wire_name : "cursor";
    if (sdkrt_page_walk_new(&walk, NULL, NULL) != SDKRT_OK)
        rn->r->oom = true;
    if (!page || !walk) {
        ADD(&pc, CHECK_PAGINATION, SDKC_VERDICT_SKIP, NULL, NULL,
            "the first page could not be read");
        goto done;
    }
    while (page && pages < MAX_PAGES) {
        json_t *items = items_of(pg, page);
        size_t n = json_array_size(items);
        pages++;
        for (size_t i = 0; i < n; i++) {
            char *k = item_key(pg, json_array_get(items, i));
            if (k && keys_has(&fwd, k)) {
                ADD(&pc, CHECK_PAGINATION, SDKC_VERDICT_DEVIATION, NULL, "repeat",
                    "walking forward, item %s came again on page %zu", k, pages);
                bad = true;
                free(k);
                continue;
            }
            if (!keys_push(&fwd, k))
                rn->r->oom = true;
        }
        const char *next = cursor_of(pg, page, pg->next_field);
        /* as the SDKs walk: on while there is a next cursor (empty pages too), until the
           runtime's rules say the pages would not end */
        sdkrt_error *err = NULL;
        if (sdkrt_page_walk_cursor(walk, param, sent, n, next, &err) != SDKRT_OK) {
            ADD(&pc, CHECK_PAGINATION, SDKC_VERDICT_DEVIATION, NULL, "endless",
                "walking forward, the walk stopped at page %zu: %s", pages,
                sdkrt_error_message(err));
            sdkrt_error_free(err);
            bad = true;
            break;
        }
        if (!next) {
            whole = true;
            break;
        }
        free(sent);
        sent = conform_strdup(next);
        if (n > 0) {
            json_decref(last);
            last = page;
            last_page_items = n;
        } else {
            json_decref(page);
        }
        page = fetch_page(wk, op, sent, limit, "page-walk");
    }
    if (!page && !whole && !bad) { /* that answer was judged as a probe of its own */
        ADD(&pc, CHECK_PAGINATION, SDKC_VERDICT_SKIP, NULL, NULL,
            "the walk stopped: page %zu gave no success body", pages + 1);
        goto done;
    }
    if (page && json_array_size(items_of(pg, page)) > 0) {
        json_decref(last);
        last = page;
        last_page_items = json_array_size(items_of(pg, page));
        page = NULL;
    }
    if (!bad && reference_compare(&pc, &ref, &fwd, whole, pages))
        bad = true;
    /* Back from the last non-empty page: expect every forward item before it. */
    if (last && pg->previous_field) {
        size_t expect = fwd.n - last_page_items;
        const char *prev = cursor_of(pg, last, pg->previous_field);
        char *prev_copy = prev ? conform_strdup(prev) : NULL;
        size_t bpages = 0;
        while (prev_copy && bpages < MAX_PAGES) {
            json_t *p = fetch_page(wk, op, prev_copy, limit, "page-walk");
            free(prev_copy);
            prev_copy = NULL;
            if (!p)
                break;
            bpages++;
            json_t *items = items_of(pg, p);
            size_t n = json_array_size(items);
            for (size_t i = 0; i < n; i++) {
                char *k = item_key(pg, json_array_get(items, i));
                if (k && keys_has(&back, k)) {
                    ADD(&pc, CHECK_PAGINATION, SDKC_VERDICT_DEVIATION, NULL, "repeat",
                        "walking back, item %s came again on page %zu", k, bpages);
                    bad = true;
                    free(k);
                    continue;
                }
                if (!keys_push(&back, k))
                    rn->r->oom = true;
            }
            const char *pv = cursor_of(pg, p, pg->previous_field);
            if (n > 0 && pv)
                prev_copy = conform_strdup(pv);
            json_decref(p);
        }
        free(prev_copy);
        for (size_t i = 0; i < fwd.n - last_page_items; i++)
            if (!keys_has(&back, fwd.keys[i])) {
                ADD(&pc, CHECK_PAGINATION, SDKC_VERDICT_DEVIATION, NULL, "loss",
                    "walking back from the last page, item %s of the way forward never came",
                    fwd.keys[i]);
                bad = true;
            }
        for (size_t i = 0; i < back.n; i++)
            if (!keys_has(&fwd, back.keys[i]) || back.n > expect) {
                ADD(&pc, CHECK_PAGINATION, SDKC_VERDICT_DEVIATION, NULL, "extra",
                    "walking back, item %s was not among the items before the last page",
                    back.keys[i]);
                bad = true;
                break;
            }
    }
    if (!bad)
        ADD(&pc, CHECK_PAGINATION, SDKC_VERDICT_PASS, NULL, NULL,
            "%zu items over %zu pages, no loss or repeat", fwd.n, pages);
done:
    json_decref(page);
    json_decref(last);
    keys_free(&fwd);
    keys_free(&back);
    keys_free(&ref.keys);
    sdkrt_page_walk_free(walk);
    free(sent);
}
