/* yaml_floor.c - the floor under `sdkc compile`: libyaml alone scanning and parsing a contract to
 * events, building nothing. Usage: yaml_floor FILE [REPEAT]. Prints the event count. */
#include <stdio.h>
#include <stdlib.h>

#include <yaml.h>

static int parse_once(const unsigned char *data, size_t len, size_t *events)
{
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser))
        return -1;
    yaml_parser_set_input_string(&parser, data, len);
    int rc = 0;
    for (;;) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&parser, &ev)) {
            fprintf(stderr, "yaml_floor: %s at %zu:%zu\n", parser.problem ? parser.problem : "?",
                    parser.problem_mark.line + 1, parser.problem_mark.column + 1);
            rc = -1;
            break;
        }
        int done = ev.type == YAML_STREAM_END_EVENT;
        ++*events;
        yaml_event_delete(&ev);
        if (done)
            break;
    }
    yaml_parser_delete(&parser);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: yaml_floor FILE [REPEAT]\n");
        return 2;
    }
    long repeat = argc > 2 ? strtol(argv[2], NULL, 10) : 1;
    FILE *fp = fopen(argv[1], "rb");
    if (!fp) {
        perror(argv[1]);
        return 1;
    }
    unsigned char *data = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? cap * 2 : 1 << 20;
            unsigned char *p = realloc(data, cap);
            if (!p) {
                fclose(fp);
                free(data);
                return 1;
            }
            data = p;
        }
        size_t n = fread(data + len, 1, cap - len, fp);
        if (n == 0)
            break;
        len += n;
    }
    fclose(fp);
    size_t events = 0;
    int rc = 0;
    for (long i = 0; i < repeat && rc == 0; i++)
        rc = parse_once(data, len, &events);
    free(data);
    if (rc == 0)
        printf("%zu events\n", events);
    return rc == 0 ? 0 : 1;
}
