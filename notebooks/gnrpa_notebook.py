"""The cells of ``gnrpa_tables.ipynb``: Cazenave 2024's Tables 1-3 and priors beside ours (see make_notebooks.py)."""
from __future__ import annotations

GNRPA = [
    ("md", r"""
# Learning a prior by replaying solutions: Cazenave's tables beside ours

Tristan Cazenave, *Learning a prior for Monte Carlo search by replaying
solutions to combinatorial problems* (arXiv:2401.10431, 2024), learns a
**prior** for Monte Carlo search without any expert: generate solved problems,
replay each solution and count, for every *prior code* (a small description
of a move in its state), how often a move with that code was played
(`count`) among the legal moves that had it (`nb`).  The bias of a move is
then $\beta_m = \tau \log(\mathrm{count}/\mathrm{nb})$, used in plain
sampling ($p_m \propto e^{\beta_m}$) and in **GNRPA** (NRPA whose softmax
adds $\beta_m$ to the learned weights).  In `hornermcts`: `hornermcts.search.nrpa`
(level 0 is sampling), `hornermcts.search.Prior` (Replay), and the domains
`latin_square`, `kakuro` and `rna_design`.

| table | problem | our runs (`benchmarks/`) |
|---|---|---|
| 1 | Latin squares, n = 20, 42 % blank, τ = 4 | `gnrpa_latin_square.py`: 100 problems to 32,768, 400 to 16,384 |
| 2 | Kakuro 10×10, values 1-11, τ = 4 | `gnrpa_kakuro.py`: 100 problems to 1,024, NRPA 20 to 16,384 |
| 3 | Eterna100 (inverse RNA folding), NGRAM prior, τ = 6 | `gnrpa_eterna.py`: all 100 V2 targets to 32 or 64 CPU s |
| — | SameGame, NRPA against SP-MCTS and NMCS | `samegame_nrpa` results, if they have been run |

Every table is recomputed here from the **raw rows** the scripts saved (one
JSON line per run; each run goes once to the largest budget and records the
playout, or CPU second, of its first solution, so one run fills every
column).  The priors' distributions (the paper's Figures 1, 3 and 4) are
learned here the way the benchmarks learn them.

**Budgets.**  The saved rows are read from `$HORNERMCTS_NOTEBOOK_RESULTS` if
the files are there, else from the repository's `benchmarks/results`.  The
budget only sets what the notebook computes itself: `small` (the test suite)
learns the LSC and Kakuro priors from 200 generated problems and runs a
4-problem live check of the LSC script; `medium` (the default) and `full`
learn them from 10,000 as the benchmarks do (about a minute).
"""),
    ("live", r"""
import json
import os
import sys
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

import hornermcts
from hornermcts.domains import kakuro, latin_square, rna_design

ROOT = Path(hornermcts.__file__).resolve().parents[1]  # the repository (an editable install, as the README's)
sys.path.insert(0, str(ROOT / "benchmarks"))
import gnrpa_eterna  # noqa: E402  (the benchmark scripts define the tables)
import gnrpa_kakuro  # noqa: E402
import gnrpa_latin_square  # noqa: E402

BUDGET = os.environ.get("HORNERMCTS_NOTEBOOK_BUDGET", "medium")
if BUDGET not in ("small", "medium", "full"):
    raise ValueError(f"HORNERMCTS_NOTEBOOK_BUDGET must be small, medium or full, not {BUDGET!r}")
TRAINING = 200 if BUDGET == "small" else 10_000   # generated solved problems the priors are learned from
FOLDERS = list(dict.fromkeys([Path(p).resolve() for p in [os.environ.get("HORNERMCTS_NOTEBOOK_RESULTS")] if p]
                             + [(ROOT / "benchmarks" / "results").resolve()]))
plt.rcParams.update({"figure.dpi": 80, "axes.grid": True, "grid.alpha": 0.3})


def saved(name):
    # the raw rows of a benchmark: a list of dicts, or None if the file is in none of FOLDERS
    for folder in FOLDERS:
        path = folder / name
        if path.exists():
            with open(path, encoding="utf-8") as handle:
                rows = [json.loads(line) for line in handle if line.strip()]
            shown = path.relative_to(ROOT) if path.resolve().is_relative_to(ROOT) else path
            print(f"{len(rows)} rows from {shown}")
            return rows
    print(f"{name}: not found in {', '.join(map(str, FOLDERS))}")
    return None


def by_row(rows):
    groups = {}
    for row in rows:
        groups.setdefault(row["row"], []).append(row)
    return groups


def ratios(prior):
    # count/nb of every code seen in Replay (the paper's figures drop the codes never seen)
    return np.array([prior.count.get(code, 0) / seen for code, seen in prior.nb.items()])


def solved_curve(ax, rows, key, label, colour, scale_to=100, start=1):
    # problems solved (scaled to scale_to) within x, a step at each first solution, drawn to the runs' budget
    hits = np.sort([r[key] for r in rows if r[key] is not None])
    end = max(r["budget"] for r in rows)
    xs = np.concatenate([[start], hits, [end]])
    ys = np.concatenate([[0], np.arange(1, hits.size + 1), [hits.size]]) * scale_to / len(rows)
    ax.step(xs, ys, where="post", color=colour, label=label)


COLOURS = ["tab:gray", "tab:green", "tab:orange", "tab:blue", "tab:purple", "tab:red"]
print(f"budget {BUDGET!r}: priors learned from {TRAINING} generated problems; results from "
      f"{FOLDERS[0].relative_to(ROOT) if FOLDERS[0].is_relative_to(ROOT) else FOLDERS[0]}")
"""),
    ("md", r"""
## Table 1: Latin square completion

Complete a 20×20 partial Latin square with 42 % of its cells blank (the
phase transition, the paper's Figure 2).  Instances are generated: a full
square built by playouts, 168 cells blanked at random (test seeds 0-99; the
training problems have other seeds).  A playout is a CSP search: forward
checking, the empty cell with the smallest domain (MRV), a value drawn from
the policy; the score is minus the cells left empty.  The **Dual code** of
a move (cell, v) is (rc, cc): the numbers of empty cells of its row and of
its column whose domain still holds v (the paper's "number of times the value
is present in the same column and in the same row", read as domain
occurrences, docs/domains.md B5.4).

The paper's "channeling" (hidden singles assigned directly) is **off**: the
calibration (docs/domains.md §0.3; `hornermcts.domains.latin_square.problem`)
found that any hidden-single propagation makes uniform sampling solve 60-100 %
of the problems at 1,024 playouts against the table's 2 %, while forward
checking + MRV alone gives 2 / 11 / 14 / 19 / 31 of 100 at 1,024 .. 16,384
(table: 2 / 5 / 10 / 16 / 26).  The Dual prior then learns the hidden singles
itself: a code with rc = 1 or cc = 1 has ratio 1.
"""),
    ("code", r"""
def paper_row(label):
    # the paper's row a label of ours stands for ("NRPA level 1, ..." -> "NRPA")
    return next(p for p in ("Sampling Dual prior", "GNRPA Dual prior", "Sampling", "NRPA") if label.startswith(p))


def lsc_table(name):
    # the table of a saved LSC run and, under it, each prior row's factor over its baseline (95 % bootstrap interval)
    rows = saved(name)
    if not rows:
        return {}
    rows = gnrpa_latin_square.latest(rows)
    lsc = by_row(rows)
    budget = min(r["budget"] for r in rows)  # every problem ran at least this far
    groups = [(label, rows, budget, paper_row(label)) for label, rows in lsc.items()]
    print(gnrpa_latin_square.format_table(groups) + "\n\n" + gnrpa_latin_square.factor_table(groups))
    return lsc


lsc = lsc_table("gnrpa_latin_square.jsonl")
"""),
    ("md", r"""
The same rows on **400** test problems (seeds 0..399, to 16,384 playouts; the first 100 are those above), so that
the factors' intervals are narrow enough to test the paper's:
"""),
    ("code", r"""
lsc_400 = lsc_table("gnrpa_latin_square_400.jsonl")
"""),
    ("md", r"""
A live check of the script that produced these rows (every budget runs
it; `small` and the others alike): the four rows on the first four test
problems at 1,024 playouts, with the prior learned from `TRAINING` problems.
"""),
    ("live", r"""
lsc_prior = latin_square.learn_prior(latin_square.training_instances(TRAINING))
live = []
for seed in range(4):
    instance = latin_square.generate(20, blanks=0.42, seed=seed)
    for label, method, prior in (("Sampling", "sampling", None), ("Sampling Dual prior", "sampling", lsc_prior),
                                 ("NRPA", "nrpa", None), ("GNRPA Dual prior", "gnrpa", lsc_prior)):
        row = gnrpa_latin_square.run_one(instance, seed, method, 1024, latin_square.CALIBRATED, prior)
        row["row"] = label
        live.append(row)
live_groups = by_row(live)
print(gnrpa_latin_square.format_table([(label, rows, 1024, label) for label, rows in live_groups.items()]))
"""),
    ("md", r"""
### Figure 1: the Dual prior

The distribution of count/nb over the Dual codes seen in Replay (the paper's
Figure 1), and the same ratios laid out by (rc, cc): moves whose value fits
few cells of their row and column are the solution's moves far more often.
"""),
    ("live", r"""
r = ratios(lsc_prior)
n = 20
grid = np.full((n + 1, n + 1), np.nan)
for code, seen in lsc_prior.nb.items():
    grid[code // (n + 1), code % (n + 1)] = lsc_prior.count.get(code, 0) / seen
fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.6))
left.hist(r, bins=np.linspace(0, 1, 21), color="tab:blue", edgecolor="white")
left.set_xlabel("prior ratio count/nb")
left.set_ylabel("codes")
left.set_title(f"LSC Dual prior: {r.size} codes seen ({TRAINING} problems)")
image = right.imshow(grid, origin="lower", cmap="viridis", vmin=0, vmax=1)
right.set_xlabel("cc: cells of the column that can take v")
right.set_ylabel("rc: cells of the row")
right.set_title("ratio by Dual code (blank: never seen)")
fig.colorbar(image, ax=right)
fig.tight_layout()
print(f"{r.size} codes; ratio 1: {(r == 1).sum()}, in (0, 0.1): {((r > 0) & (r < 0.1)).sum()}, 0: {(r == 0).sum()}; "
      f"overall {lsc_prior.overall:.3f}")
"""),
    ("md", r"""
### Solved against the playout budget

Our curves (steps at each problem's first solution) and the paper's Table 1
(dots, same colour).
"""),
    ("code", r"""
if lsc:
    fig, ax = plt.subplots(figsize=(7, 4.2))
    colour_of = dict(zip(gnrpa_latin_square.PAPER, COLOURS[:4]))
    for label, rows in lsc.items():  # other NRPA settings (level 1, ...) dotted, in their row's colour
        solved_curve(ax, rows, "reached", label, colour_of[paper_row(label)])
        if label not in colour_of:
            ax.lines[-1].set_linestyle(":")
    for label, colour in colour_of.items():
        ax.plot(gnrpa_latin_square.BUDGETS, gnrpa_latin_square.PAPER[label], "o--", color=colour, alpha=0.6,
                markersize=4)
    ax.set_xscale("log", base=2)
    ax.set_xlim(1, max(gnrpa_latin_square.BUDGETS))
    ax.set_xlabel("playouts")
    ax.set_ylabel("problems solved (of 100)")
    ax.set_title("LSC order 20, 42 % blank: ours (steps) and Table 1 (dots)")
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
"""),
    ("md", r"""
### Ablations on validation problems

`python benchmarks/gnrpa_latin_square.py --ablation` runs the prior rows at
several temperatures on **validation** problems (seeds 500,000 and up:
neither the test problems nor the training ones), and
`--ablation --channeling lines` the same with hidden singles in the row and
column of each move (the weakest channeling), and `--ablation
--nrpa-settings 1/100/1,...` NRPA and GNRPA at other levels and learning
rates (the paper gives neither), so that nothing is tuned on the test
problems.
"""),
    ("code", r"""
for name in ("gnrpa_latin_square_ablation.jsonl", "gnrpa_latin_square_ablation_lines.jsonl",
             "gnrpa_latin_square_ablation_nrpa.jsonl"):
    rows = saved(name)
    if not rows:
        continue
    rows = gnrpa_latin_square.latest(rows)
    groups = by_row(rows)
    budget = max(r["budget"] for r in rows)
    paper = {label: paper_row(label) for label in groups}
    channeling = rows[0]["channeling"]
    print(f"channeling {channeling!r}, {len({r['problem_seed'] for r in rows})} validation problems")
    print(gnrpa_latin_square.format_table([(label, g, budget, paper[label]) for label, g in groups.items()]) + "\n")
"""),
    ("md", r"""
## Table 2: Kakuro

A 10×10 grid, values 1-11, all different in every row and column, with only
the ten row sums and ten column sums given.  The playout is forward checking
(all-different) + MRV; the score counts the rows and columns whose sum
matches (20 = solved).  The paper's prior code is "the number of times the
value appears in the row and in the column, the remaining row sum and the
remaining column sum".  Three readings of it are run: `sums` (value, sums
left: the literal one), `filled` (value, filled cells of the row and column,
sums left) and `remaining` (value, cells of the row and column that can still
take it, sums left).  Each solves **nothing**: 0/100 at 1,024 playouts,
against the paper's 100/100 in about one playout.  The ablation `hints`
holds each line's *given* sum instead, which tells the value the line omits.
It solves 100/100 with a median of 10 playouts, and that is the kind of
information the paper's figure suggests the prior "rediscovers".
"""),
    ("code", r"""
kakuro_rows = saved("gnrpa_kakuro.jsonl")
if kakuro_rows:
    kak = by_row(kakuro_rows)

    def kakuro_paper_row(label):  # the oracle reference row stands beside the paper's prior row
        if label.startswith("Sampling, omitted"):
            return "Sampling Prior"
        return next(p for p in ("Sampling Prior", "GNRPA Prior", "NRPA", "Sampling") if label.startswith(p))

    groups = [(label, rows, max(r["budget"] for r in rows), kakuro_paper_row(label)) for label, rows in kak.items()]
    print(gnrpa_kakuro.format_table(groups))
"""),
    ("md", r"""
### One more reading: forward checking that enforces the line sums

The paper's playout is "forward checking" without saying on what.  Above,
it enforces all-different only.  Below (`gnrpa_kakuro.py --propagation
sums`), it also removes every value that no completion of its row's or
column's sum allows, with the paper's prior code (the literal `sums` and
the `remaining` reading) learned under the same propagation.

It reproduces the prior rows (100/100 at 1,024, a median of **1** playout:
61 and 75 of the 100 problems in the first one, "usually in 1 playout") but
not the rest of Table 2: uniform Sampling also solves 100/100 (62 in one
playout; the paper: 0/100 at every budget) and NRPA 20/20 (the paper: 0 up to
4,096), and Fig. 3's bins are not met (`sums` 1,696 codes at 1.0 and 538 in
(0, 0.1); `remaining` 80,738 and 7,279; the paper 15,410 and 20,353).  With
the sums propagated, the prior has nothing left to add: this reading is not
the paper's playout either.
"""),
    ("code", r"""
kakuro_sums = saved("gnrpa_kakuro_sums.jsonl")
if kakuro_sums and kakuro_rows:  # kakuro_paper_row comes with the first table
    groups = [(label, rows, max(r["budget"] for r in rows), kakuro_paper_row(label))
              for label, rows in by_row(kakuro_sums).items()]
    print(gnrpa_kakuro.format_table(groups))
"""),
    ("md", r"""
### Figure 3: the Kakuro prior

The paper counts 15,410 codes of ratio 1.0 and 20,353 in (0, 0.1) after
10,000 problems, with a peak at 0 (values made impossible by the sums).
"""),
    ("live", r"""
fig, axes = plt.subplots(2, 2, figsize=(10, 6.6))
for ax, code in zip(axes.flat, ("sums", "filled", "remaining", "hints")):
    prior = kakuro.learn_prior(kakuro.training_instances(TRAINING), code=code)
    r = ratios(prior)
    ax.hist(r, bins=np.linspace(0, 1, 21), color="tab:blue", edgecolor="white")
    ax.set_yscale("log")
    ax.set_xlabel("prior ratio count/nb")
    ax.set_ylabel("codes")
    ax.set_title(f"Kakuro prior '{code}': {r.size:,} codes ({TRAINING} problems)")
    print(f"{code}: {r.size} codes; ratio 1.0: {(r == 1).sum()}, in (0, 0.1): {((r > 0) & (r < 0.1)).sum()}, "
          f"0: {(r == 0).sum()}   (Fig. 3, the paper's code, 10,000 problems: ratio 1.0: "
          f"{gnrpa_kakuro.PAPER_FIG3['ratio 1.0']:,}, in (0, 0.1): {gnrpa_kakuro.PAPER_FIG3['ratio in (0, 0.1)']:,})")
fig.tight_layout()
"""),
    ("code", r"""
if kakuro_rows:
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for colour, (label, rows) in zip(COLOURS, kak.items()):
        solved_curve(ax, rows, "reached", f"{label} ({len(rows)} problems)", colour)
    for colour, paper in zip(("black", "tab:brown"), ("Sampling Prior", "NRPA")):
        ax.plot(gnrpa_kakuro.BUDGETS, gnrpa_kakuro.PAPER[paper], "o--", color=colour, alpha=0.6, markersize=4,
                label=f"paper: {paper}")
    ax.set_xscale("log", base=2)
    ax.set_xlim(1, max(gnrpa_kakuro.BUDGETS))
    ax.set_xlabel("playouts")
    ax.set_ylabel("problems solved (scaled to 100)")
    ax.set_title("Kakuro 10x10: ours (steps) and Table 2 (dots)")
    ax.legend(fontsize=8, loc="center right")
    fig.tight_layout()
"""),
    ("md", r"""
## Table 3: Eterna100 (inverse RNA folding)

Design a sequence whose minimum-free-energy structure (ViennaRNA 2) is the
target; moves fix one '.' (A, C, G, U) or one pair (CG, GC, GU, UG, AU, UA)
left to right; the NGRAM code is (previous target character, previous move,
target character, move).  Rfam, the paper's training set, is not available:
our NGRAM prior is learned from a **substitute** (2,000 random sequences
folded by ViennaRNA, shipped with the package), and the "NEMO prior" is a
handmade pair prior, also a substitute.  The paper's budgets are 32 to 4,096
CPU seconds on all 100 targets; the committed runs: NRPA and GNRPA NGRAM on
all 100 targets to 64 s (a machine at load ~6) and again to 32 s (the idle
machine, other seeds), both at level 1 instead of 2 to 32 s, Sampling and
Sampling NGRAM on all 100 to 32 s, and the 20 and 10 shortest targets at 8 s.
"""),
    ("code", r"""
eterna = {}
for name in ("gnrpa_eterna.jsonl", "gnrpa_eterna_seed1000.jsonl", "gnrpa_eterna_level1.jsonl",
             "gnrpa_eterna_sampling.jsonl", "gnrpa_eterna_sampling_ngram.jsonl", "gnrpa_eterna_shortest20_8s.jsonl",
             "gnrpa_eterna_shortest10_8s.jsonl"):
    rows = saved(name)
    if not rows:
        continue
    eterna[name] = rows
    budget = max(r["budget"] for r in rows)
    groups = {}
    for row in rows:
        groups.setdefault(row["method"], []).append(row)
    table = [(gnrpa_eterna.METHODS[m][2], gnrpa_eterna.METHODS[m][3], rows) for m, rows in groups.items()]
    targets = len({r["puzzle"] for r in rows})
    level = rows[0].get("level", 2)
    print(f"\n{name}: {targets} targets, to {budget:g} CPU s per run" + (f", NRPA/GNRPA level {level}"
                                                                        if level != 2 else ""))
    print(gnrpa_eterna.format_table(table, budget, targets))
"""),
    ("md", r"""
### Figure 4: the NGRAM prior

The paper's Rfam-trained NGRAM prior has 100 codes with ratios from 0.010083
to 0.437825, mostly small.  Ours comes from the substitute training set (110
codes: a start symbol stands for the previous move of the first position).
"""),
    ("code", r"""
ngram = rna_design.substitute_prior()
r = ratios(ngram)
fig, ax = plt.subplots(figsize=(6, 3.4))
ax.hist(r, bins=np.linspace(0, 1, 21), color="tab:blue", edgecolor="white")
ax.set_xlabel("prior ratio count/nb")
ax.set_ylabel("codes")
ax.set_title(f"RNA NGRAM prior ({rna_design.NGRAM_LABEL}): {r.size} codes")
fig.tight_layout()
print(f"{r.size} codes; ratios from {r[r > 0].min():.6f} to {r.max():.6f}; zero: {(r == 0).sum()} "
      "(paper: 100 codes, 0.010083 to 0.437825)")
"""),
    ("code", r"""
if eterna:
    name = max(eterna, key=lambda k: len({r["puzzle"] for r in eterna[k]}))
    rows = eterna[name]
    fig, ax = plt.subplots(figsize=(7, 4.2))
    groups = {}
    for row in rows:
        groups.setdefault(row["method"], []).append(row)
    for colour, (method, group) in zip(COLOURS, groups.items()):
        solved_curve(ax, group, "solved_seconds", f"{gnrpa_eterna.METHODS[method][2]} ({len(group)} targets)",
                     colour, scale_to=len(group), start=1e-4)
    ax.set_xscale("log")
    ax.set_xlabel("CPU seconds")
    ax.set_ylabel("targets solved")
    ax.set_title(f"Eterna100 V2, {name.removesuffix('.jsonl')}")
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
"""),
    ("md", r"""
## SameGame: NRPA against SP-MCTS and NMCS

The issue asks for NRPA (playouts coded by move colour and group size) on the
standard 20 positions, with its total beside SP-MCTS's 78,012 and NMCS's
77,934 at equal time.  Its results are shown here once they exist.
"""),
    ("code", r"""
samegame = [folder / "samegame_nrpa.txt" for folder in FOLDERS if (folder / "samegame_nrpa.txt").exists()]
if samegame:
    print(samegame[0].read_text(encoding="utf-8"))
else:
    print("samegame_nrpa.txt has not been produced yet: the SameGame NRPA comparison has not been run.")
"""),
    ("md", "@@GNRPA_FINDINGS@@"),
]

