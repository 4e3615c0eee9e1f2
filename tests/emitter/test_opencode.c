/* The generated OpenCode SDK (generated/opencode) over the in-memory transport: exact requests,
 * typed results, pages and cursors, iterators, streams with failure frames and undecodable
 * items, declared domain errors, undeclared statuses, and decoding that tolerates what a newer
 * server may send. */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "oc/oc.h"

/* ---- a scripted in-memory server ---- */

#define MAX_ROUTES 8

typedef struct route {
    const char *target; /* exact path+query to answer, or NULL for any */
    int status;
    const char *content_type;
    const char *chunks[8]; /* body chunks (a stream when more than one, or SSE) */
    bool cut;              /* end the body with a TRANSPORT error */
} route;

typedef struct server {
    route routes[MAX_ROUTES];
    size_t nroutes;
    int calls;
    char method[16];
    char target[1024];
    char body[8192];
    char header_x[128]; /* value of X-Test when sent */
    char accept[128];   /* value of Accept when sent */
    char auth[128];     /* value of Authorization when sent */
} server;

static int handler(void *userdata, const oc_memory_request *req, oc_memory_response *resp)
{
    server *s = userdata;
    s->calls++;
    snprintf(s->method, sizeof s->method, "%s", req->method);
    snprintf(s->target, sizeof s->target, "%s", req->target);
    snprintf(s->body, sizeof s->body, "%.*s", (int)req->body_len,
             req->body ? (const char *)req->body : "");
    s->header_x[0] = s->accept[0] = s->auth[0] = '\0';
    for (size_t i = 0; i < req->header_count; i++) {
        const char *name = req->headers[i].name, *value = req->headers[i].value;
        if (strcasecmp(name, "X-Test") == 0)
            snprintf(s->header_x, sizeof s->header_x, "%s", value);
        else if (strcasecmp(name, "Accept") == 0)
            snprintf(s->accept, sizeof s->accept, "%s", value);
        else if (strcasecmp(name, "Authorization") == 0)
            snprintf(s->auth, sizeof s->auth, "%s", value);
    }
    for (size_t i = 0; i < s->nroutes; i++) {
        const route *r = &s->routes[i];
        if (r->target && strcmp(r->target, req->target) != 0)
            continue;
        oc_memory_response_set_status(resp, r->status);
        if (r->content_type)
            oc_memory_response_add_header(resp, "Content-Type", r->content_type);
        for (size_t k = 0; k < 8 && r->chunks[k]; k++)
            oc_memory_response_add_chunk(resp, r->chunks[k], strlen(r->chunks[k]));
        if (r->cut)
            oc_memory_response_end_with_error(resp, OC_REASON_TRANSPORT, NULL);
        return 0;
    }
    oc_memory_response_set_status(resp, 599);
    return 0;
}

static server srv;
static oc_transport *transport;
static oc_client *client;

static void setup(void)
{
    memset(&srv, 0, sizeof srv);
    ck_assert_int_eq(oc_memory_transport_new(&transport, handler, &srv, NULL), OC_OK);
    oc_client_options o = OC_CLIENT_OPTIONS_INIT;
    o.base_url = "http://127.0.0.1:1/prefix";
    o.transport = transport;
    oc_error *err = NULL;
    ck_assert_int_eq(oc_client_new(&client, &o, &err), OC_OK);
}

static void teardown(void)
{
    oc_client_free(client);
    oc_transport_free(transport);
    client = NULL;
    transport = NULL;
}

static void answer(const char *target, int status, const char *body)
{
    route *r = &srv.routes[srv.nroutes++];
    memset(r, 0, sizeof *r);
    r->target = target;
    r->status = status;
    r->content_type = body ? "application/json" : NULL;
    r->chunks[0] = body;
}

#define SESSION(id)                                                                                \
    "{\"id\":\"" id "\",\"projectID\":\"p1\",\"cost\":0.5,\"tokens\":{\"input\":1,\"output\":2,"   \
    "\"reasoning\":0,\"cache\":{\"read\":0,\"write\":0}},\"time\":{\"created\":10,\"updated\":11}" \
    ","                                                                                            \
    "\"title\":\"t " id "\",\"location\":{\"directory\":\"/w\"}}"

/* Check and release *errp, leaving it NULL for the next call. */
static void expect_reason(oc_error **errp, oc_reason reason, const char *in_message)
{
    oc_error *err = *errp;
    *errp = NULL;
    ck_assert_ptr_nonnull(err);
    ck_assert_msg(oc_error_reason(err) == reason, "reason %s, message %s",
                  oc_error_reason_name(err), oc_error_message(err));
    if (in_message)
        ck_assert_msg(strstr(oc_error_message(err), in_message) != NULL, "message '%s' lacks '%s'",
                      oc_error_message(err), in_message);
    oc_error_free(err);
}

/* ---- unary ---- */

START_TEST(get_sends_exact_request_and_decodes)
{
    answer(NULL, 200, "{\"data\":" SESSION("ses_1") ",\"extra\":1}");
    oc_session_get_request req = {0};
    req.session_id.value = "ses/1 x";
    oc_session_v2_info *info = NULL;
    oc_error *err = NULL;
    oc_call_options call = OC_CALL_OPTIONS_INIT;
    oc_header h = {"X-Test", "yes"};
    call.headers = &h;
    call.header_count = 1;
    ck_assert_int_eq(oc_session_get(client, &req, &call, &info, &err), OC_OK);
    ck_assert_str_eq(srv.method, "GET");
    ck_assert_str_eq(srv.target, "/prefix/api/session/ses%2F1%20x");
    ck_assert_str_eq(srv.header_x, "yes");
    ck_assert_str_eq(info->id.value, "ses_1");
    ck_assert_str_eq(info->title, "t ses_1");
    ck_assert(info->tokens.output == 2.0 && info->time.updated == 11.0);
    ck_assert(!info->has_parent_id && !info->has_revert);
    /* Encoding gives the wire JSON back. */
    json_t *j = NULL;
    ck_assert_int_eq(oc_session_v2_info_encode(info, &j, &err), OC_OK);
    ck_assert_str_eq(json_string_value(json_object_get(j, "projectID")), "p1");
    ck_assert_ptr_null(json_object_get(j, "parentID"));
    json_decref(j);
    oc_session_v2_info_free(info);
}
END_TEST

START_TEST(domain_error_is_typed)
{
    answer(NULL, 404,
           "{\"_tag\":\"SessionNotFoundError\",\"sessionID\":\"ses_x\",\"message\":\"no such "
           "session\"}");
    oc_session_get_request req = {0};
    req.session_id.value = "ses_x";
    oc_session_v2_info *info = NULL;
    oc_error *err = NULL;
    ck_assert_int_eq(oc_session_get(client, &req, NULL, &info, &err), OC_ERR);
    ck_assert_ptr_null(info);
    ck_assert(oc_error_is_domain(err));
    ck_assert_str_eq(oc_error_tag(err), "SessionNotFoundError");
    ck_assert_int_eq(oc_error_status(err), 404);
    const oc_session_not_found_error *p = oc_error_session_not_found_error(err);
    ck_assert_ptr_nonnull(p);
    ck_assert_str_eq(p->session_id, "ses_x");
    ck_assert_str_eq(p->message, "no such session");
    ck_assert_ptr_null(oc_error_message_not_found_error(err));
    oc_error_free(err);
}
END_TEST

