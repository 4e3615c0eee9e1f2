/* The C emitter: writes the SDK's headers, sources, build files and README from the IR.
 *
 * Generated code is thin: each value type is described by a static sdkrt_jtype descriptor and
 * libsdkrt's table-driven JSON code (sdkrt/json.h) decodes, encodes and frees it; each operation
 * builds an sdkrt_request and hands it with an sdkrt_jop descriptor to the runtime. */
#include "emit_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- per-operation model ---- */

/* cop: see emit_internal.h */

/* ---- media types ---- */

emit_media_kind emit_media_of(const char *ct)
{
    if (strstr(ct, "json"))
        return MEDIA_JSON;
    if (!strncmp(ct, "application/x-www-form-urlencoded", 33))
        return MEDIA_FORM;
    if (!strncmp(ct, "multipart/form-data", 19))
        return MEDIA_MULTIPART;
    return MEDIA_OTHER;
}

bool emit_is_binary(const sdkc_type *t)
{
    while (t && t->kind == SDKC_TYPE_NULLABLE)
        t = t->u.nullable.inner;
    return t && t->kind == SDKC_TYPE_STRING && t->u.str.format &&
           !strcmp(t->u.str.format, "binary");
}

/* ---- text helpers ---- */

static void put_c_string(sdkc_buf *b, const char *s)
{
    sdkc_buf_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            sdkc_buf_printf(b, "\\%c", *p);
        else if (*p == '?')
            sdkc_buf_puts(b, "\\?");
        else if (*p < 0x20 || *p >= 0x7f)
            sdkc_buf_printf(b, "\\%03o", *p);
        else
            sdkc_buf_putc(b, (char)*p);
    }
    sdkc_buf_putc(b, '"');
}

/* A comment line body: no comment terminators, no trigraphs, printable. */
static void put_comment_text(sdkc_buf *b, const char *s, size_t n)
{
    size_t run = 0; /* start of the bytes copied as they are, appended in one go */
    for (size_t i = 0; i < n; i++) {
        /* Skip to the next byte that may need replacing (s is NUL-terminated at or after n; the
         * newline bounds the scan of a line cut short by the caller). */
        i += strcspn(s + i, "*/?\\\t\r\n");
        if (i >= n)
            break;
        char c = s[i];
        const char *rep = NULL;
        if (c == '*' && i + 1 < n && s[i + 1] == '/')
            rep = "* ";
        else if (c == '/' && i + 1 < n && s[i + 1] == '*')
            rep = "/ ";
        else if (c == '?' && i + 1 < n && s[i + 1] == '?')
            rep = "? ";
        else if (c == '\\' && i + 1 == n)
            rep = "\\ ";
        else if (c == '\t' || c == '\r')
            rep = " ";
        if (!rep)
            continue;
        sdkc_buf_append(b, s + run, i - run);
        sdkc_buf_puts(b, rep);
        run = i + 1;
    }
    sdkc_buf_append(b, s + run, n - run);
}

/* A block comment at indent holding docs (may be NULL) and then extra lines; one line stays on
 * one line. */
static void put_doc(sdkc_buf *b, const char *indent, const char *docs, const char *extra)
{
    /* Written straight into b: the indent, the comment opener and the lines, then the closer on
     * the same line after one line or on a line of its own after several. Any non-empty part is
     * a line or more. */
    const char *parts[2] = {docs, extra};
    size_t nlines = 0;
    for (int k = 0; k < 2; k++) {
        const char *s = parts[k];
        if (!s || !*s)
            continue;
        if (!nlines) {
            sdkc_buf_puts(b, indent);
            sdkc_buf_append(b, "/*", 2);
        }
        while (*s) {
            const char *nl = strchr(s, '\n');
            size_t n = nl ? (size_t)(nl - s) : strlen(s);
            while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\r'))
                n--;
            if (nlines) {
                sdkc_buf_putc(b, '\n');
                sdkc_buf_puts(b, indent);
                sdkc_buf_append(b, " *", 2);
            }
            if (n)
                sdkc_buf_putc(b, ' ');
            put_comment_text(b, s, n);
            nlines++;
            s = nl ? nl + 1 : s + strlen(s);
        }
    }
    if (nlines == 1) {
        sdkc_buf_append(b, " */\n", 4);
    } else if (nlines > 1) {
        sdkc_buf_putc(b, '\n');
        sdkc_buf_puts(b, indent);
        sdkc_buf_append(b, " */\n", 4);
    }
}

static char *upper_of(emit_ctx *cx, const char *s)
{
    char *u = sdkc_arena_strdup(cx->arena, s);
    for (char *p = u; p && *p; p++)
        *p = (char)toupper((unsigned char)*p);
    return u;
}

static const char *desc_name(emit_ctx *cx, const ctype *c)
{
    return sdkc_arena_printf(cx->arena, "%s__j%s_%s", cx->prefix, c->is_struct ? "" : "x", c->base);
}

/* The member declaration of a storage type: "oc_x name" / "char *name". */
static void put_member(sdkc_buf *b, const ctype *c, const char *name, bool boxed)
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
static const char *const_ptr(emit_ctx *cx, const char *cdecl)
{
    size_t n = strlen(cdecl);
    return n && cdecl[n - 1] == '*' ? sdkc_arena_printf(cx->arena, "%sconst *", cdecl)
                                    : sdkc_arena_printf(cx->arena, "const %s *", cdecl);
}

static const char *ptr_decl(emit_ctx *cx, const char *cdecl)
{
    size_t n = strlen(cdecl);
    return sdkc_arena_printf(cx->arena, "%s%s*", cdecl, n && cdecl[n - 1] == '*' ? "" : " ");
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static void banner(emit_ctx *cx, sdkc_buf *b, const char *what)
{
    sdkc_buf_printf(b,
                    "/* %s - generated by sdkc %s from %s (sha256 %s).\n"
                    " * DO NOT EDIT: regenerate with `sdkc generate`. */\n",
                    what, SDKC_VERSION,
                    cx->ir->source_name ? base_name(cx->ir->source_name) : "(unknown)",
                    cx->ir->source_sha256 ? cx->ir->source_sha256 : "(unknown)");
}

/* ---- types.h ---- */

static void emit_struct_def(emit_ctx *cx, sdkc_buf *b, const ctype *c)
{
    const sdkc_type *t = c->t;
    if (c->is_brand) {
        put_doc(b, "", c->docs,
                "A distinct type so that one kind of identifier cannot be passed as another. "
                "value is owned by the struct (free with _cleanup).");
        sdkc_buf_printf(b, "struct %s {\n    char *value;\n};\n\n", c->cdecl);
        return;
    }
    if (!strcmp(c->jk, "SDKRT_JK_ARRAY")) {
        sdkc_buf_printf(b, "/* An array of %s: items (owned) and their count. */\n",
                        c->inner->base);
        sdkc_buf_printf(b, "struct %s {\n    ", c->cdecl);
        sdkc_buf_printf(b, "%s%s", ptr_decl(cx, c->inner->cdecl), "items;\n");
        sdkc_buf_puts(b, "    size_t count;\n};\n\n");
        return;
    }
    if (!strcmp(c->jk, "SDKRT_JK_MAP")) {
        sdkc_buf_printf(b,
                        "/* A map from strings to %s: count keys and values at the same index "
                        "(all owned). */\n",
                        c->inner->base);
        sdkc_buf_printf(b, "struct %s {\n    char **keys;\n    %s%s", c->cdecl,
                        ptr_decl(cx, c->inner->cdecl), "values;\n");
        sdkc_buf_puts(b, "    size_t count;\n};\n\n");
        return;
    }
    if (t->kind == SDKC_TYPE_ENUM) {
        put_doc(b, "", c->docs,
                "An open enumeration: value is one of the known members, or UNKNOWN with the "
                "wire string kept in unknown (owned; NULL otherwise).");
        sdkc_buf_printf(b, "typedef enum %s_value {\n    %s = 0", c->cdecl, c->unknown_const);
        for (size_t i = 0; i < t->u.enumeration.nvalues; i++) {
            sdkc_buf_printf(b, ",\n    %s = %zu /* ", c->consts[i], i + 1);
            const char *v = t->u.enumeration.values[i];
            put_comment_text(b, v, strlen(v));
            sdkc_buf_puts(b, " */");
        }
        sdkc_buf_printf(b, "\n} %s_value;\n\n", c->cdecl);
        sdkc_buf_printf(b, "struct %s {\n    %s_value value;\n    char *unknown;\n};\n\n", c->cdecl,
                        c->cdecl);
        return;
    }
    if (t->kind == SDKC_TYPE_UNION) {
        put_doc(b, "", c->docs,
                "A union: kind says which member of u holds the value; UNKNOWN keeps a variant "
                "this client does not know as raw JSON in unknown (owned). Everything inside is "
                "owned by the struct.");
        sdkc_buf_printf(b, "typedef enum %s_kind {\n    %s = 0", c->cdecl, c->unknown_const);
        for (size_t i = 0; i < c->nvariants; i++) {
            sdkc_buf_printf(b, ",\n    %s = %zu", c->consts[i], i + 1);
            if (c->variants[i].v->tag) {
                sdkc_buf_puts(b, " /* ");
                put_comment_text(b, c->variants[i].v->tag, strlen(c->variants[i].v->tag));
                sdkc_buf_puts(b, " */");
            }
        }
        sdkc_buf_printf(b, "\n} %s_kind;\n\n", c->cdecl);
        sdkc_buf_printf(b, "struct %s {\n    %s_kind kind;\n    json_t *unknown;\n    union {\n",
                        c->cdecl, c->cdecl);
        if (c->nvariants == 0)
            sdkc_buf_puts(b, "        char none_;\n");
        for (size_t i = 0; i < c->nvariants; i++) {
            const cvariant *v = &c->variants[i];
            sdkc_buf_puts(b, "        ");
            if (v->type->stores)
                put_member(b, v->type, v->v->safe_name, v->boxed);
            else
                sdkc_buf_printf(b, "char %s; /* nothing stored */", v->v->safe_name);
            sdkc_buf_putc(b, '\n');
        }
        sdkc_buf_puts(b, "    } u;\n};\n\n");
        return;
    }
    /* object */
    put_doc(b, "", c->docs,
            "Every pointer inside is owned by the struct (release with _cleanup or _free). "
            "has_x is false when an optional field was absent; x_null is true when a nullable "
            "field was JSON null.");
    sdkc_buf_printf(b, "struct %s {\n", c->cdecl);
    size_t members = 0;
    for (size_t i = 0; i < c->nfields; i++) {
        const cfield *f = &c->fields[i];
        const char *fn = f->cname;
        char *extra = NULL;
        if (!f->type->stores && f->type->literal)
            extra = sdkc_arena_printf(cx->arena, "\"%s\" is always %s.", f->f->wire_name,
                                      f->type->literal);
        put_doc(b, "    ", f->f->docs, extra);
        if (!f->f->required) {
            sdkc_buf_printf(b, "    bool has_%s;\n", fn);
            members++;
        }
        if (f->nullable) {
            sdkc_buf_printf(b, "    bool %s_null;\n", fn);
            members++;
        }
        if (f->type->stores) {
            sdkc_buf_puts(b, "    ");
            put_member(b, f->type, fn, f->boxed);
            sdkc_buf_putc(b, '\n');
            members++;
        }
    }
    if (!members)
        sdkc_buf_puts(b, "    char none_; /* no stored fields */\n");
    sdkc_buf_puts(b, "};\n\n");
}

/* A member of an input twin: borrowed, so every pointer is to const. */
static void put_in_member(emit_ctx *cx, sdkc_buf *b, const ctype *c, const char *name, bool boxed)
{
    const char *d = emit_in_decl(cx, c);
    if (boxed)
        sdkc_buf_printf(b, "const struct %s *%s;", c->twin ? c->twin : c->cdecl, name);
    else if (d[strlen(d) - 1] == '*')
        sdkc_buf_printf(b, "%s%s;", d, name);
    else
        sdkc_buf_printf(b, "%s %s;", d, name);
}

/* The pointer-to-const spelling of a twin's array: "const oc_x_in *", "const char *const *". */
static const char *in_items_decl(emit_ctx *cx, const ctype *inner)
{
    const char *d = emit_in_decl(cx, inner);
    return d[strlen(d) - 1] == '*' ? sdkc_arena_printf(cx->arena, "%sconst *", d)
                                   : sdkc_arena_printf(cx->arena, "const %s *", d);
}

/* The input twin of c: the same layout as c with borrowed, const members, so that a request
 * can point at string literals and at values the caller only reads. */
static void emit_twin_def(emit_ctx *cx, sdkc_buf *b, const ctype *c)
{
    const sdkc_type *t = c->t;
    const char *n = c->twin;
    sdkc_buf_printf(b,
                    "/* %s as a request input: the same members, borrowed for the call (const). "
                    "*/\nstruct %s {\n",
                    c->cdecl, n);
    if (c->is_brand) {
        sdkc_buf_puts(b, "    const char *value;\n};\n\n");
        return;
    }
    if (!strcmp(c->jk, "SDKRT_JK_ARRAY")) {
        sdkc_buf_printf(b, "    %sitems;\n    size_t count;\n};\n\n", in_items_decl(cx, c->inner));
        return;
    }
    if (!strcmp(c->jk, "SDKRT_JK_MAP")) {
        sdkc_buf_printf(b, "    const char *const *keys;\n    %svalues;\n    size_t count;\n};\n\n",
                        in_items_decl(cx, c->inner));
        return;
    }
    if (t->kind == SDKC_TYPE_ENUM) {
        sdkc_buf_printf(b, "    %s_value value;\n    const char *unknown;\n};\n\n", c->cdecl);
        return;
    }
    if (t->kind == SDKC_TYPE_UNION) {
        sdkc_buf_printf(b, "    %s_kind kind;\n    const json_t *unknown;\n    union {\n",
                        c->cdecl);
        if (c->nvariants == 0)
            sdkc_buf_puts(b, "        char none_;\n");
        for (size_t i = 0; i < c->nvariants; i++) {
            const cvariant *v = &c->variants[i];
            sdkc_buf_puts(b, "        ");
            if (v->type->stores)
                put_in_member(cx, b, v->type, v->v->safe_name, v->boxed);
            else
                sdkc_buf_printf(b, "char %s;", v->v->safe_name);
            sdkc_buf_putc(b, '\n');
        }
        sdkc_buf_puts(b, "    } u;\n};\n\n");
        return;
    }
    size_t members = 0;
    for (size_t i = 0; i < c->nfields; i++) {
        const cfield *f = &c->fields[i];
        if (!f->f->required) {
            sdkc_buf_printf(b, "    bool has_%s;\n", f->cname);
            members++;
        }
        if (f->nullable) {
            sdkc_buf_printf(b, "    bool %s_null;\n", f->cname);
            members++;
        }
        if (f->type->stores) {
            sdkc_buf_puts(b, "    ");
            put_in_member(cx, b, f->type, f->cname, f->boxed);
            sdkc_buf_putc(b, '\n');
            members++;
        }
    }
    if (!members)
        sdkc_buf_puts(b, "    char none_;\n");
    sdkc_buf_puts(b, "};\n\n");
}

/* What a common-field accessor returns: a pointer member as itself, anything else by address. */
static const char *common_ret(emit_ctx *cx, const cfield *f)
{
    size_t n = strlen(f->type->cdecl);
    if (f->boxed || (n && f->type->cdecl[n - 1] == '*'))
        return sdkc_arena_printf(cx->arena, "const %s%s", f->type->cdecl, f->boxed ? " *" : "");
    return sdkc_arena_printf(cx->arena, "const %s *", f->type->cdecl);
}

static void emit_union_protos(emit_ctx *cx, sdkc_buf *b, const ctype *c)
{
    const char *n = c->cdecl;
    if (c->t->u.union_.discriminator) {
        sdkc_buf_puts(b, "/* The \"");
        put_comment_text(b, c->t->u.union_.discriminator, strlen(c->t->u.union_.discriminator));
        sdkc_buf_printf(b,
                        "\" tag of *value (static, or borrowed from value->unknown for a variant "
                        "this SDK does not know),\n * or NULL. */\n"
                        "const char *%s_tag(const %s *value);\n",
                        n, n);
    }
    sdkc_buf_printf(b,
                    "/* The name of a kind (\"unknown\" for %s; static), or NULL outside the "
                    "enumeration. */\nconst char *%s_kind_name(%s_kind kind);\n",
                    c->unknown_const, n, n);
    for (size_t i = 0; i < c->ncommon; i++) {
        const cfield *f = c->common[i].in[0];
        sdkc_buf_printf(b,
                        "/* \"%s\", which every variant has (borrowed from value): NULL when "
                        "absent%s or the kind is unknown. */\n"
                        "%s%s_%s(const %s *value);\n",
                        f->f->wire_name, f->nullable ? ", null" : "", common_ret(cx, f), cx->prefix,
                        c->common[i].accessor, n);
    }
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
            put_c_string(b, c->variants[i].v->tag);
            sdkc_buf_puts(b, ";\n");
        }
        sdkc_buf_puts(b, "    default:\n        break;\n    }\n"
                         "    return json_string_value(json_object_get(value->unknown, ");
        put_c_string(b, disc);
        sdkc_buf_puts(b, "));\n}\n\n");
    }
    sdkc_buf_printf(b,
                    "const char *%s_kind_name(%s_kind kind)\n{\n    switch (kind) {\n"
                    "    case %s:\n        return \"unknown\";\n",
                    n, n, c->unknown_const);
    for (size_t i = 0; i < c->nvariants; i++) {
        sdkc_buf_printf(b, "    case %s:\n        return ", c->consts[i]);
        put_c_string(b, c->variants[i].v->safe_name);
        sdkc_buf_puts(b, ";\n");
    }
    sdkc_buf_puts(b, "    }\n    return NULL;\n}\n\n");
    for (size_t i = 0; i < c->ncommon; i++) {
        const ccommon *cm = &c->common[i];
        const cfield *f0 = cm->in[0];
        size_t len = strlen(f0->type->cdecl);
        bool by_value = !f0->boxed && !(len && f0->type->cdecl[len - 1] == '*');
        sdkc_buf_printf(b,
                        "%s%s_%s(const %s *value)\n{\n    if (!value)\n        return NULL;\n"
                        "    switch (value->kind) {\n",
                        common_ret(cx, f0), cx->prefix, cm->accessor, n);
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
        sdkc_buf_puts(b, "    default:\n        return NULL;\n    }\n}\n\n");
    }
}

