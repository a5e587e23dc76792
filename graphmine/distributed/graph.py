"""The distributed CSR: row blocks of the degree-oriented graph, held by the workers of a Dask
cluster, built from edge-list shards without any process reading the whole input.

Construction (every step a set of tasks on the workers; the client only sees counts, sizes and
small samples):

1. Parse every shard on a worker with graphmine's reader (same formats, same errors, naming the
   shard and the line).
2. Compact the ids globally: a sample of every shard's distinct ids gives P - 1 splitters; each
   shard sends its distinct ids of bucket b to bucket b, which takes their union; the bucket
   sizes give every bucket's first new id, and each bucket returns to each shard the new ids of
   the ids it sent (a distributed unique: new ids keep the increasing order of the original ids,
   exactly as :func:`graphmine.read_graph` numbers them).
3. Shuffle the edges, written (min, max) without self-loops, to the block of their smaller end
   (vertex blocks are P ranges of the new ids) and merge duplicates there.
4. Degrees: every block counts its edges' endpoints and sends the counts to the endpoints'
   blocks; then every block asks the other blocks for the degrees of its edges' larger ends.
5. Orient every edge u -> v iff (deg u, u) < (deg v, v) and shuffle the arcs to the block of
   their tail: row block i is the sorted out-neighbourhood CSR of the vertices of block i.

Counting then runs as block tasks, written beside each family's CPU code (``graphmine/cliques/_dask.py``,
``graphmine/cycles/_dask.py``, ...) on this class's public methods.
"""

import glob
import logging
import math
import operator
import os
import shutil
import sys
import tempfile
import time
import weakref
from contextlib import contextmanager, redirect_stdout

import numpy as np

from .._primitives.small_work import unique_ints
from .._runtime.optional import require
from ..core.exceptions import GraphFormatError, ParameterError
from ..core.graph import Graph, index_dtype_for as _index_dtype
from . import _tasks as _t

__all__ = ["VertexCounts", "DistributedGraph", "local_client", "warm_up", "expand_source", "remove_scratch"]

_GLOB_CHARS = set("*?[")


def _require_distributed():
    require("dask", "graphmine.distributed")
    require("distributed", "graphmine.distributed")


def expand_source(source):
    """The shard paths named by ``source``.

    Parameters
    ----------
    source : str, PathLike or list of those
        A path, a glob pattern, a directory (every regular, non-hidden file in it) or a list of
        those.

    Returns
    -------
    list of str
        The paths, sorted within each pattern or directory.

    Raises
    ------
    GraphFormatError
        A glob pattern that matches no file (a missing plain path is returned as it is; reading
        it reports the error).

    Examples
    --------
    >>> import graphmine as gm
    >>> expand_source(gm.datasets.path("USAir")) == [gm.datasets.path("USAir")]
    True
    """
    items = [source] if isinstance(source, (str, os.PathLike)) else list(source)
    if not items:
        raise ParameterError("source is an empty list of shards")
    paths = []
    for item in items:
        if not isinstance(item, (str, os.PathLike)):
            raise ParameterError(f"shards must be paths, got {type(item).__name__}")
        item = os.fspath(item)
        if os.path.isdir(item):
            found = sorted(os.path.join(item, f) for f in os.listdir(item)
                           if not f.startswith(".") and os.path.isfile(os.path.join(item, f)))
            if not found:
                raise GraphFormatError("the directory holds no shard files", item)
            paths.extend(found)
        elif _GLOB_CHARS & set(item) and not os.path.exists(item):
            found = sorted(p for p in glob.glob(item) if os.path.isfile(p))
            if not found:
                raise GraphFormatError("no files match this pattern", item)
            paths.extend(found)
        else:
            paths.append(item)  # a missing file is reported by the worker that parses it
    return paths


def _is_dask_frame(obj):
    return type(obj).__module__.startswith("dask") and hasattr(obj, "to_delayed") and hasattr(obj, "npartitions")


