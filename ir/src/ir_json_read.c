/* ir_json_read.c - "sdkc-ir/1" JSON back into an IR (docs/ir-format.md): the member accessors
 * that report what is wrong, the brands, schemes, servers and named types, and the entry point.
 * Operations and webhooks are ir_json_read_ops.c's. Writing the result again gives the same bytes.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir_json_internal.h"
#include "sdkc/compile.h"
#include "sdkc/ir_json.h"

void sdkc_irj_error(reader *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sdkc_loc loc = {r->name, 0, 0};
    sdkc_diag_vadd(r->diag, SDKC_SEV_ERROR, loc, fmt, ap);
    va_end(ap);
    r->errors++;
}

static bool rfailed(const reader *r)
{
    return r->errors > 0 || r->nomem;
}

void *sdkc_irj_alloc(reader *r, size_t n)
{
    if (n == 0)
        return NULL;
    void *p = sdkc_arena_alloc(r->arena, n);
    if (!p)
        r->nomem = true;
    return p;
}

char *sdkc_irj_strdup(reader *r, const char *s)
{
    char *p = sdkc_arena_strdup(r->arena, s);
    if (!p)
        r->nomem = true;
    return p;
}

/* Optional string member: NULL when absent or null. */
const char *sdkc_irj_get_str(reader *r, const json_t *obj, const char *key, const char *where)
{
    const json_t *v = json_object_get(obj, key);
    if (!v || json_is_null(v))
        return NULL;
    if (!json_is_string(v)) {
        sdkc_irj_error(r, "%s: \"%s\" must be a string", where, key);
        return NULL;
    }
    return sdkc_irj_strdup(r, json_string_value(v));
}

const char *sdkc_irj_need_str(reader *r, const json_t *obj, const char *key, const char *where)
{
    const json_t *v = json_object_get(obj, key);
    if (!v || !json_is_string(v)) {
        sdkc_irj_error(r, "%s: missing string \"%s\"", where, key);
        return NULL;
    }
    return sdkc_irj_strdup(r, json_string_value(v));
}

bool sdkc_irj_get_bool(reader *r, const json_t *obj, const char *key, const char *where)
{
    const json_t *v = json_object_get(obj, key);
    if (!v)
        return false;
    if (!json_is_boolean(v)) {
        sdkc_irj_error(r, "%s: \"%s\" must be true or false", where, key);
        return false;
    }
    return json_is_true(v);
}

/* Optional unsigned integer; *has tells whether it was there. */
static uint64_t get_uint(reader *r, const json_t *obj, const char *key, bool *has,
                         const char *where)
{
    const json_t *v = json_object_get(obj, key);
    *has = false;
    if (!v)
        return 0;
    if (!json_is_integer(v) || json_integer_value(v) < 0) {
        sdkc_irj_error(r, "%s: \"%s\" must be a non-negative integer", where, key);
        return 0;
    }
    *has = true;
    return (uint64_t)json_integer_value(v);
}

static double get_number(reader *r, const json_t *obj, const char *key, bool *has,
                         const char *where)
{
    const json_t *v = json_object_get(obj, key);
    *has = false;
    if (!v)
        return 0;
    if (!json_is_number(v)) {
        sdkc_irj_error(r, "%s: \"%s\" must be a number", where, key);
        return 0;
    }
    *has = true;
    return json_number_value(v);
}

static int need_int(reader *r, const json_t *obj, const char *key, const char *where)
{
    const json_t *v = json_object_get(obj, key);
    if (!v || !json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > 999) {
        sdkc_irj_error(r, "%s: \"%s\" must be an HTTP status", where, key);
        return 0;
    }
    return (int)json_integer_value(v);
}

