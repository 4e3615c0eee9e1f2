/* test_cli.c - the sdkc binary end to end: exit statuses, diagnostics on bad contracts
 * (file:line:col: error:), --help/--version, compile output and inspect's summary. */
#include <check.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sdkc/ir.h"
#include "sdkc/util.h"

#define SDKC_BIN SDKC_BINARY_DIR "/cli/sdkc"
#define CLI_DATA SDKC_SOURCE_DIR "/tests/compiler/data/cli"

static char tmpdir[] = "/tmp/sdkc-cli-XXXXXX";

typedef struct result {
    int status; /* exit status, or -1 if killed by a signal */
    char *out;
    char *err;
} result;

static void result_free(result *r)
{
    free(r->out);
    free(r->err);
}

static char *slurp(const char *path)
{
    char *s = NULL;
    size_t n = 0;
    ck_assert_int_eq(sdkc_read_file(path, &s, &n), SDKC_OK);
    return s;
}

/* Run `sdkc ARGS` through the shell (args are trusted test strings). */
static result run(const char *args)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "\"%s\" %s >%s/out 2>%s/err", SDKC_BIN, args, tmpdir, tmpdir);
    int w = system(cmd);
    ck_assert_int_ne(w, -1);
    result r;
    r.status = WIFEXITED(w) ? WEXITSTATUS(w) : -1;
    char path[512];
    snprintf(path, sizeof path, "%s/out", tmpdir);
    r.out = slurp(path);
    snprintf(path, sizeof path, "%s/err", tmpdir);
    r.err = slurp(path);
    return r;
}

static bool matches(const char *text, const char *pattern)
{
    regex_t re;
    ck_assert_int_eq(regcomp(&re, pattern, REG_EXTENDED | REG_NEWLINE | REG_NOSUB), 0);
    bool m = regexec(&re, text, 0, NULL, 0) == 0;
    regfree(&re);
    return m;
}

static void setup(void)
{
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown(void)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
    memcpy(tmpdir + strlen(tmpdir) - 6, "XXXXXX", 6);
}

/* ---- bad contracts: exit 2, positioned errors, nothing on stdout, no output file ---- */

typedef struct bad_case {
    const char *file;
    const char *position; /* regex for "LINE:COL" of the expected error */
    const char *message;  /* regex the same line must match after "error: " */
} bad_case;

static const bad_case BAD[] = {
    {"malformed.yaml", "8:11", "did not find expected .,. or .]."},
    {"malformed.json", "5:39", "did not find expected .,. or .\\}."},
    {"empty.yaml", "1:1", "empty document"},
    {"dangling_ref.yaml", "15:23", "dangling \\$ref .#/components/schemas/Missing."},
    {"duplicate_operation_id.yaml", "14:20", "duplicate operationId .thing\\.get."},
    {"missing_path_param.yaml", "10:17", "path parameter .otherID. does not appear"},
    {"nesting_bomb.json", "1:343", "nesting deeper than 256"},
};
#define NBAD (sizeof BAD / sizeof BAD[0])

START_TEST(bad_contract)
{
    const bad_case *b = &BAD[_i];
    char args[1024];
    snprintf(args, sizeof args, "compile \"%s/%s\" -o %s/ir.json", CLI_DATA, b->file, tmpdir);
    result r = run(args);
    ck_assert_msg(r.status == 2, "%s: exit %d, stderr:\n%s", b->file, r.status, r.err);
    char pattern[1024];
    snprintf(pattern, sizeof pattern, "^%s/%s:%s: error: .*%s", CLI_DATA, b->file, b->position,
             b->message);
    ck_assert_msg(matches(r.err, pattern), "%s: stderr lacks /%s/:\n%s", b->file, pattern, r.err);
    ck_assert_str_eq(r.out, "");
    char path[512];
    snprintf(path, sizeof path, "%s/ir.json", tmpdir);
    ck_assert_int_ne(access(path, F_OK), 0);
    result_free(&r);

    /* inspect reports the same and exits 2 too */
    snprintf(args, sizeof args, "inspect \"%s/%s\"", CLI_DATA, b->file);
    r = run(args);
    ck_assert_int_eq(r.status, 2);
    ck_assert(matches(r.err, pattern));
    result_free(&r);
}
END_TEST

