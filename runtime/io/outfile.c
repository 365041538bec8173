/*
 * outfile.c: the one output routine of every command (jnt run's CSV, .npy
 * and .mat writer, emit, build, sweep, plot, --steps). What it promises:
 *
 * - only a regular file is replaced, or "-" (stdout) written as a stream,
 *   or /dev/null written in place; a symbolic link, a directory, a FIFO, a
 *   device or a socket is refused before any work, and so is a folder that
 *   does not exist (said as such) and a file the model was read from;
 * - the bytes go to the writer's own temporary file beside the target,
 *   "<path>.jnt-<pid>-<n>.part", created exclusively (O_EXCL), and only a
 *   whole, non-empty result is renamed over the target: an empty file, or
 *   one a failed write cut short, never replaces a file that exists (a full
 *   disk keeps the previous result);
 * - the target is checked again just before the rename (it may have become
 *   a link or a device meanwhile);
 * - a .part left by a process that is gone (SIGKILL, a power cut) is named
 *   for its process, and the next writer of the same target removes it.
 */
#define _DEFAULT_SOURCE /* fdopen, realpath */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/outfile.h"
#include "jnt/jnt.h"

/* The folder of path ("." when it names none), in buf. */
static void folder_of(const char *path, char *buf, size_t n)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(buf, n, ".");
    else if (slash == path)
        snprintf(buf, n, "/");
    else
        snprintf(buf, n, "%.*s", (int)(slash - path), path);
}

/* See outfile.h. */
const char *out_refuse(const char *path, const char *const *inputs, int *direct)
{
    struct stat st, nul;
    char dir[PATH_MAX], real[PATH_MAX];
    *direct = 0;
    if (!path || !path[0])
        return "the name is empty";
    if (path[strlen(path) - 1] == '/')
        return "it names a folder (name a file in it)";
    if (!strcmp(path, "/dev/null") && (stat(path, &nul) != 0 || !S_ISCHR(nul.st_mode)))
        return "/dev/null is not a character device here: restore it (mknod -m 666 /dev/null "
               "c 1 3) rather than write over it";
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        if (S_ISLNK(st.st_mode))
            return "it is a symbolic link (name its target instead)";
        if (S_ISDIR(st.st_mode))
            return "it is a directory (name a file in it)";
        if (stat("/dev/null", &nul) == 0 && S_ISCHR(nul.st_mode) && st.st_dev == nul.st_dev &&
            st.st_ino == nul.st_ino) {
            *direct = 1;
            return NULL;
        }
        return S_ISFIFO(st.st_mode) ? "it is a FIFO (use '-o -' to write a stream to a pipe)"
             : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)
                 ? "it is a device (use '-o -' to write a stream)"
                 : "it is not a regular file (use '-o -' to write a stream)";
    }
    folder_of(path, dir, sizeof dir);
    if (stat(dir, &st) != 0)
        return errno == ENOENT ? "its folder does not exist" : "its folder cannot be read";
    if (!S_ISDIR(st.st_mode))
        return "its folder is not a directory";
    if (inputs && realpath(path, real))
        for (const char *const *in = inputs; *in; in++)
            if (!strcmp(real, *in))
                return "it is a file the model was read from: it would be overwritten";
    return NULL;
}

/* Remove "<base>.jnt-<pid>-<n>.part" files in dir whose process is gone. */
static void clean_stale(const char *path)
{
    char dir[PATH_MAX];
    folder_of(path, dir, sizeof dir);
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t bl = strlen(base);
    DIR *dp = opendir(dir);
    if (!dp)
        return;
    struct dirent *e;
    while ((e = readdir(dp)) != NULL) {
        const char *n = e->d_name;
        size_t nl = strlen(n);
        if (nl < bl + 10 || strncmp(n, base, bl) || strncmp(n + bl, ".jnt-", 5) ||
            strcmp(n + nl - 5, ".part"))
            continue;
        char *end;
        long pid = strtol(n + bl + 5, &end, 10);
        if (pid <= 0 || *end != '-' || pid == (long)getpid())
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue; /* alive (or not ours to ask): its writer may still be running */
        char full[PATH_MAX];
        if (snprintf(full, sizeof full, "%s/%s", dir, n) < (int)sizeof full) {
            struct stat st;
            if (lstat(full, &st) == 0 && S_ISREG(st.st_mode))
                unlink(full);
        }
    }
    closedir(dp);
}

