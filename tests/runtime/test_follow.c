/* test_follow.c - streams a user can rely on: cancel tokens triggered from a signal handler while
 * a call blocks (libcurl, test server), stream idle timeouts on a server that accepts and never
 * answers or sends nothing, poison events on typed streams, and the durable-stream follower
 * (sdkrt/follow.h) over the in-memory transport and the test server: transport loss mid-stream,
 * 503 then recovery, an idle timeout, a poison event, an unknown variant, a replayed overlap,
 * cancel during the backoff, max attempts, strict mode and final errors. Every delivered item's
 * sequence is checked: none lost, none repeated. */
#include <check.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "sdkrt/follow.h"
#include "sdkrt/json.h"
#include "sdkrt/sdkrt.h"
#include "test_server.h"

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* ---- item descriptors: a union on "type" of {a: text}, {b: n}, both with durable.seq ---- */

static const sdkrt_jtype t_string = {
    .kind = SDKRT_JK_STRING, .name = "string", .size = sizeof(char *)};
static const sdkrt_jtype t_int = {
    .kind = SDKRT_JK_INTEGER, .name = "integer", .size = sizeof(int64_t)};
static const sdkrt_jtype t_lit_a = {
    .kind = SDKRT_JK_LITERAL, .name = "\"a\"", .size = 1, .literal = "\"a\""};
static const sdkrt_jtype t_lit_b = {
    .kind = SDKRT_JK_LITERAL, .name = "\"b\"", .size = 1, .literal = "\"b\""};

typedef struct durable {
    int64_t seq;
} durable;
static const sdkrt_jfield durable_fields[] = {
    {"seq", &t_int, SDKRT_JF_REQUIRED, offsetof(durable, seq), SDKRT_JNONE, SDKRT_JNONE},
};
static const sdkrt_jtype t_durable = {.kind = SDKRT_JK_OBJECT,
                                      .name = "Durable",
                                      .size = sizeof(durable),
                                      .fields = durable_fields,
                                      .nfields = 1};

typedef struct var_a {
    bool has_durable;
    durable durable;
    char *text;
} var_a;
static const sdkrt_jfield a_fields[] = {
    {"type", &t_lit_a, SDKRT_JF_REQUIRED, SDKRT_JNONE, SDKRT_JNONE, SDKRT_JNONE},
    {"durable", &t_durable, 0, offsetof(var_a, durable), offsetof(var_a, has_durable), SDKRT_JNONE},
    {"text", &t_string, SDKRT_JF_REQUIRED, offsetof(var_a, text), SDKRT_JNONE, SDKRT_JNONE},
};
static const sdkrt_jtype t_a = {
    .kind = SDKRT_JK_OBJECT, .name = "A", .size = sizeof(var_a), .fields = a_fields, .nfields = 3};

typedef struct var_b {
    bool has_durable;
    durable durable;
    int64_t n;
} var_b;
static const sdkrt_jfield b_fields[] = {
    {"type", &t_lit_b, SDKRT_JF_REQUIRED, SDKRT_JNONE, SDKRT_JNONE, SDKRT_JNONE},
    {"durable", &t_durable, 0, offsetof(var_b, durable), offsetof(var_b, has_durable), SDKRT_JNONE},
    {"n", &t_int, SDKRT_JF_REQUIRED, offsetof(var_b, n), SDKRT_JNONE, SDKRT_JNONE},
};
static const sdkrt_jtype t_b = {
    .kind = SDKRT_JK_OBJECT, .name = "B", .size = sizeof(var_b), .fields = b_fields, .nfields = 3};

typedef struct event {
    int kind; /* 0 unknown, 1 a, 2 b */
    json_t *unknown;
    union {
        var_a a;
        var_b b;
    } u;
} event;
static const sdkrt_jvariant event_variants[] = {{"a", &t_a, 0}, {"b", &t_b, 0}};
static const sdkrt_jtype t_event = {.kind = SDKRT_JK_UNION,
                                    .name = "Event",
                                    .size = sizeof(event),
                                    .variants = event_variants,
                                    .nvariants = 2,
                                    .discriminator = "type",
                                    .value_offset = offsetof(event, u)};

/* The same union with its shared fields described: an unknown variant exposes them too. */
typedef struct event_common {
    bool has_durable;
    durable durable;
} event_common;
static const sdkrt_jfield common_fields[] = {
    {"durable", &t_durable, 0, offsetof(event_common, durable), offsetof(event_common, has_durable),
     SDKRT_JNONE},
};
static const sdkrt_jtype t_common = {.kind = SDKRT_JK_OBJECT,
                                     .name = "EventCommon",
                                     .size = sizeof(event_common),
                                     .fields = common_fields,
                                     .nfields = 1};
typedef struct event2 {
    int kind;
    json_t *unknown;
    union {
        var_a a;
        var_b b;
        event_common common;
    } u;
} event2;
static const sdkrt_jtype t_event2 = {.kind = SDKRT_JK_UNION,
                                     .name = "Event",
                                     .size = sizeof(event2),
                                     .variants = event_variants,
                                     .nvariants = 2,
                                     .discriminator = "type",
                                     .value_offset = offsetof(event2, u),
                                     .common = &t_common};

