/* tests/mock.c (`sdkc generate --tests`): one call per operation against a mock server of the
 * same contract (Prism, `scripts/prism.sh`), with request values synthesized from the IR types.
 *
 * Each value is written into the generated C as JSON text, decoded at run time with the SDK's own
 * `<t>_decode` and lent to the request (an input twin has its value type's layout, so it is
 * copied with memcpy). Scalars are assigned directly. An operation whose required values cannot
 * be synthesized faithfully (sdkc/synth.h) is reported as SKIP with the reason, never left out. */
#include "emit_internal.h"
#include "sdkc/synth.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- how a request member is set ---- */

typedef enum set_kind {
    SET_NOTHING, /* a literal or null: the SDK sends it itself */
    SET_DECODE,  /* a struct: decode JSON text with <t>_decode, memcpy into the member */
    SET_STRING,  /* const char * */
    SET_INT,
    SET_DOUBLE,
    SET_BOOL,
    SET_JSON, /* const json_t * */
    SET_BLOB, /* a binary body: a few bytes from memory */
    SET_UNSUPPORTED
} set_kind;

typedef struct member_set {
    set_kind kind;
    const ctype *c; /* the storage type (JSON_STRING followed to its content) */
    json_t *value;  /* the wire value (for a JSON string: its content), or NULL */
    const char *why;
} member_set;

/* Decide how to set a member of storage type c from IR type t. */
static member_set plan_member(emit_ctx *cx, const ctype *c, const sdkc_type *t)
{
    member_set m = {SET_UNSUPPORTED, c, NULL, NULL};
    while (c->value_of && t->kind == SDKC_TYPE_JSON_STRING) { /* decoded content is stored */
        c = c->value_of;
        t = t->u.json_string.content;
    }
    m.c = c;
    if (!c->stores) {
        m.kind = SET_NOTHING;
        return m;
    }
    const char *why = NULL;
    if (sdkc_synth_value(&m.value, cx->arena, t, NULL, &why) != SDKC_OK) {
        m.why = why ? why : "out of memory";
        return m;
    }
    if (c->is_struct)
        m.kind = SET_DECODE;
    else if (!strcmp(c->jk, "SDKRT_JK_STRING") && json_is_string(m.value))
        m.kind = SET_STRING;
    else if (!strcmp(c->jk, "SDKRT_JK_INTEGER") && json_is_integer(m.value))
        m.kind = SET_INT;
    else if (!strcmp(c->jk, "SDKRT_JK_NUMBER") && json_is_number(m.value))
        m.kind = SET_DOUBLE;
    else if (!strcmp(c->jk, "SDKRT_JK_BOOLEAN") && json_is_boolean(m.value))
        m.kind = SET_BOOL;
    else if (!strcmp(c->jk, "SDKRT_JK_ANY"))
        m.kind = SET_JSON;
    else
        m.why = sdkc_arena_printf(cx->arena, "a %s member is not set by the mock generator",
                                  c->jk + strlen("SDKRT_JK_"));
    if (m.kind == SET_UNSUPPORTED) {
        json_decref(m.value);
        m.value = NULL;
    }
    return m;
}

static char *json_text(const json_t *v)
{
    return json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
}

