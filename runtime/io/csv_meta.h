/*
 * csv_meta.h: the comment lines after a run's CSV header (internal): the
 * columns' units and the run's provenance, so an output file says what it
 * holds without the model beside it (docs/cli.md, "Output files").
 */
#ifndef JNT_CSV_META_H
#define JNT_CSV_META_H

#include "io/csv.h"
#include "jnt/jnt.h"

/* Write, after the header of w (a run of m with the parameters in d, by the
 * integrator named integ):
 *   # units: s,m,m/s,N        one field a column, "" when dimensionless
 *   # jnt 0.2.0: model NAME from SOURCE; integrator I; parameters a = 1 N, ...
 * Nothing for a stream, .npy or .mat. On failure w is closed and the
 * message is in d. Returns 0 or a JNT_ERR_* status. */
int csv_meta(csv_writer *w, const jnt_model *m, jnt_data *d, const char *integ);

#endif
