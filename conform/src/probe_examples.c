/* probe_examples.c - the examples phase: the contract's own examples as requests (parameter and
 * body examples, `example`, `examples` and the schema's `example`), and as expected answers: a
 * request example named like an example of one of the operation's responses expects that
 * response's status class (a request example paired with a 400 response is invalid data on
 * purpose, to be refused). An example the validator finds valid is valid data
 * (positive_data_acceptance judges it); one it does not is sent for the other checks only. */
#include <ctype.h>

#include "probe_internal.h"

#define REF_HOPS 8

static const sdkc_node *deref(const sdkc_doc *doc, const sdkc_node *n)
{
    for (int i = 0; n && i < REF_HOPS; i++) {
        const sdkc_node *ref = sdkc_node_get(n, "$ref");
        const char *s = ref ? sdkc_node_text(ref) : NULL;
        if (!s)
            return n;
        n = s[0] == '#' ? sdkc_doc_pointer(doc, s + 1) : NULL;
    }
    return n;
}

static json_t *node_json(const sdkc_node *n, int depth)
{
    if (!n || depth > 64)
        return NULL;
    if (n->kind == SDKC_NODE_SEQ) {
        json_t *a = json_array();
        for (size_t i = 0; a && i < n->nitems; i++)
            if (json_array_append_new(a, node_json(n->items[i], depth + 1)) != 0) {
                json_decref(a);
                return NULL;
            }
        return a;
    }
    if (n->kind == SDKC_NODE_MAP) {
        json_t *o = json_object();
        for (size_t i = 0; o && i < n->npairs; i++) {
            json_t *v = node_json(n->pairs[i].value, depth + 1);
            if (!v || json_object_setn_new(o, n->pairs[i].key->str, n->pairs[i].key->len, v)) {
                json_decref(o);
                return NULL;
            }
        }
        return o;
    }
    int64_t iv;
    double dv;
    bool bv;
    switch (n->scalar) {
    case SDKC_SCALAR_INT:
        return sdkc_node_int64(n, &iv) ? json_integer((json_int_t)iv) : NULL;
    case SDKC_SCALAR_FLOAT:
        return sdkc_node_double(n, &dv) ? json_real(dv) : NULL;
    case SDKC_SCALAR_BOOL:
        return sdkc_node_bool(n, &bv) ? json_boolean(bv) : NULL;
    case SDKC_SCALAR_NULL:
        return json_null();
    default:
        return json_stringn(n->str, n->len);
    }
}

static bool digits(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isdigit((unsigned char)s[i]))
            return false;
    return true;
}

static bool is_date(const char *s)
{
    return strlen(s) >= 10 && digits(s, 4) && s[4] == '-' && digits(s + 5, 2) && s[7] == '-' &&
           digits(s + 8, 2);
}

/* Does every string of v keep its format? The validator does not check formats, and an example
 * may break its own (a date-time where a date is declared): only formats sdkc can tell are
 * accepted, any other makes the example unsure (false). */
static bool formats_ok(const sdkc_type *t, const json_t *v, int depth)
{
    t = conform_unwrap_nullable(t);
    if (!t || !v || json_is_null(v) || depth > 32)
        return true;
    switch (t->kind) {
    case SDKC_TYPE_STRING: {
        const char *f = t->u.str.format, *s = json_string_value(v);
        if (!f || !s)
            return true;
        if (strcmp(f, "date") == 0)
            return strlen(s) == 10 && is_date(s);
        if (strcmp(f, "date-time") == 0)
            return is_date(s) && (s[10] == 'T' || s[10] == 't') && strlen(s) >= 20;
        if (strcmp(f, "uuid") == 0) {
            if (strlen(s) != 36)
                return false;
            for (size_t i = 0; i < 36; i++)
                if ((i == 8 || i == 13 || i == 18 || i == 23) ? s[i] != '-'
                                                              : !isxdigit((unsigned char)s[i]))
                    return false;
            return true;
        }
        return false;
    }
    case SDKC_TYPE_OBJECT:
        for (size_t i = 0; i < t->u.object.nfields; i++)
            if (!formats_ok(t->u.object.fields[i].type,
                            json_object_get(v, t->u.object.fields[i].wire_name), depth + 1))
                return false;
        return true;
    case SDKC_TYPE_ARRAY:
        for (size_t i = 0; i < json_array_size(v); i++)
            if (!formats_ok(t->u.array.items, json_array_get(v, i), depth + 1))
                return false;
        return true;
    case SDKC_TYPE_MAP: {
        const char *k;
        json_t *m;
        json_object_foreach((json_t *)v, k, m)
        {
            if (!formats_ok(t->u.map.value, m, depth + 1))
                return false;
        }
        return true;
    }
    case SDKC_TYPE_UNION:
        return false; /* which variant's formats: not told here */
    default:
        return true;
    }
}

