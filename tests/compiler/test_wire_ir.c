/* test_wire_ir.c - what the IR records for wire fidelity (data/compile/good/wire.yaml): body media
 * types, encodings and alternatives, allowReserved, cookie parameters, security schemes and
 * per-operation requirements (`security: []`), and that IR JSON keeps all of it. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "sdkc/doc.h"
#include "sdkc/ir.h"
#include "sdkc/compile.h"
#include "sdkc/ir_json.h"

#define WIRE SDKC_SOURCE_DIR "/tests/compiler/data/compile/good/wire.yaml"

static void check_ir(const sdkc_ir *ir)
{
    ck_assert_uint_eq(ir->nschemes, 5);
    const sdkc_operation *op = sdkc_ir_operation(ir, "customers.create");
    ck_assert_ptr_nonnull(op);
    ck_assert_ptr_nonnull(op->body);
    ck_assert_str_eq(op->body->content_type, "application/json");
    ck_assert_uint_eq(op->body->nalternatives, 1);
    ck_assert_str_eq(op->body->alternatives[0], "application/x-www-form-urlencoded");
    ck_assert_uint_eq(op->body->nencodings, 0); /* the JSON media type has none */
    ck_assert_uint_eq(op->nparams, 4);
    ck_assert_int_eq(op->params[0].style, SDKC_STYLE_LABEL);
    ck_assert(op->params[0].explode);
    ck_assert(op->params[1].allow_reserved);
    ck_assert_int_eq(op->params[2].style, SDKC_STYLE_PIPE_DELIMITED);
    ck_assert_int_eq(op->params[3].in, SDKC_PARAM_COOKIE);
    ck_assert_uint_eq(op->nsecurity, 2);
    ck_assert_str_eq(op->security[0]->name, "api_header");
    ck_assert_str_eq(op->security[1]->type, "oauth2");

    op = sdkc_ir_operation(ir, "files.upload");
    ck_assert_str_eq(op->body->content_type, "multipart/form-data");
    ck_assert_uint_eq(op->body->nencodings, 1);
    ck_assert_str_eq(op->body->encodings[0].property, "file");
    ck_assert_str_eq(op->body->encodings[0].content_type, "image/png");
    ck_assert(!op->body->encodings[0].has_style);
    ck_assert_uint_eq(op->nsecurity, 1); /* the top-level requirement */
    ck_assert_str_eq(op->security[0]->name, "api_key");
    ck_assert_int_eq(op->success.encoding, SDKC_ENC_TEXT);

    op = sdkc_ir_operation(ir, "blobs.put");
    ck_assert_str_eq(op->body->content_type, "application/octet-stream");
    ck_assert_uint_eq(op->nsecurity, 0); /* security: [] */
    ck_assert_int_eq(op->success.encoding, SDKC_ENC_BYTES);

    op = sdkc_ir_operation(ir, "login");
    ck_assert_str_eq(op->body->content_type, "application/vnd.api+json");
    ck_assert_str_eq(op->security[0]->scheme, "basic");
}

START_TEST(test_wire_ir)
{
    sdkc_diag *diag = NULL;
    sdkc_compiled *c = NULL;
    ck_assert_int_eq(sdkc_diag_new(&diag), SDKC_OK);
    sdkc_status st = sdkc_compile_file(&c, WIRE, NULL, diag);
    if (st != SDKC_OK)
        sdkc_diag_print(diag, stderr, false);
    ck_assert_int_eq(st, SDKC_OK);
    ck_assert_uint_eq(sdkc_diag_warnings(diag), 0);
    check_ir(sdkc_compiled_ir(c));

    /* IR JSON keeps it, and writes the same bytes again */
    char *json = NULL, *again = NULL;
    size_t len = 0, len2 = 0;
    ck_assert_int_eq(sdkc_ir_to_json(sdkc_compiled_ir(c), &json, &len), SDKC_OK);
    ck_assert_ptr_nonnull(strstr(json, "\"alternatives\": [\n"));
    ck_assert_ptr_nonnull(strstr(json, "\"allow_reserved\": true"));
    sdkc_compiled *back = NULL;
    ck_assert_int_eq(sdkc_ir_from_json(&back, "wire.ir.json", json, len, diag), SDKC_OK);
    check_ir(sdkc_compiled_ir(back));
    ck_assert_int_eq(sdkc_ir_to_json(sdkc_compiled_ir(back), &again, &len2), SDKC_OK);
    ck_assert_uint_eq(len, len2);
    ck_assert(memcmp(json, again, len) == 0);
    free(json);
    free(again);
    sdkc_compiled_free(back);
    sdkc_compiled_free(c);
    sdkc_diag_free(diag);
}
END_TEST