START_TEST(every_declared_tag_of_message_decodes)
{
    static const struct {
        int status;
        const char *body;
        const char *tag;
    } cases[] = {
        {400, "{\"_tag\":\"InvalidRequestError\",\"message\":\"bad\"}", "InvalidRequestError"},
        {401, "{\"_tag\":\"UnauthorizedError\",\"message\":\"who\"}", "UnauthorizedError"},
        {404, "{\"_tag\":\"SessionNotFoundError\",\"sessionID\":\"s\",\"message\":\"m\"}",
         "SessionNotFoundError"},
        {404,
         "{\"_tag\":\"MessageNotFoundError\",\"sessionID\":\"s\",\"messageID\":\"msg_1\","
         "\"message\":\"m\"}",
         "MessageNotFoundError"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        srv.nroutes = 0;
        answer(NULL, cases[i].status, cases[i].body);
        oc_session_message_request req = {0};
        req.session_id.value = "ses_1";
        req.message_id.value = "msg_1";
        oc_session_message_value *m = NULL;
        oc_error *err = NULL;
        ck_assert_int_eq(oc_session_message(client, &req, NULL, &m, &err), OC_ERR);
        ck_assert_str_eq(srv.target, "/prefix/api/session/ses_1/message/msg_1");
        ck_assert_msg(oc_error_is_domain(err), "case %zu: %s", i, oc_error_message(err));
        ck_assert_str_eq(oc_error_tag(err), cases[i].tag);
        ck_assert_ptr_nonnull(sdkrt_error_payload(err));
        oc_error_free(err);
        err = NULL;
    }
    const oc_message_not_found_error *p = NULL;
    srv.nroutes = 0;
    answer(NULL, 404, cases[3].body);
    oc_session_message_request req = {0};
    req.session_id.value = "ses_1";
    req.message_id.value = "msg_1";
    oc_session_message_value *m = NULL;
    oc_error *err = NULL;
    ck_assert_int_eq(oc_session_message(client, &req, NULL, &m, &err), OC_ERR);
    p = oc_error_message_not_found_error(err);
    ck_assert_ptr_nonnull(p);
    ck_assert_str_eq(p->message_id, "msg_1");
    oc_error_free(err);
}
END_TEST

START_TEST(undeclared_status_and_tag_are_client_errors)
{
    answer(NULL, 418, "{\"teapot\":true}");
    oc_session_get_request req = {0};
    req.session_id.value = "ses_1";
    oc_session_v2_info *info = NULL;
    oc_error *err = NULL;
    ck_assert_int_eq(oc_session_get(client, &req, NULL, &info, &err), OC_ERR);
    ck_assert_int_eq(oc_error_status(err), 418);
    size_t len = 0;
    ck_assert_str_eq(oc_error_body(err, &len), "{\"teapot\":true}");
    expect_reason(&err, OC_REASON_UNEXPECTED_STATUS, NULL);
    srv.nroutes = 0;
    answer(NULL, 404, "{\"_tag\":\"ConflictError\",\"message\":\"x\"}");
    ck_assert_int_eq(oc_session_get(client, &req, NULL, &info, &err), OC_ERR);
    expect_reason(&err, OC_REASON_UNEXPECTED_STATUS, "ConflictError");
}
END_TEST

START_TEST(malformed_names_the_path)
{
    oc_session_get_request req = {0};
    req.session_id.value = "ses_1";
    oc_session_v2_info *info = NULL;
    oc_error *err = NULL;
    answer(NULL, 200, "{\"data\":{\"id\":\"ses_1\"}}");
    ck_assert_int_eq(oc_session_get(client, &req, NULL, &info, &err), OC_ERR);
    expect_reason(&err, OC_REASON_MALFORMED_RESPONSE, "$.data.projectID: missing required field");
    srv.nroutes = 0;
    answer(NULL, 200,
           "{\"data\":{\"id\":\"ses_1\",\"projectID\":\"p\",\"cost\":0,\"tokens\":{\"input\":1,"
           "\"output\":2,\"reasoning\":0,\"cache\":{\"read\":0,\"write\":0}},\"time\":{\"created\":"
           "\"soon\",\"updated\":1},\"title\":\"t\",\"location\":{\"directory\":\"/\"}}}");
    ck_assert_int_eq(oc_session_get(client, &req, NULL, &info, &err), OC_ERR);
    expect_reason(&err, OC_REASON_MALFORMED_RESPONSE,
                  "$.data.time.created: expected number, got string");
    srv.nroutes = 0;
    answer(NULL, 200, "not json");
    ck_assert_int_eq(oc_session_get(client, &req, NULL, &info, &err), OC_ERR);
    expect_reason(&err, OC_REASON_MALFORMED_RESPONSE, NULL);
    ck_assert_ptr_null(info);
}
END_TEST

/* A request with nothing required may be NULL: a required body whose fields are all optional is
 * sent as {}. */
START_TEST(null_request_when_nothing_is_required)
{
    answer("/prefix/api/session", 200, "{\"data\":" SESSION("ses_new") "}");
    oc_session_v2_info *info = NULL;
    oc_error *err = NULL;
    ck_assert_int_eq(oc_session_create(client, NULL, NULL, &info, &err), OC_OK);
    ck_assert_str_eq(srv.method, "POST");
    ck_assert_str_eq(srv.body, "{}");
    ck_assert_str_eq(info->id.value, "ses_new");
    oc_session_v2_info_free(info);
}
END_TEST

START_TEST(prompt_posts_body_and_no_content_ops)
{
    answer("/prefix/api/session/ses_1/prompt", 200,
           "{\"data\":{\"admittedSeq\":3,\"id\":\"msg_9\",\"sessionID\":\"ses_1\",\"prompt\":{"
           "\"text\":\"hi\"},\"delivery\":\"queue\",\"timeCreated\":5}}");
    answer("/prefix/api/session/ses_1/interrupt", 204, NULL);
    oc_session_prompt_request req = {0};
    req.session_id.value = "ses_1";
    req.body.prompt.text = "hi";
    req.body.has_resume = true;
    req.body.resume = false;
    oc_session_input_admitted *adm = NULL;
    oc_error *err = NULL;
    ck_assert_msg(oc_session_prompt(client, &req, NULL, &adm, &err) == OC_OK, "%s",
                  oc_error_message(err));
    ck_assert_str_eq(srv.method, "POST");
    json_t *sent = json_loads(srv.body, 0, NULL);
    ck_assert_ptr_nonnull(sent);
    ck_assert(json_is_false(json_object_get(sent, "resume")));
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(sent, "prompt"), "text")),
                     "hi");
    ck_assert_ptr_null(json_object_get(sent, "id"));
    json_decref(sent);
    ck_assert_int_eq(adm->admitted_seq, 3);
    ck_assert_str_eq(adm->id.value, "msg_9");
    oc_session_input_admitted_free(adm);

    oc_session_interrupt_request ireq = {0};
    ireq.session_id.value = "ses_1";
    ck_assert_int_eq(oc_session_interrupt(client, &ireq, NULL, &err), OC_OK);
    ck_assert_str_eq(srv.method, "POST");
    ck_assert_str_eq(srv.target, "/prefix/api/session/ses_1/interrupt");
}
END_TEST

