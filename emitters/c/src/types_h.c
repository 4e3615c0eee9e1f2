/* include/PREFIX/types.h: the value types (structs, enums, unions, input twins), the runtime's
 * types under the SDK's prefix, and the prototypes of each type's functions. */
#include "emit_internal.h"

#include <stdio.h>
#include <string.h>

static void emit_struct_def(emit_ctx *cx, sdkc_buf *b, const ctype *c)
{
    const sdkc_type *t = c->t;
    if (c->is_brand) {
        sdkc_kit_put_doc(
            b, SDKC_KIT_DOC_C, "", c->docs,
            "A distinct type so that one kind of identifier cannot be passed as another. "
            "value is owned by the struct (free with _cleanup).");
        sdkc_buf_printf(b, "struct %s {\n    char *value;\n};\n\n", c->cdecl);
        return;
    }
    if (!strcmp(c->jk, "SDKRT_JK_ARRAY")) {
        sdkc_buf_printf(b, "/* An array of %s: items (owned) and their count. */\n",
                        c->inner->base);
        sdkc_buf_printf(b, "struct %s {\n    ", c->cdecl);
        sdkc_buf_printf(b, "%s%s", emit_ptr_decl(cx, c->inner->cdecl), "items;\n");
        sdkc_buf_puts(b, "    size_t count;\n};\n\n");
        return;
    }
    if (!strcmp(c->jk, "SDKRT_JK_MAP")) {
        sdkc_buf_printf(b,
                        "/* A map from strings to %s: count keys and values at the same index "
                        "(all owned). */\n",
                        c->inner->base);
        sdkc_buf_printf(b, "struct %s {\n    char **keys;\n    %s%s", c->cdecl,
                        emit_ptr_decl(cx, c->inner->cdecl), "values;\n");
        sdkc_buf_puts(b, "    size_t count;\n};\n\n");
        return;
    }
    if (t->kind == SDKC_TYPE_ENUM) {
        sdkc_kit_put_doc(
            b, SDKC_KIT_DOC_C, "", c->docs,
            "An open enumeration: value is one of the known members, or UNKNOWN with the "
            "wire string kept in unknown (owned; NULL otherwise).");
        sdkc_buf_printf(b, "typedef enum %s_value {\n    %s = 0", c->cdecl, c->unknown_const);
        for (size_t i = 0; i < t->u.enumeration.nvalues; i++) {
            sdkc_buf_printf(b, ",\n    %s = %zu /* ", c->consts[i], i + 1);
            const char *v = t->u.enumeration.values[i];
            sdkc_kit_put_comment_text(b, v, strlen(v));
            sdkc_buf_puts(b, " */");
        }
        sdkc_buf_printf(b, "\n} %s_value;\n\n", c->cdecl);
        sdkc_buf_printf(b, "struct %s {\n    %s_value value;\n    char *unknown;\n};\n\n", c->cdecl,
                        c->cdecl);
        return;
    }
    if (t->kind == SDKC_TYPE_UNION) {
        sdkc_kit_put_doc(
            b, SDKC_KIT_DOC_C, "", c->docs,
            "A union: kind says which member of u holds the value; UNKNOWN keeps a variant "
            "this client does not know as raw JSON in unknown (owned). Everything inside is "
            "owned by the struct.");
        sdkc_buf_printf(b, "typedef enum %s_kind {\n    %s = 0", c->cdecl, c->unknown_const);
        for (size_t i = 0; i < c->nvariants; i++) {
            sdkc_buf_printf(b, ",\n    %s = %zu", c->consts[i], i + 1);
            if (c->variants[i].v->tag) {
                sdkc_buf_puts(b, " /* ");
                sdkc_kit_put_comment_text(b, c->variants[i].v->tag, strlen(c->variants[i].v->tag));
                sdkc_buf_puts(b, " */");
            }
        }
        sdkc_buf_printf(b, "\n} %s_kind;\n\n", c->cdecl);
        if (emit_common_stored(c)) {
            sdkc_buf_printf(b,
                            "/* The fields every variant of %s has, as an UNKNOWN variant holds "
                            "them\n * (decoded from its raw JSON, best effort: has_x is false when "
                            "absent, null or not\n * decodable); read them with the accessors. */\n"
                            "typedef struct %s_common {\n",
                            c->cdecl, c->cdecl);
            for (size_t i = 0; i < c->ncommon; i++) {
                const cfield *f = c->common[i].in[0];
                if (!f->type->stores)
                    continue;
                sdkc_buf_printf(b, "    bool has_%s;\n    ", f->cname);
                emit_put_member(b, f->type, f->cname, f->boxed);
                sdkc_buf_putc(b, '\n');
            }
            sdkc_buf_printf(b, "} %s_common;\n\n", c->cdecl);
        }
        sdkc_buf_printf(b, "struct %s {\n    %s_kind kind;\n    json_t *unknown;\n    union {\n",
                        c->cdecl, c->cdecl);
        if (c->nvariants == 0)
            sdkc_buf_puts(b, "        char none_;\n");
        for (size_t i = 0; i < c->nvariants; i++) {
            const cvariant *v = &c->variants[i];
            sdkc_buf_puts(b, "        ");
            if (v->type->stores)
                emit_put_member(b, v->type, v->v->safe_name, v->boxed);
            else
                sdkc_buf_printf(b, "char %s; /* nothing stored */", v->v->safe_name);
            sdkc_buf_putc(b, '\n');
        }
        if (emit_common_stored(c))
            sdkc_buf_printf(b, "        %s_common common_; /* UNKNOWN */\n", c->cdecl);
        sdkc_buf_puts(b, "    } u;\n};\n\n");
        return;
    }
    /* object */
    sdkc_kit_put_doc(
        b, SDKC_KIT_DOC_C, "", c->docs,
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
        sdkc_kit_put_doc(b, SDKC_KIT_DOC_C, "    ", f->f->docs, extra);
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
            emit_put_member(b, f->type, fn, f->boxed);
            sdkc_buf_putc(b, '\n');
            members++;
        }
    }
    if (!members)
        sdkc_buf_puts(b, "    char none_; /* no stored fields */\n");
    sdkc_buf_puts(b, "};\n\n");
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
                emit_put_in_member(cx, b, v->type, v->v->safe_name, v->boxed);
            else
                sdkc_buf_printf(b, "char %s;", v->v->safe_name);
            sdkc_buf_putc(b, '\n');
        }
        if (emit_common_stored(c))
            sdkc_buf_printf(b, "        %s_common common_; /* responses only */\n", c->cdecl);
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
            emit_put_in_member(cx, b, f->type, f->cname, f->boxed);
            sdkc_buf_putc(b, '\n');
            members++;
        }
    }
    if (!members)
        sdkc_buf_puts(b, "    char none_;\n");
    sdkc_buf_puts(b, "};\n\n");
}

