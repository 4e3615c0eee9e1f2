/* probe_judge.c - the checks and the judging of one response against the contract. */
#include "probe_internal.h"

static const struct {
    const char *name;
    unsigned bit;
} check_table[] = {
    {CHECK_SERVER_ERROR, SDKC_CHECK_NOT_A_SERVER_ERROR},
    {CHECK_STATUS, SDKC_CHECK_STATUS_CODE},
    {CHECK_CONTENT_TYPE, SDKC_CHECK_CONTENT_TYPE},
    {CHECK_HEADERS, SDKC_CHECK_RESPONSE_HEADERS},
    {CHECK_SCHEMA, SDKC_CHECK_RESPONSE_SCHEMA},
    {CHECK_NEGATIVE, SDKC_CHECK_NEGATIVE_DATA},
    {CHECK_IGNORED_AUTH, SDKC_CHECK_IGNORED_AUTH},
    {CHECK_USE_AFTER, SDKC_CHECK_USE_AFTER_FREE},
    {CHECK_AVAILABILITY, SDKC_CHECK_RESOURCE_AVAILABILITY},
    {CHECK_MISSING, SDKC_CHECK_MISSING_RESOURCE},
    {CHECK_PAGINATION, SDKC_CHECK_PAGINATION},
    {CHECK_TIMEOUT, SDKC_CHECK_TIMEOUT},
    {CHECK_POSITIVE, SDKC_CHECK_POSITIVE_DATA},
    {CHECK_MISSING_HDR, SDKC_CHECK_MISSING_HEADER},
    {CHECK_UNSUPPORTED, SDKC_CHECK_UNSUPPORTED_METHOD},
};

unsigned sdkc_conform_check_bit(const char *name)
{
    for (size_t i = 0; i < sizeof check_table / sizeof check_table[0]; i++)
        if (strcmp(check_table[i].name, name) == 0)
            return check_table[i].bit;
    return 0;
}

const char *sdkc_conform_check_name(size_t i)
{
    return i < sizeof check_table / sizeof check_table[0] ? check_table[i].name : NULL;
}

bool conform_check_on(const runner *rn, const char *check)
{
    unsigned bit = sdkc_conform_check_bit(check);
    return !bit || (rn->checks & bit);
}

/* ---- what the contract declares ---- */

/* The declared error for a status: errors are in matching order (exact, ranges, default). */
const sdkc_error_status *conform_error_status(const sdkc_operation *op, int status)
{
    for (size_t i = 0; i < op->nerrors; i++)
        if (sdkc_status_covers(op->errors[i].status, status))
            return &op->errors[i];
    return NULL;
}

/* The declared success a status answers, as clients match it: exact statuses first, then a 2XX
   range; a default success or none declared takes any 2xx. NULL when none. */
const sdkc_success *conform_success_for(const sdkc_operation *op, int status)
{
    if (status / 100 != 2)
        return NULL; /* with neither a 2xx nor default, a 3xx success is never probed for */
    const sdkc_success *range = NULL;
    for (size_t i = 0; i <= op->nmore_successes; i++) {
        const sdkc_success *s = i ? &op->more_successes[i - 1] : &op->success;
        if (s->status == status)
            return s;
        if (s->status < 100 && !range)
            range = s;
    }
    return range;
}

/* The success whose schema reads a 2xx answer: the one declared for its status, else (an
   undeclared 2xx: 201 where only 200 is declared, a 202) the first declared 2xx. NULL when
   none. */
const sdkc_success *conform_success_read(const sdkc_operation *op, int status)
{
    const sdkc_success *sx = conform_success_for(op, status);
    for (size_t i = 0; !sx && status / 100 == 2 && i <= op->nmore_successes; i++) {
        const sdkc_success *s = i ? &op->more_successes[i - 1] : &op->success;
        if (s->status / 100 == 2)
            sx = s;
    }
    return sx;
}

const sdkc_error_tag *conform_error_tag(const sdkc_error_status *es, const char *tag)
{
    for (size_t i = 0; es && tag && i < es->ntags; i++)
        if (strcmp(es->tags[i].tag, tag) == 0)
            return &es->tags[i];
    return NULL;
}

