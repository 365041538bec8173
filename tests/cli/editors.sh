#!/bin/sh
# Lists that must follow the code: the editor grammars (editors/jnt.vim,
# editors/vscode) and docs/language.md's keyword lists against the keywords
# of grammar/lexer.re's table and the built-in functions of
# compiler/sema/eval.c; docs/laws.md against the laws of stdlib/. Run from
# the repository root.
pass() { echo "PASS: editors: $*"; }
fail() { echo "FAIL: editors: $*"; }
W=$(mktemp -d "${TMPDIR:-/tmp}/jnt-editors.XXXXXX")
trap 'rm -rf "$W"' EXIT
words() { tr ' |' '\n\n' | sed '/^$/d' | sort -u; }

grep -o '{"[a-z_]*", TK_[A-Z_]*}' grammar/lexer.re | sed 's/{"\([a-z_]*\)".*/\1/' | words > "$W/kw"
grep -o '{"[a-z0-9_]*", [0-9], "' compiler/sema/eval.c | sed 's/{"\([a-z0-9_]*\)".*/\1/' |
    words > "$W/fn"
[ "$(wc -l < "$W/kw")" -ge 30 ] && [ "$(wc -l < "$W/fn")" -ge 20 ] &&
    pass "$(wc -l < "$W/kw") keywords in the lexer, $(wc -l < "$W/fn") built-in functions" ||
    fail "the keyword or function table was not found (lexer.re, sema/eval.c changed shape?)"

# same_set NAME FILE: FILE's words are exactly the expected list $W/NAME
same_set() {
    if cmp -s "$W/$1" "$2"; then
        pass "$3: the $1 list matches the code ($(wc -l < "$2"))"
    else
        fail "$3: the $1 list differs from the code: $(diff "$W/$1" "$2" | grep '^[<>]' | tr '\n' ' ')"
    fi
}
sed -n 's/^syn keyword jntKeyword //p' editors/jnt.vim | words > "$W/vim_kw"
sed -n 's/^syn keyword jntFunction //p' editors/jnt.vim | words > "$W/vim_fn"
same_set kw "$W/vim_kw" "vim"
same_set fn "$W/vim_fn" "vim"
G=editors/vscode/syntaxes/jnt.tmLanguage.json
tm() { python3 -c "import json, re, sys
m = json.load(open(sys.argv[1]))['repository'][sys.argv[2]]['patterns'][0]['match']
print(re.fullmatch(r'\\\\b\\(([a-z0-9_|]*)\\)\\\\b', m).group(1))" "$G" "$1" | words; }
tm keywords > "$W/tm_kw"
tm functions > "$W/tm_fn"
same_set kw "$W/tm_kw" "vscode"
same_set fn "$W/tm_fn" "vscode"
python3 -c "import json, sys; [json.load(open(f)) for f in sys.argv[1:]]" "$G" \
    editors/vscode/package.json editors/vscode/language-configuration.json 2> "$W/json" &&
    pass "vscode: the grammar and the package are valid JSON" || fail "vscode JSON: $(cat "$W/json")"

# docs/language.md's two keyword lists, together, are the lexer's keywords
awk '/^Always keywords:/ { on = 1 } on { print } on && /every`\.$/ { exit }' docs/language.md |
    tr '\n' ' ' | grep -o '`[^`]*`' | tr -d '`' | grep -v '[^a-z_ ]' | words > "$W/doc_kw"
same_set kw "$W/doc_kw" "docs/language.md"

# docs/laws.md names every law of the standard library (a law's section or
# table row shows its call, `name(` or `name`)
grep -ho '^law [a-z]* [a-z0-9_]*' stdlib/*.jnt | awk '{ print $3 }' | sort -u > "$W/laws"
: > "$W/undoc"
while read -r l; do
    grep -q "\`$l\\b\|\\b$l(" docs/laws.md || echo "$l" >> "$W/undoc"
done < "$W/laws"
[ -s "$W/laws" ] && [ ! -s "$W/undoc" ] &&
    pass "docs/laws.md names all $(wc -l < "$W/laws") laws of stdlib/" ||
    fail "docs/laws.md lacks the laws: $(tr '\n' ' ' < "$W/undoc")"
