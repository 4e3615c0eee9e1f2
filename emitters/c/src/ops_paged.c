/* src/ops.c, a paginated operation: the first page, the continuation from a cursor of the
 * operation's own type, and the iterator over all items with one page resident. */
#include "emit_internal.h"
#include "ops_c.h"

#include <stdio.h>
#include <string.h>

void emit_paged(emit_ctx *cx, sdkc_buf *b, const cop *o)
{
    const sdkc_operation *op = o->op;
    const sdkc_pagination *pg = op->pagination;
    const char *P = cx->prefix, *N = o->name;
    const char *body_t = o->result->cdecl;
    const cfield *items = emit_find_field(o->page, pg->items_field);
    const cfield *cur = emit_find_field(o->page, pg->cursor_field);
    const cfield *next = emit_find_field(cur->type, pg->next_field);
    const cfield *prev = pg->previous_field ? emit_find_field(cur->type, pg->previous_field) : NULL;
    size_t np = emit_npath_params(op);
    const char *cursor_t = sdkc_arena_printf(cx->arena, "%s_%s_cursor", P, N);
    const char *page_t = sdkc_arena_printf(cx->arena, "%s_%s_page", P, N);

    sdkc_buf_printf(b, "struct %s {\n    char *value;\n", cursor_t);
    if (np)
        sdkc_buf_printf(b, "    char *path[%zu]; /* path parameter texts */\n", np);
    sdkc_buf_puts(b, "};\n\n");
    sdkc_buf_printf(b,
                    "void %s_free(%s *cursor)\n{\n    if (!cursor)\n        return;\n"
                    "    free(cursor->value);\n",
                    cursor_t, cursor_t);
    if (np)
        sdkc_buf_printf(b, "    for (size_t i = 0; i < %zu; i++)\n        free(cursor->path[i]);\n",
                        np);
    sdkc_buf_puts(b, "    free(cursor);\n}\n\n");

    /* A cursor from a value and path texts (all copied). */
    sdkc_buf_printf(b,
                    "static %s_status %s_cursor_make(%s **out, const char *value, char *const "
                    "*path, %s_error **err)\n{\n",
                    P, N, cursor_t, P);
    sdkc_buf_printf(b,
                    "    %s *c = calloc(1, sizeof *c);\n    *out = NULL;\n"
                    "    if (!c || !(c->value = dup_str(value)))\n        goto oom;\n",
                    cursor_t);
    if (np)
        sdkc_buf_printf(
            b,
            "    for (size_t i = 0; i < %zu; i++) {\n"
            "        if (path[i] && !(c->path[i] = dup_str(path[i])))\n            goto oom;\n"
            "    }\n",
            np);
    else
        sdkc_buf_puts(b, "    (void)path;\n");
    sdkc_buf_printf(b,
                    "    *out = c;\n    return SDKRT_OK;\noom:\n    %s_free(c);\n"
                    "    return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, \"out of "
                    "memory\");\n}\n\n",
                    cursor_t);
    sdkc_buf_printf(b,
                    "%s_status %s_dup(%s **out, const %s *cursor, %s_error **err)\n{\n"
                    "    if (!out || !cursor || !cursor->value)\n        return "
                    "sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT, \"%s: no cursor\");\n"
                    "    return %s_cursor_make(out, cursor->value, %s, err);\n}\n\n",
                    P, cursor_t, cursor_t, cursor_t, P, op->id, N, np ? "cursor->path" : "NULL");
    sdkc_buf_printf(b,
                    "const char *%s_value(const %s *cursor)\n{\n"
                    "    return cursor ? cursor->value : NULL;\n}\n\n",
                    cursor_t, cursor_t);
    sdkc_buf_printf(b,
                    "void %s_free(%s *page)\n{\n    if (!page)\n        return;\n"
                    "    %s_free(page->next);\n    %s_free(page->previous);\n"
                    "    %s_free(page->body);\n    free(page);\n}\n\n",
                    page_t, page_t, cursor_t, cursor_t, body_t);
    /* Wrap a decoded body (stolen) as a page. */
    sdkc_buf_printf(b,
                    "static %s_status %s_page_make(%s **out, %s *body, char *const *path, "
                    "%s_error **err)\n{\n",
                    P, N, page_t, body_t, P);
    sdkc_buf_printf(b,
                    "    %s *page = calloc(1, sizeof *page);\n    *out = NULL;\n    if (!page) {\n"
                    "        %s_free(body);\n        return sdkrt_error_set(err, "
                    "SDKRT_REASON_OUT_OF_MEMORY, \"out of memory\");\n    }\n"
                    "    page->body = body;\n",
                    page_t, body_t);
    sdkc_buf_printf(
        b, "    if %s {\n        page->items = %s.items;\n        page->count = %s.count;\n    }\n",
        emit_field_present(cx, "body", items), emit_field_value(cx, "body", items),
        emit_field_value(cx, "body", items));
    const cfield *ends[2] = {next, prev};
    const char *slot[2] = {"next", "previous"};
    for (int k = 0; k < 2; k++) {
        if (!ends[k])
            continue;
        const char *cv = sdkc_arena_printf(cx->arena, "(&body->%s)", cur->cname);
        sdkc_buf_printf(b, "    if (%s && %s && %s && %s->%s[0] != '\\0' &&\n",
                        emit_field_present(cx, "body", cur), emit_field_present(cx, cv, ends[k]),
                        sdkc_arena_printf(cx->arena, "%s->%s", cv, ends[k]->cname), cv,
                        ends[k]->cname);
        sdkc_buf_printf(b,
                        "        %s_cursor_make(&page->%s, %s->%s, path, err) != SDKRT_OK) {\n"
                        "        %s_free(page);\n        return SDKRT_ERR;\n    }\n",
                        N, slot[k], cv, ends[k]->cname, page_t);
    }
    sdkc_buf_puts(b, "    *out = page;\n    return SDKRT_OK;\n}\n\n");

    /* Send a built request and wrap the result. */
    sdkc_buf_printf(
        b,
        "static %s_status %s_fetch(%s_client *client, const sdkrt_request *req, const "
        "%s_call_options *call,\n    char *const *path, %s **out, %s_error **err)\n{\n"
        "    void *result = NULL;\n"
        "    if (sdkrt_json_call(client, req, call, &op_%s, &result, err) != SDKRT_OK)\n"
        "        return SDKRT_ERR;\n"
        "    return %s_page_make(out, result, path, err);\n}\n\n",
        P, N, P, P, page_t, P, N, N);
    /* The path parameters' texts of a request. */
    sdkc_buf_printf(b,
                    "static %s_status %s_path_texts(char **path, const %s_%s_request *request, "
                    "%s_error **err)\n{\n",
                    P, N, P, N, P);
    if (!np)
        sdkc_buf_puts(b, "    (void)path;\n    (void)request;\n    (void)err;\n");
    else
        sdkc_buf_puts(
            b,
            "    if (!request)\n        return SDKRT_OK; /* build_ refused or defaulted it */\n");
    /* the cursor keeps the path parameters, in template order */
    size_t k = 0;
    for (size_t i = 0; i < op->nparams; i++) {
        const sdkc_param *p = &op->params[i];
        if (!emit_is_ctx_param(op, p))
            continue;
        if (o->params[i]->stores || o->params[i]->literal)
            sdkc_buf_printf(
                b,
                "    if (%ssdkrt_json_param_text(&%s, &request->%s, &path[%zu], err) != "
                "SDKRT_OK)\n        return SDKRT_ERR;\n",
                p->required ? ""
                            : sdkc_arena_printf(cx->arena, "request->has_%s && ", o->pnames[i]),
                emit_desc_name(cx, o->params[i]), o->pnames[i], k);
        k++;
    }
    sdkc_buf_puts(b, "    return SDKRT_OK;\n}\n\n");

    /* a cursor from a kept text */
    sdkc_buf_printf(b, "%s_status %s_new(%s **out, %sconst char *value, %s_error **err)\n{\n", P,
                    cursor_t, cursor_t,
                    np ? sdkc_arena_printf(cx->arena, "const %s_%s_request *request, ", P, N) : "",
                    P);
    sdkc_buf_printf(b,
                    "    char *path[%zu] = {NULL};\n    %s_status st = SDKRT_ERR;\n"
                    "    if (out)\n        *out = NULL;\n"
                    "    if (!out || !value%s)\n        return sdkrt_error_set(err, "
                    "SDKRT_REASON_INVALID_ARGUMENT, \"%s: out, value%s are required\");\n",
                    np ? np : 1, P, np ? " || !request" : "", op->id, np ? " and request" : "");
    if (np)
        sdkc_buf_printf(b,
                        "    if (%s_path_texts(path, request, err) == SDKRT_OK)\n"
                        "        st = %s_cursor_make(out, value, path, err);\n"
                        "    for (size_t i = 0; i < %zu; i++)\n        free(path[i]);\n",
                        N, N, np);
    else
        sdkc_buf_printf(b, "    st = %s_cursor_make(out, value, path, err);\n", N);
    sdkc_buf_puts(b, "    return st;\n}\n\n");

    /* first page */
    sdkc_buf_printf(b,
                    "%s_status %s_%s(%s_client *client, const %s_%s_request *request, const "
                    "%s_call_options *call,\n    %s **out, %s_error **err)\n{\n",
                    P, P, N, P, P, N, P, page_t, P);
    sdkc_buf_printf(b,
                    "    sdkrt_request *req = NULL;\n    char *path[%zu] = {NULL};\n"
                    "    %s_status st = SDKRT_ERR;\n    if (out)\n        *out = NULL;\n"
                    "    if (!client || !out)\n        return sdkrt_error_set(err, "
                    "SDKRT_REASON_INVALID_ARGUMENT, \"%s: client and out are required\");\n"
                    "    if (build_%s(&req, request, err) != SDKRT_OK || %s_path_texts(path, "
                    "request, err) != SDKRT_OK)\n        goto done;\n"
                    "    st = %s_fetch(client, req, call, path, out, err);\ndone:\n",
                    np ? np : 1, P, op->id, N, N, N);
    sdkc_buf_printf(b, "    for (size_t i = 0; i < %zu; i++)\n        free(path[i]);\n",
                    np ? np : 1);
    sdkc_buf_puts(b, "    sdkrt_request_free(req);\n    return st;\n}\n\n");

    /* continuation */
    sdkc_buf_printf(b,
                    "static %s_status %s_cursor_request(sdkrt_request **out, const %s *cursor, "
                    "%s_error **err)\n{\n    sdkrt_request *req = NULL;\n    *out = NULL;\n",
                    P, N, cursor_t, P);
    sdkc_buf_printf(b,
                    "    if (!cursor || !cursor->value)\n        return sdkrt_error_set(err, "
                    "SDKRT_REASON_INVALID_ARGUMENT, \"%s: no cursor\");\n"
                    "    if (sdkrt_request_new(&req, ",
                    op->id);
    sdkc_kit_put_c_string(b, op->method);
    sdkc_buf_puts(b, ", ");
    sdkc_kit_put_c_string(b, op->path);
    sdkc_buf_puts(b, ") != SDKRT_OK)\n        return sdkrt_error_set(err, "
                     "SDKRT_REASON_OUT_OF_MEMORY, \"out of memory\");\n");
    k = 0;
    for (size_t i = 0; i < op->nparams; i++) {
        const sdkc_param *p = &op->params[i];
        if (!emit_is_ctx_param(op, p))
            continue;
        sdkc_buf_puts(b, "    sdkrt_request_set_path_param(req, ");
        sdkc_kit_put_c_string(b, p->wire_name);
        sdkc_buf_printf(b, ", cursor->path[%zu]);\n", k++);
    }
    sdkc_buf_puts(b, "    sdkrt_request_add_query(req, ");
    sdkc_kit_put_c_string(b, pg->cursor_param->wire_name);
    sdkc_buf_puts(b, ", cursor->value);\n"
                     "    if (sdkrt_request_error(req)) {\n        sdkrt_error_set(err, "
                     "SDKRT_REASON_INVALID_ARGUMENT, \"%s\", sdkrt_request_error(req));\n"
                     "        sdkrt_request_free(req);\n        return SDKRT_ERR;\n    }\n");
    emit_accept_and_security(cx, b, op);
    sdkc_buf_puts(b, "    *out = req;\n    return SDKRT_OK;\n}\n\n");
    sdkc_buf_printf(b,
                    "%s_status %s_%s_continue(%s_client *client, const %s *cursor, const "
                    "%s_call_options *call,\n    %s **out, %s_error **err)\n{\n"
                    "    sdkrt_request *req = NULL;\n    if (out)\n        *out = NULL;\n"
                    "    if (!client || !out)\n        return sdkrt_error_set(err, "
                    "SDKRT_REASON_INVALID_ARGUMENT, \"%s: client and out are required\");\n"
                    "    if (%s_cursor_request(&req, cursor, err) != SDKRT_OK)\n"
                    "        return SDKRT_ERR;\n"
                    "    %s_status st = %s_fetch(client, req, call, %s, out, err);\n"
                    "    sdkrt_request_free(req);\n    return st;\n}\n\n",
                    P, P, N, P, cursor_t, P, page_t, P, op->id, N, P, N,
                    np ? "cursor->path" : "NULL");

    /* iterator */
    sdkc_buf lit = SDKC_BUF_INIT;
    sdkc_kit_put_c_string(&lit, pg->cursor_param->wire_name);
    const char *param_lit = sdkc_arena_strdup(cx->arena, lit.data ? lit.data : "\"\"");
    sdkc_buf_cleanup(&lit);
    sdkc_buf_printf(
        b,
        "struct %s_%s_iter {\n    %s_client *client;\n    const %s_call_options *call;\n"
        "    sdkrt_request *first;\n    char *path[%zu];\n    %s *page;\n"
        "    size_t index;\n    bool done;\n"
        "    sdkrt_page_walk *walk; /* the cursors sent, so that the walk ends */\n"
        "    sdkrt_error *why;      /* why it ends, told after the page's items */\n};\n\n",
        P, N, P, P, np ? np : 1, page_t);
    sdkc_buf_printf(b,
                    "void %s_%s_iter_free(%s_%s_iter *it)\n{\n    if (!it)\n        return;\n"
                    "    sdkrt_request_free(it->first);\n"
                    "    for (size_t i = 0; i < %zu; i++)\n        free(it->path[i]);\n"
                    "    %s_free(it->page);\n    sdkrt_page_walk_free(it->walk);\n"
                    "    sdkrt_error_free(it->why);\n    free(it);\n}\n\n",
                    P, N, P, N, np ? np : 1, page_t);
    sdkc_buf_printf(b,
                    "%s_status %s_%s_iter_new(%s_%s_iter **out, %s_client *client, const "
                    "%s_%s_request *request,\n    const %s_call_options *call, %s_error **err)\n{\n"
                    "    if (!out || !client)\n        return sdkrt_error_set(err, "
                    "SDKRT_REASON_INVALID_ARGUMENT, \"%s: client and out are required\");\n"
                    "    *out = NULL;\n    %s_%s_iter *it = calloc(1, sizeof *it);\n"
                    "    if (!it)\n        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "
                    "\"out of memory\");\n"
                    "    it->client = client;\n    it->call = call;\n"
                    "    if (build_%s(&it->first, request, err) != SDKRT_OK || "
                    "%s_path_texts(it->path, request, err) != SDKRT_OK ||\n"
                    "        sdkrt_page_walk_new(&it->walk, NULL, err) != SDKRT_OK) {\n"
                    "        %s_%s_iter_free(it);\n        return SDKRT_ERR;\n    }\n"
                    "    *out = it;\n    return SDKRT_OK;\n}\n\n",
                    P, P, N, P, N, P, P, N, P, P, op->id, P, N, N, N, P, N);
    sdkc_buf_printf(
        b,
        "%s_next %s_%s_iter_next(%s_%s_iter *it, %s*item, %s_error **err)\n{\n"
        "    if (item)\n        *item = NULL;\n"
        "    if (!it || !item) {\n        sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT, "
        "\"%s: iterator and item are required\");\n        return %s_NEXT_ERROR;\n    }\n"
        "    for (;;) {\n"
        "        if (it->page && it->index < it->page->count) {\n"
        "            *item = &it->page->items[it->index++];\n            return %s_NEXT_ITEM;\n"
        "        }\n"
        "        if (it->why) {\n            it->done = true;\n"
        "            sdkrt_error_propagate(err, it->why);\n            it->why = NULL;\n"
        "            return %s_NEXT_ERROR;\n        }\n"
        "        if (it->done || (it->page && !it->page->next))\n            return "
        "%s_NEXT_END;\n"
        "        %s *next = NULL;\n        %s_status st;\n"
        "        if (!it->page)\n"
        "            st = %s_fetch(it->client, it->first, it->call, it->path, &next, err);\n"
        "        else\n"
        "            st = %s_%s_continue(it->client, it->page->next, it->call, &next, err);\n"
        "        if (st != SDKRT_OK) {\n            it->done = true;\n            return "
        "%s_NEXT_ERROR;\n        }\n"
        "        /* pages that would go on forever end the walk, after this page's items */\n"
        "        sdkrt_page_walk_cursor(it->walk, %s, it->page ? it->page->next->value : NULL,\n"
        "            next->count, next->next ? next->next->value : NULL, &it->why);\n"
        "        %s_free(it->page);\n        it->page = next;\n        it->index = 0;\n"
        "    }\n}\n\n",
        P, P, N, P, N, emit_const_ptr(cx, o->item->cdecl), P, op->id, cx->upper, cx->upper,
        cx->upper, cx->upper, page_t, P, N, P, N, cx->upper, param_lit, page_t);
}

