/* test_probe.c - the probe runner against a test server for data/things.yaml, served faithfully
 * (no deviation may be reported) or deliberately broken (every planted deviation is reported, and
 * nothing else), through the in-memory transport and over real sockets (support/tcp_bridge.c). */
#include <arpa/inet.h>
#include <check.h>
#include <jansson.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "sdkc/conform.h"
#include "sdkrt/sdkrt.h"
#include "tcp_bridge.h"
#include "sdkc/compile.h"

#define MAX_THINGS 16

typedef struct server {
    bool broken;
    bool down;          /* refuse every connection */
    int event_delay_ms; /* the stream's status and headers come this late (over_tcp) */
    int nthings;
    char ids[MAX_THINGS][32];
    char names[MAX_THINGS][32];
    int requests;
} server;

static void reply_json(sdkrt_memory_response *resp, int status, const char *body)
{
    sdkrt_memory_response_set_status(resp, status);
    sdkrt_memory_response_add_header(resp, "Content-Type", "application/json");
    sdkrt_memory_response_add_chunk(resp, body, strlen(body));
}

static void reply_error(sdkrt_memory_response *resp, int status, const char *tag, const char *thing)
{
    char body[256];
    if (thing)
        snprintf(body, sizeof body, "{\"_tag\":\"%s\",\"thingID\":\"%s\",\"message\":\"no %s\"}",
                 tag, thing, thing);
    else
        snprintf(body, sizeof body, "{\"_tag\":\"%s\",\"message\":\"%s\"}", tag, tag);
    reply_json(resp, status, body);
}

static int find_thing(const server *s, const char *id)
{
    for (int i = 0; i < s->nthings; i++)
        if (strcmp(s->ids[i], id) == 0)
            return i;
    return -1;
}

static void thing_json(char *out, size_t cap, const server *s, int i, bool get_one)
{
    if (s->broken && get_one) /* planted on get: name missing, color not declared */
        snprintf(out, cap, "{\"id\":\"%s\",\"kind\":\"small\",\"color\":\"red\"}", s->ids[i]);
    else
        snprintf(out, cap, "{\"id\":\"%s\",\"name\":\"%s\",\"kind\":\"small\"}", s->ids[i],
                 s->names[i]);
}

static const char *query_value(const char *query, const char *name, char *out, size_t cap)
{
    size_t n = strlen(name);
    for (const char *q = query; q && *q;) {
        if (strncmp(q, name, n) == 0 && q[n] == '=') {
            const char *v = q + n + 1;
            size_t len = strcspn(v, "&");
            if (len >= cap)
                len = cap - 1;
            memcpy(out, v, len);
            out[len] = '\0';
            return out;
        }
        q = strchr(q, '&');
        if (q)
            q++;
    }
    return NULL;
}

static void list_things(server *s, const char *query, sdkrt_memory_response *resp)
{
    char lim[16], cur[64];
    int limit = query_value(query, "limit", lim, sizeof lim) ? (int)strtol(lim, NULL, 10) : 100;
    const char *cursor = query_value(query, "cursor", cur, sizeof cur);
    int start = 0, end;
    if (limit <= 0)
        limit = 100;
    if (cursor) {
        char *e = NULL;
        long k = strtol(cursor + 1, &e, 10);
        if ((cursor[0] != 'n' && cursor[0] != 'p') || !cursor[1] || *e || k < 0 || k > s->nthings) {
            reply_error(resp, 400, "InvalidCursorError", NULL);
            return;
        }
        if (cursor[0] == 'n') {
            start = (int)k;
        } else {
            start = (int)k - limit < 0 ? 0 : (int)k - limit;
            limit = (int)k - start;
        }
    }
    end = start + limit > s->nthings ? s->nthings : start + limit;
    char body[4096];
    size_t len = (size_t)snprintf(body, sizeof body, "{\"data\":[");
    for (int i = start; i < end; i++) {
        char t[256];
        thing_json(t, sizeof t, s, i, false);
        len += (size_t)snprintf(body + len, sizeof body - len, "%s%s", i > start ? "," : "", t);
    }
    len += (size_t)snprintf(body + len, sizeof body - len, "],\"cursor\":{");
    bool comma = false;
    if (start > 0) {
        len += (size_t)snprintf(body + len, sizeof body - len, "\"previous\":\"p%d\"", start);
        comma = true;
    }
    if (end < s->nthings) /* planted: the next page starts one item early (a repeat) */
        len += (size_t)snprintf(body + len, sizeof body - len, "%s\"next\":\"n%d\"",
                                comma ? "," : "", s->broken ? end - 1 : end);
    snprintf(body + len, sizeof body - len, "}}");
    reply_json(resp, 200, body);
}

