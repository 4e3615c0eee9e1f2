/* test_compile_opencode.c - the real OpenCode contract compiles without errors; every operation
 * and every component schema is in the IR; a few types have the expected shape. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "sdkc/doc.h"
#include "sdkc/ir.h"
#include "sdkc/compile.h"
#include "sdkc/ir_json.h"

#define CONTRACT SDKC_SOURCE_DIR "/spec/opencode/openapi.json"

static sdkc_compiled *compiled;
static const sdkc_ir *ir;
static sdkc_diag *diag;

static void setup(void)
{
    ck_assert_int_eq(sdkc_diag_new(&diag), SDKC_OK);
    sdkc_status st = sdkc_compile_file(&compiled, CONTRACT, NULL, diag);
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

static const sdkc_field *field(const sdkc_type *t, const char *name)
{
    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(t->kind, SDKC_TYPE_OBJECT);
    for (size_t i = 0; i < t->u.object.nfields; i++)
        if (strcmp(t->u.object.fields[i].wire_name, name) == 0)
            return &t->u.object.fields[i];
    ck_abort_msg("no field %s in %s", name, t->name);
    return NULL;
}

START_TEST(no_errors_no_warnings)
{
    ck_assert_uint_eq(sdkc_diag_errors(diag), 0);
    /* every construct in the real contract is understood */
    for (size_t i = 0; i < sdkc_diag_count(diag); i++)
        ck_assert_msg(false, "unexpected diagnostic: %s", sdkc_diag_get(diag, i)->message);
    ck_assert_uint_eq(sdkc_diag_warnings(diag), 0);
    ck_assert_str_eq(ir->title, "opencode");
    ck_assert_uint_eq(strlen(ir->source_sha256), 64);
}
END_TEST

START_TEST(all_operations)
{
    ck_assert_uint_eq(ir->nops, 188);
    size_t v2 = 0;
    for (size_t i = 0; i < ir->nops; i++) {
        const sdkc_operation *op = &ir->ops[i];
        ck_assert_ptr_nonnull(op->id);
        ck_assert_ptr_nonnull(op->safe_name);
        ck_assert_ptr_nonnull(op->name);
        ck_assert_ptr_eq(sdkc_ir_operation(ir, op->id), op);
        if (strncmp(op->id, "v2.", 3) == 0) {
            v2++;
            ck_assert_str_eq(op->prefix, "v2");
        }
        /* safe names are unique identifiers (one assertion per operation: each ck_assert writes
         * to Check's pipe, and the pairs made this suite slow under valgrind) */
        size_t same = i;
        for (size_t j = 0; j < i && same == i; j++)
            if (strcmp(op->safe_name, ir->ops[j].safe_name) == 0)
                same = j;
        ck_assert_msg(same == i, "%s and %s share the safe name %s", op->id, ir->ops[same].id,
                      op->safe_name);
        ck_assert(op->loc.line > 0);
    }
    ck_assert_uint_eq(v2, 61);
    /* the legacy id keeps the plain name; the stripped v2 one that collides keeps its prefix */
    ck_assert_str_eq(sdkc_ir_operation(ir, "session.list")->safe_name, "session_list");
    const sdkc_operation *l = sdkc_ir_operation(ir, "v2.session.list");
    ck_assert_str_eq(l->safe_name, "v2_session_list");
    ck_assert_str_eq(l->group, "session");
    ck_assert_str_eq(l->name, "list");
    ck_assert_str_eq(l->method, "GET");
    ck_assert_str_eq(l->path, "/api/session");
    ck_assert_ptr_null(sdkc_ir_operation(ir, "no.such.op"));
}
END_TEST

START_TEST(every_component_is_a_named_type)
{
    sdkc_doc *doc = NULL;
    ck_assert_int_eq(sdkc_doc_load_file(&doc, CONTRACT, diag), SDKC_OK);
    const sdkc_node *schemas =
        sdkc_node_get(sdkc_node_get(sdkc_doc_root(doc), "components"), "schemas");
    ck_assert_ptr_nonnull(schemas);
    ck_assert_uint_eq(schemas->npairs, 472);
    for (size_t i = 0; i < schemas->npairs; i++) {
        const char *name = schemas->pairs[i].key->str;
        const sdkc_type *t = sdkc_ir_type(ir, name);
        ck_assert_msg(t != NULL, "component %s missing", name);
        ck_assert_str_eq(t->name, name);
        ck_assert_ptr_nonnull(t->safe_name);
        ck_assert_ptr_nonnull(t->origin);
        ck_assert(strncmp(t->origin, "/components/schemas/", 20) == 0);
    }
    sdkc_doc_free(doc);
    /* named types sorted by name, safe names unique */
    ck_assert_uint_ge(ir->ntypes, 472);
    for (size_t i = 1; i < ir->ntypes; i++)
        ck_assert_int_lt(strcmp(ir->types[i - 1]->name, ir->types[i]->name), 0);
    for (size_t i = 0; i < ir->ntypes; i++) {
        size_t same = 0;
        for (size_t j = i + 1; j < ir->ntypes && !same; j++)
            if (strcmp(ir->types[i]->safe_name, ir->types[j]->safe_name) == 0)
                same = j;
        ck_assert_msg(!same, "%s and %s share the safe name %s", ir->types[i]->name,
                      ir->types[same]->name, ir->types[i]->safe_name);
    }
}
END_TEST

