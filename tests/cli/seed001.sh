#!/bin/sh
# Seed 001's sweeps (issue 15): E4's energy map (examples/energy_map.jnt) and
# steady-state forced response (examples/forced_3dof.jnt, continued from one
# driving ratio to the next), E5's beam-end frequency response
# (examples/beam_frf.jnt) against the modal formula and E5's free-response
# energy map (examples/beam_mass_friction.jnt), on coarse grids; the full
# ones are in docs/sweeps.md. Each check names its source and tolerance.
# Prints PASS/FAIL lines, and INFO lines with the comparisons that are
# reported but not checked (docs/sweeps.md says why), and MEASURE lines with
# the figures docs/sweeps.md quotes (tests/docs/numbers.py checks them).
# Run from the repository root with B set to the build directory.
B=${B:-build}
J=$B/jnt
T=$B/tests/seed001
rm -rf "$T"
mkdir -p "$T"
pass() { echo "PASS: seed001: $*"; }
fail() { echo "FAIL: seed001: $*"; }

# ---- E4 energy map: Table 3.3's points, N = 0 and 100 N ---------------------
# (examples/energy_map.jnt at its RK4 step of 0.1 ms; docs/sweeps.md)
"$J" sweep examples/energy_map.jnt --list N=0,100 --list r=1,1.1,2,2.9,3.9,4.7,5.7 \
    -o "$T/table.csv" -j 2 2> "$T/table.err" || fail "energy map table: $(cat "$T/table.err")"
# the frictionless row (linear) against its closed form, and the readings of
# eq. 3.9 it confirms and refutes (tests/cli/e4_linear.py; docs/sweeps.md)
/usr/bin/python3 tests/cli/e4_linear.py "$T/table.csv" || true
# Table 3.3 with friction (N = 100 N): 100 D_34 / D_tot beside the paper's,
# 0.5 points, but r = 4.7 (ours 5.9 %: our peak is at 4.8, see below) 1.0 point
if awk -F, 'NR > 1 && !/^#/ && $2 == 100 { p[$3 + 0] = 100 * $4 / $7 }
    END { split("1.1 2 2.9 3.9 4.7 5.7", r, " "); split("11 7.0 6.7 6.6 6.7 6.1", a, " ")
          split("0.5 0.5 0.5 0.5 1.0 0.5", tol, " ")
          for (i = 1; i <= 6; i++) { d = p[r[i] + 0] - a[i]; if (d < 0) d = -d; if (d > tol[i]) bad = 1
              s = s sprintf(" %s: %.2f (%s)", r[i], p[r[i] + 0], a[i])
              printf "MEASURE: seed001.e4.t100.share.r%s %.6g\n", r[i], p[r[i] + 0] }
          printf "%s", s > "/dev/stderr"; exit bad }' "$T/table.csv" 2> "$T/t100.txt"
then pass "E4 Table 3.3, N = 100 N, 100 D_34 / D_tot (%) at r =$(cat "$T/t100.txt") (paper in parentheses; 0.5 points, 1.0 at 4.7)"
else fail "E4 Table 3.3, N = 100 N: r =$(cat "$T/t100.txt") (paper in parentheses)"; fi
# r = 1.1: friction raises the total dissipated energy, 130.4 J -> 189.7 J
# (thesis Sect. 3.5); tolerance 1 %
if awk -F, 'NR > 1 && !/^#/ && $3 == 1.1 { E[$2] = $7 }
    END { printf "%.1f J and %.1f J", E[0], E[100] > "/dev/stderr"
          printf "MEASURE: seed001.e4.dtot.r1.1.n0 %.6g\nMEASURE: seed001.e4.dtot.r1.1.n100 %.6g\n", E[0], E[100]
          printf "MEASURE: seed001.e4.dtot.r1.1.n0.rel %.6g\nMEASURE: seed001.e4.dtot.r1.1.n100.rel %.6g\n", 100 * (E[0] / 130.4 - 1), 100 * (E[100] / 189.7 - 1)
          e0 = E[0] / 130.4 - 1; e1 = E[100] / 189.7 - 1
          exit !(E[100] > E[0] && e0 < 0.01 && e0 > -0.01 && e1 < 0.01 && e1 > -0.01) }' "$T/table.csv" 2> "$T/r11.txt"
