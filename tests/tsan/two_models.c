/*
 * two_models.c: two threads, each compiling its own model (libtcc) and
 * running it, at the same time: the concurrency promise of docs/embedding.md,
 * run under ThreadSanitizer by `make check-tsan` (issue 17). Each thread
 * compiles and runs ROUNDS times; prints one PASS line per model or FAIL.
 * Usage: two_models MODEL_A.jnt MODEL_B.jnt
 */
#include <pthread.h>
#include <stdio.h>

#include "jnt/jnt.h"

enum { ROUNDS = 3 };

typedef struct job {
    const char *path;
    int rc;
    double t;
    char msg[256];
} job;

static void *work(void *arg)
{
    job *j = arg;
    for (int r = 0; r < ROUNDS && j->rc == JNT_OK; r++) {
        jnt_model *m;
        j->rc = jnt_compile_file(j->path, NULL, &m);
        if (j->rc != JNT_OK) {
            snprintf(j->msg, sizeof j->msg, "compile: %s", jnt_status_name(j->rc));
            return NULL;
        }
        jnt_data *d = jnt_data_new(m);
        jnt_run_opts opts = {.csv_path = ""};
        j->rc = d ? jnt_run(m, d, &opts) : JNT_ERR_NOMEM;
        if (j->rc != JNT_OK)
            snprintf(j->msg, sizeof j->msg, "run: %s", d ? jnt_data_error(d) : "no memory");
        j->t = jnt_time(d);
        jnt_data_free(d);
        jnt_model_free(m);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: two_models MODEL_A.jnt MODEL_B.jnt\n");
        return 2;
    }
    job jobs[2] = {{.path = argv[1]}, {.path = argv[2]}};
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        if (pthread_create(&th[i], NULL, work, &jobs[i]) != 0)
            return 1;
    int bad = 0;
    for (int i = 0; i < 2; i++) {
        pthread_join(th[i], NULL);
        if (jobs[i].rc == JNT_OK)
            printf("PASS: %s compiled and run %d times on its thread (t = %g s)\n", jobs[i].path,
                   ROUNDS, jobs[i].t);
        else
            printf("FAIL: %s: %s\n", jobs[i].path, jobs[i].msg), bad = 1;
    }
    return bad;
}
