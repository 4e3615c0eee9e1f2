/* Event loops (sdkrt/loop.h): the built-in loop (epoll on Linux, poll elsewhere), loops adapted
 * through sdkrt_loop_ops, timers, and libcurl's multi_socket interface on top of them. Both kinds
 * go through the same ops: the built-in loop is an adapter of its own whose waiting is
 * sdkrt_loop_run_once. One multi handle per loop holds every asynchronous transfer, so the loop's
 * connections are reused among its calls and curl's wake-up pair exists once per loop. */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/epoll.h>
#endif

#include "loop_internal.h"

/* What the loop knows about one descriptor. */
typedef struct fdent {
    void *slot;      /* the adapter's */
    int curl_events; /* SDKRT_WATCH_* that curl asked for */
    int cancel_refs; /* ops whose cancel token's pipe this is */
    int events;      /* what ops->watch was last told */
    bool curl;       /* one of curl's sockets */
    bool watching;   /* ops->watch was called (slot valid) */
} fdent;

struct sdkrt_loop {
    const sdkrt_loop_ops *ops;
    void *self;
    bool builtin;
    bool stop;
    bool freeing;
    /* the built-in backend */
    int epfd;      /* -1: poll */
    long long due; /* the single timer armed through the built-in ops, or -1 */
    struct pollfd *pfds;
    size_t pfdcap;
    /* descriptors, indexed by fd */
    fdent *fds;
    size_t fdcap;
    /* timers: a binary heap by (due, seq) */
    sdkrt_loop_timer **heap;
    size_t nheap, heapcap;
    uint64_t seq;
    long long armed;         /* the deadline ops->timer was given; -1 none, -2 unknown */
    long long curl_due;      /* curl's timer, or -1 */
    sdkrt_loop_op_ ops_list; /* sentinels of circular lists: pending ops, ops being ended */
    sdkrt_loop_op_ ending;
    CURLM *multi;
    int running;
    CURL *spare[32]; /* easy handles of finished transfers, for the next ones */
    int nspare;
};

/* ---- descriptors ---- */

static int fd_grow(sdkrt_loop *l, int fd)
{
    if ((size_t)fd < l->fdcap)
        return 0;
    size_t cap = l->fdcap ? l->fdcap : 64;
    while (cap <= (size_t)fd)
        cap *= 2;
    fdent *g = realloc(l->fds, cap * sizeof *g);
    if (!g)
        return -1;
    memset(g + l->fdcap, 0, (cap - l->fdcap) * sizeof *g);
    l->fds = g;
    l->fdcap = cap;
    return 0;
}

/* Tell the adapter what fd is watched for now. */
static int fd_update(sdkrt_loop *l, int fd)
{
    fdent *e = &l->fds[fd];
    if (!e->curl && !e->cancel_refs) {
        if (e->watching)
            l->ops->unwatch(l->self, fd, e->slot);
        memset(e, 0, sizeof *e);
        return 0;
    }
    int want = e->curl_events | (e->cancel_refs ? SDKRT_WATCH_READ : 0);
    if (e->watching && want == e->events)
        return 0;
    if (l->ops->watch(l->self, fd, want, &e->slot) != 0)
        return -1;
    e->watching = true;
    e->events = want;
    return 0;
}

/* ---- timers ---- */

static bool earlier(const sdkrt_loop_timer *a, const sdkrt_loop_timer *b)
{
    return a->due < b->due || (a->due == b->due && a->seq < b->seq);
}

static void heap_set(sdkrt_loop *l, size_t i, sdkrt_loop_timer *t)
{
    l->heap[i] = t;
    t->index = i;
}

static void heap_up(sdkrt_loop *l, size_t i)
{
    sdkrt_loop_timer *t = l->heap[i];
    while (i > 0 && earlier(t, l->heap[(i - 1) / 2])) {
        heap_set(l, i, l->heap[(i - 1) / 2]);
        i = (i - 1) / 2;
    }
    heap_set(l, i, t);
}

static void heap_down(sdkrt_loop *l, size_t i)
{
    sdkrt_loop_timer *t = l->heap[i];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= l->nheap)
            break;
        if (c + 1 < l->nheap && earlier(l->heap[c + 1], l->heap[c]))
            c++;
        if (!earlier(l->heap[c], t))
            break;
        heap_set(l, i, l->heap[c]);
        i = c;
    }
    heap_set(l, i, t);
}

