"""One registry of algorithm families x back-ends, through which every entry point dispatches.

A *family* (``count_triangles``, ``clustering``, ``count_four_cycles``, ...) is declared once, by
its public function in the family's folder, decorated with :func:`declare` (signature,
validation, docs). Each *implementation* declares itself where it is written, with
:func:`implements` (family, back-end, methods, ``can_run`` rule, networkx name, whether it returns
a graph). The back-ends:

=========  ==========  ==========================================================================
back-end   device      what it is
=========  ==========  ==========================================================================
cpu        cpu         exact Numba kernels (the family modules: graphmine.cliques._cpu, cluster, ...)
sketch     cpu         estimates from neighbourhood sketches (graphmine.probgraph)
cuda       cuda        numba-cuda kernels (graphmine.cuda)
dask       dask        block tasks on a Dask cluster (graphmine.distributed; a DistributedGraph)
networkx   networkx    the functions networkx dispatches to (graphmine.nx_backend)
=========  ==========  ==========================================================================

``gm.<family>(G, method=, device=)`` calls :func:`call`: ``device`` and ``method`` are validated
here, then the first implementation whose back-end serves that device and method and whose
``can_run`` rule accepts the call runs; when none can, :class:`~graphmine.core.exceptions.NoImplementationError`
names the family, the back-end and why. A graph object that names its own back-end
(``__graphmine_backend__ = 'dask'``, as networkx's ``__networkx_backend__``) goes to it.

Lazy loading: the declarations are read from the source by ``python -m graphmine.core.generate``
into :mod:`graphmine.core.generated` (which module declares each family, which modules implement
it on each back-end), so a call imports only the modules of the back-end it tries (``device='cpu'``
never loads graphmine.cuda, and ``import graphmine`` loads none of them). The registry itself
imports nothing above the core: it asks :mod:`graphmine.core.loader` for a module by the table's
name, and the facade (``graphmine/__init__.py``, the layer above every family and back-end) is
what imports it. :func:`support_matrix` reads the same table without importing anything;
``graphmine info --backends`` prints it.
"""

import inspect

from . import generated, loader

from .._runtime.docs import fill_doc
from .exceptions import NoImplementationError, ParameterError, check_choice

__all__ = ["METHODS", "SKETCH_METHODS", "DEVICES", "BACKENDS", "Backend", "Family", "Implementation",
           "check_device", "check_method", "declare", "implements", "backend_rule", "family", "families",
           "implementations", "declared", "networkx_function", "select", "call", "support_matrix", "format_matrix"]

#: every ``method=`` value of the counting families: 'exact' and the sketches of graphmine.probgraph
METHODS = ("exact", "bloom", "khash", "onehash", "kmv")
SKETCH_METHODS = METHODS[1:]  # the estimating methods: every method but 'exact'
#: every ``device=`` value ('auto': the GPU when one is visible and the graph is large enough)
DEVICES = ("cpu", "cuda", "auto")


@fill_doc
def check_device(device):
    """Validate ``device`` (one of :data:`DEVICES`).

    Parameters
    ----------
    device : str

    Returns
    -------
    str
        ``device`` itself.

    {Raises: choice_raises}

    Examples
    --------
    >>> check_device("cpu")
    'cpu'
    """
    return check_choice("device", device, DEVICES)


@fill_doc
def check_method(method, allowed=METHODS):
    """Validate ``method`` (one of ``allowed``, default :data:`METHODS`).

    Parameters
    ----------
    method : str
    allowed : tuple of str

    Returns
    -------
    str
        ``method`` itself.

    {Raises: choice_raises}

    Examples
    --------
    >>> check_method("bloom")
    'bloom'
    """
    return check_choice("method", method, allowed)


def _checked(name, method, device):
    """The family ``name``, once ``method`` (one of :data:`METHODS`) and ``device`` (one of
    :data:`DEVICES`) are checked: ParameterError names the value and the choices."""
    fam = family(name)
    check_device(device)
    check_method(method)
    return fam


