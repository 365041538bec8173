/*
 * iface_slide.h: models with sliding interfaces on seed 003's central
 * difference (internal; runtime/couple/iface_slide.c).
 */
#ifndef JNT_IFACE_SLIDE_H
#define JNT_IFACE_SLIDE_H

#include <stddef.h>

#include "io/csv.h"
#include "jnt/abi.h"
#include "jnt/jnt.h"
#include "slide.h"

/* The slide model of a generated model with interfaces at parameters p and
 * step h: every linear block a substructure (its external forces come from
 * the model's rhs kernel through the user pointer of slide_data_new, which
 * must be iface_run's context), every interface from its tables. 0 or a
 * status with a message in err. */
int iface_model(const jnt_model *m, const double *p, double h, slide_model **out, char *err,
                size_t errn);

/* The complex modes along interface `iface` (seed 003 Fig. 4): its slave
 * substructure translated along x by from .. to in `steps` steps, rigid
 * contact, the friction coefficients and the damping at time t and slip
 * speed `speed`, written to path as position,frequency,real,unstable. 0 or a
 * status with a message in err. */
int iface_locus(const jnt_model *m, const double *p, double h, int iface, double from,
                double to, int steps, double t, double speed, const char *path, char *err,
                size_t errn);

/* The user pointer the callbacks of iface_model's substructures need
 * outside a run (complex modes: no external forces; friction and damping
 * from the model's kernels at parameters p, which must outlive it), or
 * NULL when out of memory. Free with iface_modes_ctx_free. */
void *iface_modes_ctx(const jnt_model *m, const double *p);
void iface_modes_ctx_free(void *ctx);

/* Run model m from its initial state (already in d) over the settings s
 * with seed 003's central difference, writing the output grid to csv (may
 * be NULL); progress as integ_drive's. 0 or a status (message in d). */
int iface_run(const jnt_model *m, jnt_data *d, const jnt_settings *s, csv_writer *csv,
              int progress);

#endif
