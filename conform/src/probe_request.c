/* probe_request.c - a request of an operation built from the IR: synthesised values, parameters,
 * body, security. */
#include "probe_internal.h"

/* ---- synthesised values ---- */

const sdkc_type *conform_unwrap_nullable(const sdkc_type *t)
{
    while (t && t->kind == SDKC_TYPE_NULLABLE)
        t = t->u.nullable.inner;
    return t;
}

char *conform_unknown_id(const sdkc_brand *b)
{
    sdkc_buf s = SDKC_BUF_INIT;
    const char *prefix = b && b->prefix ? b->prefix : "";
    size_t n = strlen(prefix);
    sdkc_buf_puts(&s, prefix);
    sdkc_buf_puts(&s, n && prefix[n - 1] != '_' ? "_" : "");
    sdkc_buf_puts(&s, "conform0unknown0000000000");
    return sdkc_buf_steal(&s, NULL);
}

typedef struct synth_ctx {
    worker *wk;
    probe_mode mode;
    const sdkc_type *top; /* the body's object type, whose optional fields drop indexes */
    uint64_t drop;        /* as req_plan.drop */
    unsigned first;       /* the index of top's first optional field */
} synth_ctx;

static const char *brand_hook(void *user, const sdkc_brand *b)
{
    synth_ctx *sc = user;
    const json_t *v = b && b->name ? conform_store_get_str(sc->wk->rn, "brand", b->name) : NULL;
    return json_string_value(v);
}

/* The positive probe sets every optional field; the others only one built-in hint: an optional
 * boolean `resume` is sent (false), so that a prompt is admitted without starting work that
 * needs a model provider. Read-only fields are never sent. */
static bool optional_hook(void *user, const sdkc_type *t, const sdkc_field *f)
{
    synth_ctx *sc = user;
    if (f->read_only)
        return false;
    if (sc->mode == MODE_POSITIVE || sc->mode == MODE_POSITIVE_BODY) {
        if (!sc->drop || t != sc->top)
            return true;
        unsigned k = sc->first;
        for (size_t i = 0; i < t->u.object.nfields; i++) {
            const sdkc_field *o = &t->u.object.fields[i];
            if (o->required || o->read_only)
                continue;
            if (o == f)
                return k >= 64 || !((sc->drop >> k) & 1);
            k++;
        }
        return true;
    }
    return strcmp(f->wire_name, "resume") == 0 && f->type && f->type->kind == SDKC_TYPE_BOOLEAN;
}

static json_t *synth_dropping(synth_ctx *sc, const sdkc_type *t, const char **why);

/* A valid value of t (new), or NULL with *why. */
json_t *conform_synth(worker *wk, probe_mode mode, const sdkc_type *t, const char **why)
{
    synth_ctx sc = {wk, mode, NULL, 0, 0};
    return synth_dropping(&sc, t, why);
}

/* How many optional parameters (not path) op has: the first indexes of req_plan.drop. */
unsigned conform_optional_params(const sdkc_operation *op)
{
    unsigned n = 0;
    for (size_t i = 0; i < op->nparams; i++)
        n += !op->params[i].required && op->params[i].in != SDKC_PARAM_PATH;
    return n;
}

/* Optional parameters and top-level body fields a positive probe sends: what a reduction drops
 * one at a time (at most 64). */
unsigned conform_optional_count(const sdkc_operation *op)
{
    unsigned n = conform_optional_params(op);
    const sdkc_type *t = op->body ? conform_unwrap_nullable(op->body->type) : NULL;
    for (size_t i = 0; t && t->kind == SDKC_TYPE_OBJECT && i < t->u.object.nfields; i++)
        n += !t->u.object.fields[i].required && !t->u.object.fields[i].read_only;
    return n < 64 ? n : 64;
}

static json_t *synth_dropping(synth_ctx *sc, const sdkc_type *t, const char **why)
{
    worker *wk = sc->wk;
    sdkc_synth_options so = SDKC_SYNTH_OPTIONS_INIT;
    so.filler = "conform";
    so.brand_value = brand_hook;
    so.want_optional = optional_hook;
    so.user = sc;
    json_t *v = NULL;
    *why = NULL;
    sdkc_status st = sdkc_synth_value(&v, wk->arena, t, &so, why);
    if (st == SDKC_ERR_NOMEM) {
        wk->rn->r->oom = true;
        *why = "out of memory";
    }
    return st == SDKC_OK ? v : NULL;
}

