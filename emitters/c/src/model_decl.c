/* C spellings shared by the output kinds: descriptor names, member and pointer declarations, the
 * accessors of union common fields, and how generated code reaches a struct's fields. */
#include "emit_internal.h"

#include <stdio.h>
#include <string.h>

const char *emit_desc_name(emit_ctx *cx, const ctype *c)
{
    return sdkc_arena_printf(cx->arena, "%s__j%s_%s", cx->prefix, c->is_struct ? "" : "x", c->base);
}

/* The member declaration of a storage type: "oc_x name" / "char *name". */
void emit_put_member(sdkc_buf *b, const ctype *c, const char *name, bool boxed)
{
    size_t n = strlen(c->cdecl);
    if (boxed)
        sdkc_buf_printf(b, "struct %s *%s;", c->cdecl, name);
    else if (n && c->cdecl[n - 1] == '*')
        sdkc_buf_printf(b, "%s%s;", c->cdecl, name);
    else
        sdkc_buf_printf(b, "%s %s;", c->cdecl, name);
}

/* A pointer to a const cdecl: "const oc_x *", and for a pointer type "json_t *const *". */
const char *emit_const_ptr(emit_ctx *cx, const char *cdecl)
{
    size_t n = strlen(cdecl);
    return n && cdecl[n - 1] == '*' ? sdkc_arena_printf(cx->arena, "%sconst *", cdecl)
                                    : sdkc_arena_printf(cx->arena, "const %s *", cdecl);
}

const char *emit_ptr_decl(emit_ctx *cx, const char *cdecl)
{
    size_t n = strlen(cdecl);
    return sdkc_arena_printf(cx->arena, "%s%s*", cdecl, n && cdecl[n - 1] == '*' ? "" : " ");
}

/* A member of an input twin: borrowed, so every pointer is to const. */
void emit_put_in_member(emit_ctx *cx, sdkc_buf *b, const ctype *c, const char *name, bool boxed)
{
    const char *d = emit_in_decl(cx, c);
    if (boxed)
        sdkc_buf_printf(b, "const struct %s *%s;", c->twin ? c->twin : c->cdecl, name);
    else if (d[strlen(d) - 1] == '*')
        sdkc_buf_printf(b, "%s%s;", d, name);
    else
        sdkc_buf_printf(b, "%s %s;", d, name);
}

/* What a common-field accessor returns: a pointer member as itself, anything else by address. */
const char *emit_common_ret(emit_ctx *cx, const cfield *f)
{
    size_t n = strlen(f->type->cdecl);
    if (f->boxed || (n && f->type->cdecl[n - 1] == '*'))
        return sdkc_arena_printf(cx->arena, "const %s%s", f->type->cdecl, f->boxed ? " *" : "");
    return sdkc_arena_printf(cx->arena, "const %s *", f->type->cdecl);
}

const cfield *emit_find_field(const ctype *obj, const char *wire)
{
    if (!obj || !obj->fields || !wire)
        return NULL;
    for (size_t i = 0; i < obj->nfields; i++) {
        if (!strcmp(obj->fields[i].f->wire_name, wire))
            return &obj->fields[i];
    }
    return NULL;
}

/* C condition that field f of the struct pointed to by v holds a value. */
const char *emit_field_present(emit_ctx *cx, const char *v, const cfield *f)
{
    const char *fn = f->cname;
    const char *has = f->f->required ? "1" : sdkc_arena_printf(cx->arena, "%s->has_%s", v, fn);
    const char *nn = f->nullable ? sdkc_arena_printf(cx->arena, "!%s->%s_null", v, fn) : "1";
    return sdkc_arena_printf(cx->arena, "(%s && %s)", has, nn);
}

const char *emit_field_value(emit_ctx *cx, const char *v, const cfield *f)
{
    return sdkc_arena_printf(cx->arena, "%s%s->%s", f->boxed ? "*" : "", v, f->cname);
}

size_t emit_common_stored(const ctype *c)
{
    size_t n = 0;
    for (size_t i = 0; c->common && i < c->ncommon; i++)
        n += c->common[i].in[0]->type->stores;
    return n;
}
