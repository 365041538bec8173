#!/bin/sh
# bench/rotor_whirl_study.sh: issue 30 item 2, the mid-span whirl of Bauchau et
# al. 2006 E2 (examples/rotor_clearance.jnt) against the report's "a
# displacement of about 1 mm (corresponding to the center of mass offset) is
# expected for point M" in supercritical operation (part C Sect. 6.2).
# Re-run (from the repository root, after `make B=build/<you> -j1 build`):
#   B=build/<you> sh bench/rotor_whirl_study.sh            (the runs, 2 at once)
#   B=build/<you> RW_LINEAR=1 sh bench/rotor_whirl_study.sh (the linear table only)
# Two parts:
#  1. RW_LINEAR: the linear unbalance response of the shaft (no run; python3
#     with numpy): 40 Timoshenko elements (the examples' kappa G A = 4.68 MN,
#     EI the mean of the two planes), clamped at R, the 5 kg disk at mid-span,
#     the journal at T pinned, on the 15 MN/m contact spring, or free; the
#     shaft's mass 1 mm off its axis (the report's), and the disk also 1 mm off
#     (not said by the report). For an isotropic shaft the synchronous whirl
#     is the static solution of (K - W^2 M) u = W^2 f, f the unbalance m e per
#     unit W^2; printed: M's orbit radius |u_M| (mm) at the spins W.
#  2. The runs: the example to 2 s at the convergence study's fixed h = 3.125
#     us (bench/rotor_convergence.sh: from there the spin and whirl agree with
#     1.5625 us and across 1e-9 torque perturbations), its step-control lines
#     dropped; one input changed per run, each an input the report gives
#     (contact k, mu) or does not give (contact damping, structural damping,
#     the disk's unbalance cannot be set here: part 1):
#       base     the example undamped (its damping line dropped: beta_s = 0)
#       mu0      no friction (the friction element removed)
#       mu01     mu = 0.1;   mu02  mu = 0.2
#       k5, k50  contact spring 5 and 50 MN/m (report: 15)
#       c1k, c5k contact damping 1 and 5 kN s/m beside the 15 MN/m spring
#                (force = max(k d - c gap', 0), a law of this script's model)
#       z1, z5   modal damping of the shaft's 6 modes, zeta = 0.01, 0.05
#       e0       no unbalance (e2 = 0)
#       gap0     no clearance (rho_k = rho_l = 80 mm: the journal on the
#                15 MN/m spring, friction on)
#     Measured per run: spin at 2 s, its mean over 1.5-2 s, the first time the
#     contact force passes 1 kN (the whip's onset; - if never), the largest
#     contact force over 1.5-2 s, and M's orbit radius r = sqrt(my^2 + mz^2)
#     (the report's quantity: M's displacement from the bearings' axis):
#     its mean and range over 1.5-2 s and its value at 2 s.
# Output: markdown tables on stdout; CSVs and logs in $OUT (default
# /tmp/rotor_whirl). RW_TABLE=1 re-reads the CSVs of an earlier run; RW_RUNS
# picks runs (default all).
B=${B:-build}
if [ "${RW_LINEAR:-0}" = 1 ]; then
    exec /usr/bin/python3 - <<'PY'
import numpy as np
def model(kT, EI=28.45e3, m=0.848, L=6.0, md=5.0, ne=40, GAs=4.68e6):
    N = 2 * (ne + 1); K = np.zeros((N, N)); M = np.zeros((N, N)); l = L / ne
    ph = 12 * EI / (GAs * l * l)
    ke = np.array([[12, 6*l, -12, 6*l], [6*l, (4+ph)*l*l, -6*l, (2-ph)*l*l],
                   [-12, -6*l, 12, -6*l], [6*l, (2-ph)*l*l, -6*l, (4+ph)*l*l]]) * EI / (l**3 * (1 + ph))
    me = np.array([[156, 22*l, 54, -13*l], [22*l, 4*l*l, 13*l, -3*l*l],
                   [54, 13*l, 156, -22*l], [-13*l, -3*l*l, -22*l, 4*l*l]]) * m * l / 420
    fe = np.array([l/2, l*l/12, l/2, -l*l/12]) * m   # consistent load of m e, per unit e W^2
    f = np.zeros(N)
    for e in range(ne):
        d = [2*e, 2*e+1, 2*e+2, 2*e+3]
        K[np.ix_(d, d)] += ke; M[np.ix_(d, d)] += me; f[d] += fe
    M[ne, ne] += md
    fixed = [0, 1] + ([2 * ne] if kT == 'pin' else [])
    if kT not in ('pin', None): K[2*ne, 2*ne] += kT
    free = [i for i in range(N) if i not in fixed]
    return K[np.ix_(free, free)], M[np.ix_(free, free)], f[free], free.index(ne), md
