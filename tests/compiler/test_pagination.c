/* test_pagination.c - pagination styles: the heuristics on a contract with one operation per style
 * and the near misses that must stay unpaginated (data/pages/styles.yaml), the styles added from
 * the labelled sample (recall.yaml), the extensions
 * (extensions.yaml), the --pagination config file and its errors (config*.json), and the IR JSON
 * round trip of every style. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "sdkc/ir.h"
#include "sdkc/compile.h"
#include "sdkc/ir_json.h"

#define DATA SDKC_SOURCE_DIR "/tests/compiler/data/pages/"

static sdkc_compiled *compiled;
static const sdkc_ir *ir;
static sdkc_diag *diag;

static sdkc_status compile(const char *contract, const char *config)
{
    ck_assert_int_eq(sdkc_diag_new(&diag), SDKC_OK);
    sdkc_compile_options o = SDKC_COMPILE_OPTIONS_INIT;
    o.pagination_file = config;
    sdkc_status st = sdkc_compile_file(&compiled, contract, &o, diag);
    ir = compiled ? sdkc_compiled_ir(compiled) : NULL;
    return st;
}

static void teardown(void)
{
    sdkc_compiled_free(compiled);
    sdkc_diag_free(diag);
    compiled = NULL;
    diag = NULL;
    ir = NULL;
}

static const sdkc_pagination *page_of(const char *id)
{
    const sdkc_operation *o = sdkc_ir_operation(ir, id);
    ck_assert_msg(o != NULL, "operation %s missing", id);
    return o->pagination;
}

static const sdkc_pagination *paged(const char *id, sdkc_page_style style, const char *reason)
{
    const sdkc_pagination *p = page_of(id);
    ck_assert_msg(p != NULL, "%s is not paginated", id);
    ck_assert_str_eq(sdkc_page_style_name(p->style), sdkc_page_style_name(style));
    ck_assert_str_eq(p->reason, reason);
    ck_assert_ptr_nonnull(p->item);
    ck_assert_ptr_eq(p->page, sdkc_ir_operation(ir, id)->success.type);
    return p;
}

static void str_or_null(const char *got, const char *want)
{
    if (!want)
        ck_assert_ptr_null(got);
    else
        ck_assert_str_eq(got, want);
}

static const char *param_name(const sdkc_param *p)
{
    return p ? p->wire_name : NULL;
}

START_TEST(heuristic_styles)
{
    ck_assert_int_eq(compile(DATA "styles.yaml", NULL), SDKC_OK);
    ck_assert_uint_eq(sdkc_diag_warnings(diag), 0);
    const sdkc_pagination *p;

    p = paged("cursorObject", SDKC_PAGE_CURSOR_OBJECT, "heuristic: cursor + cursor.next");
    ck_assert_int_eq(p->source, SDKC_PAGE_FROM_HEURISTIC);
    ck_assert_str_eq(p->items_field, "data");
    ck_assert_str_eq(p->cursor_field, "cursor");
    ck_assert_str_eq(p->next_field, "next");
    ck_assert_str_eq(p->previous_field, "previous");
    ck_assert_str_eq(param_name(p->cursor_param), "cursor");
    ck_assert_str_eq(p->item->name, "Thing");

    p = paged("cursorToken", SDKC_PAGE_CURSOR_TOKEN, "heuristic: pageToken + nextPageToken");
    ck_assert_str_eq(p->items_field, "things");
    ck_assert_str_eq(p->next_field, "nextPageToken");
    ck_assert_str_eq(param_name(p->cursor_param), "pageToken");
    ck_assert_ptr_null(p->has_more_field);

    p = paged("cursorItem", SDKC_PAGE_CURSOR_ITEM, "heuristic: starting_after + has_more");
    ck_assert_str_eq(p->items_field, "data");
    ck_assert_str_eq(p->item_id_field, "id");
    ck_assert_str_eq(p->has_more_field, "has_more");
    ck_assert_str_eq(param_name(p->cursor_param), "starting_after");
    ck_assert_ptr_null(p->next_field);

    p = paged("nextUrl", SDKC_PAGE_NEXT_URL, "heuristic: next_page_uri");
    ck_assert_str_eq(p->items_field, "messages"); /* the only array */
    ck_assert_str_eq(p->next_field, "next_page_uri");
    ck_assert_ptr_null(p->cursor_param);

    /* a declared Link header wins over page/per_page */
    p = paged("linkHeader", SDKC_PAGE_LINK_HEADER, "heuristic: Link header");
    ck_assert_ptr_null(p->items_field); /* the body is the array */
    ck_assert_ptr_null(p->cursor_param);

    p = paged("pageNumber", SDKC_PAGE_PAGE_NUMBER, "heuristic: page + per_page");
    ck_assert_ptr_null(p->items_field);
    ck_assert_str_eq(param_name(p->cursor_param), "page");
    ck_assert_str_eq(param_name(p->size_param), "per_page");

    p = paged("offsetLimit", SDKC_PAGE_OFFSET, "heuristic: offset + limit");
    ck_assert_str_eq(p->items_field, "results");
    ck_assert_str_eq(param_name(p->cursor_param), "offset");
    ck_assert_str_eq(param_name(p->size_param), "limit");

    /* near misses: not GET; two arrays and no usual name; a page number without a size; a
       token without a parameter; `after` without has_more */
    ck_assert_ptr_null(page_of("postWithCursor"));
    ck_assert_ptr_null(page_of("twoArrays"));
    ck_assert_ptr_null(page_of("pageAlone"));
    ck_assert_ptr_null(page_of("tokenNoParam"));
    ck_assert_ptr_null(page_of("afterNoMore"));

    /* OpenAI: `after` counts when it is said to take an id; a sequence number does not */
    p = paged("afterId", SDKC_PAGE_CURSOR_ITEM, "heuristic: after + has_more");
    ck_assert_str_eq(param_name(p->cursor_param), "after");
    ck_assert_str_eq(p->item_id_field, "id");
    ck_assert_ptr_null(page_of("afterSeq"));
}
END_TEST

