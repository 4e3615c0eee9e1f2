/* pages_main.c - an SDK generated from tests/compiler/data/pages/styles.yaml (one operation per
 * pagination style), run against the in-memory transport: every style's _iter walks the items
 * t1..t7 served three a page, and the page calls (_X, then _continue from page->next) see the
 * same pages; the exact requests are checked. valgrind-clean. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../memory_client.h"
#include "pg/pg.h"

#define NITEMS 7

static char seen[16][160];
static size_t nseen;
static int endless; /* 1: empty cursor-object pages, each with a new cursor; 2: tokens that cycle */

static long qnum(const char *target, const char *name, long dflt)
{
    const char *q = strchr(target, '?');
    size_t n = strlen(name);
    for (const char *p = q; p && *p; p = strchr(p + 1, '&'))
        if (strncmp(p + 1, name, n) == 0 && p[1 + n] == '=')
            return strtol(p + 2 + n, NULL, 10);
    return dflt;
}

/* A cursor-like query value "xN" as N (the item to start from), or 0. */
static long qstart(const char *target, const char *name)
{
    const char *q = strchr(target, '?');
    size_t n = strlen(name);
    for (const char *p = q; p && *p; p = strchr(p + 1, '&'))
        if (strncmp(p + 1, name, n) == 0 && p[1 + n] == '=')
            return strtol(p + 3 + n, NULL, 10);
    return 0;
}

static void items(char *out, size_t size, long from, long n)
{
    size_t k = (size_t)snprintf(out, size, "[");
    for (long i = from; i < from + n && i < NITEMS; i++)
        k += (size_t)snprintf(out + k, size - k, "%s{\"id\":\"t%ld\",\"name\":\"n\"}",
                              i > from ? "," : "", i + 1);
    snprintf(out + k, size - k, "]");
}

static int handler(void *userdata, const sdkrt_memory_request *req, sdkrt_memory_response *resp)
{
    (void)userdata;
    const char *t = req->target;
    if (nseen < 16)
        snprintf(seen[nseen++], sizeof seen[0], "%s", t);
    char arr[512], body[1024];
    long from = 0, more = 0;
    if (endless == 1 && strncmp(t, "/cursor-object", 14) == 0) {
        snprintf(body, sizeof body, "{\"data\":[],\"cursor\":{\"next\":\"c%ld\"}}",
                 qstart(t, "cursor") + 1);
    } else if (endless == 2 && strncmp(t, "/cursor-token", 13) == 0) {
        from = qstart(t, "pageToken"); /* p1 -> p2 -> p1 */
        items(arr, sizeof arr, from, 1);
        snprintf(body, sizeof body, "{\"things\":%s,\"nextPageToken\":\"p%d\"}", arr,
                 from == 1 ? 2 : 1);
    } else if (strncmp(t, "/cursor-object", 14) == 0) {
        from = qstart(t, "cursor");
        items(arr, sizeof arr, from, 3);
        char next[32] = "null";
        if (from + 3 < NITEMS)
            snprintf(next, sizeof next, "\"c%ld\"", from + 3);
        snprintf(body, sizeof body, "{\"data\":%s,\"cursor\":{\"next\":%s,\"previous\":null}}", arr,
                 next);
    } else if (strncmp(t, "/cursor-token", 13) == 0) {
        from = qstart(t, "pageToken");
        items(arr, sizeof arr, from, qnum(t, "pageSize", 3));
        more = from + 3 < NITEMS;
        snprintf(body, sizeof body, "{\"things\":%s%s%ld%s}", arr,
                 more ? ",\"nextPageToken\":\"p" : "", from + 3, more ? "\"" : "");
        if (!more)
            snprintf(body, sizeof body, "{\"things\":%s}", arr);
    } else if (strncmp(t, "/cursor-item", 12) == 0) {
        from = qstart(t, "starting_after");
        items(arr, sizeof arr, from, 3);
        snprintf(body, sizeof body,
                 "{\"data\":%s,\"has_more\":%s,\"object\":\"list\",\"url\":\"/cursor-item\"}", arr,
                 from + 3 < NITEMS ? "true" : "false");
    } else if (strncmp(t, "/next-url?PageSize=99", 21) == 0) {
        items(arr, sizeof arr, 0, 3); /* a next link to another host */
        snprintf(body, sizeof body,
                 "{\"messages\":%s,\"next_page_uri\":\"http://elsewhere.test/steal\"}", arr);
    } else if (strncmp(t, "/next-url", 9) == 0) {
        long page = qnum(t, "Page", 0);
        items(arr, sizeof arr, page * 3, 3);
        if ((page + 1) * 3 < NITEMS)
            snprintf(body, sizeof body,
                     "{\"messages\":%s,\"page\":%ld,\"next_page_uri\":\"/next-url?PageSize=3&"
                     "Page=%ld\"}",
                     arr, page, page + 1);
        else
            snprintf(body, sizeof body, "{\"messages\":%s,\"page\":%ld,\"next_page_uri\":null}",
                     arr, page);
    } else if (strncmp(t, "/link-header", 12) == 0) {
        long page = qnum(t, "page", 1);
        items(arr, sizeof arr, (page - 1) * 3, 3);
        snprintf(body, sizeof body, "%s", arr);
        if (page * 3 < NITEMS) {
            char link[160];
            snprintf(link, sizeof link,
                     "<http://127.0.0.1:1/link-header?per_page=3&page=%ld>; rel=\"next\", "
                     "<http://127.0.0.1:1/link-header?per_page=3&page=3>; rel=\"last\"",
                     page + 1);
            sdkrt_memory_response_add_header(resp, "Link", link);
        }
    } else if (strncmp(t, "/page-number", 12) == 0) {
        long page = qnum(t, "page", 1), per = qnum(t, "per_page", 3);
        items(arr, sizeof arr, (page - 1) * per, per);
        snprintf(body, sizeof body, "%s", arr);
    } else if (strncmp(t, "/offset", 7) == 0) {
        items(arr, sizeof arr, qnum(t, "offset", 0), qnum(t, "limit", 3));
        snprintf(body, sizeof body, "{\"results\":%s,\"total\":7}", arr);
    } else {
        sdkrt_memory_response_set_status(resp, 404);
        return 0;
    }
    sdkrt_memory_response_set_status(resp, 200);
    sdkrt_memory_response_add_header(resp, "Content-Type", "application/json");
    sdkrt_memory_response_add_chunk(resp, body, strlen(body));
    return 0;
}

