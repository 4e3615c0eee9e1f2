/* sdkrt/sse.h: incremental parser for text/event-stream (WHATWG HTML, "Server-sent events",
 * 9.2.5 parsing and 9.2.6 interpreting an event stream).
 *
 * The parser does no I/O. The caller feeds bytes as they arrive, split anywhere, then takes
 * complete events until the parser asks for more:
 *
 *     sdkrt_sse_parser *p;
 *     if (sdkrt_sse_parser_new(&p, NULL) != SDKRT_SSE_OK) ...out of memory...
 *     while (read some bytes) {
 *         sdkrt_sse_feed(p, buf, n);
 *         while ((st = sdkrt_sse_next(p, &ev)) == SDKRT_SSE_EVENT) use(ev);
 *         if (st == SDKRT_SSE_ERROR) fail(sdkrt_sse_error(p), sdkrt_sse_error_message(p));
 *     }
 *     st = sdkrt_sse_finish(p, &ev);   // at end of input: END (clean) or TRUNCATED
 *     sdkrt_sse_parser_free(p);
 *
 * Bytes are not decoded: field values and data come back as the bytes that were sent (UTF-8
 * on a conforming stream), so a multi-byte character split across feeds is never an issue.
 * A parser is used by one thread at a time; distinct parsers are independent.
 */
#ifndef SDKRT_SSE_H
#define SDKRT_SSE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The API stays exported when libsdkrt is built with -fvisibility=hidden. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* What a parser call returns. */
typedef enum sdkrt_sse_status {
    SDKRT_SSE_OK = 0,    /* new / feed succeeded */
    SDKRT_SSE_EVENT,     /* next / finish: *ev holds one event */
    SDKRT_SSE_NEED_MORE, /* next: no complete event in the bytes fed so far */
    SDKRT_SSE_END,       /* finish: input ended at an event boundary (clean end) */
    SDKRT_SSE_TRUNCATED, /* finish: input ended inside a line or an event (map to TRANSPORT) */
    SDKRT_SSE_ERROR      /* see sdkrt_sse_error(); sticky until sdkrt_sse_parser_reset() */
} sdkrt_sse_status;

/* Why the parser failed. */
typedef enum sdkrt_sse_errcode {
    SDKRT_SSE_ERR_NONE = 0,
    SDKRT_SSE_ERR_EVENT_TOO_LARGE, /* an event's data would exceed max_event_bytes */
    SDKRT_SSE_ERR_LINE_TOO_LARGE,  /* one line would exceed max_line_bytes */
    SDKRT_SSE_ERR_OUT_OF_MEMORY,
    SDKRT_SSE_ERR_INVALID_ARGUMENT /* NULL parser/event pointer, or bytes NULL with len > 0 */
} sdkrt_sse_errcode;

#define SDKRT_SSE_DEFAULT_MAX_EVENT_BYTES ((size_t)16 * 1024 * 1024)
/* Smallest accepted cap; anything below is refused by sdkrt_sse_parser_new(). */
#define SDKRT_SSE_MIN_CAP_BYTES 16
/* The default line cap is max_event_bytes plus this, room for "data: " in front of an event's
 * one data line, so that a single data line over the event cap reports EVENT_TOO_LARGE. */
#define SDKRT_SSE_LINE_SLACK_BYTES 16

typedef struct sdkrt_sse_options {
    /* Cap on one event's data (the data lines joined with LF). 0 means the default, 16 MiB.
     * Exceeding it fails with EVENT_TOO_LARGE as soon as the cap is crossed, also in the
     * middle of a line that has not been completed yet. */
    size_t max_event_bytes;
    /* Cap on one line, terminator excluded, field name included. 0 means max_event_bytes +
     * SDKRT_SSE_LINE_SLACK_BYTES. An unterminated
     * line is never buffered beyond this cap (LINE_TOO_LARGE; a data line that crosses the
     * event cap first reports EVENT_TOO_LARGE). */
    size_t max_line_bytes;
} sdkrt_sse_options;

#define SDKRT_SSE_OPTIONS_INIT                                                                     \
    {                                                                                              \
        SDKRT_SSE_DEFAULT_MAX_EVENT_BYTES, 0                                                       \
    }

/* One dispatched event. Every pointer is borrowed from the parser and stays valid until the
 * next call of sdkrt_sse_next, sdkrt_sse_finish, sdkrt_sse_feed, sdkrt_sse_parser_reset or
 * sdkrt_sse_parser_free on that parser. */
typedef struct sdkrt_sse_event {
    const char *event; /* event type, NUL-terminated; "message" when no (or an empty) event
                          field was sent */
    const char *data;  /* the data lines joined with LF, NUL-terminated; data[data_len] == 0.
                          May contain NUL bytes if the server sent them: use data_len. */
    size_t data_len;
    const char *id; /* the last event ID, NUL-terminated, never NULL. Per the spec it
                       persists across events until another id field changes it; "" when
                       none was set or the server reset it with an empty id. */
    int has_id;     /* nonzero once any id field was accepted on this stream (even an
                       empty one): then `id` is what to send as Last-Event-ID */
    int64_t retry;  /* reconnection time in ms from a valid retry field (ASCII digits only)
                       inside this event's block, else -1. Saturates at INT64_MAX. */
} sdkrt_sse_event;

