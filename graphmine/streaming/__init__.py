"""Streaming triangle counting: global and per-vertex triangle estimates of a graph that changes,
in one pass over its stream of edge insertions and deletions and a fixed memory.

The estimators (:mod:`graphmine.streaming.estimators`): ThinkD-ACC and ThinkD-FAST (Shin et
al., ECML-PKDD 2018, TKDD 2020), TRIEST-IMPR and TRIEST-FD (De Stefani et al., KDD 2016), WRS
(Shin, ICDM 2017), GPS (Ahmed et al., VLDB 2017) and an exact dynamic counter. The streams (:mod:`graphmine.streaming.readers`):
edge lists in file order, ``u v t`` events in time order, ScHoLP simplices, ``+ u v`` / ``- u v``
lines, standard input as it arrives. :func:`estimate_triangles` runs one over a whole stream;
``graphmine stream-triangles`` is the command line.

This component is not an algorithm family of the registry: its input is a stream of events, not
a :class:`~graphmine.Graph`, and it has one implementation (the CPU kernels), so there is nothing
for the registry's dispatch by back-end and method to choose.
"""

import os

from .._runtime.threads import resolve_threads, restores_threads
from ..core.exceptions import ParameterError, check_choice
from .estimators import (GPS, METHODS, WRS, ExactTriangleCounter, ThinkDAcc, ThinkDFast, TriestFD, TriestImpr, as_events,
                         make_estimator)
from .readers import FORMATS, EdgeStream, StreamCleaner, iter_signed_chunks, parse_signed, read_stream, with_deletions

__all__ = ["estimate_triangles", "ExactTriangleCounter", "TriestImpr", "TriestFD", "ThinkDFast", "ThinkDAcc", "WRS", "GPS",
           "make_estimator", "as_events", "METHODS", "EdgeStream", "read_stream", "StreamCleaner",
           "iter_signed_chunks", "parse_signed", "with_deletions", "FORMATS"]

# graphmine.estimate_triangles (the facade's table is generated from this line)
__facade__ = ("estimate_triangles",)


@restores_threads
def estimate_triangles(stream, memory=None, *, method="thinkd-acc", seed=None, threads=None, replicates=None,
                       probability=None, alpha=0.1):
    """Estimate the triangles of a graph stream in one pass and ``memory`` edges per sampler.

    Parameters
    ----------
    stream : EdgeStream, str, PathLike or array_like
        A stream (:func:`read_stream`), a file to read with :func:`read_stream` (format
        'auto', cleaned), or events (an ``(m, 3)`` array of (sign, u, v) rows or an ``(m, 2)``
        array of insertions).
    memory : int, optional
        Edges each sampler keeps (required but for 'exact'; 'thinkd-fast' keeps each edge with
        probability ``memory / peak``, peak being the graph's largest size along the stream).
    method : {'thinkd-acc', 'thinkd-fast', 'triest', 'triest-fd', 'wrs', 'gps', 'exact'}
        The estimator (:data:`METHODS`; 'triest' is TRIEST-IMPR; 'triest', 'wrs' and 'gps' take
        insertion-only streams).
    seed : int, optional
        Seed of the samplers' random streams (default: drawn, kept in the result's ``seed``).
    threads : int, optional
        Threads that run the samplers (default: all cores).
    replicates : int, optional
        Independent samplers of ``memory`` edges each, run in parallel; the estimate is their
        mean and its standard error comes from their spread (default: ``threads`` when given,
        else 1).
    probability : float, optional
        'thinkd-fast''s sampling probability, instead of the one ``memory`` gives.
    alpha : float
        'wrs''s waiting-room share of the memory (default 0.1).

    Returns
    -------
    estimator
        The estimator after the whole stream: ``global_estimate()``, ``stderr()``,
        ``local_estimates()``, ``top_vertices()``; it can be fed further events.

    Raises
    ------
    ParameterError
        An unknown method, a missing memory, deletions for an insertion-only method.
    GraphFormatError
        A missing or malformed file.

    Examples
    --------
    >>> import graphmine as gm
    >>> s = gm.streaming.with_deletions(gm.streaming.read_stream(gm.datasets.path("Celegans")), 0.2, seed=1)
    >>> exact = gm.estimate_triangles(s, method="exact").global_estimate()
    >>> est = gm.estimate_triangles(s, 500, method="thinkd-acc", seed=7, threads=1, replicates=200)
    >>> exact, abs(est.global_estimate() - exact) < 4 * est.stderr()
    (1690.0, True)
    """
    check_choice("method", method, METHODS)
    if isinstance(stream, (str, os.PathLike)):
        stream = read_stream(stream, threads=threads)
    events = stream if isinstance(stream, EdgeStream) else EdgeStream(*as_events(stream))
    if replicates is None:
        replicates = 1 if threads is None or method == "exact" else threads
    if method == "thinkd-fast" and probability is None:
        if memory is None:
            raise ParameterError("thinkd-fast needs a memory (or its sampling probability)")
        probability = min(1.0, memory / max(events.peak_edges(), 1))
    elif method not in ("exact",) and memory is None:
        raise ParameterError(f"{method} needs a memory budget (edges per sampler)")
    est = make_estimator(method, memory, seed=seed, replicates=replicates, probability=probability, alpha=alpha)
    resolve_threads(threads)
    return est.feed(events, threads=threads)
