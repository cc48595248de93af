"""Problems for the search core, one module (or package) per domain.

Each domain defines a problem with the protocol of
:mod:`hornermcts.search.problem` (``root``, ``moves``, ``apply``, ``reward``,
usually a fast ``playout``); nothing in :mod:`hornermcts.search` knows them.
Every domain's tests run :func:`hornermcts.search.check_problem` with
random simulations on it.

- :mod:`hornermcts.order.problem`: the Horner-order problem, the
  main domain (choose the variables of a Horner scheme one by one; the
  reward is the operation count's reduction).
- :mod:`hornermcts.domains.samegame`: SameGame, Clickomania, Bubble Breaker (a package:
  ``game``, ``kernels``, ``boards``, ``solver``, ``rates``, ``cli``).
- Rei 2016's optimisation problems, searched with the core's thesis options
  (``mcts(value="best", normalize="parent", prune=...)``), each a package
  with its instances, heuristics, solution checker and CLI subcommand:
  :mod:`~hornermcts.domains.number_partitioning` (KK, complete-KK DFS,
  MCTS), :mod:`~hornermcts.domains.stacking` (FO simulation, MS, MCTS, the
  thesis's instances), :mod:`~hornermcts.domains.circle_packing`
  (semi-greedy construction, MS, MCTS, substitute instances) and
  :mod:`~hornermcts.domains.knapsack` (LP bound, checked against dynamic
  programming).
- Cazenave 2024's problems for nested search with learned priors
  (:func:`~hornermcts.search.nrpa`, :class:`~hornermcts.search.Prior`):
  :mod:`~hornermcts.domains.latin_square` (completion, the Dual prior),
  :mod:`~hornermcts.domains.kakuro` and
  :mod:`~hornermcts.domains.rna_design` (inverse folding on Eterna100 with
  ViennaRNA, the NGRAM prior on a substitute training set).

Modules are imported on demand (``from hornermcts.domains.samegame import
SameGame``), so a domain's compiled kernels load only when it is used.
"""