/* Everything a user touches is under oc_: reasons, auth kinds, cancel tokens, transports. */
START_TEST(one_prefix_for_the_runtime)
{
    /* The SDK's reasons cover the runtime's: the one after the last has no name. */
    static const oc_reason reasons[] = {OC_REASON_NONE,
                                        OC_REASON_TRANSPORT,
                                        OC_REASON_TIMEOUT,
                                        OC_REASON_CANCELLED,
                                        OC_REASON_UNEXPECTED_STATUS,
                                        OC_REASON_UNSUPPORTED_CONTENT_TYPE,
                                        OC_REASON_MALFORMED_RESPONSE,
                                        OC_REASON_INVALID_ARGUMENT,
                                        OC_REASON_RESPONSE_TOO_LARGE,
                                        OC_REASON_EVENT_TOO_LARGE,
                                        OC_REASON_OUT_OF_MEMORY};
    for (size_t i = 0; i < sizeof reasons / sizeof *reasons; i++) {
        ck_assert_int_eq((int)reasons[i], (int)i);
        ck_assert_str_ne(oc_reason_name(reasons[i]), oc_reason_name((oc_reason)99));
    }
    ck_assert_str_eq(oc_reason_name(OC_REASON_TIMEOUT), "TIMEOUT");
    ck_assert_str_eq(oc_reason_name((oc_reason)(OC_REASON_OUT_OF_MEMORY + 1)),
                     oc_reason_name((oc_reason)99));
    ck_assert_int_ne(OC_AUTH_BASIC, OC_AUTH_NONE);
    ck_assert_int_ne(OC_AUTH_BEARER, OC_AUTH_BASIC);

    /* A triggered token cancels the call before any I/O. */
    oc_cancel *cancel = NULL;
    oc_error *err = NULL;
    ck_assert_int_eq(oc_cancel_new(&cancel, &err), OC_OK);
    ck_assert(!oc_cancel_is_triggered(cancel));
    oc_cancel_trigger(cancel);
    ck_assert(oc_cancel_is_triggered(cancel));
    answer(NULL, 200, "{\"data\":" SESSION("ses_1") "}");
    oc_session_get_request req = {0};
    req.session_id.value = "ses_1";
    oc_call_options call = OC_CALL_OPTIONS_INIT;
    call.cancel = cancel;
    oc_session_v2_info *info = NULL;
    ck_assert_int_eq(oc_session_get(client, &req, &call, &info, &err), OC_ERR);
    ck_assert_int_eq(oc_error_reason(err), OC_REASON_CANCELLED);
    ck_assert_int_eq(srv.calls, 0);
    oc_error_clear(&err);
    ck_assert_ptr_null(err);
    oc_cancel_reset(cancel);
    ck_assert(!oc_cancel_is_triggered(cancel));
    ck_assert_int_eq(oc_session_get(client, &req, &call, &info, &err), OC_OK);
    oc_session_v2_info_free(info);
    oc_cancel_free(cancel);
    oc_cancel_free(NULL);
    ck_assert_int_eq(oc_cancel_new(NULL, &err), OC_ERR);
    expect_reason(&err, OC_REASON_INVALID_ARGUMENT, NULL);
    oc_transport *t = NULL;
    ck_assert_int_eq(oc_memory_transport_new(&t, NULL, NULL, &err), OC_ERR);
    ck_assert_ptr_null(t);
    expect_reason(&err, OC_REASON_INVALID_ARGUMENT, NULL);
    oc_transport_free(NULL);
}
END_TEST

/* *err must be NULL on entry; a variable reused without clearing keeps its first error (never
 * freed or overwritten by the SDK), and oc_error_clear makes it reusable. */
START_TEST(err_out_parameter_rules)
{
    oc_session_get_request req = {0};
    oc_session_v2_info *info = NULL;
    oc_error *err = NULL;
    ck_assert_int_eq(oc_session_get(client, &req, NULL, &info, &err), OC_ERR);
    oc_error *first = err;
    ck_assert_ptr_nonnull(first);
    ck_assert_int_eq(oc_error_reason(first), OC_REASON_INVALID_ARGUMENT);
    /* A caller that frees and forgets to reset would pass a dangling pointer; one that does not
     * free at all gets its first error back untouched, and the call still fails. */
    answer(NULL, 404,
           "{\"_tag\":\"SessionNotFoundError\",\"sessionID\":\"ses_9\","
           "\"message\":\"gone\"}");
    req.session_id.value = "ses_9";
    ck_assert_int_eq(oc_session_get(client, &req, NULL, &info, &err), OC_ERR);
    ck_assert_ptr_eq(err, first);
    ck_assert_int_eq(oc_error_reason(err), OC_REASON_INVALID_ARGUMENT);
    ck_assert_ptr_null(info);
    oc_error_clear(&err);
    ck_assert_ptr_null(err);
    oc_error_clear(&err); /* *err NULL: no-op */
    oc_error_clear(NULL);
    ck_assert_int_eq(oc_session_get(client, &req, NULL, &info, &err), OC_ERR);
    ck_assert(oc_error_is_domain(err));
    ck_assert_str_eq(oc_error_tag(err), "SessionNotFoundError");
    oc_error_clear(&err);
    /* err NULL: no details, still a failure. */
    ck_assert_int_eq(oc_session_get(client, &req, NULL, &info, NULL), OC_ERR);
}
END_TEST

START_TEST(invalid_arguments)
{
    oc_session_get_request req = {0};
    oc_session_v2_info *info = NULL;
    oc_error *err = NULL;
    /* A NULL required string is refused before any I/O, naming the call and the argument. */
    ck_assert_int_eq(oc_session_get(client, &req, NULL, &info, &err), OC_ERR);
    expect_reason(&err, OC_REASON_INVALID_ARGUMENT,
                  "GET /api/session/{sessionID}: parameter sessionID: ");
    ck_assert_int_eq(oc_session_get(client, NULL, NULL, &info, &err), OC_ERR);
    expect_reason(&err, OC_REASON_INVALID_ARGUMENT, NULL);
    ck_assert_int_eq(srv.calls, 0);
    /* An operation whose parameters are all optional takes a NULL request. */
    answer(NULL, 200, "{\"data\":[],\"cursor\":{}}");
    oc_session_list_page *page = NULL;
    ck_assert_int_eq(oc_session_list(client, NULL, NULL, &page, &err), OC_OK);
    ck_assert_str_eq(srv.target, "/prefix/api/session");
    ck_assert_uint_eq(page->count, 0);
    ck_assert_ptr_null(page->next);
    oc_session_list_page_free(page);
}
END_TEST

