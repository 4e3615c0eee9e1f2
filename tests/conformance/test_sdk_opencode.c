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
#include <jansson.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
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
    opts.auth = SDKRT_AUTH_BASIC;
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
    req.session_id.value = (char *)session_id;
    req.body.prompt.text = (char *)text;
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
static const char *message_id(const oc_session_message_t *m)
{
    switch (m->kind) {
    case OC_SESSION_MESSAGE_T_AGENT_SWITCHED:
        return m->u.agent_switched.id.value;
    case OC_SESSION_MESSAGE_T_MODEL_SWITCHED:
        return m->u.model_switched.id.value;
    case OC_SESSION_MESSAGE_T_USER:
        return m->u.user.id.value;
    case OC_SESSION_MESSAGE_T_SYNTHETIC:
        return m->u.synthetic.id.value;
    case OC_SESSION_MESSAGE_T_SYSTEM:
        return m->u.system.id.value;
    case OC_SESSION_MESSAGE_T_SHELL:
        return m->u.shell.id.value;
    case OC_SESSION_MESSAGE_T_ASSISTANT:
        return m->u.assistant.id.value;
    case OC_SESSION_MESSAGE_T_COMPACTION:
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
    ck_assert_int_eq(oc_error_reason(err), SDKRT_REASON_NONE);
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
    oc_session_message_t *msg = NULL;
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

    tc = tcase_create("streams");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_event_subscribe_connected);
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
    SRunner *sr = srunner_create(sdk_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    stop_server();
    oc_global_cleanup();
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
