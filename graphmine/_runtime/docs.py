"""Shared docstring text: the parameter entries that many public functions have in common.

A docstring names shared entries by a line that holds only ``{name}`` or ``{name, name, ...}``
(at the indentation of the Parameters entries); :func:`fill_doc` replaces it with those entries
of :data:`PARAMETERS`, in that order, indented alike. A section that opens with shared entries
names its heading in that line, ``{Parameters: name, name, ...}``: the heading, its underline and
the entries (the section's own entries may follow). The same parameter (``G``, ``threads``, ``method``, ``device``, ``seed``, ``budget``, ...)
is then described in one place, and ``help()``, the doctests and the rendered docs show the
filled text. Under ``python -OO`` docstrings are None and the functions are returned unchanged.
"""

import re

__all__ = ["PARAMETERS", "fill_doc", "fill", "named"]

# name -> numpydoc entry (first line unindented, description indented by four spaces)
PARAMETERS = {
    "G": """\
G : Graph or anything :func:`graphmine.as_graph` accepts
    The undirected graph: a :class:`~graphmine.Graph`, a networkx graph, a scipy sparse
    adjacency matrix, an (m, 2) array of edges or an edge-list file path.""",
    "threads": """\
threads : int, optional
    Number of threads of the parallel kernels (default None: numba's current setting, all
    cores unless lowered). numba's setting is restored on return.""",
    "method": """\
method : {'exact', 'bloom', 'khash', 'onehash', 'kmv'}, default 'exact'
    'exact' counts exactly; the others estimate from sketches of the vertex neighbourhoods
    (Bloom filters, k-hash or one-hash MinHash, k minimum values) and return an
    :class:`~graphmine.probgraph.Estimate` or :class:`~graphmine.probgraph.ArrayEstimate`;
    their options (``budget``, ``seed``, ...) are those of the :mod:`graphmine.probgraph`
    function of the same name.""",
    "device": """\
device : {'cpu', 'cuda', 'auto'}, default 'cpu'
    Where to count: 'cuda' runs the kernels of :mod:`graphmine.cuda` on the GPU (raising
    :class:`~graphmine.cuda.NoCudaDeviceError` when none is visible); 'auto' takes the GPU
    when one is visible and the graph is large enough to gain from it.""",
    "k_truss": """\
Graph
    Its vertices are those of ``G`` that keep an edge, in ``G``'s order, with ``G``'s
    ``node_ids``.""",
    "count_or_estimate": """\
int or Estimate
    The exact count (``method='exact'``), else the estimate with its standard error.""",
    "kept_results": """\
Exact counts on the CPU are kept on the :class:`~graphmine.Graph` (a graph is immutable):
per-vertex triangles feed the clustering coefficients, their mean, the transitivity and the
triangle count, so a second related call on the same graph object does not count again
(:meth:`graphmine.Graph.cached_result`). What a graph keeps is bounded by the size of its own
CSR arrays (``Graph.nbytes``, at least 64 KiB; least recently used first out), is not pickled,
and does not depend on ``threads``; arrays are returned as copies, so changing one never
changes a later result. A networkx graph or an edge list is converted anew on every call:
convert it once with :func:`graphmine.as_graph` to share the counts.""",
    "exact_method": """\
method : {'exact'}, default 'exact'
    Only exact counts exist (the keyword is there for the facade's uniform signature).""",
    "sketch_kwargs": """\
**kwargs
    Options of the sketch methods (``budget``, ``seed``, ``estimator``, ...), passed to the
    :mod:`graphmine.probgraph` function of the same name; none for ``method='exact'``.""",
    "seed": """\
seed : int, optional
    Seed of the random choices (default None: fresh entropy). The same seed gives the same
    result.""",
    "rng_seed": """\
seed : int or numpy.random.Generator, optional
    Seed of the random draws, or a generator to draw from (default None: fresh entropy).
    The same int seed gives the same graph.""",
    # the options of the sketch estimates (graphmine.probgraph and its GPU and Dask back-ends)
    "sketch_method": """\
method : {'bloom', 'khash', 'onehash', 'kmv', 'exact'}, default 'bloom'
    The sketch: Bloom filters, k-hash MinHash, one-hash (bottom-k) MinHash or k minimum
    values; 'exact' returns the exact count of the :mod:`graphmine` function of the same
    name instead of an estimate.""",
    "sketch_budget": """\
budget : float, optional
    Sketch memory as a fraction of the sketched CSR, 64 (n + nnz) bits, in (0, 1] (default
    0.25 when neither ``bits`` nor ``sketch_k`` is given). A larger budget, a smaller error.""",
    "sketch_bits": """\
bits : int, optional
    Bloom filter size per vertex, in bits (rounded up to a multiple of 64); instead of
    ``budget``.""",
    "sketch_hashes": """\
hashes : int, default 1
    Hash functions per Bloom filter, 1..16.""",
    "sketch_k": """\
sketch_k : int, optional
    MinHash hash functions (k-hash) or values kept (one-hash, KMV; >= 3 for KMV); instead
    of ``budget``.""",
    "sketch_estimator": """\
estimator : {'or', 'and', 'limit', 'minhash', 'kmv'}, optional
    Intersection estimator: for Bloom filters 'or' (default), 'and' or 'limit'; MinHash
    sketches take 'minhash' and KMV 'kmv' (their defaults).""",
    "sketch_seed": """\
seed : int, optional
    Seeds the hash functions (default None: drawn from fresh entropy and recorded in the
    result's ``params``); the same seed gives the same sketches and estimate.""",
    "sketch_clamp": """\
clamp : bool, optional
    Clamp every intersection estimate to [0, min(|X|, |Y|)]. Default: False for Bloom
    filters in the clique counts, whose bias-corrected estimates sum without bias while
    clamping biases the sum upward; True otherwise (MinHash/KMV single-term estimates are
    heavy-tailed). Saturated terms are always clamped.""",
    "sketch_confidence": """\
confidence : float, default 0.95
    Level of the confidence interval, in (0, 1).""",
    "sketch_replicates": """\
replicates : int, default 1
    1: one sketch, ``stderr`` a bound (see :class:`~graphmine.probgraph.Estimate`). R >= 2:
    R independent sketches (R times the work); the estimate is their mean and ``stderr``
    their standard error, a calibrated error rather than a bound.""",
    "sketch_hub_bits": """\
hub_bits : int, optional
    Bloom only: size of the exact bitmap of the highest-ranked vertices in every sketch
    (rounded up to 64, at most n). Default: half of the ``budget``, or none when ``bits`` is
    given; 0 turns it off. Within a ``budget`` the Bloom filters get the rest.""",
    "sketch_exact_threshold": """\
exact_threshold : int, optional
    Intersections with an out-neighbourhood of at most this many vertices are computed
    exactly; default: the sketch row length in 64-bit words (k for MinHash/KMV); 0 estimates
    every term.""",
    "sketch_device": """\
device : {'cpu', 'cuda', 'auto'}, default 'cpu'
    Where to run: other than 'cpu', the call goes through :mod:`graphmine.core.registry` to the
    back-ends of that device (:mod:`graphmine.cuda` estimates triangles from Bloom filters
    on the GPU: the same seed gives the same filters and, up to the order of float
    additions, the same estimate as on the CPU). 'auto': the GPU where it applies.""",
    "similarity_options": """\
measure : {'jaccard', 'overlap', 'common'}
    |A ∩ B| / |A ∪ B|, |A ∩ B| / min(|A|, |B|) or |A ∩ B| of the two neighbourhoods.
method : {'exact', 'bloom', 'khash', 'onehash', 'kmv'}
budget, bits, hashes, sketch_k, estimator, seed, clamp, confidence, threads
    Sketch options, as in :func:`count_cliques`.""",
    "k": """\
k : int
    Clique size, >= 3.""",
    "clique_k_raises": """\
ParameterError
    ``k`` is not an integer (a bool is refused) or is below the smallest clique size allowed
    (under ``k``); the message names the rule and the value.""",
    "order": """\
order : {'degree', 'degeneracy'}, optional
    Orientation of the edges before counting (default: 'degree' for k = 3, 'degeneracy'
    otherwise, whose out-degrees are bounded by the graph's degeneracy). The exact CPU count
    also takes 'approx-degeneracy', its default for k >= 4 from 4 threads and 2^19 edges on
    (:func:`graphmine.cliques._cpu.count_cliques`).""",
    "count_zeros": """\
count_zeros : bool, default True
    As in networkx: if False, average only over vertices with a nonzero coefficient.
    Isolated vertices count as 0 when True; use ``G.degree > 0`` to average over vertices
    with an edge (the convention of the published SNAP figures).""",
    # the motif functions (graphmine.motifs)
    "motif_observed_G": """\
G : Graph or anything :func:`graphmine.as_graph` accepts
    The observed graph (the candidate motifs' missing edges are what is predicted).""",
    "motif": """\
motif : Motif
    The pattern (:func:`~graphmine.motifs.clique`, :func:`~graphmine.motifs.star`, ...).""",
    "motif_tuples": """\
tuples : array_like of int of shape (N, k)
    Distinct vertices per row, in the motif's position order.""",
    "motif_returns": """\
Motif
    The pattern, with its automorphisms and order constraints.""",
    # the Science4Cast functions (graphmine.science4cast)
    "s4c_graph": """\
graph : array_like of int of shape (E, 3)
    Rows ``[v1, v2, t]``: an edge between concepts v1 and v2 on day t (days since
    1990-01-01), repeats allowed.""",
    "s4c_year": """\
year : int
    The date: rows before the end of ``year`` (:func:`year_end_day`) count.""",
    "s4c_label_year": """\
year : int
    The label date.""",
    "s4c_horizon": """\
horizon : int
    Years from the feature date to ``year``.""",
    "s4c_pickle": """\
path : str or PathLike
    The pickle to write.""",
    "force": """\
force : bool, default False
    Replace an existing file.""",
    "s4c_n_vertices": """\
n_vertices : int, optional
    Number of vertices (default: largest id in ``graph`` + 1).""",
    "s4c_pairs": """\
pairs : array_like of int of shape (P, 2)
    Vertex pairs.""",
    "s4c_cutoff": """\
vertex_degree_cutoff : int, default 0
    Only vertices with at least this multigraph degree at the feature date take part.""",
    "s4c_min_edges": """\
min_edges : int, default 1
    Rows a pair needs by the label date to count as positive.""",
    "nx_backend_graph": """\
G : Graph or NetworkXGraph
    A graph of the backend (the look-up tables are cached on a NetworkXGraph).""",
    # the Dask back-end's registry functions (graphmine.distributed)
    "dask_exact": """\
D : DistributedGraph
method : {'exact'}
threads : int, optional
    Unused (each task runs on one worker thread).""",
    # the GPU's functions (graphmine.cuda)
    "registered_G": """\
G : Graph
    The graph (the registry passes a :class:`~graphmine.Graph`).""",
    "cuda_threads": """\
threads : int, optional
    CPU threads of the work done on the host (the degeneracy orientation); default: numba's
    setting, restored on return.""",
    "cuda_unused_threads": """\
threads : int, optional
    Unused (the count runs on the device); accepted as every back-end's keyword.""",
    "cuda_devices": """\
devices : list of int, optional
    The GPUs to count on (ids as numba.cuda numbers them; one may repeat: two workers on one
    GPU). Default: every visible GPU. Several: row blocks of the oriented graph per GPU, sums
    combined on the host (:mod:`graphmine.cliques._cuda_multi`).""",
    "cuda_clique_k": """\
k : int, default 3
    Clique size, 3 <= k <= :data:`graphmine.cuda.MAX_K`.""",
    "cuda_clique_raises": """\
ParameterError
    ``k`` outside 3..MAX_K, or an unknown order.
NoCudaDeviceError
    No CUDA device is visible (or numba-cuda is missing: the message names the ``cuda``
    extra).""",
    "cuda_raises": """\
NoCudaDeviceError
    No CUDA device is visible (or numba-cuda is missing: the message names the ``cuda``
    extra).""",
    # the networkx backend's functions (graphmine.nx_backend): networkx's parameters
    "nx_G": """\
G : Graph, NetworkXGraph or networkx.Graph
    The undirected graph: the backend graph networkx hands over, a :class:`~graphmine.Graph`,
    or an undirected simple networkx graph (converted by
    :func:`~graphmine.nx_backend.from_networkx`).""",
    "nx_nodes": """\
nodes : node or iterable of nodes, optional
    One node: return its value alone; an iterable: a dict over those nodes; None (default):
    a dict over every node, in networkx's node order.""",
    "nx_weight": """\
weight : None
    Edge weights are not supported: anything but None raises NotImplementedError (networkx
    itself then runs the call).""",
    "nx_ebunch": """\
ebunch : iterable of node pairs, optional
    The pairs to score (default None: every pair of distinct non-adjacent nodes, produced
    lazily in blocks).""",
    "nx_pair_scores": """\
iterator of (u, v, float)
    One ``(u, v, score)`` tuple per pair, in the order of ``ebunch`` (or of networkx's
    ``non_edges``), as networkx yields them.""",
    "choice_raises": """\
ParameterError
    Any other value (the message lists the allowed ones).""",
    "nx_self_loops_raises": """\
networkx.NetworkXNotImplemented
    The graph has self-loops (refused, as networkx refuses them).""",
    "nx_cliques": """\
cliques : None
    Precomputed cliques are not supported: anything but None raises NotImplementedError
    (networkx itself then runs the call).""",
}

