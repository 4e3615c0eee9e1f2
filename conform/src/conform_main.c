/* conform_main.c - `sdkc conform`: command line around sdkc_conform_run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sdkc/conform.h"
#include "sdkrt/sdkrt.h"

#define MAX_LIST 64

static void usage(FILE *f)
{
    fputs("usage: sdkc conform CONTRACT --base-url URL [--password-env VAR] [--username USER]\n"
          "                    [--include GLOB]... [--skip GLOB=REASON]... [--report FILE.json]\n"
          "                    [--known FILE.json] [--timeout-ms N] [--stream-ms N] [--verbose]\n"
          "                    [--quiet]\n"
          "Probes a live server with requests built from CONTRACT (OpenAPI, or sdkc-ir/1 JSON)\n"
          "and reports every deviation from it. Exit status: 0 conformant, 1 deviations found\n"
          "(with --known: deviations differ from the reviewed list), 2 usage or contract errors\n"
          "or nothing could be probed.\n",
          f);
}

static bool parse_long(const char *s, long *out)
{
    char *end = NULL;
    long v = strtol(s, &end, 10);
    if (!s[0] || !end || *end || v <= 0)
        return false;
    *out = v;
    return true;
}

/* Load CONTRACT: IR JSON ("format": "sdkc-ir/1") or a contract the compiler reads (then *doc is
 * the document too, new, or NULL when it cannot be read twice). */
static sdkc_compiled *load(const char *path, sdkc_doc **doc)
{
    sdkc_compiled *c = NULL;
    sdkc_diag *diag = NULL;
    char *text = NULL;
    size_t len = 0;
    if (sdkc_diag_new(&diag) != SDKC_OK)
        return NULL;
    if (sdkc_read_file(path, &text, &len) != SDKC_OK) {
        fprintf(stderr, "sdkc conform: cannot read %s\n", path);
        goto done;
    }
    if (strstr(text, "\"sdkc-ir/1\"")) {
        if (sdkc_ir_from_json(&c, path, text, len, diag) != SDKC_OK)
            c = NULL;
    } else {
        sdkc_compile_options co = SDKC_COMPILE_OPTIONS_INIT;
        if (sdkc_compile_file(&c, path, &co, diag) != SDKC_OK)
            c = NULL;
        else if (sdkc_doc_load_file(doc, path, diag) != SDKC_OK)
            *doc = NULL;
    }
    if (!c)
        sdkc_diag_print(diag, stderr, true);
done:
    free(text);
    sdkc_diag_free(diag);
    return c;
}

