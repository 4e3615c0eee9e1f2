/* probe_runner.c - the runner: workers, sending a probe, the recording transport, sdkc_conform_run.
 */
#include "probe_internal.h"

void conform_log(runner *rn, const char *fmt, ...)
{
    if (!rn->opts->log)
        return;
    pthread_mutex_lock(&rn->mu);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(rn->opts->log, fmt, ap);
    va_end(ap);
    fputc('\n', rn->opts->log);
    pthread_mutex_unlock(&rn->mu);
}

char *conform_strdup(const char *s)
{
    size_t n = strlen(s);
    char *p = malloc(n + 1);
    if (p)
        memcpy(p, s, n + 1);
    return p;
}

/* ---- the run's clock ---- */

bool conform_past_deadline(const runner *rn)
{
    if (rn->opts->stop && *rn->opts->stop)
        return true;
    if (!rn->deadline.tv_sec)
        return false;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec > rn->deadline.tv_sec ||
           (now.tv_sec == rn->deadline.tv_sec && now.tv_nsec >= rn->deadline.tv_nsec);
}

/* The per-request timeout, cut to what is left of --max-time. */
long conform_request_timeout(const runner *rn, long want)
{
    if (!rn->deadline.tv_sec)
        return want;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long left = (long)(rn->deadline.tv_sec - now.tv_sec) * 1000 +
                (rn->deadline.tv_nsec - now.tv_nsec) / 1000000;
    return left < 1 ? 1 : left < want ? left : want;
}

void conform_probe_out_cleanup(probe_out *o)
{
    json_decref(o->body);
    free(o->location);
    memset(o, 0, sizeof *o);
}

/* Does the contract say the operation is a WebSocket (an HTTP request without the upgrade is
 * not what it describes, and may well be refused)? OpenAPI has no word for it but its text. */
static bool websocket(const sdkc_operation *op)
{
    const char *texts[] = {op->summary, op->description};
    for (size_t i = 0; i < 2; i++)
        for (const char *s = texts[i]; s && *s; s++)
            if (strncasecmp(s, "websocket", 9) == 0)
                return true;
    return false;
}

/* Does status fail a valid request (a 5xx, or a refusal positive_data_acceptance reports)? 5 or
 * 4 (the class), 0 when it does not. */
static int failing(const probe_ctx *pc, int status)
{
    if (status >= 500)
        return 5;
    if (pc->contract_only && conform_check_on(pc->rn, CHECK_POSITIVE) && status / 100 == 4 &&
        status != 401 && status != 403 && status != 404 && status != 409 && status != 429)
        return 4;
    return 0;
}

/* The status of req sent without judging it, 0 when there was no answer. */
static int status_of(worker *wk, sdkrt_client *client, sdkrt_request *req)
{
    runner *rn = wk->rn;
    if (conform_past_deadline(rn))
        return 0;
    sdkrt_call_options co = SDKRT_CALL_OPTIONS_INIT;
    co.timeout_ms = conform_request_timeout(rn, rn->timeout_ms);
    co.cancel = rn->opts->cancel;
    sdkrt_response *resp = NULL;
    sdkrt_error *err = NULL;
    int st = sdkrt_client_send(client, req, &co, &resp, &err) == SDKRT_OK
                 ? sdkrt_response_status(resp)
                 : 0;
    sdkrt_response_free(resp);
    sdkrt_error_free(err);
    return st;
}

/* A positive probe that fails is reduced before it is judged: its optional parameters and
 * top-level body fields are left out one at a time, each left out for good while the request
 * still fails the same way. Returns the request to judge (req, or a smaller one; the other is
 * freed) and writes what was left out into *dropped. */
