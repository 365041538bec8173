# bench/cache.sh: section 18 of `make bench`, sourced by bench/run.sh (uses its
# B, OUT, RAW, RES, N, STAT and helpers). Alone:
#   B=build sh bench/cache.sh      (runs bench/run.sh with BENCH_SECTIONS=18)
#
# The compile cache (issue 29 item 4; docs/cli.md, "Compile cache"): a miss
# (an empty cache folder: the whole translation, then the entry written) against
# a hit (the entry read, every input re-hashed), each in a new process, as a
# Python loop or a CI job meets them, on examples/car_pendulum.jnt and
# examples/lap_joint.jnt:
#   - jnt_compile_file in a new process (bench_jnt compile: model file to
#     runnable JIT code; the JIT runs on a hit too);
#   - `jnt emit` as a process (the translation alone, what a hit replaces).
# The rounds take turns (miss, hit); the cache folder is a scratch one under
# $OUT, emptied before each miss (bench/run.sh sets JNT_CACHE=0 for the other
# sections; this one sets JNT_CACHE=1). The last column compares the C of a hit
# with the C of JNT_CACHE=0, byte for byte (jnt emit: kernels and model data).
# shellcheck disable=SC2154
if ! command -v agg >/dev/null 2>&1; then
    BENCH_SECTIONS=18 exec sh bench/run.sh
fi
CH_DIR=$OUT/cache
mkdir -p "$CH_DIR"
say "bench: compile cache, miss against hit ($STAT_NAME of $N rounds)"
# ch_model NAME SRC: per round the miss and the hit, in-process and as jnt emit
ch_model() {
    name=$1 src=$2
    for v in cmiss chit emiss ehit; do : > "$CH_DIR/$name.$v"; done
    i=0
    while [ $i -lt "$N" ]; do
        rm -rf "$CH_DIR/xdg"
        l=$(JNT_CACHE=1 XDG_CACHE_HOME="$PWD/$CH_DIR/xdg" "$OUT/bench_jit" compile "$src" 1 \
            2>> "$OUT/stderr.txt"); log "cache miss $name $l"
        kv compile_s_min "$l" >> "$CH_DIR/$name.cmiss"
        l=$(JNT_CACHE=1 XDG_CACHE_HOME="$PWD/$CH_DIR/xdg" "$OUT/bench_jit" compile "$src" 1 \
            2>> "$OUT/stderr.txt"); log "cache hit $name $l"
        kv compile_s_min "$l" >> "$CH_DIR/$name.chit"
        rm -rf "$CH_DIR/xdg"
        l=$(JNT_CACHE=1 XDG_CACHE_HOME="$PWD/$CH_DIR/xdg" "$OUT/timeit" 1 "$OUT/stderr.txt" \
            "$B/jnt" emit "$src" -o "$CH_DIR/$name.miss.c"); log "cache emit miss $name $l"
        kv wall_s_min "$l" >> "$CH_DIR/$name.emiss"
        l=$(JNT_CACHE=1 XDG_CACHE_HOME="$PWD/$CH_DIR/xdg" "$OUT/timeit" 1 "$OUT/stderr.txt" \
            "$B/jnt" emit "$src" -o "$CH_DIR/$name.hit.c"); log "cache emit hit $name $l"
        kv wall_s_min "$l" >> "$CH_DIR/$name.ehit"
        i=$((i + 1))
    done
    JNT_CACHE=0 "$B/jnt" emit "$src" -o "$CH_DIR/$name.off.c" 2>> "$OUT/stderr.txt"
    if cmp -s "$CH_DIR/$name.hit.c" "$CH_DIR/$name.off.c"; then same=yes; else same=NO; fi
    cm=$(agg < "$CH_DIR/$name.cmiss") ch=$(agg < "$CH_DIR/$name.chit")
    em=$(agg < "$CH_DIR/$name.emiss") eh=$(agg < "$CH_DIR/$name.ehit")
    echo "| $src | $(ms "$cm") | $(ms "$ch") | $(ratio "$cm" "$ch") |" \
         "$(ms "$em") | $(ms "$eh") | $(ratio "$em" "$eh") | $same |"
}
{
echo
echo "## 18. The compile cache: a miss against a hit, each in a new process"
echo
echo "| model | jnt_compile_file, miss (ms) | hit (ms) | miss / hit |" \
     "jnt emit, miss (ms) | hit (ms) | miss / hit | hit's C = JNT_CACHE=0's |"
echo "|---|---:|---:|---:|---:|---:|---:|---|"
ch_model car_pendulum examples/car_pendulum.jnt
ch_model lap_joint examples/lap_joint.jnt
echo
echo "The $STAT_NAME of $N round(s), miss and hit taking turns; a miss starts from an empty"
echo "cache folder and includes writing the entry; jnt_compile_file includes the JIT (libtcc),"
echo "which a hit runs too. jnt emit is the whole process (start, translation or lookup, the"
echo "C written)."
} >> "$RES"
