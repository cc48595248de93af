"""Time evaluating a polynomial at many points four ways, in one run.

(a) ``sympy.lambdify`` of the input polynomial (``poly.to_sympy()``, numpy
    module; its one huge expression needs a raised recursion limit, so it is
    built in a thread with a large stack);
(b) our NumPy code (:func:`hornermcts.codegen.to_numpy`), in double and in
    compensated arithmetic (``precision="compensated"``);
(c) our compiled C, batch function (:func:`hornermcts.codegen.compile`),
    in double and compensated (``--fma``: also compensated with ``-mfma``);
(d) FORM's own optimized code (``#optimize`` at level O3 by default, written
    with ``%O``): its ``Z1_=...;`` statements and ``F = ...;`` translated
    mechanically into one C function (each statement parsed by SymPy,
    printed by SymPy's C99 printer, ``x^n`` as repeated products), compiled
    with the same compiler and flags as (c).

Our order is the one ``optimize(poly, iterations=N, seed=0)`` finds (N=300
by default; ``--iterations 0`` takes the occurrence order).  All four are
checked against each other, and each against exact rational values (the
input polynomial at the points' exact binary values, ``exact_values`` of
``tests/test_codegen.py``) at 1000 points uniform in [-1, 1] (the first of
the timed points) and 1000 uniform in [0.5, 2]: the max relative error.

    python benchmarks/evaluation_speed.py [--expression "res(7,5)"] [--points 100000]
        [--iterations 300] [--form-level 3] [--repeat 3] [--skip-lambdify] [--fma]
        [--accuracy-points 1000]
"""
from __future__ import annotations

import argparse
import ctypes
import re
import subprocess
import sys
import tempfile
import threading
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
import sympy
from sympy.parsing.sympy_parser import parse_expr
from sympy.printing.c import C99CodePrinter

from hornermcts import codegen, families, form
from hornermcts.optimize import optimize
from hornermcts.textio import form_names

from delivered import emitted_ops, ours_in_code

FLAGS = ("-O2", "-shared", "-fPIC", "-ffp-contract=off")


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


def compile_c(source: str, name: str, directory: Path):
    src = directory / f"{name}.c"
    src.write_text(source)
    lib = directory / f"lib{name}.so"
    proc = subprocess.run(["cc", *FLAGS, "-o", str(lib), str(src), "-lm"], capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr[-3000:])
    dll = ctypes.CDLL(str(lib))
    fn = getattr(dll, name + "_batch")
    fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_long]
    fn.restype = None

    def call(points):
        pts = np.ascontiguousarray(points, dtype=np.float64)
        out = np.empty(len(pts))
        fn(pts.ctypes.data, out.ctypes.data, len(pts))
        return out

    call._dll = dll
    return call


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


