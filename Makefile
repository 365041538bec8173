# jnt: compiler and runtime for the dynamics of jointed structures.
#
#   make             install the build tools if missing, build build/jnt,
#                    build/libjnt.a, build/libjnt.so
#   make install     install jnt, libjnt (.so with soname, .a), headers, jnt.pc,
#                    the stdlib, the man page and the Python package under
#                    PREFIX (default /usr/local; DESTDIR for staging)
#   make python-package  B/python: the Python package with libjnt.so, the
#                    headers and the stdlib inside, for pip install B/python
#   make demo        install what is missing, build, run the main example
#   make test        install what is missing, build, run the whole test suite
#   make mpi         build/jnt-mpi: `jnt sweep` across Open MPI ranks (needs mpicc)
#   make check-asan  the whole test suite under AddressSanitizer + UBSan
#   make check-tsan  two threads compiling and running two models, under ThreadSanitizer
#   make fuzz        the libFuzzer harnesses of fuzz/, FUZZ_SECONDS each (clang),
#                    then GEN_MODELS generated models (tests/gen/)
#   make bench       side-by-side benchmarks (not part of make test)
#   make docs        regenerate the plots of docs/ (docs/img/*.png) with jnt and gnuplot
#
# Missing Debian packages are installed with apt-get (as root, or via sudo).

B        ?= build
SAN      ?=
CC       := gcc
OPT      ?= -O2
CFLAGS   := -std=c11 -Wall -Wextra -Werror $(OPT) -g -fPIC -D_POSIX_C_SOURCE=200809L $(SAN)
# Include paths are the architecture (docs/architecture.md): the runtime sees
# its public headers and its own folders; the compiler sees the public
# headers (jnt.h, abi.h, setup.h) and itself, never the runtime's insides;
# the command line sees the public API only. Unit tests see everything.
DEFS          := -DJNT_SOURCE_DIR='"$(CURDIR)"'
RUNTIME_INC   := -Iruntime/include -Iruntime
COMPILER_INC  := -Iruntime/include -Icompiler -I$(B)/gen
CLI_INC       := -Iruntime/include
TEST_INC      := -Iruntime/include -Iruntime -Icompiler -I$(B)/gen
CPPFLAGS      := $(TEST_INC) $(DEFS)
# The runtime's libraries: also the link line of `jnt build` (compiler/cli/main.c).
RUN_LIBS := -lsundials_cvode -lsundials_ida -lsundials_nvecserial -lsundials_sunmatrixdense -lklu -lcholmod \
            -larpack -llapacke -lopenblas -lm
LDLIBS   := -ltcc $(RUN_LIBS) -ldl -lpthread

# Debian packages the build, the tests and the benchmarks need. python3-paraview
# gives pvpython and VTK's Python modules (vtkmodules, vtk.py) to /usr/bin/python3;
# Debian 12's python3-vtk9 conflicts with it (both ship vtkmodules) and is replaced.
DEB_BUILD := re2c lemon tcc libtcc-dev libopenblas-dev liblapacke-dev libsundials-dev \
             libsuitesparse-dev libarpack2-dev
DEB_TEST  := gnuplot-nox python3-numpy python3-scipy openmpi-bin libopenmpi-dev \
             python3-pytest python3-setuptools python3-matplotlib python3-pandas pkg-config strace \
             python3-venv python3-wheel python3-pip python3-paraview xvfb ffmpeg paraview
DEB_BENCH := octave time libmujoco-dev linux-perf

COMPILER_SRC := $(wildcard compiler/front/*.c compiler/lower/*.c compiler/sema/*.c compiler/kinds/*.c compiler/kinds/*/*.c compiler/jit/*.c)
RUNTIME_SRC  := $(wildcard runtime/*/*.c)
GEN_SRC      := $(B)/gen/lexer.c $(B)/gen/parser.c
LIB_OBJ      := $(patsubst %.c,$(B)/obj/%.o,$(COMPILER_SRC) $(RUNTIME_SRC)) \
                $(B)/obj/gen/lexer.o $(B)/obj/gen/parser.o
