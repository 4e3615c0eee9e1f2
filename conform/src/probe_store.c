/* probe_store.c - values remembered from answers (the value store) and the ids they give path
 * parameters. */
#include "probe_internal.h"

/* ---- values remembered from answers ---- */

/* Borrowed (values are never freed before the run ends), or NULL. Call with rn->mu held. */
static const json_t *store_get_locked(const runner *rn, const char *key)
{
    for (size_t i = 0; i < rn->nstore; i++)
        if (strcmp(rn->store[i].key, key) == 0)
            return rn->store[i].value;
    return NULL;
}

static const json_t *store_get(runner *rn, const char *key)
{
    pthread_mutex_lock(&rn->mu);
    const json_t *v = store_get_locked(rn, key);
    pthread_mutex_unlock(&rn->mu);
    return v;
}

/* The first value seen is kept: it was made by this run's creator. value is borrowed. */
static void store_put(runner *rn, const char *key, const json_t *value)
{
    if (!value || (!json_is_string(value) && !json_is_integer(value)) ||
        (json_is_string(value) && !json_string_length(value)))
        return;
    pthread_mutex_lock(&rn->mu);
    if (!store_get_locked(rn, key)) {
        if (rn->nstore == rn->capstore) {
            size_t cap = rn->capstore ? rn->capstore * 2 : 16;
            stored *p = realloc(rn->store, cap * sizeof *p);
            if (!p) {
                rn->r->oom = true;
                goto out;
            }
            rn->store = p;
            rn->capstore = cap;
        }
        char *k = conform_strdup(key);
        json_t *v = json_deep_copy(value);
        if (!k || !v) {
            free(k);
            json_decref(v);
            rn->r->oom = true;
            goto out;
        }
        rn->store[rn->nstore].key = k;
        rn->store[rn->nstore].value = v;
        rn->nstore++;
    }
out:
    pthread_mutex_unlock(&rn->mu);
}

static void store_put_str(runner *rn, const char *kind, const char *name, const json_t *value)
{
    sdkc_buf k = SDKC_BUF_INIT;
    sdkc_buf_printf(&k, "%s:%s", kind, name);
    if (k.data)
        store_put(rn, k.data, value);
    sdkc_buf_cleanup(&k);
}

const json_t *conform_store_get_str(runner *rn, const char *kind, const char *name)
{
    sdkc_buf k = SDKC_BUF_INIT;
    sdkc_buf_printf(&k, "%s:%s", kind, name);
    const json_t *v = k.data ? store_get(rn, k.data) : NULL;
    sdkc_buf_cleanup(&k);
    return v;
}

/* Walk a value along its type: remember every branded string, and every scalar field by name. */
static void harvest(runner *rn, const sdkc_type *t, const json_t *v, int depth)
{
    if (!t || !v || depth > 32)
        return;
    switch (t->kind) {
    case SDKC_TYPE_STRING:
        if (t->u.str.brand && json_is_string(v) && t->u.str.brand->name &&
            strncmp(json_string_value(v), t->u.str.brand->prefix ? t->u.str.brand->prefix : "",
                    strlen(t->u.str.brand->prefix ? t->u.str.brand->prefix : "")) == 0)
            store_put_str(rn, "brand", t->u.str.brand->name, v);
        break;
    case SDKC_TYPE_OBJECT:
        for (size_t i = 0; json_is_object(v) && i < t->u.object.nfields; i++) {
            const sdkc_field *f = &t->u.object.fields[i];
            json_t *m = json_object_get(v, f->wire_name);
            if (depth < 3)
                store_put_str(rn, "field", f->wire_name, m);
            harvest(rn, f->type, m, depth + 1);
        }
        break;
    case SDKC_TYPE_ARRAY:
        for (size_t i = 0; json_is_array(v) && i < json_array_size(v) && i < 16; i++)
            harvest(rn, t->u.array.items, json_array_get(v, i), depth + 1);
        break;
    case SDKC_TYPE_NULLABLE:
        harvest(rn, t->u.nullable.inner, v, depth + 1);
        break;
    case SDKC_TYPE_UNION: {
        const char *disc = t->u.union_.discriminator;
        const char *tag = disc ? json_string_value(json_object_get(v, disc)) : NULL;
        for (size_t i = 0; i < t->u.union_.nvariants; i++)
            if (!disc || (tag && t->u.union_.variants[i].tag &&
                          strcmp(tag, t->u.union_.variants[i].tag) == 0))
                harvest(rn, t->u.union_.variants[i].type, v, depth + 1);
        break;
    }
    default:
        break;
    }
}

