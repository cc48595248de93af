"""Dot-bracket secondary structures: parsing, the pair table, the base-pair distance.

A target is a string over ``(``, ``)`` and ``.``: position ``i`` pairs with
position ``j`` when the ``(`` at ``i`` is closed by the ``)`` at ``j``
(the usual bracket matching); a ``.`` is unpaired.  Pseudoknot brackets
(``[]``, ``{}``, ``<>``) and anything else are refused, with the position
(1-based) and a pointer under it.

Examples
--------
>>> pair_table("((.))")
(4, 3, -1, 1, 0)
>>> pair_table("((.)")
Traceback (most recent call last):
...
hornermcts.domains.rna_design.structure.StructureError: unclosed '(' at position 1 of 4: '((.)'
>>> base_pair_distance("((.))", "(...)")
1
"""

from __future__ import annotations

from ...errors import OptionError

__all__ = ["StructureError", "pair_table", "check_structure", "base_pair_distance", "pairs"]

_HINTS = {"[": "pseudoknots are not supported", "]": "pseudoknots are not supported",
          "{": "pseudoknots are not supported", "}": "pseudoknots are not supported",
          "<": "pseudoknots are not supported", ">": "pseudoknots are not supported"}


class StructureError(OptionError):
    """A dot-bracket string that is not a secondary structure.

    Attributes
    ----------
    position : int
        The 0-based index of the offending character (``-1``: the whole text).
    reason : str
        What is wrong, without the position.
    """

    def __init__(self, reason: str, structure: str, position: int) -> None:
        self.reason = reason
        self.position = position
        self.structure = structure
        if position < 0:
            super().__init__(reason)
            return
        start = max(0, position - 30)
        shown = ("..." if start else "") + structure[start:position + 30] + (
            "..." if position + 30 < len(structure) else "")
        super().__init__(f"{reason} at position {position + 1} of {len(structure)}: {shown!r}")

def pair_table(structure: str) -> tuple[int, ...]:
    """The partner of each position (``-1`` when unpaired) of a dot-bracket ``structure``.

    Raises
    ------
    StructureError
        (an :class:`~hornermcts.errors.OptionError`) for an empty string, a
        character other than ``( ) .``, a ``)`` that closes nothing, or a
        ``(`` never closed; the message gives the position (1-based).

    Examples
    --------
    >>> pair_table("(.)..")
    (2, -1, 0, -1, -1)
    >>> pair_table("..)")
    Traceback (most recent call last):
    ...
    hornermcts.domains.rna_design.structure.StructureError: unmatched ')' at position 3 of 3: '..)'
    """
    if not isinstance(structure, str):
        raise StructureError(f"a structure is a string of '(', ')' and '.', got {type(structure).__name__}",
                             "", -1)
    if not structure:
        raise StructureError("empty structure", structure, -1)
    partner = [-1] * len(structure)
    stack: list[int] = []
    for i, char in enumerate(structure):
        if char == "(":
            stack.append(i)
        elif char == ")":
            if not stack:
                raise StructureError("unmatched ')'", structure, i)
            j = stack.pop()
            partner[i], partner[j] = j, i
        elif char != ".":
            hint = _HINTS.get(char, "only '(', ')' and '.' are allowed")
            raise StructureError(f"unexpected character {char!r} ({hint})", structure, i)
    if stack:
        raise StructureError("unclosed '('", structure, stack[-1])
    return tuple(partner)


def check_structure(structure: str) -> str:
    """``structure`` itself, once :func:`pair_table` accepts it (else :class:`StructureError`)."""
    pair_table(structure)
    return structure


def pairs(structure: str) -> set[tuple[int, int]]:
    """The base pairs ``(i, j)``, ``i < j``, of a dot-bracket ``structure``.

    >>> sorted(pairs("((.))."))
    [(0, 4), (1, 3)]
    """
    return {(i, j) for i, j in enumerate(pair_table(structure)) if i < j}


def base_pair_distance(first: str, second: str) -> int:
    """The base-pair distance: pairs in one structure and not in the other (ViennaRNA's ``bp_distance``).

    >>> base_pair_distance("((..))", "......"), base_pair_distance("(())", "()()")
    (2, 4)
    """
    if len(first) != len(second):
        raise OptionError(f"structures of different lengths ({len(first)} and {len(second)})")
    return len(pairs(first) ^ pairs(second))
