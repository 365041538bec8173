/*
 * access.c: the kinds' way into the model under construction (core.h): the
 * tables they fill and read, without sema's state (state.h).
 */
#include "passes.h"
#include "front/alloc.h"

/* See core.h (each of these). */
diag_ctx *sema_dc(const sema *S) { return S->dc; }
ex_pool *sema_pool(const sema *S) { return S->pool; }
ir_model *sema_ir(const sema *S) { return S->m; }
const scope *sema_global(const sema *S) { return &S->global; }
const scope *sema_consts(const sema *S) { return &S->consts; }
dof *sema_dof(const sema *S, int i) { return &S->dofs[i]; }
body *sema_body(const sema *S, int i) { return &S->bodies[i]; }
marker *sema_marker(const sema *S, int i) { return &S->markers[i]; }
joint *sema_joint(const sema *S, int i) { return &S->joints[i]; }
subst *sema_sub(const sema *S, int i) { return &S->subs[i]; }
elem *sema_elem(const sema *S, int i) { return &S->elems[i]; }
sym *sema_sym(const sema *S, int i) { return &S->syms[i]; }
int sema_ndof(const sema *S) { return S->ndof; }
int sema_nbody(const sema *S) { return S->nbody; }
int sema_nmarker(const sema *S) { return S->nmarker; }
int sema_nsub(const sema *S) { return S->nsub; }
int sema_nelem(const sema *S) { return S->nelem; }
int sema_nsym(const sema *S) { return S->nsym; }
int sema_ngather(const sema *S) { return S->ngather; }
int sema_body_id(const sema *S, const body *b) { return (int)(b - S->bodies); }
ex_id sema_gravity(const sema *S, int k) { return S->gravity[k]; }
int sema_have_sim(const sema *S) { return S->have_sim; }

/* See core.h. */
int sema_add_sub(sema *S, const subst *b)
{
    XGROW(S->subs, S->capsub, S->nsub);
    S->subs[S->nsub] = *b;
    return S->nsub++;
}

/* See core.h. */
void sema_set_multibody(sema *S, int spatial)
{
    S->multibody = 1;
    if (spatial)
        S->spatial = 1;
}
