/* test_compile_bad.c - contracts the compiler rejects (file:line:col errors, several per run, no
 * IR), and ones it accepts with warnings (unsupported constructs become ANY with a reason). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sdkc/doc.h"
#include "sdkc/ir.h"
#include "sdkc/compile.h"

#define DATA SDKC_SOURCE_DIR "/tests/compiler/data/compile/"

typedef struct want {
    unsigned line, col;
    const char *text; /* a piece of the message */
} want;

/* Compile path; expect failure with exactly the errors listed (in any order). */
static void expect_errors(const char *path, const want *w, size_t n)
{
    sdkc_diag *d = NULL;
    ck_assert_int_eq(sdkc_diag_new(&d), SDKC_OK);
    sdkc_compiled *c = (sdkc_compiled *)1;
    sdkc_status st = sdkc_compile_file(&c, path, NULL, d);
    ck_assert_int_eq(st, SDKC_ERR_INVALID);
    ck_assert_ptr_null(c);
    ck_assert_uint_eq(sdkc_diag_errors(d), n);
    for (size_t i = 0; i < n; i++) {
        bool found = false;
        for (size_t j = 0; j < sdkc_diag_count(d) && !found; j++) {
            const sdkc_diag_entry *e = sdkc_diag_get(d, j);
            found = e->severity == SDKC_SEV_ERROR && e->loc.line == w[i].line &&
                    e->loc.col == w[i].col && strstr(e->message, w[i].text) != NULL &&
                    strcmp(e->loc.file, path) == 0;
        }
        if (!found)
            sdkc_diag_print(d, stderr, false);
        ck_assert_msg(found, "%s: no error at %u:%u with '%s'", path, w[i].line, w[i].col,
                      w[i].text);
    }
    sdkc_diag_free(d);
}

START_TEST(dangling_ref)
{
    static const want w[] = {{12, 30, "dangling $ref '#/components/schemas/Missing'"},
                             {18, 23, "dangling $ref '#/components/schemas/Nope~1Such'"}};
    expect_errors(DATA "bad/dangling_ref.yaml", w, 2);
}
END_TEST

START_TEST(duplicate_operation_id)
{
    static const want w[] = {{11, 20, "duplicate operationId 'thing.get' (first used at line 6"}};
    expect_errors(DATA "bad/duplicate_operation_id.yaml", w, 1);
}
END_TEST

/* An operation left out by --include still owns its operationId: a later duplicate is reported
 * against it, not against the operation that took its place in the list. */
START_TEST(duplicate_operation_id_of_excluded)
{
    static const char text[] = "openapi: 3.0.3\n"
                               "info: {title: t, version: '1'}\n"
                               "paths:\n"
                               "  /a:\n"
                               "    get:\n"
                               "      operationId: x\n"
                               "      responses: {'204': {description: ok}}\n"
                               "  /b:\n"
                               "    get:\n"
                               "      operationId: y.one\n"
                               "      responses: {'204': {description: ok}}\n"
                               "  /c:\n"
                               "    get:\n"
                               "      operationId: x\n"
                               "      responses: {'204': {description: ok}}\n";
    sdkc_diag *d = NULL;
    sdkc_doc *doc = NULL;
    ck_assert_int_eq(sdkc_diag_new(&d), SDKC_OK);
    ck_assert_int_eq(sdkc_doc_load_buffer(&doc, "ex.yaml", text, sizeof text - 1, d), SDKC_OK);
    sdkc_compile_options o = SDKC_COMPILE_OPTIONS_INIT;
    const char *inc[] = {"y.*"};
    o.include = inc;
    o.ninclude = 1;
    sdkc_compiled *c = NULL;
    ck_assert_int_eq(sdkc_compile(&c, doc, &o, d), SDKC_ERR_INVALID);
    ck_assert_uint_eq(sdkc_diag_errors(d), 1);
    const sdkc_diag_entry *e = NULL;
    for (size_t j = 0; j < sdkc_diag_count(d); j++)
        if (sdkc_diag_get(d, j)->severity == SDKC_SEV_ERROR)
            e = sdkc_diag_get(d, j);
    ck_assert_ptr_nonnull(e);
    ck_assert_uint_eq(e->loc.line, 14);
    ck_assert_msg(strstr(e->message, "duplicate operationId 'x' (first used at line 6, column 20)"),
                  "%s", e->message);
    sdkc_compiled_free(c);
    sdkc_doc_free(doc);
    sdkc_diag_free(d);
}
END_TEST

