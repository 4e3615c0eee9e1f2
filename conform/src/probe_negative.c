/* probe_negative.c - the negative phase: requests the contract makes invalid (a cursor that is
 * no cursor, a body that is not JSON, no credentials), each expected to be refused. */
#include "probe_internal.h"

/* Does a request of op carry a credential (one given for one of its schemes)? */
/* Do the run's credentials authenticate op, which requires them? An operation whose security
 * also allows none (`{}`) has nothing for ignored_auth to find. */
static bool sends_credentials(const runner *rn, const sdkc_operation *op)
{
    if (op->security_optional)
        return false;
    for (size_t i = 0; i < op->nsecurity; i++) {
        const sdkc_security_scheme *s = op->security[i];
        if (rn->opts->password && s->type && strcmp(s->type, "http") == 0 && s->scheme &&
            strcasecmp(s->scheme, "basic") == 0)
            return true;
        for (size_t j = 0; j < rn->opts->ncredentials; j++)
            if (rn->opts->credentials[j].scheme &&
                strcmp(rn->opts->credentials[j].scheme, s->name) == 0)
                return true;
    }
    return false;
}

void conform_phase_negative(worker *wk, const sdkc_operation *op, bool no_id)
{
    runner *rn = wk->rn;
    /* bad-cursor: rejected; with the declared 400 InvalidCursorError where there is one */
    /* OpenCode's cursors only: a page number, a last id or a page token may be any value a
       server (or a mock) accepts */
    if (op->pagination && op->pagination->cursor_param &&
        op->pagination->style == SDKC_PAGE_CURSOR_OBJECT && conform_check_on(rn, CHECK_NEGATIVE)) {
        expectation e = {0, NULL, "an invalid cursor", NULL};
        if (!conform_expect_error(op, 400, "InvalidCursorError", "an invalid cursor", &e) ||
            !e.tag || strcmp(e.tag, "InvalidCursorError") != 0)
            e = (expectation){0, NULL, "an invalid cursor", NULL};
        if (!no_id)
            conform_probe_mode_op(wk, op, "bad-cursor", MODE_BAD_CURSOR, &e, NULL);
    }
    /* malformed-body: rejected; with the declared 400 InvalidRequestError where there is one */
    if (op->body && conform_media_is_json(op->body->content_type) &&
        conform_check_on(rn, CHECK_NEGATIVE) && !no_id) {
        expectation e = {0, NULL, "a body that is not JSON", NULL};
        if (!conform_expect_error(op, 400, "InvalidRequestError", "a body that is not JSON", &e) ||
            !e.tag || strcmp(e.tag, "InvalidRequestError") != 0)
            e = (expectation){0, NULL, "a body that is not JSON", NULL};
        pthread_mutex_lock(&rn->mu);
        char *hang = rn->malformed_hang ? conform_strdup(rn->malformed_hang) : NULL;
        pthread_mutex_unlock(&rn->mu);
        if (hang) {
            probe_ctx m = {.wk = wk,
                           .rn = rn,
                           .op = op,
                           .probe = "malformed-body",
                           .desc = op->path,
                           .mode = MODE_MALFORMED_BODY};
            ADD(&m, "probe", SDKC_VERDICT_SKIP, NULL, NULL,
                "not sent: the server at %s answered no body that is not JSON within %ld ms "
                "(%s), so no other is sent",
                rn->opts->base_url ? rn->opts->base_url : "?", rn->timeout_ms, hang);
            free(hang);
        } else {
            conform_probe_mode_op(wk, op, "malformed-body", MODE_MALFORMED_BODY, &e, NULL);
        }
    }
    /* no-credentials: where the contract requires credentials and the valid probe sent some */
    if (rn->anon && sends_credentials(rn, op) && conform_check_on(rn, CHECK_IGNORED_AUTH) &&
        !no_id) {
        expectation e = {0, NULL, "a request without credentials", NULL};
        if (!conform_expect_error(op, 401, "UnauthorizedError", "a request without credentials",
                                  &e) ||
            !e.tag || strcmp(e.tag, "UnauthorizedError") != 0)
            e = (expectation){0, NULL, "a request without credentials", NULL};
        conform_probe_mode_op(wk, op, "no-credentials", MODE_NO_CREDENTIALS, &e, NULL);
    }
}