static void heap_remove(sdkrt_loop *l, sdkrt_loop_timer *t)
{
    size_t i = t->index;
    t->index = SIZE_MAX;
    l->nheap--;
    if (i == l->nheap)
        return;
    sdkrt_loop_timer *m = l->heap[l->nheap];
    heap_set(l, i, m);
    heap_down(l, i);
    heap_up(l, m->index);
}

/* Arm the adapter's one timer for the earliest of curl's timer and the loop's timers. */
static int rearm(sdkrt_loop *l)
{
    long long want = l->nheap ? l->heap[0]->due : -1;
    if (l->curl_due >= 0 && (want < 0 || l->curl_due < want))
        want = l->curl_due;
    if (want == l->armed)
        return 0;
    long ms = -1;
    if (want >= 0) {
        long long left = want - sdkrt_now_ms_();
        ms = left <= 0 ? 0 : left > LONG_MAX ? LONG_MAX : (long)left;
    }
    if (l->ops->timer(l->self, ms) != 0) {
        l->armed = -2;
        return -1;
    }
    l->armed = want;
    return 0;
}

void sdkrt_loop_timer_init_(sdkrt_loop_timer *t, sdkrt_loop *loop, void (*fn)(void *userdata),
                            void *userdata)
{
    memset(t, 0, sizeof *t);
    t->loop = loop;
    t->fn = fn;
    t->userdata = userdata;
    t->index = SIZE_MAX;
}

sdkrt_status sdkrt_loop_timer_arm_(sdkrt_loop_timer *t, long ms)
{
    sdkrt_loop *l = t->loop;
    sdkrt_loop_timer_disarm_(t);
    if (l->nheap == l->heapcap) {
        size_t cap = l->heapcap ? 2 * l->heapcap : 16;
        sdkrt_loop_timer **g = realloc(l->heap, cap * sizeof *g);
        if (!g)
            return SDKRT_ERR;
        l->heap = g;
        l->heapcap = cap;
    }
    t->due = sdkrt_now_ms_() + (ms > 0 ? ms : 0);
    t->seq = l->seq++;
    l->heap[l->nheap] = t;
    t->index = l->nheap++;
    heap_up(l, t->index);
    rearm(l); /* an adapter that failed is asked again at the next change */
    return SDKRT_OK;
}

void sdkrt_loop_timer_disarm_(sdkrt_loop_timer *t)
{
    if (t->index == SIZE_MAX)
        return;
    heap_remove(t->loop, t);
    rearm(t->loop);
}

sdkrt_status sdkrt_loop_timer_start(sdkrt_loop_timer **out, sdkrt_loop *loop, long ms,
                                    void (*fn)(void *userdata), void *userdata, sdkrt_error **err)
{
    if (out)
        *out = NULL;
    if (!loop || !fn || ms < 0 || loop->freeing)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "a timer needs a loop, a function and a delay of 0 ms or more");
    sdkrt_loop_timer *t = malloc(sizeof *t);
    if (!t)
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    sdkrt_loop_timer_init_(t, loop, fn, userdata);
    t->owned = true;
    if (sdkrt_loop_timer_arm_(t, ms) != SDKRT_OK) {
        free(t);
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    }
    if (out)
        *out = t;
    return SDKRT_OK;
}

void sdkrt_loop_timer_cancel(sdkrt_loop_timer *t)
{
    if (!t)
        return;
    sdkrt_loop_timer_disarm_(t);
    if (t->owned)
        free(t);
}

/* ---- pending operations ---- */

static void list_init(sdkrt_loop_op_ *s)
{
    s->prev = s->next = s;
}

static void list_push(sdkrt_loop_op_ *s, sdkrt_loop_op_ *op)
{
    op->prev = s->prev;
    op->next = s;
    s->prev->next = op;
    s->prev = op;
}

static void list_unlink(sdkrt_loop_op_ *op)
{
    op->prev->next = op->next;
    op->next->prev = op->prev;
    op->prev = op->next = NULL;
}

/* Count fd (a token's pipe) in or out of what the loop watches. */
static int cancel_ref(sdkrt_loop *l, int fd, int delta)
{
    if (fd < 0)
        return 0;
    if (delta > 0 && fd_grow(l, fd) != 0)
        return -1;
    if ((size_t)fd >= l->fdcap)
        return 0;
    l->fds[fd].cancel_refs += delta;
    if (fd_update(l, fd) != 0) {
        l->fds[fd].cancel_refs -= delta;
        return -1;
    }
    return 0;
}