def relative_errors(values, exact) -> np.ndarray:
    """|v - e| / |e| per point, exactly (``exact`` Fractions)."""
    return np.array([float(abs(Fraction(v) - e) / abs(e)) for v, e in zip(np.asarray(values, dtype=np.float64).tolist(),
                                                                           exact)])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--expression", default="res(7,5)")
    ap.add_argument("--points", type=int, default=100_000)
    ap.add_argument("--iterations", type=int, default=300, help="optimize() iterations; 0: occurrence order")
    ap.add_argument("--form-level", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=3, help="runs per method (best kept); lambdify runs once")
    ap.add_argument("--skip-lambdify", action="store_true")
    ap.add_argument("--fma", action="store_true",
                    help="also time the compensated C built with -mfma (TwoProd by the fma instruction; needs a CPU "
                         "with FMA)")
    ap.add_argument("--accuracy-points", type=int, default=1000,
                    help="points per set for the relative errors against exact values (0: none)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    poly = families.load(args.expression)
    pts = np.random.default_rng(args.seed).uniform(-1.0, 1.0, (args.points, poly.n_vars))
    columns = [np.ascontiguousarray(pts[:, j]) for j in range(poly.n_vars)]
    print(f"{args.expression}: {poly.n_terms} terms, {poly.n_vars} variables; {args.points} points, "
          f"uniform in [-1, 1]; compiler flags {' '.join(FLAGS)}", flush=True)

    start = time.perf_counter()
    result = optimize(poly, iterations=args.iterations, seed=0)
    how = (f"optimize(iterations={args.iterations}, seed=0)" if args.iterations
           else "occurrence order")
    print(f"our order: {how}, {time.perf_counter() - start:.1f} s: {result.after.total} ops "
          f"(occurrence order {min(result.baselines.values())})", flush=True)

    ours = {}  # method -> callable on an (n, nvars) array of points
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        builds = [("ours, compiled C (batch)", {}), ("ours, compensated C", {"precision": "compensated"})]
        if args.fma:
            builds.append(("ours, compensated C -mfma", {"precision": "compensated", "flags": (*FLAGS, "-mfma")}))
        for method, options in builds:
            start = time.perf_counter()
            ours[method] = codegen.compile(result, cache=False, **options)
            print(f"{method}: generated and compiled in {time.perf_counter() - start:.1f} s", flush=True)
        for method, precision in (("ours, NumPy code", "double"), ("ours, compensated NumPy", "compensated")):
            ours[method] = codegen.load_python(codegen.to_numpy(result, precision=precision))

        form_c = form_ops = None
        if form.available():
            start = time.perf_counter()
            code_path = tmp / "form_code.txt"
            form.run_form(poly, level=args.form_level, code=code_path)
            form_ops = emitted_ops.total(emitted_ops.count_form(code_path.read_text()))  # in FORM's code
            print(f"FORM O{args.form_level}: {form_ops} ops, {time.perf_counter() - start:.1f} s", flush=True)
            start = time.perf_counter()
            source = form_code_to_c(code_path.read_text(), poly.symbols, form_names(poly.symbols))
            form_c = compile_c(source, "form_f", tmp)
            print(f"FORM's code: translated and compiled in {time.perf_counter() - start:.1f} s", flush=True)
        else:
            print("FORM not available (apt-get install -y form): no FORM row")

        rows = []  # (method, seconds, ops, values, callable on points)
        ours_ops = ours_in_code(result)  # in our emitted code, == result.after.total
        methods = [(m, f, ours_ops) for m, f in ours.items() if "C" in m]
        if form_c is not None:
            methods.append((f"FORM O{args.form_level} code as C", form_c, form_ops))
        methods += [(m, f, ours_ops) for m, f in ours.items() if "NumPy" in m]
        for method, fn, ops in methods:
            secs, values = best_of(lambda fn=fn: fn(pts), args.repeat)
            rows.append((method, secs, ops, values, fn))
        reference = rows[0][3]
        if not args.skip_lambdify:
            start = time.perf_counter()
            expr = poly.to_sympy()
            lam = in_big_stack(lambda: sympy.lambdify(poly.symbols, expr, "numpy"))
            print(f"lambdify: built in {time.perf_counter() - start:.1f} s", flush=True)
            secs, values = best_of(lambda: lam(*columns), 1)
            from hornermcts.opcount import original_count
            rows.append(("sympy.lambdify (numpy)", secs, original_count(poly).total, values, lambda p: lam(*p.T)))

        accuracy = []  # (label, [max relative error per row])
        if args.accuracy_points:
            sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
            from test_codegen import exact_values  # exact rational values, vectorised over points

            n = args.accuracy_points
            sets = [(f"[-1, 1] (the first {n})", pts[:n]),
                    ("[0.5, 2]", np.random.default_rng(args.seed + 1).uniform(0.5, 2.0, (n, poly.n_vars)))]
            for label, points in sets:
                start = time.perf_counter()
                exact = exact_values(poly, points, magnitude=False)
                accuracy.append((label, [relative_errors(fn(points), exact).max() for *_, fn in rows]))
                print(f"exact values at {n} points in {label}: {time.perf_counter() - start:.1f} s", flush=True)

    scale = float(np.abs(reference).max())
    t_c = rows[0][1]
    t_lambdify = next((s for m, s, *_ in rows if m.startswith("sympy")), None)
    t_form = next((s for m, s, *_ in rows if m.startswith("FORM")), None)
    print()
    print(f"{'method':<28} {'ops':>7} {'seconds':>9} {'t/C':>7} {'lambdify/t':>11} {'t/FORM C':>9} "
          f"{'max |v-C|/max|C|':>17}")
    for method, secs, ops, values, _ in rows:
        vs_l = f"{t_lambdify / secs:10.1f}x" if t_lambdify else f"{'n/a':>11}"
        vs_f = f"{secs / t_form:8.2f}x" if t_form else f"{'n/a':>9}"
        dev = float(np.abs(np.asarray(values, dtype=np.float64) - reference).max()) / scale
        print(f"{method:<28} {ops:>7} {secs:9.3f} {secs / t_c:6.1f}x {vs_l} {vs_f} {dev:17.2e}")
    print("t/C: time relative to our plain compiled C; lambdify/t: speed-up over lambdify; t/FORM C: time "
          "relative to FORM's code compiled alike (< 1: ours faster); ops in FORM's model (lambdify: the "
          "unoptimized input)")
    if accuracy:
        print(f"\nmax relative error |v - exact| / |exact| against exact rational values, "
              f"{args.accuracy_points} points uniform in:")
        print(f"{'method':<28} " + " ".join(f"{label:>22}" for label, _ in accuracy))
        for k, (method, *_) in enumerate(rows):
            print(f"{method:<28} " + " ".join(f"{errors[k]:22.2e}" for _, errors in accuracy))


if __name__ == "__main__":
    main()
