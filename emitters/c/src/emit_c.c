/* The C emitter's driver (sdkc_emit_c): builds the model (model*.c), warns about what the C SDK
 * cannot send as declared, and writes each output kind, one file per kind: types_h.c, types_c.c,
 * ops_h.c, ops_c.c (with the other ops_*.c files, joined by ops_c.h), build_files.c, readme.c
 * and, with --tests, mock.c. The kinds share the model (emit_internal.h) and the kit
 * (sdkc/emitkit.h) only. */
#include "emit_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* is_default: the default media type, whose binary content and file parts are blobs. */
static void warn_body_media(const sdkc_operation *op, const char *ct, bool is_default,
                            sdkc_diag *diag)
{
    sdkc_kit_media mk = sdkc_kit_media_of(ct);
    const sdkc_type *t = op->body->type;
    while (t->kind == SDKC_TYPE_NULLABLE)
        t = t->u.nullable.inner;
    if (mk == SDKC_KIT_MEDIA_MULTIPART && !is_default && t->kind == SDKC_TYPE_OBJECT) {
        for (size_t i = 0; i < t->u.object.nfields; i++) {
            const sdkc_field *f = &t->u.object.fields[i];
            if (sdkc_kit_is_binary(f->type))
                sdkc_diag_add(diag, SDKC_SEV_WARNING, f->loc,
                              "operation '%s': multipart file part '%s' is a NUL-terminated "
                              "string in the C SDK (bytes with NUL cannot be sent)",
                              op->id, f->wire_name);
        }
    }
    if (mk != SDKC_KIT_MEDIA_OTHER)
        return;
    if (t->kind != SDKC_TYPE_STRING)
        sdkc_diag_add(diag, SDKC_SEV_WARNING, op->loc,
                      "operation '%s': request body '%s' is not a string; the C SDK sends the "
                      "value as JSON text under that media type",
                      op->id, ct);
    else if (!is_default && sdkc_kit_is_binary(t))
        sdkc_diag_add(diag, SDKC_SEV_WARNING, op->loc,
                      "operation '%s': binary request body '%s' is a NUL-terminated string in "
                      "the C SDK (bytes with NUL cannot be sent)",
                      op->id, ct);
}

/* Bodies the C SDK cannot put on the wire exactly as declared, for the default media type and
 * each alternative. JSON, form and multipart bodies are written as the contract says, binary
 * content of the default media type from blobs; any other media type carries a string's text as
 * is, so a structured value there (sent as JSON text) and binary content of an alternative (a
 * NUL-terminated string: no NUL bytes) differ. */
static void warn_body_limits(const sdkc_operation *op, sdkc_diag *diag)
{
    const sdkc_body *body = op->body;
    if (!body || !body->content_type || !body->type)
        return;
    warn_body_media(op, body->content_type, true, diag);
    for (size_t i = 0; i < body->nalternatives; i++)
        warn_body_media(op, body->alternatives[i], false, diag);
}

/* A parameter the contract types `number` that surely counts something: it stays a double (the
 * C SDK sends what the contract says), but the runtime writes a whole value without a fraction
 * (10, not 10.0), which servers that want an integer accept. */
static void warn_integral_params(const sdkc_operation *op, sdkc_diag *diag)
{
    static const char *const counting[] = {"limit",    "offset",   "page",    "page_size",
                                           "pageSize", "per_page", "perPage", "count",
                                           "skip",     "top",      "size",    NULL};
    for (size_t i = 0; i < op->nparams; i++) {
        const sdkc_param *p = &op->params[i];
        const sdkc_type *t = p->type;
        while (t && t->kind == SDKC_TYPE_NULLABLE)
            t = t->u.nullable.inner;
        if (!t || t->kind != SDKC_TYPE_NUMBER)
            continue;
        for (size_t k = 0; counting[k]; k++)
            if (!strcmp(p->wire_name, counting[k]))
                sdkc_diag_add(diag, SDKC_SEV_WARNING, p->loc,
                              "operation '%s': %s parameter '%s' is 'type: number' although it "
                              "counts; the C SDK keeps a double (sent without a fraction when "
                              "whole); say 'type: integer' or 'multipleOf: 1' to get an int64",
                              op->id, sdkc_param_in_name(p->in), p->wire_name);
    }
}