class Backend:
    """A back-end: where it runs and which methods it serves.

    Parameters
    ----------
    name : str
    device : {'cpu', 'cuda', 'dask', 'networkx'}
        What the back-end runs on ('dask' and 'networkx' are reached by the graph's type or by
        networkx, not by ``device=``).
    methods : tuple of str
        The ``method=`` values it serves.
    about : str
        One line for the support matrix.

    Attributes
    ----------
    name, device, methods, about
        As given (``methods`` as a tuple).
    rule : callable or None
        ``rule(family, G, method, kwargs, device)`` returns True or the reason the back-end
        declines the call (the back-end-wide part of ``can_run``), declared with
        :func:`backend_rule` in the back-end's own package and imported on its first use.

    Examples
    --------
    >>> b = BACKENDS["sketch"]
    >>> b.device, b.methods
    ('cpu', ('bloom', 'khash', 'onehash', 'kmv'))
    """

    def __init__(self, name, device, methods, about=""):
        self.name, self.device, self.methods, self.about = name, device, tuple(methods), about
        self.rule = None

    def can_run(self, family, G, method, kwargs, device):
        """True, or the reason this back-end declines the call."""
        if self.rule is None and self.name in generated.RULES:
            loader.load(generated.RULES[self.name])  # declares the rule (backend_rule)
        return True if self.rule is None else self.rule(family, G, method, kwargs, device)


#: the back-ends, in the order a device tries them
BACKENDS = {
    "cpu": Backend("cpu", "cpu", ("exact",), about="exact Numba kernels on the CPU"),
    "sketch": Backend("sketch", "cpu", SKETCH_METHODS, about="estimates from neighbourhood sketches (graphmine.probgraph)"),
    "cuda": Backend("cuda", "cuda", ("exact", "bloom"), about="numba-cuda kernels on a GPU (graphmine.cuda)"),
    "dask": Backend("dask", "dask", ("exact", "bloom"), about="block tasks on a Dask cluster (graphmine.distributed)"),
    "networkx": Backend("networkx", "networkx", ("exact",),
                        about="nx.<function>(G, backend='graphmine') (graphmine.nx_backend)"),
}

#: keywords of the dispatch itself, handed to an implementation only when its signature takes them
DISPATCH_KEYWORDS = ("method", "threads")


class Implementation:
    """One back-end's implementation of one family.

    Parameters
    ----------
    family : str
        The family's name.
    backend : str
        A key of :data:`BACKENDS`.
    function : callable
        The implementation.
    methods : tuple of str, optional
        The methods it serves (default: all of its back-end's).
    can_run : callable, optional
        ``can_run(G, kwargs)`` -> True or the reason it declines (the family-specific part).
    name : str, optional
        The name under which the back-end exposes it (networkx's function name).
    note : str, optional
        What the networkx backend says of it (added to networkx's docstring).

    Attributes
    ----------
    family, backend, function, note : str
        As given.
    methods : tuple of str
        The methods it serves.
    name : str
        ``name``, or the family's name.

    Examples
    --------
    >>> import math
    >>> impl = Implementation("count_triangles", "cpu", math.comb)
    >>> impl.methods, impl.name
    (('exact',), 'count_triangles')
    """

    def __init__(self, family, backend, function, methods=None, can_run=None, name=None, note=None):
        self.family, self.backend, self.function = family, backend, function
        self.methods = tuple(methods) if methods is not None else BACKENDS[backend].methods
        self._can_run = can_run
        self.name = name or family
        self.note = note

    def can_run(self, G, method, kwargs, device):
        """True, or the reason this implementation declines the call."""
        why = BACKENDS[self.backend].can_run(self.family, G, method, kwargs, device)
        if why is True and self._can_run is not None:
            why = self._can_run(G, kwargs)
        return why

    def keywords(self):
        """The keywords the implementation takes (None: any), read once from its signature."""
        if not hasattr(self, "_keywords"):
            try:
                params = inspect.signature(self.function).parameters
            except (TypeError, ValueError):
                params = {}
            any_kw = not params or any(p.kind is p.VAR_KEYWORD for p in params.values())
            self._keywords = None if any_kw else set(params)
        return self._keywords

    def __call__(self, *args, **kwargs):
        return self.function(*args, **kwargs)

    def __repr__(self):
        return f"Implementation({self.family!r}, {self.backend!r}, methods={self.methods})"