START_TEST(methods_params_and_bodies)
{
    oc_error *err = NULL;
    /* PATCH with a path parameter, a deepObject query and a JSON body; 204. */
    answer(NULL, 204, NULL);
    oc_credential_update_request cu = {0};
    cu.credential_id = "cred 1";
    cu.has_location = true;
    cu.location.has_directory = true;
    cu.location.directory = "/w/x";
    cu.body.label = "new";
    ck_assert_msg(oc_credential_update(client, &cu, NULL, &err) == OC_OK, "%s",
                  oc_error_message(err));
    ck_assert_str_eq(srv.method, "PATCH");
    ck_assert_str_eq(srv.target,
                     "/prefix/api/credential/cred%201?location%5Bdirectory%5D=%2Fw%2Fx");
    ck_assert_str_eq(srv.body, "{\"label\":\"new\"}");
    /* DELETE, no body. */
    oc_permission_saved_remove_request pr = {0};
    pr.id = "per_1";
    ck_assert_int_eq(oc_permission_saved_remove(client, &pr, NULL, &err), OC_OK);
    ck_assert_str_eq(srv.method, "DELETE");
    ck_assert_str_eq(srv.target, "/prefix/api/permission/saved/per_1");
    ck_assert_str_eq(srv.body, "");
    /* POST with a body; a success status other than the declared 204 is UNEXPECTED_STATUS. */
    srv.nroutes = 0;
    answer(NULL, 200, "{}");
    oc_session_switch_agent_request sa = {0};
    sa.session_id.value = "ses_1";
    sa.body.agent = "build";
    ck_assert_int_eq(oc_session_switch_agent(client, &sa, NULL, &err), OC_ERR);
    ck_assert_str_eq(srv.method, "POST");
    ck_assert_str_eq(srv.target, "/prefix/api/session/ses_1/agent");
    ck_assert_str_eq(srv.body, "{\"agent\":\"build\"}");
    expect_reason(&err, OC_REASON_UNEXPECTED_STATUS, NULL);
    /* Required and optional query parameters, an enum as its wire string. */
    srv.nroutes = 0;
    answer(NULL, 200, "{\"data\":[]}");
    oc_fs_find_request ff = {0};
    ff.query = "a&b=c";
    ff.has_type = true;
    ff.type.value = OC_FS_FIND_TYPE_FILE;
    oc_fs_find_response *found = NULL;
    oc_fs_find(client, &ff, NULL, &found, &err);
    ck_assert_str_eq(srv.method, "GET");
    ck_assert_str_eq(srv.target, "/prefix/api/fs/find?query=a%26b%3Dc&type=file");
    oc_fs_find_response_free(found);
    oc_error_free(err);
}
END_TEST

/* ---- pages ---- */

START_TEST(page_query_cursor_and_continue)
{
    answer("/prefix/api/session?limit=7&order=desc&search=a%20b", 200,
           "{\"data\":[" SESSION("ses_1") "," SESSION("ses_2") "],\"cursor\":{\"next\":\"c+2\","
                                                               "\"previous\":null}}");
    /* A continuation sends the cursor only: it stands for the query that made it. */
    answer("/prefix/api/session?cursor=c%2B2", 200,
           "{\"data\":[" SESSION("ses_3") "],\"cursor\":{\"previous\":\"c1\"},\"more\":true}");
    oc_session_list_request req = {0};
    req.has_limit = true;
    req.limit = 7;
    req.has_order = true;
    req.order.value = OC_SESSION_LIST_ORDER_DESC;
    req.has_search = true;
    req.search = "a b";
    oc_session_list_page *page = NULL;
    oc_error *err = NULL;
    ck_assert_msg(oc_session_list(client, &req, NULL, &page, &err) == OC_OK, "%s",
                  oc_error_message(err));
    ck_assert_uint_eq(page->count, 2);
    ck_assert_str_eq(page->items[1].id.value, "ses_2");
    ck_assert_ptr_nonnull(page->next);
    ck_assert_str_eq(oc_session_list_cursor_value(page->next), "c+2");
    ck_assert_ptr_null(page->previous);
    oc_session_list_cursor *keep = NULL;
    ck_assert_int_eq(oc_session_list_cursor_dup(&keep, page->next, &err), OC_OK);
    oc_session_list_page_free(page);
    page = NULL;
    ck_assert_int_eq(oc_session_list_continue(client, keep, NULL, &page, &err), OC_OK);
    ck_assert_str_eq(srv.target, "/prefix/api/session?cursor=c%2B2");
    ck_assert_uint_eq(page->count, 1);
    ck_assert_ptr_null(page->next);
    ck_assert_str_eq(oc_session_list_cursor_value(page->previous), "c1");
    oc_session_list_page_free(page);
    oc_session_list_cursor_free(keep);
    /* A kept cursor text resumes later, in another process say. */
    ck_assert_int_eq(oc_session_list_cursor_new(&keep, "c+2", &err), OC_OK);
    ck_assert_int_eq(oc_session_list_continue(client, keep, NULL, &page, &err), OC_OK);
    ck_assert_str_eq(srv.target, "/prefix/api/session?cursor=c%2B2");
    oc_session_list_page_free(page);
    oc_session_list_cursor_free(keep);
    ck_assert_int_eq(oc_session_list_cursor_new(&keep, NULL, &err), OC_ERR);
    ck_assert_ptr_null(keep);
    ck_assert_int_eq(oc_error_reason(err), OC_REASON_INVALID_ARGUMENT);
    oc_error_clear(&err);
    /* A continuation is a request of the operation like the first page: the same Accept header
     * and the operation's security (here the contract's Basic scheme). */
    oc_client_options o = OC_CLIENT_OPTIONS_INIT;
    o.base_url = "http://127.0.0.1:1/prefix";
    o.transport = transport;
    o.auth = OC_AUTH_BASIC;
    o.username = "opencode";
    o.password = "secret";
    oc_client *authed = NULL;
    ck_assert_int_eq(oc_client_new(&authed, &o, &err), OC_OK);
    ck_assert_int_eq(oc_session_list_cursor_new(&keep, "c+2", &err), OC_OK);
    ck_assert_int_eq(oc_session_list_continue(authed, keep, NULL, &page, &err), OC_OK);
    ck_assert_str_eq(srv.accept, "application/json");
    ck_assert_str_eq(srv.auth, "Basic b3BlbmNvZGU6c2VjcmV0");
    oc_session_list_page_free(page);
    oc_session_list_cursor_free(keep);
    oc_client_free(authed);
    ck_assert_int_eq(oc_session_list_cursor_new(&keep, NULL, &err), OC_ERR);
    ck_assert_ptr_null(keep);
    ck_assert_int_eq(oc_error_reason(err), OC_REASON_INVALID_ARGUMENT);
    oc_error_free(err);
}
END_TEST