START_TEST(test_body_alternative_with_own_schema_warns)
{
    static const char yaml[] =
        "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /x:\n    post:\n"
        "      operationId: x\n      requestBody:\n        content:\n"
        "          application/json: {schema: {type: object}}\n"
        "          text/plain: {schema: {type: string}}\n"
        "      responses: {'204': {description: none}}\n";
    sdkc_diag *diag = NULL;
    sdkc_doc *doc = NULL;
    sdkc_compiled *c = NULL;
    ck_assert_int_eq(sdkc_diag_new(&diag), SDKC_OK);
    ck_assert_int_eq(sdkc_doc_load_buffer(&doc, "x.yaml", yaml, sizeof yaml - 1, diag), SDKC_OK);
    ck_assert_int_eq(sdkc_compile(&c, doc, NULL, diag), SDKC_OK);
    ck_assert_uint_eq(sdkc_diag_warnings(diag), 1);
    ck_assert_uint_eq(sdkc_compiled_ir(c)->ops[0].body->nalternatives, 0);
    sdkc_compiled_free(c);
    sdkc_doc_free(doc);
    sdkc_diag_free(diag);
}
END_TEST

/* Compile yaml text; *warnings gets the warning count. */
static sdkc_compiled *compile_text(const char *yaml, size_t *warnings)
{
    sdkc_diag *diag = NULL;
    sdkc_doc *doc = NULL;
    sdkc_compiled *c = NULL;
    ck_assert_int_eq(sdkc_diag_new(&diag), SDKC_OK);
    ck_assert_int_eq(sdkc_doc_load_buffer(&doc, "x.yaml", yaml, strlen(yaml), diag), SDKC_OK);
    sdkc_status st = sdkc_compile(&c, doc, NULL, diag);
    if (st != SDKC_OK)
        sdkc_diag_print(diag, stderr, false);
    ck_assert_int_eq(st, SDKC_OK);
    *warnings = sdkc_diag_warnings(diag);
    sdkc_doc_free(doc);
    sdkc_diag_free(diag);
    return c;
}

