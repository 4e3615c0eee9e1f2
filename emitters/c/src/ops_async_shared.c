/* src/ops.c: what the asynchronous forms share (ops_async.c has the overview), written once after
 * the engine-paged operations' shared code: the event loop's functions, the context kept until
 * the callback, the checks, and the start helpers of the calls, pages and streams in use. */
#include "emit_internal.h"
#include "ops_c.h"

void emit_async_shared_c(emit_ctx *cx, sdkc_buf *b, const cop *ops, size_t nops)
{
    const char *P = cx->prefix;
    bool any[4] = {false, false, false, false};
    for (size_t i = 0; i < nops; i++)
        any[emit_async_shape(&ops[i])] = true;
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
    bool unary_macros = emit_async_any_macro_form(ops, nops, SHAPE_UNARY);
    bool page_macros = emit_async_any_macro_form(ops, nops, SHAPE_PAGE_ENGINE);
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
            any_follow = any_follow ||
                         (emit_async_shape(&ops[i]) == SHAPE_STREAM && emit_follow_ok(&ops[i]));
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
