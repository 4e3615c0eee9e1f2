/* test_op_groups.c - groups and names of operations (docs/naming.md#groups) on
 * data/compile/good/groups.yaml, through IR JSON and back, and on the OpenCode contract. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "sdkc/doc.h"
#include "sdkc/ir.h"
#include "sdkc/compile.h"
#include "sdkc/ir_json.h"

#define OPENCODE SDKC_SOURCE_DIR "/spec/opencode/openapi.json"
#define GROUPS   SDKC_SOURCE_DIR "/tests/compiler/data/compile/good/groups.yaml"

static sdkc_compiled *compiled;
static const sdkc_ir *ir;
static sdkc_diag *diag;

static void load(const char *path, const sdkc_compile_options *o)
{
    ck_assert_int_eq(sdkc_diag_new(&diag), SDKC_OK);
    sdkc_status st = sdkc_compile_file(&compiled, path, o, diag);
    if (st != SDKC_OK)
        sdkc_diag_print(diag, stderr, false);
    ck_assert_int_eq(st, SDKC_OK);
    ir = sdkc_compiled_ir(compiled);
}

static void teardown(void)
{
    sdkc_compiled_free(compiled);
    sdkc_diag_free(diag);
    compiled = NULL;
    diag = NULL;
}

static const sdkc_operation *op(const char *id)
{
    const sdkc_operation *o = sdkc_ir_operation(ir, id);
    ck_assert_msg(o != NULL, "operation %s missing", id);
    return o;
}

/* id, group (NULL: none), source, name, safe_name, kept_prefix */
static void expect(const char *id, const char *group, sdkc_group_source src, const char *name,
                   const char *safe, const char *kept)
{
    const sdkc_operation *o = op(id);
    if (group)
        ck_assert_msg(o->group && strcmp(o->group, group) == 0, "%s: group %s, not %s", id,
                      o->group ? o->group : "(none)", group);
    else
        ck_assert_msg(o->group == NULL, "%s: group %s, not none", id, o->group);
    ck_assert_msg(o->group_source == src, "%s: source %s, not %s", id,
                  sdkc_group_source_name(o->group_source), sdkc_group_source_name(src));
    ck_assert_msg(strcmp(o->name, name) == 0, "%s: name %s, not %s", id, o->name, name);
    ck_assert_msg(strcmp(o->safe_name, safe) == 0, "%s: safe_name %s, not %s", id, o->safe_name,
                  safe);
    if (kept)
        ck_assert_msg(o->kept_prefix && strcmp(o->kept_prefix, kept) == 0, "%s: kept_prefix", id);
    else
        ck_assert_msg(o->kept_prefix == NULL, "%s: kept_prefix %s", id, o->kept_prefix);
}

static void check_groups(void)
{
    expect("issues/list-for-repo", "issues", SDKC_GROUP_TAG, "list-for-repo",
           "issues_list_for_repo", NULL);
    const sdkc_operation *l = op("issues/list-for-repo");
    ck_assert_uint_eq(l->ntags, 2);
    ck_assert_str_eq(l->tags[0], "issues");
    ck_assert_str_eq(l->tags[1], "repos");
    /* issues/list would be `list` beside `list`: it gets its prefix back */
    expect("issues/list", "issues", SDKC_GROUP_TAG, "issues/list", "issues_list", NULL);
    expect("list", "issues", SDKC_GROUP_TAG, "list", "list", NULL);
    expect("meta/root", "meta", SDKC_GROUP_TAG, "root", "meta_root", NULL);
    expect("getById", NULL, SDKC_GROUP_NONE, "getById", "get_by_id", NULL);
    expect("GetCustomers", "customers", SDKC_GROUP_PATH, "GetCustomers", "get_customers", NULL);
    expect("PostCustomersCustomer", "customers", SDKC_GROUP_PATH, "PostCustomersCustomer",
           "post_customers_customer", NULL);
    expect("PostAccountLinks", "account_links", SDKC_GROUP_PATH, "PostAccountLinks",
           "post_account_links", NULL);
    expect("ListCall", "Accounts", SDKC_GROUP_PATH, "ListCall", "list_call", NULL);
    expect("getInvoice", "billing", SDKC_GROUP_EXTENSION, "getInvoice", "get_invoice", NULL);
    /* a tag is recorded though an extension chose the group */
    ck_assert_uint_eq(op("getInvoice")->ntags, 1);
    expect("usersList", "admin.users", SDKC_GROUP_EXTENSION, "usersList", "users_list", NULL);
    expect("widgets/get", "widgets", SDKC_GROUP_PATH, "widgets/get", "widgets_get", NULL);
    expect("widgets.get", "widgets", SDKC_GROUP_OPERATION_ID, "get", "widgets_get_2", NULL);
    expect("things/get", "things", SDKC_GROUP_TAG, "things/get", "things_get", NULL);
    expect("things-get", "things", SDKC_GROUP_TAG, "things-get_2", "things_get_2", NULL);
    expect("session.list", "session", SDKC_GROUP_OPERATION_ID, "list", "session_list", NULL);
    expect("v2.session.list", "session", SDKC_GROUP_OPERATION_ID, "list", "v2_session_list", "v2");
    expect("v2.session.active", "session", SDKC_GROUP_OPERATION_ID, "active", "v2_session_active",
           "v2");
    ck_assert_str_eq(op("v2.session.active")->prefix, "v2");
}

