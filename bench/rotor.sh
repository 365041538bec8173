# bench/rotor.sh: section 13 of `make bench`, sourced by bench/run.sh (uses
# its B, OUT, RAW, RES, N, STAT and helpers). Alone:
#   B=build sh bench/rotor.sh      (runs bench/run.sh with BENCH_SECTIONS=13)
#
# Spatial rotors (issue 14).
# 1. A rigid shaft on an ideal revolute joint along its axis, spun up for
#    0.9 s by seed 001 E2's torque Q(t) = Q0 (1 - cos 2 pi t) (the model of
#    test_spatial.c's spin check): jnt's midpoint rule on the director
#    coordinates (12 coordinates, 5 joint rows, 6 director rows, h = 0.1 ms)
#    beside MuJoCo 2.2.2 (Debian's libmujoco-dev: the peer the issue names, a
#    multibody engine in minimal coordinates, here one hinge angle), RK4 and
#    Euler at the same step; cost per step and the speed's error against the
#    closed form Q0/J (t - sin(2 pi t)/(2 pi)). MuJoCo holds the torque over
#    a step, an O(h) error whatever its integrator.
# 2. The rigid rotor bouncing in a spherical clearance joint (test_spatial.c's
#    check 4 model, 1 s), energy-consistent contact: fixed steps of 20 us
#    against seed 001's contact step control (contact_steps, eps_p = 3 um,
#    qbar_min = 5, alpha = 1.2; at most 1 ms): steps, rejected, CPU and the
#    largest relative energy error over the step ends (a row each: rows
#    between step ends are interpolated, and their energy is not the scheme's).
# 3. Seed 001 E2, examples/rotor_clearance.jnt (the flexible shaft in its
#    cylinder clearance bearing with LuGre friction) to 1.2 s, through the
#    zone and 0.4 s into the dry whip: the report's contact and friction step
#    control (h <= 0.1 ms) against fixed steps of 0.1 ms and 20 us without
#    it; steps, rejected, CPU, and the mid-span whirl at the end.
# The STAT of N runs each, taking turns; CPU from --stats (jnt) and clock()
# around the stepping loop (MuJoCo).
# shellcheck disable=SC2154
if ! command -v agg >/dev/null 2>&1; then
    BENCH_SECTIONS=13 exec sh bench/run.sh
fi
RT_DIR=$OUT/rotor
mkdir -p "$RT_DIR"
RT_Q0=0.825 RT_J=0.02
cat > "$RT_DIR/spin.jnt" <<JNT
model spin
param J = $RT_J kg*m^2
param Q0 = $RT_Q0 N*m
body shaft : rigid3d(mass = 5 kg, inertia = (J, 1 kg*m^2, 1 kg*m^2)) { marker c = (0 m, 0 m, 0 m) }
joint hinge : revolute(shaft.c, (0 m, 0 m, 0 m), axis = (1, 0, 0))
force Q on hinge = Q0 * (1 - cos(2 * pi * t / 1 s))
simulate {
  integrator = midpoint(h = 0.1 ms)
  until = 0.9 s
}
output "spin.csv" every 0.9 s { t, w = hinge.speed }
JNT
for integ in RK4 Euler; do
    cat > "$RT_DIR/spin_$integ.xml" <<XML
<mujoco model="rotor">
  <option timestep="0.0001" integrator="$integ" gravity="0 0 0"/>
  <worldbody>
    <body name="shaft">
      <joint name="hinge" type="hinge" axis="1 0 0"/>
      <inertial pos="0 0 0" mass="5" diaginertia="$RT_J 1 1"/>
    </body>
  </worldbody>
  <actuator><motor joint="hinge" gear="1"/></actuator>
</mujoco>
XML
done
have_mujoco=0
if $CCB -o "$RT_DIR/peer_mujoco" bench/peer_rotor_mujoco.c -lmujoco -lm 2>> "$RAW"; then
    have_mujoco=1
