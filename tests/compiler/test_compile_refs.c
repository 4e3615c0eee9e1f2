/* test_compile_refs.c - $ref resolution: aliases and alias chains, references into properties,
 * ~0/~1 and percent-encoding in pointers, and references to parameters, request bodies and
 * responses (data/compile/good/refs.yaml); OpenAPI discriminator mappings. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "sdkc/ir.h"
#include "sdkc/compile.h"

#define DATA SDKC_SOURCE_DIR "/tests/compiler/data/compile/"

static sdkc_compiled *compiled;
static const sdkc_ir *ir;
static sdkc_diag *diag;

static void setup(void)
{
    ck_assert_int_eq(sdkc_diag_new(&diag), SDKC_OK);
    sdkc_status st = sdkc_compile_file(&compiled, DATA "good/refs.yaml", NULL, diag);
    if (st != SDKC_OK)
        sdkc_diag_print(diag, stderr, false);
    ck_assert_int_eq(st, SDKC_OK);
    ck_assert_uint_eq(sdkc_diag_count(diag), 0);
    ir = sdkc_compiled_ir(compiled);
}

static void teardown(void)
{
    sdkc_compiled_free(compiled);
    sdkc_diag_free(diag);
    compiled = NULL;
    diag = NULL;
}

static const sdkc_type *type(const char *name)
{
    const sdkc_type *t = sdkc_ir_type(ir, name);
    ck_assert_msg(t != NULL, "type %s missing", name);
    return t;
}

static const sdkc_field *field(const sdkc_type *t, const char *name)
{
    ck_assert_int_eq(t->kind, SDKC_TYPE_OBJECT);
    for (size_t i = 0; i < t->u.object.nfields; i++)
        if (strcmp(t->u.object.fields[i].wire_name, name) == 0)
            return &t->u.object.fields[i];
    ck_abort_msg("no field %s", name);
    return NULL;
}

START_TEST(aliases)
{
    const sdkc_type *item = type("Item");
    const sdkc_type *a1 = type("Alias1"), *a2 = type("Alias2");
    /* an alias is a copy of its final target under its own name */
    ck_assert_int_eq(a1->kind, SDKC_TYPE_OBJECT);
    ck_assert_int_eq(a2->kind, SDKC_TYPE_OBJECT);
    ck_assert_uint_eq(a1->u.object.nfields, item->u.object.nfields);
    ck_assert_ptr_eq(a1->u.object.fields, item->u.object.fields);
    ck_assert_str_eq(a1->safe_name, "alias1");
    ck_assert_str_eq(a2->docs, "the second alias");
    ck_assert_str_eq(a1->origin, "/components/schemas/Alias1");
    /* uses of an alias resolve to the target */
    const sdkc_operation *get = sdkc_ir_operation(ir, "items.get");
    ck_assert_ptr_eq(get->success.type, item);
}
END_TEST

START_TEST(pointers)
{
    const sdkc_type *item = type("Item");
    /* a reference into a property is the type that property became */
    ck_assert_ptr_eq(field(item, "ownerAgain")->type, field(item, "owner")->type);
    ck_assert_str_eq(field(item, "owner")->type->name, "ItemOwner");
    ck_assert_ptr_eq(field(item, "weird")->type, type("we/ird~name"));
    ck_assert_ptr_eq(field(item, "encoded")->type, type("with space"));
    ck_assert_int_eq(type("with space")->kind, SDKC_TYPE_ENUM);
    /* 3.0 nullable, also over an allOf of one reference */
    const sdkc_type *maybe = field(item, "maybe")->type;
    ck_assert_int_eq(maybe->kind, SDKC_TYPE_NULLABLE);
    ck_assert_int_eq(maybe->u.nullable.inner->kind, SDKC_TYPE_STRING);
    const sdkc_type *mr = field(item, "maybeRef")->type;
    ck_assert_int_eq(mr->kind, SDKC_TYPE_NULLABLE);
    ck_assert_ptr_eq(mr->u.nullable.inner, type("Leaf"));
    ck_assert_uint_eq(ir->ntypes, 8);
}
END_TEST