/* A C string literal, or NULL. */
static void put_str_or_null(sdkc_buf *b, const char *s)
{
    if (s)
        sdkc_kit_put_c_string(b, s);
    else
        sdkc_buf_puts(b, "NULL");
}

static const char *engine_style(sdkc_page_style s)
{
    static const char *const names[] = {"SDKRT_PAGE_CURSOR_OBJECT", "SDKRT_PAGE_CURSOR_TOKEN",
                                        "SDKRT_PAGE_CURSOR_ITEM",   "SDKRT_PAGE_NEXT_URL",
                                        "SDKRT_PAGE_LINK_HEADER",   "SDKRT_PAGE_PAGE_NUMBER",
                                        "SDKRT_PAGE_OFFSET"};
    return (size_t)s < sizeof names / sizeof names[0] ? names[s] : "SDKRT_PAGE_OFFSET";
}

void emit_paged_engine(emit_ctx *cx, sdkc_buf *b, const cop *o)
{
    const sdkc_operation *op = o->op;
    const sdkc_pagination *pg = op->pagination;
    const char *P = cx->prefix, *N = o->name, *U = cx->upper;
    const char *body_t = o->result->cdecl;
    const char *cursor_t = sdkc_arena_printf(cx->arena, "%s_%s_cursor", P, N);
    const char *page_t = sdkc_arena_printf(cx->arena, "%s_%s_page", P, N);

    /* the descriptor the engine reads the raw page with */
    sdkc_buf_printf(b, "static const sdkrt_page_desc page_%s = {%s, ", N, engine_style(pg->style));
    put_str_or_null(b, pg->items_field);
    sdkc_buf_puts(b, ", ");
    put_str_or_null(b, pg->next_field);
    sdkc_buf_puts(b, ", ");
    put_str_or_null(b, pg->cursor_param ? pg->cursor_param->wire_name : NULL);
    sdkc_buf_puts(b, ", ");
    put_str_or_null(b, pg->has_more_field);
    sdkc_buf_puts(b, ", ");
    put_str_or_null(b, pg->item_id_field);
    sdkc_buf_puts(b, ", ");
    put_str_or_null(b, pg->size_param ? pg->size_param->wire_name : NULL);
    sdkc_buf_puts(b, ", 0};\n\n");

    sdkc_buf_printf(b,
                    "void %s_free(%s *page)\n{\n    if (!page)\n        return;\n"
                    "    %s_free(page->next);\n    %s_free(page->body);\n    free(page);\n}\n\n",
                    page_t, page_t, cursor_t, body_t);

    /* decode one page: the typed body and where its items are */
    sdkc_buf_printf(b,
                    "static sdkrt_status %s_decode(const sdkrt_response *resp, void **out, const "
                    "void **items,\n    size_t *count, sdkrt_error **err)\n{\n"
                    "    void *result = NULL;\n    *out = NULL;\n    *items = NULL;\n"
                    "    *count = 0;\n"
                    "    if (sdkrt_json_response(&op_%s, resp, &result, err) != SDKRT_OK)\n"
                    "        return SDKRT_ERR;\n    %s *body = result;\n",
                    N, N, body_t);
    if (!pg->items_field) {
        sdkc_buf_puts(b, "    *items = body->items;\n    *count = body->count;\n");
    } else {
        const cfield *items = emit_find_field(o->page, pg->items_field);
        sdkc_buf_printf(
            b, "    if %s {\n        *items = %s.items;\n        *count = %s.count;\n    }\n",
            emit_field_present(cx, "body", items), emit_field_value(cx, "body", items),
            emit_field_value(cx, "body", items));
    }
    sdkc_buf_puts(b, "    *out = body;\n    return SDKRT_OK;\n}\n\n");
    sdkc_buf_printf(b, "static void %s_body_free(void *body)\n{\n    %s_free(body);\n}\n\n", N,
                    body_t);
    sdkc_buf_printf(b,
                    "static const paged_desc paged_%s = {&page_%s, %s_decode, %s_body_free, "
                    "sizeof(%s)};\n\n",
                    N, N, N, N, o->item->cdecl);

    /* send, decode, and keep the request for the next page (page_fetch) */
    sdkc_buf_printf(
        b,
        "/* The parts of a fetched page (stolen) as its page. */\n"
        "NOINLINE_ static %s_status %s_page_from(page_parts *p, %s **out, %s_error **err)\n{\n"
        "    *out = NULL;\n"
        "    %s *page = calloc(1, sizeof *page);\n"
        "    struct page_cursor *cursor = p->next || p->why ? calloc(1, sizeof *cursor) : NULL;\n"
        "    if (!page || ((p->next || p->why) && !cursor)) {\n        free(page);\n"
        "        free(cursor);\n        return page_parts_oom(p, &paged_%s, err);\n    }\n"
        "    page->body = p->body;\n    page->items = p->items;\n    page->count = p->count;\n"
        "    if (cursor) {\n        cursor->req = p->next;\n        cursor->why = p->why;\n"
        "        cursor->walk = p->walk;\n        page->next = (%s *)cursor;\n    }\n"
        "    *out = page;\n    return SDKRT_OK;\n}\n\n",
        P, N, page_t, P, page_t, N, cursor_t);
    sdkc_buf_printf(
        b,
        "static %s_status %s_fetch(%s_client *client, const sdkrt_request *req, const "
        "sdkrt_page_walk *from,\n    const %s_call_options *call, %s **out, %s_error **err)\n{\n"
        "    page_parts p;\n    *out = NULL;\n"
        "    if (page_fetch(&p, client, req, from, call, &paged_%s, err) != SDKRT_OK)\n"
        "        return SDKRT_ERR;\n"
        "    return %s_page_from(&p, out, err);\n}\n\n",
        P, N, P, P, page_t, P, N, N);

    /* first page */
    sdkc_buf_printf(b, "%s_status %s_%s(%s_client *client, ", P, P, N, P);
    if (o->has_request)
        sdkc_buf_printf(b, "const %s_%s_request *request, ", P, N);
    sdkc_buf_printf(b,
                    "const %s_call_options *call,\n    %s **out, %s_error **err)\n{\n"
                    "    sdkrt_request *req = NULL;\n    if (out)\n        *out = NULL;\n"
                    "    if (!client || !out)\n        return sdkrt_error_set(err, "
                    "SDKRT_REASON_INVALID_ARGUMENT, \"%s: client and out are required\");\n"
                    "    if (build_%s(&req%s, err) != SDKRT_OK)\n        return SDKRT_ERR;\n"
                    "    %s_status st = %s_fetch(client, req, NULL, call, out, err);\n"
                    "    sdkrt_request_free(req);\n    return st;\n}\n\n",
                    P, page_t, P, op->id, N, o->has_request ? ", request" : "", P, N);
    /* continuation */
    sdkc_buf_printf(b,
                    "%s_status %s_%s_continue(%s_client *client, const %s *cursor, const "
                    "%s_call_options *call,\n    %s **out, %s_error **err)\n{\n"
                    "    if (out)\n        *out = NULL;\n"
                    "    if (!client || !out || !cursor)\n        return sdkrt_error_set(err, "
                    "SDKRT_REASON_INVALID_ARGUMENT, \"%s: client, cursor and out are required\");\n"
                    "    const struct page_cursor *c = (const struct page_cursor *)cursor;\n"
                    "    if (c->why)\n        return page_cursor_why(c, err);\n"
                    "    return %s_fetch(client, c->req, c->walk, call, out, err);\n}\n\n",
                    P, P, N, P, cursor_t, P, page_t, P, op->id, N);
    /* iterator: the runtime's pager itself (page_iter_open, page_iter_next) */
    sdkc_buf_printf(b, "%s_status %s_%s_iter_new(%s_%s_iter **out, %s_client *client, ", P, P, N, P,
                    N, P);
    if (o->has_request)
        sdkc_buf_printf(b, "const %s_%s_request *request,\n    ", P, N);
    sdkc_buf_printf(b,
                    "const %s_call_options *call, %s_error **err)\n{\n"
                    "    if (!out || !client)\n        return sdkrt_error_set(err, "
                    "SDKRT_REASON_INVALID_ARGUMENT, \"%s: client and out are required\");\n"
                    "    *out = NULL;\n    sdkrt_request *req = NULL;\n"
                    "    sdkrt_pager *pager = NULL;\n"
                    "    if (page_iter_open(&pager, build_%s(&req%s, err), &req, client, call, "
                    "&paged_%s, err) != SDKRT_OK)\n        return SDKRT_ERR;\n"
                    "    *out = (%s_%s_iter *)pager;\n    return SDKRT_OK;\n}\n\n",
                    P, P, op->id, N, o->has_request ? ", request" : "", N, P, N);
    sdkc_buf_printf(b,
                    "%s_next %s_%s_iter_next(%s_%s_iter *it, %s*item, %s_error **err)\n{\n"
                    "    const void *v = NULL;\n"
                    "    int r = page_iter_next((sdkrt_pager *)it, item ? &v : NULL, ",
                    P, P, N, P, N, emit_const_ptr(cx, o->item->cdecl), P);
    sdkc_kit_put_c_string(b, op->id);
    sdkc_buf_printf(
        b,
        ", err);\n    if (item)\n        *item = v;\n"
        "    return r == 1 ? %s_NEXT_ITEM : r == 0 ? %s_NEXT_END : %s_NEXT_ERROR;\n}\n\n",
        U, U, U);
}