START_TEST(test_fragment_ranges_and_reserved_headers)
{
    static const char yaml[] =
        "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n"
        "  /#X-Amz-Target=Svc.Op:\n    post:\n      operationId: op\n"
        "      parameters:\n"
        "        - {name: Accept, in: header, schema: {type: string}}\n"
        "        - {name: content-type, in: header, required: true, schema: {type: string}}\n"
        "        - {name: Authorization, in: header, required: true, schema: {type: string}}\n"
        "        - {name: X-Amz-Target, in: header, required: true,\n"
        "           schema: {type: string, enum: [Svc.Op]}}\n"
        "      responses:\n"
        "        '200':\n          description: ok\n          content:\n"
        "            '*/*': {schema: {type: object, properties: {a: {type: integer},\n"
        "                     b: {type: string, readOnly: true}, c: {writeOnly: true}}}}\n"
        "  /archive:\n    get:\n      operationId: archive\n      responses:\n"
        "        '404': {description: none}\n"
        "        '302': {description: the archive's location}\n"
        "        '301': {description: moved}\n"
        "  /blob:\n    get:\n      operationId: blob\n      responses:\n"
        "        '200':\n          description: ok\n          content:\n"
        "            '*/*': {schema: {type: string, format: binary}}\n";
    size_t warnings = 0;
    sdkc_compiled *c = compile_text(yaml, &warnings);
    const sdkc_ir *ir = sdkc_compiled_ir(c);
    const sdkc_operation *op = sdkc_ir_operation(ir, "op");
    ck_assert_str_eq(op->path, "/");
    ck_assert_str_eq(op->fragment, "X-Amz-Target=Svc.Op");
    /* Accept and Content-Type are ignored (OpenAPI; two warnings, the third is archive's);
       Authorization is kept, as the contract declares no security scheme that would send it */
    ck_assert_uint_eq(warnings, 3);
    /* no 2xx and no default: the lowest redirect is the success, the others stay errors */
    const sdkc_operation *archive = sdkc_ir_operation(ir, "archive");
    ck_assert_int_eq(archive->success.status, 301);
    ck_assert_int_eq(archive->success.encoding, SDKC_ENC_NONE);
    ck_assert_uint_eq(archive->nerrors, 2);
    ck_assert_int_eq(archive->errors[0].status, 302);
    ck_assert_int_eq(archive->errors[1].status, 404);
    ck_assert_uint_eq(op->nparams, 2);
    ck_assert_str_eq(op->params[0].wire_name, "Authorization");
    ck_assert_str_eq(op->params[1].wire_name, "X-Amz-Target");
    /* an object under a media range is JSON; a binary string stays bytes */
    ck_assert_int_eq(op->success.encoding, SDKC_ENC_JSON);
    ck_assert_str_eq(op->success.content_type, "*/*");
    ck_assert_int_eq(sdkc_ir_operation(ir, "blob")->success.encoding, SDKC_ENC_BYTES);
    ck_assert_ptr_null(sdkc_ir_operation(ir, "blob")->fragment);

    char *json = NULL;
    size_t len = 0;
    ck_assert_int_eq(sdkc_ir_to_json(ir, &json, &len), SDKC_OK);
    ck_assert_ptr_nonnull(strstr(json, "\"fragment\": \"X-Amz-Target=Svc.Op\""));
    const sdkc_type *res = op->success.type;
    ck_assert_uint_eq(res->u.object.nfields, 3);
    ck_assert(!res->u.object.fields[0].read_only && !res->u.object.fields[0].write_only);
    ck_assert(res->u.object.fields[1].read_only && !res->u.object.fields[1].write_only);
    ck_assert(res->u.object.fields[2].write_only);
    ck_assert_ptr_nonnull(strstr(json, "\"read_only\": true"));
    ck_assert_ptr_nonnull(strstr(json, "\"write_only\": true"));
    sdkc_diag *diag = NULL;
    sdkc_compiled *back = NULL;
    ck_assert_int_eq(sdkc_diag_new(&diag), SDKC_OK);
    ck_assert_int_eq(sdkc_ir_from_json(&back, "x.ir.json", json, len, diag), SDKC_OK);
    ck_assert_str_eq(sdkc_ir_operation(sdkc_compiled_ir(back), "op")->fragment,
                     "X-Amz-Target=Svc.Op");
    const sdkc_type *res2 = sdkc_ir_operation(sdkc_compiled_ir(back), "op")->success.type;
    ck_assert(res2->u.object.fields[1].read_only && res2->u.object.fields[2].write_only);
    free(json);
    sdkc_compiled_free(back);
    sdkc_diag_free(diag);
    sdkc_compiled_free(c);

    /* with a declared scheme, an Authorization parameter is ignored too */
    static const char with_scheme[] =
        "openapi: 3.0.3\ninfo: {title: t, version: '1'}\n"
        "components:\n  securitySchemes:\n    token: {type: http, scheme: bearer}\n"
        "    key: {type: apiKey, in: header, name: X-Key}\n"
        "    id: {type: apiKey, in: query, name: client_id}\n"
        "security: [{token: []}, {key: [], id: []}, {token: []}]\n"
        "paths:\n  /x:\n    get:\n      operationId: x\n"
        "      parameters:\n"
        "        - {name: Authorization, in: header, required: true, schema: {type: string}}\n"
        "      responses: {'204': {description: none}}\n";
    c = compile_text(with_scheme, &warnings);
    ck_assert_uint_eq(warnings, 1);
    op = sdkc_ir_operation(sdkc_compiled_ir(c), "x");
    ck_assert_uint_eq(op->nparams, 0);
    /* [token] or [key + id] (sent together); the repeated [token] adds nothing */
    ck_assert_uint_eq(op->nsecurity, 3);
    ck_assert_str_eq(op->security[0]->name, "token");
    ck_assert_str_eq(op->security[1]->name, "key");
    ck_assert_str_eq(op->security[2]->name, "id");
    ck_assert_ptr_nonnull(op->security_with_previous);
    ck_assert(!op->security_with_previous[0] && !op->security_with_previous[1]);
    ck_assert(op->security_with_previous[2]);
    ck_assert_int_eq(sdkc_ir_to_json(sdkc_compiled_ir(c), &json, &len), SDKC_OK);
    ck_assert_ptr_nonnull(strstr(json, "\"security\": [\n"));
    ck_assert_int_eq(sdkc_diag_new(&diag), SDKC_OK);
    ck_assert_int_eq(sdkc_ir_from_json(&back, "x.ir.json", json, len, diag), SDKC_OK);
    const sdkc_operation *again = sdkc_ir_operation(sdkc_compiled_ir(back), "x");
    ck_assert_uint_eq(again->nsecurity, 3);
    ck_assert(again->security_with_previous && again->security_with_previous[2] &&
              !again->security_with_previous[1]);
    char *json2 = NULL;
    size_t len2 = 0;
    ck_assert_int_eq(sdkc_ir_to_json(sdkc_compiled_ir(back), &json2, &len2), SDKC_OK);
    ck_assert_uint_eq(len, len2);
    ck_assert(memcmp(json, json2, len) == 0);
    free(json);
    free(json2);
    sdkc_compiled_free(back);
    sdkc_diag_free(diag);
    sdkc_compiled_free(c);
}
END_TEST

