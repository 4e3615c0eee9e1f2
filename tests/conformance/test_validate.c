/* test_validate.c - the validator over hand-built IR types: one test case per rule, plus paths,
 * bounds on the deviation count, unions and patterns. */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sdkc/conform.h"
#include "sdkc/doc.h"
#include "sdkc/validate.h"
#include "sdkc/compile.h"
#include "sdkc/ir_json.h"

/* ---- hand-built types ---- */

static const sdkc_type t_string = {.kind = SDKC_TYPE_STRING};
static const sdkc_type t_integer = {.kind = SDKC_TYPE_INTEGER};
static const sdkc_type t_number = {.kind = SDKC_TYPE_NUMBER};
static const sdkc_type t_boolean = {.kind = SDKC_TYPE_BOOLEAN};
static const sdkc_type t_null = {.kind = SDKC_TYPE_NULL};
static const sdkc_type t_any = {.kind = SDKC_TYPE_ANY};
static const sdkc_type t_never = {.kind = SDKC_TYPE_NEVER};
static const sdkc_type t_nullable_string = {.kind = SDKC_TYPE_NULLABLE,
                                            .u.nullable = {.inner = &t_string}};

static const sdkc_brand b_session = {.name = "SessionID", .prefix = "ses", .pattern = "^ses"};
static const sdkc_type t_session_id = {.kind = SDKC_TYPE_STRING, .u.str = {.brand = &b_session}};

/* Time { created: number (>= 0), updated?: number } closed */
static const sdkc_field time_fields[] = {
    {.wire_name = "created", .type = &t_integer, .required = true},
    {.wire_name = "updated", .type = &t_integer, .required = false},
};
static const sdkc_type t_time = {
    .kind = SDKC_TYPE_OBJECT, .name = "Time", .u.object = {.fields = time_fields, .nfields = 2}};
/* Session { id: SessionID, title: string, time: Time } closed */
static const sdkc_field session_fields[] = {
    {.wire_name = "id", .type = &t_session_id, .required = true},
    {.wire_name = "title", .type = &t_string, .required = true},
    {.wire_name = "time", .type = &t_time, .required = true},
};
static const sdkc_type t_session = {.kind = SDKC_TYPE_OBJECT,
                                    .name = "Session",
                                    .u.object = {.fields = session_fields, .nfields = 3}};
static const sdkc_type t_sessions = {.kind = SDKC_TYPE_ARRAY, .u.array = {.items = &t_session}};
static const sdkc_field page_fields[] = {
    {.wire_name = "data", .type = &t_sessions, .required = true},
};
static const sdkc_type t_page = {
    .kind = SDKC_TYPE_OBJECT, .name = "Page", .u.object = {.fields = page_fields, .nfields = 1}};

static const char *const status_values[] = {"idle", "busy"};
static const sdkc_type t_status = {.kind = SDKC_TYPE_ENUM,
                                   .u.enumeration = {.values = status_values, .nvalues = 2}};

static const sdkc_type t_lit_idle = {.kind = SDKC_TYPE_LITERAL,
                                     .u.literal = {.kind = SDKC_LIT_STRING, .text = "idle"}};
static const sdkc_type t_lit_busy = {.kind = SDKC_TYPE_LITERAL,
                                     .u.literal = {.kind = SDKC_LIT_STRING, .text = "busy"}};
static const sdkc_type t_lit_42 = {.kind = SDKC_TYPE_LITERAL,
                                   .u.literal = {.kind = SDKC_LIT_NUMBER, .text = "42"}};
static const sdkc_type t_lit_true = {.kind = SDKC_TYPE_LITERAL,
                                     .u.literal = {.kind = SDKC_LIT_BOOL, .text = "true"}};

/* Tagged union on "type": {type:"idle"} | {type:"busy", attempt: integer} */
static const sdkc_field idle_fields[] = {
    {.wire_name = "type", .type = &t_lit_idle, .required = true},
};
static const sdkc_field busy_fields[] = {
    {.wire_name = "type", .type = &t_lit_busy, .required = true},
    {.wire_name = "attempt", .type = &t_integer, .required = true},
};
static const sdkc_type t_idle = {
    .kind = SDKC_TYPE_OBJECT, .name = "Idle", .u.object = {.fields = idle_fields, .nfields = 1}};
static const sdkc_type t_busy = {
    .kind = SDKC_TYPE_OBJECT, .name = "Busy", .u.object = {.fields = busy_fields, .nfields = 2}};
static const sdkc_variant status_variants[] = {
    {.type = &t_idle, .tag = "idle"},
    {.type = &t_busy, .tag = "busy"},
};
static const sdkc_type t_status_union = {
    .kind = SDKC_TYPE_UNION,
    .name = "Status",
    .u.union_ = {.variants = status_variants, .nvariants = 2, .discriminator = "type"}};
/* Untagged union: string | integer | Time */
static const sdkc_variant loose_variants[] = {
    {.type = &t_string}, {.type = &t_integer}, {.type = &t_time}};
