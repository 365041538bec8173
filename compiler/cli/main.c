/*
 * main.c: the jnt command line.
 *
 *   jnt run MODEL.jnt [-D name=value]... [-o out.csv] [--stats] [--progress]
 *   jnt check MODEL.jnt
 *   jnt emit MODEL.jnt [-o model.c]
 *   jnt build MODEL.jnt -o sim
 *   jnt plot FILE.csv [-x COL] [-y COL,...] [-o OUT.png]   (plot.c)
 *   jnt animate MODEL.jnt [-o OUT.mp4|OUT.gif]              (animate.c)
 *
 * Exit status: 0 success, 1 model or run error, 2 usage error.
 *
 * A client of the public API (jnt/jnt.h) only, like examples/embed: the
 * Makefile builds it with no other include path.
 */
#define _DEFAULT_SOURCE /* mkstemps, readlink */
#include <errno.h>
#include <stdarg.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "animate.h"
#include "jnt/jnt.h"
#include "jnt/scene.h"
#include "plot.h"
#include "sweep.h"

/* The runtime's libraries for `jnt build` (the Makefile's RUN_LIBS). */
#ifndef JNT_LINK_LIBS
#error "define JNT_LINK_LIBS: the libraries the runtime links (the Makefile's RUN_LIBS)"
#endif

static const char usage_text[] =
    "usage: jnt <command> MODEL.jnt [options]\n"
    "\n"
    "commands:\n"
    "  run MODEL.jnt [-D name=value]... [-o out.csv] [--stats] [--progress] [--plot]\n"
    "                   compile in memory (libtcc) and simulate (see 'jnt run --help')\n"
    "  check MODEL.jnt  report diagnostics only\n"
    "  emit MODEL.jnt [-o model.c]\n"
    "                   write the generated C (stdout without -o); a model with\n"
    "                   substructures also writes its matrices and basis rows to\n"
    "                   model.c.data (link them as jnt_generated_data)\n"
    "  sweep MODEL.jnt [--grid name=a:b:h] [--list name=v1,v2] [--samples N ...] [-o FILE]\n"
    "                   many runs of one compiled model on threads, a table of results\n"
    "                   (see 'jnt sweep --help')\n"
    "  build MODEL.jnt -o sim\n"
    "                   build a standalone simulator with gcc -O2 (plus $JNT_CFLAGS);\n"
    "                   ./sim takes the same options as 'jnt run'\n"
    "  plot FILE.csv [-x COL] [-y COL,...] [-z COL] [-o OUT.png|OUT.svg]\n"
    "                   plot an output or a sweep table with gnuplot (see 'jnt plot --help')\n"
    "  animate MODEL.jnt [-o OUT.mp4|OUT.gif] [--view xy|xz|yz|iso]\n"
    "                   a film of the motion from the run's VTK frames (see 'jnt animate --help')\n"
    "  --allow-path DIR let the model's data files, imports and output be under DIR\n"
    "                   (run, check, emit, build; by default they must stay in the\n"
    "                   model's directory, the output in the working directory)\n"
    "  --version        print the version\n"
    "\n"
    "options of run and of built simulators:\n"
    "  -D name=value    set a parameter: a number in SI units, or with a unit (-D tE=0.3ms)\n"
    "  -o FILE          write the CSV to FILE ('-' for stdout) instead of the model's file\n"
    "  --stats          print steps, rejected steps, evaluations and CPU time on stderr\n"
    "  --steps FILE     write the accepted steps (t, h) as CSV to FILE\n"
    "  --progress       print a progress line on stderr (automatic on a terminal)\n"
    "  --integrator NAME  rk4, dopri5, bdf, radau, radau5, trapezoidal, midpoint (hht,\n"
    "                   generalized_alpha, ida for multibody models) instead of the model's\n"
    "  --h STEP         step size (fixed-step methods) or initial step, in s or with a unit\n"
    "  --rtol X, --atol X  tolerances (dopri5, bdf, and the Newton iterations)\n"
    "  --plot [OUT.png]  jnt run only: plot the output with 'jnt plot' after the run\n"
    "\n"
    "exit status: 0 success, 1 model or simulation error, 2 usage error\n";

