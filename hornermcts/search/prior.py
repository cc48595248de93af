"""A prior learned by replaying solved problems (Cazenave 2024, sec. 3, Alg. 4).

Replaying a solution from its problem's start, every state counts each of
its legal moves' codes once in ``nb`` and the code of the move the solution
plays once in ``count``.  The *ratio* of a code, ``count / nb``, is how often
a move with that code was the solution's move when it was possible; the
bias of GNRPA is

    beta_m = temperature * log(count[code(m)] / nb[code(m)])

and sampling with the prior alone plays ``m`` with probability
``ratio_m^temperature / sum_k ratio_k^temperature`` (a level-0
:func:`~hornermcts.search.nested.nrpa` run with this prior).  Two rules the
paper leaves open (docs/domains.md B5.3): a code never seen (``nb = 0``) gets the
overall ratio ``sum(count) / sum(nb)``; a code seen but never played (``count
= 0``) gets ``beta = -inf``, which excludes the move, unless every legal move
of the state is excluded: then the playout ignores the bias in that state.

The code of a move is ``problem.prior_code(state, move)`` if the problem has
that method, else ``problem.move_code(state, move)``, else the move itself:
the prior's codes may differ from the policy's (LSC: the policy code is
(cell, value), the prior code the counts of the value in the row and column).

File format (:meth:`Prior.save`, :meth:`Prior.load`): JSON, ``{"format":
"hornermcts-prior", "version": 1, "entries": [[code, count, nb], ...]}``, a
code written as JSON (a tuple as an array, read back as a tuple; ints,
floats, strings, booleans and ``None`` as themselves).

Examples
--------
Two solved problems of a three-step game where the solution always plays
the largest move:

>>> class Climb:
...     def root(self): return ()
...     def moves(self, s): return (0, 1, 2) if len(s) < 2 else ()
...     def apply(self, s, m): return s + (m,)
...     def reward(self, s): return float(sum(s))
>>> prior = Prior.learn([(Climb(), [2, 2]), (Climb(), [2, 1])])
>>> prior.count, prior.nb
({2: 3, 1: 1}, {0: 4, 1: 4, 2: 4})
>>> prior.ratio(2), prior.ratio(1), prior.ratio(0), prior.ratio(7)
(0.75, 0.25, 0.0, 0.3333333333333333)
>>> [round(b, 4) for b in prior.bias(Climb(), temperature=2.0)((), (0, 1, 2))]
[-inf, -2.7726, -0.5754]
"""
from __future__ import annotations

import json
import math
import numbers
from itertools import repeat
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from ..errors import OptionError

__all__ = ["Prior", "FORMAT"]

#: The ``"format"`` field of a saved prior.
FORMAT = "hornermcts-prior"


def _code_function(problem: Any) -> Callable[[Any, Any], Any] | None:
    for name in ("prior_code", "move_code"):
        method = getattr(problem, name, None)
        if callable(method):
            return method
    return None


def _encode(code: Any) -> Any:
    if isinstance(code, tuple):
        return [_encode(c) for c in code]
    if isinstance(code, np.generic):
        return code.item()
    return code


def _decode(code: Any) -> Any:
    if isinstance(code, list):
        return tuple(_decode(c) for c in code)
    return code


