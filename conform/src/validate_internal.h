/* validate_internal.h - what the validator's files share: the validation object, one walk, the
 * deviation lists and the per-kind checks the walk dispatches to. */
#ifndef SDKC_VALIDATE_INTERNAL_H
#define SDKC_VALIDATE_INTERNAL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sdkc/regex.h"
#include "sdkc/validate.h"

typedef struct dev_list {
    sdkc_deviation *items;
    size_t n, cap;
    size_t total;
    size_t unchecked;
} dev_list;

struct sdkc_validation {
    size_t max_dev, max_depth;
    dev_list devs;
    sdkc_regex_cache *regexes; /* compiled patterns, made on first use */
    char **unchecked_pats;     /* distinct patterns counted as unchecked */
    size_t nunchecked_pats, capunchecked_pats;
    bool oom;
};

/* One walk: the result list it appends to and the current path. */
typedef struct walk {
    sdkc_validation *v;
    dev_list *out;
    sdkc_buf *path;
    size_t depth;
} walk;

/* validate_report.c: deviations, their messages and paths. */
void conform_dev_list_clear(dev_list *l);
void conform_report(walk *w, const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void conform_merge_devs(walk *w, dev_list *dst, dev_list *src); /* move src's to dst's end */
void conform_describe(sdkc_buf *b, const json_t *value);
const char *conform_kind_of(const json_t *value);
void conform_report_type(walk *w, const char *expected, const json_t *value);
void conform_note_unchecked_pattern(walk *w, const char *pat);
void conform_path_key(sdkc_buf *p, const char *key);
void conform_path_truncate(sdkc_buf *p, size_t len);

/* validate.c: the walk's dispatch on the type's kind. */
void conform_check_value(walk *w, const sdkc_type *t, const json_t *value);
const char *conform_type_kind(sdkc_type_kind k);

/* validate_scalar.c */
void conform_check_pattern(walk *w, const char *pat, const char *s, size_t len, const char *what);
void conform_check_string(walk *w, const sdkc_type *t, const json_t *value);
void conform_check_number(walk *w, const sdkc_type *t, const json_t *value);
void conform_check_literal(walk *w, const sdkc_type *t, const json_t *value);
void conform_check_enum(walk *w, const sdkc_type *t, const json_t *value);
void conform_check_json_string(walk *w, const sdkc_type *t, const json_t *value);

/* validate_object.c */
void conform_check_array(walk *w, const sdkc_type *t, const json_t *value);
void conform_check_tuple(walk *w, const sdkc_type *t, const json_t *value);
void conform_check_map(walk *w, const sdkc_type *t, const json_t *value);
void conform_check_object(walk *w, const sdkc_type *t, const json_t *value);

/* validate_union.c */
void conform_check_union(walk *w, const sdkc_type *t, const json_t *value);

#endif