/* A value for a parameter from --param NAME=VALUE, typed like the parameter (new), or NULL. */
json_t *conform_user_param(const runner *rn, const sdkc_param *p)
{
    for (size_t i = 0; i < rn->opts->nparams; i++) {
        if (strcmp(rn->opts->params[i].name, p->wire_name) != 0)
            continue;
        const char *s = rn->opts->params[i].value;
        const sdkc_type *t = conform_unwrap_nullable(p->type);
        if (t && (t->kind == SDKC_TYPE_INTEGER || t->kind == SDKC_TYPE_NUMBER)) {
            json_t *j = json_loads(s, JSON_DECODE_ANY, NULL);
            if (json_is_number(j))
                return j;
            json_decref(j);
        }
        return json_string(s);
    }
    return NULL;
}

static sdkrt_param_spec param_spec(const sdkc_param *p)
{
    sdkrt_param_spec s = {p->wire_name, (sdkrt_param_in)p->in, (sdkrt_param_style)p->style,
                          p->explode, p->allow_reserved};
    return s;
}

static void plan_why(req_plan *plan, const char *what, const char *name, const char *why)
{
    if (plan->why)
        return;
    sdkc_buf b = SDKC_BUF_INIT;
    sdkc_buf_printf(&b, "no valid value for %s %s: %s", what, name, why ? why : "unknown reason");
    plan->why = sdkc_buf_steal(&b, NULL);
    sdkc_buf_cleanup(&b);
}

static bool put_param(sdkrt_request *req, const sdkc_param *p, const json_t *v, req_plan *plan)
{
    sdkrt_param_spec spec = param_spec(p);
    sdkrt_error *err = NULL;
    bool ok = sdkrt_request_add_param(req, &spec, v, &err) == SDKRT_OK;
    if (!ok)
        plan_why(plan, sdkc_param_in_name(p->in), p->wire_name, sdkrt_error_message(err));
    sdkrt_error_free(err);
    return ok;
}

/* Does a value of t have an optional field the positive probe would set, at any depth (in
 * objects, array items, map values and union variants)? */
static bool type_has_optional(const sdkc_type *t, int depth)
{
    if (!t || depth > SDKC_SYNTH_MAX_DEPTH)
        return false;
    switch (t->kind) {
    case SDKC_TYPE_NULLABLE:
        return type_has_optional(t->u.nullable.inner, depth);
    case SDKC_TYPE_OBJECT:
        for (size_t i = 0; i < t->u.object.nfields; i++) {
            const sdkc_field *f = &t->u.object.fields[i];
            if (f->read_only)
                continue;
            if (!f->required || type_has_optional(f->type, depth + 1))
                return true;
        }
        return false;
    case SDKC_TYPE_ARRAY:
        return type_has_optional(t->u.array.items, depth + 1);
    case SDKC_TYPE_MAP:
        return type_has_optional(t->u.map.value, depth + 1);
    case SDKC_TYPE_UNION:
        /* whichever variant the synthesiser picks: a wasted probe at worst */
        for (size_t i = 0; i < t->u.union_.nvariants; i++)
            if (type_has_optional(t->u.union_.variants[i].type, depth + 1))
                return true;
        return false;
    default:
        return false;
    }
}

bool conform_has_optional_body(const sdkc_operation *op)
{
    return op->body && type_has_optional(op->body->type, 0);
}

bool conform_has_optional_params(const sdkc_operation *op)
{
    for (size_t i = 0; i < op->nparams; i++)
        if (!op->params[i].required && op->params[i].in != SDKC_PARAM_PATH)
            return true;
    return false;
}

static bool has_optional(const sdkc_operation *op)
{
    return conform_has_optional_params(op) || conform_has_optional_body(op);
}

