/* astream.c - the allocation-failure scenario of asynchronous streams: typed streams (lenient and
 * strict poison, a failure frame, a declared error status), a raw stream, a paused and resumed
 * stream, a stream cancelled from its handler, a follower cut once that reopens after its last
 * sequence (dropping the replayed overlap), and a stream pending when the loop is freed, all on one
 * loop over the in-memory transport (no sockets, so every run allocates the same way). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenarios.h"
#include "sdkrt/follow.h"
#include "sdkrt/json.h"
#include "sdkrt/loop.h"
#include "sdkrt/sdkrt.h"

static const sdkrt_jtype t_string = {
    .kind = SDKRT_JK_STRING, .name = "string", .size = sizeof(char *)};
static const sdkrt_jtype t_int = {
    .kind = SDKRT_JK_INTEGER, .name = "integer", .size = sizeof(int64_t)};
typedef struct item {
    int64_t seq;
    char *text;
} item;
static const sdkrt_jfield item_fields[] = {
    {"seq", &t_int, SDKRT_JF_REQUIRED, offsetof(item, seq), SDKRT_JNONE, SDKRT_JNONE},
    {"text", &t_string, SDKRT_JF_REQUIRED, offsetof(item, text), SDKRT_JNONE, SDKRT_JNONE},
};
static const sdkrt_jtype t_item = {.kind = SDKRT_JK_OBJECT,
                                   .name = "Item",
                                   .size = sizeof(item),
                                   .fields = item_fields,
                                   .nfields = 2};
static const sdkrt_jerror op_errors[] = {{404, "NotFound", &t_item}};
static const sdkrt_jop op_items = {.id = "t.items",
                                   .status = 200,
                                   .encoding = SDKRT_JENC_SSE,
                                   .errors = op_errors,
                                   .nerrors = 1,
                                   .item = &t_item,
                                   .failure_event = "failure"};
static const char *const seq_path[] = {"seq"};
static const sdkrt_follow_sequence seq_spec = {seq_path, 1};

static const char items_body[] = "data: {\"seq\":1,\"text\":\"a\"}\n\n"
                                 ": heartbeat\n"
                                 "data: {\"seq\":2,\"text\":\"b\"}\n\n"
                                 "data: {\"seq\":3,\"text\":7}\n\n"
                                 "data: {\"seq\":4,\"text\":\"d\"}\n\n";

static int handler(void *ud, const sdkrt_memory_request *req, sdkrt_memory_response *resp)
{
    (void)ud;
    const char *t = req->target;
    bool ok = true;
    if (strncmp(t, "/missing", 8) == 0) {
        sdkrt_memory_response_set_status(resp, 404);
        ok = sdkrt_memory_response_add_header(resp, "Content-Type", "application/json") ==
                 SDKRT_OK &&
             sdkrt_memory_response_add_chunk(
                 resp, "{\"_tag\":\"NotFound\",\"seq\":0,\"text\":\"x\"}", 38) == SDKRT_OK;
        return ok ? 0 : -1;
    }
    ok = sdkrt_memory_response_add_header(resp, "Content-Type", "text/event-stream") == SDKRT_OK;
    if (strncmp(t, "/items", 6) == 0) {
        /* in two chunks, split inside an event */
        ok = ok && sdkrt_memory_response_add_chunk(resp, items_body, 40) == SDKRT_OK &&
             sdkrt_memory_response_add_chunk(resp, items_body + 40, sizeof items_body - 41) ==
                 SDKRT_OK;
    } else if (strncmp(t, "/fail", 5) == 0) {
        static const char b[] = "data: {\"seq\":1,\"text\":\"a\"}\n\n"
                                "event: failure\ndata: {\"_tag\":\"Fail\"}\n\n";
        ok = ok && sdkrt_memory_response_add_chunk(resp, b, sizeof b - 1) == SDKRT_OK;
    } else if (strstr(t, "after=")) {
        static const char b[] = "data: {\"seq\":2,\"text\":\"b\"}\n\n"
                                "data: {\"seq\":3,\"text\":\"c\"}\n\n"
                                "data: {\"seq\":4,\"text\":\"d\"}\n\n";
        ok = ok && sdkrt_memory_response_add_chunk(resp, b, sizeof b - 1) == SDKRT_OK;
    } else { /* /follow, first open: cut after two items */
        static const char b[] = "data: {\"seq\":1,\"text\":\"a\"}\n\n"
                                "data: {\"seq\":2,\"text\":\"b\"}\n\n";
        ok = ok && sdkrt_memory_response_add_chunk(resp, b, sizeof b - 1) == SDKRT_OK;
        sdkrt_memory_response_end_with_error(resp, SDKRT_REASON_TRANSPORT, "cut");
    }
    return ok ? 0 : -1;
}

typedef struct seen {
    sdkrt_async_stream *s;
    int64_t seqs[8];
    int items, poisons, reconnects, ends;
    int reason; /* -1: clean */
    int pause_at, cancel_at;
    sdkrt_loop *loop;
} seen;

static void resume_later(void *ud)
{
    sdkrt_async_stream_resume(((seen *)ud)->s);
}

