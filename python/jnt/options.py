"""The options of runs and simulations, checked as `jnt run` checks them
(runtime/sim/sim_main.c): what the command line refuses raises ValueError
(a value out of range, a NUL) or TypeError (a wrong type) here, and what it
accepts means the same. Text goes through the C library's own parsers
(units_parse_quantity for --h, --rtol, --atol; strtod for --max-output), so
"0.1 ms" or "2G" read exactly as on the command line.
"""
from __future__ import annotations

import ctypes
import math
import numbers
import os
from typing import Any, Optional, Tuple

from . import _lib

# the default output limit of a run, as jnt_set_max_output's 0 (1 GiB)
DEFAULT_MAX_OUTPUT = 1073741824.0
_SECOND = (0, 0, 6, 0, 0)  # jnt_dim of s: exponents of kg, m, s, A, K in sixths
_NONE = (0, 0, 0, 0, 0)


def nul_free(what: str, s: str) -> str:
    """s (str) unchanged; ValueError when it holds a NUL, which C would
    take as its end (Python's own message for open("a\\0b"))."""
    if "\x00" in s:
        raise ValueError("embedded null character in %s: %r" % (what, s))
    return s


def text(what: str, s: Any) -> bytes:
    """s (str) encoded for C, without NULs; TypeError for another type."""
    if not isinstance(s, str):
        raise TypeError("%s must be text (str), not %s" % (what, type(s).__name__))
    return nul_free(what, s).encode()


def path(what: str, p: Any) -> bytes:
    """A file name (str, bytes, os.PathLike) encoded for C, without NULs."""
    try:
        b = os.fsencode(p)
    except TypeError:
        raise TypeError("%s must be a file name (str, bytes or os.PathLike), not %s"
                        % (what, type(p).__name__)) from None
    if b"\x00" in b:
        raise ValueError("embedded null character in %s: %r" % (what, p))
    return b


def _is_number(v: Any) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, bool)


def _quantity(L: Any, what: str, s: str) -> Tuple[float, Tuple[int, ...]]:
    """(value, dim) of "<number>[ ]<unit>" by the C library's parser."""
    v, dim, why = ctypes.c_double(), _lib.Dim(), ctypes.c_char_p()
    if L.units_parse_quantity(text(what, s), ctypes.byref(v), ctypes.byref(dim),
                              ctypes.byref(why)) != 0:
        raise ValueError("%s: bad value %r: %s" % (what, s, (why.value or b"").decode()))
    return v.value, tuple(dim)


def positive(L: Any, name: str, v: Any, time: bool) -> float:
    """The value of option `name` (h when time, else rtol or atol), as the
    CLI's --h, --rtol, --atol: a number > 0, or text; for h a bare number is
    in seconds and a unit must be a time. None: not given (0.0, the model's
    own). ValueError or TypeError otherwise."""
    if v is None:
        return 0.0
    what = "a positive time (seconds, or text with a unit: '0.1 ms')" if time else \
        "a positive number"
    opt = "option '%s'" % name
    if isinstance(v, str):
        val, dim = _quantity(L, opt, v)
        if time and dim == _NONE:
            dim = _SECOND
        # as the CLI: !(v > 0) refused; "1e999" (inf) passes here and the
        # run refuses it (check_settings), as `jnt run --h 1e999` does
        if not val > 0 or dim != (_SECOND if time else _NONE):
            raise ValueError("%s needs %s, got %r" % (opt, what, v))
        return val
    if not _is_number(v):
        raise TypeError("%s needs %s, not %s" % (opt, what, type(v).__name__))
    val = float(v)
    if not (val > 0 and math.isfinite(val)):
        raise ValueError("%s needs %s, got %r" % (opt, what, v))
    return val


def time_value(L: Any, name: str, v: Any) -> float:
    """A finite time for option `name` (t_end, advance's t): a number in
    seconds or text with a unit."""
    opt = "option '%s'" % name
    if isinstance(v, str):
        val, dim = _quantity(L, opt, v)
        if dim not in (_NONE, _SECOND):
            raise ValueError("%s needs a time (seconds, or text with a unit: '2 ms'), got %r"
                             % (opt, v))
    elif _is_number(v):
        val = float(v)
    else:
        raise TypeError("%s needs a time (seconds, or text with a unit: '2 ms'), not %s"
                        % (opt, type(v).__name__))
    if not math.isfinite(val):
        raise ValueError("%s needs a finite time, got %r" % (opt, v))
    return val


def integrator(v: Any) -> Optional[bytes]:
    """The integrator's name for C, or None for the model's own."""
    if v is None:
        return None
    b = text("option 'integrator'", v)
    if not b:
        raise ValueError("option 'integrator' needs a name (rk4, dopri5, bdf, radau, radau5, "
                         "trapezoidal, midpoint; hht, generalized_alpha for multibody models), "
                         "got ''")
    return b


def max_output(v: Any) -> float:
    """The output limit in bytes (inf: none) from option max_output: None
    (the default, 1 GiB), a number of bytes > 0, or the text of the CLI's
    --max-output SIZE: bytes with an optional K, M, G, T (powers of 1024),
    read with C's strtod as there, or 'none'."""
    opt = "option 'max_output'"
    if v is None:
        return DEFAULT_MAX_OUTPUT
    if isinstance(v, str):
        if nul_free(opt, v) == "none":
            return math.inf
        buf = ctypes.create_string_buffer(v.encode())
        end = ctypes.c_void_p()
        val = _lib.libc().strtod(buf, ctypes.byref(end))
        used = end.value - ctypes.addressof(buf) if end.value else 0  # strtod sets end
        rest = buf.raw[used:].rstrip(b"\x00")
        if len(rest) == 1 and rest in b"KMGT":
            val *= 1024.0 ** (b"KMGT".index(rest) + 1)
        elif rest:
            val = -1.0
        if not val > 0 or used == 0:
            raise ValueError("%s needs a size (bytes, e.g. 2G, 500M or 'none'), got %r"
                             % (opt, v))
        return val
    if not _is_number(v):
        raise TypeError("%s needs a size (bytes, e.g. 2G, 500M or 'none'), not %s"
                        % (opt, type(v).__name__))
    if not float(v) > 0:
        raise ValueError("%s needs a size > 0 (bytes, e.g. 2G, 500M or 'none'), got %r"
                         % (opt, v))
    return float(v)


def param_value(name: str, v: Any) -> Tuple[Optional[str], Optional[float]]:
    """(text, None) or (None, number) for parameter `name`: a number in SI
    units, or text with a unit ("0.3 ms"), as jnt run's -D name=value."""
    what = "parameter %r" % name
    if isinstance(v, str):
        return nul_free(what, v), None
    if not _is_number(v):
        raise TypeError("%s needs a number in SI units or text with a unit ('0.3 ms'), not %s"
                        % (what, type(v).__name__))
    return None, float(v)


def param_name(name: Any) -> str:
    """A parameter's name, checked: text without NUL or '='."""
    if not isinstance(name, str):
        raise TypeError("a parameter's name must be text (str), not %s" % type(name).__name__)
    nul_free("a parameter's name", name)
    if "=" in name:
        raise ValueError("unknown parameter %r: a name has no '='" % name)
    return name