static void emit_type_protos(emit_ctx *cx, sdkc_buf *b, const ctype *c)
{
    const char *n = c->cdecl;
    sdkc_buf_printf(b,
                    "/* Decode json (borrowed) into *out (zeroed by the caller). On failure *out "
                    "holds nothing and *err is a\n"
                    " * new MALFORMED_RESPONSE error naming the JSON path (path: prefix for "
                    "messages, NULL = \"$\"). */\n"
                    "%s_status %s_decode(%s *out, const json_t *json, const char *path, %s_error "
                    "**err);\n",
                    cx->prefix, n, n, cx->prefix);
    sdkc_buf_printf(b,
                    "/* Encode *value (borrowed) as JSON; *out is a new reference. */\n"
                    "%s_status %s_encode(const %s *value, json_t **out, %s_error **err);\n",
                    cx->prefix, n, n, cx->prefix);
    sdkc_buf_printf(b,
                    "/* Release everything *value owns and zero it (NULL is a no-op). */\n"
                    "void %s_cleanup(%s *value);\n",
                    n, n);
    sdkc_buf_printf(b,
                    "/* Cleanup and free a heap value returned by this SDK (NULL is a no-op). */\n"
                    "void %s_free(%s *value);\n",
                    n, n);
    if (c->t->kind == SDKC_TYPE_ENUM && !c->is_brand && !strcmp(c->jk, "SDKRT_JK_ENUM"))
        sdkc_buf_printf(b,
                        "/* The wire string of *value (borrowed), or NULL when impossible. */\n"
                        "const char *%s_wire(const %s *value);\n",
                        n, n);
    if (c->t->kind == SDKC_TYPE_UNION)
        emit_union_protos(cx, b, c);
    sdkc_buf_putc(b, '\n');
}

/* The runtime's enumerations under this SDK's prefix. Kept in step with sdkrt/error.h and
 * sdkrt/client.h (tests/emitter/test_opencode.c fails when the runtime gains a reason). */
static const char *const runtime_reasons[] = {"NONE",
                                              "TRANSPORT",
                                              "TIMEOUT",
                                              "CANCELLED",
                                              "UNEXPECTED_STATUS",
                                              "UNSUPPORTED_CONTENT_TYPE",
                                              "MALFORMED_RESPONSE",
                                              "INVALID_ARGUMENT",
                                              "RESPONSE_TOO_LARGE",
                                              "EVENT_TOO_LARGE",
                                              "OUT_OF_MEMORY"};
static const char *const runtime_auths[] = {"NONE", "BASIC", "BEARER"};

static void emit_runtime_names(emit_ctx *cx, sdkc_buf *b)
{
    const char *P = cx->prefix, *U = cx->upper;
    sdkc_buf_printf(b,
                    "/* Bytes from memory (data, len) or from a file (path), for binary bodies and "
                    "multipart\n * file parts; borrowed by the call. */\n"
                    "typedef sdkrt_blob %s_blob;\n#define %s_BLOB_INIT SDKRT_BLOB_INIT\n\n",
                    P, U);
    sdkc_buf_printf(
        b,
        "/* Why a CLIENT error happened (%s_error_reason); NONE for a DOMAIN error. */\n"
        "typedef sdkrt_reason %s_reason;\n",
        P, P);
    for (size_t i = 0; i < sizeof runtime_reasons / sizeof *runtime_reasons; i++)
        sdkc_buf_printf(b, "#define %s_REASON_%s SDKRT_REASON_%s\n", U, runtime_reasons[i],
                        runtime_reasons[i]);
    sdkc_buf_printf(b,
                    "\n/* How the client authenticates (%s_client_options.auth). */\n"
                    "typedef sdkrt_auth_kind %s_auth_kind;\n",
                    P, P);
    for (size_t i = 0; i < sizeof runtime_auths / sizeof *runtime_auths; i++)
        sdkc_buf_printf(b, "#define %s_AUTH_%s SDKRT_AUTH_%s\n", U, runtime_auths[i],
                        runtime_auths[i]);
    sdkc_buf_printf(b,
                    "\n/* The in-memory transport (tests without a server): what its handler "
                    "sees and fills. */\n"
                    "typedef sdkrt_memory_request %s_memory_request;\n"
                    "typedef sdkrt_memory_response %s_memory_response;\n"
                    "typedef sdkrt_memory_handler %s_memory_handler;\n\n",
                    P, P, P);
}

