/* conform_main.c - `sdkc conform`: command line around sdkc_conform_run. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "sdkc/conform.h"
#include "sdkrt/sdkrt.h"
#include "sdkc/compile.h"
#include "sdkc/ir_json.h"
#include "sdkc/naming.h"

#define MAX_LIST 64

/* A signal handler reaches the run only through these (the token's trigger is
 * async-signal-safe: it ends the requests in flight at once). */
static volatile sig_atomic_t interrupted;
static sdkrt_cancel *volatile interrupt_token;

static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
    if (interrupt_token)
        sdkrt_cancel_trigger(interrupt_token);
}

static void usage(FILE *f)
{
    fputs(
        "usage: sdkc conform CONTRACT --base-url URL [--auth SCHEME=ENV]... [--header 'K: V']...\n"
        "                    [--param NAME=VALUE]... [--password-env VAR] [--username USER]\n"
        "                    [--include GLOB]... [--skip GLOB=REASON]... [--checks LIST]\n"
        "                    [--report FILE.json] [--junit FILE.xml] [--known FILE.json]\n"
        "                    [--timeout-ms N]\n"
        "                    [--stream-ms N] [-j N] [--max-time SECONDS] [--ca-file FILE.pem]\n"
        "                    [--insecure] [--seed N] [--max-examples N] [--verbose] [--quiet]\n"
        "Probes a live server with requests built from CONTRACT (OpenAPI, or sdkc-ir/1 JSON)\n"
        "and reports every deviation from it. --auth takes a security scheme of the contract\n"
        "and an environment variable holding its secret (HTTP basic: user:password). Exit\n"
        "status: 0 conformant, 1 deviations found (with --known: deviations differ from the\n"
        "reviewed list), 2 usage, contract or file errors (nothing sent), 3 the run stopped\n"
        "(--max-time, SIGINT; before 1) or nothing was really checked (every operation\n"
        "skipped, refused or unreachable). Generated requests (the contract's examples,\n"
        "coverage and negative values): at most --max-examples per operation and phase\n"
        "(default 12, 0 for none), chosen by --seed (default 0): the same seed, contract and\n"
        "server give the same requests.\n",
        f);
    fputs("checks:", f);
    for (size_t i = 0; sdkc_conform_check_name(i); i++)
        fprintf(f, " %s", sdkc_conform_check_name(i));
    fputc('\n', f);
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

/* "a,b,-c": names to run; "all" and a leading '-' (remove) over all checks. 0 when invalid. */
static unsigned parse_checks(const char *list)
{
    unsigned bits = 0;
    bool only_removals = true;
    char name[64];
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        if (n == 0 || n >= sizeof name)
            return 0;
        memcpy(name, p, n);
        name[n] = '\0';
        p += n + (p[n] == ',');
        bool minus = name[0] == '-';
        const char *nm = minus ? name + 1 : name;
        unsigned bit = strcmp(nm, "all") == 0 ? SDKC_CHECK_ALL : sdkc_conform_check_bit(nm);
        if (!bit)
            return 0;
        if (minus) {
            if (only_removals && !bits)
                bits = SDKC_CHECK_ALL;
            bits &= ~bit;
        } else {
            only_removals = false;
            bits |= bit;
        }
    }
    return bits ? bits : 0;
}

/* Load CONTRACT: IR JSON ("format": "sdkc-ir/1") or a contract the compiler reads. Either way
 * conformance reads only the IR. */
static sdkc_compiled *load(const char *path)
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
    }
    if (!c)
        sdkc_diag_print(diag, stderr, true);
done:
    free(text);
    sdkc_diag_free(diag);
    return c;
}

/* The contract's document, for its examples: NULL for IR JSON (it keeps none) or when it cannot
 * be read again (the compiler read it a moment ago). */
static sdkc_doc *load_doc(const char *path)
{
    sdkc_doc *doc = NULL;
    sdkc_diag *diag = NULL;
    char *text = NULL;
    size_t len = 0;
    if (sdkc_diag_new(&diag) != SDKC_OK)
        return NULL;
    if (sdkc_read_file(path, &text, &len) == SDKC_OK && !strstr(text, "\"sdkc-ir/1\"") &&
        sdkc_doc_load_buffer(&doc, path, text, len, diag) != SDKC_OK)
        doc = NULL;
    free(text);
    sdkc_diag_free(diag);
    return doc;
}

