/* include/PREFIX/ops.h: the client, errors, cancellation and transports, and per operation its
 * request struct and its functions (unary, page with continuation and iterator, or stream). */
#include "emit_internal.h"
#include "ops_c.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void emit_request_struct(emit_ctx *cx, sdkc_buf *b, const cop *o)
{
    const sdkc_operation *op = o->op;
    if (o->variant) {
        /* the stream variant sends what its operation sends */
        size_t n = strlen(o->name) - strlen("_stream");
        sdkc_buf_printf(b,
                        "/* Parameters of %s: those of %.*s (the same operation, answered as "
                        "text/event-stream). */\ntypedef %s_%.*s_request %s_%s_request;\n\n",
                        o->name, (int)n, o->name, cx->prefix, (int)n, o->name, cx->prefix, o->name);
        return;
    }
    char *doc =
        sdkc_arena_printf(cx->arena,
                          "Parameters of %s (%s %s). Borrowed by the call; has_x marks "
                          "an optional parameter as set.%s",
                          o->name, op->method, op->path,
                          emit_request_optional(op) ? " Nothing in it is required: the call "
                                                      "accepts a NULL request."
                                                    : "");
    sdkc_kit_put_doc(b, SDKC_KIT_DOC_C, "", doc, NULL);
    sdkc_buf_printf(b, "typedef struct %s_%s_request {\n", cx->prefix, o->name);
    for (size_t i = 0; i < op->nparams; i++) {
        const sdkc_param *p = &op->params[i];
        char *extra =
            sdkc_arena_printf(cx->arena, "%s parameter \"%s\"%s.", sdkc_param_in_name(p->in),
                              p->wire_name, p->required ? ", required" : "");
        sdkc_kit_put_doc(b, SDKC_KIT_DOC_C, "    ", p->docs, extra);
        if (!p->required)
            sdkc_buf_printf(b, "    bool has_%s;\n", o->pnames[i]);
        sdkc_buf_puts(b, "    ");
        if (o->params[i]->stores)
            emit_put_in_member(cx, b, o->params[i], o->pnames[i], false);
        else if (o->params[i]->literal) {
            sdkc_buf_printf(b, "char %s; /* nothing to set: always ", o->pnames[i]);
            sdkc_kit_put_comment_text(b, o->params[i]->literal, strlen(o->params[i]->literal));
            sdkc_buf_puts(b, " */");
        } else
            sdkc_buf_printf(b, "char %s; /* nothing to set */", o->pnames[i]);
        sdkc_buf_putc(b, '\n');
    }
    if (o->body) {
        sdkc_kit_put_doc(b, SDKC_KIT_DOC_C, "    ", op->body->docs,
                         op->body->required ? "The request body."
                                            : "The request body, sent when has_body.");
        if (!op->body->required)
            sdkc_buf_puts(b, "    bool has_body;\n");
        sdkc_buf_puts(b, "    ");
        if (o->blob_body)
            sdkc_buf_printf(b, "%s_blob body; /* the bytes: data and len, or a file's path */",
                            cx->prefix);
        else
            emit_put_in_member(cx, b, o->body, "body", false);
        sdkc_buf_putc(b, '\n');
        if (o->nfiles) {
            sdkc_buf_puts(b, "    /* File parts: a blob that is set (data, len or path) is sent "
                             "instead of the body's\n       string of that name. */\n"
                             "    struct {\n");
            for (size_t i = 0; i < o->nfiles; i++)
                sdkc_buf_printf(b, "        %s_blob %s;\n", cx->prefix, o->files[i]->cname);
            sdkc_buf_puts(b, "    } body_files;\n");
        }
        if (op->body->nalternatives) {
            sdkc_buf_puts(b, "    /* The media type to send the body as: NULL for ");
            sdkc_kit_put_comment_text(b, op->body->content_type, strlen(op->body->content_type));
            sdkc_buf_puts(b, ", or one of");
            for (size_t i = 0; i < op->body->nalternatives; i++) {
                sdkc_buf_puts(b, i ? ", " : " ");
                sdkc_kit_put_comment_text(b, op->body->alternatives[i],
                                          strlen(op->body->alternatives[i]));
            }
            sdkc_buf_puts(b, " (anything else is an INVALID_ARGUMENT error). */\n"
                             "    const char *body_media_type;\n");
        }
    }
    sdkc_buf_printf(b, "} %s_%s_request;\n\n", cx->prefix, o->name);
}

