"""Text input in FORM or SymPy syntax: the tokenizer, the parser, :func:`from_text`.

The parser is hand-written (``sympify`` of a huge string recurses once per
term and runs arbitrary code); it builds the sparse dict of
:mod:`hornermcts.parse.sparse` one top-level summand at a time and hands
non-polynomial pieces to the shared :class:`~hornermcts.parse.builder.Builder`.
"""
from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Iterable, Iterator, Sequence

import sympy
from sympy.logic.boolalg import Boolean

from ..polynomial.coefficients import product, quotient
from ..collector import paused
from ..errors import TimeLimitError, visible
from ..polynomial.sparse import MAX_EXPONENT, Polynomial
from .budget import Budget
from .builder import Builder
from .errors import ParseError
from .sparse import Term, constant, poly_pow

__all__ = ["from_text", "parse_lines", "expression_name", "KNOWN_FUNCTIONS", "MAX_INTEGER_BITS", "MAX_POWER_WORK",
           "MAX_NESTING", "CONSTANTS", "NOT_FINITE_NAMES"]

_S = sympy.S


# One token per match, kind told by its first character; columns are only
# worked out (by matching the line again) when an error needs one.
_TOKEN_RE = re.compile(
    r"\s*((?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|[0-9]+(?:[eE][+-]?[0-9]+)?"
    r"|[A-Za-z_][A-Za-z0-9_]*|\*\*|\S)"
)
_OPERATORS = {c: c for c in "+-*/(),=;^"}
_OPERATORS["**"] = "^"
_NAME_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_NUMBER_START = frozenset("0123456789.")


def _column(line: str, index: int) -> int:
    """1-based column of token number ``index`` of ``line`` (just past the last one if too big)."""
    col = len(line.rstrip()) + 1
    for k, m in enumerate(_TOKEN_RE.finditer(line)):
        if k == index:
            return m.start(1) + 1
    return col

# FORM's constants.  Every other identifier is a plain symbol, as in FORM: ``E``
# (an energy), ``I`` (a current), ``pi`` are variables of the polynomial.
CONSTANTS = {
    "pi_": _S.Pi,
    "i_": _S.ImaginaryUnit,
}
NOT_FINITE_NAMES = {"oo": "infinity", "zoo": "complex infinity", "nan": "NaN"}
# The functions a polynomial file may call, by the name SymPy gives them (FORM's
# spellings map to them).  Any other name called is an undefined function: an
# opaque piece, never evaluated (``factorial(10^7)`` would run for minutes).
_FORM_FUNCTIONS = {
    "sqrt_": "sqrt", "ln_": "log", "abs_": "Abs", "sin_": "sin", "cos_": "cos",
    "tan_": "tan", "asin_": "asin", "acos_": "acos", "atan_": "atan", "atan2_": "atan2",
    "sinh_": "sinh", "cosh_": "cosh", "tanh_": "tanh", "asinh_": "asinh",
    "acosh_": "acosh", "atanh_": "atanh",
}
KNOWN_FUNCTIONS = frozenset(
    "sqrt cbrt exp log sin cos tan asin acos atan atan2 sec csc cot sinh cosh tanh asinh acosh atanh "
    "Abs sign".split()
)
_SPECIAL_NAMES = frozenset(CONSTANTS) | frozenset(NOT_FINITE_NAMES)

#: Bits of the largest integer a power of numbers may give (``2^(10^9)`` is refused
#: at once): about 315,000 decimal digits.
MAX_INTEGER_BITS = 2**20
#: Work allowed to expand a power of a sum, ``(x + y + 1)^n``: the result's
#: terms (at most ``binomial(n + t - 1, t - 1)`` for ``t`` terms) times ``n * t``.
MAX_POWER_WORK = 10**7
#: Parentheses and function calls nested deeper than this are refused.
MAX_NESTING = 100


def function_named(name: str):
    """SymPy's function of that name if a file may call it (``sin``, FORM's ``sqrt_``), else an undefined one."""
    target = _FORM_FUNCTIONS.get(name, name)
    if target in KNOWN_FUNCTIONS:
        return getattr(sympy, target)
    return sympy.Function(name)