START_TEST(iterator_walks_all_pages)
{
    answer("/prefix/api/session?limit=2", 200,
           "{\"data\":[" SESSION("ses_1") "," SESSION("ses_2") "],\"cursor\":{\"next\":\"n2\"}}");
    answer("/prefix/api/session?cursor=n2", 200,
           "{\"data\":[" SESSION("ses_3") "," SESSION("ses_4") "],\"cursor\":{\"next\":\"n3\","
                                                               "\"previous\":\"p2\"}}");
    answer("/prefix/api/session?cursor=n3", 200,
           "{\"data\":[" SESSION("ses_5") "],\"cursor\":{\"next\":null,\"previous\":\"p3\"}}");
    oc_session_list_request req = {0};
    req.has_limit = true;
    req.limit = 2;
    oc_session_list_iter *it = NULL;
    oc_error *err = NULL;
    ck_assert_int_eq(oc_session_list_iter_new(&it, client, &req, NULL, &err), OC_OK);
    ck_assert_int_eq(srv.calls, 0);
    const oc_session_v2_info *item = NULL;
    char seen[64] = "";
    int n = 0;
    oc_next r;
    while ((r = oc_session_list_iter_next(it, &item, &err)) == OC_NEXT_ITEM) {
        strncat(seen, item->id.value + 4, sizeof seen - strlen(seen) - 1);
        n++;
    }
    ck_assert_int_eq(r, OC_NEXT_END);
    ck_assert_int_eq(n, 5);
    ck_assert_str_eq(seen, "12345");
    ck_assert_int_eq(srv.calls, 3);
    oc_session_list_iter_free(it);
}
END_TEST

START_TEST(messages_page_with_path_and_unknown_variant)
{
    answer("/prefix/api/session/ses_7/message?limit=1&order=desc", 200,
           "{\"data\":[{\"type\":\"from-the-future\",\"id\":\"msg_1\",\"x\":[1]}],"
           "\"cursor\":{\"next\":\"m2\"}}");
    /* The path parameter and the cursor only: the server refuses a cursor with an order. */
    answer("/prefix/api/session/ses_7/message?cursor=m2", 200,
           "{\"data\":[],\"cursor\":{\"next\":null,\"previous\":null}}");
    oc_session_messages_request req = {0};
    req.session_id.value = "ses_7";
    req.has_limit = true;
    req.limit = 1;
    req.has_order = true;
    req.order.value = OC_SESSION_MESSAGES_ORDER_DESC;
    oc_session_messages_page *page = NULL;
    oc_error *err = NULL;
    ck_assert_msg(oc_session_messages(client, &req, NULL, &page, &err) == OC_OK, "%s",
                  oc_error_message(err));
    ck_assert_uint_eq(page->count, 1);
    ck_assert_int_eq(page->items[0].kind, 0);
    ck_assert_str_eq(json_string_value(json_object_get(page->items[0].unknown, "type")),
                     "from-the-future");
    oc_session_messages_page *second = NULL;
    ck_assert_int_eq(oc_session_messages_continue(client, page->next, NULL, &second, &err), OC_OK);
    ck_assert_str_eq(srv.target, "/prefix/api/session/ses_7/message?cursor=m2");
    ck_assert_uint_eq(second->count, 0);
    ck_assert_ptr_null(second->next);
    ck_assert_ptr_null(second->previous);
    oc_session_messages_page_free(second);
    /* A kept cursor text with the request's path parameters; its order is not sent. */
    oc_session_messages_cursor *kept = NULL;
    ck_assert_int_eq(oc_session_messages_cursor_new(&kept, &req, "m2", &err), OC_OK);
    ck_assert_int_eq(oc_session_messages_continue(client, kept, NULL, &second, &err), OC_OK);
    ck_assert_str_eq(srv.target, "/prefix/api/session/ses_7/message?cursor=m2");
    oc_session_messages_page_free(second);
    oc_session_messages_cursor_free(kept);
    oc_session_messages_page_free(page);
}
END_TEST

/* ---- streams ---- */

#define MOVED(id)                                                                                  \
    "{\"id\":\"" id "\",\"type\":\"session.next.moved\",\"data\":{\"timestamp\":1,"                \
    "\"sessionID\":\"ses_1\",\"location\":{\"directory\":\"/w\"}}}"

/* Fields every variant shares have one accessor; _tag and _kind_name name a variant. */
START_TEST(union_common_fields_tag_and_kind_name)
{
    static const char *const texts[] = {
        "{\"id\":\"evt_1\",\"type\":\"session.next.moved\",\"durable\":{\"aggregateID\":"
        "\"ses_1\",\"seq\":41,\"version\":2},\"data\":{\"timestamp\":1,\"sessionID\":\"ses_1\","
        "\"location\":{\"directory\":\"/w\"}}}",
        MOVED("evt_2"), /* no durable member */
        "{\"type\":\"session.next.unheard\",\"id\":\"evt_3\",\"durable\":{\"aggregateID\":"
        "\"ses_1\",\"seq\":7,\"version\":1}}",
        /* a shared field that does not decode stays unset; the others are kept */
        "{\"type\":\"session.next.unheard\",\"id\":\"evt_4\",\"durable\":{\"seq\":8}}",
    };
    oc_session_durable_event ev[4];
    oc_error *err = NULL;
    for (int i = 0; i < 4; i++) {
        json_error_t jerr;
        json_t *j = json_loads(texts[i], 0, &jerr);
        ck_assert_msg(j != NULL, "%s", jerr.text);
        memset(&ev[i], 0, sizeof ev[i]);
        ck_assert_int_eq(oc_session_durable_event_decode(&ev[i], j, NULL, &err), OC_OK);
        json_decref(j);
    }
    const oc_durable *d = oc_session_durable_event_durable(&ev[0]);
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(d->seq, 41);
    ck_assert_str_eq(d->aggregate_id, "ses_1");
    ck_assert_ptr_eq(d, &ev[0].u.session_next_moved.durable);
    ck_assert_str_eq(oc_session_durable_event_id(&ev[0])->value, "evt_1");
    ck_assert_str_eq(oc_session_durable_event_tag(&ev[0]), "session.next.moved");
    ck_assert_str_eq(oc_session_durable_event_kind_name(ev[0].kind), "session_next_moved");
    /* Absent optional member: NULL, not a zeroed struct. */
    ck_assert_ptr_null(oc_session_durable_event_durable(&ev[1]));
    ck_assert_str_eq(oc_session_durable_event_id(&ev[1])->value, "evt_2");
    /* A variant this SDK does not know: its tag comes from the raw JSON, and so do the fields
     * every variant shares. */
    ck_assert_int_eq(ev[2].kind, OC_SESSION_DURABLE_EVENT_UNKNOWN);
    ck_assert_str_eq(oc_session_durable_event_tag(&ev[2]), "session.next.unheard");
    ck_assert_int_eq(oc_session_durable_event_durable(&ev[2])->seq, 7);
    ck_assert_str_eq(oc_session_durable_event_id(&ev[2])->value, "evt_3");
    ck_assert_int_eq(ev[3].kind, OC_SESSION_DURABLE_EVENT_UNKNOWN);
    ck_assert_ptr_null(oc_session_durable_event_durable(&ev[3]));
    ck_assert_str_eq(oc_session_durable_event_id(&ev[3])->value, "evt_4");
    ck_assert_str_eq(oc_session_durable_event_kind_name(OC_SESSION_DURABLE_EVENT_UNKNOWN),
                     "unknown");
    ck_assert_ptr_null(oc_session_durable_event_kind_name((oc_session_durable_event_kind)9999));
    ck_assert_ptr_null(oc_session_durable_event_tag(NULL));
    ck_assert_ptr_null(oc_session_durable_event_durable(NULL));
    for (int i = 0; i < 4; i++)
        oc_session_durable_event_cleanup(&ev[i]);
    /* the header says what the accessor does with an UNKNOWN variant (it once said NULL) */
    FILE *h = fopen(SDKC_SOURCE_DIR "/generated/opencode/include/oc/types.h", "rb");
    ck_assert_ptr_nonnull(h);
    static char text[1 << 20];
    size_t n = fread(text, 1, sizeof text - 1, h);
    fclose(h);
    text[n] = '\0';
    ck_assert_ptr_null(strstr(text, "or the kind is unknown"));
    const char *proto = strstr(text, "*oc_session_durable_event_durable(const "
                                     "oc_session_durable_event *value);");
    ck_assert_ptr_nonnull(proto);
    const char *doc = proto;
    while (doc > text && strncmp(doc, "/* \"durable\"", 13) != 0)
        doc--;
    const char *says =
        strstr(doc, "for an UNKNOWN variant, the field as decoded from its raw JSON");
    ck_assert_msg(says && says < proto, "durable accessor comment: %.200s", doc);
}
END_TEST