def local_client(n_workers=None, *, threads_per_worker=1, processes=True, warm=True):
    """A :class:`distributed.Client` on a new :class:`distributed.LocalCluster` on free ports.

    Close both with ``client.close(); client.cluster.close()`` (what the functions of this
    module do with the clusters they start).

    Parameters
    ----------
    n_workers : int, optional
        Workers (default: one per core, divided by ``threads_per_worker``).
    threads_per_worker : int, default 1
        Threads of each worker.
    processes : bool, default True
        Workers in processes; False runs them as threads of this process (quick to start).
    warm : bool, default True
        Have every worker load the kernels of graphmine's tasks from numba's cache when it
        starts (:func:`warm_up`).

    Returns
    -------
    distributed.Client
        The client; ``client.cluster`` is its cluster.

    Raises
    ------
    MissingDependencyError
        dask or distributed is missing (names the ``dask`` extra).

    Examples
    --------
    >>> client = local_client(1, processes=False, warm=False)
    >>> len(client.nthreads())
    1
    >>> client.close(); client.cluster.close()"""
    _require_distributed()
    from distributed import Client, LocalCluster

    if n_workers is None:
        n_workers = max(1, (os.cpu_count() or 1) // threads_per_worker)
    # the workers' scratch space in a folder of its own, removed with the cluster (and by the program
    # after a Ctrl-C, which kills the workers before they can tidy up: remove_scratch)
    import dask

    from .._runtime.output import track_temporary

    scratch = tempfile.mkdtemp(prefix="graphmine-dask-")
    track_temporary(scratch)  # a Ctrl-C while the cluster starts removes it too
    try:
        # the scheduler's scratch space too (it would go to the system's temporary folder)
        with dask.config.set({"temporary-directory": scratch}):
            # worker logs off: a failed task reaches the caller as its exception (a shard's format error)
            cluster = LocalCluster(n_workers=n_workers, threads_per_worker=threads_per_worker,
                                   processes=processes, dashboard_address=":0", scheduler_port=0,
                                   silence_logs=logging.CRITICAL, local_directory=scratch)
    except BaseException:
        _remove_folder(scratch)
        raise
    cluster.graphmine_scratch = scratch
    weakref.finalize(cluster, _remove_folder, scratch)
    client = Client(cluster)
    if warm:
        warm_up(client)
    return client


def remove_scratch(client):
    """Remove the scratch folder of a cluster that :func:`local_client` started (nothing for any
    other client); its workers must have ended.

    Parameters
    ----------
    client : distributed.Client

    Examples
    --------
    >>> client = local_client(1, processes=False, warm=False)
    >>> folder = client.cluster.graphmine_scratch
    >>> client.close(); client.cluster.close(); remove_scratch(client)
    >>> os.path.exists(folder)
    False
    """
    folder = getattr(getattr(client, "cluster", None), "graphmine_scratch", None)
    if folder:
        _remove_folder(folder)


def _remove_folder(folder):
    from .._runtime.output import untrack_temporary

    shutil.rmtree(folder, ignore_errors=True)
    untrack_temporary(folder)


def _load_task_kernels():
    """Load the kernels of the block tasks from numba's cache (what a worker's warm-up runs):
    (kernels, signatures) loaded.

    The construction's kernels (this package's tasks and the reader), and those of every family's
    Dask implementation: the modules the generated table names for the 'dask' back-end, whose
    numba kernels are the ones they import.
    """
    from numba.core.registry import CPUDispatcher

    from .._primitives import parse_kernels as pk
    from .._runtime.startup import load_cached_kernels
    from ..core import generated, loader
    from . import _block_kernels as bk

    kernels = [bk._split_pairs, bk._group_rows, pk._plan, pk._parse_chunks, pk._first_data_line,
               pk._tokenise_chunks, pk._intern_tokens]
    modules = sorted({m for fam in generated.FAMILIES.values() for m in fam["backends"].get("dask", ())})
    for name in modules:
        for obj in vars(loader.load(name)).values():
            if isinstance(obj, CPUDispatcher) and obj not in kernels:
                kernels.append(obj)
    return load_cached_kernels(kernels)


def warm_up(client):
    """Have every worker of ``client`` (those running now and those that join later) load the
    kernels of graphmine's tasks from numba's cache when it starts, before any task arrives.

    Without it a worker's first tasks load their kernels one after the other on the way (10-50 ms
    each, more for a parallel kernel) and the slowest worker holds the job up; workers on one
    machine share the cache's folder (``NUMBA_CACHE_DIR``, or ``__pycache__`` beside the
    package). Kernels that the cache does not hold yet are compiled by the first task that
    needs them, as before.

    Parameters
    ----------
    client : distributed.Client
        The client of the cluster whose workers load the kernels.

    Returns
    -------
    dict
        {worker address: (kernels, signatures) loaded} for the workers running now.

    Examples
    --------
    >>> from graphmine.distributed import local_client, warm_up
    >>> client = local_client(1, processes=False, warm=False)
    >>> loaded = warm_up(client)  # {worker address: (kernels, signatures) loaded}
    >>> len(loaded)
    1
    >>> client.close(); client.cluster.close()
    """
    _require_distributed()
    from distributed.diagnostics.plugin import WorkerPlugin

    class GraphmineWarmUp(WorkerPlugin):
        """Runs on every worker's start (a plugin, so that workers joining later run it too)."""

        name = "graphmine-warm-up"

        def setup(self, worker):
            worker.graphmine_warm_up = _load_task_kernels()

    client.register_plugin(GraphmineWarmUp())
    return client.run(lambda dask_worker: getattr(dask_worker, "graphmine_warm_up", None))


@contextmanager
def session(client):
    """``client``, or a LocalCluster sized to the machine that is closed on exit."""
    _require_distributed()
    if client is not None:
        from distributed import Client

        if not isinstance(client, Client):
            raise ParameterError(f"client must be a distributed.Client or None, got {type(client).__name__}")
        yield client
        return
    own = local_client()
    try:
        yield own
    finally:
        cluster = own.cluster
        own.close()
        cluster.close()


def show_progress(futures, progress, client):
    """Dask's text progress bar (on stderr) while ``futures`` run on ``client``'s scheduler;
    ``progress=None`` shows it when stderr is a terminal."""
    if progress is None:
        progress = sys.stderr.isatty()
    if progress and futures:
        from distributed import progress as _progress

        # name the scheduler: the bar would otherwise follow dask's default client
        with redirect_stdout(sys.stderr):
            _progress(futures, scheduler=client.scheduler.address)


class VertexCounts(tuple):
    """A pair (node_ids, values): one value per vertex of a distributed count.

    Numpy arrays, or dask arrays (one chunk per row block) when the caller's client holds them;
    it unpacks as a tuple.

    Parameters
    ----------
    node_ids : ndarray or dask array
        Original vertex ids, increasing.
    values : ndarray or dask array
        One value per vertex, in the same order.

    Attributes
    ----------
    node_ids, values
        As given.

    Examples
    --------
    >>> import numpy as np
    >>> ids, t = VertexCounts(np.array([3, 7]), np.array([1, 1]))
    >>> ids.tolist(), VertexCounts(ids, t).values.tolist()
    ([3, 7], [1, 1])
    """

    __slots__ = ()

    def __new__(cls, node_ids, values):
        return tuple.__new__(cls, (node_ids, values))

    def __init__(self, node_ids, values):
        pass  # built by __new__; the signature documents the fields

    @property
    def node_ids(self):
        return self[0]

    @property
    def values(self):
        return self[1]


class DistributedGraph:
    """A graph held by a Dask cluster as P row blocks of its degree orientation.

    Parameters
    ----------
    source : str, PathLike, list of those, dask DataFrame or Graph
        Edge-list shards (a path, a glob pattern, a directory, or a list of paths), parsed on the
        workers with graphmine's reader; an empty shard is normal, but at least one shard must
        hold an edge. A dask DataFrame: its first two columns are the edges (integer ids). A
        :class:`graphmine.Graph` (or anything :func:`graphmine.as_graph` accepts) is sent from
        the client.
    client : distributed.Client
    partitions : int, optional
        P, the number of row blocks (default: the cluster's worker threads; at most n).
    progress : bool, optional
        Show dask's progress bar (default: when stderr is a terminal).

    Attributes
    ----------
    n_nodes, n_edges : int
        Vertices (distinct ids that occur in an edge) and distinct undirected edges.
    partitions : int
    bounds : ndarray of int64
        Row block i holds the vertices ``bounds[i] <= v < bounds[i + 1]`` (compacted ids, in
        increasing order of the original ids).
    blocks : list of distributed.Future
        Row block i: (indptr, indices) of the out-neighbourhoods, indices as global ids.
    degrees : list of distributed.Future
        The degrees of every block's vertices.
    max_out_degree : int
    input_stats : dict
        ``shards``, ``input_edges`` (edge lines), ``self_loops``, ``duplicates``.
    seconds : float
        Wall time of the construction.

    Examples
    --------
    >>> import graphmine as gm
    >>> client = local_client(1, processes=False)
    >>> D = DistributedGraph(gm.datasets.path("USAir"), client, partitions=2)
    >>> D.n_nodes, D.n_edges, D.count_triangles()
    (332, 2126, 12181)
    >>> client.close(); client.cluster.close()
    """

    # gm.count_triangles(D) and siblings run on the cluster (graphmine.core.registry's 'dask' back-end)
    __graphmine_backend__ = "dask"

    def __init__(self, source, client, *, partitions=None, progress=None):
        _require_distributed()
        t0 = time.perf_counter()
        self.client = client
        self.progress = progress
        self.source = source
        if partitions is None:
            partitions = max(1, sum(client.nthreads().values()))
        if isinstance(partitions, bool) or not isinstance(partitions, (int, np.integer)) or partitions < 1:
            raise ParameterError(f"partitions must be a positive integer, got {partitions!r}")
        self._build(source, int(partitions))
        self.seconds = time.perf_counter() - t0

    # -- helpers -----------------------------------------------------------------------------
    def submit(self, fn, *args, **kw):
        """Run ``fn(*args, **kw)`` as a task on the cluster (never cached as a pure task).

        Parameters
        ----------
        fn : callable
            The task.
        *args, **kw
            Its arguments: values or futures (a row block of :attr:`blocks`, another task).

        Returns
        -------
        distributed.Future

        Examples
        --------
        >>> import networkx as nx
        >>> client = local_client(1, processes=False)
        >>> D = DistributedGraph(nx.path_graph(4), client, partitions=2)
        >>> D.gather([D.submit(len, D.blocks[0])])
        [2]
        >>> client.close(); client.cluster.close()
        """
        return self.client.submit(fn, *args, pure=False, **kw)

    def items(self, future, count, first=0):
        """Futures of the items ``first .. first + count - 1`` of a task's tuple result (each
        moves on its own between workers).

        Parameters
        ----------
        future : distributed.Future
            A task returning a tuple (or list).
        count : int
        first : int, default 0

        Returns
        -------
        list of distributed.Future

        Examples
        --------
        >>> import networkx as nx
        >>> client = local_client(1, processes=False)
        >>> D = DistributedGraph(nx.path_graph(4), client, partitions=2)
        >>> D.gather(D.items(D.submit(divmod, 7, 2), 2))
        [3, 1]
        >>> client.close(); client.cluster.close()
        """
        return [self.submit(operator.getitem, future, first + i) for i in range(count)]

    def show_progress(self, futures):
        """Dask's progress bar on stderr while ``futures`` run (as the graph's ``progress`` says)."""
        show_progress(futures, self.progress, self.client)

    def gather(self, futures):
        """The results of ``futures``, with the graph's progress bar while they run.

        Parameters
        ----------
        futures : list of distributed.Future

        Returns
        -------
        list
            Their results, in order.

        Examples
        --------
        >>> import networkx as nx
        >>> client = local_client(1, processes=False)
        >>> D = DistributedGraph(nx.path_graph(4), client, partitions=2)
        >>> D.gather([D.submit(sum, [1, 2])])
        [3]
        >>> client.close(); client.cluster.close()
        """
        show_progress(futures, self.progress, self.client)
        return self.client.gather(futures)

    def undirected_blocks(self):
        """Futures of every row block's whole neighbourhoods (out-arcs and in-arcs).

        The cluster holds the degree orientation (each edge once, in the row of its lower-ranked
        end); a family that needs whole neighbourhoods (4-cycles) completes every block with the
        arcs of the other blocks that end in it: P x P small tasks and one merge per block.

        Returns
        -------
        list of distributed.Future
            Block i's undirected CSR rows ``(indptr, indices)`` over its vertices
            ``ranges()[i]``, rows sorted.

        Examples
        --------
        >>> import networkx as nx
        >>> client = local_client(1, processes=False)
        >>> D = DistributedGraph(nx.path_graph(4), client, partitions=2)
        >>> [ptr.tolist() for ptr, ind in D.gather(D.undirected_blocks())]
        [[0, 1, 3], [0, 2, 3]]
        >>> client.close(); client.cluster.close()
        """
        ranges = self.ranges()
        P = self.partitions
        cuts = [[self.submit(_t.in_arcs, self.blocks[j], ranges[j][0], *ranges[i]) for j in range(P)]
                for i in range(P)]
        return [self.submit(_t.undirected_block, lo, hi, self.blocks[i], *cuts[i]) for i, (lo, hi) in enumerate(ranges)]

    def ranges(self):
        """(lo, hi) of every row block."""
        return [(int(self.bounds[i]), int(self.bounds[i + 1])) for i in range(self.partitions)]

    # -- construction ------------------------------------------------------------------------
    def _shards(self, source):
        """Futures of every shard's raw (m, 2) int64 edges; (kind, description, node ids)."""
        c = self.client
        if isinstance(source, Graph) or not (isinstance(source, (str, os.PathLike, list, tuple))
                                             or _is_dask_frame(source)):
            from ..core.validation import as_graph

            G = as_graph(source)
            e = G.edges()
            chunks = np.array_split(e, max(1, min(len(c.nthreads()) * 2, max(1, e.shape[0]))))
            return c.scatter(list(chunks)), "graph", "graph", G
        if _is_dask_frame(source):
            parts = c.compute(source.to_delayed())
            return [self.submit(_t.frame_edges, p, i) for i, p in enumerate(parts)], "frame", "edge frame", None
        paths = expand_source(source)
        desc = source if isinstance(source, (str, os.PathLike)) else f"{len(paths)} shard files"
        return [self.submit(_t.parse_shard, p) for p in paths], "files", os.fspath(desc), None

    def _build(self, source, partitions):
        shards, kind, desc, G = self._shards(source)
        S = len(shards)
        if G is not None:
            lines = G.n_edges
            n = G.n_nodes
            self._node_ids = G.node_ids
            P = max(1, min(partitions, n))
            bounds = np.linspace(0, n, P + 1).astype(np.int64)
            split = [self.submit(_t.canonical_split, s, bounds) for s in shards]
        else:
            ids = [self.submit(_t.shard_ids, s) for s in shards]
            summaries = self.gather([self.submit(_t.shard_summary, s, i, 64 * partitions)
                                      for s, i in zip(shards, ids)])
            lines = sum(int(m) for m, _ in summaries)
            if lines == 0:
                raise GraphFormatError(f"all {S} shards are empty (no edge lines)", desc)
            sample = unique_ints(np.concatenate([smp for _, smp in summaries]))
            B = max(1, min(partitions, sample.shape[0]))
            splitters = np.unique(sample[(np.arange(1, B) * sample.shape[0]) // B])
            B = splitters.shape[0] + 1
            parts = [self.items(self.submit(_t.split_ids, i, splitters), B) for i in ids]
            unions = [self.submit(_t.bucket_union, *[parts[s][b] for s in range(S)]) for b in range(B)]
            sizes = np.array(self.gather([self.submit(len, u) for u in unions]), np.int64)
            starts = np.concatenate([[0], np.cumsum(sizes)])
            n = int(starts[-1])
            P = max(1, min(partitions, n))
            bounds = np.linspace(0, n, P + 1).astype(np.int64)
            split = []
            for s in range(S):
                new = [self.submit(_t.bucket_lookup, unions[b], int(starts[b]), parts[s][b]) for b in range(B)]
                split.append(self.submit(_t.relabel_split, shards[s], ids[s], new, bounds))
            self._unions, self._starts = unions, starts
            # dropping a future lets dask free its data as soon as the tasks that read it are done
            del ids, parts, new
        del shards
        self.n_nodes, self.partitions, self.bounds = n, P, bounds
        ranges = self.ranges()
        split = [self.items(f, P + 1) for f in split]
        loops = sum(self.gather([f[0] for f in split]))
        ded = [self.submit(_t.dedupe_block, ranges[b][0], ranges[b][1], *[split[s][b + 1] for s in range(S)])
               for b in range(P)]
        del split
        dparts = [self.items(self.submit(_t.degree_parts, d, lo, hi, bounds), P + 1)
                  for d, (lo, hi) in zip(ded, ranges)]
        deg = [self.submit(_t.degree_block, lo, hi, dparts[i][P], *[dparts[b][i] for b in range(P)])
               for i, (lo, hi) in enumerate(ranges)]
        # the larger ends of block b's edges that lie in block i, and their degrees
        peers = [[self.submit(operator.getitem, dparts[b][i], 0) for i in range(P)] for b in range(P)]
        arcs = []
        for b in range(P):
            degs = [self.submit(_t.degree_lookup, deg[i], ranges[i][0], peers[b][i]) for i in range(P)]
            arcs.append(self.items(self.submit(_t.orient_split, ded[b], deg[b], ranges[b][0], bounds,
                                                 peers[b], degs), P))
        del ded, dparts, peers, degs
        itype = _index_dtype(n)
        blocks = [self.submit(_t.build_rows, lo, hi, n, itype, *[arcs[b][i] for b in range(P)])
                  for i, (lo, hi) in enumerate(ranges)]
        del arcs
        stats = self.gather([self.submit(_t.block_stats, blk) for blk in blocks])
        self.blocks, self.degrees = blocks, deg
        self.block_arcs = np.array([a for a, _ in stats], np.int64)
        self.block_max_out = np.array([d for _, d in stats], np.int64)
        self.n_edges = int(self.block_arcs.sum())
        self.max_out_degree = int(self.block_max_out.max()) if P else 0
        self.input_stats = {"shards": S, "input_edges": int(lines), "self_loops": int(loops),
                            "duplicates": int(lines - loops - self.n_edges), "source": desc}
        self._kind = kind

    # -- per-vertex arrays -------------------------------------------------------------------
    def node_id_blocks(self):
        """Futures of the original ids of every block's vertices."""
        out = []
        for lo, hi in self.ranges():
            if self._kind == "graph":
                ids = self._node_ids[lo:hi]  # names (object) stay names
                out.append(self.client.scatter(ids if ids.dtype == object else np.asarray(ids, np.int64)))
                continue
            sel = [b for b in range(len(self._unions))
                   if self._starts[b] < hi and self._starts[b + 1] > lo]
            out.append(self.submit(_t.block_node_ids, lo, hi, [int(self._starts[b]) for b in sel],
                                    *[self._unions[b] for b in sel]))
        return out

    def vertex_counts(self, value_blocks, dtype=np.int64):
        """One value per vertex from futures of every row block's values, as dask arrays.

        Parameters
        ----------
        value_blocks : list of distributed.Future
            Block i's values (an array of ``ranges()[i]``'s length), in block order.
        dtype : numpy dtype, default int64

        Returns
        -------
        VertexCounts
            ``(node_ids, values)``: dask arrays with one chunk per row block (the original ids:
            integers, or names for a graph of named vertices).

        Examples
        --------
        >>> import networkx as nx
        >>> client = local_client(1, processes=False)
        >>> D = DistributedGraph(nx.path_graph(4), client, partitions=2)
        >>> ids, deg = D.vertex_counts(D.degrees)
        >>> ids.compute().tolist(), deg.compute().tolist()
        ([0, 1, 2, 3], [1, 2, 2, 1])
        >>> client.close(); client.cluster.close()
        """
        names = self._kind == "graph" and self._node_ids.dtype == object
        return VertexCounts(self._dask_array(self.node_id_blocks(), object if names else np.int64),
                            self._dask_array(value_blocks, dtype))

    def _dask_array(self, futures, dtype):
        import dask
        import dask.array as da

        sizes = np.diff(self.bounds)
        return da.concatenate([da.from_delayed(dask.delayed(f), shape=(int(s),), dtype=dtype)
                               for f, s in zip(futures, sizes)])

    def block_paths(self, folder, stem, force=False):
        """The paths of one text shard per row block, ``folder/<stem>-NNNNN.tsv``, checked before
        any work: the folder is made, and an existing shard is refused unless ``force``.

        Parameters
        ----------
        folder : str or PathLike
        stem : str
        force : bool, default False

        Returns
        -------
        list of str

        Raises
        ------
        OutputExistsError
            A shard exists and ``force`` is False.
        """
        from .._runtime.output import check_output_path

        folder = os.fspath(folder)
        os.makedirs(folder, exist_ok=True)
        return [check_output_path(os.path.join(folder, f"{stem}-{b:05d}.tsv"), force, flag="force=True")
                for b in range(self.partitions)]

    def write_vertex_blocks(self, paths, value_blocks, column):
        """Have every worker write its row block's values as a text shard (lines
        ``original_id<TAB>value`` under a ``# original_id<TAB>column`` header).

        Parameters
        ----------
        paths : list of str
            From :meth:`block_paths`.
        value_blocks : list of distributed.Future
            Block i's values.
        column : str
            The values' name in the header.

        Returns
        -------
        list of str
            The paths written.
        """
        header = f"# original_id\t{column}\n"
        return self.gather([self.submit(_t.write_block, p, i, v, header)
                            for p, i, v in zip(paths, self.node_id_blocks(), value_blocks)])

    def coarse_blocks(self, count):
        """The row blocks merged into at most ``count`` runs of consecutive blocks (for block
        tasks whose number grows as a power of the blocks).

        Parameters
        ----------
        count : int
            The most blocks wanted (>= 1).

        Returns
        -------
        ranges : list of (int, int)
        blocks : list of distributed.Future
            Row blocks as :attr:`blocks` are (D's own when ``count >= partitions``).
        arcs, max_out : ndarray of int64
            Every block's arcs and largest out-degree.

        Examples
        --------
        >>> import networkx as nx
        >>> client = local_client(1, processes=False)
        >>> D = DistributedGraph(nx.path_graph(6), client, partitions=3)
        >>> ranges, blocks, arcs, _ = D.coarse_blocks(2)
        >>> ranges, arcs.tolist(), [len(ind) for _, ind in D.gather(blocks)]
        ([(0, 2), (2, 6)], [2, 3], [2, 3])
        >>> client.close(); client.cluster.close()
        """
        P = self.partitions
        Q = max(1, min(int(count), P))
        if Q == P:
            return self.ranges(), list(self.blocks), self.block_arcs, self.block_max_out
        cuts = np.linspace(0, P, Q + 1).astype(np.int64)
        ranges, blocks, arcs, maxout = [], [], [], []
        for g in range(Q):
            a, b = int(cuts[g]), int(cuts[g + 1])
            ranges.append((int(self.bounds[a]), int(self.bounds[b])))
            blocks.append(self.submit(_t.merge_blocks, *self.blocks[a:b]))
            arcs.append(int(self.block_arcs[a:b].sum()))
            maxout.append(int(self.block_max_out[a:b].max()))
        return ranges, blocks, np.array(arcs), np.array(maxout)

    # -- counting: the families' dask implementations, through the registry ------------------
    def count_cliques(self, k=3):
        """Exact number of k-cliques (k >= 3): ``graphmine.count_cliques(self, k)``."""
        from ..core.registry import call

        return call("count_cliques", self, k=k)

    def count_triangles(self):
        """Exact number of triangles: ``graphmine.count_triangles(self)``."""
        return self.count_cliques(3)

    def release(self):
        """Drop the row blocks from the cluster's memory."""
        self.blocks = self.degrees = None
        self._unions = None

    def __repr__(self):
        return (f"DistributedGraph(n_nodes={self.n_nodes}, n_edges={self.n_edges}, "
                f"partitions={self.partitions}, shards={self.input_stats['shards']})")


def memory_per_worker(n, m, partitions, k=3):
    """Bytes one exact counting task holds.

    For a graph of n vertices and m edges in P row blocks of about m / P arcs: k - 1 row blocks
    (4 bytes per arc with 32-bit ids, 8 with 64-bit ids, 8 per row pointer) plus the n-byte
    marker array (see docs/distributed.md).

    Parameters
    ----------
    n, m : int
        Vertices and edges.
    partitions : int
        Row blocks P.
    k : int, default 3
        Clique size.

    Returns
    -------
    int
        Bytes.

    Examples
    --------
    >>> memory_per_worker(10**6, 16 * 10**6, 8)  # 2 blocks of 2e6 arcs and 125,000 rows
    19000016
    """
    arcs = m / partitions
    ib = 4 if n < 2**31 else 8
    return int(math.ceil((k - 1) * (arcs * ib + 8 * (n / partitions + 1)) + n))
