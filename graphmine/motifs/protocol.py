"""The seeded evaluation protocol of motif prediction, shared by heuristics and the SEAM GNN.

* **Positives**: instances of the motif in ``G`` (induced: no deal-breaker edges). ``remove`` of
  their motif edges (default all) are deleted from the *observed* graph, the only graph any model
  sees. With ``remove < |E_M|`` positives are chosen with pairwise edge-disjoint motif edges, so
  every positive shows exactly ``|E_M| - remove`` motif edges.
* **Negatives**: k-tuples that are not instances in ``G``, of two kinds: *hard* ones, grown by
  1- and 2-hop random steps in the observed graph, with the same number of present motif edges as
  the positives (they look alike), and uniformly *random* ones.
* **Split**: stratified train/validation/test over all samples (default 80/10/10). All positives'
  removed edges are missing from the one observed graph, so no split can see them.
* **Budget**: the removed edges stay below ``max_removed_fraction`` of the edges of ``G``.
"""

from dataclasses import dataclass

from .._runtime.docs import fill_doc
import numpy as np

from ..core.exceptions import GraphValueError, ParameterError, check_int, check_seed, warn_at_caller
from ..core.graph import Graph, from_edges
from ..core.validation import as_graph
from . import _protocol_kernels as _pk
from .enumerate import _check_motif, _level_matrices, canonical_tuples, find_motifs, is_motif, motif_edge_flags
from .patterns import Motif

__all__ = ["MotifTask", "motif_prediction_task", "SPLITS"]

# the names of the three sample splits, in the order of MotifTask.split's codes 0, 1, 2
SPLITS = ("train", "val", "test")
KINDS = ("positive", "hard", "random")


@dataclass(eq=False, repr=False)
class MotifTask:
    """Samples, labels and the observed graph of one motif-prediction experiment.

    Attributes
    ----------
    graph : Graph
        The full graph ``G``.
    observed : Graph
        ``G`` minus ``removed_edges``: the graph every model is given.
    motif : Motif
    tuples : ndarray of int64, shape (N, k)
        Candidate motif vertices (canonical, in motif position order).
    labels : ndarray of int8, shape (N,)
        1 for positives, 0 for negatives.
    kind : ndarray of int8, shape (N,)
        0 positive, 1 hard negative, 2 random negative.
    split : ndarray of int8, shape (N,)
        0 train, 1 validation, 2 test.
    targets : ndarray of bool, shape (N, |E_M|)
        Motif edges of each sample that are missing from the observed graph (the edges to predict).
    removed_edges : ndarray of int64, shape (R, 2)
        Edges of ``G`` deleted for the positives (u < v).
    info : dict
        Parameters and counts of the run (seed, remove, hard shortfall, ...).

    Built by :func:`motif_prediction_task`; the fields are given in the order above.

    Examples
    --------
    >>> import networkx as nx
    >>> from graphmine.motifs import clique
    >>> task = motif_prediction_task(nx.les_miserables_graph(), clique(3), n_positives=10, seed=0)
    >>> task
    MotifTask(clique k=3, positives=10, negatives=10, train/val/test=16/2/2, removed_edges=27)
    >>> parts = [task.indices(s) for s in ("train", "val", "test")]
    >>> sorted(np.concatenate(parts).tolist()) == task.indices().tolist()
    True
    """

    graph: Graph
    observed: Graph
    motif: Motif
    tuples: np.ndarray
    labels: np.ndarray
    kind: np.ndarray
    split: np.ndarray
    targets: np.ndarray
    removed_edges: np.ndarray
    info: dict

    def indices(self, split=None):
        """Row indices of one split ('train', 'val', 'test') or of all samples (None)."""
        if split is None:
            return np.arange(self.labels.shape[0])
        if split not in SPLITS:
            raise ParameterError(f"split must be one of {', '.join(SPLITS)} or None, got {split!r}")
        return np.flatnonzero(self.split == SPLITS.index(split))

    def __repr__(self):
        c = [int((self.split == i).sum()) for i in range(3)]
        return (f"MotifTask({self.motif.name} k={self.motif.k}, positives={int(self.labels.sum())}, "
                f"negatives={int((self.labels == 0).sum())}, train/val/test={c[0]}/{c[1]}/{c[2]}, "
                f"removed_edges={self.removed_edges.shape[0]})")


