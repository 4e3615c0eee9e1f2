/* probe_plan.c - the plan of one operation: which probes, in which order, and the phases an
 * operation runs in. */
#include "probe_internal.h"

int conform_phase_of(const sdkc_operation *op)
{
    bool write = strcmp(op->method, "GET") != 0 && strcmp(op->method, "HEAD") != 0 &&
                 strcmp(op->method, "DELETE") != 0;
    if (write && conform_path_param_count(op) == 0)
        return 0; /* creators first: they make the ids everything else needs */
    if (write)
        return 1;
    if (strcmp(op->method, "DELETE") == 0)
        return 3;
    return 2;
}

/* Does a success result hold an `id` of a brand (is this a creator)? */
static bool creates_ids(const sdkc_operation *op)
{
    const sdkc_type *t = op->success.result;
    while (t && t->kind == SDKC_TYPE_NULLABLE)
        t = t->u.nullable.inner;
    if (!t || t->kind != SDKC_TYPE_OBJECT || op->pagination)
        return false;
    for (size_t i = 0; i < t->u.object.nfields; i++) {
        const sdkc_type *f = t->u.object.fields[i].type;
        if (strcmp(t->u.object.fields[i].wire_name, "id") == 0 && f &&
            f->kind == SDKC_TYPE_STRING && f->u.str.brand)
            return true;
    }
    return false;
}

bool conform_included(const sdkc_conform_options *o, const char *id)
{
    if (!o->ninclude)
        return true;
    for (size_t i = 0; i < o->ninclude; i++)
        if (sdkc_glob_match(o->include[i], id))
            return true;
    return false;
}

const char *conform_skip_reason(const sdkc_conform_options *o, const char *id)
{
    for (size_t i = 0; i < o->nskips; i++)
        if (sdkc_glob_match(o->skips[i].glob, id))
            return o->skips[i].reason ? o->skips[i].reason : "skipped by request";
    return NULL;
}

/* The error a probe provokes, if the contract declares one for it. */
bool conform_expect_error(const sdkc_operation *op, int status, const char *tag, const char *why,
                          expectation *ex)
{
    const sdkc_error_status *es = conform_error_status(op, status);
    if (!es)
        return false;
    if (tag && es->ntags && !conform_error_tag(es, tag))
        return false;
    ex->status = status;
    ex->tag = tag && es->ntags ? tag : NULL;
    ex->why = why;
    return true;
}

/* ---- the plan ---- */

static void mark_probed(runner *rn, const sdkc_operation *op)
{
    pthread_mutex_lock(&rn->mu);
    rn->probed[op - rn->ir->ops] = true;
    pthread_mutex_unlock(&rn->mu);
}

void conform_probe_mode_op(worker *wk, const sdkc_operation *op, const char *probe, probe_mode mode,
                           const expectation *ex, const json_t *last_id)
{
    req_plan p = {.mode = mode, .cursor = NULL, .limit = 0, .last_id = last_id};
    probe_out out;
    conform_run_probe(wk, op, probe, &p, ex, &out);
    free(p.why);
    conform_probe_out_cleanup(&out);
}

