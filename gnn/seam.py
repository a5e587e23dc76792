"""SEAM: motif prediction with a DGCNN over labelled enclosing subgraphs (torch-geometric).

For every candidate motif (a k-tuple of vertices) the enclosing subgraph is the union of the h-hop
neighbourhoods of its vertices in the observed graph, with the motif edges to predict masked out
(:func:`graphmine.motifs.enclosing_subgraphs`). Nodes carry a label generalising SEAL's DRNL to k
target vertices (the sorted distances to the motif vertices, or the zero-one trick), embedded and
passed through a DGCNN: GCN layers 32-32-32-1 with tanh, SortAggregation keeping the top
``sort_k`` nodes (60th percentile of training subgraph sizes, at least 10), Conv1d - MaxPool -
Conv1d, an MLP of 128 units with dropout 0.5 and one logit. Training minimises binary cross
entropy with Adam and keeps the weights of the epoch with the best validation AUC (early stopping).

With ``features='heuristic'`` (the default) every candidate also carries the heuristic motif scores
of :func:`graphmine.motifs.heuristic_motif_scores` (five link scores x the independent and
correlation-aware modes, with deal-breakers where the motif has them), as ``s`` and
``log(s + 1e-3)``, standardised on the training split. They enter the MLP beside the pooled graph
representation and through a linear skip straight to the logit, so the network can reproduce any
monotone-in-log ranking of a heuristic and learn what the subgraph adds to it: the heuristics are
subsumed, not competed with. :func:`select_seam` fits several settings (e.g. hops 1 and 2) and
keeps the one with the best validation AUC, or averages their predicted scores
(:class:`SEAMEnsemble`, ``combine='mean'``, the command line's default); the test split is never
looked at.

With ``edge_weights=True`` the task carries a weight for every observed edge
(``task.info['edge_weights']``: sorted keys ``u * n + v`` with ``u < v``, and their weights, as
:func:`gnn.closure.closure_motif_task` gives for the pair weights of a temporal past); each subgraph
edge then enters the GCN layers with weight ``log(1 + w)`` (``GCNConv``'s ``edge_weight``), so the
message passing sees how often two vertices met, not only that they did. ``features='task'`` takes
the candidate-level features from the task (``task.info['candidate_features']``: names and one row
per candidate) instead of the unweighted heuristics.

A call leaves torch's process-wide state as it found it: the thread count, the random generators
(seeded work runs inside :func:`torch.random.fork_rng`), grad mode, the deterministic-algorithm
flags and the default dtype. Fitted models are saved with :meth:`SEAM.save` (weights as a
``state_dict`` and the settings as JSON in one file, read back with ``weights_only=True``: nothing
is unpickled) and read with :meth:`SEAM.load`.
"""

import contextlib
import copy
import json
import os
import sys
import time

from graphmine._runtime.optional import require

# torch and torch-geometric come with the "gnn" extra; say so rather than fail on the import below
require("torch", what="gnn.seam")
require("torch_geometric", what="gnn.seam")

import numpy as np  # noqa: E402
import torch  # noqa: E402
from torch.nn import Conv1d, Embedding, Linear, MaxPool1d  # noqa: E402
from torch_geometric.data import Data  # noqa: E402
from torch_geometric.loader import DataLoader  # noqa: E402
from torch_geometric.nn import GCNConv  # noqa: E402
from torch_geometric.nn.aggr import SortAggregation  # noqa: E402

from graphmine._runtime.output import atomic_write, check_output_path  # noqa: E402
from graphmine._runtime.progress import progress_bar  # noqa: E402
from graphmine.core.exceptions import GraphFormatError, ParameterError  # noqa: E402
from graphmine.motifs import (LINK_SCORES, MOTIF_MODES, MotifTask, auc_ap, distance_labels,  # noqa: E402
                              enclosing_subgraphs, heuristic_motif_scores, n_distance_labels, zero_one_labels)

__all__ = ["SEAM", "SEAMEnsemble", "DGCNN", "resolve_device", "heuristic_features", "select_seam", "LABELINGS",
           "FEATURES", "DEFAULT_CANDIDATES", "COMBINES", "MODEL_FORMAT"]

#: node labelings of the enclosing subgraphs: distances to the motif vertices, or membership
LABELINGS = ("distance", "zero_one")
#: candidate-level input features besides the subgraph: none, the heuristic motif scores, or the
#: task's own (``task.info['candidate_features']``, e.g. the closure scores of weighted pairs)
FEATURES = (None, "heuristic", "task")
# log(s + eps) spreads the products of small link scores, which crowd near 0
_LOG_EPS = 1e-3
#: the format tag written into saved SEAM models (checked when one is loaded)
MODEL_FORMAT = "graphmine.seam.model"
# the constructor's parameters, saved with a model
_PARAMS = ("hops", "labeling", "features", "hidden", "sort_k", "epochs", "lr", "batch_size", "patience",
           "dropout", "max_nodes_per_hop", "device", "seed", "threads", "verbose", "edge_weights")
