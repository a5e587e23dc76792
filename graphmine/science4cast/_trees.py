"""Prediction of a binary LightGBM model by a Numba kernel over its trees in flat arrays.

LightGBM's own predictor spends most of its time per row and per tree outside the comparisons
(rows turned into sparse vectors, per-call thread set-up); the link models score a million pairs
with a few hundred trees each, so prediction took several times longer than computing the
features. Here the trees of a model are read from LightGBM's text model format into flat arrays
(split feature, threshold, missing-value rule, children, leaf values) once, and a parallel kernel
walks every tree for every row, summing the leaves in LightGBM's order: the raw score, and the
probability, equal LightGBM's ``predict`` (the decision rule of a numerical split, missing values
included, is LightGBM's ``NumericalDecision``).

Contract of the kernel: ``roots[k]`` is the first node of tree k, or ``-(leaf + 1)`` for a tree of
one leaf; a child ``c >= 0`` is a node, ``c < 0`` the leaf ``-(c + 1)``; node and leaf indices are
global (all trees concatenated). Blocks of 256 rows are dealt to ``nthreads`` threads in turn. Never
validates, never raises.
"""

import numpy as np
from numba import njit, prange

__all__ = ["TreeEnsemble"]

# LightGBM's kZeroThreshold (a float: 1e-35f), as the double it compares with
_ZERO = float(np.float32(1e-35))


@njit(cache=True)
def _walk(X, p, node, feat, thr, miss, default_left, left, right):
    while node >= 0:
        fval = np.float64(X[p, feat[node]])
        mt = miss[node]
        if np.isnan(fval) and mt != 2:
            fval = 0.0
        if (mt == 1 and -_ZERO <= fval <= _ZERO) or (mt == 2 and np.isnan(fval)):
            node = left[node] if default_left[node] else right[node]
        elif fval <= thr[node]:
            node = left[node]
        else:
            node = right[node]
    return -node - 1


@njit(cache=True, parallel=True)
def _ensemble_raw(X, roots, feat, thr, miss, default_left, left, right, leaf, nthreads, out):
    # blocks of rows, trees outer: one tree's nodes stay in the cache while a block walks it;
    # every row still adds its leaves in tree order (LightGBM's sum, bit for bit)
    m = X.shape[0]
    block = 256
    n_blocks = (m + block - 1) // block
    for t in prange(nthreads):
        for blk in range(t, n_blocks, nthreads):
            a = blk * block
            b = min(m, a + block)
            for p in range(a, b):
                out[p] = 0.0
            for k in range(roots.shape[0]):
                r = roots[k]
                for p in range(a, b):
                    out[p] += leaf[_walk(X, p, r, feat, thr, miss, default_left, left, right)]


def _ints(line):
    return [int(v) for v in line.split()]


class TreeEnsemble:
    """The trees of a binary LightGBM text model as flat arrays; :meth:`raw` and :meth:`proba`.

    Built by :meth:`from_model_string`, which returns None where this predictor does not apply
    (not a binary objective, categorical splits, linear trees): the caller then uses LightGBM.
    """

    def __init__(self, roots, feat, thr, miss, default_left, left, right, leaf, sigmoid, n_features):
        self.roots, self.feat, self.thr, self.miss = roots, feat, thr, miss
        self.default_left, self.left, self.right, self.leaf = default_left, left, right, leaf
        self.sigmoid = sigmoid
        self.n_features = n_features

    @classmethod
    def from_model_string(cls, text):
        """Parse ``Booster.model_to_string()``; None if the model is not one this kernel covers."""
        head, _, body = text.partition("\nTree=")
        kv = dict(line.split("=", 1) for line in head.splitlines() if "=" in line)
        objective = kv.get("objective", "").split()
        if not objective or objective[0] != "binary" or int(kv.get("num_tree_per_iteration", "1")) != 1:
            return None
        sigmoid = 1.0
        for tok in objective[1:]:
            if tok.startswith("sigmoid:"):
                sigmoid = float(tok.split(":", 1)[1])
        roots, feat, thr, miss, dl, left, right, leaf = [], [], [], [], [], [], [], []
        n_nodes = n_leaves = 0
        for block in ("Tree=" + body).split("\nTree=")[0:]:
            if "end of trees" in block:
                block = block.split("end of trees", 1)[0]
            t = dict(line.split("=", 1) for line in block.splitlines() if "=" in line)
            if "num_leaves" not in t:
                continue
            if int(t.get("num_cat", "0")) != 0 or t.get("is_linear", "0") != "0":
                return None
            values = [float(v) for v in t["leaf_value"].split()]
            k = int(t["num_leaves"])
            if k == 1:
                roots.append(-(n_leaves + 1))
            else:
                dt = np.array(_ints(t["decision_type"]), np.int64)
                if np.any(dt & 1):
                    return None
                lc = np.array(_ints(t["left_child"]), np.int64)
                rc = np.array(_ints(t["right_child"]), np.int64)
                # tree-local children to global ones (nodes shift by n_nodes, leaves by n_leaves)
                left.append(np.where(lc >= 0, lc + n_nodes, -(~lc + n_leaves) - 1))
                right.append(np.where(rc >= 0, rc + n_nodes, -(~rc + n_leaves) - 1))
                feat.append(np.array(_ints(t["split_feature"]), np.int64))
                thr.append(np.array([float(v) for v in t["threshold"].split()], np.float64))
                miss.append((dt >> 2) & 3)
                dl.append((dt & 2) != 0)
                roots.append(n_nodes)
                n_nodes += k - 1
            leaf.append(np.array(values, np.float64))
            n_leaves += k

        def cat(parts, dtype):
            return np.concatenate(parts).astype(dtype) if parts else np.empty(0, dtype)

        # compact node arrays (int32 indices, int8 rules): more of the trees fit in the cache
        return cls(np.array(roots, np.int32), cat(feat, np.int32), cat(thr, np.float64), cat(miss, np.int8),
                   cat(dl, np.bool_), cat(left, np.int32), cat(right, np.int32), cat(leaf, np.float64), sigmoid,
                   int(kv.get("max_feature_idx", "-1")) + 1)

    def raw(self, X, nthreads):
        """Sum of the leaves of every row of ``X`` (C-contiguous float32 or float64)."""
        out = np.empty(X.shape[0])
        _ensemble_raw(X, self.roots, self.feat, self.thr, self.miss, self.default_left, self.left, self.right,
                      self.leaf, nthreads, out)
        return out

    def proba(self, X, nthreads):
        """The positive-class probability, as LightGBM's binary objective computes it."""
        return 1.0 / (1.0 + np.exp(-self.sigmoid * self.raw(X, nthreads)))
