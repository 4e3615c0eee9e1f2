/* synth.c - a valid JSON value for an IR type (sdkc/synth.h). */
#include "sdkc/synth.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sdkc/pattern.h"
#include "sdkc/regex.h"

/* Synthesis state: the first reason a value could not be made. A failure without a reason is an
 * allocation failure. */
typedef struct synth {
    sdkc_arena *arena;
    const sdkc_synth_options *o;
    const char *why;
    unsigned variant; /* > 0: an item of a uniqueItems array after the first (see synth_items) */
} synth;

static json_t *synth_fail(synth *s, const char *why)
{
    if (!s->why)
        s->why = why;
    return NULL;
}

const char *sdkc_synth_format_value(const char *f)
{
    static const char *const table[][2] = {
        {"date-time", "2024-01-02T03:04:05Z"},
        {"date", "2024-01-02"},
        {"time", "03:04:05Z"},
        {"duration", "P1D"},
        {"uuid", "00000000-0000-4000-8000-000000000000"},
        {"email", "mock@example.com"},
        {"idn-email", "mock@example.com"},
        {"uri", "https://example.com/mock"},
        {"url", "https://example.com/mock"},
        {"iri", "https://example.com/mock"},
        {"uri-reference", "https://example.com/mock"},
        {"iri-reference", "https://example.com/mock"},
        {"uri-template", "https://example.com/mock"},
        {"hostname", "example.com"},
        {"idn-hostname", "example.com"},
        {"ipv4", "127.0.0.1"},
        {"ip", "127.0.0.1"},
        {"ipv6", "::1"},
        {"byte", "bW9jaw=="},
        {"int32", "1"},
        {"int64", "1"},
        {"decimal", "1"},
        {"double", "1"},
        {"float", "1"},
        {"json-pointer", "/mock"},
        {"relative-json-pointer", "0"},
        {"regex", "mock"},
    };
    for (size_t i = 0; i < sizeof table / sizeof *table; i++) {
        if (!strcmp(f, table[i][0]))
            return table[i][1];
    }
    return NULL;
}

const char *sdkc_synth_format_variant(const char *f, size_t i, const char **note)
{
    /* each valid by the format's definition (RFC 3339, 5321 (dot-atom), 4122, 3986, 1123,
       4291, 4648) and by ajv-formats' checks */
    static const char *const table[][3] = {
        {"date-time", "2024-02-29T23:59:59+05:30", "a numeric offset"},
        {"date-time", "2024-01-02T03:04:05.123456Z", "fractional seconds"},
        {"date-time", "1999-12-31T00:00:00-08:00", "a negative offset"},
        {"date", "2024-02-29", "a leap day"},
        {"date", "1999-12-31", "the end of a year"},
        {"time", "23:59:59+05:30", "a numeric offset"},
        {"time", "03:04:05.5Z", "fractional seconds"},
        {"duration", "PT1H30M", "hours and minutes"},
        {"duration", "P1Y2M3DT4H5M6S", "every unit"},
        {"uuid", "123e4567-e89b-42d3-a456-556642440000", "lower case"},
        {"uuid", "123E4567-E89B-42D3-A456-556642440000", "upper case"},
        {"email", "first.last+tag@mail.example.com", "a dot, a plus tag and a subdomain"},
        {"email", "user_1@example.org", "an underscore and a digit"},
        {"idn-email", "first.last+tag@mail.example.com", "a dot, a plus tag and a subdomain"},
        {"uri", "https://example.com:8443/a/b?q=1&r=two#frag", "a port, query and fragment"},
        {"uri", "http://127.0.0.1/", "an IP address host"},
        {"url", "https://example.com:8443/a/b?q=1&r=two#frag", "a port, query and fragment"},
        {"iri", "https://example.com:8443/a/b?q=1&r=two#frag", "a port, query and fragment"},
        {"uri-reference", "/a/b?q=1", "a relative reference"},
        {"iri-reference", "/a/b?q=1", "a relative reference"},
        {"hostname", "sub.example-host.com", "a subdomain and a hyphen"},
        {"hostname", "localhost", "a single label"},
        {"idn-hostname", "sub.example-host.com", "a subdomain and a hyphen"},
        {"ipv4", "192.168.100.254", "three-digit octets"},
        {"ipv4", "10.0.0.0", "zero octets"},
        {"ip", "192.168.100.254", "three-digit octets"},
        {"ipv6", "2001:db8::8a2e:370:7334", "a compressed form"},
        {"ipv6", "2001:0db8:85a3:0000:0000:8a2e:0370:7334", "the full form"},
        {"byte", "aGVsbG8gd29ybGQ=", "padding"},
        {"byte", "+/8A", "the characters + and /"},
        {"int32", "-2147483648", "the smallest int32"},
        {"int32", "2147483647", "the largest int32"},
        {"int64", "-9223372036854775808", "the smallest int64"},
        {"int64", "9223372036854775807", "the largest int64"},
        {"decimal", "-12.5", "a negative fraction"},
        {"double", "-12.5", "a negative fraction"},
        {"float", "-12.5", "a negative fraction"},
        {"json-pointer", "/a~1b/0", "an escaped slash and an index"},
    };
    for (size_t k = 0; f && k < sizeof table / sizeof *table; k++) {
        if (strcmp(f, table[k][0]) != 0)
            continue;
        if (i-- == 0) {
            if (note)
                *note = table[k][2];
            return table[k][1];
        }
    }
    return NULL;
}

