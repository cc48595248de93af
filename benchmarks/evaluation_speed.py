"""Evaluation throughput at many points, in one run: our compiled code against FORM's code, lambdify, Symbolica.

For each expression (default HEP(sigma), res(7,5), res(7,6)) at ``--points``
points (default 10^6, uniform in [-1, 1]) and for each set of compiler flags
(``-O3`` and ``-O3 -march=native -mno-fma -fno-tree-slp-vectorize``, each with ``-ffp-contract=off``,
the same compiler and flags for every C code):

* ours, blocked batch (:func:`hornermcts.codegen.compile`, blocks of the
  target's vector width), on one core and on every core (``workers=``);
* ours, the single-point function called point by point (``name_batch``,
  the loop every version before the blocked batch used);
* FORM O4's code (``#optimize`` at O4, written with ``%O``) translated
  mechanically into one C function (each statement parsed by SymPy, printed
  by SymPy's C99 printer, ``x^n`` as repeated products), called point by
  point, on one core; its output is cached in ``--form-cache`` (FORM O4 on
  res(7,6) takes minutes);
* ``sympy.lambdify`` of the input polynomial (NumPy), on ``--lambdify-points``;
* Symbolica's compiled evaluator (PyPI ``symbolica``, optional: without a
  licence it runs single-threaded), ``real`` and ``real_4x`` (SIMD), on the
  input polynomial, compiled by Symbolica at ``-O3`` (native with native flags).

Each C library (ours, FORM's) is timed on ``--loads`` fresh copies of its
file, best of ``--repeat`` runs on each, and the median over the copies is
reported (each copy's figure printed beside it): where the code sits in
physical memory moves its speed by up to 1.7x on this machine (see
:func:`fresh_copies`).  Points/s, the speed-up over FORM's code, and the operations per second
(operations of each code in FORM's model x points/s) against the core's
peak: (additions + multiplications per cycle) x clock, from ``lscpu`` and
``/proc/cpuinfo`` (the assumption is printed).  Every method's values are
compared with ours at the first 1000 points; our blocked values must be
bit-identical to the single-point function's.

    nice -n 10 python benchmarks/evaluation_speed.py [--expressions hep_sigma "res(7,5)" "res(7,6)"]
        [--points 1000000] [--iterations N] [--repeat 3] [--loads 5] [--lambdify-points 20000] [--skip-symbolica]
        [--block-sweep "res(7,5)"]
"""
from __future__ import annotations

import argparse
import ctypes
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import sympy
from sympy.parsing.sympy_parser import parse_expr
from sympy.printing.c import C99CodePrinter

from hornermcts import codegen

from hornermcts.research import families, form
from hornermcts.pipeline import optimize
from hornermcts.codegen.compiled import NO_FUSION, CompiledPolynomial, cores
from hornermcts.cost.counting import original_count
from hornermcts.polynomial.text import form_names

from delivered import emitted_ops, ours_in_code

BASE = ("-shared", "-fPIC", "-ffp-contract=off")
# NO_FUSION (-mno-fma -fno-tree-slp-vectorize on x86) with -march=native: GCC 12 fuses SLP-vectorised multiply-adds
# in scalar code even with -ffp-contract=off (see codegen.compiled); so every code is evaluated as written.
FLAG_SETS = (("-O3",), ("-O3", "-march=native", *NO_FUSION))
CACHE = Path(__file__).resolve().parent / "results" / "form_cache"


# ------------------------------------------------------------ FORM's code as C
class _FormCPrinter(C99CodePrinter):
    """C99 printer for FORM's statements: numbers as doubles, ``x^n`` as products."""

    def __init__(self):
        super().__init__({"order": "none", "strict": True})

    def _print_Integer(self, expr):
        return f"{int(expr)}.0"

    def _print_Rational(self, expr):
        return f"({int(expr.p)}.0/{int(expr.q)}.0)"

    def _print_Pow(self, expr):
        base, exp = expr.args
        if exp.is_Integer and exp >= 2:
            b = self.parenthesize(base, 100)  # atoms stay bare, anything else in parentheses
            return "(" + "*".join([b] * int(exp)) + ")"
        return super()._print_Pow(expr)


