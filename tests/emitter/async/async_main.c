/* The SDK generated from tests/emitter/data/async.yaml (at build time), its async forms run on
 * the built-in loop against the test server (tests/runtime/support): a typed result, a declared
 * error, a scalar, no content, several successes, page chains in both page styles (each page
 * continued from its callback), stream items with a poison item and a strict stream, a stream
 * cancelled from its own callback, a stream paused from its callback and resumed by a loop timer, a
 * cancel token, a follower across a lost connection, and the calls that cannot start (then no
 * callback runs). Every callback counts its runs: exactly once. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "as/as.h"
#include "test_server.h"

/* ---- the server ---- */

static int sse_event(ts_conn *c, const char *data)
{
    char buf[256];
    int n = snprintf(buf, sizeof buf, "data: %s\n\n", data);
    return ts_chunk(c, buf, (size_t)n);
}

static int json(ts_conn *c, int status, const char *body)
{
    ts_respond(c, status, "application/json", body, strlen(body));
    return 0;
}

static int handler(void *ud, const ts_request *req, ts_conn *c)
{
    const char *t = req->target;
    (void)ud;
    if (!strcmp(t, "/items/i1") && !strcmp(req->method, "GET"))
        return json(c, 200, "{\"id\":\"i1\",\"n\":7}");
    if (!strcmp(t, "/items/missing"))
        return json(c, 404, "{\"_tag\":\"NotFound\",\"message\":\"no item missing\"}");
    if (!strcmp(t, "/items/q1") && !strcmp(req->method, "PUT")) {
        ts_respond(c, 202, "text/plain", "queued", 6);
        return 0;
    }
    if (!strcmp(t, "/count"))
        return json(c, 200, "42");
    if (!strcmp(t, "/ping")) {
        ts_respond(c, 204, NULL, "", 0);
        return 0;
    }
    if (!strcmp(t, "/items"))
        return json(c, 200, "{\"items\":[{\"id\":\"a\"},{\"id\":\"b\"}],\"nextPageToken\":\"p2\"}");
    if (!strcmp(t, "/items?pageToken=again")) /* a server that repeats itself */
        return json(c, 200, "{\"items\":[{\"id\":\"r\"}],\"nextPageToken\":\"again\"}");
    if (!strcmp(t, "/items?pageToken=p2"))
        return json(c, 200, "{\"items\":[{\"id\":\"c\"}]}");
    if (!strcmp(t, "/shelves/s1/items"))
        return json(c, 200, "{\"data\":[{\"id\":\"x\"}],\"cursor\":{\"next\":\"c2\"}}");
    if (!strcmp(t, "/shelves/s1/items?cursor=c2")) /* the path parameter travels in the cursor */
        return json(c, 200, "{\"data\":[{\"id\":\"y\"},{\"id\":\"z\"}],\"cursor\":{}}");
    if (!strcmp(t, "/events")) { /* three items, one of them poison, then the end */
        ts_chunked_head(c, 200, "text/event-stream");
        sse_event(c, "{\"seq\":1,\"name\":\"a\"}");
        sse_event(c, "{\"seq\":\"two\"}");
        sse_event(c, "{\"seq\":3,\"name\":\"c\"}");
        ts_chunk_end(c);
        return 0;
    }
    if (!strcmp(t, "/events?after=100")) { /* one item, then nothing until the server stops */
        ts_chunked_head(c, 200, "text/event-stream");
        sse_event(c, "{\"seq\":101,\"name\":\"first\"}");
        ts_sleep(c, 20000);
        return -1;
    }
    if (!strcmp(t, "/events?after=300")) { /* three items at once, then the end */
        ts_chunked_head(c, 200, "text/event-stream");
        sse_event(c, "{\"seq\":301,\"name\":\"a\"}");
        sse_event(c, "{\"seq\":302,\"name\":\"b\"}");
        sse_event(c, "{\"seq\":303,\"name\":\"c\"}");
        ts_chunk_end(c);
        return 0;
    }
    if (!strcmp(t, "/events?after=200")) { /* a follower's first stream: two items, then lost */
        ts_chunked_head(c, 200, "text/event-stream");
        sse_event(c, "{\"seq\":201,\"name\":\"a\"}");
        sse_event(c, "{\"seq\":202,\"name\":\"b\"}");
        ts_reset(c);
        return -1;
    }
    if (!strcmp(t, "/events?after=202")) { /* the reopen after the last item delivered */
        ts_chunked_head(c, 200, "text/event-stream");
        sse_event(c, "{\"seq\":203,\"name\":\"c\"}");
        ts_chunk_end(c);
        return 0;
    }
    ts_respond(c, 500, "text/plain", "unexpected", 10);
    return 0;
}