START_TEST(path_parameter_absent)
{
    static const want w[] = {
        {8, 17, "path parameter 'thingId' does not appear in the path template"},
        {4, 3, "path template variable '{thingID}'"}};
    expect_errors(DATA "bad/path_param_absent.yaml", w, 2);
}
END_TEST

START_TEST(ref_cycle)
{
    static const want w[] = {{9, 13, "$ref cycle with no structure"}};
    expect_errors(DATA "bad/ref_cycle.yaml", w, 1);
}
END_TEST

START_TEST(self_only_schema)
{
    /* MaybeSelf: anyOf [$ref MaybeSelf, null] describes nothing */
    static const want w[] = {{30, 5, "schema 'MaybeSelf' is only itself (or null)"}};
    expect_errors(DATA "bad/self_reference.yaml", w, 1);
}
END_TEST

START_TEST(error_union_containing_itself)
{
    sdkc_diag *d = NULL;
    sdkc_compiled *c = NULL;
    ck_assert_int_eq(sdkc_diag_new(&d), SDKC_OK);
    ck_assert_int_eq(sdkc_compile_file(&c, DATA "good/self_union.yaml", NULL, d), SDKC_OK);
    const sdkc_ir *ir = sdkc_compiled_ir(c);
    const sdkc_operation *op = sdkc_ir_operation(ir, "a.get");
    ck_assert_uint_eq(op->nerrors, 1);
    ck_assert_uint_eq(op->errors[0].ntags, 2);
    ck_assert_str_eq(op->errors[0].tags[0].tag, "BadError");
    ck_assert_str_eq(op->errors[0].tags[1].tag, "WorseError");
    ck_assert(sdkc_ir_type(ir, "Errors")->recursive);
    sdkc_compiled_free(c);
    sdkc_diag_free(d);
}
END_TEST

/* Found by fuzz_compile: a $ref with siblings was not followed (a dangling one went unreported
 * and made a union of itself). */
START_TEST(ref_with_siblings)
{
    static const want w[] = {{15, 23, "dangling $ref '#/components/schemas/Gone'"},
                             {27, 5, "schema 'Me' is only itself"}};
    expect_errors(DATA "bad/ref_siblings.yaml", w, 2);
}
END_TEST

START_TEST(several_errors_in_one_run)
{
    static const want w[] = {{15, 20, "duplicate operationId 'a.get'"},
                             {4, 3, "path template variable '{id}'"},
                             {12, 30, "dangling $ref '#/components/schemas/Gone'"}};
    expect_errors(DATA "bad/several.yaml", w, 3);
}
END_TEST

START_TEST(external_ref_and_not_a_document)
{
    static const want w1[] = {{12, 30, "external $ref 'other.yaml#/components/schemas/X'"}};
    expect_errors(DATA "bad/external_ref.yaml", w1, 1);
    static const want w2[] = {{1, 1, "contract is not a mapping"}};
    expect_errors(DATA "bad/not_openapi.yaml", w2, 1);
}
END_TEST