static sdkrt_request *reduce(probe_ctx *pc, sdkrt_client *client, req_plan *plan,
                             sdkrt_request *req, sdkc_buf *desc, unsigned *dropped)
{
    worker *wk = pc->wk;
    unsigned n = conform_optional_count(pc->op);
    *dropped = 0;
    if ((plan->mode != MODE_POSITIVE && plan->mode != MODE_POSITIVE_BODY) || n < 2 ||
        (pc->op->stream && pc->op->success.encoding == SDKC_ENC_SSE))
        return req;
    int cls = failing(pc, status_of(wk, client, req));
    if (!cls)
        return req;
    for (unsigned k = 0; k < n; k++) {
        req_plan p = *plan;
        p.drop = plan->drop | (1ull << k);
        p.why = NULL;
        sdkc_buf d = SDKC_BUF_INIT;
        sdkrt_request *smaller = conform_build(wk, pc->op, &p, &d);
        bool keep = smaller && !p.why && failing(pc, status_of(wk, client, smaller)) == cls;
        free(p.why);
        if (keep) {
            plan->drop = p.drop;
            sdkrt_request_free(req);
            req = smaller;
            sdkc_buf_reset(desc);
            sdkc_buf_puts(desc, d.data ? d.data : "");
            ++*dropped;
        } else {
            sdkrt_request_free(smaller);
        }
        sdkc_buf_cleanup(&d);
    }
    return req;
}

void conform_run_probe(worker *wk, const sdkc_operation *op, const char *probe, req_plan *plan,
                       const expectation *ex, probe_out *out)
{
    runner *rn = wk->rn;
    sdkc_buf desc = SDKC_BUF_INIT;
    sdkrt_request *req = conform_build(wk, op, plan, &desc);
    probe_ctx pc = {.wk = wk,
                    .rn = rn,
                    .op = op,
                    .probe = probe,
                    .desc = desc.data ? desc.data : op->path,
                    .mode = plan->mode,
                    .plan = plan};
    /* positive_data_acceptance judges what the contract alone made: not a page walk's cursor
       or size, an id nobody made, a --param value, or an example the contract pairs with an
       error */
    pc.contract_only = conform_is_valid(plan->mode) && plan->mode != MODE_AFTER_CREATE &&
                       !plan->cursor && plan->limit <= 0 && (!plan->last_id || plan->chain) &&
                       !plan->made_up && !plan->no_id && !plan->user_values && !plan->method &&
                       !websocket(op) && (!plan->gc || plan->gc->contract_only);
    sdkrt_client *client = plan->mode == MODE_NO_CREDENTIALS ? wk->anon : wk->client;
    memset(out, 0, sizeof *out);
    if (!req)
        rn->r->oom = true;
    else if (plan->why)
        ADD(&pc, "probe", SDKC_VERDICT_SKIP, NULL, NULL, "%s", plan->why);
    else {
        unsigned dropped = 0;
        req = reduce(&pc, client, plan, req, &desc, &dropped);
        if (dropped)
            sdkc_buf_printf(&desc,
                            " (reduced: %u of %u optional values left out, it fails all "
                            "the same)",
                            dropped, conform_optional_count(op));
        pc.desc = desc.data ? desc.data : op->path;
        conform_send_probe(&pc, client, req, ex, out, plan->keep);
    }
    sdkrt_request_free(req);
    sdkc_buf_cleanup(&desc);
}

/* Send req (borrowed; a stream reads it) as pc's probe and judge the answer into out. keep, when
 * not NULL, gets the response (new; NULL when there was none) for a caller that reads more of it.
 */
