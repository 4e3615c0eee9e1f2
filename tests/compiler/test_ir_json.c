/* test_ir_json.c - "sdkc-ir/1" JSON: writing a hand-built IR that uses every type kind and every
 * operation feature, reading it back, writing it again byte for byte, and rejecting bad input. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../ir/src/ir_internal.h"
#include "sdkc/ir.h"
#include "sdkc/compile.h"
#include "sdkc/ir_json.h"

/* ---- a hand-built IR ---- */

typedef struct fixture {
    sdkc_arena *a;
    sdkc_ir ir;
} fixture;

static void *alloc(fixture *f, size_t n)
{
    void *p = sdkc_arena_alloc(f->a, n);
    ck_assert_ptr_nonnull(p);
    return p;
}

static sdkc_type *mk(fixture *f, sdkc_type_kind k, const char *name, const char *safe)
{
    sdkc_type *t = alloc(f, sizeof *t);
    t->kind = k;
    t->name = name;
    t->safe_name = safe;
    return t;
}

static void build(fixture *f)
{
    ck_assert_int_eq(sdkc_arena_new(&f->a), SDKC_OK);
    memset(&f->ir, 0, sizeof f->ir);
    sdkc_ir *ir = &f->ir;
    ir->source_name = "/abs/path/to/demo.yaml"; /* only the base name is written */
    ir->source_sha256 = "00ff";
    ir->title = "Demo \"API\"";
    ir->version = "1.0";
    ir->description = "Line one\nline two é";

    sdkc_security_scheme *schemes = alloc(f, sizeof *schemes);
    schemes[0] = (sdkc_security_scheme){"basic", "http", "basic", NULL, NULL, true};
    ir->schemes = schemes;
    ir->nschemes = 1;

    sdkc_brand *brands = alloc(f, sizeof *brands);
    brands[0] = (sdkc_brand){"SessionID", "session_id", "ses", "^ses", 3};
    ir->brands = brands;
    ir->nbrands = 1;

    /* named types (sorted by name) */
    sdkc_type *err = mk(f, SDKC_TYPE_OBJECT, "NotFoundError", "not_found_error");
    sdkc_type *node = mk(f, SDKC_TYPE_OBJECT, "Node", "node"); /* recursive */
    sdkc_type *page = mk(f, SDKC_TYPE_OBJECT, "NodePage", "node_page");
    sdkc_type *sid = mk(f, SDKC_TYPE_STRING, "SessionID", "session_id");
    sdkc_type *shape = mk(f, SDKC_TYPE_UNION, "Shape", "shape");
    sdkc_type *status = mk(f, SDKC_TYPE_ENUM, "Status", "status");

    sid->u.str.brand = &brands[0];
    sid->u.str.pattern = "^ses";
    sid->u.str.has_min_length = true;
    sid->u.str.min_length = 4;
    sid->origin = "/components/schemas/SessionID";
    sid->loc = (sdkc_loc){"/abs/path/to/demo.yaml", 12, 7};

    const char **vals = alloc(f, 3 * sizeof *vals), **safe = alloc(f, 3 * sizeof *safe);
    vals[0] = "idle";
    vals[1] = "busy";
    vals[2] = "session.retry";
    safe[0] = "IDLE";
    safe[1] = "BUSY";
    safe[2] = "SESSION_RETRY";
    status->u.enumeration.values = vals;
    status->u.enumeration.safe_values = safe;
    status->u.enumeration.nvalues = 3;
    status->docs = "What a session is doing.";

    sdkc_type *str = mk(f, SDKC_TYPE_STRING, NULL, NULL);
    sdkc_type *tagged = mk(f, SDKC_TYPE_LITERAL, NULL, NULL);
    tagged->u.literal = (sdkc_literal){SDKC_LIT_STRING, "NotFoundError"};
    sdkc_field *ef = alloc(f, 2 * sizeof *ef);
    ef[0] = (sdkc_field){"_tag", "tag", tagged, true, NULL, {NULL, 0, 0}};
    ef[1] = (sdkc_field){"message", "message", str, true, "Human text", {NULL, 0, 0}};
    err->u.object.fields = ef;
    err->u.object.nfields = 2;
    err->u.object.additional = NULL; /* closed */

    sdkc_type *children = mk(f, SDKC_TYPE_ARRAY, NULL, NULL);
    children->u.array.items = node;
    children->u.array.has_max_items = true;
    children->u.array.max_items = 100;
    sdkc_type *nullable_sid = mk(f, SDKC_TYPE_NULLABLE, NULL, NULL);
    nullable_sid->u.nullable.inner = sid;
    sdkc_type *count = mk(f, SDKC_TYPE_INTEGER, NULL, NULL);
    count->u.num.format = "int64";
    count->u.num.has_minimum = true;
    count->u.num.minimum = 0;
    count->u.num.has_maximum = true;
    count->u.num.maximum = 9007199254740991.0;
    sdkc_type *ratio = mk(f, SDKC_TYPE_NUMBER, NULL, NULL);
    ratio->u.num.has_minimum = true;
    ratio->u.num.minimum = 0.1;
    ratio->u.num.exclusive_minimum = true;
    sdkc_type *meta = mk(f, SDKC_TYPE_MAP, NULL, NULL);
    meta->u.map.value = mk(f, SDKC_TYPE_ANY, NULL, NULL);
    meta->u.map.key_pattern = "^x-";
    sdkc_type *js = mk(f, SDKC_TYPE_JSON_STRING, NULL, NULL);
    js->u.json_string.media_type = "application/json";
    js->u.json_string.content = node;
    sdkc_type *pair = mk(f, SDKC_TYPE_TUPLE, NULL, NULL);
    const sdkc_type **pitems = alloc(f, 2 * sizeof *pitems);
    pitems[0] = str;
    pitems[1] = mk(f, SDKC_TYPE_BOOLEAN, NULL, NULL);
    pair->u.tuple.items = pitems;
    pair->u.tuple.nitems = 2;
    sdkc_type *fallback = mk(f, SDKC_TYPE_ANY, NULL, NULL);
    fallback->u.any.fallback_reason = "`if`/`then` is not supported";
    sdkc_field *nf = alloc(f, 9 * sizeof *nf);
    nf[0] = (sdkc_field){"id", "id", sid, true, NULL, {"x", 20, 5}};
    nf[1] = (sdkc_field){"parentID", "parent_id", nullable_sid, false, NULL, {"x", 21, 5}};
    nf[2] = (sdkc_field){"children", "children", children, true, NULL, {"x", 22, 5}};
    nf[3] = (sdkc_field){"count", "count", count, false, NULL, {NULL, 0, 0}};
    nf[4] = (sdkc_field){"ratio", "ratio", ratio, false, NULL, {NULL, 0, 0}};
    nf[5] = (sdkc_field){"meta", "meta", meta, false, NULL, {NULL, 0, 0}};
    nf[6] = (sdkc_field){"raw", "raw", js, false, NULL, {NULL, 0, 0}};
    nf[7] = (sdkc_field){"pair", "pair", pair, false, NULL, {NULL, 0, 0}};
    nf[8] = (sdkc_field){"odd", "odd", fallback, false, NULL, {NULL, 0, 0}};
    node->u.object.fields = nf;
    node->u.object.nfields = 9;
    node->u.object.additional = mk(f, SDKC_TYPE_ANY, NULL, NULL); /* open */
    node->recursive = true;

    sdkc_type *node_list = mk(f, SDKC_TYPE_ARRAY, NULL, NULL);
    node_list->u.array.items = node;
    sdkc_type *cursor = mk(f, SDKC_TYPE_OBJECT, "NodePageCursor", "node_page_cursor");
    sdkc_type *nstr = mk(f, SDKC_TYPE_NULLABLE, NULL, NULL);
    nstr->u.nullable.inner = str;
    sdkc_field *cf = alloc(f, 2 * sizeof *cf);
    cf[0] = (sdkc_field){"next", "next", nstr, false, NULL, {NULL, 0, 0}};
    cf[1] = (sdkc_field){"previous", "previous", nstr, false, NULL, {NULL, 0, 0}};
    cursor->u.object.fields = cf;
    cursor->u.object.nfields = 2;
    sdkc_field *pf = alloc(f, 2 * sizeof *pf);
    pf[0] = (sdkc_field){"data", "data", node_list, true, NULL, {NULL, 0, 0}};
    pf[1] = (sdkc_field){"cursor", "cursor", cursor, true, NULL, {NULL, 0, 0}};
    page->u.object.fields = pf;
    page->u.object.nfields = 2;

    sdkc_type *circle = mk(f, SDKC_TYPE_OBJECT, NULL, NULL);
    sdkc_type *lit_circle = mk(f, SDKC_TYPE_LITERAL, NULL, NULL);
    lit_circle->u.literal = (sdkc_literal){SDKC_LIT_STRING, "circle"};
    sdkc_field *cirf = alloc(f, sizeof *cirf);
    cirf[0] = (sdkc_field){"type", "type", lit_circle, true, NULL, {NULL, 0, 0}};
    circle->u.object.fields = cirf;
    circle->u.object.nfields = 1;
    sdkc_variant *vars = alloc(f, 2 * sizeof *vars);
    vars[0] = (sdkc_variant){circle, "circle", "circle"};
    vars[1] = (sdkc_variant){mk(f, SDKC_TYPE_NEVER, NULL, NULL), "none", "none"};
    shape->u.union_.variants = vars;
    shape->u.union_.nvariants = 2;
    shape->u.union_.discriminator = "type";

    const sdkc_type **types = alloc(f, 7 * sizeof *types);
    types[0] = err;
    types[1] = node;
    types[2] = page;
    types[3] = cursor;
    types[4] = sid;
    types[5] = shape;
    types[6] = status;
    ir->types = types;
    ir->ntypes = 7;

    /* operations: a page, a stream, a 204 */
    sdkc_operation *ops = alloc(f, 3 * sizeof *ops);
    const sdkc_security_scheme **sec = alloc(f, sizeof *sec);
    sec[0] = &schemes[0];

    sdkc_param *lp = alloc(f, 2 * sizeof *lp);
    lp[0] = (sdkc_param){"cursor", "cursor", SDKC_PARAM_QUERY, SDKC_STYLE_FORM, true,
                         false,    str,      "Continuation",   {"x", 40, 9}};
    sdkc_type *filter = mk(f, SDKC_TYPE_OBJECT, NULL, NULL);
    filter->u.object.fields = cirf;
    filter->u.object.nfields = 1;
    lp[1] = (sdkc_param){"filter", "filter", SDKC_PARAM_QUERY, SDKC_STYLE_DEEP_OBJECT, true, false,
                         filter,   NULL,     {NULL, 0, 0}};
    sdkc_error_tag *tags = alloc(f, sizeof *tags);
    tags[0] = (sdkc_error_tag){"NotFoundError", err};
    sdkc_error_status *es = alloc(f, 2 * sizeof *es);
    es[0] = (sdkc_error_status){404, tags, 1, NULL, "application/json"};
    es[1] = (sdkc_error_status){500, NULL, 0, str, "text/plain"};
    sdkc_pagination *pg = alloc(f, sizeof *pg);
    *pg = (sdkc_pagination){node, page, "data", "cursor", "next", "previous", &lp[0]};
    ops[0].id = "v2.node.list";
    ops[0].prefix = "v2";
    ops[0].group = "node";
    ops[0].name = "list";
    ops[0].safe_name = "node_list";
    ops[0].method = "GET";
    ops[0].path = "/api/node";
    ops[0].summary = "List nodes";
    ops[0].params = lp;
    ops[0].nparams = 2;
    ops[0].success = (sdkc_success){200, SDKC_ENC_JSON, "application/json", page, NULL, page};
    ops[0].errors = es;
    ops[0].nerrors = 2;
    ops[0].pagination = pg;
    ops[0].security = sec;
    ops[0].nsecurity = 1;
    ops[0].loc = (sdkc_loc){"x", 38, 5};

    sdkc_type *frame = mk(f, SDKC_TYPE_OBJECT, NULL, NULL);
    sdkc_field *ff = alloc(f, sizeof *ff);
    ff[0] = (sdkc_field){"data", "data", js, true, NULL, {NULL, 0, 0}};
    frame->u.object.fields = ff;
    frame->u.object.nfields = 1;
    sdkc_stream *sm = alloc(f, sizeof *sm);
    *sm = (sdkc_stream){SDKC_ENC_SSE,
                        frame,
                        node,
                        true,
                        "effect/httpapi/stream/failure",
                        mk(f, SDKC_TYPE_ARRAY, NULL, NULL),
                        err};
    ((sdkc_type *)sm->cause)->u.array.items = mk(f, SDKC_TYPE_ANY, NULL, NULL);
    sdkc_param *sp = alloc(f, sizeof *sp);
    sp[0] = (sdkc_param){"sessionID", "session_id", SDKC_PARAM_PATH, SDKC_STYLE_SIMPLE, false, true,
                         sid,         NULL,         {NULL, 0, 0}};
    ops[1].id = "v2.node.events";
    ops[1].prefix = "v2";
    ops[1].group = "node";
    ops[1].name = "events";
    ops[1].safe_name = "node_events";
    ops[1].method = "GET";
    ops[1].path = "/api/node/{sessionID}/events";
    ops[1].deprecated = true;
    ops[1].params = sp;
    ops[1].nparams = 1;
    ops[1].success = (sdkc_success){200, SDKC_ENC_SSE, "text/event-stream", frame, NULL, frame};
    ops[1].stream = sm;

    sdkc_body *body = alloc(f, sizeof *body);
    *body = (sdkc_body){"application/json", shape, true, "The shape"};
    sdkc_type *wrapped = mk(f, SDKC_TYPE_OBJECT, NULL, NULL);
    sdkc_field *wf = alloc(f, sizeof *wf);
    wf[0] = (sdkc_field){"data", "data", status, true, NULL, {NULL, 0, 0}};
    wrapped->u.object.fields = wf;
    wrapped->u.object.nfields = 1;
    ops[2].id = "shape.put";
    ops[2].group = "shape";
    ops[2].name = "put";
    ops[2].safe_name = "shape_put";
    ops[2].method = "PUT";
    ops[2].path = "/shape";
    ops[2].body = body;
    ops[2].success =
        (sdkc_success){201, SDKC_ENC_JSON, "application/json", wrapped, "data", status};
    ir->ops = ops;
    ir->nops = 3;
}