static void emit_union_protos(emit_ctx *cx, sdkc_buf *b, const ctype *c)
{
    const char *n = c->cdecl;
    if (c->t->u.union_.discriminator) {
        sdkc_buf_puts(b, "/* The \"");
        sdkc_kit_put_comment_text(b, c->t->u.union_.discriminator,
                                  strlen(c->t->u.union_.discriminator));
        sdkc_buf_printf(b,
                        "\" tag of *value (static, or borrowed from value->unknown for a variant "
                        "this SDK does not know),\n * or NULL. */\n"
                        "const char *%s_tag(const %s *value);\n",
                        n, n);
    }
    sdkc_buf_printf(b,
                    "extern const char *const %s__k_%s[];\n"
                    "#define %s_kind_name(kind) %s__name_at(%s__k_%s, %zu, kind)\n",
                    cx->prefix, c->base, n, cx->prefix, cx->prefix, c->base, c->nvariants + 1);
    for (size_t i = 0; i < c->ncommon; i++) {
        const cfield *f = c->common[i].in[0];
        sdkc_buf_puts(b, "/* \"");
        sdkc_kit_put_comment_text(b, f->f->wire_name, strlen(f->f->wire_name));
        /* what emit_union_funcs makes the UNKNOWN case return */
        bool kept = f->type->stores && emit_common_stored(c);
        sdkc_buf_printf(b,
                        "\", which every variant has (borrowed from value): NULL when value is "
                        "NULL or the field is absent%s; %s. */\n"
                        "%s%s_%s(const %s *value);\n",
                        f->nullable ? " or null" : "",
                        kept ? "for an UNKNOWN variant, the field as decoded from its raw JSON "
                               "(NULL when absent, null or not decodable)"
                             : "NULL for an UNKNOWN variant",
                        emit_common_ret(cx, f), cx->prefix, c->common[i].accessor, n);
    }
}

/* The functions every type has are macros over its descriptor and libsdkrt's table-driven code
 * (one function body per type made big SDKs slow to compile, and each only called the runtime with
 * the type's descriptor). "base" is the type's name without the prefix: the macros of the block
 * in emit_types_h paste it onto the prefix. */