/* IR JSON written, read back and written again gives the same bytes. */
static void round_trips(const sdkc_compiled *c)
{
    char *json = NULL, *json2 = NULL;
    size_t len = 0, len2 = 0;
    sdkc_diag *diag = NULL;
    sdkc_compiled *back = NULL;
    ck_assert_int_eq(sdkc_diag_new(&diag), SDKC_OK);
    ck_assert_int_eq(sdkc_ir_to_json(sdkc_compiled_ir(c), &json, &len), SDKC_OK);
    ck_assert_int_eq(sdkc_ir_from_json(&back, "x.ir.json", json, len, diag), SDKC_OK);
    ck_assert_int_eq(sdkc_ir_to_json(sdkc_compiled_ir(back), &json2, &len2), SDKC_OK);
    ck_assert_uint_eq(len, len2);
    ck_assert(memcmp(json, json2, len) == 0);
    free(json);
    free(json2);
    sdkc_compiled_free(back);
    sdkc_diag_free(diag);
}

/* What a response declares besides its body, and facts of types: in the IR and its JSON. */
START_TEST(test_response_and_type_facts)
{
    static const char yaml[] =
        "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /w:\n    get:\n"
        "      operationId: w.list\n      responses:\n        '200':\n"
        "          description: ok\n          headers:\n"
        "            X-Count: {$ref: '#/components/headers/Count'}\n"
        "            X-Note: {description: a note, schema: {type: string}}\n"
        "            X-Gone: {$ref: '#/components/headers/Missing'}\n"
        "          content:\n            application/xml: {schema: {type: string}}\n"
        "            application/json: {schema: {$ref: '#/components/schemas/W'}}\n"
        "          links:\n"
        "            One: {operationId: w.get, parameters: {id: '$response.body#/id', "
        "path.k: 3}}\n"
        "            ByRef: {operationRef: '#/paths/~1w/get'}\n"
        "        '404': {description: none}\n"
        "components:\n  headers:\n    Count: {required: true, schema: {type: integer}}\n"
        "  schemas:\n    W:\n      allOf:\n"
        "        - type: object\n          required: [id]\n          properties:\n"
        "            id: {type: string}\n"
        "            tags: {type: object, properties: {a: {type: string}}}\n"
        "        - {required: [extra, id, extra]}\n"
        "    Loose: {items: {type: string}}\n"
        "    Set: {type: array, uniqueItems: true, items: {type: string}}\n"
        "    Bag: {type: array, uniqueItems: false, items: {type: string}}\n";
    size_t warnings = 0;
    sdkc_compiled *c = compile_text(yaml, &warnings);
    const sdkc_ir *ir = sdkc_compiled_ir(c);
    const sdkc_operation *op = sdkc_ir_operation(ir, "w.list");
    ck_assert_ptr_nonnull(op);
    const sdkc_response_info *ri = &op->success.response;
    ck_assert_str_eq(op->success.content_type, "application/json");
    ck_assert_uint_eq(ri->nmedia_types, 2);
    ck_assert_str_eq(ri->media_types[0], "application/xml");
    ck_assert_str_eq(ri->media_types[1], "application/json");
    /* a broken header $ref leaves that header out */
    ck_assert_uint_eq(ri->nheaders, 2);
    ck_assert_str_eq(ri->headers[0].name, "X-Count");
    ck_assert(ri->headers[0].required);
    ck_assert_str_eq(ri->headers[1].name, "X-Note");
    ck_assert(!ri->headers[1].required);
    ck_assert_str_eq(ri->headers[1].docs, "a note");
    /* links by operationRef are not kept */
    ck_assert_uint_eq(ri->nlinks, 1);
    ck_assert_str_eq(ri->links[0].name, "One");
    ck_assert_str_eq(ri->links[0].operation_id, "w.get");
    ck_assert_uint_eq(ri->links[0].nparams, 2);
    ck_assert_str_eq(ri->links[0].params[0].name, "id");
    ck_assert_str_eq(ri->links[0].params[0].value, "$response.body#/id");
    ck_assert_str_eq(ri->links[0].params[1].name, "path.k");
    ck_assert_str_eq(ri->links[0].params[1].value, "3");
    ck_assert_uint_eq(op->nerrors, 1);
    ck_assert_uint_eq(op->errors[0].response.nmedia_types, 0);
    ck_assert_uint_eq(op->errors[0].response.nheaders, 0);
    const sdkc_type *w = sdkc_ir_type(ir, "W");
    const sdkc_type *loose = sdkc_ir_type(ir, "Loose");
    ck_assert_ptr_nonnull(w);
    ck_assert_ptr_nonnull(loose);
    ck_assert(w->declared && loose->declared);
    ck_assert(loose->inferred && !w->inferred);
    const sdkc_type *set = sdkc_ir_type(ir, "Set"), *bag = sdkc_ir_type(ir, "Bag");
    ck_assert_ptr_nonnull(set);
    ck_assert_ptr_nonnull(bag);
    ck_assert(set->u.array.unique_items && !bag->u.array.unique_items);
    ck_assert(!loose->u.array.unique_items);
    ck_assert_uint_eq(w->u.object.nrequired_only, 1);
    ck_assert_str_eq(w->u.object.required_only[0], "extra");
    /* the inline `tags` object is named by the compiler, not declared */
    size_t made_up = 0;
    for (size_t i = 0; i < ir->ntypes; i++)
        made_up += !ir->types[i]->declared;
    ck_assert_uint_eq(made_up, 1);
    char *json = NULL;
    size_t len = 0;
    ck_assert_int_eq(sdkc_ir_to_json(ir, &json, &len), SDKC_OK);
    ck_assert_ptr_nonnull(strstr(json, "\"unique_items\": true"));
    ck_assert_ptr_null(strstr(json, "\"unique_items\": false")); /* false is left out */
    free(json);
    round_trips(c);
    sdkc_compiled_free(c);
}
END_TEST