START_TEST(stream_items_heartbeats_and_failure)
{
    route *r = &srv.routes[srv.nroutes++];
    memset(r, 0, sizeof *r);
    r->status = 200;
    r->content_type = "text/event-stream";
    r->chunks[0] = ": heartbeat\n\ndata: " MOVED("evt_1") "\n\n";
    /* The contract's encoding: data is a JSON string holding the item. */
    json_t *str = json_string(MOVED("evt_3"));
    char *quoted = json_dumps(str, JSON_ENCODE_ANY);
    json_decref(str);
    char encoded[1024];
    snprintf(encoded, sizeof encoded, "data: %s\n\n", quoted);
    free(quoted);
    r->chunks[1] = encoded;
    r->chunks[2] = "data: {\"type\":\"session.next.unheard\",\"id\":\"evt_2\"}\n\n: heartbeat\n\n";
    r->chunks[3] = "event: effect/httpapi/stream/failure\ndata: [{\"_tag\":\"Die\",\"defect\":"
                   "\"boom\"}]\n\n";
    oc_session_events_request req = {0};
    req.session_id.value = "ses_1";
    oc_session_events_stream *s = NULL;
    oc_error *err = NULL;
    ck_assert_int_eq(oc_session_events_open(&s, client, &req, NULL, &err), OC_OK);
    ck_assert_int_eq(srv.calls, 0); /* cold */
    const oc_session_durable_event *ev = NULL;
    ck_assert_int_eq(oc_session_events_next(s, &ev, &err), OC_NEXT_ITEM);
    ck_assert_str_eq(srv.target, "/prefix/api/session/ses_1/event");
    ck_assert_int_eq(ev->kind, OC_SESSION_DURABLE_EVENT_SESSION_NEXT_MOVED);
    ck_assert_str_eq(ev->u.session_next_moved.data.session_id.value, "ses_1");
    ck_assert_int_eq(oc_session_events_next(s, &ev, &err), OC_NEXT_ITEM);
    ck_assert_int_eq(ev->kind, OC_SESSION_DURABLE_EVENT_SESSION_NEXT_MOVED);
    ck_assert_str_eq(ev->u.session_next_moved.id.value, "evt_3");
    ck_assert_int_eq(oc_session_events_next(s, &ev, &err), OC_NEXT_ITEM);
    ck_assert_int_eq(ev->kind, 0);
    ck_assert_ptr_nonnull(ev->unknown);
    ck_assert_int_eq(oc_session_events_next(s, &ev, &err), OC_NEXT_ERROR);
    ck_assert(oc_error_is_domain(err));
    ck_assert_str_eq(oc_error_tag(err), "StreamFailure");
    const oc_session_events_cause_item_list *cause = oc_session_events_failure(err);
    ck_assert_ptr_nonnull(cause);
    ck_assert_uint_eq(cause->count, 1);
    ck_assert_int_eq(cause->items[0].kind, OC_SESSION_EVENTS_CAUSE_ITEM_DIE);
    ck_assert_str_eq(json_string_value(cause->items[0].u.die.defect), "boom");
    oc_error_free(err);
    err = NULL;
    ck_assert_int_eq(oc_session_events_next(s, &ev, &err), OC_NEXT_END);
    oc_session_events_close(s);
}
END_TEST

/* The contract types a Fail cause's error `not: {}` (never) but requires it: what the server sends
 * is kept as raw JSON, so _failure gives a Fail cause. */
START_TEST(stream_fail_cause_keeps_its_error)
{
    route *r = &srv.routes[srv.nroutes++];
    memset(r, 0, sizeof *r);
    r->status = 200;
    r->content_type = "text/event-stream";
    r->chunks[0] = "event: effect/httpapi/stream/failure\ndata: [{\"_tag\":\"Fail\",\"error\":"
                   "{\"_tag\":\"SessionBusyError\",\"message\":\"busy\"}}]\n\n";
    oc_session_events_request req = {0};
    req.session_id.value = "ses_1";
    oc_session_events_stream *s = NULL;
    oc_error *err = NULL;
    const oc_session_durable_event *ev = NULL;
    ck_assert_int_eq(oc_session_events_open(&s, client, &req, NULL, &err), OC_OK);
    ck_assert_int_eq(oc_session_events_next(s, &ev, &err), OC_NEXT_ERROR);
    ck_assert_str_eq(oc_error_tag(err), "StreamFailure");
    const oc_session_events_cause_item_list *cause = oc_session_events_failure(err);
    ck_assert_ptr_nonnull(cause);
    ck_assert_uint_eq(cause->count, 1);
    ck_assert_int_eq(cause->items[0].kind, OC_SESSION_EVENTS_CAUSE_ITEM_FAIL);
    const json_t *e = cause->items[0].u.fail.error;
    ck_assert_str_eq(json_string_value(json_object_get(e, "_tag")), "SessionBusyError");
    ck_assert_ptr_nonnull(strstr(oc_error_message(err), "Fail: SessionBusyError"));
    oc_error_clear(&err);
    oc_session_events_close(s);
}
END_TEST