static char *to_json(const sdkc_ir *ir, size_t *len)
{
    char *s = NULL;
    ck_assert_int_eq(sdkc_ir_to_json(ir, &s, len), SDKC_OK);
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_eq(strlen(s), *len);
    return s;
}

START_TEST(write_shape)
{
    fixture f;
    build(&f);
    size_t len = 0;
    char *s = to_json(&f.ir, &len);
    ck_assert_int_eq(s[len - 1], '\n');
    ck_assert_int_ne(s[len - 2], '\n');
    ck_assert_int_eq(strncmp(s,
                             "{\n  \"format\": \"sdkc-ir/1\",\n  \"source\": {\n    \"name\": "
                             "\"demo.yaml\",",
                             62),
                     0);
    ck_assert_ptr_null(strstr(s, "/abs/path"));
    /* references by name, never recursion into a named type */
    ck_assert_ptr_nonnull(strstr(s, "\"items\": {\n"));
    ck_assert_ptr_nonnull(strstr(s, "{\n                  \"ref\": \"Node\"\n"));
    ck_assert_ptr_nonnull(strstr(s, "\"item\": \"Node\""));
    ck_assert_ptr_nonnull(strstr(s, "\"cursor_param\": \"cursor\""));
    ck_assert_ptr_nonnull(strstr(s, "\"tags\": [\n            \"NotFoundError\"\n          ]"));
    ck_assert_ptr_nonnull(strstr(s, "\"style\": \"deepObject\""));
    ck_assert_ptr_nonnull(strstr(s, "\"kind\": \"json-string\""));
    ck_assert_ptr_nonnull(strstr(s, "\"maximum\": 9007199254740991"));
    ck_assert_ptr_nonnull(strstr(s, "\"minimum\": 0.10000000000000001"));
    ck_assert_ptr_nonnull(strstr(s, "\"loc\": \"12:7\""));
    ck_assert_ptr_nonnull(strstr(s, "\"failure_event\": \"effect/httpapi/stream/failure\""));
    ck_assert_ptr_nonnull(strstr(s, "\"brand\": \"SessionID\""));
    ck_assert_ptr_nonnull(strstr(s, "\"description\": \"Line one\\nline two é\""));
    /* an operation that is neither paged nor streamed has neither key */
    const char *put = strstr(s, "\"id\": \"shape.put\"");
    ck_assert_ptr_nonnull(put);
    ck_assert_ptr_null(strstr(put, "\"pagination\""));
    ck_assert_ptr_null(strstr(put, "\"stream\""));
    ck_assert_ptr_nonnull(strstr(put, "\"unwrap\": \"data\""));
    /* keys in the documented order: name before kind, kind before fields */
    const char *node = strstr(s, "\"name\": \"Node\"");
    ck_assert_ptr_nonnull(node);
    ck_assert_ptr_nonnull(strstr(node, "\"kind\": \"object\""));
    ck_assert(strstr(node, "\"kind\"") < strstr(node, "\"fields\""));

    /* the same IR gives the same bytes */
    size_t len2 = 0;
    char *s2 = to_json(&f.ir, &len2);
    ck_assert_uint_eq(len, len2);
    ck_assert_int_eq(memcmp(s, s2, len), 0);
    free(s);
    free(s2);
    sdkc_arena_free(f.a);
}
END_TEST

