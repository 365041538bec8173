"""The Python API a scientist expects (issue 29 item 3): CompileError's
.diagnostics against a golden .err, RunError's partial .result, Result's
to_pandas() with units in df.attrs, the notebooks' _repr_html_ of a Result
and a Model, runs of one model on two threads equal to serial ones, and
the ctypes mirrors of libjnt's structures no larger than C writes.
Run by tests/run.sh with PYTHONPATH=python and JNT_LIB=$B/libjnt.so."""
import os
import subprocess
import sys

import jnt

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
BENCH = os.path.join(ROOT, "examples", "frdyn2_bench.jnt")


def test_settings_struct_not_overrun():
    # jnt_settings grew assemble_tol (abi.h) and _lib.Settings did not: every
    # run's jnt_get_settings wrote 8 bytes past the 80 of the Python object
    # (a crash at exit after two threads' runs); the debug allocator checks
    # the guard bytes after each block
    code = ("import jnt; m = jnt.compile(%r); m.run(t_end=0.005); "
            "m.simulation().advance(0.001); print('ok')" % BENCH)
    env = dict(os.environ, PYTHONMALLOC="debug")
    p = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0 and p.stdout.strip() == "ok", p.stderr[-2000:]


import ctypes
import html
import inspect
import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

ERRORS = os.path.join(ROOT, "tests", "errors")
# the .err's header lines, read here independently of the package's parser
HEAD = re.compile(r"^(.+?):(\d+):(\d+): (error|warning|note): (.*)$")


@pytest.fixture(scope="module")
def bench():
    return jnt.compile(BENCH)


def golden(name):
    with open(os.path.join(ERRORS, name + ".err")) as f:
        return f.read()


def compile_golden(name, monkeypatch):
    # relative to the root, as tests/run.sh compiles the goldens (their file:)
    monkeypatch.chdir(ROOT)
    with pytest.raises(jnt.CompileError) as e:
        jnt.compile("tests/errors/%s.jnt" % name)
    return e.value


def test_compile_error_diagnostics_match_golden(monkeypatch):
    e = compile_golden("sema_many_errors", monkeypatch)
    text = golden("sema_many_errors")
    assert str(e) == text.rstrip("\n")  # the caret text, as jnt check prints it
    want = [HEAD.match(ln).groups() for ln in text.splitlines() if HEAD.match(ln)]
    assert len(want) == 5
    got = [(d.file, str(d.line), str(d.column), d.severity, d.message) for d in e.diagnostics]
    assert got == want
    assert [d.hint for d in e.diagnostics] == [None, "did you mean 'a'?", None, None, None]
    d = e.diagnostics[0]
    assert (d.file, d.line, d.column) == ("tests/errors/sema_many_errors.jnt", 2, 11)
    assert d.message == "'+' needs operands of the same dimension, but they are m and s"
    assert d.source == "  param a = 1 m + 1 s" and d.caret == "  " + " " * 10 + "^"
    assert d.location == "tests/errors/sema_many_errors.jnt:2:11"
    assert "\n".join(str(x) for x in e.diagnostics) == str(e)
    assert e.errors == e.diagnostics and e.name == "JNT_ERR_MODEL"


def test_compile_error_notes(monkeypatch):
    # a note belongs to the error above it
    e = compile_golden("sema_redefinition", monkeypatch)
    assert str(e) == golden("sema_redefinition").rstrip("\n")
    (d,) = e.diagnostics
    assert (d.line, d.column, d.message) == (3, 7, "redefinition of 'k'")
    (n,) = d.notes
    assert (n.severity, n.line, n.column, n.message) == ("note", 2, 7,
                                                          "'k' was first defined here")
    assert n.source == "  param k = 1 N/m"


def test_compile_string_diagnostics():
    with pytest.raises(jnt.CompileError) as e:
        jnt.compile_string("model x\nbody b : point(mass = 1 kg) { dof x }\n"
                           "force f on b.x = 1 m\n", "bad.jnt")
    d, d2 = e.value.diagnostics
    assert (d.file, d.line, d.column, d.severity) == ("bad.jnt", 3, 18, "error")
    assert d.message == "a force must be in N, but this is in m" and d.hint is None
    assert (d2.line, d2.column, d2.message) == (1, 1, "the model has no 'simulate { ... }' "
                                                "block")


