/* The asynchronous forms of the operations (include/PREFIX/ops.h and src/ops.c), on the client's
 * loop (sdkrt/loop.h): PREFIX_<op>_async for a unary call, PREFIX_<op>_page_async and
 * _continue_async for a page, PREFIX_<op>_start for a stream and PREFIX_<op>_follow_start for a
 * durable stream's follower. Each callback receives what the blocking call returns, typed.
 *
 * The runtime calls back with untyped values; each operation has one small trampoline (a macro
 * line in ops.c) that calls the caller's function through its own type, never through a cast
 * function type. What the forms share (the context kept until the callback, the checks, the start
 * helpers) is written once in ops.c. */
#include "emit_internal.h"
#include "ops_c.h"

#include <string.h>

typedef enum op_shape { SHAPE_UNARY, SHAPE_PAGE_CURSOR, SHAPE_PAGE_ENGINE, SHAPE_STREAM } op_shape;

/* The same dispatch as emit_ops_c's. */
static op_shape shape_of(const cop *o)
{
    if (o->op->stream && o->item)
        return SHAPE_STREAM;
    if (o->op->pagination && emit_page_ok(o))
        return emit_page_cursor_object(o) ? SHAPE_PAGE_CURSOR : SHAPE_PAGE_ENGINE;
    return SHAPE_UNARY;
}

/* A unary result that the blocking call copies out of the runtime's storage (a scalar, a char *,
 * a json_t *): the callback gets it by value. */
static bool copied(const cop *o)
{
    return shape_of(o) == SHAPE_UNARY && !(o->several && !o->several_shared) &&
           o->op->success.encoding == SDKC_ENC_JSON && o->result && o->result->stores &&
           !o->result->is_struct;
}

/* Is the async form a macro over a shared function and the operation's descriptor (P__ao_<op>)?
 * Unary calls and engine pages whose request is a table: a public function each would cost big
 * SDKs a compile of two functions per operation. Streams and the rest keep functions. */
static bool macro_form(const cop *o)
{
    op_shape sh = shape_of(o);
    return emit_builder_table_ok(o) && (sh == SHAPE_UNARY || sh == SHAPE_PAGE_ENGINE);
}

static bool any_macro_form(const cop *ops, size_t nops, op_shape shape)
{
    for (size_t i = 0; i < nops; i++)
        if (macro_form(&ops[i]) && shape_of(&ops[i]) == shape)
            return true;
    return false;
}

/* The callback's result parameter: the blocking call's out parameter one pointer less ("oc_x
 * **out" -> "oc_x *result", "double *out" -> "double result"), or NULL when it has none. */
static const char *result_param(emit_ctx *cx, const cop *o)
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

/* ---- include/PREFIX/ops.h ---- */

