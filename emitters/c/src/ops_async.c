/* The asynchronous forms of the operations (include/PREFIX/ops.h and src/ops.c), on the client's
 * loop (sdkrt/loop.h): PREFIX_<op>_async for a unary call, PREFIX_<op>_page_async and
 * _continue_async for a page, PREFIX_<op>_start for a stream and PREFIX_<op>_follow_start for a
 * durable stream's follower. Each callback receives what the blocking call returns, typed.
 *
 * The runtime calls back with untyped values; each operation has one small trampoline (a macro
 * line in ops.c) that calls the caller's function through its own type, never through a cast
 * function type. What the forms share (the context kept until the callback, the checks, the start
 * helpers) is written once in ops.c.
 *
 * This file: what the async files share (an operation's shape, its callback's result, whether
 * its form is a macro) and each operation's async form in ops.c. Their declarations in ops.h are
 * written by ops_async_h.c, what they share in ops.c by ops_async_shared.c. */
#include "emit_internal.h"
#include "ops_c.h"

#include <string.h>

/* ---- shared by ops_async.c, ops_async_h.c and ops_async_shared.c ---- */

/* The same dispatch as emit_ops_c's. */
op_shape emit_async_shape(const cop *o)
{
    if (o->op->stream && o->item)
        return SHAPE_STREAM;
    if (o->op->pagination && emit_page_ok(o))
        return emit_page_cursor_object(o) ? SHAPE_PAGE_CURSOR : SHAPE_PAGE_ENGINE;
    return SHAPE_UNARY;
}

/* A unary result that the blocking call copies out of the runtime's storage (a scalar, a char *,
 * a json_t *): the callback gets it by value. */
bool emit_async_copied(const cop *o)
{
    return emit_async_shape(o) == SHAPE_UNARY && !(o->several && !o->several_shared) &&
           o->op->success.encoding == SDKC_ENC_JSON && o->result && o->result->stores &&
           !o->result->is_struct;
}

/* Is the async form a macro over a shared function and the operation's descriptor (P__ao_<op>)?
 * Unary calls and engine pages whose request is a table: a public function each would cost big
 * SDKs a compile of two functions per operation. Streams and the rest keep functions. */
bool emit_async_macro_form(const cop *o)
{
    op_shape sh = emit_async_shape(o);
    return emit_builder_table_ok(o) && (sh == SHAPE_UNARY || sh == SHAPE_PAGE_ENGINE);
}

bool emit_async_any_macro_form(const cop *ops, size_t nops, op_shape shape)
{
    for (size_t i = 0; i < nops; i++)
        if (emit_async_macro_form(&ops[i]) && emit_async_shape(&ops[i]) == shape)
            return true;
    return false;
}

/* The callback's result parameter: the blocking call's out parameter one pointer less ("oc_x
 * **out" -> "oc_x *result", "double *out" -> "double result"), or NULL when it has none. */
const char *emit_async_result_param(emit_ctx *cx, const cop *o)
{
    const char *outp = emit_out_param(cx, o);
    if (!outp)
        return NULL;
    size_t n = strlen(outp) - 3; /* "out" */
    while (n && outp[n - 1] == ' ')
        n--;
    if (n && outp[n - 1] == '*')
        n--;
    while (n && outp[n - 1] == ' ')
        n--;
    bool ptr = n && outp[n - 1] == '*';
    return sdkc_arena_printf(cx->arena, "%.*s%sresult", (int)n, outp, ptr ? "" : " ");
}

/* The request parameter of an operation's async forms ("" when it takes none). */
const char *emit_async_request_arg(emit_ctx *cx, const cop *o)
{
    return o->has_request
               ? sdkc_arena_printf(cx->arena, "const %s_%s_request *request, ", cx->prefix, o->name)
               : "";
}

/* ---- src/ops.c: each operation's async form ---- */

static void put_check(emit_ctx *cx, sdkc_buf *b, const cop *o, const char *ok, const char *what)
{
    (void)cx;
    sdkc_buf_printf(b, "    if (async_check(client, %s, ", ok);
    sdkc_kit_put_c_string(b, o->op->id);
    sdkc_buf_printf(b, ", \"%s\", err) != SDKRT_OK", what);
}

