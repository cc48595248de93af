"""The precisions of the generated arithmetic, and the check that a language supports one.

Which precisions a language takes is part of its entry in the registry
(:data:`hornermcts.codegen.languages.REGISTRY`, shown as
:data:`~hornermcts.codegen.languages.PRECISION_SUPPORT`).

>>> check_precision("long double", "c")
>>> check_precision(COMPENSATED, "fortran")   # doctest: +ELLIPSIS
Traceback (most recent call last):
...
hornermcts.errors.OptionError: precision 'compensated' is not supported for fortran code; ...
"""
from __future__ import annotations

from ..errors import OptionError

#: Floating types of the C and Fortran code.
PRECISIONS = ("double", "long double")

#: Double-double arithmetic on double inputs and outputs (see :mod:`hornermcts.codegen.compensated`).
COMPENSATED = "compensated"


def check_precision(precision: str, language: str) -> None:
    """Raise ValueError unless ``language`` supports ``precision`` (its entry in the registry)."""
    # imported here: the registry imports the generators, which call this function
    from .languages import PRECISION_SUPPORT

    if precision not in PRECISION_SUPPORT[language]:
        table = "; ".join(f"{lang}: {', '.join(map(repr, ps))}" for lang, ps in PRECISION_SUPPORT.items())
        raise OptionError(f"precision {precision!r} is not supported for {language} code; "
                         f"the supported precisions are {table}")