void emit_async_shared_h(emit_ctx *cx, sdkc_buf *b, const cop *ops, size_t nops)
{
    const char *P = cx->prefix, *U = cx->upper;
    sdkc_buf_printf(
        b,
        "/* Event loops (sdkrt/loop.h). A client whose options name a loop "
        "(%s_client_options.loop) "
        "also\n * serves the _async, _start and _follow_start forms of the operations: they "
        "return at once and\n * report on the loop's thread through callbacks. The built-in "
        "loop runs with %s_loop_run; the\n * adapters sdkrt/adapters/uv.h (sdkrt_uv_loop_new) "
        "and sdkrt/adapters/event.h\n * (sdkrt_event_loop_new) put the calls on a libuv or "
        "libevent loop instead. Async calls are\n * started and their callbacks run on the "
        "loop's thread only; the same client still serves\n * blocking calls from any thread, "
        "and a cancel token may be triggered from anywhere. */\n"
        "%s_status %s_loop_new(%s_loop **out, %s_error **err); /* *out new: %s_loop_free */\n"
        "/* Run until nothing is pending or %s_loop_stop (built-in loops only). */\n"
        "%s_status %s_loop_run(%s_loop *loop, %s_error **err);\n"
        "/* Wait up to timeout_ms (-1: until something happens) and handle what is ready, once. "
        "*/\n"
        "%s_status %s_loop_run_once(%s_loop *loop, long timeout_ms, %s_error **err);\n"
        "void %s_loop_stop(%s_loop *loop); /* %s_loop_run returns after the current step */\n"
        "/* Every call still pending is cancelled first (its callback runs once with CANCELLED). "
        "NULL is a no-op. */\n"
        "void %s_loop_free(%s_loop *loop);\n"
        "/* A one-shot timer: fn(userdata) runs on the loop thread after ms unless cancelled "
        "first (backoff,\n * retries of the program's own); *out (may be NULL) is borrowed "
        "until fn runs or the cancel. */\n"
        "%s_status %s_loop_timer_start(%s_loop_timer **out, %s_loop *loop, long ms, "
        "void (*fn)(void *userdata),\n    void *userdata, %s_error **err);\n"
        "void %s_loop_timer_cancel(%s_loop_timer *timer);\n"
        "/* A started stream or follower (borrowed from the runtime until its on_end returns): "
        "pause stops\n * reading (backpressure) until resume; cancel ends it (on_end runs once "
        "with CANCELLED unless it\n * already ran). Loop thread only. */\n"
        "void %s_async_stream_pause(%s_async_stream *stream);\n"
        "void %s_async_stream_resume(%s_async_stream *stream);\n"
        "void %s_async_stream_cancel(%s_async_stream *stream);\n"
        "/* A new copy of err (%s_error_free; NULL when out of memory), to keep an error a "
        "callback borrows. A DOMAIN\n * error's payload is copied too. */\n"
        "%s_error *%s_error_copy(const %s_error *err);\n"
        "/* Every async form reads request before it returns (NULL as for the blocking call; a "
        "follower copies\n * the struct, what it points to stays borrowed until on_end) and "
        "copies call (its cancel token stays\n * borrowed until the last callback). It returns "
        "%s_ERR with "
        "*err only when the call cannot\n * start (no loop in the client's options, a bad "
        "request, out of memory): then no callback runs.\n * Otherwise its callback runs "
        "exactly once (streams: on_end), also after a cancel or %s_loop_free\n * (CANCELLED). "
        "Values a callback receives as new are its own; everything else is borrowed until\n * "
        "it returns (errors too: %s_error_copy keeps one). */\n\n",
        P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P,
        P, P, P, P, P, P, P, cx->upper, P, P);
    bool unary = any_macro_form(ops, nops, SHAPE_UNARY);
    bool pages = any_macro_form(ops, nops, SHAPE_PAGE_ENGINE);
    if (!unary && !pages)
        return;
    sdkc_buf_printf(b,
                    "/* Most async forms are macros over these functions and the operation's "
                    "descriptor (%s__ao_<op>),\n * as the per-type functions are: the arguments "
                    "are checked as a function's would be. */\n"
                    "typedef struct %s__async_op %s__async_op;\n"
                    "#define %s_AS_DONE_(T, f) ((void (*)(void))(1 ? (f) : (T)0))\n",
                    P, P, P, U);
    if (unary)
        sdkc_buf_printf(b,
                        "%s_status %s__async_call(const %s__async_op *op, %s_client *client, const "
                        "void *request,\n    const %s_call_options *call, void (*done)(void), "
                        "void *userdata, %s_error **err);\n",
                        P, P, P, P, P, P);
    if (pages)
        sdkc_buf_printf(b,
                        "%s_status %s__async_page(const %s__async_op *op, %s_client *client, const "
                        "void *request,\n    const %s_call_options *call, void (*done)(void), "
                        "void *userdata, %s_error **err);\n"
                        "%s_status %s__async_continue(const %s__async_op *op, %s_client *client, "
                        "const void *cursor,\n    const %s_call_options *call, void (*done)(void), "
                        "void *userdata, %s_error **err);\n",
                        P, P, P, P, P, P, P, P, P, P, P, P);
    sdkc_buf_putc(b, '\n');
}

static void emit_unary_h(emit_ctx *cx, sdkc_buf *b, const cop *o, const char *req_arg)
{
    const char *P = cx->prefix, *N = o->name;
    const char *res = result_param(cx, o);
    bool by_value = res && copied(o) && !strchr(o->result->cdecl, '*');
    sdkc_buf_printf(b, "/* %s_%s on the client's loop: done gets ", P, N);
    if (by_value)
        sdkc_buf_puts(b, "the result (0 on error), ");
    else if (res)
        sdkc_buf_puts(b, "result new (the callback owns it; NULL on error), ");
    if (o->several)
        sdkc_buf_puts(b, "the success status (0 on error), ");
    sdkc_buf_puts(b, "err\n * (borrowed; NULL on success). */\n");
    sdkc_buf_printf(b, "typedef void (*%s_%s_done)(void *userdata, ", P, N);
    if (res)
        sdkc_buf_printf(b, "%s, ", res);
    if (o->several)
        sdkc_buf_puts(b, "int status, ");
    sdkc_buf_printf(b, "const %s_error *err);\n", P);
    if (macro_form(o)) {
        const char *U = cx->upper;
        sdkc_buf_printf(b,
                        "extern const %s__async_op %s__ao_%s;\n"
                        "#define %s_%s_async(client, %scall, done, userdata, err) "
                        "%s__async_call(&%s__ao_%s, client, ",
                        P, P, N, P, N, o->has_request ? "request, " : "", P, P, N);
        if (o->has_request)
            sdkc_buf_printf(b, "%s_AS_CONST_(%s_%s_request, request), ", U, P, N);
        else
            sdkc_buf_puts(b, "NULL, ");
        sdkc_buf_printf(b, "call, %s_AS_DONE_(%s_%s_done, done), userdata, err)\n", U, P, N);
        return;
    }
    sdkc_buf_printf(b,
                    "%s_status %s_%s_async(%s_client *client, %sconst %s_call_options *call, "
                    "%s_%s_done done,\n    void *userdata, %s_error **err);\n",
                    P, P, N, P, req_arg, P, P, N, P);
}

