/* validate.c - JSON value against an IR type (wire projection), every deviation reported. */
#include "sdkc/validate.h"
#include "sdkc/regex.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static void dev_list_clear(dev_list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free((char *)l->items[i].path);
        free((char *)l->items[i].message);
    }
    free(l->items);
    memset(l, 0, sizeof *l);
}

sdkc_status sdkc_validation_new(sdkc_validation **out, const sdkc_validate_options *opts)
{
    *out = NULL;
    sdkc_validation *v = calloc(1, sizeof *v);
    if (!v)
        return SDKC_ERR_NOMEM;
    v->max_dev = opts && opts->max_deviations ? opts->max_deviations : 100;
    v->max_depth = opts && opts->max_depth ? opts->max_depth : 256;
    *out = v;
    return SDKC_OK;
}

void sdkc_validation_reset(sdkc_validation *v)
{
    if (!v)
        return;
    dev_list_clear(&v->devs);
    for (size_t i = 0; i < v->nunchecked_pats; i++)
        free(v->unchecked_pats[i]);
    v->nunchecked_pats = 0;
    v->oom = false;
}

void sdkc_validation_free(sdkc_validation *v)
{
    if (!v)
        return;
    sdkc_validation_reset(v);
    free(v->unchecked_pats);
    sdkc_regex_cache_free(v->regexes);
    free(v);
}

size_t sdkc_validation_count(const sdkc_validation *v)
{
    return v ? v->devs.n : 0;
}

size_t sdkc_validation_total(const sdkc_validation *v)
{
    return v ? v->devs.total : 0;
}

const sdkc_deviation *sdkc_validation_get(const sdkc_validation *v, size_t i)
{
    return v && i < v->devs.n ? &v->devs.items[i] : NULL;
}

size_t sdkc_validation_unchecked(const sdkc_validation *v)
{
    return v ? v->devs.unchecked : 0;
}

size_t sdkc_validation_unchecked_pattern_count(const sdkc_validation *v)
{
    return v ? v->nunchecked_pats : 0;
}

const char *sdkc_validation_unchecked_pattern(const sdkc_validation *v, size_t i)
{
    return v && i < v->nunchecked_pats ? v->unchecked_pats[i] : NULL;
}

/* ---- deviations ---- */

static char *dup_str(const char *s)
{
    size_t n = strlen(s);
    char *p = malloc(n + 1);
    if (p)
        memcpy(p, s, n + 1);
    return p;
}

static bool push_dev(dev_list *l, size_t max, char *path, const char *rule, char *msg)
{
    l->total++;
    if (l->n >= max) {
        free(path);
        free(msg);
        return true;
    }
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        sdkc_deviation *items = realloc(l->items, cap * sizeof *items);
        if (!items) {
            free(path);
            free(msg);
            return false;
        }
        l->items = items;
        l->cap = cap;
    }
    l->items[l->n].path = path;
    l->items[l->n].rule = rule;
    l->items[l->n].message = msg;
    l->n++;
    return true;
}