then pass "E4 r = 1.1: total dissipation without and with friction $(cat "$T/r11.txt") (paper 130.4, 189.7 J; 1 %)"
else fail "E4 r = 1.1: total dissipation $(cat "$T/r11.txt") (paper 130.4, 189.7 J)"; fi

# permanent sticking: the paper has it "shortly after 15 s" (Sect. 3.5); at
# N = 100 N ours comes before the end of the run, t_f = 15.1 s, at r = 2..5.7
# (measured 10.0-12.1 s): printed beside the paper's, checked only to be
# inside the run (docs/laws.md)
if awk -F, 'NR > 1 && !/^#/ && $2 == 100 && $3 >= 2 { s = s sprintf(" %s: %s s", $3, $8); if ($8 == "nan" || $8 + 0 >= 15.1) bad = 1 }
    END { printf "%s", s > "/dev/stderr"; exit bad }' "$T/table.csv" 2> "$T/tslip.txt"
then pass "E4 N = 100 N: mass 2 sticks for good within the run, last slip at r =$(cat "$T/tslip.txt") (paper: shortly after 15 s, not reproduced)"
else fail "E4 N = 100 N: last slip at r =$(cat "$T/tslip.txt")"; fi

# the peaks of D_34 at N = 100 N (Fig. 3.8: r = 2.0, 2.9, 3.9, 4.7, 5.7): in a
# window of the 0.1 grid around each, the largest D_34 lies within 0.1 of
# the paper's r and inside the window (ours: 1.9, 2.9, 3.9, 4.8, 5.8)
"$J" sweep examples/energy_map.jnt -D N=100 --list r=1.8,1.9,2,2.1,2.8,2.9,3,3.8,3.9,4,4.6,4.7,4.8,4.9,5.6,5.7,5.8,5.9 \
    -o "$T/peaks.csv" -j 2 2> /dev/null
if awk -F, 'NR > 1 && !/^#/ { d[sprintf("%.1f", $2)] = $3 }
    END { split("1.8:2.1:2.0 2.8:3.0:2.9 3.8:4.0:3.9 4.6:4.9:4.7 5.6:5.9:5.7", w, " ")
          for (i = 1; i <= 5; i++) { split(w[i], q, ":"); m = -1
              for (x = q[1] + 0; x <= q[2] + 1e-9; x += 0.1) { k = sprintf("%.1f", x); if (d[k] > m) { m = d[k]; at = x } }
              e = at - q[3]; if (e < 0) e = -e
              if (e > 0.1 + 1e-9 || at < q[1] + 0.05 || at > q[2] - 0.05) bad = 1
              s = s sprintf(" %.1f (%s, %.2f J)", at, q[3], m)
              printf "MEASURE: seed001.e4.peak%d.r %.6g\nMEASURE: seed001.e4.peak%d.d34 %.6g\n", i, at, i, m }
          printf "%s", s > "/dev/stderr"; exit bad }' "$T/peaks.csv" 2> "$T/peaks.txt"
then pass "E4 N = 100 N: D_34 peaks at r =$(cat "$T/peaks.txt") (Fig. 3.8 in parentheses; 0.1, the grid)"
else fail "E4 N = 100 N: D_34 peaks at r =$(cat "$T/peaks.txt") (Fig. 3.8 in parentheses)"; fi