/* Does the path template (`/items/{id}`, `/v1/{name}:cancel`) match path (no query)? A
 * parameter matches one or more characters of one segment. */
static bool template_matches(const char *tpl, const char *path)
{
    while (*tpl) {
        if (*tpl == '{') {
            const char *close = strchr(tpl, '}');
            if (!close)
                return false;
            tpl = close + 1;
            if (!*path || *path == '/')
                return false;
            /* the parameter takes one character or more: try every end within the segment */
            for (const char *end = path + 1;; end++) {
                if (template_matches(tpl, end))
                    return true;
                if (!*end || *end == '/')
                    return false;
            }
        }
        if (*tpl != *path)
            return false;
        tpl++;
        path++;
    }
    return !*path;
}

/* Does an operation declare method for the URL path a request of op goes to (its own path, or
 * another template that matches the same URL: `/users/{id}` for `/users/me`)? */
static bool method_routed(const runner *rn, const sdkc_operation *op, const char *method,
                          const char *url_path)
{
    for (size_t i = 0; i < rn->ir->nops; i++) {
        const sdkc_operation *o = &rn->ir->ops[i];
        if (strcasecmp(o->method, method) != 0)
            continue;
        if (strcmp(o->path, op->path) == 0 || (url_path && template_matches(o->path, url_path)))
            return true;
    }
    return false;
}

/* The path of a request of op with the run's ids (new), or NULL. */
static char *url_path_of(worker *wk, const sdkc_operation *op)
{
    req_plan plan = {.mode = MODE_UNSUPPORTED, .method = "GET"};
    sdkc_buf d = SDKC_BUF_INIT;
    sdkrt_request *req = conform_build(wk, op, &plan, &d);
    char *target = NULL;
    sdkrt_error *err = NULL;
    if (req && sdkrt_request_target(&target, req, &err) != SDKRT_OK)
        target = NULL;
    sdkrt_error_free(err);
    sdkrt_request_free(req);
    sdkc_buf_cleanup(&d);
    free(plan.why);
    if (target) {
        /* "/a/b?x=1" of an absolute URL or a path: from the first '/' after the authority */
        char *p = strstr(target, "://");
        p = p ? strchr(p + 3, '/') : target;
        /* the templates are relative to the base URL: its own path is not theirs */
        const char *base = wk->rn->opts->base_url ? strstr(wk->rn->opts->base_url, "://") : NULL;
        base = base ? strchr(base + 3, '/') : NULL;
        size_t n = base ? strcspn(base, "?#") : 0;
        while (n && base[n - 1] == '/')
            n--;
        if (p && n && strncmp(p, base, n) == 0 && p[n] == '/')
            p += n;
        char *out = p ? conform_strdup(p) : NULL;
        if (out)
            out[strcspn(out, "?#")] = '\0';
        free(target);
        return out;
    }
    return NULL;
}

/* unsupported_method: once per path (by its first included operation), every method of GET,
 * PUT, POST, DELETE and PATCH that no operation declares for the request's URL (this path's
 * template, or another that matches the same URL), with the path's ids and no body. HEAD, OPTIONS
 * and TRACE are left out: servers answer them for every path (HEAD with GET, OPTIONS for CORS). */
void conform_unsupported_methods(worker *wk, const sdkc_operation *op)
{
    static const char *const methods[] = {"GET", "PUT", "POST", "DELETE", "PATCH"};
    runner *rn = wk->rn;
    if (op->fragment)
        return; /* operations told apart by a fragment share their path and methods */
    for (size_t i = 0; i < rn->ir->nops; i++) {
        const sdkc_operation *o = &rn->ir->ops[i];
        if (o == op)
            break;
        if (strcmp(o->path, op->path) == 0 && conform_included(rn->opts, o->id))
            return; /* not the path's first */
    }
    char *url_path = url_path_of(wk, op);
    for (size_t m = 0; m < sizeof methods / sizeof methods[0]; m++) {
        if (method_routed(rn, op, methods[m], url_path))
            continue;
        req_plan plan = {.mode = MODE_UNSUPPORTED, .method = methods[m]};
        probe_out out;
        conform_run_probe(wk, op, "unsupported-method", &plan, NULL, &out);
        free(plan.why);
        conform_probe_out_cleanup(&out);
    }
    free(url_path);
}
