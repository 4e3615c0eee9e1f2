/* ir_json_read_ops.c - the operations and webhooks of "sdkc-ir/1" JSON: parameters, bodies,
 * successes and errors with what their responses declare, pages and streams. */
#include <stdio.h>
#include <string.h>

#include "ir_json_internal.h"

/* Media types (default: content_type alone), headers and links of a response. */
static void read_response_info(reader *r, sdkc_response_info *ri, const json_t *o,
                               const char *content_type, const char *where)
{
    if (json_object_get(o, "media_types")) {
        ri->media_types = sdkc_irj_get_strs(r, o, "media_types", &ri->nmedia_types, where);
    } else if (content_type) {
        const char **mt = sdkc_irj_alloc(r, sizeof *mt);
        if (mt) {
            mt[0] = content_type;
            ri->media_types = mt;
            ri->nmedia_types = 1;
        }
    }
    const json_t *hs = sdkc_irj_get_array(r, o, "headers", false, where);
    size_t nh = json_array_size(hs);
    sdkc_header *h = nh ? sdkc_irj_alloc(r, nh * sizeof *h) : NULL;
    for (size_t i = 0; h && i < nh; i++) {
        const json_t *ho = json_array_get(hs, i);
        if (!json_is_object(ho)) {
            sdkc_irj_error(r, "%s: headers must be objects", where);
            return;
        }
        h[i].name = sdkc_irj_need_str(r, ho, "name", where);
        h[i].required = sdkc_irj_get_bool(r, ho, "required", where);
        h[i].docs = sdkc_irj_get_str(r, ho, "docs", where);
    }
    ri->headers = h;
    ri->nheaders = h ? nh : 0;
    const json_t *ls = sdkc_irj_get_array(r, o, "links", false, where);
    size_t nl = json_array_size(ls);
    sdkc_link *l = nl ? sdkc_irj_alloc(r, nl * sizeof *l) : NULL;
    for (size_t i = 0; l && i < nl; i++) {
        const json_t *lo = json_array_get(ls, i);
        const json_t *ps =
            json_is_object(lo) ? sdkc_irj_get_array(r, lo, "parameters", true, where) : NULL;
        if (!ps) {
            sdkc_irj_error(r, "%s: links must be objects with \"parameters\"", where);
            return;
        }
        l[i].name = sdkc_irj_need_str(r, lo, "name", where);
        l[i].operation_id = sdkc_irj_need_str(r, lo, "operation_id", where);
        size_t np = json_array_size(ps);
        sdkc_link_param *p = np ? sdkc_irj_alloc(r, np * sizeof *p) : NULL;
        for (size_t j = 0; p && j < np; j++) {
            const json_t *po = json_array_get(ps, j);
            if (!json_is_object(po)) {
                sdkc_irj_error(r, "%s: link parameters must be objects", where);
                return;
            }
            p[j].name = sdkc_irj_need_str(r, po, "name", where);
            p[j].value = sdkc_irj_need_str(r, po, "value", where);
        }
        l[i].params = p;
        l[i].nparams = p ? np : 0;
    }
    ri->links = l;
    ri->nlinks = l ? nl : 0;
}

static void read_params(reader *r, sdkc_operation *op, const json_t *arr, const char *where)
{
    size_t n = json_array_size(arr);
    sdkc_param *ps = sdkc_irj_alloc(r, n * sizeof *ps);
    for (size_t i = 0; ps && i < n; i++) {
        const json_t *o = json_array_get(arr, i);
        char pw[1024];
        snprintf(pw, sizeof pw, "%s.params[%zu]", where, i);
        if (!json_is_object(o)) {
            sdkc_irj_error(r, "%s: must be an object", pw);
            continue;
        }
        ps[i].wire_name = sdkc_irj_need_str(r, o, "name", pw);
        ps[i].safe_name = sdkc_irj_get_str(r, o, "safe_name", pw);
        ps[i].in = (sdkc_param_in)sdkc_irj_get_enum(r, o, "in", SDKC_IRJ_IN, pw);
        ps[i].style = (sdkc_param_style)sdkc_irj_get_enum(r, o, "style", SDKC_IRJ_STYLE, pw);
        ps[i].explode = sdkc_irj_get_bool(r, o, "explode", pw);
        ps[i].required = sdkc_irj_get_bool(r, o, "required", pw);
        ps[i].allow_reserved = sdkc_irj_get_bool(r, o, "allow_reserved", pw);
        ps[i].type = sdkc_irj_read_ref(r, json_object_get(o, "type"), false, pw, 0);
        ps[i].docs = sdkc_irj_get_str(r, o, "docs", pw);
        ps[i].loc = sdkc_irj_get_loc(r, o, pw);
    }
    op->params = ps;
    op->nparams = ps ? n : 0;
}

