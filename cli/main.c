/* main.c - the sdkc command line: one dispatch table of subcommands over libsdkc.
 *
 * Exit statuses (docs/cli.md): 0 success; 1 internal or I/O failure writing output; 2 usage
 * errors and contract errors (diagnostics on stderr as path:line:col: error: message).
 */
#define _POSIX_C_SOURCE 200809L /* readlink, execv */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "sdkc/diag.h"
#include "sdkc/ir.h"
#include "sdkc/util.h"

#ifdef SDKC_HAVE_EMIT_C
#include "sdkc/emit_c.h"
#endif
#ifdef SDKC_HAVE_EMIT_TS
#include "sdkc/emit_ts.h"
#include "sdkc/compile.h"
#include "sdkc/ir_json.h"
#endif
#ifdef SDKC_HAVE_CONFORM
#include <errno.h>
#include <unistd.h>
#endif

enum { EXIT_OK = 0, EXIT_INTERNAL = 1, EXIT_USAGE = 2 };

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv); /* argv[0] is the command name */
    const char *synopsis;
    const char *help;
} command;

static const command *find_command(const char *name);

static int usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "sdkc: %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'sdkc help %s'.\n", cmd);
    return EXIT_USAGE;
}

/* ---- options shared by compile and inspect ---- */

#define MAX_LIST 64

typedef struct compile_args {
    const char *contract;
    const char *output;
    const char *include[MAX_LIST];
    size_t ninclude;
    const char *strip[MAX_LIST];
    size_t nstrip;
    const char *pagination; /* --pagination FILE, or NULL */
    const char *follow[MAX_LIST];
    size_t nfollow;
    bool werror;
    bool quiet; /* warnings not printed; errors always are */
} compile_args;

/* Parse argv[1..]; allow_output: -o is accepted. Returns EXIT_OK or EXIT_USAGE. */
static int parse_compile_args(int argc, char **argv, bool allow_output, compile_args *a)
{
    const char *cmd = argv[0];
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *val = NULL;
        if (strcmp(arg, "--") == 0) {
            if (i + 1 < argc && !a->contract)
                a->contract = argv[++i];
            if (i + 1 < argc)
                return usage_error(cmd, "unexpected argument '%s'", argv[i + 1]);
            break;
        }
        bool takes_value =
            (allow_output && (strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0)) ||
            strcmp(arg, "--include") == 0 || strcmp(arg, "--strip-prefix") == 0 ||
            strcmp(arg, "--follow") == 0 || strcmp(arg, "--pagination") == 0;
        if (takes_value) {
            if (i + 1 >= argc)
                return usage_error(cmd, "option '%s' needs a value", arg);
            val = argv[++i];
            if (arg[1] == 'o' || strcmp(arg, "--output") == 0) {
                a->output = val;
            } else if (strcmp(arg, "--pagination") == 0) {
                a->pagination = val;
            } else if (strcmp(arg, "--include") == 0) {
                if (a->ninclude == MAX_LIST)
                    return usage_error(cmd, "too many %s options", arg);
                a->include[a->ninclude++] = val;
            } else if (strcmp(arg, "--follow") == 0) {
                if (a->nfollow == MAX_LIST)
                    return usage_error(cmd, "too many %s options", arg);
                if (!strchr(val, '=') || *val == '=')
                    return usage_error(cmd, "--follow needs OPID=PATH:PARAM or OPID=off");
                a->follow[a->nfollow++] = val;
            } else {
                if (a->nstrip == MAX_LIST)
                    return usage_error(cmd, "too many %s options", arg);
                a->strip[a->nstrip++] = val;
            }
        } else if (strcmp(arg, "--Werror") == 0) {
            a->werror = true;
        } else if (strcmp(arg, "--quiet") == 0 || strcmp(arg, "-q") == 0) {
            a->quiet = true;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            return usage_error(cmd, "unknown option '%s'", arg);
        } else if (a->contract) {
            return usage_error(cmd, "unexpected argument '%s'", arg);
        } else {
            a->contract = arg;
        }
    }
    if (!a->contract)
        return usage_error(cmd, "missing CONTRACT");
    return EXIT_OK;
}

