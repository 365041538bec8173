# bench/andrews.sh: section 11 of `make bench`, sourced by bench/run.sh (uses
# its B, OUT, RAW, RES, N, STAT, PY, have_scipy and helpers). Alone:
#   B=build sh bench/andrews.sh      (runs bench/run.sh with BENCH_SECTIONS=11)
#
# Andrews' squeezing mechanism (examples/andrews_squeezer.jnt, issue 13): steps
# and CPU time of generalized_alpha (rho_inf 0.9) and hht (alpha -0.05), fixed
# step and adaptive (rtol = atol = tol), at the same accuracy, beside SciPy's
# Radau on the test set's minimal formulation reduced to index 1
# (bench/andrews_radau.py). Accuracy: the largest |angle - reference| (rad) of
# the seven angles at t = 0.03 s, against the Test Set for IVP Solvers'
# andsoln. For each target (1e-5 and 1e-7 rad), each method's setting is
# searched: the fixed step h = 0.03 s / n with an n whose error is at most the
# target and close to it (the error falls as h^2: a pilot run, then predictions
# from the measured order with 1 % to spare, then n up by 2 % until the target
# is met), the loosest tol of a quarter-decade grid meeting it for the adaptive
# runs and for Radau. Only the picked settings are timed, taking turns round by
# round: the STAT of N runs of the run's CPU time (jnt --stats: clock() around
# jnt_run, compiling excluded; SciPy: process_time around solve_ivp); the ratios
# to fixed-step generalized-alpha are the median of the ratios within a round.
# The model is a copy of the example with its output block replaced by the
# seven angles every 1 ms, and, for HHT, its integrator line.
#
# Measured at commit 1995bf0 (2 cores, shared; median of 7; error: max |angle -
# reference| in rad; residual: jnt's largest |C| over the steps, Radau's |g| at
# t = 0.03 s, in m; ratio: CPU / fixed-step generalized-alpha at that target):
#   target method                 setting         steps  Newton/nfev  CPU ms  error    residual  ratio
#   1e-5   generalized-alpha      h = 4.129 us     7266        31136    84.9  9.8e-06  6.9e-17   1
#   1e-5   HHT                    h = 3.701 us     8107        33824    91.6  9.82e-06 6.4e-17   1.08
#   1e-5   gen.-alpha, adaptive   tol 3.16e-11    11593        38192     186  7.75e-06 2.8e-17   2.18
#   1e-5   HHT, adaptive          tol 3.16e-11    12641        41183     199  6.72e-06 2.8e-17   2.33
#   1e-5   SciPy Radau, index 1   tol 1.78e-5       173         1411    85.7  9.69e-06 9.3e-08   1.01
#   1e-7   generalized-alpha      h = 0.4129 us   72651       209551     593  7.99e-08 3.5e-17   1
#   1e-7   HHT                    h = 0.3881 us   77307       223385     635  8.94e-08 4.2e-17   1.07
#   1e-7   SciPy Radau, index 1   tol 1.78e-7       508         3840     228  6.23e-08 2.8e-10   0.376
# Adaptive generalized-alpha and HHT do not reach 1e-7: their smallest errors are
# 4.9e-7 (tol 3.16e-12) and 9.2e-7 rad (tol 5.62e-12); at tol 1.78e-12 the step
# falls below h_min near t = 0.0104 s.
# shellcheck disable=SC2154
if ! command -v agg >/dev/null 2>&1; then
    BENCH_SECTIONS=11 exec sh bench/run.sh
fi
AN_SRC=examples/andrews_squeezer.jnt
AN_DIR=$OUT/andrews
AN_GA="generalized_alpha(h = h, rho_inf = 0.9)"
AN_HHT="hht(h = h, alpha = -0.05)"
AN_TARGETS="1e-5 1e-7"
# the test set's andsoln at t = 0.03 s: beta, Theta, gamma, Phi, delta, Omega, epsilon
AN_REF="15.81077119629904 -15.75637105984298 0.04082224013073101 -0.5347301163226948 0.5244099658805304 0.5347301163226948 1.048080741042263"
mkdir -p "$AN_DIR"