static void emit_types_h(emit_ctx *cx, sdkc_buf *b)
{
    const char *P = cx->prefix, *U = cx->upper;
    banner(cx, b, "types.h: value types");
    sdkc_buf_printf(b, "#ifndef %s_TYPES_H\n#define %s_TYPES_H\n\n", U, U);
    sdkc_buf_puts(b, "#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n\n"
                     "#include <jansson.h>\n\n#include \"sdkrt/sdkrt.h\"\n#include "
                     "\"sdkrt/json.h\"\n#include \"sdkrt/wire.h\"\n\n");
    sdkc_buf_printf(b,
                    "#if SDKRT_VERSION_MAJOR != %d || SDKRT_VERSION_MINOR < %d\n"
                    "#error \"this SDK needs libsdkrt %d.%d or a later %d.x\"\n#endif\n\n",
                    SDKRT_MAJOR_WANT, SDKRT_MINOR_WANT, SDKRT_MAJOR_WANT, SDKRT_MINOR_WANT,
                    SDKRT_MAJOR_WANT);
    sdkc_buf_puts(b, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
    sdkc_buf_printf(
        b,
        "/* Runtime types under this SDK's prefix (see the sdkrt headers for details). */\n"
        "typedef sdkrt_status %s_status; /* %s_OK or %s_ERR (then *err is set) */\n"
        "#define %s_OK SDKRT_OK\n#define %s_ERR SDKRT_ERR\n"
        "typedef sdkrt_error %s_error;   /* owned by the caller; %s_error_free */\n"
        "typedef sdkrt_client %s_client; /* %s_client_new / %s_client_free */\n"
        "typedef sdkrt_client_options %s_client_options;\n"
        "#define %s_CLIENT_OPTIONS_INIT SDKRT_CLIENT_OPTIONS_INIT\n"
        "typedef sdkrt_call_options %s_call_options; /* header overrides, cancel, timeout, "
        "on_response */\n"
        "#define %s_CALL_OPTIONS_INIT SDKRT_CALL_OPTIONS_INIT\n"
        "typedef sdkrt_cancel %s_cancel; /* %s_cancel_new / %s_cancel_trigger / %s_cancel_free */\n"
        "typedef sdkrt_bytes %s_bytes; /* a non-JSON body; %s_bytes_free */\n"
        "typedef sdkrt_header %s_header; /* a borrowed name/value pair (options, call options) */\n"
        "typedef sdkrt_credential %s_credential; /* %s_client_options.credentials: per security "
        "scheme */\n"
        "typedef sdkrt_transport %s_transport; /* %s_client_options.transport; NULL = libcurl "
        "*/\n\n"
        "/* Result of an iterator or stream step. */\n"
        "typedef enum %s_next {\n    %s_NEXT_ERROR = -1, /* *err is set */\n"
        "    %s_NEXT_END = 0,    /* no more items */\n    %s_NEXT_ITEM = 1    /* *item is set */\n"
        "} %s_next;\n\n",
        P, U, U, U, U, P, P, P, P, P, P, U, P, U, P, P, P, P, P, P, P, P, P, P, P, P, U, U, U, P);
    emit_runtime_names(cx, b);
    sdkc_buf_puts(b, "/* Every value type, declared first so that definitions may refer to each "
                     "other. */\n");
    for (size_t i = 0; i < cx->norder; i++)
        sdkc_buf_printf(b, "typedef struct %s %s;\n", cx->order[i]->cdecl, cx->order[i]->cdecl);
    sdkc_buf_putc(b, '\n');
    bool twins = false;
    for (size_t i = 0; i < cx->norder; i++) {
        const ctype *c = cx->order[i];
        if (!c->twin)
            continue;
        if (!twins)
            sdkc_buf_puts(b, "/* Input twins: what requests take (borrowed, const members). */\n");
        twins = true;
        sdkc_buf_printf(b, "typedef struct %s %s;\n", c->twin, c->twin);
    }
    if (twins)
        sdkc_buf_putc(b, '\n');
    for (size_t i = 0; i < cx->norder; i++) {
        emit_struct_def(cx, b, cx->order[i]);
        if (cx->order[i]->twin)
            emit_twin_def(cx, b, cx->order[i]);
    }
    sdkc_buf_puts(b, "/* ---- decode, encode, cleanup and free of each type ---- */\n\n");
    for (size_t i = 0; i < cx->norder; i++)
        emit_type_protos(cx, b, cx->order[i]);
    sdkc_buf_printf(b, "#ifdef __cplusplus\n}\n#endif\n#endif /* %s_TYPES_H */\n", U);
}

/* ---- types.c ---- */

static void emit_descriptor(emit_ctx *cx, sdkc_buf *b, const ctype *c)
{
    const char *dn = desc_name(cx, c);
    const sdkc_type *t = c->t;
    if (c->nfields) {
        sdkc_buf_printf(b, "static const sdkrt_jfield %s_f[] = {\n", dn);
        for (size_t i = 0; i < c->nfields; i++) {
            const cfield *f = &c->fields[i];
            const char *fn = f->cname;
            sdkc_buf_puts(b, "    {");
            put_c_string(b, f->f->wire_name);
            /* a required writeOnly field binds requests only: a response may leave it out */
            bool req = f->f->required && !f->f->write_only;
            const char *flags =
                sdkc_arena_printf(cx->arena, "%s%s%s", req ? " | SDKRT_JF_REQUIRED" : "",
                                  f->boxed ? " | SDKRT_JF_BOXED" : "",
                                  f->f->read_only ? " | SDKRT_JF_READ_ONLY" : "");
            sdkc_buf_printf(b, ", &%s, %s, ", desc_name(cx, f->type),
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
                put_c_string(b, v->v->tag);
            else
                sdkc_buf_puts(b, "NULL");
            sdkc_buf_printf(b, ", &%s, %s},\n", desc_name(cx, v->type),
                            v->boxed ? "SDKRT_JF_BOXED" : "0");
        }
        sdkc_buf_puts(b, "};\n");
    }
    bool is_enum = !strcmp(c->jk, "SDKRT_JK_ENUM");
    if (is_enum && t->u.enumeration.nvalues) {
        sdkc_buf_printf(b, "static const char *const %s_e[] = {", dn);
        for (size_t i = 0; i < t->u.enumeration.nvalues; i++) {
            sdkc_buf_puts(b, i ? ", " : "");
            put_c_string(b, t->u.enumeration.values[i]);
        }
        sdkc_buf_puts(b, "};\n");
    }
    sdkc_buf_printf(b, "const sdkrt_jtype %s = {%s, ", dn, c->jk);
    put_c_string(b, c->t->name ? c->t->name : c->base);
    if (c->stores)
        sdkc_buf_printf(b, ", sizeof(%s)", c->cdecl);
    else
        sdkc_buf_puts(b, ", 1");
    sdkc_buf_printf(b, ", %s%s", c->inner ? "&" : "", c->inner ? desc_name(cx, c->inner) : "NULL");
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
            put_c_string(b, t->u.union_.discriminator);
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
        put_c_string(b, c->literal);
    } else {
        sdkc_buf_puts(b, ", NULL");
    }
    sdkc_buf_puts(b, ", NULL};\n\n"); /* common: none yet */
}

static void emit_type_funcs(emit_ctx *cx, sdkc_buf *b, const ctype *c)
{
    const char *n = c->cdecl, *d = desc_name(cx, c), *P = cx->prefix;
    sdkc_buf_printf(b,
                    "%s_status %s_decode(%s *out, const json_t *json, const char *path, "
                    "%s_error **err)\n{\n    return sdkrt_json_decode(&%s, out, json, path, err);\n"
                    "}\n\n",
                    P, n, n, P, d);
    sdkc_buf_printf(b,
                    "%s_status %s_encode(const %s *value, json_t **out, %s_error **err)\n{\n"
                    "    return sdkrt_json_encode(&%s, value, out, err);\n}\n\n",
                    P, n, n, P, d);
    sdkc_buf_printf(b,
                    "void %s_cleanup(%s *value)\n{\n    if (value)\n"
                    "        sdkrt_json_cleanup(&%s, value);\n}\n\n",
                    n, n, d);
    sdkc_buf_printf(b, "void %s_free(%s *value)\n{\n    sdkrt_json_value_free(&%s, value);\n}\n\n",
                    n, n, d);
    if (c->t->kind == SDKC_TYPE_ENUM && !strcmp(c->jk, "SDKRT_JK_ENUM"))
        sdkc_buf_printf(b,
                        "const char *%s_wire(const %s *value)\n{\n"
                        "    return value ? sdkrt_json_enum_wire(&%s, value) : NULL;\n}\n\n",
                        n, n, d);
    if (c->t->kind == SDKC_TYPE_UNION)
        emit_union_funcs(cx, b, c);
}

static int cmp_desc(const void *a, const void *b)
{
    const ctype *x = *(ctype *const *)a, *y = *(ctype *const *)b;
    if (x->is_struct != y->is_struct)
        return x->is_struct ? 1 : -1;
    return strcmp(x->base, y->base);
}

static void emit_internal_h(emit_ctx *cx, sdkc_buf *b, ctype **sorted, size_t n)
{
    banner(cx, b, "internal.h: descriptors shared by the SDK's sources (not installed)");
    sdkc_buf_printf(b, "#ifndef %s_INTERNAL_H\n#define %s_INTERNAL_H\n\n", cx->upper, cx->upper);
    sdkc_buf_printf(b, "#include \"%s/%s.h\"\n\n", cx->prefix, cx->prefix);
    /* The descriptors are shared by types.c and ops.c only: not exported from a shared library. */
    sdkc_buf_printf(b,
                    "#if defined(__GNUC__) && !defined(_WIN32)\n"
                    "#define %s_INTERNAL __attribute__((visibility(\"hidden\")))\n#else\n"
                    "#define %s_INTERNAL\n#endif\n\n",
                    cx->upper, cx->upper);
    for (size_t i = 0; i < n; i++)
        sdkc_buf_printf(b, "extern %s_INTERNAL const sdkrt_jtype %s;\n", cx->upper,
                        desc_name(cx, sorted[i]));
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

static void emit_types_c(emit_ctx *cx, sdkc_buf *b, ctype **sorted, size_t n)
{
    banner(cx, b, "types.c: value descriptors and per-type functions");
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
    for (size_t i = 0; i < cx->norder; i++)
        emit_type_funcs(cx, b, cx->order[i]);
}

/* ---- operations ---- */

static const cfield *find_field(const ctype *obj, const char *wire)
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
static const char *field_present(emit_ctx *cx, const char *v, const cfield *f)
{
    const char *fn = f->cname;
    const char *has = f->f->required ? "1" : sdkc_arena_printf(cx->arena, "%s->has_%s", v, fn);
    const char *nn = f->nullable ? sdkc_arena_printf(cx->arena, "!%s->%s_null", v, fn) : "1";
    return sdkc_arena_printf(cx->arena, "(%s && %s)", has, nn);
}

static const char *field_value(emit_ctx *cx, const char *v, const cfield *f)
{
    return sdkc_arena_printf(cx->arena, "%s%s->%s", f->boxed ? "*" : "", v, f->cname);
}

static const char *enc_name(sdkc_encoding e)
{
    switch (e) {
    case SDKC_ENC_NONE:
        return "SDKRT_JENC_NONE";
    case SDKC_ENC_JSON:
        return "SDKRT_JENC_JSON";
    case SDKC_ENC_SSE:
        return "SDKRT_JENC_SSE";
    case SDKC_ENC_BYTES:
        return "SDKRT_JENC_BYTES";
    case SDKC_ENC_TEXT:
        return "SDKRT_JENC_TEXT";
    }
    return "SDKRT_JENC_NONE";
}

/* Is the page projection usable (fields found as the IR says)? */
static bool page_ok(const cop *o)
{
    const sdkc_pagination *pg = o->op->pagination;
    if (!pg || !o->page || !o->item || !o->result)
        return false;
    const cfield *items = find_field(o->page, pg->items_field);
    const cfield *cur = find_field(o->page, pg->cursor_field);
    if (!items || items->type->inner != o->item || strcmp(items->type->jk, "SDKRT_JK_ARRAY") ||
        !cur || strcmp(cur->type->jk, "SDKRT_JK_OBJECT") || cur->boxed)
        return false;
    const cfield *next = find_field(cur->type, pg->next_field);
    if (!next || strcmp(next->type->jk, "SDKRT_JK_STRING") || next->type->is_brand)
        return false;
    if (pg->previous_field) {
        const cfield *prev = find_field(cur->type, pg->previous_field);
        if (!prev || strcmp(prev->type->jk, "SDKRT_JK_STRING") || prev->type->is_brand)
            return false;
    }
    return pg->cursor_param != NULL;
}

/* A continuation sends the path parameters and the opaque cursor only: the cursor stands for
 * the query that made it (a server may refuse a cursor combined with, say, an order). The path
 * parameters' texts travel in a page's cursors. */
static bool is_ctx_param(const sdkc_operation *op, const sdkc_param *p)
{
    (void)op;
    return p->in == SDKC_PARAM_PATH;
}

static size_t npath_params(const sdkc_operation *op)
{
    size_t n = 0;
    for (size_t i = 0; i < op->nparams; i++)
        n += is_ctx_param(op, &op->params[i]);
    return n;
}

static const char *out_param(emit_ctx *cx, const cop *o)
{
    const sdkc_operation *op = o->op;
    if (op->pagination && page_ok(o))
        return sdkc_arena_printf(cx->arena, "%s_%s_page **out", cx->prefix, o->name);
    switch (op->success.encoding) {
    case SDKC_ENC_JSON:
        if (!o->result || !o->result->stores)
            return NULL;
        if (o->result->is_struct)
            return sdkc_arena_printf(cx->arena, "%s **out", o->result->cdecl);
        return sdkc_arena_printf(cx->arena, "%sout", ptr_decl(cx, o->result->cdecl));
    case SDKC_ENC_BYTES:
    case SDKC_ENC_TEXT:
        return sdkc_arena_printf(cx->arena, "%s_bytes **out", cx->prefix);
    default:
        return NULL;
    }
}

/* May the request be NULL (no required parameter, no required body)? */
static bool request_optional(const sdkc_operation *op)
{
    for (size_t i = 0; i < op->nparams; i++) {
        if (op->params[i].required)
            return false;
    }
    return !op->body || !op->body->required;
}

static void emit_request_struct(emit_ctx *cx, sdkc_buf *b, const cop *o)
{
    const sdkc_operation *op = o->op;
    char *doc = sdkc_arena_printf(cx->arena,
                                  "Parameters of %s (%s %s). Borrowed by the call; has_x marks "
                                  "an optional parameter as set.%s",
                                  o->name, op->method, op->path,
                                  request_optional(op) ? " Every parameter is optional: the call "
                                                         "accepts a NULL request."
                                                       : "");
    put_doc(b, "", doc, NULL);
    sdkc_buf_printf(b, "typedef struct %s_%s_request {\n", cx->prefix, o->name);
    for (size_t i = 0; i < op->nparams; i++) {
        const sdkc_param *p = &op->params[i];
        char *extra =
            sdkc_arena_printf(cx->arena, "%s parameter \"%s\"%s.", sdkc_param_in_name(p->in),
                              p->wire_name, p->required ? ", required" : "");
        put_doc(b, "    ", p->docs, extra);
        if (!p->required)
            sdkc_buf_printf(b, "    bool has_%s;\n", o->pnames[i]);
        sdkc_buf_puts(b, "    ");
        if (o->params[i]->stores)
            put_in_member(cx, b, o->params[i], o->pnames[i], false);
        else if (o->params[i]->literal) {
            sdkc_buf_printf(b, "char %s; /* nothing to set: always ", o->pnames[i]);
            put_comment_text(b, o->params[i]->literal, strlen(o->params[i]->literal));
            sdkc_buf_puts(b, " */");
        } else
            sdkc_buf_printf(b, "char %s; /* nothing to set */", o->pnames[i]);
        sdkc_buf_putc(b, '\n');
    }
    if (o->body) {
        put_doc(b, "    ", op->body->docs,
                op->body->required ? "The request body." : "The request body, sent when has_body.");
        if (!op->body->required)
            sdkc_buf_puts(b, "    bool has_body;\n");
        sdkc_buf_puts(b, "    ");
        if (o->blob_body)
            sdkc_buf_printf(b, "%s_blob body; /* the bytes: data and len, or a file's path */",
                            cx->prefix);
        else
            put_in_member(cx, b, o->body, "body", false);
        sdkc_buf_putc(b, '\n');
        if (o->nfiles) {
            sdkc_buf_puts(b, "    /* File parts: a blob that is set (data, len or path) is sent "
                             "instead of the body's\n       string of that name. */\n"
                             "    struct {\n");
            for (size_t i = 0; i < o->nfiles; i++)
                sdkc_buf_printf(b, "        %s_blob %s;\n", cx->prefix, o->files[i]->cname);
            sdkc_buf_puts(b, "    } body_files;\n");
        }
        if (op->body->nalternatives) {
            sdkc_buf_puts(b, "    /* The media type to send the body as: NULL for ");
            put_comment_text(b, op->body->content_type, strlen(op->body->content_type));
            sdkc_buf_puts(b, ", or one of");
            for (size_t i = 0; i < op->body->nalternatives; i++) {
                sdkc_buf_puts(b, i ? ", " : " ");
                put_comment_text(b, op->body->alternatives[i], strlen(op->body->alternatives[i]));
            }
            sdkc_buf_puts(b, " (anything else is an INVALID_ARGUMENT error). */\n"
                             "    const char *body_media_type;\n");
        }
    }
    sdkc_buf_printf(b, "} %s_%s_request;\n\n", cx->prefix, o->name);
}

static const char *op_doc(emit_ctx *cx, const cop *o)
{
    const sdkc_operation *op = o->op;
    const char *s = op->summary ? op->summary : "";
    const char *d = op->description && (!op->summary || strcmp(op->summary, op->description))
                        ? op->description
                        : "";
    return sdkc_arena_printf(cx->arena, "%s%s%s\n%s %s (%s)%s", s, *s && *d ? "\n" : "", d,
                             op->method, op->path, op->id, op->deprecated ? " [deprecated]" : "");
}

/* The DOMAIN errors an operation declares, in the order of cop.errs: each status (exact, ranges,
 * default) with its tags, then its body without a tag. NULL *tag for that untagged body. */
static size_t error_entries(const sdkc_operation *op)
{
    size_t n = 0;
    for (size_t k = 0; k < op->nerrors; k++)
        n += op->errors[k].ntags + (op->errors[k].untagged ? 1 : 0);
    return n;
}

static void error_entry(const sdkc_operation *op, size_t idx, int *status, const char **tag,
                        const sdkc_type **type)
{
    for (size_t k = 0; k < op->nerrors; k++) {
        const sdkc_error_status *e = &op->errors[k];
        size_t n = e->ntags + (e->untagged ? 1 : 0);
        if (idx >= n) {
            idx -= n;
            continue;
        }
        *status = e->status;
        *tag = idx < e->ntags ? e->tags[idx].tag : NULL;
        *type = idx < e->ntags ? e->tags[idx].type : e->untagged;
        return;
    }
}

/* The DOMAIN tag of an error entry: its `_tag`, or for a body without one its type's name (the
 * name its descriptor carries, which the runtime reports). */
static const char *entry_tag(const char *tag, const ctype *t)
{
    return tag ? tag : t->t->name ? t->t->name : t->base;
}

static void emit_errors_doc(emit_ctx *cx, sdkc_buf *dst, const cop *o)
{
    sdkc_buf b = SDKC_BUF_INIT;
    const sdkc_operation *op = o->op;
    sdkc_buf_puts(&b, "Declared errors:");
    for (size_t j = 0; j < error_entries(op); j++) {
        int status = 0;
        const char *tag = NULL;
        const sdkc_type *t = NULL;
        char st[16];
        error_entry(op, j, &status, &tag, &t);
        sdkc_buf_printf(&b, " %s %s;", sdkc_status_text(status, st, sizeof st),
                        entry_tag(tag, o->errs[j]));
    }
    sdkc_buf_puts(&b, " anything else is a CLIENT error.");
    put_comment_text(dst, b.data ? b.data : "", b.len);
    sdkc_buf_cleanup(&b);
    (void)cx;
}

static void emit_op_protos(emit_ctx *cx, sdkc_buf *b, const cop *o)
{
    const sdkc_operation *op = o->op;
    const char *P = cx->prefix, *N = o->name;
    if (o->has_request)
        emit_request_struct(cx, b, o);
    const char *req_arg =
        o->has_request ? sdkc_arena_printf(cx->arena, "const %s_%s_request *request, ", P, N) : "";
    if (op->stream && o->item) {
        sdkc_buf_printf(b, "/* A cold event stream of %s: see %s_%s_open. */\n", N, P, N);
        sdkc_buf_printf(b, "typedef struct %s_%s_stream %s_%s_stream;\n\n", P, N, P, N);
        put_doc(b, "", op_doc(cx, o), NULL);
        sdkc_buf_puts(b, "/* ");
        emit_errors_doc(cx, b, o);
        sdkc_buf_printf(b,
                        "\n * Opens the stream without I/O: the first %s_%s_next connects. "
                        "request and call are copied\n * (the cancel token stays borrowed). "
                        "*out is new: release it with %s_%s_close. */\n",
                        P, N, P, N);
        sdkc_buf_printf(b,
                        "%s_status %s_%s_open(%s_%s_stream **out, %s_client *client, %sconst "
                        "%s_call_options *call,\n    %s_error **err);\n",
                        P, P, N, P, N, P, req_arg, P, P);
        sdkc_buf_printf(
            b,
            "/* The next item: %s_NEXT_ITEM with *item (borrowed until the next call or close), "
            "%s_NEXT_END, or\n * %s_NEXT_ERROR with *err (new). A failure frame becomes a DOMAIN "
            "error tagged \"%s\" whose payload\n * is the decoded cause (%s_%s_failure); a "
            "declared "
            "error status its domain error; a cut TRANSPORT. */\n",
            cx->upper, cx->upper, cx->upper, "StreamFailure", P, N);
        sdkc_buf_printf(b, "%s_next %s_%s_next(%s_%s_stream *stream, %s*item, %s_error **err);\n",
                        P, P, N, P, N, const_ptr(cx, o->item->cdecl), P);
        sdkc_buf_printf(b,
                        "/* Close the stream and its connection at any point (NULL is a no-op). "
                        "*/\nvoid %s_%s_close(%s_%s_stream *stream);\n",
                        P, N, P, N);
        if (o->cause)
            sdkc_buf_printf(b,
                            "/* The decoded cause of a stream failure error (borrowed from err), "
                            "or NULL for other errors. */\n%s%s_%s_failure(const %s_error "
                            "*err);\n",
                            const_ptr(cx, o->cause->cdecl), P, N, P);
        sdkc_buf_putc(b, '\n');
        return;
    }
    bool paged = op->pagination && page_ok(o);
    if (paged) {
        const char *items = const_ptr(cx, o->item->cdecl);
        sdkc_buf_printf(b,
                        "/* A position in the pages of %s (opaque): only valid for this operation. "
                        "It holds the server's\n * cursor and the path parameters; a continuation "
                        "sends those and nothing else. Owned by its page,\n * or by the caller "
                        "after %s_%s_cursor_dup or %s_%s_cursor_new. */\n",
                        N, P, N, P, N);
        sdkc_buf_printf(b, "typedef struct %s_%s_cursor %s_%s_cursor;\n\n", P, N, P, N);
        sdkc_buf_printf(b,
                        "/* One page of %s. items and count view the decoded body; next and "
                        "previous are NULL at the ends.\n * Everything is owned by the page: "
                        "release it with %s_%s_page_free. */\n",
                        N, P, N);
        sdkc_buf_printf(b,
                        "typedef struct %s_%s_page {\n    %sitems;\n    size_t count;\n"
                        "    %s_%s_cursor *next;\n    %s_%s_cursor *previous;\n    %sbody;\n"
                        "} %s_%s_page;\n\n",
                        P, N, items, P, N, P, N, ptr_decl(cx, o->result->cdecl), P, N);
        sdkc_buf_printf(b, "void %s_%s_page_free(%s_%s_page *page); /* NULL is a no-op */\n", P, N,
                        P, N);
        sdkc_buf_printf(b, "void %s_%s_cursor_free(%s_%s_cursor *cursor); /* NULL is a no-op */\n",
                        P, N, P, N);
        sdkc_buf_printf(b,
                        "/* A copy of cursor in *out (new; %s_%s_cursor_free). */\n"
                        "%s_status %s_%s_cursor_dup(%s_%s_cursor **out, const %s_%s_cursor "
                        "*cursor, %s_error **err);\n",
                        P, N, P, P, N, P, N, P, N, P);
        sdkc_buf_printf(b,
                        "/* The server's cursor text (borrowed from cursor), to keep and resume "
                        "from later. */\n"
                        "const char *%s_%s_cursor_value(const %s_%s_cursor *cursor);\n",
                        P, N, P, N);
        sdkc_buf_printf(b,
                        "/* A cursor (new; %s_%s_cursor_free) from a kept cursor text "
                        "(copied)%s. */\n"
                        "%s_status %s_%s_cursor_new(%s_%s_cursor **out, %sconst char *value, "
                        "%s_error **err);\n\n",
                        P, N,
                        npath_params(op) ? " and the path parameters of request (borrowed; "
                                           "nothing else in it is used)"
                                         : "",
                        P, P, N, P, N,
                        npath_params(op)
                            ? sdkc_arena_printf(cx->arena, "const %s_%s_request *request, ", P, N)
                            : "",
                        P);
    }
    put_doc(b, "", op_doc(cx, o), NULL);
    sdkc_buf_puts(b, "/* ");
    emit_errors_doc(cx, b, o);
    const char *outp = out_param(cx, o);
    sdkc_buf_printf(b,
                    "\n * client, request and call (NULL for defaults) are borrowed; %s; on %s_ERR "
                    "*err is new (%s_error_free). */\n",
                    outp ? "on success *out is new and owned by the caller"
                         : "nothing is returned on success",
                    cx->upper, P);
    sdkc_buf_printf(b, "%s_status %s_%s(%s_client *client, %sconst %s_call_options *call, ", P, P,
                    N, P, req_arg, P);
    if (outp)
        sdkc_buf_printf(b, "%s, ", outp);
    sdkc_buf_printf(b, "%s_error **err);\n", P);
    if (paged) {
        sdkc_buf_printf(b,
                        "/* The page at cursor (borrowed), sending only the cursor. */\n"
                        "%s_status %s_%s_continue(%s_client *client, const %s_%s_cursor *cursor, "
                        "const %s_call_options *call,\n    %s_%s_page **out, %s_error **err);\n",
                        P, P, N, P, P, N, P, P, N, P);
        sdkc_buf_printf(b,
                        "/* An iterator over every item of every page, forwards, with one page "
                        "resident. No I/O until the first\n * next. request is copied; client "
                        "and call are borrowed for the iterator's life. */\n"
                        "typedef struct %s_%s_iter %s_%s_iter;\n"
                        "%s_status %s_%s_iter_new(%s_%s_iter **out, %s_client *client, %sconst "
                        "%s_call_options *call,\n    %s_error **err);\n",
                        P, N, P, N, P, P, N, P, N, P, req_arg, P, P);
        sdkc_buf_printf(b,
                        "/* *item is borrowed until the next call or free. */\n"
                        "%s_next %s_%s_iter_next(%s_%s_iter *it, %s*item, %s_error **err);\n"
                        "void %s_%s_iter_free(%s_%s_iter *it); /* NULL is a no-op */\n",
                        P, P, N, P, N, const_ptr(cx, o->item->cdecl), P, P, N, P, N);
    }
    sdkc_buf_putc(b, '\n');
}

/* Collect distinct (tag, type) pairs over all operations, sorted by tag. */
typedef struct tagref {
    const char *tag;
    ctype *type;
    const char *accessor; /* PREFIX_error_<tag>, unique among the SDK's names */
} tagref;

static int cmp_tagref(const void *a, const void *b)
{
    const tagref *x = a, *y = b;
    int c = strcmp(x->tag, y->tag);
    return c ? c : strcmp(x->type->base, y->type->base);
}

static tagref *collect_tags(emit_ctx *cx, cop *ops, size_t nops, size_t *n_out)
{
    size_t cap = 0, n = 0;
    for (size_t i = 0; i < nops; i++)
        cap += error_entries(ops[i].op);
    tagref *t = calloc(cap ? cap : 1, sizeof *t);
    if (!t)
        return NULL;
    for (size_t i = 0; i < nops; i++) {
        for (size_t j = 0; j < error_entries(ops[i].op); j++) {
            int status = 0;
            const char *tag = NULL;
            const sdkc_type *ty = NULL;
            error_entry(ops[i].op, j, &status, &tag, &ty);
            tagref r = {entry_tag(tag, ops[i].errs[j]), ops[i].errs[j], NULL};
            bool dup = false;
            for (size_t q = 0; q < n && !dup; q++)
                dup = !strcmp(t[q].tag, r.tag) && t[q].type == r.type;
            if (!dup)
                t[n++] = r;
        }
    }
    qsort(t, n, sizeof *t, cmp_tagref);
    /* Accessors are named by tag; when one tag has several payload types, also by type. They are
       named after every type, so a clash (a type ErrorError beside a tag Error, a tag Status and
       PREFIX_error_status) gives the accessor a _payload suffix. */
    for (size_t i = 0; i < n; i++) {
        size_t same = 0;
        for (size_t k = 0; k < n; k++)
            same += !strcmp(t[k].tag, t[i].tag);
        const char *s = sdkc_snake_case(cx->arena, t[i].tag);
        const char *want =
            same > 1 ? sdkc_arena_printf(cx->arena, "error_%s_as_%s", s ? s : "", t[i].type->base)
                     : sdkc_arena_printf(cx->arena, "error_%s", s ? s : "");
        const char *name = want ? emit_unique_with(cx, want, "_payload", NULL, NULL) : NULL;
        t[i].accessor = name ? sdkc_arena_printf(cx->arena, "%s_%s", cx->prefix, name) : NULL;
        if (!t[i].accessor) {
            free(t);
            return NULL;
        }
    }
    *n_out = n;
    return t;
}

static void emit_ops_h(emit_ctx *cx, sdkc_buf *b, cop *ops, size_t nops, tagref *tags, size_t ntags)
{
    const char *P = cx->prefix, *U = cx->upper;
    banner(cx, b, "ops.h: the client and one function per operation");
    sdkc_buf_printf(b, "#ifndef %s_OPS_H\n#define %s_OPS_H\n\n#include \"%s/types.h\"\n\n", U, U,
                    P);
    sdkc_buf_puts(b, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
    sdkc_buf_printf(
        b,
        "/* The one global initialisation (libcurl); call once before any client. */\n"
        "%s_status %s_global_init(void);\nvoid %s_global_cleanup(void);\n\n"
        "/* A new client in *out (owned by the caller; %s_client_free). opts is copied (its "
        "transport is borrowed).\n * Fails with INVALID_ARGUMENT when the linked libsdkrt does "
        "not serve this SDK's version. */\n"
        "%s_status %s_client_new(%s_client **out, const %s_client_options *opts, %s_error "
        "**err);\nvoid %s_client_free(%s_client *client); /* NULL is a no-op */\n"
        "/* Release a non-JSON body returned by an operation. NULL is a no-op. */\n"
        "void %s_bytes_free(%s_bytes *bytes);\n\n",
        P, P, P, P, P, P, P, P, P, P, P, P, P);
    sdkc_buf_printf(
        b,
        "/* Errors: CLIENT errors carry a reason; DOMAIN errors carry a declared tag and a typed "
        "payload. All borrowed\n * from err.\n *\n"
        " * Every %s_error **err parameter follows GLib's GError rules: err may be NULL (no "
        "details wanted); otherwise\n * *err must be NULL on entry, and on failure it receives "
        "one new error that the caller owns and\n * releases with %s_error_free, or with "
        "%s_error_clear, which also resets the variable to NULL for the\n * next call. The "
        "SDK never frees or overwrites a non-NULL *err: when it already holds an error, that\n"
        " * first error is kept and the new one is dropped. */\n"
        "void %s_error_free(%s_error *err); /* NULL is a no-op */\n"
        "/* Free *err and set it to NULL, so the variable can be passed again (err or *err NULL: "
        "no-op). */\n"
        "void %s_error_clear(%s_error **err);\n"
        "int %s_error_is_domain(const %s_error *err);\n"
        "const char *%s_error_tag(const %s_error *err); /* DOMAIN tag, or NULL */\n"
        "%s_reason %s_error_reason(const %s_error *err); /* CLIENT reason, NONE for DOMAIN */\n"
        "const char *%s_error_reason_name(const %s_error *err); /* \"TRANSPORT\", ... */\n"
        "int %s_error_status(const %s_error *err); /* HTTP status, 0 if none */\n"
        "const char *%s_error_message(const %s_error *err);\n"
        "/* The kept response body (first 64 KiB), or NULL. */\n"
        "const char *%s_error_body(const %s_error *err, size_t *len);\n"
        "/* The name of a reason (\"TIMEOUT\", ...; static). */\n"
        "const char *%s_reason_name(%s_reason reason);\n\n",
        P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P);
    sdkc_buf_printf(
        b,
        "/* Cancellation: trigger a token from any thread to stop the calls and streams that "
        "carry it\n * (%s_call_options.cancel) with a CANCELLED error. */\n"
        "%s_status %s_cancel_new(%s_cancel **out, %s_error **err); /* *out new: %s_cancel_free */\n"
        "void %s_cancel_trigger(%s_cancel *cancel);\n"
        "bool %s_cancel_is_triggered(const %s_cancel *cancel);\n"
        "void %s_cancel_reset(%s_cancel *cancel); /* untriggered again, for the next call */\n"
        "void %s_cancel_free(%s_cancel *cancel); /* NULL is a no-op */\n\n"
        "/* Transports (%s_client_options.transport, borrowed by the client, which it must "
        "outlive). */\n"
        "%s_status %s_curl_transport_new(%s_transport **out, %s_error **err);\n"
        "/* An in-memory server: handler fills each response (handler and userdata borrowed). */\n"
        "%s_status %s_memory_transport_new(%s_transport **out, %s_memory_handler handler, void "
        "*userdata,\n    %s_error **err);\n"
        "void %s_transport_free(%s_transport *transport); /* NULL is a no-op */\n"
        "/* What a memory handler may set (default: 200, no headers, empty body); name, value and "
        "bytes are copied. */\n"
        "void %s_memory_response_set_status(%s_memory_response *response, int status);\n"
        "%s_status %s_memory_response_add_header(%s_memory_response *response, const char *name, "
        "const char *value);\n"
        "/* One chunk of the body: a stream read returns at most one chunk. */\n"
        "%s_status %s_memory_response_add_chunk(%s_memory_response *response, const void *bytes, "
        "size_t len);\n"
        "/* End the body with an error of that reason (TRANSPORT: a cut connection); message "
        "copied, may be NULL. */\n"
        "void %s_memory_response_end_with_error(%s_memory_response *response, %s_reason reason, "
        "const char *message);\n\n",
        P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P,
        P, P, P, P, P, P);
    for (size_t i = 0; i < ntags; i++) {
        sdkc_buf_printf(b,
                        "/* The %s payload of err (borrowed), or NULL when err is not that "
                        "error. */\nconst %s%s(const %s_error *err);\n",
                        tags[i].tag, ptr_decl(cx, tags[i].type->cdecl), tags[i].accessor, P);
    }
    sdkc_buf_putc(b, '\n');
    for (size_t i = 0; i < nops; i++)
        emit_op_protos(cx, b, &ops[i]);
    sdkc_buf_printf(b, "#ifdef __cplusplus\n}\n#endif\n#endif /* %s_OPS_H */\n", U);
}

static bool ascii_ieq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char x = *a >= 'A' && *a <= 'Z' ? (char)(*a + 32) : *a;
        char y = *b >= 'A' && *b <= 'Z' ? (char)(*b + 32) : *b;
        if (x != y)
            return false;
    }
    return *a == *b;
}

/* The runtime kind of scheme s and where an API key goes, or NULL when the runtime cannot send
 * it (HTTP digest, mutual TLS, ...). */
static const char *scheme_kind(const sdkc_security_scheme *s, const char **in)
{
    const char *type = s->type ? s->type : "";
    *in = "SDKRT_IN_HEADER";
    if (strcmp(type, "apiKey") == 0 && s->in && s->param) {
        *in = strcmp(s->in, "query") == 0    ? "SDKRT_IN_QUERY"
              : strcmp(s->in, "cookie") == 0 ? "SDKRT_IN_COOKIE"
                                             : "SDKRT_IN_HEADER";
        return "SDKRT_SECURITY_API_KEY";
    }
    if (strcmp(type, "http") == 0 && s->scheme && ascii_ieq(s->scheme, "basic"))
        return "SDKRT_SECURITY_HTTP_BASIC";
    if ((strcmp(type, "http") == 0 && s->scheme && ascii_ieq(s->scheme, "bearer")) ||
        strcmp(type, "oauth2") == 0 || strcmp(type, "openIdConnect") == 0)
        return "SDKRT_SECURITY_HTTP_BEARER";
    return NULL;
}

/* The operation's security requirements as a static table, set on the request: only those
 * authenticate it (none for `security: []`). A requirement of several schemes is a run tied by
 * with_previous. A requirement with a scheme the runtime cannot send (HTTP digest, ...) is left
 * out whole. */
static void emit_security(emit_ctx *cx, sdkc_buf *b, const sdkc_operation *op)
{
    (void)cx;
    size_t n = 0;
    for (size_t i = 0; i < op->nsecurity;) {
        size_t end = sdkc_security_requirement_end(op, i);
        bool sendable = end - i <= SDKRT_SECURITY_MAX_TOGETHER_WANT;
        for (size_t k = i; k < end && sendable; k++) {
            const char *in = NULL;
            sendable = scheme_kind(op->security[k], &in) != NULL;
        }
        for (size_t k = i; k < end && sendable; k++) {
            const sdkc_security_scheme *s = op->security[k];
            const char *in = NULL, *kind = scheme_kind(s, &in);
            if (n++ == 0)
                sdkc_buf_puts(b, "    static const sdkrt_security_scheme security[] = {\n");
            sdkc_buf_puts(b, "        {");
            put_c_string(b, s->name);
            sdkc_buf_printf(b, ", %s, %s, ", kind, in);
            if (s->param && strcmp(kind, "SDKRT_SECURITY_API_KEY") == 0)
                put_c_string(b, s->param);
            else
                sdkc_buf_puts(b, "NULL");
            sdkc_buf_printf(b, ", %s},\n", k > i ? "true" : "false");
        }
        i = end;
    }
    if (n)
        sdkc_buf_puts(b, "    };\n");
    sdkc_buf_printf(b,
                    "    if (sdkrt_request_set_security(req, %s, %zu) != SDKRT_OK) {\n"
                    "        sdkrt_request_free(req);\n        return sdkrt_error_set(err, "
                    "SDKRT_REASON_OUT_OF_MEMORY, \"out of memory\");\n    }\n",
                    n ? "security" : "NULL", n);
}

/* What every request of an operation carries besides its parameters: the Accept header and the
 * operation's security requirements (first pages and continuations alike). */
static void emit_accept_and_security(emit_ctx *cx, sdkc_buf *b, const sdkc_operation *op)
{
    if (op->success.content_type && op->success.encoding != SDKC_ENC_SSE &&
        op->success.encoding != SDKC_ENC_NONE) {
        /* A JSON result declared under a range (star/star, application/star) is asked for as
           JSON first: the client decodes nothing else, and the server may pick any type. */
        const char *accept = op->success.content_type;
        if (op->success.encoding == SDKC_ENC_JSON && strchr(accept, '*'))
            accept = sdkc_arena_printf(cx->arena, "application/json, %s;q=0.8", accept);
        sdkc_buf_puts(b, "    if (sdkrt_request_set_header(req, \"Accept\", ");
        put_c_string(b, accept);
        sdkc_buf_puts(b, ") != SDKRT_OK) {\n        sdkrt_request_free(req);\n"
                         "        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "
                         "\"out of memory\");\n    }\n");
    }
    if (cx->ir->nschemes > 0)
        emit_security(cx, b, op);
}

/* The static request builder of an operation. */
static void emit_builder(emit_ctx *cx, sdkc_buf *b, const cop *o)
{
    const sdkc_operation *op = o->op;
    const char *P = cx->prefix, *N = o->name;
    sdkc_buf_printf(b, "static %s_status build_%s(sdkrt_request **out, ", P, N);
    if (o->has_request)
        sdkc_buf_printf(b, "const %s_%s_request *request, ", P, N);
    sdkc_buf_printf(b, "%s_error **err)\n{\n    sdkrt_request *req = NULL;\n    *out = NULL;\n", P);
    if (o->has_request && request_optional(op))
        sdkc_buf_printf(b,
                        "    static const %s_%s_request defaults; /* every parameter absent */\n"
                        "    if (!request)\n        request = &defaults;\n",
                        P, N);
    else if (o->has_request)
        sdkc_buf_printf(b,
                        "    if (!request)\n        return sdkrt_error_set(err, "
                        "SDKRT_REASON_INVALID_ARGUMENT, \"%s: request is NULL\");\n",
                        op->id);
    sdkc_buf_puts(b, "    if (sdkrt_request_new(&req, ");
    put_c_string(b, op->method);
    sdkc_buf_puts(b, ", ");
    put_c_string(b, op->path);
    sdkc_buf_puts(b, ") != SDKRT_OK)\n        return sdkrt_error_set(err, "
                     "SDKRT_REASON_OUT_OF_MEMORY, \"out of memory\");\n");
    static const char *const in_c[] = {"SDKRT_IN_PATH", "SDKRT_IN_QUERY", "SDKRT_IN_HEADER",
                                       "SDKRT_IN_COOKIE"};
    static const char *const style_c[] = {
        "SDKRT_STYLE_SIMPLE",        "SDKRT_STYLE_FORM",   "SDKRT_STYLE_DEEP_OBJECT",
        "SDKRT_STYLE_LABEL",         "SDKRT_STYLE_MATRIX", "SDKRT_STYLE_SPACE_DELIMITED",
        "SDKRT_STYLE_PIPE_DELIMITED"};
    for (size_t i = 0; i < op->nparams; i++) {
        const sdkc_param *p = &op->params[i];
        const ctype *t = o->params[i];
        if (!t->stores && !t->literal)
            continue; /* null or never: nothing goes on the wire */
        const char *cond =
            p->required ? "" : sdkc_arena_printf(cx->arena, "request->has_%s && ", o->pnames[i]);
        sdkc_buf_printf(b, "    static const sdkrt_param_spec spec_%s = {", o->pnames[i]);
        put_c_string(b, p->wire_name);
        sdkc_buf_printf(b, ", %s, %s, %s, %s};\n", in_c[p->in], style_c[p->style],
                        p->explode ? "true" : "false", p->allow_reserved ? "true" : "false");
        sdkc_buf_printf(b,
                        "    if (%ssdkrt_request_add_typed_param(req, &spec_%s, &%s, "
                        "&request->%s, err) != SDKRT_OK)\n        goto fail;\n",
                        cond, o->pnames[i], desc_name(cx, t), o->pnames[i]);
    }
    if (o->body) {
        const sdkc_body *bd = op->body;
        if (bd->nencodings) {
            sdkc_buf_puts(b, "    static const sdkrt_body_encoding body_enc[] = {\n");
            for (size_t k = 0; k < bd->nencodings; k++) {
                const sdkc_body_encoding *e = &bd->encodings[k];
                sdkc_buf_puts(b, "        {");
                put_c_string(b, e->property);
                sdkc_buf_puts(b, ", ");
                if (e->content_type)
                    put_c_string(b, e->content_type);
                else
                    sdkc_buf_puts(b, "NULL");
                sdkc_buf_printf(b, ", %s, %s, %s, %s},\n", style_c[e->style],
                                e->explode ? "true" : "false", e->allow_reserved ? "true" : "false",
                                e->has_style ? "true" : "false");
            }
            sdkc_buf_puts(b, "    };\n");
        }
        if (bd->nalternatives) {
            /* the caller's choice among the declared types; the encodings are the default's */
            sdkc_buf_puts(b, "    static const char *const media_types[] = {");
            for (size_t k = 0; k < bd->nalternatives; k++) {
                sdkc_buf_puts(b, k ? ", " : "");
                put_c_string(b, bd->alternatives[k]);
            }
            sdkc_buf_puts(b, "};\n    const char *media = ");
            put_c_string(b, bd->content_type);
            sdkc_buf_printf(
                b,
                ";\n    bool alternative = false;\n"
                "    if (request->body_media_type && strcmp(request->body_media_type, media) != 0) "
                "{\n"
                "        for (size_t i = 0; i < %zu && !alternative; i++) {\n"
                "            if (strcmp(request->body_media_type, media_types[i]) == 0) {\n"
                "                media = media_types[i];\n                alternative = true;\n"
                "            }\n        }\n"
                "        if (!alternative) {\n            sdkrt_request_free(req);\n"
                "            return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,\n"
                "                                   \"%s: body media type '%%s' is not one the "
                "operation accepts\",\n                                   "
                "request->body_media_type);\n        }\n    }\n",
                bd->nalternatives, op->id);
        }
        const char *cond = bd->required ? "" : "request->has_body && ";
        const char *media = bd->nalternatives ? "media" : NULL;
        const char *enc = "NULL, 0";
        if (bd->nencodings && bd->nalternatives)
            enc = sdkc_arena_printf(
                cx->arena, "alternative ? NULL : body_enc, alternative ? 0 : %zu", bd->nencodings);
        else if (bd->nencodings)
            enc = sdkc_arena_printf(cx->arena, "body_enc, %zu", bd->nencodings);
        if (o->blob_body) {
            sdkc_buf_printf(b, "    if (%ssdkrt_request_set_blob_body(req, ", cond);
            if (media)
                sdkc_buf_puts(b, media);
            else
                put_c_string(b, bd->content_type);
            sdkc_buf_puts(b, ", &request->body, err) != SDKRT_OK)\n        goto fail;\n");
        } else if (o->nfiles) {
            /* A file part set from a blob stands in for the body's string of that name. */
            sdkc_buf_printf(b, "    %s{\n        %s body = request->body;\n",
                            bd->required ? "" : "if (request->has_body) ",
                            emit_in_decl(cx, o->body));
            sdkc_buf_puts(b, "        static const char *const file_names[] = {");
            for (size_t i = 0; i < o->nfiles; i++) {
                sdkc_buf_puts(b, i ? ", " : "");
                put_c_string(b, o->files[i]->f->wire_name);
            }
            sdkc_buf_puts(b, "};\n        const sdkrt_blob *const files[] = {");
            for (size_t i = 0; i < o->nfiles; i++)
                sdkc_buf_printf(b, "%s&request->body_files.%s", i ? ", " : "", o->files[i]->cname);
            sdkc_buf_puts(b, "};\n");
            for (size_t i = 0; i < o->nfiles; i++) {
                const cfield *f = o->files[i];
                sdkc_buf_printf(b, "        if (sdkrt_blob_is_set(files[%zu])) {\n", i);
                if (!f->f->required)
                    sdkc_buf_printf(b, "            body.has_%s = true;\n", f->cname);
                if (f->nullable)
                    sdkc_buf_printf(b, "            body.%s_null = false;\n", f->cname);
                sdkc_buf_printf(b, "            body.%s = \"\";\n        }\n", f->cname);
            }
            sdkc_buf_printf(b,
                            "        json_t *json = NULL;\n"
                            "        if (sdkrt_json_encode(&%s, &body, &json, err) != SDKRT_OK)\n"
                            "            goto fail;\n"
                            "        sdkrt_status body_st = sdkrt_request_set_body_as(req, ",
                            desc_name(cx, o->body));
            if (media)
                sdkc_buf_puts(b, media);
            else
                put_c_string(b, bd->content_type);
            sdkc_buf_printf(b,
                            ", json, %s, file_names, files, %zu, err);\n"
                            "        json_decref(json);\n        if (body_st != SDKRT_OK)\n"
                            "            goto fail;\n    }\n",
                            enc, o->nfiles);
        } else {
            sdkc_buf_printf(b, "    if (%ssdkrt_request_set_typed_body(req, ", cond);
            if (media)
                sdkc_buf_puts(b, media);
            else
                put_c_string(b, bd->content_type);
            sdkc_buf_printf(b, ", &%s, &request->body, %s, err) != SDKRT_OK)\n        goto fail;\n",
                            desc_name(cx, o->body), enc);
        }
    }
    emit_accept_and_security(cx, b, op);
    sdkc_buf_puts(b, "    *out = req;\n    return SDKRT_OK;\n");
    bool any_fail = o->body != NULL;
    for (size_t i = 0; i < op->nparams; i++)
        any_fail = any_fail || o->params[i]->stores || o->params[i]->literal;
    if (any_fail)
        sdkc_buf_puts(b, "fail:\n    sdkrt_request_free(req);\n    return SDKRT_ERR;\n");
    sdkc_buf_puts(b, "}\n\n");
}

static void emit_op_desc(emit_ctx *cx, sdkc_buf *b, const cop *o)
{
    const sdkc_operation *op = o->op;
    const char *N = o->name;
    size_t nerr = error_entries(op);
    if (nerr) {
        /* status: exact, a range (4 = 4XX) or 0 (default); tag NULL: a body without `_tag` */
        sdkc_buf_printf(b, "static const sdkrt_jerror errors_%s[] = {\n", N);
        for (size_t j = 0; j < nerr; j++) {
            int status = 0;
            const char *tag = NULL;
            const sdkc_type *ty = NULL;
            error_entry(op, j, &status, &tag, &ty);
            sdkc_buf_printf(b, "    {%d, ", status);
            if (tag)
                put_c_string(b, tag);
            else
                sdkc_buf_puts(b, "NULL");
            sdkc_buf_printf(b, ", &%s},\n", desc_name(cx, o->errs[j]));
        }
        sdkc_buf_puts(b, "};\n");
    }
    sdkc_buf_printf(b, "static const sdkrt_jop op_%s = {", N);
    put_c_string(b, op->id);
    sdkc_buf_printf(b, ", %d, %s, ", op->success.status, enc_name(op->success.encoding));
    if (o->result)
        sdkc_buf_printf(b, "&%s, ", desc_name(cx, o->result));
    else
        sdkc_buf_puts(b, "NULL, ");
    if (op->success.unwrap && o->result) {
        put_c_string(b, op->success.unwrap);
        sdkc_buf_puts(b, ", ");
    } else {
        sdkc_buf_puts(b, "NULL, ");
    }
    if (nerr)
        sdkc_buf_printf(b, "errors_%s, %zu, ", N, nerr);
    else
        sdkc_buf_puts(b, "NULL, 0, ");
    if (op->stream && o->item) {
        sdkc_buf_printf(b, "&%s, %s, ", desc_name(cx, o->item),
                        op->stream->item_encoded ? "true" : "false");
        if (op->stream->failure_event)
            put_c_string(b, op->stream->failure_event);
        else
            sdkc_buf_puts(b, "NULL");
        if (o->cause)
            sdkc_buf_printf(b, ", &%s};\n\n", desc_name(cx, o->cause));
        else
            sdkc_buf_puts(b, ", NULL};\n\n");
    } else {
        sdkc_buf_puts(b, "NULL, false, NULL, NULL};\n\n");
    }
}

static void emit_paged(emit_ctx *cx, sdkc_buf *b, const cop *o)
{
    const sdkc_operation *op = o->op;
    const sdkc_pagination *pg = op->pagination;
    const char *P = cx->prefix, *N = o->name;
    const char *body_t = o->result->cdecl;
    const cfield *items = find_field(o->page, pg->items_field);
    const cfield *cur = find_field(o->page, pg->cursor_field);
    const cfield *next = find_field(cur->type, pg->next_field);
    const cfield *prev = pg->previous_field ? find_field(cur->type, pg->previous_field) : NULL;
    size_t np = npath_params(op);
    const char *cursor_t = sdkc_arena_printf(cx->arena, "%s_%s_cursor", P, N);
    const char *page_t = sdkc_arena_printf(cx->arena, "%s_%s_page", P, N);

    sdkc_buf_printf(b, "struct %s {\n    char *value;\n", cursor_t);
    if (np)
        sdkc_buf_printf(b, "    char *path[%zu]; /* path parameter texts */\n", np);
    sdkc_buf_puts(b, "};\n\n");
    sdkc_buf_printf(b,
                    "void %s_free(%s *cursor)\n{\n    if (!cursor)\n        return;\n"
                    "    free(cursor->value);\n",
                    cursor_t, cursor_t);
    if (np)
        sdkc_buf_printf(b, "    for (size_t i = 0; i < %zu; i++)\n        free(cursor->path[i]);\n",
                        np);
    sdkc_buf_puts(b, "    free(cursor);\n}\n\n");

    /* A cursor from a value and path texts (all copied). */
    sdkc_buf_printf(b,
                    "static %s_status %s_cursor_make(%s **out, const char *value, char *const "
                    "*path, %s_error **err)\n{\n",
                    P, N, cursor_t, P);
    sdkc_buf_printf(b,
                    "    %s *c = calloc(1, sizeof *c);\n    *out = NULL;\n"
                    "    if (!c || !(c->value = dup_str(value)))\n        goto oom;\n",
                    cursor_t);
    if (np)
        sdkc_buf_printf(
            b,
            "    for (size_t i = 0; i < %zu; i++) {\n"
            "        if (path[i] && !(c->path[i] = dup_str(path[i])))\n            goto oom;\n"
            "    }\n",
            np);
    else
        sdkc_buf_puts(b, "    (void)path;\n");
    sdkc_buf_printf(b,
                    "    *out = c;\n    return SDKRT_OK;\noom:\n    %s_free(c);\n"
                    "    return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, \"out of "
                    "memory\");\n}\n\n",
                    cursor_t);
    sdkc_buf_printf(b,
                    "%s_status %s_dup(%s **out, const %s *cursor, %s_error **err)\n{\n"
                    "    if (!out || !cursor || !cursor->value)\n        return "
                    "sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT, \"%s: no cursor\");\n"
                    "    return %s_cursor_make(out, cursor->value, %s, err);\n}\n\n",
                    P, cursor_t, cursor_t, cursor_t, P, op->id, N, np ? "cursor->path" : "NULL");
    sdkc_buf_printf(b,
                    "const char *%s_value(const %s *cursor)\n{\n"
                    "    return cursor ? cursor->value : NULL;\n}\n\n",
                    cursor_t, cursor_t);
    sdkc_buf_printf(b,
                    "void %s_free(%s *page)\n{\n    if (!page)\n        return;\n"
                    "    %s_free(page->next);\n    %s_free(page->previous);\n"
                    "    %s_free(page->body);\n    free(page);\n}\n\n",
                    page_t, page_t, cursor_t, cursor_t, body_t);
    /* Wrap a decoded body (stolen) as a page. */
    sdkc_buf_printf(b,
                    "static %s_status %s_page_make(%s **out, %s *body, char *const *path, "
                    "%s_error **err)\n{\n",
                    P, N, page_t, body_t, P);
    sdkc_buf_printf(b,
                    "    %s *page = calloc(1, sizeof *page);\n    *out = NULL;\n    if (!page) {\n"
                    "        %s_free(body);\n        return sdkrt_error_set(err, "
                    "SDKRT_REASON_OUT_OF_MEMORY, \"out of memory\");\n    }\n"
                    "    page->body = body;\n",
                    page_t, body_t);
    sdkc_buf_printf(
        b, "    if %s {\n        page->items = %s.items;\n        page->count = %s.count;\n    }\n",
        field_present(cx, "body", items), field_value(cx, "body", items),
        field_value(cx, "body", items));
    const cfield *ends[2] = {next, prev};
    const char *slot[2] = {"next", "previous"};
    for (int k = 0; k < 2; k++) {
        if (!ends[k])
            continue;
        const char *cv = sdkc_arena_printf(cx->arena, "(&body->%s)", cur->cname);
        sdkc_buf_printf(b, "    if (%s && %s && %s && %s->%s[0] != '\\0' &&\n",
                        field_present(cx, "body", cur), field_present(cx, cv, ends[k]),
                        sdkc_arena_printf(cx->arena, "%s->%s", cv, ends[k]->cname), cv,
                        ends[k]->cname);
        sdkc_buf_printf(b,
                        "        %s_cursor_make(&page->%s, %s->%s, path, err) != SDKRT_OK) {\n"
                        "        %s_free(page);\n        return SDKRT_ERR;\n    }\n",
                        N, slot[k], cv, ends[k]->cname, page_t);
    }
    sdkc_buf_puts(b, "    *out = page;\n    return SDKRT_OK;\n}\n\n");

    /* Send a built request and wrap the result. */
    sdkc_buf_printf(
        b,
        "static %s_status %s_fetch(%s_client *client, const sdkrt_request *req, const "
        "%s_call_options *call,\n    char *const *path, %s **out, %s_error **err)\n{\n"
        "    void *result = NULL;\n"
        "    if (sdkrt_json_call(client, req, call, &op_%s, &result, err) != SDKRT_OK)\n"
        "        return SDKRT_ERR;\n"
        "    return %s_page_make(out, result, path, err);\n}\n\n",
        P, N, P, P, page_t, P, N, N);
    /* The path parameters' texts of a request. */
    sdkc_buf_printf(b,
                    "static %s_status %s_path_texts(char **path, const %s_%s_request *request, "
                    "%s_error **err)\n{\n",
                    P, N, P, N, P);
    if (!np)
        sdkc_buf_puts(b, "    (void)path;\n    (void)request;\n    (void)err;\n");
    else
        sdkc_buf_puts(
            b,
            "    if (!request)\n        return SDKRT_OK; /* build_ refused or defaulted it */\n");
    size_t k = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < op->nparams; i++) {
            const sdkc_param *p = &op->params[i];
            if ((pass == 0) != (p->in == SDKC_PARAM_PATH) || !is_ctx_param(op, p))
                continue;
            if (!o->params[i]->stores && !o->params[i]->literal) {
                k++;
                continue;
            }
            sdkc_buf_printf(
                b,
                "    if (%ssdkrt_json_param_text(&%s, &request->%s, &path[%zu], err) != "
                "SDKRT_OK)\n        return SDKRT_ERR;\n",
                p->required ? ""
                            : sdkc_arena_printf(cx->arena, "request->has_%s && ", o->pnames[i]),
                desc_name(cx, o->params[i]), o->pnames[i], k);
            k++;
        }
    }
    sdkc_buf_puts(b, "    return SDKRT_OK;\n}\n\n");

    /* a cursor from a kept text */
    sdkc_buf_printf(b, "%s_status %s_new(%s **out, %sconst char *value, %s_error **err)\n{\n", P,
                    cursor_t, cursor_t,
                    np ? sdkc_arena_printf(cx->arena, "const %s_%s_request *request, ", P, N) : "",
                    P);
    sdkc_buf_printf(b,
                    "    char *path[%zu] = {NULL};\n    %s_status st = SDKRT_ERR;\n"
                    "    if (out)\n        *out = NULL;\n"
                    "    if (!out || !value%s)\n        return sdkrt_error_set(err, "
                    "SDKRT_REASON_INVALID_ARGUMENT, \"%s: out, value%s are required\");\n",
                    np ? np : 1, P, np ? " || !request" : "", op->id, np ? " and request" : "");
    if (np)
        sdkc_buf_printf(b,
                        "    if (%s_path_texts(path, request, err) == SDKRT_OK)\n"
                        "        st = %s_cursor_make(out, value, path, err);\n"
                        "    for (size_t i = 0; i < %zu; i++)\n        free(path[i]);\n",
                        N, N, np);
    else
        sdkc_buf_printf(b, "    st = %s_cursor_make(out, value, path, err);\n", N);
    sdkc_buf_puts(b, "    return st;\n}\n\n");

    /* first page */
    sdkc_buf_printf(b,
                    "%s_status %s_%s(%s_client *client, const %s_%s_request *request, const "
                    "%s_call_options *call,\n    %s **out, %s_error **err)\n{\n",
                    P, P, N, P, P, N, P, page_t, P);
    sdkc_buf_printf(b,
                    "    sdkrt_request *req = NULL;\n    char *path[%zu] = {NULL};\n"
                    "    %s_status st = SDKRT_ERR;\n    if (out)\n        *out = NULL;\n"
                    "    if (!client || !out)\n        return sdkrt_error_set(err, "
                    "SDKRT_REASON_INVALID_ARGUMENT, \"%s: client and out are required\");\n"
                    "    if (build_%s(&req, request, err) != SDKRT_OK || %s_path_texts(path, "
                    "request, err) != SDKRT_OK)\n        goto done;\n"
                    "    st = %s_fetch(client, req, call, path, out, err);\ndone:\n",
                    np ? np : 1, P, op->id, N, N, N);
    sdkc_buf_printf(b, "    for (size_t i = 0; i < %zu; i++)\n        free(path[i]);\n",
                    np ? np : 1);
    sdkc_buf_puts(b, "    sdkrt_request_free(req);\n    return st;\n}\n\n");

    /* continuation */
    sdkc_buf_printf(b,
                    "static %s_status %s_cursor_request(sdkrt_request **out, const %s *cursor, "
                    "%s_error **err)\n{\n    sdkrt_request *req = NULL;\n    *out = NULL;\n",
                    P, N, cursor_t, P);
    sdkc_buf_printf(b,
                    "    if (!cursor || !cursor->value)\n        return sdkrt_error_set(err, "
                    "SDKRT_REASON_INVALID_ARGUMENT, \"%s: no cursor\");\n"
                    "    if (sdkrt_request_new(&req, ",
                    op->id);
    put_c_string(b, op->method);
    sdkc_buf_puts(b, ", ");
    put_c_string(b, op->path);
    sdkc_buf_puts(b, ") != SDKRT_OK)\n        return sdkrt_error_set(err, "
                     "SDKRT_REASON_OUT_OF_MEMORY, \"out of memory\");\n");
    k = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < op->nparams; i++) {
            const sdkc_param *p = &op->params[i];
            if ((pass == 0) != (p->in == SDKC_PARAM_PATH) || !is_ctx_param(op, p))
                continue;
            if (pass == 0) {
                sdkc_buf_puts(b, "    sdkrt_request_set_path_param(req, ");
            } else {
                sdkc_buf_printf(
                    b, "    if (cursor->path[%zu])\n        sdkrt_request_add_query(req, ", k);
            }
            put_c_string(b, p->wire_name);
            sdkc_buf_printf(b, ", cursor->path[%zu]);\n", k++);
        }
    }
    sdkc_buf_puts(b, "    sdkrt_request_add_query(req, ");
    put_c_string(b, pg->cursor_param->wire_name);
    sdkc_buf_puts(b, ", cursor->value);\n"
                     "    if (sdkrt_request_error(req)) {\n        sdkrt_error_set(err, "
                     "SDKRT_REASON_INVALID_ARGUMENT, \"%s\", sdkrt_request_error(req));\n"
                     "        sdkrt_request_free(req);\n        return SDKRT_ERR;\n    }\n");
    emit_accept_and_security(cx, b, op);
    sdkc_buf_puts(b, "    *out = req;\n    return SDKRT_OK;\n}\n\n");
    sdkc_buf_printf(b,
                    "%s_status %s_%s_continue(%s_client *client, const %s *cursor, const "
                    "%s_call_options *call,\n    %s **out, %s_error **err)\n{\n"
                    "    sdkrt_request *req = NULL;\n    if (out)\n        *out = NULL;\n"
                    "    if (!client || !out)\n        return sdkrt_error_set(err, "
                    "SDKRT_REASON_INVALID_ARGUMENT, \"%s: client and out are required\");\n"
                    "    if (%s_cursor_request(&req, cursor, err) != SDKRT_OK)\n"
                    "        return SDKRT_ERR;\n"
                    "    %s_status st = %s_fetch(client, req, call, %s, out, err);\n"
                    "    sdkrt_request_free(req);\n    return st;\n}\n\n",
                    P, P, N, P, cursor_t, P, page_t, P, op->id, N, P, N,
                    np ? "cursor->path" : "NULL");

    /* iterator */
    sdkc_buf_printf(
        b,
        "struct %s_%s_iter {\n    %s_client *client;\n    const %s_call_options *call;\n"
        "    sdkrt_request *first;\n    char *path[%zu];\n    %s *page;\n"
        "    size_t index;\n    bool done;\n};\n\n",
        P, N, P, P, np ? np : 1, page_t);
    sdkc_buf_printf(b,
                    "void %s_%s_iter_free(%s_%s_iter *it)\n{\n    if (!it)\n        return;\n"
                    "    sdkrt_request_free(it->first);\n"
                    "    for (size_t i = 0; i < %zu; i++)\n        free(it->path[i]);\n"
                    "    %s_free(it->page);\n    free(it);\n}\n\n",
                    P, N, P, N, np ? np : 1, page_t);
    sdkc_buf_printf(b,
                    "%s_status %s_%s_iter_new(%s_%s_iter **out, %s_client *client, const "
                    "%s_%s_request *request,\n    const %s_call_options *call, %s_error **err)\n{\n"
                    "    if (!out || !client)\n        return sdkrt_error_set(err, "
                    "SDKRT_REASON_INVALID_ARGUMENT, \"%s: client and out are required\");\n"
                    "    *out = NULL;\n    %s_%s_iter *it = calloc(1, sizeof *it);\n"
                    "    if (!it)\n        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, "
                    "\"out of memory\");\n"
                    "    it->client = client;\n    it->call = call;\n"
                    "    if (build_%s(&it->first, request, err) != SDKRT_OK || "
                    "%s_path_texts(it->path, request, err) != SDKRT_OK) {\n"
                    "        %s_%s_iter_free(it);\n        return SDKRT_ERR;\n    }\n"
                    "    *out = it;\n    return SDKRT_OK;\n}\n\n",
                    P, P, N, P, N, P, P, N, P, P, op->id, P, N, N, N, P, N);
    sdkc_buf_printf(
        b,
        "%s_next %s_%s_iter_next(%s_%s_iter *it, %s*item, %s_error **err)\n{\n"
        "    if (item)\n        *item = NULL;\n"
        "    if (!it || !item) {\n        sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT, "
        "\"%s: iterator and item are required\");\n        return %s_NEXT_ERROR;\n    }\n"
        "    for (;;) {\n"
        "        if (it->page && it->index < it->page->count) {\n"
        "            *item = &it->page->items[it->index++];\n            return %s_NEXT_ITEM;\n"
        "        }\n"
        "        if (it->done || (it->page && !it->page->next))\n            return "
        "%s_NEXT_END;\n"
        "        %s *next = NULL;\n        %s_status st;\n"
        "        if (!it->page)\n"
        "            st = %s_fetch(it->client, it->first, it->call, it->path, &next, err);\n"
        "        else\n"
        "            st = %s_%s_continue(it->client, it->page->next, it->call, &next, err);\n"
        "        if (st != SDKRT_OK) {\n            it->done = true;\n            return "
        "%s_NEXT_ERROR;\n        }\n"
        "        %s_free(it->page);\n        it->page = next;\n        it->index = 0;\n"
        "    }\n}\n\n",
        P, P, N, P, N, const_ptr(cx, o->item->cdecl), P, op->id, cx->upper, cx->upper, cx->upper,
        page_t, P, N, P, N, cx->upper, page_t);
}