int sdkc_conform_main(int argc, char **argv)
{
    const char *contract = NULL, *base_url = NULL, *password_env = NULL, *username = NULL;
    const char *report_path = NULL, *known_path = NULL;
    const char *include[MAX_LIST];
    sdkc_conform_skip skips[MAX_LIST];
    char *skip_copies[MAX_LIST];
    size_t ninclude = 0, nskips = 0;
    long timeout_ms = 0, stream_ms = 0;
    bool verbose = false, quiet = false;
    int rc = 2;
    sdkc_compiled *c = NULL;
    sdkc_doc *doc = NULL;
    sdkc_conform_report *report = NULL;
    char *errmsg = NULL;
    bool global = false;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool takes = strcmp(a, "--base-url") == 0 || strcmp(a, "--password-env") == 0 ||
                     strcmp(a, "--username") == 0 || strcmp(a, "--include") == 0 ||
                     strcmp(a, "--skip") == 0 || strcmp(a, "--report") == 0 ||
                     strcmp(a, "--known") == 0 || strcmp(a, "--timeout-ms") == 0 ||
                     strcmp(a, "--stream-ms") == 0;
        if (takes && !v) {
            fprintf(stderr, "sdkc conform: %s needs a value\n", a);
            goto done;
        }
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            rc = 0;
            goto done;
        } else if (strcmp(a, "--verbose") == 0) {
            verbose = true;
        } else if (strcmp(a, "--quiet") == 0) {
            quiet = true;
        } else if (strcmp(a, "--base-url") == 0) {
            base_url = argv[++i];
        } else if (strcmp(a, "--password-env") == 0) {
            password_env = argv[++i];
        } else if (strcmp(a, "--username") == 0) {
            username = argv[++i];
        } else if (strcmp(a, "--report") == 0) {
            report_path = argv[++i];
        } else if (strcmp(a, "--known") == 0) {
            known_path = argv[++i];
        } else if (strcmp(a, "--include") == 0) {
            if (ninclude == MAX_LIST) {
                fprintf(stderr, "sdkc conform: too many --include\n");
                goto done;
            }
            include[ninclude++] = argv[++i];
        } else if (strcmp(a, "--skip") == 0) {
            const char *eq = strchr(v, '=');
            if (nskips == MAX_LIST || !eq || eq == v || !eq[1]) {
                fprintf(stderr, "sdkc conform: --skip wants GLOB=REASON (at most %d)\n", MAX_LIST);
                goto done;
            }
            size_t gl = (size_t)(eq - v);
            char *copy = malloc(gl + 1);
            if (!copy)
                goto done;
            memcpy(copy, v, gl);
            copy[gl] = '\0';
            skip_copies[nskips] = copy;
            skips[nskips].glob = copy;
            skips[nskips].reason = eq + 1;
            nskips++;
            i++;
        } else if (strcmp(a, "--timeout-ms") == 0 || strcmp(a, "--stream-ms") == 0) {
            if (!parse_long(v, strcmp(a, "--timeout-ms") == 0 ? &timeout_ms : &stream_ms)) {
                fprintf(stderr, "sdkc conform: %s wants a positive number\n", a);
                goto done;
            }
            i++;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "sdkc conform: unknown option %s\n", a);
            usage(stderr);
            goto done;
        } else if (!contract) {
            contract = a;
        } else {
            fprintf(stderr, "sdkc conform: one contract only (got %s and %s)\n", contract, a);
            goto done;
        }
    }
    if (!contract || !base_url) {
        usage(stderr);
        goto done;
    }
    const char *password = NULL;
    if (password_env) {
        password = getenv(password_env);
        if (!password || !*password) {
            fprintf(stderr, "sdkc conform: environment variable %s is not set\n", password_env);
            goto done;
        }
    }
    c = load(contract, &doc);
    if (!c)
        goto done;
    const sdkc_ir *ir = sdkc_compiled_ir(c);
    size_t matched = 0;
    for (size_t i = 0; i < ir->nops; i++)
        for (size_t j = 0; j < ninclude; j++)
            if (sdkc_glob_match(include[j], ir->ops[i].id)) {
                matched++;
                break;
            }
    if (ninclude && !matched) {
        fprintf(stderr, "sdkc conform: no operation matches the --include patterns\n");
        goto done;
    }
    if (sdkrt_global_init() != SDKRT_OK) {
        fprintf(stderr, "sdkc conform: runtime initialisation failed\n");
        goto done;
    }
    global = true;
    sdkc_conform_options o = SDKC_CONFORM_OPTIONS_INIT;
    o.base_url = base_url;
    o.username = username;
    o.password = password;
    o.include = include;
    o.ninclude = ninclude;
    o.skips = skips;
    o.nskips = nskips;
    o.timeout_ms = timeout_ms;
    o.stream_ms = stream_ms;
    o.log = verbose ? stderr : NULL;
    o.doc = doc;
    sdkc_status st = sdkc_conform_run(&report, ir, &o, &errmsg);
    if (st != SDKC_OK) {
        fprintf(stderr, "sdkc conform: %s\n", errmsg ? errmsg : sdkc_status_str(st));
        goto done;
    }
    if (!quiet)
        sdkc_conform_report_print(report, stdout, verbose);
    if (report_path) {
        json_t *j = sdkc_conform_report_json(report);
        if (!j || json_dump_file(j, report_path, JSON_INDENT(2) | JSON_ENSURE_ASCII) != 0) {
            fprintf(stderr, "sdkc conform: cannot write %s\n", report_path);
            json_decref(j);
            goto done;
        }
        json_decref(j);
    }
    if (sdkc_conform_report_passes(report) == 0 && sdkc_conform_report_deviations(report) == 0) {
        fprintf(stderr, "sdkc conform: nothing could be probed (is the server at %s up?)\n",
                base_url);
        goto done;
    }
    if (known_path) {
        long diffs = sdkc_conform_compare_known(report, known_path, stderr);
        if (diffs < 0)
            goto done;
        if (!quiet || diffs)
            fprintf(stderr, "sdkc conform: %ld difference%s from the reviewed list %s\n", diffs,
                    diffs == 1 ? "" : "s", known_path);
        rc = diffs ? 1 : 0;
    } else {
        rc = sdkc_conform_report_deviations(report) ? 1 : 0;
    }
done:
    for (size_t i = 0; i < nskips; i++)
        free(skip_copies[i]);
    free(errmsg);
    sdkc_conform_report_free(report);
    sdkc_compiled_free(c);
    sdkc_doc_free(doc);
    if (global)
        sdkrt_global_cleanup();
    return rc;
}
