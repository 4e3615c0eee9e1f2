/* probe_gen.c - generated requests (phases examples, coverage, negative): the list of cases, the
 * seeded choice of at most --max-examples of them, the values at a type's edges, and sending. */
#include <math.h>

#include "probe_internal.h"
#include "sdkc/pattern.h"

#define MAX_TEXT  4096 /* longest string made for a length bound */
#define MAX_ITEMS 16   /* most items made for an item bound */

bool conform_gen_push(gen_list *l, gen_case *c)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        gen_case *p = realloc(l->items, cap * sizeof *p);
        if (!p)
            goto fail;
        l->items = p;
        l->cap = cap;
    }
    if (!c->what || !c->path)
        goto fail;
    l->items[l->n++] = *c;
    return true;
fail:
    free(c->what);
    free(c->path);
    json_decref(c->params);
    json_decref(c->body);
    return false;
}

static void case_free(gen_case *c)
{
    free(c->what);
    free(c->path);
    json_decref(c->params);
    json_decref(c->body);
}

void conform_gen_free(gen_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        case_free(&l->items[i]);
    free(l->items);
    memset(l, 0, sizeof *l);
}

static uint64_t rng_next(uint64_t *s)
{
    /* xorshift64*: small, and the same numbers on every platform */
    uint64_t x = *s ? *s : 0x9e3779b97f4a7c15ull;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545f4914f6cdd1dull;
}

void conform_gen_select(gen_list *l, size_t max, uint64_t seed, const char *op_id)
{
    /* one stream per operation, so that an operation's choice does not depend on the others */
    uint64_t s = seed ^ 0xcbf29ce484222325ull;
    for (const char *p = op_id; *p; p++)
        s = (s ^ (unsigned char)*p) * 0x100000001b3ull;
    for (size_t i = l->n; i > 1; i--) {
        size_t j = (size_t)(rng_next(&s) % i);
        gen_case t = l->items[i - 1];
        l->items[i - 1] = l->items[j];
        l->items[j] = t;
    }
    if (l->n <= max)
        return;
    /* round robin over the targets (each parameter and field gets its first case before any
       gets a second), in the shuffled order */
    gen_case *out = malloc(l->n * sizeof *out);
    bool *taken = calloc(l->n, sizeof *taken);
    if (!out || !taken) {
        free(out);
        free(taken);
        for (size_t i = max; i < l->n; i++)
            case_free(&l->items[i]);
        l->n = max;
        return;
    }
    int *used = malloc(l->n * sizeof *used); /* targets served this round */
    size_t n = 0;
    while (used && n < max) {
        size_t nused = 0;
        for (size_t i = 0; i < l->n && n < max; i++) {
            bool seen = taken[i];
            for (size_t k = 0; k < nused && !seen; k++)
                seen = used[k] == l->items[i].target;
            if (seen)
                continue;
            taken[i] = true;
            used[nused++] = l->items[i].target;
            out[n++] = l->items[i];
        }
        if (!nused)
            break;
    }
    free(used);
    for (size_t i = 0; i < l->n; i++)
        if (!taken[i])
            case_free(&l->items[i]);
    free(l->items);
    free(taken);
    l->items = out;
    l->cap = l->n;
    l->n = n;
}

char *conform_param_key(const sdkc_param *p)
{
    sdkc_buf b = SDKC_BUF_INIT;
    sdkc_buf_printf(&b, "%s:%s", sdkc_param_in_name(p->in), p->wire_name);
    return sdkc_buf_steal(&b, NULL);
}

json_t *conform_base_body(worker *wk, const sdkc_operation *op)
{
    const char *why = NULL;
    return op->body ? conform_synth(wk, MODE_VALID, op->body->type, &why) : NULL;
}

json_t *conform_base_param(worker *wk, const sdkc_param *p)
{
    const char *why = NULL;
    json_t *v = conform_user_param(wk->rn, p);
    if (!v && p->required)
        v = conform_synth(wk, MODE_VALID, p->type, &why);
    return v;
}

/* Deviations of v (path and rule) that ref does not have: the valid value's own (a read-only
   field the request leaves out) are not the case's doing. */
