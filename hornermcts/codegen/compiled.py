"""C code compiled to a shared library and loaded with ctypes: :func:`compile`, :class:`CompiledPolynomial`.

Libraries are cached by a hash of the source, the compiler and the flags
(in ``$HORNERMCTS_CACHE``, default ``~/.cache/hornermcts``).  The module is
not called ``compile``: that name is the function, re-exported by
:mod:`hornermcts.codegen`.
"""
from __future__ import annotations

from ..errors import OptionError

import ctypes
import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np

from .c import CHUNK, to_c
from .precision import COMPENSATED, check_precision
from .program import as_dags, input_symbols

_C_FLAGS = ("-O2", "-shared", "-fPIC", "-ffp-contract=off")

# Flags that let the compiler rewrite floating-point expressions algebraically:
# they break the error-free transformations of compensated code.
_UNSAFE_FLAGS = frozenset({"-ffast-math", "-Ofast", "-funsafe-math-optimizations", "-fassociative-math"})


def _cache_dir() -> Path:
    env = os.environ.get("HORNERMCTS_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "hornermcts"


class CompiledPolynomial:
    """A compiled evaluation function (see :func:`compile`).

    Attributes
    ----------
    symbols : tuple of sympy.Symbol
        The inputs, in the order a point lists them (:func:`~hornermcts.codegen.input_symbols`).
    n_outputs : int
    precision : str
    source : str
        The C code.
    flags : tuple of str
        The compiler flags it was built with.
    library : pathlib.Path
        The shared library loaded.
    """

    flags: tuple[str, ...]  # set by compile()

    def __init__(self, library: Path, source: str, name: str, symbols, n_outputs: int, precision: str):
        self.library = library
        self.source = source
        self.name = name
        self.symbols = tuple(symbols)
        self.n_outputs = n_outputs
        self.precision = precision
        self.dtype = np.dtype(np.longdouble if precision == "long double" else np.float64)
        ctype = ctypes.c_longdouble if precision == "long double" else ctypes.c_double
        self._lib = ctypes.CDLL(str(library))
        self._batch = getattr(self._lib, name + "_batch")
        self._batch.argtypes = [ctypes.POINTER(ctypes.c_double), ctypes.POINTER(ctype), ctypes.c_long]
        self._batch.restype = None
        self._ctype = ctype
        self._scratch: tempfile.TemporaryDirectory | None = None  # compile()'s scratch directory, if any

    def __repr__(self) -> str:
        return (f"CompiledPolynomial({self.name}: {len(self.symbols)} variables, "
                f"{self.n_outputs} output{'s' * (self.n_outputs > 1)}, {self.precision})")

    def __call__(self, points):
        """Evaluate at one point (shape ``(nvars,)``) or many (``(..., nvars)``).

        One point gives a scalar (an array of ``n_outputs`` with several
        outputs); many give an array of their leading shape (``+ (k,)``).
        The loop over points runs in C.
        """
        pts = np.ascontiguousarray(points, dtype=np.float64)
        nv = len(self.symbols)
        if pts.ndim == 0 or pts.shape[-1] != nv:
            raise OptionError(f"points must have {nv} values on their last axis "
                             f"({', '.join(map(str, self.symbols))}), got shape {pts.shape}")
        lead = pts.shape[:-1]
        n = int(np.prod(lead, dtype=np.int64))
        out = np.empty(n * self.n_outputs, dtype=self.dtype)
        if n:
            self._batch(pts.ctypes.data_as(ctypes.POINTER(ctypes.c_double)),
                        out.ctypes.data_as(ctypes.POINTER(self._ctype)), n)
        shape = lead + ((self.n_outputs,) if self.n_outputs > 1 else ())
        out = out.reshape(shape)
        if out.ndim:
            return out
        return out[()] if self.precision == "long double" else out.item()


def compile(obj, *, precision: str = "double", name: str = "f", compiler: str | None = None,
            flags=_C_FLAGS, cache: bool = True, chunk: int | None = CHUNK, args=None) -> CompiledPolynomial:
    """Compile :func:`~hornermcts.codegen.to_c`'s code with the system C compiler and load it with ctypes.

    Parameters
    ----------
    obj : Dag, OptimizeResult or list of them
    precision : {"double", "long double", "compensated"}
        Arithmetic of the compiled code; results come back as float64 or
        ``numpy.longdouble``.  "compensated": double-double arithmetic,
        float64 results with about 1e-16 relative error even where double
        arithmetic cancels (see :mod:`hornermcts.codegen.compensated`); about 8 times
        slower (3 with ``-mfma``), and the flags get ``-ffp-contract=off``
        appended (fast-math flags are a ValueError).
    name : str
        The C function's name.
    compiler : str, optional
        The compiler command; default ``$CC`` or ``cc``.
    flags : sequence of str
        Default ``-O2 -shared -fPIC -ffp-contract=off`` (no fused
        multiply-add, so results are reproducible across machines).
    chunk : int or None
        Statements per C function, as in :func:`~hornermcts.codegen.to_c`.
    args : sequence of symbols or names, optional
        The order of the variables on a point's last axis, as in
        :func:`~hornermcts.codegen.to_c`; ``compiled.symbols`` gives it.
    cache : bool, default True
        Keep the library in ``$HORNERMCTS_CACHE`` (default
        ``~/.cache/hornermcts``), named by a hash of the source, compiler and
        flags, and reuse it; False compiles into a temporary directory.

    Returns
    -------
    CompiledPolynomial
        Callable on one point or on an ``(n, nvars)`` array (one call into the
        batch function, no Python loop per point).

    Raises
    ------
    RuntimeError
        No compiler, or the compiler failed (its message included).
    ValueError
        An unsupported precision, or ``-ffast-math`` & co. with "compensated".

    Examples
    --------
    >>> import sympy
    >>> from hornermcts.polynomial import Polynomial
    >>> from hornermcts.horner_scheme import horner_dag
    >>> x, y = sympy.symbols("x y")
    >>> f = compile(horner_dag(Polynomial((x, y), [[2, 1], [0, 0]], [3, -1])))
    >>> f([1.0, 2.0]), f([[1.0, 2.0], [2.0, 0.5]]).tolist()
    (5.0, [5.0, 5.0])

    Where double arithmetic cancels, compensated arithmetic still gets the
    correctly rounded value: ``x**2 - 2*x + 1`` at ``x = 1 + 2**-30`` is ``2**-60``:

    >>> dag = horner_dag(Polynomial((x,), [[2], [1], [0]], [1, -2, 1]))
    >>> point = [1.0 + 2.0**-30]
    >>> compile(dag)(point), compile(dag, precision="compensated")(point) == 2.0**-60
    (0.0, True)
    """
    check_precision(precision, "c")
    flags = list(flags)
    if precision == COMPENSATED:
        unsafe = [f for f in flags if f in _UNSAFE_FLAGS]
        if unsafe:
            raise OptionError(f"precision='compensated' needs IEEE arithmetic: remove {' '.join(unsafe)} "
                             f"(it lets the compiler reassociate and so cancel the error terms)")
        flags.append("-ffp-contract=off")
    source = to_c(obj, name, precision=precision, batch=True, chunk=chunk, args=args)
    compiler = compiler or os.environ.get("CC") or "cc"
    exe = shutil.which(compiler)
    if exe is None:
        raise RuntimeError(f"no C compiler: {compiler!r} is not on PATH (install gcc or set $CC)")
    key = hashlib.sha256("\0".join([source, exe, *flags]).encode()).hexdigest()[:24]
    directory = scratch = None
    if cache:
        directory = _cache_dir()
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError:  # no writable cache: compile as if cache=False
            directory = None
    if directory is None:
        scratch = tempfile.TemporaryDirectory(prefix="hornermcts-")
        directory = Path(scratch.name)
    library = directory / f"{name}-{key}.so"
    if not library.exists():
        with tempfile.TemporaryDirectory(dir=directory) as tmp:
            src = Path(tmp) / f"{name}.c"
            src.write_text(source)
            built = Path(tmp) / library.name
            try:
                proc = subprocess.run([exe, *flags, "-o", str(built), str(src), "-lm"],
                                      capture_output=True, text=True)
            except OSError as err:
                raise RuntimeError(f"could not run the C compiler {exe}: {err}") from err
            if proc.returncode != 0:
                raise RuntimeError(f"the C compiler failed ({exe} {' '.join(flags)}):\n"
                                   f"{(proc.stderr or proc.stdout)[-4000:]}")
            os.replace(built, library)
    symbols = input_symbols(obj, args)
    compiled = CompiledPolynomial(library, source, name, symbols, sum(len(d.roots) for d in as_dags(obj)), precision)
    compiled._scratch = scratch  # removed with the object
    compiled.flags = tuple(flags)
    return compiled
