"""The motif census: counts of every connected graphlet on up to 5 vertices, for the whole graph
and per vertex (graphlet degree vectors), and per edge up to 4 vertices, exact or estimated.

Numbering (Pržulj 2007; ORCA's, Hočevar and Demšar 2014, so that results can be compared and
exchanged). Graphlets: G0 edge; G1 2-path, G2 triangle; G3 3-path, G4 3-star, G5 4-cycle, G6 paw
(a triangle with a pendant edge), G7 diamond (a 4-cycle with one chord), G8 4-clique. Node
orbits (the positions of a vertex, up to symmetry):

=====  ======================================  =====  =======================================
orbit  graphlet: position                      orbit  graphlet: position
=====  ======================================  =====  =======================================
0      G0 (the degree)                         8      G5
1      G1: end                                 9      G6: end of the pendant edge
2      G1: middle                              10     G6: triangle vertex of degree 2
3      G2                                      11     G6: centre (degree 3)
4      G3: end                                 12     G7: degree 2
5      G3: middle                              13     G7: degree 3 (on the chord)
6      G4: leaf                                14     G8
7      G4: centre
=====  ======================================  =====  =======================================

The 5-vertex graphlets and their node orbits (d: the vertex's degree in the graphlet):

=====  ============================================  ===============================================
G      graphlet                                      orbits
=====  ============================================  ===============================================
G9     4-path                                        15 end, 16 next to an end, 17 middle
G10    fork (3-star with one arm of length 2)        18 end of the long arm, 19 leaf of the centre,
                                                     20 middle of the long arm, 21 centre
G11    4-star                                        22 leaf, 23 centre
G12    bull (triangle, pendants at two vertices)     24 pendant, 25 triangle d2, 26 triangle d3
G13    triangle with a tail of two edges             27 tail end, 28 tail middle, 29 triangle d2,
                                                     30 triangle d3
G14    cricket (triangle, two pendants at a vertex)  31 pendant, 32 triangle d2, 33 d4
G15    5-cycle                                       34
G16    banner (4-cycle with a pendant)               35 pendant, 36 cycle d2 opposite the d3 vertex,
                                                     37 cycle d2 next to it, 38 d3
G17    diamond, a pendant at a degree-3 vertex       39 pendant, 40 diamond d2, 41 chord d3, 42 d4
G18    bowtie                                        43 d2, 44 centre
G19    diamond, a pendant at a degree-2 vertex       45 pendant, 46 diamond d2, 47 d3 holding the
                                                     pendant, 48 chord d3
G20    K(2,3)                                        49 d2, 50 d3
G21    house (4-cycle, a triangle on one edge)       51 base d2, 52 roof apex, 53 d3
G22    three triangles on one edge, K(1,1,3)         54 d2, 55 d4
G23    4-clique with a pendant                       56 pendant, 57 clique d3, 58 d4
G24    gem (a 4-path and a vertex joined to all)     59 path end, 60 path middle, 61 d4
G25    4-wheel less a spoke                          62 d2, 63 rim d3 next to the d2 vertex, 64 hub
                                                     and the opposite rim vertex
G26    4-clique and a vertex joined to two of it     65 d2, 66 d3, 67 d4
G27    4-wheel                                       68 rim, 69 hub
G28    5-clique less an edge                         70 d3, 71 d4
G29    5-clique                                      72
=====  ============================================  ===============================================

tests/graphlets/test_census5.py holds one rooted representative of every orbit. Edge orbits: 0 G1; 1 G2; 2 G3 end edge, 3 G3 middle edge; 4 G4; 5 G5; 6 G6 pendant edge, 7 G6
triangle edge away from the centre, 8 G6 triangle edge at the centre; 9 G7 rim, 10 G7 chord; 11
G8. The functions dispatch on ``device=`` (:mod:`graphmine.core.registry`); the CPU census is in
``_cpu.py`` with its Numba kernels in ``_kernels.py``; the 5-vertex node orbits in ``_census5.py``
and ``_kernels5.py``.
"""

from .._runtime.docs import fill_doc
from ..core.exceptions import check_choice
from ..core.registry import call, declare
from ._cpu import (EDGE_ORBIT_COUNTS, GRAPHLET_NAMES, GRAPHLET_ORBITS, NODE_ORBIT_COUNTS, ORBIT_SIZES,
                   GraphletEstimate, sample_graphlet_counts)

__all__ = ["graphlet_counts", "orbit_counts", "GraphletEstimate", "GRAPHLET_NAMES", "GRAPHLET_ORBITS", "ORBIT_SIZES",
           "NODE_ORBIT_COUNTS", "EDGE_ORBIT_COUNTS"]