/* The text of the path template up to "/{name}": the collection a parameter indexes. */
char *conform_collection_of(const char *path, const char *name)
{
    sdkc_buf pat = SDKC_BUF_INIT;
    sdkc_buf_printf(&pat, "/{%s}", name);
    const char *at = pat.data ? strstr(path, pat.data) : NULL;
    char *out = NULL;
    if (at) {
        size_t n = (size_t)(at - path);
        out = malloc(n + 2);
        if (out) {
            memcpy(out, path, n);
            out[n] = '\0';
            if (!n) {
                out[0] = '/';
                out[1] = '\0';
            }
        }
    }
    sdkc_buf_cleanup(&pat);
    return out;
}

/* A remembered value made to fit the parameter's type (new), or NULL. */
static json_t *coerce(const sdkc_type *t, const json_t *v)
{
    t = conform_unwrap_nullable(t);
    if (!v || !t)
        return NULL;
    if (t->kind == SDKC_TYPE_INTEGER || t->kind == SDKC_TYPE_NUMBER) {
        if (json_is_number(v))
            return json_deep_copy(v);
        if (json_is_string(v)) {
            char *end = NULL;
            long long ll = strtoll(json_string_value(v), &end, 10);
            if (end && !*end && end != json_string_value(v))
                return json_integer((json_int_t)ll);
        }
        return NULL;
    }
    if (t->kind == SDKC_TYPE_STRING || t->kind == SDKC_TYPE_ANY || t->kind == SDKC_TYPE_UNION) {
        if (json_is_string(v))
            return json_deep_copy(v);
        if (json_is_integer(v)) {
            char buf[32];
            snprintf(buf, sizeof buf, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
            return json_string(buf);
        }
    }
    return NULL;
}

/* v (new, taken) when it is valid for the parameter's type, else NULL: a value remembered from
 * another field must still match this parameter's pattern, bounds or enum. */
json_t *conform_fitting(worker *wk, const sdkc_param *p, json_t *v)
{
    if (!v)
        return NULL;
    sdkc_validation_reset(wk->val);
    if (sdkc_validate(wk->val, p->type, v, "$") != SDKC_OK || sdkc_validation_total(wk->val) != 0) {
        json_decref(v);
        return NULL;
    }
    return v;
}

/* v (borrowed) made to fit the parameter's type and checked against it (new), or NULL. */
json_t *conform_param_value(worker *wk, const sdkc_param *p, const json_t *v)
{
    return conform_fitting(wk, p, coerce(p->type, v));
}

/* A value for a path parameter, from what the run knows: an OpenAPI link, --param, a brand, the
 * id of what the collection's creator made, a field of the same name. NULL when none. */
json_t *conform_known_path_value(worker *wk, const sdkc_operation *op, const sdkc_param *p)
{
    runner *rn = wk->rn;
    sdkc_buf k = SDKC_BUF_INIT;
    sdkc_buf_printf(&k, "%s:%s", op->id, p->wire_name);
    json_t *v =
        k.data ? conform_fitting(wk, p, coerce(p->type, conform_store_get_str(rn, "link", k.data)))
               : NULL;
    sdkc_buf_cleanup(&k);
    if (!v)
        v = conform_user_param(rn, p);
    const sdkc_type *t = conform_unwrap_nullable(p->type);
    if (!v && t && t->kind == SDKC_TYPE_STRING && t->u.str.brand && t->u.str.brand->name)
        return coerce(p->type, conform_store_get_str(rn, "brand", t->u.str.brand->name));
    if (!v) {
        char *coll = conform_collection_of(op->path, p->wire_name);
        v = coll ? conform_fitting(wk, p, coerce(p->type, conform_store_get_str(rn, "coll", coll)))
                 : NULL;
        free(coll);
    }
    if (!v)
        v = conform_fitting(wk, p,
                            coerce(p->type, conform_store_get_str(rn, "field", p->wire_name)));
    return v;
}

/* A well-formed value nobody made: a brand's prefix, a string or a large integer. NULL when the
 * type leaves no room (an enum, a pattern, a format). */
json_t *conform_unknown_value(const sdkc_param *p)
{
    const sdkc_type *t = conform_unwrap_nullable(p->type);
    if (!t)
        return NULL;
    if (t->kind == SDKC_TYPE_STRING && t->u.str.brand) {
        char *u = conform_unknown_id(t->u.str.brand);
        json_t *j = u ? json_string(u) : NULL;
        free(u);
        return j;
    }
    if (t->kind == SDKC_TYPE_STRING && !t->u.str.pattern && !t->u.str.format &&
        (!t->u.str.has_max_length || t->u.str.max_length >= 24) &&
        (!t->u.str.has_min_length || t->u.str.min_length <= 24))
        return json_string("conform0unknown000000000");
    if (t->kind == SDKC_TYPE_INTEGER) {
        double v = 987654321;
        if (t->u.num.has_maximum && t->u.num.maximum < v)
            v = t->u.num.maximum;
        if (t->u.num.has_minimum && v < t->u.num.minimum)
            return NULL;
        return json_integer((json_int_t)v);
    }
    return NULL;
}

/* ---- what answers teach: created ids, Location headers, OpenAPI links ---- */

/* The result the client returns of a success body (its `data` when the success unwraps it). */
static const json_t *result_of(const sdkc_operation *op, int status, const json_t *body)
{
    const sdkc_success *sx = conform_success_read(op, status);
    if (sx && sx->unwrap && json_is_object(body))
        return json_object_get(body, sx->unwrap);
    return body;
}

/* The id of what a write made: its `id` field, else the last segment of its Location. */
json_t *conform_created_id(const sdkc_operation *op, int status, const json_t *body,
                           const char *location)
{
    const json_t *res = result_of(op, status, body);
    const json_t *id = json_object_get(res, "id");
    if (json_is_string(id) || json_is_integer(id))
        return json_deep_copy(id);
    if (location) {
        size_t n = strcspn(location, "?#");
        while (n > 0 && location[n - 1] == '/')
            n--;
        size_t s = n;
        while (s > 0 && location[s - 1] != '/')
            s--;
        if (n > s)
            return json_stringn(location + s, n - s);
    }
    return NULL;
}

/* "$response.body#/a/b" of body, or NULL (borrowed). */
const json_t *conform_link_value(const char *expr, const json_t *body)
{
    const char *pre = "$response.body#";
    if (strncmp(expr, pre, strlen(pre)) != 0)
        return NULL;
    const json_t *v = body;
    for (const char *p = expr + strlen(pre); v && *p == '/';) {
        p++;
        size_t n = strcspn(p, "/");
        char key[128];
        if (n >= sizeof key)
            return NULL;
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            if (p[i] == '~' && i + 1 < n && (p[i + 1] == '0' || p[i + 1] == '1')) {
                key[k++] = p[i + 1] == '0' ? '~' : '/';
                i++;
            } else {
                key[k++] = p[i];
            }
        }
        key[k] = '\0';
        if (json_is_array(v)) {
            char *end = NULL;
            long idx = strtol(key, &end, 10);
            v = end && !*end ? json_array_get(v, (size_t)idx) : NULL;
        } else {
            v = json_object_get(v, key);
        }
        p += n;
    }
    return v;
}

