/* Cancellation tokens: a lock-free atomic flag and a self-pipe. The flag is the truth; the pipe's
 * read end is readable while the token is triggered, so a thread waiting in poll() (the libcurl
 * transport, a follower's backoff) wakes at once. Triggering does only an atomic exchange and at
 * most one write(2), both async-signal-safe, so a signal handler may trigger. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

#if ATOMIC_BOOL_LOCK_FREE != 2
#error "sdkrt_cancel_trigger needs a lock-free atomic_bool to be async-signal-safe"
#endif

static int set_flags(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    int fd_fl = fcntl(fd, F_GETFD);
    if (fl < 0 || fd_fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0 ||
        fcntl(fd, F_SETFD, fd_fl | FD_CLOEXEC) < 0)
        return -1;
    return 0;
}

sdkrt_status sdkrt_cancel_new(sdkrt_cancel **out)
{
    *out = NULL;
    sdkrt_cancel *c = malloc(sizeof *c);
    int fds[2];
    if (!c)
        return SDKRT_ERR;
    if (pipe(fds) != 0) {
        free(c);
        return SDKRT_ERR;
    }
    if (set_flags(fds[0]) != 0 || set_flags(fds[1]) != 0) {
        close(fds[0]);
        close(fds[1]);
        free(c);
        return SDKRT_ERR;
    }
    memset(c, 0, sizeof *c);
    atomic_init(&c->triggered, false);
    c->rd = fds[0];
    c->wr = fds[1];
    *out = c;
    return SDKRT_OK;
}

/* One byte into the pipe; errno is kept (a signal handler must not change it). A full pipe
 * (EAGAIN) already wakes every reader. */
static void wake(const sdkrt_cancel *c)
{
    int saved = errno;
    ssize_t r;
    do
        r = write(c->wr, "!", 1);
    while (r < 0 && errno == EINTR);
    errno = saved;
}

void sdkrt_cancel_trigger(sdkrt_cancel *c)
{
    if (c && !atomic_exchange(&c->triggered, true))
        wake(c);
}

bool sdkrt_cancel_is_triggered(const sdkrt_cancel *c)
{
    if (c && c->either)
        return sdkrt_cancel_is_triggered(c->pair[0]) || sdkrt_cancel_is_triggered(c->pair[1]);
    return c ? atomic_load(&((sdkrt_cancel *)c)->triggered) : false;
}

const sdkrt_cancel *sdkrt_cancel_either_(sdkrt_cancel *view, const sdkrt_cancel *a,
                                         const sdkrt_cancel *b)
{
    if (!a || !b || a == b)
        return a ? a : b;
    memset(view, 0, sizeof *view);
    view->either = true;
    view->rd = view->wr = -1;
    view->pair[0] = a;
    view->pair[1] = b;
    return view;
}

int sdkrt_cancel_fds_(const sdkrt_cancel *c, int fds[2])
{
    if (c && c->either) {
        fds[0] = sdkrt_cancel_fd(c->pair[0]);
        fds[1] = sdkrt_cancel_fd(c->pair[1]);
        return 2;
    }
    fds[0] = sdkrt_cancel_fd(c);
    return fds[0] >= 0 ? 1 : 0;
}

void sdkrt_cancel_reset(sdkrt_cancel *c)
{
    if (!c || !atomic_exchange(&c->triggered, false))
        return;
    char buf[64];
    int saved = errno;
    for (;;) {
        ssize_t r = read(c->rd, buf, sizeof buf);
        if (r > 0 || (r < 0 && errno == EINTR))
            continue;
        break;
    }
    errno = saved;
    /* A trigger that came between the exchange and the drain lost its byte: put it back. */
    if (atomic_load(&c->triggered))
        wake(c);
}

int sdkrt_cancel_fd(const sdkrt_cancel *c)
{
    if (c && c->either)
        return sdkrt_cancel_fd(c->pair[0]);
    return c ? c->rd : -1;
}

bool sdkrt_cancel_wait(const sdkrt_cancel *c, long ms)
{
    long long end = sdkrt_now_ms_() + (ms > 0 ? ms : 0);
    for (;;) {
        if (sdkrt_cancel_is_triggered(c))
            return true;
        long long left = end - sdkrt_now_ms_();
        if (left <= 0)
            return false;
        if (left > 60000)
            left = 60000;
        int fds[2] = {-1, -1};
        sdkrt_cancel_fds_(c, fds);
        struct pollfd p[2] = {{fds[0], POLLIN, 0}, {fds[1], POLLIN, 0}};
        /* poll ignores a negative fd: without a token this is a plain sleep */
        if (poll(p, 2, (int)left) < 0 && errno != EINTR)
            return sdkrt_cancel_is_triggered(c);
    }
}

void sdkrt_cancel_free(sdkrt_cancel *c)
{
    if (!c)
        return;
    close(c->rd);
    close(c->wr);
    free(c);
}