def _bits(c) -> int:
    """Bits of an exact number (the larger of numerator and denominator); 0 for a float."""
    if isinstance(c, int):
        return c.bit_length()
    if isinstance(c, Fraction):
        return max(c.numerator.bit_length(), c.denominator.bit_length())
    return 0


def _timed(lines: Iterable[str], filename: str, deadline) -> Iterator[str]:
    """``lines``, raising TimeLimitError once ``deadline`` has passed (looked at every 1,024 lines)."""
    for k, line in enumerate(lines, 1):
        if not k & 1023 and deadline.expired():
            raise TimeLimitError(f"{filename}: the time limit ran out while reading it (at line {k:,})")
        yield line


def _big_int(digits: str) -> int:
    try:
        return int(digits)
    except ValueError:  # beyond sys.get_int_max_str_digits(): build it in chunks
        value = 0
        for k in range(0, len(digits), 4000):
            chunk = digits[k : k + 4000]
            value = value * 10 ** len(chunk) + int(chunk)
        return value


# A line made only of "simple" terms (sign, optional integer or p/q coefficient,
# then name[^int] factors joined by '*', as FORM prints its output) is handed to
# the parser as one 'T' token, parsed by regular expressions instead of token by
# token; about five times faster on files like hep_sigma.txt.
_NAMEPOW = r"[A-Za-z_][A-Za-z0-9_]*(?:\s*(?:\^|\*\*)\s*[0-9]+)?"
_SIMPLE = rf"(?:[0-9]+(?:\s*/\s*[0-9]+)?\s*\*\s*)?{_NAMEPOW}(?:\s*\*\s*{_NAMEPOW})*"
_SIMPLE_LINE_RE = re.compile(rf"\s*[+-]?\s*{_SIMPLE}(?:\s*[+-]\s*{_SIMPLE})*\s*$")
_SIMPLE_TERM_RE = re.compile(
    rf"([+-]?)\s*(?:([0-9]+)(?:\s*/\s*([0-9]+))?\s*\*\s*)?({_NAMEPOW}(?:\s*\*\s*{_NAMEPOW})*)"
)
_FACTOR_RE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(?:\s*(?:\^|\*\*)\s*([0-9]+))?")
_SIMPLE_EXCLUDE_RE = re.compile(
    r"/\s*0+(?![0-9])|\b(?:" + "|".join(sorted(_SPECIAL_NAMES)) + r")\b"
)
_AFTER_OPERAND = frozenset("in)T")  # a +/- after these tokens is binary
_SUM_START = frozenset([None, "(", ",", "="])  # a sum may start after these


def _tokens(lines: Iterable[str], filename: str) -> Iterator[tuple]:
    """Tokens ``(kind, value, line number, index in line, line text)``, then one ``EOF``.

    ``kind`` is the operator character for operators (``'^'`` for both ``^``
    and ``**``), ``'n'`` for numbers (value int or Float), ``'i'`` for
    identifiers, ``'T'`` for a whole line of simple terms (value: the
    ``_SIMPLE_TERM_RE.findall`` groups).  A line becomes a ``'T'`` only where
    it is exactly a run of summands: after an operand or at the start of a
    sum, and followed by a line that starts a new summand or closes the sum.
    """
    last = (1, 0, "")
    prev = None  # kind of the last token
    findall = _TOKEN_RE.findall
    simple_line = _SIMPLE_LINE_RE.match
    operators = _OPERATORS
    name_start = _NAME_START
    Float = sympy.Float
    numbered = ((n, line) for n, line in enumerate(lines, 1) if line and not line.isspace())
    cur = next(numbered, None)
    while cur is not None:
        nxt = next(numbered, None)
        lineno, line = cur
        cur = nxt
        if (
            (prev in _AFTER_OPERAND or prev in _SUM_START)
            and len(line) < 4096
            and simple_line(line)
            and (nxt is None or nxt[1].lstrip()[0] in "+-;),")
            and (prev in _SUM_START or line.lstrip()[0] in "+-")
            and not _SIMPLE_EXCLUDE_RE.search(line)
        ):
            yield ("T", _SIMPLE_TERM_RE.findall(line), lineno, 0, line)
            prev = "T"
            last = (lineno, 1 << 30, line)
            continue
        texts = findall(line)
        for index, text in enumerate(texts):
            kind = operators.get(text)
            if kind is not None:
                yield (kind, text, lineno, index, line)
            elif text[0] in name_start:
                yield ("i", text, lineno, index, line)
            elif text.isascii() and text.isdigit():  # not a superscript digit such as '²'
                yield ("n", _big_int(text), lineno, index, line)
            elif text[0] in _NUMBER_START and text != ".":
                yield ("n", Float(text), lineno, index, line)
            else:
                raise ParseError(
                    f"illegal character {text!r}",
                    filename=filename, lineno=lineno, col=_column(line, index), text=line,
                )
        if texts:
            text = texts[-1]
            prev = operators.get(text) or ("i" if text[0] in name_start else "n")
            last = (lineno, len(texts), line)
    yield ("EOF", None, *last)


