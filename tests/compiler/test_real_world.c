/* test_real_world.c - constructs that public contracts (the APIs-guru directory) use and that
 * the compiler must accept: extension keys anywhere, query strings in path templates, C1
 * control characters in JSON strings, 3.1 operations without responses, allOf merging. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sdkc/doc.h"
#include "sdkc/ir.h"
#include "sdkc/compile.h"
#include "sdkc/ir_json.h"

#define DATA SDKC_SOURCE_DIR "/tests/compiler/data/compile/real/"

/* Compile path, expecting success with no errors; *d keeps the diagnostics. */
static sdkc_compiled *compile_ok(const char *path, sdkc_diag **d)
{
    ck_assert_int_eq(sdkc_diag_new(d), SDKC_OK);
    sdkc_compiled *c = NULL;
    sdkc_status st = sdkc_compile_file(&c, path, NULL, *d);
    if (st != SDKC_OK || sdkc_diag_errors(*d) > 0)
        sdkc_diag_print(*d, stderr, false);
    ck_assert_int_eq(st, SDKC_OK);
    ck_assert_uint_eq(sdkc_diag_errors(*d), 0);
    ck_assert_ptr_nonnull(c);
    return c;
}

/* Does some diagnostic of severity sev contain text? */
static bool has_diag(const sdkc_diag *d, sdkc_severity sev, const char *text)
{
    for (size_t i = 0; i < sdkc_diag_count(d); i++) {
        const sdkc_diag_entry *e = sdkc_diag_get(d, i);
        if (e->severity == sev && strstr(e->message, text))
            return true;
    }
    return false;
}

/* ---- 1. extension keys ---- */

START_TEST(extension_keys_ignored)
{
    sdkc_diag *d = NULL;
    sdkc_compiled *c = compile_ok(DATA "extensions.yaml", &d);
    if (sdkc_diag_warnings(d) > 0)
        sdkc_diag_print(d, stderr, false);
    ck_assert_uint_eq(sdkc_diag_warnings(d), 0);
    const sdkc_ir *ir = sdkc_compiled_ir(c);
    ck_assert_uint_eq(ir->nops, 1);
    const sdkc_operation *op = sdkc_ir_operation(ir, "items.get");
    ck_assert_ptr_nonnull(op);
    ck_assert_str_eq(op->path, "/items/{id}");
    ck_assert_uint_eq(op->nparams, 1);
    ck_assert_int_eq(op->success.status, 200);
    ck_assert_ptr_nonnull(op->success.type);
    ck_assert_str_eq(op->success.type->name, "Item");
    ck_assert_uint_eq(op->nerrors, 0);
    ck_assert_uint_eq(ir->nschemes, 1);
    ck_assert_str_eq(ir->schemes[0].name, "key");
    sdkc_compiled_free(c);
    sdkc_diag_free(d);
}
END_TEST

/* ---- 2. query strings in path templates ---- */

static void want_param(const sdkc_param *p, const char *wire, sdkc_param_in in, bool required,
                       sdkc_type_kind kind)
{
    ck_assert_str_eq(p->wire_name, wire);
    ck_assert_int_eq(p->in, in);
    ck_assert_int_eq(p->required, required);
    ck_assert_ptr_nonnull(p->type);
    ck_assert_int_eq(p->type->kind, kind);
}