static const sdkrt_jerror op_errors[] = {{404, "NotFound", &t_durable, false},
                                         {503, "Unavailable", &t_durable, false}};
static const sdkrt_jop op_events = {.id = "t.events",
                                    .status = 200,
                                    .encoding = SDKRT_JENC_SSE,
                                    .errors = op_errors,
                                    .nerrors = 2,
                                    .item = &t_event,
                                    .item_encoded = true,
                                    .failure_event = "effect/httpapi/stream/failure"};

static const char *const seq_path[] = {"durable", "seq"};
static const sdkrt_follow_sequence seq_spec = {seq_path, 2};

/* ---- a scripted server: one script per connection, on either transport ---- */

typedef struct conn_script {
    int status;       /* 0: the connection is cut before any response */
    const char *body; /* SSE bytes (status 200) or an error body */
    bool cut;         /* after the body, cut the connection (else close cleanly) */
    bool stall;       /* after the body, send nothing more (test server only) */
} conn_script;

typedef struct server {
    const conn_script *scripts;
    size_t nscripts;
    atomic_int opened;
    atomic_int with_header; /* requests that carried X-Follow: yes */
    char targets[16][128];
    ts_server *ts;
    sdkrt_transport *mem;
    sdkrt_client *client;
} server;

static const conn_script *script_for(server *s, const char *target)
{
    int i = atomic_fetch_add(&s->opened, 1);
    if (i < 16)
        snprintf(s->targets[i], sizeof s->targets[i], "%.100s", target);
    return (size_t)i < s->nscripts ? &s->scripts[i] : NULL;
}

static int memory_handler(void *ud, const sdkrt_memory_request *req, sdkrt_memory_response *resp)
{
    server *srv = ud;
    for (size_t i = 0; i < req->header_count; i++)
        if (strcmp(req->headers[i].name, "X-Follow") == 0 &&
            strcmp(req->headers[i].value, "yes") == 0)
            atomic_fetch_add(&srv->with_header, 1);
    const conn_script *cs = script_for(ud, req->target);
    if (!cs || cs->status == 0)
        return -1; /* connection refused */
    sdkrt_memory_response_set_status(resp, cs->status);
    sdkrt_memory_response_add_header(resp, "Content-Type",
                                     cs->status == 200 ? "text/event-stream" : "application/json");
    if (cs->body)
        sdkrt_memory_response_add_chunk(resp, cs->body, strlen(cs->body));
    if (cs->cut)
        sdkrt_memory_response_end_with_error(resp, SDKRT_REASON_TRANSPORT, "connection reset");
    return 0;
}

static int serve_scripts(void *ud, const ts_request *req, ts_conn *c)
{
    char value[16];
    if (ts_header(req, "X-Follow", value, sizeof value) && strcmp(value, "yes") == 0)
        atomic_fetch_add(&((server *)ud)->with_header, 1);
    const conn_script *cs = script_for(ud, req->target);
    if (!cs || cs->status == 0) {
        ts_reset(c);
        return -1;
    }
    if (ts_chunked_head(c, cs->status,
                        cs->status == 200 ? "text/event-stream" : "application/json") != 0)
        return -1;
    if (cs->body && ts_chunk(c, cs->body, strlen(cs->body)) != 0)
        return -1;
    if (cs->stall) {
        ts_sleep(c, 30000);
        return -1;
    }
    if (cs->cut) {
        ts_reset(c);
        return -1;
    }
    ts_chunk_end(c);
    return -1; /* a stream ends with its connection */
}

static void server_open(server *s, bool curl, const conn_script *scripts, size_t n, long idle_ms)
{
    memset(s, 0, sizeof *s);
    s->scripts = scripts;
    s->nscripts = n;
    atomic_init(&s->opened, 0);
    atomic_init(&s->with_header, 0);
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.retry.max_attempts = 1; /* one attempt is what these tests mean */
    o.idle_timeout_ms = idle_ms;
    if (curl) {
        ck_assert_int_eq(ts_start(&s->ts, serve_scripts, s), 0);
        o.base_url = ts_url(s->ts);
    } else {
        ck_assert_int_eq(sdkrt_memory_transport_new(&s->mem, memory_handler, s), SDKRT_OK);
        o.base_url = "http://api.test";
        o.transport = s->mem;
    }
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_new(&s->client, &o, &err), SDKRT_OK);
}

static void server_close(server *s)
{
    sdkrt_client_free(s->client);
    sdkrt_transport_free(s->mem);
    ts_stop(s->ts);
}

/* The follower's open callback: GET /events?after=N. */
static sdkrt_status open_events(void *ud, const int64_t *after, const sdkrt_call_options *call,
                                sdkrt_jstream **out, sdkrt_error **err)
{
    server *s = ud;
    sdkrt_request *req = NULL;
    if (sdkrt_request_new(&req, "GET", "/events") != SDKRT_OK)
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    if (after) {
        char text[32];
        snprintf(text, sizeof text, "%lld", (long long)*after);
        sdkrt_request_add_query(req, "after", text);
    }
    sdkrt_status st = sdkrt_jstream_open(out, s->client, req, call, &op_events, err);
    sdkrt_request_free(req);
    return st;
}