static const char *op_doc(emit_ctx *cx, const cop *o)
{
    const sdkc_operation *op = o->op;
    const char *s = op->summary ? op->summary : "";
    const char *d = op->description && (!op->summary || strcmp(op->summary, op->description))
                        ? op->description
                        : "";
    return sdkc_arena_printf(cx->arena, "%s%s%s\n%s %s (%s)%s", s, *s && *d ? "\n" : "", d,
                             op->method, op->path, op->id, op->deprecated ? " [deprecated]" : "");
}

static void emit_errors_doc(emit_ctx *cx, sdkc_buf *dst, const cop *o)
{
    sdkc_buf b = SDKC_BUF_INIT;
    const sdkc_operation *op = o->op;
    sdkc_buf_puts(&b, "Declared errors:");
    for (size_t j = 0; j < emit_error_entries(op); j++) {
        int status = 0;
        const char *tag = NULL;
        const sdkc_type *t = NULL;
        char st[16];
        emit_error_entry(op, j, &status, &tag, &t);
        sdkc_buf_printf(&b, " %s %s;", sdkc_status_text(status, st, sizeof st),
                        emit_entry_tag(tag, o->errs[j]));
    }
    sdkc_buf_puts(&b, " anything else is a CLIENT error.");
    sdkc_kit_put_comment_text(dst, b.data ? b.data : "", b.len);
    sdkc_buf_cleanup(&b);
    (void)cx;
}

/* The event struct and PREFIX_<op>_next_event, the stream's tolerant read. */
static void emit_next_event_h(emit_ctx *cx, sdkc_buf *b, const cop *o)
{
    const char *P = cx->prefix, *N = o->name, *U = cx->upper;
    const char *H = emit_stream_handle(cx, o);
    sdkc_buf_printf(b,
                    "/* What %s_%s_next_event yields; everything is borrowed until the next call "
                    "or close. */\n"
                    "typedef struct %s_event {\n"
                    "    %s_stream_kind kind; /* %s_STREAM_ITEM or %s_STREAM_POISON */\n"
                    "    %sitem; /* ITEM: the decoded item */\n",
                    P, N, H, P, U, U, emit_const_ptr(cx, o->item->cdecl));
    const char *seq = emit_follow_ok(o) ? emit_follow_seq_text(cx, o) : NULL;
    if (emit_follow_ok(o) && !seq)
        b->oom = true;
    else if (seq)
        sdkc_buf_printf(b,
                        "    bool has_seq; /* ITEM, POISON: the item's %s was found */\n"
                        "    int64_t seq;\n",
                        seq);
    sdkc_buf_printf(
        b,
        "    const char *data; /* POISON: the event's data as received (NUL-terminated) */\n"
        "    size_t data_len;\n"
        "    const json_t *raw; /* POISON: that data as JSON, or NULL when it is not JSON */\n"
        "    const %s_error *error; /* POISON: why it did not decode (MALFORMED_RESPONSE with the "
        "JSON path) */\n"
        "} %s_event;\n\n",
        P, H);
    sdkc_buf_printf(
        b,
        "/* The next item, past items that do not decode: %s_NEXT_ITEM with *event filled "
        "(%s_STREAM_ITEM,\n"
        " * or %s_STREAM_POISON for an event whose data does not decode, after which the stream "
        "goes on),\n * %s_NEXT_END, or %s_NEXT_ERROR with *err (new) as for %s_%s_next.\n"
        " * %s_%s_next is the strict read of the same stream; the two may be mixed. */\n"
        "%s_next %s_%s_next_event(%s *stream, %s_event *event, %s_error **err);\n",
        U, U, U, U, U, P, N, P, N, P, P, N, H, H, P);
}