static void set_security(sdkrt_request *req, const sdkc_operation *op)
{
    if (!op->nsecurity)
        return;
    sdkrt_security_scheme *s = calloc(op->nsecurity, sizeof *s);
    if (!s)
        return;
    for (size_t i = 0; i < op->nsecurity; i++) {
        const sdkc_security_scheme *sc = op->security[i];
        s[i].name = sc->name;
        s[i].with_previous = op->security_with_previous && op->security_with_previous[i];
        if (sc->type && strcmp(sc->type, "apiKey") == 0) {
            s[i].kind = SDKRT_SECURITY_API_KEY;
            s[i].in = sc->in && strcmp(sc->in, "query") == 0    ? SDKRT_IN_QUERY
                      : sc->in && strcmp(sc->in, "cookie") == 0 ? SDKRT_IN_COOKIE
                                                                : SDKRT_IN_HEADER;
            s[i].param = sc->param;
        } else if (sc->type && strcmp(sc->type, "http") == 0 && sc->scheme &&
                   strcasecmp(sc->scheme, "basic") == 0) {
            s[i].kind = SDKRT_SECURITY_HTTP_BASIC;
        } else {
            s[i].kind = SDKRT_SECURITY_HTTP_BEARER; /* bearer, oauth2, openIdConnect */
        }
    }
    sdkrt_request_set_security(req, s, op->nsecurity);
    free(s);
}

/* A body of a single media type that is neither JSON nor a form, whose schema is an object,
   array or map: its bytes are not described (JSON text there would be sdkc's guess). */
static bool raw_container_body(const sdkc_body *b)
{
    const char *mt = b->content_type;
    if (!mt || conform_media_is_json(mt) || strncasecmp(mt, "multipart/", 10) == 0 ||
        strncasecmp(mt, "application/x-www-form-urlencoded", 33) == 0)
        return false;
    const sdkc_type *t = conform_unwrap_nullable(b->type);
    return t && (t->kind == SDKC_TYPE_OBJECT || t->kind == SDKC_TYPE_ARRAY ||
                 t->kind == SDKC_TYPE_MAP || t->kind == SDKC_TYPE_TUPLE);
}

/* The query parameter that sets a page's size: the pagination's own, else `limit`. */
const sdkc_param *conform_size_param(const sdkc_operation *op)
{
    if (op->pagination && op->pagination->size_param)
        return op->pagination->size_param;
    return conform_param_named(op, SDKC_PARAM_QUERY, "limit");
}

/* The value a generated request gives p instead (new), or NULL. */
static json_t *case_value(const gen_case *gc, const sdkc_param *p)
{
    if (!gc || !gc->params)
        return NULL;
    char *k = conform_param_key(p);
    json_t *v = k ? json_object_get(gc->params, k) : NULL;
    free(k);
    return v ? json_deep_copy(v) : NULL;
}

