#!/bin/sh
# Issue 31 item 1: one kernel per element kind, looped over its instances
# (compiler/lower/gen_loop.c, docs/performance.md). The generated C of a contact
# array does not grow with its pairs, every example's C is under 150 KB, and a
# looped model runs to the unrolled model's rows. Prints PASS/FAIL lines.
# Run from the repository root with B set to the build directory.
B=${B:-build}
J=$B/jnt
T=$B/tests/kernels
mkdir -p "$T"
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; }
export JNT_CACHE=0

# N penalty contacts on a chain of 10,001 point masses reduced to 10 modes
pairs_model() { # N
    printf 'model pairs\nimport contact\nconst n = %d\n' "$1"
    printf 'substructure s : chain(n = 10001, k = 1e5 N/m, mass = 1 kg) { fix = first\n'
    printf '  reduce = modal(modes = 10) }\n'
    printf 'contact c[i in 1..n] between s.all[i + 1].ux and ground {\n'
    printf '  law = penalty_jointexp(eps_N = 617 N/mm^3, lambda_N = 200 /mm)  area = 1 mm^2 }\n'
    printf 'simulate { integrator = bdf  until = 1 ms }\n'
    printf 'output "pairs.csv" every 0.1 ms { t, f = sum(i in 1..n, c[i].force) }\n'
}
for n in 100 10000; do
    pairs_model "$n" > "$T/pairs_$n.jnt"
    "$J" emit "$T/pairs_$n.jnt" -o "$T/pairs_$n.c" 2> "$T/pairs_$n.err" || fail "emit pairs $n"
    eval "s$n=\$(wc -c < \"\$T/pairs_\$n.c\")"
done
# shellcheck disable=SC2154
if awk -v a="$s100" -v b="$s10000" 'BEGIN { r = b / a; exit !(r > 0.97 && r < 1.03) }'
then pass "kernels: 10,000 contact pairs emit $s10000 bytes of C, 100 pairs $s100 (within 3 %)"
else fail "kernels: the C grows with the pairs (100: $s100 bytes, 10,000: $s10000)"; fi

# every example's C under 150 KB, the two with a clearance joint on a body in
# director coordinates included (the derivatives pass's cuts, compiler/lower/deriv.c:
# the joint's law is differentiated against its point's few quantities, the
# chain rule to the coordinates is a table loop; docs/performance.md)
big=""
for ex in examples/*.jnt; do
    name=$(basename "$ex" .jnt)
    "$J" emit "$ex" -o "$T/ex_$name.c" 2> /dev/null || { fail "emit $ex"; continue; }
    sz=$(wc -c < "$T/ex_$name.c")
    [ "$sz" -lt 153600 ] || big="$big $name ($sz bytes)"
    case $name in
        rotor_clearance|mechanism_clearance) echo "MEASURE: kernels.emit.$name $sz" ;;
    esac
done
if [ -z "$big" ]; then pass "kernels: the C of every example is under 150 KB"
else fail "kernels: examples over 150 KB of C:$big"; fi
# the cuts: without them (JNT_CUTS=0) the rotor's C is more than 3 times larger
JNT_CUTS=0 "$J" emit examples/rotor_clearance.jnt -o "$T/rotor_nocut.c" 2> /dev/null
nocut=$(wc -c < "$T/rotor_nocut.c")
cut=$(wc -c < "$T/ex_rotor_clearance.c")
if [ "$nocut" -gt $((3 * cut)) ] && grep -q 'the chain rule at the cuts' "$T/ex_rotor_clearance.c"
then pass "kernels: rotor_clearance emits $cut bytes with the chain rule at cuts, $nocut without"
else fail "kernels: rotor_clearance emits $cut bytes with cuts, $nocut without"; fi

# a looped model and the same model unrolled (JNT_LOOPS=0) give the same
# rows, bit for bit: 40 contacts with friction, each with its own gap
twin_model() {
    printf 'model twin\nimport contact\nimport friction\n'
    printf 'substructure s : chain(n = 41, k = 1e5 N/m, mass = 1 kg) { fix = first\n'
    printf '  reduce = modal(modes = 6) }\n'
    printf 'contact c[i in 1..40] between s.all[i + 1].ux and ground {\n'
    printf '  law = penalty_jointexp(eps_N = 617 N/mm^3, lambda_N = 200 /mm, g0 = -0.01 um * i)\n'
    printf '  area = 1 mm^2 }\n'
    printf 'force push on s.all[41].ux = 10 N * sin(2 * pi * t / 1 ms)\n'
    printf 'simulate { integrator = bdf  until = 2 ms }\n'
    printf 'output "twin.csv" every 0.1 ms { t, x = s.all[41].ux, f = sum(i in 1..40, c[i].force) }\n'
}
twin_model > "$T/twin.jnt"
"$J" run "$T/twin.jnt" -o "$T/twin_loop.csv" > /dev/null 2>&1 || fail "run twin"
JNT_LOOPS=0 "$J" run "$T/twin.jnt" -o "$T/twin_flat.csv" > /dev/null 2>&1 || fail "run twin unrolled"
"$J" emit "$T/twin.jnt" -o "$T/twin_loop.c" 2> /dev/null
JNT_LOOPS=0 "$J" emit "$T/twin.jnt" -o "$T/twin_flat.c" 2> /dev/null
loops=$(grep -c 'instances \*/' "$T/twin_loop.c")
flat=$(grep -c 'instances \*/' "$T/twin_flat.c")
if [ "$loops" -gt 0 ] && [ "$flat" -eq 0 ] && cmp -s "$T/twin_loop.csv" "$T/twin_flat.csv" &&
   [ "$(wc -l < "$T/twin_loop.csv")" -gt 10 ]
