/* `sdkc generate` for every emitter: the command line, loading the contract (or an IR JSON file),
 * the diagnostics, then the emitter's own function. Each emitter's main.c only says what it takes
 * and calls its emitter. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sdkc/emitkit.h"
#include "sdkc/compile.h"
#include "sdkc/ir_json.h"

/* IR JSON is recognised by its format marker near the start. */
static bool looks_like_ir(const char *text, size_t len)
{
    size_t n = len < 4096 ? len : 4096, m = strlen(SDKC_IR_FORMAT);
    for (size_t i = 0; i + m <= n; i++) {
        if (memcmp(text + i, SDKC_IR_FORMAT, m) == 0)
            return true;
    }
    return false;
}

/* A dot-separated list of non-empty [0-9A-Za-z-] identifiers from s up to end; numeric ones
 * without leading zeros when numeric_rule (semver's pre-release rule). */
static bool semver_idents(const char *s, const char *end, bool numeric_rule)
{
    if (s == end)
        return false;
    while (s <= end) {
        const char *dot = memchr(s, '.', (size_t)(end - s));
        const char *e = dot ? dot : end;
        bool numeric = true;
        if (e == s)
            return false;
        for (const char *p = s; p < e; p++) {
            char c = *p;
            bool digit = c >= '0' && c <= '9';
            if (!digit && !(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') && c != '-')
                return false;
            numeric = numeric && digit;
        }
        if (numeric_rule && numeric && e - s > 1 && *s == '0')
            return false;
        s = e + 1;
    }
    return true;
}

bool sdkc_kit_semver(const char *v)
{
    if (!v)
        return false;
    const char *p = v;
    for (int part = 0; part < 3; part++) {
        const char *start = p;
        while (*p >= '0' && *p <= '9')
            p++;
        if (p == start || (p - start > 1 && *start == '0'))
            return false;
        if (part < 2 && *p++ != '.')
            return false;
    }
    const char *plus = strchr(p, '+');
    const char *end = p + strlen(p);
    if (*p == '-' && !semver_idents(p + 1, plus ? plus : end, true))
        return false;
    if (*p != '-' && *p != '+' && *p != '\0')
        return false;
    return !plus || semver_idents(plus + 1, end, false);
}

static int usage(const sdkc_kit_generate *g)
{
    fputs(g->usage, stderr);
    return 2;
}

/* Fill a from argv; 0, or the exit status to return (0 after --help, 2 on a usage error). */
static int parse(sdkc_kit_generate_args *a, const sdkc_kit_generate *g, int argc, char **argv,
                 bool *done)
{
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            printf("%s%s", g->usage, g->help);
            *done = true;
            return 0;
        }
        const char **slot = NULL;
        if (!strcmp(arg, "--quiet") || !strcmp(arg, "-q")) {
            a->quiet = true;
            continue;
        }
        if (!strcmp(arg, "--tests")) {
            a->tests = true;
            continue;
        }
        if (!strcmp(arg, "--lang"))
            slot = &a->lang;
        else if (!strcmp(arg, "--prefix"))
            slot = &a->prefix;
        else if (!strcmp(arg, "--out"))
            slot = &a->out;
        else if (!strcmp(arg, "--include"))
            slot = &a->include[a->ninclude];
        else if (!strcmp(arg, "--follow"))
            slot = &a->follow[a->nfollow];
        else if (!strcmp(arg, "--pagination"))
            slot = &a->pagination;
        else if (!strcmp(arg, "--examples"))
            slot = &a->examples;
        else if (!strcmp(arg, "--package-version"))
            slot = &a->package_version;
        if (slot) {
            if (i + 1 >= argc)
                return usage(g);
            *slot = argv[++i];
            if (slot == &a->include[a->ninclude])
                a->ninclude++;
            else if (slot == &a->follow[a->nfollow])
                a->nfollow++;
        } else if (arg[0] == '-' || a->input) {
            return usage(g);
        } else {
            a->input = arg;
        }
    }
    if (a->lang && strcmp(a->lang, g->lang) != 0) {
        fprintf(stderr, "sdkc generate: unsupported language '%s' (c or ts)\n", a->lang);
        return usage(g);
    }
    if (!a->input || !a->out || (g->prefix_required && !a->prefix))
        return usage(g);
    if (a->package_version && !g->package_version) {
        fprintf(stderr, "sdkc generate: --package-version is not taken by --lang %s\n", g->lang);
        return usage(g);
    }
    if (a->package_version && !sdkc_kit_semver(a->package_version)) {
        fprintf(stderr,
                "sdkc generate: --package-version '%s' is not a semantic version "
                "(MAJOR.MINOR.PATCH[-PRERELEASE][+BUILD], e.g. 1.2.0 or 2.0.0-rc.1)\n",
                a->package_version);
        return usage(g);
    }
    return 0;
}

