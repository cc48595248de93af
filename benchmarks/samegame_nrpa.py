"""SameGame's standardized 20-position set: NRPA beside SP-MCTS (and NMCS) at the same CPU time.

Every method gets the same budget of CPU seconds of this process per
position (``--seconds``, default 30; ``time.process_time``, so other jobs on
the machine do not eat into it), on the 20 positions embedded in
:func:`hornermcts.domains.samegame.standard_testset`, SameGame scoring
(``(n-2)^2``, +1000 for a cleared board, the end deduction):

``nrpa``
    :func:`hornermcts.search.nested.nrpa` on
    :class:`hornermcts.domains.samegame.SameGameByGroup` (a move coded by
    the colour and size of its group; compiled playouts): level 2, N = 100,
    alpha = 1, a fresh level-2 search whenever one ends within the budget
    (docs/domains.md B5.1 for time budgets). The best game of all searches.
``sp-mcts``
    :func:`hornermcts.search.sp_mcts` per move (the paper's better way to
    spend time, SP-MCTS(2)/(3)), manual parameters C 0.1, D 32, W 0.02,
    T 10 (the paper's choice at short time), TabuColorRandom playouts with
    epsilon 0.003, the best line kept across moves. The budget is spread
    over the moves: each move's search gets the CPU seconds left divided by
    the length of the best line of the previous search (before the first:
    of one playout), so the whole game uses the position's budget.
``nmcs``
    :func:`hornermcts.search.nested.nmcs` level 2 with TabuColorRandom
    playouts (epsilon 0.003), as Cazenave (2009) ran it; restarted if it
    ends within the budget, else stopped by it (anytime: the best game
    found so far).

Every row's score is re-checked by replaying its moves on the board
(:meth:`SameGame.score`) when it is played and again when the table is
built; a row whose replay disagrees stops the script.

Reference (Schadd et al. 2012, Table 7): SP-MCTS(3) 78,012 and Cazenave's
Nested Monte-Carlo search 77,934, both at about two *hours* per position
(SP-MCTS: "using two hours per position"); our budget is hundreds of times
smaller, so lower totals are expected.

Measured (2026-11-23, the shared 2-core machine, load 3 to 10; one run,
seed = position; ``results/samegame_nrpa.txt``), 30 CPU s per position per
method, totals over the 20 positions:

- NRPA level 2 restarted: **48,120** (11 of 20 boards cleared; 15 to 24
  level-2 searches, about 184,000 playouts per position);
- SP-MCTS per move: **61,610** (15 cleared; about 844,000 iterations);
- NMCS level 2: **64,764** (18 cleared; about 489,000 playouts; the level-2
  search ended within the budget on 2 positions, was cut on 18);
- Table 7: SP-MCTS(3) 78,012, NMCS 77,934, at about 2 hours per position.

NRPA level 3 (one search, cut by the budget) instead, on positions 1-6 only
(``--nrpa-level 3 --methods nrpa --positions 1-6 --out
benchmarks/results/samegame_nrpa_level3.jsonl``): 12,718 against level 2's
11,616 on the same six, higher on 4 of 6; one seed, six positions, so not
enough to overrule docs/domains.md B5.1, and both stay far below SP-MCTS (16,952
there).

NRPA is below SP-MCTS on 17 of 20 positions (-13,490 in all) and below NMCS
on all 20: with moves coded only by colour and size, the policy cannot tell
apart two groups of one colour and size, and it starts from uniform moves
where SP-MCTS and NMCS play TabuColorRandom. NMCS is above SP-MCTS on 14 of
20 (+3,154). At 240 times less time, our SP-MCTS reaches 79 % of SP-MCTS(3)
and our NMCS 83 % of Cazenave's total.

Raw rows go to ``benchmarks/results/samegame_nrpa.jsonl`` (a header line
with the settings, then one JSON row per method and position, written as
each finishes: an interrupted run resumes where it stopped; other settings
need another ``--out``); the table to ``benchmarks/results/samegame_nrpa.txt``.

Usage::

    nice -n 10 python benchmarks/samegame_nrpa.py                      # 20 positions x 3 methods x 30 CPU s
    python benchmarks/samegame_nrpa.py --seconds 2 --positions 1-3 --out /tmp/try.jsonl
    python benchmarks/samegame_nrpa.py --table-only                    # rebuild the table from the jsonl
    python benchmarks/samegame_nrpa.py --speed                         # playouts per CPU second

Importable without side effects (the tests use :func:`check_row`).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path
from typing import Any

import numpy as np

from hornermcts.domains.samegame import SameGame, SameGameByGroup, format_moves, parse_moves, standard_testset
from hornermcts.search import per_move_search, sp_mcts
from hornermcts.search.nested import nmcs, nrpa
from hornermcts.search.sp_mcts import MANUAL

__all__ = ["TABLE7_NMCS", "TABLE7_SPMCTS3", "METHODS", "BudgetSplit", "play", "check_row", "table", "speed",
           "main"]

RESULTS = Path(__file__).resolve().parent / "results"

#: Schadd et al. 2012, Table 7: Cazenave's Nested Monte-Carlo search and SP-MCTS(3), per position.
TABLE7_NMCS = [3121, 3813, 3085, 3697, 4055, 4459, 2949, 3999, 4695, 3223,
               3147, 3201, 3197, 2799, 3677, 4979, 4919, 5201, 4883, 4835]
TABLE7_SPMCTS3 = [2919, 3797, 3243, 3687, 4067, 4269, 2949, 4043, 4769, 3245,
                  3259, 3245, 3211, 2937, 3343, 5117, 4959, 5151, 4803, 4999]
assert sum(TABLE7_NMCS) == 77_934 and sum(TABLE7_SPMCTS3) == 78_012  # the table's sums

METHODS = ("nrpa", "sp-mcts", "nmcs")
EPSILON = 0.003  # TabuColorRandom's epsilon-greedy (Schadd et al., sec. 6)


def settings(args: argparse.Namespace) -> dict:
    """What the rows depend on: a resumed run must have the same (``--methods`` and ``--positions`` may differ)."""
    return {"seconds_cpu": args.seconds,
            "nrpa": {"level": args.nrpa_level, "per_level": args.per_level, "alpha": 1.0,
                     "code": "(colour, group size)"},
            "sp-mcts": dict(MANUAL, playout="tabu_color", epsilon=EPSILON, per_move=True, keep_best=True,
                            split="CPU left / length of the previous search's best line"),
            "nmcs": {"level": args.nmcs_level, "playout": "tabu_color", "epsilon": EPSILON},
            "scoring": "samegame, bonus 1000, end deduction"}


class BudgetSplit:
    """SP-MCTS per move within ``seconds`` CPU seconds for the whole game (a ``search`` for per_move_search).

    Each move's search gets the CPU seconds left divided by the number of
    moves the previous search's best line still had after its first move
    (before the first search: ``moves_left``), at least ``floor`` seconds.
    """

    def __init__(self, seconds: float, moves_left: int, *, floor: float = 0.001) -> None:
        self.deadline = time.process_time() + seconds
        self.moves_left = max(int(moves_left), 1)
        self.floor = floor

    def __call__(self, problem: Any, *, iterations: Any = None, time_limit: Any = None, **options: Any) -> Any:
        left = self.deadline - time.process_time()
        share = max(left / self.moves_left, self.floor)
        result = sp_mcts(problem, **MANUAL, time_limit=share, clock="cpu", **options)
        self.moves_left = max(len(result.best_moves) - 1, 1)
        return result


def play(method: str, board: Any, seconds: float, *, seed: int, nrpa_level: int = 2, per_level: int = 100,
         nmcs_level: int = 2) -> dict:
    """One game of ``method`` on ``board`` within ``seconds`` CPU seconds: a row (moves checked by replay)."""
    game = SameGame(board, playout="tabu_color", epsilon=EPSILON)
    wall, cpu = time.perf_counter(), time.process_time()
    extra: dict = {}
    if method == "nrpa":
        result = nrpa(SameGameByGroup(game), level=nrpa_level, per_level=per_level, time_limit=seconds,
                      clock="cpu", seed=seed, progress=None)
        extra = {"searches": result.searches, "history": [list(h) for h in result.history]}
    elif method == "nmcs":
        result = nmcs(game, level=nmcs_level, time_limit=seconds, clock="cpu", seed=seed, progress=None)
        extra = {"searches": result.searches, "history": [list(h) for h in result.history]}
    elif method == "sp-mcts":
        _, first = game.playout(game.root(), np.random.default_rng(seed))  # its length: the first estimate
        split = BudgetSplit(seconds, len(first))
        result = per_move_search(game, search=split, time_limit=seconds, keep_best=True, seed=seed, progress=None)
        extra = {"searched_moves": len(result.searches)}
    else:
        raise ValueError(f"unknown method {method!r}: expected one of {', '.join(METHODS)}")
    cpu = time.process_time() - cpu
    wall = time.perf_counter() - wall
    score = float(result.best_value)
    if game.score(result.best_moves) != score:
        raise AssertionError(f"{method}: reported {score:g}, the replay scores {game.score(result.best_moves):g}")
    return {"method": method, "score": score, "moves": format_moves(result.best_moves),
            "tiles_left": game.tiles_left(result.best_state), "cpu": round(cpu, 3), "wall": round(wall, 3),
            "iterations": result.iterations, "seed": seed, **extra}


def check_row(row: dict, board: Any) -> float:
    """Replay ``row["moves"]`` on ``board``; return the score, or raise ValueError if it is not ``row["score"]``."""
    game = SameGame(board)
    replayed = game.score(parse_moves(row["moves"]))
    if replayed != row["score"]:
        raise ValueError(f"position {row.get('position')}, {row.get('method')}: the row says {row['score']:g}, "
                         f"replaying its {len(parse_moves(row['moves']))} moves scores {replayed:g}")
    return replayed


def _load(path: Path, header: dict) -> list[dict]:
    """The rows already in ``path`` (written under the same settings), or [] for a new file."""
    if not path.exists():
        return []
    with open(path) as handle:
        lines = [json.loads(line) for line in handle if line.strip()]
    if not lines or lines[0].get("header") != header:
        raise SystemExit(f"{path} holds another run (its settings differ): use another --out")
    return lines[1:]


def table(rows: list[dict], header: dict) -> str:
    """The per-position scores and totals beside Table 7, every score re-checked by replay.

    Each method's total is over the positions it has played, beside the
    papers' totals over the same positions; the comparisons between two
    methods are over the positions both have played.
    """
    boards = standard_testset()
    scores: dict = {}
    for row in rows:
        check_row(row, boards[row["position"] - 1])
        scores[(row["method"], row["position"])] = row
    methods = [m for m in METHODS if any(m == method for method, _ in scores)]
    positions = sorted({p for _, p in scores})
    budget = header["seconds_cpu"]
    lines = [
        f"SameGame standardized test set: NRPA beside SP-MCTS and NMCS at the same budget, {budget:g} CPU s "
        f"per position per method",
        f"(CPU seconds of the search process, time.process_time; {header.get('machine', '')}).",
        f"NRPA level {header['nrpa']['level']} (restarted if it ends within the budget), N "
        f"{header['nrpa']['per_level']}, alpha 1, code (colour, group size); SP-MCTS per move, C 0.1 D 32 W 0.02 "
        f"T 10, TabuColorRandom eps {EPSILON}, budget split over "
        f"the moves; NMCS level {header['nmcs']['level']}, TabuColorRandom playouts, restarted or cut by the budget.",
        "Paper columns: Schadd et al. 2012, Table 7, about 2 HOURS per position (NMCS: Cazenave 2009).",
        "Every score below was re-checked by replaying its moves on the board.",
        "",
        f"{'#':>3} " + " ".join(f"{m:>9}" for m in methods) + f" {'paper NMCS':>11} {'SP-MCTS(3)':>11}",
    ]
    for p in positions:
        cells = [f"{scores[(m, p)]['score']:>9,.0f}" if (m, p) in scores else f"{'-':>9}" for m in methods]
        lines.append(f"{p:>3} " + " ".join(cells) + f" {TABLE7_NMCS[p - 1]:>11,} {TABLE7_SPMCTS3[p - 1]:>11,}")
    if len(positions) == 20 and all((m, p) in scores for m in methods for p in positions):
        sums = [sum(scores[(m, p)]["score"] for p in positions) for m in methods]
        lines.append(f"{'sum':>3} " + " ".join(f"{s:>9,.0f}" for s in sums)
                     + f" {sum(TABLE7_NMCS):>11,} {sum(TABLE7_SPMCTS3):>11,}")
    lines.append("")
    for m in methods:
        mine = [scores[(m, p)] for p in positions if (m, p) in scores]
        where = [p for p in positions if (m, p) in scores]
        cleared = sum(r["tiles_left"] == 0 for r in mine)
        cpu = sum(r["cpu"] for r in mine) / len(mine)
        work = sum(r["iterations"] for r in mine) / len(mine)
        unit = "iterations" if m == "sp-mcts" else "playouts"
        lines.append(f"{m}: total {sum(r['score'] for r in mine):,.0f} over {len(mine)} positions (papers on the "
                     f"same: NMCS {sum(TABLE7_NMCS[p - 1] for p in where):,}, SP-MCTS(3) "
                     f"{sum(TABLE7_SPMCTS3[p - 1] for p in where):,}); {cleared}/{len(mine)} boards cleared; "
                     f"{cpu:.1f} CPU s and {work:,.0f} {unit} per position on average")
    for i, a in enumerate(methods):
        for b in methods[i + 1:]:
            common = [p for p in positions if (a, p) in scores and (b, p) in scores]
            if not common:
                continue
            wins = sum(scores[(a, p)]["score"] > scores[(b, p)]["score"] for p in common)
            losses = sum(scores[(a, p)]["score"] < scores[(b, p)]["score"] for p in common)
            diff = sum(scores[(a, p)]["score"] - scores[(b, p)]["score"] for p in common)
            lines.append(f"{a} - {b}: {diff:+,.0f} points over {len(common)} common positions; {a} higher on "
                         f"{wins}, lower on {losses}, equal on {len(common) - wins - losses}")
    return "\n".join(lines)


def speed(seconds: float = 3.0, position: int = 1) -> str:
    """Playouts per CPU second on a standard position: NRPA's coded and generic paths, NMCS, the bare kernels."""
    from hornermcts.domains.samegame.rates import playout_points
    from hornermcts.search.policy import softmax_playout

    game = SameGame(standard_testset()[position - 1], playout="tabu_color", epsilon=EPSILON)
    coded = SameGameByGroup(game)
    root = coded.root()
    weights = np.zeros(coded.code_count)

    def bare(count: int) -> int:
        rng = np.random.default_rng(0)
        for _ in range(count):
            coded.reward(coded.coded_playout(root, weights, None, rng)[0])
        return count

    def generic(count: int) -> int:
        rng = np.random.default_rng(0)
        for _ in range(count):
            coded.reward(softmax_playout(coded, {}, rng, state=root)[0])
        return count

    runs = [
        ("coded softmax playout (Numba) + reward", bare),
        ("nrpa level 2, coded (the benchmark's)", lambda k: nrpa(coded, level=2, playouts=k, seed=0,
                                                                 progress=None).iterations),
        ("nrpa level 1, generic Python playouts", lambda k: nrpa(coded, level=1, playouts=k, coded=False, seed=0,
                                                                 progress=None).iterations),
        ("softmax_playout, generic Python", generic),
        ("nmcs level 2, TabuColorRandom kernel", lambda k: nmcs(game, level=2, playouts=k, seed=0,
                                                                progress=None).iterations),
    ]
    lines = [f"SameGame standard position {position} (15x15, 5 colours): playouts per CPU second "
             f"(time.process_time, about {seconds:g} CPU s per row)",
             f"{'search':<42} {'playouts/CPU s':>15} {'playouts':>9}"]
    for label, run in runs:
        run(20)  # compile or load the kernels
        cpu = time.process_time()
        run(200)
        probe = 200 / (time.process_time() - cpu)
        count = max(200, int(probe * seconds))
        cpu = time.process_time()
        done = run(count)
        lines.append(f"{label:<42} {done / (time.process_time() - cpu):>15,.0f} {done:>9,}")
    playout_points(game, 10, seed=1)
    cpu = time.process_time()
    playout_points(game, 30_000, seed=2)
    rate = 30_000 / (time.process_time() - cpu)
    lines.append(f"{'TabuColorRandom kernel loop, no Python':<42} {rate:>15,.0f} {30_000:>9,}")
    lines.append(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    return "\n".join(lines)


def _positions(spec: str) -> list[int]:
    chosen: list[int] = []
    for part in spec.split(","):
        lo, _, hi = part.strip().partition("-")
        a, b = int(lo), int(hi or lo)
        if not 1 <= a <= b <= 20:
            raise SystemExit(f"--positions {part!r}: positions are 1..20")
        chosen.extend(range(a, b + 1))
    return chosen


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="CPU seconds per position per method")
    parser.add_argument("--methods", default=",".join(METHODS), help="comma-separated, of " + ", ".join(METHODS))
    parser.add_argument("--positions", default="1-20", help="which positions, e.g. 1-5,9 (default all 20)")
    parser.add_argument("--nrpa-level", type=int, default=2)
    parser.add_argument("--per-level", type=int, default=100, help="NRPA's N")
    parser.add_argument("--nmcs-level", type=int, default=2)
    parser.add_argument("--out", default=str(RESULTS / "samegame_nrpa.jsonl"), help="raw rows (JSON lines)")
    parser.add_argument("--table", default=None, help="table file (default: --out with .txt)")
    parser.add_argument("--table-only", action="store_true", help="rebuild the table from --out, play nothing")
    parser.add_argument("--speed", action="store_true",
                        help="only measure playouts per CPU second (to results/samegame_nrpa_speed.txt)")
    args = parser.parse_args(argv)
    if args.speed:
        text = speed()
        print(text)
        (RESULTS / "samegame_nrpa_speed.txt").write_text(text + "\n")
        return
    args.methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    unknown = [m for m in args.methods if m not in METHODS]
    if unknown:
        raise SystemExit(f"unknown method(s) {', '.join(unknown)}: expected {', '.join(METHODS)}")
    out = Path(args.out)
    table_path = Path(args.table) if args.table else out.with_suffix(".txt")
    header = settings(args)
    rows = _load(out, header)
    if args.table_only:
        if not rows:
            raise SystemExit(f"{out}: no rows")
        machine = next((r for r in rows if "machine" in r), {}).get("machine", "")
        text = table(rows, dict(header, machine=machine))
        print(text)
        table_path.write_text(text + "\n")
        return
    if not out.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
        with open(out, "w") as handle:
            handle.write(json.dumps({"header": header}) + "\n")
    done = {(r["method"], r["position"]) for r in rows}
    if done:
        print(f"resuming: {len(done)} rows already in {out}", flush=True)
    boards = standard_testset()
    machine = f"{platform.machine()}, {os.cpu_count()} cores, {platform.python_implementation()} " \
              f"{platform.python_version()}"
    from hornermcts.domains.samegame import random_board

    for method in args.methods:  # compile or load the kernels outside the timed games
        play(method, random_board(6, 6, 3, seed=0), 0.05, seed=0, nrpa_level=1, per_level=10, nmcs_level=1)
    for p in _positions(args.positions):
        for method in args.methods:
            if (method, p) in done:
                continue
            row = play(method, boards[p - 1], args.seconds, seed=p, nrpa_level=args.nrpa_level,
                       per_level=args.per_level, nmcs_level=args.nmcs_level)
            row = {"position": p, **row, "load": round(os.getloadavg()[0], 2), "machine": machine}
            with open(out, "a") as handle:
                handle.write(json.dumps(row) + "\n")
            rows.append(row)
            print(f"{p:2d} {method:8s} {row['score']:7,.0f} ({row['tiles_left']} tiles left, {row['cpu']:.1f} CPU s, "
                  f"{row['iterations']:,} {'iterations' if method == 'sp-mcts' else 'playouts'}; paper NMCS "
                  f"{TABLE7_NMCS[p - 1]:,}, SP-MCTS(3) {TABLE7_SPMCTS3[p - 1]:,})", flush=True)
    text = table(rows, dict(header, machine=machine))
    print(text)
    table_path.write_text(text + "\n")


if __name__ == "__main__":
    main()
