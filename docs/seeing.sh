#!/bin/sh
# make docs: the pictures of docs/seeing.md, rendered from jnt run --vtk's
# frames by docs/seeing_render.py under xvfb-run: with pvpython (ParaView's
# python3-paraview, which the Makefile installs) when it is there, else with
# VTK's own renderer through /usr/bin/python3. Writes docs/img/seeing_*.png.
# Run from the repository root with B set.
set -e
B=${B:-build}
J=$PWD/$B/jnt
W=$B/docs/seeing
mkdir -p "$W" docs/img
PV=/usr/bin/python3
command -v pvpython > /dev/null && PV=pvpython
if ! command -v xvfb-run > /dev/null; then
    echo "docs/seeing.sh: no xvfb-run (xvfb): pictures not made"
    exit 0
fi
"$J" run examples/slider_crank.jnt --vtk "$W/sc" -o "$W/sc.csv"
# render FRAMES.pvd OUT.png TIME: $PV under a virtual X server (up to
# three tries: xvfb-run -a can lose a race for a display)
render() {
    for try in 1 2 3; do
        xvfb-run -a -s "-screen 0 1024x768x24" $PV docs/seeing_render.py "$@" \
            > "$W/render.log" 2>&1 && return 0
        sleep 2
    done
    cat "$W/render.log"
    return 1
}
render "$W/sc/slider_crank.pvd" docs/img/seeing_slider_crank.png 0.3
echo "docs/seeing.sh: docs/img/seeing_slider_crank.png"
# the car pendulum at 0.1 s: the sheet bent by f0, its contacts by state
"$J" run examples/car_pendulum.jnt -D t_end=0.1s --vtk "$W/cp" -o "$W/cp.csv" 2> "$W/cp.log"
render "$W/cp/car_pendulum.pvd" docs/img/seeing_car_pendulum.png 0.1 900 300
echo "docs/seeing.sh: docs/img/seeing_car_pendulum.png"