class _Parser:
    """Recursive descent over the token stream, one top-level summand at a time.

    Grammar (Python's precedence; ``^`` and ``**`` are the same)::

        input   := [[Local|Global|L|G] NAME '='] [sum] [';']
        sum     := term (('+'|'-') term)*        (the sign is the term's unary sign)
        term    := factor (('*'|'/') factor)*
        factor  := ('+'|'-') factor | primary ['^' factor]
        primary := NUMBER | NAME | NAME '(' [sum (',' sum)*] ')' | '(' sum ')'
    """

    def __init__(self, lines: Iterable[str], filename: str, builder: Builder):
        self.filename = filename
        self.b = builder
        builder.budget.where = lambda: f"{visible(filename)}:{self.tok[2]}"
        self._next = _tokens(lines, filename).__next__
        self.tok = self._next()
        self.name: tuple[str, int] | None = None  # (NAME, line) of a leading NAME = header
        self.depth = 0  # parentheses and calls open

    def advance(self) -> None:
        self.tok = self._next()

    def error(self, reason: str, tok=None):
        tok = tok or self.tok
        return ParseError(
            reason, filename=self.filename, lineno=tok[2], col=_column(tok[4], tok[3]), text=tok[4]
        )

    def unexpected(self, tok=None, after=""):
        tok = tok or self.tok
        if tok[0] == "EOF":
            return self.error("unexpected end of input" + after, tok)
        if tok[0] == "n":
            text = _TOKEN_RE.findall(tok[4])[tok[3]]
            return self.error(f"unexpected number {text}" + after, tok)
        return self.error(f"unexpected {tok[1]!r}" + after, tok)

    # ---- entry point
    def parse(self) -> dict:
        self._header()
        acc: dict = {}
        if self.tok[0] not in (";", "EOF"):
            self.sum(acc)
        k = self.tok[0]
        if k == ";":
            self.advance()
            if self.tok[0] != "EOF":
                raise self.unexpected(after=" after ';' (the input is one expression)")
        elif k == "=":
            raise self.error("a second '=' (the input is one expression; only a leading NAME = names it)")
        elif k == ")":
            raise self.error("unexpected ')' without a matching '('")
        elif k != "EOF":
            raise self.unexpected()
        return acc

    def _header(self) -> None:
        """Read ``NAME =`` or FORM's ``Local NAME =`` into ``self.name``; needs two tokens of lookahead."""
        if self.tok[0] != "i":
            return
        first = self.tok
        self.advance()
        if self.tok[0] == "=":
            self.name = (first[1], first[2])
            self.advance()
            return
        if first[1].lower() in ("local", "global", "l", "g") and self.tok[0] == "i":
            second = self.tok
            self.advance()
            if self.tok[0] == "=":
                self.name = (second[1], second[2])
                self.advance()
                return
            raise self.unexpected(second)
        self._push_back(first)  # not a header: the name starts the expression

    def _push_back(self, tok) -> None:
        current, nxt = self.tok, self._next

        def resume():
            self._next = nxt
            return current

        self.tok = tok
        self._next = resume

    # ---- grammar
    def sum(self, acc: dict) -> None:
        tick = self.b.budget.tick
        count = 0
        while True:
            count += 1
            if not count & 1023:  # a long line of terms: the deadline is looked at within it
                tick()
            if self.tok[0] == "T":
                self.simple_terms(acc, self.tok[1])
                self.advance()
            else:
                self.term(acc)
            k = self.tok[0]
            if k != "+" and k != "-" and k != "T":
                return

    def simple_terms(self, acc: dict, terms: list) -> None:
        names = self.b.names
        name_var = self.b.name_var
        findall = _FACTOR_RE.findall
        for sign, num, den, factors in terms:
            coef = _big_int(num) if num else 1
            if den:
                coef = quotient(coef, _big_int(den))
            if sign == "-":
                coef = -coef
            ex: dict[int, int] = {}
            for name, e in findall(factors):
                col = names.get(name)
                if col is None:
                    col = name_var(name)
                k = int(e) if e else 1
                if k:
                    ex[col] = ex.get(col, 0) + k
            if ex and max(ex.values()) > MAX_EXPONENT:
                self.too_high(ex, self.tok)
            mono = tuple(sorted(ex.items()))
            acc[mono] = acc.get(mono, 0) + coef

    def term(self, acc: dict) -> None:
        b = self.b
        names = b.names
        t = Term(b.budget)
        ex = t.ex
        start = self.tok
        while True:
            tok = self.tok
            k = tok[0]
            while k == "-" or k == "+":
                if k == "-":
                    t.coef = -t.coef
                self.advance()
                tok = self.tok
                k = tok[0]
            if k == "i":
                self.advance()
                name = tok[1]
                if self.tok[0] != "(" and name not in _SPECIAL_NAMES:
                    col = names.get(name)
                    if col is None:
                        col = b.name_var(name)
                    if self.tok[0] == "^":
                        e = self.exponent()
                        if type(e) is int and e >= 0:
                            if e:
                                ex[col] = ex.get(col, 0) + e
                        else:
                            t.times(self.power({((col, 1),): 1}, e, tok))
                    else:
                        ex[col] = ex.get(col, 0) + 1
                else:
                    t.times(self.after_primary(self.name_primary(tok)))
            elif k == "n":
                self.advance()
                if self.tok[0] == "^":
                    t.times(self.power({(): tok[1]}, self.exponent(), tok))
                else:
                    t.coef = product(t.coef, tok[1])
            else:
                t.times(self.after_primary(self.primary()))
            k = self.tok[0]
            while k == "/":
                slash = self.tok
                self.advance()
                self.divide(t, self.factor(), slash)
                k = self.tok[0]
            if k != "*":
                break
            self.advance()
        if ex and max(ex.values()) > MAX_EXPONENT:
            self.too_high(ex, start)
        t.add_to(acc)

    def too_high(self, ex: dict, tok):
        """The ParseError of a term whose exponent ``ex`` (``{column: exponent}``) is beyond :data:`MAX_EXPONENT`."""
        col = max(ex, key=ex.__getitem__)
        raise self.error(f"{self.b.keys[col]}^{ex[col]:,}: exponents are limited to {MAX_EXPONENT:,}", tok)

    def factor(self) -> dict:
        sign = 1
        k = self.tok[0]
        while k == "-" or k == "+":
            if k == "-":
                sign = -sign
            self.advance()
            k = self.tok[0]
        p = self.after_primary(self.primary())
        if sign < 0:
            p = {m: -c for m, c in p.items()}
        return p

    def after_primary(self, p: dict) -> dict:
        if self.tok[0] == "^":
            caret = self.tok
            return self.power(p, self.exponent(), caret)
        return p

    def exponent(self):
        """After ``^``: an int for a plain integer literal, else the exponent's dict."""
        self.advance()
        tok = self.tok
        if tok[0] == "n" and type(tok[1]) is int:
            self.advance()
            if self.tok[0] != "^":
                return tok[1]
            return self.power({(): tok[1]}, self.exponent(), tok)
        if tok[0] == "^":
            raise self.unexpected()
        return self.factor()

    def power(self, base: dict, e, tok) -> dict:
        if type(e) is not int:
            c = constant(e)
            if type(c) is int:
                e = c
        if type(e) is int and (e >= 0 or constant(base) is not None):
            self._check_power(base, abs(e), tok)
        if type(e) is int and e >= 0:
            return poly_pow(base, e, self.b.budget)
        if type(e) is int:
            e = {(): e}
        if constant(base) == 0 and constant(e) is not None and constant(e) < 0:
            raise self.error("division by zero (0 to a negative power)", tok)
        b = self.b
        return self.piece(lambda: sympy.Pow(b.to_expr(base), b.to_expr(e)), tok)

    def _check_power(self, base: dict, n: int, tok) -> None:
        """A ParseError at ``tok`` when ``base^n`` is beyond the documented limits (before any work)."""
        if n <= 1 or not base:
            return
        top = max((e for m in base for _, e in m), default=0)
        if top * n > MAX_EXPONENT:
            raise self.error(f"^{n} gives an exponent of {top * n:,}: exponents are limited to {MAX_EXPONENT:,}",
                             tok)
        bits = n * max(_bits(sum(abs(c) for c in base.values())), 1)
        if bits > MAX_INTEGER_BITS:
            raise self.error(f"^{n} gives numbers of about 10^{round(bits * 0.30103):,}: numbers are limited to "
                             f"{MAX_INTEGER_BITS:,} bits", tok)
        t = len(base)
        if t > 1 and math.comb(n + t - 1, t - 1) * n * t > MAX_POWER_WORK:
            raise self.error(f"expanding a sum of {t} terms to the power {n} is too much work (up to "
                             f"{math.comb(n + t - 1, t - 1):,} terms): write it unexpanded, e.g. as a product", tok)

    def divide(self, t: Term, d: dict, slash) -> None:
        c = constant(d)
        if c is not None:
            if not c:
                raise self.error("division by zero", slash)
            t.coef = quotient(t.coef, c)
        else:
            b = self.b
            t.times(self.piece(lambda: sympy.Pow(b.to_expr(d), -1), slash))

    def piece(self, build, tok) -> dict:
        """Build a small SymPy piece and classify it with the shared rules."""
        try:
            return self.b.convert(build())
        except ParseError:
            raise
        except (ValueError, TypeError, ArithmeticError, AttributeError) as err:
            raise self.error(str(err), tok) from err

    def primary(self) -> dict:
        tok = self.tok
        k = tok[0]
        if k == "n":
            self.advance()
            return {(): tok[1]} if tok[1] else {}
        if k == "i":
            self.advance()
            return self.name_primary(tok)
        if k == "(":
            self.enter(tok)
            self.advance()
            acc: dict = {}
            self.sum(acc)
            self.close(tok)
            return {m: c for m, c in acc.items() if c}
        raise self.unexpected()

    def enter(self, opening) -> None:
        """One more level of parentheses or call: a ParseError beyond :data:`MAX_NESTING`."""
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise self.error(f"parentheses and calls nested more than {MAX_NESTING} deep", opening)

    def close(self, opening) -> None:
        k = self.tok[0]
        if k == ")":
            self.depth -= 1
            self.advance()
        elif k == "EOF":
            raise self.error("'(' is never closed", opening)
        else:
            raise self.unexpected(after=f" (expected ')' to close the '(' at line {opening[2]})")

    def name_primary(self, tok) -> dict:
        name = tok[1]
        if self.tok[0] == "(":
            opening = self.tok
            self.enter(opening)
            self.advance()
            args = []
            if self.tok[0] != ")":
                while True:
                    acc: dict = {}
                    self.sum(acc)
                    args.append(acc)
                    if self.tok[0] != ",":
                        break
                    self.advance()
            self.close(opening)
            b = self.b
            relation = getattr(sympy, name, None)
            if isinstance(relation, type) and issubclass(relation, Boolean):
                raise self.error(f"{name}(...) is a relation or logical operator (SymPy's {relation.__name__}), "
                                 f"not part of a polynomial", tok)
            func = function_named(name)
            return self.piece(lambda: func(*[b.to_expr(a) for a in args]), tok)
        if name in NOT_FINITE_NAMES:
            raise self.error(f"{name} ({NOT_FINITE_NAMES[name]}) cannot be part of a polynomial", tok)
        if name in CONSTANTS:
            return self.b.convert(CONSTANTS[name])
        return {((self.b.name_var(name), 1),): 1}


