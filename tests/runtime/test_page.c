/* test_page.c - the pagination engine (sdkrt/page.h) over the in-memory transport: one fake
 * server with an endpoint per style serving the items i1..i7 three at a time; each test walks
 * every item with a pager and checks the exact requests sent. Also: RFC 8288 Link headers, the
 * same-origin rule for followed URLs, servers whose pages would never end (a repeated cursor, an
 * earlier request again, empty pages, the same page again), and the query edits. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sdkrt/page.h"
#include "sdkrt/sdkrt.h"

#define NITEMS 7
#define PAGE   3
#define MAXLOG 16

typedef struct server {
    char log[MAXLOG][256]; /* targets received */
    char auth[MAXLOG][64]; /* their Authorization headers */
    size_t n;
    const char *evil; /* NEXT_URL answer of /evil */
} server;

/* The decoded value of query parameter name in target (into buf), or NULL. */
static const char *qget(const char *target, const char *name, char *buf, size_t size)
{
    const char *q = strchr(target, '?');
    size_t n = strlen(name);
    for (const char *p = q; p && *p; p = strchr(p + 1, '&')) {
        if (strncmp(p + 1, name, n) == 0 && p[1 + n] == '=') {
            const char *v = p + 2 + n;
            size_t len = strcspn(v, "&");
            if (len >= size)
                len = size - 1;
            memcpy(buf, v, len);
            buf[len] = '\0';
            return buf;
        }
    }
    return NULL;
}

static long qnum(const char *target, const char *name, long dflt)
{
    char buf[32];
    const char *v = qget(target, name, buf, sizeof buf);
    return v ? strtol(v, NULL, 10) : dflt;
}

/* Items [from, from + n) as a JSON array. */
static void items_json(char *out, size_t size, long from, long n)
{
    size_t k = (size_t)snprintf(out, size, "[");
    for (long i = from; i < from + n && i < NITEMS; i++)
        k += (size_t)snprintf(out + k, size - k, "%s{\"id\":\"i%ld\"}", i > from ? "," : "", i + 1);
    snprintf(out + k, size - k, "]");
}

static void body(sdkrt_memory_response *resp, const char *text)
{
    sdkrt_memory_response_add_header(resp, "Content-Type", "application/json");
    sdkrt_memory_response_add_chunk(resp, text, strlen(text));
}