/* A contract that is one big nesting bomb far past the limit. */
START_TEST(deep_nesting_bomb)
{
    char path[512];
    snprintf(path, sizeof path, "%s/bomb.json", tmpdir);
    FILE *fp = fopen(path, "w");
    ck_assert_ptr_nonnull(fp);
    for (int i = 0; i < 200000; i++)
        fputc('[', fp);
    fclose(fp);
    char args[1024];
    snprintf(args, sizeof args, "compile %s", path);
    result r = run(args);
    ck_assert_int_eq(r.status, 2);
    char pattern[1024];
    snprintf(pattern, sizeof pattern, "^%s:1:257: error: nesting deeper than", path);
    ck_assert_msg(matches(r.err, pattern), "%s", r.err);
    result_free(&r);
}
END_TEST

START_TEST(several_errors_in_one_run)
{
    result r = run("compile " CLI_DATA "/several_errors.yaml");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(matches(r.err, "several_errors.yaml:15:[0-9]+: error: .*NoSuchA"), "%s", r.err);
    ck_assert_msg(matches(r.err, "several_errors.yaml:25:[0-9]+: error: .*NoSuchB"), "%s", r.err);
    result_free(&r);
}
END_TEST

START_TEST(missing_file)
{
    result r = run("compile " CLI_DATA "/no-such-file.yaml");
    ck_assert_int_eq(r.status, 2);
    ck_assert(matches(r.err, "no-such-file.yaml.*error"));
    result_free(&r);
}
END_TEST

/* Many warnings before an error: the error is printed, the warnings past the cap are counted,
 * --quiet prints the error alone. */
START_TEST(warnings_never_hide_errors)
{
    char path[512];
    snprintf(path, sizeof path, "%s/many.yaml", tmpdir);
    FILE *fp = fopen(path, "w");
    ck_assert_ptr_nonnull(fp);
    fprintf(fp, "openapi: 3.1.0\ninfo: {title: t, version: \"1\"}\npaths:\n");
    for (int i = 0; i < 250; i++) /* each: "has no operationId" */
        fprintf(fp, "  /p%d:\n    get:\n      responses: {\"204\": {description: ok}}\n", i);
    fprintf(fp, "  /last:\n    get:\n      operationId: last\n      responses:\n"
                "        \"200\":\n          description: ok\n          content:\n"
                "            application/json:\n"
                "              schema: {$ref: \"#/components/schemas/Gone\"}\n");
    ck_assert_int_eq(fclose(fp), 0);
    char args[1024];
    snprintf(args, sizeof args, "compile %s", path);
    result r = run(args);
    ck_assert_int_eq(r.status, 2);
    ck_assert(matches(r.err, "many.yaml:762:30: error: dangling \\$ref"));
    ck_assert(matches(r.err, "many.yaml:[0-9]+:[0-9]+: warning: operation get /p199 has no"));
    ck_assert(!matches(r.err, "/p200 has no"));
    ck_assert(matches(r.err, "^sdkc: \\.\\.\\. and 50 more warnings$"));
    result_free(&r);

    snprintf(args, sizeof args, "compile --quiet %s", path);
    r = run(args);
    ck_assert_int_eq(r.status, 2);
    ck_assert(matches(r.err, "many.yaml:762:30: error: dangling \\$ref"));
    ck_assert(!matches(r.err, "warning"));
    ck_assert_uint_eq(strlen(strchr(r.err, '\n')), 1); /* one line */
    result_free(&r);
}
END_TEST

/* generate prints the compiler's warnings as compile does; --quiet silences both */
START_TEST(generate_prints_warnings)
{
    char args[1024];
    const char *contract = SDKC_SOURCE_DIR "/tests/compiler/data/compile/warn/style.yaml";
    snprintf(args, sizeof args, "compile %s -o %s/ir.json", contract, tmpdir);
    result c = run(args);
    ck_assert_int_eq(c.status, 0);
    ck_assert(matches(c.err, "style.yaml:10:18: warning: parameter 'ids': unknown style"));
    snprintf(args, sizeof args, "generate %s --lang c --prefix t --out %s/sdk", contract, tmpdir);
    result g = run(args);
    ck_assert_msg(g.status == 0, "exit %d: %s", g.status, g.err);
    ck_assert_str_eq(g.err, c.err);
    result_free(&c);
    result_free(&g);

    snprintf(args, sizeof args, "compile -q %s -o %s/ir.json", contract, tmpdir);
    c = run(args);
    ck_assert_int_eq(c.status, 0);
    ck_assert_str_eq(c.err, "");
    snprintf(args, sizeof args, "generate %s --quiet --lang c --prefix t --out %s/sdk", contract,
             tmpdir);
    g = run(args);
    ck_assert_int_eq(g.status, 0);
    ck_assert_str_eq(g.err, "");
    result_free(&c);
    result_free(&g);
}
END_TEST