/* Statements that set req.<member> from m (value slot k: v<k>, j<k>); failure jumps to done. */
static void put_set(emit_ctx *cx, sdkc_buf *b, const member_set *m, const char *member,
                    const char *what, size_t k)
{
    const char *P = cx->prefix;
    char *text = m->value ? json_text(m->value) : NULL;
    switch (m->kind) {
    case SET_NOTHING:
        break;
    case SET_DECODE:
        sdkc_buf_printf(b, "    j%zu = json_loads(", k);
        sdkc_kit_put_c_string(b, text ? text : "null");
        sdkc_buf_printf(b,
                        ", JSON_DECODE_ANY, NULL);\n"
                        "    if (!j%zu || %s_decode(&v%zu, j%zu, \"$\", &err) != %s_OK) {\n"
                        "        mock_setup_failed(t, id, \"%s\", &err);\n"
                        "        goto done;\n    }\n",
                        k, m->c->cdecl, k, k, cx->upper, what);
        sdkc_buf_printf(b,
                        "    _Static_assert(sizeof req.%s == sizeof v%zu, \"an input twin has its "
                        "value type's layout\");\n"
                        "    memcpy(&req.%s, &v%zu, sizeof v%zu);\n",
                        member, k, member, k, k);
        break;
    case SET_BLOB:
        sdkc_buf_printf(b, "    req.%s.data = \"mock\";\n    req.%s.len = 4;\n", member, member);
        break;
    case SET_STRING:
        sdkc_buf_printf(b, "    req.%s = ", member);
        sdkc_kit_put_c_string(b, json_string_value(m->value));
        sdkc_buf_puts(b, ";\n");
        break;
    case SET_INT:
        sdkc_buf_printf(b, "    req.%s = INT64_C(%" JSON_INTEGER_FORMAT ");\n", member,
                        json_integer_value(m->value));
        break;
    case SET_DOUBLE:
        sdkc_buf_printf(b, "    req.%s = %.17g;\n", member, json_number_value(m->value));
        break;
    case SET_BOOL:
        sdkc_buf_printf(b, "    req.%s = %s;\n", member, json_is_true(m->value) ? "true" : "false");
        break;
    case SET_JSON:
        sdkc_buf_printf(b, "    j%zu = json_loads(", k);
        sdkc_kit_put_c_string(b, text ? text : "null");
        sdkc_buf_printf(b,
                        ", JSON_DECODE_ANY, NULL);\n"
                        "    if (!j%zu) {\n        mock_setup_failed(t, id, \"%s\", NULL);\n"
                        "        goto done;\n    }\n    req.%s = j%zu;\n",
                        k, what, member, k);
        break;
    case SET_UNSUPPORTED:
        break;
    }
    (void)P;
    free(text);
}

/* ---- the result of a call ---- */

typedef struct result_plan {
    const char *decl;    /* declaration of `out`, or NULL when the call returns nothing */
    const char *release; /* statement releasing it */
    const char *why;     /* set when the result cannot be handled */
} result_plan;

static result_plan plan_result(emit_ctx *cx, const cop *o)
{
    const sdkc_operation *op = o->op;
    const char *P = cx->prefix;
    result_plan r = {NULL, NULL, NULL};
    sdkc_arena *a = cx->arena;
    if (o->several && !o->several_shared) {
        r.decl = sdkc_arena_printf(a, "%s_%s_response *out = NULL;", P, o->name);
        r.release = sdkc_arena_printf(a, "%s_%s_response_free(out);", P, o->name);
        return r;
    }
    if (op->pagination && emit_page_ok(o)) {
        r.decl = sdkc_arena_printf(a, "%s_%s_page *out = NULL;", P, o->name);
        r.release = sdkc_arena_printf(a, "%s_%s_page_free(out);", P, o->name);
        return r;
    }
    switch (op->success.encoding) {
    case SDKC_ENC_JSON: {
        const ctype *c = o->result;
        if (!c || !c->stores)
            return r;
        if (c->is_struct) {
            r.decl = sdkc_arena_printf(a, "%s *out = NULL;", c->cdecl);
            r.release = sdkc_arena_printf(a, "%s_free(out);", c->cdecl);
            return r;
        }
        const ctype *s = c;
        while (s->value_of)
            s = s->value_of;
        if (s->is_struct) { /* copied out by value */
            r.decl =
                sdkc_arena_printf(a, "%s out;\n        memset(&out, 0, sizeof out);", s->cdecl);
            r.release = sdkc_arena_printf(a, "%s_cleanup(&out);", s->cdecl);
        } else if (!strcmp(s->jk, "SDKRT_JK_STRING")) {
            r.decl = "char *out = NULL;";
            r.release = "free(out);";
        } else if (!strcmp(s->jk, "SDKRT_JK_ANY")) {
            r.decl = "json_t *out = NULL;";
            r.release = "json_decref(out);";
        } else if (!strcmp(s->jk, "SDKRT_JK_INTEGER")) {
            r.decl = "int64_t out = 0;";
            r.release = "(void)out;";
        } else if (!strcmp(s->jk, "SDKRT_JK_NUMBER")) {
            r.decl = "double out = 0;";
            r.release = "(void)out;";
        } else if (!strcmp(s->jk, "SDKRT_JK_BOOLEAN")) {
            r.decl = "bool out = false;";
            r.release = "(void)out;";
        } else if (!strcmp(s->jk, "SDKRT_JK_NULLABLE") && s->inner && s->inner->is_struct) {
            r.decl = sdkc_arena_printf(a, "%s *out = NULL;", s->inner->cdecl);
            r.release = sdkc_arena_printf(a, "%s_free(out);", s->inner->cdecl);
        } else {
            r.why = sdkc_arena_printf(a, "a %s result is not handled by the mock generator",
                                      s->jk + strlen("SDKRT_JK_"));
        }
        return r;
    }
    case SDKC_ENC_BYTES:
    case SDKC_ENC_TEXT:
        r.decl = sdkc_arena_printf(a, "%s_bytes *out = NULL;", P);
        r.release = sdkc_arena_printf(a, "%s_bytes_free(out);", P);
        return r;
    default:
        return r;
    }
}