START_TEST(round_trip)
{
    fixture f;
    build(&f);
    size_t len = 0;
    char *s = to_json(&f.ir, &len);
    sdkc_diag *d = NULL;
    ck_assert_int_eq(sdkc_diag_new(&d), SDKC_OK);
    sdkc_compiled *c = NULL;
    sdkc_status st = sdkc_ir_from_json(&c, "demo.ir.json", s, len, d);
    if (st != SDKC_OK)
        sdkc_diag_print(d, stderr, false);
    ck_assert_int_eq(st, SDKC_OK);
    ck_assert_uint_eq(sdkc_diag_count(d), 0);
    const sdkc_ir *ir = sdkc_compiled_ir(c);

    size_t len2 = 0;
    char *s2 = to_json(ir, &len2);
    ck_assert_uint_eq(len, len2);
    ck_assert_str_eq(s, s2);

    /* the structures, not just the text */
    ck_assert_str_eq(ir->source_name, "demo.yaml");
    ck_assert_uint_eq(ir->ntypes, 7);
    ck_assert_uint_eq(ir->nops, 3);
    const sdkc_type *node = ir->types[1];
    ck_assert_str_eq(node->name, "Node");
    ck_assert(node->recursive);
    const sdkc_type *children = node->u.object.fields[2].type;
    ck_assert_int_eq(children->kind, SDKC_TYPE_ARRAY);
    ck_assert_ptr_eq(children->u.array.items, node); /* the cycle is one object again */
    ck_assert_uint_eq(node->u.object.fields[0].loc.line, 20);
    ck_assert_str_eq(node->u.object.fields[0].loc.file, "demo.yaml");
    ck_assert(node->u.object.fields[4].type->u.num.minimum == 0.1);
    ck_assert(node->u.object.fields[4].type->u.num.exclusive_minimum);
    ck_assert_ptr_eq(ir->types[4]->u.str.brand, &ir->brands[0]);
    ck_assert_ptr_null(ir->types[0]->u.object.additional);
    ck_assert_ptr_nonnull(node->u.object.additional);
    const sdkc_operation *list = &ir->ops[0];
    ck_assert_ptr_eq(list->pagination->cursor_param, &list->params[0]);
    ck_assert_ptr_eq(list->pagination->item, node);
    ck_assert_ptr_eq(list->security[0], &ir->schemes[0]);
    ck_assert(ir->schemes[0].implied);
    ck_assert_int_eq(list->params[1].style, SDKC_STYLE_DEEP_OBJECT);
    ck_assert_ptr_eq(list->errors[0].tags[0].type, ir->types[0]);
    ck_assert_ptr_eq(list->success.result, list->success.type);
    const sdkc_operation *ev = &ir->ops[1];
    ck_assert_int_eq(ev->stream->encoding, SDKC_ENC_SSE);
    ck_assert(ev->stream->item_encoded);
    ck_assert(ev->deprecated);
    ck_assert_str_eq(ev->stream->failure_event, "effect/httpapi/stream/failure");
    const sdkc_operation *put = &ir->ops[2];
    ck_assert_str_eq(put->success.unwrap, "data");
    ck_assert_ptr_eq(put->success.result, ir->types[6]);
    ck_assert_ptr_null(put->prefix);
    ck_assert_int_eq(put->body->type->kind, SDKC_TYPE_UNION);
    ck_assert_str_eq(put->body->type->u.union_.variants[0].tag, "circle");

    free(s);
    free(s2);
    sdkc_compiled_free(c);
    sdkc_diag_free(d);
    sdkc_arena_free(f.a);
}
END_TEST