UNIT_SRC     := $(wildcard tests/unit/test_*.c)
EXAMPLE_TEST := $(wildcard tests/examples/test_*.c)
UNIT_BIN     := $(patsubst tests/unit/%.c,$(B)/tests/%,$(UNIT_SRC)) \
                $(patsubst tests/examples/%.c,$(B)/tests/%,$(EXAMPLE_TEST))

.PHONY: all build deps deps-build deps-bench demo test check-asan check-tsan bench docs clean mpi install fuzz \
        python-package
.SUFFIXES:

# The version (jnt.h's JNT_VERSION): libjnt.so.MAJOR is the soname.
VERSION  := $(shell sed -n 's/^\#define JNT_VERSION "\(.*\)"/\1/p' runtime/include/jnt/jnt.h)
SOMAJOR  := $(firstword $(subst ., ,$(VERSION)))
PREFIX   ?= /usr/local
DESTDIR  ?=
# make test and make check-asan build with this many jobs unless -j is given
NPROC    := $(shell nproc 2>/dev/null || echo 1)
JOBS     := $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC))

# plain `make` first installs the build tools it lacks (or names them)
all: deps-build
	@$(MAKE) --no-print-directory build

build: $(B)/jnt $(B)/libjnt.a $(B)/libjnt.so $(B)/libjnt.so.$(SOMAJOR)

# ---- Debian packages ------------------------------------------------------
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
define need_debs
	@missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  { $(SUDO) apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing >/dev/null; } || \
	  { echo "jnt: error: could not install the Debian packages:$$missing"; \
	    echo "  install them (apt-get install$$missing) and run make again"; exit 1; }; \
	fi
endef

deps:
	$(call need_debs,$(DEB_BUILD) $(DEB_TEST))

deps-build:
	$(call need_debs,$(DEB_BUILD))

deps-bench:
	$(call need_debs,$(DEB_BUILD) $(DEB_TEST) $(DEB_BENCH))

# ---- generated lexer and parser -------------------------------------------
$(B)/gen/lexer.c: grammar/lexer.re $(B)/gen/parser.c
	@mkdir -p $(@D)
	re2c --no-generation-date --no-version -W -o $@ $<

$(B)/gen/parser.c: grammar/parser.y
	@mkdir -p $(@D)
	cp grammar/parser.y $(B)/gen/parser.y
	lemon -q -T/usr/share/lemon/lempar.c -d$(B)/gen $(B)/gen/parser.y

$(B)/gen/parser.h: $(B)/gen/parser.c

# ---- objects and libraries --------------------------------------------------
$(B)/obj/runtime/%.o: runtime/%.c
	@mkdir -p $(@D)
	$(CC) $(RUNTIME_INC) $(DEFS) $(CFLAGS) -MMD -MP -c $< -o $@

$(B)/obj/compiler/%.o: compiler/%.c | $(GEN_SRC)
	@mkdir -p $(@D)
	$(CC) $(COMPILER_INC) $(DEFS) $(CFLAGS) -MMD -MP -c $< -o $@

$(B)/obj/compiler/cli/%.o: compiler/cli/%.c
	@mkdir -p $(@D)
	$(CC) $(CLI_INC) $(DEFS) -DJNT_LINK_LIBS='"$(RUN_LIBS)"' $(CFLAGS) -MMD -MP -c $< -o $@

# jnt animate's renderer, assembled into animate.o (.incbin)
$(B)/obj/compiler/cli/animate.o: compiler/cli/animate.py

# Lemon's and re2c's output is not ours: compile it without -Werror noise.
$(B)/obj/gen/%.o: $(B)/gen/%.c
	@mkdir -p $(@D)
	$(CC) $(COMPILER_INC) $(DEFS) $(CFLAGS) -Wno-unused-parameter -Wno-unused-variable \
	  -Wno-unused-but-set-variable -Wno-sign-compare -Wno-implicit-fallthrough -MMD -MP -c $< -o $@

$(B)/libjnt.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