# parameters a model file may lack (written before they existed) and the value that file meant
_PARAM_DEFAULTS = {"features": None, "edge_weights": False}


def _first_line(exc):
    """The first line of an exception's message (torch's can run over many lines)."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else ""


def _cuda_index(device):
    return (device.index if device.index is not None else torch.cuda.current_device())


@contextlib.contextmanager
def _torch_state(threads, device, seed=None):
    """Run torch work with ``threads`` CPU threads (None: unchanged) and, with ``seed``, seeded
    generators of its own; restore the caller's thread count, generator states, grad mode,
    deterministic-algorithm flags and default dtype afterwards, also on error."""
    n_threads = torch.get_num_threads()
    grad = torch.is_grad_enabled()
    det = (torch.are_deterministic_algorithms_enabled(), torch.is_deterministic_algorithms_warn_only_enabled())
    dtype = torch.get_default_dtype()
    cuda = [_cuda_index(device)] if device.type == "cuda" else []
    try:
        with torch.random.fork_rng(devices=cuda):
            if threads is not None and int(threads) != n_threads:
                torch.set_num_threads(int(threads))
            if seed is not None:
                # only the generators fork_rng restores: torch.manual_seed would also queue a seed
                # for every CUDA device, to be applied whenever CUDA starts
                torch.random.default_generator.manual_seed(int(seed))
                for i in cuda:
                    torch.cuda.default_generators[i].manual_seed(int(seed))
            yield
    finally:
        if torch.get_num_threads() != n_threads:
            torch.set_num_threads(n_threads)
        torch.set_grad_enabled(grad)
        if (torch.are_deterministic_algorithms_enabled(), torch.is_deterministic_algorithms_warn_only_enabled()) != det:
            torch.use_deterministic_algorithms(det[0], warn_only=det[1])
        if torch.get_default_dtype() != dtype:
            torch.set_default_dtype(dtype)


def resolve_device(device="auto"):
    """The torch device of a ``device`` setting.

    Parameters
    ----------
    device : str or torch.device, default 'auto'
        'auto': CUDA when available, else CPU; anything else: ``torch.device(device)``.

    Returns
    -------
    torch.device
        The device.

    Raises
    ------
    ParameterError
        An unknown device, or 'cuda' without a visible GPU.

    Examples
    --------
    >>> resolve_device("cpu")
    device(type='cpu')
    """
    if device == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    try:
        dev = torch.device(device)
    except (RuntimeError, TypeError) as exc:
        raise ParameterError(f"device must be 'auto', 'cpu' or 'cuda[:i]', got {device!r} ({exc})") from None
    if dev.type == "cuda" and not torch.cuda.is_available():
        raise ParameterError(f"device {device!r} asked for, but torch sees no CUDA device")
    return dev


def heuristic_features(task, split=None):
    """The heuristic motif scores of a task's candidates, as SEAM's candidate-level features.

    Every score of :func:`graphmine.motifs.heuristic_motif_scores` (all link scores, every mode the
    motif has) over the observed graph, normalised over *all* the task's candidates at once, so a
    candidate gets the same value whichever split it is scored in. The normalisation uses no label.

    Parameters
    ----------
    task : MotifTask
    split : 'train', 'val', 'test' or None (all candidates)

    Returns
    -------
    names : list of str
        ``'<link>/<mode>'``, in :data:`graphmine.motifs.LINK_SCORES` x
        :data:`graphmine.motifs.MOTIF_MODES` order.
    scores : ndarray of float64, shape (N, len(names))

    Examples
    --------
    >>> from graphmine.io.generators import planted_cliques_graph
    >>> from graphmine.motifs import clique, motif_prediction_task
    >>> G, _ = planted_cliques_graph(150, 0.02, [7] * 6, seed=1)
    >>> task = motif_prediction_task(G, clique(3), n_positives=40, seed=0)
    >>> names, X = heuristic_features(task, "test")
    >>> names[:2], X.shape == (len(task.indices("test")), 10)
    (['cn/independent', 'cn/correlated'], True)
    """
    if not isinstance(task, MotifTask):
        raise ParameterError(f"heuristic_features needs a graphmine.motifs.MotifTask, got {type(task).__name__}")
    scores = heuristic_motif_scores(task.observed, task.motif, task.tuples)
    names = [f"{l}/{m}" for l in LINK_SCORES for m in MOTIF_MODES if f"{l}/{m}" in scores]
    X = np.stack([scores[n] for n in names], axis=1)
    return names, X[task.indices(split)]


def _candidate_features(task, kind):
    """(names, rows of all candidates) of ``features=kind``: the heuristics, or the task's own."""
    if kind == "heuristic":
        return heuristic_features(task)
    got = task.info.get("candidate_features") if isinstance(task.info, dict) else None
    if got is None:
        raise ParameterError("features='task' needs task.info['candidate_features'] (names, one row per "
                             "candidate); this task has none")
    names, X = got
    X = np.asarray(X, np.float64)
    if X.ndim != 2 or X.shape != (task.tuples.shape[0], len(names)):
        raise ParameterError(f"task.info['candidate_features'] must have one row per candidate "
                             f"({task.tuples.shape[0]}) and one column per name ({len(names)}), got {X.shape}")
    return list(names), np.maximum(X, 0.0)