static void on_item(void *ud, const void *it)
{
    seen *s = ud;
    if (s->items < 8)
        s->seqs[s->items] = s->loop ? ((const item *)it)->seq : 0;
    s->items++;
    if (s->pause_at == s->items) {
        sdkrt_async_stream_pause(s->s);
        sdkrt_loop_timer *t = NULL;
        if (sdkrt_loop_timer_start(&t, s->loop, 1, resume_later, s, NULL) != SDKRT_OK)
            sdkrt_async_stream_resume(s->s); /* out of memory: go on at once */
    }
    if (s->cancel_at == s->items)
        sdkrt_async_stream_cancel(s->s);
}

static void on_poison(void *ud, const void *p)
{
    (void)p;
    ((seen *)ud)->poisons++;
}

static void on_reconnect(void *ud, const void *ev)
{
    (void)ev;
    ((seen *)ud)->reconnects++;
}

static void on_end(void *ud, const sdkrt_error *err)
{
    seen *s = ud;
    s->ends++;
    s->reason = err ? (int)sdkrt_error_reason(err) : -1;
}

static const sdkrt_stream_handlers lenient = {on_item, on_poison, on_reconnect, on_end};
static const sdkrt_stream_handlers strict = {on_item, NULL, on_reconnect, on_end};

static sdkrt_status make_request(void *ud, const int64_t *after, sdkrt_request **out,
                                 sdkrt_error **err)
{
    (void)ud;
    if (sdkrt_request_new(out, "GET", "/follow") != SDKRT_OK)
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    if (after) {
        char v[24];
        snprintf(v, sizeof v, "%lld", (long long)*after);
        if (sdkrt_request_add_query(*out, "after", v) != SDKRT_OK)
            return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    }
    return SDKRT_OK;
}

static sdkrt_status start(seen *s, sdkrt_client *c, const char *path,
                          const sdkrt_stream_handlers *h, bool raw, sdkrt_error **err)
{
    sdkrt_request *req = NULL;
    if (sdkrt_request_new(&req, "GET", path) != SDKRT_OK)
        return SDKRT_ERR;
    sdkrt_status st = raw ? sdkrt_stream_start(&s->s, c, req, NULL, h, s, err)
                          : sdkrt_jstream_start(&s->s, c, req, NULL, &op_items, h, s, err);
    sdkrt_request_free(req);
    return st;
}

int run_astream(uint64_t *digest);
int run_astream(uint64_t *digest)
{
    int rc = 1;
    sdkrt_transport *t = NULL;
    sdkrt_loop *loop = NULL;
    sdkrt_client *c = NULL;
    sdkrt_error *err = NULL;
    enum { N = 9 };
    seen s[N];
    memset(s, 0, sizeof s);
    if (sdkrt_memory_transport_new(&t, handler, NULL) != SDKRT_OK ||
        sdkrt_loop_new(&loop, &err) != SDKRT_OK)
        goto done;
    for (int i = 0; i < N; i++)
        s[i].loop = loop;
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.base_url = "http://h.test";
    o.transport = t;
    o.loop = loop;
    if (sdkrt_client_new(&c, &o, &err) != SDKRT_OK)
        goto done;
    static const sdkrt_stream_handlers raw = {on_item, NULL, NULL, on_end};
    s[5].pause_at = 1;
    s[6].cancel_at = 2;
    sdkrt_follow_options fo = SDKRT_FOLLOW_OPTIONS_INIT;
    fo.initial_delay_ms = 1;
    fo.end_when_closed = true;
    if (start(&s[0], c, "/items", &lenient, false, &err) != SDKRT_OK ||
        start(&s[1], c, "/items", &strict, false, &err) != SDKRT_OK ||
        start(&s[2], c, "/fail", &lenient, false, &err) != SDKRT_OK ||
        start(&s[3], c, "/missing", &lenient, false, &err) != SDKRT_OK ||
        start(&s[4], c, "/items", &raw, true, &err) != SDKRT_OK ||
        start(&s[5], c, "/items", &lenient, false, &err) != SDKRT_OK ||
        start(&s[6], c, "/items", &lenient, false, &err) != SDKRT_OK ||
        sdkrt_follow_start(&s[7].s, c, &op_items, make_request, &seq_spec, &fo, &lenient, &s[7],
                           &err) != SDKRT_OK)
        goto done;
    s[4].loop = NULL; /* raw: events, not items */
    if (sdkrt_loop_run(loop, &err) != SDKRT_OK)
        goto done;
    /* pending when the loop goes: CANCELLED from sdkrt_loop_free */
    if (start(&s[8], c, "/items", &lenient, false, &err) != SDKRT_OK)
        goto done;
    sdkrt_client_free(c);
    c = NULL;
    sdkrt_loop_free(loop);
    loop = NULL;
    for (int i = 0; i < N; i++) {
        if (s[i].ends != 1 || s[i].reason == SDKRT_REASON_OUT_OF_MEMORY)
            goto done;
        *digest = digest_bytes(*digest, s[i].seqs, sizeof s[i].seqs);
        *digest = digest_bytes(*digest, &s[i].items, sizeof s[i].items);
        *digest = digest_bytes(*digest, &s[i].poisons, sizeof s[i].poisons);
        *digest = digest_bytes(*digest, &s[i].reconnects, sizeof s[i].reconnects);
        *digest = digest_bytes(*digest, &s[i].reason, sizeof s[i].reason);
    }
    rc = 0;
done:
    sdkrt_client_free(c);
    sdkrt_loop_free(loop);
    sdkrt_error_free(err);
    sdkrt_transport_free(t);
    return rc;
}