void conform_send_probe(probe_ctx *pc, sdkrt_client *client, sdkrt_request *req,
                        const expectation *ex, probe_out *out, sdkrt_response **keep)
{
    runner *rn = pc->rn;
    const sdkc_operation *op = pc->op;
    sdkrt_response *resp = NULL;
    sdkrt_error *err = NULL;
    if (keep)
        *keep = NULL;
    free(pc->wk->curl); /* the line of this probe's request, once sent */
    pc->wk->curl = NULL;
    if (conform_past_deadline(rn)) {
        ADD(pc, "probe", SDKC_VERDICT_SKIP, NULL, NULL, "not sent: the run was stopped (%s)",
            rn->opts->stop && *rn->opts->stop ? "interrupted" : "--max-time reached");
        goto done;
    }
    if (op->stream && op->success.encoding == SDKC_ENC_SSE && !(pc->plan && pc->plan->method)) {
        conform_run_stream(pc, client, req, ex);
        goto done;
    }
    sdkrt_call_options co = SDKRT_CALL_OPTIONS_INIT;
    co.timeout_ms = conform_request_timeout(rn, rn->timeout_ms);
    co.cancel = rn->opts->cancel;
    if (sdkrt_client_send(client, req, &co, &resp, &err) != SDKRT_OK) {
        if (sdkrt_error_reason(err) == SDKRT_REASON_TIMEOUT && co.timeout_ms == rn->timeout_ms &&
            pc->mode == MODE_MALFORMED_BODY) {
            pthread_mutex_lock(&rn->mu);
            if (!rn->malformed_hang && !(rn->malformed_hang = conform_strdup(pc->desc)))
                rn->r->oom = true;
            pthread_mutex_unlock(&rn->mu);
        }
        if (sdkrt_error_reason(err) == SDKRT_REASON_CANCELLED)
            ADD(pc, "probe", SDKC_VERDICT_SKIP, NULL, NULL, "cut short by an interrupt; %s",
                pc->desc);
        else if (sdkrt_error_reason(err) == SDKRT_REASON_TIMEOUT &&
                 co.timeout_ms == rn->timeout_ms && conform_check_on(rn, CHECK_TIMEOUT))
            ADD(pc, CHECK_TIMEOUT, SDKC_VERDICT_DEVIATION, NULL, NULL,
                "no answer within %ld ms; %s", co.timeout_ms, pc->desc);
        else if (sdkrt_error_reason(err) == SDKRT_REASON_TIMEOUT && co.timeout_ms == rn->timeout_ms)
            ADD(pc, "probe", SDKC_VERDICT_SKIP, NULL, NULL,
                "no answer within %ld ms (the timeout check is off); %s", co.timeout_ms, pc->desc);
        else if (sdkrt_error_reason(err) == SDKRT_REASON_TIMEOUT)
            ADD(pc, "probe", SDKC_VERDICT_SKIP, NULL, NULL,
                "cut short by --max-time after %ld ms; %s", co.timeout_ms, pc->desc);
        else
            /* The message ends with its reason already: "... (TRANSPORT)". */
            ADD(pc, "transport", SDKC_VERDICT_SKIP, NULL, NULL, "not probed: %s",
                sdkrt_error_message(err));
        goto done;
    }
    size_t blen = 0;
    const char *body = sdkrt_response_body(resp, &blen);
    conform_log(rn, "  %-16s %s -> %d", pc->probe, pc->desc, sdkrt_response_status(resp));
    out->body = conform_judge(pc, sdkrt_response_status(resp), sdkrt_response_content_type(resp),
                              body, blen, ex, resp);
    const char *loc = sdkrt_response_header(resp, "Location");
    out->location = loc ? conform_strdup(loc) : NULL;
done:
    out->status = pc->status;
    out->answered = pc->answered;
    if (keep)
        *keep = resp;
    else
        sdkrt_response_free(resp);
    sdkrt_error_free(err);
}

/* The next operation of the phase whose id givers are done: waits while one runs; with none
 * running and none ready (givers that need each other), the first queued. NULL when all have
 * started. Call with rn->mu held; returns the queue index in *at. */
static const sdkc_operation *next_ready(runner *rn, size_t *at)
{
    for (;;) {
        bool queued = false, running = false;
        for (size_t i = 0; i < rn->nqueue; i++) {
            running = running || rn->state[i] == RUNNING;
            if (rn->state[i] != QUEUED)
                continue;
            queued = true;
            bool ready = true;
            for (size_t j = 0; j < rn->nqueue && ready; j++)
                ready = !rn->needs[i * rn->nqueue + j] || rn->state[j] == DONE;
            if (ready) {
                *at = i;
                return rn->queue[i];
            }
        }
        if (!queued)
            return NULL;
        if (!running) {
            for (size_t i = 0; i < rn->nqueue; i++)
                if (rn->state[i] == QUEUED) {
                    *at = i;
                    return rn->queue[i];
                }
        }
        pthread_cond_wait(&rn->cv, &rn->mu);
    }
}

