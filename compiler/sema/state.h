/*
 * state.h: sema's state (struct sema): the symbol table, the model's tables
 * and their capacities, the import stack, the step proposals, the passes'
 * flags. The core's files see it (passes.h); a kind reaches what it needs
 * through core.h's functions.
 */
#ifndef JNT_SEMA_STATE_H
#define JNT_SEMA_STATE_H

#include "model.h"

struct sema {
    diag_ctx *dc;
    const sema_kind *const *kinds; /* the kinds it knows (kinds/registry.c), NULL-ended */
    ast_arena *arena;
    ir_model *m;
    ex_pool *pool;
    sym *syms;
    int nsym, capsym;
    int *hash;        /* open addressing into syms, size hcap */
    int hcap;
    body *bodies;
    int nbody, capbody;
    dof *dofs;
    int ndof, capdof;
    int ngather;      /* substructure points gathered so far (dof.g) */
    elem *elems;
    int nelem, capelem;
    subst *subs;
    int nsub, capsub;
    int in_output;    /* evaluating an output column: accelerations allowed */
    int assembled;    /* dof accelerations are known */
    scope global;     /* every declared name */
    scope consts;     /* what a law body sees: constants and built-ins */
    int have_sim, have_out, have_an;
    marker *markers;
    int nmarker, capmarker;
    joint *joints;
    int njoint, capjoint;
    int multibody;    /* a rigid2d body or a joint: the model is an index-3 DAE */
    ex_id *steps;     /* the elements' step proposals (sema/element.c, step_control), */
    ex_id *steps0;    /* and at the initial state (parameters only) */
    int nsteps, capsteps;
    int *step_t;      /* their time states, which start at the run's start */
    int nstep_t, capstep_t;
    int *dinit_d;     /* discrete states that start at an expression of the states */
    ex_id *dinit_e;   /* (evaluated at the initial state once every 'init' is known) */
    int ndinit, capdinit;
    jnt_loc steps_loc; /* the first 'steps' setting */
    ex_id gravity[3]; /* its acceleration (gx, gy[, gz]), or -1 */
    int spatial;      /* a rigid3d body: the multibody model is spatial */
    const ast *model; /* the main file's declarations */
    char **stack;     /* real paths of the files being imported (cycle detection) */
    int *stack_file;  /* their source indices */
    int nstack, capstack;
    char **imported;  /* real paths of the files already read */
    int nimported, capimported;
    char **data;      /* real paths of the data files read (fe matrices, node tables): */
    int ndata, capdata; /* an output may not overwrite one (sema_output_ok) */
    int eval_depth;   /* sema_eval's recursion (operators, calls, 'let's): SEMA_MAX_DEPTH */
    int depth_said;   /* the depth error was reported (once per model) */
};

/* The deepest expression sema evaluates: a 10,000-term sum or 4,000 chained
 * 'let's would overflow the stack here and in the passes after sema. */
#define SEMA_MAX_DEPTH 1000

#endif
