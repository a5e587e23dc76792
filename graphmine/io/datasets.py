"""The real graphs shipped with graphmine, by name.

The files live in the repository's ``datasets/`` folder and, in an installed wheel, in
``graphmine/_datasets``. See ``datasets/README.md`` for origin, attribution and reference counts.

Examples
--------
>>> import graphmine as gm
>>> "ca-GrQc" in gm.datasets.names()
True
>>> gm.datasets.load("Celegans")
Graph(n_nodes=297, n_edges=2148)
"""

import os

from ..core.exceptions import ParameterError

__all__ = ["names", "path", "load", "data_dir", "resolve"]

_FILES = {
    "ca-GrQc": "ca-GrQc.txt",
    "ca-HepTh": "ca-HepTh.txt",
    "facebook_combined": "facebook_combined.txt",
    "USAir": "USAir.txt",
    "NS": "NS.txt",
    "PB": "PB.txt",
    "Yeast": "Yeast.txt",
    "Celegans": "Celegans.txt",
    "Power": "Power.txt",
    "Router": "Router.txt",
}


def data_dir():
    """The folder holding the shipped data files (wheel install first, then the source tree).

    Returns
    -------
    str
        An absolute path: ``graphmine/_datasets`` of a wheel, else the repository's
        ``datasets/``.

    Raises
    ------
    FileNotFoundError
        Neither folder holds the files.

    Examples
    --------
    >>> import os
    >>> os.path.isfile(os.path.join(data_dir(), "README.md"))
    True
    """
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # graphmine/
    for cand in (os.path.join(here, "_datasets"), os.path.join(os.path.dirname(here), "datasets")):
        if os.path.isfile(os.path.join(cand, "README.md")):
            return cand
    raise FileNotFoundError("graphmine's data files are missing from this installation")


def names():
    """Names of the shipped graphs, sorted case-insensitively.

    Returns
    -------
    list of str
        The names :func:`load` and :func:`path` take.

    Examples
    --------
    >>> names()[:3]
    ['ca-GrQc', 'ca-HepTh', 'Celegans']
    """
    return sorted(_FILES, key=str.lower)


def path(name):
    """The path of a shipped graph's file.

    Parameters
    ----------
    name : str
        A name of :func:`names`; case is ignored and a ``.txt`` suffix is optional.

    Returns
    -------
    str
        The file's path.

    Raises
    ------
    ParameterError
        No shipped graph has that name (the message lists them).

    Examples
    --------
    >>> import os
    >>> os.path.basename(path("celegans.txt"))
    'Celegans.txt'
    """
    key = {k.lower(): k for k in _FILES}.get(str(name).lower().removesuffix(".txt"))
    if key is None:
        raise ParameterError(f"unknown dataset {name!r}; shipped: {', '.join(names())}")
    return os.path.join(data_dir(), _FILES[key])


def load(name, **kwargs):
    """Load a shipped graph by name.

    Parameters
    ----------
    name : str
        As for :func:`path`.
    **kwargs
        Keywords of :func:`graphmine.read_graph`.

    Returns
    -------
    Graph
        The graph, with the file's vertex ids in ``node_ids``.

    Examples
    --------
    >>> load("USAir")
    Graph(n_nodes=332, n_edges=2126)
    """
    from .edgelist import read_graph

    return read_graph(path(name), **kwargs)


def resolve(path_or_name):
    """A file path for a path or the name of a shipped data set.

    Parameters
    ----------
    path_or_name : str or PathLike
        A path, ``'-'`` (standard input) or a name of :func:`names` (case and a ``.txt``
        suffix ignored).

    Returns
    -------
    str
        ``path_or_name`` itself if it exists (or is ``'-'``), else the path of the shipped data
        set of that name, else ``path_or_name`` unchanged (so that reading it reports the
        missing file).

    Examples
    --------
    >>> import os
    >>> os.path.basename(resolve("usair"))
    'USAir.txt'
    >>> resolve("no/such/file.el")
    'no/such/file.el'
    """
    p = os.fspath(path_or_name)
    if p == "-" or os.path.exists(p):
        return p
    wanted = p.lower().removesuffix(".txt")
    for name in names():
        if name.lower() == wanted:
            return path(name)
    return p
