/* test_conventions.c - the HttpApi conventions on the real OpenCode contract (the acceptance
 * points) and on a small contract that uses each construct (data/compile/good). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "sdkc/doc.h"
#include "sdkc/ir.h"
#include "sdkc/compile.h"
#include "sdkc/ir_json.h"

#define OPENCODE SDKC_SOURCE_DIR "/spec/opencode/openapi.json"
#define DATA     SDKC_SOURCE_DIR "/tests/compiler/data/compile/"

static sdkc_compiled *compiled;
static const sdkc_ir *ir;
static sdkc_diag *diag;

static void load(const char *path)
{
    ck_assert_int_eq(sdkc_diag_new(&diag), SDKC_OK);
    sdkc_status st = sdkc_compile_file(&compiled, path, NULL, diag);
    if (st != SDKC_OK)
        sdkc_diag_print(diag, stderr, false);
    ck_assert_int_eq(st, SDKC_OK);
    ck_assert_uint_eq(sdkc_diag_warnings(diag), 0);
    ir = sdkc_compiled_ir(compiled);
}

static void setup_opencode(void)
{
    load(OPENCODE);
}

/* Load, compile and free the document before any check: the IR must not point into it (ASan
 * and valgrind catch a use after free; writing the JSON touches every string). */
static void setup_small(void)
{
    sdkc_doc *doc = NULL;
    ck_assert_int_eq(sdkc_diag_new(&diag), SDKC_OK);
    ck_assert_int_eq(sdkc_doc_load_file(&doc, DATA "good/conventions.yaml", diag), SDKC_OK);
    ck_assert_int_eq(sdkc_compile(&compiled, doc, NULL, diag), SDKC_OK);
    sdkc_doc_free(doc);
    ck_assert_uint_eq(sdkc_diag_warnings(diag), 0);
    ir = sdkc_compiled_ir(compiled);
    char *json = NULL;
    size_t len = 0;
    ck_assert_int_eq(sdkc_ir_to_json(ir, &json, &len), SDKC_OK);
    ck_assert_ptr_nonnull(strstr(json, "\"ThingPageCursor\""));
    free(json);
    ck_assert_str_eq(ir->source_name, DATA "good/conventions.yaml");
}

static void teardown(void)
{
    sdkc_compiled_free(compiled);
    sdkc_diag_free(diag);
    compiled = NULL;
    diag = NULL;
    ir = NULL;
}

static const sdkc_operation *op(const char *id)
{
    const sdkc_operation *o = sdkc_ir_operation(ir, id);
    ck_assert_msg(o != NULL, "operation %s missing", id);
    return o;
}

static const sdkc_type *type(const char *name)
{
    const sdkc_type *t = sdkc_ir_type(ir, name);
    ck_assert_msg(t != NULL, "type %s missing", name);
    return t;
}

static const sdkc_field *field(const sdkc_type *t, const char *name)
{
    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(t->kind, SDKC_TYPE_OBJECT);
    for (size_t i = 0; i < t->u.object.nfields; i++)
        if (strcmp(t->u.object.fields[i].wire_name, name) == 0)
            return &t->u.object.fields[i];
    ck_abort_msg("no field %s", name);
    return NULL;
}

static const sdkc_error_status *status(const sdkc_operation *o, int st)
{
    for (size_t i = 0; i < o->nerrors; i++)
        if (o->errors[i].status == st)
            return &o->errors[i];
    ck_abort_msg("%s has no %d", o->id, st);
    return NULL;
}

/* ---- the real contract ---- */