static void report(walk *w, const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void report(walk *w, const char *rule, const char *fmt, ...)
{
    sdkc_buf msg = SDKC_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    sdkc_buf_vprintf(&msg, fmt, ap);
    va_end(ap);
    char *m = sdkc_buf_steal(&msg, NULL);
    char *p = dup_str(w->path->data ? w->path->data : "$");
    sdkc_buf_cleanup(&msg);
    if (!m || !p) {
        free(m);
        free(p);
        w->v->oom = true;
        return;
    }
    if (!push_dev(w->out, w->v->max_dev, p, rule, m))
        w->v->oom = true;
}

/* Move src's deviations to the end of dst. */
static void merge(walk *w, dev_list *dst, dev_list *src)
{
    for (size_t i = 0; i < src->n; i++) {
        if (!push_dev(dst, w->v->max_dev, (char *)src->items[i].path, src->items[i].rule,
                      (char *)src->items[i].message))
            w->v->oom = true;
        src->items[i].path = NULL;
        src->items[i].message = NULL;
    }
    /* Dropped ones still count. */
    dst->total += src->total - src->n;
    dst->unchecked += src->unchecked;
    src->n = 0;
    dev_list_clear(src);
}

/* A short, printable rendering of a value for messages. */
static void describe(sdkc_buf *b, const json_t *value)
{
    switch (json_typeof(value)) {
    case JSON_OBJECT:
        sdkc_buf_puts(b, "an object");
        return;
    case JSON_ARRAY:
        sdkc_buf_puts(b, "an array");
        return;
    case JSON_STRING: {
        const char *s = json_string_value(value);
        size_t n = json_string_length(value);
        sdkc_buf_puts(b, "\"");
        for (size_t i = 0; i < n && i < 40; i++) {
            unsigned char c = (unsigned char)s[i];
            if (c == '"' || c == '\\')
                sdkc_buf_printf(b, "\\%c", c);
            else if (c < 0x20)
                sdkc_buf_printf(b, "\\u%04x", c);
            else
                sdkc_buf_putc(b, (char)c);
        }
        sdkc_buf_puts(b, n > 40 ? "...\"" : "\"");
        return;
    }
    case JSON_INTEGER:
        sdkc_buf_printf(b, "%lld", (long long)json_integer_value(value));
        return;
    case JSON_REAL:
        sdkc_buf_printf(b, "%.17g", json_real_value(value));
        return;
    case JSON_TRUE:
        sdkc_buf_puts(b, "true");
        return;
    case JSON_FALSE:
        sdkc_buf_puts(b, "false");
        return;
    case JSON_NULL:
        sdkc_buf_puts(b, "null");
        return;
    }
}

static const char *kind_of(const json_t *value)
{
    switch (json_typeof(value)) {
    case JSON_OBJECT:
        return "object";
    case JSON_ARRAY:
        return "array";
    case JSON_STRING:
        return "string";
    case JSON_INTEGER:
    case JSON_REAL:
        return "number";
    case JSON_TRUE:
    case JSON_FALSE:
        return "boolean";
    case JSON_NULL:
        return "null";
    }
    return "?";
}

static void report_type(walk *w, const char *expected, const json_t *value)
{
    sdkc_buf d = SDKC_BUF_INIT;
    describe(&d, value);
    report(w, "type", "expected %s, got %s %s", expected, kind_of(value), d.data ? d.data : "");
    sdkc_buf_cleanup(&d);
}

/* ---- paths ---- */

static bool is_ident(const char *s)
{
    if (!*s || isdigit((unsigned char)*s))
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_' && *s != '$')
            return false;
    return true;
}

static void path_key(sdkc_buf *p, const char *key)
{
    if (is_ident(key)) {
        sdkc_buf_printf(p, ".%s", key);
        return;
    }
    sdkc_buf_puts(p, "[\"");
    for (const char *s = key; *s; s++) {
        if (*s == '"' || *s == '\\')
            sdkc_buf_putc(p, '\\');
        sdkc_buf_putc(p, *s);
    }
    sdkc_buf_puts(p, "\"]");
}

static void path_truncate(sdkc_buf *p, size_t len)
{
    p->len = len;
    if (p->data)
        p->data[len] = '\0';
}

/* ---- patterns ---- */

static void note_unchecked(walk *w, const char *pat)
{
    sdkc_validation *v = w->v;
    w->out->unchecked++;
    for (size_t i = 0; i < v->nunchecked_pats; i++)
        if (strcmp(v->unchecked_pats[i], pat) == 0)
            return;
    if (v->nunchecked_pats == v->capunchecked_pats) {
        size_t cap = v->capunchecked_pats ? v->capunchecked_pats * 2 : 4;
        char **p = realloc(v->unchecked_pats, cap * sizeof *p);
        if (!p) {
            v->oom = true;
            return;
        }
        v->unchecked_pats = p;
        v->capunchecked_pats = cap;
    }
    char *d = dup_str(pat);
    if (!d) {
        v->oom = true;
        return;
    }
    v->unchecked_pats[v->nunchecked_pats++] = d;
}

/* Check s against pat; report under rule "pattern". what names the thing ("key" or NULL). A
 * pattern PCRE2 cannot run, or a match that hits its limits, counts as unchecked. */
static void check_pattern(walk *w, const char *pat, const char *s, size_t len, const char *what)
{
    if (!w->v->regexes && sdkc_regex_cache_new(&w->v->regexes) != SDKC_OK) {
        w->v->oom = true;
        return;
    }
    const sdkc_regex *re;
    sdkc_status st = sdkc_regex_cache_get(w->v->regexes, &re, pat, NULL);
    if (st == SDKC_ERR_NOMEM) {
        w->v->oom = true;
        return;
    }
    sdkc_regex_result m = st == SDKC_OK ? sdkc_regex_match(re, s, len, NULL) : SDKC_REGEX_LIMIT;
    if (m == SDKC_REGEX_LIMIT) {
        note_unchecked(w, pat);
        return;
    }
    if (m == SDKC_REGEX_NOMATCH) {
        json_t *tmp = json_stringn(s, len);
        sdkc_buf d = SDKC_BUF_INIT;
        if (tmp)
            describe(&d, tmp);
        json_decref(tmp);
        report(w, "pattern", "%s%s does not match %s", what ? what : "", d.data ? d.data : "", pat);
        sdkc_buf_cleanup(&d);
    }
}

/* ---- the walk ---- */

static void check(walk *w, const sdkc_type *t, const json_t *value);

static size_t utf8_length(const char *s, size_t n)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80)
            count++;
    return count;
}

