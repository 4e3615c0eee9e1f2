/* One exchange: a request prepared for a transport (URL, parameters, auth, headers, body,
 * limits, timeouts, cancel token), and what its outcome means. No I/O: the blocking client
 * (client.c, stream.c) and the loop engine (engine.c) hand the transport request to their
 * transport and bring the outcome back here, so both behave the same. */
#ifndef SDKRT_EXCHANGE_H
#define SDKRT_EXCHANGE_H

#include "client_internal.h"

/* A fully prepared call: strings owned here, the transport request borrowing them. */
typedef struct sdkrt_prepared_ {
    char *method;
    char *url;
    char *shown_url; /* url with an API key in the query replaced: for messages */
    char *target;
    sdkrt_header *headers; /* borrowed names/values from owned[] */
    size_t header_count;
    sdkrt_pair_ *owned; /* copies, so a stream outlives the request and call options */
    size_t owned_count;
    char *body;
    size_t body_len;
    bool has_body;
    sdkrt_multipart *multipart; /* a copy, for the libcurl transport */
    sdkrt_multipart *reread;    /* other transports: a copy with file parts, serialised again
                                   for each attempt after the first (the file is read afresh) */
    sdkrt_transport_request treq;
    void (*on_response)(void *userdata, int status, const sdkrt_header *headers, size_t count);
    void *userdata;
    sdkrt_cancel either; /* the call's and the client's token, when both are set */
} sdkrt_prepared_;

/* Prepare req for client with call options (may be NULL) in *p (every byte copied, so it outlives
 * req and call; the cancel tokens stay borrowed). stream: an SSE open (Accept, no total timeout,
 * the idle timeout). INVALID_ARGUMENT for bad call options, headers or URL; OUT_OF_MEMORY. *p
 * needs no cleanup on SDKRT_ERR. */
sdkrt_status sdkrt_prepare_(sdkrt_prepared_ *p, const sdkrt_client *c, const sdkrt_request *req,
                            const sdkrt_call_options *call, bool stream, sdkrt_error **err);
void sdkrt_prepared_cleanup_(sdkrt_prepared_ *p);
/* Before an attempt after the first: serialise a multipart body with file parts again. */
sdkrt_status sdkrt_prepared_reread_(sdkrt_prepared_ *p, sdkrt_error **err);
/* Show the response's status and headers to the call's on_response, if any. */
sdkrt_status sdkrt_prepared_notify_(const sdkrt_prepared_ *p, const sdkrt_response *resp,
                                    sdkrt_error **err);
/* CANCELLED: the token was triggered before the request was sent. Returns SDKRT_ERR. */
sdkrt_status sdkrt_exchange_cancelled_(const sdkrt_prepared_ *p, sdkrt_error **err);
/* The outcome of one transport send as the caller sees it: st with *resp (new) on SDKRT_OK, or e
 * (stolen; may be NULL) on SDKRT_ERR. On SDKRT_OK *resp gets its origin and on_response sees
 * it; on SDKRT_ERR *resp is NULL and *err the transport's error prefixed "METHOD URL: ". */
sdkrt_status sdkrt_exchange_outcome_(const sdkrt_prepared_ *p, sdkrt_status st,
                                     sdkrt_response **resp, sdkrt_error *e, sdkrt_error **err);

#endif