/* Each command's --help (run's options are the simulators', jnt_sim_main). */
static const char run_help[] =
    "usage: jnt run MODEL.jnt [options]\n"
    "\n"
    "Compile MODEL.jnt in memory and simulate it; write its output block's CSV, run its\n"
    "analyses (each table written is announced). Nothing is printed on success unless asked.\n"
    "\n"
    "options:\n"
    "  -D name=value    set a parameter: a number in SI units, or with a unit (-D tE=0.3ms)\n"
    "  -o FILE          write the output to FILE ('-' for stdout; .npy, .mat by extension)\n"
    "  --stats          print steps, rejected steps, evaluations and CPU time on stderr\n"
    "  --steps FILE     write the accepted steps (t, h) as CSV to FILE\n"
    "  --vtk DIR        also write every output row as VTK frames for ParaView:\n"
    "                   DIR/MODEL.pvd (docs/seeing.md)\n"
    "  --progress       print a progress line on stderr (automatic on a terminal)\n"
    "  --integrator NAME  rk4, dopri5, bdf, radau, radau5, trapezoidal or midpoint (hht,\n"
    "                   generalized_alpha, ida, radau5, midpoint for multibody models)\n"
    "  --h STEP         step size (fixed-step methods) or initial step, in s or with a unit\n"
    "  --rtol X, --atol X  tolerances (adaptive methods and the Newton iterations)\n"
    "  --plot [OUT.png|OUT.svg]  plot the output after the run (jnt plot; default: the\n"
    "                   output's name with .png)\n"
    "  -h, --help       this help; 'jnt run MODEL.jnt --help' lists the model's parameters\n"
    "\n"
    "exit status: 0 success, 1 model or simulation error, 2 usage error\n";
static const char check_help[] =
    "usage: jnt check MODEL.jnt\n\nReport the model's diagnostics (file:line:col) without "
    "running it.\nexit status: 0 no errors, 1 errors, 2 usage error\n";
static const char emit_help[] =
    "usage: jnt emit MODEL.jnt [-o model.c]\n\nWrite the generated C (stdout without -o). A "
    "model with substructures also\nwrites its matrices and basis rows to model.c.data (link "
    "them as jnt_generated_data).\nexit status: 0 success, 1 model error, 2 usage error\n";
static const char build_help[] =
    "usage: jnt build MODEL.jnt -o EXECUTABLE\n\nBuild a standalone simulator with gcc -O2 "
    "(plus $JNT_CFLAGS), linked with libjnt.a.\nIt takes the options of 'jnt run' (see "
    "'jnt run --help') and --version.\nexit status: 0 success, 1 model or build error, 2 "
    "usage error\n";

static int usage(const char *fmt, const char *arg)
{
    fputs("jnt: error: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n(see 'jnt --help')\n", stderr);
    return 2;
}

/* A malloc'd printf-style string; exits with a message when out of memory
 * (the command line has nothing to give back). */
static char *fmt(const char *f, ...)
{
    va_list ap, aq;
    va_start(ap, f);
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, f, ap);
    va_end(ap);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (!s) {
        fputs("jnt: error: out of memory\n", stderr);
        exit(1);
    }
    vsnprintf(s, (size_t)n + 1, f, aq);
    va_end(aq);
    return s;
}

/* Front end to C for check (csrc NULL: sema only), emit and build: the C
 * text, the model data (*data, *ndata doubles; NULL when none) and, when
 * inputs is not NULL, the files it was read from (free_inputs). 0, or 1
 * after diagnostics. */
static int to_c(const char *path, char **csrc, double **data, long *ndata, char ***inputs)
{
    jnt_compile_opts o = {.inputs = inputs};
    return jnt_translate_file(path, &o, csrc, data, ndata) == JNT_OK ? 0 : 1;
}

static void free_inputs(char **inputs)
{
    for (char **p = inputs; p && *p; p++)
        free(*p);
    free(inputs);
}

