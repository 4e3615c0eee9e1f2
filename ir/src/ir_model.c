/* ir_model.c - the IR model's own functions: one spelling table per enum (the compiler, the IR JSON
 * writer and reader all use these), lookups in a finished IR, and the owner of a compiled IR. */
#include <stdlib.h>
#include <string.h>

#include "ir_internal.h"
#include "sdkc/compile.h"

/* ---- spellings ---- */

const char *const sdkc_type_kind_names[SDKC_NTYPE_KINDS] = {
    "string", "integer", "number", "boolean", "null",     "literal",     "enum", "array",
    "tuple",  "map",     "object", "union",   "nullable", "json-string", "any",  "never",
};
const char *const sdkc_literal_kind_names[4] = {"string", "number", "boolean", "null"};
const char *const sdkc_param_in_names[4] = {"path", "query", "header", "cookie"};
const char *const sdkc_param_style_names[7] = {"simple", "form",           "deepObject",   "label",
                                               "matrix", "spaceDelimited", "pipeDelimited"};
const char *const sdkc_encoding_names[5] = {"none", "json", "sse", "bytes", "text"};
const char *const sdkc_page_style_names[7] = {"cursor-object", "cursor-token", "cursor-item",
                                              "next-url",      "link-header",  "page-number",
                                              "offset"};
const char *const sdkc_page_source_names[3] = {"heuristic", "extension", "config"};
const char *const sdkc_group_source_names[5] = {"none", "extension", "operation-id", "tag", "path"};

int sdkc_spelling_index(const char *const *names, size_t n, const char *s)
{
    for (size_t i = 0; s && i < n; i++)
        if (strcmp(names[i], s) == 0)
            return (int)i;
    return -1;
}

/* The spelling of value v in table names (of n), or fallback when v is out of range. */
static const char *spelling(const char *const *names, size_t n, size_t v, const char *fallback)
{
    return v < n ? names[v] : fallback;
}

#define SPELLING(names, v, fallback)                                                               \
    spelling(names, sizeof(names) / sizeof((names)[0]), (size_t)(v), fallback)

const char *sdkc_type_kind_name(sdkc_type_kind k)
{
    return SPELLING(sdkc_type_kind_names, k, "any");
}

const char *sdkc_param_in_name(sdkc_param_in in)
{
    return SPELLING(sdkc_param_in_names, in, "query");
}

const char *sdkc_param_style_name(sdkc_param_style style)
{
    return SPELLING(sdkc_param_style_names, style, "simple");
}

const char *sdkc_encoding_name(sdkc_encoding e)
{
    return SPELLING(sdkc_encoding_names, e, "none");
}

const char *sdkc_page_style_name(sdkc_page_style s)
{
    return SPELLING(sdkc_page_style_names, s, "offset");
}

bool sdkc_page_style_parse(const char *name, sdkc_page_style *out)
{
    int i = SDKC_SPELLING_INDEX(sdkc_page_style_names, name);
    if (i >= 0)
        *out = (sdkc_page_style)i;
    return i >= 0;
}

const char *sdkc_page_source_name(sdkc_page_source s)
{
    return SPELLING(sdkc_page_source_names, s, "heuristic");
}

bool sdkc_page_source_parse(const char *name, sdkc_page_source *out)
{
    int i = SDKC_SPELLING_INDEX(sdkc_page_source_names, name);
    if (i >= 0)
        *out = (sdkc_page_source)i;
    return i >= 0;
}

const char *sdkc_group_source_name(sdkc_group_source s)
{
    return SPELLING(sdkc_group_source_names, s, "none");
}

bool sdkc_group_source_parse(const char *name, sdkc_group_source *out)
{
    int i = SDKC_SPELLING_INDEX(sdkc_group_source_names, name);
    if (i >= 0)
        *out = (sdkc_group_source)i;
    return i >= 0;
}

/* ---- queries ---- */

const sdkc_type *sdkc_type_strip_nullable(const sdkc_type *t)
{
    /* bounded: `A: anyOf [$ref A, null]` makes a nullable of itself */
    for (int i = 0; i < 64 && t && t->kind == SDKC_TYPE_NULLABLE; i++)
        t = t->u.nullable.inner;
    return t && t->kind == SDKC_TYPE_NULLABLE ? NULL : t;
}

const sdkc_field *sdkc_type_field(const sdkc_type *t, const char *wire)
{
    return sdkc_object_field(sdkc_type_strip_nullable(t), wire);
}

const sdkc_field *sdkc_object_field(const sdkc_type *t, const char *wire)
{
    if (!t || t->kind != SDKC_TYPE_OBJECT)
        return NULL;
    for (size_t i = 0; i < t->u.object.nfields; i++)
        if (strcmp(t->u.object.fields[i].wire_name, wire) == 0)
            return &t->u.object.fields[i];
    return NULL;
}

const sdkc_param *sdkc_op_query_param(const sdkc_operation *op, const char *name)
{
    for (size_t i = 0; name && i < op->nparams; i++)
        if (op->params[i].in == SDKC_PARAM_QUERY && strcmp(op->params[i].wire_name, name) == 0)
            return &op->params[i];
    return NULL;
}

const sdkc_operation *sdkc_ir_operation(const sdkc_ir *ir, const char *id)
{
    if (!ir || !id)
        return NULL;
    for (size_t i = 0; i < ir->nops; i++)
        if (ir->ops[i].id && strcmp(ir->ops[i].id, id) == 0)
            return &ir->ops[i];
    return NULL;
}

const sdkc_type *sdkc_ir_type(const sdkc_ir *ir, const char *name)
{
    if (!ir || !name)
        return NULL;
    size_t lo = 0, hi = ir->ntypes;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int r = strcmp(ir->types[mid]->name, name);
        if (r == 0)
            return ir->types[mid];
        if (r < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

const char *sdkc_ir_default_server(const sdkc_ir *ir)
{
    return ir && ir->nservers && ir->servers[0].absolute ? ir->servers[0].url : NULL;
}

/* ---- owner ---- */

sdkc_status sdkc_compiled_new(sdkc_compiled **out)
{
    *out = NULL;
    sdkc_compiled *c = calloc(1, sizeof *c);
    if (!c)
        return SDKC_ERR_NOMEM;
    if (sdkc_arena_new(&c->arena) != SDKC_OK) {
        free(c);
        return SDKC_ERR_NOMEM;
    }
    *out = c;
    return SDKC_OK;
}

void sdkc_compiled_free(sdkc_compiled *c)
{
    if (!c)
        return;
    sdkc_arena_free(c->arena);
    free(c);
}

const sdkc_ir *sdkc_compiled_ir(const sdkc_compiled *c)
{
    return c ? &c->ir : NULL;
}