/* What a follower yielded, as one line each: "item 3 a", "poison 6", "reconnect 1 after 3
 * TRANSPORT", "end", "error NotFound" / "error CANCELLED". */
typedef struct trace {
    char lines[32][160];
    size_t n;
    int64_t seqs[32];
    size_t nseqs;
} trace;

static void run_follower(sdkrt_follow *f, trace *t, size_t max_steps)
{
    memset(t, 0, sizeof *t);
    for (size_t step = 0; step < max_steps && t->n < 32; step++) {
        sdkrt_follow_event ev;
        sdkrt_error *err = NULL;
        sdkrt_stream_result r = sdkrt_follow_next(f, &ev, &err);
        char *line = t->lines[t->n++];
        if (r == SDKRT_STREAM_END) {
            snprintf(line, 160, "end");
            return;
        }
        if (r == SDKRT_STREAM_ERROR) {
            const char *tag = sdkrt_error_tag(err);
            snprintf(line, 160, "error %s", tag ? tag : sdkrt_reason_name(sdkrt_error_reason(err)));
            sdkrt_error_free(err);
            return;
        }
        ck_assert_int_eq(r, SDKRT_STREAM_EVENT);
        if (ev.kind != SDKRT_FOLLOW_RECONNECT && ev.has_seq)
            t->seqs[t->nseqs++] = ev.seq;
        if (ev.kind == SDKRT_FOLLOW_ITEM) {
            const event *e = ev.item;
            snprintf(line, 160, "item %lld %s", ev.has_seq ? (long long)ev.seq : -1LL,
                     e->kind == 1   ? "a"
                     : e->kind == 2 ? "b"
                                    : "unknown");
        } else if (ev.kind == SDKRT_FOLLOW_POISON) {
            ck_assert_ptr_nonnull(ev.error);
            ck_assert_int_eq(sdkrt_error_reason(ev.error), SDKRT_REASON_MALFORMED_RESPONSE);
            ck_assert_ptr_nonnull(ev.data);
            snprintf(line, 160, "poison %lld %s", ev.has_seq ? (long long)ev.seq : -1LL,
                     ev.raw ? "json" : "text");
        } else {
            ck_assert_int_eq(ev.kind, SDKRT_FOLLOW_RECONNECT);
            ck_assert_ptr_nonnull(ev.error);
            ck_assert_int_ge(ev.delay_ms, 0);
            const char *why = sdkrt_error_tag(ev.error);
            snprintf(line, 160, "reconnect %u after %lld %s", ev.attempt,
                     ev.has_after ? (long long)ev.after : -1LL,
                     why ? why : sdkrt_reason_name(sdkrt_error_reason(ev.error)));
        }
    }
}

static void expect_trace(const trace *t, const char *const *want)
{
    size_t n = 0;
    while (want[n])
        n++;
    for (size_t i = 0; i < t->n || i < n; i++)
        ck_assert_msg(i < t->n && i < n && strcmp(t->lines[i], want[i]) == 0,
                      "step %zu: got \"%s\", want \"%s\"", i, i < t->n ? t->lines[i] : "(nothing)",
                      i < n ? want[i] : "(nothing)");
    /* no item lost or repeated: the sequences delivered go up by one */
    for (size_t i = 1; i < t->nseqs; i++)
        ck_assert_msg(t->seqs[i] == t->seqs[i - 1] + 1, "sequence %lld after %lld",
                      (long long)t->seqs[i], (long long)t->seqs[i - 1]);
}

#define A(seq) "data: {\"type\":\"a\",\"durable\":{\"seq\":" #seq "},\"text\":\"t" #seq "\"}\n\n"
#define B(seq) "data: {\"type\":\"b\",\"durable\":{\"seq\":" #seq "},\"n\":" #seq "}\n\n"

static sdkrt_follow *follower(server *s, const sdkrt_follow_options *o)
{
    sdkrt_follow *f = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_follow_new(&f, open_events, s, &seq_spec, o, &err), SDKRT_OK);
    return f;
}

static sdkrt_follow_options fast_options(void)
{
    sdkrt_follow_options o = SDKRT_FOLLOW_OPTIONS_INIT;
    o.initial_delay_ms = 1;
    o.max_delay_ms = 4;
    return o;
}

/* Loss mid-stream, a refused reconnect, 503 then recovery with a replayed overlap, a poison
 * event, an unknown variant, an item without a sequence, a clean close, then a 404 that is final.
 */