class Prior:
    """Count/nb tables over move codes, learned by Replay (see the module docstring).

    Parameters
    ----------
    count, nb : dict, optional
        Start tables (code -> int), e.g. from another learning run.

    Attributes
    ----------
    count : dict
        Code -> times a solution played a move with that code.
    nb : dict
        Code -> times a move with that code was legal in a replayed state.
    """

    def __init__(self, count: dict | None = None, nb: dict | None = None) -> None:
        self.count: dict = {}
        self.nb: dict = {}
        self._cached_table: tuple | None = None  # the last table() built: (key, array)
        for name, table, into in (("count", count, self.count), ("nb", nb, self.nb)):
            for code, value in (table or {}).items():
                if not (isinstance(value, numbers.Integral) and not isinstance(value, bool) and int(value) >= 0):
                    raise OptionError(f"{name}[{code!r}] must be an integer >= 0, got {value!r}")
                into[code] = int(value)
        for code, value in self.count.items():
            if value > self.nb.get(code, 0):
                raise OptionError(f"count[{code!r}] = {value} exceeds nb[{code!r}] = {self.nb.get(code, 0)}")

    # ------------------------------------------------------------ learning
    @classmethod
    def learn(cls, examples: Iterable[tuple[Any, Sequence]]) -> Prior:
        """A prior learned from ``(problem, solution moves)`` pairs (Alg. 4 on each)."""
        prior = cls()
        for problem, moves in examples:
            prior.replay(problem, moves)
        return prior

    def replay(self, problem: Any, moves: Sequence) -> None:
        """Add one solved problem: replay ``moves`` from ``problem.root()`` (Alg. 4).

        Raises
        ------
        OptionError
            If a move of the solution is not legal where it is played.
        """
        code = _code_function(problem)
        count, nb = self.count, self.nb
        self._cached_table = None
        state = problem.root()
        for step, move in enumerate(moves):
            legal = problem.moves(state)
            if move not in legal:
                raise OptionError(f"solution move {step} ({move!r}) is not legal in state {state!r}")
            for m in legal:
                c = code(state, m) if code is not None else m
                nb[c] = nb.get(c, 0) + 1
            c = code(state, move) if code is not None else move
            count[c] = count.get(c, 0) + 1
            state = problem.apply(state, move)

    # ------------------------------------------------------------ reading
    @property
    def overall(self) -> float:
        """``sum(count) / sum(nb)``: the ratio of a code never seen (1.0 for an empty prior)."""
        seen = sum(self.nb.values())
        return sum(self.count.values()) / seen if seen else 1.0

    def ratio(self, code: Any) -> float:
        """``count / nb`` of ``code``; :attr:`overall` if ``nb`` is 0."""
        seen = self.nb.get(code, 0)
        return self.count.get(code, 0) / seen if seen else self.overall

    def beta(self, code: Any, temperature: float = 1.0) -> float:
        """``temperature * log(ratio(code))``; ``-inf`` for a ratio of 0."""
        ratio = self.ratio(code)
        return temperature * math.log(ratio) if ratio > 0 else -math.inf

    def bias(self, problem: Any, temperature: float = 1.0) -> Callable[[Any, Sequence], list[float]]:
        """The GNRPA bias ``bias(state, moves) -> [beta per move]`` of this prior on ``problem``."""
        _check_temperature(temperature)
        code = _code_function(problem)
        unseen = self.beta(object(), temperature)
        betas = {c: self.beta(c, temperature) for c in self.nb}

        def bias(state: Any, moves: Sequence) -> list[float]:
            if code is None:
                return [betas.get(m, unseen) for m in moves]
            return [betas.get(code(state, m), unseen) for m in moves]

        return bias

    def table(self, size: int, temperature: float = 1.0) -> np.ndarray:
        """``beta`` of the integer codes ``0 .. size-1`` as a float64 array (the coded hook's ``bias``).

        Built once and kept until the prior learns more (a search
        asks for it once per run: Kakuro's table has 7.3 million codes).
        The array is read-only.

        Examples
        --------
        >>> Prior({1: 1}, {0: 2, 1: 2}).table(3).round(4)
        array([  -inf, -0.6931, -1.3863])
        """
        _check_temperature(temperature)
        # keyed by the tables' size and total too, in case they were changed other than by replay()
        key = (int(size), float(temperature), len(self.nb), sum(self.count.values()))
        if self._cached_table is not None and self._cached_table[0] == key:
            return self._cached_table[1]
        codes = list(self.nb)
        for code in codes:
            if not (isinstance(code, numbers.Integral) and 0 <= int(code) < size):
                raise OptionError(f"a prior table needs integer codes in range({size}); this prior has {code!r}")
        overall = self.overall
        # the same arithmetic as beta(), code by code (math.log, so both paths give the same bits)
        beta = [temperature * math.log(r) if r > 0 else -math.inf
                for r in [count(code, 0) / seen if seen else overall
                          for code, seen, count in zip(codes, self.nb.values(), repeat(self.count.get))]]
        out = np.full(int(size), self.beta(object(), temperature))
        out[np.fromiter(codes, np.int64, len(codes))] = np.array(beta, np.float64)
        out.flags.writeable = False
        self._cached_table = (key, out)
        return out

    def __len__(self) -> int:
        return len(self.nb)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Prior) and self.count == other.count and self.nb == other.nb

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Prior({len(self)} codes, {sum(self.count.values())} solution moves)"

    # ------------------------------------------------------------ files
    def save(self, path: str | Path) -> None:
        """Write the tables to ``path`` as JSON (the format of the module docstring).

        Raises
        ------
        OptionError
            If a code would not read back as itself (codes must be built
            from tuples, ints, floats, strings, booleans and ``None``).
        """
        entries = []
        for code, seen in self.nb.items():
            written = _encode(code)
            try:
                same = _decode(json.loads(json.dumps(written))) == code
            except (TypeError, ValueError):
                same = False
            if not same:
                raise OptionError(f"code {code!r} cannot be saved as JSON and read back")
            entries.append([written, self.count.get(code, 0), seen])
        Path(path).write_text(json.dumps({"format": FORMAT, "version": 1, "entries": entries}) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> Prior:
        """Read a prior written by :meth:`save`.

        Examples
        --------
        >>> import tempfile, os
        >>> prior = Prior({(1, "x"): 2}, {(1, "x"): 3, (0, "y"): 1})
        >>> with tempfile.TemporaryDirectory() as folder:
        ...     prior.save(os.path.join(folder, "p.json"))
        ...     Prior.load(os.path.join(folder, "p.json")) == prior
        True
        """
        try:
            data = json.loads(Path(path).read_text())
            if data.get("format") != FORMAT or data.get("version") != 1:
                raise ValueError(f"not a {FORMAT} file, version 1")
            count, nb = {}, {}
            for code, used, seen in data["entries"]:
                code = _decode(code)
                nb[code] = seen
                if used:
                    count[code] = used
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            raise OptionError(f"{path}: cannot read a prior: {error}") from None
        return cls(count, nb)


def _check_temperature(temperature: Any) -> None:
    if not (isinstance(temperature, numbers.Real) and not isinstance(temperature, bool)
            and math.isfinite(temperature) and float(temperature) > 0):
        raise OptionError(f"temperature must be a finite number > 0, got {temperature!r}")