static void emit_type_macros(emit_ctx *cx, sdkc_buf *b, const ctype *c)
{
    const char *n = c->cdecl, *U = cx->upper;
    const char *base = c->base;
    /* The pasting macros need cdecl == PREFIX_base and the descriptor PREFIX__j_base. */
    bool paste = c->is_struct && !strncmp(n, cx->prefix, strlen(cx->prefix)) &&
                 n[strlen(cx->prefix)] == '_' && !strcmp(n + strlen(cx->prefix) + 1, base);
    if (!paste)
        base = NULL;
    const char *d = emit_desc_name(cx, c);
    if (base) {
        sdkc_buf_printf(
            b, "#define %s_decode(out, json, path, err) %s_DECODE_(%s, out, json, path, err)\n", n,
            U, base);
        sdkc_buf_printf(b, "#define %s_encode(value, out, err) %s_ENCODE_(%s, value, out, err)\n",
                        n, U, base);
        sdkc_buf_printf(b, "#define %s_cleanup(value) %s_CLEANUP_(%s, value)\n", n, U, base);
        sdkc_buf_printf(b, "#define %s_free(value) %s_FREE_(%s, value)\n", n, U, base);
    } else {
        sdkc_buf_printf(b,
                        "#define %s_decode(out, json, path, err) %s__decode(&%s, %s_AS_(%s, "
                        "out), json, path, err)\n",
                        n, cx->prefix, d, U, n);
        sdkc_buf_printf(b,
                        "#define %s_encode(value, out, err) %s__encode(&%s, "
                        "%s_AS_CONST_(%s, value), out, err)\n",
                        n, cx->prefix, d, U, n);
        sdkc_buf_printf(b, "#define %s_cleanup(value) %s__cleanup(&%s, %s_AS_(%s, value))\n", n,
                        cx->prefix, d, U, n);
        sdkc_buf_printf(b, "#define %s_free(value) %s__free(&%s, %s_AS_(%s, value))\n", n,
                        cx->prefix, d, U, n);
    }
    if (c->t->kind == SDKC_TYPE_ENUM && !c->is_brand && !strcmp(c->jk, "SDKRT_JK_ENUM"))
        sdkc_buf_printf(b, "#define %s_wire(value) %s__wire(&%s, %s_AS_CONST_(%s, value))\n", n,
                        cx->prefix, d, U, n);
    if (c->t->kind == SDKC_TYPE_UNION)
        emit_union_protos(cx, b, c);
}

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
    for (size_t i = 0; emit_runtime_reasons[i]; i++)
        sdkc_buf_printf(b, "#define %s_REASON_%s SDKRT_REASON_%s\n", U, emit_runtime_reasons[i],
                        emit_runtime_reasons[i]);
    sdkc_buf_printf(b,
                    "\n/* How the client authenticates (%s_client_options.auth). */\n"
                    "typedef sdkrt_auth_kind %s_auth_kind;\n",
                    P, P);
    for (size_t i = 0; emit_runtime_auths[i]; i++)
        sdkc_buf_printf(b, "#define %s_AUTH_%s SDKRT_AUTH_%s\n", U, emit_runtime_auths[i],
                        emit_runtime_auths[i]);
    sdkc_buf_printf(
        b,
        "\n/* Retries of unary calls, on by default: 3 attempts (%s_client_options.retry, per call "
        "%s_call_options.retry;\n * %s_RETRY_POLICY_OFF for one): idempotent methods, or calls "
        "with an idempotency key\n * (%s_call_options.idempotency_key, %s_IDEMPOTENCY_AUTO for a "
        "generated one); backoff with\n * jitter, Retry-After honoured. */\n"
        "typedef sdkrt_retry_policy %s_retry_policy;\n"
        "#define %s_RETRY_POLICY_INIT SDKRT_RETRY_POLICY_INIT\n"
        "#define %s_RETRY_POLICY_OFF SDKRT_RETRY_POLICY_OFF\n"
        "typedef sdkrt_retry_info %s_retry_info; /* what %s_retry_policy.on_retry sees */\n"
        "#define %s_IDEMPOTENCY_AUTO SDKRT_IDEMPOTENCY_AUTO\n"
        "\n/* Timeouts (connect 10 s, response head 30 s, unary total 60 s, stream idle none): 0 "
        "in options\n * is the default (the client's, in call options), %s_TIMEOUT_OFF none. */\n"
        "#define %s_TIMEOUT_OFF SDKRT_TIMEOUT_OFF\n",
        P, P, U, P, U, P, U, U, P, P, U, U, U);
    const char *server = sdkc_ir_default_server(cx->ir);
    if (server) {
        sdkc_buf_printf(b,
                        "\n/* The contract's first server: the base URL when "
                        "%s_client_options.base_url is NULL. */\n",
                        P);
        sdkc_buf_printf(b, "#define %s_DEFAULT_BASE_URL ", U);
        sdkc_kit_put_c_string(b, server);
        sdkc_buf_putc(b, '\n');
    }
    sdkc_buf_printf(b,
                    "\n/* The in-memory transport (tests without a server): what its handler "
                    "sees and fills. */\n"
                    "typedef sdkrt_memory_request %s_memory_request;\n"
                    "typedef sdkrt_memory_response %s_memory_response;\n"
                    "typedef sdkrt_memory_handler %s_memory_handler;\n\n",
                    P, P, P);
    sdkc_buf_printf(b,
                    "/* Followers of durable streams (<op>_follow_new): their options and what "
                    "they yield. */\n"
                    "typedef sdkrt_follow_options %s_follow_options;\n"
                    "#define %s_FOLLOW_OPTIONS_INIT SDKRT_FOLLOW_OPTIONS_INIT\n"
                    "typedef sdkrt_follow_kind %s_follow_kind;\n"
                    "#define %s_FOLLOW_ITEM SDKRT_FOLLOW_ITEM /* a decoded item */\n"
                    "#define %s_FOLLOW_POISON SDKRT_FOLLOW_POISON /* an item that did not decode "
                    "*/\n"
                    "#define %s_FOLLOW_RECONNECT SDKRT_FOLLOW_RECONNECT /* the stream was lost and "
                    "is reopened */\n\n",
                    P, U, P, U, U, U);
    sdkc_buf_printf(b,
                    "/* Event loops and what async streams report (ops.h: %s_loop_new, the "
                    "<op>_async, <op>_start\n * and <op>_follow_start forms). */\n"
                    "typedef sdkrt_loop %s_loop; /* %s_client_options.loop; %s_loop_new / "
                    "%s_loop_free */\n"
                    "typedef sdkrt_async_stream %s_async_stream; /* a started stream or "
                    "follower */\n"
                    "typedef sdkrt_loop_timer %s_loop_timer; /* %s_loop_timer_start */\n"
                    "typedef sdkrt_jstream_poison %s_stream_poison; /* an item that did not "
                    "decode (on_poison) */\n"
                    "typedef sdkrt_follow_event %s_follow_event; /* a lost stream reopening "
                    "(on_reconnect) */\n\n",
                    P, P, P, P, P, P, P, P, P, P);
    sdkc_buf_printf(b,
                    "/* What a stream's <op>_next_event yields (<op>_stream_event.kind). */\n"
                    "typedef enum %s_stream_kind {\n"
                    "    %s_STREAM_ITEM = 1,  /* a decoded item */\n"
                    "    %s_STREAM_POISON = 2 /* an item that did not decode; the stream goes on "
                    "*/\n"
                    "} %s_stream_kind;\n\n",
                    P, U, U, P);
}