/* Compile per the arguments, printing every diagnostic. EXIT_OK with *out set, or a status. */
static int compile_contract(const compile_args *a, sdkc_compiled **out)
{
    *out = NULL;
    sdkc_diag *diag = NULL;
    if (sdkc_diag_new(&diag) != SDKC_OK) {
        fprintf(stderr, "sdkc: out of memory\n");
        return EXIT_INTERNAL;
    }
    sdkc_compile_options opts = SDKC_COMPILE_OPTIONS_INIT;
    opts.include = a->include;
    opts.ninclude = a->ninclude;
    opts.pagination_file = a->pagination;
    if (a->nstrip) {
        opts.strip_prefixes = a->strip;
        opts.nstrip_prefixes = a->nstrip;
    }
    opts.follow = a->follow;
    opts.nfollow = a->nfollow;
    sdkc_status st = sdkc_compile_file(out, a->contract, &opts, diag);
    sdkc_diag_print(diag, stderr, a->quiet);
    int rc = EXIT_OK;
    if (st == SDKC_ERR_NOMEM) {
        fprintf(stderr, "sdkc: out of memory\n");
        rc = EXIT_INTERNAL;
    } else if (st != SDKC_OK || sdkc_diag_errors(diag) > 0) {
        if (sdkc_diag_errors(diag) == 0) /* never exit 2 without saying why */
            fprintf(stderr, "%s: error: %s\n", a->contract, sdkc_status_str(st));
        rc = EXIT_USAGE;
    } else if (a->werror && sdkc_diag_warnings(diag) > 0) {
        fprintf(stderr, "sdkc: %zu warning(s) treated as errors (--Werror)\n",
                sdkc_diag_warnings(diag));
        rc = EXIT_USAGE;
    }
    if (rc != EXIT_OK) {
        sdkc_compiled_free(*out);
        *out = NULL;
    }
    sdkc_diag_free(diag);
    return rc;
}

static int finish_stdout(void)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "sdkc: error writing to standard output\n");
        return EXIT_INTERNAL;
    }
    return EXIT_OK;
}

/* ---- compile ---- */

static sdkc_status write_ir(FILE *fp, void *ir)
{
    return sdkc_ir_write_json(ir, fp);
}

static int cmd_compile(int argc, char **argv)
{
    compile_args a;
    int rc = parse_compile_args(argc, argv, true, &a);
    if (rc != EXIT_OK)
        return rc;
    sdkc_compiled *c = NULL;
    rc = compile_contract(&a, &c);
    if (rc != EXIT_OK)
        goto done;
    rc = EXIT_INTERNAL;
    /* written as it is made: the text of a large IR is never held whole */
    bool to_file = a.output && strcmp(a.output, "-") != 0;
    sdkc_status st = to_file ? sdkc_write_file_with(a.output, write_ir, (void *)sdkc_compiled_ir(c))
                             : sdkc_ir_write_json(sdkc_compiled_ir(c), stdout);
    if (st == SDKC_ERR_IO && to_file) {
        fprintf(stderr, "sdkc: compile: cannot write %s\n", a.output);
    } else if (st == SDKC_ERR_IO) {
        fprintf(stderr, "sdkc: error writing to standard output\n");
    } else if (st != SDKC_OK) {
        fprintf(stderr, "sdkc: compile: %s writing the IR\n",
                st == SDKC_ERR_NOMEM ? "out of memory" : sdkc_status_str(st));
    } else {
        rc = to_file ? EXIT_OK : finish_stdout();
    }
done:
    sdkc_compiled_free(c);
    return rc;
}

/* ---- inspect ---- */

static const char *type_label(const sdkc_type *t)
{
    if (!t)
        return "-";
    return t->name ? t->name : sdkc_type_kind_name(t->kind);
}

