#!/bin/sh
# Bauchau et al. 2006 E4 (examples/energy_map.jnt): how much a cell of the
# energy map moves under tiny perturbations, and why (issue 30 item 1).
#  1. the N = 100 N slice (Fig. 3.8), r = 0.6..8.0, each cell 8 times with
#     v1(0) = 2 m/s moved by k 2e-13 relative (k = 0..7), at the paper's RK4
#     step of 1 ms and at 0.1 ms (the example's): mean, min, max of D_34, the
#     local maxima of the mean;
#  2. the cells r = 2.9 and 3.9 at steps from 1 ms down to 5 us, 8 runs each:
#     the spread and the value as h shrinks;
#  3. two runs of examples/stribeck_3dof.jnt (N = 100 N, r = 2.9, to 15.1 s)
#     whose r differ by one ulp: the largest state difference so far, at
#     times 1..15 s, for h = 1 ms, 0.1 ms, 20 us.
# Not part of make bench (about 4 minutes on one free core); docs/sweeps.md
# quotes its output. Run from the repository root with B set.
set -e
B=${B:-build}
J=$B/jnt
W=$B/bench/energy_map_spread
mkdir -p "$W"
V=$(awk 'BEGIN { for (k = 0; k < 8; k++) printf "%s%.17g", k ? "," : "", 2 * (1 + k * 2e-13) }')

# ---- 1. the N = 100 N slice with error bars ---------------------------------
for h in 1ms 0.1ms; do
    "$J" sweep examples/energy_map.jnt -D N=100 -D h_step=$h --grid r=0.6:8:0.1 --list v10="$V" \
        -o "$W/slice_$h.csv" 2> /dev/null
done
# r, mean, min, max of D_34 over the 8 runs of each cell
stat() {
    awk -F, 'NR > 1 && !/^#/ { r = sprintf("%.1f", $2); n[r]++; s[r] += $4
             if (!(r in lo) || $4 < lo[r]) lo[r] = $4; if (!(r in hi) || $4 > hi[r]) hi[r] = $4 }
        END { for (r in n) printf "%s %.4f %.4f %.4f\n", r, s[r] / n[r], lo[r], hi[r] }' "$1" | sort -n
}
stat "$W/slice_1ms.csv" > "$W/s1.txt"
stat "$W/slice_0.1ms.csv" > "$W/s01.txt"
echo "N = 100 N, D_34 (J) over 8 runs a cell (v1(0) moved by k 2e-13 relative, k = 0..7):"
echo "r    | h = 1 ms: mean [min, max] spread | h = 0.1 ms: mean [min, max] spread"
paste -d' ' "$W/s1.txt" "$W/s01.txt" | awk '{ a[NR] = $2; b[NR] = $6; line[NR] = $0; n = NR }
    END { for (i = 1; i <= n; i++) { split(line[i], f, " ")
              pa = (i > 1 && i < n && a[i] > a[i-1] && a[i] > a[i+1]) ? "*" : " "
              pb = (i > 1 && i < n && b[i] > b[i-1] && b[i] > b[i+1]) ? "*" : " "
              printf "%s | %6.2f [%6.2f, %6.2f] %5.2f %s | %6.2f [%6.2f, %6.2f] %5.3f %s\n",
                  f[1], f[2], f[3], f[4], f[4] - f[3], pa, f[6], f[7], f[8], f[8] - f[7], pb } }'
echo "(* a local maximum of the mean)"
awk '{ s = $4 - $3; if (s > m) { m = s; at = $1 } t += s; n++ }
    END { printf "h = 1 ms: largest spread %.2f J at r = %s, mean spread %.3f J\n", m, at, t / n }' "$W/s1.txt"
awk '{ s = $4 - $3; if (s > m) { m = s; at = $1 } t += s; n++ }
    END { printf "h = 0.1 ms: largest spread %.3f J at r = %s, mean spread %.3f J\n", m, at, t / n }' "$W/s01.txt"
echo

# ---- 2. the spread and the value against the step ---------------------------
echo "D_34 (J) at N = 100 N, 8 runs a cell, against the RK4 step:"
echo "r   | h      | mean    | min     | max     | spread"
for r in 2.9 3.9; do
    for h in 1ms 0.5ms 0.1ms 50us 20us 5us; do
        "$J" sweep examples/energy_map.jnt -D N=100 -D r=$r -D h_step=$h --list v10="$V" \
            -o "$W/h_${r}_$h.csv" 2> /dev/null
        awk -F, -v r=$r -v h=$h 'NR > 1 && !/^#/ { n++; s += $3; if (n == 1 || $3 < lo) lo = $3; if (n == 1 || $3 > hi) hi = $3 }
            END { printf "%s | %-6s | %7.3f | %7.3f | %7.3f | %.3f\n", r, h, s / n, lo, hi, hi - lo }' "$W/h_${r}_$h.csv"
    done
done
echo

# ---- 3. two runs one ulp of r apart -------------------------------------------
echo "max |state difference| up to t (x in m, v in m/s), N = 100 N, r = 2.9 and 2.9 (1 + 2^-52):"
r2=$(awk 'BEGIN { printf "%.17g", 2.9 * (1 + 2 ^ -52) }')
printf 'h      '; for t in 1 2 3 4 5 6 7 8 9 10 12 15; do printf '| %-7s ' "${t} s"; done; echo
for h in 1ms 0.1ms 20us; do
    "$J" run examples/stribeck_3dof.jnt -D N=100 -D r=2.9 -D t_end=15.1 --h $h -o "$W/a.csv" > /dev/null 2>&1
    "$J" run examples/stribeck_3dof.jnt -D N=100 -D r="$r2" -D t_end=15.1 --h $h -o "$W/b.csv" > /dev/null 2>&1
    paste -d, "$W/a.csv" "$W/b.csv" | awk -F, -v h=$h -v n=16 '
        NR > 1 && $1 + 0 == $1 { for (i = 2; i <= 7; i++) { d = $i - $(i + n); if (d < 0) d = -d; if (d > m) m = d }
            for (k = 1; k <= 12; k++) if (!(k in at) && $1 >= T[k] - 1e-9) at[k] = m }
        BEGIN { split("1 2 3 4 5 6 7 8 9 10 12 15", T, " ") }
        END { printf "%-6s ", h; for (k = 1; k <= 12; k++) printf "| %.1e ", at[k]; printf "\n" }'
done
