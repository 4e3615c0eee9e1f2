/* test_util.c - arena, buffer, files, diagnostics and SHA-256. */
#include <check.h>
#include <limits.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sdkc/diag.h"
#include "sdkc/util.h"

/* ---- arena ---- */

START_TEST(arena_alignment_and_zeroing)
{
    sdkc_arena *a = NULL;
    ck_assert_int_eq(sdkc_arena_new(&a), SDKC_OK);
    ck_assert_ptr_nonnull(a);
    size_t total = 0;
    for (size_t n = 1; n < 3000; n += 7) {
        unsigned char *p = sdkc_arena_alloc(a, n);
        ck_assert_ptr_nonnull(p);
        ck_assert_uint_eq((uintptr_t)p % _Alignof(max_align_t), 0);
        /* one assertion per block, not per byte: each ck_assert writes to Check's pipe, and
         * 640,000 writes made this test slow under valgrind */
        size_t nonzero = 0;
        for (size_t i = 0; i < n; i++)
            nonzero += p[i] != 0;
        ck_assert_msg(nonzero == 0, "%zu of %zu bytes not zeroed", nonzero, n);
        memset(p, 0xAB, n); /* valgrind/ASan catch overlap or overflow */
        total += n;
    }
    ck_assert_uint_eq(sdkc_arena_used(a), total);
    ck_assert_ptr_null(sdkc_arena_alloc(a, 0));
    ck_assert_ptr_null(sdkc_arena_alloc(a, SIZE_MAX));
    ck_assert_ptr_null(sdkc_arena_alloc(a, SIZE_MAX - 8));
    sdkc_arena_free(a);
    sdkc_arena_free(NULL);
}
END_TEST

START_TEST(arena_large_allocations)
{
    sdkc_arena *a = NULL;
    ck_assert_int_eq(sdkc_arena_new(&a), SDKC_OK);
    char *small1 = sdkc_arena_alloc(a, 16);
    /* bigger than any block: gets a block of its own and small allocations keep working */
    size_t big = (size_t)9 << 20;
    unsigned char *p = sdkc_arena_alloc(a, big);
    ck_assert_ptr_nonnull(p);
    ck_assert_uint_eq(p[0], 0);
    ck_assert_uint_eq(p[big - 1], 0);
    memset(p, 1, big);
    char *small2 = sdkc_arena_alloc(a, 16);
    ck_assert_ptr_nonnull(small1);
    ck_assert_ptr_nonnull(small2);
    ck_assert_ptr_eq(small2, small1 + 16); /* same block, next aligned slot */
    /* many medium allocations cross several blocks */
    for (int i = 0; i < 2000; i++) {
        char *q = sdkc_arena_alloc(a, 5000);
        ck_assert_ptr_nonnull(q);
        q[4999] = 'x';
    }
    ck_assert_uint_ge(sdkc_arena_used(a), big + 2000 * 5000);
    sdkc_arena_free(a);
}
END_TEST

START_TEST(arena_strings)
{
    sdkc_arena *a = NULL;
    ck_assert_int_eq(sdkc_arena_new(&a), SDKC_OK);
    ck_assert_str_eq(sdkc_arena_strdup(a, "hello"), "hello");
    ck_assert_str_eq(sdkc_arena_strdup(a, ""), "");
    char *n = sdkc_arena_strndup(a, "abcdef", 3);
    ck_assert_str_eq(n, "abc");
    ck_assert_str_eq(sdkc_arena_printf(a, "%s-%d", "x", 42), "x-42");
    /* longer than the internal first attempt */
    char *longs = sdkc_arena_printf(a, "%0600d|%s", 7, "end");
    ck_assert_uint_eq(strlen(longs), 604);
    ck_assert_str_eq(longs + 600, "|end");
    ck_assert_int_eq(longs[599], '7');
    ck_assert_int_eq(longs[0], '0');
    sdkc_arena_free(a);
}
END_TEST

/* ---- buffer ---- */