static bool has_auth(const sdkrt_memory_request *req)
{
    for (size_t i = 0; i < req->header_count; i++)
        if (strcasecmp(req->headers[i].name, "Authorization") == 0)
            return true;
    return false;
}

static void add_chunk(sdkrt_memory_response *resp, const char *s)
{
    sdkrt_memory_response_add_chunk(resp, s, strlen(s));
}

static int handler(void *ud, const sdkrt_memory_request *req, sdkrt_memory_response *resp)
{
    server *s = ud;
    s->requests++;
    if (s->down)
        return -1;
    char path[256];
    const char *q = strchr(req->target, '?');
    size_t plen = q ? (size_t)(q - req->target) : strlen(req->target);
    if (plen >= sizeof path)
        plen = sizeof path - 1;
    memcpy(path, req->target, plen);
    path[plen] = '\0';
    const char *query = q ? q + 1 : "";
    bool get = strcmp(req->method, "GET") == 0, post = strcmp(req->method, "POST") == 0;
    const char *rest = strncmp(path, "/api/thing", 10) == 0 ? path + 10 : NULL;
    if (!rest) {
        reply_json(resp, 404, "{\"_tag\":\"RouteNotFound\"}");
        return 0;
    }
    bool list = get && *rest == '\0';
    bool touch = post && strstr(rest, "/touch") != NULL;
    if (!has_auth(req)) {
        if (s->broken && list) {
            list_things(s, query, resp); /* planted: the list ignores credentials */
            return 0;
        }
        if (s->broken && touch) { /* planted: an HTML 401 */
            sdkrt_memory_response_set_status(resp, 401);
            sdkrt_memory_response_add_header(resp, "Content-Type", "text/html");
            add_chunk(resp, "<h1>401</h1>");
            return 0;
        }
        reply_error(resp, 401, "UnauthorizedError", NULL);
        return 0;
    }
    if (list) {
        list_things(s, query, resp);
        return 0;
    }
    if (post && *rest == '\0') {
        json_t *b = json_loadb(req->body ? req->body : "", req->body_len, 0, NULL);
        const char *name = json_string_value(json_object_get(b, "name"));
        if (!name) {
            json_decref(b);
            if (s->broken) /* planted: an undeclared 500 */
                reply_json(resp, 500, "{\"error\":\"boom\"}");
            else
                reply_error(resp, 400, "InvalidRequestError", NULL);
            return 0;
        }
        int i = s->nthings < MAX_THINGS ? s->nthings++ : MAX_THINGS - 1;
        snprintf(s->ids[i], sizeof s->ids[i], "thg_%d", i + 1);
        snprintf(s->names[i], sizeof s->names[i], "%.20s", name);
        json_decref(b);
        char t[256], body[300];
        thing_json(t, sizeof t, s, i, false);
        snprintf(body, sizeof body, "{\"data\":%s}", t);
        reply_json(resp, 200, body);
        return 0;
    }
    /* /{thingID}[/touch|/event] */
    char id[64];
    const char *idp = rest + 1, *slash = strchr(idp, '/');
    size_t idlen = slash ? (size_t)(slash - idp) : strlen(idp);
    if (*rest != '/' || idlen == 0 || idlen >= sizeof id) {
        reply_error(resp, 400, "InvalidRequestError", NULL);
        return 0;
    }
    memcpy(id, idp, idlen);
    id[idlen] = '\0';
    const char *sub = slash ? slash : "";
    if (strncmp(id, "thg", 3) != 0) {
        reply_error(resp, 400, "InvalidRequestError", NULL);
        return 0;
    }
    int i = find_thing(s, id);
    if (i < 0) {
        bool get_one = get && *sub == '\0';
        reply_error(resp, 404, s->broken && get_one ? "NotFound" : "ThingNotFoundError", id);
        return 0; /* planted above: a wrong tag for an unknown thing on get */
    }
    if (get && *sub == '\0') {
        char t[256], body[300];
        thing_json(t, sizeof t, s, i, true);
        snprintf(body, sizeof body, "{\"data\":%s}", t);
        reply_json(resp, 200, body);
    } else if (post && strcmp(sub, "/touch") == 0) {
        if (s->broken) /* planted: 200 where 204 is declared */
            reply_json(resp, 200, "{\"ok\":true}");
        else
            sdkrt_memory_response_set_status(resp, 204);
    } else if (get && strcmp(sub, "/event") == 0) {
        char frame[200];
        if (s->event_delay_ms > 0) {
            struct timespec d = {s->event_delay_ms / 1000, (s->event_delay_ms % 1000) * 1000000L};
            nanosleep(&d, NULL);
        }
        sdkrt_memory_response_set_status(resp, 200);
        sdkrt_memory_response_add_header(resp, "Content-Type", "text/event-stream");
        add_chunk(resp, ": heartbeat\n\n");
        snprintf(frame, sizeof frame, "data: {\"type\":\"thing.touched\",\"thingID\":\"%s\"}\n\n",
                 id);
        add_chunk(resp, frame);
        if (s->broken) {
            /* planted: an item with an extra field, data that is not JSON, a cut mid-event */
            snprintf(frame, sizeof frame,
                     "data: {\"type\":\"thing.touched\",\"thingID\":\"%s\",\"extra\":1}\n\n", id);
            add_chunk(resp, frame);
            add_chunk(resp, "data: not json\n\n");
            add_chunk(resp, "data: {\"ty");
            sdkrt_memory_response_end_with_error(resp, SDKRT_REASON_TRANSPORT, NULL);
        } else {
            add_chunk(resp, frame);
        }
    } else {
        reply_json(resp, 404, "{\"_tag\":\"RouteNotFound\"}");
    }
    return 0;
}

