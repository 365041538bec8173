"""ctypes declarations of libjnt's public C API (runtime/include/jnt/jnt.h).

Only what the package uses is declared. Every structure mirrors its C
definition field by field; ctypes releases the GIL around each call, so runs
on separate data objects proceed in parallel in Python threads.
"""
import ctypes
import ctypes.util
import os

c_double_p = ctypes.POINTER(ctypes.c_double)
ROW_CALLBACK = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, c_double_p, ctypes.c_int)


class Stats(ctypes.Structure):
    """jnt_stats: the counters of a run."""
    _fields_ = [(n, ctypes.c_long) for n in (
        "steps", "rejected", "rhs_evals", "jac_evals", "lu_decomps", "newton_iters",
        "out_rows", "chain_iters", "chain_halvings")] + [
        ("cons_max", ctypes.c_double), ("cpu_seconds", ctypes.c_double),
        ("vcons_max", ctypes.c_double), ("projected", ctypes.c_long)]


class RunOpts(ctypes.Structure):
    """jnt_run_opts."""
    _fields_ = [
        ("csv_path", ctypes.c_char_p), ("progress", ctypes.c_int),
        ("integrator", ctypes.c_char_p), ("h", ctypes.c_double), ("rtol", ctypes.c_double),
        ("atol", ctypes.c_double), ("t_end", ctypes.c_double), ("steps_path", ctypes.c_char_p),
        ("rows", c_double_p), ("rows_cap", ctypes.c_long),
        ("rows_n", ctypes.POINTER(ctypes.c_long)), ("on_row", ROW_CALLBACK),
        ("row_ctx", ctypes.c_void_p), ("resume", ctypes.c_int)]


class Settings(ctypes.Structure):
    """jnt_settings (jnt/abi.h)."""
    _fields_ = [(n, ctypes.c_double) for n in (
        "t0", "t_end", "h", "rtol", "atol", "out_every", "h_min", "h_max", "alpha", "rho_inf",
        "assemble_tol", "max_order")]


class Dim(ctypes.Array):
    """jnt_dim (jnt/setup.h): exponents of kg, m, s, A, K in sixths."""
    _type_ = ctypes.c_byte
    _length_ = 5


class CompileOpts(ctypes.Structure):
    """jnt_compile_opts."""
    _fields_ = [("diag", ctypes.c_void_p), ("max_errors", ctypes.c_int),
                ("inputs", ctypes.c_void_p)]


def _candidates():
    """Where libjnt.so may be: $JNT_LIB; the package's own lib/ (pip
    install: setup.py bundles it with include/ and share/jnt/stdlib, which
    libjnt.so finds beside its lib/ folder); PREFIX/lib when make install
    put the package in PREFIX/lib/pythonX.Y/site-packages (or dist-packages),
    also as recorded in jnt/_prefix.py; the source tree's build/; the
    linker's path."""
    env = os.environ.get("JNT_LIB")
    if env:
        yield env
    here = os.path.dirname(os.path.abspath(__file__))
    for rel in ("lib/libjnt.so", "../../../libjnt.so"):
        yield os.path.normpath(os.path.join(here, rel))
    try:  # PREFIX/lib as make install wrote it (jnt/_prefix.py)
        from . import _prefix
        yield os.path.join(_prefix.LIBDIR, "libjnt.so")
    except ImportError:
        pass
    yield os.path.normpath(os.path.join(here, "../../build/libjnt.so"))
    found = ctypes.util.find_library("jnt")
    if found:
        yield found


loaded_from = None  # the libjnt.so load() found


def load():
    """Load libjnt and declare its functions; raises OSError naming the
    places tried when it is nowhere."""
    global loaded_from
    tried = []
    lib = None
    for path in _candidates():
        tried.append(path)
        if os.path.sep in path and not os.path.exists(path):
            continue
        try:
            lib = ctypes.CDLL(path)
            loaded_from = path
            break
        except OSError as e:  # found but not loadable: say why
            tried[-1] = "%s (%s)" % (path, e)
            continue
    if lib is None:
        raise OSError("libjnt.so not found (tried: %s); build it with 'make' or set JNT_LIB"
                      % ", ".join(tried))
    P, I, D, S = ctypes.c_void_p, ctypes.c_int, ctypes.c_double, ctypes.c_char_p
    sig = {
        "jnt_version": (S, []),
        "jnt_status_name": (S, [I]),
        "jnt_status_message": (S, [I]),
        "jnt_compile_file": (I, [S, ctypes.POINTER(CompileOpts), ctypes.POINTER(P)]),
        "jnt_compile_string": (I, [S, S, ctypes.POINTER(CompileOpts), ctypes.POINTER(P)]),
        "jnt_model_free": (None, [P]),
        "jnt_model_name": (S, [P]),
        "jnt_param_count": (I, [P]),
        "jnt_param_name": (S, [P, I]),
        "jnt_param_unit": (I, [P, I, ctypes.c_char_p, ctypes.c_size_t]),
        "jnt_output_count": (I, [P]),
        "jnt_output_name": (S, [P, I]),
        "jnt_output_unit": (I, [P, I, ctypes.c_char_p, ctypes.c_size_t]),
        "jnt_state_count": (I, [P]),
        "jnt_state_name": (S, [P, I]),
        "jnt_data_new": (P, [P]),
        "jnt_data_free": (None, [P]),
        "jnt_set_param": (I, [P, P, S, D]),
        "jnt_set_param_text": (I, [P, P, S]),
        "jnt_get_param": (D, [P, P, I]),
        "jnt_run": (I, [P, P, ctypes.POINTER(RunOpts)]),
        "jnt_advance": (I, [P, P, D, ctypes.POINTER(RunOpts)]),
        "jnt_step": (I, [P, P, ctypes.POINTER(RunOpts)]),
        "jnt_init_state": (I, [P, P]),
        "jnt_get_settings": (I, [P, P, ctypes.POINTER(Settings)]),
        "jnt_get_full_state": (I, [P, P, c_double_p]),
        "jnt_set_full_state": (I, [P, P, D, c_double_p]),
        "jnt_set_state": (I, [P, P, I, D]),
        "jnt_assemble": (I, [P, P]),
        "jnt_time": (D, [P]),
        "jnt_data_stats": (ctypes.POINTER(Stats), [P]),
        "jnt_data_error": (S, [P]),
        "jnt_run_analyses": (I, [P, P, S]),
        "jnt_set_max_output": (None, [P, D]),
        # jnt/setup.h: the parser of jnt run's --h, --rtol, --atol
        "units_parse_quantity": (I, [S, ctypes.POINTER(D), ctypes.POINTER(Dim),
                                     ctypes.POINTER(S)]),
    }
    for name, (res, args) in sig.items():
        f = getattr(lib, name)
        f.restype = res
        f.argtypes = args
    return lib


_libc: list = []


def libc():
    """The C library (loaded once): a FILE* that collects the compiler's
    diagnostics, strtod for sizes as jnt run reads them."""
    if _libc:
        return _libc[0]
    c = ctypes.CDLL(None)
    c.tmpfile.restype = ctypes.c_void_p
    c.fflush.argtypes = [ctypes.c_void_p]
    c.rewind.argtypes = [ctypes.c_void_p]
    c.fclose.argtypes = [ctypes.c_void_p]
    c.fread.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t, ctypes.c_void_p]
    c.fread.restype = ctypes.c_size_t
    c.strtod.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
    c.strtod.restype = ctypes.c_double
    _libc.append(c)
    return c