static int handler(void *userdata, const sdkrt_memory_request *req, sdkrt_memory_response *resp)
{
    server *s = userdata;
    const char *t = req->target;
    if (s->n < MAXLOG) {
        snprintf(s->log[s->n], sizeof s->log[0], "%s", t);
        s->auth[s->n][0] = '\0';
        for (size_t i = 0; i < req->header_count; i++)
            if (strcmp(req->headers[i].name, "Authorization") == 0)
                snprintf(s->auth[s->n], sizeof s->auth[0], "%s", req->headers[i].value);
        s->n++;
    }
    char items[512], text[1024], buf[64];
    if (strncmp(t, "/v1/token", 9) == 0) {
        /* pageToken "tN" starts at item N */
        const char *tok = qget(t, "pageToken", buf, sizeof buf);
        long from = tok ? strtol(tok + 1, NULL, 10) : 0;
        items_json(items, sizeof items, from, PAGE);
        if (from + PAGE < NITEMS)
            snprintf(text, sizeof text, "{\"items\":%s,\"meta\":{\"next\":\"t%ld\"}}", items,
                     from + PAGE);
        else
            snprintf(text, sizeof text, "{\"items\":%s,\"meta\":{\"next\":\"\"}}", items);
    } else if (strncmp(t, "/v1/object/", 11) == 0) {
        const char *cur = qget(t, "cursor", buf, sizeof buf);
        long from = cur ? strtol(cur + 1, NULL, 10) : 0;
        items_json(items, sizeof items, from, PAGE);
        char next[32] = "null";
        if (from + PAGE < NITEMS) /* cursor "c<N>" */
            snprintf(next, sizeof next, "\"c%ld\"", from + PAGE);
        snprintf(text, sizeof text, "{\"data\":%s,\"cursor\":{\"next\":%s,\"previous\":null}}",
                 items, next);
    } else if (strncmp(t, "/v1/item", 8) == 0) {
        const char *after = qget(t, "starting_after", buf, sizeof buf);
        long from = after ? strtol(after + 1, NULL, 10) : 0;
        items_json(items, sizeof items, from, PAGE);
        snprintf(text, sizeof text, "{\"data\":%s,\"has_more\":%s}", items,
                 from + PAGE < NITEMS ? "true" : "false");
    } else if (strncmp(t, "/v1/url", 7) == 0 || strncmp(t, "/elsewhere", 10) == 0) {
        long page = qnum(t, "Page", 0);
        items_json(items, sizeof items, page * PAGE, PAGE);
        /* page 0 links relative to the host (Twilio), page 1 absolute, page 2 none */
        if (page == 0)
            snprintf(text, sizeof text,
                     "{\"messages\":%s,\"next_page_uri\":\"/elsewhere?Page=1&PageToken=a%%2Fb\"}",
                     items);
        else if (page == 1)
            snprintf(text, sizeof text,
                     "{\"messages\":%s,\"next_page_uri\":\"http://api.test:8080/v1/url?Page=2\"}",
                     items);
        else
            snprintf(text, sizeof text, "{\"messages\":%s,\"next_page_uri\":null}", items);
    } else if (strncmp(t, "/v1/link", 8) == 0) {
        long page = qnum(t, "page", 1);
        items_json(items, sizeof items, (page - 1) * PAGE, PAGE);
        body(resp, items);
        char link[256];
        snprintf(link, sizeof link,
                 "<http://api.test:8080/v1/link?page=1>; rel=\"first\"; title=\"a, b; c\"");
        sdkrt_memory_response_add_header(resp, "Link", link);
        if (page * PAGE < NITEMS) {
            snprintf(link, sizeof link, "<link?page=%ld&per_page=3>; REL=\"last next\"", page + 1);
            sdkrt_memory_response_add_header(resp, "link", link);
        }
        return 0;
    } else if (strncmp(t, "/v1/page", 8) == 0) {
        long page = qnum(t, "page", 1), per = qnum(t, "per_page", PAGE);
        items_json(items, sizeof items, (page - 1) * per, per);
        snprintf(text, sizeof text, "%s", items);
    } else if (strncmp(t, "/v1/offset", 10) == 0) {
        long off = qnum(t, "offset", 0), lim = qnum(t, "limit", PAGE);
        items_json(items, sizeof items, off, lim);
        snprintf(text, sizeof text, "{\"results\":%s}", items);
    } else if (strncmp(t, "/v1/pd", 6) == 0) {
        /* PagerDuty: full pages of offset/limit; `more` is false on the page holding i6, though
         * i7 would follow (a server that knows its end better than a short page says) */
        long off = qnum(t, "offset", 0);
        items_json(items, sizeof items, off, PAGE);
        snprintf(text, sizeof text, "{\"incidents\":%s,\"offset\":%ld,\"more\":%s}", items, off,
                 off + PAGE < 6 ? "true" : "false");
    } else if (strncmp(t, "/v1/stuck", 9) == 0) {
        snprintf(text, sizeof text, "{\"items\":[{\"id\":\"i1\"}],\"meta\":{\"next\":\"same\"}}");
    } else if (strncmp(t, "/v1/empty", 9) == 0) {
        /* pages that never end: empty, each with a new token (after one page of items when
           ?items=1; only `gap` empty pages before a last page of items when ?gap=N) */
        const char *tok = qget(t, "pageToken", buf, sizeof buf);
        long k = tok ? strtol(tok + 1, NULL, 10) : 0, gap = qnum(t, "gap", -1);
        if (gap >= 0 && k > gap)
            snprintf(text, sizeof text, "{\"items\":[{\"id\":\"i9\"}],\"meta\":{}}");
        else
            snprintf(text, sizeof text, "{\"items\":%s,\"meta\":{\"next\":\"e%ld\"}}",
                     k == 0 && qnum(t, "items", 0) ? "[{\"id\":\"i1\"}]" : "[]", k + 1);
    } else if (strncmp(t, "/v1/cycle", 9) == 0) {
        /* tokens a -> b -> a: a request of an earlier page comes back */
        const char *tok = qget(t, "pageToken", buf, sizeof buf);
        const char *next = !tok ? "a" : strcmp(tok, "a") == 0 ? "b" : "a";
        snprintf(text, sizeof text, "{\"items\":[{\"id\":\"%s\"}],\"meta\":{\"next\":\"%s\"}}",
                 tok ? tok : "first", next);
    } else if (strncmp(t, "/v1/ignored", 11) == 0) {
        /* a server that ignores the page number: the same page every time */
        snprintf(text, sizeof text, "[{\"id\":\"i1\"},{\"id\":\"i2\"}]");
    } else if (strncmp(t, "/v1/self", 8) == 0) {
        /* the first page links to itself (a server's mistake): it is fetched once */
        snprintf(text, sizeof text,
                 "{\"messages\":[{\"id\":\"i1\"}],\"next_page_uri\":\"/v1/self?x=1\"}");
    } else if (strncmp(t, "/v1/evil", 8) == 0) {
        snprintf(text, sizeof text, "{\"messages\":[{\"id\":\"i1\"}],\"next_page_uri\":\"%s\"}",
                 s->evil);
    } else {
        sdkrt_memory_response_set_status(resp, 404);
        return 0;
    }
    body(resp, text);
    return 0;
}

/* ---- a pager over pages whose items are {id} objects anywhere in the body ---- */

typedef struct item {
    char *id;
} item;

typedef struct page {
    item *items;
    size_t count;
} page;

static const sdkrt_page_desc *current_desc;

static void page_free(void *v)
{
    page *p = v;
    for (size_t i = 0; p && i < p->count; i++)
        free(p->items[i].id);
    if (p)
        free(p->items);
    free(p);
}