class Family:
    """An algorithm family: its name, its argument check, its public function and implementations.

    Parameters
    ----------
    name : str
        The family's name, which is also its public function's (``count_triangles``).
    validate : callable, optional
        ``validate(kwargs)`` normalises the family's own arguments in place (``k``, ...) before
        any back-end is chosen.
    summary : str
        One line for the support matrix.
    graph : bool
        Whether the first argument is a graph (converted by :func:`graphmine.as_graph` for the
        cpu, sketch and cuda back-ends).
    returns_graph : bool
        Whether the family returns a graph (the networkx backend then returns a networkx graph).
    function : callable, optional
        The public function (``gm.<name>``).

    Attributes
    ----------
    name, validate, summary, graph, returns_graph, function
        As given.
    impls : list of Implementation
        The implementations declared so far (those of modules already imported).

    Examples
    --------
    >>> f = family("pagerank")
    >>> f.summary, f.graph
    ('PageRank', True)
    """

    def __init__(self, name, validate=None, summary="", graph=True, returns_graph=False, function=None):
        self.name, self.validate, self.summary, self.graph = name, validate, summary, graph
        self.returns_graph, self.function = returns_graph, function

    @property
    def impls(self):
        return list(_IMPLS.get(self.name, ()))

    def __repr__(self):
        return f"Family({self.name!r}, {len(self.impls)} implementations)"


_FAMILIES = {}  # name -> Family, as the declaring modules are imported
_IMPLS = {}  # family name -> [Implementation], as the implementing modules are imported


def declare(summary, *, validate=None, graph=True, returns_graph=False, cpu=False):
    """Decorator: the decorated public function declares the family of its name.

    Parameters
    ----------
    summary : str
        One line for the support matrix.
    validate, graph, returns_graph
        See :class:`Family`.
    cpu : bool
        The function is itself the family's exact CPU implementation (a family without
        dispatch: ``gm.<name>`` runs it directly).

    Returns
    -------
    callable
        The decorator; it returns the function unchanged.

    Raises
    ------
    ParameterError
        The family is declared twice.

    Examples
    --------
    >>> @declare("an example", cpu=True)
    ... def doc_example_family(G):
    ...     return 1
    >>> [i.backend for i in family("doc_example_family").impls]
    ['cpu']
    >>> _ = _FAMILIES.pop("doc_example_family"), _IMPLS.pop("doc_example_family")
    """
    def deco(func):
        name = func.__name__
        if name in _FAMILIES:
            raise ParameterError(f"algorithm family {name!r} is declared twice")
        _FAMILIES[name] = Family(name, validate, summary, graph, returns_graph, func)
        if cpu:
            implements(name, "cpu", methods=("exact",))(func)
        return func
    return deco


def implements(family, backend, *, methods=None, can_run=None, name=None, note=None):
    """Decorator: the decorated function is ``backend``'s implementation of ``family``.

    Written where the implementation is written. ``python -m graphmine.core.generate`` reads these
    declarations from the source (so their arguments are literals) into the table that tells the
    registry which module to import for a family on a back-end.

    Parameters
    ----------
    family : str
        The family's name.
    backend : str
        A key of :data:`BACKENDS`.
    methods, can_run, name, note
        See :class:`Implementation`.

    Returns
    -------
    callable
        The decorator; it returns the function unchanged.

    Raises
    ------
    ParameterError
        An unknown back-end.

    Examples
    --------
    >>> import math
    >>> _ = implements("doc_example_family", "cpu")(math.comb)
    >>> _IMPLS.pop("doc_example_family")
    [Implementation('doc_example_family', 'cpu', methods=('exact',))]
    """
    if backend not in BACKENDS:
        raise ParameterError(f"unknown back-end {backend!r}; one of {', '.join(BACKENDS)}")

    def deco(func):
        _IMPLS.setdefault(family, []).append(Implementation(family, backend, func, methods, can_run, name, note))
        return func
    return deco


def backend_rule(backend):
    """Decorator: the decorated function is ``backend``'s rule (see :class:`Backend`).

    Parameters
    ----------
    backend : str
        A key of :data:`BACKENDS`.

    Returns
    -------
    callable
        The decorator; it returns the function unchanged.

    Examples
    --------
    >>> BACKENDS["cuda"].can_run("count_triangles", None, "exact", {}, "auto").startswith("device='auto'")
    True
    """
    def deco(func):
        BACKENDS[backend].rule = func
        return func
    return deco