/* generate exits as compile does: 2 for a contract (or IR) error, a file it cannot read, a bad
 * argument; the error is printed; nothing is written. */
START_TEST(generate_exits_2_on_contract_errors)
{
    static const char *const bad[] = {"dangling_ref.yaml", "malformed.json", "empty.yaml",
                                      "several_errors.yaml", "no_such_file.yaml"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char args[1024];
        snprintf(args, sizeof args,
                 "compile " SDKC_SOURCE_DIR "/tests/compiler/data/cli/%s -o %s/ir.json", bad[i],
                 tmpdir);
        result c = run(args);
        snprintf(args, sizeof args,
                 "generate " SDKC_SOURCE_DIR "/tests/compiler/data/cli/%s --lang c --prefix t "
                 "--out %s/bad-sdk",
                 bad[i], tmpdir);
        result g = run(args);
        ck_assert_msg(c.status == 2, "compile %s: exit %d", bad[i], c.status);
        ck_assert_msg(g.status == 2, "generate %s: exit %d: %s", bad[i], g.status, g.err);
        ck_assert_msg(matches(g.err, "error"), "generate %s says: %s", bad[i], g.err);
        result_free(&c);
        result_free(&g);
    }
    char path[600];
    snprintf(path, sizeof path, "%s/bad-sdk/CMakeLists.txt", tmpdir);
    ck_assert_int_ne(access(path, F_OK), 0);
    /* an IR that does not read back */
    snprintf(path, sizeof path, "%s/bad.ir.json", tmpdir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("{\"format\": \"sdkc-ir/1\", \"types\": 7}\n", f);
    fclose(f);
    char args[1024];
    snprintf(args, sizeof args, "generate %s --lang c --prefix t --out %s/bad-sdk", path, tmpdir);
    result g = run(args);
    ck_assert_msg(g.status == 2, "exit %d: %s", g.status, g.err);
    result_free(&g);
}
END_TEST

/* The TypeScript package's version: the contract's info.version when it is semver (else 0.0.0), or
 * --package-version; a --package-version that is not semver, or one for --lang c, is exit 2 with
 * the reason, before anything is written. */
START_TEST(generate_ts_package_version)
{
    static const struct {
        const char *contract, *option, *want;
    } cases[] = {
        {"tests/compiler/data/cli/good.yaml", "", "\"version\": \"0.0.0\","}, /* info.version 2 */
        {"tests/compiler/data/cli/good.yaml", "--package-version 2.1.0-rc.1+b5",
         "\"version\": \"2.1.0-rc.1+b5\","},
        {"spec/opencode/openapi.json", "--include 'v2.health.*'", "\"version\": \"1.0.0\","},
        {"spec/opencode/openapi.json", "--include 'v2.health.*' --package-version 3.0.0",
         "\"version\": \"3.0.0\","},
    };
    char args[2048], path[700];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        snprintf(args, sizeof args, "generate " SDKC_SOURCE_DIR "/%s --lang ts %s --out %s/ts%zu",
                 cases[i].contract, cases[i].option, tmpdir, i);
        result r = run(args);
        ck_assert_msg(r.status == 0, "%s: exit %d: %s", args, r.status, r.err);
        result_free(&r);
        snprintf(path, sizeof path, "%s/ts%zu/package.json", tmpdir, i);
        char *pkg = slurp(path);
        ck_assert_msg(strstr(pkg, cases[i].want), "%s: package.json %s", args, pkg);
        free(pkg);
    }
    static const char *const bad[] = {"1.2", "v1.2.3", "1.2.3-", "01.2.3", "''"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(args, sizeof args,
                 "generate " SDKC_SOURCE_DIR "/tests/compiler/data/cli/good.yaml --lang ts "
                 "--package-version %s --out %s/bad-ts",
                 bad[i], tmpdir);
        result r = run(args);
        ck_assert_msg(r.status == 2, "%s: exit %d", bad[i], r.status);
        ck_assert_msg(matches(r.err, "--package-version .* is not a semantic version"), "%s: %s",
                      bad[i], r.err);
        result_free(&r);
    }
    snprintf(args, sizeof args,
             "generate " SDKC_SOURCE_DIR "/tests/compiler/data/cli/good.yaml --lang c --prefix t "
             "--package-version 1.0.0 --out %s/bad-ts",
             tmpdir);
    result r = run(args);
    ck_assert_msg(r.status == 2, "--lang c: exit %d", r.status);
    ck_assert_msg(matches(r.err, "--package-version is not taken by --lang c"), "%s", r.err);
    result_free(&r);
    snprintf(path, sizeof path, "%s/bad-ts", tmpdir);
    ck_assert_int_ne(access(path, F_OK), 0);
}
END_TEST