def parse_lines(lines: Iterable[str], filename: str, symbols, deadline=None, max_terms: int | None = None
                ) -> Polynomial:
    """Parse ``lines`` (str, newlines optional) as one expression; errors name them ``filename``.

    ``deadline`` (a :class:`~hornermcts.deadline.Deadline`) bounds the time:
    a TimeLimitError naming the line reached when it passes.  ``max_terms``
    bounds the expansions (:class:`~hornermcts.parse.budget.Budget`).
    """
    if deadline is not None and deadline.bounded:
        lines = _timed(lines, filename, deadline)
    builder = Builder(symbols, strict=True, budget=Budget(max_terms, deadline))
    parser = _Parser(lines, filename, builder)
    with paused():  # a tuple per monomial, no cycles: the collector's passes would find nothing
        try:
            acc = parser.parse()
        except RecursionError:
            raise parser.error("expression nested too deeply") from None
        return builder.finish(acc)


def expression_name(lines: Iterable[str], filename: str = "<string>") -> tuple[str, int] | None:
    """The name a leading ``NAME =`` (or FORM's ``Local NAME =``) gives the expression, and its line.

    ``None`` when the text has no such header.  Only the first tokens are
    read (``lines`` may be an open file); the header is what :func:`from_text`
    and :func:`~hornermcts.parse.read_file` skip: it names the expression and
    is not part of it, so ``x = 3`` is the constant 3 named ``x`` (the
    command line says so in its summary).

    >>> expression_name(["Local F =", "  + 32*x1^3*zk^2;"])
    ('F', 1)
    >>> expression_name(["", "x = 3"]), expression_name(["x^2 + y"])
    (('x', 2), None)
    """
    parser = _Parser(lines, filename, Builder(None, strict=True))
    parser._header()
    return parser.name


