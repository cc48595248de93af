"""Table 1 of Cazenave (2024), Latin square completion (order 20, 42 % blank): Sampling, NRPA, with the Dual prior.

One command::

    python benchmarks/gnrpa_latin_square.py [--training 10000] [--problems 100] [--budget 16384]
        [--channeling none] [--fresh] [--out benchmarks/results/gnrpa_latin_square]
    python benchmarks/gnrpa_latin_square.py --calibrate [--channeling none,lines,full] [--problems 100]
        [--budget 16384] [--out benchmarks/results/gnrpa_latin_square_calibration]
    python benchmarks/gnrpa_latin_square.py --ablation [--temperatures 1,2,4,8] [--problems 100]
        [--budget 16384] [--out benchmarks/results/gnrpa_latin_square_ablation]

The table (docs/domains.md B4): the Dual prior is learned by Replay of
``--training`` generated solved problems (seeds ``TRAINING_SEED``, ...);
then, on the test problems (seeds 0 .. problems - 1; search seeds
:func:`~hornermcts.domains.latin_square.search_seed` of those), Sampling,
Sampling with the Dual prior, NRPA and GNRPA with the Dual prior (tau = 4;
level 3, N = 100) run once per problem to ``--budget`` playouts, stopping at
the first solution, whose playout count (``result.reached``) fills every
column; every solution is checked by the independent checker.  One JSON
line per run goes to ``OUT.jsonl``; the table, beside the paper's, is
printed and written to ``OUT.txt`` (``-`` beyond the budget; with fewer than
100 problems, the count scaled to 100 in brackets).

The run goes problem by problem, the four rows on each, and **resumes**:
the rows already in ``OUT.jsonl`` for the same (row, problem), channeling
and training size, solved or run to at least ``--budget``, are reused, and
new rows are appended (``--fresh`` starts over).  An interrupted run loses
at most the run in progress, and its partial file compares the four rows
on the same problems.

``--ablation`` runs Sampling and NRPA, and the two prior rows at each
temperature of ``--temperatures``, on *validation* problems (seeds
``VALIDATION_SEED``, ...: neither the test problems nor the training ones,
so that nothing is tuned on the test problems).

``--calibrate`` runs only uniform Sampling, once per channeling strength
of ``--channeling`` (docs/domains.md 0.3: the strength is chosen so that Sampling
solves about 2/100 at 1,024 playouts and 26/100 at 16,384).

CPU seconds are this process's (``time.process_time``); the machine is
shared, run it with ``nice -n 10``.

Committed runs (channeling none, tau = 4, prior from 10,000 problems; a
shared 2-core machine; solved of 100 at 1,024 .. 32,768 playouts):
``results/gnrpa_latin_square.txt`` (``--budget 32768``, 607 CPU s):
Sampling 2/11/14/19/31/39, Sampling Dual prior 13/20/34/45/58/70, NRPA
15/27/35/44/61/77, GNRPA Dual prior 28/40/48/51/72/84 (Table 1: 2/5/10/16/
26/36, 12/24/34/48/70/80, 8/16/25/35/48/61, 26/39/54/67/83/91); then,
resumed with ``--nrpa-settings 1/100/1`` (the setting closest to the
paper's NRPA row on the validation problems, 291 CPU s more): NRPA level 1
8/15/22/38/50/63, GNRPA Dual prior level 1 22/35/49/61/74/84.
``results/gnrpa_latin_square_400.txt`` (``--problems 400 --budget 16384 --nrpa-settings 1/100/1``, the same
rows on 300 more test problems, seeds 100..399, 1,417 CPU s; the first 100 reused): solved per 100 at 1,024 ..
16,384, Sampling 3/9/15/22/31, Sampling Dual prior 16/25/34/49/61, NRPA level 1 12/19/29/42/51, GNRPA Dual
prior level 1 22/34/47/60/75.  Under the table, each prior row's factor over its baseline with a 95 % bootstrap
interval over the problems (:func:`factor_table`): decided before the run, the paper's factor counts as
reproduced where the interval holds it.  It holds none of them but Sampling's at 1,024: with the prior, Sampling
gains 5.3/2.7/2.4/2.2/2.0 (the paper 6.0/4.8/3.4/3.0/2.7) and level-1 GNRPA over level-1 NRPA 1.9/1.8/1.6/1.4/1.5
(3.3/2.4/2.2/1.9/1.7).  On the first 100 problems the level-1 factors were inside (2.8/2.3/2.2/1.6/1.5); the 300
more say those 100 were favourable.  The prior helps at every budget, but less than the paper's.
``results/gnrpa_latin_square_ablation.txt`` (``--ablation --problems 50
--budget 8192``) and ``..._ablation_lines.txt`` (``--ablation --channeling
lines --temperatures 4 --problems 50 --budget 4096``) and
``..._ablation_nrpa.txt`` (``--ablation --temperatures 4 --nrpa-settings
1/100/1,2/100/1,3/100/0.5 --problems 50 --budget 8192``): the temperature,
the channeling and NRPA's level and alpha on validation problems.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import time

import numpy as np

from hornermcts.domains.latin_square.solve import LEVEL, PER_LEVEL
from hornermcts.domains.latin_square import (
    CALIBRATED,
    CHANNELING,
    TEMPERATURE,
    LatinSquareCompletion,
    generate,
    learn_prior,
    search,
    search_seed,
    training_instances,
    violations,
)

#: The first seed of the ablation's validation problems (neither test, 0.., nor training, TRAINING_SEED..).
VALIDATION_SEED = 500_000
BUDGETS = (1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072)
#: Table 1 as printed (problems solved out of 100).
PAPER = {
    "Sampling": (2, 5, 10, 16, 26, 36, 49, 61),
    "Sampling Dual prior": (12, 24, 34, 48, 70, 80, 89, 95),
    "NRPA": (8, 16, 25, 35, 48, 61, 70, 80),
    "GNRPA Dual prior": (26, 39, 54, 67, 83, 91, 95, 98),
}


def run_one(instance, seed: int, method: str, budget: int, channeling: str, prior,
            temperature: float = TEMPERATURE, nrpa: tuple = (LEVEL, PER_LEVEL, 1.0)) -> dict:
    problem = LatinSquareCompletion(instance, channeling=channeling)
    cpu = time.process_time()
    level, per_level, alpha = nrpa
    result = search(problem, method, playouts=budget, target=0.0, prior=prior, temperature=temperature,
                    level=level, per_level=per_level, alpha=alpha, seed=search_seed(seed))
    seconds = time.process_time() - cpu
    if result.reached is not None:
        problems = violations(instance.givens, problem.grid(result.best_state))
        if problems:
            raise AssertionError(f"problem {seed}, {method}: the solution fails the checker: {problems[0]}")
    return {"problem_seed": seed, "search_seed": search_seed(seed), "method": method, "channeling": channeling,
            "prior": prior is not None, "temperature": temperature if prior is not None else None,
            "budget": budget, "nrpa": None if method == "sampling" else list(nrpa),
            "reached": result.reached, "playouts": result.iterations,
            "best": result.best_value, "cpu_seconds": round(seconds, 4)}


def format_table(groups: list[tuple[str, list[dict], int, str | None]]) -> str:
    width = max(30, max(len(label) for label, *_ in groups) + 2)
    head = (f"{'algorithm':<{width}}" + "".join(f"{b:>11,}" for b in BUDGETS)
            + "   median playouts (solved)   playouts/CPU s")
    lines = [head, "-" * len(head)]
    for label, rows, budget, paper in groups:
        scale = 100 / len(rows)
        cells = []
        for b in BUDGETS:
            if b > budget:
                cells.append("-")
                continue
            solved = sum(r["reached"] is not None and r["reached"] <= b for r in rows)
            cells.append(str(solved) if len(rows) == 100 else f"{solved} [{solved * scale:.0f}]")
        reached = [r["reached"] for r in rows if r["reached"] is not None]
        median = f"{statistics.median(reached):g} ({len(reached)}/{len(rows)})" if reached else f"- (0/{len(rows)})"
        rate = sum(r["playouts"] for r in rows) / max(sum(r["cpu_seconds"] for r in rows), 1e-9)
        lines.append(f"{label:<{width}}" + "".join(f"{c:>11}" for c in cells) + f"   {median:<26} {rate:>13,.0f}")
        if paper is not None:
            lines.append(f"{'  paper: ' + paper:<{width}}" + "".join(f"{x:>11}" for x in PAPER[paper]))
    return "\n".join(lines)


def baseline_of(label: str) -> str | None:
    """The row a prior row is compared with: Sampling for Sampling with the prior, NRPA at the same setting for
    GNRPA; None for a row without the prior.

    >>> baseline_of("Sampling Dual prior"), baseline_of("GNRPA Dual prior, level 1, N 100, alpha 1")
    ('Sampling', 'NRPA level 1, N 100, alpha 1')
    """
    if label.startswith("Sampling Dual prior"):
        return "Sampling"
    if label.startswith("GNRPA Dual prior"):
        return "NRPA" + label[len("GNRPA Dual prior"):].lstrip(",")
    return None


def factor_table(groups: list[tuple[str, list[dict], int, str | None]], resamples: int = 2000) -> str:
    """Each prior row's factor over its baseline (solved with the prior / solved without) at every budget all rows
    ran, with a 95 % bootstrap interval over the problems all rows ran (resampled in pairs, seed 0), beside the
    paper's factor and whether the interval holds it; "" if no prior row has its baseline."""
    by_label = {label: {r["problem_seed"]: r for r in rows} for label, rows, _, _ in groups}
    seeds = sorted(set.intersection(*(set(rows) for rows in by_label.values())))  # the problems every row ran
    budgets = [b for b in BUDGETS if b <= min(budget for _, _, budget, _ in groups)]
    picks = np.random.default_rng(0).integers(0, len(seeds), size=(resamples, len(seeds)))
    width = max(30, max(len(label) for label, *_ in groups) + 2)
    lines = []
    for label, _, _, paper in groups:
        base = baseline_of(label)
        if base not in by_label or paper is None:
            continue
        ours, marks = [], []
        for b in budgets:
            top, bottom = (np.array([t[s]["reached"] is not None and t[s]["reached"] <= b for s in seeds])
                           for t in (by_label[label], by_label[base]))
            boot = top[picks].sum(1) / np.maximum(bottom[picks].sum(1), 1)
            low, high = np.percentile(boot, [2.5, 97.5])
            factor = top.sum() / max(bottom.sum(), 1)
            theirs = PAPER[paper][BUDGETS.index(b)] / PAPER[baseline_of(paper) or paper][BUDGETS.index(b)]
            ours.append(f"{factor:.2f} [{low:.1f}, {high:.1f}]")
            marks.append(f"{theirs:.2f} {'in' if low <= theirs <= high else 'OUT'}")
        lines.append(f"{label + ' / ' + base:<{2 * width}}" + "".join(f"{c:>18}" for c in ours))
        lines.append(f"{'  paper (in / OUT of the interval)':<{2 * width}}" + "".join(f"{c:>18}" for c in marks))
    if not lines:
        return ""
    head = (f"{'factor over the baseline, 95 % bootstrap interval over ' + str(len(seeds)) + ' problems':<{2 * width}}"
            + "".join(f"{b:>18,}" for b in budgets))
    return "\n".join([head, "-" * len(head), *lines])


def load_rows(path: str) -> list[dict]:
    """The rows already in ``path`` (none if it does not exist); a torn last line is skipped."""
    rows = []
    try:
        with open(path) as handle:
            for line in handle:
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError:
                    continue
    except FileNotFoundError:
        pass
    return rows


def latest(rows: list[dict]) -> list[dict]:
    """One row per (row label, problem): the last one in the file (a resumed run with a larger budget appends
    rows that supersede the earlier ones), in the order of their first appearance.

    >>> [r["reached"] for r in latest([{"row": "NRPA", "problem_seed": 0, "reached": None},
    ...                                {"row": "NRPA", "problem_seed": 1, "reached": 5},
    ...                                {"row": "NRPA", "problem_seed": 0, "reached": 7}])]
    [7, 5]
    """
    last: dict = {}
    for row in rows:
        last[(row["row"], row["problem_seed"])] = row
    return list(last.values())


def reusable(row: dict, label: str, channeling: str, budget: int, training: int | None) -> bool:
    """Whether a saved row answers the run (label, problem) at ``budget``: same settings, and either solved
    or run to at least ``budget`` playouts."""
    return (row.get("row") == label and row.get("channeling") == channeling
            and row.get("training") == training
            and (row["reached"] is not None or row["budget"] >= budget))


