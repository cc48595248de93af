"""The cells of ``thesis_tables.ipynb``: Rei 2016's Tables 5.1, 4.1 and 6.1 beside ours (written by make_notebooks.py)."""
from __future__ import annotations

THESIS = [
    ("md", r"""
# MCTS for combinatorial optimisation: Rei's tables, reproduced

Rui Rei's thesis, *Monte Carlo Tree Search for Combinatorial Optimization*
(2016), adapts MCTS from games to optimisation: nodes keep the **best**
outcome below them instead of the mean (§3.1), normalised by their parent's
best and worst (Eq. 3.1), infeasible outcomes rank below feasible ones
(Eqs. 3.2-3.3), branch-and-bound prunes the tree and proves optimality when
the root is exhausted (§3.4), nodes expand lazily (§3.5).  In `hornermcts`
these are options of the one search core
(`hornermcts.search.mcts(value="best", normalize="parent", prune=..., ...)`),
and each domain is a module under `hornermcts.domains`.

This notebook puts the thesis's three result tables beside ours, with the
incumbent over CPU time for each method:

| table | problem | methods | our instances |
|---|---|---|---|
| 5.1 | stacking (relocations, lower is better) | MS (repeated FO simulations) vs MCTS | **the thesis's own** `20-A..D`, `40-A..D` |
| 4.1 | number partitioning (log2(E+1), lower is better) | KK, complete-KK DFS, MCTS | generated substitutes of `hard0100..0300` (N random N-bit integers; the PK10 files are not public) |
| 6.1 | recursive circle packing (value, higher is better) | MS (repeated semi-greedy SG) vs MCTS | generated **substitutes** (the PCT14-based instances are not available) |

Budgets are CPU seconds per run, as in the thesis (its `time.clock`): 60 s
for stacking and partitioning, 30 s for circle packing, 3 seeds each.  The
runs come from one command, `python benchmarks/thesis_tables.py`, which saves
every run (with its incumbent history and its solution, checked by each
domain's independent checker) in `benchmarks/results/thesis/*.jsonl`.

**Budgets of this notebook.** Every budget (`HORNERMCTS_NOTEBOOK_BUDGET`:
`small`, `medium` or `full`) reads the saved full reproduction from
`$HORNERMCTS_NOTEBOOK_RESULTS/thesis` (default `benchmarks/results/thesis`):
its runs take hours, and `python benchmarks/thesis_tables.py` makes them.
"""),
    ("code", r"""
import json
import os
import sys
from pathlib import Path

import matplotlib.pyplot as plt

import hornermcts

ROOT = Path(hornermcts.__file__).resolve().parents[1]  # the repository (an editable install, as the README's)
sys.path.insert(0, str(ROOT / "benchmarks"))
import thesis_circles  # noqa: E402  (the benchmark scripts define the tables)
import thesis_partitioning  # noqa: E402
import thesis_stacking  # noqa: E402

BUDGET = os.environ.get("HORNERMCTS_NOTEBOOK_BUDGET", "medium")
if BUDGET not in ("small", "medium", "full"):
    raise ValueError(f"HORNERMCTS_NOTEBOOK_BUDGET must be small, medium or full, not {BUDGET!r}")
SAVED = Path(os.environ.get("HORNERMCTS_NOTEBOOK_RESULTS") or ROOT / "benchmarks" / "results") / "thesis"
SMALL = {"stacking": ("40-C", thesis_stacking), "partitioning": ("hard0100", thesis_partitioning),
         "circles": ("small03", thesis_circles)}
plt.rcParams.update({"figure.dpi": 80, "axes.grid": True, "grid.alpha": 0.3})


def rows_of(domain):
    # the saved reproduction (benchmarks/thesis_tables.py runs it)
    with open(SAVED / f"{domain}.jsonl", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


COLOURS = {"ms": "tab:orange", "ms-fixed": "tab:red", "mcts": "tab:blue", "mcts-code": "tab:purple",
           "dfs": "tab:green", "kk": "tab:gray"}


def incumbents(ax, rows, instance, key, title, log_x=True):
    # each run's best over CPU time, a step per improvement, extended to the run's end
    seen = set()
    for row in rows:
        if row["instance"] != instance or not row["history"]:
            continue
        times = [max(t, 1e-3) for t, _ in row["history"]] + [max(row["cpu_seconds"], 1e-3)]
        values = [v for _, v in row["history"]] + [row[key]]
        label = None if row["method"] in seen else row["method"].upper()
        seen.add(row["method"])
        ax.step(times, values, where="post", color=COLOURS.get(row["method"]), alpha=0.8, label=label)
    ax.set_title(title)
    ax.set_xlabel("CPU seconds")
    if log_x:
        ax.set_xscale("log")
    ax.legend()


shown = SAVED.relative_to(ROOT) if SAVED.resolve().is_relative_to(ROOT) else SAVED
print(f"saved runs from {shown}")
"""),
    ("md", r"""
## Table 5.1: the stacking problem

W stacks, 1000 items with release and due dates met exactly; only the top
of a stack can be taken; minimise the relocations.  A simulation processes
the events in date order and places each released or relocated item by the
Flexibility Optimisation heuristic (Eq. 5.1).  **MS** repeats simulations
(each aborted once it reaches the incumbent); **MCTS** searches the tree of
(item, stack) placement decisions with a fresh FO simulation for every new
node, branch-and-bound with the inversion lower bound.  The instances are the
thesis's own; docs/domains.md §0.2 found that a plain MS gives exactly the
thesis's MS figures on `40-A..D` (79 / 59 / 41 / 154), which is checked below.
"""),
    ("code", r"""
stacking = rows_of("stacking")
fixed_order = SAVED / "stacking_ms_fixed.jsonl"  # MS as Rei's code runs it: the second MS row
if fixed_order.exists():  # saved rows: the same at every budget
    with open(fixed_order, encoding="utf-8") as handle:
        stacking += [json.loads(line) for line in handle if line.strip()]
print(thesis_stacking.format_table(stacking))
shown = [i for i in ("40-A", "40-B", "20-B", "20-C") if any(r["instance"] == i for r in stacking)] or [SMALL["stacking"][0]]
fig, axes = plt.subplots(1, len(shown), figsize=(4.2 * len(shown), 3.4), squeeze=False)
for ax, instance in zip(axes[0], shown):
    incumbents(ax, stacking, instance, "best", f"stacking {instance}: relocations")
fig.tight_layout()
"""),
    ("md", r"""
## Table 4.1: number partitioning

Split N integers into two sets of equal sums; the score is log2(E+1) of the
discrepancy E.  **KK** (Karmarkar-Karp) replaces the two largest numbers by
their difference; the **complete-KK DFS** (Alg. 4.2) also tries their sum,
depth first, with its pruning rules; **MCTS** searches the same binary tree
(full expansion, KK as the simulation).  The thesis's instances are not
public: ours are N random N-bit integers with fixed seeds, whose KK values
land within a few bits of the thesis's KK column, so only the differences
(MCTS vs KK, MCTS vs DFS) compare.
"""),
    ("code", r"""
partitioning = rows_of("partitioning")
print(thesis_partitioning.format_table(partitioning))
shown = [i for i in ("hard0100", "hard0200", "hard0300") if any(r["instance"] == i for r in partitioning)]
fig, axes = plt.subplots(1, len(shown), figsize=(4.2 * len(shown), 3.4), squeeze=False)
for ax, instance in zip(axes[0], shown):
    incumbents(ax, partitioning, instance, "value", f"partitioning {instance}: log2(E+1)")
fig.tight_layout()
"""),
    ("md", r"""
## Table 6.1: recursive circle packing

Tubes (outer and inner radius, value) go into a rectangle or inside larger
tubes; maximise the value packed.  A simulation is the semi-greedy
construction SG (candidate positions of §6.2.1; the position drawn among
the best ranks with probability ∝ 1/(k+1)); **MS** repeats it, **MCTS**
branches over SG's next (tube, position) steps.  The thesis's instances are
not available: these are generated substitutes with the thesis's names, so
only MS against MCTS within a row compares (the claim: MCTS ≥ MS on most).
"""),
    ("code", r"""
circles = rows_of("circles")
print(thesis_circles.format_table(circles))
shown = [i for i in ("large16", "small16") if any(r["instance"] == i for r in circles)] or [SMALL["circles"][0]]
fig, axes = plt.subplots(1, len(shown), figsize=(4.2 * len(shown), 3.4), squeeze=False)
for ax, instance in zip(axes[0], shown):
    incumbents(ax, circles, instance, "best", f"circles {instance} (substitute): value")
fig.tight_layout()
"""),
    ("md", r"""
## Table 4.1 over many instances, with intervals

The table above rests on one substitute instance per size, one deterministic
run each.  `benchmarks/partitioning_generated.py` runs KK, the DFS and MCTS on
10 generated instances per size (N random N-bit integers, seeds 1000 N + i)
and gives each claim a 95% t interval over the instances: the improvement of
MCTS over KK (the criterion: >= 15 bits) and MCTS - DFS at equal CPU time.
It ran at the thesis's 60 CPU s per run, MCTS on the domain's compiled tree
(the same search as the core's, 7.5-18 times the simulations per CPU second),
and at 5 s with MCTS on the core and on the compiled tree.
"""),
    ("code", r"""
generated = SAVED / "partitioning_generated.jsonl"
if generated.exists():
    import partitioning_generated  # noqa: E402
    with open(generated, encoding="utf-8") as handle:
        print(partitioning_generated.report([json.loads(line) for line in handle if line.strip()]))
else:
    print(f"no saved run in {generated.name} here (python benchmarks/partitioning_generated.py --out ...)")
"""),
    ("md", r"""
## Beam MCTS against MCTS (Baier & Winands), Figs. 6-9

Beam MCTS (BMCTS) prunes each tree depth to its W best nodes once L
simulations have passed through it.  The paper (sec. VI-B, Figs. 6-9) runs
BMCTS and MCTS at 60 s per board, and MCTS also at 120 s and 240 s, on 1000
boards per domain: BMCTS beats MCTS at equal time in all four (two-sided
paired t-test, p < 0.0001) and is worth about 4x MCTS's time in SameGame with
random rollouts and Bubble Breaker, almost 2x in Clickomania and SameGame
with informed rollouts.  The figures are plots; the text gives no scores, so
only these claims stand beside ours.

Ours (`python benchmarks/samegame_papers.py --parts b --b-out ...`), budgets
chosen before the run: **0.25 CPU s per board** for BMCTS and MCTS, MCTS also
at 0.5 s and 1 s, **100 boards** per domain: 240 times less time than the
paper, on a tenth of its boards.  C and W are the paper's per domain, L is
scaled to the iterations our budget allows, and the informed rollouts are
TabuColorRandom without the paper's bandit over the tabu colour.
"""),
    ("code", r"""
import samegame_papers  # noqa: E402

beam_file = SAVED.parent / "samegame_bmcts.jsonl"
if beam_file.exists():
    with open(beam_file, encoding="utf-8") as handle:
        lines = [json.loads(line) for line in handle if line.strip()]
    beam_rows = lines[1:]
    names = list(lines[0]["header"]["domains"])
    print(samegame_papers.report_b(beam_rows, names))
    fig, axes = plt.subplots(1, len(names), figsize=(3.6 * len(names), 3.2), squeeze=False)
    for ax, name in zip(axes[0], names):
        mine = [r for r in beam_rows if r["domain"] == name]
        times = sorted({r["seconds"] for r in mine if r["algorithm"] == "mcts"})
        means = [sum(r["score"] for r in mine if r["algorithm"] == "mcts" and r["seconds"] == t)
                 / max(1, sum(r["algorithm"] == "mcts" and r["seconds"] == t for r in mine)) for t in times]
        beam = [r["score"] for r in mine if r["algorithm"] == "bmcts"]
        ax.plot(times, means, "o-", color="tab:blue", label="MCTS")
        if beam:
            ax.plot([min(times)], [sum(beam) / len(beam)], "s", color="tab:red", label="BMCTS")
        ax.set_xscale("log", base=2)
        ax.set_title(name)
        ax.set_xlabel("CPU seconds per board")
        ax.legend()
    axes[0][0].set_ylabel("mean score")
    fig.tight_layout()
else:
    print(f"no saved run in {beam_file.name} here")
"""),
    ("md", "@@THESIS_FINDINGS@@"),
]

