"""Python code of a program (:func:`to_python`), what Python and NumPy code share, and :func:`load_python`.

The generated module holds one function, the ``import`` lines its printer
asked for, and after the function the double-double runtime when the
arithmetic is compensated.  :mod:`hornermcts.codegen.numpy` writes its
vectorised variant with the same pieces.
"""
from __future__ import annotations

from ..collector import paused
from ..errors import OptionError

import re

from sympy.printing.pycode import PythonCodePrinter

from .compensated import PYTHON_RUNTIME, compensate
from .literals import python_literal
from .precision import COMPENSATED, check_precision
from .printing import neg_one, piece_text
from .program import Program


class PythonLiterals:
    """Settings and exact-as-double literals of the Python and NumPy printers (a printer's first base)."""

    def __init__(self):
        super().__init__({"order": "none", "strict": True, "fully_qualified_modules": True})

    def _print_Literal(self, expr):
        return python_literal(expr.value)


class PythonPrinter(PythonLiterals, PythonCodePrinter):
    language_name = "Python"


def python_program(obj, name: str, precision: str, args, language: str) -> Program:
    """The program of a Python-like ``language``, in double-double arithmetic when ``precision`` is compensated."""
    check_precision(precision, language)
    prog = Program(obj, name, args)
    if language != "python" or precision == COMPENSATED:
        prog.refuse_complex("compensated Python" if language == "python" else "NumPy")
    if precision == COMPENSATED:
        compensate(prog)
    return prog


def arithmetic(precision: str) -> str:
    """How the generated code computes, as its docstring says."""
    return "compensated arithmetic (about twice double precision)" if precision == COMPENSATED else "double precision"


def statement_lines(prog: Program, printer, *, free: bool = False) -> tuple[list[str], list[str]]:
    """``local = expression`` per piece and step, and the outputs' expressions; ``free``: ``del`` each temporary
    after its last use."""
    frees = prog.last_uses() if free else {}
    texts, results = prog.texts(python_literal, "(", neg_one(printer), lambda e: piece_text(printer, e))
    body = [f"{sym} = {text}" for sym, text in zip(prog.statement_locals(), texts)]
    if frees:  # NumPy: free each temporary array after its last use
        body = [line for k, statement in enumerate(body) for line in
                ((statement, "del " + ", ".join(sorted(map(str, frees[k])))) if k in frees else (statement,))]
    return body, results


def unpacking_targets(prog: Program) -> str:
    """The inputs' locals as the target list of an unpacking assignment (``a, b`` or ``a,``)."""
    return f"{', '.join(str(loc) for _, loc in prog.inputs)}{',' if prog.n_vars == 1 else ''}"


def function_lines(signature: str, doc: list[str], prologue: list[str], body: list[str],
                   epilogue: list[str]) -> list[str]:
    """A function: ``signature``, the docstring lines and ``body`` indented, ``prologue``/``epilogue`` as given."""
    return [signature] + ["    " + d if d else "" for d in doc] + prologue + ["    " + b for b in body] + epilogue


def module_source(printer, function: list[str], precision: str, imports=()) -> str:
    """The module of ``function``: the imports the printer used (and ``imports``), the runtime if compensated."""
    modules = sorted(printer.module_imports)
    modules += [m for m in imports if m not in modules]
    head = [f"import {m}" for m in modules] + ["", ""] if modules else []
    tail = ["", ""] + PYTHON_RUNTIME.strip("\n").splitlines() if precision == COMPENSATED else []
    return "\n".join(head + function + tail) + "\n"