static void emit_page_h(emit_ctx *cx, sdkc_buf *b, const cop *o, const char *req_arg)
{
    const char *P = cx->prefix, *N = o->name;
    sdkc_buf_printf(b,
                    "/* One page of %s on the client's loop: done gets the page new (the callback "
                    "owns it: %s_%s_page_free;\n * NULL on error) and err borrowed; the page's "
                    "next cursor continues with %s_%s_continue_async\n * (the cursor is read "
                    "when that returns). */\n"
                    "typedef void (*%s_%s_page_done)(void *userdata, %s_%s_page *page, const "
                    "%s_error *err);\n",
                    N, P, N, P, N, P, N, P, N, P);
    if (macro_form(o)) {
        const char *U = cx->upper;
        sdkc_buf_printf(b,
                        "extern const %s__async_op %s__ao_%s;\n"
                        "#define %s_%s_page_async(client, %scall, done, userdata, err) "
                        "%s__async_page(&%s__ao_%s, client, ",
                        P, P, N, P, N, o->has_request ? "request, " : "", P, P, N);
        if (o->has_request)
            sdkc_buf_printf(b, "%s_AS_CONST_(%s_%s_request, request), ", U, P, N);
        else
            sdkc_buf_puts(b, "NULL, ");
        sdkc_buf_printf(b, "call, %s_AS_DONE_(%s_%s_page_done, done), userdata, err)\n", U, P, N);
        sdkc_buf_printf(b,
                        "#define %s_%s_continue_async(client, cursor, call, done, userdata, err) "
                        "%s__async_continue(&%s__ao_%s, client, %s_AS_CONST_(%s_%s_cursor, "
                        "cursor), call, %s_AS_DONE_(%s_%s_page_done, done), userdata, err)\n",
                        P, N, P, P, N, U, P, N, U, P, N);
        return;
    }
    sdkc_buf_printf(b,
                    "%s_status %s_%s_page_async(%s_client *client, %sconst %s_call_options *call,\n"
                    "    %s_%s_page_done done, void *userdata, %s_error **err);\n",
                    P, P, N, P, req_arg, P, P, N, P);
    sdkc_buf_printf(b,
                    "%s_status %s_%s_continue_async(%s_client *client, const %s_%s_cursor *cursor, "
                    "const %s_call_options *call,\n    %s_%s_page_done done, void *userdata, "
                    "%s_error **err);\n",
                    P, P, N, P, P, N, P, P, N, P);
}

static void emit_stream_h(emit_ctx *cx, sdkc_buf *b, const cop *o, const char *req_arg)
{
    const char *P = cx->prefix, *N = o->name;
    bool follow = emit_follow_ok(o);
    sdkc_buf_printf(
        b,
        "/* What %s_%s_start%s reports on the loop thread; every argument is borrowed until the "
        "callback\n * returns. NULL members are not called; on_poison NULL makes the stream "
        "strict (an item that does\n * not decode ends it with MALFORMED_RESPONSE). on_end "
        "runs exactly once (err NULL: a clean end);\n * the stream handle is gone when it "
        "returns. */\n"
        "typedef struct %s_%s_handlers {\n"
        "    void (*on_item)(void *userdata, %sitem);\n"
        "    void (*on_poison)(void *userdata, const %s_stream_poison *poison);\n"
        "    void (*on_reconnect)(void *userdata, const %s_follow_event *event); /* followers */\n"
        "    void (*on_end)(void *userdata, const %s_error *err);\n"
        "} %s_%s_handlers;\n",
        P, N, follow ? sdkc_arena_printf(cx->arena, " and %s_%s_follow_start", P, N) : "", P, N,
        emit_const_ptr(cx, o->item->cdecl), P, P, P, P, N);
    sdkc_buf_printf(b,
                    "/* The stream of %s_%s_open on the client's loop: handlers is copied; *out "
                    "(may be NULL) is the\n * handle for pause, resume and cancel until on_end. "
                    "*/\n"
                    "%s_status %s_%s_start(%s_async_stream **out, %s_client *client, %sconst "
                    "%s_call_options *call,\n    const %s_%s_handlers *handlers, void *userdata, "
                    "%s_error **err);\n",
                    P, N, P, P, N, P, P, req_arg, P, P, N, P);
    if (follow)
        sdkc_buf_printf(b,
                        "/* The follower of %s_%s_follow_new on the client's loop (request "
                        "copied as a struct, what it\n * points to borrowed until on_end); "
                        "backoff waits on loop timers, each reopen is an on_reconnect. */\n"
                        "%s_status %s_%s_follow_start(%s_async_stream **out, %s_client *client, "
                        "const %s_%s_request *request,\n    const %s_follow_options *options, "
                        "const %s_%s_handlers *handlers, void *userdata, %s_error **err);\n",
                        P, N, P, P, N, P, P, P, N, P, P, N, P);
}

