/* concurrency.c - the C contestants of the concurrency benchmark (bench/run.sh --only concurrency)
 * against bench_canned_epoll:
 *   bench_concurrency streams-threads BASE N PER TAG   the blocking generated SDK (oc), one
 *       thread per stream, one client: N streams of PER events each (session ses_hold<TAG>_PER,
 *       which the server holds until GET /bench/release?group=ses_hold<TAG>, sent once all N
 *       are open).
 *   bench_concurrency unary-threads BASE N             N threads, one oc_session_list each, all
 *       started together.
 *   bench_concurrency streams-async BASE N PER TAG     the async SDK: N oc_session_events_start
 *       on one built-in loop (sdkrt_loop_run) on the main thread, one client (api=oc; api=sdkrt:
 *       the runtime's sdkrt_jstream_start with the SDK's types, see BENCH_ASYNC below).
 *   bench_concurrency unary-async BASE N               N oc_session_list_page_async at once
 *       (api=sdkrt: sdkrt_json_call_async).
 *   bench_concurrency modes                            the modes this build has (the async ones
 *       when the generated SDK has its async forms).
 * A stream counts as open when its response head arrived (oc_call_options.on_response). Prints
 * one line of key=value figures, measured in the process:
 *   open_s        from the start until every stream is open (unary: every call finished)
 *   cpu_open_s    CPU (user+sys, all threads) until then; cpu_events_s the CPU after it
 *   events        events received in all (the server sends none before all streams are open)
 *   rss_base_kib  resident set before the first stream; rss_open_kib when all were open;
 *                 rss_peak_kib the peak of the whole run
 * and exits 0 only when every stream delivered exactly PER events (every call a full page). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <curl/curl.h>

#include "oc/oc.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double cpu_now(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* VmRSS or VmHWM of /proc/self/status in KiB (0 when unreadable). */
static long status_kib(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return 0;
    char line[256];
    long v = 0;
    size_t kl = strlen(key);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, kl) == 0 && line[kl] == ':') {
            v = strtol(line + kl + 1, NULL, 10);
            break;
        }
    fclose(f);
    return v;
}

typedef struct run {
    oc_client *client;
    long n, per;
    char session[128];
    atomic_long opened;
    atomic_long failed;
    atomic_long events;
    long opened_loop; /* async: heads (streams) or calls done so far, on the loop thread */
    pthread_barrier_t go;
    pthread_mutex_t mu;
    pthread_cond_t all_open;
    double t0, t_open, cpu_open;
    long rss_open;
} run;

/* Every stream is open (or every call done): the moment the open phase ends. */
static void open_phase_end(run *r)
{
    r->t_open = now();
    r->cpu_open = cpu_now();
    r->rss_open = status_kib("VmRSS");
}

static void mark_opened(run *r)
{
    if (atomic_fetch_add(&r->opened, 1) + 1 < r->n)
        return;
    pthread_mutex_lock(&r->mu);
    pthread_cond_signal(&r->all_open);
    pthread_mutex_unlock(&r->mu);
}

static void mark_failed(run *r)
{
    atomic_fetch_add(&r->failed, 1);
    mark_opened(r); /* so that the main thread stops waiting */
}

static size_t keep_body(char *p, size_t size, size_t n, void *userdata)
{
    char *out = userdata;
    size_t have = strlen(out), len = size * n;
    if (have + len < 64) {
        memcpy(out + have, p, len);
        out[have + len] = '\0';
    }
    return len;
}

/* GET /bench/release for the held group: every stream starts. 0 when all n were released. */
static int release(const char *base, const char *session, long n)
{
    char url[512], body[64] = "";
    const char *us = strrchr(session, '_');
    snprintf(url, sizeof url, "%s/bench/release?group=%.*s", base, (int)(us - session), session);
    CURL *h = curl_easy_init();
    if (!h)
        return -1;
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, keep_body);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, (void *)body);
    CURLcode rc = curl_easy_perform(h);
    curl_easy_cleanup(h);
    char want[64];
    snprintf(want, sizeof want, "{\"released\":%ld}", n);
    if (rc != CURLE_OK || strcmp(body, want) != 0) {
        fprintf(stderr, "bench_concurrency: release: %s %s\n", curl_easy_strerror(rc), body);
        return -1;
    }
    return 0;
}

static void report_error(const char *what, oc_error *err)
{
    fprintf(stderr, "bench_concurrency: %s: %s\n", what, err ? oc_error_message(err) : "?");
    oc_error_free(err);
}

static void on_head(void *userdata, int status, const sdkrt_header *headers, size_t count)
{
    (void)headers;
    (void)count;
    if (status == 200)
        mark_opened(userdata);
}