START_TEST(loader_errors_pass_through)
{
    /* malformed input fails in the loader; sdkc_compile_file reports it and gives no IR */
    sdkc_diag *d = NULL;
    ck_assert_int_eq(sdkc_diag_new(&d), SDKC_OK);
    sdkc_compiled *c = NULL;
    const char *bad = SDKC_SOURCE_DIR "/tests/compiler/data/loader/invalid/missing_comma.json";
    ck_assert_int_ne(sdkc_compile_file(&c, bad, NULL, d), SDKC_OK);
    ck_assert_ptr_null(c);
    ck_assert_uint_ge(sdkc_diag_errors(d), 1);
    ck_assert_uint_gt(sdkc_diag_get(d, 0)->loc.line, 0);
    ck_assert_int_ne(sdkc_compile_file(&c, DATA "does-not-exist.yaml", NULL, d), SDKC_OK);
    ck_assert_ptr_null(c);
    sdkc_diag_free(d);
}
END_TEST

START_TEST(unsupported_constructs_warn)
{
    sdkc_diag *d = NULL;
    ck_assert_int_eq(sdkc_diag_new(&d), SDKC_OK);
    sdkc_compiled *c = NULL;
    ck_assert_int_eq(sdkc_compile_file(&c, DATA "warn/unsupported.yaml", NULL, d), SDKC_OK);
    ck_assert_uint_eq(sdkc_diag_errors(d), 0);
    ck_assert_uint_eq(sdkc_diag_warnings(d), 2);
    const sdkc_diag_entry *e0 = sdkc_diag_get(d, 0), *e1 = sdkc_diag_get(d, 1);
    ck_assert_uint_eq(e0->loc.line, 8);
    ck_assert_uint_eq(e0->loc.col, 7);
    ck_assert_ptr_nonnull(strstr(e0->message, "'if'"));
    ck_assert_uint_eq(e1->loc.line, 13);
    const sdkc_ir *ir = sdkc_compiled_ir(c);
    const sdkc_type *cond = sdkc_ir_type(ir, "Cond");
    ck_assert_int_eq(cond->kind, SDKC_TYPE_ANY);
    ck_assert_ptr_nonnull(cond->u.any.fallback_reason);
    ck_assert_ptr_nonnull(strstr(cond->u.any.fallback_reason, "if"));
    const sdkc_type *h = sdkc_ir_type(ir, "Holder");
    ck_assert_int_eq(h->u.object.fields[0].type->kind, SDKC_TYPE_ANY);
    ck_assert_ptr_nonnull(h->u.object.fields[0].type->u.any.fallback_reason);
    ck_assert_int_eq(h->u.object.fields[1].type->kind, SDKC_TYPE_STRING);
    sdkc_compiled_free(c);
    sdkc_diag_free(d);
}
END_TEST

START_TEST(unknown_parameter_style_warns)
{
    sdkc_diag *d = NULL;
    ck_assert_int_eq(sdkc_diag_new(&d), SDKC_OK);
    sdkc_compiled *c = NULL;
    ck_assert_int_eq(sdkc_compile_file(&c, DATA "warn/style.yaml", NULL, d), SDKC_OK);
    ck_assert_uint_eq(sdkc_diag_warnings(d), 1);
    ck_assert_uint_eq(sdkc_diag_get(d, 0)->loc.line, 10);
    ck_assert_uint_eq(sdkc_diag_get(d, 0)->loc.col, 18);
    const sdkc_operation *op = sdkc_ir_operation(sdkc_compiled_ir(c), "a.get");
    ck_assert_int_eq(op->params[0].style, SDKC_STYLE_SIMPLE);
    ck_assert_int_eq(op->params[1].style, SDKC_STYLE_DEEP_OBJECT);
    ck_assert_str_eq(op->params[1].type->name, "AGetDeep");
    sdkc_compiled_free(c);
    sdkc_diag_free(d);
}
END_TEST

