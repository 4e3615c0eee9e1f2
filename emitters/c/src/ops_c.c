/* src/ops.c: the client's functions, error payload accessors, and per operation its sdkrt_jop
 * descriptor, its request builder and its call (unary or stream; pages in ops_paged.c). Each
 * operation builds an sdkrt_request and hands it with the descriptor to the runtime. */
#include "emit_internal.h"
#include "ops_c.h"
#include "sdkc/naming.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *enc_name(sdkc_encoding e)
{
    switch (e) {
    case SDKC_ENC_NONE:
        return "SDKRT_JENC_NONE";
    case SDKC_ENC_JSON:
        return "SDKRT_JENC_JSON";
    case SDKC_ENC_SSE:
        return "SDKRT_JENC_SSE";
    case SDKC_ENC_BYTES:
        return "SDKRT_JENC_BYTES";
    case SDKC_ENC_TEXT:
        return "SDKRT_JENC_TEXT";
    }
    return "SDKRT_JENC_NONE";
}

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
static void emit_build_request(sdkc_buf *b)
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
static void emit_builder_table(emit_ctx *cx, sdkc_buf *b, const cop *o)
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
    if (o->has_request)
        sdkc_buf_printf(b,
                        "#define build_%s(out, request, err) build_request(out, &req_%s, request, "
                        "err)\n\n",
                        N, N);
    else
        sdkc_buf_printf(b, "#define build_%s(out, err) build_request(out, &req_%s, NULL, err)\n\n",
                        N, N);
}

/* The static request builder of an operation. */
static void emit_builder(emit_ctx *cx, sdkc_buf *b, const cop *o)
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

static void emit_op_desc(emit_ctx *cx, sdkc_buf *b, const cop *o)
{
    const sdkc_operation *op = o->op;
    const char *N = o->name;
    size_t nerr = emit_error_entries(op);
    if (nerr) {
        /* status: exact, a range (4 = 4XX) or 0 (default); tag NULL: a body without `_tag` */
        sdkc_buf_printf(b, "static const sdkrt_jerror errors_%s[] = {\n", N);
        for (size_t j = 0; j < nerr; j++) {
            int status = 0;
            const char *tag = NULL;
            const sdkc_type *ty = NULL;
            emit_error_entry(op, j, &status, &tag, &ty);
            sdkc_buf_printf(b, "    {%d, ", status);
            if (tag)
                sdkc_kit_put_c_string(b, tag);
            else
                sdkc_buf_puts(b, "NULL");
            sdkc_buf_printf(b, ", &%s},\n", emit_desc_name(cx, o->errs[j]));
        }
        sdkc_buf_puts(b, "};\n");
    }
    if (o->several) {
        /* the other declared successes, each read as its own type */
        sdkc_buf_printf(b, "static const sdkrt_jsuccess more_%s[] = {\n", N);
        for (size_t k = 0; k < op->nmore_successes; k++) {
            const sdkc_success *m = &op->more_successes[k];
            sdkc_buf_printf(b, "    {%d, %s, ", m->status, enc_name(m->encoding));
            if (o->more[k])
                sdkc_buf_printf(b, "&%s, ", emit_desc_name(cx, o->more[k]));
            else
                sdkc_buf_puts(b, "NULL, ");
            if (m->unwrap && o->more[k])
                sdkc_kit_put_c_string(b, m->unwrap);
            else
                sdkc_buf_puts(b, "NULL");
            sdkc_buf_puts(b, "},\n");
        }
        sdkc_buf_puts(b, "};\n");
    }
    sdkc_buf_printf(b, "static const sdkrt_jop op_%s = {", N);
    sdkc_kit_put_c_string(b, op->id);
    sdkc_buf_printf(b, ", %d, %s, ", op->success.status, enc_name(op->success.encoding));
    if (o->result)
        sdkc_buf_printf(b, "&%s, ", emit_desc_name(cx, o->result));
    else
        sdkc_buf_puts(b, "NULL, ");
    if (op->success.unwrap && o->result) {
        sdkc_kit_put_c_string(b, op->success.unwrap);
        sdkc_buf_puts(b, ", ");
    } else {
        sdkc_buf_puts(b, "NULL, ");
    }
    if (nerr)
        sdkc_buf_printf(b, "errors_%s, %zu, ", N, nerr);
    else
        sdkc_buf_puts(b, "NULL, 0, ");
    if (op->stream && o->item) {
        sdkc_buf_printf(b, "&%s, %s, ", emit_desc_name(cx, o->item),
                        op->stream->item_encoded ? "true" : "false");
        if (op->stream->failure_event)
            sdkc_kit_put_c_string(b, op->stream->failure_event);
        else
            sdkc_buf_puts(b, "NULL");
        if (o->cause)
            sdkc_buf_printf(b, ", &%s", emit_desc_name(cx, o->cause));
        else
            sdkc_buf_puts(b, ", NULL");
    } else {
        sdkc_buf_puts(b, "NULL, false, NULL, NULL");
    }
    if (o->several)
        sdkc_buf_printf(b, ", more_%s, %zu};\n\n", N, op->nmore_successes);
    else
        sdkc_buf_puts(b, ", NULL, 0};\n\n");
}