/* Remember the parameters an answer's OpenAPI links give other operations. */
static void learn_links(runner *rn, const sdkc_operation *op, int status, const json_t *body)
{
    const sdkc_response_info *ri = conform_response_info(op, status);
    for (size_t i = 0; ri && i < ri->nlinks; i++) {
        const char *target = ri->links[i].operation_id;
        for (size_t j = 0; j < ri->links[i].nparams; j++) {
            const json_t *v = conform_link_value(ri->links[i].params[j].value, body);
            const char *pname = ri->links[i].params[j].name;
            const char *dot = strchr(pname, '.'); /* "path.itemId" */
            sdkc_buf k = SDKC_BUF_INIT;
            sdkc_buf_printf(&k, "%s:%s", target, dot ? dot + 1 : pname);
            if (v && k.data)
                store_put_str(rn, "link", k.data, v);
            sdkc_buf_cleanup(&k);
        }
    }
}

void conform_learn(runner *rn, const sdkc_operation *op, const probe_out *o)
{
    if (o->body) {
        const sdkc_success *sx = conform_success_read(op, o->status);
        if (sx)
            harvest(rn, sx->result, result_of(op, o->status, o->body), 0);
        learn_links(rn, op, o->status, o->body);
    }
    if (o->status / 100 == 2 && strcmp(op->method, "POST") == 0) {
        json_t *id = conform_created_id(op, o->status, o->body, o->location);
        store_put_str(rn, "coll", op->path, id);
        json_decref(id);
    }
}