/* ---- fixture ---- */

static sdkc_compiled *compiled;

static void setup(void)
{
    sdkc_diag *d = NULL;
    ck_assert_int_eq(sdkc_diag_new(&d), SDKC_OK);
    sdkc_compile_options co = SDKC_COMPILE_OPTIONS_INIT;
    sdkc_status st =
        sdkc_compile_file(&compiled, SDKC_SOURCE_DIR "/tests/conformance/data/things.yaml", &co, d);
    if (st != SDKC_OK)
        sdkc_diag_print(d, stderr, false);
    ck_assert_int_eq(st, SDKC_OK);
    sdkc_diag_free(d);
    ck_assert_int_eq(sdkrt_global_init(), SDKRT_OK);
}

static void teardown(void)
{
    sdkc_compiled_free(compiled);
    compiled = NULL;
    sdkrt_global_cleanup();
}

/* true: the same server over real sockets on 127.0.0.1 (tcp_bridge), probed through libcurl. */
static bool over_tcp;
/* options of run_against beyond the defaults */
static long run_stream_ms = 500, run_max_time_ms;
/* one operation alone, with its thingID given (--include, --param), or NULL for all */
static const char *run_only_op, *run_thing_id;

static sdkc_conform_report *run_against(server *s, const sdkc_conform_skip *skips, size_t nskips,
                                        const char *password)
{
    sdkrt_transport *t = NULL;
    tcp_bridge *bridge = NULL;
    sdkc_conform_options o = SDKC_CONFORM_OPTIONS_INIT;
    if (over_tcp) {
        ck_assert_int_eq(tcp_bridge_start(&bridge, handler, s), 0);
        o.base_url = tcp_bridge_url(bridge);
    } else {
        ck_assert_int_eq(sdkrt_memory_transport_new(&t, handler, s), SDKRT_OK);
        o.base_url = "http://things.test";
    }
    o.password = password;
    o.transport = t;
    o.skips = skips;
    o.nskips = nskips;
    o.stream_ms = run_stream_ms;
    o.max_time_ms = run_max_time_ms;
    sdkc_conform_param given = {"thingID", run_thing_id};
    if (run_only_op) {
        o.include = &run_only_op;
        o.ninclude = 1;
    }
    if (run_thing_id) {
        o.params = &given;
        o.nparams = 1;
    }
    /* this mock accepts what its contract forbids: the generated phases are phases.py's */
    o.max_examples = -1;
    o.checks = SDKC_CHECK_ALL & ~(SDKC_CHECK_POSITIVE_DATA | SDKC_CHECK_MISSING_HEADER |
                                  SDKC_CHECK_UNSUPPORTED_METHOD);
    sdkc_conform_report *r = NULL;
    char *msg = NULL;
    ck_assert_int_eq(sdkc_conform_run(&r, sdkc_compiled_ir(compiled), &o, &msg), SDKC_OK);
    ck_assert_ptr_null(msg);
    tcp_bridge_stop(bridge);
    sdkrt_memory_transport_free(t);
    return r;
}