START_TEST(buf_growth)
{
    sdkc_buf b = SDKC_BUF_INIT;
    ck_assert_ptr_null(b.data);
    for (int i = 0; i < 10000; i++)
        sdkc_buf_putc(&b, (char)('a' + i % 26));
    ck_assert_uint_eq(b.len, 10000);
    ck_assert_uint_gt(b.cap, b.len);
    ck_assert_int_eq(b.data[b.len], '\0');
    ck_assert_int_eq(b.data[27], 'b');
    sdkc_buf_append(&b, "XYZ", 3);
    sdkc_buf_puts(&b, "!");
    ck_assert_uint_eq(b.len, 10004);
    ck_assert_str_eq(b.data + 10000, "XYZ!");
    sdkc_buf_append(&b, NULL, 0);
    ck_assert_uint_eq(b.len, 10004);
    ck_assert_int_eq(sdkc_buf_finish(&b), SDKC_OK);
    sdkc_buf_cleanup(&b);
    ck_assert_ptr_null(b.data);
    ck_assert_uint_eq(b.len, 0);
    sdkc_buf_cleanup(&b); /* twice is fine */
}
END_TEST

/* The formatter's own conversions (and the hand-over to vsnprintf in the middle of a format)
 * give exactly what snprintf gives. */
#define SAME_AS_SNPRINTF(...)                                                                      \
    do {                                                                                           \
        char want_[512];                                                                           \
        snprintf(want_, sizeof want_, __VA_ARGS__);                                                \
        sdkc_buf b_ = SDKC_BUF_INIT;                                                               \
        sdkc_buf_printf(&b_, __VA_ARGS__);                                                         \
        ck_assert_str_eq(b_.data ? b_.data : "", want_);                                           \
        sdkc_buf_cleanup(&b_);                                                                     \
        char *arena_ = sdkc_arena_printf(a_, __VA_ARGS__);                                         \
        ck_assert_str_eq(arena_, want_);                                                           \
    } while (0)

START_TEST(buf_printf_matches_snprintf)
{
    sdkc_arena *a_ = NULL;
    ck_assert_int_eq(sdkc_arena_new(&a_), SDKC_OK);
    SAME_AS_SNPRINTF("plain text, no conversion");
    SAME_AS_SNPRINTF("%s|%s|%s", "a", "", "ccc");
    SAME_AS_SNPRINTF("[%.*s][%.*s]", 3, "abcdef", 0, "xyz");
    SAME_AS_SNPRINTF("%c%%%c", 'x', 'y');
    SAME_AS_SNPRINTF("%d %d %d %i", 0, -1, INT_MIN, INT_MAX);
    SAME_AS_SNPRINTF("%u %u", 0u, UINT_MAX);
    SAME_AS_SNPRINTF("%ld %lu", LONG_MIN, ULONG_MAX);
    SAME_AS_SNPRINTF("%lld %llu", LLONG_MIN, ULLONG_MAX);
    SAME_AS_SNPRINTF("%zu bytes", (size_t)SIZE_MAX);
    SAME_AS_SNPRINTF("before %s, then %08lx and %s after", "x", 0xbeefUL, "y");
    SAME_AS_SNPRINTF("%-5s|%5d|%03o", "ab", 42, 8u);
    sdkc_arena_free(a_);
}
END_TEST

START_TEST(buf_printf)
{
    sdkc_buf b;
    sdkc_buf_init(&b);
    sdkc_buf_printf(&b, "%d:%s", 12, "ab");
    ck_assert_str_eq(b.data, "12:ab");
    /* a long one forces growth after a partial write into the spare capacity */
    sdkc_buf_printf(&b, "%01000d", 5);
    ck_assert_uint_eq(b.len, 1005);
    ck_assert_int_eq(b.data[1004], '5');
    ck_assert_int_eq(b.data[5], '0');
    ck_assert_int_eq(b.data[1005], '\0');
    sdkc_buf_printf(&b, "%s", "");
    ck_assert_uint_eq(b.len, 1005);
    sdkc_buf_reset(&b);
    ck_assert_uint_eq(b.len, 0);
    ck_assert_str_eq(b.data, "");
    sdkc_buf_printf(&b, "%c%c", 'o', 'k');
    ck_assert_str_eq(b.data, "ok");
    sdkc_buf_cleanup(&b);
}
END_TEST

