/* Cancellation tokens: one atomic flag. */
#include <stdatomic.h>
#include <stdlib.h>

#include "internal.h"

struct sdkrt_cancel {
    atomic_bool triggered;
};

sdkrt_status sdkrt_cancel_new(sdkrt_cancel **out)
{
    sdkrt_cancel *c = malloc(sizeof *c);
    if (!c) {
        *out = NULL;
        return SDKRT_ERR;
    }
    atomic_init(&c->triggered, false);
    *out = c;
    return SDKRT_OK;
}

void sdkrt_cancel_trigger(sdkrt_cancel *c)
{
    if (c)
        atomic_store(&c->triggered, true);
}

bool sdkrt_cancel_is_triggered(const sdkrt_cancel *c)
{
    return c ? atomic_load(&((sdkrt_cancel *)c)->triggered) : false;
}

void sdkrt_cancel_reset(sdkrt_cancel *c)
{
    if (c)
        atomic_store(&c->triggered, false);
}

void sdkrt_cancel_free(sdkrt_cancel *c)
{
    free(c);
}
