/* validate_object.c - the validator's containers: arrays (with uniqueItems' JSON equality),
 * tuples, maps and objects. */
#include "validate_internal.h"

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
                conform_report(w, "unique", "items %zu and %zu are equal (uniqueItems)", j, i);
                return;
            }
}

void conform_check_array(walk *w, const sdkc_type *t, const json_t *value)
{
    if (!json_is_array(value)) {
        conform_report_type(w, "array", value);
        return;
    }
    size_t n = json_array_size(value);
    if (t->u.array.has_min_items && n < t->u.array.min_items)
        conform_report(w, "bounds", "%zu items, fewer than minItems %llu", n,
                       (unsigned long long)t->u.array.min_items);
    if (t->u.array.has_max_items && n > t->u.array.max_items)
        conform_report(w, "bounds", "%zu items, more than maxItems %llu", n,
                       (unsigned long long)t->u.array.max_items);
    if (t->u.array.unique_items)
        check_unique(w, value);
    size_t base = w->path->len;
    for (size_t i = 0; i < n; i++) {
        sdkc_buf_printf(w->path, "[%zu]", i);
        conform_check_value(w, t->u.array.items, json_array_get(value, i));
        conform_path_truncate(w->path, base);
    }
}

void conform_check_tuple(walk *w, const sdkc_type *t, const json_t *value)
{
    if (!json_is_array(value)) {
        conform_report_type(w, "array (tuple)", value);
        return;
    }
    size_t n = json_array_size(value);
    if (n < t->u.tuple.nitems)
        conform_report(w, "bounds", "tuple of %zu items, %zu required", n, t->u.tuple.nitems);
    else if (n > t->u.tuple.nitems && !t->u.tuple.rest)
        conform_report(w, "bounds", "tuple of %zu items, at most %zu allowed", n,
                       t->u.tuple.nitems);
    size_t base = w->path->len;
    for (size_t i = 0; i < n; i++) {
        const sdkc_type *it = i < t->u.tuple.nitems ? t->u.tuple.items[i] : t->u.tuple.rest;
        if (!it)
            break;
        sdkc_buf_printf(w->path, "[%zu]", i);
        conform_check_value(w, it, json_array_get(value, i));
        conform_path_truncate(w->path, base);
    }
}

void conform_check_map(walk *w, const sdkc_type *t, const json_t *value)
{
    if (!json_is_object(value)) {
        conform_report_type(w, "object (map)", value);
        return;
    }
    size_t base = w->path->len;
    const char *key;
    json_t *member;
    json_object_foreach((json_t *)value, key, member)
    {
        conform_path_key(w->path, key);
        if (t->u.map.key_pattern)
            conform_check_pattern(w, t->u.map.key_pattern, key, strlen(key), "key ");
        if (t->u.map.value)
            conform_check_value(w, t->u.map.value, member);
        conform_path_truncate(w->path, base);
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
        conform_path_key(w->path, name);
        conform_report(w, "required", "required field \"%s\" is missing", name);
        conform_path_truncate(w->path, base);
    }
}

void conform_check_object(walk *w, const sdkc_type *t, const json_t *value)
{
    if (!json_is_object(value)) {
        conform_report_type(w, t->name ? t->name : "object", value);
        return;
    }
    size_t base = w->path->len;
    for (size_t i = 0; i < t->u.object.nfields; i++) {
        const sdkc_field *f = &t->u.object.fields[i];
        json_t *member = json_object_get(value, f->wire_name);
        conform_path_key(w->path, f->wire_name);
        if (!member) {
            if (f->required)
                conform_report(w, "required", "required field \"%s\" is missing", f->wire_name);
        } else {
            conform_check_value(w, f->type, member);
        }
        conform_path_truncate(w->path, base);
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
        conform_path_key(w->path, key);
        if (!t->u.object.additional)
            conform_report(w, "closed-object", "property \"%s\" is not declared by %s", key,
                           t->name ? t->name : "the closed object");
        else
            conform_check_value(w, t->u.object.additional, member);
        conform_path_truncate(w->path, base);
    }
}
