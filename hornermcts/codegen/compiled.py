"""C code compiled to a shared library and loaded with ctypes: :func:`compile`, :class:`CompiledPolynomial`.

Libraries are cached by a hash of the source, the compiler and the flags
(in ``$HORNERMCTS_CACHE``, else ``$XDG_CACHE_HOME/hornermcts``, default
``~/.cache/hornermcts``).  The module is not called ``compile``: that name
is the function, re-exported by :mod:`hornermcts.codegen`.

The cache is private.  Loading a library runs its code, so a library is
loaded from the cache only if another user could not have put it there: the
directory (created ``0700``) must be a real directory owned by this user and
not writable by group or others, and the library a regular file owned by
this user and not writable by them either (``lstat``: symbolic links are
refused).  Content hashes would not help: whoever can write the library can
write its hash beside it.  A cache that fails these checks (another owner,
``0777``, a file or a link in its place, not writable) is not used: the
library is compiled in a fresh private temporary directory instead, with a
warning.  A cached library that does not load (cut short by a full disk or a
killed process: "file too short") is compiled anew in its place, with a
warning naming it.  So :func:`compile` never fails because of its cache.
"""
from __future__ import annotations

from ..errors import OptionError

import ctypes
import hashlib
import os
import platform
import re
import shutil
import stat
import subprocess
import tempfile
import threading
import warnings
from pathlib import Path

import numpy as np

from .c import BLOCK, CHUNK, GROUP_POINTS, to_c
from .precision import COMPENSATED, check_precision
from .program import input_symbols
from .program import n_outputs as count_outputs

#: The default flags.  ``-march=native``: the blocked batch code runs on the
#: machine's vector width (res(7,5), 10^5 points: 0.29 s with AVX2, 0.62 s
#: with the SSE2 baseline); libraries are cached per CPU model and flags.
#: No fused multiply-add, so the results are the same bits on every machine:
#: ``-ffp-contract=off``, and on x86 ``-mno-fma -fno-tree-slp-vectorize``:
#: GCC 12's SLP vectoriser turns alternating ``a*b - c``, ``d*e + f`` of the
#: scalar code into a fused ``vfmaddsub`` / ``vfmsubadd`` even with
#: ``-ffp-contract=off``; ``-mno-fma`` stops it on AVX2 machines but not on
#: AVX-512 ones (whose 128-bit forms come with AVX512VL), so the scalar code is
#: not SLP-vectorised (the blocked batch code is explicit vectors and keeps the
#: full width).  Both found by ``tests/codegen/test_batch.py``.
_X86 = platform.machine().lower() in ("x86_64", "amd64", "i386", "i686")
#: The flags that keep the compiler from fusing multiply-adds on this target (with ``-ffp-contract=off``).
NO_FUSION = ("-mno-fma", "-fno-tree-slp-vectorize") if _X86 else ()
_C_FLAGS = ("-O2", "-march=native", *NO_FUSION, "-shared", "-fPIC", "-ffp-contract=off")

#: Least work (points x operations) one call shares among threads by default:
#: below it, starting the threads costs more than they save.
PARALLEL_WORK = 2_000_000

#: Pieces of the points per thread: the threads take them in turn (dynamic
#: scheduling), so on a shared machine a thread slowed by another process does
#: not hold up the call.
PIECES_PER_THREAD = 8

LAYOUTS = ("points", "variables")


def _cpu() -> str:
    """The CPU model and its flags (``/proc/cpuinfo``), for the cache key of ``-march=native`` builds."""
    try:
        with open("/proc/cpuinfo") as fh:
            text = fh.read()
    except OSError:
        return platform.processor() or platform.machine()
    found = [line for line in text.splitlines() if line.startswith(("model name", "flags", "Features"))]
    return "\n".join(dict.fromkeys(found))


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1

# Flags that let the compiler rewrite floating-point expressions algebraically:
# they break the error-free transformations of compensated code.
_UNSAFE_FLAGS = frozenset({"-ffast-math", "-Ofast", "-funsafe-math-optimizations", "-fassociative-math"})