def _keys(e, n):
    e = np.sort(np.asarray(e, np.int64).reshape(-1, 2), axis=1)
    return e[:, 0] * n + e[:, 1]


@fill_doc
def motif_prediction_task(G, motif, *, n_positives=500, remove="all", negatives_per_positive=1.0,
                          hard_fraction=0.5, split=(0.8, 0.1, 0.1), max_removed_fraction=0.25, seed=None,
                          threads=None):
    """Build a seeded motif-prediction task (positives, negatives, split, observed graph).

    Parameters
    ----------
    G : graph input accepted by :func:`graphmine.as_graph`
    motif : Motif
    n_positives : int
        At most this many positives (fewer when the graph has fewer instances or the edge budget
        runs out).
    remove : 'all' or int
        Motif edges deleted per positive (1..|E_M|).
    negatives_per_positive : float
        Negatives drawn per positive.
    hard_fraction : float
        Share of hard negatives among the negatives (the rest are random).
    split : tuple of 3 floats
        Train/validation/test fractions (stratified by label).
    max_removed_fraction : float
        At most this fraction of the edges of ``G`` is deleted.
    {seed, threads}

    Returns
    -------
    MotifTask
        The samples, labels, splits and observed graph.

    Examples
    --------
    >>> from graphmine.io.generators import planted_cliques_graph
    >>> from graphmine.motifs import clique
    >>> G, _ = planted_cliques_graph(200, 0.02, [8] * 6, seed=1)
    >>> task = motif_prediction_task(G, clique(4), n_positives=40, seed=0)
    >>> int(task.labels.sum()), bool(task.targets[task.labels == 1].all())
    (40, True)
    >>> task.observed.n_edges == G.n_edges - len(task.removed_edges)
    True
    """
    G = as_graph(G)
    motif = _check_motif(motif)
    n, k, me = G.n_nodes, motif.k, motif.n_edges
    n_positives = check_int("n_positives", n_positives, 1)
    if remove == "all":
        r = me
    else:
        r = check_int("remove", remove, 1)
        if r > me:
            raise ParameterError(f"remove must be 'all' or 1..{me} for a {motif.name} of {me} edges, got {r}")
    if not 0 < float(max_removed_fraction) <= 1:
        raise ParameterError(f"max_removed_fraction must lie in (0, 1], got {max_removed_fraction!r}")
    if not 0 <= float(hard_fraction) <= 1:
        raise ParameterError(f"hard_fraction must lie in [0, 1], got {hard_fraction!r}")
    if not float(negatives_per_positive) > 0:
        raise ParameterError(f"negatives_per_positive must be > 0, got {negatives_per_positive!r}")
    fr = np.asarray(split, dtype=np.float64)
    if fr.shape != (3,) or np.any(fr < 0) or fr[0] <= 0 or fr[2] <= 0 or abs(fr.sum() - 1) > 1e-9:
        raise ParameterError(f"split must be three fractions summing to 1 (train and test > 0), got {split!r}")
    rng = check_seed(seed)

    # -- positives: a capped, seeded pool of instances, then a greedy pick under the edge budget
    cap = max(2, int(np.ceil(20.0 * n_positives / max(n, 1))))
    pool = find_motifs(G, motif, induced=True, cap_per_root=cap, max_steps=200_000,
                       seed=int(rng.integers(1 << 31)), threads=threads)
    if pool.shape[0] == 0:
        raise GraphValueError(f"the graph has no induced {k}-{motif.name}: nothing to predict")
    pool = pool[rng.permutation(pool.shape[0])]
    budget = max(1, int(max_removed_fraction * G.n_edges))
    E = motif.edges
    removed = set()
    used_motif_edges = set()
    pos, pos_removed = [], []
    for t in pool:
        if len(pos) >= n_positives:
            break
        keys = _keys(np.column_stack((t[E[:, 0]], t[E[:, 1]])), n).tolist()
        if r < me:
            if used_motif_edges.intersection(keys) or removed.intersection(keys):
                continue
            pick = rng.choice(me, size=r, replace=False)
            drop = [keys[i] for i in pick]
        else:
            drop = keys
        new = [x for x in drop if x not in removed]
        if len(removed) + len(new) > budget:
            continue
        removed.update(new)
        used_motif_edges.update(keys)
        pos.append(t)
        pos_removed.append(drop)
    n_pos = len(pos)
    if n_pos < 10:
        raise GraphValueError(f"only {n_pos} positive {k}-{motif.name} instances fit the edge budget "
                              f"(max_removed_fraction={max_removed_fraction}); at least 10 are needed")
    pos = np.array(pos, np.int64)
    rkeys = np.array(sorted(removed), np.int64)
    removed_edges = np.column_stack((rkeys // n, rkeys % n))
    all_e = G.edges()
    keep = ~np.isin(all_e[:, 0] * n + all_e[:, 1], rkeys)
    observed = from_edges(all_e[keep], n_nodes=n)
    observed = type(observed).from_csr(observed.indptr, observed.indices, G.node_ids)

    # -- negatives
    n_neg = max(1, int(round(negatives_per_positive * n_pos)))
    n_hard = int(round(hard_fraction * n_neg))
    seen = {tuple(x) for x in pos.tolist()}
    hard = np.empty((0, k), np.int64)
    if n_hard:
        parent, _, _, _ = _level_matrices(motif, True)
        order = motif.match_order
        inv = np.empty(k, np.int64)
        inv[order] = np.arange(k)
        lvl_pairs = np.ascontiguousarray(inv[E])
        raw = _pk._local_tuples(observed.indptr, observed.indices, parent, lvl_pairs, me - r, 8 * n_hard,
                                400 * n_hard, int(rng.integers(1 << 31)))
        cand = np.empty_like(raw)
        cand[:, order] = raw
        hard = _fresh(G, motif, cand, seen, n_hard, threads)
    n_random = n_neg - hard.shape[0]
    if hard.shape[0] < n_hard:
        warn_at_caller(f"found {hard.shape[0]} of {n_hard} hard negatives; the rest are random")
    rand = np.empty((0, k), np.int64)
    for _ in range(50):
        if rand.shape[0] >= n_random:
            break
        cand = rng.integers(0, n, size=(4 * (n_random - rand.shape[0]) + 16, k), dtype=np.int64)
        rand = np.concatenate((rand, _fresh(G, motif, cand, seen, n_random - rand.shape[0], threads)))
    tuples = np.concatenate((pos, hard, rand))
    labels = np.concatenate((np.ones(n_pos, np.int8), np.zeros(hard.shape[0] + rand.shape[0], np.int8)))
    kind = np.concatenate((np.zeros(n_pos, np.int8), np.ones(hard.shape[0], np.int8),
                           np.full(rand.shape[0], 2, np.int8)))

    # -- stratified split
    sp = np.empty(labels.shape[0], np.int8)
    for lab in (0, 1):
        idx = rng.permutation(np.flatnonzero(labels == lab))
        a = int(round(fr[0] * idx.size))
        b = a + int(round(fr[1] * idx.size))
        sp[idx[:a]], sp[idx[a:b]], sp[idx[b:]] = 0, 1, 2
    targets = ~motif_edge_flags(observed, motif, tuples, threads=threads)
    info = {"seed": seed, "remove": r, "n_positives": n_pos, "n_hard": int(hard.shape[0]),
            "n_random": int(rand.shape[0]), "hard_wanted": n_hard, "pool": int(pool.shape[0]),
            "max_removed_fraction": float(max_removed_fraction), "split": tuple(fr.tolist())}
    return MotifTask(G, observed, motif, tuples, labels, kind, sp, targets, removed_edges, info)


def _fresh(G, motif, cand, seen, want, threads):
    """Up to ``want`` canonical tuples of ``cand`` with distinct vertices, not instances in G, unseen."""
    if cand.shape[0] == 0:
        return np.empty((0, motif.k), np.int64)
    s = np.sort(cand, axis=1)
    cand = cand[np.all(s[:, 1:] != s[:, :-1], axis=1)]
    cand = cand[~is_motif(G, motif, cand, threads=threads)]
    cand = canonical_tuples(motif, cand)
    out = []
    for t in cand.tolist():
        if len(out) >= want:
            break
        tt = tuple(t)
        if tt not in seen:
            seen.add(tt)
            out.append(t)
    return np.array(out, np.int64).reshape(-1, motif.k)


