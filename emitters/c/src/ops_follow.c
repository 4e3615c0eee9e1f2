/* Followers of durable streams (src/ops.c and include/PREFIX/ops.h): for a stream operation the
 * IR marks durable (sdkc_stream.follow), PREFIX_<op>_follow_new / _next / _free over libsdkrt's
 * sdkrt_follow. The follower keeps a copy of the request struct and rebuilds the request with the
 * after parameter set to the last sequence delivered each time it reopens the stream. */
#include "ops_c.h"

#include <string.h>

/* The index of the follow's after parameter in op->params. */
static size_t after_index(const sdkc_operation *op)
{
    for (size_t i = 0; i < op->nparams; i++)
        if (&op->params[i] == op->stream->follow->after_param)
            return i;
    return op->nparams;
}

bool emit_follow_ok(const cop *o)
{
    const sdkc_operation *op = o->op;
    if (!op->stream || !op->stream->follow || !o->item || !o->has_request)
        return false;
    size_t i = after_index(op);
    if (i == op->nparams)
        return false;
    const char *jk = o->params[i]->jk;
    return !strcmp(jk, "SDKRT_JK_STRING") || !strcmp(jk, "SDKRT_JK_INTEGER");
}

const char *emit_follow_seq_text(emit_ctx *cx, const cop *o)
{
    const sdkc_follow *f = o->op->stream->follow;
    const char *s = "";
    for (size_t i = 0; i < f->depth; i++)
        s = s ? sdkc_arena_printf(cx->arena, "%s%s%s", s, i ? "." : "", f->sequence[i]) : NULL;
    return s ? sdkc_kit_comment_safe(cx->arena, s) : NULL; /* contract text in comments */
}

void emit_follow_h(emit_ctx *cx, sdkc_buf *b, const cop *o)
{
    const char *P = cx->prefix, *N = o->name, *U = cx->upper;
    const sdkc_follow *f = o->op->stream->follow;
    const char *seq = emit_follow_seq_text(cx, o);
    const char *after = sdkc_kit_comment_safe(cx->arena, f->after_param->wire_name);
    if (!seq || !after) {
        b->oom = true;
        return;
    }
    sdkc_buf_printf(b,
                    "/* A follower of the durable stream %s: it reopens the stream after the "
                    "last %s delivered\n * (query parameter \"%s\") when it is lost. See "
                    "%s_%s_follow_new. */\n"
                    "typedef struct %s_%s_follower %s_%s_follower;\n\n",
                    N, seq, after, P, N, P, N, P, N);
    sdkc_buf_printf(
        b,
        "/* What %s_%s_follow_next yields; everything is borrowed until the next call or free. */\n"
        "typedef struct %s_%s_follow_event {\n"
        "    %s_follow_kind kind; /* %s_FOLLOW_ITEM, %s_FOLLOW_POISON or %s_FOLLOW_RECONNECT */\n"
        "    %sitem; /* ITEM: the decoded item */\n"
        "    bool has_seq; /* ITEM, POISON: the item's %s was found */\n"
        "    int64_t seq;\n"
        "    const char *data; /* POISON: the event's data as received (NUL-terminated) */\n"
        "    size_t data_len;\n"
        "    const json_t *raw; /* POISON: that data as JSON, or NULL when it is not JSON */\n"
        "    const %s_error *error; /* POISON: why it did not decode; RECONNECT: why the stream "
        "was lost */\n"
        "    unsigned attempt; /* RECONNECT: 1, 2, ... reconnects in a row */\n"
        "    long delay_ms; /* RECONNECT: the wait before the stream is reopened */\n"
        "    bool has_after; /* RECONNECT: the %s it resumes after */\n"
        "    int64_t after;\n"
        "} %s_%s_follow_event;\n\n",
        P, N, P, N, P, U, U, U, emit_const_ptr(cx, o->item->cdecl), seq, P, seq, P, N);
    sdkc_buf_printf(
        b,
        "/* A follower (no I/O yet) in *out (new: %s_%s_follow_free). request is copied as a "
        "struct:\n"
        " * the strings and values it points to are borrowed until the follower is freed, and its\n"
        " * \"%s\" is replaced by the last %s delivered on every reopen (set has_%s/%s, or\n"
        " * options->has_after/after, to start later). options (NULL: defaults) is copied; its "
        "cancel token\n * and call options are borrowed until free. Lost streams (TRANSPORT, the "
        "idle timeout, a 5xx,\n * the server closing) are reopened with backoff and reported as "
        "%s_FOLLOW_RECONNECT; items already\n * delivered are dropped; an item that does not "
        "decode is %s_FOLLOW_POISON (unless options->strict). */\n"
        "%s_status %s_%s_follow_new(%s_%s_follower **out, %s_client *client, const "
        "%s_%s_request *request,\n    const %s_follow_options *options, %s_error **err);\n",
        P, N, after, seq, o->pnames[after_index(o->op)], o->pnames[after_index(o->op)], U, U, P, P,
        N, P, N, P, P, N, P, P);
    sdkc_buf_printf(b,
                    "/* Next: %s_NEXT_ITEM with *event filled (an item, a poison item or a "
                    "reconnect), %s_NEXT_END\n * (options->end_when_closed only), or "
                    "%s_NEXT_ERROR with *err (new): a declared error, a failure\n * frame, "
                    "CANCELLED, or the last loss after options->max_attempts reconnects. */\n"
                    "%s_next %s_%s_follow_next(%s_%s_follower *follower, %s_%s_follow_event "
                    "*event, %s_error **err);\n"
                    "/* Release the follower and its stream (NULL is a no-op). */\n"
                    "void %s_%s_follow_free(%s_%s_follower *follower);\n\n",
                    U, U, U, P, P, N, P, N, P, N, P, P, N, P, N);
}