sdkrt_request *conform_build(worker *wk, const sdkc_operation *op, req_plan *plan, sdkc_buf *desc)
{
    runner *rn = wk->rn;
    sdkrt_request *req = NULL;
    const gen_case *gc = plan->gc;
    if (sdkrt_request_new(&req, plan->method ? plan->method : op->method, op->path) != SDKRT_OK)
        return NULL;
    set_security(req, op);
    plan->optional_params = has_optional(op);
    /* The last path parameter is the one probed; the ones before it stay valid so that a 404 is
       about the resource probed. */
    size_t npath = conform_path_param_count(op), seen = 0;
    const char *why = NULL;
    for (size_t i = 0; i < op->nparams; i++) {
        const sdkc_param *p = &op->params[i];
        if (p->in != SDKC_PARAM_PATH)
            continue;
        seen++;
        json_t *v = case_value(gc, p);
        if (v)
            ; /* the generated request's own */
        else if (seen == npath && plan->last_id)
            v = json_deep_copy(plan->last_id);
        else if (seen == npath && plan->mode == MODE_UNKNOWN_ID)
            v = conform_unknown_value(p);
        else
            v = conform_known_path_value(wk, op, p);
        if (!v) {
            const sdkc_type *t = conform_unwrap_nullable(p->type);
            if (t && t->kind == SDKC_TYPE_STRING && t->u.str.brand) {
                char *u = conform_unknown_id(t->u.str.brand);
                v = u ? json_string(u) : NULL;
                free(u);
                plan->no_id = true;
            } else {
                v = conform_synth(wk, plan->mode, p->type, &why);
                plan->made_up = true;
                if (json_is_string(v) && json_string_length(v) == 0) {
                    /* the shortest string (minLength 0) is no path segment: the filler,
                       where the schema takes it */
                    json_decref(v);
                    v = conform_fitting(wk, p, json_string("conform"));
                    why = "an empty string is no path segment, and \"conform\" does not fit";
                }
                if (!v)
                    plan_why(plan, "path parameter", p->wire_name, why);
            }
        }
        if (v)
            put_param(req, p, v, plan);
        json_decref(v);
    }
    unsigned nopt = 0;
    const char *cursor_name = op->pagination && op->pagination->cursor_param
                                  ? op->pagination->cursor_param->wire_name
                                  : NULL;
    for (size_t i = 0; i < op->nparams; i++) {
        const sdkc_param *p = &op->params[i];
        if (p->in == SDKC_PARAM_PATH)
            continue;
        json_t *v = NULL;
        bool opt = !p->required;
        unsigned opt_index = nopt;
        nopt += opt;
        if (gc && gc->omit == p)
            continue;
        if ((v = case_value(gc, p)) != NULL) {
            /* the generated request's own */
        } else if (cursor_name && p->in == SDKC_PARAM_QUERY &&
                   strcmp(p->wire_name, cursor_name) == 0 &&
                   /* a required page number or offset is sent on the first page too (as any
                      required parameter, below) */
                   (plan->mode == MODE_BAD_CURSOR || plan->cursor || !p->required)) {
            if (plan->mode == MODE_BAD_CURSOR)
                v = json_string("conform-not-a-cursor");
            else if (plan->cursor)
                v = json_string(plan->cursor);
        } else if (plan->limit > 0 && p == conform_size_param(op)) {
            v = json_integer(plan->limit);
        } else if ((v = conform_user_param(rn, p)) != NULL) {
            plan->user_values = true; /* given on the command line */
        } else if (p->required || (plan->mode == MODE_POSITIVE &&
                                   (opt_index >= 64 || !((plan->drop >> opt_index) & 1)))) {
            v = conform_synth(wk, plan->mode, p->type, &why);
            if (!v && p->required)
                plan_why(plan, sdkc_param_in_name(p->in), p->wire_name, why);
        }
        if (v)
            put_param(req, p, v, plan);
        json_decref(v);
    }
    const char *left_out = NULL;
    if (plan->method || (gc && gc->no_body)) {
        /* another method's request, or a required body left out: no body */
    } else if (op->body && raw_container_body(op->body)) {
        /* JSON text under a media type that is not JSON is a guess, not the bytes the contract
           describes: an optional body is left out, a required one has no valid value. */
        if (op->body->required)
            plan_why(plan, "body", op->body->content_type,
                     "a structured schema for a media type that is neither JSON nor a form");
        else
            left_out = op->body->content_type;
    } else if (op->body) {
        const char *mt = op->body->content_type ? op->body->content_type : "application/json";
        if (plan->mode == MODE_MALFORMED_BODY) {
            static const char bad[] = "{\"conform\": ";
            sdkrt_request_set_body(req, mt, bad, sizeof bad - 1);
        } else {
            synth_ctx sc = {wk, plan->mode, conform_unwrap_nullable(op->body->type), plan->drop,
                            conform_optional_params(op)};
            json_t *b = gc && gc->body ? json_deep_copy(gc->body)
                                       : synth_dropping(&sc, op->body->type, &why);
            if (!b) {
                plan_why(plan, "body", mt, why);
            } else {
                sdkrt_body_encoding enc[32];
                size_t nenc = op->body->nencodings < 32 ? op->body->nencodings : 32;
                for (size_t i = 0; i < nenc; i++) {
                    const sdkc_body_encoding *e = &op->body->encodings[i];
                    enc[i].property = e->property;
                    enc[i].content_type = e->content_type;
                    enc[i].style = (sdkrt_param_style)e->style;
                    enc[i].explode = e->explode;
                    enc[i].allow_reserved = e->allow_reserved;
                    enc[i].has_style = e->has_style;
                }
                sdkrt_error *err = NULL;
                if (sdkrt_request_set_body_as(req, mt, b, enc, nenc, NULL, NULL, 0, &err) !=
                    SDKRT_OK)
                    plan_why(plan, "body", mt, sdkrt_error_message(err));
                sdkrt_error_free(err);
            }
            json_decref(b);
        }
    }
    char *target = NULL;
    sdkrt_error *err = NULL;
    if (sdkrt_request_target(&target, req, &err) == SDKRT_OK)
        sdkc_buf_printf(desc, "%s %s", plan->method ? plan->method : op->method, target);
    else
        sdkc_buf_printf(desc, "%s %s", plan->method ? plan->method : op->method, op->path);
    if (left_out)
        sdkc_buf_printf(desc, " (no %s body: its schema is structured)", left_out);
    free(target);
    sdkrt_error_free(err);
    return req;
}
