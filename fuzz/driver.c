/* driver.c - runs a fuzz target over files without libFuzzer, so that every build (gcc, valgrind)
 * replays the seed corpus and the kept crashers as regression inputs. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        fprintf(stderr, "driver: cannot open %s\n", path);
        return 1;
    }
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    int rc = 1;
    for (;;) {
        if (len == cap) {
            size_t ncap = cap ? cap * 2 : 4096;
            uint8_t *nb = realloc(buf, ncap);
            if (!nb)
                goto done;
            buf = nb;
            cap = ncap;
        }
        size_t n = fread(buf + len, 1, cap - len, fp);
        len += n;
        if (n == 0)
            break;
    }
    if (ferror(fp))
        goto done;
    LLVMFuzzerTestOneInput(buf ? buf : (const uint8_t *)"", len);
    rc = 0;
done:
    free(buf);
    fclose(fp);
    return rc;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Files of a directory in name order, so runs are reproducible. */
static int run_dir(const char *dir, size_t *count)
{
    DIR *d = opendir(dir);
    if (!d)
        return run_file(dir) == 0 ? (++*count, 0) : 1;
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            size_t ncap = cap ? cap * 2 : 64;
            char **nn = realloc(names, ncap * sizeof *nn);
            if (!nn) {
                rc = 1;
                goto done;
            }
            names = nn;
            cap = ncap;
        }
        size_t l = strlen(dir) + strlen(e->d_name) + 2;
        names[n] = malloc(l);
        if (!names[n]) {
            rc = 1;
            goto done;
        }
        snprintf(names[n], l, "%s/%s", dir, e->d_name);
        n++;
    }
    qsort(names, n, sizeof *names, cmp_names);
    for (size_t i = 0; i < n && rc == 0; i++) {
        struct stat st;
        if (stat(names[i], &st) == 0 && S_ISDIR(st.st_mode))
            rc = run_dir(names[i], count);
        else if ((rc = run_file(names[i])) == 0)
            ++*count;
    }
done:
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    closedir(d);
    return rc;
}

int main(int argc, char **argv)
{
    size_t count = 0;
    for (int i = 1; i < argc; i++)
        if (run_dir(argv[i], &count) != 0)
            return 1;
    printf("driver: %zu inputs ran\n", count);
    return 0;
}
