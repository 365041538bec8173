/*
 * jnt/jnt.h: the public C API of jnt.
 *
 * A jnt_model is immutable once compiled (sizes, names, parameter defaults,
 * kernels). A jnt_data holds one simulation's parameters, state, statistics
 * and work memory; many data objects may share one model.
 *
 *   jnt_model *m;
 *   if (jnt_compile_file("bench.jnt", NULL, &m) != JNT_OK) ...;   // diagnostics on stderr
 *   jnt_data *d = jnt_data_new(m);
 *   jnt_set_param(m, d, "ratio", 0.99);
 *   jnt_run(m, d, NULL);                  // integrate from t0 to t_end
 *   double u = jnt_output(m, d, jnt_output_index(m, "u"));
 *   jnt_data_free(d); jnt_model_free(m);
 *
 * Status codes: 0 success, >0 informational, <0 error; every code has a name
 * (jnt_status_name) and a message (jnt_status_message). No function exits.
 *
 * Contracts (docs/embedding.md, "Ownership and contracts"): every function
 * checks its pointer arguments. One that returns a status returns
 * JNT_ERR_USAGE for a NULL pointer it needs, and a function of (m, d) also
 * for a d made for another model (jnt_data_new(m) makes d for m), with the
 * message in jnt_data_error(d) when d is given, on the diagnostics stream for
 * the compile calls. Getters of a NULL object return NULL, "", -1, 0 or NaN
 * as their comments say; the free functions take NULL. What a call hands
 * back to be freed names its free function (jnt_model_free, jnt_data_free,
 * free); const char * and const arrays returned belong to the model or data
 * object and live as long as it. A double free, a use after free, a pointer
 * to freed or too little memory, or a data object used by two threads at
 * once is undefined behaviour, as in the C library: the caller's.
 */
#ifndef JNT_H
#define JNT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "abi.h"

/* The library's version: the soname carries MAJOR (libjnt.so.MAJOR). */
#define JNT_VERSION_MAJOR 0
#define JNT_VERSION_MINOR 2
#define JNT_VERSION_PATCH 0
#define JNT_VERSION "0.2.0"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    JNT_PROJECTED = 2,      /* jnt_assemble moved a value set between steps (multibody) */
    JNT_STOPPED = 1,        /* the run was stopped by its row callback (jnt_run_opts) */
    JNT_OK = 0,
    JNT_ERR_MODEL = -1,     /* the model has errors (diagnostics were printed) */
    JNT_ERR_USAGE = -2,     /* wrong arguments to an API call or command */
    JNT_ERR_IO = -3,        /* a file could not be read or written */
    JNT_ERR_NOMEM = -4,     /* out of memory */
    JNT_ERR_PARAM = -5,     /* unknown parameter, bad value or unit mismatch */
    JNT_ERR_JIT = -6,       /* the in-memory C compiler failed (a jnt bug) */
    JNT_ERR_NONFINITE = -7, /* a state or derivative became NaN or infinite */
    JNT_ERR_NEWTON = -8,    /* Newton iteration of an implicit step diverged */
    JNT_ERR_HMIN = -9,      /* the step size fell below its minimum */
    JNT_ERR_SOLVER = -10,   /* an error reported by the ODE solver library */
    JNT_ERR_KERNEL = -11,   /* a model kernel reported a fatal error */
    JNT_ERR_CHAIN = -12     /* a quasi-static chain has no solution (macroslip) */
};

typedef struct jnt_model jnt_model;
typedef struct jnt_data jnt_data;