/* The styles the labelled sample and issue 25 added (data/pages/recall.yaml). */
START_TEST(heuristic_recall)
{
    ck_assert_int_eq(compile(DATA "recall.yaml", NULL), SDKC_OK);
    ck_assert_uint_eq(sdkc_diag_warnings(diag), 0);
    const sdkc_pagination *p;

    /* Asana: the offset token from next_page, not the absolute next_page.uri */
    p = paged("asanaTasks", SDKC_PAGE_CURSOR_TOKEN, "heuristic: offset + next_page.offset");
    ck_assert_str_eq(p->items_field, "data");
    ck_assert_str_eq(p->next_field, "next_page.offset");
    ck_assert_str_eq(param_name(p->cursor_param), "offset");
    ck_assert_ptr_null(p->has_more_field);
    /* a string offset without next_page beside an integer limit is a token nobody returns: not
       a count either */
    ck_assert_ptr_null(page_of("asanaNoNextPage"));

    /* PagerDuty: offset/limit, and `more: false` ends the pages */
    p = paged("pagerdutyIncidents", SDKC_PAGE_OFFSET, "heuristic: offset + limit");
    ck_assert_str_eq(p->items_field, "incidents");
    ck_assert_str_eq(p->has_more_field, "more");
    ck_assert_str_eq(param_name(p->size_param), "limit");

    p = paged("metadataNext", SDKC_PAGE_NEXT_URL, "heuristic: _metadata.next");
    ck_assert_str_eq(p->items_field, "result");

    p = paged("pageBrackets", SDKC_PAGE_PAGE_NUMBER, "heuristic: page[number] + page[size]");
    ck_assert_str_eq(param_name(p->cursor_param), "page[number]");
    p = paged("pageNumberCamel", SDKC_PAGE_PAGE_NUMBER, "heuristic: pageNumber + pageSize");
    ck_assert_str_eq(param_name(p->size_param), "pageSize");
    p = paged("pageAsNumber", SDKC_PAGE_PAGE_NUMBER, "heuristic: page + per_page");
    p = paged("skipTake", SDKC_PAGE_OFFSET, "heuristic: skip + take");
    ck_assert_str_eq(param_name(p->size_param), "take");

    p = paged("continuationCursor", SDKC_PAGE_CURSOR_TOKEN, "heuristic: Cursor + cursor");
    ck_assert_str_eq(p->next_field, "cursor");
    ck_assert_str_eq(p->items_field, "items");

    /* the one array of objects beside an array of strings is the page; two of objects are not */
    p = paged("objectsAndStrings", SDKC_PAGE_CURSOR_TOKEN, "heuristic: pageToken + nextPageToken");
    ck_assert_str_eq(p->items_field, "widgets");
    ck_assert_ptr_null(page_of("twoObjectArrays"));
}
END_TEST

