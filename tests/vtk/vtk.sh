#!/bin/sh
# jnt run --vtk DIR (docs/seeing.md): every multibody and substructure
# example writes its frames (cut to a few ms); VTK's readers (python3-paraview) read
# them back (tests/vtk/check.py): the meshes against their FE files or
# generators, the bodies' frames against the CSV's coordinates, the car
# pendulum's sheet against its reduced coordinates expanded by numpy, its
# contact forces against the CSV's; the .pvd's frames are the CSV's rows.
B=${B:-build}
ROOT=$(pwd)
J=$ROOT/$B/jnt
T=$ROOT/$B/tests/vtk
py=/usr/bin/python3
rm -rf "$T"
mkdir -p "$T"
cp -r examples/car_pendulum examples/lap_joint examples/iwan_interface examples/mechanism "$T"/
cd "$T" || exit 1
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; }
# check KIND ARGS...: tests/vtk/check.py, a FAIL when it cannot run (no vtk module)
check() {
    $py "$ROOT/tests/vtk/check.py" "$@" 2> check.err || {
        fail "check.py $1 $2: exited with status $?"; tail -2 check.err; }
}
# short MODEL UNTIL [sed script]: the example with `until = UNTIL`
short() {
    $py - "$ROOT/examples/$1.jnt" "$2" > "$1.jnt" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
s = re.sub(r'until(\s*)=(\s*)[^\n}]*?(?=\s*(\n|}|gravity|integrator))', 'until = ' + sys.argv[2], s)
sys.stdout.write(s)
PY
}
# every multibody or substructure example (a few ms; its CSV as it writes it)
for m in andrews_squeezer:5ms beam_mass_friction:20ms beam_on_beam:0.1ms car_pendulum:3ms \
         double_pendulum:20ms festoon:20ms fourbar:20ms fourbar_guess:20ms fourbar_kinematic:20ms \
         fourbar_origin:20ms fourbar_spatial:20ms fourbar_spatial_4r:20ms heavy_top:20ms \
         iwan_interface:20ms lap_joint:20ms mechanism_ideal:20ms mechanism_clearance:0.5ms \
         pendulum:20ms rotor_clearance:20ms slider_crank:20ms slider_crank_kinematic:20ms \
         spatial_slider_crank:20ms tumbling_body:20ms; do
    ex=${m%%:*}
    short "$ex" "${m#*:}"
    # beam_on_beam's locus at 5 positions, not 41 (each costs a QZ with vectors)
    [ "$ex" = beam_on_beam ] && sed -i 's/to = C_to - s0, steps = 40)/to = C_to - s0, steps = 4)/' \
        beam_on_beam.jnt
    if "$J" run "$ex.jnt" --vtk "v_$ex" -o "$ex.csv" > "$ex.log" 2>&1; then
        check every "v_$ex" "$ex.csv" "$ex"
    else
        fail "$ex: jnt run --vtk failed"; grep error "$ex.log" | head -3
    fi
done
# the spatial joints' axes: the four-bar's revolutes pinA, pinD about z, its universal
# pinB's pins (axis z fixed in the crank, axis_b normal to it, fixed in the coupler), the
# spherical pinC none
check axes fourbar_spatial v_fourbar_spatial "0:0,0,1;1:*:0,0,1;2:0,0,0;3:0,0,1"
# the meshes against their FE files (imported; the three sheets joined by
# two pins) and generators
check fe car_pendulum v_car_pendulum mesh_sheet \
    car_pendulum/K.mtx,car_pendulum/M.mtx car_pendulum/nodes.csv 800 0.15,0.3
check fe lap_joint v_lap_joint mesh_sheet \
    lap_joint/K.mtx,lap_joint/M.mtx lap_joint/nodes.csv 100 0.15,0.3
# beam_on_beam: plate2d nx = 100, ny = 2 and nx = 75, ny = 2 (the upper one turned)
check gen beam_on_beam v_beam_on_beam mesh_lower 303 200 4
check gen beam_on_beam v_beam_on_beam mesh_upper 228 150 4
# the complex modes of its locus (runtime/analyse/vtk_locus.c) at each of its positions: at
# the run's end (0.1 ms) mu is still ramped to 0 (real shapes); at 0.18 s (mu = 0.3) across
# the unstable window (complex)
check locus beam_on_beam v_beam_on_beam locus locus.csv 531 350 1
sed 's/from = C_from - s0, to = C_to - s0, steps = 4)/from = 2.2 mm, to = 2.6 mm, steps = 2, time = 0.18 s)/' \
    beam_on_beam.jnt > bob_mu.jnt
