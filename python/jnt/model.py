"""Compiled models, runs and step-by-step simulations over libjnt.

A Model is compiled once (jnt_compile_*) and never changes; each run or
Simulation owns its own data object (jnt_data), so many may run at once from
Python threads (ctypes releases the GIL inside every C call).
"""
import ctypes
import math
import os
import shutil
import tempfile
import threading

import numpy as np

from . import _lib

_lock = threading.Lock()
_state = {}


def lib():
    """libjnt, loaded once."""
    with _lock:
        if "lib" not in _state:
            _state["lib"] = _lib.load()
            _state["libc"] = _lib.libc()
        return _state["lib"]


def version():
    """The version of the loaded libjnt ("0.2.0")."""
    return lib().jnt_version().decode()


class Error(Exception):
    """A failure of libjnt: .status (the C status code), .name (its name,
    "JNT_ERR_HMIN") and the message, which for a model error holds the
    compiler's diagnostics with file:line:col."""

    def __init__(self, status, message):
        self.status = status
        self.name = lib().jnt_status_name(status).decode()
        self.message = message
        super().__init__(message)


class CompileError(Error):
    """The model has errors: .message is the diagnostics text."""


class RunError(Error):
    """A run failed: .message names the time and the state (as jnt run
    prints it); .result holds the rows written before the failure."""

    def __init__(self, status, message, result=None):
        super().__init__(status, message)
        self.result = result


class Param:
    """A model parameter: name, unit (SI, "" when dimensionless), default (SI)."""

    def __init__(self, name, unit, default):
        self.name, self.unit, self.default = name, unit, default

    def __repr__(self):
        return "Param(%r, %r, %r)" % (self.name, self.unit, self.default)


class Result:
    """Rows of a run: r.columns (names), r.data (rows x columns), r["x"]
    (a column), r.t (the time column), r.stats (the run's counters),
    r.units ({column: SI unit}, "" when dimensionless or not known)."""

    def __init__(self, columns, data, stats, units=None):
        self.columns = list(columns)
        self.data = data
        self.stats = stats
        self.units = dict(zip(self.columns, units or [""] * len(self.columns)))

    def __getitem__(self, name):
        try:
            return self.data[:, self.columns.index(name)]
        except ValueError:
            raise KeyError("no output column '%s' (columns: %s)"
                           % (name, ", ".join(self.columns))) from None

    @property
    def t(self):
        """The column named t (the first column when there is none)."""
        return self["t"] if "t" in self.columns else self.data[:, 0]

    def __len__(self):
        return self.data.shape[0]

    def __repr__(self):
        return "Result(%d rows: %s)" % (len(self), ", ".join(self.columns))


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


def compile(path):
    """Compile a .jnt file into a Model; raises CompileError with the
    diagnostics (file:line:col: error: ...) when it has errors."""
    L = lib()
    handle = ctypes.c_void_p()
    rc, text = _diag_call(lambda o: L.jnt_compile_file(os.fsencode(path), o, ctypes.byref(handle)))
    if rc != 0:
        raise CompileError(rc, text.strip() or L.jnt_status_message(rc).decode())
    return Model(handle, path)


def compile_string(text, name="model.jnt"):
    """Compile model text; `name` is the file name its diagnostics show
    (imports of files are found relative to the current directory)."""
    L = lib()
    handle = ctypes.c_void_p()
    rc, diag = _diag_call(lambda o: L.jnt_compile_string(name.encode(), text.encode(), o,
                                                         ctypes.byref(handle)))
    if rc != 0:
        raise CompileError(rc, diag.strip() or L.jnt_status_message(rc).decode())
    return Model(handle, name)


_RUN_OPTS = ("t_end", "integrator", "h", "rtol", "atol", "csv", "params")


