/* scenarios.c - the jobs alloc_inject fails allocation by allocation. */
#include "scenarios.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sdkc/diag.h"
#include "sdkc/doc.h"
#include "sdkc/ir.h"
#include "sdkc/util.h"
#include "sdkc/compile.h"
#include "sdkc/ir_json.h"
#include "sdkrt/error.h"
#include "sdkrt/request.h"
#include "sdkrt/loop.h"
#include "sdkrt/sdkrt.h"
#include "sdkrt/sse.h"
#include "sdkrt/wire.h"

uint64_t digest_bytes(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    if (!h)
        h = 1469598103934665603u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211u;
    return (h ^ 0xff) * 1099511628211u;
}

static const char contract_yaml[] =
    "openapi: 3.1.0\n"
    "info: {title: t, version: '1'}\n"
    "paths:\n"
    "  /a/{id}:\n"
    "    get:\n"
    "      operationId: v2.a.get\n"
    "      parameters:\n"
    "        - {name: id, in: path, required: true, schema: {type: string, pattern: '^ses'}}\n"
    "      responses:\n"
    "        '200': {description: ok, content: {application/json: {schema: "
    "{$ref: '#/components/schemas/A'}}}}\n"
    "components:\n"
    "  schemas:\n"
    "    A:\n"
    "      type: object\n"
    "      required: [id]\n"
    "      properties:\n"
    "        id: {type: string}\n"
    "        tags: &t {type: array, items: {type: string}}\n"
    "        more: *t\n"
    "        b: |\n"
    "          block text\n"
    "        n: [1, 2.5, true, null, ~, 'x']\n";

static const char contract_json[] =
    "{\"openapi\":\"3.1.0\",\"paths\":{\"/x\":{\"post\":{\"operationId\":\"x\",\"responses\":"
    "{\"204\":{\"description\":\"none\"}}}}},\"components\":{\"schemas\":{\"E\":{\"type\":"
    "\"string\",\"enum\":[\"a\",\"b\\u00e9\\ud83d\\ude00\"]}}}}";

static int load_one(const char *name, const char *text, uint64_t *digest)
{
    sdkc_diag *diag = NULL;
    sdkc_doc *doc = NULL;
    int rc = 1;
    if (sdkc_diag_new(&diag) != SDKC_OK)
        goto done;
    if (sdkc_doc_load_buffer(&doc, name, text, strlen(text), diag) != SDKC_OK)
        goto done;
    size_t count = sdkc_doc_node_count(doc);
    *digest = digest_bytes(*digest, &count, sizeof count);
    const char *sha = sdkc_doc_sha256(doc);
    *digest = digest_bytes(*digest, sha, strlen(sha));
    const sdkc_node *n = sdkc_doc_pointer(doc, "/components/schemas/A/properties/b");
    if (n && n->str)
        *digest = digest_bytes(*digest, n->str, n->len);
    rc = 0;
done:
    sdkc_doc_free(doc);
    sdkc_diag_free(diag);
    return rc;
}

static int run_loader(uint64_t *digest)
{
    if (load_one("a.yaml", contract_yaml, digest) != 0)
        return 1;
    return load_one("b.json", contract_json, digest);
}

static const char sse_stream[] = "\xef\xbb\xbf: heartbeat\n"
                                 "id: evt_1\nevent: message\ndata: {\"a\":1}\n\n"
                                 "data: line one\r\ndata: line two\r\n\r\n"
                                 "retry: 1500\nevent: effect/httpapi/stream/failure\n"
                                 "data: [{\"_tag\":\"Fail\"}]\r\r"
                                 "id\ndata: x\n\n";

