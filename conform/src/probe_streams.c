/* probe_streams.c - the streams phase: SSE operations opened within the timeout, every frame
 * judged. */
#include "probe_internal.h"

/* ---- streams: a watchdog cancels the stream if it does not open within the request timeout,
 * and stream_ms after it opened ---- */

typedef struct watchdog {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool done, started;
    struct timespec until; /* CLOCK_REALTIME; moved by watchdog_rearm */
    sdkrt_cancel *cancel;
    const sdkrt_cancel *run; /* the run's token (an interrupt), or NULL */
} watchdog;

static struct timespec realtime_in(long ms)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_sec += ms / 1000;
    t.tv_nsec += (ms % 1000) * 1000000L;
    if (t.tv_nsec >= 1000000000L) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000L;
    }
    return t;
}

static void *watchdog_main(void *arg)
{
    watchdog *w = arg;
    pthread_mutex_lock(&w->mu);
    for (;;) {
        if (w->done)
            break;
        struct timespec until = w->until;
        /* an interrupt is seen within 50 ms */
        struct timespec slice = realtime_in(50);
        bool sliced = w->run && (slice.tv_sec < until.tv_sec ||
                                 (slice.tv_sec == until.tv_sec && slice.tv_nsec < until.tv_nsec));
        int rc = pthread_cond_timedwait(&w->cv, &w->mu, sliced ? &slice : &until);
        if (w->run && sdkrt_cancel_is_triggered(w->run))
            break;
        /* a rearm moved the deadline: wait again for the new one */
        if (rc == ETIMEDOUT && !sliced && w->until.tv_sec == until.tv_sec &&
            w->until.tv_nsec == until.tv_nsec)
            break;
    }
    bool fire = !w->done;
    pthread_mutex_unlock(&w->mu);
    if (fire)
        sdkrt_cancel_trigger(w->cancel);
    return NULL;
}

/* Fire ms from now instead (the stream opened: watch it for stream_ms). */
static void watchdog_rearm(watchdog *w, long ms)
{
    if (!w->started)
        return;
    pthread_mutex_lock(&w->mu);
    w->until = realtime_in(ms);
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

static bool watchdog_start(watchdog *w, sdkrt_cancel *c, const sdkrt_cancel *run, long ms)
{
    memset(w, 0, sizeof *w);
    w->cancel = c;
    w->run = run;
    w->until = realtime_in(ms);
    if (pthread_mutex_init(&w->mu, NULL) != 0)
        return false;
    if (pthread_cond_init(&w->cv, NULL) != 0) {
        pthread_mutex_destroy(&w->mu);
        return false;
    }
    w->started = pthread_create(&w->thread, NULL, watchdog_main, w) == 0;
    if (!w->started) {
        pthread_cond_destroy(&w->cv);
        pthread_mutex_destroy(&w->mu);
    }
    return w->started;
}

static void watchdog_stop(watchdog *w)
{
    if (!w->started)
        return;
    pthread_mutex_lock(&w->mu);
    w->done = true;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->cv);
    pthread_mutex_destroy(&w->mu);
}