static void check_page(const char *id, const char *item, const char *page)
{
    const sdkc_operation *o = op(id);
    ck_assert_ptr_nonnull(o->pagination);
    ck_assert_ptr_eq(o->pagination->item, type(item));
    ck_assert_ptr_eq(o->pagination->page, type(page));
    ck_assert_str_eq(o->pagination->items_field, "data");
    ck_assert_str_eq(o->pagination->cursor_field, "cursor");
    ck_assert_str_eq(o->pagination->next_field, "next");
    ck_assert_str_eq(o->pagination->previous_field, "previous");
    ck_assert_ptr_nonnull(o->pagination->cursor_param);
    ck_assert_str_eq(o->pagination->cursor_param->wire_name, "cursor");
    ck_assert_int_eq(o->pagination->cursor_param->in, SDKC_PARAM_QUERY);
    /* pages are not unwrapped: the result is the page object */
    ck_assert_ptr_null(o->success.unwrap);
    ck_assert_ptr_eq(o->success.result, o->success.type);
    ck_assert_ptr_null(o->stream);
    /* the server sends null for absent cursors: the IR says so */
    const sdkc_type *cursor = field(type(page), "cursor")->type;
    ck_assert_int_eq(field(cursor, "next")->type->kind, SDKC_TYPE_NULLABLE);
    ck_assert_int_eq(field(cursor, "previous")->type->kind, SDKC_TYPE_NULLABLE);
    ck_assert_int_eq(field(cursor, "next")->type->u.nullable.inner->kind, SDKC_TYPE_STRING);
}

START_TEST(pages)
{
    check_page("v2.session.list", "SessionV2Info", "SessionsResponse");
    check_page("v2.session.messages", "SessionMessage", "SessionMessagesResponse");
    size_t paged = 0;
    for (size_t i = 0; i < ir->nops; i++)
        paged += ir->ops[i].pagination != NULL;
    ck_assert_uint_eq(paged, 2);
}
END_TEST

START_TEST(streams)
{
    const sdkc_operation *ev = op("v2.session.events");
    ck_assert_int_eq(ev->success.encoding, SDKC_ENC_SSE);
    ck_assert_str_eq(ev->success.content_type, "text/event-stream");
    ck_assert_ptr_nonnull(ev->stream);
    ck_assert_int_eq(ev->stream->encoding, SDKC_ENC_SSE);
    ck_assert_ptr_eq(ev->stream->item, type("SessionDurableEvent"));
    ck_assert(ev->stream->item_encoded);
    ck_assert_str_eq(ev->stream->failure_event, "effect/httpapi/stream/failure");
    ck_assert_ptr_nonnull(ev->stream->frame);
    ck_assert_ptr_eq(field(ev->stream->frame, "data")->type, type("SessionDurableEventStream"));
    /* the cause: an array of Fail | Die | Interrupt, discriminated by _tag */
    const sdkc_type *cause = ev->stream->cause;
    ck_assert_ptr_nonnull(cause);
    ck_assert_int_eq(cause->kind, SDKC_TYPE_ARRAY);
    const sdkc_type *cu = cause->u.array.items;
    ck_assert_int_eq(cu->kind, SDKC_TYPE_UNION);
    ck_assert_str_eq(cu->u.union_.discriminator, "_tag");
    ck_assert_uint_eq(cu->u.union_.nvariants, 3);
    ck_assert_str_eq(cu->u.union_.variants[0].tag, "Fail");
    ck_assert_str_eq(cu->u.union_.variants[2].tag, "Interrupt");
    /* `error: not: {}` but required: the Fail cause's error is read as raw JSON */
    ck_assert_int_eq(field(cu->u.union_.variants[0].type, "error")->type->kind, SDKC_TYPE_ANY);
    ck_assert_int_eq(field(cu->u.union_.variants[2].type, "fiberId")->type->kind,
                     SDKC_TYPE_NULLABLE);
    ck_assert_ptr_nonnull(ev->stream->error);
    ck_assert_int_eq(ev->stream->error->kind, SDKC_TYPE_NEVER);

    const sdkc_operation *sub = op("v2.event.subscribe");
    ck_assert_str_eq(sub->path, "/api/event");
    ck_assert_ptr_nonnull(sub->stream);
    ck_assert_ptr_eq(sub->stream->item, type("V2Event"));
    ck_assert(!sub->stream->item_encoded);
    ck_assert_ptr_null(sub->stream->frame);
    ck_assert_ptr_null(sub->stream->failure_event);
    ck_assert_ptr_null(sub->pagination);
}
END_TEST

