"""Shared scaled operands: temporaries in the code, or every use charged?  Measured on the emitted C.

A sum operand ``c*a`` (``c`` not +-1) that several sums use can be computed
once into a temporary (what the count assumes and the code now does:
:meth:`hornermcts.dag.Dag.delivered`), or written inline at every use (what
the code did before, ``2.0*e4e2`` again and again).  For the default preset's
result on each expression this prints the operations of the C code both
ways, read by the tests' independent counter (``delivered.py``).

    python benchmarks/scaled_operands.py [--expressions "hep_sigma res75"] [--seeds 1]
"""
from __future__ import annotations

import argparse

from hornermcts.research import families
from hornermcts.dag import Dag
from hornermcts.pipeline import optimize

from delivered import c_operations


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--expressions", default="hep_sigma res75")
    ap.add_argument("--seeds", type=int, default=1)
    args = ap.parse_args()
    print(f"{'expression':<12} {'seed':>4} {'reported':>9} {'C, shared':>10} {'C, every use':>13} {'saved':>7}")
    delivered = Dag.delivered
    for name in args.expressions.split():
        poly = families.load(name)
        for seed in range(args.seeds):
            result = optimize(poly, seed=seed)
            shared = c_operations(result)
            Dag.delivered = lambda self: self  # write every scaled operand inline, as before
            try:
                raw = optimize(poly, seed=seed)  # the same search: the same DAG, written without sharing
                every_use = c_operations(raw)
            finally:
                Dag.delivered = delivered
            print(f"{name:<12} {seed:>4} {result.after.total:>9} {shared:>10} {every_use:>13} "
                  f"{every_use - shared:>7}", flush=True)


if __name__ == "__main__":
    main()
