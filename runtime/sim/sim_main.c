/*
 * sim_main.c: the command line shared by `jnt run` and standalone
 * simulators: [-D name=value]... [-o out.csv] [--stats] [--progress] [--help].
 * Exit status: 0 success, 1 run or model error, 2 usage error; a run stopped
 * by SIGINT or SIGTERM ends within one step (jnt_set_stop_flag), its file
 * closed with the rows so far and a comment line, and exits 130 or 143; a
 * third signal ends the process at once.
 */
#define _DEFAULT_SOURCE /* sigaction */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/data.h"
#include "core/model.h"
#include "jnt/scene.h"
#include "jnt/setup.h"

/* The signal that asks the run to stop (SIGINT, SIGTERM), or 0, and how
 * many came: the run stops within a step of the first (its rows are closed
 * whole); a second one changes nothing (it used to end the process with
 * its buffered rows lost), a third ends it at once. */
static volatile sig_atomic_t sim_signal, sim_signals;

static void sim_on_signal(int sig)
{
    if (!sim_signal)
        sim_signal = sig;
    if (++sim_signals >= 3) {
        signal(sig, SIG_DFL);
        raise(sig);
    }
}

/* A size: bytes with an optional K, M, G, T (powers of 1024), or "none"
 * (-1). Returns 0, or -1 when malformed. */
static int sim_parse_size(const char *s, double *out)
{
    if (!strcmp(s, "none")) {
        *out = -1;
        return 0;
    }
    char *e;
    double v = strtod(s, &e);
    const char *units = "KMGT";
    const char *u = *e ? strchr(units, *e) : NULL;
    if (u && e[1] == 0)
        for (const char *k = units; k <= u; k++)
            v *= 1024;
    else if (*e)
        return -1;
    if (!(v > 0) || e == s)
        return -1;
    *out = v;
    return 0;
}

/* Usage text, with the model's parameters and their defaults. */
static void sim_usage(const jnt_model *m, jnt_data *d, const char *prog, FILE *f)
{
    const jnt_abi_model *a = m->abi;
    fprintf(f,
            "usage: %s [options]\n"
            "Simulate model '%s'%s%s%s and write its outputs as CSV.\n\n"
            "options:\n"
            "  -D name=value   set a parameter; value in SI units or with a unit (-D tE=0.3ms)\n"
            "  -o FILE         write the CSV to FILE ('-' = standard output%s%s%s)\n"
            "  --stats         print run statistics on standard error\n"
            "  --steps FILE    write the accepted steps (t, h) as CSV to FILE\n"
            "  --progress      show a progress line on standard error\n"
            "  --max-output SIZE  refuse a run whose output would be larger (default 1G;\n"
            "                  K, M, G suffixes; 'none')\n"
            "  --integrator NAME  rk4, dopri5, bdf, radau, radau5, trapezoidal or midpoint (hht,\n"
            "                  generalized_alpha, ida for multibody models) instead of the\n"
            "                  model's integrator\n"
            "  --h STEP        step size (fixed-step methods) or initial step, e.g. 1e-4 or 0.1ms\n"
            "  --rtol X, --atol X  tolerances of dopri5 and bdf (and of the Newton iterations)\n"
            "  --version       print the model's name and the jnt version it was built with\n"
            "  -h, --help      show this help and exit\n",
            prog, a->name ? a->name : "?", a->source ? " (" : "", a->source ? a->source : "",
            a->source ? ")" : "", a->output_file ? "; default: " : "",
            a->output_file ? a->output_file : "", a->output_file ? "" : "; default: none");
    if (a->np > 0)
        fprintf(f, "\nparameters (defaults):\n");
    for (int i = 0; i < a->np; i++) {
        jnt_dim dim;
        char ub[64];
        memcpy(dim.e, a->p_dims + (size_t)i * JNT_NDIM, sizeof dim.e);
        units_format(dim, ub, sizeof ub);
        fprintf(f, "  %s = %.6g%s%s\n", a->p_names[i], jnt_get_param(m, d, i),
                units_is_none(dim) ? "" : " ", units_is_none(dim) ? "" : ub);
    }
}

