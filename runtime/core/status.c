/*
 * status.c: names and messages of the status codes of jnt.h.
 */
#include "jnt/jnt.h"

typedef struct status_info {
    int code;
    const char *name;
    const char *message;
} status_info;

static const status_info status_table[] = {
    {JNT_PROJECTED, "JNT_PROJECTED", "a value set was moved onto the joints"},
    {JNT_STOPPED, "JNT_STOPPED", "stopped by the row callback"},
    {JNT_OK, "JNT_OK", "success"},
    {JNT_ERR_MODEL, "JNT_ERR_MODEL", "the model has errors"},
    {JNT_ERR_USAGE, "JNT_ERR_USAGE", "wrong arguments"},
    {JNT_ERR_IO, "JNT_ERR_IO", "a file could not be read or written"},
    {JNT_ERR_NOMEM, "JNT_ERR_NOMEM", "out of memory"},
    {JNT_ERR_PARAM, "JNT_ERR_PARAM", "unknown parameter, bad value or unit mismatch"},
    {JNT_ERR_JIT, "JNT_ERR_JIT", "the in-memory C compiler failed"},
    {JNT_ERR_NONFINITE, "JNT_ERR_NONFINITE", "a state or derivative became NaN or infinite"},
    {JNT_ERR_NEWTON, "JNT_ERR_NEWTON", "Newton iteration diverged"},
    {JNT_ERR_HMIN, "JNT_ERR_HMIN", "step size underflow"},
    {JNT_ERR_SOLVER, "JNT_ERR_SOLVER", "the ODE solver library reported an error"},
    {JNT_ERR_KERNEL, "JNT_ERR_KERNEL", "a model kernel reported a fatal error"},
    {JNT_ERR_CHAIN, "JNT_ERR_CHAIN", "a quasi-static chain has no solution"},
};

static const status_info *status_find(int status)
{
    for (size_t i = 0; i < sizeof status_table / sizeof status_table[0]; i++)
        if (status_table[i].code == status)
            return &status_table[i];
    return NULL;
}

/* Name of a status code ("JNT_ERR_HMIN"), "JNT_UNKNOWN" if not a code. */
const char *jnt_status_name(int status)
{
    const status_info *s = status_find(status);
    return s ? s->name : "JNT_UNKNOWN";
}

/* One-line message of a status code ("step size underflow"). */
const char *jnt_status_message(int status)
{
    const status_info *s = status_find(status);
    return s ? s->message : "unknown status code";
}
