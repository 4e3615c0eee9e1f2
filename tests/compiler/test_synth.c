/* test_synth.c - sdkc_synth_value: a valid JSON value for an IR type, or the reason there is none.
 *
 * Types are built by hand, one per rule (bounds, formats, patterns, brands, the hooks, unions,
 * cycles); the value is compared as compact JSON text, which also pins the field order. The
 * OpenCode contract's request bodies and required parameters must all synthesize, the same way
 * twice. */
#include <check.h>
#include <jansson.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "sdkc/ir.h"
#include "sdkc/synth.h"
#include "sdkc/compile.h"
#include "sdkc/doc.h"
#include "sdkc/ir_json.h"

#ifndef SDKC_SOURCE_DIR
#define SDKC_SOURCE_DIR "."
#endif

static sdkc_arena *arena;

static void setup(void)
{
    ck_assert_int_eq(sdkc_arena_new(&arena), SDKC_OK);
}

static void teardown(void)
{
    sdkc_arena_free(arena);
    arena = NULL;
}

/* The value of t as compact JSON text (arena), or "!" and the reason when there is none. */
static const char *value_of(const sdkc_type *t, const sdkc_synth_options *opts)
{
    json_t *v = (json_t *)1;
    const char *why = "unset";
    sdkc_status st = sdkc_synth_value(&v, arena, t, opts, &why);
    if (st != SDKC_OK) {
        ck_assert_int_eq(st, SDKC_ERR_INVALID);
        ck_assert_ptr_null(v);
        ck_assert_ptr_nonnull(why);
        return sdkc_arena_printf(arena, "!%s", why);
    }
    ck_assert_ptr_null(why);
    char *text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
    ck_assert_ptr_nonnull(text);
    const char *r = sdkc_arena_strdup(arena, text);
    free(text);
    json_decref(v);
    return r;
}

static sdkc_type str(void)
{
    sdkc_type t = {.kind = SDKC_TYPE_STRING};
    return t;
}

START_TEST(strings)
{
    sdkc_type t = str();
    ck_assert_str_eq(value_of(&t, NULL), "\"mock\"");
    t.u.str.has_min_length = true;
    t.u.str.min_length = 7;
    ck_assert_str_eq(value_of(&t, NULL), "\"mockxxx\"");
    t.u.str.min_length = 5000;
    ck_assert_str_eq(value_of(&t, NULL), "!minLength above 4096");
    t = str();
    t.u.str.has_max_length = true;
    t.u.str.max_length = 2;
    ck_assert_str_eq(value_of(&t, NULL), "\"mo\"");

    /* a format fixes the text: it is not cut or padded */
    t = str();
    t.u.str.format = "date-time";
    ck_assert_str_eq(value_of(&t, NULL), "\"2024-01-02T03:04:05Z\"");
    t.u.str.format = "uuid";
    t.u.str.has_max_length = true;
    t.u.str.max_length = 3;
    ck_assert_str_eq(value_of(&t, NULL), "!string format or prefix longer than maxLength");
    t = str();
    t.u.str.format = "no-such-format"; /* no constraint known: the filler */
    ck_assert_str_eq(value_of(&t, NULL), "\"mock\"");
    ck_assert_str_eq(sdkc_synth_format_value("email"), "mock@example.com");
    ck_assert_ptr_null(sdkc_synth_format_value("binary"));
}
END_TEST

/* The other values of a format: each matches the format's grammar (a POSIX ERE of RFC 3339, the
 * dot-atom email, RFC 4122, RFC 4291 (the two forms used), RFC 4648), differs from the
 * format's first value and from the others. */
