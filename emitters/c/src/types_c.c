/* src/types.c and src/internal.h: each value type's static sdkrt_jtype descriptor (libsdkrt's
 * table-driven JSON code decodes, encodes and frees with it), the per-type functions, and the
 * layout checks of input twins. */
#include "emit_internal.h"

#include <stdio.h>
#include <string.h>

static void emit_descriptor(emit_ctx *cx, sdkc_buf *b, const ctype *c)
{
    const char *dn = emit_desc_name(cx, c);
    const sdkc_type *t = c->t;
    if (c->nfields) {
        sdkc_buf_printf(b, "static const sdkrt_jfield %s_f[] = {\n", dn);
        for (size_t i = 0; i < c->nfields; i++) {
            const cfield *f = &c->fields[i];
            const char *fn = f->cname;
            sdkc_buf_puts(b, "    {");
            sdkc_kit_put_c_string(b, f->f->wire_name);
            /* a required writeOnly field binds requests only: a response may leave it out */
            bool req = f->f->required && !f->f->write_only;
            const char *flags =
                sdkc_arena_printf(cx->arena, "%s%s%s", req ? " | SDKRT_JF_REQUIRED" : "",
                                  f->boxed ? " | SDKRT_JF_BOXED" : "",
                                  f->f->read_only ? " | SDKRT_JF_READ_ONLY" : "");
            sdkc_buf_printf(b, ", &%s, %s, ", emit_desc_name(cx, f->type),
                            flags && *flags ? flags + 3 : "0");
            if (f->type->stores)
                sdkc_buf_printf(b, "offsetof(%s, %s), ", c->cdecl, fn);
            else
                sdkc_buf_puts(b, "SDKRT_JNONE, ");
            if (!f->f->required)
                sdkc_buf_printf(b, "offsetof(%s, has_%s), ", c->cdecl, fn);
            else
                sdkc_buf_puts(b, "SDKRT_JNONE, ");
            if (f->nullable)
                sdkc_buf_printf(b, "offsetof(%s, %s_null)},\n", c->cdecl, fn);
            else
                sdkc_buf_puts(b, "SDKRT_JNONE},\n");
        }
        sdkc_buf_puts(b, "};\n");
    }
    if (c->nvariants) {
        sdkc_buf_printf(b, "static const sdkrt_jvariant %s_v[] = {\n", dn);
        for (size_t i = 0; i < c->nvariants; i++) {
            const cvariant *v = &c->variants[i];
            sdkc_buf_puts(b, "    {");
            if (v->v->tag)
                sdkc_kit_put_c_string(b, v->v->tag);
            else
                sdkc_buf_puts(b, "NULL");
            sdkc_buf_printf(b, ", &%s, %s},\n", emit_desc_name(cx, v->type),
                            v->boxed ? "SDKRT_JF_BOXED" : "0");
        }
        sdkc_buf_puts(b, "};\n");
    }
    if (emit_common_stored(c)) {
        sdkc_buf_printf(b, "static const sdkrt_jfield %s_cf[] = {\n", dn);
        for (size_t i = 0; i < c->ncommon; i++) {
            const cfield *f = c->common[i].in[0];
            if (!f->type->stores)
                continue;
            sdkc_buf_puts(b, "    {");
            sdkc_kit_put_c_string(b, f->f->wire_name);
            sdkc_buf_printf(b,
                            ", &%s, %s, offsetof(%s_common, %s), offsetof(%s_common, has_%s), "
                            "SDKRT_JNONE},\n",
                            emit_desc_name(cx, f->type), f->boxed ? "SDKRT_JF_BOXED" : "0",
                            c->cdecl, f->cname, c->cdecl, f->cname);
        }
        sdkc_buf_printf(b,
                        "};\nstatic const sdkrt_jtype %s_common = {SDKRT_JK_OBJECT, \"%s_common\", "
                        "sizeof(%s_common), NULL, %s_cf, %zu, NULL, 0, NULL, 0, NULL, 0, NULL, "
                        "NULL};\n",
                        dn, c->base, c->cdecl, dn, emit_common_stored(c));
    }
    bool is_enum = !strcmp(c->jk, "SDKRT_JK_ENUM");
    if (is_enum && t->u.enumeration.nvalues) {
        sdkc_buf_printf(b, "static const char *const %s_e[] = {", dn);
        for (size_t i = 0; i < t->u.enumeration.nvalues; i++) {
            sdkc_buf_puts(b, i ? ", " : "");
            sdkc_kit_put_c_string(b, t->u.enumeration.values[i]);
        }
        sdkc_buf_puts(b, "};\n");
    }
    sdkc_buf_printf(b, "const sdkrt_jtype %s = {%s, ", dn, c->jk);
    sdkc_kit_put_c_string(b, c->t->name ? c->t->name : c->base);
    if (c->stores)
        sdkc_buf_printf(b, ", sizeof(%s)", c->cdecl);
    else
        sdkc_buf_puts(b, ", 1");
    sdkc_buf_printf(b, ", %s%s", c->inner ? "&" : "",
                    c->inner ? emit_desc_name(cx, c->inner) : "NULL");
    if (c->nfields)
        sdkc_buf_printf(b, ", %s_f, %zu", dn, c->nfields);
    else
        sdkc_buf_puts(b, ", NULL, 0");
    if (c->nvariants)
        sdkc_buf_printf(b, ", %s_v, %zu", dn, c->nvariants);
    else
        sdkc_buf_puts(b, ", NULL, 0");
    if (!strcmp(c->jk, "SDKRT_JK_UNION")) {
        sdkc_buf_puts(b, ", ");
        if (t->u.union_.discriminator)
            sdkc_kit_put_c_string(b, t->u.union_.discriminator);
        else
            sdkc_buf_puts(b, "NULL");
        sdkc_buf_printf(b, ", offsetof(%s, u)", c->cdecl);
    } else {
        sdkc_buf_puts(b, ", NULL, 0");
    }
    if (is_enum && t->u.enumeration.nvalues)
        sdkc_buf_printf(b, ", %s_e, %zu", dn, t->u.enumeration.nvalues);
    else
        sdkc_buf_puts(b, ", NULL, 0");
    if (c->literal) {
        sdkc_buf_puts(b, ", ");
        sdkc_kit_put_c_string(b, c->literal);
    } else {
        sdkc_buf_puts(b, ", NULL");
    }
    if (emit_common_stored(c))
        sdkc_buf_printf(b, ", &%s_common};\n\n", dn);
    else
        sdkc_buf_puts(b, ", NULL};\n\n");
}