static void print_operation(const sdkc_operation *op)
{
    printf("  %-6s %s  %s", op->method, op->path, op->id);
    if (op->safe_name)
        printf(" (%s)", op->safe_name);
    if (op->pagination)
        printf(" [page %s %s]", sdkc_page_style_name(op->pagination->style),
               type_label(op->pagination->item));
    if (op->stream)
        printf(" [stream %s %s]", sdkc_encoding_name(op->stream->encoding),
               type_label(op->stream->item));
    if (op->stream && op->stream->follow) {
        const sdkc_follow *f = op->stream->follow;
        printf(" [durable: follow by ");
        for (size_t i = 0; i < f->depth; i++)
            printf("%s%s", i ? "." : "", f->sequence[i]);
        printf(" via %s%s]", f->after_param->wire_name, f->from_option ? ", --follow" : "");
    }
    if (op->stream_variant)
        printf(" [stream variant %s %s]", sdkc_encoding_name(op->stream_variant->encoding),
               type_label(op->stream_variant->item));
    char st[16];
    if (op->success.encoding == SDKC_ENC_NONE)
        printf(" [%s no content]",
               op->success.status ? sdkc_status_text(op->success.status, st, sizeof st) : "any");
    for (size_t i = 0; i < op->nmore_successes; i++) {
        const sdkc_success *m = &op->more_successes[i];
        printf("%s%s %s", i ? "; " : " [also ", sdkc_status_text(m->status, st, sizeof st),
               m->encoding == SDKC_ENC_NONE ? "no content" : type_label(m->result));
        if (i + 1 == op->nmore_successes)
            printf("]");
    }
    if (op->deprecated)
        printf(" [deprecated]");
    printf("\n");
    if (op->pagination)
        printf("         page: %s\n", op->pagination->reason ? op->pagination->reason : "-");
    if (op->nerrors) {
        printf("         errors:");
        for (size_t i = 0; i < op->nerrors; i++) {
            const sdkc_error_status *e = &op->errors[i];
            printf("%s %s", i ? ";" : "", sdkc_status_text(e->status, st, sizeof st));
            for (size_t j = 0; j < e->ntags; j++)
                printf(" %s", e->tags[j].tag);
            if (e->untagged)
                printf(" (untagged %s)", type_label(e->untagged));
            if (!e->ntags && !e->untagged)
                printf(" (no body)");
        }
        printf("\n");
    }
}

static int cmd_inspect(int argc, char **argv)
{
    compile_args a;
    int rc = parse_compile_args(argc, argv, false, &a);
    if (rc != EXIT_OK)
        return rc;
    sdkc_compiled *c = NULL;
    rc = compile_contract(&a, &c);
    if (rc != EXIT_OK)
        return rc;
    const sdkc_ir *ir = sdkc_compiled_ir(c);
    size_t pages = 0, streams = 0, empty = 0, several = 0, variants = 0;
    size_t by_style[SDKC_PAGE_OFFSET + 1] = {0};
    for (size_t i = 0; i < ir->nops; i++) {
        pages += ir->ops[i].pagination != NULL;
        if (ir->ops[i].pagination && ir->ops[i].pagination->style <= SDKC_PAGE_OFFSET)
            by_style[ir->ops[i].pagination->style]++;
        streams += ir->ops[i].stream != NULL;
        empty += ir->ops[i].success.encoding == SDKC_ENC_NONE;
        several += ir->ops[i].nmore_successes > 0;
        variants += ir->ops[i].stream_variant != NULL;
    }
    printf("%s %s\n", ir->title ? ir->title : "(untitled)", ir->version ? ir->version : "");
    printf("source: %s sha256 %s\n", a.contract, ir->source_sha256 ? ir->source_sha256 : "-");
    printf("operations: %zu (paginated %zu, streams %zu, no content %zu)\n", ir->nops, pages,
           streams, empty);
    if (pages) {
        printf("pages:");
        for (int k = 0; k <= SDKC_PAGE_OFFSET; k++)
            if (by_style[k])
                printf(" %s %zu", sdkc_page_style_name((sdkc_page_style)k), by_style[k]);
        printf("\n");
    }
    if (several || variants)
        printf("successes: %zu operations with several, %zu with a stream variant\n", several,
               variants);
    printf("types: %zu named, brands: %zu, security schemes: %zu\n", ir->ntypes, ir->nbrands,
           ir->nschemes);
    if (ir->auth_unspecified)
        printf("  security unspecified: clients send their configured credentials everywhere\n");
    for (size_t i = 0; i < ir->nbrands; i++)
        printf("  brand %s: pattern %s, %zu uses\n", ir->brands[i].name, ir->brands[i].pattern,
               ir->brands[i].uses);
    for (size_t i = 0; i < ir->nschemes; i++)
        printf("  security %s: %s%s%s%s\n", ir->schemes[i].name,
               ir->schemes[i].type ? ir->schemes[i].type : "?", ir->schemes[i].scheme ? " " : "",
               ir->schemes[i].scheme ? ir->schemes[i].scheme : "",
               ir->schemes[i].implied ? " (implied)" : "");
    printf("\n");
    for (size_t i = 0; i < ir->nops; i++)
        print_operation(&ir->ops[i]);
    if (ir->nwebhooks)
        printf("\nwebhooks and callbacks (types only; the API sends these): %zu\n", ir->nwebhooks);
    for (size_t i = 0; i < ir->nwebhooks; i++) {
        const sdkc_webhook *h = &ir->webhooks[i];
        if (h->operation)
            printf("  callback %-6s %s  %s of %s", h->method, h->expression, h->name, h->operation);
        else
            printf("  webhook  %-6s %s", h->method, h->name);
        if (h->body)
            printf(" [body %s]", type_label(h->body->type));
        if (h->response)
            printf(" [response %s]", type_label(h->response));
        printf("\n");
    }
    sdkc_compiled_free(c);
    return finish_stdout();
}

