/* One libcurl transfer of a prepared request: its callbacks, options and outcome, shared by the
 * blocking libcurl transport (curl_transport.c, which drives it with its own multi handle) and the
 * loop engine (engine.c, which adds it to the loop's multi handle). Nothing here waits. */
#ifndef SDKRT_CURL_XFER_H
#define SDKRT_CURL_XFER_H

#include <curl/curl.h>

#include "internal.h"

/* State of one transfer, reached from curl's callbacks. */
typedef struct sdkrt_xfer_ {
    CURL *easy;
    const sdkrt_transport_request *req; /* only during setup (and a unary send) */
    const sdkrt_cancel *cancel;         /* copied so a stream reader outlives req */
    long idle_timeout_ms;
    long head_timeout_ms; /* 0 = none */
    long long sent_ms;    /* the start, then the last time request bytes went out */
    curl_off_t sent;      /* request body bytes sent so far */
    size_t max_bytes;
    struct curl_slist *headers;
    curl_mime *mime; /* multipart body, or NULL */
    char errbuf[CURL_ERROR_SIZE];
    sdkrt_response *resp; /* unary: whole response; stream: head */
    sdkrt_error *cb_err;  /* error raised inside a callback */
    bool too_large;
    bool cancelled;
    bool headers_done; /* final response's header block complete */
    bool done;
    CURLcode result;
    /* streaming */
    bool streaming;
    bool paused;
    sdkrt_buf_ buf; /* received, not yet read */
    size_t buf_off;
    long long last_byte_ms;
    /* the engine's: the owner of this transfer (CURLOPT_PRIVATE points to the xfer) */
    void (*on_done)(struct sdkrt_xfer_ *x);
    /* optional, called inside curl's header callback once the final head is complete (x->resp
     * holds it); false aborts the transfer (the reason in x->cb_err or the owner's) */
    bool (*on_head)(struct sdkrt_xfer_ *x);
    void *owner;
    bool added; /* in the loop's multi handle */
} sdkrt_xfer_;

/* Start x (zeroed by the caller) for req on easy (fresh or reset): limits and timers from req,
 * the header list, the body and every option. Not added to any multi handle. req is borrowed
 * until the transfer ends when not streaming (the body is not copied). */
sdkrt_status sdkrt_xfer_setup_(sdkrt_xfer_ *x, CURL *easy, const sdkrt_transport_request *req,
                               bool streaming, sdkrt_error **err);
/* The response head is later than the head timeout allows (now: sdkrt_now_ms_()). */
bool sdkrt_xfer_head_overdue_(const sdkrt_xfer_ *x, long long now);
/* When the head timeout would expire, in ms from now (0: already), or -1 when none applies. */
long sdkrt_xfer_head_left_(const sdkrt_xfer_ *x, long long now);
/* The outcome of a transfer that ended (x->done with x->result), or was stopped because the head
 * was late (late) or the token triggered (x->cancelled): *out new on SDKRT_OK. The error's message
 * names the cause only (the caller prefixes method and URL). */
sdkrt_status sdkrt_xfer_outcome_(sdkrt_xfer_ *x, bool late, sdkrt_response **out,
                                 sdkrt_error **err);
/* Release what the transfer holds (headers, mime, response, errors, buffer); not the easy handle
 * and not its membership in a multi handle. */
void sdkrt_xfer_cleanup_(sdkrt_xfer_ *x);

/* TRANSPORT "out of file descriptors (what: ...)" for errno e (EMFILE or ENFILE). */
sdkrt_status sdkrt_fds_error_(sdkrt_error **err, int e, const char *what);
/* How many idle connections per origin the libcurl transport t keeps (0: none). */
void sdkrt_curl_transport_set_max_idle_(sdkrt_transport *t, size_t max_idle);

/* libcurl's global init (once, thread-safe). */
sdkrt_status sdkrt_curl_global_init_(sdkrt_error **err);

#endif
