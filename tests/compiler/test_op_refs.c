/* test_op_refs.c - path items and operations given by $ref: followed, each operation keeping its
 * operationId; one operation reached twice gets an id of its own with a warning naming both;
 * fields beside a path item's $ref are reported; a dangling one is an error. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "sdkc/diag.h"
#include "sdkc/doc.h"
#include "sdkc/ir.h"
#include "sdkc/compile.h"

#define HEAD "openapi: 3.1.0\ninfo: {title: t, version: '1'}\n"
#define OK                                                                                         \
    "responses: {'200': {description: ok, content: {application/json: {schema: {type: string}}}}}"

typedef struct compiled {
    sdkc_diag *diag;
    sdkc_compiled *c;
    const sdkc_ir *ir;
    sdkc_status st;
} compiled;

static compiled compile_text(const char *yaml)
{
    compiled r = {NULL, NULL, NULL, SDKC_OK};
    sdkc_doc *doc = NULL;
    ck_assert_int_eq(sdkc_diag_new(&r.diag), SDKC_OK);
    ck_assert_int_eq(sdkc_doc_load_buffer(&doc, "r.yaml", yaml, strlen(yaml), r.diag), SDKC_OK);
    r.st = sdkc_compile(&r.c, doc, NULL, r.diag);
    sdkc_doc_free(doc);
    r.ir = r.c ? sdkc_compiled_ir(r.c) : NULL;
    return r;
}

static void done(compiled *r)
{
    sdkc_compiled_free(r->c);
    sdkc_diag_free(r->diag);
}

static bool said(const compiled *r, sdkc_severity sev, const char *needle)
{
    for (size_t i = 0; i < sdkc_diag_count(r->diag); i++) {
        const sdkc_diag_entry *e = sdkc_diag_get(r->diag, i);
        if (e->severity == sev && strstr(e->message, needle))
            return true;
    }
    return false;
}

/* A path item from components with more operations than the $ref map has keys. */
START_TEST(path_item_ref_keeps_ids)
{
    compiled r = compile_text(
        HEAD "paths:\n  /items/{id}:\n    $ref: '#/components/pathItems/Item'\n"
             "components:\n  pathItems:\n    Item:\n"
             "      parameters: [{name: id, in: path, required: true, schema: {type: string}}]\n"
             "      get: {operationId: items.get, " OK "}\n"
             "      put: {operationId: items.put, " OK "}\n"
             "      patch: {operationId: items.patch, " OK "}\n"
             "      delete: {operationId: items.delete, " OK "}\n");
    if (r.st != SDKC_OK)
        sdkc_diag_print(r.diag, stderr, false);
    ck_assert_int_eq(r.st, SDKC_OK);
    ck_assert_uint_eq(sdkc_diag_warnings(r.diag), 0);
    ck_assert_uint_eq(r.ir->nops, 4);
    static const char *const ids[] = {"items.get", "items.put", "items.patch", "items.delete"};
    for (size_t i = 0; i < 4; i++) {
        const sdkc_operation *op = sdkc_ir_operation(r.ir, ids[i]);
        ck_assert_ptr_nonnull(op);
        ck_assert_str_eq(op->path, "/items/{id}");
        ck_assert_uint_eq(op->nparams, 1);
    }
    done(&r);
}
END_TEST

START_TEST(operation_ref_followed)
{
    compiled r = compile_text(HEAD "paths:\n"
                                   "  /v2/things:\n    post: {$ref: '#/paths/~1v1~1things/post'}\n"
                                   "  /v1/things:\n    post: {operationId: things.create, " OK "}\n"
                                   "  /legacy:\n    get: {$ref: '#/components/x-ops/legacy'}\n"
                                   "components:\n  x-ops:\n"
                                   "    legacy: {operationId: legacy.get, " OK "}\n");
    if (r.st != SDKC_OK)
        sdkc_diag_print(r.diag, stderr, false);
    ck_assert_int_eq(r.st, SDKC_OK);
    ck_assert_uint_eq(r.ir->nops, 3);
    /* the first to reach it keeps the id; the second gets its own, with a warning */
    const sdkc_operation *a = sdkc_ir_operation(r.ir, "things.create");
    ck_assert_ptr_nonnull(a);
    ck_assert_str_eq(a->path, "/v2/things");
    ck_assert_ptr_nonnull(a->success.type); /* the referenced operation's responses */
    const sdkc_operation *b = sdkc_ir_operation(r.ir, "post/v1/things");
    ck_assert_ptr_nonnull(b);
    ck_assert_str_eq(b->path, "/v1/things");
    ck_assert(said(&r, SDKC_SEV_WARNING,
                   "operation post /v1/things is, through $ref, the operation of post /v2/things: "
                   "its operationId 'things.create' stays there; using 'post/v1/things' here"));
    const sdkc_operation *l = sdkc_ir_operation(r.ir, "legacy.get");
    ck_assert_ptr_nonnull(l);
    ck_assert_str_eq(l->path, "/legacy");
    ck_assert_uint_eq(sdkc_diag_warnings(r.diag), 1);
    done(&r);
}
END_TEST

START_TEST(shared_path_item_and_siblings)
{
    compiled r = compile_text(HEAD "paths:\n"
                                   "  /a:\n    $ref: '#/components/pathItems/P'\n"
                                   "  /b:\n    $ref: '#/components/pathItems/P'\n"
                                   "    summary: ignored\n"
                                   "components:\n  pathItems:\n"
                                   "    P:\n      get: {operationId: p.get, " OK "}\n");
    ck_assert_int_eq(r.st, SDKC_OK);
    ck_assert_uint_eq(r.ir->nops, 2);
    ck_assert_ptr_nonnull(sdkc_ir_operation(r.ir, "p.get"));
    ck_assert_ptr_nonnull(sdkc_ir_operation(r.ir, "get/b"));
    ck_assert(said(&r, SDKC_SEV_WARNING,
                   "path item '/b' has a $ref and other fields: only the referenced path item"));
    ck_assert(said(&r, SDKC_SEV_WARNING,
                   "operation get /b is, through $ref, the operation of "
                   "get /a"));
    ck_assert_uint_eq(sdkc_diag_warnings(r.diag), 2);
    done(&r);
}
END_TEST

START_TEST(dangling_operation_ref)
{
    compiled r = compile_text(HEAD "paths:\n  /a:\n    get: {$ref: '#/paths/~1nowhere/get'}\n");
    ck_assert_int_ne(r.st, SDKC_OK);
    ck_assert_uint_ge(sdkc_diag_errors(r.diag), 1);
    ck_assert(said(&r, SDKC_SEV_ERROR, "dangling $ref"));
    done(&r);
}
END_TEST

static Suite *op_refs_suite(void)
{
    Suite *s = suite_create("op_refs");
    TCase *tc = tcase_create("op_refs");
    tcase_add_test(tc, path_item_ref_keeps_ids);
    tcase_add_test(tc, operation_ref_followed);
    tcase_add_test(tc, shared_path_item_and_siblings);
    tcase_add_test(tc, dangling_operation_ref);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(op_refs_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