/* A chain of components each referring to the next, far deeper than the compiler recurses. */
START_TEST(deep_reference_chain)
{
    enum { N = 3000 };
    sdkc_buf b = SDKC_BUF_INIT;
    sdkc_buf_puts(&b, "{\"openapi\":\"3.1.0\",\"info\":{\"title\":\"t\",\"version\":\"1\"},"
                      "\"paths\":{},\"components\":{\"schemas\":{");
    for (int i = 0; i < N; i++)
        sdkc_buf_printf(&b,
                        "%s\"S%d\":{\"type\":\"object\",\"properties\":{\"next\":{\"$ref\":"
                        "\"#/components/schemas/S%d\"}}}",
                        i ? "," : "", i, (i + 1) % N);
    sdkc_buf_puts(&b, "}}}");
    ck_assert_int_eq(sdkc_buf_finish(&b), SDKC_OK);
    sdkc_diag *d = NULL;
    sdkc_doc *doc = NULL;
    sdkc_compiled *c = NULL;
    ck_assert_int_eq(sdkc_diag_new(&d), SDKC_OK);
    ck_assert_int_eq(sdkc_doc_load_buffer(&doc, "chain.json", b.data, b.len, d), SDKC_OK);
    ck_assert_int_eq(sdkc_compile(&c, doc, NULL, d), SDKC_OK);
    const sdkc_ir *ir = sdkc_compiled_ir(c);
    ck_assert_uint_eq(ir->ntypes, N);
    for (size_t i = 0; i < ir->ntypes; i++) {
        ck_assert_int_eq(ir->types[i]->kind, SDKC_TYPE_OBJECT);
        ck_assert(ir->types[i]->recursive); /* one big cycle */
    }
    const sdkc_type *s5 = sdkc_ir_type(ir, "S5");
    ck_assert_ptr_eq(s5->u.object.fields[0].type, sdkc_ir_type(ir, "S6"));
    sdkc_compiled_free(c);
    sdkc_doc_free(doc);
    sdkc_diag_free(d);
    sdkc_buf_cleanup(&b);
}
END_TEST

/* A long chain of one-variant unions: each either takes its target's shape or wraps it, never
 * becomes an empty ANY (the deep end is filled after the shallow end asked for it). */
START_TEST(deep_single_variant_chain)
{
    enum { N = 600 };
    sdkc_buf b = SDKC_BUF_INIT;
    sdkc_buf_puts(&b, "{\"openapi\":\"3.1.0\",\"info\":{\"title\":\"t\",\"version\":\"1\"},"
                      "\"paths\":{},\"components\":{\"schemas\":{");
    for (int i = 0; i < N - 1; i++)
        sdkc_buf_printf(&b, "\"S%03d\":{\"anyOf\":[{\"$ref\":\"#/components/schemas/S%03d\"}]},", i,
                        i + 1);
    sdkc_buf_printf(&b, "\"S%03d\":{\"type\":\"object\",\"properties\":{\"v\":{}}}}}}", N - 1);
    ck_assert_int_eq(sdkc_buf_finish(&b), SDKC_OK);
    sdkc_diag *d = NULL;
    sdkc_doc *doc = NULL;
    sdkc_compiled *c = NULL;
    ck_assert_int_eq(sdkc_diag_new(&d), SDKC_OK);
    ck_assert_int_eq(sdkc_doc_load_buffer(&doc, "chain.json", b.data, b.len, d), SDKC_OK);
    ck_assert_int_eq(sdkc_compile(&c, doc, NULL, d), SDKC_OK);
    const sdkc_ir *ir = sdkc_compiled_ir(c);
    ck_assert_uint_eq(ir->ntypes, N);
    for (size_t i = 0; i + 1 < ir->ntypes; i++) {
        const sdkc_type *t = ir->types[i];
        if (t->kind == SDKC_TYPE_UNION) {
            /* wraps some later link (a copy of a wrapper wraps what that wraps) */
            ck_assert_uint_eq(t->u.union_.nvariants, 1);
            const sdkc_type *v = t->u.union_.variants[0].type;
            ck_assert_ptr_nonnull(v->name);
            ck_assert_int_gt(strcmp(v->name, t->name), 0);
            ck_assert_ptr_eq(sdkc_ir_type(ir, v->name), v);
        } else {
            ck_assert_int_eq(t->kind, SDKC_TYPE_OBJECT);
            ck_assert_uint_eq(t->u.object.nfields, 1);
        }
    }
    sdkc_compiled_free(c);
    sdkc_doc_free(doc);
    sdkc_diag_free(d);
    sdkc_buf_cleanup(&b);
}
END_TEST

