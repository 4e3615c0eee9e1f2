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
                                               "CursorPage",
                                               "Stream",
                                               "SseParser",
                                               "DEFAULT_TIMEOUT",
                                               "DEFAULT_HEAD_TIMEOUT",
                                               "DEFAULT_MAX_RETRIES",
                                               "Binary",
                                               "ClientOptions",
                                               "RequestOptions",
                                               "Credential",
                                               "ClientErrorReason",
                                               "Transport",
                                               "HeaderMap",
                                               "SseEvent",
                                               "ResponseInfo",
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

/* A structured body under a media type other than JSON, form or multipart (default or
 * alternative) goes out as JSON text: not what the contract declares, so it is said. */
static void warn_body_limits(const sdkc_operation *op, sdkc_diag *diag)
{
    const sdkc_body *body = op->body;
    if (!body || !body->type)
        return;
    const sdkc_type *t = body->type;
    while (t->kind == SDKC_TYPE_NULLABLE)
        t = t->u.nullable.inner;
    if (t->kind == SDKC_TYPE_STRING)
        return;
    for (size_t i = 0; i <= body->nalternatives; i++) {
        const char *ct = i ? body->alternatives[i - 1] : body->content_type;
        if (ct && sdkc_kit_media_of(ct) == SDKC_KIT_MEDIA_OTHER)
            sdkc_diag_add(diag, SDKC_SEV_WARNING, op->loc,
                          "operation '%s': request body '%s' is not a string; the TypeScript SDK "
                          "sends the value as JSON text under that media type",
                          op->id, ct);
    }
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

/* package.json: ESM built into dist/ by tsc when packed (`prepack`), so that `npm pack` gives a
 * tarball that installs and imports; the sources ship too, for the source maps. */
static sdkc_status emit_package(ts_ctx *cx, sdkc_buf *b)
{
    const sdkc_ir *ir = cx->ir;
    const char *pkg = cx->opts->package ? cx->opts->package : "sdk";
    sdkc_buf_puts(b, "{\n  \"name\": ");
    sdkc_kit_put_js_string(b, pkg);
    sdkc_buf_puts(b, ",\n  \"version\": ");
    sdkc_kit_put_js_string(b, cx->version);
    sdkc_buf_puts(b, ",\n  \"description\": ");
    const char *d = sdkc_arena_printf(cx->arena,
                                      "TypeScript client for %s, generated by sdkc %s "
                                      "(DO NOT EDIT)",
                                      ir->title ? ir->title : "an API", SDKC_VERSION);
    sdkc_kit_put_js_string(b, d ? d : "");
    sdkc_buf_puts(b, ",\n  \"type\": \"module\",\n  \"main\": \"./dist/index.js\",\n"
                     "  \"types\": \"./dist/index.d.ts\",\n"
                     "  \"exports\": {\n    \".\": {\n      \"types\": \"./dist/index.d.ts\",\n"
                     "      \"default\": \"./dist/index.js\"\n    },\n"
                     "    \"./package.json\": \"./package.json\"\n  },\n"
                     "  \"files\": [\"dist\", \"src\"],\n  \"sideEffects\": false,\n"
                     "  \"scripts\": {\n    \"build\": \"tsc -p .\",\n"
                     "    \"prepack\": \"tsc -p .\"");
    if (cx->opts->tests)
        sdkc_buf_puts(b, ",\n    \"mock\": \"tsc -p tests && node dist-mock/tests/mock.js\"");
    sdkc_buf_puts(b,
                  "\n  },\n  \"devDependencies\": {\n    \"typescript\": \"" TS_TYPESCRIPT_VERSION
                  "\"\n  }\n}\n");
    return sdkc_buf_finish(b);
}

/* One output file: written by fn, or fixed text (after a banner when banner is set). */
typedef struct ts_file {
    const char *rel;
    sdkc_status (*fn)(ts_ctx *, sdkc_buf *);
    const char *banner;
    const unsigned char *text;
    size_t len;
    bool tests; /* only with --tests */
} ts_file;

static sdkc_status make_dir(ts_ctx *cx, const char *rel)
{
    const char *path = sdkc_arena_printf(cx->arena, "%s/%s", cx->opts->out_dir, rel);
    if (!path)
        return SDKC_ERR_NOMEM;
    if (!sdkc_kit_make_dirs(path)) {
        sdkc_diag_add(cx->diag, SDKC_SEV_ERROR, (sdkc_loc){cx->opts->out_dir, 0, 0},
                      "cannot create directory %s: %s", path, strerror(errno));
        return SDKC_ERR_IO;
    }
    return SDKC_OK;
}

/* The generated mock tests compile with the package's sources into dist-mock/. */
static const char tests_tsconfig[] = "{\n"
                                     "  \"extends\": \"../tsconfig.json\",\n"
                                     "  \"compilerOptions\": {\n"
                                     "    \"declaration\": false,\n"
                                     "    \"declarationMap\": false,\n"
                                     "    \"rootDir\": \"..\",\n"
                                     "    \"outDir\": \"../dist-mock\"\n"
                                     "  },\n"
                                     "  \"include\": [\"*.ts\", \"../src\"]\n"
                                     "}\n";

static const char tsconfig[] = "{\n"
                               "  \"compilerOptions\": {\n"
                               "    \"target\": \"ES2022\",\n"
                               "    \"module\": \"NodeNext\",\n"
                               "    \"moduleResolution\": \"NodeNext\",\n"
                               "    \"lib\": [\"ES2022\", \"DOM\", \"DOM.Iterable\"],\n"
                               "    \"strict\": true,\n"
                               "    \"exactOptionalPropertyTypes\": true,\n"
                               "    \"noUncheckedIndexedAccess\": true,\n"
                               "    \"declaration\": true,\n"
                               "    \"declarationMap\": true,\n"
                               "    \"sourceMap\": true,\n"
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
    if (opts->version && !sdkc_kit_semver(opts->version)) {
        sdkc_diag_add(diag, SDKC_SEV_ERROR, none,
                      "package version '%s' is not a semantic version (MAJOR.MINOR.PATCH)",
                      opts->version);
        return SDKC_ERR_INVALID;
    }
    ts_ctx cx = {0};
    sdkc_ir expanded;
    cx.opts = opts;
    cx.diag = diag;
    cx.version = opts->version                  ? opts->version
                 : sdkc_kit_semver(ir->version) ? ir->version
                                                : "0.0.0";
    sdkc_buf b = SDKC_BUF_INIT;
    sdkc_status st = sdkc_arena_new(&cx.arena);
    if (st != SDKC_OK)
        return st;
    /* an operation with a stream variant is offered both ways: the call and `<method>Stream` */
    if ((st = sdkc_kit_expand_ops(&expanded, ir, cx.arena)) != SDKC_OK)
        goto done;
    cx.ir = &expanded;
    for (size_t i = 0; i < ir->nops; i++)
        warn_body_limits(&ir->ops[i], diag);
    st = SDKC_ERR_NOMEM;
    for (size_t i = 0; reserved_exports[i]; i++)
        ts_names_add(&cx.exports, reserved_exports[i]);
    if ((st = name_types(&cx)) != SDKC_OK || (st = collect_tags(&cx)) != SDKC_OK ||
        (st = ts_plan_ops(&cx)) != SDKC_OK)
        goto done;
    const char *dirs[] = {"src", opts->tests ? "tests" : NULL};
    for (size_t i = 0; i < 2; i++)
        if (dirs[i] && (st = make_dir(&cx, dirs[i])) != SDKC_OK)
            goto done;
    const ts_file files[] = {
        {"src/types.ts", ts_emit_types, NULL, NULL, 0, false},
        {"src/errors.ts", ts_emit_errors, NULL, NULL, 0, false},
        {"src/client.ts", ts_emit_client, NULL, NULL, 0, false},
        {"src/index.ts", ts_emit_index, NULL, NULL, 0, false},
        {"README.md", ts_emit_readme, NULL, NULL, 0, false},
        {"src/runtime.ts", NULL, "runtime.ts: the fixed runtime of the SDK", sdkc_ts_runtime,
         sdkc_ts_runtime_len, false},
        {"package.json", emit_package, NULL, NULL, 0, false},
        {"tsconfig.json", NULL, NULL, (const unsigned char *)tsconfig, sizeof tsconfig - 1, false},
        {"tests/mock.ts", ts_emit_mock, NULL, NULL, 0, true},
        {"tests/mock-harness.ts", NULL,
         "mock-harness.ts: the verdict on each call of tests/mock.ts", sdkc_ts_mock_harness,
         sdkc_ts_mock_harness_len, true},
        {"tests/tsconfig.json", NULL, NULL, (const unsigned char *)tests_tsconfig,
         sizeof tests_tsconfig - 1, true}};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        const ts_file *f = &files[i];
        if (f->tests && !opts->tests)
            continue;
        sdkc_buf_reset(&b);
        if (f->banner)
            sdkc_kit_banner(&b, ir, f->banner);
        if (f->text)
            sdkc_buf_append(&b, f->text, f->len);
        if ((f->fn && (st = f->fn(&cx, &b)) != SDKC_OK) ||
            (st = sdkc_kit_write_out(opts->out_dir, f->rel, &b, diag)) != SDKC_OK)
            goto done;
    }
    st = SDKC_OK;
done:
    if (st == SDKC_ERR_NOMEM)
        sdkc_diag_add(diag, SDKC_SEV_ERROR, none, "out of memory");
    sdkc_buf_cleanup(&b);
    ts_names_free(&cx.exports);
    sdkc_arena_free(cx.arena);
    return st;
}
