/*
 * outfile.h: the one output routine (internal half; the public half is
 * jnt_outfile_* in jnt.h): which paths may be written, the writer's own
 * temporary file beside the target, and the rename of a whole result
 * (outfile.c).
 */
#ifndef JNT_OUTFILE_H
#define JNT_OUTFILE_H

#include <stddef.h>

/* Why path cannot be an output (NULL: it can). A regular file or a path
 * that does not exist yet, in an existing folder, can, unless its real path
 * is one of inputs (NULL-terminated real paths, may be NULL); /dev/null can,
 * written in place (*direct = 1); a link, a directory, a FIFO, a device and
 * a socket cannot. The reason is a static string. */
const char *out_refuse(const char *path, const char *const *inputs, int *direct);

/* Create the writer's own temporary file "<path>.jnt-<pid>-<n>.part"
 * exclusively, after removing those of dead processes for the same path.
 * Returns its descriptor and its malloc'd name in *part (the caller frees
 * it, also on failure), or -1 with errno set. */
int out_create_part(const char *path, char **part);

/* Rename the finished temporary file part over path, when it is a regular
 * file, not empty unless path does not exist, not cut short by a failed
 * write (cut) unless path does not exist, and path is still a regular file
 * or absent. Otherwise part is removed, the old file stays and err says why.
 * JNT_OK or JNT_ERR_IO (message when err is not NULL). */
int out_commit(const char *part, const char *path, int cut, char *err, size_t errn);

#endif