static void judge_frame(probe_ctx *pc, const sdkrt_stream_event *e, size_t index)
{
    const sdkc_stream *st = pc->op->stream;
    sdkc_buf where = SDKC_BUF_INIT;
    sdkc_buf_printf(&where, "%s frame %zu: ", pc->desc, index);
    if (e->event && strcmp(e->event, "message") != 0)
        sdkc_buf_printf(&where, "event: %s ", e->event);
    sdkc_buf_puts(&where, "data: ");
    conform_snippet(&where, e->data, e->data_len);
    const char *w = where.data ? where.data : "";
    bool failure = st->failure_event && e->event && strcmp(e->event, st->failure_event) == 0;
    if (e->event && strcmp(e->event, "message") != 0 && !failure) {
        ADD(pc, CHECK_SCHEMA, SDKC_VERDICT_DEVIATION, "event:", "event",
            "event type \"%s\" is not declared (%s%s); %s", e->event,
            st->failure_event ? "only data frames and " : "only data frames",
            st->failure_event ? st->failure_event : "", w);
        sdkc_buf_cleanup(&where);
        return;
    }
    if (failure) {
        json_t *cause = json_loadb(e->data, e->data_len, JSON_DECODE_ANY, NULL);
        if (!cause)
            ADD(pc, CHECK_SCHEMA, SDKC_VERDICT_DEVIATION, "$", "json",
                "failure data is not JSON; %s", w);
        else if (!st->cause || conform_validate_into(pc, CHECK_SCHEMA, st->cause, cause, w) == 0)
            ADD(pc, CHECK_SCHEMA, SDKC_VERDICT_PASS, NULL, NULL, "declared failure frame");
        json_decref(cause);
        sdkc_buf_cleanup(&where);
        return;
    }
    size_t bad;
    if (st->frame) {
        /* The frame as its schema sees it: {"data": "<the data line text>"}. */
        json_t *frame = json_object();
        json_t *data = json_stringn(e->data, e->data_len);
        if (!frame || !data || json_object_set_new(frame, "data", data) != 0) {
            json_decref(frame);
            pc->rn->r->oom = true;
            sdkc_buf_cleanup(&where);
            return;
        }
        bad = conform_validate_into(pc, CHECK_SCHEMA, st->frame, frame, w);
        json_decref(frame);
    } else {
        json_t *item = json_loadb(e->data, e->data_len, JSON_DECODE_ANY, NULL);
        if (!item) {
            ADD(pc, CHECK_SCHEMA, SDKC_VERDICT_DEVIATION, "$.data", "json-string",
                "data is not JSON; %s", w);
            sdkc_buf_cleanup(&where);
            return;
        }
        bad = st->item ? conform_validate_into(pc, CHECK_SCHEMA, st->item, item, w) : 0;
        json_decref(item);
    }
    if (bad == 0)
        ADD(pc, CHECK_SCHEMA, SDKC_VERDICT_PASS, NULL, NULL, "frames match their schema");
    sdkc_buf_cleanup(&where);
}

/* A stream opening: once a 2xx status and headers arrive, it is watched for stream_ms (cut to
 * what is left of --max-time). */
typedef struct stream_watch {
    runner *rn;
    watchdog *wd;
    bool opened;
    long watch_ms; /* what the watch was rearmed to */
} stream_watch;

static void stream_opened(void *userdata, int status, const sdkrt_header *headers, size_t count)
{
    (void)headers;
    (void)count;
    stream_watch *sw = userdata;
    if (status / 100 != 2 || sw->opened)
        return;
    sw->opened = true;
    sw->watch_ms = conform_request_timeout(sw->rn, sw->rn->stream_ms);
    watchdog_rearm(sw->wd, sw->watch_ms);
}

