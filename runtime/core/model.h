/*
 * model.h: the runtime's view of a compiled model (internal).
 *
 * A jnt_model wraps the generated ABI object, its model data (the blocks'
 * matrices and basis rows, the interfaces' node tables, by offset) and the
 * object that owns both for JIT-compiled models (the libtcc state and the
 * data array). jnt_model_wrap (jnt.h) resolves the offsets once and
 * prepares the sparse form of each block's rows; the model is immutable
 * afterwards.
 */
#ifndef JNT_MODEL_H
#define JNT_MODEL_H

#include "jnt/jnt.h"

/* A block's data, resolved: its matrices (r x r) and the rows R (ng x r,
 * column-major) of its basis at its gathered points, also by row in
 * compressed form for blocks whose rows are sparse (unreduced or
 * Craig-Bampton boundary points: unit rows). */
typedef struct model_block {
    const double *minv, *minv_k, *minv_c, *rows;
    int dense;        /* 1: gather, scatter and couple by BLAS on `rows` */
    int *rowptr, *col; /* ng + 1 and nnz entries (owned) */
    double *val;
    /* JNT_BLOCK_FFRF_SPARSE: its invariants' CSC pattern (r + 1, nnz) and
     * rotation (r: +-(partner + 1)) as ints (owned), else NULL */
    int *fcp, *fri, *frot;
    /* and where its entries land in the model's patterns (4 nnz + 14 r,
     * owned; flex_positions): J's (rows v_f) at columns q_f, at columns v_f,
     * M P's at columns v_f (in flex.c's order), M's; then the frame's rows
     * and columns, 6 a coordinate in M, 8 in J (flex.c's order) */
    int *fpos;
} model_block;

/* How a model advances in time: the kind the run driver (integrate/run.c)
 * and the analyses dispatch on. */
typedef enum model_kind {
    MODEL_ODE,   /* ydot = f(t, y): any integrator of integrate/ */
    MODEL_SLIDE, /* sliding interfaces (abi->nifaces > 0): seed 003's central
                    difference on couple/ (integrator 'central') */
    MODEL_DAE,   /* multibody (abi->nq > 0): the index-3 DAE methods of
                    integrate/integ_dae.c ('hht', 'generalized_alpha') */
    MODEL_NKINDS
} model_kind;

struct jnt_model {
    model_kind kind;
    const jnt_abi_model *abi; /* sizes, names, kernels (borrowed or owned via owner) */
    const double *data;       /* abi->ndata doubles (borrowed or owned via owner) */
    model_block *blk;         /* abi->nblocks (owned) */
    int *gblock;              /* the block of each gathered point (nu, owned) */
    /* multibody: the Jacobian's pattern in y (ny x ny CSC) and the mass
     * matrix's (nq x nq), eval_dae_patterns: the kernels' own, or built
     * (own_j, own_m) for models with flexible2d bodies */
    const int *jcolptr, *jrowind, *mcolptr, *mrowind;
    int jnnz, mnnz;
    int *own_j[2], *own_m[2];
    char **inputs;            /* real paths of the files it was compiled from (sources,
                                 imports, data files), NULL-terminated, owned; or NULL
                                 (a model from an ABI): a run's output may not be one */
    void *owner;              /* what keeps abi and data alive (tcc state), or NULL */
    void (*owner_free)(void *); /* releases owner in jnt_model_free, or NULL */
};

/* Index of `name` in a table of n names, or -1. */
int model_find_name(const char *const *names, int n, const char *name);

#endif