# an_err CSV: the largest |angle - reference| in the row at t = 0.03 s (or "fail")
an_err() {
    awk -F, -v ref="$AN_REF" '
        NR == 1 { split("beta Theta gamma Phi delta Omega epsilon", nm, " ")
                  for (i = 1; i <= NF; i++) col[$i] = i; next }
        /^#/ { next }
        { last = $0 }
        END { split(ref, r, " "); n = split(last, v, ",")
              if (n == 0 || v[col["t"]] < 0.03 - 1e-12) { print "fail"; exit }
              m = 0; for (i = 1; i <= 7; i++) { d = v[col[nm[i]]] - r[i]; if (d < 0) d = -d; if (d > m) m = d }
              printf "%.3g\n", m }' "$1"
}
# an_run MODEL ARGS...: one jnt run; prints "steps newton cpu violation err" (or fail ...)
an_run() {
    f=$1; shift
    st=$("$B/jnt" run "$f" -o "$AN_DIR/last.csv" --stats "$@" 2>&1 | tail -n 1)
    log "andrews $(basename "$f") $*: $st"
    case $st in
        steps*) ;;
        *) echo "fail fail fail fail fail $st"; return ;;
    esac
    printf '%s %s %s %s %s\n' "$(printf '%s\n' "$st" | sed -n 's/^steps \([0-9]*\),.*/\1/p')" \
        "$(printf '%s\n' "$st" | sed -n 's/.* newton \([0-9]*\),.*/\1/p')" \
        "$(printf '%s\n' "$st" | sed -n 's/.* cpu \([0-9.e+-]*\) s.*/\1/p')" \
        "$(printf '%s\n' "$st" | sed -n 's/.*constraint violation \([0-9.e+-]*\).*/\1/p')" \
        "$(an_err "$AN_DIR/last.csv")"
}
# an_le A B: is A <= B (A a number)?
an_le() { case $1 in fail|'') return 1 ;; esac; awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; }

# an_fixed MODEL TARGET N0: the fixed-step search from n0 steps; prints "n steps newton violation err"
an_fixed() {
    f=$1 tg=$2 n=$3 np="" ep="" k=0
    while [ $k -lt 12 ]; do
        r=$(an_run "$f" -D "h=$(awk -v n="$n" 'BEGIN { printf "%.10g", 0.03 / n }')")
        e=$(echo "$r" | cut -d' ' -f5)
        [ "$e" = fail ] && { echo "$n fail fail fail fail"; return; }
        if an_le "$e" "$tg" && [ -n "$np" ]; then
            echo "$n $(echo "$r" | cut -d' ' -f1,2,4,5)"
            return
        fi
        # the next n: from the order measured on the last two runs (2 at first),
        # with 1 % to spare; at least 2 % more when the last run missed
        nn=$(awk -v n="$n" -v e="$e" -v np="$np" -v ep="$ep" -v tg="$tg" 'BEGIN {
            p = 2; if (np != "" && ep != "" && np != n && ep != e) p = log(ep / e) / log(n / np)
            if (p < 1 || p > 4) p = 2
            x = n * exp(log(e / tg) / p) * 1.01
            if (e > tg && x < n * 1.02) x = n * 1.02
            printf "%d", x + 0.999 }')
        np=$n ep=$e n=$nn k=$((k + 1))
    done
    echo "$n fail fail fail fail"
}
# an_adaptive MODEL TARGET: the loosest tol = 10^-x (x = 8, 8.25, ..., 12) meeting TARGET;
# prints "tol steps newton violation err", or "tol fail fail fail fail WHY"
an_adaptive() {
    f=$1 tg=$2 best="" bt=""
    for x in 8 8.25 8.5 8.75 9 9.25 9.5 9.75 10 10.25 10.5 10.75 11 11.25 11.5 11.75 12; do
        tol=$(awk -v x="$x" 'BEGIN { printf "%.3g", 10 ^ -x }')
        sed "s/integrator = \([a-z_]*\)(h = h, \(.*\))/integrator = \1(h = h, \2, rtol = $tol, atol = $tol)/" \
            "$f" > "$AN_DIR/adaptive.jnt"
        r=$(an_run "$AN_DIR/adaptive.jnt" -D "h=1e-6")
        e=$(echo "$r" | cut -d' ' -f5)
        if [ "$e" = fail ]; then
            echo "$tol fail fail fail fail ${best:+smallest error $best rad (tol $bt); }tol $tol:" \
                 "$(echo "$r" | cut -d' ' -f6- | sed 's/.*error: //')"
            return
        fi
        if an_le "$e" "$tg"; then
            echo "$tol $(echo "$r" | cut -d' ' -f1,2,4,5)"
            return
        fi
        if [ -z "$best" ] || an_le "$e" "$best"; then best=$e bt=$tol; fi
    done
    echo "$tol fail fail fail fail smallest error $best rad (tol $bt)"
}