/* What every type T has, said once: the per-type names below are macros over T's descriptor
 * (PREFIX__j_T, libsdkrt's table-driven code), checked against T as a function's arguments are. */
static void emit_type_macro_block(emit_ctx *cx, sdkc_buf *b)
{
    const char *P = cx->prefix, *U = cx->upper;
    sdkc_buf_printf(
        b,
        "/* ---- decode, encode, cleanup and free of each type ----\n"
        " * Every value type %s_T has these (macros over its descriptor %s__j_T, which libsdkrt's\n"
        " * table-driven code walks; each pointer argument is checked against T as a function's\n"
        " * would be, and each argument is evaluated once):\n"
        " *   %s_status %s_T_decode(%s_T *out, const json_t *json, const char *path, %s_error "
        "**err);\n"
        " *     Decode json (borrowed) into *out (zeroed by the caller). On failure *out holds "
        "nothing\n"
        " *     and *err is a new MALFORMED_RESPONSE error naming the JSON path (path: prefix for\n"
        " *     messages, NULL = \"$\").\n"
        " *   %s_status %s_T_encode(const %s_T *value, json_t **out, %s_error **err);\n"
        " *     Encode *value (borrowed) as JSON; *out is a new reference.\n"
        " *   void %s_T_cleanup(%s_T *value);\n"
        " *     Release everything *value owns and zero it (NULL is a no-op).\n"
        " *   void %s_T_free(%s_T *value);\n"
        " *     Cleanup and free a heap value returned by this SDK (NULL is a no-op).\n"
        " * An enumeration also has\n"
        " *   const char *%s_T_wire(const %s_T *value);\n"
        " *     The wire string of *value (borrowed), or NULL when impossible (or value is NULL).\n"
        " * A union also has\n"
        " *   const char *%s_T_kind_name(%s_T_kind kind);\n"
        " *     The name of a kind (\"unknown\" for its UNKNOWN constant; static), or NULL "
        "outside\n"
        " *     the enumeration.\n"
        " * and, declared with it, the functions %s_T_tag (a union with a discriminator) and one\n"
        " * accessor per field that every variant has. */\n"
        "#define %s_AS_(T, v) (1 ? (v) : (T *)0)\n"
        "#define %s_AS_CONST_(T, v) (1 ? (v) : (const T *)0)\n"
        "#define %s_DECODE_(T, out, json, path, err) \\\n"
        "    %s__decode(&%s__j_##T, %s_AS_(%s_##T, out), json, path, err)\n"
        "#define %s_ENCODE_(T, value, out, err) \\\n"
        "    %s__encode(&%s__j_##T, %s_AS_CONST_(%s_##T, value), out, err)\n"
        "#define %s_CLEANUP_(T, value) %s__cleanup(&%s__j_##T, %s_AS_(%s_##T, value))\n"
        "#define %s_FREE_(T, value) %s__free(&%s__j_##T, %s_AS_(%s_##T, value))\n"
        "/* What the macros call (the SDK's library wraps libsdkrt's, so that a program links the "
        "SDK\n * alone). */\n"
        "%s_status %s__decode(const sdkrt_jtype *type, void *out, const json_t *json, const "
        "char *path,\n    %s_error **err);\n"
        "%s_status %s__encode(const sdkrt_jtype *type, const void *value, json_t **out, "
        "%s_error **err);\n"
        "void %s__cleanup(const sdkrt_jtype *type, void *value);\n"
        "void %s__free(const sdkrt_jtype *type, void *value);\n"
        "/* The wire string of an enumeration value; NULL for NULL. */\n"
        "const char *%s__wire(const sdkrt_jtype *type, const void *value);\n"
        "/* names[kind] for 0 <= kind < count, else NULL. */\n"
        "const char *%s__name_at(const char *const *names, size_t count, int kind);\n\n",
        P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, U, U, U, P, P, U, P, U, P, P, U, P,
        U, P, P, U, P, U, P, P, U, P, P, P, P, P, P, P, P, P, P, P);
}