/* Every declared 2xx is a success with its own type; 2XX besides an exact one too. */
START_TEST(test_several_successes)
{
    static const char yaml[] =
        "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /r:\n    post:\n"
        "      operationId: reactions.create\n      responses:\n"
        "        '201': {description: new, content: {application/json: {schema: "
        "{$ref: '#/components/schemas/Reaction'}}}}\n"
        "        '200': {description: there, content: {application/json: {schema: "
        "{$ref: '#/components/schemas/Reaction'}}}}\n"
        "        '2XX': {description: other}\n"
        "        '202': {description: queued, content: {application/json: {schema: "
        "{type: object, properties: {data: {type: string}}, required: [data]}}}}\n"
        "        '404': {description: gone}\n"
        "components:\n  schemas:\n    Reaction: {type: object, properties: {id: {type: "
        "integer}}}\n";
    size_t warnings = 0;
    sdkc_compiled *c = compile_text(yaml, &warnings);
    ck_assert_uint_eq(warnings, 0);
    const sdkc_operation *op = &sdkc_compiled_ir(c)->ops[0];
    ck_assert_int_eq(op->success.status, 200);
    ck_assert_str_eq(op->success.type->name, "Reaction");
    ck_assert_uint_eq(op->nmore_successes, 3);
    ck_assert_int_eq(op->more_successes[0].status, 201);
    ck_assert_ptr_eq(op->more_successes[0].type, op->success.type);
    ck_assert_int_eq(op->more_successes[1].status, 202);
    ck_assert_str_eq(op->more_successes[1].unwrap, "data");
    ck_assert_int_eq(op->more_successes[1].result->kind, SDKC_TYPE_STRING);
    ck_assert_int_eq(op->more_successes[2].status, 2);
    ck_assert_int_eq(op->more_successes[2].encoding, SDKC_ENC_NONE);
    ck_assert_uint_eq(op->nerrors, 1);
    round_trips(c);
    sdkc_compiled_free(c);
}
END_TEST

