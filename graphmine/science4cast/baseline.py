"""The organisers' style baseline: a small neural network on vertex degrees only.

Features of a pair (u, v): ``log(1 + degree)`` of u and of v in the last three yearly snapshots
(6 numbers), standardised; a multi-layer perceptron (scikit-learn, ReLU) classifies them. It sees
the degrees and their growth but nothing about the pair's neighbourhood, which is what the
gradient-boosted models add. The fitted network is stored as plain weight lists in JSON.

:func:`degree_features` needs numpy only; ``DegreeBaseline`` needs scikit-learn (the ``ml``
extra) and is imported when first used.
"""

from .._runtime.docs import fill_doc
import numpy as np

__all__ = ["DegreeBaseline", "degree_features"]


def __getattr__(name):
    # the class derives from scikit-learn's BaseEstimator: define it only when it is asked for
    if name == "DegreeBaseline":
        from ._mlp import DegreeBaseline  # names the missing extra itself

        return DegreeBaseline
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@fill_doc
def degree_features(graph, pairs, year, n_snapshots=3, n_vertices=None):
    """``log(1 + degree)`` of both vertices at the end of ``year, year - 1, ...``.

    {Parameters: s4c_graph, s4c_pairs}
    year : int
        The latest snapshot's year.
    n_snapshots : int, default 3
        Snapshots S: ``year, year - 1, ..., year - S + 1``.
    {s4c_n_vertices}

    Returns
    -------
    ndarray of float64 of shape (P, 2S)
        Per snapshot, the multigraph degrees of u and v, as ``log(1 + d)``.

    Examples
    --------
    >>> import numpy as np
    >>> rows = np.array([[0, 1, 10], [0, 2, 400]])
    >>> np.expm1(degree_features(rows, np.array([[0, 2]]), 1991, n_snapshots=2)).round(6).tolist()
    [[2.0, 1.0, 1.0, 0.0]]
    """
    from .snapshots import edges_before
    from ..core.graph import from_edges

    pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    graph = np.asarray(graph)
    n = max(int(graph[:, :2].max()) + 1 if graph.shape[0] else 0, int(pairs.max()) + 1 if pairs.size else 0,
            n_vertices or 0)
    cols = []
    for k in range(n_snapshots):
        deg = from_edges(edges_before(graph, year - k), n_nodes=n).degree
        cols += [np.log1p(deg[pairs[:, 0]]), np.log1p(deg[pairs[:, 1]])]
    return np.column_stack(cols).astype(np.float64)
