"""The dense exponent matrix has a size limit (issue 36, item 4): refused before it is allocated, in one line.

A sum of 200,000 variables asked NumPy for 298 GiB and ended in a traceback;
the reader now counts the cells (terms x variables) first and raises a
LimitError naming hornermcts.polynomial.MAX_CELLS.  A sum of 6,000 variables
(36 million cells) is the cheapest input past the limit; one of 5,000 is read.
"""
from __future__ import annotations

import pytest

from hornermcts.cli import main
from hornermcts.errors import LimitError
from hornermcts.parse import from_text
from hornermcts.polynomial import MAX_CELLS


def _sum_text(n: int) -> str:
    return "+".join(f"v{i}" for i in range(n)) + "\n"


def test_too_many_cells_are_refused_naming_the_limit():
    assert 5000 * 5000 <= MAX_CELLS < 6000 * 6000
    with pytest.raises(LimitError, match=r"6,000 terms in 6,000 variables need 36,000,000 exponent cells .*MAX_CELLS"):
        from_text(_sum_text(6000))


def test_too_many_cells_through_the_command_line(tmp_path, capsys):
    path = tmp_path / "sum.txt"
    path.write_text(_sum_text(6000))
    assert main(["optimize", str(path), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "hornermcts.polynomial.MAX_CELLS" in err and "Traceback" not in err


def test_the_cell_limit_grows_with_max_terms():
    """``max_terms`` is the size of input one accepts: ten times the terms, ten times the cells."""
    with pytest.raises(LimitError, match=r"over the limit of 3,000,000 .*max_terms=100,000; raise it with --max-terms"):
        from_text(_sum_text(2000), max_terms=100_000)
    assert from_text(_sum_text(6000), max_terms=2_000_000).n_vars == 6000
