"""The Dask back-end's registrations (:mod:`graphmine.core.registry`): a :class:`DistributedGraph`
(``__graphmine_backend__ = 'dask'``) passed to ``gm.count_triangles`` and siblings runs here.

Imported by the registry on the first call with such a graph; importing it loads no dask.
"""

from ..core.registry import implements
from . import counting

__all__ = []


def _bloom_k(G, kwargs):
    return True if kwargs.get("k", 3) == 3 else "the distributed Bloom estimator counts triangles (k = 3) only"


def _exact_only(fn):
    def run(G, *, method="exact", threads=None, **kw):
        return fn(G, **kw)
    run.__doc__ = fn.__doc__
    return run


def _any(fn):
    def run(G, *, method="exact", threads=None, **kw):
        if kw.get("order") is None:
            kw.pop("order", None)  # blocks are oriented by degree
        return fn(G, method=method, **kw)
    run.__doc__ = fn.__doc__
    return run


implements("count_triangles", "dask")(_any(counting.count_triangles))
implements("count_cliques", "dask", methods=("exact",))(_any(counting.count_cliques))
implements("count_cliques", "dask", methods=("bloom",), can_run=_bloom_k)(_any(counting.count_cliques))
implements("triangles", "dask", methods=("exact",))(_exact_only(counting.triangles))
implements("average_clustering", "dask", methods=("exact",))(_exact_only(counting.average_clustering))
