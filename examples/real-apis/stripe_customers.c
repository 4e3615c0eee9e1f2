/* stripe_customers.c - create a customer, list every customer, retrieve the new one, with the
 * SDK that `sdkc generate` made from Stripe's OpenAPI contract (prefix stripe).
 *   STRIPE_API_KEY=sk_test_... stripe_customers [BASE_URL]
 * BASE_URL defaults to the contract's server (STRIPE_DEFAULT_BASE_URL); run.sh passes a Prism
 * mock's, and the program fails when Prism reports a request that breaks the contract. Exit status
 * 3: only the list walk stopped with an error ("list stopped: ..." says why). */
#include <stdio.h>
#include <stdlib.h>
#include <stripe/stripe.h>

#include "prism_check.h"

static void count_violations(void *violations, int status, const stripe_header *h, size_t n)
{
    (void)status;
    for (size_t i = 0; i < n; i++)
        *(int *)violations += prism_violations(h[i].name, h[i].value);
}

int main(int argc, char **argv)
{
    const char *key = getenv("STRIPE_API_KEY");
    int violations = 0;
    int list_stopped = 0; /* the list walk ended with an error */
    stripe_client *client = NULL;
    stripe_error *err = NULL;
    stripe_customer *created = NULL;
    stripe_get_customers_iter *it = NULL;
    stripe_get_customers_customer_response *found = NULL;

    stripe_global_init();
    stripe_client_options opts = STRIPE_CLIENT_OPTIONS_INIT;
    opts.base_url = argc > 1 ? argv[1] : STRIPE_DEFAULT_BASE_URL;
    opts.auth = STRIPE_AUTH_BEARER; /* the secret key */
    opts.token = key ? key : "sk_test_example";
    opts.retry.max_attempts = 3; /* 429 and 5xx: backoff, Retry-After honoured */
    stripe_call_options call = STRIPE_CALL_OPTIONS_INIT;
    call.on_response = count_violations;
    call.userdata = &violations;
    if (stripe_client_new(&client, &opts, &err) != STRIPE_OK)
        goto done;

    /* A POST is retried only with an idempotency key: a new one per call, kept across retries. */
    stripe_call_options create_call = call;
    create_call.idempotency_key = STRIPE_IDEMPOTENCY_AUTO;
    stripe_post_customers_request create = {0};
    create.has_body = true;
    create.body.has_email = true;
    create.body.email = "jenny.rosen@example.com";
    create.body.has_name = true;
    create.body.name = "Jenny Rosen";
    if (stripe_post_customers(client, &create, &create_call, &created, &err) != STRIPE_OK)
        goto done;
    printf("created customer %s\n", created->id);

    /* Every customer: the iterator sends starting_after = the last id until has_more is false. */
    stripe_get_customers_request list = {0};
    list.has_limit = true;
    list.limit = 100;
    if (stripe_get_customers_iter_new(&it, client, &list, &call, &err) != STRIPE_OK)
        goto done;
    const stripe_customer *customer;
    stripe_next step;
    size_t count = 0;
    while ((step = stripe_get_customers_iter_next(it, &customer, &err)) == STRIPE_NEXT_ITEM)
        count++;
    printf("listed %zu customers\n", count);
    /* A walk that stops with an error has given its items: say why and go on; the exit status
       tells (3). Against a Prism mock, whose static example pages repeat, this is the runtime's
       "the pages do not end" (run.sh checks that it is). */
    if (step == STRIPE_NEXT_ERROR) {
        printf("list stopped: %s\n", stripe_error_message(err));
        list_stopped = 1;
        stripe_error_free(err);
        err = NULL;
    }

    stripe_get_customers_customer_request get = {0};
    get.customer = created->id;
    if (stripe_get_customers_customer(client, &get, &call, &found, &err) != STRIPE_OK)
        goto done;
    printf("retrieved %s%s\n", stripe_get_customers_customer_response_id(found),
           found->kind == STRIPE_GET_CUSTOMERS_CUSTOMER_RESPONSE_DELETED_CUSTOMER ? " (deleted)"
                                                                                  : "");

done:
    if (err)
        fprintf(stderr, "stripe: %s\n", stripe_error_message(err));
    printf("request violations: %d\n", violations);
    int failed = err != NULL || violations > 0;
    int status = failed ? EXIT_FAILURE : list_stopped ? 3 : EXIT_SUCCESS;
    stripe_error_free(err);
    stripe_get_customers_customer_response_free(found);
    stripe_get_customers_iter_free(it);
    stripe_customer_free(created);
    stripe_client_free(client);
    stripe_global_cleanup();
    return status;
}
