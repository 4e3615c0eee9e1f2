/* test_uv.c - the libuv adapter (sdkrt/adapters/uv.h) through the cases of adapter_cases.h. */
#include <stdlib.h>
#include <uv.h>

#include "adapter_cases.h"
#include "sdkrt/adapters/uv.h"

static void *open_native(void)
{
    uv_loop_t *uv = malloc(sizeof *uv);
    if (uv && uv_loop_init(uv) != 0) {
        free(uv);
        return NULL;
    }
    return uv;
}

static sdkrt_status adapt(sdkrt_loop **out, void *native, sdkrt_error **err)
{
    return sdkrt_uv_loop_new(out, native, err);
}

static void run(void *native)
{
    uv_run(native, UV_RUN_DEFAULT);
}

static void stop(void *native)
{
    uv_stop(native);
}

/* libuv frees closed handles on its next turn (the adapter's memory goes there); after it no
 * handle may be left, or uv_loop_close says EBUSY. */
static void close_native(void *native)
{
    uv_run(native, UV_RUN_NOWAIT);
    ck_assert_int_eq(uv_loop_close(native), 0);
    free(native);
}

static const adapter_driver *driver(void)
{
    static const adapter_driver d = {open_native, adapt, run, stop, close_native};
    return &d;
}
