/*
 * test_diag.c: the source table and diagnostics (compiler/front/diag.c): line and
 * column, the exact output format (tabs kept under the caret), severities,
 * the error cap, and jnt_closest_name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "front/diag.h"
#include "jnt/jnt.h"

static char out[4096];
static diag_ctx dc;
static FILE *mem;

/* A fresh context printing into out, with src registered as "m.jnt" (file 0). */
static void start(const char *src, int max_errors)
{
    mem = fmemopen(out, sizeof out, "w");
    diag_init(&dc, mem, max_errors);
    diag_add_source(&dc, "m.jnt", strdup(src), strlen(src));
}

/* Flush the output and free the context. */
static void finish(void)
{
    fclose(mem);
    diag_free(&dc);
}

#define OUT(want)                                                               \
    CHECK(strcmp(out, want) == 0, "output %.*s", (int)strcspn(want, "\n"), want)

int main(void)
{
    (void)test_out;
    int line, col;

    start("ab\n\tc = 1\n\nlast", 0);
    diag_linecol(&dc, (jnt_loc){0, 0}, &line, &col);
    CHECK(line == 1 && col == 1, "linecol of offset 0");
    diag_linecol(&dc, (jnt_loc){0, 5}, &line, &col);
    CHECK(line == 2 && col == 3, "linecol counts bytes (a tab is one column)");
    diag_linecol(&dc, (jnt_loc){0, 10}, &line, &col);
    CHECK(line == 3 && col == 1, "linecol on an empty line");
    diag_linecol(&dc, (jnt_loc){0, 1000}, &line, &col);
    CHECK(line == 4 && col == 5, "linecol past the end is clamped");
    diag_linecol(&dc, loc_none, &line, &col);
    CHECK(line == 0 && col == 0, "linecol of loc_none");
    diag_error(&dc, (jnt_loc){0, 6}, "unknown name '%s'", "c");
    finish();
    OUT("m.jnt:2:4: error: unknown name 'c'\n  \tc = 1\n  \t  ^\n");

    start("x\r\ny = 2\r\n", 0);
    diag_warning(&dc, (jnt_loc){0, 3}, "unused '%s'", "y");
    diag_note(&dc, (jnt_loc){0, 0}, "declared here");
    diag_note(&dc, loc_none, "see the manual");
    finish();
    OUT("m.jnt:2:1: warning: unused 'y'\n  y = 2\n  ^\n"
        "m.jnt:1:1: note: declared here\n  x\n  ^\n"
        "jnt: note: see the manual\n");
    CHECK(dc.nwarn == 1 && dc.nerr == 0, "warnings counted apart");

    start("abc", 0);
    diag_error(&dc, loc_none, "no model given");
    diag_warning(&dc, loc_none, "nothing to do");
    diag_error(&dc, (jnt_loc){0, 3}, "at the end");
    finish();
    OUT("jnt: error: no model given\njnt: warning: nothing to do\n"
        "m.jnt:1:4: error: at the end\n  abc\n     ^\n");

    start("a\nb\nc\n", 2);
    for (int i = 0; i < 5; i++)
        diag_error(&dc, (jnt_loc){0, 2 * (i % 3)}, "error %d", i);
    diag_warning(&dc, (jnt_loc){0, 0}, "not shown");
    diag_note(&dc, loc_none, "not shown");
    CHECK(diag_errors(&dc) == 5 && dc.capped, "errors past the cap are still counted");
    finish();
    OUT("m.jnt:1:1: error: error 0\n  a\n  ^\n"
        "m.jnt:2:1: error: error 1\n  b\n  ^\n"
        "jnt: error: too many errors, stopping\n");

    /* sources: loading, indices, missing files */
    {
        diag_ctx d;
        diag_init(&d, stderr, 0);
        const char *path = test_out("diag_src.jnt");
        FILE *f = fopen(path, "w");
        if (f) {
            fputs("param x = 1\n", f);
            fclose(f);
        }
        int a = diag_add_source(&d, "a.jnt", strdup("a"), 1);
        int b = diag_load_file(&d, path);
        CHECK(a == 0 && b == 1 && d.srcs[1].len == 12 && !strcmp(d.srcs[1].text, "param x = 1\n")
              && !strcmp(d.srcs[1].path, path), "load a file: index, length, text, path");
        CHECK(diag_load_file(&d, "no/such/file.jnt") == -1, "missing file: -1");
        diag_free(&d);
    }

    /* closest names */
    const char *names[] = {"mass", "stiffness", "damping", "normal", "Mass2", NULL, "ab"};
    CHECK(jnt_closest_name("mas", names, 7) && !strcmp(jnt_closest_name("mas", names, 7), "mass"),
          "closest: one deletion");
    CHECK(!strcmp(jnt_closest_name("stifness", names, 7), "stiffness"), "closest: missing letter");
    CHECK(!strcmp(jnt_closest_name("dampign", names, 7), "damping"), "closest: transposition");
    CHECK(!strcmp(jnt_closest_name("MASS", names, 7), "mass"), "closest: case-insensitive");
    CHECK(!strcmp(jnt_closest_name("mass2", names, 7), "Mass2"), "closest: case-insensitive tie");
    CHECK(jnt_closest_name("velocity", names, 7) == NULL, "closest: nothing close");
    CHECK(jnt_closest_name("xy", names, 7) == NULL, "closest: 'xy' is 2 from 'ab' (limit 1)");
    CHECK(!strcmp(jnt_closest_name("ax", names, 7), "ab"), "closest: short names allow 1 edit");
    CHECK(jnt_closest_name("x", names, 0) == NULL, "closest: no candidates");
    return check_done();
}