START_TEST(query_string_in_path)
{
    sdkc_diag *d = NULL;
    sdkc_compiled *c = compile_ok(DATA "query_in_path.yaml", &d);
    const sdkc_ir *ir = sdkc_compiled_ir(c);

    /* a templated value: the path parameter is sent in the query */
    const sdkc_operation *op = sdkc_ir_operation(ir, "uploads.create");
    ck_assert_str_eq(op->path, "/uploads");
    ck_assert_uint_eq(op->nparams, 1);
    want_param(&op->params[0], "convert", SDKC_PARAM_QUERY, true, SDKC_TYPE_BOOLEAN);
    ck_assert_int_eq(op->params[0].style, SDKC_STYLE_FORM);

    /* a fixed pair: a required literal query parameter; a templated one declared in the query */
    op = sdkc_ir_operation(ir, "x.list");
    ck_assert_str_eq(op->path, "/x");
    ck_assert_uint_eq(op->nparams, 3);
    want_param(&op->params[0], "action", SDKC_PARAM_QUERY, true, SDKC_TYPE_LITERAL);
    ck_assert_str_eq(op->params[0].type->u.literal.text, "list");
    want_param(&op->params[1], "mode", SDKC_PARAM_QUERY, false, SDKC_TYPE_STRING);
    want_param(&op->params[2], "limit", SDKC_PARAM_QUERY, false, SDKC_TYPE_INTEGER);

    /* a fixed pair the operation also declares (as that literal): no warning; percent-decoded */
    op = sdkc_ir_operation(ir, "y.describe");
    ck_assert_str_eq(op->path, "/y/{id}");
    ck_assert_uint_eq(op->nparams, 4);
    want_param(&op->params[0], "id", SDKC_PARAM_PATH, true, SDKC_TYPE_STRING);
    want_param(&op->params[1], "Action", SDKC_PARAM_QUERY, true, SDKC_TYPE_LITERAL);
    want_param(&op->params[2], "Version", SDKC_PARAM_QUERY, true, SDKC_TYPE_LITERAL);
    ck_assert_str_eq(op->params[2].type->u.literal.text, "2016-11-15");
    ck_assert_str_eq(op->params[3].type->u.literal.text, "a b");

    /* what cannot be represented is a warning at the path key, not silence and not an error */
    op = sdkc_ir_operation(ir, "z.get");
    ck_assert_str_eq(op->path, "/z");
    ck_assert_uint_eq(op->nparams, 0);
    ck_assert_uint_eq(sdkc_diag_warnings(d), 2);
    const sdkc_diag_entry *e0 = sdkc_diag_get(d, 0), *e1 = sdkc_diag_get(d, 1);
    ck_assert_uint_eq(e0->loc.line, 24);
    ck_assert_uint_eq(e0->loc.col, 3);
    ck_assert_ptr_nonnull(strstr(e0->message, "'flag'"));
    ck_assert_ptr_nonnull(strstr(e0->message, "a key without a value"));
    ck_assert_ptr_nonnull(strstr(e1->message, "'k=pre{v}'"));
    ck_assert_ptr_nonnull(strstr(e1->message, "not sent"));

    /* the IR JSON round-trips */
    char *json = NULL;
    size_t len = 0;
    ck_assert_int_eq(sdkc_ir_to_json(ir, &json, &len), SDKC_OK);
    sdkc_compiled *back = NULL;
    ck_assert_int_eq(sdkc_ir_from_json(&back, "x.json", json, len, d), SDKC_OK);
    ck_assert_str_eq(sdkc_ir_operation(sdkc_compiled_ir(back), "x.list")->params[0].wire_name,
                     "action");
    sdkc_compiled_free(back);
    free(json);
    sdkc_compiled_free(c);
    sdkc_diag_free(d);
}
END_TEST

/* ---- 3. C1 controls and other characters JSON allows in strings ---- */

START_TEST(json_c1_controls_accepted)
{
    sdkc_diag *d = NULL;
    ck_assert_int_eq(sdkc_diag_new(&d), SDKC_OK);
    sdkc_doc *doc = NULL;
    sdkc_status st = sdkc_doc_load_file(&doc, DATA "c1_controls.json", d);
    if (st != SDKC_OK)
        sdkc_diag_print(d, stderr, false);
    ck_assert_int_eq(st, SDKC_OK);
    const sdkc_node *info = sdkc_node_get(sdkc_doc_root(doc), "info");
    const sdkc_node *desc = sdkc_node_get(info, "description");
    /* U+0080, U+009F, U+0085 (NEL), U+2028 (LS), DEL, U+FFFF: kept as written, not folded */
    static const char want[] = "a\xC2\x80"
                               "b\xC2\x9F"
                               "c\xC2\x85"
                               "d\xE2\x80\xA8"
                               "e\x7F"
                               "f\xEF\xBF\xBF"
                               "g";
    ck_assert_uint_eq(desc->len, sizeof want - 1);
    ck_assert_mem_eq(desc->str, want, sizeof want - 1);
    /* positions after them on the same line are those of the original text */
    const sdkc_node *after = NULL;
    for (size_t i = 0; i < info->npairs; i++)
        if (strcmp(info->pairs[i].key->str, "x-after") == 0)
            after = info->pairs[i].key;
    ck_assert_ptr_nonnull(after);
    ck_assert_uint_eq(after->loc.line, 2);
    ck_assert_uint_eq(after->loc.col, 74);
    sdkc_doc_free(doc);

    /* and the contract compiles */
    sdkc_compiled *c = NULL;
    ck_assert_int_eq(sdkc_compile_file(&c, DATA "c1_controls.json", NULL, d), SDKC_OK);
    ck_assert_str_eq(sdkc_ir_operation(sdkc_compiled_ir(c), "a.get")->summary, "s\xC2\x99");
    sdkc_compiled_free(c);
    sdkc_diag_free(d);
}
END_TEST

