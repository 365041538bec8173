# bench/peers.sh: section 19 of `make bench`, sourced by bench/run.sh (uses its
# B, OUT, RAW, RES, N, STAT and helpers). Alone:
#   B=build sh bench/peers.sh        (runs bench/run.sh with BENCH_SECTIONS=19)
#
# jnt against the C programs it should match (issue 31), each pair side by side
# in one run: N rounds, every variant once a round (a burst of load on this
# shared machine hits all alike), the STAT of the rounds, CPU time; the ratios
# jnt : peer are the median over the rounds of the ratio within a round. The
# peers are built by the Makefile ($B/bench/peer_*, `make B=.. peers`) from
# Debian's libsundials-dev and libmujoco-dev.
#   a. FrDyn2 (examples/frdyn2_bench.jnt, the four tE of section 2) against
#      bench/peer_frdyn2_cvode.c (CVODE BDF, analytic Jacobian, dense LU, the
#      same rtol/atol and output grid): the solver phase (jnt --stats CPU, no
#      output file; the peer's clock() from CVodeCreate to the last step, no
#      file) and the whole process writing its CSV (user + sys, bench/cpuit.c).
#   b. Andrews' squeezer against bench/peer_andrews_ida.c (IDA, GGL index-2
#      form in the test set's 7 angles, dense LU with IDA's difference
#      Jacobian) at the matched errors 1e-5 and 1e-7 rad (the largest |angle -
#      reference| at 0.03 s): each side's loosest rtol = atol on a
#      quarter-decade grid meeting the target; jnt's radau5 and ida, and its
#      rk4 (fixed step, the index-1 form projected: the squeezer is not stiff)
#      at the largest step of the grid 400 us * 2^(-k/4) meeting it; JIT (jnt
#      run) and gcc (jnt build) both timed (--stats CPU: jnt_run only), the
#      peer's clock() around IDA, in the same rounds.
#   c. the planar N-link pendulum (N = 10, 50: rods of 1/N kg and 1/N m from
#      rest horizontal, 1 s) against bench/peer_nlink_mujoco.c (MuJoCo 2.2.2,
#      RK4): jnt's generalized_alpha(h = 1 ms, rho_inf = 1), JIT and gcc; its
#      energy error max |E - E0| over the rows every 10 ms is the target, and
#      jnt's rk4 (the index-1 form, integ_dae_rk4.c) runs at its largest step
#      1 ms * 2^k (k = 3 .. -4) meeting it; for each jnt row MuJoCo at the
#      largest step of the same grid whose energy error is at most that row's,
#      and at 1 ms for information.
#   d. the chain scaling slope: examples/multimass.jnt with n = 100, 1,600 and
#      6,400 masses, bdf (sparse KLU), the log-log slope of the CPU per step
#      (section 9 has all integrators; linear is 1).
# shellcheck disable=SC2154
if ! command -v agg >/dev/null 2>&1; then
    BENCH_SECTIONS=19 exec sh bench/run.sh
fi
PE_DIR=$OUT/peers
mkdir -p "$PE_DIR"
PE_IDA=$B/bench/peer_andrews_ida
PE_CV=$B/bench/peer_frdyn2_cvode
PE_MJ=$B/bench/peer_nlink_mujoco
for p in "$PE_IDA" "$PE_CV" "$PE_MJ" "$B/bench/cpuit"; do
    [ -x "$p" ] || say "bench: $p is missing (make B=$B peers): its rows are n/a"