size_t conform_new_deviations(worker *wk, const sdkc_type *t, const json_t *v, const json_t *ref)
{
    sdkc_validation *val = wk->val;
    char **seen = NULL;
    size_t nseen = 0, fresh = 0;
    if (ref) {
        sdkc_validation_reset(val);
        if (sdkc_validate(val, t, ref, "$") != SDKC_OK)
            wk->rn->r->oom = true;
        nseen = sdkc_validation_count(val);
        seen = calloc(nseen ? nseen : 1, sizeof *seen);
        for (size_t i = 0; seen && i < nseen; i++) {
            const sdkc_deviation *d = sdkc_validation_get(val, i);
            sdkc_buf b = SDKC_BUF_INIT;
            sdkc_buf_printf(&b, "%s %s", d->path, d->rule);
            seen[i] = sdkc_buf_steal(&b, NULL);
        }
    }
    sdkc_validation_reset(val);
    if (sdkc_validate(val, t, v, "$") != SDKC_OK)
        wk->rn->r->oom = true;
    for (size_t i = 0; i < sdkc_validation_count(val); i++) {
        const sdkc_deviation *d = sdkc_validation_get(val, i);
        sdkc_buf b = SDKC_BUF_INIT;
        sdkc_buf_printf(&b, "%s %s", d->path, d->rule);
        bool old = false;
        for (size_t k = 0; k < nseen && !old && b.data; k++)
            old = seen && seen[k] && strcmp(seen[k], b.data) == 0;
        fresh += !old;
        sdkc_buf_cleanup(&b);
    }
    fresh += sdkc_validation_total(val) - sdkc_validation_count(val);
    /* a pattern the validator could not check may be what the value breaks */
    if (sdkc_validation_unchecked(val))
        fresh += 1000;
    for (size_t i = 0; seen && i < nseen; i++)
        free(seen[i]);
    free(seen);
    return fresh;
}

static json_t *text_of(size_t n)
{
    char *s = malloc(n + 1);
    if (!s)
        return NULL;
    memset(s, 'c', n);
    s[n] = '\0';
    json_t *j = json_stringn(s, n);
    free(s);
    return j;
}

static json_t *number_of(const sdkc_type *t, double v)
{
    if (t->kind == SDKC_TYPE_INTEGER) {
        if (!(fabs(v) < 9007199254740992.0))
            return NULL;
        return json_integer((json_int_t)v);
    }
    return json_real(v);
}

/* n distinct valid items of an array of t, or NULL when sdkc cannot tell they are distinct. */
static json_t *distinct_items(const sdkc_type *items, size_t n)
{
    const sdkc_type *t = items;
    json_t *a = json_array();
    for (size_t i = 0; a && i < n; i++) {
        json_t *v = NULL;
        if (t && t->kind == SDKC_TYPE_ENUM && i < t->u.enumeration.nvalues) {
            v = json_string(t->u.enumeration.values[i]);
        } else if (t && t->kind == SDKC_TYPE_STRING && !t->u.str.pattern && !t->u.str.format &&
                   !t->u.str.brand) {
            char buf[32];
            snprintf(buf, sizeof buf, "conform%zu", i);
            v = json_string(buf);
        } else if (t && t->kind == SDKC_TYPE_INTEGER) {
            double base = t->u.num.has_minimum ? t->u.num.minimum + 1 : 1;
            v = json_integer((json_int_t)(base + (double)i));
        }
        if (!v || json_array_append_new(a, v) != 0) {
            json_decref(a);
            return NULL;
        }
    }
    return a;
}

/* Valid values of a string format besides the valid probe's (sdkc_synth_format_variant). */
static void cover_format(const sdkc_type *c, void (*emit)(void *u, json_t *v, const char *what),
                         void *u)
{
    const char *note = NULL, *v;
    char what[200];
    for (size_t i = 0; (v = sdkc_synth_format_variant(c->u.str.format, i, &note)) != NULL; i++) {
        snprintf(what, sizeof what, "another %.40s value: %.60s (format %.40s)", c->u.str.format,
                 note, c->u.str.format);
        emit(u, json_string(v), what);
    }
}

#define PATTERN_LONG 64 /* the longest match tried for a pattern without maxLength */

/* A parameter's text that may not arrive as sent: a control character, or white space at an end
   (header values are trimmed). */
static bool fragile_text(const char *s)
{
    size_t n = strlen(s);
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
            return true;
    return n && (s[0] == ' ' || s[n - 1] == ' ');
}

/* Other matches of a string pattern than the valid probe's (the shortest): the longest within
 * maxLength (PATTERN_LONG characters more than minLength when unbounded) and one taking the last
 * alternatives, each verified by the generator with the matcher; none when the pattern has no
 * other. */