static void follow_recovers(bool curl)
{
    static const conn_script scripts[] = {
        {200, ": heartbeat\n\n" A(1) B(2) A(3) "data: {\"type\":\"a\",", true, false},
        {0, NULL, false, false},
        {503, "{\"seq\":0}", false, false},
        {200,
         A(2) A(3) B(
             4) "data: \"{\\\"type\\\":\\\"b\\\",\\\"durable\\\":{\\\"seq\\\":5},\\\"n\\\":5}\"\n\n"
                "data: {\"type\":\"a\",\"durable\":{\"seq\":6},\"text\":7}\n\n"
                "data: {\"type\":\"z\",\"durable\":{\"seq\":7},\"extra\":true}\n\n"
                "data: {\"type\":\"a\",\"text\":\"no seq\"}\n\n"
                "data: not json\n\n" A(8),
         false, false},
        {404, "{\"_tag\":\"NotFound\",\"seq\":1}", false, false},
    };
    server s;
    server_open(&s, curl, scripts, 5, 0);
    sdkrt_follow_options o = fast_options();
    static const sdkrt_header follow_header = {"X-Follow", "yes"};
    sdkrt_call_options call = SDKRT_CALL_OPTIONS_INIT;
    call.headers = &follow_header;
    call.header_count = 1;
    o.call = &call;
    sdkrt_follow *f = follower(&s, &o);
    trace t;
    run_follower(f, &t, 30);
    static const char *const want[] = {"item 1 a",
                                       "item 2 b",
                                       "item 3 a",
                                       "reconnect 1 after 3 TRANSPORT",
                                       "reconnect 2 after 3 TRANSPORT",
                                       "reconnect 3 after 3 UNEXPECTED_STATUS",
                                       "item 4 b",
                                       "item 5 b",
                                       "poison 6 json",
                                       "item 7 unknown",
                                       "item -1 a",
                                       "poison -1 text",
                                       "item 8 a",
                                       "reconnect 1 after 8 TRANSPORT",
                                       "error NotFound",
                                       NULL};
    expect_trace(&t, want);
    int64_t last = 0;
    ck_assert(sdkrt_follow_last_seq(f, &last));
    ck_assert_int_eq(last, 8);
    ck_assert_int_eq(atomic_load(&s.opened), 5);
    ck_assert_int_eq(atomic_load(&s.with_header), 5);
    ck_assert_str_eq(s.targets[0], "/events");
    ck_assert_str_eq(s.targets[1], "/events?after=3");
    ck_assert_str_eq(s.targets[2], "/events?after=3");
    ck_assert_str_eq(s.targets[3], "/events?after=3");
    ck_assert_str_eq(s.targets[4], "/events?after=8");
    /* finished: the error again */
    sdkrt_follow_event ev;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_follow_next(f, &ev, &err), SDKRT_STREAM_ERROR);
    ck_assert_str_eq(sdkrt_error_tag(err), "NotFound");
    sdkrt_error_free(err);
    sdkrt_follow_free(f);
    server_close(&s);
}

START_TEST(follow_recovers_memory)
{
    follow_recovers(false);
}
END_TEST

START_TEST(follow_recovers_curl)
{
    follow_recovers(true);
}
END_TEST

/* Whether t went wrong first by a reconnect after a TIMEOUT where want has something else. The
 * test server sends each script's bytes at once, so that means the machine (valgrind, load) was
 * slower than the idle timeout, not that the follower misbehaved: the case is then run again with
 * a longer timeout rather than failed. */
static bool premature_timeout(const trace *t, const char *const *want)
{
    for (size_t i = 0; i < t->n && want[i]; i++) {
        if (strcmp(t->lines[i], want[i]) == 0)
            continue;
        const char *line = t->lines[i];
        size_t n = strlen(line);
        return strncmp(line, "reconnect ", 10) == 0 && n > 8 &&
               strcmp(line + n - 8, " TIMEOUT") == 0;
    }
    return false;
}

/* A stream that goes silent (no byte, no heartbeat) is lost after the idle timeout and reopened
 * after the last sequence; the 503 here is a declared error (a DOMAIN error of status 503), also
 * retried. The timeout doubles (up to 16 times) while a run timed out before the server's bytes
 * arrived: what the case checks stays exact, and a slow machine cannot fail it. */
START_TEST(follow_idle_timeout_curl)
{
    static const conn_script scripts[] = {
        {200, ": heartbeat\n\n" A(1) A(2), false, true},
        {503, "{\"_tag\":\"Unavailable\",\"seq\":0}", false, false},
        {200, A(3), false, true},
        {200, A(3) B(4), false, false},
    };
    static const char *const want[] = {"item 1 a",
                                       "item 2 a",
                                       "reconnect 1 after 2 TIMEOUT",
                                       "reconnect 2 after 2 Unavailable",
                                       "item 3 a",
                                       "reconnect 1 after 3 TIMEOUT",
                                       "item 4 b",
                                       "end",
                                       NULL};
    for (long idle_ms = 300;; idle_ms *= 2) {
        server s;
        server_open(&s, true, scripts, 4, idle_ms);
        sdkrt_follow_options o = fast_options();
        o.end_when_closed = true;
        o.has_after = true;
        o.after = 0;
        sdkrt_follow *f = follower(&s, &o);
        trace t;
        run_follower(f, &t, 20);
        sdkrt_follow_free(f);
        bool again = idle_ms < 300 * 16 && premature_timeout(&t, want);
        if (!again) {
            expect_trace(&t, want);
            ck_assert_str_eq(s.targets[0], "/events?after=0");
            ck_assert_str_eq(s.targets[1], "/events?after=2");
            ck_assert_str_eq(s.targets[3], "/events?after=3");
        }
        server_close(&s);
        if (!again)
            break;
    }
}
END_TEST