/* PREFIX_<op>_next_event: the tolerant read over sdkrt_jstream_next_poison. An operation with a
 * follower also reports each item's sequence (from the typed item, or a poison item's raw JSON). */
static void emit_next_event(emit_ctx *cx, sdkc_buf *b, const cop *o)
{
    const char *P = cx->prefix, *N = o->name, *U = cx->upper;
    const char *H = emit_stream_handle(cx, o);
    bool seq = emit_follow_ok(o);
    sdkc_buf_printf(b,
                    "%s_next %s_%s_next_event(%s *stream, %s_event *event, %s_error **err)\n{\n"
                    "    const void *v = NULL;\n    sdkrt_jstream_poison p;\n"
                    "    if (event)\n        memset(event, 0, sizeof *event);\n"
                    "    if (!stream || !event) {\n        sdkrt_error_set(err, "
                    "SDKRT_REASON_INVALID_ARGUMENT, \"%s: stream and event are required\");\n"
                    "        return %s_NEXT_ERROR;\n    }\n"
                    "    sdkrt_stream_result r = sdkrt_jstream_next_poison(stream->s, &v, &p, "
                    "err);\n"
                    "    if (r == SDKRT_STREAM_EVENT) {\n        event->kind = %s_STREAM_ITEM;\n"
                    "        event->item = v;\n",
                    P, P, N, H, H, P, o->op->id, U, U);
    if (seq)
        sdkc_buf_printf(b,
                        "        event->has_seq = sdkrt_json_int_at(op_%s.item, v, follow_seq_%s, "
                        "%zu, &event->seq);\n",
                        N, N, o->op->stream->follow->depth);
    sdkc_buf_printf(b,
                    "        return %s_NEXT_ITEM;\n    }\n"
                    "    if (r == SDKRT_STREAM_POISON) {\n        event->kind = %s_STREAM_POISON;\n"
                    "        event->data = p.data;\n        event->data_len = p.data_len;\n"
                    "        event->raw = p.json;\n        event->error = p.error;\n",
                    U, U);
    if (seq)
        sdkc_buf_printf(b,
                        "        event->has_seq = sdkrt_json_raw_int_at(p.json, follow_seq_%s, "
                        "%zu, &event->seq);\n",
                        N, o->op->stream->follow->depth);
    sdkc_buf_printf(b,
                    "        return %s_NEXT_ITEM;\n    }\n"
                    "    return r == SDKRT_STREAM_END ? %s_NEXT_END : %s_NEXT_ERROR;\n}\n\n",
                    U, U, U);
}

