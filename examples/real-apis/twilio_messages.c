/* twilio_messages.c - send an SMS and list every message of the account, with the SDK that
 * `sdkc generate` made from Twilio's OpenAPI contract (prefix twilio).
 *   TWILIO_ACCOUNT_SID=AC... TWILIO_AUTH_TOKEN=... twilio_messages [BASE_URL]
 * BASE_URL defaults to the contract's server (TWILIO_DEFAULT_BASE_URL); run.sh passes a Prism
 * mock's, and the program fails when Prism reports a request that breaks the contract. Exit status
 * 3: only the list walk stopped with an error ("list stopped: ..." says why). */
#include <stdio.h>
#include <stdlib.h>
#include <twilio/twilio.h>

#include "prism_check.h"

static void count_violations(void *violations, int status, const twilio_header *h, size_t n)
{
    (void)status;
    for (size_t i = 0; i < n; i++)
        *(int *)violations += prism_violations(h[i].name, h[i].value);
}

int main(int argc, char **argv)
{
    const char *sid = getenv("TWILIO_ACCOUNT_SID");
    const char *token = getenv("TWILIO_AUTH_TOKEN");
    if (!sid)
        sid = "AC0123456789abcdef0123456789abcdef";
    int violations = 0;
    int list_stopped = 0; /* the list walk ended with an error */
    twilio_client *client = NULL;
    twilio_error *err = NULL;
    twilio_api_v2010_account_message *sent = NULL;
    twilio_list_message_iter *it = NULL;

    twilio_global_init();
    twilio_client_options opts = TWILIO_CLIENT_OPTIONS_INIT;
    opts.base_url = argc > 1 ? argv[1] : TWILIO_DEFAULT_BASE_URL;
    opts.auth = TWILIO_AUTH_BASIC; /* account SID and auth token */
    opts.username = sid;
    opts.password = token ? token : "example-token";
    opts.retry.max_attempts = 3;
    twilio_call_options call = TWILIO_CALL_OPTIONS_INIT;
    call.on_response = count_violations;
    call.userdata = &violations;
    if (twilio_client_new(&client, &opts, &err) != TWILIO_OK)
        goto done;

    /* A form-encoded POST; retried only because it carries an idempotency key. */
    twilio_call_options send_call = call;
    send_call.idempotency_key = TWILIO_IDEMPOTENCY_AUTO;
    twilio_create_message_request send = {0};
    send.account_sid = sid;
    send.has_body = true;
    send.body.to = "+15558675310";
    send.body.has_from = true;
    send.body.from = "+15017122661";
    send.body.has_body = true;
    send.body.body = "Hi there";
    if (twilio_create_message(client, &send, &send_call, &sent, &err) != TWILIO_OK)
        goto done;
    printf("sent %s (%s)\n", sent->sid,
           sent->has_status ? twilio_message_enum_status_wire(&sent->status) : "?");

    /* Every message: the iterator follows next_page_uri until it is null. */
    twilio_list_message_request list = {0};
    list.account_sid = sid;
    list.has_page_size = true;
    list.page_size = 1000;
    if (twilio_list_message_iter_new(&it, client, &list, &call, &err) != TWILIO_OK)
        goto done;
    const twilio_api_v2010_account_message *message;
    twilio_next step;
    size_t count = 0;
    while ((step = twilio_list_message_iter_next(it, &message, &err)) == TWILIO_NEXT_ITEM)
        count++;
    printf("listed %zu messages\n", count);
    /* A walk that stops with an error has given its items: say why and go on; the exit status
       tells (3). Against a Prism mock, whose static example pages repeat, this is the runtime's
       "the pages do not end" (run.sh checks that it is). */
    if (step == TWILIO_NEXT_ERROR) {
        printf("list stopped: %s\n", twilio_error_message(err));
        list_stopped = 1;
        twilio_error_free(err);
        err = NULL;
    }

done:
    if (err)
        fprintf(stderr, "twilio: %s\n", twilio_error_message(err));
    printf("request violations: %d\n", violations);
    int failed = err != NULL || violations > 0;
    int status = failed ? EXIT_FAILURE : list_stopped ? 3 : EXIT_SUCCESS;
    twilio_error_free(err);
    twilio_list_message_iter_free(it);
    twilio_api_v2010_account_message_free(sent);
    twilio_client_free(client);
    twilio_global_cleanup();
    return status;
}
