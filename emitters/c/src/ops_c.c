/* src/ops.c: the client's functions, error payload accessors, and per operation its sdkrt_jop
 * descriptor; the driver of the whole file. Each operation's request builder is written by
 * ops_builder.c, its call by ops_call.c (unary or stream) or ops_paged.c (pages). */
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

static void emit_op_desc(emit_ctx *cx, sdkc_buf *b, const cop *o)
{
    const sdkc_operation *op = o->op;
    const char *N = o->name;
    size_t nerr = emit_error_entries(op);
    if (nerr) {
        /* status: exact, a range (4 = 4XX) or 0 (default); tag NULL: a body without `_tag`;
           text: a body under a non-JSON media type, read as its text */
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
            sdkc_buf_printf(b, ", &%s%s},\n", emit_desc_name(cx, o->errs[j]),
                            emit_error_entry_text(op, j) ? ", true" : ", false");
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