static void *worker_main(void *arg)
{
    worker *wk = arg;
    runner *rn = wk->rn;
    for (;;) {
        size_t at = 0;
        pthread_mutex_lock(&rn->mu);
        const sdkc_operation *op = next_ready(rn, &at);
        if (op)
            rn->state[at] = RUNNING;
        pthread_mutex_unlock(&rn->mu);
        if (!op)
            break;
        conform_probe_operation(wk, op);
        pthread_mutex_lock(&rn->mu);
        rn->state[at] = DONE;
        rn->ndone++;
        conform_progress(rn);
        pthread_cond_broadcast(&rn->cv);
        pthread_mutex_unlock(&rn->mu);
    }
    return NULL;
}

static sdkrt_status rec_send(void *self, const sdkrt_transport_request *req, sdkrt_response **out,
                             sdkrt_error **err)
{
    worker *wk = self;
    free(wk->curl);
    wk->curl = conform_curl(req, wk->rn->secrets, wk->rn->nsecrets);
    return wk->rn->inner->ops->send(wk->rn->inner->self, req, out, err);
}

static sdkrt_status rec_open(void *self, const sdkrt_transport_request *req, sdkrt_response **head,
                             sdkrt_body_reader *reader, sdkrt_error **err)
{
    worker *wk = self;
    free(wk->curl);
    wk->curl = conform_curl(req, wk->rn->secrets, wk->rn->nsecrets);
    return wk->rn->inner->ops->open(wk->rn->inner->self, req, head, reader, err);
}

static const sdkrt_transport_ops rec_ops = {rec_send, rec_open, NULL};

/* co and anon (NULL: no anonymous client) are the run's client options; the worker's clients
 * take them with its recording transport. */
static bool worker_init(worker *wk, runner *rn, const sdkrt_client_options *co,
                        const sdkrt_client_options *anon)
{
    memset(wk, 0, sizeof *wk);
    wk->rn = rn;
    wk->rec.ops = &rec_ops;
    wk->rec.self = wk;
    sdkrt_client_options o = *co;
    o.transport = &wk->rec;
    sdkrt_error *err = NULL;
    bool ok = sdkrt_client_new(&wk->client, &o, &err) == SDKRT_OK;
    if (ok && anon) {
        o = *anon;
        o.transport = &wk->rec;
        ok = sdkrt_client_new(&wk->anon, &o, &err) == SDKRT_OK;
    }
    sdkrt_error_free(err);
    sdkc_validate_options vo = SDKC_VALIDATE_OPTIONS_INIT;
    return ok && sdkc_validation_new(&wk->val, &vo) == SDKC_OK &&
           sdkc_arena_new(&wk->arena) == SDKC_OK;
}

static void worker_cleanup(worker *wk)
{
    sdkc_validation_free(wk->val);
    sdkc_arena_free(wk->arena);
    sdkrt_client_free(wk->client);
    sdkrt_client_free(wk->anon);
    free(wk->curl);
}

/* Each secret of the run with the name of the variable it came from (for curl lines). */
static bool secrets_init(runner *rn, const sdkc_conform_options *o)
{
    rn->secrets = calloc(o->ncredentials + 1, sizeof *rn->secrets);
    if (!rn->secrets)
        return false;
    for (size_t i = 0; i < o->ncredentials; i++) {
        const sdkrt_credential *c = &o->credentials[i];
        const char *env =
            o->credential_envs && o->credential_envs[i] ? o->credential_envs[i] : "SECRET";
        conform_secret *s = &rn->secrets[rn->nsecrets++];
        s->env = env;
        if (c->token) {
            s->value = c->token;
        } else {
            s->value = c->password;
            s->basic_user = c->username;
            s->whole_pair = true;
        }
    }
    if (o->password) {
        conform_secret *s = &rn->secrets[rn->nsecrets++];
        s->value = o->password;
        s->env = o->password_env ? o->password_env : "PASSWORD";
        s->basic_user = o->username ? o->username : "opencode";
    }
    return true;
}

/* Client options shared by both clients: base URL, transport, user agent, --header. The
 * anonymous client leaves out headers that could carry credentials. */
static bool auth_header(const runner *rn, const char *name)
{
    if (strcasecmp(name, "Authorization") == 0 || strcasecmp(name, "Cookie") == 0 ||
        strcasecmp(name, "Proxy-Authorization") == 0)
        return true;
    for (size_t i = 0; i < rn->ir->nschemes; i++)
        if (rn->ir->schemes[i].param && strcasecmp(rn->ir->schemes[i].param, name) == 0)
            return true;
    return false;
}