# the Parameters section of the per-vertex sketch estimates (triangles, clustering)
PARAMETERS["sketch_vertex_parameters"] = "\n".join(
    ["Parameters", "----------"] + [PARAMETERS[k] for k in (
        "G", "sketch_method", "sketch_budget", "sketch_bits", "sketch_hashes", "sketch_k", "sketch_estimator",
        "sketch_seed", "sketch_clamp", "sketch_confidence", "threads", "sketch_device")])
# the command line's pieces: a component's register(subparsers) and its commands run(args)
PARAMETERS["cli_register_sections"] = "\n".join((
    "Parameters", "----------", "subparsers : argparse._SubParsersAction",
    "    The subcommands of the ``graphmine`` parser (``add_subparsers``'s result)."))
# the set-up of the register() doctests: a parser with the component's subcommands in ``p``
PARAMETERS["cli_register_example"] = "\n".join((
    "Examples", "--------", ">>> from graphmine.commands import Parser", '>>> p = Parser(prog="graphmine")',
    '>>> register(p.add_subparsers(dest="command"))'))
PARAMETERS["cli_command_sections"] = "\n".join((
    "Parameters", "----------", "args : argparse.Namespace",
    "    The parsed command line of the subcommand (:func:`graphmine.cli.build_parser`).", "",
    "Returns", "-------", "int", "    The exit status, 0 (errors are raised, and the program reports them)."))
