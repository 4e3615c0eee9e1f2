/* One-pass JSON decoder: text straight into generated values, driven by the sdkrt_jtype tables
 * (see jdecode.h for the contract). The rules follow jansson 2.14's lexer and parser with
 * SDKRT_JSON_LOAD_FLAGS, then json_decode.c's decode() on the tree that would have come out of it:
 *
 *  - whitespace is space, tab, LF, CR; one value, then only whitespace;
 *  - strings: no control characters below 0x20, escapes \" \\ \/ \b \f \n \r \t \uXXXX, a high
 *    surrogate escape must be followed by a low one, a lone low one is refused, raw bytes are
 *    valid UTF-8 (no overlong forms, no surrogates, nothing past U+10FFFF); \u0000 is kept in
 *    values but refused in object keys;
 *  - numbers: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?; without fraction and exponent an
 *    integer that must fit int64 (strtoll), otherwise a double that must not overflow (strtod);
 *  - true, false, null; every value counts one level of depth, beyond SDKRT_JD_MAX_DEPTH refused;
 *  - duplicate keys refused in every object, also in values that are only checked and skipped.
 *
 * Objects are matched to fields by a linear probe that starts after the last field matched
 * (servers send fields in schema order, so it is one comparison per key in the common case), with
 * one bit per field to refuse duplicates; keys the type does not declare are kept on a stack of
 * spans and compared pairwise, or sorted when an object has many. No hash table, no tree.
 *
 * This file maps the values to the types; the lexer under it (strings, numbers, keys, values
 * checked and skipped) is jdecode_scan.c. */
#include "jdecode_scan.h"

#include "internal.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- decoding ---- */

static int dk(jd *d, const sdkrt_jtype *t, void *v);

/* One more value into v: counts its depth. */
static int dv(jd *d, const sdkrt_jtype *t, unsigned flags, void *place)
{
    if (d->depth >= SDKRT_JD_MAX_DEPTH)
        return BAD;
    d->depth++;
    int r;
    if (!(flags & SDKRT_JF_BOXED)) {
        r = dk(d, t, place);
    } else {
        void *box = calloc(1, t->size ? t->size : 1);
        if (!box) {
            r = NOMEM;
        } else if ((r = dk(d, t, box)) != OK) {
            free(box);
        } else {
            *(void **)place = box;
        }
    }
    d->depth--;
    return r;
}

/* The same value as another type (union variant, nullable content): no depth of its own. */
static int dk_place(jd *d, const sdkrt_jtype *t, unsigned flags, void *place)
{
    if (!(flags & SDKRT_JF_BOXED))
        return dk(d, t, place);
    void *box = calloc(1, t->size ? t->size : 1);
    if (!box)
        return NOMEM;
    int r = dk(d, t, box);
    if (r != OK) {
        free(box);
        return r;
    }
    *(void **)place = box;
    return OK;
}

/* A scalar at d->p for comparing with a literal. */
typedef struct jscalar {
    int kind; /* '"' string, '0' number, 't' true, 'f' false, 'n' null */
    const char *raw;
    size_t len;
    bool esc;
    jnum num;
} jscalar;

static int scan_scalar(jd *d, jscalar *s)
{
    int c = sdkrt_jd_peek_(d);
    s->kind = c;
    switch (c) {
    case '"':
        return sdkrt_jd_scan_string_(d, &s->raw, &s->len, &s->esc) ? OK : BAD;
    case 't':
        return sdkrt_jd_scan_word_(d, "true", 4) ? OK : BAD;
    case 'f':
        return sdkrt_jd_scan_word_(d, "false", 5) ? OK : BAD;
    case 'n':
        return sdkrt_jd_scan_word_(d, "null", 4) ? OK : BAD;
    case '{':
    case '[':
    case -1:
        return BAD;
    default:
        s->kind = '0';
        return sdkrt_jd_scan_number_(d, &s->num);
    }
}