static const sdkc_type t_loose = {.kind = SDKC_TYPE_UNION,
                                  .name = "Loose",
                                  .u.union_ = {.variants = loose_variants, .nvariants = 3}};

static sdkc_validation *run(const sdkc_type *t, const char *json)
{
    json_error_t jerr;
    json_t *v = json_loads(json, JSON_DECODE_ANY, &jerr);
    ck_assert_msg(v != NULL, "bad test JSON %s: %s", json, jerr.text);
    sdkc_validation *val = NULL;
    ck_assert_int_eq(sdkc_validation_new(&val, NULL), SDKC_OK);
    ck_assert_int_eq(sdkc_validate(val, t, v, NULL), SDKC_OK);
    json_decref(v);
    return val;
}

static void dump(const sdkc_validation *v)
{
    for (size_t i = 0; i < sdkc_validation_count(v); i++) {
        const sdkc_deviation *d = sdkc_validation_get(v, i);
        fprintf(stderr, "  %s %s: %s\n", d->path, d->rule, d->message);
    }
}

/* Exactly n deviations. */
static void expect_count(const sdkc_validation *v, size_t n)
{
    if (sdkc_validation_count(v) != n)
        dump(v);
    ck_assert_uint_eq(sdkc_validation_count(v), n);
    ck_assert_uint_eq(sdkc_validation_total(v), n);
}

static void expect_dev(const sdkc_validation *v, size_t i, const char *path, const char *rule)
{
    const sdkc_deviation *d = sdkc_validation_get(v, i);
    ck_assert_ptr_nonnull(d);
    ck_assert_str_eq(d->path, path);
    ck_assert_str_eq(d->rule, rule);
    ck_assert_ptr_nonnull(d->message);
    ck_assert(d->message[0] != '\0');
}

static void expect_ok(const sdkc_type *t, const char *json)
{
    sdkc_validation *v = run(t, json);
    if (sdkc_validation_count(v))
        fprintf(stderr, "unexpected deviations for %s:\n", json);
    expect_count(v, 0);
    sdkc_validation_free(v);
}

static void expect_one(const sdkc_type *t, const char *json, const char *path, const char *rule)
{
    sdkc_validation *v = run(t, json);
    expect_count(v, 1);
    expect_dev(v, 0, path, rule);
    sdkc_validation_free(v);
}

/* ---- one test per rule ---- */

START_TEST(rule_required)
{
    expect_ok(&t_time, "{\"created\": 1}");
    expect_one(&t_time, "{\"updated\": 1}", "$.created", "required");
    sdkc_validation *v = run(&t_session, "{\"time\": {}}");
    expect_count(v, 3);
    expect_dev(v, 0, "$.id", "required");
    expect_dev(v, 1, "$.title", "required");
    expect_dev(v, 2, "$.time.created", "required");
    ck_assert_ptr_nonnull(strstr(sdkc_validation_get(v, 0)->message, "\"id\""));
    sdkc_validation_free(v);
}
END_TEST

START_TEST(rule_type)
{
    expect_ok(&t_string, "\"x\"");
    expect_one(&t_string, "1", "$", "type");
    expect_ok(&t_integer, "7");
    expect_ok(&t_integer, "7.0");
    expect_one(&t_integer, "7.5", "$", "type");
    expect_one(&t_integer, "\"7\"", "$", "type");
    expect_ok(&t_number, "7.5");
    expect_ok(&t_number, "-3");
    expect_one(&t_number, "null", "$", "type");
    expect_ok(&t_boolean, "false");
    expect_one(&t_boolean, "0", "$", "type");
    expect_ok(&t_null, "null");
    expect_one(&t_null, "{}", "$", "type");
    expect_one(&t_sessions, "{}", "$", "type");
    expect_one(&t_time, "[]", "$", "type");
    expect_ok(&t_any, "{\"anything\": [1, null]}");
    expect_one(&t_never, "1", "$", "type");
    /* nullable */
    expect_ok(&t_nullable_string, "null");
    expect_ok(&t_nullable_string, "\"s\"");
    expect_one(&t_nullable_string, "5", "$", "type");
    /* a NULLABLE the compiler added as a leniency is not part of the contract: null is a
       deviation there; an anonymous nullable of the contract (no location, the origin of its
       inner type, as read from IR JSON) accepts null */
    sdkc_type cursor = {.kind = SDKC_TYPE_STRING, .origin = "/c/next"};
    sdkc_type lenient = {.kind = SDKC_TYPE_NULLABLE,
                         .origin = "/c/next",
                         .u.nullable = {.inner = &cursor, .lenient = true}};
    expect_one(&lenient, "null", "$", "type");
    expect_ok(&lenient, "\"c1\"");
    sdkc_type declared = lenient;
    declared.u.nullable.lenient = false;
    expect_ok(&declared, "null");
    /* message names both kinds */
    sdkc_validation *v = run(&t_string, "12");
    ck_assert_ptr_nonnull(strstr(sdkc_validation_get(v, 0)->message, "expected string"));
    ck_assert_ptr_nonnull(strstr(sdkc_validation_get(v, 0)->message, "number 12"));
    sdkc_validation_free(v);
}
END_TEST

