#!/bin/sh
# Issue 27, finding 2 and the jnt plot parts of 3, 7 and 12 (compiler/cli/plot.c,
# spectrogram.c):
#  2. no string reaches gnuplot as code: the CSV's name, --title, --xlabel,
#     --ylabel, -o, the CSV's column names and units, the --spectrogram column
#     and jnt run --plot's names are fed payloads with newlines, carriage
#     returns, quotes, backslashes, backquotes and '*/' that would run
#     system("touch PWNED") (or `touch PWNED`, '< touch', '| touch') if they
#     broke out of their string; the real gnuplot runs each, the picture must
#     be written and nothing run;
#  3. every picture (and the spectrogram's data) goes through the one output
#     routine: a link, a FIFO or the CSV being plotted is refused, never
#     written through; a failed gnuplot keeps the previous picture;
#  7. the CSV is a regular file of at most JNT_MAX_PLOT_MB (1024 MB): /dev/zero
#     and a FIFO are refused at once, a big file is refused naming the limit;
# 12. a directory is said to be one.
NAME=plot
. tests/trust/lib.sh
cd "$T"
command -v gnuplot > /dev/null || { fail "plot: gnuplot is not installed (make test's deps)"; exit 0; }
NL='
'
CR=$(printf '\r')
png() { [ "$(od -An -c -N4 "$1" 2> /dev/null | tr -d ' ')" = "211PNG" ]; }
printf 't,x,y\n# units: s,m,N\n0,1,2\n1,2,3\n2,1,5\n' > a.csv
# tones.csv: enough rows for a spectrogram of window 8
awk 'BEGIN { print "t,a"; for (i = 0; i <= 64; i++) printf "%g,%g\n", i * 1e-3, sin(i) }' > tones.csv

# ---- (2) every route into the gnuplot script, with every payload ---------------
# the payloads: each one leaves its string (single- or double-quoted) and runs a
# command in the old script, or is a character gnuplot treats specially
set -- \
    "q1" "x'${NL}system(\"touch PWNED\")${NL}'" \
    "q2" "x\"${NL}system(\"touch PWNED\")${NL}\"" \
    "q3" "x\\'${NL}system(\"touch PWNED\")${NL}#\\'" \
    "q4" "x\\\"${NL}system(\"touch PWNED\")${NL}#\\\"" \
    "q5" "x'${CR}system(\"touch PWNED\")${CR}'" \
    "q6" "x*/${NL}system(\"touch PWNED\")${NL}/*" \
    "q7" "x'; system(\"touch PWNED\") #" \
    "q8" "x\`touch PWNED\`\"\`touch PWNED\`\"" \
    "q9" "x\\${NL}system(\"touch PWNED\")${NL}1\\\\"
