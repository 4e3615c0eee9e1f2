/* Asynchronous unary calls (sdkrt_client_send_async): the call layer (call.h) driven by the loop.
 * Each attempt is a libcurl transfer in the loop's multi handle; the head timeout and the backoff
 * between attempts are loop timers; the cancel token's pipe is watched by the loop. A client whose
 * transport is not libcurl (the in-memory transport) runs each attempt through its send on the
 * loop thread, so the same call logic can be exercised without sockets. */
#include <stdlib.h>
#include <string.h>

#include "call.h"
#include "loop_internal.h"

typedef enum astate {
    A_QUEUED,  /* the first attempt starts on the loop's next turn */
    A_RUNNING, /* a transfer is under way (the timer: its head timeout) */
    A_BACKOFF  /* waiting to repeat an attempt (the timer: the delay) */
} astate;

typedef struct acall {
    sdkrt_loop_op_ op; /* first: the loop hands it back */
    sdkrt_client *client;
    sdkrt_unary_ u;
    sdkrt_send_done_fn done;
    void *userdata;
    astate state;
    sdkrt_loop_timer timer;
    sdkrt_xfer_ x;
    CURL *easy; /* kept across attempts */
} acall;

static void acall_free(acall *a)
{
    sdkrt_loop_timer_disarm_(&a->timer);
    sdkrt_loop_xfer_remove_(a->op.loop, &a->x);
    sdkrt_xfer_cleanup_(&a->x);
    sdkrt_loop_easy_give_(a->op.loop, a->easy);
    sdkrt_unary_cleanup_(&a->u);
    free(a);
}

/* The call's end: unregister, release, then report (r new and e stolen; e borrowed by done). */
static void deliver(acall *a, sdkrt_response *r, sdkrt_error *e)
{
    sdkrt_loop_op_remove_(&a->op);
    sdkrt_send_done_fn done = a->done;
    void *userdata = a->userdata;
    acall_free(a);
    if (!r && !e)
        sdkrt_error_set(&e, SDKRT_REASON_TRANSPORT, "the call failed without a reason");
    done(userdata, r, r ? NULL : e);
    sdkrt_error_free(e);
}

static void start_attempt(acall *a);

/* An attempt ended (st with r or e, as sdkrt_exchange_outcome_ gives them): repeat or finish. */
static void after_attempt(acall *a, sdkrt_status st, sdkrt_response *r, sdkrt_error *e)
{
    long delay = 0;
    if (!sdkrt_unary_retry_(&a->u, st, r, e, &delay)) {
        if (st == SDKRT_OK) {
            sdkrt_error_free(e);
            deliver(a, r, NULL);
        } else {
            sdkrt_response_free(r);
            deliver(a, NULL, e);
        }
        return;
    }
    a->state = A_BACKOFF;
    if (sdkrt_loop_timer_arm_(&a->timer, delay) != SDKRT_OK) {
        sdkrt_error *oom = NULL;
        sdkrt_error_set(&oom, SDKRT_REASON_OUT_OF_MEMORY, "%s %s: out of memory arming a timer",
                        a->u.p.method, a->u.p.shown_url);
        deliver(a, NULL, oom);
    }
}

/* The transfer ended (x->done), or its head is late (late). */
static void finish_transfer(acall *a, bool late)
{
    sdkrt_loop_timer_disarm_(&a->timer);
    sdkrt_response *r = NULL;
    sdkrt_error *te = NULL, *e = NULL;
    sdkrt_status st = sdkrt_xfer_outcome_(&a->x, late, &r, &te);
    sdkrt_loop_xfer_remove_(a->op.loop, &a->x);
    sdkrt_xfer_cleanup_(&a->x);
    st = sdkrt_exchange_outcome_(&a->u.p, st, &r, te, &e);
    after_attempt(a, st, r, e);
}

static void xfer_done(sdkrt_xfer_ *x)
{
    finish_transfer(x->owner, false);
}

/* One attempt through a transport other than libcurl: its send, on the loop thread. */
static void send_through_transport(acall *a)
{
    const sdkrt_transport *t = a->client->transport;
    sdkrt_response *r = NULL;
    sdkrt_error *te = NULL, *e = NULL;
    sdkrt_status st = t->ops->send(t->self, &a->u.p.treq, &r, &te);
    st = sdkrt_exchange_outcome_(&a->u.p, st, &r, te, &e);
    after_attempt(a, st, r, e);
}