/* A prefix another library owns (the runtime's, libcurl's, a system header folder) is refused
 * with the reason before anything is written. */
START_TEST(generate_refuses_taken_prefixes)
{
    static const char *const taken[] = {"sdkrt", "curl", "json", "sys"};
    for (size_t i = 0; i < sizeof taken / sizeof taken[0]; i++) {
        char args[1024], path[700];
        snprintf(args, sizeof args,
                 "generate " SDKC_SOURCE_DIR "/tests/compiler/data/cli/good.yaml --lang c "
                 "--prefix %s --out %s/taken-%s",
                 taken[i], tmpdir, taken[i]);
        result g = run(args);
        ck_assert_msg(g.status == 2, "--prefix %s: exit %d", taken[i], g.status);
        ck_assert_msg(matches(g.err, "belongs to") && matches(g.err, taken[i]),
                      "--prefix %s says: %s", taken[i], g.err);
        snprintf(path, sizeof path, "%s/taken-%s/CMakeLists.txt", tmpdir, taken[i]);
        ck_assert_int_ne(access(path, F_OK), 0);
        result_free(&g);
    }
    char args[1024];
    snprintf(args, sizeof args,
             "generate " SDKC_SOURCE_DIR "/tests/compiler/data/cli/good.yaml --lang c "
             "--prefix curly --out %s/curly --quiet",
             tmpdir);
    result g = run(args);
    ck_assert_msg(g.status == 0, "--prefix curly: exit %d: %s", g.status, g.err);
    result_free(&g);
}
END_TEST

/* -o naming a FIFO (as /dev/null would be: not a regular file) writes into it; it is not
 * replaced by a regular file through FILE.tmp and rename. A child reads the FIFO. */
START_TEST(output_to_fifo_written_in_place)
{
    char fifo[512], got[512], tmp[600];
    snprintf(fifo, sizeof fifo, "%s/fifo", tmpdir);
    snprintf(got, sizeof got, "%s/got", tmpdir);
    snprintf(tmp, sizeof tmp, "%s.tmp", fifo);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        alarm(10); /* a replaced FIFO never gets a writer: give up */
        int in = open(fifo, O_RDONLY);
        int out = open(got, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (in < 0 || out < 0)
            _exit(3);
        char buf[4096];
        ssize_t n;
        while ((n = read(in, buf, sizeof buf)) > 0)
            if (write(out, buf, (size_t)n) != n)
                _exit(4);
        _exit(n == 0 ? 0 : 5);
    }
    char args[1024];
    snprintf(args, sizeof args, "compile %s/good.yaml -o %s", CLI_DATA, fifo);
    result r = run(args);
    int w = 0;
    ck_assert_int_eq(waitpid(pid, &w, 0), pid);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    result_free(&r);
    ck_assert_msg(WIFEXITED(w) && WEXITSTATUS(w) == 0, "reader: status %d", w);
    struct stat sb;
    ck_assert_int_eq(stat(fifo, &sb), 0);
    ck_assert(S_ISFIFO(sb.st_mode));
    ck_assert_int_ne(access(tmp, F_OK), 0);
    snprintf(args, sizeof args, "compile %s/good.yaml", CLI_DATA);
    r = run(args);
    char *text = slurp(got);
    ck_assert_str_eq(text, r.out);
    free(text);
    result_free(&r);

    /* a directory is an error, not replaced */
    snprintf(args, sizeof args, "compile %s/good.yaml -o %s", CLI_DATA, tmpdir);
    r = run(args);
    ck_assert_int_eq(r.status, 1);
    ck_assert_int_eq(stat(tmpdir, &sb), 0);
    ck_assert(S_ISDIR(sb.st_mode));
    result_free(&r);
}
END_TEST

