"""Result objects of the approximate methods: an estimate always travels with its error.

* :class:`Estimate` — one number (a count, a coefficient): ``estimate``, ``stderr``, a normal
  confidence interval ``ci`` at level ``confidence``, the sketch that produced it (``method``,
  ``estimator``, ``budget``, ``params``, ``sketch_bytes``), the fraction of intersections whose
  sketches were full (``saturated``) and the wall time (``seconds``, sketch construction
  included).
* :class:`ArrayEstimate` — the same for one value per vertex or per pair (arrays).

Both derive from :class:`SketchResult`, which holds the fields they share.

The standard error of a sum of intersection estimates is, with one sketch, the sum of the
estimated terms' standard deviations (see :mod:`graphmine._primitives.estimators`), a bound
whatever the correlation between the terms; terms computed exactly contribute nothing.
"""

import math
from dataclasses import dataclass, field
from statistics import NormalDist

import numpy as np

__all__ = ["SketchResult", "Estimate", "ArrayEstimate", "make_estimate", "make_array_estimate"]


def z_value(confidence):
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


def _plain(v):
    """A sketch parameter as a JSON value (numpy numbers to Python's)."""
    return v if isinstance(v, (str, type(None))) else float(v) if isinstance(v, float) else int(v)


@dataclass(frozen=True, eq=False, kw_only=True)
class SketchResult:
    """What every approximate result carries besides its values: the interval level, what was
    estimated, and the sketch that produced it (the common base of :class:`Estimate` and
    :class:`ArrayEstimate`; its fields are keyword-only and follow the values).

    Attributes
    ----------
    confidence : float
        Level of the confidence interval (default 0.95).
    quantity : str
        What was estimated ('triangles', '4-cliques', 'transitivity', 'jaccard', ...).
    method, estimator : str
        Sketch ('bloom', 'khash', 'onehash', 'kmv') and intersection estimator
        ('or', 'and', 'limit', 'minhash', 'kmv').
    budget : float
        Sketch memory as a fraction of the sketched CSR (64 bits per pointer and entry).
    params : dict
        Sketch parameters: ``bits`` and ``hashes`` (Bloom) or ``k`` (MinHash/KMV), ``words``,
        ``order`` (the orientation), ``seed``.
    sketch_bytes : int
        Memory of the sketches.
    saturated : float
        Fraction of estimated intersections whose Bloom filters were full (the estimate is then
        a bound); a :class:`graphmine.SketchSaturationWarning` was issued when > 0.
    seconds : float
        Wall time, sketch construction included.
    error_model : str
        How the standard errors were obtained (see the subclasses).

    Examples
    --------
    >>> import networkx as nx
    >>> from graphmine.probgraph import count_triangles
    >>> est = count_triangles(nx.complete_graph(6), method="kmv", sketch_k=8, seed=3)
    >>> isinstance(est, SketchResult), est.method, est.quantity, est.params["seed"]
    (True, 'kmv', 'triangles', 3)
    """

    confidence: float
    quantity: str
    method: str
    estimator: str
    budget: float
    params: dict = field(default_factory=dict)
    sketch_bytes: int = 0
    saturated: float = 0.0
    seconds: float = 0.0
    error_model: str = "bound"

    def _description(self):
        return {"confidence": float(self.confidence), "method": self.method, "estimator": self.estimator,
                "budget": float(self.budget), "params": {k: _plain(v) for k, v in self.params.items()},
                "sketch_bytes": int(self.sketch_bytes), "saturated": float(self.saturated),
                "seconds": float(self.seconds), "error_model": self.error_model}


@dataclass(frozen=True, eq=False)
class Estimate(SketchResult):
    """An approximate scalar with its error and the sketch that produced it.

    Attributes
    ----------
    estimate : float
        The estimated value.
    stderr : float
        Standard error of ``estimate``.
    ci : (float, float)
        ``estimate ± z * stderr`` (normal), clipped to the quantity's range, at level
        ``confidence``.
    error_model : {'bound', 'replicates', 'exact'}
        How ``stderr`` was obtained. 'bound': the sum of the per-intersection standard
        deviations, an upper bound on the standard deviation of a sum of estimates whatever
        their correlation (the terms share hash functions, so they are correlated); conservative.
        'replicates': the spread of ``replicates`` independent sketches (the estimate is their
        mean; ``ci`` uses Student's t with replicates - 1 degrees of freedom). 'exact': the
        sketches held every set completely, the estimate is exact.
    replicates : int
        Number of independent sketches averaged (default 1).
    estimated : float
        Fraction of the intersections that were estimated from sketches; the others were
        computed exactly (cheap ones, or held whole), and ``stderr`` covers the estimated ones.

    The sketch's description (``confidence``, ``quantity``, ``method``, ``estimator``,
    ``budget``, ``params``, ``sketch_bytes``, ``saturated``, ``seconds``) is that of
    :class:`SketchResult`. ``count`` is the estimate rounded to an int, ``relative_stderr``
    the standard error over the estimate; ``float()`` and ``int()`` convert.

    Examples
    --------
    >>> est = make_estimate(100.0, 5.0, confidence=0.95, quantity="triangles", method="bloom",
    ...                     estimator="or", budget=0.25)
    >>> est
    Estimate(triangles: 100 ± 5, 95% CI [90.2002, 109.8], method='bloom', budget=0.25, saturated=0)
    >>> est.count, est.relative_stderr
    (100, 0.05)
    """

    estimate: float
    stderr: float
    ci: tuple
    replicates: int = field(default=1, kw_only=True)
    estimated: float = field(default=1.0, kw_only=True)

    @property
    def count(self):
        """The estimate rounded to the nearest integer (for counts)."""
        return int(round(self.estimate))

    @property
    def relative_stderr(self):
        return self.stderr / abs(self.estimate) if self.estimate else math.inf

    def __float__(self):
        return float(self.estimate)

    def __int__(self):
        return self.count

    def __repr__(self):
        lo, hi = self.ci
        return (f"Estimate({self.quantity}: {self.estimate:.6g} ± {self.stderr:.3g}, "
                f"{100 * self.confidence:g}% CI [{lo:.6g}, {hi:.6g}], method={self.method!r}, "
                f"budget={self.budget:.3g}, saturated={self.saturated:.3g})")

    def to_dict(self):
        """JSON-serialisable summary (keys: quantity, estimate, stderr, ci, confidence, ...)."""
        return {"quantity": self.quantity, "estimate": float(self.estimate), "stderr": float(self.stderr),
                "ci": [float(self.ci[0]), float(self.ci[1])], **self._description(),
                "replicates": int(self.replicates), "estimated": float(self.estimated)}