bool emit_page_engine(const cop *o)
{
    return !(o->op->stream && o->item) && o->op->pagination && emit_page_ok(o) &&
           !emit_page_cursor_object(o);
}

/* What every operation paged by the engine shares (once in ops.c, before the first). */
void emit_paged_engine_shared(emit_ctx *cx, sdkc_buf *b)
{
    sdkc_buf_puts(
        b,
        "/* ---- what the operations paged by the runtime's engine share ---- */\n\n"
        "/* Helpers called from several functions stay one function each: not copied into every "
        "caller,\n * which keeps big SDKs quick to compile (they run once per page). */\n"
        "#if defined(__GNUC__)\n#define NOINLINE_ __attribute__((noinline))\n#else\n"
        "#define NOINLINE_\n#endif\n\n"
        "/* A page's continuation: the next page's request, or why there is none (told by "
        "continue). */\n"
        "struct page_cursor {\n    sdkrt_request *req;\n    sdkrt_error *why;\n"
        "    sdkrt_page_walk *walk; /* the pages up to here, so that the walk ends */\n};\n\n"
        "static void page_cursor_free(struct page_cursor *c)\n{\n    if (!c)\n        return;\n"
        "    sdkrt_request_free(c->req);\n    sdkrt_error_free(c->why);\n"
        "    sdkrt_page_walk_free(c->walk);\n    free(c);\n}\n\n"
        "/* Continuing from a cursor that says why there is no next page: that error again (its "
        "message\n * without the reason that setting it adds once more). */\n"
        "static sdkrt_status page_cursor_why(const struct page_cursor *c, sdkrt_error **err)\n{\n"
        "    sdkrt_reason r = sdkrt_error_reason(c->why);\n"
        "    const char *m = sdkrt_error_message(c->why);\n"
        "    size_t n = strlen(m), k = strlen(sdkrt_reason_name(r)) + 3;\n"
        "    return sdkrt_error_set(err, r, \"%.*s\", (int)(n > k ? n - k : n), m);\n}\n\n"
        "/* A paged operation: its page descriptor, the decode and body release its pager calls, "
        "the\n * size of one item. */\n"
        "typedef struct paged_desc {\n    const sdkrt_page_desc *page;\n"
        "    sdkrt_page_decode_fn decode;\n    sdkrt_page_free_fn body_free;\n"
        "    size_t item_size;\n} paged_desc;\n\n"
        "/* One fetched page before it is a typed page: body, items, and the next request or why "
        "not. */\n"
        "typedef struct page_parts {\n    void *body;\n    const void *items;\n    size_t count;\n"
        "    sdkrt_request *next;\n    sdkrt_error *why;\n    sdkrt_page_walk *walk;\n} "
        "page_parts;\n\n"
        "/* Decode the page that req fetched (resp borrowed) and make the next page's request; "
        "a page whose\n * continuation cannot be made still comes back (why says why). */\n"
        "static sdkrt_status page_parts_make(page_parts *p, sdkrt_client *client, const "
        "sdkrt_request *req,\n    const sdkrt_page_walk *from, const sdkrt_response *resp, const "
        "paged_desc *d, sdkrt_error **err)\n{\n"
        "    memset(p, 0, sizeof *p);\n"
        "    sdkrt_status st = d->decode(resp, &p->body, &p->items, &p->count, err);\n"
        "    if (st == SDKRT_OK && sdkrt_page_next(&p->next, client, d->page, req, resp, &p->why) "
        "!= SDKRT_OK)\n        p->next = NULL;\n"
        "    /* pages that would go on forever end the walk (a copy: a cursor may be used twice) "
        "*/\n"
        "    if (p->next && (sdkrt_page_walk_new(&p->walk, from, &p->why) != SDKRT_OK ||\n"
        "                    sdkrt_page_walk_step(p->walk, client, req, resp, p->count, p->next, "
        "&p->why) != SDKRT_OK)) {\n"
        "        sdkrt_request_free(p->next);\n        p->next = NULL;\n"
        "        sdkrt_page_walk_free(p->walk);\n        p->walk = NULL;\n    }\n"
        "    return st;\n}\n\n"
        "/* Send req and make its page's parts (page_parts_make). */\n"
        "static sdkrt_status page_fetch(page_parts *p, sdkrt_client *client, const sdkrt_request "
        "*req,\n    const sdkrt_page_walk *from, const sdkrt_call_options *call, const paged_desc "
        "*d,\n    sdkrt_error **err)\n{\n"
        "    sdkrt_response *resp = NULL;\n    memset(p, 0, sizeof *p);\n"
        "    if (sdkrt_client_send(client, req, call, &resp, err) != SDKRT_OK)\n"
        "        return SDKRT_ERR;\n"
        "    sdkrt_status st = page_parts_make(p, client, req, from, resp, d, err);\n"
        "    sdkrt_response_free(resp);\n    return st;\n}\n\n");
    sdkc_buf_puts(
        b,
        "/* Out of memory making the typed page: release the parts. */\n"
        "static sdkrt_status page_parts_oom(page_parts *p, const paged_desc *d, sdkrt_error "
        "**err)\n{\n"
        "    sdkrt_request_free(p->next);\n    sdkrt_error_free(p->why);\n"
        "    sdkrt_page_walk_free(p->walk);\n    d->body_free(p->body);\n"
        "    return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, \"out of memory\");\n}\n\n"
        "/* The pager of an iterator over the request built (built: the builder's status; *req is "
        "freed\n * here). */\n"
        "NOINLINE_ static sdkrt_status page_iter_open(sdkrt_pager **pager, sdkrt_status built, "
        "sdkrt_request "
        "**req,\n    sdkrt_client *client, const sdkrt_call_options *call, const paged_desc *d, "
        "sdkrt_error **err)\n{\n"
        "    sdkrt_status st = built;\n    if (st == SDKRT_OK)\n"
        "        st = sdkrt_pager_new(pager, client, *req, call, d->page, d->decode, d->body_free, "
        "d->item_size, err);\n"
        "    sdkrt_request_free(*req);\n    if (st != SDKRT_OK) {\n"
        "        sdkrt_pager_free(*pager);\n        *pager = NULL;\n    }\n    return st;\n}\n\n"
        "/* One step of an iterator: 1 with *item, 0 at the end, -1 with *err. */\n"
        "static int page_iter_next(sdkrt_pager *pager, const void **item, const char *id, "
        "sdkrt_error **err)\n{\n"
        "    if (!pager || !item) {\n"
        "        sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT, \"%s: iterator and item are "
        "required\", id);\n        return -1;\n    }\n"
        "    return sdkrt_pager_next(pager, item, err);\n}\n\n");
    sdkc_buf_printf(
        b,
        "/* An engine-paged operation's cursor is a struct page_cursor and its "
        "iterator the runtime's\n * pager itself: their _free macros (ops.h) call "
        "these. */\n"
        "void %s__page_cursor_free(void *cursor)\n{\n    page_cursor_free(cursor);\n}\n\n"
        "void %s__pager_free(void *iter)\n{\n    sdkrt_pager_free(iter);\n}\n\n",
        cx->prefix, cx->prefix);
}
