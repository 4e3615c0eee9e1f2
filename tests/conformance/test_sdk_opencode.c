/* test_sdk_opencode.c - the generated OpenCode C SDK (generated/opencode, prefix oc) against the
 * real, pinned OpenCode server (opencode-ai@1.18.33).
 *
 * The binary starts the server itself through scripts/opencode-server.sh (a free port on
 * 127.0.0.1, a random password) and stops it at the end, so CTest and `ctest -T memcheck` run
 * this C code directly (valgrind does not trace the shell). A missing npm or a server that does
 * not come up FAILS the run. SDKC_OPENCODE_URL and SDKC_OPENCODE_PASSWORD point it at a server
 * that is already running instead (for debugging).
 *
 * Each acceptance item of issue 4 is one test case; the real server's behaviour where it differs
 * from its contract is asserted as observed and named in a comment ("REAL:"). */
#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "oc/oc.h"

#define CREATED_SESSIONS 250
#define PAGE_SIZE        7
#define MAX_SEEN         4096
#define ID_CAP           64

/* The server under test; set once in main before any test runs. */
static char g_url[128];
static char g_password[128];
static int g_port;

/* ---- helpers ---------------------------------------------------------------------------- */

static oc_client *client_with(const char *password)
{
    oc_client_options opts = OC_CLIENT_OPTIONS_INIT;
    opts.base_url = g_url;
    opts.auth = OC_AUTH_BASIC;
    opts.username = "opencode";
    opts.password = password;
    opts.timeout_ms = 30000;     /* no unary call may hang the suite */
    opts.idle_timeout_ms = 5000; /* nor a stream */
    oc_client *client = NULL;
    oc_error *err = NULL;
    oc_status st = oc_client_new(&client, &opts, &err);
    ck_assert_msg(st == OC_OK, "client: %s", err ? oc_error_message(err) : "?");
    return client;
}

static oc_client *client_new(void)
{
    return client_with(g_password);
}

/* Fail the test with the error's tag or reason and message. */
#define ck_assert_ok(st, err, what)                                                                \
    ck_assert_msg(                                                                                 \
        (st) == OC_OK, "%s failed: %s %s", (what),                                                 \
        (err) ? (oc_error_is_domain(err) ? oc_error_tag(err) : oc_error_reason_name(err)) : "?",   \
        (err) ? oc_error_message(err) : "")

/* A new session; its id is copied to id. */
static void create_session(oc_client *client, char id[ID_CAP])
{
    oc_session_create_request req = {0};
    oc_session_v2_info *info = NULL;
    oc_error *err = NULL;
    oc_status st = oc_session_create(client, &req, NULL, &info, &err);
    ck_assert_ok(st, err, "session create");
    ck_assert_ptr_nonnull(info->id.value);
    ck_assert_int_eq(strncmp(info->id.value, "ses_", 4), 0);
    ck_assert_uint_lt(strlen(info->id.value), ID_CAP);
    snprintf(id, ID_CAP, "%s", info->id.value);
    oc_session_v2_info_free(info);
}

/* Admit one prompt; resume false admits without running the agent loop. *out is new. */
static oc_session_input_admitted *admit(oc_client *client, const char *session_id, const char *text,
                                        bool resume)
{
    oc_session_prompt_request req = {0};
    req.session_id.value = session_id;
    req.body.prompt.text = text;
    if (!resume) {
        req.body.has_resume = true;
        req.body.resume = false;
    }
    oc_session_input_admitted *admitted = NULL;
    oc_error *err = NULL;
    oc_status st = oc_session_prompt(client, &req, NULL, &admitted, &err);
    ck_assert_ok(st, err, "prompt");
    return admitted;
}

/* A set of ids seen by a walk: appended, then checked for duplicates and membership. */
typedef struct id_set {
    char (*ids)[ID_CAP];
    size_t count;
} id_set;

static void set_init(id_set *s)
{
    s->ids = calloc(MAX_SEEN, sizeof *s->ids);
    ck_assert_ptr_nonnull(s->ids);
    s->count = 0;
}

static void set_cleanup(id_set *s)
{
    free(s->ids);
    s->ids = NULL;
    s->count = 0;
}

static void set_add(id_set *s, const char *id)
{
    ck_assert_uint_lt(s->count, MAX_SEEN);
    ck_assert_uint_lt(strlen(id), ID_CAP);
    snprintf(s->ids[s->count++], ID_CAP, "%s", id);
}