static void emit_stream(emit_ctx *cx, sdkc_buf *b, const cop *o)
{
    const char *P = cx->prefix, *N = o->name, *U = cx->upper;
    sdkc_buf_printf(b, "struct %s_%s_stream {\n    sdkrt_jstream *s;\n};\n\n", P, N);
    sdkc_buf_printf(b, "%s_status %s_%s_open(%s_%s_stream **out, %s_client *client, ", P, P, N, P,
                    N, P);
    if (o->has_request)
        sdkc_buf_printf(b, "const %s_%s_request *request, ", P, N);
    sdkc_buf_printf(b,
                    "const %s_call_options *call,\n    %s_error **err)\n{\n"
                    "    sdkrt_request *req = NULL;\n    %s_%s_stream *s = NULL;\n"
                    "    if (!out || !client)\n        return sdkrt_error_set(err, "
                    "SDKRT_REASON_INVALID_ARGUMENT, \"%s: client and out are required\");\n"
                    "    *out = NULL;\n",
                    P, P, P, N, o->op->id);
    sdkc_buf_printf(b, "    if (build_%s(&req%s, err) != SDKRT_OK)\n        return SDKRT_ERR;\n", N,
                    o->has_request ? ", request" : "");
    sdkc_buf_printf(
        b,
        "    s = calloc(1, sizeof *s);\n    if (!s) {\n        sdkrt_request_free(req);\n"
        "        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, \"out of "
        "memory\");\n    }\n"
        "    %s_status st = sdkrt_jstream_open(&s->s, client, req, call, &op_%s, err);\n"
        "    sdkrt_request_free(req);\n"
        "    if (st != SDKRT_OK) {\n        free(s);\n        return SDKRT_ERR;\n    }\n"
        "    *out = s;\n    return SDKRT_OK;\n}\n\n",
        P, N);
    sdkc_buf_printf(b,
                    "%s_next %s_%s_next(%s_%s_stream *stream, %s*item, %s_error **err)\n{\n"
                    "    const void *v = NULL;\n    if (item)\n        *item = NULL;\n"
                    "    if (!stream || !item) {\n        sdkrt_error_set(err, "
                    "SDKRT_REASON_INVALID_ARGUMENT, \"%s: stream and item are required\");\n"
                    "        return %s_NEXT_ERROR;\n    }\n"
                    "    sdkrt_stream_result r = sdkrt_jstream_next(stream->s, &v, err);\n"
                    "    if (r == SDKRT_STREAM_EVENT) {\n        *item = v;\n        return "
                    "%s_NEXT_ITEM;\n    }\n"
                    "    return r == SDKRT_STREAM_END ? %s_NEXT_END : %s_NEXT_ERROR;\n}\n\n",
                    P, P, N, P, N, const_ptr(cx, o->item->cdecl), P, o->op->id, U, U, U, U);
    sdkc_buf_printf(b,
                    "void %s_%s_close(%s_%s_stream *stream)\n{\n    if (!stream)\n        return;\n"
                    "    sdkrt_jstream_close(stream->s);\n    free(stream);\n}\n\n",
                    P, N, P, N);
    if (o->cause)
        sdkc_buf_printf(b,
                        "%s%s_%s_failure(const %s_error *err)\n{\n"
                        "    const char *tag = err ? sdkrt_error_tag(err) : NULL;\n"
                        "    if (!tag || strcmp(tag, SDKRT_JSTREAM_FAILURE_TAG) != 0)\n"
                        "        return NULL;\n    return sdkrt_error_payload(err);\n}\n\n",
                        const_ptr(cx, o->cause->cdecl), P, N, P);
}

