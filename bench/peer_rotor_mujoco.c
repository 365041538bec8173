/*
 * peer_rotor_mujoco.c: the peer of bench section 13 (bench/rotor.sh): a
 * rigid shaft on a hinge along its axis, spun up by seed 001 E2's torque
 * Q(t) = Q0 (1 - cos 2 pi t), in MuJoCo 2.2.2 (Debian's libmujoco-dev), in
 * its own minimal coordinates (one hinge angle). Usage:
 *   peer_rotor_mujoco MODEL.xml T_END Q0 J
 * prints "steps S cpu C w W err E": the steps taken, the CPU time of the
 * stepping loop (clock), the hinge speed at T_END and its difference from
 * the closed form Q0 / J (t - sin(2 pi t) / (2 pi)).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <mujoco/mujoco.h>

#define PI 3.14159265358979323846

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: %s MODEL.xml T_END Q0 J\n", argv[0]);
        return 2;
    }
    char err[1000] = "";
    mjModel *m = mj_loadXML(argv[1], NULL, err, sizeof err);
    if (!m) {
        fprintf(stderr, "%s: %s\n", argv[1], err);
        return 1;
    }
    mjData *d = mj_makeData(m);
    double t_end = atof(argv[2]), q0 = atof(argv[3]), J = atof(argv[4]);
    long steps = 0;
    clock_t c0 = clock();
    while (d->time < t_end - 0.5 * m->opt.timestep) {
        /* the torque at the step's start (MuJoCo holds ctrl over a step) */
        d->ctrl[0] = q0 * (1 - cos(2 * PI * d->time));
        mj_step(m, d);
        steps++;
    }
    double cpu = (double)(clock() - c0) / CLOCKS_PER_SEC, t = d->time;
    double want = q0 / J * (t - sin(2 * PI * t) / (2 * PI));
    printf("steps %ld cpu %.6g w %.10g err %.3g\n", steps, cpu, d->qvel[0], d->qvel[0] - want);
    mj_deleteData(d);
    mj_deleteModel(m);
    return 0;
}
