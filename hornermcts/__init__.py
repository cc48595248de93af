"""hornermcts: fewer operations for huge polynomials.

Finds a multivariate Horner scheme by Monte Carlo Tree Search (UCT, SA-UCT),
eliminates common subexpressions, and returns an exactly equal expression
that needs far fewer operations, with views and evaluation code.

>>> import sympy, hornermcts
>>> x, y, z = sympy.symbols("x y z")
>>> result = hornermcts.optimize(x**3*y**2 + x**2*y + x**3*z, iterations=50, seed=0)
>>> result.before.total, result.after.total
(11, 6)
>>> hornermcts.horner(x**3*y**2 + x**2*y + x**3*z, iterations=50, seed=0)
x**2*(x*(y**2 + z) + y)

The names below are imported on first use (PEP 562), so ``import hornermcts``
and the command line start without SymPy and Numba (about a second of
imports), which load when a name that needs them is first touched.
Names SymPy has too are reachable but not in ``__all__``, so ``from sympy
import *; from hornermcts import *`` leaves every SymPy name alone:
``hornermcts.horner``, ``hornermcts.Options``, ``hornermcts.OptionError``,
``hornermcts.cse`` and ``hornermcts.simplify`` (the former name of
:func:`horner`).
"""
from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: Each public name -> the module that defines it, imported when the name is first used.
_HOMES = {
    "optimize": ".optimize",
    "OptimizeResult": ".optimize",
    "Options": ".options",
    "HornerMCTSError": ".errors",
    "OptionError": ".errors",
    "horner": ".sympy_dropins",
    "simplify": ".sympy_dropins",
    "cse": ".sympy_dropins",
    "Polynomial": ".polynomial",
    "as_polynomial": ".parse",
    "from_sympy": ".parse",
    "from_poly": ".parse",
    "from_text": ".parse",
    "read_file": ".parse",
    "ParseError": ".parse",
    "horner_dag": ".horner_scheme",
    "Dag": ".dag",
    "FastCounter": ".fastcount",
    "HornerOrderProblem": ".domains.horner_orders",
    "OpCount": ".opcount",
    "original_count": ".opcount",
    "expression_count": ".opcount",
    "sympy_count_ops": ".opcount",
    "to_assignments": ".views",
    "to_expression": ".views",
    "to_networkx": ".views",
    "evaluate_dag": ".views",
}

__all__ = [
    "optimize",
    "OptimizeResult",
    "HornerMCTSError",
    "Polynomial",
    "as_polynomial",
    "from_sympy",
    "from_poly",
    "from_text",
    "read_file",
    "ParseError",
    "horner_dag",
    "Dag",
    "FastCounter",
    "HornerOrderProblem",
    "OpCount",
    "original_count",
    "expression_count",
    "sympy_count_ops",
    "to_assignments",
    "to_expression",
    "to_networkx",
    "evaluate_dag",
]

if TYPE_CHECKING:  # what the names are, for type checkers and editors
    from .dag import Dag
    from .domains.horner_orders import HornerOrderProblem
    from .errors import HornerMCTSError, OptionError as OptionError  # reachable, not in __all__ (SymPy has them)
    from .fastcount import FastCounter
    from .horner_scheme import horner_dag
    from .opcount import OpCount, expression_count, original_count, sympy_count_ops
    from .optimize import OptimizeResult, optimize
    from .options import Options as Options
    from .parse import ParseError, as_polynomial, from_poly, from_sympy, from_text, read_file
    from .polynomial import Polynomial
    from .sympy_dropins import cse as cse, horner as horner, simplify as simplify  # reachable, not in __all__
    from .views import evaluate_dag, to_assignments, to_expression, to_networkx


def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use; a submodule (``hornermcts.codegen``) likewise."""
    home = _HOMES.get(name)
    if home is not None:
        value = getattr(importlib.import_module(home, __name__), name)
    elif not name.startswith("_") and importlib.util.find_spec(f"{__name__}.{name}") is not None:
        value = importlib.import_module(f".{name}", __name__)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})


class _Package(types.ModuleType):
    """The package's module type: the function ``optimize`` keeps its name when its module loads.

    Loading the submodule ``hornermcts.optimize`` makes the import system set
    the package's attribute ``optimize`` to that module; the public name is
    the function of the same name inside it, so that is what is bound.
    """

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, types.ModuleType) and _HOMES.get(name) == f".{name}":
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
