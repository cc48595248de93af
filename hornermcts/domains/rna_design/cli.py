"""Design RNA sequences that fold into a target structure (Sampling, NRPA, GNRPA); learn the NGRAM prior.

``hornermcts rna PUZZLE`` takes a dot-bracket target (or a file whose first
line that does not start with ``>`` or ``#`` is one); ``--eterna ID``
takes Eterna100 puzzle ``ID`` instead (version 2, ``--eterna-version 1``
for the original; the files are found as :mod:`.eterna` says, or in
``--data``).  ``--method`` runs Sampling (with ``--prior``: Sampling with
the prior), NRPA or GNRPA (default prior: the shipped NGRAM prior of the
substitute training set) for ``--time`` CPU seconds, stopping at the first
sequence whose ViennaRNA MFE structure is the target.  It prints whether
it was solved, the sequence, its MFE structure, the base-pair distance,
the CPU time, the playouts and the folds done (each sequence is folded
once); ``--show`` adds the target aligned with the structure, the
positions that differ, the energy and the ensemble defect.  ``--prior``
takes a prior file (JSON), ``ngram`` (the shipped one) or ``nemo-like``
(the handmade pair prior).  ``--learn-prior OUT`` learns the NGRAM prior
from ``--training`` folded random sequences and writes it as JSON; alone,
it only learns.

Exit status: 0 when solved (or only learning), 1 when the budget ran out
first; errors print one line and exit with status 2.  Needs ViennaRNA
(``pip install 'hornermcts[rna]'``).
"""
from __future__ import annotations

import argparse
import os
import time

from ...errors import OptionError
from ...search.prior import Prior
from .eterna import VERSIONS, eterna_puzzle
from .folding import vienna_version
from .prior import (
    NEMO_LABEL,
    NGRAM_LABEL,
    TRAINING_SEED,
    learn_ngram_prior,
    nemo_like_prior,
    save_prior,
    substitute_prior,
    training_pairs,
)
from .problem import RNADesign
from .solve import LEVEL, METHODS, PER_LEVEL, TEMPERATURE, design
from .structure import check_structure

