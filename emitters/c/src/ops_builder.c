/* src/ops.c: the request of every operation. A table-built one is a static table (req_desc) read
 * by the one build_request (also here); the others keep a builder function of their own. */
#include "emit_internal.h"
#include "ops_c.h"

#include <string.h>

/* Can op's request be built from a table by build_request (ops.c)? Not a binary body, multipart
 * file parts or a body under alternative media types: those keep a builder of their own. */
bool emit_builder_table_ok(const cop *o)
{
    return !o->blob_body && !o->nfiles && !(o->body && o->op->body->nalternatives);
}

static const char *const in_c[] = {"SDKRT_IN_PATH", "SDKRT_IN_QUERY", "SDKRT_IN_HEADER",
                                   "SDKRT_IN_COOKIE"};
static const char *const style_c[] = {"SDKRT_STYLE_SIMPLE",        "SDKRT_STYLE_FORM",
                                      "SDKRT_STYLE_DEEP_OBJECT",   "SDKRT_STYLE_LABEL",
                                      "SDKRT_STYLE_MATRIX",        "SDKRT_STYLE_SPACE_DELIMITED",
                                      "SDKRT_STYLE_PIPE_DELIMITED"};

/* The one request builder of every table-built operation (once in ops.c). */
void emit_build_request(sdkc_buf *b)
{
    sdkc_buf_puts(
        b,
        "/* A request parameter: how it is sent, its value's descriptor, where the request holds "
        "it and\n * its has_ flag (SDKRT_JNONE: required). */\n"
        "typedef struct req_param {\n    sdkrt_param_spec spec;\n    const sdkrt_jtype *type;\n"
        "    size_t at, has;\n} req_param;\n\n"
        "/* How an operation's request is built: one per operation, read by build_request. */\n"
        "typedef struct req_desc {\n    const char *id, *method, *path;\n"
        "    const void *defaults; /* every parameter absent, for a NULL request; NULL: one is "
        "required */\n"
        "    const req_param *params;\n    size_t nparams;\n"
        "    const sdkrt_jtype *body; /* or NULL */\n    const char *media;\n"
        "    size_t body_at, body_has;\n    const sdkrt_body_encoding *enc;\n    size_t nenc;\n"
        "    const char *accept; /* or NULL */\n"
        "    bool secure;        /* set the security table (none for security: []) */\n"
        "    const sdkrt_security_scheme *security;\n    size_t nsecurity;\n"
        "    const char *idempotency; /* the declared idempotency header, or NULL */\n"
        "} req_desc;\n\n"
        "static bool req_has(const char *request, size_t has)\n{\n"
        "    return has == SDKRT_JNONE || *(const bool *)(request + has);\n}\n\n"
        "static sdkrt_status build_request(sdkrt_request **out, const req_desc *d, const void "
        "*request, sdkrt_error **err)\n{\n"
        "    sdkrt_request *req = NULL;\n    *out = NULL;\n    if (!request)\n"
        "        request = d->defaults;\n    if (!request)\n"
        "        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT, \"%s: request is "
        "NULL\", d->id);\n"
        "    const char *r = request;\n"
        "    if (sdkrt_request_new(&req, d->method, d->path) != SDKRT_OK)\n"
        "        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, \"out of memory\");\n"
        "    for (size_t i = 0; i < d->nparams; i++) {\n"
        "        const req_param *p = &d->params[i];\n"
        "        if (req_has(r, p->has) && sdkrt_request_add_typed_param(req, &p->spec, p->type, r "
        "+ p->at, err) != SDKRT_OK)\n"
        "            goto fail;\n    }\n"
        "    if (d->body && req_has(r, d->body_has) &&\n"
        "        sdkrt_request_set_typed_body(req, d->media, d->body, r + d->body_at, d->enc, "
        "d->nenc, err) != SDKRT_OK)\n"
        "        goto fail;\n"
        "    if ((d->accept && sdkrt_request_set_header(req, \"Accept\", d->accept) != SDKRT_OK) "
        "||\n"
        "        (d->secure && sdkrt_request_set_security(req, d->security, d->nsecurity) != "
        "SDKRT_OK) ||\n"
        "        (d->idempotency && sdkrt_request_set_idempotency_header(req, d->idempotency) != "
        "SDKRT_OK)) {\n"
        "        sdkrt_request_free(req);\n"
        "        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, \"out of memory\");\n"
        "    }\n    *out = req;\n    return SDKRT_OK;\nfail:\n    sdkrt_request_free(req);\n"
        "    return SDKRT_ERR;\n}\n\n");
}

