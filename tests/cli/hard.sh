#!/bin/sh
# Issue 17, hardening: each defect it reproduced, as a test that failed before
# the fix. Inputs that cannot crash, block or grow the compiler; outputs a
# user can trust (own temporary file, whole rows, an end line, signals, a
# full disk, refused paths, the size guard); the front end's growth.
# Prints PASS/FAIL lines. Run from the repository root with B set.
# the helpers (expect, has, pass, fail; $J, $T) and the small model of
# tests/trust/lib.sh, shared with issue 27's tests
NAME=hard
. tests/trust/lib.sh
# a model that runs long enough to be stopped, and a small one
small_model "$T/m.jnt"

# ---- (1) deep chains: a located error, no stack overflow --------------------
awk 'BEGIN { printf "model s\nparam p = 1"; for (i = 0; i < 100000; i++) printf "+1"; print "" }' > "$T/sum.jnt"
expect 1 "a 100,000-term sum: an error, not a crash" "$J" check "$T/sum.jnt"
has "a 100,000-term sum: the depth limit named" "nested too deeply: more than 1000 levels"
awk 'BEGIN { print "model l"; for (i = 0; i < 100000; i++) printf "let a%d = a%d + 1\n", i, i + 1;
             print "let a100000 = 1"; print "param p = a0" }' > "$T/lets.jnt"
expect 1 "100,000 chained lets: an error, not a crash" "$J" check "$T/lets.jnt"
awk 'BEGIN { printf "model p\nparam p = "; for (i = 0; i < 100000; i++) printf "(";
             printf "1"; for (i = 0; i < 100000; i++) printf ")"; print "" }' > "$T/par.jnt"
expect 1 "100,000 nested parentheses: an error, not a crash" "$J" check "$T/par.jnt"

# ---- (2) unbounded reads: only regular files are read -------------------------
expect 1 "jnt check /dev/zero is refused at once" timeout 10 "$J" check /dev/zero
has "/dev/zero: said what it is" "character device, not a regular file"
mkfifo "$T/fifo.jnt"
expect 1 "a FIFO as the model is refused, not waited on" timeout 10 "$J" check "$T/fifo.jnt"
printf 'model i\nimport "/dev/zero"\n' > "$T/imp.jnt"
expect 1 "import \"/dev/zero\" is refused at once" timeout 10 "$J" check "$T/imp.jnt"
mkdir -p "$T/fe"
ln -sf /dev/zero "$T/fe/M.mtx"
printf 'model f\nsubstructure d : fe(mass = "fe/M.mtx", stiffness = "fe/M.mtx", nodes = "fe/n.csv") { }\n' > "$T/fe.jnt"
expect 1 "an fe matrix linked to /dev/zero is refused at once" timeout 10 "$J" check "$T/fe.jnt" --allow-path /dev
has "an fe matrix linked to /dev/zero: said what it is" "not a regular file"

# ---- (3) the front end is linear: 10x the model, at most ~15x the time --------
# (quadratic would be 100x; 12x failed once at 12.5x under the sanitizers with a second
# suite running beside them)
gen_undef() { awk -v n="$1" 'BEGIN { print "model u"; for (i = 0; i < n; i++) printf "param p%d = q%d\n", i, i }'; }
gen_bodies() { awk -v n="$1" 'BEGIN { print "model b"; for (i = 0; i < n; i++)
    printf "body b%d : point(mass = 1 kg) { dof x }\n", i }'; }
for kind in undef bodies; do
    gen_$kind 10000 > "$T/$kind.1.jnt"; gen_$kind 100000 > "$T/$kind.10.jnt"
    t1=$(cpu_ns "$J" check "$T/$kind.1.jnt"); t10=$(cpu_ns "$J" check "$T/$kind.10.jnt")
    # 15x, with 50 ms of slack for a start-up that does not scale
    if [ "$t10" -le $(( 15 * t1 + 50000000 )) ]; then pass "front end linear in $kind: 10x the model, $((t10 / 1000000)) ms against $((t1 / 1000000)) ms"
    else fail "front end superlinear in $kind: 10x the model, $((t10 / 1000000)) ms against $((t1 / 1000000)) ms"; fi
