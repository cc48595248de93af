"""The expression as written: the front end for SymPy users' expressions.

Equations of motion, Jacobians and pose matrices are products of sums,
``sin``/``cos``/``exp``/``Abs`` and divisions; expanding them destroys the
structure (a gait-model row of 4,264 operations as written expands to
132,542 terms).  So they are optimized as written:

1. :func:`~hornermcts.expression.regions.regions`: the expression DAG is
   cut into small polynomials (units) over atoms: symbols, function calls,
   reciprocals, sums kept whole; a product of sums is expanded only where
   it pays (:func:`~hornermcts.expression.optimize.optimize_written`
   decides by cost, and expansion is bounded by the input's size);
2. every unit is optimized together, as one multi-output polynomial, by
   :func:`hornermcts.optimize` (one Horner order, common subexpressions and
   greedy patterns shared across all units, through function arguments,
   square roots and divisions, and across all outputs);
3. :mod:`~hornermcts.expression.assemble`: the units' assignments, the
   calls and the reciprocals in one evaluation order, the ``sympy.cse``
   shape;
4. :mod:`~hornermcts.expression.sharing`: what the units' schemes wrote in
   different shapes, shared over the assembled statements: values up to
   sign and scale (:mod:`~hornermcts.expression.numbering`), sums inside
   sums (:mod:`~hornermcts.expression.subsums`), common factors
   (:mod:`~hornermcts.expression.common_factors`).
"""
from .written import WrittenResult, optimize_written
from .regions import Regions, regions

__all__ = ["Regions", "regions", "WrittenResult", "optimize_written"]
