#!/bin/sh
# make docs: films of the motion by jnt animate (docs/seeing.md, "Films"):
# the slider-crank, the car pendulum's sheet (coloured by its displacement,
# its contacts by state) and the rotor's shaft whirling in its clearance,
# seen along the shaft. Writes docs/img/anim_*.gif (each well under 1 MB).
# Run from the repository root with B set; called by docs/plots.sh.
set -e
B=${B:-build}
J=$PWD/$B/jnt
mkdir -p docs/img
"$J" animate examples/slider_crank.jnt -o docs/img/anim_slider_crank.gif \
    --frames 51 --fps 25 --size 480,260
"$J" animate examples/car_pendulum.jnt -o docs/img/anim_car_pendulum.gif \
    --frames 61 --fps 20 --size 560,260
"$J" animate examples/rotor_clearance.jnt -o docs/img/anim_rotor_clearance.gif \
    --view yz --frames 81 --fps 20 --size 420,340
ls -l docs/img/anim_*.gif | awk '{ printf "films: %s %d bytes\n", $NF, $5 }'
