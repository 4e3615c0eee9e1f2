/* sdk.c - the generated OpenCode C SDK (generated/opencode, prefix oc) as a benchmark contestant.
 * Same work and same command line as bench/floor.c, through the SDK's typed API:
 *   bench_sdk unary BASE N           N x oc_session_list(limit=100); checks a non-empty page.
 *   bench_sdk sse BASE SESSION N     oc_session_events_open + oc_session_events_next, N events.
 *   bench_sdk pages BASE TOTAL       oc_session_list_iter over pages of 100; checks TOTAL items.
 * Prints one line "mode=... count=... seconds=..." and exits 0 on success. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "oc/oc.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int fail(const char *what, oc_error *err)
{
    fprintf(stderr, "bench_sdk: %s: %s\n", what, err ? oc_error_message(err) : "unexpected result");
    oc_error_free(err);
    return 1;
}

static int run_unary(oc_client *c, long n)
{
    oc_session_list_request req = {0};
    req.has_limit = true;
    req.limit = 100;
    for (long i = 0; i < n; i++) {
        oc_session_list_page *page = NULL;
        oc_error *err = NULL;
        if (oc_session_list(c, &req, NULL, &page, &err) != OC_OK)
            return fail("session_list", err);
        size_t count = page->count;
        oc_session_list_page_free(page);
        if (count == 0)
            return fail("session_list: empty page", NULL);
    }
    return 0;
}

static int run_pages(oc_client *c, long total)
{
    oc_session_list_request req = {0};
    req.has_limit = true;
    req.limit = 100;
    oc_session_list_iter *it = NULL;
    oc_error *err = NULL;
    if (oc_session_list_iter_new(&it, c, &req, NULL, &err) != OC_OK)
        return fail("session_list_iter_new", err);
    long items = 0;
    const oc_session_v2_info *item;
    oc_next r;
    while ((r = oc_session_list_iter_next(it, &item, &err)) == OC_NEXT_ITEM)
        items++;
    oc_session_list_iter_free(it);
    if (r == OC_NEXT_ERROR)
        return fail("session_list_iter_next", err);
    if (items != total) {
        fprintf(stderr, "bench_sdk: %ld items, expected %ld\n", items, total);
        return 1;
    }
    return 0;
}

static int run_sse(oc_client *c, const char *session, long n)
{
    oc_session_events_request req = {0};
    req.session_id.value = session; /* borrowed: the request is copied by open */
    oc_session_events_stream *s = NULL;
    oc_error *err = NULL;
    if (oc_session_events_open(&s, c, &req, NULL, &err) != OC_OK)
        return fail("session_events_open", err);
    long events = 0;
    const oc_session_durable_event *ev;
    oc_next r = OC_NEXT_END;
    while (events < n && (r = oc_session_events_next(s, &ev, &err)) == OC_NEXT_ITEM)
        events++;
    oc_session_events_close(s);
    if (r == OC_NEXT_ERROR)
        return fail("session_events_next", err);
    if (events != n) {
        fprintf(stderr, "bench_sdk: %ld events, expected %ld\n", events, n);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: bench_sdk unary BASE N | sse BASE SESSION N | pages BASE TOTAL\n");
        return 2;
    }
    const char *mode = argv[1];
    if (oc_global_init() != OC_OK) {
        fprintf(stderr, "bench_sdk: global init failed\n");
        return 1;
    }
    oc_client_options opts = OC_CLIENT_OPTIONS_INIT;
    opts.base_url = argv[2];
    oc_client *c = NULL;
    oc_error *err = NULL;
    if (oc_client_new(&c, &opts, &err) != OC_OK) {
        int rc = fail("client_new", err);
        oc_global_cleanup();
        return rc;
    }
    double t0 = now();
    int rc;
    long count = 0;
    if (strcmp(mode, "unary") == 0) {
        count = strtol(argv[3], NULL, 10);
        rc = run_unary(c, count);
    } else if (strcmp(mode, "pages") == 0) {
        count = strtol(argv[3], NULL, 10);
        rc = run_pages(c, count);
    } else if (strcmp(mode, "sse") == 0 && argc >= 5) {
        count = strtol(argv[4], NULL, 10);
        rc = run_sse(c, argv[3], count);
    } else {
        fprintf(stderr, "bench_sdk: unknown mode %s\n", mode);
        rc = 2;
    }
    double t = now() - t0;
    oc_client_free(c);
    oc_global_cleanup();
    if (rc == 0)
        printf("mode=%s count=%ld seconds=%.4f\n", mode, count, t);
    return rc;
}