START_TEST(stream_cut_close_and_error_status)
{
    route *r = &srv.routes[srv.nroutes++];
    memset(r, 0, sizeof *r);
    r->target = "/prefix/api/session/ses_1/event?after=4";
    r->status = 200;
    r->content_type = "text/event-stream";
    r->chunks[0] = "data: " MOVED("evt_5") "\n\ndata: {\"type\":";
    r->cut = true;
    answer("/prefix/api/session/ses_404/event", 404,
           "{\"_tag\":\"SessionNotFoundError\",\"sessionID\":\"ses_404\",\"message\":\"m\"}");
    oc_session_events_request req = {0};
    req.session_id.value = "ses_1";
    req.has_after = true;
    req.after = "4";
    oc_session_events_stream *s = NULL;
    oc_error *err = NULL;
    const oc_session_durable_event *ev = NULL;
    ck_assert_int_eq(oc_session_events_open(&s, client, &req, NULL, &err), OC_OK);
    ck_assert_int_eq(oc_session_events_next(s, &ev, &err), OC_NEXT_ITEM);
    ck_assert_str_eq(srv.target, "/prefix/api/session/ses_1/event?after=4");
    ck_assert_int_eq(oc_session_events_next(s, &ev, &err), OC_NEXT_ERROR);
    expect_reason(&err, OC_REASON_TRANSPORT, NULL);
    oc_session_events_close(s);

    /* close before any next: no I/O at all */
    int calls = srv.calls;
    ck_assert_int_eq(oc_session_events_open(&s, client, &req, NULL, &err), OC_OK);
    oc_session_events_close(s);
    ck_assert_int_eq(srv.calls, calls);

    req.session_id.value = "ses_404";
    req.has_after = false;
    ck_assert_int_eq(oc_session_events_open(&s, client, &req, NULL, &err), OC_OK);
    ck_assert_int_eq(oc_session_events_next(s, &ev, &err), OC_NEXT_ERROR);
    ck_assert_str_eq(oc_error_tag(err), "SessionNotFoundError");
    ck_assert_ptr_nonnull(oc_error_session_not_found_error(err));
    oc_error_free(err);
    oc_session_events_close(s);
}
END_TEST

/* ---- the generated follower of the durable session event stream ---- */

#define DURABLE(id, seq)                                                                           \
    "{\"id\":\"" id "\",\"type\":\"session.next.moved\",\"durable\":{\"aggregateID\":\"ses_1\","   \
    "\"seq\":" #seq ",\"version\":1},\"data\":{\"timestamp\":1,\"sessionID\":\"ses_1\","           \
    "\"location\":{\"directory\":\"/w\"}}}"

typedef struct follow_script {
    int status;
    const char *body;
    bool cut;
} follow_script;

typedef struct follow_server {
    const follow_script *scripts;
    size_t n, next;
    char targets[8][128];
} follow_server;

static int follow_handler(void *userdata, const oc_memory_request *req, oc_memory_response *resp)
{
    follow_server *s = userdata;
    if (s->next < 8)
        snprintf(s->targets[s->next], sizeof s->targets[s->next], "%.100s", req->target);
    if (s->next >= s->n)
        return -1; /* refused */
    const follow_script *fs = &s->scripts[s->next++];
    oc_memory_response_set_status(resp, fs->status);
    oc_memory_response_add_header(resp, "Content-Type",
                                  fs->status == 200 ? "text/event-stream" : "application/json");
    oc_memory_response_add_chunk(resp, fs->body, strlen(fs->body));
    if (fs->cut)
        oc_memory_response_end_with_error(resp, OC_REASON_TRANSPORT, NULL);
    return 0;
}

/* A cut, a 503, a replayed overlap, a poison event and an unknown event type with its sequence,
 * then a 404 that ends it: each reconnect is reported, and the resumes send after=<last seq> as
 * the string the contract declares. */
START_TEST(follower_resumes_after_the_last_sequence)
{
    static const follow_script scripts[] = {
        {200, "data: " DURABLE("evt_1", 1) "\n\ndata: " DURABLE("evt_2", 2) "\n\n", true},
        {503, "{}", false},
        {200,
         "data: " DURABLE("evt_2", 2) "\n\ndata: " DURABLE(
             "evt_3",
             3) "\n\n"
                "data: "
                "{\"id\":\"evt_4\",\"type\":\"session.next.moved\",\"durable\":{\"seq\":4}}\n\n"
                "data: "
                "{\"id\":\"evt_5\",\"type\":\"session.next.unheard\",\"durable\":{\"aggregateID\":"
                "\"ses_1\",\"seq\":5,\"version\":1}}\n\n",
         false},
        {404, "{\"_tag\":\"SessionNotFoundError\",\"sessionID\":\"ses_1\",\"message\":\"gone\"}",
         false},
    };
    follow_server fs = {scripts, 4, 0, {{0}}};
    oc_transport *t = NULL;
    oc_client *c = NULL;
    oc_error *err = NULL;
    ck_assert_int_eq(oc_memory_transport_new(&t, follow_handler, &fs, NULL), OC_OK);
    oc_client_options o = OC_CLIENT_OPTIONS_INIT;
    o.base_url = "http://127.0.0.1:1";
    o.transport = t;
    ck_assert_int_eq(oc_client_new(&c, &o, &err), OC_OK);
    oc_session_events_request req = {0};
    req.session_id.value = "ses_1";
    oc_follow_options fo = OC_FOLLOW_OPTIONS_INIT;
    fo.initial_delay_ms = 1;
    fo.max_delay_ms = 2;
    oc_session_events_follower *f = NULL;
    ck_assert_int_eq(oc_session_events_follow_new(&f, c, &req, &fo, &err), OC_OK);
    ck_assert_uint_eq(fs.next, 0); /* no I/O yet */
    static const char *const want[] = {
        "item 1", "item 2",   "reconnect 1 after 2", "reconnect 2 after 2",
        "item 3", "poison 4", "item 5 unknown",      "reconnect 1 after 5",
        NULL};
    oc_session_events_follow_event ev;
    for (size_t i = 0; want[i]; i++) {
        ck_assert_msg(oc_session_events_follow_next(f, &ev, &err) == OC_NEXT_ITEM, "step %zu: %s",
                      i, err ? oc_error_message(err) : "");
        char line[64];
        if (ev.kind == OC_FOLLOW_ITEM)
            snprintf(line, sizeof line, "item %lld%s", (long long)ev.seq,
                     ev.item->kind == OC_SESSION_DURABLE_EVENT_UNKNOWN ? " unknown" : "");
        else if (ev.kind == OC_FOLLOW_POISON)
            snprintf(line, sizeof line, "poison %lld", (long long)ev.seq);
        else
            snprintf(line, sizeof line, "reconnect %u after %lld", ev.attempt, (long long)ev.after);
        ck_assert_str_eq(line, want[i]);
        if (ev.kind == OC_FOLLOW_POISON) {
            ck_assert_ptr_nonnull(ev.raw);
            ck_assert_ptr_nonnull(strstr(oc_error_message(ev.error), "missing required field"));
        }
    }
    ck_assert_int_eq(oc_session_events_follow_next(f, &ev, &err), OC_NEXT_ERROR);
    ck_assert_str_eq(oc_error_tag(err), "SessionNotFoundError");
    oc_error_clear(&err);
    ck_assert_str_eq(fs.targets[0], "/api/session/ses_1/event");
    ck_assert_str_eq(fs.targets[1], "/api/session/ses_1/event?after=2");
    ck_assert_str_eq(fs.targets[2], "/api/session/ses_1/event?after=2");
    ck_assert_str_eq(fs.targets[3], "/api/session/ses_1/event?after=5");
    oc_session_events_follow_free(f);
    oc_session_events_follow_free(NULL);
    /* a start position in the request that is not a number is refused before any I/O */
    req.has_after = true;
    req.after = "soon";
    ck_assert_int_eq(oc_session_events_follow_new(&f, c, &req, NULL, &err), OC_ERR);
    expect_reason(&err, OC_REASON_INVALID_ARGUMENT, "not a sequence number");
    oc_client_free(c);
    oc_transport_free(t);
}
END_TEST

