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
* size * values``.  The prior code reads the paper's sentence "The code for a
move contains the number of times the value appears in the same row, the
number of times it appears in the same column, the remaining sum to reach in
the row and the remaining sum to reach in the column" (sec. 4.2) in one of
four kinds (``code=``), packed by
:func:`~hornermcts.domains.kakuro.kernels.prior_code` into disjoint ranges
(``prior_code_count`` covers all four; :meth:`Kakuro.check_prior` refuses a
prior of another kind).  The value itself is in every kind (docs/domains.md
B5.5: without it the codes of the sums alone are at most 74 x 74 = 5,476,
fewer than Fig. 3's 15,410 at 1.0):

- ``"sums"``, the literal reading: the value "appears" 0 times in its row
  and column for every legal move (all-different), so the code is (value,
  row sum left, column sum left), at most 11 x 74 x 74 = 60,236 codes;
- ``"filled"``: "times ... appears" read as how many values the line holds
  (value, filled cells of the row, of the column, sums left), which says
  how many cells a sum left is spread over;
- ``"remaining"`` (the default): (value, rc, cc, sums left), rc (cc) the
  empty cells of the row (column) whose domain holds the value, read "in
  the same way as for LSC" (docs/domains.md B5.5);
- ``"hints"``, an ablation, not the text: (value, rc, cc, row hint, column
  hint).  In a 10 x 10 square over 1..11 each line omits one value, ``66 -
  hint``, so a hint says which value its line never takes; a sum left does
  not (it depends on what is placed).

Measured by ``benchmarks/gnrpa_kakuro.py`` (priors from 10,000 generated
problems, 100 test problems, tau = 4, 1,024 playouts; Table 2: 100/100,
"usually ... in 1 playout"; Fig. 3: 15,410 codes at 1.0, 20,353 "between
0.0 and 0.1"):

=========  =======  ======  ========  =======  ========  ========  =======
code       seen     1.0     (0, 0.1)  0        [0, 0.1)  Sampling  GNRPA
=========  =======  ======  ========  =======  ========  ========  =======
sums       46,206   347     1,996     7,039    9,035     0/100     0/100
filled     405,820  26,141  15,434    152,863  168,297   0/100     0/100
remaining  458,193  35,665  16,070    181,732  197,802   0/100     0/100
hints      96,118   14,910  2,667     19,216   21,883    100/100   100/100
=========  =======  ======  ========  =======  ========  ========  =======

No reading of the sentence reproduces Table 2 (all three solve 0/100), nor
Fig. 3: the literal ``sums`` has the right scale of codes seen but 347 at
1.0, not 15,410 (it cannot tell a line's last cell, where a value is forced,
from a sum left shared by several cells), and the two count readings have
~10x the codes.  Every one of their runs fills the grid (best scores 8 to
17, medians 10 for Sampling and 13 for GNRPA of the 20 lines' sums, in the
saved rows); what fails is the sums: a sum left does not say which value
its line must omit.  The ablation ``hints`` reproduces both
prior rows of Table 2 at 1,024 (median 10 playouts, 4/100 in the first one:
not "usually in 1 playout") and Fig. 3's two bins if "between 0.0 and 0.1"
is the histogram's first bin, zeros included (14,910 vs 15,410, 21,883 vs
20,353; its zeros are exactly the values "impossible given the row and the
column sums", as Fig. 3's caption says).  So the paper's prior behaves as if
its "remaining sum" carried the line's hint.  The default stays
``remaining`` (docs/domains.md's reading): no reading of the text reproduces, and
``hints`` is not what the text says.  Knowing the omitted values is enough
to solve every problem but not in one playout: sampling with an oracle
prior that rules out exactly each line's omitted value (the benchmark's
reference row) solves 100/100 at 1,024 in a median of 22 playouts (4 in
the first); the learned ``hints`` prior, which also learns where values
are forced, needs 10.

``propagation="sums"`` (forward checking that also enforces the line sums)
is the one reading of the playout left: with it every row of Table 2 solves
100/100 in a median of 1 playout, uniform Sampling included (62 of 100 in
the first; the paper's Sampling: 0/100), so it is not the paper's playout
either (``benchmarks/results/gnrpa_kakuro_sums.txt``).

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

#: What forward checking can enforce (``Kakuro(propagation=)``).
PROPAGATIONS = ("alldifferent", "sums")

#: The kinds of prior code (:data:`~hornermcts.domains.kakuro.kernels.KINDS`; the module docstring).
PRIOR_CODES = kernels.KINDS


class Kakuro:
    """Solve a :class:`~hornermcts.domains.kakuro.KakuroInstance` (see the module docstring).

    Parameters
    ----------
    instance : KakuroInstance
    code : {"remaining", "hints", "sums", "filled"}, default "remaining"
        The kind of prior code (the module docstring).
    propagation : {"alldifferent", "sums"}, default "alldifferent"
        What forward checking enforces: all-different only (docs/domains.md
        B5.5, the default), or also the line sums: a value no completion of
        its row's or column's sum allows leaves the domain
        (:func:`~hornermcts.domains.kakuro.kernels.blocked`; issue 40 item 5).
    """

    def __init__(self, instance: KakuroInstance, *, code: str = "remaining", propagation: str = "alldifferent") -> None:
        if not isinstance(instance, KakuroInstance):
            raise OptionError(f"expected a KakuroInstance, got {type(instance).__name__}")
        if code not in PRIOR_CODES:
            raise OptionError(f"unknown prior code {code!r}: expected one of {', '.join(PRIOR_CODES)}")
        if propagation not in PROPAGATIONS:
            raise OptionError(f"unknown propagation {propagation!r}: expected one of {', '.join(PROPAGATIONS)}")
        if propagation == "sums" and instance.values > kernels.MAX_SUM_VALUES:
            raise OptionError(f"propagation='sums' takes at most {kernels.MAX_SUM_VALUES} values, got "
                              f"{instance.values}")
        self.instance = instance
        self.code = code
        self.propagation = propagation
        self.sums = propagation == "sums"
        self.kind = PRIOR_CODES.index(code)
        self.size = s = instance.size
        self.values = v = instance.values
        self.low, self.high = kernels.sum_range(s, v)
        self.code_count = s * s * v
        self.prior_code_count = sum(kernels.code_counts(s, v))
        self.prior_codes = kernels.code_offsets(s, v)[code]
        self.row_sums = np.array(instance.row_sums, np.int64)
        self.col_sums = np.array(instance.col_sums, np.int64)
        self.target = float(2 * s)
        self._root = bytes(s * s)

    def __repr__(self) -> str:
        return f"Kakuro({self.instance!r}, code={self.code!r}, propagation={self.propagation!r})"

    # ---------------------------------------------------------------- the protocol
    def root(self) -> bytes:
        """The empty grid."""
        return self._root

    def _arrays(self, state: bytes) -> tuple:
        grid = np.frombuffer(state, dtype=np.int8).copy()
        return (grid,) + tuple(kernels.line_state(grid, self.size, self.values))

    def _domain_lines(self, state: bytes) -> tuple:
        """``(grid, rows, cols)``: the bitsets a domain excludes, widened by the values the line sums rule out
        when ``propagation="sums"`` (the prior codes read the plain ones, as the compiled playout does)."""
        grid, rows, cols, row_used, col_used = self._arrays(state)
        if self.sums:
            row_block, col_block = np.zeros(self.size, np.int64), np.zeros(self.size, np.int64)
            kernels.blocked(grid, rows, cols, row_used, col_used, self.row_sums, self.col_sums, self.size,
                            self.values, row_block, col_block, -1, -1)
            rows, cols = rows | row_block, cols | col_block
        return grid, rows, cols

    def moves(self, state: bytes) -> tuple:
        """The values of the MRV cell as moves ``cell * values + value - 1``; ``()`` at a terminal state."""
        grid, rows, cols = self._domain_lines(state)
        cell, k = kernels.mrv(grid, rows, cols, self.size, self.values)
        if k == 0:
            return ()
        used = int(rows[cell // self.size] | cols[cell % self.size])
        return tuple(cell * self.values + v for v in range(self.values) if not (used >> v) & 1)

    def apply(self, state: bytes, move: int) -> bytes:
        """The state after ``move``: any value of an empty cell's domain (else OptionError)."""
        cell, value = divmod(int(move), self.values)
        grid, rows, cols = self._domain_lines(state)
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
        """The packed prior code of ``move`` in ``state``, of this problem's kind (``code=``)."""
        cell, value = divmod(int(move), self.values)
        grid, rows, cols, row_used, col_used = self._arrays(state)
        return int(kernels.prior_code(grid, rows, cols, row_used, col_used, self.row_sums, self.col_sums, self.size,
                                      self.values, self.low, self.high, self.kind, self.prior_codes.start, cell,
                                      value + 1))

    def unpack_prior_code(self, code: int) -> tuple[int, ...]:
        """The fields of a packed prior code of any kind, in the order of its kind's tuple (module docstring).

        >>> problem = Kakuro(KakuroInstance((8, 7, 7), (7, 8, 7), 4))
        >>> state = problem.apply(problem.root(), problem.encode(0, 0, 1))
        >>> move = problem.encode(0, 1, 3)
        >>> problem.unpack_prior_code(problem.prior_code(state, move))   # value, rc, cc, sums left
        (3, 2, 3, 7, 8)
        >>> [Kakuro(problem.instance, code=kind).unpack_prior_code(Kakuro(problem.instance, code=kind).prior_code(
        ...     state, move)) for kind in ("hints", "sums", "filled")]
        [(3, 2, 3, 8, 8), (3, 7, 8), (3, 1, 0, 7, 8)]
        """
        code = int(code)
        if code not in range(self.prior_code_count):
            raise OptionError(f"{code} is not a prior code of this problem")
        kind = next(k for k, codes in kernels.code_offsets(self.size, self.values).items() if code in codes)
        code -= kernels.code_offsets(self.size, self.values)[kind].start
        smallest = self.size * (self.size + 1) // 2
        if kind == "hints":
            span, offset = self.high - smallest + 1, smallest
        else:
            span, offset = self.high - self.low + 1, self.low
        rest, col = divmod(code, span)
        rest, row = divmod(rest, span)
        if kind == "sums":
            return rest + 1, row + offset, col + offset
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
            start, self.size, self.values, self.row_sums, self.col_sums, self.low, self.high, self.kind,
            self.prior_codes.start, weights, table, bias is not None, rng, self.sums)
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
                                    self.values, self.row_sums, self.col_sums, self.low, self.high, self.kind,
                                    self.prior_codes.start, self.sums)
        if used.size and used[-1] < 0:  # pragma: no cover - a checked solution always replays
            raise RuntimeError("the solution does not replay from the root")
        return seen, used

    def _solution(self) -> np.ndarray:
        if self.instance.solution is None:
            raise OptionError("the instance has no known solution to replay")
        return self.instance.solution.reshape(-1)