static void emit_unary(emit_ctx *cx, sdkc_buf *b, const cop *o)
{
    const sdkc_operation *op = o->op;
    const char *P = cx->prefix, *N = o->name;
    const char *outp = out_param(cx, o);
    sdkc_buf_printf(b, "%s_status %s_%s(%s_client *client, ", P, P, N, P);
    if (o->has_request)
        sdkc_buf_printf(b, "const %s_%s_request *request, ", P, N);
    sdkc_buf_printf(b, "const %s_call_options *call, ", P);
    if (outp)
        sdkc_buf_printf(b, "%s, ", outp);
    sdkc_buf_printf(b, "%s_error **err)\n{\n    sdkrt_request *req = NULL;\n", P);
    /* A non-struct result (a scalar, a pointer such as char * or json_t *) is copied out of the
       storage the runtime decoded into: out points to that storage type, not to a pointer. */
    bool copy = outp && op->success.encoding == SDKC_ENC_JSON && !(op->pagination && page_ok(o)) &&
                !o->result->is_struct;
    if (outp)
        sdkc_buf_printf(b, "    void *result = NULL;\n    if (out)\n        %s;\n",
                        copy ? "memset(out, 0, sizeof *out)" : "*out = NULL");
    sdkc_buf_printf(b,
                    "    if (!client%s)\n        return sdkrt_error_set(err, "
                    "SDKRT_REASON_INVALID_ARGUMENT, \"%s: client%s required\");\n",
                    outp ? " || !out" : "", op->id, outp ? " and out are" : " is");
    sdkc_buf_printf(b, "    if (build_%s(&req%s, err) != SDKRT_OK)\n        return SDKRT_ERR;\n", N,
                    o->has_request ? ", request" : "");
    sdkc_buf_printf(b, "    %s_status st = sdkrt_json_call(client, req, call, &op_%s, %s, err);\n",
                    P, N, outp ? "&result" : "NULL");
    sdkc_buf_puts(b, "    sdkrt_request_free(req);\n");
    if (outp) {
        if (copy)
            sdkc_buf_printf(b,
                            "    if (st == SDKRT_OK) {\n        *out = *(%s)result;\n"
                            "        free(result);\n    }\n",
                            ptr_decl(cx, o->result->cdecl));
        else
            sdkc_buf_puts(b, "    if (st == SDKRT_OK)\n        *out = result;\n");
    }
    sdkc_buf_puts(b, "    return st;\n}\n\n");
}