static void dump(const sdkc_conform_report *r)
{
    sdkc_conform_report_print(r, stderr, false);
}

typedef struct planted {
    const char *op, *probe, *check, *path, *rule;
} planted;

static const planted broken_list[] = {
    {"v2.thing.create", "malformed-body", "not_a_server_error", NULL, NULL},
    {"v2.thing.create", "malformed-body", "status_code_conformance", NULL, NULL},
    {"v2.thing.create", "malformed-body", "negative_data_rejection", NULL, NULL},
    {"v2.thing.touch", "valid", "status_code_conformance", NULL, NULL},
    {"v2.thing.touch", "no-credentials", "content_type_conformance", NULL, NULL},
    {"v2.thing.list", "no-credentials", "ignored_auth", NULL, NULL},
    {"v2.thing.list", "page-walk", "pagination", NULL, "repeat"},
    {"v2.thing.get", "after-create", "response_schema_conformance", "$.data.name", "required"},
    {"v2.thing.get", "after-create", "response_schema_conformance", "$.data.color",
     "closed-object"},
    {"v2.thing.get", "unknown-id", "response_schema_conformance", "$._tag", "tag"},
    {"v2.thing.events", "valid", "response_schema_conformance", "$.data.extra", "closed-object"},
    {"v2.thing.events", "valid", "response_schema_conformance", "$.data", "json-string"},
    {"v2.thing.events", "valid", "response_schema_conformance", "stream", "sse"},
};
#define NBROKEN (sizeof broken_list / sizeof broken_list[0])

