/* include/PREFIX/ops.h: the asynchronous forms (ops_async.c has the overview): the event loop's
 * functions and what the forms share (once), and each operation's async form after its blocking
 * one. */
#include "emit_internal.h"
#include "ops_c.h"

#include <string.h>

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
    bool unary = emit_async_any_macro_form(ops, nops, SHAPE_UNARY);
    bool pages = emit_async_any_macro_form(ops, nops, SHAPE_PAGE_ENGINE);
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
    const char *res = emit_async_result_param(cx, o);
    bool by_value = res && emit_async_copied(o) && !strchr(o->result->cdecl, '*');
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
    if (emit_async_macro_form(o)) {
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
    if (emit_async_macro_form(o)) {
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

void emit_async_h(emit_ctx *cx, sdkc_buf *b, const cop *o)
{
    const char *req_arg = emit_async_request_arg(cx, o);
    switch (emit_async_shape(o)) {
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
