/* opencode_tail: follow one session's durable events and resume where it left off.
 *
 *   opencode_tail BASE_URL SESSION_ID [--after SEQ] [--idle-exit SECONDS] [--max-opens N]
 *
 * Prints "seq SEQ TYPE" for each event. Every durable event carries durable.seq, and
 * oc_session_durable_event_durable() reads it from whichever of the event types arrived. When the
 * server closes the stream or the connection breaks, the tail opens it again with after = the last
 * seq printed, so nothing is printed twice and nothing is missed. An event this SDK cannot decode
 * is reported on stderr with its seq and skipped (oc_session_events_next_event), so a resume never
 * replays it forever. Ctrl-C cancels the read in progress through a cancel token. Five connections
 * in a row without a new event end the tail. With --idle-exit the tail stops after that many
 * seconds without an event and prints "idle after SEQ".
 * The password, if any, comes from OPENCODE_SERVER_PASSWORD (user OPENCODE_SERVER_USERNAME, default
 * "opencode").
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <oc/oc.h>

static oc_cancel *interrupt_token;

static void on_interrupt(int sig)
{
    (void)sig;
    oc_cancel_trigger(interrupt_token); /* one atomic store: safe in a handler */
}

typedef struct tail_options {
    const char *session_id;
    long long after; /* -1: from the start */
    long idle_exit_ms;
    int max_opens;
} tail_options;

typedef enum step { STEP_REOPEN, STEP_DONE, STEP_FAILED } step;

/* One connection: print events until the stream ends, breaks, idles out or is cancelled. */
static step follow(oc_client *client, const tail_options *o, long long *last, int *printed)
{
    char after_text[32];
    oc_session_events_request req = {0};
    req.session_id.value = o->session_id; /* borrowed for the call */
    if (*last >= 0) {
        snprintf(after_text, sizeof after_text, "%lld", *last);
        req.has_after = true;
        req.after = after_text;
    }
    oc_call_options call = OC_CALL_OPTIONS_INIT;
    call.cancel = interrupt_token;
    call.timeout_ms = o->idle_exit_ms; /* for a stream: the longest wait for the next byte */
    oc_session_events_stream *stream = NULL;
    oc_error *err = NULL;
    step result = STEP_REOPEN;
    if (oc_session_events_open(&stream, client, &req, &call, &err) != OC_OK) {
        fprintf(stderr, "open: %s\n", oc_error_message(err));
        oc_error_clear(&err);
        return STEP_FAILED;
    }
    for (;;) {
        oc_session_events_stream_event e;
        oc_next r = oc_session_events_next_event(stream, &e, &err);
        if (r == OC_NEXT_END)
            break; /* the server closed the stream: open it again after the last seq */
        if (r == OC_NEXT_ERROR) {
            oc_reason why = oc_error_reason(err);
            if (why == OC_REASON_TIMEOUT && o->idle_exit_ms > 0) {
                printf("idle after %lld\n", *last);
                result = STEP_DONE;
            } else if (why == OC_REASON_CANCELLED) {
                printf("interrupted after %lld\n", *last);
                result = STEP_DONE;
            } else if (why == OC_REASON_TRANSPORT) {
                fprintf(stderr, "connection lost (%s); resuming\n", oc_error_message(err));
            } else {
                fprintf(stderr, "events: %s\n", oc_error_message(err));
                result = STEP_FAILED;
            }
            oc_error_clear(&err);
            break;
        }
        if (e.kind == OC_STREAM_POISON) { /* did not decode: report it and move past it */
            fprintf(stderr, "seq %lld did not decode: %s\n", e.has_seq ? (long long)e.seq : -1LL,
                    oc_error_message(e.error));
            if (e.has_seq && e.seq > *last)
                *last = e.seq;
            continue;
        }
        const oc_session_durable_event *ev = e.item;
        const oc_durable *durable = oc_session_durable_event_durable(ev);
        const char *type = oc_session_durable_event_tag(ev);
        if (!durable) {
            printf("event without a sequence: %s\n", type ? type : "?");
            continue;
        }
        long long seq = (long long)durable->seq;
        printf("seq %lld %s%s\n", seq, type ? type : "?",
               ev->kind == OC_SESSION_DURABLE_EVENT_UNKNOWN ? " (unknown to this SDK)" : "");
        fflush(stdout);
        if (seq > *last)
            *last = seq;
        (*printed)++;
    }
    oc_session_events_close(stream);
    return result;
}

static int parse_args(int argc, char **argv, const char **url, tail_options *o)
{
    o->after = -1;
    o->idle_exit_ms = 0;
    o->max_opens = 0;
    int positional = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--after") && i + 1 < argc)
            o->after = strtoll(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--idle-exit") && i + 1 < argc)
            o->idle_exit_ms = (long)(strtod(argv[++i], NULL) * 1000.0);
        else if (!strcmp(argv[i], "--max-opens") && i + 1 < argc)
            o->max_opens = (int)strtol(argv[++i], NULL, 10);
        else if (argv[i][0] != '-' && positional == 0 && ++positional)
            *url = argv[i];
        else if (argv[i][0] != '-' && positional == 1 && ++positional)
            o->session_id = argv[i];
        else
            return -1;
    }
    return positional == 2 ? 0 : -1;
}

int main(int argc, char **argv)
{
    const char *url = NULL;
    tail_options o = {0};
    if (parse_args(argc, argv, &url, &o) != 0) {
        fprintf(stderr,
                "usage: %s BASE_URL SESSION_ID [--after SEQ] [--idle-exit SECONDS] "
                "[--max-opens N]\n",
                argv[0]);
        return 2;
    }
    if (oc_global_init() != OC_OK)
        return 1;
    int rc = 1;
    oc_client *client = NULL;
    oc_error *err = NULL;
    if (oc_cancel_new(&interrupt_token, &err) != OC_OK) {
        fprintf(stderr, "cancel token: %s\n", oc_error_message(err));
        oc_error_clear(&err);
        goto done;
    }
    signal(SIGINT, on_interrupt);
    oc_client_options opts = OC_CLIENT_OPTIONS_INIT;
    opts.base_url = url;
    const char *password = getenv("OPENCODE_SERVER_PASSWORD");
    if (password) {
        const char *user = getenv("OPENCODE_SERVER_USERNAME");
        opts.auth = OC_AUTH_BASIC;
        opts.username = user ? user : "opencode";
        opts.password = password;
    }
    if (oc_client_new(&client, &opts, &err) != OC_OK) {
        fprintf(stderr, "client: %s\n", oc_error_message(err));
        oc_error_clear(&err);
        goto done;
    }
    long long last = o.after;
    int printed = 0;
    /* A server that keeps closing or refusing without sending anything new is given up on. */
    for (int opens = 1, idle_opens = 0;; opens++) {
        int before = printed;
        step s = follow(client, &o, &last, &printed);
        if (s == STEP_FAILED)
            goto done;
        if (s == STEP_DONE || (o.max_opens > 0 && opens >= o.max_opens))
            break;
        idle_opens = printed == before ? idle_opens + 1 : 0;
        if (idle_opens >= 5) {
            fprintf(stderr, "giving up: 5 connections in a row brought nothing new\n");
            goto done;
        }
    }
    printf("%d events, last seq %lld\n", printed, last);
    rc = 0;
done:
    signal(SIGINT, SIG_DFL);
    oc_client_free(client);
    oc_cancel_free(interrupt_token);
    oc_global_cleanup();
    return rc;
}
