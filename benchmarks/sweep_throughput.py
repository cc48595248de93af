"""Throughput of a sweep on this machine: serial vs local process pool vs Dask LocalCluster.

Runs the same grid (Cp x seeds, N iterations, HEP(sigma) by default) on each
backend and prints searches per minute, the speed-up over serial, and whether
the rows agree (they must: seeds depend only on the run's options).  The load
average before and after is printed too: on a shared machine the parallel
backends can only be as fast as the idle cores allow.  The defaults (N=1000,
64 searches, about 0.6 s each) keep the start-up of the workers (a few
seconds) from dominating; measured output in benchmarks/results/sweep_throughput.txt.

    python benchmarks/sweep_throughput.py [--expression hep_sigma] [--iterations 1000] [--runs 64] [--workers 2]
"""
from __future__ import annotations

import argparse
import os
import time

from hornermcts.research import families
from hornermcts.research.experiments import sweep


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--expression", default="hep_sigma")
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=64, help="searches per backend (4 Cp values x runs/4 seeds)")
    ap.add_argument("--workers", type=int, default=os.cpu_count())
    args = ap.parse_args()
    poly = families.load(args.expression)
    grid = {"cp": [0.1, 0.3, 1.0, 3.0], "iterations": [args.iterations]}
    seeds = max(1, args.runs // 4)
    sweep(poly, {"cp": [1.0], "iterations": [5]}, seeds=1, backend="serial", progress=None)  # warm the Numba cache
    rows = {}
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{args.expression}, N={args.iterations}, {4 * seeds} searches per backend, {args.workers} workers, "
          f"{os.cpu_count()} cores; load average before: {load}")
    print(f"{'backend':<22} {'seconds':>8} {'searches/min':>13} {'speed-up':>9}")
    base = None
    for name, backend in (("serial", "serial"), ("process pool", "process"), ("dask LocalCluster", "dask")):
        start = time.perf_counter()
        table = sweep(poly, grid, seeds=seeds, backend=backend, workers=args.workers, progress=None)
        secs = time.perf_counter() - start
        rows[name] = [{k: v for k, v in r.items() if k != "seconds"} for r in table.rows]
        base = base or secs
        print(f"{name:<22} {secs:>8.1f} {60 * len(table) / secs:>13.1f} {base / secs:>8.2f}x")
    same = all(r == rows["serial"] for r in rows.values())
    print(f"rows identical across backends: {same}")
    print("(process and Dask times include starting the workers and loading the compiled counter there)")
    print("load average after: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
