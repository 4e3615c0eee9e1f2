/* test_sse.c - the SSE parser (sdkrt/sse.h) against the WHATWG examples and edge cases.
 *
 * Every case is fed whole, one byte at a time, split at every point into two feeds and at every
 * pair of points into three, each with events taken after every feed and (for two feeds) only at
 * the end; all must give the same events, end status and error. A randomized test compares
 * random splits of generated streams with a small independent reference parser. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sdkrt/sse.h"

/* ---- expected results ---- */

typedef struct exp_event {
    const char *type;
    const char *data;
    size_t data_len;
    const char *id;
    int has_id;
    int64_t retry;
} exp_event;

#define EV(t, d, i, h, r)                                                                          \
    {                                                                                              \
        t, d, sizeof(d) - 1, i, h, r                                                               \
    }
#define MSG(d) EV("message", d, "", 0, -1)
#define MAX_EV 8

typedef struct sse_case {
    const char *name;
    const char *in;
    size_t in_len;
    size_t max_event, max_line; /* 0: defaults */
    exp_event ev[MAX_EV];
    sdkrt_sse_status end; /* SDKRT_SSE_END, _TRUNCATED or _ERROR */
    sdkrt_sse_errcode err;
    uint64_t comments;
    int64_t retry_ms;
} sse_case;

#define IN(s)       s, sizeof(s) - 1
#define CLEAN       SDKRT_SSE_END, SDKRT_SSE_ERR_NONE
#define TRUNC       SDKRT_SSE_TRUNCATED, SDKRT_SSE_ERR_NONE
#define FAILS(code) SDKRT_SSE_ERROR, SDKRT_SSE_ERR_##code