static void emit_stream(emit_ctx *cx, sdkc_buf *b, const cop *o)
{
    const char *P = cx->prefix, *N = o->name, *U = cx->upper;
    const char *H = emit_stream_handle(cx, o);
    sdkc_buf_printf(b, "struct %s {\n    sdkrt_jstream *s;\n};\n\n", H);
    sdkc_buf_printf(b, "%s_status %s_%s_open(%s **out, %s_client *client, ", P, P, N, H, P);
    if (o->has_request)
        sdkc_buf_printf(b, "const %s_%s_request *request, ", P, N);
    sdkc_buf_printf(b,
                    "const %s_call_options *call,\n    %s_error **err)\n{\n"
                    "    sdkrt_request *req = NULL;\n    %s *s = NULL;\n"
                    "    if (!out || !client)\n        return sdkrt_error_set(err, "
                    "SDKRT_REASON_INVALID_ARGUMENT, \"%s: client and out are required\");\n"
                    "    *out = NULL;\n",
                    P, P, H, o->op->id);
    sdkc_buf_printf(b, "    if (build_%s(&req%s, err) != SDKRT_OK)\n        return SDKRT_ERR;\n", N,
                    o->has_request ? ", request" : "");
    sdkc_buf_printf(
        b,
        "    s = calloc(1, sizeof *s);\n    if (!s) {\n        sdkrt_request_free(req);\n"
        "        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, \"out of "
        "memory\");\n    }\n"
        "    %s_status st = sdkrt_jstream_open(&s->s, client, req, call, &op_%s, err);\n"
        "    sdkrt_request_free(req);\n"
        "    if (st != SDKRT_OK) {\n        free(s);\n        return SDKRT_ERR;\n    }\n"
        "    *out = s;\n    return SDKRT_OK;\n}\n\n",
        P, N);
    sdkc_buf_printf(b,
                    "%s_next %s_%s_next(%s *stream, %s*item, %s_error **err)\n{\n"
                    "    const void *v = NULL;\n    if (item)\n        *item = NULL;\n"
                    "    if (!stream || !item) {\n        sdkrt_error_set(err, "
                    "SDKRT_REASON_INVALID_ARGUMENT, \"%s: stream and item are required\");\n"
                    "        return %s_NEXT_ERROR;\n    }\n"
                    "    sdkrt_stream_result r = sdkrt_jstream_next(stream->s, &v, err);\n"
                    "    if (r == SDKRT_STREAM_EVENT) {\n        *item = v;\n        return "
                    "%s_NEXT_ITEM;\n    }\n"
                    "    return r == SDKRT_STREAM_END ? %s_NEXT_END : %s_NEXT_ERROR;\n}\n\n",
                    P, P, N, H, emit_const_ptr(cx, o->item->cdecl), P, o->op->id, U, U, U, U);
    emit_next_event(cx, b, o);
    sdkc_buf_printf(b,
                    "void %s_%s_close(%s *stream)\n{\n    if (!stream)\n        return;\n"
                    "    sdkrt_jstream_close(stream->s);\n    free(stream);\n}\n\n",
                    P, N, H);
    if (o->cause)
        sdkc_buf_printf(b,
                        "%s%s_%s_failure(const %s_error *err)\n{\n"
                        "    const char *tag = err ? sdkrt_error_tag(err) : NULL;\n"
                        "    if (!tag || strcmp(tag, SDKRT_JSTREAM_FAILURE_TAG) != 0)\n"
                        "        return NULL;\n    return sdkrt_error_payload(err);\n}\n\n",
                        emit_const_ptr(cx, o->cause->cdecl), P, N, P);
}

/* A call with several declared successes whose C results differ: *out is a PREFIX_<op>_response
 * with the member of the status that came back. */