void conform_run_stream(probe_ctx *pc, sdkrt_client *client, sdkrt_request *req,
                        const expectation *ex)
{
    runner *rn = pc->rn;
    const sdkc_operation *op = pc->op;
    sdkrt_stream *stream = NULL;
    sdkrt_cancel *cancel = NULL;
    sdkrt_error *err = NULL;
    watchdog wd;
    bool wd_ok = false;
    memset(&wd, 0, sizeof wd);
    stream_watch sw = {rn, &wd, false, rn->stream_ms};
    if (sdkrt_cancel_new(&cancel) != SDKRT_OK) {
        rn->r->oom = true;
        goto done;
    }
    /* Opened within the request timeout (--timeout-ms, as a unary call: headers may come late),
     * then watched for stream_ms; the idle timeout between bytes is the request timeout too. */
    sdkrt_call_options co = SDKRT_CALL_OPTIONS_INIT;
    co.cancel = cancel;
    co.timeout_ms = conform_request_timeout(rn, rn->timeout_ms);
    co.on_response = stream_opened;
    co.userdata = &sw;
    long open_ms = co.timeout_ms;
    /* watched from the start: an interrupt ends the wait for the stream's headers too */
    wd_ok = watchdog_start(&wd, cancel, rn->opts->cancel, open_ms);
    if (sdkrt_client_stream(client, req, &co, &stream, &err) != SDKRT_OK) {
        ADD(pc, "transport", SDKC_VERDICT_SKIP, NULL, NULL, "could not open the stream: %s",
            sdkrt_error_message(err));
        goto done;
    }
    size_t frames = 0;
    for (;;) {
        sdkrt_stream_event e;
        sdkrt_error *serr = NULL;
        sdkrt_stream_result sr = sdkrt_stream_next(stream, &e, &serr);
        if (sr == SDKRT_STREAM_EVENT) {
            if (frames == 0) {
                int st = sdkrt_stream_status(stream);
                pc->status = st;
                pc->answered = conform_is_valid(pc->mode);
                if (st == op->success.status || (op->success.status < 100 && st / 100 == 2)) {
                    ADD(pc, CHECK_STATUS, SDKC_VERDICT_PASS, NULL, NULL, "%d declared", st);
                    ADD(pc, CHECK_CONTENT_TYPE, SDKC_VERDICT_PASS, NULL, NULL, "text/event-stream");
                } else {
                    ADD(pc, CHECK_STATUS, SDKC_VERDICT_DEVIATION, NULL, NULL,
                        "stream opened with HTTP %d, declared %d; %s", st, op->success.status,
                        pc->desc);
                }
                if (ex && ex->status)
                    conform_judge_expectation(pc, st, NULL, ex, pc->desc);
            }
            judge_frame(pc, &e, frames);
            if (++frames >= MAX_FRAMES)
                break;
            continue;
        }
        if (sr == SDKRT_STREAM_END) {
            if (frames == 0)
                ADD(pc, CHECK_SCHEMA, SDKC_VERDICT_SKIP, NULL, NULL,
                    "the stream ended without a frame; %s", pc->desc);
            sdkrt_error_free(serr);
            break;
        }
        sdkrt_reason why = sdkrt_error_reason(serr);
        if (why == SDKRT_REASON_UNEXPECTED_STATUS) {
            size_t blen = 0;
            const char *b = sdkrt_error_body(serr, &blen);
            json_decref(conform_judge(pc, sdkrt_error_status(serr), sdkrt_error_content_type(serr),
                                      b, blen, ex, NULL));
        } else if (why == SDKRT_REASON_UNSUPPORTED_CONTENT_TYPE) {
            size_t blen = 0;
            const char *b = sdkrt_error_body(serr, &blen);
            sdkc_buf ev = SDKC_BUF_INIT;
            conform_snippet(&ev, b, blen);
            pc->answered = conform_is_valid(pc->mode);
            ADD(pc, CHECK_CONTENT_TYPE, SDKC_VERDICT_DEVIATION, NULL, NULL,
                "expected text/event-stream, got %s with HTTP %d; %s: %s",
                sdkrt_error_content_type(serr) ? sdkrt_error_content_type(serr) : "none",
                sdkrt_error_status(serr), pc->desc, ev.data ? ev.data : "");
            sdkc_buf_cleanup(&ev);
        } else if (why == SDKRT_REASON_TIMEOUT || why == SDKRT_REASON_CANCELLED) {
            bool opened = sw.opened || sdkrt_stream_status(stream) != 0;
            /* As send_probe: only a wait of the whole --timeout-ms is a timeout deviation; a
             * wait cut by --max-time (or an interrupt) is a skip. */
            bool cut = open_ms < rn->timeout_ms || conform_past_deadline(rn);
            if (frames == 0 && !opened && cut)
                ADD(pc, "probe", SDKC_VERDICT_SKIP, NULL, NULL,
                    "cut short by %s after %ld ms, the stream not open; %s",
                    rn->opts->stop && *rn->opts->stop ? "an interrupt" : "--max-time", open_ms,
                    pc->desc);
            else if (frames == 0 && !opened && conform_check_on(rn, CHECK_TIMEOUT))
                ADD(pc, CHECK_TIMEOUT, SDKC_VERDICT_DEVIATION, NULL, NULL,
                    "the stream did not open within %ld ms; %s", open_ms, pc->desc);
            else if (frames == 0 && !opened)
                ADD(pc, "probe", SDKC_VERDICT_SKIP, NULL, NULL,
                    "the stream did not open within %ld ms (the timeout check is off); %s", open_ms,
                    pc->desc);
            else if (frames == 0)
                ADD(pc, CHECK_SCHEMA, SDKC_VERDICT_SKIP, NULL, NULL, "no frame within %ld ms; %s",
                    sw.watch_ms, pc->desc);
        } else if (why == SDKRT_REASON_TRANSPORT && frames == 0 &&
                   sdkrt_stream_status(stream) == 0) {
            ADD(pc, "transport", SDKC_VERDICT_SKIP, NULL, NULL, "not probed: %s",
                sdkrt_error_message(serr));
        } else {
            ADD(pc, CHECK_SCHEMA, SDKC_VERDICT_DEVIATION, "stream", "sse",
                "malformed event stream after %zu frame%s: %s; %s", frames, frames == 1 ? "" : "s",
                sdkrt_error_message(serr), pc->desc);
        }
        sdkrt_error_free(serr);
        break;
    }
done:
    if (wd_ok)
        watchdog_stop(&wd);
    sdkrt_stream_close(stream);
    sdkrt_cancel_free(cancel);
    sdkrt_error_free(err);
}