# the round-off jumps (issue 30): the same cell (N = 100 N, r = 2.9) with
# v1(0) moved by 0 to 2.8e-12 m/s (k 2e-13 relative, k = 0..7), 8 runs, at the paper's step of 1 ms and at
# 0.1 ms: the spread of D_34 is over 0.5 J at 1 ms (measured 5.18 J) and
# under 0.2 J at 0.1 ms (measured 0.057 J): the fixed 1 ms step crosses the
# stick band (2 v_s = 2 mm/s) in one step. docs/sweeps.md, bench/energy_map_spread.sh
V=2,2.0000000000002,2.0000000000004,2.0000000000006,2.0000000000008,2.000000000001,2.0000000000012,2.0000000000014
"$J" sweep examples/energy_map.jnt -D N=100 -D r=2.9 -D h_step=1ms --list v10=$V -o "$T/sp1.csv" -j 2 2> /dev/null
"$J" sweep examples/energy_map.jnt -D N=100 -D r=2.9 --list v10=$V -o "$T/sp01.csv" -j 2 2> /dev/null
spread() { awk -F, 'NR > 1 && !/^#/ { if (n++ == 0 || $3 < lo) lo = $3; if ($3 > hi) hi = $3 } END { printf "%.3f", hi - lo }' "$1"; }
s1=$(spread "$T/sp1.csv"); s01=$(spread "$T/sp01.csv")
echo "MEASURE: seed001.e4.spread.h1ms $s1"; echo "MEASURE: seed001.e4.spread.h01ms $s01"
if awk -v a="$s1" -v b="$s01" 'BEGIN { exit !(a > 0.5 && b < 0.2) }'
then pass "E4 N = 100 N, r = 2.9, v1(0) moved by up to 2.8e-12 m/s (8 runs): D_34 spread $s1 J at h = 1 ms (> 0.5 J), $s01 J at 0.1 ms (< 0.2 J)"
else fail "E4 N = 100 N, r = 2.9: D_34 spread $s1 J at 1 ms, $s01 J at 0.1 ms"; fi

# the absorber peak near r = 1 (Fig. 3.7b): the largest dissipation of
# dampers 3 and 4 over r = 0.6..2 lies at r = 0.9..1.1, for N = 0 and 100 N
"$J" sweep examples/energy_map.jnt --list N=0,100 --grid r=0.6:2:0.1 -o "$T/peak.csv" -j 2 2> /dev/null
if awk -F, 'NR > 1 && !/^#/ { if (!($2 in m) || $4 > m[$2]) { m[$2] = $4; at[$2] = $3 } }
    END { printf "r = %.1f (N = 0), %.1f (N = 100 N)", at[0], at[100] > "/dev/stderr"
          printf "MEASURE: seed001.e4.absorber.n0 %.6g\nMEASURE: seed001.e4.absorber.n100 %.6g\n", at[0], at[100]
          exit !(at[0] > 0.85 && at[0] < 1.15 && at[100] > 0.85 && at[100] < 1.15) }' "$T/peak.csv" 2> "$T/peak.txt"
then pass "E4 the absorber peak of dampers 3 and 4 near r = 1: $(cat "$T/peak.txt") (Fig. 3.7b; grid 0.1)"
else fail "E4 absorber peak: $(cat "$T/peak.txt")"; fi

# mass 2 stuck throughout (paper: for N above about 110 N). While it sticks,
# mass 1 is a damped oscillator on k1 + k2 (c1 + c2) and mass 3 stays at
# rest, so it sticks for good if mu* N exceeds max |k2 x1 + c2 v1|, which
# awk computes from the closed form; the sweep over N (1 N steps) must turn
# from slipping to stuck within 1 N of it, at r = 1 and 4
nstar=$(awk 'BEGIN { m1 = 100; k = 1100; c1 = 2 * 0.01 * sqrt(1100 / 100) * 100
    c2 = 2 * 0.01 * sqrt(200 / 0.25) * 0.25; s = (c1 + c2) / (2 * m1); wd = sqrt(k / m1 - s * s)
    for (t = 0; t < 4; t += 1e-5) { e = exp(-s * t); x = 2 / wd * e * sin(wd * t)
        v = 2 * e * (cos(wd * t) - s / wd * sin(wd * t)); f = 100 * x + c2 * v; if (f < 0) f = -f
        if (f > fm) fm = f }
    printf "%.2f %.2f", fm / 0.5, fm }')