static bool eq(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static bool is_planted(const sdkc_conform_result *x)
{
    for (size_t i = 0; i < NBROKEN; i++) {
        const planted *p = &broken_list[i];
        if (eq(p->op, x->operation) && eq(p->probe, x->probe) && eq(p->check, x->check) &&
            eq(p->path, x->path) && eq(p->rule, x->rule))
            return true;
    }
    return false;
}

static bool reported(const sdkc_conform_report *r, const planted *p)
{
    for (size_t i = 0; i < sdkc_conform_report_count(r); i++) {
        const sdkc_conform_result *x = sdkc_conform_report_get(r, i);
        if (x->verdict == SDKC_VERDICT_DEVIATION && eq(p->op, x->operation) &&
            eq(p->probe, x->probe) && eq(p->check, x->check) && eq(p->path, x->path) &&
            eq(p->rule, x->rule))
            return true;
    }
    return false;
}

/* ---- tests ---- */

static void faithful(void)
{
    server s = {0};
    sdkc_conform_report *r = run_against(&s, NULL, 0, "secret");
    if (sdkc_conform_report_deviations(r) || sdkc_conform_report_skips(r))
        dump(r);
    ck_assert_uint_eq(sdkc_conform_report_deviations(r), 0);
    ck_assert_uint_eq(sdkc_conform_report_skips(r), 0);
    ck_assert_uint_gt(sdkc_conform_report_passes(r), 30);
    /* the creator ran three times, and once more for the chain's own thing (no DELETE in
       things.yaml: it stays) */
    ck_assert_int_eq(s.nthings, 4);
    /* every probe kind ran */
    const char *kinds[] = {"valid",      "positive",       "unknown-id",
                           "bad-cursor", "malformed-body", "no-credentials",
                           "page-walk",  "after-create",   "chain-create"};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        bool seen = false;
        for (size_t i = 0; i < sdkc_conform_report_count(r) && !seen; i++)
            seen = strcmp(sdkc_conform_report_get(r, i)->probe, kinds[k]) == 0;
        ck_assert_msg(seen, "probe %s never ran", kinds[k]);
    }
    /* the stream's frames were judged, and the page walk went over every item */
    bool frames = false, walked = false;
    for (size_t i = 0; i < sdkc_conform_report_count(r); i++) {
        const sdkc_conform_result *x = sdkc_conform_report_get(r, i);
        if (strcmp(x->operation, "v2.thing.events") == 0 &&
            strcmp(x->check, "response_schema_conformance") == 0 &&
            x->verdict == SDKC_VERDICT_PASS && strstr(x->evidence, "frames match"))
            frames = x->count == 2;
        if (strcmp(x->check, "pagination") == 0 && x->verdict == SDKC_VERDICT_PASS)
            walked = strstr(x->evidence, "4 items over 2 pages") != NULL;
    }
    ck_assert(frames);
    ck_assert(walked);
    sdkc_conform_report_free(r);
}

START_TEST(faithful_server_has_no_deviation)
{
    faithful();
}
END_TEST

START_TEST(faithful_server_over_tcp)
{
    over_tcp = true;
    faithful();
    over_tcp = false;
}
END_TEST

static void broken(void)
{
    server s = {.broken = true};
    sdkc_conform_report *r = run_against(&s, NULL, 0, "secret");
    bool ok = true;
    for (size_t i = 0; i < sdkc_conform_report_count(r); i++) {
        const sdkc_conform_result *x = sdkc_conform_report_get(r, i);
        if (x->verdict == SDKC_VERDICT_DEVIATION && !is_planted(x)) {
            fprintf(stderr, "unplanted: %s %s %s %s %s: %s\n", x->operation, x->probe, x->check,
                    x->path ? x->path : "-", x->rule ? x->rule : "-", x->evidence);
            ok = false;
        }
    }
    for (size_t i = 0; i < NBROKEN; i++)
        if (!reported(r, &broken_list[i])) {
            fprintf(stderr, "planted but not reported: %s %s %s %s %s\n", broken_list[i].op,
                    broken_list[i].probe, broken_list[i].check,
                    broken_list[i].path ? broken_list[i].path : "-",
                    broken_list[i].rule ? broken_list[i].rule : "-");
            ok = false;
        }
    if (!ok)
        dump(r);
    ck_assert(ok);
    ck_assert_uint_eq(sdkc_conform_report_deviations(r), NBROKEN);
    ck_assert_uint_eq(sdkc_conform_report_skips(r), 0);
    /* evidence quotes what the server sent */
    for (size_t i = 0; i < sdkc_conform_report_count(r); i++) {
        const sdkc_conform_result *x = sdkc_conform_report_get(r, i);
        if (strcmp(x->operation, "v2.thing.create") == 0 &&
            strcmp(x->check, "status_code_conformance") == 0 &&
            x->verdict == SDKC_VERDICT_DEVIATION) {
            ck_assert_ptr_nonnull(strstr(x->evidence, "HTTP 500 is not declared"));
            ck_assert_ptr_nonnull(strstr(x->evidence, "boom"));
        }
        if (x->rule && strcmp(x->rule, "tag") == 0 && x->verdict == SDKC_VERDICT_DEVIATION)
            ck_assert_ptr_nonnull(strstr(x->evidence, "\"NotFound\""));
        /* every deviation has its request's curl line: the password as its variable (none was
           named: PASSWORD), never its value */
        if (x->verdict == SDKC_VERDICT_DEVIATION) {
            ck_assert_ptr_nonnull(x->curl);
            ck_assert_ptr_nonnull(strstr(x->curl, "curl -sS -i"));
            ck_assert_ptr_null(strstr(x->curl, "secret"));
            if (strcmp(x->probe, "no-credentials") != 0)
                ck_assert_ptr_nonnull(strstr(x->curl, "-u 'opencode:'\"$PASSWORD\""));
            else
                ck_assert_ptr_null(strstr(x->curl, " -u "));
        } else {
            ck_assert_ptr_null(x->curl);
        }
    }
    sdkc_conform_report_free(r);
}

