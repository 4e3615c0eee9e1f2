/* validate_scalar.c - the validator's scalar kinds: patterns, strings, numbers and their bounds,
 * literals, enums and JSON-encoded strings. */
#include "validate_internal.h"

#include <math.h>

/* ---- patterns ---- */

/* Check s against pat; report under rule "pattern". what names the thing ("key" or NULL). A
 * pattern PCRE2 cannot run, or a match that hits its limits, counts as unchecked. */
void conform_check_pattern(walk *w, const char *pat, const char *s, size_t len, const char *what)
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
        conform_note_unchecked_pattern(w, pat);
        return;
    }
    if (m == SDKC_REGEX_NOMATCH) {
        json_t *tmp = json_stringn(s, len);
        sdkc_buf d = SDKC_BUF_INIT;
        if (tmp)
            conform_describe(&d, tmp);
        json_decref(tmp);
        conform_report(w, "pattern", "%s%s does not match %s", what ? what : "",
                       d.data ? d.data : "", pat);
        sdkc_buf_cleanup(&d);
    }
}

/* ---- strings, numbers, literals, enums ---- */

static size_t utf8_length(const char *s, size_t n)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80)
            count++;
    return count;
}

void conform_check_string(walk *w, const sdkc_type *t, const json_t *value)
{
    if (!json_is_string(value)) {
        conform_report_type(w, "string", value);
        return;
    }
    const char *s = json_string_value(value);
    size_t n = json_string_length(value);
    if (t->u.str.brand && t->u.str.brand->pattern)
        conform_check_pattern(w, t->u.str.brand->pattern, s, n, NULL);
    else if (t->u.str.pattern)
        conform_check_pattern(w, t->u.str.pattern, s, n, NULL);
    if (t->u.str.has_min_length || t->u.str.has_max_length) {
        size_t len = utf8_length(s, n);
        if (t->u.str.has_min_length && len < t->u.str.min_length)
            conform_report(w, "bounds", "string of length %zu is shorter than minLength %llu", len,
                           (unsigned long long)t->u.str.min_length);
        if (t->u.str.has_max_length && len > t->u.str.max_length)
            conform_report(w, "bounds", "string of length %zu is longer than maxLength %llu", len,
                           (unsigned long long)t->u.str.max_length);
    }
}

void conform_check_number(walk *w, const sdkc_type *t, const json_t *value)
{
    bool integer = t->kind == SDKC_TYPE_INTEGER;
    if (!json_is_number(value)) {
        conform_report_type(w, integer ? "integer" : "number", value);
        return;
    }
    double d = json_number_value(value);
    if (integer && json_is_real(value) && (d != floor(d) || !isfinite(d))) {
        conform_report_type(w, "integer", value);
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
            conform_report(w, "bounds", "%.17g is below the %sminimum %.17g", d,
                           t->u.num.exclusive_minimum ? "exclusive " : "", m);
    }
    if (t->u.num.has_maximum) {
        double m = t->u.num.maximum;
        bool bad = t->u.num.exclusive_maximum ? !(d < m) : !(d <= m);
        if (bad)
            conform_report(w, "bounds", "%.17g is above the %smaximum %.17g", d,
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

void conform_check_literal(walk *w, const sdkc_type *t, const json_t *value)
{
    if (literal_matches(&t->u.literal, value))
        return;
    sdkc_buf d = SDKC_BUF_INIT;
    conform_describe(&d, value);
    const char *q = t->u.literal.kind == SDKC_LIT_STRING ? "\"" : "";
    conform_report(w, "literal", "expected %s%s%s, got %s", q,
                   t->u.literal.text ? t->u.literal.text : "null", q, d.data ? d.data : "");
    sdkc_buf_cleanup(&d);
}

void conform_check_enum(walk *w, const sdkc_type *t, const json_t *value)
{
    if (!json_is_string(value)) {
        conform_report_type(w, "string (enum)", value);
        return;
    }
    const char *s = json_string_value(value);
    for (size_t i = 0; i < t->u.enumeration.nvalues; i++)
        if (strcmp(t->u.enumeration.values[i], s) == 0)
            return;
    sdkc_buf d = SDKC_BUF_INIT;
    conform_describe(&d, value);
    sdkc_buf allowed = SDKC_BUF_INIT;
    for (size_t i = 0; i < t->u.enumeration.nvalues && i < 8; i++)
        sdkc_buf_printf(&allowed, "%s\"%s\"", i ? ", " : "", t->u.enumeration.values[i]);
    if (t->u.enumeration.nvalues > 8)
        sdkc_buf_puts(&allowed, ", ...");
    conform_report(w, "enum", "%s is not one of %s", d.data ? d.data : "",
                   allowed.data ? allowed.data : "(none)");
    sdkc_buf_cleanup(&d);
    sdkc_buf_cleanup(&allowed);
}

void conform_check_json_string(walk *w, const sdkc_type *t, const json_t *value)
{
    if (!json_is_string(value)) {
        conform_report_type(w, "string (JSON-encoded)", value);
        return;
    }
    const char *mt = t->u.json_string.media_type;
    if (mt && strcmp(mt, "application/json") != 0 && !strstr(mt, "+json"))
        return; /* not JSON: nothing more to decode */
    json_error_t jerr;
    json_t *inner = json_loadb(json_string_value(value), json_string_length(value),
                               JSON_DECODE_ANY | JSON_ALLOW_NUL, &jerr);
    if (!inner) {
        conform_report(w, "json-string", "content is not JSON: %s at line %d column %d", jerr.text,
                       jerr.line, jerr.column);
        return;
    }
    if (t->u.json_string.content)
        conform_check_value(w, t->u.json_string.content, inner);
    json_decref(inner);
}