static size_t utf8_chars(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* The first of the string type's own examples, default and enum values (sdkc_type.u.str) that
 * the pattern matches (the matcher the generator verifies with) within the length bounds: its
 * index, -1 when none does, -2 when out of memory. */
static int contract_example(const sdkc_type *t)
{
    if (!t->u.str.nexamples)
        return -1;
    sdkc_regex *re = NULL;
    sdkc_status st = sdkc_regex_new(&re, t->u.str.pattern, NULL, NULL);
    if (st != SDKC_OK)
        return st == SDKC_ERR_NOMEM ? -2 : -1;
    int found = -1;
    for (size_t k = 0; k < t->u.str.nexamples && found == -1 && k < INT32_MAX; k++) {
        const char *e = t->u.str.examples[k];
        size_t n = utf8_chars(e);
        if ((t->u.str.has_min_length && n < t->u.str.min_length) ||
            (t->u.str.has_max_length && n > t->u.str.max_length))
            continue;
        if (sdkc_regex_match(re, e, strlen(e), NULL) == SDKC_REGEX_MATCH)
            found = (int)k;
    }
    sdkc_regex_free(re);
    return found;
}

static json_t *synth_string(synth *s, const sdkc_type *t)
{
    const char *base = s->o->filler;
    const char *f = t->u.str.format;
    bool fixed = false; /* a format or brand fixes the text: lengths cannot pad it */
    if (t->u.str.brand) {
        const char *given =
            s->o->brand_value ? s->o->brand_value(s->o->user, t->u.str.brand) : NULL;
        if (given)
            return json_string(given);
        base = sdkc_arena_printf(s->arena, "%s_%s", t->u.str.brand->prefix, s->o->filler);
        if (!base)
            return NULL;
        fixed = true;
    } else if (t->u.str.pattern) {
        /* a string the pattern matches, within the length bounds (verified with PCRE2), else the
           first of the contract's own examples that does */
        const char *why = NULL;
        size_t lo = t->u.str.has_min_length ? (size_t)t->u.str.min_length : 0;
        size_t hi = t->u.str.has_max_length ? (size_t)t->u.str.max_length : SIZE_MAX;
        const char *v = sdkc_pattern_example(s->arena, t->u.str.pattern, lo, hi, &why);
        if (v && s->variant) {
            /* a uniqueItems item after the first: a match variant characters longer, if any */
            size_t n = utf8_chars(v) + s->variant;
            const char *longer = n > lo && n <= hi
                                     ? sdkc_pattern_example(s->arena, t->u.str.pattern, n, hi, NULL)
                                     : NULL;
            v = longer ? longer : v;
        }
        if (v)
            return json_string(v);
        if (!why)
            return NULL; /* out of memory */
        int k = contract_example(t);
        if (k == -2)
            return NULL;
        if (k >= 0)
            return json_string(t->u.str.examples[k]);
        return synth_fail(
            s, sdkc_arena_printf(s->arena, "string pattern '%s': %s%s (no value synthesized)",
                                 t->u.str.pattern, why,
                                 t->u.str.nexamples ? "; none of the contract's examples, default "
                                                      "or enum values matches either"
                                                    : ""));
    }
    /* binary (a file part's text when no blob is set): any bytes do */
    if (f && !t->u.str.brand && sdkc_synth_format_value(f)) {
        /* a uniqueItems item after the first: the format's other values, while there are some */
        const char *other = s->variant ? sdkc_synth_format_variant(f, s->variant - 1, NULL) : NULL;
        base = other ? other : sdkc_synth_format_value(f);
        fixed = true;
    }
    size_t n = strlen(base);
    if (t->u.str.has_max_length && n > t->u.str.max_length) {
        if (fixed)
            return synth_fail(s, "string format or prefix longer than maxLength");
        n = (size_t)t->u.str.max_length;
    }
    size_t want = n;
    if (t->u.str.has_min_length && t->u.str.min_length > n) {
        if (fixed)
            return synth_fail(s, "string format or prefix shorter than minLength");
        if (t->u.str.min_length > 4096)
            return synth_fail(s, "minLength above 4096");
        want = (size_t)t->u.str.min_length;
    }
    char *text = sdkc_arena_alloc(s->arena, want + 1);
    if (!text)
        return NULL;
    memcpy(text, base, n);
    for (size_t i = n; i < want; i++)
        text[i] = 'x';
    text[want] = '\0';
    return json_string(text);
}

/* 1 moved into [minimum, maximum] (integral for integers), or NULL when the range is empty. */
static json_t *synth_number(synth *s, const sdkc_type *t, bool integer)
{
    double v = 1;
    double lo = t->u.num.minimum, hi = t->u.num.maximum;
    bool xlo = t->u.num.exclusive_minimum, xhi = t->u.num.exclusive_maximum;
    if (t->u.num.has_minimum && (v < lo || (xlo && v <= lo))) {
        v = integer ? ceil(lo) : lo;
        if (xlo && v <= lo)
            v = integer ? v + 1 : (t->u.num.has_maximum ? (lo + hi) / 2 : lo + 1);
    }
    if (t->u.num.has_maximum && (v > hi || (xhi && v >= hi))) {
        v = integer ? floor(hi) : hi;
        if (xhi && v >= hi)
            v = integer ? v - 1 : (t->u.num.has_minimum ? (lo + hi) / 2 : hi - 1);
    }
    if ((t->u.num.has_minimum && (v < lo || (xlo && v <= lo))) ||
        (t->u.num.has_maximum && (v > hi || (xhi && v >= hi))))
        return synth_fail(s, "empty numeric range");
    if (s->variant) {
        /* a uniqueItems item after the first: another number in the range, else the same */
        double up = v + s->variant, down = v - s->variant;
        if (!(t->u.num.has_maximum && (up > hi || (xhi && up >= hi))))
            v = up;
        else if (!(t->u.num.has_minimum && (down < lo || (xlo && down <= lo))))
            v = down;
    }
    if (integer) {
        if (v > 9e15 || v < -9e15)
            return synth_fail(s, "integer bound out of range");
        return json_integer((json_int_t)v);
    }
    return json_real(v);
}

static json_t *synth_value(synth *s, const sdkc_type *t, int depth);

/* n items of t; under uniqueItems, item i > 0 is made with variant i (another number, enum
 * member and boolean) and filler "<filler><i>" (another plain string, brand suffix and map key),
 * and items that still come out equal fail. */
static json_t *synth_items(synth *s, const sdkc_type *t, uint64_t n, int depth)
{
    json_t *a = json_array();
    bool unique = t->u.array.unique_items;
    const sdkc_synth_options *o = s->o;
    unsigned prev = s->variant;
    for (uint64_t i = 0; a && i < n; i++) {
        sdkc_synth_options oi = *o;
        if (unique && i) {
            oi.filler = sdkc_arena_printf(s->arena, "%s%u", o->filler, (unsigned)i);
            if (!oi.filler) {
                json_decref(a);
                return NULL;
            }
            s->o = &oi;
            s->variant = prev + (unsigned)i;
        }
        json_t *v = synth_value(s, t->u.array.items, depth + 1);
        s->o = o;
        s->variant = prev;
        for (size_t k = 0; v && unique && k < json_array_size(a); k++)
            if (json_equal(v, json_array_get(a, k))) {
                json_decref(v);
                v = synth_fail(s, "uniqueItems: no distinct items of the item type were made for "
                                  "minItems");
            }
        if (!v || json_array_append_new(a, v) != 0) {
            json_decref(a);
            return NULL;
        }
    }
    return a;
}

static json_t *synth_object(synth *s, const sdkc_type *t, int depth)
{
    json_t *o = json_object();
    for (size_t i = 0; o && i < t->u.object.nfields; i++) {
        const sdkc_field *f = &t->u.object.fields[i];
        /* read-only ones too: the value decodes, an SDK leaves them out */
        if (!f->required && !(s->o->want_optional && s->o->want_optional(s->o->user, t, f)))
            continue;
        json_t *v = synth_value(s, f->type, depth + 1);
        if (!v || json_object_set_new(o, f->wire_name, v) != 0) {
            json_decref(o);
            return NULL;
        }
    }
    return o;
}

static json_t *synth_value(synth *s, const sdkc_type *t, int depth)
{
    if (depth > s->o->max_depth)
        return synth_fail(s, "required fields nest too deep (a recursive type)");
    switch (t->kind) {
    case SDKC_TYPE_STRING:
        return synth_string(s, t);
    case SDKC_TYPE_INTEGER:
        return synth_number(s, t, true);
    case SDKC_TYPE_NUMBER:
        return synth_number(s, t, false);
    case SDKC_TYPE_BOOLEAN:
        return json_boolean(s->variant % 2 == 0);
    case SDKC_TYPE_NULL:
        return json_null();
    case SDKC_TYPE_LITERAL:
        switch (t->u.literal.kind) {
        case SDKC_LIT_STRING:
            return json_string(t->u.literal.text);
        case SDKC_LIT_BOOL:
            return json_boolean(!strcmp(t->u.literal.text, "true"));
        case SDKC_LIT_NULL:
            return json_null();
        case SDKC_LIT_NUMBER: {
            json_error_t e;
            json_t *n = json_loads(t->u.literal.text, JSON_DECODE_ANY, &e);
            if (!n && json_error_code(&e) != json_error_out_of_memory)
                return synth_fail(s, "a number literal that is not JSON");
            return n;
        }
        }
        return NULL;
    case SDKC_TYPE_ENUM:
        if (!t->u.enumeration.nvalues)
            return synth_fail(s, "enum without values");
        return json_string(t->u.enumeration.values[s->variant % t->u.enumeration.nvalues]);
    case SDKC_TYPE_ARRAY: {
        uint64_t n =
            t->u.array.has_min_items && t->u.array.min_items > 1 ? t->u.array.min_items : 1;
        if (t->u.array.has_max_items && t->u.array.max_items < n)
            n = t->u.array.max_items;
        if (n > 64)
            return synth_fail(s, "minItems above 64");
        return synth_items(s, t, n, depth);
    }
    case SDKC_TYPE_TUPLE: {
        json_t *a = json_array();
        for (size_t i = 0; a && i < t->u.tuple.nitems; i++) {
            json_t *v = synth_value(s, t->u.tuple.items[i], depth + 1);
            if (!v || json_array_append_new(a, v) != 0) {
                json_decref(a);
                return NULL;
            }
        }
        return a;
    }
    case SDKC_TYPE_MAP: {
        json_t *m = json_object();
        if (!m || t->u.map.key_pattern)
            return m; /* no key of a pattern is synthesized: an empty map */
        json_t *v = synth_value(s, t->u.map.value, depth + 1);
        if (!v || json_object_set_new(m, s->o->filler, v) != 0) {
            json_decref(m);
            return NULL;
        }
        return m;
    }
    case SDKC_TYPE_OBJECT:
        return synth_object(s, t, depth);
    case SDKC_TYPE_UNION: {
        if (!t->u.union_.nvariants)
            return synth_fail(s, "union without variants");
        const sdkc_variant *v = &t->u.union_.variants[0];
        /* 1 also reads as a string in a path or query ("must match exactly one schema in
           oneOf"): a plain string variant's "mock" matches one variant only */
        for (size_t i = 1; !t->u.union_.discriminator && i < t->u.union_.nvariants; i++) {
            const sdkc_type *vt = t->u.union_.variants[i].type;
            sdkc_type_kind k0 = v->type->kind;
            if ((k0 == SDKC_TYPE_INTEGER || k0 == SDKC_TYPE_NUMBER || k0 == SDKC_TYPE_BOOLEAN) &&
                vt->kind == SDKC_TYPE_STRING && !vt->u.str.pattern && !vt->u.str.format &&
                !vt->u.str.brand) {
                v = &t->u.union_.variants[i];
                break;
            }
        }
        json_t *j = synth_value(s, v->type, depth + 1);
        /* A tagged variant carries its tag, also when its schema does not list the field. */
        if (j && json_is_object(j) && t->u.union_.discriminator && v->tag &&
            !json_object_get(j, t->u.union_.discriminator))
            json_object_set_new(j, t->u.union_.discriminator, json_string(v->tag));
        return j;
    }
    case SDKC_TYPE_NULLABLE:
        return synth_value(s, t->u.nullable.inner, depth);
    case SDKC_TYPE_JSON_STRING: {
        json_t *c = synth_value(s, t->u.json_string.content, depth + 1);
        char *text = c ? json_dumps(c, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
        json_decref(c);
        json_t *r = text ? json_string(text) : NULL;
        free(text);
        return r;
    }
    case SDKC_TYPE_ANY:
        return json_object();
    case SDKC_TYPE_NEVER:
        return synth_fail(s, "a type no value satisfies (not: {})");
    }
    return NULL;
}

sdkc_status sdkc_synth_value(json_t **out, sdkc_arena *a, const sdkc_type *t,
                             const sdkc_synth_options *opts, const char **why)
{
    sdkc_synth_options o = SDKC_SYNTH_OPTIONS_INIT;
    if (opts) {
        const char *filler = o.filler;
        o = *opts;
        if (!o.filler)
            o.filler = filler;
    }
    synth s = {a, &o, NULL, 0};
    *out = synth_value(&s, t, 0);
    if (why)
        *why = *out ? NULL : s.why;
    if (*out)
        return SDKC_OK;
    return s.why ? SDKC_ERR_INVALID : SDKC_ERR_NOMEM;
}