#: the names graphmine offers as graphmine.<name>
__facade__ = ("GraphletEstimate",)


@declare("global counts of the connected graphlets on up to 5 vertices")
@fill_doc
def graphlet_counts(G, size=4, *, induced=True, method="exact", samples=None, seed=None, confidence=0.95,
                    threads=None, progress=False, device="cpu", sampler=None):
    """How often every connected graphlet on 2 to ``size`` vertices occurs in ``G``.

    Induced counts (default) count the vertex sets whose induced subgraph is the graphlet;
    non-induced ones count the graphlet's copies as subgraphs (edge sets), a fixed linear map of
    the induced counts: a 4-clique holds 3 4-cycles, for instance.

    {Parameters: G}
    size : {3, 4, 5}, default 4
        The largest graphlets counted.
    induced : bool, default True
        Induced counts, or copies as subgraphs.
    method : {'exact', 'sample'}, default 'exact'
        'exact' counts from the per-vertex census (:func:`orbit_counts`); 'sample' estimates
        the 4-vertex graphlets from ``samples`` uniformly drawn 3-paths (Jha, Seshadhri and
        Pinar 2015), or (size 5) the 5-vertex graphlets from ``samples`` uniformly drawn
        copies of the three spanning trees of 5 vertices (``sampler``, below), G0..G8 exact,
        and returns a :class:`GraphletEstimate` with standard errors and intervals.
    samples : int, optional
        3-paths to draw (``method='sample'``; default 1,000,000), or spanning trees (size 5,
        default 1,000,000), or vertices (``sampler='vertices'``, default 1,000). The relative
        standard error of a graphlet holding a share p of the 3-paths is about
        :math:`\\sqrt{{(1 - p) / (p s)}}`.
    {seed}
    confidence : float, default 0.95
        Level of the intervals (``method='sample'``).
    {threads}
    progress : bool, default False
        Show a progress bar on stderr (exact census).
    {device}
    sampler : {'vertices', 'trees'}, optional
        The 5-vertex estimate (``size=5, method='sample'`` only; default 'trees'): drawn
        spanning trees, or the exact orbit counts of drawn vertices. 'trees' draws a third of the
        ``samples`` from each of three relaxed sets in which every copy of the 4-path P, the fork
        F and the 4-star S appears once, uniformly: of sizes :math:`W_S = \\sum_c \\binom{d_c}{4}`,
        :math:`W_F = \\sum_c \\binom{d_c - 1}{2} s_c` and
        :math:`W_P = \\sum_c (s_c^2 - \\sum_{b \\sim c} (d_b - 1)^2) / 2`, with
        :math:`s_c = \\sum_{b \\sim c} (d_b - 1)`; a draw with a repeated vertex is a miss. With
        h_{g,T} of the n_T draws of type T inducing graphlet g, which holds t_g(T) spanning trees
        of type T, the estimate :math:`\\hat C_g = \\sum_T h_{g,T} / \\sum_T n_T t_g(T) / W_T` is
        unbiased (the per-type estimates :math:`W_T h_{g,T} / (n_T t_g(T))` combined with fixed
        weights); its variance :math:`\\sum_T n_T q_T (1 - q_T) / (\\sum_T n_T t_g(T) / W_T)^2`
        (q_T = h_{g,T} / n_T) gives the standard error, and the intervals are Wilson's for the
        pooled hit proportion (conservative). The draws cost O(log n + log d) each, not the
        census's work: Kronecker 20 (15.7 million edges) takes about 3 processor microseconds a
        draw. At equal processor time its errors were 6.6-26x (median over the graphlets)
        smaller than those of 'vertices' on Kronecker 10, 11 and ca-HepTh. 'vertices' draws
        ``samples`` vertices (the hubs counted in full, the others from a mixture of three
        weights that follow the census's work, the 4-stars and the triangles at the vertex)
        and counts their orbits exactly, combined by a regression estimator on the mixture's
        shares (bias of order 1 / samples, jackknife standard errors, Student's t intervals);
        its cost grows with the census's, about 4.7x a Kronecker scale.

    Returns
    -------
    ndarray of int64 of shape (3,), (9,) or (30,), or GraphletEstimate
        Entry g: the count of graphlet G_g (:data:`GRAPHLET_NAMES`: edge, 2-path, triangle,
        3-path, 3-star, 4-cycle, paw, diamond, 4-clique, then G9..G29 of size 5: see
        :mod:`graphmine.graphlets`).

    Raises
    ------
    ParameterError
        A size, method, sample count or level out of range, or a sampler other than 'vertices'
        and 'trees', or given without ``size=5, method='sample'``.

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> gm.graphlet_counts(nx.cycle_graph(5)).tolist()  # 5 edges, 5 2-paths, 5 3-paths
    [5, 5, 0, 5, 0, 0, 0, 0, 0]
    >>> gm.graphlet_counts(nx.complete_graph(4), induced=False).tolist()
    [6, 12, 4, 12, 4, 3, 12, 6, 1]
    >>> gm.graphlet_counts(nx.complete_graph(5), 5)[-1].item()  # one 5-clique
    1
    >>> e = gm.graphlet_counts(nx.star_graph(6), 5, method="sample", sampler="trees", samples=300, seed=1)
    >>> float(e.estimate[11]), float(e.stderr[11])  # C(6, 4) 4-stars: every draw is one
    (15.0, 0.0)
    >>> e = gm.graphlet_counts(nx.complete_graph(7), 5, method="sample", sampler="trees", samples=3000, seed=1)
    >>> round(float(e.estimate[29])), bool(e.ci_low[29] <= 21 <= e.ci_high[29])  # 21 5-cliques
    (21, True)
    """
    check_choice("method", method, ("exact", "sample"))
    if sampler is not None:
        check_choice("sampler", sampler, ("vertices", "trees"))
        if size != 5 or method != "sample":
            from ..core.exceptions import ParameterError

            raise ParameterError(f"sampler applies to size=5 with method='sample' only (got size={size!r}, "
                                 f"method={method!r})")
    if method == "sample":
        # the registry's methods are the sketches' (graphmine.core.registry.METHODS): sampling
        # is this family's own, on the CPU
        check_choice("device", device, ("cpu",))
        return sample_graphlet_counts(G, size, samples=samples, seed=seed, induced=induced, confidence=confidence,
                                      threads=threads, sampler=sampler)
    if samples is not None or seed is not None:
        from ..core.exceptions import ParameterError

        raise ParameterError("samples and seed apply to method='sample' only")
    return call("graphlet_counts", G, size=size, induced=induced, threads=threads, progress=progress, device=device)


