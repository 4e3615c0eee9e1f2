/* opencode_tour: a tour of the generated OpenCode C SDK against a running server.
 *
 *   OPENCODE_SERVER_PASSWORD=secret ./opencode_tour http://127.0.0.1:4096 [PAGE_SIZE]
 *
 * Lists sessions page by page forwards and then back again, creates a session, admits a prompt
 * with resume = false (nothing runs), then tails the session's events: it reads what is there,
 * closes the stream, and resumes with `after` = the last durable sequence it saw, so only later
 * events come back. Every error is printed with its tag or reason. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oc/oc.h"

/* Print and clear *errp, so the variable is NULL again for the next call. */
static void report(const char *what, oc_error **errp)
{
    const oc_error *err = *errp;
    if (oc_error_is_domain(err)) {
        /* The message already names the tag and the status. */
        printf("%s failed: %s\n", what, oc_error_message(err));
        const oc_session_not_found_error *nf = oc_error_session_not_found_error(err);
        if (nf)
            printf("  no session %s\n", nf->session_id);
    } else {
        printf("%s failed: CLIENT %s: %s\n", what, oc_error_reason_name(err),
               oc_error_message(err));
    }
    oc_error_clear(errp);
}

static int list_sessions(oc_client *client, double page_size)
{
    oc_session_list_request req = {0};
    req.has_limit = true;
    req.limit = page_size;
    oc_session_list_page *page = NULL;
    oc_error *err = NULL;
    if (oc_session_list(client, &req, NULL, &page, &err) != OC_OK) {
        report("session list", &err);
        return -1;
    }
    int pages = 1;
    /* Forwards with `next`, then back with `previous`: only the cursor is sent. */
    for (int dir = 0; dir < 2; dir++) {
        for (;;) {
            printf("%s page %d: %zu sessions", dir ? "back" : "forward", pages, page->count);
            for (size_t i = 0; i < page->count && i < 3; i++)
                printf(" %s", page->items[i].id.value);
            printf("%s\n", page->count > 3 ? " ..." : "");
            oc_session_list_cursor *c = dir ? page->previous : page->next;
            if (!c)
                break;
            oc_session_list_page *other = NULL;
            if (oc_session_list_continue(client, c, NULL, &other, &err) != OC_OK) {
                report("session list (continue)", &err);
                oc_session_list_page_free(page);
                return -1;
            }
            if (other->count == 0) {
                /* The server may hand out a `next` that leads to an empty page without cursors:
                 * stay on the last page that has items so the walk back can start there. */
                oc_session_list_page_free(other);
                break;
            }
            oc_session_list_page_free(page);
            page = other;
            pages += dir ? -1 : 1;
        }
    }
    oc_session_list_page_free(page);
    return 0;
}

/* The durable sequence of an event (every durable event carries durable.seq), or -1. */
static long long event_seq(const oc_session_durable_event *ev)
{
    const oc_durable *d = oc_session_durable_event_durable(ev);
    return d ? (long long)d->seq : -1;
}

/* Read events until the server has nothing more for max_events events; returns the last seq. */
static long long tail(oc_client *client, const char *session_id, long long after, int max_events)
{
    oc_session_events_request req = {0};
    char after_text[32];
    req.session_id.value = session_id;
    if (after >= 0) {
        snprintf(after_text, sizeof after_text, "%lld", after);
        req.has_after = true;
        req.after = after_text;
    }
    oc_call_options call = OC_CALL_OPTIONS_INIT;
    call.timeout_ms = 2000; /* idle timeout: stop tailing after 2 s of silence */
    oc_session_events_stream *s = NULL;
    oc_error *err = NULL;
    if (oc_session_events_open(&s, client, &req, &call, &err) != OC_OK) {
        report("events open", &err);
        return after;
    }
    const oc_session_durable_event *ev = NULL;
    long long last = after;
    for (int n = 0; n < max_events; n++) {
        oc_next r = oc_session_events_next(s, &ev, &err);
        if (r == OC_NEXT_END)
            break;
        if (r == OC_NEXT_ERROR) {
            if (oc_error_reason(err) == OC_REASON_TIMEOUT) {
                oc_error_clear(&err);
                break;
            }
            report("events", &err);
            break;
        }
        long long seq = event_seq(ev);
        const char *type = oc_session_durable_event_tag(ev);
        printf("  event seq %lld: %s%s\n", seq, type ? type : "?",
               ev->kind == OC_SESSION_DURABLE_EVENT_UNKNOWN ? " (unknown to this SDK)" : "");
        if (seq > last)
            last = seq;
    }
    oc_session_events_close(s); /* releases the connection at any point */
    return last;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s BASE_URL [PAGE_SIZE]  (password in OPENCODE_SERVER_PASSWORD)\n",
                argv[0]);
        return 2;
    }
    double page_size = argc > 2 ? strtod(argv[2], NULL) : 7;
    if (oc_global_init() != OC_OK)
        return 1;
    oc_client_options opts = OC_CLIENT_OPTIONS_INIT;
    opts.base_url = argv[1];
    const char *password = getenv("OPENCODE_SERVER_PASSWORD");
    if (password) {
        opts.auth = OC_AUTH_BASIC;
        opts.username =
            getenv("OPENCODE_SERVER_USERNAME") ? getenv("OPENCODE_SERVER_USERNAME") : "opencode";
        opts.password = password;
    }
    oc_client *client = NULL;
    oc_error *err = NULL;
    int rc = 1;
    oc_session_v2_info *session = NULL;
    oc_session_input_admitted *admitted = NULL;
    if (oc_client_new(&client, &opts, &err) != OC_OK) {
        report("client", &err);
        goto done;
    }
    if (list_sessions(client, page_size) != 0)
        goto done;

    oc_session_create_request create = {0};
    if (oc_session_create(client, &create, NULL, &session, &err) != OC_OK) {
        report("session create", &err);
        goto done;
    }
    printf("created %s (%s)\n", session->id.value, session->title);

    oc_session_prompt_request prompt = {0};
    prompt.session_id.value = session->id.value; /* borrowed: the request does not own it */
    prompt.body.prompt.text = "Say hello.";
    prompt.body.has_resume = true;
    prompt.body.resume = false; /* admit only: no agent run */
    if (oc_session_prompt(client, &prompt, NULL, &admitted, &err) != OC_OK) {
        report("prompt", &err);
        goto done;
    }
    printf("admitted %s at seq %lld\n", admitted->id.value, (long long)admitted->admitted_seq);

    printf("events:\n");
    long long last = tail(client, session->id.value, -1, 50);
    printf("events after %lld (resumed):\n", last);
    tail(client, session->id.value, last, 50);

    /* A readable domain error: an unknown session. */
    oc_session_get_request get = {0};
    get.session_id.value = "ses_does_not_exist";
    oc_session_v2_info *none = NULL;
    if (oc_session_get(client, &get, NULL, &none, &err) != OC_OK)
        report("get unknown session", &err);
    oc_session_v2_info_free(none);
    rc = 0;
done:
    oc_session_input_admitted_free(admitted);
    oc_session_v2_info_free(session);
    oc_client_free(client);
    oc_global_cleanup();
    return rc;
}
