/* validate.c - JSON value against an IR type (wire projection), every deviation reported: the
 * validation object, its public API and the walk's dispatch on the type's kind. */
#include "validate_internal.h"

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
    conform_dev_list_clear(&v->devs);
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

/* ---- the walk ---- */

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

/* Local spelling of kind names (the IR's own table lives in the compiler). */
const char *conform_type_kind(sdkc_type_kind k)
{
    static const char *const names[] = {
        "string", "integer", "number", "boolean", "null",     "literal",     "enum", "array",
        "tuple",  "map",     "object", "union",   "nullable", "json-string", "any",  "never"};
    return (size_t)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

void conform_check_value(walk *w, const sdkc_type *t, const json_t *value)
{
    if (!t || !value)
        return;
    if (w->depth >= w->v->max_depth) {
        conform_report(w, "depth", "nesting deeper than %zu levels; not checked further",
                       w->v->max_depth);
        return;
    }
    if (inferred_elsewhere(t, value))
        return;
    w->depth++;
    switch (t->kind) {
    case SDKC_TYPE_STRING:
        conform_check_string(w, t, value);
        break;
    case SDKC_TYPE_INTEGER:
    case SDKC_TYPE_NUMBER:
        conform_check_number(w, t, value);
        break;
    case SDKC_TYPE_BOOLEAN:
        if (!json_is_boolean(value))
            conform_report_type(w, "boolean", value);
        break;
    case SDKC_TYPE_NULL:
        if (!json_is_null(value))
            conform_report_type(w, "null", value);
        break;
    case SDKC_TYPE_LITERAL:
        conform_check_literal(w, t, value);
        break;
    case SDKC_TYPE_ENUM:
        conform_check_enum(w, t, value);
        break;
    case SDKC_TYPE_ARRAY:
        conform_check_array(w, t, value);
        break;
    case SDKC_TYPE_TUPLE:
        conform_check_tuple(w, t, value);
        break;
    case SDKC_TYPE_MAP:
        conform_check_map(w, t, value);
        break;
    case SDKC_TYPE_OBJECT:
        conform_check_object(w, t, value);
        break;
    case SDKC_TYPE_UNION:
        conform_check_union(w, t, value);
        break;
    case SDKC_TYPE_NULLABLE:
        if (!json_is_null(value))
            conform_check_value(w, t->u.nullable.inner, value);
        else if (t->u.nullable.lenient)
            conform_report(w, "type",
                           "null where the contract declares %s (the IR accepts null here only "
                           "as a leniency for SDKs)",
                           t->u.nullable.inner ? conform_type_kind(t->u.nullable.inner->kind)
                                               : "a value");
        break;
    case SDKC_TYPE_JSON_STRING:
        conform_check_json_string(w, t, value);
        break;
    case SDKC_TYPE_ANY:
        break;
    case SDKC_TYPE_NEVER:
        conform_report_type(w, "nothing (never)", value);
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
    conform_check_value(&w, type, value);
    bool oom = v->oom || path.oom;
    sdkc_buf_cleanup(&path);
    return oom ? SDKC_ERR_NOMEM : SDKC_OK;
}