/* ---- 4. operations without responses ---- */

START_TEST(responses_optional_in_31)
{
    sdkc_diag *d = NULL;
    sdkc_compiled *c = compile_ok(DATA "no_responses_31.yaml", &d);
    ck_assert_uint_eq(sdkc_diag_warnings(d), 0);
    const sdkc_operation *op = sdkc_ir_operation(sdkc_compiled_ir(c), "ping.send");
    ck_assert_ptr_nonnull(op);
    ck_assert_int_eq(op->success.status, 0);
    ck_assert_int_eq(op->success.encoding, SDKC_ENC_NONE);
    ck_assert_ptr_null(op->success.type);
    ck_assert_uint_eq(op->nerrors, 0);
    ck_assert_ptr_nonnull(op->body);
    op = sdkc_ir_operation(sdkc_compiled_ir(c), "pong.get");
    ck_assert_int_eq(op->success.status, 200);
    sdkc_compiled_free(c);
    sdkc_diag_free(d);

    /* 3.0 requires it: a warning at the operation, still compiled the same way */
    c = compile_ok(DATA "no_responses_30.yaml", &d);
    ck_assert_uint_eq(sdkc_diag_warnings(d), 1);
    const sdkc_diag_entry *e = sdkc_diag_get(d, 0);
    ck_assert_uint_eq(e->loc.line, 6);
    ck_assert_uint_eq(e->loc.col, 7);
    ck_assert_ptr_nonnull(strstr(e->message, "no 'responses' (required in OpenAPI 3.0)"));
    op = sdkc_ir_operation(sdkc_compiled_ir(c), "ping.send");
    ck_assert_int_eq(op->success.status, 0);
    ck_assert_int_eq(op->success.encoding, SDKC_ENC_NONE);
    sdkc_compiled_free(c);
    sdkc_diag_free(d);
}
END_TEST

/* ---- 5. allOf merged ---- */

static const sdkc_field *field(const sdkc_type *t, const char *name)
{
    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(t->kind, SDKC_TYPE_OBJECT);
    for (size_t i = 0; i < t->u.object.nfields; i++)
        if (strcmp(t->u.object.fields[i].wire_name, name) == 0)
            return &t->u.object.fields[i];
    ck_abort_msg("no field '%s' in %s", name, t->name);
    return NULL;
}