static void emit_unary_response(emit_ctx *cx, sdkc_buf *b, const cop *o)
{
    const sdkc_operation *op = o->op;
    const char *P = cx->prefix, *N = o->name;
    /* the member of the status, matched as the runtime does: exact statuses, then the range;
       shared by the blocking call and the async one's trampoline */
    sdkc_buf_printf(b,
                    "static void %s_response_set(%s_%s_response *r, void *result, int got)\n{\n"
                    "    r->status = got;\n",
                    N, P, N);
    bool first = true;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t k = 0; k <= op->nmore_successes; k++) {
            const sdkc_success *sc = k ? &op->more_successes[k - 1] : &op->success;
            const char *member = emit_success_member(cx, o, k);
            if ((pass == 0) != (sc->status >= 100) || !member)
                continue;
            if (sc->status >= 100)
                sdkc_buf_printf(b, "    %sif (got == %d)\n", first ? "" : "else ", sc->status);
            else
                sdkc_buf_printf(b, "    %sif (got / 100 == 2)\n", first ? "" : "else ");
            sdkc_buf_printf(b, "        r->%s = result;\n", member);
            first = false;
        }
    }
    if (first)
        sdkc_buf_puts(b, "    (void)result;\n");
    sdkc_buf_puts(b, "}\n\n");
    sdkc_buf_printf(b, "%s_status %s_%s(%s_client *client, ", P, P, N, P);
    if (o->has_request)
        sdkc_buf_printf(b, "const %s_%s_request *request, ", P, N);
    sdkc_buf_printf(b,
                    "const %s_call_options *call, %s_%s_response **out, int *status, "
                    "%s_error **err)\n{\n    sdkrt_request *req = NULL;\n"
                    "    void *result = NULL;\n    int got = 0;\n    %s_%s_response *r = NULL;\n"
                    "    if (status)\n        *status = 0;\n    if (out)\n        *out = NULL;\n",
                    P, P, N, P, P, N);
    sdkc_buf_printf(b,
                    "    if (!client || !out)\n        return sdkrt_error_set(err, "
                    "SDKRT_REASON_INVALID_ARGUMENT, \"%s: client and out are required\");\n",
                    op->id);
    sdkc_buf_printf(
        b,
        "    r = calloc(1, sizeof *r);\n    if (!r)\n        return sdkrt_error_set(err, "
        "SDKRT_REASON_OUT_OF_MEMORY, \"out of memory\");\n"
        "    if (build_%s(&req%s, err) != SDKRT_OK) {\n        free(r);\n"
        "        return SDKRT_ERR;\n    }\n",
        N, o->has_request ? ", request" : "");
    sdkc_buf_printf(b,
                    "    %s_status st = sdkrt_json_call_status(client, req, call, &op_%s, &result, "
                    "&got, err);\n    sdkrt_request_free(req);\n"
                    "    if (st != SDKRT_OK) {\n        free(r);\n        return st;\n    }\n"
                    "    %s_response_set(r, result, got);\n",
                    P, N, N);
    sdkc_buf_puts(b,
                  "    if (status)\n        *status = got;\n    *out = r;\n    return SDKRT_OK;\n"
                  "}\n\n");
    sdkc_buf_printf(b,
                    "void %s_%s_response_free(%s_%s_response *response)\n{\n"
                    "    if (!response)\n        return;\n",
                    P, N, P, N);
    for (size_t k = 0; k <= op->nmore_successes; k++) {
        const sdkc_success *sc = k ? &op->more_successes[k - 1] : &op->success;
        const char *member = emit_success_member(cx, o, k);
        const ctype *c = k ? o->more[k - 1] : o->result;
        if (!member)
            continue;
        if (sc->encoding == SDKC_ENC_JSON)
            sdkc_buf_printf(b, "    sdkrt_json_value_free(&%s, response->%s);\n",
                            emit_desc_name(cx, c), member);
        else
            sdkc_buf_printf(b, "    sdkrt_bytes_free(response->%s);\n", member);
    }
    sdkc_buf_puts(b, "    free(response);\n}\n\n");
}