fi
# the clearance rotor, fixed steps (k = 1) and step control (k = 2)
rt_rotor() {
    cat <<JNT
model rotor_clearance
import contact
param m = 10 kg
param k = 15 MN/m
body shaft : rigid3d(mass = m, inertia = (0.05 kg*m^2, 1 kg*m^2, 1 kg*m^2),
                     omega = (5 / 1 s, 0 / 1 s, 2 / 1 s)) {
  marker root = (-0.5 m, 0 m, 0 m)
  marker journal = (0.5 m, 0 m, 0 m)
}
joint pivot : spherical(shaft.root, (0 m, 0 m, 0 m))
contact bearing between shaft.journal and (1 m, 0 m, 0 m) {
  law = linear_spring(k = k)
  gap0 = 0.5 mm
  form = energy_consistent
  $2
}
init shaft.x = 0.5 m
init shaft.y.v = 1 m/s
simulate {
  integrator = midpoint(h = $1)
  until = 1 s
  gravity = (0 m/s^2, 0 m/s^2, -9.81 m/s^2)
}
output "rotor.csv" every 0 s {
  t,
  E = shaft.kinetic + m * 9.81 m/s^2 * shaft.z
      + 0.5 * k * min(0.5 mm - sqrt((shaft.journal.x - 1 m)^2 + shaft.journal.y^2
                                    + shaft.journal.z^2), 0 m)^2
}
JNT
}
rt_rotor "20 us" "" > "$RT_DIR/clear_1.jnt"
rt_rotor "1 ms" "steps = contact_steps(eps_p = 3 um, qbar_min = 5, alpha = 1.2)" > "$RT_DIR/clear_2.jnt"
# E2 without step control: the example with its steps lines dropped
sed -e 's/until *= *3 s/until = 1.2 s/' -e 's/^const beta_s = 1e-3 s/const beta_s = 0 s/' examples/rotor_clearance.jnt > "$RT_DIR/e2_ctrl.jnt"  # undamped: the whip
grep -v 'steps *= *\(contact\|friction\)_steps' "$RT_DIR/e2_ctrl.jnt" > "$RT_DIR/e2_fixed.jnt"
for f in spin clear_1 clear_2 mj_RK4 mj_Euler e2_ctrl e2_f100 e2_f20; do : > "$RT_DIR/$f.cpu"; done
i=0
while [ $i -lt "$N" ]; do
    for f in spin clear_1 clear_2; do
        st=$("$B/jnt" run "$RT_DIR/$f.jnt" -o "$RT_DIR/$f.csv" --stats 2>&1 | tail -n 1)
        log "rotor $f: $st"
        printf '%s\n' "$st" | sed -n 's/.*cpu \([0-9.e+-]*\) s.*/\1/p' >> "$RT_DIR/$f.cpu"
        printf '%s\n' "$st" > "$RT_DIR/$f.stats"
    done
    for f in ctrl:e2_ctrl:0.1ms f100:e2_fixed:0.1ms f20:e2_fixed:20us; do
        k=${f%%:*} m=${f#*:} hh=${m#*:} m=${m%%:*}
        st=$("$B/jnt" run "$RT_DIR/$m.jnt" -D h="$hh" -o "$RT_DIR/e2_$k.csv" --stats 2>&1 | tail -n 1)
        log "rotor E2 $k: $st"
        printf '%s\n' "$st" | sed -n 's/.*cpu \([0-9.e+-]*\) s.*/\1/p' >> "$RT_DIR/e2_$k.cpu"
        printf '%s\n' "$st" > "$RT_DIR/e2_$k.stats"
    done
    for integ in RK4 Euler; do
        [ $have_mujoco = 1 ] || break
        st=$("$RT_DIR/peer_mujoco" "$RT_DIR/spin_$integ.xml" 0.9 "$RT_Q0" "$RT_J" 2>&1)
        log "rotor mujoco $integ: $st"
        printf '%s\n' "$st" | sed -n 's/.*cpu \([0-9.e+-]*\) .*/\1/p' >> "$RT_DIR/mj_$integ.cpu"
        printf '%s\n' "$st" > "$RT_DIR/mj_$integ.stats"
    done
    i=$((i + 1))
done
rt_field() { sed -n "s/.*$2 \([0-9.e+-]*\).*/\1/p" "$RT_DIR/$1.stats" | head -n 1; }
rt_steps() { sed -n 's/^steps \([0-9]*\).*/\1/p' "$RT_DIR/$1.stats"; }
rt_perstep() { awk -v c="$1" -v s="$2" 'BEGIN { if (s > 0) printf "%.3g", c / s * 1e6; else printf "n/a" }'; }
rt_werr() { # |w - closed form| at the last row of spin.csv
    awk -F, -v q="$RT_Q0" -v j="$RT_J" 'NR > 1 && !/^#/ { t = $1; w = $2 }
        END { pi = 3.14159265358979323846; e = w - q / j * (t - sin(2 * pi * t) / (2 * pi))
              if (e < 0) e = -e; printf "%.2g", e }' "$RT_DIR/spin.csv"
}
rt_edrift() { # the largest |E - E0| / E0 over the rows
    awk -F, '/^#/ { next } e0 == "" && NR > 1 { e0 = $2 } NR > 1 { d = ($2 - e0) / e0; if (d < 0) d = -d; if (d > m) m = d }
             END { printf "%.2g", m }' "$RT_DIR/$1.csv"
}
{
echo
echo "## 13. Spatial rotors: rigid run-up against MuJoCo 2.2.2; clearance rotor with step control"
echo
sp_cpu=$(agg < "$RT_DIR/spin.cpu") sp_steps=$(rt_steps spin)
sp_us=$(rt_perstep "$sp_cpu" "$sp_steps")
echo "| run-up, 0.9 s, h = 0.1 ms | coordinates | steps | CPU (s) | us a step | a step relative to jnt | speed error (rad/s) |"
echo "|---|---|---:|---:|---:|---:|---:|"
echo "| jnt, midpoint, directors | 12 + 11 multipliers | $sp_steps | $sp_cpu | $sp_us | 1 | $(rt_werr) |"
for integ in RK4 Euler; do
    if [ $have_mujoco = 1 ]; then
        c=$(agg < "$RT_DIR/mj_$integ.cpu") s=$(sed -n 's/^steps \([0-9]*\).*/\1/p' "$RT_DIR/mj_$integ.stats")
        e=$(sed -n 's/.* err \([0-9.e+-]*\).*/\1/p' "$RT_DIR/mj_$integ.stats" | tr -d -)
        u=$(rt_perstep "$c" "$s")
        echo "| MuJoCo 2.2.2, $integ, hinge | 1 | $s | $c | $u | $(ratio "$u" "$sp_us") | $e |"
    else
        echo "| MuJoCo 2.2.2, $integ | n/a: libmujoco-dev missing (make deps-bench) | | | | | |"
    fi
done
echo
echo "| clearance rotor, 1 s | steps | rejected | CPU (s) | CPU relative to fixed steps | energy error (relative) |"
echo "|---|---:|---:|---:|---:|---:|"
c1=$(agg < "$RT_DIR/clear_1.cpu")
for k in 1 2; do
    c=$(agg < "$RT_DIR/clear_$k.cpu")
    lab=$([ $k = 1 ] && echo "fixed h = 20 us" || echo "contact step control (eps_p = 3 um), h <= 1 ms")
    echo "| $lab | $(rt_steps clear_$k) | $(rt_field clear_$k rejected) | $c | $(ratio "$c" "$c1") | $(rt_edrift clear_$k) |"
done
echo
echo "| seed 001 E2 (examples/rotor_clearance.jnt), 1.2 s | steps | rejected | CPU (s) | CPU relative to step control | mid-span whirl at 1.2 s (mm) |"
echo "|---|---:|---:|---:|---:|---:|"
c0=$(agg < "$RT_DIR/e2_ctrl.cpu")
for k in ctrl f100 f20; do
    c=$(agg < "$RT_DIR/e2_$k.cpu")
    lab=$(case $k in ctrl) echo "contact and friction step control, h <= 0.1 ms";;
          f100) echo "fixed h = 0.1 ms";; *) echo "fixed h = 20 us";; esac)
    r=$(awk -F, 'END { printf "%.3f", 1e3 * sqrt($3 * $3 + $4 * $4) }' "$RT_DIR/e2_$k.csv")
    echo "| $lab | $(rt_steps e2_$k) | $(rt_field e2_$k rejected) | $c | $(ratio "$c" "$c0") | $r |"
done
echo
echo "The $STAT_NAME of $N runs each, taking turns (jnt: --stats CPU of the run; MuJoCo: clock()"
echo "around its stepping loop)."
} >> "$RES"