/* Stands in for a generated decode: the items array at the descriptor's path. */
static sdkrt_status decode(const sdkrt_response *resp, void **out, const void **items,
                           size_t *count, sdkrt_error **err)
{
    json_t *j = NULL;
    if (sdkrt_response_parse_json(resp, &j, err) != SDKRT_OK)
        return SDKRT_ERR;
    json_t *arr = current_desc->items ? json_object_get(j, current_desc->items) : j;
    page *p = calloc(1, sizeof *p);
    size_t n = json_array_size(arr);
    p->items = calloc(n ? n : 1, sizeof *p->items);
    for (size_t i = 0; i < n; i++)
        p->items[p->count++].id =
            strdup(json_string_value(json_object_get(json_array_get(arr, i), "id")));
    json_decref(j);
    *out = p;
    *items = p->items;
    *count = p->count;
    return SDKRT_OK;
}

static server srv;
static sdkrt_transport *transport;
static sdkrt_client *client;

static void setup(void)
{
    memset(&srv, 0, sizeof srv);
    ck_assert_int_eq(sdkrt_memory_transport_new(&transport, handler, &srv), SDKRT_OK);
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.base_url = "http://api.test:8080/v1";
    o.transport = transport;
    o.auth = SDKRT_AUTH_BEARER;
    o.token = "secret";
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_new(&client, &o, &err), SDKRT_OK);
}

static void teardown(void)
{
    sdkrt_client_free(client);
    sdkrt_transport_free(transport);
}

/* Walk every item; the ids joined by ',' into out. Returns the iterator's last result. */
static int walk(const sdkrt_page_desc *d, sdkrt_request *first, char *out, size_t size,
                sdkrt_error **err)
{
    current_desc = d;
    sdkrt_pager *p = NULL;
    ck_assert_int_eq(
        sdkrt_pager_new(&p, client, first, NULL, d, decode, page_free, sizeof(item), err),
        SDKRT_OK);
    sdkrt_request_free(first);
    out[0] = '\0';
    const void *it = NULL;
    int r;
    while ((r = sdkrt_pager_next(p, &it, err)) == 1) {
        size_t k = strlen(out);
        snprintf(out + k, size - k, "%s%s", k ? "," : "", ((const item *)it)->id);
    }
    ck_assert_ptr_null(it);
    if (r == -1) /* later calls end quietly */
        ck_assert_int_eq(sdkrt_pager_next(p, &it, NULL), 0);
    sdkrt_pager_free(p);
    return r;
}

static sdkrt_request *get(const char *path)
{
    sdkrt_request *r = NULL;
    ck_assert_int_eq(sdkrt_request_new(&r, "GET", path), SDKRT_OK);
    return r;
}

#define ALL "i1,i2,i3,i4,i5,i6,i7"

static void logged(size_t n, const char *const *targets)
{
    ck_assert_uint_eq(srv.n, n);
    for (size_t i = 0; i < n; i++) {
        ck_assert_str_eq(srv.log[i], targets[i]);
        ck_assert_str_eq(srv.auth[i], "Bearer secret");
    }
}

START_TEST(cursor_token)
{
    const sdkrt_page_desc d = {.style = SDKRT_PAGE_CURSOR_TOKEN,
                               .items = "items",
                               .next = "meta.next",
                               .param = "pageToken"};
    sdkrt_request *r = get("/token");
    sdkrt_request_add_query(r, "filter", "a b");
    sdkrt_request_add_query(r, "pageSize", "3");
    char out[256];
    ck_assert_int_eq(walk(&d, r, out, sizeof out, NULL), 0);
    ck_assert_str_eq(out, ALL);
    /* the rest of the query is kept; the token is replaced, not repeated */
    const char *want[] = {"/v1/token?filter=a%20b&pageSize=3",
                          "/v1/token?filter=a%20b&pageSize=3&pageToken=t3",
                          "/v1/token?filter=a%20b&pageSize=3&pageToken=t6"};
    logged(3, want);
}
END_TEST

START_TEST(cursor_object)
{
    const sdkrt_page_desc d = {.style = SDKRT_PAGE_CURSOR_OBJECT,
                               .items = "data",
                               .next = "cursor.next",
                               .param = "cursor"};
    sdkrt_request *r = get("/object/{id}");
    sdkrt_request_set_path_param(r, "id", "x/y");
    sdkrt_request_add_query(r, "order", "desc");
    char out[256];
    ck_assert_int_eq(walk(&d, r, out, sizeof out, NULL), 0);
    ck_assert_str_eq(out, ALL);
    /* a continuation sends the path parameters and the cursor only */
    const char *want[] = {"/v1/object/x%2Fy?order=desc", "/v1/object/x%2Fy?cursor=c3",
                          "/v1/object/x%2Fy?cursor=c6"};
    logged(3, want);
}
END_TEST