START_TEST(tagged_errors)
{
    const sdkc_error_status *e = status(op("v2.session.message"), 404);
    ck_assert_uint_eq(e->ntags, 2);
    ck_assert_str_eq(e->tags[0].tag, "MessageNotFoundError");
    ck_assert_str_eq(e->tags[1].tag, "SessionNotFoundError");
    ck_assert_ptr_eq(e->tags[0].type, type("MessageNotFoundError"));
    ck_assert_ptr_eq(e->tags[1].type, type("SessionNotFoundError"));
    ck_assert_ptr_null(e->untagged);
    ck_assert_str_eq(e->content_type, "application/json");
    /* every operation: ascending statuses, tags sorted and unique; 401 is UnauthorizedError */
    size_t n401 = 0;
    for (size_t i = 0; i < ir->nops; i++) {
        const sdkc_operation *o = &ir->ops[i];
        for (size_t j = 0; j < o->nerrors; j++) {
            const sdkc_error_status *s = &o->errors[j];
            if (j > 0)
                ck_assert_int_lt(o->errors[j - 1].status, s->status);
            for (size_t k = 1; k < s->ntags; k++)
                ck_assert_int_lt(strcmp(s->tags[k - 1].tag, s->tags[k].tag), 0);
            if (s->status == 401) {
                n401++;
                ck_assert_uint_eq(s->ntags, 1);
                ck_assert_str_eq(s->tags[0].tag, "UnauthorizedError");
            }
        }
    }
    ck_assert_uint_eq(n401, 58);
    const sdkc_error_status *l400 = status(op("v2.session.list"), 400);
    ck_assert_uint_eq(l400->ntags, 2);
    ck_assert_str_eq(l400->tags[0].tag, "InvalidCursorError");
    ck_assert_str_eq(l400->tags[1].tag, "InvalidRequestError");
}
END_TEST

START_TEST(no_content_and_unwrap)
{
    const sdkc_operation *i = op("v2.session.interrupt");
    ck_assert_int_eq(i->success.status, 204);
    ck_assert_int_eq(i->success.encoding, SDKC_ENC_NONE);
    ck_assert_ptr_null(i->success.type);
    ck_assert_ptr_null(i->success.content_type);
    ck_assert_str_eq(i->method, "POST");

    const sdkc_operation *m = op("v2.session.message");
    ck_assert_str_eq(m->success.unwrap, "data");
    ck_assert_ptr_eq(m->success.result, type("SessionMessage"));
    ck_assert_int_eq(m->success.type->kind, SDKC_TYPE_OBJECT);
    ck_assert_uint_eq(m->nparams, 2);
    ck_assert_str_eq(m->params[0].wire_name, "sessionID");
    ck_assert_str_eq(m->params[1].wire_name, "messageID");
    ck_assert_str_eq(m->params[1].safe_name, "message_id");
    ck_assert_str_eq(m->params[0].type->u.str.brand->name, "SessionID");
    ck_assert(m->params[0].required);
    ck_assert_str_eq(m->summary, "Get session message");
    ck_assert_ptr_nonnull(m->description);
}
END_TEST

START_TEST(union_of_messages)
{
    const sdkc_type *sm = type("SessionMessage");
    ck_assert_int_eq(sm->kind, SDKC_TYPE_UNION);
    ck_assert_uint_eq(sm->u.union_.nvariants, 8);
    ck_assert_str_eq(sm->u.union_.discriminator, "type");
    for (size_t i = 0; i < 8; i++) {
        ck_assert_ptr_nonnull(sm->u.union_.variants[i].tag);
        ck_assert_ptr_nonnull(sm->u.union_.variants[i].type->name);
    }
}
END_TEST

START_TEST(implied_basic_auth)
{
    ck_assert_uint_eq(ir->nschemes, 1);
    ck_assert_str_eq(ir->schemes[0].name, "basic");
    ck_assert_str_eq(ir->schemes[0].type, "http");
    ck_assert_str_eq(ir->schemes[0].scheme, "basic");
    ck_assert(ir->schemes[0].implied);
    /* implied exactly where a 401 is declared (58 operations; legacy ones declare none) */
    size_t with = 0;
    for (size_t i = 0; i < ir->nops; i++) {
        const sdkc_operation *o = &ir->ops[i];
        bool has401 = false;
        for (size_t j = 0; j < o->nerrors; j++)
            has401 = has401 || o->errors[j].status == 401;
        ck_assert_uint_eq(o->nsecurity, has401 ? 1 : 0);
        if (has401) {
            ck_assert_ptr_eq(o->security[0], &ir->schemes[0]);
            with++;
        }
    }
    ck_assert_uint_eq(with, 58);
}
END_TEST

/* ---- the small contract ---- */

