#!/bin/sh
# Issue 27, findings 3, 5 and the output messages of 12: every command writes
# through the one output routine (runtime/io/outfile.c): a device, a FIFO or
# a link is refused, never renamed over; an import or a data file is never
# overwritten; a failed write never replaces the previous result; stdout's
# errors are seen; stale .part files of dead processes are removed.
NAME=outputs
. tests/trust/lib.sh
cd "$T"
small_model m.jnt

# ---- (3) devices, FIFOs, links as -o -------------------------------------------
mknod cdev c 1 3
mkfifo fifo
echo target > tgt.txt
ln -s tgt.txt lnk
for cmd in emit build; do
    expect 1 "jnt $cmd -o a character device is refused" timeout 20 "$J" $cmd m.jnt -o cdev
    has "jnt $cmd -o a character device: said what it is" "it is a device"
    expect 1 "jnt $cmd -o a FIFO is refused, not waited on" timeout 20 "$J" $cmd m.jnt -o fifo
    expect 1 "jnt $cmd -o a symbolic link is refused" timeout 20 "$J" $cmd m.jnt -o lnk
done
[ -c cdev ] && [ -p fifo ] && [ -L lnk ] && [ "$(cat tgt.txt)" = target ] &&
    pass "the device, the FIFO, the link and its target are intact" ||
    fail "a device, FIFO or link was replaced: $(ls -l cdev fifo lnk tgt.txt)"
[ -c /dev/null ] && pass "/dev/null is still a character device" || fail "/dev/null was replaced"
expect 0 "jnt emit -o /dev/null writes in place" "$J" emit m.jnt -o /dev/null
expect 0 "jnt run -o /dev/null writes in place" "$J" run m.jnt -o /dev/null
[ -c /dev/null ] && pass "/dev/null is still a character device after writing it" || fail "/dev/null was replaced"

# an imported file and a data file are never outputs
printf 'model lib\nparam k0 = 1 N/m\n' > lib.jnt
sed 's|^model m|model m\nimport "lib.jnt"|' m.jnt > imp.jnt
cp lib.jnt lib0.jnt
expect 1 "jnt build imp.jnt -o lib.jnt (the import) is refused" "$J" build imp.jnt -o lib.jnt
has "the import as -o: said so" "a file the model was read from"
expect 1 "jnt emit imp.jnt -o lib.jnt (the import) is refused" "$J" emit imp.jnt -o lib.jnt
cmp -s lib.jnt lib0.jnt && pass "the imported file is intact" || fail "the imported file was overwritten"
mkdir lj && cp -r "$ROOT/examples/lap_joint.jnt" "$ROOT/examples/lap_joint" lj/
cksum < lj/lap_joint/K.mtx > k0
expect 1 "jnt emit lap_joint.jnt -o lap_joint/K.mtx (a data file) is refused" "$J" emit lj/lap_joint.jnt -o lj/lap_joint/K.mtx
[ "$(cksum < lj/lap_joint/K.mtx)" = "$(cat k0)" ] && pass "the data file is intact" || fail "the data file was overwritten"

# ---- (5) a full disk keeps the previous result ----------------------------------
expect 0 "a good run writes out.csv" "$J" run m.jnt -D t_end=50ms -o out.csv
cp out.csv good.csv
# (stderr through a pipe: a file would be over the limit too)
(ulimit -f 0; "$J" run m.jnt -D t_end=50ms -o out.csv > /dev/null; echo "exit $?" >&2) 2>&1 | cat > err
rc=$(sed -n 's/^exit //p' err)
[ "$rc" = 1 ] && pass "a run on a full disk fails (exit 1)" || fail "a run on a full disk: exit $rc"
cmp -s out.csv good.csv && pass "a run on a full disk keeps the previous out.csv whole" ||
    fail "a run on a full disk changed out.csv ($(wc -c < out.csv) bytes, was $(wc -c < good.csv))"
grep -q "previous file is kept" err && pass "the full disk: said the previous file is kept" || fail "the full disk: $(head -2 err)"
expect 0 "a good run writes out.npy" "$J" run m.jnt -D t_end=50ms -o out.npy
cp out.npy good.npy
(ulimit -f 0; "$J" run m.jnt -D t_end=50ms -o out.npy) > /dev/null 2>&1
cmp -s out.npy good.npy && pass "a run on a full disk keeps the previous out.npy whole" || fail "the full disk replaced out.npy"
expect 0 "jnt emit -o writes m.c" "$J" emit m.jnt -o m.c
cp m.c good.c
(ulimit -f 0; "$J" emit m.jnt -o m.c) > /dev/null 2>&1 && fail "jnt emit on a full disk exits 0" || pass "jnt emit on a full disk fails"
cmp -s m.c good.c && pass "jnt emit on a full disk keeps the previous m.c" || fail "jnt emit on a full disk replaced m.c"
if [ -w /dev/full ]; then
    expect 1 "jnt emit > /dev/full fails (stdout's error seen)" sh -c "'$J' emit m.jnt > /dev/full"
    has "jnt emit > /dev/full: said so" "No space left on device"
fi
ls *.part > /dev/null 2>&1 && fail "a .part was left behind: $(ls *.part)" || pass "no .part left behind"

# ---- stale .part files of dead processes ----------------------------------------
echo stale > out.csv.jnt-4194305-0.part
echo live > "out.csv.jnt-$$-0.part"
expect 0 "a run beside a dead process's .part" "$J" run m.jnt -o out.csv
[ ! -e out.csv.jnt-4194305-0.part ] && pass "a dead process's .part is removed" || fail "a dead process's .part stays"
[ -e "out.csv.jnt-$$-0.part" ] && pass "a live process's .part is left alone" || fail "a live process's .part was removed"
rm -f "out.csv.jnt-$$-0.part"

# ---- (12) messages about outputs -----------------------------------------------
sed 's|output "m.csv"|output "sub/m.csv"|' m.jnt > sub.jnt
expect 1 "an output in a missing sub-folder is an error" "$J" check sub.jnt
has "a missing sub-folder: said so, not 'a symbolic link'" "the folder 'sub' does not exist"
expect 1 "-o into a missing folder is refused" "$J" run m.jnt -o nosuch/x.csv
has "-o into a missing folder: said so" "its folder does not exist"
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
    expect 0 "-o /dev/shm/x.csv (a tmpfs) is written" "$J" run m.jnt -o /dev/shm/jnt-trust-$$.csv
    rm -f /dev/shm/jnt-trust-$$.csv
fi

# ---- jnt run --plot onto a link: refused before the run (it overwrote the CSV
# the link points at with a PNG, and then after the run) ---------------------------
echo keep > tgt.csv
ln -s tgt.csv lnk.png
rm -f plotted.csv
expect 1 "jnt run --plot lnk.png (a link to a CSV) is refused" "$J" run m.jnt -o plotted.csv --plot lnk.png
[ "$(cat tgt.csv)" = keep ] && [ -L lnk.png ] && pass "--plot onto a link: the link and its CSV intact" || fail "--plot onto a link replaced something"
[ ! -e plotted.csv ] && pass "--plot onto a link: refused before the run (no CSV written)" || fail "--plot onto a link: the run ran first"