/* A pagination parameter named by its wire name: one of the operation's query parameters. */
static const sdkc_param *page_param(reader *r, const sdkc_operation *op, const json_t *name,
                                    const char *where)
{
    if (!json_is_string(name))
        return NULL;
    for (size_t i = 0; i < op->nparams; i++)
        if (op->params[i].wire_name &&
            strcmp(op->params[i].wire_name, json_string_value(name)) == 0)
            return &op->params[i];
    sdkc_irj_error(r, "%s: pagination parameter \"%s\" is not a parameter", where,
                   json_string_value(name));
    return NULL;
}

static void read_errors(reader *r, sdkc_operation *op, const json_t *arr, const char *where)
{
    size_t n = json_array_size(arr);
    sdkc_error_status *es = sdkc_irj_alloc(r, n * sizeof *es);
    for (size_t i = 0; es && i < n; i++) {
        const json_t *o = json_array_get(arr, i);
        if (!json_is_object(o)) {
            sdkc_irj_error(r, "%s: errors must be objects", where);
            continue;
        }
        es[i].status = sdkc_irj_need_status(r, o, "status", where);
        const json_t *tags = sdkc_irj_get_array(r, o, "tags", true, where);
        const json_t *types = sdkc_irj_get_array(r, o, "tag_types", true, where);
        size_t nt = json_array_size(tags);
        if (tags && types && json_array_size(types) != nt) {
            sdkc_irj_error(r, "%s: \"tags\" and \"tag_types\" differ in length", where);
            nt = 0;
        }
        sdkc_error_tag *ts = sdkc_irj_alloc(r, nt * sizeof *ts);
        for (size_t j = 0; ts && j < nt; j++) {
            const json_t *tag = json_array_get(tags, j);
            if (!json_is_string(tag)) {
                sdkc_irj_error(r, "%s: tags must be strings", where);
                continue;
            }
            ts[j].tag = sdkc_irj_strdup(r, json_string_value(tag));
            ts[j].type = sdkc_irj_read_ref(r, json_array_get(types, j), false, where, 0);
        }
        es[i].tags = ts;
        es[i].ntags = ts ? nt : 0;
        es[i].untagged = sdkc_irj_read_ref(r, json_object_get(o, "untagged"), false, where, 0);
        es[i].content_type = sdkc_irj_get_str(r, o, "content_type", where);
        read_response_info(r, &es[i].response, o, es[i].content_type, where);
    }
    op->errors = es;
    op->nerrors = es ? n : 0;
}

static const sdkc_body *read_body(reader *r, const json_t *body, const char *where)
{
    if (!body || json_is_null(body))
        return NULL;
    sdkc_body *b = sdkc_irj_alloc(r, sizeof *b);
    if (b && json_is_object(body)) {
        b->content_type = sdkc_irj_get_str(r, body, "content_type", where);
        b->type = sdkc_irj_read_ref(r, json_object_get(body, "type"), false, where, 0);
        b->required = sdkc_irj_get_bool(r, body, "required", where);
        b->docs = sdkc_irj_get_str(r, body, "docs", where);
        const json_t *enc = json_object_get(body, "encoding");
        size_t ne = json_array_size(enc);
        sdkc_body_encoding *ev = ne ? sdkc_irj_alloc(r, ne * sizeof *ev) : NULL;
        for (size_t i = 0; ev && i < ne; i++) {
            const json_t *e = json_array_get(enc, i);
            ev[i].property = sdkc_irj_need_str(r, e, "property", where);
            ev[i].content_type = sdkc_irj_get_str(r, e, "content_type", where);
            ev[i].has_style = json_object_get(e, "style") != NULL;
            ev[i].style =
                ev[i].has_style
                    ? (sdkc_param_style)sdkc_irj_get_enum(r, e, "style", SDKC_IRJ_STYLE, where)
                    : SDKC_STYLE_FORM;
            ev[i].explode = ev[i].has_style ? sdkc_irj_get_bool(r, e, "explode", where) : true;
            ev[i].allow_reserved = sdkc_irj_get_bool(r, e, "allow_reserved", where);
        }
        b->encodings = ev;
        b->nencodings = ev ? ne : 0;
        const json_t *alts = json_object_get(body, "alternatives");
        size_t na = json_array_size(alts);
        const char **av = na ? sdkc_irj_alloc(r, na * sizeof *av) : NULL;
        for (size_t i = 0; av && i < na; i++) {
            const json_t *a = json_array_get(alts, i);
            av[i] = json_is_string(a) ? sdkc_irj_strdup(r, json_string_value(a)) : NULL;
            if (!av[i])
                sdkc_irj_error(r, "%s: body alternatives must be strings", where);
        }
        b->alternatives = av;
        b->nalternatives = av ? na : 0;
    } else if (b) {
        sdkc_irj_error(r, "%s: \"body\" must be an object", where);
    }
    return b;
}

