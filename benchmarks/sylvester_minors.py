"""What a resultant costs when it is known to be a determinant: expansion by minors of its Sylvester matrix.

``families.resultant(m, n)`` is the determinant of the ``(m+n) x (m+n)``
Sylvester matrix (n shifted rows of ``a_m .. a_0``, m shifted rows of ``b_n ..
b_0``).  Expanded along its columns from the right, with every minor (a set
of rows times the first k columns) computed once and shared, it needs far
fewer operations than any Horner scheme of the expanded polynomial: the
Sylvester matrix is banded, so few row sets have a nonzero minor.  This
script builds that evaluation as a :class:`hornermcts.dag.Dag`, checks it
equals the expanded resultant at random rational points, and counts the
operations of the C code emitted for it (the tests' independent counter),
beside the default ``optimize`` of the expanded polynomial, in one run.

It is a reference, not a method of the library: the expanded polynomial
does not say that it is a determinant, and neither FORM nor ``optimize``
recovers the matrix from it.  It shows how far the Horner-based optimizers
(FORM's and ours) are from the best known evaluation on this family.

    python benchmarks/sylvester_minors.py [--sizes 6,5 7,5 6,6 7,6 8,6] [--seeds 1]
                                          [--out benchmarks/results/sylvester_minors.txt]
"""
from __future__ import annotations

import argparse
import random
import time
from fractions import Fraction
from pathlib import Path

from hornermcts import optimize

from hornermcts.research import families
from hornermcts.dag import ONE, Dag
from hornermcts.dag.views import evaluate_dag

from delivered import Report, c_operations, ours_in_code

RESULTS = Path(__file__).resolve().parent / "results"


def sylvester_dag(m: int, n: int, symbols) -> Dag:
    """The resultant of degrees ``m``, ``n`` as expansion by minors of its Sylvester matrix, minors shared.

    ``symbols`` are those of ``families.resultant(m, n)``: ``a0..am, b0..bn``.
    """
    size = m + n
    entry: dict = {}  # (row, column) -> column of the polynomial's variable
    for i in range(n):
        for j in range(m + 1):
            entry[i, i + j] = m - j  # a_{m-j}
    for i in range(m):
        for j in range(n + 1):
            entry[n + i, i + j] = m + 1 + n - j  # b_{n-j}
    dag = Dag(tuple(symbols))
    minors: dict = {}

    def minor(rows: tuple, k: int):
        """``(scalar, node)`` of the minor of ``rows`` (sorted) and columns ``0..k-1``; None if it is 0."""
        key = (rows, k)
        if key in minors:
            return minors[key]
        if k == 1:
            var = entry.get((rows[0], 0))
            got = None if var is None else (1, dag.power(var, 1))
        else:
            acc = None
            for p, r in enumerate(rows):
                var = entry.get((r, k - 1))
                if var is None:
                    continue
                sub = minor(rows[:p] + rows[p + 1:], k - 1)
                if sub is None:
                    continue
                sign = -1 if (p + k - 1) % 2 else 1
                term = (sign * sub[0], dag.mul(dag.power(var, 1), sub[1]))
                acc = term if acc is None else dag.add(acc, term)
            got = acc
        minors[key] = got
        return got

    value = minor(tuple(range(size)), size)
    dag.roots = [value if value is not None else (0, ONE)]
    return dag


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", nargs="+", default=["6,5", "7,5", "6,6", "7,6", "8,6"], help="m,n pairs")
    ap.add_argument("--seeds", type=int, default=1, help="seeds of optimize (default 1)")
    ap.add_argument("--out", default=str(RESULTS / "sylvester_minors.txt"))
    args = ap.parse_args()
    report = Report(f"sylvester_minors.py --sizes {' '.join(args.sizes)} --seeds {args.seeds}")
    report("the expansion by minors checked exact at 3 rational points; optimize: the best of the seeds")
    report(f"{'resultant':<10} {'terms':>7} {'minors, ops':>12} {'seconds':>8} {'optimize, ops':>14} {'seconds':>8}"
           f" {'ratio':>6}")
    rng = random.Random(0)
    for size in args.sizes:
        m, n = (int(v) for v in size.split(","))
        poly = families.resultant(m, n)
        start = time.perf_counter()
        dag = sylvester_dag(m, n, poly.symbols)
        built = time.perf_counter() - start
        for _ in range(3):
            point = [Fraction(rng.randint(-30, 30), rng.randint(1, 9)) for _ in poly.symbols]
            if evaluate_dag(dag, point) != poly.evaluate(point):
                raise AssertionError(f"the expansion by minors of res({m},{n}) differs from the resultant")
        minors_ops = c_operations(dag)
        if minors_ops != dag.count().total:
            raise AssertionError(f"res({m},{n}): the DAG counts {dag.count().total}, its C holds {minors_ops}")
        best, secs = None, []
        for seed in range(args.seeds):
            start = time.perf_counter()
            result = optimize(poly, seed=seed)
            secs.append(time.perf_counter() - start)
            ops = ours_in_code(result)
            best = ops if best is None else min(best, ops)
        report(f"res({m},{n}){'':<{4 - len(size) + 1}} {poly.n_terms:>7} {minors_ops:>12} {built:>8.2f} "
               f"{best:>14} {min(secs):>8.2f} {minors_ops / best:>6.2f}")
    report.write(Path(args.out))


if __name__ == "__main__":
    main()