static int cmp_id(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

/* Sort s and fail on any id seen twice. */
static void set_check_unique(id_set *s, const char *walk)
{
    qsort(s->ids, s->count, sizeof *s->ids, cmp_id);
    for (size_t i = 1; i < s->count; i++)
        ck_assert_msg(strcmp(s->ids[i - 1], s->ids[i]) != 0, "%s: %s seen twice", walk, s->ids[i]);
}

static bool set_has(const id_set *s, const char *id)
{
    return bsearch(id, s->ids, s->count, sizeof *s->ids, cmp_id) != NULL;
}

/* Fail unless every id in want is in s (s sorted). */
static void set_check_contains(const id_set *s, const id_set *want, const char *walk)
{
    for (size_t i = 0; i < want->count; i++)
        ck_assert_msg(set_has(s, want->ids[i]), "%s: created %s never seen", walk, want->ids[i]);
}

/* Fail unless a and b (both sorted) hold the same ids. */
static void set_check_equal(const id_set *a, const id_set *b, const char *what)
{
    ck_assert_msg(a->count == b->count, "%s: %zu ids against %zu", what, a->count, b->count);
    for (size_t i = 0; i < a->count; i++)
        ck_assert_msg(strcmp(a->ids[i], b->ids[i]) == 0, "%s: %s against %s", what, a->ids[i],
                      b->ids[i]);
}

/* The id of a projected message (every variant has one). */
static const char *message_id(const oc_session_message_value *m)
{
    switch (m->kind) {
    case OC_SESSION_MESSAGE_VALUE_AGENT_SWITCHED:
        return m->u.agent_switched.id.value;
    case OC_SESSION_MESSAGE_VALUE_MODEL_SWITCHED:
        return m->u.model_switched.id.value;
    case OC_SESSION_MESSAGE_VALUE_USER:
        return m->u.user.id.value;
    case OC_SESSION_MESSAGE_VALUE_SYNTHETIC:
        return m->u.synthetic.id.value;
    case OC_SESSION_MESSAGE_VALUE_SYSTEM:
        return m->u.system.id.value;
    case OC_SESSION_MESSAGE_VALUE_SHELL:
        return m->u.shell.id.value;
    case OC_SESSION_MESSAGE_VALUE_ASSISTANT:
        return m->u.assistant.id.value;
    case OC_SESSION_MESSAGE_VALUE_COMPACTION:
        return m->u.compaction.id.value;
    default:
        break;
    }
    ck_abort_msg("message of a kind this SDK does not know");
    return NULL;
}

/* ---- wrong password ---------------------------------------------------------------------- */

START_TEST(test_unauthorized)
{
    oc_client *bad = client_with("not-the-password");
    oc_session_list_page *page = NULL;
    oc_error *err = NULL;
    ck_assert_int_eq(oc_session_list(bad, NULL, NULL, &page, &err), OC_ERR);
    ck_assert_ptr_null(page);
    ck_assert_ptr_nonnull(err);
    ck_assert_msg(oc_error_is_domain(err), "not a DOMAIN error: %s", oc_error_message(err));
    ck_assert_str_eq(oc_error_tag(err), "UnauthorizedError");
    ck_assert_int_eq(oc_error_status(err), 401);
    ck_assert_int_eq(oc_error_reason(err), OC_REASON_NONE);
    const oc_unauthorized_error *payload = oc_error_unauthorized_error(err);
    ck_assert_ptr_nonnull(payload);
    ck_assert_ptr_nonnull(payload->message);
    ck_assert_uint_gt(strlen(payload->message), 0);
    ck_assert_ptr_null(oc_error_session_not_found_error(err));
    oc_error_free(err);
    oc_client_free(bad);

    /* The same call with the right password succeeds: the failure was the password. */
    oc_client *good = client_new();
    err = NULL;
    oc_status st = oc_session_list(good, NULL, NULL, &page, &err);
    ck_assert_ok(st, err, "session list");
    oc_session_list_page_free(page);
    oc_client_free(good);
}
END_TEST

/* ---- message / session not found --------------------------------------------------------- */

START_TEST(test_message_not_found)
{
    oc_client *client = client_new();
    char sid[ID_CAP];
    create_session(client, sid);

    oc_session_message_request req = {0};
    req.session_id.value = sid;
    req.message_id.value = "msg_sdkconf_does_not_exist";
    oc_session_message_value *msg = NULL;
    oc_error *err = NULL;
    ck_assert_int_eq(oc_session_message(client, &req, NULL, &msg, &err), OC_ERR);
    ck_assert_ptr_null(msg);
    ck_assert_msg(oc_error_is_domain(err), "not a DOMAIN error: %s", oc_error_message(err));
    ck_assert_str_eq(oc_error_tag(err), "MessageNotFoundError");
    ck_assert_int_eq(oc_error_status(err), 404);
    const oc_message_not_found_error *mnf = oc_error_message_not_found_error(err);
    ck_assert_ptr_nonnull(mnf);
    ck_assert_str_eq(mnf->session_id, sid);
    ck_assert_str_eq(mnf->message_id, "msg_sdkconf_does_not_exist");
    ck_assert_ptr_nonnull(mnf->message);
    ck_assert_ptr_null(oc_error_session_not_found_error(err));
    oc_error_free(err);

    /* The same 404 status, another tag: an unknown session. */
    req.session_id.value = "ses_sdkconf_does_not_exist";
    err = NULL;
    ck_assert_int_eq(oc_session_message(client, &req, NULL, &msg, &err), OC_ERR);
    ck_assert_ptr_null(msg);
    ck_assert_msg(oc_error_is_domain(err), "not a DOMAIN error: %s", oc_error_message(err));
    ck_assert_str_eq(oc_error_tag(err), "SessionNotFoundError");
    ck_assert_int_eq(oc_error_status(err), 404);
    const oc_session_not_found_error *snf = oc_error_session_not_found_error(err);
    ck_assert_ptr_nonnull(snf);
    ck_assert_str_eq(snf->session_id, "ses_sdkconf_does_not_exist");
    ck_assert_ptr_null(oc_error_message_not_found_error(err));
    oc_error_free(err);
    oc_client_free(client);
}
END_TEST

/* ---- prompt with resume: false ----------------------------------------------------------- */

START_TEST(test_prompt_admission)
{
    oc_client *client = client_new();
    char sid[ID_CAP];
    create_session(client, sid);

    oc_session_input_admitted *a1 = admit(client, sid, "sdkconf: first admission", false);
    ck_assert_str_eq(a1->session_id.value, sid);
    ck_assert_int_eq(strncmp(a1->id.value, "msg_", 4), 0);
    ck_assert_str_eq(a1->prompt.text, "sdkconf: first admission");
    ck_assert_int_ge(a1->admitted_seq, 1);
    ck_assert_msg(a1->delivery.value != OC_SESSION_INPUT_ADMITTED_DELIVERY_UNKNOWN,
                  "delivery %s not in the contract's enum",
                  a1->delivery.unknown ? a1->delivery.unknown : "?");
    ck_assert(a1->time_created > 0);
    /* Not resumed, so not promoted into the conversation. */
    ck_assert(!a1->has_promoted_seq);

    oc_session_input_admitted *a2 = admit(client, sid, "sdkconf: second admission", false);
    ck_assert_str_eq(a2->session_id.value, sid);
    ck_assert_str_ne(a2->id.value, a1->id.value);
    ck_assert_int_gt(a2->admitted_seq, a1->admitted_seq);
    ck_assert(!a2->has_promoted_seq);

    /* REAL: admitted but not promoted inputs are not projected as messages. */
    oc_session_messages_request mreq = {0};
    mreq.session_id.value = sid;
    oc_session_messages_page *page = NULL;
    oc_error *err = NULL;
    oc_status st = oc_session_messages(client, &mreq, NULL, &page, &err);
    ck_assert_ok(st, err, "messages");
    ck_assert_uint_eq(page->count, 0);
    oc_session_messages_page_free(page);

    oc_session_input_admitted_free(a2);
    oc_session_input_admitted_free(a1);
    oc_client_free(client);
}
END_TEST

/* ---- interrupt --------------------------------------------------------------------------- */

START_TEST(test_interrupt)
{
    oc_client *client = client_new();
    char sid[ID_CAP];
    create_session(client, sid);

    oc_session_interrupt_request req = {0};
    req.session_id.value = sid;
    oc_error *err = NULL;
    oc_status st = oc_session_interrupt(client, &req, NULL, &err); /* 204: no value */
    ck_assert_ok(st, err, "interrupt idle session");
    ck_assert_ptr_null(err);

    req.session_id.value = "ses_sdkconf_does_not_exist";
    ck_assert_int_eq(oc_session_interrupt(client, &req, NULL, &err), OC_ERR);
    ck_assert_msg(oc_error_is_domain(err), "not a DOMAIN error: %s", oc_error_message(err));
    ck_assert_str_eq(oc_error_tag(err), "SessionNotFoundError");
    ck_assert_int_eq(oc_error_status(err), 404);
    const oc_session_not_found_error *snf = oc_error_session_not_found_error(err);
    ck_assert_ptr_nonnull(snf);
    ck_assert_str_eq(snf->session_id, "ses_sdkconf_does_not_exist");
    oc_error_free(err);
    oc_client_free(client);
}
END_TEST

/* ---- /api/event ---------------------------------------------------------------------------- */

START_TEST(test_event_subscribe_connected)
{
    oc_client *client = client_new();
    oc_event_subscribe_stream *s = NULL;
    oc_error *err = NULL;
    oc_status st = oc_event_subscribe_open(&s, client, NULL, &err);
    ck_assert_ok(st, err, "event subscribe open");
    const oc_v2_event *ev = NULL;
    oc_next r = oc_event_subscribe_next(s, &ev, &err);
    ck_assert_msg(r == OC_NEXT_ITEM, "first event: %d %s", (int)r,
                  err ? oc_error_message(err) : "");
    ck_assert_int_eq(ev->kind, OC_V2_EVENT_SERVER_CONNECTED);
    ck_assert_int_eq(strncmp(ev->u.server_connected.id.value, "evt_", 4), 0);
    oc_event_subscribe_close(s); /* mid-stream */
    oc_client_free(client);
}
END_TEST

/* ---- session pages ------------------------------------------------------------------------ */

/* Walk session_list from a first page of PAGE_SIZE to the end and back to the start, then with
 * the all-items iterator; every created session is seen exactly once each way. Continuations
 * send the cursor alone, so their pages have the server's size. */
START_TEST(test_session_pages)
{
    oc_client *client = client_new();
    id_set created, fwd, back, iter, first;
    set_init(&created);
    set_init(&fwd);
    set_init(&back);
    set_init(&iter);
    set_init(&first);
    for (int i = 0; i < CREATED_SESSIONS; i++) {
        char id[ID_CAP];
        create_session(client, id);
        set_add(&created, id);
    }
    set_check_unique(&created, "created");

    oc_session_list_request req = {0};
    req.has_limit = true;
    req.limit = PAGE_SIZE;
    oc_session_list_page *page = NULL;
    oc_error *err = NULL;
    oc_status st = oc_session_list(client, &req, NULL, &page, &err);
    ck_assert_ok(st, err, "session list");
    /* REAL: the first page also carries a `previous`, leading to an empty page without cursors
     * (contract: previous is absent at the start). */
    if (page->previous) {
        oc_session_list_page *before = NULL;
        st = oc_session_list_continue(client, page->previous, NULL, &before, &err);
        ck_assert_ok(st, err, "session list (previous of the first page)");
        ck_assert_uint_eq(before->count, 0);
        ck_assert_ptr_null(before->next);
        ck_assert_ptr_null(before->previous);
        oc_session_list_page_free(before);
    }
    for (size_t i = 0; i < page->count; i++) {
        set_add(&fwd, page->items[i].id.value);
        set_add(&first, page->items[i].id.value);
    }
    int pages = 1, empty_tail = 0, empty_head = 0;
    while (page->next) {
        oc_session_list_page *other = NULL;
        st = oc_session_list_continue(client, page->next, NULL, &other, &err);
        ck_assert_ok(st, err, "session list (next)");
        if (other->count == 0) {
            /* REAL: the last page that has items still carries a `next`; it leads to an empty
             * page without cursors (contract: next is absent at the end). Stay on the last page
             * with items so the walk back starts there. */
            ck_assert_ptr_null(other->next);
            ck_assert_ptr_null(other->previous);
            empty_tail++;
            oc_session_list_page_free(other);
            break;
        }
        oc_session_list_page_free(page);
        page = other;
        pages++;
        for (size_t i = 0; i < page->count; i++)
            set_add(&fwd, page->items[i].id.value);
    }
    ck_assert_int_le(empty_tail, 1);
    ck_assert_int_ge(pages, 2);

    /* Back from the last page to the first, with `previous`. */
    for (size_t i = 0; i < page->count; i++)
        set_add(&back, page->items[i].id.value);
    int back_pages = 1;
    while (page->previous) {
        oc_session_list_page *other = NULL;
        st = oc_session_list_continue(client, page->previous, NULL, &other, &err);
        ck_assert_ok(st, err, "session list (previous)");
        if (other->count == 0) { /* REAL: the empty page before the first */
            ck_assert_ptr_null(other->next);
            ck_assert_ptr_null(other->previous);
            empty_head++;
            oc_session_list_page_free(other);
            break;
        }
        oc_session_list_page_free(page);
        page = other;
        back_pages++;
        for (size_t i = 0; i < page->count; i++)
            set_add(&back, page->items[i].id.value);
        ck_assert_int_le(back_pages, pages + 1); /* no endless walk */
    }
    /* Arrived at the start: the page before which there is nothing is the first page. */
    id_set start;
    set_init(&start);
    for (size_t i = 0; i < page->count; i++)
        set_add(&start, page->items[i].id.value);
    oc_session_list_page_free(page);

    set_check_unique(&fwd, "forward walk");
    set_check_unique(&back, "backward walk");
    set_check_contains(&fwd, &created, "forward walk");
    set_check_contains(&back, &created, "backward walk");
    set_check_equal(&fwd, &back, "forward against backward");
    set_check_unique(&first, "first page");
    set_check_unique(&start, "page reached going back");
    /* The first page had PAGE_SIZE items; the page reached going back has the server's size. */
    set_check_contains(&start, &first, "the page reached going back");
    set_cleanup(&start);

    /* The all-items iterator. */
    oc_session_list_iter *it = NULL;
    st = oc_session_list_iter_new(&it, client, &req, NULL, &err);
    ck_assert_ok(st, err, "iterator");
    const oc_session_v2_info *item = NULL;
    oc_next r;
    while ((r = oc_session_list_iter_next(it, &item, &err)) == OC_NEXT_ITEM)
        set_add(&iter, item->id.value);
    ck_assert_msg(r == OC_NEXT_END, "iterator: %s", err ? oc_error_message(err) : "?");
    oc_session_list_iter_free(it);
    set_check_unique(&iter, "iterator");
    set_check_contains(&iter, &created, "iterator");
    set_check_equal(&iter, &fwd, "iterator against forward walk");
    fprintf(stderr,
            "session pages: %zu sessions, %d pages forward (%d empty page after the last), "
            "%d back (%d empty page before the first)\n",
            fwd.count, pages, empty_tail, back_pages, empty_head);

    set_cleanup(&first);
    set_cleanup(&iter);
    set_cleanup(&back);
    set_cleanup(&fwd);
    set_cleanup(&created);
    oc_client_free(client);
}
END_TEST

/* ---- message pages ------------------------------------------------------------------------ */

#define PROMPTS   7
#define MSG_LIMIT 2

/* Walk the messages of sid with limit MSG_LIMIT forwards and back; fwd and back get the ids. */
static void walk_messages(oc_client *client, const char *sid, id_set *fwd, id_set *back)
{
    oc_session_messages_request req = {0};
    req.session_id.value = sid;
    req.has_limit = true;
    req.limit = MSG_LIMIT;
    oc_session_messages_page *page = NULL;
    oc_error *err = NULL;
    oc_status st = oc_session_messages(client, &req, NULL, &page, &err);
    ck_assert_ok(st, err, "messages");
    for (size_t i = 0; i < page->count; i++)
        set_add(fwd, message_id(&page->items[i]));
    int pages = 1;
    while (page->next) {
        oc_session_messages_page *other = NULL;
        st = oc_session_messages_continue(client, page->next, NULL, &other, &err);
        ck_assert_ok(st, err, "messages (next)");
        /* A continuation sends the cursor only, so its page size is the server's. */
        if (other->count == 0) { /* REAL: as for sessions, an empty page after the last */
            ck_assert_ptr_null(other->next);
            oc_session_messages_page_free(other);
            break;
        }
        oc_session_messages_page_free(page);
        page = other;
        ck_assert_int_le(++pages, PROMPTS * 2);
        for (size_t i = 0; i < page->count; i++)
            set_add(fwd, message_id(&page->items[i]));
    }
    for (size_t i = 0; i < page->count; i++)
        set_add(back, message_id(&page->items[i]));
    while (page->previous) {
        oc_session_messages_page *other = NULL;
        st = oc_session_messages_continue(client, page->previous, NULL, &other, &err);
        ck_assert_ok(st, err, "messages (previous)");
        if (other->count == 0) { /* REAL: and an empty page before the first */
            ck_assert_ptr_null(other->previous);
            oc_session_messages_page_free(other);
            break;
        }
        oc_session_messages_page_free(page);
        page = other;
        ck_assert_int_ge(--pages, 0);
        for (size_t i = 0; i < page->count; i++)
            set_add(back, message_id(&page->items[i]));
    }
    oc_session_messages_page_free(page);
}

static size_t count_messages(oc_client *client, const char *sid)
{
    oc_session_messages_request req = {0};
    req.session_id.value = sid;
    req.has_limit = true;
    req.limit = 100;
    oc_session_messages_page *page = NULL;
    oc_error *err = NULL;
    oc_status st = oc_session_messages(client, &req, NULL, &page, &err);
    ck_assert_ok(st, err, "messages");
    size_t n = page->count;
    oc_session_messages_page_free(page);
    return n;
}

START_TEST(test_message_pages)
{
    oc_client *client = client_new();
    /* A model of a provider that does not exist: the agent loop promotes the admitted prompts
     * into user messages and then stops without any network call. */
    oc_session_create_request create = {0};
    create.body.has_model = true;
    create.body.model.id = "sdkconf-none";
    create.body.model.provider_id = "sdkconf-none";
    oc_session_v2_info *info = NULL;
    oc_error *err = NULL;
    oc_status st = oc_session_create(client, &create, NULL, &info, &err);
    ck_assert_ok(st, err, "session create");
    char sid[ID_CAP];
    snprintf(sid, sizeof sid, "%s", info->id.value);
    oc_session_v2_info_free(info);

    id_set admitted;
    set_init(&admitted);
    for (int i = 0; i < PROMPTS; i++) {
        char text[64];
        snprintf(text, sizeof text, "sdkconf message %d", i);
        /* REAL: inputs admitted with resume false become messages only when the loop runs, so
         * the last prompt resumes it. */
        oc_session_input_admitted *a = admit(client, sid, text, i == PROMPTS - 1);
        set_add(&admitted, a->id.value);
        oc_session_input_admitted_free(a);
    }
    set_check_unique(&admitted, "admitted");
    /* Bounded wait for the loop to promote them (v2.session.wait answers 503 "not available
     * yet" on this server). */
    size_t n = 0;
    for (int tries = 0; tries < 200 && (n = count_messages(client, sid)) < PROMPTS; tries++) {
        struct timespec pause = {0, 50 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    ck_assert_uint_ge(n, PROMPTS);

    id_set fwd, back, iter;
    set_init(&fwd);
    set_init(&back);
    set_init(&iter);
    walk_messages(client, sid, &fwd, &back);
    set_check_unique(&fwd, "messages forward");
    set_check_unique(&back, "messages backward");
    set_check_contains(&fwd, &admitted, "messages forward");
    set_check_contains(&back, &admitted, "messages backward");
    set_check_equal(&fwd, &back, "messages forward against backward");
    ck_assert_uint_eq(fwd.count, n);

    oc_session_messages_request req = {0};
    req.session_id.value = sid;
    req.has_limit = true;
    req.limit = MSG_LIMIT;
    oc_session_messages_iter *it = NULL;
    st = oc_session_messages_iter_new(&it, client, &req, NULL, &err);
    ck_assert_ok(st, err, "messages iterator");
    const oc_session_message_value *m = NULL;
    oc_next r;
    while ((r = oc_session_messages_iter_next(it, &m, &err)) == OC_NEXT_ITEM)
        set_add(&iter, message_id(m));
    ck_assert_msg(r == OC_NEXT_END, "iterator: %s", err ? oc_error_message(err) : "?");
    oc_session_messages_iter_free(it);
    set_check_unique(&iter, "messages iterator");
    set_check_equal(&iter, &fwd, "messages iterator against forward walk");

    /* In a chosen order: the server refuses a cursor combined with an order, so continuations
     * must send the cursor alone. */
    id_set desc;
    set_init(&desc);
    req.has_order = true;
    req.order.value = OC_SESSION_MESSAGES_ORDER_DESC;
    st = oc_session_messages_iter_new(&it, client, &req, NULL, &err);
    ck_assert_ok(st, err, "messages iterator, order desc");
    while ((r = oc_session_messages_iter_next(it, &m, &err)) == OC_NEXT_ITEM)
        set_add(&desc, message_id(m));
    ck_assert_msg(r == OC_NEXT_END, "iterator, order desc: %s", err ? oc_error_message(err) : "?");
    oc_session_messages_iter_free(it);
    set_check_unique(&desc, "messages iterator, order desc");
    set_check_equal(&desc, &fwd, "messages in order desc against forward walk");
    set_cleanup(&desc);

    /* A message that exists comes back by id. */
    oc_session_message_request one = {0};
    one.session_id.value = sid;
    one.message_id.value = admitted.ids[0];
    oc_session_message_value *msg = NULL;
    st = oc_session_message(client, &one, NULL, &msg, &err);
    ck_assert_ok(st, err, "message");
    ck_assert_int_eq(msg->kind, OC_SESSION_MESSAGE_VALUE_USER);
    ck_assert_str_eq(msg->u.user.id.value, admitted.ids[0]);
    oc_session_message_value_free(msg);

    set_cleanup(&iter);
    set_cleanup(&back);
    set_cleanup(&fwd);
    set_cleanup(&admitted);
    oc_client_free(client);
}
END_TEST

/* ---- session event stream ------------------------------------------------------------------ */

/* The durable sequence of an event and its type, from the accessors every variant shares. */
static long long event_seq(const oc_session_durable_event *ev, const char **type)
{
    const oc_durable *d = oc_session_durable_event_durable(ev);
    ck_assert_msg(d != NULL, "event without durable.seq");
    *type = oc_session_durable_event_tag(ev);
    ck_assert_msg(*type != NULL, "event without a type");
    return d->seq;
}

/* Read events until the admission of message_id; fail on anything at or below min_seq. */
static long long read_until_admitted(oc_session_events_stream *s, const char *message_id,
                                     long long min_seq)
{
    for (int n = 0; n < 50; n++) {
        const oc_session_durable_event *ev = NULL;
        oc_error *err = NULL;
        oc_next r = oc_session_events_next(s, &ev, &err);
        ck_assert_msg(r == OC_NEXT_ITEM, "events: %d %s", (int)r, err ? oc_error_message(err) : "");
        const char *type = NULL;
        long long seq = event_seq(ev, &type);
        ck_assert_msg(seq > min_seq, "event %s seq %lld replayed (after %lld)", type, seq, min_seq);
        if (ev->kind == OC_SESSION_DURABLE_EVENT_SESSION_NEXT_PROMPT_ADMITTED &&
            strcmp(ev->u.session_next_prompt_admitted.data.message_id.value, message_id) == 0)
            return seq;
    }
    ck_abort_msg("no admission of %s in 50 events", message_id);
    return -1;
}

/* Established TCP connections to the server's port, from /proc/net/tcp (client side). */
static int connections_to_server(void)
{
    FILE *f = fopen("/proc/net/tcp", "r");
    if (!f)
        return -1;
    char line[512];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned rport = 0, st = 0;
        char local[64], remote[64];
        if (sscanf(line, " %*d: %63s %63s %x", local, remote, &st) != 3)
            continue;
        const char *colon = strchr(remote, ':');
        if (!colon || sscanf(colon + 1, "%x", &rport) != 1)
            continue;
        if ((int)rport == g_port && st == 1) /* TCP_ESTABLISHED */
            n++;
    }
    fclose(f);
    return n;
}

START_TEST(test_session_events)
{
    oc_client *client = client_new();
    char sid[ID_CAP];
    create_session(client, sid);
    oc_session_input_admitted *a1 = admit(client, sid, "sdkconf event one", false);
    oc_session_input_admitted *a2 = admit(client, sid, "sdkconf event two", false);

    /* From the start: both admissions, in order. */
    oc_session_events_request req = {0};
    req.session_id.value = sid;
    oc_session_events_stream *s = NULL;
    oc_error *err = NULL;
    oc_status st = oc_session_events_open(&s, client, &req, NULL, &err);
    ck_assert_ok(st, err, "events open");
    long long seq1 = read_until_admitted(s, a1->id.value, 0);
    ck_assert_int_eq(seq1, a1->admitted_seq);
    long long seq2 = read_until_admitted(s, a2->id.value, seq1);
    ck_assert_int_eq(seq2, a2->admitted_seq);

    /* Close mid-stream (the server would go on): the connection is released. */
    int during = connections_to_server();
    oc_session_events_close(s);
    s = NULL;
    int after = connections_to_server();
    ck_assert_msg(during >= 1, "the open stream's connection is not in /proc/net/tcp");
    ck_assert_msg(after < during, "established connections: %d open, %d after close", during,
                  after);
    fprintf(stderr,
            "session events: %d established connection(s) to the server with the stream "
            "open, %d after close\n",
            during, after);
    oc_call_options quick = OC_CALL_OPTIONS_INIT;
    quick.timeout_ms = 5000;
    oc_session_get_request get = {0};
    get.session_id.value = sid;
    oc_session_v2_info *info = NULL;
    st = oc_session_get(client, &get, &quick, &info, &err);
    ck_assert_ok(st, err, "session get after close");
    ck_assert_str_eq(info->id.value, sid);
    oc_session_v2_info_free(info);

    /* Resume after the first admission: only later events, then live ones. */
    char after_text[32];
    snprintf(after_text, sizeof after_text, "%lld", seq1);
    req.has_after = true;
    req.after = after_text;
    st = oc_session_events_open(&s, client, &req, NULL, &err);
    ck_assert_ok(st, err, "events open (after)");
    const oc_session_durable_event *ev = NULL;
    oc_next r = oc_session_events_next(s, &ev, &err);
    ck_assert_msg(r == OC_NEXT_ITEM, "events after: %d %s", (int)r,
                  err ? oc_error_message(err) : "");
    const char *type = NULL;
    long long seq = event_seq(ev, &type);
    ck_assert_str_eq(type, "session.next.prompt.admitted");
    ck_assert_int_gt(seq, seq1);
    ck_assert_int_eq(ev->kind, OC_SESSION_DURABLE_EVENT_SESSION_NEXT_PROMPT_ADMITTED);
    ck_assert_str_eq(ev->u.session_next_prompt_admitted.data.message_id.value, a2->id.value);
    ck_assert_int_eq(seq, seq2);
    /* A prompt admitted now arrives on the open stream. */
    oc_session_input_admitted *a3 = admit(client, sid, "sdkconf event three", false);
    long long seq3 = read_until_admitted(s, a3->id.value, seq2);
    ck_assert_int_eq(seq3, a3->admitted_seq);
    oc_session_events_close(s);

    oc_session_input_admitted_free(a3);
    oc_session_input_admitted_free(a2);
    oc_session_input_admitted_free(a1);
    oc_client_free(client);
}
END_TEST

/* ---- the async forms on the built-in loop ------------------------------------------------ */

typedef struct async_state {
    oc_client *client;
    const char *sid;
    int pages, found, gets, ends;
    char get_tag[64];
    long long seqs[2];
    const char *want[2]; /* the admissions' message ids */
    oc_async_stream *stream;
    oc_reason end_reason;
} async_state;

static void async_page(void *userdata, oc_session_list_page *page, const oc_error *err)
{
    async_state *a = userdata;
    ck_assert_msg(page != NULL, "page: %s", oc_error_message(err));
    a->pages++;
    for (size_t i = 0; i < page->count; i++)
        a->found += strcmp(page->items[i].id.value, a->sid) == 0;
    if (page->next && page->count > 0) { /* the live server: an empty page is the end */
        oc_error *e = NULL;
        ck_assert_ok(oc_session_list_continue_async(a->client, page->next, NULL, async_page, a, &e),
                     e, "continue async");
    }
    oc_session_list_page_free(page);
}

static void async_get(void *userdata, oc_session_v2_info *result, const oc_error *err)
{
    async_state *a = userdata;
    a->gets++;
    if (result) {
        ck_assert_str_eq(result->id.value, a->sid);
        oc_session_v2_info_free(result);
    } else {
        snprintf(a->get_tag, sizeof a->get_tag, "%s", oc_error_tag(err) ? oc_error_tag(err) : "");
        ck_assert_ptr_nonnull(oc_error_session_not_found_error(err));
    }
}

static void async_event(void *userdata, const oc_session_durable_event *ev)
{
    async_state *a = userdata;
    const char *type = NULL;
    long long seq = event_seq(ev, &type);
    if (ev->kind != OC_SESSION_DURABLE_EVENT_SESSION_NEXT_PROMPT_ADMITTED)
        return;
    for (int i = 0; i < 2; i++)
        if (!strcmp(ev->u.session_next_prompt_admitted.data.message_id.value, a->want[i]))
            a->seqs[i] = seq;
    if (a->seqs[0] && a->seqs[1]) /* both seen: the follower would wait for more */
        oc_async_stream_cancel(a->stream);
}

static void async_end(void *userdata, const oc_error *err)
{
    async_state *a = userdata;
    a->ends++;
    a->end_reason = oc_error_reason(err);
    a->stream = NULL;
}

START_TEST(test_async_on_the_loop)
{
    oc_loop *loop = NULL;
    oc_error *err = NULL;
    ck_assert_ok(oc_loop_new(&loop, &err), err, "loop");
    oc_client_options opts = OC_CLIENT_OPTIONS_INIT;
    opts.base_url = g_url;
    opts.auth = OC_AUTH_BASIC;
    opts.username = "opencode";
    opts.password = g_password;
    opts.timeout_ms = 30000;
    opts.loop = loop;
    oc_client *client = NULL;
    ck_assert_ok(oc_client_new(&client, &opts, &err), err, "client");
    char sid[ID_CAP];
    create_session(client, sid); /* blocking calls on a client with a loop */
    oc_session_input_admitted *a1 = admit(client, sid, "sdkconf async one", false);
    oc_session_input_admitted *a2 = admit(client, sid, "sdkconf async two", false);

    async_state a = {.client = client, .sid = sid, .want = {a1->id.value, a2->id.value}};
    async_state missing = {.client = client, .sid = sid};
    oc_session_list_request lr = {0};
    lr.has_limit = true;
    lr.limit = PAGE_SIZE;
    oc_session_get_request get = {0}, unknown = {0};
    get.session_id.value = sid;
    unknown.session_id.value = "ses_sdkconf_no_such_session";
    oc_session_events_request er = {0};
    er.session_id.value = sid;
    const oc_session_events_handlers h = {async_event, NULL, NULL, async_end};
    /* all at once on one thread: a page chain, two gets, the session's follower */
    ck_assert_ok(oc_session_list_page_async(client, &lr, NULL, async_page, &a, &err), err,
                 "page async");
    ck_assert_ok(oc_session_get_async(client, &get, NULL, async_get, &a, &err), err, "get async");
    ck_assert_ok(oc_session_get_async(client, &unknown, NULL, async_get, &missing, &err), err,
                 "get async (unknown)");
    ck_assert_ok(oc_session_events_follow_start(&a.stream, client, &er, NULL, &h, &a, &err), err,
                 "follow start");
    ck_assert_ok(oc_loop_run(loop, &err), err, "loop run");
    ck_assert_int_ge(a.pages, 1);
    ck_assert_int_eq(a.found, 1);
    ck_assert_int_eq(a.gets, 1);
    ck_assert_int_eq(missing.gets, 1);
    ck_assert_str_eq(missing.get_tag, "SessionNotFoundError");
    ck_assert_int_eq(a.seqs[0], a1->admitted_seq);
    ck_assert_int_eq(a.seqs[1], a2->admitted_seq);
    ck_assert_int_eq(a.ends, 1);
    ck_assert_int_eq(a.end_reason, OC_REASON_CANCELLED);
    fprintf(stderr, "async on the loop: %d pages, two gets and a follower on one thread\n",
            a.pages);
    oc_session_input_admitted_free(a2);
    oc_session_input_admitted_free(a1);
    oc_client_free(client);
    oc_loop_free(loop);
}
END_TEST

/* ---- main: start the server, run, stop ---------------------------------------------------- */

static char g_server_pid[32];
static char g_server_dir[256];

/* A port nobody listens on now (the kernel's choice for port 0). */
static int free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    socklen_t len = sizeof a;
    int port = -1;
    if (bind(fd, (struct sockaddr *)&a, sizeof a) == 0 &&
        getsockname(fd, (struct sockaddr *)&a, &len) == 0)
        port = ntohs(a.sin_port);
    close(fd);
    return port;
}

static int start_server(void)
{
    const char *url = getenv("SDKC_OPENCODE_URL");
    if (url && *url) {
        const char *pass = getenv("SDKC_OPENCODE_PASSWORD");
        const char *colon = strrchr(url, ':');
        snprintf(g_url, sizeof g_url, "%s", url);
        snprintf(g_password, sizeof g_password, "%s", pass ? pass : "");
        g_port = colon ? (int)strtol(colon + 1, NULL, 10) : 0;
        return 0;
    }
    g_port = free_port();
    if (g_port <= 0) {
        fprintf(stderr, "FAIL: no free port on 127.0.0.1\n");
        return -1;
    }
    snprintf(g_url, sizeof g_url, "http://127.0.0.1:%d", g_port);
    snprintf(g_password, sizeof g_password, "sdkconf-%ld-%d", (long)getpid(), g_port);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s/scripts/opencode-server.sh' start %d '%s'", SDKC_SOURCE_DIR,
             g_port, g_password);
    FILE *p = popen(cmd, "r");
    if (!p) {
        fprintf(stderr, "FAIL: cannot run %s\n", cmd);
        return -1;
    }
    char line[512] = "";
    char *got = fgets(line, sizeof line, p);
    int rc = pclose(p);
    if (!got || rc != 0 || sscanf(line, "%31s %255s", g_server_pid, g_server_dir) != 2) {
        fprintf(stderr,
                "FAIL: the opencode server did not start (needs npm for the first install of "
                "opencode-ai@1.18.33; see the messages above)\n");
        g_server_pid[0] = '\0';
        return -1;
    }
    fprintf(stderr, "opencode server pid %s on %s\n", g_server_pid, g_url);
    return 0;
}