/* ---- one operation ---- */

static void put_skip_fn(emit_ctx *cx, sdkc_buf *b, const cop *o, const char *why)
{
    sdkc_buf_printf(b, "static void mock_op_%s(%s_client *client, mock_ctx *t)\n{\n", o->name,
                    cx->prefix);
    sdkc_buf_puts(b, "    (void)client;\n    mock_skip(t, ");
    sdkc_kit_put_c_string(b, o->op->id);
    sdkc_buf_puts(b, ", ");
    sdkc_kit_put_c_string(b, why);
    sdkc_buf_puts(b, ");\n}\n\n");
}

static void emit_mock_op(emit_ctx *cx, sdkc_buf *b, const cop *o)
{
    const sdkc_operation *op = o->op;
    const char *P = cx->prefix;
    sdkc_arena *a = cx->arena;
    const char *always = sdkc_kit_mock_skip(op, a);
    if (always) {
        put_skip_fn(cx, b, o, always);
        return;
    }
    result_plan r = plan_result(cx, o);
    if (r.why) {
        put_skip_fn(cx, b, o, r.why);
        return;
    }
    size_t nm = op->nparams + 1;
    member_set *ms = calloc(nm, sizeof *ms);
    if (!ms) {
        b->oom = true; /* the whole file fails rather than lose this operation's function */
        return;
    }
    const char *skip = NULL;
    for (size_t i = 0; i < op->nparams; i++) {
        const sdkc_param *p = &op->params[i];
        ms[i] = plan_member(cx, o->params[i], p->type);
        if (ms[i].kind == SET_UNSUPPORTED && p->required && !skip)
            skip = sdkc_arena_printf(a, "%s parameter '%s': %s", sdkc_param_in_name(p->in),
                                     p->wire_name, ms[i].why);
    }
    bool has_body = o->body && op->body;
    if (has_body) {
        const char *body_skip = sdkc_kit_mock_body_skip(op, a);
        if (o->blob_body) {
            ms[op->nparams].kind = SET_BLOB;
        } else if (body_skip) {
            ms[op->nparams].kind = SET_UNSUPPORTED;
            ms[op->nparams].why = body_skip;
        } else {
            ms[op->nparams] = plan_member(cx, o->body, op->body->type);
        }
        if (ms[op->nparams].kind == SET_UNSUPPORTED && op->body->required && !skip)
            skip = sdkc_arena_printf(a, "request body '%s': %s", op->body->content_type,
                                     ms[op->nparams].why);
    }
    if (skip) {
        put_skip_fn(cx, b, o, skip);
        goto done;
    }
    sdkc_buf_printf(b, "static void mock_op_%s(%s_client *client, mock_ctx *t)\n{\n", o->name, P);
    sdkc_buf_puts(b, "    static const char id[] = ");
    sdkc_kit_put_c_string(b, op->id);
    sdkc_buf_printf(b, ";\n    %s_error *err = NULL;\n", P);
    if (o->has_request)
        sdkc_buf_printf(b, "    %s_%s_request req;\n", P, o->name);
    for (size_t k = 0; k < nm; k++) {
        if (ms[k].kind == SET_DECODE)
            sdkc_buf_printf(b, "    %s v%zu;\n", ms[k].c->cdecl, k);
        if (ms[k].kind == SET_DECODE || ms[k].kind == SET_JSON)
            sdkc_buf_printf(b, "    json_t *j%zu = NULL;\n", k);
    }
    if (o->has_request)
        sdkc_buf_puts(b, "    memset(&req, 0, sizeof req);\n");
    for (size_t k = 0; k < nm; k++) {
        if (ms[k].kind == SET_DECODE)
            sdkc_buf_printf(b, "    memset(&v%zu, 0, sizeof v%zu);\n", k, k);
    }
    for (size_t k = 0; k < nm; k++) {
        bool body = k == op->nparams;
        if ((body && !has_body) || ms[k].kind == SET_UNSUPPORTED) {
            if (!body || has_body)
                sdkc_buf_printf(b, "    /* optional %s not set: %s */\n",
                                body ? "body" : op->params[k].wire_name, ms[k].why);
            continue;
        }
        const char *member = body ? "body" : o->pnames[k];
        const char *what =
            body ? "request body" : sdkc_arena_printf(a, "parameter %s", op->params[k].wire_name);
        bool optional = body ? !op->body->required : !op->params[k].required;
        put_set(cx, b, &ms[k], member, what, k);
        if (optional)
            sdkc_buf_printf(b, "    req.has_%s = true;\n", member);
    }
    sdkc_buf_puts(b, "    for (int attempt = 0; attempt < 2; attempt++) {\n");
    if (r.decl)
        sdkc_buf_printf(b, "        %s\n", r.decl);
    sdkc_buf_printf(b, "        %s_status st = %s_%s(client, %smock_call(t, attempt), %s%s&err);\n",
                    P, P, o->name, o->has_request ? "&req, " : "", r.decl ? "&out, " : "",
                    o->several ? "NULL, " : "");
    sdkc_buf_printf(b, "        bool again = mock_report(t, id, st, &err, attempt, %s);\n",
                    sdkc_kit_mock_unserialisable(op) ? "true" : "false");
    if (r.release)
        sdkc_buf_printf(b, "        %s\n", r.release);
    sdkc_buf_puts(b, "        if (!again)\n            break;\n    }\n    goto done;\ndone:\n");
    for (size_t k = 0; k < nm; k++) {
        if (ms[k].kind == SET_DECODE)
            sdkc_buf_printf(b, "    %s_cleanup(&v%zu);\n", ms[k].c->cdecl, k);
        if (ms[k].kind == SET_DECODE || ms[k].kind == SET_JSON)
            sdkc_buf_printf(b, "    json_decref(j%zu);\n", k);
    }
    sdkc_buf_printf(b, "    %s_error_free(err);\n}\n\n", P);
done:
    for (size_t k = 0; k < nm; k++)
        json_decref(ms[k].value);
    free(ms);
}