START_TEST(empty_ir)
{
    sdkc_ir ir;
    memset(&ir, 0, sizeof ir);
    size_t len = 0;
    char *s = to_json(&ir, &len);
    ck_assert_str_eq(s, "{\n  \"format\": \"sdkc-ir/1\",\n  \"source\": {\n    \"name\": null,\n"
                        "    \"sha256\": null\n  },\n  \"info\": {\n    \"title\": null,\n"
                        "    \"version\": null\n  },\n  \"security_schemes\": [],\n"
                        "  \"brands\": [],\n  \"types\": [],\n  \"operations\": []\n}\n");
    sdkc_diag *d = NULL;
    ck_assert_int_eq(sdkc_diag_new(&d), SDKC_OK);
    sdkc_compiled *c = NULL;
    ck_assert_int_eq(sdkc_ir_from_json(&c, "e.json", s, len, d), SDKC_OK);
    char *s2 = to_json(sdkc_compiled_ir(c), &len);
    ck_assert_str_eq(s, s2);
    free(s);
    free(s2);
    sdkc_compiled_free(c);
    sdkc_diag_free(d);
}
END_TEST

/* ---- bad input ---- */

typedef struct bad_case {
    const char *json;
    uint32_t line, col; /* expected position of the first error (0: whole file) */
    const char *message_part;
} bad_case;

