/* sdkrt/loop.h - event loops and asynchronous calls.
 *
 * A loop (sdkrt_loop) drives any number of calls and streams on one thread through libcurl's
 * multi_socket interface: the engine asks the loop to watch sockets and to run one timer, and the
 * loop tells the engine when a socket is ready or the timer fired. The runtime has a built-in loop
 * (epoll on Linux, poll elsewhere) for programs without one; adapters put the engine on a loop the
 * program already has (sdkrt/adapters/uv.h for libuv, sdkrt/adapters/event.h for libevent), each a
 * small separate library, so libsdkrt itself depends on neither. Any other loop can be adapted by
 * filling sdkrt_loop_ops (what the adapters do).
 *
 * A client serves asynchronous calls when its options name a loop (sdkrt_client_options.loop);
 * the same client still serves blocking calls from any thread. Asynchronous calls are started,
 * and their callbacks run, on the loop's thread only; the cancel token of a call may be
 * triggered from anywhere (also a signal handler). After a cancel, or after the loop is freed, no
 * callback of that call runs except the one that reports CANCELLED, exactly once.
 *
 * Ownership in callbacks: a result handed to a callback is new (the callback owns it); an error
 * is borrowed until the callback returns (sdkrt_error_copy, to be added to sdkrt/error.h, keeps
 * it).
 */
#ifndef SDKRT_LOOP_H
#define SDKRT_LOOP_H
#include <stdint.h>