@paused()  # the program's tuples are freed on return, before the collector would scan them
def to_python(obj, name: str = "f", *, precision: str = "double", args=None) -> str:
    """Python source (``math`` only) of a function evaluating the DAG(s) at one point.

    The module defines ``name(x)``: ``x`` is a sequence of the
    :func:`~hornermcts.codegen.input_symbols`' values (in the order ``args``
    gives, if given); the result is a float (a tuple with several outputs).
    Evaluation is in floating point; coefficients are the nearest doubles
    (integers up to 2**53 stay integers).

    ``precision="compensated"`` evaluates in double-double arithmetic (see
    :mod:`hornermcts.codegen.compensated`): every local is a tuple ``(hi, lo)``, the
    operations are calls of the ``dd_*`` functions written after ``name``
    (``+``, ``-`` and ``*`` only), so ``x`` may also hold NumPy arrays,
    evaluated elementwise (unless an opaque piece calls ``math``).  About
    14 times slower than the plain code on floats.

    >>> import sympy, numpy
    >>> from hornermcts.polynomial import Polynomial
    >>> from hornermcts.dag.horner import horner_dag
    >>> x, y = sympy.symbols("x y")
    >>> dag = horner_dag(Polynomial((x, y), [[2, 1], [1, 0]], [sympy.Rational(1, 3), 1]))
    >>> print(to_python(dag, "g"))   # doctest: +ELLIPSIS
    def g(x):
        ...
        x_, y = (float(v) for v in x)
        return 0.3333333333333333*(x_*(3 + y*x_))
    <BLANKLINE>
    >>> load_python(to_python(dag, "g"))([3, 1])
    6.0
    >>> print(to_python(dag, "g", precision="compensated"))   # doctest: +ELLIPSIS, +NORMALIZE_WHITESPACE
    def g(x):
        ...
        x_, y = (dd_input(v) for v in x)
        return dd_round(dd_mul((0.3333333333333333, 1.850371707708594e-17),
                               dd_mul_d(dd_add_d(dd_two_prod(y, x_), 3), x_)))
    <BLANKLINE>
    <BLANKLINE>
    # compensated arithmetic: a value is a pair (hi, lo), hi + lo (see hornermcts.codegen)
    def dd_input(v):  # an input as a float (or an array of floats): a conversion, not an operation
    ...
    >>> g = load_python(to_python(dag, "g", precision="compensated"))
    >>> g([3, 1]), g([numpy.array([3.0, 0.1]), numpy.array([1.0, 0.2])]).tolist()
    (6.0, [6.0, 0.10066666666666667])
    """
    prog = python_program(obj, name, precision, args, "python")
    compensated = precision == COMPENSATED
    printer = PythonPrinter()
    nv = prog.n_vars
    k_out = prog.output_count
    body, results = statement_lines(prog, printer)
    doc = [f'"""Evaluate the polynomial at one point (generated by hornermcts, {prog.ops} operations).',
           "",
           "Parameters",
           "----------",
           f"x : sequence of {nv} numbers"
           + (", or of arrays (elementwise):" if compensated and not prog.pieces else ":")]
    doc += prog.variable_lines("    x[{index}]  {name}")
    doc += ["",
            "Returns",
            "-------",
            "float" if k_out == 1 else f"tuple of {k_out} floats"]
    if compensated:
        doc += [f"    Evaluation in {arithmetic(precision)};",
                "    a coefficient that is not a double is a pair of doubles."]
    else:
        doc += ["    Evaluation in floating point (Python floats); every coefficient is the",
                "    double nearest to the exact one."]
    doc.append('"""')
    prologue = []
    if nv:
        convert = "dd_input(v)" if compensated else "float(v)"
        prologue.append(f"    {unpacking_targets(prog)} = ({convert} for v in x)")
    epilogue = [f"    return {results[0] if k_out == 1 else '(' + ', '.join(results) + ',)'}"]
    return module_source(printer, function_lines(f"def {name}(x):", doc, prologue, body, epilogue), precision)


def load_python(source: str, name: str | None = None):
    """The function a :func:`to_python` / :func:`~hornermcts.codegen.to_numpy` source defines.

    ``name`` defaults to the first ``def`` in the source.
    """
    if name is None:
        found = re.search(r"^def (\w+)\(", source, re.M)
        if not found:
            raise OptionError("the source defines no function")
        name = found.group(1)
    namespace: dict = {}
    exec(compile(source, f"<hornermcts {name}>", "exec"), namespace)  # noqa: S102
    return namespace[name]