void conform_probe_operation(worker *wk, const sdkc_operation *op)
{
    runner *rn = wk->rn;
    const char *why = conform_skip_reason(rn->opts, op->id);
    probe_ctx pc = {
        .wk = wk, .rn = rn, .op = op, .probe = "*", .desc = op->path, .mode = MODE_VALID};
    if (why) {
        ADD(&pc, "probe", SDKC_VERDICT_SKIP, NULL, NULL, "%s", why);
        return;
    }
    conform_log(rn, "%s %s %s", op->id, op->method, op->path);

    /* valid, then positive (every optional field and parameter, at every depth), then
       positive-body (every optional body field with the required parameters only), so that a
       5xx caused by the body is told apart from one caused by a parameter */
    int repeat = conform_phase_of(op) == 0 && creates_ids(op) ? CREATE_REPEAT : 1;
    bool no_id = false, optional = false, valid_ok = false;
    json_t *delete_id = NULL;
    for (int i = 0; i < repeat + 2; i++) {
        probe_mode mode = i < repeat    ? MODE_VALID
                          : i == repeat ? MODE_POSITIVE
                                        : MODE_POSITIVE_BODY;
        const char *name = mode == MODE_VALID      ? "valid"
                           : mode == MODE_POSITIVE ? "positive"
                                                   : "positive-body";
        if (mode == MODE_POSITIVE_BODY &&
            !(conform_has_optional_params(op) && conform_has_optional_body(op)))
            break;
        req_plan dry = {.mode = mode, .cursor = NULL, .limit = 0, .last_id = NULL};
        sdkc_buf d = SDKC_BUF_INIT;
        sdkrt_request_free(conform_build(wk, op, &dry, &d));
        sdkc_buf_cleanup(&d);
        free(dry.why);
        optional = dry.optional_params;
        if (dry.no_id) {
            /* A probe whose ids nobody made would only test unknown ids (done below). */
            probe_ctx v = {
                .wk = wk, .rn = rn, .op = op, .probe = name, .desc = op->path, .mode = mode};
            ADD(&v, "probe", SDKC_VERDICT_SKIP, NULL, NULL,
                "no valid identifier for a path parameter (no included operation creates one; "
                "--param NAME=VALUE gives one)");
            no_id = true;
            break;
        }
        if (mode == MODE_POSITIVE && !optional)
            break;
        if (strcmp(op->method, "DELETE") == 0 && conform_path_param_count(op) && !delete_id) {
            const sdkc_param *last = NULL;
            for (size_t k = 0; k < op->nparams; k++)
                if (op->params[k].in == SDKC_PARAM_PATH)
                    last = &op->params[k];
            delete_id = conform_known_path_value(wk, op, last);
        }
        req_plan plan = {.mode = mode, .cursor = NULL, .limit = 0, .last_id = NULL};
        probe_out out;
        conform_run_probe(wk, op, name, &plan, NULL, &out);
        free(plan.why);
        if (out.answered)
            mark_probed(rn, op);
        conform_learn(rn, op, &out);
        valid_ok = valid_ok || (i == 0 && out.status / 100 == 2);
        if (i == 0)
            conform_after_create(wk, op, &out);
        if (mode == MODE_VALID && out.status / 100 == 2 && delete_id)
            conform_after_delete(wk, op, delete_id);
        conform_probe_out_cleanup(&out);
        if (mode == MODE_VALID && strcmp(op->method, "DELETE") == 0)
            break; /* what is deleted cannot be deleted again with all its options */
    }
    json_decref(delete_id);
    /* the stateful sequence on a resource of its own, before the generated requests add more
       to its list (where the valid request was refused, so would the chain's POST be) */
    if (valid_ok && !no_id)
        conform_chain(wk, op);
    /* generated requests: not for streams (each is watched for --stream-ms) nor where the ids
       are unknown; a DELETE has nothing left to cover once it deleted */
    bool sse = op->stream && op->success.encoding == SDKC_ENC_SSE;
    bool generate = !no_id && !sse && rn->max_examples > 0;
    if (generate)
        conform_phase_examples(wk, op);
    if (generate && strcmp(op->method, "DELETE") != 0)
        conform_phase_generated(wk, op, false, rn->max_examples, valid_ok);
    conform_unknown_id_probe(wk, op);
    conform_phase_negative(wk, op, no_id);
    if (generate)
        conform_phase_generated(wk, op, true, rn->max_examples, valid_ok);
    if (!no_id && conform_check_on(rn, CHECK_UNSUPPORTED))
        conform_unsupported_methods(wk, op);
    /* page-walk: OpenCode's cursor object forwards and back; the other styles forwards as the
       runtime's engine goes */
    if (op->pagination && conform_check_on(rn, CHECK_PAGINATION) && !no_id) {
        if (op->pagination->style == SDKC_PAGE_CURSOR_OBJECT)
            conform_page_walk(wk, op);
        else
            conform_engine_walk(wk, op);
    }
}
