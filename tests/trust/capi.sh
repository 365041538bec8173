#!/bin/sh
# Issue 27, finding 9: docs/embedding.md's recipe for linking against the
# build tree works as written. The sh block under "Without installing" is
# read from the page, pointed at $B (build -> $B, the program into $T) and
# run: before, the build directory had libjnt.so without its soname link
# libjnt.so.0, and the program failed to start ("libjnt.so.0: cannot open
# shared object file"). Also: jnt.h compiles clean as C++ and as strict C.
NAME=capi
. tests/trust/lib.sh

doc=docs/embedding.md
awk '/^### Without installing/ { f = 1; next }
     f && /^```sh/ { b = 1; next }
     b && /^```/ { exit }
     b { print }' "$doc" > "$T/recipe.sh"
if grep -q -- '-ljnt' "$T/recipe.sh" && grep -q '^\./embed' "$T/recipe.sh"; then
    pass "$doc has the build-tree recipe (cc ... -ljnt, ./embed)"
else
    fail "$doc: no build-tree recipe under '### Without installing'"; cat "$T/recipe.sh"
fi
# the recipe, against this build: build/ -> $B/, the program in $T
# (a sanitizer build's library needs its runtime: make check-asan sets JNT_CFLAGS)
sed -e "s#-Lbuild#-L$B#; s#/build\"#/$B\"#; s#-o embed#-o $T/embed $JNT_CFLAGS#; s#^\./embed#$T/embed#" \
    "$T/recipe.sh" > "$T/run.sh"
[ -L "$B/libjnt.so.0" ] && [ "$(readlink "$B/libjnt.so.0")" = libjnt.so ] &&
    pass "$B/libjnt.so.0 -> libjnt.so" || fail "$B/libjnt.so.0 is not a link to libjnt.so"
expect 0 "the recipe builds and runs the embed example" sh -e "$T/run.sh"
if grep -q '^ratio = 0.950: u(0.185 s) = 1.1177' "$T/out" &&
        grep -q '^ratio = 0.475: u(0.185 s) = 5.591' "$T/out"; then
    pass "the embedded runs print the page's results"
else
    fail "the embedded runs' output:"; cat "$T/out"
fi
so=$(readelf -d "$T/embed" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(libjnt[^]]*\)\].*/\1/p')
[ "$so" = libjnt.so.0 ] && pass "the program asks for the soname libjnt.so.0" ||
    fail "the program needs '$so'"

# the public header alone, as C++ and as strict C
printf '#include <jnt/jnt.h>\nint main(void) { return jnt_version()[0] == 0; }\n' > "$T/h.cc"
expect 0 "jnt.h compiles with g++ -std=c++11 -Wall -Wextra -pedantic -Werror" \
    g++ -std=c++11 -Wall -Wextra -pedantic -Werror -Iruntime/include -fsyntax-only "$T/h.cc"
cp "$T/h.cc" "$T/h.c"
expect 0 "jnt.h compiles with gcc -std=c99 -Wall -Wextra -pedantic -Werror" \
    gcc -std=c99 -Wall -Wextra -pedantic -Werror -Iruntime/include -fsyntax-only "$T/h.c"

# Issue 29, item 5: a C++ host. examples/embed/embed.c as C++ (g++ -std=c++11
# -pedantic: before, its designated initializer of jnt_run_opts needed C++20
# and -Wextra refused the members it left out), on libjnt.so, run
if g++ -std=c++11 -Wall -Wextra -pedantic -Werror ${JNT_CFLAGS:-} -x c++ examples/embed/embed.c \
        -Iruntime/include -x none -L"$B" -ljnt -Wl,-rpath,"$ROOT/$B" -o "$T/embed_cc" 2> "$T/err"; then
    pass "g++ -std=c++11 -Wall -Wextra -pedantic -Werror builds examples/embed/embed.c"
    expect 0 "the C++ embed runs" "$T/embed_cc" examples/frdyn2_bench.jnt
    grep -q '^ratio = 0.475: u(0.185 s) = 5.591073e-07 m' "$T/out" &&
        pass "the C++ embed prints the page's results" || fail "the C++ embed's output: $(cat "$T/out")"
else
    fail "g++ cannot build examples/embed/embed.c: $(head -3 "$T/err")"
fi
