/* floor.c - the raw libcurl + jansson floor the generated SDK is measured against.
 *
 * One reused easy handle (same connection reuse as the SDK), the body collected into a growing
 * buffer and parsed with json_loadb - parse only, no typed decoding. Modes:
 *   floor unary BASE N           N x GET BASE/api/session?limit=100; checks 100 items each.
 *   floor sse BASE SESSION N     GET BASE/api/session/SESSION/event; splits lines, parses every
 *                                event's data as JSON; stops after N events (or at the end).
 *   floor pages BASE TOTAL       GET BASE/api/session?limit=100 following cursor.next until
 *                                it is absent; checks TOTAL items in all.
 * Prints one line "mode=... count=... seconds=..." and exits 0 on success.
 *
 * Built a second time as bench_floor_fast (-DFLOOR_FAST, linked with libsdkrt): the same client,
 * but each body and event is read by the runtime's one-pass decoder (sdkrt_json_decode_text)
 * into types that keep almost nothing - every byte is still checked (UTF-8, numbers, duplicate
 * keys, depth) but only the item count and the next cursor are stored. That is the floor of a
 * client that does not build a tree, the fair one for the SDK since it stopped building one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curl/curl.h>
#include <jansson.h>

#ifdef FLOOR_FAST
#include <stdbool.h>
#include <stddef.h>

#include "sdkrt/json.h"

/* {"data": [{...}, ...], "cursor": {"next": "..." | null}}: objects with no fields are checked
 * and skipped whole; only the array's length (its items are one byte each) and next are kept. */
typedef struct fast_page {
    struct {
        char *items;
        size_t count;
    } data;
    struct {
        char *next;
        bool has_next, next_null;
    } cursor;
    bool has_cursor;
} fast_page;

static const sdkrt_jtype fast_skip = {
    SDKRT_JK_OBJECT, "object", 1, NULL, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, NULL};
static const sdkrt_jtype fast_items = {SDKRT_JK_ARRAY,
                                       "items",
                                       sizeof(((fast_page *)0)->data),
                                       &fast_skip,
                                       NULL,
                                       0,
                                       NULL,
                                       0,
                                       NULL,
                                       0,
                                       NULL,
                                       0,
                                       NULL,
                                       NULL};
static const sdkrt_jtype fast_string = {SDKRT_JK_STRING,
                                        "string",
                                        sizeof(char *),
                                        NULL,
                                        NULL,
                                        0,
                                        NULL,
                                        0,
                                        NULL,
                                        0,
                                        NULL,
                                        0,
                                        NULL,
                                        NULL};
static const sdkrt_jfield fast_cursor_fields[] = {
    {"next", &fast_string, 0, 0, offsetof(fast_page, cursor.has_next) - offsetof(fast_page, cursor),
     offsetof(fast_page, cursor.next_null) - offsetof(fast_page, cursor)},
};
static const sdkrt_jtype fast_cursor = {SDKRT_JK_OBJECT,
                                        "cursor",
                                        sizeof(((fast_page *)0)->cursor),
                                        NULL,
                                        fast_cursor_fields,
                                        1,
                                        NULL,
                                        0,
                                        NULL,
                                        0,
                                        NULL,
                                        0,
                                        NULL,
                                        NULL};
static const sdkrt_jfield fast_page_fields[] = {
    {"data", &fast_items, SDKRT_JF_REQUIRED, offsetof(fast_page, data), SDKRT_JNONE, SDKRT_JNONE},
    {"cursor", &fast_cursor, 0, offsetof(fast_page, cursor), offsetof(fast_page, has_cursor),
     SDKRT_JNONE},
};
static const sdkrt_jtype fast_page_t = {SDKRT_JK_OBJECT,
                                        "page",
                                        sizeof(fast_page),
                                        NULL,
                                        fast_page_fields,
                                        2,
                                        NULL,
                                        0,
                                        NULL,
                                        0,
                                        NULL,
                                        0,
                                        NULL,
                                        NULL};
#endif

typedef struct body {
    char *data;
    size_t len;
    size_t cap;
} body;

