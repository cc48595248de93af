"""Re-run saved sweep rows and check that each reported count is the count of the emitted code.

The SA-UCT notebook's figures come from the rows in
``benchmarks/results/sa_uct_paper_*.jsonl`` (one MCTS search each, Horner +
CSE).  For a random sample of rows this re-runs the search
(:func:`hornermcts.research.experiments.run_job`, same seed), and prints whether the
operations and the order are the same as saved, and whether the C code
emitted for the row's order holds exactly that many operations (read by the
tests' independent counter, ``delivered.py``).

    python benchmarks/recheck_sweeps.py [--rows 20] [--seed 0]
"""
from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from hornermcts.research import families
from hornermcts.research.experiments import run_job
from hornermcts.dag.horner import horner_dag

from delivered import c_operations

RESULTS = Path(__file__).resolve().parent / "results"
FILES = {"sa_uct_paper_hep_sigma.jsonl": "hep_sigma", "sa_uct_paper_res75.jsonl": "res75"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, default=20, help="rows sampled per file")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    same_count = same_order = checked = code_ok = 0
    for filename, name in FILES.items():
        poly = families.load(name)
        rows = [json.loads(line) for line in (RESULTS / filename).read_text().splitlines() if line.strip()]
        for row in rng.sample(rows, min(args.rows, len(rows))):
            job = {k: v for k, v in row.items() if k not in ("operations", "seconds", "iterations_done", "order")}
            again = run_job(job, poly)
            dag = horner_dag(poly, again["order"])
            in_code = c_operations(dag)
            checked += 1
            same_count += again["operations"] == row["operations"]
            same_order += again["order"] == row["order"]
            code_ok += in_code == again["operations"]
            print(f"{name:<10} {row['schedule']:<7} cp={row['cp']:<6} N={row['iterations']:<5} run={row['run']:<2} "
                  f"saved {row['operations']:>6}  again {again['operations']:>6}  in the C code {in_code:>6}"
                  f"{'' if again['order'] == row['order'] else '  (another order)'}", flush=True)
    print(f"\n{checked} rows: {same_count} with the saved count, {same_order} with the saved order, "
          f"{code_ok} whose C code holds the count")


if __name__ == "__main__":
    main()