def test_compile_error_without_place(tmp_path):
    # a file that is not there: one error, no file:line:col
    with pytest.raises(jnt.CompileError) as e:
        jnt.compile(str(tmp_path / "missing.jnt"))
    (d,) = e.value.diagnostics
    assert d.file is None and d.line is None and d.severity == "error"
    assert "missing.jnt" in d.message and d.location == ""


def test_diagnostics_parse_every_golden():
    # every golden .err reads back into diagnostics that print it again
    # (225 diagnostics in 92 files when written; notes, '...' windows,
    # <stdlib> paths, 'too many errors')
    files = sorted(f for f in os.listdir(ERRORS) if f.endswith(".err"))
    assert len(files) > 50
    for f in files:
        with open(os.path.join(ERRORS, f)) as fh:
            text = fh.read()
        ds = jnt.diagnostics.parse(text)
        assert "\n".join(str(d) for d in ds) == text.rstrip("\n"), f
        heads = [HEAD.match(ln).groups() for ln in text.splitlines() if HEAD.match(ln)]
        flat = [x for d in ds for x in (d,) + d.notes if x.file is not None]
        assert [(x.file, str(x.line), str(x.column), x.severity, x.message)
                for x in flat] == heads, f


def test_run_error_keeps_partial_result():
    m = jnt.compile(os.path.join(ROOT, "tests", "cli", "diverge.jnt"))
    with pytest.raises(jnt.RunError) as e:
        m.run()
    err = e.value
    assert err.name == "JNT_ERR_NONFINITE"
    t_fail = float(re.match(r"t = ([0-9.e+-]+) s:", err.message).group(1))
    r = err.result
    assert isinstance(r, jnt.Result) and r.columns == ["t", "x"]
    # the rows on the 1 ms grid up to the failure, all finite, with the counters
    assert len(r) > 300 and r.t[-1] <= t_fail < r.t[-1] + 2e-3
    assert np.isfinite(r.data).all() and r.stats["steps"] >= len(r) - 1
    assert r.units == {"t": "s", "x": "m"}
    assert r.to_pandas()["x"].iloc[-1] == r["x"][-1]
    # docs/python.md's figures (docs/testing.md, "Numbers in the docs")
    print("MEASURE: python.diverge.rows %d" % len(r))
    print("MEASURE: python.diverge.t_last %.17g" % r.t[-1])


def test_to_pandas_with_units(bench):
    r = bench.run(ratio=0.5)
    df = r.to_pandas()
    assert list(df.columns) == r.columns and len(df) == len(r)
    assert np.array_equal(df.to_numpy(), r.data)
    assert df.attrs["units"] == {"t": "s", "u": "m", "v": "m/s", "F": "N", "F_R": "N"}
    assert df.attrs["stats"]["steps"] == r.stats["steps"] > 0
    di = r.to_pandas(index="t")
    assert list(di.columns) == ["u", "v", "F", "F_R"] and di.index.name == "t"
    assert np.array_equal(di.index.to_numpy(), r.t) and di.attrs["units"]["t"] == "s"
    with pytest.raises(KeyError, match="no output column 'time'"):
        r.to_pandas(index="time")


def test_to_pandas_without_pandas(bench, monkeypatch):
    r = bench.run()
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas now fails
    with pytest.raises(ImportError, match="needs pandas.*python3-pandas.*pip install pandas"):
        r.to_pandas()


def test_result_repr_html(bench):
    r = bench.run()
    h = r._repr_html_()
    assert h.startswith('<div class="jnt-result">') and h.endswith("</div>")
    for c, u in r.units.items():  # every column with its unit
        assert "<th>%s<br><small>%s</small></th>" % (c, html.escape(u)) in h
    assert "%d rows &times; 5 columns" % len(r) in h
    assert "t from 0 to %.6g s" % r.t[-1] in h
    assert "%d steps, %d rejected" % (r.stats["steps"], r.stats["rejected"]) in h
    # the first and last five rows, the rest elided
    assert h.count("<tr><td>") == 11 and h.count("<tr><td>&hellip;</td>") == 1
    assert "<td>%d</td><td>%.6g</td>" % (len(r) - 1, r.t[-1]) in h
    assert "<td>1</td><td>%.6g</td><td>%.6g</td>" % (r.t[1], r["u"][1]) in h
    short = jnt.Result(["t", "x<y"], np.array([[0.0, 1.0], [1.0, 2.5]]), {}, ["s", ""])
    hs = short._repr_html_()
    assert "&hellip;" not in hs and hs.count("<tr><td>") == 2 and "x&lt;y" in hs