/* Whether two scanned strings hold the same bytes. */
static int same_string(const jscalar *a, const jscalar *b, bool *same)
{
    if (!a->esc && !b->esc) {
        *same = a->len == b->len && memcmp(a->raw, b->raw, a->len) == 0;
        return OK;
    }
    size_t na, nb;
    char *x = sdkrt_jd_string_copy_(a->raw, a->len, a->esc, &na);
    char *y = sdkrt_jd_string_copy_(b->raw, b->len, b->esc, &nb);
    int r = x && y ? OK : NOMEM;
    *same = x && y && na == nb && memcmp(x, y, na) == 0;
    free(x);
    free(y);
    return r;
}

/* A LITERAL: the value must equal t->literal as json_equal sees it (numbers by value). */
static int dk_literal(jd *d, const sdkrt_jtype *t)
{
    const char *lit = t->literal ? t->literal : "null";
    jd ld = {.p = lit, .end = lit + strlen(lit)};
    jscalar want, got;
    if (scan_scalar(&ld, &want) != OK) {
        /* An object or array literal: compare trees, as json_decode.c does. */
        json_t *a = NULL;
        int r = sdkrt_jd_load_span_(d, &a);
        if (r != OK)
            return r;
        json_t *b = json_loads(lit, JSON_DECODE_ANY, NULL);
        r = b ? (json_equal(a, b) ? OK : BAD) : NOMEM;
        json_decref(a);
        json_decref(b);
        return r;
    }
    if (*d->p == '{' || *d->p == '[')
        return BAD;
    int r = scan_scalar(d, &got);
    if (r != OK)
        return r;
    if (want.kind != got.kind)
        return BAD;
    bool same = true;
    if (want.kind == '"') {
        r = same_string(&want, &got, &same);
        if (r != OK)
            return r;
    } else if (want.kind == '0') {
        same = (want.num.is_int && got.num.is_int && want.num.i == got.num.i) ||
               sdkrt_jd_num_value_(&want.num) == sdkrt_jd_num_value_(&got.num);
    }
    return same ? OK : BAD;
}

/* strcmp(name, the C string of the decoded key) == 0, for a key without NUL bytes. */
static bool name_is(const char *name, const char *key, size_t len)
{
    return name[0] == (len ? key[0] : '\0') && strncmp(name, key, len) == 0 && name[len] == '\0';
}

/* The field of t named key, probing from *hint on; t->nfields when none. */
static size_t find_field(const sdkrt_jtype *t, const char *key, size_t len, size_t *hint)
{
    size_t n = t->nfields;
    for (size_t k = 0, i = *hint; k < n; k++, i++) {
        if (i >= n)
            i = 0;
        if (name_is(t->fields[i].name, key, len)) {
            *hint = i + 1;
            return i;
        }
    }
    return n;
}

/* A member value for field f of the object at base (json_decode.c's decode_object rules). */
static int dk_field(jd *d, const sdkrt_jfield *f, char *base)
{
    bool is_null = *d->p == 'n';
    if (is_null && f->null_offset == SDKRT_JNONE && f->type->kind != SDKRT_JK_NULL &&
        f->type->kind != SDKRT_JK_ANY) {
        /* null where the contract has no null: absent, which a required field may not be */
        if (d->depth >= SDKRT_JD_MAX_DEPTH || !sdkrt_jd_scan_word_(d, "null", 4))
            return BAD;
        return (f->flags & SDKRT_JF_REQUIRED) ? BAD : OK;
    }
    if (f->has_offset != SDKRT_JNONE)
        *(bool *)(base + f->has_offset) = true;
    if (is_null && f->null_offset != SDKRT_JNONE) {
        if (d->depth >= SDKRT_JD_MAX_DEPTH || !sdkrt_jd_scan_word_(d, "null", 4))
            return BAD;
        *(bool *)(base + f->null_offset) = true;
        return OK;
    }
    if (f->offset == SDKRT_JNONE) {
        char dummy = 0; /* nothing stored (a literal): still checked */
        return dv(d, f->type, 0, &dummy);
    }
    return dv(d, f->type, f->flags, base + f->offset);
}