/* Open an output through the one output routine (jnt_outfile_open: never
 * over a link, a device, a model input; a temporary file beside it). NULL
 * after a message. */
static jnt_outfile *out_open(const char *path, char **inputs)
{
    jnt_outfile *f;
    char err[1024];
    if (jnt_outfile_open(path, (const char *const *)inputs, &f, err, sizeof err) != JNT_OK) {
        fprintf(stderr, "jnt: error: %s\n", err);
        return NULL;
    }
    return f;
}

/* Finish an output (jnt_outfile_commit): 0, or 1 after a message. */
static int out_commit(jnt_outfile *f)
{
    char err[1024];
    if (jnt_outfile_commit(f, err, sizeof err) != JNT_OK) {
        fprintf(stderr, "jnt: error: %s\n", err);
        return 1;
    }
    return 0;
}

/* Write len bytes to path whole or not at all (the one output routine). */
static int write_file(const char *path, char **inputs, const void *bytes, size_t len)
{
    jnt_outfile *f = out_open(path, inputs);
    if (!f)
        return 1;
    fwrite(bytes, 1, len, jnt_outfile_stream(f)); /* a short write sets the stream's error */
    return out_commit(f);
}

/* Directory of the running executable (where libjnt.a is built next to it). */
static char *exe_dir(void)
{
    char buf[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0)
        return fmt("%s", JNT_SOURCE_DIR "/build");
    buf[n] = 0;
    return fmt("%s", dirname(buf));
}

static int run_gcc(char **argv)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        execvp(argv[0], argv);
        fprintf(stderr, "jnt: error: cannot run '%s': %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    int st;
    if (waitpid(pid, &st, 0) < 0)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* A temporary file /tmp/jnt-build-XXXXXX<suffix> holding `len` bytes of
 * `text`: its malloc'd path, or NULL after a message. */
static char *temp_file(const char *suffix, const void *text, size_t len)
{
    char *path = fmt("/tmp/jnt-build-XXXXXX%s", suffix);
    int fd = mkstemps(path, (int)strlen(suffix));
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0) {
        fprintf(stderr, "jnt: error: cannot write a temporary file: %s\n", strerror(errno));
        if (fd >= 0)
            remove(path);
        free(path);
        return NULL;
    }
    return path;
}

/* The model data for gcc: the binary file and an assembler file that
 * includes it as the symbol jnt_generated_data (no C literals, so the size
 * of a basis costs gcc nothing). 0, or 1 after a message. */
static int data_object(const double *data, long n, char **bin, char **asm_path)
{
    *asm_path = NULL;
    *bin = temp_file(".bin", data, (size_t)n * sizeof *data);
    if (!*bin)
        return 1;
    char *text = fmt("\t.section .rodata\n\t.balign 8\n\t.globl jnt_generated_data\n"
                           "jnt_generated_data:\n\t.incbin \"%s\"\n"
                           "\t.section .note.GNU-stack,\"\",@progbits\n", *bin);
    *asm_path = temp_file(".s", text, strlen(text));
    free(text);
    return *asm_path ? 0 : 1;
}

