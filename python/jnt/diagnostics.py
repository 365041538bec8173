"""The compiler's diagnostics as objects: CompileError.diagnostics.

libjnt writes each diagnostic to the compile options' FILE* as text
(compiler/front/diag.c):

    path:LINE:COL: error: message
      the source line
      ^ under the column
    path:LINE:COL: note: a note on the error above it
      ...

(`jnt: error: message`, without a location or a source line, when there is
no place to show). parse() reads that text back into Diagnostic objects,
each with its notes, and str() of one gives its text again, so the list of
a CompileError prints exactly what `jnt check` prints.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

__all__ = ["Diagnostic", "parse"]

_HEAD = re.compile(r"^(?:(?P<file>.+?):(?P<line>\d+):(?P<col>\d+)|jnt): "
                   r"(?P<sev>error|warning|note): (?P<msg>.*)$")
# a suggestion at the end of a message: "unknown name 'c'; did you mean 'a'?"
_SUGGEST = re.compile(r"[;,]?\s*\(?(did you mean .*\?)\)?\s*$")
_HINT = re.compile(r"^\s*hint: (.*)$")


@dataclass(frozen=True)
class Diagnostic:
    """One diagnostic of the compiler.

    file, line, column: where (line and column 1-based, the column counting
    bytes as the caret does); None when the diagnostic has no place (a file
    that cannot be read: "jnt: error: ...").
    severity: "error", "warning" or "note".
    message: the text after "error: ", as printed (with its suggestion).
    hint: the suggestion alone ("did you mean 'a'?", or a "hint:" line's
    text), None without one.
    source, caret: the source line and the caret line as printed (two
    leading spaces kept), "" without a place.
    extra: further lines printed with it ("hint: ..." lines), as printed.
    notes: the notes printed after it ("'k' was first defined here").
    str(d): the diagnostic's text, with its notes, as `jnt check` prints it.
    """

    file: Optional[str]
    line: Optional[int]
    column: Optional[int]
    severity: str
    message: str
    hint: Optional[str] = None
    source: str = ""
    caret: str = ""
    extra: Tuple[str, ...] = ()
    notes: Tuple["Diagnostic", ...] = field(default=())

    @property
    def location(self) -> str:
        """"file:line:col", or "" without a place."""
        return "" if self.file is None else "%s:%s:%s" % (self.file, self.line, self.column)

    def _own_lines(self) -> List[str]:
        head = "%s: %s: %s" % (self.location or "jnt", self.severity, self.message)
        out = [head]
        if self.source or self.caret:
            out += [self.source, self.caret]
        return out + list(self.extra)

    def __str__(self) -> str:
        lines = self._own_lines()
        for n in self.notes:
            lines += n._own_lines()
        return "\n".join(lines)


def parse(text: str) -> List[Diagnostic]:
    """The diagnostics in `text` (the compiler's output), each error or
    warning with the notes that follow it. Lines that fit no diagnostic
    stay with the one before (its .extra) or, before any, make an error
    without a place: nothing printed is lost."""
    items: List[dict] = []
    for raw in text.splitlines():
        m = _HEAD.match(raw)
        if m:
            msg = m.group("msg")
            s = _SUGGEST.search(msg)
            items.append({
                "file": m.group("file"),
                "line": int(m.group("line")) if m.group("line") else None,
                "column": int(m.group("col")) if m.group("col") else None,
                "severity": m.group("sev"), "message": msg,
                "hint": s.group(1) if s else None, "excerpt": [], "extra": []})
            continue
        if not items:
            if raw.strip():  # text before any diagnostic: an error without a place
                items.append({"file": None, "line": None, "column": None,
                              "severity": "error", "message": raw.strip(), "hint": None,
                              "excerpt": [], "extra": []})
            continue
        cur = items[-1]
        # a hint follows the caret (a source line that reads "hint: ..." is a source line)
        h = _HINT.match(raw) if len(cur["excerpt"]) == 2 or cur["file"] is None else None
        if h:
            cur["extra"].append(raw)
            cur["hint"] = h.group(1)
        elif cur["file"] is not None and raw.startswith("  ") and len(cur["excerpt"]) < 2 \
                and not cur["extra"]:
            cur["excerpt"].append(raw)
        else:  # a further line of the message, kept as printed
            cur["extra"].append(raw)
    out: List[Diagnostic] = []
    for it in items:
        ex = it["excerpt"] + [""] * (2 - len(it["excerpt"]))
        d = Diagnostic(it["file"], it["line"], it["column"], it["severity"], it["message"],
                       it["hint"], ex[0], ex[1], tuple(it["extra"]))
        if d.severity == "note" and out:
            last = out[-1]
            out[-1] = Diagnostic(last.file, last.line, last.column, last.severity,
                                 last.message, last.hint, last.source, last.caret,
                                 last.extra, last.notes + (d,))
        else:
            out.append(d)
    return out