if grep -q "steps = 2, time = 0.18 s" bob_mu.jnt &&
   "$J" run bob_mu.jnt --vtk l_bob -o bob_mu.csv > bob_mu.log 2>&1; then
    check locus bob_mu l_bob locus locus.csv 531 350 0
else
    fail "beam_on_beam (locus with friction): jnt run --vtk failed"; grep error bob_mu.log | head -3
fi
# beam_mass_friction: beam2d of 24 elements, 25 nodes on the axis and 50 surface points
check gen beam_mass_friction v_beam_mass_friction mesh_beam 75 24 2
# rotor_clearance: beam3d of 12 elements
check gen rotor_clearance v_rotor_clearance mesh_shaft 13 12 2
# the bodies' frames against the CSV's coordinates (the models without their
# output block write t and every state), planar and spatial
for m in slider_crank:2d spatial_slider_crank:3d fourbar_spatial:3d car_pendulum:2d; do
    ex=${m%%:*}
    short "$ex" 3ms
    sed -i '/^output/,/^}/d' "$ex.jnt"
    if "$J" run "$ex.jnt" --vtk "s_$ex" -o "s_$ex.csv" > "s_$ex.log" 2>&1; then
        check bodies "$ex" "s_$ex" "s_$ex.csv" "${m#*:}"
    else
        fail "$ex (states): jnt run --vtk failed"; grep error "s_$ex.log" | head -3
    fi
done
# the car pendulum's sheet against the CSV's reduced coordinates (the run above)
check sheet car_pendulum s_car_pendulum s_car_pendulum.csv
# its contact forces against the CSV's fc and nc: 20 ms, the sheets pressed
short car_pendulum 20ms
if "$J" run car_pendulum.jnt --vtk c_car_pendulum -o c_car_pendulum.csv > c.log 2>&1; then
    check contacts car_pendulum c_car_pendulum c_car_pendulum.csv 480
    # the point mass's marker pend.pm (a node marker, set `load`) at its deformed node
    check nodemarker car_pendulum c_car_pendulum c_car_pendulum.csv car_pendulum_basis_sheet.vtu \
        mesh_sheet car_pendulum/nodes.csv load 1 y_pm
else
    fail "car_pendulum (contacts): jnt run --vtk failed"; grep error c.log | head -3
fi
# contacts between markers, clearance joints: the mechanism's race (energy-consistent,
# with its two race frictions) over 6 ms, its pin striking from 3.2 ms (a row every 0.1
# ms), against the CSV's gap, fn, ft, v; the rotor's journal T (a flexible body's node
# marker) against the CSV's ty, tz and its friction's slip rate vs
short mechanism_clearance 6ms
sed -i 's|^output "mechanism_clearance.csv" every 0 s|output "mechanism_clearance.csv" every 0.1 ms|' \
    mechanism_clearance.jnt
if "$J" run mechanism_clearance.jnt --vtk k_mech -o k_mech.csv > k.log 2>&1; then
    check mcontacts mechanism_clearance k_mech k_mech.csv gap,fn,ft,v -,-,- seeing.mech_race
    # its race's bearing axis (its frictions' `axis`, fixed in the slider) and contact
    # point on the outer race (rho_k = 50 mm)
    check races mechanism_clearance k_mech - - - 0.05 -
else
    fail "mechanism_clearance (contacts): jnt run --vtk failed"; grep error k.log | head -3
fi
if "$J" run rotor_clearance.jnt --vtk k_rotor -o k_rotor.csv > kr.log 2>&1; then
    check mcontacts rotor_clearance k_rotor k_rotor.csv -,fn,ft,vs -,ty,tz
    # the cylinder clearance's axis x and its contact point on the bearing (rho_k = 80.8 mm,
    # centred at (6, 0, 0) m) from the CSV's ty, tz; the revolute joint R's axis x
    check races rotor_clearance k_rotor k_rotor.csv ty,tz 6,0,0 0.0808 1,0,0
    check axes rotor_clearance k_rotor "0:1,0,0"
