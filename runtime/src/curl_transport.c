/* The libcurl transport. Every transfer runs in a curl_multi handle so that the wait loop can watch
 * the cancel token (its pipe among the sockets, its flag every POLL_MS); unary calls reuse idle
 * (multi, easy) pairs, a bounded pool of them per origin, so that keep-alive connections survive
 * between calls and threads; each stream gets its own pair and pulls bytes only when the reader
 * asks (the write callback pauses the transfer once READ_HIGH bytes are buffered). */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <curl/curl.h>

#include "curl_xfer.h"
#include "sdkrt/wire.h"

#define POLL_MS   20
#define READ_HIGH (64 * 1024)

typedef struct conn {
    CURLM *multi;
    CURL *easy;
    char *origin; /* "scheme://authority" of its last request: where its connection goes */
    struct conn *next;
} conn;

typedef struct curl_transport {
    pthread_mutex_t mu;
    conn *idle;      /* parked pairs, the latest first */
    size_t max_idle; /* per origin */
} curl_transport;

/* A blocking transfer: the shared state and the pair that runs it. */
typedef struct xfer {
    sdkrt_xfer_ x;
    conn *c;
} xfer;

static void conn_free(conn *c)
{
    if (!c)
        return;
    if (c->easy)
        curl_easy_cleanup(c->easy);
    if (c->multi)
        curl_multi_cleanup(c->multi);
    free(c->origin);
    free(c);
}

static bool out_of_fds(int e)
{
    return e == EMFILE || e == ENFILE;
}

/* After a failed connect: EMFILE or ENFILE when that is why (curl reports a socket it could not
 * make as "Couldn't connect", not always with the errno), else 0. A socket made and closed
 * again tells. */
static int no_fds_left(CURL *easy)
{
    long os_errno = 0;
    if (curl_easy_getinfo(easy, CURLINFO_OS_ERRNO, &os_errno) == CURLE_OK &&
        out_of_fds((int)os_errno))
        return (int)os_errno;
    int saved = errno;
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int e = fd < 0 ? errno : 0;
    if (fd >= 0)
        close(fd);
    errno = saved;
    return out_of_fds(e) ? e : 0;
}

sdkrt_status sdkrt_fds_error_(sdkrt_error **err, int e, const char *what)
{
    return sdkrt_error_set(err, SDKRT_REASON_TRANSPORT,
                           "out of file descriptors (%s: the %s open-files limit is reached; "
                           "raise it with ulimit -n or setrlimit, or hold fewer calls and streams "
                           "open at once)",
                           what, e == ENFILE ? "system's" : "process's");
}