static void check_string(walk *w, const sdkc_type *t, const json_t *value)
{
    if (!json_is_string(value)) {
        report_type(w, "string", value);
        return;
    }
    const char *s = json_string_value(value);
    size_t n = json_string_length(value);
    if (t->u.str.brand && t->u.str.brand->pattern)
        check_pattern(w, t->u.str.brand->pattern, s, n, NULL);
    else if (t->u.str.pattern)
        check_pattern(w, t->u.str.pattern, s, n, NULL);
    if (t->u.str.has_min_length || t->u.str.has_max_length) {
        size_t len = utf8_length(s, n);
        if (t->u.str.has_min_length && len < t->u.str.min_length)
            report(w, "bounds", "string of length %zu is shorter than minLength %llu", len,
                   (unsigned long long)t->u.str.min_length);
        if (t->u.str.has_max_length && len > t->u.str.max_length)
            report(w, "bounds", "string of length %zu is longer than maxLength %llu", len,
                   (unsigned long long)t->u.str.max_length);
    }
}

static void check_number(walk *w, const sdkc_type *t, const json_t *value)
{
    bool integer = t->kind == SDKC_TYPE_INTEGER;
    if (!json_is_number(value)) {
        report_type(w, integer ? "integer" : "number", value);
        return;
    }
    double d = json_number_value(value);
    if (integer && json_is_real(value) && (d != floor(d) || !isfinite(d))) {
        report_type(w, "integer", value);
        return;
    }
    if (t->u.num.has_minimum) {
        double m = t->u.num.minimum;
        bool bad = t->u.num.exclusive_minimum ? !(d > m) : !(d >= m);
        if (json_is_integer(value) && fabs(m) < 9e15) {
            long long iv = (long long)json_integer_value(value);
            bad = t->u.num.exclusive_minimum ? !((double)iv > m) : !((double)iv >= m);
        }
        if (bad)
            report(w, "bounds", "%.17g is below the %sminimum %.17g", d,
                   t->u.num.exclusive_minimum ? "exclusive " : "", m);
    }
    if (t->u.num.has_maximum) {
        double m = t->u.num.maximum;
        bool bad = t->u.num.exclusive_maximum ? !(d < m) : !(d <= m);
        if (bad)
            report(w, "bounds", "%.17g is above the %smaximum %.17g", d,
                   t->u.num.exclusive_maximum ? "exclusive " : "", m);
    }
}

static bool literal_matches(const sdkc_literal *lit, const json_t *value)
{
    switch (lit->kind) {
    case SDKC_LIT_STRING:
        return json_is_string(value) && lit->text &&
               strcmp(json_string_value(value), lit->text) == 0 &&
               strlen(lit->text) == json_string_length(value);
    case SDKC_LIT_NUMBER: {
        if (!json_is_number(value) || !lit->text)
            return false;
        char *end = NULL;
        double d = strtod(lit->text, &end);
        if (json_is_integer(value)) {
            long long ll = strtoll(lit->text, &end, 10);
            if (end && *end == '\0')
                return ll == (long long)json_integer_value(value);
        }
        return d == json_number_value(value);
    }
    case SDKC_LIT_BOOL:
        return json_is_boolean(value) && lit->text &&
               (strcmp(lit->text, "true") == 0) == json_is_true(value);
    case SDKC_LIT_NULL:
        return json_is_null(value);
    }
    return false;
}

