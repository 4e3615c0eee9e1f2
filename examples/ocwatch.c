/* ocwatch URL [--page-size N] [--timeout MS]: follows every session of an OpenCode server at
 * once, on one thread, on the generated C SDK's built-in event loop. It lists the sessions there
 * (page by page, without blocking), learns of new ones from the instance-wide event stream
 * (restarted with backoff on a loop timer when lost, listing again then) and runs one follower per
 * session, which reconnects by itself and resumes after the last event it delivered. A stream
 * silent for MS (default 30000) reconnects: a dead peer is noticed. One line each:
 *
 *   SESSION watch from list|events              a follower started
 *   SESSION seq N TYPE                          an event of the session, exactly once, in order
 *   SESSION poison: WHY                         an event that did not decode
 *   SESSION reconnect A after N in D ms: WHY    lost; reopens after seq N (0: none yet)
 *   SESSION end: WHY                            the follower ended (CANCELLED after Ctrl-C)
 *   events reconnect A in D ms: WHY             the instance-wide stream ended or was lost
 *   events end: CANCELLED                       that stream stopped by Ctrl-C
 *   stopped                                     after Ctrl-C, once every callback has run
 * OC_PASSWORD is the server's password (HTTP Basic, user "opencode"); unset: no auth. Ctrl-C
 * cancels all (every callback ends with CANCELLED), then the loop returns and ocwatch exits 0. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oc/oc.h"

static oc_cancel *stop; /* triggered by Ctrl-C: trigger is async-signal-safe */

static void on_sigint(int sig)
{
    (void)sig, oc_cancel_trigger(stop);
}

static void report(const char *what, oc_error **err) /* and clear *err */
{
    fprintf(stderr, "ocwatch: %s: %s\n", what, oc_error_message(*err));
    oc_error_clear(err);
}

typedef struct session {
    struct session *next;
    oc_session_events_request req; /* borrowed by the follower until its on_end */
    char id[];
} session;

typedef struct watch {
    oc_client *client;
    oc_loop *loop;
    session *sessions;       /* every session followed, freed after the loop returns */
    oc_async_stream *events; /* the instance-wide stream while it runs */
    unsigned attempt;        /* its restarts in a row */
    double page_size;        /* 0: the server's */
} watch;

static void on_item(void *ud, const oc_session_durable_event *item)
{
    const oc_durable *d = oc_session_durable_event_durable(item);
    printf("%s seq %lld %s\n", ((session *)ud)->id, d ? (long long)d->seq : -1LL,
           oc_session_durable_event_tag(item));
}

static void on_poison(void *ud, const oc_stream_poison *p)
{
    printf("%s poison: %s\n", ((session *)ud)->id, oc_error_message(p->error));
}

static void on_reconnect(void *ud, const oc_follow_event *ev)
{
    printf("%s reconnect %u after %lld in %ld ms: %s\n", ((session *)ud)->id, ev->attempt,
           ev->has_after ? (long long)ev->after : 0LL, ev->delay_ms, oc_error_message(ev->error));
}

static void on_end(void *ud, const oc_error *err)
{
    printf("%s end: %s\n", ((session *)ud)->id, err ? oc_error_reason_name(err) : "END");
}

/* One follower per session, started once; "from" says how it was found. */
static void follow(watch *w, const char *id, const char *from)
{
    static const oc_session_events_handlers h = {on_item, on_poison, on_reconnect, on_end};
    oc_follow_options fo = OC_FOLLOW_OPTIONS_INIT;
    oc_error *err = NULL;
    for (session *s = w->sessions; s; s = s->next)
        if (!strcmp(s->id, id))
            return;
    size_t n = strlen(id) + 1;
    session *s = calloc(1, sizeof *s + n);
    if (!s) {
        fprintf(stderr, "ocwatch: out of memory\n");
        return;
    }
    memcpy(s->id, id, n);
    s->req.session_id.value = s->id;
    fo.max_delay_ms = 2000;                 /* wait at most 2 s between reconnects */
    s->next = w->sessions, w->sessions = s; /* freed after the loop, started or not */
    if (oc_session_events_follow_start(NULL, w->client, &s->req, &fo, &h, s, &err) == OC_OK)
        printf("%s watch from %s\n", id, from);
    else
        report(id, &err);
}

