#!/bin/sh
# bench/rotor_convergence.sh: issue 30 item 2, the step-convergence study of
# Bauchau et al. 2006 E2 (examples/rotor_clearance.jnt) to 2 s.
# Re-run (from the repository root, after `make B=build/he2 -j1 build`):
#   B=build/he2 sh bench/rotor_convergence.sh          (h = 0.1, 0.05 ms, 2 runs at once)
#   B=build/he2 RC_FINE=1 sh bench/rotor_convergence.sh (adds h = 25 us)
#   B=build/he2 RC_FINE=2 sh bench/rotor_convergence.sh (adds 25, 12.5, 6.25 us
#                                                        and the control at 0.3 um)
#   B=build/he2 RC_FINE=3 sh bench/rotor_convergence.sh (adds 3.125 us and two
#       runs at 50 us with Q0 moved by +-1e-9 relative: the sensitivity)
#   B=build/he2 RC_FINE=4 sh bench/rotor_convergence.sh (adds 1.5625 us, 60 s of
#       CPU, and 6.25 us with Q0 moved by 1e-6)
# Runs, each to 2 s, at most 2 at once (RC_JOBS):
#   f100, f50, f25  fixed steps h = 0.1 ms, 50 us, 25 us: the example with its
#                   contact_steps and friction_steps lines dropped;
#   c3              the example's step control (eps_p = 3 um, dtau_min = 0.1,
#                   the report's), h <= 0.1 ms;
#   c1              the same control three times tighter (eps_p = 1 um,
#                   dtau_min = 0.033), h <= 0.1 ms;
#   c03             ten times tighter (eps_p = 0.3 um, dtau_min = 0.01);
#   qp, qm          fixed 50 us with Q0 = 0.825 (1 +- 1e-9) N m;
#   q6              fixed 6.25 us with Q0 = 0.825 (1 + 1e-6) N m.
# Measured per run (the docs' E2 table): the spin w = R.speed at 0.7 s
# (before the hard impacts) and at t = 2 s, its mean over 1.5-2 s, the first
# time the contact force passes 1 kN (the whip's onset), and the mid-span
# whirl r = sqrt(my^2 + mz^2): its range (min-max) over 1.5-2 s and its value
# at 2 s; steps, rejected and CPU from --stats. RC_TABLE=1 only re-reads the
# CSVs of an earlier run (same OUT and RC_FINE).
# RC_ZONE=1 (alone, no runs: B=build/he2 RC_ZONE=1 sh bench/rotor_convergence.sh)
# prints the zone study instead: the shaft's two lowest bending frequencies
# (Euler-Bernoulli, python3, no numpy) against the report's zone, the value
# of one input (disk mass, shaft mass, length, EI) that would put the lower
# end at 44.069 rad/s, the shear stiffness GA_s that puts both there, and the
# zone with the examples' shear stiffness from the report's section.
# RC_ENSEMBLE=1 (alone: B=build/he2 RC_ENSEMBLE=1 sh bench/rotor_convergence.sh)
# runs instead 8 fixed-step runs at each of h = 50, 25, 12.5, 6.25 us (RC_EH) with Q0 =
# 0.825 (1 + k 1e-9) N m, k = -4..4 without 0, and prints per h the mean and
# sample deviation over the 8 of the spin at 2 s, the mean spin over 1.5-2 s
# and the whirl at 2 s: the convergence of the whip's statistics.
# Output: a markdown table on stdout; CSVs and stats in $OUT (default
# /tmp/rotor_convergence).
B=${B:-build}
if [ "${RC_ZONE:-0}" = 1 ]; then
    exec python3 - <<'PY'
