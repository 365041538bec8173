/*
 * test_api_null.c: the C API's contracts on wrong pointers (issue 27,
 * finding 9): every public function of jnt.h called with each pointer
 * argument NULL, and with a data object of another model, gives its
 * documented result (JNT_ERR_USAGE, NULL, -1, NaN, 0 or nothing), with a
 * message where the function has a channel for one (jnt_data_error, the
 * diagnostics stream, stderr), and does not crash. Each call runs in a
 * child process, so that a crash fails its own check ("killed by signal
 * 11") and the others still run. Also jnt_run_opts.rows without rows_n or
 * with rows_cap <= 0 (was ignored: no rows, no error), and rows_n without
 * rows (counts the rows).
 */
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "jnt/jnt.h"

static const char *src =
    "model osc\n"
    "param k = 100 N/m\n"
    "body b : point(mass = 1 kg) { dof x }\n"
    "init b.x = 0.01 m\n"
    "spring s between b.x and ground { stiffness = k }\n"
    "simulate { integrator = rk4(h = 1 ms)  until = 0.1 s }\n"
    "output \"osc.csv\" every 10 ms { t, x = b.x }\n";

/* Run `cond` in a child process: the check passes when it exits 0 (the
 * condition held); a crash names its signal. */
#define SAFE(cond, ...)                                                          \
    do {                                                                         \
        fflush(stdout);                                                          \
        fflush(stderr);                                                          \
        pid_t p_ = fork();                                                       \
        if (p_ == 0)                                                             \
            _exit((cond) ? 0 : 1);                                               \
        int st_ = 0;                                                             \
        waitpid(p_, &st_, 0);                                                    \
        if (WIFSIGNALED(st_))                                                    \
            printf("  (killed by signal %d:)\n", WTERMSIG(st_));                 \
        CHECK(p_ > 0 && WIFEXITED(st_) && WEXITSTATUS(st_) == 0, __VA_ARGS__);   \
    } while (0)

static jnt_model *m, *m2; /* m2: another model, for a data object of the wrong one */
static jnt_data *d, *d2;

/* The diagnostics stream of the compile calls, and what it holds. */
static FILE *diag;
static char diag_text[1024];

static const char *diag_read(void)
{
    fflush(diag);
    rewind(diag);
    size_t n = fread(diag_text, 1, sizeof diag_text - 1, diag);
    diag_text[n] = '\0';
    return diag_text;
}

/* The call returned JNT_ERR_USAGE and jnt_data_error(d) names `what`. */
static int usage_msg(int rc, const jnt_data *e, const char *what)
{
    return rc == JNT_ERR_USAGE && strstr(jnt_data_error(e), what) != NULL;
}

/* The compile call returned JNT_ERR_USAGE, cleared *out and wrote a message naming `what`
 * (out is read here, after the call: not an argument evaluated beside it). */
static int compile_usage(int rc, jnt_model *const *out, const char *what)
{
    const char *t = diag_read();
    return rc == JNT_ERR_USAGE && !*out && strstr(t, "jnt: error: ") && strstr(t, what);
}