# libjnt.so contains libtcc and JITs in memory as libjnt.a does. Debian's
# libtcc.a is not PIC, but a shared object can hold it with its symbols hidden
# (--exclude-libs) and its references to glibc's stdout, stderr and environ
# renamed to jit.c's hidden copies (compiler/jit/jit.c). -z text: the link fails
# rather than leave relocations in the code.
TCC_A := $(shell $(CC) -print-file-name=libtcc.a)
$(B)/obj/libtcc_so.a: $(TCC_A)
	@mkdir -p $(@D)
	objcopy --redefine-sym stdout=jit_tcc_stdout --redefine-sym stderr=jit_tcc_stderr \
	  --redefine-sym environ=jit_tcc_environ $< $@

$(B)/libjnt.so: $(LIB_OBJ) $(B)/obj/libtcc_so.a
	$(CC) $(SAN) -shared -Wl,-soname,libjnt.so.$(SOMAJOR) -Wl,--exclude-libs,ALL -Wl,-z,text \
	  -o $@ $^ $(filter-out -ltcc,$(LDLIBS))

# the soname link: a program linked against $(B)/libjnt.so asks the loader for
# libjnt.so.MAJOR (docs/embedding.md, "Without installing"; tests/trust/capi.sh)
$(B)/libjnt.so.$(SOMAJOR): $(B)/libjnt.so
	ln -sf libjnt.so $@

