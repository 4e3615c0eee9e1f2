/* Names, TypeScript text, type expressions, and the two modules made of types: types.ts (every
 * named type and brand) and errors.ts (one Error class per declared `_tag`). */
#include "ts_internal.h"
#include "sdkc/naming.h"

#include <stdlib.h>
#include <string.h>

/* ---- a set of names ---- */

bool ts_names_has(const ts_names *s, const char *name)
{
    return sdkc_map_get(&s->map, name) != NULL;
}

bool ts_names_add(ts_names *s, const char *name)
{
    if (ts_names_has(s, name))
        return false;
    if (!sdkc_map_put(&s->map, name, (void *)name)) {
        s->oom = true;
        return false;
    }
    return true;
}

void ts_names_free(ts_names *s)
{
    sdkc_map_cleanup(&s->map);
    s->oom = false;
}

const char *ts_unique(ts_ctx *cx, ts_names *s, const char *base)
{
    const char *name = base;
    for (unsigned n = 2; name && ts_names_has(s, name); n++)
        name = sdkc_arena_printf(cx->arena, "%s%u", base, n);
    if (!name || !ts_names_add(s, name)) {
        cx->oom = true;
        return "X";
    }
    return name;
}

const char *ts_pascal(ts_ctx *cx, const char *s)
{
    char *p = sdkc_pascal_case(cx->arena, s ? s : "X");
    if (!p) {
        cx->oom = true;
        return "X";
    }
    return p;
}

const char *ts_camel(ts_ctx *cx, const char *s)
{
    char *p = (char *)ts_pascal(cx, s);
    if (p[0] >= 'A' && p[0] <= 'Z' && !cx->oom)
        p[0] = (char)(p[0] - 'A' + 'a');
    return p;
}

bool ts_is_ident(const char *s)
{
    if (!s || !*s || (*s >= '0' && *s <= '9'))
        return false;
    for (const char *p = s; *p; p++) {
        char c = *p;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '$'))
            return false;
    }
    return true;
}

/* ---- text ---- */

void ts_put_key(sdkc_buf *b, const char *s)
{
    if (ts_is_ident(s))
        sdkc_buf_puts(b, s);
    else
        ts_put_string(b, s);
}

void ts_put_doc(sdkc_buf *b, const char *indent, const char *docs, const char *extra)
{
    if (docs && extra && strcmp(docs, extra) == 0)
        extra = NULL;
    sdkc_kit_put_doc(b, SDKC_KIT_DOC_JSDOC, indent, docs, extra);
}

/* ---- type expressions ---- */

static int type_cmp(const void *key, const void *elem)
{
    return strcmp((const char *)key, (*(const sdkc_type *const *)elem)->name);
}

const char *ts_type_name(const ts_ctx *cx, const sdkc_type *t)
{
    if (!t->name)
        return NULL;
    const sdkc_type *const *hit =
        bsearch(t->name, cx->ir->types, cx->ir->ntypes, sizeof *cx->ir->types, type_cmp);
    if (!hit || *hit != t)
        return NULL;
    return cx->type_names[hit - cx->ir->types];
}

static const char *brand_name(const ts_ctx *cx, const sdkc_brand *br)
{
    for (size_t i = 0; i < cx->ir->nbrands; i++) {
        if (&cx->ir->brands[i] == br)
            return cx->brand_names[i];
    }
    return NULL;
}

static void put_literal(sdkc_buf *b, const sdkc_literal *l)
{
    if (l->kind == SDKC_LIT_STRING)
        ts_put_string(b, l->text);
    else
        sdkc_buf_puts(b, l->text);
}

/* Needs parentheses before [] or inside a union/intersection? */
static bool compound(const ts_ctx *cx, const sdkc_type *t)
{
    if (ts_type_name(cx, t))
        return false;
    switch (t->kind) {
    case SDKC_TYPE_ENUM:
    case SDKC_TYPE_UNION:
    case SDKC_TYPE_NULLABLE:
        return true;
    case SDKC_TYPE_STRING:
        return sdkc_kit_is_binary(t);
    default:
        return false;
    }
}

static void put_fields(const ts_ctx *cx, sdkc_buf *b, const sdkc_type *t, const char *q,
                       const char *indent, int depth);