static void check_literal(walk *w, const sdkc_type *t, const json_t *value)
{
    if (literal_matches(&t->u.literal, value))
        return;
    sdkc_buf d = SDKC_BUF_INIT;
    describe(&d, value);
    const char *q = t->u.literal.kind == SDKC_LIT_STRING ? "\"" : "";
    report(w, "literal", "expected %s%s%s, got %s", q,
           t->u.literal.text ? t->u.literal.text : "null", q, d.data ? d.data : "");
    sdkc_buf_cleanup(&d);
}

static void check_enum(walk *w, const sdkc_type *t, const json_t *value)
{
    if (!json_is_string(value)) {
        report_type(w, "string (enum)", value);
        return;
    }
    const char *s = json_string_value(value);
    for (size_t i = 0; i < t->u.enumeration.nvalues; i++)
        if (strcmp(t->u.enumeration.values[i], s) == 0)
            return;
    sdkc_buf d = SDKC_BUF_INIT;
    describe(&d, value);
    sdkc_buf allowed = SDKC_BUF_INIT;
    for (size_t i = 0; i < t->u.enumeration.nvalues && i < 8; i++)
        sdkc_buf_printf(&allowed, "%s\"%s\"", i ? ", " : "", t->u.enumeration.values[i]);
    if (t->u.enumeration.nvalues > 8)
        sdkc_buf_puts(&allowed, ", ...");
    report(w, "enum", "%s is not one of %s", d.data ? d.data : "",
           allowed.data ? allowed.data : "(none)");
    sdkc_buf_cleanup(&d);
    sdkc_buf_cleanup(&allowed);
}

#define UNIQUE_MAX_ITEMS 2000 /* uniqueItems is checked among the first this many items */

/* JSON Schema's equality: numbers by value (1 equals 1.0), objects whatever their key order. */
static bool json_same(const json_t *a, const json_t *b)
{
    if (json_is_number(a) && json_is_number(b))
        return json_number_value(a) == json_number_value(b) &&
               (!json_is_integer(a) || !json_is_integer(b) ||
                json_integer_value(a) == json_integer_value(b));
    if (json_typeof(a) != json_typeof(b))
        return false;
    if (json_is_array(a)) {
        if (json_array_size(a) != json_array_size(b))
            return false;
        for (size_t i = 0; i < json_array_size(a); i++)
            if (!json_same(json_array_get(a, i), json_array_get(b, i)))
                return false;
        return true;
    }
    if (json_is_object(a)) {
        if (json_object_size(a) != json_object_size(b))
            return false;
        const char *k;
        const json_t *v;
        json_object_foreach((json_t *)a, k, v)
        {
            const json_t *o = json_object_get(b, k);
            if (!o || !json_same(v, o))
                return false;
        }
        return true;
    }
    return json_equal((json_t *)a, (json_t *)b);
}

static void check_unique(walk *w, const json_t *value)
{
    size_t n = json_array_size(value);
    if (n > UNIQUE_MAX_ITEMS)
        n = UNIQUE_MAX_ITEMS;
    for (size_t i = 1; i < n; i++)
        for (size_t j = 0; j < i; j++)
            if (json_same(json_array_get(value, i), json_array_get(value, j))) {
                report(w, "unique", "items %zu and %zu are equal (uniqueItems)", j, i);
                return;
            }
}

static void check_array(walk *w, const sdkc_type *t, const json_t *value)
{
    if (!json_is_array(value)) {
        report_type(w, "array", value);
        return;
    }
    size_t n = json_array_size(value);
    if (t->u.array.has_min_items && n < t->u.array.min_items)
        report(w, "bounds", "%zu items, fewer than minItems %llu", n,
               (unsigned long long)t->u.array.min_items);
    if (t->u.array.has_max_items && n > t->u.array.max_items)
        report(w, "bounds", "%zu items, more than maxItems %llu", n,
               (unsigned long long)t->u.array.max_items);
    if (t->u.array.unique_items)
        check_unique(w, value);
    size_t base = w->path->len;
    for (size_t i = 0; i < n; i++) {
        sdkc_buf_printf(w->path, "[%zu]", i);
        check(w, t->u.array.items, json_array_get(value, i));
        path_truncate(w->path, base);
    }
}

