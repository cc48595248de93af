"""What the thesis-table scripts share: rates, seeds, statistics, the cold-compile measure and the command line.

Used by ``thesis_stacking.py`` and ``thesis_circles.py`` (Rei 2016's Tables
5.1 and 6.1): each defines its ``table``, ``format_table``, ``rate`` and
``format_rate`` and hands them to :func:`table_command`.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from typing import Callable, Iterable, Sequence

__all__ = ["per_second", "seed_list", "stats", "compile_seconds", "table_command"]


def per_second(count: int, seconds: float) -> float:
    """``count / seconds`` (infinite for no time)."""
    return count / seconds if seconds > 0 else float("inf")


def seed_list(seeds: int | Iterable[int]) -> list[int]:
    """A count of seeds (``0 .. seeds-1``) or the seeds themselves, as a list."""
    return list(range(seeds)) if isinstance(seeds, int) else [int(s) for s in seeds]


def stats(values: list[float]) -> tuple[float, float, float]:
    """Mean, min and max."""
    return statistics.fmean(values), min(values), max(values)


def compile_seconds(program: str) -> float:
    """CPU seconds ``program`` takes in a fresh process with an empty Numba cache (it prints them last).

    ``NUMBA_CACHE_DIR`` is a new temporary folder, so every kernel the
    program reaches is compiled: the cost of a first run on a new machine.
    """
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True,
                              env=dict(os.environ, NUMBA_CACHE_DIR=folder))
    return float(done.stdout.split()[-1])


def table_command(argv: Sequence[str] | None, description: str, *, instances: Sequence[str], instance_help: str,
                  methods: Sequence[str], table: Callable, format_table: Callable[[list], str],
                  rate: Callable[..., dict], format_rate: Callable[[dict], str], unit: str) -> None:
    """The command line of a thesis table: run the table (or ``--rate``) and print it.

    ``unit`` names what ``--rate`` counts (e.g. "simulation rates").
    """
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--seconds", type=float, default=60.0, help="CPU seconds per run (default 60)")
    parser.add_argument("--seeds", type=int, default=3, help="seeds 0..N-1 per instance and method (default 3)")
    parser.add_argument("--instances", default=",".join(instances), help=instance_help)
    parser.add_argument("--methods", default=",".join(methods),
                        help=f"comma-separated: {', '.join(methods)} (default all)")
    parser.add_argument("--out", default=None, help="append the raw rows to this JSON-lines file")
    parser.add_argument("--rate", action="store_true", help=f"measure the {unit} instead")
    parser.add_argument("--rate-seconds", type=float, default=3.0, help="seconds per rate measure (default 3)")
    parser.add_argument("--no-compile", action="store_true", help="with --rate: skip the cold-compile measure")
    args = parser.parse_args(argv)
    if args.rate:
        print(format_rate(rate(args.rate_seconds, compile=not args.no_compile)))
        return
    rows = table(args.seconds, args.seeds, [n.strip() for n in args.instances.split(",") if n.strip()], args.out,
                 methods=[m.strip() for m in args.methods.split(",") if m.strip()])
    print(format_table(rows))