/* JSON and text/event-stream in one response: the JSON is the success, the stream a variant. */
START_TEST(test_stream_variant)
{
    static const char yaml[] =
        "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /chat:\n    post:\n"
        "      operationId: chat.create\n"
        "      requestBody: {content: {application/json: {schema: {type: object, properties: "
        "{stream: {type: [boolean, 'null']}}}}}}\n"
        "      responses:\n        '200':\n          description: ok\n          content:\n"
        "            application/json: {schema: {$ref: '#/components/schemas/Completion'}}\n"
        "            text/event-stream: {schema: {$ref: '#/components/schemas/Chunk'}}\n"
        "  /raw:\n    get:\n      operationId: raw.get\n      responses:\n        '200':\n"
        "          description: ok\n          content:\n"
        "            application/json: {schema: {type: string}}\n"
        "            text/event-stream: {}\n"
        "components:\n  schemas:\n"
        "    Completion: {type: object, properties: {id: {type: string}}}\n"
        "    Chunk: {type: object, properties: {delta: {type: string}}}\n";
    size_t warnings = 0;
    sdkc_compiled *c = compile_text(yaml, &warnings);
    ck_assert_uint_eq(warnings, 1); /* raw.get: no event schema */
    const sdkc_ir *ir = sdkc_compiled_ir(c);
    const sdkc_operation *op = sdkc_ir_operation(ir, "chat.create");
    ck_assert_int_eq(op->success.encoding, SDKC_ENC_JSON);
    ck_assert_str_eq(op->success.type->name, "Completion");
    ck_assert_ptr_null(op->stream);
    ck_assert_ptr_nonnull(op->stream_variant);
    ck_assert_str_eq(op->stream_variant->item->name, "Chunk");
    /* the body's boolean `stream` selects the stream: the stream form sets it */
    ck_assert_str_eq(op->stream_flag, "stream");
    op = sdkc_ir_operation(ir, "raw.get");
    ck_assert_ptr_nonnull(op->stream_variant);
    ck_assert_ptr_null(op->stream_flag);
    ck_assert_int_eq(op->stream_variant->item->kind, SDKC_TYPE_ANY);
    round_trips(c);
    char *json = NULL;
    size_t len = 0;
    ck_assert_int_eq(sdkc_ir_to_json(ir, &json, &len), SDKC_OK);
    ck_assert_ptr_nonnull(strstr(json, "\"stream_flag\": \"stream\""));
    free(json);
    sdkc_compiled_free(c);
}
END_TEST