Ws = [44.0, 48.6, 50.0, 52.3, 60.0, 100.0, 1e4]
print("| journal at T | first critical (rad/s) | unbalance | " + " | ".join("W = %g" % w for w in Ws) + " |")
print("|---|---:|---|" + "---:|" * len(Ws))
for lab, kT in [("pinned", 'pin'), ("on the 15 MN/m spring", 15e6), ("free (no contact)", None)]:
    K, M, f, im, md = model(kT)
    w1 = np.sqrt(np.sort(np.linalg.eigvals(np.linalg.solve(M, K)).real)[0])
    for disk in (0, 1):
        fe = 1e-3 * f.copy()
        if disk: fe[im] += 1e-3 * md
        r = [1e3 * abs(np.linalg.solve(K - w * w * M, w * w * fe)[im]) for w in Ws]
        print("| %s | %.2f | %s | %s |" % (lab, w1, "shaft and disk 1 mm" if disk else "shaft 1 mm (the report's)",
              " | ".join("%.2f" % x for x in r)))
PY
fi
OUT=${OUT:-/tmp/rotor_whirl}
RW_JOBS=${RW_JOBS:-2}
mkdir -p "$OUT"
# the example without its shaft damping (beta_s: the study's subject)
grep -v '^  damping    = rayleigh(alpha = 0 /s, beta = beta_s)' examples/rotor_clearance.jnt > "$OUT/ex0.jnt"
ex=$OUT/ex0.jnt
sed 's/until *= *3 s/until = 2 s/' "$ex" | grep -v 'steps *= *\(contact\|friction\)_steps' > "$OUT/base.jnt"
# no friction: drop the friction block and its two output columns
awk '/^friction rub/ { skip = 1 } skip && /^}/ { skip = 0; next } !skip' "$OUT/base.jnt" |
    sed -e 's/ ft = rub.force,//' -e 's/^ *vs = rub.v, *\/\/.*$//' > "$OUT/mu0.jnt"
sed 's/^param mu  = 0.3/param mu  = 0.1/' "$OUT/base.jnt" > "$OUT/mu01.jnt"
sed 's/^param mu  = 0.3/param mu  = 0.2/' "$OUT/base.jnt" > "$OUT/mu02.jnt"
sed 's/^param k   = 15 MN\/m/param k   = 5 MN\/m/' "$OUT/base.jnt" > "$OUT/k5.jnt"
sed 's/^param k   = 15 MN\/m/param k   = 50 MN\/m/' "$OUT/base.jnt" > "$OUT/k50.jnt"
for c in 1 5; do
    { sed -n '1,/^import friction/p' "$OUT/base.jnt"
      echo "law contact spring_damper(k: N/m, c: N*s/m) {"
      echo "  force = if gap < 0 then max(-k * gap - c * gapv, 0 N) else 0 N"
      echo "}"
      sed '1,/^import friction/d' "$OUT/base.jnt" |
          sed "s/law       = linear_spring(k = k)/law       = spring_damper(k = k, c = $c kN*s\/m)/"
    } > "$OUT/c${c}k.jnt"
done
sed 's/^  reduce     = modal(modes = 6)/  damping    = modal(zeta = 0.01)\n  reduce     = modal(modes = 6)/' "$OUT/base.jnt" > "$OUT/z1.jnt"
sed 's/^  reduce     = modal(modes = 6)/  damping    = modal(zeta = 0.05)\n  reduce     = modal(modes = 6)/' "$OUT/base.jnt" > "$OUT/z5.jnt"
sed 's/^  reduce     = modal(modes = 6)/  damping    = modal(zeta = 0.02)\n  reduce     = modal(modes = 6)/' "$OUT/base.jnt" > "$OUT/z2.jnt"
sed 's/^  reduce     = modal(modes = 6)/  damping    = modal(zeta = 0.03)\n  reduce     = modal(modes = 6)/' "$OUT/base.jnt" > "$OUT/z3.jnt"
sed 's/^  reduce     = modal(modes = 6)/  damping    = rayleigh(alpha = 0 \/s, beta = 1e-3 s)\n  reduce     = modal(modes = 6)/' \
    "$OUT/base.jnt" > "$OUT/rb1.jnt"
