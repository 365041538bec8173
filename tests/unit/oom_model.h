/*
 * oom_model.h: the small model of the allocation-failure sweeps (test_alloc.c: every
 * allocation of its compile; test_alloc_run.c: of its runs).
 */
#ifndef JNT_TEST_OOM_MODEL_H
#define JNT_TEST_OOM_MODEL_H

/* A mass on a spring, driven, with LuGre friction from the stdlib (so that an import is read
 * too) and an output: every stage of the pipeline allocates. */
static const char *const model_src =
    "model oom\n"
    "import friction\n"
    "param k = 100 N/m\n"
    "body b : point(mass = 1 kg) { dof x }\n"
    "spring s between b.x and ground { stiffness = k }\n"
    "force f on b.x = 20 N * sin(2 * pi * t / 1 s)\n"
    "friction fr between b.x and ground { normal = 10 N\n"
    "  law = lugre(sigma0 = 1e4 /m, sigma1 = 30 s/m, sigma2 = 0.01 s/m, mu_s = 0.6,\n"
    "              mu_k = 0.4, v_s = 1 mm/s) }\n"
    "simulate { integrator = bdf  until = 1 s }\n"
    "output \"oom.csv\" every 1 ms { t, x = b.x, F = fr.force }\n";

#endif
