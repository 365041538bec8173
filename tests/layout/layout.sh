#!/bin/sh
# The architecture as tests (docs/architecture.md, "The parts and what each
# may include"):
#  1. the compiler builds with only the public headers (runtime/include:
#     jnt.h, abi.h, setup.h) and its own; the command line and the embedding
#     example with only the public headers;
#  2. no circle of calls across folders: the folders of runtime/ and
#     compiler/ call each other one way (found from the objects' symbols);
#  3. within a folder, files call each other in a circle only inside one of
#     the modules the architecture page names (MODULES below).
# Run from the repository root with B set to the build directory.
B=${B:-build}
pass() { echo "PASS: layout: $*"; }
fail() { echo "FAIL: layout: $*"; }
CC="gcc -std=c11 -D_POSIX_C_SOURCE=200809L -DJNT_SOURCE_DIR=\"x\" -DJNT_LINK_LIBS=\"-lm\" -fsyntax-only"

# 1. include paths
bad=""
for f in compiler/front/*.c compiler/lower/*.c compiler/sema/*.c compiler/kinds/*.c compiler/jit/*.c; do
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

# 2. and 3. calls between files and folders, from the objects' symbols
OBJ=$B/obj
if ! ls "$OBJ"/runtime/*/*.o > /dev/null 2>&1; then
    fail "no objects in $OBJ (build first)"
    exit 0
fi
# files of one module may call each other in a circle
MODULES="setup/fe_ setup/red_ couple/slide integrate/integ_ compiler/sema/ compiler/front/parse"
T=${TMPDIR:-/tmp}/jnt-layout.$$
trap 'rm -f "$T".*' EXIT
for o in "$OBJ"/runtime/*/*.o "$OBJ"/compiler/*/*.o; do
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
    }' "$T.sym"