/* The request parameter of an operation's async forms ("" when it takes none). */
static const char *request_arg(emit_ctx *cx, const cop *o)
{
    return o->has_request
               ? sdkc_arena_printf(cx->arena, "const %s_%s_request *request, ", cx->prefix, o->name)
               : "";
}

void emit_async_h(emit_ctx *cx, sdkc_buf *b, const cop *o)
{
    const char *req_arg = request_arg(cx, o);
    switch (shape_of(o)) {
    case SHAPE_STREAM:
        emit_stream_h(cx, b, o, req_arg);
        break;
    case SHAPE_PAGE_CURSOR:
    case SHAPE_PAGE_ENGINE:
        emit_page_h(cx, b, o, req_arg);
        break;
    case SHAPE_UNARY:
        emit_unary_h(cx, b, o, req_arg);
        break;
    }
}

/* ---- src/ops.c ---- */

void emit_async_shared_c(emit_ctx *cx, sdkc_buf *b, const cop *ops, size_t nops)
{
    const char *P = cx->prefix;
    bool any[4] = {false, false, false, false};
    for (size_t i = 0; i < nops; i++)
        any[shape_of(&ops[i])] = true;
    sdkc_buf_printf(
        b,
        "/* ---- event loops and what the asynchronous forms share ---- */\n\n"
        "%s_status %s_loop_new(%s_loop **out, %s_error **err)\n{\n"
        "    return sdkrt_loop_new(out, err);\n}\n\n"
        "%s_status %s_loop_run(%s_loop *loop, %s_error **err)\n{\n"
        "    return sdkrt_loop_run(loop, err);\n}\n\n"
        "%s_status %s_loop_run_once(%s_loop *loop, long timeout_ms, %s_error **err)\n{\n"
        "    return sdkrt_loop_run_once(loop, timeout_ms, err);\n}\n\n"
        "void %s_loop_stop(%s_loop *loop)\n{\n    sdkrt_loop_stop(loop);\n}\n\n"
        "void %s_loop_free(%s_loop *loop)\n{\n    sdkrt_loop_free(loop);\n}\n\n"
        "%s_status %s_loop_timer_start(%s_loop_timer **out, %s_loop *loop, long ms, "
        "void (*fn)(void *userdata),\n    void *userdata, %s_error **err)\n{\n"
        "    return sdkrt_loop_timer_start(out, loop, ms, fn, userdata, err);\n}\n\n"
        "void %s_loop_timer_cancel(%s_loop_timer *timer)\n{\n"
        "    sdkrt_loop_timer_cancel(timer);\n}\n\n"
        "void %s_async_stream_pause(%s_async_stream *stream)\n{\n"
        "    sdkrt_async_stream_pause(stream);\n}\n\n"
        "void %s_async_stream_resume(%s_async_stream *stream)\n{\n"
        "    sdkrt_async_stream_resume(stream);\n}\n\n"
        "void %s_async_stream_cancel(%s_async_stream *stream)\n{\n"
        "    sdkrt_async_stream_cancel(stream);\n}\n\n"
        "%s_error *%s_error_copy(const %s_error *err)\n{\n    return sdkrt_error_copy(err);\n}\n\n",
        P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P,
        P);
    sdkc_buf_puts(
        b, "/* The shared helpers stay one function each (not copied into every operation). */\n"
           "#ifndef NOINLINE_\n#if defined(__GNUC__)\n#define NOINLINE_ __attribute__((noinline))\n"
           "#else\n#define NOINLINE_\n#endif\n#endif\n\n"
           "/* The checks every start function makes first. */\n"
           "NOINLINE_ static sdkrt_status async_check(const void *client, bool ok, const char *id, "
           "const char "
           "*what, sdkrt_error **err)\n{\n"
           "    if (!client || !ok)\n"
           "        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT, \"%s: client and %s "
           "are required\", id, what);\n"
           "    return SDKRT_OK;\n}\n\n");
    if (any[SHAPE_UNARY] || any[SHAPE_PAGE_CURSOR] || any[SHAPE_PAGE_ENGINE]) {
        sdkc_buf_puts(
            b,
            "/* What a unary or page call keeps until its callback: the caller's callback (of the "
            "operation's\n * own type: its trampoline calls it as that type) and userdata; a "
            "response made ahead (several\n * successes); a page's path parameter texts. */\n"
            "typedef struct async_call {\n    void (*fn)(void);\n    void *userdata;\n"
            "    void *ahead;\n    char **path;\n    size_t npath;\n} async_call;\n\n"
            "NOINLINE_ static void async_call_free(async_call *a)\n{\n    if (!a)\n        "
            "return;\n"
            "    for (size_t i = 0; i < a->npath; i++)\n        free(a->path[i]);\n"
            "    free(a->path);\n    free(a->ahead);\n    free(a);\n}\n\n"
            "/* A new context (NULL when out of memory) with room for npath path texts, copied "
            "from path when\n * given. */\n"
            "NOINLINE_ static async_call *async_call_new(void (*fn)(void), void *userdata, size_t "
            "npath, "
            "char *const *path)\n{\n"
            "    async_call *a = calloc(1, sizeof *a);\n    if (!a)\n        return NULL;\n"
            "    a->fn = fn;\n    a->userdata = userdata;\n"
            "    if (npath && !(a->path = calloc(npath, sizeof *a->path))) {\n"
            "        free(a);\n        return NULL;\n    }\n    a->npath = npath;\n"
            "    for (size_t i = 0; path && i < npath; i++) {\n"
            "        size_t n = path[i] ? strlen(path[i]) + 1 : 0;\n"
            "        if (n && !(a->path[i] = malloc(n))) {\n            async_call_free(a);\n"
            "            return NULL;\n        }\n        if (n)\n"
            "            memcpy(a->path[i], path[i], n);\n    }\n    return a;\n}\n\n");
    }
    if (any[SHAPE_UNARY] || any[SHAPE_PAGE_CURSOR])
        sdkc_buf_puts(
            b,
            "/* Hand req (freed here) to the runtime with the operation's trampoline; a (NULL: out "
            "of memory)\n * belongs to the trampoline once started. */\n"
            "NOINLINE_ static sdkrt_status async_send(sdkrt_client *client, sdkrt_request *req, "
            "const "
            "sdkrt_call_options *call, const sdkrt_jop *op,\n"
            "    void (*done)(void *, void *, int, const sdkrt_error *), async_call *a, "
            "sdkrt_error **err)\n{\n"
            "    sdkrt_status st = a ? sdkrt_json_call_async(client, req, call, op, done, a, err)\n"
            "                        : sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, \"out of "
            "memory\");\n"
            "    if (st != SDKRT_OK)\n        async_call_free(a);\n"
            "    sdkrt_request_free(req);\n    return st;\n}\n\n");
    bool unary_macros = any_macro_form(ops, nops, SHAPE_UNARY);
    bool page_macros = any_macro_form(ops, nops, SHAPE_PAGE_ENGINE);
    if (unary_macros || page_macros)
        sdkc_buf_printf(
            b,
            "/* The descriptor of an async form that ops.h spells as a macro: the request table, "
            "the operation,\n * a unary call's trampoline and, for several successes of "
            "different types, the size of the response\n * made ahead; an engine page's "
            "description and trampoline. */\n"
            "struct paged_desc;\nstruct page_parts;\n"
            "struct %s__async_op {\n    const req_desc *req;\n    const sdkrt_jop *op;\n"
            "    void (*done)(void *, void *, int, const sdkrt_error *);\n    size_t ahead;\n"
            "    const struct paged_desc *paged;\n"
            "    void (*finish)(async_call *a, struct page_parts *p, sdkrt_status st, const "
            "sdkrt_error *err);\n};\n\n",
            P);
    if (unary_macros)
        sdkc_buf_printf(
            b,
            "%s_status %s__async_call(const %s__async_op *d, %s_client *client, const void "
            "*request,\n    const %s_call_options *call, void (*fn)(void), void *userdata, "
            "%s_error **err)\n{\n"
            "    sdkrt_request *req = NULL;\n"
            "    if (async_check(client, fn != NULL, d->op->id, \"done\", err) != SDKRT_OK ||\n"
            "        build_request(&req, d->req, request, err) != SDKRT_OK)\n"
            "        return SDKRT_ERR;\n"
            "    async_call *a = async_call_new(fn, userdata, 0, NULL);\n"
            "    if (a && d->ahead && !(a->ahead = calloc(1, d->ahead))) {\n"
            "        async_call_free(a);\n        a = NULL;\n    }\n"
            "    return async_send(client, req, call, d->op, d->done, a, err);\n}\n\n",
            P, P, P, P, P, P);
    if (any[SHAPE_UNARY]) {
        sdkc_buf_printf(
            b,
            "/* The trampolines of unary calls: what the runtime's completion gives (out new, "
            "status, err\n * borrowed), as the operation's callback takes it (ARGS). Operations "
            "whose callbacks have the same\n * type share the first one's. */\n"
            "#define ASYNC_DONE_(N, ARGS)                                                     \\\n"
            "    static void async_done_##N(void *ud, void *out, int status, const sdkrt_error "
            "*err) \\\n"
            "    {                                                                        \\\n"
            "        async_call *a = ud;                                                  \\\n"
            "        (void)out;                                                           \\\n"
            "        (void)status;                                                        \\\n"
            "        ((%s_##N##_done)a->fn) ARGS;                                        \\\n"
            "        async_call_free(a);                                                  \\\n"
            "    }\n"
            "/* A result the blocking call copies out of the runtime's storage (type T): by value. "
            "*/\n"
            "#define ASYNC_COPY_(N, T, ARGS)                                                  \\\n"
            "    static void async_done_##N(void *ud, void *out, int status, const sdkrt_error "
            "*err) \\\n"
            "    {                                                                        \\\n"
            "        async_call *a = ud;                                                  \\\n"
            "        T v;                                                                 \\\n"
            "        memset(&v, 0, sizeof v);                                             \\\n"
            "        (void)status;                                                        \\\n"
            "        if (out)                                                             \\\n"
            "            v = *(T *)out;                                                   \\\n"
            "        free(out);                                                           \\\n"
            "        ((%s_##N##_done)a->fn) ARGS;                                        \\\n"
            "        async_call_free(a);                                                  \\\n"
            "    }\n"
            "/* Several successes with different types: the response made ahead gets the result "
            "(N_response_set). */\n"
            "#define ASYNC_RESPONSE_(N)                                                       \\\n"
            "    static void async_done_##N(void *ud, void *out, int status, const sdkrt_error "
            "*err) \\\n"
            "    {                                                                        \\\n"
            "        async_call *a = ud;                                                  \\\n"
            "        %s_##N##_response *r = err ? NULL : a->ahead;                        \\\n"
            "        if (r) {                                                             \\\n"
            "            a->ahead = NULL;                                                 \\\n"
            "            N##_response_set(r, out, status);                                \\\n"
            "        }                                                                    \\\n"
            "        ((%s_##N##_done)a->fn)(a->userdata, r, r ? status : 0, err);         \\\n"
            "        async_call_free(a);                                                  \\\n"
            "    }\n\n",
            P, P, P, P);
    }
    if (any[SHAPE_PAGE_CURSOR])
        sdkc_buf_printf(
            b,
            "/* The trampoline of a page call: the decoded body as a page (N_page_make), with the "
            "path texts\n * its cursors carry. */\n"
            "#define ASYNC_PAGE_(N)                                                           \\\n"
            "    static void async_page_##N(void *ud, void *out, int status, const sdkrt_error "
            "*err) \\\n"
            "    {                                                                        \\\n"
            "        async_call *a = ud;                                                  \\\n"
            "        %s_##N##_page *page = NULL;                                          \\\n"
            "        sdkrt_error *own = NULL;                                             \\\n"
            "        (void)status;                                                        \\\n"
            "        if (!err && N##_page_make(&page, out, a->path, &own) != SDKRT_OK)    \\\n"
            "            err = own;                                                       \\\n"
            "        ((%s_##N##_page_done)a->fn)(a->userdata, page, err);                 \\\n"
            "        sdkrt_error_free(own);                                               \\\n"
            "        async_call_free(a);                                                  \\\n"
            "    }\n\n",
            P, P);
    if (any[SHAPE_PAGE_ENGINE])
        sdkc_buf_printf(
            b,
            "/* A page call of an engine-paged operation: the request sent (kept to make the next "
            "one) and the\n * walk so far, until the response comes. */\n"
            "typedef struct async_pages {\n    async_call *a;\n    sdkrt_client *client;\n"
            "    sdkrt_request *req;\n    sdkrt_page_walk *from;\n    const paged_desc *d;\n"
            "    /* the operation's own: the parts as its page, to its callback */\n"
            "    void (*finish)(async_call *a, page_parts *p, sdkrt_status st, const "
            "sdkrt_error *err);\n} async_pages;\n\n"
            "static void async_pages_free(async_pages *s)\n{\n"
            "    async_call_free(s->a);\n    sdkrt_request_free(s->req);\n"
            "    sdkrt_page_walk_free(s->from);\n    free(s);\n}\n\n"
            "static void async_pages_sent(void *ud, sdkrt_response *resp, const sdkrt_error "
            "*err)\n{\n"
            "    async_pages *s = ud;\n    page_parts p;\n    sdkrt_error *own = NULL;\n"
            "    sdkrt_status st = SDKRT_ERR;\n    memset(&p, 0, sizeof p);\n"
            "    if (!err && (st = page_parts_make(&p, s->client, s->req, s->from, resp, s->d, "
            "&own)) != SDKRT_OK)\n        err = own;\n"
            "    sdkrt_response_free(resp);\n    s->finish(s->a, &p, st, err);\n"
            "    s->a = NULL; /* the finish released it */\n"
            "    sdkrt_error_free(own);\n    async_pages_free(s);\n}\n\n"
            "/* Send a copy of req (borrowed) continuing the walk from (borrowed, may be NULL). "
            "*/\n"
            "NOINLINE_ static sdkrt_status async_pages_send(sdkrt_client *client, const "
            "sdkrt_request *req, "
            "const sdkrt_page_walk *from,\n"
            "    const sdkrt_call_options *call, const paged_desc *d,\n"
            "    void (*finish)(async_call *, page_parts *, sdkrt_status, const sdkrt_error *), "
            "async_call *a, sdkrt_error **err)\n{\n"
            "    async_pages *s = a ? calloc(1, sizeof *s) : NULL;\n"
            "    if (s)\n        s->a = a;\n    else\n        async_call_free(a);\n"
            "    if (!s || sdkrt_request_copy(&s->req, req) != SDKRT_OK ||\n"
            "        (from && sdkrt_page_walk_new(&s->from, from, NULL) != SDKRT_OK)) {\n"
            "        if (s)\n            async_pages_free(s);\n"
            "        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, \"out of "
            "memory\");\n    }\n"
            "    s->client = client;\n    s->d = d;\n    s->finish = finish;\n"
            "    if (sdkrt_client_send_async(client, s->req, call, async_pages_sent, s, err) != "
            "SDKRT_OK) {\n"
            "        async_pages_free(s);\n        return SDKRT_ERR;\n    }\n"
            "    return SDKRT_OK;\n}\n\n"
            "/* The trampoline of an engine page: the parts as the operation's page "
            "(N_page_from), to its callback. */\n"
            "#define ASYNC_PAGES_(N)                                                          \\\n"
            "    static void async_pages_##N(async_call *a, page_parts *p, sdkrt_status st, "
            "const sdkrt_error *err) \\\n"
            "    {                                                                        \\\n"
            "        %s_##N##_page *page = NULL;                                          \\\n"
            "        sdkrt_error *own = NULL;                                             \\\n"
            "        if (!err && st == SDKRT_OK && N##_page_from(p, &page, &own) != SDKRT_OK) \\\n"
            "            err = own;                                                       \\\n"
            "        ((%s_##N##_page_done)a->fn)(a->userdata, page, err);                 \\\n"
            "        sdkrt_error_free(own);                                               \\\n"
            "        async_call_free(a);                                                  \\\n"
            "    }\n\n",
            P, P);
    if (page_macros)
        sdkc_buf_printf(
            b,
            "%s_status %s__async_page(const %s__async_op *d, %s_client *client, const void "
            "*request,\n    const %s_call_options *call, void (*fn)(void), void *userdata, "
            "%s_error **err)\n{\n"
            "    sdkrt_request *req = NULL;\n"
            "    if (async_check(client, fn != NULL, d->op->id, \"done\", err) != SDKRT_OK ||\n"
            "        build_request(&req, d->req, request, err) != SDKRT_OK)\n"
            "        return SDKRT_ERR;\n"
            "    sdkrt_status st = async_pages_send(client, req, NULL, call, d->paged, "
            "d->finish,\n"
            "                                       async_call_new(fn, userdata, 0, NULL), "
            "err);\n"
            "    sdkrt_request_free(req);\n    return st;\n}\n\n"
            "%s_status %s__async_continue(const %s__async_op *d, %s_client *client, const void "
            "*cursor,\n    const %s_call_options *call, void (*fn)(void), void *userdata, "
            "%s_error **err)\n{\n"
            "    if (async_check(client, fn && cursor, d->op->id, \"done and cursor\", err) != "
            "SDKRT_OK)\n        return SDKRT_ERR;\n"
            "    const struct page_cursor *c = cursor;\n"
            "    if (c->why)\n        return page_cursor_why(c, err);\n"
            "    return async_pages_send(client, c->req, c->walk, call, d->paged, d->finish,\n"
            "                            async_call_new(fn, userdata, 0, NULL), err);\n}\n\n",
            P, P, P, P, P, P, P, P, P, P, P, P);
    if (any[SHAPE_STREAM]) {
        bool any_follow = false;
        for (size_t i = 0; i < nops; i++)
            any_follow =
                any_follow || (shape_of(&ops[i]) == SHAPE_STREAM && emit_follow_ok(&ops[i]));
        sdkc_buf_printf(
            b,
            "/* What an async stream keeps until its end: the caller's handlers (on_item of the "
            "operation's own\n * item type, called by its trampoline) and userdata, what the "
            "runtime calls, a follower's request. */\n"
            "typedef struct async_stream {\n    void (*on_item)(void);\n"
            "    void (*on_poison)(void *, const sdkrt_jstream_poison *);\n"
            "    void (*on_reconnect)(void *, const sdkrt_follow_event *);\n"
            "    void (*on_end)(void *, const sdkrt_error *);\n    void *userdata;\n"
            "    sdkrt_stream_handlers rt;\n    void *request; /* a follower's copy of the "
            "request struct */\n} async_stream;\n\n"
            "static void async_poison(void *ud, const void *poison)\n{\n"
            "    const async_stream *s = ud;\n    s->on_poison(s->userdata, poison);\n}\n\n"
            "static void async_reconnect(void *ud, const void *event)\n{\n"
            "    const async_stream *s = ud;\n    if (s->on_reconnect)\n"
            "        s->on_reconnect(s->userdata, event);\n}\n\n"
            "static void async_end(void *ud, const sdkrt_error *err)\n{\n"
            "    async_stream *s = ud;\n    if (s->on_end)\n        s->on_end(s->userdata, err);\n"
            "    free(s->request);\n    free(s);\n}\n\n"
            "/* The members of an operation's PREFIX_<op>_handlers, in async_stream_new's order. "
            "*/\n"
            "#define ASYNC_HANDLERS_(h) (void (*)(void))(h)->on_item, (h)->on_poison, "
            "(h)->on_reconnect, (h)->on_end\n\n"
            "/* A stream's context (NULL when out of memory); item is the operation's trampoline. "
            "*/\n"
            "NOINLINE_ static async_stream *async_stream_new(void (*item)(void *, const void *), "
            "void "
            "(*on_item)(void),\n"
            "    void (*on_poison)(void *, const sdkrt_jstream_poison *), void "
            "(*on_reconnect)(void "
            "*, const sdkrt_follow_event *),\n"
            "    void (*on_end)(void *, const %s_error *), void *userdata)\n{\n"
            "    async_stream *s = calloc(1, sizeof *s);\n    if (!s)\n        return NULL;\n"
            "    s->on_item = on_item;\n    s->on_poison = on_poison;\n"
            "    s->on_reconnect = on_reconnect;\n    s->on_end = on_end;\n"
            "    s->userdata = userdata;\n    s->rt.on_item = item;\n"
            "    s->rt.on_poison = on_poison ? async_poison : NULL; /* NULL: strict */\n"
            "    s->rt.on_reconnect = async_reconnect;\n    s->rt.on_end = async_end;\n"
            "    return s;\n}\n\n"
            "/* Start a typed stream over req (freed here); s (NULL: out of memory) belongs to the "
            "runtime once\n * started. */\n"
            "NOINLINE_ static sdkrt_status async_stream_start(sdkrt_async_stream **out, "
            "sdkrt_client "
            "*client, sdkrt_request *req,\n"
            "    const sdkrt_call_options *call, const sdkrt_jop *op, async_stream *s, sdkrt_error "
            "**err)\n{\n"
            "    sdkrt_status st = s ? sdkrt_jstream_start(out, client, req, call, op, &s->rt, s, "
            "err)\n"
            "                        : sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, \"out of "
            "memory\");\n"
            "    if (st != SDKRT_OK)\n        free(s);\n"
            "    sdkrt_request_free(req);\n    return st;\n}\n\n"
            "/* The trampoline of a stream's items (T: the operation's item pointer). */\n"
            "#define ASYNC_ITEM_(N, T)                                                        \\\n"
            "    static void async_item_##N(void *ud, const void *item)                  \\\n"
            "    {                                                                        \\\n"
            "        const async_stream *s = ud;                                          \\\n"
            "        if (s->on_item)                                                      \\\n"
            "            ((void (*)(void *, T))s->on_item)(s->userdata, item);            \\\n"
            "    }\n\n",
            P);
        if (any_follow)
            sdkc_buf_puts(
                b, "/* Start a follower: s (NULL: out of memory) holds the copy of the request "
                   "(request_size bytes) that\n * make_request rebuilds on each reopen. */\n"
                   "NOINLINE_ static sdkrt_status async_follow_start(sdkrt_async_stream **out, "
                   "sdkrt_client *client, const sdkrt_jop *op,\n    const void *request, "
                   "    size_t request_size, sdkrt_follow_request_fn make_request, const "
                   "sdkrt_follow_sequence *seq,\n"
                   "    const sdkrt_follow_options *o, async_stream *s, sdkrt_error **err)\n{\n"
                   "    if (!s || !(s->request = malloc(request_size))) {\n        free(s);\n"
                   "        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, \"out of "
                   "memory\");\n    }\n"
                   "    memcpy(s->request, request, request_size);\n"
                   "    if (sdkrt_follow_start(out, client, op, make_request, seq, o, &s->rt, s, "
                   "err) != "
                   "SDKRT_OK) {\n"
                   "        free(s->request);\n        free(s);\n        return SDKRT_ERR;\n    }\n"
                   "    return SDKRT_OK;\n}\n\n");
    }
}

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
    const char *res = result_param(cx, o);
    return sdkc_arena_printf(cx->arena, "%s|%s|%d", res ? res : "", copied(o) ? "copy" : "",
                             o->several);
}