sdkrt_status sdkrt_loop_op_add_(sdkrt_loop_op_ *op, sdkrt_error **err)
{
    sdkrt_loop *l = op->loop;
    if (l->freeing)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT, "the loop is being freed");
    int fds[2] = {-1, -1};
    int n = sdkrt_cancel_fds_(op->cancel, fds);
    for (int i = 0; i < n; i++) {
        if (cancel_ref(l, fds[i], +1) != 0) {
            if (i == 1)
                cancel_ref(l, fds[0], -1);
            return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY,
                                   "out of memory watching a cancel token");
        }
    }
    list_push(&l->ops_list, op);
    return SDKRT_OK;
}

void sdkrt_loop_op_remove_(sdkrt_loop_op_ *op)
{
    if (!op->next)
        return;
    list_unlink(op);
    int fds[2] = {-1, -1};
    int n = sdkrt_cancel_fds_(op->cancel, fds);
    for (int i = 0; i < n; i++)
        cancel_ref(op->loop, fds[i], -1);
}

/* End every op on the ending list (each removes itself; a callback may add or remove others). */
static void end_ops(sdkrt_loop *l, bool loop_freed)
{
    while (l->ending.next != &l->ending) {
        sdkrt_loop_op_ *op = l->ending.next;
        op->cancel_fn(op, loop_freed);
        if (l->ending.next == op) /* it did not unregister: do it for it */
            sdkrt_loop_op_remove_(op);
    }
}

static void cancel_triggered(sdkrt_loop *l)
{
    sdkrt_loop_op_ *op = l->ops_list.next;
    while (op != &l->ops_list) {
        sdkrt_loop_op_ *next = op->next;
        if (sdkrt_cancel_is_triggered(op->cancel)) {
            /* moved, not unregistered: its token's pipe stays counted until it ends */
            op->prev->next = op->next;
            op->next->prev = op->prev;
            list_push(&l->ending, op);
        }
        op = next;
    }
    end_ops(l, false);
}

/* ---- libcurl ---- */

/* Hand finished transfers to their owners (outside curl's callbacks). */
static void drain(sdkrt_loop *l)
{
    CURLMsg *m;
    int left = 0;
    while ((m = curl_multi_info_read(l->multi, &left))) {
        if (m->msg != CURLMSG_DONE)
            continue;
        sdkrt_xfer_ *x = NULL;
        CURLcode rc = m->data.result;
        curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, (char **)&x);
        if (!x)
            continue;
        x->done = true;
        x->result = rc;
        if (x->on_done)
            x->on_done(x);
    }
}

static int socket_cb(CURL *easy, curl_socket_t s, int what, void *userp, void *socketp)
{
    (void)easy;
    (void)socketp;
    sdkrt_loop *l = userp;
    if (s < 0)
        return 0;
    if (what == CURL_POLL_REMOVE) {
        if ((size_t)s < l->fdcap) {
            l->fds[s].curl = false;
            l->fds[s].curl_events = 0;
            fd_update(l, s);
        }
        return 0;
    }
    if (fd_grow(l, s) != 0)
        return -1;
    fdent *e = &l->fds[s];
    bool was = e->curl;
    int old = e->curl_events;
    e->curl = true;
    e->curl_events = (what & CURL_POLL_IN ? SDKRT_WATCH_READ : 0) |
                     (what & CURL_POLL_OUT ? SDKRT_WATCH_WRITE : 0);
    if (fd_update(l, s) != 0) {
        e->curl = was;
        e->curl_events = old;
        return -1;
    }
    return 0;
}

static int timer_cb(CURLM *multi, long ms, void *userp)
{
    (void)multi;
    sdkrt_loop *l = userp;
    l->curl_due = ms < 0 ? -1 : sdkrt_now_ms_() + ms;
    return rearm(l) == 0 ? 0 : -1;
}

