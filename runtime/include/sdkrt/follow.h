/* sdkrt/follow.h - a follower for durable event streams.
 *
 * A durable stream numbers its items with a sequence and can be reopened after one (`after`). A
 * follower is composed above the cold typed stream (sdkrt_jstream, which keeps no hidden
 * reconnect): it opens a stream through the caller's callback, given the last sequence seen, and
 * yields its items. When the stream is lost - TRANSPORT (a cut, a refused connection), TIMEOUT (the
 * idle timeout: no byte, not even a heartbeat, for that long), a 5xx status, or the server closing
 * the stream - it reports a RECONNECT item, waits (exponential backoff with jitter, woken at once
 * by the cancel token) and reopens after the last sequence delivered. It never reconnects on a 4xx
 * or other declared error, a stream failure frame, a response it cannot read, or cancellation:
 * those end the follower with their error. Items whose sequence is not above the last one
 * delivered (a server replaying an overlap) are dropped, so no item is delivered twice.
 *
 * An item that does not decode is delivered as a POISON item (its raw JSON, its sequence when the
 * raw JSON has one, the decode error) and the follower goes on past it; with `strict` it ends the
 * follower with MALFORMED_RESPONSE instead.
 *
 * A follower belongs to one thread at a time; only the cancel token may be triggered from
 * elsewhere (also from a signal handler).
 */
#ifndef SDKRT_FOLLOW_H
#define SDKRT_FOLLOW_H

#include <stdbool.h>
#include <stdint.h>

#include "sdkrt/json.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The API stays exported when libsdkrt is built with -fvisibility=hidden. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

#define SDKRT_FOLLOW_DEFAULT_INITIAL_DELAY_MS 500L
#define SDKRT_FOLLOW_DEFAULT_MAX_DELAY_MS     30000L

/* Options of a follower (start from SDKRT_FOLLOW_OPTIONS_INIT). */
typedef struct sdkrt_follow_options {
    /* Reconnect attempts in a row (without an item in between) before the follower gives up with
     * the last error; 0 = unlimited, until cancelled. */
    unsigned max_attempts;
    long initial_delay_ms; /* first wait; 0 = SDKRT_FOLLOW_DEFAULT_INITIAL_DELAY_MS */
    long max_delay_ms;     /* the wait doubles up to this; 0 = SDKRT_FOLLOW_DEFAULT_MAX_DELAY_MS */
    sdkrt_cancel *cancel;  /* borrowed; ends the waits and the streams with CANCELLED; NULL: none */
    /* Borrowed for the follower's life: the call options of every stream it opens (headers, idle
     * timeout, on_response); `cancel` above, when set, replaces theirs. NULL: defaults. */
    const sdkrt_call_options *call;
    bool has_after; /* start after this sequence (else from the server's start) */
    int64_t after;
    bool strict;          /* an item that does not decode ends the follower (MALFORMED_RESPONSE) */
    bool end_when_closed; /* the server closing the stream cleanly ends the follower (END) */
} sdkrt_follow_options;

#define SDKRT_FOLLOW_OPTIONS_INIT                                                                  \
    {                                                                                              \
        0, 0, 0, NULL, NULL, false, 0, false, false                                                \
    }

/* Open a typed stream after the sequence *after (NULL: from the start) into *out (new; the
 * follower closes it), with the call options given (the options' call and cancel token; borrowed
 * for this call). Called on the first next and on every reconnect. Return SDKRT_ERR with *err
 * set when the stream cannot even be prepared (that ends the follower). */
typedef sdkrt_status (*sdkrt_follow_open_fn)(void *userdata, const int64_t *after,
                                             const sdkrt_call_options *call, sdkrt_jstream **out,
                                             sdkrt_error **err);

/* Where an item's sequence is: a path of wire field names from the item ({"durable", "seq"}),
 * through objects and union variants (an unknown variant and a poison item: in the raw JSON). */
typedef struct sdkrt_follow_sequence {
    const char *const *path;
    size_t depth;
} sdkrt_follow_sequence;

typedef enum sdkrt_follow_kind {
    SDKRT_FOLLOW_ITEM = 1,     /* a decoded item */
    SDKRT_FOLLOW_POISON = 2,   /* an item that did not decode */
    SDKRT_FOLLOW_RECONNECT = 3 /* the stream was lost; the next call waits and reopens it */
} sdkrt_follow_kind;