/* Successes the C call cannot return: besides a page or a stream there is one success only. */
static void warn_successes(const sdkc_operation *op, sdkc_diag *diag)
{
    if (!op->nmore_successes || !(op->pagination || op->stream))
        return;
    char st[16], other[16];
    sdkc_diag_add(diag, SDKC_SEV_WARNING, op->loc,
                  "operation '%s': the C SDK reads its %s as a %s; other success statuses (such "
                  "as %s) give UNEXPECTED_STATUS",
                  op->id, sdkc_status_text(op->success.status, st, sizeof st),
                  op->pagination ? "page" : "stream",
                  sdkc_status_text(op->more_successes[0].status, other, sizeof other));
}

static bool valid_prefix(const char *p)
{
    if (!p || !*p || strlen(p) > 32 || !islower((unsigned char)p[0]))
        return false;
    for (; *p; p++) {
        if (!islower((unsigned char)*p) && !isdigit((unsigned char)*p) && *p != '_')
            return false;
    }
    return true;
}

/* Prefixes another library already owns, with its name: the SDK's symbols (PREFIX_...) and its
 * headers (include/PREFIX/...) would clash with that library's or shadow the system's. */
static const char *prefix_owner(const char *p)
{
    static const char *const taken[][2] = {
        {"sdkrt", "libsdkrt, the runtime the SDK links"},
        {"sdkc", "sdkc itself"},
        {"curl", "libcurl (curl/ headers, curl_ symbols)"},
        {"json", "jansson (json_ symbols)"},
        {"jansson", "jansson"},
        {"pthread", "POSIX threads"},
        {"sys", "the system headers (include/sys/)"},
        {"bits", "the C library's headers (include/bits/)"},
        {"linux", "the kernel headers (include/linux/)"},
        {"asm", "the kernel headers (include/asm/)"},
        {"arpa", "the system headers (include/arpa/)"},
        {"net", "the system headers (include/net/)"},
        {"netinet", "the system headers (include/netinet/)"},
        {"gnu", "the C library's headers (include/gnu/)"},
    };
    for (size_t i = 0; i < sizeof taken / sizeof taken[0]; i++) {
        if (strcmp(p, taken[i][0]) == 0)
            return taken[i][1];
    }
    return NULL;
}

