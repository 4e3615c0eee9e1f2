/* decoders.c - the generated OpenCode decoders and encoders under allocation failure, over the
 * decoder fuzz seeds (real server answers and one example per union variant). */
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oc/oc.h"
#include "scenarios.h"
#include "sdkc/util.h"

int run_decoders(uint64_t *digest);

#define MAX_SEEDS 64

/* Seeds read once, before the measured runs; the first byte picks the type (as in the fuzzer). */
static char *seeds[MAX_SEEDS];
static size_t seed_len[MAX_SEEDS];
static size_t nseeds;

static int cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int load_seeds(void)
{
    if (nseeds)
        return 0;
    const char *dir = SDKC_SOURCE_DIR "/fuzz/corpus/decoders";
    DIR *d = opendir(dir);
    if (!d)
        return 1;
    char *names[MAX_SEEDS];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < MAX_SEEDS) {
        if (e->d_name[0] == '.')
            continue;
        names[n] = malloc(strlen(dir) + strlen(e->d_name) + 2);
        if (!names[n])
            break;
        snprintf(names[n], strlen(dir) + strlen(e->d_name) + 2, "%s/%s", dir, e->d_name);
        n++;
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        if (rc == 0 && sdkc_read_file(names[i], &seeds[nseeds], &seed_len[nseeds]) == SDKC_OK &&
            seed_len[nseeds] > 1)
            nseeds++;
        else
            rc = 1;
        free(names[i]);
    }
    return rc || nseeds == 0;
}

