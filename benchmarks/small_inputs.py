"""Small inputs (issue 37 item 5): the warm wall time of the default ``optimize`` on inputs under 100 terms.

    python benchmarks/small_inputs.py [--out benchmarks/results/small_inputs.txt]

Resultants, det(4), random and structured-random polynomials under 100
terms; each optimized twice to warm up, then five times (seed 0): the
operations and the least and median wall time.  The target: at most 0.1 s
warm.  One run on this machine; this VM's timings vary by up to 40 % from
run to run, so compare rows of one run.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import hornermcts
from hornermcts.research import families

RESULTS = Path(__file__).resolve().parent / "results"


def inputs() -> dict:
    found = {"res(3,2)": families.resultant(3, 2), "det(4)": families.load("det(4)"),
             "res(3,3)": families.resultant(3, 3), "res(4,2)": families.resultant(4, 2),
             "res(4,3)": families.resultant(4, 3)}
    for s in range(8):
        found[f"random {s}"] = families.random_polynomial(4 + s % 5, 20 + 10 * s, max_degree=5, seed=s)
    for s in (0, 2):
        found[f"structured {s}"] = families.structured_random(6 + s, 40 + 15 * s, seed=s)
    return {name: p for name, p in found.items() if p.n_terms < 100}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(RESULTS / "small_inputs.txt"))
    args = parser.parse_args(argv)
    lines = ["# python benchmarks/small_inputs.py: default optimize, seed 0, warm, this process",
             f"{'input':14} {'terms':>5} {'vars':>4} {'ops':>4} {'least s':>8} {'median s':>8}"]
    for name, p in inputs().items():
        for _ in range(2):
            hornermcts.optimize(p, seed=0)
        seconds = []
        for _ in range(5):
            start = time.perf_counter()
            result = hornermcts.optimize(p, seed=0)
            seconds.append(time.perf_counter() - start)
        lines.append(f"{name:14} {p.n_terms:>5} {p.n_vars:>4} {result.after.total:>4} {min(seconds):>8.3f} "
                     f"{statistics.median(seconds):>8.3f}")
        print(lines[-1], flush=True)
    Path(args.out).write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