static void check_tuple(walk *w, const sdkc_type *t, const json_t *value)
{
    if (!json_is_array(value)) {
        report_type(w, "array (tuple)", value);
        return;
    }
    size_t n = json_array_size(value);
    if (n < t->u.tuple.nitems)
        report(w, "bounds", "tuple of %zu items, %zu required", n, t->u.tuple.nitems);
    else if (n > t->u.tuple.nitems && !t->u.tuple.rest)
        report(w, "bounds", "tuple of %zu items, at most %zu allowed", n, t->u.tuple.nitems);
    size_t base = w->path->len;
    for (size_t i = 0; i < n; i++) {
        const sdkc_type *it = i < t->u.tuple.nitems ? t->u.tuple.items[i] : t->u.tuple.rest;
        if (!it)
            break;
        sdkc_buf_printf(w->path, "[%zu]", i);
        check(w, it, json_array_get(value, i));
        path_truncate(w->path, base);
    }
}

static void check_map(walk *w, const sdkc_type *t, const json_t *value)
{
    if (!json_is_object(value)) {
        report_type(w, "object (map)", value);
        return;
    }
    size_t base = w->path->len;
    const char *key;
    json_t *member;
    json_object_foreach((json_t *)value, key, member)
    {
        path_key(w->path, key);
        if (t->u.map.key_pattern)
            check_pattern(w, t->u.map.key_pattern, key, strlen(key), "key ");
        if (t->u.map.value)
            check(w, t->u.map.value, member);
        path_truncate(w->path, base);
    }
}

static bool is_field(const sdkc_type *t, const char *name)
{
    for (size_t i = 0; i < t->u.object.nfields; i++)
        if (strcmp(t->u.object.fields[i].wire_name, name) == 0)
            return true;
    return false;
}

/* `required` names that no property declares (the contract's, kept by the IR beside the
 * fields): a value must still have them. */
static void check_required_only(walk *w, const sdkc_type *t, const json_t *value)
{
    for (size_t i = 0; i < t->u.object.nrequired_only; i++) {
        const char *name = t->u.object.required_only[i];
        if (is_field(t, name) || json_object_get(value, name))
            continue;
        size_t base = w->path->len;
        path_key(w->path, name);
        report(w, "required", "required field \"%s\" is missing", name);
        path_truncate(w->path, base);
    }
}

/* A kind the compiler inferred from keywords (`items`, `properties`, `pattern`, ...) of a
 * schema without `type`: JSON Schema applies those keywords only to values of that kind, so a
 * value of another kind is valid. */
static bool inferred_elsewhere(const sdkc_type *t, const json_t *value)
{
    if (!t->inferred)
        return false;
    switch (t->kind) {
    case SDKC_TYPE_ARRAY:
    case SDKC_TYPE_TUPLE:
        return !json_is_array(value);
    case SDKC_TYPE_OBJECT:
    case SDKC_TYPE_MAP:
        return !json_is_object(value);
    case SDKC_TYPE_STRING:
        return !json_is_string(value);
    default:
        return false;
    }
}

static void check_object(walk *w, const sdkc_type *t, const json_t *value)
{
    if (!json_is_object(value)) {
        report_type(w, t->name ? t->name : "object", value);
        return;
    }
    size_t base = w->path->len;
    for (size_t i = 0; i < t->u.object.nfields; i++) {
        const sdkc_field *f = &t->u.object.fields[i];
        json_t *member = json_object_get(value, f->wire_name);
        path_key(w->path, f->wire_name);
        if (!member) {
            if (f->required)
                report(w, "required", "required field \"%s\" is missing", f->wire_name);
        } else {
            check(w, f->type, member);
        }
        path_truncate(w->path, base);
    }
    check_required_only(w, t, value);
    /* Properties the object does not declare, in the value's order (jansson keeps it). */
    const char *key;
    json_t *member;
    json_object_foreach((json_t *)value, key, member)
    {
        bool declared = false;
        for (size_t i = 0; i < t->u.object.nfields && !declared; i++)
            declared = strcmp(t->u.object.fields[i].wire_name, key) == 0;
        if (declared)
            continue;
        path_key(w->path, key);
        if (!t->u.object.additional)
            report(w, "closed-object", "property \"%s\" is not declared by %s", key,
                   t->name ? t->name : "the closed object");
        else
            check(w, t->u.object.additional, member);
        path_truncate(w->path, base);
    }
}

/* Validate against one variant into a list of its own. */
static void trial(walk *w, const sdkc_type *t, const json_t *value, dev_list *out)
{
    walk sub = *w;
    sub.out = out;
    check(&sub, t, value);
}