def form_code_to_c(text: str, symbols, renamed: dict, name: str = "form_f") -> str:
    """FORM's ``%O`` output plus ``F = ...;`` as a C function ``double name(const double *x)``
    (and ``name_batch``), ``x`` in the order of ``symbols``."""
    statements = [" ".join(s.split()) for s in text.split(";") if s.strip()]
    form_name = {s: renamed.get(s, str(s)) for s in symbols}
    identifiers = set(re.findall(r"[A-Za-z][A-Za-z0-9_]*", text))
    table = {n: sympy.Symbol(n) for n in identifiers}
    printer = _FormCPrinter()
    inputs = [(table.get(form_name[s], sympy.Symbol(form_name[s])), k) for k, s in enumerate(symbols)]
    temps: list[str] = []
    body: list[str] = []
    result = None
    for stmt in statements:
        lhs, rhs = (part.strip() for part in stmt.split("=", 1))
        expr = parse_expr(rhs.replace("^", "**"), local_dict=table, evaluate=False)
        code = printer.doprint(expr)
        if lhs == "F":
            result = code
            continue
        if lhs not in temps:
            temps.append(lhs)
        body.append(f"   {printer.doprint(table[lhs])} = {code};")
    if result is None:
        raise ValueError("FORM's code has no 'F = ...;' statement")
    lines = ["#include <math.h>", "", f"double {name}(const double *x) {{"]
    lines += [f"   const double {printer.doprint(sym)} = x[{k}];" for sym, k in inputs]
    lines += [f"   double {', '.join(printer.doprint(table[t]) for t in temps[i:i + 20])};"
              for i in range(0, len(temps), 20)]
    lines += body + [f"   return {result};", "}", "",
                     f"void {name}_batch(const double *xs, double *out, long n) {{",
                     "   for (long i = 0; i < n; ++i) {",
                     f"      out[i] = {name}(xs + i*{len(symbols)});",
                     "   }", "}"]
    return "\n".join(lines) + "\n"


def compile_c(source: str, name: str, directory: Path, flags=("-O2", *BASE)):
    src = directory / f"{name}.c"
    src.write_text(source)
    lib = directory / f"lib{name}{abs(hash(tuple(flags)))}.so"
    proc = subprocess.run(["cc", *flags, "-o", str(lib), str(src), "-lm"], capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr[-3000:])
    dll = ctypes.CDLL(str(lib))
    call = _batch_caller(dll, name)
    call._dll, call.library = dll, lib
    return call


def fresh_copies(library: Path, k: int, directory: Path) -> list[Path]:
    """``k`` copies of a shared library, each a new file: loaded, each runs from page-cache pages of its own.

    Where a library's code sits in physical memory changes its speed on this
    machine, by up to 1.7x for the same file (measured: FORM's code for
    HEP(sigma) at 1.07 and at 1.85 million points/s from two copies of one
    library, each stable over repeated runs), so every C code is timed on
    several copies and the median reported.
    """
    paths = []
    for i in range(k):
        path = directory / f"{library.stem}-copy{i}{library.suffix}"
        shutil.copyfile(library, path)
        paths.append(path)
    return paths


def loaded_from(compiled, path: Path):
    """``compiled`` (a CompiledPolynomial) loaded from another copy of its library."""
    copy = CompiledPolynomial(path, compiled.source, compiled.name, compiled.symbols, compiled.n_outputs,
                              compiled.precision)
    copy.flags, copy.block, copy.workers, copy.ops = compiled.flags, compiled.block, compiled.workers, compiled.ops
    return copy


def optimized(poly, iterations: int | None):
    """``optimize(poly, seed=0)``, with ``iterations`` if given (else the default preset's), and the call as text."""
    settings = {} if iterations is None else {"iterations": iterations}
    call = ", ".join(f"{k}={v}" for k, v in {**settings, "seed": 0}.items())
    return optimize(poly, seed=0, **settings), f"optimize({call})"


# --------------------------------------------------------------------- timing
def best_of(fn, repeat: int):
    times, value = [], None
    for _ in range(max(repeat, 1)):
        start = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - start)
    return min(times), value


