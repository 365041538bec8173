/*
 * paths.h: where jnt finds its standard library and public headers: under
 * the install prefix of the program or library running (make install), else
 * in the source tree it was built from.
 */
#ifndef JNT_PATHS_H
#define JNT_PATHS_H

/* PREFIX/share/jnt/stdlib of an installed jnt, else the source tree's
 * stdlib; $JNT_STDLIB overrides both. A static string. */
const char *paths_stdlib(void);
/* PREFIX/include of an installed jnt (holding jnt/abi.h), else the source
 * tree's runtime/include; $JNT_INCLUDE overrides both. A static string. */
const char *paths_include(void);

#endif
