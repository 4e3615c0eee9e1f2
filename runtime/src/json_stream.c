/* Typed streams: the typed core of stream_core.h (one SSE event in; an item, a poison item, a
 * failure frame or the end out, whoever reads the bytes) and the blocking typed stream
 * (sdkrt_jstream_*) that reads a raw blocking stream through it. */
#include "sdkrt/json.h"

#include "jdecode.h"
#include "json_internal.h"
#include "stream_core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the typed core ---- */

sdkrt_status sdkrt_jcore_init_(sdkrt_jcore_ *c, const sdkrt_jop *op, sdkrt_error **err)
{
    memset(c, 0, sizeof *c);
    c->op = op;
    c->item = sdkrt_json_value_new(op->item);
    if (!c->item)
        return sdkrt_json_oom_(err);
    return SDKRT_OK;
}

void sdkrt_jcore_release_(sdkrt_jcore_ *c)
{
    if (c->have_item) {
        sdkrt_json_cleanup(c->op->item, c->item);
        c->have_item = false;
    }
    json_decref(c->poison_json);
    c->poison_json = NULL;
    sdkrt_error_clear(&c->poison_error);
}

void sdkrt_jcore_cleanup_(sdkrt_jcore_ *c)
{
    if (!c->op)
        return;
    sdkrt_jcore_release_(c);
    sdkrt_json_value_free(c->op->item, c->item);
    c->item = NULL;
    c->op = NULL;
}

void sdkrt_jcore_stream_error_(const sdkrt_jcore_ *c, sdkrt_error *e, sdkrt_error **err)
{
    if (e && sdkrt_error_reason(e) == SDKRT_REASON_UNEXPECTED_STATUS) {
        size_t len = 0;
        const char *body = sdkrt_error_body(e, &len);
        sdkrt_json_error_response(c->op, sdkrt_error_status(e), sdkrt_error_content_type(e), body,
                                  len, err);
        sdkrt_error_free(e);
    } else {
        sdkrt_error_propagate(err, e);
    }
}

/* A failure frame: the stream failed. The caller gets a StreamFailure DOMAIN error whose payload
 * is the cause decoded as op->cause (or the raw JSON when op declares no cause type), and whose
 * raw payload is the cause as received. A cause that op->cause does not decode (an error the
 * contract does not declare) still is the stream's failure: the payload is NULL, the raw JSON
 * stays reachable and the message says why it did not decode. Data that is not JSON at all is
 * MALFORMED_RESPONSE. */
static sdkrt_status stream_failure(const sdkrt_jcore_ *s, const sdkrt_stream_event *ev, int status,
                                   sdkrt_error **err)
{
    const sdkrt_jop *op = s->op;
    sdkrt_error *e = NULL;
    sdkrt_error *why = NULL; /* why the cause did not decode */
    void *payload = NULL;
    sdkrt_payload_free_fn free_fn = NULL;
    char *defect = NULL;
    char msg[1024];
    json_t *j = json_loadb(ev->data, ev->data_len, SDKRT_JSON_LOAD_FLAGS, NULL);
    if (j && json_is_string(j)) {
        json_t *inner =
            json_loadb(json_string_value(j), json_string_length(j), SDKRT_JSON_LOAD_FLAGS, NULL);
        if (inner) {
            json_decref(j);
            j = inner;
        }
    }
    if (!j) {
        sdkrt_error_set(&e, SDKRT_REASON_MALFORMED_RESPONSE,
                        "%s: stream failure event with invalid JSON data", op->id);
        goto done;
    }
    if (op->cause) {
        payload = sdkrt_jpayload_new_(op->cause);
        if (!payload) {
            sdkrt_json_oom_(&e);
            goto done;
        }
        if (sdkrt_json_decode(op->cause, payload, j, "$", &why) == SDKRT_OK) {
            free_fn = sdkrt_jpayload_free_;
        } else {
            sdkrt_jpayload_free_(payload);
            payload = NULL;
            if (sdkrt_error_reason(why) == SDKRT_REASON_OUT_OF_MEMORY) {
                sdkrt_error_propagate(&e, why);
                why = NULL;
                goto done;
            }
        }
    } else {
        payload = json_incref(j);
        free_fn = sdkrt_jpayload_json_free_;
    }
    /* A readable summary: the first cause's tag and its error tag or defect. */
    const json_t *first = json_is_array(j) ? json_array_get(j, 0) : j;
    const char *ctag = json_string_value(json_object_get(first, "_tag"));
    const char *etag = json_string_value(json_object_get(json_object_get(first, "error"), "_tag"));
    if (json_object_get(first, "defect"))
        defect = json_dumps(json_object_get(first, "defect"), JSON_ENCODE_ANY | JSON_COMPACT);
    snprintf(msg, sizeof msg, "%s: stream failed: %s%s%.300s%s%.400s%s", op->id,
             ctag ? ctag : "cause", etag || defect ? ": " : "",
             etag     ? etag
             : defect ? defect
                      : "",
             why ? " (a cause the contract does not declare: " : "",
             why ? sdkrt_error_message(why) : "", why ? ")" : "");
    /* The payload is stolen, also on failure. */
    if (sdkrt_error_new_domain(&e, status, SDKRT_JSTREAM_FAILURE_TAG, payload, free_fn, msg) ==
        SDKRT_OK)
        sdkrt_error_set_raw_payload(e, json_incref(j));
done:
    free(defect);
    sdkrt_error_free(why);
    json_decref(j);
    sdkrt_error_propagate(err, e);
    return SDKRT_ERR;
}

