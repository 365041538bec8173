/*
 * file_open.c: opening an input file (a model, an import, a matrix, a node
 * table) so that no file can make a reader block or grow without bound: the
 * path is opened without blocking (a FIFO with no writer would hang open(2)
 * forever), must be a regular file after symlinks are followed (/dev/zero,
 * a FIFO, a directory, a terminal are refused) and at most `max` bytes long.
 */
#define _DEFAULT_SOURCE /* fdopen */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jnt/setup.h"

/* What a file that is not regular is, for messages. */
static const char *file_kind(mode_t m)
{
    return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device"
         : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

/* See setup.h. */
FILE *setup_open_input(const char *path, long long max, char *why, size_t whyn)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(why, whyn, "%s", strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        snprintf(why, whyn, "%s", strerror(errno));
        close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(why, whyn, "it is %s, not a regular file", file_kind(st.st_mode));
        close(fd);
        return NULL;
    }
    if (max > 0 && (long long)st.st_size > max) {
        snprintf(why, whyn, "it has %lld bytes, more than the limit of %lld", (long long)st.st_size,
                 max);
        close(fd);
        return NULL;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        snprintf(why, whyn, "%s", strerror(errno));
        close(fd);
    }
    return f;
}
