/*
 * model.h: the runtime's view of a compiled model (internal).
 *
 * A jnt_model wraps the generated ABI object and, for JIT-compiled models,
 * the object that owns the generated code (the libtcc state). The compiler's
 * JIT creates models with jnt_model_wrap; standalone simulators use
 * jnt_model_from_abi (jnt.h).
 */
#ifndef JNT_MODEL_H
#define JNT_MODEL_H

#include "jnt/jnt.h"

struct jnt_model {
    const jnt_abi_model *abi; /* sizes, names, kernels (borrowed or owned via owner) */
    void *owner;              /* what keeps abi alive (tcc state), or NULL */
    void (*owner_free)(void *); /* releases owner in jnt_model_free, or NULL */
};

/* Wrap generated kernels in a new model. `owner` (may be NULL) keeps `abi`
 * alive and is released with owner_free(owner) by jnt_model_free. Checks the
 * ABI version, the sizes and that the required kernels are present. Returns
 * JNT_OK and *out, JNT_ERR_MODEL for an invalid abi, JNT_ERR_NOMEM, or
 * JNT_ERR_USAGE for NULL arguments. On failure the caller still owns `owner`. */
int jnt_model_wrap(const jnt_abi_model *abi, void *owner, void (*owner_free)(void *),
                   jnt_model **out);

/* Index of `name` in a table of n names, or -1. */
int model_find_name(const char *const *names, int n, const char *name);

#endif
