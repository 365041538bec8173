/*
 * vtk_shape.c: the simple shapes a model gives its rigid bodies (`shape =
 * box(...)`, cylinder, sphere), as the corners and faces the VTK writer
 * (vtk.c, bodies_shapes.vtp) places in each body's frame (vtk_int.h).
 */
#define _DEFAULT_SOURCE /* M_PI */
#include <math.h>

#include "io/vtk_int.h"

/* See vtk_int.h. */
void vtk_shape(const jnt_scene_body *b, int flat, double *x, int *np, int *fn, int *fc, int *nf)
{
    const double *s = b->size;
    *np = *nf = 0;
    int nc = 0;
    if (b->shape == JNT_SHAPE_BOX || (b->shape == JNT_SHAPE_CYLINDER && flat)) {
        double h[3] = {s[0] / 2, s[1] / 2, s[2] / 2};
        if (b->shape == JNT_SHAPE_CYLINDER)
            h[0] = s[1] / 2, h[1] = s[0], h[2] = 0;
        int nz = flat ? 1 : 2;
        for (int k = 0; k < nz; k++)
            for (int c = 0; c < 4; c++) {
                double *p = x + 3 * (*np)++;
                p[0] = (c == 1 || c == 2) ? h[0] : -h[0];
                p[1] = c >= 2 ? h[1] : -h[1];
                p[2] = flat ? 0 : (k ? h[2] : -h[2]);
            }
        static const int faces[6][4] = {{0, 1, 2, 3}, {4, 7, 6, 5}, {0, 4, 5, 1},
                                        {1, 5, 6, 2}, {2, 6, 7, 3}, {3, 7, 4, 0}};
        for (int f = 0; f < (flat ? 1 : 6); f++) {
            fn[(*nf)++] = 4;
            for (int c = 0; c < 4; c++)
                fc[nc++] = faces[f][c];
        }
        return;
    }
    double r = s[0], half = s[1] / 2;
    if (b->shape == JNT_SHAPE_CYLINDER) { /* spatial: caps at x = -+ half, then the sides */
        for (int k = 0; k < 2; k++)
            for (int i = 0; i < SHAPE_SEG; i++) {
                double a = 2 * M_PI * i / SHAPE_SEG, *p = x + 3 * (*np)++;
                p[0] = k ? half : -half, p[1] = r * cos(a), p[2] = r * sin(a);
            }
        for (int k = 0; k < 2; k++) {
            fn[(*nf)++] = SHAPE_SEG;
            for (int i = 0; i < SHAPE_SEG; i++)
                fc[nc++] = k * SHAPE_SEG + (k ? i : SHAPE_SEG - 1 - i);
        }
        for (int i = 0; i < SHAPE_SEG; i++) {
            int j = (i + 1) % SHAPE_SEG;
            fn[(*nf)++] = 4;
            fc[nc++] = i, fc[nc++] = j, fc[nc++] = SHAPE_SEG + j, fc[nc++] = SHAPE_SEG + i;
        }
        return;
    }
    if (b->shape == JNT_SHAPE_SPHERE) /* circles in the x-y (and y-z, z-x) planes */
        for (int k = 0; k < (flat ? 1 : 3); k++) {
            fn[(*nf)++] = SHAPE_SEG;
            for (int i = 0; i < SHAPE_SEG; i++) {
                double a = 2 * M_PI * i / SHAPE_SEG, *p = x + 3 * *np;
                p[k] = r * cos(a), p[(k + 1) % 3] = r * sin(a), p[(k + 2) % 3] = 0;
                fc[nc++] = (*np)++;
            }
        }
}