then pass "kernels: 40 contacts in $loops loops give the rows of the unrolled C, bit for bit"
else fail "kernels: the looped contacts ($loops loops) differ from the unrolled C ($flat loops)"; fi

# the loops read their indices as int (m_ki, copied once from the model data
# by m_bind) and their constants as double (m_kd): no index is converted from
# a double where it is used (tcc converted each at every use)
nconv=$(grep -v '^        m_ki\[i\] = (int)data\[' "$T/twin_loop.c" | grep -c '(int)')
if grep -q 'const int \*I = m_ki + ' "$T/twin_loop.c" && grep -q 'const double \*K = m_kd + ' "$T/twin_loop.c" &&
   [ "$nconv" -eq 0 ]
then pass "kernels: the loops read int indices (I) and double constants (K), no (int) at a use"
else fail "kernels: the loops convert indices at their use ($nconv conversions)"; fi

# the same for examples: the first 20 ms of the car pendulum (960 contact and
# friction instances) and of the festoon, the spatial four-bar
for run in "car_pendulum -D t_end=0.02" "festoon -D t_end=0.02" "fourbar_spatial"; do
    ex=${run%% *}
    # shellcheck disable=SC2086
    set -- ${run#"$ex"}
    "$J" run "examples/$ex.jnt" "$@" -o "$T/$ex.csv" > /dev/null 2>&1 || fail "run $ex"
    JNT_LOOPS=0 "$J" run "examples/$ex.jnt" "$@" -o "$T/${ex}_flat.csv" > /dev/null 2>&1 ||
        fail "run $ex unrolled"
    if cmp -s "$T/$ex.csv" "$T/${ex}_flat.csv" && [ "$(wc -l < "$T/$ex.csv")" -gt 5 ]
    then pass "kernels: $ex gives the unrolled C's rows, bit for bit"
    else fail "kernels: $ex's rows differ from the unrolled C's"; fi
done

# issue 31 item 1: 20,000 point bodies emit in time linear in the bodies: the
# multimass chain at n = 2,000 and 20,000, jnt emit's CPU time (user + system,
# the shortest of three), log-log slope under 1.25 (quadratic: 2; with an index's
# lookup that scanned its array, the quadratic spot of before, it was 1.32)
ms_of() { # FILE: the children's CPU time in a `times` output, in ms
    awk 'NR == 2 { n = split($1 " " $2, f, " "); s = 0
        for (i = 1; i <= n; i++) { split(f[i], p, "m"); sub("s", "", p[2]); s += p[1] * 60 + p[2] }
        printf "%d\n", s * 1000 }' "$1"
}
best_emit_ms() { # FILE REPEAT: the shortest of three, each the mean of REPEAT emits (times
    # in this shell, not in a subshell: the children are its own; its unit is 10 ms)
    b=
    for r in 1 2 3; do
        times > "$T/t0"
        k=0
        while [ $k -lt "$2" ]; do "$J" emit "$1" -o "$T/mm.c" > /dev/null 2>&1; k=$((k + 1)); done
        times > "$T/t1"
        e=$(( ($(ms_of "$T/t1") - $(ms_of "$T/t0")) / $2 ))
        [ -z "$b" ] || [ "$e" -lt "$b" ] && b=$e
    done
    BEST=$b
}
for n in 2000 20000; do
    sed "s/^const n     = 100\$/const n     = $n/" examples/multimass.jnt > "$T/mm$n.jnt"
done
best_emit_ms "$T/mm2000.jnt" 5; t2=$BEST
best_emit_ms "$T/mm20000.jnt" 1; t20=$BEST
slope=$(awk -v a="$t2" -v b="$t20" 'BEGIN { if (a < 1) a = 1; printf "%.2f", log(b / a) / log(10) }')
echo "MEASURE: kernels.emit_slope $slope"
# the sanitizer build (make check-asan) pays ASan's shadow memory and quarantine, page
# faults that grow faster than the model (1.28 and 1.38 measured there on a loaded machine,
# 1.09 on a quiet one): its bound is looser, still far below a quadratic 2; the product
# build's 1.25 is the claim
lim=1.25
readelf -dW "$J" 2> /dev/null | grep -q 'NEEDED.*libasan' && lim=1.5
if awk -v s="$slope" -v l="$lim" 'BEGIN { exit !(s < l) }' && [ "$t20" -gt 0 ]
then pass "kernels: jnt emit of 2,000 and 20,000 bodies: $t2 and $t20 ms of CPU, slope $slope (under $lim)"
else fail "kernels: jnt emit grows faster than the bodies: $t2 ms (2,000), $t20 ms (20,000), slope $slope"; fi
