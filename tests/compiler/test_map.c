/* test_map.c - the hash map and pointer vector (sdkc/map.h). */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sdkc/map.h"

#define N 1000

static char keys[N][16];
static int values[N];

static void fill_keys(void)
{
    for (int i = 0; i < N; i++)
        snprintf(keys[i], sizeof keys[i], "k%d", i);
}

START_TEST(hash_is_fnv1a)
{
    /* the published FNV-1a 64 vectors */
    ck_assert_uint_eq(sdkc_hash_str(""), 0xcbf29ce484222325ull);
    ck_assert_uint_eq(sdkc_hash_str("a"), 0xaf63dc4c8601ec8cull);
    ck_assert_uint_eq(sdkc_hash_str("foobar"), 0x85944171f73967e8ull);
    ck_assert_uint_eq(sdkc_hash_bytes("foobar", 6), sdkc_hash_str("foobar"));
    ck_assert_uint_eq(sdkc_hash_bytes(NULL, 0), sdkc_hash_str(""));
    ck_assert_uint_ne(sdkc_hash_bytes("a\0b", 3), sdkc_hash_bytes("a", 1));
}
END_TEST

START_TEST(string_keys)
{
    fill_keys();
    sdkc_map m = SDKC_MAP_INIT;
    ck_assert_ptr_null(sdkc_map_get(&m, "x"));
    ck_assert(!sdkc_map_del(&m, "x"));
    for (int i = 0; i < N; i++) /* past several growths */
        ck_assert(sdkc_map_put(&m, keys[i], &values[i]));
    ck_assert_uint_eq(m.len, N);
    for (int i = 0; i < N; i++) {
        char copy[16]; /* equal content, another address */
        memcpy(copy, keys[i], sizeof copy);
        ck_assert_ptr_eq(sdkc_map_get(&m, copy), &values[i]);
    }
    ck_assert_ptr_null(sdkc_map_get(&m, "k1000"));
    ck_assert_ptr_null(sdkc_map_get(&m, NULL));
    ck_assert(!sdkc_map_put(&m, NULL, &values[0]));
    ck_assert(sdkc_map_put(&m, "k7", &values[0])); /* replaced, not added */
    ck_assert_uint_eq(m.len, N);
    ck_assert_ptr_eq(sdkc_map_get(&m, "k7"), &values[0]);
    ck_assert(sdkc_map_put(&m, "k8", NULL)); /* a NULL value is stored but reads as absent */
    ck_assert_uint_eq(m.len, N);
    sdkc_map_cleanup(&m);
    ck_assert_uint_eq(m.len, 0);
    ck_assert_ptr_null(sdkc_map_get(&m, "k1"));
    sdkc_map_cleanup(&m);
    sdkc_map_cleanup(NULL);
    /* usable again after cleanup */
    ck_assert(sdkc_map_put(&m, "again", &values[1]));
    ck_assert_ptr_eq(sdkc_map_get(&m, "again"), &values[1]);
    sdkc_map_cleanup(&m);
}
END_TEST

START_TEST(pointer_keys)
{
    fill_keys();
    sdkc_map m;
    sdkc_map_init(&m, SDKC_MAP_POINTERS);
    for (int i = 0; i < N; i++)
        ck_assert(sdkc_map_put(&m, &values[i], keys[i]));
    ck_assert_uint_eq(m.len, N);
    for (int i = 0; i < N; i++)
        ck_assert_ptr_eq(sdkc_map_get(&m, &values[i]), keys[i]);
    /* by address: the same text at another address is another key */
    sdkc_map_cleanup(&m);
    char a[] = "same", b[] = "same";
    ck_assert(sdkc_map_put(&m, a, &values[0]));
    ck_assert_ptr_null(sdkc_map_get(&m, b));
    ck_assert(sdkc_map_put(&m, b, &values[1]));
    ck_assert_uint_eq(m.len, 2);
    sdkc_map_cleanup(&m);

    sdkc_map s;
    sdkc_map_init(&s, SDKC_MAP_STRINGS);
    ck_assert(sdkc_map_put(&s, a, &values[0]));
    ck_assert_ptr_eq(sdkc_map_get(&s, b), &values[0]);
    sdkc_map_cleanup(&s);
    sdkc_map p = SDKC_MAP_POINTER_INIT;
    ck_assert(p.by_pointer);
    sdkc_map_cleanup(&p);
}
END_TEST

