"""A fingerprint of seeded behaviour: what every public path returns, as text.

Run it before and after a change that must not alter behaviour (a refactor)
and compare the two outputs: they must be identical line for line.  Nothing
here is timed.  Each line is ``what: value`` where the value is a count, an
order, a best score or the SHA-256 (first 16 hex digits) of an emitted text.

    python benchmarks/fingerprint.py > before.txt
    ...refactor...
    python benchmarks/fingerprint.py > after.txt && diff before.txt after.txt
"""
from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import numpy as np
import sympy

import hornermcts
from hornermcts import codegen
from hornermcts.research import families
from hornermcts.search import beam_mcts, cem, mcts, per_move_search, sp_mcts
from hornermcts.search.annealing import anneal

ROOT = Path(__file__).resolve().parent.parent


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def line(what: str, value) -> None:
    print(f"{what}: {value}", flush=True)


def optimized(name: str, expr, **options) -> None:
    r = hornermcts.optimize(expr, **options)
    key = f"{name} {' '.join(f'{k}={v}' for k, v in sorted(options.items()))}"
    line(f"{key} counts", (r.before.total, r.cse.total, r.after.total, r.form))
    line(f"{key} order", ",".join(map(str, r.order)))
    line(f"{key} history", r.history)
    line(f"{key} C", digest(codegen.to_c(r)))
    line(f"{key} Python", digest(codegen.to_python(r)))
    line(f"{key} NumPy dd", digest(codegen.to_numpy(r, precision="compensated")))
    line(f"{key} Fortran", digest(codegen.to_fortran(r)))
    line(f"{key} assignments", digest(str(r.assignments())))
    g = r.graph()
    line(f"{key} graph", (g.number_of_nodes(), g.number_of_edges()))


class Bits:
    """Choose ten bits; reward: the binary number, deceptive at all zeros."""

    def root(self):
        return ()

    def moves(self, s):
        return (0, 1) if len(s) < 10 else ()

    def apply(self, s, m):
        return s + (m,)

    def reward(self, s):
        return 2000.0 if sum(s) == 0 else float(int("".join(map(str, s)), 2))


def search_core() -> None:
    for schedule in ("constant", "linear", "exponential"):
        r = mcts(Bits(), iterations=300, cp=200.0, schedule=schedule, seed=3, repeats=2)
        line(f"mcts {schedule}", (r.best_moves, r.best_reward, r.iterations, r.node_count, r.history))
        line(f"mcts {schedule} tree", digest(r.to_str(max_depth=3)))
    r = beam_mcts(Bits(), iterations=400, simulation_limit=50, beam_width=3, cp=200.0, seed=1, progress=None)
    line("beam_mcts", (r.best_moves, r.best_reward, r.iterations, r.history))
    r = per_move_search(Bits(), iterations=40, cp=200.0, seed=2, progress=None)
    line("per_move_search", (r.best_moves, r.best_reward))
    r = sp_mcts(Bits(), iterations=200, seed=4, progress=None)
    line("sp_mcts", (r.best_moves, r.best_reward))
    target = (3, 1, 4, 0, 2, 6, 5)
    a = anneal(lambda p: sum(abs(x - y) for x, y in zip(p, target)), tuple(range(7)),
               iterations=400, t_start=2.0, t_end=0.05, restarts=2, seed=5)
    line("anneal", (a.best_moves, a.best_value, a.iterations, a.accepted, a.history))
    c = cem(lambda p, rng: -(p["x"] - 1.5) ** 2 - (p["n"] - 3) ** 2 + 0.01 * rng.standard_normal(),
            {"x": (-5.0, 5.0), "n": (0, 10)}, integer=("n",), iterations=6, population=20, elite=5, seed=6)
    line("cem", (sorted(c.params.items()), sorted(c.best_moves.items()), round(c.best_value, 9), c.evaluations))


def samegame() -> None:
    from hornermcts.domains.samegame import SameGame, random_board, standard_testset

    board = random_board(8, 8, 3, seed=7)
    line("samegame board", digest(str(board.tolist())))
    for scoring in ("samegame", "clickomania", "bubblebreaker"):
        game = SameGame(board, scoring=scoring)
        r = mcts(game, iterations=300, cp=0.5 if scoring == "clickomania" else 5.0, seed=8)
        line(f"samegame {scoring} mcts", (r.best_reward, r.best_moves))
        state, moves = game.playout(game.root(), np.random.default_rng(9))
        line(f"samegame {scoring} playout", (game.reward(state), moves))
    boards = standard_testset()
    line("samegame standard set", (len(boards), digest(str([b.tolist() for b in boards]))))


def main() -> None:
    x, y, z, w = sympy.symbols("x y z w")
    small = x**3 * y**2 + x**2 * y + x**3 * z + 3 * x * y * z - 2 * w * x + w**2 * z
    for preset in ("fast", "greedy", "mcts", "anneal", "default"):
        optimized("small", small, preset=preset, iterations=200, seed=0)
    hep = families.hep_sigma()
    for preset in ("fast", "mcts", "default"):
        for seed in (0, 1):
            optimized("hep", hep, preset=preset, iterations=300, seed=seed)
    optimized("hep", hep, preset="mcts", iterations=200, seed=0, direction="both", repeats=2)
    optimized("hep", hep, preset="mcts", iterations=200, seed=0, greedy=False, schedule="uct", cp=0.5)
    optimized("det5", families.determinant(5), iterations=300, seed=0)
    optimized("res5,4", families.resultant(5, 4), iterations=200, seed=2)
    optimized("structured", families.structured_random(12, 400, seed=1), iterations=200, seed=0)
    jac = sympy.Matrix([small, (x + y) ** 3 * z]).jacobian([x, y, z])
    optimized("jacobian", list(jac), iterations=200, seed=0)
    pieces = sympy.sin(x) * y**2 + sympy.sin(x) * y * z + sympy.cos(w) * z**2 + 1 / x
    optimized("pieces", pieces, iterations=100, seed=0)
    optimized("factored", (x + y + z) ** 6 - 1, iterations=100, seed=0)
    reps, exprs = hornermcts.cse([small, small * x + y])
    line("cse", digest(str((reps, exprs))))
    line("simplify", digest(str(hornermcts.simplify(small))))
    text = (ROOT / "expressions" / "hep_sigma.txt").read_text()
    p = hornermcts.from_text(text)
    line("from_text hep", (p.n_terms, p.n_vars, digest(str(p.to_sympy()))))
    search_core()
    samegame()
    from hornermcts.research.experiments import cp_sweep

    table = cp_sweep(hep, cps=[0.3, 1.0], iterations=100, seeds=2, backend="serial", progress=None)
    line("cp_sweep", digest(str(sorted((tuple(sorted((k, v) for k, v in r.items() if k not in ("seconds", "elapsed")))
                                        for r in table.rows), key=str))))


if __name__ == "__main__":
    sys.exit(main())