#define HEAD "{\"format\": \"sdkc-ir/1\", \"security_schemes\": [], \"brands\": [], "

static const bad_case BAD[] = {
    {"{\n  \"format\": \"sdkc-ir/1\",\n  oops\n}", 3, 6, "string or '}' expected"},
    {"", 1, 1, "'[' or '{' expected"},
    {"[1, 2]", 0, 0, "must be a JSON object"},
    {"{\"format\": \"sdkc-ir/2\"}", 0, 0, "\"format\" is not \"sdkc-ir/1\""},
    {"{\"format\": \"sdkc-ir/1\"}", 0, 0, "\"security_schemes\" must be an array"},
    {"{\"format\": \"sdkc-ir/1\", \"format\": \"x\"}", 1, 32, "duplicate object key"},
    {HEAD "\"types\": [{\"name\": \"A\", \"kind\": \"array\", \"items\": {\"ref\": \"B\"}}], "
          "\"operations\": []}",
     0, 0, "type A: unknown type \"B\""},
    {HEAD "\"types\": [{\"name\": \"A\", \"kind\": \"string\"}, {\"name\": \"A\", \"kind\": "
          "\"string\"}], \"operations\": []}",
     0, 0, "type \"A\" is defined twice"},
    {HEAD "\"types\": [{\"name\": \"A\", \"kind\": \"strange\"}], \"operations\": []}", 0, 0,
     "type A: \"kind\" has no valid value"},
    {HEAD "\"types\": [], \"operations\": [{\"id\": \"x\", \"method\": \"GET\", \"path\": \"/\", "
          "\"params\": [], \"errors\": [], \"security\": []}]}",
     0, 0, "operation x: missing \"success\""},
    {HEAD "\"types\": [], \"operations\": [{\"id\": \"x\", \"method\": \"GET\", \"path\": \"/\", "
          "\"params\": [], \"success\": {\"status\": 200, \"encoding\": \"none\"}, \"errors\": "
          "[], \"security\": [\"basic\"]}]}",
     0, 0, "security[0] names no security scheme"},
    {HEAD "\"types\": [], \"operations\": [{\"id\": \"x\", \"method\": \"GET\", \"path\": \"/\", "
          "\"params\": [], \"success\": {\"status\": 200, \"encoding\": \"json\", \"type\": "
          "{\"kind\": \"string\"}}, \"pagination\": {\"item\": {\"kind\": \"string\"}, "
          "\"cursor_param\": \"cursor\"}, \"errors\": [], \"security\": []}]}",
     0, 0, "pagination parameter \"cursor\" is not a parameter"},
};
#define NBAD (sizeof BAD / sizeof BAD[0])