/* A plain `next`: a URL when its description says so, or undescribed when no string parameter
   could take a token back (Mist); a cursor by its description, or beside a string `start`
   (LGTM's token), is not. */
START_TEST(heuristic_plain_next)
{
    ck_assert_int_eq(compile(DATA "recall.yaml", NULL), SDKC_OK);
    const sdkc_pagination *p;

    p = paged("nextDescribedUrl", SDKC_PAGE_NEXT_URL, "heuristic: next");
    ck_assert_str_eq(p->next_field, "next");
    ck_assert_str_eq(p->items_field, "items");
    ck_assert_ptr_null(p->cursor_param);
    p = paged("nextUndescribed", SDKC_PAGE_NEXT_URL, "heuristic: next");
    ck_assert_str_eq(p->items_field, "results");
    ck_assert_ptr_null(page_of("nextDescribedCursor"));
    ck_assert_ptr_null(page_of("nextUndescribedToken"));
}
END_TEST

/* Numbers declared otherwise: a page or offset and its size both strings; a page union with an
   integer variant (PandaScore); and the near misses. */
START_TEST(heuristic_number_types)
{
    ck_assert_int_eq(compile(DATA "recall.yaml", NULL), SDKC_OK);
    const sdkc_pagination *p;

    p = paged("stringOffset", SDKC_PAGE_OFFSET, "heuristic: offset + limit (strings)");
    ck_assert_str_eq(param_name(p->cursor_param), "offset");
    ck_assert_str_eq(param_name(p->size_param), "limit");
    p = paged("stringPage", SDKC_PAGE_PAGE_NUMBER, "heuristic: page + size (strings)");
    ck_assert_str_eq(param_name(p->size_param), "size");
    /* said to be a token; a string page beside an integer size */
    ck_assert_ptr_null(page_of("stringOffsetToken"));
    ck_assert_ptr_null(page_of("stringPageIntegerSize"));

    p = paged("pageUnion", SDKC_PAGE_PAGE_NUMBER, "heuristic: page + per_page");
    ck_assert_str_eq(param_name(p->cursor_param), "page");
    ck_assert_int_eq(p->cursor_param->type->kind, SDKC_TYPE_UNION);
    ck_assert_ptr_null(page_of("pageObject"));
}
END_TEST

/* A page number that starts at 0 is not paged: the walk takes a request without it for page 1
   and would skip a 0-based API's page 1. Said by a default 0, an example 0 without a default (on
   the path item too), or the description; a minimum of 0 beside a default of 1 is not. */
START_TEST(heuristic_zero_based_pages)
{
    ck_assert_int_eq(compile(DATA "recall.yaml", NULL), SDKC_OK);
    ck_assert_ptr_null(page_of("pageZeroDefault"));
    ck_assert_ptr_null(page_of("pageZeroExample"));
    ck_assert_ptr_null(page_of("pageZeroDescribed"));
    const sdkc_pagination *p =
        paged("pageMinimumZero", SDKC_PAGE_PAGE_NUMBER, "heuristic: page + limit");
    ck_assert_str_eq(param_name(p->cursor_param), "page");
}
END_TEST

