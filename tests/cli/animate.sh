#!/bin/sh
# jnt animate (compiler/cli/animate.c, animate.py): films of VTK frames,
# read back with ffprobe. Run from the repository root with B set.
B=${B:-build}
J=$PWD/$B/jnt
ROOT=$PWD
pass() { echo "PASS: animate: $*"; }
fail() { echo "FAIL: animate: $*"; }
W=$(mktemp -d "${TMPDIR:-/tmp}/jnt-animate-test.XXXXXX")
trap 'rm -rf "$W"' EXIT
cd "$W" || exit 1
PY=/usr/bin/python3
# frames and duration of a film as ffprobe reads them: "FRAMES DURATION"
probe() {
    ffprobe -v error -count_frames -select_streams v:0 \
        -show_entries stream=nb_read_frames,codec_name,width,height -show_entries format=duration \
        -of default=nw=1 "$1" 2> /dev/null | tr '\n' ' '
}
field() { printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }

# hand-made frames in the layout of jnt run --vtk (docs/seeing.md): 30 frames
$PY "$ROOT/tests/cli/animate_fixture.py" fx 30 || fail "the fixture's frames"
# a GIF of every frame at 10 per second: 30 frames, 3 s
mkdir -p tmp
if TMPDIR=$W/tmp "$J" animate fx/demo.pvd -o demo.gif --frames 0 --fps 10 --size 320,240 2> err.txt; then
    p=$(probe demo.gif)
    if [ "$(field "$p" nb_read_frames)" = 30 ] && [ "$(field "$p" codec_name)" = gif ] &&
            awk -v d="$(field "$p" duration)" 'BEGIN { exit !(d > 2.95 && d < 3.05) }' &&
            [ "$(field "$p" width)" = 320 ]; then
        pass "a GIF of 30 frames at 10/s: ffprobe reads $p($(wc -c < demo.gif) bytes)"
    else
        fail "GIF: ffprobe reads '$p'"
    fi
else
    fail "jnt animate to a GIF: $(cat err.txt)"
fi
# an MP4 of at most 12 frames (the first and the last among them) at 6 per second: 2 s
if "$J" animate fx/demo.pvd -o demo.mp4 --frames 12 --fps 6 --view iso 2> err.txt; then
    p=$(probe demo.mp4)
    if [ "$(field "$p" nb_read_frames)" = 12 ] && [ "$(field "$p" codec_name)" = h264 ] &&
            awk -v d="$(field "$p" duration)" 'BEGIN { exit !(d > 1.9 && d < 2.1) }'; then
        pass "an MP4 of 12 of the 30 frames at 6/s, iso view: ffprobe reads $p"
    else
        fail "MP4: ffprobe reads '$p'"
    fi
else
    fail "jnt animate to an MP4: $(cat err.txt)"
fi
# a model: run with --vtk into the temporary folder, -D passed on to the run
if "$J" animate "$ROOT/examples/slider_crank.jnt" -o crank.mp4 --frames 20 --fps 10 -D m=0.6kg \
        --size 320,240 2> err.txt; then
    p=$(probe crank.mp4)
    [ "$(field "$p" nb_read_frames)" = 20 ] &&
        awk -v d="$(field "$p" duration)" 'BEGIN { exit !(d > 1.95 && d < 2.05) }' &&
        pass "examples/slider_crank.jnt run and drawn: ffprobe reads $p" ||
        fail "slider-crank film: ffprobe reads '$p'"
else
    fail "jnt animate examples/slider_crank.jnt: $(cat err.txt)"
fi
"$J" animate "$ROOT/examples/slider_crank.jnt" -o bad.gif -D nope=1 2> err.txt; rc=$?
[ $rc = 1 ] && [ ! -e bad.gif ] && grep -q "nope" err.txt &&
    pass "a -D the model does not have: the run's message, exit 1, no film" ||
    fail "bad -D: exit $rc, $(cat err.txt)"
# the frames differ (the crank turns, the sheet bends): frame 0 and 15 of the GIF
ffmpeg -v error -i demo.gif -vf "select=eq(n\,0)+eq(n\,15)" -vsync 0 f%d.png 2> /dev/null
if [ -s f1.png ] && [ -s f2.png ] && ! cmp -s f1.png f2.png; then
    pass "the film moves (frames 0 and 15 differ)"
else
    fail "frames 0 and 15 of the GIF are the same (or missing)"
fi

# names are never code: a title and a file name with quotes, newlines and $( )
t='x"); import os; os.system("touch PWNED"); ("'
mkdir -p 'we"ird $(touch PWNED2)'
if "$J" animate fx/demo.pvd -o 'we"ird $(touch PWNED2)/a b.gif' --title "$t" --frames 4 2> err.txt &&
        [ -s 'we"ird $(touch PWNED2)/a b.gif' ] && [ ! -e PWNED ] && [ ! -e PWNED2 ]; then
    pass "a title and a path with quotes and \$( ) are arguments, not code"
else
    fail "odd names: $(cat err.txt); $(ls)"
fi

# the output routine: never through a link, never over the input, a failed film keeps
# the previous file
echo keep > old.gif
ln -s old.gif link.gif
"$J" animate fx/demo.pvd -o link.gif --frames 3 2> err.txt; rc=$?
[ $rc = 1 ] && [ "$(cat old.gif)" = keep ] && grep -q "symbolic link" err.txt &&
    pass "a symbolic link is refused (exit 1), its target kept" || fail "link: exit $rc, $(cat err.txt)"
printf '<VTKFile><Collection><DataSet timestep="0" file="missing.vtm"/></Collection></VTKFile>\n' > bad.pvd
"$J" animate bad.pvd -o old.gif 2> err.txt; rc=$?
[ $rc = 1 ] && [ "$(cat old.gif)" = keep ] && grep -q "missing.vtm" err.txt &&
    [ -z "$(ls | grep '\.part$')" ] &&
    pass "a frame that is not there: exit 1, named, the previous film kept, no temporary left" ||
    fail "bad frames: exit $rc, $(cat err.txt)"
# usage errors (exit 2)
"$J" animate fx/demo.pvd -o x.avi 2> err.txt; rc1=$?
"$J" animate fx/demo.pvd --view top 2> /dev/null; rc2=$?
"$J" animate fx/demo.pvd -D k=1 2> /dev/null; rc3=$?
"$J" animate 2> /dev/null; rc4=$?
[ $rc1 = 2 ] && [ $rc2 = 2 ] && [ $rc3 = 2 ] && [ $rc4 = 2 ] && grep -q "must end in .mp4 or .gif" err.txt &&
    pass "usage errors: a film not .mp4/.gif, an unknown view, -D with a .pvd, no input (exit 2)" ||
    fail "usage errors: exit $rc1 $rc2 $rc3 $rc4"
# without ffmpeg: named
mkdir -p nobin
PATH="$W/nobin" "$J" animate fx/demo.pvd -o n.gif 2> err.txt; rc=$?
[ $rc = 1 ] && grep -q "needs ffmpeg (Debian package ffmpeg)" err.txt && pass "no ffmpeg: named" ||
    fail "no ffmpeg: exit $rc, $(cat err.txt)"
# its temporary folder (frames, the run's VTK files) removed after
[ -d tmp ] && [ -z "$(ls -A tmp)" ] && pass "no temporary folder left in TMPDIR" ||
    fail "left in TMPDIR: $(ls -A tmp)"