def _cache_dir() -> Path:
    env = os.environ.get("HORNERMCTS_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "hornermcts"


def _unsafe(path: Path, kind: str) -> str | None:
    """Why ``path`` must not be trusted (a ``kind``: ``"directory"`` or ``"file"``), or None if it is ours alone."""
    info = path.lstat()
    if stat.S_ISLNK(info.st_mode):
        return "a symbolic link"
    if kind == "directory" and not stat.S_ISDIR(info.st_mode):
        return "not a directory"
    if kind == "file" and not stat.S_ISREG(info.st_mode):
        return "not a regular file"
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        return f"owned by another user (uid {info.st_uid})"
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return "writable by other users"
    return None


def _private_cache() -> Path | None:
    """The cache directory, created ``0700`` if missing, or None (with a warning) when it is not safe to use."""
    directory = _cache_dir()
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        problem = _unsafe(directory, "directory")
        if problem is None and not os.access(directory, os.W_OK | os.X_OK):
            problem = "not writable"
    except OSError as err:
        problem = err.strerror or str(err)
    if problem is None:
        return directory
    warnings.warn(f"hornermcts: the compile cache {directory} is not used ({problem}); compiling in a private "
                  f"temporary directory (set HORNERMCTS_CACHE to a directory of your own)", stacklevel=3)
    return None


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
    block : int or None
        Points per block of the blocked batch function (precision "double"),
        None where the points are evaluated one by one.
    workers : int or None
        The default number of threads of a call (None: every core once the
        work is large enough, :data:`PARALLEL_WORK`).
    ops : int
        Operations per point (in FORM's model).
    """

    flags: tuple[str, ...]  # set by compile()
    _compiler: str | None = None
    _cache: bool = True
    block: int | None = None
    workers: int | None = None
    ops: int = 0

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
        self._blocks = getattr(self._lib, name + "_blocks_batch", None)
        if self._blocks is not None:
            self._blocks.argtypes = [ctypes.c_void_p, ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_long]
            self._blocks.restype = ctypes.c_int  # 0, or -1 when its temporaries could not be allocated
        self._ctype = ctype
        self._scratch: tempfile.TemporaryDirectory | None = None  # compile()'s scratch directory, if any

    def __reduce__(self):
        """Pickled as its C source and build settings: loading it loads (or builds) the library there.

        So a compiled callable crosses to other processes and machines, e.g.
        a dask worker (:func:`~hornermcts.codegen.evaluate_dask`): the library
        comes from that machine's cache, or its compiler.
        """
        return (_unpickle, (self.source, self.name, self.symbols, self.n_outputs, self.precision, self.flags,
                            self._compiler, self._cache, self.block is not None, self.workers))

    def __repr__(self) -> str:
        return (f"CompiledPolynomial({self.name}: {len(self.symbols)} variables, "
                f"{self.n_outputs} output{'s' * (self.n_outputs > 1)}, {self.precision})")

    def __call__(self, points, *, layout: str = "points", workers: int | None = None):
        """Evaluate at one point (shape ``(nvars,)``) or many.

        ``layout="points"``: ``points`` has shape ``(..., nvars)``, one point
        per row; ``"variables"``: shape ``(nvars, ...)``, one variable per row
        (structure of arrays, read in place).  One point gives a scalar (an
        array of ``n_outputs`` with several outputs); many give an array of
        their leading (``"points"``) or trailing (``"variables"``) shape
        (``+ (k,)``).  The loop over points runs in C, by blocks of
        :attr:`block` points where there is a blocked function, on
        ``workers`` threads (default :attr:`workers`; None: every core when
        the call has at least :data:`PARALLEL_WORK` points x operations,
        else one), which take contiguous pieces of the points in turn
        (:data:`PIECES_PER_THREAD` per thread).
        """
        if layout not in LAYOUTS:
            raise OptionError(f"layout={layout!r}: use 'points' (n x nvars) or 'variables' (nvars x n)")
        nv = len(self.symbols)
        pts = np.asarray(points, dtype=np.float64)
        if layout == "variables" and pts.ndim:
            pts = np.moveaxis(pts, 0, -1)
        if pts.ndim == 0 or pts.shape[-1] != nv:
            axis = "last" if layout == "points" else "first"
            raise OptionError(f"points must have {nv} values on their {axis} axis "
                             f"({', '.join(map(str, self.symbols))}), got shape {np.shape(points)}")
        lead = pts.shape[:-1]
        n = int(np.prod(lead, dtype=np.int64))
        out = np.empty(n * self.n_outputs, dtype=self.dtype)
        if n:
            self._run(pts.reshape(n, nv), out, n, workers if workers is not None else self.workers)
        shape = lead + ((self.n_outputs,) if self.n_outputs > 1 else ())
        values = out.reshape(shape)
        if values.ndim:
            return values
        return values[()] if self.precision == "long double" else values.item()

    def _threads(self, n: int, workers: int | None) -> int:
        if workers is None:
            return cores() if n * max(self.ops, 1) >= PARALLEL_WORK else 1
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise OptionError(f"workers={workers!r}: a positive number of threads (or None: every core)")
        return workers

    def _run(self, pts: np.ndarray, out: np.ndarray, n: int, workers: int | None) -> None:
        """``out`` <- the values at the ``n`` points ``pts`` (``(n, nvars)``, any strides), on threads."""
        nv = len(self.symbols)
        step = max(self.block, GROUP_POINTS) if self.block else 1  # a piece is whole groups of blocks
        groups = (n + step - 1) // step
        threads = max(1, min(self._threads(n, workers), groups))
        # several pieces per thread, taken in turn: a thread slowed by another process takes fewer
        pieces = 1 if threads == 1 else PIECES_PER_THREAD * threads
        size = (groups + pieces - 1) // pieces * step  # points per piece
        blocked = self._blocks
        if blocked is not None:
            if pts.strides[0] % 8 or pts.strides[1] % 8 or pts.strides[0] < 0 or pts.strides[1] < 0:
                pts = np.ascontiguousarray(pts)
            sp, sv = pts.strides[0] // 8, (pts.strides[1] // 8 if nv else 1)
            base, target = pts.ctypes.data, out.ctypes.data

            def work(start: int, stop: int) -> None:
                if blocked(base + 8 * start * sp, sp, sv, target + 8 * start * self.n_outputs, stop - start):
                    raise MemoryError(f"{self.name}_blocks_batch could not allocate the temporaries of a group of "
                                      f"points (out of memory); compile(..., block=None) evaluates point by point")
        else:
            pts = np.ascontiguousarray(pts)
            item = out.itemsize
            base, target = pts.ctypes.data, out.ctypes.data
            batch = self._batch

            def work(start: int, stop: int) -> None:
                batch(ctypes.cast(base + 8 * start * nv, ctypes.POINTER(ctypes.c_double)),
                      ctypes.cast(target + item * start * self.n_outputs, ctypes.POINTER(self._ctype)),
                      stop - start)
        starts = iter(range(0, n, size))  # next() is atomic under the GIL
        failed: list[BaseException] = []

        def worker() -> None:
            try:
                for start in starts:
                    work(start, min(start + size, n))
            except BaseException as err:  # re-raised by the calling thread
                failed.append(err)

        # ctypes releases the GIL during the call: the threads run the C code in parallel
        others = [threading.Thread(target=worker) for _ in range(threads - 1)]
        for t in others:
            t.start()
        try:
            worker()
        finally:
            for t in others:
                t.join()
        if failed:
            raise failed[0]


def _build(exe: str, flags, source: str, library: Path) -> None:
    """Compile ``source`` into ``library``: built beside it, then renamed over it (readers never see half a file)."""
    with tempfile.TemporaryDirectory(dir=library.parent) as tmp:
        src = Path(tmp) / (library.stem + ".c")
        src.write_text(source)
        built = Path(tmp) / library.name
        try:
            proc = subprocess.run([exe, *flags, "-o", str(built), str(src), "-lm"], capture_output=True, text=True)
        except OSError as err:
            raise RuntimeError(f"could not run the C compiler {exe}: {err}") from err
        if proc.returncode != 0:
            raise RuntimeError(f"the C compiler failed ({exe} {' '.join(flags)}):\n"
                               f"{(proc.stderr or proc.stdout)[-4000:]}")
        os.replace(built, library)


def compile(obj, *, precision: str = "double", name: str = "f", compiler: str | None = None,
            flags=_C_FLAGS, cache: bool = True, chunk: int | None = CHUNK, args=None, block: int | str | None = BLOCK,
            workers: int | None = None) -> CompiledPolynomial:
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
        Default ``-O2 -march=native -mno-fma -fno-tree-slp-vectorize -shared -fPIC -ffp-contract=off``
        (the machine's vector width; no fused multiply-add, so results are
        reproducible across machines; ``-mno-fma -fno-tree-slp-vectorize`` on x86 only).
    chunk : int or None
        Statements per C function, as in :func:`~hornermcts.codegen.to_c`.
    args : sequence of symbols or names, optional
        The order of the variables on a point's last axis, as in
        :func:`~hornermcts.codegen.to_c`; ``compiled.symbols`` gives it.
    block : int, "native" or None, default "native" (:data:`~hornermcts.codegen.c.BLOCK`)
        Precision "double": points per block of the blocked batch function
        (a power of two up to 64, or the target's vector width: 8 with
        AVX-512, 4 with AVX, else 2; see :func:`~hornermcts.codegen.to_c`),
        which every call with many points uses; None: one point after the
        other.  The other precisions always go point by point.
    workers : int or None
        Threads per call (the callable's default; each call may override
        it); None: every core when the call has enough work.
    cache : bool, default True
        Keep the library in ``$HORNERMCTS_CACHE`` (default
        ``~/.cache/hornermcts``), named by a hash of the source, compiler and
        flags, and reuse it; False compiles into a temporary directory.  A
        cache directory or library another user could have written is not
        used (see the module docstring): a warning, and a temporary directory.

    Returns
    -------
    CompiledPolynomial
        Callable on one point, on an ``(n, nvars)`` array or (``layout="variables"``)
        an ``(nvars, n)`` one: one call into the batch function per thread, no
        Python loop per point.

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
    >>> from hornermcts.dag.horner import horner_dag
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
    if precision != "double":
        block = None
    source = to_c(obj, name, precision=precision, batch=True, chunk=chunk, args=args, block=block)
    return _load(source, name, input_symbols(obj, args), count_outputs(obj), precision, flags, compiler, cache,
                 block is not None, workers)


#: Callables loaded from pickles in this process, by their pickled state: a dask worker receives the same
#: callable with every task, and loads its library once.
_UNPICKLED: dict = {}


def _unpickle(*state) -> CompiledPolynomial:
    """A pickled callable, loaded once per process (see :data:`_UNPICKLED`)."""
    key = hashlib.sha256(repr(state).encode()).hexdigest()
    found = _UNPICKLED.get(key)
    if found is None:
        found = _UNPICKLED[key] = _load(*state)
    return found


def _load(source: str, name: str, symbols, n_outputs: int, precision: str, flags, compiler: str | None,
          cache: bool, blocked: bool, workers: int | None) -> CompiledPolynomial:
    """The library of ``source``: from the cache, or built (see :func:`compile`); also how a pickle is loaded."""
    flags = list(flags)
    compiler = compiler or os.environ.get("CC") or "cc"
    exe = shutil.which(compiler)
    if exe is None:
        raise RuntimeError(f"no C compiler: {compiler!r} is not on PATH (install gcc or set $CC)")
    native = any(f.startswith(("-march=native", "-mcpu=native", "-mtune=native")) for f in flags)
    key = hashlib.sha256("\0".join([source, exe, *flags, _cpu() if native else ""]).encode()).hexdigest()[:24]
    directory = _private_cache() if cache else None
    scratch = None
    if directory is None:
        scratch = tempfile.TemporaryDirectory(prefix="hornermcts-")  # mkdtemp: 0700, ours
        directory = Path(scratch.name)
    library = directory / f"{name}-{key}.so"
    if library.exists() or library.is_symlink():
        problem = _unsafe(library, "file")
        if problem is not None:
            warnings.warn(f"hornermcts: {library} is not loaded ({problem}); compiling it anew", stacklevel=3)
            scratch = tempfile.TemporaryDirectory(prefix="hornermcts-")
            library = Path(scratch.name) / library.name
    fresh = not library.exists()
    if fresh:
        _build(exe, flags, source, library)
    try:
        compiled = CompiledPolynomial(library, source, name, symbols, n_outputs, precision)
    except (OSError, AttributeError) as err:  # a cached library cut short or damaged: "file too short", no symbol
        if fresh:
            raise
        warnings.warn(f"hornermcts: the cached library {library} could not be loaded ({err}); compiling it anew",
                      stacklevel=3)
        _build(exe, flags, source, library)
        compiled = CompiledPolynomial(library, source, name, symbols, n_outputs, precision)
    compiled._scratch = scratch  # removed with the object
    compiled.flags = tuple(flags)
    compiled._compiler, compiled._cache = compiler, cache
    lanes = getattr(compiled._lib, name + "_lanes", None) if blocked else None
    compiled.block = int(lanes()) if lanes is not None else None
    compiled.workers = compiled._threads(1, workers) if workers is not None else None
    found = re.search(r"(\d+) operations in FORM's model", source)
    compiled.ops = int(found.group(1)) if found else 0
    return compiled
