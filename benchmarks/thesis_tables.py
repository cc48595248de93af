"""Rei 2016's result tables, reproduced in one command: stacking (5.1), number partitioning (4.1), circle packing (6.1).

Runs each domain's ``table`` (``benchmarks/thesis_stacking.py``,
``thesis_partitioning.py``, ``thesis_circles.py``) at the budgets of
docs/domains.md §A4, one job per instance spread over worker processes (the
budgets are CPU seconds, so the figures do not depend on how many jobs share
the machine), saves the raw rows (one JSON line per run, with the incumbent
history and the solution) in ``benchmarks/results/thesis/<domain>.jsonl``,
and writes the tables beside the thesis's to
``benchmarks/results/thesis_tables.txt``.

A second run resumes: instances whose rows are already saved at the same
budget are not run again (``--fresh`` starts over).  ``--report`` only
formats what is saved.

Usage::

    python benchmarks/thesis_tables.py                  # everything, as docs/domains.md §A4 (about 40 min on 2 cores)
    python benchmarks/thesis_tables.py --only stacking --seconds 5 --seeds 1 --instances 40-A,40-B
    python benchmarks/thesis_tables.py --report
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"

#: domain -> (benchmark module, default CPU seconds per run, default seeds, default instances, table options)
DOMAINS = {
    "stacking": ("thesis_stacking", 60.0, 3, ("20-A", "20-B", "20-C", "20-D", "40-A", "40-B", "40-C", "40-D"), {}),
    # MCTS in the thesis's setting, in Rei's code's (global normalisation, depth bonus), and with interleaving
    "partitioning": ("thesis_partitioning", 60.0, 3, ("hard0100", "hard0200", "hard0300"),
                     {"variants": ("mcts", "mcts-code", "mcts-interleave5")}),
    "circles": ("thesis_circles", 30.0, 3, None, {}),  # None: the module's own (substitute) instance list
}


def _module(name: str):
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    return importlib.import_module(DOMAINS[name][0])


def _instances(name: str, chosen: list[str] | None) -> list[str]:
    if chosen:
        return chosen
    default = DOMAINS[name][3]
    return list(default) if default is not None else list(_module(name).INSTANCES)


def _job(name: str, instance: str, seconds: float, seeds: int, out: str) -> tuple[str, str, float]:
    """Run one instance's rows of one domain's table into ``out`` (a worker process)."""
    start = time.perf_counter()
    _module(name).table(seconds, seeds, [instance], out=out, **DOMAINS[name][4])
    return name, instance, time.perf_counter() - start


def _saved(path: Path) -> list[dict]:
    if not path.exists():
        return []
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def run(domains: list[str], seconds: float | None, seeds: int | None, instances: list[str] | None, workers: int,
        folder: Path, fresh: bool) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    jobs = []
    for name in domains:
        budget = DOMAINS[name][1] if seconds is None else seconds
        count = DOMAINS[name][2] if seeds is None else seeds
        target = folder / f"{name}.jsonl"
        if fresh and target.exists():
            target.unlink()
        done = {row["instance"] for row in _saved(target) if row.get("budget") == budget}
        for instance in _instances(name, instances):
            if instance in done:
                print(f"{name} {instance}: saved at {budget:g} s, skipped", flush=True)
                continue
            part = folder / f".{name}.{instance}.part"
            part.unlink(missing_ok=True)
            jobs.append((name, instance, budget, count, str(part)))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(_job, *job): job for job in jobs}
        for future in as_completed(futures):
            name, instance, budget, count, part = futures[future]
            future.result()
            with open(part, encoding="utf-8") as source, open(folder / f"{name}.jsonl", "a", encoding="utf-8") as sink:
                sink.write(source.read())
            os.unlink(part)
            print(f"{name} {instance}: {count} seed(s) at {budget:g} CPU s, saved", flush=True)


def report(domains: list[str], folder: Path) -> str:
    """The saved rows of each domain, formatted by its module beside the thesis's table."""
    parts = []
    for name in domains:
        rows = _saved(folder / f"{name}.jsonl")
        if rows:
            shown = folder / f"{name}.jsonl"
            if shown.resolve().is_relative_to(HERE.parent):
                shown = shown.resolve().relative_to(HERE.parent)
            parts.append(f"== {name} ({len(rows)} runs, {shown}) ==\n"
                         + _module(name).format_table(rows))
    return "\n\n".join(parts)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", default=None, help="comma-separated domains among " + ", ".join(DOMAINS))
    ap.add_argument("--seconds", type=float, default=None, help="CPU seconds per run (default: each domain's)")
    ap.add_argument("--seeds", type=int, default=None, help="seeds per method (default: each domain's)")
    ap.add_argument("--instances", default=None, help="comma-separated instance names (with --only one domain)")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes (default: all cores)")
    ap.add_argument("--results", type=Path, default=RESULTS / "thesis", help="folder of the raw rows")
    ap.add_argument("--fresh", action="store_true", help="discard saved rows and run everything again")
    ap.add_argument("--report", action="store_true", help="only format the saved rows")
    ap.add_argument("--table-out", type=Path, default=RESULTS / "thesis_tables.txt",
                    help="where the formatted tables go (with the full default run)")
    args = ap.parse_args(argv)
    domains = args.only.split(",") if args.only else list(DOMAINS)
    unknown = [d for d in domains if d not in DOMAINS]
    if unknown:
        ap.error(f"unknown domain(s) {', '.join(unknown)}; expected among {', '.join(DOMAINS)}")
    instances = args.instances.split(",") if args.instances else None
    if instances and len(domains) != 1:
        ap.error("--instances needs --only with one domain")
    if not args.report:
        run(domains, args.seconds, args.seeds, instances, args.workers, args.results, args.fresh)
    text = report(domains, args.results)
    print(text)
    if args.seconds is None and args.seeds is None and instances is None and not args.only:
        args.table_out.write_text(text + "\n", encoding="utf-8")  # the full reproduction only


if __name__ == "__main__":
    main()