/* Counters of one run. */
typedef struct jnt_stats {
    long steps;         /* accepted steps */
    long rejected;      /* rejected steps (error test or Newton failure) */
    long rhs_evals;     /* right-hand-side evaluations */
    long jac_evals;     /* Jacobian evaluations */
    long lu_decomps;    /* matrix factorizations */
    long newton_iters;  /* Newton iterations */
    long out_rows;      /* CSV rows written */
    long chain_iters;   /* assumption arrays tried by the quasi-static chains */
    long chain_halvings;/* load increments the chains split in two */
    double cons_max;    /* multibody: largest |C(q, t)| after an accepted step (m, rad) */
    double cpu_seconds; /* CPU time spent integrating */
    double vcons_max;   /* multibody: largest |C_q v + C_t| after an accepted step (m/s,
                           1/s): imposed by hht and generalized_alpha (Newton's
                           tolerance), not by midpoint (its drift, O(h^2)) nor radau5
                           (met to the method's order); 0, not measured, in the
                           index-3 formulation (JNT_DAE_INDEX=3) */
    long projected;     /* multibody: values set between steps (jnt_set_state) that the
                           assembly could not keep and moved (jnt_assemble, jnt_advance) */
} jnt_stats;

/* Options of one run. Zero-initialise, then set what you need. */
typedef struct jnt_run_opts {
    const char *csv_path; /* output CSV: NULL = the model's own, "-" = stdout, "" = none */
    int progress;         /* 1: progress line on stderr; 2: only once the run
                             has lasted 0.5 s (jnt_sim_main's choice on a tty) */
    const char *integrator; /* NULL: the model's; else "rk4", "dopri5", "bdf", "radau",
                               "trapezoidal", "midpoint", "radau5"; multibody models: "hht",
                               "generalized_alpha", "midpoint", "radau5" (overrides
                               simulate { integrator = ... }) */
    double h, rtol, atol; /* > 0: override the model's step size / tolerances; 0: the
                             model's; negative or not finite: JNT_ERR_USAGE */
    double t_end;         /* != 0: stop at this time instead of the model's t_end */
    const char *steps_path; /* NULL: none; else a CSV of the accepted steps: t (the step's
                               end) and h (its size), one row a step */
    /* Output rows in memory, with or without a file (jnt_output_count(m)
     * values a row, the model's output columns in order). rows: a caller's
     * buffer of rows_cap (> 0) rows, filled in order; *rows_n (must be given
     * with rows) counts every row of the run, also those past rows_cap, which
     * are dropped: a run with *rows_n > rows_cap needs a larger buffer. rows
     * without rows_n or with rows_cap <= 0, or rows_cap > 0 without rows:
     * JNT_ERR_USAGE; rows_n without rows only counts the rows. on_row:
     * called with each row after it is stored; a non-zero return stops the
     * run with JNT_STOPPED (the state is then the last accepted step's). */
    double *rows;
    long rows_cap;
    long *rows_n;
    int (*on_row)(void *ctx, const double *row, int n);
    void *row_ctx;
    /* 1: start from d's current time and state (jnt_advance) instead of
     * t0 and the initial values; the statistics add up instead of starting
     * from 0, and the row at the start time is written only when no run
     * ended there (the first advance after jnt_init_state writes it), so a
     * run cut into pieces has its rows once. */
    int resume;
} jnt_run_opts;

/* The largest output a run of d may write, in bytes, estimated before it
 * starts (rows x columns): 0 = 1 GiB (the default), < 0 = no limit. A run
 * over it fails with JNT_ERR_PARAM before writing anything. Where the rows
 * cannot be counted before (an output every step of an adaptive method,
 * the --steps history), each file stops at the limit: the run fails with
 * JNT_ERR_PARAM there, its file whole up to the last row. (A function, not
 * a field of jnt_run_opts, so that bindings' copies of the struct stay valid.)
 * A NULL d: nothing. */
void jnt_set_max_output(jnt_data *d, double bytes);

/* A flag (a signal handler's volatile sig_atomic_t, or any int another
 * thread sets) that stops d's runs within one accepted step once it is
 * non-zero: the run returns JNT_STOPPED with its output closed, whole, up to
 * the last row written. NULL removes it. The flag must outlive the runs. */
void jnt_set_stop_flag(jnt_data *d, const volatile int *flag);

/* BLAS threads of this process's runs and compiles: n >= 1 sets that many,
 * 0 restores the default (OPENBLAS_NUM_THREADS when set, else 1: runs scale
 * by running many models, not by threading one), n < 0 only applies what is
 * set. jnt_run and jnt_compile_* apply it at their start. Returns the count
 * in effect. */
