#!/bin/sh
# Issue 29 item 4: the compile cache from the command line (docs/cli.md,
# "Compile cache"; the library's side is tests/unit/test_cache.c). In a
# scratch XDG_CACHE_HOME: `jnt emit` twice writes one entry and the hit's C is
# the C of JNT_CACHE=0 byte for byte; a hit prints the translation's warning
# again; `jnt run -D` on a hit gives the rows of JNT_CACHE=0 (-D is not in the
# key); a changed model is translated anew (its new C); JNT_CACHE=0 writes
# nothing; without XDG_CACHE_HOME the cache is $HOME/.cache/jnt; a garbage
# entry is refused and replaced; a model with errors is never stored.
# shellcheck disable=SC2015
NAME=cache
. tests/trust/lib.sh

X=$T/xdg
cd "$T" || exit 1
small_model m.jnt
# a file written since a compile began is not stored (it may have changed while read)
touch -d '1 minute ago' m.jnt
entries() { find "$1" -name '*.jntc' 2>/dev/null | wc -l; }

expect 0 "jnt emit: a miss" env XDG_CACHE_HOME="$X" "$J" emit m.jnt -o miss.c
[ "$(entries "$X/jnt")" -eq 1 ] && pass "one entry under \$XDG_CACHE_HOME/jnt" ||
    fail "entries under $X/jnt: $(entries "$X/jnt")"
expect 0 "jnt emit: a hit" env XDG_CACHE_HOME="$X" "$J" emit m.jnt -o hit.c
expect 0 "jnt emit with JNT_CACHE=0" env JNT_CACHE=0 XDG_CACHE_HOME="$X" "$J" emit m.jnt -o off.c
cmp -s hit.c off.c && cmp -s miss.c off.c && pass "the hit's C is JNT_CACHE=0's, byte for byte" ||
    fail "the C of the miss, the hit and JNT_CACHE=0 differ"
[ "$(entries "$X/jnt")" -eq 1 ] && pass "still one entry" || fail "entries: $(entries "$X/jnt")"

# -D is not in the key: the hit's rows with -D are those of a whole compile
expect 0 "jnt run -D mass=2 on a hit" env XDG_CACHE_HOME="$X" "$J" run m.jnt -D mass=2 -o hit.csv
expect 0 "jnt run -D mass=2 with JNT_CACHE=0" env JNT_CACHE=0 "$J" run m.jnt -D mass=2 -o off.csv
cmp -s hit.csv off.csv && pass "the same rows, byte for byte" || fail "the rows differ"

# warnings come back on a hit (the lap joint's jtv count)
expect 0 "a model with a warning: a miss" env XDG_CACHE_HOME="$X" "$J" emit "$ROOT/examples/lap_joint.jnt" -o w1.c
cp err w1.err
expect 0 "the same model: a hit" env XDG_CACHE_HOME="$X" "$J" emit "$ROOT/examples/lap_joint.jnt" -o w2.c
if grep -q 'warning: jtv gives' w1.err && cmp -s w1.err err && cmp -s w1.c w2.c; then
    pass "the hit prints the miss's warning, the same C"
else fail "diagnostics of the miss and the hit differ (or none): $(head -1 w1.err) / $(head -1 err)"; fi

# a changed model is translated anew
sed 's/stiffness = 1 N\/m/stiffness = 3 N\/m/' m.jnt > m2.jnt && cat m2.jnt > m.jnt
touch -d '1 minute ago' m.jnt
expect 0 "jnt emit after the model changed" env XDG_CACHE_HOME="$X" "$J" emit m.jnt -o new.c
expect 0 "its C with JNT_CACHE=0" env JNT_CACHE=0 "$J" emit m.jnt -o newoff.c
cmp -s new.c newoff.c && ! cmp -s new.c off.c && pass "the changed model's C, not the entry's" ||
    fail "after the change: the old C, or not JNT_CACHE=0's"

# a garbage entry is refused and written again
for f in "$X"/jnt/*.jntc; do printf 'garbage' > "$f"; done
expect 0 "jnt emit over garbage entries" env XDG_CACHE_HOME="$X" "$J" emit m.jnt -o g.c
cmp -s g.c newoff.c && pass "garbage refused: the C of a whole compile" || fail "garbage entry: other C"
n=0
for f in "$X"/jnt/*.jntc; do [ "$(wc -c < "$f")" -gt 100 ] && n=$((n + 1)); done
[ "$n" -ge 1 ] && pass "the entry is written again" || fail "no entry rewritten"

# off, and the default folder
rm -rf "$X"
expect 0 "JNT_CACHE=0 jnt emit" env JNT_CACHE=0 XDG_CACHE_HOME="$X" "$J" emit m.jnt -o o.c
[ ! -e "$X" ] && pass "JNT_CACHE=0 writes nothing" || fail "JNT_CACHE=0 made $X"
mkdir -p home
expect 0 "jnt emit without XDG_CACHE_HOME" env -u XDG_CACHE_HOME HOME="$T/home" "$J" emit m.jnt -o h.c
[ "$(entries home/.cache/jnt)" -eq 1 ] && pass "the entry is under \$HOME/.cache/jnt" ||
    fail "no entry under $T/home/.cache/jnt"

# a model with errors: never stored
printf 'model bad\nparam p = q\n' > bad.jnt
expect 1 "a model with an error" env XDG_CACHE_HOME="$X" "$J" emit bad.jnt -o bad.c
[ "$(entries "$X/jnt")" -eq 0 ] && pass "nothing stored for it" || fail "an entry for a model with errors"
