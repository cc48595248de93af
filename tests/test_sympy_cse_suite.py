"""SymPy's own ``test_cse.py`` run against :func:`hornermcts.cse` (issue 13).

The installed SymPy's ``sympy/simplify/tests/test_cse.py`` is loaded at test
time, unmodified (nothing of it is copied here), its module-level ``cse``
pointed at ``hornermcts.cse``, and each of its ``test_*`` functions is one
test here:

* a test passes as it does with ``sympy.cse``;
* :data:`SHAPE_ONLY` lists the tests that assert the specific form SymPy's
  own optimization produces, each with the reason ours differs: their own
  assertions are expected to fail (an AssertionError, or ``raises``'
  "DID NOT RAISE"), never with another exception;
* SymPy's ``@XFAIL`` tests (``sympy.cse`` fails them too) are run without
  the decorator and follow the same rule (one that passes with ours passes).

Whatever the outcome, every ``cse`` call a test makes is checked exact: the
replacements substituted back give expressions equal to the inputs, and
ours raises only where ``sympy.cse`` raises too.  A listed test stops at its
first failing assertion, so for it the calls it makes when run with
``sympy.cse`` are replayed through ours and checked as well.
"""
from __future__ import annotations

import functools
import importlib.util
import inspect
import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest
import sympy
import sympy.testing.pytest as sympy_pytest

import hornermcts
from helpers.emitted_ops import count_sympy, total

SYMPY_TESTS = Path(sympy.__file__).parent / "simplify" / "tests" / "test_cse.py"
if not SYMPY_TESTS.exists():
    pytest.skip(f"this SymPy ({sympy.__version__}) is installed without its tests", allow_module_level=True)

#: Tests of SymPy's file asserting the form SymPy's own optimization gives, and why ours differs.
#: Since the expression front end (hornermcts.expression) what repeats inside function
#: arguments, square roots and divisions is shared with the rest; ours still ignores
#: ``optimizations`` (the Horner + CSE optimization replaces SymPy's).
SHAPE_ONLY = {
    "test_subtraction_opt": "asserts the forms of SymPy's sub_pre/sub_post optimizations "
                            "(x0 = (x - y)*(y - z), with exp(-x0)) and that n/x/(-n)**2 - 1/n/x "
                            "cancels to 0; ours ignores optimizations, keeps exp(...) and 1/(...) whole "
                            "and does not cancel rational functions",
    "test_multiple_expressions": "[(x - z)*(y - z), x - z, y - z]: ours shares x - z and z - y "
                                 "(2 temporaries) where SymPy names -z, x - z and y - z; "
                                 "[w*y + w + x + y + z, w*x*y]: ours writes w*(y + 1), SymPy shares w*y",
    "test_issue_4498": "optimizations='basic' combines w/(x - y) + z/(y - x) into (w - z)/(x - y); "
                       "ours keeps 1/(x - y) and 1/(-x + y) as pieces",
    "test_issue_4020": "asserts the form of optimizations='basic', x0*(x**3 + x + x0 + 1) with x0 = x**2; "
                       "ours gives the Horner form x**2*(x*(x*(x + 1) + 1) + 1)",
    "test_issue_4203": "x**x inside sin(x**x) is not shared with 1/x**x",
    "test_pow_invpow": "x**2 inside sin, cos, exp and 1/x**2 is not shared: ours computes 1/x**2 "
                       "as its own piece where SymPy writes 1/x0 with x0 = x**2",
    "test_unevaluated_mul": "(x + y)*(x + y) is, to the optimizer, the square of the new variable x + y "
                            "(hornermcts.rewrites.substitution), used once and so written inline: ([], [(x + y)**2]), "
                            "2 operations as SymPy's ([(x0, x + y)], [x0**2])",
    "test_cse_release_variables": "the sign is normalized, x0 = -x - y + 1 squared: substituted back it "
                                  "gives (-x - y + 1)**2, equal to the input (x + y - 1)**2 but not "
                                  "the same tree, which the test compares with ==",
}

#: What a test's own assertion raises when it fails.
ASSERTION_FAILED = (AssertionError, sympy_pytest.Failed)


def load_sympy_tests():
    """SymPy's test_cse.py as a module of its own (not in ``sys.modules``)."""
    spec = importlib.util.spec_from_file_location("sympy_installed_test_cse", SYMPY_TESTS)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SUITE = load_sympy_tests()
NAMES = [name for name, value in vars(SUITE).items() if name.startswith("test_") and callable(value)]
SIGNATURE = inspect.signature(sympy.cse)
#: Ours as the tests call it: 30 orders per search (the default scores 1000) keeps the suite at
#: seconds; what the tests assert (exactness, the shape of the answer) does not depend on it.
OURS = functools.partial(hornermcts.cse, iterations=30)


#: The code of every wrapper SymPy's own ``XFAIL`` decorator makes (under pytest it is pytest's mark instead).
XFAIL_WRAPPER = sympy_pytest.XFAIL(lambda: None).__code__


def sympy_xfail(function) -> bool:
    """True for a test SymPy marks ``@XFAIL``."""
    marked = any(mark.name == "xfail" for mark in getattr(function, "pytestmark", []))
    return marked or function.__code__ is XFAIL_WRAPPER


class Call:
    """One ``cse`` call of a test, with its arguments by name, replayable."""

    def __init__(self, args, kwargs):
        bound = SIGNATURE.bind(*args, **kwargs)
        bound.apply_defaults()
        self.arguments = dict(bound.arguments)

    def replay(self, **changes) -> dict:
        """The arguments (with ``changes``) for one more call; an iterator is teed, so each call reads it all."""
        arguments = dict(self.arguments, **changes)
        for key, value in self.arguments.items():
            if isinstance(value, Iterator) and key not in changes:  # reversed(l), numbered_symbols(...)
                self.arguments[key], arguments[key] = itertools.tee(value)
        return arguments

    def __repr__(self) -> str:
        return f"cse({', '.join(f'{k}={v!r}' for k, v in self.arguments.items())})"


class Recorder:
    """A ``cse`` that records each call and hands it to ``implementation``."""

    def __init__(self, implementation):
        self.implementation = implementation
        self.calls: list[Call] = []

    def __call__(self, *args, **kwargs):
        call = Call(args, kwargs)
        self.calls.append(call)
        return self.implementation(**call.replay())


def run(function, monkeypatch, implementation):
    """Run one of SymPy's tests with its ``cse`` recorded: ``(calls, exception or None)``."""
    recorder = Recorder(implementation)
    with monkeypatch.context() as patch:
        patch.setattr(SUITE, "cse", recorder)
        try:
            function()
        except (Exception, sympy_pytest.Failed) as error:  # a failing assertion, or an incompatibility
            return recorder.calls, error
    return recorder.calls, None


def inputs(exprs, listed: bool):
    """``(exprs to give, [input expression, ...])`` as ``cse`` reads them, with ``list=True``."""
    if isinstance(exprs, str):
        exprs = sympy.sympify(exprs)  # text of SymPy's own test file
    if isinstance(exprs, dict):
        exprs = [*exprs.values()] if not listed else [*exprs]  # SymPy iterates a dict's keys
    if isinstance(exprs, (set, frozenset)):
        exprs = sorted(exprs, key=sympy.default_sort_key)
    if isinstance(exprs, (int, float, sympy.Basic, sympy.MatrixBase)):
        exprs = [exprs]
    items = [*exprs]
    return items, [item if isinstance(item, sympy.MatrixBase) else sympy.sympify(item) for item in items]


def substituted_back(expr, replacements):
    """``expr`` with the temporaries replaced by what they stand for, the last defined first."""
    for symbol, value in reversed(replacements):
        expr = expr.xreplace({symbol: value})
    return expr


