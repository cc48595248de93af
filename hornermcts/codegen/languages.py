"""The registry of languages: each language's generator, file suffix and precisions, and :func:`emit`.

Adding a language is one module (its generator, ``to_<language>(obj, name,
*, precision=..., ...) -> str``, which checks ``precision`` with
:func:`~hornermcts.codegen.precision.check_precision`) and one entry in
:data:`REGISTRY`; :data:`LANGUAGES`, :data:`PRECISION_SUPPORT`, :func:`emit`
and the precision errors follow from it.

>>> REGISTRY["fortran"].suffix, REGISTRY["fortran"].precisions
('.f90', ('double', 'long double'))
"""
from __future__ import annotations

from ..errors import OptionError

from typing import Callable, NamedTuple

from .c import to_c
from .fortran import to_fortran
from .numpy import to_numpy
from .precision import COMPENSATED
from .python import to_python


class Language(NamedTuple):
    """A language code is generated in."""

    #: ``generate(obj, name, **options)``: the source code.
    generate: Callable[..., str]
    #: The usual suffix of a file holding the code.
    suffix: str
    #: The ``precision`` values the generator accepts.
    precisions: tuple[str, ...]


#: Every language :func:`emit` writes, by name.
REGISTRY: dict[str, Language] = {
    "c": Language(to_c, ".c", ("double", "long double", COMPENSATED)),
    "python": Language(to_python, ".py", ("double", COMPENSATED)),
    "numpy": Language(to_numpy, ".py", ("double", COMPENSATED)),
    "fortran": Language(to_fortran, ".f90", ("double", "long double")),
}

#: Languages :func:`emit` knows, each with its generator.
LANGUAGES = tuple(REGISTRY)

#: The ``precision`` values each language accepts.
PRECISION_SUPPORT = {name: language.precisions for name, language in REGISTRY.items()}


def emit(obj, language: str, name: str = "f", **options) -> str:
    """Source code in ``language`` (one of :data:`LANGUAGES`): dispatches to ``to_<language>``.

    ``options`` go to the generator, e.g. ``precision`` (the values each
    language takes: :data:`PRECISION_SUPPORT`; "compensated" for C, Python
    and NumPy, a ValueError for Fortran).

    >>> import sympy
    >>> from hornermcts.polynomial import Polynomial
    >>> from hornermcts.dag.horner import horner_dag
    >>> x = sympy.Symbol("x")
    >>> dag = horner_dag(Polynomial((x,), [[2], [0]], [1, 1]))
    >>> emit(dag, "python").splitlines()[-1]
    '    return 1 + x__2'
    >>> emit(dag, "numpy", precision="compensated").count("dd_add_d(")  # defined, used by dd_div, and 1 + x**2
    3
    """
    if language not in REGISTRY:
        raise OptionError(f"language must be one of {LANGUAGES}, not {language!r}")
    return REGISTRY[language].generate(obj, name, **options)