static void stop_server(void)
{
    if (!g_server_pid[0])
        return;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s/scripts/opencode-server.sh' stop '%s' '%s'", SDKC_SOURCE_DIR,
             g_server_pid, g_server_dir);
    if (system(cmd) != 0)
        fprintf(stderr, "warning: stopping the server failed: %s\n", cmd);
    g_server_pid[0] = '\0';
}

/* A child that stops the server when this process dies without doing so itself (a CTest timeout
 * kills it): it waits on a pipe whose only writers are this process and its Check children. */
static int g_watchdog_fd = -1;
static pid_t g_watchdog_pid = -1;

static void start_watchdog(void)
{
    int fds[2];
    if (!g_server_pid[0] || pipe(fds) != 0)
        return;
    (void)fcntl(fds[0], F_SETFD, FD_CLOEXEC); /* the server and scripts must not hold it */
    (void)fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s/scripts/opencode-server.sh' stop '%s' '%s'", SDKC_SOURCE_DIR,
             g_server_pid, g_server_dir);
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGINT, SIG_IGN); /* outlive a ^C of the process group to clean up */
        signal(SIGTERM, SIG_IGN);
        close(fds[1]);
        char c;
        ssize_t n;
        do
            n = read(fds[0], &c, 1);
        while (n < 0 && errno == EINTR);
        if (n == 0) /* every writer is gone and nobody said done */
            execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(0);
    }
    close(fds[0]);
    if (pid < 0) {
        close(fds[1]);
        return;
    }
    g_watchdog_fd = fds[1];
    g_watchdog_pid = pid;
}