void emit_types_h(emit_ctx *cx, sdkc_buf *b)
{
    const char *P = cx->prefix, *U = cx->upper;
    sdkc_kit_banner(b, cx->ir, "types.h: value types");
    sdkc_buf_printf(b, "#ifndef %s_TYPES_H\n#define %s_TYPES_H\n\n", U, U);
    /* the version check before the other runtime headers: an older runtime gets this error,
       not errors from headers it does not have */
    sdkc_buf_puts(b, "#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n\n"
                     "#include <jansson.h>\n\n#include \"sdkrt/base.h\"\n\n");
    sdkc_buf_printf(b,
                    "#if SDKRT_VERSION_MAJOR != %d || SDKRT_VERSION_MINOR < %d\n"
                    "#error \"this SDK needs libsdkrt %d.%d or a later %d.x\"\n#endif\n\n",
                    SDKRT_MAJOR_WANT, SDKRT_MINOR_WANT, SDKRT_MAJOR_WANT, SDKRT_MINOR_WANT,
                    SDKRT_MAJOR_WANT);
    sdkc_buf_puts(b, "#include \"sdkrt/sdkrt.h\"\n#include \"sdkrt/follow.h\"\n#include "
                     "\"sdkrt/json.h\"\n#include \"sdkrt/loop.h\"\n#include "
                     "\"sdkrt/wire.h\"\n\n");
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
        "on_response,\n                                          retry, idempotency_key */\n"
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
    emit_type_macro_block(cx, b);
    for (size_t i = 0; i < cx->norder; i++)
        sdkc_buf_printf(b, "extern const sdkrt_jtype %s;\n", emit_desc_name(cx, cx->order[i]));
    sdkc_buf_putc(b, '\n');
    for (size_t i = 0; i < cx->norder; i++)
        emit_type_macros(cx, b, cx->order[i]);
    sdkc_buf_putc(b, '\n');
    sdkc_buf_printf(b, "#ifdef __cplusplus\n}\n#endif\n#endif /* %s_TYPES_H */\n", U);
}