/* A status written by v_status: a number, "1XX".."5XX" or "default". */
int sdkc_irj_need_status(reader *r, const json_t *obj, const char *key, const char *where)
{
    const char *s = json_string_value(json_object_get(obj, key));
    if (!s) {
        /* as the writer writes them: an HTTP status, or 0 for a success that is any 2xx */
        int v = need_int(r, obj, key, where);
        if (v != 0 && (v < 100 || v > 599))
            sdkc_irj_error(r, "%s: \"%s\" must be an HTTP status, \"NXX\" or \"default\"", where,
                           key);
        return v;
    }
    if (strcmp(s, "default") == 0)
        return SDKC_STATUS_DEFAULT;
    if (strlen(s) == 3 && s[0] >= '1' && s[0] <= '5' && s[1] == 'X' && s[2] == 'X')
        return s[0] - '0';
    sdkc_irj_error(r, "%s: \"%s\" must be an HTTP status, \"NXX\" or \"default\"", where, key);
    return 0;
}

const json_t *sdkc_irj_get_array(reader *r, const json_t *obj, const char *key, bool required,
                                 const char *where)
{
    const json_t *v = json_object_get(obj, key);
    if (!v && !required)
        return NULL;
    if (!v || !json_is_array(v)) {
        sdkc_irj_error(r, "%s: \"%s\" must be an array", where, key);
        return NULL;
    }
    return v;
}

sdkc_loc sdkc_irj_get_loc(reader *r, const json_t *obj, const char *where)
{
    sdkc_loc loc = {NULL, 0, 0};
    const json_t *v = json_object_get(obj, "loc");
    if (!v)
        return loc;
    unsigned line = 0, col = 0;
    char tail = 0;
    if (!json_is_string(v) || sscanf(json_string_value(v), "%u:%u%c", &line, &col, &tail) != 2 ||
        line == 0) {
        sdkc_irj_error(r, "%s: \"loc\" must be \"LINE:COL\"", where);
        return loc;
    }
    loc.file = r->file;
    loc.line = line;
    loc.col = col;
    return loc;
}

int sdkc_irj_get_enum(reader *r, const json_t *obj, const char *key, sdkc_irj_enum e,
                      const char *where)
{
    const json_t *v = json_object_get(obj, key);
    int i = v && json_is_string(v) ? sdkc_irj_enum_value(e, json_string_value(v)) : -1;
    if (i < 0)
        sdkc_irj_error(r, "%s: \"%s\" has no valid value", where, key);
    return i < 0 ? 0 : i;
}

static const sdkc_type *read_type(reader *r, const json_t *v, const char *where, int depth);

/* A type use: null (NULL), {"ref": NAME}, a bare NAME string where names are allowed, or an
 * inline definition. */
const sdkc_type *sdkc_irj_read_ref(reader *r, const json_t *v, bool names_ok, const char *where,
                                   int depth)
{
    if (!v || json_is_null(v))
        return NULL;
    const char *name = NULL;
    if (names_ok && json_is_string(v))
        name = json_string_value(v);
    else if (json_is_object(v) && json_object_get(v, "ref")) {
        const json_t *ref = json_object_get(v, "ref");
        if (!json_is_string(ref) || json_object_size(v) != 1) {
            sdkc_irj_error(r, "%s: a reference is {\"ref\": NAME} and nothing else", where);
            return NULL;
        }
        name = json_string_value(ref);
    }
    if (name) {
        sdkc_type *t = sdkc_map_get(&r->named, name);
        if (!t)
            sdkc_irj_error(r, "%s: unknown type \"%s\"", where, name);
        return t;
    }
    return read_type(r, v, where, depth + 1);
}

static const sdkc_brand *find_brand(reader *r, const char *name, const char *where)
{
    for (size_t i = 0; i < r->ir->nbrands; i++)
        if (strcmp(r->ir->brands[i].name, name) == 0)
            return &r->ir->brands[i];
    sdkc_irj_error(r, "%s: unknown brand \"%s\"", where, name);
    return NULL;
}