static void emit_ops_c(emit_ctx *cx, sdkc_buf *b, cop *ops, size_t nops, tagref *tags, size_t ntags)
{
    const char *P = cx->prefix;
    banner(cx, b, "ops.c: the client and the operations");
    sdkc_buf_puts(b, "#include <stdlib.h>\n#include <string.h>\n\n#include \"internal.h\"\n"
                     "#include \"sdkrt/wire.h\"\n\n");
    sdkc_buf_printf(
        b,
        "%s_status %s_global_init(void)\n{\n    return sdkrt_global_init();\n}\n\n"
        "void %s_global_cleanup(void)\n{\n    sdkrt_global_cleanup();\n}\n\n"
        "%s_status %s_client_new(%s_client **out, const %s_client_options *opts, %s_error "
        "**err)\n{\n"
        "    if (out)\n        *out = NULL;\n"
        "    if (!sdkrt_version_check(SDKRT_VERSION_MAJOR, SDKRT_VERSION_MINOR))\n"
        "        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT,\n"
        "                               \"libsdkrt %%s does not serve this SDK (built for "
        "%%d.%%d)\", sdkrt_version_string(),\n"
        "                               SDKRT_VERSION_MAJOR, SDKRT_VERSION_MINOR);\n"
        "    return sdkrt_client_new(out, opts, err);\n}\n\n"
        "void %s_client_free(%s_client *client)\n{\n    sdkrt_client_free(client);\n}\n\n"
        "void %s_bytes_free(%s_bytes *bytes)\n{\n    sdkrt_bytes_free(bytes);\n}\n\n",
        P, P, P, P, P, P, P, P, P, P, P, P);
    sdkc_buf_printf(
        b,
        "void %s_error_free(%s_error *err)\n{\n    sdkrt_error_free(err);\n}\n\n"
        "void %s_error_clear(%s_error **err)\n{\n    sdkrt_error_clear(err);\n}\n\n"
        "int %s_error_is_domain(const %s_error *err)\n{\n"
        "    return err && sdkrt_error_kind(err) == SDKRT_ERROR_DOMAIN;\n}\n\n"
        "const char *%s_error_tag(const %s_error *err)\n{\n"
        "    return err ? sdkrt_error_tag(err) : NULL;\n}\n\n"
        "%s_reason %s_error_reason(const %s_error *err)\n{\n"
        "    return err ? sdkrt_error_reason(err) : SDKRT_REASON_NONE;\n}\n\n"
        "const char *%s_error_reason_name(const %s_error *err)\n{\n"
        "    return sdkrt_reason_name(err ? sdkrt_error_reason(err) : SDKRT_REASON_NONE);\n}\n\n"
        "int %s_error_status(const %s_error *err)\n{\n"
        "    return err ? sdkrt_error_status(err) : 0;\n}\n\n"
        "const char *%s_error_message(const %s_error *err)\n{\n"
        "    return err ? sdkrt_error_message(err) : \"no error\";\n}\n\n"
        "const char *%s_error_body(const %s_error *err, size_t *len)\n{\n"
        "    if (len)\n        *len = 0;\n    return err ? sdkrt_error_body(err, len) : "
        "NULL;\n}\n\n"
        "const char *%s_reason_name(%s_reason reason)\n{\n    return "
        "sdkrt_reason_name(reason);\n}\n\n",
        P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P);
    sdkc_buf_printf(
        b,
        "%s_status %s_cancel_new(%s_cancel **out, %s_error **err)\n{\n"
        "    if (!out)\n        return sdkrt_error_set(err, SDKRT_REASON_INVALID_ARGUMENT, "
        "\"%s_cancel_new: out is NULL\");\n"
        "    if (sdkrt_cancel_new(out) != SDKRT_OK)\n"
        "        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, \"out of memory\");\n"
        "    return SDKRT_OK;\n}\n\n"
        "void %s_cancel_trigger(%s_cancel *cancel)\n{\n    sdkrt_cancel_trigger(cancel);\n}\n\n"
        "bool %s_cancel_is_triggered(const %s_cancel *cancel)\n{\n"
        "    return sdkrt_cancel_is_triggered(cancel);\n}\n\n"
        "void %s_cancel_reset(%s_cancel *cancel)\n{\n    sdkrt_cancel_reset(cancel);\n}\n\n"
        "void %s_cancel_free(%s_cancel *cancel)\n{\n    sdkrt_cancel_free(cancel);\n}\n\n"
        "%s_status %s_curl_transport_new(%s_transport **out, %s_error **err)\n{\n"
        "    return sdkrt_curl_transport_new(out, err);\n}\n\n"
        "%s_status %s_memory_transport_new(%s_transport **out, %s_memory_handler handler, void "
        "*userdata,\n    %s_error **err)\n{\n"
        "    if (out)\n        *out = NULL;\n"
        "    if (!out || !handler)\n        return sdkrt_error_set(err, "
        "SDKRT_REASON_INVALID_ARGUMENT, \"%s_memory_transport_new: out and handler are "
        "required\");\n"
        "    if (sdkrt_memory_transport_new(out, handler, userdata) != SDKRT_OK)\n"
        "        return sdkrt_error_set(err, SDKRT_REASON_OUT_OF_MEMORY, \"out of memory\");\n"
        "    return SDKRT_OK;\n}\n\n"
        "void %s_transport_free(%s_transport *transport)\n{\n    "
        "sdkrt_transport_free(transport);\n}\n\n"
        "void %s_memory_response_set_status(%s_memory_response *response, int status)\n{\n"
        "    sdkrt_memory_response_set_status(response, status);\n}\n\n"
        "%s_status %s_memory_response_add_header(%s_memory_response *response, const char *name, "
        "const char *value)\n{\n"
        "    return sdkrt_memory_response_add_header(response, name, value);\n}\n\n"
        "%s_status %s_memory_response_add_chunk(%s_memory_response *response, const void *bytes, "
        "size_t len)\n{\n"
        "    return sdkrt_memory_response_add_chunk(response, bytes, len);\n}\n\n"
        "void %s_memory_response_end_with_error(%s_memory_response *response, %s_reason reason, "
        "const char *message)\n{\n"
        "    sdkrt_memory_response_end_with_error(response, reason, message);\n}\n\n",
        P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P,
        P, P, P, P, P);
    bool any_paged = false;
    for (size_t i = 0; i < nops; i++)
        any_paged = any_paged || (ops[i].op->pagination && page_ok(&ops[i]) && !ops[i].op->stream);
    if (any_paged)
        sdkc_buf_puts(b, "/* strdup without relying on POSIX feature macros. */\n"
                         "static char *dup_str(const char *s)\n{\n    size_t n = strlen(s) + 1;\n"
                         "    char *d = malloc(n);\n    if (d)\n        memcpy(d, s, n);\n"
                         "    return d;\n}\n\n");
    for (size_t i = 0; i < ntags; i++) {
        sdkc_buf_printf(b, "const %s%s(const %s_error *err)\n{\n",
                        ptr_decl(cx, tags[i].type->cdecl), tags[i].accessor, P);
        sdkc_buf_puts(b, "    const char *tag = err ? sdkrt_error_tag(err) : NULL;\n"
                         "    if (!tag || strcmp(tag, ");
        put_c_string(b, tags[i].tag);
        sdkc_buf_puts(b,
                      ") != 0)\n        return NULL;\n    return sdkrt_error_payload(err);\n}\n\n");
    }
    for (size_t i = 0; i < nops; i++) {
        const cop *o = &ops[i];
        sdkc_buf_printf(b, "/* ---- %s ---- */\n\n", o->op->id);
        emit_op_desc(cx, b, o);
        emit_builder(cx, b, o);
        if (o->op->stream && o->item)
            emit_stream(cx, b, o);
        else if (o->op->pagination && page_ok(o))
            emit_paged(cx, b, o);
        else
            emit_unary(cx, b, o);
    }
}

/* ---- build files and README ---- */