START_TEST(all_of_merged)
{
    sdkc_diag *d = NULL;
    sdkc_compiled *c = compile_ok(DATA "allof.yaml", &d);
    const sdkc_ir *ir = sdkc_compiled_ir(c);
    /* objects, nested allOf, a $ref with siblings, constraint-only members */
    const sdkc_type *pet = sdkc_ir_type(ir, "Pet");
    ck_assert_int_eq(pet->kind, SDKC_TYPE_OBJECT);
    ck_assert_uint_eq(pet->u.object.nfields, 5);
    ck_assert(field(pet, "id")->required);
    ck_assert(field(pet, "name")->required); /* from `{required: [name]}` */
    ck_assert(!field(pet, "size")->required);
    ck_assert_int_eq(field(pet, "size")->type->kind, SDKC_TYPE_INTEGER);
    const sdkc_type *owner = field(pet, "owner")->type;
    ck_assert_int_eq(owner->kind, SDKC_TYPE_NULLABLE); /* `$ref` + `nullable: true` */
    ck_assert_ptr_eq(owner->u.nullable.inner, sdkc_ir_type(ir, "Owner"));
    ck_assert_ptr_eq(field(pet, "status")->type, sdkc_ir_type(ir, "Status"));
    /* scalars with constraints */
    const sdkc_type *s = sdkc_ir_type(ir, "ShortString");
    ck_assert_int_eq(s->kind, SDKC_TYPE_STRING);
    ck_assert(s->u.str.has_max_length && s->u.str.max_length == 10);
    ck_assert(s->u.str.has_min_length && s->u.str.min_length == 1);
    ck_assert_str_eq(s->u.str.pattern, "^[a-z]");
    const sdkc_type *n = sdkc_ir_type(ir, "Count");
    ck_assert_int_eq(n->kind, SDKC_TYPE_INTEGER);
    ck_assert_str_eq(n->u.num.format, "int32");
    ck_assert(n->u.num.has_minimum && n->u.num.minimum == 1);
    ck_assert_int_eq(sdkc_ir_type(ir, "Label")->kind, SDKC_TYPE_STRING);
    /* one property declared with two types: that property only falls back, with a warning */
    const sdkc_type *clash = sdkc_ir_type(ir, "Clash");
    ck_assert_uint_eq(clash->u.object.nfields, 3);
    ck_assert_int_eq(field(clash, "size")->type->kind, SDKC_TYPE_ANY);
    ck_assert_ptr_nonnull(field(clash, "size")->type->u.any.fallback_reason);
    ck_assert_int_eq(field(clash, "extra")->type->kind, SDKC_TYPE_BOOLEAN);
    ck_assert_int_eq(field(clash, "id")->type->kind, SDKC_TYPE_STRING);
    /* compatible declarations of one property merge */
    const sdkc_field *size = field(sdkc_ir_type(ir, "Refined"), "size");
    ck_assert_int_eq(size->type->kind, SDKC_TYPE_INTEGER);
    ck_assert(size->type->u.num.has_minimum);
    /* a union beside a scalar it admits narrows to that scalar */
    ck_assert_int_eq(field(sdkc_ir_type(ir, "Stamped"), "at")->type->kind, SDKC_TYPE_STRING);
    const sdkc_type *nw = sdkc_ir_type(ir, "Narrowed");
    ck_assert_int_eq(nw->kind, SDKC_TYPE_STRING);
    ck_assert(nw->u.str.has_max_length && nw->u.str.max_length == 3);
    /* an object and a string: the whole schema falls back */
    ck_assert_int_eq(sdkc_ir_type(ir, "Broken")->kind, SDKC_TYPE_ANY);
    ck_assert_uint_eq(sdkc_diag_warnings(d), 2);
    const sdkc_diag_entry *e = sdkc_diag_get(d, 0);
    ck_assert_ptr_nonnull(strstr(e->message, "property 'size' has conflicting types in 'allOf' "
                                             "members (integer and string)"));
    ck_assert_uint_eq(e->loc.line, 72);
    ck_assert_uint_eq(e->loc.col, 19);
    e = sdkc_diag_get(d, 1);
    ck_assert_ptr_nonnull(strstr(e->message, "incompatible types (object and string)"));
    ck_assert_uint_eq(e->loc.line, 99);
    sdkc_compiled_free(c);
    sdkc_diag_free(d);
}
END_TEST

/* ---- 6. properties plus anyOf/oneOf of `required` lists ---- */

START_TEST(props_with_required_alternatives)
{
    sdkc_diag *d = NULL;
    sdkc_compiled *c = compile_ok(DATA "props_anyof_required.yaml", &d);
    ck_assert_uint_eq(sdkc_diag_warnings(d), 0);
    const sdkc_ir *ir = sdkc_compiled_ir(c);
    const sdkc_type *t = sdkc_ir_type(ir, "Either");
    ck_assert_uint_eq(t->u.object.nfields, 2);
    ck_assert_int_eq(field(t, "a")->type->kind, SDKC_TYPE_STRING);
    ck_assert_int_eq(field(t, "b")->type->kind, SDKC_TYPE_INTEGER);
    ck_assert(!field(t, "a")->required);
    t = sdkc_ir_type(ir, "OneOfUntyped");
    ck_assert_uint_eq(t->u.object.nfields, 2);
    ck_assert_int_eq(sdkc_ir_type(ir, "Bounded")->kind, SDKC_TYPE_STRING);
    sdkc_compiled_free(c);
    sdkc_diag_free(d);
}
END_TEST