/* A contract with no named types: the emitter copied an empty (NULL) type list with memcpy,
 * undefined behaviour that the sanitizer build (-fno-sanitize-recover) turns into an abort. */
/* --examples DIR: its *.c copied byte for byte into OUT/examples (sorted, nothing else); a
 * directory that cannot be read is exit 2 with nothing written. */
START_TEST(generate_copies_examples)
{
    char dir[600], path[700], args[2048];
    snprintf(dir, sizeof dir, "%s/ex", tmpdir);
    ck_assert_int_eq(mkdir(dir, 0700), 0);
    static const char *const files[] = {"b.c", "a.c", "notes.txt", ".hidden.c"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        FILE *f = fopen(path, "w");
        ck_assert_ptr_nonnull(f);
        fprintf(f, "/* %s */\nint x%zu;\n", files[i], i);
        fclose(f);
    }
    snprintf(args, sizeof args,
             "generate " SDKC_SOURCE_DIR "/tests/compiler/data/cli/good.yaml --lang c --prefix t "
             "--examples %s --out %s/ex-sdk",
             dir, tmpdir);
    result r = run(args);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    result_free(&r);
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        snprintf(path, sizeof path, "%s/ex-sdk/examples/%s", tmpdir, files[i]);
        bool want = i < 2;
        ck_assert_msg((access(path, F_OK) == 0) == want, "%s", path);
    }
    snprintf(path, sizeof path, "%s/ex-sdk/examples/a.c", tmpdir);
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    char text[64] = "";
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    ck_assert_str_eq(text, "/* a.c */\nint x1;\n");
    snprintf(args, sizeof args,
             "generate " SDKC_SOURCE_DIR "/tests/compiler/data/cli/good.yaml --lang c --prefix t "
             "--examples %s/none --out %s/ex-none",
             tmpdir, tmpdir);
    r = run(args);
    ck_assert_int_eq(r.status, 2);
    ck_assert(matches(r.err, "--examples .*/none"));
    result_free(&r);
    snprintf(path, sizeof path, "%s/ex-none", tmpdir);
    ck_assert_int_ne(access(path, F_OK), 0);
}
END_TEST

START_TEST(generate_without_named_types)
{
    char args[1024];
    snprintf(args, sizeof args,
             "generate %s/tests/compiler/data/compile/real/no_types.yaml --lang c --prefix t "
             "--out %s/sdk",
             SDKC_SOURCE_DIR, tmpdir);
    result r = run(args);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert_str_eq(r.err, "");
    result_free(&r);
    char path[512];
    snprintf(path, sizeof path, "%s/sdk/src/ops.c", tmpdir);
    ck_assert_int_eq(access(path, F_OK), 0);
}
END_TEST

/* Webhooks and callbacks: inspect lists them, generate emits their types. */
START_TEST(webhooks_inspected_and_emitted)
{
    result r = run("inspect " SDKC_SOURCE_DIR "/tests/compiler/data/compile/real/webhooks.yaml");
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert_msg(
        matches(r.out, "^webhooks and callbacks \\(types only; the API sends these\\): 2$"), "%s",
        r.out);
    ck_assert(matches(r.out, "^  webhook  POST   newPet \\[body Pet\\]$"));
    ck_assert(matches(r.out, "^  callback POST   \\{\\$request.body#/callbackUrl\\}  onEvent of "
                             "subscribe \\[body OnEventPostBody\\] \\[response "
                             "OnEventPostResponse\\]$"));
    result_free(&r);
    char args[1024];
    snprintf(args, sizeof args,
             "generate %s/tests/compiler/data/compile/real/webhooks.yaml --lang c --prefix wh "
             "--out %s/wh",
             SDKC_SOURCE_DIR, tmpdir);
    r = run(args);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    result_free(&r);
    char path[512];
    snprintf(path, sizeof path, "%s/wh/include/wh/types.h", tmpdir);
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    char text[16384];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    ck_assert_ptr_nonnull(strstr(text, "struct wh_pet {"));
    ck_assert_ptr_nonnull(strstr(text, "struct wh_on_event_post_body {"));
    ck_assert_ptr_nonnull(strstr(text, "struct wh_on_event_post_response {"));
}
END_TEST