START_TEST(cursor_item)
{
    const sdkrt_page_desc d = {.style = SDKRT_PAGE_CURSOR_ITEM,
                               .items = "data",
                               .param = "starting_after",
                               .item_id = "id",
                               .has_more = "has_more"};
    sdkrt_request *r = get("/item");
    sdkrt_request_add_query(r, "limit", "3");
    char out[256];
    ck_assert_int_eq(walk(&d, r, out, sizeof out, NULL), 0);
    ck_assert_str_eq(out, ALL);
    const char *want[] = {"/v1/item?limit=3", "/v1/item?limit=3&starting_after=i3",
                          "/v1/item?limit=3&starting_after=i6"};
    logged(3, want);
}
END_TEST

START_TEST(next_url)
{
    const sdkrt_page_desc d = {
        .style = SDKRT_PAGE_NEXT_URL, .items = "messages", .next = "next_page_uri"};
    sdkrt_request *r = get("/url");
    sdkrt_request_add_query(r, "PageSize", "3");
    char out[256];
    ck_assert_int_eq(walk(&d, r, out, sizeof out, NULL), 0);
    ck_assert_str_eq(out, ALL);
    /* relative to the host (outside the base path), then absolute on the same origin; both as
       given, with the credentials */
    const char *want[] = {"/v1/url?PageSize=3", "/elsewhere?Page=1&PageToken=a%2Fb",
                          "/v1/url?Page=2"};
    logged(3, want);
}
END_TEST

START_TEST(first_page_linking_to_itself)
{
    const sdkrt_page_desc d = {
        .style = SDKRT_PAGE_NEXT_URL, .items = "messages", .next = "next_page_uri"};
    sdkrt_request *r = get("/self");
    sdkrt_request_add_query(r, "x", "1");
    char out[256];
    sdkrt_error *err = NULL;
    ck_assert_int_eq(walk(&d, r, out, sizeof out, &err), -1);
    ck_assert_str_eq(out, "i1"); /* its items, then why the walk stopped */
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_MALFORMED_RESPONSE);
    ck_assert_str_eq(sdkrt_error_message(err),
                     "the pages do not end: the page leads back to a request already sent (GET "
                     "http://api.test:8080/v1/self?x=1) (MALFORMED_RESPONSE)");
    sdkrt_error_free(err);
    const char *want[] = {"/v1/self?x=1"};
    logged(1, want);
}
END_TEST

START_TEST(next_url_other_origin)
{
    const char *evil[] = {"https://api.test:8080/v1/evil?page=2", /* another scheme */
                          "http://evil.test:8080/v1/evil?page=2",
                          "http://api.test:9090/x",
                          "http://user:pw@api.test:8080/x",
                          "//evil.test/x",
                          "http://[::1"};
    for (size_t i = 0; i < sizeof evil / sizeof evil[0]; i++) {
        srv.n = 0;
        srv.evil = evil[i];
        const sdkrt_page_desc d = {
            .style = SDKRT_PAGE_NEXT_URL, .items = "messages", .next = "next_page_uri"};
        sdkrt_error *err = NULL;
        char out[256];
        ck_assert_int_eq(walk(&d, get("/evil"), out, sizeof out, &err), -1);
        ck_assert_str_eq(out, "i1"); /* the first page's items, then the error */
        ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_MALFORMED_RESPONSE);
        ck_assert_msg(strstr(sdkrt_error_message(err), "origin") ||
                          strstr(sdkrt_error_message(err), "does not parse"),
                      "%s", sdkrt_error_message(err));
        ck_assert_uint_eq(srv.n, 1); /* nothing sent anywhere else */
        sdkrt_error_free(err);
    }
}
END_TEST

START_TEST(link_header)
{
    const sdkrt_page_desc d = {.style = SDKRT_PAGE_LINK_HEADER};
    sdkrt_request *r = get("/link");
    sdkrt_request_add_query(r, "per_page", "3");
    char out[256];
    ck_assert_int_eq(walk(&d, r, out, sizeof out, NULL), 0);
    ck_assert_str_eq(out, ALL);
    /* relative references resolve against the page's own URL */
    const char *want[] = {"/v1/link?per_page=3", "/v1/link?page=2&per_page=3",
                          "/v1/link?page=3&per_page=3"};
    logged(3, want);
}
END_TEST

START_TEST(page_number)
{
    const sdkrt_page_desc d = {
        .style = SDKRT_PAGE_PAGE_NUMBER, .param = "page", .size_param = "per_page"};
    sdkrt_request *r = get("/page");
    sdkrt_request_add_query(r, "per_page", "3");
    char out[256];
    ck_assert_int_eq(walk(&d, r, out, sizeof out, NULL), 0);
    ck_assert_str_eq(out, ALL);
    /* the third page is short: the end without asking for a fourth */
    const char *want[] = {"/v1/page?per_page=3", "/v1/page?per_page=3&page=2",
                          "/v1/page?per_page=3&page=3"};
    logged(3, want);

    /* without the size in the request, an empty page ends it */
    srv.n = 0;
    const sdkrt_page_desc unsized = {.style = SDKRT_PAGE_PAGE_NUMBER, .param = "page"};
    r = get("/page");
    sdkrt_request_add_query(r, "page", "2");
    ck_assert_int_eq(walk(&unsized, r, out, sizeof out, NULL), 0);
    ck_assert_str_eq(out, "i4,i5,i6,i7");
    const char *want2[] = {"/v1/page?page=2", "/v1/page?page=3", "/v1/page?page=4"};
    logged(3, want2);
}
END_TEST