static ts_server *server;
static as_loop *loop;
static as_client *client;

static void setup(void)
{
    as_client_options o = AS_CLIENT_OPTIONS_INIT;
    as_error *err = NULL;
    ck_assert_int_eq(ts_start(&server, handler, NULL), 0);
    ck_assert_int_eq(as_loop_new(&loop, &err), AS_OK);
    o.base_url = ts_url(server);
    o.loop = loop;
    ck_assert_int_eq(as_client_new(&client, &o, &err), AS_OK);
}

static void teardown(void)
{
    as_client_free(client);
    as_loop_free(loop);
    ts_stop(server);
}

static void run(void)
{
    as_error *err = NULL;
    ck_assert_msg(as_loop_run(loop, &err) == AS_OK, "loop: %s", as_error_message(err));
}

/* What callbacks saw. */
typedef struct seen {
    int calls;
    int status;
    int64_t n;
    char text[256];
    as_reason reason;
    char tag[32];
} seen;

static void keep_error(seen *s, const as_error *err)
{
    s->reason = as_error_reason(err);
    snprintf(s->tag, sizeof s->tag, "%s", err && as_error_tag(err) ? as_error_tag(err) : "");
    if (err)
        snprintf(s->text, sizeof s->text, "%s", as_error_message(err));
}

/* ---- unary calls ---- */

static void item_done(void *userdata, as_item *result, const as_error *err)
{
    seen *s = userdata;
    s->calls++;
    keep_error(s, err);
    if (result) {
        snprintf(s->text, sizeof s->text, "%s", result->id);
        s->n = result->has_n ? result->n : -1;
        as_item_free(result);
    }
}

START_TEST(unary_result)
{
    as_get_item_request req = {.id = "i1"};
    seen s = {0};
    as_error *err = NULL;
    ck_assert_int_eq(as_get_item_async(client, &req, NULL, item_done, &s, &err), AS_OK);
    ck_assert_int_eq(s.calls, 0); /* nothing before the loop runs */
    run();
    ck_assert_int_eq(s.calls, 1);
    ck_assert_str_eq(s.text, "i1");
    ck_assert_int_eq(s.n, 7);
    ck_assert_str_eq(s.tag, "");
}
END_TEST

static void item_error(void *userdata, as_item *result, const as_error *err)
{
    seen *s = userdata;
    s->calls++;
    ck_assert_ptr_null(result);
    keep_error(s, err);
    const as_not_found *nf = as_error_not_found(err); /* borrowed from err */
    if (nf)
        snprintf(s->text, sizeof s->text, "%s", nf->message);
    s->status = as_error_status(err);
}

START_TEST(declared_error)
{
    as_get_item_request req = {.id = "missing"};
    seen s = {0};
    ck_assert_int_eq(as_get_item_async(client, &req, NULL, item_error, &s, NULL), AS_OK);
    run();
    ck_assert_int_eq(s.calls, 1);
    ck_assert_str_eq(s.tag, "NotFound");
    ck_assert_str_eq(s.text, "no item missing");
    ck_assert_int_eq(s.status, 404);
}
END_TEST

static void count_done(void *userdata, int64_t result, const as_error *err)
{
    seen *s = userdata;
    s->calls++;
    keep_error(s, err);
    s->n = result;
}

static void ping_done(void *userdata, const as_error *err)
{
    seen *s = userdata;
    s->calls++;
    keep_error(s, err);
}

static void put_done(void *userdata, as_put_item_response *result, int status, const as_error *err)
{
    seen *s = userdata;
    s->calls++;
    keep_error(s, err);
    s->status = status;
    if (result && result->status_202)
        snprintf(s->text, sizeof s->text, "%.*s", (int)result->status_202->len,
                 (const char *)result->status_202->data);
    as_put_item_response_free(result);
}

