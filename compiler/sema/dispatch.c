/*
 * dispatch.c: how the core reaches the kinds. It holds no kind: it walks the
 * list sema_lower was given (S->kinds, kinds/registry.c) and calls what each
 * kind's table (kind.h) fills in, in the list's order.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "passes.h"

/* See passes.h. */
void sema_kinds_declare(sema *S, int pass)
{
    for (int i = 0; i < S->nsym; i++) {
        sym *s = &S->syms[i];
        if (s->kind == SYM_JOINT && pass == 2) { /* the core's (sema/joints.c), in order */
            sema_declare_joint(S, s);
            continue;
        }
        for (const sema_kind *const *k = S->kinds; *k; k++)
            if ((*k)->declare && (*k)->sym == (int)s->kind && (*k)->pass == pass) {
                (*k)->declare(S, s);
                break;
            }
    }
}

/* See passes.h. */
const sema_kind *sema_kind_of_value(const sema *S, vkind vk)
{
    for (const sema_kind *const *k = S->kinds; *k; k++)
        for (int j = 0; j < (*k)->nvk; j++)
            if ((*k)->vk[j] == (int)vk)
                return *k;
    return NULL;
}

/* See passes.h. */
int sema_kind_member(sema *S, sval base, const char *name, jnt_loc loc, sval *out)
{
    const sema_kind *k = sema_kind_of_value(S, base.k);
    if (!k || !k->member) {
        diag_error(S->dc, loc, "%s has no members", sema_kind_name(S, base));
        return -1;
    }
    return k->member(S, base, name, loc, out) == 0 ? 0 : -1;
}

/* See passes.h. */
int sema_kind_index(sema *S, sval base, long i, jnt_loc iloc, jnt_loc loc, sval *out)
{
    const sema_kind *k = sema_kind_of_value(S, base.k);
    int r = k && k->index ? k->index(S, base, i, iloc, out) : 1;
    if (r == 1)
        diag_error(S->dc, loc, "only arrays can be indexed, but this is %s",
                   sema_kind_name(S, base));
    return r == 0 ? 0 : -1;
}

/* See passes.h. */
void sema_kinds_run(sema *S, size_t offset)
{
    for (const sema_kind *const *k = S->kinds; *k; k++) {
        void (*hook)(sema *) = *(void (*const *)(sema *))((const char *)*k + offset);
        if (hook)
            hook(S);
    }
}

/* See passes.h. */
void sema_kinds_eval(sema *S)
{
    for (int i = 0; i < S->nsym; i++)
        for (const sema_kind *const *k = S->kinds; *k; k++)
            if ((*k)->eval && (*k)->sym == (int)S->syms[i].kind) {
                (*k)->eval(S, &S->syms[i]);
                break;
            }
}

/* See passes.h. */
int sema_kinds_dof_accel(sema *S, int di, int skip, ex_id *a0, ex_id *alpha)
{
    for (const sema_kind *const *k = S->kinds; *k; k++) {
        int r = (*k)->dof_accel ? (*k)->dof_accel(S, di, skip, a0, alpha) : 1;
        if (r != 1)
            return r;
    }
    return 1;
}

/* See passes.h. */
int sema_kinds_point_accel(sema *S, int di, sval *out)
{
    for (const sema_kind *const *k = S->kinds; *k; k++)
        if ((*k)->point_accel && (*k)->point_accel(S, di, out) == 0)
            return 0;
    return 1;
}

/* See passes.h. */
const sema_kind *sema_body_kind(sema *S, const char *name, jnt_loc loc)
{
    char known[256] = "";
    size_t n = 0;
    for (const sema_kind *const *k = S->kinds; *k; k++) {
        if (!(*k)->declare_body)
            continue;
        if (strcmp((*k)->name, name) == 0)
            return *k;
        if (n < sizeof known)
            n += (size_t)snprintf(known + n, sizeof known - n, "%s%s", n ? ", " : "", (*k)->name);
    }
    diag_error(S->dc, loc, "unknown body type '%s' (known: %s)", name, known);
    return NULL;
}