START_TEST(follow_gives_up_after_max_attempts)
{
    static const conn_script scripts[] = {{200, A(1), true, false}};
    server s;
    server_open(&s, false, scripts, 1, 0); /* every later connection is refused */
    sdkrt_follow_options o = fast_options();
    o.max_attempts = 3;
    sdkrt_follow *f = follower(&s, &o);
    trace t;
    run_follower(f, &t, 20);
    static const char *const want[] = {"item 1 a",
                                       "reconnect 1 after 1 TRANSPORT",
                                       "reconnect 2 after 1 TRANSPORT",
                                       "reconnect 3 after 1 TRANSPORT",
                                       "error TRANSPORT",
                                       NULL};
    expect_trace(&t, want);
    ck_assert_int_eq(atomic_load(&s.opened), 4);
    sdkrt_follow_event ev;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_follow_next(f, &ev, &err), SDKRT_STREAM_ERROR);
    ck_assert_msg(strstr(sdkrt_error_message(err), "gave up after 3 reconnects") != NULL, "%s",
                  sdkrt_error_message(err));
    sdkrt_error_free(err);
    sdkrt_follow_free(f);
    server_close(&s);
}
END_TEST

/* Never reconnects on a failure frame, a 4xx without a declared tag, or a poison event in strict
 * mode. */
START_TEST(follow_final_errors)
{
    static const conn_script failure[] = {
        {200,
         A(1) "event: effect/httpapi/stream/failure\ndata: [{\"_tag\":\"Die\",\"defect\":1}]\n\n",
         false, false}};
    static const conn_script unauthorized[] = {{401, "{}", false, false}};
    static const conn_script poison[] = {
        {200, A(1) "data: {\"type\":\"a\",\"durable\":{\"seq\":2}}\n\n" A(3), false, false}};
    struct {
        const conn_script *scripts;
        bool strict;
        const char *const want[3];
    } cases[] = {
        {failure, false, {"item 1 a", "error StreamFailure", NULL}},
        {unauthorized, false, {"error UNEXPECTED_STATUS", NULL, NULL}},
        {poison, true, {"item 1 a", "error MALFORMED_RESPONSE", NULL}},
    };
    for (size_t i = 0; i < 3; i++) {
        server s;
        server_open(&s, false, cases[i].scripts, 1, 0);
        sdkrt_follow_options o = fast_options();
        o.strict = cases[i].strict;
        sdkrt_follow *f = follower(&s, &o);
        trace t;
        run_follower(f, &t, 10);
        expect_trace(&t, cases[i].want);
        ck_assert_int_eq(atomic_load(&s.opened), 1);
        sdkrt_follow_free(f);
        server_close(&s);
    }
}
END_TEST

/* ---- cancellation ---- */

static void *trigger_later(void *arg)
{
    sleep_ms(100);
    sdkrt_cancel_trigger(arg);
    return NULL;
}

/* The backoff is a minute long: only the token can end the wait. */
START_TEST(follow_cancel_during_backoff)
{
    static const conn_script scripts[] = {{200, A(1), true, false}};
    server s;
    server_open(&s, false, scripts, 1, 0);
    sdkrt_cancel *c = NULL;
    ck_assert_int_eq(sdkrt_cancel_new(&c), SDKRT_OK);
    sdkrt_follow_options o = SDKRT_FOLLOW_OPTIONS_INIT;
    o.initial_delay_ms = 120000;
    o.max_delay_ms = 120000;
    o.cancel = c;
    sdkrt_follow *f = follower(&s, &o);
    sdkrt_follow_event ev;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_follow_next(f, &ev, &err), SDKRT_STREAM_EVENT);
    ck_assert_int_eq(ev.kind, SDKRT_FOLLOW_ITEM);
    ck_assert_int_eq(sdkrt_follow_next(f, &ev, &err), SDKRT_STREAM_EVENT);
    ck_assert_int_eq(ev.kind, SDKRT_FOLLOW_RECONNECT);
    ck_assert_int_ge(ev.delay_ms, 60000);
    pthread_t th;
    ck_assert_int_eq(pthread_create(&th, NULL, trigger_later, c), 0);
    ck_assert_int_eq(sdkrt_follow_next(f, &ev, &err), SDKRT_STREAM_ERROR);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_CANCELLED);
    pthread_join(th, NULL);
    sdkrt_error_free(err);
    ck_assert_int_eq(atomic_load(&s.opened), 1);
    sdkrt_follow_free(f);
    sdkrt_cancel_free(c);
    server_close(&s);
}
END_TEST

static sdkrt_cancel *signal_token;

static void on_signal(int sig)
{
    (void)sig;
    sdkrt_cancel_trigger(signal_token);
}

