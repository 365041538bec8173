/*
 * sweep.c: `jnt sweep MODEL.jnt`: the options and the plan of runs.
 *
 *   --grid name=start:stop:step   values start, start + step, ... up to stop
 *   --list name=v1,v2,...         these values
 *   --samples N --dist name=uniform:a:b | normal:mu:sigma | lognormal:mu:sigma
 *                                 N random points (--seed S), all --dist
 *                                 parameters drawn together
 * Values may carry units, as with -D. The runs are the product of the grids,
 * lists and samples, in the order given (the last varies fastest), checked
 * against the limit of runs before anything is allocated for them; the
 * model is compiled once and every run gets its own data object on it.
 */
#define _DEFAULT_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sweep.h"

static const char sweep_usage[] =
    "usage: jnt sweep MODEL.jnt [options]\n"
    "\n"
    "Runs the model once per point of a parameter grid or sample, compiling it once,\n"
    "and writes a table with a row per run: its parameters, its results (the model's\n"
    "'summary' block, else the last value of each output column), status, error, CPU.\n"
    "\n"
    "parameters:\n"
    "  --grid name=start:stop:step   start, start + step, ... up to stop (units allowed)\n"
    "  --list name=v1,v2,...         the listed values\n"
    "  --samples N                   N random points of the --dist parameters\n"
    "  --dist name=uniform:a:b | normal:mu:sigma | lognormal:mu:sigma\n"
    "  --seed S                      seed of the samples (default 1)\n"
    "  -D name=value                 a fixed parameter, as in 'jnt run' (not a swept one)\n"
    "  (the runs are the product of grids, lists and samples; the last varies fastest;\n"
    "  at most 1,000,000 runs: JNT_MAX_SWEEP_RUNS=N raises the limit)\n"
    "\n"
    "running:\n"
    "  -o FILE                       the table (default: MODEL.sweep.csv; '-': stdout),\n"
    "                                locked while the sweep writes it\n"
    "  -j N                          threads (default: the number of cores)\n"
    "  --continue name               start each run from the previous run's final state,\n"
    "                                along this --grid or --list parameter\n"
    "  --keep-outputs DIR            keep each run's output as DIR/run_NNNNNN.csv\n"
    "  --resume                      skip the runs the table already has (it must be of\n"
    "                                this model and these -D values: its second line)\n"
    "  --allow-failures              exit 0 even when runs failed\n"
    "  --progress                    a progress line on stderr (automatic on a terminal)\n"
    "\n"
    "exit status: 0 success, 1 model error or failed runs, 2 usage error\n";

static int bad_usage(const char *fmt, const char *arg)
{
    fputs("jnt sweep: error: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n(see 'jnt sweep --help')\n", stderr);
    return 2;
}

/* The SI value of `text` for parameter `name` (a number, or a number with a
 * unit of the parameter's dimension), through a scratch data object
 * (sweep_spec_ctx's callback). 0, or 2 with a message in err. */
typedef struct value_ctx {
    const jnt_model *m;
    jnt_data *d0;
} value_ctx;

static int si_value(void *ctx, const char *name, const char *text, double *out, char *err,
                    size_t errn)
{
    const value_ctx *v = ctx;
    int idx = jnt_param_index(v->m, name);
    if (idx < 0) {
        snprintf(err, errn, "unknown parameter '%s'", name);
        return 2;
    }
    size_t n = strlen(name) + strlen(text) + 2;
    char *a = malloc(n);
    if (!a) {
        snprintf(err, errn, "out of memory");
        return 2;
    }
    snprintf(a, n, "%s=%s", name, text);
    int rc = jnt_set_param_text(v->m, v->d0, a);
    free(a);
    if (rc != JNT_OK) {
        snprintf(err, errn, "%s", jnt_data_error(v->d0));
        return 2;
    }
    *out = jnt_get_param(v->m, v->d0, idx);
    if (!isfinite(*out)) {
        snprintf(err, errn, "parameter '%s': '%s' is not finite", name, text);
        return 2;
    }
    return 0;
}

/* A spec parser's failure: its message as a usage error. */
static int spec_failed(const char *err)
{
    return bad_usage("%s", err);
}

/* splitmix64: the sample stream (deterministic for a seed, any -j). */
static uint64_t next_u64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* A uniform double in (0, 1). */
static double uniform01(uint64_t *s)
{
    return ((double)(next_u64(s) >> 11) + 0.5) * 0x1p-53;
}