static const sse_case cases[] = {
    /* WHATWG HTML 9.2: the introduction's three messages. */
    {"spec_intro",
     IN("data: This is the first message.\n\ndata: This is the second message, it\n"
        "data: has two lines.\n\ndata: This is the third message.\n\n"),
     0,
     0,
     {MSG("This is the first message."), MSG("This is the second message, it\nhas two lines."),
      MSG("This is the third message.")},
     CLEAN,
     0,
     -1},
    /* 9.2: two event types, "add" and "remove". */
    {"spec_event_types",
     IN("event: add\ndata: 73857293\n\nevent: remove\ndata: 2153\n\nevent: add\ndata: 113411\n\n"),
     0,
     0,
     {EV("add", "73857293", "", 0, -1), EV("remove", "2153", "", 0, -1),
      EV("add", "113411", "", 0, -1)},
     CLEAN,
     0,
     -1},
    /* 9.2.6: the stock ticker, one event with three lines. */
    {"spec_stock_ticker",
     IN("data: YHOO\ndata: +2\ndata: 10\n\n"),
     0,
     0,
     {MSG("YHOO\n+2\n10")},
     CLEAN,
     0,
     -1},
    /* 9.2.6: a comment, then ids that persist and reset. */
    {"spec_first_second_third",
     IN(": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\n"
        "data:  third event\n\n"),
     0,
     0,
     {EV("message", "first event", "1", 1, -1), EV("message", "second event", "", 1, -1),
      EV("message", " third event", "", 1, -1)},
     CLEAN,
     1,
     -1},
    /* 9.2.6: "data" and "data:" give an empty event and a LF event; the last block has no
     * blank line after it, so it is never dispatched and the stream is truncated. */
    {"spec_empty_and_lf",
     IN("data\n\ndata\ndata\n\ndata:"),
     0,
     0,
     {MSG(""), MSG("\n")},
     TRUNC,
     0,
     -1},
    /* 9.2.6: one optional space after the colon is removed. */
    {"spec_test_space",
     IN("data:test\n\ndata: test\n\n"),
     0,
     0,
     {MSG("test"), MSG("test")},
     CLEAN,
     0,
     -1},
    {"bom_skipped",
     IN("\xEF\xBB\xBF"
        "data: a\n\n"),
     0,
     0,
     {MSG("a")},
     CLEAN,
     0,
     -1},
    /* Only the first BOM is skipped: the second one makes the field name unknown. */
    {"bom_twice",
     IN("\xEF\xBB\xBF\xEF\xBB\xBF"
        "data: a\n\ndata: b\n\n"),
     0,
     0,
     {MSG("b")},
     CLEAN,
     0,
     -1},
    {"bom_not_at_start",
     IN("data: a\n\n\xEF\xBB\xBF"
        "data: b\n\n"),
     0,
     0,
     {MSG("a")},
     CLEAN,
     0,
     -1},
    /* A BOM prefix that turns out not to be a BOM stays part of the first line. */
    {"bom_prefix_only", IN("\xEF\xBB\ndata: x\n\n"), 0, 0, {MSG("x")}, CLEAN, 0, -1},
    {"bom_prefix_then_text",
     IN("\xEF"
        "data: x\n\ndata: y\n\n"),
     0,
     0,
     {MSG("y")},
     CLEAN,
     0,
     -1},
    {"bom_only", IN("\xEF\xBB\xBF"), 0, 0, {{0}}, CLEAN, 0, -1},
    {"bom_partial_at_end", IN("\xEF\xBB"), 0, 0, {{0}}, TRUNC, 0, -1},
    {"cr_only", IN("data: a\rdata: b\r\rdata: c\r\r"), 0, 0, {MSG("a\nb"), MSG("c")}, CLEAN, 0, -1},
    {"crlf",
     IN("data: a\r\ndata: b\r\n\r\nid: 7\r\ndata: c\r\n\r\n"),
     0,
     0,
     {MSG("a\nb"), EV("message", "c", "7", 1, -1)},
     CLEAN,
     0,
     -1},
    /* CR CR LF is a line end then a blank line (CRLF); LF CR is a line end then a blank line. */
    {"cr_cr_lf", IN("data: x\r\r\n\ndata: y\n\r"), 0, 0, {MSG("x"), MSG("y")}, CLEAN, 0, -1},
    {"mixed_endings",
     IN("data: a\r\n\rdata: b\n\r\ndata: c\r\n\ndata: d\n\r\n"),
     0,
     0,
     {MSG("a"), MSG("b"), MSG("c"), MSG("d")},
     CLEAN,
     0,
     -1},
    {"blank_lines_only", IN("\n\r\n\r\r\n\n"), 0, 0, {{0}}, CLEAN, 0, -1},
    {"multiline_data",
     IN("data:\ndata\ndata: z\ndata:  w\n\n"),
     0,
     0,
     {MSG("\n\nz\n w")},
     CLEAN,
     0,
     -1},
    {"comments_heartbeats",
     IN(": heartbeat\n: heartbeat\ndata: x\n: in the middle\ndata: y\n\n:\n:\r\n"),
     0,
     0,
     {MSG("x\ny")},
     CLEAN,
     5,
     -1},
    {"event_and_id",
     IN("event: update\nid: 42\ndata: {}\n\ndata: second\n\n"),
     0,
     0,
     {EV("update", "{}", "42", 1, -1), EV("message", "second", "42", 1, -1)},
     CLEAN,
     0,
     -1},
    /* An empty event field means "message"; the type does not outlive its block. */
    {"event_empty_and_reset",
     IN("event: foo\nevent\ndata: a\n\nevent: bar\n\ndata: b\n\n"),
     0,
     0,
     {MSG("a"), MSG("b")},
     CLEAN,
     0,
     -1},
    {"event_last_wins",
     IN("event: a\nevent: b\ndata: x\n\n"),
     0,
     0,
     {EV("b", "x", "", 0, -1)},
     CLEAN,
     0,
     -1},
    {"retry_valid",
     IN("retry: 1500\ndata: a\n\ndata: b\n\n"),
     0,
     0,
     {EV("message", "a", "", 0, 1500), MSG("b")},
     CLEAN,
     0,
     1500},
    {"retry_invalid",
     IN("retry: 15x\ndata: a\n\nretry: -1\ndata: b\n\nretry: 1 0\ndata: c\n\nretry:\ndata: d\n\n"
        "retry:  5\ndata: e\n\nretry\ndata: f\n\nretry: +3\ndata: g\n\n"),
     0,
     0,
     {MSG("a"), MSG("b"), MSG("c"), MSG("d"), MSG("e"), MSG("f"), MSG("g")},
     CLEAN,
     0,
     -1},
    /* retry in a block without data still sets the reconnection time. */
    {"retry_without_event", IN("retry: 0\n\ndata: a\n\n"), 0, 0, {MSG("a")}, CLEAN, 0, 0},
    {"retry_saturates",
     IN("retry:99999999999999999999999\ndata: a\n\n"),
     0,
     0,
     {EV("message", "a", "", 0, INT64_MAX)},
     CLEAN,
     0,
     INT64_MAX},
    {"id_with_nul_ignored",
     IN("id: 1\ndata: a\n\nid: 2\x00"
        "3\ndata: b\n\n"),
     0,
     0,
     {EV("message", "a", "1", 1, -1), EV("message", "b", "1", 1, -1)},
     CLEAN,
     0,
     -1},
    {"id_empty_resets",
     IN("id: 5\ndata: a\n\nid:\ndata: b\n\nid: 6\n\ndata: c\n\n"),
     0,
     0,
     {EV("message", "a", "5", 1, -1), EV("message", "b", "", 1, -1),
      EV("message", "c", "6", 1, -1)},
     CLEAN,
     0,
     -1},
    {"field_without_colon",
     IN("event\ndata\nid\n\n"),
     0,
     0,
     {EV("message", "", "", 1, -1)},
     CLEAN,
     0,
     -1},
    /* A blank line with an empty data buffer dispatches nothing but clears the type. */
    {"empty_data_not_dispatched",
     IN("id: 3\n\nevent: x\n\nevent: y\nretry: 10\n\ndata: a\n\n"),
     0,
     0,
     {EV("message", "a", "3", 1, -1)},
     CLEAN,
     0,
     10},
    {"unknown_fields",
     IN("foo: bar\nDATA: x\ndata : y\nData: z\n id: 1\nthis line has no field\n\ndata: ok\n\n"),
     0,
     0,
     {MSG("ok")},
     CLEAN,
     0,
     -1},
    {"colons_in_value", IN("data: a: b:c\ndata::\n\n"), 0, 0, {MSG("a: b:c\n:")}, CLEAN, 0, -1},
    {"effect_failure_frame",
     IN("event: effect/httpapi/stream/failure\n"
        "data: [{\"_tag\":\"Fail\",\"error\":{\"_tag\":\"NotFoundError\",\"message\":\"gone\"}}]"
        "\n\n"),
     0,
     0,
     {EV("effect/httpapi/stream/failure",
         "[{\"_tag\":\"Fail\",\"error\":{\"_tag\":\"NotFoundError\",\"message\":\"gone\"}}]", "", 0,
         -1)},
     CLEAN,
     0,
     -1},
    {"utf8",
     IN("event: \xC3\xA9v\nid: \xE2\x82\xAC\ndata: h\xC3\xA9llo \xE2\x82\xAC \xF0\x9F\x98\x80\n\n"),
     0,
     0,
     {EV("\xC3\xA9v", "h\xC3\xA9llo \xE2\x82\xAC \xF0\x9F\x98\x80", "\xE2\x82\xAC", 1, -1)},
     CLEAN,
     0,
     -1},
    {"nul_in_data",
     IN("data: a\x00"
        "b\n\n"),
     0,
     0,
     {MSG("a\x00"
          "b")},
     CLEAN,
     0,
     -1},
    {"empty_stream", IN(""), 0, 0, {{0}}, CLEAN, 0, -1},
    {"only_comments", IN(": a\n: b\n"), 0, 0, {{0}}, CLEAN, 2, -1},
    {"truncated_mid_line", IN("data: a\n\ndata: b"), 0, 0, {MSG("a")}, TRUNC, 0, -1},
    {"truncated_mid_event", IN("data: a\n\ndata: b\n"), 0, 0, {MSG("a")}, TRUNC, 0, -1},
    {"truncated_event_field", IN("data: a\n\nevent: x\n"), 0, 0, {MSG("a")}, TRUNC, 0, -1},
    {"truncated_comment_line", IN("data: a\n\n: partial"), 0, 0, {MSG("a")}, TRUNC, 0, -1},
    {"clean_after_cr", IN("data: a\r\r"), 0, 0, {MSG("a")}, CLEAN, 0, -1},
    /* Caps: data of exactly max_event_bytes passes, one more byte fails. */
    {"event_cap_exact",
     IN("data: 0123456789abcdef\n\n"),
     16,
     0,
     {MSG("0123456789abcdef")},
     CLEAN,
     0,
     -1},
    {"event_cap_exceeded",
     IN("data: a\n\ndata: 0123456789abcdefg\n\ndata: b\n\n"),
     16,
     0,
     {MSG("a")},
     FAILS(EVENT_TOO_LARGE),
     0,
     -1},
    {"event_cap_by_lines",
     IN("data: a\n\ndata: 01234567\ndata: 89abcdef\n\n"),
     16,
     0,
     {MSG("a")},
     FAILS(EVENT_TOO_LARGE),
     0,
     -1},
    {"event_cap_joined_exact",
     IN("data: 0123456789abcde\ndata\n\n"),
     16,
     0,
     {MSG("0123456789abcde\n")},
     CLEAN,
     0,
     -1},
    {"event_cap_by_empty_line",
     IN("data: 0123456789abcdef\ndata\n\n"),
     16,
     0,
     {{0}},
     FAILS(EVENT_TOO_LARGE),
     0,
     -1},
    {"event_cap_unterminated",
     IN("data: x\n\ndata: 0123456789abcdefghijklmnop"),
     16,
     64,
     {MSG("x")},
     FAILS(EVENT_TOO_LARGE),
     0,
     -1},
    {"line_cap_exact",
     IN("event: 012345678\ndata: x\n\n"),
     64,
     16,
     {EV("012345678", "x", "", 0, -1)},
     CLEAN,
     0,
     -1},
    {"line_cap_exceeded",
     IN("data: a\n\nevent: 0123456789\ndata: x\n\n"),
     64,
     16,
     {MSG("a")},
     FAILS(LINE_TOO_LARGE),
     0,
     -1},
    {"line_cap_comment",
     IN("data: a\n\n: 0123456789abcdefghij\n"),
     64,
     16,
     {MSG("a")},
     FAILS(LINE_TOO_LARGE),
     0,
     -1},
    {"line_cap_data_line",
     IN("data: a\n\ndata: 0123456789abcdef\n\n"),
     64,
     16,
     {MSG("a")},
     FAILS(LINE_TOO_LARGE),
     0,
     -1},
    {"line_cap_unterminated",
     IN("data: a\n\nid: 0123456789abcdefghijklmnopqrstuvwxyz"),
     64,
     16,
     {MSG("a")},
     FAILS(LINE_TOO_LARGE),
     0,
     -1},
};

