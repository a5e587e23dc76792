"""Pick a sketch size for a target relative error.

The estimators' variance falls roughly like 1/B (Bloom filters far from full) or 1/k (MinHash,
KMV), so a pilot run at a small size predicts the size needed; the prediction is checked by a
run at that size and refined (the variance of a nearly full Bloom filter grows faster than 1/B).
"""

from .._runtime.docs import fill_doc
import math
from dataclasses import dataclass

from ..core.exceptions import ParameterError
from ..core.validation import as_graph
from .counting import count_cliques
from ..core.registry import check_method
from .sketches import METHODS

__all__ = ["SketchChoice", "choose_sketch"]


@dataclass(frozen=True)
class SketchChoice:
    """A sketch size and the relative standard error measured with it.

    ``bits`` and ``hashes`` (Bloom) or ``sketch_k`` (MinHash/KMV) can be passed straight to the
    estimating functions (:meth:`kwargs`); ``budget`` is the same size as a fraction of the
    sketched CSR.

    Attributes
    ----------
    method : str
        The sketch method.
    bits, hashes : int or None
        Bloom filter size and hash functions (None for MinHash/KMV).
    sketch_k : int or None
        MinHash/KMV size (None for Bloom filters).
    budget : float
        The size as a fraction of the sketched CSR.
    relative_stderr : float
        The relative standard error measured with this size.
    target : float
        The relative error asked for.
    met : bool
        Whether ``relative_stderr <= target`` (False when the size cap was reached first).

    Examples
    --------
    >>> import networkx as nx
    >>> c = choose_sketch(nx.complete_graph(8), 0.5, method="kmv", seed=1)
    >>> c.kwargs(), c.met
    ({'method': 'kmv', 'sketch_k': 8}, True)
    """

    method: str
    bits: object
    hashes: object
    sketch_k: object
    budget: float
    relative_stderr: float
    target: float
    met: bool

    def kwargs(self):
        """Keywords for :func:`count_cliques` and friends."""
        if self.method == "bloom":
            return {"method": "bloom", "bits": self.bits, "hashes": self.hashes}
        return {"method": self.method, "sketch_k": self.sketch_k}


@fill_doc
def choose_sketch(G, rel_error, *, method="bloom", k=3, hashes=1, seed=None, max_bits=1 << 16,
                  max_k=1 << 12, rounds=3, threads=None):
    """The smallest sketch (up to ``rounds`` refinements) whose k-clique estimate has a relative
    standard error of at most ``rel_error``.

    {Parameters: G}
    rel_error : float
        Target relative standard error (e.g. 0.01 for 1%).
    method : {'bloom', 'khash', 'onehash', 'kmv'}, default 'bloom'
        The sketch to size.
    k : int, default 3
        Clique size the sketch is for (3: triangles, clustering).
    {sketch_hashes, sketch_seed}
    max_bits, max_k : int, default 2**16 and 2**12
        Caps on the Bloom filter bits and the MinHash/KMV size.
    rounds : int, default 3
        Most refinements of the size after the first probe.
    {threads}

    Returns
    -------
    SketchChoice
        The size found and the error measured with it.

    Raises
    ------
    ParameterError
        ``rel_error`` outside (0, 1), or an unknown method.

    Examples
    --------
    >>> import networkx as nx
    >>> c = choose_sketch(nx.karate_club_graph(), 0.05, method="kmv", seed=1)
    >>> c.met, c.relative_stderr <= 0.05
    (True, True)
    """
    G = as_graph(G)
    check_method(method, METHODS)
    if not isinstance(rel_error, (int, float)) or not 0 < rel_error < 1:
        raise ParameterError(f"rel_error must lie strictly between 0 and 1, got {rel_error!r}")
    size = 64 if method == "bloom" else 8
    cap = max_bits if method == "bloom" else max_k
    est = None
    for _ in range(max(1, rounds)):
        kw = {"bits": size, "hashes": hashes} if method == "bloom" else {"sketch_k": size}
        import warnings

        from ..core.exceptions import SketchSaturationWarning

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SketchSaturationWarning)
            est = count_cliques(G, k, method=method, seed=seed, threads=threads, **kw)
        r = est.relative_stderr
        if r <= rel_error or size >= cap:
            break
        # variance ~ 1/size: scale, with 10% headroom, at least doubling and within the cap
        grow = 1.1 * (r / rel_error) ** 2 if math.isfinite(r) else 4.0
        new = int(math.ceil(size * max(grow, 2.0)))
        if method == "bloom":
            new = 64 * ((new + 63) // 64)
        size = min(new, cap)
    r = est.relative_stderr
    return SketchChoice(method, est.params.get("bits"), est.params.get("hashes"), est.params.get("k"),
                        est.budget, r, float(rel_error), bool(r <= rel_error))
