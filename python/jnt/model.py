"""Compiled models, runs and step-by-step simulations over libjnt.

A Model is compiled once (jnt_compile_*) and never changes; each run or
Simulation owns its own data object (jnt_data), so many may run at once from
Python threads (ctypes releases the GIL inside every C call). Options are
checked as `jnt run` checks them (options.py); a closed Model or Simulation
says so; a Simulation is used by one thread at a time.
"""
from __future__ import annotations

import contextlib
import ctypes
import html
import math
import os
import shutil
import tempfile
import threading
import warnings
from collections.abc import Mapping
from typing import Any, Dict, List, Optional, Sequence, Type, Union

import numpy as np

from . import _lib
from . import options as _opt
from .diagnostics import Diagnostic, parse as _parse_diagnostics
from .result import Result, html_table as _html_table, number as _number

# what the options take (docs/python.md, "Options, limits and errors")
Time = Union[float, str]          # seconds, or text with a unit: "0.3 ms"
Value = Union[float, str]         # a parameter: SI units, or text with a unit
PathLike = Union[str, bytes, "os.PathLike[str]"]

_lock = threading.Lock()
_state = {}

# status codes of jnt.h used here
JNT_STOPPED, JNT_ERR_USAGE, JNT_ERR_PARAM = 1, -2, -5


def lib() -> Any:
    """libjnt (a ctypes.CDLL: every call releases the GIL), loaded once."""
    with _lock:
        if "lib" not in _state:
            _state["lib"] = _lib.load()
            _state["libc"] = _lib.libc()
        return _state["lib"]


def version() -> str:
    """The version of the loaded libjnt ("0.2.0")."""
    return lib().jnt_version().decode()


class Error(Exception):
    """A failure of libjnt: .status (the C status code), .name (its name,
    "JNT_ERR_HMIN") and the message, which for a model error holds the
    compiler's diagnostics with file:line:col."""

    def __init__(self, status: int, message: str) -> None:
        self.status = status
        self.name = lib().jnt_status_name(status).decode()
        self.message = message
        super().__init__(message)

    def __reduce__(self) -> Any:
        # pickled with its fields (status, name, message, diagnostics,
        # result), so that an error raised in a ProcessPoolExecutor's
        # worker reaches the caller whole
        return (_restore_error, (type(self), self.message, dict(self.__dict__)))


def _restore_error(cls: Type[Error], message: str, fields: Dict[str, Any]) -> Error:
    """An Error unpickled: its fields set as they were, without libjnt."""
    e = cls.__new__(cls)
    Exception.__init__(e, message)
    e.__dict__.update(fields)
    return e


class CompileError(Error):
    """The model has errors. str(e) and .message: the compiler's text, as
    `jnt check` prints it (file:line:col: error: message, the source line,
    a caret); .diagnostics: the same as a list of Diagnostic (file, line,
    column, severity, message, hint, source, caret, notes), errors and
    warnings in the order printed, each with its notes."""

    def __init__(self, status: int, message: str,
                 diagnostics: Optional[Sequence[Diagnostic]] = None) -> None:
        super().__init__(status, message)
        self.diagnostics: List[Diagnostic] = list(
            _parse_diagnostics(message) if diagnostics is None else diagnostics)

    @property
    def errors(self) -> List[Diagnostic]:
        """The diagnostics of severity "error"."""
        return [d for d in self.diagnostics if d.severity == "error"]


class RunError(Error):
    """A run failed: .message names the time and the state (as jnt run
    prints it); .result holds the rows written before the failure."""

    def __init__(self, status: int, message: str, result: Optional[Result] = None) -> None:
        super().__init__(status, message)
        self.result: Optional[Result] = result


class UsageError(Error, ValueError):
    """A call that `jnt run` refuses as a usage error (exit status 2): an
    unknown parameter or a bad value for one (JNT_ERR_PARAM), an unknown
    integrator, a time not after the state's, a closed Model or Simulation
    (JNT_ERR_USAGE). Also a ValueError, as is every bad option value."""


class BusyError(Error, RuntimeError):
    """A Simulation used by a second thread while another one uses it: a
    Simulation is not thread-safe (give each thread its own)."""


