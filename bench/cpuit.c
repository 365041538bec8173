/*
 * cpuit.c: the CPU time of one command, for the "peers" section of
 * `make bench` (bench/peers.sh).
 *
 *   cpuit CMD [ARG]...
 *
 * Runs CMD once (fork + execvp), its standard output to /dev/null, and prints
 * on standard output the user + system CPU seconds of the process (wait4's
 * rusage, microseconds; /usr/bin/time's %U and %S round to 10 ms). Exit status
 * 1 when CMD fails (nothing printed).
 */
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: cpuit CMD [ARG]...\n");
        return 2;
    }
    pid_t pid = fork();
    if (pid < 0)
        return 1;
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0)
            dup2(fd, 1);
        execvp(argv[1], argv + 1);
        _exit(127);
    }
    int st = 0;
    struct rusage ru;
    if (wait4(pid, &st, 0, &ru) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "cpuit: %s failed (status %d)\n", argv[1], st);
        return 1;
    }
    printf("%.6f\n", (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
                         (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec);
    return 0;
}