#: What the saved runs show (written from the committed results; see each benchmark's .txt).
GNRPA_FINDINGS = r"""
## What is reproduced, and what is not

From the committed rows above (a shared 2-core machine; every solution re-checked by an independent checker).

**Table 1, Latin square completion: the prior helps at every budget, as in the paper, but by less.**  The runs
are on the 100 test problems, one run per problem and row to 32,768 playouts (`gnrpa_latin_square.txt`):

| at 1,024 / 2,048 / 4,096 / 8,192 / 16,384 / 32,768 | ours | paper |
|---|---|---|
| Sampling | 2 / 11 / 14 / 19 / 31 / 39 | 2 / 5 / 10 / 16 / 26 / 36 |
| Sampling Dual prior | 13 / 20 / 34 / 45 / 58 / 70 | 12 / 24 / 34 / 48 / 70 / 80 |
| NRPA (level 3, N 100, α 1) | 15 / 27 / 35 / 44 / 61 / 77 | 8 / 16 / 25 / 35 / 48 / 61 |
| GNRPA Dual prior (level 3) | 28 / 40 / 48 / 51 / 72 / 84 | 26 / 39 / 54 / 67 / 83 / 91 |
| NRPA level 1 (N 100, α 1, restarted) | 8 / 15 / 22 / 38 / 50 / 63 | 8 / 16 / 25 / 35 / 48 / 61 |
| GNRPA Dual prior level 1 | 22 / 35 / 49 / 61 / 74 / 84 | 26 / 39 / 54 / 67 / 83 / 91 |
| Sampling Dual / Sampling | 6.5 / 1.8 / 2.4 / 2.4 / 1.9 / 1.8 | 6.0 / 4.8 / 3.4 / 3.0 / 2.7 / 2.2 |
| GNRPA / NRPA, level 3 | 1.9 / 1.5 / 1.4 / 1.2 / 1.2 / 1.1 | 3.3 / 2.4 / 2.2 / 1.9 / 1.7 / 1.5 |
| GNRPA / NRPA, level 1 | 2.8 / 2.3 / 2.2 / 1.6 / 1.5 / 1.3 | 3.3 / 2.4 / 2.2 / 1.9 / 1.7 / 1.5 |

* The prior helps at **every** budget in both pairs, at either NRPA level.
* **Sampling with the prior.**  Our row lands near the paper's: within 4 problems up to 8,192, then 10-12
  below.  The factor over uniform sampling is smaller than the paper's between 2,048 and 16,384, because our
  uniform Sampling is a little above the paper's there (calibration, docs/domains.md §0.3).
* **NRPA setting.**  The paper gives no N, α or level.  With docs/domains.md's reading (level 3, N = 100, α = 1),
  NRPA is far stronger than the paper's row (15 against 8 at 1,024, 77 against 61 at 32,768).  GNRPA / NRPA is
  then only 1.1-1.9, against the paper's 1.5-3.3.
* **Level 1 fitted the first 100 problems, not 400.**  We chose the setting on 50 **validation** problems
  (`gnrpa_latin_square_ablation_nrpa.txt`), not on the test set.  Restarted level-1 NRPA (N = 100, α = 1) came
  closest there to the paper's NRPA row (10 / 14 / 24 / 28 per 100 at 1,024..8,192).  Level 2 equals level 3
  up to 8,192, and α = 0.5 is stronger still.  On the 100 test problems the level-1 rows are near the paper's
  (NRPA 8 / 15 / 22 / 38 / 50 / 63, GNRPA 22 / 35 / 49 / 61 / 74 / 84) and so are their factors (2.8 to 1.3
  against 3.3 to 1.5).  The paper does not say that it used level 1.
* **400 problems say the factors are smaller than the paper's** (`gnrpa_latin_square_400.txt`, the same rows on
  seeds 0..399 to 16,384; decided before the run: a factor is reproduced where its 95 % bootstrap interval holds
  the paper's).  Per 100: Sampling 3 / 9 / 15 / 22 / 31, Sampling Dual 16 / 25 / 34 / 49 / 61, NRPA level 1
  12 / 19 / 29 / 42 / 51, GNRPA level 1 22 / 34 / 47 / 60 / 75.  The factors: Sampling Dual / Sampling
  5.3 / 2.7 / 2.4 / 2.2 / 2.0 (paper 6.0 / 4.8 / 3.4 / 3.0 / 2.7), GNRPA / NRPA at level 1 1.9 / 1.8 / 1.6 /
  1.4 / 1.5 (paper 3.3 / 2.4 / 2.2 / 1.9 / 1.7), at level 3 1.8 / 1.6 / 1.5 / 1.4 / 1.3.  Only Sampling's factor
  at 1,024 is inside its interval; the first 100 problems were favourable to level 1.  Our rows without the
  prior are at or above the paper's, our rows with it below: our Dual prior gains less than the paper's.
* **Temperature** (`gnrpa_latin_square_ablation.txt`, 50 validation problems to 8,192, τ = 1, 2, 4, 8, level 3):
  the prior's gain grows with τ.  At 8,192, Sampling Dual solves 11 / 15 / 14 / 18 of 50 against Sampling's
  9, and GNRPA Dual 18 / 22 / 21 / 27 against NRPA's 19.  The paper's τ = 4 is reasonable, and τ = 8 alone
  does not bring the level-3 factors to the paper's.  These counts are out of 50, so differences of 3-4
  problems are within the noise.
* **Channeling** (`gnrpa_latin_square_ablation_lines.txt`): with the weakest hidden-single propagation, uniform
  Sampling already solves 28 of 50 at 1,024 (Table 1: 2 of 100), and GNRPA is no better than NRPA (35 against
  33 at 1,024, 38 against 39 at 4,096).  The calibrated playout (forward checking + MRV, no channeling) is the
  only one consistent with Table 1's Sampling row, and the Dual prior then learns the hidden singles itself:
  the codes rc = 1 or cc = 1 have ratio 1 (Figure 1 above, right).
* **The Dual code reading.**  Read literally ("times the value is present in the row and column"), every legal
  move has code (0, 0), so the prior would be a constant and change nothing.  Read as domain occurrences, the
  prior rows come within a few problems of the paper's, which supports this reading.

**Table 2, Kakuro: not reproduced with the code as specified.**  Uniform Sampling is 0/100 at 1,024 and NRPA
5 and 9 of 20 at 8,192 and 16,384 (about 25 and 45 per 100; the paper has 23 and 35), both as in the paper.
Every reading of the paper's prior code (`sums`, `filled`, `remaining`) gives **0/100** at 1,024 for Sampling
and GNRPA, against the paper's 100/100.  A code with the lines' *given* sums instead (`hints`)
solves 100/100 (median 10 playouts, 4 problems in one playout).  The paper's "usually in 1 playout" is not
reached with either code, nor by an oracle prior that rules out exactly each line's omitted value (100/100,
median 22 playouts, 4 in one): under the paper's playout, knowing those values solves every problem, not in one
playout.

**Table 3, Eterna100: the 2x is not reproduced.**  On all 100 V2 targets at 32 CPU s, NRPA solves 29 and GNRPA
with the substitute NGRAM prior 56 in a run on a machine at load ~6 (1.93 times as many), and 39 and 55 in a
second run on the idle machine (1.41 times: NRPA's playouts per CPU second were about 1.5 times the first
run's, and NRPA needs many of them; GNRPA solves early or not at all).  The paper: 28 and 70 (2.5 times).
Sampling solves 13 and Sampling NGRAM 50 (the paper: 11 and 57).  The NGRAM prior is learned on a substitute
training set (no Rfam); its ratios span 0.008-0.42, as the paper's 100 codes span 0.010-0.438 (Figure 4).
NEMO's 95/100 is far ahead of both.

The paper gives no NRPA level.  At level 1 (N = 100, restarted; the level nearest the paper's LSC NRPA row), a
third run (`gnrpa_eterna_level1.txt`) gives NRPA **15** and GNRPA NGRAM **50** at 32 s, 3.3 times as many, but
only because both searches fall back to what sampling does: uniform Sampling solves 13, Sampling NGRAM 50.  In
the paper NRPA (28) is far above Sampling (11) and GNRPA (70) above Sampling NGRAM (57), so its setting is not
this one; the paper's NRPA lies between our level 1 (15) and level 2 (29-39).  So the 3.3x at level 1 does not
reproduce the table either.

**SameGame:** the NRPA comparison printed above (`samegame_nrpa.txt`) is a finished run on all 20 positions
of the standard set, 30 CPU s per position and method: NRPA (a per-game search) totals 48,120, SP-MCTS per
move 61,610, NMCS 64,764 (the papers, about 2 hours per position: NMCS 77,934, SP-MCTS(3) 78,012).  Schadd
et al.'s Table 3 row "SP-MCTS per game" (2,223 / 2,342 / 2,493 / 2,555 / 2,750 at 5-60 s) was **not run**:
only its per-move row was (`samegame_papers.py` part a).
"""