/* ---- items that do not decode on the plain stream ---- */

#define POISON_EVENT(id, seq)                                                                      \
    "{\"id\":\"" id "\",\"type\":\"session.next.moved\",\"durable\":{\"aggregateID\":\"ses_1\","   \
    "\"seq\":" #seq ",\"version\":1},\"data\":{\"sessionID\":\"ses_1\"}}"

static void stream_route(const char *body)
{
    route *r = &srv.routes[srv.nroutes++];
    memset(r, 0, sizeof *r);
    r->status = 200;
    r->content_type = "text/event-stream";
    r->chunks[0] = body;
}

/* Good, undecodable (no data.timestamp), good: _next_event delivers all three in order, the middle
 * one as poison with its data, JSON, sequence and error; _next ends at it with MALFORMED_RESPONSE.
 */
START_TEST(stream_next_event_goes_past_poison)
{
    stream_route("data: " DURABLE("evt_1", 1) "\n\ndata: " POISON_EVENT(
        "evt_2", 2) "\n\n: heartbeat\n\ndata: " DURABLE("evt_3", 3) "\n\n");
    oc_session_events_request req = {0};
    req.session_id.value = "ses_1";
    oc_session_events_stream *s = NULL;
    oc_error *err = NULL;
    oc_session_events_stream_event ev;
    ck_assert_int_eq(oc_session_events_open(&s, client, &req, NULL, &err), OC_OK);
    ck_assert_int_eq(oc_session_events_next_event(s, &ev, &err), OC_NEXT_ITEM);
    ck_assert_int_eq(ev.kind, OC_STREAM_ITEM);
    ck_assert_str_eq(ev.item->u.session_next_moved.id.value, "evt_1");
    ck_assert(ev.has_seq);
    ck_assert_int_eq(ev.seq, 1);
    ck_assert_ptr_null(ev.raw);
    ck_assert_ptr_null(ev.error);
    ck_assert_int_eq(oc_session_events_next_event(s, &ev, &err), OC_NEXT_ITEM);
    ck_assert_int_eq(ev.kind, OC_STREAM_POISON);
    ck_assert_ptr_null(ev.item);
    ck_assert_ptr_null(err);
    ck_assert_str_eq(ev.data, POISON_EVENT("evt_2", 2));
    ck_assert_uint_eq(ev.data_len, strlen(ev.data));
    ck_assert_str_eq(json_string_value(json_object_get(ev.raw, "id")), "evt_2");
    ck_assert(ev.has_seq);
    ck_assert_int_eq(ev.seq, 2);
    ck_assert_int_eq(oc_error_reason(ev.error), OC_REASON_MALFORMED_RESPONSE);
    ck_assert_msg(strstr(oc_error_message(ev.error), "$.data.timestamp: missing required field"),
                  "%s", oc_error_message(ev.error));
    ck_assert_int_eq(oc_session_events_next_event(s, &ev, &err), OC_NEXT_ITEM);
    ck_assert_int_eq(ev.kind, OC_STREAM_ITEM);
    ck_assert_str_eq(ev.item->u.session_next_moved.id.value, "evt_3");
    ck_assert_int_eq(ev.seq, 3);
    ck_assert_int_eq(oc_session_events_next_event(s, &ev, &err), OC_NEXT_END);
    ck_assert_ptr_null(err);
    oc_session_events_close(s);

    /* strict: the same stream read with _next */
    const oc_session_durable_event *item = NULL;
    ck_assert_int_eq(oc_session_events_open(&s, client, &req, NULL, &err), OC_OK);
    ck_assert_int_eq(oc_session_events_next(s, &item, &err), OC_NEXT_ITEM);
    ck_assert_str_eq(item->u.session_next_moved.id.value, "evt_1");
    ck_assert_int_eq(oc_session_events_next(s, &item, &err), OC_NEXT_ERROR);
    ck_assert_ptr_null(item);
    expect_reason(&err, OC_REASON_MALFORMED_RESPONSE, "$.data.timestamp: missing required field");
    ck_assert_int_eq(oc_session_events_next(s, &item, &err), OC_NEXT_END);
    oc_session_events_close(s);

    /* a stream without a durable sequence (the global event stream): no seq to report */
    ck_assert_int_eq(srv.calls, 2);
    oc_event_subscribe_stream *g = NULL;
    oc_event_subscribe_stream_event gev;
    ck_assert_int_eq(oc_event_subscribe_open(&g, client, NULL, &err), OC_OK);
    ck_assert_int_eq(oc_event_subscribe_next_event(g, NULL, &err), OC_NEXT_ERROR);
    expect_reason(&err, OC_REASON_INVALID_ARGUMENT, "stream and event are required");
    static const oc_stream_kind want[] = {OC_STREAM_ITEM, OC_STREAM_POISON, OC_STREAM_ITEM};
    for (size_t i = 0; i < 3; i++) {
        ck_assert_int_eq(oc_event_subscribe_next_event(g, &gev, &err), OC_NEXT_ITEM);
        ck_assert_int_eq(gev.kind, want[i]);
        ck_assert(gev.kind == OC_STREAM_ITEM ? gev.item != NULL : gev.raw != NULL);
    }
    ck_assert_int_eq(oc_event_subscribe_next_event(g, &gev, &err), OC_NEXT_END);
    oc_event_subscribe_close(g);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("opencode");
    TCase *tc = tcase_create("memory");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, get_sends_exact_request_and_decodes);
    tcase_add_test(tc, domain_error_is_typed);
    tcase_add_test(tc, every_declared_tag_of_message_decodes);
    tcase_add_test(tc, undeclared_status_and_tag_are_client_errors);
    tcase_add_test(tc, malformed_names_the_path);
    tcase_add_test(tc, prompt_posts_body_and_no_content_ops);
    tcase_add_test(tc, one_prefix_for_the_runtime);
    tcase_add_test(tc, err_out_parameter_rules);
    tcase_add_test(tc, invalid_arguments);
    tcase_add_test(tc, methods_params_and_bodies);
    tcase_add_test(tc, page_query_cursor_and_continue);
    tcase_add_test(tc, iterator_walks_all_pages);
    tcase_add_test(tc, messages_page_with_path_and_unknown_variant);
    tcase_add_test(tc, union_common_fields_tag_and_kind_name);
    tcase_add_test(tc, stream_items_heartbeats_and_failure);
    tcase_add_test(tc, stream_cut_close_and_error_status);
    tcase_add_test(tc, stream_fail_cause_keeps_its_error);
    tcase_add_test(tc, follower_resumes_after_the_last_sequence);
    tcase_add_test(tc, stream_next_event_goes_past_poison);
    tcase_add_test(tc, null_request_when_nothing_is_required);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
