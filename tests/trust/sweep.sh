#!/bin/sh
# Issue 27, finding 4 and the sweep parts of 3, 7 and 12: a sweep's table
# never lies. Two sweeps into one -o: the second is refused (the table is
# locked), the first's table has each run once. --resume refuses a table of
# a changed model, of other -D values, or with a run twice. -o over a device,
# a FIFO or a link is refused (the one output routine's rules); -o - is
# stdout. A plan over the limit of runs is refused before anything is
# allocated; an empty --list item and -D of a swept parameter are errors.
NAME=sweep
. tests/trust/lib.sh
cd "$T"
small_model m.jnt
# runs of about 60 ms, so that a second sweep starts while the first runs
SLOW="-D t_end=10s --grid mass=1:30:1 -j 1"

# ---- (4) two sweeps into one -o at once ----------------------------------------
# shellcheck disable=SC2086
"$J" sweep m.jnt $SLOW -o both.csv 2> first.err &
pid=$!
for _ in $(seq 100); do
    [ -f both.csv ] && [ "$(wc -l < both.csv)" -ge 4 ] && break
    sleep 0.05
done
# shellcheck disable=SC2086
expect 1 "a second sweep into a table a sweep is writing is refused" "$J" sweep m.jnt $SLOW -o both.csv
has "the second sweep: said another sweep writes it" "another jnt sweep is writing it"
wait $pid
rc=$?
rows=$(grep -c '^[0-9]' both.csv)
runs=$(grep '^[0-9]' both.csv | cut -d, -f1 | sort -u | wc -l)
if [ $rc -eq 0 ] && [ "$rows" -eq 30 ] && [ "$runs" -eq 30 ]; then
    pass "the first sweep's table: 30 rows, each run once (exit $rc)"
else fail "two sweeps at once: exit $rc, $rows rows of $runs runs for 30: $(head -2 first.err)"; fi
# shellcheck disable=SC2086
expect 0 "the same sweep again, after the first ended, runs" "$J" sweep m.jnt $SLOW -D t_end=1ms -o both.csv

# ---- (4) --resume after a change -----------------------------------------------
expect 0 "a sweep of 6 runs" "$J" sweep m.jnt --grid mass=1:6:1 -D t_end=3ms -o t.csv
sed -n 2p t.csv | grep -q '^# jnt sweep: model fnv1a64:[0-9a-f]\{16\}; fixed: t_end=0.003; swept: mass; units: ,kg,s,m,,,s$' &&
    pass "the table records the model's hash, the fixed -D, the swept parameters and the units" || fail "the table's record: $(sed -n 2p t.csv)"
head -5 t.csv > cut.csv
cp cut.csv cut0.csv
sed 's/stiffness = 1 N\/m/stiffness = 2 N\/m/' m.jnt > m2.jnt
mv m.jnt m0.jnt && cp m2.jnt m.jnt
expect 1 "--resume after the model changed is refused" "$J" sweep m.jnt --grid mass=1:6:1 -D t_end=3ms -o cut.csv --resume
has "the changed model: said so" "from another model: the model or a file it reads changed"
cmp -s cut.csv cut0.csv && pass "the refused table is untouched" || fail "the refused table changed"
mv m0.jnt m.jnt
expect 1 "--resume with another -D is refused" "$J" sweep m.jnt --grid mass=1:6:1 -D t_end=4ms -o cut.csv --resume
has "the other -D: said which" "other fixed parameters (-D) ('t_end=0.003' in the table, 't_end=0.004' now)"
expect 1 "--resume without the table's -D is refused" "$J" sweep m.jnt --grid mass=1:6:1 -o cut.csv --resume
expect 0 "--resume with the same -D in other words (3 ms as 0.003) completes it" "$J" sweep m.jnt --grid mass=1:6:1 -D "t_end=0.003" -o cut.csv --resume
sed 's/,[^,]*$//' cut.csv > a.txt; sed 's/,[^,]*$//' t.csv > b.txt
cmp -s a.txt b.txt && pass "the resumed table is the uninterrupted one (but cpu_s)" || fail "the resumed table differs"
# a file the model reads changed (an import)
printf 'model lib\nparam k0 = 1 N/m\n' > lib.jnt
sed 's|^model m|model m\nimport "lib.jnt"|' m.jnt > imp.jnt
expect 0 "a sweep of a model with an import" "$J" sweep imp.jnt --list mass=1,2,3 -o imp.csv
head -3 imp.csv > impcut.csv
printf 'model lib\nparam k0 = 2 N/m\n' > lib.jnt
expect 1 "--resume after an imported file changed is refused" "$J" sweep imp.jnt --list mass=1,2,3 -o impcut.csv --resume
# a table without the record (an older jnt's) is not trusted
sed 2d t.csv | head -4 > old.csv
expect 1 "--resume of a table without the record is refused" "$J" sweep m.jnt --grid mass=1:6:1 -D t_end=3ms -o old.csv --resume
has "no record: said so" "does not record the model and the -D values"