static conn *conn_new(sdkrt_error **err)
{
    conn *c = calloc(1, sizeof *c);
    if (!c) {
        sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    errno = 0;
    c->multi = curl_multi_init(); /* makes curl's wake-up socket pair */
    int e = errno;
    c->easy = c->multi ? curl_easy_init() : NULL;
    if (!c->multi || !c->easy) {
        conn_free(c);
        if (out_of_fds(e))
            sdkrt_fds_error_(err, e, "creating a transfer");
        else
            sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    return c;
}

/* The length of url's "scheme://authority". */
static size_t origin_len(const char *url)
{
    const char *p = strstr(url, "://");
    p = p ? p + 3 : url;
    return (size_t)(p - url) + strcspn(p, "/?#");
}

static bool same_origin(const conn *c, const char *url, size_t n)
{
    return c->origin && strlen(c->origin) == n && memcmp(c->origin, url, n) == 0;
}

/* An idle pair whose connection goes where url goes, else a new pair. */
static conn *take_conn(curl_transport *t, const char *url, sdkrt_error **err)
{
    size_t n = origin_len(url);
    conn *c = NULL;
    pthread_mutex_lock(&t->mu);
    for (conn **pp = &t->idle; *pp; pp = &(*pp)->next) {
        if (same_origin(*pp, url, n)) {
            c = *pp;
            *pp = c->next;
            c->next = NULL;
            break;
        }
    }
    pthread_mutex_unlock(&t->mu);
    if (c) {
        curl_easy_reset(c->easy);
        return c;
    }
    return conn_new(err);
}

/* Keep c for the next call to url's origin, unless that origin has max_idle pairs parked. */
static void park_conn(curl_transport *t, conn *c, const char *url)
{
    size_t n = origin_len(url);
    if (!same_origin(c, url, n)) {
        char *o = malloc(n + 1);
        if (!o) {
            conn_free(c);
            return;
        }
        memcpy(o, url, n);
        o[n] = '\0';
        free(c->origin);
        c->origin = o;
    }
    size_t parked = 0;
    pthread_mutex_lock(&t->mu);
    for (const conn *i = t->idle; i; i = i->next)
        parked += same_origin(i, url, n);
    if (parked < t->max_idle) {
        c->next = t->idle;
        t->idle = c;
        c = NULL;
    }
    pthread_mutex_unlock(&t->mu);
    conn_free(c);
}

void sdkrt_curl_transport_set_max_idle_(sdkrt_transport *t, size_t max_idle)
{
    ((curl_transport *)t->self)->max_idle = max_idle;
}

static size_t header_cb(char *line, size_t size, size_t nmemb, void *ud)
{
    sdkrt_xfer_ *x = ud;
    size_t n = size * nmemb;
    x->last_byte_ms = sdkrt_now_ms_();
    if (n >= 5 && memcmp(line, "HTTP/", 5) == 0) {
        /* A new response (after 1xx): start the header list afresh. */
        long status = 0;
        const char *sp = memchr(line, ' ', n);
        if (sp)
            status = strtol(sp + 1, NULL, 10);
        sdkrt_response_free(x->resp);
        x->resp = NULL;
        if (sdkrt_response_new(&x->resp, (int)status, x->max_bytes, &x->cb_err) != SDKRT_OK)
            return 0;
        return n;
    }
    if (!x->resp)
        return n;
    if (n <= 2 && (line[0] == '\r' || line[0] == '\n')) {
        if (sdkrt_response_status(x->resp) >= 200) {
            x->headers_done = true;
            if (x->on_head && !x->on_head(x))
                return 0;
        }
        return n;
    }
    const char *colon = memchr(line, ':', n);
    if (!colon)
        return n;
    char name[256];
    size_t nl = (size_t)(colon - line);
    if (nl == 0 || nl >= sizeof name)
        return n;
    memcpy(name, line, nl);
    name[nl] = '\0';
    char *value = malloc(n - nl);
    if (!value) {
        sdkrt_error_set(&x->cb_err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
        return 0;
    }
    memcpy(value, colon + 1, n - nl - 1);
    value[n - nl - 1] = '\0';
    sdkrt_status st = sdkrt_response_add_header(x->resp, name, value, &x->cb_err);
    free(value);
    if (st != SDKRT_OK)
        return 0;
    /* Refuse early when the declared length is above the cap, before any body byte. */
    if (x->max_bytes && sdkrt_strcasecmp_(name, "Content-Length") == 0 &&
        sdkrt_response_status(x->resp) >= 200) {
        const char *v = sdkrt_response_header(x->resp, "Content-Length");
        char *end = NULL;
        unsigned long long len = strtoull(v, &end, 10);
        if (end != v && len > x->max_bytes) {
            x->too_large = true;
            sdkrt_error_set(&x->cb_err, SDKRT_REASON_RESPONSE_TOO_LARGE,
                            "response Content-Length %llu exceeds the limit of %zu bytes", len,
                            x->max_bytes);
            return 0;
        }
    }
    return n;
}

static size_t write_cb(char *data, size_t size, size_t nmemb, void *ud)
{
    sdkrt_xfer_ *x = ud;
    size_t n = size * nmemb;
    if (!x->resp) {
        if (sdkrt_response_new(&x->resp, 0, x->max_bytes, &x->cb_err) != SDKRT_OK)
            return 0;
    }
    if (x->streaming) {
        if (x->buf.len - x->buf_off >= READ_HIGH) {
            x->paused = true;
            return CURL_WRITEFUNC_PAUSE;
        }
        sdkrt_buf_append_(&x->buf, data, n);
        if (x->buf.oom) {
            sdkrt_error_set(&x->cb_err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
            return 0;
        }
        x->last_byte_ms = sdkrt_now_ms_();
        return n;
    }
    if (sdkrt_response_append_body(x->resp, data, n, &x->cb_err) != SDKRT_OK) {
        x->too_large = sdkrt_error_reason(x->cb_err) == SDKRT_REASON_RESPONSE_TOO_LARGE;
        return 0;
    }
    return n;
}

static int progress_cb(void *ud, curl_off_t dt, curl_off_t dn, curl_off_t ut, curl_off_t un)
{
    (void)dt;
    (void)dn;
    (void)ut;
    sdkrt_xfer_ *x = ud;
    if (un != x->sent) { /* the head timeout counts from the request's last byte */
        x->sent = un;
        x->sent_ms = sdkrt_now_ms_();
    }
    if (sdkrt_cancel_is_triggered(x->cancel)) {
        x->cancelled = true;
        return 1;
    }
    return 0;
}

/* The multipart body as a curl_mime: in-memory parts copied by curl, file parts read by curl
 * while sending. */
static sdkrt_status build_mime(sdkrt_xfer_ *x, const sdkrt_multipart *mp, sdkrt_error **err)
{
    x->mime = curl_mime_init(x->easy);
    if (!x->mime)
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    for (size_t i = 0; i < sdkrt_multipart_count(mp); i++) {
        const char *name, *filename, *ct, *path;
        const void *data;
        size_t len;
        sdkrt_multipart_part(mp, i, &name, &filename, &ct, &data, &len, &path);
        curl_mimepart *part = curl_mime_addpart(x->mime);
        if (!part)
            return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
        CURLcode rc = curl_mime_name(part, name);
        if (rc == CURLE_OK && path) {
            rc = curl_mime_filedata(part, path);
            if (rc == CURLE_READ_ERROR)
                return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,
                                       "cannot read multipart file part %.100s", name);
        } else if (rc == CURLE_OK) {
            rc = curl_mime_data(part, data ? (const char *)data : "", len);
        }
        /* curl_mime_filedata sets the file's base name; an explicit one replaces it */
        if (rc == CURLE_OK && filename)
            rc = curl_mime_filename(part, filename);
        if (rc == CURLE_OK && ct)
            rc = curl_mime_type(part, ct);
        if (rc != CURLE_OK)
            return sdkrt_error_set(err,
                                   rc == CURLE_OUT_OF_MEMORY ? SDKRT_REASON_OUT_OF_MEMORY
                                                             : SDKRT_REASON_TRANSPORT,
                                   "multipart part %.100s: %s", name, curl_easy_strerror(rc));
    }
    return SDKRT_OK;
}

sdkrt_status sdkrt_xfer_setup_(sdkrt_xfer_ *x, CURL *easy, const sdkrt_transport_request *req,
                               bool streaming, sdkrt_error **err)
{
    CURL *e = easy;
    const sdkrt_transport_request *r = req;
    x->easy = easy;
    x->req = req;
    x->cancel = req->cancel;
    x->streaming = streaming;
    x->idle_timeout_ms = streaming ? req->idle_timeout_ms : 0;
    x->head_timeout_ms = req->head_timeout_ms;
    x->last_byte_ms = x->sent_ms = sdkrt_now_ms_();
    /* a HEAD response declares the length of a body it does not send */
    x->max_bytes = streaming || strcmp(req->method, "HEAD") == 0 ? 0 : req->max_response_bytes;
    for (size_t i = 0; i < r->header_count; i++) {
        if (r->multipart && sdkrt_strcasecmp_(r->headers[i].name, "Content-Type") == 0)
            continue; /* curl's own, with its boundary */
        sdkrt_buf_ line = {0};
        if (r->headers[i].value[0])
            sdkrt_buf_printf_(&line, "%s: %s", r->headers[i].name, r->headers[i].value);
        else
            sdkrt_buf_printf_(&line, "%s;", r->headers[i].name); /* curl's empty-value syntax */
        struct curl_slist *l = line.oom ? NULL : curl_slist_append(x->headers, line.data);
        if (line.data)
            memset(line.data, 0, line.len); /* may hold credentials */
        sdkrt_buf_cleanup_(&line);
        if (!l)
            return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
        x->headers = l;
    }
    struct curl_slist *l = curl_slist_append(x->headers, "Expect:");
    if (!l)
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    x->headers = l;
    CURLcode rc = CURLE_OK;
#define SET(opt, val)                                                                              \
    do {                                                                                           \
        if (rc == CURLE_OK)                                                                        \
            rc = curl_easy_setopt(e, opt, val);                                                    \
    } while (0)
    SET(CURLOPT_URL, r->url);
    SET(CURLOPT_PROTOCOLS_STR, "http,https");
    SET(CURLOPT_NOSIGNAL, 1L);
    SET(CURLOPT_HTTPHEADER, x->headers);
    SET(CURLOPT_ACCEPT_ENCODING, "");
    SET(CURLOPT_ERRORBUFFER, x->errbuf);
    SET(CURLOPT_HEADERFUNCTION, header_cb);
    SET(CURLOPT_HEADERDATA, x);
    SET(CURLOPT_WRITEFUNCTION, write_cb);
    SET(CURLOPT_WRITEDATA, x);
    SET(CURLOPT_NOPROGRESS, 0L);
    SET(CURLOPT_XFERINFOFUNCTION, progress_cb);
    SET(CURLOPT_XFERINFODATA, x);
    SET(CURLOPT_CONNECTTIMEOUT_MS, r->connect_timeout_ms);
    SET(CURLOPT_TIMEOUT_MS, r->timeout_ms);
    SET(CURLOPT_SSL_VERIFYPEER, r->verify_tls ? 1L : 0L);
    SET(CURLOPT_SSL_VERIFYHOST, r->verify_tls ? 2L : 0L);
    if (r->ca_file)
        SET(CURLOPT_CAINFO, r->ca_file);
    if (r->ca_path)
        SET(CURLOPT_CAPATH, r->ca_path);
    if (x->max_bytes)
        SET(CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)x->max_bytes);
    if (r->multipart) {
        if (build_mime(x, r->multipart, err) != SDKRT_OK)
            return SDKRT_ERR;
        SET(CURLOPT_MIMEPOST, x->mime);
        if (strcmp(r->method, "POST") != 0)
            SET(CURLOPT_CUSTOMREQUEST, r->method);
    } else if (strcmp(r->method, "GET") == 0 && !r->body) {
        SET(CURLOPT_HTTPGET, 1L);
    } else if (strcmp(r->method, "HEAD") == 0) {
        SET(CURLOPT_NOBODY, 1L);
    } else {
        SET(CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)(r->body ? r->body_len : 0));
        /* A stream outlives the borrowed request: let curl keep its own copy of the body. */
        if (x->streaming)
            SET(CURLOPT_COPYPOSTFIELDS, r->body ? (const char *)r->body : "");
        else
            SET(CURLOPT_POSTFIELDS, r->body ? (const char *)r->body : "");
        if (strcmp(r->method, "POST") != 0)
            SET(CURLOPT_CUSTOMREQUEST, r->method);
    }
#undef SET
    if (rc != CURLE_OK)
        return sdkrt_error_set(err, SDKRT_REASON_TRANSPORT, "libcurl refused an option: %s",
                               curl_easy_strerror(rc));
    return SDKRT_OK;
}

bool sdkrt_xfer_head_overdue_(const sdkrt_xfer_ *x, long long now)
{
    return x->head_timeout_ms > 0 && !x->headers_done && now - x->sent_ms > x->head_timeout_ms;
}

long sdkrt_xfer_head_left_(const sdkrt_xfer_ *x, long long now)
{
    if (x->head_timeout_ms <= 0 || x->headers_done)
        return -1;
    long long left = x->sent_ms + x->head_timeout_ms + 1 - now;
    return left > 0 ? (long)left : 0;
}

/* Turn a failed transfer into an error of the right reason. */
static sdkrt_status failure(sdkrt_xfer_ *x, sdkrt_error **err)
{
    if (x->cancelled || sdkrt_cancel_is_triggered(x->cancel))
        return sdkrt_error_set(err, SDKRT_REASON_CANCELLED, "cancelled");
    if (x->cb_err) {
        sdkrt_error_propagate(err, x->cb_err);
        x->cb_err = NULL;
        return SDKRT_ERR;
    }
    if (x->result == CURLE_FILESIZE_EXCEEDED)
        return sdkrt_error_set(err, SDKRT_REASON_RESPONSE_TOO_LARGE,
                               "response body exceeds the limit of %zu bytes", x->max_bytes);
    const char *detail = x->errbuf[0] ? x->errbuf : curl_easy_strerror(x->result);
    int fds_errno = x->result == CURLE_COULDNT_CONNECT ? no_fds_left(x->easy) : 0;
    if (fds_errno)
        return sdkrt_fds_error_(err, fds_errno, "opening a connection");
    if (x->result == CURLE_OPERATION_TIMEDOUT)
        return sdkrt_error_set(err, SDKRT_REASON_TIMEOUT, "%s", detail);
    return sdkrt_error_set(err, SDKRT_REASON_TRANSPORT, "%s", detail);
}

sdkrt_status sdkrt_xfer_outcome_(sdkrt_xfer_ *x, bool late, sdkrt_response **out, sdkrt_error **err)
{
    *out = NULL;
    if (late && !x->cancelled)
        return sdkrt_error_set(
            err, SDKRT_REASON_TIMEOUT,
            "no response head within %ld ms of sending the request (head timeout)",
            x->head_timeout_ms);
    if (x->cancelled || x->result != CURLE_OK)
        return failure(x, err);
    long status = 0;
    curl_easy_getinfo(x->easy, CURLINFO_RESPONSE_CODE, &status);
    if (!x->resp &&
        sdkrt_response_new(&x->resp, (int)status, x->req->max_response_bytes, err) != SDKRT_OK)
        return SDKRT_ERR;
    sdkrt_response_set_status(x->resp, (int)status);
    *out = x->resp;
    x->resp = NULL;
    return SDKRT_OK;
}

void sdkrt_xfer_cleanup_(sdkrt_xfer_ *x)
{
    curl_slist_free_all(x->headers);
    x->headers = NULL;
    curl_mime_free(x->mime);
    x->mime = NULL;
    sdkrt_response_free(x->resp);
    x->resp = NULL;
    sdkrt_error_free(x->cb_err);
    x->cb_err = NULL;
    sdkrt_buf_cleanup_(&x->buf);
}

/* ---- the blocking transport ---- */

static sdkrt_status setup(xfer *b, const sdkrt_transport_request *req, bool streaming,
                          sdkrt_error **err)
{
    if (sdkrt_xfer_setup_(&b->x, b->c->easy, req, streaming, err) != SDKRT_OK)
        return SDKRT_ERR;
#if LIBCURL_VERSION_NUM >= 0x075700
    /* As on the loop (loop.c): without it a call, stream or follower cancelled while its host
       name is still being resolved would wait in curl_multi_remove_handle (or the easy handle's
       cleanup) for the resolver thread, as long as the lookup takes; with it curl leaves the
       thread to finish and free what it holds. curl_easy_reset clears the option, so it is set
       again for every transfer on a pooled pair; a pair is parked only after its transfer
       completed, so it never carries a lookup in flight. */
    curl_easy_setopt(b->c->easy, CURLOPT_QUICK_EXIT, 1L);
#endif
    if (curl_multi_add_handle(b->c->multi, b->c->easy) != CURLM_OK)
        return sdkrt_error_set(err, SDKRT_REASON_TRANSPORT, "libcurl could not start the transfer");
    return SDKRT_OK;
}

/* One round: let curl work, collect completion, then wait up to POLL_MS for activity. */
static void pump(xfer *b, bool wait)
{
    sdkrt_xfer_ *x = &b->x;
    int running = 0;
    curl_multi_perform(b->c->multi, &running);
    int left = 0;
    CURLMsg *m;
    while ((m = curl_multi_info_read(b->c->multi, &left))) {
        if (m->msg == CURLMSG_DONE && m->easy_handle == b->c->easy) {
            x->done = true;
            x->result = m->data.result;
        }
    }
    /* A paused transfer's socket is not in the poll set, and bytes already buffered need no
     * wait: polling then only sleeps POLL_MS. */
    if (!x->done && wait && !x->paused && x->buf.len == x->buf_off) {
        /* The token's pipe turns readable when it is triggered: the wait ends at once. */
        int fds[2] = {-1, -1};
        unsigned n = (unsigned)sdkrt_cancel_fds_(x->cancel, fds);
        struct curl_waitfd w[2] = {{fds[0], CURL_WAIT_POLLIN, 0}, {fds[1], CURL_WAIT_POLLIN, 0}};
        curl_multi_poll(b->c->multi, w, n, POLL_MS, NULL);
    }
}

static void xfer_cleanup(xfer *b)
{
    if (b->c)
        curl_multi_remove_handle(b->c->multi, b->c->easy);
    sdkrt_xfer_cleanup_(&b->x);
}

static sdkrt_status curl_send(void *self, const sdkrt_transport_request *req, sdkrt_response **out,
                              sdkrt_error **err)
{
    curl_transport *t = self;
    *out = NULL;
    xfer b;
    memset(&b, 0, sizeof b);
    b.c = take_conn(t, req->url, err);
    if (!b.c)
        return SDKRT_ERR;
    sdkrt_status st = setup(&b, req, false, err);
    if (st != SDKRT_OK)
        goto done;
    bool late = false;
    while (!b.x.done) {
        if (sdkrt_cancel_is_triggered(b.x.cancel)) {
            b.x.cancelled = true;
            break;
        }
        if ((late = sdkrt_xfer_head_overdue_(&b.x, sdkrt_now_ms_())))
            break;
        pump(&b, true);
    }
    st = sdkrt_xfer_outcome_(&b.x, late, out, err);
done:
    xfer_cleanup(&b);
    /* A cancelled transfer leaves its connection in an unknown state: do not park it. */
    if (st == SDKRT_OK)
        park_conn(t, b.c, req->url);
    else
        conn_free(b.c);
    return st;
}

/* ---- Streams ---- */

static sdkrt_status stream_wait(xfer *b, sdkrt_error **err)
{
    sdkrt_xfer_ *x = &b->x;
    if (sdkrt_cancel_is_triggered(x->cancel))
        return sdkrt_error_set(err, SDKRT_REASON_CANCELLED, "cancelled");
    if (x->idle_timeout_ms && sdkrt_now_ms_() - x->last_byte_ms > x->idle_timeout_ms)
        return sdkrt_error_set(err, SDKRT_REASON_TIMEOUT, "no data for %ld ms (idle timeout)",
                               x->idle_timeout_ms);
    pump(b, true);
    return SDKRT_OK;
}

static sdkrt_status reader_read(void *self, void *buf, size_t cap, size_t *n, sdkrt_error **err)
{
    xfer *b = self;
    sdkrt_xfer_ *x = &b->x;
    *n = 0;
    for (;;) {
        size_t avail = x->buf.len - x->buf_off;
        if (avail) {
            size_t k = avail < cap ? avail : cap;
            memcpy(buf, x->buf.data + x->buf_off, k);
            x->buf_off += k;
            if (x->buf_off == x->buf.len)
                x->buf.len = x->buf_off = 0;
            *n = k;
            return SDKRT_OK;
        }
        if (x->paused) {
            x->paused = false;
            x->last_byte_ms = sdkrt_now_ms_();        /* the reader, not the server, was slow */
            curl_easy_pause(x->easy, CURLPAUSE_CONT); /* may deliver data right here */
            continue;
        }
        if (x->done)
            return x->result == CURLE_OK ? SDKRT_OK : failure(x, err);
        if (stream_wait(b, err) != SDKRT_OK)
            return SDKRT_ERR;
    }
}

static void reader_close(void *self)
{
    xfer *b = self;
    conn *c = b->c;
    xfer_cleanup(b);
    conn_free(c);
    free(b);
}

static const sdkrt_body_reader_ops reader_ops = {reader_read, reader_close};

static sdkrt_status curl_open(void *self, const sdkrt_transport_request *req, sdkrt_response **head,
                              sdkrt_body_reader *reader, sdkrt_error **err)
{
    (void)self;
    *head = NULL;
    xfer *b = calloc(1, sizeof *b);
    if (!b)
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    sdkrt_xfer_ *x = &b->x;
    b->c = conn_new(err);
    if (!b->c)
        goto fail;
    if (setup(b, req, true, err) != SDKRT_OK)
        goto fail;
    while (!x->headers_done && !x->done) {
        if (sdkrt_xfer_head_overdue_(x, sdkrt_now_ms_()) && !sdkrt_cancel_is_triggered(x->cancel)) {
            sdkrt_xfer_outcome_(x, true, head, err);
            goto fail;
        }
        if (stream_wait(b, err) != SDKRT_OK)
            goto fail;
    }
    if (!x->headers_done && x->result != CURLE_OK) {
        failure(x, err);
        goto fail;
    }
    if (!x->resp) {
        sdkrt_error_set(err, SDKRT_REASON_TRANSPORT, "connection closed before a response");
        goto fail;
    }
    *head = x->resp;
    x->resp = NULL; /* headers after this point are not needed */
    x->req = NULL;
    reader->ops = &reader_ops;
    reader->self = b;
    return SDKRT_OK;
fail:
    *head = NULL;
    xfer_cleanup(b);
    conn_free(b->c);
    free(b);
    return SDKRT_ERR;
}

static void curl_destroy(void *self)
{
    curl_transport *t = self;
    if (!t)
        return;
    while (t->idle) {
        conn *c = t->idle;
        t->idle = c->next;
        conn_free(c);
    }
    pthread_mutex_destroy(&t->mu);
    free(t);
}

static const sdkrt_transport_ops curl_ops = {curl_send, curl_open, curl_destroy};

bool sdkrt_transport_is_curl_(const sdkrt_transport *t)
{
    return t && t->ops == &curl_ops;
}

/* libcurl's global init, done by the first transport or loop when the program did not call
 * sdkrt_global_init (curl counts its inits, so both together are harmless). */
static pthread_once_t global_once = PTHREAD_ONCE_INIT;
static CURLcode global_rc = CURLE_OK;

static void global_init_once(void)
{
    global_rc = curl_global_init(CURL_GLOBAL_DEFAULT);
}

sdkrt_status sdkrt_curl_global_init_(sdkrt_error **err)
{
    if (pthread_once(&global_once, global_init_once) != 0 || global_rc != CURLE_OK)
        return sdkrt_error_set(err, SDKRT_REASON_TRANSPORT, "libcurl's global init failed");
    return SDKRT_OK;
}

sdkrt_status sdkrt_curl_transport_new(sdkrt_transport **out, sdkrt_error **err)
{
    *out = NULL;
    if (sdkrt_curl_global_init_(err) != SDKRT_OK)
        return SDKRT_ERR;
    sdkrt_transport *tr = calloc(1, sizeof *tr);
    curl_transport *t = calloc(1, sizeof *t);
    if (!tr || !t || pthread_mutex_init(&t->mu, NULL) != 0) {
        free(tr);
        free(t);
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    }
    t->max_idle = SDKRT_DEFAULT_MAX_IDLE_CONNECTIONS;
    tr->ops = &curl_ops;
    tr->self = t;
    *out = tr;
    return SDKRT_OK;
}

void sdkrt_transport_free(sdkrt_transport *t)
{
    if (!t)
        return;
    if (t->ops && t->ops->destroy)
        t->ops->destroy(t->self);
    free(t);
}