sdkc_status sdkc_conform_run(sdkc_conform_report **out, const sdkc_ir *ir,
                             const sdkc_conform_options *opts, char **errmsg)
{
    *out = NULL;
    if (errmsg)
        *errmsg = NULL;
    sdkc_status st = SDKC_OK;
    runner rn;
    memset(&rn, 0, sizeof rn);
    rn.ir = ir;
    rn.opts = opts;
    rn.timeout_ms = opts->timeout_ms > 0 ? opts->timeout_ms : 5000;
    rn.stream_ms = opts->stream_ms > 0 ? opts->stream_ms : 1500;
    rn.checks = opts->checks ? opts->checks : SDKC_CHECK_ALL;
    rn.seed = opts->seed;
    rn.max_examples = opts->max_examples < 0    ? 0
                      : opts->max_examples == 0 ? SDKC_CONFORM_MAX_EXAMPLES
                                                : (size_t)opts->max_examples;
    int jobs = opts->jobs > 0 ? (opts->jobs < MAX_JOBS ? opts->jobs : MAX_JOBS) : 1;
    worker workers[MAX_JOBS];
    pthread_t threads[MAX_JOBS];
    int nworkers = 0;
    bool mu = false;
    sdkrt_header *anon_headers = NULL;
    sdkrt_error *err = NULL;
    if (opts->max_time_ms > 0) {
        clock_gettime(CLOCK_MONOTONIC, &rn.deadline);
        rn.deadline.tv_sec += opts->max_time_ms / 1000;
        rn.deadline.tv_nsec += (opts->max_time_ms % 1000) * 1000000L;
        if (rn.deadline.tv_nsec >= 1000000000L) {
            rn.deadline.tv_sec++;
            rn.deadline.tv_nsec -= 1000000000L;
        }
    }
    rn.r = calloc(1, sizeof *rn.r);
    rn.probed = calloc(ir->nops ? ir->nops : 1, sizeof *rn.probed);
    rn.queue = calloc(ir->nops ? ir->nops : 1, sizeof *rn.queue);
    rn.state = calloc(ir->nops ? ir->nops : 1, sizeof *rn.state);
    anon_headers = calloc(opts->nheaders ? opts->nheaders : 1, sizeof *anon_headers);
    if (!rn.r || !rn.probed || !rn.queue || !rn.state || !anon_headers ||
        pthread_mutex_init(&rn.mu, NULL)) {
        st = SDKC_ERR_NOMEM;
        goto done;
    }
    if (pthread_cond_init(&rn.cv, NULL)) {
        pthread_mutex_destroy(&rn.mu);
        st = SDKC_ERR_NOMEM;
        goto done;
    }
    mu = true;
    rn.r->seed = opts->seed;
    rn.r->max_examples = rn.max_examples;
    rn.r->base_url = opts->base_url ? conform_strdup(opts->base_url) : NULL;
    rn.r->contract = ir->source_name ? conform_strdup(ir->source_name) : NULL;
    sdkrt_client_options co = SDKRT_CLIENT_OPTIONS_INIT;
    co.base_url = opts->base_url;
    co.transport = opts->transport;
    co.user_agent = "sdkc-conform/" SDKC_VERSION;
    co.retry.max_attempts = 1; /* a check judges the server's own first answer */
    co.headers = opts->headers;
    co.header_count = opts->nheaders;
    co.credentials = opts->credentials;
    co.credential_count = opts->ncredentials;
    if (opts->password) {
        co.auth = SDKRT_AUTH_BASIC;
        co.username = opts->username ? opts->username : "opencode";
        co.password = opts->password;
    }
    co.ca_file = opts->ca_file;
    co.verify_tls = !opts->insecure;
    rn.have_credentials = opts->password || opts->ncredentials;
    if (!opts->base_url || sdkrt_client_new(&rn.client, &co, &err) != SDKRT_OK) {
        if (errmsg) {
            sdkc_buf m = SDKC_BUF_INIT;
            sdkc_buf_printf(&m, "bad base URL or credentials: %s",
                            err ? sdkrt_error_message(err) : "none given (--base-url)");
            *errmsg = sdkc_buf_steal(&m, NULL);
            sdkc_buf_cleanup(&m);
        }
        st = SDKC_ERR_INVALID;
        goto done;
    }
    sdkrt_client_options co_anon = co;
    if (rn.have_credentials) {
        size_t nh = 0;
        for (size_t i = 0; i < opts->nheaders; i++)
            if (!auth_header(&rn, opts->headers[i].name))
                anon_headers[nh++] = opts->headers[i];
        co_anon.auth = SDKRT_AUTH_NONE;
        co_anon.username = co_anon.password = NULL;
        co_anon.credentials = NULL;
        co_anon.credential_count = 0;
        co_anon.headers = anon_headers;
        co_anon.header_count = nh;
        if (sdkrt_client_new(&rn.anon, &co_anon, &err) != SDKRT_OK) {
            st = SDKC_ERR_NOMEM;
            goto done;
        }
    }
    rn.inner = opts->transport;
    if (!rn.inner && sdkrt_curl_transport_new(&rn.own_inner, &err) != SDKRT_OK) {
        st = SDKC_ERR_NOMEM;
        goto done;
    }
    if (!rn.inner)
        rn.inner = rn.own_inner;
    if (!secrets_init(&rn, opts)) {
        st = SDKC_ERR_NOMEM;
        goto done;
    }
    for (int i = 0; i < jobs; i++) {
        if (!worker_init(&workers[i], &rn, &co, rn.anon ? &co_anon : NULL)) {
            worker_cleanup(&workers[i]);
            st = SDKC_ERR_NOMEM;
            goto done;
        }
        nworkers++;
    }
    for (int phase = 0; phase <= 3; phase++) {
        rn.nqueue = 0;
        for (size_t i = 0; i < ir->nops; i++) {
            const sdkc_operation *op = &ir->ops[i];
            if (!conform_included(opts, op->id) || conform_phase_of(op) != phase)
                continue;
            rn.r->operations++;
            rn.queue[rn.nqueue++] = op;
        }
        free(rn.needs);
        rn.needs = calloc(rn.nqueue * rn.nqueue + 1, sizeof *rn.needs);
        if (!rn.needs) {
            st = SDKC_ERR_NOMEM;
            goto done;
        }
        memset(rn.state, QUEUED, ir->nops ? ir->nops : 1);
        for (size_t i = 0; i < rn.nqueue; i++)
            for (size_t j = 0; j < rn.nqueue; j++)
                rn.needs[i * rn.nqueue + j] =
                    i != j && conform_gives_id(&rn, rn.queue[j], rn.queue[i]);
        int started = 0;
        for (int i = 1; i < nworkers && (size_t)i < rn.nqueue; i++)
            if (pthread_create(&threads[i], NULL, worker_main, &workers[i]) == 0)
                started = i;
            else
                break;
        worker_main(&workers[0]);
        for (int i = 1; i <= started; i++)
            pthread_join(threads[i], NULL);
    }
    for (size_t i = 0; i < ir->nops; i++)
        rn.r->probed += rn.probed[i];
    rn.r->interrupted = opts->stop && *opts->stop;
    rn.r->deadline = !rn.r->interrupted && conform_past_deadline(&rn);
    if (rn.r->oom)
        st = SDKC_ERR_NOMEM;
done:
    conform_progress_clear(&rn);
    for (int i = 0; i < nworkers; i++)
        worker_cleanup(&workers[i]);
    sdkrt_error_free(err);
    sdkrt_client_free(rn.client);
    sdkrt_client_free(rn.anon);
    sdkrt_transport_free(rn.own_inner); /* after every client that used it */
    free(rn.secrets);
    free(anon_headers);
    free(rn.probed);
    free(rn.queue);
    free(rn.state);
    free(rn.needs);
    free(rn.malformed_hang);
    for (size_t i = 0; i < rn.nstore; i++) {
        free(rn.store[i].key);
        json_decref(rn.store[i].value);
    }
    free(rn.store);
    if (mu) {
        pthread_cond_destroy(&rn.cv);
        pthread_mutex_destroy(&rn.mu);
    }
    if (st == SDKC_OK)
        *out = rn.r;
    else
        sdkc_conform_report_free(rn.r);
    return st;
}
