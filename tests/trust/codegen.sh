#!/bin/sh
# Issue 27, finding 1: nothing from a name reaches generated C unescaped.
# A model in a folder whose name closes the opening comment and defines a
# constructor: the emitted C must compile to a simulator that does not run
# it (it printed PWNED before the one escaper, ex_put_cstr).
NAME=codegen
. tests/trust/lib.sh

evil="$T/x*/
__attribute__((constructor)) static void pwn(void){ __builtin_puts(\"PWNED\"); }
/*"
mkdir -p "$evil"
small_model "$evil/m.jnt"
cd "$T"
expect 0 "a model in a folder named like C code: jnt build" "$J" build "$evil/m.jnt" -o "$T/sim"
expect 0 "the built simulator runs" "$T/sim" -o "$T/o.csv"
if grep -q PWNED "$T/out"; then fail "the folder's name ran as code in the simulator"; else pass "the folder's name did not run as code (jnt build)"; fi
expect 0 "the same model under jnt run (tcc)" "$J" run "$evil/m.jnt" -o "$T/o2.csv"
if grep -q PWNED "$T/out"; then fail "the folder's name ran as code under tcc"; else pass "the folder's name did not run as code (jnt run)"; fi
# a folder 'c*/omment/' broke the build ("generated C does not compile")
mkdir -p "$T/c*/omment"
small_model "$T/c*/omment/m.jnt"
expect 0 "a model under 'c*/omment/' builds" "$J" build "$T/c*/omment/m.jnt" -o "$T/sim2"
# names with quotes, backslashes, '??/' and newlines in the path, as a string
# literal in a comment and in #line
odd="$T/q\"b\\\\t??/n
l*"
mkdir -p "$odd"
small_model "$odd/m.jnt"
expect 0 "a path with quotes, backslashes, a trigraph and a newline: jnt run" "$J" run "$odd/m.jnt" -o "$T/o3.csv"
expect 0 "the same path: the emitted C compiles with gcc -std=c11 -Werror" sh -c \
    "'$J' emit '$odd/m.jnt' | gcc -std=c11 -Wall -Werror -fsyntax-only -I'$ROOT/runtime/include' -x c -"