static int run_sse(uint64_t *digest)
{
    sdkrt_sse_parser *p = NULL;
    sdkrt_sse_options o = SDKRT_SSE_OPTIONS_INIT;
    o.max_event_bytes = 4096;
    int rc = 1;
    if (sdkrt_sse_parser_new(&p, &o) != SDKRT_SSE_OK)
        goto done;
    size_t len = sizeof sse_stream - 1;
    /* Feed in uneven pieces so that buffers grow more than once. */
    for (size_t off = 0, step = 1; off < len; off += step, step = step * 2 + 1) {
        size_t n = len - off < step ? len - off : step;
        if (sdkrt_sse_feed(p, sse_stream + off, n) != SDKRT_SSE_OK)
            goto done;
        sdkrt_sse_event ev;
        sdkrt_sse_status st;
        while ((st = sdkrt_sse_next(p, &ev)) == SDKRT_SSE_EVENT) {
            *digest = digest_bytes(*digest, ev.event, strlen(ev.event));
            *digest = digest_bytes(*digest, ev.data, ev.data_len);
            *digest = digest_bytes(*digest, ev.id, strlen(ev.id));
        }
        if (st != SDKRT_SSE_NEED_MORE)
            goto done;
    }
    sdkrt_sse_event ev;
    if (sdkrt_sse_finish(p, &ev) != SDKRT_SSE_END)
        goto done;
    rc = 0;
done:
    sdkrt_sse_parser_free(p);
    return rc;
}

static int run_request(uint64_t *digest)
{
    sdkrt_request *req = NULL;
    sdkrt_error *err = NULL;
    char *target = NULL;
    json_t *body = NULL;
    int rc = 1;
    if (sdkrt_request_new(&req, "POST", "/api/session/{sessionID}/message/{messageID}") != SDKRT_OK)
        goto done;
    if (sdkrt_request_set_path_param(req, "sessionID", "ses_../a b/é") != SDKRT_OK ||
        sdkrt_request_set_path_param(req, "messageID", "msg?#%") != SDKRT_OK ||
        sdkrt_request_add_query(req, "limit", "7") != SDKRT_OK ||
        sdkrt_request_add_query(req, "tag", "a&b=c") != SDKRT_OK ||
        sdkrt_request_add_query(req, "tag", "d") != SDKRT_OK ||
        sdkrt_request_add_query_deep(req, "filter", "kind", "x y") != SDKRT_OK ||
        sdkrt_request_set_header(req, "X-Test", "1") != SDKRT_OK)
        goto done;
    body = json_pack("{s:s, s:[i,i], s:b}", "text", "hello", "n", 1, 2, "resume", 0);
    if (!body)
        goto done;
    sdkrt_status st = sdkrt_request_set_json_body(req, body); /* stolen, also on failure */
    body = NULL;
    if (st != SDKRT_OK)
        goto done;
    if (sdkrt_request_target(&target, req, &err) != SDKRT_OK)
        goto done;
    *digest = digest_bytes(*digest, target, strlen(target));
    /* An error value with a formatted message, as every failing call builds one. */
    sdkrt_error_set(&err, SDKRT_REASON_UNEXPECTED_STATUS, "GET %s: status %d", target, 500);
    if (sdkrt_error_reason(err) != SDKRT_REASON_UNEXPECTED_STATUS)
        goto done; /* out of memory while building the error: reported as such */
    *digest = digest_bytes(*digest, sdkrt_error_message(err), strlen(sdkrt_error_message(err)));
    rc = 0;
done:
    json_decref(body);
    free(target);
    sdkrt_error_free(err);
    sdkrt_request_free(req);
    return rc;
}

/* Wire fidelity: styled parameters, a form body, a multipart body and an API key in the query,
 * sent through the in-memory transport; the digest covers what the server saw. */
static int wire_handler(void *ud, const sdkrt_memory_request *req, sdkrt_memory_response *resp)
{
    uint64_t *d = ud;
    *d = digest_bytes(*d, req->target, strlen(req->target));
    for (size_t i = 0; i < req->header_count; i++) {
        *d = digest_bytes(*d, req->headers[i].name, strlen(req->headers[i].name));
        *d = digest_bytes(*d, req->headers[i].value, strlen(req->headers[i].value));
    }
    if (req->body)
        *d = digest_bytes(*d, req->body, req->body_len);
    sdkrt_memory_response_set_status(resp, 204);
    return 0;
}

