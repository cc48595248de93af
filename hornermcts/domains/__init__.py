"""Problems for the search core, one module (or package) per domain.

Each domain defines a problem with the protocol of
:mod:`hornermcts.search.problem` (``root``, ``moves``, ``apply``, ``reward``,
usually a fast ``playout``); nothing in :mod:`hornermcts.search` knows them.

- :mod:`hornermcts.domains.samegame`: SameGame, Clickomania, Bubble Breaker (a package:
  ``game``, ``kernels``, ``boards``, ``solver``, ``rates``, ``cli``).

Modules are imported on demand (``from hornermcts.domains.samegame import
SameGame``), so a domain's compiled kernels load only when it is used.
"""