/* NAME=VALUE into a copy of NAME (new) and a pointer to VALUE; NULL when malformed. */
static char *split_eq(const char *s, const char **value)
{
    const char *eq = strchr(s, '=');
    if (!eq || eq == s || !eq[1])
        return NULL;
    size_t n = (size_t)(eq - s);
    char *name = malloc(n + 1);
    if (!name)
        return NULL;
    memcpy(name, s, n);
    name[n] = '\0';
    *value = eq + 1;
    return name;
}

typedef struct cli {
    const char *include[MAX_LIST];
    size_t ninclude;
    sdkc_conform_skip skips[MAX_LIST];
    size_t nskips;
    sdkc_conform_param params[MAX_LIST];
    size_t nparams;
    sdkrt_header headers[MAX_LIST];
    size_t nheaders;
    const char *auth[MAX_LIST]; /* SCHEME=ENV as given */
    size_t nauth;
    sdkrt_credential creds[MAX_LIST];
    const char *cred_envs[MAX_LIST]; /* the variable each came from, for curl lines */
    size_t ncreds;
    char *owned[4 * MAX_LIST]; /* copies to free */
    size_t nowned;
} cli;

static char *own(cli *c, char *s)
{
    if (s && c->nowned < sizeof c->owned / sizeof c->owned[0])
        c->owned[c->nowned++] = s;
    else if (s) {
        free(s);
        s = NULL;
    }
    return s;
}

/* --auth SCHEME=ENV into a credential: the scheme must be one of the contract's; the secret
 * comes from the environment and is never printed. */
static bool add_auth(cli *c, const sdkc_ir *ir, const char *arg)
{
    const char *env = NULL;
    char *scheme = own(c, split_eq(arg, &env));
    if (!scheme) {
        fprintf(stderr, "sdkc conform: --auth wants SCHEME=ENV\n");
        return false;
    }
    const sdkc_security_scheme *s = NULL;
    for (size_t i = 0; i < ir->nschemes && !s; i++)
        if (strcmp(ir->schemes[i].name, scheme) == 0)
            s = &ir->schemes[i];
    if (!s) {
        fprintf(stderr,
                "sdkc conform: --auth %s: the contract has no security scheme of that name "
                "(it has:",
                scheme);
        for (size_t i = 0; i < ir->nschemes; i++)
            fprintf(stderr, " %s", ir->schemes[i].name);
        fprintf(stderr, "%s)\n", ir->nschemes ? "" : " none");
        return false;
    }
    const char *secret = getenv(env);
    if (!secret || !*secret) {
        fprintf(stderr, "sdkc conform: environment variable %s (for --auth %s) is not set\n", env,
                scheme);
        return false;
    }
    sdkrt_credential *cr = &c->creds[c->ncreds];
    memset(cr, 0, sizeof *cr);
    c->cred_envs[c->ncreds] = env;
    cr->scheme = s->name;
    if (s->type && strcmp(s->type, "http") == 0 && s->scheme &&
        strcasecmp(s->scheme, "basic") == 0) {
        const char *colon = strchr(secret, ':');
        if (!colon) {
            fprintf(stderr, "sdkc conform: %s (for the basic scheme %s) must hold user:password\n",
                    env, scheme);
            return false;
        }
        char *user = own(c, strndup(secret, (size_t)(colon - secret)));
        if (!user)
            return false;
        cr->username = user;
        cr->password = colon + 1;
    } else {
        cr->token = secret; /* bearer, API key, OAuth2 / OpenID Connect access token */
    }
    c->ncreds++;
    return true;
}