# the GPU's Raises sections
PARAMETERS["cuda_raises_section"] = "Raises\n------\n" + PARAMETERS["cuda_raises"]
PARAMETERS["cuda_clique_raises_section"] = "Raises\n------\n" + PARAMETERS["cuda_clique_raises"]
# the whole Parameters and Returns sections of the networkx backend's link-prediction scores
PARAMETERS["nx_link_sections"] = "\n".join((
    "Parameters", "----------", PARAMETERS["nx_G"], PARAMETERS["nx_ebunch"], "",
    "Returns", "-------", PARAMETERS["nx_pair_scores"]))

# "{name, ...}" or "{Heading: name, ...}" alone on a line
_PLACEHOLDER = re.compile(r"^([ \t]*)\{(?:([A-Z][a-z]+):[ \t]*)?(\w+(?:[ \t]*,[ \t]*\w+)*)\}[ \t]*$", re.M)


def fill(doc, entries=None):
    """Replace every line ``{name}`` (or ``{name, name, ...}``) of ``doc`` by those entries.

    The entries are indented like the line. A line ``{Heading: name, ...}`` also writes the
    section's heading and underline above them (a whole section of shared entries).

    Parameters
    ----------
    doc : str or None
        A docstring; None (docstrings stripped by ``python -OO``) is returned as is.
    entries : dict of str to str, optional
        The entries to use (default :data:`PARAMETERS`).

    Returns
    -------
    str or None
        The filled docstring.

    Raises
    ------
    KeyError
        A placeholder names no entry (a typo in the docstring, found at import).

    Examples
    --------
    >>> print(fill('''Sum.
    ...
    ...     Parameters
    ...     ----------
    ...     {k, threads}
    ... '''))
    Sum.
    <BLANKLINE>
        Parameters
        ----------
        k : int
            Clique size, >= 3.
        threads : int, optional
            Number of threads of the parallel kernels (default None: numba's current setting, all
            cores unless lowered). numba's setting is restored on return.
    <BLANKLINE>
    >>> print(fill("    {Parameters: k}"))
        Parameters
        ----------
        k : int
            Clique size, >= 3.
    """
    if doc is None:
        return None
    entries = PARAMETERS if entries is None else entries

    def entry(match):
        indent, heading, names = match.groups()
        out = [indent + heading, indent + "-" * len(heading)] if heading else []
        for name in (n.strip() for n in names.split(",")):
            if name not in entries:
                raise KeyError(f"docstring placeholder {{{name}}} names no shared entry; known: {sorted(entries)}")
            out.extend(indent + line if line else line for line in entries[name].splitlines())
        return "\n".join(out)

    return _PLACEHOLDER.sub(entry, doc)


