/*
 * registry.h: the kinds (kinds/registry.c), for the driver that hands them
 * to sema_lower (jit/compile.c).
 */
#ifndef JNT_KINDS_REGISTRY_H
#define JNT_KINDS_REGISTRY_H

#include "sema/kind.h"

/* NULL-ended, in the order the core runs their hooks */
extern const sema_kind *const sema_kinds[];

#endif