static void compiler(void)
{
    jnt_compile_opts o = {.diag = diag};
    jnt_model *x = (jnt_model *)&o; /* not NULL: the call must clear it */
    SAFE(compile_usage(jnt_compile_file(NULL, &o, &x), &x, "path"),
         "jnt_compile_file(NULL path): JNT_ERR_USAGE, *out NULL, a message");
    SAFE(jnt_compile_file("osc.jnt", &o, NULL) == JNT_ERR_USAGE && strstr(diag_read(), "out"),
         "jnt_compile_file(NULL out): JNT_ERR_USAGE and a message");
    SAFE(compile_usage(jnt_compile_string(NULL, src, &o, &x), &x, "name"),
         "jnt_compile_string(NULL name): JNT_ERR_USAGE, *out NULL, a message");
    SAFE(compile_usage(jnt_compile_string("osc", NULL, &o, &x), &x, "text"),
         "jnt_compile_string(NULL text): JNT_ERR_USAGE, *out NULL, a message");
    SAFE(jnt_compile_string("osc", src, &o, NULL) == JNT_ERR_USAGE,
         "jnt_compile_string(NULL out): JNT_ERR_USAGE");
    char *c = (char *)src;
    double *data = NULL;
    long nd = 0;
    SAFE(jnt_translate_file(NULL, &o, &c, &data, &nd) == JNT_ERR_USAGE && !c &&
             strstr(diag_read(), "path"),
         "jnt_translate_file(NULL path): JNT_ERR_USAGE, *csrc NULL, a message");
    SAFE(jnt_translate_file("x.jnt", &o, &c, NULL, &nd) == JNT_ERR_USAGE &&
             strstr(diag_read(), "data"),
         "jnt_translate_file(csrc with NULL data): JNT_ERR_USAGE, a message");
    SAFE(jnt_translate_file("x.jnt", &o, &c, &data, NULL) == JNT_ERR_USAGE &&
             strstr(diag_read(), "ndata"),
         "jnt_translate_file(csrc with NULL ndata): JNT_ERR_USAGE, a message");
    SAFE(jnt_translate_file("/nonexistent/x.jnt", &o, NULL, NULL, NULL) == JNT_ERR_IO,
         "jnt_translate_file(NULL csrc, data, ndata): a check only (here JNT_ERR_IO)");
    /* NULL options are the defaults (diagnostics on stderr) */
    SAFE(jnt_compile_file(NULL, NULL, &x) == JNT_ERR_USAGE && !x,
         "jnt_compile_file(NULL path, NULL opts): JNT_ERR_USAGE");
}

static void model_calls(void)
{
    jnt_model *x = (jnt_model *)&x;
    SAFE(jnt_model_wrap(NULL, NULL, NULL, NULL, &x) == JNT_ERR_USAGE && !x, /* && orders them */
         "jnt_model_wrap(NULL abi): JNT_ERR_USAGE, *out NULL");
    SAFE(jnt_model_wrap(jnt_model_abi(m), jnt_model_data(m), NULL, NULL, NULL) == JNT_ERR_USAGE,
         "jnt_model_wrap(NULL out): JNT_ERR_USAGE");
    SAFE(jnt_model_from_abi(NULL, NULL, &x) == JNT_ERR_USAGE && !x,
         "jnt_model_from_abi(NULL abi): JNT_ERR_USAGE");
    SAFE(jnt_model_from_abi(jnt_model_abi(m), jnt_model_data(m), NULL) == JNT_ERR_USAGE,
         "jnt_model_from_abi(NULL out): JNT_ERR_USAGE");
    SAFE((jnt_model_free(NULL), 1), "jnt_model_free(NULL): nothing");
    SAFE(!jnt_model_abi(NULL) && !jnt_model_data(NULL) && !jnt_model_inputs(NULL),
         "jnt_model_abi, jnt_model_data, jnt_model_inputs (NULL): NULL");
    SAFE(!jnt_model_input_at(NULL, "x") && !jnt_model_input_at(m, NULL),
         "jnt_model_input_at(NULL m or path): NULL");
    SAFE((jnt_model_set_inputs(NULL, NULL), jnt_model_set_inputs(NULL, calloc(1, sizeof(char *))),
          1),
         "jnt_model_set_inputs(NULL m): nothing (the list is freed)");
    SAFE(jnt_param_index(NULL, "k") == -1 && jnt_param_index(m, NULL) == -1 &&
             jnt_output_index(NULL, "x") == -1 && jnt_output_index(m, NULL) == -1 &&
             jnt_state_index(NULL, "b.x") == -1 && jnt_state_index(m, NULL) == -1,
         "jnt_param_index, jnt_output_index, jnt_state_index (NULL m or name): -1");
    SAFE(!strcmp(jnt_model_name(NULL), "") && jnt_param_count(NULL) == 0 &&
             jnt_output_count(NULL) == 0 && jnt_state_count(NULL) == 0 &&
             jnt_summary_count(NULL) == 0,
         "jnt_model_name (\"\"), the counts (0) of a NULL model");
    SAFE(!jnt_param_name(NULL, 0) && !jnt_output_name(NULL, 0) && !jnt_state_name(NULL, 0) &&
             !jnt_summary_name(NULL, 0),
         "jnt_param_name, jnt_output_name, jnt_state_name, jnt_summary_name (NULL m): NULL");
    char buf[32];
    SAFE(jnt_param_unit(NULL, 0, buf, sizeof buf) == JNT_ERR_USAGE &&
             jnt_param_unit(m, 0, NULL, 8) == JNT_ERR_USAGE &&
             jnt_output_unit(NULL, 0, buf, sizeof buf) == JNT_ERR_USAGE &&
             jnt_output_unit(m, 0, NULL, 8) == JNT_ERR_USAGE,
         "jnt_param_unit, jnt_output_unit (NULL m or buf): JNT_ERR_USAGE");
    SAFE(!jnt_data_new(NULL), "jnt_data_new(NULL): NULL");
    SAFE((jnt_data_free(NULL), 1), "jnt_data_free(NULL): nothing");
}