/* HAL's `_embedded` as the items beside another array of objects; startAt/startIndex offsets. */
START_TEST(heuristic_offsets_and_items)
{
    ck_assert_int_eq(compile(DATA "recall.yaml", NULL), SDKC_OK);
    const sdkc_pagination *p;

    p = paged("embeddedItems", SDKC_PAGE_PAGE_NUMBER, "heuristic: pageNumber + pageSize");
    ck_assert_str_eq(p->items_field, "_embedded");
    ck_assert_str_eq(p->item->name, "Thing");

    p = paged("startAtMaxResults", SDKC_PAGE_OFFSET, "heuristic: startAt + maxResults");
    ck_assert_str_eq(p->items_field, "values");
    ck_assert_str_eq(param_name(p->size_param), "maxResults");
    p = paged("startIndexZeroBased", SDKC_PAGE_OFFSET, "heuristic: startIndex + maxCount");
    ck_assert_str_eq(p->items_field, "Items");
    p = paged("offsetCount", SDKC_PAGE_OFFSET, "heuristic: offset + count");
    ck_assert_str_eq(param_name(p->size_param), "count");
    /* SCIM's startIndex is 1-based: an offset walk from 0 would repeat an item */
    ck_assert_ptr_null(page_of("startIndexOneBased"));
}
END_TEST

/* The warning at line:col of the contract whose message contains text. */
static void has_diag(sdkc_severity sev, const char *file_end, unsigned line, unsigned col,
                     const char *text)
{
    for (size_t i = 0; i < sdkc_diag_count(diag); i++) {
        const sdkc_diag_entry *e = sdkc_diag_get(diag, i);
        size_t fl = strlen(e->loc.file), el = strlen(file_end);
        if (e->severity == sev && e->loc.line == line && e->loc.col == col && fl >= el &&
            strcmp(e->loc.file + fl - el, file_end) == 0 && strstr(e->message, text))
            return;
    }
    sdkc_diag_print(diag, stderr, false);
    ck_abort_msg("no diagnostic at %s:%u:%u containing '%s'", file_end, line, col, text);
}

START_TEST(extensions)
{
    ck_assert_int_eq(compile(DATA "extensions.yaml", NULL), SDKC_OK);
    const sdkc_pagination *p;

    p = paged("speakeasyOffset", SDKC_PAGE_PAGE_NUMBER, "x-speakeasy-pagination");
    ck_assert_int_eq(p->source, SDKC_PAGE_FROM_EXTENSION);
    ck_assert_str_eq(p->items_field, "resultArray"); /* named, though two arrays */
    ck_assert_str_eq(param_name(p->cursor_param), "pg");
    ck_assert_str_eq(param_name(p->size_param), "count");

    p = paged("speakeasyLastId", SDKC_PAGE_CURSOR_ITEM, "x-speakeasy-pagination");
    ck_assert_str_eq(p->items_field, "entries");
    ck_assert_str_eq(p->item_id_field, "key"); /* $.entries[-1].key */
    ck_assert_str_eq(param_name(p->cursor_param), "since");
    ck_assert_ptr_null(p->has_more_field);

    p = paged("speakeasyUrl", SDKC_PAGE_NEXT_URL, "x-speakeasy-pagination");
    ck_assert_str_eq(p->next_field, "paging.forward");
    ck_assert_str_eq(p->items_field, "list");

    p = paged("fernCursor", SDKC_PAGE_CURSOR_TOKEN, "x-fern-pagination");
    ck_assert_str_eq(p->next_field, "meta.continuation");
    ck_assert_str_eq(p->items_field, "rows");
    ck_assert_str_eq(param_name(p->cursor_param), "token");

    p = paged("fernOffset", SDKC_PAGE_OFFSET, "x-fern-pagination");
    ck_assert_ptr_null(p->items_field);
    ck_assert_str_eq(param_name(p->cursor_param), "skip");
    ck_assert_str_eq(param_name(p->size_param), "take");

    p = paged("stainlessCursorId", SDKC_PAGE_CURSOR_ITEM, "x-stainless-pagination");
    ck_assert_str_eq(param_name(p->cursor_param), "after");
    ck_assert_str_eq(p->has_more_field, "has_more");

    p = paged("msPageable", SDKC_PAGE_NEXT_URL, "x-ms-pageable");
    ck_assert_str_eq(p->items_field, "value");
    ck_assert_str_eq(p->next_field, "nextLink");
    p = paged("msOdata", SDKC_PAGE_NEXT_URL, "x-ms-pageable");
    ck_assert_str_eq(p->next_field, "odata.nextLink"); /* one field with a dot in its name */

    /* one page by declaration; unsupported forms warn where the extension is */
    ck_assert_ptr_null(page_of("msOnePage"));
    ck_assert_ptr_null(page_of("speakeasyBody"));
    ck_assert_ptr_null(page_of("stainlessBad"));
    ck_assert_uint_eq(sdkc_diag_warnings(diag), 2);
    has_diag(SDKC_SEV_WARNING, "extensions.yaml", 72, 9, "in requestBody is not supported");
    has_diag(SDKC_SEV_WARNING, "extensions.yaml", 182, 31, "'fake_page' is not one of");
}
END_TEST

START_TEST(config_overrides)
{
    ck_assert_int_eq(compile(DATA "styles.yaml", DATA "config.json"), SDKC_OK);
    ck_assert_uint_eq(sdkc_diag_warnings(diag), 0);
    /* "none" turns a detected style off */
    ck_assert_ptr_null(page_of("cursorItem"));
    const sdkc_pagination *p;
    p = page_of("pageAlone");
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(p->style, SDKC_PAGE_PAGE_NUMBER);
    ck_assert_int_eq(p->source, SDKC_PAGE_FROM_CONFIG);
    ck_assert_ptr_nonnull(strstr(p->reason, "config.json:3:18"));
    ck_assert_ptr_null(p->size_param);
    p = page_of("twoArrays");
    ck_assert_ptr_nonnull(p);
    ck_assert_str_eq(p->items_field, "right");
    ck_assert_str_eq(param_name(p->size_param), "per_page");
    p = page_of("tokenNoParam");
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(p->style, SDKC_PAGE_NEXT_URL);
    ck_assert_str_eq(p->next_field, "next_cursor");
    /* untouched operations keep what was detected */
    ck_assert_int_eq(page_of("cursorToken")->source, SDKC_PAGE_FROM_HEURISTIC);
}
END_TEST

START_TEST(config_errors)
{
    ck_assert_int_eq(compile(DATA "styles.yaml", DATA "config-bad.json"), SDKC_ERR_INVALID);
    ck_assert_ptr_null(compiled);
    ck_assert_uint_eq(sdkc_diag_errors(diag), 3);
    has_diag(SDKC_SEV_ERROR, "config-bad.json", 3, 28, "unknown style 'pages'");
    has_diag(SDKC_SEV_ERROR, "config-bad.json", 4, 19, "'nope' is not a query parameter");
    has_diag(SDKC_SEV_ERROR, "config-bad.json", 5, 43, "unknown key 'colour'");
    has_diag(SDKC_SEV_WARNING, "config-bad.json", 6, 5, "no compiled operation has the id");
    has_diag(SDKC_SEV_WARNING, "config-bad.json", 7, 5, "has no JSON success to page");
}
END_TEST

START_TEST(config_unreadable)
{
    ck_assert_int_eq(compile(DATA "styles.yaml", DATA "no-such-config.json"), SDKC_ERR_INVALID);
    ck_assert_uint_ge(sdkc_diag_errors(diag), 1);
}
END_TEST

/* Every style written, read back and written again: the same bytes and the same styles. */
static void round_trip(const char *contract, const char *config)
{
    ck_assert_int_eq(compile(contract, config), SDKC_OK);
    char *a = NULL, *b = NULL;
    size_t alen = 0, blen = 0;
    ck_assert_int_eq(sdkc_ir_to_json(ir, &a, &alen), SDKC_OK);
    ck_assert_ptr_nonnull(strstr(a, "\"style\": \""));
    sdkc_compiled *back = NULL;
    sdkc_status st = sdkc_ir_from_json(&back, "ir.json", a, alen, diag);
    if (st != SDKC_OK)
        sdkc_diag_print(diag, stderr, false);
    ck_assert_int_eq(st, SDKC_OK);
    const sdkc_ir *bir = sdkc_compiled_ir(back);
    ck_assert_int_eq(sdkc_ir_to_json(bir, &b, &blen), SDKC_OK);
    ck_assert_uint_eq(alen, blen);
    ck_assert_int_eq(memcmp(a, b, alen), 0);
    size_t n = 0;
    for (size_t i = 0; i < ir->nops; i++) {
        const sdkc_pagination *x = ir->ops[i].pagination, *y = bir->ops[i].pagination;
        ck_assert_int_eq(x != NULL, y != NULL);
        if (!x)
            continue;
        n++;
        ck_assert_int_eq(x->style, y->style);
        ck_assert_int_eq(x->source, y->source);
        str_or_null(y->items_field, x->items_field);
        str_or_null(y->next_field, x->next_field);
        str_or_null(y->has_more_field, x->has_more_field);
        str_or_null(y->item_id_field, x->item_id_field);
        str_or_null(param_name(y->cursor_param), param_name(x->cursor_param));
        str_or_null(param_name(y->size_param), param_name(x->size_param));
        /* parameters are the operation's own, not copies */
        if (y->cursor_param)
            ck_assert(y->cursor_param >= bir->ops[i].params &&
                      y->cursor_param < bir->ops[i].params + bir->ops[i].nparams);
    }
    ck_assert_uint_gt(n, 5);
    free(a);
    free(b);
    sdkc_compiled_free(back);
}

START_TEST(ir_json_styles)
{
    round_trip(DATA "styles.yaml", NULL);
}
END_TEST

START_TEST(ir_json_extensions)
{
    round_trip(DATA "extensions.yaml", NULL);
}
END_TEST

START_TEST(ir_json_rejects_unknown_style)
{
    ck_assert_int_eq(compile(DATA "styles.yaml", NULL), SDKC_OK);
    char *a = NULL;
    size_t alen = 0;
    ck_assert_int_eq(sdkc_ir_to_json(ir, &a, &alen), SDKC_OK);
    char *at = strstr(a, "\"style\": \"offset\"");
    ck_assert_ptr_nonnull(at);
    memcpy(at + 10, "offsex", 6);
    sdkc_compiled *back = NULL;
    ck_assert_int_ne(sdkc_ir_from_json(&back, "ir.json", a, alen, diag), SDKC_OK);
    ck_assert_ptr_null(back);
    free(a);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("pagination");
    TCase *tc = tcase_create("styles");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_add_test(tc, heuristic_styles);
    tcase_add_test(tc, heuristic_recall);
    tcase_add_test(tc, heuristic_plain_next);
    tcase_add_test(tc, heuristic_number_types);
    tcase_add_test(tc, heuristic_zero_based_pages);
    tcase_add_test(tc, heuristic_offsets_and_items);
    tcase_add_test(tc, extensions);
    tcase_add_test(tc, config_overrides);
    tcase_add_test(tc, config_errors);
    tcase_add_test(tc, config_unreadable);
    tcase_add_test(tc, ir_json_styles);
    tcase_add_test(tc, ir_json_extensions);
    tcase_add_test(tc, ir_json_rejects_unknown_style);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
