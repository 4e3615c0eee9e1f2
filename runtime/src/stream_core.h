/* The sans-I/O core of streams, shared by the blocking streams (sdkrt_stream_next,
 * sdkrt_jstream_next, sdkrt_follow_next) and the asynchronous ones (async_stream.c): bytes in,
 * SSE events, typed items, poison items, failure frames and the end out; and the follower's
 * decisions (drop a replayed item, reconnect or end, the next delay). Nothing here reads a socket,
 * sleeps or looks at a clock, so both drivers behave the same by construction. */
#ifndef SDKRT_STREAM_CORE_H
#define SDKRT_STREAM_CORE_H

#include <stdbool.h>
#include <stdint.h>

#include "sdkrt/follow.h"
#include "sdkrt/json.h"
#include "sdkrt/sdkrt.h"
#include "sdkrt/sse.h"

/* ---- bytes -> SSE events ---- */

typedef enum sdkrt_sc_result_ {
    SDKRT_SC_ERROR = -1, /* *err set; the stream is over */
    SDKRT_SC_END = 0,    /* the body ended at an event boundary */
    SDKRT_SC_EVENT = 1,  /* *ev filled (borrowed until the next call on the core) */
    SDKRT_SC_NEED_MORE = 2
} sdkrt_sc_result_;

typedef struct sdkrt_sse_core_ {
    sdkrt_sse_parser *parser;
    size_t max_event_bytes;
    const char *method;         /* borrowed, for messages */
    const char *url;            /* borrowed, for messages */
    const sdkrt_response *head; /* borrowed: status and content type of errors; may be NULL */
} sdkrt_sse_core_;

/* Whether a response head starts an event stream (2xx, text/event-stream). When it does not, the
 * driver collects up to SDKRT_ERROR_BODY_MAX bytes of the body into head and asks
 * sdkrt_sse_head_error_ for the error. */
bool sdkrt_sse_head_ok_(const sdkrt_response *head);
/* The error of a head that is not an event stream (new): UNEXPECTED_STATUS with status, content
 * type and body, or UNSUPPORTED_CONTENT_TYPE for a 2xx of another media type. */
sdkrt_error *sdkrt_sse_head_error_(const sdkrt_response *head, const char *method, const char *url);

/* A core for a stream whose head was accepted. method, url, head borrowed for the core's life.
 * OUT_OF_MEMORY (or a cap below SDKRT_SSE_MIN_CAP_BYTES) with *err. */
sdkrt_status sdkrt_sse_core_init_(sdkrt_sse_core_ *c, size_t max_event_bytes, const char *method,
                                  const char *url, const sdkrt_response *head, sdkrt_error **err);
void sdkrt_sse_core_cleanup_(sdkrt_sse_core_ *c);
/* Push bytes (copied). SDKRT_SC_NEED_MORE, or SDKRT_SC_ERROR with *err. */
sdkrt_sc_result_ sdkrt_sse_core_feed_(sdkrt_sse_core_ *c, const void *bytes, size_t n,
                                      sdkrt_error **err);
/* Or let a reader write into the parser's buffer: room for at least want bytes at *buf (up to
 * *room), then commit the n written. SDKRT_SC_NEED_MORE, or SDKRT_SC_ERROR with *err. */
sdkrt_sc_result_ sdkrt_sse_core_buffer_(sdkrt_sse_core_ *c, size_t want, void **buf, size_t *room,
                                        sdkrt_error **err);
sdkrt_sc_result_ sdkrt_sse_core_commit_(sdkrt_sse_core_ *c, size_t n, sdkrt_error **err);
/* The next event: SDKRT_SC_EVENT, SDKRT_SC_NEED_MORE, or SDKRT_SC_ERROR (a cap crossed). */
sdkrt_sc_result_ sdkrt_sse_core_next_(sdkrt_sse_core_ *c, sdkrt_stream_event *ev,
                                      sdkrt_error **err);
/* The body ended: SDKRT_SC_EVENT while events are pending, then SDKRT_SC_END, or SDKRT_SC_ERROR
 * (TRANSPORT when it ended in the middle of an event). */
sdkrt_sc_result_ sdkrt_sse_core_finish_(sdkrt_sse_core_ *c, sdkrt_stream_event *ev,
                                        sdkrt_error **err);
/* An error about the stream (new, into *err unless set): "METHOD URL: what", with the head's
 * status and content type. Returns SDKRT_SC_ERROR. */