static size_t collect(char *p, size_t size, size_t n, void *ud)
{
    body *b = ud;
    size_t add = size * n;
    if (b->len + add > b->cap) {
        size_t cap = b->cap ? b->cap : 65536;
        while (cap < b->len + add)
            cap *= 2;
        char *q = realloc(b->data, cap);
        if (!q)
            return 0;
        b->data = q;
        b->cap = cap;
    }
    memcpy(b->data + b->len, p, add);
    b->len += add;
    return add;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#ifndef FLOOR_FAST
/* GETs url into b (reset first); returns the parsed body or NULL. */
static json_t *get_json(CURL *h, const char *url, body *b)
{
    b->len = 0;
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, b);
    curl_easy_setopt(h, CURLOPT_URL, url);
    CURLcode rc = curl_easy_perform(h);
    long status = 0;
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
    if (rc != CURLE_OK || status != 200) {
        fprintf(stderr, "floor: GET %s: %s (HTTP %ld)\n", url, curl_easy_strerror(rc), status);
        return NULL;
    }
    json_error_t err;
    json_t *v = json_loadb(b->data, b->len, 0, &err);
    if (!v)
        fprintf(stderr, "floor: bad JSON from %s: %s\n", url, err.text);
    return v;
}
#endif

#ifdef FLOOR_FAST
/* GETs url into b and decodes the page into *pg (zeroed first); 0 on success. */
static int get_page(CURL *h, const char *url, body *b, fast_page *pg)
{
    b->len = 0;
    memset(pg, 0, sizeof *pg);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, b);
    curl_easy_setopt(h, CURLOPT_URL, url);
    CURLcode rc = curl_easy_perform(h);
    long status = 0;
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
    if (rc != CURLE_OK || status != 200) {
        fprintf(stderr, "floor: GET %s: %s (HTTP %ld)\n", url, curl_easy_strerror(rc), status);
        return 1;
    }
    sdkrt_error *err = NULL;
    if (sdkrt_json_decode_text(&fast_page_t, pg, b->data, b->len, "$", &err) != SDKRT_OK) {
        fprintf(stderr, "floor: bad JSON from %s: %s\n", url, sdkrt_error_message(err));
        sdkrt_error_free(err);
        return 1;
    }
    return 0;
}

static int run_unary(CURL *h, const char *base, long n)
{
    char url[1024];
    snprintf(url, sizeof url, "%s/api/session?limit=100", base);
    body b = {0};
    int rc = 0;
    for (long i = 0; i < n && rc == 0; i++) {
        fast_page pg;
        rc = get_page(h, url, &b, &pg);
        if (rc == 0 && pg.data.count == 0) {
            fprintf(stderr, "floor: call %ld: no data array\n", i);
            rc = 1;
        }
        sdkrt_json_cleanup(&fast_page_t, &pg);
    }
    free(b.data);
    return rc;
}

static int run_pages(CURL *h, const char *base, long total)
{
    char url[2048];
    snprintf(url, sizeof url, "%s/api/session?limit=100", base);
    body b = {0};
    long items = 0;
    int rc = 0;
    for (;;) {
        fast_page pg;
        rc = get_page(h, url, &b, &pg);
        if (rc) {
            sdkrt_json_cleanup(&fast_page_t, &pg);
            break;
        }
        items += (long)pg.data.count;
        const char *next = pg.cursor.next;
        if (next)
            snprintf(url, sizeof url, "%s/api/session?limit=100&cursor=%s", base, next);
        sdkrt_json_cleanup(&fast_page_t, &pg);
        if (!next)
            break;
    }
    free(b.data);
    if (rc == 0 && items != total) {
        fprintf(stderr, "floor: %ld items, expected %ld\n", items, total);
        rc = 1;
    }
    return rc;
}
#else
static int run_unary(CURL *h, const char *base, long n)
{
    char url[1024];
    snprintf(url, sizeof url, "%s/api/session?limit=100", base);
    body b = {0};
    int rc = 0;
    for (long i = 0; i < n && rc == 0; i++) {
        json_t *v = get_json(h, url, &b);
        json_t *data = v ? json_object_get(v, "data") : NULL;
        if (!json_is_array(data) || json_array_size(data) == 0) {
            fprintf(stderr, "floor: call %ld: no data array\n", i);
            rc = 1;
        }
        json_decref(v);
    }
    free(b.data);
    return rc;
}