def families():
    """The declared families, by name.

    Returns
    -------
    dict of str to Family
        Every family of the package (their declaring modules are imported).

    Examples
    --------
    >>> {"count_triangles", "pagerank", "k_truss"} <= set(families())
    True
    """
    for name in generated.FAMILIES:
        family(name)
    return dict(_FAMILIES)


def family(name):
    """The declared family ``name``.

    Parameters
    ----------
    name : str
        The family's name.

    Returns
    -------
    Family
        Its declaration (its module imported on the first request).

    Raises
    ------
    ParameterError
        No family of that name (the message lists them).

    Examples
    --------
    >>> family("count_cliques").summary
    'number of k-cliques (k >= 3)'
    """
    if name not in _FAMILIES:
        if name not in generated.FAMILIES:
            raise ParameterError(f"no algorithm family {name!r}; one of {', '.join(sorted(generated.FAMILIES))}")
        loader.load(generated.FAMILIES[name]["module"])
    return _FAMILIES[name]


def implementations(name, backend):
    """The implementations of family ``name`` on ``backend`` (their modules imported).

    Parameters
    ----------
    name : str
        The family's name.
    backend : str
        A key of :data:`BACKENDS`.

    Returns
    -------
    list of Implementation
        Possibly empty.

    Examples
    --------
    >>> implementations("count_triangles", "cpu")
    [Implementation('count_triangles', 'cpu', methods=('exact',))]
    """
    family(name)
    for module in generated.FAMILIES[name]["backends"].get(backend, ()):
        loader.load(module)
    return [i for i in _IMPLS.get(name, ()) if i.backend == backend]


def declared(backend):
    """The implementations on ``backend`` declared by the modules imported so far (none is imported).

    Parameters
    ----------
    backend : str
        A key of :data:`BACKENDS`.

    Returns
    -------
    list of Implementation

    Examples
    --------
    >>> import graphmine.cliques._nx
    >>> "triangles" in {impl.name for impl in declared("networkx")}
    True
    """
    return [impl for impls in _IMPLS.values() for impl in impls if impl.backend == backend]


def networkx_function(name):
    """graphmine's implementation of the networkx function ``name`` (its module imported).

    Parameters
    ----------
    name : str
        A key of :data:`graphmine.core.generated.NETWORKX`.

    Returns
    -------
    callable
        The function declared with ``@implements(family, "networkx", name=name)``.

    Raises
    ------
    KeyError
        No implementation is declared under that name.

    Examples
    --------
    >>> networkx_function("triangles").__module__
    'graphmine.cliques._nx'
    """
    loader.load(generated.NETWORKX[name]["module"])
    for impl in _IMPLS.get(generated.NETWORKX[name]["family"], ()):
        if impl.backend == "networkx" and impl.name == name:
            return impl.function
    raise KeyError(name)


def _backends_for(device, G):
    """The back-ends a call tries, in order, and the device they are asked about."""
    own = getattr(type(G), "__graphmine_backend__", None)
    if own is not None and own in BACKENDS:
        return [own]
    if device == "cpu":
        return ["cpu", "sketch"]
    if device == "cuda":
        return ["cuda"]
    return ["cuda", "cpu", "sketch"]  # 'auto'


def select(name, G, *, method="exact", device="cpu", kwargs=None):
    """The implementation that runs ``gm.<name>(G, method=method, device=device, **kwargs)``.

    Parameters
    ----------
    name : str
        The family's name.
    G : graph
        The graph (its back-end rules may look at its size).
    method : str, default 'exact'
        One of :data:`METHODS`.
    device : str, default 'cpu'
        One of :data:`DEVICES`.
    kwargs : dict, optional
        The call's other arguments (validated by the family first).

    Returns
    -------
    Implementation
        The first implementation, in the order of the back-ends that ``device`` tries, that
        serves ``method`` and does not decline the call.

    Raises
    ------
    NoImplementationError
        No registered implementation can run the call; the message names the family, each
        back-end tried and why it declined.
    ParameterError
        An unknown family, method or device.

    Examples
    --------
    >>> import networkx as nx
    >>> select("count_triangles", nx.complete_graph(4))
    Implementation('count_triangles', 'cpu', methods=('exact',))
    """
    _checked(name, method, device)
    kwargs = {} if kwargs is None else kwargs
    reasons = []
    for backend in _backends_for(device, G):
        if method not in BACKENDS[backend].methods:
            continue
        impls = [i for i in implementations(name, backend) if method in i.methods]
        if not impls:
            reasons.append(f"{backend}: no method={method!r} implementation")
            continue
        for impl in impls:
            why = impl.can_run(G, method, kwargs, device)
            if why is True:
                return impl
            reasons.append(f"{backend}: {why}")
    tried = "; ".join(reasons) or f"no back-end serves method={method!r} on device={device!r}"
    hint = "" if device == "cpu" else " (use device='cpu')"
    raise NoImplementationError(f"{name}(method={method!r}, device={device!r}) cannot run: {tried}{hint}")


def _arguments(impl, method, kwargs):
    """The keywords ``impl`` is called with: the dispatch's own (``method``, ``threads``) and
    keywords left at None only where its signature takes them; any other keyword it does not take
    is a ParameterError naming it."""
    accepted = impl.keywords()
    if accepted is None:
        return {"method": method, **kwargs}
    out = {"method": method} if "method" in accepted else {}
    extra = []
    for key, value in kwargs.items():
        if key in accepted:
            out[key] = value
        elif key not in DISPATCH_KEYWORDS and value is not None:
            extra.append(key)
    if extra:
        raise ParameterError(f"unexpected keywords for method={method!r}: {sorted(extra)}")
    return out


def call(name, G, *args, method="exact", device="cpu", **kwargs):
    """Run the family ``name`` on ``G`` through the back-end that serves it.

    Parameters
    ----------
    name : str
        A declared family.
    G : Graph, anything :func:`graphmine.as_graph` accepts, or a back-end's own graph
    *args
        The family's further positional arguments.
    method : str
        One of :data:`METHODS`.
    device : str
        One of :data:`DEVICES`.
    **kwargs
        The family's keywords and the chosen method's.

    Returns
    -------
    object
        What the implementation returns.

    Examples
    --------
    >>> import networkx as nx
    >>> call("count_triangles", nx.complete_graph(4))
    4
    """
    fam = _checked(name, method, device)
    if fam.validate is not None:
        fam.validate(kwargs)
    if fam.graph and getattr(type(G), "__graphmine_backend__", None) is None:
        from .validation import as_graph

        G = as_graph(G)
    impl = select(name, G, method=method, device=device, kwargs=kwargs)
    return impl(G, *args, **_arguments(impl, method, kwargs))


def support_matrix():
    """What runs where: one row per family, one entry per back-end.

    Read from the declarations' table (:mod:`graphmine.core.generated`): nothing is imported.

    Returns
    -------
    list of dict
        ``{"family": name, "summary": line, backend: sorted methods (or networkx function names
        for 'networkx'), ...}``; a back-end without an implementation of the family is absent.

    Examples
    --------
    >>> rows = {r["family"]: r for r in support_matrix()}
    >>> rows["count_triangles"]["cpu"]
    ['exact']
    """
    rows = []
    for name in sorted(generated.FAMILIES):
        entry = generated.FAMILIES[name]
        row = {"family": name, "summary": entry["summary"]}
        row.update({backend: list(values) for backend, values in entry["matrix"].items()})
        rows.append(row)
    return rows


def format_matrix(rows=None, *, markdown=False):
    """The support matrix as text (a plain table, or Markdown for the docs).

    Parameters
    ----------
    rows : list of dict, optional
        :func:`support_matrix`'s rows (default: computed).
    markdown : bool

    Returns
    -------
    str

    Examples
    --------
    >>> "count_triangles" in format_matrix()
    True
    """
    rows = support_matrix() if rows is None else rows
    cols = list(BACKENDS)
    table = [["family"] + cols]
    for r in rows:
        table.append([r["family"]] + [", ".join(r.get(c, [])) or "-" for c in cols])
    if markdown:
        lines = ["| " + " | ".join(table[0]) + " |", "|" + "---|" * len(table[0])]
        lines += ["| " + " | ".join(f"`{c}`" if i == 0 else c for i, c in enumerate(row)) + " |"
                  for row in table[1:]]
        return "\n".join(lines)
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in table]
    lines.insert(1, "  ".join("-" * w for w in widths))
    legend = [f"  {b.name:<9s} {b.about}" for b in BACKENDS.values()]
    return "\n".join(lines + ["", "back-ends:"] + legend)