@dataclass(frozen=True, eq=False)
class ArrayEstimate(SketchResult):
    """Approximate values per vertex or per pair, with their errors.

    ``numpy.asarray(result)`` gives the estimates. ``error_model`` is 'pairwise' for one
    intersection per value (similarities: the estimator's own variance, delta method) and
    'bound' for sums of intersections (per-vertex triangles, clustering: the sum of the terms'
    standard deviations, see :class:`Estimate`). The sketch's description is that of
    :class:`SketchResult`.

    Attributes
    ----------
    estimate : ndarray of float64 of shape (m,)
        The estimates.
    stderr : ndarray of float64 of shape (m,)
        Their standard errors.
    ci_low, ci_high : ndarray of float64 of shape (m,)
        Bounds of the normal confidence intervals at level ``confidence``, clipped to the
        quantity's range.

    Examples
    --------
    >>> import numpy as np
    >>> a = make_array_estimate(np.array([1.0, 2.0]), np.array([0.0, 0.5]), confidence=0.95,
    ...                         quantity="triangles per vertex", method="kmv", estimator="kmv", budget=0.5)
    >>> a.ci_low.round(3).tolist(), len(a), np.asarray(a).tolist()
    ([1.0, 1.02], 2, [1.0, 2.0])
    """

    estimate: np.ndarray
    stderr: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray

    def __array__(self, dtype=None, copy=None):
        return self.estimate if dtype is None else self.estimate.astype(dtype)

    def __len__(self):
        return self.estimate.shape[0]

    def __repr__(self):
        return (f"ArrayEstimate({self.quantity}, n={len(self)}, method={self.method!r}, "
                f"budget={self.budget:.3g}, saturated={self.saturated:.3g})")

    def to_dict(self):
        """JSON-serialisable form (arrays as lists)."""
        return {"quantity": self.quantity, **self._description(),
                **{k: getattr(self, k).tolist() for k in ("estimate", "stderr", "ci_low", "ci_high")}}


def make_estimate(value, stderr, *, confidence, lo=0.0, hi=math.inf, dof=None, **meta):
    """An Estimate with a normal interval (or Student's t with ``dof`` degrees of freedom).

    .. math:: [\\max(lo, x - z s), \\min(hi, x + z s)], \\quad z = \\Phi^{-1}((1 + c) / 2)

    Parameters
    ----------
    value : float
        The estimate x.
    stderr : float
        Its standard error s (negative values count as 0).
    confidence : float
        Level c of the interval, in (0, 1).
    lo, hi : float, default 0 and inf
        Range of the quantity; the interval is clipped to it.
    dof : int, optional
        Degrees of freedom of Student's t (replicates - 1); default: the normal's z.
    **meta
        The other fields of :class:`Estimate` (``quantity``, ``method``, ``estimator``,
        ``budget``, ...).

    Returns
    -------
    Estimate
        The estimate with its interval.

    Examples
    --------
    >>> make_estimate(10.0, 1.0, confidence=0.95, quantity="triangles", method="kmv",
    ...               estimator="kmv", budget=0.5).ci
    (8.040036015459947, 11.959963984540053)
    """
    se = max(float(stderr), 0.0)
    if dof is None:
        z = z_value(confidence)
    else:
        from scipy.stats import t as student_t

        z = float(student_t.ppf(0.5 + confidence / 2.0, dof))
    ci = (max(lo, value - z * se), min(hi, value + z * se))
    return Estimate(float(value), se, (float(ci[0]), float(ci[1])), confidence=float(confidence), **meta)


def make_array_estimate(values, stderr, *, confidence, lo=0.0, hi=np.inf, **meta):
    """An ArrayEstimate with normal intervals, clipped to the quantity's range.

    Parameters
    ----------
    values : ndarray of float64 of shape (m,)
        The estimates.
    stderr : ndarray of float64 of shape (m,)
        Their standard errors (negative values count as 0).
    confidence : float
        Level of the intervals, in (0, 1).
    lo, hi : float or ndarray, default 0 and inf
        Range of the quantity (per value where an array).
    **meta
        The other fields of :class:`SketchResult`.

    Returns
    -------
    ArrayEstimate
        The estimates with their intervals.

    Examples
    --------
    >>> import numpy as np
    >>> a = make_array_estimate(np.array([0.5]), np.array([1.0]), confidence=0.95, hi=1.0,
    ...                         quantity="jaccard", method="khash", estimator="minhash", budget=0.25)
    >>> a.ci_low.tolist(), a.ci_high.tolist()
    ([0.0], [1.0])
    """
    se = np.maximum(stderr, 0.0)
    z = z_value(confidence)
    return ArrayEstimate(values, se, np.maximum(lo, values - z * se), np.minimum(hi, values + z * se),
                         confidence=float(confidence), **meta)
