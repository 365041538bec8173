/*
 * mat.h: MATLAB's MAT-file, level 5, uncompressed (internal; the output
 * writer's ".mat" format, runtime/io/csv.c): one double column vector per
 * output column, named by the column turned into a MATLAB identifier, so that
 * `load("x.mat")` in Octave or MATLAB gives the columns as variables (mat.c).
 */
#ifndef JNT_MAT_H
#define JNT_MAT_H

#include <stddef.h>

#define MAT_NAME_MAX 63 /* MATLAB's namelengthmax */
/* The most rows a column can hold: a variable's byte count in its tag must
 * stay below 2^31 (MAT-files before version 7.3 hold variables under 2 GB). */
#define MAT_MAX_ROWS 268435439L

/* Write into out (MAT_NAME_MAX + 1 bytes) the variable name of a column
 * called `name`: every character other than an ASCII letter, digit or '_'
 * becomes '_' ("mass.x" -> "mass_x"); a name not starting with a letter gets
 * an 'x' in front ("2a" -> "x2a", "" -> "x"); a keyword of MATLAB or Octave
 * gets 'x' in front and its first letter in upper case ("end" -> "xEnd");
 * the result is cut to MAT_NAME_MAX characters; and if it equals one of the
 * n names before it in prev (n strings of MAT_NAME_MAX + 1 bytes each), "_2",
 * "_3", ... is appended (cutting the name to make room). */
void mat_name(char *out, const char *name, const char *prev, int n);

/* Write a whole MAT-file into fd (a regular file, from offset 0): the
 * 128-byte header, then for each of the ncol columns an nrows x 1 double
 * matrix named names[j] (ncol strings of MAT_NAME_MAX + 1 bytes), its values
 * read from rows_fd, a regular file holding nrows rows of ncol native
 * doubles from offset 0 (row-major), through a read-only mapping. The file
 * is written front to back through buf (bufn doubles, the caller's), in
 * writes of the buffer's full size but the last; a buffer smaller than the
 * 128-byte header is replaced by one of our own. Returns 0 or the errno of
 * what failed (EFBIG for nrows over MAT_MAX_ROWS, EIO for a rows_fd shorter
 * than its rows, ENOMEM, or the mapping's or a write's). */
int mat_write(int fd, int rows_fd, long nrows, int ncol, const char *names, double *buf,
              size_t bufn);

#endif