/* The operation's object in the document, or NULL. */
static const sdkc_node *op_node(const sdkc_doc *doc, const sdkc_operation *op,
                                const sdkc_node **item)
{
    const sdkc_node *paths = sdkc_node_get(sdkc_doc_root(doc), "paths");
    sdkc_buf key = SDKC_BUF_INIT;
    sdkc_buf_puts(&key, op->path);
    if (op->fragment)
        sdkc_buf_printf(&key, "#%s", op->fragment);
    *item = key.data ? deref(doc, sdkc_node_get(paths, key.data)) : NULL;
    sdkc_buf_cleanup(&key);
    char m[16];
    size_t i = 0;
    for (; op->method[i] && i + 1 < sizeof m; i++)
        m[i] = (char)tolower((unsigned char)op->method[i]);
    m[i] = '\0';
    return *item ? deref(doc, sdkc_node_get(*item, m)) : NULL;
}

/* The first example of a parameter or media type object: `example`, the first of `examples`,
 * or its schema's `example` (new), or NULL. */
static json_t *first_example(const sdkc_doc *doc, const sdkc_node *n)
{
    const sdkc_node *e = sdkc_node_get(n, "example");
    if (e)
        return node_json(e, 0);
    const sdkc_node *ex = sdkc_node_get(n, "examples");
    if (ex && ex->kind == SDKC_NODE_MAP && ex->npairs) {
        const sdkc_node *v = sdkc_node_get(deref(doc, ex->pairs[0].value), "value");
        if (v)
            return node_json(v, 0);
    }
    const sdkc_node *s = deref(doc, sdkc_node_get(n, "schema"));
    e = sdkc_node_get(s, "example");
    return e ? node_json(e, 0) : NULL;
}

/* Parameter examples into params ("in:name" -> value); path parameters keep the server's ids. */
static void param_examples(worker *wk, const sdkc_operation *op, const sdkc_node *list,
                           json_t *params, bool *valid)
{
    const sdkc_doc *doc = wk->rn->opts->doc;
    for (size_t i = 0; list && list->kind == SDKC_NODE_SEQ && i < list->nitems; i++) {
        const sdkc_node *pn = deref(doc, list->items[i]);
        const char *name = sdkc_node_text(sdkc_node_get(pn, "name"));
        const char *in = sdkc_node_text(sdkc_node_get(pn, "in"));
        if (!name || !in || strcmp(in, "path") == 0)
            continue;
        const sdkc_param *p = NULL;
        for (size_t k = 0; k < op->nparams && !p; k++)
            if (strcmp(op->params[k].wire_name, name) == 0 &&
                strcmp(sdkc_param_in_name(op->params[k].in), in) == 0)
                p = &op->params[k];
        json_t *given = p ? conform_user_param(wk->rn, p) : NULL;
        json_t *v = p && !given ? first_example(doc, pn) : NULL;
        json_decref(given);
        char *k = p ? conform_param_key(p) : NULL;
        if (v && k && !json_object_get(params, k)) {
            *valid = *valid && conform_new_deviations(wk, p->type, v, NULL) == 0 &&
                     formats_ok(p->type, v, 0);
            json_object_set(params, k, v);
        }
        free(k);
        json_decref(v);
    }
}

/* The status of the response that has an example named name ("400", "2XX"), or NULL. */
static const char *paired_status(const sdkc_doc *doc, const sdkc_node *opn, const char *name)
{
    const sdkc_node *rs = sdkc_node_get(opn, "responses");
    for (size_t i = 0; rs && rs->kind == SDKC_NODE_MAP && i < rs->npairs; i++) {
        const sdkc_node *content = sdkc_node_get(deref(doc, rs->pairs[i].value), "content");
        for (size_t j = 0; content && content->kind == SDKC_NODE_MAP && j < content->npairs; j++) {
            const sdkc_node *ex = sdkc_node_get(deref(doc, content->pairs[j].value), "examples");
            if (ex && sdkc_node_get(ex, name))
                return rs->pairs[i].key->str;
        }
    }
    return NULL;
}