# the command line: main.c and `jnt sweep` (compiler/cli/sweep*.c; sweep_mpi.c only in jnt-mpi)
CLI_OBJ := $(patsubst %.c,$(B)/obj/%.o,$(filter-out compiler/cli/sweep_mpi.c,$(wildcard compiler/cli/*.c)))
# The jnt executables load OpenBLAS, LAPACKE, CHOLMOD, KLU and ARPACK when a
# model first calls them (compiler/cli/lazy.c): linked without them, a small
# model starts without loading 19 more shared objects (docs/performance.md).
LAZY_LIBS := -lklu -lcholmod -larpack -llapacke -lopenblas
CLI_LIBS  := $(filter-out $(LAZY_LIBS),$(LDLIBS))
soname     = $(shell objdump -p "$$($(CC) -print-file-name=lib$(1).so)" | awk '/SONAME/ {print $$2}')

$(B)/obj/compiler/cli/lazy.o: compiler/cli/lazy.c
	@mkdir -p $(@D)
	$(CC) $(CLI_INC) $(DEFS) -DLAZY_SONAME_OPENBLAS='"$(call soname,openblas)"' \
	  -DLAZY_SONAME_LAPACKE='"$(call soname,lapacke)"' -DLAZY_SONAME_CHOLMOD='"$(call soname,cholmod)"' \
	  -DLAZY_SONAME_KLU='"$(call soname,klu)"' -DLAZY_SONAME_ARPACK='"$(call soname,arpack)"' \
	  $(CFLAGS) -MMD -MP -c $< -o $@

$(B)/jnt: $(CLI_OBJ) $(B)/libjnt.a
	$(CC) $(SAN) -o $@ $^ $(CLI_LIBS)

# jnt-mpi: jnt with `jnt sweep` across Open MPI ranks (docs/sweeps.md). Built by
# `make mpi` and `make test`; plain `make` needs no MPI. Only sweep.c (with
# -DJNT_MPI) and sweep_mpi.c see mpi.h, compiled with mpicc.
MPICC    ?= mpicc
MPI_OBJ  := $(filter-out $(B)/obj/compiler/cli/sweep.o,$(CLI_OBJ)) \
            $(B)/obj/mpi/cli/sweep.o $(B)/obj/mpi/cli/sweep_mpi.o

$(B)/obj/mpi/cli/%.o: compiler/cli/%.c
	@mkdir -p $(@D)
	$(MPICC) $(CLI_INC) $(DEFS) -DJNT_MPI $(CFLAGS) -MMD -MP -c $< -o $@

$(B)/jnt-mpi: $(MPI_OBJ) $(B)/libjnt.a
	$(MPICC) $(SAN) -o $@ $^ $(CLI_LIBS)

mpi: deps
	@$(MAKE) --no-print-directory $(B)/jnt-mpi

-include $(shell find $(B)/obj -name '*.d' 2>/dev/null)

# ---- tests ------------------------------------------------------------------
$(B)/tests/%: tests/unit/%.c tests/unit/check.h tests/unit/csvread.h $(B)/libjnt.a
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -Itests/unit -o $@ $< $(B)/libjnt.a $(LDLIBS)

# libjnt's allocations pass through the test's own malloc (tests/unit/test_alloc_run.c)
$(B)/tests/test_alloc_run: LDLIBS += -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc

# linked as the jnt executable is: lazy.c in place of the numerical libraries
$(B)/tests/test_lazy: $(B)/obj/compiler/cli/lazy.o
$(B)/tests/test_lazy: LDLIBS := $(B)/obj/compiler/cli/lazy.o $(CLI_LIBS)

$(B)/tests/%: tests/examples/%.c tests/unit/check.h tests/unit/csvread.h $(B)/libjnt.a
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -Itests/unit -o $@ $< $(B)/libjnt.a $(LDLIBS)

$(B)/embed: examples/embed/embed.c $(B)/libjnt.a
	$(CC) $(CLI_INC) $(CFLAGS) -o $@ $< $(B)/libjnt.a $(LDLIBS)

test: deps
	@echo "building (make $(JOBS)) ..."
	@$(MAKE) --no-print-directory $(JOBS) build $(UNIT_BIN) $(B)/embed $(B)/jnt-mpi
	@B=$(B) sh tests/run.sh

check-asan: deps
	@$(MAKE) --no-print-directory $(JOBS) B=build/asan OPT=-O1 \
	  SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
	  build $(patsubst $(B)/%,build/asan/%,$(UNIT_BIN)) build/asan/embed
	@B=build/asan ASAN_OPTIONS=detect_leaks=1 JNT_CFLAGS="-fsanitize=address,undefined" JNT_GEN_MODELS=20 \
	  JNT_SKIP_PYTHON=1 JNT_SKIP_INSTALL=1 sh tests/run.sh

# ---- ThreadSanitizer (issue 17; docs/embedding.md) ---------------------------
# make check-tsan: libjnt built with -fsanitize=thread in build/tsan and
# tests/tsan/two_models.c: two threads compiling (libtcc) and running two
# models at once, three times each. Not part of make test (a build of its own).
check-tsan: deps
	@$(MAKE) --no-print-directory $(JOBS) B=build/tsan OPT=-O1 SAN="-fsanitize=thread" \
	  build/tsan/libjnt.a
	$(CC) $(CLI_INC) $(CFLAGS) -O1 -fsanitize=thread -o build/tsan/two_models \
	  tests/tsan/two_models.c build/tsan/libjnt.a $(LDLIBS)
	TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" build/tsan/two_models \
	  examples/pendulum.jnt examples/frdyn2_bench.jnt

# ---- fuzzing (issue 17; docs/testing.md) ------------------------------------
# make fuzz FUZZ_SECONDS=N: libjnt built by clang with ASan + UBSan and
# libFuzzer's coverage, then each harness of fuzz/ for N seconds on one core:
# fuzz_compile (a model as text through sema, derivatives and C generation),
# fuzz_data (the Matrix Market and node-table readers), fuzz_plotcsv (jnt
# plot's CSV readers and its gnuplot escaper). Seeds: examples/,
# stdlib/, tests/errors/ (and the data files of examples/); dictionary:
# fuzz/jnt.dict. A finding is written to build/fuzz/ (crash-*, timeout-*,
# leak-*): put it in tests/fuzz-regressions/, which make test replays.
# fuzz_sweepspec and fuzz_table: jnt sweep's --grid/--list/--dist/--samples
# texts and the table reader of --resume (seeds written here).
# Last, GEN_MODELS models of tests/gen/gen.py (seeds after make test's 200).
DEB_FUZZ     := clang
FUZZ_SECONDS ?= 60
# then the valid-model generator's seeds 201 .. 200 + GEN_MODELS (make test runs 1 .. 200)
GEN_MODELS   ?= 2000
FUZZ_SAN     := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
fuzz:
	$(call need_debs,$(DEB_BUILD) $(DEB_FUZZ))
	@$(MAKE) --no-print-directory B=build/fuzz CC=clang OPT=-O1 \
	  SAN="$(FUZZ_SAN) -fsanitize=fuzzer-no-link" build/fuzz/libjnt.a
	clang -Iruntime/include -Icompiler -Ibuild/fuzz/gen -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer \
	  fuzz/fuzz_compile.c build/fuzz/libjnt.a $(LDLIBS) -o build/fuzz/fuzz_compile
	clang -Iruntime/include -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer \
	  fuzz/fuzz_data.c build/fuzz/libjnt.a $(LDLIBS) -o build/fuzz/fuzz_data
	clang -Iruntime/include -Icompiler/cli -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer \
	  fuzz/fuzz_sweepspec.c compiler/cli/sweep_spec.c build/fuzz/libjnt.a $(LDLIBS) \
	  -o build/fuzz/fuzz_sweepspec
	clang -Iruntime/include -Icompiler/cli -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer \
	  fuzz/fuzz_table.c compiler/cli/sweep_table.c build/fuzz/libjnt.a $(LDLIBS) \
	  -o build/fuzz/fuzz_table
	@mkdir -p build/fuzz/corpus_sweepspec build/fuzz/corpus_table; \
	 printf '\000w=1:2:0.5' > build/fuzz/corpus_sweepspec/grid; \
	 printf '\001c=1,2,3kg,4 ms' > build/fuzz/corpus_sweepspec/list; \
	 printf '\002c=normal:1N/m:0.1N/m' > build/fuzz/corpus_sweepspec/dist; \
	 printf '\0031e3' > build/fuzz/corpus_sweepspec/count; \
	 printf '\0030,1,10,0.5,0.25,ok,,0.001\n1,1,20,,,failed,"E: a, ""b""",0.1\n4,3.5,1' \
	   > build/fuzz/corpus_table/rows; \
	 cp tests/fuzz-regressions/sweepspec/* build/fuzz/corpus_sweepspec/ 2>/dev/null; \
	 cp tests/fuzz-regressions/table/* build/fuzz/corpus_table/ 2>/dev/null; true
	clang -Iruntime/include -Icompiler/cli -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer \
	  fuzz/fuzz_plotcsv.c compiler/cli/plot.c compiler/cli/plot_gnuplot.c compiler/cli/plot_data.c compiler/cli/spectrogram.c build/fuzz/libjnt.a \
	  $(LDLIBS) -o build/fuzz/fuzz_plotcsv
	@mkdir -p build/fuzz/corpus_plotcsv; \
	 find examples -name '*.csv' -size -64k -exec cp {} build/fuzz/corpus_plotcsv/ \; ; \
	 cp tests/fuzz-regressions/plotcsv/* build/fuzz/corpus_plotcsv/ 2>/dev/null; true
	@mkdir -p build/fuzz/corpus_compile build/fuzz/corpus_data
	@cp examples/*.jnt stdlib/*.jnt tests/errors/*.jnt tests/fuzz-regressions/compile/* \
	  build/fuzz/corpus_compile/ 2>/dev/null; \
	 find examples -name '*.mtx' -size -64k -exec cp {} build/fuzz/corpus_data/ \; ; \
	 find examples -name '*nodes*.csv' -size -64k -exec cp {} build/fuzz/corpus_data/ \; ; \
	 cp tests/fuzz-regressions/data/* build/fuzz/corpus_data/ 2>/dev/null; true
	cd build/fuzz && ASAN_OPTIONS=detect_leaks=1 ./fuzz_compile -dict=../../fuzz/jnt.dict \
	  -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
	  -print_final_stats=1 corpus_compile
	cd build/fuzz && ASAN_OPTIONS=detect_leaks=1 ./fuzz_data -max_total_time=$(FUZZ_SECONDS) \
	  -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 corpus_data
	cd build/fuzz && ASAN_OPTIONS=detect_leaks=1 ./fuzz_plotcsv -max_total_time=$(FUZZ_SECONDS) \
	  -timeout=10 -rss_limit_mb=2048 -max_len=65536 -close_fd_mask=2 -print_final_stats=1 \
	  corpus_plotcsv
	cd build/fuzz && ASAN_OPTIONS=detect_leaks=1 ./fuzz_sweepspec -max_total_time=$(FUZZ_SECONDS) \
	  -timeout=10 -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 corpus_sweepspec
	cd build/fuzz && ASAN_OPTIONS=detect_leaks=1 ./fuzz_table -max_total_time=$(FUZZ_SECONDS) \
	  -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 corpus_table
	@$(MAKE) --no-print-directory build
	B=$(B) sh tests/gen/run.sh $(GEN_MODELS) 201 | grep -v '^PASS'; true

demo: deps
	@$(MAKE) --no-print-directory build
	@mkdir -p $(B)/demo
	$(B)/jnt run examples/frdyn2_bench.jnt -o $(B)/demo/frdyn2_bench.csv --stats --plot
	@echo "demo output: $(B)/demo/frdyn2_bench.csv (columns t,u,v,F,F_R)"
	@echo "             $(B)/demo/frdyn2_bench.png (forces and displacement, seed 002 Figs. 6c, 8c)"

bench: deps-bench
	@$(MAKE) --no-print-directory build peers
	@B=$(B) LDLIBS="$(LDLIBS)" sh bench/run.sh

# the C peers of bench section 19 (bench/peers.sh), from Debian's libsundials-dev
# and libmujoco-dev (DEB_BENCH)
PEER_CC  := $(CC) -std=c11 -Wall -Wextra -Werror -O2 -D_POSIX_C_SOURCE=200809L
PEER_BIN := $(B)/bench/peer_andrews_ida $(B)/bench/peer_frdyn2_cvode $(B)/bench/peer_nlink_mujoco \
            $(B)/bench/cpuit
.PHONY: peers
peers: $(PEER_BIN)

$(B)/bench/peer_andrews_ida: bench/peer_andrews_ida.c
	@mkdir -p $(@D)
	$(PEER_CC) -o $@ $< -lsundials_ida -lsundials_nvecserial -lsundials_sunmatrixdense \
	  -lsundials_sunlinsoldense -lm

$(B)/bench/peer_frdyn2_cvode: bench/peer_frdyn2_cvode.c
	@mkdir -p $(@D)
	$(PEER_CC) -o $@ $< -lsundials_cvode -lsundials_nvecserial -lsundials_sunmatrixdense \
	  -lsundials_sunlinsoldense -lm

$(B)/bench/peer_nlink_mujoco: bench/peer_nlink_mujoco.c
	@mkdir -p $(@D)
	$(PEER_CC) -o $@ $< -lmujoco -lm

$(B)/bench/cpuit: bench/cpuit.c
	@mkdir -p $(@D)
	$(PEER_CC) -o $@ $<

docs: deps
	@$(MAKE) --no-print-directory build
	@B=$(B) sh docs/plots.sh
	@B=$(B) sh docs/seeing.sh
	@if [ -s $(B)/tests/measures.list ]; then \
	  /usr/bin/python3 tests/docs/numbers.py write $(B)/tests/measures.list docs/*.md examples/*.jnt; \
	  echo "docs: the marked figures rewritten from $(B)/tests/measures.list (docs/testing.md)"; \
	else echo "docs: run make test first to rewrite the marked figures from its measurements"; fi

# ---- install -------------------------------------------------------------
# PREFIX/bin/jnt, PREFIX/lib/libjnt.so.VERSION (soname libjnt.so.MAJOR) with
# its links, libjnt.a, PREFIX/include/jnt/*.h, PREFIX/lib/pkgconfig/jnt.pc,
# PREFIX/share/jnt/stdlib (found by the installed jnt relative to itself:
# compiler/front/paths.c), PREFIX/share/man/man1/jnt.1 (from docs/cli.md) and the
# Python package in the site-packages folder under PREFIX that $(PYTHON)
# searches (PREFIX/bin/python3 when PREFIX is a virtual environment): for
# /usr/local, /usr, ~/.local or a venv it imports as is; for another prefix
# the last line printed is the PYTHONPATH to export (docs/python.md).
$(B)/jnt.1: docs/cli.md docs/man.awk runtime/include/jnt/jnt.h
	awk -v version=$(VERSION) -f docs/man.awk docs/cli.md > $@

PYTHON ?= python3
# prints path:DIR when the interpreter searches DIR, a site folder under the
# prefix argv[1], else add:DIR (the prefix's posix_prefix purelib folder)
PY_SITE := import site, sys, sysconfig; p = sys.argv[1].rstrip("/"); \
  d = [s for s in site.getsitepackages() + [site.getusersitepackages()] if s.startswith(p + "/lib/")]; \
  print("path:" + d[0] if d else "add:" + sysconfig.get_path("purelib", "posix_prefix", {"base": p, "platbase": p}))

install: all
	@$(MAKE) --no-print-directory $(B)/jnt.1
	@D=$(DESTDIR)$(PREFIX); set -e; \
	install -d $$D/bin $$D/lib/pkgconfig $$D/include/jnt $$D/share/jnt/stdlib \
	  $$D/share/man/man1; \
	install -m 755 $(B)/jnt $$D/bin/jnt; \
	install -m 755 $(B)/libjnt.so $$D/lib/libjnt.so.$(VERSION); \
	ln -sf libjnt.so.$(VERSION) $$D/lib/libjnt.so.$(SOMAJOR); \
	ln -sf libjnt.so.$(SOMAJOR) $$D/lib/libjnt.so; \
	install -m 644 $(B)/libjnt.a $$D/lib/libjnt.a; \
	install -m 644 runtime/include/jnt/*.h $$D/include/jnt/; \
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' \
	  -e 's|@LIBS@|$(RUN_LIBS) -ldl -lpthread|' jnt.pc.in > $$D/lib/pkgconfig/jnt.pc; \
	install -m 644 stdlib/*.jnt $$D/share/jnt/stdlib/; \
	install -m 644 $(B)/jnt.1 $$D/share/man/man1/jnt.1; \
	echo "installed jnt $(VERSION) under $$D"; \
	py=$(PYTHON); [ -x "$(PREFIX)/bin/python3" ] && py="$(PREFIX)/bin/python3"; \
	if ! site=$$($$py -c '$(PY_SITE)' "$(PREFIX)" 2>/dev/null); then \
	  echo "no $$py: the Python package (python/jnt) is not installed"; exit 0; fi; \
	install -d "$(DESTDIR)$${site#*:}/jnt"; \
	install -m 644 python/jnt/*.py "$(DESTDIR)$${site#*:}/jnt/"; \
	echo 'LIBDIR = "$(PREFIX)/lib"  # written by make install' > "$(DESTDIR)$${site#*:}/jnt/_prefix.py"; \
	case $$site in \
	  path:*) echo "installed the Python package in $${site#*:} ($$py imports it)" ;; \
	  *) echo "installed the Python package in $${site#*:}, which $$py does not search; add it:"; \
	     echo "export PYTHONPATH=$${site#*:}" ;; esac

# ---- the Python package ------------------------------------------------------
# B/python: python/'s package with libjnt.so, the headers and the stdlib laid
# out inside it as under a prefix (lib/, include/jnt/, share/jnt/stdlib/:
# libjnt.so finds the last two beside its lib/, compiler/front/paths.c), ready for
# pip install --no-build-isolation --no-index B/python (docs/python.md)
python-package: build
	@rm -rf $(B)/python
	@mkdir -p $(B)/python/jnt/lib $(B)/python/jnt/include/jnt $(B)/python/jnt/share/jnt/stdlib
	@cp python/pyproject.toml python/setup.py $(B)/python/
	@cp python/jnt/*.py $(B)/python/jnt/
	@cp $(B)/libjnt.so $(B)/python/jnt/lib/
	@cp runtime/include/jnt/*.h $(B)/python/jnt/include/jnt/
	@cp stdlib/*.jnt $(B)/python/jnt/share/jnt/stdlib/
	@echo "the Python package is in $(B)/python: pip install --no-build-isolation --no-index $(B)/python"

clean:
	rm -rf build