static int wire_send(sdkrt_client *c, sdkrt_request *req)
{
    sdkrt_response *resp = NULL;
    sdkrt_error *err = NULL;
    int rc = sdkrt_client_send(c, req, NULL, &resp, &err) == SDKRT_OK ? 0 : 1;
    sdkrt_response_free(resp);
    sdkrt_error_free(err);
    return rc;
}

static int run_wire(uint64_t *digest)
{
    int rc = 1;
    uint64_t seen = 0;
    sdkrt_transport *t = NULL;
    sdkrt_client *c = NULL;
    sdkrt_request *req = NULL;
    sdkrt_multipart *mp = NULL;
    sdkrt_error *err = NULL;
    json_t *v = NULL;
    /* [basic] or [key + id + session]: the second is sent, all three parts of it */
    static const sdkrt_security_scheme sec[] = {
        {"basic", SDKRT_SECURITY_HTTP_BASIC, SDKRT_IN_HEADER, NULL, false},
        {"key", SDKRT_SECURITY_API_KEY, SDKRT_IN_QUERY, "api_key", false},
        {"id", SDKRT_SECURITY_API_KEY, SDKRT_IN_HEADER, "X-Id", true},
        {"session", SDKRT_SECURITY_API_KEY, SDKRT_IN_COOKIE, "sid", true}};
    sdkrt_credential creds[] = {
        {"key", NULL, NULL, "k e y"}, {"id", NULL, NULL, "i"}, {"session", NULL, NULL, "s"}};
    if (sdkrt_memory_transport_new(&t, wire_handler, &seen) != SDKRT_OK)
        goto done;
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.base_url = "http://h.test/p";
    o.transport = t;
    o.credentials = creds;
    o.credential_count = 3;
    if (sdkrt_client_new(&c, &o, &err) != SDKRT_OK)
        goto done;
    if (sdkrt_request_new(&req, "POST", "/a/{ids}") != SDKRT_OK)
        goto done;
    v = json_pack("[i,i]", 1, 2);
    sdkrt_param_spec path = {"ids", SDKRT_IN_PATH, SDKRT_STYLE_MATRIX, true, false};
    sdkrt_param_spec deep = {"f", SDKRT_IN_QUERY, SDKRT_STYLE_DEEP_OBJECT, true, false};
    sdkrt_param_spec cookie = {"c", SDKRT_IN_COOKIE, SDKRT_STYLE_FORM, false, false};
    if (!v || sdkrt_request_add_param(req, &path, v, &err) != SDKRT_OK ||
        sdkrt_request_add_param(req, &cookie, v, &err) != SDKRT_OK)
        goto done;
    json_decref(v);
    v = json_pack("{s:{s:s},s:s,s:[s,s]}", "a", "b", "c d", "e", "f", "g", "h", "i");
    if (!v || sdkrt_request_add_param(req, &deep, v, &err) != SDKRT_OK ||
        sdkrt_request_set_security(req, sec, 4) != SDKRT_OK ||
        sdkrt_request_set_form_body(req, v, NULL, 0, &err) != SDKRT_OK || wire_send(c, req))
        goto done;
    static const sdkrt_body_encoding styled[] = {
        {"a", NULL, SDKRT_STYLE_DEEP_OBJECT, true, false, true},
        {"g", NULL, SDKRT_STYLE_PIPE_DELIMITED, false, false, true}};
    if (sdkrt_multipart_new(&mp, &err) != SDKRT_OK ||
        sdkrt_multipart_set_boundary(mp, "bnd", &err) != SDKRT_OK ||
        sdkrt_multipart_add_json(mp, v, styled, 2, NULL, NULL, 0, &err) != SDKRT_OK)
        goto done;
    sdkrt_status st = sdkrt_request_set_multipart_body(req, mp); /* stolen */
    mp = NULL;
    if (st != SDKRT_OK || wire_send(c, req))
        goto done;
    *digest = digest_bytes(*digest, &seen, sizeof seen);
    rc = 0;
done:
    json_decref(v);
    sdkrt_multipart_free(mp);
    sdkrt_error_free(err);
    sdkrt_request_free(req);
    sdkrt_client_free(c);
    sdkrt_transport_free(t);
    return rc;
}