class Param:
    """A model parameter: name, unit (SI, "" when dimensionless), default (SI)."""

    def __init__(self, name: str, unit: str, default: float) -> None:
        self.name, self.unit, self.default = name, unit, default

    def __repr__(self) -> str:
        return "Param(%r, %r, %r)" % (self.name, self.unit, self.default)


def _stats(st):
    return {name: getattr(st, name) for name, _ in _lib.Stats._fields_}


def _diag_call(fn):
    """Call fn(opts) with the compiler's diagnostics captured; returns
    (status, text)."""
    libc = _state["libc"]
    f = libc.tmpfile()
    if not f:
        raise OSError("cannot create a temporary file for the diagnostics")
    try:
        opts = _lib.CompileOpts(diag=f, max_errors=0)
        rc = fn(ctypes.byref(opts))
        libc.fflush(f)
        libc.rewind(f)
        chunks = []
        buf = ctypes.create_string_buffer(65536)
        while True:
            n = libc.fread(buf, 1, len(buf), f)
            if n == 0:
                break
            chunks.append(buf.raw[:n])
        return rc, b"".join(chunks).decode(errors="replace")
    finally:
        libc.fclose(f)


class CompileWarning(UserWarning):
    """A warning of the compiler on a model that compiled: .diagnostic (a
    Diagnostic: file, line, column, message, hint); str() its text."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(str(diagnostic))
        self.diagnostic = diagnostic

    def __reduce__(self) -> Any:
        return (CompileWarning, (self.diagnostic,))


def _with_warnings(model: "Model", text: str) -> "Model":
    """model with .warnings, the diagnostics printed while it compiled
    (the compiler's warnings), each also issued as a CompileWarning (shown
    as `jnt check` would print it; the warnings module's filters apply)."""
    model.warnings = _parse_diagnostics(text)
    for d in model.warnings:
        warnings.warn(CompileWarning(d), stacklevel=3)
    return model


def compile(path: PathLike) -> "Model":
    """Compile a .jnt file into a Model; raises CompileError with the
    diagnostics (file:line:col: error: ...; e.diagnostics lists them) when
    it has errors."""
    L = lib()
    p = _opt.path("the model's path", path)
    handle = ctypes.c_void_p()
    rc, text = _diag_call(lambda o: L.jnt_compile_file(p, o, ctypes.byref(handle)))
    if rc != 0:
        raise CompileError(rc, text.strip() or L.jnt_status_message(rc).decode())
    return _with_warnings(Model(handle, path), text)


def compile_string(text: str, name: str = "model.jnt") -> "Model":
    """Compile model text; `name` is the file name its diagnostics show
    (imports of files are found relative to the current directory).
    CompileError as compile()."""
    L = lib()
    t = _opt.text("the model's text", text)
    n = _opt.text("the model's name", name)
    handle = ctypes.c_void_p()
    rc, diag = _diag_call(lambda o: L.jnt_compile_string(n, t, o, ctypes.byref(handle)))
    if rc != 0:
        raise CompileError(rc, diag.strip() or L.jnt_status_message(rc).decode())
    return _with_warnings(Model(handle, name), diag)


class Model:
    """A compiled model: .name, .params (Param list), .outputs (column
    names), .output_units (their SI units, "" when dimensionless), .states;
    run() simulates, simulation() steps. close() (or a with block) frees it:
    later runs raise UsageError; simulations made before go on, and the
    model's memory goes with the last of them."""

    def __init__(self, handle: ctypes.c_void_p, source: Any) -> None:
        L = lib()
        self._h = handle
        self._guard = threading.Lock()
        self._users = 0  # runs and simulations using _h now
        self._closed = False
        self.source = source
        self.warnings: List[Diagnostic] = []  # the compiler's (compile() sets them)
        self.name: str = L.jnt_model_name(handle).decode()
        self.outputs: List[str] = [L.jnt_output_name(handle, i).decode()
                        for i in range(L.jnt_output_count(handle))]
        self.states: List[str] = [L.jnt_state_name(handle, i).decode()
                       for i in range(L.jnt_state_count(handle))]
        d = L.jnt_data_new(handle)
        if not d:
            raise MemoryError("out of memory (jnt_data_new)")
        unit = ctypes.create_string_buffer(96)
        self.output_units: List[str] = []
        for i in range(len(self.outputs)):
            L.jnt_output_unit(handle, i, unit, len(unit))
            self.output_units.append(unit.value.decode())
        self.params: List[Param] = []
        for i in range(L.jnt_param_count(handle)):
            L.jnt_param_unit(handle, i, unit, len(unit))
            self.params.append(Param(L.jnt_param_name(handle, i).decode(), unit.value.decode(),
                                     L.jnt_get_param(handle, d, i)))
        L.jnt_data_free(d)

    def _acquire(self):
        """Count a user of the C model; UsageError once closed."""
        with self._guard:
            if self._closed or not self._h:
                raise UsageError(JNT_ERR_USAGE, "model '%s' is closed" % self.name)
            self._users += 1

    def _release(self):
        with self._guard:
            self._users -= 1
            last = self._closed and self._users == 0
        if last:
            self._free()

    def _free(self):
        h, self._h = self._h, None
        if h and _state.get("lib"):
            _state["lib"].jnt_model_free(h)

    def close(self) -> None:
        """Free the compiled model (at once, or when the last run or
        Simulation using it ends). Closing twice does nothing."""
        with self._guard:
            if self._closed:
                return
            self._closed = True
            now = self._users == 0
        if now:
            self._free()

    def __enter__(self) -> "Model":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self):
        if getattr(self, "_guard", None) is not None:
            self.close()

    def __repr__(self) -> str:
        return "Model(%r: params %s; outputs %s)%s" % (
            self.name, ", ".join(p.name for p in self.params), ", ".join(self.outputs),
            " (closed)" if self._closed else "")

    # states a notebook lists before "... and N more"
    HTML_STATES = 60

    def _repr_html_(self) -> str:
        """The notebook's view: the name and file, the parameters with
        their SI units and defaults, the outputs with their units, the
        states."""
        e = html.escape
        src = self.source.decode(errors="replace") if isinstance(self.source, bytes) \
            else str(self.source)
        head = "<p><b>Model</b> %s (%s)%s: %d parameters, %d outputs, %d states</p>" % (
            e(self.name), e(src), " <i>closed</i>" if self._closed else "",
            len(self.params), len(self.outputs), len(self.states))
        params = _html_table(["parameter", "unit", "default"],
                             [(p.name, p.unit, _number(p.default)) for p in self.params])
        outs = _html_table(["output", "unit"], list(zip(self.outputs, self.output_units)))
        st = self.states[:self.HTML_STATES]
        more = len(self.states) - len(st)
        states = "<p>states: %s%s</p>" % (
            e(", ".join(st)) or "none", " &hellip; and %d more" % more if more else "")
        warned = "".join("<p>%s %s</p>" % (e(d.location), e("%s: %s" % (d.severity, d.message)))
                         for d in self.warnings)
        return '<div class="jnt-model">%s%s%s%s%s</div>' % (head, warned, params, outs, states)

    def _data(self, params):
        """A new data object with params set (numbers in SI units, or text
        with a unit: "0.3 ms")."""
        L = lib()
        d = L.jnt_data_new(self._h)
        if not d:
            raise MemoryError("out of memory (jnt_data_new)")
        try:
            _set_params(self, d, params)
        except BaseException:
            L.jnt_data_free(d)
            raise
        return d

    def run(self, t_end: Optional[Time] = None, integrator: Optional[str] = None,
            h: Optional[Time] = None, rtol: Optional[Value] = None,
            atol: Optional[Value] = None, csv: Optional[PathLike] = None,
            params: Optional[Mapping[str, Value]] = None,
            max_output: Optional[Union[float, str]] = None, **kw: Value) -> Result:
        """Simulate from t0 and return a Result. Parameters by keyword
        (m.run(tE=0.3e-3) or m.run(tE="0.3 ms")) or in params={...} (for
        names that are also options). t_end, integrator, h, rtol, atol
        override the model's simulate block (h, rtol, atol as jnt run's
        --h, --rtol, --atol: > 0, text with a unit allowed); csv also writes
        the rows to a file (.csv, .npy, .mat); max_output bounds the rows
        (bytes, "2G", "none"; default 1 GiB, as --max-output). Raises
        ValueError or TypeError (UsageError from libjnt) for what jnt run
        refuses, RunError on a failed run (its .result: the rows written
        before the failure). The C run releases the GIL: runs of one model
        on several threads proceed in parallel."""
        L = lib()
        o = _opts(integrator, h, rtol, atol, csv)
        te = None if t_end is None else _opt.time_value(L, "t_end", t_end)
        limit = _opt.max_output(max_output)
        if params is not None and not isinstance(params, Mapping):
            raise TypeError("params must be a dict of name: value, not %s"
                            % type(params).__name__)
        all_params = dict(params or {})
        all_params.update(kw)
        self._acquire()
        try:
            d = self._data(all_params)
            try:
                if max_output is not None:  # the file's limit too (jnt_run checks it)
                    L.jnt_set_max_output(d, -1.0 if math.isinf(limit) else limit)
                if te is not None:
                    s = _settings(self, d)
                    if s and not te > s.t0 or te == 0:
                        raise UsageError(JNT_ERR_USAGE, "option 't_end' must be after the "
                                         "start time (%g s), got %r" % (s.t0 if s else 0, t_end))
                    o.t_end = te
                return _collect(self, d, L.jnt_run, (), o, limit)
            finally:
                L.jnt_data_free(d)
        finally:
            self._release()

    def simulation(self, **params: Value) -> "Simulation":
        """A Simulation at the initial state, for step-by-step runs."""
        return Simulation(self, params)

    def analyses(self, **params: Value) -> Dict[str, Result]:
        """Run the analyses the model declares (linear, hysteresis, modes,
        complex_modes, kinematic) and return {table name: Result} of the tables they
        write (NAME.csv, NAME_cycles.csv, ...)."""
        L = lib()
        self._acquire()
        try:
            d = self._data(params)
            tmp = tempfile.mkdtemp(prefix="jnt-analyses-")
            try:
                rc = L.jnt_run_analyses(self._h, d, tmp.encode())
                if rc != 0:
                    raise _failure(rc, L.jnt_data_error(d).decode())
                out = {}
                for f in sorted(os.listdir(tmp)):
                    if f.endswith(".csv"):
                        out[f[:-4]] = read_csv(os.path.join(tmp, f))
                return out
            finally:
                L.jnt_data_free(d)
                shutil.rmtree(tmp, ignore_errors=True)
        finally:
            self._release()


def _failure(rc, message, result=None):
    """The exception of a failed C call: UsageError for JNT_ERR_USAGE (jnt
    run's exit status 2), else RunError."""
    if rc == JNT_ERR_USAGE:
        return UsageError(rc, message or lib().jnt_status_message(rc).decode())
    return RunError(rc, message or lib().jnt_status_message(rc).decode(), result)


def _set_params(model, d, params):
    L = lib()
    for name, value in params.items():
        _opt.param_name(name)
        text, number = _opt.param_value(name, value)
        if text is not None:
            rc = L.jnt_set_param_text(model._h, d, ("%s=%s" % (name, text)).encode())
        else:
            rc = L.jnt_set_param(model._h, d, name.encode(), number)
        if rc != 0:
            raise UsageError(rc, L.jnt_data_error(d).decode() or
                             "unknown parameter '%s' (parameters: %s)"
                             % (name, ", ".join(p.name for p in model.params)))


def _opts(integrator=None, h=None, rtol=None, atol=None, csv=None):
    """jnt_run_opts from checked options (options.py): ValueError or
    TypeError for what jnt run refuses."""
    L = lib()
    o = _lib.RunOpts()
    o.integrator = _opt.integrator(integrator)
    o.h = _opt.positive(L, "h", h, True)
    o.rtol = _opt.positive(L, "rtol", rtol, False)
    o.atol = _opt.positive(L, "atol", atol, False)
    o.csv_path = _opt.path("option 'csv'", csv) if csv else b""
    o.t_end = 0.0
    return o


def _settings(model, d):
    """The run's jnt_settings with d's parameters, or None when the
    settings kernel fails (the run then reports it)."""
    s = _lib.Settings()
    return s if lib().jnt_get_settings(model._h, d, ctypes.byref(s)) == 0 else None


def _limit_hint(nbytes):
    return "max_output='%dG', or 'none'" % max(1, math.ceil(nbytes / 1073741824.0))


def _check_rows(model, s, o, t_from, t_to, limit, kept=0):
    """RunError (JNT_ERR_PARAM) before a run whose rows in memory, with
    `kept` rows already held, would pass `limit` bytes: the estimate of
    jnt_run's output guard (run.c, check_output), rows = (t_to - t_from) /
    every + 1 of 8 bytes a column, every the output interval or, for a
    model that writes every step, the step h."""
    if s is None or math.isinf(limit):
        return
    ncol = len(model.outputs)
    every = s.out_every if s.out_every > 0 else (o.h if o.h > 0 else s.h)
    if not (every > 0 and math.isfinite(t_from) and math.isfinite(t_to)) or \
            t_from + every == t_from or t_to + every == t_to:
        return  # nothing to estimate, or an interval jnt_run refuses itself
    rows = (t_to - t_from) / every + 1
    nbytes = (rows + kept) * ncol * 8
    if not rows > 0 or nbytes <= limit:
        return
    held = " (%d held in the simulation's history, %.0f more from this call)" % (kept, rows) \
        if kept else ""
    raise RunError(JNT_ERR_PARAM, "the output would be about %.3g GB in memory (%.0f rows of %d "
                   "columns%s, one every %g s from %g s to %g s), more than the limit of %.3g GB: "
                   "write fewer rows (a longer 'every' in the model's output, or a parameter it "
                   "uses), or raise the limit (%s)"
                   % (nbytes / 1e9, rows + kept, ncol, held, every, t_from, t_to, limit / 1e9,
                      _limit_hint(nbytes)),
                   Result(model.outputs, np.empty((0, ncol)), {}, model.output_units))