/* What is left out is a warning at its location: from compile, and from generate for what the
 * C SDK leaves out. */
START_TEST(dropped_constructs_warned)
{
    result r = run("compile " SDKC_SOURCE_DIR
                   "/tests/compiler/data/compile/real/dropped.yaml -o /dev/null");
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    /* every declared 2xx is a success: none of them is dropped */
    ck_assert_msg(!matches(r.err, "response '(201|2XX)' ignored"), "%s", r.err);
    ck_assert(matches(r.err, "dropped.yaml:24:9: warning: response '2OO' ignored \\(not a status "
                             "code\\)$"));
    ck_assert(!matches(r.err, "cookie"));
    result_free(&r);
    char args[1024];
    snprintf(args, sizeof args,
             "generate %s/tests/compiler/data/compile/real/dropped.yaml --lang c --prefix dr "
             "--out %s/dr",
             SDKC_SOURCE_DIR, tmpdir);
    r = run(args);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    /* cookie parameters, multipart fields and binary content (blobs) go on the wire; a structured
     * body under a non-JSON media type is what differs */
    ck_assert_msg(!matches(r.err, "cookie"), "%s", r.err);
    ck_assert_msg(!matches(r.err, "NUL-terminated"), "%s", r.err);
    ck_assert(matches(r.err, "dropped.yaml:28:7: warning: operation 'items.putXml': request body "
                             "'application/xml' is not a string; the C SDK sends the value as "
                             "JSON text under that media type$"));
    ck_assert_msg(!matches(r.err, "response '201' ignored"), "%s", r.err);
    result_free(&r);
}
END_TEST

/* ---- usage ---- */

START_TEST(usage_errors)
{
    static const char *const cases[] = {
        "",
        "frobnicate",
        "compile",
        "compile a.yaml b.yaml",
        "compile --bogus x.yaml",
        "compile x.yaml -o",
        "inspect x.yaml -o y",
        "help nothing",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        result r = run(cases[i]);
        ck_assert_msg(r.status == 2, "'%s': exit %d", cases[i], r.status);
        ck_assert_msg(strlen(r.err) > 0, "'%s': nothing on stderr", cases[i]);
        ck_assert_str_eq(r.out, "");
        result_free(&r);
    }
}
END_TEST

START_TEST(help_and_version)
{
    result r = run("--version");
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.out, "sdkc " SDKC_VERSION " (IR format sdkc-ir/1)\n");
    ck_assert_str_eq(r.err, "");
    result_free(&r);

    r = run("--help");
    ck_assert_int_eq(r.status, 0);
    ck_assert(matches(r.out, "^usage: sdkc COMMAND"));
    for (const char *const *c =
             (const char *const[]){"compile", "inspect", "generate", "conform", "help", NULL};
         *c; c++) {
        char pattern[64];
        snprintf(pattern, sizeof pattern, "^  sdkc %s", *c);
        ck_assert_msg(matches(r.out, pattern), "help lacks %s", *c);
    }
    ck_assert(matches(r.out, "exit status: 0 success; 1 .*; 2 usage"));
    result_free(&r);

    r = run("help compile");
    ck_assert_int_eq(r.status, 0);
    ck_assert(matches(r.out, "^usage: sdkc compile CONTRACT \\[-o FILE\\]"));
    ck_assert(matches(r.out, "--include GLOB"));
    result_free(&r);

    result r2 = run("compile --help");
    r = run("help compile");
    ck_assert_int_eq(r2.status, 0);
    ck_assert_str_eq(r.out, r2.out);
    result_free(&r);
    result_free(&r2);
}
END_TEST

/* ---- good contracts ---- */

