/* The call layer of unary calls (retry.c): one call's attempts over prepared exchanges, and
 * whether and when to repeat one. No I/O: drivers run each attempt and wait (send.c blocks,
 * engine.c uses loop timers). */
#ifndef SDKRT_CALL_H
#define SDKRT_CALL_H

#include "exchange.h"

/* One unary call under way. */
typedef struct sdkrt_unary_ {
    sdkrt_retry_policy policy; /* defaults filled in */
    sdkrt_keyed_call_ k;       /* the call options with the idempotency key */
    sdkrt_prepared_ p;         /* the request every attempt sends */
    bool repeatable;           /* the method (or a key) allows a repeat */
    int attempt;               /* the attempt under way, from 1 */
    sdkrt_retry_info info;     /* why the last attempt is repeated */
} sdkrt_unary_;

/* Start a call of req with call options (may be NULL) in *u: the policy (the call's, else the
 * client's), the idempotency key, the prepared request. On SDKRT_ERR (INVALID_ARGUMENT,
 * OUT_OF_MEMORY) *u needs no cleanup; else sdkrt_unary_cleanup_. */
sdkrt_status sdkrt_unary_init_(sdkrt_unary_ *u, const sdkrt_client *client,
                               const sdkrt_request *req, const sdkrt_call_options *call,
                               sdkrt_error **err);
/* After an attempt ended with st and r (new) or e (stolen), as sdkrt_exchange_outcome_ gives
 * them: true when the call goes on after *delay_ms (r and e released, on_retry told, attempt
 * advanced); false when this is the call's result (r and e still the caller's). */
bool sdkrt_unary_retry_(sdkrt_unary_ *u, sdkrt_status st, sdkrt_response *r, sdkrt_error *e,
                        long *delay_ms);
/* CANCELLED while waiting to repeat an attempt. Returns SDKRT_ERR. */
sdkrt_status sdkrt_unary_cancelled_waiting_(const sdkrt_unary_ *u, sdkrt_error **err);
void sdkrt_unary_cleanup_(sdkrt_unary_ *u);

#endif