done
# pe_stat KEY LINE: the number after KEY in a "key value key value" line
pe_stat() { printf '%s\n' "$2" | tr ' ,' '\n\n' | awk -v k="$1" 'p { print; exit } $0 == k { p = 1 }'; }
# pe_cpu LINE: the CPU seconds of a jnt --stats line
pe_cpu() { printf '%s\n' "$1" | sed -n 's/.*cpu \([0-9.e+-]*\) s.*/\1/p'; }
# pe_proc CMD...: user + sys CPU seconds of the process CMD (bench/cpuit.c), output to /dev/null
pe_proc() { "$B/bench/cpuit" "$@" 2>> "$OUT/stderr.txt"; }
# pe_ratio A B: the median over the rounds of A/B (files of one number per round)
pe_ratio() {
    paste -d' ' "$1" "$2" | awk '$1 + 0 > 0 && $2 + 0 > 0 { print $1 / $2 }' | median |
        awk '{ if ($1 == "n/a") print "n/a"; else printf "%.3g", $1 }'
}
pe_agg() { grep -v '^$' "$1" 2>/dev/null | agg; }
rm -f "$PE_DIR"/*.cpu

# ---- a. FrDyn2 against C + CVODE ---------------------------------------------------
PE_TES="0.1 0.01 0.001 0.0001"
say "bench: peers: FrDyn2 against C + CVODE ($STAT_NAME of $N rounds)"
"$B/jnt" build examples/frdyn2_bench.jnt -o "$PE_DIR/frdyn2_sim" 2>> "$OUT/stderr.txt"
k=0
while [ $k -lt "$N" ]; do
    for te in $PE_TES; do
        st=$("$B/jnt" run examples/frdyn2_bench.jnt -D "tE=$te" -o "" --stats 2>&1 | tail -n 1)
        log "peers frdyn2 tE=$te jit: $st"
        pe_cpu "$st" >> "$PE_DIR/fr_$te.jit.cpu"
        st=$("$PE_DIR/frdyn2_sim" -D "tE=$te" -o "" --stats 2>&1 | tail -n 1)
        log "peers frdyn2 tE=$te gcc: $st"
        pe_cpu "$st" >> "$PE_DIR/fr_$te.gcc.cpu"
        if [ -x "$PE_CV" ]; then
            st=$("$PE_CV" "$te" "" 2>&1)
            log "peers frdyn2 tE=$te cvode: $st"
            pe_stat cpu "$st" >> "$PE_DIR/fr_$te.cv.cpu"
            pe_proc "$PE_CV" "$te" "$PE_DIR/fr_cv.csv" >> "$PE_DIR/fr_$te.cvp.cpu"
        fi
        pe_proc "$B/jnt" run examples/frdyn2_bench.jnt -D "tE=$te" -o "$PE_DIR/fr_jit.csv" \
            >> "$PE_DIR/fr_$te.jitp.cpu"
        pe_proc "$PE_DIR/frdyn2_sim" -D "tE=$te" -o "$PE_DIR/fr_gcc.csv" \
            >> "$PE_DIR/fr_$te.gccp.cpu"
    done
    k=$((k + 1))
done

# ---- b. Andrews' squeezer against IDA ------------------------------------------------
PE_TARGETS="1e-5 1e-7"
PE_AN_INTEG="radau5 ida rk4"
# rk4's steps: 400 us * 2^(-k/4), k = 0 .. 20 (400 us down to 12.5 us)
PE_AN_H="0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20"
PE_REF="15.81077119629904 -15.75637105984298 0.04082224013073101 -0.5347301163226948 0.5244099658805304 0.5347301163226948 1.048080741042263"
PE_TOLS="5 5.25 5.5 5.75 6 6.25 6.5 6.75 7 7.25 7.5 7.75 8 8.25 8.5 8.75 9 9.25 9.5 9.75 10 10.25 10.5 10.75 11 11.25 11.5 11.75 12"
awk '/^output / { skip = 1 } skip && /^}/ { skip = 0; next } !skip' examples/andrews_squeezer.jnt \
    > "$PE_DIR/andrews.jnt"
cat >> "$PE_DIR/andrews.jnt" <<'EOF'
output "andrews.csv" every 1 ms {
  t, beta = b1.angle, Theta = b2.angle - b1.angle, gamma = b3.angle,
  Phi = b4.angle - b5.angle, delta = b5.angle, Omega = b6.angle - b7.angle,
  epsilon = b7.angle
}
EOF
"$B/jnt" build "$PE_DIR/andrews.jnt" -o "$PE_DIR/andrews_sim" 2>> "$OUT/stderr.txt"
# pe_an_err CSV: the largest |angle - reference| at t = 0.03 s (or fail)
pe_an_err() {
    awk -F, -v ref="$PE_REF" '
        NR == 1 { split("beta Theta gamma Phi delta Omega epsilon", nm, " ")
                  for (i = 1; i <= NF; i++) col[$i] = i; next }
        /^#/ { next }
        { last = $0 }
        END { split(ref, r, " "); n = split(last, v, ",")
              if (n == 0 || v[col["t"]] < 0.03 - 1e-12) { print "fail"; exit }
              m = 0; for (i = 1; i <= 7; i++) { d = v[col[nm[i]]] - r[i]; if (d < 0) d = -d; if (d > m) m = d }
              printf "%.3g\n", m }' "$1"
}
# pe_an_jnt PROG INTEG TOL: one run of PROG (jit: jnt run MODEL; gcc: the simulator) with
# INTEG (radau5 or ida at rtol = atol = TOL; rk4 at the step TOL in s); prints "steps cpu err"
pe_an_jnt() {
    prog=$1 integ=$2 tol=$3
    rm -f "$PE_DIR/an.csv"
    if [ "$integ" = rk4 ]; then
        set -- -D "h=$tol s"
    else
        set -- --rtol "$tol" --atol "$tol"
    fi
    if [ "$prog" = jit ]; then
        st=$("$B/jnt" run "$PE_DIR/andrews.jnt" -o "$PE_DIR/an.csv" --stats --integrator "$integ" \
             "$@" 2>&1 | tail -n 1)
    else
        st=$("$PE_DIR/andrews_sim" -o "$PE_DIR/an.csv" --stats --integrator "$integ" "$@" 2>&1 |
             tail -n 1)
    fi
    log "peers andrews $prog $integ tol=$tol: $st"
    case $st in steps*) ;; *) echo "fail fail fail"; return ;; esac
    echo "$(printf '%s\n' "$st" | sed -n 's/^steps \([0-9]*\),.*/\1/p') $(pe_cpu "$st") $(pe_an_err "$PE_DIR/an.csv")"
}
# pe_le A B: A <= B (A a number)
pe_le() { case $1 in fail|''|n/a) return 1 ;; esac; awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; }
say "bench: peers: Andrews' squeezer against IDA (searching the tolerances)"
: > "$PE_DIR/an_rows"
for tg in $PE_TARGETS; do
    it="" ir=""
    for x in $PE_TOLS; do
        [ -x "$PE_IDA" ] || break
        tol=$(awk -v x="$x" 'BEGIN { printf "%.3g", 10 ^ -x }')
        r=$("$PE_IDA" "$tol" 2>> "$OUT/stderr.txt")
        log "peers andrews C ida tol=$tol: $r"
        pe_le "$(pe_stat err "$r")" "$tg" && { it=$tol ir=$r; break; }
    done
    for ig in $PE_AN_INTEG; do
        jt="" jr="" grid=$PE_TOLS
        [ "$ig" = rk4 ] && grid=$PE_AN_H
        for x in $grid; do
            if [ "$ig" = rk4 ]; then
                tol=$(awk -v k="$x" 'BEGIN { printf "%.4g", 4e-4 * 2 ^ (-k / 4) }')
            else
                tol=$(awk -v x="$x" 'BEGIN { printf "%.3g", 10 ^ -x }')
            fi
            r=$(pe_an_jnt jit "$ig" "$tol")
            pe_le "$(echo "$r" | cut -d' ' -f3)" "$tg" && { jt=$tol jr=$r; break; }
        done
        echo "$tg|$ig|${jt:-n/a}|$(echo "$jr" | cut -d' ' -f1)|$(echo "$jr" | cut -d' ' -f3)|${it:-n/a}|$(pe_stat steps "$ir")|$(pe_stat err "$ir")" \
            >> "$PE_DIR/an_rows"
    done