static void declared_statuses(sdkc_buf *b, const sdkc_operation *op)
{
    char st[16];
    sdkc_buf_printf(
        b, "%s", op->success.status ? sdkc_status_text(op->success.status, st, sizeof st) : "2XX");
    for (size_t i = 0; i < op->nmore_successes; i++)
        sdkc_buf_printf(b, ", %s", sdkc_status_text(op->more_successes[i].status, st, sizeof st));
    for (size_t i = 0; i < op->nerrors; i++)
        sdkc_buf_printf(b, ", %s", sdkc_status_text(op->errors[i].status, st, sizeof st));
}

static void declared_tags(sdkc_buf *b, const sdkc_error_status *es)
{
    for (size_t i = 0; es && i < es->ntags; i++)
        sdkc_buf_printf(b, "%s%s", i ? ", " : "", es->tags[i].tag);
    if (!es || !es->ntags)
        sdkc_buf_puts(b, "(none)");
}

/* Is op's path parameter i a query parameter named name? */
const sdkc_param *conform_param_named(const sdkc_operation *op, sdkc_param_in in, const char *name)
{
    for (size_t i = 0; i < op->nparams; i++)
        if (op->params[i].in == in && strcmp(op->params[i].wire_name, name) == 0)
            return &op->params[i];
    return NULL;
}

size_t conform_path_param_count(const sdkc_operation *op)
{
    size_t n = 0;
    for (size_t i = 0; i < op->nparams; i++)
        n += op->params[i].in == SDKC_PARAM_PATH;
    return n;
}

/* ---- evidence ---- */

void conform_snippet(sdkc_buf *b, const char *body, size_t len)
{
    if (!body || !len) {
        sdkc_buf_puts(b, "(empty body)");
        return;
    }
    for (size_t i = 0; i < len && i < SNIPPET; i++) {
        unsigned char c = (unsigned char)body[i];
        sdkc_buf_putc(b, c < 0x20 ? ' ' : (char)c);
    }
    if (len > SNIPPET)
        sdkc_buf_puts(b, "...");
}

void conform_padd(probe_ctx *pc, const char *check, sdkc_verdict v, const char *path,
                  const char *rule, const char *fmt, ...)
{
    if (!conform_check_on(pc->rn, check))
        return;
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&pc->rn->mu);
    conform_vadd(pc->rn->r, pc->op->id, pc->probe, check, v, path, rule,
                 v == SDKC_VERDICT_DEVIATION ? pc->wk->curl : NULL, fmt, ap);
    pthread_mutex_unlock(&pc->rn->mu);
    va_end(ap);
}

/* Validate v against t; each deviation is recorded under check. Returns the number of
 * deviations. */
size_t conform_validate_into(probe_ctx *pc, const char *check, const sdkc_type *t, const json_t *v,
                             const char *where)
{
    sdkc_validation *val = pc->wk->val;
    sdkc_validation_reset(val);
    if (sdkc_validate(val, t, v, "$") != SDKC_OK)
        pc->rn->r->oom = true;
    size_t n = sdkc_validation_count(val);
    for (size_t i = 0; i < n; i++) {
        const sdkc_deviation *d = sdkc_validation_get(val, i);
        ADD(pc, check, SDKC_VERDICT_DEVIATION, d->path, d->rule, "%s: %s", where, d->message);
    }
    if (sdkc_validation_total(val) > n)
        ADD(pc, check, SDKC_VERDICT_DEVIATION, "$", "more", "%s: %zu further deviations not kept",
            where, sdkc_validation_total(val) - n);
    pthread_mutex_lock(&pc->rn->mu);
    for (size_t i = 0; i < sdkc_validation_unchecked_pattern_count(val); i++)
        conform_note_unchecked(pc->rn->r, sdkc_validation_unchecked_pattern(val, i), 0);
    pc->rn->r->unchecked += sdkc_validation_unchecked(val);
    pthread_mutex_unlock(&pc->rn->mu);
    return sdkc_validation_total(val);
}

/* The declared response a status answers (a success, else an error status), or NULL; an
 * undeclared 2xx is read as the first declared 2xx (its links give ids all the same). */
const sdkc_response_info *conform_response_info(const sdkc_operation *op, int status)
{
    const sdkc_success *sx = conform_success_read(op, status);
    const sdkc_error_status *es = sx ? NULL : conform_error_status(op, status);
    return sx ? &sx->response : es ? &es->response : NULL;
}

