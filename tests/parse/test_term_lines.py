"""The compiled reader of one simple term per line gives what the text parser gives, or leaves the file to it."""
from __future__ import annotations

import numpy as np
import pytest

from hornermcts.errors import LimitError
from hornermcts.parse import ParseError, read_file
from hornermcts.parse.term_lines import read_term_lines
from hornermcts.parse.text import parse_lines


def by_text_parser(data: bytes):
    return parse_lines(data.decode().split("\n"), "<test>", None)


def same(a, b) -> bool:
    return (a.symbols == b.symbols and a.exponents.tolist() == b.exponents.tolist()
            and a.coefficients == b.coefficients and a.opaque == b.opaque)


READ = [
    b"+3/2*x^2*y\n-y\n+x*x\n+7\n",
    b"x\n",  # the first line needs no sign
    b"  -  12 * x1 ** 3 *  y_2\t\r\n\n  + 4/6*x1\r\n - 5\n",
    b"+x*y\n-y*x\n+z\n",  # equal monomials cancel: x and y are no columns
    b"+x^0*y\n+y\n+w^0\n+z^2\n",  # x and w only to the power 0
    b"+2*a^3*b\n-7/14*b*a^3\n+b\n",  # merged: 3/2*a^3*b
    b"+" + b"\n+".join(f"v{i}".encode() for i in range(3000)) + b"\n",
    b"+E*I*pi*N*S*beta\n",  # plain names, as in FORM
    b"+123456789012345678*x^2147483647\n",
]
LEFT = [
    b"F = x + y;\n", b"+x + y\n", b"+x\ny\n", b"+x;\n", b"+x*3\n", b"+3**2*x\n", b"+2.5*x\n", b"+pi_*x\n", b"+i_*x\n",
    b"+oo*x\n", b"+nan\n", b"+x/2\n", b"+sin(x)\n", b"+1234567890123456789*x\n", b"+x^2147483648\n",
    b"+x^2147483647*x\n", b"\xef\xbb\xbf+x\n", "+\u00e9*x\n".encode(), b"+5\n-3\n", b"", b"\n\n", b"+x^-1\n", b"+x^\n",
    b"+3/0*x\n", b"+*x\n", b"+x**\n",
]


@pytest.mark.parametrize("data", READ)
def test_read_as_the_text_parser_reads(data):
    poly = read_term_lines(data)
    assert poly is not None and same(poly, by_text_parser(data))


@pytest.mark.parametrize("data", LEFT)
def test_anything_else_is_left_to_the_text_parser(data):
    assert read_term_lines(data) is None


def test_random_files_read_alike():
    rng = np.random.default_rng(0)
    names = ["x", "y", "z1", "a_b", "Q", "w9"]
    for _ in range(200):
        lines = []
        for _ in range(int(rng.integers(1, 30))):
            factors = [f"{names[k]}" + (f"^{e}" if e != 1 else "") for k, e in
                       zip(rng.choice(len(names), int(rng.integers(1, 5))), rng.integers(0, 4, 5))]
            coefficient = rng.choice(["", "2*", "3/4*", "6/3*", "0*"])
            lines.append(f"{rng.choice(['+', '-', '+ '])}{coefficient}{'*'.join(factors)}")
        data = ("\n".join(lines) + "\n").encode()
        poly, want = read_term_lines(data), by_text_parser(data)
        assert same(poly, want) if poly is not None else want.n_vars == 0, data  # a constant: the text parser's


def test_read_file_takes_the_fast_path_from_its_size_on_and_keeps_the_text_parsers_errors(tmp_path, monkeypatch):
    from hornermcts.parse import term_lines

    calls = []
    monkeypatch.setattr(term_lines, "read_term_lines", lambda *a: calls.append(read_term_lines(*a)) or calls[-1])
    path = tmp_path / "p.txt"
    path.write_bytes(b"+3/2*x^2*y\n-y\n")
    assert same(read_file(path), by_text_parser(b"+3/2*x^2*y\n-y\n"))
    assert calls == []  # below COMPILED_FROM_BYTES: the text parser, without loading the kernels
    monkeypatch.setattr(term_lines, "COMPILED_FROM_BYTES", 0)
    assert same(read_file(path), by_text_parser(b"+3/2*x^2*y\n-y\n"))
    assert len(calls) == 1 and calls[0] is not None  # scanned
    path.write_bytes(b"+3/0*x\n")
    with pytest.raises(ParseError, match="division by zero"):
        read_file(path)
    assert len(calls) == 2 and calls[1] is None  # left to the text parser, whose error it is


def test_too_many_cells_are_refused_alike():
    data = ("+" + "\n+".join(f"v{i}" for i in range(6000)) + "\n").encode()
    with pytest.raises(LimitError, match=r"6,000 terms in 6,000 variables need 36,000,000 exponent cells"):
        read_term_lines(data)
    assert read_term_lines(data, max_terms=2_000_000).n_vars == 6000


def test_a_large_polynomial_merges_its_equal_rows_as_a_small_one_does():
    """From HASHED_ROWS terms on the rows' hashes say when there is nothing to merge; the result is the same."""
    import sympy

    from hornermcts.polynomial import Polynomial
    from hornermcts.polynomial.sparse import HASHED_ROWS

    rng = np.random.default_rng(1)
    symbols = sympy.symbols("a b c d")
    distinct = np.unique(rng.integers(0, 30, size=(3 * HASHED_ROWS, 4)), axis=0)[: 2 * HASHED_ROWS]
    rng.shuffle(distinct)
    coefficients = [int(c) for c in rng.integers(-5, 6, size=len(distinct))]
    with_equal = np.vstack([distinct, distinct[:100]])  # 100 rows again: merged, some to zero
    again = [-c if k % 2 else 1 for k, c in enumerate(coefficients[:100])]
    for rows, coefs in ((distinct, coefficients), (with_equal, coefficients + again)):
        big = Polynomial(symbols, rows, coefs)
        sums: dict = {}
        for row, c in zip(map(tuple, rows.tolist()), coefs):
            sums[row] = sums.get(row, 0) + c
        kept = [(row, c) for row, c in sums.items() if c]
        assert big.exponents.tolist() == [list(r) for r, _ in kept] and big.coefficients == tuple(c for _, c in kept)