/* One thing a follower yields. Everything is borrowed until the next call or free. */
typedef struct sdkrt_follow_event {
    sdkrt_follow_kind kind;
    const void *item; /* ITEM: the item (storage of the operation's item type) */
    bool has_seq;     /* ITEM, POISON: the item's sequence was found */
    int64_t seq;
    const char *data; /* POISON: the event's data as received, NUL-terminated */
    size_t data_len;
    const json_t *raw;        /* POISON: that data as JSON, or NULL when it is not JSON */
    const sdkrt_error *error; /* POISON: why it did not decode; RECONNECT: why the stream ended */
    unsigned attempt;         /* RECONNECT: 1, 2, ... reconnects in a row */
    long delay_ms;            /* RECONNECT: the wait before reopening */
    bool has_after;           /* RECONNECT: the sequence it reopens after */
    int64_t after;
} sdkrt_follow_event;

typedef struct sdkrt_follow sdkrt_follow;

/* A follower (no I/O yet) in *out (new; sdkrt_follow_free). open and userdata are kept and
 * called from sdkrt_follow_next; seq is copied (the names stay borrowed: static strings); opts
 * (NULL: defaults) is copied, its cancel token borrowed. INVALID_ARGUMENT for a NULL open, an
 * empty sequence path or negative delays. */
sdkrt_status sdkrt_follow_new(sdkrt_follow **out, sdkrt_follow_open_fn open, void *userdata,
                              const sdkrt_follow_sequence *seq, const sdkrt_follow_options *opts,
                              sdkrt_error **err);
/* Next: SDKRT_STREAM_EVENT with *ev filled (ITEM, POISON or RECONNECT), SDKRT_STREAM_END (only
 * with end_when_closed), or SDKRT_STREAM_ERROR with *err (new): a declared error, a failure
 * frame, CANCELLED, too many attempts (the last loss's error), ... After END or ERROR further
 * calls repeat END or return CANCELLED/the same kind of error again. */
sdkrt_stream_result sdkrt_follow_next(sdkrt_follow *f, sdkrt_follow_event *ev, sdkrt_error **err);
/* The last sequence delivered (ITEM or POISON), or the start position; false when none. */
bool sdkrt_follow_last_seq(const sdkrt_follow *f, int64_t *seq);
/* Release (closes the open stream). NULL is a no-op. */
void sdkrt_follow_free(sdkrt_follow *f);

/* The request that (re)opens an asynchronous follower's stream after the sequence *after (NULL:
 * from the start) into *out (new; the follower frees it). Called on the loop thread for the first
 * open and every reconnect. SDKRT_ERR with *err ends the follower with that error. */
typedef sdkrt_status (*sdkrt_follow_request_fn)(void *userdata, const int64_t *after,
                                                sdkrt_request **out, sdkrt_error **err);

/* The asynchronous follower on the client's loop: what sdkrt_follow_next yields, delivered to
 * handlers on the loop thread. on_item gets each decoded item whose sequence is above the last
 * one delivered, on_poison (unless opts->strict or it is NULL: then a poison item ends the
 * follower with MALFORMED_RESPONSE) each poison item (sdkrt_jstream_poison), on_reconnect (may be
 * NULL) a sdkrt_follow_event of kind RECONNECT before each wait; the wait is a loop timer (the
 * thread never sleeps) and the reopen asks make_request for the request after the last sequence.
 * on_end runs once: NULL only with end_when_closed, else the final error (as sdkrt_follow_next
 * gives it; CANCELLED for the token, sdkrt_async_stream_cancel or the loop freed, in any phase).
 * op borrowed (static); seq copied (names borrowed, static); opts (NULL: defaults) copied, its
 * cancel token and call options borrowed for the follower's life; handlers copied; userdata is
 * passed to make_request and the handlers. *out (may be NULL) is borrowed until on_end returns.
 * SDKRT_ERR (INVALID_ARGUMENT, OUT_OF_MEMORY) only when it cannot start: then nothing runs. */
sdkrt_status sdkrt_follow_start(sdkrt_async_stream **out, sdkrt_client *client, const sdkrt_jop *op,
                                sdkrt_follow_request_fn make_request,
                                const sdkrt_follow_sequence *seq, const sdkrt_follow_options *opts,
                                const sdkrt_stream_handlers *handlers, void *userdata,
                                sdkrt_error **err);
/* During a callback of an asynchronous follower: the last sequence delivered (the item's own
 * in on_item and on_poison when it has one); false when none. */
bool sdkrt_async_follow_last_seq(const sdkrt_async_stream *s, int64_t *seq);

/* The integer at path in an item of type t (storage at value): through objects (absent or null
 * fields give false), boxed and nullable places, union variants, and the raw JSON of unknown
 * variants and `any` places. */
bool sdkrt_json_int_at(const sdkrt_jtype *t, const void *value, const char *const *path,
                       size_t depth, int64_t *out);
/* The integer at path in a JSON value (objects only). */
bool sdkrt_json_raw_int_at(const json_t *json, const char *const *path, size_t depth, int64_t *out);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
