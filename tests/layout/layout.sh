#!/bin/sh
# The architecture as tests (docs/architecture.md, "The parts and what each
# may include"):
#  1. the compiler builds with only the public headers (runtime/include:
#     jnt.h, abi.h, setup.h) and its own; the command line and the embedding
#     example with only the public headers;
#  2. no circle of calls across folders: the folders of runtime/ and
#     compiler/ call each other one way (found from the objects' symbols);
#  3. within a folder, files call each other in a circle only inside one of
#     the modules the architecture page names (MODULES below);
#  4. the compiler's folders include one way (front < lower < sema < kinds <
#     jit < cli: a folder includes only the folders below it), the sema core
#     (compiler/sema/) references no symbol of a kind (compiler/kinds/), and a
#     kind (a file of compiler/kinds/, or one of its sub-folders) none of another
#     kind's: the core reaches the kinds through their tables, handed to it from
#     above (kinds/registry.c, the one file that names them all);
#  5. a kind sees the core's interface (sema/core.h), not sema's state: no file
#     under compiler/kinds/ (KINDS, for the selftest) includes sema/passes.h or
#     sema/state.h, so struct sema is incomplete there;
#  6. no compiler source file is over 700 lines (issue 33).
# OBJ (default $B/obj) may point at other objects: tests/layout/selftest.sh
# runs these checks on objects made to break them.
# Run from the repository root with B set to the build directory.
B=${B:-build}
pass() { echo "PASS: layout: $*"; }
fail() { echo "FAIL: layout: $*"; }
CC="gcc -std=c11 -D_POSIX_C_SOURCE=200809L -DJNT_SOURCE_DIR=\"x\" -DJNT_LINK_LIBS=\"-lm\" -fsyntax-only"

# 1. include paths
bad=""
for f in compiler/front/*.c compiler/lower/*.c compiler/sema/*.c compiler/kinds/*.c \
    compiler/kinds/*/*.c compiler/jit/*.c; do
    $CC -Iruntime/include -Icompiler -I"$B/gen" "$f" 2> /dev/null || bad="$bad $f"
done
if [ -z "$bad" ]; then pass "compiler/*/*.c build with -Iruntime/include -Icompiler only"
else fail "compiler files need more than the public headers:$bad"; fi
bad=""
for f in compiler/cli/*.c examples/embed/*.c; do
    $CC -Iruntime/include "$f" 2> /dev/null || bad="$bad $f"
done
if [ -z "$bad" ]; then pass "the command line and examples/embed build with -Iruntime/include only"
else fail "clients of the public API need more than it:$bad"; fi
if grep -l '#include "\(core\|setup\|io\|couple\|integrate\|analyse\|linalg\|sim\)/' compiler/*/*.c compiler/*/*.h \
    compiler/cli/*.c > /dev/null 2>&1; then
    fail "the compiler includes the runtime's insides"
else
    pass "no compiler file names a runtime folder"
fi

# 4a. includes between the compiler's folders: only downwards
bad=""
rank() { case $1 in front) echo 1;; lower) echo 2;; sema) echo 3;; kinds) echo 4;; jit) echo 5;; cli) echo 6;; *) echo 0;; esac; }
for f in compiler/*/*.c compiler/*/*.h compiler/kinds/*/*.c compiler/kinds/*/*.h; do
    [ -f "$f" ] || continue
    d=${f#compiler/}; d=${d%%/*}; r=$(rank "$d")
    for g in $(sed -n 's@^#include "\(front\|lower\|sema\|kinds\|jit\|cli\)/.*@\1@p' "$f"); do
        [ "$g" = "$d" ] && continue
        [ "$(rank "$g")" -lt "$r" ] || bad="$bad $f->$g"
    done
done
if [ -z "$bad" ]; then pass "the compiler's folders include only the folders below them"
else fail "a compiler folder includes one above it:$bad"; fi

# 5. a kind sees sema's interface, not its state
bad=$(grep -rl '#include "\(sema/\)\?\(passes\|state\)\.h"' "${KINDS:-compiler/kinds}" 2> /dev/null | tr '\n' ' ')
if [ -z "$bad" ]; then pass "no kind includes sema's state (sema/passes.h, state.h)"
else fail "a kind includes sema's state: $bad"; fi

# 6. small files
big=$(wc -l compiler/*/*.c compiler/*/*.h compiler/kinds/*/*.c compiler/kinds/*/*.h 2> /dev/null |
      awk '$2 != "total" && $1 > 700 { printf "%s (%d) ", $2, $1 }')
if [ -z "$big" ]; then pass "no compiler file is over 700 lines"
else fail "compiler files over 700 lines: $big"; fi

# 2., 3. and 4b. calls between files and folders, from the objects' symbols
OBJ=${OBJ:-$B/obj}
if ! ls "$OBJ"/runtime/*/*.o > /dev/null 2>&1; then
    fail "no objects in $OBJ (build first)"
    exit 0