static void push_example(worker *wk, const sdkc_operation *op, gen_list *l, const char *name,
                         json_t *params, json_t *body, bool valid, const char *status)
{
    gen_case c;
    memset(&c, 0, sizeof c);
    bool refused = status && status[0] != '2' && status[0] != 'd';
    if (status && status[0] == 'd')
        valid = false; /* paired with `default`: any answer may be the one meant */
    c.mode = refused ? MODE_NEGATIVE : MODE_EXAMPLE;
    c.check = CHECK_NEGATIVE;
    c.contract_only = valid && !refused;
    c.target = (int)l->n;
    c.rule = "example";
    c.params = json_incref(params);
    c.body = json_incref(body);
    sdkc_buf w = SDKC_BUF_INIT, path = SDKC_BUF_INIT;
    sdkc_buf_printf(&w, "the contract's example \"%s\"", name);
    if (refused)
        sdkc_buf_printf(&w, " (paired with its %s response)", status);
    else if (!valid)
        sdkc_buf_puts(&w, " (not valid by its own schema: judged for the other checks only)");
    sdkc_buf_printf(&path, "example %s", name);
    c.what = sdkc_buf_steal(&w, NULL);
    c.path = sdkc_buf_steal(&path, NULL);
    sdkc_buf_cleanup(&w);
    sdkc_buf_cleanup(&path);
    (void)op;
    if (!conform_gen_push(l, &c))
        wk->rn->r->oom = true;
}

void conform_phase_examples(worker *wk, const sdkc_operation *op)
{
    runner *rn = wk->rn;
    const sdkc_doc *doc = rn->opts->doc;
    if (!doc)
        return;
    const sdkc_node *item = NULL;
    const sdkc_node *opn = op_node(doc, op, &item);
    if (!opn)
        return;
    gen_list l = {0};
    json_t *params = json_object();
    bool params_valid = true;
    if (!params) {
        rn->r->oom = true;
        return;
    }
    param_examples(wk, op, sdkc_node_get(opn, "parameters"), params, &params_valid);
    param_examples(wk, op, sdkc_node_get(item, "parameters"), params, &params_valid);
    const sdkc_node *rb = deref(doc, sdkc_node_get(opn, "requestBody"));
    const sdkc_node *content = sdkc_node_get(rb, "content");
    const sdkc_node *media = op->body && op->body->content_type
                                 ? deref(doc, sdkc_node_get(content, op->body->content_type))
                                 : NULL;
    json_t *base = media ? conform_base_body(wk, op) : NULL;
    const sdkc_node *ex = sdkc_node_get(media, "examples");
    const sdkc_node *one = sdkc_node_get(media, "example");
    for (size_t i = 0; ex && ex->kind == SDKC_NODE_MAP && i < ex->npairs; i++) {
        const char *name = ex->pairs[i].key->str;
        json_t *body = node_json(sdkc_node_get(deref(doc, ex->pairs[i].value), "value"), 0);
        if (!body)
            continue; /* an externalValue, or no value */
        bool valid = params_valid && conform_new_deviations(wk, op->body->type, body, base) == 0 &&
                     formats_ok(op->body->type, body, 0);
        push_example(wk, op, &l, name, params, body, valid, paired_status(doc, opn, name));
        json_decref(body);
    }
    if (!l.n && media) {
        json_t *body = one ? node_json(one, 0) : first_example(doc, media);
        if (body) {
            bool valid =
                params_valid && conform_new_deviations(wk, op->body->type, body, base) == 0;
            push_example(wk, op, &l, "example", params, body, valid, NULL);
        }
        json_decref(body);
    }
    if (!l.n && json_object_size(params))
        push_example(wk, op, &l, "parameters", params, NULL, params_valid, NULL);
    conform_gen_select(&l, rn->max_examples, rn->seed, op->id);
    conform_run_cases(wk, op, &l);
    conform_gen_free(&l);
    json_decref(params);
    json_decref(base);
}