void sdkc_irj_read_webhook(reader *r, sdkc_webhook *h, const json_t *o, size_t i)
{
    char where[64];
    snprintf(where, sizeof where, "webhooks[%zu]", i);
    h->name = sdkc_irj_need_str(r, o, "name", where);
    h->operation = sdkc_irj_get_str(r, o, "operation", where);
    h->expression = sdkc_irj_get_str(r, o, "expression", where);
    h->method = sdkc_irj_need_str(r, o, "method", where);
    h->id = sdkc_irj_get_str(r, o, "id", where);
    h->body = read_body(r, json_object_get(o, "body"), where);
    const json_t *resp = json_object_get(o, "response");
    if (resp && !json_is_null(resp))
        h->response = sdkc_irj_read_ref(r, resp, false, where, 0);
    h->loc = sdkc_irj_get_loc(r, o, where);
}

/* A stream's "follow": {"sequence": [names], "after_param": name, "from_option": bool}. */
static const sdkc_follow *read_follow(reader *r, const json_t *fj, const sdkc_operation *op,
                                      const char *where)
{
    const json_t *seq = json_object_get(fj, "sequence");
    const char *after = json_is_object(fj) ? sdkc_irj_need_str(r, fj, "after_param", where) : NULL;
    size_t depth = json_array_size(seq);
    if (!json_is_object(fj) || !json_is_array(seq) || depth == 0 || !after) {
        sdkc_irj_error(r, "%s: \"follow\" needs a non-empty \"sequence\" and an \"after_param\"",
                       where);
        return NULL;
    }
    sdkc_follow *f = sdkc_irj_alloc(r, sizeof *f);
    const char **names = sdkc_irj_alloc(r, depth * sizeof *names);
    if (!f || !names)
        return NULL;
    for (size_t i = 0; i < depth; i++) {
        const json_t *n = json_array_get(seq, i);
        if (!json_is_string(n)) {
            sdkc_irj_error(r, "%s: \"follow\".sequence must hold strings", where);
            return NULL;
        }
        names[i] = sdkc_irj_strdup(r, json_string_value(n));
    }
    for (size_t i = 0; i < op->nparams && !f->after_param; i++)
        if (op->params[i].in == SDKC_PARAM_QUERY && op->params[i].wire_name &&
            strcmp(op->params[i].wire_name, after) == 0)
            f->after_param = &op->params[i];
    if (!f->after_param) {
        sdkc_irj_error(r, "%s: follow after_param \"%s\" is not a query parameter", where, after);
        return NULL;
    }
    f->sequence = names;
    f->depth = depth;
    f->from_option = sdkc_irj_get_bool(r, fj, "from_option", where);
    return f;
}

static void read_success(reader *r, sdkc_success *s, const json_t *succ, const char *where)
{
    s->status = sdkc_irj_need_status(r, succ, "status", where);
    s->encoding = (sdkc_encoding)sdkc_irj_get_enum(r, succ, "encoding", SDKC_IRJ_ENCODING, where);
    s->content_type = sdkc_irj_get_str(r, succ, "content_type", where);
    s->type = sdkc_irj_read_ref(r, json_object_get(succ, "type"), false, where, 0);
    s->unwrap = sdkc_irj_get_str(r, succ, "unwrap", where);
    const json_t *res = json_object_get(succ, "result");
    s->result = res ? sdkc_irj_read_ref(r, res, false, where, 0) : s->type;
    read_response_info(r, &s->response, succ, s->content_type, where);
}

