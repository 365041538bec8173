/*
 * timeit.c: wall time of a command, for `make bench` (bench/run.sh).
 *
 *   timeit N ERRFILE CMD [ARG]...
 *
 * Runs CMD N times (fork + execvp + waitpid), its standard output to
 * /dev/null and its standard error appended to ERRFILE, and prints
 *   wall_s_min=.. wall_s_med=.. n=N
 * measured with CLOCK_MONOTONIC from fork to the end of waitpid. Exit status
 * 1 when a run fails (its status is printed on stderr).
 */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int n = argc > 3 ? atoi(argv[1]) : 0;
    if (n < 1) {
        fprintf(stderr, "usage: timeit N ERRFILE CMD [ARG]...\n");
        return 2;
    }
    double *w = calloc((size_t)n, sizeof *w);
    if (!w)
        return 1;
    for (int k = 0; k < n; k++) {
        double t0 = now();
        pid_t pid = fork();
        if (pid < 0) {
            perror("timeit: fork");
            return 1;
        }
        if (pid == 0) {
            int out = open("/dev/null", O_WRONLY);
            int err = open(argv[2], O_WRONLY | O_CREAT | O_APPEND, 0644);
            if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
                _exit(126);
            execvp(argv[3], argv + 3);
            _exit(127);
        }
        int st;
        if (waitpid(pid, &st, 0) < 0) {
            perror("timeit: waitpid");
            return 1;
        }
        w[k] = now() - t0;
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
            fprintf(stderr, "timeit: '%s' failed (status %d; see %s)\n", argv[3],
                    WIFEXITED(st) ? WEXITSTATUS(st) : -1, argv[2]);
            return 1;
        }
    }
    double wmin = w[0];
    for (int k = 1; k < n; k++)
        wmin = w[k] < wmin ? w[k] : wmin;
    qsort(w, (size_t)n, sizeof *w, cmp_double);
    double wmed = n % 2 ? w[n / 2] : 0.5 * (w[n / 2 - 1] + w[n / 2]);
    printf("wall_s_min=%.6g wall_s_med=%.6g n=%d\n", wmin, wmed, n);
    free(w);
    return 0;
}