/* Retries: a POST with a generated idempotency key answered 503 (Retry-After), then a cut
 * connection, then 201; a second call cancelled during its wait; a stream with a key. The
 * digest covers the attempts, the statuses and whether each call kept one key. */
typedef struct retry_state {
    int attempts;
    char key[3][40];
} retry_state;

static int retry_handler(void *ud, const sdkrt_memory_request *req, sdkrt_memory_response *resp)
{
    retry_state *s = ud;
    int i = s->attempts++ % 3;
    s->key[i][0] = '\0';
    for (size_t h = 0; h < req->header_count; h++) {
        if (strcmp(req->headers[h].name, "Idempotency-Key") == 0)
            snprintf(s->key[i], sizeof s->key[i], "%s", req->headers[h].value);
    }
    if (i == 1)
        return -1;
    sdkrt_memory_response_set_status(resp, i == 0 ? 503 : 201);
    if (i == 0)
        sdkrt_memory_response_add_header(resp, "Retry-After", "Sun, 06 Nov 1994 08:49:37 GMT");
    return 0;
}

static void retry_sleep(void *ud, long ms, const sdkrt_cancel *cancel)
{
    (void)ms;
    (void)cancel;
    if (ud)
        sdkrt_cancel_trigger(ud);
}

static int run_retry(uint64_t *digest)
{
    int rc = 1;
    retry_state seen;
    memset(&seen, 0, sizeof seen);
    sdkrt_transport *t = NULL;
    sdkrt_client *c = NULL;
    sdkrt_request *req = NULL;
    sdkrt_response *resp = NULL;
    sdkrt_error *err = NULL;
    sdkrt_cancel *cancel = NULL;
    sdkrt_stream *st = NULL;
    if (sdkrt_memory_transport_new(&t, retry_handler, &seen) != SDKRT_OK ||
        sdkrt_cancel_new(&cancel) != SDKRT_OK)
        goto done;
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.base_url = "http://h.test";
    o.transport = t;
    o.retry.max_attempts = 3;
    o.retry.sleep = retry_sleep;
    if (sdkrt_client_new(&c, &o, &err) != SDKRT_OK ||
        sdkrt_request_new(&req, "POST", "/o") != SDKRT_OK)
        goto done;
    sdkrt_call_options co = SDKRT_CALL_OPTIONS_INIT;
    co.idempotency_key = SDKRT_IDEMPOTENCY_AUTO;
    if (sdkrt_client_send(c, req, &co, &resp, &err) != SDKRT_OK)
        goto done;
    int status = sdkrt_response_status(resp);
    bool one_key = seen.key[0][0] && strcmp(seen.key[0], seen.key[1]) == 0 &&
                   strcmp(seen.key[1], seen.key[2]) == 0;
    *digest = digest_bytes(*digest, &status, sizeof status);
    *digest = digest_bytes(*digest, &seen.attempts, sizeof seen.attempts);
    *digest = digest_bytes(*digest, &one_key, sizeof one_key);
    sdkrt_response_free(resp);
    resp = NULL;
    /* the wait is cancelled: CANCELLED after one attempt */
    sdkrt_retry_policy p = o.retry;
    p.userdata = cancel;
    co.retry = &p;
    co.cancel = cancel;
    seen.attempts = 0;
    if (sdkrt_client_send(c, req, &co, &resp, &err) == SDKRT_OK ||
        sdkrt_error_reason(err) != SDKRT_REASON_CANCELLED)
        goto done;
    *digest = digest_bytes(*digest, &seen.attempts, sizeof seen.attempts);
    sdkrt_error_clear(&err);
    sdkrt_cancel_reset(cancel);
    co.idempotency_key = "k";
    seen.attempts = 0;
    sdkrt_stream_event ev;
    if (sdkrt_client_stream(c, req, &co, &st, &err) != SDKRT_OK ||
        sdkrt_stream_next(st, &ev, &err) != SDKRT_STREAM_ERROR || sdkrt_error_status(err) != 503)
        goto done;
    *digest = digest_bytes(*digest, seen.key[0], strlen(seen.key[0]));
    rc = 0;
done:
    sdkrt_stream_close(st);
    sdkrt_response_free(resp);
    sdkrt_error_free(err);
    sdkrt_request_free(req);
    sdkrt_client_free(c);
    sdkrt_transport_free(t);
    sdkrt_cancel_free(cancel);
    return rc;
}