done

# ---- (4) two runs, one output: each its own temporary file ---------------------
cd "$T" || exit 1
"$J" run m.jnt -D t_end=20 -D mass=1 -o two.csv > /dev/null 2>&1 &
p1=$!
"$J" run m.jnt -D t_end=20 -D mass=2 -o two.csv > /dev/null 2>&1
r2=$?
wait $p1
r1=$?
# the file is one run's whole: 20,002 lines, one header, the end line last,
# every row of one period (mass 1: x(t) = cos t; mass 2: cos(t / sqrt 2))
if [ $r1 -eq 0 ] && [ $r2 -eq 0 ] && [ "$(grep -vc "^#" two.csv)" -eq 20002 ] &&
   [ "$(grep -c '^t,' two.csv)" -eq 1 ] && tail -1 two.csv | grep -q '^# jnt: complete' &&
   awk -F, 'NR > 1 && !/^#/ { w1 += ($2 - cos($1))^2; w2 += ($2 - cos($1 / sqrt(2)))^2 }
            END { exit !(w1 < 1e-6 || w2 < 1e-6) }' two.csv &&
   [ -z "$(ls | grep '\.part$')" ]; then
    pass "two runs writing one output: the file is one run's, whole; no temporary left"
else
    fail "two runs writing one output (exit $r1, $r2; $(wc -l < two.csv) lines): $(ls | grep part)"
fi

# ---- (5) a full disk (ulimit -f): whole rows, the file named, exit 1 -----------
(ulimit -f 100; "$J" run m.jnt -D t_end=10 -o full.csv) 2> "$T/err"
rc=$?
if [ $rc -eq 1 ] && grep -q "cannot write 'full.csv': File too large" err && [ -s full.csv ] &&
   awk -F, 'NR == 1 { if ($0 != "t,x") exit 1; next } /^#/ { next }
            NF != 2 || $2 !~ /^-?[0-9.e+-]+$/ { exit 1 }' full.csv &&
   [ "$(tail -c 1 full.csv | od -An -c | tr -d ' ')" = '\n' ]; then
    pass "a write over ulimit -f: exit 1, the file named, $(wc -l < full.csv) whole lines kept"
else
    fail "a write over ulimit -f (exit $rc): $(head -1 err); last: $(tail -c 40 full.csv)"
fi

# ---- (6) -o refuses what it would replace: directory, FIFO, symlink, /dev -----
mkdir -p outdir; mkfifo out.fifo; : > target.csv; ln -sf target.csv out.link
expect 1 "-o DIR refused before the run" "$J" run m.jnt -D t_end=1000 -o outdir
has "-o DIR: said why" "it is a directory"
expect 1 "-o FIFO refused" timeout 10 "$J" run m.jnt -o out.fifo
[ -p out.fifo ] && pass "-o FIFO: the FIFO stays" || fail "-o FIFO: replaced"
expect 1 "-o symlink refused" "$J" run m.jnt -o out.link
[ -L out.link ] && pass "-o symlink: the link stays" || fail "-o symlink: replaced"
if [ -c /dev/null ]; then
    expect 0 "-o /dev/null discards the rows" "$J" run m.jnt -o /dev/null
    [ -c /dev/null ] && pass "-o /dev/null: still the device" || fail "-o /dev/null replaced /dev/null"
fi
expect 0 "-o - writes a stream" "$J" run m.jnt -o -
[ "$(head -1 out)" = "t,x" ] && [ "$(grep -vc "^#" out)" -eq 4 ] && pass "-o -: header and rows, no end line" ||
    fail "-o -: $(cat out)"

# ---- (7) signals: the rows so far, the end line, exit 130/143 ----------------
for sig in INT TERM; do
    "$J" run m.jnt -D t_end=1e4 -o sig.csv 2> err &
    p=$!
    i=0; while [ ! -s "$(ls sig.csv.jnt-*.part 2>/dev/null | head -1)" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
    sleep 0.3
    kill -$sig $p
    wait $p
    rc=$?
    want=$([ $sig = INT ] && echo 130 || echo 143)
    last=$(tail -1 sig.csv)
    if [ $rc -eq $want ] && grep -q "interrupted by SIG$sig at t = " err &&
       echo "$last" | grep -q '^# jnt: interrupted at t = ' && [ -z "$(ls | grep '\.part$')" ] &&
       awk -F, 'NR > 1 && !/^#/ && NF != 2 { exit 1 }' sig.csv; then
        pass "SIG$sig: exit $rc, $(($(wc -l < sig.csv) - 2)) whole rows, '$last'"
    else
        fail "SIG$sig: exit $rc, last line '$last', $(cat err)"
    fi
done
# SIGKILL: no final file, a temporary named for what it is (the previous final file stays)
rm -f kill.csv
"$J" run m.jnt -D t_end=1e4 -o kill.csv 2> /dev/null &
p=$!
sleep 0.5; kill -KILL $p; wait $p 2> /dev/null
if [ ! -e kill.csv ] && ls kill.csv.jnt-*.part > /dev/null 2>&1; then
    pass "SIGKILL: no final file, only $(ls kill.csv.jnt-*.part | head -1 | sed 's/-[0-9]*-[0-9]*/-PID-N/')"
else
    fail "SIGKILL: $(ls kill.csv*)"
fi
rm -f kill.csv.jnt-*.part

# ---- (8) the output size guard; an interval that cannot advance ----------------
expect 1 "an output of 4.4 GB is refused before the run" "$J" run m.jnt -D dt_out=1us -D t_end=100 -o big.csv
has "the size guard: how big and how to thin it" "about 4.4 GB (1e+08 rows of 2 columns"
[ ! -e big.csv ] && pass "the size guard: nothing written" || fail "the size guard wrote big.csv"
expect 0 "--max-output raises the limit" "$J" run m.jnt -D dt_out=1us -D t_end=0.1 --max-output 10M -o ok.csv
expect 1 "--max-output lowers it" "$J" run m.jnt -D dt_out=1us -D t_end=0.1 --max-output 1M -o ok.csv
expect 1 "dt_out = 1e-300 is an error, not an endless run" timeout 20 "$J" run m.jnt -D dt_out=1e-300 -o tiny.csv
has "dt_out = 1e-300: why" "cannot advance time"

# ---- (12) how a run ended, in its file -------------------------------------------
expect 0 "a complete run" "$J" run m.jnt -o end.csv
[ "$(tail -1 end.csv)" = "# jnt: complete at t = 0.002 s" ] && pass "a complete run ends in '# jnt: complete at t = 0.002 s'" ||
    fail "a complete run's last line: $(tail -1 end.csv)"
cp "$ROOT/tests/cli/diverge.jnt" .
expect 1 "a diverging run" "$J" run diverge.jnt -o div.csv
tail -1 div.csv | grep -q "^# jnt: failed at t = 0.36 s: t = 0.361 s: derivative of state 'b.x.v' became not finite" &&
    pass "a failed run ends in '# jnt: failed at t = ...: <message>'" || fail "a failed run's last line: $(tail -1 div.csv)"
cd "$ROOT" || exit 1

# ---- (10) paths a model may name: refused, then allowed with --allow-path --------
P=$T/paths
mkdir -p "$P/m" "$P/outside"
base='body b : point(mass = 1 kg) { dof x }
simulate { integrator = rk4(h = 1 ms)  until = 1 ms }'
printf 'model a\n%s\noutput "%s/outside/abs.csv" every 1 ms { t }\n' "$base" "$P" > "$P/m/abs.jnt"
printf 'model u\n%s\noutput "../up.csv" every 1 ms { t }\n' "$base" > "$P/m/up.jnt"
printf 'model o\n%s\noutput "self.jnt" every 1 ms { t }\n' "$base" > "$P/m/self.jnt"
printf 'model i\nimport "/etc/passwd"\n%s\n' "$base" > "$P/m/imp.jnt"
ln -sf /etc/passwd "$P/m/M.mtx"
printf 'model l\nsubstructure d : fe(mass = "M.mtx", stiffness = "M.mtx", nodes = "M.mtx") { }\n%s\n' "$base" > "$P/m/link.jnt"
cd "$P/m" || exit 1
expect 1 "an absolute output path is refused" "$J" check abs.jnt
has "an absolute output path: located, how to allow it" "abs.jnt:4:1: error: output '.*' is an absolute path.*--allow-path DIR"
expect 0 "an absolute output path, allowed with --allow-path" "$J" check abs.jnt --allow-path "$P/outside"
expect 1 "an output going up with '..' is refused" "$J" run up.jnt
[ ! -e ../up.csv ] && pass "'..': nothing written above" || fail "'..': ../up.csv written"
expect 0 "an output going up with '..', allowed with --allow-path" "$J" run up.jnt --allow-path "$P"
[ -e ../up.csv ] && pass "'..' allowed: written there" || fail "'..' allowed: not written"
expect 1 "an output over the model itself is refused" "$J" run self.jnt
has "an output over the model: said so" "is the model file 'self.jnt': it would be overwritten"
grep -q '^model o' self.jnt && pass "the model file is intact" || fail "the model file was overwritten"
# ... and over one of its data files, from the model or from -o (which may go anywhere else)
mkdir -p data && cp "$ROOT/examples/lap_joint/M.mtx" "$ROOT/examples/lap_joint/K.mtx" "$ROOT/examples/lap_joint/nodes.csv" data/
printf 'model d\nparam p = 1\nsubstructure s : fe(mass = "data/M.mtx", stiffness = "data/K.mtx", nodes = "data/nodes.csv") {\n  fix = clamp\n  reduce = modal(modes = 2)\n}\n%s\noutput "data/K.mtx" every 1 ms { t }\n' "$base" > data.jnt
sum0=$(cksum < data/K.mtx)
expect 1 "an output over one of the model's data files is refused" "$J" run data.jnt
has "an output over a data file: located, said so" "data.jnt:9:1: error: the output 'data/K.mtx' is a data file of the model"
sed 's|output "data/K.mtx"|output "d.csv"|' data.jnt > data2.jnt
expect 1 "-o over a data file is refused" "$J" run data2.jnt -o data/M.mtx
has "-o over a data file: said so" "a file the model was compiled from: it would be overwritten"
expect 1 "-o over the model itself is refused" "$J" run data2.jnt -o data2.jnt
[ "$(cksum < data/K.mtx)" = "$sum0" ] && cmp -s data/M.mtx "$ROOT/examples/lap_joint/M.mtx" && grep -q '^model d' data2.jnt &&
    pass "the data files and the model are intact" || fail "a data file or the model was overwritten"
expect 0 "-o elsewhere runs" "$J" run data2.jnt -o elsewhere.csv
expect 1 "jnt sweep -o over the model is refused" "$J" sweep data2.jnt --list p=1,2 -o data2.jnt
expect 1 "jnt sweep -o over a data file is refused" "$J" sweep data2.jnt --list p=1,2 -o data/nodes.csv
expect 1 "jnt emit -o over the model is refused" "$J" emit data2.jnt -o ./data2.jnt
expect 1 "jnt build -o over the model is refused" "$J" build data2.jnt -o data2.jnt
grep -q '^model d' data2.jnt && cmp -s data/nodes.csv "$ROOT/examples/lap_joint/nodes.csv" &&
    pass "sweep, emit, build: the model and its data intact" || fail "sweep, emit or build overwrote the model or its data"
expect 1 "import \"/etc/passwd\" is refused" "$J" check imp.jnt
grep -q 'root:' "$T/err" && fail "import /etc/passwd: its content echoed" || pass "import /etc/passwd: no content echoed"
expect 1 "a data file linked out (to /etc/passwd) is refused" "$J" check link.jnt
has "a link out: said so" "leads out through a symbolic link"
expect 1 "allowed with --allow-path /etc: not a Matrix Market file, nothing echoed" "$J" check link.jnt --allow-path /etc
has "/etc/passwd as a matrix: the file named, what was expected" "M.mtx:1: not a Matrix Market file: expected"
grep -q 'root:' "$T/err" && fail "/etc/passwd as a matrix: content echoed" || pass "/etc/passwd as a matrix: no content echoed"
cd "$ROOT" || exit 1

# ---- (9) trigraphs in strings of generated C: jnt run and the gcc build agree -----
cd "$T" || exit 1
sed 's/"m.csv"/"a??=b.csv"/' m.jnt > tri.jnt
expect 0 "output \"a??=b.csv\": jnt run" "$J" run tri.jnt
expect 0 "output \"a??=b.csv\": jnt build" "$J" build tri.jnt -o tri_sim
rm -f 'a??=b.csv' 'a#b.csv'
./tri_sim > /dev/null 2>&1
[ -f 'a??=b.csv' ] && [ ! -f 'a#b.csv' ] && pass "the gcc-built simulator writes 'a??=b.csv' too" ||
    fail "the gcc-built simulator: $(ls a*b.csv)"
sed 's/"m.csv"/"x??\/"/' m.jnt > tri2.jnt
expect 0 "output \"x??/\": jnt build compiles" "$J" build tri2.jnt -o tri2_sim

# ---- (11) invalid values: located errors ---------------------------------------------
printf 'model v\nbody b : point(mass = 1e400 kg) { dof x }\nsimulate { integrator = rk4(h = 1 ms)  until = 1 ms }\n' > big.jnt
expect 1 "mass = 1e400 kg is an error" "$J" check big.jnt
has "1e400: out of range, located" "big.jnt:2:23: error: number out of range"
printf 'model v\nbody b : point(mass = log(0) kg) { dof x }\nsimulate { integrator = rk4(h = 1 ms)  until = 1 ms }\n' > log0.jnt
expect 1 "mass = log(0) kg is an error" "$J" check log0.jnt
has "log(0) kg: located, the value shown" "log0.jnt:2:23: error: the mass must be positive and finite, got -inf kg"
printf 'model v\nbody b : point(mass = 1 kg) { dof x }\nsimulate { integrator = rk4(h = 1 ms)  until = 0/0 * 1 s }\n' > nan.jnt
expect 1 "until = 0/0 * 1 s is an error" "$J" check nan.jnt
has "until = 0/0: located, NaN shown (not 0)" "nan.jnt:3:48: error: 'until' must be finite, got nan"
expect 1 "-D mass=-1 is refused before the run" "$J" run "$T/m.jnt" -D mass=-1 -o neg.csv
has "-D mass=-1: the body named" "the mass of the body of 'b.x' is not positive and finite"
expect 1 "-D mass=0 is refused before the run" "$J" run "$T/m.jnt" -D mass=0 -o neg.csv
# the same for a multibody body's mass (rigid2d, rigid3d)
printf 'model mb
param m = 1 kg
body arm : rigid2d(mass = m, inertia = 0.1 kg*m^2) { marker P = (0 m, 0 m) }
joint pin : revolute(arm.P, (0 m, 0 m))
simulate { integrator = midpoint(h = 1 ms)  until = 2 ms  gravity = (0 m/s^2, -9.81 m/s^2) }
output "mb.csv" every 1 ms { t, a = arm.angle }
' > mb.jnt
expect 1 "-D m=-1 on a rigid2d body is refused before the run" "$J" run mb.jnt -D m=-1 -o ''
has "-D m=-1 (rigid2d): the body named" "the mass of the body of 'arm.x' is not positive and finite"
expect 0 "-D m=2 on the rigid2d body runs" "$J" run mb.jnt -D m=2 -o ''
printf 'model mb3
param m = 1 kg
body arm : rigid3d(mass = m, inertia = (0.1 kg*m^2, 0.1 kg*m^2, 0.1 kg*m^2)) { marker P = (0 m, 0 m, 0 m) }
joint pin : spherical(arm.P, (0 m, 0 m, 0 m))
simulate { integrator = midpoint(h = 1 ms)  until = 2 ms }
output "mb3.csv" every 1 ms { t, z = arm.z }
' > mb3.jnt
expect 1 "-D m=0 on a rigid3d body is refused before the run" "$J" run mb3.jnt -D m=0 -o ''
# and its inertia: rigid2d's moment, rigid3d's principal moments (none above the others' sum)
sed 's/inertia = 0.1 kg\*m^2/inertia = J/; s/^param m = 1 kg/&\nparam J = 0.1 kg*m^2/' mb.jnt > mbj.jnt
expect 1 "-D J=-0.1 on a rigid2d inertia is refused before the run" "$J" run mbj.jnt -D J=-0.1 -o ''
has "-D J=-0.1 (rigid2d): the body named" "the inertia of the body of 'arm.angle' is not positive and finite"
expect 0 "-D J=0.2 on the rigid2d inertia runs" "$J" run mbj.jnt -D J=0.2 -o ''
sed 's/inertia = (0.1 kg\*m^2,/inertia = (Jx,/; s/^param m = 1 kg/&\nparam Jx = 0.1 kg*m^2/' mb3.jnt > mb3j.jnt
expect 1 "-D Jx=0.3 (above Jy + Jz) on a rigid3d body is refused before the run" "$J" run mb3j.jnt -D Jx=0.3 -o ''
has "-D Jx=0.3 (rigid3d): the body and the rule named" "no principal moment may exceed the sum of the other two"
expect 0 "-D Jx=0.15 on the rigid3d body runs" "$J" run mb3j.jnt -D Jx=0.15 -o ''
# the second body of a chain: named by its own states (multibody states are reordered)
printf 'model mb2
param m2 = 1 kg
body a : rigid2d(mass = 1 kg, inertia = 0.1 kg*m^2) { marker P = (0 m, 0 m) }
body b : rigid2d(mass = m2, inertia = 0.1 kg*m^2) { marker P = (0 m, 0 m) }
joint pin : revolute(a.P, (0 m, 0 m))
joint pin2 : revolute(b.P, a.P)
simulate { integrator = midpoint(h = 1 ms)  until = 2 ms  gravity = (0 m/s^2, -9.81 m/s^2) }
output "mb2.csv" every 1 ms { t, a = b.angle }
' > mb2.jnt
expect 1 "-D m2=-1 on the second body is refused" "$J" run mb2.jnt -D m2=-1 -o ''
has "-D m2=-1: the second body named" "the mass of the body of 'b.x' is not positive"
expect 0 "-D m2=2 on the second body runs" "$J" run mb2.jnt -D m2=2 -o ''
# the size limits can be raised: JNT_MAX_ARRAY (instances of one array), JNT_MAX_CODE_MB
printf 'model arr\nconst n = 20000\nbody b[i in 1..n] : point(mass = 1 kg) { dof x }\nsimulate { integrator = rk4(h = 1 ms)  until = 1 ms }\n' > arr.jnt
JNT_MAX_ARRAY=10000 expect 1 "JNT_MAX_ARRAY=10000: an array of 20000 is refused" "$J" check arr.jnt
has "the limit named with how to raise it" "more than the limit of 10000 (set JNT_MAX_ARRAY to raise it)"
JNT_MAX_ARRAY=20000 expect 0 "JNT_MAX_ARRAY=20000: it is accepted" "$J" check arr.jnt
JNT_MAX_CODE_MB=1 expect 1 "JNT_MAX_CODE_MB=1: 20000 bodies' C is refused before the C compiler" "$J" run arr.jnt -o ''
has "the code size named with how to raise it" "more than the limit of 1 MB (set JNT_MAX_CODE_MB to raise it"
printf '\357\273\277model bom\nbody b : point(mass = 1 kg) { dof x }\nsimulate { integrator = rk4(h = 1 ms)  until = 1 ms }\n' > bom.jnt
expect 0 "a UTF-8 byte-order mark is accepted" "$J" check bom.jnt
cd "$ROOT" || exit 1
