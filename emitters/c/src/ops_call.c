/* src/ops.c: the call of every operation that is not paged (pages in ops_paged.c): a unary call,
 * one returning a PREFIX_<op>_response for several successes, or a stream's open, next_event and
 * close. Each builds an sdkrt_request and hands it with the descriptor to the runtime. */
#include "emit_internal.h"
#include "ops_c.h"

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

void emit_stream(emit_ctx *cx, sdkc_buf *b, const cop *o)
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

void emit_unary(emit_ctx *cx, sdkc_buf *b, const cop *o)
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