START_TEST(broken_server_every_planted_deviation_and_nothing_else)
{
    broken();
}
END_TEST

/* The same planted deviations through libcurl and real sockets: content types, chunking and a
 * connection cut mid-event must show exactly as they do in memory. */
START_TEST(broken_server_over_tcp)
{
    over_tcp = true;
    broken();
    over_tcp = false;
}
END_TEST

static char *write_temp(const char *text)
{
    char *path = strdup("/tmp/sdkc-conform-known-XXXXXX");
    ck_assert_ptr_nonnull(path);
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    return path;
}

START_TEST(report_json_and_known_list)
{
    server s = {.broken = true};
    sdkc_conform_report *r = run_against(&s, NULL, 0, "secret");
    json_t *j = sdkc_conform_report_json(r);
    ck_assert_ptr_nonnull(j);
    ck_assert_str_eq(json_string_value(json_object_get(j, "format")), "sdkc-conform/1");
    json_t *sum = json_object_get(j, "summary");
    ck_assert_int_eq(json_integer_value(json_object_get(sum, "operations")), 5);
    ck_assert_int_eq(json_integer_value(json_object_get(sum, "deviations")), (json_int_t)NBROKEN);
    ck_assert(json_is_false(json_object_get(sum, "conformant")));
    json_t *devs = json_object_get(j, "deviations");
    ck_assert_uint_eq(json_array_size(devs), NBROKEN);
    /* the report's own deviation list is a known list that matches exactly */
    json_t *known = json_pack("{s:O}", "deviations", devs);
    char *text = json_dumps(known, JSON_INDENT(2));
    char *path = write_temp(text);
    ck_assert_int_eq(sdkc_conform_compare_known(r, path, NULL), 0);
    free(text);
    unlink(path);
    free(path);
    /* deviations merge on (operation, check, path) whichever probe or rule saw one first: a list
     * naming another probe and rule for each still matches */
    json_t *other = json_deep_copy(known);
    ck_assert_ptr_nonnull(other);
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(other, "deviations"), i, e)
    {
        ck_assert_int_eq(json_object_set_new(e, "probe", json_string("another-probe")), 0);
        ck_assert_int_eq(json_object_set_new(e, "rule", json_string("another/rule")), 0);
    }
    text = json_dumps(other, JSON_INDENT(2));
    path = write_temp(text);
    ck_assert_int_eq(sdkc_conform_compare_known(r, path, NULL), 0);
    free(text);
    unlink(path);
    free(path);
    json_decref(other);
    /* one entry fewer: a NEW deviation; one invented: a VANISHED one */
    json_array_remove(devs, 0);
    json_array_append_new(devs, json_pack("{s:s,s:s,s:s,s:n,s:n,s:s}", "operation", "v2.thing.get",
                                          "probe", "valid", "check", "status", "path", "rule",
                                          "evidence", "invented"));
    text = json_dumps(known, JSON_INDENT(2));
    path = write_temp(text);
    ck_assert_int_eq(sdkc_conform_compare_known(r, path, NULL), 2);
    unlink(path);
    free(path);
    free(text);
    ck_assert_int_eq(sdkc_conform_compare_known(r, "/nonexistent/known.json", NULL), -1);
    json_decref(known);
    json_decref(j);
    sdkc_conform_report_free(r);
}
END_TEST

