/*
 * paths.c: the install prefix of the running jnt, found from the file that
 * holds this code: libjnt.so in PREFIX/lib, or the jnt program (libjnt.a
 * linked in) in PREFIX/bin. It counts as installed when
 * PREFIX/share/jnt/stdlib exists (make install puts it there); a build in
 * the source tree finds none and uses JNT_SOURCE_DIR.
 */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "paths.h"

static char stdlib_dir[PATH_MAX + 32], include_dir[PATH_MAX + 32];
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Is path a directory? */
static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Fill stdlib_dir and include_dir, once. */
static void find(void)
{
    char file[PATH_MAX] = "", prefix[PATH_MAX] = "";
    Dl_info info;
    /* the shared library holding this function, else the program */
    if (dladdr((void *)find, &info) && info.dli_fname && strstr(info.dli_fname, ".so")) {
        if (!realpath(info.dli_fname, file))
            file[0] = '\0';
    } else {
        ssize_t n = readlink("/proc/self/exe", file, sizeof file - 1);
        file[n > 0 ? n : 0] = '\0';
    }
    if (file[0]) {
        char *dir = dirname(file); /* PREFIX/bin or PREFIX/lib */
        snprintf(prefix, sizeof prefix, "%s", dirname(dir));
    }
    snprintf(stdlib_dir, sizeof stdlib_dir, "%s/share/jnt/stdlib", prefix);
    snprintf(include_dir, sizeof include_dir, "%s/include", prefix);
    if (!prefix[0] || !is_dir(stdlib_dir)) {
        snprintf(stdlib_dir, sizeof stdlib_dir, "%s", JNT_SOURCE_DIR "/stdlib");
        snprintf(include_dir, sizeof include_dir, "%s", JNT_SOURCE_DIR "/runtime/include");
    }
}

/* See paths.h. */
const char *paths_stdlib(void)
{
    const char *env = getenv("JNT_STDLIB");
    if (env && *env)
        return env;
    pthread_once(&once, find);
    return stdlib_dir;
}

/* See paths.h. */
const char *paths_include(void)
{
    const char *env = getenv("JNT_INCLUDE");
    if (env && *env)
        return env;
    pthread_once(&once, find);
    return include_dir;
}