done
say "bench: peers: Andrews' squeezer: timing ($STAT_NAME of $N rounds)"
k=0
while [ $k -lt "$N" ]; do
    while IFS='|' read -r tg ig jt js je it is ie; do
        if [ "$jt" != n/a ]; then
            pe_an_jnt jit "$ig" "$jt" | cut -d' ' -f2 >> "$PE_DIR/an_$tg.$ig.jit.cpu"
            pe_an_jnt gcc "$ig" "$jt" | cut -d' ' -f2 >> "$PE_DIR/an_$tg.$ig.gcc.cpu"
        fi
        if [ "$it" != n/a ]; then
            r=$("$PE_IDA" "$it" 2>> "$OUT/stderr.txt")
            pe_stat cpu "$r" >> "$PE_DIR/an_$tg.$ig.ida.cpu"
        fi
    done < "$PE_DIR/an_rows"
    k=$((k + 1))
done

# ---- c. the N-link pendulum against MuJoCo --------------------------------------------
PE_LINKS="10 50"
# pe_nlink N: the jnt model of the chain (the header's) on standard output
pe_nlink() {
    awk -v n="$1" 'BEGIN {
        printf "// a planar chain of %d uniform rods of 1/%d kg and 1/%d m, from rest horizontal\n", n, n, n
        printf "model nlink%d\n\nparam n = %d\nparam m = 1 kg / n\nparam L = 1 m / n\n", n, n
        printf "param J = m * L^2 / 12\nparam g = 9.81 m/s^2\nparam h = 1 ms\n\n"
        for (i = 1; i <= n; i++)
            printf "body b%d : rigid2d(mass = m, inertia = J) {\n  marker a = (-L / 2, 0 m)\n  marker b = (L / 2, 0 m)\n}\n", i
        printf "joint j1 : revolute(b1.a, (0 m, 0 m))\n"
        for (i = 2; i <= n; i++) printf "joint j%d : revolute(b%d.b, b%d.a)\n", i, i - 1, i
        for (i = 1; i <= n; i++) printf "init b%d.x = (%d - 0.5) * L\n", i, i
        printf "\nsimulate {\n  integrator = generalized_alpha(h = h, rho_inf = 1)\n  until      = 1 s\n"
        printf "  gravity    = (0 m/s^2, -g)\n}\n\noutput \"nlink.csv\" every 10 ms {\n  t, E = 0 J"
        for (i = 1; i <= n; i++)
            printf "\n    + m / 2 * (b%d.x.v^2 + b%d.y.v^2) + J / 2 * b%d.angle.v^2 + m * g * b%d.y", i, i, i, i
        printf "\n}\n" }'
}
# pe_energy CSV: max |E - E0| over the rows (J)
pe_energy() {
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "E") c = i; next } /^#/ { next }
             !s { e0 = $c; s = 1 } { d = $c - e0; if (d < 0) d = -d; if (d > m) m = d }
             END { if (s) printf "%.3g\n", m; else print "fail" }' "$1"
}
# pe_nl_jnt N PROG INTEG H: one run (jit or gcc) with INTEG (generalized_alpha: the model's
# own, rho_inf = 1; rk4) at step H (s); prints "steps cpu energy_err"
pe_nl_jnt() {
    rm -f "$PE_DIR/nl.csv"
    nl_n=$1 nl_prog=$2 nl_ig=$3 nl_h=$4
    set -- --stats -D "h=$nl_h s"
    [ "$nl_ig" = rk4 ] && set -- "$@" --integrator rk4
    if [ "$nl_prog" = jit ]; then
        st=$("$B/jnt" run "$PE_DIR/nlink$nl_n.jnt" -o "$PE_DIR/nl.csv" "$@" 2>&1 | tail -n 1)
    else
        st=$("$PE_DIR/nlink${nl_n}_sim" -o "$PE_DIR/nl.csv" "$@" 2>&1 | tail -n 1)
    fi
    log "peers nlink N=$nl_n $nl_prog $nl_ig h=$nl_h: $st"
    case $st in steps*) ;; *) echo "fail fail fail"; return ;; esac
    echo "$(printf '%s\n' "$st" | sed -n 's/^steps \([0-9]*\),.*/\1/p') $(pe_cpu "$st") $(pe_energy "$PE_DIR/nl.csv")"
}
PE_NL_GRID="3 2 1 0 -1 -2 -3 -4"
# pe_mj_match N ERR: MuJoCo's largest step 1 ms * 2^k whose energy error is at most ERR:
# "h steps err" or "n/a"
pe_mj_match() {
    for kk in $PE_NL_GRID; do
        h=$(awk -v k="$kk" 'BEGIN { printf "%.6g", 1e-3 * 2 ^ k }')
        l=$("$PE_MJ" "$1" "$h" 1 2>> "$OUT/stderr.txt")
        log "peers nlink N=$1 mujoco h=$h: $l"
        if pe_le "$(pe_stat energy_err "$l")" "$2"; then
            echo "$h $(pe_stat steps "$l") $(pe_stat energy_err "$l")"
            return
        fi
    done
    echo "n/a"
}
say "bench: peers: N-link pendulum against MuJoCo (searching the steps)"
: > "$PE_DIR/nl_rows"
for n in $PE_LINKS; do
    pe_nlink "$n" > "$PE_DIR/nlink$n.jnt"
    "$B/jnt" build "$PE_DIR/nlink$n.jnt" -o "$PE_DIR/nlink${n}_sim" 2>> "$OUT/stderr.txt"
    # generalized-alpha at 1 ms sets the target error; rk4 takes its largest step meeting it
    r=$(pe_nl_jnt "$n" jit generalized_alpha 0.001)
    tgt=$(echo "$r" | cut -d' ' -f3)
    rows="generalized_alpha 0.001 $(echo "$r" | cut -d' ' -f1) $tgt"
    for kk in $PE_NL_GRID; do
        h=$(awk -v k="$kk" 'BEGIN { printf "%.6g", 1e-3 * 2 ^ k }')
        r=$(pe_nl_jnt "$n" jit rk4 "$h")
        if pe_le "$(echo "$r" | cut -d' ' -f3)" "$tgt"; then
            rows="$rows