START_TEST(small_page_and_params)
{
    const sdkc_operation *l = op("v2.thing.list");
    ck_assert_ptr_nonnull(l->pagination);
    ck_assert_ptr_eq(l->pagination->item, type("Thing"));
    ck_assert_uint_eq(l->nparams, 3);
    ck_assert_str_eq(l->params[2].wire_name, "default");
    ck_assert_str_eq(l->params[2].safe_name, "default_");
    ck_assert_int_eq(l->params[1].type->kind, SDKC_TYPE_INTEGER);
    ck_assert(l->params[1].type->u.num.has_minimum);
    ck_assert_int_eq(l->params[0].style, SDKC_STYLE_FORM);
    ck_assert(l->params[0].explode);
    /* v2.thing.list stripped meets thing.list: the v2 prefix comes back for every v2 operation
       (a namespace, never half of it: client.v2.thing.stop beside client.thing.list) */
    ck_assert_str_eq(op("v2.thing.stop")->safe_name, "v2_thing_stop");
    ck_assert_str_eq(op("v2.thing.stop")->kept_prefix, "v2");
    ck_assert_str_eq(op("v2.thing.stop")->group, "thing");
    ck_assert_str_eq(op("v2.thing.stop")->name, "stop");
    ck_assert_int_eq(op("v2.thing.stop")->group_source, SDKC_GROUP_OPERATION_ID);
    ck_assert_str_eq(l->safe_name, "v2_thing_list");
    ck_assert_str_eq(l->name, "list");
    ck_assert_str_eq(op("thing.list")->safe_name, "thing_list");
    ck_assert_ptr_null(op("thing.list")->kept_prefix);
    /* path-item parameters apply to the operation */
    const sdkc_operation *s = op("v2.thing.stop");
    ck_assert_uint_eq(s->nparams, 1);
    ck_assert_str_eq(s->params[0].type->u.str.brand->name, "ThingID");
    ck_assert_int_eq(s->success.encoding, SDKC_ENC_NONE);
    const sdkc_error_status *e = status(s, 404);
    ck_assert_uint_eq(e->ntags, 2);
    ck_assert_str_eq(e->tags[0].tag, "AlsoNotFoundError");
    ck_assert_str_eq(e->tags[1].tag, "ThingNotFoundError");
    /* no 401: no implied auth; explicit `security: []` with no 401 likewise */
    ck_assert_uint_eq(s->nsecurity, 0);
    ck_assert_uint_eq(op("thing.list")->nsecurity, 0);
    ck_assert_uint_eq(l->nsecurity, 1);
    ck_assert(l->security[0]->implied);
}
END_TEST

START_TEST(small_body_unwrap_stream)
{
    const sdkc_operation *c = op("v2.thing.create");
    ck_assert_ptr_nonnull(c->body);
    ck_assert(c->body->required);
    ck_assert_str_eq(c->body->content_type, "application/json");
    ck_assert_str_eq(c->body->type->name, "V2ThingCreateBody");
    ck_assert_str_eq(c->success.unwrap, "data");
    ck_assert_ptr_eq(c->success.result, type("Thing"));
    ck_assert_str_eq(c->success.type->name, "V2ThingCreateResponse");

    const sdkc_operation *ev = op("v2.thing.events");
    ck_assert_ptr_nonnull(ev->stream);
    ck_assert_ptr_eq(ev->stream->item, type("ThingEvent"));
    ck_assert(ev->stream->item_encoded);
    ck_assert_str_eq(ev->stream->failure_event, "effect/httpapi/stream/failure");
    ck_assert_str_eq(ev->stream->cause->u.array.items->name, "V2ThingEventsCauseItem");
    ck_assert_str_eq(ev->stream->cause->u.array.items->u.union_.discriminator, "_tag");
    ck_assert_ptr_eq(op("v2.event.subscribe")->stream->item, type("ThingEvent"));
}
END_TEST