#define ROUND(T)                                                                                   \
    static int round_##T(const json_t *in, uint64_t *digest)                                       \
    {                                                                                              \
        T v = {0};                                                                                 \
        oc_error *err = NULL;                                                                      \
        json_t *out = NULL;                                                                        \
        char *text = NULL;                                                                         \
        int rc = 1;                                                                                \
        if (T##_decode(&v, in, "$", &err) != OC_OK || T##_encode(&v, &out, &err) != OC_OK)         \
            goto done;                                                                             \
        text = json_dumps(out, JSON_COMPACT | JSON_SORT_KEYS);                                     \
        if (!text)                                                                                 \
            goto done;                                                                             \
        *digest = digest_bytes(*digest, text, strlen(text));                                       \
        rc = 0;                                                                                    \
    done:                                                                                          \
        free(text);                                                                                \
        json_decref(out);                                                                          \
        T##_cleanup(&v);                                                                           \
        oc_error_free(err);                                                                        \
        return rc;                                                                                 \
    }

ROUND(oc_session_message_value)
ROUND(oc_v2_event)
ROUND(oc_session_durable_event)
ROUND(oc_sessions_response)
ROUND(oc_session_messages_response)

int run_decoders(uint64_t *digest)
{
    if (load_seeds() != 0)
        return 1;
    for (size_t i = 0; i < nseeds; i++) {
        json_error_t jerr;
        json_t *in = json_loadb(seeds[i] + 1, seed_len[i] - 1, 0, &jerr);
        if (!in)
            return 1;
        int rc;
        switch ((unsigned char)seeds[i][0] % 5) {
        case 0:
            rc = round_oc_session_message_value(in, digest);
            break;
        case 1:
            rc = round_oc_v2_event(in, digest);
            break;
        case 2:
            rc = round_oc_session_durable_event(in, digest);
            break;
        case 3:
            rc = round_oc_sessions_response(in, digest);
            break;
        default:
            rc = round_oc_session_messages_response(in, digest);
            break;
        }
        json_decref(in);
        if (rc)
            return 1;
    }
    return 0;
}

/* ---- the generated client over the in-memory transport: a page walk and an event stream ---- */

int run_sdk_call(uint64_t *digest);

static int handler(void *userdata, const sdkrt_memory_request *req, sdkrt_memory_response *resp)
{
    (void)userdata;
    const char *page = NULL, *event = NULL;
    size_t page_len = 0;
    for (size_t i = 0; i < nseeds; i++) {
        if (seeds[i][0] == 3 && !page)
            page = seeds[i] + 1, page_len = seed_len[i] - 1;
        if (seeds[i][0] == 2 && !event)
            event = seeds[i] + 1;
    }
    if (strncmp(req->target, "/api/session?", 13) == 0 ||
        strcmp(req->target, "/api/session") == 0) {
        /* The seed page has a next cursor: the continuation ends the walk. */
        if (strstr(req->target, "cursor=")) {
            page = "{\"data\":[],\"cursor\":{\"previous\":null,\"next\":null}}";
            page_len = strlen(page);
        }
        if (sdkrt_memory_response_add_header(resp, "Content-Type", "application/json") !=
                SDKRT_OK ||
            sdkrt_memory_response_add_chunk(resp, page, page_len) != SDKRT_OK)
            return -1;
        return 0;
    }
    if (strstr(req->target, "/event")) {
        char frame[4096];
        int n = snprintf(frame, sizeof frame, ": heartbeat\n\ndata: %s\n\n", event);
        if (n < 0 || (size_t)n >= sizeof frame)
            return -1;
        if (sdkrt_memory_response_add_header(resp, "Content-Type", "text/event-stream") !=
                SDKRT_OK ||
            sdkrt_memory_response_add_chunk(resp, frame, (size_t)n / 2) != SDKRT_OK ||
            sdkrt_memory_response_add_chunk(resp, frame + n / 2, (size_t)n - (size_t)n / 2) !=
                SDKRT_OK)
            return -1;
        return 0;
    }
    sdkrt_memory_response_set_status(resp, 404);
    return 0;
}

int run_sdk_call(uint64_t *digest)
{
    sdkrt_transport *t = NULL;
    oc_client *client = NULL;
    oc_error *err = NULL;
    oc_session_list_iter *it = NULL;
    oc_session_events_stream *st = NULL;
    int rc = 1;
    if (load_seeds() != 0)
        return 1;
    if (sdkrt_memory_transport_new(&t, handler, NULL) != SDKRT_OK)
        goto done;
    oc_client_options o = OC_CLIENT_OPTIONS_INIT;
    o.base_url = "http://127.0.0.1:1/";
    o.transport = t;
    if (oc_client_new(&client, &o, &err) != OC_OK)
        goto done;
    oc_session_list_request lr = {0};
    lr.has_limit = true;
    lr.limit = 2;
    if (oc_session_list_iter_new(&it, client, &lr, NULL, &err) != OC_OK)
        goto done;
    const oc_session_v2_info *info;
    oc_next nx;
    while ((nx = oc_session_list_iter_next(it, &info, &err)) == OC_NEXT_ITEM)
        *digest = digest_bytes(*digest, info->id.value, strlen(info->id.value));
    if (nx != OC_NEXT_END)
        goto done;
    oc_session_events_request er = {0};
    er.session_id.value = "ses_1";
    if (oc_session_events_open(&st, client, &er, NULL, &err) != OC_OK)
        goto done;
    const oc_session_durable_event *ev;
    size_t events = 0;
    while ((nx = oc_session_events_next(st, &ev, &err)) == OC_NEXT_ITEM)
        events++;
    if (nx != OC_NEXT_END || events != 1)
        goto done;
    *digest = digest_bytes(*digest, &events, sizeof events);
    rc = 0;
done:
    oc_session_events_close(st);
    oc_session_list_iter_free(it);
    oc_error_free(err);
    oc_client_free(client);
    sdkrt_transport_free(t);
    return rc;
}

/* ---- the async forms of the generated SDK on a loop (in-memory transport): the first page and
 * its continuation chained from the callback, a declared error, a stream and a follower. ---- */

int run_sdk_async(uint64_t *digest);

typedef struct async_pages {
    oc_client *client;
    int pages, calls;
    size_t items;
    oc_reason reason;
    uint64_t digest;
} async_pages;

static void on_page(void *userdata, oc_session_list_page *page, const oc_error *err)
{
    async_pages *a = userdata;
    a->calls++;
    a->reason = oc_error_reason(err);
    if (!page)
        return;
    a->pages++;
    for (size_t i = 0; i < page->count; i++) {
        a->items++;
        a->digest =
            digest_bytes(a->digest, page->items[i].id.value, strlen(page->items[i].id.value));
    }
    oc_error *e = NULL;
    if (page->next && page->count &&
        oc_session_list_continue_async(a->client, page->next, NULL, on_page, a, &e) != OC_OK) {
        a->reason = oc_error_reason(e); /* could not start: this callback reports it */
        oc_error_free(e);
    }
    oc_session_list_page_free(page);
}

static void on_session(void *userdata, oc_session_v2_info *result, const oc_error *err)
{
    async_pages *a = userdata;
    a->calls++;
    a->reason = oc_error_reason(err);
    a->items += result != NULL;
    oc_session_v2_info_free(result);
}

typedef struct async_events {
    int items, ends;
    oc_reason reason;
} async_events;

static void on_event(void *userdata, const oc_session_durable_event *ev)
{
    async_events *a = userdata;
    (void)ev;
    a->items++;
}

static void on_end(void *userdata, const oc_error *err)
{
    async_events *a = userdata;
    a->ends++;
    a->reason = oc_error_reason(err);
}

int run_sdk_async(uint64_t *digest)
{
    sdkrt_transport *t = NULL;
    oc_loop *loop = NULL;
    oc_client *client = NULL;
    oc_error *err = NULL;
    async_pages pages = {0}, get = {0};
    int rc = 1;
    if (load_seeds() != 0 || sdkrt_memory_transport_new(&t, handler, NULL) != SDKRT_OK ||
        oc_loop_new(&loop, &err) != OC_OK)
        goto done;
    oc_client_options o = OC_CLIENT_OPTIONS_INIT;
    o.base_url = "http://127.0.0.1:1/";
    o.transport = t;
    o.loop = loop;
    if (oc_client_new(&client, &o, &err) != OC_OK)
        goto done;
    pages.client = client;
    oc_session_list_request lr = {0};
    lr.has_limit = true;
    lr.limit = 2;
    oc_session_get_request gr = {0};
    gr.session_id.value = "ses_1"; /* 404 from the handler */
    if (oc_session_list_page_async(client, &lr, NULL, on_page, &pages, &err) != OC_OK ||
        oc_session_get_async(client, &gr, NULL, on_session, &get, &err) != OC_OK ||
        oc_loop_run(loop, &err) != OC_OK)
        goto done;
    if (pages.reason != OC_REASON_NONE || pages.pages != 2 || get.calls != 1 ||
        get.reason != OC_REASON_UNEXPECTED_STATUS)
        goto done;
    /* a stream and a follower (which ends when the stream does), both one item */
    static const oc_session_events_handlers h = {on_event, NULL, NULL, on_end};
    oc_session_events_request er = {0};
    er.session_id.value = "ses_1";
    oc_follow_options fo = OC_FOLLOW_OPTIONS_INIT;
    fo.end_when_closed = true;
    async_events stream = {0}, follower = {0};
    if (oc_session_events_start(NULL, client, &er, NULL, &h, &stream, &err) != OC_OK ||
        oc_session_events_follow_start(NULL, client, &er, &fo, &h, &follower, &err) != OC_OK ||
        oc_loop_run(loop, &err) != OC_OK)
        goto done;
    if (stream.items != 1 || stream.ends != 1 || stream.reason != OC_REASON_NONE ||
        follower.items != 1 || follower.ends != 1 || follower.reason != OC_REASON_NONE)
        goto done;
    *digest = digest_bytes(*digest, &pages.digest, sizeof pages.digest);
    *digest = digest_bytes(*digest, &pages.items, sizeof pages.items);
    rc = 0;
done:
    oc_error_free(err);
    oc_client_free(client);
    oc_loop_free(loop);
    sdkrt_transport_free(t);
    return rc;
}
