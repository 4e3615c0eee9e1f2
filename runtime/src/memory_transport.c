/* The in-memory transport: a handler function answers requests in the calling thread. Bodies are
 * a list of chunks, then an optional pull callback, then a clean end or a scripted error, so
 * that tests can reproduce chunking, cuts and size caps without a socket. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "request_internal.h"

typedef struct chunk {
    char *bytes;
    size_t len;
} chunk;

struct sdkrt_memory_response {
    int status;
    sdkrt_pair_ *headers;
    size_t header_count;
    chunk *chunks;
    size_t chunk_count;
    sdkrt_memory_pull_fn pull;
    void *pull_ud;
    void (*pull_free)(void *);
    bool end_error;
    sdkrt_reason end_reason;
    char *end_message;
    bool oom; /* a builder call ran out of memory: the call fails with OUT_OF_MEMORY */
};

typedef struct memory_transport {
    sdkrt_memory_handler handler;
    void *userdata;
} memory_transport;

void sdkrt_memory_response_set_status(sdkrt_memory_response *resp, int status)
{
    resp->status = status;
}

sdkrt_status sdkrt_memory_response_add_header(sdkrt_memory_response *resp, const char *name,
                                              const char *value)
{
    if (!name || !value)
        return SDKRT_ERR;
    sdkrt_pair_ *g = realloc(resp->headers, (resp->header_count + 1) * sizeof *g);
    if (!g) {
        resp->oom = true;
        return SDKRT_ERR;
    }
    resp->headers = g;
    char *n = sdkrt_strdup_(name), *v = sdkrt_strdup_(value);
    if (!n || !v) {
        free(n);
        free(v);
        resp->oom = true;
        return SDKRT_ERR;
    }
    g[resp->header_count].name = n;
    g[resp->header_count].value = v;
    resp->header_count++;
    return SDKRT_OK;
}

sdkrt_status sdkrt_memory_response_add_chunk(sdkrt_memory_response *resp, const void *bytes,
                                             size_t len)
{
    if (!bytes && len)
        return SDKRT_ERR;
    if (len == 0)
        return SDKRT_OK; /* an empty chunk would read as the end of the body */
    chunk *g = realloc(resp->chunks, (resp->chunk_count + 1) * sizeof *g);
    if (!g) {
        resp->oom = true;
        return SDKRT_ERR;
    }
    resp->chunks = g;
    char *copy = malloc(len);
    if (!copy) {
        resp->oom = true;
        return SDKRT_ERR;
    }
    memcpy(copy, bytes, len);
    g[resp->chunk_count].bytes = copy;
    g[resp->chunk_count].len = len;
    resp->chunk_count++;
    return SDKRT_OK;
}

void sdkrt_memory_response_set_pull(sdkrt_memory_response *resp, sdkrt_memory_pull_fn pull,
                                    void *userdata, void (*free_fn)(void *))
{
    if (resp->pull_free && resp->pull_ud)
        resp->pull_free(resp->pull_ud);
    resp->pull = pull;
    resp->pull_ud = userdata;
    resp->pull_free = free_fn;
}

void sdkrt_memory_response_end_with_error(sdkrt_memory_response *resp, sdkrt_reason reason,
                                          const char *message)
{
    char *m = sdkrt_strdup_(message ? message : "connection closed mid-body");
    if (!m) {
        resp->oom = true;
        return;
    }
    free(resp->end_message);
    resp->end_message = m;
    resp->end_error = true;
    resp->end_reason = reason;
}

static void mresp_free(sdkrt_memory_response *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->header_count; i++) {
        free(r->headers[i].name);
        free(r->headers[i].value);
    }
    free(r->headers);
    for (size_t i = 0; i < r->chunk_count; i++)
        free(r->chunks[i].bytes);
    free(r->chunks);
    if (r->pull_free && r->pull_ud)
        r->pull_free(r->pull_ud);
    free(r->end_message);
    free(r);
}

/* Run the handler; on SDKRT_OK *out holds its answer (owned by the caller). */
static sdkrt_status run_handler(memory_transport *t, const sdkrt_transport_request *req,
                                sdkrt_memory_response **out, sdkrt_error **err)
{
    *out = NULL;
    if (sdkrt_cancel_is_triggered(req->cancel))
        return sdkrt_error_set(err, SDKRT_REASON_CANCELLED, "cancelled");
    sdkrt_memory_response *r = calloc(1, sizeof *r);
    if (!r)
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
    r->status = 200;
    sdkrt_memory_request mr = {req->method,       req->target, req->url,      req->headers,
                               req->header_count, req->body,   req->body_len, req->cancel};
    int rc = t->handler(t->userdata, &mr, r);
    if (r->oom) {
        mresp_free(r);
        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY,
                               "out of memory in the in-memory handler");
    }
    if (rc != 0) {
        mresp_free(r);
        return sdkrt_error_set(err, SDKRT_REASON_TRANSPORT,
                               "connection refused (the in-memory handler failed)");
    }
    if (sdkrt_cancel_is_triggered(req->cancel)) {
        mresp_free(r);
        return sdkrt_error_set(err, SDKRT_REASON_CANCELLED, "cancelled");
    }
    *out = r;
    return SDKRT_OK;
}

