/*
 * test_car_pendulum_full.c: examples/car_pendulum.jnt with its sheet left
 * unreduced (issue 30 item 5): the 1.25 mm mesh's 3212 DOFs, 3200 elastic
 * coordinates after the clamp, beyond JNT_MAX_BLOCK (1024), as a sparse
 * flexible2d body (core/flex.c, JNT_BLOCK_FFRF_SPARSE), every one of the
 * 480 contact pairs and friction elements on the physical nodes.
 *   - size: it compiles, its block is the sparse one with more than 1024
 *     coordinates, and it runs (FORCE0 with friction, the file's adaptive
 *     HHT) over the first 20 ms of the load ramp;
 *   - agreement with the example's reduced model (5 NM + 6 static shapes +
 *     JTVs, 27 coordinates) over those 20 ms, row by row (every 1 ms): the
 *     point mass y_pm within 1e-3 of its largest value, the car y_c within
 *     0.1 of its largest. Why these bounds: the basis holds the static shapes at the
 *     load node, so the quasi-static bending under the ramp, which is
 *     almost all of y_pm, is the same in both; what differs is the
 *     truncated modes' dynamic response and the contact pairs' forces
 *     through the basis (measured: 1.7e-4 of y_pm; 1.9e-8 m of y_c, 3.6 %
 *     of its largest value, 0.5 um: the car barely moves yet and answers
 *     the sheet's root forces, where the truncated modes weigh most). A defect in the
 *     sparse terms (a lost entry, a wrong sign of M P) moves y_pm by its
 *     own size, not by 1e-3.
 * The CPU of both runs is printed (INFO) beside the paper's 0.2 %; make
 * bench section 12 measures it over longer spans.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/model.h"
#include "csvread.h"
#include "jnt/jnt.h"
#include "lap3.h"

static const char *model_path = "examples/car_pendulum.jnt";

/* Run the example with `reduce` ("" unreduced, NULL the file's) to 20 ms;
 * its CSV into *t, its CPU into *cpu, its block's flags and coordinates. */
static int run(const char *tag, const char *reduce, csv_table *t, double *cpu, int *flags,
               int *r)
{
    char *text = lap3_text(model_path, "car_pendulum/", "examples/car_pendulum", reduce, NULL, 1);
    jnt_model *m = NULL;
    int rc = text ? jnt_compile_string(tag, text, NULL, &m) : JNT_ERR_IO;
    free(text);
    memset(t, 0, sizeof *t);
    CHECK(rc == JNT_OK, "%s compiles", tag);
    if (rc != JNT_OK)
        return rc;
    *flags = m->abi->nblocks == 1 ? m->abi->blocks[0].flags : -1;
    *r = m->abi->nblocks == 1 ? m->abi->blocks[0].r : -1;
    char csv[512];
    snprintf(csv, sizeof csv, "%s.csv", test_out(tag));
    jnt_data *d = jnt_data_new(m);
    rc = jnt_set_param_text(m, d, "t_end = 20 ms");
    jnt_run_opts o = {0};
    o.csv_path = csv;
    if (rc == JNT_OK)
        rc = jnt_run(m, d, &o);
    CHECK(rc == JNT_OK, "%s runs 20 ms (%s)", tag, rc == JNT_OK ? "ok" : jnt_data_error(d));
    const jnt_stats *st = jnt_data_stats(d);
    *cpu = st->cpu_seconds;
    printf("INFO: %s: %ld steps, %ld rejected, cpu %.3g s\n", tag, st->steps, st->rejected,
           st->cpu_seconds);
    jnt_data_free(d);
    jnt_model_free(m);
    if (rc == JNT_OK && csv_load(csv, t) != 0)
        rc = JNT_ERR_IO;
    return rc;
}

int main(void)
{
    (void)lap3_data; /* lap3.h's generator: the committed mesh is test_car_pendulum's */
    csv_table tf, tr;
    double cf = 0, cr = 0;
    int ff = 0, rf = 0, fr = 0, rr = 0;
    int rc = run("cpfull_full", "", &tf, &cf, &ff, &rf);
    CHECK(rc == JNT_OK && (ff & JNT_BLOCK_FFRF_SPARSE) && rf > 1024,
          "unreduced: the sparse block with %d elastic coordinates (> 1024)", rf);
    rc |= run("cpfull_red", NULL, &tr, &cr, &fr, &rr);
    CHECK(!(fr & JNT_BLOCK_FFRF_SPARSE) && rr < 64, "reduced: a dense block of %d", rr);
    if (rc == JNT_OK) {
        const double *ypf = csv_col(&tf, "y_pm"), *ypr = csv_col(&tr, "y_pm");
        const double *ycf = csv_col(&tf, "y_c"), *ycr = csv_col(&tr, "y_c");
        CHECK(tf.nrow == 21 && tr.nrow == 21 && ypf && ypr && ycf && ycr,
              "21 rows each (%d, %d)", tf.nrow, tr.nrow);
        double ey = 0, my = 0, ec = 0, mc = 0;
        for (int i = 0; ypf && ypr && ycf && ycr && i < tf.nrow && i < tr.nrow; i++) {
            ey = fmax(ey, fabs(ypf[i] - ypr[i])), my = fmax(my, fabs(ypf[i]));
            ec = fmax(ec, fabs(ycf[i] - ycr[i])), mc = fmax(mc, fabs(ycf[i]));
        }
        MEASURE("cpfull.ypm_rel", ey / my);
        MEASURE("cpfull.yc_rel", ec / mc);
        MEASURE("cpfull.yc_max", mc);
        MEASURE("cpfull.r", rf);
        CHECK(my > 1e-3 && ey <= 1e-3 * my, "y_pm: unreduced against reduced %.3g m of %.3g m "
              "(1e-3 of it)", ey, my);
        CHECK(ec <= 0.1 * mc, "y_c: unreduced against reduced %.3g m of %.3g m (0.1 of it)", ec,
              mc);
        printf("INFO: CPU over 20 ms: reduced %.3g s, unreduced %.3g s: %.2f %% (seed 000: 0.2 %% "
               "over the whole run)\n", cr, cf, 100 * cr / cf);
    }
    csv_free(&tf);
    csv_free(&tr);
    return check_done();
}