START_TEST(small_types)
{
    const sdkc_type *t = type("Thing");
    ck_assert(t->recursive);
    ck_assert_str_eq(t->docs, "A thing.");
    ck_assert_str_eq(field(t, "name")->docs, "Its name.");
    ck_assert_int_eq(field(t, "note")->type->kind, SDKC_TYPE_NULLABLE);
    ck_assert_int_eq(field(t, "legacyNote")->type->kind, SDKC_TYPE_NULLABLE);
    ck_assert_int_eq(field(t, "size")->type->kind, SDKC_TYPE_NULLABLE);
    ck_assert_int_eq(field(t, "size")->type->u.nullable.inner->kind, SDKC_TYPE_NUMBER);
    ck_assert_str_eq(field(t, "default")->safe_name, "default_");
    ck_assert_str_eq(field(t, "fooBar")->safe_name, "foo_bar");
    ck_assert_str_eq(field(t, "foo_bar")->safe_name, "foo_bar_2");
    const sdkc_type *labels = field(t, "labels")->type;
    ck_assert_int_eq(labels->kind, SDKC_TYPE_MAP);
    ck_assert_int_eq(labels->u.map.value->kind, SDKC_TYPE_STRING);
    const sdkc_type *env = field(t, "env")->type;
    ck_assert_int_eq(env->kind, SDKC_TYPE_MAP);
    ck_assert_str_eq(env->u.map.key_pattern, "^[A-Z_]+$");
    const sdkc_type *pt = field(t, "point")->type;
    ck_assert_int_eq(pt->kind, SDKC_TYPE_TUPLE);
    ck_assert_uint_eq(pt->u.tuple.nitems, 2);
    ck_assert_ptr_null(pt->u.tuple.rest);
    const sdkc_type *meta = field(t, "meta")->type;
    ck_assert_int_eq(meta->kind, SDKC_TYPE_JSON_STRING);
    ck_assert_ptr_eq(meta->u.json_string.content, type("Meta"));
    ck_assert_int_eq(field(t, "extra")->type->kind, SDKC_TYPE_ANY);
    ck_assert_ptr_null(field(t, "extra")->type->u.any.fallback_reason);
    ck_assert_int_eq(field(t, "version")->type->kind, SDKC_TYPE_LITERAL);
    ck_assert_int_eq(field(t, "version")->type->u.literal.kind, SDKC_LIT_NUMBER);
    ck_assert_str_eq(field(t, "version")->type->u.literal.text, "2");
    ck_assert_ptr_null(t->u.object.additional);
    /* an inline name that collides with a component gets a number */
    ck_assert_ptr_eq(field(t, "location")->type, type("ThingLocation2"));
    ck_assert_int_eq(type("ThingLocation")->u.object.nfields, 1);

    const sdkc_type *kind = type("Kind");
    ck_assert_int_eq(kind->kind, SDKC_TYPE_ENUM);
    ck_assert_uint_eq(kind->u.enumeration.nvalues, 4);
    ck_assert_str_eq(kind->u.enumeration.values[2], "x-large");
    ck_assert_str_eq(kind->u.enumeration.safe_values[2], "X_LARGE");

    const sdkc_type *shape = type("Shape");
    ck_assert_int_eq(shape->kind, SDKC_TYPE_UNION);
    ck_assert_str_eq(shape->u.union_.discriminator, "type");
    ck_assert_str_eq(shape->u.union_.variants[0].type->name, "ShapeCircle");
    ck_assert_str_eq(shape->u.union_.variants[1].tag, "square");

    const sdkc_type *named = type("Named");
    ck_assert_int_eq(named->kind, SDKC_TYPE_OBJECT);
    ck_assert_uint_eq(named->u.object.nfields, 2);
    ck_assert(field(named, "name")->required);

    const sdkc_type *alias = type("ThingAlias");
    ck_assert_int_eq(alias->kind, SDKC_TYPE_OBJECT);
    ck_assert_uint_eq(alias->u.object.nfields, t->u.object.nfields);
    ck_assert_str_eq(alias->safe_name, "thing_alias");
    ck_assert_int_eq(type("Never")->kind, SDKC_TYPE_NEVER);
    ck_assert_int_eq(type("ThingEventStream")->kind, SDKC_TYPE_JSON_STRING);
}
END_TEST