static void *stream_thread(void *arg)
{
    run *r = arg;
    oc_session_events_request req = {0};
    req.session_id.value = r->session;
    oc_call_options call = OC_CALL_OPTIONS_INIT;
    call.on_response = on_head;
    call.userdata = r;
    oc_session_events_stream *s = NULL;
    oc_error *err = NULL;
    long got = 0;
    pthread_barrier_wait(&r->go);
    if (oc_session_events_open(&s, r->client, &req, &call, &err) != OC_OK) {
        report_error("session_events_open", err);
        mark_failed(r);
        return NULL;
    }
    const oc_session_durable_event *ev;
    oc_next nx;
    while ((nx = oc_session_events_next(s, &ev, &err)) == OC_NEXT_ITEM)
        got++;
    oc_session_events_close(s);
    if (nx == OC_NEXT_ERROR)
        report_error("session_events_next", err);
    if (nx != OC_NEXT_END || got != r->per)
        mark_failed(r);
    atomic_fetch_add(&r->events, got);
    return NULL;
}

static void *unary_thread(void *arg)
{
    run *r = arg;
    oc_session_list_request req = {0};
    req.has_limit = true;
    req.limit = 100;
    oc_session_list_page *page = NULL;
    oc_error *err = NULL;
    pthread_barrier_wait(&r->go);
    if (oc_session_list(r->client, &req, NULL, &page, &err) != OC_OK) {
        report_error("session_list", err);
        mark_failed(r);
        return NULL;
    }
    if (page->count != 100)
        atomic_fetch_add(&r->failed, 1);
    oc_session_list_page_free(page);
    atomic_fetch_add(&r->events, 1);
    mark_opened(r);
    return NULL;
}

static int run_threads(run *r, void *(*fn)(void *), const char *base)
{
    pthread_t *t = calloc((size_t)r->n, sizeof *t);
    if (!t || pthread_barrier_init(&r->go, NULL, (unsigned)r->n + 1) != 0) {
        free(t);
        return -1;
    }
    long started = 0; /* default stacks: what a program calling the blocking SDK gets */
    for (; started < r->n; started++)
        if (pthread_create(&t[started], NULL, fn, r) != 0)
            break;
    if (started < r->n) {
        fprintf(stderr, "bench_concurrency: only %ld threads started\n", started);
        exit(1); /* the others wait on the barrier forever */
    }
    r->t0 = now();
    pthread_barrier_wait(&r->go);
    pthread_mutex_lock(&r->mu);
    while (atomic_load(&r->opened) < r->n)
        pthread_cond_wait(&r->all_open, &r->mu);
    pthread_mutex_unlock(&r->mu);
    open_phase_end(r);
    /* (also after a failure: the streams still held finish) */
    if (r->per && release(base, r->session, r->n - atomic_load(&r->failed)) != 0)
        exit(1); /* the streams would wait forever */
    for (long i = 0; i < started; i++)
        pthread_join(t[i], NULL);
    pthread_barrier_destroy(&r->go);
    free(t);
    return 0;
}

