"""Expressions as written (issue 35): hornermcts against sympy.cse, SymEngine and Symbolica, one run, one machine.

Every count is read from what each side emits, with one counter
(:func:`ops`): FORM's model (a sum of k operands k-1, a product of k
factors k-1 with a number other than +-1 a factor, ``x^n`` by repeated
squaring), plus 1 for each division, each non-integer power and each
function call.  sympy.cse (both ``optimizations`` settings), symengine.cse
and hornermcts give assignments; Symbolica's ``evaluator_multiple``
(``iterations=10``, one core) gives its instruction list.  Times are wall
seconds of the call, warm (each side run once on a small input first, then
the median of ``--repeats`` calls); peak memory is tracemalloc's peak of the
Python heap during one call (SymEngine's and Symbolica's native heaps are
not seen).  SymEngine and Symbolica are benchmark-only peers (``pip install
-e '.[peers]'``); a missing one is reported as such.

Usage::

    python benchmarks/structured.py [--sets NAME,...] [--repeats 3] [--out benchmarks/results/structured.txt]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

import sympy

import hornermcts

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "structured"
SETS = {
    "pendulum5 forcing": "pydy_pendulum5_forcing",
    "pendulum5 Jacobian": "pydy_pendulum5_jacobian",
    "gait2d row 10": "gait2d_row10",
    "gait2d rows 9-17": "gait2d_rows9_17",
}


def load_set(stem: str) -> list:
    """A list of SymPy expressions from ``shared/data/structured/<stem>.srepr`` (trusted data: sympify evaluates)."""
    return [sympy.sympify(e) for e in sympy.sympify((SHARED / f"{stem}.srepr").read_text())]


def n_link_pendulum(n: int) -> list:
    """Mass matrix (full) and forcing (full) of ``n_link_pendulum_on_cart``, q(t), u(t) replaced by symbols."""
    from sympy.physics.mechanics.models import n_link_pendulum_on_cart

    kane = n_link_pendulum_on_cart(n, cart_force=True, joint_torques=True)
    exprs = [*kane.mass_matrix_full, *kane.forcing_full]
    t = sympy.Symbol("t")
    funcs = sorted({f for e in exprs for f in e.atoms(sympy.Function) if f.args == (t,)}, key=str)
    derivs = sorted({d for e in exprs for d in e.atoms(sympy.Derivative)}, key=str)
    subs = {d: sympy.Symbol(f"d{str(d.expr.func)}") for d in derivs}
    subs.update({f: sympy.Symbol(str(f.func)) for f in funcs})
    return [e.subs(subs) for e in exprs if e != 0]


def arm6() -> tuple[list, list, list]:
    """A 6-DOF arm, standard DH parameters all symbolic: ``(pose entries, 6x6 geometric Jacobian entries, joints)``.

    Frame i: ``Rz(q_i) Tz(d_i) Tx(a_i) Rx(alpha_i)``; the pose is the top 3x4 of the product, the
    Jacobian's column i is ``z_(i-1) x (p_6 - p_(i-1))`` over ``z_(i-1)``.
    """
    q = sympy.symbols("q1:7")
    d, a, alpha = sympy.symbols("d1:7"), sympy.symbols("a1:7"), sympy.symbols("alpha1:7")
    frames = [sympy.eye(4)]
    for i in range(6):
        c, s, ca, sa = sympy.cos(q[i]), sympy.sin(q[i]), sympy.cos(alpha[i]), sympy.sin(alpha[i])
        step = sympy.Matrix([[c, -s * ca, s * sa, a[i] * c], [s, c * ca, -c * sa, a[i] * s], [0, sa, ca, d[i]],
                             [0, 0, 0, 1]])
        frames.append(frames[-1] * step)
    end = frames[-1][:3, 3]
    columns = []
    for i in range(6):
        z, p = frames[i][:3, 2], frames[i][:3, 3]
        columns.append(sympy.Matrix.vstack(z.cross(end - p), z))
    jacobian = sympy.Matrix.hstack(*columns)
    return [e for e in frames[-1][:3, :] if e != 0], [e for e in jacobian if e != 0], list(q)


def pendulum_jacobian():
    """``(J, states)``: the 6x6 Jacobian of ``n_link_pendulum_on_cart(2)``'s full forcing vector w.r.t. its 6 states."""
    from sympy.physics.mechanics.models import n_link_pendulum_on_cart

    kane = n_link_pendulum_on_cart(2, cart_force=True, joint_torques=True)
    funcs = [*kane.q, *kane.u]
    states = [sympy.Symbol(str(f.func)) for f in funcs]
    forcing = kane.forcing_full.subs(dict(zip(funcs, states)))
    return forcing.jacobian(states), states


def lambdify_jacobian(repeats: int) -> str:
    """``lambdify(states, J, cse=...)`` of :func:`pendulum_jacobian`: warm seconds and operations, cse=True and ours."""
    jacobian, states = pendulum_jacobian()
    out = []
    for label, cse in (("cse=True", True), ("cse=hornermcts.cse", hornermcts.cse)):
        _, sec, _ = timed(lambda cse=cse: sympy.lambdify(states, jacobian, cse=cse), repeats)
        replacements, reduced = (sympy.cse if cse is True else cse)([*jacobian])
        out.append(f"{label}: {sec:.3f} s, {ops(replacements, reduced)} operations")
    return "lambdify of the 2-link pendulum on a cart's 6x6 forcing Jacobian (warm): " + "; ".join(out)


