/* The loop's internals for the engine (engine.c) and other asynchronous work (streams): timers
 * embedded in their owner, operations that a cancel token or the loop's end stops, and the loop's
 * libcurl multi handle. Everything here runs on the loop thread. */
#ifndef SDKRT_LOOP_INTERNAL_H
#define SDKRT_LOOP_INTERNAL_H

#include <stdint.h>

#include "curl_xfer.h"
#include "sdkrt/loop.h"

struct sdkrt_loop_timer {
    sdkrt_loop *loop;
    long long due; /* monotonic ms */
    uint64_t seq;  /* order among timers due at once; timers armed while timers run wait */
    size_t index;  /* in the loop's heap, or SIZE_MAX when not armed */
    void (*fn)(void *userdata);
    void *userdata;
    bool owned; /* made by sdkrt_loop_timer_start: freed when it runs or is cancelled */
};

/* A timer inside its owner (not armed). */
void sdkrt_loop_timer_init_(sdkrt_loop_timer *t, sdkrt_loop *loop, void (*fn)(void *userdata),
                            void *userdata);
/* (Re)arm t to run after ms (0: on the loop's next turn). SDKRT_ERR when out of memory. */
sdkrt_status sdkrt_loop_timer_arm_(sdkrt_loop_timer *t, long ms);
/* Disarm (no-op when not armed). */
void sdkrt_loop_timer_disarm_(sdkrt_loop_timer *t);

/* Something pending on a loop (a call, a stream): the loop keeps it while it runs, ends it when
 * its cancel token fires (the token's descriptors are watched while it is registered) and when
 * the loop is freed. */
typedef struct sdkrt_loop_op_ {
    struct sdkrt_loop_op_ *prev, *next; /* in one of the loop's lists */
    sdkrt_loop *loop;
    const sdkrt_cancel *cancel; /* may be NULL */
    /* End the op with CANCELLED (its token fired, or loop_freed: the loop is being freed):
     * unregister it (sdkrt_loop_op_remove_) and report once. */
    void (*cancel_fn)(struct sdkrt_loop_op_ *op, bool loop_freed);
} sdkrt_loop_op_;

/* Register op (loop, cancel and cancel_fn set by the caller). OUT_OF_MEMORY when the token's
 * descriptor cannot be watched. */
sdkrt_status sdkrt_loop_op_add_(sdkrt_loop_op_ *op, sdkrt_error **err);
/* Unregister (no-op when not registered). */
void sdkrt_loop_op_remove_(sdkrt_loop_op_ *op);

/* Add a transfer set up by sdkrt_xfer_setup_ to the loop's multi handle; x->on_done runs (on the
 * loop, outside curl's callbacks) when it ends, with x->done and x->result set. */
sdkrt_status sdkrt_loop_xfer_add_(sdkrt_loop *loop, sdkrt_xfer_ *x, sdkrt_error **err);
/* Take it out again (before or after it ended; no-op when not added). */
void sdkrt_loop_xfer_remove_(sdkrt_loop *loop, sdkrt_xfer_ *x);
/* An easy handle for a transfer on the loop (a reset one finished earlier, else new; NULL when out
 * of memory), and giving one back when its transfer is over (out of the multi handle). */
CURL *sdkrt_loop_easy_take_(sdkrt_loop *loop);
void sdkrt_loop_easy_give_(sdkrt_loop *loop, CURL *easy);
/* Let curl work on a transfer resumed with curl_easy_pause (its socket may have no event). */
void sdkrt_loop_kick_(sdkrt_loop *loop);

#endif