START_TEST(buf_oom_sticky)
{
    sdkc_buf b = SDKC_BUF_INIT;
    sdkc_buf_puts(&b, "keep");
    /* a length that cannot be represented fails like an allocation failure, without touching
     * the (never read) source */
    sdkc_buf_append(&b, "x", SIZE_MAX - 2);
    ck_assert(b.oom);
    ck_assert_int_eq(sdkc_buf_finish(&b), SDKC_ERR_NOMEM);
    sdkc_buf_puts(&b, "ignored");
    sdkc_buf_printf(&b, "%d", 5);
    sdkc_buf_putc(&b, 'c');
    ck_assert_uint_eq(b.len, 4);
    ck_assert_str_eq(b.data, "keep");
    size_t len = 99;
    ck_assert_ptr_null(sdkc_buf_steal(&b, &len));
    ck_assert_uint_eq(len, 0);
    /* steal after oom releases and reinitialises */
    ck_assert_ptr_null(b.data);
    ck_assert(!b.oom);
    /* reset clears the flag as well */
    sdkc_buf_puts(&b, "a");
    sdkc_buf_append(&b, "x", SIZE_MAX);
    ck_assert(b.oom);
    sdkc_buf_reset(&b);
    ck_assert(!b.oom);
    sdkc_buf_puts(&b, "fine");
    ck_assert_int_eq(sdkc_buf_finish(&b), SDKC_OK);
    ck_assert_str_eq(b.data, "fine");
    sdkc_buf_cleanup(&b);
}
END_TEST

START_TEST(buf_steal)
{
    sdkc_buf b = SDKC_BUF_INIT;
    size_t len = 99;
    char *empty = sdkc_buf_steal(&b, &len);
    ck_assert_ptr_nonnull(empty);
    ck_assert_str_eq(empty, "");
    ck_assert_uint_eq(len, 0);
    free(empty);
    sdkc_buf_puts(&b, "content");
    char *s = sdkc_buf_steal(&b, &len);
    ck_assert_str_eq(s, "content");
    ck_assert_uint_eq(len, 7);
    ck_assert_ptr_null(b.data);
    ck_assert_uint_eq(b.len, 0);
    ck_assert_uint_eq(b.cap, 0);
    free(s);
    sdkc_buf_puts(&b, "again");
    s = sdkc_buf_steal(&b, NULL);
    ck_assert_str_eq(s, "again");
    free(s);
    sdkc_buf_cleanup(&b);
}
END_TEST

/* ---- files ---- */

static char *temp_path(const char *leaf)
{
    sdkc_buf b = SDKC_BUF_INIT;
    sdkc_buf_printf(&b, "%s/loader-util-%ld-%s", SDKC_BINARY_DIR, (long)getpid(), leaf);
    ck_assert_int_eq(sdkc_buf_finish(&b), SDKC_OK);
    return sdkc_buf_steal(&b, NULL);
}

START_TEST(file_roundtrip)
{
    char *path = temp_path("rt.bin");
    char data[3000];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (char)(i * 7);
    data[10] = '\0';
    ck_assert_int_eq(sdkc_write_file(path, data, sizeof data), SDKC_OK);
    char *tmp = NULL;
    size_t tlen = strlen(path) + 5;
    tmp = malloc(tlen);
    snprintf(tmp, tlen, "%s.tmp", path);
    ck_assert_int_ne(access(tmp, F_OK), 0); /* renamed away */
    char *back = NULL;
    size_t len = 0;
    ck_assert_int_eq(sdkc_read_file(path, &back, &len), SDKC_OK);
    ck_assert_uint_eq(len, sizeof data);
    ck_assert_mem_eq(back, data, sizeof data);
    ck_assert_int_eq(back[len], '\0');
    free(back);
    /* overwrite with an empty file */
    ck_assert_int_eq(sdkc_write_file(path, NULL, 0), SDKC_OK);
    ck_assert_int_eq(sdkc_read_file(path, &back, &len), SDKC_OK);
    ck_assert_uint_eq(len, 0);
    ck_assert_str_eq(back, "");
    free(back);
    unlink(path);
    free(tmp);
    free(path);
}
END_TEST

/* A writer that puts half of its text out, then fails as a full disk would. */
static sdkc_status half_then_fail(FILE *fp, void *text)
{
    fputs(text, fp);
    return SDKC_ERR_NOMEM;
}

static sdkc_status all_of(FILE *fp, void *text)
{
    return fputs(text, fp) >= 0 ? SDKC_OK : SDKC_ERR_IO;
}

/* The content written as it goes: renamed into place on success, nothing left on failure. */
START_TEST(file_written_with)
{
    char *path = temp_path("with.txt");
    ck_assert_int_eq(sdkc_write_file_with(path, all_of, "first"), SDKC_OK);
    ck_assert_int_eq(sdkc_write_file_with(path, half_then_fail, "second"), SDKC_ERR_NOMEM);
    char *back = NULL;
    ck_assert_int_eq(sdkc_read_file(path, &back, NULL), SDKC_OK);
    ck_assert_str_eq(back, "first"); /* the failed write replaced nothing */
    free(back);
    size_t tlen = strlen(path) + 5;
    char *tmp = malloc(tlen);
    snprintf(tmp, tlen, "%s.tmp", path);
    ck_assert_int_ne(access(tmp, F_OK), 0);
    unlink(path);
    free(tmp);
    free(path);
}
END_TEST