const char **emit_async_trampolines(emit_ctx *cx, const cop *ops, size_t nops)
{
    const char **keys = sdkc_arena_alloc(cx->arena, (nops + 1) * sizeof *keys);
    const char **owner = sdkc_arena_alloc(cx->arena, (nops + 1) * sizeof *owner);
    if (!keys || !owner)
        return NULL;
    for (size_t i = 0; i < nops; i++) {
        keys[i] = shape_of(&ops[i]) == SHAPE_UNARY ? trampoline_key(cx, &ops[i]) : NULL;
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
    const char *res = result_param(cx, o);
    const char *st = o->several ? "status, " : "";
    if (strcmp(tramp, N) != 0)
        ; /* the same callback type as an earlier operation's: its trampoline */
    else if (o->several && !o->several_shared)
        sdkc_buf_printf(b, "ASYNC_RESPONSE_(%s)\n", N);
    else if (res && copied(o))
        sdkc_buf_printf(b, "ASYNC_COPY_(%s, %s, (a->userdata, v, %serr))\n", N, o->result->cdecl,
                        st);
    else
        sdkc_buf_printf(b, "ASYNC_DONE_(%s, (a->userdata, %s%serr))\n", N, res ? "out, " : "", st);
    if (macro_form(o)) {
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
    if (macro_form(o)) {
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
    const char *req_arg = request_arg(cx, o);
    switch (shape_of(o)) {
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