static void emit_union_funcs(emit_ctx *cx, sdkc_buf *b, const ctype *c)
{
    const char *n = c->cdecl;
    const char *disc = c->t->u.union_.discriminator;
    if (disc) {
        sdkc_buf_printf(b,
                        "const char *%s_tag(const %s *value)\n{\n    if (!value)\n"
                        "        return NULL;\n    switch (value->kind) {\n",
                        n, n);
        for (size_t i = 0; i < c->nvariants; i++) {
            if (!c->variants[i].v->tag)
                continue;
            sdkc_buf_printf(b, "    case %s:\n        return ", c->consts[i]);
            sdkc_kit_put_c_string(b, c->variants[i].v->tag);
            sdkc_buf_puts(b, ";\n");
        }
        sdkc_buf_puts(b, "    default:\n        break;\n    }\n"
                         "    return json_string_value(json_object_get(value->unknown, ");
        sdkc_kit_put_c_string(b, disc);
        sdkc_buf_puts(b, "));\n}\n\n");
    }
    /* the kind names, read by PREFIX_T_kind_name (a macro in types.h) */
    sdkc_buf_printf(b, "const char *const %s__k_%s[] = {\"unknown\"", cx->prefix, c->base);
    for (size_t i = 0; i < c->nvariants; i++) {
        sdkc_buf_puts(b, ", ");
        sdkc_kit_put_c_string(b, c->variants[i].v->safe_name);
    }
    sdkc_buf_puts(b, "};\n\n");
    for (size_t i = 0; i < c->ncommon; i++) {
        const ccommon *cm = &c->common[i];
        const cfield *f0 = cm->in[0];
        size_t len = strlen(f0->type->cdecl);
        bool by_value = !f0->boxed && !(len && f0->type->cdecl[len - 1] == '*');
        sdkc_buf_printf(b,
                        "%s%s_%s(const %s *value)\n{\n    if (!value)\n        return NULL;\n"
                        "    switch (value->kind) {\n",
                        emit_common_ret(cx, f0), cx->prefix, cm->accessor, n);
        for (size_t k = 0; k < c->nvariants; k++) {
            const cfield *f = cm->in[k];
            /* value->u.v.f, or value->u.v->f for a boxed variant */
            const char *m =
                sdkc_arena_printf(cx->arena, "value->u.%s%s", c->variants[k].v->safe_name,
                                  c->variants[k].boxed ? "->" : ".");
            const char *cond = NULL;
            if (!f->f->required)
                cond = sdkc_arena_printf(cx->arena, "%shas_%s", m, f->cname);
            if (f->nullable)
                cond = sdkc_arena_printf(cx->arena, "%s%s!%s%s_null", cond ? cond : "",
                                         cond ? " && " : "", m, f->cname);
            const char *val =
                sdkc_arena_printf(cx->arena, "%s%s%s", by_value ? "&" : "", m, f->cname);
            if (cond)
                sdkc_buf_printf(b, "    case %s:\n        return %s ? %s : NULL;\n", c->consts[k],
                                cond, val);
            else
                sdkc_buf_printf(b, "    case %s:\n        return %s;\n", c->consts[k], val);
        }
        if (f0->type->stores && emit_common_stored(c))
            sdkc_buf_printf(b,
                            "    case %s:\n        return value->u.common_.has_%s ? "
                            "%svalue->u.common_.%s : NULL;\n",
                            c->unknown_const, f0->cname, by_value ? "&" : "", f0->cname);
        sdkc_buf_puts(b, "    default:\n        return NULL;\n    }\n}\n\n");
    }
}