/* Required response headers the answer lacks (Content-Type is never a declared header). */
static void judge_headers(probe_ctx *pc, const sdkc_response_info *ri, const sdkrt_response *resp,
                          int status, const char *evidence)
{
    if (!resp || !ri)
        return;
    size_t checked = 0;
    for (size_t i = 0; i < ri->nheaders; i++) {
        const char *name = ri->headers[i].name;
        if (!ri->headers[i].required || strcasecmp(name, "Content-Type") == 0)
            continue;
        checked++;
        if (!sdkrt_response_header(resp, name)) {
            sdkc_buf path = SDKC_BUF_INIT;
            sdkc_buf_printf(&path, "header %s", name);
            ADD(pc, CHECK_HEADERS, SDKC_VERDICT_DEVIATION, path.data, "required",
                "required header %s is missing from the %d answer; %s", name, status, evidence);
            sdkc_buf_cleanup(&path);
        }
    }
    if (checked)
        ADD(pc, CHECK_HEADERS, SDKC_VERDICT_PASS, NULL, NULL, "%zu required header%s present",
            checked, checked == 1 ? "" : "s");
}

/* Does ct match one media type the response declares? The one the IR decodes first, then the
 * others. */
static bool media_declared(const char *ir_ct, const sdkc_response_info *ri, const char *ct,
                           sdkc_buf *declared)
{
    bool ok = false;
    if (ir_ct) {
        ok = sdkc_conform_media_match(ir_ct, ct);
        sdkc_buf_puts(declared, ir_ct);
    }
    for (size_t i = 0; ri && i < ri->nmedia_types; i++) {
        const char *mt = ri->media_types[i];
        if (ir_ct && strcmp(mt, ir_ct) == 0)
            continue;
        ok = ok || sdkc_conform_media_match(mt, ct);
        sdkc_buf_printf(declared, "%s%s", declared->len ? ", " : "", mt);
    }
    return ok;
}

static bool is_negative(probe_mode m)
{
    return m == MODE_BAD_CURSOR || m == MODE_MALFORMED_BODY || m == MODE_NO_CREDENTIALS ||
           m == MODE_NEGATIVE || m == MODE_UNSUPPORTED;
}

bool conform_is_valid(probe_mode m)
{
    return m == MODE_VALID || m == MODE_POSITIVE || m == MODE_POSITIVE_BODY ||
           m == MODE_AFTER_CREATE || m == MODE_AFTER_UPDATE || m == MODE_COVERAGE ||
           m == MODE_EXAMPLE;
}

/* positive_data_acceptance: a valid request made of the contract's own constraints is not
 * refused. 404 (what the request names is gone: a made-up filter, a resource an earlier probe
 * deleted), 409 (a conflict with the server's state, such as a name already taken) and 429 (rate
 * limits) say nothing of the data; 401 and 403 are skips before this. */
static void judge_acceptance(probe_ctx *pc, int status, const char *evidence)
{
    if (!pc->contract_only)
        return;
    const gen_case *gc = pc->plan ? pc->plan->gc : NULL;
    if (status / 100 == 2) {
        ADD(pc, CHECK_POSITIVE, SDKC_VERDICT_PASS, NULL, NULL, "accepted with %d", status);
    } else if (status / 100 == 4 && status != 404 && status != 409 && status != 429) {
        ADD(pc, CHECK_POSITIVE, SDKC_VERDICT_DEVIATION, gc ? gc->path : NULL, gc ? gc->rule : NULL,
            "a valid request%s%s was refused with HTTP %d; %s", gc ? " with " : "",
            gc ? gc->what : "", status, evidence);
    }
}

/* unsupported_method: a method the path does not declare gets 405 (RFC 9110 15.5.6), or 404 or
 * 501 (routers that match method and path together, or do not know the method): never a
 * success, a redirect or another error. A 405 without the Allow header RFC 9110 requires is not
 * reported: servers and mocks (Prism) commonly leave it out, and the method was refused. */
static void judge_unsupported(probe_ctx *pc, int status, const sdkrt_response *resp,
                              const char *evidence)
{
    const char *method = pc->plan && pc->plan->method ? pc->plan->method : "?";
    (void)resp;
    if (status == 405 || status == 404 || status == 501)
        ADD(pc, CHECK_UNSUPPORTED, SDKC_VERDICT_PASS, NULL, NULL, "%s: %d", method, status);
    else
        ADD(pc, CHECK_UNSUPPORTED, SDKC_VERDICT_DEVIATION, NULL, method,
            "%s is not declared for %s but was answered HTTP %d (405 expected); %s", method,
            pc->op->path, status, evidence);
}

