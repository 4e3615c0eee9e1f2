/* probe_stateful.c - the stateful phase: what one answer makes possible (read back what a POST
 * made, read what a DELETE removed, an id nobody made) and the order under -j N (an operation
 * waits for the operations that give it its ids). */
#include "probe_internal.h"

/* The operation of method that works on one item of path + "/{param}" (a GET that is no
 * stream). */
const sdkc_operation *conform_item_op(const runner *rn, const char *path, const char *method)
{
    size_t n = strlen(path);
    for (size_t i = 0; i < rn->ir->nops; i++) {
        const sdkc_operation *o = &rn->ir->ops[i];
        if (strcmp(o->method, method) || (o->stream && strcmp(method, "GET") == 0) ||
            strncmp(o->path, path, n) != 0)
            continue;
        const char *rest = o->path + n;
        if (rest[0] == '/' && rest[1] == '{' && strchr(rest, '}') && strchr(rest, '}')[1] == '\0' &&
            !strchr(rest + 2, '/'))
            return o;
    }
    return NULL;
}

/* The GET (no stream) of exactly path, or NULL. */
const sdkc_operation *conform_reader_at(const runner *rn, const char *path)
{
    for (size_t i = 0; i < rn->ir->nops; i++) {
        const sdkc_operation *o = &rn->ir->ops[i];
        if (strcmp(o->method, "GET") == 0 && !o->stream && strcmp(o->path, path) == 0)
            return o;
    }
    return NULL;
}

/* The last path parameter of op, or NULL. */
const sdkc_param *conform_last_path_param(const sdkc_operation *op)
{
    const sdkc_param *last = NULL;
    for (size_t i = 0; i < op->nparams; i++)
        if (op->params[i].in == SDKC_PARAM_PATH)
            last = &op->params[i];
    return last;
}

/* The GET operation that reads one item of path + "/{param}". */
const sdkc_operation *conform_item_reader(const runner *rn, const char *path)
{
    return conform_item_op(rn, path, "GET");
}

/* Is w one of the words that make a sentence's creation conditional? */
static bool conditional_word(const char *w, size_t n)
{
    static const char *const words[] = {"when", "if", "unless", "only", "may", "might", "whether"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strlen(words[i]) == n && strncasecmp(w, words[i], n) == 0)
            return true;
    return false;
}

/* The first sentence of text that speaks of creating something only under a condition
 * ("Evaluate and, when approval is required, create a permission request"), as new text, or
 * NULL. */
static char *conditional_sentence(const char *text)
{
    for (const char *s = text; s && *s;) {
        size_t len = strcspn(s, ".;!?\n");
        bool creates = false, cond = false;
        for (size_t i = 0; i < len;) {
            while (i < len && !isalpha((unsigned char)s[i]))
                i++;
            size_t w = i;
            while (i < len && isalpha((unsigned char)s[i]))
                i++;
            creates = creates || (i - w >= 5 && strncasecmp(s + w, "creat", 5) == 0);
            cond = cond || conditional_word(s + w, i - w);
        }
        if (creates && cond) {
            while (len && isspace((unsigned char)s[len - 1]))
                len--;
            return strndup(s, len);
        }
        s += len;
        s += strspn(s, ".;!?\n \t");
    }
    return NULL;
}

/* Where the contract says a POST creates only under a condition, what it answers may not be a
 * resource to read back: ensure_resource_availability is not judged for it (the reason is
 * recorded as a skip of `probe`). */
bool conform_conditional_creation(worker *wk, const sdkc_operation *op, const char *probe)
{
    char *why = conditional_sentence(op->summary);
    if (!why)
        why = conditional_sentence(op->description);
    if (!why)
        return false;
    probe_ctx pc = {.wk = wk, .rn = wk->rn, .op = op, .probe = probe, .desc = op->path};
    ADD(&pc, CHECK_AVAILABILITY, SDKC_VERDICT_SKIP, NULL, NULL,
        "not judged: the contract says the creation is conditional (\"%s\")", why);
    free(why);
    return true;
}

/* ensure_resource_availability: what a POST made can be read back */
void conform_after_create(worker *wk, const sdkc_operation *op, const probe_out *out)
{
    runner *rn = wk->rn;
    if (out->status / 100 != 2 || strcmp(op->method, "POST") != 0 ||
        !conform_check_on(rn, CHECK_AVAILABILITY))
        return;
    json_t *id = conform_created_id(op, out->status, out->body, out->location);
    const sdkc_operation *reader = id ? conform_item_reader(rn, op->path) : NULL;
    if (reader && conform_included(rn->opts, reader->id) &&
        !conform_conditional_creation(wk, op, "after-create"))
        conform_probe_mode_op(wk, reader, "after-create", MODE_AFTER_CREATE, NULL, id);
    json_decref(id);
}