int jnt_blas_threads(int n);

/* Output files: the one routine every jnt command writes through (and an
 * embedding program may). jnt_outfile_open opens path for writing: "-" is
 * stdout; /dev/null is written in place; any other path must be a regular
 * file or not exist yet, in a folder that exists, and is never a symbolic
 * link, a directory, a FIFO, a device or a socket, nor one of `inputs` (real
 * paths, NULL-terminated, may be NULL: jnt_model_inputs). The bytes go to
 * the writer's own temporary file "<path>.jnt-<pid>-<n>.part", created
 * exclusively beside path (those a dead process left for the same path are
 * removed first). Returns JNT_OK and *f, or JNT_ERR_IO (the path refused,
 * the reason in err[errn]), JNT_ERR_NOMEM, JNT_ERR_USAGE (path or f NULL).
 * jnt_outfile_stream: where to write (NULL for a NULL f).
 * jnt_outfile_temp: the temporary file's path, for a program that writes the
 * output itself (gcc -o, gnuplot's output); NULL for stdout and /dev/null.
 * jnt_outfile_commit: checks every write and the close (stdout: the flush),
 * then renames the temporary file over path when it is a regular, non-empty
 * file and path is still a regular file or absent; on any failure the
 * temporary file is removed, a previous file at path stays, and JNT_ERR_IO
 * is returned with the reason in err (may be NULL). Frees f, also on failure.
 * jnt_outfile_discard: removes the temporary file, keeps a previous file,
 * frees f (NULL: nothing). Closing f's stream yourself is a double close. */
typedef struct jnt_outfile jnt_outfile;
int jnt_outfile_open(const char *path, const char *const *inputs, jnt_outfile **f, char *err,
                     size_t errn);
FILE *jnt_outfile_stream(jnt_outfile *f);
const char *jnt_outfile_temp(const jnt_outfile *f);
int jnt_outfile_commit(jnt_outfile *f, char *err, size_t errn);
void jnt_outfile_discard(jnt_outfile *f);

/* Name ("JNT_ERR_HMIN") and message ("step size underflow") of a status code. */
const char *jnt_status_name(int status);
const char *jnt_status_message(int status);

/* The candidate closest to `name` ("did you mean"): the smallest
 * case-insensitive optimal-string-alignment distance (a transposition
 * counts one), ties broken by the case-sensitive distance, then by order.
 * Returned only when the distance is at most max(1, strlen(name) / 3); else
 * NULL (also for a NULL name or cands). NULL entries of cands are skipped. */
const char *jnt_closest_name(const char *name, const char *const *cands, int n);

/* Compiler options. Zero-initialise; NULL options mean defaults. */
typedef struct jnt_compile_opts {
    FILE *diag;       /* where diagnostics go: NULL = stderr */
    int max_errors;   /* stop after this many errors: 0 = 20 */
    char ***inputs;   /* jnt_translate_file: non-NULL receives, on success, the real paths of
                         the files read (model, imports, data; NULL-terminated, the array and
                         its strings from malloc: the caller frees them), as
                         jnt_model_inputs gives them for a compiled model */
} jnt_compile_opts;
/* A model's data files, imports and output must stay in its directory (outputs: the working
 * directory); the environment variable JNT_ALLOW_PATH, ':'-separated directories, allows
 * more (jnt --allow-path DIR sets it; docs/cli.md, "Paths a model may name"). */

/* Compile a .jnt file (or a source string named `name`) and JIT it with
 * libtcc, in memory (libjnt.a and libjnt.so alike: no file, no process, no
 * compiler program). Thread-safe: the C compilation (libtcc keeps global
 * state) holds one process-wide lock, the rest of the compile and the runs
 * do not (docs/embedding.md, Threads). On success *out owns a new model and JNT_OK is returned; on model
 * errors diagnostics are printed and JNT_ERR_MODEL is returned. Other
 * failures, each after a one-line message on the diagnostics stream:
 * JNT_ERR_IO (the file cannot be read), JNT_ERR_NOMEM (out of memory: the
 * compiler's memory is freed and the process goes on; the call may be
 * retried), JNT_ERR_JIT, JNT_ERR_USAGE (path, name, text or out NULL). *out
 * is NULL on every failure (when out is given). */