/* An event's data straight into s->item, read where the SSE parser holds it (no copy). When the
 * contract says the data is a JSON string of the item and a string comes, its content is
 * decoded; every other case of that rule, and every refusal, is left to the tree way. */
static sdkrt_jd_result_ decode_event_fast(sdkrt_jcore_ *s, const sdkrt_stream_event *ev)
{
    const sdkrt_jtype *t = s->op->item;
    size_t i = 0;
    while (i < ev->data_len && (ev->data[i] == ' ' || ev->data[i] == '\t' || ev->data[i] == '\n' ||
                                ev->data[i] == '\r'))
        i++;
    if (!s->op->item_encoded || i == ev->data_len || ev->data[i] != '"' ||
        t->kind == SDKRT_JK_STRING || t->kind == SDKRT_JK_ENUM || t->kind == SDKRT_JK_ANY)
        return sdkrt_jd_decode_(t, s->item, ev->data, ev->data_len, NULL);
    char *text = NULL;
    size_t n = 0;
    sdkrt_jd_result_ r = sdkrt_jd_string_(ev->data, ev->data_len, &text, &n);
    if (r == SDKRT_JD_OK_)
        r = sdkrt_jd_decode_(t, s->item, text, n, NULL);
    free(text);
    return r;
}

/* The stream's data is the item's JSON, or a JSON string holding it (the contract's encoded
 * projection): the value to decode, a new reference, or NULL when the data is not JSON. */
static json_t *event_json(const sdkrt_jcore_ *s, const sdkrt_stream_event *ev, json_error_t *jerr)
{
    json_t *j = json_loadb(ev->data, ev->data_len, SDKRT_JSON_LOAD_FLAGS, jerr);
    if (j && s->op->item_encoded && json_is_string(j) && s->op->item->kind != SDKRT_JK_STRING &&
        s->op->item->kind != SDKRT_JK_ENUM && s->op->item->kind != SDKRT_JK_ANY) {
        json_t *inner =
            json_loadb(json_string_value(j), json_string_length(j), SDKRT_JSON_LOAD_FLAGS, NULL);
        if (inner) {
            json_decref(j);
            j = inner;
        }
    }
    return j;
}

sdkrt_jc_result_ sdkrt_jcore_event_(sdkrt_jcore_ *s, const sdkrt_stream_event *ev, int status,
                                    const void **item, sdkrt_jstream_poison *poison,
                                    sdkrt_error **err)
{
    s->error_final = false;
    if (s->op->failure_event && ev->event && strcmp(ev->event, s->op->failure_event) == 0) {
        s->error_final = true;
        stream_failure(s, ev, status, err);
        return SDKRT_JC_ERROR;
    }
    if (ev->data_len == 0)
        return SDKRT_JC_SKIP; /* an empty event carries no item */
    if (ev->data_len == 6 && memcmp(ev->data, "[DONE]", 6) == 0)
        return SDKRT_JC_END; /* OpenAI's end of stream (and its imitators'): never JSON */
    switch (decode_event_fast(s, ev)) {
    case SDKRT_JD_OK_:
        s->have_item = true;
        *item = s->item;
        return SDKRT_JC_ITEM;
    case SDKRT_JD_OOM_:
        sdkrt_json_oom_(err);
        return SDKRT_JC_ERROR;
    case SDKRT_JD_MALFORMED_:
        break; /* the tree way below says why */
    }
    json_error_t jerr;
    sdkrt_error *why = NULL;
    json_t *j = event_json(s, ev, &jerr);
    sdkrt_status st = SDKRT_ERR;
    if (!j)
        sdkrt_error_set(&why, SDKRT_REASON_MALFORMED_RESPONSE,
                        "%s: event data is not JSON (line %d column %d: %s)", s->op->id, jerr.line,
                        jerr.column, jerr.text);
    else
        st = sdkrt_json_decode(s->op->item, s->item, j, "$", &why);
    if (st == SDKRT_OK) {
        json_decref(j);
        s->have_item = true;
        *item = s->item;
        return SDKRT_JC_ITEM;
    }
    if (!poison || sdkrt_error_reason(why) == SDKRT_REASON_OUT_OF_MEMORY) {
        json_decref(j);
        s->error_final = !poison; /* strict: a stream that cannot be read ends */
        sdkrt_error_propagate(err, why);
        return SDKRT_JC_ERROR;
    }
    s->poison_json = j;
    s->poison_error = why;
    poison->data = ev->data;
    poison->data_len = ev->data_len;
    poison->json = j;
    poison->error = why;
    return SDKRT_JC_POISON;
}

