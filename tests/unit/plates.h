/*
 * plates.h: the small sliding-interface model two tests share
 * (test_slide_rows.c, test_slide_fused.c): a 5 mm plate on a 100 mm
 * cantilevered plate (Craig-Bampton, 10 modes), a Coulomb interface in
 * the dual coupling. Each test adds its loads, its simulate and output.
 */
#ifndef JNT_TEST_PLATES_H
#define JNT_TEST_PLATES_H

#define PLATE_ON_PLATE                                                                     \
    "substructure lower : plate2d(lx = 100 mm, ly = 2 mm, thickness = 20 mm, E = 70 GPa,\n" \
    "                             rho = 2700 kg/m^3, nx = 20, ny = 2) {\n"                  \
    "  fix = left\n"                                                                        \
    "  damping = rayleigh(alpha = 2000 /s, beta = 0 s)\n"                                   \
    "  reduce = craig_bampton(modes = 10, keep = top)\n"                                    \
    "}\n"                                                                                   \
    "substructure upper : plate2d(lx = 5 mm, ly = 2 mm, thickness = 20 mm, E = 70 GPa,\n"   \
    "                             rho = 2700 kg/m^3, nx = 2, ny = 1) {\n"                   \
    "  damping = rayleigh(alpha = 2000 /s, beta = 0 s)\n"                                   \
    "  x0 = 50 mm\n"                                                                        \
    "  y0 = 2 mm\n"                                                                         \
    "}\n"                                                                                   \
    "interface c between upper.bottom and lower.top : sliding {\n"                          \
    "  friction = coulomb(mu = 0.3)\n"                                                      \
    "  coupling = dual(assumption = realistic)\n"                                           \
    "}\n"

#endif