def run_rows(runs, instances, handle, saved: list[dict], training: int | None) -> list:
    """Each problem in turn, every row on it (so an interrupted run leaves comparable rows); rows already in
    ``saved`` are reused, not rerun (resume by (row, problem))."""
    done = {}
    for row in saved:
        for label, _method, channeling, _prior, budget, _paper, _tau, *_nrpa in runs:
            if reusable(row, label, channeling, budget, training):
                done[(label, row["problem_seed"])] = row
    by_label: dict[str, list[dict]] = {label: [] for label, *_ in runs}
    cpu = {label: 0.0 for label, *_ in runs}
    for seed, instance in instances:
        for label, method, channeling, prior, budget, _paper, tau, *settings in runs:
            row = done.get((label, seed))
            if row is None:
                start = time.process_time()
                row = run_one(instance, seed, method, budget, channeling, prior, tau, *settings)
                row["row"] = label
                row["training"] = training
                handle.write(json.dumps(row) + "\n")
                handle.flush()
                cpu[label] += time.process_time() - start
            by_label[label].append(row)
        if (seed + 1) % 10 == 0 or seed == instances[-1][0]:
            print(f"problem {seed}: " + ", ".join(f"{label} {sum(r['reached'] is not None for r in rows)}"
                                                  for label, rows in by_label.items()), flush=True)
    groups = []
    for label, _method, _channeling, _prior, budget, paper, *_settings in runs:
        rows = by_label[label]
        solved = sum(r["reached"] is not None and r["reached"] <= budget for r in rows)
        print(f"{label}: {solved}/{len(rows)} solved within {budget} playouts, {cpu[label]:.1f} s CPU run now",
              flush=True)
        groups.append((label, rows, budget, paper))
    return groups


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calibrate", action="store_true", help="only uniform Sampling per channeling strength")
    parser.add_argument("--ablation", action="store_true",
                        help="the prior rows at each of --temperatures, on validation problems")
    parser.add_argument("--temperatures", default="1,2,4,8", help="tau values of --ablation (comma-separated)")
    parser.add_argument("--nrpa-settings", default="",
                        help="extra NRPA and GNRPA rows (of the table, or of --ablation at each tau): LEVEL/N/ALPHA, "
                             "comma-separated (e.g. 1/100/1,3/100/0.5)")
    parser.add_argument("--channeling", default=None,
                        help=f"strength(s), comma-separated with --calibrate (default {CALIBRATED}; "
                             f"known: {', '.join(CHANNELING)})")
    parser.add_argument("--training", type=int, default=10_000, help="generated problems to learn the prior from")
    parser.add_argument("--problems", type=int, default=100,
                        help=f"test problems (seeds 0..problems-1; with --ablation, {VALIDATION_SEED}..)")
    parser.add_argument("--budget", type=int, default=16384, help="playouts per run")
    parser.add_argument("--fresh", action="store_true",
                        help="start over (default: resume, reusing the rows already in OUT.jsonl)")
    parser.add_argument("--out", default=None,
                        help="OUT.jsonl and OUT.txt (default benchmarks/results/gnrpa_latin_square"
                             "[_calibration|_ablation])")
    args = parser.parse_args(argv)
    strengths = (args.channeling or CALIBRATED).split(",")
    for name in strengths:
        if name not in CHANNELING:
            parser.error(f"unknown channeling {name!r}")
    settings = []
    for spec in (x for x in args.nrpa_settings.split(",") if x):
        try:
            level, per_level, alpha = spec.split("/")
            settings.append((int(level), int(per_level), float(alpha)))
        except ValueError:
            parser.error(f"--nrpa-settings: {spec!r} is not LEVEL/N/ALPHA")
    if args.calibrate and args.ablation:
        parser.error("--calibrate and --ablation are two different runs")
    if not args.calibrate and len(strengths) != 1:
        parser.error("the table and the ablation run one channeling strength")
    kind = "_calibration" if args.calibrate else "_ablation" if args.ablation else ""
    out = args.out or f"benchmarks/results/gnrpa_latin_square{kind}"
    start_cpu, start_wall = time.process_time(), time.perf_counter()
    load = os.getloadavg()[0]
    first = VALIDATION_SEED if args.ablation else 0
    instances = [(s, generate(20, blanks=0.42, seed=s)) for s in range(first, first + args.problems)]
    seeds = f"{'validation' if args.ablation else 'test'} seeds {first}..{first + args.problems - 1}"

    saved = [] if args.fresh else load_rows(out + ".jsonl")
    if saved:
        print(f"resuming: {len(saved)} rows in {out}.jsonl", flush=True)
    with open(out + ".jsonl", "w" if args.fresh else "a") as handle:
        if not args.fresh and handle.tell() > 0:
            with open(out + ".jsonl", "rb") as old:
                old.seek(-1, os.SEEK_END)
                if old.read(1) != b"\n":
                    handle.write("\n")  # an interrupted write left a torn line: the next row starts on its own
        if args.calibrate:
            runs = [(f"Sampling, channeling {name}", "sampling", name, None, args.budget, "Sampling", TEMPERATURE)
                    for name in strengths]
            header = "Calibration: uniform Sampling per channeling strength"
            notes = []
        else:
            channeling = strengths[0]
            cpu = time.process_time()
            prior = learn_prior(training_instances(args.training), channeling=channeling)
            learned = time.process_time() - cpu
            print(f"Dual prior from {args.training} problems: {prior!r}, {learned:.1f} s CPU", flush=True)
            runs = [("Sampling", "sampling", channeling, None, args.budget, "Sampling", TEMPERATURE),
                    ("NRPA", "nrpa", channeling, None, args.budget, "NRPA", TEMPERATURE)]
            if args.ablation:
                taus = [float(t) for t in args.temperatures.split(",") if t]
                for setting in settings:
                    runs.append((f"NRPA level {setting[0]}, N {setting[1]}, alpha {setting[2]:g}", "nrpa",
                                 channeling, None, args.budget, "NRPA", TEMPERATURE, setting))
                runs += [(f"Sampling Dual prior, tau {t:g}", "sampling", channeling, prior, args.budget,
                          "Sampling Dual prior", t) for t in taus]
                runs += [(f"GNRPA Dual prior, tau {t:g}", "gnrpa", channeling, prior, args.budget,
                          "GNRPA Dual prior", t) for t in taus]
                runs += [(f"GNRPA Dual prior, tau {t:g}, level {setting[0]}, N {setting[1]}, alpha {setting[2]:g}",
                          "gnrpa", channeling, prior, args.budget, "GNRPA Dual prior", t, setting)
                         for setting in settings for t in taus]
                header = (f"Ablation on validation problems: LSC order 20, 42 % blank, channeling {channeling}, "
                          f"level 3 / N = 100, Dual prior from {args.training} generated problems, tau varied")
            else:
                runs.insert(1, ("Sampling Dual prior", "sampling", channeling, prior, args.budget,
                                "Sampling Dual prior", TEMPERATURE))
                runs.append(("GNRPA Dual prior", "gnrpa", channeling, prior, args.budget, "GNRPA Dual prior",
                             TEMPERATURE))
                for setting in settings:  # other NRPA settings, chosen on the validation problems (--ablation)
                    name = f"level {setting[0]}, N {setting[1]}, alpha {setting[2]:g}"
                    runs.append((f"NRPA {name}", "nrpa", channeling, None, args.budget, "NRPA", TEMPERATURE,
                                 setting))
                    runs.append((f"GNRPA Dual prior, {name}", "gnrpa", channeling, prior, args.budget,
                                 "GNRPA Dual prior", TEMPERATURE, setting))
                header = (f"LSC order 20, 42 % blank, channeling {channeling}, tau = {TEMPERATURE:g}, "
                          f"level 3 / N = 100, Dual prior from {args.training} generated problems")
            notes = [f"Dual prior: {len(prior)} codes seen, {sum(prior.count.values())} solution moves, "
                     f"learned in {learned:.1f} s CPU"]
        groups = run_rows(runs, instances, handle, saved, None if args.calibrate else args.training)

    factors = "" if args.calibrate or args.ablation else factor_table(groups)
    lines = [f"{header}: problems solved within b playouts ({seeds})", "",
             format_table(groups), "", *([factors, ""] if factors else []), *notes,
             f"{time.process_time() - start_cpu:.0f} s CPU, {time.perf_counter() - start_wall:.0f} s wall, "
             f"load average at the start {load:.1f} on {os.cpu_count()} cores"]
    text = "\n".join(lines)
    print(text)
    with open(out + ".txt", "w") as handle:
        handle.write(text + "\n")


if __name__ == "__main__":
    main()
