"""ProbGraph: graph mining from probabilistic neighbourhood sketches.

Every vertex neighbourhood is replaced by a small sketch of one shared size — a Bloom filter, a
k-hash or 1-hash (bottom-k) MinHash, or a KMV sketch — and the set intersections at the heart of
triangle and clique counting, clustering coefficients and neighbourhood similarity are estimated
from the sketches with a few word operations. The functions have the names and arguments of the
exact ones in :mod:`graphmine` plus the sketch options (``method``, ``budget``/``bits``/
``sketch_k``, ``hashes``, ``estimator``, ``seed``), and return an :class:`Estimate` (or
:class:`ArrayEstimate`) that carries a standard error, a confidence interval, the sketch
parameters, its memory and a saturation report. ``method='exact'`` forwards to the exact kernels.

After Besta et al., "ProbGraph: High-Performance and High-Accuracy Graph Mining with
Probabilistic Set Representations", SC 2022.
"""

from .counting import (average_clustering, clustering, count_cliques, count_triangles, transitivity,
                       triangles)
from .results import ArrayEstimate, Estimate
from .similarity import MEASURES, JarvisPatrickResult, jarvis_patrick, similarity
from .sketches import METHODS, NeighbourhoodSketch, sketch_neighbourhoods
from .tuning import SketchChoice, choose_sketch

__all__ = [
    "count_triangles", "count_cliques", "triangles", "clustering", "average_clustering",
    "transitivity", "similarity", "jarvis_patrick", "sketch_neighbourhoods", "choose_sketch",
    "Estimate", "ArrayEstimate", "JarvisPatrickResult", "NeighbourhoodSketch", "SketchChoice",
    "METHODS", "MEASURES",
]
#: the names graphmine offers as graphmine.<name>
__facade__ = ("similarity", "jarvis_patrick", "choose_sketch", "Estimate")
