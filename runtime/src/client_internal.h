/* The client's fields, shared by the files of its layers: client.c (options), exchange.c (one
 * prepared request and its outcome), retry.c (the call: attempts, keys), stream.c and engine.c. */
#ifndef SDKRT_CLIENT_INTERNAL_H
#define SDKRT_CLIENT_INTERNAL_H

#include "internal.h"
#include "request_internal.h"
#include "sdkrt/loop.h"

struct sdkrt_client {
    char *base_url;       /* normalised, no trailing slash */
    char *base_path;      /* path prefix of base_url, "" or "/p" */
    sdkrt_pair_ *headers; /* user agent, defaults, then authorization */
    size_t header_count;
    long connect_timeout_ms; /* resolved: SDKRT_TIMEOUT_OFF or > 0 */
    long head_timeout_ms;
    long timeout_ms;
    long idle_timeout_ms; /* 0 = none */
    bool verify_tls;
    char *ca_file;
    char *ca_path;
    size_t max_response_bytes;
    size_t max_event_bytes;
    const sdkrt_transport *transport;
    sdkrt_transport *own_transport;
    char *auth_value; /* Authorization from `auth` (API_KEY: the key), or NULL */
    sdkrt_auth_kind auth_kind;
    char *api_key_header;    /* API_KEY: the header for requests that name no scheme */
    sdkrt_credential *creds; /* copies (strings owned) */
    size_t cred_count;
    sdkrt_retry_policy retry; /* as given (defaults filled per call by retry.c) */
    char *idempotency_header; /* owned */
    sdkrt_cancel *cancel;     /* borrowed */
    sdkrt_loop *loop;         /* borrowed; NULL: no asynchronous calls */
};

/* Base64 of n bytes of s appended to b. */
void sdkrt_base64_(sdkrt_buf_ *b, const unsigned char *s, size_t n);
/* Zero a secret string, then free it (NULL is a no-op). */
void sdkrt_zero_free_(char *s);
/* Whether a timeout setting is valid (>= 0 or SDKRT_TIMEOUT_OFF). */
bool sdkrt_timeout_ok_(long ms);
/* A call's timeout over the client's: 0 takes the client's; OFF (either) gives 0, which
 * transports read as none. */
long sdkrt_effective_timeout_(long call, long client);

#endif