def _over_limit(model, n, limit, t_from, t_to, result):
    """RunError for a run writing every step whose rows, counted as they
    came, passed the limit."""
    ncol = len(model.outputs)
    return RunError(JNT_ERR_PARAM, "the output passed the limit of %.3g GB in memory at %d rows "
                    "of %d columns (the model writes a row every step, from %g s to %g s): write "
                    "fewer rows (an 'every' in the model's output), or raise the limit (%s)"
                    % (limit / 1e9, n, ncol, t_from, t_to, _limit_hint(n * ncol * 8)), result)


def _capacity(model, s, t_from, t_to, limit):
    """Rows a run from t_from to t_to writes at most (its output grid; not
    above what `limit` bytes hold, a larger run being refused before), or a
    first guess for a model that writes every step."""
    if s is None or not (s.out_every > 0 and t_to > t_from):
        return 4096
    if t_from + s.out_every == t_from or t_to + s.out_every == t_to:
        return 1  # an interval jnt_run refuses
    rows = math.ceil((t_to - t_from) / s.out_every) + 3
    return int(min(rows, limit / (max(len(model.outputs), 1) * 8) + 3))


def _collect(model, d, call, args, o, limit):
    """Run call(model, d, *args, opts) from t0 with the rows into a numpy
    buffer of at most `limit` bytes; runs again with a buffer of the right
    size when the first was short (only models that write every step: the
    grid's count is known)."""
    L = lib()
    ncol = len(model.outputs)
    s = _settings(model, d)
    t_from = s.t0 if s else 0.0
    t_to = o.t_end if o.t_end else (s.t_end if s else 0.0)
    _check_rows(model, s, o, t_from, t_to, limit)
    cap = _capacity(model, s, t_from, t_to, limit)
    while True:
        buf = np.empty((cap, max(ncol, 1)))
        n = ctypes.c_long(0)
        o.rows = buf.ctypes.data_as(_lib.c_double_p)
        o.rows_cap = cap
        o.rows_n = ctypes.pointer(n)
        rc = call(model._h, d, *args, ctypes.byref(o))
        if n.value <= cap:
            break
        if n.value * ncol * 8 > limit:
            raise _over_limit(model, n.value, limit, t_from, t_to,
                              Result(model.outputs, np.empty((0, ncol)), {}, model.output_units))
        cap = n.value + 1
    stats = _stats(L.jnt_data_stats(d).contents)
    res = Result(model.outputs, buf[:n.value, :ncol].copy(), stats, model.output_units)
    if rc != 0:
        raise _failure(rc, L.jnt_data_error(d).decode(), res)
    return res


