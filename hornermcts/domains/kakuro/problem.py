"""Kakuro as a search problem: the CSP playout of Cazenave (2024, sec. 4.2).

A state is the grid as ``bytes`` (``size * size`` cells, row-major, 0
blank); the root is the empty grid.  From a state the search assigns a
value to the empty cell of smallest domain (forward checking for
all-different only, MRV; the first such cell in row-major order), with no
channeling; the legal moves are that cell's domain, as ints ``cell * values
+ value - 1``.  A state is terminal when the grid is full or an empty cell
has an empty domain.  Reward: ``-(empty cells)`` if the grid is not full,
else the number of rows and columns whose sum matches the hint, so a
solution scores ``2 * size`` (20 at 10 x 10: ``nrpa(..., target=20)``).

Codes: the NRPA policy code is the move (cell, value): ``code_count = size
* size * values``.  The prior code (``code="remaining"``, the default) is
(value, rc, cc, row sum left, column sum left), the paper's code as read in
DOMAINS.md B5.5, packed by :func:`~hornermcts.domains.kakuro.kernels.prior_code`
(7,288,556 codes at 10 x 10 with values 1..11).  ``code="hints"`` is an
ablation, not the paper's text: (value, rc, cc, row hint, column hint), whose
161,051 codes follow the first kind's (``prior_code_count`` covers both, and
:meth:`Kakuro.check_prior` refuses a prior of the other kind).  Why it is
here: in a 10 x 10 square over 1..11 each line omits one value, ``66 -
hint``, so a hint says which value its line never takes; a sum left does
not (it depends on what is placed).  Measured by ``benchmarks/gnrpa_kakuro.py``
(priors from 10,000 generated problems, 100 test problems, tau = 4): with
the sums-left code, Sampling and GNRPA solve 0/100 within 1,024 playouts
(the paper: 100/100, "usually ... in 1 playout"); with the hints code,
100/100 for both, median 10 playouts, 4 solved by the first.
:meth:`Kakuro.coded_playout` is the coded hook of
:mod:`hornermcts.search.policy` (a Numba kernel).

Examples
--------
>>> from hornermcts.domains.kakuro import KakuroInstance
>>> problem = Kakuro(KakuroInstance((8, 7, 7), (7, 8, 7), 4))
>>> root = problem.root()
>>> [problem.decode(m) for m in problem.moves(root)]       # (row, column, value)
[(0, 0, 1), (0, 0, 2), (0, 0, 3), (0, 0, 4)]
>>> state = root
>>> for move in [(0, 0, 1), (0, 1, 3), (0, 2, 4), (1, 0, 4), (1, 1, 1), (1, 2, 2), (2, 0, 2), (2, 1, 4)]:
...     state = problem.apply(state, problem.encode(*move))
>>> [problem.decode(m) for m in problem.moves(state)]      # the last cell: 1 or 3 (sums are not propagated)
[(2, 2, 1), (2, 2, 3)]
>>> [problem.reward(problem.apply(state, problem.encode(2, 2, v))) for v in (1, 3)]   # lines whose sum matches
[6.0, 4.0]
>>> problem.reward(problem.apply(root, problem.encode(0, 0, 1)))   # not terminal, but 8 cells left
-8.0
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import OptionError
from ...search.policy import Trace
from . import kernels
from .checker import is_solution
from .instance import KakuroInstance

__all__ = ["Kakuro", "PRIOR_CODES"]

#: The kinds of prior code: the paper's (sums left) and the ablation (hints).
PRIOR_CODES = ("remaining", "hints")


class Kakuro:
    """Solve a :class:`~hornermcts.domains.kakuro.KakuroInstance` (see the module docstring).

    Parameters
    ----------
    instance : KakuroInstance
    code : {"remaining", "hints"}, default "remaining"
        The prior code: the paper's (sums left) or the ablation (hints).
    """

    def __init__(self, instance: KakuroInstance, *, code: str = "remaining") -> None:
        if not isinstance(instance, KakuroInstance):
            raise OptionError(f"expected a KakuroInstance, got {type(instance).__name__}")
        if code not in PRIOR_CODES:
            raise OptionError(f"unknown prior code {code!r}: expected one of {', '.join(PRIOR_CODES)}")
        self.instance = instance
        self.code = code
        self.hints = code == "hints"
        self.size = s = instance.size
        self.values = v = instance.values
        self.low, self.high = kernels.sum_range(s, v)
        first, second = kernels.code_counts(s, v)
        self.code_count = s * s * v
        self.prior_code_count = first + second
        self.prior_codes = range(first, first + second) if self.hints else range(first)
        self.row_sums = np.array(instance.row_sums, np.int64)
        self.col_sums = np.array(instance.col_sums, np.int64)
        self.target = float(2 * s)
        self._root = bytes(s * s)

    def __repr__(self) -> str:
        return f"Kakuro({self.instance!r}, code={self.code!r})"

    # ---------------------------------------------------------------- the protocol
    def root(self) -> bytes:
        """The empty grid."""
        return self._root

    def _arrays(self, state: bytes) -> tuple:
        grid = np.frombuffer(state, dtype=np.int8).copy()
        return (grid,) + tuple(kernels.line_state(grid, self.size, self.values))

    def moves(self, state: bytes) -> tuple:
        """The values of the MRV cell as moves ``cell * values + value - 1``; ``()`` at a terminal state."""
        grid, rows, cols, _, _ = self._arrays(state)
        cell, k = kernels.mrv(grid, rows, cols, self.size, self.values)
        if k == 0:
            return ()
        used = int(rows[cell // self.size] | cols[cell % self.size])
        return tuple(cell * self.values + v for v in range(self.values) if not (used >> v) & 1)

    def apply(self, state: bytes, move: int) -> bytes:
        """The state after ``move``: any value of an empty cell's domain (else OptionError)."""
        cell, value = divmod(int(move), self.values)
        grid, rows, cols, row_used, col_used = self._arrays(state)
        if not (0 <= cell < self.size ** 2 and grid[cell] == 0
                and not (int(rows[cell // self.size] | cols[cell % self.size]) >> value) & 1):
            raise OptionError(f"move {move!r} is not legal here")
        grid[cell] = value + 1
        return grid.tobytes()

    def reward(self, state: bytes) -> float:
        """``-(empty cells)`` if any, else the number of lines whose sum matches its hint."""
        empty = state.count(0)
        if empty:
            return float(-empty)
        grid = np.frombuffer(state, dtype=np.int8).reshape(self.size, self.size).astype(np.int64)
        return float((grid.sum(axis=1) == self.row_sums).sum() + (grid.sum(axis=0) == self.col_sums).sum())

    def move_code(self, state: bytes, move: int) -> int:
        """The NRPA policy code: the move itself, (cell, value)."""
        return int(move)

    def prior_code(self, state: bytes, move: int) -> int:
        """The packed (value, rc, cc, row sum left, column sum left) of ``move`` in ``state``."""
        cell, value = divmod(int(move), self.values)
        grid, rows, cols, row_used, col_used = self._arrays(state)
        return int(kernels.prior_code(grid, rows, cols, row_used, col_used, self.row_sums, self.col_sums, self.size,
                                      self.values, self.low, self.high, self.hints, cell, value + 1))

    def unpack_prior_code(self, code: int) -> tuple[int, int, int, int, int]:
        """``(value, rc, cc, row sum left, column sum left)`` of a packed prior code (hints for the ablation).

        >>> problem = Kakuro(KakuroInstance((8, 7, 7), (7, 8, 7), 4))
        >>> state = problem.apply(problem.root(), problem.encode(0, 0, 1))
        >>> problem.unpack_prior_code(problem.prior_code(state, problem.encode(0, 1, 3)))
        (3, 2, 3, 7, 8)
        >>> ablation = Kakuro(problem.instance, code="hints")
        >>> ablation.unpack_prior_code(ablation.prior_code(state, problem.encode(0, 1, 3)))
        (3, 2, 3, 8, 8)
        """
        code = int(code)
        if code not in range(self.prior_code_count):
            raise OptionError(f"{code} is not a prior code of this problem")
        first, _ = kernels.code_counts(self.size, self.values)
        smallest = self.size * (self.size + 1) // 2
        if code >= first:
            span, offset = self.high - smallest + 1, smallest
            code -= first
        else:
            span, offset = self.high - self.low + 1, self.low
        rest, col = divmod(code, span)
        rest, row = divmod(rest, span)
        rest, cc = divmod(rest, self.size + 1)
        value, rc = divmod(rest, self.size + 1)
        return value + 1, rc, cc, row + offset, col + offset

    def check_prior(self, prior: Any) -> None:
        """OptionError unless every code of ``prior`` is a prior code of this problem's kind (``code=``)."""
        bad = [c for c in prior.nb if not (isinstance(c, int) and c in self.prior_codes)]
        if bad:
            raise OptionError(f"the prior has {len(bad)} codes that are not {self.code!r} prior codes of a "
                              f"{self.size} x {self.size} Kakuro over 1..{self.values} (first: {bad[0]!r}); "
                              "learn it with the same size, values and code")

    def coded_playout(self, state: bytes, weights: np.ndarray, bias: np.ndarray | None, rng: Any) -> tuple:
        """The coded hook: one compiled softmax playout from ``state`` -> ``(terminal state, moves, trace)``."""
        start = np.frombuffer(state, dtype=np.int8)
        table = np.zeros(1) if bias is None else bias
        grid, moves, codes, betas, starts, chosen = kernels.playout(
            start, self.size, self.values, self.row_sums, self.col_sums, self.low, self.high, self.hints, weights,
            table, bias is not None, rng)
        return grid.tobytes(), moves.tolist(), Trace(codes, betas if bias is not None else None, starts, chosen)

    def playout(self, state: bytes, rng: Any) -> tuple[bytes, list]:
        """A uniform playout (compiled) from ``state``: ``(terminal state, moves)``."""
        final, moves, _ = self.coded_playout(state, np.zeros(self.code_count), None, rng)
        return final, moves

    # ---------------------------------------------------------------- reading states
    def encode(self, row: int, column: int, value: int) -> int:
        """The move that puts ``value`` (``1..values``) at ``(row, column)`` (0-based)."""
        return (row * self.size + column) * self.values + value - 1

    def decode(self, move: int) -> tuple[int, int, int]:
        """``(row, column, value)`` of a move (row and column 0-based)."""
        cell, value = divmod(int(move), self.values)
        return cell // self.size, cell % self.size, value + 1

    def grid(self, state: bytes) -> np.ndarray:
        """The state as a ``size x size`` int8 array (0 blank)."""
        return np.frombuffer(state, dtype=np.int8).reshape(self.size, self.size).copy()

    def render(self, state: bytes) -> str:
        """The hints and the grid of ``state`` as text."""
        return self.instance.render(self.grid(state))

    def is_solved(self, state: bytes) -> bool:
        """Whether ``state`` solves the instance (by the independent checker)."""
        return is_solution(self.instance, self.grid(state))

    # ---------------------------------------------------------------- Replay
    def solution_moves(self) -> list[int]:
        """The moves that play the instance's solution from the root in MRV order (what Replay replays)."""
        solution = self._solution()
        state = self._root
        played: list[int] = []
        while True:
            legal = self.moves(state)
            if not legal:
                return played
            cell = legal[0] // self.values
            move = cell * self.values + int(solution[cell]) - 1
            played.append(move)
            state = self.apply(state, move)

    def replay_codes(self) -> tuple[np.ndarray, np.ndarray]:
        """Alg. 4 on the solution, compiled: the prior codes of every legal move, and of every played move."""
        seen, used = kernels.replay(np.frombuffer(self._root, dtype=np.int8), self._solution(), self.size,
                                    self.values, self.row_sums, self.col_sums, self.low, self.high, self.hints)
        if used.size and used[-1] < 0:  # pragma: no cover - a checked solution always replays
            raise RuntimeError("the solution does not replay from the root")
        return seen, used

    def _solution(self) -> np.ndarray:
        if self.instance.solution is None:
            raise OptionError("the instance has no known solution to replay")
        return self.instance.solution.reshape(-1)