/* A stream object (name: its key, for messages); NULL when absent. */
static const sdkc_stream *read_stream(reader *r, const json_t *sm, const char *name,
                                      const char *where)
{
    if (!sm)
        return NULL;
    sdkc_stream *s = sdkc_irj_alloc(r, sizeof *s);
    if (s && json_is_object(sm)) {
        s->encoding = (sdkc_encoding)sdkc_irj_get_enum(r, sm, "encoding", SDKC_IRJ_ENCODING, where);
        s->item = sdkc_irj_read_ref(r, json_object_get(sm, "item"), true, where, 0);
        s->item_encoded = sdkc_irj_get_bool(r, sm, "item_encoded", where);
        s->failure_event = sdkc_irj_get_str(r, sm, "failure_event", where);
        s->frame = sdkc_irj_read_ref(r, json_object_get(sm, "frame"), false, where, 0);
        s->cause = sdkc_irj_read_ref(r, json_object_get(sm, "cause"), false, where, 0);
        s->error = sdkc_irj_read_ref(r, json_object_get(sm, "error"), false, where, 0);
    } else if (s) {
        sdkc_irj_error(r, "%s: \"%s\" must be an object", where, name);
    }
    return s;
}

void sdkc_irj_read_operation(reader *r, sdkc_operation *op, const json_t *o)
{
    char where[600];
    const json_t *idv = json_object_get(o, "id");
    snprintf(where, sizeof where, "operation %s",
             json_is_string(idv) ? json_string_value(idv) : "(no id)");
    op->id = sdkc_irj_need_str(r, o, "id", where);
    op->prefix = sdkc_irj_get_str(r, o, "prefix", where);
    op->group = sdkc_irj_get_str(r, o, "group", where);
    op->name = sdkc_irj_get_str(r, o, "name", where);
    op->safe_name = sdkc_irj_get_str(r, o, "safe_name", where);
    op->kept_prefix = sdkc_irj_get_str(r, o, "kept_prefix", where);
    const char *gs = sdkc_irj_get_str(r, o, "group_source", where);
    if (gs && !sdkc_group_source_parse(gs, &op->group_source))
        sdkc_irj_error(r, "%s: unknown group_source \"%s\"", where, gs);
    op->tags = sdkc_irj_get_strs(r, o, "tags", &op->ntags, where);
    op->method = sdkc_irj_need_str(r, o, "method", where);
    op->path = sdkc_irj_need_str(r, o, "path", where);
    op->fragment = sdkc_irj_get_str(r, o, "fragment", where);
    op->summary = sdkc_irj_get_str(r, o, "summary", where);
    op->description = sdkc_irj_get_str(r, o, "description", where);
    op->deprecated = sdkc_irj_get_bool(r, o, "deprecated", where);
    const json_t *params = sdkc_irj_get_array(r, o, "params", true, where);
    if (params)
        read_params(r, op, params, where);

    op->body = read_body(r, json_object_get(o, "body"), where);

    const json_t *succ = json_object_get(o, "success");
    if (!json_is_object(succ))
        sdkc_irj_error(r, "%s: missing \"success\"", where);
    else
        read_success(r, &op->success, succ, where);
    const json_t *more = sdkc_irj_get_array(r, o, "more_successes", false, where);
    size_t nmore = json_array_size(more);
    sdkc_success *mv = nmore ? sdkc_irj_alloc(r, nmore * sizeof *mv) : NULL;
    for (size_t i = 0; mv && i < nmore; i++) {
        const json_t *e = json_array_get(more, i);
        if (!json_is_object(e))
            sdkc_irj_error(r, "%s: more_successes[%zu] must be an object", where, i);
        else
            read_success(r, &mv[i], e, where);
    }
    op->more_successes = mv;
    op->nmore_successes = mv ? nmore : 0;

    const json_t *errors = sdkc_irj_get_array(r, o, "errors", true, where);
    if (errors)
        read_errors(r, op, errors, where);

    const json_t *pg = json_object_get(o, "pagination");
    if (pg) {
        sdkc_pagination *p = sdkc_irj_alloc(r, sizeof *p);
        if (p && json_is_object(pg)) {
            p->item = sdkc_irj_read_ref(r, json_object_get(pg, "item"), true, where, 0);
            p->page = sdkc_irj_read_ref(r, json_object_get(pg, "page"), true, where, 0);
            p->items_field = sdkc_irj_get_str(r, pg, "items_field", where);
            p->cursor_field = sdkc_irj_get_str(r, pg, "cursor_field", where);
            p->next_field = sdkc_irj_get_str(r, pg, "next_field", where);
            p->previous_field = sdkc_irj_get_str(r, pg, "previous_field", where);
            p->has_more_field = sdkc_irj_get_str(r, pg, "has_more_field", where);
            p->item_id_field = sdkc_irj_get_str(r, pg, "item_id_field", where);
            p->reason = sdkc_irj_get_str(r, pg, "reason", where);
            const char *style = sdkc_irj_get_str(r, pg, "style", where);
            const char *source = sdkc_irj_get_str(r, pg, "source", where);
            /* absent in IR written before styles: OpenCode's cursor object, found by heuristic */
            if (style && !sdkc_page_style_parse(style, &p->style))
                sdkc_irj_error(r, "%s: unknown pagination style \"%s\"", where, style);
            if (source && !sdkc_page_source_parse(source, &p->source))
                sdkc_irj_error(r, "%s: unknown pagination source \"%s\"", where, source);
            p->cursor_param = page_param(r, op, json_object_get(pg, "cursor_param"), where);
            p->size_param = page_param(r, op, json_object_get(pg, "size_param"), where);
        } else if (p) {
            sdkc_irj_error(r, "%s: \"pagination\" must be an object", where);
        }
        op->pagination = p;
    }

    op->stream = read_stream(r, json_object_get(o, "stream"), "stream", where);
    const json_t *fj = json_object_get(json_object_get(o, "stream"), "follow");
    if (op->stream && fj)
        ((sdkc_stream *)op->stream)->follow = read_follow(r, fj, op, where);
    op->stream_variant =
        read_stream(r, json_object_get(o, "stream_variant"), "stream_variant", where);
    op->stream_flag = op->stream_variant ? sdkc_irj_get_str(r, o, "stream_flag", where) : NULL;

    op->security_optional = sdkc_irj_get_bool(r, o, "security_optional", where);
    const json_t *sec = sdkc_irj_get_array(r, o, "security", true, where);
    size_t ns = 0;
    for (size_t i = 0; i < json_array_size(sec); i++) {
        const json_t *e = json_array_get(sec, i);
        ns += json_is_array(e) ? json_array_size(e) : 1;
    }
    const sdkc_security_scheme **ss = sdkc_irj_alloc(r, (ns ? ns : 1) * sizeof *ss);
    bool *with_prev = sdkc_irj_alloc(r, (ns ? ns : 1) * sizeof *with_prev);
    bool several = false, bad = false;
    size_t n = 0;
    for (size_t i = 0; ss && with_prev && !bad && i < json_array_size(sec); i++) {
        const json_t *e = json_array_get(sec, i);
        size_t m = json_is_array(e) ? json_array_size(e) : 1;
        if (json_is_array(e) && m < 2) {
            sdkc_irj_error(r, "%s: security[%zu]: a requirement list names two schemes or more",
                           where, i);
            break;
        }
        several = several || m > 1;
        for (size_t k = 0; k < m && !bad; k++) {
            const json_t *name = json_is_array(e) ? json_array_get(e, k) : e;
            ss[n] = NULL;
            with_prev[n] = k > 0;
            for (size_t j = 0; json_is_string(name) && j < r->ir->nschemes && !ss[n]; j++)
                if (r->ir->schemes[j].name &&
                    strcmp(r->ir->schemes[j].name, json_string_value(name)) == 0)
                    ss[n] = &r->ir->schemes[j];
            if (!ss[n]) {
                sdkc_irj_error(r, "%s: security[%zu] names no security scheme", where, i);
                bad = true;
            }
            n++;
        }
    }
    op->security = (const sdkc_security_scheme *const *)ss;
    op->security_with_previous = several ? with_prev : NULL;
    op->nsecurity = ss && with_prev ? n : 0;
    op->loc = sdkc_irj_get_loc(r, o, where);
}