# ---- (4) a duplicated row --------------------------------------------------------
{ head -5 t.csv; sed -n 4p t.csv; } > dup.csv
expect 1 "--resume of a table with a run twice is refused" "$J" sweep m.jnt --grid mass=1:6:1 -D t_end=3ms -o dup.csv --resume
has "the run twice: said where" "dup.csv:6: run 1 is in the table twice"
{ head -3 t.csv; echo "1,2,0.003,0.99999,maybe,,0.1"; } > bad.csv
expect 1 "--resume of a row without a status is refused" "$J" sweep m.jnt --grid mass=1:6:1 -D t_end=3ms -o bad.csv --resume

# ---- (3) -o over a device, a FIFO, a link ----------------------------------------
mknod cdev c 1 3
mkfifo fifo
echo target > tgt.txt
ln -s tgt.txt lnk
expect 1 "-o a character device is refused" timeout 20 "$J" sweep m.jnt --list mass=1,2 -o cdev
has "-o a device: said what it is" "it is a device"
expect 1 "-o a FIFO is refused, not waited on" timeout 20 "$J" sweep m.jnt --list mass=1,2 -o fifo
expect 1 "-o a symbolic link is refused" timeout 20 "$J" sweep m.jnt --list mass=1,2 -o lnk
has "-o a link: said so" "symbolic link"
# (not -o /dev/null itself: a jnt from before renamed its table over it, as root)
[ -c cdev ] && [ -p fifo ] && [ -L lnk ] && [ "$(cat tgt.txt)" = target ] &&
    pass "the device, the FIFO, the link and its target are intact" ||
    fail "a device, FIFO or link was replaced: $(ls -l cdev fifo lnk tgt.txt)"
expect 1 "-o over the model is refused" "$J" sweep m.jnt --list mass=1,2 -o m.jnt
expect 1 "-o into a missing folder is refused" "$J" sweep m.jnt --list mass=1,2 -o nodir/t.csv
has "a missing folder: said so" "its folder does not exist"

# ---- (12) -o -, --list with an empty item, -D of a swept parameter -----------------
expect 0 "-o - writes the table to stdout" "$J" sweep m.jnt --list mass=2,1 -o -
[ "$(grep -c '^[0-9]' "$T/out")" -eq 2 ] && head -1 "$T/out" | grep -q '^run,mass,' &&
    [ "$(grep '^[0-9]' "$T/out" | cut -d, -f1 | tr '\n' ' ')" = "0 1 " ] &&
    pass "-o -: the header and two rows, sorted" || fail "-o -: $(cat "$T/out")"
[ ! -e ./- ] && pass "-o -: no file named '-'" || fail "-o -: a file named '-' was made"
expect 2 "--resume -o - is a usage error" "$J" sweep m.jnt --list mass=1,2 -o - --resume
expect 2 "--list with an empty item is an error" "$J" sweep m.jnt --list mass=1kg,,2 -o e.csv
has "the empty item: named" "--list mass: item 2 is empty"
expect 2 "--list with a trailing comma is an error" "$J" sweep m.jnt --list mass=1,2, -o e.csv
expect 2 "--grid with an empty field is an error" "$J" sweep m.jnt --grid mass=1:2::1 -o e.csv
expect 2 "-D of a swept parameter is an error" "$J" sweep m.jnt -D mass=5 --grid mass=1:3:1 -o e.csv
has "-D of a swept parameter: said so" "parameter 'mass' is swept and fixed by -D mass=5"
[ ! -e e.csv ] && pass "the usage errors wrote no table" || fail "a usage error wrote e.csv"

# ---- (7) a plan over the limit of runs is refused before it is allocated ------------
# (under ulimit -v, which AddressSanitizer's shadow memory cannot start under: make
# check-asan runs the same refusal without it)
if ldd "$J" 2>/dev/null | grep -q libasan; then lim=unlimited; else lim=2000000; fi
(ulimit -v $lim; timeout 20 "$J" sweep m.jnt --samples 100000000 --dist mass=uniform:1:2 -o big.csv) > /dev/null 2> big.err
rc=$?
[ $rc -eq 2 ] && grep -q 'more runs than the limit of 1000000 runs of a sweep (set JNT_MAX_SWEEP_RUNS=N' big.err &&
    pass "--samples 100000000: refused before any allocation, the limit and how to raise it said" ||
    fail "--samples 100000000: exit $rc: $(head -2 big.err)"
expect 2 "--samples 1e8 is read as a number and refused the same way" "$J" sweep m.jnt --samples 1e8 --dist mass=uniform:1:2 -o big.csv
expect 2 "a product of grids over the limit is refused" "$J" sweep m.jnt --grid mass=1:2000:1 --grid t_end=1ms:1000ms:1ms -o big.csv
expect 2 "JNT_MAX_SWEEP_RUNS=3: 4 samples are refused" env JNT_MAX_SWEEP_RUNS=3 "$J" sweep m.jnt --samples 4 --dist mass=uniform:1:2 -o s.csv
has "the lowered limit: said" "the limit of 3 runs"
expect 0 "JNT_MAX_SWEEP_RUNS=3: 3 samples run" env JNT_MAX_SWEEP_RUNS=3 "$J" sweep m.jnt --samples 3 --dist mass=uniform:1:2 -o s.csv