@declare("per-vertex orbit counts of the graphlets on up to 5 vertices, per-edge up to 4")
@fill_doc
def orbit_counts(G, size=4, *, kind="node", threads=None, progress=False, device="cpu"):
    """The graphlet orbit counts of every vertex (graphlet degree vectors) or of every edge.

    Entry (v, o) counts the induced connected graphlets on up to ``size`` vertices in which v
    occupies orbit o (ORCA's numbering: see :mod:`graphmine.graphlets`); entry (e, o) the same
    for edge e and the edge orbits. Exact, from a small linear system per vertex (edge) over
    counts of triangles, 4-cycles, 4-cliques and degree terms (Hočevar and Demšar 2014).

    {Parameters: G}
    size : {3, 4, 5}, default 4
        The largest graphlets counted: 4, 15 or 73 node orbits, 2 or 12 edge orbits (size 5:
        node orbits only; its counters are per vertex, 8 x 73 bytes each).
    kind : {'node', 'edge'}, default 'node'
        Orbits of vertices or of edges.
    {threads}
    progress : bool, default False
        Show a progress bar on stderr.
    {device}

    Returns
    -------
    ndarray of int64 of shape (n, 15) (node) or (m, 12) (edge) for size 4, (n, 73) for size 5
        Row v is vertex v of ``gm.as_graph(G)`` (its ``node_ids`` give the input's labels); row i
        of the edge orbits is edge i of ``gm.as_graph(G).edges()``, the edges (u, v) with u < v
        in increasing order.

    Raises
    ------
    ParameterError
        A size or kind out of range (edge orbits of size 5 included).

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> gm.orbit_counts(nx.star_graph(3))[:, [0, 6, 7]].tolist()  # degree, 3-star leaf, centre
    [[3, 0, 1], [1, 1, 0], [1, 1, 0], [1, 1, 0]]
    >>> gm.orbit_counts(nx.path_graph(4), kind="edge")[:, [2, 3]].tolist()  # 3-path end, middle
    [[1, 0], [0, 1], [1, 0]]
    >>> gm.orbit_counts(nx.cycle_graph(6), 5)[0, [15, 16, 17]].tolist()  # 4-path end, next, middle
    [2, 2, 1]
    """
    return call("orbit_counts", G, size=size, kind=kind, threads=threads, progress=progress, device=device)
