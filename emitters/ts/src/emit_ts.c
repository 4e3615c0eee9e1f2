/* The TypeScript emitter's driver: names, then one buffer per file, written under out_dir. */
#include "ts_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Names index.ts exports from the runtime, and the module-level names of client.ts and
 * errors.ts: nothing generated may take them. */
static const char *const reserved_exports[] = {"rt",
                                               "T",
                                               "ERRORS",
                                               "SCHEMES",
                                               "Client",
                                               "Types",
                                               "ClientError",
                                               "isClientError",
                                               "StatusError",
                                               "isStatusError",
                                               "StreamFailureError",
                                               "isStreamFailureError",
                                               "DeclaredError",
                                               "hasTag",
                                               "Page",
                                               "Stream",
                                               "SseParser",
                                               "Binary",
                                               "ClientOptions",
                                               "RequestOptions",
                                               "Credential",
                                               "ClientErrorReason",
                                               "Transport",
                                               "HeaderMap",
                                               "SseEvent",
                                               NULL};

static bool valid_package(const char *s)
{
    if (!s || !*s || strlen(s) > 214)
        return false;
    for (const char *p = s; *p; p++) {
        char c = *p;
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || strchr("-._~@/", c)))
            return false;
    }
    return s[0] != '.' && s[0] != '_';
}

static int tag_cmp(const void *a, const void *b)
{
    return strcmp(((const ts_tag *)a)->tag, ((const ts_tag *)b)->tag);
}

/* Names of brands and named types in types.ts. */
static sdkc_status name_types(ts_ctx *cx)
{
    const sdkc_ir *ir = cx->ir;
    ts_names names = {0};
    ts_names_add(&names, "rt");
    ts_names_add(&names, "BinaryValue");
    cx->brand_names = sdkc_arena_alloc(cx->arena, (ir->nbrands + 1) * sizeof *cx->brand_names);
    cx->type_names = sdkc_arena_alloc(cx->arena, (ir->ntypes + 1) * sizeof *cx->type_names);
    if (!cx->brand_names || !cx->type_names)
        return SDKC_ERR_NOMEM;
    for (size_t i = 0; i < ir->nbrands; i++)
        cx->brand_names[i] = ts_unique(cx, &names, ts_pascal(cx, ir->brands[i].name));
    for (size_t i = 0; i < ir->ntypes; i++) {
        const sdkc_type *t = ir->types[i];
        const char *want = ts_pascal(cx, t->name);
        /* a named string of a brand that has its name is the brand */
        if (t->kind == SDKC_TYPE_STRING && t->u.str.brand) {
            size_t bi = (size_t)(t->u.str.brand - ir->brands);
            if (bi < ir->nbrands && strcmp(cx->brand_names[bi], want) == 0)
                continue;
        }
        cx->type_names[i] = ts_unique(cx, &names, want);
    }
    bool oom = names.oom;
    ts_names_free(&names);
    return oom || cx->oom ? SDKC_ERR_NOMEM : SDKC_OK;
}

/* Every declared `_tag`, once, sorted; a class and guard name each. */
static sdkc_status collect_tags(ts_ctx *cx)
{
    const sdkc_ir *ir = cx->ir;
    size_t n = 0;
    for (size_t i = 0; i < ir->nops; i++)
        for (size_t j = 0; j < ir->ops[i].nerrors; j++)
            n += ir->ops[i].errors[j].ntags;
    cx->tags = sdkc_arena_alloc(cx->arena, (n + 1) * sizeof *cx->tags);
    if (!cx->tags)
        return SDKC_ERR_NOMEM;
    for (size_t i = 0; i < ir->nops; i++) {
        for (size_t j = 0; j < ir->ops[i].nerrors; j++) {
            const sdkc_error_status *e = &ir->ops[i].errors[j];
            for (size_t k = 0; k < e->ntags; k++) {
                bool seen = false;
                for (size_t q = 0; q < cx->ntags && !seen; q++)
                    seen = strcmp(cx->tags[q].tag, e->tags[k].tag) == 0;
                if (!seen) {
                    cx->tags[cx->ntags].tag = e->tags[k].tag;
                    cx->tags[cx->ntags].type = e->tags[k].type;
                    cx->ntags++;
                }
            }
        }
    }
    qsort(cx->tags, cx->ntags, sizeof *cx->tags, tag_cmp);
    for (size_t i = 0; i < cx->ntags; i++) {
        const char *base =
            ts_is_ident(cx->tags[i].tag) ? cx->tags[i].tag : ts_pascal(cx, cx->tags[i].tag);
        const char *cls = base;
        for (unsigned k = 2; cls; k++) {
            const char *guard = sdkc_arena_printf(cx->arena, "is%s", cls);
            if (guard && !ts_names_has(&cx->exports, cls) && !ts_names_has(&cx->exports, guard)) {
                ts_names_add(&cx->exports, cls);
                ts_names_add(&cx->exports, guard);
                break;
            }
            cls = sdkc_arena_printf(cx->arena, "%s%u", base, k);
        }
        if (!cls)
            return SDKC_ERR_NOMEM;
        cx->tags[i].cls = cls;
    }
    return cx->exports.oom ? SDKC_ERR_NOMEM : SDKC_OK;
}

static bool semver(const char *v)
{
    int dots = 0;
    if (!v || !*v)
        return false;
    for (const char *p = v; *p; p++) {
        if (*p == '.')
            dots++;
        else if (*p < '0' || *p > '9')
            return false;
    }
    return dots == 2;
}