fi
# files of one module may call each other in a circle
MODULES="setup/fe_ setup/red_ couple/slide integrate/integ_ compiler/sema/ compiler/front/parse"
T=${TMPDIR:-/tmp}/jnt-layout.$$
trap 'rm -f "$T".*' EXIT
for o in "$OBJ"/runtime/*/*.o "$OBJ"/compiler/*/*.o "$OBJ"/compiler/*/*/*.o; do
    n=${o#"$OBJ"/}; n=${n#runtime/}; n=${n%.o}
    # compiler/cli/lazy.c defines the numerical libraries' functions for the jnt
    # executables (loading them on first use): a call to it is a call to them
    [ "$n" = compiler/cli/lazy ] && continue
    nm -g --defined-only "$o" | awk -v n="$n" 'NF == 3 && $2 ~ /[TDBRC]/ { print "D", $3, n }'
    nm -u "$o" | awk -v n="$n" '{ print "U", $2, n }'
done > "$T.sym"
awk -v modules="$MODULES" '
    $1 == "D" { def[$2] = $3; node[$3] = 1; next }
    { use[++nu] = $2; user[nu] = $3; node[$3] = 1 }
    function folder(f) { sub(/\/[^\/]*$/, "", f); return f }
    function module(f,   i, k, m) {
        k = split(modules, m, " ")
        for (i = 1; i <= k; i++) if (index(f, m[i]) == 1) return m[i]
        return f
    }
    END {
        for (i = 1; i <= nu; i++) {
            s = use[i]
            if (!(s in def) || def[s] == user[i]) continue
            e[user[i], def[s]] = 1
            a = folder(user[i]); b = folder(def[s])
            if (a != b) fe[a, b] = 1
            fo[a] = 1; fo[b] = 1
        }
        n = 0; for (x in node) v[++n] = x
        for (k = 1; k <= n; k++) for (i = 1; i <= n; i++) if ((v[i], v[k]) in e)
            for (j = 1; j <= n; j++) if ((v[k], v[j]) in e) e[v[i], v[j]] = 1
        m = 0; for (x in fo) w[++m] = x
        for (k = 1; k <= m; k++) for (i = 1; i <= m; i++) if ((w[i], w[k]) in fe)
            for (j = 1; j <= m; j++) if ((w[k], w[j]) in fe) fe[w[i], w[j]] = 1
        bad = 0
        for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++)
            if ((w[i], w[j]) in fe && (w[j], w[i]) in fe) {
                print "FAIL: layout: folders " w[i] " and " w[j] " call each other"; bad = 1
            }
        if (!bad) print "PASS: layout: the " m " folders call each other one way"
        bad = 0
        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
            if ((v[i], v[j]) in e && (v[j], v[i]) in e && module(v[i]) != module(v[j])) {
                print "FAIL: layout: " v[i] " and " v[j] " call each other (not one module)"; bad = 1
            }
        if (!bad) print "PASS: layout: the " n " files call in circles only within a module"
        # the compiler kinds: the core calls none, a kind calls no other
        bad = 0; nk = 0
        for (i = 1; i <= nu; i++) {
            s = use[i]
            if (!(s in def)) continue
            a = user[i]; b = def[s]
            if (index(b, "compiler/kinds/") != 1) continue
            if (index(a, "compiler/sema/") == 1) {
                print "FAIL: layout: the sema core " a " calls the kind " b " (" s ")"; bad = 1
            } else if (index(a, "compiler/kinds/") == 1 && a != "compiler/kinds/registry" &&
                       kind(a) != kind(b)) {
                print "FAIL: layout: the kind " kind(a) " calls the kind " kind(b) " (" s ")"; bad = 1
            }
        }
        for (x in node) if (index(x, "compiler/kinds/") == 1 && x != "compiler/kinds/registry") { kk[kind(x)] = 1 }
        for (x in kk) nk++
        if (!bad) print "PASS: layout: the sema core calls no kind, and none of the " nk " kinds another"
    }
    function kind(f) { sub(/^compiler\/kinds\//, "", f); sub(/\/.*$/, "", f); return f }' "$T.sym"