static void raise_nofile(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

#ifdef BENCH_ASYNC
/* ---- the async SDK: every stream or call on one loop, on this thread ----
 * BENCH_ASYNC 1: the generated async forms (oc_session_events_start,
 * oc_session_list_page_async); 2: while the generated SDK has none yet, the runtime's forms they
 * wrap (sdkrt_jstream_start, sdkrt_json_call_async) with the generated SDK's own types and the
 * same operation descriptions. */
#include "sdkrt/loop.h"

typedef struct astream {
    run *r;
    long got;
} astream;

static sdkrt_loop *g_loop; /* the loop of the one run a process does */
static long g_left;        /* streams or calls still going */
static const char *g_base;

static void finished(void)
{
    if (--g_left == 0)
        sdkrt_loop_stop(g_loop);
}

/* On a loop timer, not inside libcurl's header callback: the one blocking request of a run. */
static void release_now(void *userdata)
{
    run *r = userdata;
    if (release(g_base, r->session, r->n) != 0)
        exit(1);
}

static void on_async_head(void *userdata, int status, const sdkrt_header *headers, size_t count)
{
    (void)headers;
    (void)count;
    run *r = userdata;
    if (status != 200 || ++r->opened_loop < r->n)
        return;
    open_phase_end(r);
    sdkrt_error *err = NULL;
    if (sdkrt_loop_timer_start(NULL, g_loop, 0, release_now, r, &err) != SDKRT_OK) {
        report_error("loop timer", err);
        exit(1);
    }
}

static void stream_item(void *userdata)
{
    ((astream *)userdata)->got++;
}

static void stream_end(void *userdata, const sdkrt_error *err)
{
    astream *a = userdata;
    if (err)
        fprintf(stderr, "bench_concurrency: stream: %s\n", sdkrt_error_message(err));
    if (err || a->got != a->r->per)
        atomic_fetch_add(&a->r->failed, 1);
    atomic_fetch_add(&a->r->events, a->got);
    finished();
}

static void call_done(run *r, size_t count, const sdkrt_error *err)
{
    if (err)
        fprintf(stderr, "bench_concurrency: session_list: %s\n", sdkrt_error_message(err));
    if (err || count != 100)
        atomic_fetch_add(&r->failed, 1);
    atomic_fetch_add(&r->events, 1);
    if (++r->opened_loop == r->n)
        open_phase_end(r);
    finished();
}

#if BENCH_ASYNC == 1
#define ASYNC_API "oc"
static void on_event(void *userdata, const oc_session_durable_event *item)
{
    (void)item;
    stream_item(userdata);
}

static void on_page(void *userdata, oc_session_list_page *page, const oc_error *err)
{
    call_done(userdata, page ? page->count : 0, err);
    oc_session_list_page_free(page);
}

static sdkrt_status start_stream(run *r, const oc_call_options *call, astream *a, sdkrt_error **err)
{
    oc_session_events_request req = {0};
    req.session_id.value = r->session;
    oc_session_events_handlers h = {on_event, NULL, NULL, stream_end};
    return oc_session_events_start(NULL, r->client, &req, call, &h, a, err);
}

static sdkrt_status start_call(run *r, sdkrt_error **err)
{
    oc_session_list_request list = {0};
    list.has_limit = true;
    list.limit = 100;
    return oc_session_list_page_async(r->client, &list, NULL, on_page, r, err);
}
#else
#define ASYNC_API "sdkrt"
/* What generated/opencode/src/ops.c describes for v2.session.events and v2.session.list (declared
 * errors left out: none is sent here). */
static const sdkrt_jop events_op = {"v2.session.events",
                                    200,
                                    SDKRT_JENC_SSE,
                                    NULL,
                                    NULL,
                                    NULL,
                                    0,
                                    &oc__j_session_durable_event,
                                    true,
                                    "effect/httpapi/stream/failure",
                                    NULL,
                                    NULL,
                                    0};
static const sdkrt_jop list_op = {"v2.session.list",
                                  200,
                                  SDKRT_JENC_JSON,
                                  &oc__j_sessions_response,
                                  NULL,
                                  NULL,
                                  0,
                                  NULL,
                                  false,
                                  NULL,
                                  NULL,
                                  NULL,
                                  0};

static void on_event(void *userdata, const void *item)
{
    (void)item;
    stream_item(userdata);
}

static void on_list(void *userdata, void *out, int status, const sdkrt_error *err)
{
    (void)status;
    oc_sessions_response *page = out;
    call_done(userdata, page ? page->data.count : 0, err);
    if (page)
        oc_sessions_response_free(page);
}

static sdkrt_status start_stream(run *r, const oc_call_options *call, astream *a, sdkrt_error **err)
{
    sdkrt_request *req = NULL;
    sdkrt_status st = sdkrt_request_new(&req, "GET", "/api/session/{sessionID}/event");
    if (st == SDKRT_OK)
        st = sdkrt_request_set_path_param(req, "sessionID", r->session);
    sdkrt_stream_handlers h = {on_event, NULL, NULL, stream_end};
    if (st == SDKRT_OK)
        st = sdkrt_jstream_start(NULL, r->client, req, call, &events_op, &h, a, err);
    sdkrt_request_free(req);
    return st;
}

static sdkrt_status start_call(run *r, sdkrt_error **err)
{
    sdkrt_request *req = NULL;
    sdkrt_status st = sdkrt_request_new(&req, "GET", "/api/session");
    if (st == SDKRT_OK)
        st = sdkrt_request_set_query(req, "limit", "100");
    if (st == SDKRT_OK)
        st = sdkrt_json_call_async(r->client, req, NULL, &list_op, on_list, r, err);
    sdkrt_request_free(req);
    return st;
}
#endif

static int run_async(run *r, int streams)
{
    astream *each = streams ? calloc((size_t)r->n, sizeof *each) : NULL;
    if (streams && !each)
        return -1;
    sdkrt_error *err = NULL;
    oc_call_options call = OC_CALL_OPTIONS_INIT;
    call.on_response = on_async_head;
    call.userdata = r;
    g_left = r->n;
    r->t0 = now();
    for (long i = 0; i < r->n; i++) {
        sdkrt_status st;
        if (streams) {
            each[i].r = r;
            st = start_stream(r, &call, &each[i], &err);
        } else {
            st = start_call(r, &err);
        }
        if (st != SDKRT_OK) {
            report_error(streams ? "stream start" : "async call", err);
            exit(1);
        }
    }
    if (sdkrt_loop_run(g_loop, &err) != SDKRT_OK) {
        report_error("loop_run", err);
        exit(1);
    }
    r->opened = r->opened_loop;
    free(each);
    return 0;
}
#endif

int main(int argc, char **argv)
{
    if (argc < 2 || (argc < 4 && strcmp(argv[1], "modes") != 0)) {
        fprintf(stderr, "usage: bench_concurrency MODE BASE N [PER TAG] | modes\n");
        return 2;
    }
    raise_nofile();
    const char *mode = argv[1];
    if (strcmp(mode, "modes") == 0) { /* what this build can run (bench/run.sh asks) */
#ifdef BENCH_ASYNC
        puts("streams-threads unary-threads streams-async unary-async");
#else
        puts("streams-threads unary-threads");
#endif
        return 0;
    }
    int streams = strncmp(mode, "streams-", 8) == 0;
    int async = strcmp(mode + (streams ? 8 : 0), "async") == 0 || strcmp(mode, "unary-async") == 0;
    if (strcmp(mode, "streams-threads") != 0 && strcmp(mode, "unary-threads") != 0
#ifdef BENCH_ASYNC
        && strcmp(mode, "streams-async") != 0 && strcmp(mode, "unary-async") != 0
#endif
    ) {
        fprintf(stderr, "bench_concurrency: unknown mode %s\n", mode);
        return 2;
    }
    run *r = calloc(1, sizeof *r);
    if (!r || oc_global_init() != OC_OK) {
        fprintf(stderr, "bench_concurrency: init failed\n");
        return 1;
    }
    r->n = strtol(argv[3], NULL, 10);
    if (streams && argc >= 6) {
        r->per = strtol(argv[4], NULL, 10);
        snprintf(r->session, sizeof r->session, "ses_hold%s_%ld", argv[5], r->per);
    }
    if (r->n < 1 || (streams && r->per < 2)) {
        fprintf(stderr, "bench_concurrency: N >= 1, PER >= 2 and a TAG please\n");
        return 2;
    }
    oc_client_options opts = OC_CLIENT_OPTIONS_INIT;
    opts.base_url = argv[2];
    oc_error *err = NULL;
#ifdef BENCH_ASYNC
    if (async && sdkrt_loop_new(&g_loop, &err) != SDKRT_OK) {
        report_error("loop_new", err);
        return 1;
    }
    opts.loop = g_loop;
    g_base = argv[2];
#endif
    if (oc_client_new(&r->client, &opts, &err) != OC_OK) {
        report_error("client_new", err);
        return 1;
    }
    long rss_base = status_kib("VmRSS");
    pthread_mutex_init(&r->mu, NULL);
    pthread_cond_init(&r->all_open, NULL);
    int rc;
#ifdef BENCH_ASYNC
    if (async)
        rc = run_async(r, streams);
    else
#endif
        rc = run_threads(r, streams ? stream_thread : unary_thread, argv[2]);
    (void)async;
    if (rc != 0) {
        fprintf(stderr, "bench_concurrency: out of memory\n");
        return 1;
    }
    double t_end = now(), cpu_end = cpu_now();
    long rss_peak = status_kib("VmHWM");
    oc_client_free(r->client);
#ifdef BENCH_ASYNC
    sdkrt_loop_free(g_loop);
#endif
    oc_global_cleanup();
    long failed = atomic_load(&r->failed);
    long events = atomic_load(&r->events);
    if (failed || atomic_load(&r->opened) != r->n) {
        fprintf(stderr, "bench_concurrency: %ld of %ld %s failed\n", failed, r->n,
                streams ? "streams" : "calls");
        return 1;
    }
    const char *api = "oc";
#ifdef BENCH_ASYNC
    if (async)
        api = ASYNC_API;
#endif
    printf("mode=%s api=%s n=%ld events=%ld open_s=%.4f cpu_open_s=%.4f "
           "cpu_events_s=%.4f rss_base_kib=%ld rss_open_kib=%ld rss_peak_kib=%ld seconds=%.4f\n",
           mode, api, r->n, events, r->t_open - r->t0, r->cpu_open, cpu_end - r->cpu_open, rss_base,
           r->rss_open, rss_peak, t_end - r->t0);
    free(r);
    return 0;
}