/* No declared scheme: the IR says auth is unspecified (clients send their credentials on every
 * operation), warned once when operations answer 401/403; declared schemes: not set. */
START_TEST(test_auth_unspecified)
{
    static const char silent[] =
        "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n"
        "  /a:\n    get:\n      operationId: a\n      responses: {'204': {description: ok}, "
        "'401': {description: no}}\n"
        "  /b:\n    get:\n      operationId: b\n      responses: {'204': {description: ok}, "
        "'403': {description: no}}\n"
        "  /c:\n    get:\n      operationId: c\n      responses: {'204': {description: ok}}\n";
    size_t warnings = 0;
    sdkc_compiled *c = compile_text(silent, &warnings);
    ck_assert_uint_eq(warnings, 1);
    ck_assert(sdkc_compiled_ir(c)->auth_unspecified);
    round_trips(c);
    sdkc_compiled_free(c);

    static const char declared[] =
        "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n"
        "  /a:\n    get:\n      operationId: a\n      responses: {'204': {description: ok}, "
        "'401': {description: no}}\n"
        "components:\n  securitySchemes:\n    k: {type: apiKey, in: header, name: X-Key}\n";
    c = compile_text(declared, &warnings);
    ck_assert_uint_eq(warnings, 0);
    ck_assert(!sdkc_compiled_ir(c)->auth_unspecified);
    sdkc_compiled_free(c);
}
END_TEST

/* An empty requirement ({}) among others: credentials optional, the others still listed. */
START_TEST(test_security_optional)
{
    static const char yaml[] =
        "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n"
        "  /a:\n    get:\n      operationId: a\n      security: [{}, {k: []}]\n"
        "      responses: {'204': {description: ok}}\n"
        "  /b:\n    get:\n      operationId: b\n      responses: {'204': {description: ok}}\n"
        "security: [{k: []}]\n"
        "components:\n  securitySchemes:\n    k: {type: apiKey, in: header, name: X-Key}\n";
    size_t warnings = 0;
    sdkc_compiled *c = compile_text(yaml, &warnings);
    const sdkc_ir *ir = sdkc_compiled_ir(c);
    const sdkc_operation *a = sdkc_ir_operation(ir, "a"), *b = sdkc_ir_operation(ir, "b");
    ck_assert(a->security_optional);
    ck_assert_uint_eq(a->nsecurity, 1);
    ck_assert_str_eq(a->security[0]->name, "k");
    ck_assert(!b->security_optional);
    ck_assert_uint_eq(b->nsecurity, 1);
    round_trips(c);
    sdkc_compiled_free(c);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("wire_ir");
    TCase *tc = tcase_create("wire_ir");
    tcase_add_test(tc, test_wire_ir);
    tcase_add_test(tc, test_body_alternative_with_own_schema_warns);
    tcase_add_test(tc, test_fragment_ranges_and_reserved_headers);
    tcase_add_test(tc, test_several_successes);
    tcase_add_test(tc, test_response_and_type_facts);
    tcase_add_test(tc, test_stream_variant);
    tcase_add_test(tc, test_auth_unspecified);
    tcase_add_test(tc, test_security_optional);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
