"""Time the fast counter per order beside FORM's cost per MCTS iteration, in one run.

FORM's figure is the wall time of its ``O3`` MCTS run with ``method=cse``
(Horner + CSE only, ``mctsnumexpand=N``) divided by N: one iteration builds the
Horner form of one order, eliminates common subexpressions and counts.  Ours
is the mean time of ``FastCounter.count`` over N random orders (plus the
occurrence order), after one warm-up call (Numba compiles once per machine,
cached on disk).

    python benchmarks/fast_counter.py [--iterations 1000] [--repeat 3]
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from hornermcts.research import families, form
from hornermcts.cost.fast_counter import FastCounter

from delivered import form_in_code


def time_ours(poly, iterations: int, seed: int = 0) -> float:
    counter = FastCounter(poly)
    rng = np.random.default_rng(seed)
    orders = [np.asarray(poly.occurrence_order(), dtype=np.int64)]
    orders += [rng.permutation(poly.n_vars).astype(np.int64) for _ in range(iterations - 1)]
    counter.count(orders[0])  # compile / load the cache
    start = time.perf_counter()
    for order in orders:
        counter.count(order)
    return (time.perf_counter() - start) / len(orders)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=1, help="FORM runs per expression (the median is used)")
    args = ap.parse_args()
    print(f"{'expression':<10} {'terms':>6} {'ours ms/order':>14} {'FORM ms/iter':>13} {'FORM ops':>9} {'ratio':>7}")
    for name in ("hep_sigma", "res(7,5)"):
        poly = families.load(name)
        ours = time_ours(poly, args.iterations)
        if form.available():
            runs = [form_in_code(poly, level=3, method="cse", options=[f"mctsnumexpand={args.iterations}"])
                    for _ in range(args.repeat)]
            secs = float(np.median([r["seconds"] for r in runs]))
            per_iter = secs / args.iterations
            ratio = f"{per_iter / ours:6.1f}x"
            form_ms = f"{per_iter * 1e3:13.3f}"
            form_ops = f"{runs[0]['in_code']:9d}"  # operations in FORM's emitted code
        else:
            ratio, form_ms, form_ops = "  n/a", f"{'n/a':>13}", f"{'n/a':>9}"
        print(f"{name:<10} {poly.n_terms:>6} {ours * 1e3:14.3f} {form_ms} {form_ops} {ratio}")
    print("ratio = FORM time per MCTS iteration / our time per order (target >= 5)")


if __name__ == "__main__":
    main()