START_TEST(offset)
{
    const sdkrt_page_desc d = {
        .style = SDKRT_PAGE_OFFSET, .items = "results", .param = "offset", .size_param = "limit"};
    sdkrt_request *r = get("/offset");
    sdkrt_request_add_query(r, "limit", "3");
    char out[256];
    ck_assert_int_eq(walk(&d, r, out, sizeof out, NULL), 0);
    ck_assert_str_eq(out, ALL);
    const char *want[] = {"/v1/offset?limit=3", "/v1/offset?limit=3&offset=3",
                          "/v1/offset?limit=3&offset=6"};
    logged(3, want);
}
END_TEST

/* PagerDuty's `more: false` ends an offset walk whose request names no size. */
START_TEST(offset_more_false)
{
    const sdkrt_page_desc d = {
        .style = SDKRT_PAGE_OFFSET, .items = "incidents", .param = "offset", .has_more = "more"};
    char out[256];
    ck_assert_int_eq(walk(&d, get("/pd"), out, sizeof out, NULL), 0);
    ck_assert_str_eq(out, "i1,i2,i3,i4,i5,i6");
    const char *want[] = {"/v1/pd", "/v1/pd?offset=3"};
    logged(2, want);
}
END_TEST

START_TEST(repeated_cursor_ends)
{
    const sdkrt_page_desc d = {.style = SDKRT_PAGE_CURSOR_TOKEN,
                               .items = "items",
                               .next = "meta.next",
                               .param = "pageToken"};
    char out[256];
    sdkrt_error *err = NULL;
    ck_assert_int_eq(walk(&d, get("/stuck"), out, sizeof out, &err), -1);
    ck_assert_str_eq(out, "i1,i1"); /* the second page repeats the cursor: an error, not a loop */
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_MALFORMED_RESPONSE);
    ck_assert_str_eq(sdkrt_error_message(err),
                     "the pages do not end: the page leads back to a request already sent (GET "
                     "http://api.test:8080/v1/stuck?pageToken=same) (MALFORMED_RESPONSE)");
    sdkrt_error_free(err);
    ck_assert_uint_eq(srv.n, 2);
}
END_TEST

static const sdkrt_page_desc token_desc = {
    .style = SDKRT_PAGE_CURSOR_TOKEN, .items = "items", .next = "meta.next", .param = "pageToken"};

/* Empty pages, each with a new token, used to loop forever: SDKRT_PAGE_EMPTY_MAX in a row end the
 * walk, after the items of the pages before them; fewer do not. */
START_TEST(empty_pages_end)
{
    char out[256];
    sdkrt_error *err = NULL;
    ck_assert_int_eq(walk(&token_desc, get("/empty"), out, sizeof out, &err), -1);
    ck_assert_str_eq(out, "");
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_MALFORMED_RESPONSE);
    ck_assert_str_eq(sdkrt_error_message(err), "the pages do not end: 10 empty pages in a row, "
                                               "each with a next page (MALFORMED_RESPONSE)");
    sdkrt_error_free(err);
    err = NULL;
    ck_assert_uint_eq(srv.n, SDKRT_PAGE_EMPTY_MAX);

    srv.n = 0;
    sdkrt_request *r = get("/empty");
    sdkrt_request_add_query(r, "items", "1");
    ck_assert_int_eq(walk(&token_desc, r, out, sizeof out, &err), -1);
    ck_assert_str_eq(out, "i1"); /* delivered before the error */
    ck_assert_uint_eq(srv.n, 1 + SDKRT_PAGE_EMPTY_MAX);
    ck_assert_str_eq(srv.log[10], "/v1/empty?items=1&pageToken=e10");
    sdkrt_error_free(err);
    err = NULL;

    /* nine empty pages in a row (one short of the bound), then a last page of items: a walk like any other */
    srv.n = 0;
    r = get("/empty");
    sdkrt_request_add_query(r, "gap", "8");
    ck_assert_int_eq(walk(&token_desc, r, out, sizeof out, NULL), 0);
    ck_assert_str_eq(out, "i9");
    ck_assert_uint_eq(srv.n, 10);
}
END_TEST

/* A token of an earlier page (not the one just sent) coming back ends the walk too. */
START_TEST(earlier_request_ends)
{
    char out[256];
    sdkrt_error *err = NULL;
    ck_assert_int_eq(walk(&token_desc, get("/cycle"), out, sizeof out, &err), -1);
    ck_assert_str_eq(out, "first,a,b");
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_MALFORMED_RESPONSE);
    ck_assert_str_eq(sdkrt_error_message(err),
                     "the pages do not end: page 3 leads back to a request already sent (GET "
                     "http://api.test:8080/v1/cycle?pageToken=a) (MALFORMED_RESPONSE)");
    sdkrt_error_free(err);
    ck_assert_uint_eq(srv.n, 3);
}
END_TEST