def _subgraph_edge_weights(task, S):
    """log(1 + w) of every subgraph edge (float32 tensor), w looked up in task.info['edge_weights']."""
    got = task.info.get("edge_weights") if isinstance(task.info, dict) else None
    if got is None:
        raise ParameterError("edge_weights=True needs task.info['edge_weights'] (sorted keys u * n + v, weights); "
                             "this task has none")
    keys, weights = (np.asarray(a) for a in got)
    n = np.int64(task.observed.n_nodes)
    pos = np.repeat(np.arange(len(S), dtype=np.int64), np.diff(S.edge_ptr))
    base = S.node_ptr[pos]
    a, b = S.nodes[base + S.edges[:, 0]], S.nodes[base + S.edges[:, 1]]
    q = np.minimum(a, b) * n + np.maximum(a, b)
    j = np.minimum(np.searchsorted(keys, q), max(keys.size - 1, 0))
    if q.size and (keys.size == 0 or not np.array_equal(keys[j], q)):
        raise ParameterError("task.info['edge_weights'] lacks an edge of the observed graph")
    return torch.from_numpy(np.log1p(np.maximum(weights[j], 0.0)).astype(np.float32)) if q.size else \
        torch.zeros(0, dtype=torch.float32)


def _transform(X):
    """s -> (s, log(s + eps)): the MLP sees both the score and the log of the product form."""
    return np.concatenate((X, np.log(X + _LOG_EPS)), axis=1)


class DGCNN(torch.nn.Module):
    """DGCNN over integer node labels (embedding -> GCN stack -> SortAggregation -> 1-D CNN -> MLP).

    With ``num_features > 0`` a per-graph feature vector ``feat`` (shape [B, num_features]) joins
    the pooled representation at the MLP's input and reaches the logit through a linear skip.

    Parameters
    ----------
    num_labels : int
        Number of distinct node labels (the embedding's size).
    hidden : int, default 32
        Width of the GCN layers.
    num_layers : int, default 3
        GCN layers before the one-channel layer that sorts the nodes.
    sort_k : int, default 30
        Nodes kept by SortAggregation, >= 10.
    dropout : float, default 0.5
        Dropout before the last layer.
    num_features : int, default 0
        Length of the per-graph feature vector ``feat`` (0: none).

    Attributes
    ----------
    embedding, convs, pool, conv1, maxpool, conv2, lin1, lin2, skip : torch.nn.Module
        The layers (``skip`` is None without features).
    num_features, dropout
        As given.

    Raises
    ------
    ParameterError
        ``sort_k`` < 10.

    Examples
    --------
    >>> import torch
    >>> _ = torch.manual_seed(0)
    >>> m = DGCNN(num_labels=4, sort_k=10)
    >>> x = torch.tensor([0, 1, 2, 3]); ei = torch.tensor([[0, 1, 2], [1, 2, 3]])
    >>> m(x, torch.cat([ei, ei.flip(0)], 1), torch.zeros(4, dtype=torch.long)).shape
    torch.Size([1])
    """

    def __init__(self, num_labels, hidden=32, num_layers=3, sort_k=30, dropout=0.5, num_features=0):
        super().__init__()
        if sort_k < 10:
            raise ParameterError(f"sort_k must be >= 10 (two 1-D convolutions follow), got {sort_k}")
        self.embedding = Embedding(num_labels, hidden)
        self.convs = torch.nn.ModuleList([GCNConv(hidden, hidden) for _ in range(num_layers)])
        self.convs.append(GCNConv(hidden, 1))
        total = hidden * num_layers + 1
        self.pool = SortAggregation(k=sort_k)
        self.conv1 = Conv1d(1, 16, total, total)
        self.maxpool = MaxPool1d(2, 2)
        self.conv2 = Conv1d(16, 32, 5, 1)
        dense = ((sort_k - 2) // 2 + 1 - 5 + 1) * 32
        self.num_features = int(num_features)
        self.lin1 = Linear(dense + self.num_features, 128)
        self.lin2 = Linear(128, 1)
        # the skip keeps a linear ranking by the features reachable whatever the MLP learns
        self.skip = Linear(self.num_features, 1) if self.num_features else None
        self.dropout = dropout

    def forward(self, x, edge_index, batch, feat=None, edge_weight=None):
        h = self.embedding(x)
        xs = []
        for conv in self.convs:
            h = torch.tanh(conv(h, edge_index, edge_weight))
            xs.append(h)
        h = torch.cat(xs, dim=-1)
        h = self.pool(h, batch)                       # [B, sort_k * total]
        h = h.unsqueeze(1)
        h = torch.relu(self.conv1(h))
        h = self.maxpool(h)
        h = torch.relu(self.conv2(h))
        h = h.flatten(1)
        if self.skip is not None:
            if feat is None or feat.shape != (h.shape[0], self.num_features):
                raise ParameterError(f"this DGCNN needs feat of shape [{h.shape[0]}, {self.num_features}] "
                                     f"(one row of features per graph), got "
                                     f"{None if feat is None else tuple(feat.shape)}")
            h = torch.cat((h, feat), dim=1)
        h = torch.relu(self.lin1(h))
        h = torch.nn.functional.dropout(h, p=self.dropout, training=self.training)
        out = self.lin2(h)
        if self.skip is not None:
            out = out + self.skip(feat)
        return out.view(-1)


class SEAM:
    """Motif prediction with a GNN over labelled enclosing subgraphs (scikit-learn style).

    Parameters
    ----------
    hops : int
        Radius h of the enclosing subgraphs (1 or 2).
    labeling : {'distance', 'zero_one'}
        Node labels: sorted distances to the motif vertices (DRNL for k vertices) or membership.
    features : {'heuristic', 'task', None}
        Candidate-level inputs beside the subgraph: the heuristic motif scores
        (:func:`heuristic_features`, the default), the task's own (``task.info['candidate_features']``,
        a pair (names, array of one row per candidate)), or none (the subgraph alone).
    edge_weights : bool
        Weight every subgraph edge by ``log(1 + w)`` in the GCN layers, ``w`` from
        ``task.info['edge_weights']`` (a pair: sorted int64 keys ``u * n + v``, ``u < v``, over the
        observed edges, and their float weights); default False (unweighted).
    hidden : int
        Width of the GCN layers.
    sort_k : int, optional
        Nodes kept by SortAggregation (default: 60th percentile of training subgraph sizes, >= 10).
    epochs, lr, batch_size, patience : int, float, int, int
        Training schedule (early stopping on validation AUC).
    dropout : float, default 0.5
        Dropout before the last layer.
    max_nodes_per_hop : int, optional
        Cap on new vertices per hop (seeded choice), for graphs with hubs.
    device : 'auto', 'cpu' or 'cuda'
        Where to train (see :func:`resolve_device`).
    seed : int
        Seeds the weights, dropout, the batch order and the subgraph sampling (generators of the
        model's own: the caller's torch and numpy generators are left as they were); runs on CPU
        are reproducible.
    threads : int, optional
        torch CPU threads during :meth:`fit` and :meth:`predict_proba` (the caller's setting is
        restored afterwards).
    verbose : bool
        Progress (one line per epoch) on stderr.

    Attributes
    ----------
    model_ : DGCNN
    sort_k_, best_epoch_, best_val_auc_, history_ (list of dicts), device_, fit_seconds_
    feature_names_ : list of str
        The candidate features (empty without ``features``).
    feature_mean_, feature_std_ : ndarray
        Standardisation of the transformed features, from the training split.

    Examples
    --------
    >>> from graphmine.io.generators import planted_cliques_graph
    >>> from graphmine.motifs import clique, motif_prediction_task
    >>> G, _ = planted_cliques_graph(150, 0.02, [7] * 6, seed=1)
    >>> task = motif_prediction_task(G, clique(3), n_positives=40, seed=0)
    >>> m = SEAM(epochs=2, seed=0, verbose=False).fit(task)
    >>> p = m.predict_proba(task, "test")
    >>> p.shape == (len(task.indices("test")),) and bool(((p > 0) & (p < 1)).all())
    True
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "seam.pt")
    >>> m.save(path)
    >>> bool((SEAM.load(path).predict_proba(task, "test") == p).all())
    True
    """

    def __init__(self, hops=1, labeling="distance", features="heuristic", hidden=32, sort_k=None, epochs=50,
                 lr=1e-3, batch_size=32, patience=10, dropout=0.5, max_nodes_per_hop=None, device="auto", seed=0,
                 threads=None, verbose=True, edge_weights=False):
        self.hops = hops
        self.edge_weights = edge_weights
        self.labeling = labeling
        self.features = features
        self.hidden = hidden
        self.sort_k = sort_k
        self.epochs = epochs
        self.lr = lr
        self.batch_size = batch_size
        self.patience = patience
        self.dropout = dropout
        self.max_nodes_per_hop = max_nodes_per_hop
        self.device = device
        self.seed = seed
        self.threads = threads
        self.verbose = verbose

    # -- data ------------------------------------------------------------------------------------
    def _check(self):
        if self.labeling not in LABELINGS:
            raise ParameterError(f"labeling must be one of {', '.join(LABELINGS)}, got {self.labeling!r}")
        if self.features not in FEATURES:
            raise ParameterError(f"features must be 'heuristic', 'task' or None, got {self.features!r}")
        if not isinstance(self.edge_weights, (bool, np.bool_)):
            raise ParameterError(f"edge_weights must be True or False, got {self.edge_weights!r}")
        for name in ("epochs", "batch_size", "hidden"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
                raise ParameterError(f"{name} must be a positive integer, got {v!r}")
        if not self.lr > 0:
            raise ParameterError(f"lr must be > 0, got {self.lr!r}")

    def _num_labels(self, k, dmax):
        return n_distance_labels(k, dmax) if self.labeling == "distance" else 2

    def _graphs(self, task, idx):
        S = enclosing_subgraphs(task.observed, task.motif, task.tuples[idx], task.targets[idx], hops=self.hops,
                                max_nodes_per_hop=self.max_nodes_per_hop, seed=self.seed)
        lab = distance_labels(S.dist, S.dmax) if self.labeling == "distance" else zero_one_labels(S)
        x_all = torch.from_numpy(lab)
        e_all = torch.from_numpy(S.edges)
        y = task.labels[idx]
        w_all = _subgraph_edge_weights(task, S) if self.edge_weights else None
        feat = None
        if self.features is not None:
            names, X = _candidate_features(task, self.features)
            X = _transform(X[idx])
            if not hasattr(self, "feature_mean_"):      # fitting: standardise on the training split
                self.feature_names_ = names
                self.feature_mean_ = X.mean(axis=0)
                std = X.std(axis=0)
                self.feature_std_ = np.where(std > 0, std, 1.0)
            feat = torch.from_numpy(((X - self.feature_mean_) / self.feature_std_).astype(np.float32))
        data = []
        for i in range(len(idx)):
            a, b = S.node_ptr[i], S.node_ptr[i + 1]
            c, d = S.edge_ptr[i], S.edge_ptr[i + 1]
            e = e_all[c:d].t()
            g = Data(x=x_all[a:b], edge_index=torch.cat([e, e.flip(0)], dim=1), y=torch.tensor([float(y[i])]),
                     num_nodes=int(b - a))
            if w_all is not None:
                g.edge_weight = torch.cat([w_all[c:d], w_all[c:d]])
            if feat is not None:
                g.feat = feat[i:i + 1]
            data.append(g)
        return data, S

    def _forward(self, batch):
        return self.model_(batch.x, batch.edge_index, batch.batch, getattr(batch, "feat", None),
                           getattr(batch, "edge_weight", None))

    def _predict(self, loader):
        self.model_.eval()
        out = []
        with torch.no_grad():
            for batch in loader:
                batch = batch.to(self.device_)
                out.append(torch.sigmoid(self._forward(batch)).cpu())
        return torch.cat(out).numpy() if out else np.empty(0)

    # -- public API ------------------------------------------------------------------------------
    def fit(self, task):
        """Train on ``task``'s training split, early-stopping on its validation split."""
        if not isinstance(task, MotifTask):
            raise ParameterError(f"fit needs a graphmine.motifs.MotifTask, got {type(task).__name__}")
        self._check()
        t_start = time.perf_counter()
        self.device_ = resolve_device(self.device)
        with _torch_state(self.threads, self.device_, seed=self.seed):
            self._fit(task)
        self.fit_seconds_ = time.perf_counter() - t_start
        return self

    def _fit(self, task):
        tr, va = task.indices("train"), task.indices("val")
        for name in ("feature_names_", "feature_mean_", "feature_std_"):   # a refit starts afresh
            self.__dict__.pop(name, None)
        train_data, S = self._graphs(task, tr)
        val_data, _ = self._graphs(task, va) if va.size else ([], None)
        sizes = np.sort(S.sizes())
        self.sort_k_ = int(self.sort_k) if self.sort_k else max(10, int(sizes[int(np.ceil(0.6 * sizes.size)) - 1]))
        self.dmax_ = S.dmax
        self.k_ = task.motif.k
        if self.features is None:
            self.feature_names_, self.feature_mean_, self.feature_std_ = [], np.empty(0), np.empty(0)
        self.model_ = DGCNN(self._num_labels(S.k, S.dmax), hidden=self.hidden, sort_k=self.sort_k_,
                            dropout=self.dropout, num_features=2 * len(self.feature_names_)).to(self.device_)
        opt = torch.optim.Adam(self.model_.parameters(), lr=self.lr)
        gen = torch.Generator().manual_seed(self.seed)
        train_loader = DataLoader(train_data, batch_size=self.batch_size, shuffle=True, generator=gen)
        val_loader = DataLoader(val_data, batch_size=256) if val_data else None
        val_y = task.labels[va]
        loss_fn = torch.nn.BCEWithLogitsLoss()
        self.history_ = []
        self.best_epoch_ = 0
        # a bar per fit with tqdm's time estimate (a terminal only; elsewhere one line an epoch)
        bar = progress_bar(self.verbose, self.epochs, getattr(self, "_progress_desc", "SEAM fit"), unit="epoch")
        try:
            self._epochs(bar, train_data, train_loader, val_loader, val_y, opt, loss_fn)
        finally:
            bar.close()

    def _epochs(self, bar, train_data, train_loader, val_loader, val_y, opt, loss_fn):
        best, best_state, bad = -1.0, None, 0
        for epoch in range(1, self.epochs + 1):
            t0 = time.perf_counter()
            self.model_.train()
            total = 0.0
            for batch in train_loader:
                batch = batch.to(self.device_)
                opt.zero_grad()
                loss = loss_fn(self._forward(batch), batch.y)
                loss.backward()
                opt.step()
                total += float(loss.detach()) * batch.num_graphs
            loss_avg = total / len(train_data)
            val_auc = float("nan")
            if val_loader is not None and np.unique(val_y).size == 2:
                val_auc = auc_ap(val_y, self._predict(val_loader))["auc"]
            rec = {"epoch": epoch, "loss": loss_avg, "val_auc": val_auc, "seconds": time.perf_counter() - t0}
            self.history_.append(rec)
            score = val_auc if val_auc == val_auc else -loss_avg
            if score > best:
                best, self.best_epoch_, bad = score, epoch, 0
                best_state = copy.deepcopy(self.model_.state_dict())
            else:
                bad += 1
            bar.update(1)
            bar.set_postfix_str(f"loss {loss_avg:.3f}, val AUC {val_auc:.3f}, best {best:.3f} @ {self.best_epoch_}")
            if self.verbose and bar.disable:
                print(f"SEAM epoch {epoch:3d}/{self.epochs}  loss {loss_avg:.4f}  val AUC {val_auc:.4f}  "
                      f"best {best:.4f} @ {self.best_epoch_}  {rec['seconds']:.2f} s", file=sys.stderr, flush=True)
            if bad >= self.patience:
                if self.verbose and bar.disable:
                    print(f"SEAM early stop after epoch {epoch} (no validation gain for {bad} epochs)",
                          file=sys.stderr, flush=True)
                break
        self.model_.load_state_dict(best_state)
        self.best_val_auc_ = best

    def predict_proba(self, task, split="test"):
        """Probability that each candidate of ``split`` (or all, with None) is the motif."""
        if not hasattr(self, "model_"):
            raise ParameterError("SEAM is not fitted yet: call fit(task) first")
        if not isinstance(task, MotifTask):
            raise ParameterError(f"predict_proba needs a graphmine.motifs.MotifTask, got {type(task).__name__}")
        if task.motif.k != self.k_:
            raise ParameterError(f"this SEAM model was trained on motifs of {self.k_} vertices, the task's "
                                 f"{task.motif.name} has {task.motif.k}")
        if self.features is not None and _candidate_features(task, self.features)[0] != self.feature_names_:
            raise ParameterError(f"this SEAM model was trained on the features {', '.join(self.feature_names_)}; "
                                 f"the task's {task.motif.name} gives others")
        idx = task.indices(split)
        with _torch_state(self.threads, self.device_):
            data, _ = self._graphs(task, idx)
            return self._predict(DataLoader(data, batch_size=256))

    def evaluate(self, task, split="test"):
        """ROC AUC and average precision on one split: ``{'auc': ..., 'ap': ...}``."""
        return auc_ap(task.labels[task.indices(split)], self.predict_proba(task, split))

    # -- persistence -----------------------------------------------------------------------------
    def save(self, path, force=False):
        """Write the fitted model to ``path``: the network's ``state_dict`` and the settings (JSON)
        in one :func:`torch.save` file. Refuses to replace an existing file unless ``force=True``."""
        if not hasattr(self, "model_"):
            raise ParameterError("SEAM is not fitted yet: call fit(task) before save")
        path = check_output_path(path, force, flag="force=True")
        config = {"params": {p: getattr(self, p) for p in _PARAMS}, "sort_k": self.sort_k_, "dmax": self.dmax_,
                  "k": self.k_, "num_labels": self._num_labels(self.k_, self.dmax_),
                  "best_epoch": self.best_epoch_, "best_val_auc": self.best_val_auc_, "history": self.history_,
                  "fit_seconds": self.fit_seconds_, "feature_names": list(self.feature_names_),
                  "feature_mean": [float(v) for v in self.feature_mean_],
                  "feature_std": [float(v) for v in self.feature_std_]}
        state = {name: t.detach().cpu() for name, t in self.model_.state_dict().items()}
        doc = {"format": MODEL_FORMAT, "version": 1, "config": json.dumps(config), "state_dict": state}
        with atomic_write(path, "wb", force=force, flag="force=True") as fh:
            torch.save(doc, fh)

    @classmethod
    def load(cls, path, *, device=None):
        """Read a model written by :meth:`save`; ``device`` overrides the saved device setting.

        Raises
        ------
        GraphFormatError
            The file is missing, unreadable, not a SEAM model file, or its weights do not fit
            the network its settings describe.
        """
        path = os.fspath(path)
        if not os.path.isfile(path):
            raise GraphFormatError("no such SEAM model file", path)
        try:
            doc = torch.load(path, map_location="cpu", weights_only=True)
        except Exception as exc:  # noqa: BLE001 - torch raises many kinds for a corrupt file
            raise GraphFormatError(f"not a SEAM model file ({type(exc).__name__}: {_first_line(exc)})",
                                   path) from None
        if not isinstance(doc, dict) or doc.get("format") != MODEL_FORMAT or doc.get("version") != 1:
            raise GraphFormatError(f"not a {MODEL_FORMAT} version 1 file", path)
        try:
            config = json.loads(doc["config"])
            saved = config["params"]
            params = {p: saved[p] if p in saved or p not in _PARAM_DEFAULTS else _PARAM_DEFAULTS[p] for p in _PARAMS}
            if device is not None:
                params["device"] = device
            m = cls(**params)
            m._check()
            m.sort_k_, m.dmax_, m.k_ = int(config["sort_k"]), int(config["dmax"]), int(config["k"])
            m.best_epoch_, m.best_val_auc_ = config["best_epoch"], config["best_val_auc"]
            m.history_, m.fit_seconds_ = config["history"], config["fit_seconds"]
            m.feature_names_ = [str(n) for n in config.get("feature_names", [])]
            m.feature_mean_ = np.asarray(config.get("feature_mean", []), np.float64)
            m.feature_std_ = np.asarray(config.get("feature_std", []), np.float64)
            if (m.features is not None) != bool(m.feature_names_) or not (
                    len(m.feature_names_) * 2 == m.feature_mean_.size == m.feature_std_.size):
                raise ValueError("the feature settings and statistics disagree")
            num_labels = int(config["num_labels"])
            state = doc["state_dict"]
        except (KeyError, TypeError, ValueError, ParameterError) as exc:
            raise GraphFormatError(f"malformed SEAM model file: {exc}", path) from None
        m.device_ = resolve_device(m.device)
        # building the network draws initial weights: keep the caller's generator out of it
        with _torch_state(None, torch.device("cpu"), seed=0):
            try:
                model = DGCNN(num_labels, hidden=m.hidden, sort_k=m.sort_k_, dropout=m.dropout,
                              num_features=2 * len(m.feature_names_))
                model.load_state_dict(state)
            except (RuntimeError, TypeError, ValueError, AttributeError, ParameterError) as exc:
                raise GraphFormatError(f"the weights do not fit the saved settings: {_first_line(exc)}",
                                       path) from None
        m.model_ = model.to(m.device_)
        return m


#: the settings :func:`select_seam` tries by default: the 1-hop subgraph, and the 2-hop one (capped
#: at 100 new vertices per hop, so hubs do not swallow the graph)
DEFAULT_CANDIDATES = ({"hops": 1}, {"hops": 2, "max_nodes_per_hop": 100})
#: how :func:`select_seam` turns its fits into one predictor
COMBINES = ("best", "mean")


class SEAMEnsemble:
    """The mean predicted probability of several fitted :class:`SEAM` models.

    :func:`select_seam` with ``combine='mean'`` returns one (its members are the candidate fits);
    averaging the scores of models that differ in radius lowers the variance that a choice
    between them on a small validation split carries.

    Parameters
    ----------
    members : sequence of SEAM
        Fitted models of one task's motif size (and the same candidate features).

    Attributes
    ----------
    members_ : list of SEAM
    best_val_auc_ : float
        Validation AUC of the averaged scores (set by :func:`select_seam`; nan otherwise).
    fit_seconds_ : float
        The members' fitting time in all.

    Raises
    ------
    ParameterError
        No members, a member that is not a fitted SEAM, or members of different motif sizes.

    Examples
    --------
    >>> from graphmine.io.generators import planted_cliques_graph
    >>> from graphmine.motifs import clique, motif_prediction_task
    >>> G, _ = planted_cliques_graph(150, 0.02, [7] * 6, seed=1)
    >>> task = motif_prediction_task(G, clique(3), n_positives=40, seed=0)
    >>> a = SEAM(hops=1, epochs=2, seed=0, verbose=False).fit(task)
    >>> b = SEAM(hops=2, epochs=2, seed=0, verbose=False).fit(task)
    >>> p = SEAMEnsemble([a, b]).predict_proba(task, "test")
    >>> bool(np.allclose(p, (a.predict_proba(task, "test") + b.predict_proba(task, "test")) / 2))
    True
    """

    def __init__(self, members):
        try:
            members = list(members)
        except TypeError:
            members = []
        if not members or not all(isinstance(m, SEAM) and hasattr(m, "model_") for m in members):
            raise ParameterError("SEAMEnsemble needs a non-empty sequence of fitted SEAM models")
        if len({m.k_ for m in members}) != 1:
            raise ParameterError(f"SEAMEnsemble members must predict one motif size, got "
                                 f"{sorted({m.k_ for m in members})} vertices")
        self.members_ = members
        self.best_val_auc_ = float("nan")
        self.fit_seconds_ = float(sum(getattr(m, "fit_seconds_", 0.0) for m in members))

    def predict_proba(self, task, split="test"):
        """Mean over the members of the probability that each candidate of ``split`` is the motif."""
        return np.mean([m.predict_proba(task, split) for m in self.members_], axis=0)

    def evaluate(self, task, split="test"):
        """ROC AUC and average precision of the averaged scores on one split."""
        return auc_ap(task.labels[task.indices(split)], self.predict_proba(task, split))


def select_seam(task, candidates=DEFAULT_CANDIDATES, combine="best", **params):
    """Fit SEAM once per candidate setting; keep the fit of the best validation AUC, or average them.

    The test split is never used: each fit early-stops on the validation split, the settings are
    compared by that same validation AUC (:attr:`SEAM.best_val_auc_`; ties keep the earlier
    candidate, so list the cheaper settings first), and the averaged scores are judged on it too.

    Parameters
    ----------
    task : MotifTask
    candidates : sequence of dict
        SEAM parameters that vary (default: hops 1, and hops 2 with ``max_nodes_per_hop=100``).
    combine : {'best', 'mean'}, default 'best'
        'best': the candidate of the highest validation AUC. 'mean': all the fits, their predicted
        probabilities averaged (:class:`SEAMEnsemble`); the same fitting time.
    **params
        SEAM parameters shared by every candidate (``epochs``, ``seed``, ``device``, ...).

    Returns
    -------
    SEAM or SEAMEnsemble
        The chosen fitted model, or the ensemble of all; either has ``selection_``: one dict per
        candidate (its parameters, ``val_auc``, ``best_epoch``, ``fit_seconds``) in the order
        tried, and ``best_val_auc_`` (for the ensemble: the averaged scores' validation AUC).

    Raises
    ------
    ParameterError
        No candidates, a name that is not a SEAM parameter, or an unknown ``combine``.

    Examples
    --------
    >>> from graphmine.io.generators import planted_cliques_graph
    >>> from graphmine.motifs import clique, motif_prediction_task
    >>> G, _ = planted_cliques_graph(150, 0.02, [7] * 6, seed=1)
    >>> task = motif_prediction_task(G, clique(3), n_positives=40, seed=0)
    >>> m = select_seam(task, [{"hops": 1}, {"hops": 2}], epochs=2, seed=0, verbose=False)
    >>> [c["hops"] for c in m.selection_], m.hops in (1, 2)
    ([1, 2], True)
    >>> e = select_seam(task, [{"hops": 1}, {"hops": 2}], combine="mean", epochs=2, seed=0, verbose=False)
    >>> [s.hops for s in e.members_], e.predict_proba(task, "test").shape == (len(task.indices("test")),)
    ([1, 2], True)
    """
    if combine not in COMBINES:
        raise ParameterError(f"combine must be one of {', '.join(COMBINES)}, got {combine!r}")
    candidates = [dict(c) for c in candidates]
    if not candidates or not all(isinstance(c, dict) for c in candidates):
        raise ParameterError("candidates must be a non-empty sequence of dicts of SEAM parameters")
    for c in candidates:
        for name in list(c) + list(params):
            if name not in _PARAMS:
                raise ParameterError(f"{name!r} is not a SEAM parameter (one of {', '.join(_PARAMS)})")
    best, table, fits = None, [], []
    # the fits in all: a bar over them (tqdm's estimate of the whole selection), each fit's own below
    outer = progress_bar(params.get("verbose", True) and len(candidates) > 1, len(candidates), "SEAM selection",
                         unit="fit")
    for i, c in enumerate(candidates):
        m = SEAM(**{**params, **c})
        m._progress_desc = f"SEAM fit {i + 1}/{len(candidates)} (hops {m.hops})"
        m.fit(task)
        fits.append(m)
        outer.update(1)
        outer.set_postfix_str(f"best val AUC {max(m.best_val_auc_, best.best_val_auc_ if best else -1):.3f}")
        table.append({**c, "val_auc": m.best_val_auc_, "best_epoch": m.best_epoch_, "fit_seconds": m.fit_seconds_})
        if best is None or m.best_val_auc_ > best.best_val_auc_:
            best = m
    outer.close()
    if combine == "mean":
        best = SEAMEnsemble(fits)
        va = task.indices("val")
        if va.size and np.unique(task.labels[va]).size == 2:
            best.best_val_auc_ = best.evaluate(task, "val")["auc"]
    best.selection_ = table
    return best