/* ---- 7. default and NXX responses ---- */

START_TEST(default_and_ranges_are_errors)
{
    sdkc_diag *d = NULL;
    sdkc_compiled *c = compile_ok(DATA "responses.yaml", &d);
    ck_assert_uint_eq(sdkc_diag_warnings(d), 0);
    const sdkc_ir *ir = sdkc_compiled_ir(c);
    const sdkc_operation *op = sdkc_ir_operation(ir, "items.get");
    ck_assert_int_eq(op->success.status, 200);
    /* matching order: exact, ranges, default */
    ck_assert_uint_eq(op->nerrors, 4);
    ck_assert_int_eq(op->errors[0].status, 404);
    ck_assert_ptr_eq(op->errors[0].untagged, sdkc_ir_type(ir, "NotFound"));
    ck_assert_int_eq(op->errors[1].status, 4);
    ck_assert_uint_eq(op->errors[1].ntags, 2);
    ck_assert_str_eq(op->errors[1].tags[0].tag, "BadInput");
    ck_assert_ptr_eq(op->errors[1].tags[1].type, sdkc_ir_type(ir, "Conflict"));
    ck_assert_int_eq(op->errors[2].status, 5);
    ck_assert_int_eq(op->errors[2].untagged->kind, SDKC_TYPE_OBJECT);
    ck_assert_int_eq(op->errors[3].status, SDKC_STATUS_DEFAULT);
    ck_assert_ptr_eq(op->errors[3].untagged, sdkc_ir_type(ir, "Problem"));
    ck_assert(sdkc_status_covers(4, 409) && !sdkc_status_covers(4, 500));
    ck_assert(sdkc_status_covers(SDKC_STATUS_DEFAULT, 302));
    char buf[16];
    ck_assert_str_eq(sdkc_status_text(4, buf, sizeof buf), "4XX");
    ck_assert_str_eq(sdkc_status_text(0, buf, sizeof buf), "default");
    ck_assert(!sdkc_error_is_text(&op->errors[0]));
    /* a non-JSON error body is its text: a string whatever its schema, except a structured
       schema under a media range */
    op = sdkc_ir_operation(ir, "notes.get");
    ck_assert_uint_eq(op->nerrors, 4);
    for (size_t i = 0; i < 3; i++) {
        ck_assert(sdkc_error_is_text(&op->errors[i]));
        ck_assert_int_eq(op->errors[i].untagged->kind, SDKC_TYPE_STRING);
        ck_assert_uint_eq(op->errors[i].ntags, 0);
    }
    ck_assert_str_eq(op->errors[0].content_type, "text/plain");
    ck_assert_str_eq(op->errors[1].content_type, "application/xml");
    ck_assert_int_eq(op->errors[2].status, 5);
    ck_assert_str_eq(op->errors[2].content_type, "text/html");
    ck_assert_int_eq(op->errors[3].status, SDKC_STATUS_DEFAULT);
    ck_assert(!sdkc_error_is_text(&op->errors[3]));
    ck_assert_ptr_eq(op->errors[3].untagged, sdkc_ir_type(ir, "Problem"));
    /* default alone is the success */
    op = sdkc_ir_operation(ir, "ping");
    ck_assert_int_eq(op->success.status, SDKC_STATUS_DEFAULT);
    ck_assert_int_eq(op->success.encoding, SDKC_ENC_JSON);
    ck_assert_int_eq(op->success.type->kind, SDKC_TYPE_STRING);
    ck_assert_uint_eq(op->nerrors, 0);
    /* a 2XX success */
    op = sdkc_ir_operation(ir, "range.post");
    ck_assert_int_eq(op->success.status, 2);
    ck_assert_uint_eq(op->nerrors, 1);
    /* the IR JSON says "4XX" and "default" and reads back to the same bytes */
    char *json = NULL, *again = NULL;
    size_t len = 0, len2 = 0;
    ck_assert_int_eq(sdkc_ir_to_json(ir, &json, &len), SDKC_OK);
    ck_assert_ptr_nonnull(strstr(json, "\"status\": \"4XX\""));
    ck_assert_ptr_nonnull(strstr(json, "\"status\": \"default\""));
    ck_assert_ptr_nonnull(strstr(json, "\"status\": \"2XX\""));
    sdkc_compiled *back = NULL;
    ck_assert_int_eq(sdkc_ir_from_json(&back, "responses.ir.json", json, len, d), SDKC_OK);
    ck_assert_int_eq(sdkc_ir_to_json(sdkc_compiled_ir(back), &again, &len2), SDKC_OK);
    ck_assert_uint_eq(len, len2);
    ck_assert_int_eq(memcmp(json, again, len), 0);
    free(json);
    free(again);
    sdkc_compiled_free(back);
    sdkc_compiled_free(c);
    sdkc_diag_free(d);
}
END_TEST