# pwned ROUTE: nothing ran (PWNED, PWNED.png) and the command's exit status was 0
pwned() {
    if ls PWNED* > /dev/null 2>&1; then fail "$1: a command ran ($(ls PWNED*))"; rm -f PWNED*
    else pass "$1: nothing ran"; fi
}
ok=0 bad=""
while [ $# -ge 2 ]; do
    k=$1 p=$2; shift 2
    for o in --title --xlabel --ylabel; do
        rm -f p.png
        "$J" plot a.csv -y x "$o" "$p" -o p.png 2> err; rc=$?
        ls PWNED* > /dev/null 2>&1 && { bad="$bad $o:$k(ran)"; rm -f PWNED*; continue; }
        [ $rc = 0 ] && png p.png && ok=$((ok + 1)) || bad="$bad $o:$k(exit $rc)"
    done
    # -o, the CSV's name, their default picture and the spectrogram's data
    d=$(dirname "$p.csv"; echo x); mkdir -p "${d%?x}" # (a name may end in a newline)
    cp a.csv "$p.csv"
    "$J" plot a.csv -o "$p.png" 2> err; rc=$?
    ls PWNED* > /dev/null 2>&1 && { bad="$bad -o:$k(ran)"; rm -f PWNED*; }
    [ $rc = 0 ] && png "$p.png" && ok=$((ok + 1)) || bad="$bad -o:$k(exit $rc)"
    rm -f "$p.png"
    "$J" plot "$p.csv" 2> err; rc=$?
    ls PWNED* > /dev/null 2>&1 && { bad="$bad csv:$k(ran)"; rm -f PWNED*; }
    [ $rc = 0 ] && png "$p.png" && ok=$((ok + 1)) || bad="$bad csv:$k(exit $rc)"
    cp tones.csv "$p.csv"
    "$J" plot "$p.csv" --spectrogram a --window 8 --title "$p" 2> err; rc=$?
    ls PWNED* > /dev/null 2>&1 && { bad="$bad spec:$k(ran)"; rm -f PWNED*; }
    [ $rc = 0 ] && png "${p}_spec.png" && [ -s "${p}_spec_stft.csv" ] && ok=$((ok + 1)) ||
        bad="$bad spec:$k(exit $rc)"
    # jnt run -o NAME.csv --plot, and --plot NAME.png
    [ -f m.jnt ] || small_model m.jnt
    "$J" run m.jnt -o "$p.csv" --plot 2> err; rc=$?
    ls PWNED* > /dev/null 2>&1 && { bad="$bad run:$k(ran)"; rm -f PWNED*; }
    [ $rc = 0 ] && png "$p.png" && ok=$((ok + 1)) || bad="$bad run:$k(exit $rc)"
    rm -f "$p.png"
    "$J" run m.jnt --plot "$p.png" 2> err; rc=$?
    ls PWNED* > /dev/null 2>&1 && { bad="$bad run--plot:$k(ran)"; rm -f PWNED*; }
    [ $rc = 0 ] && png "$p.png" && ok=$((ok + 1)) || bad="$bad run--plot:$k(exit $rc)"
done
[ -z "$bad" ] && pass "9 payloads by --title, --xlabel, --ylabel, -o, the CSV's name, --spectrogram's names, jnt run --plot: $ok pictures, nothing ran" ||
    fail "payloads:$bad ($(head -c 300 err))"
# the text arrives whole: the title's payload is the SVG's text, newline and all
"$J" plot a.csv --title "x'${NL}system(\"touch PWNED\")${NL}'\\\`" -o t.svg 2> err
grep -qF 'system("touch PWNED")' t.svg && grep -qF ">'\\\`<" t.svg &&
    pass "the title is text: its lines, quotes, backslash and backquote in the SVG" ||
    fail "the title's text: $(grep -c PWNED t.svg) lines with it in t.svg; $(head -2 err)"
pwned "--title to an SVG"

# column names and units from the CSV (no newline can be in them; anything else can)
cat > cols.csv <<'EOF'
t,x'; system("touch PWNED") #,y"; system("touch PWNED") #,z`touch PWNED`,w\'\";system("touch PWNED"),@v
# units: s`touch PWNED`,m',"N,\,'`touch PWNED`'
0,1,2,3,4,5
1,2,3,4,5,6
EOF
expect 0 "column names and units with quotes, backquotes, backslashes: one panel each" "$J" plot cols.csv -o c.png
pwned "column names and units (panels)"
expect 0 "the same names in one panel's key" "$J" plot cols.csv -y "x'; system(\"touch PWNED\") #,z\`touch PWNED\`" --overlay -o c2.svg
pwned "column names in a key"
grep -qF "x'; system(\"touch PWNED\") #" c2.svg && pass "the column's name is the key's text" ||
    fail "the key: $(grep -c PWNED c2.svg)"
printf 't,a`touch PWNED`\n' > sp.csv
awk 'BEGIN { for (i = 0; i <= 64; i++) printf "%g,%g\n", i * 1e-3, sin(i) }' >> sp.csv
expect 0 "--spectrogram of a column named with backquotes" "$J" plot sp.csv --spectrogram 'a`touch PWNED`' --window 8
pwned "the spectrogram's column in its label"
# gnuplot's special file names: '< cmd' reads a pipe, '| cmd' writes one
cp a.csv '<touch PWNED'
expect 0 "a CSV named '<touch PWNED' is a file" "$J" plot '<touch PWNED' -o lt.png
pwned "a CSV named '<touch PWNED'"
expect 0 "a picture named '|touch PWNED.png' is a file" "$J" plot a.csv -o '|touch PWNED.png'
[ -f '|touch PWNED.png' ] && png '|touch PWNED.png' && pass "'|touch PWNED.png' is the picture" ||
    fail "no picture '|touch PWNED.png'"
pwned "a picture named '|touch PWNED.png'"
cp a.csv '-'
expect 0 "a CSV named '-' is a file, not gnuplot's inline data" "$J" plot - -o dash.png
png dash.png && pass "the picture of '-'" || fail "no picture of '-'"

# ---- (3) pictures through the one output routine --------------------------------
small_model m.jnt
"$J" run m.jnt > /dev/null 2>&1
echo target > tgt.csv
ln -s tgt.csv lnk.png
expect 1 "jnt run --plot lnk.png (a link to a CSV) is refused" "$J" run m.jnt --plot lnk.png
has "the link: said what it is" "symbolic link"
expect 1 "jnt plot -o lnk.png is refused" "$J" plot m.csv -o lnk.png
[ -L lnk.png ] && [ "$(cat tgt.csv)" = target ] && pass "the link and its target are intact" ||
    fail "the link or its target was written: $(ls -l lnk.png; head -c 40 tgt.csv)"
mkfifo fifo.png
expect 1 "jnt plot -o a FIFO is refused, not waited on" timeout 20 "$J" plot m.csv -o fifo.png
[ -p fifo.png ] && pass "the FIFO is intact" || fail "the FIFO was replaced"
cp m.csv m.png
cp m.png m0.png
expect 1 "jnt plot m.png (a CSV named .png): its picture would be the CSV: refused" "$J" plot m.png
has "the input as the picture: said so" "the CSV being plotted"
cmp -s m.png m0.png && pass "the CSV is intact" || fail "the CSV was overwritten by its picture"
cp tones.csv tn.csv
ln -s tgt.csv tn_spec_stft.csv
expect 1 "--spectrogram: its data file a link: refused" "$J" plot tn.csv --spectrogram a --window 8
[ "$(cat tgt.csv)" = target ] && [ ! -e tn_spec.png ] && pass "the link's target intact, no picture" ||
    fail "--spectrogram through a link: $(head -c 40 tgt.csv); $(ls tn_spec.png 2>&1)"
cp tones.csv tn_stft.csv
expect 1 "--spectrogram: its data file the CSV being plotted: refused" "$J" plot tn_stft.csv --spectrogram a --window 8 -o tn.png
cmp -s tn_stft.csv tones.csv && pass "the CSV is intact" || fail "the CSV was overwritten by its transform"
# a failed gnuplot keeps the previous picture and leaves no temporary file
expect 0 "a picture" "$J" plot m.csv -o keep.png
cp keep.png keep0.png
printf 't,x\nfoo,bar\nbaz,qux\n' > text.csv
expect 1 "a CSV gnuplot cannot plot: exit 1" "$J" plot text.csv -o keep.png
cmp -s keep.png keep0.png && pass "the previous picture is kept" || fail "the previous picture changed"
# a gnuplot that is gone before it reads the script (longer than a pipe holds): its status, not
# a SIGPIPE that leaves the temporary file
mkdir -p gone && printf '#!/bin/sh\nexit 3\n' > gone/gnuplot && chmod +x gone/gnuplot
expect 1 "a gnuplot gone at once: exit 1" env PATH="$T/gone:$PATH" "$J" plot m.csv -o keep.png \
    --title "$(head -c 100000 /dev/zero | tr '\0' x)"
has "a gnuplot gone at once: said so" "gnuplot failed"
cmp -s keep.png keep0.png && pass "the previous picture is kept" || fail "the previous picture changed"
ls ./*.part > /dev/null 2>&1 && fail "temporary files left: $(ls ./*.part)" || pass "no temporary file left"

# ---- (7) inputs: regular files of a bounded size ---------------------------------
expect 1 "jnt plot /dev/zero is refused" timeout 20 "$J" plot /dev/zero -o z.png
has "/dev/zero: said what it is" "it is a character device, not a regular file"
expect 1 "jnt plot --spectrogram /dev/zero is refused" timeout 20 "$J" plot /dev/zero --spectrogram a -o z.png
has "--spectrogram /dev/zero: said what it is" "it is a character device"
mkfifo in.csv
expect 1 "jnt plot on a FIFO is refused at once" timeout 20 "$J" plot in.csv -o f.png
has "the FIFO: said what it is" "it is a FIFO, not a regular file"
expect 1 "jnt plot --spectrogram on a FIFO is refused at once" timeout 20 "$J" plot in.csv --spectrogram a -o f.png
awk 'BEGIN { print "t,x"; for (i = 0; i < 150000; i++) printf "%d,%d\n", i, i % 7 }' > big.csv
expect 1 "a 1.3 MB CSV over JNT_MAX_PLOT_MB=1 is refused" env JNT_MAX_PLOT_MB=1 "$J" plot big.csv
has "the size limit: named, with how to raise it" "more than the limit of 1048576 bytes (1 MB; set JNT_MAX_PLOT_MB"
expect 1 "the same for --spectrogram" env JNT_MAX_PLOT_MB=1 "$J" plot big.csv --spectrogram x
has "--spectrogram's limit: named" "JNT_MAX_PLOT_MB"
expect 0 "the same CSV under JNT_MAX_PLOT_MB=2 is plotted" env JNT_MAX_PLOT_MB=2 "$J" plot big.csv
[ -c /dev/zero ] && [ -p in.csv ] && pass "/dev/zero and the FIFO untouched" || fail "an input was replaced"

# ---- (12) a directory -------------------------------------------------------------
expect 1 "jnt plot . is refused" "$J" plot .
has "jnt plot .: said it is a directory" "it is a directory"
expect 1 "jnt plot --spectrogram . is refused" "$J" plot . --spectrogram a
has "--spectrogram .: said it is a directory" "it is a directory"