def equal(got, want) -> bool:
    """Exactly equal: the same tree, or a difference that expands (or simplifies) to zero."""
    if got == want:
        return True
    if isinstance(got, sympy.MatrixBase) and isinstance(want, sympy.MatrixBase):
        return got.shape == want.shape and all(equal(g, w) for g, w in zip(got, want))
    if isinstance(got, sympy.MatrixExpr) or isinstance(want, sympy.MatrixExpr):
        values = got.doit(), want.doit()  # explicit matrices multiplied out, MatMul(MatMul(A)) -> A
        if values != (got, want):
            return equal(*values)
        return bool((got - want).doit().is_ZeroMatrix)
    if isinstance(want, (sympy.Tuple, tuple, list)):
        return len(got) == len(want) and all(equal(g, w) for g, w in zip(got, want))
    if isinstance(want, sympy.Expr) and isinstance(got, sympy.Expr):
        difference = got - want
        return sympy.expand(difference) == 0 or sympy.simplify(difference) == 0
    return sympy.simplify(got) == sympy.simplify(want)


def check_exact(call: Call, cse=OURS):
    """Our answer (``cse``'s) to ``call``, with no postprocess and a list, reconstructs every input exactly.

    Where ours raises, ``sympy.cse`` must raise an error of which ours is a kind.
    """
    given, expected = inputs(call.replay()["exprs"], call.arguments["list"])
    try:
        replacements, reduced = cse(**call.replay(exprs=given, postprocess=None, list=True))
    except Exception as ours:
        try:
            sympy.cse(**call.replay(exprs=given, postprocess=None, list=True))
        except Exception as theirs:
            assert isinstance(ours, type(theirs)), (call, ours, theirs)
            return
        raise AssertionError(f"{call}: hornermcts.cse raises {ours!r}, sympy.cse does not") from ours
    assert len(reduced) == len(expected), call
    for got, want in zip(reduced, expected):
        assert equal(substituted_back(got, replacements), want), (call, replacements, got, want)
    if all(isinstance(e, sympy.Expr) for e in expected):  # never more operations than sympy.cse's answer
        theirs = sympy.cse(**call.replay(exprs=given, postprocess=None, list=True))
        ours_count = total(count_sympy(replacements, [sympy.sympify(e) for e in reduced]))
        assert ours_count <= total(count_sympy(theirs[0], [sympy.sympify(e) for e in theirs[1]])), (call, replacements,
                                                                                          reduced, theirs)


@pytest.mark.parametrize("name", NAMES)
def test_sympys_cse_test_with_our_cse(name, monkeypatch):
    function = getattr(SUITE, name)
    expected_failure = SHAPE_ONLY.get(name) or ("SymPy marks it XFAIL (sympy.cse fails it too)"
                                                if sympy_xfail(function) else None)
    function = inspect.unwrap(function)  # SymPy's XFAIL wrapper would hide what failed
    calls, error = run(function, monkeypatch, OURS)
    if error is not None and not (expected_failure and isinstance(error, ASSERTION_FAILED)):
        raise error
    if name in SHAPE_ONLY:
        assert error is not None, f"{name} passes with hornermcts.cse now: remove it from SHAPE_ONLY"
        theirs, their_error = run(function, monkeypatch, sympy.cse)
        assert their_error is None, f"{name} fails with sympy.cse itself: {their_error!r}"
        calls += theirs
    for call in calls:
        check_exact(call)
    if error is not None:
        pytest.xfail(f"{expected_failure} (every result checked exact)")


def test_the_shape_only_list_names_tests_of_the_installed_file():
    assert set(SHAPE_ONLY) <= set(NAMES), sorted(set(SHAPE_ONLY) - set(NAMES))
    assert not any(sympy_xfail(getattr(SUITE, name)) for name in SHAPE_ONLY)


def test_the_exactness_check_catches_a_wrong_answer_and_a_raise():
    x, y = sympy.symbols("x y")
    x0 = sympy.Symbol("x0")
    call = Call([x**2 + 2*x*y + y**2], {})
    check_exact(call)
    with pytest.raises(AssertionError):
        check_exact(call, cse=lambda exprs, **_: ([(x0, x + y)], [x0**2 + 1]))
    with pytest.raises(AssertionError, match="sympy.cse does not"):
        check_exact(call, cse=lambda exprs, **_: 1 / 0)