int jnt_compile_file(const char *path, const jnt_compile_opts *opts, jnt_model **out);
int jnt_compile_string(const char *name, const char *text, const jnt_compile_opts *opts,
                       jnt_model **out);

/* Translate a .jnt file to C without compiling it (what jnt emit and jnt
 * build do): *csrc receives the generated C (malloc'd, NUL-terminated) and
 * *data, *ndata its model data (malloc'd; NULL and 0 when the model has
 * none); the caller frees both. With csrc NULL the model is only checked
 * (sema, no code generation: jnt check) and data, ndata may be NULL.
 * Returns JNT_OK, JNT_ERR_MODEL after diagnostics, JNT_ERR_IO when the file
 * cannot be read, or JNT_ERR_NOMEM after "jnt: error: out of memory" on the
 * diagnostics stream (nothing is returned in *csrc and *data then), or
 * JNT_ERR_USAGE after a message for a NULL path or csrc given without data
 * or ndata. */
int jnt_translate_file(const char *path, const jnt_compile_opts *opts, char **csrc,
                       double **data, long *ndata);

/* The compile cache (docs/cli.md, "Compile cache"): jnt_compile_file,
 * jnt_compile_string and jnt_translate_file (with csrc) keep what translating
 * a model produced (the C text, the model data, the files read, the warnings
 * printed) under $XDG_CACHE_HOME/jnt (default ~/.cache/jnt), keyed by the
 * bytes of the model, its imports and data files, the environment the
 * translation reads and the build of jnt; a hit skips parse, checks, the
 * setup library's reductions and the C generator, and gives the same C and
 * the same model data bit for bit (the JIT still runs). The environment:
 * JNT_CACHE=0 turns it off; JNT_CACHE_MB bounds its size (default 512 MB;
 * the least recently used entries go first). A corrupt, truncated or stale
 * entry is detected (a checksum, the key, each file's hash) and rebuilt.
 * -D values are not part of the key: compiling never reads them.
 * jnt_cache_clear removes every entry of the cache folder: the count
 * removed, or JNT_ERR_IO when the folder cannot be read (0 when there is
 * none). */
int jnt_cache_clear(void);

/* FNV-1a, 64 bits, of n bytes continuing the hash h (JNT_HASH64_START to
 * begin): the compile cache's keys and checksums, and jnt sweep's record of
 * the model (NULL bytes: h unchanged). Not a cryptographic hash. */
#define JNT_HASH64_START 0xcbf29ce484222325ULL
uint64_t jnt_hash64(uint64_t h, const void *bytes, size_t n);

/* The directory holding <jnt/abi.h> and <jnt/jnt.h>, for compiling
 * generated C: $JNT_INCLUDE, else the source tree's runtime/include. */
const char *jnt_include_dir(void);

/* Wrap generated kernels and their model data (abi->ndata doubles: the
 * blocks' matrices and rows, the interfaces' tables; NULL when ndata is 0)
 * in a new model. `owner` (may be NULL) keeps abi and data alive and is
 * released with owner_free(owner) by jnt_model_free. Checks the ABI
 * version, the sizes, the data offsets and that the required kernels are
 * present. Returns JNT_OK and *out, JNT_ERR_MODEL for an invalid abi,
 * JNT_ERR_NOMEM, or JNT_ERR_USAGE for NULL arguments. On failure the caller
 * still owns `owner`. */
int jnt_model_wrap(const jnt_abi_model *abi, const double *data, void *owner,
                   void (*owner_free)(void *), jnt_model **out);
/* The files m was compiled from: the model, its imports and its data files, as real paths,
 * NULL-terminated; NULL for a wrapped ABI unless set. A run refuses to write its output over
 * one of them (JNT_ERR_IO); NULL for a NULL m. jnt_model_set_inputs gives m such a list (m
 * takes it: the array and its strings, from malloc; the previous list is freed; a NULL m frees
 * the list given). */