# the models: the example with the seven angles as output, and its HHT copy
an_ok=1 why_an=""
if [ ! -f "$AN_SRC" ]; then
    an_ok=0 why_an="$AN_SRC is missing"
else
    awk '/^output / { skip = 1 } skip && /^}/ { skip = 0; next } !skip' "$AN_SRC" > "$AN_DIR/ga.jnt"
    cat >> "$AN_DIR/ga.jnt" <<'EOF'
output "andrews.csv" every 1 ms {
  t, beta = b1.angle, Theta = b2.angle - b1.angle, gamma = b3.angle,
  Phi = b4.angle - b5.angle, delta = b5.angle, Omega = b6.angle - b7.angle,
  epsilon = b7.angle
}
EOF
    sed "s/$AN_GA/$AN_HHT/" "$AN_DIR/ga.jnt" > "$AN_DIR/hht.jnt"
    if ! grep -q "integrator = $AN_HHT" "$AN_DIR/hht.jnt"; then
        an_ok=0 why_an="$AN_SRC has no line 'integrator = $AN_GA'"
    elif ! "$B/jnt" check "$AN_DIR/ga.jnt" 2> "$AN_DIR/check.err"; then
        an_ok=0 why_an="$AN_SRC does not compile: $(grep -m 1 error "$AN_DIR/check.err")"
    fi
fi

# 1. the search: one row per method and target in $AN_DIR/rows,
#    target|method|setting|kind|model or rtol|h|steps|iterations|error|residual
#    (kind jnt, radau, or none when the target was not reached)
say "bench: Andrews' squeezer: searching each method's setting for ${AN_TARGETS}"
: > "$AN_DIR/rows"
n0=7500
for tg in $AN_TARGETS; do
    if [ $an_ok -eq 1 ]; then
        for m in ga hht; do
            name=generalized-alpha
            [ $m = hht ] && name=HHT
            r=$(an_fixed "$AN_DIR/$m.jnt" "$tg" "$n0")
            # shellcheck disable=SC2086
            set -- $r
            if [ "$2" = fail ]; then
                echo "$tg|$name, fixed step|not reached (n = $1)|none" >> "$AN_DIR/rows"
                continue
            fi
            hs=$(awk -v n="$1" 'BEGIN { printf "%.10g", 0.03 / n }')
            [ $m = ga ] && n0=$1
            echo "$tg|$name, fixed step|h = $(awk -v h="$hs" 'BEGIN { printf "%.4g us", h * 1e6 }')|jnt|$AN_DIR/$m.jnt|$hs|$2|$3|$5|$4" \
                >> "$AN_DIR/rows"
        done
        for m in ga hht; do
            name=generalized-alpha
            [ $m = hht ] && name=HHT
            r=$(an_adaptive "$AN_DIR/$m.jnt" "$tg")
            # shellcheck disable=SC2086
            set -- $r
            if [ "$2" = fail ]; then
                shift 5
                echo "$tg|$name, adaptive|not reached: $*|none" >> "$AN_DIR/rows"
                continue
            fi
            f="$AN_DIR/${m}_tol$1.jnt"
            sed "s/integrator = \([a-z_]*\)(h = h, \(.*\))/integrator = \1(h = h, \2, rtol = $1, atol = $1)/" \
                "$AN_DIR/$m.jnt" > "$f"
            echo "$tg|$name, adaptive|rtol = atol = $1|jnt|$f|1e-6|$2|$3|$5|$4" >> "$AN_DIR/rows"
        done
    fi
    if [ "$have_scipy" -eq 1 ]; then
        [ "$tg" = "${AN_TARGETS%% *}" ] && "$PY" bench/andrews_radau.py --check 2>&1 | sed 's/^/andrews radau /' >> "$RAW"
        l=$("$PY" bench/andrews_radau.py --target "$tg" --repeat 1 \
             --rtols 1e-4,5.62e-5,3.16e-5,1.78e-5,1e-5,5.62e-6,3.16e-6,1.78e-6,1e-6,5.62e-7,3.16e-7,1.78e-7,1e-7,5.62e-8,3.16e-8,1.78e-8,1e-8 \
             2>> "$OUT/stderr.txt")
        printf '%s\n' "$l" | sed 's/^/andrews radau search: /' >> "$RAW"
        l=$(printf '%s\n' "$l" | grep 'pick=1' | head -n 1)
        if [ -n "$l" ]; then
            echo "$tg|SciPy Radau, index 1|rtol = atol = $(kv rtol "$l")|radau|$(kv rtol "$l")||$(kv steps "$l")|$(kv nfev "$l")|$(kv err "$l")|$(kv drift_g "$l")" \
                >> "$AN_DIR/rows"
        else
            echo "$tg|SciPy Radau, index 1|not reached at rtol 1e-8|none" >> "$AN_DIR/rows"
        fi
    fi
