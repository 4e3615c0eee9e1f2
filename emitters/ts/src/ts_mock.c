/* tests/mock.ts (`sdkc generate --lang ts --tests`): one call per operation against a mock server
 * of the same contract (Prism), with request values synthesized from the IR types, as the C
 * SDK's tests/mock.c. The verdict on each call (Prism's sl-violations header, the retry with a
 * response generated from the schema) is in the fixed tests/mock-harness.ts. TypeScript inputs are
 * wire values, so each synthesized value is written as the JSON text it is. */
#include "sdkc/synth.h"
#include "ts_internal.h"

#include <stdlib.h>
#include <string.h>

static void put_json(sdkc_buf *b, const json_t *v)
{
    char *text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
    if (!text) {
        b->oom = true;
        return;
    }
    sdkc_buf_puts(b, text);
    free(text);
}

static void put_skip(sdkc_buf *b, const ts_op *o, const char *why)
{
    sdkc_buf_printf(b, "async function %s(_client: Client, t: Mock): Promise<void> {\n  t.skipOp(",
                    o->spec);
    ts_put_string(b, o->op->id);
    sdkc_buf_puts(b, ", ");
    ts_put_string(b, why);
    sdkc_buf_puts(b, ");\n}\n\n");
}

/* The input of one operation: every parameter with a value (an optional one without is left out
 * with a comment), and the body (its fields when flattened). *skip: why it cannot be called. */
static void put_input(ts_ctx *cx, sdkc_buf *b, const ts_op *o, const char **skip)
{
    const sdkc_operation *op = o->op;
    sdkc_buf_puts(b, "  const input = {\n");
    for (size_t j = 0; j < op->nparams && !*skip; j++) {
        const sdkc_param *p = &op->params[j];
        json_t *v = NULL;
        const char *why = NULL;
        if (sdkc_synth_value(&v, cx->arena, p->type, NULL, &why) != SDKC_OK) {
            if (p->required)
                *skip =
                    sdkc_arena_printf(cx->arena, "%s parameter '%s': %s", sdkc_param_in_name(p->in),
                                      p->wire_name, why ? why : "out of memory");
            else
                sdkc_buf_printf(b, "    // optional %s not set: %s\n", p->wire_name,
                                why ? why : "out of memory");
            continue;
        }
        sdkc_buf_puts(b, "    ");
        ts_put_key(b, o->keys[j]);
        sdkc_buf_puts(b, ": ");
        put_json(b, v);
        sdkc_buf_puts(b, ",\n");
        json_decref(v);
    }
    if (op->body && !*skip) {
        const char *why = sdkc_kit_mock_body_skip(op, cx->arena);
        json_t *v = NULL;
        bool blob = !why &&
                    sdkc_kit_media_of(op->body->content_type
                                          ? op->body->content_type
                                          : "application/json") == SDKC_KIT_MEDIA_OTHER &&
                    sdkc_kit_is_binary(op->body->type);
        if (!why && !blob && sdkc_synth_value(&v, cx->arena, op->body->type, NULL, &why) != SDKC_OK)
            why = why ? why : "out of memory";
        if (why && op->body->required) {
            *skip =
                sdkc_arena_printf(cx->arena, "request body '%s': %s", op->body->content_type, why);
        } else if (why) {
            sdkc_buf_printf(b, "    // optional body not set: %s\n", why);
        } else if (blob) {
            sdkc_buf_printf(b, "    %s: MOCK_BYTES,\n", o->body_key);
        } else if (o->body_key) {
            sdkc_buf_printf(b, "    %s: ", o->body_key);
            put_json(b, v);
            sdkc_buf_puts(b, ",\n");
        } else {
            /* flattened: the body's fields are the input's */
            const char *key;
            json_t *f;
            json_object_foreach(v, key, f)
            {
                sdkc_buf_puts(b, "    ");
                ts_put_key(b, key);
                sdkc_buf_puts(b, ": ");
                put_json(b, f);
                sdkc_buf_puts(b, ",\n");
            }
        }
        json_decref(v);
    }
    sdkc_buf_puts(b, "  };\n");
}

static void emit_mock_op(ts_ctx *cx, sdkc_buf *b, const ts_op *o)
{
    const sdkc_operation *op = o->op;
    const char *skip = sdkc_kit_mock_skip(op, cx->arena);
    if (skip) {
        put_skip(b, o, skip);
        return;
    }
    sdkc_buf in = SDKC_BUF_INIT;
    if (o->input)
        put_input(cx, &in, o, &skip);
    if (skip) {
        put_skip(b, o, skip);
    } else {
        sdkc_buf_printf(b, "async function %s(client: Client, t: Mock): Promise<void> {\n",
                        o->spec);
        if (in.len)
            sdkc_buf_append(b, in.data, in.len);
        sdkc_buf_puts(b, "  await t.call(");
        ts_put_string(b, op->id);
        sdkc_buf_printf(b, ", %s, (o) => client.%s.%s(%so));\n}\n\n",
                        sdkc_kit_mock_unserialisable(op) ? "true" : "false", o->group, o->method,
                        o->input ? "input as never, " : "");
    }
    b->oom = b->oom || in.oom;
    sdkc_buf_cleanup(&in);
}

sdkc_status ts_emit_mock(ts_ctx *cx, sdkc_buf *b)
{
    const sdkc_ir *ir = cx->ir;
    sdkc_kit_banner(b, ir, "tests/mock.ts: one call per operation against a mock server");
    sdkc_buf_puts(b, "// Run: npm run mock -- BASE_URL (a `prism mock CONTRACT` server; sdkc's "
                     "docs/mock.md).\n"
                     "import { Client, type Credential } from '../src/index.js';\n"
                     "import { Mock, MOCK_BYTES, runMock } from './mock-harness.js';\n\n");
    /* every declared scheme gets a credential (Prism checks presence and form only) */
    sdkc_buf_puts(b, "const credentials: Credential[] = [\n");
    for (size_t i = 0; i < ir->nschemes; i++) {
        sdkc_buf_puts(b, "  { scheme: ");
        ts_put_string(b, ir->schemes[i].name);
        sdkc_buf_puts(b, ", username: 'mock', password: 'mock', token: 'mock-token' },\n");
    }
    if (!ir->nschemes)
        sdkc_buf_puts(b, "  { username: 'mock', password: 'mock' },\n");
    sdkc_buf_puts(b, "];\n\n");
    for (size_t i = 0; i < ir->nops; i++)
        emit_mock_op(cx, b, &cx->ops[i]);
    sdkc_buf_puts(
        b,
        "await runMock(async (t, baseUrl) => {\n"
        "  const client = new Client({ baseUrl, credentials, timeout: 30000, maxRetries: 0 });\n");
    for (size_t i = 0; i < ir->nops; i++)
        sdkc_buf_printf(b, "  await %s(client, t);\n", cx->ops[i].spec);
    sdkc_buf_puts(b, "});\n");
    return cx->oom ? SDKC_ERR_NOMEM : sdkc_buf_finish(b);
}
