"""The options of :func:`~hornermcts.pipeline.optimize`: one validated, documented object.

:class:`Options` is the single place where an option is named, given its
default, checked and described: ``optimize`` takes it (or its fields as
keywords), the command line derives its flags from it
(:func:`add_arguments`), sweeps take their defaults from it, and the SymPy
drop-ins pass their keywords through it.  Presets are lists of stages
(:data:`PRESETS`), like FORM's levels O1..O4.

Examples
--------
>>> options = Options(iterations=200, seed=3)
>>> options.stages
('mcts', 'anneal', 'greedy')
>>> options.replace(preset="mcts", greedy=False).stages
('mcts',)
>>> Options(cp=-1)
Traceback (most recent call last):
...
hornermcts.errors.OptionError: cp must be a finite number >= 0, got -1
"""
from __future__ import annotations

import argparse
import dataclasses
import math
import numbers
from dataclasses import dataclass, field
from typing import Any, Callable

from .errors import OptionError
from .search.arguments import finite, integer, seconds

__all__ = ["Options", "PRESETS", "STAGES", "SCHEDULES", "DIRECTIONS", "SCHEME_DIRECTIONS", "MAX_TERMS", "add_arguments",
           "from_arguments"]

#: The stages a preset can list, in the order they run: the order searches
#: (MCTS, simulated annealing), then the greedy step on the best candidates.
STAGES = ("mcts", "anneal", "greedy")

#: Presets, each a list of stages.  ``fast`` is FORM's O1 (occurrence order
#: + CSE), ``greedy`` O2 (+ greedy), ``mcts`` O3 (MCTS + greedy), ``anneal``
#: O4 (annealing over orders + greedy); ``default`` runs MCTS, refines its best
#: order by low-temperature annealing (once more from the best splitting order,
#: :mod:`~hornermcts.order.splitting`, when that is better), and applies the
#: greedy step: the best counts for the time (``benchmarks/optimizer_vs_form.py``,
#: ``benchmarks/suite.py``).
PRESETS = {
    "fast": (),
    "greedy": ("greedy",),
    "mcts": ("mcts", "greedy"),
    "anneal": ("anneal", "greedy"),
    "default": ("mcts", "anneal", "greedy"),
}

#: Selection schedules by name: the SA-UCT linear cooling, plain UCT, exponential.
SCHEDULES = {"sa-uct": "linear", "uct": "constant", "exponential": "exponential"}

#: The two directions a Horner scheme is built in (:class:`~hornermcts.order.problem.HornerOrderProblem`).
SCHEME_DIRECTIONS = ("forward", "backward")

#: Directions of the Horner-scheme construction MCTS can search ("both" runs the two).
DIRECTIONS = (*SCHEME_DIRECTIONS, "both")

#: Default of ``max_terms``: the most terms one expansion of the input (a
#: product or a power of sums) may build while it is read
#: (:mod:`hornermcts.parse.budget`).  About 1 GB of sparse terms; res(8,6)
#: has 114,080 terms, ``(a0+...+a19)^3*(b0+...+b19)^2`` expands to 323,401
#: in 4.5 s.
MAX_TERMS = 1_000_000


def _option(default: Any, help: str, *, flag: str | None = None, choices=None, cli: bool = True,
            metavar: str | tuple | None = None) -> Any:
    """A field of :class:`Options` with what the command line needs to offer it."""
    return field(default=default, metadata={"help": help, "flag": flag, "choices": choices, "cli": cli,
                                             "metavar": metavar})


