"""No input string is ever run as code (issue 14, point 1): payloads through every public entry point.

Each payload would create a marker file if Python evaluated it (``sympify``
of a string does: it is ``eval``).  Every entry point that takes text must
parse it with the safe parser, or refuse it, and leave no file behind.
"""
from __future__ import annotations

import io
import sys

import numpy as np
import pytest
import sympy

import hornermcts
from hornermcts import Polynomial
from hornermcts.cli import main

MARKER = "injected_marker"

PAYLOADS = [
    f"__import__('os').system('touch {MARKER}')",
    f'__import__("os").system("touch {MARKER}")',
    f"exec(\"open('{MARKER}', 'w').close()\")",
    f"x + eval(\"open('{MARKER}', 'w')\")",
    f"[c for c in ().__class__.__base__.__subclasses__()] and open('{MARKER}', 'w')",
    f"lambda: open('{MARKER}', 'w')",
]

x, y = sympy.symbols("x y")

ENTRY_POINTS = {
    "optimize(str)": lambda s: hornermcts.optimize(s, iterations=3, progress=None),
    "optimize([str])": lambda s: hornermcts.optimize([s], iterations=3, progress=None),
    "optimize((expr, str))": lambda s: hornermcts.optimize((x * y + x, s), iterations=3, progress=None),
    "horner(str)": lambda s: hornermcts.horner(s),
    "horner([str])": lambda s: hornermcts.horner([s]),
    "simplify([str])": lambda s: hornermcts.simplify([s]),
    "cse(str)": lambda s: hornermcts.cse(s),
    "cse([str])": lambda s: hornermcts.cse([x + y, s]),
    "as_polynomial(str)": lambda s: hornermcts.as_polynomial(s),
    "from_text(str)": lambda s: hornermcts.from_text(s),
    "Polynomial(coefficients=[str])": lambda s: Polynomial((x,), np.array([[1]]), [s]),
}


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("payload", PAYLOADS)
@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
def test_no_entry_point_runs_text(entry, payload, in_tmp):
    try:
        ENTRY_POINTS[entry](payload)
    except (ValueError, TypeError):  # refused with a clear error (ParseError and OptionError are ValueErrors)
        pass
    assert not (in_tmp / MARKER).exists(), f"{entry} ran {payload!r}"


@pytest.mark.parametrize("payload", PAYLOADS)
def test_the_command_line_runs_no_text_from_files_or_stdin(payload, in_tmp, monkeypatch, capsys):
    source = in_tmp / "poly.txt"
    source.write_text(payload + "\n")
    assert main(["optimize", str(source), "-n", "3", "--no-progress"]) == 2
    monkeypatch.setattr(sys, "stdin", io.StringIO(payload))
    assert main(["optimize", "-", "-n", "3", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.count("hornermcts: error:") == 2 and "Traceback" not in err
    assert not (in_tmp / MARKER).exists()


def test_text_lists_are_parsed_not_refused():
    """The safe path still reads text in a list: the same result as the expressions."""
    from_text = hornermcts.optimize(["x^2 + x*y", "y^3 + x*y"], iterations=5, seed=0, progress=None)
    from_sympy = hornermcts.optimize([x**2 + x * y, y**3 + x * y], iterations=5, seed=0, progress=None)
    assert from_text.after == from_sympy.after
    assert [p.to_sympy() for p in from_text.polynomial] == [p.to_sympy() for p in from_sympy.polynomial]