START_TEST(bad_input)
{
    const bad_case *b = &BAD[_i];
    sdkc_diag *d = NULL;
    ck_assert_int_eq(sdkc_diag_new(&d), SDKC_OK);
    sdkc_compiled *c = (sdkc_compiled *)1;
    ck_assert_int_eq(sdkc_ir_from_json(&c, "bad.ir.json", b->json, strlen(b->json), d),
                     SDKC_ERR_INVALID);
    ck_assert_ptr_null(c);
    ck_assert_uint_ge(sdkc_diag_errors(d), 1);
    const sdkc_diag_entry *e = sdkc_diag_get(d, 0);
    ck_assert_str_eq(e->loc.file, "bad.ir.json");
    ck_assert_msg(e->loc.line == b->line && e->loc.col == b->col, "case %d: at %u:%u (%s)", _i,
                  e->loc.line, e->loc.col, e->message);
    ck_assert_msg(strstr(e->message, b->message_part) != NULL, "case %d: \"%s\"", _i, e->message);
    sdkc_diag_free(d);
}
END_TEST

/* ---- goldens: the compiled IR of the example and OpenCode contracts, byte for byte ---- */

typedef struct golden {
    const char *contract; /* relative to the source dir */
    const char *golden;   /* relative to tests/compiler/golden */
} golden;

static const golden GOLDENS[] = {
    {"spec/examples/example.yaml", "example.ir.json"},
    {"spec/opencode/openapi.json", "opencode.ir.json"},
};
#define NGOLDENS   (sizeof GOLDENS / sizeof GOLDENS[0])
#define GOLDEN_DIR SDKC_SOURCE_DIR "/tests/compiler/golden"

/* Where two texts first differ, as line:col of the first. */
static void first_difference(const char *a, const char *b, unsigned *line, unsigned *col)
{
    *line = 1;
    *col = 1;
    for (; *a && *a == *b; a++, b++) {
        if (*a == '\n') {
            ++*line;
            *col = 1;
        } else {
            ++*col;
        }
    }
}

START_TEST(golden_compile)
{
    const golden *g = &GOLDENS[_i];
    char contract[1024], gpath[1024], actual[1024];
    snprintf(contract, sizeof contract, "%s/%s", SDKC_SOURCE_DIR, g->contract);
    snprintf(gpath, sizeof gpath, "%s/%s", GOLDEN_DIR, g->golden);
    snprintf(actual, sizeof actual, "%s/%s.actual", SDKC_BINARY_DIR, g->golden);

    sdkc_diag *d = NULL;
    ck_assert_int_eq(sdkc_diag_new(&d), SDKC_OK);
    sdkc_compiled *c = NULL;
    sdkc_compile_options opts = SDKC_COMPILE_OPTIONS_INIT;
    sdkc_status st = sdkc_compile_file(&c, contract, &opts, d);
    if (st != SDKC_OK)
        sdkc_diag_print(d, stderr, false);
    ck_assert_int_eq(st, SDKC_OK);
    ck_assert_uint_eq(sdkc_diag_errors(d), 0);
    size_t len = 0;
    char *json = to_json(sdkc_compiled_ir(c), &len);

    const char *update = getenv("SDKC_UPDATE_GOLDEN");
    if (update && strcmp(update, "1") == 0) {
        ck_assert_int_eq(sdkc_write_file(gpath, json, len), SDKC_OK);
        fprintf(stderr, "golden: wrote %s\n", gpath);
    }
    char *want = NULL;
    size_t wlen = 0;
    ck_assert_msg(sdkc_read_file(gpath, &want, &wlen) == SDKC_OK,
                  "%s missing; create it with SDKC_UPDATE_GOLDEN=1 ctest -R compiler/golden",
                  gpath);
    if (wlen != len || memcmp(want, json, len) != 0) {
        unsigned line = 0, col = 0;
        first_difference(want, json, &line, &col);
        (void)sdkc_write_file(actual, json, len);
        ck_abort_msg("%s differs from the compiled IR at %u:%u; see: diff -u %s %s; if the change "
                     "is intended: SDKC_UPDATE_GOLDEN=1 ctest -R compiler/golden",
                     g->golden, line, col, gpath, actual);
    }
    /* written to a stream as it is made (64 KiB at a time): the same bytes */
    FILE *fp = tmpfile();
    ck_assert_ptr_nonnull(fp);
    ck_assert_int_eq(sdkc_ir_write_json(sdkc_compiled_ir(c), fp), SDKC_OK);
    ck_assert_int_eq(fseek(fp, 0, SEEK_END), 0);
    ck_assert_int_eq((long)len, ftell(fp));
    rewind(fp);
    char *streamed = malloc(len + 1);
    ck_assert_ptr_nonnull(streamed);
    ck_assert_uint_eq(fread(streamed, 1, len + 1, fp), len);
    ck_assert(memcmp(streamed, json, len) == 0);
    free(streamed);
    fclose(fp);
    /* a stream that refuses writes: SDKC_ERR_IO */
    fp = fopen("/dev/null", "rb");
    ck_assert_ptr_nonnull(fp);
    ck_assert_int_eq(sdkc_ir_write_json(sdkc_compiled_ir(c), fp), SDKC_ERR_IO);
    fclose(fp);
    free(want);
    free(json);
    sdkc_compiled_free(c);
    sdkc_diag_free(d);
}
END_TEST