START_TEST(format_variants)
{
    static const char *const grammar[][2] = {
        {"date-time", "^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5]"
                      "[0-9]:[0-5][0-9](\\.[0-9]+)?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$"},
        {"date", "^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$"},
        {"time", "^([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]+)?(Z|[+-]([01][0-9]|2[0-3]):"
                 "[0-5][0-9])$"},
        {"uuid", "^[0-9a-fA-F]{8}(-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}$"},
        {"email", "^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@"
                  "([A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?\\.)+[A-Za-z]+$"},
        {"hostname", "^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$"},
        {"ipv4", "^((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\\.){3}"
                 "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$"},
        {"ipv6", "^([0-9a-f]{1,4}:){7}[0-9a-f]{1,4}$|^([0-9a-f]{1,4}:){1,6}(:[0-9a-f]{1,4}){1,6}$|^"
                 "::[0-9a-f]{1,4}$"},
        {"byte", "^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$"},
        {"int64", "^-?[0-9]+$"},
        {"uri", "^[a-z][a-z0-9+.-]*://[^ ]+$"},
    };
    for (size_t g = 0; g < sizeof grammar / sizeof grammar[0]; g++) {
        regex_t re;
        ck_assert_int_eq(regcomp(&re, grammar[g][1], REG_EXTENDED | REG_NOSUB), 0);
        const char *first = sdkc_synth_format_value(grammar[g][0]), *v, *note = NULL;
        ck_assert_msg(regexec(&re, first, 0, NULL, 0) == 0, "%s: %s", grammar[g][0], first);
        size_t n = 0;
        for (; (v = sdkc_synth_format_variant(grammar[g][0], n, &note)) != NULL; n++) {
            ck_assert_msg(regexec(&re, v, 0, NULL, 0) == 0, "%s: %s", grammar[g][0], v);
            ck_assert_str_ne(v, first);
            ck_assert(note && *note);
            for (size_t k = 0; k < n; k++)
                ck_assert_str_ne(v, sdkc_synth_format_variant(grammar[g][0], k, NULL));
        }
        ck_assert_msg(n >= 2, "%s has %zu variants", grammar[g][0], n);
        regfree(&re);
    }
    ck_assert_str_eq(sdkc_synth_format_variant("date-time", 0, NULL), "2024-02-29T23:59:59+05:30");
    ck_assert_ptr_null(sdkc_synth_format_variant("binary", 0, NULL));
    ck_assert_ptr_null(sdkc_synth_format_variant("no-such-format", 0, NULL));
    ck_assert_ptr_null(sdkc_synth_format_variant(NULL, 0, NULL));
}
END_TEST

START_TEST(patterns)
{
    sdkc_type t = str();
    t.u.str.pattern = "^ab+c$";
    ck_assert_str_eq(value_of(&t, NULL), "\"abc\"");
    t.u.str.has_min_length = true;
    t.u.str.min_length = 5;
    ck_assert_str_eq(value_of(&t, NULL), "\"abbbc\"");
    /* a pattern wins over a format */
    t = str();
    t.u.str.pattern = "^x$";
    t.u.str.format = "date";
    ck_assert_str_eq(value_of(&t, NULL), "\"x\"");
    /* lookaround: generated, then verified with PCRE2 */
    t.u.str.pattern = "^(?=a)a$";
    ck_assert_str_eq(value_of(&t, NULL), "\"a\"");
    t.u.str.pattern = "^(?=b)a$";
    const char *r = value_of(&t, NULL);
    ck_assert_msg(!strncmp(r, "!string pattern '^(?=b)a$': ", 28), "%s", r);
    ck_assert_msg(strstr(r, "lookaround") != NULL, "%s", r);
    /* a pattern the generator cannot satisfy: the first of the contract's own examples, default
       and enum values that matches within the bounds */
    static const char *const ex[] = {"abc1", "no digit here", "abcdefgh1", "zzzzzzzz2"};
    t = str();
    t.u.str.pattern = "^(?=.*\\d)[a-z\\d ]{8,}$";
    t.u.str.examples = ex;
    t.u.str.nexamples = 4;
    ck_assert_str_eq(value_of(&t, NULL), "\"abcdefgh1\"");
    t.u.str.has_max_length = true;
    t.u.str.max_length = 8;
    r = value_of(&t, NULL);
    ck_assert_msg(strstr(r, "none of the contract's examples") != NULL, "%s", r);
    t.u.str.nexamples = 0;
    r = value_of(&t, NULL);
    ck_assert_msg(r[0] == '!' && !strstr(r, "none of the contract's examples"), "%s", r);
}
END_TEST

static const char *known_id(void *user, const sdkc_brand *b)
{
    return !strcmp(b->prefix, (const char *)user) ? "ses_123" : NULL;
}