/* What each probe provokes, judged once the answer is known. */
void conform_judge_expectation(probe_ctx *pc, int status, const char *got_tag,
                               const expectation *ex, const char *evidence)
{
    bool ok2xx = status / 100 == 2;
    bool tag_ok = !ex || !ex->tag || (got_tag && strcmp(got_tag, ex->tag) == 0);
    bool declared_ok = !ex || !ex->status || (status == ex->status && tag_ok);
    const char *want_tag = ex && ex->tag ? ex->tag : "";
    switch (pc->mode) {
    case MODE_BAD_CURSOR:
    case MODE_MALFORMED_BODY:
        if (ok2xx)
            ADD(pc, CHECK_NEGATIVE, SDKC_VERDICT_DEVIATION, NULL, NULL,
                "%s was accepted with HTTP %d; %s", ex ? ex->why : "an invalid request", status,
                evidence);
        else if (!declared_ok)
            ADD(pc, CHECK_NEGATIVE, SDKC_VERDICT_DEVIATION, NULL, NULL,
                "%s should give the declared %d%s%s, got %d%s%s; %s", ex->why, ex->status,
                *want_tag ? " " : "", want_tag, status, got_tag ? " " : "", got_tag ? got_tag : "",
                evidence);
        else if (status / 100 == 4)
            ADD(pc, CHECK_NEGATIVE, SDKC_VERDICT_PASS, NULL, NULL, "rejected with %d", status);
        break;
    case MODE_NO_CREDENTIALS:
        if (ok2xx)
            ADD(pc, CHECK_IGNORED_AUTH, SDKC_VERDICT_DEVIATION, NULL, NULL,
                "a request without credentials was served (HTTP %d) where the contract requires "
                "them; %s",
                status, evidence);
        else if (status / 100 == 4)
            ADD(pc, CHECK_IGNORED_AUTH, SDKC_VERDICT_PASS, NULL, NULL, "refused with %d", status);
        break;
    case MODE_UNKNOWN_ID:
        if (declared_ok)
            ADD(pc, CHECK_MISSING, SDKC_VERDICT_PASS, NULL, NULL, "%d %s for %s", ex->status,
                want_tag, ex->why);
        else
            ADD(pc, CHECK_MISSING, SDKC_VERDICT_DEVIATION, NULL, NULL,
                "%s should give the declared %d%s%s, got %d%s%s; %s", ex->why, ex->status,
                *want_tag ? " " : "", want_tag, status, got_tag ? " " : "", got_tag ? got_tag : "",
                evidence);
        break;
    case MODE_AFTER_DELETE:
        if (ok2xx)
            ADD(pc, CHECK_USE_AFTER, SDKC_VERDICT_DEVIATION, NULL, NULL,
                "a deleted resource is still served (HTTP %d); %s", status, evidence);
        else if (status / 100 == 4)
            ADD(pc, CHECK_USE_AFTER, SDKC_VERDICT_PASS, NULL, NULL, "gone: %d", status);
        break;
    case MODE_AFTER_CREATE:
    case MODE_AFTER_UPDATE: {
        const char *what = pc->mode == MODE_AFTER_CREATE ? "created" : "updated";
        if (ok2xx)
            ADD(pc, CHECK_AVAILABILITY, SDKC_VERDICT_PASS, NULL, NULL, "%s resource served", what);
        else
            ADD(pc, CHECK_AVAILABILITY, SDKC_VERDICT_DEVIATION, NULL, NULL,
                "a resource just %s is not available (HTTP %d); %s", what, status, evidence);
        break;
    }
    case MODE_NEGATIVE: {
        const gen_case *gc = pc->plan ? pc->plan->gc : NULL;
        const char *check = ex && ex->reject_check ? ex->reject_check : CHECK_NEGATIVE;
        if (ok2xx)
            ADD(pc, check, SDKC_VERDICT_DEVIATION, gc ? gc->path : NULL, gc ? gc->rule : NULL,
                "%s was accepted with HTTP %d; %s", gc ? gc->what : "an invalid request", status,
                evidence);
        else if (status / 100 == 4)
            ADD(pc, check, SDKC_VERDICT_PASS, NULL, NULL, "rejected with %d", status);
        break;
    }
    case MODE_VALID:
    case MODE_POSITIVE:
    case MODE_POSITIVE_BODY:
    case MODE_COVERAGE:
    case MODE_EXAMPLE:
        judge_acceptance(pc, status, evidence);
        break;
    case MODE_UNSUPPORTED:
        break;
    }
}