const char *const *jnt_model_inputs(const jnt_model *m);
void jnt_model_set_inputs(jnt_model *m, char **inputs);
/* The input of m that path names (its real path), or NULL (also for a NULL m or path). */
const char *jnt_model_input_at(const jnt_model *m, const char *path);
/* Wrap generated kernels linked into the program (standalone builds: the
 * data is jnt_generated_data). The model borrows abi and data. */
int jnt_model_from_abi(const jnt_abi_model *abi, const double *data, jnt_model **out);
/* Free m and what it owns (its inputs, its JIT state: the kernels); NULL does nothing. Its
 * data objects must be freed first (they may be, after it, but not used). */
void jnt_model_free(jnt_model *m);
/* Its kernels (owned by the model; NULL for a NULL m). */
const jnt_abi_model *jnt_model_abi(const jnt_model *m);
/* Its model data (jnt_model_abi(m)->ndata doubles, owned by the model; NULL for a NULL m). */
const double *jnt_model_data(const jnt_model *m);

/* Names and indices; an index is -1 when the name is unknown (or m or name is NULL). */
int jnt_param_index(const jnt_model *m, const char *name);
int jnt_output_index(const jnt_model *m, const char *name);
int jnt_state_index(const jnt_model *m, const char *name);

/* A new data object for m with default parameters (the caller frees it with
 * jnt_data_free, before or after m, and uses it only while m lives), or NULL
 * when out of memory or m is NULL. jnt_data_free(NULL) does nothing. */
jnt_data *jnt_data_new(const jnt_model *m);
void jnt_data_free(jnt_data *d);

/* Set a parameter to a value in SI units. JNT_OK, or JNT_ERR_PARAM (an
 * unknown name, a value not finite; the message in jnt_data_error(d)). */
int jnt_set_param(const jnt_model *m, jnt_data *d, const char *name, double value);
/* Set a parameter from "name=value", value a number in SI units or a number
 * with a unit ("tE=0.3ms", "m = 2 kg"); the unit must match the parameter's
 * dimension. Errors are described by jnt_data_error. */
int jnt_set_param_text(const jnt_model *m, jnt_data *d, const char *assignment);
/* The current value of a parameter (after defaults were computed); NaN for
 * an index out of range, a NULL m or d, or a d of another model. */
double jnt_get_param(const jnt_model *m, jnt_data *d, int index);

/* Integrate from t0 to t_end, writing the CSV. On a failing step the CSV
 * written so far stays valid and the status says why; jnt_data_error has the
 * full message (time, offending state). */
int jnt_run(const jnt_model *m, jnt_data *d, const jnt_run_opts *opts);

/* Set d to the initial state (parameter defaults, t0, initial values)
 * without integrating, for jnt_eigenvalues or jnt_state at t0. */
int jnt_init_state(const jnt_model *m, jnt_data *d);

/* Eigenvalues (re[i], im[i], i < ny) of the Jacobian d(ydot)/dy at the
 * state held by d: the last state of jnt_run, or the initial state after
 * jnt_init_state. For a mechanical system, eigenvalues -zeta w +/- i w
 * sqrt(1 - zeta^2) give its natural frequencies w and damping ratios zeta. */
int jnt_eigenvalues(const jnt_model *m, jnt_data *d, double *re, double *im);

/* The completed right-hand side ydot = f(t, y) (ny values) and its
 * Jacobian J = df/dy (ny x ny, column-major) at (t, y) with d's parameters
 * and discrete state: the model's kernels with the gathered points, the
 * forces scattered through the basis rows and the blocks' reduced matrices,
 * exactly as the integrators see them. JNT_OK, JNT_ERR_KERNEL, or
 * JNT_ERR_NONFINITE (message in jnt_data_error(d)); JNT_ERR_USAGE for a NULL
 * y, ydot or J (allowed when ny is 0). */
int jnt_eval_rhs(const jnt_model *m, jnt_data *d, double t, const double *y, double *ydot);
int jnt_eval_jacobian(const jnt_model *m, jnt_data *d, double t, const double *y, double *J);