START_TEST(some_types)
{
    const sdkc_type *info = sdkc_ir_type(ir, "SessionV2Info");
    ck_assert_int_eq(info->kind, SDKC_TYPE_OBJECT);
    ck_assert_str_eq(info->safe_name, "session_v2_info");
    ck_assert_ptr_null(info->u.object.additional); /* additionalProperties: false */
    const sdkc_field *tokens = field(info, "tokens");
    ck_assert(tokens->required);
    ck_assert_str_eq(tokens->type->name, "SessionV2InfoTokens");
    ck_assert_ptr_eq(sdkc_ir_type(ir, "SessionV2InfoTokens"), tokens->type);
    ck_assert_str_eq(field(tokens->type, "cache")->type->name, "SessionV2InfoTokensCache");
    const sdkc_field *id = field(info, "id");
    ck_assert_int_eq(id->type->kind, SDKC_TYPE_STRING);
    ck_assert_ptr_nonnull(id->type->u.str.brand);
    ck_assert_str_eq(id->type->u.str.brand->name, "SessionID");
    ck_assert_str_eq(id->type->u.str.brand->prefix, "ses");
    ck_assert_str_eq(field(info, "parentID")->safe_name, "parent_id");
    ck_assert(!field(info, "parentID")->required);
    ck_assert_str_eq(field(info, "model")->type->name, "ModelRef");

    const sdkc_type *err = sdkc_ir_type(ir, "UnauthorizedError");
    const sdkc_field *tag = field(err, "_tag");
    ck_assert_int_eq(tag->type->kind, SDKC_TYPE_LITERAL);
    ck_assert_str_eq(tag->type->u.literal.text, "UnauthorizedError");
    ck_assert_str_eq(tag->safe_name, "tag");

    const sdkc_type *js = sdkc_ir_type(ir, "SessionDurableEventStream");
    ck_assert_int_eq(js->kind, SDKC_TYPE_JSON_STRING);
    ck_assert_str_eq(js->u.json_string.media_type, "application/json");
    ck_assert_ptr_eq(js->u.json_string.content, sdkc_ir_type(ir, "SessionDurableEvent"));

    const sdkc_type *sm = sdkc_ir_type(ir, "SessionMessage");
    ck_assert_int_eq(sm->kind, SDKC_TYPE_UNION);
    ck_assert_uint_eq(sm->u.union_.nvariants, 8);
    ck_assert_str_eq(sm->u.union_.discriminator, "type");
    ck_assert_str_eq(sm->u.union_.variants[0].tag, "agent-switched");
    ck_assert_str_eq(sm->u.union_.variants[0].safe_name, "agent_switched");
    ck_assert_ptr_eq(sm->u.union_.variants[0].type,
                     sdkc_ir_type(ir, "SessionMessageAgentSwitched"));
}
END_TEST

START_TEST(brands)
{
    ck_assert_uint_ge(ir->nbrands, 2);
    const sdkc_brand *ses = NULL, *msg = NULL, *msg_ = NULL;
    for (size_t i = 0; i < ir->nbrands; i++) {
        const sdkc_brand *b = &ir->brands[i];
        if (i > 0)
            ck_assert_int_lt(strcmp(ir->brands[i - 1].name, b->name), 0);
        if (strcmp(b->prefix, "ses") == 0)
            ses = b;
        if (strcmp(b->prefix, "msg") == 0)
            msg = b;
        if (strcmp(b->prefix, "msg_") == 0)
            msg_ = b;
    }
    ck_assert_ptr_nonnull(ses);
    ck_assert_str_eq(ses->name, "SessionID");
    ck_assert_str_eq(ses->safe_name, "session_id");
    ck_assert_str_eq(ses->pattern, "^ses");
    ck_assert_uint_ge(ses->uses, 284);
    ck_assert_ptr_nonnull(msg);
    ck_assert_ptr_nonnull(msg_);
    /* the more used of the two message prefixes gets the plain name */
    ck_assert_uint_gt(msg_->uses, msg->uses);
    ck_assert_str_eq(msg_->name, "MessageID");
    ck_assert_str_ne(msg->name, "MessageID");
}
END_TEST

START_TEST(include_filter_gives_clean_names)
{
    const char *inc[] = {"v2.*"};
    sdkc_compile_options o = SDKC_COMPILE_OPTIONS_INIT;
    o.include = inc;
    o.ninclude = 1;
    sdkc_compiled *c2 = NULL;
    ck_assert_int_eq(sdkc_compile_file(&c2, CONTRACT, &o, diag), SDKC_OK);
    const sdkc_ir *ir2 = sdkc_compiled_ir(c2);
    ck_assert_uint_eq(ir2->nops, 61);
    ck_assert_str_eq(sdkc_ir_operation(ir2, "v2.session.list")->safe_name, "session_list");
    ck_assert_ptr_null(sdkc_ir_operation(ir2, "session.list"));
    sdkc_compiled_free(c2);
}
END_TEST