static int dk_object(jd *d, const sdkrt_jtype *t, void *v)
{
    if (*d->p != '{')
        return BAD;
    d->p++;
    uint64_t small[4] = {0};
    uint64_t *seen = small;
    size_t words = (t->nfields + 63) / 64;
    if (words > 4) {
        seen = calloc(words, sizeof *seen);
        if (!seen)
            return NOMEM;
    }
    size_t base = d->nkeys, sbase = d->slen, hint = 0;
    int r = OK;
    bool more = sdkrt_jd_peek_(d) != '}';
    if (!more)
        d->p++;
    while (more && r == OK) {
        const char *key;
        size_t len;
        bool in_scratch;
        r = sdkrt_jd_scan_key_(d, &key, &len, &in_scratch);
        if (r != OK)
            break;
        size_t i = find_field(t, key, len, &hint);
        if (i == t->nfields) {
            r = sdkrt_jd_key_keep_(d, base, key, len, in_scratch);
            if (r == OK)
                r = sdkrt_jd_skip_value_(d);
        } else if (seen[i / 64] & ((uint64_t)1 << (i % 64))) {
            r = BAD; /* duplicate key */
        } else {
            seen[i / 64] |= (uint64_t)1 << (i % 64);
            r = dk_field(d, &t->fields[i], v);
        }
        if (r == OK && !sdkrt_jd_next_member_(d, '}', &more))
            r = BAD;
    }
    if (r == OK)
        r = sdkrt_jd_keys_close_(d, base);
    for (size_t i = 0; i < t->nfields && r == OK; i++)
        if ((t->fields[i].flags & SDKRT_JF_REQUIRED) && !(seen[i / 64] & ((uint64_t)1 << (i % 64))))
            r = BAD; /* missing required field */
    d->nkeys = base;
    d->slen = sbase;
    if (seen != small)
        free(seen);
    if (r != OK)
        sdkrt_json_cleanup(t, v);
    return r;
}

/* Find the discriminator of the object at d->p without moving: *variant is the index of the
 * variant it names, or t->nvariants for a tag this client does not know. */
static int find_tag(jd *d, const sdkrt_jtype *t, size_t *variant)
{
    const char *start = d->p;
    size_t base = d->nkeys, sbase = d->slen;
    int r = BAD;
    bool more;
    d->p++;
    more = sdkrt_jd_peek_(d) != '}';
    while (more) {
        const char *key;
        size_t len;
        bool in_scratch;
        r = sdkrt_jd_scan_key_(d, &key, &len, &in_scratch);
        if (r != OK)
            break;
        if (!name_is(t->discriminator, key, len)) {
            r = sdkrt_jd_skip_value_(d);
            if (r == OK && !sdkrt_jd_next_member_(d, '}', &more))
                r = BAD;
            if (r != OK)
                break;
            r = BAD; /* missing discriminator if the object ends here */
            continue;
        }
        const char *raw;
        bool esc;
        if (*d->p != '"' || !sdkrt_jd_scan_string_(d, &raw, &len, &esc)) {
            r = BAD; /* not a string */
            break;
        }
        r = OK;
        char *tag = NULL;
        if (esc) { /* compared as a C string, as strcmp on jansson's value does */
            size_t n;
            tag = sdkrt_jd_string_copy_(raw, len, true, &n);
            if (!tag) {
                r = NOMEM;
                break;
            }
            raw = tag;
            len = strlen(tag);
        }
        *variant = t->nvariants;
        for (size_t i = 0; i < t->nvariants; i++) {
            if (t->variants[i].tag && name_is(t->variants[i].tag, raw, len)) {
                *variant = i;
                break;
            }
        }
        free(tag);
        break;
    }
    d->p = start;
    d->nkeys = base;
    d->slen = sbase;
    return r;
}