/* Run the analyses the model declares (`analysis NAME : linear(at = T)`,
 * `analysis NAME : hysteresis(...)`) with d's parameters, writing NAME.csv
 * (and NAME_cycles.csv for a hysteresis loop) into directory `dir` (NULL:
 * the current one). linear: the Jacobian's eigenvalues at time T of the
 * model's own simulation, with natural frequency and damping ratio;
 * hysteresis: the force-slip loop and the energy dissipated per cycle.
 * Returns JNT_OK or the first error (message in jnt_data_error(d)). */
int jnt_run_analyses(const jnt_model *m, jnt_data *d, const char *dir);

/* Last state and outputs of a run: NaN (jnt_data_stats: NULL) for a NULL
 * m or d, an index out of range, or a d of another model. */
double jnt_time(const jnt_data *d);
double jnt_state(const jnt_model *m, const jnt_data *d, int index);
double jnt_output(const jnt_model *m, const jnt_data *d, int index);
const jnt_stats *jnt_data_stats(const jnt_data *d);
/* Message of the last error on this data object, "" when none (or d is NULL). */
const char *jnt_data_error(const jnt_data *d);

/* Per-run results: the model's `summary` block (docs/sweeps.md). Their
 * number (0 for a NULL m), and the name of result i (NULL when out of range). */
int jnt_summary_count(const jnt_model *m);
const char *jnt_summary_name(const jnt_model *m, int i);
/* Compute the model's results (jnt_summary_count values into vals) from
 * the output file `path` that jnt_run wrote for d (a CSV, or a name ending
 * in ".npy"), each over its window from d's parameters. A result with no
 * row in its window is NaN. JNT_OK, JNT_ERR_IO or JNT_ERR_KERNEL (message
 * in jnt_data_error(d)), JNT_ERR_NOMEM, JNT_ERR_USAGE. */
int jnt_summarize(const jnt_model *m, jnt_data *d, const char *path, double *vals);
/* A run's whole state: the continuous states y (ny, as jnt_state reads
 * them), then the discrete states (nd): jnt_state_count(m) = ny + nd
 * values into buf. A model wrapped with an init kernel that writes them back
 * starts where d's run ended (how `jnt sweep --continue` chains runs).
 * JNT_OK or JNT_ERR_USAGE. jnt_state_count(NULL) is 0. */
int jnt_state_count(const jnt_model *m);
int jnt_get_full_state(const jnt_model *m, const jnt_data *d, double *buf);
/* The shortest text that reads back to exactly v, as the CSV writer prints
 * numbers ("0.1", "6.574118984296001e-09", "nan"), into buf (32 bytes at
 * least); returns its length, or -1 for a NULL buf. */
int jnt_format_double(char *buf, double v);

/* ---- stepping (MuJoCo's mj_step, here over output intervals) ----------
 * A data object holds a state at a time: after jnt_init_state (t0 and the
 * initial values), a run, or a step. jnt_advance integrates it on to time
 * t (> its time) as a run resumed from that state: opts as for jnt_run
 * (csv_path NULL means no file here; rows, on_row collect the rows after
 * the start), t_end and resume set by the call. Between calls, states
 * (jnt_set_state) and parameters (jnt_set_param) may change; the
 * integrator starts afresh at each call, so a run cut into pieces equals
 * the whole run exactly for fixed-step methods and to the tolerances for
 * adaptive ones. A data object without a state is first set to its initial
 * state. On a multibody model the positions and velocities set since the
 * last step are first assembled onto the joints as jnt_assemble does: kept
 * where the joints allow, else projected, each value moved counted in
 * stats.projected; the call still returns JNT_OK for them (jnt_assemble
 * before it says JNT_PROJECTED and names them). Returns as jnt_run. */
int jnt_advance(const jnt_model *m, jnt_data *d, double t, const jnt_run_opts *opts);
/* jnt_advance to the next point t0 + k every of the model's output grid
 * (the values set assembled first, as there); JNT_ERR_USAGE for a model
 * that writes every step (every = 0). */