static void emit_umbrella(emit_ctx *cx, sdkc_buf *b)
{
    const char *P = cx->prefix, *U = cx->upper;
    banner(cx, b, "the umbrella header");
    sdkc_buf_printf(b, "#ifndef %s_H\n#define %s_H\n\n", U, U);
    sdkc_buf_printf(b, "#define %s_API_TITLE ", U);
    put_c_string(b, cx->ir->title ? cx->ir->title : "");
    sdkc_buf_printf(b, "\n#define %s_API_VERSION ", U);
    put_c_string(b, cx->ir->version ? cx->ir->version : "");
    sdkc_buf_printf(b, "\n\n#include \"%s/types.h\"\n#include \"%s/ops.h\"\n\n#endif\n", P, P);
}

/* Copy template lines, replacing {{P}} (prefix), {{V}} (sdkc version), {{RTV}} (libsdkrt version
 * wanted), {{SRC}} (contract file name) and {{TITLE}} (API title, on one line as a .pc field
 * needs). */
/* With --tests: the <prefix>_mock executable (tests/mock.c), in both build modes (%s: prefix). */
static const char mock_cmake_sdkrt[] =
    "  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/tests/mock.c)\n"
    "    add_executable(%s_mock ${CMAKE_CURRENT_SOURCE_DIR}/tests/mock.c)\n"
    "    set_target_properties(%s_mock PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON "
    "C_EXTENSIONS OFF)\n"
    "    target_link_libraries(%s_mock PRIVATE %s)\n"
    "  endif()\n";
static const char mock_cmake_standalone[] =
    "if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/tests/mock.c)\n"
    "  add_executable(%s_mock ${CMAKE_CURRENT_SOURCE_DIR}/tests/mock.c)\n"
    "  set_target_properties(%s_mock PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON "
    "C_EXTENSIONS OFF)\n"
    "  target_link_libraries(%s_mock PRIVATE %s_static)\n"
    "endif()\n";

static void put_template(emit_ctx *cx, sdkc_buf *b, const char *const *lines)
{
    const char *title = cx->ir->title ? cx->ir->title : "an HTTP API";
    char *one_line = sdkc_arena_strdup(cx->arena, title);
    for (char *c = one_line; c && *c; c++)
        if (*c == '\n' || *c == '\r')
            *c = ' ';
    const char *P = cx->prefix;
    const char *keys[][2] = {
        {"P", cx->prefix},
        {"V", SDKC_VERSION},
        {"RTV", sdkc_arena_printf(cx->arena, "%d.%d", SDKRT_MAJOR_WANT, SDKRT_MINOR_WANT)},
        {"SRC", cx->ir->source_name ? base_name(cx->ir->source_name) : "(unknown)"},
        {"TITLE", one_line ? one_line : title},
        {"MOCK_SDKRT", cx->tests ? sdkc_arena_printf(cx->arena, mock_cmake_sdkrt, P, P, P, P) : ""},
        {"MOCK_STANDALONE",
         cx->tests ? sdkc_arena_printf(cx->arena, mock_cmake_standalone, P, P, P, P) : ""},
    };
    for (; *lines; lines++) {
        for (const char *t = *lines; *t;) {
            const char *end = t[0] == '{' && t[1] == '{' ? strstr(t, "}}") : NULL;
            size_t i = 0, n = end ? (size_t)(end - t - 2) : 0;
            while (end && i < sizeof keys / sizeof *keys &&
                   !(strlen(keys[i][0]) == n && !strncmp(t + 2, keys[i][0], n)))
                i++;
            if (end && i < sizeof keys / sizeof *keys && keys[i][1]) {
                sdkc_buf_puts(b, keys[i][1]);
                t = end + 2;
            } else {
                sdkc_buf_putc(b, *t++);
            }
        }
    }
}

static const char *const cmake_template[] = {
    "# Generated by sdkc {{V}} from {{SRC}}. DO NOT EDIT.\n",
    "# The {{P}} C SDK (headers under include/{{P}}/) on libsdkrt. Three ways to build it:\n",
    "#   standalone, against an installed libsdkrt (its CMake package, else pkg-config): the "
    "shared\n",
    "#     lib{{P}}.so.MAJOR ({{P}}::{{P}}) and the static lib{{P}}.a ({{P}}::{{P}}_static), "
    "installed with the\n",
    "#     headers, {{P}}.pc and the CMake package ({{P}}Config.cmake, SameMajorVersion);\n",
    "#   -DSDKRT_SOURCE_DIR=<sdkc>/runtime: libsdkrt built from its sources alongside, a static "
    "`{{P}}`;\n",
    "#   inside a project that already has a `sdkrt` target: a static `{{P}}` target, nothing "
    "installed.\n",
    "cmake_minimum_required(VERSION 3.16)\n",
    "project({{P}} VERSION {{V}} LANGUAGES C)\n",
    "\n",
    "include(GNUInstallDirs)\n",
    "include(CMakePackageConfigHelpers)\n",
    "set(_sdk_sources ${CMAKE_CURRENT_SOURCE_DIR}/src/types.c "
    "${CMAKE_CURRENT_SOURCE_DIR}/src/ops.c)\n",
    "\n",
    "if(NOT TARGET sdkrt AND SDKRT_SOURCE_DIR)\n",
    "  find_package(PkgConfig REQUIRED)\n",
    "  pkg_check_modules(JANSSON REQUIRED IMPORTED_TARGET jansson)\n",
    "  pkg_check_modules(CURL REQUIRED IMPORTED_TARGET libcurl)\n",
    "  find_package(Threads REQUIRED)\n",
    "  if(NOT COMMAND sdkc_warnings)\n",
    "    function(sdkc_warnings target)\n",
    "    endfunction()\n",
    "  endif()\n",
    "  add_compile_definitions(_POSIX_C_SOURCE=200809L)\n",
    "  add_subdirectory(${SDKRT_SOURCE_DIR} sdkrt)\n",
    "endif()\n",
    "if(TARGET sdkrt)\n",
    "  add_library({{P}} STATIC ${_sdk_sources})\n",
    "  set_target_properties({{P}} PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON C_EXTENSIONS "
    "OFF)\n",
    "  target_include_directories({{P}} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include\n",
    "                             PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src)\n",
    "  target_link_libraries({{P}} PUBLIC sdkrt)\n",
    "{{MOCK_SDKRT}}",
    "  return()\n",
    "endif()\n",
    "\n",
    "find_package(sdkrt {{RTV}} CONFIG QUIET)\n",
    "if(sdkrt_FOUND)\n",
    "  set(_sdk_rt_shared sdkrt::sdkrt)\n",
    "  set(_sdk_rt_static sdkrt::sdkrt_static)\n",
    "  set(SDK_RT_MODE cmake)\n",
    "else()\n",
    "  find_package(PkgConfig REQUIRED)\n",
    "  pkg_check_modules(SDKRT REQUIRED IMPORTED_TARGET sdkrt>={{RTV}})\n",
    "  set(_sdk_rt_shared PkgConfig::SDKRT)\n",
    "  set(_sdk_rt_static PkgConfig::SDKRT)\n",
    "  set(SDK_RT_MODE pkg-config)\n",
    "endif()\n",
    "\n",
    "# One set of position-independent objects for both libraries.\n",
    "add_library({{P}}_objects OBJECT ${_sdk_sources})\n",
    "set_target_properties({{P}}_objects PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON\n",
    "                      C_EXTENSIONS OFF POSITION_INDEPENDENT_CODE ON)\n",
    "target_include_directories({{P}}_objects PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/include\n",
    "                                                ${CMAKE_CURRENT_SOURCE_DIR}/src)\n",
    "target_link_libraries({{P}}_objects PRIVATE ${_sdk_rt_shared})\n",
    "add_library({{P}} SHARED $<TARGET_OBJECTS:{{P}}_objects>)\n",
    "# INSTALL_RPATH_USE_LINK_PATH: a libsdkrt outside the system directories is found at run "
    "time\n",
    "# (and by the linker of a consumer) without LD_LIBRARY_PATH.\n",
    "set_target_properties({{P}} PROPERTIES VERSION ${PROJECT_VERSION}\n",
    "                      SOVERSION ${PROJECT_VERSION_MAJOR} INSTALL_RPATH_USE_LINK_PATH TRUE)\n",
    "target_link_libraries({{P}} PUBLIC ${_sdk_rt_shared})\n",
    "add_library({{P}}_static STATIC $<TARGET_OBJECTS:{{P}}_objects>)\n",
    "set_target_properties({{P}}_static PROPERTIES OUTPUT_NAME {{P}})\n",
    "target_link_libraries({{P}}_static PUBLIC ${_sdk_rt_static})\n",
    "foreach(_t {{P}} {{P}}_static)\n",
    "  target_include_directories(${_t} PUBLIC "
    "$<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>\n",
    "                                          $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)\n",
    "endforeach()\n",
    "{{MOCK_STANDALONE}}",
    "\n",
    "install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/include/{{P}} DESTINATION "
    "${CMAKE_INSTALL_INCLUDEDIR})\n",
    "install(TARGETS {{P}} {{P}}_static EXPORT {{P}}Targets\n",
    "        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}\n",
    "        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}\n",
    "        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})\n",
    "set(_sdk_cmakedir ${CMAKE_INSTALL_LIBDIR}/cmake/{{P}})\n",
    "install(EXPORT {{P}}Targets NAMESPACE {{P}}:: DESTINATION ${_sdk_cmakedir})\n",
    "configure_file(${CMAKE_CURRENT_SOURCE_DIR}/{{P}}Config.cmake.in\n",
    "               ${CMAKE_CURRENT_BINARY_DIR}/{{P}}Config.cmake @ONLY)\n",
    "write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/{{P}}ConfigVersion.cmake\n",
    "                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)\n",
    "install(FILES ${CMAKE_CURRENT_BINARY_DIR}/{{P}}Config.cmake\n",
    "              ${CMAKE_CURRENT_BINARY_DIR}/{{P}}ConfigVersion.cmake DESTINATION "
    "${_sdk_cmakedir})\n",
    "# {{P}}.pc finds its prefix from its own place, so a moved tree keeps working.\n",
    "set(_sdk_pcdir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)\n",
    "if(IS_ABSOLUTE \"${CMAKE_INSTALL_LIBDIR}\" OR IS_ABSOLUTE \"${CMAKE_INSTALL_INCLUDEDIR}\")\n",
    "  set(SDK_PC_PREFIX ${CMAKE_INSTALL_PREFIX})\n",
    "else()\n",
    "  file(RELATIVE_PATH _sdk_up /p/${_sdk_pcdir} /p)\n",
    "  string(REGEX REPLACE \"/$\" \"\" _sdk_up \"${_sdk_up}\")\n",
    "  set(SDK_PC_PREFIX \"\\${pcfiledir}/${_sdk_up}\")\n",
    "endif()\n",
    "configure_file(${CMAKE_CURRENT_SOURCE_DIR}/{{P}}.pc.in ${CMAKE_CURRENT_BINARY_DIR}/{{P}}.pc "
    "@ONLY)\n",
    "install(FILES ${CMAKE_CURRENT_BINARY_DIR}/{{P}}.pc DESTINATION ${_sdk_pcdir})\n",
    NULL};

static const char *const pc_template[] = {"# Generated by sdkc {{V}}. DO NOT EDIT.\n",
                                          "prefix=@SDK_PC_PREFIX@\n",
                                          "libdir=${prefix}/@CMAKE_INSTALL_LIBDIR@\n",
                                          "includedir=${prefix}/@CMAKE_INSTALL_INCLUDEDIR@\n",
                                          "\n",
                                          "Name: {{P}}\n",
                                          "Description: C SDK for {{TITLE}} (generated by sdkc)\n",
                                          "Version: @PROJECT_VERSION@\n",
                                          "# jansson is public (json_t in the API); libsdkrt is "
                                          "linked by lib{{P}}.so, and needed by static links.\n",
                                          "Requires: jansson\n",
                                          "Requires.private: sdkrt >= {{RTV}}\n",
                                          "Libs: -L${libdir} -l{{P}}\n",
                                          "Cflags: -I${includedir}\n",
                                          NULL};

static const char *const config_template[] = {
    "# Generated by sdkc {{V}}. DO NOT EDIT.\n",
    "# find_package({{P}} CONFIG) gives {{P}}::{{P}} (shared) and {{P}}::{{P}}_static; both bring "
    "libsdkrt.\n",
    "include(CMakeFindDependencyMacro)\n",
    "if(\"@SDK_RT_MODE@\" STREQUAL \"cmake\")\n",
    "  find_dependency(sdkrt {{RTV}} CONFIG)\n",
    "else()\n",
    "  find_dependency(PkgConfig)\n",
    "  if(NOT TARGET PkgConfig::SDKRT)\n",
    "    pkg_check_modules(SDKRT REQUIRED QUIET IMPORTED_TARGET sdkrt>={{RTV}})\n",
    "  endif()\n",
    "endif()\n",
    "include(${CMAKE_CURRENT_LIST_DIR}/{{P}}Targets.cmake)\n",
    NULL};

static void emit_cmake(emit_ctx *cx, sdkc_buf *b)
{
    put_template(cx, b, cmake_template);
}

static void emit_pc(emit_ctx *cx, sdkc_buf *b)
{
    put_template(cx, b, pc_template);
}

static void emit_config(emit_ctx *cx, sdkc_buf *b)
{
    put_template(cx, b, config_template);
}

static void put_md(sdkc_buf *b, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            sdkc_buf_puts(b, "\\|");
        else if (*s == '\n' || *s == '\r')
            sdkc_buf_putc(b, ' ');
        else
            sdkc_buf_putc(b, *s);
    }
}

static void emit_readme(emit_ctx *cx, sdkc_buf *b, cop *ops, size_t nops)
{
    const char *P = cx->prefix;
    sdkc_buf_printf(b, "# %s: C SDK for %s %s\n\n", P, cx->ir->title ? cx->ir->title : "the API",
                    cx->ir->version ? cx->ir->version : "");
    sdkc_buf_printf(b,
                    "Generated by sdkc %s from `%s` (sha256 `%s`). DO NOT EDIT: regenerate "
                    "instead.\n\n",
                    SDKC_VERSION, cx->ir->source_name ? base_name(cx->ir->source_name) : "?",
                    cx->ir->source_sha256 ? cx->ir->source_sha256 : "?");
    sdkc_buf_printf(b,
                    "Include `<%s/%s.h>` and link the `%s` library (it links libsdkrt, libcurl "
                    "and jansson). Every function\nreturns `%s_status`; on `%s_ERR` the "
                    "`%s_error **err` out parameter holds a new error (`%s_error_free`).\n"
                    "Whatever comes back through `**out` belongs to the caller and has one "
                    "`_free`.\n\n",
                    P, P, P, P, cx->upper, P, P);
    sdkc_buf_puts(b, "Markers: **page** = paginated (`_continue`, `_iter_*`, cursor type of its "
                     "own); **stream** = server-sent\nevents (`_open`, `_next`, `_close`).\n\n");
    sdkc_buf_puts(b, "| Method | Path | Function | Kind | Summary |\n|---|---|---|---|---|\n");
    for (size_t i = 0; i < nops; i++) {
        const sdkc_operation *op = ops[i].op;
        const char *kind = op->stream && ops[i].item            ? "stream"
                           : op->pagination && page_ok(&ops[i]) ? "page"
                                                                : "";
        sdkc_buf_printf(b, "| %s | `", op->method);
        put_md(b, op->path);
        sdkc_buf_printf(b, "` | `%s_%s%s` | %s | ", P, ops[i].name,
                        !strcmp(kind, "stream") ? "_open" : "", kind);
        put_md(b, op->summary ? op->summary : "");
        sdkc_buf_puts(b, " |\n");
    }
}

/* ---- driver ---- */

/* is_default: the default media type, whose binary content and file parts are blobs. */
static void warn_body_media(const sdkc_operation *op, const char *ct, bool is_default,
                            sdkc_diag *diag)
{
    emit_media_kind mk = emit_media_of(ct);
    const sdkc_type *t = op->body->type;
    while (t->kind == SDKC_TYPE_NULLABLE)
        t = t->u.nullable.inner;
    if (mk == MEDIA_MULTIPART && !is_default && t->kind == SDKC_TYPE_OBJECT) {
        for (size_t i = 0; i < t->u.object.nfields; i++) {
            const sdkc_field *f = &t->u.object.fields[i];
            if (emit_is_binary(f->type))
                sdkc_diag_add(diag, SDKC_SEV_WARNING, f->loc,
                              "operation '%s': multipart file part '%s' is a NUL-terminated "
                              "string in the C SDK (bytes with NUL cannot be sent)",
                              op->id, f->wire_name);
        }
    }
    if (mk != MEDIA_OTHER)
        return;
    if (t->kind != SDKC_TYPE_STRING)
        sdkc_diag_add(diag, SDKC_SEV_WARNING, op->loc,
                      "operation '%s': request body '%s' is not a string; the C SDK sends the "
                      "value as JSON text under that media type",
                      op->id, ct);
    else if (!is_default && emit_is_binary(t))
        sdkc_diag_add(diag, SDKC_SEV_WARNING, op->loc,
                      "operation '%s': binary request body '%s' is a NUL-terminated string in "
                      "the C SDK (bytes with NUL cannot be sent)",
                      op->id, ct);
}

/* Bodies the C SDK cannot put on the wire exactly as declared, for the default media type and
 * each alternative. JSON, form and multipart bodies are written as the contract says, binary
 * content of the default media type from blobs; any other media type carries a string's text as
 * is, so a structured value there (sent as JSON text) and binary content of an alternative (a
 * NUL-terminated string: no NUL bytes) differ. */