@dataclass(frozen=True)
class Options:
    """How :func:`~hornermcts.pipeline.optimize` searches (every field is validated on creation).

    Attributes
    ----------
    preset : {"default", "fast", "greedy", "mcts", "anneal"}
        Which stages run (see :data:`PRESETS`): ``"fast"`` the occurrence
        order + CSE (FORM O1), ``"greedy"`` + greedy (O2), ``"mcts"`` MCTS +
        greedy (O3), ``"anneal"`` simulated annealing over orders + greedy
        (O4), ``"default"`` MCTS, then annealing from its best order (and
        from the best splitting order when that is better), + greedy.
    iterations : int or None, default 1000
        Orders scored per search: MCTS iterations (per direction and
        restart) and annealing steps (per restart).  0 skips the searches;
        ``None`` needs a ``time_limit``.  On very many variables (beyond
        about 100) the searches score fewer: at most
        :data:`~hornermcts.pipeline.ORDER_ENTRIES` orders times variables together.
    cp : float, default 1.0
        MCTS exploration constant Cp (SA-UCT: the initial temperature), in
        units of the reward ``input operations / operations``: the upper end
        of SA-UCT's measured region of good Cp on HEP(sigma) at N=1000,
        [0.32, 1.0] (``benchmarks/results/cp_sweep_hep_sigma.txt``).
    schedule : {"sa-uct", "uct", "exponential"} or callable
        SA-UCT's linear cooling ``T(i) = Cp (N - i) / N`` (default), constant
        ``Cp`` (UCT), exponential cooling, or a callable ``T(i, n)``.
    direction : {"forward", "backward", "both"}
        MCTS builds schemes outermost-first, innermost-first, or runs both.
    repeats : int, default 2
        Independent restarts of each search, each with its own random
        stream; the best is kept.  Two by default: the restarts are the
        work the cores share (``workers``), and the result must not depend
        on how many there are, so the amount of work is fixed; on two cores
        two restarts take less wall time than one did on one core (HEP(sigma):
        one restart 1.8 s, two on one core 2.5 s, on two cores 1.4 s; seeds
        0-5 give 3314-3322 operations with one restart, 3315-3323 with two,
        medians 3317 and 3315.5).  Annealing runs at
        least ``repeats`` times, plus once per ``variables_per_restart``
        variables beyond ``anneal_one_run_up_to``.
    workers : int or None, default None
        Processes the restarts run on (:func:`~hornermcts.search.parallel.fork_map`;
        None: every core).  Every restart has its own random stream, so the
        result is the same for any number of workers.
    seed : int or None, default 0
        Makes the searches reproducible (iteration budgets only): by default
        every call on the same input gives the same result, as
        ``sympy.cse`` does.  ``None`` draws a fresh seed each call (the one
        drawn is in ``result.options["seed"]``); another integer gives
        another reproducible search.
    time_limit : float or None
        Seconds for the whole call (:class:`~hornermcts.deadline.Deadline`):
        the searches share the time the screening of their best orders
        leaves them, the greedy passes stop when it runs out, and the best
        result so far is returned (also on Ctrl-C).  What must run for any
        answer (reading the input, one Horner DAG) runs to its end, so a
        limit shorter than that is exceeded by it.
    max_terms : int, default :data:`MAX_TERMS` (1,000,000)
        The most terms expanding a product or power of sums in the input may
        build while it is read (:mod:`hornermcts.parse.budget`): a product
        predicted or found to build more, or a reading that multiplies more
        than 5 monomials per term of it, is refused with a
        :class:`~hornermcts.errors.LimitError` naming the line, before it
        can exhaust memory.  It also bounds the input's dense exponent matrix:
        30 cells (terms x variables) per term of it
        (:data:`~hornermcts.polynomial.MAX_CELLS` at the default), so a file
        of 10 million terms in 20 variables needs ``max_terms=7_000_000``
        or more.  Inputs given as a ``Polynomial`` are not read.
    greedy : bool or None
        Override the preset: ``False`` keeps Horner + CSE only (the setting
        of the SA-UCT paper's experiments), ``True`` adds the greedy step.
    factor : bool, default True
        Factor the input first (:mod:`hornermcts.rewrites.factoring`, python-flint):
        when it is a product of at least two polynomials, optimize each
        factor and multiply, unless the input optimized whole is cheaper.
        One output only; inexact coefficients are not factored.
    substitute : bool, default True
        Look for new variables first (:mod:`hornermcts.rewrites.substitution`,
        python-flint): sums and differences of the input's variables in
        which the polynomial has fewer terms (HEP(sigma): 5,717 terms to
        873), kept when the quick Horner + CSE count says they pay.
        Exact coefficients and plain variables only.
    candidates : int, default 5
        How many of the best distinct orders found get a greedy pass (FORM's
        O3 does the same); the best of them wins.
    greedy_rounds : int, default 3
        Greedy passes given to the winning candidate (the first one screens
        the candidates).
    anneal_from_scratch, anneal_refine : (float, float)
        Annealing's start and end temperatures, as fractions of the starting
        order's operations: from scratch (``(0.1, 0.0005)``), and as
        refinement after MCTS (``(0.02, 0.0005)``), measured on HEP(sigma)
        and res(7,5).
    anneal_one_run_up_to, variables_per_restart : int, default 15 and 10
        Annealing restarts grow with the searched variables: one run up to
        ``anneal_one_run_up_to`` variables, one more per
        ``variables_per_restart`` beyond (many variables make the order
        landscape rugged; measured on structured(30,6000,1), where one or two
        runs left some seeds above FORM O4).
    """

    preset: str = _option("default", "stages to run: fast (O1), greedy (O2), mcts (O3), anneal (O4), "
                          "default (MCTS, then annealing, + greedy)", choices=tuple(PRESETS))
    iterations: int | None = _option(1000, "orders scored per search: MCTS iterations and annealing steps "
                                     "(0: occurrence order only)", flag="-n/--iterations")
    cp: float = _option(1.0, "exploration constant Cp (SA-UCT: the initial temperature)")
    schedule: str | Callable = _option("sa-uct", "selection schedule", choices=tuple(SCHEDULES))
    direction: str = _option("forward", "Horner scheme construction", choices=DIRECTIONS)
    repeats: int = _option(2, "independent restarts of each search, on the cores the workers give")
    workers: int | None = _option(None, "processes the restarts run on (default: every core); "
                                  "the result does not depend on it")
    seed: int | None = _option(0, "random seed: the same result every run; another seed, another search")
    time_limit: float | None = _option(None, "seconds for the whole run; the best so far is kept", metavar="SECONDS")
    max_terms: int = _option(MAX_TERMS, "most terms expanding a product or power of the input may build (and 30 "
                                        "exponent cells, terms x variables, per term: the input's size)")
    greedy: bool | None = _option(None, "greedy step", cli=False)
    factor: bool = _option(True, "factor the input first and optimize its factors", cli=False)
    substitute: bool = _option(True, "look for sums and differences of the variables that shorten the input",
                               cli=False)
    candidates: int = _option(5, "best distinct orders given a greedy pass")
    greedy_rounds: int = _option(3, "greedy passes given to the winning candidate")
    anneal_from_scratch: tuple = _option((0.1, 0.0005), "annealing temperatures from scratch, as fractions "
                                         "of the starting operations", metavar=("T_START", "T_END"))
    anneal_refine: tuple = _option((0.02, 0.0005), "annealing temperatures after MCTS, as fractions of the "
                                   "starting operations", metavar=("T_START", "T_END"))
    anneal_one_run_up_to: int = _option(15, "variables up to which annealing runs once")
    variables_per_restart: int = _option(10, "one more annealing run per this many variables beyond")

    def __post_init__(self) -> None:
        if self.preset not in PRESETS:
            raise OptionError(f"preset must be one of {sorted(PRESETS)}, not {self.preset!r}")
        if self.greedy not in (None, True, False):
            raise OptionError(f"greedy must be None (the preset decides), True or False, not {self.greedy!r}")
        for name in ("factor", "substitute"):
            if getattr(self, name) not in (True, False):
                raise OptionError(f"{name} must be True or False, not {getattr(self, name)!r}")
        integer("iterations", self.iterations, minimum=0, optional=True)
        seconds("time_limit", self.time_limit)
        integer("max_terms", self.max_terms, minimum=1)
        if self.iterations is None and self.time_limit is None:
            raise OptionError("give iterations, time_limit or both")
        finite("cp", self.cp, minimum=0)
        if not callable(self.schedule) and self.schedule not in SCHEDULES:
            raise OptionError(f"schedule must be one of {sorted(SCHEDULES)} or a callable T(i, n), "
                              f"not {self.schedule!r}")
        if self.direction not in DIRECTIONS:
            raise OptionError(f"direction must be 'forward', 'backward' or 'both', not {self.direction!r}")
        integer("repeats", self.repeats, minimum=1)
        integer("workers", self.workers, minimum=1, optional=True)
        integer("seed", self.seed, minimum=0, optional=True)
        integer("candidates", self.candidates, minimum=1)
        integer("greedy_rounds", self.greedy_rounds, minimum=1)
        integer("anneal_one_run_up_to", self.anneal_one_run_up_to, minimum=0)
        integer("variables_per_restart", self.variables_per_restart, minimum=1)
        for name in ("anneal_from_scratch", "anneal_refine"):
            pair = getattr(self, name)
            if not (isinstance(pair, (tuple, list)) and len(pair) == 2 and all(_real(t) and t > 0 for t in pair)
                    and pair[1] <= pair[0]):
                raise OptionError(f"{name} must be two temperatures 0 < end <= start, not {pair!r}")
            object.__setattr__(self, name, (float(pair[0]), float(pair[1])))

    @property
    def stages(self) -> tuple:
        """The stages that run: the preset's, with ``greedy`` added or removed by the override."""
        stages = tuple(s for s in PRESETS[self.preset] if s != "greedy")
        use_greedy = "greedy" in PRESETS[self.preset] if self.greedy is None else self.greedy
        return stages + (("greedy",) if use_greedy else ())

    @property
    def selection_schedule(self) -> str | Callable:
        """The search core's name of :attr:`schedule` (or the callable itself)."""
        return self.schedule if callable(self.schedule) else SCHEDULES[self.schedule]

    def replace(self, **changes: Any) -> "Options":
        """A copy with ``changes`` applied (validated again)."""
        return make(self, **changes)

    def as_dict(self) -> dict:
        """The options as a plain dict (what ``result.options`` records)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}


def make(options: "Options | None" = None, **changes: Any) -> Options:
    """``options`` (default: :class:`Options()`) with ``changes``; a TypeError names an unknown option."""
    names = [f.name for f in dataclasses.fields(Options)]
    unknown = sorted(set(changes) - set(names))
    if unknown:
        raise TypeError(f"unknown option(s) {', '.join(unknown)}; the options are {', '.join(names)}")
    if options is None:
        return Options(**changes)
    if not isinstance(options, Options):
        raise TypeError(f"options must be a hornermcts.Options, not {type(options).__name__}")
    return dataclasses.replace(options, **changes) if changes else options


def _real(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool) and math.isfinite(value)


# ----------------------------------------------------------- command line
def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add one flag per option (its default, choices and help from :class:`Options`) to ``parser``.

    Examples
    --------
    >>> parser = argparse.ArgumentParser()
    >>> add_arguments(parser)
    >>> argv = ["-n", "50", "--no-greedy", "--no-factor", "--anneal-refine", "0.05", "0.001"]
    >>> from_arguments(parser.parse_args(argv))
    Options(preset='default', iterations=50, ..., greedy=False, factor=False, ..., anneal_refine=(0.05, 0.001), ...)
    """
    defaults = Options()
    for f in dataclasses.fields(Options):
        meta = f.metadata
        if not meta["cli"]:
            continue
        flags = (meta["flag"] or "--" + f.name.replace("_", "-")).split("/")
        default = getattr(defaults, f.name)
        value = " ".join(map(str, default)) if isinstance(default, tuple) else default
        shown = "" if default is None else f" (default {value})"
        kwargs: dict[str, Any] = {"dest": f.name, "default": default, "help": meta["help"] + shown}
        if meta["choices"]:
            kwargs["choices"] = meta["choices"]
        elif isinstance(default, tuple):
            kwargs.update(type=float, nargs=2, metavar=meta["metavar"])
        elif f.name in ("time_limit", "cp"):
            kwargs.update(type=float, metavar=meta["metavar"])
        else:
            kwargs["type"] = int
        parser.add_argument(*flags, **kwargs)
    parser.add_argument("--no-greedy", dest="greedy", action="store_const", const=False, default=None,
                        help="stop after Horner + CSE (no greedy step)")
    parser.add_argument("--no-factor", dest="factor", action="store_false", default=True,
                        help="optimize a product as one polynomial (do not factor the input first)")
    parser.add_argument("--no-substitute", dest="substitute", action="store_false", default=True,
                        help="keep the input's variables (no sums or differences of them as new variables)")


def from_arguments(args: argparse.Namespace) -> Options:
    """The :class:`Options` of parsed command-line arguments (those :func:`add_arguments` added)."""
    values = {f.name: getattr(args, f.name) for f in dataclasses.fields(Options) if hasattr(args, f.name)}
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in values.items()}
    return Options(**values)