/* Optional array of strings (NULL and *n 0 when absent). */
const char *const *sdkc_irj_get_strs(reader *r, const json_t *obj, const char *key, size_t *n,
                                     const char *where)
{
    const json_t *arr = sdkc_irj_get_array(r, obj, key, false, where);
    size_t len = json_array_size(arr);
    const char **v = len ? sdkc_irj_alloc(r, len * sizeof *v) : NULL;
    *n = 0;
    for (size_t i = 0; v && i < len; i++) {
        const char *s = json_string_value(json_array_get(arr, i));
        if (!s) {
            sdkc_irj_error(r, "%s: \"%s\" must hold strings", where, key);
            return NULL;
        }
        v[i] = sdkc_irj_strdup(r, s);
    }
    *n = v ? len : 0;
    return v;
}

/* A named type built from a component schema's own node: how IR written before `declared`
 * existed tells it (the compiler's rule). */
static bool component_root(const char *origin)
{
    static const char comp[] = "/components/schemas/";
    return origin && strncmp(origin, comp, sizeof comp - 1) == 0 &&
           !strchr(origin + sizeof comp - 1, '/');
}

static void read_fields(reader *r, sdkc_type *t, const json_t *arr, const char *where, int depth)
{
    size_t n = json_array_size(arr);
    sdkc_field *fields = sdkc_irj_alloc(r, n * sizeof *fields);
    if (n && !fields)
        return;
    for (size_t i = 0; i < n; i++) {
        const json_t *fo = json_array_get(arr, i);
        char fw[512];
        snprintf(fw, sizeof fw, "%s.fields[%zu]", where, i);
        if (!json_is_object(fo)) {
            sdkc_irj_error(r, "%s: must be an object", fw);
            continue;
        }
        sdkc_field *f = &fields[i];
        f->wire_name = sdkc_irj_need_str(r, fo, "name", fw);
        f->safe_name = sdkc_irj_get_str(r, fo, "safe_name", fw);
        f->type = sdkc_irj_read_ref(r, json_object_get(fo, "type"), false, fw, depth);
        if (!f->type && !rfailed(r))
            sdkc_irj_error(r, "%s: missing \"type\"", fw);
        f->required = sdkc_irj_get_bool(r, fo, "required", fw);
        f->read_only = sdkc_irj_get_bool(r, fo, "read_only", fw);
        f->write_only = sdkc_irj_get_bool(r, fo, "write_only", fw);
        f->docs = sdkc_irj_get_str(r, fo, "docs", fw);
        f->loc = sdkc_irj_get_loc(r, fo, fw);
    }
    t->u.object.fields = fields;
    t->u.object.nfields = n;
}