void emit_follow_seq_c(sdkc_buf *b, const cop *o)
{
    const sdkc_follow *f = o->op->stream->follow;
    sdkc_buf_printf(b, "static const char *const follow_seq_%s[] = {", o->name);
    for (size_t i = 0; i < f->depth; i++) {
        sdkc_buf_puts(b, i ? ", " : "");
        sdkc_kit_put_c_string(b, f->sequence[i]);
    }
    sdkc_buf_printf(b, "};\n\n");
}

void emit_follow_c(emit_ctx *cx, sdkc_buf *b, const cop *o)
{
    const char *P = cx->prefix, *N = o->name, *U = cx->upper;
    const sdkc_follow *f = o->op->stream->follow;
    size_t ai = after_index(o->op);
    const char *an = o->pnames[ai];
    bool text = !strcmp(o->params[ai]->jk, "SDKRT_JK_STRING");
    bool optional = !f->after_param->required;
    sdkc_buf_printf(b,
                    "struct %s_%s_follower {\n    sdkrt_follow *f;\n    %s_client *client;\n"
                    "    %s_%s_request request; /* a copy; what it points to is borrowed */\n"
                    "};\n\n",
                    P, N, P, P, N);
    sdkc_buf_printf(
        b, "static const sdkrt_follow_sequence follow_sequence_%s = {follow_seq_%s, %zu};\n\n", N,
        N, f->depth);
    /* the request of every (re)open, blocking or on the loop */
    sdkc_buf_printf(b,
                    "/* The request reopening the stream after *after (NULL: as request says). "
                    "*/\n"
                    "static sdkrt_status %s_follow_request(const %s_%s_request *request, const "
                    "int64_t *after, sdkrt_request **out,\n    sdkrt_error **err)\n"
                    "{\n    %s_%s_request r = *request;\n",
                    N, P, N, P, N);
    if (text)
        sdkc_buf_puts(b, "    char text[24];\n");
    sdkc_buf_puts(b, "    if (after) {\n");
    if (optional)
        sdkc_buf_printf(b, "        r.has_%s = true;\n", an);
    if (text)
        sdkc_buf_printf(b,
                        "        snprintf(text, sizeof text, \"%%lld\", (long long)*after);\n"
                        "        r.%s = text;\n",
                        an);
    else
        sdkc_buf_printf(b, "        r.%s = *after;\n", an);
    sdkc_buf_printf(b, "    }\n    return build_%s(out, &r, err);\n}\n\n", N);
    sdkc_buf_printf(b,
                    "static sdkrt_status follow_open_%s(void *userdata, const int64_t *after, "
                    "const sdkrt_call_options *call,\n    sdkrt_jstream **out, sdkrt_error **err)\n"
                    "{\n    %s_%s_follower *fo = userdata;\n    sdkrt_request *req = NULL;\n"
                    "    if (%s_follow_request(&fo->request, after, &req, err) != SDKRT_OK)\n"
                    "        return SDKRT_ERR;\n"
                    "    sdkrt_status st = sdkrt_jstream_open(out, fo->client, req, call, &op_%s, "
                    "err);\n    sdkrt_request_free(req);\n    return st;\n}\n\n",
                    N, P, N, N, N);
    /* the options of a follower, blocking or on the loop */
    sdkc_buf_printf(
        b,
        "/* A follower's options: options (NULL: defaults) with the client's cancel token and the "
        "start\n * position of request when they give none. */\n"
        "static sdkrt_status %s_follow_options(sdkrt_follow_options *o, %s_client *client, const "
        "%s_%s_request *request,\n    const %s_follow_options *options, %s_error **err)\n{\n"
        "    if (options)\n        *o = *options;\n"
        "    if (!o->cancel) /* the client's token ends its waits too */\n"
        "        o->cancel = sdkrt_client_cancel(client);\n",
        N, P, P, N, P, P);
    /* a start position in the request counts when the options give none */
    if (text)
        sdkc_buf_printf(b,
                        "    if (!o->has_after && %srequest->%s) {\n"
                        "        char *end = NULL;\n"
                        "        long long v = strtoll(request->%s, &end, 10);\n"
                        "        if (end == request->%s || *end)\n"
                        "            return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT, "
                        "\"%s: %s is not a sequence number\");\n"
                        "        o->has_after = true;\n        o->after = (int64_t)v;\n    }\n",
                        optional ? sdkc_arena_printf(cx->arena, "request->has_%s && ", an) : "", an,
                        an, an, o->op->id, f->after_param->wire_name);
    else
        sdkc_buf_printf(b,
                        "    (void)err;\n    if (!o->has_after%s) {\n        o->has_after = true;\n"
                        "        o->after = request->%s;\n    }\n",
                        optional ? sdkc_arena_printf(cx->arena, " && request->has_%s", an) : "",
                        an);
    sdkc_buf_puts(b, "    return SDKRT_OK;\n}\n\n");
    sdkc_buf_printf(
        b,
        "%s_status %s_%s_follow_new(%s_%s_follower **out, %s_client *client, const "
        "%s_%s_request *request,\n    const %s_follow_options *options, %s_error **err)\n{\n"
        "    sdkrt_follow_options o = SDKRT_FOLLOW_OPTIONS_INIT;\n"
        "    if (!out || !client || !request)\n        return sdkrt_error_set(err, "
        "SDKRT_REASON_INVALID_ARGUMENT, \"%s: out, client and request are required\");\n"
        "    *out = NULL;\n"
        "    if (%s_follow_options(&o, client, request, options, err) != SDKRT_OK)\n"
        "        return SDKRT_ERR;\n"
        "    %s_%s_follower *fo = calloc(1, sizeof *fo);\n"
        "    if (!fo)\n        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, \"out of "
        "memory\");\n"
        "    fo->client = client;\n    fo->request = *request;\n"
        "    if (sdkrt_follow_new(&fo->f, follow_open_%s, fo, &follow_sequence_%s, &o, err) != "
        "SDKRT_OK) {\n"
        "        free(fo);\n        return SDKRT_ERR;\n    }\n"
        "    *out = fo;\n    return SDKRT_OK;\n}\n\n",
        P, P, N, P, N, P, P, N, P, P, o->op->id, N, P, N, N, N);
    sdkc_buf_printf(
        b,
        "%s_next %s_%s_follow_next(%s_%s_follower *follower, %s_%s_follow_event *event, "
        "%s_error **err)\n{\n"
        "    sdkrt_follow_event ev;\n"
        "    if (event)\n        memset(event, 0, sizeof *event);\n"
        "    if (!follower || !event) {\n        sdkrt_error_set(err, "
        "SDKRT_REASON_INVALID_ARGUMENT, \"%s: follower and event are required\");\n"
        "        return %s_NEXT_ERROR;\n    }\n"
        "    sdkrt_stream_result r = sdkrt_follow_next(follower->f, &ev, err);\n"
        "    if (r != SDKRT_STREAM_EVENT)\n"
        "        return r == SDKRT_STREAM_END ? %s_NEXT_END : %s_NEXT_ERROR;\n"
        "    event->kind = ev.kind;\n    event->item = ev.item;\n"
        "    event->has_seq = ev.has_seq;\n    event->seq = ev.seq;\n"
        "    event->data = ev.data;\n    event->data_len = ev.data_len;\n"
        "    event->raw = ev.raw;\n    event->error = ev.error;\n"
        "    event->attempt = ev.attempt;\n    event->delay_ms = ev.delay_ms;\n"
        "    event->has_after = ev.has_after;\n    event->after = ev.after;\n"
        "    return %s_NEXT_ITEM;\n}\n\n",
        P, P, N, P, N, P, N, P, o->op->id, U, U, U, U);
    sdkc_buf_printf(b,
                    "void %s_%s_follow_free(%s_%s_follower *follower)\n{\n"
                    "    if (!follower)\n        return;\n    sdkrt_follow_free(follower->f);\n"
                    "    free(follower);\n}\n\n",
                    P, N, P, N);
}