def from_text(
    text: str, *, name: str = "<string>", symbols: Sequence[sympy.Symbol] | None = None, deadline=None,
    max_terms: int | None = None,
) -> Polynomial:
    """Parse a polynomial written in FORM or SymPy syntax.

    The syntax: numbers (integers of any size, ``2.5``, ``1e-3``, ``1.5E+2``;
    a number with a point or an exponent is a SymPy ``Float``), identifiers
    ``[A-Za-z_][A-Za-z0-9_]*``, ``+ - * /``, ``^`` or ``**`` for powers,
    parentheses, function calls ``f(x, y)``, with Python's precedence
    (``-x^2`` is ``-(x^2)``, ``x^y^z`` is ``x^(y^z)``, ``a/b*c`` is
    ``(a/b)*c``).  Whitespace and newlines may appear between any two tokens,
    so one term may span several lines.  An optional leading ``NAME =`` (or
    FORM's ``Local NAME =``, as FORM prints its expressions) names the
    expression and is not part of it: ``x = 3`` is the constant 3, ``x = y``
    the polynomial ``y`` (:func:`expression_name` reads the name; the command
    line reports it).  There is one expression: a second ``=`` or a second
    statement after ``;`` is an error.  A trailing ``;`` is skipped.  Text
    that is empty or only whitespace is the zero polynomial (no terms, no
    symbols).

    Division by a number is exact (``3/4*x``, ``x/2``); division by anything
    else (``1/z``, ``x/(y + 1)``), a power whose exponent is not a
    non-negative integer (``x^y``, ``x^(1/2)``, ``x^-2``) and every function
    call become opaque pieces by the same rules as :func:`from_sympy`; a
    function call is built with SymPy only for that small piece.  The
    functions a polynomial file may call are SymPy's (:data:`KNOWN_FUNCTIONS`:
    ``sqrt``, ``exp``, ``log``, ``sin`` ... ``atanh``, ``Abs``, ``sign``;
    FORM's ``sqrt_``, ``ln_`` ... map to them); any other name called is an
    undefined function, never evaluated (``factorial(10^7)`` stays as it is).
    As in FORM, the constants are ``pi_`` and ``i_``; every identifier is a
    plain Symbol, ``E`` (an energy), ``I`` (a current) and ``pi`` included, as
    are names SymPy's own parser treats specially (``N``, ``S``, ``beta``).
    Pieces are not simplified against each other: ``sqrt(x)^2`` stays the
    square of the placeholder for ``sqrt(x)``.

    Untrusted text is parsed with bounded work: an exponent of a variable
    above :data:`~hornermcts.polynomial.MAX_EXPONENT` (2^31 - 1), a power of
    numbers beyond :data:`MAX_INTEGER_BITS` (``2^(10^9)``), the expansion of a
    power of a sum beyond :data:`MAX_POWER_WORK` (``(x + 1)^1000000``) and
    parentheses or calls nested deeper than :data:`MAX_NESTING` are
    ParseErrors, found before any of that work is done.  Products and powers
    of sums are expanded under a budget of ``max_terms`` terms
    (:class:`~hornermcts.parse.budget.Budget`): one predicted or found to
    build more, or a reading that multiplies more than 5 monomials per term
    of the budget, is a :class:`~hornermcts.errors.LimitError` naming the
    line; ``deadline`` bounds the time, looked at inside long lines and
    inside the expansions.

    Parameters
    ----------
    text : str
    name : str
        What error messages call the text (a file name, say).
    symbols : sequence of sympy.Symbol, optional
        Column order, as in :func:`from_sympy`; identifiers are matched to
        them by name.
    deadline : Deadline, optional
        A :class:`~hornermcts.deadline.Deadline` (the ``time_limit`` of a
        call): past it, a :class:`~hornermcts.errors.TimeLimitError` naming
        the line reached.
    max_terms : int, optional
        The most terms an expansion may build
        (:data:`~hornermcts.parse.budget.MAX_TERMS`, 1,000,000, by default).

    Raises
    ------
    ParseError
        With ``name:line:column``, the reason and the offending line: illegal
        characters, unbalanced parentheses, dangling operators, ``x^^2``,
        division by zero, ``oo``/``nan``, SymPy's relations and logical
        operators called as functions (``Eq(x, 1)``, ``Lt``, ``And``: not
        part of a polynomial), a second ``=`` or statement.

    Examples
    --------
    >>> p = from_text("Local F = 2*x^2*y\\n  - 3/4*x*y**2 + 1.5e1;")
    >>> p.symbols, p.coefficients
    ((x, y), (2, -3/4, 15.0000000000000))
    >>> from_text("sin(x)*y^2 + 1/z^2 + x^y").opaque
    {_o0: x**y, _o1: 1/z, _o2: sin(x)}
    >>> from_text("   ").n_terms
    0
    >>> from_text("x + (y*2", name="in.txt")
    Traceback (most recent call last):
    ...
    hornermcts.parse.ParseError: in.txt:1:5: '(' is never closed in "x + (y*2"
    """
    if not isinstance(text, str):
        raise TypeError(f"from_text: expected a str, got {type(text).__name__}")
    if text.startswith("\ufeff"):
        text = text[1:]
    return parse_lines(text.split("\n"), name, symbols, deadline, max_terms)
