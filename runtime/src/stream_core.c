/* The sans-I/O core of SSE streams (stream_core.h): a response head judged, bytes in, events,
 * the end and errors out, for the blocking stream (client.c) and the asynchronous ones
 * (async_stream.c) alike. */
#include "stream_core.h"

#include <stdio.h>
#include <string.h>

#include "internal.h"

bool sdkrt_sse_head_ok_(const sdkrt_response *head)
{
    int status = sdkrt_response_status(head);
    const char *ct = sdkrt_response_content_type(head);
    return status >= 200 && status <= 299 && ct && strcmp(ct, "text/event-stream") == 0;
}

sdkrt_error *sdkrt_sse_head_error_(const sdkrt_response *head, const char *method, const char *url)
{
    sdkrt_error *e = NULL;
    int status = sdkrt_response_status(head);
    const char *ct = sdkrt_response_content_type(head);
    size_t len = 0;
    const char *body = sdkrt_response_body(head, &len);
    if (status < 200 || status > 299) {
        sdkrt_error_unexpected_status(&e, head);
        size_t kept = 0;
        if (len && e && !sdkrt_error_body(e, &kept)) {
            /* the body did not fit in memory: its declared error could not be read from it */
            sdkrt_error_free(e);
            e = NULL;
            sdkrt_error_set(&e, SDKRT_REASON_OUT_OF_MEMORY, "%s %s: out of memory keeping the body",
                            method, url);
        }
        return e;
    }
    sdkrt_error_set(&e, SDKRT_REASON_UNSUPPORTED_CONTENT_TYPE,
                    "%s %s: HTTP %d: expected text/event-stream, got %s", method, url, status,
                    ct ? ct : "no content type");
    sdkrt_error_set_status(e, status);
    sdkrt_error_set_content_type(e, ct);
    sdkrt_error_set_body(e, body, len);
    return e;
}

sdkrt_sc_result_ sdkrt_sse_core_fail_(const char *method, const char *url,
                                      const sdkrt_response *head, sdkrt_reason reason,
                                      const char *what, sdkrt_error **err)
{
    sdkrt_error *e = NULL;
    sdkrt_error_set(&e, reason, "%s %s: %s", method, url, what);
    if (head) {
        sdkrt_error_set_status(e, sdkrt_response_status(head));
        sdkrt_error_set_content_type(e, sdkrt_response_content_type(head));
    }
    sdkrt_error_propagate(err, e);
    return SDKRT_SC_ERROR;
}

sdkrt_status sdkrt_sse_core_init_(sdkrt_sse_core_ *c, size_t max_event_bytes, const char *method,
                                  const char *url, const sdkrt_response *head, sdkrt_error **err)
{
    memset(c, 0, sizeof *c);
    c->max_event_bytes = max_event_bytes;
    c->method = method;
    c->url = url;
    c->head = head;
    sdkrt_sse_options so = SDKRT_SSE_OPTIONS_INIT;
    so.max_event_bytes = max_event_bytes;
    so.max_line_bytes = max_event_bytes;
    if (sdkrt_sse_parser_new(&c->parser, &so) != SDKRT_SSE_OK) {
        c->parser = NULL;
        sdkrt_sse_core_fail_(method, url, head, SDKRT_REASON_OUT_OF_MEMORY,
                             "could not create the event parser (out of memory or cap too small)",
                             err);
        return SDKRT_ERR;
    }
    return SDKRT_OK;
}

void sdkrt_sse_core_cleanup_(sdkrt_sse_core_ *c)
{
    sdkrt_sse_parser_free(c->parser);
    c->parser = NULL;
}

/* The parser failed: a cap crossed (EVENT_TOO_LARGE) or out of memory. */
static sdkrt_sc_result_ parser_failed(const sdkrt_sse_core_ *c, sdkrt_error **err)
{
    sdkrt_sse_errcode code = sdkrt_sse_error(c->parser);
    sdkrt_reason reason = code == SDKRT_SSE_ERR_OUT_OF_MEMORY ? SDKRT_REASON_OUT_OF_MEMORY
                                                              : SDKRT_REASON_EVENT_TOO_LARGE;
    char what[512];
    snprintf(what, sizeof what, "event stream: %s: %.300s (limit %zu bytes)",
             sdkrt_sse_errcode_name(code), sdkrt_sse_error_message(c->parser), c->max_event_bytes);
    return sdkrt_sse_core_fail_(c->method, c->url, c->head, reason, what, err);
}

static void fill_event(sdkrt_stream_event *out, const sdkrt_sse_event *ev)
{
    out->event = ev->event;
    out->data = ev->data;
    out->data_len = ev->data_len;
    out->id = ev->id ? ev->id : "";
    out->has_id = ev->has_id != 0;
    out->retry = (long)ev->retry;
}

sdkrt_sc_result_ sdkrt_sse_core_feed_(sdkrt_sse_core_ *c, const void *bytes, size_t n,
                                      sdkrt_error **err)
{
    if (sdkrt_sse_feed(c->parser, bytes, n) != SDKRT_SSE_OK)
        return parser_failed(c, err);
    return SDKRT_SC_NEED_MORE;
}

sdkrt_sc_result_ sdkrt_sse_core_buffer_(sdkrt_sse_core_ *c, size_t want, void **buf, size_t *room,
                                        sdkrt_error **err)
{
    if (sdkrt_sse_feed_buffer(c->parser, want, buf, room) != SDKRT_SSE_OK)
        return parser_failed(c, err);
    return SDKRT_SC_NEED_MORE;
}

sdkrt_sc_result_ sdkrt_sse_core_commit_(sdkrt_sse_core_ *c, size_t n, sdkrt_error **err)
{
    if (sdkrt_sse_feed_commit(c->parser, n) != SDKRT_SSE_OK)
        return parser_failed(c, err);
    return SDKRT_SC_NEED_MORE;
}

sdkrt_sc_result_ sdkrt_sse_core_next_(sdkrt_sse_core_ *c, sdkrt_stream_event *ev, sdkrt_error **err)
{
    sdkrt_sse_event e;
    switch (sdkrt_sse_next(c->parser, &e)) {
    case SDKRT_SSE_EVENT:
        fill_event(ev, &e);
        return SDKRT_SC_EVENT;
    case SDKRT_SSE_NEED_MORE:
        return SDKRT_SC_NEED_MORE;
    default:
        return parser_failed(c, err);
    }
}

sdkrt_sc_result_ sdkrt_sse_core_finish_(sdkrt_sse_core_ *c, sdkrt_stream_event *ev,
                                        sdkrt_error **err)
{
    sdkrt_sse_event e;
    switch (sdkrt_sse_finish(c->parser, &e)) {
    case SDKRT_SSE_EVENT:
        fill_event(ev, &e);
        return SDKRT_SC_EVENT;
    case SDKRT_SSE_END:
        return SDKRT_SC_END;
    case SDKRT_SSE_TRUNCATED:
        return sdkrt_sse_core_fail_(c->method, c->url, c->head, SDKRT_REASON_TRANSPORT,
                                    "connection closed in the middle of an event", err);
    default:
        return parser_failed(c, err);
    }
}