static void setup(void)
{
    nseen = 0;
    memory_client_open(handler);
}

#define ALL "t1,t2,t3,t4,t5,t6,t7"

static void add(char *out, size_t size, const pg_thing *t)
{
    size_t k = strlen(out);
    snprintf(out + k, size - k, "%s%s", k ? "," : "", t->id);
}

/* One style: walk with _iter, then page by page; check the items and the requests. */
#define WALK(NAME, REQ, WANT_TARGETS)                                                              \
    do {                                                                                           \
        char out[128] = "";                                                                        \
        pg_error *err = NULL;                                                                      \
        pg_##NAME##_iter *it = NULL;                                                               \
        ck_assert_int_eq(pg_##NAME##_iter_new(&it, client, REQ, NULL, &err), PG_OK);               \
        const pg_thing *item = NULL;                                                               \
        pg_next res;                                                                               \
        while ((res = pg_##NAME##_iter_next(it, &item, &err)) == PG_NEXT_ITEM)                     \
            add(out, sizeof out, item);                                                            \
        ck_assert_msg(res == PG_NEXT_END, "%s", err ? pg_error_message(err) : "?");                \
        pg_##NAME##_iter_free(it);                                                                 \
        ck_assert_str_eq(out, ALL);                                                                \
        const char *want[] = WANT_TARGETS;                                                         \
        size_t nwant = sizeof want / sizeof want[0];                                               \
        ck_assert_uint_eq(nseen, nwant);                                                           \
        for (size_t i = 0; i < nwant; i++)                                                         \
            ck_assert_str_eq(seen[i], want[i]);                                                    \
        /* the same pages through the page calls */                                                \
        nseen = 0;                                                                                 \
        out[0] = '\0';                                                                             \
        pg_##NAME##_page *page = NULL;                                                             \
        ck_assert_int_eq(pg_##NAME(client, REQ, NULL, &page, &err), PG_OK);                        \
        size_t pages = 1;                                                                          \
        for (;;) {                                                                                 \
            for (size_t i = 0; i < page->count; i++)                                               \
                add(out, sizeof out, &page->items[i]);                                             \
            if (!page->next)                                                                       \
                break;                                                                             \
            pg_##NAME##_page *next = NULL;                                                         \
            ck_assert_int_eq(pg_##NAME##_continue(client, page->next, NULL, &next, &err), PG_OK);  \
            pg_##NAME##_page_free(page);                                                           \
            page = next;                                                                           \
            pages++;                                                                               \
        }                                                                                          \
        pg_##NAME##_page_free(page);                                                               \
        ck_assert_str_eq(out, ALL);                                                                \
        ck_assert_uint_eq(pages, 3);                                                               \
        ck_assert_uint_eq(nseen, nwant);                                                           \
        for (size_t i = 0; i < nwant; i++)                                                         \
            ck_assert_str_eq(seen[i], want[i]);                                                    \
    } while (0)

#define LIST(...)                                                                                  \
    {                                                                                              \
        __VA_ARGS__                                                                                \
    }

START_TEST(cursor_object)
{
    WALK(cursor_object, NULL,
         LIST("/cursor-object", "/cursor-object?cursor=c3", "/cursor-object?cursor=c6"));
}
END_TEST

START_TEST(cursor_token)
{
    pg_cursor_token_request r = {0};
    r.has_page_size = true;
    r.page_size = 3;
    WALK(cursor_token, &r,
         LIST("/cursor-token?pageSize=3", "/cursor-token?pageSize=3&pageToken=p3",
              "/cursor-token?pageSize=3&pageToken=p6"));
}
END_TEST

START_TEST(cursor_item)
{
    WALK(cursor_item, NULL,
         LIST("/cursor-item", "/cursor-item?starting_after=t3", "/cursor-item?starting_after=t6"));
}
END_TEST

START_TEST(next_url)
{
    pg_next_url_request r = {0};
    r.has_page_size = true;
    r.page_size = 3;
    WALK(
        next_url, &r,
        LIST("/next-url?PageSize=3", "/next-url?PageSize=3&Page=1", "/next-url?PageSize=3&Page=2"));
}
END_TEST

START_TEST(link_header)
{
    pg_link_header_request r = {0};
    r.has_per_page = true;
    r.per_page = 3;
    WALK(link_header, &r,
         LIST("/link-header?per_page=3", "/link-header?per_page=3&page=2",
              "/link-header?per_page=3&page=3"));
}
END_TEST

START_TEST(page_number)
{
    pg_page_number_request r = {0};
    r.has_per_page = true;
    r.per_page = 3;
    WALK(page_number, &r,
         LIST("/page-number?per_page=3", "/page-number?per_page=3&page=2",
              "/page-number?per_page=3&page=3"));
}
END_TEST

START_TEST(offset)
{
    pg_offset_limit_request r = {0};
    r.has_limit = true;
    r.limit = 3;
    WALK(offset_limit, &r,
         LIST("/offset?limit=3", "/offset?limit=3&offset=3", "/offset?limit=3&offset=6"));
}
END_TEST

/* A next link to another host is never followed: the page still comes back, continuing from it
 * is the error; the iterator gives the page's items, then the error. */
START_TEST(next_url_other_origin)
{
    pg_next_url_request r = {0};
    r.has_page_size = true;
    r.page_size = 99;
    pg_error *err = NULL;
    pg_next_url_page *page = NULL, *next = NULL;
    ck_assert_int_eq(pg_next_url(client, &r, NULL, &page, &err), PG_OK);
    ck_assert_uint_eq(page->count, 3);
    ck_assert_ptr_nonnull(page->next);
    ck_assert_int_eq(pg_next_url_continue(client, page->next, NULL, &next, &err), PG_ERR);
    ck_assert_ptr_null(next);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_MALFORMED_RESPONSE);
    ck_assert_ptr_nonnull(strstr(pg_error_message(err), "origin"));
    pg_error_free(err);
    err = NULL;
    pg_next_url_page_free(page);
    pg_next_url_iter *it = NULL;
    ck_assert_int_eq(pg_next_url_iter_new(&it, client, &r, NULL, &err), PG_OK);
    const pg_thing *item = NULL;
    int n = 0;
    pg_next res;
    while ((res = pg_next_url_iter_next(it, &item, &err)) == PG_NEXT_ITEM)
        n++;
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq(res, PG_NEXT_ERROR);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_MALFORMED_RESPONSE);
    pg_error_free(err);
    pg_next_url_iter_free(it);
    ck_assert_uint_eq(nseen, 2); /* the two first pages, nothing sent elsewhere */
    ck_assert_str_eq(seen[0], "/next-url?PageSize=99");
}
END_TEST

/* Pages that would go on forever end with an error after the items they gave: OpenCode's
 * cursor object answering empty pages each with a new cursor (its iterator used to loop), and
 * tokens that come back to an earlier page, page by page (the cursor carries the walk) and with
 * the iterator. */
START_TEST(endless_pages)
{
    pg_error *err = NULL;
    endless = 1;
    pg_cursor_object_iter *oit = NULL;
    const pg_thing *item = NULL;
    ck_assert_int_eq(pg_cursor_object_iter_new(&oit, client, NULL, NULL, &err), PG_OK);
    ck_assert_int_eq(pg_cursor_object_iter_next(oit, &item, &err), PG_NEXT_ERROR);
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_MALFORMED_RESPONSE);
    ck_assert_str_eq(pg_error_message(err), "the pages do not end: 10 empty pages in a row, each "
                                            "with a next page (MALFORMED_RESPONSE)");
    pg_error_free(err);
    err = NULL;
    ck_assert_int_eq(pg_cursor_object_iter_next(oit, &item, &err), PG_NEXT_END);
    pg_cursor_object_iter_free(oit);
    ck_assert_uint_eq(nseen, 10);

    endless = 2;
    nseen = 0;
    pg_cursor_token_page *p1 = NULL, *p2 = NULL, *p3 = NULL, *again = NULL;
    ck_assert_int_eq(pg_cursor_token(client, NULL, NULL, &p1, &err), PG_OK);
    ck_assert_int_eq(pg_cursor_token_continue(client, p1->next, NULL, &p2, &err), PG_OK);
    ck_assert_int_eq(pg_cursor_token_continue(client, p2->next, NULL, &p3, &err), PG_OK);
    ck_assert_uint_eq(p3->count, 1); /* its items come back; continuing from it is the error */
    ck_assert_int_eq(pg_cursor_token_continue(client, p3->next, NULL, &again, &err), PG_ERR);
    ck_assert_str_eq(pg_error_message(err), "the pages do not end: page 3 leads back to a request "
                                            "already sent (GET http://127.0.0.1:1/cursor-token?"
                                            "pageToken=p1) (MALFORMED_RESPONSE)");
    pg_error_free(err);
    err = NULL;
    /* a cursor used twice is not a loop: page 2 again, from page 1's cursor */
    ck_assert_int_eq(pg_cursor_token_continue(client, p1->next, NULL, &again, &err), PG_OK);
    ck_assert_uint_eq(nseen, 4);
    pg_cursor_token_page_free(again);
    pg_cursor_token_page_free(p1);
    pg_cursor_token_page_free(p2);
    pg_cursor_token_page_free(p3);

    pg_cursor_token_iter *tit = NULL;
    ck_assert_int_eq(pg_cursor_token_iter_new(&tit, client, NULL, NULL, &err), PG_OK);
    char out[64] = "";
    pg_next res;
    while ((res = pg_cursor_token_iter_next(tit, &item, &err)) == PG_NEXT_ITEM)
        add(out, sizeof out, item);
    ck_assert_int_eq(res, PG_NEXT_ERROR);
    ck_assert_str_eq(out, "t1,t2,t3");
    ck_assert_int_eq(sdkrt_error_reason(err), SDKRT_REASON_MALFORMED_RESPONSE);
    pg_error_free(err);
    pg_cursor_token_iter_free(tit);
    endless = 0;
}
END_TEST

START_TEST(iter_error)
{
    /* a 404 on the first page: the iterator's error, then the end */
    pg_error *err = NULL;
    pg_cursor_item_iter *it = NULL;
    const pg_thing *item = NULL;
    sdkrt_client_free(client); /* the same server under a path it does not serve */
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.base_url = "http://127.0.0.1:1/nowhere";
    o.transport = transport;
    ck_assert_int_eq(sdkrt_client_new(&client, &o, &err), SDKRT_OK);
    ck_assert_int_eq(pg_cursor_item_iter_new(&it, client, NULL, NULL, &err), PG_OK);
    ck_assert_int_eq(pg_cursor_item_iter_next(it, &item, &err), PG_NEXT_ERROR);
    ck_assert_ptr_nonnull(err);
    ck_assert_int_eq(pg_error_status(err), 404);
    pg_error_free(err);
    err = NULL;
    ck_assert_int_eq(pg_cursor_item_iter_next(it, &item, &err), PG_NEXT_END);
    pg_cursor_item_iter_free(it);
    ck_assert_int_eq(pg_cursor_item_iter_next(NULL, &item, NULL), PG_NEXT_ERROR);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("pages");
    TCase *tc = tcase_create("styles");
    tcase_add_checked_fixture(tc, setup, memory_client_close);
    tcase_add_test(tc, cursor_object);
    tcase_add_test(tc, cursor_token);
    tcase_add_test(tc, cursor_item);
    tcase_add_test(tc, next_url);
    tcase_add_test(tc, link_header);
    tcase_add_test(tc, page_number);
    tcase_add_test(tc, offset);
    tcase_add_test(tc, next_url_other_origin);
    tcase_add_test(tc, iter_error);
    tcase_add_test(tc, endless_pages);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