# Lowest bending frequency of the E2 shaft, clamped at R, pinned at T, the
# 5 kg disk at mid-span: 40 cubic elements, consistent mass; shear
# flexibility (Timoshenko stiffness, phi = 12 EI / (GA_s l^2)) when GAs > 0.
import math
def solve(A, b):
    n = len(b); A = [r[:] + [b[i]] for i, r in enumerate(A)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(A[r][c])); A[c], A[p] = A[p], A[c]
        for r in range(c + 1, n):
            f = A[r][c] / A[c][c]
            if f:
                for k in range(c, n + 1): A[r][k] -= f * A[c][k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (A[r][n] - sum(A[r][k] * x[k] for k in range(r + 1, n))) / A[r][r]
    return x
def freq(EI=28.2e3, m=0.848, L=6.0, md=5.0, GAs=0.0, ne=40):
    N = 2 * (ne + 1); K = [[0.0] * N for _ in range(N)]; M = [[0.0] * N for _ in range(N)]
    l = L / ne; ph = 12 * EI / (GAs * l * l) if GAs else 0.0
    ke = [[12, 6*l, -12, 6*l], [6*l, (4+ph)*l*l, -6*l, (2-ph)*l*l],
          [-12, -6*l, 12, -6*l], [6*l, (2-ph)*l*l, -6*l, (4+ph)*l*l]]
    me = [[156, 22*l, 54, -13*l], [22*l, 4*l*l, 13*l, -3*l*l],
          [54, 13*l, 156, -22*l], [-13*l, -3*l*l, -22*l, 4*l*l]]
    for e in range(ne):
        d = [2*e, 2*e+1, 2*e+2, 2*e+3]
        for i in range(4):
            for j in range(4):
                K[d[i]][d[j]] += EI / (l**3 * (1 + ph)) * ke[i][j]
                M[d[i]][d[j]] += m * l / 420 * me[i][j]
    M[ne][ne] += md
    free = [i for i in range(N) if i not in (0, 1, 2 * ne)]
    Kf = [[K[i][j] for j in free] for i in free]; Mf = [[M[i][j] for j in free] for i in free]
    n = len(free); x = [1.0] * n; lam = 0.0
    for it in range(60):  # inverse iteration, Rayleigh quotient
        x = solve(Kf, [sum(Mf[i][j] * x[j] for j in range(n)) for i in range(n)])
        s = max(abs(v) for v in x); x = [v / s for v in x]
        num = sum(x[i] * sum(Kf[i][j] * x[j] for j in range(n)) for i in range(n))
        den = sum(x[i] * sum(Mf[i][j] * x[j] for j in range(n)) for i in range(n))
        if abs(num / den - lam) < 1e-13 * lam: break
        lam = num / den
    return math.sqrt(num / den)
lo, hi = 44.069, 44.453
a, b = freq(), freq(EI=28.7e3)
print("Euler-Bernoulli: %.3f %.3f (ratio %.5f); report %.3f %.3f (ratio %.5f); ours high by %.3f %%, %.3f %%"
      % (a, b, b / a, lo, hi, hi / lo, 100 * (a / lo - 1), 100 * (b / hi - 1)))
def fit(f, x0, x1):  # the value of one input that puts f at lo (secant)
    for it in range(20):
        f0, f1 = f(x0) - lo, f(x1) - lo
        if f1 == f0: break
        x0, x1 = x1, x1 - f1 * (x1 - x0) / (f1 - f0)
    return x1
for name, unit, x0, mk in [("disk mass", "kg", 5.0, lambda v, E: dict(md=v, EI=E)),
                           ("shaft mass", "kg/m", 0.848, lambda v, E: dict(m=v, EI=E)),
                           ("length", "m", 6.0, lambda v, E: dict(L=v, EI=E))]:
    v = fit(lambda v: freq(**mk(v, 28.2e3)), x0, x0 * 1.01)
    print("%s %.4f %s (%+.2f %%): zone %.3f %.3f" % (name, v, unit, 100 * (v / x0 - 1),
          freq(**mk(v, 28.2e3)), freq(**mk(v, 28.7e3))))
s = fit(lambda v: freq(EI=v), 28.2e3, 28.0e3) / 28.2e3
print("both EI x %.4f (%+.2f %%): zone %.3f %.3f" % (s, 100 * (s - 1), freq(EI=28.2e3 * s), freq(EI=28.7e3 * s)))
G = 22.1e3 / (2 * math.pi * 0.05**3 * 0.005); A = 2 * math.pi * 0.05 * 0.005
g = fit(lambda v: freq(GAs=v), 2.2e6, 2.1e6)
print("shear GA_s %.3g N (%.3f G A): zone %.3f %.3f (ratio %.5f); thin tube 0.5 G A = %.3g N: %.3f %.3f"
      % (g, g / (G * A), freq(GAs=g), freq(EI=28.7e3, GAs=g), freq(EI=28.7e3, GAs=g) / freq(GAs=g),
         0.5 * G * A, freq(GAs=0.5 * G * A), freq(EI=28.7e3, GAs=0.5 * G * A)))
# the examples' input (not fitted): nu of the thin tube (GJ / EI = 1 / (1 + nu)), Cowper's
# kappa = 2 (1 + nu) / (4 + 3 nu), kappa G A = kappa GJ / R_m^2
nu = (28.2e3 + 28.7e3) / (2 * 22.1e3) - 1; kap = 2 * (1 + nu) / (4 + 3 * nu); gs = kap * 22.1e3 / 0.05**2
print("from the section: nu %.4f, kappa %.4f, kappa G A %.4g N: zone %.3f %.3f (%+.3f %%, %+.3f %%)"
      % (nu, kap, gs, freq(GAs=gs), freq(EI=28.7e3, GAs=gs), 100 * (freq(GAs=gs) / lo - 1),
         100 * (freq(EI=28.7e3, GAs=gs) / hi - 1)))
PY
fi
OUT=${OUT:-/tmp/rotor_convergence}
RC_JOBS=${RC_JOBS:-2}
mkdir -p "$OUT"
ex=examples/rotor_clearance.jnt
# the undamped shaft (beta_s = 0 s): the model this study was made for; the
# example's damped one converges at its own step (bench/rotor_whirl_study.sh)
sed -e 's/until *= *3 s/until = 2 s/' -e 's/^const beta_s = 1e-3 s/const beta_s = 0 s/' "$ex" > "$OUT/ctrl.jnt"
grep -v 'steps *= *\(contact\|friction\)_steps' "$OUT/ctrl.jnt" > "$OUT/fixed.jnt"
sed -e 's/eps_p = 3 um/eps_p = 1 um/' -e 's/dtau_min = 0.1,/dtau_min = 0.033,/' \
    "$OUT/ctrl.jnt" > "$OUT/ctrl_tight.jnt"
sed -e 's/eps_p = 3 um/eps_p = 0.3 um/' -e 's/dtau_min = 0.1,/dtau_min = 0.01,/' \
    "$OUT/ctrl.jnt" > "$OUT/ctrl_tight10.jnt"
sed 's/^param Q0  = 0.825 N\*m/param Q0 = 0.825000001 N*m/' "$OUT/fixed.jnt" > "$OUT/fixed_qp.jnt"
sed 's/^param Q0  = 0.825 N\*m/param Q0 = 0.824999999 N*m/' "$OUT/fixed.jnt" > "$OUT/fixed_qm.jnt"
sed 's/^param Q0  = 0.825 N\*m/param Q0 = 0.825000825 N*m/' "$OUT/fixed.jnt" > "$OUT/fixed_q6.jnt"
if [ "${RC_ENSEMBLE:-0}" = 1 ]; then
    echo "| h | runs | spin at 2 s (rad/s) | mean spin 1.5-2 s | whirl at 2 s (mm) |"
    echo "|---|---:|---:|---:|---:|"
    for hh in ${RC_EH:-50us 25us 12.5us 6.25us}; do
        n=0
        for k in -4 -3 -2 -1 1 2 3 4; do
            q=$(awk -v k="$k" 'BEGIN { printf "%.12f", 0.825 * (1 + k * 1e-9) }')
            sed "s/^param Q0  = 0.825 N\*m/param Q0 = $q N*m/" "$OUT/fixed.jnt" > "$OUT/e_$hh$k.jnt"
            "$B/jnt" run "$OUT/e_$hh$k.jnt" -D h="$hh" -o "$OUT/e_$hh$k.csv" > /dev/null 2>&1 &
            n=$((n + 1))
            if [ $n -ge "$RC_JOBS" ]; then wait; n=0; fi
        done
        wait
        for k in -4 -3 -2 -1 1 2 3 4; do
            awk -F, '/^#/ || $1 == "t" { next }
                { t = $1; w = $2; r = 1e3 * sqrt($3 * $3 + $4 * $4); if (t >= 1.5 - 1e-9) { sw += w; nw++ } }
                END { print w, sw / nw, r }' "$OUT/e_$hh$k.csv"
        done | awk -v h="$hh" '{ for (i = 1; i <= 3; i++) { s[i] += $i; q[i] += $i * $i } n++ }
            END { printf "| %s | %d", h, n
                  for (i = 1; i <= 3; i++) { m = s[i] / n; d = sqrt((q[i] - n * m * m) / (n - 1)); printf " | %.2f +- %.2f", m, d }
                  printf " |\n" }'
    done
    exit 0
fi
runs="f100:fixed:0.1ms f50:fixed:50us c3:ctrl:0.1ms c1:ctrl_tight:0.1ms"
[ "${RC_FINE:-0}" -ge 1 ] && runs="$runs f25:fixed:25us"
[ "${RC_FINE:-0}" -ge 2 ] && runs="$runs f12:fixed:12.5us f6:fixed:6.25us c03:ctrl_tight10:0.1ms"
[ "${RC_FINE:-0}" -ge 3 ] && runs="$runs f3:fixed:3.125us qp:fixed_qp:50us qm:fixed_qm:50us"
[ "${RC_FINE:-0}" -ge 4 ] && runs="$runs f1:fixed:1.5625us q6:fixed_q6:6.25us"
rc_one() { # name model h
    "$B/jnt" run "$OUT/$2.jnt" -D h="$3" -o "$OUT/$1.csv" --stats > "$OUT/$1.log" 2>&1
    tail -n 1 "$OUT/$1.log" > "$OUT/$1.stats"
}
n=0
[ "${RC_TABLE:-0}" = 1 ] && runs_go= || runs_go=$runs
for r in $runs_go; do
    k=${r%%:*} m=${r#*:} hh=${m#*:} m=${m%%:*}
    rc_one "$k" "$m" "$hh" &
    n=$((n + 1))
    if [ $n -ge "$RC_JOBS" ]; then wait; n=0; fi
done
wait
echo "| run | steps | rejected | CPU (s) | spin at 0.7 s | fn > 1 kN from (s) | spin at 2 s (rad/s) | mean spin 1.5-2 s | whirl 1.5-2 s (mm) | whirl at 2 s (mm) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for r in $runs; do
    k=${r%%:*} m=${r#*:} hh=${m#*:} m=${m%%:*}
    lab=$(case $k in f*) echo "fixed h = $hh";; c3) echo "step control eps_p = 3 um, dtau_min = 0.1";;
          c1) echo "step control eps_p = 1 um, dtau_min = 0.033";;
          c03) echo "step control eps_p = 0.3 um, dtau_min = 0.01";;
          qp) echo "fixed h = $hh, Q0 (1 + 1e-9)";; qm) echo "fixed h = $hh, Q0 (1 - 1e-9)";;
          q6) echo "fixed h = $hh, Q0 (1 + 1e-6)";; esac)
    st=$(cat "$OUT/$k.stats")
    s=$(printf '%s\n' "$st" | sed -n 's/^steps \([0-9]*\).*/\1/p')
    rj=$(printf '%s\n' "$st" | sed -n 's/.*rejected \([0-9]*\).*/\1/p')
    c=$(printf '%s\n' "$st" | sed -n 's/.*cpu \([0-9.e+-]*\) s.*/\1/p')
    awk -F, -v lab="$lab" -v s="$s" -v rj="$rj" -v c="$c" '
        /^#/ || $1 == "t" { next }
        { r = 1e3 * sqrt($3 * $3 + $4 * $4); t = $1; w = $2; rl = r
          if (t > 0.6995 && t < 0.7005) w7 = w
          if (on == "" && $9 > 1000) on = t
          if (t >= 1.5 - 1e-9) { if (lo == "" || r < lo) lo = r; if (r > hi) hi = r; sw += w; nw++ } }
        END { printf "| %s | %s | %s | %s | %.2f | %.3f | %.2f | %.2f | %.2f-%.2f | %.2f |\n",
                     lab, s, rj, c, w7, on, w, sw / nw, lo, hi, rl }' "$OUT/$k.csv"
done
