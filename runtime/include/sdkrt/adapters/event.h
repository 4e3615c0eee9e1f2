/* sdkrt/adapters/event.h - libsdkrt's loop engine on a libevent event_base.
 *
 * The program keeps running its own event_base; calls and streams of clients whose options name
 * the returned loop are driven by it (one persistent event per socket, one timer event), on the
 * base's thread. Link with `pkg-config --libs sdkrt-event` (libsdkrt_event.a, libsdkrt,
 * libevent_core); libsdkrt itself does not depend on libevent.
 *
 *   struct event_base *base = event_base_new();
 *   sdkrt_loop *loop = NULL;
 *   if (sdkrt_event_loop_new(&loop, base, &err) != SDKRT_OK) ...
 *   opts.loop = loop;                     (sdkrt_client_options, or the SDK's client options)
 *   ... start async calls ..., then event_base_dispatch(base);
 *   sdkrt_loop_free(loop);                (pending calls report CANCELLED)
 *   event_base_free(base);
 *
 * The base must outlive the sdkrt loop.
 */
#ifndef SDKRT_ADAPTERS_EVENT_H
#define SDKRT_ADAPTERS_EVENT_H

#include "sdkrt/error.h"
#include "sdkrt/loop.h"

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

struct event_base;

/* A loop driven by base in *out: new (sdkrt_loop_free); base is borrowed for the loop's life.
 * INVALID_ARGUMENT when out or base is NULL, OUT_OF_MEMORY. Call on the base's thread. */
sdkrt_status sdkrt_event_loop_new(sdkrt_loop **out, struct event_base *base, sdkrt_error **err);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif
