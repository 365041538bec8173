#!/bin/sh
# Issue 27: `make test` leaves the machine as it found it. `machine.sh start`
# records the repository's files (tracked changes, untracked and ignored,
# outside $B) and a time mark; `machine.sh end` prints PASS/FAIL: /dev/null
# is still a character device (a test once renamed a file over it, as root),
# no file appeared or changed in the repository outside $B, and none was
# written under $HOME, /etc, /usr/local or /var/lib (the temporary folders,
# /tmp and $B, are the tests' own). Run from the repository root with B set.
B=${B:-build}
state=$B/tests/machine
# (git quotes a path with special characters: `!! "build/x\ny"`)
list() { git status --porcelain --ignored --untracked-files=all 2>/dev/null |
         grep -v -E "^.. \"?($B|build)/" | LC_ALL=C sort; }
case $1 in
start)
    mkdir -p "$state"
    : > "$state/mark"
    list > "$state/repo.before"
    ;;
end)
    if [ -c /dev/null ]; then echo "PASS: machine: /dev/null is still a character device"
    else echo "FAIL: machine: /dev/null is no longer a character device: $(ls -l /dev/null)"; fi
    list > "$state/repo.after"
    new=$(LC_ALL=C comm -13 "$state/repo.before" "$state/repo.after")
    changed=$(git diff --name-only 2>/dev/null | while read -r f; do
        [ "$f" -nt "$state/mark" ] && echo "$f"; done)
    if [ -z "$new$changed" ]; then echo "PASS: machine: no file written in the repository outside $B"
    else echo "FAIL: machine: files written in the repository outside $B:"; printf '%s\n' "$new" "$changed" | head -10; fi
    out=$(find "$HOME" /etc /usr/local /var/lib -xdev -type f -newer "$state/mark" \
              -not -path "$HOME/.cache/*" -not -path '/var/lib/dpkg/*' -not -path '/var/lib/apt/*' \
              2>/dev/null | head -10)
    if [ -z "$out" ]; then echo "PASS: machine: no file written under \$HOME, /etc, /usr/local, /var/lib"
    else echo "FAIL: machine: files written outside the build and temporary folders:"; printf '%s\n' "$out"; fi
    ;;
esac