START_TEST(brands)
{
    sdkc_brand ses = {"SessionID", "session_id", "ses", "^ses", 1};
    sdkc_brand msg = {"MessageID", "message_id", "msg", "^msg", 1};
    sdkc_type t = str();
    t.u.str.brand = &ses;
    t.u.str.pattern = "^ses";
    ck_assert_str_eq(value_of(&t, NULL), "\"ses_mock\"");
    sdkc_synth_options o = SDKC_SYNTH_OPTIONS_INIT;
    o.filler = "conform";
    ck_assert_str_eq(value_of(&t, &o), "\"ses_conform\"");
    o.brand_value = known_id;
    o.user = "ses";
    ck_assert_str_eq(value_of(&t, &o), "\"ses_123\"");
    t.u.str.brand = &msg; /* the hook knows no id of this brand */
    ck_assert_str_eq(value_of(&t, &o), "\"msg_conform\"");
    t.u.str.has_min_length = true;
    t.u.str.min_length = 20;
    ck_assert_str_eq(value_of(&t, &o), "!string format or prefix shorter than minLength");
    o.filler = NULL; /* the default */
    t.u.str.has_min_length = false;
    ck_assert_str_eq(value_of(&t, &o), "\"msg_mock\"");
}
END_TEST

START_TEST(numbers)
{
    sdkc_type t = {.kind = SDKC_TYPE_INTEGER};
    ck_assert_str_eq(value_of(&t, NULL), "1");
    t.u.num.has_minimum = true;
    t.u.num.minimum = 5;
    t.u.num.exclusive_minimum = true;
    ck_assert_str_eq(value_of(&t, NULL), "6");
    t.u.num.has_maximum = true;
    t.u.num.maximum = 6;
    t.u.num.exclusive_maximum = true;
    ck_assert_str_eq(value_of(&t, NULL), "!empty numeric range");
    t.kind = SDKC_TYPE_NUMBER; /* (5, 6): the middle */
    ck_assert_str_eq(value_of(&t, NULL), "5.5");
    sdkc_type big = {.kind = SDKC_TYPE_INTEGER};
    big.u.num.has_minimum = true;
    big.u.num.minimum = 1e17;
    ck_assert_str_eq(value_of(&big, NULL), "!integer bound out of range");
    sdkc_type lit = {.kind = SDKC_TYPE_LITERAL};
    lit.u.literal.kind = SDKC_LIT_NUMBER;
    lit.u.literal.text = "2.5";
    ck_assert_str_eq(value_of(&lit, NULL), "2.5");
    lit.u.literal.text = "1_000";
    ck_assert_str_eq(value_of(&lit, NULL), "!a number literal that is not JSON");
}
END_TEST

static bool want_flag(void *user, const sdkc_type *t, const sdkc_field *f)
{
    (void)t;
    return !strcmp(f->wire_name, (const char *)user);
}

START_TEST(objects)
{
    sdkc_type s = str(), i = {.kind = SDKC_TYPE_INTEGER}, b = {.kind = SDKC_TYPE_BOOLEAN};
    sdkc_field fields[] = {
        {.wire_name = "name", .type = &s, .required = true},
        {.wire_name = "flag", .type = &b},
        {.wire_name = "count", .type = &i, .required = true},
        {.wire_name = "other", .type = &b},
    };
    sdkc_type o = {.kind = SDKC_TYPE_OBJECT};
    o.u.object.fields = fields;
    o.u.object.nfields = 4;
    ck_assert_str_eq(value_of(&o, NULL), "{\"name\":\"mock\",\"count\":1}");
    sdkc_synth_options opt = SDKC_SYNTH_OPTIONS_INIT;
    opt.want_optional = want_flag;
    opt.user = "flag";
    ck_assert_str_eq(value_of(&o, &opt), "{\"name\":\"mock\",\"flag\":true,\"count\":1}");

    /* a required field's failure is the object's, with the field's reason */
    sdkc_type never = {.kind = SDKC_TYPE_NEVER};
    fields[2].type = &never;
    ck_assert_str_eq(value_of(&o, NULL), "!a type no value satisfies (not: {})");

    /* a required cycle: too deep, at the default limit and at a smaller one */
    sdkc_field self = {.wire_name = "next", .required = true};
    sdkc_type node = {.kind = SDKC_TYPE_OBJECT, .recursive = true};
    self.type = &node;
    node.u.object.fields = &self;
    node.u.object.nfields = 1;
    ck_assert_str_eq(value_of(&node, NULL), "!required fields nest too deep (a recursive type)");
    self.required = false;
    ck_assert_str_eq(value_of(&node, NULL), "{}");
    self.required = true;
    node.u.object.nfields = 0;
    ck_assert_str_eq(value_of(&node, NULL), "{}");
}
END_TEST