/* What a unary trampoline depends on: the callback's parameters and how the result is taken.
 * Operations whose callbacks have the same type share one trampoline (NULL: none is shared, the
 * several successes of different types). */
static const char *trampoline_key(emit_ctx *cx, const cop *o)
{
    if (o->several && !o->several_shared)
        return NULL;
    const char *res = emit_async_result_param(cx, o);
    return sdkc_arena_printf(cx->arena, "%s|%s|%d", res ? res : "",
                             emit_async_copied(o) ? "copy" : "", o->several);
}

const char **emit_async_trampolines(emit_ctx *cx, const cop *ops, size_t nops)
{
    const char **keys = sdkc_arena_alloc(cx->arena, (nops + 1) * sizeof *keys);
    const char **owner = sdkc_arena_alloc(cx->arena, (nops + 1) * sizeof *owner);
    if (!keys || !owner)
        return NULL;
    for (size_t i = 0; i < nops; i++) {
        keys[i] = emit_async_shape(&ops[i]) == SHAPE_UNARY ? trampoline_key(cx, &ops[i]) : NULL;
        owner[i] = ops[i].name;
        for (size_t j = 0; keys[i] && j < i; j++) {
            if (keys[j] && !strcmp(keys[j], keys[i])) {
                owner[i] = owner[j];
                break;
            }
        }
    }
    return owner;
}

static void emit_unary_c(emit_ctx *cx, sdkc_buf *b, const cop *o, const char *tramp,
                         const char *req_arg)
{
    const char *P = cx->prefix, *N = o->name;
    const char *res = emit_async_result_param(cx, o);
    const char *st = o->several ? "status, " : "";
    if (strcmp(tramp, N) != 0)
        ; /* the same callback type as an earlier operation's: its trampoline */
    else if (o->several && !o->several_shared)
        sdkc_buf_printf(b, "ASYNC_RESPONSE_(%s)\n", N);
    else if (res && emit_async_copied(o))
        sdkc_buf_printf(b, "ASYNC_COPY_(%s, %s, (a->userdata, v, %serr))\n", N, o->result->cdecl,
                        st);
    else
        sdkc_buf_printf(b, "ASYNC_DONE_(%s, (a->userdata, %s%serr))\n", N, res ? "out, " : "", st);
    if (emit_async_macro_form(o)) {
        /* the table, the descriptor and the trampoline: ops.h's macro calls the shared function */
        sdkc_buf_printf(
            b,
            "const %s__async_op %s__ao_%s = {&req_%s, &op_%s, async_done_%s, %s, NULL, NULL};\n\n",
            P, P, N, N, N, tramp,
            o->several && !o->several_shared
                ? sdkc_arena_printf(cx->arena, "sizeof(%s_%s_response)", P, N)
                : "0");
        return;
    }
    sdkc_buf_printf(b,
                    "%s_status %s_%s_async(%s_client *client, %sconst %s_call_options *call, "
                    "%s_%s_done done,\n    void *userdata, %s_error **err)\n{\n",
                    P, P, N, P, req_arg, P, P, N, P);
    sdkc_buf_puts(b, "    sdkrt_request *req = NULL;\n");
    put_check(cx, b, o, "done != NULL", "done");
    sdkc_buf_printf(b, " || build_%s(&req%s, err) != SDKRT_OK)\n        return SDKRT_ERR;\n", N,
                    o->has_request ? ", request" : "");
    if (o->several && !o->several_shared) {
        sdkc_buf_printf(b,
                        "    async_call *a = async_call_new((void (*)(void))done, userdata, 0, "
                        "NULL);\n"
                        "    if (a && !(a->ahead = calloc(1, sizeof(%s_%s_response))))\n"
                        "        a = (async_call_free(a), NULL);\n"
                        "    return async_send(client, req, call, &op_%s, async_done_%s, a, "
                        "err);\n}\n\n",
                        P, N, N, tramp);
        return;
    }
    sdkc_buf_printf(b,
                    "    return async_send(client, req, call, &op_%s, async_done_%s,\n"
                    "                      async_call_new((void (*)(void))done, userdata, 0, "
                    "NULL), err);\n}\n\n",
                    N, tramp);
}