set -- $nstar; nstar=$1
echo "MEASURE: seed001.e4.stuck.nstar $1"; echo "MEASURE: seed001.e4.stuck.fmax $2"
"$J" sweep examples/energy_map.jnt --grid N=110:126:1 --list r=1,4 -o "$T/stuck.csv" -j 2 2> /dev/null
if awk -F, -v ns="$nstar" 'NR > 1 && !/^#/ { if ($8 == "nan") { if (s == "" || $2 + 0 < s) s = $2 + 0 } else if ($2 > l) l = $2 }
    END { printf "slips up to %g N, stuck from %g N", l, s > "/dev/stderr"
          printf "MEASURE: seed001.e4.stuck.slips_to %.6g\nMEASURE: seed001.e4.stuck.from %.6g\n", l, s
          exit !(s == l + 1 && s > ns - 1 && l < ns + 1) }' "$T/stuck.csv" 2> "$T/stuck.txt"
then pass "E4 mass 2 stuck throughout: $(cat "$T/stuck.txt"); closed form $nstar N (paper: above about 110 N)"
else fail "E4 mass 2 stuck throughout: $(cat "$T/stuck.txt"); closed form $nstar N"; fi

# ---- E4 steady-state forced response (Fig. 3.5), continued along d ----------
# peak_in FILE LO HI: the driving ratio of the largest X3_rms with LO <= d <= HI
peak_in() {
    awk -F, -v lo="$2" -v hi="$3" 'NR > 1 && !/^#/ && $3 >= lo - 1e-9 && $3 <= hi + 1e-9 && $6 > m { m = $6; at = $3 }
        END { printf "%.2f", at }' "$1"
}
"$J" sweep examples/forced_3dof.jnt -D N=100N --list r=4 --grid d=1.2:1.45:0.01 --continue d -o "$T/f4.csv" -j 2 2> /dev/null
"$J" sweep examples/forced_3dof.jnt -D N=100N --list r=3 --grid d=0.5:0.7:0.01 --continue d -o "$T/f3.csv" -j 2 2> /dev/null
"$J" sweep examples/forced_3dof.jnt -D N=100N --list r=1 --grid d=0.85:1.1:0.01 --continue d -o "$T/f1.csv" -j 2 2> /dev/null
# r = 4: the internal resonance at d = omega3 / (3 omega1) = 1.33 (paper: 1.33), 0.02
p4=$(peak_in "$T/f4.csv" 1.2 1.45)
echo "MEASURE: seed001.forced.r4.peak $p4"
if awk -v p="$p4" 'BEGIN { exit !(p >= 1.31 && p <= 1.35) }' &&
   awk -F, 'NR > 1 && !/^#/ { x[sprintf("%.2f", $3)] = $6 } END { exit !(x["1.33"] > 1.5 * x["1.25"] && x["1.33"] > 1.5 * x["1.41"]) }' "$T/f4.csv" &&
   awk -F, 'NR > 1 && !/^#/ { x[sprintf("%.2f", $3)] = $6 }
       END { printf "MEASURE: seed001.forced.r4.x3 %.6g\nMEASURE: seed001.forced.r4.over125 %.6g\nMEASURE: seed001.forced.r4.over141 %.6g\n",
                    x["1.33"], x["1.33"] / x["1.25"], x["1.33"] / x["1.41"] }' "$T/f4.csv"