/* A server that ignores the page number gives the same page again: the walk ends there. */
START_TEST(repeated_page_ends)
{
    const sdkrt_page_desc d = {.style = SDKRT_PAGE_PAGE_NUMBER, .param = "page"};
    char out[256];
    sdkrt_error *err = NULL;
    ck_assert_int_eq(walk(&d, get("/ignored"), out, sizeof out, &err), -1);
    ck_assert_str_eq(out, "i1,i2,i1,i2");
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_MALFORMED_RESPONSE);
    ck_assert_str_eq(
        sdkrt_error_message(err),
        "the pages do not end: page 2 is the same as the page before it (MALFORMED_RESPONSE)");
    sdkrt_error_free(err);
    const char *want[] = {"/v1/ignored", "/v1/ignored?page=2"};
    logged(2, want);
}
END_TEST

/* A walk continued from a copy leaves the original as it was: both may go on from there. */
START_TEST(walk_copy)
{
    sdkrt_page_walk *a = NULL, *b = NULL;
    ck_assert_int_eq(sdkrt_page_walk_new(&a, NULL, NULL), SDKRT_OK);
    sdkrt_response *resp = NULL;
    ck_assert_int_eq(sdkrt_response_new(&resp, 200, 0, NULL), SDKRT_OK);
    sdkrt_response_append_body(resp, "[1]", 3, NULL);
    sdkrt_request *p1 = get("/w"), *p2 = get("/w"), *p3 = get("/w");
    sdkrt_request_add_query(p1, "p", "1");
    sdkrt_request_add_query(p2, "p", "2");
    sdkrt_request_add_query(p3, "p", "3");
    ck_assert_int_eq(sdkrt_page_walk_step(a, client, p1, resp, 1, p2, NULL), SDKRT_OK);
    ck_assert_int_eq(sdkrt_page_walk_new(&b, a, NULL), SDKRT_OK);
    sdkrt_response_free(resp);
    ck_assert_int_eq(sdkrt_response_new(&resp, 200, 0, NULL), SDKRT_OK);
    sdkrt_response_append_body(resp, "[2]", 3, NULL);
    sdkrt_error *err = NULL;
    /* b: p2 leads back to p1, sent before */
    ck_assert_int_eq(sdkrt_page_walk_step(b, client, p2, resp, 1, p1, &err), SDKRT_ERR);
    ck_assert_str_eq(
        sdkrt_error_message(err),
        "the pages do not end: page 2 leads back to a "
        "request already sent (GET http://api.test:8080/v1/w?p=1) (MALFORMED_RESPONSE)");
    sdkrt_error_free(err);
    err = NULL;
    /* a never saw p2: from it, p2 then p3 is a walk */
    ck_assert_int_eq(sdkrt_page_walk_step(a, client, p2, resp, 1, p3, NULL), SDKRT_OK);
    ck_assert_uint_eq(sdkrt_page_walk_pages(a), 2);
    ck_assert_uint_eq(sdkrt_page_walk_pages(b), 2);
    ck_assert_int_eq(sdkrt_page_walk_step(NULL, client, p1, resp, 0, NULL, &err), SDKRT_ERR);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_INVALID_ARGUMENT);
    sdkrt_error_free(err);
    sdkrt_page_walk_free(NULL);
    sdkrt_page_walk_free(a);
    sdkrt_page_walk_free(b);
    sdkrt_request_free(p1);
    sdkrt_request_free(p2);
    sdkrt_request_free(p3);
    sdkrt_response_free(resp);
}
END_TEST

/* A member whose own name has a dot is read whole (Azure's "odata.nextLink"). */
START_TEST(dotted_member)
{
    const sdkrt_page_desc d = {
        .style = SDKRT_PAGE_NEXT_URL, .items = "value", .next = "odata.nextLink"};
    sdkrt_response *resp = NULL;
    ck_assert_int_eq(sdkrt_response_new(&resp, 200, 0, NULL), SDKRT_OK);
    const char *text = "{\"value\":[1],\"odata.nextLink\":\"http://api.test:8080/v1/p2\"}";
    sdkrt_response_add_header(resp, "Content-Type", "application/json", NULL);
    sdkrt_response_append_body(resp, text, strlen(text), NULL);
    sdkrt_request *prev = get("/p1"), *next = NULL;
    ck_assert_int_eq(sdkrt_page_next(&next, client, &d, prev, resp, NULL), SDKRT_OK);
    ck_assert_ptr_nonnull(next);
    char *t = NULL;
    ck_assert_int_eq(sdkrt_request_target(&t, next, NULL), SDKRT_OK);
    ck_assert_str_eq(t, "/v1/p2");
    free(t);
    sdkrt_request_free(next);
    sdkrt_request_free(prev);
    sdkrt_response_free(resp);
}
END_TEST

