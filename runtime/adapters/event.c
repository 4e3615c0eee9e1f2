/* event.c - sdkrt_loop_ops on a libevent event_base (sdkrt/adapters/event.h): one persistent
 * event per socket the engine watches, re-assigned when the events it wants change (as
 * hiredis's libevent adapter does), and one timer event. */
#include "sdkrt/adapters/event.h"

#include <event2/event.h>
#include <stdlib.h>

typedef struct ev_adapter {
    struct event_base *base;
    sdkrt_loop *loop;
    struct event *timer;
} ev_adapter;

typedef struct ev_watch {
    struct event *ev;
    ev_adapter *a;
    int events; /* SDKRT_WATCH_* the event is added for (0: not added) */
} ev_watch;

static void on_fd(evutil_socket_t fd, short what, void *arg)
{
    ev_watch *w = arg;
    int ready = 0;
    if (what & EV_READ)
        ready |= SDKRT_WATCH_READ;
    if (what & EV_WRITE)
        ready |= SDKRT_WATCH_WRITE;
    sdkrt_loop_ready(w->a->loop, (int)fd, ready);
}

static void on_timer(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    ev_adapter *a = arg;
    sdkrt_loop_timeout(a->loop);
}

static int watch(void *self, int fd, int events, void **slot)
{
    ev_adapter *a = self;
    ev_watch *w = *slot;
    if (!w) {
        w = calloc(1, sizeof *w);
        if (!w)
            return -1;
        w->ev = event_new(a->base, fd, EV_PERSIST, on_fd, w);
        if (!w->ev) {
            free(w);
            return -1;
        }
        w->a = a;
        *slot = w;
    }
    if (events == w->events)
        return 0;
    event_del(w->ev);
    w->events = 0;
    if (!events)
        return 0;
    short what = (short)((events & SDKRT_WATCH_READ ? EV_READ : 0) |
                         (events & SDKRT_WATCH_WRITE ? EV_WRITE : 0) | EV_PERSIST);
    if (event_assign(w->ev, a->base, fd, what, on_fd, w) != 0 || event_add(w->ev, NULL) != 0)
        return -1;
    w->events = events;
    return 0;
}

static void unwatch(void *self, int fd, void *slot)
{
    (void)self;
    (void)fd;
    ev_watch *w = slot;
    if (!w)
        return;
    event_free(w->ev); /* deletes it first; safe from its own callback */
    free(w);
}

static int timer(void *self, long ms)
{
    ev_adapter *a = self;
    if (ms < 0)
        return event_del(a->timer) == 0 ? 0 : -1;
    struct timeval tv = {(time_t)(ms / 1000), (suseconds_t)(ms % 1000) * 1000};
    return event_add(a->timer, &tv) == 0 ? 0 : -1;
}

static void destroy(void *self)
{
    ev_adapter *a = self;
    if (a->timer)
        event_free(a->timer);
    free(a);
}

static const sdkrt_loop_ops event_ops = {watch, unwatch, timer, destroy};

sdkrt_status sdkrt_event_loop_new(sdkrt_loop **out, struct event_base *base, sdkrt_error **err)
{
    if (!out || !base)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "sdkrt_event_loop_new: out and base are required");
    *out = NULL;
    ev_adapter *a = calloc(1, sizeof *a);
    if (!a)
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    a->base = base;
    a->timer = evtimer_new(base, on_timer, a);
    if (!a->timer) {
        free(a);
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    }
    if (sdkrt_loop_new_adapted(&a->loop, &event_ops, a, err) != SDKRT_OK) {
        event_free(a->timer);
        free(a);
        return SDKRT_ERR;
    }
    *out = a->loop;
    return SDKRT_OK;
}
