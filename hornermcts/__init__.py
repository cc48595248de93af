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

The modules live in packages in the order data flows through them (see the
README's layout); a module's former flat path (:data:`MOVED`) still imports
for one release, with a DeprecationWarning.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import types
import warnings
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: Each public name -> the module that defines it, imported when the name is first used.
_HOMES = {
    "optimize": ".pipeline",
    "OptimizeResult": ".pipeline",
    "Options": ".options",
    "HornerMCTSError": ".errors",
    "OptionError": ".errors",
    "horner": ".sympy_dropins",
    "simplify": ".sympy_dropins",
    "cse": ".sympy_dropins",
    "Polynomial": ".polynomial.sparse",
    "as_polynomial": ".parse",
    "from_sympy": ".parse",
    "from_poly": ".parse",
    "from_text": ".parse",
    "read_file": ".parse",
    "ParseError": ".parse",
    "horner_dag": ".dag.horner",
    "Dag": ".dag.graph",
    "FastCounter": ".cost.fast_counter",
    "HornerOrderProblem": ".order.problem",
    "OpCount": ".cost.counting",
    "original_count": ".cost.counting",
    "expression_count": ".cost.counting",
    "sympy_count_ops": ".cost.counting",
    "to_assignments": ".dag.views",
    "to_expression": ".dag.views",
    "to_networkx": ".dag.views",
    "evaluate_dag": ".dag.views",
}

#: Each former module path -> where it lives now: the old path still imports, with a DeprecationWarning,
#: for one release (``hornermcts.polynomial``, ``.dag`` and ``.cli`` are packages now, exporting the same names).
MOVED = {
    "optimize": "pipeline",
    "accuracy": "cost.accuracy",
    "coefficients": "polynomial.coefficients",
    "textio": "polynomial.text",
    "substitution": "rewrites.substitution",
    "factoring": "rewrites.factoring",
    "structure": "order.structure",
    "domains.horner_orders": "order.problem",
    "horner_scheme": "dag.horner",
    "given": "dag.given",
    "greedy": "dag.greedy",
    "views": "dag.views",
    "opcount": "cost.counting",
    "fastcount": "cost.fast_counter",
    "cli_optimize": "cli.optimize",
    "status_line": "cli.status_line",
    "families": "research.families",
    "form": "research.form",
    "experiments": "research.experiments",
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
    from .dag.graph import Dag
    from .order.problem import HornerOrderProblem
    from .errors import HornerMCTSError, OptionError as OptionError  # reachable, not in __all__ (SymPy has them)
    from .cost.fast_counter import FastCounter
    from .dag.horner import horner_dag
    from .cost.counting import OpCount, expression_count, original_count, sympy_count_ops
    from .pipeline import OptimizeResult, optimize
    from .options import Options as Options
    from .parse import ParseError, as_polynomial, from_poly, from_sympy, from_text, read_file
    from .polynomial.sparse import Polynomial
    from .sympy_dropins import cse as cse, horner as horner, simplify as simplify  # reachable, not in __all__
    from .dag.views import evaluate_dag, to_assignments, to_expression, to_networkx


def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use; a submodule (``hornermcts.codegen``) likewise."""
    home = _HOMES.get(name)
    if name == "read_file":  # a large file is read by a compiled kernel: its first compile is announced
        importlib.import_module(".cost.kernels", __name__)
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


class _FormerPath(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports a former module path (a key of :data:`MOVED`) as the module that now lives elsewhere, with a warning.

    Consulted after the ordinary finders, so only paths no file answers reach it.
    """

    def find_spec(self, fullname, path=None, target=None):
        former = fullname.partition(".")[2] if fullname.startswith(f"{__name__}.") else None
        return importlib.util.spec_from_loader(fullname, self) if former in MOVED else None

    def create_module(self, spec):
        former = spec.name.partition(".")[2]
        new = f"{__name__}.{MOVED[former]}"
        warnings.warn(f"{spec.name} moved to {new}; import it from there (the old path goes in the next release)",
                      DeprecationWarning, stacklevel=2)  # warnings skips the import system's frames
        module = importlib.import_module(new)
        if former == "optimize":  # importing it binds the package's name ``optimize``: keep that name callable
            module = _CallableModule(spec.name, module)
        return module

    def exec_module(self, module):
        pass


class _CallableModule(types.ModuleType):
    """``hornermcts.optimize``, the former module: its names, and called, the function ``optimize``.

    Importing a submodule sets the package's attribute of that name, so once
    old code imports ``hornermcts.optimize`` the name ``hornermcts.optimize``
    is this module; calling it calls the function, as before.  It goes with
    the old path.
    """

    def __init__(self, name: str, module: types.ModuleType):
        super().__init__(name, module.__doc__)
        self.__dict__.update({k: v for k, v in vars(module).items() if not k.startswith("__")})

    def __call__(self, *args, **kwargs):
        return self.optimize(*args, **kwargs)


if not any(type(finder).__name__ == "_FormerPath" for finder in sys.meta_path):  # once, even if reloaded
    sys.meta_path.append(_FormerPath())