START_TEST(file_errors)
{
    char *back = (char *)1;
    size_t len = 5;
    errno = 0;
    ck_assert_int_eq(sdkc_read_file("/nonexistent/dir/x.json", &back, &len), SDKC_ERR_IO);
    ck_assert_int_eq(errno, ENOENT);
    ck_assert_ptr_null(back);
    ck_assert_uint_eq(len, 0);
    ck_assert_int_eq(sdkc_read_file(SDKC_SOURCE_DIR, &back, &len), SDKC_ERR_IO);
    ck_assert_int_eq(errno, EISDIR);
    ck_assert_int_eq(sdkc_write_file("/nonexistent/dir/x.json", "a", 1), SDKC_ERR_IO);
}
END_TEST

START_TEST(status_strings)
{
    ck_assert_str_eq(sdkc_status_str(SDKC_OK), "ok");
    ck_assert_str_eq(sdkc_status_str(SDKC_ERR_NOMEM), "out of memory");
    ck_assert_str_eq(sdkc_status_str(SDKC_ERR_LIMIT), "limit exceeded");
    ck_assert_str_eq(sdkc_status_str((sdkc_status)99), "unknown status");
}
END_TEST

/* ---- diagnostics ---- */

static char *print_diag(const sdkc_diag *d, bool errors_only)
{
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(fp);
    sdkc_diag_print(d, fp, errors_only);
    fclose(fp);
    return text;
}

START_TEST(diag_order_and_format)
{
    sdkc_diag *d = NULL;
    ck_assert_int_eq(sdkc_diag_new(&d), SDKC_OK);
    char file[] = "spec.yaml";
    sdkc_diag_add(d, SDKC_SEV_ERROR, (sdkc_loc){file, 3, 5}, "bad %s", "thing");
    file[0] = 'X'; /* the name was copied */
    sdkc_diag_add(d, SDKC_SEV_WARNING, (sdkc_loc){"other.json", 1, 1}, "careful");
    sdkc_diag_add(d, SDKC_SEV_ERROR, (sdkc_loc){"whole.json", 0, 0}, "cannot read: %s", "x");
    sdkc_diag_add(d, SDKC_SEV_ERROR, (sdkc_loc){NULL, 0, 0}, "no file");
    ck_assert_uint_eq(sdkc_diag_count(d), 4);
    ck_assert_uint_eq(sdkc_diag_errors(d), 3);
    ck_assert_uint_eq(sdkc_diag_warnings(d), 1);
    const sdkc_diag_entry *e = sdkc_diag_get(d, 0);
    ck_assert_str_eq(e->loc.file, "spec.yaml");
    ck_assert_uint_eq(e->loc.line, 3);
    ck_assert_str_eq(e->message, "bad thing");
    ck_assert_ptr_null(sdkc_diag_get(d, 4));
    char *all = print_diag(d, false);
    ck_assert_str_eq(all, "spec.yaml:3:5: error: bad thing\n"
                          "other.json:1:1: warning: careful\n"
                          "whole.json: error: cannot read: x\n"
                          "sdkc: error: no file\n");
    free(all);
    char *errs = print_diag(d, true);
    ck_assert_str_eq(errs, "spec.yaml:3:5: error: bad thing\n"
                           "whole.json: error: cannot read: x\n"
                           "sdkc: error: no file\n");
    free(errs);
    sdkc_diag_free(d);
    sdkc_diag_free(NULL);
}
END_TEST