START_TEST(groups_and_names)
{
    load(GROUPS, NULL);
    ck_assert_uint_eq(sdkc_diag_warnings(diag), 0);
    check_groups();
    /* v3 is not stripped by default */
    expect("v3.model.list", "v3", SDKC_GROUP_OPERATION_ID, "model.list", "v3_model_list", NULL);
    teardown();
    /* a prefix whose operations meet nothing is stripped, beside one that comes back */
    sdkc_compile_options o = SDKC_COMPILE_OPTIONS_INIT;
    const char *pre[] = {"v2", "v3"};
    o.strip_prefixes = pre;
    o.nstrip_prefixes = 2;
    load(GROUPS, &o);
    expect("v3.model.list", "model", SDKC_GROUP_OPERATION_ID, "list", "model_list", NULL);
    ck_assert_str_eq(op("v3.model.list")->prefix, "v3");
    expect("v2.session.list", "session", SDKC_GROUP_OPERATION_ID, "list", "v2_session_list", "v2");
    teardown();
}
END_TEST

/* The fields survive IR JSON: written, read back, written again to the same bytes. */
START_TEST(groups_through_json)
{
    load(GROUPS, NULL);
    char *json = NULL, *again = NULL;
    size_t len = 0, len2 = 0;
    ck_assert_int_eq(sdkc_ir_to_json(ir, &json, &len), SDKC_OK);
    ck_assert_ptr_nonnull(strstr(json, "\"group_source\": \"tag\""));
    ck_assert_ptr_nonnull(strstr(json, "\"kept_prefix\": \"v2\""));
    teardown();
    ck_assert_int_eq(sdkc_diag_new(&diag), SDKC_OK);
    ck_assert_int_eq(sdkc_ir_from_json(&compiled, "groups.ir.json", json, len, diag), SDKC_OK);
    ir = sdkc_compiled_ir(compiled);
    check_groups();
    ck_assert_int_eq(sdkc_ir_to_json(ir, &again, &len2), SDKC_OK);
    ck_assert_str_eq(json, again);
    free(json);
    free(again);
    teardown();
}
END_TEST

static const char *const BAD[][2] = {
    {"\"group_source\": \"folder\"", "unknown group_source \"folder\""},
    {"\"tags\": [1]", "\"tags\" must hold strings"},
    {"\"tags\": \"issues\"", "\"tags\" must be an array"},
};

START_TEST(bad_json)
{
    char json[1024];
    snprintf(json, sizeof json,
             "{\"format\": \"sdkc-ir/1\", \"security_schemes\": [], \"brands\": [], \"types\": "
             "[], \"operations\": [{\"id\": \"x\", %s, \"method\": \"GET\", \"path\": \"/\", "
             "\"params\": [], \"success\": {\"status\": 204, \"encoding\": \"none\"}, "
             "\"errors\": [], \"security\": []}]}",
             BAD[_i][0]);
    ck_assert_int_eq(sdkc_diag_new(&diag), SDKC_OK);
    compiled = (sdkc_compiled *)1;
    ck_assert_int_eq(sdkc_ir_from_json(&compiled, "bad.ir.json", json, strlen(json), diag),
                     SDKC_ERR_INVALID);
    ck_assert_ptr_null(compiled);
    const sdkc_diag_entry *e = sdkc_diag_get(diag, 0);
    ck_assert_msg(e && strstr(e->message, BAD[_i][1]), "case %d: %s", _i, e ? e->message : "");
    teardown();
}
END_TEST

/* OpenCode's whole contract: v1 and v2 beside each other, no numeric suffix anywhere. */
START_TEST(opencode_whole)
{
    load(OPENCODE, NULL);
    expect("session.list", "session", SDKC_GROUP_OPERATION_ID, "list", "session_list", NULL);
    expect("v2.session.list", "session", SDKC_GROUP_OPERATION_ID, "list", "v2_session_list", "v2");
    expect("v2.session.revert.stage", "session", SDKC_GROUP_OPERATION_ID, "revert.stage",
           "v2_session_revert_stage", "v2");
    for (size_t i = 0; i < ir->nops; i++) {
        const sdkc_operation *o = &ir->ops[i];
        size_t n = strlen(o->safe_name);
        ck_assert_msg(!(n > 2 && o->safe_name[n - 2] == '_' && o->safe_name[n - 1] >= '2' &&
                        o->safe_name[n - 1] <= '9'),
                      "%s: %s", o->id, o->safe_name);
        ck_assert_msg((o->prefix != NULL) == (o->kept_prefix != NULL), "%s: prefix kept", o->id);
        ck_assert_int_eq(o->group_source, SDKC_GROUP_OPERATION_ID);
    }
    teardown();
    /* --include 'v2.*' (generated/opencode): nothing meets, the prefix goes */
    sdkc_compile_options o = SDKC_COMPILE_OPTIONS_INIT;
    const char *inc[] = {"v2.*"};
    o.include = inc;
    o.ninclude = 1;
    load(OPENCODE, &o);
    expect("v2.session.list", "session", SDKC_GROUP_OPERATION_ID, "list", "session_list", NULL);
    teardown();
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("op_groups");
    TCase *t = tcase_create("groups");
    tcase_add_test(t, groups_and_names);
    tcase_add_test(t, groups_through_json);
    tcase_add_loop_test(t, bad_json, 0, sizeof BAD / sizeof BAD[0]);
    tcase_add_test(t, opencode_whole);
    suite_add_tcase(s, t);
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