/* ---- the blocking typed stream ---- */

/* The blocking typed stream: the raw blocking stream read through the typed core. */
struct sdkrt_jstream {
    sdkrt_jcore_ core;
    sdkrt_stream *stream;
    bool ended;
};

sdkrt_status sdkrt_jstream_open(sdkrt_jstream **out, sdkrt_client *client, const sdkrt_request *req,
                                const sdkrt_call_options *call, const sdkrt_jop *op,
                                sdkrt_error **err)
{
    *out = NULL;
    sdkrt_jstream *s = calloc(1, sizeof *s);
    if (!s)
        return sdkrt_json_oom_(err);
    if (sdkrt_jcore_init_(&s->core, op, err) != SDKRT_OK) {
        free(s);
        return SDKRT_ERR;
    }
    if (sdkrt_client_stream(client, req, call, &s->stream, err) != SDKRT_OK) {
        sdkrt_jcore_cleanup_(&s->core);
        free(s);
        return SDKRT_ERR;
    }
    *out = s;
    return SDKRT_OK;
}

/* One step of a typed stream. poison NULL: strict (an undecodable event ends the stream). */
static sdkrt_stream_result jstream_step(sdkrt_jstream *s, const void **item,
                                        sdkrt_jstream_poison *poison, sdkrt_error **err)
{
    if (item)
        *item = NULL;
    if (!s)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT, "stream is NULL"),
               SDKRT_STREAM_ERROR;
    sdkrt_jcore_release_(&s->core);
    if (s->ended)
        return SDKRT_STREAM_END;
    for (;;) {
        sdkrt_stream_event ev;
        sdkrt_error *e = NULL;
        sdkrt_stream_result r = sdkrt_stream_next(s->stream, &ev, &e);
        if (r == SDKRT_STREAM_END) {
            s->ended = true;
            return r;
        }
        if (r == SDKRT_STREAM_ERROR) {
            sdkrt_jcore_stream_error_(&s->core, e, err);
            return r;
        }
        const void *it = NULL;
        switch (
            sdkrt_jcore_event_(&s->core, &ev, sdkrt_stream_status(s->stream), &it, poison, &e)) {
        case SDKRT_JC_SKIP:
            continue;
        case SDKRT_JC_END:
            s->ended = true;
            return SDKRT_STREAM_END;
        case SDKRT_JC_ITEM:
            if (item)
                *item = it;
            return SDKRT_STREAM_EVENT;
        case SDKRT_JC_POISON:
            return SDKRT_STREAM_POISON;
        case SDKRT_JC_ERROR:
            if (s->core.error_final)
                s->ended = true;
            sdkrt_error_propagate(err, e);
            return SDKRT_STREAM_ERROR;
        }
    }
}

const sdkrt_jtype *sdkrt_jstream_item_type_(const sdkrt_jstream *s)
{
    return s ? s->core.op->item : NULL;
}

sdkrt_stream_result sdkrt_jstream_next(sdkrt_jstream *s, const void **item, sdkrt_error **err)
{
    return jstream_step(s, item, NULL, err);
}

sdkrt_stream_result sdkrt_jstream_next_poison(sdkrt_jstream *s, const void **item,
                                              sdkrt_jstream_poison *poison, sdkrt_error **err)
{
    if (!poison)
        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT, "poison is NULL"),
               SDKRT_STREAM_ERROR;
    memset(poison, 0, sizeof *poison);
    return jstream_step(s, item, poison, err);
}

void sdkrt_jstream_close(sdkrt_jstream *s)
{
    if (!s)
        return;
    sdkrt_stream_close(s->stream);
    sdkrt_jcore_cleanup_(&s->core);
    free(s);
}