static void emit_unary(emit_ctx *cx, sdkc_buf *b, const cop *o)
{
    const sdkc_operation *op = o->op;
    const char *P = cx->prefix, *N = o->name;
    if (o->several && !o->several_shared) {
        emit_unary_response(cx, b, o);
        return;
    }
    const char *outp = emit_out_param(cx, o);
    sdkc_buf_printf(b, "%s_status %s_%s(%s_client *client, ", P, P, N, P);
    if (o->has_request)
        sdkc_buf_printf(b, "const %s_%s_request *request, ", P, N);
    sdkc_buf_printf(b, "const %s_call_options *call, ", P);
    if (outp)
        sdkc_buf_printf(b, "%s, ", outp);
    if (o->several)
        sdkc_buf_puts(b, "int *status, ");
    sdkc_buf_printf(b, "%s_error **err)\n{\n    sdkrt_request *req = NULL;\n", P);
    if (o->several)
        sdkc_buf_puts(b, "    if (status)\n        *status = 0;\n");
    /* A non-struct result (a scalar, a pointer such as char * or json_t *) is copied out of the
       storage the runtime decoded into: out points to that storage type, not to a pointer. */
    bool copy = outp && op->success.encoding == SDKC_ENC_JSON &&
                !(op->pagination && emit_page_ok(o)) && !o->result->is_struct;
    if (outp)
        sdkc_buf_printf(b, "    void *result = NULL;\n    if (out)\n        %s;\n",
                        copy ? "memset(out, 0, sizeof *out)" : "*out = NULL");
    sdkc_buf_printf(b,
                    "    if (!client%s)\n        return sdkrt_error_set(err, "
                    "SDKRT_REASON_INVALID_ARGUMENT, \"%s: client%s required\");\n",
                    outp ? " || !out" : "", op->id, outp ? " and out are" : " is");
    sdkc_buf_printf(b, "    if (build_%s(&req%s, err) != SDKRT_OK)\n        return SDKRT_ERR;\n", N,
                    o->has_request ? ", request" : "");
    if (o->several)
        sdkc_buf_printf(b,
                        "    %s_status st = sdkrt_json_call_status(client, req, call, &op_%s, %s, "
                        "status, err);\n",
                        P, N, outp ? "&result" : "NULL");
    else
        sdkc_buf_printf(b,
                        "    %s_status st = sdkrt_json_call(client, req, call, &op_%s, %s, err);\n",
                        P, N, outp ? "&result" : "NULL");
    sdkc_buf_puts(b, "    sdkrt_request_free(req);\n");
    if (outp) {
        if (copy)
            sdkc_buf_printf(b,
                            "    if (st == SDKRT_OK) {\n        *out = *(%s)result;\n"
                            "        free(result);\n    }\n",
                            emit_ptr_decl(cx, o->result->cdecl));
        else
            sdkc_buf_puts(b, "    if (st == SDKRT_OK)\n        *out = result;\n");
    }
    sdkc_buf_puts(b, "    return st;\n}\n\n");
}

const char **emit_env_stems(emit_ctx *cx)
{
    const sdkc_ir *ir = cx->ir;
    const char **stems = sdkc_arena_alloc(cx->arena, (ir->nschemes + 1) * sizeof *stems);
    for (size_t i = 0; stems && i < ir->nschemes; i++) {
        char *snake = sdkc_snake_case(cx->arena, ir->schemes[i].name);
        const char *stem = snake ? sdkc_arena_printf(cx->arena, "%s_%s", cx->upper, snake) : NULL;
        stem = stem ? sdkc_kit_upper(cx->arena, stem) : NULL;
        for (size_t k = 0, n = 2; stem && k < i; k++) {
            if (strcmp(stems[k], stem) == 0) {
                stem = sdkc_arena_printf(cx->arena, "%s_%zu", stem, n++);
                k = (size_t)-1; /* again from the first */
            }
        }
        if (!stem)
            return NULL;
        stems[i] = stem;
    }
    return stems;
}

