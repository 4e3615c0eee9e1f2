/* src/ops.c, what every request of an operation carries besides its parameters: the Accept
 * header and the operation's security requirements (first pages and continuations alike). */
#include "emit_internal.h"
#include "ops_c.h"

#include <stdio.h>
#include <string.h>

static bool ascii_ieq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char x = *a >= 'A' && *a <= 'Z' ? (char)(*a + 32) : *a;
        char y = *b >= 'A' && *b <= 'Z' ? (char)(*b + 32) : *b;
        if (x != y)
            return false;
    }
    return *a == *b;
}

/* The runtime kind of scheme s and where an API key goes, or NULL when the runtime cannot send
 * it (HTTP digest, mutual TLS, ...). */
static const char *scheme_kind(const sdkc_security_scheme *s, const char **in)
{
    const char *type = s->type ? s->type : "";
    *in = "SDKRT_IN_HEADER";
    if (strcmp(type, "apiKey") == 0 && s->in && s->param) {
        *in = strcmp(s->in, "query") == 0    ? "SDKRT_IN_QUERY"
              : strcmp(s->in, "cookie") == 0 ? "SDKRT_IN_COOKIE"
                                             : "SDKRT_IN_HEADER";
        return "SDKRT_SECURITY_API_KEY";
    }
    if (strcmp(type, "http") == 0 && s->scheme && ascii_ieq(s->scheme, "basic"))
        return "SDKRT_SECURITY_HTTP_BASIC";
    if ((strcmp(type, "http") == 0 && s->scheme && ascii_ieq(s->scheme, "bearer")) ||
        strcmp(type, "oauth2") == 0 || strcmp(type, "openIdConnect") == 0)
        return "SDKRT_SECURITY_HTTP_BEARER";
    return NULL;
}

/* The operation's security requirements as a static table named name (at file scope when
 * indent is ""), written only when there is a row: only those authenticate a request (none for
 * `security: []`). A requirement of several schemes is a run tied by with_previous. A requirement
 * with a scheme the runtime cannot send (HTTP digest, ...) is left out whole. Returns the rows. */
static size_t emit_security_rows(sdkc_buf *b, const sdkc_operation *op, const char *indent,
                                 const char *name)
{
    size_t n = 0;
    for (size_t i = 0; i < op->nsecurity;) {
        size_t end = sdkc_security_requirement_end(op, i);
        bool sendable = end - i <= SDKRT_SECURITY_MAX_TOGETHER_WANT;
        for (size_t k = i; k < end && sendable; k++) {
            const char *in = NULL;
            sendable = scheme_kind(op->security[k], &in) != NULL;
        }
        for (size_t k = i; k < end && sendable; k++) {
            const sdkc_security_scheme *s = op->security[k];
            const char *in = NULL, *kind = scheme_kind(s, &in);
            if (n++ == 0)
                sdkc_buf_printf(b, "%sstatic const sdkrt_security_scheme %s[] = {\n", indent, name);
            sdkc_buf_printf(b, "%s    {", indent);
            sdkc_kit_put_c_string(b, s->name);
            sdkc_buf_printf(b, ", %s, %s, ", kind, in);
            if (s->param && strcmp(kind, "SDKRT_SECURITY_API_KEY") == 0)
                sdkc_kit_put_c_string(b, s->param);
            else
                sdkc_buf_puts(b, "NULL");
            sdkc_buf_printf(b, ", %s},\n", k > i ? "true" : "false");
        }
        i = end;
    }
    if (n)
        sdkc_buf_printf(b, "%s};\n", indent);
    return n;
}

static void emit_security(emit_ctx *cx, sdkc_buf *b, const sdkc_operation *op)
{
    (void)cx;
    size_t n = emit_security_rows(b, op, "    ", "security");
    sdkc_buf_printf(b,
                    "    if (sdkrt_request_set_security(req, %s, %zu) != SDKRT_OK) {\n"
                    "        sdkrt_request_free(req);\n        return sdkrt_error_set(err, "
                    "SDKRT_REASON_OUT_OF_MEMORY, \"out of memory\");\n    }\n",
                    n ? "security" : "NULL", n);
}

/* The Accept header of op's requests, or NULL for none. */
static const char *accept_of(emit_ctx *cx, const sdkc_operation *op)
{
    if (!op->success.content_type || op->success.encoding == SDKC_ENC_SSE ||
        op->success.encoding == SDKC_ENC_NONE)
        return NULL;
    /* A JSON result declared under a range (star/star, application/star) is asked for as JSON
       first: the client decodes nothing else, and the server may pick any type. */
    const char *accept = op->success.content_type;
    if (op->success.encoding == SDKC_ENC_JSON && strchr(accept, '*'))
        accept = sdkc_arena_printf(cx->arena, "application/json, %s;q=0.8", accept);
    return accept;
}

/* What every request of an operation carries besides its parameters: the Accept header, the
 * operation's security requirements and its idempotency header (first pages and continuations
 * alike). */
void emit_accept_and_security(emit_ctx *cx, sdkc_buf *b, const sdkc_operation *op)
{
    const char *accept = accept_of(cx, op);
    if (op->success.content_type && op->success.encoding != SDKC_ENC_SSE &&
        op->success.encoding != SDKC_ENC_NONE && !accept) {
        b->oom = true;
        return;
    }
    if (accept) {
        sdkc_buf_puts(b, "    if (sdkrt_request_set_header(req, \"Accept\", ");
        sdkc_kit_put_c_string(b, accept);
        sdkc_buf_puts(b, ") != SDKRT_OK) {\n        sdkrt_request_free(req);\n"
                         "        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "
                         "\"out of memory\");\n    }\n");
    }
    /* a contract that declares no scheme leaves the request without one: the client then sends
       whatever it is configured with (an implied scheme never narrows that) */
    if (!cx->ir->auth_unspecified && cx->ir->nschemes > 0)
        emit_security(cx, b, op);
    /* the contract's idempotency header: a call without a key gets a generated one there */
    const sdkc_param *idem = sdkc_operation_idempotency_param(op);
    if (idem) {
        sdkc_buf_puts(b, "    if (sdkrt_request_set_idempotency_header(req, ");
        sdkc_kit_put_c_string(b, idem->wire_name);
        sdkc_buf_puts(b, ") != SDKRT_OK) {\n        sdkrt_request_free(req);\n"
                         "        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "
                         "\"out of memory\");\n    }\n");
    }
}

bool emit_request_table_extras(emit_ctx *cx, sdkc_buf *b, const sdkc_operation *op,
                               const char *sec_name, const char **accept, size_t *nsec,
                               bool *secure)
{
    *accept = accept_of(cx, op);
    if (op->success.content_type && op->success.encoding != SDKC_ENC_SSE &&
        op->success.encoding != SDKC_ENC_NONE && !*accept)
        return false;
    *secure = !cx->ir->auth_unspecified && cx->ir->nschemes > 0;
    *nsec = *secure ? emit_security_rows(b, op, "", sec_name) : 0;
    return true;
}