sdkrt_status sdkrt_loop_xfer_add_(sdkrt_loop *loop, sdkrt_xfer_ *x, sdkrt_error **err)
{
#if LIBCURL_VERSION_NUM >= 0x075700
    /* A transfer taken out while its host name is still being resolved would make
       curl_multi_remove_handle join the resolver thread: a cancel (or the loop's end) would then
       wait on the loop thread for as long as the lookup takes. With this curl leaves the thread
       to finish on its own and free what it holds. */
    curl_easy_setopt(x->easy, CURLOPT_QUICK_EXIT, 1L);
#endif
    if (curl_easy_setopt(x->easy, CURLOPT_PRIVATE, (char *)x) != CURLE_OK ||
        curl_multi_add_handle(loop->multi, x->easy) != CURLM_OK)
        return sdkrt_error_set(err, SDKRT_REASON_TRANSPORT, "libcurl could not start the transfer");
    x->added = true;
    return SDKRT_OK;
}

void sdkrt_loop_xfer_remove_(sdkrt_loop *loop, sdkrt_xfer_ *x)
{
    if (!x->added)
        return;
    curl_multi_remove_handle(loop->multi, x->easy);
    x->added = false;
}

CURL *sdkrt_loop_easy_take_(sdkrt_loop *loop)
{
    if (!loop->nspare)
        return curl_easy_init();
    CURL *e = loop->spare[--loop->nspare];
    curl_easy_reset(e);
    return e;
}

void sdkrt_loop_easy_give_(sdkrt_loop *loop, CURL *easy)
{
    if (!easy)
        return;
    if (loop->nspare < (int)(sizeof loop->spare / sizeof loop->spare[0]))
        loop->spare[loop->nspare++] = easy;
    else
        curl_easy_cleanup(easy);
}

void sdkrt_loop_kick_(sdkrt_loop *loop)
{
    curl_multi_socket_action(loop->multi, CURL_SOCKET_TIMEOUT, 0, &loop->running);
    drain(loop);
}

/* ---- what adapters call ---- */

void sdkrt_loop_ready(sdkrt_loop *l, int fd, int events)
{
    if (!l || fd < 0 || (size_t)fd >= l->fdcap)
        return;
    fdent e = l->fds[fd]; /* a copy: the table may move below */
    if (e.curl) {
        int ev = (events & SDKRT_WATCH_READ ? CURL_CSELECT_IN : 0) |
                 (events & SDKRT_WATCH_WRITE ? CURL_CSELECT_OUT : 0);
        curl_multi_socket_action(l->multi, fd, ev, &l->running);
        drain(l);
    }
    if (e.cancel_refs)
        cancel_triggered(l);
}

void sdkrt_loop_timeout(sdkrt_loop *l)
{
    if (!l)
        return;
    l->armed = -2; /* the adapter's timer fired: whatever comes next must be armed afresh */
    long long now = sdkrt_now_ms_();
    uint64_t limit = l->seq; /* timers armed from here on wait for the next turn */
    while (l->nheap && l->heap[0]->due <= now && l->heap[0]->seq < limit) {
        sdkrt_loop_timer *t = l->heap[0];
        heap_remove(l, t);
        void (*fn)(void *) = t->fn;
        void *ud = t->userdata;
        if (t->owned)
            free(t);
        fn(ud);
    }
    if (l->curl_due >= 0 && l->curl_due <= now) {
        l->curl_due = -1;
        curl_multi_socket_action(l->multi, CURL_SOCKET_TIMEOUT, 0, &l->running);
        drain(l);
    }
    rearm(l);
}

/* ---- the built-in loop's own ops ---- */

static int builtin_watch(void *self, int fd, int events, void **slot)
{
    sdkrt_loop *l = self;
#ifdef __linux__
    if (l->epfd >= 0) {
        struct epoll_event ev;
        memset(&ev, 0, sizeof ev);
        ev.events = (events & SDKRT_WATCH_READ ? EPOLLIN : 0u) |
                    (events & SDKRT_WATCH_WRITE ? EPOLLOUT : 0u);
        ev.data.fd = fd;
        int op = *slot ? EPOLL_CTL_MOD : EPOLL_CTL_ADD;
        if (epoll_ctl(l->epfd, op, fd, &ev) != 0) {
            /* the descriptor was closed and its number reused, or is still registered */
            int other = op == EPOLL_CTL_MOD ? EPOLL_CTL_ADD : EPOLL_CTL_MOD;
            if (epoll_ctl(l->epfd, other, fd, &ev) != 0)
                return -1;
        }
    }
#else
    (void)fd;
    (void)events;
#endif
    *slot = l; /* poll reads the loop's table */
    return 0;
}

