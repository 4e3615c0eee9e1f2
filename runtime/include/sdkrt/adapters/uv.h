/* sdkrt/adapters/uv.h - libsdkrt's loop engine on a libuv loop.
 *
 * The program keeps running its own uv_loop_t; calls and streams of clients whose options name
 * the returned loop are driven by it (sockets through uv_poll_t, the engine's timer through a
 * uv_timer_t), on the uv loop's thread. Link with `pkg-config --libs sdkrt-uv` (libsdkrt_uv.a,
 * libsdkrt, libuv); libsdkrt itself does not depend on libuv.
 *
 *   uv_loop_t *uv = uv_default_loop();
 *   sdkrt_loop *loop = NULL;
 *   if (sdkrt_uv_loop_new(&loop, uv, &err) != SDKRT_OK) ...
 *   opts.loop = loop;                     (sdkrt_client_options, or the SDK's client options)
 *   ... start async calls ..., then uv_run(uv, UV_RUN_DEFAULT);
 *   sdkrt_loop_free(loop);                (pending calls report CANCELLED)
 *   uv_run(uv, UV_RUN_NOWAIT);            (libuv closes handles on its next turn: the adapter's
 *                                          last memory is released there)
 *
 * The uv loop must outlive the sdkrt loop and run at least once after sdkrt_loop_free.
 */
#ifndef SDKRT_ADAPTERS_UV_H
#define SDKRT_ADAPTERS_UV_H

#include "sdkrt/error.h"
#include "sdkrt/loop.h"

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* uv_loop_t, without <uv.h> (which needs POSIX feature macros under -std=c11). */
struct uv_loop_s;

/* A loop driven by uv (a uv_loop_t *) in *out: new (sdkrt_loop_free); uv is borrowed for the
 * loop's life. INVALID_ARGUMENT when out or uv is NULL, OUT_OF_MEMORY. Call on the uv loop's
 * thread. */
sdkrt_status sdkrt_uv_loop_new(sdkrt_loop **out, struct uv_loop_s *uv, sdkrt_error **err);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif
