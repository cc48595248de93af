"""Simulations per CPU second of every optimisation domain's inner loop, in one table.

Calls each thesis domain's ``rate()`` (``benchmarks/thesis_stacking.py``,
``thesis_partitioning.py``, ``thesis_circles.py``): the compiled simulation
alone, through the problem protocol, and as MS / MCTS run it, after a
warm-up whose time (Numba compile or cache load) is reported apart.  Writes
``benchmarks/results/simulation_speed.txt`` and prints it.

Usage::

    python benchmarks/simulation_speed.py            # 3 CPU s per measurement
    python benchmarks/simulation_speed.py --seconds 10
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import thesis_circles  # noqa: E402
import thesis_partitioning  # noqa: E402
import thesis_stacking  # noqa: E402


def _fmt(value) -> str:
    if isinstance(value, tuple):  # (rate, count)
        value = value[0]
    if isinstance(value, float):
        return f"{value:,.1f}" if value < 1000 else f"{value:,.0f}"
    return str(value)


def measure(seconds: float) -> str:
    machine = platform.processor() or platform.machine()
    lines = [f"simulations per CPU second, {seconds:g} CPU s per measurement; {machine}, {os.cpu_count()} cores, "
             f"load average {os.getloadavg()[0]:.1f} at the start"]
    parts = [
        ("stacking (40-A: 1000 items, 40 stacks; FO event simulation)", thesis_stacking.rate(seconds, compile=False)),
        ("number partitioning (KK compiled on 32-bit limbs, DFS in Python ints) and knapsack (compiled)",
         thesis_partitioning.rate(seconds)),
        ("circle packing (large16 substitute; semi-greedy construction SG)",
         thesis_circles.rate(seconds, compile=False)),
    ]
    for title, figures in parts:
        lines.append("")
        lines.append(title)
        for key, value in figures.items():
            lines.append(f"  {key:42} {_fmt(value)}")
    return "\n".join(lines)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per measurement (default 3)")
    ap.add_argument("--out", type=Path, default=HERE / "results" / "simulation_speed.txt")
    args = ap.parse_args(argv)
    text = measure(args.seconds)
    print(text)
    args.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
