"""``graphmine count-cliques SHARDS --scheduler local:N|tcp://host:8786``: the distributed run
behind the ``--scheduler`` option of the count-cliques command.

SHARDS is a file, a directory or a glob pattern (quote it: the command expands it itself, so a
pattern matching more files than a shell accepts still works). The output is the JSON (or the
human summary) of the one-machine command plus ``workers`` and ``partitions``.
"""

from .._runtime.docs import fill_doc
import json
import os
import sys
import time

from .._runtime.interrupt import interruptible, kill_children
from .._runtime.optional import require
from .. import commands
from ..core.exceptions import ParameterError

__all__ = ["count_cliques_command", "scheduler_client"]


def scheduler_client(spec):
    """The Dask client of a ``--scheduler`` value.

    Parameters
    ----------
    spec : str
        ``local`` (a LocalCluster with a worker process per core), ``local:N`` (N worker
        processes) or a scheduler address (``tcp://host:8786``, any ``scheme://`` distributed
        understands).

    Returns
    -------
    client : distributed.Client
        Connected.
    owned : bool
        Whether the caller closes it (and its cluster, for ``local``).

    Raises
    ------
    ParameterError
        A malformed value, or a scheduler that cannot be reached within 30 s.
    MissingDependencyError
        distributed is missing (names the ``dask`` extra).

    Examples
    --------
    >>> from graphmine.distributed import local_client
    >>> cluster_client = local_client(1, processes=False)
    >>> client, owned = scheduler_client(cluster_client.scheduler.address)
    >>> owned, len(client.nthreads())
    (True, 1)
    >>> client.close(); cluster_client.close(); cluster_client.cluster.close()
    """
    Client = require("distributed", "--scheduler").Client
    from .graph import local_client

    if spec == "local" or spec.startswith("local:"):
        n = None
        if spec != "local":
            text = spec[len("local:"):]
            if not text.isdigit() or int(text) < 1:
                raise ParameterError(f"--scheduler local:N needs a positive number of workers, got {spec!r}")
            n = int(text)
        from .._runtime.interrupt import start_children

        # after Ctrl-C, multiprocessing's resource tracker (a child process) removes the
        # cluster's semaphores, with a warning that is no news to whoever pressed Ctrl-C
        quiet = "ignore::UserWarning:multiprocessing.resource_tracker"
        os.environ["PYTHONWARNINGS"] = ",".join(filter(None, [os.environ.get("PYTHONWARNINGS"), quiet]))
        # the workers start with SIGINT blocked: a Ctrl-C at the terminal interrupts this process only
        return start_children(lambda: local_client(n)), True
    if "://" not in spec:
        raise ParameterError(f"--scheduler must be 'local', 'local:N' or a scheduler address such as "
                             f"tcp://host:8786, got {spec!r}")
    try:
        return Client(spec, timeout=30), True
    except (OSError, TimeoutError) as exc:
        raise ParameterError(f"cannot reach the Dask scheduler at {spec}: {exc}") from None


@fill_doc
def count_cliques_command(args):
    """Run ``count-cliques`` on a Dask cluster and print its result.

    {cli_command_sections}

    Raises
    ------
    ParameterError
        Options that do not apply with ``--scheduler`` (``--device``, ``--ids str``, a method
        other than exact and bloom, bloom with k > 3).

    Examples
    --------
    >>> from graphmine.cli import build_parser
    >>> from graphmine.distributed import local_client
    >>> client = local_client(1, processes=False)
    >>> args = build_parser().parse_args(["count-cliques", "Celegans", "-q", "--scheduler", client.scheduler.address])
    >>> count_cliques_command(args)  # doctest: +ELLIPSIS
    triangles: 3,241
    graph: 297 vertices, 2,148 edges from 1 shards; 1 workers, 1 row blocks; build ... s, count ... s
    0
    >>> client.close(); client.cluster.close()
    """
    from ..core.registry import call
    from .graph import DistributedGraph

    if getattr(args, "device", "cpu") != "cpu":
        raise ParameterError(f"--device {args.device} does not apply with --scheduler: the Dask workers count "
                             "on their CPUs (leave --device out, or drop --scheduler to count on this "
                             "machine's GPU)")
    if args.method not in ("exact", "bloom"):
        raise ParameterError(f"--scheduler supports --method exact and bloom, got {args.method!r}")
    if getattr(args, "ids", "int") != "int":
        raise ParameterError("--ids str is not supported with --scheduler (the shards are read with integer ids)")
    if args.method == "exact" and (args.budget is not None or args.seed is not None):
        raise ParameterError("--budget and --seed apply to the approximate methods only")
    if args.method == "bloom" and args.k != 3:
        raise ParameterError("--method bloom with --scheduler counts triangles (-k 3) only")
    from ..io import datasets

    source = datasets.resolve(args.file)
    if not args.quiet and str(args.scheduler).startswith("local") and \
            not commands.kernels_cached("distributed._block_kernels"):
        # the workers compile in their own processes, where this one's compile listener hears
        # nothing: said before the cluster starts (the workers share this machine's cache)
        print(commands.compile_note("count-cliques --scheduler"), file=sys.stderr, flush=True)
    client, owned = scheduler_client(args.scheduler)
    interrupted = False

    def work():
        t0 = time.perf_counter()
        D = DistributedGraph(source, client)
        load_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        kwargs = {"budget": args.budget, "seed": args.seed} if args.method == "bloom" else {}
        result = call("count_cliques", D, k=args.k, method=args.method, **kwargs)  # the registry's dask back-end
        return D, load_s, result, time.perf_counter() - t0

    try:
        workers = len(client.nthreads())
        # on graphmine's worker thread: Ctrl-C is seen at once, and never inside a kernel
        D, load_s, result, seconds = interruptible(work)()
    except KeyboardInterrupt:
        interrupted = True
        raise
    finally:
        if owned and interrupted:
            # no graceful shutdown of workers in mid-task (seconds, and tracebacks): they end now
            import logging

            logging.disable(logging.CRITICAL)  # asyncio's notes on the tasks left behind
            kill_children()
            from .graph import remove_scratch

            remove_scratch(client)
        elif owned:
            cluster = getattr(client, "cluster", None)
            client.close()
            if cluster is not None:
                cluster.close()
            from .graph import remove_scratch

            remove_scratch(client)
    out = {"file": args.file, "k": args.k, "method": args.method}
    if hasattr(result, "to_dict"):
        extra = result.to_dict()
        out["count"] = int(round(extra["estimate"]))
        out.update(extra)
    else:
        out["count"] = int(result)
    out.update({"seconds": seconds, "load_seconds": load_s, "nodes": D.n_nodes, "edges": D.n_edges,
                "workers": workers, "partitions": D.partitions, "shards": D.input_stats["shards"]})
    if args.json:
        print(json.dumps(out))
        return 0
    what = "triangles" if args.k == 3 else f"{args.k}-cliques"
    if "estimate" in out:
        lo, hi = out["ci"]
        print(f"{what}: ~{out['estimate']:,.0f} ({100 * out['confidence']:g}% CI {lo:,.0f} .. {hi:,.0f}, "
              f"stderr {out['stderr']:,.0f})  [bloom, budget {out['budget']:.3g}]")
    else:
        print(f"{what}: {out['count']:,}")
    print(f"graph: {D.n_nodes:,} vertices, {D.n_edges:,} edges from {out['shards']} shards; "
          f"{workers} workers, {D.partitions} row blocks; build {load_s:.3f} s, count {seconds:.3f} s")
    return 0

