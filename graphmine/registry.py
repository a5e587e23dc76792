"""One registry of algorithm families x back-ends, through which every entry point dispatches.

A *family* (``count_triangles``, ``clustering``, ``count_four_cycles``, ...) is declared once, by
its public function in :mod:`graphmine.dispatch` (signature, validation, docs). A *back-end*
registers an implementation of the families it supports:

=========  ==========  ==========================================================================
back-end   device      what it is
=========  ==========  ==========================================================================
cpu        cpu         exact Numba kernels (the family modules: graphmine.cliques, cluster, ...)
sketch     cpu         estimates from neighbourhood sketches (graphmine.probgraph)
cuda       cuda        numba-cuda kernels (graphmine.cuda)
dask       dask        block tasks on a Dask cluster (graphmine.distributed; a DistributedGraph)
networkx   networkx    the functions networkx dispatches to (graphmine.nx_backend)
=========  ==========  ==========================================================================

``gm.<family>(G, method=, device=)`` calls :func:`call`: ``device`` and ``method`` are validated
here, then the first implementation whose back-end serves that device and method and whose
``can_run`` rule accepts the call runs; when none can, :class:`~graphmine.exceptions.NoImplementationError`
names the family, the back-end and why. A graph object that names its own back-end
(``__graphmine_backend__ = 'dask'``, as networkx's ``__networkx_backend__``) goes to it.

Nothing here imports a back-end: an implementation is a ``"module:attribute"`` reference until it
is called, and a back-end's registration module is imported on the first request for that
back-end (so ``device='cpu'`` never loads graphmine.cuda, and ``import graphmine`` loads none of
them). :func:`support_matrix` loads every registration module (still no numba.cuda, dask or
torch) to list what runs where; ``graphmine info --backends`` prints it.
"""

import importlib
import inspect

from ._docs import fill_doc
from .exceptions import NoImplementationError, ParameterError, check_choice

__all__ = ["METHODS", "SKETCH_METHODS", "DEVICES", "BACKENDS", "Backend", "Family", "Implementation",
           "check_device", "check_method", "declare", "register", "family", "families", "implementations",
           "select", "call", "support_matrix", "format_matrix"]

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


def _resolve(ref):
    """The object a ``"module:attribute"`` reference names (a callable is returned as it is)."""
    if callable(ref):
        return ref
    module, _, attr = ref.partition(":")
    return getattr(importlib.import_module(module), attr)


class Backend:
    """A back-end: where it runs, which methods it serves, and the module that registers it.

    Parameters
    ----------
    name : str
    device : {'cpu', 'cuda', 'dask', 'networkx'}
        What the back-end runs on ('dask' and 'networkx' are reached by the graph's type or by
        networkx, not by ``device=``).
    methods : tuple of str
        The ``method=`` values it serves.
    module : str or None
        Its registration module, imported on the first request (None: declared here).
    rule : str or None
        ``"module:function"``: ``rule(family, G, method, kwargs, device)`` returns True or the reason the
        back-end declines the call (the back-end-wide part of ``can_run``).
    about : str
        One line for the support matrix.

    Attributes
    ----------
    name, device, methods, module, rule, about
        As given (``methods`` as a tuple).
    loaded : bool
        Whether the registration module has been imported (True when there is none).

    Examples
    --------
    >>> b = BACKENDS["sketch"]
    >>> b.device, b.methods
    ('cpu', ('bloom', 'khash', 'onehash', 'kmv'))
    """

    def __init__(self, name, device, methods, module=None, rule=None, about=""):
        self.name, self.device, self.methods = name, device, tuple(methods)
        self.module, self.rule, self.about = module, rule, about
        self.loaded = module is None

    def load(self):
        """Import the registration module once (it calls :func:`register`)."""
        if not self.loaded:
            importlib.import_module(self.module)
            self.loaded = True

    def can_run(self, family, G, method, kwargs, device):
        """True, or the reason this back-end declines the call."""
        return True if self.rule is None else _resolve(self.rule)(family, G, method, kwargs, device)