/* Local spelling of kind names (the IR's own table lives in the compiler). */
static const char *type_kind(sdkc_type_kind k)
{
    static const char *const names[] = {
        "string", "integer", "number", "boolean", "null",     "literal",     "enum", "array",
        "tuple",  "map",     "object", "union",   "nullable", "json-string", "any",  "never"};
    return (size_t)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

static const char *variant_label(const sdkc_variant *var, size_t i, sdkc_buf *tmp)
{
    if (var->tag)
        return var->tag;
    if (var->type && var->type->name)
        return var->type->name;
    sdkc_buf_reset(tmp);
    if (var->type && var->type->kind == SDKC_TYPE_LITERAL) {
        const sdkc_literal *l = &var->type->u.literal;
        const char *q = l->kind == SDKC_LIT_STRING ? "\"" : "";
        sdkc_buf_printf(tmp, "%s%s%s", q, l->text ? l->text : "null", q);
        return tmp->data ? tmp->data : "?";
    }
    sdkc_buf_printf(tmp, "#%zu (%s)", i, var->type ? type_kind(var->type->kind) : "?");
    return tmp->data ? tmp->data : "?";
}

static void check_union(walk *w, const sdkc_type *t, const json_t *value)
{
    size_t nv = t->u.union_.nvariants;
    const char *disc = t->u.union_.discriminator;
    if (nv == 0) {
        report(w, "union", "the union has no variants");
        return;
    }
    if (disc && json_is_object(value)) {
        json_t *tagv = json_object_get(value, disc);
        if (json_is_string(tagv)) {
            const char *tag = json_string_value(tagv);
            for (size_t i = 0; i < nv; i++)
                if (t->u.union_.variants[i].tag && strcmp(t->u.union_.variants[i].tag, tag) == 0) {
                    check(w, t->u.union_.variants[i].type, value);
                    return;
                }
        }
        /* No variant named by the discriminator: fall through to the closest variant, but say
           why first. */
        sdkc_buf d = SDKC_BUF_INIT;
        if (tagv)
            describe(&d, tagv);
        size_t base = w->path->len;
        path_key(w->path, disc);
        report(w, "union",
               tagv ? "discriminator \"%s\" value %s names no variant"
                    : "discriminator \"%s\" is missing%s",
               disc, d.data ? d.data : "");
        path_truncate(w->path, base);
        sdkc_buf_cleanup(&d);
    }
    /* Closest variant: fewest deviations, but a variant of the wrong JSON kind altogether (its
       one deviation is a type error at the union's own path) ranks after all others. */
    dev_list best = {0};
    size_t best_i = 0;
    bool have_best = false, best_mismatch = true;
    for (size_t i = 0; i < nv; i++) {
        dev_list l = {0};
        trial(w, t->u.union_.variants[i].type, value, &l);
        if (l.total == 0) {
            w->out->unchecked += l.unchecked;
            dev_list_clear(&l);
            dev_list_clear(&best);
            return;
        }
        /* A variant whose every deviation is at the union's own path (wrong kind, another
           literal or enum value) is no closer than the others: one union line says it all. */
        bool mismatch = l.n == l.total;
        for (size_t k = 0; k < l.n && mismatch; k++)
            mismatch = strcmp(l.items[k].path, w->path->data ? w->path->data : "$") == 0;
        if (!have_best || (best_mismatch && !mismatch) ||
            (mismatch == best_mismatch && l.total < best.total)) {
            dev_list_clear(&best);
            best = l;
            best_i = i;
            best_mismatch = mismatch;
            have_best = true;
        } else {
            dev_list_clear(&l);
        }
    }
    if (best_mismatch) {
        /* Nothing of the right kind: one deviation says so. */
        dev_list_clear(&best);
        sdkc_buf d = SDKC_BUF_INIT, kinds = SDKC_BUF_INIT, tmp = SDKC_BUF_INIT;
        describe(&d, value);
        for (size_t i = 0; i < nv && i < 8; i++)
            sdkc_buf_printf(&kinds, "%s%s", i ? " | " : "",
                            variant_label(&t->u.union_.variants[i], i, &tmp));
        if (nv > 8)
            sdkc_buf_puts(&kinds, " | ...");
        report(w, "union", "no variant of %s matches %s %s (expected %s)",
               t->name ? t->name : "the union", kind_of(value), d.data ? d.data : "",
               kinds.data ? kinds.data : "");
        sdkc_buf_cleanup(&d);
        sdkc_buf_cleanup(&kinds);
        sdkc_buf_cleanup(&tmp);
        return;
    }
    if (!disc || !json_is_object(value)) {
        sdkc_buf tmp = SDKC_BUF_INIT;
        report(w, "union", "no variant of %s matches; closest is %s with %zu deviation%s",
               t->name ? t->name : "the union",
               variant_label(&t->u.union_.variants[best_i], best_i, &tmp), best.total,
               best.total == 1 ? "" : "s");
        sdkc_buf_cleanup(&tmp);
    }
    merge(w, w->out, &best);
}

static void check_json_string(walk *w, const sdkc_type *t, const json_t *value)
{
    if (!json_is_string(value)) {
        report_type(w, "string (JSON-encoded)", value);
        return;
    }
    const char *mt = t->u.json_string.media_type;
    if (mt && strcmp(mt, "application/json") != 0 && !strstr(mt, "+json"))
        return; /* not JSON: nothing more to decode */
    json_error_t jerr;
    json_t *inner = json_loadb(json_string_value(value), json_string_length(value),
                               JSON_DECODE_ANY | JSON_ALLOW_NUL, &jerr);
    if (!inner) {
        report(w, "json-string", "content is not JSON: %s at line %d column %d", jerr.text,
               jerr.line, jerr.column);
        return;
    }
    if (t->u.json_string.content)
        check(w, t->u.json_string.content, inner);
    json_decref(inner);
}

static void check(walk *w, const sdkc_type *t, const json_t *value)
{
    if (!t || !value)
        return;
    if (w->depth >= w->v->max_depth) {
        report(w, "depth", "nesting deeper than %zu levels; not checked further", w->v->max_depth);
        return;
    }
    if (inferred_elsewhere(t, value))
        return;
    w->depth++;
    switch (t->kind) {
    case SDKC_TYPE_STRING:
        check_string(w, t, value);
        break;
    case SDKC_TYPE_INTEGER:
    case SDKC_TYPE_NUMBER:
        check_number(w, t, value);
        break;
    case SDKC_TYPE_BOOLEAN:
        if (!json_is_boolean(value))
            report_type(w, "boolean", value);
        break;
    case SDKC_TYPE_NULL:
        if (!json_is_null(value))
            report_type(w, "null", value);
        break;
    case SDKC_TYPE_LITERAL:
        check_literal(w, t, value);
        break;
    case SDKC_TYPE_ENUM:
        check_enum(w, t, value);
        break;
    case SDKC_TYPE_ARRAY:
        check_array(w, t, value);
        break;
    case SDKC_TYPE_TUPLE:
        check_tuple(w, t, value);
        break;
    case SDKC_TYPE_MAP:
        check_map(w, t, value);
        break;
    case SDKC_TYPE_OBJECT:
        check_object(w, t, value);
        break;
    case SDKC_TYPE_UNION:
        check_union(w, t, value);
        break;
    case SDKC_TYPE_NULLABLE:
        if (!json_is_null(value))
            check(w, t->u.nullable.inner, value);
        else if (t->u.nullable.lenient)
            report(w, "type",
                   "null where the contract declares %s (the IR accepts null here only "
                   "as a leniency for SDKs)",
                   t->u.nullable.inner ? type_kind(t->u.nullable.inner->kind) : "a value");
        break;
    case SDKC_TYPE_JSON_STRING:
        check_json_string(w, t, value);
        break;
    case SDKC_TYPE_ANY:
        break;
    case SDKC_TYPE_NEVER:
        report_type(w, "nothing (never)", value);
        break;
    }
    w->depth--;
}

sdkc_status sdkc_validate(sdkc_validation *v, const sdkc_type *type, const json_t *value,
                          const char *root)
{
    if (!v || !type || !value)
        return SDKC_ERR_INVALID;
    sdkc_buf path = SDKC_BUF_INIT;
    sdkc_buf_puts(&path, root ? root : "$");
    if (sdkc_buf_finish(&path) != SDKC_OK) {
        sdkc_buf_cleanup(&path);
        return SDKC_ERR_NOMEM;
    }
    walk w = {v, &v->devs, &path, 0};
    v->oom = false;
    check(&w, type, value);
    bool oom = v->oom || path.oom;
    sdkc_buf_cleanup(&path);
    return oom ? SDKC_ERR_NOMEM : SDKC_OK;
}