sed 's/^  reduce     = modal(modes = 6)/  damping    = rayleigh(alpha = 0 \/s, beta = 3e-4 s)\n  reduce     = modal(modes = 6)/' \
    "$OUT/base.jnt" > "$OUT/rb03.jnt"
sed 's/until = 2 s/until = 3 s/' "$OUT/rb03.jnt" > "$OUT/rb03long.jnt"
# with the example's own step control (h <= 0.1 ms), to 3 s, Rayleigh C = beta K
for b in 3e-4 5e-4 1e-3 2e-3 4e-3; do
    sed "s/^  reduce     = modal(modes = 6)/  damping    = rayleigh(alpha = 0 \/s, beta = $b s)\n  reduce     = modal(modes = 6)/" \
        "$ex" > "$OUT/cb$b.jnt"
done
awk '/^friction rub/ { skip = 1 } skip && /^}/ { skip = 0; next } !skip' "$OUT/cb1e-3.jnt" |
    sed -e 's/ ft = rub.force,//' -e 's/^ *vs = rub.v, *\/\/.*$//' > "$OUT/cb1e-3mu0.jnt"
awk '/^friction rub/ { skip = 1 } skip && /^}/ { skip = 0; next } !skip' "$OUT/rb03.jnt" |
    sed -e 's/ ft = rub.force,//' -e 's/^ *vs = rub.v, *\/\/.*$//' > "$OUT/rb03mu0.jnt"
sed 's/until = 2 s/until = 3 s/' "$OUT/z5.jnt" > "$OUT/z5long.jnt"
sed 's/until = 2 s/until = 3 s/' "$OUT/rb1.jnt" > "$OUT/rb1long.jnt"
sed 's/e2 = 1 mm,/e2 = 0 mm,/' "$OUT/base.jnt" > "$OUT/e0.jnt"
sed 's/rho_k = 80.8 mm, rho_l = 80 mm/rho_k = 80 mm, rho_l = 80 mm/; s/radii  = (80 mm, 80.8 mm)/radii  = (80 mm, 80 mm)/' \
    "$OUT/base.jnt" > "$OUT/gap0.jnt"
runs=${RW_RUNS:-base mu0 mu01 mu02 k5 k50 c1k c5k z1 z2 z3 z5 rb03 rb1 e0 gap0 rb03mu0 z5h6 z5h1 rb1h6 rb03h6 z5long rb1long rb03long cb3e-4 cb5e-4 cb1e-3 cb2e-3 cb4e-3 cb1e-3mu0}
if [ "${RW_TABLE:-0}" != 1 ]; then
    n=0
    for r in $runs; do
        m=$r hh=3.125us
        case $r in cb*) m=$r hh=0.1ms;; z5h6) m=z5 hh=6.25us;; z5h1) m=z5 hh=1.5625us;; rb1h6) m=rb1 hh=6.25us;; rb03h6) m=rb03 hh=6.25us;; esac
        "$B/jnt" run "$OUT/$m.jnt" -D h=$hh -o "$OUT/$r.csv" --stats > "$OUT/$r.log" 2>&1 &
        n=$((n + 1))
        if [ $n -ge "$RW_JOBS" ]; then wait; n=0; fi
    done
    wait