/* Credentials for every scheme the contract declares (Prism checks presence and form only). */
static size_t emit_credentials(emit_ctx *cx, sdkc_buf *b)
{
    const sdkc_ir *ir = cx->ir;
    sdkc_buf_printf(b, "static const %s_credential mock_credentials[] = {\n", cx->prefix);
    for (size_t i = 0; i < ir->nschemes; i++) {
        sdkc_buf_puts(b, "    {");
        sdkc_kit_put_c_string(b, ir->schemes[i].name);
        sdkc_buf_puts(b, ", \"mock\", \"mock\", \"mock-token\"},\n");
    }
    if (!ir->nschemes)
        sdkc_buf_puts(b, "    {NULL, \"mock\", \"mock\", \"mock-token\"},\n");
    sdkc_buf_puts(b, "};\n\n");
    return ir->nschemes ? ir->nschemes : 1;
}

/* The harness shared by every operation: the tally, Prism's sl-violations header seen through
 * the call options' on_response, and the verdict on each call. ({{P}} and {{U}} are the prefix.) */
static const char *const mock_harness[] = {
    "typedef struct mock_ctx {\n",
    "    int pass, fail, skip;\n",
    "    {{P}}_call_options call;\n",
    "    {{P}}_header prefer[1]; /* a retry asks Prism for a response made from the schema */\n",
    "    int status;             /* of the last response */\n",
    "    char *violations;       /* its sl-violations header (Prism's JSON), or NULL */\n",
    "    char *note;             /* why the first attempt was retried, or NULL */\n",
    "} mock_ctx;\n",
    "\n",
    "static bool mock_ieq(const char *a, const char *b)\n",
    "{\n",
    "    for (; *a && *b; a++, b++) {\n",
    "        char x = *a >= 'A' && *a <= 'Z' ? (char)(*a - 'A' + 'a') : *a;\n",
    "        char y = *b >= 'A' && *b <= 'Z' ? (char)(*b - 'A' + 'a') : *b;\n",
    "        if (x != y)\n",
    "            return false;\n",
    "    }\n",
    "    return *a == *b;\n",
    "}\n",
    "\n",
    "static char *mock_strdup(const char *s)\n",
    "{\n",
    "    size_t n = strlen(s) + 1;\n",
    "    char *c = malloc(n);\n",
    "    if (c)\n",
    "        memcpy(c, s, n);\n",
    "    return c;\n",
    "}\n",
    "\n",
    "static void mock_observe(void *userdata, int status, const {{P}}_header *headers, size_t "
    "count)\n",
    "{\n",
    "    mock_ctx *m = userdata;\n",
    "    m->status = status;\n",
    "    for (size_t i = 0; i < count; i++) {\n",
    "        if (mock_ieq(headers[i].name, \"sl-violations\")) {\n",
    "            free(m->violations);\n",
    "            m->violations = mock_strdup(headers[i].value);\n",
    "        }\n",
    "    }\n",
    "}\n",
    "\n",
    "/* The call options of an attempt: the second asks for a response generated from the schema. "
    "*/\n",
    "static const {{P}}_call_options *mock_call(mock_ctx *m, int attempt)\n",
    "{\n",
    "    free(m->violations);\n",
    "    m->violations = NULL;\n",
    "    m->status = 0;\n",
    "    m->call.headers = attempt ? m->prefer : NULL;\n",
    "    m->call.header_count = attempt ? 1 : 0;\n",
    "    return &m->call;\n",
    "}\n",
    "\n",
    "/* The violations Prism reported on one side (\"request\" or \"response\"): their count, and "
    "the\n",
    " * first as \"location: message\" in buf. An unreadable header counts as one. */\n",
    "static int mock_violations(const mock_ctx *m, const char *side, char *buf, size_t size)\n",
    "{\n",
    "    buf[0] = '\\0';\n",
    "    if (!m->violations)\n",
    "        return 0;\n",
    "    json_t *all = json_loads(m->violations, 0, NULL);\n",
    "    if (!json_is_array(all)) { /* \"Too many violations! ...\" */\n",
    "        json_decref(all);\n",
    "        snprintf(buf, size, \"%.300s\", m->violations);\n",
    "        return strstr(m->violations, side) ? 1 : 0;\n",
    "    }\n",
    "    int n = 0;\n",
    "    size_t i;\n",
    "    json_t *v;\n",
    "    json_array_foreach(all, i, v) {\n",
    "        json_t *loc = json_object_get(v, \"location\");\n",
    "        const char *first = json_string_value(json_array_get(loc, 0));\n",
    "        if (!first || strcmp(first, side) != 0)\n",
    "            continue;\n",
    "        if (n++ == 0) {\n",
    "            size_t used = 0, j;\n",
    "            json_t *part;\n",
    "            json_array_foreach(loc, j, part) {\n",
    "                char piece[128];\n",
    "                if (json_is_string(part))\n",
    "                    snprintf(piece, sizeof piece, \"%s%s\", j ? \".\" : \"\", "
    "json_string_value(part));\n",
    "                else\n",
    "                    snprintf(piece, sizeof piece, \"%s%\" JSON_INTEGER_FORMAT, j ? \".\" : "
    "\"\",\n",
    "                             json_integer_value(part));\n",
    "                if (used < size)\n",
    "                    used += (size_t)snprintf(buf + used, size - used, \"%s\", piece);\n",
    "            }\n",
    "            const char *msg = json_string_value(json_object_get(v, \"message\"));\n",
    "            if (used < size)\n",
    "                snprintf(buf + used, size - used, \": %.300s\", msg ? msg : \"(no "
    "message)\");\n",
    "        }\n",
    "    }\n",
    "    json_decref(all);\n",
    "    return n;\n",
    "}\n",
    "\n",
    "static void mock_skip(mock_ctx *t, const char *id, const char *why)\n",
    "{\n",
    "    printf(\"SKIP %s: %s\\n\", id, why);\n",
    "    t->skip++;\n",
    "}\n",
    "\n",
    "static void mock_fail(mock_ctx *t, const char *id, const char *what, {{P}}_error *err)\n",
    "{\n",
    "    printf(\"FAIL %s: %s\", id, what);\n",
    "    size_t len = 0;\n",
    "    const char *body = err ? {{P}}_error_body(err, &len) : NULL;\n",
    "    if (body && len) { /* the server's answer (Prism's problem body), on the same line */\n",
    "        fputs(\" -- body: \", stdout);\n",
    "        for (size_t i = 0; i < len && i < 600; i++)\n",
    "            putchar(body[i] == '\\n' || body[i] == '\\r' ? ' ' : body[i]);\n",
    "    }\n",
    "    putchar('\\n');\n",
    "    t->fail++;\n",
    "}\n",
    "\n",
    "/* The verdict on one attempt. Any request violation Prism reports FAILs, whatever the "
    "status.\n",
    " * A response the SDK rejects while Prism reports that the response itself breaks the\n",
    " * contract (an example that does not match its schema) is retried once with a response\n",
    " * generated from the schema. unserialisable_body: Prism may have no serialiser for the\n",
    " * success body (JSON under a media range, binary), and every error response is concrete\n",
    " * JSON or empty, so such a 500 comes after the request passed validation. Returns true to\n",
    " * retry. */\n",
    "static bool mock_report(mock_ctx *t, const char *id, {{P}}_status st, {{P}}_error **err, int "
    "attempt,\n",
    "                        bool unserialisable_body)\n",
    "{\n",
    "    char reqv[512], respv[512], line[1400];\n",
    "    int nreq = mock_violations(t, \"request\", reqv, sizeof reqv);\n",
    "    int nresp = mock_violations(t, \"response\", respv, sizeof respv);\n",
    "    {{P}}_reason why = *err ? {{P}}_error_reason(*err) : {{U}}_REASON_NONE;\n",
    "    const char *msg = *err ? {{P}}_error_message(*err) : \"(no error)\";\n",
    "    size_t len = 0;\n",
    "    const char *body = *err ? {{P}}_error_body(*err, &len) : NULL;\n",
    "    bool retry = false;\n",
    "    if (nreq) {\n",
    "        snprintf(line, sizeof line, \"Prism reported %d request violation%s: %s (HTTP %d; "
    "%s)\", nreq,\n",
    "                 nreq == 1 ? \"\" : \"s\", reqv, t->status, st == {{U}}_OK ? \"call "
    "succeeded\" : msg);\n",
    "        mock_fail(t, id, line, NULL);\n",
    "    } else if (st == {{U}}_OK) {\n",
    "        if (t->note)\n",
    "            printf(\"PASS %s: the contract's example breaks its schema (%s); a response "
    "generated \"\n",
    "                   \"from the schema decodes\\n\", id, t->note);\n",
    "        else\n",
    "            printf(\"PASS %s\\n\", id);\n",
    "        t->pass++;\n",
    "    } else if ((why == {{U}}_REASON_MALFORMED_RESPONSE || why == "
    "{{U}}_REASON_UNSUPPORTED_CONTENT_TYPE) &&\n",
    "               nresp && attempt == 0) {\n",
    "        free(t->note);\n",
    "        t->note = mock_strdup(respv);\n",
    "        retry = true;\n",
    "    } else if ((why == {{U}}_REASON_MALFORMED_RESPONSE || why == "
    "{{U}}_REASON_UNSUPPORTED_CONTENT_TYPE) &&\n",
    "               nresp) {\n",
    "        snprintf(line, sizeof line, \"the request passed; Prism's responses break the "
    "contract (%s), \"\n",
    "                 \"and the SDK rejects them: %s\", respv, msg);\n",
    "        mock_skip(t, id, line);\n",
    "    } else if (unserialisable_body && t->status == 500 && body && len &&\n",
    "               (strstr(body, \"prism/errors#NO_COMPLEX_OBJECT_TEXT\") ||\n",
    "                strstr(body, \"Cannot find serializer\"))) {\n",
    "        snprintf(line, sizeof line, \"the request passed; Prism cannot serialise its response "
    "\"\n",
    "                 \"(%.200s)\", body);\n",
    "        mock_skip(t, id, line);\n",
    "    } else {\n",
    "        mock_fail(t, id, msg, *err);\n",
    "    }\n",
    "    if (!retry) {\n",
    "        free(t->note);\n",
    "        t->note = NULL;\n",
    "    }\n",
    "    {{P}}_error_free(*err);\n",
    "    *err = NULL;\n",
    "    return retry;\n",
    "}\n",
    "\n",
    "/* A synthesized value that does not decode is a generator bug: FAIL. */\n",
    "static void mock_setup_failed(mock_ctx *t, const char *id, const char *what, {{P}}_error "
    "**err)\n",
    "{\n",
    "    printf(\"FAIL %s: %s: the synthesized value does not decode: %s\\n\", id, what,\n",
    "           err && *err ? {{P}}_error_message(*err) : \"invalid JSON\");\n",
    "    t->fail++;\n",
    "    if (err) {\n",
    "        {{P}}_error_free(*err);\n",
    "        *err = NULL;\n",
    "    }\n",
    "}\n",
    "\n",
    NULL,
};

