"""How fast SameGame playouts run, the inner loop of every search.

The playouts run in one compiled loop (no Python per playout, no states or
move lists kept), from a game's start with its playout policy: the *kernel*
rate of ``benchmarks/samegame_playouts.py``.
"""

from __future__ import annotations

from time import perf_counter

from . import kernels
from .game import PLAYOUTS, SCORINGS, SameGame

__all__ = ["playout_points", "random_playout_rate"]


def playout_points(game: SameGame, count: int, *, seed: int = 0) -> int:
    """The summed move points of ``count`` playouts from ``game``'s start.

    The points of the moves only (no end-of-game bonus or penalty), with
    ``game``'s playout policy and epsilon, in one compiled loop; the same
    ``seed`` gives the same total.

    Examples
    --------
    >>> from hornermcts.domains.samegame import random_board
    >>> game = SameGame(random_board(5, 5, 3, seed=1))
    >>> playout_points(game, 10, seed=1) == playout_points(game, 10, seed=1) > 0
    True
    """
    return kernels.playout_batch(
        game.root().cells,
        game.width,
        game.height,
        game.n_colours,
        SCORINGS[game.scoring],
        PLAYOUTS[game.playout_policy],
        game.epsilon,
        seed,
        count,
    )


def random_playout_rate(game: SameGame, *, count: int = 10_000, seed: int = 0) -> tuple[float, float]:
    """Playouts per second from ``game``'s start, and their mean points.

    Runs ``count`` playouts of ``game``'s policy in one compiled loop (no
    Python per playout), after a warm-up that compiles the kernels.

    Examples
    --------
    >>> from hornermcts.domains.samegame import random_board
    >>> rate, mean = random_playout_rate(SameGame(random_board(seed=0)), count=100)
    >>> rate > 0 and mean > 0
    True
    """
    playout_points(game, 1, seed=1)
    start = perf_counter()
    total = playout_points(game, count, seed=seed + 1)
    elapsed = perf_counter() - start
    return count / elapsed, total / count