else
    fail "rotor_clearance (contacts): jnt run --vtk failed"; grep error kr.log | head -3
fi
# an array of contacts between markers (tests/vtk/pins.jnt: three pins in holes of i mm
# at (i * 50 mm, 0), each with its friction of radii (r_pin, r_pin + i mm), r_pin set by
# -D): each instance its own point, against its CSV columns at each of the 301 frames
if "$J" run "$ROOT/tests/vtk/pins.jnt" -D r_pin=5mm --vtk k_pins -o k_pins.csv > kp.log 2>&1; then
    check every k_pins k_pins.csv pins
    check minstances pins k_pins k_pins.csv 3 0.005 0.05
else
    fail "pins (contact arrays): jnt run --vtk failed"; grep error kp.log | head -3
fi
# a friction on the contact it shares its ends with, when both end at points of the ground
# (tests/vtk/two_holes.jnt: the friction's hole declared second)
if "$J" run "$ROOT/tests/vtk/two_holes.jnt" --vtk k_holes -o k_holes.csv > kh.log 2>&1; then
    check mpair two_holes k_holes k_holes.csv
else
    fail "two_holes (friction pairing): jnt run --vtk failed"; grep error kh.log | head -3
fi
# a -D that moves a marker moves the picture: the pendulum's top = (0, L/2) with L = 2 m
# (the default 1 m) is at the rod's point + 1 m along its axis, at the pin (the origin),
# its joint drawn there; its shape box(20 mm, L, 20 mm) is 2 m long
short pendulum 20ms
sed -i 's|rigid2d(mass = m, inertia = J)|rigid2d(mass = m, inertia = J, shape = box(20 mm, L, 20 mm))|' \
    pendulum.jnt
if grep -q "shape = box(20 mm, L" pendulum.jnt &&
   "$J" run pendulum.jnt -D L=2m --vtk d_pend -o d_pend.csv > dp.log 2>&1; then
    check dmarker pendulum d_pend d_pend.csv 1
    check shapes pendulum d_pend "0:1:0.02,2,0.02"
else
    fail "pendulum -D L=2m: jnt run --vtk failed"; grep error dp.log | head -3
fi
# a joint's axis that reads a parameter follows -D: tests/vtk/hinge.jnt's revolute about
# (cos(a), sin(a), 0), a = 30 deg (the default 0)
if "$J" run "$ROOT/tests/vtk/hinge.jnt" -D a=30deg --vtk d_hinge -o d_hinge.csv > dh.log 2>&1; then
    check axes hinge d_hinge "0:0.8660254037844387,0.5,0"
else
    fail "hinge -D a=30deg: jnt run --vtk failed"; grep error dh.log | head -3
fi
# mode shapes: cantilever_modes' analysis beam_modes : modes(of = beam, count = 6)
if "$J" run "$ROOT/examples/cantilever_modes.jnt" --vtk m_cantilever > m.log 2>&1; then
    check modes cantilever_modes m_cantilever beam_modes \
        beam_modes.csv beam_modes_shapes.csv
    # and of its analysis modes : linear(at = 0 s), against those
    check linear cantilever_modes m_cantilever modes modes.csv beam_modes
    # the rotor's critical speeds: its beam3d's linear modes (its first 20)
    if "$J" run "$ROOT/examples/rotor_critical_speeds.jnt" --vtk m_rotor > mr.log 2>&1; then
        check linear rotor_critical_speeds m_rotor critical critical.csv -
    else
        fail "rotor_critical_speeds: jnt run --vtk failed"; grep error mr.log | head -3
    fi
else
    fail "cantilever_modes: jnt run --vtk failed"; grep error m.log | head -3
fi
# shapes: the slider-crank's crank a box 100 x 20 x 10 mm, its slider a cylinder
# (radius 15 mm, length 40 mm); the tumbling body (rigid3d) a sphere of 0.2 m
short slider_crank 20ms
sed -i 's|inertia = m \* r^2 / 12)|inertia = m * r^2 / 12, shape = box(r, 20 mm, 10 mm))|;
        s|inertia = 1e-3 kg\*m^2)|inertia = 1e-3 kg*m^2, shape = cylinder(15 mm, 40 mm))|' \
    slider_crank.jnt