/* N points of the distributions: one dimension of nd parameters. */
static void draw_samples(const sweep_dist *ds, int nd, long n, uint64_t seed,
                         sweep_dim *dm)
{
    uint64_t st = seed;
    for (long i = 0; i < n; i++)
        for (int j = 0; j < nd; j++) {
            double u = uniform01(&st), x;
            if (ds[j].kind == 0) {
                x = ds[j].a + (ds[j].b - ds[j].a) * u;
            } else { /* Box-Muller, one normal per two uniforms */
                double z = sqrt(-2 * log(u)) * cos(2 * M_PI * uniform01(&st));
                x = ds[j].kind == 1 ? ds[j].a + ds[j].b * z : exp(ds[j].a + ds[j].b * z);
            }
            dm->v[i * nd + j] = x;
        }
}

/* The product of the dimensions as the plan's runs; chains along dimension
 * `cont` (-1: every run its own item). */
static int make_plan(sweep_plan *pl, const sweep_dim *dims, int ndim, int cont)
{
    long nrun = 1;
    for (int i = 0; i < ndim; i++) {
        if (dims[i].n > sweep_max_runs() / nrun) { /* the parsers checked it already */
            fprintf(stderr, "jnt sweep: error: more runs than the limit of %ld (set "
                            "JNT_MAX_SWEEP_RUNS=N to raise it)\n", sweep_max_runs());
            return 2;
        }
        nrun *= dims[i].n;
    }
    pl->nrun = nrun;
    pl->val = malloc((size_t)(nrun * pl->npar + 1) * sizeof *pl->val);
    pl->order = malloc((size_t)nrun * sizeof *pl->order);
    pl->item_start = malloc((size_t)(nrun + 1) * sizeof *pl->item_start);
    if (!pl->val || !pl->order || !pl->item_start)
        return bad_usage("%s", "out of memory");
    for (long r = 0; r < nrun; r++) {
        long q = r;
        for (int i = ndim - 1; i >= 0; i--) {
            long k = q % dims[i].n;
            q /= dims[i].n;
            for (int j = 0; j < dims[i].np; j++)
                pl->val[r * pl->npar + dims[i].name0 + j] = dims[i].v[k * dims[i].np + j];
        }
    }
    pl->cont = cont >= 0;
    long stride = 1;
    for (int i = ndim - 1; i > cont && cont >= 0; i--)
        stride *= dims[i].n;
    long no = 0;
    pl->nitem = 0;
    for (long r = 0; r < nrun; r++) {
        if (cont >= 0 && (r / stride) % dims[cont].n != 0)
            continue; /* inside a chain that starts at an earlier run */
        pl->item_start[pl->nitem++] = no;
        long len = cont >= 0 ? dims[cont].n : 1;
        for (long j = 0; j < len; j++)
            pl->order[no++] = r + j * stride;
    }
    pl->item_start[pl->nitem] = no;
    return 0;
}

/* The name a -D text sets (before '=', trimmed) into buf. */
static void def_name(const char *def, char *buf, size_t n)
{
    const char *eq = strchr(def, '='), *e = eq ? eq : def + strlen(def);
    while (*def == ' ' || *def == '\t')
        def++;
    while (e > def && (e[-1] == ' ' || e[-1] == '\t'))
        e--;
    snprintf(buf, n, "%.*s", (int)(e - def), def);
}

/* The table's comment line: the model's hash, the parameters the -D
 * options fix (by name, in the model's order, as SI values) and the
 * --continue parameter. 0, or 1 after a message. */
static int make_meta(sweep_opts *o, const jnt_model *m, jnt_data *d0, const char *cont)
{
    char err[1024];
    uint64_t h;
    if (sweep_model_hash(m, &h, err, sizeof err)) {
        fprintf(stderr, "jnt sweep: error: %s\n", err);
        return 1;
    }
    int np = jnt_param_count(m);
    size_t cap = 1;
    for (int i = 0; i < np; i++)
        cap += strlen(jnt_param_name(m, i)) + 34;
    char *fixed = calloc(cap, 1);
    if (!fixed)
        return 1;
    size_t len = 0;
    for (int i = 0; i < np; i++) {
        const char *nm = jnt_param_name(m, i);
        int set = 0;
        for (int k = 0; k < o->ndef && !set; k++) {
            char b[128];
            def_name(o->defs[k], b, sizeof b);
            set = !strcmp(b, nm);
        }
        if (!set)
            continue;
        char v[40];
        jnt_format_double(v, jnt_get_param(m, d0, i));
        len += (size_t)snprintf(fixed + len, cap - len, "%s%s=%s", len ? " " : "", nm, v);
    }
    o->meta = sweep_meta(h, fixed, cont);
    free(fixed);
    return o->meta ? 0 : 1;
}

