"""Hostile text (issue 14, points 3 and 5): bounded work, and one located line for every failure.

The corpus is the issue's list: names that SymPy would evaluate eagerly,
numbers and powers too large to build, exponents that would size tables,
nesting that would exhaust the stack, characters that are not the syntax.
Each case either parses quickly to the right polynomial or fails with one
line naming file, line and column; through the command line it is one
``hornermcts: error:`` line and exit status 2.
"""
from __future__ import annotations

import json

import sympy
import pytest

from hornermcts.cli import main
from hornermcts.deadline import Deadline
from hornermcts.errors import TimeLimitError
from hornermcts.parse import ParseError, from_text, read_file

# text -> the opaque piece it must keep unevaluated
OPAQUE = {
    "x + factorial(10^7)": "factorial(10000000)",
    "fibonacci(10^8)*x": "fibonacci(100000000)",
    "bernoulli(10^5) - x": "bernoulli(100000)",
    "LaplaceTransform(x)*y": "LaplaceTransform(x)",
    "WildFunction(x) + 1": "WildFunction(x)",
    "Function(x)": "Function(x)",
    "Lambda(x)*x": "Lambda(x)",
}

# text -> (part of the message, column)
REFUSED = {
    "2^(10^9)*x": ("numbers are limited to", 1),
    "x + 2^(10^10)": ("numbers are limited to", 5),
    "2^(10^20)": ("numbers are limited to", 1),
    "3*2^-1000000000*x": ("numbers are limited to", 3),
    "(x+1)^1000000": ("numbers are limited to", 6),
    "x^2^40": ("exponents are limited to 2,147,483,647", 1),
    "(x+y+z+w)^400": ("too much work", 10),
    "x^3000000000 + y": ("x^3,000,000,000: exponents are limited", 1),
    "y + x^1000000000000": ("exponents are limited", 1),  # a line of plain terms: its column 1
    "x^2000000000*x^2000000000": ("x^4,000,000,000", 1),
    "sin(" * 250 + "x" + ")" * 250: ("nested more than 100 deep", 404),  # the 101st '('
    "(" * 5000 + "x" + ")" * 5000: ("nested more than 100 deep", 101),
    "x^\u00b2": ("illegal character '\u00b2'", 3),
    "x + \x00y": ("illegal character", 5),
    "x + oo": ("infinity", 5),
    "Eq(x, 1)": ("relation", 1),
}


@pytest.mark.parametrize("text, piece", OPAQUE.items())
def test_unknown_functions_stay_opaque_and_unevaluated(text, piece):
    p = from_text(text)
    assert piece in [str(v) for v in p.opaque.values()]


@pytest.mark.parametrize("text, expected", REFUSED.items())
def test_hostile_text_is_one_located_line(text, expected):
    message, column = expected
    with pytest.raises(ParseError) as err:
        from_text(text, name="in.txt")
    assert message in err.value.reason
    assert (err.value.filename, err.value.lineno, err.value.col) == ("in.txt", 1, column)
    assert "\n" not in str(err.value) and "\x00" not in str(err.value)


# (x+1)^1000000 is refused by the polynomial reader (its expansion's numbers); the command line reads it as
# written, a power of a sum, and computes it by squaring (test_a_huge_power_of_a_sum_is_read_as_written)
@pytest.mark.parametrize("text", [t for t in list(REFUSED)[:6] if t != "(x+1)^1000000"] + ["x^\u00b2"])
def test_hostile_file_through_the_command_line(text, tmp_path, capsys):
    path = tmp_path / "bad.txt"
    path.write_text("y\n+ " + text + "\n")
    assert main(["optimize", str(path), "-n", "5"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"hornermcts: error: {path}:2:") and "\n" not in err


def test_a_huge_power_of_a_sum_is_read_as_written(tmp_path, capsys):
    path = tmp_path / "power.txt"
    path.write_text("y\n+ (x+1)^1000000\n")
    assert main(["optimize", str(path), "--json", "--preset", "fast", "--no-progress"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["form"] in ("as written", "sympy.cse")
    assert report["after"]["total"] == 27  # 19 squarings, 6 products, 2 additions


def test_form_names_are_symbols_and_form_constants_are_constants():
    """As in FORM, E, I and pi are variables (an energy, a current); pi_ and i_ are the constants."""
    p = from_text("E*x + I + pi")
    assert {str(s) for s in p.symbols} == {"E", "x", "I", "pi"} and not p.opaque
    q = from_text("pi_*x + i_")
    assert set(q.opaque.values()) == {sympy.pi, sympy.I}


def test_limits_let_ordinary_powers_through():
    assert from_text("(x+1)^1000").n_terms == 1001
    assert from_text("(x+y+z)^20").n_terms == 231
    assert from_text("x^2147483647 + 2^1000*y").n_terms == 2


def test_invalid_utf8_file_is_located(tmp_path):
    path = tmp_path / "bin.txt"
    path.write_bytes(b"x + y\nz + \xff\xfe\n")
    with pytest.raises(ParseError) as err:
        read_file(path)
    assert (err.value.lineno, err.value.col) == (2, 5) and "invalid UTF-8" in err.value.reason


def test_parsing_honours_a_deadline(tmp_path):
    path = tmp_path / "long.txt"
    path.write_text("".join(f"+ {k}*x^{k % 7}*y^{k % 5}\n" for k in range(5000)))
    with pytest.raises(TimeLimitError, match=r"time limit ran out while reading it \(at line 1,024\)"):
        read_file(path, deadline=Deadline(0.0))
    assert read_file(path, deadline=Deadline(60.0)).n_terms == 35