int jnt_step(const jnt_model *m, jnt_data *d, const jnt_run_opts *opts);
/* Set state `index` (0 <= index < jnt_state_count(m): the continuous
 * states, then the discrete ones, as jnt_state_name names them). On a
 * multibody model a position or velocity set is marked: the state must
 * stay on its joints, so the next jnt_advance or jnt_step (or jnt_assemble,
 * at once) assembles it again with every value set since the last step
 * pinned, as the model's `init` pins are at the start (docs/multibody.md,
 * "States set between steps"). */
int jnt_set_state(const jnt_model *m, jnt_data *d, int index, double value);
/* Set the time and the whole state (jnt_get_full_state's layout); on a
 * multibody model the positions and velocities that differ from d's are
 * marked as jnt_set_state marks them. */
int jnt_set_full_state(const jnt_model *m, jnt_data *d, double t, const double *buf);
/* Multibody: assemble d's state at its time now. The positions and
 * velocities set since the last step are pinned (a set velocity is a rate
 * pin) and the other coordinates move by the least weighted change onto
 * C(q, t) = 0 and C_q v + C_t = 0; the multipliers follow. When the set
 * values contradict the joints or one another, the pins are taken one at a
 * time (positions, then velocities, the value set last first), each kept
 * when the state assembles with it and those kept before; the other values
 * move with the projection (the least change from the values set). Before
 * the first step the model's own pins apply too and give way first. The
 * marks stay until the next step, so values set one by one with a
 * jnt_assemble after each are all kept where they fit together.
 * Returns JNT_OK when every value set was kept (to 1e-9 (1 + |value|)),
 * JNT_PROJECTED (> 0) when one moved: stats.projected counts them and
 * jnt_data_error(d) names them ("'crank.angle.v' set to 5 is 10.97"),
 * or an error (JNT_ERR_MODEL: no pose closes the joints; the state stays as
 * set). jnt_advance and jnt_step do the same at their start and go on
 * (JNT_OK) after counting what moved in stats.projected. A model without
 * joints: JNT_OK, nothing to do. */
int jnt_assemble(const jnt_model *m, jnt_data *d);
/* The run's settings (t0, t_end, h, tolerances, output interval) with d's
 * parameters. JNT_OK, or JNT_ERR_KERNEL with the message in d. */
int jnt_get_settings(const jnt_model *m, jnt_data *d, jnt_settings *s);

/* ---- what a model declares (for bindings) ------------------------------ */
/* The library's version, "MAJOR.MINOR.PATCH" (JNT_VERSION of this header). */
const char *jnt_version(void);
/* The model's name and counts ("" and 0 for a NULL m). */
const char *jnt_model_name(const jnt_model *m);
int jnt_param_count(const jnt_model *m);
int jnt_output_count(const jnt_model *m);
/* Names (NULL when i is out of range or m is NULL); jnt_state_name covers the
 * jnt_state_count(m) states: continuous, then discrete. */
const char *jnt_param_name(const jnt_model *m, int i);
const char *jnt_output_name(const jnt_model *m, int i);
const char *jnt_state_name(const jnt_model *m, int i);
/* A parameter's SI unit as text ("m/s^2"; "" when dimensionless) into buf
 * (n bytes). JNT_OK or JNT_ERR_USAGE. */
int jnt_param_unit(const jnt_model *m, int i, char *buf, size_t n);
/* An output column's SI unit as text, the same way ("" when dimensionless or
 * unknown). JNT_OK or JNT_ERR_USAGE. */
int jnt_output_unit(const jnt_model *m, int i, char *buf, size_t n);

/* The command line shared by `jnt run` and standalone simulators:
 * [-D name=value]... [-o out.csv] [--stats] [--progress] [--help].
 * `prog` names the program in messages (NULL: "jnt-sim"); argv holds argc
 * arguments after the program's name. Returns the process exit status: 1
 * for a NULL m; 2 after a message for argc < 0, argv NULL with argc > 0 or
 * a NULL argv[i]. */
int jnt_sim_main(const jnt_model *m, const char *prog, int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif
