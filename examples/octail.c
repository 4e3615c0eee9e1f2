/* octail: a small OpenCode client on the generated C SDK.
 *
 *   octail URL new                       create a session, print its id
 *   octail URL ls                        list every session (all pages)
 *   octail URL say SESSION TEXT          admit a prompt (no agent run)
 *   octail URL log SESSION               print every message of a session
 *   octail URL tail SESSION [--after SEQ] [--count N]
 *                                        follow the session's durable events: resumes after the
 *                                        last sequence on its own when the connection breaks or
 *                                        the server restarts; Ctrl-C stops it
 *
 * OC_PASSWORD is the server's password (HTTP Basic, user "opencode"; OC_USERNAME another
 * user); unset: no auth. Ctrl-C stops any command. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oc/oc.h"

static oc_cancel *stop; /* triggered by Ctrl-C: trigger is async-signal-safe */

static void on_sigint(int sig)
{
    (void)sig;
    oc_cancel_trigger(stop);
}

static int fail(const char *what, oc_error **err)
{
    fprintf(stderr, "octail: %s: %s\n", what, oc_error_message(*err));
    oc_error_clear(err);
    return 1;
}

static int cmd_new(oc_client *client)
{
    oc_session_v2_info *s = NULL;
    oc_error *err = NULL;
    oc_session_create_request req = {0};
    if (oc_session_create(client, &req, NULL, &s, &err) != OC_OK)
        return fail("new", &err);
    printf("%s\n", s->id.value);
    oc_session_v2_info_free(s);
    return 0;
}

static int cmd_ls(oc_client *client)
{
    oc_session_list_iter *it = NULL;
    const oc_session_v2_info *s = NULL;
    oc_error *err = NULL;
    oc_next r;
    if (oc_session_list_iter_new(&it, client, NULL, NULL, &err) != OC_OK)
        return fail("ls", &err);
    while ((r = oc_session_list_iter_next(it, &s, &err)) == OC_NEXT_ITEM)
        printf("%s %s\n", s->id.value, s->title);
    oc_session_list_iter_free(it);
    return r == OC_NEXT_ERROR ? fail("ls", &err) : 0;
}

static int cmd_say(oc_client *client, const char *session, const char *text)
{
    oc_session_prompt_request req = {0};
    oc_session_input_admitted *a = NULL;
    oc_error *err = NULL;
    req.session_id.value = session;
    req.body.prompt.text = text;
    req.body.has_resume = true;
    req.body.resume = false; /* admit only: no agent run */
    if (oc_session_prompt(client, &req, NULL, &a, &err) != OC_OK)
        return fail("say", &err);
    printf("admitted %s at seq %lld\n", a->id.value, (long long)a->admitted_seq);
    oc_session_input_admitted_free(a);
    return 0;
}

static int cmd_log(oc_client *client, const char *session)
{
    oc_session_messages_request req = {0};
    oc_session_messages_iter *it = NULL;
    const oc_session_message_value *m = NULL;
    oc_error *err = NULL;
    oc_next r;
    req.session_id.value = session;
    if (oc_session_messages_iter_new(&it, client, &req, NULL, &err) != OC_OK)
        return fail("log", &err);
    while ((r = oc_session_messages_iter_next(it, &m, &err)) == OC_NEXT_ITEM) {
        const oc_message_id *id = oc_session_message_value_id(m);
        printf("%s %s\n", id ? id->value : "?", oc_session_message_value_tag(m));
    }
    oc_session_messages_iter_free(it);
    return r == OC_NEXT_ERROR ? fail("log", &err) : 0;
}

/* Follow the session's events. The follower reconnects by itself; the loop only prints. */
static int cmd_tail(oc_client *client, const char *session, long long after, long count)
{
    oc_session_events_request req = {0};
    oc_follow_options fo = OC_FOLLOW_OPTIONS_INIT;
    oc_session_events_follower *f = NULL;
    oc_session_events_follow_event ev;
    oc_error *err = NULL;
    oc_next r;
    long items = 0;
    req.session_id.value = session;
    fo.max_delay_ms = 2000; /* wait at most 2 s between reconnects */
    fo.has_after = after >= 0;
    fo.after = after;
    if (oc_session_events_follow_new(&f, client, &req, &fo, &err) != OC_OK)
        return fail("tail", &err);
    while ((count < 0 || items < count) &&
           (r = oc_session_events_follow_next(f, &ev, &err)) == OC_NEXT_ITEM) {
        if (ev.kind == OC_FOLLOW_RECONNECT) {
            printf("reconnect %u after %lld in %ld ms: %s\n", ev.attempt, (long long)ev.after,
                   ev.delay_ms, oc_error_message(ev.error));
        } else if (ev.kind == OC_FOLLOW_POISON) {
            printf("seq %lld (undecodable: %s)\n", (long long)ev.seq, oc_error_message(ev.error));
            items++;
        } else {
            printf("seq %lld %s\n", (long long)ev.seq, oc_session_durable_event_tag(ev.item));
            items++;
        }
        fflush(stdout);
    }
    oc_session_events_follow_free(f);
    if (count >= 0 && items >= count)
        return 0;
    if (oc_cancel_is_triggered(stop)) {
        oc_error_clear(&err);
        printf("stopped\n");
        return 0;
    }
    return err ? fail("tail", &err) : 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: octail URL new|ls|say SESSION TEXT|log SESSION|tail SESSION "
                        "[--after SEQ] [--count N]\n");
        return 2;
    }
    oc_client_options opts = OC_CLIENT_OPTIONS_INIT; /* timeouts and retries: the defaults */
    oc_client *client = NULL;
    oc_error *err = NULL;
    int rc = 2;
    opts.base_url = argv[1];
    opts.username = "opencode"; /* the server's user, with OC_PASSWORD (unset: no auth) */
    /* A stream silent for 60 s reconnects (resuming after the last sequence): a quiet session
       may send nothing that long, which costs one reconnect; a dead peer is noticed. */
    opts.idle_timeout_ms = 60000;
    if (oc_cancel_new(&stop, &err) != OC_OK)
        return fail("cancel token", &err);
    opts.cancel = stop; /* Ctrl-C: every call, stream and follower of the client */
    if (oc_client_new_from_env(&client, &opts, &err) != OC_OK) {
        rc = fail("client", &err);
        goto done;
    }
    signal(SIGINT, on_sigint);
    const char *cmd = argv[2], *session = argc > 3 ? argv[3] : NULL;
    if (!strcmp(cmd, "new")) {
        rc = cmd_new(client);
    } else if (!strcmp(cmd, "ls")) {
        rc = cmd_ls(client);
    } else if (!strcmp(cmd, "say") && argc == 5) {
        rc = cmd_say(client, session, argv[4]);
    } else if (!strcmp(cmd, "log") && session) {
        rc = cmd_log(client, session);
    } else if (!strcmp(cmd, "tail") && session) {
        long long after = -1;
        long count = -1;
        for (int i = 4; i + 1 < argc; i += 2) {
            if (!strcmp(argv[i], "--after"))
                after = strtoll(argv[i + 1], NULL, 10);
            else if (!strcmp(argv[i], "--count"))
                count = strtol(argv[i + 1], NULL, 10);
        }
        rc = cmd_tail(client, session, after, count);
    } else {
        fprintf(stderr, "octail: unknown command or missing arguments\n");
    }
done:
    oc_client_free(client);
    oc_cancel_free(stop);
    return rc;
}
