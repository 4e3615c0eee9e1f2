/* rusage.c - runs a command and reports what it cost, with microsecond CPU resolution
 * (/usr/bin/time prints centiseconds, too coarse for a 50 ms `sdkc generate`).
 * usage: bench_rusage OUTFILE CMD [ARGS...]
 * Writes "wall_s user_s sys_s maxrss_kib" to OUTFILE and exits with the command's status
 * (128+signal when it was killed). The command's stdout and stderr are left as they are. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_rusage OUTFILE CMD [ARGS...]\n");
        return 2;
    }
    double t0 = now();
    pid_t pid = fork();
    if (pid < 0) {
        perror("bench_rusage: fork");
        return 1;
    }
    if (pid == 0) {
        execvp(argv[2], argv + 2);
        perror("bench_rusage: exec");
        _exit(127);
    }
    int status = 0;
    struct rusage ru;
    /* POSIX has no wait4; with a single child, RUSAGE_CHILDREN is that child's usage. */
    if (waitpid(pid, &status, 0) < 0 || getrusage(RUSAGE_CHILDREN, &ru) != 0) {
        perror("bench_rusage: waitpid");
        return 1;
    }
    double wall = now() - t0;
    FILE *f = fopen(argv[1], "w");
    if (!f) {
        perror("bench_rusage: output");
        return 1;
    }
    fprintf(f, "%.6f %.6f %.6f %ld\n", wall,
            (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6,
            (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6, ru.ru_maxrss);
    fclose(f);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}