START_TEST(skips_are_reported_never_passed)
{
    server s = {0};
    sdkc_conform_skip skips[] = {{"v2.thing.t*", "needs a model provider"}};
    /* no credentials: no no-credentials probes (every probe is one) */
    sdkc_conform_report *r = run_against(&s, skips, 1, NULL);
    size_t touch = 0, nocred = 0;
    for (size_t i = 0; i < sdkc_conform_report_count(r); i++) {
        const sdkc_conform_result *x = sdkc_conform_report_get(r, i);
        if (strcmp(x->operation, "v2.thing.touch") == 0) {
            touch++;
            ck_assert_int_eq(x->verdict, SDKC_VERDICT_SKIP);
            ck_assert_str_eq(x->evidence, "needs a model provider");
        }
        if (strcmp(x->probe, "no-credentials") == 0) {
            nocred++;
            ck_assert_int_eq(x->verdict, SDKC_VERDICT_SKIP);
        }
    }
    ck_assert_uint_eq(touch, 1);
    ck_assert_uint_eq(nocred, 0);
    ck_assert_uint_eq(sdkc_conform_report_probed(r), 0); /* nothing really checked */
    /* every other probe met a 401: reported as skipped, because nothing was exercised */
    size_t wants = 0;
    for (size_t i = 0; i < sdkc_conform_report_count(r); i++) {
        const sdkc_conform_result *x = sdkc_conform_report_get(r, i);
        if (x->verdict == SDKC_VERDICT_SKIP && strstr(x->evidence, "wants credentials"))
            wants++;
    }
    ck_assert_uint_ge(wants, 4);
    /* the in-memory server asked for auth: every request without credentials is a 401, which
       is declared, so no deviation (but the valid probes do not pass as "success" either) */
    if (sdkc_conform_report_deviations(r))
        dump(r);
    ck_assert_uint_eq(sdkc_conform_report_deviations(r), 0);
    sdkc_conform_report_free(r);
}
END_TEST

/* A stream whose status and headers come later than stream_ms (500) but well within the request
 * timeout (5000): it opened in time, its frames are judged, no timeout deviation. */
START_TEST(stream_opening_late_is_within_the_request_timeout)
{
    over_tcp = true;
    server s = {.event_delay_ms = 900};
    sdkc_conform_report *r = run_against(&s, NULL, 0, "secret");
    over_tcp = false;
    if (sdkc_conform_report_deviations(r))
        dump(r);
    ck_assert_uint_eq(sdkc_conform_report_deviations(r), 0);
    bool frames = false;
    for (size_t i = 0; i < sdkc_conform_report_count(r); i++) {
        const sdkc_conform_result *x = sdkc_conform_report_get(r, i);
        if (strcmp(x->operation, "v2.thing.events") == 0 && x->verdict == SDKC_VERDICT_PASS &&
            strstr(x->evidence, "frames match"))
            frames = true;
    }
    ck_assert(frames);
    sdkc_conform_report_free(r);
}
END_TEST

/* A stream still opening when --max-time ends the run is cut short: a skip, as for a unary
 * call, never a timeout deviation. */
START_TEST(stream_cut_by_max_time_is_a_skip)
{
    /* the stream alone, on a thing the server has, so that the run reaches it at once (not
       after the creators and their sequences: under valgrind that took longer than the run) */
    over_tcp = true;
    run_stream_ms = 5000;
    run_max_time_ms = 1000;
    run_only_op = "v2.thing.events";
    run_thing_id = "thg_1";
    server s = {.event_delay_ms = 2500, .nthings = 1, .ids = {"thg_1"}, .names = {"one"}};
    sdkc_conform_report *r = run_against(&s, NULL, 0, "secret");
    over_tcp = false;
    run_stream_ms = 500;
    run_max_time_ms = 0;
    run_only_op = run_thing_id = NULL;
    if (sdkc_conform_report_deviations(r))
        dump(r);
    ck_assert_uint_eq(sdkc_conform_report_deviations(r), 0);
    bool cut = false;
    for (size_t i = 0; i < sdkc_conform_report_count(r); i++) {
        const sdkc_conform_result *x = sdkc_conform_report_get(r, i);
        if (strcmp(x->operation, "v2.thing.events") == 0 && x->verdict == SDKC_VERDICT_SKIP &&
            strstr(x->evidence, "cut short by --max-time"))
            cut = true;
    }
    ck_assert(cut);
    ck_assert(sdkc_conform_report_stopped(r));
    sdkc_conform_report_free(r);
}
END_TEST