static void emit_op_protos(emit_ctx *cx, sdkc_buf *b, const cop *o)
{
    const sdkc_operation *op = o->op;
    const char *P = cx->prefix, *N = o->name;
    if (o->has_request)
        emit_request_struct(cx, b, o);
    const char *req_arg =
        o->has_request ? sdkc_arena_printf(cx->arena, "const %s_%s_request *request, ", P, N) : "";
    if (op->stream && o->item) {
        const char *H = emit_stream_handle(cx, o);
        sdkc_buf_printf(b, "/* A cold event stream of %s: see %s_%s_open. */\n", N, P, N);
        sdkc_buf_printf(b, "typedef struct %s %s;\n\n", H, H);
        sdkc_kit_put_doc(b, SDKC_KIT_DOC_C, "", op_doc(cx, o), NULL);
        sdkc_buf_puts(b, "/* ");
        emit_errors_doc(cx, b, o);
        sdkc_buf_printf(b,
                        "\n * Opens the stream without I/O: the first %s_%s_next connects. "
                        "request and call are copied\n * (the cancel token stays borrowed). "
                        "*out is new: release it with %s_%s_close. */\n",
                        P, N, P, N);
        sdkc_buf_printf(b,
                        "%s_status %s_%s_open(%s **out, %s_client *client, %sconst "
                        "%s_call_options *call,\n    %s_error **err);\n",
                        P, P, N, H, P, req_arg, P, P);
        sdkc_buf_printf(
            b,
            "/* The next item: %s_NEXT_ITEM with *item (borrowed until the next call or close), "
            "%s_NEXT_END, or\n * %s_NEXT_ERROR with *err (new). A failure frame becomes a DOMAIN "
            "error tagged \"%s\" whose payload\n * is the decoded cause (%s_%s_failure); a "
            "declared "
            "error status its domain error; a cut TRANSPORT.\n * Strict: an item that does not "
            "decode is MALFORMED_RESPONSE and ends the stream (%s_%s_next_event goes past it). "
            "*/\n",
            cx->upper, cx->upper, cx->upper, "StreamFailure", P, N, P, N);
        sdkc_buf_printf(b, "%s_next %s_%s_next(%s *stream, %s*item, %s_error **err);\n", P, P, N, H,
                        emit_const_ptr(cx, o->item->cdecl), P);
        emit_next_event_h(cx, b, o);
        sdkc_buf_printf(b,
                        "/* Close the stream and its connection at any point (NULL is a no-op). "
                        "*/\nvoid %s_%s_close(%s *stream);\n",
                        P, N, H);
        if (o->cause)
            sdkc_buf_printf(b,
                            "/* The decoded cause of a stream failure error (borrowed from err), "
                            "or NULL for other errors. */\n%s%s_%s_failure(const %s_error "
                            "*err);\n",
                            emit_const_ptr(cx, o->cause->cdecl), P, N, P);
        if (emit_follow_ok(o)) {
            sdkc_buf_putc(b, '\n');
            emit_follow_h(cx, b, o);
        }
        emit_async_h(cx, b, o);
        sdkc_buf_putc(b, '\n');
        return;
    }
    bool paged = op->pagination && emit_page_ok(o);
    bool engine = paged && !emit_page_cursor_object(o);
    const char *U = cx->upper;
    if (engine) {
        const char *items = emit_const_ptr(cx, o->item->cdecl);
        sdkc_buf_printf(b,
                        "/* A position in the pages of %s (opaque): the request for the page after "
                        "one, as that page's\n * response says (%s). Owned by its page. */\n",
                        N, sdkc_page_style_name(op->pagination->style));
        sdkc_buf_printf(b, "typedef struct %s_%s_cursor %s_%s_cursor;\n\n", P, N, P, N);
        sdkc_buf_printf(b,
                        "/* One page of %s. items and count view the decoded body; next is NULL on "
                        "the last page.\n * Everything is owned by the page: release it with "
                        "%s_%s_page_free. */\n",
                        N, P, N);
        sdkc_buf_printf(b,
                        "typedef struct %s_%s_page {\n    %sitems;\n    size_t count;\n"
                        "    %s_%s_cursor *next;\n    %sbody;\n} %s_%s_page;\n\n",
                        P, N, items, P, N, emit_ptr_decl(cx, o->result->cdecl), P, N);
        sdkc_buf_printf(b, "void %s_%s_page_free(%s_%s_page *page); /* NULL is a no-op */\n", P, N,
                        P, N);
        sdkc_buf_printf(
            b,
            "#define %s_%s_cursor_free(cursor) %s__page_cursor_free(%s_AS_(%s_%s_cursor, "
            "cursor)) /* NULL: no-op */\n\n",
            P, N, P, U, P, N);
    } else if (paged) {
        const char *items = emit_const_ptr(cx, o->item->cdecl);
        sdkc_buf_printf(b,
                        "/* A position in the pages of %s (opaque): only valid for this operation. "
                        "It holds the server's\n * cursor and the path parameters; a continuation "
                        "sends those and nothing else. Owned by its page,\n * or by the caller "
                        "after %s_%s_cursor_dup or %s_%s_cursor_new. */\n",
                        N, P, N, P, N);
        sdkc_buf_printf(b, "typedef struct %s_%s_cursor %s_%s_cursor;\n\n", P, N, P, N);
        sdkc_buf_printf(b,
                        "/* One page of %s. items and count view the decoded body; next and "
                        "previous are NULL at the ends.\n * Everything is owned by the page: "
                        "release it with %s_%s_page_free. */\n",
                        N, P, N);
        sdkc_buf_printf(b,
                        "typedef struct %s_%s_page {\n    %sitems;\n    size_t count;\n"
                        "    %s_%s_cursor *next;\n    %s_%s_cursor *previous;\n    %sbody;\n"
                        "} %s_%s_page;\n\n",
                        P, N, items, P, N, P, N, emit_ptr_decl(cx, o->result->cdecl), P, N);
        sdkc_buf_printf(b, "void %s_%s_page_free(%s_%s_page *page); /* NULL is a no-op */\n", P, N,
                        P, N);
        sdkc_buf_printf(b, "void %s_%s_cursor_free(%s_%s_cursor *cursor); /* NULL is a no-op */\n",
                        P, N, P, N);
        sdkc_buf_printf(b,
                        "/* A copy of cursor in *out (new; %s_%s_cursor_free). */\n"
                        "%s_status %s_%s_cursor_dup(%s_%s_cursor **out, const %s_%s_cursor "
                        "*cursor, %s_error **err);\n",
                        P, N, P, P, N, P, N, P, N, P);
        sdkc_buf_printf(b,
                        "/* The server's cursor text (borrowed from cursor), to keep and resume "
                        "from later. */\n"
                        "const char *%s_%s_cursor_value(const %s_%s_cursor *cursor);\n",
                        P, N, P, N);
        sdkc_buf_printf(b,
                        "/* A cursor (new; %s_%s_cursor_free) from a kept cursor text "
                        "(copied)%s. */\n"
                        "%s_status %s_%s_cursor_new(%s_%s_cursor **out, %sconst char *value, "
                        "%s_error **err);\n\n",
                        P, N,
                        emit_npath_params(op) ? " and the path parameters of request (borrowed; "
                                                "nothing else in it is used)"
                                              : "",
                        P, P, N, P, N,
                        emit_npath_params(op)
                            ? sdkc_arena_printf(cx->arena, "const %s_%s_request *request, ", P, N)
                            : "",
                        P);
    }
    if (o->several && !o->several_shared) {
        sdkc_buf_printf(b,
                        "/* What %s answered: status is the HTTP status, and the member of that "
                        "status is set (new, owned by the\n * response; the others are NULL). "
                        "Release it with %s_%s_response_free. */\n"
                        "typedef struct %s_%s_response {\n    int status;\n",
                        N, P, N, P, N);
        for (size_t k = 0; k <= op->nmore_successes; k++) {
            const char *decl = emit_success_member_decl(cx, o, k);
            if (decl)
                sdkc_buf_printf(b, "    %s;\n", decl);
        }
        sdkc_buf_printf(b,
                        "} %s_%s_response;\n"
                        "void %s_%s_response_free(%s_%s_response *response); /* NULL is a no-op "
                        "*/\n\n",
                        P, N, P, N, P, N);
    }
    sdkc_kit_put_doc(b, SDKC_KIT_DOC_C, "", op_doc(cx, o), NULL);
    sdkc_buf_puts(b, "/* ");
    emit_errors_doc(cx, b, o);
    if (o->several) {
        char st[16];
        sdkc_buf_printf(b, "\n * Succeeds with %s",
                        sdkc_status_text(op->success.status, st, sizeof st));
        for (size_t k = 0; k < op->nmore_successes; k++)
            sdkc_buf_printf(b, "%s%s", k + 1 == op->nmore_successes ? " or " : ", ",
                            sdkc_status_text(op->more_successes[k].status, st, sizeof st));
        sdkc_buf_puts(b, ": *status (may be NULL) gets the status that came back.");
    }
    const char *outp = emit_out_param(cx, o);
    sdkc_buf_printf(b,
                    "\n * client, request and call (NULL for defaults) are borrowed; %s; on %s_ERR "
                    "*err is new (%s_error_free). */\n",
                    outp ? "on success *out is new and owned by the caller"
                         : "nothing is returned on success",
                    cx->upper, P);
    sdkc_buf_printf(b, "%s_status %s_%s(%s_client *client, %sconst %s_call_options *call, ", P, P,
                    N, P, req_arg, P);
    if (outp)
        sdkc_buf_printf(b, "%s, ", outp);
    if (o->several)
        sdkc_buf_puts(b, "int *status, ");
    sdkc_buf_printf(b, "%s_error **err);\n", P);
    if (paged) {
        sdkc_buf_printf(b,
                        "/* The page at cursor (borrowed)%s. */\n"
                        "%s_status %s_%s_continue(%s_client *client, const %s_%s_cursor *cursor, "
                        "const %s_call_options *call,\n    %s_%s_page **out, %s_error **err);\n",
                        engine ? "" : ", sending only the cursor", P, P, N, P, P, N, P, P, N, P);
        sdkc_buf_printf(b,
                        "/* An iterator over every item of every page, forwards, with one page "
                        "resident. No I/O until the first\n * next. request is copied; client "
                        "and call are borrowed for the iterator's life. */\n"
                        "typedef struct %s_%s_iter %s_%s_iter;\n"
                        "%s_status %s_%s_iter_new(%s_%s_iter **out, %s_client *client, %sconst "
                        "%s_call_options *call,\n    %s_error **err);\n",
                        P, N, P, N, P, P, N, P, N, P, req_arg, P, P);
        sdkc_buf_printf(b,
                        "/* *item is borrowed until the next call or free. */\n"
                        "%s_next %s_%s_iter_next(%s_%s_iter *it, %s*item, %s_error **err);\n",
                        P, P, N, P, N, emit_const_ptr(cx, o->item->cdecl), P);
        if (engine)
            sdkc_buf_printf(b,
                            "#define %s_%s_iter_free(it) %s__pager_free(%s_AS_(%s_%s_iter, it)) /* "
                            "NULL: no-op */\n",
                            P, N, P, U, P, N);
        else
            sdkc_buf_printf(b, "void %s_%s_iter_free(%s_%s_iter *it); /* NULL is a no-op */\n", P,
                            N, P, N);
    }
    emit_async_h(cx, b, o);
    sdkc_buf_putc(b, '\n');
}

