/*
 * animate.c: `jnt animate`, a film of a model's motion (MP4 or animated
 * GIF) for READMEs and reports, from the VTK frames of `jnt run --vtk`
 * (docs/seeing.md): the model runs with --vtk into a private temporary
 * folder (or an existing .pvd is taken as it is), VTK for Python renders
 * each frame off screen (animate.py, built in as a string; under xvfb-run
 * when there is no display) and ffmpeg joins them.
 *
 *   jnt animate MODEL.jnt|FRAMES.pvd [-o OUT.mp4|OUT.gif] [--view xy|xz|yz|iso]
 *               [--fps N] [--frames N] [--size W,H] [--title TEXT] [-D name=value]...
 *
 * What it promises (as jnt plot, issue 27): no name reaches a script as
 * code (the script is fixed text; every path, title and value is an
 * argument of python3 and of the programs it starts, none passes through a
 * shell); the film is written through the one output routine
 * (jnt_outfile_*: never over a link, a FIFO, a device, the model or the
 * frames it was made from; a failed film keeps the previous file); the
 * temporary folder is the process's own (mkdtemp) and is removed after.
 */
#define _DEFAULT_SOURCE /* mkdtemp, realpath */
#define _XOPEN_SOURCE 700 /* nftw */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "animate.h"
#include "jnt/jnt.h"

extern char **environ;

/* the renderer, compiler/cli/animate.py, assembled in with a NUL after it
 * (the Makefile makes animate.o depend on it) */
__asm__(".section .rodata\n"
        ".globl jnt_animate_py\n"
        ".hidden jnt_animate_py\n"
        "jnt_animate_py:\n"
        ".incbin \"" JNT_SOURCE_DIR "/compiler/cli/animate.py\"\n"
        ".byte 0\n"
        ".previous\n");
extern const char jnt_animate_py[];

static const char animate_help[] =
    "usage: jnt animate MODEL.jnt|FRAMES.pvd [-o OUT.mp4|OUT.gif] [--view xy|xz|yz|iso]\n"
    "                   [--fps N] [--frames N] [--size W,H] [--title TEXT] [-D name=value]...\n"
    "\n"
    "A film of the model's motion: the model runs with 'jnt run --vtk' into a temporary\n"
    "folder (or the frames of a .pvd written before are taken), each frame is drawn with\n"
    "VTK off screen and ffmpeg joins them.\n"
    "\n"
    "  -o FILE         the film: .mp4 (H.264) or .gif (default: the input's name with .gif)\n"
    "  --view V        the view: xy (default: from +z, for planar models), xz, yz, iso\n"
    "  --fps N         frames per second (default 25)\n"
    "  --frames N      at most N frames, evenly spread over the run (default 100; 0: all)\n"
    "  --size W,H      pixels (default 640,480)\n"
    "  --title TEXT    the text beside the time (default: the model's name)\n"
    "  -D name=value   set a parameter for the run (as jnt run)\n"
    "\n"
    "Needs ffmpeg and VTK for Python (Debian packages ffmpeg, python3-vtk9) and, without a\n"
    "display, xvfb-run (xvfb). JNT_PYTHON names the Python (default /usr/bin/python3).\n"
    "exit status: 0 success, 1 the run, the drawing or ffmpeg failed, 2 usage error\n";

/* A usage error: message and exit status 2. */
static int anim_usage(const char *fmt, const char *arg)
{
    fputs("jnt animate: error: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n(see 'jnt animate --help')\n", stderr);
    return 2;
}

/* Does name end in ext? */
static int ends(const char *name, const char *ext)
{
    size_t n = strlen(name), e = strlen(ext);
    return n > e && !strcmp(name + n - e, ext);
}

/* The executable name on PATH (or name itself when it holds a '/') into
 * buf: 1, or 0 when there is none. */