START_TEST(page_errors)
{
    const sdkrt_page_desc d = {.style = SDKRT_PAGE_CURSOR_TOKEN,
                               .items = "items",
                               .next = "meta.next",
                               .param = "pageToken"};
    sdkrt_error *err = NULL;
    char out[256];
    /* a 404 before any page: the pager's error */
    ck_assert_int_eq(walk(&d, get("/missing"), out, sizeof out, &err), -1);
    ck_assert_str_eq(out, "");
    sdkrt_error_free(err);
    err = NULL;
    sdkrt_request *next = (sdkrt_request *)1;
    ck_assert_int_eq(sdkrt_page_next(&next, NULL, &d, NULL, NULL, &err), SDKRT_ERR);
    ck_assert_ptr_null(next);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_INVALID_ARGUMENT);
    sdkrt_error_free(err);
}
END_TEST

static void link_case(const char *value, const char *rel, const char *want)
{
    char *got = NULL;
    ck_assert_int_eq(sdkrt_link_find(&got, value, rel), SDKRT_OK);
    if (!want)
        ck_assert_msg(got == NULL, "%s: got %s", value, got);
    else
        ck_assert_msg(got && strcmp(got, want) == 0, "%s: got %s", value, got ? got : "(none)");
    free(got);
}

START_TEST(link_parse)
{
    link_case("<https://a/?page=2>; rel=\"next\", <https://a/?page=9>; rel=\"last\"", "next",
              "https://a/?page=2");
    link_case("<https://a/?page=2>; rel=\"next\", <https://a/?page=9>; rel=\"last\"", "last",
              "https://a/?page=9");
    link_case("<u1>; rel=prev, <u2>; rel=next", "next", "u2"); /* unquoted */
    link_case("<u1>; title=\"x, rel=next; y\"; rel=prev, <u2>; Rel=\"NEXT\"", "next", "u2");
    link_case("<u1>; rel=\"prev next\"", "next", "u1");          /* several relations */
    link_case("<u1>; rel=\"nextpage\"", "next", NULL);           /* whole words only */
    link_case("<u1>; title=\"a\\\"b\"; rel=next", "next", "u1"); /* escaped quote */
    link_case("garbage, <u3>;rel=next", "next", "u3");
    link_case("<u1>; rel=prev", "next", NULL);
    link_case("<unterminated; rel=next", "next", NULL);
    link_case("", "next", NULL);
    link_case(NULL, "next", NULL);
}
END_TEST

START_TEST(query_edits)
{
    sdkrt_request *r = get("/x");
    sdkrt_request_add_query(r, "a", "1");
    sdkrt_request_add_query(r, "b c", "2 3");
    sdkrt_request_add_query(r, "a", "4");
    char *v = NULL, *t = NULL;
    ck_assert_int_eq(sdkrt_request_query_value(r, "b c", &v), SDKRT_OK);
    ck_assert_str_eq(v, "2 3");
    free(v);
    ck_assert_int_eq(sdkrt_request_query_value(r, "zz", &v), SDKRT_OK);
    ck_assert_ptr_null(v);
    /* every a= goes, the new one takes the first one's place */
    ck_assert_int_eq(sdkrt_request_set_query(r, "a", "&"), SDKRT_OK);
    ck_assert_int_eq(sdkrt_request_target(&t, r, NULL), SDKRT_OK);
    ck_assert_str_eq(t, "/x?a=%26&b%20c=2%203");
    free(t);
    sdkrt_request *c = NULL;
    ck_assert_int_eq(sdkrt_request_copy(&c, r), SDKRT_OK);
    ck_assert_int_eq(sdkrt_request_set_query(r, "a", NULL), SDKRT_OK);
    ck_assert_int_eq(sdkrt_request_target(&t, r, NULL), SDKRT_OK);
    ck_assert_str_eq(t, "/x?b%20c=2%203");
    free(t);
    /* the copy is independent */
    ck_assert_int_eq(sdkrt_request_target(&t, c, NULL), SDKRT_OK);
    ck_assert_str_eq(t, "/x?a=%26&b%20c=2%203");
    free(t);
    sdkrt_request_clear_query(c);
    ck_assert_int_eq(sdkrt_request_set_query(c, "n", "1"), SDKRT_OK);
    ck_assert_int_eq(sdkrt_request_target(&t, c, NULL), SDKRT_OK);
    ck_assert_str_eq(t, "/x?n=1");
    free(t);
    sdkrt_request_free(c);
    sdkrt_request_free(r);
}
END_TEST

/* A page whose number or offset cannot advance without overflow is refused, not wrapped. */
static int number_next(const sdkrt_page_desc *d, const char *value, char *target, size_t size,
                       sdkrt_error **err)
{
    sdkrt_response *resp = NULL;
    ck_assert_int_eq(sdkrt_response_new(&resp, 200, 0, NULL), SDKRT_OK);
    const char *text = "[1,2,3]";
    sdkrt_response_add_header(resp, "Content-Type", "application/json", NULL);
    sdkrt_response_append_body(resp, text, strlen(text), NULL);
    sdkrt_request *prev = get("/n"), *next = NULL;
    sdkrt_request_add_query(prev, d->param, value);
    int st = sdkrt_page_next(&next, client, d, prev, resp, err);
    target[0] = '\0';
    if (next) {
        char *t = NULL;
        ck_assert_int_eq(sdkrt_request_target(&t, next, NULL), SDKRT_OK);
        snprintf(target, size, "%s", t);
        free(t);
    }
    sdkrt_request_free(next);
    sdkrt_request_free(prev);
    sdkrt_response_free(resp);
    return st;
}

