/* pattern_tool.c - sdkc_pattern_example over patterns read from stdin (bench/pattern-corpus.sh).
 *
 * usage: bench_pattern_tool [--min N] [--max N] < patterns.jsonl > results.jsonl
 * Each input line is one pattern as a JSON string; each output line is a JSON object:
 * {"p": pattern, "v": value} or {"p": pattern, "why": reason}. Exit status 2 on bad input.
 */
#include <errno.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sdkc/pattern.h"
#include "sdkc/util.h"

static int parse_size(const char *s, size_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *end)
        return -1;
    *out = (size_t)v;
    return 0;
}

int main(int argc, char **argv)
{
    size_t min_len = 0, max_len = SIZE_MAX;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--min") && i + 1 < argc && !parse_size(argv[i + 1], &min_len)) {
            i++;
        } else if (!strcmp(argv[i], "--max") && i + 1 < argc &&
                   !parse_size(argv[i + 1], &max_len)) {
            i++;
        } else {
            fprintf(stderr, "usage: %s [--min N] [--max N] < patterns.jsonl\n", argv[0]);
            return 2;
        }
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int rc = 0;
    while ((n = getline(&line, &cap, stdin)) > 0) {
        json_error_t err;
        json_t *in = json_loadb(line, (size_t)n, JSON_DECODE_ANY, &err);
        if (!in || !json_is_string(in)) {
            fprintf(stderr, "bench_pattern_tool: not a JSON string: %s", line);
            json_decref(in);
            rc = 2;
            continue;
        }
        sdkc_arena *a = NULL;
        if (sdkc_arena_new(&a) != SDKC_OK) {
            json_decref(in);
            rc = 2;
            break;
        }
        const char *why = NULL;
        const char *v = sdkc_pattern_example(a, json_string_value(in), min_len, max_len, &why);
        json_t *out = json_object();
        json_object_set(out, "p", in);
        if (v)
            json_object_set_new(out, "v", json_string(v));
        else
            json_object_set_new(out, "why", json_string(why ? why : "?"));
        char *s = json_dumps(out, JSON_COMPACT | JSON_ENSURE_ASCII);
        if (s) {
            puts(s);
            fflush(stdout);
            free(s);
        }
        json_decref(out);
        json_decref(in);
        sdkc_arena_free(a);
    }
    free(line);
    return rc;
}