static void emit_page_cursor_c(emit_ctx *cx, sdkc_buf *b, const cop *o, const char *req_arg)
{
    const char *P = cx->prefix, *N = o->name;
    size_t np = emit_npath_params(o->op);
    sdkc_buf_printf(b, "ASYNC_PAGE_(%s)\n", N);
    sdkc_buf_printf(b,
                    "%s_status %s_%s_page_async(%s_client *client, %sconst %s_call_options "
                    "*call,\n    %s_%s_page_done done, void *userdata, %s_error **err)\n{\n"
                    "    sdkrt_request *req = NULL;\n",
                    P, P, N, P, req_arg, P, P, N, P);
    put_check(cx, b, o, "done != NULL", "done");
    sdkc_buf_printf(b,
                    " || build_%s(&req%s, err) != SDKRT_OK)\n        return SDKRT_ERR;\n"
                    "    async_call *a = async_call_new((void (*)(void))done, userdata, %zu, "
                    "NULL);\n",
                    N, o->has_request ? ", request" : "", np);
    if (np)
        sdkc_buf_printf(b,
                        "    if (a && %s_path_texts(a->path, request, err) != SDKRT_OK) {\n"
                        "        async_call_free(a);\n        sdkrt_request_free(req);\n"
                        "        return SDKRT_ERR;\n    }\n",
                        N);
    sdkc_buf_printf(b,
                    "    return async_send(client, req, call, &op_%s, async_page_%s, a, err);\n"
                    "}\n\n",
                    N, N);
    sdkc_buf_printf(b,
                    "%s_status %s_%s_continue_async(%s_client *client, const %s_%s_cursor "
                    "*cursor, const %s_call_options *call,\n"
                    "    %s_%s_page_done done, void *userdata, %s_error **err)\n{\n"
                    "    sdkrt_request *req = NULL;\n",
                    P, P, N, P, P, N, P, P, N, P);
    put_check(cx, b, o, "done != NULL", "done");
    sdkc_buf_printf(b,
                    " || %s_cursor_request(&req, cursor, err) != SDKRT_OK)\n"
                    "        return SDKRT_ERR;\n"
                    "    return async_send(client, req, call, &op_%s, async_page_%s,\n"
                    "                      async_call_new((void (*)(void))done, userdata, %zu, "
                    "%s), err);\n}\n\n",
                    N, N, N, np, np ? "cursor->path" : "NULL");
}

static void emit_page_engine_c(emit_ctx *cx, sdkc_buf *b, const cop *o, const char *req_arg)
{
    const char *P = cx->prefix, *N = o->name;
    sdkc_buf_printf(b, "ASYNC_PAGES_(%s)\n", N);
    if (emit_async_macro_form(o)) {
        sdkc_buf_printf(b,
                        "const %s__async_op %s__ao_%s = {&req_%s, &op_%s, NULL, 0, &paged_%s, "
                        "async_pages_%s};\n\n",
                        P, P, N, N, N, N, N);
        return;
    }
    sdkc_buf_printf(b,
                    "%s_status %s_%s_page_async(%s_client *client, %sconst %s_call_options "
                    "*call,\n    %s_%s_page_done done, void *userdata, %s_error **err)\n{\n"
                    "    sdkrt_request *req = NULL;\n",
                    P, P, N, P, req_arg, P, P, N, P);
    put_check(cx, b, o, "done != NULL", "done");
    sdkc_buf_printf(b,
                    " || build_%s(&req%s, err) != SDKRT_OK)\n        return SDKRT_ERR;\n"
                    "    sdkrt_status st = async_pages_send(client, req, NULL, call, &paged_%s, "
                    "async_pages_%s,\n"
                    "                                       async_call_new((void (*)(void))done, "
                    "userdata, 0, NULL), err);\n"
                    "    sdkrt_request_free(req);\n    return st;\n}\n\n",
                    N, o->has_request ? ", request" : "", N, N);
    sdkc_buf_printf(b,
                    "%s_status %s_%s_continue_async(%s_client *client, const %s_%s_cursor "
                    "*cursor, const %s_call_options *call,\n"
                    "    %s_%s_page_done done, void *userdata, %s_error **err)\n{\n",
                    P, P, N, P, P, N, P, P, N, P);
    put_check(cx, b, o, "done && cursor", "done and cursor");
    sdkc_buf_printf(b,
                    ")\n        return SDKRT_ERR;\n"
                    "    const struct page_cursor *c = (const struct page_cursor *)cursor;\n"
                    "    if (c->why)\n        return page_cursor_why(c, err);\n"
                    "    return async_pages_send(client, c->req, c->walk, call, &paged_%s, "
                    "async_pages_%s,\n"
                    "                            async_call_new((void (*)(void))done, userdata, 0, "
                    "NULL), err);\n}\n\n",
                    N, N);
}