/* Fill t from its definition object. */
static void fill_type(reader *r, sdkc_type *t, const json_t *o, const char *where, int depth)
{
    if (depth > 4096) {
        sdkc_irj_error(r, "%s: types nested too deeply", where);
        return;
    }
    t->kind = (sdkc_type_kind)sdkc_irj_get_enum(r, o, "kind", SDKC_IRJ_KIND, where);
    t->docs = sdkc_irj_get_str(r, o, "docs", where);
    t->origin = sdkc_irj_get_str(r, o, "origin", where);
    t->recursive = sdkc_irj_get_bool(r, o, "recursive", where);
    /* IR written before `declared` existed: a named type whose origin is a component schema */
    t->declared = json_object_get(o, "declared") ? sdkc_irj_get_bool(r, o, "declared", where)
                                                 : t->name && component_root(t->origin);
    t->inferred = sdkc_irj_get_bool(r, o, "inferred", where);
    t->loc = sdkc_irj_get_loc(r, o, where);
    bool has = false;
    switch (t->kind) {
    case SDKC_TYPE_STRING: {
        t->u.str.format = sdkc_irj_get_str(r, o, "format", where);
        t->u.str.pattern = sdkc_irj_get_str(r, o, "pattern", where);
        const char *brand = sdkc_irj_get_str(r, o, "brand", where);
        if (brand)
            t->u.str.brand = find_brand(r, brand, where);
        t->u.str.min_length = get_uint(r, o, "min_length", &has, where);
        t->u.str.has_min_length = has;
        t->u.str.max_length = get_uint(r, o, "max_length", &has, where);
        t->u.str.has_max_length = has;
        t->u.str.examples = sdkc_irj_get_strs(r, o, "examples", &t->u.str.nexamples, where);
        break;
    }
    case SDKC_TYPE_INTEGER:
    case SDKC_TYPE_NUMBER:
        t->u.num.format = sdkc_irj_get_str(r, o, "format", where);
        t->u.num.minimum = get_number(r, o, "minimum", &has, where);
        t->u.num.has_minimum = has;
        t->u.num.maximum = get_number(r, o, "maximum", &has, where);
        t->u.num.has_maximum = has;
        t->u.num.exclusive_minimum = sdkc_irj_get_bool(r, o, "exclusive_minimum", where);
        t->u.num.exclusive_maximum = sdkc_irj_get_bool(r, o, "exclusive_maximum", where);
        break;
    case SDKC_TYPE_LITERAL:
        t->u.literal.kind =
            (sdkc_literal_kind)sdkc_irj_get_enum(r, o, "literal_kind", SDKC_IRJ_LITERAL, where);
        t->u.literal.text = sdkc_irj_get_str(r, o, "value", where);
        break;
    case SDKC_TYPE_ENUM: {
        const json_t *vals = sdkc_irj_get_array(r, o, "values", true, where);
        const json_t *safe = sdkc_irj_get_array(r, o, "safe_values", true, where);
        if (!vals || !safe)
            break;
        size_t n = json_array_size(vals);
        if (json_array_size(safe) != n) {
            sdkc_irj_error(r, "%s: \"values\" and \"safe_values\" differ in length", where);
            break;
        }
        const char **v = sdkc_irj_alloc(r, n * sizeof *v), **s = sdkc_irj_alloc(r, n * sizeof *s);
        if (n && (!v || !s))
            break;
        for (size_t i = 0; i < n; i++) {
            const json_t *a = json_array_get(vals, i), *b = json_array_get(safe, i);
            if (!json_is_string(a) || !(json_is_string(b) || json_is_null(b))) {
                sdkc_irj_error(r, "%s: enum values must be strings", where);
                break;
            }
            v[i] = sdkc_irj_strdup(r, json_string_value(a));
            s[i] = json_is_null(b) ? NULL : sdkc_irj_strdup(r, json_string_value(b));
        }
        t->u.enumeration.values = v;
        t->u.enumeration.safe_values = s;
        t->u.enumeration.nvalues = n;
        break;
    }
    case SDKC_TYPE_ARRAY:
        t->u.array.items = sdkc_irj_read_ref(r, json_object_get(o, "items"), false, where, depth);
        t->u.array.min_items = get_uint(r, o, "min_items", &has, where);
        t->u.array.has_min_items = has;
        t->u.array.max_items = get_uint(r, o, "max_items", &has, where);
        t->u.array.has_max_items = has;
        t->u.array.unique_items = sdkc_irj_get_bool(r, o, "unique_items", where);
        break;
    case SDKC_TYPE_TUPLE: {
        const json_t *items = sdkc_irj_get_array(r, o, "items", true, where);
        size_t n = json_array_size(items);
        const sdkc_type **ts = sdkc_irj_alloc(r, n * sizeof *ts);
        for (size_t i = 0; ts && i < n; i++)
            ts[i] = sdkc_irj_read_ref(r, json_array_get(items, i), false, where, depth);
        t->u.tuple.items = ts;
        t->u.tuple.nitems = ts ? n : 0;
        t->u.tuple.rest = sdkc_irj_read_ref(r, json_object_get(o, "rest"), false, where, depth);
        break;
    }
    case SDKC_TYPE_MAP:
        t->u.map.value = sdkc_irj_read_ref(r, json_object_get(o, "value"), false, where, depth);
        t->u.map.key_pattern = sdkc_irj_get_str(r, o, "key_pattern", where);
        break;
    case SDKC_TYPE_OBJECT: {
        const json_t *fields = sdkc_irj_get_array(r, o, "fields", true, where);
        if (fields)
            read_fields(r, t, fields, where, depth);
        t->u.object.required_only =
            sdkc_irj_get_strs(r, o, "required_only", &t->u.object.nrequired_only, where);
        t->u.object.additional =
            sdkc_irj_read_ref(r, json_object_get(o, "additional"), false, where, depth);
        break;
    }
    case SDKC_TYPE_UNION: {
        t->u.union_.discriminator = sdkc_irj_get_str(r, o, "discriminator", where);
        const json_t *vars = sdkc_irj_get_array(r, o, "variants", true, where);
        size_t n = json_array_size(vars);
        sdkc_variant *vs = sdkc_irj_alloc(r, n * sizeof *vs);
        for (size_t i = 0; vs && i < n; i++) {
            const json_t *vo = json_array_get(vars, i);
            if (!json_is_object(vo)) {
                sdkc_irj_error(r, "%s: variants must be objects", where);
                break;
            }
            vs[i].tag = sdkc_irj_get_str(r, vo, "tag", where);
            vs[i].safe_name = sdkc_irj_get_str(r, vo, "safe_name", where);
            vs[i].type = sdkc_irj_read_ref(r, json_object_get(vo, "type"), false, where, depth);
        }
        t->u.union_.variants = vs;
        t->u.union_.nvariants = vs ? n : 0;
        break;
    }
    case SDKC_TYPE_NULLABLE:
        t->u.nullable.inner =
            sdkc_irj_read_ref(r, json_object_get(o, "inner"), false, where, depth);
        t->u.nullable.lenient = sdkc_irj_get_bool(r, o, "lenient", where);
        break;
    case SDKC_TYPE_JSON_STRING:
        t->u.json_string.media_type = sdkc_irj_get_str(r, o, "media_type", where);
        t->u.json_string.content =
            sdkc_irj_read_ref(r, json_object_get(o, "content"), false, where, depth);
        break;
    case SDKC_TYPE_ANY:
        t->u.any.fallback_reason = sdkc_irj_get_str(r, o, "fallback_reason", where);
        break;
    case SDKC_TYPE_BOOLEAN:
    case SDKC_TYPE_NULL:
    case SDKC_TYPE_NEVER:
        break;
    }
}