START_TEST(number_overflow)
{
    const sdkrt_page_desc pages = {.style = SDKRT_PAGE_PAGE_NUMBER, .param = "page"};
    const sdkrt_page_desc offsets = {.style = SDKRT_PAGE_OFFSET, .param = "offset"};
    char t[128];
    sdkrt_error *err = NULL;
    ck_assert_int_eq(number_next(&pages, "9223372036854775806", t, sizeof t, NULL), SDKRT_OK);
    ck_assert_str_eq(t, "/n?page=9223372036854775807");
    ck_assert_int_eq(number_next(&pages, "9223372036854775807", t, sizeof t, &err), SDKRT_ERR);
    ck_assert_str_eq(t, "");
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_INVALID_ARGUMENT);
    ck_assert_ptr_nonnull(strstr(sdkrt_error_message(err), "page=9223372036854775807"));
    sdkrt_error_free(err);
    err = NULL;
    ck_assert_int_eq(number_next(&offsets, "9223372036854775804", t, sizeof t, NULL), SDKRT_OK);
    ck_assert_str_eq(t, "/n?offset=9223372036854775807");
    ck_assert_int_eq(number_next(&offsets, "9223372036854775805", t, sizeof t, &err), SDKRT_ERR);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_INVALID_ARGUMENT);
    sdkrt_error_free(err);
}
END_TEST

/* A copy keeps the problem recorded on its source: the first invalid argument (without leaking
 * the one its own construction recorded) and a piece lost to out of memory. */
START_TEST(copy_keeps_problems)
{
    sdkrt_request *r = NULL, *c = NULL;
    /* a bad template: recorded by the copy's own construction too */
    ck_assert_int_eq(sdkrt_request_new(&r, "GET", "no-slash"), SDKRT_OK);
    ck_assert_int_eq(sdkrt_request_copy(&c, r), SDKRT_OK);
    ck_assert_str_eq(sdkrt_request_error(c), sdkrt_request_error(r));
    sdkrt_request_free(c);
    sdkrt_request_free(r);
    /* a later problem */
    r = get("/x");
    ck_assert_int_eq(sdkrt_request_set_header(r, "Bad Name", "v"), SDKRT_ERR);
    ck_assert_int_eq(sdkrt_request_copy(&c, r), SDKRT_OK);
    ck_assert_str_eq(sdkrt_request_error(c), sdkrt_request_error(r));
    sdkrt_request_free(c);
    sdkrt_request_free(r);
    /* json_dumps refuses a cycle, which the request takes for an allocation failure */
    json_t *a = json_array(), *b = json_array();
    json_array_append(a, b);
    json_array_append(b, a);
    r = get("/x");
    ck_assert_int_eq(sdkrt_request_set_json_body(r, json_incref(a)), SDKRT_ERR);
    json_array_clear(b);
    json_decref(a);
    json_decref(b);
    ck_assert_ptr_nonnull(sdkrt_request_error(r));
    ck_assert_int_eq(sdkrt_request_copy(&c, r), SDKRT_OK);
    ck_assert_ptr_nonnull(sdkrt_request_error(c));
    char *t = NULL;
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_request_target(&t, c, &err), SDKRT_ERR);
    ck_assert_ptr_null(t);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_OUT_OF_MEMORY);
    sdkrt_error_free(err);
    sdkrt_request_free(c);
    sdkrt_request_free(r);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("page");
    TCase *tc = tcase_create("styles");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, cursor_token);
    tcase_add_test(tc, cursor_object);
    tcase_add_test(tc, cursor_item);
    tcase_add_test(tc, next_url);
    tcase_add_test(tc, next_url_other_origin);
    tcase_add_test(tc, first_page_linking_to_itself);
    tcase_add_test(tc, link_header);
    tcase_add_test(tc, page_number);
    tcase_add_test(tc, offset);
    tcase_add_test(tc, offset_more_false);
    tcase_add_test(tc, repeated_cursor_ends);
    tcase_add_test(tc, empty_pages_end);
    tcase_add_test(tc, earlier_request_ends);
    tcase_add_test(tc, repeated_page_ends);
    tcase_add_test(tc, walk_copy);
    tcase_add_test(tc, page_errors);
    tcase_add_test(tc, dotted_member);
    tcase_add_test(tc, number_overflow);
    suite_add_tcase(s, tc);
    TCase *tu = tcase_create("units");
    tcase_add_test(tu, link_parse);
    tcase_add_test(tu, query_edits);
    tcase_add_test(tu, copy_keeps_problems);
    suite_add_tcase(s, tu);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