then pass "E4 forced, r = 4: X3_rms peaks at d = $p4, 1.5 times its level at 1.25 and 1.41 (paper: internal resonance at 1.33; 0.02)"
else fail "E4 forced, r = 4: the peak at d = $p4 (paper 1.33)"; fi
# r = 3: the small 1/5 peak at d = 0.6 (paper), 0.02
p3=$(peak_in "$T/f3.csv" 0.5 0.7)
echo "MEASURE: seed001.forced.r3.peak $p3"
awk -F, -v p="$p3" 'NR > 1 && !/^#/ && sprintf("%.2f", $3) == p { printf "MEASURE: seed001.forced.r3.x3 %.6g\n", $6 }' "$T/f3.csv"
awk -v p="$p3" 'BEGIN { exit !(p >= 0.58 && p <= 0.62) }' &&
pass "E4 forced, r = 3: X3_rms peaks at d = $p3 over 0.5..0.7 (paper: the 1/5 peak at 0.6; 0.02)" ||
fail "E4 forced, r = 3: the peak at d = $p3 (paper 0.6)"
# r = 1: the double peak near d = 1: local maxima at the linear modes
# 3.08 and 3.32 rad/s (Table 3.2), d = 0.93 and 1.00, 0.02 each
if awk -F, 'NR > 1 && !/^#/ { d[n] = $3; x[n++] = $6 }
    END { for (i = 1; i < n - 1; i++) if (x[i] > x[i - 1] && x[i] > x[i + 1]) {
              k++; s = s sprintf(" %.2f", d[i]); printf "MEASURE: seed001.forced.r1.max%d %.6g\nMEASURE: seed001.forced.r1.max%d.x3 %.6g\n", k, d[i], k, x[i]; if (d[i] >= 0.91 && d[i] <= 0.95) a = 1; if (d[i] >= 0.98 && d[i] <= 1.02) b = 1 }
          printf "%s", s > "/dev/stderr"; exit !(k == 2 && a && b) }' "$T/f1.csv" 2> "$T/f1.txt"
then pass "E4 forced, r = 1: a double peak, X3_rms has local maxima at d =$(cat "$T/f1.txt") (paper: double peak near 1; modes at 0.93, 1.00; 0.02)"
else fail "E4 forced, r = 1: local maxima at d =$(cat "$T/f1.txt")"; fi

# ---- E5 beam-end frequency response, the beam alone (Figs. 4.4-4.5) --------
# amplitude and phase of the first harmonic against the modal formula of the
# four modes (thesis eq. 4.8, unit modal mass, phi_i(L) = 2 / sqrt(rho A L)),
# 1 % and 1 deg; the peaks near 13.7 and 85.9 rad/s and the zero near 60.3
# rad/s (paper) on 0.1 rad/s grids, continued from one frequency to the next;
# the first run of each chain starts from rest (its transient is only 4 time
# constants of mode 1 old) and leads in: it is not compared
"$J" sweep examples/beam_frf.jnt -D N=0 --grid omega_d=12.9:14.4:0.1 --continue omega_d -o "$T/b1.csv" -j 2 2> /dev/null
"$J" sweep examples/beam_frf.jnt -D N=0 --grid omega_d=59.4:61:0.1 --continue omega_d -o "$T/b2.csv" -j 2 2> /dev/null
"$J" sweep examples/beam_frf.jnt -D N=0 --grid omega_d=85.1:86.6:0.1 --continue omega_d -o "$T/b3.csv" -j 2 2> /dev/null
cat > "$T/modal.awk" <<'AWK'
# H(w) = sum_i phi_i(L)^2 / (w_i^2 - w^2 + 2 i zeta w_i w), x = W (Re H sin + Im H cos)
function modal(w,   i, l, wi, dr, di, den) {
    split("1.87510407 4.69409113 7.85475744 10.99554073", l, " ")
    HR = 0; HI = 0
    for (i = 1; i <= 4; i++) {
        wi = l[i] * l[i] * sqrt(7.3e10 * 1.325e-10 / 0.636)
        dr = wi * wi - w * w; di = 2 * 0.01 * wi * w; den = dr * dr + di * di
        HR += 4 / 0.636 * dr / den; HI -= 4 / 0.636 * di / den
    }
}
NR > 3 { modal($2); # after the header, the comment line and the first run
      a = 2 * $4; b = 2 * $5; A = sqrt(a * a + b * b); Am = sqrt(HR * HR + HI * HI)
    e = A / Am - 1; if (e < 0) e = -e; if (e > ea) ea = e
    p = (atan2(b, a) - atan2(HI, HR)) * 57.29577951; if (p < 0) p = -p; if (p > ep) ep = p
    if (A > big) { big = A; wb = $2 } if (small == "" || A < small) { small = A; ws = $2 }
    ph = atan2(b, a) * 57.29577951; if (NR == 4) ph0 = ph; ph1 = ph }