def in_big_stack(fn):
    """Run ``fn()`` in a thread with a 512 MiB stack and a high recursion limit."""
    box = {}

    def target():
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(200_000)
        try:
            box["value"] = fn()
        except BaseException as err:  # reported by the caller
            box["error"] = err
        finally:
            sys.setrecursionlimit(old)

    old_size = threading.stack_size(512 * 2**20)
    try:
        thread = threading.Thread(target=target)
        thread.start()
        thread.join()
    finally:
        threading.stack_size(old_size)
    if "error" in box:
        raise box["error"]
    return box["value"]


def peak() -> tuple[float, str]:
    """The core's peak additions + multiplications per second, and the assumption behind it."""
    mhz = 0.0
    try:
        mhz = max(float(m) for m in re.findall(r"cpu MHz\s*:\s*([\d.]+)", Path("/proc/cpuinfo").read_text()))
    except (OSError, ValueError):
        pass
    lscpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    model = re.search(r"Model name:\s*(.*)", lscpu)
    flags = re.search(r"Flags:\s*(.*)", lscpu)
    width = 8 if flags and "avx512f" in flags.group(1) else 4 if flags and "avx" in flags.group(1) else 2
    per_cycle = 2 * 2 * width  # two add pipes and two multiply (FMA) pipes, each a vector of `width` doubles
    text = (f"{model.group(1).strip() if model else platform.processor()} at {mhz:.0f} MHz (/proc/cpuinfo), "
            f"{width} doubles per vector; assumed 2 vector adds + 2 vector multiplies per cycle (Zen 3 / recent "
            f"Intel, no FMA counted as 2): {per_cycle} ops/cycle, peak {per_cycle * mhz / 1e3:.1f} Gops/s per core")
    return per_cycle * mhz * 1e6, text


def form_code(name: str, poly, level: int, cache: Path) -> str:
    """FORM's O``level`` code for ``poly`` (cached in ``cache``)."""
    key = re.sub(r"[^0-9A-Za-z]+", "_", name).strip("_")
    path = cache / f"{key}.O{level}.txt"
    if not path.exists():
        cache.mkdir(parents=True, exist_ok=True)
        start = time.perf_counter()
        form.run_form(poly, level=level, code=path.with_suffix(".tmp"))
        path.with_suffix(".tmp").rename(path)
        print(f"  FORM O{level}: {time.perf_counter() - start:.0f} s (cached in {path.name})", flush=True)
    return path.read_text()


_EVALUATORS: dict = {}


def symbolica_evaluators(poly, tmp: Path, native: bool):
    """Symbolica's compiled evaluators (``real``, ``real_4x``) of ``poly``, or a reason."""
    try:
        import symbolica as sb
    except ImportError:
        return {}, "symbolica not installed (pip install symbolica)"
    start = time.perf_counter()
    if id(poly) not in _EVALUATORS:  # one Symbolica evaluator per expression, compiled per flag set
        text = str(poly.to_sympy()).replace("**", "^")
        _EVALUATORS[id(poly)] = sb.E(text).evaluator([sb.S(str(s)) for s in poly.symbols])
    ev = _EVALUATORS[id(poly)]
    built = time.perf_counter() - start
    out, failed = {}, []
    for kind in ("real", "real_4x"):
        start = time.perf_counter()
        tag = f"{kind}{'_native' if native else ''}"
        try:
            out[f"Symbolica {kind}"] = ev.compile(f"sb_{tag}", str(tmp / f"sb_{tag}.cpp"), str(tmp / f"sb_{tag}.so"),
                                                  kind, optimization_level=3, native=native)
        except Exception as err:  # an optional peer: say why and go on
            failed.append(f"{kind}: {str(err).splitlines()[0][:300]}")
            continue
        print(f"  Symbolica {kind}: evaluator {built:.1f} s, compiled in {time.perf_counter() - start:.1f} s",
              flush=True)
    return out, "; ".join(failed)


def sweep(args) -> None:
    """Points/s of the blocked code against the block size, one core."""
    poly = families.load(args.block_sweep)
    result, _ = optimized(poly, args.iterations)
    pts = np.random.default_rng(args.seed).uniform(-1.0, 1.0, (args.sweep_points, poly.n_vars))
    print(f"\nblock sweep, {args.block_sweep} ({result.after.total} ops), {args.sweep_points} points, one core:")
    for flags in FLAG_SETS:
        for block in (1, 2, 4, 8):
            f = codegen.compile(result, flags=(*flags, *BASE), block=block, workers=1)
            secs, _ = best_of(lambda f=f: f(pts), args.repeat)
            print(f"  {' '.join(flags):<18} block {block:>2}: {args.sweep_points / secs:12,.0f} points/s", flush=True)


