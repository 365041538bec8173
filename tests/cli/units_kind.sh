#!/bin/sh
# What a column is beyond its dimension (issue 32 item 4; compiler/sema/units_kind.c,
# jnt_abi_model.out_kinds, ABI 16): angle columns carry rad, energy columns J,
# in the CSV's units line and so in jnt plot's labels; a torque stays N*m, an
# angle scaled to degrees or divided by an angle has no unit. Prints PASS/FAIL.
B=${B:-build}
ROOT=$(pwd)
J=$ROOT/$B/jnt
T=$ROOT/$B/tests/units_kind
rm -rf "$T"
mkdir -p "$T"
cd "$T" || exit 1
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; }
# units COLUMN FILE: the unit of COLUMN in FILE's '# units:' line
units() {
    awk -F, -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i }
        /^# units: / { sub(/^# units: /, ""); split($0, u, ","); print u[k]; exit }' "$2"
}
# the pendulum: its angle in rad, angular velocity in rad/s, energy in J
sed 's/until      = 10 s/until = 20 ms/' "$ROOT/examples/pendulum.jnt" > pendulum.jnt
if "$J" run pendulum.jnt -o p.csv > p.log 2>&1; then
    got="$(units angle p.csv) $(units omega p.csv) $(units fx p.csv) $(units E p.csv)"
    [ "$got" = "rad rad/s N J" ] && pass "pendulum: angle, omega, fx, E in $got" ||
        fail "pendulum: angle, omega, fx, E in '$got' (want rad rad/s N J)"
    JNT_PLOT_SCRIPT=1 "$J" plot p.csv -y angle -o p.svg 2> p.txt
    grep -q '^set ylabel "angle \[rad\]"' p.txt && pass "jnt plot labels the pendulum's angle [rad]" ||
        fail "pendulum's angle label: $(grep ylabel p.txt)"
else
    fail "pendulum: jnt run failed"; tail -3 p.log
fi
# the heavy top's energy (top.kinetic + m g z) in J, Lz in N*m*s; its plot's
# offset axis reads E - OFFSET [J] (docs/cli.md)
sed 's/until *= *[0-9.]* *s/until = 0.2 s/' "$ROOT/examples/heavy_top.jnt" > top.jnt
if "$J" run top.jnt -o top.csv > top.log 2>&1; then
    got="$(units E top.csv) $(units Lz top.csv)"
    [ "$got" = "J N*m*s" ] && pass "heavy top: E, Lz in $got" ||
        fail "heavy top: E, Lz in '$got' (want J N*m*s)"
    JNT_PLOT_SCRIPT=1 "$J" plot top.csv -y E -o top.svg 2> top.txt
    grep -q '^set ylabel "E - [0-9.]* \[J\]"' top.txt &&
        pass "jnt plot labels the heavy top's energy: $(sed -n 's/^set ylabel "\(.*\)".*/\1/p' top.txt)" ||
        fail "heavy top's energy label: $(grep ylabel top.txt)"
else
    fail "heavy top: jnt run failed"; tail -3 top.log
fi
# the rules (compiler/sema/units_kind.c): what makes an angle, an energy, a power
cat > kinds.jnt <<'JNT'
model kinds
param m   = 1 kg
param L   = 1 m
param J   = m * L^2 / 12
param th0 = 170 deg
param g   = 9.81 m/s^2
body rod : rigid2d(mass = m, inertia = J) {
  marker top = (0 m, L / 2)
}
joint pin : revolute(rod.top, (0 m, 0 m))
init pin.angle = th0
integral W = pin.fx * rod.x.v
let Ek = m / 2 * (rod.x.v^2 + rod.y.v^2) + J / 2 * rod.angle.v^2
simulate {
  integrator = hht(h = 1 ms)
  until      = 5 ms
  gravity    = (0 m/s^2, -g)
}
output "k.csv" every 1 ms {
  t, a = rod.angle, a_deg = rod.angle * 180 / pi, th = th0, phi = atan2(rod.y, rod.x),
  w = rod.angle.v, w2 = 2 * rod.angle.v, ratio = rod.angle / th0, E = Ek + m * g * rod.y,
  V = m * g * rod.y, tq = L / 2 * pin.fx, P = pin.fx * rod.x.v, W, x = rod.x, v = rod.x.v,
  Ehalf = Ek / 2
}
JNT
want='s,rad,,rad,rad,rad/s,rad/s,,J,N*m,N*m,W,J,m,m/s,J'
if "$J" run kinds.jnt -o k.csv > k.log 2>&1; then
    got=$(sed -n 's/^# units: //p' k.csv)
    [ "$got" = "$want" ] && pass "kinds: t,a,a_deg,th,phi,w,w2,ratio,E,V,tq,P,W,x,v,Ehalf in $got" ||
        fail "kinds: units '$got', want '$want'"
else
    fail "kinds: jnt run failed"; tail -3 k.log
fi
