/* probe_coverage.c - the coverage and negative phases: the valid request with one parameter or
 * body field changed, to a value at the edge of what the contract allows (coverage: every enum
 * member, bounds, lengths, item counts, an optional field present, null where nullable) or to
 * one it forbids (negative: a wrong type, a value out of range or outside the enum, a required
 * parameter, header or field left out). Each case is checked with the validator first: a
 * coverage value must be valid and a negative one invalid, else it is not sent. */
#include "probe_internal.h"

#define BODY_DEPTH 2 /* nested objects of the body whose fields are varied */

typedef struct gen_ctx {
    worker *wk;
    const sdkc_operation *op;
    gen_list *l;
    bool negative;
    bool base_accepted; /* the valid request got a 2xx */
    int target;
    /* a parameter's cases */
    const sdkc_param *p;
    /* a body field's cases: base (the valid body), the keys down to the field's object */
    const json_t *base;
    const char *keys[BODY_DEPTH + 1];
    size_t nkeys;
    const char *field;
} gen_ctx;

static const char *rule_of(const char *what)
{
    if (strstr(what, " where "))
        return "type";
    if (strstr(what, "(format "))
        return "format";
    if (strstr(what, "(pattern"))
        return "pattern";
    if (strstr(what, "enum"))
        return "enum";
    if (strstr(what, "uniqueItems"))
        return "unique";
    if (strstr(what, "imum") || strstr(what, "Length") || strstr(what, "Items"))
        return "bounds";
    if (strstr(what, "required"))
        return "required";
    return "value";
}

/* The value as a short text for a case's description. */
static void value_text(sdkc_buf *b, const json_t *v)
{
    char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
    if (s && strlen(s) > 40)
        sdkc_buf_printf(b, "%.32s...", s);
    else
        sdkc_buf_puts(b, s ? s : "?");
    free(s);
}

static char *field_path(const gen_ctx *g)
{
    sdkc_buf b = SDKC_BUF_INIT;
    sdkc_buf_puts(&b, "$");
    for (size_t i = 0; i < g->nkeys; i++)
        sdkc_buf_printf(&b, ".%s", g->keys[i]);
    sdkc_buf_printf(&b, ".%s", g->field);
    return sdkc_buf_steal(&b, NULL);
}

/* The valid body with the field set to v (stolen; NULL: removed), or NULL. */
static json_t *body_with(const gen_ctx *g, json_t *v)
{
    json_t *copy = json_deep_copy(g->base);
    json_t *node = copy;
    for (size_t i = 0; node && i < g->nkeys; i++)
        node = json_object_get(node, g->keys[i]);
    if (!json_is_object(node) ||
        (v ? json_object_set_new(node, g->field, v) : json_object_del(node, g->field)) != 0) {
        if (!json_is_object(node))
            json_decref(v);
        json_decref(copy);
        return NULL;
    }
    return copy;
}