/* Parse the options after the model file and compile; builds the plan.
 * 0, or the exit status after a message. */
static int setup(int argc, char **argv, sweep_opts *o, sweep_plan *pl, jnt_model **pm)
{
    sweep_dim dims[64];
    sweep_dist ds[64];
    const char *names[128];
    char err[1024];
    int ndim = 0, nd = 0, cont = -1;
    long nsamples = 0;
    uint64_t seed = 1;
    const char *cont_name = NULL;
    o->defs = calloc((size_t)argc + 1, sizeof *o->defs);
    if (!o->defs)
        return 2;
    /* first pass: everything but the parameter values, which need the model */
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (!strcmp(a, "-o") && more)
            o->table = argv[++i];
        else if (!strcmp(a, "-j") && more) {
            char *e;
            long j = strtol(argv[++i], &e, 10);
            if (*e || j < 1 || j > 1024)
                return bad_usage("-j needs a number of threads from 1 to 1024, not '%s'", argv[i]);
            o->jobs = (int)j;
        } else if (!strncmp(a, "-D", 2) && (a[2] || more))
            o->defs[o->ndef++] = a[2] ? a + 2 : argv[++i];
        else if ((!strcmp(a, "--grid") || !strcmp(a, "--list") || !strcmp(a, "--dist")) && more)
            i++;
        else if (!strcmp(a, "--samples") && more) {
            if (sweep_parse_count(argv[++i], &nsamples, err, sizeof err))
                return spec_failed(err);
        } else if (!strcmp(a, "--seed") && more) {
            char *e;
            seed = strtoull(argv[++i], &e, 10);
            if (*e)
                return bad_usage("--seed needs a whole number, not '%s'", argv[i]);
        } else if (!strcmp(a, "--continue") && more)
            cont_name = argv[++i];
        else if (!strcmp(a, "--keep-outputs") && more)
            o->keep = argv[++i];
        else if (!strcmp(a, "--resume"))
            o->resume = 1;
        else if (!strcmp(a, "--progress"))
            o->progress = 1;
        else if (!strcmp(a, "--allow-failures"))
            o->allow_failures = 1;
        else if (a[0] == '-' && !more && (!strcmp(a, "-o") || !strcmp(a, "-j") ||
                 !strncmp(a, "--", 2)))
            return bad_usage("option '%s' needs a value", a);
        else
            return bad_usage("unexpected argument '%s'", a);
    }
    if (o->resume && o->table && !strcmp(o->table, "-"))
        return bad_usage("%s", "--resume reads the table back: it needs -o FILE, not '-o -'");
    if (jnt_compile_file(o->model, NULL, pm) != JNT_OK)
        return 1;
    const jnt_model *m = *pm;
    jnt_data *d0 = jnt_data_new(m);
    if (!d0)
        return 1;
    value_ctx vc = {m, d0};
    sweep_spec_ctx spec = {si_value, &vc};
    int rc = 0;
    for (int i = 0; rc == 0 && i < o->ndef; i++)
        if (jnt_set_param_text(m, d0, o->defs[i]) != JNT_OK) {
            fprintf(stderr, "jnt sweep: error: %s\n", jnt_data_error(d0));
            rc = 2;
        }
    /* the fixed values, before the swept ones pass through d0 */
    if (rc == 0)
        rc = make_meta(o, m, d0, cont_name);
    /* second pass: the swept parameters, in order; the runs so far (the
     * samples count too) bound how many values the next factor may have */
    long runs = nsamples ? nsamples : 1;
    for (int i = 0; rc == 0 && i < argc; i++) {
        const char *a = argv[i];
        int g = !strcmp(a, "--grid"), l = !strcmp(a, "--list"), s = !strcmp(a, "--dist");
        if (!g && !l && !s)
            continue;
        if (ndim >= 63 || nd >= 64) {
            rc = bad_usage("%s", "too many swept parameters");
            break;
        }
        char *spec_text = argv[++i];
        const char *nm = NULL;
        if (s) {
            rc = sweep_parse_dist(spec_text, &spec, &ds[nd], err, sizeof err);
            if (rc)
                rc = spec_failed(err);
            nd++;
            continue;
        }
        memset(&dims[ndim], 0, sizeof dims[ndim]);
        long room = sweep_max_runs() / runs;
        rc = g ? sweep_parse_grid(spec_text, &spec, room, &nm, &dims[ndim], err, sizeof err)
               : sweep_parse_list(spec_text, &spec, room, &nm, &dims[ndim], err, sizeof err);
        if (rc) {
            rc = spec_failed(err);
            free(dims[ndim].v);
            break;
        }
        runs *= dims[ndim].n;
        dims[ndim].name0 = pl->npar;
        names[pl->npar++] = nm;
        if (cont_name && !strcmp(cont_name, nm))
            cont = ndim;
        ndim++;
    }
    if (rc == 0 && nd > 0 && !nsamples)
        rc = bad_usage("%s", "--dist needs --samples N");
    if (rc == 0 && nsamples && !nd)
        rc = bad_usage("%s", "--samples needs at least one --dist name=...");
    if (rc == 0 && nd) {
        dims[ndim] = (sweep_dim){nd, pl->npar, nsamples,
                                 malloc((size_t)(nsamples * nd) * sizeof(double))};
        if (!dims[ndim].v)
            rc = bad_usage("%s", "out of memory for the samples");
        else
            draw_samples(ds, nd, nsamples, seed, &dims[ndim]);
        for (int j = 0; j < nd; j++)
            names[pl->npar++] = ds[j].name;
        ndim++;
    }
    for (int i = 0; rc == 0 && i < pl->npar; i++)
        for (int j = 0; j < i; j++)
            if (!strcmp(names[i], names[j]))
                rc = bad_usage("parameter '%s' is swept twice", names[i]);
    /* a swept parameter is set by each run: a -D of it would be ignored */
    for (int k = 0; rc == 0 && k < o->ndef; k++) {
        char b[128];
        def_name(o->defs[k], b, sizeof b);
        for (int i = 0; rc == 0 && i < pl->npar; i++)
            if (!strcmp(b, names[i])) {
                fprintf(stderr, "jnt sweep: error: parameter '%s' is swept and fixed by -D %s: "
                                "give one of them\n(see 'jnt sweep --help')\n", b, o->defs[k]);
                rc = 2;
            }
    }
    if (rc == 0 && ndim == 0)
        rc = bad_usage("%s", "nothing to sweep: give --grid, --list or --samples");
    if (rc == 0 && cont_name && cont < 0)
        rc = bad_usage("--continue %s: not a --grid or --list parameter", cont_name);
    if (rc == 0) {
        pl->names = malloc((size_t)pl->npar * sizeof *pl->names);
        for (int i = 0; pl->names && i < pl->npar; i++)
            pl->names[i] = (char *)names[i];
        rc = pl->names ? make_plan(pl, dims, ndim, cont) : 2;
    }
    if (rc == 0 && !(o->meta = sweep_meta_units(o->meta, m, pl)))
        rc = 1;
    for (int i = 0; i < ndim; i++)
        free(dims[i].v);
    jnt_data_free(d0);
    return rc;
}