fi
echo "| run | spin at 2 s (rad/s) | mean spin 1.5-2 s | contact force > 1 kN from (s) | largest contact force 1.5-2 s (N) | M's orbit radius: mean 1.5-2 s (mm) | range 1.5-2 s | at 2 s |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for r in $runs; do
    lab=$(case $r in base) echo "undamped (beta_s = 0 s; mu = 0.3, k = 15 MN/m)";; mu0) echo "no friction";;
          mu01) echo "mu = 0.1";; mu02) echo "mu = 0.2";; k5) echo "contact k = 5 MN/m";; k50) echo "contact k = 50 MN/m";;
          c1k) echo "contact damping 1 kN s/m";; c5k) echo "contact damping 5 kN s/m";;
          z1) echo "shaft modal damping zeta = 0.01";; z2) echo "shaft modal damping zeta = 0.02";;
          z3) echo "shaft modal damping zeta = 0.03";; z5) echo "shaft modal damping zeta = 0.05";;
          rb1) echo "shaft damping C = 1e-3 s K (zeta = 0.022 at 44 rad/s)";;
          rb03) echo "shaft damping C = 3e-4 s K (zeta = 0.0066 at 44 rad/s)";;
          rb1h6) echo "C = 1e-3 s K, h = 6.25 us";; rb1long) echo "C = 1e-3 s K, to 3 s";;
          rb03h6) echo "C = 3e-4 s K, h = 6.25 us";; rb03mu0) echo "C = 3e-4 s K, no friction";;
          z5long) echo "zeta = 0.05 (run to 3 s)";; rb1long) echo "C = 1e-3 s K (run to 3 s)";;
          rb03long) echo "C = 3e-4 s K (run to 3 s)";; cb1e-3mu0) echo "step control, C = 1e-3 s K, no friction";;
          cb*) echo "step control, C = ${r#cb} s K";;
          z5h6) echo "zeta = 0.05, h = 6.25 us";; z5h1) echo "zeta = 0.05, h = 1.5625 us";;
          z5long) echo "zeta = 0.05, to 3 s";;
          e0) echo "no unbalance (e2 = 0)";; gap0) echo "no clearance (rho_k = rho_l)";; esac)
    if [ ! -s "$OUT/$r.csv" ]; then echo "| $lab | failed: $(tail -n 1 "$OUT/$r.log") | | | | | | |"; continue; fi
    awk -F, -v lab="$lab" '
        /^#/ { next }
        $1 == "t" { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { t = $1; w = $(c["w"]); my = $(c["my"]); mz = $(c["mz"]); fn = $(c["fn"])
          if (t > 2 + 1e-9) next
          r = 1e3 * sqrt(my * my + mz * mz); rl = r; wl = w
          if (on == "" && fn > 1000) on = sprintf("%.3f", t)
          if (t >= 1.5 - 1e-9) { if (lo == "" || r < lo) lo = r; if (r > hi) hi = r; sr += r; sw += w; n++
                                 if (fn > fmax) fmax = fn } }
        END { if (on == "") on = "-"
              printf "| %s | %.2f | %.2f | %s | %.0f | %.2f | %.2f-%.2f | %.2f |\n",
                     lab, wl, sw / n, on, fmax, sr / n, lo, hi, rl }' "$OUT/$r.csv"
done
# the runs to 3 s: M's orbit radius from 2 to 3 s and the contact over 2-3 s
# (the report: intermittent contact at 2.1 and 2.6 s, re-impacts of about 100
# N, "an order of magnitude larger" than in continuous contact): the share of
# the 1 ms rows in contact, the mean and largest contact force over them
echo
echo "| run to 3 s | spin at 3 s (rad/s) | M's orbit radius 2-3 s: mean (mm) | range | rows in contact 2-3 s | mean force in contact (N) | largest (N) |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for r in $runs; do
    [ -s "$OUT/$r.csv" ] || continue
    tail -n 2 "$OUT/$r.csv" | grep -q '^3,' || continue
    lab=$(case $r in z5long) echo "shaft modal damping zeta = 0.05, h = 3.125 us";; rb1long) echo "C = 1e-3 s K, h = 3.125 us";;
          rb03long) echo "C = 3e-4 s K, h = 3.125 us";; cb1e-3mu0) echo "step control, C = 1e-3 s K, no friction";;
          cb*) echo "step control, C = ${r#cb} s K";; *) echo "$r";; esac)
    awk -F, -v lab="$lab" '/^#/ { next }
        $1 == "t" { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { t = $1; fn = $(c["fn"]); w = $(c["w"]); r = 1e3 * sqrt($(c["my"])^2 + $(c["mz"])^2)
          if (t < 2 - 1e-9) next
          sr += r; nr++; if (r > rh) rh = r; if (rl == "" || r < rl) rl = r
          if (fn > 0) { nc++; sf += fn; if (fn > fm) fm = fn } }
        END { printf "| %s | %.2f | %.2f | %.2f-%.2f | %d of %d | %.0f | %.0f |\n", lab, w, sr / nr, rl, rh,
                     nc, nr, nc ? sf / nc : 0, fm }' "$OUT/$r.csv"
done