static void emit_case(gen_ctx *g, json_t *v, bool omit, const char *what)
{
    worker *wk = g->wk;
    gen_case c;
    memset(&c, 0, sizeof c);
    c.mode = g->negative ? MODE_NEGATIVE : MODE_COVERAGE;
    c.check = CHECK_NEGATIVE;
    c.contract_only = !g->negative && g->base_accepted;
    c.target = g->target;
    sdkc_buf w = SDKC_BUF_INIT, path = SDKC_BUF_INIT;
    size_t fresh = 0;
    if (g->p) {
        const sdkc_param *p = g->p;
        sdkc_buf_printf(&path, "%s %s", sdkc_param_in_name(p->in), p->wire_name);
        if (omit) {
            c.omit = p;
            if (p->in == SDKC_PARAM_HEADER)
                c.check = CHECK_MISSING_HDR;
            sdkc_buf_printf(&w, "no %s parameter %s (required)", sdkc_param_in_name(p->in),
                            p->wire_name);
            fresh = 1;
        } else {
            char *k = conform_param_key(p);
            c.params = json_object();
            if (!k || !c.params || json_object_set(c.params, k, v) != 0)
                wk->rn->r->oom = true;
            free(k);
            sdkc_buf_printf(&w, "%s parameter %s = ", sdkc_param_in_name(p->in), p->wire_name);
            value_text(&w, v);
            sdkc_buf_printf(&w, " (%s)", what);
            fresh = conform_new_deviations(wk, p->type, v, NULL);
        }
    } else {
        char *fp = field_path(g);
        sdkc_buf_puts(&path, fp ? fp : "$");
        if (omit) {
            sdkc_buf_printf(&w, "a body without %s (required)", fp ? fp : "?");
        } else {
            sdkc_buf_printf(&w, "a body with %s = ", fp ? fp : "?");
            value_text(&w, v);
            sdkc_buf_printf(&w, " (%s)", what);
        }
        free(fp);
        c.body = body_with(g, omit ? NULL : json_incref(v));
        fresh = c.body ? conform_new_deviations(wk, g->op->body->type, c.body, g->base) : 0;
        if (!c.body)
            fresh = g->negative ? 0 : 1; /* never sent */
    }
    json_decref(v);
    c.rule = rule_of(w.data ? w.data : "");
    c.what = sdkc_buf_steal(&w, NULL);
    c.path = sdkc_buf_steal(&path, NULL);
    sdkc_buf_cleanup(&w);
    sdkc_buf_cleanup(&path);
    /* a coverage value the validator finds anything wrong with, or a negative one it finds
       nothing wrong with, would make a false report */
    if ((fresh == 0) != !g->negative || (fresh >= 1000 && g->negative)) {
        free(c.what);
        free(c.path);
        json_decref(c.params);
        json_decref(c.body);
        return;
    }
    if (!conform_gen_push(g->l, &c))
        wk->rn->r->oom = true;
}

static void emit_value(void *u, json_t *v, const char *what)
{
    if (v)
        emit_case(u, v, false, what);
}

/* A header the run sets on every request (--header, credentials) cannot be varied or left out. */
static bool header_is_runs(const runner *rn, const sdkc_param *p)
{
    if (p->in != SDKC_PARAM_HEADER)
        return false;
    static const char *const fixed[] = {"Authorization", "Content-Type", "Accept", "Cookie",
                                        "User-Agent"};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        if (strcasecmp(p->wire_name, fixed[i]) == 0)
            return true;
    for (size_t i = 0; i < rn->opts->nheaders; i++)
        if (strcasecmp(rn->opts->headers[i].name, p->wire_name) == 0)
            return true;
    for (size_t i = 0; i < rn->ir->nschemes; i++)
        if (rn->ir->schemes[i].param && strcasecmp(rn->ir->schemes[i].param, p->wire_name) == 0)
            return true;
    return false;
}