/* Deleting from the middle of probe runs: every key left is still found, every key removed is
 * gone, in a table kept small enough that runs are long. */
START_TEST(delete_keeps_runs)
{
    fill_keys();
    sdkc_map m = SDKC_MAP_INIT;
    ck_assert(sdkc_map_reserve(&m, 40));
    size_t cap = m.cap;
    ck_assert_uint_ge(cap, 82);
    for (int i = 0; i < 40; i++)
        ck_assert(sdkc_map_put(&m, keys[i], &values[i]));
    ck_assert_uint_eq(m.cap, cap); /* reserved: no growth */
    for (int i = 0; i < 40; i += 3)
        ck_assert(sdkc_map_del(&m, keys[i]));
    ck_assert(!sdkc_map_del(&m, keys[0]));
    for (int i = 0; i < 40; i++) {
        if (i % 3 == 0)
            ck_assert_ptr_null(sdkc_map_get(&m, keys[i]));
        else
            ck_assert_ptr_eq(sdkc_map_get(&m, keys[i]), &values[i]);
    }
    ck_assert_uint_eq(m.len, 40 - 14);
    /* and back in */
    for (int i = 0; i < 40; i += 3)
        ck_assert(sdkc_map_put(&m, keys[i], &values[i]));
    for (int i = 0; i < 40; i++)
        ck_assert_ptr_eq(sdkc_map_get(&m, keys[i]), &values[i]);
    /* repeated churn on a full-ish table must not lose keys */
    for (int round = 0; round < 200; round++) {
        int k = (round * 7) % 40;
        ck_assert(sdkc_map_del(&m, keys[k]));
        ck_assert_ptr_null(sdkc_map_get(&m, keys[k]));
        ck_assert(sdkc_map_put(&m, keys[k], &values[k]));
    }
    for (int i = 0; i < 40; i++)
        ck_assert_ptr_eq(sdkc_map_get(&m, keys[i]), &values[i]);
    sdkc_map_cleanup(&m);
}
END_TEST

START_TEST(reserve_limits)
{
    sdkc_map m = SDKC_MAP_INIT;
    ck_assert(!sdkc_map_reserve(&m, SIZE_MAX / 2)); /* refused, not wrapped around */
    ck_assert_uint_eq(m.cap, 0);
    ck_assert(sdkc_map_reserve(&m, 0));
    ck_assert_uint_eq(m.cap, 64);
    ck_assert(sdkc_map_put(&m, "a", &values[0]));
    ck_assert(sdkc_map_reserve(&m, 5)); /* already room: nothing moves */
    ck_assert_uint_eq(m.cap, 64);
    ck_assert_ptr_eq(sdkc_map_get(&m, "a"), &values[0]);
    sdkc_map_cleanup(&m);
}
END_TEST

START_TEST(vec)
{
    sdkc_vec v = SDKC_VEC_INIT;
    for (int i = 0; i < N; i++)
        ck_assert(sdkc_vec_push(&v, &values[i]));
    ck_assert(sdkc_vec_push(&v, NULL));
    ck_assert_uint_eq(v.len, N + 1);
    ck_assert_uint_ge(v.cap, v.len);
    for (int i = 0; i < N; i++)
        ck_assert_ptr_eq(v.items[i], &values[i]);
    ck_assert_ptr_null(v.items[N]);
    sdkc_vec_cleanup(&v);
    ck_assert_uint_eq(v.len, 0);
    ck_assert_ptr_null(v.items);
    sdkc_vec_cleanup(&v);
    sdkc_vec_cleanup(NULL);
    ck_assert(sdkc_vec_push(&v, &values[3]));
    ck_assert_ptr_eq(v.items[0], &values[3]);
    sdkc_vec_cleanup(&v);
}
END_TEST

static Suite *map_suite(void)
{
    Suite *s = suite_create("map");
    TCase *tc = tcase_create("map");
    tcase_add_test(tc, hash_is_fnv1a);
    tcase_add_test(tc, string_keys);
    tcase_add_test(tc, pointer_keys);
    tcase_add_test(tc, delete_keeps_runs);
    tcase_add_test(tc, reserve_limits);
    tcase_add_test(tc, vec);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(map_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