static int dk_union(jd *d, const sdkrt_jtype *t, void *v)
{
    junion *u = v;
    char *slot = (char *)v + t->value_offset;
    if (t->discriminator) {
        if (*d->p != '{')
            return BAD;
        size_t i = 0;
        int r = find_tag(d, t, &i);
        if (r != OK)
            return r;
        if (i == t->nvariants) { /* unknown variant: the raw JSON (forward compatibility) */
            u->kind = 0;
            r = sdkrt_jd_load_span_(d, &u->unknown);
            if (r == OK && sdkrt_json_decode_common_(t, slot, u->unknown) != SDKRT_OK)
                r = NOMEM;
            return r;
        }
        r = dk_place(d, t->variants[i].type, t->variants[i].flags, slot);
        if (r == OK)
            u->kind = (int)i + 1;
        return r;
    }
    /* Untagged: the first variant that decodes wins. */
    const char *start = d->p;
    size_t depth = d->depth, nkeys = d->nkeys, slen = d->slen;
    for (size_t i = 0; i < t->nvariants; i++) {
        int r = dk_place(d, t->variants[i].type, t->variants[i].flags, slot);
        if (r == OK) {
            u->kind = (int)i + 1;
            return OK;
        }
        if (r == NOMEM)
            return r;
        d->p = start;
        d->depth = depth;
        d->nkeys = nkeys;
        d->slen = slen;
    }
    return BAD;
}

static int dk_array(jd *d, const sdkrt_jtype *t, void *v)
{
    if (*d->p != '[')
        return BAD;
    d->p++;
    if (sdkrt_jd_peek_(d) == ']') {
        d->p++;
        return OK;
    }
    jarray *a = v;
    size_t sz = t->inner->size ? t->inner->size : 1, cap = 0;
    int r = OK;
    bool more = true;
    while (more && r == OK) {
        if (sdkrt_jd_peek_(d) < 0) {
            r = BAD;
            break;
        }
        if (a->count == cap) {
            size_t ncap = cap ? cap * 2 : 4;
            void *items = ncap <= SIZE_MAX / sz ? realloc(a->items, ncap * sz) : NULL;
            if (!items) {
                r = NOMEM;
                break;
            }
            memset((char *)items + cap * sz, 0, (ncap - cap) * sz);
            a->items = items;
            cap = ncap;
        }
        r = dv(d, t->inner, 0, (char *)a->items + a->count * sz);
        if (r != OK)
            break;
        a->count++;
        if (!sdkrt_jd_next_member_(d, ']', &more))
            r = BAD;
    }
    if (r != OK)
        sdkrt_json_cleanup(t, v);
    return r;
}

static int dk_map(jd *d, const sdkrt_jtype *t, void *v)
{
    if (*d->p != '{')
        return BAD;
    d->p++;
    if (sdkrt_jd_peek_(d) == '}') {
        d->p++;
        return OK;
    }
    jmap *m = v;
    size_t sz = t->inner->size ? t->inner->size : 1, cap = 0;
    size_t base = d->nkeys, sbase = d->slen;
    int r = OK;
    bool more = true;
    while (more && r == OK) {
        const char *key;
        size_t len;
        bool in_scratch;
        r = sdkrt_jd_scan_key_(d, &key, &len, &in_scratch);
        if (r != OK)
            break;
        if (m->count == cap) {
            size_t ncap = cap ? cap * 2 : 4;
            char **keys = ncap <= SIZE_MAX / sz ? realloc(m->keys, ncap * sizeof *keys) : NULL;
            if (keys)
                m->keys = keys;
            void *values = keys ? realloc(m->values, ncap * sz) : NULL;
            if (!values) {
                r = NOMEM;
                break;
            }
            memset((char *)values + cap * sz, 0, (ncap - cap) * sz);
            m->values = values;
            cap = ncap;
        }
        char *k = malloc(len + 1);
        if (!k) {
            r = NOMEM;
            break;
        }
        memcpy(k, key, len);
        k[len] = '\0';
        m->keys[m->count++] = k;
        r = sdkrt_jd_key_add_(d, base, k, 0, len);
        if (r == OK)
            r = dv(d, t->inner, 0, (char *)m->values + (m->count - 1) * sz);
        if (r == OK && !sdkrt_jd_next_member_(d, '}', &more))
            r = BAD;
    }
    if (r == OK)
        r = sdkrt_jd_keys_close_(d, base);
    d->nkeys = base;
    d->slen = sbase;
    if (r != OK)
        sdkrt_json_cleanup(t, v);
    return r;
}