static void param_cases(gen_ctx *g)
{
    runner *rn = g->wk->rn;
    const sdkc_operation *op = g->op;
    const sdkc_param *cursor = op->pagination ? op->pagination->cursor_param : NULL;
    for (size_t i = 0; i < op->nparams; i++) {
        const sdkc_param *p = &op->params[i];
        json_t *given = conform_user_param(rn, p);
        bool skip = given || p == cursor || header_is_runs(rn, p);
        json_decref(given);
        if (skip)
            continue;
        g->p = p;
        g->target++;
        const sdkc_type *t = conform_unwrap_nullable(p->type);
        if (p->in == SDKC_PARAM_PATH) {
            /* the ids stay the server's: only what the type alone rules out, or its enum */
            if (t && (t->kind == SDKC_TYPE_ENUM || (g->negative && (t->kind == SDKC_TYPE_INTEGER ||
                                                                    t->kind == SDKC_TYPE_NUMBER ||
                                                                    t->kind == SDKC_TYPE_BOOLEAN))))
                conform_cover_values(g->wk, p->type, g->negative, NULL, emit_value, g);
            continue;
        }
        if (g->negative && p->required &&
            conform_check_on(rn, p->in == SDKC_PARAM_HEADER ? CHECK_MISSING_HDR : CHECK_NEGATIVE))
            emit_case(g, NULL, true, "required");
        if (g->negative && !conform_check_on(rn, CHECK_NEGATIVE))
            continue;
        size_t before = g->l->n;
        conform_cover_values(g->wk, p->type, g->negative, NULL, emit_value, g);
        if (!g->negative && !p->required && g->l->n == before) {
            /* an optional parameter present, with its plain value */
            const char *why = NULL;
            json_t *v = conform_synth(g->wk, MODE_VALID, p->type, &why);
            /* an empty object or list sends nothing: the valid request again */
            if (v && !(json_is_object(v) && !json_object_size(v)) &&
                !(json_is_array(v) && !json_array_size(v)))
                emit_case(g, v, false, "the optional parameter present");
            else
                json_decref(v);
        }
    }
    g->p = NULL;
}

/* The built-in hint of the valid probe (an optional boolean `resume`, false) stays as it is. */
static bool is_hint(const sdkc_field *f)
{
    return strcmp(f->wire_name, "resume") == 0 && f->type && f->type->kind == SDKC_TYPE_BOOLEAN;
}

static void field_cases(gen_ctx *g, const sdkc_type *t, const json_t *node)
{
    const sdkc_type *c = conform_unwrap_nullable(t);
    if (!c || c->kind != SDKC_TYPE_OBJECT || !json_is_object(node))
        return;
    for (size_t i = 0; i < c->u.object.nfields; i++) {
        const sdkc_field *f = &c->u.object.fields[i];
        if (f->read_only || is_hint(f))
            continue;
        const json_t *have = json_object_get(node, f->wire_name);
        g->field = f->wire_name;
        g->target++;
        if (g->negative && f->required && have)
            emit_case(g, NULL, true, "required");
        if (!g->negative && !f->required && !have) {
            const char *why = NULL;
            json_t *v = conform_synth(g->wk, MODE_VALID, f->type, &why);
            if (v)
                emit_case(g, v, false, "the optional field present");
        }
        if (have || !g->negative)
            conform_cover_values(g->wk, f->type, g->negative, (json_t *)g->base, emit_value, g);
        if (have && g->nkeys < BODY_DEPTH) {
            g->keys[g->nkeys++] = f->wire_name;
            field_cases(g, f->type, have);
            g->nkeys--;
        }
    }
}

void conform_phase_generated(worker *wk, const sdkc_operation *op, bool negative, size_t max,
                             bool base_accepted)
{
    runner *rn = wk->rn;
    gen_list l = {0};
    gen_ctx g;
    memset(&g, 0, sizeof g);
    g.wk = wk;
    g.op = op;
    g.l = &l;
    g.negative = negative;
    g.base_accepted = base_accepted;
    param_cases(&g);
    json_t *base = NULL;
    if (op->body && conform_media_is_json(op->body->content_type) &&
        (!negative || conform_check_on(rn, CHECK_NEGATIVE))) {
        base = conform_base_body(wk, op);
        g.base = base;
        if (negative && op->body->required) {
            gen_case c;
            memset(&c, 0, sizeof c);
            c.mode = MODE_NEGATIVE;
            c.check = CHECK_NEGATIVE;
            c.no_body = true;
            c.rule = "required";
            c.target = ++g.target;
            c.what = conform_strdup("a request without its required body");
            c.path = conform_strdup("body");
            if (!conform_gen_push(&l, &c))
                rn->r->oom = true;
        }
        if (base)
            field_cases(&g, op->body->type, base);
    }
    conform_gen_select(&l, max, rn->seed, op->id);
    conform_run_cases(wk, op, &l);
    conform_gen_free(&l);
    json_decref(base);
}
