/*
 * slide_shapes.h: the complex modes of substructures coupled at frozen
 * contacts with their shapes (runtime/couple/slide_modes.c; used by the
 * VTK writer of complex_modes analyses, runtime/analyse/vtk_locus.c).
 */
#ifndef JNT_SLIDE_SHAPES_H
#define JNT_SLIDE_SHAPES_H

#include <stddef.h>

#include "slide.h"

/* The coordinates of the coupled system: the substructures' reduced
 * coordinates, substructure after substructure (0 for NULL). */
int slide_model_size(const slide_model *m);

/* The shapes of nwant modes of position p (want: eigenvalues as
 * slide_modes_at found them, same o): QZ (LAPACKE dggev on the pencil of
 * slide_modes.c's primal assembly) with right eigenvectors, each wanted
 * eigenvalue's nearest root's vector refined by inverse iteration at the
 * wanted eigenvalue. Mode k's complex displacement of the coupled system's
 * coordinates (slide_model_size N), real part then imaginary part, at
 * u + 2 N k, the relative residual of its projected eigen-equation at
 * res[k]. 0 or < 0 (message in err). Allocates its own work memory (the
 * 2 r x 2 r pencil's vectors); slide_modes_at computes no vectors. */
int slide_modes_shapes(const slide_model *m, void *user, double p, const slide_modes_opts *o,
                       const slide_mode *want, int nwant, double *u, double *res, char *err,
                       size_t errn);

#endif
