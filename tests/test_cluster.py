"""optimize(..., client=) on a Dask cluster (issue 38 item 3): the same result for any cluster size."""
from __future__ import annotations

import pytest

from hornermcts import optimize
from hornermcts.errors import OptionError
from hornermcts.research.families import random_polynomial, structured_random

distributed = pytest.importorskip("dask.distributed")


@pytest.fixture(scope="module")
def clusters():
    made = []
    for n in (1, 2):
        cluster = distributed.LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                           dashboard_address=":0")
        made.append((cluster, distributed.Client(cluster, set_as_default=False)))
    yield [client for _, client in made]
    for cluster, client in made:
        client.close()
        cluster.close()


def test_the_result_does_not_depend_on_the_cluster(clusters):
    poly = structured_random(8, 300, seed=2)  # over 100 terms: the searches are spread, not run in this process
    here = optimize(poly, iterations=200, seed=3, workers=1)
    for client in clusters:
        there = optimize(poly, iterations=200, seed=3, client=client)
        assert (there.after, there.order, there.history) == (here.after, here.order, here.history)


def test_a_time_limit_on_a_cluster_is_refused(clusters):
    with pytest.raises(OptionError, match="iteration budgets only"):
        optimize(random_polynomial(3, 20, seed=1), time_limit=1.0, client=clusters[0])