static int cmd_build(const char *model, const char *out)
{
    char *csrc;
    double *data;
    long ndata;
    char **inputs = NULL;
    if (to_c(model, &csrc, &data, &ndata, &inputs) != 0)
        return 1;
    /* gcc writes the executable into the output's own temporary file */
    jnt_outfile *of = out_open(out, inputs);
    free_inputs(inputs);
    if (!of || !jnt_outfile_temp(of)) {
        if (of)
            fprintf(stderr, "jnt: error: cannot build into '%s': a simulator must be a "
                            "regular file\n", out);
        jnt_outfile_discard(of);
        free(csrc);
        free(data);
        return 1;
    }
    char *tmpl = temp_file(".c", csrc, strlen(csrc));
    free(csrc);
    char *bin = NULL, *asm_path = NULL;
    if (!tmpl || (ndata && data_object(data, ndata, &bin, &asm_path) != 0)) {
        jnt_outfile_discard(of);
        free(data);
        if (tmpl)
            remove(tmpl);
        free(tmpl);
        if (bin)
            remove(bin);
        free(bin);
        return 1;
    }
    free(data);
    /* libjnt.a beside the program (a build tree), else in ../lib (installed) */
    char *dir = exe_dir();
    char *lib = fmt("%s/libjnt.a", dir);
    if (access(lib, R_OK) != 0) {
        free(lib);
        lib = fmt("%s/../lib/libjnt.a", dir);
    }
    char *inc = fmt("-I%s", jnt_include_dir());
    char *argv[64] = {"gcc", "-std=c11", "-O2", "-DJNT_STANDALONE", inc, tmpl, lib, "-o",
                      (char *)jnt_outfile_temp(of)};
    int argc = 0;
    while (argv[argc])
        argc++;
    /* the runtime's libraries, as the Makefile links them */
    char *libs = fmt("%s", JNT_LINK_LIBS);
    for (char *w = strtok(libs, " "); w && argc < 40; w = strtok(NULL, " "))
        argv[argc++] = w;
    if (asm_path)
        argv[argc++] = asm_path;
    /* extra compiler flags from $JNT_CFLAGS (for instance -march=native) */
    char *extra = fmt("%s", getenv("JNT_CFLAGS") ? getenv("JNT_CFLAGS") : "");
    for (char *w = strtok(extra, " \t"); w && argc < 63; w = strtok(NULL, " \t"))
        argv[argc++] = w;
    argv[argc] = NULL;
    int rc = run_gcc(argv);
    free(extra);
    free(libs);
    remove(tmpl);
    free(tmpl);
    if (asm_path) {
        remove(asm_path);
        remove(bin);
    }
    free(asm_path);
    free(bin);
    if (rc != 0) {
        fprintf(stderr, "jnt: error: building '%s' with gcc failed\n", out);
        jnt_outfile_discard(of);
    } else {
        rc = out_commit(of);
    }
    free(dir);
    free(lib);
    free(inc);
    return rc == 0 ? 0 : 1;
}

/* jnt run: the simulator's command line (jnt_sim_main), then with --plot
 * [OUT] a picture of the output (plot.c). */
static int cmd_run(const char *model, int argc, char **argv)
{
    /* take --plot [OUT.png|OUT.svg] out of the simulator's options; note -o */
    int plot = 0, n = 0;
    const char *pic = NULL, *out = NULL;
    char **args = malloc(((size_t)argc + 1) * sizeof *args);
    if (!args)
        return 1;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--plot")) {
            plot = 1;
            size_t l = i + 1 < argc ? strlen(argv[i + 1]) : 0;
            if (l > 4 && (!strcmp(argv[i + 1] + l - 4, ".png") ||
                          !strcmp(argv[i + 1] + l - 4, ".svg")))
                pic = argv[++i];
            continue;
        }
        if (!strcmp(argv[i], "-o") && i + 1 < argc)
            out = argv[i + 1];
        else if (!strncmp(argv[i], "-o", 2) && argv[i][2])
            out = argv[i] + 2;
        args[n++] = argv[i];
    }
    args[n] = NULL;
    jnt_model *m;
    if (jnt_compile_file(model, NULL, &m) != JNT_OK) {
        free(args);
        return 1;
    }
    const char *file = out ? out : jnt_model_abi(m)->output_file;
    char *prog = fmt("jnt run %s", model);
    int rc = 0;
    if (plot && (!file || !strcmp(file, "-") || (strlen(file) > 4 &&
                                                  strcmp(file + strlen(file) - 4, ".csv")))) {
        rc = usage("'--plot' needs the output in a CSV file (-o out.csv), not '%s'",
                   file ? file : "(none)");
    }
    if (rc == 0 && plot) { /* the picture refused before the run, not after it */
        char *p = pic ? fmt("%s", pic) : fmt("%.*s.png", (int)strlen(file) - 4, file);
        jnt_outfile *f = out_open(p, NULL);
        rc = f ? 0 : 1;
        jnt_outfile_discard(f);
        free(p);
    }
    /* --vtk DIR: the model's description for the frames (jnt/scene.h) */
    jnt_scene *scene = NULL;
    for (int i = 0; rc == 0 && i < n; i++)
        if (!strcmp(args[i], "--vtk") && jnt_scene_file(model, NULL, &scene) != JNT_OK)
            rc = 1;
    if (rc == 0)
        rc = jnt_sim_main_scene(m, scene, prog, n, args);
    jnt_scene_free(scene);
    if (rc == 0 && plot) {
        plot_opts po = {.out = pic};
        rc = plot_file(file, &po);
    }
    free(prog);
    free(args);
    jnt_model_free(m);
    return rc;
}