#include "sdkrt/base.h"
#include "sdkrt/client.h"
#include "sdkrt/error.h"
#ifdef __cplusplus
extern "C" {
#endif
/* The API stays exported when libsdkrt is built with -fvisibility=hidden. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

typedef struct sdkrt_loop sdkrt_loop;

/* ---- Built-in loop ---- */

/* A new built-in loop in *out (sdkrt_loop_free). */
sdkrt_status sdkrt_loop_new(sdkrt_loop **out, sdkrt_error **err);
/* Run until no call, stream or timer is pending, or sdkrt_loop_stop. Built-in loops only
 * (INVALID_ARGUMENT on an adapted loop: run the program's own loop instead). */
sdkrt_status sdkrt_loop_run(sdkrt_loop *loop, sdkrt_error **err);
/* Wait up to timeout_ms (-1: until something happens) and handle what is ready, once. */
sdkrt_status sdkrt_loop_run_once(sdkrt_loop *loop, long timeout_ms, sdkrt_error **err);
/* Make sdkrt_loop_run return after the current step. Loop thread only. */
void sdkrt_loop_stop(sdkrt_loop *loop);
/* Free a loop (built-in or adapted). Every call still pending is cancelled: its callback runs
 * once with CANCELLED before this returns. Clients naming the loop must not start calls
 * afterwards. NULL is a no-op. */
void sdkrt_loop_free(sdkrt_loop *loop);

/* A one-shot timer on the loop (what follower backoff uses; also for programs). fn runs on the
 * loop thread after ms milliseconds unless the timer is cancelled first. *out (may be NULL when
 * the caller never cancels) is borrowed until fn runs or sdkrt_loop_timer_cancel. */
typedef struct sdkrt_loop_timer sdkrt_loop_timer;
sdkrt_status sdkrt_loop_timer_start(sdkrt_loop_timer **out, sdkrt_loop *loop, long ms,
                                    void (*fn)(void *userdata), void *userdata, sdkrt_error **err);
void sdkrt_loop_timer_cancel(sdkrt_loop_timer *timer);

/* ---- Adapting another loop ---- */

enum { SDKRT_WATCH_READ = 1, SDKRT_WATCH_WRITE = 2 };

/* What an adapter does for the engine; every function is called on the loop thread. */
typedef struct sdkrt_loop_ops {
    /* Watch fd for events (SDKRT_WATCH_READ | SDKRT_WATCH_WRITE; 0: stop watching but keep the
     * slot). *slot is the adapter's own per-fd state: NULL on the first call for an fd, kept by
     * the engine afterwards. Return 0, or -1 when out of memory. */
    int (*watch)(void *self, int fd, int events, void **slot);
    /* Stop watching fd and release its slot (the socket is about to close). */
    void (*unwatch)(void *self, int fd, void *slot);
    /* (Re)arm the engine's single timer to fire after ms (0: as soon as possible); -1 disarms it.
     * Return 0, or -1 when out of memory. */
    int (*timer)(void *self, long ms);
    /* Release the adapter's state (from sdkrt_loop_free). May be NULL. */
    void (*destroy)(void *self);
} sdkrt_loop_ops;

/* A loop whose waiting is done by the program's loop through ops (self passed back, borrowed
 * until destroy). *out is new (sdkrt_loop_free). */
sdkrt_status sdkrt_loop_new_adapted(sdkrt_loop **out, const sdkrt_loop_ops *ops, void *self,
                                    sdkrt_error **err);
/* Called by the adapter: fd is ready for events (SDKRT_WATCH_* bits; an error or hang-up counts
 * as both). */
void sdkrt_loop_ready(sdkrt_loop *loop, int fd, int events);
/* Called by the adapter: the timer armed through ops->timer fired. */
void sdkrt_loop_timeout(sdkrt_loop *loop);

/* ---- Asynchronous calls (the client's options name the loop) ---- */

/* A unary call finished: exactly what sdkrt_client_send gives. resp is new (the callback owns it:
 * sdkrt_response_free) on success, NULL otherwise; err is borrowed. Runs once per call. */
typedef void (*sdkrt_send_done_fn)(void *userdata, sdkrt_response *resp, const sdkrt_error *err);
/* Start a unary call (with the client's retries and timeouts; backoff on loop timers). req and
 * call are copied (call's cancel token stays borrowed until the callback). SDKRT_ERR only when
 * it cannot start (no loop in the client's options, a bad request): then done never runs. */
sdkrt_status sdkrt_client_send_async(sdkrt_client *client, const sdkrt_request *req,
                                     const sdkrt_call_options *call, sdkrt_send_done_fn done,
                                     void *userdata, sdkrt_error **err);

/* What a stream (or a follower) reports. Items and events are borrowed for the callback. */
typedef struct sdkrt_async_stream sdkrt_async_stream;
typedef struct sdkrt_stream_handlers {
    /* A decoded item (typed streams) or an SSE event (raw streams: item is sdkrt_stream_event). */
    void (*on_item)(void *userdata, const void *item);
    /* Typed streams: an item that does not decode (poison: sdkrt_jstream_poison of
     * sdkrt/json.h).
     * NULL: the stream is strict and such an item ends it with MALFORMED_RESPONSE. */
    void (*on_poison)(void *userdata, const void *poison);
    /* Followers: the stream was lost and reopens after event->delay_ms (sdkrt_follow_event). */
    void (*on_reconnect)(void *userdata, const void *event);
    /* The end: err NULL for a clean end, else why (borrowed). Runs exactly once; the stream
     * handle is freed by the runtime right after it returns. */
    void (*on_end)(void *userdata, const sdkrt_error *err);
} sdkrt_stream_handlers;

/* Typed forms, declared in sdkrt/json.h and sdkrt/follow.h next to their blocking twins:
 *   sdkrt_json_call_async(client, req, call, op, done, userdata, err), done receiving
 *       (userdata, void *out (new), int status, const sdkrt_error *err) as sdkrt_json_call_status;
 *   sdkrt_jstream_start(&stream, client, req, call, op, &handlers, userdata, err);
 *   sdkrt_follow_start(&stream, client, op, make_request, seq, opts, &handlers, userdata, err). */

/* The raw form: each SSE event (sdkrt_stream_event, borrowed for the callback) to on_item, then
 * on_end once (as sdkrt_stream_next: NULL for a clean end, else the error; a non-2xx status is
 * UNEXPECTED_STATUS with its body). Arguments and ownership as sdkrt_jstream_start. */
sdkrt_status sdkrt_stream_start(sdkrt_async_stream **out, sdkrt_client *client,
                                const sdkrt_request *req, const sdkrt_call_options *call,
                                const sdkrt_stream_handlers *handlers, void *userdata,
                                sdkrt_error **err);

/* Stop delivering items until resume (backpressure: the socket is no longer read). */
void sdkrt_async_stream_pause(sdkrt_async_stream *s);
void sdkrt_async_stream_resume(sdkrt_async_stream *s);
/* End it now: on_end runs once with CANCELLED (unless it already ran). */
void sdkrt_async_stream_cancel(sdkrt_async_stream *s);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif
