/* test_loader.c - the YAML/JSON loader: every fixture under data/loader/invalid with its exact
 * position and message, valid documents in both syntaxes, scalar typing, JSON pointers, limits. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sdkc/diag.h"
#include "sdkc/doc.h"
#include "sdkc/util.h"

#define LOADER_DIR SDKC_SOURCE_DIR "/tests/compiler/data/loader"

/* One expected failure: the first error's position and a piece of its message. */
typedef struct invalid_case {
    const char *file;
    sdkc_status status;
    uint32_t line, col;
    const char *message_part;
} invalid_case;

static const invalid_case INVALID[] = {
    {"alias_bomb.yaml", SDKC_ERR_LIMIT, 8, 8, "nodes (alias expansions included)"},
    {"bad_indent.yaml", SDKC_ERR_INVALID, 4, 11, "mapping values are not allowed"},
    {"complex_key.yaml", SDKC_ERR_INVALID, 1, 3, "mapping key must be a scalar"},
    {"complex_key_flow.yaml", SDKC_ERR_INVALID, 1, 2, "mapping key must be a scalar"},
    {"duplicate_key.json", SDKC_ERR_INVALID, 4, 5, "duplicate key \"name\" (first at line 2)"},
    {"duplicate_key.yaml", SDKC_ERR_INVALID, 4, 3, "duplicate key \"c\" (first at line 3)"},
    {"duplicate_key_big_map.json", SDKC_ERR_INVALID, 42, 3,
     "duplicate key \"k7\" (first at line 9)"},
    {"empty.json", SDKC_ERR_INVALID, 1, 1, "empty document"},
    {"invalid_utf8.json", SDKC_ERR_INVALID, 1, 12, "UTF-8"},
    {"lone_surrogate.json", SDKC_ERR_INVALID, 1, 10, "Unicode character escape"},
    {"missing_comma.json", SDKC_ERR_INVALID, 3, 6, "did not find expected ',' or '}'"},
    {"only_comment.yaml", SDKC_ERR_INVALID, 1, 1, "empty document"},
    {"only_whitespace.yaml", SDKC_ERR_INVALID, 2, 1, "cannot start any token"},
    {"recursive_alias.yaml", SDKC_ERR_INVALID, 1, 11, "alias *a refers to a node that contains it"},
    {"tag_mismatch.yaml", SDKC_ERR_INVALID, 1, 4, "\"abc\" is not a !!int"},
    {"two_documents.yaml", SDKC_ERR_INVALID, 2, 1, "more than one document"},
    {"unclosed_flow.yaml", SDKC_ERR_INVALID, 3, 5, "did not find expected ',' or ']'"},
    {"undefined_alias.yaml", SDKC_ERR_INVALID, 2, 4, "undefined alias *nope"},
    {"unterminated_string.json", SDKC_ERR_INVALID, 4, 1, "unexpected end of stream"},
};
#define NINVALID (sizeof INVALID / sizeof INVALID[0])

/* Every file in the fixture directory has a row in the table (a new fixture without expectations
 * fails here rather than going untested). */
START_TEST(invalid_fixture_table_is_complete)
{
    static const char *const listing_cmd = "ls " LOADER_DIR "/invalid";
    FILE *p = popen(listing_cmd, "r");
    ck_assert_ptr_nonnull(p);
    char line[512];
    size_t n = 0;
    while (fgets(line, sizeof line, p)) {
        line[strcspn(line, "\n")] = '\0';
        bool found = false;
        for (size_t i = 0; i < NINVALID; i++)
            found = found || strcmp(INVALID[i].file, line) == 0;
        ck_assert_msg(found, "fixture %s has no expectation in test_loader.c", line);
        n++;
    }
    ck_assert_int_eq(pclose(p), 0);
    ck_assert_uint_eq(n, NINVALID);
}
END_TEST

