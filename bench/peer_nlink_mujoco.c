/*
 * peer_nlink_mujoco.c: the MuJoCo peer of the planar N-link pendulum for the
 * "peers" section of `make bench` (bench/peers.sh): a chain of N uniform rods
 * (each of mass 1/N kg, length 1/N m, inertia m l^2 / 12 about its centre)
 * pinned to the ground and to each other by hinges, released from rest
 * horizontal under gravity 9.81 m/s^2, in MuJoCo 2.2.2 (Debian's
 * libmujoco-dev) with its RK4 integrator, in its own minimal coordinates (N
 * hinge angles), no contacts. The model is written as MJCF to a temporary file
 * and loaded with mj_loadXML.
 *
 * Usage: peer_nlink_mujoco N H T_END [DT_OUT]
 * prints one line
 *   steps S cpu C E0 E0 energy_err D
 * S: steps of size H to T_END; C: CPU seconds (clock) of the stepping loop
 * only; D: the largest |E - E0| (J) over the samples every DT_OUT (default
 * 10 ms), E = kinetic + potential energy from the hinge angles and rates
 * (computed outside the timed loop, the same formula as the jnt model of
 * bench/peers.sh).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <mujoco/mujoco.h>

#define GRAV 9.81

/* the energy of the chain (J) from the hinge angles q and rates w */
static double energy(int n, const double *q, const double *w)
{
    double l = 1.0 / n, m = 1.0 / n, J = m * l * l / 12;
    double phi = 0, om = 0, z = 0, vx = 0, vz = 0, e = 0;
    for (int i = 0; i < n; i++) {
        phi += q[i];
        om += w[i];
        /* centre of link i: the end of the previous link plus l/2 along it */
        double c = cos(phi), s = sin(phi);
        double cz = z + 0.5 * l * s;
        double cvx = vx - 0.5 * l * s * om, cvz = vz + 0.5 * l * c * om;
        e += 0.5 * m * (cvx * cvx + cvz * cvz) + 0.5 * J * om * om + m * GRAV * cz;
        z += l * s;
        vx -= l * s * om;
        vz += l * c * om;
    }
    return e;
}

int main(int argc, char **argv)
{
    if (argc < 4 || argc > 5) {
        fprintf(stderr, "usage: %s N H T_END [DT_OUT]\n", argv[0]);
        return 2;
    }
    int n = atoi(argv[1]);
    double h = atof(argv[2]), t_end = atof(argv[3]), dt_out = argc > 4 ? atof(argv[4]) : 0.01;
    if (n < 1 || n > 10000 || !(h > 0) || !(t_end > 0) || !(dt_out > 0)) {
        fprintf(stderr, "%s: N must be 1 to 10000, H, T_END and DT_OUT positive\n", argv[0]);
        return 2;
    }
    double l = 1.0 / n, m = 1.0 / n, J = m * l * l / 12;
    char path[] = "/tmp/peer_nlink_XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        fprintf(stderr, "%s: cannot write the model file\n", argv[0]);
        return 1;
    }
    fprintf(f, "<mujoco model=\"nlink\">\n"
               "  <option timestep=\"%.17g\" integrator=\"RK4\" gravity=\"0 0 %.17g\">\n"
               "    <flag contact=\"disable\"/>\n  </option>\n  <worldbody>\n",
            h, -GRAV);
    /* hinge axis -y: a turn by q takes the link's x axis to (cos q, 0, sin q) */
    for (int i = 0; i < n; i++)
        fprintf(f, "<body pos=\"%.17g 0 0\"><joint type=\"hinge\" axis=\"0 -1 0\"/>"
                   "<inertial pos=\"%.17g 0 0\" mass=\"%.17g\" diaginertia=\"%.17g %.17g %.17g\"/>\n",
                i == 0 ? 0.0 : l, 0.5 * l, m, 1e-6 * J, J, J);
    for (int i = 0; i < n; i++)
        fputs("</body>", f);
    fputs("\n  </worldbody>\n</mujoco>\n", f);
    fclose(f);
    char err[1000] = "";
    mjModel *mm = mj_loadXML(path, NULL, err, sizeof err);
    unlink(path);
    if (!mm) {
        fprintf(stderr, "%s: MuJoCo: %s\n", argv[0], err);
        return 1;
    }
    mjData *d = mj_makeData(mm);
    double e0 = energy(n, d->qpos, d->qvel), de = 0, cpu = 0;
    long steps = 0, total = (long)floor(t_end / h + 0.5);
    long per = (long)floor(dt_out / h + 0.5);
    if (per < 1)
        per = 1;
    while (steps < total) {
        long k = total - steps < per ? total - steps : per;
        clock_t c0 = clock();
        for (long i = 0; i < k; i++)
            mj_step(mm, d);
        cpu += (double)(clock() - c0) / CLOCKS_PER_SEC;
        steps += k;
        double e = energy(n, d->qpos, d->qvel);
        if (!isfinite(e)) {
            de = INFINITY;
            break;
        }
        de = fmax(de, fabs(e - e0));
    }
    printf("steps %ld cpu %.6g E0 %.10g energy_err %.3g\n", steps, cpu, e0, de);
    mj_deleteData(d);
    mj_deleteModel(mm);
    return 0;
}