/* The body of an undeclared 2xx (new) when it is JSON that the first declared 2xx's schema
 * accepts without a deviation, else NULL. */
static json_t *undeclared_success(probe_ctx *pc, int status, const char *ct, const char *body,
                                  size_t len)
{
    const sdkc_success *sx = conform_success_read(pc->op, status);
    if (!sx || !sx->type || sx->encoding != SDKC_ENC_JSON || !len ||
        (ct && !conform_media_is_json(ct)))
        return NULL;
    json_t *v = json_loadb(body, len, JSON_DECODE_ANY, NULL);
    sdkc_validation *val = pc->wk->val;
    sdkc_validation_reset(val);
    if (v && (sdkc_validate(val, sx->type, v, "$") != SDKC_OK || sdkc_validation_total(val))) {
        json_decref(v);
        v = NULL;
    }
    return v;
}

/* Judge status, content type, headers, tag and body of a complete response, then what the probe
 * provokes. Returns the parsed body of a success response (new reference), else NULL. */
json_t *conform_judge(probe_ctx *pc, int status, const char *ct, const char *body, size_t len,
                      const expectation *ex, const sdkrt_response *resp)
{
    const sdkc_operation *op = pc->op;
    runner *rn = pc->rn;
    sdkc_buf ev = SDKC_BUF_INIT;
    sdkc_buf_printf(&ev, "%s -> %d %s: ", pc->desc, status, ct ? ct : "(no content type)");
    conform_snippet(&ev, body, len);
    const char *evidence = ev.data ? ev.data : "";
    json_t *result = NULL;
    const char *got_tag = NULL;
    json_t *parsed = NULL;
    pc->status = status;

    if (pc->mode != MODE_NO_CREDENTIALS && (status == 401 || status == 403)) {
        /* Refused: the server could not be exercised; say so, never pass (not even
         * not_a_server_error: a server refusing everything must not count passes). */
        ADD(pc, "probe", SDKC_VERDICT_SKIP, NULL, NULL, "refused (%s); %s",
            rn->have_credentials ? "with the credentials given"
                                 : "the server wants credentials and none are configured (--auth)",
            evidence);
        goto out;
    }
    if (pc->mode == MODE_UNSUPPORTED) {
        /* the operation's statuses and bodies are not this request's */
        judge_unsupported(pc, status, resp, evidence);
        goto out;
    }
    if (status >= 500)
        ADD(pc, CHECK_SERVER_ERROR, SDKC_VERDICT_DEVIATION, NULL, NULL, "HTTP %d; %s", status,
            evidence);
    else
        ADD(pc, CHECK_SERVER_ERROR, SDKC_VERDICT_PASS, NULL, NULL, "%d", status);
    if (conform_is_valid(pc->mode) || pc->mode == MODE_AFTER_DELETE || pc->mode == MODE_UNKNOWN_ID)
        pc->answered = conform_is_valid(pc->mode);

    const sdkc_success *sx = conform_success_for(op, status);
    bool success = sx != NULL;
    const sdkc_error_status *es = success ? NULL : conform_error_status(op, status);
    const sdkc_response_info *ri = sx ? &sx->response : es ? &es->response : NULL;

    if (!success && !es) {
        /* An undeclared 2xx is reported, and the run goes on through it: a body the declared
           success's schema reads is kept, so that the id it gives is not lost. */
        result = undeclared_success(pc, status, ct, body, len);
        /* An invalid request may be refused with any 4xx: APIs seldom declare them all. */
        if (!(is_negative(pc->mode) && status / 100 == 4)) {
            sdkc_buf d = SDKC_BUF_INIT;
            declared_statuses(&d, op);
            ADD(pc, CHECK_STATUS, SDKC_VERDICT_DEVIATION, NULL, NULL,
                "HTTP %d is not declared (declared: %s)%s; %s", status, d.data ? d.data : "",
                result ? "; its body matches the declared success's schema and is read as one" : "",
                evidence);
            sdkc_buf_cleanup(&d);
        }
        goto expect;
    }
    ADD(pc, CHECK_STATUS, SDKC_VERDICT_PASS, NULL, NULL, "%d declared", status);
    judge_headers(pc, ri, resp, status, evidence);

    const char *want_ct = success ? sx->content_type : es ? es->content_type : NULL;
    bool want_body = success ? sx->encoding != SDKC_ENC_NONE
                     : es    ? es->content_type != NULL
                             : false;
    want_body = want_body || (ri && ri->nmedia_types);
    if (!want_body) {
        if (len > 0)
            ADD(pc, CHECK_CONTENT_TYPE, SDKC_VERDICT_DEVIATION, NULL, NULL,
                "%d declares no content, got %zu bytes; %s", status, len, evidence);
        else
            ADD(pc, CHECK_CONTENT_TYPE, SDKC_VERDICT_PASS, NULL, NULL, "no content");
        goto expect;
    }
    if (len == 0 && (!ct || status == 204 || status == 205 || status == 304)) {
        /* 204, 205 and 304 carry no body whatever Content-Type says (RFC 9110 15.3.5, 15.3.6,
           15.4.5): an empty one is no JSON to judge */
        ADD(pc, CHECK_CONTENT_TYPE, SDKC_VERDICT_PASS, NULL, NULL, "empty body");
        goto expect;
    }
    sdkc_buf declared = SDKC_BUF_INIT;
    bool ct_ok = ct && media_declared(want_ct, ri, ct, &declared);
    if (!ct_ok) {
        ADD(pc, CHECK_CONTENT_TYPE, SDKC_VERDICT_DEVIATION, NULL, NULL, "expected %s; %s",
            declared.data ? declared.data : "?", evidence);
        sdkc_buf_cleanup(&declared);
        goto expect;
    }
    sdkc_buf_cleanup(&declared);
    ADD(pc, CHECK_CONTENT_TYPE, SDKC_VERDICT_PASS, NULL, NULL, "%s", ct);
    if (!conform_media_is_json(ct))
        goto expect; /* not JSON: nothing more the contract says */
    /* The IR's schema belongs to its own media type: a body of another declared type (XML
       beside JSON) is not judged against it. Every declared 2xx has its own. */
    if (want_ct && !sdkc_conform_media_match(want_ct, ct))
        goto expect;
    if (!success && !want_ct)
        goto expect;

    json_error_t jerr;
    parsed = json_loadb(body ? body : "", len, JSON_DECODE_ANY, &jerr);
    if (!parsed) {
        ADD(pc, CHECK_SCHEMA, SDKC_VERDICT_DEVIATION, "$", "json", "body is not JSON (%s); %s",
            jerr.text, evidence);
        goto expect;
    }
    if (success) {
        if (sx->type && conform_validate_into(pc, CHECK_SCHEMA, sx->type, parsed, evidence) == 0)
            ADD(pc, CHECK_SCHEMA, SDKC_VERDICT_PASS, NULL, NULL, "matches the %d schema", status);
        result = json_incref(parsed);
        goto expect;
    }
    got_tag = json_string_value(json_object_get(parsed, "_tag"));
    if (es->ntags) {
        const sdkc_error_tag *et = conform_error_tag(es, got_tag);
        if (!et) {
            sdkc_buf d = SDKC_BUF_INIT;
            declared_tags(&d, es);
            ADD(pc, CHECK_SCHEMA, SDKC_VERDICT_DEVIATION, "$._tag", "tag",
                "_tag %s%s%s is not declared for %d (declared: %s); %s", got_tag ? "\"" : "",
                got_tag ? got_tag : "missing", got_tag ? "\"" : "", status, d.data ? d.data : "",
                evidence);
            sdkc_buf_cleanup(&d);
            goto expect;
        }
        if (conform_validate_into(pc, CHECK_SCHEMA, et->type, parsed, evidence) == 0)
            ADD(pc, CHECK_SCHEMA, SDKC_VERDICT_PASS, NULL, NULL, "matches %s", got_tag);
    } else if (es->untagged) {
        if (conform_validate_into(pc, CHECK_SCHEMA, es->untagged, parsed, evidence) == 0)
            ADD(pc, CHECK_SCHEMA, SDKC_VERDICT_PASS, NULL, NULL, "matches the error schema");
    }

expect:
    conform_judge_expectation(pc, status, got_tag, ex, evidence);
out:
    json_decref(parsed);
    sdkc_buf_cleanup(&ev);
    return result;
}