START_TEST(scalar_none_and_several)
{
    seen count = {0}, ping = {0}, put = {0};
    as_put_item_request req = {.id = "q1"};
    ck_assert_int_eq(as_count_items_async(client, NULL, count_done, &count, NULL), AS_OK);
    ck_assert_int_eq(as_ping_async(client, NULL, ping_done, &ping, NULL), AS_OK);
    ck_assert_int_eq(as_put_item_async(client, &req, NULL, put_done, &put, NULL), AS_OK);
    run(); /* the three at once on one thread */
    ck_assert_int_eq(count.calls, 1);
    ck_assert_int_eq(count.n, 42);
    ck_assert_int_eq(ping.calls, 1);
    ck_assert_int_eq(ping.reason, AS_REASON_NONE);
    ck_assert_str_eq(ping.tag, "");
    ck_assert_int_eq(put.calls, 1);
    ck_assert_int_eq(put.status, 202);
    ck_assert_str_eq(put.text, "queued");
}
END_TEST

/* ---- pages, each continued from its callback ---- */

static void list_page(void *userdata, as_list_items_page *page, const as_error *err)
{
    seen *s = userdata;
    s->calls++;
    keep_error(s, err);
    if (!page)
        return;
    for (size_t i = 0; i < page->count; i++)
        strncat(s->text, page->items[i].id, sizeof s->text - strlen(s->text) - 1);
    if (page->next) /* the cursor is read by the call: the page may go right after */
        ck_assert_int_eq(as_list_items_continue_async(client, page->next, NULL, list_page, s, NULL),
                         AS_OK);
    as_list_items_page_free(page);
}

START_TEST(page_chain_engine)
{
    seen s = {0};
    ck_assert_int_eq(as_list_items_page_async(client, NULL, NULL, list_page, &s, NULL), AS_OK);
    run();
    ck_assert_int_eq(s.calls, 2);
    ck_assert_str_eq(s.text, "abc");
    ck_assert_str_eq(s.tag, "");
}
END_TEST

static void repeated_page(void *userdata, as_list_items_page *page, const as_error *err)
{
    seen *s = userdata;
    as_error *e = NULL;
    s->calls++;
    keep_error(s, err);
    ck_assert_ptr_nonnull(page);
    ck_assert_ptr_nonnull(page->next);
    /* the walk ended: nothing to start, the error at once and no callback */
    s->status = as_list_items_continue_async(client, page->next, NULL, repeated_page, s, &e);
    s->reason = as_error_reason(e);
    snprintf(s->text, sizeof s->text, "%s", as_error_message(e));
    as_error_free(e);
    as_list_items_page_free(page);
}

START_TEST(page_walk_that_does_not_end)
{
    seen s = {0};
    as_list_items_request req = {.has_page_token = true, .page_token = "again"};
    ck_assert_int_eq(as_list_items_page_async(client, &req, NULL, repeated_page, &s, NULL), AS_OK);
    run();
    ck_assert_int_eq(s.calls, 1);
    ck_assert_int_eq(s.status, AS_ERR);
    ck_assert_int_eq(s.reason, AS_REASON_MALFORMED_RESPONSE);
    ck_assert_msg(strstr(s.text, "the pages do not end") != NULL, "%s", s.text);
}
END_TEST

static void shelf_page(void *userdata, as_shelf_items_page *page, const as_error *err)
{
    seen *s = userdata;
    s->calls++;
    keep_error(s, err);
    if (!page)
        return;
    for (size_t i = 0; i < page->count; i++)
        strncat(s->text, page->items[i].id, sizeof s->text - strlen(s->text) - 1);
    if (page->next)
        ck_assert_int_eq(
            as_shelf_items_continue_async(client, page->next, NULL, shelf_page, s, NULL), AS_OK);
    as_shelf_items_page_free(page);
}

START_TEST(page_chain_cursor_object)
{
    seen s = {0};
    as_shelf_items_request req = {.shelf = "s1"};
    ck_assert_int_eq(as_shelf_items_page_async(client, &req, NULL, shelf_page, &s, NULL), AS_OK);
    run();
    ck_assert_msg(s.reason == AS_REASON_NONE, "%s", s.text);
    ck_assert_int_eq(s.calls, 2);
    ck_assert_str_eq(s.text, "xyz");
}
END_TEST

/* ---- streams ---- */

typedef struct stream_seen {
    int items, poison, reconnects, ends;
    int64_t seqs[8];
    int reopened_elsewhere; /* reconnects that did not reopen after the last item delivered */
    char why[512];          /* each reconnect's error, for the failure message */
    as_reason reason;
    as_async_stream *handle;
    bool cancel_on_item;
    bool pause_on_first;
    int items_while_paused; /* counted by the timer that resumes */
} stream_seen;

