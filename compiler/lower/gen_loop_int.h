/*
 * gen_loop_int.h: what gen_loop_shape.c (passes 0-4: the sums, the roots'
 * instances and their shapes, the runs of one shape) and gen_loop.c (the
 * loops' text and tables) share, internal to compiler/lower.
 */
#ifndef JNT_GEN_LOOP_INT_H
#define JNT_GEN_LOOP_INT_H

#include <stddef.h>
#include "expr_int.h"

#define GL_TMAX 32    /* the most roots one instance holds; nodes read by more are hoisted */
#define GL_LIMIT 4000 /* the most nodes one instance reads */
#define GL_MIN 4      /* the fewest instances worth a loop */
#define GL_MINSUM 8   /* the fewest terms worth a summing loop */
#define GL_DEPTH 3    /* levels of hoisted nodes rolled in turn (their own instances) */

enum { TK_NODE = 0x100, TK_LEAF = 0x200, TK_CONST = 0x300, TK_FIXC = 0x400, TK_HOIST = 0x500,
       TK_REF = 0x600, TK_ROOT = 0x700 };
enum { SL_VAR, SL_CONST, SL_HOIST, SL_LHS };

/* One instance: its roots, tokens and slots (slices of the pass's arrays). */
typedef struct gl_inst {
    int r0, nr;   /* roots: rs[r0 .. r0 + nr) */
    size_t t0, nt;
    size_t s0, ns;
    unsigned h;
    int split;    /* 1: a root of a chain of instances (a spring between two masses is
                     read by both): every node another root reads is hoisted */
} gl_inst;

typedef struct gl {
    ex_pool *P;
    const ex_id *roots;
    ex_map pos;
    int *posd;     /* node id -> position, for the nodes of the DAG (a map's
                      lookups missed the cache: half the time of 40,000 bodies) */
    ex_id *order;
    int cnt;
    int *rc;       /* per position: roots that read it */
    int *stamp;    /* per position: the walk that saw it last */
    int *ord;      /* per position: its ordinal in the instance being read */
    int epoch;
    int *stack;
    size_t sp, scap;
    int *tok;
    size_t ntok, captok;
    int *red;      /* per position: the reduction it is the sum of, or -1 */
    double *sv;    /* slot values: index, constant, hoisted position, entry */
    unsigned char *sk; /* slot kinds SL_*, or for SL_VAR: SL_VAR + 16 * ex_kind */
    ex_id *sn;     /* slot nodes */
    size_t nsl, capsl;
} gl;

/* A sum of many terms: its top's position, its first term in the terms'
 * array and their count (0: written out, not a loop). */
typedef struct gl_sum {
    int top, t0, nt;
} gl_sum;

/* A run of instances of one shape: members[m0 .. m0 + nm). */
typedef struct gl_group {
    int m0, nm, first;
} gl_group;

/* What passes 0-4 found in the roots of one level. */
typedef struct gl_plan {
    gl_inst *ins;           /* the instances (their shapes read), nins of them */
    int nins;
    int *rs;                /* their roots, instance by instance */
    int *members;           /* the instances by shape, then by first root */
    gl_group *grp;          /* runs of one shape, GL_MIN or more: the loops, by first root */
    int ngrp;
    unsigned char *rolled;  /* per root: in a loop */
    gl_sum *sums;           /* the sums of many terms, nsum of them */
    int nsum;
    int *ts;                /* their terms, -1 - position */
    gl_inst *tin;           /* a sum's terms as instances of one shape */
    int *tmem;
} gl_plan;

/* The DAG of roots[0..n) (n > 0) in ex_topo order, with the pass's per
 * node arrays; gl_close frees them. */
void gl_open(gl *g, ex_pool *P, int n, const ex_id *roots);
void gl_close(gl *g);

/* The instances and loops of g's roots (entries index[r], NULL: r) into pl,
 * or, find 0, none (every root unrolled). Frees with gl_plan_free. */
void gl_plan_make(gl *g, int n, const int *index, int find, gl_plan *pl);
void gl_plan_free(gl_plan *pl);

#endif