#: What the saved full run showed (written from benchmarks/results/thesis_tables.txt).
THESIS_FINDINGS = r"""
## What the full run shows

From `python benchmarks/thesis_tables.py` (`benchmarks/results/thesis_tables.txt`), CPU-second budgets on a
shared 2-core machine:

* **Stacking (Table 5.1), the thesis's own instances, 60 s, 3 seeds.** MS reproduces the thesis exactly on
  `40-A..D` (79 / 59 / 41 / 154, every seed) and within 2% on `20-A..D` (899 / 1023 / 1101 / 1177 against
  883.9 / 1029.4 / 1098.0 / 1178.0).  MCTS beats MS on **8 of 8** (the thesis: 7 of 8; 20-A was its
  exception, here 888.0 against 899), and its 60-second means are below the thesis's 60-second MCTS on 7 of 8
  (`40-A` 47.7 vs 53.7, `40-B` 3.3 vs 30.5, `40-C` 8.3 vs 32.1, `40-D` 65.0 vs 99.7, `20-B` 856.3 vs 950.6,
  `20-C` 939.7 vs 977.1, `20-D` 1042.0 vs 1159.2; `20-A` 888.0 vs 887.5) and below its **600-second** figures
  on 6 of 8.  The compiled FO simulation runs about 2,000 complete simulations per CPU second on `40-A`
  (`benchmarks/results/simulation_speed.txt`), which is what buys the margin.
* **Number partitioning (Table 4.1), substitutes, 60 s (rerun on the idle machine).** MCTS in the thesis's
  setting improves on KK by **20.66 / 15.77 / 18.00 bits** on `hard0100 / 0200 / 0300` (the thesis: 18.81 /
  20.93 / 16.95; the criterion: >= 15), and lands **+0.57 / +3.16 / +2.00 bits** from the complete-KK DFS at
  equal CPU time (the thesis: -1.56 / -1.03 / +1.75; the criterion: within about 4).  The DFS wins on all three
  here (the thesis's MCTS beat its DFS on two): our DFS is pure Python and yet 3-40 times faster per node than the
  thesis reports for its own, so the comparison at equal CPU time is harder here than there.  The search is
  deterministic up to ties (KK simulations, compiled), so the three seeds agree.  The first run of this table, on
  the machine shared with two other jobs, fitted 3 times fewer simulations into the same CPU seconds (200,000 on
  `hard0300` against 620,000) and stopped at 14.82 bits there: CPU seconds are not the same seconds on a loaded
  machine.  The margin is thin: the 18-bit incumbent of `hard0300` comes at 45-48 CPU s of the 60.  Rei's code setting (global normalisation plus a depth bonus) is worse: 14.85 / 15.77 / 15.52
  bits over KK; selection interleaving with theta = 5 gives exactly the thesis setting's figures.
* **Stacking, MS as Rei's code runs it** (the delivery order fixed once per date, 60 s, 2 seeds, `20-A..D`): 885 /
  1014-1019 / 1105 / 1191 against the thesis's 883.9 / 1029.4 / 1098.0 / 1178.0 (the rule above, which recomputes
  the order after each delivery: 899 / 1023 / 1101 / 1177).  "MCTS beats MS on 8 of 8" rests on that rule; against
  the fixed-order MS, MCTS wins 3 of these 4 (`20-A`: 888.0 against 885).
* **Number partitioning over 10 generated instances per size, 60 CPU s per run** (the thesis's budget; MCTS on
  the compiled tree, 19.8 / 8.8 / 5.3 million simulations).  MCTS improves on KK by 14.6 [13.1, 16.1] /
  17.1 [15.5, 18.7] / 16.8 [15.7, 17.9] bits at N = 100 / 200 / 300 (95% t intervals over the instances), >= 15
  bits on 4 / 8 / 9 of the 10: the criterion is **met at N = 200 and 300, not at N = 100**.  It lands +2.7 [+0.5,
  +4.8] / +1.8 [+1.2, +2.4] / +1.5 [-0.7, +3.8] bits behind the DFS (within about 4 on average, never ahead).  At
  5 s the gains were 12.3 / 15.1 / 13.2 bits on the core and 13.5 / 16.2 / 15.4 on the compiled tree (which fits
  in 5 s about the simulations the core fits in 60 s).  The single-instance figures above lie outside these
  intervals: `hard0100`'s 20.66 and `hard0300`'s 18.00 above, `hard0200`'s 15.77 below.  The incumbent often
  stops improving early: on N = 200's first instance the 60-second value, 150.86 (9.2 million simulations), is
  already reached at 20,001 (`benchmarks/results/thesis/partitioning_speed.txt`).
* **Circle packing (Table 6.1), substitutes, 30 s.** MCTS is strictly better than MS on **3 of 6** (`large05`,
  `small05`, `small16`), equal on `large03`, slightly worse on `large16` and `small03`: not "better on most"
  (the thesis counts strict wins: 4 of 6 at 60 s, 5 of 6 at 600 s).  The reproduction criterion names 600 s; this
  table ran 30 s (600 s x 6 substitutes x 2 methods x 3 seeds is 6 CPU hours), so at 600 s it is untested.
  A semi-greedy construction costs 20-30 ms on the largest substitute, so a 30-second run does only about a
  thousand of them there.
* **Beam MCTS (Baier & Winands, Figs. 6-9), 0.25 CPU s per board, 100 boards per domain** (budgets fixed before
  the run; the paper: 60 s on 1000 boards).  BMCTS beats MCTS at equal time with p < 0.0001 in Clickomania only
  (+12.7 tiles, p = 6e-17; it also beats MCTS at 4x the time).  Bubble Breaker: +99.2 (p = 1.2e-4), level with
  MCTS at 4x (p = 0.92), the paper's "worth 4x".  SameGame with random rollouts (+44.1, p = 0.10) and with
  informed rollouts (+38.2, p = 0.16): not significant, and below MCTS at 2x, so the paper's 4x and 2x are not
  reproduced there at this budget, 240 times below the paper's.
"""