void emit_ops_h(emit_ctx *cx, sdkc_buf *b, cop *ops, size_t nops, tagref *tags, size_t ntags)
{
    const char *P = cx->prefix, *U = cx->upper;
    sdkc_kit_banner(b, cx->ir, "ops.h: the client and one function per operation");
    sdkc_buf_printf(b, "#ifndef %s_OPS_H\n#define %s_OPS_H\n\n#include \"%s/types.h\"\n\n", U, U,
                    P);
    sdkc_buf_puts(b, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
    sdkc_buf_printf(
        b,
        "/* The one global initialisation (libcurl). Optional: the first client does it when the "
        "program did not. */\n"
        "%s_status %s_global_init(void);\nvoid %s_global_cleanup(void);\n\n"
        "/* A new client in *out (owned by the caller; %s_client_free). opts is copied (its "
        "transport is borrowed).\n * Fails with INVALID_ARGUMENT when the linked libsdkrt does "
        "not serve this SDK's version. */\n"
        "%s_status %s_client_new(%s_client **out, const %s_client_options *opts, %s_error "
        "**err);\n"
        "/* %s_client_new configured from the environment (README.md lists the names): base_url "
        "from opts, else\n * %s_BASE_URL, else the contract's server; each security scheme's "
        "secret from %s_<SCHEME>_TOKEN\n * (%s_<SCHEME>_USERNAME and _PASSWORD for HTTP Basic; "
        "without schemes %s_USERNAME, %s_PASSWORD or\n * %s_TOKEN) after opts' own credentials. "
        "opts may be NULL. */\n"
        "%s_status %s_client_new_from_env(%s_client **out, const %s_client_options *opts, "
        "%s_error **err);\n"
        "void %s_client_free(%s_client *client); /* NULL is a no-op */\n"
        "/* Release a non-JSON body returned by an operation. NULL is a no-op. */\n"
        "void %s_bytes_free(%s_bytes *bytes);\n\n",
        P, P, P, P, P, P, P, P, P, P, U, U, U, U, U, U, P, P, P, P, P, P, P, P, P);
    sdkc_buf_printf(
        b,
        "/* Errors: CLIENT errors carry a reason; DOMAIN errors carry a declared tag and a typed "
        "payload. All borrowed\n * from err.\n *\n"
        " * Every %s_error **err parameter follows GLib's GError rules: err may be NULL (no "
        "details wanted); otherwise\n * *err must be NULL on entry, and on failure it receives "
        "one new error that the caller owns and\n * releases with %s_error_free, or with "
        "%s_error_clear, which also resets the variable to NULL for the\n * next call. The "
        "SDK never frees or overwrites a non-NULL *err: when it already holds an error, that\n"
        " * first error is kept and the new one is dropped. */\n"
        "void %s_error_free(%s_error *err); /* NULL is a no-op */\n"
        "/* Free *err and set it to NULL, so the variable can be passed again (err or *err NULL: "
        "no-op). */\n"
        "void %s_error_clear(%s_error **err);\n"
        "int %s_error_is_domain(const %s_error *err);\n"
        "const char *%s_error_tag(const %s_error *err); /* DOMAIN tag, or NULL */\n"
        "%s_reason %s_error_reason(const %s_error *err); /* CLIENT reason, NONE for DOMAIN */\n"
        "const char *%s_error_reason_name(const %s_error *err); /* \"TRANSPORT\", ... */\n"
        "int %s_error_status(const %s_error *err); /* HTTP status, 0 if none */\n"
        "const char *%s_error_message(const %s_error *err);\n"
        "/* The kept response body (first 64 KiB), or NULL. */\n"
        "const char *%s_error_body(const %s_error *err, size_t *len);\n"
        "/* The name of a reason (\"TIMEOUT\", ...; static). */\n"
        "const char *%s_reason_name(%s_reason reason);\n\n",
        P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P);
    sdkc_buf_printf(
        b,
        "/* Cancellation: trigger a token from any thread to stop the calls and streams that "
        "carry it\n * (%s_call_options.cancel) with a CANCELLED error. */\n"
        "%s_status %s_cancel_new(%s_cancel **out, %s_error **err); /* *out new: %s_cancel_free */\n"
        "void %s_cancel_trigger(%s_cancel *cancel);\n"
        "bool %s_cancel_is_triggered(const %s_cancel *cancel);\n"
        "void %s_cancel_reset(%s_cancel *cancel); /* untriggered again, for the next call */\n"
        "void %s_cancel_free(%s_cancel *cancel); /* NULL is a no-op */\n\n"
        "/* Transports (%s_client_options.transport, borrowed by the client, which it must "
        "outlive). */\n"
        "%s_status %s_curl_transport_new(%s_transport **out, %s_error **err);\n"
        "/* An in-memory server: handler fills each response (handler and userdata borrowed). */\n"
        "%s_status %s_memory_transport_new(%s_transport **out, %s_memory_handler handler, void "
        "*userdata,\n    %s_error **err);\n"
        "void %s_transport_free(%s_transport *transport); /* NULL is a no-op */\n"
        "/* What a memory handler may set (default: 200, no headers, empty body); name, value and "
        "bytes are copied. */\n"
        "void %s_memory_response_set_status(%s_memory_response *response, int status);\n"
        "%s_status %s_memory_response_add_header(%s_memory_response *response, const char *name, "
        "const char *value);\n"
        "/* One chunk of the body: a stream read returns at most one chunk. */\n"
        "%s_status %s_memory_response_add_chunk(%s_memory_response *response, const void *bytes, "
        "size_t len);\n"
        "/* End the body with an error of that reason (TRANSPORT: a cut connection); message "
        "copied, may be NULL. */\n"
        "void %s_memory_response_end_with_error(%s_memory_response *response, %s_reason reason, "
        "const char *message);\n\n",
        P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P,
        P, P, P, P, P, P);
    for (size_t i = 0; i < ntags; i++) {
        sdkc_buf_puts(b, "/* The ");
        sdkc_kit_put_comment_text(b, tags[i].tag, strlen(tags[i].tag)); /* contract text */
        sdkc_buf_printf(b,
                        " payload of err (borrowed), or NULL when err is not that error. */\n"
                        "const %s%s(const %s_error *err);\n",
                        emit_ptr_decl(cx, tags[i].type->cdecl), tags[i].accessor, P);
    }
    sdkc_buf_putc(b, '\n');
    for (size_t i = 0; i < nops; i++) {
        if (emit_page_engine(&ops[i])) {
            sdkc_buf_printf(b,
                            "/* What the _cursor_free and _iter_free macros of operations paged by "
                            "the runtime's engine\n * call (NULL is a no-op). */\n"
                            "void %s__page_cursor_free(void *cursor);\n"
                            "void %s__pager_free(void *iter);\n\n",
                            P, P);
            break;
        }
    }
    emit_async_shared_h(cx, b, ops, nops);
    for (size_t i = 0; i < nops; i++)
        emit_op_protos(cx, b, &ops[i]);
    sdkc_buf_printf(b, "#ifdef __cplusplus\n}\n#endif\n#endif /* %s_OPS_H */\n", U);
}