rk4 $h $(echo "$r" | cut -d' ' -f1) $(echo "$r" | cut -d' ' -f3)"
            break
        fi
    done
    l1=""
    [ -x "$PE_MJ" ] && l1=$(pe_stat energy_err "$("$PE_MJ" "$n" 1e-3 1 2>> "$OUT/stderr.txt")")
    printf '%s\n' "$rows" | while read -r ig jh js je; do
        m=n/a
        [ -x "$PE_MJ" ] && m=$(pe_mj_match "$n" "$je")
        set -- $m
        echo "$n|$ig|$jh|$js|$je|$1|${2:-}|${3:-}|$l1" >> "$PE_DIR/nl_rows"
    done
done
say "bench: peers: N-link pendulum: timing ($STAT_NAME of $N rounds)"
k=0
while [ $k -lt "$N" ]; do
    while IFS='|' read -r n ig jh js je mh ms me me1; do
        b="$PE_DIR/nl_$n.$ig"
        pe_nl_jnt "$n" jit "$ig" "$jh" | cut -d' ' -f2 >> "$b.jit.cpu"
        pe_nl_jnt "$n" gcc "$ig" "$jh" | cut -d' ' -f2 >> "$b.gcc.cpu"
        if [ "$mh" != n/a ]; then
            pe_stat cpu "$("$PE_MJ" "$n" "$mh" 1 2>> "$OUT/stderr.txt")" >> "$b.mj.cpu"
            pe_stat cpu "$("$PE_MJ" "$n" 1e-3 1 2>> "$OUT/stderr.txt")" >> "$b.mj1.cpu"
        fi
    done < "$PE_DIR/nl_rows"
    k=$((k + 1))