#define NCASES (sizeof cases / sizeof cases[0])

/* ---- running a case under a given split ---- */

/* Check's ck_assert marks a point on every call (a pipe write in fork mode); these checks run
 * millions of times, so they only call into Check when they fail. */
#define REQUIRE(cond, ...)                                                                         \
    do {                                                                                           \
        if (!(cond))                                                                               \
            ck_abort_msg(__VA_ARGS__);                                                             \
    } while (0)

typedef struct got_event {
    char *type, *data, *id;
    size_t data_len;
    int has_id;
    int64_t retry;
} got_event;

typedef struct got {
    got_event ev[64];
    size_t nev;
    int overflow;
    sdkrt_sse_status end;
    sdkrt_sse_errcode err;
    uint64_t comments;
    int64_t retry_ms;
    size_t max_buffered;
} got;

static char *dup_bytes(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    REQUIRE(d, "out of memory");
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

static void got_free(got *g)
{
    for (size_t i = 0; i < g->nev; i++) {
        free(g->ev[i].type);
        free(g->ev[i].data);
        free(g->ev[i].id);
    }
    g->nev = 0;
}

static void record(got *g, const sdkrt_sse_event *ev)
{
    REQUIRE(ev->event && ev->data && ev->id, "event with a NULL pointer");
    REQUIRE(ev->data[ev->data_len] == '\0', "data not NUL-terminated");
    if (g->nev == sizeof g->ev / sizeof g->ev[0]) {
        g->overflow = 1;
        return;
    }
    got_event *e = &g->ev[g->nev++];
    e->type = dup_bytes(ev->event, strlen(ev->event));
    e->data = dup_bytes(ev->data, ev->data_len);
    e->id = dup_bytes(ev->id, strlen(ev->id));
    e->data_len = ev->data_len;
    e->has_id = ev->has_id;
    e->retry = ev->retry;
}

/* Takes events until the parser needs more (0) or fails (-1). */
static int drain(sdkrt_sse_parser *p, got *g)
{
    sdkrt_sse_event ev;
    sdkrt_sse_status st;
    while ((st = sdkrt_sse_next(p, &ev)) == SDKRT_SSE_EVENT)
        record(g, &ev);
    if (st == SDKRT_SSE_ERROR)
        return -1;
    REQUIRE(st == SDKRT_SSE_NEED_MORE, "next returned %d", (int)st);
    return 0;
}

/* sdkrt_sse_feed through the in-place API: the bytes written where feed_buffer says. */
static sdkrt_sse_status feed_in_place(sdkrt_sse_parser *p, const char *b, size_t n)
{
    void *buf = NULL;
    size_t room = 0;
    if (n == 0)
        return sdkrt_sse_feed_commit(p, 0);
    sdkrt_sse_status st = sdkrt_sse_feed_buffer(p, n, &buf, &room);
    if (st != SDKRT_SSE_OK)
        return st;
    REQUIRE(room >= n, "feed_buffer gave %zu bytes of room for %zu", room, n);
    memcpy(buf, b, n);
    return sdkrt_sse_feed_commit(p, n);
}

/* Feeds in[0..len) in pieces ending at cuts[0..ncuts) (ascending, each < len), then finishes.
 * drain_each: take events after every feed, else only at the end. Successive runs feed with
 * sdkrt_sse_feed, with the in-place API, and alternating the two. */
static void run_split(const char *in, size_t len, size_t max_event, size_t max_line,
                      const size_t *cuts, size_t ncuts, int drain_each, got *g)
{
    memset(g, 0, sizeof *g);
    sdkrt_sse_options o = SDKRT_SSE_OPTIONS_INIT;
    if (max_event)
        o.max_event_bytes = max_event;
    o.max_line_bytes = max_line;
    sdkrt_sse_parser *p = NULL;
    REQUIRE(sdkrt_sse_parser_new(&p, &o) == SDKRT_SSE_OK, "parser_new failed");
    size_t off = 0;
    int failed = 0;
    static unsigned runs;
    unsigned mode = runs++ % 3;
    for (size_t k = 0; k <= ncuts && !failed; k++) {
        size_t end = k < ncuts ? cuts[k] : len;
        sdkrt_sse_status fs = mode == 1 || (mode == 2 && k % 2)
                                  ? feed_in_place(p, in + off, end - off)
                                  : sdkrt_sse_feed(p, in + off, end - off);
        if (fs == SDKRT_SSE_ERROR) {
            failed = 1;
            break;
        }
        REQUIRE(fs == SDKRT_SSE_OK, "feed returned %d", (int)fs);
        off = end;
        if (drain_each) {
            failed = drain(p, g) < 0;
            /* After an error the parser keeps what it was given; the bound is for a healthy
             * stream. */
            size_t b = sdkrt_sse_buffered_bytes(p);
            if (!failed && b > g->max_buffered)
                g->max_buffered = b;
        }
    }
    if (!failed && drain(p, g) == 0) {
        sdkrt_sse_event ev;
        g->end = sdkrt_sse_finish(p, &ev);
        REQUIRE(g->end == SDKRT_SSE_END || g->end == SDKRT_SSE_TRUNCATED, "finish returned %d",
                (int)g->end);
        REQUIRE(ev.data == NULL, "finish left an event");
    } else {
        g->end = SDKRT_SSE_ERROR;
        sdkrt_sse_event ev;
        /* Errors are sticky. */
        REQUIRE(sdkrt_sse_next(p, &ev) == SDKRT_SSE_ERROR, "error not sticky in next");
        REQUIRE(sdkrt_sse_finish(p, &ev) == SDKRT_SSE_ERROR, "error not sticky in finish");
        REQUIRE(sdkrt_sse_feed(p, "data: x\n\n", 9) == SDKRT_SSE_ERROR, "error not sticky in feed");
        REQUIRE(sdkrt_sse_error_message(p)[0] != '\0', "error without a message");
    }
    g->err = sdkrt_sse_error(p);
    g->comments = sdkrt_sse_comment_count(p);
    g->retry_ms = sdkrt_sse_retry_ms(p);
    sdkrt_sse_parser_free(p);
}

static void check_case(const sse_case *c, const got *g, const char *how)
{
    size_t nexp = 0;
    while (nexp < MAX_EV && c->ev[nexp].type)
        nexp++;
    REQUIRE(!g->overflow, "%s (%s): too many events", c->name, how);
    REQUIRE(g->nev == nexp, "%s (%s): %zu events, expected %zu", c->name, how, g->nev, nexp);
    for (size_t i = 0; i < nexp; i++) {
        const exp_event *x = &c->ev[i];
        const got_event *e = &g->ev[i];
        REQUIRE(strcmp(e->type, x->type) == 0, "%s (%s) event %zu: type '%s', expected '%s'",
                c->name, how, i, e->type, x->type);
        REQUIRE(e->data_len == x->data_len && memcmp(e->data, x->data, x->data_len) == 0,
                "%s (%s) event %zu: data '%s' (%zu), expected '%s' (%zu)", c->name, how, i, e->data,
                e->data_len, x->data, x->data_len);
        REQUIRE(strcmp(e->id, x->id) == 0, "%s (%s) event %zu: id '%s', expected '%s'", c->name,
                how, i, e->id, x->id);
        REQUIRE(e->has_id == x->has_id, "%s (%s) event %zu: has_id %d", c->name, how, i, e->has_id);
        REQUIRE(e->retry == x->retry, "%s (%s) event %zu: retry %lld, expected %lld", c->name, how,
                i, (long long)e->retry, (long long)x->retry);
    }
    REQUIRE(g->end == c->end, "%s (%s): end %d, expected %d", c->name, how, (int)g->end,
            (int)c->end);
    REQUIRE(g->err == c->err, "%s (%s): error %s, expected %s", c->name, how,
            sdkrt_sse_errcode_name(g->err), sdkrt_sse_errcode_name(c->err));
    if (c->end != SDKRT_SSE_ERROR) {
        REQUIRE(g->comments == c->comments, "%s (%s): %llu comments, expected %llu", c->name, how,
                (unsigned long long)g->comments, (unsigned long long)c->comments);
        REQUIRE(g->retry_ms == c->retry_ms, "%s (%s): retry_ms %lld, expected %lld", c->name, how,
                (long long)g->retry_ms, (long long)c->retry_ms);
    }
    if (c->max_event) {
        size_t ml = c->max_line ? c->max_line : c->max_event + SDKRT_SSE_LINE_SLACK_BYTES;
        REQUIRE(g->max_buffered <= ml + c->max_event, "%s (%s): buffered %zu bytes", c->name, how,
                g->max_buffered);
    }
}

static void run_and_check(const sse_case *c, const size_t *cuts, size_t ncuts, int drain_each,
                          const char *how)
{
    got g;
    run_split(c->in, c->in_len, c->max_event, c->max_line, cuts, ncuts, drain_each, &g);
    check_case(c, &g, how);
    got_free(&g);
}

START_TEST(case_whole)
{
    const sse_case *c = &cases[_i];
    run_and_check(c, NULL, 0, 1, "whole");
}
END_TEST

START_TEST(case_byte_by_byte)
{
    const sse_case *c = &cases[_i];
    size_t n = c->in_len ? c->in_len - 1 : 0;
    size_t *cuts = malloc((n + 1) * sizeof *cuts);
    ck_assert_ptr_nonnull(cuts);
    for (size_t k = 0; k < n; k++)
        cuts[k] = k + 1;
    run_and_check(c, cuts, n, 1, "byte by byte");
    run_and_check(c, cuts, n, 0, "byte by byte, drained at end");
    free(cuts);
}
END_TEST

START_TEST(case_two_feeds)
{
    const sse_case *c = &cases[_i];
    char how[64];
    for (size_t a = 0; a <= c->in_len; a++) {
        size_t cut = a;
        snprintf(how, sizeof how, "split at %zu", a);
        run_and_check(c, &cut, 1, 1, how);
        snprintf(how, sizeof how, "split at %zu, drained at end", a);
        run_and_check(c, &cut, 1, 0, how);
    }
}
END_TEST

START_TEST(case_three_feeds)
{
    const sse_case *c = &cases[_i];
    char how[64];
    for (size_t a = 0; a <= c->in_len; a++) {
        for (size_t b = a; b <= c->in_len; b++) {
            size_t cuts[2] = {a, b};
            snprintf(how, sizeof how, "split at %zu and %zu", a, b);
            run_and_check(c, cuts, 2, 1, how);
        }
    }
}
END_TEST

/* ---- caps on endless input: memory must stay within the cap ---- */

static void endless(const char *prefix, size_t cap, size_t chunk, int drain_each,
                    sdkrt_sse_errcode want)
{
    sdkrt_sse_options o = SDKRT_SSE_OPTIONS_INIT;
    o.max_event_bytes = cap;
    sdkrt_sse_parser *p = NULL;
    ck_assert_int_eq(sdkrt_sse_parser_new(&p, &o), SDKRT_SSE_OK);
    ck_assert_int_eq(sdkrt_sse_feed(p, "data: ok\n\n", 10), SDKRT_SSE_OK);
    ck_assert_int_eq(sdkrt_sse_feed(p, prefix, strlen(prefix)), SDKRT_SSE_OK);
    char *buf = malloc(chunk);
    ck_assert_ptr_nonnull(buf);
    memset(buf, 'x', chunk);
    size_t fed = strlen(prefix);
    size_t line_cap = cap + SDKRT_SSE_LINE_SLACK_BYTES;
    /* The longest line that is still fine. */
    size_t lim = want == SDKRT_SSE_ERR_LINE_TOO_LARGE ? line_cap : strlen(prefix) + cap;
    /* Taking events after every feed, a data line stops at the event cap; without, the
     * event cap is checked once the lines before are parsed, and the line cap holds meanwhile
     * (with "data: ok\n\n" still buffered). */
    size_t bound = !drain_each                            ? line_cap + 10
                   : want == SDKRT_SSE_ERR_LINE_TOO_LARGE ? line_cap
                                                          : strlen(prefix) + cap;
    int events = 0, failed = 0;
    for (int k = 0; k < 4000 && !failed; k++) {
        sdkrt_sse_status st = sdkrt_sse_feed(p, buf, chunk);
        if (st == SDKRT_SSE_ERROR)
            break;
        fed += chunk;
        REQUIRE(sdkrt_sse_buffered_bytes(p) <= bound, "buffered %zu > %zu",
                sdkrt_sse_buffered_bytes(p), bound);
        if (drain_each || fed > 8 * cap) {
            sdkrt_sse_event ev;
            while ((st = sdkrt_sse_next(p, &ev)) == SDKRT_SSE_EVENT)
                events++;
            if (st == SDKRT_SSE_ERROR) {
                failed = 1;
                /* As soon as the cap is crossed, not later. */
                if (drain_each) {
                    ck_assert_uint_gt(fed, lim);
                    ck_assert_uint_le(fed - chunk, lim);
                }
            }
        }
    }
    ck_assert_int_eq(failed, 1);
    ck_assert_int_eq(events, 1);
    ck_assert_int_eq(sdkrt_sse_error(p), want);
    ck_assert_uint_le(sdkrt_sse_buffered_bytes(p), bound);
    sdkrt_sse_event ev;
    ck_assert_int_eq(sdkrt_sse_finish(p, &ev), SDKRT_SSE_ERROR);
    free(buf);
    sdkrt_sse_parser_free(p);
}

/* Memory held for one event near the cap: about max_event_bytes plus a feed, not twice that;
 * a large past event's buffers are released once the stream goes back to small events. */
static size_t feed_event_peak(sdkrt_sse_parser *p, const char *head, size_t value_len, size_t lines,
                              size_t chunk, int *events)
{
    size_t total = strlen(head) * lines + (value_len + 1) * lines + 1, off = 0, peak = 0;
    char *text = malloc(total + 1);
    ck_assert_ptr_nonnull(text);
    for (size_t l = 0; l < lines; l++) {
        memcpy(text + off, head, strlen(head));
        off += strlen(head);
        memset(text + off, 'x', value_len);
        off += value_len;
        text[off++] = '\n';
    }
    text[off++] = '\n';
    ck_assert_uint_eq(off, total);
    for (size_t at = 0; at < total; at += chunk) {
        size_t n = total - at < chunk ? total - at : chunk;
        ck_assert_int_eq(sdkrt_sse_feed(p, text + at, n), SDKRT_SSE_OK);
        sdkrt_sse_event ev;
        sdkrt_sse_status st;
        while ((st = sdkrt_sse_next(p, &ev)) == SDKRT_SSE_EVENT) {
            ck_assert_uint_eq(ev.data_len, value_len * lines + lines - 1);
            ck_assert_int_eq(ev.data[0], 'x');
            ck_assert_int_eq(ev.data[ev.data_len - 1], 'x');
            (*events)++;
        }
        ck_assert_int_eq(st, SDKRT_SSE_NEED_MORE);
        if (sdkrt_sse_held_bytes(p) > peak)
            peak = sdkrt_sse_held_bytes(p);
    }
    free(text);
    return peak;
}

START_TEST(held_bytes_near_one_event)
{
    const size_t cap = 1u << 20, chunk = 16384;
    sdkrt_sse_options o = SDKRT_SSE_OPTIONS_INIT;
    o.max_event_bytes = cap;
    sdkrt_sse_parser *p = NULL;
    ck_assert_int_eq(sdkrt_sse_parser_new(&p, &o), SDKRT_SSE_OK);
    int events = 0;
    /* one data line just under the cap (the common JSON event), its end at the end of a feed
     * so that the parser waits for the blank line holding the data */
    size_t peak = feed_event_peak(p, "data: ", 64 * chunk - 7, 1, chunk, &events);
    ck_assert_msg(peak <= cap + chunk + 8192, "one line: held %zu for a %zu cap", peak, cap);
    /* ten lines that fill the event */
    peak = feed_event_peak(p, "data:", cap / 10 - 10, 10, chunk, &events);
    ck_assert_msg(peak <= cap + cap / 4 + chunk, "ten lines: held %zu for a %zu cap", peak, cap);
    ck_assert_int_eq(events, 2);
    /* back to small events: the large buffers go */
    size_t small = feed_event_peak(p, "data: ", 100, 1, chunk, &events);
    small = feed_event_peak(p, "data: ", 100, 1, chunk, &events);
    ck_assert_msg(small <= 80 * 1024, "small events after a large one: held %zu", small);
    ck_assert_int_eq(events, 4);
    sdkrt_sse_parser_free(p);
}
END_TEST

START_TEST(endless_data_line)
{
    endless("data: ", 1024, 100, 1, SDKRT_SSE_ERR_EVENT_TOO_LARGE);
    endless("data: ", 1024, 1, 1, SDKRT_SSE_ERR_EVENT_TOO_LARGE);
    endless("data: ", 1024, 4096, 1, SDKRT_SSE_ERR_EVENT_TOO_LARGE);
    endless("data: ", 1024, 100, 0, SDKRT_SSE_ERR_EVENT_TOO_LARGE);
    endless("data: ", 1024, 7, 0, SDKRT_SSE_ERR_EVENT_TOO_LARGE);
}
END_TEST

START_TEST(endless_other_lines)
{
    endless(": ", 1024, 100, 1, SDKRT_SSE_ERR_LINE_TOO_LARGE);
    endless("event: ", 1024, 3, 1, SDKRT_SSE_ERR_LINE_TOO_LARGE);
    endless("", 1024, 1000, 1, SDKRT_SSE_ERR_LINE_TOO_LARGE);
    endless("id:", 1024, 5000, 0, SDKRT_SSE_ERR_LINE_TOO_LARGE);
}
END_TEST

/* Many short data lines in one event: the cap stops it as soon as it is crossed. */
START_TEST(endless_data_lines)
{
    sdkrt_sse_options o = SDKRT_SSE_OPTIONS_INIT;
    o.max_event_bytes = 4096;
    sdkrt_sse_parser *p = NULL;
    ck_assert_int_eq(sdkrt_sse_parser_new(&p, &o), SDKRT_SSE_OK);
    size_t data = 0;
    sdkrt_sse_status st = SDKRT_SSE_NEED_MORE;
    for (int k = 0; k < 100000 && st != SDKRT_SSE_ERROR; k++) {
        REQUIRE(sdkrt_sse_feed(p, "data: 0123456789\n", 17) == SDKRT_SSE_OK, "feed failed");
        data += data ? 11 : 10;
        sdkrt_sse_event ev;
        st = sdkrt_sse_next(p, &ev);
        REQUIRE(st != SDKRT_SSE_EVENT, "unexpected event");
        REQUIRE(sdkrt_sse_buffered_bytes(p) <= 4096 + 17, "buffered %zu",
                sdkrt_sse_buffered_bytes(p));
    }
    ck_assert_int_eq(st, SDKRT_SSE_ERROR);
    ck_assert_uint_gt(data, 4096);
    ck_assert_uint_le(data, 4096 + 11);
    ck_assert_int_eq(sdkrt_sse_error(p), SDKRT_SSE_ERR_EVENT_TOO_LARGE);
    ck_assert_str_eq(sdkrt_sse_errcode_name(sdkrt_sse_error(p)), "EVENT_TOO_LARGE");
    sdkrt_sse_parser_free(p);
}
END_TEST

/* ---- large events in tiny feeds stay linear ---- */

START_TEST(large_event_small_feeds)
{
    const size_t n = 1 << 18;
    char *big = malloc(n + 64);
    ck_assert_ptr_nonnull(big);
    size_t len = 0;
    memcpy(big, "id: big\ndata: ", 14);
    len = 14;
    for (size_t i = 0; i < n; i++)
        big[len++] = (char)('a' + i % 26);
    memcpy(big + len, "\ndata: tail\n\n", 13);
    len += 13;
    for (size_t step = 1; step <= 3; step += 2) {
        sdkrt_sse_parser *p = NULL;
        ck_assert_int_eq(sdkrt_sse_parser_new(&p, NULL), SDKRT_SSE_OK);
        int events = 0;
        for (size_t off = 0; off < len; off += step) {
            size_t k = len - off < step ? len - off : step;
            REQUIRE(sdkrt_sse_feed(p, big + off, k) == SDKRT_SSE_OK, "feed failed");
            sdkrt_sse_event ev;
            sdkrt_sse_status st;
            while ((st = sdkrt_sse_next(p, &ev)) == SDKRT_SSE_EVENT) {
                events++;
                ck_assert_uint_eq(ev.data_len, n + 5);
                ck_assert_int_eq(memcmp(ev.data, big + 14, n), 0);
                ck_assert_str_eq(ev.data + n, "\ntail");
                ck_assert_str_eq(ev.id, "big");
            }
            REQUIRE(st == SDKRT_SSE_NEED_MORE, "next returned %d", (int)st);
            REQUIRE(sdkrt_sse_buffered_bytes(p) <= n + 64, "buffered %zu",
                    sdkrt_sse_buffered_bytes(p));
        }
        ck_assert_int_eq(events, 1);
        sdkrt_sse_event ev;
        ck_assert_int_eq(sdkrt_sse_finish(p, &ev), SDKRT_SSE_END);
        sdkrt_sse_parser_free(p);
    }
    free(big);
}
END_TEST

/* A caller that feeds far more than the caps without taking events still gets every event
 * (buffering is then unbounded by design; growth stays geometric). */
START_TEST(late_drain_beyond_caps)
{
    sdkrt_sse_options o = SDKRT_SSE_OPTIONS_INIT;
    o.max_event_bytes = 1024;
    sdkrt_sse_parser *p = NULL;
    ck_assert_int_eq(sdkrt_sse_parser_new(&p, &o), SDKRT_SSE_OK);
    char frame[64];
    size_t total = 0;
    int n;
    for (n = 0; total < ((size_t)2 << 20); n++) {
        int k = snprintf(frame, sizeof frame, "id: %d\ndata: frame %d\n\n", n, n);
        REQUIRE(sdkrt_sse_feed(p, frame, (size_t)k) == SDKRT_SSE_OK, "feed failed");
        total += (size_t)k;
    }
    ck_assert_uint_ge(sdkrt_sse_buffered_bytes(p), total);
    sdkrt_sse_event ev;
    for (int i = 0; i < n; i++) {
        REQUIRE(sdkrt_sse_next(p, &ev) == SDKRT_SSE_EVENT, "event %d missing", i);
        snprintf(frame, sizeof frame, "frame %d", i);
        REQUIRE(strcmp(ev.data, frame) == 0, "event %d: '%s'", i, ev.data);
        REQUIRE(strtol(ev.id, NULL, 10) == i, "event %d: id '%s'", i, ev.id);
    }
    ck_assert_int_eq(sdkrt_sse_finish(p, &ev), SDKRT_SSE_END);
    ck_assert_uint_eq(sdkrt_sse_buffered_bytes(p), 0);
    sdkrt_sse_parser_free(p);
}
END_TEST

/* ---- API edges ---- */

START_TEST(api_arguments)
{
    sdkrt_sse_parser *p = (sdkrt_sse_parser *)1;
    ck_assert_int_eq(sdkrt_sse_parser_new(NULL, NULL), SDKRT_SSE_ERROR);
    sdkrt_sse_options o = SDKRT_SSE_OPTIONS_INIT;
    o.max_event_bytes = SDKRT_SSE_MIN_CAP_BYTES - 1;
    ck_assert_int_eq(sdkrt_sse_parser_new(&p, &o), SDKRT_SSE_ERROR);
    ck_assert_ptr_null(p);
    o.max_event_bytes = 0;
    o.max_line_bytes = 3;
    ck_assert_int_eq(sdkrt_sse_parser_new(&p, &o), SDKRT_SSE_ERROR);
    sdkrt_sse_parser_free(NULL);
    sdkrt_sse_parser_reset(NULL);
    ck_assert_int_eq(sdkrt_sse_feed(NULL, "x", 1), SDKRT_SSE_ERROR);
    void *into = NULL;
    size_t room = 0;
    ck_assert_int_eq(sdkrt_sse_feed_buffer(NULL, 1, &into, &room), SDKRT_SSE_ERROR);
    ck_assert_int_eq(sdkrt_sse_feed_commit(NULL, 0), SDKRT_SSE_ERROR);
    ck_assert_int_eq(sdkrt_sse_error(NULL), SDKRT_SSE_ERR_NONE);
    ck_assert_uint_eq(sdkrt_sse_comment_count(NULL), 0);
    ck_assert_int_eq(sdkrt_sse_retry_ms(NULL), -1);
    ck_assert_uint_eq(sdkrt_sse_buffered_bytes(NULL), 0);
    ck_assert_str_eq(sdkrt_sse_errcode_name(SDKRT_SSE_ERR_LINE_TOO_LARGE), "LINE_TOO_LARGE");
    ck_assert_str_eq(sdkrt_sse_errcode_name(SDKRT_SSE_ERR_OUT_OF_MEMORY), "OUT_OF_MEMORY");

    /* In-place feeding: room as asked, no more than that committed, NULL outputs refused. */
    ck_assert_int_eq(sdkrt_sse_parser_new(&p, NULL), SDKRT_SSE_OK);
    ck_assert_int_eq(sdkrt_sse_feed_commit(p, 0), SDKRT_SSE_OK);
    ck_assert_int_eq(sdkrt_sse_feed_buffer(p, 0, &into, &room), SDKRT_SSE_OK);
    ck_assert_uint_ge(room, 9); /* the input buffer starts at 4 KiB */
    memcpy(into, "data: a\n\n", 9);
    ck_assert_int_eq(sdkrt_sse_feed_commit(p, 9), SDKRT_SSE_OK);
    sdkrt_sse_event ev0;
    ck_assert_int_eq(sdkrt_sse_next(p, &ev0), SDKRT_SSE_EVENT);
    ck_assert_str_eq(ev0.data, "a");
    ck_assert_int_eq(sdkrt_sse_feed_buffer(p, 100, &into, &room), SDKRT_SSE_OK);
    ck_assert_uint_ge(room, 100);
    ck_assert_int_eq(sdkrt_sse_feed_commit(p, room + 1), SDKRT_SSE_ERROR);
    ck_assert_int_eq(sdkrt_sse_error(p), SDKRT_SSE_ERR_INVALID_ARGUMENT);
    ck_assert_int_eq(sdkrt_sse_feed_buffer(p, 1, &into, &room), SDKRT_SSE_ERROR); /* sticky */
    sdkrt_sse_parser_reset(p);
    ck_assert_int_eq(sdkrt_sse_feed_buffer(p, 1, NULL, &room), SDKRT_SSE_ERROR);
    ck_assert_int_eq(sdkrt_sse_error(p), SDKRT_SSE_ERR_INVALID_ARGUMENT);
    sdkrt_sse_parser_free(p);

    ck_assert_int_eq(sdkrt_sse_parser_new(&p, NULL), SDKRT_SSE_OK);
    ck_assert_int_eq(sdkrt_sse_error(p), SDKRT_SSE_ERR_NONE);
    ck_assert_str_eq(sdkrt_sse_error_message(p), "");
    ck_assert_int_eq(sdkrt_sse_feed(p, NULL, 0), SDKRT_SSE_OK);
    sdkrt_sse_event ev;
    ck_assert_int_eq(sdkrt_sse_next(p, &ev), SDKRT_SSE_NEED_MORE);
    ck_assert_int_eq(sdkrt_sse_feed(p, NULL, 1), SDKRT_SSE_ERROR);
    ck_assert_int_eq(sdkrt_sse_error(p), SDKRT_SSE_ERR_INVALID_ARGUMENT);
    sdkrt_sse_parser_reset(p);
    ck_assert_int_eq(sdkrt_sse_next(p, NULL), SDKRT_SSE_ERROR);
    ck_assert_int_eq(sdkrt_sse_error(p), SDKRT_SSE_ERR_INVALID_ARGUMENT);
    sdkrt_sse_parser_free(p);
}
END_TEST

START_TEST(reset_forgets_stream)
{
    sdkrt_sse_options o = SDKRT_SSE_OPTIONS_INIT;
    o.max_event_bytes = 32;
    sdkrt_sse_parser *p = NULL;
    ck_assert_int_eq(sdkrt_sse_parser_new(&p, &o), SDKRT_SSE_OK);
    const char s1[] = "\xEF\xBB\xBF: hi\nid: 9\nretry: 5\nevent: e\ndata: one\n\ndata: partial";
    ck_assert_int_eq(sdkrt_sse_feed(p, s1, sizeof s1 - 1), SDKRT_SSE_OK);
    sdkrt_sse_event ev;
    ck_assert_int_eq(sdkrt_sse_next(p, &ev), SDKRT_SSE_EVENT);
    ck_assert_str_eq(ev.event, "e");
    ck_assert_str_eq(ev.id, "9");
    ck_assert_int_eq(sdkrt_sse_next(p, &ev), SDKRT_SSE_NEED_MORE);
    ck_assert_uint_eq(sdkrt_sse_comment_count(p), 1);
    sdkrt_sse_parser_reset(p);
    ck_assert_uint_eq(sdkrt_sse_comment_count(p), 0);
    ck_assert_int_eq(sdkrt_sse_retry_ms(p), -1);
    ck_assert_uint_eq(sdkrt_sse_buffered_bytes(p), 0);
    /* A BOM is skipped again at the start of the new stream. */
    const char s2[] = "\xEF\xBB\xBF"
                      "data: two\n\n";
    ck_assert_int_eq(sdkrt_sse_feed(p, s2, sizeof s2 - 1), SDKRT_SSE_OK);
    ck_assert_int_eq(sdkrt_sse_next(p, &ev), SDKRT_SSE_EVENT);
    ck_assert_str_eq(ev.event, "message");
    ck_assert_str_eq(ev.data, "two");
    ck_assert_str_eq(ev.id, "");
    ck_assert_int_eq(ev.has_id, 0);
    ck_assert_int_eq(sdkrt_sse_finish(p, &ev), SDKRT_SSE_END);
    /* After an error, reset makes the parser usable again with the same caps. */
    const char s3[] = "data: 0123456789012345678901234567890123456789\n\n";
    ck_assert_int_eq(sdkrt_sse_feed(p, s3, sizeof s3 - 1), SDKRT_SSE_OK);
    ck_assert_int_eq(sdkrt_sse_next(p, &ev), SDKRT_SSE_ERROR);
    ck_assert_int_eq(sdkrt_sse_error(p), SDKRT_SSE_ERR_EVENT_TOO_LARGE);
    sdkrt_sse_parser_reset(p);
    ck_assert_int_eq(sdkrt_sse_error(p), SDKRT_SSE_ERR_NONE);
    ck_assert_int_eq(sdkrt_sse_feed(p, s3 + 20, sizeof s3 - 21), SDKRT_SSE_OK);
    ck_assert_int_eq(sdkrt_sse_next(p, &ev), SDKRT_SSE_NEED_MORE); /* a line without field */
    ck_assert_int_eq(sdkrt_sse_feed(p, s3, sizeof s3 - 1), SDKRT_SSE_OK);
    ck_assert_int_eq(sdkrt_sse_next(p, &ev), SDKRT_SSE_ERROR);
    sdkrt_sse_parser_free(p);
}
END_TEST

/* The event stays valid across next() calls that return NEED_MORE? No: only until the next
 * call. But data must be intact right after next() even when later bytes are already fed. */
START_TEST(event_memory_is_stable)
{
    sdkrt_sse_parser *p = NULL;
    ck_assert_int_eq(sdkrt_sse_parser_new(&p, NULL), SDKRT_SSE_OK);
    const char s[] = "data: first\n\ndata: second\ndata: more\n\ndata: third";
    ck_assert_int_eq(sdkrt_sse_feed(p, s, sizeof s - 1), SDKRT_SSE_OK);
    sdkrt_sse_event ev;
    ck_assert_int_eq(sdkrt_sse_next(p, &ev), SDKRT_SSE_EVENT);
    ck_assert_str_eq(ev.data, "first");
    ck_assert_int_eq(sdkrt_sse_next(p, &ev), SDKRT_SSE_EVENT);
    ck_assert_str_eq(ev.data, "second\nmore");
    ck_assert_int_eq(sdkrt_sse_next(p, &ev), SDKRT_SSE_NEED_MORE);
    ck_assert_int_eq(sdkrt_sse_feed(p, "\n\n", 2), SDKRT_SSE_OK);
    ck_assert_int_eq(sdkrt_sse_next(p, &ev), SDKRT_SSE_EVENT);
    ck_assert_str_eq(ev.data, "third");
    ck_assert_uint_eq(ev.data_len, 5);
    ck_assert_int_eq(sdkrt_sse_finish(p, &ev), SDKRT_SSE_END);
    sdkrt_sse_parser_free(p);
}
END_TEST

/* ---- randomized splits against a reference parser ---- */

static uint64_t rng_state;

static uint32_t rnd(void)
{
    rng_state = rng_state * 6364136223846793005u + 1442695040888963407u;
    return (uint32_t)(rng_state >> 33);
}

typedef struct gbuf {
    char *p;
    size_t len, cap;
} gbuf;

static void gput(gbuf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 256;
        while (cap < b->len + n + 1)
            cap *= 2;
        b->p = realloc(b->p, cap);
        ck_assert_ptr_nonnull(b->p);
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
}

static void gputs(gbuf *b, const char *s)
{
    gput(b, s, strlen(s));
}

static void gen_eol(gbuf *b)
{
    static const char *const eols[] = {"\n", "\n", "\n", "\r\n", "\r"};
    gputs(b, eols[rnd() % 5]);
}

static void gen_value(gbuf *b)
{
    static const char *const atoms[] = {
        "a",    "xyz",          " ",   ":", "0", "42", "\xC3\xA9", "\xE2\x82\xAC", "{\"k\":1}",
        "\x00", "\xEF\xBB\xBF", "data"};
    int n = (int)(rnd() % 5);
    for (int i = 0; i < n; i++) {
        const char *a = atoms[rnd() % (sizeof atoms / sizeof atoms[0])];
        gput(b, a, *a ? strlen(a) : 1);
    }
}

static void gen_stream(gbuf *b)
{
    b->len = 0;
    if (rnd() % 4 == 0)
        gputs(b, "\xEF\xBB\xBF");
    int lines = (int)(rnd() % 40);
    for (int i = 0; i < lines; i++) {
        static const char *const names[] = {"data", "data", "data", "event", "id",    "retry",
                                            ":",    "",     "foo",  "Data",  "data ", "retry"};
        unsigned r = rnd() % 14;
        if (r >= 12) {
            gen_eol(b); /* blank line */
            continue;
        }
        gputs(b, names[r]);
        if (strcmp(names[r], "retry") == 0 && rnd() % 2) {
            gputs(b, rnd() % 2 ? ": " : ":");
            char num[24];
            snprintf(num, sizeof num, "%u", rnd() % 100000);
            gputs(b, num);
        } else {
            unsigned c = rnd() % 4;
            if (c == 1)
                gputs(b, ":");
            else if (c >= 2)
                gputs(b, ": ");
            gen_value(b);
        }
        gen_eol(b);
    }
    if (rnd() % 3 == 0)
        gen_value(b); /* maybe an unterminated tail */
}

/* The spec's algorithm, whole input at once, one line at a time, no caps. */
static void reference(const char *in, size_t len, got *g)
{
    memset(g, 0, sizeof *g);
    g->retry_ms = -1;
    size_t i = 0;
    if (len >= 3 && memcmp(in, "\xEF\xBB\xBF", 3) == 0)
        i = 3;
    gbuf data = {0}, type = {0}, id = {0};
    int have_data = 0, has_id = 0, pending = 0;
    int64_t retry = -1;
    gput(&id, "", 0);
    while (i < len) {
        size_t s = i;
        while (i < len && in[i] != '\n' && in[i] != '\r')
            i++;
        if (i == len) {
            g->end = SDKRT_SSE_TRUNCATED;
            break;
        }
        size_t n = i - s;
        if (in[i] == '\r' && i + 1 < len && in[i + 1] == '\n')
            i++;
        i++;
        const char *l = in + s;
        if (n == 0) {
            if (have_data) {
                got_event *e = &g->ev[g->nev++];
                ck_assert_uint_lt(g->nev, sizeof g->ev / sizeof g->ev[0]);
                e->type = type.len ? dup_bytes(type.p, type.len) : dup_bytes("message", 7);
                e->data_len = data.len - 1;
                e->data = dup_bytes(data.p, data.len - 1);
                e->id = dup_bytes(id.p, id.len);
                e->has_id = has_id;
                e->retry = retry;
            }
            data.len = type.len = 0;
            have_data = pending = 0;
            retry = -1;
            continue;
        }
        if (l[0] == ':') {
            g->comments++;
            continue;
        }
        pending = 1;
        const char *colon = memchr(l, ':', n);
        size_t nl = colon ? (size_t)(colon - l) : n;
        const char *v = colon ? colon + 1 : l + n;
        if (v < l + n && *v == ' ')
            v++;
        size_t vn = (size_t)(l + n - v);
        if (nl == 4 && memcmp(l, "data", 4) == 0) {
            gput(&data, v, vn);
            gput(&data, "\n", 1);
            have_data = 1;
        } else if (nl == 5 && memcmp(l, "event", 5) == 0) {
            type.len = 0;
            gput(&type, v, vn);
        } else if (nl == 2 && memcmp(l, "id", 2) == 0) {
            if (!memchr(v, '\0', vn)) {
                id.len = 0;
                gput(&id, v, vn);
                has_id = 1;
            }
        } else if (nl == 5 && memcmp(l, "retry", 5) == 0) {
            int ok = vn > 0;
            int64_t r = 0;
            for (size_t k = 0; k < vn && ok; k++) {
                if (v[k] < '0' || v[k] > '9')
                    ok = 0;
                else
                    r = r * 10 + (v[k] - '0'); /* generated values are small */
            }
            if (ok) {
                retry = r;
                g->retry_ms = r;
            }
        }
    }
    if (g->end != SDKRT_SSE_TRUNCATED)
        g->end = pending ? SDKRT_SSE_TRUNCATED : SDKRT_SSE_END;
    /* A stream that is only a BOM prefix is an unfinished line. */
    if (i == 0 && len > 0)
        g->end = SDKRT_SSE_TRUNCATED;
    free(data.p);
    free(type.p);
    free(id.p);
}

static void compare_got(const got *a, const got *b, const char *what, unsigned iter)
{
    REQUIRE(a->nev == b->nev, "iteration %u (%s): %zu events vs %zu", iter, what, a->nev, b->nev);
    for (size_t i = 0; i < a->nev; i++) {
        const got_event *x = &a->ev[i], *y = &b->ev[i];
        REQUIRE(strcmp(x->type, y->type) == 0 && strcmp(x->id, y->id) == 0 &&
                    x->data_len == y->data_len && memcmp(x->data, y->data, x->data_len) == 0 &&
                    x->has_id == y->has_id && x->retry == y->retry,
                "iteration %u (%s): event %zu differs: '%s'/'%s' vs '%s'/'%s'", iter, what, i,
                x->type, x->data, y->type, y->data);
    }
    REQUIRE(a->end == b->end, "iteration %u (%s): end %d vs %d", iter, what, (int)a->end,
            (int)b->end);
    REQUIRE(a->comments == b->comments, "iteration %u (%s): comments", iter, what);
    REQUIRE(a->retry_ms == b->retry_ms, "iteration %u (%s): retry_ms", iter, what);
}

START_TEST(random_splits_match_reference)
{
    rng_state = 0x5eed5eed12345678u;
    gbuf b = {0};
    size_t cuts[32];
    for (unsigned iter = 0; iter < 10000; iter++) {
        gen_stream(&b);
        got ref, whole, split;
        reference(b.p ? b.p : "", b.len, &ref);
        run_split(b.p ? b.p : "", b.len, 0, 0, NULL, 0, 1, &whole);
        compare_got(&whole, &ref, "whole vs reference", iter);
        size_t ncuts = b.len ? rnd() % 32 : 0;
        for (size_t k = 0; k < ncuts; k++)
            cuts[k] = rnd() % (b.len + 1);
        for (size_t k = 1; k < ncuts; k++) { /* insertion sort */
            size_t v = cuts[k], j = k;
            while (j > 0 && cuts[j - 1] > v) {
                cuts[j] = cuts[j - 1];
                j--;
            }
            cuts[j] = v;
        }
        run_split(b.p ? b.p : "", b.len, 0, 0, cuts, ncuts, (int)(rnd() % 4 != 0), &split);
        compare_got(&split, &ref, "random split vs reference", iter);
        got_free(&ref);
        got_free(&whole);
        got_free(&split);
    }
    free(b.p);
}
END_TEST

/* Random splits with small caps: whole and split runs must agree, errors included. */
START_TEST(random_splits_with_caps)
{
    rng_state = 0xc0ffee;
    gbuf b = {0};
    size_t cuts[16];
    for (unsigned iter = 0; iter < 10000; iter++) {
        gen_stream(&b);
        size_t cap = 16 + rnd() % 24, line = rnd() % 2 ? 0 : 16 + rnd() % 24;
        got whole, split;
        run_split(b.p ? b.p : "", b.len, cap, line, NULL, 0, 1, &whole);
        size_t ncuts = b.len ? rnd() % 16 : 0;
        for (size_t k = 0; k < ncuts; k++)
            cuts[k] = rnd() % (b.len + 1);
        for (size_t k = 1; k < ncuts; k++) {
            size_t v = cuts[k], j = k;
            while (j > 0 && cuts[j - 1] > v) {
                cuts[j] = cuts[j - 1];
                j--;
            }
            cuts[j] = v;
        }
        run_split(b.p ? b.p : "", b.len, cap, line, cuts, ncuts, (int)(rnd() % 4 != 0), &split);
        ck_assert_msg(split.err == whole.err, "iteration %u: error %s vs %s", iter,
                      sdkrt_sse_errcode_name(split.err), sdkrt_sse_errcode_name(whole.err));
        if (whole.end == SDKRT_SSE_ERROR) {
            /* comments and retry depend on how far parsing got before the error */
            split.comments = whole.comments;
            split.retry_ms = whole.retry_ms;
        }
        compare_got(&split, &whole, "split vs whole, capped", iter);
        ck_assert_uint_le(split.max_buffered,
                          cap + (line ? line : cap + SDKRT_SSE_LINE_SLACK_BYTES));
        got_free(&whole);
        got_free(&split);
    }
    free(b.p);
}
END_TEST

static Suite *sse_suite(void)
{
    Suite *s = suite_create("sse");
    TCase *t = tcase_create("cases");
    tcase_add_loop_test(t, case_whole, 0, (int)NCASES);
    tcase_add_loop_test(t, case_byte_by_byte, 0, (int)NCASES);
    tcase_add_loop_test(t, case_two_feeds, 0, (int)NCASES);
    tcase_add_loop_test(t, case_three_feeds, 0, (int)NCASES);
    suite_add_tcase(s, t);
    t = tcase_create("limits");
    tcase_add_test(t, endless_data_line);
    tcase_add_test(t, endless_other_lines);
    tcase_add_test(t, endless_data_lines);
    tcase_add_test(t, large_event_small_feeds);
    tcase_add_test(t, late_drain_beyond_caps);
    suite_add_tcase(s, t);
    t = tcase_create("api");
    tcase_add_test(t, api_arguments);
    tcase_add_test(t, reset_forgets_stream);
    tcase_add_test(t, event_memory_is_stable);
    tcase_add_test(t, held_bytes_near_one_event);
    suite_add_tcase(s, t);
    t = tcase_create("random");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, random_splits_match_reference);
    tcase_add_test(t, random_splits_with_caps);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(sse_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
