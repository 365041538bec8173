/*
 * test_vtk.c: jnt_vtk_open's checks that the model's description (jnt/scene.h)
 * is of the model run (runtime/io/vtk.c): a description whose probes read
 * other states, or whose parameter values read another count of parameters,
 * is refused with JNT_ERR_MODEL and a message naming both counts, and the
 * description as built opens. tests/vtk/pins.jnt has both: contacts between
 * markers (probes) and race radii that read the parameter r_pin.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "jnt/jnt.h"
#include "jnt/scene.h"

/* Open a writer of s for (m, d) into dir: its status, the message in err. */
static int open_rc(const jnt_scene *s, const jnt_model *m, jnt_data *d, const char *dir,
                   char *err, size_t errn)
{
    jnt_vtk *w = NULL;
    err[0] = 0;
    int rc = jnt_vtk_open(s, m, d, dir, "t", &w, err, errn);
    if (w)
        jnt_vtk_close(w, NULL, 0);
    return rc;
}

int main(void)
{
    const char *path = JNT_SOURCE_DIR "/tests/vtk/pins.jnt";
    jnt_model *m = NULL;
    jnt_scene *s = NULL;
    CHECK(jnt_compile_file(path, NULL, &m) == JNT_OK, "pins.jnt compiles");
    CHECK(jnt_scene_file(path, NULL, &s) == JNT_OK, "pins.jnt's description");
    if (!m || !s)
        return check_done();
    jnt_data *d = jnt_data_new(m);
    char dir[] = "/tmp/jnt-test-vtk-XXXXXX", err[256];
    CHECK(d && mkdtemp(dir), "data and a folder");
    CHECK(s->nprobe > 0 && s->npar > 0, "the description has probes (%d) and parameter values "
          "(%d)", s->nprobe, s->npar);

    CHECK(open_rc(s, m, d, dir, err, sizeof err) == JNT_OK, "the description opens: %s", err);

    s->probe_ny++;
    int rc = open_rc(s, m, d, dir, err, sizeof err);
    s->probe_ny--;
    CHECK(rc == JNT_ERR_MODEL && strstr(err, "states, discrete states and points) does not "
                                             "match the model run ("),
          "probes of other states: refused (%d: %s)", rc, err);

    s->par_np++;
    rc = open_rc(s, m, d, dir, err, sizeof err);
    s->par_np--;
    char want[96];
    snprintf(want, sizeof want, "(%d parameters) does not match the model run (%d)",
             s->par_np + 1, s->par_np);
    CHECK(rc == JNT_ERR_MODEL && strstr(err, want),
          "parameter values of another count: refused (%d: %s)", rc, err);

    char cmd[64];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0, "the folder removed");
    jnt_data_free(d);
    jnt_scene_free(s);
    jnt_model_free(m);
    return check_done();
}