static const sdkc_type *read_type(reader *r, const json_t *v, const char *where, int depth)
{
    if (!json_is_object(v)) {
        sdkc_irj_error(r, "%s: a type must be an object", where);
        return NULL;
    }
    sdkc_type *t = sdkc_irj_alloc(r, sizeof *t);
    if (!t)
        return NULL;
    t->name = sdkc_irj_get_str(r, v, "name", where);
    t->safe_name = sdkc_irj_get_str(r, v, "safe_name", where);
    fill_type(r, t, v, where, depth);
    return t;
}

static void read_schemes(reader *r, const json_t *arr)
{
    size_t n = json_array_size(arr);
    sdkc_security_scheme *s = sdkc_irj_alloc(r, n * sizeof *s);
    for (size_t i = 0; s && i < n; i++) {
        const json_t *o = json_array_get(arr, i);
        if (!json_is_object(o)) {
            sdkc_irj_error(r, "security_schemes[%zu]: must be an object", i);
            continue;
        }
        s[i].name = sdkc_irj_need_str(r, o, "name", "security_schemes");
        s[i].type = sdkc_irj_get_str(r, o, "type", "security_schemes");
        s[i].scheme = sdkc_irj_get_str(r, o, "scheme", "security_schemes");
        s[i].in = sdkc_irj_get_str(r, o, "in", "security_schemes");
        s[i].param = sdkc_irj_get_str(r, o, "param", "security_schemes");
        s[i].implied = sdkc_irj_get_bool(r, o, "implied", "security_schemes");
    }
    r->ir->schemes = s;
    r->ir->nschemes = s ? n : 0;
}