done

# ---- d. the chain scaling slope ---------------------------------------------------------
say "bench: peers: multimass chain scaling (bdf)"
pts=""
for n in 100 1600 6400; do
    sed -e "s/^const n     = 100$/const n     = $n/" examples/multimass.jnt > "$PE_DIR/mm_$n.jnt"
    st=$("$B/jnt" run "$PE_DIR/mm_$n.jnt" -o "" --integrator bdf -D "t_end=0.2 s" --stats 2>&1 | tail -n 1)
    log "peers scaling bdf n=$n: $st"
    us=$(awk -v c="$(pe_cpu "$st")" -v s="$(printf '%s\n' "$st" | sed -n 's/^steps \([0-9]*\),.*/\1/p')" \
         'BEGIN { if (s > 0 && c != "") printf "%.4g", c / s * 1e6; else printf "n/a" }')
    pts="$pts $n $us"
done
pe_slope=$(printf '%s\n' $pts | paste - - | awk '$2 != "n/a" { x = log($1); y = log($2); n++; sx += x; sy += y;
    sxx += x * x; sxy += x * y } END { if (n >= 2) printf "%.2f", (n * sxy - sx * sy) / (n * sxx - sx * sx); else printf "n/a" }')

# ---- the tables -----------------------------------------------------------------------------
{
echo
echo "## 19. Peers: jnt against hand-written C + SUNDIALS and MuJoCo"
echo
echo "### FrDyn2 against C + CVODE"
echo
echo "| tE (s) | solver, jnt run (ms) | solver, jnt build (ms) | solver, C + CVODE (ms) | jnt run : C | jnt build : C | process, jnt run (ms) | process, jnt build (ms) | process, C (ms) | jnt run : C | jnt build : C |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for te in $PE_TES; do
    b="$PE_DIR/fr_$te"
    echo "| $te | $(ms "$(pe_agg "$b.jit.cpu")") | $(ms "$(pe_agg "$b.gcc.cpu")") | $(ms "$(pe_agg "$b.cv.cpu")") |" \
         "$(pe_ratio "$b.jit.cpu" "$b.cv.cpu") | $(pe_ratio "$b.gcc.cpu" "$b.cv.cpu") |" \
         "$(ms "$(pe_agg "$b.jitp.cpu")") | $(ms "$(pe_agg "$b.gccp.cpu")") | $(ms "$(pe_agg "$b.cvp.cpu")") |" \
         "$(pe_ratio "$b.jitp.cpu" "$b.cvp.cpu") | $(pe_ratio "$b.gccp.cpu" "$b.cvp.cpu") |"
done
echo
echo "Solver: --stats CPU (jnt_run; in jnt run it includes loading OpenBLAS at the first LU, compiler/cli/lazy.c)" \
     "and the peer's clock() from CVodeCreate to the end, no output file; process: user + sys of the whole" \
     "process writing the 10 us grid's CSV (jnt run: compile and JIT included)."
echo
echo "### Andrews' squeezer against IDA at matched error"
echo
echo "| target (rad) | jnt integrator | tol | steps | error | C + IDA tol | steps | error | JIT (ms) | gcc (ms) | C + IDA (ms) | JIT : C | gcc : C |"
echo "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
while IFS='|' read -r tg ig jt js je it is ie; do
    b="$PE_DIR/an_$tg.$ig"
    echo "| $tg | $ig | $jt | $js | $je | $it | $is | $ie | $(ms "$(pe_agg "$b.jit.cpu")") | $(ms "$(pe_agg "$b.gcc.cpu")") |" \
         "$(ms "$(pe_agg "$b.ida.cpu")") | $(pe_ratio "$b.jit.cpu" "$b.ida.cpu") | $(pe_ratio "$b.gcc.cpu" "$b.ida.cpu") |"
done < "$PE_DIR/an_rows"
echo
echo "Error: the largest |angle - reference| of the seven angles at t = 0.03 s (the test set's andsoln); tol:" \
     "rtol = atol, the loosest of a quarter-decade grid meeting the target; rk4: its fixed step h (s), the largest" \
     "of 400 us * 2^(-k/4) meeting it. IDA: GGL index-2 form, dense LU, its" \
     "difference-quotient Jacobian, the multipliers out of the error test."
echo
echo "### Planar N-link pendulum against MuJoCo RK4 at comparable energy error"
echo
echo "| N | jnt integrator | h (s) | steps | jnt energy error (J) | MuJoCo h (s) | MuJoCo energy error (J) | JIT (ms) | gcc (ms) | MuJoCo (ms) | JIT : MuJoCo | gcc : MuJoCo | MuJoCo at h = 1 ms (ms, error J) | gcc : MuJoCo at 1 ms |"
echo "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
while IFS='|' read -r n ig jh js je mh ms_ me me1; do
    b="$PE_DIR/nl_$n.$ig"
    echo "| $n | $ig | $jh | $js | $je | $mh | $me | $(ms "$(pe_agg "$b.jit.cpu")") | $(ms "$(pe_agg "$b.gcc.cpu")") |" \
         "$(ms "$(pe_agg "$b.mj.cpu")") | $(pe_ratio "$b.jit.cpu" "$b.mj.cpu") | $(pe_ratio "$b.gcc.cpu" "$b.mj.cpu") |" \
         "$(ms "$(pe_agg "$b.mj1.cpu")"), $me1 | $(pe_ratio "$b.gcc.cpu" "$b.mj1.cpu") |"
done < "$PE_DIR/nl_rows"
echo
echo "1 s from rest horizontal. jnt: generalized_alpha(h = 1 ms, rho_inf = 1), whose energy error is the target," \
     "and rk4 (index-1 form, projected; docs/multibody.md) at its largest step 1 ms * 2^k (k = 3 .. -4) meeting it;" \
     "--stats CPU. MuJoCo: the largest step of the same grid whose energy error is at most the jnt row's," \
     "clock() around mj_step."
echo
echo "### Chain scaling"
echo
echo "multimass chain, bdf (KLU), CPU per step (us) at n = 100, 1600, 6400:$(printf ' %s' $pts | awk '{ for (i = 2; i <= NF; i += 2) printf " %s", $i }');" \
     "log-log slope $pe_slope (linear: 1)."
} | tee -a "$RES"
