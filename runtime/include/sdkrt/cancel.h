/* sdkrt/cancel.h - cancellation tokens.
 *
 * A token is triggered from any thread (lock-free atomic; not async-signal-safe to create or
 * free, but triggering is a single atomic store). A unary call or stream read that was given the
 * token through sdkrt_call_options checks it at least every 20 ms while it waits on the network
 * and returns a CANCELLED error; a token already triggered fails the call before any I/O. One
 * token may serve many calls at once. Freeing a token while a call uses it is undefined.
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

/* New untriggered token in *out (owned by the caller). SDKRT_ERR only when out of memory. */
sdkrt_status sdkrt_cancel_new(sdkrt_cancel **out);
/* Trigger (idempotent). Any thread. NULL is a no-op. */
void sdkrt_cancel_trigger(sdkrt_cancel *c);
/* Whether the token was triggered since creation or the last reset. NULL gives false. */
bool sdkrt_cancel_is_triggered(const sdkrt_cancel *c);
/* Untrigger, so the token can serve new calls. NULL is a no-op. */
void sdkrt_cancel_reset(sdkrt_cancel *c);
/* Release. NULL is a no-op. */
void sdkrt_cancel_free(sdkrt_cancel *c);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
