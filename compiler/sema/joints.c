/*
 * joints.c: the joint machinery the joint families share (kind.h's
 * joint_dim: kinds/joint2d.c, joint3d.c): `joint NAME : TYPE(A, B, axis =
 * ..., axis_b = ..., drive = ...)` read and its ends found here, the family
 * chosen by its markers (a spatial one makes a spatial joint), which builds
 * its rows and multipliers; a joint's members and rows through its family.
 */
#include <stdlib.h>
#include <string.h>

#include "passes.h"
#include "dims.h"
#include "front/alloc.h"

/* The joint family of joints in dim dimensions (2 or 3). */
static const sema_kind *family(const sema *S, int dim)
{
    for (const sema_kind *const *k = S->kinds; *k; k++)
        if ((*k)->joint_dim == dim)
            return *k;
    return NULL;
}

/* A joint's endpoint: a marker, or a point (x, y) of the ground. */
static int endpoint(sema *S, const ast *e, const char *jname)
{
    if (e->kind == AST_TUPLE)
        return sema_mb_ground_point(S, &S->global, e, jname);
    sval v = sema_eval(S, &S->global, e);
    if (v.k == V_MARKER)
        return v.id;
    if (v.k != V_ERR)
        diag_error(S->dc, e->loc,
                   "a joint connects markers (body.marker) or a point (x, y) of "
                   "the ground, not %s",
                   sema_kind_name(S, v));
    return -1;
}

/* See passes.h. */
void sema_declare_joint(sema *S, sym *s)
{
    static const char *const types[7] = {"revolute", "prismatic", "fixed", "spherical",
                                         "universal", "cylindrical", "planar"};
    const ast *d = s->decl;
    sema_set_multibody(S, 0);
    s->done = 1;
    int kind = -1;
    for (int k = 0; k < 7; k++)
        if (strcmp(d->str, types[k]) == 0)
            kind = k;
    if (kind < 0) {
        const char *best = jnt_closest_name(d->str, types, 7);
        diag_error(S->dc, d->loc,
                   "unknown joint '%s'%s%s%s (known: revolute, prismatic, fixed; "
                   "spatial: spherical, universal, cylindrical, planar)",
                   d->str, best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
        return;
    }
    joint j = {.name = xstrdup(d->name), .decl = d, .kind = kind, .a = -1, .b = -1,
               .drive = -1};
    const ast *ends[2] = {0}, *axis = NULL, *axis_b = NULL, *drive = NULL;
    int pos = 0;
    for (int i = 0; i < d->nkids; i++) {
        const ast *a = d->kids[i];
        if (a->kind != AST_ARG && pos < 2) {
            ends[pos++] = a;
        } else if (a->kind == AST_ARG && !strcmp(a->name, "axis")) {
            axis = a->kids[0];
        } else if (a->kind == AST_ARG && !strcmp(a->name, "axis_b")) {
            axis_b = a->kids[0];
        } else if (a->kind == AST_ARG && !strcmp(a->name, "drive")) {
            drive = a->kids[0];
        } else {
            diag_error(S->dc, a->loc, "'%s' takes two markers%s", types[kind],
                       kind == JOINT_PRISMATIC  ? ", 'axis' and 'drive'"
                       : kind == JOINT_REVOLUTE ? " and 'drive'"
                                                : "");
            goto fail;
        }
    }
    if (!ends[1]) {
        diag_error(S->dc, d->loc, "a joint connects two markers: %s(body1.A, body2.B)",
                   types[kind]);
        goto fail;
    }
    j.a = endpoint(S, ends[0], j.name);
    j.b = endpoint(S, ends[1], j.name);
    if (j.a < 0 || j.b < 0)
        goto fail;
    const marker *ma = &S->markers[j.a], *mb = &S->markers[j.b];
    if (ma->body >= 0 && ma->body == mb->body) {
        diag_error(S->dc, d->loc, "joint '%s' connects two markers of the same body", j.name);
        goto fail;
    }
    /* a spatial marker makes it a spatial joint */
    const sema_kind *fam = family(S, ma->d3 || mb->d3 ? 3 : 2);
    if (fam->joint_build(S, &j, axis, axis_b, drive) != 0)
        goto fail;
    s->inst = xmalloc(sizeof *s->inst);
    XGROW(S->joints, S->capjoint, S->njoint);
    S->joints[S->njoint] = j;
    s->inst[0] = S->njoint++;
    s->ninst = 1;
    return;
fail:
    free(j.name);
}

/* See core.h. */
int sema_joint_rate_drive(sema *S, joint *j, const ast *drive, int slide)
{
    ex_pool *P = S->pool;
    j->rel_v = ex_diff(P, j->rel, EX_T, 0);
    for (int i = 0; i < S->m->y.n; i++)
        if (ex_depends(P, j->rel, EX_Y, i))
            j->rel_v = ex_op2(P, EX_ADD, j->rel_v, ex_op2(P, EX_MUL, ex_diff(P, j->rel, EX_Y, i),
                                                         ex_var(P, EX_Y, i + 1)));
    if (!drive)
        return 0;
    sval v = sema_num_dim(S, &S->global, drive, slide ? DIM_M : units_none, "the drive");
    if (v.k != V_NUM)
        return -1;
    if (!sema_is_time_only(S, v.e)) {
        diag_error(S->dc, drive->loc, "a drive is a function of time and parameters");
        return -1;
    }
    j->drive = v.e;
    return 0;
}

/* See passes.h. */
int sema_joint_member(sema *S, int ji, const char *name, jnt_loc loc, sval *out)
{
    return family(S, S->joints[ji].d3 ? 3 : 2)->joint_member(S, ji, name, loc, out);
}

/* See passes.h. */
void sema_joint_rows(sema *S, const joint *j, ex_id *c)
{
    family(S, j->d3 ? 3 : 2)->joint_rows(S, j, c);
}