START_TEST(collections)
{
    sdkc_type s = str();
    sdkc_type a = {.kind = SDKC_TYPE_ARRAY};
    a.u.array.items = &s;
    ck_assert_str_eq(value_of(&a, NULL), "[\"mock\"]");
    a.u.array.has_min_items = true;
    a.u.array.min_items = 3;
    ck_assert_str_eq(value_of(&a, NULL), "[\"mock\",\"mock\",\"mock\"]");
    a.u.array.min_items = 65;
    ck_assert_str_eq(value_of(&a, NULL), "!minItems above 64");
    a.u.array.has_max_items = true; /* inconsistent bounds: the maximum wins */
    a.u.array.max_items = 0;
    ck_assert_str_eq(value_of(&a, NULL), "[]");

    sdkc_type i = {.kind = SDKC_TYPE_INTEGER};
    const sdkc_type *items[] = {&i, &s};
    sdkc_type tu = {.kind = SDKC_TYPE_TUPLE};
    tu.u.tuple.items = items;
    tu.u.tuple.nitems = 2;
    ck_assert_str_eq(value_of(&tu, NULL), "[1,\"mock\"]");

    sdkc_type m = {.kind = SDKC_TYPE_MAP};
    m.u.map.value = &i;
    ck_assert_str_eq(value_of(&m, NULL), "{\"mock\":1}");
    sdkc_synth_options o = SDKC_SYNTH_OPTIONS_INIT;
    o.filler = "k";
    ck_assert_str_eq(value_of(&m, &o), "{\"k\":1}");
    m.u.map.key_pattern = "^x-";
    ck_assert_str_eq(value_of(&m, NULL), "{}");

    const char *const values[] = {"open", "closed"};
    sdkc_type e = {.kind = SDKC_TYPE_ENUM};
    e.u.enumeration.values = values;
    ck_assert_str_eq(value_of(&e, NULL), "!enum without values");
    e.u.enumeration.nvalues = 2;
    ck_assert_str_eq(value_of(&e, NULL), "\"open\"");
}
END_TEST