START_TEST(compile_to_file_and_stdout)
{
    char args[1024];
    snprintf(args, sizeof args, "compile %s/good.yaml -o %s/ir.json", CLI_DATA, tmpdir);
    result r = run(args);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert_str_eq(r.out, "");
    result_free(&r);
    char path[512];
    snprintf(path, sizeof path, "%s/ir.json", tmpdir);
    char *file = slurp(path);
    ck_assert(matches(file, "^  \"format\": \"sdkc-ir/1\",$"));
    ck_assert(matches(file, "\"name\": \"good.yaml\""));
    ck_assert(matches(file, "\"id\": \"v2.thing.get\""));
    ck_assert(!matches(file, SDKC_SOURCE_DIR));

    /* the same bytes on stdout, and again on a second run */
    snprintf(args, sizeof args, "compile %s/good.yaml", CLI_DATA);
    r = run(args);
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.out, file);
    result_free(&r);
    free(file);

    /* --include keeps matching operations only */
    snprintf(args, sizeof args, "compile %s/good.yaml --include 'v2.*'", CLI_DATA);
    r = run(args);
    ck_assert_int_eq(r.status, 0);
    ck_assert(matches(r.out, "\"id\": \"v2.thing.remove\""));
    ck_assert(!matches(r.out, "\"id\": \"other.list\""));
    result_free(&r);

    /* an unwritable output is an I/O failure: exit 1 */
    snprintf(args, sizeof args, "compile %s/good.yaml -o %s/no/such/dir/ir.json", CLI_DATA, tmpdir);
    r = run(args);
    ck_assert_int_eq(r.status, 1);
    ck_assert(matches(r.err, "cannot write"));
    result_free(&r);
}
END_TEST

START_TEST(inspect_summary)
{
    result r = run("inspect " CLI_DATA "/good.yaml");
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert(matches(r.out, "^Tiny 2$"));
    ck_assert(matches(r.out, "^operations: 3 \\(paginated 0, streams 0, no content 2\\)$"));
    ck_assert(matches(r.out, "^  GET    /api/thing/\\{thingID\\}  v2.thing.get"));
    ck_assert(matches(r.out, "^  DELETE /api/thing/\\{thingID\\}  v2.thing.remove.*\\[204 no "
                             "content\\]"));
    result_free(&r);
}
END_TEST

START_TEST(inspect_example)
{
    result r = run("inspect " SDKC_SOURCE_DIR "/spec/examples/example.yaml");
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert_msg(matches(r.out, "^operations: 8 \\(paginated 2, streams 2, no content 1\\)$"),
                  "%s", r.out);
    ck_assert(matches(r.out, "v2.notebook.list .*\\[page cursor-object Notebook\\]"));
    ck_assert(matches(r.out, "v2.notebook.events .*\\[stream sse NotebookEvent\\]"));
    ck_assert(matches(r.out, "errors: 401 UnauthorizedError; 404 NoteNotFoundError "
                             "NotebookNotFoundError$"));
    ck_assert(matches(r.out, "409 ConflictError NotebookBusyError"));
    result_free(&r);
}
END_TEST

#define PAGES SDKC_SOURCE_DIR "/tests/compiler/data/pages/"

START_TEST(inspect_pages)
{
    result r = run("inspect " PAGES "styles.yaml");
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert_msg(matches(r.out, "^pages: cursor-object 1 cursor-token 1 cursor-item 2 next-url 1 "
                                 "link-header 1 page-number 1 offset 1$"),
                  "%s", r.out);
    ck_assert(matches(r.out, "cursorItem .*\\[page cursor-item Thing\\]$"));
    ck_assert(matches(r.out, "^ +page: heuristic: starting_after \\+ has_more$"));
    result_free(&r);
    /* the config file: an override said with its position; errors at the file's line:col */
    r = run("inspect " PAGES "styles.yaml --pagination " PAGES "config.json");
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert(matches(r.out, "pageAlone .*\\[page page-number string\\]$"));
    ck_assert(matches(r.out, "^ +page: config .*config.json:3:18$"));
    result_free(&r);
    r = run("compile " PAGES "styles.yaml -o /dev/null --pagination " PAGES "config-bad.json");
    ck_assert_int_eq(r.status, 2);
    ck_assert(matches(r.err, "config-bad.json:3:28: error: pagination config: unknown style"));
    result_free(&r);
    /* items nested below a field: paginated in the IR, a plain call in C, and said so */
    char args[1024];
    snprintf(args, sizeof args, "generate %s --lang c --prefix ns --out %s/ns", PAGES "nested.yaml",
             tmpdir);
    r = run(args);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert(matches(r.err, "nested.yaml:6:7: warning: operation 'nested': its pages "
                             "\\(page-number, items 'data.rows'\\) are not reachable in C"));
    result_free(&r);
}
END_TEST

