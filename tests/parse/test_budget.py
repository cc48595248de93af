"""Expansion under a budget of terms and time (issue 36, item 3).

A 330-byte product of 30 binomials asked for 2^30 terms (MemoryError after
38 s and 3.7 GB), ``(a+...+j)^6*(k+...+t)^5`` for 10^7 (7.6 GB), and a
product of 20,000 factors ``(x + 1)`` never ended.  Each is now refused
before the work, or inside it, with one line naming the limit, the size and
the line; the deadline is looked at inside the expansions and inside long lines.
"""
from __future__ import annotations

import json

import sympy
import pytest

from hornermcts import optimize
from hornermcts.cli import main
from hornermcts.deadline import Deadline
from hornermcts.errors import LimitError, OptionError, TimeLimitError
from hornermcts.options import Options
from hornermcts.parse import from_sympy, from_text

BINOMIALS_30 = "*".join(f"(a{i}+b{i})" for i in range(30))
POWERS = "(" + "+".join("abcdefghij") + ")^6*(" + "+".join("klmnopqrst") + ")^5 + 1"
X_PLUS_1_20000 = "*".join(["(x+1)"] * 20000)


def test_a_product_of_30_binomials_is_refused_before_it_is_built():
    with pytest.raises(LimitError) as err:
        from_text("y +\n" + BINOMIALS_30, name="in.txt")
    message = str(err.value)
    assert message.startswith("in.txt:2: expanding this product would build up to 1,073,741,824 terms")
    assert "max_terms=1,000,000" in message and "\n" not in message


def test_powers_whose_product_is_too_large_are_refused():
    with pytest.raises(LimitError, match="up to 10,020,010 terms"):
        from_text(POWERS)


def test_the_budget_counts_the_work_of_many_small_products():
    """20,000 factors (x + 1): 20,001 terms, but 2*10^8 products of monomials."""
    with pytest.raises(LimitError, match=r"more than 150,000 products of monomials.*max_terms=30,000"):
        from_text(X_PLUS_1_20000, max_terms=30_000)


def test_the_deadline_is_looked_at_inside_an_expansion():
    """One line, one summand: only the multiplication loop can see the deadline."""
    with pytest.raises(TimeLimitError, match="<string>:1: the time limit ran out"):
        from_text(X_PLUS_1_20000, deadline=Deadline(0.0))


def test_the_deadline_is_looked_at_inside_a_long_line():
    line = " + ".join(f"{k}*x^{k % 7}*(y + {k})" for k in range(2000))
    with pytest.raises(TimeLimitError, match="<string>:1: the time limit ran out"):
        from_text(line, deadline=Deadline(0.0))


def test_products_that_collapse_pass_a_bound_of_their_monomials():
    """101 x 101 products, but only 201 monomials of x can come out: under a budget of 5,000 terms."""
    sum_ = "+".join(f"x^{k}" for k in range(101))
    assert from_text(f"({sum_})*({sum_})", max_terms=5000).n_terms == 201
    assert from_text("(x+1)^1000").n_terms == 1001  # the default admits ordinary inputs


def test_sympy_input_goes_through_the_same_budget():
    a, b = sympy.symbols("a:30"), sympy.symbols("b:30")
    with pytest.raises(LimitError, match="from_sympy: expanding this product would build up to 1,073,741,824"):
        from_sympy(sympy.Mul(*[a[i] + b[i] for i in range(30)]))
    with pytest.raises(LimitError, match="power 30 would build up to 211,915,132 terms"):
        from_sympy(sum(a[:10]) ** 30)


def test_max_terms_is_an_option_of_optimize_and_of_the_command(tmp_path, capsys, monkeypatch):
    with pytest.raises(OptionError, match="max_terms must be an integer >= 1"):
        Options(max_terms=0)
    with pytest.raises(LimitError, match="up to 4 terms"):
        optimize("(a+b)*(c+d)", max_terms=3)
    # the command line reads products of sums as written (no expansion); the polynomial reader, which
    # --max-terms bounds, reads what is not (files over MAX_WRITTEN_CHARACTERS): made so here
    monkeypatch.setattr("hornermcts.parse.written_text.MAX_WRITTEN_CHARACTERS", 0)
    path = tmp_path / "product.txt"
    path.write_text(BINOMIALS_30 + "\n")
    assert main(["optimize", str(path), "--time-limit", "3", "--no-progress"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"hornermcts: error: {path}:1: expanding this product would build up to 1,073,741,824")
    assert "\n" not in err
    path.write_text("(a+b)*(c+d)*(e+f)\n")
    assert main(["optimize", str(path), "--max-terms", "4", "--no-progress"]) == 2
    assert "up to 8 terms" in capsys.readouterr().err


def test_the_command_line_reads_a_product_of_thirty_binomials_as_written(tmp_path, capsys):
    """2^30 terms expanded; as written, 30 additions and 29 multiplications."""
    path = tmp_path / "product.txt"
    path.write_text(BINOMIALS_30 + "\n")
    assert main(["optimize", str(path), "--preset", "fast", "--json", "--no-progress"]) == 0
    assert json.loads(capsys.readouterr().out)["after"]["total"] == 59
