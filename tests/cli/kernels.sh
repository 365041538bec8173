#!/bin/sh
# Issue 31 item 1: one kernel per element kind, looped over its instances
# (compiler/gen_loop.c, docs/performance.md). The generated C of a contact
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

# every example's C under 150 KB, but the two with a clearance joint on a body in
# director coordinates: their size is one instance's Jacobian (the derivatives pass,
# docs/performance.md), held to what it is (rotor 1.31 MB, mechanism 0.54 MB)
big=""
for ex in examples/*.jnt; do
    name=$(basename "$ex" .jnt)
    "$J" emit "$ex" -o "$T/ex_$name.c" 2> /dev/null || { fail "emit $ex"; continue; }
    sz=$(wc -c < "$T/ex_$name.c")
    case $name in
        rotor_clearance) lim=1400000 ;;
        mechanism_clearance) lim=600000 ;;
        *) lim=153600 ;;
    esac
    [ "$sz" -lt "$lim" ] || big="$big $name ($sz bytes)"
done
if [ -z "$big" ]; then pass "kernels: the C of every example is under 150 KB (the clearance two under 1.4 and 0.6 MB)"
else fail "kernels: examples over their bound of C:$big"; fi

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