static void builtin_unwatch(void *self, int fd, void *slot)
{
    (void)slot;
#ifdef __linux__
    sdkrt_loop *l = self;
    if (l->epfd >= 0)
        epoll_ctl(l->epfd, EPOLL_CTL_DEL, fd, NULL); /* fails harmlessly when already closed */
#else
    (void)self;
    (void)fd;
#endif
}

static int builtin_timer(void *self, long ms)
{
    sdkrt_loop *l = self;
    l->due = ms < 0 ? -1 : sdkrt_now_ms_() + ms;
    return 0;
}

static const sdkrt_loop_ops builtin_ops = {builtin_watch, builtin_unwatch, builtin_timer, NULL};

/* ---- loops ---- */

static sdkrt_status loop_new(sdkrt_loop **out, const sdkrt_loop_ops *ops, void *self, bool builtin,
                             bool use_poll, sdkrt_error **err)
{
    *out = NULL;
    if (sdkrt_curl_global_init_(err) != SDKRT_OK)
        return SDKRT_ERR;
    sdkrt_loop *l = calloc(1, sizeof *l);
    if (!l)
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    l->builtin = builtin;
    l->ops = builtin ? &builtin_ops : ops;
    l->self = builtin ? l : self;
    l->epfd = -1;
    l->due = l->armed = l->curl_due = -1;
    list_init(&l->ops_list);
    list_init(&l->ending);
#ifdef __linux__
    if (builtin && !use_poll) {
        l->epfd = epoll_create1(EPOLL_CLOEXEC);
        if (l->epfd < 0) {
            int e = errno;
            free(l);
            return sdkrt_error_set(err, SDKRT_REASON_TRANSPORT, "could not create a loop: %s",
                                   e == EMFILE || e == ENFILE
                                       ? "out of file descriptors (raise the open-files limit)"
                                       : "epoll_create1 failed");
        }
    }
#else
    (void)use_poll;
#endif
    l->multi = curl_multi_init();
    if (!l->multi || curl_multi_setopt(l->multi, CURLMOPT_SOCKETFUNCTION, socket_cb) != CURLM_OK ||
        curl_multi_setopt(l->multi, CURLMOPT_SOCKETDATA, l) != CURLM_OK ||
        curl_multi_setopt(l->multi, CURLMOPT_TIMERFUNCTION, timer_cb) != CURLM_OK ||
        curl_multi_setopt(l->multi, CURLMOPT_TIMERDATA, l) != CURLM_OK) {
        if (l->multi)
            curl_multi_cleanup(l->multi);
        if (l->epfd >= 0)
            close(l->epfd);
        free(l);
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory creating a loop");
    }
    *out = l;
    return SDKRT_OK;
}

sdkrt_status sdkrt_loop_new(sdkrt_loop **out, sdkrt_error **err)
{
    return loop_new(out, NULL, NULL, true, false, err);
}

/* The built-in loop on poll(2) even where epoll exists (tests; not in the public API). */
sdkrt_status sdkrt_loop_new_poll_(sdkrt_loop **out, sdkrt_error **err);
sdkrt_status sdkrt_loop_new_poll_(sdkrt_loop **out, sdkrt_error **err)
{
    return loop_new(out, NULL, NULL, true, true, err);
}

sdkrt_status sdkrt_loop_new_adapted(sdkrt_loop **out, const sdkrt_loop_ops *ops, void *self,
                                    sdkrt_error **err)
{
    *out = NULL;
    if (!ops || !ops->watch || !ops->unwatch || !ops->timer)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "an adapted loop needs watch, unwatch and timer functions");
    return loop_new(out, ops, self, false, false, err);
}

static bool pending(const sdkrt_loop *l)
{
    return l->ops_list.next != &l->ops_list || l->nheap > 0;
}