END { printf "%.2g %.2g %.1f %.1f %.0f %.0f", ea, ep, wb, ws, ph0, ph1 }
AWK
r1=$(awk -F, -f "$T/modal.awk" "$T/b1.csv"); r2=$(awk -F, -f "$T/modal.awk" "$T/b2.csv"); r3=$(awk -F, -f "$T/modal.awk" "$T/b3.csv")
echo "$r1 $r2 $r3" | awk '{ printf "MEASURE: seed001.beam.peak1 %s\nMEASURE: seed001.beam.zero %s\nMEASURE: seed001.beam.peak2 %s\n", $3, $10, $15
    printf "MEASURE: seed001.beam.phase.from %s\nMEASURE: seed001.beam.phase.to %s\n", $11, $12
    for (i = 0; i < 3; i++) { if ($(6 * i + 1) > ea) ea = $(6 * i + 1); if ($(6 * i + 2) > ep) ep = $(6 * i + 2) }
    printf "MEASURE: seed001.beam.amp_err_pct %.6g\nMEASURE: seed001.beam.phase_err_deg %.6g\n", 100 * ea, ep }'
awk -F, 'NR > 2 && sprintf("%.1f", $2) == "60.3" { printf "MEASURE: seed001.beam.phase.at60.3 %.6g\n", atan2(2 * $5, 2 * $4) * 57.29577951 }' "$T/b2.csv"
if echo "$r1 $r2 $r3" | awk '{ for (i = 0; i < 3; i++) { if ($(6 * i + 1) > 0.01 || $(6 * i + 2) > 1) bad = 1 }
        if ($3 < 13.6 || $3 > 13.8) bad = 1; if ($10 < 60.2 || $10 > 60.4) bad = 1; if ($15 < 85.8 || $15 > 86) bad = 1
        if ($11 > -135 || $12 < -45) bad = 1; exit bad }'
then set -- $r1 $r2 $r3
     pass "E5 beam alone: peaks at $3 and ${15} rad/s, the zero at ${10} rad/s with the phase from ${11} to ${12} deg over 59.5..61 (paper 13.7, 85.9, 60.3, 180 deg; grid 0.1); amplitude and phase = the modal formula to $1 $7 ${13}, $2 $8 ${14} deg (1 %, 1 deg)"
else fail "E5 beam alone: $r1 / $r2 / $r3"; fi

# ---- E5 free-response energy map (Fig. 4.8, t_f = 4.6 s) --------------------
# the energy left is lowest near omega_n2 = 60 rad/s (paper, "flat for
# N > 2") and highest near the beam's modes (15 or 85 rad/s on a 5 rad/s grid)
"$J" sweep examples/beam_mass_friction.jnt -D t_end=4.6 --grid omega_n2=5:100:5 --list N=5,10 -o "$T/e5.csv" -j 2 2> /dev/null
if awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } /^#/ { next }
    { N = $3; E = $c["E"]; if (!(N in lo) || E < lo[N]) { lo[N] = E; wl[N] = $2 }; if (E > hi[N]) { hi[N] = E; wh[N] = $2 } }
    $2 == 25 || $2 == 30 || $2 == 35 || $2 == 55 || $2 == 60 || $2 == 65 { printf "MEASURE: seed001.e5.n%s.E.w%s %.6g\n", N, $2, E }
    END { printf "lowest at %s (N = 5 N), %s rad/s (N = 10 N), highest at %s, %s rad/s", wl[5], wl[10], wh[5], wh[10] > "/dev/stderr"
          for (N in lo) printf "MEASURE: seed001.e5.n%s.lowest %s\nMEASURE: seed001.e5.n%s.lowest.E %.6g\nMEASURE: seed001.e5.n%s.highest %s\nMEASURE: seed001.e5.n%s.highest.E %.6g\n", N, wl[N], N, lo[N], N, wh[N], N, hi[N]
          for (N in lo) if (wl[N] < 55 || wl[N] > 65 || (wh[N] != 15 && wh[N] != 85)) exit 1 }' "$T/e5.csv" 2> "$T/e5.txt"