static void emit_stream_c(emit_ctx *cx, sdkc_buf *b, const cop *o, const char *req_arg)
{
    const char *P = cx->prefix, *N = o->name;
    sdkc_buf_printf(b, "ASYNC_ITEM_(%s, %s)\n", N, emit_const_ptr(cx, o->item->cdecl));
    sdkc_buf_printf(b,
                    "%s_status %s_%s_start(%s_async_stream **out, %s_client *client, %sconst "
                    "%s_call_options *call,\n    const %s_%s_handlers *handlers, void *userdata, "
                    "%s_error **err)\n{\n    sdkrt_request *req = NULL;\n"
                    "    if (out)\n        *out = NULL;\n",
                    P, P, N, P, P, req_arg, P, P, N, P);
    put_check(cx, b, o, "handlers != NULL", "handlers");
    sdkc_buf_printf(b,
                    " || build_%s(&req%s, err) != SDKRT_OK)\n        return SDKRT_ERR;\n"
                    "    return async_stream_start(out, client, req, call, &op_%s,\n"
                    "                              async_stream_new(async_item_%s, "
                    "ASYNC_HANDLERS_(handlers), userdata), err);\n}\n\n",
                    N, o->has_request ? ", request" : "", N, N);
    if (!emit_follow_ok(o))
        return;
    sdkc_buf_printf(b,
                    "static sdkrt_status async_follow_request_%s(void *userdata, const int64_t "
                    "*after, sdkrt_request **out, sdkrt_error **err)\n{\n"
                    "    const async_stream *s = userdata;\n"
                    "    return %s_follow_request(s->request, after, out, err);\n}\n\n",
                    N, N);
    sdkc_buf_printf(b,
                    "%s_status %s_%s_follow_start(%s_async_stream **out, %s_client *client, "
                    "const %s_%s_request *request,\n    const %s_follow_options *options, const "
                    "%s_%s_handlers *handlers, void *userdata, %s_error **err)\n{\n"
                    "    sdkrt_follow_options o = SDKRT_FOLLOW_OPTIONS_INIT;\n"
                    "    if (out)\n        *out = NULL;\n",
                    P, P, N, P, P, P, N, P, P, N, P);
    put_check(cx, b, o, "handlers && request", "request and handlers");
    sdkc_buf_printf(b,
                    " || %s_follow_options(&o, client, request, options, err) != SDKRT_OK)\n"
                    "        return SDKRT_ERR;\n"
                    "    return async_follow_start(out, client, &op_%s, request, sizeof *request, "
                    "async_follow_request_%s,\n"
                    "                              &follow_sequence_%s, &o,\n"
                    "                              async_stream_new(async_item_%s, "
                    "ASYNC_HANDLERS_(handlers), userdata), err);\n}\n\n",
                    N, N, N, N, N);
}

void emit_async_c(emit_ctx *cx, sdkc_buf *b, const cop *o, const char *tramp)
{
    const char *req_arg = emit_async_request_arg(cx, o);
    switch (emit_async_shape(o)) {
    case SHAPE_STREAM:
        emit_stream_c(cx, b, o, req_arg);
        break;
    case SHAPE_PAGE_CURSOR:
        emit_page_cursor_c(cx, b, o, req_arg);
        break;
    case SHAPE_PAGE_ENGINE:
        emit_page_engine_c(cx, b, o, req_arg);
        break;
    case SHAPE_UNARY:
        emit_unary_c(cx, b, o, tramp, req_arg);
        break;
    }
}