static void emit_type_funcs(emit_ctx *cx, sdkc_buf *b, const ctype *c)
{
    if (c->t->kind == SDKC_TYPE_UNION)
        emit_union_funcs(cx, b, c);
}

void emit_internal_h(emit_ctx *cx, sdkc_buf *b, ctype **sorted, size_t n)
{
    sdkc_kit_banner(b, cx->ir,
                    "internal.h: descriptors shared by the SDK's sources (not installed)");
    sdkc_buf_printf(b, "#ifndef %s_INTERNAL_H\n#define %s_INTERNAL_H\n\n", cx->upper, cx->upper);
    sdkc_buf_printf(b, "#include \"%s/%s.h\"\n\n", cx->prefix, cx->prefix);
    /* The descriptors are shared by types.c and ops.c only: not exported from a shared library. */
    sdkc_buf_printf(b,
                    "#if defined(__GNUC__) && !defined(_WIN32)\n"
                    "#define %s_INTERNAL __attribute__((visibility(\"hidden\")))\n#else\n"
                    "#define %s_INTERNAL\n#endif\n\n",
                    cx->upper, cx->upper);
    /* the struct types' descriptors are public: types.h declares them for its macros */
    for (size_t i = 0; i < n; i++)
        if (!sorted[i]->is_struct)
            sdkc_buf_printf(b, "extern %s_INTERNAL const sdkrt_jtype %s;\n", cx->upper,
                            emit_desc_name(cx, sorted[i]));
    sdkc_buf_printf(b, "\n#endif\n");
}

/* A twin is encoded with its value type's descriptor: the compiler checks that the layouts
 * agree, member by member. */
