"""The pieces every command of the ``graphmine`` command line shares.

The one-line-error parser class, the argparse types of the options, the FILE argument with its
options, and reading the input graph. The top-level parser (:mod:`graphmine.cli`) and the
components' command modules (``graphmine/<component>/cli.py``) build on these, so that a
component's command module never imports the top-level parser.
"""

import argparse
import sys
import time

__all__ = ["Parser", "positive_int", "non_negative_int", "clique_size", "budget_fraction", "add_input_argument",
           "show_progress", "kernels_cached", "LONG_COMPILES", "compile_path", "compile_note", "note_first_compile",
           "load_input"]


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one line ``graphmine: error: ...``, status 2.

    Parameters
    ----------
    *args, **kwargs
        Those of :class:`argparse.ArgumentParser`.

    Examples
    --------
    >>> p = Parser(prog="graphmine")
    >>> _ = p.add_argument("--n", type=positive_int)
    >>> p.parse_args(["--n", "3"]).n
    3
    """

    def error(self, message):
        # argparse's own usage errors: one line, status 2
        self.exit(2, f"{self.prog}: error: {message}\n")


def _number(convert, accept, what):
    """argparse type: ``convert(text)`` where ``accept`` holds of it; ``what`` names the rule in messages."""
    def parse(text):
        """Parse a command-line number within its bounds (an argparse ``type``).

        One of :data:`positive_int` (>= 1), :data:`non_negative_int` (>= 0), :data:`clique_size`
        (>= 3) and :data:`budget_fraction` (a fraction of the CSR size in (0, 1], for --budget).

        Parameters
        ----------
        text : str
            The option's value.

        Returns
        -------
        int or float
            The value.

        Raises
        ------
        argparse.ArgumentTypeError
            Not a number of the type, or out of bounds; the message says what was expected.

        Examples
        --------
        >>> positive_int("4"), non_negative_int("0"), clique_size("3"), budget_fraction("0.25")
        (4, 0, 3, 0.25)
        """
        try:
            v = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
        if not accept(v):
            raise argparse.ArgumentTypeError(f"expected {what}, got {text.strip()}")
        return v
    return parse


# argparse types shared by every subcommand
positive_int = _number(int, lambda v: v >= 1, "a positive integer")
non_negative_int = _number(int, lambda v: v >= 0, "a non-negative integer")
clique_size = _number(int, lambda v: v >= 3, "an integer >= 3 (3 = triangles)")
budget_fraction = _number(float, lambda v: 0 < v <= 1, "a fraction of the graph's size in (0, 1]")


def add_input_argument(p):
    """Add the FILE argument and the options shared by the subcommands that read a graph.

    The options are ``--ids``, ``--skip-header``, ``--threads``, ``--json`` and ``--quiet``.

    Parameters
    ----------
    p : argparse.ArgumentParser
        The subcommand's parser.

    Examples
    --------
    >>> p = Parser(prog="graphmine")
    >>> add_input_argument(p)
    >>> args = p.parse_args(["ca-GrQc", "--threads", "2"])
    >>> args.file, args.threads, args.ids
    ('ca-GrQc', 2, 'int')
    """
    p.add_argument("file", metavar="FILE",
                   help="edge list (.txt/.el/.tsv/.csv; gzip/bzip2/xz recognised by content), Matrix Market "
                        ".mtx, '-' for an edge list on standard input, or the name of a shipped data set "
                        "(e.g. ca-GrQc)")
    p.add_argument("--ids", choices=["int", "str"], default="int",
                   help="vertex ids: non-negative integers (default), or names ('str': any text without "
                        "blanks or commas, e.g. a file of networkx.write_edgelist)")
    p.add_argument("--skip-header", action="store_true",
                   help="skip the first non-comment line (with integer ids, a line of column names such as "
                        "'source,target' before integer data is skipped without this, and said on stderr)")
    p.add_argument("--threads", type=positive_int, default=None, help="threads (default: all cores)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bars or notes on stderr")


def show_progress(args):
    """Whether to draw progress bars: stderr is a terminal and --quiet was not given.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    bool

    Examples
    --------
    >>> import argparse
    >>> show_progress(argparse.Namespace(quiet=True))
    False
    """
    return not getattr(args, "quiet", False) and sys.stderr.isatty()


def kernels_cached(module="cliques._clique_kernels"):
    """Whether numba has compiled a module of graphmine's kernels before (its cache index files
    exist).

    Parameters
    ----------
    module : str
        The kernel module, relative to the package (default the clique kernels).

    Returns
    -------
    bool
        True when an index file of ``module`` lies in numba's cache folder
        (``NUMBA_CACHE_DIR``, or beside the sources, or the per-user cache).

    Examples
    --------
    >>> kernels_cached() in (True, False)
    True
    """
    import glob
    import os

    folder, _, stem = module.rpartition(".")
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), *folder.split("."))  # the kernels' folder
    if os.environ.get("NUMBA_CACHE_DIR"):  # numba then caches there only
        places = [os.path.join(os.environ["NUMBA_CACHE_DIR"], "**")]
    else:  # beside the sources, or a per-user folder where those are read-only
        places = [os.path.join(here, "__pycache__"), os.path.join(os.path.expanduser("~"), ".cache", "numba", "**")]
    return any(glob.glob(os.path.join(p, f"{stem}.*.nbi"), recursive=True) for p in places)


#: The first runs (empty numba cache) whose compiles take long, by command path: about how many
#: seconds they compile (one core: wall and CPU alike; measured with ``python benchmarks/startup.py
#: --cold --all`` on the 2-core machine) and what. The compile note names them before the compile
#: starts (:func:`note_first_compile`); :func:`compile_path` finds a command's path.
LONG_COMPILES = {
    # two quiet runs of the first-run list (load 0.4-2.2), the whole command's wall seconds:
    "count-cliques --all-k": (15, "the all-k clique polynomial kernel"),  # 15.2, 16.1
    "count-cliques --method sketch -k 4+": (13, "the k-clique sketch kernel"),  # 12.0, 15.3
    "count-cliques --scheduler": (16, "every Dask worker's block kernels, in the workers"),  # 14.5, 18.5
    "predict-motifs --method heuristic": (4, "the motif enumeration and heuristic scores"),  # 4.4, 4.3
    "predict-closure": (12, "the closure candidates, labels and scores"),  # 12.0, 12.1
    "count-motifs --size 4": (7, "the 4-vertex census kernels"),  # 6.3, 7.9
    # its kernels after size 4's: 12.0, 11.3; alone it compiles both (about 17 s of compile)
    "count-motifs --size 5": (16, "the 4- and 5-vertex census kernels"),
    # 16.5 s for 9 functions at a load of 1.6 (the 4-vertex census's and the tree draws' kernel)
    "count-motifs --size 5 --method sample": (16, "the 4-vertex census and spanning-tree kernels"),
    "stream-triangles": (7, "the streaming estimator kernels"),  # 4.7 (stop 40), 8.3
    # its compile 8.8 s of the command's 30 (20 functions; the training shows its own bars)
    "science4cast train": (9, "the pair feature kernels"),
}


def compile_path(args):
    """The key of :data:`LONG_COMPILES` that the command of ``args`` runs, or None.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    str or None

    Examples
    --------
    >>> import argparse
    >>> compile_path(argparse.Namespace(command="count-cliques", all_k=True))
    'count-cliques --all-k'
    >>> compile_path(argparse.Namespace(command="info")) is None
    True
    """
    command = getattr(args, "command", None)
    if command == "count-cliques":
        if getattr(args, "all_k", False):
            return "count-cliques --all-k"
        if getattr(args, "scheduler", None) is not None:
            return "count-cliques --scheduler"
        if getattr(args, "method", "exact") != "exact" and getattr(args, "k", 3) >= 4:
            return "count-cliques --method sketch -k 4+"
    elif command == "predict-motifs":
        key = f"predict-motifs --method {getattr(args, 'method', '')}"
        return key if key in LONG_COMPILES else None
    elif command == "count-motifs":
        # measured: the exact census of node orbits and global counts (size 5's vertex sampler
        # runs the exact census of the drawn vertices: the same kernels; the tree sampler, the
        # default sample, has its own)
        size = getattr(args, "size", 4)
        if size == 5:
            if getattr(args, "method", "exact") == "sample" and getattr(args, "sampler", None) != "vertices":
                return "count-motifs --size 5 --method sample"
            return "count-motifs --size 5"
        if getattr(args, "method", "exact") == "exact" and getattr(args, "orbits", None) != "edge":
            return "count-motifs --size 4"
        return None
    elif command == "science4cast":
        key = f"science4cast {getattr(args, 's4c_command', '')}"
        return key if key in LONG_COMPILES else None
    return command if command in LONG_COMPILES else None


def compile_note(path=None):
    """The line said before a first compile: the estimate of ``path`` (a key of
    :data:`LONG_COMPILES`) where it has one.

    Parameters
    ----------
    path : str, optional

    Returns
    -------
    str

    Examples
    --------
    >>> compile_note("count-cliques --all-k")  # doctest: +ELLIPSIS
    'graphmine: compiling kernels for their first use: about 15 s (the all-k clique polynomial kernel...'
    """
    if path in LONG_COMPILES:
        seconds, what = LONG_COMPILES[path]
        return (f"graphmine: compiling kernels for their first use: about {seconds} s ({what}; numba caches "
                "them for later runs)")
    return "graphmine: compiling kernels for their first use (numba caches them for later runs)"


_COMPILE_NOTE = {}  # the listener, once registered


def note_first_compile(args):
    """Say on stderr, once, when a kernel this command uses has to be compiled (unless --quiet).

    A listener of numba's compile event, which fires only when a kernel is not in numba's cache
    for the types it is called with: so the note comes on every first use that compiles (the
    first run, ``--method khash``, the first compressed file, whose bytes are a read-only array)
    and never when the cache serves. It comes as the first compile starts, with the estimate of
    :data:`LONG_COMPILES` for the command's path.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (its ``quiet`` is honoured; :func:`compile_path` reads the rest).

    Examples
    --------
    >>> import argparse
    >>> note_first_compile(argparse.Namespace(quiet=True))  # quiet: no listener, no note
    """
    if getattr(args, "quiet", False) or _COMPILE_NOTE:
        return
    from numba.core import event

    line = compile_note(compile_path(args))

    class CompileNote(event.Listener):
        said = False

        def on_start(self, ev):
            if not self.said:
                self.said = True
                print(line, file=sys.stderr, flush=True)

        def on_end(self, ev):
            pass

    _COMPILE_NOTE["listener"] = CompileNote()
    event.register("numba:compile", _COMPILE_NOTE["listener"])


#: files from this size on have their count's kernels loaded from numba's cache on a second thread
#: while they are read (:func:`graphmine.cliques.warm_up`); below it the count may well run on
#: numpy (see graphmine/_primitives/small_work.py) and the loads would be spent for nothing
PRELOAD_BYTES = 1 << 19


def input_bytes(args):
    """The size in bytes of the file ``args.file`` names (a path or a shipped data set's name).

    Parameters
    ----------
    args : argparse.Namespace
        The command's arguments (``file``).

    Returns
    -------
    int or None
        The size, or None for standard input, a pattern or a missing file (the read says why).

    Examples
    --------
    >>> p = Parser(prog="graphmine")
    >>> add_input_argument(p)
    >>> input_bytes(p.parse_args(["Celegans"])) > 0, input_bytes(p.parse_args(["-"]))
    (True, None)
    """
    import os

    from .io import datasets

    try:
        return os.path.getsize(datasets.resolve(args.file))
    except OSError:
        return None


# files below this size are read on one thread (unless --threads says otherwise): the parser
# reads them as one chunk anyway, and waking a thread pool costs more than their whole read
SERIAL_BYTES = 1 << 20


def load_input(args):
    """Read the graph named by ``args.file``.

    A first line skipped as a header is said on stderr (``graphmine: warning: ...``), even with
    --quiet.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed by a parser with :func:`add_input_argument`: ``file`` (a path, ``'-'`` or a
        shipped data set's name), ``threads``, ``ids``, ``skip_header`` and ``quiet``.

    Returns
    -------
    G : Graph
        The graph.
    seconds : float
        Wall time spent loading it.

    Raises
    ------
    GraphFormatError
        A missing or malformed file, naming the path and line.

    Examples
    --------
    >>> p = Parser(prog="graphmine")
    >>> add_input_argument(p)
    >>> G, seconds = load_input(p.parse_args(["Celegans", "--quiet"]))
    >>> G
    Graph(n_nodes=297, n_edges=2148)
    """
    import os
    import warnings

    from .io import datasets
    from .core.exceptions import SkippedLineWarning
    from .io.edgelist import read_graph

    path = datasets.resolve(args.file)
    if path != "-" and not os.path.exists(path) and any(c in path for c in "*?["):
        from .core.exceptions import GraphFormatError

        hint = ("count-cliques reads a pattern of shards with --scheduler (e.g. --scheduler local)"
                if getattr(args, "scheduler", 0) is None else "give one file")
        raise GraphFormatError(f"no such file (a pattern? FILE is one file here; {hint})", path)
    note_first_compile(args)
    threads = args.threads
    if threads is None and os.path.isfile(path) and os.path.getsize(path) < SERIAL_BYTES:
        threads = 1
    t0 = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", SkippedLineWarning)
        G = read_graph(path, threads=threads, header=True if getattr(args, "skip_header", False) else None,
                       ids=getattr(args, "ids", "int"))
    seconds = time.perf_counter() - t0
    for w in caught:
        if issubclass(w.category, SkippedLineWarning):
            print(f"graphmine: warning: {w.message}", file=sys.stderr, flush=True)
        else:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return G, seconds