static void emit_package(ts_ctx *cx, sdkc_buf *b, const char *pkg)
{
    const sdkc_ir *ir = cx->ir;
    sdkc_buf_puts(b, "{\n  \"name\": ");
    sdkc_kit_put_js_string(b, pkg);
    sdkc_buf_puts(b, ",\n  \"version\": ");
    sdkc_kit_put_js_string(b, semver(ir->version) ? ir->version : "0.0.0");
    sdkc_buf_puts(b, ",\n  \"description\": ");
    const char *d = sdkc_arena_printf(cx->arena,
                                      "TypeScript client for %s, generated by sdkc %s "
                                      "(DO NOT EDIT)",
                                      ir->title ? ir->title : "an API", SDKC_VERSION);
    sdkc_kit_put_js_string(b, d ? d : "");
    sdkc_buf_puts(b, ",\n  \"type\": \"module\",\n  \"main\": \"./dist/index.js\",\n"
                     "  \"types\": \"./dist/index.d.ts\",\n"
                     "  \"exports\": {\n    \".\": {\n      \"types\": \"./dist/index.d.ts\",\n"
                     "      \"import\": \"./dist/index.js\"\n    }\n  },\n"
                     "  \"files\": [\"dist\", \"src\"],\n  \"sideEffects\": false,\n"
                     "  \"scripts\": {\n    \"build\": \"tsc -p .\"\n  },\n"
                     "  \"devDependencies\": {\n    \"typescript\": \"5.6.3\"\n  }\n}\n");
}

static const char tsconfig[] = "{\n"
                               "  \"compilerOptions\": {\n"
                               "    \"target\": \"ES2022\",\n"
                               "    \"module\": \"NodeNext\",\n"
                               "    \"moduleResolution\": \"NodeNext\",\n"
                               "    \"lib\": [\"ES2022\", \"DOM\", \"DOM.Iterable\"],\n"
                               "    \"strict\": true,\n"
                               "    \"declaration\": true,\n"
                               "    \"rootDir\": \"src\",\n"
                               "    \"outDir\": \"dist\"\n"
                               "  },\n"
                               "  \"include\": [\"src\"]\n"
                               "}\n";

sdkc_status sdkc_emit_ts(const sdkc_ir *ir, const sdkc_emit_ts_options *opts, sdkc_diag *diag)
{
    sdkc_loc none = {NULL, 0, 0};
    const char *pkg = opts->package ? opts->package : "sdk";
    if (!opts->out_dir || !*opts->out_dir) {
        sdkc_diag_add(diag, SDKC_SEV_ERROR, none, "no output directory");
        return SDKC_ERR_INVALID;
    }
    if (!valid_package(pkg)) {
        sdkc_diag_add(diag, SDKC_SEV_ERROR, none,
                      "package name '%s' is not an npm name (lower case, digits, -._~@/)", pkg);
        return SDKC_ERR_INVALID;
    }
    ts_ctx cx = {0};
    cx.ir = ir;
    cx.opts = opts;
    cx.diag = diag;
    sdkc_buf b = SDKC_BUF_INIT;
    sdkc_status st = sdkc_arena_new(&cx.arena);
    if (st != SDKC_OK)
        return st;
    st = SDKC_ERR_NOMEM;
    for (size_t i = 0; reserved_exports[i]; i++)
        ts_names_add(&cx.exports, reserved_exports[i]);
    if ((st = name_types(&cx)) != SDKC_OK || (st = collect_tags(&cx)) != SDKC_OK ||
        (st = ts_plan_ops(&cx)) != SDKC_OK)
        goto done;
    const char *src = sdkc_arena_printf(cx.arena, "%s/src", opts->out_dir);
    if (!src)
        goto done;
    if (!sdkc_kit_make_dirs(src)) {
        st = SDKC_ERR_IO;
        sdkc_diag_add(diag, SDKC_SEV_ERROR, (sdkc_loc){opts->out_dir, 0, 0},
                      "cannot create directory %s: %s", src, strerror(errno));
        goto done;
    }
    struct {
        const char *rel;
        sdkc_status (*fn)(ts_ctx *, sdkc_buf *);
    } files[] = {{"src/types.ts", ts_emit_types},
                 {"src/errors.ts", ts_emit_errors},
                 {"src/client.ts", ts_emit_client},
                 {"src/index.ts", ts_emit_index},
                 {"README.md", ts_emit_readme}};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        sdkc_buf_reset(&b);
        if ((st = files[i].fn(&cx, &b)) != SDKC_OK ||
            (st = sdkc_kit_write_out(opts->out_dir, files[i].rel, &b, diag)))
            goto done;
    }
    sdkc_buf_reset(&b);
    sdkc_kit_banner(&b, ir, "runtime.ts: the fixed runtime of the SDK");
    sdkc_buf_append(&b, sdkc_ts_runtime, sdkc_ts_runtime_len);
    if ((st = sdkc_kit_write_out(opts->out_dir, "src/runtime.ts", &b, diag)) != SDKC_OK)
        goto done;
    sdkc_buf_reset(&b);
    emit_package(&cx, &b, pkg);
    if ((st = sdkc_kit_write_out(opts->out_dir, "package.json", &b, diag)) != SDKC_OK)
        goto done;
    sdkc_buf_reset(&b);
    sdkc_buf_puts(&b, tsconfig);
    st = sdkc_kit_write_out(opts->out_dir, "tsconfig.json", &b, diag);
done:
    if (st == SDKC_ERR_NOMEM)
        sdkc_diag_add(diag, SDKC_SEV_ERROR, none, "out of memory");
    sdkc_buf_cleanup(&b);
    ts_names_free(&cx.exports);
    sdkc_arena_free(cx.arena);
    return st;
}