/* A usage error: message, hint, exit status 2. */
static int sim_usage_error(const char *prog, const char *what, const char *arg)
{
    fprintf(stderr, "%s: error: %s%s%s%s\n", prog, what, arg ? " '" : "", arg ? arg : "",
            arg ? "'" : "");
    fprintf(stderr, "try '%s --help' for more information\n", prog);
    return 2;
}

/* The value of an option given as "-Xvalue" or "-X value"; NULL if missing. */
static const char *sim_optarg(int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    if (a[2])
        return a + 2;
    if (*i + 1 < argc)
        return argv[++*i];
    return NULL;
}

/* See jnt.h. */
int jnt_sim_main(const jnt_model *m, const char *prog, int argc, char **argv)
{
    return jnt_sim_main_scene(m, NULL, prog, argc, argv);
}

/* See jnt/scene.h. */
int jnt_sim_main_scene(const jnt_model *m, const jnt_scene *scene, const char *prog, int argc,
                       char **argv)
{
    if (!prog)
        prog = "jnt-sim";
    if (!m) {
        fprintf(stderr, "%s: error: no model\n", prog);
        return 1;
    }
    /* argv: argc arguments after the program's name, none of them NULL */
    if (argc < 0 || (argc > 0 && !argv)) {
        fprintf(stderr, "%s: error: bad arguments: argc %d, argv %s\n", prog, argc,
                argv ? "given" : "NULL");
        return 2;
    }
    for (int i = 0; i < argc; i++)
        if (!argv[i]) {
            fprintf(stderr, "%s: error: bad arguments: argv[%d] is NULL (argc %d)\n", prog, i,
                    argc);
            return 2;
        }
    jnt_data *d = jnt_data_new(m);
    if (!d) {
        fprintf(stderr, "%s: error: out of memory\n", prog);
        return 1;
    }
    const jnt_abi_model *a0 = m->abi;
    const char *out = NULL, *vtk_dir = NULL;
    int stats = 0, progress = 0, rc = 0;
    jnt_run_opts o;
    memset(&o, 0, sizeof o);
    for (int i = 0; i < argc && rc == 0; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            sim_usage(m, d, prog, stdout);
            jnt_data_free(d);
            return 0;
        } else if (strcmp(a, "--version") == 0) {
            printf("%s: model '%s' (%s), jnt %s (ABI %d)\n", prog, a0->name ? a0->name : "?",
                   a0->source ? a0->source : "?", jnt_version(), a0->abi_version);
            jnt_data_free(d);
            return 0;
        } else if (strcmp(a, "--stats") == 0) {
            stats = 1;
        } else if (strcmp(a, "--progress") == 0) {
            progress = 1;
        } else if (strcmp(a, "--steps") == 0) {
            o.steps_path = i + 1 < argc ? argv[++i] : NULL;
            if (!o.steps_path)
                rc = sim_usage_error(prog, "option '--steps' needs a file name", NULL);
        } else if (strcmp(a, "--max-output") == 0) {
            double mo = 0;
            if (i + 1 >= argc || sim_parse_size(argv[++i], &mo) != 0)
                rc = sim_usage_error(prog, "option '--max-output' needs a size (e.g. 2G, 500M "
                                     "or none)", NULL);
            jnt_set_max_output(d, mo);
        } else if (strcmp(a, "--vtk") == 0) {
            vtk_dir = i + 1 < argc ? argv[++i] : NULL;
            if (!vtk_dir)
                rc = sim_usage_error(prog, "option '--vtk' needs a folder", NULL);
            else if (!scene)
                rc = sim_usage_error(prog, "'--vtk' needs the model's description, which only "
                                           "'jnt run' has (not a built simulator)", NULL);
        } else if (strcmp(a, "--integrator") == 0) {
            o.integrator = i + 1 < argc ? argv[++i] : NULL;
            if (!o.integrator)
                rc = sim_usage_error(prog, "option '--integrator' needs a name", NULL);
        } else if (!strcmp(a, "--h") || !strcmp(a, "--rtol") || !strcmp(a, "--atol")) {
            const char *why = "needs a positive value";
            double v = 0;
            jnt_dim dim;
            int ok = i + 1 < argc && units_parse_quantity(argv[++i], &v, &dim, &why) == 0;
            jnt_dim want = units_none;
            if (a[2] == 'h')
                want.e[2] = JNT_DIM_DEN; /* seconds; a bare number is in seconds too */
            if (ok && a[2] == 'h' && units_is_none(dim))
                dim = want;
            if (!ok || !(v > 0) || !units_equal(dim, want))
                rc = sim_usage_error(prog, a[2] == 'h' ? "option '--h' needs a positive time"
                                                       : "option needs a positive number", a);
            else if (a[2] == 'h')
                o.h = v;
            else if (a[2] == 'r')
                o.rtol = v;
            else
                o.atol = v;
        } else if (strncmp(a, "-D", 2) == 0) {
            const char *v = sim_optarg(argc, argv, &i);
            if (!v)
                rc = sim_usage_error(prog, "option '-D' needs an argument name=value", NULL);
            else if (jnt_set_param_text(m, d, v) != JNT_OK)
                rc = sim_usage_error(prog, jnt_data_error(d), NULL);
        } else if (strncmp(a, "-o", 2) == 0) {
            out = sim_optarg(argc, argv, &i);
            if (!out)
                rc = sim_usage_error(prog, "option '-o' needs a file name", NULL);
        } else if (a[0] == '-' && a[1]) {
            rc = sim_usage_error(prog, "unknown option", a);
        } else {
            rc = sim_usage_error(prog, "unexpected argument", a);
        }
    }
    if (rc != 0) {
        jnt_data_free(d);
        return rc;
    }
    o.csv_path = out;
    /* --vtk DIR: a frame at every output row (runtime/io/vtk.c) */
    jnt_vtk *vtk = NULL;
    if (vtk_dir) {
        char verr[512] = "";
        if (jnt_vtk_open(scene, m, d, vtk_dir, a0->name ? a0->name : "model", &vtk, verr,
                         sizeof verr) != JNT_OK) {
            fprintf(stderr, "%s: error: %s\n", prog, verr[0] ? verr : "cannot write VTK");
            jnt_data_free(d);
            return 1;
        }
        o.on_row = jnt_vtk_on_row;
        o.row_ctx = vtk;
        /* the mode shapes of the model's `analysis NAME : modes(...)` */
        if (jnt_vtk_modes(scene, vtk_dir, verr, sizeof verr) != JNT_OK) {
            fprintf(stderr, "%s: error: VTK mode shapes: %s\n", prog, verr);
            jnt_vtk_close(vtk, NULL, 0);
            jnt_data_free(d);
            return 1;
        }
    }
    o.progress = progress ? 1 : (isatty(STDERR_FILENO) ? 2 : 0);
    /* the simulation (if the model has one), then its analyses; SIGINT and
     * SIGTERM stop it at the next row, SIGXFSZ is ignored (a file over
     * ulimit -f fails its write, which the writer reports) */
    struct sigaction sa, old_int, old_term, old_xfsz;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = sim_on_signal;
    sa.sa_flags = 0;
    sigemptyset(&sa.sa_mask);
    sim_signal = sim_signals = 0;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    sa.sa_handler = SIG_IGN;
    sa.sa_flags = 0;
    sigaction(SIGXFSZ, &sa, &old_xfsz);
    jnt_set_stop_flag(d, &sim_signal);
    int st = m->abi->integrator ? jnt_run(m, d, &o) : JNT_OK;
    jnt_set_stop_flag(d, NULL);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    sigaction(SIGXFSZ, &old_xfsz, NULL);
    if (vtk) { /* the collection of the frames written, also after a failure */
        char verr[512] = "";
        if (st == JNT_STOPPED && !sim_signal) {
            fprintf(stderr, "%s: error: VTK output: %s\n", prog, jnt_vtk_error(vtk));
            st = JNT_ERR_IO;
        }
        /* the mode shapes of the linear analyses (runtime/analyse/vtk_linear.c) */
        if (st == JNT_OK && jnt_vtk_analyses(vtk, d, verr, sizeof verr) != JNT_OK) {
            fprintf(stderr, "%s: error: VTK mode shapes: %s\n", prog, verr);
            st = JNT_ERR_IO;
        }
        if (jnt_vtk_close(vtk, verr, sizeof verr) != JNT_OK) {
            fprintf(stderr, "%s: error: VTK output: %s\n", prog, verr);
            if (st == JNT_OK)
                st = JNT_ERR_IO;
        }
    }
    if (st == JNT_STOPPED && sim_signal) {
        const char *f = out ? out : a0->output_file;
        fprintf(stderr, "%s: interrupted by %s at t = %.9g s%s%s%s\n", prog,
                sim_signal == SIGINT ? "SIGINT" : "SIGTERM", jnt_time(d),
                f && strcmp(f, "-") ? ": '" : "", f && strcmp(f, "-") ? f : "",
                f && strcmp(f, "-") ? "' holds the rows up to it" : "");
        int sig = sim_signal;
        jnt_data_free(d);
        return 128 + sig;
    }
    if (st == JNT_OK && m->abi->nanalyses > 0) {
        st = jnt_run_analyses(m, d, NULL);
        /* the files the analyses wrote (NAME.csv; NAME_cycles.csv of a loop) */
        for (int i = 0; st == JNT_OK && i < a0->nanalyses; i++) {
            const char *nm = a0->analyses[i].name;
            fprintf(stderr, "%s: analysis '%s' wrote '%s.csv'%s%s%s\n", prog, nm, nm,
                    a0->analyses[i].kind == JNT_ANALYSIS_HYSTERESIS ? " and '" : "",
                    a0->analyses[i].kind == JNT_ANALYSIS_HYSTERESIS ? nm : "",
                    a0->analyses[i].kind == JNT_ANALYSIS_HYSTERESIS ? "_cycles.csv'" : "");
        }
    }
    if (stats) {
        const jnt_stats *s = jnt_data_stats(d);
        char chains[96] = "";
        if (s->chain_iters)
            snprintf(chains, sizeof chains, ", chain iterations %ld, halvings %ld", s->chain_iters,
                     s->chain_halvings);
        char cons[96] = "";
        if (m->abi->nc > 0)
            snprintf(cons, sizeof cons, ", constraint violation %.3g, velocity %.3g",
                     s->cons_max, s->vcons_max);
        fprintf(stderr,
                "steps %ld, rejected %ld, rhs %ld, jac %ld, lu %ld, newton %ld, rows %ld, "
                "cpu %.3g s%s%s\n",
                s->steps, s->rejected, s->rhs_evals, s->jac_evals, s->lu_decomps,
                s->newton_iters, s->out_rows, s->cpu_seconds, chains, cons);
    }
    if (st != JNT_OK) {
        const char *msg = jnt_data_error(d);
        fprintf(stderr, "%s: error: %s\n", prog, msg[0] ? msg : jnt_status_message(st));
        /* the likely cause of a blow-up under an explicit method */
        const char *in = o.integrator ? o.integrator : a0->integrator;
        if (st == JNT_ERR_NONFINITE && in && (!strcmp(in, "rk4") || !strcmp(in, "dopri5")))
            fprintf(stderr, "%s: note: under the explicit integrator '%s' this is often a step "
                            "too large for the model's stiffness (a stiff contact or friction "
                            "law): try a smaller step (--h) or an implicit integrator "
                            "(--integrator bdf, radau5 or midpoint); a model that is itself unstable "
                            "diverges under any\n", prog, in);
    }
    jnt_data_free(d);
    return st == JNT_OK ? 0 : st == JNT_ERR_USAGE ? 2 : 1;
}
