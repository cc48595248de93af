"""The domain-agnostic search core.

A problem plugs in through :class:`Problem` (root, moves, apply, a reward
to maximise or a cost to minimise, optional playout and bound); the
algorithms take their parts as parameters:

- :func:`mcts` — Monte Carlo Tree Search for optimisation, returning the best
  complete path ever seen; :func:`sa_uct` is ``mcts`` with SA-UCT's linear
  cooling. Rei's adaptations to combinatorial optimisation (2016, ch. 3) are
  its options: best-instead-of-average values and normalisation
  (:class:`NormalisedUCT`, ``value=``, ``normalize=``), infeasible outcomes
  (:class:`Infeasible`), branch-and-bound with proofs of optimality
  (``prune=``, :mod:`.pruning`), lazy and limited expansion
  (``expansion="lazy"``, ``expansion_limit=``), selection interleaving
  (``interleave=``), CPU-time budgets (``clock="cpu"``) and ``target``.
- selection rules ``rule(node, exploration) -> child``: :func:`uct`
  (eq. 3 / 5 of Ruijl et al.), :class:`SPMCTS`, :func:`ucb1_tuned` /
  :class:`UCB1Tuned`, :class:`NormalisedUCT` (Rei's node values);
- cooling schedules ``T(i, n)``: :class:`ConstantSchedule`,
  :class:`LinearSchedule`, :class:`ExponentialSchedule`;
- expansion rules ``expand(node, problem, rng) -> node``:
  :func:`single_expansion`, :func:`full_expansion`, :func:`lazy_expansion`,
  :class:`ThresholdExpansion`;
- playout policies ``policy(problem, state, rng) -> (state, moves)``:
  :func:`random_playout`;
- more drivers: :func:`anneal` (simulated annealing over permutations),
  :func:`beam_mcts` (BMCTS, beam pruning per depth),
  :func:`per_move_search` (search, play the best move, search again),
  :func:`sp_mcts` (SP-MCTS per game or per move); and :func:`cem`, the
  Cross-Entropy Method, to tune any numeric parameters; every driver returns
  a :class:`SearchResult` (best moves, best value, iterations, elapsed,
  stop reason, seed, history) or a subclass;
- nested Monte Carlo search: :func:`nmcs` (NMCS, any level) and :func:`nrpa`
  (NRPA, and GNRPA with a bias: a :class:`Prior` learned by Replay,
  Cazenave 2024), returning a :class:`NestedResult`;
- :func:`shortlist`: search, then refine, then keep the best K, for any
  problem with a cost (the plan of :func:`hornermcts.optimize`);
- :func:`check_problem`: the protocol, checked by random simulations (every
  domain's tests call it).

Examples
--------
>>> from hornermcts.search import mcts
>>> class Bits:
...     def root(self): return ()
...     def moves(self, s): return (0, 1) if len(s) < 3 else ()
...     def apply(self, s, m): return s + (m,)
...     def reward(self, s): return float(int("".join(map(str, s)), 2))
>>> result = mcts(Bits(), iterations=30, schedule="linear", cp=2.0, seed=0)
>>> result.best_moves, result.best_reward
((1, 1, 1), 7.0)
"""

from .beam import beam_mcts, prune_depth
from .cem import CEMResult, cem
from .expansion import ThresholdExpansion, full_expansion, lazy_expansion, single_expansion
from .mcts import backpropagate, descend, descend_interleaved, mcts, sa_uct
from .nested import NestedResult, nmcs, nrpa
from .normalised_uct import NormalisedUCT
from .prior import Prior
from .values import Infeasible
from .permove import PerMoveResult, RootedProblem, per_move_search
from .node import Node
from .playout import random_playout
from .problem import ContractError, Problem, check_problem
from .result import MCTSResult, SearchResult
from .shortlist import ScoreBook, Shortlist, Stage, shortlist
from .annealing import AnnealResult, anneal
from .schedules import ConstantSchedule, ExponentialSchedule, LinearSchedule
from .selection import SPMCTS, uct
from .sp_mcts import sp_mcts
from .ucb1_tuned import UCB1Tuned, ucb1_tuned

__all__ = [
    "mcts",
    "sa_uct",
    "Infeasible",
    "NormalisedUCT",
    "nmcs",
    "nrpa",
    "NestedResult",
    "Prior",
    "lazy_expansion",
    "descend_interleaved",
    "SearchResult",
    "MCTSResult",
    "Problem",
    "check_problem",
    "ContractError",
    "anneal",
    "AnnealResult",
    "shortlist",
    "Shortlist",
    "Stage",
    "ScoreBook",
    "Node",
    "uct",
    "SPMCTS",
    "ConstantSchedule",
    "LinearSchedule",
    "ExponentialSchedule",
    "single_expansion",
    "full_expansion",
    "ThresholdExpansion",
    "random_playout",
    "descend",
    "backpropagate",
    "ucb1_tuned",
    "UCB1Tuned",
    "beam_mcts",
    "prune_depth",
    "per_move_search",
    "PerMoveResult",
    "RootedProblem",
    "sp_mcts",
    "cem",
    "CEMResult",
]