class Model:
    """A compiled model: .name, .params (Param list), .outputs (column
    names), .output_units (their SI units, "" when dimensionless), .states;
    run() simulates, simulation() steps."""

    def __init__(self, handle, source):
        L = lib()
        self._h = handle
        self.source = source
        self.name = L.jnt_model_name(handle).decode()
        self.outputs = [L.jnt_output_name(handle, i).decode()
                        for i in range(L.jnt_output_count(handle))]
        self.states = [L.jnt_state_name(handle, i).decode()
                       for i in range(L.jnt_state_count(handle))]
        d = L.jnt_data_new(handle)
        unit = ctypes.create_string_buffer(96)
        self.output_units = []
        for i in range(len(self.outputs)):
            L.jnt_output_unit(handle, i, unit, len(unit))
            self.output_units.append(unit.value.decode())
        self.params = []
        for i in range(L.jnt_param_count(handle)):
            L.jnt_param_unit(handle, i, unit, len(unit))
            self.params.append(Param(L.jnt_param_name(handle, i).decode(), unit.value.decode(),
                                     L.jnt_get_param(handle, d, i)))
        L.jnt_data_free(d)

    def __del__(self):
        h = getattr(self, "_h", None)
        if h and _state.get("lib"):
            _state["lib"].jnt_model_free(h)
            self._h = None

    def __repr__(self):
        return "Model(%r: params %s; outputs %s)" % (
            self.name, ", ".join(p.name for p in self.params), ", ".join(self.outputs))

    def _data(self, params):
        """A new data object with params set (numbers in SI units, or text
        with a unit: "0.3 ms")."""
        L = lib()
        d = L.jnt_data_new(self._h)
        if not d:
            raise MemoryError("jnt_data_new")
        try:
            _set_params(self, d, params)
        except Exception:
            L.jnt_data_free(d)
            raise
        return d

    def run(self, t_end=None, integrator=None, h=None, rtol=None, atol=None, csv=None,
            params=None, **kw):
        """Simulate from t0 and return a Result. Parameters by keyword
        (m.run(tE=0.3e-3) or m.run(tE="0.3 ms")) or in params={...} (for
        names that are also options). t_end, integrator, h, rtol, atol
        override the model's simulate block; csv also writes the rows to a
        file (.csv, .npy, .mat). Raises RunError on a failed run."""
        all_params = dict(params or {})
        all_params.update(kw)
        L = lib()
        d = self._data(all_params)
        try:
            return _collect(self, d, L.jnt_run, (), _opts(t_end, integrator, h, rtol, atol, csv))
        finally:
            L.jnt_data_free(d)

    def simulation(self, **params):
        """A Simulation at the initial state, for step-by-step runs."""
        return Simulation(self, params)

    def analyses(self, **params):
        """Run the analyses the model declares (linear, hysteresis, modes,
        complex_modes) and return {table name: Result} of the tables they
        write (NAME.csv, NAME_cycles.csv, ...)."""
        L = lib()
        d = self._data(params)
        tmp = tempfile.mkdtemp(prefix="jnt-analyses-")
        try:
            rc = L.jnt_run_analyses(self._h, d, tmp.encode())
            if rc != 0:
                raise RunError(rc, L.jnt_data_error(d).decode())
            out = {}
            for f in sorted(os.listdir(tmp)):
                if f.endswith(".csv"):
                    out[f[:-4]] = read_csv(os.path.join(tmp, f))
            return out
        finally:
            L.jnt_data_free(d)
            shutil.rmtree(tmp, ignore_errors=True)


def _set_params(model, d, params):
    L = lib()
    for name, value in params.items():
        if isinstance(value, str):
            rc = L.jnt_set_param_text(model._h, d, ("%s=%s" % (name, value)).encode())
        else:
            rc = L.jnt_set_param(model._h, d, name.encode(), float(value))
        if rc != 0:
            raise Error(rc, L.jnt_data_error(d).decode() or
                        "unknown parameter '%s' (parameters: %s)"
                        % (name, ", ".join(p.name for p in model.params)))


def _opts(t_end=None, integrator=None, h=None, rtol=None, atol=None, csv=None):
    o = _lib.RunOpts()
    o.csv_path = os.fsencode(csv) if csv else b""
    o.integrator = integrator.encode() if integrator else None
    o.h = h or 0.0
    o.rtol = rtol or 0.0
    o.atol = atol or 0.0
    o.t_end = t_end or 0.0
    return o


def _capacity(model, d, t_from, t_to):
    """Rows a run from t_from to t_to writes at most (its output grid), or
    a first guess for a model that writes every step."""
    s = _lib.Settings()
    if lib().jnt_get_settings(model._h, d, ctypes.byref(s)) != 0:
        return 1024
    t_to = t_to if t_to else s.t_end
    t_from = s.t0 if t_from is None else t_from
    if s.out_every > 0 and t_to > t_from:
        return int(math.ceil((t_to - t_from) / s.out_every)) + 3
    return 4096


def _collect(model, d, call, args, o, t_from=None):
    """Run call(model, d, *args, opts) from t0 with the rows into a numpy
    buffer; runs again with a buffer of the right size when the first was
    short (only models that write every step: the grid's count is known)."""
    L = lib()
    ncol = len(model.outputs)
    cap = _capacity(model, d, t_from, o.t_end or None)
    while True:
        buf = np.empty((cap, max(ncol, 1)))
        n = ctypes.c_long(0)
        o.rows = buf.ctypes.data_as(_lib.c_double_p)
        o.rows_cap = cap
        o.rows_n = ctypes.pointer(n)
        rc = call(model._h, d, *args, ctypes.byref(o))
        if n.value <= cap:
            break
        cap = n.value + 1
    stats = _stats(L.jnt_data_stats(d).contents)
    res = Result(model.outputs, buf[:n.value, :ncol].copy(), stats, model.output_units)
    if rc != 0:
        raise RunError(rc, L.jnt_data_error(d).decode() or L.jnt_status_message(rc).decode(),
                       res)
    return res