def single_point_loop(compiled):
    """The library's ``name_batch``: the single-point function called point by point (one core)."""
    return _batch_caller(ctypes.CDLL(str(compiled.library)), compiled.name)


def _batch_caller(dll, name):
    """``name_batch(points, out, n)`` of a loaded library as a function of an (n, nvars) array."""
    fn = getattr(dll, name + "_batch")
    fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_long]
    fn.restype = None

    def call(points):
        pts = np.ascontiguousarray(points, dtype=np.float64)
        out = np.empty(len(pts))
        fn(pts.ctypes.data, out.ctypes.data, len(pts))
        return out

    return call


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--expressions", nargs="+", default=["hep_sigma", "res(7,5)", "res(7,6)"])
    ap.add_argument("--points", type=int, default=1_000_000)
    ap.add_argument("--iterations", type=int, default=None,
                    help="optimize() iterations (default: the default preset's, what a user gets)")
    ap.add_argument("--form-level", type=int, default=4)
    ap.add_argument("--form-cache", type=Path, default=CACHE)
    ap.add_argument("--repeat", type=int, default=3, help="runs per method and load (best kept)")
    ap.add_argument("--loads", type=int, default=5,
                    help="fresh copies of each C library timed (the median reported; see fresh_copies)")
    ap.add_argument("--lambdify-points", type=int, default=20_000, help="points for lambdify (0: skip)")
    ap.add_argument("--skip-symbolica", action="store_true")
    ap.add_argument("--flags", choices=["both", "O3", "native"], default="both")
    ap.add_argument("--block-sweep", metavar="EXPRESSION", help="also sweep the block size on this expression")
    ap.add_argument("--sweep-points", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    cc = subprocess.run(["cc", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    peak_ops, assumption = peak()
    n_cores = cores()
    print(f"# compiler: {cc}; base flags {' '.join(BASE)}; {n_cores} cores; load average "
          f"{' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    print(f"# peak: {assumption}", flush=True)
    flag_sets = {"both": FLAG_SETS, "O3": FLAG_SETS[:1], "native": FLAG_SETS[1:]}[args.flags]
    summary = []
    for name in args.expressions:
        poly = families.load(name)
        pts = np.random.default_rng(args.seed).uniform(-1.0, 1.0, (args.points, poly.n_vars))
        print(f"\n## {name}: {poly.n_terms} terms, {poly.n_vars} variables; {args.points:,} points uniform in "
              f"[-1, 1]", flush=True)
        start = time.perf_counter()
        result, call = optimized(poly, args.iterations)
        ours_ops = ours_in_code(result)
        print(f"  ours: {call} {time.perf_counter() - start:.1f} s, "
              f"{ours_ops} ops in the emitted code (result.after {result.after.total})", flush=True)
        text = form_code(name, poly, args.form_level, args.form_cache)
        form_ops = emitted_ops.total(emitted_ops.count_form(text))
        form_source = form_code_to_c(text, poly.symbols, form_names(poly.symbols))
        lam = None
        if args.lambdify_points:
            start = time.perf_counter()
            expr = poly.to_sympy()
            lam = in_big_stack(lambda poly=poly, expr=expr: sympy.lambdify(poly.symbols, expr, "numpy"))
            print(f"  lambdify: built in {time.perf_counter() - start:.1f} s", flush=True)
        for flags in flag_sets:
            full = (*flags, *BASE)
            rows = []  # (method, ops, points timed, seconds, values at the first 1000 points)
            with tempfile.TemporaryDirectory() as tmp:
                tmp = Path(tmp)
                start = time.perf_counter()
                ours = codegen.compile(result, flags=full, workers=1)
                print(f"  [{' '.join(flags)}] ours compiled in {time.perf_counter() - start:.1f} s "
                      f"(block {ours.block})", flush=True)
                start = time.perf_counter()
                form_c = compile_c(form_source, "form_f", tmp, full)
                print(f"  [{' '.join(flags)}] FORM's code compiled in {time.perf_counter() - start:.1f} s", flush=True)
                ours_loads = [loaded_from(ours, path) for path in fresh_copies(ours.library, args.loads, tmp)]
                form_loads = [_batch_caller(ctypes.CDLL(str(path)), "form_f")
                              for path in fresh_copies(form_c.library, args.loads, tmp)]
                # (method, ops, one function per load of the library)
                timed = [("ours, blocks, 1 core", ours_ops, [lambda p, f=f: f(p, workers=1) for f in ours_loads]),
                         (f"ours, blocks, {n_cores} cores", ours_ops,
                          [lambda p, f=f: f(p, workers=n_cores) for f in ours_loads]),
                         ("ours, point by point", ours_ops, [single_point_loop(f) for f in ours_loads]),
                         (f"FORM O{args.form_level} code, point by point", form_ops, form_loads)]
                if not args.skip_symbolica:
                    try:
                        evs, reason = symbolica_evaluators(poly, tmp, native="-march=native" in flags)
                    except Exception as err:  # an optional peer: report and go on
                        evs, reason = {}, f"{type(err).__name__}: {err}"
                    if reason:
                        print(f"  Symbolica: {reason}", flush=True)
                    for label, ev in evs.items():
                        timed.append((label + " (1 thread)", None,
                                      [lambda p, ev=ev: np.asarray(ev.evaluate(p)).reshape(len(p), -1)[:, 0]]))
                for method, ops, fns in timed:  # the median over the loads of each one's best of --repeat
                    runs = [best_of(lambda fn=fn, pts=pts: fn(pts), args.repeat) for fn in fns]
                    secs = statistics.median(t for t, _ in runs)
                    values = runs[0][1]
                    rows.append((method, ops, args.points, secs, np.asarray(values), [t for t, _ in runs]))
                if lam is not None and flags == flag_sets[0]:
                    few = pts[:args.lambdify_points]
                    secs, values = best_of(lambda lam=lam, few=few: lam(*few.T), 1)
                    rows.append(("sympy.lambdify (NumPy)", original_count(poly).total, len(few), secs,
                                 np.asarray(values), [secs]))
            reference = rows[0][4]
            same = np.array_equal(rows[0][4], rows[2][4]) and np.array_equal(rows[0][4], rows[1][4])
            t_form = next(r for r in rows if r[0].startswith("FORM"))
            form_rate = t_form[2] / t_form[3]
            one_core = rows[0][2] / rows[0][3]
            print(f"\n  flags {' '.join(full)}; blocked = point by point bit for bit: {same}")
            print(f"  {'method':<34} {'ops':>7} {'points/s':>13} {'x FORM':>7} {'Gops/s':>7} {'% peak':>7} "
                  f"{'max|v-ours|/max|ours|':>22}  points/s of each load (millions)")
            scale = float(np.abs(reference[:1000]).max())
            for method, ops, n, secs, values, each in rows:
                rate = n / secs
                gops = f"{ops * rate / 1e9:7.2f}" if ops else f"{'n/a':>7}"
                share = f"{100 * ops * rate / peak_ops:6.1f}%" if ops and peak_ops else f"{'n/a':>7}"
                dev = float(np.abs(values[:1000] - reference[:1000]).max()) / scale
                loads = " ".join(f"{n / t / 1e6:.3g}" for t in each) if len(each) > 1 else ""
                print(f"  {method:<34} {ops or '?':>7} {rate:13,.0f} {rate / form_rate:6.2f}x {gops} {share} "
                      f"{dev:22.2e}  {loads}", flush=True)
                summary.append((name, " ".join(flags), method, rate, rate / form_rate, rate / one_core))
    print("\n## targets (issue 16 point 2)")
    for name in args.expressions:
        for flags in flag_sets:
            flag = " ".join(flags)
            got = {m: (r, vf, vo) for n, f, m, r, vf, vo in summary if n == name and f == flag}
            single = got["ours, blocks, 1 core"][1]
            every = got[f"ours, blocks, {n_cores} cores"][2]
            print(f"  {name:<10} {flag:<18} single core {single:5.2f}x FORM O{args.form_level}'s code "
                  f"(target >= 2: {'met' if single >= 2 else 'NOT met'}); {n_cores} cores {every:4.2f}x our "
                  f"single core (target >= 1.8: {'met' if every >= 1.8 else 'NOT met'})")
    if args.block_sweep:
        sweep(args)


if __name__ == "__main__":
    main()