/* A string value with the decoded bytes in a new buffer (for ENUM and JSON_STRING). */
static int dk_string_bytes(jd *d, char **out, size_t *n)
{
    const char *raw;
    size_t len;
    bool esc;
    if (*d->p != '"' || !sdkrt_jd_scan_string_(d, &raw, &len, &esc))
        return BAD;
    *out = sdkrt_jd_string_copy_(raw, len, esc, n);
    return *out ? OK : NOMEM;
}

static int dk_enum(jd *d, const sdkrt_jtype *t, void *v)
{
    jenum *e = v;
    const char *raw;
    size_t len;
    bool esc;
    if (*d->p != '"' || !sdkrt_jd_scan_string_(d, &raw, &len, &esc))
        return BAD;
    char *owned = NULL;
    if (esc) { /* compared and kept as a C string, as json_decode.c does */
        size_t n;
        owned = sdkrt_jd_string_copy_(raw, len, true, &n);
        if (!owned)
            return NOMEM;
        raw = owned;
        len = strlen(owned);
    }
    for (size_t i = 0; i < t->nvalues; i++) {
        if (name_is(t->values[i], raw, len)) {
            e->value = (int)i + 1;
            free(owned);
            return OK;
        }
    }
    e->value = 0;
    if (!owned) {
        owned = malloc(len + 1);
        if (!owned)
            return NOMEM;
        memcpy(owned, raw, len);
        owned[len] = '\0';
    }
    e->unknown = owned;
    return OK;
}

static int dk_json_string(jd *d, const sdkrt_jtype *t, void *v)
{
    /* Servers differ: accept the encoded string, or the content inline. */
    if (*d->p != '"' || t->inner->kind == SDKRT_JK_STRING || t->inner->kind == SDKRT_JK_ENUM)
        return dk(d, t->inner, v);
    char *text = NULL;
    size_t n = 0;
    int r = dk_string_bytes(d, &text, &n);
    if (r == OK)
        r = sdkrt_jd_decode_(t->inner, v, text, n, NULL);
    free(text);
    return r;
}

static int dk(jd *d, const sdkrt_jtype *t, void *v)
{
    switch (t->kind) {
    case SDKRT_JK_STRING: {
        const char *raw;
        size_t len, n;
        bool esc;
        if (*d->p != '"' || !sdkrt_jd_scan_string_(d, &raw, &len, &esc))
            return BAD;
        char *s = sdkrt_jd_string_copy_(raw, len, esc, &n);
        if (!s)
            return NOMEM;
        if (esc && memchr(s, '\0', n)) { /* a C string cannot carry it */
            free(s);
            return BAD;
        }
        *(char **)v = s;
        return OK;
    }
    case SDKRT_JK_INTEGER: {
        jnum n;
        if (*d->p != '-' && !sdkrt_jd_is_digit_(*d->p))
            return BAD;
        int r = sdkrt_jd_scan_number_(d, &n);
        if (r != OK)
            return r;
        if (n.is_int) {
            *(int64_t *)v = n.i;
            return OK;
        }
        /* 1.0 is an integer in JSON Schema terms. */
        if (n.r == floor(n.r) && n.r >= -9223372036854775808.0 && n.r < 9223372036854775808.0) {
            *(int64_t *)v = (int64_t)n.r;
            return OK;
        }
        return BAD;
    }
    case SDKRT_JK_NUMBER: {
        jnum n;
        if (*d->p != '-' && !sdkrt_jd_is_digit_(*d->p))
            return BAD;
        int r = sdkrt_jd_scan_number_(d, &n);
        if (r == OK)
            *(double *)v = sdkrt_jd_num_value_(&n);
        return r;
    }
    case SDKRT_JK_BOOLEAN:
        if (sdkrt_jd_scan_word_(d, "true", 4)) {
            *(bool *)v = true;
            return OK;
        }
        if (sdkrt_jd_scan_word_(d, "false", 5)) {
            *(bool *)v = false;
            return OK;
        }
        return BAD;
    case SDKRT_JK_NULL:
        return sdkrt_jd_scan_word_(d, "null", 4) ? OK : BAD;
    case SDKRT_JK_NEVER:
        return BAD;
    case SDKRT_JK_LITERAL:
        return dk_literal(d, t);
    case SDKRT_JK_ENUM:
        return dk_enum(d, t, v);
    case SDKRT_JK_ARRAY:
        return dk_array(d, t, v);
    case SDKRT_JK_MAP:
        return dk_map(d, t, v);
    case SDKRT_JK_OBJECT:
        return dk_object(d, t, v);
    case SDKRT_JK_UNION:
        return dk_union(d, t, v);
    case SDKRT_JK_NULLABLE:
        if (sdkrt_jd_scan_word_(d, "null", 4)) {
            *(void **)v = NULL;
            return OK;
        }
        return dk_place(d, t->inner, SDKRT_JF_BOXED, v);
    case SDKRT_JK_JSON_STRING:
        return dk_json_string(d, t, v);
    case SDKRT_JK_ANY:
        return sdkrt_jd_load_span_(d, (json_t **)v);
    }
    return BAD;
}