typedef struct sdkrt_sse_parser sdkrt_sse_parser;

/* Creates a parser. *out: new, release with sdkrt_sse_parser_free. opts: borrowed, may be NULL
 * (defaults). Returns SDKRT_SSE_OK, or SDKRT_SSE_ERROR (with *out = NULL) when out is NULL,
 * a cap is below SDKRT_SSE_MIN_CAP_BYTES, or memory runs out. Allocates no buffer yet. */
sdkrt_sse_status sdkrt_sse_parser_new(sdkrt_sse_parser **out, const sdkrt_sse_options *opts);

/* Frees the parser and everything it holds. NULL is a no-op. */
void sdkrt_sse_parser_free(sdkrt_sse_parser *p);

/* Forgets the stream: buffered bytes, the pending event, the last event ID, the retry value,
 * the comment counter and any error. Keeps the options. Use it before parsing a new
 * connection's stream with the same parser. */
void sdkrt_sse_parser_reset(sdkrt_sse_parser *p);

/* Appends len bytes (borrowed; copied, so the caller may reuse them at once). Parsing happens
 * in sdkrt_sse_next. Returns SDKRT_SSE_OK, or SDKRT_SSE_ERROR when the parser has already
 * failed, is out of memory, or the arguments are invalid. When the bytes push an unfinished
 * line past a cap, the offending bytes are dropped and SDKRT_SSE_OK is returned: the error is
 * reported by sdkrt_sse_next once the events before that line have been taken, so every way of
 * splitting the same input gives the same events and the same error. Invalidates the last
 * event returned. */
sdkrt_sse_status sdkrt_sse_feed(sdkrt_sse_parser *p, const void *bytes, size_t len);

/* Feeding without the copy: a reader writes straight into the parser's input buffer.
 * sdkrt_sse_feed_buffer makes room for at least want bytes (want 0 counts as 1) and gives where
 * (*buf) and how many bytes fit (*room >= want); write n <= *room bytes there, then call
 * sdkrt_sse_feed_commit(p, n), which parses them exactly as sdkrt_sse_feed would parse the same
 * bytes (n 0 is fine). Call nothing else on p in between. feed_buffer invalidates the last event
 * returned, and returns SDKRT_SSE_ERROR when the parser has already failed, is out of memory, or
 * an argument is NULL. */
sdkrt_sse_status sdkrt_sse_feed_buffer(sdkrt_sse_parser *p, size_t want, void **buf, size_t *room);
sdkrt_sse_status sdkrt_sse_feed_commit(sdkrt_sse_parser *p, size_t n);

/* Takes the next complete event. *ev is overwritten (borrowed pointers, see
 * sdkrt_sse_event). Returns SDKRT_SSE_EVENT, SDKRT_SSE_NEED_MORE (feed more bytes), or
 * SDKRT_SSE_ERROR. */
sdkrt_sse_status sdkrt_sse_next(sdkrt_sse_parser *p, sdkrt_sse_event *ev);

/* Call at end of input. Returns SDKRT_SSE_EVENT while complete events are still pending (same
 * as sdkrt_sse_next), then SDKRT_SSE_END when the input ended at an event boundary, or
 * SDKRT_SSE_TRUNCATED when it ended inside a line or inside an event's block (fields after the
 * last blank line; per the spec such an event is discarded, never dispatched). Comments after
 * the last blank line do not make a stream truncated. SDKRT_SSE_ERROR as in next. Does not
 * change the stream state; on END/TRUNCATED *ev is zeroed. */
sdkrt_sse_status sdkrt_sse_finish(sdkrt_sse_parser *p, sdkrt_sse_event *ev);

/* The error code; SDKRT_SSE_ERR_NONE when the parser has not failed (or p is NULL). */
sdkrt_sse_errcode sdkrt_sse_error(const sdkrt_sse_parser *p);

/* A human-readable message for the error; "" when none. Borrowed, valid until reset/free. */
const char *sdkrt_sse_error_message(const sdkrt_sse_parser *p);

/* Static name of an error code, e.g. "EVENT_TOO_LARGE". */
const char *sdkrt_sse_errcode_name(sdkrt_sse_errcode code);

/* Number of comment lines (": heartbeat") seen so far on this stream. */
uint64_t sdkrt_sse_comment_count(const sdkrt_sse_parser *p);

/* The stream's reconnection time in ms: the last valid retry field seen (also from a block
 * that dispatched no event), or -1 if none. */
int64_t sdkrt_sse_retry_ms(const sdkrt_sse_parser *p);

/* Bytes the parser currently holds for the stream: unparsed input plus the pending event's
 * data. With the caller taking events until NEED_MORE between feeds, this stays within
 * max_line_bytes + max_event_bytes. */
size_t sdkrt_sse_buffered_bytes(const sdkrt_sse_parser *p);

/* Bytes the parser has allocated for its buffers (their capacities). With the caller taking
 * events until NEED_MORE between feeds of at most F bytes, this stays near max_event_bytes + F
 * (plus a few KiB), not twice max_event_bytes; buffers over 64 KiB are released once idle. */
size_t sdkrt_sse_held_bytes(const sdkrt_sse_parser *p);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif /* SDKRT_SSE_H */