static void names_and_text(void)
{
    const char *cands[] = {"stiffness", NULL, "mass"};
    SAFE(!jnt_closest_name(NULL, cands, 3), "jnt_closest_name(NULL name): NULL");
    SAFE(!jnt_closest_name("stifness", NULL, 3), "jnt_closest_name(NULL cands): NULL");
    SAFE(jnt_closest_name("stifness", cands, 3) == cands[0],
         "jnt_closest_name skips a NULL candidate");
    SAFE(jnt_format_double(NULL, 0.1) == -1, "jnt_format_double(NULL buf): -1");
    SAFE(jnt_status_name(12345) && jnt_status_message(12345) && jnt_include_dir() &&
             jnt_version(),
         "functions without pointer arguments return text");
}

static void data_calls(void)
{
    double v[4], re[4], im[4], J[16];
    jnt_settings s;
    SAFE(jnt_set_param(NULL, d, "k", 1) == JNT_ERR_USAGE && jnt_set_param(m, NULL, "k", 1) ==
             JNT_ERR_USAGE && usage_msg(jnt_set_param(m, d, NULL, 1), d, "name"),
         "jnt_set_param (NULL m, d or name): JNT_ERR_USAGE, a message");
    SAFE(usage_msg(jnt_set_param(m, d2, "k", 1), d2, "another model"),
         "jnt_set_param with a data object of another model: JNT_ERR_USAGE, a message");
    SAFE(jnt_set_param_text(NULL, d, "k=1") == JNT_ERR_USAGE &&
             jnt_set_param_text(m, NULL, "k=1") == JNT_ERR_USAGE &&
             usage_msg(jnt_set_param_text(m, d, NULL), d, "assignment") &&
             usage_msg(jnt_set_param_text(m, d2, "k=1"), d2, "another model"),
         "jnt_set_param_text (NULL m, d or text; another model's d): JNT_ERR_USAGE");
    SAFE(isnan(jnt_get_param(NULL, d, 0)) && isnan(jnt_get_param(m, NULL, 0)) &&
             isnan(jnt_get_param(m, d2, 0)),
         "jnt_get_param (NULL m or d; another model's d): NaN");
    jnt_run_opts o = {.csv_path = ""};
    SAFE(jnt_run(NULL, d, &o) == JNT_ERR_USAGE && jnt_run(m, NULL, &o) == JNT_ERR_USAGE &&
             usage_msg(jnt_run(m, d2, &o), d2, "another model"),
         "jnt_run (NULL m or d; another model's d): JNT_ERR_USAGE");
    SAFE(jnt_init_state(NULL, d) == JNT_ERR_USAGE && jnt_init_state(m, NULL) == JNT_ERR_USAGE &&
             usage_msg(jnt_init_state(m, d2), d2, "another model"),
         "jnt_init_state (NULL m or d; another model's d): JNT_ERR_USAGE");
    SAFE(jnt_eigenvalues(NULL, d, re, im) == JNT_ERR_USAGE &&
             jnt_eigenvalues(m, NULL, re, im) == JNT_ERR_USAGE &&
             usage_msg(jnt_eigenvalues(m, d, NULL, im), d, "re") &&
             usage_msg(jnt_eigenvalues(m, d, re, NULL), d, "im"),
         "jnt_eigenvalues (NULL m, d, re or im): JNT_ERR_USAGE, a message");
    double y[2] = {0, 0};
    SAFE(jnt_eval_rhs(NULL, d, 0, y, v) == JNT_ERR_USAGE &&
             jnt_eval_rhs(m, NULL, 0, y, v) == JNT_ERR_USAGE &&
             usage_msg(jnt_eval_rhs(m, d, 0, NULL, v), d, "y") &&
             usage_msg(jnt_eval_rhs(m, d, 0, y, NULL), d, "ydot"),
         "jnt_eval_rhs (NULL m, d, y or ydot): JNT_ERR_USAGE, a message");
    SAFE(jnt_eval_jacobian(NULL, d, 0, y, J) == JNT_ERR_USAGE &&
             jnt_eval_jacobian(m, NULL, 0, y, J) == JNT_ERR_USAGE &&
             usage_msg(jnt_eval_jacobian(m, d, 0, NULL, J), d, "y") &&
             usage_msg(jnt_eval_jacobian(m, d, 0, y, NULL), d, "J"),
         "jnt_eval_jacobian (NULL m, d, y or J): JNT_ERR_USAGE, a message");
    SAFE(jnt_run_analyses(NULL, d, NULL) == JNT_ERR_USAGE &&
             jnt_run_analyses(m, NULL, NULL) == JNT_ERR_USAGE,
         "jnt_run_analyses (NULL m or d): JNT_ERR_USAGE");
    SAFE(isnan(jnt_time(NULL)) && isnan(jnt_state(NULL, d, 0)) && isnan(jnt_state(m, NULL, 0)) &&
             isnan(jnt_output(NULL, d, 0)) && isnan(jnt_output(m, NULL, 0)),
         "jnt_time, jnt_state, jnt_output (NULL m or d): NaN");
    SAFE(isnan(jnt_state(m2, d, 0)) && isnan(jnt_output(m2, d, 0)),
         "jnt_state, jnt_output with another model's d: NaN");
    SAFE(!jnt_data_stats(NULL) && !strcmp(jnt_data_error(NULL), ""),
         "jnt_data_stats (NULL), jnt_data_error (\"\") of a NULL data object");
    SAFE((jnt_set_max_output(NULL, 1e6), 1), "jnt_set_max_output(NULL): nothing");
    static volatile int flag;
    SAFE((jnt_set_stop_flag(NULL, &flag), 1), "jnt_set_stop_flag(NULL d): nothing");
    SAFE(jnt_summarize(NULL, d, "x.csv", v) == JNT_ERR_USAGE &&
             jnt_summarize(m, NULL, "x.csv", v) == JNT_ERR_USAGE &&
             usage_msg(jnt_summarize(m, d, NULL, v), d, "path") &&
             usage_msg(jnt_summarize(m, d, "x.csv", NULL), d, "vals"),
         "jnt_summarize (NULL m, d, path or vals): JNT_ERR_USAGE, a message");
    SAFE(jnt_get_full_state(NULL, d, v) == JNT_ERR_USAGE &&
             jnt_get_full_state(m, NULL, v) == JNT_ERR_USAGE &&
             jnt_get_full_state(m, d, NULL) == JNT_ERR_USAGE,
         "jnt_get_full_state (NULL m, d or buf): JNT_ERR_USAGE");
    SAFE(jnt_advance(NULL, d, 1, NULL) == JNT_ERR_USAGE &&
             jnt_advance(m, NULL, 1, NULL) == JNT_ERR_USAGE &&
             usage_msg(jnt_advance(m, d2, 1, NULL), d2, "another model"),
         "jnt_advance (NULL m or d; another model's d): JNT_ERR_USAGE");
    SAFE(jnt_step(NULL, d, NULL) == JNT_ERR_USAGE && jnt_step(m, NULL, NULL) == JNT_ERR_USAGE,
         "jnt_step (NULL m or d): JNT_ERR_USAGE");
    SAFE(jnt_step(m, d, NULL) == JNT_OK && jnt_time(d) > 0,
         "jnt_step(NULL opts): the defaults, one step");
    SAFE(jnt_set_state(NULL, d, 0, 1) == JNT_ERR_USAGE &&
             jnt_set_state(m, NULL, 0, 1) == JNT_ERR_USAGE,
         "jnt_set_state (NULL m or d): JNT_ERR_USAGE");
    SAFE(jnt_assemble(NULL, d) == JNT_ERR_USAGE && jnt_assemble(m, NULL) == JNT_ERR_USAGE,
         "jnt_assemble (NULL m or d): JNT_ERR_USAGE");
    SAFE(jnt_set_full_state(NULL, d, 0, v) == JNT_ERR_USAGE &&
             jnt_set_full_state(m, NULL, 0, v) == JNT_ERR_USAGE &&
             usage_msg(jnt_set_full_state(m, d, 0, NULL), d, "buf"),
         "jnt_set_full_state (NULL m, d or buf): JNT_ERR_USAGE, a message");
    SAFE(jnt_get_settings(NULL, d, &s) == JNT_ERR_USAGE &&
             jnt_get_settings(m, NULL, &s) == JNT_ERR_USAGE &&
             usage_msg(jnt_get_settings(m, d, NULL), d, "s"),
         "jnt_get_settings (NULL m, d or s): JNT_ERR_USAGE, a message");
}

/* jnt_run_opts.rows: a buffer needs its counter and a size; a counter alone counts. */
static void rows_opts(void)
{
    double rows[64];
    long n = 0;
    jnt_run_opts o = {.csv_path = "", .rows = rows, .rows_cap = 32};
    SAFE(usage_msg(jnt_run(m, d, &o), d, "rows_n"),
         "rows without rows_n: JNT_ERR_USAGE naming rows_n (was ignored)");
    o = (jnt_run_opts){.csv_path = "", .rows = rows, .rows_n = &n};
    SAFE(usage_msg(jnt_run(m, d, &o), d, "rows_cap") && n == 0,
         "rows with rows_cap 0: JNT_ERR_USAGE naming rows_cap");
    o.rows_cap = -1;
    SAFE(usage_msg(jnt_run(m, d, &o), d, "rows_cap"), "rows with rows_cap -1: JNT_ERR_USAGE");
    o = (jnt_run_opts){.csv_path = "", .rows_cap = 32, .rows_n = &n};
    SAFE(usage_msg(jnt_run(m, d, &o), d, "rows"), "rows_cap without rows: JNT_ERR_USAGE");
    o = (jnt_run_opts){.csv_path = "", .rows_n = &n};
    SAFE(jnt_run(m, d, &o) == JNT_OK && n == 11, "rows_n without rows counts the rows (11)");
    o = (jnt_run_opts){.csv_path = "", .rows = rows, .rows_cap = 32, .rows_n = &n};
    n = 0;
    SAFE(jnt_run(m, d, &o) == JNT_OK && n == 11 && rows[2 * 10] > 0.0999,
         "rows with rows_n and rows_cap: 11 rows, the last at t = 0.1 s");
    /* negative or non-finite h, rtol, atol, t_end: a misuse (they were ignored) */
    o = (jnt_run_opts){.csv_path = "", .h = -1};
    SAFE(usage_msg(jnt_run(m, d, &o), d, "h = -1"), "h = -1: JNT_ERR_USAGE (was ignored)");
    o = (jnt_run_opts){.csv_path = "", .h = NAN};
    SAFE(usage_msg(jnt_run(m, d, &o), d, "h = nan"), "h = nan: JNT_ERR_USAGE (was ignored)");
    o = (jnt_run_opts){.csv_path = "", .rtol = -1};
    SAFE(usage_msg(jnt_run(m, d, &o), d, "rtol = -1"), "rtol = -1: JNT_ERR_USAGE");
    o = (jnt_run_opts){.csv_path = "", .atol = INFINITY};
    SAFE(usage_msg(jnt_run(m, d, &o), d, "atol = inf"), "atol = inf: JNT_ERR_USAGE");
    o = (jnt_run_opts){.csv_path = "", .t_end = NAN};
    SAFE(usage_msg(jnt_run(m, d, &o), d, "t_end = nan"), "t_end = nan: JNT_ERR_USAGE");
}