/* PREFIX_client_new_from_env over sdkrt_client_new_from_env with the contract's schemes. */
static void emit_client_from_env(emit_ctx *cx, sdkc_buf *b)
{
    const char *P = cx->prefix, *U = cx->upper;
    const sdkc_ir *ir = cx->ir;
    bool schemes = !ir->auth_unspecified && ir->nschemes > 0;
    const char **stems = schemes ? emit_env_stems(cx) : NULL;
    if (schemes && !stems) {
        b->oom = true;
        return;
    }
    sdkc_buf_printf(b,
                    "%s_status %s_client_new_from_env(%s_client **out, const %s_client_options "
                    "*opts, %s_error **err)\n{\n",
                    P, P, P, P, P);
    if (schemes) {
        sdkc_buf_puts(b, "    static const sdkrt_env_scheme schemes[] = {\n");
        for (size_t i = 0; i < ir->nschemes; i++) {
            const sdkc_security_scheme *s = &ir->schemes[i];
            bool basic = s->type && strcmp(s->type, "http") == 0 && s->scheme &&
                         (strcmp(s->scheme, "basic") == 0 || strcmp(s->scheme, "Basic") == 0);
            sdkc_buf_puts(b, "        {");
            sdkc_kit_put_c_string(b, s->name);
            sdkc_buf_puts(b, ", ");
            sdkc_kit_put_c_string(b, stems[i]);
            sdkc_buf_printf(b, ", %s},\n", basic ? "true" : "false");
        }
        sdkc_buf_puts(b, "    };\n");
    }
    sdkc_buf_printf(b,
                    "    if (out)\n        *out = NULL;\n"
                    "    if (!sdkrt_version_check(SDKRT_VERSION_MAJOR, SDKRT_VERSION_MINOR))\n"
                    "        return %s_client_new(out, opts, err); /* its message */\n"
                    "    return sdkrt_client_new_from_env(out, opts, \"%s\", %s, %s, %zu, err);\n"
                    "}\n\n",
                    P, U,
                    sdkc_ir_default_server(ir)
                        ? sdkc_arena_printf(cx->arena, "%s_DEFAULT_BASE_URL", U)
                        : "NULL",
                    schemes ? "schemes" : "NULL", schemes ? ir->nschemes : (size_t)0);
}

void emit_ops_c(emit_ctx *cx, sdkc_buf *b, cop *ops, size_t nops, tagref *tags, size_t ntags)
{
    const char *P = cx->prefix;
    sdkc_kit_banner(b, cx->ir, "ops.c: the client and the operations");
    sdkc_buf_puts(b, "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n\n"
                     "#include \"internal.h\"\n#include \"sdkrt/wire.h\"\n\n");
    sdkc_buf_printf(
        b,
        "%s_status %s_global_init(void)\n{\n    return sdkrt_global_init();\n}\n\n"
        "void %s_global_cleanup(void)\n{\n    sdkrt_global_cleanup();\n}\n\n"
        "%s_status %s_client_new(%s_client **out, const %s_client_options *opts, %s_error "
        "**err)\n{\n"
        "    if (out)\n        *out = NULL;\n"
        "    if (!sdkrt_version_check(SDKRT_VERSION_MAJOR, SDKRT_VERSION_MINOR))\n"
        "        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,\n"
        "                               \"libsdkrt %%s does not serve this SDK (built for "
        "%%d.%%d)\", sdkrt_version_string(),\n"
        "                               SDKRT_VERSION_MAJOR, SDKRT_VERSION_MINOR);\n"
        "%s"
        "void %s_client_free(%s_client *client)\n{\n    sdkrt_client_free(client);\n}\n\n"
        "void %s_bytes_free(%s_bytes *bytes)\n{\n    sdkrt_bytes_free(bytes);\n}\n\n",
        P, P, P, P, P, P, P, P,
        sdkc_ir_default_server(cx->ir)
            ? sdkc_arena_printf(cx->arena,
                                "    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;\n"
                                "    if (opts)\n        o = *opts;\n"
                                "    if (!o.base_url)\n        o.base_url = %s_DEFAULT_BASE_URL;\n"
                                "    return sdkrt_client_new(out, &o, err);\n}\n\n",
                                cx->upper)
            : "    return sdkrt_client_new(out, opts, err);\n}\n\n",
        P, P, P, P);
    emit_client_from_env(cx, b);
    sdkc_buf_printf(
        b,
        "void %s_error_free(%s_error *err)\n{\n    sdkrt_error_free(err);\n}\n\n"
        "void %s_error_clear(%s_error **err)\n{\n    sdkrt_error_clear(err);\n}\n\n"
        "int %s_error_is_domain(const %s_error *err)\n{\n"
        "    return err && sdkrt_error_kind(err) == SDKRT_ERROR_DOMAIN;\n}\n\n"
        "const char *%s_error_tag(const %s_error *err)\n{\n"
        "    return err ? sdkrt_error_tag(err) : NULL;\n}\n\n"
        "%s_reason %s_error_reason(const %s_error *err)\n{\n"
        "    return err ? sdkrt_error_reason(err) : SDKRT_REASON_NONE;\n}\n\n"
        "const char *%s_error_reason_name(const %s_error *err)\n{\n"
        "    return sdkrt_reason_name(err ? sdkrt_error_reason(err) : SDKRT_REASON_NONE);\n}\n\n"
        "int %s_error_status(const %s_error *err)\n{\n"
        "    return err ? sdkrt_error_status(err) : 0;\n}\n\n"
        "const char *%s_error_message(const %s_error *err)\n{\n"
        "    return err ? sdkrt_error_message(err) : \"no error\";\n}\n\n"
        "const char *%s_error_body(const %s_error *err, size_t *len)\n{\n"
        "    if (len)\n        *len = 0;\n    return err ? sdkrt_error_body(err, len) : "
        "NULL;\n}\n\n"
        "const char *%s_reason_name(%s_reason reason)\n{\n    return "
        "sdkrt_reason_name(reason);\n}\n\n",
        P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P);
    sdkc_buf_printf(
        b,
        "%s_status %s_cancel_new(%s_cancel **out, %s_error **err)\n{\n"
        "    if (!out)\n        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT, "
        "\"%s_cancel_new: out is NULL\");\n"
        "    if (sdkrt_cancel_new(out) != SDKRT_OK)\n"
        "        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, \"out of memory\");\n"
        "    return SDKRT_OK;\n}\n\n"
        "void %s_cancel_trigger(%s_cancel *cancel)\n{\n    sdkrt_cancel_trigger(cancel);\n}\n\n"
        "bool %s_cancel_is_triggered(const %s_cancel *cancel)\n{\n"
        "    return sdkrt_cancel_is_triggered(cancel);\n}\n\n"
        "void %s_cancel_reset(%s_cancel *cancel)\n{\n    sdkrt_cancel_reset(cancel);\n}\n\n"
        "void %s_cancel_free(%s_cancel *cancel)\n{\n    sdkrt_cancel_free(cancel);\n}\n\n"
        "%s_status %s_curl_transport_new(%s_transport **out, %s_error **err)\n{\n"
        "    return sdkrt_curl_transport_new(out, err);\n}\n\n"
        "%s_status %s_memory_transport_new(%s_transport **out, %s_memory_handler handler, void "
        "*userdata,\n    %s_error **err)\n{\n"
        "    if (out)\n        *out = NULL;\n"
        "    if (!out || !handler)\n        return sdkrt_error_set(err, "
        "SDKRT_REASON_INVALID_ARGUMENT, \"%s_memory_transport_new: out and handler are "
        "required\");\n"
        "    if (sdkrt_memory_transport_new(out, handler, userdata) != SDKRT_OK)\n"
        "        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, \"out of memory\");\n"
        "    return SDKRT_OK;\n}\n\n"
        "void %s_transport_free(%s_transport *transport)\n{\n    "
        "sdkrt_transport_free(transport);\n}\n\n"
        "void %s_memory_response_set_status(%s_memory_response *response, int status)\n{\n"
        "    sdkrt_memory_response_set_status(response, status);\n}\n\n"
        "%s_status %s_memory_response_add_header(%s_memory_response *response, const char *name, "
        "const char *value)\n{\n"
        "    return sdkrt_memory_response_add_header(response, name, value);\n}\n\n"
        "%s_status %s_memory_response_add_chunk(%s_memory_response *response, const void *bytes, "
        "size_t len)\n{\n"
        "    return sdkrt_memory_response_add_chunk(response, bytes, len);\n}\n\n"
        "void %s_memory_response_end_with_error(%s_memory_response *response, %s_reason reason, "
        "const char *message)\n{\n"
        "    sdkrt_memory_response_end_with_error(response, reason, message);\n}\n\n",
        P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P,
        P, P, P, P, P);
    bool any_paged = false;
    for (size_t i = 0; i < nops; i++)
        any_paged = any_paged || (ops[i].op->pagination && emit_page_ok(&ops[i]) &&
                                  emit_page_cursor_object(&ops[i]) && !ops[i].op->stream);
    if (any_paged)
        sdkc_buf_puts(b, "/* strdup without relying on POSIX feature macros. */\n"
                         "static char *dup_str(const char *s)\n{\n    size_t n = strlen(s) + 1;\n"
                         "    char *d = malloc(n);\n    if (d)\n        memcpy(d, s, n);\n"
                         "    return d;\n}\n\n");
    for (size_t i = 0; i < ntags; i++) {
        sdkc_buf_printf(b, "const %s%s(const %s_error *err)\n{\n",
                        emit_ptr_decl(cx, tags[i].type->cdecl), tags[i].accessor, P);
        sdkc_buf_puts(b, "    const char *tag = err ? sdkrt_error_tag(err) : NULL;\n"
                         "    if (!tag || strcmp(tag, ");
        sdkc_kit_put_c_string(b, tags[i].tag);
        sdkc_buf_puts(b,
                      ") != 0)\n        return NULL;\n    return sdkrt_error_payload(err);\n}\n\n");
    }
    bool any_table = false;
    for (size_t i = 0; i < nops; i++)
        any_table = any_table || emit_builder_table_ok(&ops[i]);
    if (any_table)
        emit_build_request(b);
    for (size_t i = 0; i < nops; i++) {
        if (emit_page_engine(&ops[i])) {
            emit_paged_engine_shared(cx, b);
            break;
        }
    }
    emit_async_shared_c(cx, b, ops, nops);
    const char **tramps = emit_async_trampolines(cx, ops, nops);
    if (!tramps) {
        b->oom = true;
        return;
    }
    for (size_t i = 0; i < nops; i++) {
        const cop *o = &ops[i];
        sdkc_buf_printf(b, "/* ---- %s ---- */\n\n", o->op->id);
        emit_op_desc(cx, b, o);
        if (emit_builder_table_ok(o))
            emit_builder_table(cx, b, o);
        else
            emit_builder(cx, b, o);
        if (o->op->stream && o->item) {
            if (emit_follow_ok(o))
                emit_follow_seq_c(b, o);
            emit_stream(cx, b, o);
            if (emit_follow_ok(o))
                emit_follow_c(cx, b, o);
        } else if (o->op->pagination && emit_page_ok(o) && emit_page_cursor_object(o))
            emit_paged(cx, b, o);
        else if (o->op->pagination && emit_page_ok(o))
            emit_paged_engine(cx, b, o);
        else
            emit_unary(cx, b, o);
        emit_async_c(cx, b, o, tramps[i]);
    }
}
