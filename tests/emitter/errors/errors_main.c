/* The SDK generated from tests/compiler/data/compile/real/responses.yaml (at build time): `default`
 * and `4XX`/`5XX` responses are declared errors with typed payloads, matched exact status first,
 * then the range, then default; tagged bodies under a range by tag; `default` alone and `2XX`
 * are successes for any 2xx status. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../memory_client.h"
#include "er/er.h"

/* Call items.get answered with status and body; the error it gives (owned by the caller). */
static er_error *get_error(int status, const char *body)
{
    canned_reply(status, body);
    er_items_get_request req = {.id = "i1"};
    er_item *item = NULL;
    er_error *err = NULL;
    ck_assert_int_eq(er_items_get(client, &req, NULL, &item, &err), ER_ERR);
    ck_assert_ptr_null(item);
    ck_assert_ptr_nonnull(err);
    ck_assert_int_eq(er_error_status(err), status);
    return err;
}

static void expect_domain(const er_error *err, const char *tag)
{
    ck_assert_msg(er_error_is_domain(err), "not a DOMAIN error: %s", er_error_message(err));
    ck_assert_str_eq(er_error_tag(err), tag);
}

START_TEST(exact_status_first)
{
    er_error *err = get_error(404, "{\"message\":\"no such item\"}");
    expect_domain(err, "NotFound");
    const er_not_found *nf = er_error_not_found(err);
    ck_assert_ptr_nonnull(nf);
    ck_assert_str_eq(nf->message, "no such item");
    ck_assert_ptr_null(er_error_problem(err));
    er_error_free(err);
}
END_TEST

START_TEST(range_by_tag)
{
    er_error *err = get_error(409, "{\"_tag\":\"Conflict\"}");
    expect_domain(err, "Conflict");
    ck_assert_ptr_nonnull(er_error_conflict(err));
    er_error_free(err);
    err = get_error(400, "{\"_tag\":\"BadInput\",\"field\":\"name\"}");
    expect_domain(err, "BadInput");
    ck_assert_str_eq(er_error_bad_input(err)->field, "name");
    er_error_free(err);
    /* a tag the range does not declare: not a domain error, and not the default's either */
    err = get_error(422, "{\"_tag\":\"Other\"}");
    ck_assert(!er_error_is_domain(err));
    ck_assert_int_eq(er_error_reason(err), SDKRT_REASON_UNEXPECTED_STATUS);
    er_error_free(err);
}
END_TEST

START_TEST(untagged_range_and_default)
{
    er_error *err = get_error(503, "{\"retryAfter\":5}");
    expect_domain(err, "ItemsGetError5XX");
    const er_items_get_error5_xx *e5 = er_error_items_get_error5_xx(err);
    ck_assert_ptr_nonnull(e5);
    ck_assert(e5->has_retry_after && e5->retry_after == 5);
    er_error_free(err);
    err = get_error(302, "{\"title\":\"moved\",\"status\":302}");
    expect_domain(err, "Problem");
    ck_assert_str_eq(er_error_problem(err)->title, "moved");
    er_error_free(err);
}
END_TEST

START_TEST(default_and_2xx_successes)
{
    char *s = NULL;
    er_error *err = NULL;
    canned_reply(201, "\"pong\"");
    ck_assert_int_eq(er_ping(client, NULL, &s, &err), ER_OK);
    ck_assert_str_eq(s, "pong");
    free(s);
    canned_answer()->status = 500;
    ck_assert_int_eq(er_ping(client, NULL, &s, &err), ER_ERR);
    ck_assert_int_eq(er_error_reason(err), SDKRT_REASON_UNEXPECTED_STATUS);
    er_error_free(err);
    err = NULL;
    canned_answer()->status = 202;
    canned_answer()->body = NULL;
    ck_assert_int_eq(er_range_post(client, NULL, &err), ER_OK);
    ck_assert_ptr_null(err);
}
END_TEST

/* Errors declared under non-JSON media types are DOMAIN errors whose payload is the server's
 * text (notes.get: 404 text/plain, 409 XML, 5XX text/html; default under a media range with a
 * schema is JSON). */
static er_error *notes_error(int status, const char *content_type, const char *body)
{
    canned_reply_as(status, content_type, body);
    er_notes_get_request req = {.id = "n1"};
    er_item *item = NULL;
    er_error *err = NULL;
    ck_assert_int_eq(er_notes_get(client, &req, NULL, &item, &err), ER_ERR);
    ck_assert_ptr_null(item);
    ck_assert_int_eq(er_error_status(err), status);
    return err;
}

START_TEST(declared_text_errors)
{
    er_error *err = notes_error(404, "text/plain; charset=utf-8", "no note n1");
    expect_domain(err, "string");
    ck_assert_str_eq(*er_error_string(err), "no note n1");
    ck_assert_str_eq(er_error_message(err), "string (HTTP 404): no note n1");
    size_t len = 0;
    ck_assert_str_eq(er_error_body(err, &len), "no note n1");
    er_error_free(err);
    err = notes_error(409, "application/xml", "<error>locked</error>");
    expect_domain(err, "string");
    ck_assert_str_eq(*er_error_string(err), "<error>locked</error>");
    er_error_free(err);
    /* a gateway's page without a Content-Type, under 5XX */
    err = notes_error(502, NULL, "<html>Bad gateway</html>");
    expect_domain(err, "string");
    ck_assert_str_eq(*er_error_string(err), "<html>Bad gateway</html>");
    ck_assert_ptr_nonnull(strstr(er_error_message(err), "Bad gateway"));
    er_error_free(err);
    /* default under a media range with a structured schema stays JSON */
    err = notes_error(418, "application/json", "{\"title\":\"teapot\"}");
    expect_domain(err, "Problem");
    ck_assert_str_eq(er_error_problem(err)->title, "teapot");
    ck_assert_ptr_null(er_error_string(err));
    er_error_free(err);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("errors");
    TCase *tc = tcase_create("errors");
    tcase_add_checked_fixture(tc, canned_setup, memory_client_close);
    tcase_add_test(tc, exact_status_first);
    tcase_add_test(tc, range_by_tag);
    tcase_add_test(tc, untagged_range_and_default);
    tcase_add_test(tc, default_and_2xx_successes);
    tcase_add_test(tc, declared_text_errors);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