def fill_doc(obj):
    """Decorator: fill the ``{name}`` placeholder lines of a function's or class's docstring.

    Parameters
    ----------
    obj : function or class
        Its ``__doc__`` is replaced by the filled text (unchanged when docstrings are stripped).

    Returns
    -------
    function or class
        ``obj`` itself.

    Examples
    --------
    >>> import inspect
    >>> @fill_doc
    ... def f(threads=None):
    ...     '''Do nothing.
    ...
    ...     Parameters
    ...     ----------
    ...     {threads}
    ...     '''
    >>> inspect.getdoc(f).splitlines()[4]
    'threads : int, optional'
    """
    if obj.__doc__ is not None:
        obj.__doc__ = fill(obj.__doc__)
    return obj


def named(func, name, doc):
    """``func`` (made by a factory of several public functions) as the public function ``name``:
    its ``__name__`` and ``__qualname__`` set (networkx's backend interface and doctest find
    functions by them) and ``doc``, a docstring template, filled by :func:`fill`.

    Parameters
    ----------
    func : function
    name : str
    doc : str

    Returns
    -------
    function
        ``func`` itself.

    Examples
    --------
    >>> f = named(lambda x: x, "identity", "The argument itself.")
    >>> f.__name__, f.__doc__
    ('identity', 'The argument itself.')
    """
    func.__name__ = func.__qualname__ = name
    func.__doc__ = fill(doc)
    return func