static int run_pages(CURL *h, const char *base, long total)
{
    char url[2048];
    snprintf(url, sizeof url, "%s/api/session?limit=100", base);
    body b = {0};
    long items = 0;
    int rc = 0;
    for (;;) {
        json_t *v = get_json(h, url, &b);
        json_t *data = v ? json_object_get(v, "data") : NULL;
        if (!json_is_array(data)) {
            rc = 1;
            json_decref(v);
            break;
        }
        items += (long)json_array_size(data);
        const char *next = json_string_value(json_object_get(json_object_get(v, "cursor"), "next"));
        if (next)
            snprintf(url, sizeof url, "%s/api/session?limit=100&cursor=%s", base, next);
        json_decref(v);
        if (!next)
            break;
    }
    free(b.data);
    if (rc == 0 && items != total) {
        fprintf(stderr, "floor: %ld items, expected %ld\n", items, total);
        rc = 1;
    }
    return rc;
}

#endif

/* SSE: the minimum a correct client does - split lines (LF, CRLF), join data lines, parse the
 * JSON of each event, drop it. No ids, retry or comments beyond skipping them. */
typedef struct sse {
    body line; /* the partial line carried across writes */
    body data; /* the current event's data */
    long events;
    long limit;
    int bad;
} sse;

static void sse_line(sse *s, const char *p, size_t n)
{
    if (n && p[n - 1] == '\r')
        n--;
    if (n == 0) {
        if (s->data.len) {
#ifdef FLOOR_FAST
            char none = 0;
            if (sdkrt_json_decode_text(&fast_skip, &none, s->data.data, s->data.len, "$", NULL) !=
                SDKRT_OK)
                s->bad = 1;
#else
            json_t *v = json_loadb(s->data.data, s->data.len, 0, NULL);
            if (!v)
                s->bad = 1;
            json_decref(v);
#endif
            s->events++;
            s->data.len = 0;
        }
        return;
    }
    if (n >= 5 && memcmp(p, "data:", 5) == 0) {
        size_t skip = (n > 5 && p[5] == ' ') ? 6 : 5;
        if (s->data.len)
            collect("\n", 1, 1, &s->data);
        collect((char *)p + skip, 1, n - skip, &s->data);
    }
}

static size_t sse_write(char *p, size_t size, size_t n, void *ud)
{
    sse *s = ud;
    size_t len = size * n;
    const char *cur = p, *end = p + len;
    while (cur < end) {
        const char *nl = memchr(cur, '\n', (size_t)(end - cur));
        if (!nl) {
            collect((char *)cur, 1, (size_t)(end - cur), &s->line);
            break;
        }
        if (s->line.len) {
            collect((char *)cur, 1, (size_t)(nl - cur), &s->line);
            sse_line(s, s->line.data, s->line.len);
            s->line.len = 0;
        } else {
            sse_line(s, cur, (size_t)(nl - cur));
        }
        cur = nl + 1;
        if (s->events >= s->limit)
            return 0; /* enough: abort the transfer */
    }
    return len;
}

static int run_sse(CURL *h, const char *base, const char *session, long n)
{
    char url[1024];
    snprintf(url, sizeof url, "%s/api/session/%s/event", base, session);
    sse s = {0};
    s.limit = n;
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, sse_write);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &s);
    CURLcode rc = curl_easy_perform(h);
    free(s.line.data);
    free(s.data.data);
    if ((rc != CURLE_OK && rc != CURLE_WRITE_ERROR) || s.bad || s.events != n) {
        fprintf(stderr, "floor: sse: %s, %ld events of %ld%s\n", curl_easy_strerror(rc), s.events,
                n, s.bad ? ", bad JSON" : "");
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: floor unary BASE N | sse BASE SESSION N | pages BASE TOTAL\n");
        return 2;
    }
    const char *mode = argv[1], *base = argv[2];
    curl_global_init(CURL_GLOBAL_DEFAULT);
    CURL *h = curl_easy_init();
    curl_easy_setopt(h, CURLOPT_TCP_NODELAY, 1L);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    double t0 = now();
    int rc;
    long count;
    if (strcmp(mode, "unary") == 0) {
        count = strtol(argv[3], NULL, 10);
        rc = run_unary(h, base, count);
    } else if (strcmp(mode, "pages") == 0) {
        count = strtol(argv[3], NULL, 10);
        rc = run_pages(h, base, count);
    } else if (strcmp(mode, "sse") == 0 && argc >= 5) {
        count = strtol(argv[4], NULL, 10);
        rc = run_sse(h, base, argv[3], count);
    } else {
        fprintf(stderr, "floor: unknown mode %s\n", mode);
        rc = 2;
        count = 0;
    }
    double t = now() - t0;
    curl_easy_cleanup(h);
    curl_global_cleanup();
    if (rc == 0)
        printf("mode=%s count=%ld seconds=%.4f\n", mode, count, t);
    return rc;
}
