"""The GPU back-end's rule (:mod:`graphmine.core.registry`), which every family's GPU code obeys,
and the Bloom-sketch triangle estimate built and intersected on the GPU (sketch machinery, beside
:mod:`graphmine.probgraph`); the families' exact implementations are in their folders
(``graphmine/<family>/_cuda.py``).

Imported by the registry on the first ``device='cuda'`` or ``'auto'`` call; importing it loads no
``numba.cuda`` (the first kernel launch does). :func:`can_run` is the back-end's rule: 'cuda'
needs a visible device (else :class:`NoCudaDeviceError`), 'auto' takes the GPU when one is visible
and, for exact counts, the graph has at least :func:`auto_min_edges` edges.
"""

from ..core.registry import backend_rule, implements
from . import MAX_K
from ._device import use_cuda

__all__ = ["can_run", "bloom_count_triangles"]


@backend_rule("cuda")
def can_run(family, G, method, kwargs, device):
    """True when the call runs on the GPU, else the reason (see the module docstring).

    Parameters
    ----------
    family : str
        The family called, for the message.
    G : Graph
        The graph (exact counts: its size picks the device under 'auto').
    method : str
        'exact' or 'bloom'.
    kwargs : dict
        The call's other arguments (``k`` picks the size rule of :func:`auto_min_edges`).
    device : {'cuda', 'auto'}
        The device asked for.

    Returns
    -------
    True or str
        True, or why the GPU declines (the registry then tries the next back-end).

    Raises
    ------
    NoCudaDeviceError
        ``device='cuda'`` and no device is visible.

    Examples
    --------
    >>> import networkx as nx, graphmine as gm
    >>> can_run("count_triangles", gm.as_graph(nx.path_graph(3)), "exact", {}, "auto")
    "device='auto' found no device, or a graph below count_triangles's size rule (graphmine.cuda.auto_min_edges)"
    """
    k = min(kwargs.get("k") or 3, MAX_K)  # k=None (every size) is declined by the implementation
    # the Bloom estimate takes the GPU whenever one is visible; exact counts by the size rule
    if use_cuda(device, G if method == "exact" else None, k):
        return True
    return f"device='auto' found no device, or a graph below {family}'s size rule (graphmine.cuda.auto_min_edges)"


def bloom_count_triangles(G, *, method="bloom", k=3, **kw):
    """The Bloom-filter triangle estimate with the sketches built and intersected on the GPU.

    Parameters
    ----------
    G : Graph
        The graph.
    method : {'bloom'}
        The only sketch built on the GPU.
    k : {3}
        Triangles only.
    **kw
        The options of :func:`graphmine.probgraph.count_triangles`.

    Returns
    -------
    Estimate
        The same estimate as the CPU's for the same seed, up to the order of float additions.

    Examples
    --------
    >>> import networkx as nx, graphmine as gm, graphmine.cuda as gc
    >>> G = gm.as_graph(nx.complete_graph(5))
    >>> round(bloom_count_triangles(G, bits=4096, seed=1).estimate) if gc.is_available() else 10
    10
    """
    from ..probgraph.counting import clique_estimate
    from ._bloom import bloom_triangles

    kw.pop("device", None)
    return clique_estimate(G, k, method, gpu_run=bloom_triangles, **kw)


def _bloom_k(G, kwargs):
    k = kwargs.get("k", 3)
    return True if k == 3 else f"estimates triangles (k = 3) with method='bloom'; k = {k} runs on the CPU"


implements("count_triangles", "cuda", methods=("bloom",))(bloom_count_triangles)
implements("count_cliques", "cuda", methods=("bloom",), can_run=_bloom_k)(bloom_count_triangles)


@implements("transitivity", "cuda", methods=("bloom",))
def _bloom_transitivity(G, *, method="bloom", **kw):
    from ..probgraph import transitivity as estimate

    return estimate(G, method=method, device="cuda", **kw)