static void warn_body_limits(const sdkc_operation *op, sdkc_diag *diag)
{
    const sdkc_body *body = op->body;
    if (!body || !body->content_type || !body->type)
        return;
    warn_body_media(op, body->content_type, true, diag);
    for (size_t i = 0; i < body->nalternatives; i++)
        warn_body_media(op, body->alternatives[i], false, diag);
}

static sdkc_status write_out(const char *dir, const char *rel, sdkc_buf *b, sdkc_diag *diag)
{
    sdkc_loc loc = {NULL, 0, 0};
    if (sdkc_buf_finish(b) != SDKC_OK) {
        sdkc_diag_add(diag, SDKC_SEV_ERROR, loc, "out of memory writing %s", rel);
        return SDKC_ERR_NOMEM;
    }
    size_t n = strlen(dir) + strlen(rel) + 2;
    char *path = malloc(n);
    if (!path)
        return SDKC_ERR_NOMEM;
    snprintf(path, n, "%s/%s", dir, rel);
    sdkc_status st = sdkc_write_file(path, b->data ? b->data : "", b->len);
    if (st != SDKC_OK)
        sdkc_diag_add(diag, SDKC_SEV_ERROR, loc, "cannot write %s: %s", path, strerror(errno));
    free(path);
    return st;
}

static bool make_dir(const char *path)
{
    return mkdir(path, 0777) == 0 || errno == EEXIST;
}

static bool make_dirs(const char *path)
{
    char buf[4096];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof buf)
        return false;
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i < n; i++) {
        if (buf[i] == '/') {
            buf[i] = '\0';
            if (!make_dir(buf))
                return false;
            buf[i] = '/';
        }
    }
    return make_dir(buf);
}

static bool valid_prefix(const char *p)
{
    if (!p || !*p || strlen(p) > 32 || !islower((unsigned char)p[0]))
        return false;
    for (; *p; p++) {
        if (!islower((unsigned char)*p) && !isdigit((unsigned char)*p) && *p != '_')
            return false;
    }
    return true;
}

static bool build_model(emit_ctx *cx, cop *ops, const emit_seed *seeds, size_t nseeds)
{
    const sdkc_ir *ir = cx->ir;
    static const char *const reserved[] = {"client",
                                           "client_options",
                                           "call_options",
                                           "error",
                                           "status",
                                           "bytes",
                                           "blob",
                                           "bytes_free",
                                           "client_new",
                                           "client_free",
                                           "cancel",
                                           "next",
                                           "global_init",
                                           "global_cleanup",
                                           "error_free",
                                           "error_clear",
                                           "error_is_domain",
                                           "reason",
                                           "reason_name",
                                           "auth_kind",
                                           "header",
                                           "credential",
                                           "transport",
                                           "transport_free",
                                           "curl_transport_new",
                                           "memory_transport_new",
                                           "memory_request",
                                           "memory_response",
                                           "memory_handler",
                                           "memory_response_set_status",
                                           "memory_response_add_header",
                                           "memory_response_add_chunk",
                                           "memory_response_end_with_error",
                                           "cancel_new",
                                           "cancel_trigger",
                                           "cancel_is_triggered",
                                           "cancel_reset",
                                           "cancel_free",
                                           "error_tag",
                                           "error_reason",
                                           "error_reason_name",
                                           "error_status",
                                           "error_message",
                                           "error_body",
                                           "types",
                                           "ops",
                                           "internal",
                                           "string",
                                           "int64",
                                           "double",
                                           "bool",
                                           "json"};
    for (size_t i = 0; i < sizeof reserved / sizeof *reserved; i++) {
        if (!emit_reserve(cx, reserved[i]))
            return false;
    }
    /* Fixed macros and constants, so that no enum or union constant takes their spelling. */
    static const char *const fixed[] = {"OK",
                                        "ERR",
                                        "NEXT_ERROR",
                                        "NEXT_END",
                                        "NEXT_ITEM",
                                        "CLIENT_OPTIONS_INIT",
                                        "CALL_OPTIONS_INIT",
                                        "BLOB_INIT",
                                        "H",
                                        "TYPES_H",
                                        "OPS_H",
                                        "INTERNAL_H",
                                        "INTERNAL"};
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++) {
        if (!emit_reserve(cx, sdkc_arena_printf(cx->arena, "#%s_%s", cx->upper, fixed[i])))
            return false;
    }
    for (size_t i = 0; i < sizeof runtime_reasons / sizeof *runtime_reasons; i++) {
        if (!emit_reserve(
                cx, sdkc_arena_printf(cx->arena, "#%s_REASON_%s", cx->upper, runtime_reasons[i])))
            return false;
    }
    for (size_t i = 0; i < sizeof runtime_auths / sizeof *runtime_auths; i++) {
        if (!emit_reserve(cx,
                          sdkc_arena_printf(cx->arena, "#%s_AUTH_%s", cx->upper, runtime_auths[i])))
            return false;
    }
    static const char *const op_suffixes[] = {
        "_request",   "_page",         "_cursor",     "_iter",     "_stream",
        "_continue",  "_open",         "_next",       "_close",    "_failure",
        "_page_free", "_cursor_free",  "_cursor_dup", "_iter_new", "_iter_next",
        "_iter_free", "_cursor_value", "_cursor_new", NULL};
    for (size_t i = 0; i < ir->nops; i++) {
        ops[i].op = &ir->ops[i];
        ops[i].name = emit_unique_with(cx, ir->ops[i].safe_name, "_op", op_suffixes, NULL);
        if (!ops[i].name)
            return false;
    }
    cx->seeding = true;
    for (size_t i = 0; i < nseeds; i++) {
        if (!emit_map_type(cx, seeds[i].type, seeds[i].want))
            return false;
    }
    cx->seeding = false;
    for (size_t i = 0; i < ir->nops; i++) {
        cop *o = &ops[i];
        const sdkc_operation *op = o->op;
        o->has_request = op->nparams > 0 || op->body != NULL;
        if (op->nparams) {
            const char **safe = sdkc_arena_alloc(cx->arena, op->nparams * sizeof *safe);
            bool *opt = sdkc_arena_alloc(cx->arena, op->nparams * sizeof *opt);
            bool *nul = sdkc_arena_alloc(cx->arena, op->nparams * sizeof *nul);
            if (!safe || !opt || !nul)
                return false;
            for (size_t k = 0; k < op->nparams; k++) {
                safe[k] = op->params[k].safe_name;
                opt[k] = !op->params[k].required;
                nul[k] = false;
            }
            static const char *const taken[] = {"body", "has_body", "body_media_type", NULL};
            o->pnames = emit_member_names(cx, op->nparams, safe, opt, nul, taken);
            if (!o->pnames)
                return false;
        }
        o->params =
            op->nparams ? sdkc_arena_alloc(cx->arena, op->nparams * sizeof *o->params) : NULL;
        for (size_t k = 0; k < op->nparams; k++) {
            o->params[k] = emit_map_type(
                cx, op->params[k].type,
                sdkc_arena_printf(cx->arena, "%s_%s", o->name, op->params[k].safe_name));
            if (!o->params[k])
                return false;
        }
        if (op->body) {
            o->body =
                emit_map_type(cx, op->body->type, sdkc_arena_printf(cx->arena, "%s_body", o->name));
            if (!o->body)
                return false;
            emit_media_kind mk =
                op->body->content_type ? emit_media_of(op->body->content_type) : MEDIA_JSON;
            o->blob_body = mk == MEDIA_OTHER && emit_is_binary(op->body->type);
            if (mk == MEDIA_MULTIPART && o->body->nfields &&
                !strcmp(o->body->jk, "SDKRT_JK_OBJECT")) {
                o->files = sdkc_arena_alloc(cx->arena, o->body->nfields * sizeof *o->files);
                if (!o->files)
                    return false;
                for (size_t k = 0; k < o->body->nfields; k++) {
                    const cfield *f = &o->body->fields[k];
                    if (f->type->stores && !f->boxed && emit_is_binary(f->ir_type))
                        o->files[o->nfiles++] = f;
                }
            }
        }
        if (op->success.encoding == SDKC_ENC_JSON && op->success.result) {
            o->result = emit_map_type(cx, op->success.result,
                                      sdkc_arena_printf(cx->arena, "%s_result", o->name));
            if (!o->result)
                return false;
        }
        size_t nerr = error_entries(op);
        o->errs = nerr ? sdkc_arena_alloc(cx->arena, nerr * sizeof *o->errs) : NULL;
        if (nerr && !o->errs)
            return false;
        for (size_t j = 0; j < nerr; j++) {
            int status = 0;
            const char *tag = NULL;
            const sdkc_type *ty = NULL;
            char st[16];
            error_entry(op, j, &status, &tag, &ty);
            const char *ctx = sdkc_arena_printf(cx->arena, "%s_error_%s", o->name,
                                                sdkc_status_text(status, st, sizeof st));
            o->errs[j] = emit_map_type(cx, ty, ctx ? sdkc_snake_case(cx->arena, ctx) : NULL);
            if (!o->errs[j])
                return false;
        }
        if (op->pagination) {
            o->item = emit_map_type(cx, op->pagination->item,
                                    sdkc_arena_printf(cx->arena, "%s_item", o->name));
            o->page = o->result;
            if (!o->item)
                return false;
        }
        if (op->stream && op->stream->item) {
            o->item = emit_map_type(cx, op->stream->item,
                                    sdkc_arena_printf(cx->arena, "%s_item", o->name));
            if (!o->item)
                return false;
            if (op->stream->cause) {
                o->cause = emit_map_type(cx, op->stream->cause,
                                         sdkc_arena_printf(cx->arena, "%s_cause", o->name));
                if (!o->cause)
                    return false;
            }
        }
    }
    /* webhooks and callbacks: their types, for a receiver to decode and answer with */
    for (size_t i = 0; i < ir->nwebhooks; i++) {
        const sdkc_webhook *h = &ir->webhooks[i];
        const char *base = sdkc_snake_case(cx->arena, h->id ? h->id : h->name);
        if (!base)
            return false;
        if (h->body && h->body->type &&
            !emit_map_type(cx, h->body->type, sdkc_arena_printf(cx->arena, "%s_body", base)))
            return false;
        if (h->response &&
            !emit_map_type(cx, h->response, sdkc_arena_printf(cx->arena, "%s_response", base)))
            return false;
    }
    if (!emit_order_types(cx) || !emit_name_constants(cx) || !emit_union_commons(cx))
        return false;
    size_t nroots = 0;
    for (size_t i = 0; i < ir->nops; i++)
        nroots += ir->ops[i].nparams + 1;
    ctype **roots = malloc((nroots ? nroots : 1) * sizeof *roots);
    if (!roots)
        return false;
    nroots = 0;
    for (size_t i = 0; i < ir->nops; i++) {
        for (size_t k = 0; k < ir->ops[i].nparams; k++)
            roots[nroots++] = ops[i].params[k];
        if (ops[i].body)
            roots[nroots++] = ops[i].body;
    }
    bool ok = emit_input_twins(cx, roots, nroots);
    free(roots);
    return ok;
}

static void model_cleanup(emit_ctx *cx)
{
    free(cx->all);
    free(cx->order);
    smap_cleanup(&cx->bykey);
    smap_cleanup(&cx->names);
    sdkc_arena_free(cx->arena);
    memset(cx, 0, sizeof *cx);
}

/* The model in two passes: the first merges every inline shape to find the inline types that
 * every variant of a union repeats; the second maps those first, under the field's own name
 * ("durable"), and merges only them. */
static bool model_make(emit_ctx *cx, const sdkc_ir *ir, const char *prefix, cop *ops)
{
    emit_seed *seeds = NULL;
    size_t nseeds = 0;
    bool ok = false;
    for (int pass = 0; pass < 2; pass++) {
        model_cleanup(cx);
        memset(ops, 0, (ir->nops ? ir->nops : 1) * sizeof *ops);
        cx->ir = ir;
        cx->prefix = prefix;
        cx->merge_all = pass == 0;
        if (sdkc_arena_new(&cx->arena) != SDKC_OK || !(cx->upper = upper_of(cx, prefix)) ||
            !build_model(cx, ops, seeds, nseeds))
            goto done;
        if (pass == 0 && !(seeds = emit_collect_seeds(cx, ir, &nseeds)))
            goto done;
    }
    ok = true;
done:
    emit_free_seeds(seeds, nseeds);
    return ok;
}

void emit_put_c_string(sdkc_buf *b, const char *s)
{
    put_c_string(b, s);
}

void emit_banner(emit_ctx *cx, sdkc_buf *b, const char *what)
{
    banner(cx, b, what);
}

bool emit_page_ok(const cop *o)
{
    return page_ok(o);
}

sdkc_status sdkc_emit_c(const sdkc_ir *ir, const sdkc_emit_c_options *opts, sdkc_diag *diag)
{
    sdkc_loc loc = {NULL, 0, 0};
    if (!ir || !opts || !opts->out_dir || !valid_prefix(opts->prefix)) {
        sdkc_diag_add(diag, SDKC_SEV_ERROR, loc,
                      "emit c: a prefix (lower-case C identifier, at most 32 characters) and an "
                      "output directory are required");
        return SDKC_ERR_INVALID;
    }
    sdkc_status st = SDKC_ERR_NOMEM;
    emit_ctx cx;
    memset(&cx, 0, sizeof cx);
    cop *ops = NULL;
    ctype **sorted = NULL;
    tagref *tags = NULL;
    size_t ntags = 0;
    sdkc_buf b = SDKC_BUF_INIT;
    ops = calloc(ir->nops ? ir->nops : 1, sizeof *ops);
    if (!ops || !model_make(&cx, ir, opts->prefix, ops)) {
        sdkc_diag_add(diag, SDKC_SEV_ERROR, loc, "emit c: out of memory building the model");
        goto done;
    }
    cx.tests = opts->tests;
    /* what the C SDK leaves out, said where the contract declares it */
    for (size_t i = 0; i < ir->nops; i++)
        warn_body_limits(&ir->ops[i], diag);
    sorted = malloc((cx.nall ? cx.nall : 1) * sizeof *sorted);
    tags = collect_tags(&cx, ops, ir->nops, &ntags);
    if (!sorted || !tags)
        goto done;
    if (cx.nall) /* no named types: cx.all is NULL */
        memcpy(sorted, cx.all, cx.nall * sizeof *sorted);
    qsort(sorted, cx.nall, sizeof *sorted, cmp_desc);

    char *inc = sdkc_arena_printf(cx.arena, "%s/include/%s", opts->out_dir, cx.prefix);
    char *src = sdkc_arena_printf(cx.arena, "%s/src", opts->out_dir);
    if (!inc || !src || !make_dirs(inc) || !make_dirs(src)) {
        sdkc_diag_add(diag, SDKC_SEV_ERROR, loc, "emit c: cannot create directories under %s: %s",
                      opts->out_dir, strerror(errno));
        st = SDKC_ERR_IO;
        goto done;
    }
    char *rel;
#define WRITE(relpath, call)                                                                       \
    do {                                                                                           \
        sdkc_buf_reset(&b);                                                                        \
        call;                                                                                      \
        rel = (relpath);                                                                           \
        if (!rel || (st = write_out(opts->out_dir, rel, &b, diag)) != SDKC_OK)                     \
            goto done;                                                                             \
    } while (0)
    WRITE(sdkc_arena_printf(cx.arena, "include/%s/%s.h", cx.prefix, cx.prefix),
          emit_umbrella(&cx, &b));
    WRITE(sdkc_arena_printf(cx.arena, "include/%s/types.h", cx.prefix), emit_types_h(&cx, &b));
    WRITE(sdkc_arena_printf(cx.arena, "include/%s/ops.h", cx.prefix),
          emit_ops_h(&cx, &b, ops, ir->nops, tags, ntags));
    WRITE(sdkc_arena_strdup(cx.arena, "src/internal.h"), emit_internal_h(&cx, &b, sorted, cx.nall));
    WRITE(sdkc_arena_strdup(cx.arena, "src/types.c"), emit_types_c(&cx, &b, sorted, cx.nall));
    WRITE(sdkc_arena_strdup(cx.arena, "src/ops.c"),
          emit_ops_c(&cx, &b, ops, ir->nops, tags, ntags));
    WRITE(sdkc_arena_strdup(cx.arena, "CMakeLists.txt"), emit_cmake(&cx, &b));
    WRITE(sdkc_arena_printf(cx.arena, "%s.pc.in", cx.prefix), emit_pc(&cx, &b));
    WRITE(sdkc_arena_printf(cx.arena, "%sConfig.cmake.in", cx.prefix), emit_config(&cx, &b));
    WRITE(sdkc_arena_strdup(cx.arena, "README.md"), emit_readme(&cx, &b, ops, ir->nops));
    if (opts->tests) {
        char *tdir = sdkc_arena_printf(cx.arena, "%s/tests", opts->out_dir);
        if (!tdir || !make_dirs(tdir)) {
            sdkc_diag_add(diag, SDKC_SEV_ERROR, loc, "emit c: cannot create %s/tests: %s",
                          opts->out_dir, strerror(errno));
            st = SDKC_ERR_IO;
            goto done;
        }
        WRITE(sdkc_arena_strdup(cx.arena, "tests/mock.c"), emit_mock_c(&cx, &b, ops, ir->nops));
    }
#undef WRITE
    st = SDKC_OK;
done:
    sdkc_buf_cleanup(&b);
    free(tags);
    free(sorted);
    free(ops);
    model_cleanup(&cx);
    return st;
}