/* The body field a stream variant's form sets to true itself (op->stream_flag), when the request
 * holds the body as a struct by value with that boolean field; NULL otherwise. */
static const cfield *stream_flag_field(const cop *o)
{
    const sdkc_operation *op = o->op;
    if (!o->variant || !op->stream_flag || !o->body || o->blob_body || !o->body->is_struct)
        return NULL;
    const char *d = o->body->cdecl;
    if (!d || d[strlen(d) - 1] == '*')
        return NULL;
    const cfield *f = emit_find_field(o->body, op->stream_flag);
    return f && !f->boxed && f->type->stores && !strcmp(f->type->cdecl, "bool") ? f : NULL;
}

/* flagged (a copy of the caller's request): the stream flag set, and the body sent. */
static void put_flag_sets(const cop *o, const cfield *flag, sdkc_buf *b, const char *ind)
{
    if (!o->op->body->required)
        sdkc_buf_printf(b, "%sflagged.has_body = true;\n", ind);
    if (!flag->f->required)
        sdkc_buf_printf(b, "%sflagged.body.has_%s = true;\n", ind, flag->cname);
    if (flag->nullable)
        sdkc_buf_printf(b, "%sflagged.body.%s_null = false;\n", ind, flag->cname);
    sdkc_buf_printf(b, "%sflagged.body.%s = true;\n%srequest = &flagged;\n", ind, flag->cname, ind);
}