static void arm(int sig, int ms)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    ck_assert_int_eq(sigaction(sig, &sa, NULL), 0);
    if (sig == SIGALRM) {
        struct itimerval it = {{0, 0}, {0, ms * 1000}};
        ck_assert_int_eq(setitimer(ITIMER_REAL, &it, NULL), 0);
    }
}

typedef struct killer {
    pthread_t target;
    int sig;
} killer;

static void *kill_later(void *arg)
{
    killer *k = arg;
    sleep_ms(150);
    pthread_kill(k->target, k->sig);
    return NULL;
}

static int serve_stall(void *ud, const ts_request *req, ts_conn *c)
{
    (void)req;
    bool headers = *(bool *)ud;
    if (headers && ts_chunked_head(c, 200, "text/event-stream") != 0)
        return -1;
    ts_sleep(c, 30000);
    return -1;
}

/* A stream read blocked on a silent server (SIGALRM) and a unary call blocked on a server that
 * never answers (SIGUSR1 sent to the blocked thread): the handler triggers, the call is CANCELLED.
 */
START_TEST(cancel_from_signal_handler)
{
    for (int round = 0; round < 2; round++) {
        bool headers = round == 0;
        ts_server *srv = NULL;
        ck_assert_int_eq(ts_start(&srv, serve_stall, &headers), 0);
        sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
        o.retry.max_attempts = 1; /* one attempt is what these tests mean */
        o.base_url = ts_url(srv);
        sdkrt_client *client = NULL;
        sdkrt_error *err = NULL;
        ck_assert_int_eq(sdkrt_client_new(&client, &o, &err), SDKRT_OK);
        ck_assert_int_eq(sdkrt_cancel_new(&signal_token), SDKRT_OK);
        sdkrt_call_options call = SDKRT_CALL_OPTIONS_INIT;
        call.cancel = signal_token;
        sdkrt_request *req = NULL;
        ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/event"), SDKRT_OK);
        if (round == 0) {
            arm(SIGALRM, 150);
            sdkrt_stream *st = NULL;
            ck_assert_int_eq(sdkrt_client_stream(client, req, &call, &st, &err), SDKRT_OK);
            sdkrt_stream_event ev;
            ck_assert_int_eq(sdkrt_stream_next(st, &ev, &err), SDKRT_STREAM_ERROR);
            sdkrt_stream_close(st);
        } else {
            arm(SIGUSR1, 0);
            killer k = {pthread_self(), SIGUSR1};
            pthread_t th;
            ck_assert_int_eq(pthread_create(&th, NULL, kill_later, &k), 0);
            sdkrt_response *resp = NULL;
            ck_assert_int_eq(sdkrt_client_send(client, req, &call, &resp, &err), SDKRT_ERR);
            pthread_join(th, NULL);
        }
        ck_assert_msg(sdkrt_error_reason(err) == SDKRT_REASON_CANCELLED, "%s",
                      sdkrt_error_message(err));
        ck_assert(sdkrt_cancel_is_triggered(signal_token));
        sdkrt_error_free(err);
        sdkrt_request_free(req);
        sdkrt_cancel_free(signal_token);
        signal_token = NULL;
        sdkrt_client_free(client);
        ts_stop(srv);
    }
    signal(SIGALRM, SIG_DFL);
    signal(SIGUSR1, SIG_DFL);
}
END_TEST