static int wait_poll(sdkrt_loop *l, int ms, sdkrt_error **err)
{
    size_t n = 0;
    for (size_t fd = 0; fd < l->fdcap; fd++)
        n += l->fds[fd].watching && l->fds[fd].events;
    if (n > l->pfdcap) {
        struct pollfd *g = realloc(l->pfds, n * sizeof *g);
        if (!g)
            return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory"), -1;
        l->pfds = g;
        l->pfdcap = n;
    }
    size_t k = 0;
    for (size_t fd = 0; fd < l->fdcap && k < n; fd++) {
        const fdent *e = &l->fds[fd];
        if (!e->watching || !e->events)
            continue;
        l->pfds[k].fd = (int)fd;
        l->pfds[k].events = (short)((e->events & SDKRT_WATCH_READ ? POLLIN : 0) |
                                    (e->events & SDKRT_WATCH_WRITE ? POLLOUT : 0));
        l->pfds[k++].revents = 0;
    }
    int r = poll(l->pfds, (nfds_t)k, ms);
    if (r < 0)
        return errno == EINTR ? 0
                              : (sdkrt_error_set(err, SDKRT_REASON_TRANSPORT, "poll failed"), -1);
    for (size_t i = 0; i < k && r > 0; i++) {
        short re = l->pfds[i].revents;
        if (!re)
            continue;
        r--;
        bool both = re & (POLLERR | POLLHUP | POLLNVAL);
        sdkrt_loop_ready(l, l->pfds[i].fd,
                         (re & POLLIN || both ? SDKRT_WATCH_READ : 0) |
                             (re & POLLOUT || both ? SDKRT_WATCH_WRITE : 0));
    }
    return 0;
}

sdkrt_status sdkrt_loop_run_once(sdkrt_loop *l, long timeout_ms, sdkrt_error **err)
{
    if (!l || !l->builtin)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "sdkrt_loop_run_once drives built-in loops only");
    long long wait = timeout_ms < 0 ? -1 : timeout_ms;
    if (l->due >= 0) {
        long long left = l->due - sdkrt_now_ms_();
        if (left < 0)
            left = 0;
        if (wait < 0 || left < wait)
            wait = left;
    }
    int ms = wait > INT_MAX ? INT_MAX : (int)wait;
#ifdef __linux__
    if (l->epfd >= 0) {
        struct epoll_event ev[64];
        int n = epoll_wait(l->epfd, ev, 64, ms);
        if (n < 0 && errno != EINTR)
            return sdkrt_error_set(err, SDKRT_REASON_TRANSPORT, "epoll_wait failed");
        for (int i = 0; i < n; i++) {
            unsigned re = ev[i].events;
            bool both = re & (EPOLLERR | EPOLLHUP);
            sdkrt_loop_ready(l, ev[i].data.fd,
                             (re & EPOLLIN || both ? SDKRT_WATCH_READ : 0) |
                                 (re & EPOLLOUT || both ? SDKRT_WATCH_WRITE : 0));
        }
    } else if (wait_poll(l, ms, err) != 0) {
        return SDKRT_ERR;
    }
#else
    if (wait_poll(l, ms, err) != 0)
        return SDKRT_ERR;
#endif
    if (l->due >= 0 && sdkrt_now_ms_() >= l->due) {
        l->due = -1;
        sdkrt_loop_timeout(l);
    }
    return SDKRT_OK;
}

sdkrt_status sdkrt_loop_run(sdkrt_loop *l, sdkrt_error **err)
{
    if (!l || !l->builtin)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "sdkrt_loop_run drives built-in loops only (run the program's own "
                               "loop instead)");
    l->stop = false;
    while (!l->stop && pending(l)) {
        if (sdkrt_loop_run_once(l, -1, err) != SDKRT_OK)
            return SDKRT_ERR;
    }
    return SDKRT_OK;
}

void sdkrt_loop_stop(sdkrt_loop *l)
{
    if (l)
        l->stop = true;
}

void sdkrt_loop_free(sdkrt_loop *l)
{
    if (!l)
        return;
    l->freeing = true;
    while (l->ops_list.next != &l->ops_list) {
        sdkrt_loop_op_ *op = l->ops_list.next;
        op->prev->next = op->next;
        op->next->prev = op->prev;
        list_push(&l->ending, op);
    }
    end_ops(l, true);
    while (l->nheap) {
        sdkrt_loop_timer *t = l->heap[l->nheap - 1];
        heap_remove(l, t);
        if (t->owned)
            free(t);
    }
    curl_multi_cleanup(l->multi); /* closes the connections it kept (through socket_cb) */
    while (l->nspare)
        curl_easy_cleanup(l->spare[--l->nspare]);
    for (size_t fd = 0; fd < l->fdcap; fd++) {
        if (l->fds[fd].watching)
            l->ops->unwatch(l->self, (int)fd, l->fds[fd].slot);
    }
    if (!l->builtin && l->ops->destroy)
        l->ops->destroy(l->self);
#ifdef __linux__
    if (l->epfd >= 0)
        close(l->epfd);
#endif
    free(l->fds);
    free(l->heap);
    free(l->pfds);
    free(l);
}