static void start_attempt(acall *a)
{
    sdkrt_error *e = NULL;
    if (a->u.attempt > 1 && sdkrt_prepared_reread_(&a->u.p, &e) != SDKRT_OK) {
        after_attempt(a, SDKRT_ERR, NULL, e);
        return;
    }
    if (sdkrt_cancel_is_triggered(a->op.cancel)) {
        if (a->state == A_BACKOFF)
            sdkrt_unary_cancelled_waiting_(&a->u, &e);
        else
            sdkrt_exchange_cancelled_(&a->u.p, &e);
        deliver(a, NULL, e);
        return;
    }
    a->state = A_RUNNING;
    if (!sdkrt_transport_is_curl_(a->client->transport)) {
        send_through_transport(a);
        return;
    }
    if (a->easy)
        curl_easy_reset(a->easy);
    else
        a->easy = sdkrt_loop_easy_take_(a->op.loop);
    memset(&a->x, 0, sizeof a->x);
    sdkrt_error *te = NULL;
    sdkrt_status st = SDKRT_ERR;
    if (!a->easy)
        sdkrt_error_set(&te, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    else if ((st = sdkrt_xfer_setup_(&a->x, a->easy, &a->u.p.treq, false, &te)) == SDKRT_OK)
        st = sdkrt_loop_xfer_add_(a->op.loop, &a->x, &te);
    a->x.on_done = xfer_done;
    a->x.owner = a;
    long left = st == SDKRT_OK ? sdkrt_xfer_head_left_(&a->x, sdkrt_now_ms_()) : -1;
    if (st == SDKRT_OK && left >= 0 && sdkrt_loop_timer_arm_(&a->timer, left) != SDKRT_OK) {
        st = sdkrt_error_set(&te, SDKRT_REASON_OUT_OF_MEMORY, "out of memory arming a timer");
    }
    if (st != SDKRT_OK) {
        sdkrt_loop_xfer_remove_(a->op.loop, &a->x);
        sdkrt_xfer_cleanup_(&a->x);
        sdkrt_response *none = NULL;
        st = sdkrt_exchange_outcome_(&a->u.p, st, &none, te, &e);
        after_attempt(a, st, NULL, e);
    }
}

static void on_timer(void *userdata)
{
    acall *a = userdata;
    if (a->state != A_RUNNING) {
        start_attempt(a);
        return;
    }
    /* the head timeout: it counts from the request's last byte, which may have moved */
    long left = sdkrt_xfer_head_left_(&a->x, sdkrt_now_ms_());
    if (left < 0)
        return;
    if (left > 0 && sdkrt_loop_timer_arm_(&a->timer, left) == SDKRT_OK)
        return;
    finish_transfer(a, true);
}

static void on_cancel(sdkrt_loop_op_ *op, bool loop_freed)
{
    acall *a = (acall *)op;
    sdkrt_error *e = NULL;
    const sdkrt_prepared_ *p = &a->u.p;
    if (loop_freed)
        sdkrt_error_set(&e, SDKRT_REASON_CANCELLED, "%s %s: cancelled: the loop was freed",
                        p->method, p->shown_url);
    else if (a->state == A_QUEUED)
        sdkrt_exchange_cancelled_(p, &e);
    else if (a->state == A_BACKOFF)
        sdkrt_unary_cancelled_waiting_(&a->u, &e);
    else
        sdkrt_error_set(&e, SDKRT_REASON_CANCELLED, "%s %s: cancelled", p->method, p->shown_url);
    deliver(a, NULL, e);
}

sdkrt_status sdkrt_client_send_async(sdkrt_client *client, const sdkrt_request *req,
                                     const sdkrt_call_options *call, sdkrt_send_done_fn done,
                                     void *userdata, sdkrt_error **err)
{
    if (!client || !req || !done)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "sdkrt_client_send_async needs a client, a request and a callback");
    if (!client->loop)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                               "%s %s: the client has no loop (sdkrt_client_options.loop)",
                               req->method ? req->method : "?",
                               req->path_template ? req->path_template : "?");
    acall *a = calloc(1, sizeof *a);
    if (!a)
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    if (sdkrt_unary_init_(&a->u, client, req, call, err) != SDKRT_OK) {
        free(a);
        return SDKRT_ERR;
    }
    a->client = client;
    a->done = done;
    a->userdata = userdata;
    a->state = A_QUEUED;
    a->op.loop = client->loop;
    a->op.cancel = a->u.p.treq.cancel;
    a->op.cancel_fn = on_cancel;
    sdkrt_loop_timer_init_(&a->timer, client->loop, on_timer, a);
    if (sdkrt_loop_op_add_(&a->op, err) != SDKRT_OK) {
        acall_free(a);
        return SDKRT_ERR;
    }
    if (sdkrt_loop_timer_arm_(&a->timer, 0) != SDKRT_OK) {
        sdkrt_loop_op_remove_(&a->op);
        acall_free(a);
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    }
    return SDKRT_OK;
}