static void resume_later(void *userdata)
{
    stream_seen *s = userdata;
    s->items_while_paused = s->items - 1;
    as_async_stream_resume(s->handle);
}

static void on_item(void *userdata, const as_event *item)
{
    stream_seen *s = userdata;
    if (s->items < 8)
        s->seqs[s->items] = item->seq;
    s->items++;
    if (s->cancel_on_item)
        as_async_stream_cancel(s->handle);
    if (s->pause_on_first && s->items == 1) { /* backpressure: nothing more until resume */
        as_async_stream_pause(s->handle);
        ck_assert_int_eq(sdkrt_loop_timer_start(NULL, loop, 100, resume_later, s, NULL), SDKRT_OK);
    }
}

static void on_poison(void *userdata, const as_stream_poison *poison)
{
    stream_seen *s = userdata;
    ck_assert_ptr_nonnull(poison->error);
    s->poison++;
}

static void on_reconnect(void *userdata, const as_follow_event *event)
{
    stream_seen *s = userdata;
    ck_assert_int_eq(event->kind, AS_FOLLOW_RECONNECT);
    s->reconnects++;
    if (!event->has_after || s->items == 0 ||
        event->after != s->seqs[(s->items < 8 ? s->items : 8) - 1])
        s->reopened_elsewhere++;
    size_t n = strlen(s->why);
    snprintf(s->why + n, sizeof s->why - n, "[%s] ", as_error_message(event->error));
}

static void on_end(void *userdata, const as_error *err)
{
    stream_seen *s = userdata;
    s->ends++;
    s->reason = err ? as_error_reason(err) : AS_REASON_NONE;
    s->handle = NULL; /* gone once this returns */
}

START_TEST(stream_items)
{
    stream_seen s = {0};
    const as_events_handlers h = {on_item, on_poison, NULL, on_end};
    ck_assert_int_eq(as_events_start(&s.handle, client, NULL, NULL, &h, &s, NULL), AS_OK);
    ck_assert_ptr_nonnull(s.handle);
    run();
    ck_assert_int_eq(s.items, 2);
    ck_assert_int_eq(s.seqs[0], 1);
    ck_assert_int_eq(s.seqs[1], 3);
    ck_assert_int_eq(s.poison, 1);
    ck_assert_int_eq(s.ends, 1);
    ck_assert_int_eq(s.reason, AS_REASON_NONE);
}
END_TEST

START_TEST(stream_strict)
{
    stream_seen s = {0};
    const as_events_handlers h = {on_item, NULL, NULL, on_end}; /* no on_poison: strict */
    ck_assert_int_eq(as_events_start(NULL, client, NULL, NULL, &h, &s, NULL), AS_OK);
    run();
    ck_assert_int_eq(s.items, 1);
    ck_assert_int_eq(s.ends, 1);
    ck_assert_int_eq(s.reason, AS_REASON_MALFORMED_RESPONSE);
}
END_TEST

START_TEST(stream_cancel)
{
    stream_seen s = {.cancel_on_item = true};
    as_events_request req = {.has_after = true, .after = 100};
    const as_events_handlers h = {on_item, on_poison, NULL, on_end};
    ck_assert_int_eq(as_events_start(&s.handle, client, &req, NULL, &h, &s, NULL), AS_OK);
    run(); /* returns although the server keeps the stream open */
    ck_assert_int_eq(s.items, 1);
    ck_assert_int_eq(s.seqs[0], 101);
    ck_assert_int_eq(s.ends, 1);
    ck_assert_int_eq(s.reason, AS_REASON_CANCELLED);
}
END_TEST

START_TEST(stream_pause_resume)
{
    stream_seen s = {.pause_on_first = true, .items_while_paused = -1};
    as_events_request req = {.has_after = true, .after = 300};
    const as_events_handlers h = {on_item, on_poison, NULL, on_end};
    ck_assert_int_eq(as_events_start(&s.handle, client, &req, NULL, &h, &s, NULL), AS_OK);
    run();
    ck_assert_int_eq(s.items_while_paused, 0);
    ck_assert_int_eq(s.items, 3);
    ck_assert_int_eq(s.seqs[2], 303);
    ck_assert_int_eq(s.ends, 1);
    ck_assert_int_eq(s.reason, AS_REASON_NONE);
}
END_TEST