/* The response head: status and headers, body cap max_body. */
static sdkrt_status make_head(const sdkrt_memory_response *r, size_t max_body, sdkrt_response **out,
                              sdkrt_error **err)
{
    if (sdkrt_response_new(out, r->status, max_body, err) != SDKRT_OK)
        return SDKRT_ERR;
    for (size_t i = 0; i < r->header_count; i++) {
        if (sdkrt_response_add_header(*out, r->headers[i].name, r->headers[i].value, err) !=
            SDKRT_OK) {
            sdkrt_response_free(*out);
            *out = NULL;
            return SDKRT_ERR;
        }
    }
    return SDKRT_OK;
}

/* A body reader over a memory response: chunks, then pull, then the scripted end. */
typedef struct mreader {
    sdkrt_memory_response *r;
    const sdkrt_cancel *cancel;
    size_t chunk;  /* next chunk */
    size_t offset; /* within that chunk */
    bool pull_done;
} mreader;

static sdkrt_status mreader_read(void *self, void *buf, size_t cap, size_t *n, sdkrt_error **err)
{
    mreader *m = self;
    *n = 0;
    if (sdkrt_cancel_is_triggered(m->cancel))
        return sdkrt_error_set(err, SDKRT_REASON_CANCELLED, "cancelled");
    if (cap == 0)
        return SDKRT_OK;
    if (m->chunk < m->r->chunk_count) {
        const chunk *c = &m->r->chunks[m->chunk];
        size_t k = c->len - m->offset < cap ? c->len - m->offset : cap;
        memcpy(buf, c->bytes + m->offset, k);
        m->offset += k;
        if (m->offset == c->len) {
            m->chunk++;
            m->offset = 0;
        }
        *n = k;
        return SDKRT_OK;
    }
    if (m->r->pull && !m->pull_done) {
        size_t got = 0;
        int rc = m->r->pull(m->r->pull_ud, m->cancel, buf, cap, &got);
        if (sdkrt_cancel_is_triggered(m->cancel))
            return sdkrt_error_set(err, SDKRT_REASON_CANCELLED, "cancelled");
        if (rc != 0) {
            m->pull_done = true;
            return sdkrt_error_set(err, SDKRT_REASON_TRANSPORT, "connection closed mid-body");
        }
        if (got > cap)
            got = cap;
        if (got) {
            *n = got;
            return SDKRT_OK;
        }
        m->pull_done = true;
    }
    if (m->r->end_error)
        return sdkrt_error_set(err, m->r->end_reason, "%s", m->r->end_message);
    return SDKRT_OK; /* *n == 0: clean end */
}

static void mreader_close(void *self)
{
    mreader *m = self;
    mresp_free(m->r);
    free(m);
}

static const sdkrt_body_reader_ops mreader_ops = {mreader_read, mreader_close};

static sdkrt_status mem_send(void *self, const sdkrt_transport_request *req, sdkrt_response **out,
                             sdkrt_error **err)
{
    *out = NULL;
    sdkrt_memory_response *r = NULL;
    sdkrt_response *resp = NULL;
    char buf[16384];
    if (run_handler(self, req, &r, err) != SDKRT_OK)
        return SDKRT_ERR;
    mreader m = {r, req->cancel, 0, 0, false};
    sdkrt_status st = make_head(r, req->max_response_bytes, &resp, err);
    if (st != SDKRT_OK)
        goto done;
    for (;;) {
        size_t n = 0;
        st = mreader_read(&m, buf, sizeof buf, &n, err);
        if (st != SDKRT_OK || n == 0)
            break;
        st = sdkrt_response_append_body(resp, buf, n, err);
        if (st != SDKRT_OK)
            break;
    }
done:
    mresp_free(r);
    if (st != SDKRT_OK) {
        sdkrt_response_free(resp);
        return SDKRT_ERR;
    }
    *out = resp;
    return SDKRT_OK;
}

static sdkrt_status mem_open(void *self, const sdkrt_transport_request *req, sdkrt_response **head,
                             sdkrt_body_reader *reader, sdkrt_error **err)
{
    *head = NULL;
    sdkrt_memory_response *r = NULL;
    if (run_handler(self, req, &r, err) != SDKRT_OK)
        return SDKRT_ERR;
    mreader *m = calloc(1, sizeof *m);
    if (!m || make_head(r, 0, head, err) != SDKRT_OK) {
        if (!m)
            sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "out of memory");
        free(m);
        mresp_free(r);
        return SDKRT_ERR;
    }
    m->r = r;
    m->cancel = req->cancel;
    reader->ops = &mreader_ops;
    reader->self = m;
    return SDKRT_OK;
}

static void mem_destroy(void *self)
{
    free(self);
}

static const sdkrt_transport_ops mem_ops = {mem_send, mem_open, mem_destroy};

sdkrt_status sdkrt_memory_transport_new(sdkrt_transport **out, sdkrt_memory_handler handler,
                                        void *userdata)
{
    *out = NULL;
    if (!handler)
        return SDKRT_ERR;
    sdkrt_transport *tr = calloc(1, sizeof *tr);
    memory_transport *t = calloc(1, sizeof *t);
    if (!tr || !t) {
        free(tr);
        free(t);
        return SDKRT_ERR;
    }
    t->handler = handler;
    t->userdata = userdata;
    tr->ops = &mem_ops;
    tr->self = t;
    *out = tr;
    return SDKRT_OK;
}

void sdkrt_memory_transport_free(sdkrt_transport *t)
{
    sdkrt_transport_free(t);
}