/* The same input gives the same IR bytes, also after other compiles in the same process. */
START_TEST(deterministic)
{
    char *j1 = NULL, *j2 = NULL;
    size_t l1 = 0, l2 = 0;
    ck_assert_int_eq(sdkc_ir_to_json(ir, &j1, &l1), SDKC_OK);
    sdkc_compiled *c2 = NULL;
    ck_assert_int_eq(sdkc_compile_file(&c2, CONTRACT, NULL, diag), SDKC_OK);
    ck_assert_int_eq(sdkc_ir_to_json(sdkc_compiled_ir(c2), &j2, &l2), SDKC_OK);
    ck_assert_uint_eq(l1, l2);
    ck_assert(memcmp(j1, j2, l1) == 0);
    ck_assert_uint_gt(l1, 100000);
    sdkc_compiled_free(c2);
    free(j1);
    free(j2);
}
END_TEST

/* The session event stream is durable (durable.seq in every variant, `after` a string query
 * parameter); the global event stream has no `after`. --follow overrides, refuses what does not
 * fit and warns about an operation it does not know. */
static const sdkc_follow *follow_of(const sdkc_ir *x, const char *id)
{
    const sdkc_operation *op = sdkc_ir_operation(x, id);
    ck_assert_ptr_nonnull(op);
    ck_assert_ptr_nonnull(op->stream);
    return op->stream->follow;
}

static sdkc_compiled *compile_with_follow(const char *opt, sdkc_diag **d)
{
    const char *follow[] = {opt};
    sdkc_compile_options o = SDKC_COMPILE_OPTIONS_INIT;
    o.follow = follow;
    o.nfollow = 1;
    sdkc_compiled *c = NULL;
    ck_assert_int_eq(sdkc_diag_new(d), SDKC_OK);
    sdkc_compile_file(&c, CONTRACT, &o, *d);
    return c;
}

START_TEST(durable_streams)
{
    const sdkc_follow *f = follow_of(ir, "v2.session.events");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(f->depth, 2);
    ck_assert_str_eq(f->sequence[0], "durable");
    ck_assert_str_eq(f->sequence[1], "seq");
    ck_assert_str_eq(f->after_param->wire_name, "after");
    ck_assert(!f->from_option);
    ck_assert_ptr_null(follow_of(ir, "v2.event.subscribe"));

    sdkc_diag *d = NULL;
    sdkc_compiled *c = compile_with_follow("v2.session.events=durable.version:after", &d);
    ck_assert_ptr_nonnull(c);
    f = follow_of(sdkc_compiled_ir(c), "v2.session.events");
    ck_assert_str_eq(f->sequence[1], "version");
    ck_assert(f->from_option);
    sdkc_compiled_free(c);
    sdkc_diag_free(d);

    c = compile_with_follow("v2.session.events=off", &d);
    ck_assert_ptr_null(follow_of(sdkc_compiled_ir(c), "v2.session.events"));
    sdkc_compiled_free(c);
    sdkc_diag_free(d);

    static const char *const bad[] = {"v2.session.events=durable.nope:after",
                                      "v2.session.events=durable.seq:limit",
                                      "v2.session.events=nocolon"};
    for (size_t i = 0; i < 3; i++) {
        c = compile_with_follow(bad[i], &d);
        ck_assert_msg(sdkc_diag_errors(d) == 1, "%s", bad[i]);
        ck_assert_ptr_nonnull(strstr(sdkc_diag_get(d, 0)->message, "--follow v2.session.events"));
        sdkc_compiled_free(c);
        sdkc_diag_free(d);
    }

    c = compile_with_follow("v2.no.such=seq:after", &d);
    ck_assert_ptr_nonnull(c);
    ck_assert_uint_eq(sdkc_diag_warnings(d), 1);
    ck_assert_ptr_nonnull(strstr(sdkc_diag_get(d, 0)->message, "no stream operation"));
    sdkc_compiled_free(c);
    sdkc_diag_free(d);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("compile_opencode");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    /* compiled once for the tests (each runs in a child of its own: none changes what the
     * others see); a checked fixture compiled the contract again for every test */
    tcase_add_unchecked_fixture(tc, setup, teardown);
    tcase_add_test(tc, no_errors_no_warnings);
    tcase_add_test(tc, all_operations);
    tcase_add_test(tc, every_component_is_a_named_type);
    tcase_add_test(tc, some_types);
    tcase_add_test(tc, brands);
    tcase_add_test(tc, include_filter_gives_clean_names);
    tcase_add_test(tc, deterministic);
    tcase_add_test(tc, durable_streams);
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