/* use_after_free: what a DELETE removed (delete_id) is gone */
void conform_after_delete(worker *wk, const sdkc_operation *op, const json_t *delete_id)
{
    runner *rn = wk->rn;
    if (!conform_check_on(rn, CHECK_USE_AFTER))
        return;
    const sdkc_operation *reader = conform_reader_at(rn, op->path);
    if (reader)
        conform_probe_mode_op(wk, reader, "after-delete", MODE_AFTER_DELETE, NULL, delete_id);
}

/* unknown-id: where the contract declares a 404 */
void conform_unknown_id_probe(worker *wk, const sdkc_operation *op)
{
    runner *rn = wk->rn;
    expectation ex = {0, NULL, NULL, NULL};
    if (conform_path_param_count(op) > 0 && conform_check_on(rn, CHECK_MISSING)) {
        sdkc_buf why_buf = SDKC_BUF_INIT;
        const sdkc_param *last = conform_last_path_param(op);
        json_t *u = conform_unknown_value(last);
        sdkc_buf_printf(&why_buf, "an unknown %s", last->wire_name);
        /* `default` covers every status but says nothing of a 404: only an exact 404 or a 4XX
           range is a declared answer to an unknown id */
        const sdkc_error_status *es404 = conform_error_status(op, 404);
        if (u && es404 && es404->status != SDKC_STATUS_DEFAULT &&
            conform_expect_error(op, 404, NULL, why_buf.data, &ex))
            conform_probe_mode_op(wk, op, "unknown-id", MODE_UNKNOWN_ID, &ex, NULL);
        json_decref(u);
        sdkc_buf_cleanup(&why_buf);
    }
}

/* ---- the stateful order under -j N ---- */

/* Does t hold a string of brand b (at any depth)? */
static bool type_has_brand(const sdkc_type *t, const sdkc_brand *b, int depth)
{
    if (!t || depth > 16)
        return false;
    switch (t->kind) {
    case SDKC_TYPE_STRING:
        return t->u.str.brand == b;
    case SDKC_TYPE_NULLABLE:
        return type_has_brand(t->u.nullable.inner, b, depth + 1);
    case SDKC_TYPE_OBJECT:
        for (size_t i = 0; i < t->u.object.nfields; i++)
            if (type_has_brand(t->u.object.fields[i].type, b, depth + 1))
                return true;
        return false;
    case SDKC_TYPE_ARRAY:
        return type_has_brand(t->u.array.items, b, depth + 1);
    case SDKC_TYPE_UNION:
        for (size_t i = 0; i < t->u.union_.nvariants; i++)
            if (type_has_brand(t->u.union_.variants[i].type, b, depth + 1))
                return true;
        return false;
    default:
        return false;
    }
}

/* Does a give b the value of one of b's path parameters that the run does not know yet (from
 * --param or an earlier phase): a POST to the parameter's collection, an OpenAPI link to b, or
 * a write whose answer holds the parameter's brand? Such a b waits for a under -j N, as it
 * comes after it with -j 1. */
bool conform_gives_id(runner *rn, const sdkc_operation *a, const sdkc_operation *b)
{
    bool linked = false;
    for (size_t i = 0; i <= a->nmore_successes && !linked; i++) {
        const sdkc_response_info *ri =
            i ? &a->more_successes[i - 1].response : &a->success.response;
        for (size_t j = 0; j < ri->nlinks; j++)
            linked = linked ||
                     (ri->links[j].operation_id && strcmp(ri->links[j].operation_id, b->id) == 0);
    }
    for (size_t i = 0; i < b->nparams; i++) {
        const sdkc_param *p = &b->params[i];
        if (p->in != SDKC_PARAM_PATH)
            continue;
        bool known = false;
        for (size_t k = 0; k < rn->opts->nparams && !known; k++)
            known = strcmp(rn->opts->params[k].name, p->wire_name) == 0;
        sdkc_buf lk = SDKC_BUF_INIT;
        sdkc_buf_printf(&lk, "%s:%s", b->id, p->wire_name);
        known = known || (lk.data && conform_store_get_str(rn, "link", lk.data));
        sdkc_buf_cleanup(&lk);
        if (known)
            continue;
        if (linked)
            return true;
        const sdkc_type *t = conform_unwrap_nullable(p->type);
        const sdkc_brand *brand = t && t->kind == SDKC_TYPE_STRING ? t->u.str.brand : NULL;
        if (brand && brand->name && conform_store_get_str(rn, "brand", brand->name))
            continue;
        if (brand && strcmp(a->method, "GET") != 0 && type_has_brand(a->success.type, brand, 0))
            return true;
        char *coll = conform_collection_of(b->path, p->wire_name);
        bool creates = coll && !conform_store_get_str(rn, "coll", coll) &&
                       strcmp(a->method, "POST") == 0 && strcmp(a->path, coll) == 0;
        free(coll);
        if (creates)
            return true;
    }
    return false;
}