static void on_page(void *ud, oc_session_list_page *page, const oc_error *err)
{
    watch *w = ud;
    oc_error *e = NULL;
    if (!page) {
        fprintf(stderr, "ocwatch: list: %s\n", oc_error_message(err));
        if (w->events) /* list again when the instance stream restarts */
            oc_async_stream_cancel(w->events);
        return;
    }
    for (size_t i = 0; i < page->count; i++)
        follow(w, page->items[i].id.value, "list");
    if (page->next && page->count > 0 && /* OpenCode: an empty page is the end */
        oc_session_list_continue_async(w->client, page->next, NULL, on_page, w, &e) != OC_OK)
        report("list", &e);
    oc_session_list_page_free(page);
}

static void on_event(void *ud, const oc_v2_event *ev)
{
    watch *w = ud;
    w->attempt = 0;
    if (ev->kind == OC_V2_EVENT_SESSION_CREATED)
        follow(w, ev->u.session_created.data.session_id.value, "events");
}

static void discover(void *ud);

static void on_events_end(void *ud, const oc_error *err)
{
    watch *w = ud;
    oc_error *e = NULL;
    w->events = NULL;
    if (oc_cancel_is_triggered(stop)) {
        printf("events end: %s\n", err ? oc_error_reason_name(err) : "END");
        return;
    }
    long delay = 250L << (w->attempt < 3 ? w->attempt : 3); /* 250 ms, doubling up to 2 s */
    printf("events reconnect %u in %ld ms: %s\n", ++w->attempt, delay,
           err ? oc_error_message(err) : "closed by the server");
    if (oc_loop_timer_start(NULL, w->loop, delay, discover, w, &e) != OC_OK)
        report("timer", &e);
}

/* Subscribe first, then list: a session made in between is seen by one or both, and follow()
 * starts it once. Strict stream (on_poison NULL): an event that does not decode restarts it. */
static void discover(void *ud)
{
    static const oc_event_subscribe_handlers h = {on_event, NULL, NULL, on_events_end};
    watch *w = ud;
    oc_session_list_request req = {0};
    oc_error *err = NULL;
    req.has_limit = w->page_size > 0;
    req.limit = w->page_size;
    if (oc_event_subscribe_start(&w->events, w->client, NULL, &h, w, &err) != OC_OK ||
        oc_session_list_page_async(w->client, &req, NULL, on_page, w, &err) != OC_OK)
        report("discover", &err);
}

int main(int argc, char **argv)
{
    oc_client_options opts = OC_CLIENT_OPTIONS_INIT;
    watch w = {0};
    oc_error *err = NULL;
    int rc = 1;
    opts.idle_timeout_ms = opts.head_timeout_ms = 30000;
    for (int i = 2; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--page-size"))
            w.page_size = strtod(argv[i + 1], NULL);
        else if (!strcmp(argv[i], "--timeout"))
            opts.idle_timeout_ms = opts.head_timeout_ms = strtol(argv[i + 1], NULL, 10);
    }
    if (argc < 2 || argc % 2) {
        fprintf(stderr, "usage: ocwatch URL [--page-size N] [--timeout MS]\n");
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0); /* one line per event, as it happens */
    opts.base_url = argv[1];
    opts.username = "opencode"; /* the server's user, with OC_PASSWORD (unset: no auth) */
    if (oc_cancel_new(&stop, &err) != OC_OK || oc_loop_new(&w.loop, &err) != OC_OK)
        goto done;
    opts.cancel = stop; /* Ctrl-C: every call, stream and follower of the client */
    opts.loop = w.loop;
    if (oc_client_new_from_env(&w.client, &opts, &err) != OC_OK)
        goto done;
    signal(SIGINT, on_sigint);
    discover(&w);
    rc = oc_loop_run(w.loop, &err) == OC_OK && oc_cancel_is_triggered(stop) ? 0 : 1;
    if (rc == 0)
        printf("stopped\n");
done:
    if (err)
        report("start", &err);
    oc_client_free(w.client);
    oc_loop_free(w.loop);
    for (session *s = w.sessions, *next; s; s = next)
        next = s->next, free(s);
    oc_cancel_free(stop);
    return rc;
}