/* Every one-line deletion and every 7th truncation of a valid contract: the compiler either
 * succeeds or reports errors with positions; it never crashes or leaks (ASan, valgrind). */
START_TEST(mutations_do_not_crash)
{
    char *text = NULL;
    size_t len = 0;
    ck_assert_int_eq(sdkc_read_file(DATA "good/conventions.yaml", &text, &len), SDKC_OK);
    sdkc_buf b = SDKC_BUF_INIT;
    size_t runs = 0, failures = 0;
    for (size_t start = 0; start < len; runs++) {
        const char *nl = memchr(text + start, '\n', len - start);
        size_t end = nl ? (size_t)(nl - text) + 1 : len;
        sdkc_buf_reset(&b);
        sdkc_buf_append(&b, text, start);
        sdkc_buf_append(&b, text + end, len - end);
        for (int trunc = 0; trunc < 2; trunc++) {
            size_t n = trunc ? (start * 7) % (len + 1) : b.len;
            const char *data = trunc ? text : b.data;
            sdkc_diag *d = NULL;
            sdkc_doc *doc = NULL;
            sdkc_compiled *c = NULL;
            ck_assert_int_eq(sdkc_diag_new(&d), SDKC_OK);
            if (sdkc_doc_load_buffer(&doc, "m.yaml", data ? data : "", n, d) == SDKC_OK) {
                sdkc_status st = sdkc_compile(&c, doc, NULL, d);
                if (st != SDKC_OK) {
                    failures++;
                    ck_assert_ptr_null(c);
                    ck_assert_uint_ge(sdkc_diag_errors(d), 1);
                    ck_assert_uint_gt(sdkc_diag_get(d, 0)->loc.line +
                                          sdkc_diag_get(d, sdkc_diag_count(d) - 1)->loc.line,
                                      0);
                } else {
                    ck_assert_ptr_nonnull(sdkc_compiled_ir(c));
                }
            }
            sdkc_compiled_free(c);
            sdkc_doc_free(doc);
            sdkc_diag_free(d);
        }
        start = end;
    }
    ck_assert_uint_gt(runs, 200);
    ck_assert_uint_gt(failures, 0);
    sdkc_buf_cleanup(&b);
    free(text);
}
END_TEST

START_TEST(null_arguments)
{
    sdkc_compiled *c = NULL;
    ck_assert_int_eq(sdkc_compile(&c, NULL, NULL, NULL), SDKC_ERR_INVALID);
    ck_assert_ptr_null(c);
    ck_assert_ptr_null(sdkc_compiled_ir(NULL));
    sdkc_compiled_free(NULL);
    ck_assert_ptr_null(sdkc_ir_operation(NULL, "x"));
    ck_assert_ptr_null(sdkc_ir_type(NULL, "x"));
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("compile_bad");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, dangling_ref);
    tcase_add_test(tc, duplicate_operation_id);
    tcase_add_test(tc, duplicate_operation_id_of_excluded);
    tcase_add_test(tc, path_parameter_absent);
    tcase_add_test(tc, ref_cycle);
    tcase_add_test(tc, self_only_schema);
    tcase_add_test(tc, error_union_containing_itself);
    tcase_add_test(tc, ref_with_siblings);
    tcase_add_test(tc, several_errors_in_one_run);
    tcase_add_test(tc, external_ref_and_not_a_document);
    tcase_add_test(tc, loader_errors_pass_through);
    tcase_add_test(tc, unsupported_constructs_warn);
    tcase_add_test(tc, unknown_parameter_style_warns);
    tcase_add_test(tc, deep_reference_chain);
    tcase_add_test(tc, deep_single_variant_chain);
    tcase_add_test(tc, mutations_do_not_crash);
    tcase_add_test(tc, null_arguments);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