/* The example contract exercises every construct the compiler knows; read once, outside the
 * measured runs (the file's bytes are then a static input). */
static char *example_text;
static size_t example_len;

static int read_example(void)
{
    if (example_text)
        return 0;
    return sdkc_read_file(SDKC_SOURCE_DIR "/spec/examples/example.yaml", &example_text,
                          &example_len) == SDKC_OK
               ? 0
               : 1;
}

static int compile_example(sdkc_compiled **out)
{
    sdkc_diag *diag = NULL;
    sdkc_doc *doc = NULL;
    int rc = 1;
    *out = NULL;
    if (read_example() != 0 || sdkc_diag_new(&diag) != SDKC_OK)
        goto done;
    if (sdkc_doc_load_buffer(&doc, "example.yaml", example_text, example_len, diag) != SDKC_OK)
        goto done;
    sdkc_compile_options opts = SDKC_COMPILE_OPTIONS_INIT;
    if (sdkc_compile(out, doc, &opts, diag) != SDKC_OK)
        goto done;
    rc = 0;
done:
    sdkc_doc_free(doc);
    sdkc_diag_free(diag);
    return rc;
}

static int run_compile(uint64_t *digest)
{
    sdkc_compiled *c = NULL;
    char *json = NULL;
    size_t len = 0;
    int rc = 1;
    if (compile_example(&c) != 0)
        goto done;
    if (sdkc_ir_to_json(sdkc_compiled_ir(c), &json, &len) != SDKC_OK)
        goto done;
    *digest = digest_bytes(*digest, json, len);
    rc = 0;
done:
    free(json);
    sdkc_compiled_free(c);
    return rc;
}

/* IR JSON text of the example, made once outside the measured runs. */
static char *example_ir;
static size_t example_ir_len;

static int run_ir_json(uint64_t *digest)
{
    sdkc_diag *diag = NULL;
    sdkc_compiled *c = NULL;
    char *json = NULL;
    size_t len = 0;
    int rc = 1;
    if (!example_ir) {
        sdkc_compiled *first = NULL;
        if (compile_example(&first) != 0)
            return 1;
        sdkc_status st = sdkc_ir_to_json(sdkc_compiled_ir(first), &example_ir, &example_ir_len);
        sdkc_compiled_free(first);
        if (st != SDKC_OK)
            return 1;
    }
    if (sdkc_diag_new(&diag) != SDKC_OK)
        goto done;
    if (sdkc_ir_from_json(&c, "example.ir.json", example_ir, example_ir_len, diag) != SDKC_OK)
        goto done;
    if (sdkc_ir_to_json(sdkc_compiled_ir(c), &json, &len) != SDKC_OK)
        goto done;
    *digest = digest_bytes(*digest, json, len);
    rc = 0;
done:
    free(json);
    sdkc_compiled_free(c);
    sdkc_diag_free(diag);
    return rc;
}

/* ---- asynchronous calls on a loop: retries on timers, a cancel, a loop freed. The calls go
 * through the in-memory transport: libcurl's own allocation failures are its business (it leaks
 * on some), while the loop, its timers and the engine's call logic are ours. */

typedef struct async_seen {
    int calls, status;
    sdkrt_reason reason;
} async_seen;

static void async_done(void *ud, sdkrt_response *resp, const sdkrt_error *err)
{
    async_seen *a = ud;
    a->calls++;
    a->status = resp ? sdkrt_response_status(resp) : 0;
    a->reason = err ? sdkrt_error_reason(err) : SDKRT_REASON_NONE;
    sdkrt_response_free(resp);
}

static int async_handler(void *ud, const sdkrt_memory_request *req, sdkrt_memory_response *resp)
{
    (void)req;
    int *n = ud;
    if ((*n)++ % 2 == 0) {
        sdkrt_memory_response_set_status(resp, 429);
        return sdkrt_memory_response_add_header(resp, "retry-after-ms", "1") == SDKRT_OK ? 0 : -1;
    }
    sdkrt_memory_response_set_status(resp, 201);
    return 0;
}

static int run_async(uint64_t *digest)
{
    int rc = 1, n = 0;
    sdkrt_transport *t = NULL;
    sdkrt_loop *loop = NULL;
    sdkrt_client *c = NULL;
    sdkrt_request *req = NULL;
    sdkrt_error *err = NULL;
    sdkrt_cancel *cancel = NULL;
    async_seen a[3];
    memset(a, 0, sizeof a);
    if (sdkrt_memory_transport_new(&t, async_handler, &n) != SDKRT_OK ||
        sdkrt_cancel_new(&cancel) != SDKRT_OK || sdkrt_loop_new(&loop, &err) != SDKRT_OK)
        goto done;
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.base_url = "http://h.test";
    o.transport = t;
    o.loop = loop;
    if (sdkrt_client_new(&c, &o, &err) != SDKRT_OK ||
        sdkrt_request_new(&req, "POST", "/o") != SDKRT_OK)
        goto done;
    sdkrt_call_options co = SDKRT_CALL_OPTIONS_INIT;
    co.idempotency_key = SDKRT_IDEMPOTENCY_AUTO;
    sdkrt_call_options cancelled = SDKRT_CALL_OPTIONS_INIT;
    cancelled.cancel = cancel;
    sdkrt_cancel_trigger(cancel);
    if (sdkrt_client_send_async(c, req, &co, async_done, &a[0], &err) != SDKRT_OK ||
        sdkrt_client_send_async(c, req, &cancelled, async_done, &a[1], &err) != SDKRT_OK ||
        sdkrt_loop_run(loop, &err) != SDKRT_OK)
        goto done;
    /* pending when the loop goes: CANCELLED from sdkrt_loop_free */
    if (sdkrt_client_send_async(c, req, NULL, async_done, &a[2], &err) != SDKRT_OK)
        goto done;
    sdkrt_loop_free(loop);
    loop = NULL;
    for (int i = 0; i < 3; i++) {
        if (a[i].calls != 1 || a[i].reason == SDKRT_REASON_OUT_OF_MEMORY)
            goto done;
        *digest = digest_bytes(*digest, &a[i].status, sizeof a[i].status);
        *digest = digest_bytes(*digest, &a[i].reason, sizeof a[i].reason);
    }
    rc = 0;
done:
    sdkrt_loop_free(loop);
    sdkrt_error_free(err);
    sdkrt_request_free(req);
    sdkrt_client_free(c);
    sdkrt_cancel_free(cancel);
    sdkrt_transport_free(t);
    return rc;
}

int run_astream(uint64_t *digest); /* astream.c */

#ifdef SDKC_HAVE_OC
int run_decoders(uint64_t *digest); /* decoders.c */
int run_sdk_call(uint64_t *digest);
int run_sdk_async(uint64_t *digest);
#endif

const scenario scenarios[] = {
    {"loader", "compiler", run_loader},      {"sse", "runtime", run_sse},
    {"request", "runtime", run_request},     {"wire", "runtime", run_wire},
    {"retry", "runtime", run_retry},         {"compile", "compiler", run_compile},
    {"ir_json", "compiler", run_ir_json},    {"async", "runtime", run_async},
    {"astream", "runtime", run_astream},
#ifdef SDKC_HAVE_OC
    {"decoders", "emitter", run_decoders},   {"sdk_call", "emitter", run_sdk_call},
    {"sdk_async", "emitter", run_sdk_async},
#endif
};
const size_t n_scenarios = sizeof scenarios / sizeof scenarios[0];