def read_csv(path):
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


class Simulation:
    """A model's state advanced step by step (the C API's jnt_step and
    jnt_advance): sim.step(), sim.advance(t), sim.t, sim.state (continuous
    then discrete states, settable), sim["name"] (one state, settable),
    sim.set(name=value) (parameters between steps), sim.history (a Result
    of every row so far, one per output time)."""

    def __init__(self, model, params):
        L = lib()
        self.model = model
        self._d = model._data(params)
        rc = L.jnt_init_state(model._h, self._d)
        if rc != 0:
            msg = L.jnt_data_error(self._d).decode()
            L.jnt_data_free(self._d)
            self._d = None
            raise RunError(rc, msg)
        self._rows = []
        s = _lib.Settings()
        L.jnt_get_settings(model._h, self._d, ctypes.byref(s))
        self.every = s.out_every
        self.t_end = s.t_end
        self._opts = _opts()

    def __del__(self):
        d = getattr(self, "_d", None)
        if d and _state.get("lib"):
            _state["lib"].jnt_data_free(d)
            self._d = None

    def configure(self, integrator=None, h=None, rtol=None, atol=None):
        """The integrator and its settings for the following steps."""
        self._opts = _opts(integrator=integrator, h=h, rtol=rtol, atol=atol)

    def _go(self, fn, args, t_to):
        L = lib()
        m = self.model
        o = _lib.RunOpts()
        ctypes.pointer(o)[0] = self._opts
        ncol = len(m.outputs)
        if self.every > 0:
            cap = int(math.ceil((t_to - self.t) / self.every)) + 3
            buf = np.empty((cap, max(ncol, 1)))
            n = ctypes.c_long(0)
            o.rows, o.rows_cap, o.rows_n = buf.ctypes.data_as(_lib.c_double_p), cap, ctypes.pointer(n)
            rc = fn(m._h, self._d, *args, ctypes.byref(o))
            rows = buf[:min(n.value, cap), :ncol].copy()
        else:  # every step: rows through the callback, as many as come
            got = []
            cb = _lib.ROW_CALLBACK(lambda ctx, row, k: got.append(row[:k]) and 0)
            o.on_row = cb
            rc = fn(m._h, self._d, *args, ctypes.byref(o))
            rows = np.array(got).reshape(-1, ncol)
        if len(rows):
            self._rows.append(rows)
        if rc != 0:
            raise RunError(rc, L.jnt_data_error(self._d).decode(), self.history)
        return rows

    def step(self, n=1):
        """Advance n output intervals (the model's 'every'); returns the
        rows written (numpy, one per output time)."""
        if not self.every > 0:
            raise Error(-2, "the model writes a row every step (no 'every'): use advance(t)")
        out = [self._go(lib().jnt_step, (), self.t + 1.5 * self.every) for _ in range(n)]
        return np.concatenate(out) if out else np.empty((0, len(self.model.outputs)))

    def advance(self, t):
        """Advance to time t (s); returns the rows written."""
        return self._go(lib().jnt_advance, (ctypes.c_double(t),), t)

    @property
    def t(self):
        return lib().jnt_time(self._d)

    @property
    def state(self):
        """Continuous states, then discrete ones (model.states names them)."""
        buf = np.empty(len(self.model.states))
        lib().jnt_get_full_state(self.model._h, self._d, buf.ctypes.data_as(_lib.c_double_p))
        return buf

    @state.setter
    def state(self, values):
        v = np.ascontiguousarray(values, dtype=float)
        if v.shape != (len(self.model.states),):
            raise ValueError("state needs %d values (%s)"
                             % (len(self.model.states), ", ".join(self.model.states)))
        lib().jnt_set_full_state(self.model._h, self._d, self.t, v.ctypes.data_as(_lib.c_double_p))

    def _index(self, name):
        try:
            return self.model.states.index(name)
        except ValueError:
            raise KeyError("no state '%s' (states: %s)"
                           % (name, ", ".join(self.model.states))) from None

    def __getitem__(self, name):
        return self.state[self._index(name)]

    def __setitem__(self, name, value):
        v = self.state
        v[self._index(name)] = value
        self.state = v

    def set(self, **params):
        """Set parameters for the following steps."""
        _set_params(self.model, self._d, params)

    @property
    def stats(self):
        return _stats(lib().jnt_data_stats(self._d).contents)

    @property
    def history(self):
        """Every row written so far, as a Result."""
        ncol = len(self.model.outputs)
        data = np.concatenate(self._rows) if self._rows else np.empty((0, ncol))
        return Result(self.model.outputs, data, self.stats, self.model.output_units)