#: the back-ends, in the order a device tries them
BACKENDS = {
    "cpu": Backend("cpu", "cpu", ("exact",), about="exact Numba kernels on the CPU"),
    "sketch": Backend("sketch", "cpu", SKETCH_METHODS, "graphmine.probgraph.backend",
                      about="estimates from neighbourhood sketches (graphmine.probgraph)"),
    "cuda": Backend("cuda", "cuda", ("exact", "bloom"), "graphmine.cuda.backend", "graphmine.cuda.backend:can_run",
                    about="numba-cuda kernels on a GPU (graphmine.cuda)"),
    "dask": Backend("dask", "dask", ("exact", "bloom"), "graphmine.distributed.backend",
                    about="block tasks on a Dask cluster (graphmine.distributed)"),
    "networkx": Backend("networkx", "networkx", ("exact",), "graphmine.nx_backend.backend",
                        about="nx.<function>(G, backend='graphmine') (graphmine.nx_backend)"),
}


class Implementation:
    """One back-end's implementation of one family.

    Parameters
    ----------
    family : str
        The declared family's name.
    backend : str
        A key of :data:`BACKENDS`.
    function : callable or str
        The implementation or its ``"module:attribute"`` reference (loaded on the first call).
    methods : tuple of str, optional
        The methods it serves (default: all of its back-end's).
    can_run : callable, optional
        ``can_run(G, kwargs)`` -> True or the reason it declines (the family-specific part).
    name : str, optional
        The name under which the back-end exposes it (networkx's function name).

    Attributes
    ----------
    family, backend : str
        As given.
    methods : tuple of str
        The methods it serves.
    name : str
        ``name``, or the family's name.
    function : callable
        The implementation (imported on first access).

    Examples
    --------
    >>> impl = Implementation("count_triangles", "cpu", "graphmine.cliques:count_triangles")
    >>> impl.methods, impl.function.__module__
    (('exact',), 'graphmine.cliques')
    """

    def __init__(self, family, backend, function, methods=None, can_run=None, name=None):
        self.family, self.backend, self._function = family, backend, function
        self.methods = tuple(methods) if methods is not None else BACKENDS[backend].methods
        self._can_run = can_run
        self.name = name or family

    @property
    def function(self):
        """The implementation itself (imported on first use)."""
        if not callable(self._function):
            self._function = _resolve(self._function)
        return self._function

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
    """An algorithm family: its name, its argument check and its implementations.

    Parameters
    ----------
    name : str
        The family's name, which is also the facade function's (``count_triangles``).
    validate : callable, optional
        ``validate(kwargs)`` normalises the family's own arguments in place (``k``, ...) before
        any back-end is chosen.
    summary : str
        One line for the support matrix.
    graph : bool
        Whether the first argument is a graph (converted by :func:`graphmine.as_graph` for the
        cpu, sketch and cuda back-ends).

    Attributes
    ----------
    name, validate, summary, graph
        As given.
    impls : list of Implementation
        The implementations registered so far, in the order of registration.

    Examples
    --------
    >>> f = family("pagerank")
    >>> f.summary, f.graph
    ('PageRank', True)
    """

    def __init__(self, name, validate=None, summary="", graph=True):
        self.name, self.validate, self.summary, self.graph = name, validate, summary, graph
        self.impls = []

    def __repr__(self):
        return f"Family({self.name!r}, {len(self.impls)} implementations)"


_FAMILIES = {}


def declare(name, *, validate=None, summary="", graph=True, **refs):
    """Declare the family ``name`` (once) and register the implementations given by back-end name.

    Parameters
    ----------
    name : str
    validate, summary, graph
        See :class:`Family`.
    **refs : callable or str
        ``backend=function`` (or ``"module:attribute"``) for back-ends whose implementation is
        declared with the family (the exact CPU one, typically).

    Returns
    -------
    Family

    Examples
    --------
    >>> f = declare("doc_example_family", cpu="math:comb", summary="an example")
    >>> [i.backend for i in f.impls]
    ['cpu']
    >>> _ = _FAMILIES.pop("doc_example_family")
    """
    if name in _FAMILIES:
        raise ParameterError(f"algorithm family {name!r} is declared twice")
    fam = _FAMILIES[name] = Family(name, validate, summary, graph)
    for backend, ref in refs.items():
        register(name, backend, ref, methods=("exact",))
    return fam