START_TEST(rule_closed_object)
{
    expect_one(&t_time, "{\"created\": 1, \"extra\": true}", "$.extra", "closed-object");
    expect_one(&t_time, "{\"created\": 1, \"a b\": true}", "$[\"a b\"]", "closed-object");
    /* open object: extras are checked against the additional type */
    sdkc_field f[] = {{.wire_name = "k", .type = &t_string, .required = true}};
    sdkc_type open_any = {.kind = SDKC_TYPE_OBJECT,
                          .u.object = {.fields = f, .nfields = 1, .additional = &t_any}};
    expect_ok(&open_any, "{\"k\": \"v\", \"x\": [1]}");
    sdkc_type open_int = {.kind = SDKC_TYPE_OBJECT,
                          .u.object = {.fields = f, .nfields = 1, .additional = &t_integer}};
    expect_ok(&open_int, "{\"k\": \"v\", \"x\": 1}");
    expect_one(&open_int, "{\"k\": \"v\", \"x\": \"1\"}", "$.x", "type");
}
END_TEST

START_TEST(rule_enum)
{
    expect_ok(&t_status, "\"idle\"");
    expect_ok(&t_status, "\"busy\"");
    /* for conformance an unknown value is a deviation although SDKs keep it */
    expect_one(&t_status, "\"retrying\"", "$", "enum");
    expect_one(&t_status, "3", "$", "type");
    sdkc_validation *v = run(&t_status, "\"retrying\"");
    ck_assert_ptr_nonnull(strstr(sdkc_validation_get(v, 0)->message, "\"retrying\""));
    ck_assert_ptr_nonnull(strstr(sdkc_validation_get(v, 0)->message, "\"busy\""));
    sdkc_validation_free(v);
}
END_TEST

START_TEST(rule_literal)
{
    expect_ok(&t_lit_idle, "\"idle\"");
    expect_one(&t_lit_idle, "\"Idle\"", "$", "literal");
    expect_one(&t_lit_idle, "1", "$", "literal");
    expect_ok(&t_lit_42, "42");
    expect_ok(&t_lit_42, "42.0");
    expect_one(&t_lit_42, "43", "$", "literal");
    expect_one(&t_lit_42, "\"42\"", "$", "literal");
    expect_ok(&t_lit_true, "true");
    expect_one(&t_lit_true, "false", "$", "literal");
    sdkc_type lit_null = {.kind = SDKC_TYPE_LITERAL, .u.literal = {.kind = SDKC_LIT_NULL}};
    expect_ok(&lit_null, "null");
    expect_one(&lit_null, "0", "$", "literal");
}
END_TEST

START_TEST(rule_pattern)
{
    /* brand prefix, exactly */
    expect_ok(&t_session_id, "\"ses_123\"");
    expect_one(&t_session_id, "\"msg_123\"", "$", "pattern");
    expect_one(&t_session_id, "\"se\"", "$", "pattern");
    /* a prefix pattern without a brand */
    sdkc_type pfx = {.kind = SDKC_TYPE_STRING, .u.str = {.pattern = "^msg_"}};
    expect_ok(&pfx, "\"msg_1\"");
    expect_one(&pfx, "\"msg1\"", "$", "pattern");
    /* a regex (PCRE2) */
    sdkc_type color = {.kind = SDKC_TYPE_STRING, .u.str = {.pattern = "^#[0-9a-fA-F]{6}$"}};
    expect_ok(&color, "\"#00ffAA\"");
    expect_one(&color, "\"#00ffAA0\"", "$", "pattern");
    expect_one(&color, "\"00ffAA\"", "$", "pattern");
    /* JavaScript escapes translated */
    sdkc_type digits = {.kind = SDKC_TYPE_STRING, .u.str = {.pattern = "^\\d+\\.\\w*$"}};
    expect_ok(&digits, "\"12.ab_c\"");
    expect_one(&digits, "\"1a.b\"", "$", "pattern");
    /* map keys */
    sdkc_type m = {.kind = SDKC_TYPE_MAP, .u.map = {.value = &t_integer, .key_pattern = "^x-"}};
    expect_ok(&m, "{\"x-a\": 1}");
    expect_one(&m, "{\"y\": 1}", "$.y", "pattern");
}
END_TEST

START_TEST(pattern_pcre2)
{
    /* lookaround, \p{L}, lazy quantifiers, \b, back references: checked (PCRE2) */
    static const struct {
        const char *pattern, *good, *bad;
    } cases[] = {
        {"^(?!x)[a-z]+$", "\"abc\"", "\"xyz\""},
        {"^(?=.*\\d)(?=.*[a-z]).{8,}$", "\"passw0rd\"", "\"password\""},
        {"(?<!-)$", "\"a\"", "\"a-\""},
        {"^\\p{L}+$", "\"\u00c5sa\"", "\"\u00c5sa1\""},
        {"^[\\p{L}\\p{N} _-]+$", "\"\u65e5\u672c 2\"", "\"a!\""},
        {"^\\p{Lu}", "\"\u00c9t\u00e9\"", "\"\u00e9t\u00e9\""},
        {"^a+?$", "\"aa\"", "\"ab\""},
        {"\\bword\\b", "\"a word.\"", "\"swordfish\""},
        {"^(a)\\1$", "\"aa\"", "\"ab\""},
        {"^[\\]]$", "\"]\"", "\"[\""},
        {"^(?:ab)+$", "\"abab\"", "\"aba\""},
        {"^\\d$", "\"1\"", "\"\u0661\""}, /* \d is ASCII */
        {"^.$", "\"\U0001f600\"", "\"\\n\""},
        {"^\\S+$", "\"a\"", "\"a\u00a0b\""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sdkc_type t = {.kind = SDKC_TYPE_STRING, .u.str = {.pattern = cases[i].pattern}};
        sdkc_validation *v = run(&t, cases[i].good);
        ck_assert_msg(sdkc_validation_count(v) == 0 && sdkc_validation_unchecked(v) == 0,
                      "%s on %s", cases[i].pattern, cases[i].good);
        sdkc_validation_free(v);
        v = run(&t, cases[i].bad);
        ck_assert_msg(sdkc_validation_count(v) == 1 && sdkc_validation_unchecked(v) == 0,
                      "%s on %s", cases[i].pattern, cases[i].bad);
        expect_dev(v, 0, "$", "pattern");
        sdkc_validation_free(v);
    }
}
END_TEST

START_TEST(pattern_unchecked_is_counted)
{
    /* a variable-length lookbehind PCRE2 cannot run: never silently passed */
    const char *lb = "^.*(?<=a+)b$";
    sdkc_type look = {.kind = SDKC_TYPE_STRING, .u.str = {.pattern = lb}};
    sdkc_validation *v = run(&look, "\"xyz\"");
    expect_count(v, 0);
    ck_assert_uint_eq(sdkc_validation_unchecked(v), 1);
    ck_assert_uint_eq(sdkc_validation_unchecked_pattern_count(v), 1);
    ck_assert_str_eq(sdkc_validation_unchecked_pattern(v, 0), lb);
    ck_assert_ptr_null(sdkc_validation_unchecked_pattern(v, 1));
    /* the same pattern again: two checks, still one distinct pattern */
    json_t *j = json_string("abc");
    ck_assert_int_eq(sdkc_validate(v, &look, j, NULL), SDKC_OK);
    json_decref(j);
    ck_assert_uint_eq(sdkc_validation_unchecked(v), 2);
    ck_assert_uint_eq(sdkc_validation_unchecked_pattern_count(v), 1);
    sdkc_validation_reset(v);
    ck_assert_uint_eq(sdkc_validation_unchecked(v), 0);
    sdkc_validation_free(v);
    /* a checked pattern counts nothing */
    v = run(&t_session_id, "\"ses\"");
    ck_assert_uint_eq(sdkc_validation_unchecked(v), 0);
    sdkc_validation_free(v);
    /* not ECMAScript (inline flags, possessive), or a catastrophic backtrack that hits the match
       limit: unchecked, neither a pass nor a deviation */
    const char *pats[] = {"(?i)^a$", "a++", "^(a+)+$", "^(\\w+\\s?)*$"};
    const char *vals[] = {"\"A\"", "\"zzz\"",
                          "\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\"",
                          "\"aaaa aaaa aaaa aaaa aaaa aaaa aaaa aaaa aaaa aaaa aaaa aaaa !\""};
    for (size_t i = 0; i < sizeof pats / sizeof pats[0]; i++) {
        sdkc_type t = {.kind = SDKC_TYPE_STRING, .u.str = {.pattern = pats[i]}};
        v = run(&t, vals[i]);
        expect_count(v, 0);
        ck_assert_msg(sdkc_validation_unchecked(v) == 1, "pattern %s", pats[i]);
        ck_assert_str_eq(sdkc_validation_unchecked_pattern(v, 0), pats[i]);
        sdkc_validation_free(v);
    }
    /* the catastrophic pattern still decides quickly where it can */
    sdkc_type cat = {.kind = SDKC_TYPE_STRING, .u.str = {.pattern = "^(a+)+$"}};
    v = run(&cat, "\"aaaa\"");
    expect_count(v, 0);
    ck_assert_uint_eq(sdkc_validation_unchecked(v), 0);
    sdkc_validation_free(v);
}
END_TEST

START_TEST(rule_bounds)
{
    sdkc_type s = {
        .kind = SDKC_TYPE_STRING,
        .u.str = {
            .has_min_length = true, .min_length = 2, .has_max_length = true, .max_length = 3}};
    expect_ok(&s, "\"ab\"");
    expect_ok(&s, "\"\\u00e9\\u00e9\\u00e9\""); /* 3 code points, 6 bytes */
    expect_one(&s, "\"a\"", "$", "bounds");
    expect_one(&s, "\"abcd\"", "$", "bounds");
    sdkc_type n = {.kind = SDKC_TYPE_INTEGER,
                   .u.num = {.has_minimum = true,
                             .minimum = 0,
                             .has_maximum = true,
                             .maximum = 10,
                             .exclusive_maximum = true}};
    expect_ok(&n, "0");
    expect_ok(&n, "9");
    expect_one(&n, "-1", "$", "bounds");
    expect_one(&n, "10", "$", "bounds");
    sdkc_type x = {.kind = SDKC_TYPE_NUMBER,
                   .u.num = {.has_minimum = true, .minimum = 0.5, .exclusive_minimum = true}};
    expect_ok(&x, "0.6");
    expect_one(&x, "0.5", "$", "bounds");
    sdkc_type a = {.kind = SDKC_TYPE_ARRAY,
                   .u.array = {.items = &t_integer,
                               .has_min_items = true,
                               .min_items = 1,
                               .has_max_items = true,
                               .max_items = 2}};
    expect_ok(&a, "[1]");
    expect_one(&a, "[]", "$", "bounds");
    expect_one(&a, "[1,2,3]", "$", "bounds");
    /* tuples: length is a bound */
    const sdkc_type *items[] = {&t_string, &t_integer};
    sdkc_type tup = {.kind = SDKC_TYPE_TUPLE, .u.tuple = {.items = items, .nitems = 2}};
    expect_ok(&tup, "[\"a\", 1]");
    expect_one(&tup, "[\"a\"]", "$", "bounds");
    expect_one(&tup, "[\"a\", 1, 2]", "$", "bounds");
    expect_one(&tup, "[1, 1]", "$[0]", "type");
    sdkc_type tup_rest = {.kind = SDKC_TYPE_TUPLE,
                          .u.tuple = {.items = items, .nitems = 2, .rest = &t_boolean}};
    expect_ok(&tup_rest, "[\"a\", 1, true, false]");
    expect_one(&tup_rest, "[\"a\", 1, true, 0]", "$[3]", "type");
}
END_TEST

START_TEST(rule_unique)
{
    sdkc_type a = {.kind = SDKC_TYPE_ARRAY, .u.array = {.items = &t_any, .unique_items = true}};
    expect_ok(&a, "[]");
    expect_ok(&a, "[1, 2, \"1\", [1], {\"a\": 1}, {\"a\": 2}, null, false, 0]");
    expect_one(&a, "[1, 2, 1]", "$", "unique");
    expect_one(&a, "[1, 1.0]", "$", "unique"); /* equal numbers */
    expect_one(&a, "[{\"a\": 1, \"b\": [true]}, {\"b\": [true], \"a\": 1}]", "$", "unique");
    expect_one(&a, "[\"x\", \"x\", \"x\"]", "$", "unique"); /* reported once */
    expect_ok(&a, "[{\"a\": 1}, {\"a\": 1, \"b\": 1}, [1, 2], [2, 1]]");
    /* without uniqueItems duplicates are valid */
    sdkc_type b = {.kind = SDKC_TYPE_ARRAY, .u.array = {.items = &t_any}};
    expect_ok(&b, "[1, 1]");
}
END_TEST

START_TEST(rule_union_untagged)
{
    expect_ok(&t_loose, "\"s\"");
    expect_ok(&t_loose, "3");
    expect_ok(&t_loose, "{\"created\": 3}");
    /* no variant of the value's kind at all: one "union" deviation */
    sdkc_validation *v = run(&t_loose, "true");
    expect_count(v, 1);
    expect_dev(v, 0, "$", "union");
    ck_assert_ptr_nonnull(strstr(sdkc_validation_get(v, 0)->message, "boolean true"));
    sdkc_validation_free(v);
    /* a string that breaks nothing else still matches the string variant */
    expect_ok(&t_loose, "\"\"");
    /* the object variant is closest (the others are of the wrong kind): "union", then its one
       deviation */
    v = run(&t_loose, "{\"created\": 1, \"bogus\": 2}");
    expect_count(v, 2);
    expect_dev(v, 0, "$", "union");
    expect_dev(v, 1, "$.bogus", "closed-object");
    ck_assert_ptr_nonnull(strstr(sdkc_validation_get(v, 0)->message, "Time"));
    sdkc_validation_free(v);
    /* a union of literals: one "union" line, no per-variant "literal" line */
    static const sdkc_variant lits[] = {{.type = &t_lit_idle}, {.type = &t_lit_busy}};
    static const sdkc_type t_lits = {.kind = SDKC_TYPE_UNION,
                                     .u.union_ = {.variants = lits, .nvariants = 2}};
    expect_ok(&t_lits, "\"busy\"");
    v = run(&t_lits, "\"gone\"");
    expect_count(v, 1);
    expect_dev(v, 0, "$", "union");
    ck_assert_ptr_nonnull(strstr(sdkc_validation_get(v, 0)->message, "\"idle\" | \"busy\""));
    sdkc_validation_free(v);
}
END_TEST

/* What JSON Schema says beyond the kinds, kept by the IR as facts: from the compiler and from
 * its IR JSON alike. */
static const char leniency_contract[] = "openapi: 3.1.0\n"
                                        "info: {title: t, version: '1'}\n"
                                        "paths: {}\n"
                                        "components:\n"
                                        "  schemas:\n"
                                        "    Anything:\n"
                                        "      items: {type: string}\n"
                                        "    Named:\n"
                                        "      pattern: '^a'\n"
                                        "    Typed:\n"
                                        "      type: array\n"
                                        "      items: {type: string}\n"
                                        "    Open:\n"
                                        "      type: object\n"
                                        "      properties: {a: {type: string}}\n"
                                        "      required: [a, b]\n"
                                        "    Both:\n"
                                        "      allOf:\n"
                                        "        - $ref: '#/components/schemas/Open'\n"
                                        "        - required: [c]\n"
                                        "    Nick:\n"
                                        "      type: object\n"
                                        "      properties:\n"
                                        "        nick: {type: string, nullable: true}\n";

static sdkc_validation *run_doc(const sdkc_type *t, const char *json)
{
    json_t *v = json_loads(json, JSON_DECODE_ANY, NULL);
    ck_assert_ptr_nonnull(v);
    sdkc_validate_options o = SDKC_VALIDATE_OPTIONS_INIT;
    sdkc_validation *val = NULL;
    ck_assert_int_eq(sdkc_validation_new(&val, &o), SDKC_OK);
    ck_assert_int_eq(sdkc_validate(val, t, v, NULL), SDKC_OK);
    json_decref(v);
    return val;
}

static void check_leniencies(const sdkc_ir *ir)
{
    const sdkc_type *anything = sdkc_ir_type(ir, "Anything");
    const sdkc_type *named = sdkc_ir_type(ir, "Named");
    const sdkc_type *typed = sdkc_ir_type(ir, "Typed");
    const sdkc_type *open = sdkc_ir_type(ir, "Open");
    const sdkc_type *both = sdkc_ir_type(ir, "Both");
    const sdkc_type *nick = sdkc_ir_type(ir, "Nick");
    ck_assert_ptr_nonnull(anything);
    ck_assert_ptr_nonnull(named);
    ck_assert_ptr_nonnull(typed);
    ck_assert_ptr_nonnull(open);
    ck_assert_ptr_nonnull(both);
    ck_assert_ptr_nonnull(nick);
    ck_assert_int_eq(anything->kind, SDKC_TYPE_ARRAY);
    ck_assert(anything->inferred && named->inferred && !typed->inferred && !open->inferred);
    /* `items` without `type`: any JSON kind; items still checked in an array */
    const char *fine[] = {"5", "{}", "\"s\"", "null", "[\"a\"]"};
    for (size_t i = 0; i < sizeof fine / sizeof fine[0]; i++) {
        sdkc_validation *v = run_doc(anything, fine[i]);
        expect_count(v, 0);
        sdkc_validation_free(v);
    }
    sdkc_validation *v = run_doc(anything, "[1]");
    expect_count(v, 1);
    expect_dev(v, 0, "$[0]", "type");
    sdkc_validation_free(v);
    v = run_doc(named, "7");
    expect_count(v, 0);
    sdkc_validation_free(v);
    /* with `type` declared, another kind is still a deviation */
    v = run_doc(typed, "5");
    expect_count(v, 1);
    sdkc_validation_free(v);
    /* `required` names outside `properties` */
    v = run_doc(open, "{}");
    expect_count(v, 2);
    expect_dev(v, 0, "$.a", "required");
    expect_dev(v, 1, "$.b", "required");
    sdkc_validation_free(v);
    v = run_doc(open, "{\"a\": \"x\", \"b\": 1}");
    expect_count(v, 0);
    sdkc_validation_free(v);
    v = run_doc(both, "{\"a\": \"x\"}");
    expect_count(v, 2);
    expect_dev(v, 0, "$.b", "required");
    expect_dev(v, 1, "$.c", "required");
    sdkc_validation_free(v);
    /* an anonymous nullable of the contract takes null */
    v = run_doc(nick, "{\"nick\": null}");
    expect_count(v, 0);
    sdkc_validation_free(v);
}

START_TEST(contract_leniencies)
{
    sdkc_diag *d = NULL;
    sdkc_compiled *c = NULL, *back = NULL;
    ck_assert_int_eq(sdkc_diag_new(&d), SDKC_OK);
    sdkc_doc *doc = NULL;
    ck_assert_int_eq(
        sdkc_doc_load_buffer(&doc, "l.yaml", leniency_contract, sizeof leniency_contract - 1, d),
        SDKC_OK);
    sdkc_compile_options co = SDKC_COMPILE_OPTIONS_INIT;
    ck_assert_int_eq(sdkc_compile(&c, doc, &co, d), SDKC_OK);
    sdkc_doc_free(doc); /* the IR alone from here */
    check_leniencies(sdkc_compiled_ir(c));
    /* the same through IR JSON */
    char *json = NULL;
    size_t len = 0;
    ck_assert_int_eq(sdkc_ir_to_json(sdkc_compiled_ir(c), &json, &len), SDKC_OK);
    ck_assert_int_eq(sdkc_ir_from_json(&back, "l.ir.json", json, len, d), SDKC_OK);
    check_leniencies(sdkc_compiled_ir(back));
    free(json);
    sdkc_compiled_free(back);
    sdkc_compiled_free(c);
    sdkc_diag_free(d);
}
END_TEST

START_TEST(media_types)
{
    ck_assert(sdkc_conform_media_match("application/json", "application/json"));
    ck_assert(sdkc_conform_media_match("application/json", "Application/JSON; charset=utf-8"));
    ck_assert(sdkc_conform_media_match("text/x-diff; charset=utf-8", "text/x-diff; charset=UTF-8"));
    ck_assert(sdkc_conform_media_match("text/x-diff; charset=utf-8", "text/x-diff"));
    ck_assert(
        sdkc_conform_media_match("text/x-diff; charset=\"utf-8\"", "text/x-diff;charset=utf-8"));
    ck_assert(
        !sdkc_conform_media_match("text/x-diff; charset=utf-8", "text/x-diff; charset=latin1"));
    ck_assert(!sdkc_conform_media_match("text/x-diff", "text/plain"));
    ck_assert(sdkc_conform_media_match("*/*", "image/png"));
    ck_assert(sdkc_conform_media_match("image/*", "image/png"));
    ck_assert(!sdkc_conform_media_match("image/*", "text/png"));
    ck_assert(!sdkc_conform_media_match("application/json", "application/jsonx"));
    ck_assert(!sdkc_conform_media_match("application/json", NULL));
    ck_assert(!sdkc_conform_media_match("application/json", "garbage"));
}
END_TEST

START_TEST(rule_union_discriminated)
{
    expect_ok(&t_status_union, "{\"type\": \"idle\"}");
    expect_ok(&t_status_union, "{\"type\": \"busy\", \"attempt\": 2}");
    /* the discriminator picks the variant: its errors directly, no trial of the others */
    expect_one(&t_status_union, "{\"type\": \"busy\"}", "$.attempt", "required");
    expect_one(&t_status_union, "{\"type\": \"idle\", \"attempt\": 1}", "$.attempt",
               "closed-object");
    /* unknown discriminator value */
    sdkc_validation *v = run(&t_status_union, "{\"type\": \"gone\"}");
    ck_assert_uint_ge(sdkc_validation_count(v), 1);
    expect_dev(v, 0, "$.type", "union");
    ck_assert_ptr_nonnull(strstr(sdkc_validation_get(v, 0)->message, "\"gone\""));
    sdkc_validation_free(v);
    v = run(&t_status_union, "{}");
    ck_assert_uint_ge(sdkc_validation_count(v), 1);
    expect_dev(v, 0, "$.type", "union");
    sdkc_validation_free(v);
    expect_one(&t_status_union, "[]", "$", "union");
}
END_TEST

START_TEST(rule_json_string)
{
    sdkc_type js = {.kind = SDKC_TYPE_JSON_STRING,
                    .u.json_string = {.media_type = "application/json", .content = &t_time}};
    expect_ok(&js, "\"{\\\"created\\\": 1}\"");
    expect_one(&js, "\"{not json\"", "$", "json-string");
    expect_one(&js, "{\"created\": 1}", "$", "type"); /* the decoded form is not the wire form */
    expect_one(&js, "\"{\\\"created\\\": \\\"x\\\"}\"", "$.created", "type");
    sdkc_field f[] = {{.wire_name = "data", .type = &js, .required = true}};
    sdkc_type frame = {.kind = SDKC_TYPE_OBJECT, .u.object = {.fields = f, .nfields = 1}};
    expect_one(&frame, "{\"data\": \"{}\"}", "$.data.created", "required");
}
END_TEST

/* ---- paths, bounds and errors ---- */

START_TEST(every_deviation_with_path)
{
    sdkc_validation *v =
        run(&t_page, "{\"data\": ["
                     "{\"id\": \"ses_1\", \"title\": \"a\", \"time\": {\"created\": 1}},"
                     "{\"id\": \"ses_2\", \"title\": \"b\", \"time\": {\"created\": 2}},"
                     "{\"id\": \"ses_3\", \"title\": \"c\", \"time\": {\"created\": 3}},"
                     "{\"id\": \"bad\", \"title\": 4, \"time\": {\"created\": \"now\"}, \"x\": 1}"
                     "], \"cursor\": null}");
    expect_count(v, 5);
    expect_dev(v, 0, "$.data[3].id", "pattern");
    expect_dev(v, 1, "$.data[3].title", "type");
    expect_dev(v, 2, "$.data[3].time.created", "type");
    expect_dev(v, 3, "$.data[3].x", "closed-object");
    expect_dev(v, 4, "$.cursor", "closed-object");
    sdkc_validation_free(v);
}
END_TEST

START_TEST(deviation_count_is_bounded)
{
    sdkc_validate_options o = SDKC_VALIDATE_OPTIONS_INIT;
    o.max_deviations = 3;
    sdkc_validation *v = NULL;
    ck_assert_int_eq(sdkc_validation_new(&v, &o), SDKC_OK);
    json_t *arr = json_array();
    for (int i = 0; i < 1000; i++)
        json_array_append_new(arr, json_string("x"));
    sdkc_type ints = {.kind = SDKC_TYPE_ARRAY, .u.array = {.items = &t_integer}};
    ck_assert_int_eq(sdkc_validate(v, &ints, arr, "$.body"), SDKC_OK);
    ck_assert_uint_eq(sdkc_validation_count(v), 3);
    ck_assert_uint_eq(sdkc_validation_total(v), 1000);
    ck_assert_str_eq(sdkc_validation_get(v, 2)->path, "$.body[2]");
    ck_assert_ptr_null(sdkc_validation_get(v, 3));
    sdkc_validation_reset(v);
    ck_assert_uint_eq(sdkc_validation_count(v), 0);
    ck_assert_uint_eq(sdkc_validation_total(v), 0);
    json_decref(arr);
    sdkc_validation_free(v);
    sdkc_validation_free(NULL);
}
END_TEST

START_TEST(recursion_is_bounded)
{
    /* Node { next?: Node } built as a cycle; a deep value stops at the depth limit */
    static sdkc_field node_fields[1];
    static sdkc_type node = {.kind = SDKC_TYPE_OBJECT, .recursive = true};
    node_fields[0] = (sdkc_field){.wire_name = "next", .type = &node, .required = false};
    node.u.object.fields = node_fields;
    node.u.object.nfields = 1;
    json_t *root = json_object();
    json_t *cur = root;
    for (int i = 0; i < 50; i++) {
        json_t *n = json_object();
        json_object_set_new(cur, "next", n);
        cur = n;
    }
    sdkc_validate_options o = SDKC_VALIDATE_OPTIONS_INIT;
    o.max_depth = 10;
    sdkc_validation *v = NULL;
    ck_assert_int_eq(sdkc_validation_new(&v, &o), SDKC_OK);
    ck_assert_int_eq(sdkc_validate(v, &node, root, NULL), SDKC_OK);
    ck_assert_uint_eq(sdkc_validation_count(v), 1);
    ck_assert_str_eq(sdkc_validation_get(v, 0)->rule, "depth");
    sdkc_validation_free(v);
    /* within the default limit: fine */
    v = run(&node, "{\"next\": {\"next\": {}}}");
    expect_count(v, 0);
    sdkc_validation_free(v);
    json_decref(root);
}
END_TEST

START_TEST(invalid_arguments)
{
    sdkc_validation *v = NULL;
    ck_assert_int_eq(sdkc_validation_new(&v, NULL), SDKC_OK);
    json_t *j = json_null();
    ck_assert_int_eq(sdkc_validate(v, NULL, j, NULL), SDKC_ERR_INVALID);
    ck_assert_int_eq(sdkc_validate(v, &t_null, NULL, NULL), SDKC_ERR_INVALID);
    ck_assert_int_eq(sdkc_validate(NULL, &t_null, j, NULL), SDKC_ERR_INVALID);
    ck_assert_uint_eq(sdkc_validation_count(NULL), 0);
    ck_assert_ptr_null(sdkc_validation_get(NULL, 0));
    sdkc_validation_free(v);
}
END_TEST

static Suite *validate_suite(void)
{
    Suite *s = suite_create("validate");
    TCase *rules = tcase_create("rules");
    tcase_add_test(rules, rule_required);
    tcase_add_test(rules, rule_type);
    tcase_add_test(rules, rule_closed_object);
    tcase_add_test(rules, rule_enum);
    tcase_add_test(rules, rule_literal);
    tcase_add_test(rules, rule_pattern);
    tcase_add_test(rules, pattern_unchecked_is_counted);
    tcase_add_test(rules, pattern_pcre2);
    tcase_add_test(rules, rule_bounds);
    tcase_add_test(rules, rule_unique);
    tcase_add_test(rules, rule_union_untagged);
    tcase_add_test(rules, rule_union_discriminated);
    tcase_add_test(rules, rule_json_string);
    tcase_add_test(rules, contract_leniencies);
    tcase_add_test(rules, media_types);
    suite_add_tcase(s, rules);
    TCase *more = tcase_create("reporting");
    tcase_add_test(more, every_deviation_with_path);
    tcase_add_test(more, deviation_count_is_bounded);
    tcase_add_test(more, recursion_is_bounded);
    tcase_add_test(more, invalid_arguments);
    suite_add_tcase(s, more);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(validate_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