sdkc_status sdkc_emit_c(const sdkc_ir *ir, const sdkc_emit_c_options *opts, sdkc_diag *diag)
{
    sdkc_loc loc = {NULL, 0, 0};
    if (!ir || !opts || !opts->out_dir || !valid_prefix(opts->prefix)) {
        sdkc_diag_add(diag, SDKC_SEV_ERROR, loc,
                      "emit c: a prefix (lower-case C identifier, at most 32 characters) and an "
                      "output directory are required");
        return SDKC_ERR_INVALID;
    }
    const char *owner = prefix_owner(opts->prefix);
    if (owner) {
        sdkc_diag_add(diag, SDKC_SEV_ERROR, loc,
                      "emit c: the prefix '%s' belongs to %s; the SDK's names and headers would "
                      "clash with it: choose another",
                      opts->prefix, owner);
        return SDKC_ERR_INVALID;
    }
    sdkc_status st = SDKC_ERR_NOMEM;
    emit_ctx cx;
    memset(&cx, 0, sizeof cx);
    cop *ops = NULL;
    ctype **sorted = NULL;
    tagref *tags = NULL;
    size_t ntags = 0;
    sdkc_buf b = SDKC_BUF_INIT;
    sdkc_arena *ea = NULL;
    sdkc_ir expanded;
    /* a stream variant is an operation of its own in C (X_stream_open/_next/_close) */
    if (sdkc_arena_new(&ea) != SDKC_OK || sdkc_kit_expand_ops(&expanded, ir, ea) != SDKC_OK) {
        sdkc_diag_add(diag, SDKC_SEV_ERROR, loc, "emit c: out of memory");
        goto done;
    }
    const sdkc_ir *contract = ir;
    for (size_t i = 0; i < ir->nops; i++)
        warn_successes(&ir->ops[i], diag);
    ir = &expanded;
    ops = calloc(ir->nops ? ir->nops : 1, sizeof *ops);
    if (!ops || !emit_model_make(&cx, ir, opts->prefix, ops)) {
        sdkc_diag_add(diag, SDKC_SEV_ERROR, loc, "emit c: out of memory building the model");
        goto done;
    }
    cx.tests = opts->tests;
    /* what the C SDK leaves out, said where the contract declares it */
    for (size_t i = 0; i < contract->nops; i++) {
        warn_body_limits(&contract->ops[i], diag);
        warn_integral_params(&contract->ops[i], diag);
    }
    for (size_t i = 0; i < ir->nops; i++) {
        const sdkc_pagination *pg = ops[i].op->pagination;
        if (pg && !ops[i].op->stream && !emit_page_ok(&ops[i]))
            sdkc_diag_add(diag, SDKC_SEV_WARNING, ops[i].op->loc,
                          "operation '%s': its pages (%s, items '%s') are not reachable in C "
                          "(items nested below the body's fields, or of another shape); the call "
                          "returns the body, without _iter",
                          ops[i].op->id, sdkc_page_style_name(pg->style),
                          pg->items_field ? pg->items_field : "$");
    }
    sorted = malloc((cx.nall ? cx.nall : 1) * sizeof *sorted);
    tags = emit_collect_tags(&cx, ops, ir->nops, &ntags);
    if (!sorted || !tags)
        goto nomem;
    if (cx.nall) /* no named types: cx.all is NULL */
        memcpy(sorted, cx.all, cx.nall * sizeof *sorted);
    qsort(sorted, cx.nall, sizeof *sorted, emit_cmp_desc);

    char *inc = sdkc_arena_printf(cx.arena, "%s/include/%s", opts->out_dir, cx.prefix);
    char *src = sdkc_arena_printf(cx.arena, "%s/src", opts->out_dir);
    if (!inc || !src || !sdkc_kit_make_dirs(inc) || !sdkc_kit_make_dirs(src)) {
        sdkc_diag_add(diag, SDKC_SEV_ERROR, loc, "emit c: cannot create directories under %s: %s",
                      opts->out_dir, strerror(errno));
        st = SDKC_ERR_IO;
        goto done;
    }
    char *rel;
#define WRITE(relpath, call)                                                                       \
    do {                                                                                           \
        sdkc_buf_reset(&b);                                                                        \
        call;                                                                                      \
        rel = (relpath);                                                                           \
        if (!rel)                                                                                  \
            goto nomem;                                                                            \
        if ((st = sdkc_kit_write_out(opts->out_dir, rel, &b, diag)) != SDKC_OK)                    \
            goto done;                                                                             \
    } while (0)
    WRITE(sdkc_arena_printf(cx.arena, "include/%s/%s.h", cx.prefix, cx.prefix),
          emit_umbrella(&cx, &b));
    WRITE(sdkc_arena_printf(cx.arena, "include/%s/types.h", cx.prefix), emit_types_h(&cx, &b));
    WRITE(sdkc_arena_printf(cx.arena, "include/%s/ops.h", cx.prefix),
          emit_ops_h(&cx, &b, ops, ir->nops, tags, ntags));
    WRITE(sdkc_arena_strdup(cx.arena, "src/internal.h"), emit_internal_h(&cx, &b, sorted, cx.nall));
    WRITE(sdkc_arena_strdup(cx.arena, "src/types.c"), emit_types_c(&cx, &b, sorted, cx.nall));
    WRITE(sdkc_arena_strdup(cx.arena, "src/ops.c"),
          emit_ops_c(&cx, &b, ops, ir->nops, tags, ntags));
    WRITE(sdkc_arena_strdup(cx.arena, "CMakeLists.txt"), emit_cmake(&cx, &b));
    WRITE(sdkc_arena_printf(cx.arena, "%s.pc.in", cx.prefix), emit_pc(&cx, &b));
    WRITE(sdkc_arena_printf(cx.arena, "%sConfig.cmake.in", cx.prefix), emit_config(&cx, &b));
    WRITE(sdkc_arena_strdup(cx.arena, "README.md"), emit_readme(&cx, &b, ops, ir->nops));
    if (opts->tests) {
        char *tdir = sdkc_arena_printf(cx.arena, "%s/tests", opts->out_dir);
        if (!tdir || !sdkc_kit_make_dirs(tdir)) {
            sdkc_diag_add(diag, SDKC_SEV_ERROR, loc, "emit c: cannot create %s/tests: %s",
                          opts->out_dir, strerror(errno));
            st = SDKC_ERR_IO;
            goto done;
        }
        WRITE(sdkc_arena_strdup(cx.arena, "tests/mock.c"), emit_mock_c(&cx, &b, ops, ir->nops));
    }
#undef WRITE
    st = SDKC_OK;
    goto done;
nomem:
    sdkc_diag_add(diag, SDKC_SEV_ERROR, loc, "emit c: out of memory");
    st = SDKC_ERR_NOMEM;
done:
    sdkc_buf_cleanup(&b);
    free(tags);
    free(sorted);
    free(ops);
    emit_model_cleanup(&cx);
    sdkc_arena_free(ea);
    return st;
}