static void read_servers(reader *r, const json_t *arr)
{
    size_t n = json_array_size(arr);
    sdkc_server *s = n ? sdkc_irj_alloc(r, n * sizeof *s) : NULL;
    for (size_t i = 0; s && i < n; i++) {
        const json_t *o = json_array_get(arr, i);
        if (!json_is_object(o)) {
            sdkc_irj_error(r, "servers[%zu]: must be an object", i);
            continue;
        }
        s[i].url = sdkc_irj_need_str(r, o, "url", "servers");
        s[i].description = sdkc_irj_get_str(r, o, "description", "servers");
        s[i].absolute = sdkc_irj_get_bool(r, o, "absolute", "servers");
        s[i].loc = sdkc_irj_get_loc(r, o, "servers");
    }
    r->ir->servers = s;
    r->ir->nservers = s ? n : 0;
}

static void read_brands(reader *r, const json_t *arr)
{
    size_t n = json_array_size(arr);
    sdkc_brand *b = sdkc_irj_alloc(r, n * sizeof *b);
    for (size_t i = 0; b && i < n; i++) {
        const json_t *o = json_array_get(arr, i);
        if (!json_is_object(o)) {
            sdkc_irj_error(r, "brands[%zu]: must be an object", i);
            continue;
        }
        bool has = false;
        b[i].name = sdkc_irj_need_str(r, o, "name", "brands");
        b[i].safe_name = sdkc_irj_get_str(r, o, "safe_name", "brands");
        b[i].prefix = sdkc_irj_get_str(r, o, "prefix", "brands");
        b[i].pattern = sdkc_irj_get_str(r, o, "pattern", "brands");
        b[i].uses = (size_t)get_uint(r, o, "uses", &has, "brands");
        if (!b[i].name)
            b[i].name = "";
    }
    r->ir->brands = b;
    r->ir->nbrands = b ? n : 0;
}

static void read_types(reader *r, const json_t *arr)
{
    size_t n = json_array_size(arr);
    sdkc_type **ts = sdkc_irj_alloc(r, n * sizeof *ts);
    if (n && !ts)
        return;
    if (!sdkc_map_reserve(&r->named, n)) {
        r->nomem = true;
        return;
    }
    /* Two passes: every name exists before any definition refers to it (types may be
       recursive). */
    for (size_t i = 0; i < n; i++) {
        const json_t *o = json_array_get(arr, i);
        char where[64];
        snprintf(where, sizeof where, "types[%zu]", i);
        ts[i] = sdkc_irj_alloc(r, sizeof **ts);
        if (!ts[i])
            return;
        if (!json_is_object(o)) {
            sdkc_irj_error(r, "%s: must be an object", where);
            continue;
        }
        ts[i]->name = sdkc_irj_need_str(r, o, "name", where);
        ts[i]->safe_name = sdkc_irj_get_str(r, o, "safe_name", where);
        if (ts[i]->name && sdkc_map_get(&r->named, ts[i]->name))
            sdkc_irj_error(r, "%s: type \"%s\" is defined twice", where, ts[i]->name);
        else if (ts[i]->name && !sdkc_map_put(&r->named, ts[i]->name, ts[i]))
            r->nomem = true;
    }
    for (size_t i = 0; i < n && !r->nomem; i++) {
        const json_t *o = json_array_get(arr, i);
        if (!json_is_object(o) || !ts[i]->name)
            continue;
        char where[600];
        snprintf(where, sizeof where, "type %s", ts[i]->name);
        fill_type(r, ts[i], o, where, 0);
    }
    r->ir->types = (const sdkc_type *const *)ts;
    r->ir->ntypes = n;
}