static void emit_twin_asserts(sdkc_buf *b, const ctype *c)
{
    const char *n = c->twin, *o = c->cdecl;
    sdkc_buf_printf(b, "_Static_assert(sizeof(%s) == sizeof(%s) && _Alignof(%s) == _Alignof(%s)", n,
                    o, n, o);
    const char *m[4] = {NULL, NULL, NULL, NULL};
    if (c->is_brand) {
        m[0] = "value";
    } else if (!strcmp(c->jk, "SDKRT_JK_ARRAY")) {
        m[0] = "items", m[1] = "count";
    } else if (!strcmp(c->jk, "SDKRT_JK_MAP")) {
        m[0] = "keys", m[1] = "values", m[2] = "count";
    } else if (c->t->kind == SDKC_TYPE_ENUM) {
        m[0] = "value", m[1] = "unknown";
    } else if (c->t->kind == SDKC_TYPE_UNION) {
        m[0] = "kind", m[1] = "unknown", m[2] = "u";
    }
    for (size_t i = 0; m[i]; i++)
        sdkc_buf_printf(b, "\n               && SAME_AT(%s, %s, %s)", n, o, m[i]);
    for (size_t i = 0; !m[0] && i < c->nfields; i++) {
        const cfield *f = &c->fields[i];
        if (!f->f->required)
            sdkc_buf_printf(b, "\n               && SAME_AT(%s, %s, has_%s)", n, o, f->cname);
        if (f->nullable)
            sdkc_buf_printf(b, "\n               && SAME_AT(%s, %s, %s_null)", n, o, f->cname);
        if (f->type->stores)
            sdkc_buf_printf(b, "\n               && SAME_AT(%s, %s, %s)", n, o, f->cname);
    }
    sdkc_buf_printf(b, ",\n               \"%s has the layout of %s\");\n", n, o);
}

void emit_types_c(emit_ctx *cx, sdkc_buf *b, ctype **sorted, size_t n)
{
    sdkc_kit_banner(b, cx->ir, "types.c: value descriptors and per-type functions");
    sdkc_buf_puts(b, "#include <stddef.h>\n\n#include \"internal.h\"\n\n");
    bool twins = false;
    for (size_t i = 0; i < cx->norder; i++) {
        if (!cx->order[i]->twin)
            continue;
        if (!twins)
            sdkc_buf_puts(b, "/* Requests take input twins and are encoded with the value types' "
                             "descriptors. */\n#define SAME_AT(a, b, m) (offsetof(a, m) == "
                             "offsetof(b, m))\n");
        twins = true;
        emit_twin_asserts(b, cx->order[i]);
    }
    if (twins)
        sdkc_buf_puts(b, "#undef SAME_AT\n\n");
    for (size_t i = 0; i < n; i++)
        emit_descriptor(cx, b, sorted[i]);
    /* what the per-type macros of types.h share */
    const char *P = cx->prefix;
    sdkc_buf_printf(
        b,
        "%s_status %s__decode(const sdkrt_jtype *type, void *out, const json_t *json, "
        "const char *path,\n    %s_error **err)\n{\n"
        "    return sdkrt_json_decode(type, out, json, path, err);\n}\n\n"
        "%s_status %s__encode(const sdkrt_jtype *type, const void *value, json_t **out, "
        "%s_error **err)\n{\n    return sdkrt_json_encode(type, value, out, err);\n}\n\n"
        "void %s__cleanup(const sdkrt_jtype *type, void *value)\n{\n"
        "    sdkrt_json_cleanup(type, value);\n}\n\n"
        "void %s__free(const sdkrt_jtype *type, void *value)\n{\n"
        "    sdkrt_json_value_free(type, value);\n}\n\n"
        "const char *%s__wire(const sdkrt_jtype *type, const void *value)\n{\n"
        "    return value ? sdkrt_json_enum_wire(type, value) : NULL;\n}\n\n"
        "const char *%s__name_at(const char *const *names, size_t count, int kind)\n{\n"
        "    return kind >= 0 && (size_t)kind < count ? names[kind] : NULL;\n}\n\n",
        P, P, P, P, P, P, P, P, P, P);
    for (size_t i = 0; i < cx->norder; i++)
        emit_type_funcs(cx, b, cx->order[i]);
}
