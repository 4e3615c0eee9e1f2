/* sdkrt/base.h - status codes, version, global init and the header pair shared by all of libsdkrt.
 *
 * libsdkrt knows no particular API; generated SDKs link it.
 */
#ifndef SDKRT_BASE_H
#define SDKRT_BASE_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The API stays exported when libsdkrt is built with -fvisibility=hidden. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

#define SDKRT_VERSION_MAJOR 0
#define SDKRT_VERSION_MINOR 5
#define SDKRT_VERSION_PATCH 0

/* Every fallible function returns SDKRT_OK or SDKRT_ERR; on SDKRT_ERR the function's
 * `sdkrt_error **err` out parameter (when not NULL) receives a new error owned by the caller.
 * *err must be NULL on entry; the library never frees or overwrites a non-NULL *err (the first
 * error is kept, the new one discarded: GLib's GError rules, see sdkrt/error.h). */
typedef enum sdkrt_status { SDKRT_OK = 0, SDKRT_ERR = -1 } sdkrt_status;

/* 1 when the linked runtime serves code built against headers of version major.minor: same major,
 * and a runtime minor >= the requested minor. 0 otherwise. Generated code calls this at client
 * creation in addition to its compile-time #if against SDKRT_VERSION_*. */
int sdkrt_version_check(int major, int minor);

/* The runtime's version as "MAJOR.MINOR.PATCH" (static string). */
const char *sdkrt_version_string(void);

/* The one global initialisation (curl_global_init). Optional: the first libcurl client (or
 * sdkrt_curl_transport_new) does it once, thread-safely, when the program did not; libcurl then
 * stays initialised until the process exits. A program that wants it at a moment of its own
 * calls it from the main thread before other threads start, and sdkrt_global_cleanup after
 * every client is freed and every other thread has stopped. Calls are counted: N inits need N
 * cleanups. The in-memory transport needs no global init, but calling it is harmless. */
sdkrt_status sdkrt_global_init(void);
void sdkrt_global_cleanup(void);

/* A borrowed header name/value pair (used in options, call options and transport requests). */
typedef struct sdkrt_header {
    const char *name;
    const char *value;
} sdkrt_header;

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