static void stop_watchdog(void)
{
    if (g_watchdog_fd < 0)
        return;
    if (write(g_watchdog_fd, "d", 1) != 1)
        fprintf(stderr, "warning: the watchdog did not get its signal\n");
    close(g_watchdog_fd);
    g_watchdog_fd = -1;
    while (waitpid(g_watchdog_pid, NULL, 0) < 0 && errno == EINTR)
        continue;
}

static Suite *sdk_suite(void)
{
    Suite *s = suite_create("sdk_opencode");
    TCase *tc = tcase_create("errors");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_unauthorized);
    tcase_add_test(tc, test_message_not_found);
    tcase_add_test(tc, test_interrupt);
    suite_add_tcase(s, tc);

    tc = tcase_create("prompts");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_prompt_admission);
    suite_add_tcase(s, tc);

    tcase_add_test(tc, test_message_pages);
    suite_add_tcase(s, tc);

    tc = tcase_create("streams");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_event_subscribe_connected);
    tcase_add_test(tc, test_session_events);
    tcase_add_test(tc, test_async_on_the_loop);
    suite_add_tcase(s, tc);

    tc = tcase_create("pages");
    tcase_set_timeout(tc, 110);
    tcase_add_test(tc, test_session_pages);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    if (oc_global_init() != OC_OK) {
        fprintf(stderr, "FAIL: oc_global_init\n");
        return EXIT_FAILURE;
    }
    if (start_server() != 0) {
        oc_global_cleanup();
        return EXIT_FAILURE;
    }
    start_watchdog();
    SRunner *sr = srunner_create(sdk_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    stop_watchdog();
    stop_server();
    oc_global_cleanup();
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
