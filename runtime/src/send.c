/* Blocking unary calls: the call layer (call.h) driven by the transport's send, waiting between
 * attempts on the calling thread. */
#include "call.h"

sdkrt_status sdkrt_client_send(sdkrt_client *client, const sdkrt_request *req,
                               const sdkrt_call_options *call, sdkrt_response **resp,
                               sdkrt_error **err)
{
    *resp = NULL;
    sdkrt_unary_ u;
    if (sdkrt_unary_init_(&u, client, req, call, err) != SDKRT_OK)
        return SDKRT_ERR;
    /* the waits end on the call's token or the client's, as the attempts do */
    const sdkrt_cancel *cancel = u.p.treq.cancel;
    const sdkrt_transport *t = client->transport;
    sdkrt_status st;
    for (;;) {
        sdkrt_response *r = NULL;
        sdkrt_error *e = NULL;
        if (u.attempt > 1 && sdkrt_prepared_reread_(&u.p, &e) != SDKRT_OK) {
            st = SDKRT_ERR;
        } else if (sdkrt_cancel_is_triggered(cancel)) {
            st = sdkrt_exchange_cancelled_(&u.p, &e);
        } else {
            sdkrt_error *te = NULL;
            st = t->ops->send(t->self, &u.p.treq, &r, &te);
            st = sdkrt_exchange_outcome_(&u.p, st, &r, te, &e);
        }
        long delay = 0;
        if (!sdkrt_unary_retry_(&u, st, r, e, &delay)) {
            *resp = r;
            sdkrt_error_propagate(err, e);
            break;
        }
        if (u.policy.sleep)
            u.policy.sleep(u.policy.userdata, delay, cancel);
        else
            sdkrt_cancel_wait(cancel, delay); /* a plain sleep without a token */
        if (sdkrt_cancel_is_triggered(cancel)) {
            st = sdkrt_unary_cancelled_waiting_(&u, err);
            break;
        }
    }
    sdkrt_unary_cleanup_(&u);
    return st;
}
