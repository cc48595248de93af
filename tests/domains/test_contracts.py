"""Every domain keeps the search protocol: check_problem's random simulations on each."""
from __future__ import annotations

import pytest
import sympy

from hornermcts.order.problem import HornerOrderProblem
from hornermcts.domains.samegame import PLAYOUTS, SCORINGS, SameGame, random_board
from hornermcts.research.families import random_polynomial
from hornermcts.parse import from_sympy
from hornermcts.search import RootedProblem, check_problem


@pytest.mark.parametrize("direction", ["forward", "backward"])
def test_horner_orders(direction):
    check_problem(HornerOrderProblem(random_polynomial(6, 60, max_degree=4, seed=1), direction=direction),
                  simulations=30, seed=0)


def test_horner_orders_with_fixed_and_absent_columns():
    x, y, z, w, m = sympy.symbols("x y z w m")
    poly = from_sympy(m * (x**2 * y + x * z**3 + y * z) + 0 * w, symbols=[m, x, y, z, w])
    problem = HornerOrderProblem(poly, fixed=[0])
    check_problem(problem, simulations=20, seed=1)
    assert problem.absent == (4,) and problem.scheme(problem.apply(problem.root(), 1))[:2] == (0, 1)


@pytest.mark.parametrize("scoring", SCORINGS)
@pytest.mark.parametrize("policy", PLAYOUTS)
def test_samegame_family(scoring, policy):
    game = SameGame(random_board(6, 6, 3, seed=4), scoring=scoring, playout=policy)
    check_problem(game, simulations=15, seed=2)


def test_a_samegame_position_as_root():
    game = SameGame(random_board(5, 5, 3, seed=9))
    start = game.apply(game.root(), game.moves(game.root())[0])
    check_problem(RootedProblem(game, start), simulations=10, seed=3)