static void cover_pattern(const sdkc_type *c, bool in_param,
                          void (*emit)(void *u, json_t *v, const char *what), void *u)
{
    sdkc_arena *a = NULL;
    if (sdkc_arena_new(&a) != SDKC_OK)
        return;
    size_t lo = c->u.str.has_min_length ? (size_t)c->u.str.min_length : 0;
    size_t hi = c->u.str.has_max_length ? (size_t)c->u.str.max_length : lo + PATTERN_LONG;
    if (hi > MAX_TEXT)
        hi = MAX_TEXT;
    const char *natural =
        sdkc_pattern_variant(a, c->u.str.pattern, lo, hi, SDKC_PATTERN_NATURAL, NULL);
    const char *longest =
        sdkc_pattern_variant(a, c->u.str.pattern, lo, hi, SDKC_PATTERN_LONGEST, NULL);
    const char *last =
        sdkc_pattern_variant(a, c->u.str.pattern, lo, hi, SDKC_PATTERN_LAST_ALTERNATIVES, NULL);
    char what[160];
    if (in_param && longest && fragile_text(longest))
        longest = NULL;
    if (in_param && last && fragile_text(last))
        last = NULL;
    if (natural && longest && strcmp(longest, natural) != 0) {
        size_t chars = 0;
        for (const char *p = longest; *p; p++)
            chars += ((unsigned char)*p & 0xC0) != 0x80;
        snprintf(what, sizeof what, "a match of %zu characters (pattern, the longest %s)", chars,
                 c->u.str.has_max_length ? "within maxLength" : "tried");
        emit(u, json_string(longest), what);
    }
    if (natural && last && strcmp(last, natural) != 0 && (!longest || strcmp(last, longest) != 0))
        emit(u, json_string(last), "a match taking other alternatives (pattern)");
    sdkc_arena_free(a);
}