int main(int argc, char **argv)
{
    /* a file over ulimit -f is a write error we report (EFBIG), not a kill */
    signal(SIGXFSZ, SIG_IGN);
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        fputs(usage_text, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("jnt %s (ABI %d)\n", jnt_version(), JNT_ABI_VERSION);
        return 0;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "sweep"))
        return sweep_main(argc - 2, argv + 2);
    if (!strcmp(cmd, "plot"))
        return plot_main(argc - 2, argv + 2);
    if (!strcmp(cmd, "animate"))
        return animate_main(argc - 2, argv + 2);
    int known = !strcmp(cmd, "run") || !strcmp(cmd, "check") || !strcmp(cmd, "emit") ||
                !strcmp(cmd, "build");
    if (!known)
        return usage("unknown command '%s'", cmd);
    if (argc >= 3 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
        fputs(!strcmp(cmd, "run") ? run_help : !strcmp(cmd, "check") ? check_help
              : !strcmp(cmd, "emit") ? emit_help : build_help, stdout);
        return 0;
    }
    if (argc < 3 || argv[2][0] == '-')
        return usage("'%s' needs a model file", cmd);
    const char *model = argv[2];
    /* --allow-path DIR (any number): where the model's files may be besides its own
     * directory, for the compiler through JNT_ALLOW_PATH (docs/cli.md) */
    int k = 3;
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "--allow-path") != 0) {
            argv[k++] = argv[i];
            continue;
        }
        if (i + 1 >= argc)
            return usage("option '%s' needs a directory", argv[i]);
        const char *old = getenv("JNT_ALLOW_PATH");
        char *v = old && old[0] ? fmt("%s:%s", old, argv[++i]) : fmt("%s", argv[++i]);
        setenv("JNT_ALLOW_PATH", v, 1);
        free(v);
    }
    argc = k;
    argv[argc] = NULL;

    if (!strcmp(cmd, "run"))
        return cmd_run(model, argc - 3, argv + 3);

    const char *out = NULL;
    for (int i = 3; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc && !out)
            out = argv[++i];
        else
            return usage("unexpected argument '%s'", argv[i]);
    }
    if (!strcmp(cmd, "check"))
        return to_c(model, NULL, NULL, NULL, NULL);
    if (!strcmp(cmd, "emit")) {
        char *csrc;
        double *data;
        long ndata;
        char **inputs = NULL;
        if (to_c(model, &csrc, &data, &ndata, &inputs) != 0)
            return 1;
        int to_stdout = !out || !strcmp(out, "-");
        char *dpath = ndata && !to_stdout ? fmt("%s.data", out) : NULL;
        int rc = write_file(to_stdout ? "-" : out, inputs, csrc, strlen(csrc));
        if (ndata && to_stdout) {
            fprintf(stderr, "jnt: note: the model data (%ld values: matrices and basis rows) "
                            "is written beside the C only with -o FILE (as FILE.data)\n", ndata);
        } else if (ndata && rc == 0) {
            rc = write_file(dpath, inputs, data, (size_t)ndata * sizeof *data);
        }
        free(dpath);
        free_inputs(inputs);
        free(csrc);
        free(data);
        return rc;
    }
    if (!out)
        return usage("'build' needs '-o %s'", "EXECUTABLE");
    return cmd_build(model, out);
}