START_TEST(diag_cap)
{
    /* warnings are capped, errors never: an error after many warnings is still there */
    sdkc_diag *d = NULL;
    ck_assert_int_eq(sdkc_diag_new(&d), SDKC_OK);
    enum { N = 3 * SDKC_DIAG_MAX };
    for (int i = 0; i < N; i++)
        sdkc_diag_add(d, i % 2 ? SDKC_SEV_WARNING : SDKC_SEV_ERROR,
                      (sdkc_loc){"f", (uint32_t)i + 1, 1}, "n%d", i);
    ck_assert_uint_eq(sdkc_diag_count(d), N / 2 + SDKC_DIAG_MAX);
    ck_assert_uint_eq(sdkc_diag_errors(d), N / 2);
    ck_assert_uint_eq(sdkc_diag_warnings(d), N / 2);
    /* the last stored warning is n399; every error is stored, the last one n598 */
    const sdkc_diag_entry *first = sdkc_diag_get(d, 0);
    ck_assert_str_eq(sdkc_diag_get(d, sdkc_diag_count(d) - 1)->message, "n598");
    ck_assert_ptr_eq(sdkc_diag_get(d, 0), first); /* pointers stay valid as the list grows */
    char *all = print_diag(d, false);
    ck_assert_ptr_nonnull(strstr(all, "f:400:1: warning: n399\nf:401:1: error: n400\n"));
    ck_assert_ptr_null(strstr(all, "n401"));
    ck_assert_ptr_nonnull(strstr(all, "f:599:1: error: n598\nsdkc: ... and 100 more warnings\n"));
    free(all);
    char *errs = print_diag(d, true);
    ck_assert_ptr_nonnull(strstr(errs, "f:599:1: error: n598\n"));
    ck_assert_ptr_null(strstr(errs, "warning"));
    ck_assert_ptr_null(strstr(errs, "more"));
    free(errs);
    sdkc_diag_free(d);

    /* SDKC_DIAG_MAX warnings first, then one error: the error is kept and printed */
    ck_assert_int_eq(sdkc_diag_new(&d), SDKC_OK);
    for (int i = 0; i < SDKC_DIAG_MAX + 1; i++)
        sdkc_diag_add(d, SDKC_SEV_WARNING, (sdkc_loc){"f", 1, 1}, "w%d", i);
    sdkc_diag_add(d, SDKC_SEV_ERROR, (sdkc_loc){"f", 9, 9}, "the error");
    all = print_diag(d, false);
    ck_assert_ptr_nonnull(strstr(all, "f:9:9: error: the error\nsdkc: ... and 1 more warning\n"));
    free(all);
    sdkc_diag_free(d);
}
END_TEST

/* ---- SHA-256 (FIPS 180-2 appendix B / NIST example vectors) ---- */

static void check_sha(const void *data, size_t len, const char *want)
{
    char hex[65];
    sdkc_sha256_hex(hex, data, len);
    ck_assert_str_eq(hex, want);
}

START_TEST(sha256_vectors)
{
    check_sha("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    check_sha("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *v448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    ck_assert_uint_eq(strlen(v448) * 8, 448);
    check_sha(v448, strlen(v448),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    const char *v896 = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
                       "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
    check_sha(v896, strlen(v896),
              "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
    size_t n = 1000000;
    char *a = malloc(n);
    ck_assert_ptr_nonnull(a);
    memset(a, 'a', n);
    check_sha(a, n, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    free(a);
    /* padding edges: 55 bytes fit one final block, 56 need two */
    char buf[64];
    memset(buf, 'a', sizeof buf);
    check_sha(buf, 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
    check_sha(buf, 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
    check_sha(buf, 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
    uint8_t raw[32];
    sdkc_sha256(raw, "abc", 3);
    ck_assert_uint_eq(raw[0], 0xba);
    ck_assert_uint_eq(raw[31], 0xad);
}
END_TEST

static Suite *util_suite(void)
{
    Suite *s = suite_create("util");
    TCase *tc = tcase_create("arena");
    tcase_add_test(tc, arena_alignment_and_zeroing);
    tcase_add_test(tc, arena_large_allocations);
    tcase_add_test(tc, arena_strings);
    suite_add_tcase(s, tc);
    tc = tcase_create("buf");
    tcase_add_test(tc, buf_growth);
    tcase_add_test(tc, buf_printf);
    tcase_add_test(tc, buf_printf_matches_snprintf);
    tcase_add_test(tc, buf_oom_sticky);
    tcase_add_test(tc, buf_steal);
    suite_add_tcase(s, tc);
    tc = tcase_create("files");
    tcase_add_test(tc, file_roundtrip);
    tcase_add_test(tc, file_errors);
    tcase_add_test(tc, file_written_with);
    tcase_add_test(tc, status_strings);
    suite_add_tcase(s, tc);
    tc = tcase_create("diag");
    tcase_add_test(tc, diag_order_and_format);
    tcase_add_test(tc, diag_cap);
    suite_add_tcase(s, tc);
    tc = tcase_create("sha256");
    tcase_add_test(tc, sha256_vectors);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(util_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