/* The `{"unwrap": X, ...}` envelope at d->p: X decoded as t, the other members checked. */
static int dk_unwrap(jd *d, const sdkrt_jtype *t, void *v, const char *unwrap)
{
    if (*d->p != '{')
        return BAD;
    d->p++;
    d->depth = 1;
    size_t base = d->nkeys;
    bool found = false, more = sdkrt_jd_peek_(d) != '}';
    int r = OK;
    if (!more)
        d->p++;
    while (more && r == OK) {
        const char *key;
        size_t len;
        bool in_scratch;
        r = sdkrt_jd_scan_key_(d, &key, &len, &in_scratch);
        if (r != OK)
            break;
        if (name_is(unwrap, key, len)) {
            if (found) {
                r = BAD; /* duplicate key */
                break;
            }
            found = true;
            r = dv(d, t, 0, v);
        } else {
            r = sdkrt_jd_key_keep_(d, base, key, len, in_scratch);
            if (r == OK)
                r = sdkrt_jd_skip_value_(d);
        }
        if (r == OK && !sdkrt_jd_next_member_(d, '}', &more))
            r = BAD;
    }
    if (r == OK)
        r = sdkrt_jd_keys_close_(d, base);
    if (r == OK && !found)
        r = BAD; /* missing required field */
    if (r != OK && found)
        sdkrt_json_cleanup(t, v);
    d->depth = 0;
    return r;
}

sdkrt_jd_result_ sdkrt_jd_decode_(const sdkrt_jtype *t, void *value, const char *text, size_t len,
                                  const char *unwrap)
{
    jd d = {.p = text, .end = text + len};
    int r = BAD;
    if (!t || !value || !text || sdkrt_jd_peek_(&d) < 0)
        goto done;
    r = unwrap ? dk_unwrap(&d, t, value, unwrap) : dv(&d, t, 0, value);
    if (r == OK && sdkrt_jd_peek_(&d) >= 0) {
        sdkrt_json_cleanup(t, value);
        r = BAD; /* more than one value */
    }
done:
    free(d.keys);
    free(d.scratch);
    return (sdkrt_jd_result_)r;
}

sdkrt_jd_result_ sdkrt_jd_string_(const char *text, size_t len, char **out, size_t *out_len)
{
    jd d = {.p = text, .end = text + len};
    const char *raw;
    size_t n;
    bool esc;
    *out = NULL;
    if (!text || sdkrt_jd_peek_(&d) != '"' || !sdkrt_jd_scan_string_(&d, &raw, &n, &esc) ||
        sdkrt_jd_peek_(&d) >= 0)
        return SDKRT_JD_MALFORMED_;
    *out = sdkrt_jd_string_copy_(raw, n, esc, out_len);
    return *out ? SDKRT_JD_OK_ : SDKRT_JD_OOM_;
}