then pass "E5 free-response energy map: $(cat "$T/e5.txt") (paper: lowest near 60, poorest near the beam's 13.7 and 85.9; grid 5)"
else fail "E5 free-response energy map: $(cat "$T/e5.txt")"; fi
# weak friction (N = 1 and 2 N, the same grid): N = 1 N leaves about the
# mass's 1 J at every omega_n2 (0.95..1.15 J); N = 2 N a flat 0.34..0.35 J
# over 40..75 rad/s; printed for docs/sweeps.md
"$J" sweep examples/beam_mass_friction.jnt -D t_end=4.6 --grid omega_n2=5:100:5 --list N=1,2 -o "$T/e5w.csv" -j 2 2> /dev/null
if awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } /^#/ { next }
    { N = $3; w = $2 + 0; E = $c["E"]; k = N (w >= 40 && w <= 75 ? "mid" : (w >= 25 && w <= 35 ? "low" : "out"))
      if (!(k in lo) || E < lo[k]) lo[k] = E; if (!(k in hi) || E > hi[k]) hi[k] = E
      if (!(N in a) || E < a[N]) a[N] = E; if (!(N in b) || E > b[N]) b[N] = E }
    END { printf "MEASURE: seed001.e5.n1.min %.6g\nMEASURE: seed001.e5.n1.max %.6g\n", a[1], b[1]
          printf "MEASURE: seed001.e5.n2.mid.min %.6g\nMEASURE: seed001.e5.n2.mid.max %.6g\n", lo["2mid"], hi["2mid"]
          printf "MEASURE: seed001.e5.n2.low.min %.6g\nMEASURE: seed001.e5.n2.low.max %.6g\n", lo["2low"], hi["2low"]
          printf "N = 1 N: %.3f..%.3f J; N = 2 N: %.3f..%.3f J over 40..75 rad/s", a[1], b[1], lo["2mid"], hi["2mid"] > "/dev/stderr"
          exit !(a[1] > 0.95 && b[1] < 1.15 && lo["2mid"] > 0.335 && hi["2mid"] < 0.355) }' "$T/e5w.csv" 2> "$T/e5w.txt"
then pass "E5 free-response energy map, weak friction: $(cat "$T/e5w.txt") (N = 1 N: 0.95..1.15 J everywhere; N = 2 N: 0.335..0.355 J; grid 5)"
else fail "E5 free-response energy map, weak friction: $(cat "$T/e5w.txt")"; fi
# the same map over the example's 10 s (docs/sweeps.md's introduction): the
# least energy left per N on the 5 rad/s grid, within 55..75 rad/s for N = 5
# and 10 N (paper: "minimum near 60 rad/s")
"$J" sweep examples/beam_mass_friction.jnt --grid omega_n2=5:100:5 --list N=1,5,10 -o "$T/e5t.csv" -j 2 2> /dev/null
if awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } /^#/ { next }
    { N = $3; E = $c["E"]; if (!(N in lo) || E < lo[N]) { lo[N] = E; wl[N] = $2 } }
    END { for (N in lo) printf "MEASURE: seed001.e5.t10.n%s.lowest %s\nMEASURE: seed001.e5.t10.n%s.lowest.E %.6g\n", N, wl[N], N, lo[N]
          printf "lowest at %s, %s, %s rad/s for N = 1, 5, 10 N", wl[1], wl[5], wl[10] > "/dev/stderr"
          exit !(wl[5] >= 55 && wl[5] <= 75 && wl[10] >= 55 && wl[10] <= 75) }' "$T/e5t.csv" 2> "$T/e5t.txt"
then pass "E5 free-response energy map over 10 s: $(cat "$T/e5t.txt") (paper: minimum near 60; 55..75 for N = 5, 10 N; grid 5)"
else fail "E5 free-response energy map over 10 s: $(cat "$T/e5t.txt")"; fi