void conform_cover_values(worker *wk, const sdkc_type *t, bool negative, json_t *base,
                          void (*emit)(void *u, json_t *v, const char *what), void *u)
{
    bool in_param = base == NULL; /* a parameter: every value travels as text */
    const sdkc_type *c = conform_unwrap_nullable(t);
    char what[160];
    if (!c)
        return;
    if (!negative && t->kind == SDKC_TYPE_NULLABLE && !t->u.nullable.lenient && !in_param)
        emit(u, json_null(), "null (nullable)");
    switch (c->kind) {
    case SDKC_TYPE_ENUM:
        for (size_t i = 0; !negative && i < c->u.enumeration.nvalues; i++) {
            snprintf(what, sizeof what, "the enum member \"%.100s\"", c->u.enumeration.values[i]);
            emit(u, json_string(c->u.enumeration.values[i]), what);
        }
        if (negative)
            emit(u, json_string("conform-not-a-member"), "a value outside the enum");
        if (negative && !in_param)
            emit(u, json_integer(12345), "a number where the enum's strings are declared");
        break;
    case SDKC_TYPE_BOOLEAN:
        if (!negative) {
            emit(u, json_true(), "true");
            emit(u, json_false(), "false");
        } else {
            emit(u, json_string("conform"), "a string where a boolean is declared");
        }
        break;
    case SDKC_TYPE_INTEGER:
    case SDKC_TYPE_NUMBER: {
        bool integer = c->kind == SDKC_TYPE_INTEGER;
        if (negative)
            emit(u, json_string("conform"), "a string where a number is declared");
        if (c->u.num.has_minimum) {
            double m = c->u.num.minimum;
            bool ex = c->u.num.exclusive_minimum;
            double v = negative ? (ex ? m : m - 1)
                                : (ex ? (integer ? floor(m) + 1 : nextafter(m, INFINITY)) : m);
            snprintf(what, sizeof what, "%.17g (%s the %sminimum %.17g)", v,
                     negative ? "below" : "at", ex ? "exclusive " : "", m);
            json_t *j = number_of(c, v);
            if (j)
                emit(u, j, what);
        }
        if (c->u.num.has_maximum) {
            double m = c->u.num.maximum;
            bool ex = c->u.num.exclusive_maximum;
            double v = negative ? (ex ? m : m + 1)
                                : (ex ? (integer ? ceil(m) - 1 : nextafter(m, -INFINITY)) : m);
            snprintf(what, sizeof what, "%.17g (%s the %smaximum %.17g)", v,
                     negative ? "above" : "at", ex ? "exclusive " : "", m);
            json_t *j = number_of(c, v);
            if (j)
                emit(u, j, what);
        }
        break;
    }
    case SDKC_TYPE_STRING: {
        bool plain = !c->u.str.pattern && !c->u.str.format && !c->u.str.brand;
        if (negative && !in_param && !c->inferred)
            emit(u, json_integer(12345), "a number where a string is declared");
        if (c->u.str.has_max_length && c->u.str.max_length < MAX_TEXT) {
            size_t n = (size_t)c->u.str.max_length + (negative ? 1 : 0);
            snprintf(what, sizeof what, "a string of %zu characters (%s maxLength %zu)", n,
                     negative ? "above" : "at", (size_t)c->u.str.max_length);
            if (negative || plain)
                emit(u, text_of(n), what);
        }
        if (c->u.str.has_min_length && c->u.str.min_length < MAX_TEXT) {
            size_t m = (size_t)c->u.str.min_length;
            /* an empty parameter may read as an absent one */
            if (negative && m > (in_param ? 1u : 0u)) {
                snprintf(what, sizeof what, "a string of %zu characters (below minLength %zu)",
                         m - 1, m);
                emit(u, text_of(m - 1), what);
            } else if (!negative && plain && !(in_param && m == 0)) {
                snprintf(what, sizeof what, "a string of %zu characters (at minLength %zu)", m, m);
                emit(u, text_of(m), what);
            }
        }
        if (!negative && c->u.str.format && !c->u.str.brand)
            cover_format(c, emit, u);
        if (!negative && c->u.str.pattern && !c->u.str.brand)
            cover_pattern(c, in_param, emit, u);
        break;
    }
    case SDKC_TYPE_ARRAY: {
        if (in_param)
            break; /* an empty list is an absent parameter; more items need a style's rules */
        const sdkc_type *it = conform_unwrap_nullable(c->u.array.items);
        if (negative) {
            if (!c->inferred)
                emit(u, json_string("conform"), "a string where an array is declared");
            if (c->u.array.has_max_items && c->u.array.max_items < MAX_ITEMS) {
                const char *why = NULL;
                json_t *one = conform_synth(wk, MODE_VALID, c->u.array.items, &why);
                json_t *a = one ? json_array() : NULL;
                for (uint64_t i = 0; a && i <= c->u.array.max_items; i++)
                    json_array_append(a, one);
                snprintf(what, sizeof what, "%zu items (above maxItems %zu)",
                         (size_t)c->u.array.max_items + 1, (size_t)c->u.array.max_items);
                if (a)
                    emit(u, a, what);
                json_decref(one);
            }
            if (c->u.array.has_min_items && c->u.array.min_items > 0) {
                snprintf(what, sizeof what, "%zu items (below minItems %zu)",
                         (size_t)c->u.array.min_items - 1, (size_t)c->u.array.min_items);
                json_t *a = distinct_items(it, (size_t)c->u.array.min_items - 1);
                if (a)
                    emit(u, a, what);
            }
            if (c->u.array.unique_items &&
                (!c->u.array.has_max_items || c->u.array.max_items >= 2)) {
                /* the valid array (minItems distinct items) with its first item twice */
                const char *why = NULL;
                json_t *a = conform_synth(wk, MODE_VALID, c, &why);
                json_t *first = json_array_get(a, 0);
                if (first && json_array_size(a) < 2)
                    json_array_append(a, first);
                if (first && json_array_size(a) >= 2 &&
                    json_array_set_new(a, 1, json_deep_copy(first)) == 0)
                    emit(u, a, "an item twice (uniqueItems)");
                else
                    json_decref(a);
            }
        } else {
            if (!c->u.array.has_min_items || c->u.array.min_items == 0)
                emit(u, json_array(), "an empty array");
            if (c->u.array.has_max_items && c->u.array.max_items > 1 &&
                c->u.array.max_items <= MAX_ITEMS) {
                json_t *a = distinct_items(it, (size_t)c->u.array.max_items);
                snprintf(what, sizeof what, "%zu items (at maxItems)",
                         (size_t)c->u.array.max_items);
                if (a)
                    emit(u, a, what);
            }
        }
        break;
    }
    case SDKC_TYPE_OBJECT:
    case SDKC_TYPE_MAP:
        if (negative && !in_param && !c->inferred)
            emit(u, json_string("conform"), "a string where an object is declared");
        break;
    default:
        break;
    }
}

static const char *probe_name(probe_mode m)
{
    return m == MODE_EXAMPLE ? "examples" : m == MODE_COVERAGE ? "coverage" : "negative";
}

void conform_run_cases(worker *wk, const sdkc_operation *op, gen_list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        const gen_case *c = &l->items[i];
        expectation ex = {0, NULL, c->what, c->check};
        req_plan plan = {.mode = c->mode, .gc = c};
        probe_out out;
        /* an example paired with an error response is sent as a negative case, but it is
           the examples phase's */
        const char *probe =
            c->rule && strcmp(c->rule, "example") == 0 ? "examples" : probe_name(c->mode);
        conform_run_probe(wk, op, probe, &plan, &ex, &out);
        free(plan.why);
        conform_probe_out_cleanup(&out);
    }
}