/* Reading a golden and writing it again gives the same bytes. */
START_TEST(golden_round_trip)
{
    const golden *g = &GOLDENS[_i];
    char gpath[1024];
    snprintf(gpath, sizeof gpath, "%s/%s", GOLDEN_DIR, g->golden);
    char *want = NULL;
    size_t wlen = 0;
    ck_assert_int_eq(sdkc_read_file(gpath, &want, &wlen), SDKC_OK);
    sdkc_diag *d = NULL;
    ck_assert_int_eq(sdkc_diag_new(&d), SDKC_OK);
    sdkc_compiled *c = NULL;
    sdkc_status st = sdkc_ir_from_json(&c, g->golden, want, wlen, d);
    if (st != SDKC_OK)
        sdkc_diag_print(d, stderr, false);
    ck_assert_int_eq(st, SDKC_OK);
    size_t len = 0;
    char *again = to_json(sdkc_compiled_ir(c), &len);
    ck_assert_uint_eq(len, wlen);
    ck_assert_int_eq(memcmp(again, want, len), 0);
    free(again);
    free(want);
    sdkc_compiled_free(c);
    sdkc_diag_free(d);
}
END_TEST

/* What other tools rely on in the OpenCode IR, checked on the IR read back from the golden. */
START_TEST(golden_opencode_shape)
{
    char *text = NULL;
    size_t len = 0;
    ck_assert_int_eq(sdkc_read_file(GOLDEN_DIR "/opencode.ir.json", &text, &len), SDKC_OK);
    sdkc_diag *d = NULL;
    ck_assert_int_eq(sdkc_diag_new(&d), SDKC_OK);
    sdkc_compiled *c = NULL;
    ck_assert_int_eq(sdkc_ir_from_json(&c, "opencode.ir.json", text, len, d), SDKC_OK);
    const sdkc_ir *ir = sdkc_compiled_ir(c);
    ck_assert_uint_eq(ir->nops, 188);
    const sdkc_operation *list = NULL, *events = NULL, *msg = NULL;
    for (size_t i = 0; i < ir->nops; i++) {
        if (strcmp(ir->ops[i].id, "v2.session.list") == 0)
            list = &ir->ops[i];
        else if (strcmp(ir->ops[i].id, "v2.session.events") == 0)
            events = &ir->ops[i];
        else if (strcmp(ir->ops[i].id, "v2.session.message") == 0)
            msg = &ir->ops[i];
    }
    ck_assert_ptr_nonnull(list);
    ck_assert_ptr_nonnull(list->pagination);
    ck_assert_str_eq(list->pagination->item->name, "SessionV2Info");
    ck_assert_str_eq(list->pagination->cursor_param->wire_name, "cursor");
    ck_assert_ptr_nonnull(events);
    ck_assert_ptr_nonnull(events->stream);
    ck_assert_str_eq(events->stream->item->name, "SessionDurableEvent");
    ck_assert_str_eq(events->stream->failure_event, "effect/httpapi/stream/failure");
    ck_assert_ptr_nonnull(msg);
    bool saw404 = false;
    for (size_t i = 0; i < msg->nerrors; i++) {
        if (msg->errors[i].status != 404)
            continue;
        saw404 = true;
        ck_assert_uint_eq(msg->errors[i].ntags, 2);
        ck_assert_str_eq(msg->errors[i].tags[0].tag, "MessageNotFoundError");
        ck_assert_str_eq(msg->errors[i].tags[1].tag, "SessionNotFoundError");
    }
    ck_assert(saw404);
    free(text);
    sdkc_compiled_free(c);
    sdkc_diag_free(d);
}
END_TEST

