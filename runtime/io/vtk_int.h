/*
 * vtk_int.h: what the VTK writer (runtime/io/vtk.c) lends the mode-shape
 * writers (runtime/analyse/vtk_linear.c) (internal).
 */
#ifndef JNT_VTK_INT_H
#define JNT_VTK_INT_H

#include <stdint.h>

#include "jnt/scene.h"

/* Every point of the scene at state y, meshes first (their nodes, mesh by
 * mesh), then each body's point followed by its markers', into x (3 a
 * point; NULL: not wanted); and when conn is given, the cells of one VTK
 * unstructured grid of them: the meshes' cells, a vertex at each body's
 * point and a line from it to each of its markers (conn, the offsets of
 * their ends, their VTK types; *ncell of them). Returns the points' count.
 * Room: vtk_points(w, NULL, NULL, ...) counts the points; conn needs the
 * meshes' ncell nen plus a body's 1 and a marker's 2 each. */
long vtk_points(jnt_vtk *w, const double *y, double *x, int64_t *conn, int64_t *offs,
                unsigned char *type, long *ncell);
const jnt_scene *vtk_scene(const jnt_vtk *w);
const jnt_model *vtk_model(const jnt_vtk *w);
const char *vtk_dir(const jnt_vtk *w);

#endif