static bool fd_readable(int fd)
{
    struct pollfd p = {fd, POLLIN, 0};
    return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

START_TEST(cancel_token_fd_and_wait)
{
    sdkrt_cancel *c = NULL;
    ck_assert_int_eq(sdkrt_cancel_new(&c), SDKRT_OK);
    ck_assert_int_ge(sdkrt_cancel_fd(c), 0);
    ck_assert(!fd_readable(sdkrt_cancel_fd(c)));
    ck_assert(!sdkrt_cancel_wait(c, 1));
    sdkrt_cancel_trigger(c);
    sdkrt_cancel_trigger(c); /* idempotent */
    ck_assert(fd_readable(sdkrt_cancel_fd(c)));
    ck_assert(sdkrt_cancel_wait(c, 600000)); /* returns at once */
    sdkrt_cancel_reset(c);
    ck_assert(!sdkrt_cancel_is_triggered(c));
    ck_assert(!fd_readable(sdkrt_cancel_fd(c)));
    /* a long wait ended by another thread */
    pthread_t th;
    ck_assert_int_eq(pthread_create(&th, NULL, trigger_later, c), 0);
    ck_assert(sdkrt_cancel_wait(c, 600000));
    pthread_join(th, NULL);
    ck_assert_int_eq(sdkrt_cancel_fd(NULL), -1);
    ck_assert(!sdkrt_cancel_wait(NULL, 1));
    sdkrt_cancel_free(c);
    sdkrt_cancel_free(NULL);
}
END_TEST

/* ---- idle timeouts on silent servers ---- */

START_TEST(idle_timeout_on_silent_servers)
{
    for (int round = 0; round < 2; round++) {
        bool headers = round == 1; /* 0: accepts and never answers; 1: headers, then no byte */
        ts_server *srv = NULL;
        ck_assert_int_eq(ts_start(&srv, serve_stall, &headers), 0);
        sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
        o.retry.max_attempts = 1; /* one attempt is what these tests mean */
        o.base_url = ts_url(srv);
        o.idle_timeout_ms = 300;
        sdkrt_client *client = NULL;
        sdkrt_error *err = NULL;
        ck_assert_int_eq(sdkrt_client_new(&client, &o, &err), SDKRT_OK);
        sdkrt_request *req = NULL;
        ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/event"), SDKRT_OK);
        sdkrt_stream *st = NULL;
        ck_assert_int_eq(sdkrt_client_stream(client, req, NULL, &st, &err), SDKRT_OK);
        sdkrt_stream_event ev;
        ck_assert_int_eq(sdkrt_stream_next(st, &ev, &err), SDKRT_STREAM_ERROR);
        ck_assert_msg(sdkrt_error_reason(err) == SDKRT_REASON_TIMEOUT, "%s",
                      sdkrt_error_message(err));
        ck_assert_ptr_nonnull(strstr(sdkrt_error_message(err), "idle timeout"));
        ck_assert_int_eq(sdkrt_stream_status(st), headers ? 200 : 0);
        sdkrt_error_free(err);
        sdkrt_stream_close(st);
        /* a unary call to the same silent server ends with its total timeout */
        sdkrt_call_options call = SDKRT_CALL_OPTIONS_INIT;
        call.timeout_ms = 300;
        sdkrt_response *resp = NULL;
        err = NULL;
        ck_assert_int_eq(sdkrt_client_send(client, req, &call, &resp, &err), SDKRT_ERR);
        ck_assert_msg(sdkrt_error_reason(err) == SDKRT_REASON_TIMEOUT, "%s",
                      sdkrt_error_message(err));
        sdkrt_error_free(err);
        sdkrt_request_free(req);
        sdkrt_client_free(client);
        ts_stop(srv);
    }
}
END_TEST

/* ---- poison events on a typed stream ---- */

START_TEST(jstream_poison_and_strict)
{
    static const conn_script scripts[] = {
        {200, A(1) "data: {\"type\":\"b\",\"durable\":{\"seq\":2},\"n\":\"x\"}\n\n" A(3), false,
         false},
        {200, A(1) "data: {\"type\":\"b\",\"durable\":{\"seq\":2},\"n\":\"x\"}\n\n" A(3), false,
         false},
    };
    server s;
    server_open(&s, false, scripts, 2, 0);
    sdkrt_request *req = NULL;
    ck_assert_int_eq(sdkrt_request_new(&req, "GET", "/events"), SDKRT_OK);
    sdkrt_error *err = NULL;
    /* poison: delivered, and the stream goes on */
    sdkrt_jstream *js = NULL;
    ck_assert_int_eq(sdkrt_jstream_open(&js, s.client, req, NULL, &op_events, &err), SDKRT_OK);
    const void *item = NULL;
    sdkrt_jstream_poison p;
    ck_assert_int_eq(sdkrt_jstream_next_poison(js, &item, &p, &err), SDKRT_STREAM_EVENT);
    ck_assert_int_eq(sdkrt_jstream_next_poison(js, &item, &p, &err), SDKRT_STREAM_POISON);
    ck_assert_ptr_null(item);
    ck_assert_str_eq(sdkrt_error_message(p.error),
                     "$.n: expected integer, got string (MALFORMED_RESPONSE)");
    ck_assert_ptr_nonnull(strstr(p.data, "\"n\":\"x\""));
    int64_t seq = 0;
    ck_assert(sdkrt_json_raw_int_at(p.json, seq_path, 2, &seq));
    ck_assert_int_eq(seq, 2);
    ck_assert_int_eq(sdkrt_jstream_next_poison(js, &item, &p, &err), SDKRT_STREAM_EVENT);
    ck_assert(sdkrt_json_int_at(&t_event, item, seq_path, 2, &seq));
    ck_assert_int_eq(seq, 3);
    ck_assert_int_eq(sdkrt_jstream_next_poison(js, &item, &p, &err), SDKRT_STREAM_END);
    sdkrt_jstream_close(js);
    /* strict: MALFORMED_RESPONSE ends the stream */
    ck_assert_int_eq(sdkrt_jstream_open(&js, s.client, req, NULL, &op_events, &err), SDKRT_OK);
    ck_assert_int_eq(sdkrt_jstream_next(js, &item, &err), SDKRT_STREAM_EVENT);
    ck_assert_int_eq(sdkrt_jstream_next(js, &item, &err), SDKRT_STREAM_ERROR);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_MALFORMED_RESPONSE);
    sdkrt_error_clear(&err);
    ck_assert_int_eq(sdkrt_jstream_next(js, &item, &err), SDKRT_STREAM_END);
    sdkrt_jstream_close(js);
    sdkrt_request_free(req);
    server_close(&s);
}
END_TEST