sdkrt_sc_result_ sdkrt_sse_core_fail_(const char *method, const char *url,
                                      const sdkrt_response *head, sdkrt_reason reason,
                                      const char *what, sdkrt_error **err);

/* ---- SSE events -> typed items ---- */

typedef enum sdkrt_jc_result_ {
    SDKRT_JC_ERROR = -1, /* *err set (a failure frame, strict decode failure, out of memory) */
    SDKRT_JC_END = 0,    /* "[DONE]" */
    SDKRT_JC_ITEM = 1,   /* *item: the core's storage, valid until sdkrt_jcore_release_ */
    SDKRT_JC_POISON = 2, /* *poison filled, valid until sdkrt_jcore_release_ */
    SDKRT_JC_SKIP = 3    /* an event that carries no item (empty data) */
} sdkrt_jc_result_;

typedef struct sdkrt_jcore_ {
    const sdkrt_jop *op;
    void *item; /* storage of op->item, holding the last item */
    bool have_item;
    json_t *poison_json;       /* the last poison event's JSON */
    sdkrt_error *poison_error; /* and why it did not decode */
    bool error_final; /* the last SDKRT_JC_ERROR ends the stream (a failure frame, strict) */
} sdkrt_jcore_;

sdkrt_status sdkrt_jcore_init_(sdkrt_jcore_ *c, const sdkrt_jop *op, sdkrt_error **err);
void sdkrt_jcore_cleanup_(sdkrt_jcore_ *c);
/* Release the last item or poison (before the next event). */
void sdkrt_jcore_release_(sdkrt_jcore_ *c);
/* One event of a stream whose status is `status`. poison NULL: strict (an event that does not
 * decode is an error). */
sdkrt_jc_result_ sdkrt_jcore_event_(sdkrt_jcore_ *c, const sdkrt_stream_event *ev, int status,
                                    const void **item, sdkrt_jstream_poison *poison,
                                    sdkrt_error **err);
/* The raw stream failed with e (stolen): a non-2xx status becomes the operation's declared error,
 * anything else passes through. Into *err. */
void sdkrt_jcore_stream_error_(const sdkrt_jcore_ *c, sdkrt_error *e, sdkrt_error **err);

/* ---- the follower's decisions ---- */

typedef struct sdkrt_follow_sm_ {
    unsigned max_attempts;
    long initial_delay_ms;
    long max_delay_ms;
    bool end_when_closed;
    bool has_last;
    int64_t last;
    unsigned attempt; /* reconnects in a row without an item */
    uint64_t rng;
} sdkrt_follow_sm_;

/* Check opts (NULL: defaults) into sm; seed is any value that differs between followers (the
 * jitter only spreads clients apart). INVALID_ARGUMENT for negative delays. */
sdkrt_status sdkrt_follow_sm_init_(sdkrt_follow_sm_ *sm, const sdkrt_follow_options *opts,
                                   uint64_t seed, sdkrt_error **err);
/* An item (or poison) with its sequence arrived: false when it was delivered already (drop it);
 * true: deliver it (remembered as the last one, the attempts start again). */
bool sdkrt_follow_sm_item_(sdkrt_follow_sm_ *sm, bool has_seq, int64_t seq);

typedef enum sdkrt_follow_decision_ {
    SDKRT_FOLLOW_DO_END = 0,      /* the server closed and end_when_closed: the clean end */
    SDKRT_FOLLOW_DO_FAIL = 1,     /* *e is final (prefixed when attempts ran out) */
    SDKRT_FOLLOW_DO_RECONNECT = 2 /* report *e with *ev, wait ev->delay_ms, reopen */
} sdkrt_follow_decision_;

/* The stream ended with *e (owned by the caller; NULL: closed cleanly, replaced by a TRANSPORT
 * error when reconnecting). RECONNECT fills ev's kind, error (*e, borrowed), attempt, delay_ms,
 * has_after and after. Whether an error is worth a reconnect: sdkrt_follow_retryable_. */
sdkrt_follow_decision_ sdkrt_follow_sm_lost_(sdkrt_follow_sm_ *sm, sdkrt_error **e,
                                             sdkrt_follow_event *ev);
/* TRANSPORT, TIMEOUT, 5xx (declared or not); never a failure frame, a 4xx, cancellation. */
bool sdkrt_follow_retryable_(const sdkrt_error *e);

#endif