/* See sweep.h. */
int sweep_main(int argc, char **argv)
{
    if (argc >= 1 && (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h"))) {
        fputs(sweep_usage, stdout);
        return 0;
    }
    if (argc < 1 || argv[0][0] == '-')
        return bad_usage("%s", "'sweep' needs a model file");
    sweep_opts o = {.model = argv[0]};
    sweep_plan pl = {0};
    jnt_model *m = NULL;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    o.jobs = ncpu > 0 ? (int)ncpu : 1;
    int rc = setup(argc - 1, argv + 1, &o, &pl, &m);
    char *deflt = NULL;
    if (rc == 0 && !o.table) {
        const char *b = strrchr(o.model, '/') ? strrchr(o.model, '/') + 1 : o.model;
        size_t n = strlen(b);
        deflt = malloc(n + 12);
        if (deflt) {
            snprintf(deflt, n + 12, "%.*s.sweep.csv",
                     (int)(n > 4 && !strcmp(b + n - 4, ".jnt") ? n - 4 : n), b);
            o.table = deflt;
        }
    }
    if (rc == 0) {
        sweep_ctx c = {.o = &o, .m = m, .plan = &pl, .fd = -1};
#ifdef JNT_MPI
        rc = sweep_mpi(&c);
#else
        rc = sweep_execute(&c);
#endif
    }
    free(deflt);
    free(o.meta);
    free(o.defs);
    free(pl.names);
    free(pl.val);
    free(pl.order);
    free(pl.item_start);
    jnt_model_free(m);
    return rc;
}
