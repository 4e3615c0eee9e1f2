/* sdkrt/cancel.h - cancellation tokens.
 *
 * sdkrt_cancel_trigger is async-signal-safe: it may be called from any thread and from a signal
 * handler (a SIGINT handler for Ctrl-C), since it does only a lock-free atomic exchange and at
 * most one write(2) to the token's self-pipe, and keeps errno. Nothing else here is
 * async-signal-safe (create, reset and free allocate or close). A unary call or stream read that
 * was given the token through sdkrt_call_options wakes as soon as it is triggered (the libcurl
 * transport polls the pipe with its sockets, and checks the flag at least every 20 ms) and
 * returns a CANCELLED error; a token already triggered fails the call before any I/O. One token
 * may serve many calls at once. Freeing a token while a call uses it is undefined.
 */
#ifndef SDKRT_CANCEL_H
#define SDKRT_CANCEL_H

#include "sdkrt/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The API stays exported when libsdkrt is built with -fvisibility=hidden. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

typedef struct sdkrt_cancel sdkrt_cancel;

/* New untriggered token in *out (owned by the caller). SDKRT_ERR when out of memory or out of
 * file descriptors (a token holds a pipe). */
sdkrt_status sdkrt_cancel_new(sdkrt_cancel **out);
/* Trigger (idempotent). Any thread, and async-signal-safe: may be called from a signal handler.
 * NULL is a no-op. */
void sdkrt_cancel_trigger(sdkrt_cancel *c);
/* Whether the token was triggered since creation or the last reset. NULL gives false. */
bool sdkrt_cancel_is_triggered(const sdkrt_cancel *c);
/* Untrigger, so the token can serve new calls (not while a call uses it). NULL is a no-op. */
void sdkrt_cancel_reset(sdkrt_cancel *c);
/* A file descriptor (borrowed; owned by the token) that poll() reports readable while the token
 * is triggered, for callers' own event loops. Never read it. -1 for NULL. */
int sdkrt_cancel_fd(const sdkrt_cancel *c);
/* Sleep up to ms milliseconds, returning early when the token is triggered (at once, not after
 * a polling interval). Returns whether it is triggered. NULL c: a plain sleep, false. */
bool sdkrt_cancel_wait(const sdkrt_cancel *c, long ms);
/* Release. NULL is a no-op. */
void sdkrt_cancel_free(sdkrt_cancel *c);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
