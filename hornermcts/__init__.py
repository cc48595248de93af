"""hornermcts: fewer operations for huge polynomials.

Finds a multivariate Horner scheme by Monte Carlo Tree Search (UCT, SA-UCT),
eliminates common subexpressions, and returns an exactly equal expression
that needs far fewer operations, with views and evaluation code.

>>> import sympy, hornermcts
>>> x, y, z = sympy.symbols("x y z")
>>> result = hornermcts.optimize(x**3*y**2 + x**2*y + x**3*z, iterations=50, seed=0)
>>> result.before.total, result.after.total
(11, 6)
"""
from .dag import Dag
from .fastcount import FastCounter
from .horner import horner_dag
from .opcount import OpCount, expression_count, original_count, sympy_count_ops
from .optimize import OptimizeResult, optimize
from .options import Options
from .domains.horner_orders import HornerOrderProblem
from .errors import HornerMCTSError, OptionError
from .parse import ParseError, as_polynomial, from_poly, from_sympy, from_text, read_file
from .polynomial import Polynomial
from .sympy_dropins import cse, simplify
from .views import evaluate_dag, to_assignments, to_expression, to_networkx

__version__ = "0.1.0"

__all__ = [
    "optimize",
    "Options",
    "OptimizeResult",
    "HornerMCTSError",
    "OptionError",
    "simplify",
    "cse",
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