static bool add_header(cli *c, const char *arg)
{
    const char *colon = strchr(arg, ':');
    if (!colon || colon == arg || c->nheaders == MAX_LIST) {
        fprintf(stderr, "sdkc conform: --header wants 'Name: value'\n");
        return false;
    }
    char *name = own(c, strndup(arg, (size_t)(colon - arg)));
    if (!name)
        return false;
    const char *v = colon + 1;
    while (*v == ' ' || *v == '\t')
        v++;
    c->headers[c->nheaders].name = name;
    c->headers[c->nheaders].value = v;
    c->nheaders++;
    return true;
}

/* Can path be written? Checked before the first request, so that a run is never lost to a
 * typo. A file this check creates is removed again. */
static bool writable(const char *option, const char *path)
{
    FILE *probe = fopen(path, "r");
    bool existed = probe != NULL;
    if (probe)
        fclose(probe);
    FILE *f = fopen(path, "a");
    if (!f) {
        fprintf(stderr, "sdkc conform: %s %s: cannot be written\n", option, path);
        return false;
    }
    fclose(f);
    if (!existed)
        remove(path);
    return true;
}

int sdkc_conform_main(int argc, char **argv)
{
    const char *contract = NULL, *base_url = NULL, *password_env = NULL, *username = NULL;
    const char *report_path = NULL, *known_path = NULL, *checks_arg = NULL, *junit_path = NULL;
    long timeout_ms = 0, stream_ms = 0, jobs = 1, max_time = 0;
    bool verbose = false, quiet = false, insecure = false;
    unsigned long long seed_value = 0;
    long max_examples = 0;
    sdkc_doc *doc = NULL;
    const char *ca_file = NULL;
    sdkrt_cancel *cancel = NULL;
    int rc = 2;
    sdkc_compiled *c = NULL;
    sdkc_conform_report *report = NULL;
    char *errmsg = NULL;
    json_t *known = NULL;
    bool global = false;
    cli *cl = calloc(1, sizeof *cl);
    if (!cl)
        return 2;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        static const char *const takes_value[] = {
            "--base-url", "--password-env", "--username",   "--include",   "--skip",
            "--report",   "--known",        "--timeout-ms", "--stream-ms", "--auth",
            "--header",   "--param",        "--checks",     "-j",          "--jobs",
            "--max-time", "--ca-file",      "--junit",      "--seed",      "--max-examples"};
        bool takes = false;
        for (size_t k = 0; k < sizeof takes_value / sizeof takes_value[0]; k++)
            takes = takes || strcmp(a, takes_value[k]) == 0;
        if (takes && !v) {
            fprintf(stderr, "sdkc conform: %s needs a value\n", a);
            goto done;
        }
        bool list_full = (strcmp(a, "--include") == 0 && cl->ninclude == MAX_LIST) ||
                         (strcmp(a, "--skip") == 0 && cl->nskips == MAX_LIST) ||
                         (strcmp(a, "--param") == 0 && cl->nparams == MAX_LIST) ||
                         (strcmp(a, "--auth") == 0 && cl->nauth == MAX_LIST);
        if (list_full) {
            fprintf(stderr, "sdkc conform: at most %d %s\n", MAX_LIST, a);
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
        } else if (strcmp(a, "--insecure") == 0) {
            insecure = true;
        } else if (strcmp(a, "--seed") == 0 || strcmp(a, "--max-examples") == 0) {
            char *end = NULL;
            bool seed = strcmp(a, "--seed") == 0;
            unsigned long long n = strtoull(v, &end, 10);
            if (!v[0] || !end || *end || v[0] == '-' || (!seed && n > 100000)) {
                fprintf(stderr, "sdkc conform: %s wants a number%s\n", a,
                        seed ? "" : " from 0 to 100000");
                goto done;
            }
            if (seed)
                seed_value = n;
            else
                max_examples = n ? (long)n : -1;
            i++;
        } else if (strcmp(a, "--ca-file") == 0) {
            ca_file = argv[++i];
        } else if (strcmp(a, "--base-url") == 0) {
            base_url = argv[++i];
        } else if (strcmp(a, "--password-env") == 0) {
            password_env = argv[++i];
        } else if (strcmp(a, "--username") == 0) {
            username = argv[++i];
        } else if (strcmp(a, "--report") == 0) {
            report_path = argv[++i];
        } else if (strcmp(a, "--junit") == 0) {
            junit_path = argv[++i];
        } else if (strcmp(a, "--known") == 0) {
            known_path = argv[++i];
        } else if (strcmp(a, "--checks") == 0) {
            checks_arg = argv[++i];
        } else if (strcmp(a, "--auth") == 0) {
            cl->auth[cl->nauth++] = argv[++i];
        } else if (strcmp(a, "--header") == 0) {
            if (!add_header(cl, argv[++i]))
                goto done;
        } else if (strcmp(a, "--include") == 0) {
            cl->include[cl->ninclude++] = argv[++i];
        } else if (strcmp(a, "--skip") == 0 || strcmp(a, "--param") == 0) {
            const char *val = NULL;
            char *name = own(cl, split_eq(v, &val));
            if (!name) {
                fprintf(stderr, "sdkc conform: %s wants %s\n", a,
                        strcmp(a, "--skip") == 0 ? "GLOB=REASON" : "NAME=VALUE");
                goto done;
            }
            if (strcmp(a, "--skip") == 0) {
                cl->skips[cl->nskips].glob = name;
                cl->skips[cl->nskips++].reason = val;
            } else {
                cl->params[cl->nparams].name = name;
                cl->params[cl->nparams++].value = val;
            }
            i++;
        } else if (strcmp(a, "--timeout-ms") == 0 || strcmp(a, "--stream-ms") == 0 ||
                   strcmp(a, "-j") == 0 || strcmp(a, "--jobs") == 0 ||
                   strcmp(a, "--max-time") == 0) {
            long *dst = strcmp(a, "--timeout-ms") == 0  ? &timeout_ms
                        : strcmp(a, "--stream-ms") == 0 ? &stream_ms
                        : strcmp(a, "--max-time") == 0  ? &max_time
                                                        : &jobs;
            if (!parse_long(v, dst) || (dst == &jobs && jobs > 64)) {
                fprintf(stderr, "sdkc conform: %s wants a positive number%s\n", a,
                        dst == &jobs ? " (at most 64)" : "");
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
    unsigned checks = 0;
    if (checks_arg && !(checks = parse_checks(checks_arg))) {
        fprintf(stderr, "sdkc conform: --checks %s: not a list of checks (see --help)\n",
                checks_arg);
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
    /* Every file argument is read or checked before the first request. */
    if (known_path && !(known = sdkc_conform_known_load(known_path, stderr))) {
        fprintf(stderr, "sdkc conform: --known %s: not a list of reviewed deviations\n",
                known_path);
        goto done;
    }
    if ((report_path && !writable("--report", report_path)) ||
        (junit_path && !writable("--junit", junit_path)))
        goto done;
    if (ca_file) {
        FILE *f = fopen(ca_file, "r");
        if (!f) {
            fprintf(stderr, "sdkc conform: --ca-file %s: cannot be read\n", ca_file);
            goto done;
        }
        fclose(f);
    }
    c = load(contract);
    if (!c)
        goto done;
    const sdkc_ir *ir = sdkc_compiled_ir(c);
    doc = load_doc(contract);
    for (size_t i = 0; i < cl->nauth; i++)
        if (!add_auth(cl, ir, cl->auth[i]))
            goto done;
    size_t matched = 0;
    for (size_t i = 0; i < ir->nops; i++)
        for (size_t j = 0; j < cl->ninclude; j++)
            if (sdkc_glob_match(cl->include[j], ir->ops[i].id)) {
                matched++;
                break;
            }
    if (cl->ninclude && !matched) {
        fprintf(stderr, "sdkc conform: no operation matches the --include patterns\n");
        goto done;
    }
    if (sdkrt_global_init() != SDKRT_OK) {
        fprintf(stderr, "sdkc conform: runtime initialisation failed\n");
        goto done;
    }
    global = true;
    if (sdkrt_cancel_new(&cancel) != SDKRT_OK) {
        fprintf(stderr, "sdkc conform: out of memory or file descriptors\n");
        goto done;
    }
    interrupt_token = cancel;
    /* The first SIGINT or SIGTERM stops sending probes; the report is still written. */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sdkc_conform_options o = SDKC_CONFORM_OPTIONS_INIT;
    o.base_url = base_url;
    o.username = username;
    o.password = password;
    o.include = cl->include;
    o.ninclude = cl->ninclude;
    o.skips = cl->skips;
    o.nskips = cl->nskips;
    o.timeout_ms = timeout_ms;
    o.stream_ms = stream_ms;
    o.log = verbose ? stderr : NULL;
    /* a progress line on a terminal only: never in a pipe, a file or between --verbose lines */
    o.progress = !quiet && !verbose && isatty(STDERR_FILENO) ? stderr : NULL;
    o.credentials = cl->creds;
    o.ncredentials = cl->ncreds;
    o.headers = cl->headers;
    o.nheaders = cl->nheaders;
    o.params = cl->params;
    o.nparams = cl->nparams;
    o.checks = checks;
    o.jobs = (int)jobs;
    o.max_time_ms = max_time * 1000;
    o.stop = &interrupted;
    o.cancel = cancel;
    o.ca_file = ca_file;
    o.insecure = insecure;
    o.credential_envs = cl->cred_envs;
    o.password_env = password_env;
    o.seed = seed_value;
    o.max_examples = max_examples;
    o.doc = doc;
    sdkc_status st = sdkc_conform_run(&report, ir, &o, &errmsg);
    if (st != SDKC_OK) {
        fprintf(stderr, "sdkc conform: %s\n", errmsg ? errmsg : sdkc_status_str(st));
        goto done;
    }
    if (report_path) {
        json_t *j = sdkc_conform_report_json(report);
        if (!j || json_dump_file(j, report_path, JSON_INDENT(2) | JSON_ENSURE_ASCII) != 0) {
            fprintf(stderr, "sdkc conform: cannot write %s\n", report_path);
            json_decref(j);
            goto done;
        }
        json_decref(j);
    }
    if (junit_path) {
        FILE *f = fopen(junit_path, "w");
        bool ok = f && sdkc_conform_report_junit(report, f) == 0;
        if (f && fclose(f) != 0)
            ok = false;
        if (!ok) {
            fprintf(stderr, "sdkc conform: cannot write %s\n", junit_path);
            goto done;
        }
    }
    if (!quiet)
        sdkc_conform_report_print(report, stdout, verbose);
    long diffs = 0;
    if (known) {
        diffs = sdkc_conform_compare_known_json(report, known, stderr);
        if (diffs < 0)
            goto done;
        if (!quiet || diffs)
            fprintf(stderr, "sdkc conform: %ld difference%s from the reviewed list %s\n", diffs,
                    diffs == 1 ? "" : "s", known_path);
    } else {
        diffs = (long)sdkc_conform_report_deviations(report);
    }
    /* Precedence (docs/conformance.md): 2 before any request; 3 for a stopped run, whatever
       it found (unsent probes make its deviations, and a --known comparison, incomplete); then
       1 for deviations; then 3 when nothing was checked; else 0. */
    if (sdkc_conform_report_stopped(report)) {
        fprintf(stderr, "sdkc conform: the run stopped before every probe was sent (%s)\n",
                diffs ? "deviations were found all the same" : "no deviation so far");
        rc = 3;
    } else if (diffs) {
        rc = 1;
    } else if (sdkc_conform_report_probed(report) == 0) {
        fprintf(stderr,
                "sdkc conform: nothing was really checked: no operation got a valid probe "
                "answered (is the server at %s up? are credentials needed: --auth?)\n",
                base_url);
        rc = 3;
    } else {
        rc = 0;
    }
done:
    for (size_t i = 0; i < cl->nowned; i++)
        free(cl->owned[i]);
    free(cl);
    free(errmsg);
    json_decref(known);
    sdkc_conform_report_free(report);
    sdkc_compiled_free(c);
    sdkc_doc_free(doc);
    if (cancel) {
        /* no handler may reach the token once it is freed */
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        interrupt_token = NULL;
        sdkrt_cancel_free(cancel);
    }
    if (global)
        sdkrt_global_cleanup();
    return rc;
}