/* ---- 8. webhooks and callbacks ---- */

START_TEST(webhooks_and_callbacks_kept)
{
    sdkc_diag *d = NULL;
    sdkc_compiled *c = compile_ok(DATA "webhooks.yaml", &d);
    ck_assert_uint_eq(sdkc_diag_warnings(d), 0);
    const sdkc_ir *ir = sdkc_compiled_ir(c);
    ck_assert_uint_eq(ir->nwebhooks, 2);
    const sdkc_webhook *w = &ir->webhooks[0];
    ck_assert_str_eq(w->name, "newPet");
    ck_assert_ptr_null(w->operation);
    ck_assert_str_eq(w->method, "POST");
    ck_assert_str_eq(w->id, "petCreated");
    ck_assert_ptr_eq(w->body->type, sdkc_ir_type(ir, "Pet"));
    ck_assert_uint_eq(w->loc.line, 44);
    w = &ir->webhooks[1];
    ck_assert_str_eq(w->name, "onEvent");
    ck_assert_str_eq(w->operation, "subscribe");
    ck_assert_str_eq(w->expression, "{$request.body#/callbackUrl}");
    ck_assert(w->body->required);
    ck_assert_ptr_eq(w->body->type, sdkc_ir_type(ir, "OnEventPostBody"));
    ck_assert_ptr_eq(w->response, sdkc_ir_type(ir, "OnEventPostResponse"));
    ck_assert_int_eq(sdkc_ir_type(ir, "OnEventPostBodyKind")->kind, SDKC_TYPE_ENUM);
    /* kept through the IR JSON */
    char *json = NULL, *again = NULL;
    size_t len = 0, len2 = 0;
    ck_assert_int_eq(sdkc_ir_to_json(ir, &json, &len), SDKC_OK);
    ck_assert_ptr_nonnull(strstr(json, "\"webhooks\": ["));
    sdkc_compiled *back = NULL;
    ck_assert_int_eq(sdkc_ir_from_json(&back, "webhooks.ir.json", json, len, d), SDKC_OK);
    ck_assert_uint_eq(sdkc_compiled_ir(back)->nwebhooks, 2);
    ck_assert_int_eq(sdkc_ir_to_json(sdkc_compiled_ir(back), &again, &len2), SDKC_OK);
    ck_assert_uint_eq(len, len2);
    ck_assert_int_eq(memcmp(json, again, len), 0);
    free(json);
    free(again);
    sdkc_compiled_free(back);
    sdkc_compiled_free(c);
    sdkc_diag_free(d);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("real_world");
    TCase *tc = tcase_create("real_world");
    tcase_add_test(tc, extension_keys_ignored);
    tcase_add_test(tc, query_string_in_path);
    tcase_add_test(tc, json_c1_controls_accepted);
    tcase_add_test(tc, responses_optional_in_31);
    tcase_add_test(tc, all_of_merged);
    tcase_add_test(tc, props_with_required_alternatives);
    tcase_add_test(tc, default_and_ranges_are_errors);
    tcase_add_test(tc, webhooks_and_callbacks_kept);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