sdkc_status sdkc_ir_from_json(sdkc_compiled **out, const char *name, const char *json, size_t len,
                              sdkc_diag *diag)
{
    sdkc_status st = SDKC_ERR_INVALID;
    sdkc_compiled *c = NULL;
    json_t *root = NULL;
    reader r;
    memset(&r, 0, sizeof r);
    *out = NULL;

    json_error_t jerr;
    root = json_loadb(json, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        sdkc_loc loc = {name, jerr.line > 0 ? (uint32_t)jerr.line : 1,
                        jerr.column > 0 ? (uint32_t)jerr.column : 1};
        sdkc_diag_add(diag, SDKC_SEV_ERROR, loc, "%s", jerr.text);
        goto done;
    }
    st = sdkc_compiled_new(&c);
    if (st != SDKC_OK)
        goto done;
    st = SDKC_ERR_INVALID;
    r.arena = c->arena;
    r.diag = diag;
    r.name = name;
    r.ir = &c->ir;

    if (!json_is_object(root)) {
        sdkc_irj_error(&r, "the IR must be a JSON object");
        goto done;
    }
    const json_t *fmt = json_object_get(root, "format");
    if (!json_is_string(fmt) || strcmp(json_string_value(fmt), SDKC_IR_FORMAT) != 0) {
        sdkc_irj_error(&r, "\"format\" is not \"%s\"", SDKC_IR_FORMAT);
        goto done;
    }
    const json_t *src = json_object_get(root, "source");
    if (json_is_object(src)) {
        c->ir.source_name = sdkc_irj_get_str(&r, src, "name", "source");
        c->ir.source_sha256 = sdkc_irj_get_str(&r, src, "sha256", "source");
    }
    r.file = c->ir.source_name;
    const json_t *info = json_object_get(root, "info");
    if (json_is_object(info)) {
        c->ir.title = sdkc_irj_get_str(&r, info, "title", "info");
        c->ir.version = sdkc_irj_get_str(&r, info, "version", "info");
        c->ir.description = sdkc_irj_get_str(&r, info, "description", "info");
    }
    read_servers(&r, sdkc_irj_get_array(&r, root, "servers", false, "IR"));
    c->ir.auth_unspecified = sdkc_irj_get_bool(&r, root, "auth_unspecified", "IR");
    const json_t *schemes = sdkc_irj_get_array(&r, root, "security_schemes", true, "IR");
    const json_t *brands = sdkc_irj_get_array(&r, root, "brands", true, "IR");
    const json_t *types = sdkc_irj_get_array(&r, root, "types", true, "IR");
    const json_t *ops = sdkc_irj_get_array(&r, root, "operations", true, "IR");
    if (rfailed(&r))
        goto done;
    read_schemes(&r, schemes);
    read_brands(&r, brands);
    read_types(&r, types);
    if (rfailed(&r))
        goto done;
    size_t nops = json_array_size(ops);
    sdkc_operation *opv = sdkc_irj_alloc(&r, nops * sizeof *opv);
    for (size_t i = 0; opv && i < nops; i++) {
        const json_t *o = json_array_get(ops, i);
        if (!json_is_object(o)) {
            sdkc_irj_error(&r, "operations[%zu]: must be an object", i);
            continue;
        }
        sdkc_irj_read_operation(&r, &opv[i], o);
    }
    c->ir.ops = opv;
    c->ir.nops = opv ? nops : 0;
    const json_t *hooks = sdkc_irj_get_array(&r, root, "webhooks", false, "IR");
    size_t nhooks = json_array_size(hooks);
    sdkc_webhook *hv = nhooks ? sdkc_irj_alloc(&r, nhooks * sizeof *hv) : NULL;
    for (size_t i = 0; hv && i < nhooks; i++) {
        const json_t *o = json_array_get(hooks, i);
        if (!json_is_object(o)) {
            sdkc_irj_error(&r, "webhooks[%zu]: must be an object", i);
            continue;
        }
        sdkc_irj_read_webhook(&r, &hv[i], o, i);
    }
    c->ir.webhooks = hv;
    c->ir.nwebhooks = hv ? nhooks : 0;
    if (r.nomem) {
        st = SDKC_ERR_NOMEM;
        goto done;
    }
    if (r.errors)
        goto done;
    *out = c;
    c = NULL;
    st = SDKC_OK;
done:
    sdkc_map_cleanup(&r.named);
    json_decref(root);
    sdkc_compiled_free(c);
    return st;
}