done

# 2. the timings: N rounds, each running every picked setting once, so that a
#    burst of load on this shared machine hits all of them alike
say "bench: Andrews' squeezer: timing ($STAT_NAME of $N)"
rm -f "$AN_DIR"/cpu.*
k=0
while [ $k -lt "$N" ]; do
    i=0
    while IFS='|' read -r tg meth sett kind f hs rest; do
        i=$((i + 1))
        case $kind in
            jnt) an_run "$f" -D "h=$hs" < /dev/null | cut -d' ' -f3 >> "$AN_DIR/cpu.$i" ;;
            radau) l=$("$PY" bench/andrews_radau.py --rtols "$f" --repeat 1 < /dev/null 2>> "$OUT/stderr.txt")
                   log "andrews radau: $l"
                   kv cpu_s_min "$l" >> "$AN_DIR/cpu.$i" ;;
        esac
    done < "$AN_DIR/rows"
    k=$((k + 1))
done

# 3. the table
{
echo
echo "## 11. Andrews' squeezer: CPU time at the same accuracy"
echo
echo "| target (rad) | method | setting | steps | Newton its / nfev | CPU (ms) | max angle error (rad) | constraint residual (m) | CPU / generalized-alpha |"
echo "|---:|---|---|---:|---:|---:|---:|---:|---:|"
i=0 i_ga=""
while IFS='|' read -r tg meth sett kind f hs steps its err res; do
    i=$((i + 1))
    [ "$tg" = "${tg_last:-}" ] || i_ga=""
    tg_last=$tg
    if [ "$kind" = none ]; then
        echo "| $tg | $meth | $sett | | | | | | |"
        continue
    fi
    cpu=$(grep -v fail "$AN_DIR/cpu.$i" | agg)
    [ "$meth" = "generalized-alpha, fixed step" ] && i_ga=$i
    # the ratio: the median over the rounds of the ratio within a round
    r=n/a
    [ -n "$i_ga" ] && r=$(paste -d' ' "$AN_DIR/cpu.$i" "$AN_DIR/cpu.$i_ga" |
        awk '$1 + 0 > 0 && $2 + 0 > 0 { print $1 / $2 }' | median | awk '{ printf "%.3g", $1 }')
    echo "| $tg | $meth | $sett | $steps | $its | $(ms "$cpu") | $err | $res | $r |"
done < "$AN_DIR/rows"
echo
echo "Error: the largest |angle - reference| of the seven angles at t = 0.03 s, against the Test Set for IVP" \
     "Solvers' andsoln. Each method's setting is the loosest found that meets the target: fixed steps" \
     "h = 0.03 s / n, tolerances on a quarter-decade grid. CPU: the $STAT_NAME of $N runs, the settings" \
     "taking turns round by round; jnt's --stats (clock() around jnt_run; compiling excluded) and SciPy's" \
     "process_time around solve_ivp. CPU / generalized-alpha: the median over the rounds of the ratio to the" \
     "fixed-step generalized-alpha run of the same round and target. Newton its: jnt's Newton iterations; for Radau SciPy's nfev (its" \
     "finite-difference Jacobians, 14 calls each, not counted). Constraint residual: jnt, the largest |C|" \
     "over the steps (--stats); Radau, |g(q)| at t = 0.03 s, the drift the index reduction lets in."
[ $an_ok -eq 1 ] || echo "jnt was not measured: $why_an."
[ "$have_scipy" -eq 1 ] || echo "SciPy was not measured: $why_scipy."
} | tee -a "$RES"