static void put_type_at(const ts_ctx *cx, sdkc_buf *b, const sdkc_type *t, const char *q, int depth,
                        bool top)
{
    const char *name = top ? NULL : ts_type_name(cx, t);
    if (name) {
        sdkc_buf_printf(b, "%s%s", q, name);
        return;
    }
    if (depth > 48) { /* anonymous shapes nested this deep: cut the recursion */
        sdkc_buf_puts(b, "unknown");
        return;
    }
    switch (t->kind) {
    case SDKC_TYPE_STRING: {
        const char *bn = t->u.str.brand ? brand_name(cx, t->u.str.brand) : NULL;
        if (bn)
            sdkc_buf_printf(b, "%s%s", q, bn);
        else if (sdkc_kit_is_binary(t))
            sdkc_buf_puts(b, "rt.Binary | string");
        else
            sdkc_buf_puts(b, "string");
        break;
    }
    case SDKC_TYPE_INTEGER:
    case SDKC_TYPE_NUMBER:
        sdkc_buf_puts(b, "number");
        break;
    case SDKC_TYPE_BOOLEAN:
        sdkc_buf_puts(b, "boolean");
        break;
    case SDKC_TYPE_NULL:
        sdkc_buf_puts(b, "null");
        break;
    case SDKC_TYPE_LITERAL:
        put_literal(b, &t->u.literal);
        break;
    case SDKC_TYPE_ENUM:
        for (size_t i = 0; i < t->u.enumeration.nvalues; i++) {
            ts_put_string(b, t->u.enumeration.values[i]);
            sdkc_buf_puts(b, " | ");
        }
        sdkc_buf_puts(b, "(string & {})"); /* open: a value this SDK does not know is kept */
        break;
    case SDKC_TYPE_ARRAY: {
        bool paren = compound(cx, t->u.array.items);
        sdkc_buf_puts(b, paren ? "(" : "");
        put_type_at(cx, b, t->u.array.items, q, depth + 1, false);
        sdkc_buf_puts(b, paren ? ")[]" : "[]");
        break;
    }
    case SDKC_TYPE_TUPLE:
        sdkc_buf_puts(b, "[");
        for (size_t i = 0; i < t->u.tuple.nitems; i++) {
            if (i)
                sdkc_buf_puts(b, ", ");
            put_type_at(cx, b, t->u.tuple.items[i], q, depth + 1, false);
        }
        if (t->u.tuple.rest) {
            bool paren = compound(cx, t->u.tuple.rest);
            sdkc_buf_printf(b, "%s...%s", t->u.tuple.nitems ? ", " : "", paren ? "(" : "");
            put_type_at(cx, b, t->u.tuple.rest, q, depth + 1, false);
            sdkc_buf_puts(b, paren ? ")[]" : "[]");
        }
        sdkc_buf_puts(b, "]");
        break;
    case SDKC_TYPE_MAP:
        sdkc_buf_puts(b, "{ [key: string]: ");
        put_type_at(cx, b, t->u.map.value, q, depth + 1, false);
        sdkc_buf_puts(b, " }");
        break;
    case SDKC_TYPE_OBJECT:
        sdkc_buf_puts(b, "{");
        put_fields(cx, b, t, q, NULL, depth + 1);
        sdkc_buf_puts(b, " }");
        break;
    case SDKC_TYPE_UNION:
        if (!t->u.union_.nvariants)
            sdkc_buf_puts(b, "never");
        for (size_t i = 0; i < t->u.union_.nvariants; i++) {
            if (i)
                sdkc_buf_puts(b, " | ");
            put_type_at(cx, b, t->u.union_.variants[i].type, q, depth + 1, false);
        }
        break;
    case SDKC_TYPE_NULLABLE:
        put_type_at(cx, b, t->u.nullable.inner, q, depth + 1, false);
        sdkc_buf_puts(b, " | null");
        break;
    case SDKC_TYPE_JSON_STRING:
        sdkc_buf_puts(b, "string"); /* the wire text; docs name its content type */
        break;
    case SDKC_TYPE_ANY:
        sdkc_buf_puts(b, "unknown");
        break;
    case SDKC_TYPE_NEVER:
        sdkc_buf_puts(b, "never");
        break;
    }
}

void ts_put_type(const ts_ctx *cx, sdkc_buf *b, const sdkc_type *t, const char *q)
{
    put_type_at(cx, b, t, q, 0, false);
}

/* The members of an object: one a line under indent, or inline when indent is NULL. */
static void put_fields(const ts_ctx *cx, sdkc_buf *b, const sdkc_type *t, const char *q,
                       const char *indent, int depth)
{
    for (size_t i = 0; i < t->u.object.nfields; i++) {
        const sdkc_field *f = &t->u.object.fields[i];
        if (indent) {
            ts_put_doc(b, indent, f->docs, NULL);
            sdkc_buf_puts(b, indent);
        } else {
            sdkc_buf_puts(b, " ");
        }
        ts_put_key(b, f->wire_name);
        sdkc_buf_puts(b, f->required ? ": " : "?: ");
        put_type_at(cx, b, f->type, q, depth, false);
        sdkc_buf_puts(b, indent ? ";\n" : ";");
    }
    if (t->u.object.additional) {
        sdkc_buf_puts(b, indent ? indent : " ");
        /* typed extras beside named fields: unknown keeps every field's type compatible */
        if (t->u.object.nfields || t->u.object.additional->kind == SDKC_TYPE_ANY) {
            sdkc_buf_puts(b, "[key: string]: unknown;");
        } else {
            sdkc_buf_puts(b, "[key: string]: ");
            put_type_at(cx, b, t->u.object.additional, q, depth, false);
            sdkc_buf_puts(b, ";");
        }
        sdkc_buf_puts(b, indent ? "\n" : "");
    }
}

/* ---- types.ts ---- */