START_TEST(parameters_bodies_responses)
{
    const sdkc_operation *get = sdkc_ir_operation(ir, "items.get");
    ck_assert_uint_eq(get->nparams, 2);
    ck_assert_str_eq(get->params[0].wire_name, "itemID");
    ck_assert_int_eq(get->params[0].in, SDKC_PARAM_PATH);
    ck_assert_str_eq(get->params[0].type->u.str.brand->name, "ItemID");
    ck_assert_str_eq(get->params[1].wire_name, "verbose");
    ck_assert_int_eq(get->params[1].type->kind, SDKC_TYPE_BOOLEAN);
    ck_assert_uint_eq(get->nerrors, 1);
    ck_assert_int_eq(get->errors[0].status, 404);
    ck_assert_str_eq(get->errors[0].tags[0].tag, "NotFoundError");
    const sdkc_operation *put = sdkc_ir_operation(ir, "items.put");
    ck_assert_ptr_nonnull(put->body);
    ck_assert(put->body->required);
    ck_assert_ptr_eq(put->body->type, type("Item"));
    ck_assert_str_eq(put->method, "PUT");
    ck_assert_int_eq(put->success.status, 204);
}
END_TEST

START_TEST(openapi_discriminator)
{
    sdkc_compiled *c = NULL;
    sdkc_diag *d = NULL;
    ck_assert_int_eq(sdkc_diag_new(&d), SDKC_OK);
    ck_assert_int_eq(sdkc_compile_file(&c, DATA "good/discriminator.yaml", NULL, d), SDKC_OK);
    const sdkc_ir *dir = sdkc_compiled_ir(c);
    /* mapping by pointer and by bare name */
    const sdkc_type *pet = sdkc_ir_type(dir, "Pet");
    ck_assert_str_eq(pet->u.union_.discriminator, "petType");
    ck_assert_str_eq(pet->u.union_.variants[0].tag, "kitty");
    ck_assert_str_eq(pet->u.union_.variants[1].tag, "Dog");
    ck_assert_ptr_eq(pet->u.union_.variants[0].type, sdkc_ir_type(dir, "Cat"));
    /* a copy (alias) agrees */
    const sdkc_type *alias = sdkc_ir_type(dir, "PetAlias");
    ck_assert_str_eq(alias->u.union_.discriminator, "petType");
    ck_assert_str_eq(alias->u.union_.variants[0].tag, "kitty");
    /* no mapping: schema names */
    const sdkc_type *an = sdkc_ir_type(dir, "Animal");
    ck_assert_str_eq(an->u.union_.variants[0].tag, "Cat");
    ck_assert_str_eq(an->u.union_.variants[1].safe_name, "dog");
    /* variants without names: warned, untagged */
    const sdkc_type *v = sdkc_ir_type(dir, "Vague");
    ck_assert_ptr_null(v->u.union_.discriminator);
    ck_assert_ptr_null(v->u.union_.variants[0].tag);
    ck_assert_uint_eq(sdkc_diag_warnings(d), 1);
    ck_assert_uint_eq(sdkc_diag_get(d, 0)->loc.line, 28);
    /* allOf merge closed by unevaluatedProperties; annotations and dependentRequired accepted */
    const sdkc_type *closed = sdkc_ir_type(dir, "Closed");
    ck_assert_int_eq(closed->kind, SDKC_TYPE_OBJECT);
    ck_assert_uint_eq(closed->u.object.nfields, 3);
    ck_assert_ptr_null(closed->u.object.additional);
    sdkc_compiled_free(c);
    sdkc_diag_free(d);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("compile_refs");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, aliases);
    tcase_add_test(tc, pointers);
    tcase_add_test(tc, parameters_bodies_responses);
    tcase_add_test(tc, openapi_discriminator);
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
