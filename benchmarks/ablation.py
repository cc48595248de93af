"""Where the operations go: the optimizer's steps switched on one at a time, on several families.

For each expression, ``hornermcts.optimize`` runs in the configurations of
:data:`CONFIGS`: in the input's own variables (``substitute=False``), the
occurrence order alone, each search (MCTS, annealing, both as in the default
preset) with and without the greedy step, and the default preset with its
greedy step on the best order only (no screening of several candidates);
then with new variables first (:mod:`hornermcts.rewrites.substitution`), the
occurrence order alone and the whole default preset.  Every figure is the operation count of the C code the
call delivers (``delivered.ours_in_code``, which also checks it equals
``result.after``), the median over ``--seeds`` seeds for the configurations
that search; two model figures come first for scale (the input as written,
and the occurrence order's Horner form without common subexpressions).  Each
row also gives the change against the row it builds on and the median
seconds of the call.

    python benchmarks/ablation.py [--expressions "hep_sigma res75 det(6) structured(30,6000,1) random(20,3000,6)"]
                                  [--seeds 3] [--out benchmarks/results/ablation.txt]

The names are :func:`hornermcts.research.families.load`'s (``random(n_vars,n_terms,max_degree)``
is :func:`~hornermcts.research.families.random_polynomial` with seed 0).  The README's
section "Where the operations go" summarises the committed table.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from hornermcts.research import families
from hornermcts.dag.horner import horner_dag
from hornermcts.cost.counting import original_count
from hornermcts.pipeline import baseline_orders, optimize

from delivered import ours_in_code

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_EXPRESSIONS = "hep_sigma res75 det(6) structured(30,6000,1) random(20,3000,6)"

#: (label, optimize() options, the label of the row it is compared with)
CONFIGS = (
    ("occurrence order + CSE (fast)", dict(preset="fast", substitute=False), None),
    ("  + greedy (greedy)", dict(preset="greedy", substitute=False), "occurrence order + CSE (fast)"),
    ("MCTS + CSE", dict(preset="mcts", greedy=False, substitute=False), "occurrence order + CSE (fast)"),
    ("  + greedy (mcts)", dict(preset="mcts", substitute=False), "MCTS + CSE"),
    ("annealing + CSE", dict(preset="anneal", greedy=False, substitute=False), "occurrence order + CSE (fast)"),
    ("  + greedy (anneal)", dict(preset="anneal", substitute=False), "annealing + CSE"),
    ("MCTS, then annealing + CSE", dict(preset="default", greedy=False, substitute=False), "MCTS + CSE"),
    ("  + greedy on the best order only", dict(preset="default", candidates=1, substitute=False),
     "MCTS, then annealing + CSE"),
    ("  + greedy on 5 candidates", dict(preset="default", substitute=False), "MCTS, then annealing + CSE"),
    ("new variables + occurrence order + CSE", dict(preset="fast"), "occurrence order + CSE (fast)"),
    ("new variables + all the above (default)", dict(preset="default"), "+ greedy on 5 candidates"),
)


def measure(poly, options: dict, seeds: int) -> tuple[int, float]:
    """Median delivered operations and median seconds of ``optimize(poly, **options)`` over the seeds."""
    searching = options["preset"] not in ("fast", "greedy")
    ops, secs = [], []
    for seed in range(seeds if searching else 1):
        start = time.perf_counter()
        result = optimize(poly, seed=seed, **options)
        secs.append(time.perf_counter() - start)
        ops.append(ours_in_code(result))
    return int(statistics.median(ops)), statistics.median(secs)


def table(name: str, seeds: int) -> list[str]:
    poly = families.load(name)
    lines = [f"{name}: {poly.n_terms} terms, {poly.n_vars} variables",
             f"  {'configuration':<40} {'operations':>10} {'change':>8} {'seconds':>8}",
             f"  {'input as written (model)':<40} {original_count(poly).total:>10}",
             f"  {'occurrence-order Horner, no CSE (model)':<40} "
             f"{horner_dag(poly, baseline_orders(poly)['occurrence forward']).count(shared=False).total:>10}"]
    found: dict[str, int] = {}
    for label, options, base in CONFIGS:
        ops, secs = measure(poly, options, seeds)
        found[label.strip()] = ops
        change = "" if base is None else f"{100 * (ops - found[base]) / found[base]:+.1f}%"
        lines.append(f"  {label:<40} {ops:>10} {change:>8} {secs:>8.1f}")
        print(lines[-1], flush=True)
    return lines


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--expressions", default=DEFAULT_EXPRESSIONS, help="space-separated names")
    ap.add_argument("--seeds", type=int, default=3, help="seeds of the configurations that search (default 3)")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "ablation.txt"))
    args = ap.parse_args(argv)
    lines = [f"# python benchmarks/ablation.py --seeds {args.seeds}: operations in the delivered C code (median over "
             f"seeds where a search runs), change against the row each builds on, median seconds of the call", ""]
    for name in args.expressions.split():
        print(f"\n{name}", flush=True)
        lines += table(name, args.seeds) + [""]
    Path(args.out).write_text("\n".join(lines))
    print(f"written {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