static void put_code(emit_ctx *cx, sdkc_buf *b, const char *const *lines)
{
    const char *const keys[][2] = {{"P", cx->prefix}, {"U", cx->upper}};
    sdkc_kit_put_template(b, lines, keys, 2);
}

void emit_mock_c(emit_ctx *cx, sdkc_buf *b, const cop *ops, size_t nops)
{
    const char *P = cx->prefix, *U = cx->upper;
    sdkc_kit_banner(b, cx->ir,
                    "one call per operation against a mock server (sdkc generate --tests)");
    sdkc_buf_printf(b,
                    "/* Usage: %s_mock BASE_URL   (a `prism mock CONTRACT` server)\n"
                    " * Prints one line per operation: PASS <id>, FAIL <id>: <why>, or SKIP "
                    "<id>: <reason>;\n * then \"mock: N pass, N fail, N skip\". Exit status 1 "
                    "when any operation fails. */\n",
                    P);
    sdkc_buf_printf(b, "#include <%s/%s.h>\n\n", P, P);
    sdkc_buf_puts(b, "#include <inttypes.h>\n#include <stdbool.h>\n#include <stdint.h>\n"
                     "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n\n");
    put_code(cx, b, mock_harness);
    size_t ncred = emit_credentials(cx, b);
    for (size_t i = 0; i < nops; i++)
        emit_mock_op(cx, b, &ops[i]);
    sdkc_buf_puts(b, "int main(int argc, char **argv)\n{\n");
    sdkc_buf_printf(
        b,
        "    if (argc != 2) {\n        fprintf(stderr, \"usage: %%s BASE_URL\\n\", "
        "argv[0]);\n        return 2;\n    }\n"
        "    setvbuf(stdout, NULL, _IOLBF, 0); /* lines appear as operations run */\n"
        "    if (%s_global_init() != %s_OK) {\n        fprintf(stderr, \"mock: "
        "global init failed\\n\");\n        return 2;\n    }\n"
        "    %s_client_options opts = %s_CLIENT_OPTIONS_INIT;\n"
        "    opts.base_url = argv[1];\n    opts.timeout_ms = 30000;\n"
        "    opts.retry.max_attempts = 1; /* one request per verdict */\n"
        "    opts.credentials = mock_credentials;\n"
        "    opts.credential_count = %zu;\n"
        "    %s_client *client = NULL;\n    %s_error *err = NULL;\n"
        "    if (%s_client_new(&client, &opts, &err) != %s_OK) {\n"
        "        fprintf(stderr, \"mock: %%s\\n\", %s_error_message(err));\n"
        "        %s_error_free(err);\n        %s_global_cleanup();\n"
        "        return 2;\n    }\n"
        "    mock_ctx t;\n    memset(&t, 0, sizeof t);\n"
        "    %s_call_options call = %s_CALL_OPTIONS_INIT;\n"
        "    t.call = call;\n    t.call.on_response = mock_observe;\n"
        "    t.call.userdata = &t;\n"
        "    t.prefer[0].name = \"Prefer\";\n    t.prefer[0].value = \"dynamic=true\";\n",
        P, U, P, U, ncred, P, P, P, U, P, P, P, P, U);
    for (size_t i = 0; i < nops; i++)
        sdkc_buf_printf(b, "    mock_op_%s(client, &t);\n", ops[i].name);
    sdkc_buf_printf(b,
                    "    printf(\"mock: %%d pass, %%d fail, %%d skip\\n\", t.pass, t.fail, "
                    "t.skip);\n"
                    "    free(t.violations);\n    free(t.note);\n"
                    "    %s_client_free(client);\n    %s_global_cleanup();\n"
                    "    return t.fail ? 1 : 0;\n}\n",
                    P, P);
}
