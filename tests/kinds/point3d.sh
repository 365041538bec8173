#!/bin/sh
# The body kind point3d (compiler/kinds/point3d.c, issue 33's kind added by
# use): a conical pendulum against its analytic circle, a free fall against
# z0 + v0 t - g t^2 / 2, and its errors. Prints PASS/FAIL lines.
B=${B:-build}
ROOT=$(pwd)
J=$ROOT/$B/jnt
T=$ROOT/$B/tests/kinds
rm -rf "$T"
mkdir -p "$T"
cd "$T" || exit 1
pass() { echo "PASS: point3d: $*"; }
fail() { echo "FAIL: point3d: $*"; }
PY=/usr/bin/python3
# the conical pendulum: height, radius and speed kept; after one period T the
# bob is back where it started (T = 2 pi / omega, omega^2 = g / (L cos th))
if "$J" run "$ROOT/tests/kinds/conical.jnt" > conical.log 2>&1; then
    $PY - conical.csv <<'PYEOF'
import csv, math, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if r and not r[0].startswith('#')]
h, data = rows[0], [[float(x) for x in r] for r in rows[1:]]
c = {k: [d[i] for d in data] for i, k in enumerate(h)}
L, k, th, g, m = 1.0, 1000.0, math.radians(30), 9.81, 0.5
r = L + m * g / (k * math.cos(th))
w = math.sqrt(g / (r * math.cos(th)))
def check(ok, what):
    print(("PASS" if ok else "FAIL") + ": point3d: conical pendulum: " + what)
dz = max(abs(z + r * math.cos(th)) for z in c['z'])
check(dz < 1e-6, "height -r cos th kept to %.1e m (the analytic circle, r = L + m g / (k cos th); tol 1e-6 m)" % dz)
dl = max(abs(x - r) for x in c['len'])
check(dl < 1e-6, "spring length r = %.6f m kept to %.1e m (tol 1e-6 m)" % (r, dl))
E = c['E']; dE = max(abs(e - E[0]) for e in E)
check(dE < 1e-6 * abs(E[0]), "energy kept to %.1e J (midpoint rule, relative 1e-6)" % dE)
S = c['S'][len(c['S']) // 2]
check(abs(abs(S) - m * g / math.cos(th)) < 1e-4, "spring tension m g / cos th = %.6f N (%.6f)" % (m * g / math.cos(th), abs(S)))
# phase: the azimuth advances at w
t = c['t']; n = len(t) - 1
phi = math.atan2(c['y'][n], c['x'][n]) % (2 * math.pi)
want = (w * t[n]) % (2 * math.pi)
err = min(abs(phi - want), 2 * math.pi - abs(phi - want))
check(err < 1e-5, "azimuth at t = %.4f s %.6f rad against w t = %.6f (tol 1e-5 rad)" % (t[n], phi, want))
PYEOF
else
    fail "the conical pendulum did not run: $(tail -3 conical.log)"
fi
# free fall: z = z0 + v0 t - g t^2 / 2, x = vx t; the midpoint rule is exact
# on a constant force
if "$J" run "$ROOT/tests/kinds/drop.jnt" > drop.log 2>&1; then
    $PY - drop.csv <<'PYEOF'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if r and not r[0].startswith('#')]
d = [[float(x) for x in r] for r in rows[1:]]
ez = max(abs(z - (10 + 3 * t - 9.81 * t * t / 2)) for t, x, z, E in d)
ex = max(abs(x - t) for t, x, z, E in d)
dE = max(abs(E - d[0][3]) for t, x, z, E in d)
ok = ez < 1e-9 and ex < 1e-12 and dE < 1e-9
print(("PASS" if ok else "FAIL") + ": point3d: free fall z0 + v0 t - g t^2/2 to %.1e m, x = vx t to %.1e m, energy to %.1e J" % (ez, ex, dE))
PYEOF
else
    fail "the free fall did not run: $(tail -3 drop.log)"
fi
# errors: a point has no orientation; its mass is required
err() { # NAME 'model text' 'expected message part'
    printf '%s\n' "$2" > "$1.jnt"
    if "$J" check "$1.jnt" > "$1.log" 2>&1; then
        fail "$1: accepted"
    elif grep -q "$3" "$1.log"; then
        pass "$1: $(grep -o "error: .*" "$1.log" | head -1)"
    else
        fail "$1: $(cat "$1.log" | head -3)"
    fi
}
err revolute 'model r
body p : point3d(mass = 1 kg) {}
joint j : revolute(p.centre, (0 m, 0 m, 0 m), axis = (0, 0, 1))
simulate { integrator = midpoint(h = 1 ms)
  until = 1 s }' "a revolute joint holds the orientation of its bodies, but 'p.centre' is on a body that has none"
err nomass 'model n
body p : point3d() {}
simulate { integrator = midpoint(h = 1 ms)
  until = 1 s }' "point3d body 'p' needs its mass"
err negmass 'model n
body p : point3d(mass = -1 kg) {}
simulate { integrator = midpoint(h = 1 ms)
  until = 1 s }' "the mass must be positive and finite, got -1 kg"
err dof 'model d
body p : point3d(mass = 1 kg) { dof q }
simulate { integrator = midpoint(h = 1 ms)
  until = 1 s }' "a point3d body has the coordinates x, y, z and the marker 'centre'"