short tumbling_body 20ms
sed -i 's|omega = (dw \* w, w, dw \* w))|omega = (dw * w, w, dw * w), shape = sphere(0.2 m))|' \
    tumbling_body.jnt
if "$J" run slider_crank.jnt --vtk sh_sc -o sh_sc.csv > sh.log 2>&1 &&
   "$J" run tumbling_body.jnt --vtk sh_tb -o sh_tb.csv >> sh.log 2>&1; then
    check shapes slider_crank sh_sc "0:1:0.1,0.02,0.01;2:2:0.015,0.04"
    check shapes tumbling_body sh_tb "0:3:0.2"
else
    fail "shapes: jnt run --vtk failed"; grep error sh.log | head -3
fi
# the layout (docs/seeing.md): each frame's .vtm in its folder, none beside the folders; a run
# into the same folder again replaces every file and reads back as the first
if [ -f v_slider_crank/slider_crank_000000/slider_crank_000000.vtm ] &&
   [ -z "$(find v_slider_crank -maxdepth 1 -name '*.vtm')" ]; then
    pass "slider_crank: each frame's .vtm in its own folder (slider_crank_NNNNNN/slider_crank_NNNNNN.vtm)"
else
    fail "slider_crank: the .vtm files are not in the frames' folders"; ls v_slider_crank | head -5
fi
if "$J" run slider_crank.jnt --vtk v_slider_crank -o slider_crank.csv > again.log 2>&1; then
    check every v_slider_crank slider_crank.csv slider_crank
else
    fail "slider_crank: jnt run --vtk into the same folder again failed"; grep error again.log | head -3
fi
# errors: a folder that cannot be made, a built simulator without a scene
"$J" run slider_crank.jnt --vtk /nonexistent/dir > e1.log 2>&1
if [ $? -ne 0 ] && grep -q "cannot create the folder '/nonexistent/dir'" e1.log; then
    pass "--vtk into a folder that cannot be made: a clear error"
else
    fail "--vtk into a folder that cannot be made"; cat e1.log
fi
# ParaView's pvpython runs docs/seeing_render.py under xvfb-run, as make docs
# does (docs/seeing.sh), on the slider-crank's .pvd; the PNG is not blank:
# pixels of the bodies' colour and of the joints' (about 10 s). pvpython is
# python3-paraview's, which the Makefile installs (JNT_NO_PVPYTHON=1: VTK's own
# renderer, for a machine without it)
PV=pvpython
[ -n "$JNT_NO_PVPYTHON" ] && PV=$py
if ! command -v $PV > /dev/null; then
    fail "no pvpython (python3-paraview, which make test installs)"
fi
short slider_crank 0.5s
"$J" run slider_crank.jnt --vtk pv_sc -o pv_sc.csv > pv.log 2>&1
# (xvfb-run -a can lose a race for a display to another server starting:
# up to three tries)
for try in 1 2 3; do
    xvfb-run -a -s "-screen 0 1024x768x24" $PV "$ROOT/docs/seeing_render.py" \
        pv_sc/slider_crank.pvd pv_sc.png 0.3 >> pv.log 2>&1 && break
    sleep 2
done
if [ -s pv_sc.png ]; then
    $py - pv_sc.png "$PV" <<'PY'
import sys, vtk
import numpy as np
from vtk.util.numpy_support import vtk_to_numpy as v2n
r = vtk.vtkPNGReader(); r.SetFileName(sys.argv[1]); r.Update()
im = r.GetOutput(); w, h, _ = im.GetDimensions()
px = v2n(im.GetPointData().GetScalars())[:, :3].astype(int)
ink = px[np.abs(px - 255).sum(axis=1) > 60]
blue = np.sum((ink[:, 2] > ink[:, 0] + 40))
orange = np.sum((ink[:, 0] > ink[:, 2] + 40))
ok = w * h > 0 and len(ink) > 1000 and blue > 500 and orange > 100
print(("PASS: " if ok else "FAIL: ") + sys.argv[2] + " rendered the slider-crank at t = 0.3 s: "
      "%dx%d, %d pixels drawn (%d of the bodies' blue, %d of the joints' orange)"
      % (w, h, len(ink), blue, orange))
PY
else
    fail "$PV did not render the slider-crank's .pvd"; tail -5 pv.log
fi