def register(family, backend, function, *, methods=None, can_run=None, name=None):
    """Register ``backend``'s implementation of ``family`` (a back-end's registration module calls
    this for each family it supports).

    Parameters
    ----------
    family : str
        A declared family.
    backend : str
        A key of :data:`BACKENDS`.
    function : callable or str
        The implementation, or its ``"module:attribute"`` reference.
    methods, can_run, name
        See :class:`Implementation`.

    Returns
    -------
    Implementation
        The registered implementation (also appended to the family's ``impls``).

    Raises
    ------
    ParameterError
        An unknown back-end, or a family that no module declares.

    Examples
    --------
    >>> f = declare("doc_register_family", summary="an example")
    >>> register("doc_register_family", "cpu", "math:comb")
    Implementation('doc_register_family', 'cpu', methods=('exact',))
    >>> _ = _FAMILIES.pop("doc_register_family")
    """
    if backend not in BACKENDS:
        raise ParameterError(f"unknown back-end {backend!r}; one of {', '.join(BACKENDS)}")
    impl = Implementation(family, backend, function, methods, can_run, name)
    if family not in _FAMILIES:
        _load_declarations()  # a back-end imported directly, before any family was used
    if family not in _FAMILIES:
        raise ParameterError(f"{backend} registers {family!r}, which no module declares")
    _FAMILIES[family].impls.append(impl)
    return impl


def families():
    """The declared families, by name.

    Returns
    -------
    dict of str to Family
        A copy: every family that :mod:`graphmine.dispatch` declares (loaded on the first call).

    Examples
    --------
    >>> {"count_triangles", "pagerank", "k_truss"} <= set(families())
    True
    """
    _load_declarations()
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
        Its declaration.

    Raises
    ------
    ParameterError
        No family of that name (the message lists them).

    Examples
    --------
    >>> family("count_cliques").summary
    'number of k-cliques (k >= 3)'
    """
    _load_declarations()
    if name not in _FAMILIES:
        raise ParameterError(f"no algorithm family {name!r}; one of {', '.join(sorted(_FAMILIES))}")
    return _FAMILIES[name]


def _load_declarations():
    importlib.import_module("graphmine.dispatch")  # the facade declares the families


def implementations(name, backend):
    """The implementations of family ``name`` registered by ``backend`` (its module loaded).

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
    fam = family(name)
    BACKENDS[backend].load()
    return [i for i in fam.impls if i.backend == backend]


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
    fam = _checked(name, method, device)
    kwargs = {} if kwargs is None else kwargs
    reasons = []
    for backend in _backends_for(device, G):
        b = BACKENDS[backend]
        if method not in b.methods:
            continue
        b.load()
        impls = [i for i in fam.impls if i.backend == backend and method in i.methods]
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


def _check_keywords(impl, method, kwargs):
    """Refuse keywords the chosen implementation does not take (one line naming them)."""
    accepted = impl.keywords()
    if accepted is None:
        return
    extra = sorted(set(kwargs) - accepted)
    if extra:
        raise ParameterError(f"unexpected keywords for method={method!r}: {extra}")


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
    _check_keywords(impl, method, kwargs)
    if impl.backend in ("cpu", "networkx"):
        return impl(G, *args, **kwargs)
    return impl(G, *args, method=method, **kwargs)


def support_matrix():
    """What runs where: one row per family, one entry per back-end.

    Every registration module is imported (none of them loads numba.cuda, dask or torch).

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
    _load_declarations()
    for b in BACKENDS.values():
        b.load()
    rows = []
    for name in sorted(_FAMILIES):
        fam = _FAMILIES[name]
        row = {"family": name, "summary": fam.summary}
        for impl in fam.impls:
            entry = row.setdefault(impl.backend, [])
            more = [impl.name] if impl.backend == "networkx" else list(impl.methods)
            row[impl.backend] = sorted(set(entry) | set(more), key=lambda m: (m not in METHODS, METHODS.index(m)
                                                                              if m in METHODS else 0, m))
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