sdkc_status ts_emit_types(ts_ctx *cx, sdkc_buf *b)
{
    const sdkc_ir *ir = cx->ir;
    sdkc_kit_banner(b, ir, "types.ts: the named types of the contract and its brands");
    sdkc_buf_puts(b, "import type * as rt from './runtime.js';\n\n");
    sdkc_buf_puts(b, "/** Keeps `import type * as rt` in use when no type needs it. */\n"
                     "export type BinaryValue = rt.Binary;\n\n");
    for (size_t i = 0; i < ir->nbrands; i++) {
        const sdkc_brand *br = &ir->brands[i];
        sdkc_buf_puts(b, "/** An identifier (pattern `");
        if (br->pattern) /* a regex may hold a comment's end */
            sdkc_kit_put_comment_text(b, br->pattern, strlen(br->pattern));
        sdkc_buf_puts(b, "`): a string of its own at compile time. */\n");
        sdkc_buf_printf(b, "export type %s = string & { readonly __brand: ", cx->brand_names[i]);
        ts_put_string(b, br->name);
        sdkc_buf_puts(b, " };\n\n");
    }
    for (size_t i = 0; i < ir->ntypes; i++) {
        const sdkc_type *t = ir->types[i];
        const char *name = cx->type_names[i];
        if (!name)
            continue;
        const char *docs = t->docs;
        if (t->kind == SDKC_TYPE_JSON_STRING && t->u.json_string.media_type) {
            docs = sdkc_arena_printf(cx->arena, "%s%sThe %s text of a value.", docs ? docs : "",
                                     docs ? "\n" : "", t->u.json_string.media_type);
            if (!docs)
                return SDKC_ERR_NOMEM;
        }
        ts_put_doc(b, "", docs, NULL);
        if (t->kind == SDKC_TYPE_OBJECT) {
            sdkc_buf_printf(b, "export interface %s {\n", name);
            put_fields(cx, b, t, "", "  ", 1);
            sdkc_buf_puts(b, "}\n\n");
        } else {
            sdkc_buf_printf(b, "export type %s = ", name);
            put_type_at(cx, b, t, "", 0, true);
            sdkc_buf_puts(b, ";\n\n");
        }
    }
    return sdkc_buf_finish(b);
}

/* ---- errors.ts ---- */

/* Members of Error and of DeclaredError: a payload field of that name stays on `payload` only. */
static const char *const error_reserved = "'_tag' | 'name' | 'message' | 'stack' | 'cause' | "
                                          "'status' | 'payload'";

sdkc_status ts_emit_errors(ts_ctx *cx, sdkc_buf *b)
{
    sdkc_kit_banner(b, cx->ir, "errors.ts: the declared domain errors");
    sdkc_buf_puts(b, "// One class per _tag, and a guard that checks the tag, not the class: "
                     "errors of another\n// copy of the package pass it too.\n");
    sdkc_buf_puts(b,
                  "import * as rt from './runtime.js';\nimport type * as T from './types.js';\n\n");
    for (size_t i = 0; i < cx->ntags; i++) {
        const ts_tag *g = &cx->tags[i];
        const sdkc_type *t = g->type;
        const char *tn = ts_type_name(cx, t);
        sdkc_buf_printf(b, "/** `_tag` ");
        ts_put_string(b, g->tag);
        sdkc_buf_puts(b, ": a declared error; its payload's fields are on the error too. */\n");
        sdkc_buf_printf(b,
                        "export class %s extends rt.DeclaredError {\n  readonly _tag = ", g->cls);
        ts_put_string(b, g->tag);
        sdkc_buf_puts(b, " as const;\n  static readonly tag = ");
        ts_put_string(b, g->tag);
        sdkc_buf_puts(b, ";\n  declare readonly payload: ");
        ts_put_type(cx, b, t, "T.");
        sdkc_buf_puts(b, ";\n  constructor(status: number, payload: unknown) {\n"
                         "    super(status, payload, ");
        ts_put_string(b, g->tag);
        sdkc_buf_puts(b, ");\n  }\n}\n");
        /* The payload's fields as members (declaration merging), when they are known. */
        if (tn && t->kind == SDKC_TYPE_OBJECT && !t->u.object.additional)
            sdkc_buf_printf(b, "export interface %s extends Omit<T.%s, %s> {}\n", g->cls, tn,
                            error_reserved);
        sdkc_buf_printf(b,
                        "/** Is e a %s (by its `_tag`, from any copy of this package)? */\n"
                        "export function is%s(e: unknown): e is %s {\n  return rt.hasTag(e, ",
                        g->cls, g->cls, g->cls);
        ts_put_string(b, g->tag);
        sdkc_buf_puts(b, ");\n}\n\n");
    }
    sdkc_buf_puts(b, "/** Every declared error class by its tag (used by the client). */\n"
                     "export const ERRORS: Readonly<Record<string, new (status: number, payload: "
                     "unknown) => rt.DeclaredError>> = {\n");
    for (size_t i = 0; i < cx->ntags; i++) {
        sdkc_buf_puts(b, "  ");
        ts_put_string(b, cx->tags[i].tag);
        sdkc_buf_printf(b, ": %s,\n", cx->tags[i].cls);
    }
    sdkc_buf_puts(b, "};\n");
    return sdkc_buf_finish(b);
}