START_TEST(unreachable_server_is_not_conformant)
{
    server s = {.down = true};
    sdkc_conform_report *r = run_against(&s, NULL, 0, "secret");
    ck_assert_uint_eq(sdkc_conform_report_passes(r), 0);
    ck_assert_uint_eq(sdkc_conform_report_deviations(r), 0);
    ck_assert_uint_gt(sdkc_conform_report_skips(r), 0);
    ck_assert_int_gt(s.requests, 0);
    sdkc_conform_report_free(r);
}
END_TEST

/* A refused connection over real sockets (a closed port on 127.0.0.1): every probe is skipped,
 * and its evidence names the reason once ("... (TRANSPORT)", not "(TRANSPORT) (TRANSPORT)"). */
START_TEST(refused_connection_evidence_names_its_reason_once)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    ck_assert_int_ge(fd, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ck_assert_int_eq(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    socklen_t alen = sizeof a;
    ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&a, &alen), 0);
    close(fd);
    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%d", ntohs(a.sin_port));
    sdkc_conform_options o = SDKC_CONFORM_OPTIONS_INIT;
    o.base_url = url;
    o.stream_ms = 500;
    sdkc_conform_report *r = NULL;
    char *msg = NULL;
    ck_assert_int_eq(sdkc_conform_run(&r, sdkc_compiled_ir(compiled), &o, &msg), SDKC_OK);
    ck_assert_ptr_null(msg);
    size_t transport = 0;
    for (size_t i = 0; i < sdkc_conform_report_count(r); i++) {
        const sdkc_conform_result *x = sdkc_conform_report_get(r, i);
        const char *ev = x->evidence ? x->evidence : "";
        const char *once = strstr(ev, "(TRANSPORT)");
        if (!once)
            continue;
        transport++;
        ck_assert_msg(strstr(once + 1, "(TRANSPORT)") == NULL, "reason twice: %s", ev);
    }
    ck_assert_uint_gt(transport, 0);
    ck_assert_uint_eq(sdkc_conform_report_passes(r), 0);
    sdkc_conform_report_free(r);
}
END_TEST

START_TEST(bad_options)
{
    sdkc_conform_options o = SDKC_CONFORM_OPTIONS_INIT;
    sdkc_conform_report *r = NULL;
    char *msg = NULL;
    o.base_url = "ftp://nope";
    ck_assert_int_eq(sdkc_conform_run(&r, sdkc_compiled_ir(compiled), &o, &msg), SDKC_ERR_INVALID);
    ck_assert_ptr_null(r);
    ck_assert_ptr_nonnull(msg);
    free(msg);
    o.base_url = NULL;
    ck_assert_int_eq(sdkc_conform_run(&r, sdkc_compiled_ir(compiled), &o, &msg), SDKC_ERR_INVALID);
    free(msg);
    sdkc_conform_report_free(NULL);
}
END_TEST

static Suite *probe_suite(void)
{
    Suite *s = suite_create("probe");
    TCase *tc = tcase_create("things");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, faithful_server_has_no_deviation);
    tcase_add_test(tc, broken_server_every_planted_deviation_and_nothing_else);
    tcase_add_test(tc, faithful_server_over_tcp);
    tcase_add_test(tc, broken_server_over_tcp);
    tcase_add_test(tc, report_json_and_known_list);
    tcase_add_test(tc, skips_are_reported_never_passed);
    tcase_add_test(tc, stream_opening_late_is_within_the_request_timeout);
    tcase_add_test(tc, stream_cut_by_max_time_is_a_skip);
    tcase_add_test(tc, unreachable_server_is_not_conformant);
    tcase_add_test(tc, refused_connection_evidence_names_its_reason_once);
    tcase_add_test(tc, bad_options);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(probe_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