static int cmp_name(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Copy dir's regular files named *.ext (sorted) into out/examples/, byte for byte: examples
 * that are installed with the SDK. */
static sdkc_status copy_examples(const char *dir, const char *ext, const char *out, sdkc_diag *diag)
{
    sdkc_loc loc = {NULL, 0, 0};
    sdkc_status st = SDKC_ERR_NOMEM;
    char **names = NULL;
    size_t n = 0, cap = 0, el = strlen(ext);
    char *dest = NULL;
    DIR *d = opendir(dir);
    if (!d) {
        sdkc_diag_add(diag, SDKC_SEV_ERROR, loc, "--examples %s: %s", dir, strerror(errno));
        return SDKC_ERR_IO;
    }
    for (struct dirent *e; (e = readdir(d));) {
        size_t l = strlen(e->d_name);
        if (l <= el || e->d_name[0] == '.' || strcmp(e->d_name + l - el, ext) != 0)
            continue;
        if (n == cap) {
            char **grown = realloc(names, (cap = cap ? 2 * cap : 8) * sizeof *names);
            if (!grown)
                goto done;
            names = grown;
        }
        if (!(names[n] = strdup(e->d_name)))
            goto done;
        n++;
    }
    qsort(names, n, sizeof *names, cmp_name);
    size_t dl = strlen(out) + sizeof "/examples";
    if (!(dest = malloc(dl)))
        goto done;
    snprintf(dest, dl, "%s/examples", out);
    if (n && !sdkc_kit_make_dirs(dest)) {
        sdkc_diag_add(diag, SDKC_SEV_ERROR, loc, "cannot create %s: %s", dest, strerror(errno));
        st = SDKC_ERR_IO;
        goto done;
    }
    st = SDKC_OK;
    for (size_t i = 0; i < n && st == SDKC_OK; i++) {
        char *text = NULL;
        size_t len = 0;
        size_t pl = strlen(dir) + strlen(names[i]) + 2;
        char *path = malloc(pl);
        if (!path) {
            st = SDKC_ERR_NOMEM;
            break;
        }
        snprintf(path, pl, "%s/%s", dir, names[i]);
        st = sdkc_read_file(path, &text, &len);
        if (st != SDKC_OK) {
            sdkc_diag_add(diag, SDKC_SEV_ERROR, loc, "--examples: cannot read %s", path);
        } else {
            sdkc_buf b = SDKC_BUF_INIT;
            sdkc_buf_append(&b, text, len);
            st = sdkc_kit_write_out(dest, names[i], &b, diag);
            sdkc_buf_cleanup(&b);
        }
        free(text);
        free(path);
    }
done:
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    free(dest);
    closedir(d);
    return st;
}

int sdkc_kit_generate_main(const sdkc_kit_generate *g, int argc, char **argv)
{
    sdkc_kit_generate_args a;
    memset(&a, 0, sizeof a);
    int rc = 1;
    bool done = false;
    char *text = NULL;
    size_t len = 0;
    sdkc_diag *diag = NULL;
    sdkc_compiled *compiled = NULL;
    a.include = calloc((size_t)(argc > 0 ? argc : 1), sizeof *a.include);
    a.follow = calloc((size_t)(argc > 0 ? argc : 1), sizeof *a.follow);
    if (!a.include || !a.follow)
        goto cleanup;
    if ((rc = parse(&a, g, argc, argv, &done)) != 0 || done)
        goto cleanup;
    rc = 1;
    if (sdkc_diag_new(&diag) != SDKC_OK)
        goto cleanup;
    if (a.examples) { /* an input it cannot read, before anything is written */
        DIR *d = opendir(a.examples);
        if (!d) {
            fprintf(stderr, "sdkc generate: error: --examples %s: %s\n", a.examples,
                    strerror(errno));
            rc = 2;
            goto cleanup;
        }
        closedir(d);
    }
    if (sdkc_read_file(a.input, &text, &len) != SDKC_OK) {
        fprintf(stderr, "sdkc generate: error: cannot read %s\n", a.input);
        rc = 2; /* as `sdkc compile` for an input it cannot read */
        goto cleanup;
    }
    sdkc_status st;
    if (looks_like_ir(text, len)) {
        if (a.ninclude || a.nfollow || a.pagination)
            fprintf(stderr, "sdkc generate: --include, --follow and --pagination are ignored for "
                            "IR input (give them to 'sdkc compile')\n");
        st = sdkc_ir_from_json(&compiled, a.input, text, len, diag);
    } else {
        sdkc_compile_options co = SDKC_COMPILE_OPTIONS_INIT;
        co.include = a.include;
        co.ninclude = a.ninclude;
        co.follow = a.follow;
        co.nfollow = a.nfollow;
        co.pagination_file = a.pagination;
        st = sdkc_compile_file(&compiled, a.input, &co, diag);
    }
    if (st != SDKC_OK) {
        /* A contract or IR error is 2, as `sdkc compile` exits; running out of memory is 1. */
        sdkc_diag_print(diag, stderr, a.quiet);
        if (st != SDKC_ERR_NOMEM && sdkc_diag_errors(diag) == 0)
            fprintf(stderr, "%s: error: %s\n", a.input, sdkc_status_str(st));
        rc = st == SDKC_ERR_NOMEM ? 1 : 2;
        goto cleanup;
    }
    st = g->emit(sdkc_compiled_ir(compiled), &a, diag);
    if (st == SDKC_OK && a.examples)
        st = copy_examples(a.examples, g->example_ext, a.out, diag);
    /* the compiler's warnings too, as compile prints them */
    sdkc_diag_print(diag, stderr, a.quiet);
    /* an emitter refuses its options (a prefix) as a usage error; writing and memory fail as 1 */
    rc = st == SDKC_OK ? 0 : st == SDKC_ERR_INVALID ? 2 : 1;
cleanup:
    sdkc_compiled_free(compiled);
    sdkc_diag_free(diag);
    free(text);
    free(a.include);
    free(a.follow);
    return rc;
}
