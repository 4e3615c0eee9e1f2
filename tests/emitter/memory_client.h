/* The fixture of the SDK tests generated from small contracts (emitter/results, errors, inputs):
 * a client on the in-memory transport, and a handler that answers one canned status and JSON
 * body. A generated SDK's client is the runtime's under its own prefix (rs_client is
 * sdkrt_client), so one fixture serves every prefix. */
#ifndef SDKC_TEST_MEMORY_CLIENT_H
#define SDKC_TEST_MEMORY_CLIENT_H

#include <check.h>
#include <string.h>

#include "sdkrt/sdkrt.h"

static sdkrt_transport *transport;
static sdkrt_client *client;

/* For a Check fixture: the client answers through handler (userdata NULL). */
static inline void memory_client_open(sdkrt_memory_handler handler)
{
    ck_assert_int_eq(sdkrt_memory_transport_new(&transport, handler, NULL), SDKRT_OK);
    sdkrt_client_options o = SDKRT_CLIENT_OPTIONS_INIT;
    o.base_url = "http://127.0.0.1:1";
    o.transport = transport;
    o.retry.max_attempts = 1; /* one canned answer per call: retries off */
    sdkrt_error *err = NULL;
    ck_assert_int_eq(sdkrt_client_new(&client, &o, &err), SDKRT_OK);
}

static inline void memory_client_close(void)
{
    sdkrt_client_free(client);
    sdkrt_memory_transport_free(transport);
    client = NULL;
    transport = NULL;
}

typedef struct canned {
    int status;
    const char *body;         /* JSON, or NULL for no body */
    const char *content_type; /* NULL: application/json */
} canned;

/* What canned_handler answers next (set with canned_reply). */
static inline canned *canned_answer(void)
{
    static canned answer;
    return &answer;
}

static inline void canned_reply(int status, const char *body)
{
    canned_answer()->status = status;
    canned_answer()->body = body;
    canned_answer()->content_type = NULL;
}

/* The next answer with its Content-Type (NULL: none is sent). */
static inline void canned_reply_as(int status, const char *content_type, const char *body)
{
    canned_reply(status, body);
    canned_answer()->content_type = content_type ? content_type : "";
}

static inline int canned_handler(void *userdata, const sdkrt_memory_request *req,
                                 sdkrt_memory_response *resp)
{
    (void)userdata;
    (void)req;
    const canned *a = canned_answer();
    sdkrt_memory_response_set_status(resp, a->status);
    if (a->body) {
        const char *ct = a->content_type ? a->content_type : "application/json";
        if (*ct)
            sdkrt_memory_response_add_header(resp, "Content-Type", ct);
        sdkrt_memory_response_add_chunk(resp, a->body, strlen(a->body));
    }
    return 0;
}

static inline void canned_setup(void)
{
    memory_client_open(canned_handler);
}

#endif