def test_model_repr_html(bench):
    h = bench._repr_html_()
    assert h.startswith('<div class="jnt-model">')
    assert "<b>Model</b> frdyn2_bench" in h and "6 parameters, 5 outputs, 4 states" in h
    for p in bench.params:  # parameters with units and defaults
        assert "<tr><td>%s</td><td>%s</td><td>%.6g</td></tr>" % (
            p.name, html.escape(p.unit), p.default) in h
    assert "<tr><td>g</td><td>m/s^2</td><td>9.81</td></tr>" in h
    for o, u in zip(bench.outputs, bench.output_units):
        assert "<tr><td>%s</td><td>%s</td></tr>" % (o, u) in h
    assert "states: block.x, block.x.v, slide.z, slide.zd" in h
    m = jnt.compile(BENCH)
    m.close()
    assert "<i>closed</i>" in m._repr_html_()


def test_threads_pool_equal_serial(bench):
    # one compiled model, 8 runs on a pool of 2 threads: the rows and the
    # counters of each run equal the serial run's, bit for bit
    ratios = [0.5, 0.55, 0.6, 0.7, 0.8, 0.9, 0.95, 0.65]
    serial = [bench.run(ratio=q, tE="50 ms") for q in ratios]
    with ThreadPoolExecutor(2) as ex:
        par = list(ex.map(lambda q: bench.run(ratio=q, tE="50 ms"), ratios))
    for a, b in zip(serial, par):
        assert np.array_equal(a.data, b.data) and len(a) > 1000
        assert {k: v for k, v in a.stats.items() if k != "cpu_seconds"} == \
            {k: v for k, v in b.stats.items() if k != "cpu_seconds"}


def test_runs_release_the_gil():
    # the package loads libjnt with ctypes.CDLL (every call releases the
    # GIL), not PyDLL; while one thread runs a model, this one goes on
    L = jnt.model.lib()
    assert isinstance(L, ctypes.CDLL) and not isinstance(L, ctypes.PyDLL)
    m = jnt.compile(os.path.join(ROOT, "examples", "beam_mass_friction.jnt"))
    done = []
    th = threading.Thread(target=lambda: done.append(m.run(t_end=150)))
    t0 = last = time.perf_counter()
    gap, ticks = 0.0, 0
    th.start()
    while th.is_alive():
        now = time.perf_counter()
        gap, last, ticks = max(gap, now - last), now, ticks + 1
    wall = time.perf_counter() - t0
    th.join()
    assert len(done[0]) > 100000
    # the GIL held through the run would make one gap of its whole length
    assert wall > 0.05 and gap < 0.5 * wall and ticks > 100, (wall, gap, ticks)


def _public(obj):
    for name, f in vars(obj).items():
        if name.startswith("_"):
            continue
        if isinstance(f, property):
            yield name, f.fget
        elif inspect.isfunction(f):
            yield name, f


def test_type_hints_and_docstrings():
    # every public function and method of the package says what it takes
    # and gives (annotations) and what it does (a docstring)
    missing = []
    mods = [(m.__name__ + "." + n, f) for m in (jnt.options, jnt.diagnostics, jnt.result)
            for n, f in vars(m).items()
            if not n.startswith("_") and inspect.isfunction(f) and f.__module__ == m.__name__]
    for name, obj in [(n, getattr(jnt, n)) for n in jnt.__all__] + mods:
        if inspect.isfunction(obj):
            items = [(name, obj)]
        else:
            items = [("%s.%s" % (name, n), f) for n, f in _public(obj)]
            if not (obj.__doc__ or "").strip():
                missing.append(name + " (no docstring)")
        for qual, f in items:
            if not (f.__doc__ or "").strip():
                missing.append(qual + " (no docstring)")
            if "return" not in f.__annotations__:
                missing.append(qual + " (no return type)")
            sig = inspect.signature(f)
            for p in sig.parameters.values():
                if p.name != "self" and p.annotation is inspect.Parameter.empty:
                    missing.append("%s(%s) (no type)" % (qual, p.name))
    assert not missing, missing