START_TEST(inspect_opencode)
{
    result r = run("inspect " SDKC_SOURCE_DIR "/spec/opencode/openapi.json");
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert(matches(r.out, "^operations: 188 "));
    ck_assert(matches(r.out, "v2.session.list .*\\[page cursor-object SessionV2Info\\]"));
    ck_assert(matches(r.out, "v2.session.events .*\\[stream sse SessionDurableEvent\\] "
                             "\\[durable: follow by durable.seq via after\\]"));
    result_free(&r);
}
END_TEST

/* A counting query parameter typed `number` stays a double in the C SDK, with a warning at its
 * location; `multipleOf: 1` makes it an integer; a plain number is left alone. */
START_TEST(generate_warns_about_integral_numbers)
{
    char args[1024];
    const char *contract = SDKC_SOURCE_DIR "/tests/compiler/data/compile/warn/integral.yaml";
    snprintf(args, sizeof args, "generate %s --lang c --prefix it --out %s/sdk", contract, tmpdir);
    result g = run(args);
    ck_assert_msg(g.status == 0, "exit %d: %s", g.status, g.err);
    ck_assert_msg(matches(g.err, "integral.yaml:8:11: warning: operation 'items.list': query "
                                 "parameter 'limit' is 'type: number' although it counts"),
                  "%s", g.err);
    ck_assert(!matches(g.err, "'offset'"));
    ck_assert(!matches(g.err, "'ratio'"));
    char path[512];
    snprintf(path, sizeof path, "%s/sdk/include/it/ops.h", tmpdir);
    char *ops = slurp(path);
    ck_assert(matches(ops, "double limit;"));
    ck_assert(matches(ops, "int64_t offset;"));
    ck_assert(matches(ops, "double ratio;"));
    free(ops);
    result_free(&g);
}
END_TEST

START_TEST(inspect_durable_stream)
{
    result r = run("inspect " SDKC_SOURCE_DIR "/spec/opencode/openapi.json --include 'v2.*' "
                   "--follow v2.session.events=durable.version:after");
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert(matches(r.out, "v2.session.events .*\\[durable: follow by durable.version via "
                             "after, --follow\\]"));
    ck_assert(!matches(r.out, "v2.event.subscribe .*durable"));
    result_free(&r);
    r = run("inspect " SDKC_SOURCE_DIR "/spec/opencode/openapi.json --follow");
    ck_assert_int_ne(r.status, 0);
    result_free(&r);
}
END_TEST

static Suite *cli_suite(void)
{
    Suite *s = suite_create("cli");
    TCase *tc = tcase_create("errors");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_loop_test(tc, bad_contract, 0, (int)NBAD);
    tcase_add_test(tc, deep_nesting_bomb);
    tcase_add_test(tc, several_errors_in_one_run);
    tcase_add_test(tc, missing_file);
    tcase_add_test(tc, usage_errors);
    tcase_add_test(tc, warnings_never_hide_errors);
    tcase_add_test(tc, generate_prints_warnings);
    tcase_add_test(tc, generate_exits_2_on_contract_errors);
    tcase_add_test(tc, generate_copies_examples);
    tcase_add_test(tc, generate_ts_package_version);
    tcase_add_test(tc, generate_refuses_taken_prefixes);
    suite_add_tcase(s, tc);
    tc = tcase_create("ok");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, help_and_version);
    tcase_add_test(tc, compile_to_file_and_stdout);
    tcase_add_test(tc, output_to_fifo_written_in_place);
    tcase_add_test(tc, generate_without_named_types);
    tcase_add_test(tc, inspect_summary);
    tcase_add_test(tc, inspect_example);
    tcase_add_test(tc, inspect_opencode);
    tcase_add_test(tc, generate_warns_about_integral_numbers);
    tcase_add_test(tc, inspect_durable_stream);
    tcase_add_test(tc, inspect_pages);
    tcase_add_test(tc, webhooks_inspected_and_emitted);
    tcase_add_test(tc, dropped_constructs_warned);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(cli_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
