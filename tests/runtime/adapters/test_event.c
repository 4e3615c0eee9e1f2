/* test_event.c - the libevent adapter (sdkrt/adapters/event.h) through the cases of
 * adapter_cases.h. */
#include <event2/event.h>

#include "adapter_cases.h"
#include "sdkrt/adapters/event.h"

static void *open_native(void)
{
    return event_base_new();
}

static sdkrt_status adapt(sdkrt_loop **out, void *native, sdkrt_error **err)
{
    return sdkrt_event_loop_new(out, native, err);
}

static void run(void *native)
{
    event_base_dispatch(native);
}

static void stop(void *native)
{
    event_base_loopbreak(native);
}

static void close_native(void *native)
{
    event_base_free(native);
}

static const adapter_driver *driver(void)
{
    static const adapter_driver d = {open_native, adapt, run, stop, close_native};
    return &d;
}