/* uniqueItems: items after the first are other values, or the type fails. */
START_TEST(unique_items)
{
    sdkc_type s = str();
    sdkc_type a = {.kind = SDKC_TYPE_ARRAY};
    a.u.array.items = &s;
    a.u.array.has_min_items = true;
    a.u.array.min_items = 3;
    a.u.array.unique_items = true;
    ck_assert_str_eq(value_of(&a, NULL), "[\"mock\",\"mock1\",\"mock2\"]");
    s.u.str.has_max_length = true; /* "mock1" cut to "mock" */
    s.u.str.max_length = 4;
    ck_assert_str_eq(value_of(&a, NULL),
                     "!uniqueItems: no distinct items of the item type were made for minItems");

    sdkc_type i = {.kind = SDKC_TYPE_INTEGER};
    i.u.num.has_maximum = true;
    i.u.num.maximum = 2;
    a.u.array.items = &i;
    ck_assert_str_eq(value_of(&a, NULL), "[1,2,-1]"); /* up while the maximum allows, else down */

    const char *const values[] = {"open", "closed"};
    sdkc_type e = {.kind = SDKC_TYPE_ENUM};
    e.u.enumeration.values = values;
    e.u.enumeration.nvalues = 2;
    a.u.array.items = &e;
    a.u.array.min_items = 2;
    ck_assert_str_eq(value_of(&a, NULL), "[\"open\",\"closed\"]");
    a.u.array.min_items = 3; /* two members, three items */
    ck_assert_str_eq(value_of(&a, NULL),
                     "!uniqueItems: no distinct items of the item type were made for minItems");

    /* a format's other values; a pattern's longer matches */
    sdkc_type u = str();
    u.u.str.format = "uuid";
    a.u.array.items = &u;
    ck_assert_str_eq(value_of(&a, NULL), "[\"00000000-0000-4000-8000-000000000000\","
                                         "\"123e4567-e89b-42d3-a456-556642440000\","
                                         "\"123E4567-E89B-42D3-A456-556642440000\"]");
    sdkc_type pat = str();
    pat.u.str.pattern = "^[a-z]+$";
    a.u.array.items = &pat;
    ck_assert_str_eq(value_of(&a, NULL), "[\"a\",\"aa\",\"aaa\"]");
    pat.u.str.pattern = "^(yes|no)$"; /* no longer match of "yes" */
    a.u.array.min_items = 2;
    ck_assert_str_eq(value_of(&a, NULL),
                     "!uniqueItems: no distinct items of the item type were made for minItems");

    sdkc_type b = {.kind = SDKC_TYPE_BOOLEAN};
    a.u.array.items = &b;
    a.u.array.min_items = 2;
    ck_assert_str_eq(value_of(&a, NULL), "[true,false]");

    /* an object differs by its plain string field; nested unique arrays stay distinct too */
    sdkc_field f[] = {{.wire_name = "name", .type = &s, .required = true}};
    s.u.str.has_max_length = false;
    sdkc_type o = {.kind = SDKC_TYPE_OBJECT};
    o.u.object.fields = f;
    o.u.object.nfields = 1;
    a.u.array.items = &o;
    ck_assert_str_eq(value_of(&a, NULL), "[{\"name\":\"mock\"},{\"name\":\"mock1\"}]");
    sdkc_type inner = {.kind = SDKC_TYPE_ARRAY};
    inner.u.array.items = &i;
    inner.u.array.has_min_items = true;
    inner.u.array.min_items = 2;
    inner.u.array.unique_items = true;
    a.u.array.items = &inner;
    ck_assert_str_eq(value_of(&a, NULL), "[[1,2],[2,-1]]");
}
END_TEST

START_TEST(unions)
{
    sdkc_type s = str(), i = {.kind = SDKC_TYPE_INTEGER}, n = {.kind = SDKC_TYPE_NULL};
    sdkc_variant untagged[] = {{.type = &i}, {.type = &n}, {.type = &s}};
    sdkc_type u = {.kind = SDKC_TYPE_UNION};
    u.u.union_.variants = untagged;
    ck_assert_str_eq(value_of(&u, NULL), "!union without variants");
    u.u.union_.nvariants = 3;
    /* "1" in a path would match the integer and the string: the string is taken */
    ck_assert_str_eq(value_of(&u, NULL), "\"mock\"");
    s.u.str.format = "date";
    ck_assert_str_eq(value_of(&u, NULL), "1");

    /* a tagged variant carries its tag after its own fields when its schema leaves it out */
    sdkc_field f = {.wire_name = "text", .type = &i, .required = true};
    sdkc_type obj = {.kind = SDKC_TYPE_OBJECT};
    obj.u.object.fields = &f;
    obj.u.object.nfields = 1;
    sdkc_variant tagged[] = {{.type = &obj, .tag = "text"}};
    u.u.union_.variants = tagged;
    u.u.union_.nvariants = 1;
    u.u.union_.discriminator = "type";
    ck_assert_str_eq(value_of(&u, NULL), "{\"text\":1,\"type\":\"text\"}");

    sdkc_type nl = {.kind = SDKC_TYPE_NULLABLE};
    nl.u.nullable.inner = &u;
    ck_assert_str_eq(value_of(&nl, NULL), "{\"text\":1,\"type\":\"text\"}");
    sdkc_type js = {.kind = SDKC_TYPE_JSON_STRING};
    js.u.json_string.content = &obj;
    ck_assert_str_eq(value_of(&js, NULL), "\"{\\\"text\\\":1}\"");
    sdkc_type any = {.kind = SDKC_TYPE_ANY};
    ck_assert_str_eq(value_of(&any, NULL), "{}");
}
END_TEST

/* A pattern the generator cannot satisfy: the compiler keeps the schema's own string example,
 * examples, default and enum values (in the IR JSON too), and the value is the first that
 * matches. */
START_TEST(contract_examples)
{
    static const char yaml[] = "openapi: 3.1.0\n"
                               "info: {title: t, version: '1'}\n"
                               "paths: {}\n"
                               "components:\n"
                               "  schemas:\n"
                               "    Password:\n"
                               "      type: string\n"
                               "      pattern: '^(?=.*\\d)(?=.*[A-Z])[A-Za-z\\d]{8,}$'\n"
                               "      example: weak\n"
                               "      examples: [alsoweak, 7]\n"
                               "      default: Str0ngPass\n";
    sdkc_diag *d = NULL;
    sdkc_doc *doc = NULL;
    sdkc_compiled *c = NULL, *c2 = NULL;
    ck_assert_int_eq(sdkc_diag_new(&d), SDKC_OK);
    ck_assert_int_eq(sdkc_doc_load_buffer(&doc, "t.yaml", yaml, strlen(yaml), d), SDKC_OK);
    ck_assert_int_eq(sdkc_compile(&c, doc, NULL, d), SDKC_OK);
    const sdkc_ir *ir = sdkc_compiled_ir(c);
    ck_assert_uint_eq(ir->ntypes, 1);
    const sdkc_type *t = ir->types[0];
    ck_assert_uint_eq(t->u.str.nexamples, 3); /* the number 7 is not a string */
    ck_assert_str_eq(t->u.str.examples[0], "weak");
    ck_assert_str_eq(t->u.str.examples[1], "alsoweak");
    ck_assert_str_eq(t->u.str.examples[2], "Str0ngPass");
    ck_assert_str_eq(value_of(t, NULL), "\"Str0ngPass\"");
    char *json = NULL;
    size_t len = 0;
    ck_assert_int_eq(sdkc_ir_to_json(ir, &json, &len), SDKC_OK);
    ck_assert_int_eq(sdkc_ir_from_json(&c2, "t.ir.json", json, len, d), SDKC_OK);
    const sdkc_type *t2 = sdkc_compiled_ir(c2)->types[0];
    ck_assert_uint_eq(t2->u.str.nexamples, 3);
    ck_assert_str_eq(value_of(t2, NULL), "\"Str0ngPass\"");
    free(json);
    sdkc_compiled_free(c2);
    sdkc_compiled_free(c);
    sdkc_doc_free(doc);
    sdkc_diag_free(d);
}
END_TEST

/* Every request body and required parameter of the OpenCode contract, twice, alike. */
START_TEST(opencode_requests)
{
    sdkc_compiled *c = NULL;
    sdkc_diag *d = NULL;
    ck_assert_int_eq(sdkc_diag_new(&d), SDKC_OK);
    ck_assert_int_eq(sdkc_compile_file(&c, SDKC_SOURCE_DIR "/spec/opencode/openapi.json", NULL, d),
                     SDKC_OK);
    const sdkc_ir *ir = sdkc_compiled_ir(c);
    size_t made = 0;
    for (size_t k = 0; k < ir->nops; k++) {
        const sdkc_operation *op = &ir->ops[k];
        for (size_t p = 0; p <= op->nparams; p++) {
            const sdkc_type *t = NULL;
            if (p < op->nparams && op->params[p].required)
                t = op->params[p].type;
            else if (p == op->nparams && op->body)
                t = op->body->type;
            if (!t)
                continue;
            const char *first = value_of(t, NULL);
            ck_assert_msg(first[0] != '!', "%s: %s", op->id, first);
            ck_assert_str_eq(value_of(t, NULL), first);
            made++;
        }
    }
    ck_assert_uint_gt(made, 50);
    sdkc_compiled_free(c);
    sdkc_diag_free(d);
}
END_TEST

static Suite *synth_suite(void)
{
    Suite *s = suite_create("synth");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, strings);
    tcase_add_test(tc, patterns);
    tcase_add_test(tc, format_variants);
    tcase_add_test(tc, contract_examples);
    tcase_add_test(tc, brands);
    tcase_add_test(tc, numbers);
    tcase_add_test(tc, objects);
    tcase_add_test(tc, collections);
    tcase_add_test(tc, unique_items);
    tcase_add_test(tc, unions);
    tcase_add_test(tc, opencode_requests);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(synth_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
