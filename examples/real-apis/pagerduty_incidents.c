/* pagerduty_incidents.c - every open incident and every audit record of an account, with the SDK
 * that `sdkc generate` made from PagerDuty's REST API v2 (an excerpt: pagerduty-contract.json;
 * prefix pagerduty).
 *   PAGERDUTY_TOKEN=... pagerduty_incidents [BASE_URL]
 * BASE_URL defaults to the contract's server (PAGERDUTY_DEFAULT_BASE_URL); run.sh passes a Prism
 * mock's, and the program fails when Prism reports a request that breaks the contract. Exit status
 * 3: only a list walk stopped with an error ("list stopped: ..." says why). */
#include <pagerduty/pagerduty.h>
#include <stdio.h>
#include <stdlib.h>

#include "prism_check.h"

static void count_violations(void *violations, int status, const pagerduty_header *h, size_t n)
{
    (void)status;
    for (size_t i = 0; i < n; i++)
        *(int *)violations += prism_violations(h[i].name, h[i].value);
}

/* A walk that stops with an error has given its items: say why and go on; the exit status tells
 * (3). Against a Prism mock, whose static example pages repeat, this is the runtime's "the pages
 * do not end" (run.sh checks that it is). False when there is no error to tell. */
static int stopped(pagerduty_error **err, int *list_stopped)
{
    if (!*err)
        return 0;
    printf("list stopped: %s\n", pagerduty_error_message(*err));
    *list_stopped = 1;
    pagerduty_error_free(*err);
    *err = NULL;
    return 1;
}

int main(int argc, char **argv)
{
    const char *key = getenv("PAGERDUTY_TOKEN");
    char auth[256];
    int violations = 0;
    int list_stopped = 0; /* a list walk ended with an error */
    pagerduty_client *client = NULL;
    pagerduty_error *err = NULL;
    pagerduty_list_incidents_iter *incidents = NULL;
    pagerduty_list_audit_records_iter *records = NULL;

    pagerduty_global_init();
    /* The apiKey scheme's header is Authorization, its value "Token token=KEY". */
    snprintf(auth, sizeof auth, "Token token=%s", key ? key : "y_NbAkKc66ryYTWUXYEu");
    pagerduty_client_options opts = PAGERDUTY_CLIENT_OPTIONS_INIT;
    opts.base_url = argc > 1 ? argv[1] : PAGERDUTY_DEFAULT_BASE_URL;
    opts.auth = PAGERDUTY_AUTH_API_KEY;
    opts.token = auth;
    opts.retry.max_attempts = 3;
    pagerduty_call_options call = PAGERDUTY_CALL_OPTIONS_INIT;
    call.on_response = count_violations;
    call.userdata = &violations;
    if (pagerduty_client_new(&client, &opts, &err) != PAGERDUTY_OK)
        goto done;

    /* Every open incident: offset advances by the items seen until the page says more: false. */
    const pagerduty_list_incidents_statuses_item_in open[] = {
        {PAGERDUTY_LIST_INCIDENTS_STATUSES_ITEM_TRIGGERED, NULL},
        {PAGERDUTY_LIST_INCIDENTS_STATUSES_ITEM_ACKNOWLEDGED, NULL},
    };
    pagerduty_list_incidents_request list = {0};
    list.has_statuses = true;
    list.statuses.items = open;
    list.statuses.count = 2;
    if (pagerduty_list_incidents_iter_new(&incidents, client, &list, &call, &err) != PAGERDUTY_OK)
        goto done;
    const pagerduty_incident *incident;
    pagerduty_next step;
    size_t count = 0;
    while ((step = pagerduty_list_incidents_iter_next(incidents, &incident, &err)) ==
           PAGERDUTY_NEXT_ITEM) {
        if (count++ == 0 && incident->has_summary)
            printf("%s (%s)\n", incident->summary,
                   incident->has_status ? pagerduty_incident_status_wire(&incident->status) : "?");
    }
    printf("listed %zu incidents\n", count);
    if (step == PAGERDUTY_NEXT_ERROR && !stopped(&err, &list_stopped))
        goto done;

    /* Every audit record: the cursor is the previous page's next_cursor until it is null. */
    pagerduty_list_audit_records_request audit = {0};
    audit.has_limit = true;
    audit.limit = 100;
    if (pagerduty_list_audit_records_iter_new(&records, client, &audit, &call, &err) !=
        PAGERDUTY_OK)
        goto done;
    const pagerduty_audit_record *record;
    count = 0;
    while ((step = pagerduty_list_audit_records_iter_next(records, &record, &err)) ==
           PAGERDUTY_NEXT_ITEM)
        count++;
    printf("listed %zu audit records\n", count);
    if (step == PAGERDUTY_NEXT_ERROR && !stopped(&err, &list_stopped))
        goto done;

done:
    if (err)
        fprintf(stderr, "pagerduty: %s\n", pagerduty_error_message(err));
    printf("request violations: %d\n", violations);
    int failed = err != NULL || violations > 0;
    int status = failed ? EXIT_FAILURE : list_stopped ? 3 : EXIT_SUCCESS;
    pagerduty_error_free(err);
    pagerduty_list_audit_records_iter_free(records);
    pagerduty_list_incidents_iter_free(incidents);
    pagerduty_client_free(client);
    pagerduty_global_cleanup();
    return status;
}