def read_csv(path: Union[str, "os.PathLike[str]"]) -> Result:
    """A jnt output or analysis CSV as a Result: the header line of names,
    the units of a '# units:' line after it (docs/cli.md, "Output files"),
    comment lines skipped."""
    units = None
    with open(path) as f:
        cols = f.readline().strip().split(",")
        second = f.readline()
        if second.startswith("# units:"):
            units = [u.strip() for u in second[len("# units:"):].strip("\r\n").split(",")]
            if len(units) != len(cols):
                units = None
    data = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2, comments="#")
    return Result(cols, data.reshape(-1, len(cols)), {}, units)


JNT_PROJECTED = 2  # jnt_assemble moved a value set (jnt.h)


class StateProjectedWarning(UserWarning):
    """A state set between steps of a multibody model was moved onto the
    joints (jnt_assemble): .moved maps each such state's name to (the value
    before, the value set, the value now)."""

    def __init__(self, message, moved):
        super().__init__(message)
        self.moved = moved


class Simulation:
    """A model's state advanced step by step (the C API's jnt_step and
    jnt_advance): sim.step(), sim.advance(t), sim.t, sim.state (continuous
    then discrete states, settable), sim["name"] (one state, settable),
    sim.set(name=value) (parameters between steps), sim.history (a Result
    of every row so far, one per output time). Not thread-safe: a second
    thread using it while one does gets BusyError. close() (or a with
    block) frees it; later uses raise UsageError, the history stays."""

    def __init__(self, model: Model, params: Mapping[str, Value]) -> None:
        L = lib()
        self.model = model
        self._d = None
        self._busy = threading.Lock()
        self._rows: List[np.ndarray] = []
        self._nrows = 0
        self._set_since: Dict[int, Any] = {}  # state index: (before, set) since the last step
        self._final_stats: Dict[str, Any] = {}
        self._limit = _opt.DEFAULT_MAX_OUTPUT
        self._opts = (None, 0.0, 0.0, 0.0)  # integrator, h, rtol, atol, checked
        model._acquire()
        try:
            d = model._data(params)
            rc = L.jnt_init_state(model._h, d)
            if rc != 0:
                msg = L.jnt_data_error(d).decode()
                L.jnt_data_free(d)
                raise _failure(rc, msg)
        except BaseException:
            model._release()
            raise
        self._d = d
        s = _settings(model, d)
        self.every = s.out_every if s else 0.0
        self.t_end = s.t_end if s else math.nan

    @contextlib.contextmanager
    def _use(self):
        """Hold the simulation for one call: BusyError when another thread
        holds it, UsageError when it is closed."""
        if not self._busy.acquire(blocking=False):
            raise BusyError(JNT_ERR_USAGE, "a Simulation is not thread-safe: this one is in use "
                            "by another thread (give each thread its own Simulation, or hold a "
                            "lock of yours around each call)")
        try:
            if not self._d:
                raise UsageError(JNT_ERR_USAGE, "simulation of model '%s' is closed"
                                 % self.model.name)
            yield self._d
        finally:
            self._busy.release()

    def close(self) -> None:
        """Free the simulation's data (its history stays readable); the
        model is freed with it when it was closed. Closing twice does
        nothing."""
        if not getattr(self, "_d", None):
            return
        with self._use() as d:
            self._final_stats = _stats(lib().jnt_data_stats(d).contents)
            self._d = None
            lib().jnt_data_free(d)
        self.model._release()

    def __enter__(self) -> "Simulation":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self):
        if getattr(self, "_d", None) and _state.get("lib"):
            self.close()

    def configure(self, integrator: Optional[str] = None, h: Optional[Time] = None,
                  rtol: Optional[Value] = None, atol: Optional[Value] = None,
                  max_output: Optional[Union[float, str]] = None) -> None:
        """The integrator and its settings for the following steps (as
        Model.run's options; max_output bounds the history and each call's
        rows, default 1 GiB)."""
        with self._use():
            o = _opts(integrator=integrator, h=h, rtol=rtol, atol=atol)
            self._limit = _opt.max_output(max_output)
            self._opts = (o.integrator, o.h, o.rtol, o.atol)

    def _go(self, d, fn, args, t_to):
        L = lib()
        m = self.model
        self._set_since = {}  # the step starts from them (jnt_advance assembles)
        o = _lib.RunOpts()
        o.integrator, o.h, o.rtol, o.atol = self._opts
        o.csv_path = b""
        ncol = len(m.outputs)
        t_from = L.jnt_time(d)
        s = _settings(m, d)
        self.every = s.out_every if s else 0.0
        _check_rows(m, s, o, t_from, t_to, self._limit, self._nrows)
        box = {}
        if self.every > 0:
            cap = _capacity(m, s, t_from, t_to, self._limit)
            buf = np.empty((cap, max(ncol, 1)))
            n = ctypes.c_long(0)
            o.rows, o.rows_cap = buf.ctypes.data_as(_lib.c_double_p), cap
            o.rows_n = ctypes.pointer(n)
            rc = fn(m._h, d, *args, ctypes.byref(o))
            rows = buf[:min(n.value, cap), :ncol].copy()
        else:  # every step: rows through the callback, counted against the limit
            got = []
            room = self._limit / (max(ncol, 1) * 8) - self._nrows

            def on_row(ctx, row, k):
                try:
                    if len(got) + 1 > room:
                        box["over"] = True
                        return 1
                    got.append(row[:k])
                    return 0
                except BaseException as e:  # never through C: kept, raised below
                    box["exc"] = e
                    return 1
            o.on_row = _lib.ROW_CALLBACK(on_row)
            rc = fn(m._h, d, *args, ctypes.byref(o))
            rows = np.array(got, dtype=float).reshape(len(got), ncol)
        if len(rows):
            self._rows.append(rows)
            self._nrows += len(rows)
        if "exc" in box:
            raise box["exc"]
        if box.get("over"):
            raise _over_limit(m, self._nrows + 1, self._limit, t_from, t_to, self._history(d))
        if rc != 0:
            err = _failure(rc, L.jnt_data_error(d).decode(), self._history(d))
            raise err
        return rows

    def step(self, n: int = 1) -> np.ndarray:
        """Advance n output intervals (the model's 'every'); returns the
        rows written (numpy, one per output time)."""
        if isinstance(n, bool) or not isinstance(n, int):
            raise TypeError("step(n) needs a whole number of intervals, not %s"
                            % type(n).__name__)
        if n < 0:
            raise ValueError("step(n) needs n >= 0, got %d" % n)
        with self._use() as d:
            out = []
            for _ in range(n):
                s = _settings(self.model, d)
                if not (s and s.out_every > 0):
                    raise UsageError(JNT_ERR_USAGE, "the model writes a row every step (no "
                                     "'every'): use advance(t)")
                out.append(self._go(d, lib().jnt_step, (), lib().jnt_time(d) + 1.5 * s.out_every))
            return np.concatenate(out) if out else np.empty((0, len(self.model.outputs)))

    def advance(self, t: Time) -> np.ndarray:
        """Advance to time t (s, or text with a unit); returns the rows written."""
        to = _opt.time_value(lib(), "t", t)
        with self._use() as d:
            return self._go(d, lib().jnt_advance, (ctypes.c_double(to),), to)

    @property
    def t(self) -> float:
        """The simulation's time (s)."""
        with self._use() as d:
            return lib().jnt_time(d)

    def _get_state(self, d):
        buf = np.empty(len(self.model.states))
        rc = lib().jnt_get_full_state(self.model._h, d, buf.ctypes.data_as(_lib.c_double_p))
        if rc != 0:
            raise _failure(rc, lib().jnt_data_error(d).decode())
        return buf

    def _set_state(self, d, values):
        v = np.ascontiguousarray(values, dtype=float)
        if v.shape != (len(self.model.states),):
            raise ValueError("state needs %d values (%s)"
                             % (len(self.model.states), ", ".join(self.model.states)))
        L = lib()
        old = self._get_state(d)
        rc = L.jnt_set_full_state(self.model._h, d, L.jnt_time(d),
                                  v.ctypes.data_as(_lib.c_double_p))
        if rc != 0:
            raise _failure(rc, L.jnt_data_error(d).decode())
        for i in np.flatnonzero(v != old):
            self._set_since.setdefault(int(i), (float(old[i]), float(v[i])))
            self._set_since[int(i)] = (self._set_since[int(i)][0], float(v[i]))
        self._assemble(d)

    def _assemble(self, d, stacklevel=4):
        """jnt_assemble: a multibody state onto its joints, the values set
        since the last step pinned where they fit; warns
        (StateProjectedWarning) naming those that moved; returns them
        {name: (before, set, now)}."""
        L = lib()
        rc = L.jnt_assemble(self.model._h, d)
        if rc < 0:
            raise _failure(rc, L.jnt_data_error(d).decode())
        now = self._get_state(d)
        names = self.model.states
        # the multipliers (J.lambda_*) are not pinned: the assembly computes them
        moved = {names[i]: (b, v, float(now[i])) for i, (b, v) in self._set_since.items()
                 if not abs(now[i] - v) <= 1e-9 * (1 + abs(v))
                 and not names[i].rsplit(".", 1)[-1].startswith("lambda")}
        if moved:
            what = "; ".join("'%s' was %.6g, set to %.6g, is %.6g" % (n, b, v, w)
                             for n, (b, v, w) in list(moved.items())[:4])
            what += "" if len(moved) <= 4 else " and %d more" % (len(moved) - 4)
            for i in [i for i in self._set_since if names[i] in moved]:
                del self._set_since[i]  # said once: the value now stands
            warnings.warn(StateProjectedWarning(
                "t = %.9g s: the joints do not allow the values set: %s (values set that "
                "contradict the joints or one another are not kept: the state is projected "
                "onto the joints from them; docs/multibody.md, 'States set between steps')"
                % (L.jnt_time(d), what), moved), stacklevel=stacklevel)
        return moved

    def set_states(self, values: Mapping[str, float]) -> Dict[str, Any]:
        """Set several states ({name: value}), then assemble a multibody
        state once with all of them pinned (as consistent()): values that
        fit only together are kept. Returns the values moved, as
        consistent()."""
        idx = {self._index(n): float(v) for n, v in values.items()}
        with self._use() as d:
            L = lib()
            old = self._get_state(d)
            for i, v in idx.items():
                rc = L.jnt_set_state(self.model._h, d, i, v)
                if rc != 0:
                    raise _failure(rc, L.jnt_data_error(d).decode())
                b = self._set_since.get(i, (float(old[i]), v))[0]
                self._set_since[i] = (b, v)
            return self._assemble(d, stacklevel=3)

    def consistent(self) -> Dict[str, Any]:
        """Assemble a multibody state onto its joints now (jnt_assemble):
        the positions and velocities set since the last step pinned where
        the joints allow them, else projected, with a StateProjectedWarning
        naming the values moved; returns them {name: (before, set, now)}
        ({} when all were kept, and for a model without joints). Steps do
        it themselves; call it after setting several values, or after
        sim.set() changed a length, to read the assembled state at once."""
        with self._use() as d:
            return self._assemble(d, stacklevel=3)

    @property
    def state(self) -> np.ndarray:
        """Continuous states, then discrete ones (model.states names them)."""
        with self._use() as d:
            return self._get_state(d)

    @state.setter
    def state(self, values: Sequence[float]) -> None:
        with self._use() as d:
            self._set_state(d, values)

    def _index(self, name):
        try:
            return self.model.states.index(name)
        except ValueError:
            raise KeyError("no state '%s' (states: %s)"
                           % (name, ", ".join(self.model.states))) from None

    def __getitem__(self, name: str) -> float:
        with self._use() as d:
            return self._get_state(d)[self._index(name)]

    def __setitem__(self, name: str, value: float) -> None:
        with self._use() as d:
            v = self._get_state(d)
            v[self._index(name)] = value
            self._set_state(d, v)

    def set(self, **params: Value) -> None:
        """Set parameters for the following steps."""
        with self._use() as d:
            _set_params(self.model, d, params)

    @property
    def stats(self) -> Dict[str, Any]:
        """The counters of the steps so far (as Result.stats)."""
        with self._use() as d:
            return _stats(lib().jnt_data_stats(d).contents)

    def _history(self, d):
        ncol = len(self.model.outputs)
        data = np.concatenate(self._rows) if self._rows else np.empty((0, ncol))
        st = _stats(lib().jnt_data_stats(d).contents) if d else dict(self._final_stats)
        return Result(self.model.outputs, data, st, self.model.output_units)

    @property
    def history(self) -> Result:
        """Every row written so far, as a Result (also after close())."""
        if not self._busy.acquire(blocking=False):
            raise BusyError(JNT_ERR_USAGE, "a Simulation is not thread-safe: this one is in use "
                            "by another thread")
        try:
            return self._history(self._d)
        finally:
            self._busy.release()