static int find_exe(const char *name, char *buf, size_t n)
{
    if (strchr(name, '/')) {
        snprintf(buf, n, "%s", name);
        return access(buf, X_OK) == 0;
    }
    const char *path = getenv("PATH");
    while (path && *path) {
        size_t k = strcspn(path, ":");
        snprintf(buf, n, "%.*s/%s", (int)(k ? k : 1), k ? path : ".", name);
        if (access(buf, X_OK) == 0)
            return 1;
        path += k + (path[k] == ':');
    }
    return 0;
}

/* Run argv (argv[0] a path) and wait: its exit status, or -1 after a message
 * when it could not start or died of a signal. */
static int run_prog(char *const argv[])
{
    pid_t pid;
    int e = posix_spawn(&pid, argv[0], NULL, NULL, argv, environ);
    if (e != 0) {
        fprintf(stderr, "jnt animate: error: cannot run '%s': %s\n", argv[0], strerror(e));
        return -1;
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    if (WIFSIGNALED(st)) {
        fprintf(stderr, "jnt animate: error: '%s' died of signal %d\n", argv[0], WTERMSIG(st));
        return -1;
    }
    return WEXITSTATUS(st);
}

/* nftw's callback: remove one entry of the temporary folder. */
static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

/* The one .pvd in dir (malloc'd path), or NULL after a message. */
static char *find_pvd(const char *dir)
{
    DIR *d = opendir(dir);
    char *found = NULL;
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        if (ends(e->d_name, ".pvd") && n++ == 0) {
            size_t k = strlen(dir) + strlen(e->d_name) + 2;
            if ((found = malloc(k)))
                snprintf(found, k, "%s/%s", dir, e->d_name);
        }
    if (d)
        closedir(d);
    if (n != 1) {
        fprintf(stderr, "jnt animate: error: the run wrote %d VTK collections (.pvd), not one\n",
                n);
        free(found);
        return NULL;
    }
    return found;
}

/* The default film's name: the input's base name without its extension,
 * with .gif, in the current folder. */
static char *default_out(const char *in)
{
    const char *b = strrchr(in, '/') ? strrchr(in, '/') + 1 : in;
    size_t n = strlen(b);
    const char *dot = strrchr(b, '.');
    if (dot && dot != b)
        n = (size_t)(dot - b);
    char *s = malloc(n + 5);
    if (s)
        snprintf(s, n + 5, "%.*s.gif", (int)n, b);
    return s;
}

typedef struct anim_opts {
    const char *in, *out, *view, *title;
    int fps, frames, width, height;
    const char **defs;
    int ndef;
} anim_opts;

/* Make the film of o: 0, or 1 after a message. tmp is the private folder. */
static int animate(const anim_opts *o, const char *out, const char *tmp)
{
    char py[PATH_MAX], ffmpeg[PATH_MAX], xvfb[PATH_MAX], self[PATH_MAX], err[PATH_MAX + 200];
    const char *pyname = getenv("JNT_PYTHON") && getenv("JNT_PYTHON")[0] ? getenv("JNT_PYTHON")
                                                                         : "/usr/bin/python3";
    if (!find_exe("ffmpeg", ffmpeg, sizeof ffmpeg)) {
        fputs("jnt animate: error: jnt animate needs ffmpeg (Debian package ffmpeg), which is "
              "not on PATH\n", stderr);
        return 1;
    }
    if (!find_exe(pyname, py, sizeof py)) {
        fprintf(stderr, "jnt animate: error: no Python at '%s' (set JNT_PYTHON; it needs VTK, "
                        "Debian package python3-vtk9)\n", pyname);
        return 1;
    }
    const char *disp = getenv("DISPLAY");
    int headless = !disp || !disp[0];
    if (headless && !find_exe("xvfb-run", xvfb, sizeof xvfb)) {
        fputs("jnt animate: error: there is no display (DISPLAY is not set) and no xvfb-run "
              "(Debian package xvfb) to draw on\n", stderr);
        return 1;
    }
    /* the frames: the model's run into tmp/vtk, or the .pvd given */
    char *pvd = NULL, *in_real = realpath(o->in, NULL);
    int rc = 0;
    if (ends(o->in, ".pvd")) {
        pvd = strdup(o->in);
    } else {
        ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
        if (k <= 0) {
            fprintf(stderr, "jnt animate: error: cannot find the jnt program: %s\n",
                    strerror(errno));
            free(in_real);
            return 1;
        }
        self[k] = '\0';
        char vdir[PATH_MAX], csv[PATH_MAX];
        snprintf(vdir, sizeof vdir, "%s/vtk", tmp);
        snprintf(csv, sizeof csv, "%s/run.csv", tmp);
        char **argv = calloc((size_t)(2 * o->ndef + 10), sizeof *argv);
        if (!argv) {
            free(in_real);
            return 1;
        }
        int n = 0;
        argv[n++] = self;
        argv[n++] = "run";
        argv[n++] = (char *)o->in;
        argv[n++] = "--vtk";
        argv[n++] = vdir;
        argv[n++] = "-o";
        argv[n++] = csv;
        for (int i = 0; i < o->ndef; i++) {
            argv[n++] = "-D";
            argv[n++] = (char *)o->defs[i];
        }
        argv[n] = NULL;
        int st = run_prog(argv);
        free(argv);
        if (st != 0) {
            fprintf(stderr, "jnt animate: error: the run of '%s' failed (its message is "
                            "above)\n", o->in);
            rc = 1;
        } else {
            pvd = find_pvd(vdir);
        }
    }
    if (rc == 0 && !pvd)
        rc = 1;
    /* the film, through the output routine; never over the input */
    jnt_outfile *f = NULL;
    const char *inputs[2] = {in_real, NULL};
    if (rc == 0 && jnt_outfile_open(out, in_real ? inputs : NULL, &f, err, sizeof err) != JNT_OK) {
        fprintf(stderr, "jnt animate: error: %s\n", err);
        rc = 1;
    }
    if (rc == 0) {
        const char *to = jnt_outfile_temp(f);
        char frames[PATH_MAX], fps[16], nfr[16], w[16], h[16];
        snprintf(frames, sizeof frames, "%s/frames", tmp);
        snprintf(fps, sizeof fps, "%d", o->fps);
        snprintf(nfr, sizeof nfr, "%d", o->frames);
        snprintf(w, sizeof w, "%d", o->width);
        snprintf(h, sizeof h, "%d", o->height);
        const char *title = o->title;
        char tbuf[256];
        if (!title) { /* the input's base name without its extension */
            const char *b = strrchr(o->in, '/') ? strrchr(o->in, '/') + 1 : o->in;
            const char *dot = strrchr(b, '.');
            snprintf(tbuf, sizeof tbuf, "%.*s", (int)(dot && dot != b ? dot - b : 200), b);
            title = tbuf;
        }
        char *argv[20];
        int n = 0;
        if (headless) {
            argv[n++] = xvfb;
            argv[n++] = "-a";
            argv[n++] = "-s";
            argv[n++] = "-screen 0 1280x1024x24";
        }
        argv[n++] = py;
        argv[n++] = "-c";
        argv[n++] = (char *)jnt_animate_py;
        argv[n++] = pvd;
        argv[n++] = (char *)(to ? to : out);
        argv[n++] = ends(out, ".gif") ? "gif" : "mp4";
        argv[n++] = (char *)o->view;
        argv[n++] = fps;
        argv[n++] = nfr;
        argv[n++] = w;
        argv[n++] = h;
        argv[n++] = frames;
        argv[n++] = ffmpeg;
        argv[n++] = (char *)title;
        argv[n] = NULL;
        if (mkdir(frames, 0700) != 0) {
            fprintf(stderr, "jnt animate: error: cannot make '%s': %s\n", frames, strerror(errno));
            rc = 1;
        } else if (run_prog(argv) != 0) {
            fputs("jnt animate: error: drawing the frames failed (the message is above)\n",
                  stderr);
            rc = 1;
        }
    }
    if (rc == 0) {
        if (jnt_outfile_commit(f, err, sizeof err) != JNT_OK) {
            fprintf(stderr, "jnt animate: error: %s\n", err);
            rc = 1;
        }
    } else {
        jnt_outfile_discard(f);
    }
    free(pvd);
    free(in_real);
    return rc;
}

/* See animate.h. */
int animate_main(int argc, char **argv)
{
    anim_opts o = {.view = "xy", .fps = 25, .frames = 100, .width = 640, .height = 480};
    o.defs = calloc((size_t)argc + 1, sizeof *o.defs);
    if (!o.defs)
        return 1;
    int rc = -1;
    for (int i = 0; i < argc && rc < 0; i++) {
        const char *a = argv[i];
        const char **dst = !strcmp(a, "-o")        ? &o.out
                           : !strcmp(a, "--view")  ? &o.view
                           : !strcmp(a, "--title") ? &o.title
                                                   : NULL;
        int *num = !strcmp(a, "--fps") ? &o.fps : !strcmp(a, "--frames") ? &o.frames : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(animate_help, stdout);
            rc = 0;
        } else if ((dst || num || !strcmp(a, "-D") || !strcmp(a, "--size")) && i + 1 >= argc) {
            rc = anim_usage("option '%s' needs a value", a);
        } else if (dst) {
            *dst = argv[++i];
        } else if (num) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (end == argv[i] || *end || v < (num == &o.fps ? 1 : 0) || v > 100000)
                rc = anim_usage(num == &o.fps ? "'--fps' takes a whole number from 1: '%s'"
                                              : "'--frames' takes a whole number from 0: '%s'",
                                argv[i]);
            else
                *num = (int)v;
        } else if (!strcmp(a, "-D")) {
            o.defs[o.ndef++] = argv[++i];
        } else if (!strncmp(a, "-D", 2) && a[2]) {
            o.defs[o.ndef++] = a + 2;
        } else if (!strcmp(a, "--size")) {
            if (sscanf(argv[++i], "%d,%d", &o.width, &o.height) != 2 || o.width < 64 ||
                o.height < 64 || o.width > 4096 || o.height > 4096)
                rc = anim_usage("option '--size' needs W,H in pixels (64 to 4096): '%s'",
                                argv[i]);
        } else if (a[0] == '-' && a[1]) {
            rc = anim_usage("unknown option '%s'", a);
        } else if (o.in) {
            rc = anim_usage("unexpected argument '%s' (one model at a time)", a);
        } else {
            o.in = a;
        }
    }
    if (rc < 0 && !o.in)
        rc = anim_usage("'animate' needs a model file or a .pvd%s", "");
    if (rc < 0 && strcmp(o.view, "xy") && strcmp(o.view, "xz") && strcmp(o.view, "yz") &&
        strcmp(o.view, "iso"))
        rc = anim_usage("'--view' takes xy, xz, yz or iso, not '%s'", o.view);
    if (rc < 0 && ends(o.in, ".pvd") && o.ndef > 0)
        rc = anim_usage("-D sets a parameter of a run: '%s' is frames already written", o.in);
    char *dflt = rc < 0 && !o.out ? default_out(o.in) : NULL;
    const char *out = o.out ? o.out : dflt;
    if (rc < 0 && !out)
        rc = 1;
    if (rc < 0 && !ends(out, ".mp4") && !ends(out, ".gif"))
        rc = anim_usage("the film must end in .mp4 or .gif: '%s'", out);
    if (rc < 0) {
        const char *t = getenv("TMPDIR");
        char tmp[PATH_MAX / 2]; /* room for its files' names */
        int k = snprintf(tmp, sizeof tmp, "%s/jnt-animate-XXXXXX", t && t[0] ? t : "/tmp");
        if (k < 0 || (size_t)k >= sizeof tmp) {
            fputs("jnt animate: error: TMPDIR is too long a name\n", stderr);
            rc = 1;
        } else if (!mkdtemp(tmp)) {
            fprintf(stderr, "jnt animate: error: cannot make a temporary folder '%s': %s\n", tmp,
                    strerror(errno));
            rc = 1;
        } else {
            rc = animate(&o, out, tmp);
            nftw(tmp, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
        }
        if (rc == 0)
            fprintf(stderr, "jnt animate: wrote '%s'\n", out);
    }
    free(dflt);
    free(o.defs);
    return rc;
}
