/*
 * animate.h: `jnt animate` (animate.c), a film of a model's motion from its
 * VTK frames.
 */
#ifndef JNT_ANIMATE_H
#define JNT_ANIMATE_H

/* `jnt animate` with its arguments (after "animate"): the exit status (0, 1
 * after a message: the run, the drawing or ffmpeg failed; 2: usage). */
int animate_main(int argc, char **argv);

#endif
