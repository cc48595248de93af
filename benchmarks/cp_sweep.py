"""The SA-UCT paper's finding, measured: the region of good Cp for UCT and SA-UCT.

Runs ``cp_sweep`` (independent searches over log-spaced Cp in [0.01, 10], UCT
and SA-UCT, Horner + CSE) for each N and prints, per schedule, the widest
contiguous Cp range whose median result lies within 2% of the best count seen
for that N (the "region of interest"), its width (high - low, the paper's
measure) and the SA-UCT / UCT width ratio (the paper: about 10-20).  Uses all
cores (process pool); rows are saved to ``--save`` (JSON lines) as they finish,
so an interrupted sweep resumes where it stopped.

    python benchmarks/cp_sweep.py [--expression hep_sigma] [--iterations 300 1000] [--cps 25] [--seeds 6]
"""
from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from hornermcts.research import families
from hornermcts.research.experiments import cp_sweep, region_of_interest


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--expression", default="hep_sigma")
    ap.add_argument("--iterations", type=int, nargs="+", default=[300, 1000])
    ap.add_argument("--cps", type=int, default=25, help="number of log-spaced Cp values in [0.01, 10]")
    ap.add_argument("--seeds", type=int, default=6, help="runs per (Cp, schedule)")
    ap.add_argument("--direction", default="forward")
    ap.add_argument("--tolerance", type=float, default=0.02)
    ap.add_argument("--backend", default="process")
    ap.add_argument("--save", default=None, help="JSON-lines file to save/resume rows (default: none)")
    args = ap.parse_args()
    poly = families.load(args.expression)
    cps = list(np.logspace(-2, 1, args.cps))
    for n in args.iterations:
        start = time.perf_counter()
        save = f"{args.save}.N{n}.jsonl" if args.save else None
        table = cp_sweep(poly, cps=cps, iterations=n, seeds=args.seeds, direction=args.direction,
                         backend=args.backend, save=save)
        secs = time.perf_counter() - start
        best = min(table.column("operations"))
        print(f"\n{args.expression}, N={n}, {args.direction}: {len(table)} searches in {secs:.0f} s, best {best}")
        print(f"{'Cp':>8} " + " ".join(f"{s:>14}" for s in ("uct median", "sa-uct median")))
        for cp in cps:
            meds = [statistics.median(table.where(cp=float(cp), schedule=s).column("operations"))
                    for s in ("uct", "sa-uct")]
            print(f"{cp:>8.3f} " + " ".join(f"{m:>14.0f}" for m in meds))
        report(table, args.tolerance)


def report(table, tolerance: float) -> None:
    """Print the region of interest against the best run and against the best median."""
    for reference in ("best run", "best median"):
        roi = region_of_interest(table, tolerance=tolerance, reference=reference)
        print(f"region of interest: median within {tolerance:.0%} of the {reference}")
        for schedule, r in roi.items():
            print(f"{schedule:>9}: Cp in [{r['low']:.3g}, {r['high']:.3g}]  width {r['width']:.3g}  "
                  f"factor {r['factor']:.3g}  ({r['good']} grid values)")
        u, s = roi.get("uct", {}).get("width", 0), roi.get("sa-uct", {}).get("width", 0)
        print(f"  SA-UCT / UCT width ratio: {s / u:.1f}" if u > 0 else "  SA-UCT / UCT width ratio: UCT has no good Cp")


if __name__ == "__main__":
    main()
