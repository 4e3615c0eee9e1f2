/* sdkrt/sdkrt.h - umbrella header of libsdkrt, the runtime generated SDKs link against.
 *
 * It does not include sdkrt/sse.h (the SSE parser), sdkrt/follow.h (the durable-stream
 * follower), sdkrt/json.h (the table-driven JSON
 * helpers of generated code) or sdkrt/wire.h (parameter styles, body media types, security);
 * include them directly when needed.
 */
#ifndef SDKRT_SDKRT_H
#define SDKRT_SDKRT_H

#include "sdkrt/base.h"
#include "sdkrt/cancel.h"
#include "sdkrt/client.h"
#include "sdkrt/error.h"
#include "sdkrt/request.h"
#include "sdkrt/response.h"
#include "sdkrt/transport.h"
#include "sdkrt/page.h"

#endif
