#!/bin/sh
# The layout checks can fail (issue 33): tests/layout/layout.sh run on small
# objects made to break each compiler rule must say FAIL for it, and PASS on
# the same objects put right: the sema core calling a kind, a kind calling
# another, two compiler folders calling each other; and a kind that includes
# sema's state must fail. Run from the root.
pass() { echo "PASS: layout selftest: $*"; }
fail() { echo "FAIL: layout selftest: $*"; }
T=$(mktemp -d "${TMPDIR:-/tmp}/jnt-layout-self.XXXXXX")
trap 'rm -rf "$T"' EXIT
# obj NAME 'C source': one object at $T/<case>/obj/NAME.o
obj() {
    mkdir -p "$(dirname "$T/$1.o")"
    printf '%s\n' "$2" > "$T/src.c"
    gcc -c -o "$T/$1.o" "$T/src.c" || exit 1
}
run() { OBJ=$T/$1/obj B=${B:-build} sh tests/layout/layout.sh 2>&1; }
for c in core kind cycle good; do
    obj $c/obj/runtime/core/r 'int r_fn(void) { return 1; }'
done
# the core calls a kind
obj core/obj/compiler/sema/c 'int k_fn(void); int c_fn(void) { return k_fn(); }'
obj core/obj/compiler/kinds/k 'int k_fn(void) { return 2; }'
# a kind calls another
obj kind/obj/compiler/kinds/a 'int b_fn(void); int a_fn(void) { return b_fn(); }'
obj kind/obj/compiler/kinds/b/part 'int b_fn(void) { return 3; }'
# front and sema call each other
obj cycle/obj/compiler/front/f 'int s_fn(void); int f_fn(void) { return 4; } int g_fn(void) { return s_fn(); }'
obj cycle/obj/compiler/sema/s 'int f_fn(void); int s_fn(void) { return f_fn(); }'
# right: the registry names the kinds, the kinds call the core, the core calls front
obj good/obj/compiler/kinds/registry 'int k_fn(void); int a_fn(void); int reg(void) { return k_fn() + a_fn(); }'
obj good/obj/compiler/kinds/k 'int c_fn(void); int k_fn(void) { return c_fn(); }'
obj good/obj/compiler/kinds/a/one 'int c_fn(void); int two(void); int a_fn(void) { return c_fn() + two(); }'
obj good/obj/compiler/kinds/a/two 'int two(void) { return 5; }'
obj good/obj/compiler/sema/c 'int f_fn(void); int c_fn(void) { return f_fn(); }'
obj good/obj/compiler/front/f 'int f_fn(void) { return 6; }'

if run core | grep -q '^FAIL: layout: the sema core compiler/sema/c calls the kind compiler/kinds/k'; then
    pass "a call from the sema core to a kind fails"
else fail "a call from the sema core to a kind passed"; fi
if run kind | grep -q '^FAIL: layout: the kind a calls the kind b'; then
    pass "a call from one kind to another (a kind's folder) fails"
else fail "a call from one kind to another passed"; fi
if run cycle | grep -q '^FAIL: layout: folders compiler/\(front\|sema\) and compiler/\(front\|sema\) call each other'; then
    pass "two compiler folders calling each other fail"
else fail "two compiler folders calling each other passed"; fi
# a kind that includes sema's state
mkdir -p "$T/state/part"
printf '#include "sema/passes.h"\n' > "$T/state/part/k.c"
if KINDS=$T/state B=${B:-build} sh tests/layout/layout.sh 2>&1 | grep -q "^FAIL: layout: a kind includes sema's state: .*part/k.c"; then
    pass "a kind that includes sema's state (sema/passes.h) fails"
else fail "a kind that includes sema's state passed"; fi
out=$(run good)
if printf '%s\n' "$out" | grep -q '^FAIL'; then
    fail "the objects put right fail: $(printf '%s\n' "$out" | grep '^FAIL' | head -3)"
elif printf '%s\n' "$out" | grep -q 'the sema core calls no kind, and none of the 2 kinds another'; then
    pass "the objects put right pass (registry, two kinds, one in a folder)"
else fail "the objects put right: no verdict on the kinds"; fi
