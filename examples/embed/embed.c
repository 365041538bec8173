/*
 * embed.c: embedding the jnt JIT in a C program through <jnt/jnt.h>.
 *
 * Compiles a model once, then runs it twice with a different parameter on
 * two data objects that share the model, and prints a result of each run.
 * Usage: embed [MODEL.jnt]   (default: examples/frdyn2_bench.jnt)
 *
 * With the friction test bench of Rill and Schuderer 2023 and a slow step (tE = 0.1 s), the
 * block sticks and settles at u = F_E / sigma0 (Rill and Schuderer 2023, Sect. 5): halving
 * the force halves the displacement.
 *
 * C and C++ alike: cc -std=c11 or g++ -std=c++11 (tests/trust/capi.sh builds it with both).
 */
#include <stdio.h>
#include <string.h>

#include "jnt/jnt.h"

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "examples/frdyn2_bench.jnt";
    jnt_model *m;
    if (jnt_compile_file(path, NULL, &m) != JNT_OK)
        return 1;
    const double ratios[2] = {0.95, 0.475};
    int iu = jnt_output_index(m, "u");
    if (iu < 0) {
        fprintf(stderr, "embed: the model has no output 'u'\n");
        jnt_model_free(m);
        return 1;
    }
    for (int k = 0; k < 2; k++) {
        jnt_data *d = jnt_data_new(m);
        jnt_run_opts opts;
        memset(&opts, 0, sizeof opts); /* zero-initialised, in C and in C++ */
        opts.csv_path = "";            /* no CSV: read the result directly */
        int rc = jnt_set_param(m, d, "ratio", ratios[k]);
        if (rc == JNT_OK)
            rc = jnt_set_param_text(m, d, "tE = 100 ms");
        if (rc == JNT_OK)
            rc = jnt_run(m, d, &opts);
        if (rc != JNT_OK) {
            fprintf(stderr, "embed: %s: %s\n", jnt_status_name(rc), jnt_data_error(d));
            jnt_data_free(d);
            jnt_model_free(m);
            return 1;
        }
        printf("ratio = %.3f: u(%.4g s) = %.6e m\n", ratios[k], jnt_time(d), jnt_output(m, d, iu));
        jnt_data_free(d);
    }
    jnt_model_free(m);
    return 0;
}