/* The rows of a body's encoding table and its closing brace, indented by ind. */
static void put_body_encodings(sdkc_buf *b, const sdkc_body *bd, const char *ind)
{
    for (size_t k = 0; k < bd->nencodings; k++) {
        const sdkc_body_encoding *e = &bd->encodings[k];
        sdkc_buf_printf(b, "%s    {", ind);
        sdkc_kit_put_c_string(b, e->property);
        sdkc_buf_puts(b, ", ");
        if (e->content_type)
            sdkc_kit_put_c_string(b, e->content_type);
        else
            sdkc_buf_puts(b, "NULL");
        sdkc_buf_printf(b, ", %s, %s, %s, %s},\n", style_c[e->style], e->explode ? "true" : "false",
                        e->allow_reserved ? "true" : "false", e->has_style ? "true" : "false");
    }
    sdkc_buf_printf(b, "%s};\n", ind);
}
/* An operation's request as a table for build_request, and build_<op> as a macro over it. */
void emit_builder_table(emit_ctx *cx, sdkc_buf *b, const cop *o)
{
    const sdkc_operation *op = o->op;
    const char *P = cx->prefix, *N = o->name;
    const char *rq = sdkc_arena_printf(cx->arena, "%s_%s_request", P, N);
    const char *sec = sdkc_arena_printf(cx->arena, "security_%s", N);
    const char *accept = NULL;
    size_t nsec = 0, np = 0;
    bool secure = false;
    if (!rq || !sec || !emit_request_table_extras(cx, b, op, sec, &accept, &nsec, &secure)) {
        b->oom = true;
        return;
    }
    if (o->has_request && emit_request_optional(op))
        sdkc_buf_printf(b, "static const %s defaults_%s; /* every parameter absent */\n", rq, N);
    for (size_t i = 0; i < op->nparams; i++) {
        const sdkc_param *p = &op->params[i];
        const ctype *t = o->params[i];
        if (!t->stores && !t->literal)
            continue; /* null or never: nothing goes on the wire */
        if (np++ == 0)
            sdkc_buf_printf(b, "static const req_param params_%s[] = {\n", N);
        sdkc_buf_puts(b, "    {{");
        sdkc_kit_put_c_string(b, p->wire_name);
        sdkc_buf_printf(b, ", %s, %s, %s, %s}, &%s, offsetof(%s, %s), ", in_c[p->in],
                        style_c[p->style], p->explode ? "true" : "false",
                        p->allow_reserved ? "true" : "false", emit_desc_name(cx, t), rq,
                        o->pnames[i]);
        if (p->required)
            sdkc_buf_puts(b, "SDKRT_JNONE},\n");
        else
            sdkc_buf_printf(b, "offsetof(%s, has_%s)},\n", rq, o->pnames[i]);
    }
    if (np)
        sdkc_buf_puts(b, "};\n");
    const sdkc_body *bd = o->body ? op->body : NULL;
    if (bd && bd->nencodings) {
        sdkc_buf_printf(b, "static const sdkrt_body_encoding body_enc_%s[] = {\n", N);
        put_body_encodings(b, bd, "");
    }
    sdkc_buf_printf(b, "static const req_desc req_%s = {", N);
    sdkc_kit_put_c_string(b, op->id);
    sdkc_buf_puts(b, ", ");
    sdkc_kit_put_c_string(b, op->method);
    sdkc_buf_puts(b, ", ");
    sdkc_kit_put_c_string(b, op->path);
    if (!o->has_request || emit_request_optional(op))
        sdkc_buf_printf(b, ", %s%s", o->has_request ? "&defaults_" : "\"\"",
                        o->has_request ? N : "");
    else
        sdkc_buf_puts(b, ", NULL");
    if (np)
        sdkc_buf_printf(b, ", params_%s, %zu", N, np);
    else
        sdkc_buf_puts(b, ", NULL, 0");
    if (bd) {
        sdkc_buf_printf(b, ", &%s, ", emit_desc_name(cx, o->body));
        sdkc_kit_put_c_string(b, bd->content_type);
        sdkc_buf_printf(b, ", offsetof(%s, body), ", rq);
        if (bd->required)
            sdkc_buf_puts(b, "SDKRT_JNONE");
        else
            sdkc_buf_printf(b, "offsetof(%s, has_body)", rq);
        if (bd->nencodings)
            sdkc_buf_printf(b, ", body_enc_%s, %zu", N, bd->nencodings);
        else
            sdkc_buf_puts(b, ", NULL, 0");
    } else {
        sdkc_buf_puts(b, ", NULL, NULL, 0, 0, NULL, 0");
    }
    sdkc_buf_puts(b, ", ");
    if (accept)
        sdkc_kit_put_c_string(b, accept);
    else
        sdkc_buf_puts(b, "NULL");
    sdkc_buf_printf(b, ", %s, ", secure ? "true" : "false");
    if (nsec)
        sdkc_buf_printf(b, "%s, %zu, ", sec, nsec);
    else
        sdkc_buf_puts(b, "NULL, 0, ");
    const sdkc_param *idem = sdkc_operation_idempotency_param(op);
    if (idem)
        sdkc_kit_put_c_string(b, idem->wire_name);
    else
        sdkc_buf_puts(b, "NULL");
    sdkc_buf_puts(b, "};\n");
    const cfield *flag = stream_flag_field(o);
    if (flag) {
        /* the stream form selects itself: the caller's request with the flag set */
        sdkc_buf_printf(b,
                        "/* The stream form sends `%s: true` itself: it selects the stream. */\n"
                        "static sdkrt_status build_%s(sdkrt_request **out, const %s_%s_request "
                        "*request, sdkrt_error **err)\n{\n    %s_%s_request flagged;\n",
                        op->stream_flag, N, cx->prefix, N, cx->prefix, N);
        if (emit_request_optional(op)) {
            sdkc_buf_puts(b, "    if (request)\n        flagged = *request;\n    else\n"
                             "        memset(&flagged, 0, sizeof flagged);\n");
            put_flag_sets(o, flag, b, "    ");
        } else {
            sdkc_buf_puts(b, "    if (request) {\n        flagged = *request;\n");
            put_flag_sets(o, flag, b, "        ");
            sdkc_buf_puts(b, "    }\n");
        }
        sdkc_buf_printf(b, "    return build_request(out, &req_%s, request, err);\n}\n\n", N);
    } else if (o->has_request)
        sdkc_buf_printf(b,
                        "#define build_%s(out, request, err) build_request(out, &req_%s, request, "
                        "err)\n\n",
                        N, N);
    else
        sdkc_buf_printf(b, "#define build_%s(out, err) build_request(out, &req_%s, NULL, err)\n\n",
                        N, N);
}

/* The static request builder of an operation. */
void emit_builder(emit_ctx *cx, sdkc_buf *b, const cop *o)
{
    const sdkc_operation *op = o->op;
    const char *P = cx->prefix, *N = o->name;
    sdkc_buf_printf(b, "static %s_status build_%s(sdkrt_request **out, ", P, N);
    if (o->has_request)
        sdkc_buf_printf(b, "const %s_%s_request *request, ", P, N);
    sdkc_buf_printf(b, "%s_error **err)\n{\n    sdkrt_request *req = NULL;\n    *out = NULL;\n", P);
    if (o->has_request && emit_request_optional(op))
        sdkc_buf_printf(b,
                        "    static const %s_%s_request defaults; /* every parameter absent */\n"
                        "    if (!request)\n        request = &defaults;\n",
                        P, N);
    else if (o->has_request)
        sdkc_buf_printf(b,
                        "    if (!request)\n        return sdkrt_error_set(err, "
                        "SDKRT_REASON_INVALID_ARGUMENT, \"%s: request is NULL\");\n",
                        op->id);
    const cfield *flag = stream_flag_field(o);
    if (flag) {
        /* the stream form selects itself: the caller's request with the flag set */
        sdkc_buf_printf(b, "    %s_%s_request flagged = *request;\n", P, N);
        put_flag_sets(o, flag, b, "    ");
    }
    sdkc_buf_puts(b, "    if (sdkrt_request_new(&req, ");
    sdkc_kit_put_c_string(b, op->method);
    sdkc_buf_puts(b, ", ");
    sdkc_kit_put_c_string(b, op->path);
    sdkc_buf_puts(b, ") != SDKRT_OK)\n        return sdkrt_error_set(err, "
                     "SDKRT_REASON_OUT_OF_MEMORY, \"out of memory\");\n");
    for (size_t i = 0; i < op->nparams; i++) {
        const sdkc_param *p = &op->params[i];
        const ctype *t = o->params[i];
        if (!t->stores && !t->literal)
            continue; /* null or never: nothing goes on the wire */
        const char *cond =
            p->required ? "" : sdkc_arena_printf(cx->arena, "request->has_%s && ", o->pnames[i]);
        sdkc_buf_printf(b, "    static const sdkrt_param_spec spec_%s = {", o->pnames[i]);
        sdkc_kit_put_c_string(b, p->wire_name);
        sdkc_buf_printf(b, ", %s, %s, %s, %s};\n", in_c[p->in], style_c[p->style],
                        p->explode ? "true" : "false", p->allow_reserved ? "true" : "false");
        sdkc_buf_printf(b,
                        "    if (%ssdkrt_request_add_typed_param(req, &spec_%s, &%s, "
                        "&request->%s, err) != SDKRT_OK)\n        goto fail;\n",
                        cond, o->pnames[i], emit_desc_name(cx, t), o->pnames[i]);
    }
    if (o->body) {
        const sdkc_body *bd = op->body;
        if (bd->nencodings) {
            sdkc_buf_puts(b, "    static const sdkrt_body_encoding body_enc[] = {\n");
            put_body_encodings(b, bd, "    ");
        }
        if (bd->nalternatives) {
            /* the caller's choice among the declared types; the encodings are the default's */
            sdkc_buf_puts(b, "    static const char *const media_types[] = {");
            for (size_t k = 0; k < bd->nalternatives; k++) {
                sdkc_buf_puts(b, k ? ", " : "");
                sdkc_kit_put_c_string(b, bd->alternatives[k]);
            }
            sdkc_buf_puts(b, "};\n    const char *media = ");
            sdkc_kit_put_c_string(b, bd->content_type);
            sdkc_buf_printf(
                b,
                ";\n    bool alternative = false;\n"
                "    if (request->body_media_type && strcmp(request->body_media_type, media) != 0) "
                "{\n"
                "        for (size_t i = 0; i < %zu && !alternative; i++) {\n"
                "            if (strcmp(request->body_media_type, media_types[i]) == 0) {\n"
                "                media = media_types[i];\n                alternative = true;\n"
                "            }\n        }\n"
                "        if (!alternative) {\n            sdkrt_request_free(req);\n"
                "            return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,\n"
                "                                   \"%s: body media type '%%s' is not one the "
                "operation accepts\",\n                                   "
                "request->body_media_type);\n        }\n    }\n",
                bd->nalternatives, op->id);
        }
        const char *cond = bd->required ? "" : "request->has_body && ";
        const char *media = bd->nalternatives ? "media" : NULL;
        const char *enc = "NULL, 0";
        if (bd->nencodings && bd->nalternatives)
            enc = sdkc_arena_printf(
                cx->arena, "alternative ? NULL : body_enc, alternative ? 0 : %zu", bd->nencodings);
        else if (bd->nencodings)
            enc = sdkc_arena_printf(cx->arena, "body_enc, %zu", bd->nencodings);
        if (o->blob_body) {
            sdkc_buf_printf(b, "    if (%ssdkrt_request_set_blob_body(req, ", cond);
            if (media)
                sdkc_buf_puts(b, media);
            else
                sdkc_kit_put_c_string(b, bd->content_type);
            sdkc_buf_puts(b, ", &request->body, err) != SDKRT_OK)\n        goto fail;\n");
        } else if (o->nfiles) {
            /* A file part set from a blob stands in for the body's string of that name. */
            sdkc_buf_printf(b, "    %s{\n        %s body = request->body;\n",
                            bd->required ? "" : "if (request->has_body) ",
                            emit_in_decl(cx, o->body));
            sdkc_buf_puts(b, "        static const char *const file_names[] = {");
            for (size_t i = 0; i < o->nfiles; i++) {
                sdkc_buf_puts(b, i ? ", " : "");
                sdkc_kit_put_c_string(b, o->files[i]->f->wire_name);
            }
            sdkc_buf_puts(b, "};\n        const sdkrt_blob *const files[] = {");
            for (size_t i = 0; i < o->nfiles; i++)
                sdkc_buf_printf(b, "%s&request->body_files.%s", i ? ", " : "", o->files[i]->cname);
            sdkc_buf_puts(b, "};\n");
            for (size_t i = 0; i < o->nfiles; i++) {
                const cfield *f = o->files[i];
                sdkc_buf_printf(b, "        if (sdkrt_blob_is_set(files[%zu])) {\n", i);
                if (!f->f->required)
                    sdkc_buf_printf(b, "            body.has_%s = true;\n", f->cname);
                if (f->nullable)
                    sdkc_buf_printf(b, "            body.%s_null = false;\n", f->cname);
                sdkc_buf_printf(b, "            body.%s = \"\";\n        }\n", f->cname);
            }
            sdkc_buf_printf(b,
                            "        json_t *json = NULL;\n"
                            "        if (sdkrt_json_encode(&%s, &body, &json, err) != SDKRT_OK)\n"
                            "            goto fail;\n"
                            "        sdkrt_status body_st = sdkrt_request_set_body_as(req, ",
                            emit_desc_name(cx, o->body));
            if (media)
                sdkc_buf_puts(b, media);
            else
                sdkc_kit_put_c_string(b, bd->content_type);
            sdkc_buf_printf(b,
                            ", json, %s, file_names, files, %zu, err);\n"
                            "        json_decref(json);\n        if (body_st != SDKRT_OK)\n"
                            "            goto fail;\n    }\n",
                            enc, o->nfiles);
        } else {
            sdkc_buf_printf(b, "    if (%ssdkrt_request_set_typed_body(req, ", cond);
            if (media)
                sdkc_buf_puts(b, media);
            else
                sdkc_kit_put_c_string(b, bd->content_type);
            sdkc_buf_printf(b, ", &%s, &request->body, %s, err) != SDKRT_OK)\n        goto fail;\n",
                            emit_desc_name(cx, o->body), enc);
        }
    }
    emit_accept_and_security(cx, b, op);
    sdkc_buf_puts(b, "    *out = req;\n    return SDKRT_OK;\n");
    bool any_fail = o->body != NULL;
    for (size_t i = 0; i < op->nparams; i++)
        any_fail = any_fail || o->params[i]->stores || o->params[i]->literal;
    if (any_fail)
        sdkc_buf_puts(b, "fail:\n    sdkrt_request_free(req);\n    return SDKRT_ERR;\n");
    sdkc_buf_puts(b, "}\n\n");
}
