"""Latin square completion as a search problem: the CSP playout of Cazenave (2024, sec. 4.1).

A state is the grid as ``bytes`` (``n * n`` cells, row-major, 0 blank): it
is immutable, hashable and cheap to compare.  From a state the search
assigns a value to the empty cell of smallest domain (forward checking,
MRV; the first such cell in row-major order), then channels
(:mod:`.kernels`); the legal moves are that cell's domain, as ints ``cell *
n + value - 1``.  A state is terminal when the grid is full or an empty
cell has an empty domain; its reward is ``-(empty cells)``, so a solution
scores 0 (``nrpa(..., target=0)``).

**The channeling strength is calibrated** (docs/domains.md 0.3, B5.4), and the
calibration says: none.  Uniform Sampling on generated order-20 instances
with 42 % blanks (``generate(20, seed=s)``, search seed ``search_seed(s)``;
``benchmarks/gnrpa_latin_square.py --calibrate``,
``results/gnrpa_latin_square_calibration*.txt``) solved, within 1,024 /
2,048 / 4,096 / 8,192 / 16,384 playouts:

- no channeling (FC + MRV), s = 0..99: 2 / 11 / 14 / 19 / 31 of 100
  (Table 1: 2 / 5 / 10 / 16 / 26);
- with any channeling, s = 0..9, at 1,024 / 2,048: 6 / 8 of 10 (hidden
  singles in the row and column of the move: ``"lines"``), 7 / 9 (the
  move's value in the crossing lines: ``"value"``), 8 / 8 (both), 10 / 10
  (``"lines-cascade"``), 7 / 7 (``"value-cascade"``), 10 / 10 (``"full"``,
  median 7.5 playouts): thirty times the table's rate or more.

So :data:`CALIBRATED` is ``"none"``: the playout is forward checking + MRV,
and the other strengths stay available (:data:`CHANNELING`).  Note that the
Dual prior then learns what channeling would do: a code with ``rc = 1`` or
``cc = 1`` (the value fits only this cell of its row or column) has ratio
1 (a hidden single is always the solution's move).

Codes: the NRPA policy code is the move (cell, value): ``code_count =
n**3``; the prior code is the Dual code ``rc * (n + 1) + cc``
(:func:`~hornermcts.domains.latin_square.kernels.dual_code`):
``prior_code_count = (n + 1)**2``.  :meth:`LatinSquareCompletion.coded_playout`
is the coded hook of :mod:`hornermcts.search.policy` (a Numba kernel).

Examples
--------
>>> from hornermcts.domains.latin_square import LatinSquareInstance
>>> problem = LatinSquareCompletion(LatinSquareInstance([[1, 0, 0], [0, 0, 0], [0, 0, 1]]))
>>> root = problem.root()
>>> [problem.decode(m) for m in problem.moves(root)]    # (row, column, value): cell (0, 1) takes 2 or 3
[(0, 1, 2), (0, 1, 3)]
>>> state = problem.apply(root, problem.encode(0, 1, 2))
>>> [problem.decode(m) for m in problem.moves(state)]   # (0, 2) must be 3
[(0, 2, 3)]
>>> final, moves = problem.playout(state, __import__("numpy").random.default_rng(0))
>>> problem.reward(final), problem.is_solved(final)
(0.0, True)
>>> print(problem.render(final))
1 2 3
3 1 2
2 3 1
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import OptionError
from ...search.policy import Trace
from . import kernels
from .checker import is_solution
from .instance import LatinSquareInstance, format_grid

__all__ = ["LatinSquareCompletion", "CHANNELING", "CALIBRATED"]

#: Channeling strengths by name (bit masks of :mod:`.kernels`).
CHANNELING = {
    "none": 0,
    "lines": kernels.LINES,
    "value": kernels.VALUE,
    "lines+value": kernels.LINES | kernels.VALUE,
    "lines-cascade": kernels.LINES | kernels.CASCADE,
    "value-cascade": kernels.VALUE | kernels.CASCADE,
    "full": kernels.FULL,
}
#: The strength chosen by the calibration of the module docstring.
CALIBRATED = "none"


class LatinSquareCompletion:
    """Complete a :class:`~hornermcts.domains.latin_square.LatinSquareInstance` (see the module docstring).

    Parameters
    ----------
    instance : LatinSquareInstance
    channeling : str, default :data:`CALIBRATED`
        A key of :data:`CHANNELING`.
    """

    def __init__(self, instance: LatinSquareInstance, *, channeling: str = CALIBRATED) -> None:
        if not isinstance(instance, LatinSquareInstance):
            raise OptionError(f"expected a LatinSquareInstance, got {type(instance).__name__}")
        if channeling not in CHANNELING:
            raise OptionError(f"unknown channeling {channeling!r}: expected one of {', '.join(CHANNELING)}")
        self.instance = instance
        self.order = n = instance.order
        self.channeling = channeling
        self.mode = CHANNELING[channeling]
        self.code_count = n ** 3
        self.prior_code_count = (n + 1) ** 2
        grid = instance.givens.reshape(-1).copy()
        rows, cols = kernels.line_sets(grid, n)
        kernels.root_propagate(grid, rows, cols, n, self.mode)
        self._root = grid.tobytes()
        self._stack = np.empty(n * n, np.int64)

    def __repr__(self) -> str:
        return f"LatinSquareCompletion({self.instance!r}, channeling={self.channeling!r})"

    # ---------------------------------------------------------------- the protocol
    def root(self) -> bytes:
        """The givens after the channeling of the start (:func:`~.kernels.root_propagate`)."""
        return self._root

    def _arrays(self, state: bytes) -> tuple:
        grid = np.frombuffer(state, dtype=np.int8).copy()
        rows, cols = kernels.line_sets(grid, self.order)
        return grid, rows, cols

    def moves(self, state: bytes) -> tuple:
        """The values of the MRV cell as moves ``cell * n + value - 1``; ``()`` at a terminal state."""
        n = self.order
        grid, rows, cols = self._arrays(state)
        cell, size = kernels.mrv(grid, rows, cols, n, n)
        if size == 0:
            return ()
        d = int(kernels.domain(rows, cols, n, cell // n, cell % n))
        return tuple(cell * n + v for v in range(n) if (d >> v) & 1)

    def apply(self, state: bytes, move: int) -> bytes:
        """The state after ``move`` and its channeling.

        Any assignment of a value in an empty cell's domain is accepted
        (:meth:`moves` offers those of the MRV cell); anything else is an
        OptionError.
        """
        n = self.order
        cell, value = divmod(int(move), n)
        grid, rows, cols = self._arrays(state)
        if not (0 <= cell < n * n and grid[cell] == 0
                and (int(kernels.domain(rows, cols, n, cell // n, cell % n)) >> value) & 1):
            raise OptionError(f"move {move!r} is not legal here")
        kernels.assign_and_propagate(grid, rows, cols, n, self.mode, cell, value + 1, self._stack)
        return grid.tobytes()

    def reward(self, state: bytes) -> float:
        """``-(empty cells)``: 0 for a solution."""
        return float(-state.count(0))

    def move_code(self, state: bytes, move: int) -> int:
        """The NRPA policy code: the move itself, (cell, value)."""
        return int(move)

    def prior_code(self, state: bytes, move: int) -> int:
        """The Dual code ``rc * (n + 1) + cc`` of ``move`` in ``state`` (module docstring)."""
        n = self.order
        cell, value = divmod(int(move), n)
        grid, rows, cols = self._arrays(state)
        return int(kernels.dual_code(grid, rows, cols, n, cell, value + 1))

    def coded_playout(self, state: bytes, weights: np.ndarray, bias: np.ndarray | None, rng: Any) -> tuple:
        """The coded hook: one compiled softmax playout from ``state`` -> ``(terminal state, moves, trace)``."""
        start = np.frombuffer(state, dtype=np.int8)
        table = np.zeros(1) if bias is None else bias
        grid, moves, codes, betas, starts, chosen = kernels.playout(start, self.order, self.mode, weights, table,
                                                                     bias is not None, rng)
        return grid.tobytes(), moves.tolist(), Trace(codes, betas if bias is not None else None, starts, chosen)

    def playout(self, state: bytes, rng: Any) -> tuple[bytes, list]:
        """A uniform playout (compiled) from ``state``: ``(terminal state, moves)``."""
        final, moves, _ = self.coded_playout(state, np.zeros(self.code_count), None, rng)
        return final, moves

    # ---------------------------------------------------------------- reading states
    def encode(self, row: int, column: int, value: int) -> int:
        """The move that puts ``value`` (``1..n``) at ``(row, column)`` (0-based)."""
        return (row * self.order + column) * self.order + value - 1

    def decode(self, move: int) -> tuple[int, int, int]:
        """``(row, column, value)`` of a move (row and column 0-based, value ``1..n``)."""
        cell, value = divmod(int(move), self.order)
        return cell // self.order, cell % self.order, value + 1

    def grid(self, state: bytes) -> np.ndarray:
        """The state as an ``n x n`` int8 array (0 blank)."""
        return np.frombuffer(state, dtype=np.int8).reshape(self.order, self.order).copy()

    def render(self, state: bytes) -> str:
        """The state as rows of text, ``.`` for a blank."""
        return format_grid(self.grid(state))

    def is_solved(self, state: bytes) -> bool:
        """Whether ``state`` is a full Latin square keeping the givens (by the independent checker)."""
        return is_solution(self.instance.givens, self.grid(state))

    # ---------------------------------------------------------------- Replay
    def solution_moves(self) -> list[int]:
        """The moves that play the instance's solution from the root (MRV order): what Replay replays.

        Raises
        ------
        OptionError
            If the instance has no solution.
        """
        solution = self._solution()
        state = self._root
        played: list[int] = []
        while True:
            legal = self.moves(state)
            if not legal:
                return played
            cell = legal[0] // self.order
            move = cell * self.order + int(solution[cell]) - 1
            played.append(move)
            state = self.apply(state, move)

    def replay_codes(self) -> tuple[np.ndarray, np.ndarray]:
        """Alg. 4 on the instance's solution, compiled: the Dual codes of every legal move, and of every played move.

        The same counts as :meth:`hornermcts.search.Prior.replay` with
        :meth:`solution_moves` (the tests check it).
        """
        seen, used = kernels.replay(np.frombuffer(self._root, dtype=np.int8), self._solution(), self.order, self.mode)
        if used.size and used[-1] < 0:  # pragma: no cover - a checked solution always replays
            raise RuntimeError("the solution does not replay from the root")
        return seen, used

    def _solution(self) -> np.ndarray:
        if self.instance.solution is None:
            raise OptionError("the instance has no known solution to replay")
        return self.instance.solution.reshape(-1)