def test_diagnostics_hint_lines_and_warnings():
    # the forms the compiler may print beside the goldens': a 'hint:' line
    # under the caret, a warning, an error without a place, a further line
    text = ("m.jnt:2:5: warning: 'x' is never used\n  let x = 1\n      ^\n"
            "m.jnt:4:1: error: unknown law 'lugr'\n  law = lugr()\n  ^\n"
            "  hint: the laws of import friction are listed in docs/laws.md\n"
            "jnt: error: too many errors, stopping\n")
    w, e, cap = jnt.diagnostics.parse(text)
    assert (w.severity, w.line, w.column, w.hint) == ("warning", 2, 5, None)
    assert (e.severity, e.line, e.message) == \
        ("error", 4, "unknown law 'lugr'")
    assert e.hint == "the laws of import friction are listed in docs/laws.md"
    assert (cap.file, cap.message) == (None, "too many errors, stopping")
    assert "\n".join(str(d) for d in (w, e, cap)) == text.rstrip("\n")
    err = jnt.CompileError(-3, text.rstrip("\n"))
    assert [d.severity for d in err.errors] == ["error", "error"]


def test_errors_pickle(monkeypatch):
    # an error raised in a ProcessPoolExecutor's worker comes back pickled:
    # CompileError.__init__'s arguments made unpickling fail (TypeError)
    import pickle
    e = compile_golden("sema_many_errors", monkeypatch)
    e2 = pickle.loads(pickle.dumps(e))
    assert type(e2) is jnt.CompileError and str(e2) == str(e)
    assert e2.diagnostics == e.diagnostics and (e2.status, e2.name) == (e.status, e.name)
    m = jnt.compile(os.path.join(ROOT, "tests", "cli", "diverge.jnt"))
    with pytest.raises(jnt.RunError) as r:
        m.run()
    r2 = pickle.loads(pickle.dumps(r.value))
    assert r2.name == "JNT_ERR_NONFINITE" and np.array_equal(r2.result.data, r.value.result.data)
    u = pickle.loads(pickle.dumps(jnt.UsageError(-2, "x")))
    assert isinstance(u, ValueError) and u.message == "x"


def test_ctypes_mirrors_match_the_headers(tmp_path):
    # every structure _lib.py mirrors has the size and field offsets of its
    # C definition (jnt.h, abi.h, setup.h), measured by a C program built
    # here: _lib.Settings lacked assemble_tol, and the library wrote past it
    import shutil
    from jnt import _lib
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler")
    pairs = [(_lib.Stats, "jnt_stats"), (_lib.RunOpts, "jnt_run_opts"),
             (_lib.Settings, "jnt_settings"), (_lib.CompileOpts, "jnt_compile_opts")]
    lines = ['#include <stddef.h>', '#include <stdio.h>', '#include "jnt/jnt.h"',
             '#include "jnt/abi.h"', '#include "jnt/setup.h"', "int main(void) {",
             '    printf("jnt_dim %zu\\n", sizeof(jnt_dim));']
    for cls, c in pairs:
        lines.append('    printf("%s %%zu\\n", sizeof(%s));' % (c, c))
        for name, _ in cls._fields_:
            lines.append('    printf("%s.%s %%zu\\n", offsetof(%s, %s));' % (c, name, c, name))
    lines += ["    return 0;", "}"]
    src = tmp_path / "sizes.c"
    src.write_text("\n".join(lines) + "\n")
    exe = tmp_path / "sizes"
    subprocess.run([cc, "-std=c11", "-I", os.path.join(ROOT, "runtime", "include"), str(src),
                    "-o", str(exe)], check=True, capture_output=True)
    c_sizes = dict(ln.split() for ln in
                   subprocess.run([str(exe)], capture_output=True, text=True).stdout.splitlines())
    py = {"jnt_dim": ctypes.sizeof(_lib.Dim)}
    for cls, c in pairs:
        py[c] = ctypes.sizeof(cls)
        for name, _ in cls._fields_:
            py["%s.%s" % (c, name)] = getattr(cls, name).offset
    assert {k: int(v) for k, v in c_sizes.items()} == py


def test_compile_warnings():
    # a model that compiles with a warning (lap_joint's jtv(count = 20) gives
    # 17 vectors): Model.warnings and a CompileWarning, not dropped
    with pytest.warns(jnt.CompileWarning) as rec:
        m = jnt.compile(os.path.join(ROOT, "examples", "lap_joint.jnt"))
    (d,) = m.warnings
    assert (d.severity, d.line, d.column) == ("warning", 64, 53)
    assert d.file.endswith("examples/lap_joint.jnt")
    assert d.message.startswith("jtv gives 17 vectors, not 20")
    assert [r.message.diagnostic for r in rec if r.category is jnt.CompileWarning] == [d]
    assert str(rec[0].message) == str(d) and "warning: jtv gives 17" in m._repr_html_()
    assert jnt.compile(BENCH).warnings == []