/* See outfile.h. */
int out_create_part(const char *path, char **part)
{
    static unsigned long counter; /* writers of this process, across threads */
    size_t n = strlen(path) + 48;
    *part = malloc(n);
    if (!*part) {
        errno = ENOMEM;
        return -1;
    }
    clean_stale(path);
    for (int tries = 0; tries < 100; tries++) {
        unsigned long k = __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
        snprintf(*part, n, "%s.jnt-%ld-%lu.part", path, (long)getpid(), k);
        int fd = open(*part, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    return -1;
}

/* See outfile.h. */
int out_commit(const char *part, const char *path, int cut, char *err, size_t errn)
{
    struct stat st, old;
    int direct;
    const char *why = NULL;
    if (lstat(part, &st) != 0 || !S_ISREG(st.st_mode))
        why = "its temporary file is gone";
    else if (st.st_size == 0 && lstat(path, &old) == 0)
        why = "nothing was written; the previous file is kept";
    else if (cut && lstat(path, &old) == 0)
        why = "a write failed; the previous file is kept";
    else
        why = out_refuse(path, NULL, &direct);
    if (!why && direct)
        why = "it became a device";
    if (why) {
        if (err)
            snprintf(err, errn, "cannot write '%s': %s", path, why);
        unlink(part);
        return JNT_ERR_IO;
    }
    /* unlink the old file first: ext4 starts the write-back of a file
     * renamed over another (auto_da_alloc), 0.4 ms a run on a 400 kB file
     * here; we promise complete files, not durability (no fsync) */
    unlink(path);
    if (rename(part, path) != 0) {
        if (err)
            snprintf(err, errn, "cannot rename '%s' to '%s': %s", part, path, strerror(errno));
        unlink(part);
        return JNT_ERR_IO;
    }
    return JNT_OK;
}

struct jnt_outfile {
    FILE *f;
    char *path; /* NULL: stdout */
    char *part; /* NULL: stdout or /dev/null */
};

/* See jnt.h. */
int jnt_outfile_open(const char *path, const char *const *inputs, jnt_outfile **out, char *err,
                     size_t errn)
{
    char dummy[1];
    if (!err || errn == 0) {
        err = dummy;
        errn = sizeof dummy;
    }
    if (out)
        *out = NULL;
    if (!path || !out) {
        snprintf(err, errn, "jnt_outfile_open: %s is NULL", !path ? "path" : "out");
        return JNT_ERR_USAGE;
    }
    jnt_outfile *o = calloc(1, sizeof *o);
    if (!o) {
        snprintf(err, errn, "out of memory opening '%s'", path);
        return JNT_ERR_NOMEM;
    }
    if (!strcmp(path, "-")) {
        o->f = stdout;
        *out = o;
        return JNT_OK;
    }
    int direct;
    const char *why = out_refuse(path, inputs, &direct);
    if (why) {
        snprintf(err, errn, "cannot write '%s': %s", path, why);
        free(o);
        return JNT_ERR_IO;
    }
    o->path = strdup(path);
    int fd = -1;
    if (o->path && direct)
        fd = open(path, O_WRONLY | O_CLOEXEC);
    else if (o->path)
        fd = out_create_part(path, &o->part);
    o->f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!o->f) {
        int e = o->path ? errno : ENOMEM;
        snprintf(err, errn, "cannot write '%s': %s", path, strerror(e));
        if (fd >= 0)
            close(fd);
        if (o->part && fd >= 0)
            unlink(o->part);
        free(o->part);
        free(o->path);
        free(o);
        return e == ENOMEM ? JNT_ERR_NOMEM : JNT_ERR_IO;
    }
    *out = o;
    return JNT_OK;
}

/* See jnt.h. */
FILE *jnt_outfile_stream(jnt_outfile *o)
{
    return o ? o->f : NULL;
}

/* See jnt.h. */
const char *jnt_outfile_temp(const jnt_outfile *o)
{
    return o ? o->part : NULL;
}

/* See jnt.h. */
int jnt_outfile_commit(jnt_outfile *o, char *err, size_t errn)
{
    char dummy[1];
    if (!err || errn == 0) {
        err = dummy;
        errn = sizeof dummy;
    }
    if (!o) {
        snprintf(err, errn, "jnt_outfile_commit: the file is NULL");
        return JNT_ERR_USAGE;
    }
    const char *name = o->path ? o->path : "<stdout>";
    int bad = ferror(o->f);
    int e = bad ? EIO : 0;
    if (o->f == stdout) {
        if (fflush(stdout) != 0 || ferror(stdout))
            bad = 1, e = errno ? errno : EIO;
    } else if (fclose(o->f) != 0 && !bad) {
        bad = 1, e = errno;
    }
    int rc = JNT_OK;
    if (bad) {
        snprintf(err, errn, "cannot write '%s': %s", name, strerror(e ? e : EIO));
        if (o->part)
            unlink(o->part);
        rc = JNT_ERR_IO;
    } else if (o->part) {
        rc = out_commit(o->part, o->path, 0, err, errn);
    }
    free(o->part);
    free(o->path);
    free(o);
    return rc;
}

/* See jnt.h. */
void jnt_outfile_discard(jnt_outfile *o)
{
    if (!o)
        return;
    if (o->f == stdout)
        fflush(stdout);
    else
        fclose(o->f);
    if (o->part)
        unlink(o->part);
    free(o->part);
    free(o->path);
    free(o);
}