def ops(statements, outputs) -> int:
    """Operations of assignments and outputs: FORM's model, plus 1 per division, non-integer power and call."""
    from hornermcts.cost.counting import own_operations

    total = 0
    stack = [e for _, e in statements] + list(outputs)
    while stack:
        e = stack.pop()
        if not isinstance(e, sympy.Basic) or e.is_Atom:
            continue
        operands, adds, mults, pows = own_operations(e)
        total += adds + mults + pows
        if isinstance(e, sympy.Function) or (e.is_Pow and not e.exp.is_Integer):
            total += 1
        stack.extend(operands)
    return total


def symbolica_ops(exprs) -> tuple[int, float] | None:
    """Symbolica's instruction count for ``exprs`` and its wall time, or None when it is not installed."""
    try:
        from symbolica import E, Expression, S
    except ImportError:
        return None
    params = sorted(set().union(*(e.free_symbols for e in exprs)), key=str)
    text = [E(sympy.sstr(e).replace("**", "^").replace("Abs(", "abs(")) for e in exprs]
    start = time.perf_counter()
    ev = Expression.evaluator_multiple(text, [S(str(p)) for p in params], iterations=10, n_cores=1,
                                       jit_compile=False)
    seconds = time.perf_counter() - start
    total = 0
    instructions = ev.get_instructions()
    signs = {k for k, c in enumerate(instructions.constants) if str(c) in ("1", "-1")}
    for ins in instructions.instructions:
        kind = ins[0]
        if kind == "add":
            total += len(ins[2]) - 1
        elif kind == "mul":  # a factor +-1 is a sign: free, as in every other count here
            total += max(sum(1 for op in ins[2] if not (op[0] == "const" and op[1] in signs)) - 1, 0)
        elif kind == "pow":
            n = ins[3]
            total += (hornermcts.cost.counting.power_cost(abs(n)) + (n < 0)) if float(n).is_integer() else 1
        elif kind in ("fun", "powf", "external_fun"):
            total += 1
    return total, seconds


def timed(call, repeats: int):
    """``(value, median seconds, peak MB)`` of ``call()``: the median of ``repeats`` calls, the last one traced."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        value = call()
        times.append(time.perf_counter() - start)
    tracemalloc.start()
    call()
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return value, statistics.median(times), peak


def row(name: str, exprs: list, repeats: int) -> dict:
    written = ops([], exprs)
    out = {"input": name, "written": written}
    for label, kwargs in (("sympy.cse", {}), ("sympy.cse basic", {"optimizations": "basic"})):
        value, sec, mb = timed(lambda kwargs=kwargs: sympy.cse(exprs, **kwargs), repeats)
        out[label] = (ops(*value), sec, mb)
    try:
        import symengine

        se = [symengine.sympify(e) for e in exprs]
        value, sec, _ = timed(lambda: symengine.cse(se), repeats)
        out["symengine.cse"] = (ops([(sympy.sympify(a), sympy.sympify(b)) for a, b in value[0]],
                                    [sympy.sympify(e) for e in value[1]]), sec, float("nan"))
    except ImportError:
        out["symengine.cse"] = None
    sb = symbolica_ops(exprs)
    out["symbolica"] = None if sb is None else (sb[0], sb[1], float("nan"))
    for preset in ("default", "fast"):
        value, sec, mb = timed(lambda preset=preset: hornermcts.cse(exprs, preset=preset), repeats)
        out[f"hornermcts {preset}"] = (ops(*value), sec, mb)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default=",".join([*SETS, "n-link pendulum 3", "n-link pendulum 5",
                                                    "6-DOF arm pose + Jacobian"]))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    x, y = sympy.symbols("x y")
    hornermcts.cse([sympy.sin(x + y) * (x + y) ** 2 + x / (y + 1)])  # compile and load once: warm figures
    peers = ["sympy.cse", "sympy.cse basic", "symengine.cse", "symbolica", "hornermcts default", "hornermcts fast"]
    lines = ["| input (ops as written) | " + " | ".join(peers) + " | default / best peer |",
             "|---|" + "---|" * (len(peers) + 1)]
    for name in args.sets.split(","):
        if name.startswith("n-link pendulum"):
            exprs = n_link_pendulum(int(name.rsplit(" ", 1)[1]))
        elif name == "6-DOF arm pose + Jacobian":
            pose, jacobian, _ = arm6()
            exprs = pose + jacobian
        else:
            exprs = load_set(SETS[name])
        r = row(name, exprs, args.repeats)
        cells = []
        for p in peers:
            v = r[p]
            cells.append("not installed" if v is None else f"{v[0]} ({v[1]:.2f} s" +
                         (f", {v[2]:.0f} MB)" if v[2] == v[2] else ")"))
        best = min(r[p][0] for p in peers[:4] if r[p] is not None)
        lines.append(f"| {name} ({r['written']}) | " + " | ".join(cells) +
                     f" | {r['hornermcts default'][0] / best:.2f} |")
        print(lines[-1], flush=True)
    lines += ["", lambdify_jacobian(args.repeats)]
    print(lines[-1], flush=True)
    text = "\n".join(lines) + "\n"
    if args.out:
        args.out.write_text(f"# python benchmarks/structured.py, {time.strftime('%Y-%m-%d')}\n\n" + text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