/* ---- generate, conform: libraries of their own, linked when built ---- */

/* The value of `--lang` in a generate command line, or NULL. */
static const char *generate_lang(int argc, char **argv)
{
    for (int i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--lang") == 0)
            return argv[i + 1];
    }
    return NULL;
}

static int cmd_generate(int argc, char **argv)
{
    const char *lang = generate_lang(argc, argv);
    if (lang && strcmp(lang, "ts") == 0) {
#ifdef SDKC_HAVE_EMIT_TS
        return sdkc_emit_ts_main(argc, argv);
#else
        fprintf(stderr, "sdkc: generate: not built with the TypeScript emitter\n");
        return EXIT_USAGE;
#endif
    }
#ifdef SDKC_HAVE_EMIT_C
    return sdkc_emit_c_main(argc, argv);
#else
    (void)argc;
    (void)argv;
    fprintf(stderr, "sdkc: generate: not built with the C emitter\n");
    return EXIT_USAGE;
#endif
}

/* Run sdkc-conform from the directory of this executable with the same arguments. */
static int cmd_conform(int argc, char **argv)
{
#ifdef SDKC_HAVE_CONFORM
    (void)argc;
    char path[4096];
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - sizeof "sdkc-conform");
    if (n > 0)
        path[n] = '\0';
    char *slash = n > 0 ? strrchr(path, '/') : NULL;
    if (!slash) {
        fprintf(stderr, "sdkc: conform: cannot find where sdkc is installed\n");
        return EXIT_USAGE;
    }
    memcpy(slash + 1, "sdkc-conform", sizeof "sdkc-conform");
    argv[0] = "sdkc-conform";
    fflush(NULL);
    execv(path, argv);
    fprintf(stderr, "sdkc: conform: cannot run %s: %s\n", path, strerror(errno));
    return EXIT_USAGE;
#else
    (void)argc;
    (void)argv;
    fprintf(stderr, "sdkc: conform: not built with the conformance checker\n");
    return EXIT_USAGE;
#endif
}

/* ---- help ---- */

static void print_version(void)
{
    printf("sdkc %s (IR format %s)\n", SDKC_VERSION, SDKC_IR_FORMAT);
}

static int cmd_help(int argc, char **argv);