__all__ = ["add_arguments", "run", "read_target"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_argument_group("target")
    source.add_argument("puzzle", nargs="?", help="a dot-bracket target, or a file holding one")
    source.add_argument("--eterna", type=int, metavar="ID", default=None, help="Eterna100 puzzle ID (1..100)")
    source.add_argument("--eterna-version", type=int, choices=VERSIONS, default=2,
                        help="Eterna100 version (default 2, the one for ViennaRNA 2.x)")
    source.add_argument("--data", metavar="FOLDER", default=None,
                        help="folder of the Eterna100 files (default: $HORNERMCTS_ETERNA100, else "
                             "shared/data/eterna100 beside the repository)")
    search = parser.add_argument_group("search")
    search.add_argument("--method", choices=METHODS, default="gnrpa", help="default gnrpa")
    search.add_argument("--time", type=float, default=10.0, help="CPU seconds (default 10)")
    search.add_argument("--playouts", type=int, default=None, help="also stop after this many playouts")
    search.add_argument("--prior", metavar="FILE", default=None,
                        help="a prior (JSON), 'ngram' (shipped, substitute training set; gnrpa's default) or "
                             "'nemo-like' (handmade pair prior)")
    search.add_argument("--temperature", type=float, default=TEMPERATURE,
                        help=f"tau of the prior (default {TEMPERATURE:g})")
    search.add_argument("--level", type=int, default=LEVEL, help=f"nrpa/gnrpa level (default {LEVEL})")
    search.add_argument("--per-level", type=int, default=PER_LEVEL,
                        help=f"nrpa/gnrpa iterations per level, N (default {PER_LEVEL})")
    search.add_argument("--tie-break", choices=("defect", "none"), default="defect",
                        help="reward tie-break: ensemble defect (default) or none (distance only)")
    search.add_argument("--seed", type=int, default=0, help="seed of the search (default 0)")
    learn = parser.add_argument_group("prior learning")
    learn.add_argument("--learn-prior", metavar="OUT", default=None,
                       help="learn the NGRAM prior from folded random sequences and write it to OUT")
    learn.add_argument("--training", type=int, default=2000, help="--learn-prior: sequences (default 2000)")
    learn.add_argument("--training-seed", type=int, default=TRAINING_SEED,
                       help=f"--learn-prior: seed of the first one (default {TRAINING_SEED})")
    out = parser.add_argument_group("output")
    out.add_argument("--show", action="store_true", help="also the target aligned with the structure found")
    out.add_argument("--no-progress", action="store_true", help="no progress bar")


def read_target(text: str) -> str:
    """A dot-bracket target from ``text`` itself, or from the file it names (first line not ``>`` or ``#``)."""
    if os.path.isfile(text):
        with open(text) as handle:
            for line in handle:
                line = line.strip()
                if line and not line.startswith((">", "#")):
                    return check_structure(line.split()[0])
        raise OptionError(f"{text}: no structure in the file")
    return check_structure(text.strip())


def load_prior(spec: str | None, method: str, temperature: float) -> tuple[Prior | None, str]:
    """The prior of ``--prior`` and its label (gnrpa without one: the shipped NGRAM prior)."""
    if spec is None:
        if method != "gnrpa":
            return None, "none"
        spec = "ngram"
    if spec == "ngram":
        return substitute_prior(), NGRAM_LABEL
    if spec == "nemo-like":
        return nemo_like_prior(temperature), NEMO_LABEL
    return Prior.load(spec), f"{spec} (file)"


def _learn(args: argparse.Namespace) -> None:
    if args.training < 1:
        raise OptionError(f"--training must be >= 1, got {args.training}")
    start = time.process_time()
    prior = learn_ngram_prior(training_pairs(args.training, first_seed=args.training_seed))
    note = (f"{NGRAM_LABEL}: {args.training} random sequences (seeds {args.training_seed}.."
            f"{args.training_seed + args.training - 1}, lengths uniform in 12..200) folded by ViennaRNA "
            f"{vienna_version()}; made by: hornermcts rna --learn-prior OUT --training {args.training} "
            f"--training-seed {args.training_seed}")
    save_prior(prior, args.learn_prior, note=note)
    print(f"{NGRAM_LABEL} learned from {args.training} folded random sequences: {len(prior)} codes, "
          f"{sum(prior.count.values())} moves, {time.process_time() - start:.1f} s CPU; written to {args.learn_prior}")


def _differences(structure: str, target: str) -> str:
    """A marker under each position whose partner differs between the two structures."""
    from .structure import pair_table

    a, b = pair_table(structure), pair_table(target)
    return "".join("^" if x != y else " " for x, y in zip(a, b)).rstrip()


def run(args: argparse.Namespace) -> int:
    if args.learn_prior is not None:
        _learn(args)
        if args.puzzle is None and args.eterna is None:
            return 0
    if (args.puzzle is None) == (args.eterna is None):
        raise OptionError("give exactly one target: PUZZLE (dot-bracket or file) or --eterna ID")
    if args.time is None or not args.time > 0:
        raise OptionError(f"--time must be > 0 CPU seconds, got {args.time}")
    if args.playouts is not None and args.playouts < 1:
        raise OptionError(f"--playouts must be >= 1, got {args.playouts}")
    if args.eterna is not None:
        puzzle = eterna_puzzle(args.eterna, args.eterna_version, folder=args.data)
        target, name = puzzle.structure, f"Eterna100 V{puzzle.version} #{puzzle.id} {puzzle.name!r}"
    else:
        target = read_target(args.puzzle)
        name = "target"
    if args.method == "nrpa" and args.prior is not None:
        raise OptionError("--method nrpa runs without a prior (gnrpa is NRPA with the prior's bias)")
    prior, label = load_prior(args.prior, args.method, args.temperature)
    problem = RNADesign(target, tie_break=None if args.tie_break == "none" else "defect", name=name)
    version = vienna_version()
    levels = "" if args.method == "sampling" else f", level {args.level}, N = {args.per_level}"
    print(f"{name}: {len(target)} nt, {problem.steps} moves; {args.method}, prior {label}"
          f"{f' (tau {args.temperature:g})' if prior is not None else ''}{levels}; "
          f"{args.time:g} CPU s; ViennaRNA {version}")
    found = design(problem, args.method, time_limit=args.time, playouts=args.playouts, prior=prior,
                   temperature=args.temperature, level=args.level, per_level=args.per_level, seed=args.seed,
                   progress=None if args.no_progress else "auto")
    result, evaluation = found.result, found.evaluation
    if found.solved:
        print(f"solved after {result.reached} playouts, {result.reached_seconds:.2f} CPU s")
    else:
        print(f"not solved within {result.iterations} playouts, {result.elapsed:.2f} CPU s: best distance "
              f"{evaluation.distance}")
    print(f"sequence:  {found.sequence}")
    print(f"structure: {evaluation.structure}")
    if args.show:
        print(f"target:    {target}")
        marks = _differences(evaluation.structure, target)
        if marks:
            print(f"differ:    {marks}")
    print(f"distance {evaluation.distance}, ensemble defect {evaluation.defect:.4f}, energy {evaluation.energy:.2f} "
          f"kcal/mol; {result.elapsed:.2f} CPU s, {result.iterations} playouts, {found.folds} folds "
          f"({found.hits} from the cache)")
    return 0 if found.solved else 1
