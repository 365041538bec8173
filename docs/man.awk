# man.awk: docs/cli.md to the man page jnt.1 (make install): headings become
# sections, fenced code and tables stay as written, list items indent,
# `code` is bold. Usage: awk -v version=X -f docs/man.awk docs/cli.md
function esc(s) {
    gsub(/\\/, "\\e", s)
    if (s ~ /^[.']/) s = "\\&" s
    return s
}
function inline(s,   out, i, n, parts) {
    s = esc(s)
    n = split(s, parts, "`")
    out = parts[1]
    for (i = 2; i <= n; i++)
        out = out (i % 2 == 0 ? "\\fB" : "\\fR") parts[i]
    if (n % 2 == 0) out = out "\\fR"
    gsub(/\*\*/, "", out)
    return out
}
BEGIN {
    print ".TH JNT 1 \"\" \"jnt " version "\" \"jnt manual\""
    print ".SH NAME"
    print "jnt \\- compiler and runtime for the dynamics of jointed structures"
    pre = 0
}
/^```/ { print (pre ? ".fi" : ".nf"); pre = !pre; next }
pre { print esc($0); next }
/^\|/ { if (!tab) print ".nf"; tab = 1; print esc($0); next }
tab { print ".fi"; tab = 0 }
/^# / { next }
/^## / { sub(/^## /, ""); print ".SH " toupper(inline($0)); next }
/^### / { sub(/^### /, ""); print ".SS " inline($0); next }
/^[-*] / { sub(/^[-*] /, ""); print ".IP \\(bu 2"; print inline($0); next }
/^[ \t]*$/ { print ".PP"; next }
{ print inline($0) }
END { if (pre || tab) print ".fi" }