static const command COMMANDS[] = {
    {"compile", cmd_compile,
     "compile CONTRACT [-o FILE] [--include GLOB]... [--strip-prefix P]... "
     "[--follow OPID=PATH:PARAM]... [--pagination FILE] [--Werror] [--quiet]",
     "Compile an OpenAPI contract (JSON or YAML) to the SDK Contract IR and write it as\n"
     "\"sdkc-ir/1\" JSON to FILE (default: standard output; '-' also means standard output).\n"
     "\n"
     "  -o, --output FILE    where to write the IR\n"
     "  --include GLOB       keep only operations whose id matches (repeatable; '*' any run,\n"
     "                       '?' one character); default: all operations\n"
     "  --strip-prefix P     prefix removed from operation ids to form group and name\n"
     "                       (repeatable; default: v2)\n"
     "  --follow OPID=PATH:PARAM  the stream OPID is durable: its items' integer sequence is\n"
     "                       at PATH (dotted wire names, durable.seq) and PARAM resumes after\n"
     "                       one; OPID=off: not durable (repeatable; default: detected)\n"
     "  --pagination FILE    pagination config (JSON or YAML, docs/pagination.md): per\n"
     "                       operation id a style and its fields, or \"none\"; overrides\n"
     "                       what is detected\n"
     "  --Werror             exit 2 when the compiler reports warnings\n"
     "  -q, --quiet          do not print warnings (errors are always printed)\n"},
    {"inspect", cmd_inspect,
     "inspect CONTRACT [--include GLOB]... [--strip-prefix P]... [--follow OPID=PATH:PARAM]...\n"
     "        [--pagination FILE] [--Werror] [--quiet]",
     "Compile a contract and print a readable summary: counts (paginated operations by style),\n"
     "brands, security schemes, then each operation with method, path, id, C name,\n"
     "[page STYLE ITEM] / [stream sse ITEM] / [durable: follow by PATH via PARAM] /\n"
     "[204 no content] markers, why it is paginated (page: x-speakeasy-pagination, heuristic:\n"
     "starting_after + has_more, config FILE:L:C) and its error statuses with their tags.\n"
     "Options as for compile.\n"},
    {"generate", cmd_generate, "generate ... (see 'sdkc generate --help')",
     "Generate a client library from a contract or IR: `--lang c` (the C emitter, the\n"
     "default) or `--lang ts` (the TypeScript emitter); each has its own options.\n"},
    {"conform", cmd_conform, "conform ... (see 'sdkc conform --help')",
     "Check recorded or live server traffic against the IR (its own options).\n"},
    {"help", cmd_help, "help [COMMAND]", "Show general help, or the help of one command.\n"},
};
#define NCOMMANDS (sizeof COMMANDS / sizeof COMMANDS[0])

static void print_usage(FILE *fp)
{
    fprintf(fp, "usage: sdkc COMMAND [ARGS...]\n"
                "       sdkc --help | --version\n\ncommands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(fp, "  sdkc %s\n", COMMANDS[i].synopsis);
    fprintf(fp, "\nexit status: 0 success; 1 internal or output I/O failure; 2 usage error or\n"
                "errors in the contract (printed as FILE:LINE:COL: error: MESSAGE).\n");
}

static const command *find_command(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(COMMANDS[i].name, name) == 0)
            return &COMMANDS[i];
    return NULL;
}

static int cmd_help(int argc, char **argv)
{
    if (argc < 2) {
        print_usage(stdout);
        return finish_stdout();
    }
    if (argc > 2)
        return usage_error("help", "unexpected argument '%s'", argv[2]);
    const command *c = find_command(argv[1]);
    if (!c)
        return usage_error("help", "unknown command '%s'", argv[1]);
    printf("usage: sdkc %s\n\n%s", c->synopsis, c->help);
    return finish_stdout();
}

/* `sdkc CMD --help` is `sdkc help CMD` for the commands defined here. */
static bool wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            return false;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return true;
    }
    return false;
}

/* sdkc is short-lived: it grows its heap in one step and never gives memory back to the kernel
 * before it exits, so that freed blocks are reused instead of unmapped and faulted in again
 * (page faults are most of its system time in a VM: 10 of 33 ms on the OpenCode contract).
 * Transparent huge pages (MADV_HUGEPAGE) were tried: faster on a quiet machine, 30% slower
 * right after a memory-hungry process, when the kernel compacts memory to find them. */
static void tune_memory(void)
{
#ifdef __GLIBC__
    if (mallopt(M_MMAP_THRESHOLD, 32 << 20))
        mallopt(M_TRIM_THRESHOLD, 256 << 20);
    mallopt(M_TOP_PAD, 16 << 20);
#endif
}

int main(int argc, char **argv)
{
    tune_memory();
    if (argc < 2) {
        print_usage(stderr);
        return EXIT_USAGE;
    }
    const char *first = argv[1];
    if (strcmp(first, "--help") == 0 || strcmp(first, "-h") == 0) {
        print_usage(stdout);
        return finish_stdout();
    }
    if (strcmp(first, "--version") == 0) {
        print_version();
        return finish_stdout();
    }
    const command *c = find_command(first);
    if (!c) {
        fprintf(stderr, "sdkc: unknown command '%s'\n", first);
        print_usage(stderr);
        return EXIT_USAGE;
    }
    bool own_help = c->run == cmd_compile || c->run == cmd_inspect;
    if (own_help && wants_help(argc - 1, argv + 1)) {
        printf("usage: sdkc %s\n\n%s", c->synopsis, c->help);
        return finish_stdout();
    }
    return c->run(argc - 1, argv + 1);
}
