/*
 * gen_int.h: what gen.c (the tables, the jnt_abi_model object, the driver)
 * and gen_kernel.c (the kernels) share, internal to compiler/lower: the
 * printer's context, the small printers both use and the kernels' entry.
 * All are defined in gen_kernel.c: gen.c calls it, never the other way.
 */
#ifndef JNT_GEN_INT_H
#define JNT_GEN_INT_H

#include <stdio.h>
#include "front/diag.h"
#include "gen_loop.h"
#include "ir.h"

/* What every printer of one model needs: the model, where #line points,
 * the output and the prefix of its names. */
typedef struct gen_ctx {
    const ir_model *m;
    const diag_ctx *dc;
    FILE *out;
    const char *px;
    gl_tables *tabs;  /* the loops' tables (the top model's kernels), or NULL: unrolled */
    long jac_off[2];  /* the Jacobian's colptr and rowind in tabs->ix, or -1: literals */
} gen_ctx;

/* A table `id` of the variables' names (a null pointer when vs is empty). */
void gen_put_names(FILE *out, const char *id, const ir_vars *vs);

/* A table `id` of n ints (one 0 when n is 0). */
void gen_put_ints(FILE *out, const char *id, const int *v, int n);

/* Open kernel `name` with signature `args`; `unused` lists the one-letter
 * arguments to void. Kernels that read the gathered quantities get uv, the
 * velocities' half of u. */
void gen_open_fn(const gen_ctx *g, const char *name, const char *args, const char *unused);

/* Close a kernel: return 0. */
void gen_close_fn(FILE *out);

/* The kernels of g's model, in the order of its jnt_abi_model table: params,
 * settings, init, rhs, jac, then those it has (update, chain_in, block_in
 * when nflag blocks have flags, iface_mu), output, mass and cons_rates,
 * pins (gen_kernel.c). Tables the loops read go to g->tabs. */
void gen_kernels(const gen_ctx *g, int nflag);

#endif