static sdkc_compiled *read_ir_file(const char *path, sdkc_diag *d)
{
    char *text = NULL;
    size_t len = 0;
    ck_assert_int_eq(sdkc_read_file(path, &text, &len), SDKC_OK);
    sdkc_compiled *c = NULL;
    sdkc_status st = sdkc_ir_from_json(&c, path, text, len, d);
    if (st != SDKC_OK)
        sdkc_diag_print(d, stderr, false);
    ck_assert_int_eq(st, SDKC_OK);
    free(text);
    return c;
}

/* Counts the lenient nullables among the fields of named objects. */
static size_t lenient_fields(const sdkc_ir *ir)
{
    size_t n = 0;
    for (size_t i = 0; i < ir->ntypes; i++) {
        const sdkc_type *t = ir->types[i];
        for (size_t j = 0; t->kind == SDKC_TYPE_OBJECT && j < t->u.object.nfields; j++) {
            const sdkc_type *ft = t->u.object.fields[j].type;
            n += ft->kind == SDKC_TYPE_NULLABLE && ft->u.nullable.lenient;
        }
    }
    return n;
}

static void expect_default_info(const sdkc_response_info *ri, const char *content_type)
{
    ck_assert_uint_eq(ri->nheaders, 0);
    ck_assert_uint_eq(ri->nlinks, 0);
    ck_assert_uint_eq(ri->nmedia_types, content_type ? 1 : 0);
    if (content_type)
        ck_assert_str_eq(ri->media_types[0], content_type);
}

/* IR JSON written before the facts existed (example.ir.json as sdkc 0.3.0 wrote it) still reads,
 * with the documented defaults: `declared` from the origin (the rule emitters applied before, so
 * they generate the same code), no lenient nullable, inferred kind, required-only name, header
 * or link, and the media types of a response its content_type alone. */
START_TEST(old_format_defaults)
{
    sdkc_diag *d = NULL;
    ck_assert_int_eq(sdkc_diag_new(&d), SDKC_OK);
    sdkc_compiled *oc =
        read_ir_file(SDKC_SOURCE_DIR "/tests/compiler/data/ir/example-before-facts.ir.json", d);
    sdkc_compiled *nc = read_ir_file(GOLDEN_DIR "/example.ir.json", d);
    const sdkc_ir *old = sdkc_compiled_ir(oc), *now = sdkc_compiled_ir(nc);
    ck_assert_uint_eq(old->ntypes, now->ntypes);
    size_t declared = 0;
    for (size_t i = 0; i < old->ntypes; i++) {
        ck_assert_str_eq(old->types[i]->name, now->types[i]->name);
        ck_assert_int_eq(old->types[i]->declared, now->types[i]->declared);
        ck_assert(!old->types[i]->inferred);
        if (old->types[i]->kind == SDKC_TYPE_OBJECT)
            ck_assert_uint_eq(old->types[i]->u.object.nrequired_only, 0);
        if (old->types[i]->kind == SDKC_TYPE_ARRAY)
            ck_assert(!old->types[i]->u.array.unique_items);
        declared += old->types[i]->declared;
    }
    /* both kinds occur, so the comparison above means something */
    ck_assert_uint_gt(declared, 0);
    ck_assert_uint_lt(declared, old->ntypes);
    ck_assert_uint_eq(lenient_fields(old), 0);
    ck_assert_uint_gt(lenient_fields(now), 0);
    ck_assert_uint_eq(old->nops, now->nops);
    for (size_t i = 0; i < old->nops; i++) {
        const sdkc_operation *op = &old->ops[i];
        expect_default_info(&op->success.response, op->success.content_type);
        for (size_t j = 0; j < op->nmore_successes; j++)
            expect_default_info(&op->more_successes[j].response,
                                op->more_successes[j].content_type);
        for (size_t j = 0; j < op->nerrors; j++)
            expect_default_info(&op->errors[j].response, op->errors[j].content_type);
    }
    sdkc_compiled_free(oc);
    sdkc_compiled_free(nc);
    sdkc_diag_free(d);
}
END_TEST

static Suite *ir_json_suite(void)
{
    Suite *s = suite_create("ir_json");
    TCase *tc = tcase_create("write");
    tcase_add_test(tc, write_shape);
    tcase_add_test(tc, round_trip);
    tcase_add_test(tc, empty_ir);
    suite_add_tcase(s, tc);
    tc = tcase_create("read");
    tcase_add_loop_test(tc, bad_input, 0, (int)NBAD);
    suite_add_tcase(s, tc);
    tc = tcase_create("golden");
    tcase_add_loop_test(tc, golden_compile, 0, (int)NGOLDENS);
    tcase_add_loop_test(tc, golden_round_trip, 0, (int)NGOLDENS);
    tcase_add_test(tc, golden_opencode_shape);
    tcase_add_test(tc, old_format_defaults);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(ir_json_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