START_TEST(int_at_paths)
{
    event e;
    memset(&e, 0, sizeof e);
    int64_t v = 0;
    e.kind = 1;
    ck_assert(!sdkrt_json_int_at(&t_event, &e, seq_path, 2, &v)); /* durable absent */
    e.u.a.has_durable = true;
    e.u.a.durable.seq = 42;
    ck_assert(sdkrt_json_int_at(&t_event, &e, seq_path, 2, &v));
    ck_assert_int_eq(v, 42);
    ck_assert(!sdkrt_json_int_at(&t_event, &e, seq_path, 1, &v)); /* an object, not an integer */
    static const char *const text_path[] = {"text"};
    ck_assert(!sdkrt_json_int_at(&t_event, &e, text_path, 1, &v)); /* a string */
    e.kind = 0;
    e.unknown = json_pack("{s:s, s:{s:I}}", "type", "new", "durable", "seq", (json_int_t)7);
    ck_assert(sdkrt_json_int_at(&t_event, &e, seq_path, 2, &v));
    ck_assert_int_eq(v, 7);
    json_decref(e.unknown);
    e.unknown = NULL;
    ck_assert(!sdkrt_json_int_at(&t_event, &e, seq_path, 2, &v));
    ck_assert(!sdkrt_json_raw_int_at(NULL, seq_path, 2, &v));
    sdkrt_follow *f = NULL;
    sdkrt_error *err = NULL;
    static const sdkrt_follow_sequence empty = {seq_path, 0};
    ck_assert_int_eq(sdkrt_follow_new(&f, open_events, NULL, &empty, NULL, &err), SDKRT_ERR);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_INVALID_ARGUMENT);
    sdkrt_error_free(err);
    sdkrt_follow_free(NULL);
}
END_TEST

/* An unknown variant's shared fields, through the one-pass decoder and the tree decoder: present,
 * absent, and of the wrong type (left unset, the value still decodes). */
START_TEST(unknown_variant_common_fields)
{
    static const char *const texts[] = {
        "{\"type\":\"z\",\"durable\":{\"seq\":9},\"more\":[1,2]}",
        "{\"type\":\"z\"}",
        "{\"type\":\"z\",\"durable\":{\"seq\":\"nine\"}}",
        "{\"type\":\"z\",\"durable\":null}",
    };
    static const bool has[] = {true, false, false, false};
    for (size_t i = 0; i < 4; i++) {
        for (int way = 0; way < 2; way++) {
            event2 e;
            memset(&e, 0, sizeof e);
            sdkrt_error *err = NULL;
            if (way == 0) {
                ck_assert_int_eq(
                    sdkrt_json_decode_text(&t_event2, &e, texts[i], strlen(texts[i]), NULL, &err),
                    SDKRT_OK);
            } else {
                json_t *j = json_loads(texts[i], 0, NULL);
                ck_assert_int_eq(sdkrt_json_decode(&t_event2, &e, j, NULL, &err), SDKRT_OK);
                json_decref(j);
            }
            ck_assert_int_eq(e.kind, 0);
            ck_assert_ptr_nonnull(e.unknown);
            ck_assert_int_eq(e.u.common.has_durable, has[i]);
            if (has[i])
                ck_assert_int_eq(e.u.common.durable.seq, 9);
            /* encoding an unknown variant gives its raw JSON back */
            json_t *out = NULL;
            ck_assert_int_eq(sdkrt_json_encode(&t_event2, &e, &out, &err), SDKRT_OK);
            ck_assert(json_equal(out, e.unknown));
            json_decref(out);
            sdkrt_json_cleanup(&t_event2, &e);
            ck_assert_int_eq(e.u.common.has_durable, false);
        }
    }
    /* a known variant is not touched by the common type */
    event2 e;
    memset(&e, 0, sizeof e);
    sdkrt_error *err = NULL;
    const char *a = "{\"type\":\"a\",\"durable\":{\"seq\":4},\"text\":\"x\"}";
    ck_assert_int_eq(sdkrt_json_decode_text(&t_event2, &e, a, strlen(a), NULL, &err), SDKRT_OK);
    ck_assert_int_eq(e.kind, 1);
    ck_assert_str_eq(e.u.a.text, "x");
    sdkrt_json_cleanup(&t_event2, &e);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("follow");
    TCase *tc = tcase_create("follow");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, follow_recovers_memory);
    tcase_add_test(tc, follow_recovers_curl);
    tcase_add_test(tc, follow_idle_timeout_curl);
    tcase_add_test(tc, follow_gives_up_after_max_attempts);
    tcase_add_test(tc, follow_final_errors);
    tcase_add_test(tc, follow_cancel_during_backoff);
    tcase_add_test(tc, cancel_from_signal_handler);
    tcase_add_test(tc, cancel_token_fd_and_wait);
    tcase_add_test(tc, idle_timeout_on_silent_servers);
    tcase_add_test(tc, jstream_poison_and_strict);
    tcase_add_test(tc, int_at_paths);
    tcase_add_test(tc, unknown_variant_common_fields);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    sdkrt_global_init();
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    sdkrt_global_cleanup();
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
