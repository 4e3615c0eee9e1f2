/* uv.c - sdkrt_loop_ops on a libuv loop (sdkrt/adapters/uv.h): a uv_poll_t per socket the engine
 * watches and one uv_timer_t for the engine's timer. libuv closes handles asynchronously, so a
 * watch's memory and, at the end, the adapter's are released in close callbacks. */
#include "sdkrt/adapters/uv.h"

#include <stdlib.h>
#include <uv.h>

typedef struct uv_adapter {
    uv_loop_t *uv;
    sdkrt_loop *loop;
    uv_timer_t timer;
    int timer_ready; /* uv_timer_init done: destroy closes it */
} uv_adapter;

typedef struct uv_watch {
    uv_poll_t poll; /* first: the close callback gets it as the whole */
    uv_adapter *a;
    int fd;
} uv_watch;

static void on_poll(uv_poll_t *h, int status, int events)
{
    uv_watch *w = h->data;
    int ready = 0;
    if (status < 0) /* an error on the socket: let libcurl find out which */
        ready = SDKRT_WATCH_READ | SDKRT_WATCH_WRITE;
    if (events & UV_READABLE)
        ready |= SDKRT_WATCH_READ;
    if (events & UV_WRITABLE)
        ready |= SDKRT_WATCH_WRITE;
    sdkrt_loop_ready(w->a->loop, w->fd, ready);
}

static void on_timer(uv_timer_t *t)
{
    uv_adapter *a = t->data;
    sdkrt_loop_timeout(a->loop);
}

static void free_handle(uv_handle_t *h)
{
    free(h->data);
}

static int watch(void *self, int fd, int events, void **slot)
{
    uv_adapter *a = self;
    uv_watch *w = *slot;
    if (!w) {
        w = calloc(1, sizeof *w);
        if (!w)
            return -1;
        if (uv_poll_init_socket(a->uv, &w->poll, fd) != 0) { /* fails before the handle exists */
            free(w);
            return -1;
        }
        w->poll.data = w;
        w->a = a;
        w->fd = fd;
        *slot = w;
    }
    int uv_events = (events & SDKRT_WATCH_READ ? UV_READABLE : 0) |
                    (events & SDKRT_WATCH_WRITE ? UV_WRITABLE : 0);
    if (!uv_events)
        return uv_poll_stop(&w->poll) == 0 ? 0 : -1;
    return uv_poll_start(&w->poll, uv_events, on_poll) == 0 ? 0 : -1;
}

static void unwatch(void *self, int fd, void *slot)
{
    (void)self;
    (void)fd;
    uv_watch *w = slot;
    if (!w)
        return;
    uv_poll_stop(&w->poll); /* off the fd now: the socket closes right after */
    uv_close((uv_handle_t *)&w->poll, free_handle);
}

static int timer(void *self, long ms)
{
    uv_adapter *a = self;
    if (ms < 0)
        return uv_timer_stop(&a->timer) == 0 ? 0 : -1;
    return uv_timer_start(&a->timer, on_timer, (uint64_t)ms, 0) == 0 ? 0 : -1;
}

static void destroy(void *self)
{
    uv_adapter *a = self;
    if (!a->timer_ready) {
        free(a);
        return;
    }
    uv_timer_stop(&a->timer);
    uv_close((uv_handle_t *)&a->timer, free_handle); /* frees a on the uv loop's next turn */
}

static const sdkrt_loop_ops uv_ops = {watch, unwatch, timer, destroy};

sdkrt_status sdkrt_uv_loop_new(sdkrt_loop **out, uv_loop_t *uv, sdkrt_error **err)
{
    if (!out || !uv)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "sdkrt_uv_loop_new: out and uv are required");
    *out = NULL;
    uv_adapter *a = calloc(1, sizeof *a);
    if (!a)
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    a->uv = uv;
    if (sdkrt_loop_new_adapted(&a->loop, &uv_ops, a, err) != SDKRT_OK) {
        free(a);
        return SDKRT_ERR;
    }
    if (uv_timer_init(uv, &a->timer) != 0) {
        sdkrt_loop_free(a->loop); /* destroy frees a */
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "uv_timer_init failed");
    }
    a->timer.data = a;
    a->timer_ready = 1;
    *out = a->loop;
    return SDKRT_OK;
}