START_TEST(small_names_and_options)
{
    ck_assert_uint_eq(ir->nops, 7);
    /* an id without a dot and without tags: the path's first segment */
    const sdkc_operation *h = op("health");
    ck_assert_str_eq(h->group, "health");
    ck_assert_int_eq(h->group_source, SDKC_GROUP_PATH);
    ck_assert_str_eq(h->name, "health");
    ck_assert_str_eq(h->safe_name, "health");
    ck_assert_int_eq(h->success.encoding, SDKC_ENC_TEXT);
    ck_assert_str_eq(h->success.content_type, "text/plain");
    ck_assert_int_eq(h->success.type->kind, SDKC_TYPE_STRING);

    /* no prefixes stripped: the v2 ids keep theirs in group, name and safe name */
    teardown();
    sdkc_compile_options o = SDKC_COMPILE_OPTIONS_INIT;
    const char *none[] = {"unused"};
    o.strip_prefixes = none;
    o.nstrip_prefixes = 0;
    const char *inc[] = {"v2.thing.*", "health"};
    o.include = inc;
    o.ninclude = 2;
    ck_assert_int_eq(sdkc_diag_new(&diag), SDKC_OK);
    ck_assert_int_eq(sdkc_compile_file(&compiled, DATA "good/conventions.yaml", &o, diag), SDKC_OK);
    ir = sdkc_compiled_ir(compiled);
    ck_assert_uint_eq(ir->nops, 5);
    const sdkc_operation *s = op("v2.thing.stop");
    ck_assert_ptr_null(s->prefix);
    ck_assert_str_eq(s->group, "v2");
    ck_assert_str_eq(s->name, "thing.stop");
    ck_assert_str_eq(s->safe_name, "v2_thing_stop");
    ck_assert_ptr_null(sdkc_ir_operation(ir, "v2.event.subscribe"));
    ck_assert_ptr_null(sdkc_ir_operation(ir, "thing.list"));
    /* another prefix */
    teardown();
    const char *pre[] = {"v2"};
    o.strip_prefixes = pre;
    o.nstrip_prefixes = 1;
    o.ninclude = 0;
    ck_assert_int_eq(sdkc_diag_new(&diag), SDKC_OK);
    ck_assert_int_eq(sdkc_compile_file(&compiled, DATA "good/conventions.yaml", &o, diag), SDKC_OK);
    ir = sdkc_compiled_ir(compiled);
    ck_assert_str_eq(op("v2.thing.stop")->prefix, "v2");
    ck_assert_str_eq(op("v2.thing.stop")->name, "stop");
    ck_assert_str_eq(op("v2.thing.stop")->group, "thing");
}
END_TEST

START_TEST(recursion_through_references)
{
    teardown();
    load(DATA "good/recursive.json");
    ck_assert(type("Tree")->recursive);
    ck_assert(!type("Leaf")->recursive);
    ck_assert(type("Ping")->recursive);
    ck_assert(type("Pong")->recursive);
    ck_assert_ptr_eq(field(type("Ping"), "pong")->type, type("Pong"));
    /* ~0 and ~1 in a pointer */
    const sdkc_type *odd = type("a/b~c");
    ck_assert(odd->recursive);
    ck_assert_ptr_eq(field(odd, "self")->type, odd);
    ck_assert_str_eq(odd->origin, "/components/schemas/a~1b~0c");
    ck_assert_str_eq(odd->safe_name, "a_b_c");
    const sdkc_type *expr = type("Expr");
    ck_assert_int_eq(expr->kind, SDKC_TYPE_UNION);
    ck_assert(expr->recursive);
    ck_assert_ptr_null(expr->u.union_.discriminator);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("conventions");
    TCase *oc = tcase_create("opencode");
    tcase_set_timeout(oc, 60);
    /* compiled once for the case (its tests only read the IR, each in a child of its own), not
     * once per test: six compiles of the contract were most of this suite's time under valgrind */
    tcase_add_unchecked_fixture(oc, setup_opencode, teardown);
    tcase_add_test(oc, pages);
    tcase_add_test(oc, streams);
    tcase_add_test(oc, tagged_errors);
    tcase_add_test(oc, no_content_and_unwrap);
    tcase_add_test(oc, union_of_messages);
    tcase_add_test(oc, implied_basic_auth);
    suite_add_tcase(s, oc);
    TCase *sm = tcase_create("small");
    tcase_add_checked_fixture(sm, setup_small, teardown);
    tcase_add_test(sm, small_page_and_params);
    tcase_add_test(sm, small_body_unwrap_stream);
    tcase_add_test(sm, small_types);
    tcase_add_test(sm, small_names_and_options);
    tcase_add_test(sm, recursion_through_references);
    suite_add_tcase(s, sm);
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