/* jnt_sim_main: a NULL model, argv NULL or holding NULL: exit 1 or 2 with a message. */
static void sim_main(void)
{
    char *none[] = {NULL};
    SAFE(jnt_sim_main(NULL, "sim", 0, NULL) == 1, "jnt_sim_main(NULL m): exit 1");
    SAFE(jnt_sim_main(m, NULL, 1, NULL) == 2, "jnt_sim_main(argc 1, argv NULL): exit 2");
    SAFE(jnt_sim_main(m, "sim", 1, none) == 2, "jnt_sim_main(argv[0] NULL): exit 2");
    SAFE(jnt_sim_main(m, "sim", -1, NULL) == 2, "jnt_sim_main(argc -1): exit 2");
}

/* The output routine (jnt_outfile_*): NULL path or out, commit of NULL: JNT_ERR_USAGE with a
 * message; stream, temp of NULL: NULL; discard of NULL: nothing. */
static void outfile_calls(void)
{
    jnt_outfile *f = (jnt_outfile *)1;
    char err[256];
    SAFE(jnt_outfile_open(NULL, NULL, &f, err, sizeof err) == JNT_ERR_USAGE && !f &&
             strstr(err, "path"), "jnt_outfile_open(NULL path): JNT_ERR_USAGE, *f NULL, a message");
    SAFE(jnt_outfile_open("x.csv", NULL, NULL, err, sizeof err) == JNT_ERR_USAGE &&
             strstr(err, "out"), "jnt_outfile_open(NULL out): JNT_ERR_USAGE");
    SAFE(jnt_outfile_open(NULL, NULL, &f, NULL, 0) == JNT_ERR_USAGE,
         "jnt_outfile_open with no error buffer: JNT_ERR_USAGE");
    SAFE(jnt_outfile_commit(NULL, err, sizeof err) == JNT_ERR_USAGE && strstr(err, "NULL"),
         "jnt_outfile_commit(NULL): JNT_ERR_USAGE");
    SAFE(!jnt_outfile_stream(NULL) && !jnt_outfile_temp(NULL),
         "jnt_outfile_stream, _temp(NULL): NULL");
    SAFE((jnt_outfile_discard(NULL), 1), "jnt_outfile_discard(NULL): nothing");
}

int main(void)
{
    diag = tmpfile();
    jnt_compile_opts o = {.diag = stderr};
    if (!diag || jnt_compile_string("osc.jnt", src, &o, &m) != JNT_OK ||
        jnt_compile_string("osc2.jnt", src, &o, &m2) != JNT_OK) {
        CHECK(0, "the test model compiles");
        return check_done();
    }
    d = jnt_data_new(m);
    d2 = jnt_data_new(m2);
    compiler();
    model_calls();
    names_and_text();
    data_calls();
    rows_opts();
    sim_main();
    outfile_calls();
    jnt_data_free(d);
    jnt_data_free(d2);
    jnt_model_free(m);
    jnt_model_free(m2);
    fclose(diag);
    return check_done();
}