START_TEST(invalid_fixture)
{
    const invalid_case *c = &INVALID[_i];
    char path[1024];
    snprintf(path, sizeof path, "%s/invalid/%s", LOADER_DIR, c->file);
    sdkc_diag *d = NULL;
    ck_assert_int_eq(sdkc_diag_new(&d), SDKC_OK);
    sdkc_doc *doc = (sdkc_doc *)1; /* must be reset to NULL on failure */
    sdkc_status st = sdkc_doc_load_file(&doc, path, d);
    ck_assert_msg(st == c->status, "%s: status %d, want %d", c->file, st, c->status);
    ck_assert_ptr_null(doc);
    ck_assert_uint_ge(sdkc_diag_errors(d), 1);
    const sdkc_diag_entry *e = sdkc_diag_get(d, 0);
    ck_assert_ptr_nonnull(e);
    ck_assert_int_eq(e->severity, SDKC_SEV_ERROR);
    ck_assert_str_eq(e->loc.file, path);
    ck_assert_msg(e->loc.line == c->line && e->loc.col == c->col, "%s: at %u:%u, want %u:%u (%s)",
                  c->file, e->loc.line, e->loc.col, c->line, c->col, e->message);
    ck_assert_msg(strstr(e->message, c->message_part) != NULL, "%s: message \"%s\" lacks \"%s\"",
                  c->file, e->message, c->message_part);
    /* the printed form is what the CLI shows */
    char *out = NULL;
    size_t outlen = 0;
    FILE *fp = open_memstream(&out, &outlen);
    ck_assert_ptr_nonnull(fp);
    sdkc_diag_print(d, fp, false);
    fclose(fp);
    char want[1200];
    snprintf(want, sizeof want, "%s:%u:%u: error: ", path, c->line, c->col);
    ck_assert_msg(strncmp(out, want, strlen(want)) == 0, "printed \"%s\"", out);
    free(out);
    sdkc_diag_free(d);
}
END_TEST

/* ---- valid documents ---- */

static sdkc_doc *load_ok(const char *name, const char *text, sdkc_diag **dout)
{
    sdkc_diag *d = NULL;
    ck_assert_int_eq(sdkc_diag_new(&d), SDKC_OK);
    sdkc_doc *doc = NULL;
    sdkc_status st = sdkc_doc_load_buffer(&doc, name, text, strlen(text), d);
    if (st != SDKC_OK)
        sdkc_diag_print(d, stderr, false);
    ck_assert_int_eq(st, SDKC_OK);
    ck_assert_ptr_nonnull(doc);
    ck_assert_uint_eq(sdkc_diag_errors(d), 0);
    *dout = d;
    return doc;
}

/* Equal texts are stored once (keys and values alike); texts that differ only past a NUL are
 * not equal. */
START_TEST(equal_texts_stored_once)
{
    static const char text[] = "{\"type\": \"string\", \"p\": {\"type\": \"string\", "
                               "\"string\": 1}, \"n1\": \"a\\u0000b\", \"n2\": \"a\\u0000c\"}";
    sdkc_diag *d = NULL;
    sdkc_doc *doc = load_ok("t.json", text, &d);
    const sdkc_node *root = sdkc_doc_root(doc);
    const sdkc_node *p = sdkc_node_get(root, "p");
    const sdkc_node *v1 = sdkc_node_get(root, "type"), *v2 = sdkc_node_get(p, "type");
    ck_assert_str_eq(v1->str, "string");
    ck_assert_ptr_eq(v1->str, v2->str);
    ck_assert_ptr_eq(root->pairs[0].key->str, p->pairs[0].key->str); /* "type" */
    ck_assert_ptr_eq(p->pairs[1].key->str, v1->str);                 /* key "string" */
    const sdkc_node *n1 = sdkc_node_get(root, "n1"), *n2 = sdkc_node_get(root, "n2");
    ck_assert_uint_eq(n1->len, 3);
    ck_assert_ptr_ne(n1->str, n2->str);
    ck_assert_int_eq(n2->str[2], 'c');
    sdkc_doc_free(doc);
    sdkc_diag_free(d);
}
END_TEST

/* Past 2^19 distinct texts the table stops growing: a text it holds is still shared, a new one
 * is stored apart (and read back the same). */
START_TEST(texts_past_the_table_cap)
{
    enum { DISTINCT = (1 << 19) + 16 };
    sdkc_buf b = SDKC_BUF_INIT;
    sdkc_buf_puts(&b, "[\"t0\"");
    for (int i = 1; i < DISTINCT; i++)
        sdkc_buf_printf(&b, ",\"t%d\"", i);
    sdkc_buf_puts(&b, ",\"t0\",\"late\",\"late\"]");
    ck_assert_int_eq(sdkc_buf_finish(&b), SDKC_OK);
    sdkc_diag *d = NULL;
    sdkc_doc *doc = load_ok("many.json", b.data, &d);
    const sdkc_node *list = sdkc_doc_root(doc);
    ck_assert_uint_eq(list->nitems, DISTINCT + 3);
    ck_assert_str_eq(list->items[DISTINCT - 1]->str, "t524303");
    ck_assert_ptr_eq(list->items[DISTINCT]->str, list->items[0]->str);
    const sdkc_node *l1 = list->items[DISTINCT + 1], *l2 = list->items[DISTINCT + 2];
    ck_assert_str_eq(l1->str, "late");
    ck_assert_str_eq(l2->str, "late");
    ck_assert_ptr_ne(l1->str, l2->str);
    sdkc_doc_free(doc);
    sdkc_diag_free(d);
    sdkc_buf_cleanup(&b);
}
END_TEST

static const char YAML_DOC[] = "# a comment\n"
                               "openapi: 3.1.0\n"
                               "info:\n"
                               "  title: Demo\n"
                               "  version: \"1\"\n"
                               "list: [1, -2, 3.5, true, null, ~, 'x', \"0x1F\"]\n"
                               "anchor: &shared {type: string}\n"
                               "use: *shared\n"
                               "\"a/b\": {\"c~d\": 7, \"e%f\": 8}\n"
                               "block: |\n"
                               "  line one\n"
                               "  line two\n";

START_TEST(valid_yaml_tree_and_positions)
{
    sdkc_diag *d = NULL;
    sdkc_doc *doc = load_ok("demo.yaml", YAML_DOC, &d);
    ck_assert_str_eq(sdkc_doc_name(doc), "demo.yaml");
    const sdkc_node *root = sdkc_doc_root(doc);
    ck_assert_int_eq(root->kind, SDKC_NODE_MAP);
    ck_assert_uint_eq(root->npairs, 7);
    /* source order is kept */
    ck_assert_str_eq(root->pairs[0].key->str, "openapi");
    ck_assert_str_eq(root->pairs[6].key->str, "block");

    const sdkc_node *openapi = sdkc_node_get(root, "openapi");
    ck_assert_ptr_nonnull(openapi);
    ck_assert_str_eq(sdkc_node_text(openapi), "3.1.0");
    ck_assert_int_eq(openapi->scalar, SDKC_SCALAR_STRING);
    ck_assert_uint_eq(openapi->loc.line, 2);
    ck_assert_uint_eq(openapi->loc.col, 10);
    ck_assert_str_eq(openapi->loc.file, "demo.yaml");

    const sdkc_node *title = sdkc_node_get(sdkc_node_get(root, "info"), "title");
    ck_assert_uint_eq(title->loc.line, 4);
    ck_assert_uint_eq(title->loc.col, 10);
    ck_assert_int_eq(sdkc_node_get(sdkc_node_get(root, "info"), "version")->scalar,
                     SDKC_SCALAR_STRING);

    const sdkc_node *list = sdkc_node_get(root, "list");
    ck_assert_int_eq(list->kind, SDKC_NODE_SEQ);
    ck_assert_uint_eq(list->nitems, 8);
    int64_t iv = 0;
    double dv = 0;
    bool bv = false;
    ck_assert(sdkc_node_int64(list->items[0], &iv));
    ck_assert_int_eq(iv, 1);
    ck_assert(sdkc_node_int64(list->items[1], &iv));
    ck_assert_int_eq(iv, -2);
    ck_assert(!sdkc_node_int64(list->items[2], &iv));
    ck_assert(sdkc_node_double(list->items[2], &dv));
    ck_assert(dv == 3.5);
    ck_assert(sdkc_node_bool(list->items[3], &bv));
    ck_assert(bv);
    ck_assert_int_eq(list->items[4]->scalar, SDKC_SCALAR_NULL);
    ck_assert_int_eq(list->items[5]->scalar, SDKC_SCALAR_NULL);
    ck_assert(sdkc_node_is_string(list->items[6]));
    ck_assert(sdkc_node_is_string(list->items[7])); /* quoted: never a number */
    ck_assert_uint_eq(list->items[3]->loc.col, 20);

    /* an alias expands to the anchored node's content */
    const sdkc_node *use = sdkc_node_get(root, "use");
    ck_assert_int_eq(use->kind, SDKC_NODE_MAP);
    ck_assert_str_eq(sdkc_node_text(sdkc_node_get(use, "type")), "string");

    ck_assert_str_eq(sdkc_node_text(sdkc_node_get(root, "block")), "line one\nline two\n");
    ck_assert_ptr_null(sdkc_node_get(root, "absent"));
    ck_assert_ptr_null(sdkc_node_get(list, "openapi")); /* not a map */
    ck_assert_ptr_null(sdkc_node_text(list));
    sdkc_doc_free(doc);
    sdkc_diag_free(d);
}
END_TEST

START_TEST(valid_json_and_pointers)
{
    static const char json[] = "{\n"
                               "  \"components\": {\n"
                               "    \"schemas\": {\n"
                               "      \"A/B\": {\"type\": \"object\"},\n"
                               "      \"C~D\": {\"type\": \"string\"},\n"
                               "      \"E F\": {\"items\": [10, 20, 30]}\n"
                               "    }\n"
                               "  },\n"
                               "  \"esc\": \"tab\\tquote\\\" \\u00e9 nul\\u0000end\"\n"
                               "}\n";
    sdkc_diag *d = NULL;
    sdkc_doc *doc = load_ok("c.json", json, &d);
    const sdkc_node *ab = sdkc_doc_pointer(doc, "/components/schemas/A~1B");
    ck_assert_ptr_nonnull(ab);
    ck_assert_uint_eq(ab->loc.line, 4);
    ck_assert_uint_eq(ab->loc.col, 14);
    const sdkc_node *cd = sdkc_doc_pointer(doc, "/components/schemas/C~0D/type");
    ck_assert_ptr_nonnull(cd);
    ck_assert_str_eq(cd->str, "string");
    const sdkc_node *ef = sdkc_doc_pointer(doc, "/components/schemas/E%20F/items/2");
    ck_assert_ptr_nonnull(ef);
    ck_assert_str_eq(ef->str, "30");
    ck_assert_ptr_null(sdkc_doc_pointer(doc, "/components/schemas/E%20F/items/3"));
    ck_assert_ptr_null(sdkc_doc_pointer(doc, "/components/schemas/Nope"));
    ck_assert_ptr_null(sdkc_doc_pointer(doc, "/components/schemas/A~1B/type/x"));
    ck_assert_ptr_eq(sdkc_doc_pointer(doc, ""), sdkc_doc_root(doc));

    const sdkc_node *esc = sdkc_node_get(sdkc_doc_root(doc), "esc");
    ck_assert_uint_eq(esc->len, strlen("tab\tquote\" \xc3\xa9 nul") + 1 + 3);
    ck_assert_int_eq(memcmp(esc->str, "tab\tquote\" \xc3\xa9 nul\0end", esc->len), 0);
    sdkc_doc_free(doc);
    sdkc_diag_free(d);
}
END_TEST

START_TEST(sha256_of_input)
{
    sdkc_diag *d = NULL;
    sdkc_doc *doc = load_ok("abc.yaml", "a: b\n", &d);
    char want[65];
    sdkc_sha256_hex(want, "a: b\n", 5);
    ck_assert_str_eq(sdkc_doc_sha256(doc), want);
    sdkc_doc_free(doc);
    sdkc_diag_free(d);
}
END_TEST

/* The same data as YAML and JSON gives the same tree. */
START_TEST(yaml_and_json_agree)
{
    sdkc_diag *d1 = NULL, *d2 = NULL;
    sdkc_doc *y = load_ok("y.yaml", "a:\n  - 1\n  - x\nb: {c: true}\n", &d1);
    sdkc_doc *j = load_ok("j.json", "{\"a\": [1, \"x\"], \"b\": {\"c\": true}}", &d2);
    ck_assert_uint_eq(sdkc_doc_node_count(y), sdkc_doc_node_count(j));
    const sdkc_node *ya = sdkc_doc_pointer(y, "/a/1"), *ja = sdkc_doc_pointer(j, "/a/1");
    ck_assert_str_eq(ya->str, ja->str);
    ck_assert_int_eq(sdkc_doc_pointer(y, "/b/c")->scalar, SDKC_SCALAR_BOOL);
    ck_assert_int_eq(sdkc_doc_pointer(j, "/b/c")->scalar, SDKC_SCALAR_BOOL);
    ck_assert_int_eq(sdkc_doc_pointer(j, "/a/0")->scalar, SDKC_SCALAR_INT);
    sdkc_doc_free(y);
    sdkc_doc_free(j);
    sdkc_diag_free(d1);
    sdkc_diag_free(d2);
}
END_TEST

/* A map big enough to get a key index still finds every key. */
START_TEST(big_map_lookup)
{
    sdkc_buf b = SDKC_BUF_INIT;
    sdkc_buf_puts(&b, "{");
    for (int i = 0; i < 2000; i++)
        sdkc_buf_printf(&b, "%s\"key%d\": %d", i ? "," : "", i, i);
    sdkc_buf_puts(&b, "}");
    ck_assert_int_eq(sdkc_buf_finish(&b), SDKC_OK);
    sdkc_diag *d = NULL;
    sdkc_doc *doc = load_ok("big.json", b.data, &d);
    const sdkc_node *root = sdkc_doc_root(doc);
    for (int i = 0; i < 2000; i += 37) {
        char key[32];
        snprintf(key, sizeof key, "key%d", i);
        int64_t v = -1;
        ck_assert(sdkc_node_int64(sdkc_node_get(root, key), &v));
        ck_assert_int_eq(v, i);
    }
    ck_assert_ptr_null(sdkc_node_get(root, "key2000"));
    sdkc_doc_free(doc);
    sdkc_diag_free(d);
    sdkc_buf_cleanup(&b);
}
END_TEST

/* Enough anchors that their table grows several times; a redefined anchor means its latest
 * definition from there on, and an alias before the redefinition keeps the first one. */
START_TEST(many_anchors)
{
    sdkc_buf b = SDKC_BUF_INIT;
    for (int i = 0; i < 500; i++)
        sdkc_buf_printf(&b, "d%d: &a%d {n: %d}\n", i, i, i);
    sdkc_buf_puts(&b, "before: *a7\nagain: &a7 {n: redefined}\nafter: *a7\n");
    for (int i = 0; i < 500; i += 7)
        sdkc_buf_printf(&b, "u%d: *a%d\n", i, i);
    ck_assert_int_eq(sdkc_buf_finish(&b), SDKC_OK);
    sdkc_diag *d = NULL;
    sdkc_doc *doc = load_ok("anchors.yaml", b.data, &d);
    const sdkc_node *root = sdkc_doc_root(doc);
    for (int i = 0; i < 500; i += 7) {
        char key[32];
        snprintf(key, sizeof key, "u%d", i);
        int64_t v = -1;
        const sdkc_node *use = sdkc_node_get(root, key);
        if (i == 7) {
            ck_assert_str_eq(sdkc_node_text(sdkc_node_get(use, "n")), "redefined");
            continue;
        }
        ck_assert(sdkc_node_int64(sdkc_node_get(use, "n"), &v));
        ck_assert_int_eq(v, i);
    }
    int64_t v = -1;
    ck_assert(sdkc_node_int64(sdkc_node_get(sdkc_node_get(root, "before"), "n"), &v));
    ck_assert_int_eq(v, 7);
    ck_assert_str_eq(sdkc_node_text(sdkc_node_get(sdkc_node_get(root, "after"), "n")), "redefined");
    sdkc_doc_free(doc);
    sdkc_diag_free(d);
    sdkc_buf_cleanup(&b);
}
END_TEST

/* ---- limits ---- */

static sdkc_status load_nested(const char *open, const char *close, size_t depth, sdkc_diag *d,
                               sdkc_doc **doc)
{
    sdkc_buf b = SDKC_BUF_INIT;
    for (size_t i = 0; i < depth; i++)
        sdkc_buf_puts(&b, open);
    for (size_t i = 0; i < depth; i++)
        sdkc_buf_puts(&b, close);
    ck_assert_int_eq(sdkc_buf_finish(&b), SDKC_OK);
    sdkc_status st = sdkc_doc_load_buffer(doc, "nest.json", b.data, b.len, d);
    sdkc_buf_cleanup(&b);
    return st;
}

START_TEST(depth_limit)
{
    sdkc_diag *d = NULL;
    ck_assert_int_eq(sdkc_diag_new(&d), SDKC_OK);
    sdkc_doc *doc = NULL;
    ck_assert_int_eq(load_nested("[", "]", SDKC_DOC_MAX_DEPTH, d, &doc), SDKC_OK);
    ck_assert_uint_eq(sdkc_doc_node_count(doc), SDKC_DOC_MAX_DEPTH);
    sdkc_doc_free(doc);
    doc = NULL;
    ck_assert_int_eq(load_nested("[", "]", SDKC_DOC_MAX_DEPTH + 1, d, &doc), SDKC_ERR_LIMIT);
    ck_assert_ptr_null(doc);
    const sdkc_diag_entry *e = sdkc_diag_get(d, 0);
    ck_assert_ptr_nonnull(e);
    ck_assert_uint_eq(e->loc.line, 1);
    ck_assert_uint_eq(e->loc.col, SDKC_DOC_MAX_DEPTH + 1);
    ck_assert_ptr_nonnull(strstr(e->message, "nesting deeper than"));
    sdkc_diag_free(d);

    /* a nesting bomb far past the limit, maps this time, stops at the limit */
    ck_assert_int_eq(sdkc_diag_new(&d), SDKC_OK);
    ck_assert_int_eq(load_nested("{\"a\":", "}", 100000, d, &doc), SDKC_ERR_LIMIT);
    ck_assert_ptr_null(doc);
    ck_assert_uint_eq(sdkc_diag_errors(d), 1);
    sdkc_diag_free(d);
}
END_TEST

START_TEST(missing_file)
{
    sdkc_diag *d = NULL;
    ck_assert_int_eq(sdkc_diag_new(&d), SDKC_OK);
    sdkc_doc *doc = NULL;
    ck_assert_int_eq(sdkc_doc_load_file(&doc, LOADER_DIR "/no/such/file.yaml", d), SDKC_ERR_IO);
    ck_assert_ptr_null(doc);
    ck_assert_uint_eq(sdkc_diag_errors(d), 1);
    ck_assert_str_eq(sdkc_diag_get(d, 0)->loc.file, LOADER_DIR "/no/such/file.yaml");
    sdkc_diag_free(d);
    sdkc_doc_free(NULL);
}
END_TEST

/* The real contract loads with every node, and its hash matches the checked-in one. */
START_TEST(opencode_contract)
{
    const char *path = SDKC_SOURCE_DIR "/spec/opencode/openapi.json";
    sdkc_diag *d = NULL;
    ck_assert_int_eq(sdkc_diag_new(&d), SDKC_OK);
    sdkc_doc *doc = NULL;
    ck_assert_int_eq(sdkc_doc_load_file(&doc, path, d), SDKC_OK);
    ck_assert_uint_eq(sdkc_diag_count(d), 0);
    ck_assert_uint_gt(sdkc_doc_node_count(doc), 50000);
    const sdkc_node *schemas = sdkc_doc_pointer(doc, "/components/schemas");
    ck_assert_ptr_nonnull(schemas);
    ck_assert_uint_eq(schemas->npairs, 472);
    ck_assert_ptr_nonnull(sdkc_doc_pointer(doc, "/components/schemas/SessionV2Info"));
    char *want = NULL;
    size_t wlen = 0;
    ck_assert_int_eq(
        sdkc_read_file(SDKC_SOURCE_DIR "/spec/opencode/openapi.json.sha256", &want, &wlen),
        SDKC_OK);
    ck_assert_int_eq(strncmp(want, sdkc_doc_sha256(doc), 64), 0);
    free(want);
    sdkc_doc_free(doc);
    sdkc_diag_free(d);
}
END_TEST

/* The hand-written example contract is valid YAML with every path it documents. */
START_TEST(example_contract)
{
    sdkc_diag *d = NULL;
    ck_assert_int_eq(sdkc_diag_new(&d), SDKC_OK);
    sdkc_doc *doc = NULL;
    ck_assert_int_eq(sdkc_doc_load_file(&doc, SDKC_SOURCE_DIR "/spec/examples/example.yaml", d),
                     SDKC_OK);
    ck_assert_uint_eq(sdkc_diag_count(d), 0);
    ck_assert_uint_eq(sdkc_doc_pointer(doc, "/paths")->npairs, 6);
    ck_assert_ptr_nonnull(sdkc_doc_pointer(
        doc, "/paths/~1api~1notebook~1{notebookID}~1event/get/responses/200/content/"
             "text~1event-stream/x-effect-stream/failureEvent"));
    sdkc_doc_free(doc);
    sdkc_diag_free(d);
}
END_TEST

static Suite *loader_suite(void)
{
    Suite *s = suite_create("loader");
    TCase *tc = tcase_create("invalid");
    tcase_add_test(tc, invalid_fixture_table_is_complete);
    tcase_add_loop_test(tc, invalid_fixture, 0, (int)NINVALID);
    suite_add_tcase(s, tc);
    tc = tcase_create("valid");
    tcase_add_test(tc, valid_yaml_tree_and_positions);
    tcase_add_test(tc, equal_texts_stored_once);
    tcase_add_test(tc, texts_past_the_table_cap);
    tcase_add_test(tc, valid_json_and_pointers);
    tcase_add_test(tc, sha256_of_input);
    tcase_add_test(tc, yaml_and_json_agree);
    tcase_add_test(tc, big_map_lookup);
    tcase_add_test(tc, many_anchors);
    tcase_add_test(tc, opencode_contract);
    tcase_add_test(tc, example_contract);
    suite_add_tcase(s, tc);
    tc = tcase_create("limits");
    tcase_add_test(tc, depth_limit);
    tcase_add_test(tc, missing_file);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(loader_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