START_TEST(follower_across_a_loss)
{
    stream_seen s = {0};
    as_events_request req = {.has_after = true, .after = 200};
    as_follow_options fo = AS_FOLLOW_OPTIONS_INIT;
    const as_events_handlers h = {on_item, on_poison, on_reconnect, on_end};
    fo.initial_delay_ms = 10;
    fo.end_when_closed = true;
    fo.max_attempts = 3; /* a wrong reopen (the server answers 500) fails fast, not by timeout */
    ck_assert_int_eq(as_events_follow_start(&s.handle, client, &req, &fo, &h, &s, NULL), AS_OK);
    run();
    ck_assert_msg(s.items == 3, "%d items; reconnects: %s", s.items, s.why);
    ck_assert_int_eq(s.seqs[0], 201);
    ck_assert_int_eq(s.seqs[1], 202);
    ck_assert_int_eq(s.seqs[2], 203);
    /* one loss, one reopen after the last item delivered */
    ck_assert_msg(s.reconnects == 1, "%d reconnects: %s", s.reconnects, s.why);
    ck_assert_int_eq(s.reopened_elsewhere, 0);
    ck_assert_int_eq(s.ends, 1);
    ck_assert_int_eq(s.reason, AS_REASON_NONE);
}
END_TEST

/* ---- cancel tokens and calls that cannot start ---- */

START_TEST(cancel_token)
{
    as_cancel *cancel = NULL;
    as_call_options call = AS_CALL_OPTIONS_INIT;
    as_get_item_request req = {.id = "i1"};
    seen s = {0};
    ck_assert_int_eq(as_cancel_new(&cancel, NULL), AS_OK);
    call.cancel = cancel;
    ck_assert_int_eq(as_get_item_async(client, &req, &call, item_done, &s, NULL), AS_OK);
    as_cancel_trigger(cancel);
    run();
    ck_assert_int_eq(s.calls, 1);
    ck_assert_int_eq(s.reason, AS_REASON_CANCELLED);
    as_cancel_free(cancel);
}
END_TEST

START_TEST(cannot_start)
{
    as_client *blocking = NULL;
    as_client_options o = AS_CLIENT_OPTIONS_INIT;
    as_get_item_request req = {.id = "i1"};
    as_error *err = NULL;
    seen s = {0};
    o.base_url = ts_url(server);
    ck_assert_int_eq(as_client_new(&blocking, &o, &err), AS_OK);
    /* no loop in the options */
    ck_assert_int_eq(as_get_item_async(blocking, &req, NULL, item_done, &s, &err), AS_ERR);
    ck_assert_int_eq(as_error_reason(err), AS_REASON_INVALID_ARGUMENT);
    as_error_clear(&err);
    /* no callback, no request where one is required */
    ck_assert_int_eq(as_get_item_async(client, &req, NULL, NULL, &s, &err), AS_ERR);
    ck_assert_int_eq(as_error_reason(err), AS_REASON_INVALID_ARGUMENT);
    as_error_clear(&err);
    ck_assert_int_eq(as_get_item_async(client, NULL, NULL, item_done, &s, &err), AS_ERR);
    ck_assert_int_eq(as_error_reason(err), AS_REASON_INVALID_ARGUMENT);
    as_error_clear(&err);
    ck_assert_int_eq(as_events_start(NULL, client, NULL, NULL, NULL, &s, &err), AS_ERR);
    as_error_clear(&err);
    run();
    ck_assert_int_eq(s.calls, 0); /* no callback ran */
    /* a client with a loop still serves blocking calls */
    as_item *item = NULL;
    ck_assert_int_eq(as_get_item(client, &req, NULL, &item, &err), AS_OK);
    ck_assert_str_eq(item->id, "i1");
    as_item_free(item);
    as_client_free(blocking);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("async");
    TCase *tc = tcase_create("async");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, unary_result);
    tcase_add_test(tc, declared_error);
    tcase_add_test(tc, scalar_none_and_several);
    tcase_add_test(tc, page_chain_engine);
    tcase_add_test(tc, page_chain_cursor_object);
    tcase_add_test(tc, page_walk_that_does_not_end);
    tcase_add_test(tc, stream_items);
    tcase_add_test(tc, stream_strict);
    tcase_add_test(tc, stream_cancel);
    tcase_add_test(tc, stream_pause_resume);
    tcase_add_test(tc, follower_across_a_loss);
    tcase_add_test(tc, cancel_token);
    tcase_add_test(tc, cannot_start);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
