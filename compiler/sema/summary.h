/*
 * summary.h: the `summary` block (sema/summary.c).
 */
#ifndef JNT_SEMA_SUMMARY_H
#define JNT_SEMA_SUMMARY_H

#include "core.h"

/* `summary { NAME = OP(column, from = T1, to = T2) ... }` of the main file:
 * appends its results to S->m->sum, after the output columns are known
 * (the model's or the default ones). Errors are reported with their
 * locations. */
void sema_eval_summary(sema *S, const ast *d);

#endif
