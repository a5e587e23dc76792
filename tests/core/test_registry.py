"""The registry of families x back-ends (graphmine.core.registry): dispatch rules, errors, and the
support matrix against what actually runs."""

import re
import subprocess
import sys

import networkx as nx
import numpy as np
import pytest

import graphmine as gm
from graphmine.core import registry
from graphmine.core.exceptions import NoImplementationError, ParameterError


def test_cpu_exact_and_sketches_dispatch():
    H = nx.karate_club_graph()
    assert gm.count_triangles(H) == 45
    assert registry.select("count_triangles", gm.as_graph(H)).backend == "cpu"
    impl = registry.select("count_triangles", gm.as_graph(H), method="kmv")
    assert impl.backend == "sketch"
    est = gm.count_triangles(H, method="bloom", bits=4096, seed=1)
    assert round(est.estimate) == 45


def test_validation_in_the_core():
    with pytest.raises(ParameterError, match="device must be one of"):
        gm.count_four_cycles(nx.cycle_graph(4), device="gpu")
    with pytest.raises(ParameterError, match="method must be one of"):
        gm.count_triangles(nx.cycle_graph(4), method="exactly")
    with pytest.raises(ParameterError, match="unexpected keywords for method='exact'"):
        gm.count_triangles(nx.cycle_graph(4), budget=0.1)
    with pytest.raises(ParameterError, match="unexpected keywords for method='bloom'"):
        gm.count_triangles(nx.cycle_graph(4), method="bloom", colour=1)


def test_one_of_options_are_checked_by_one_validator():
    from graphmine.core.exceptions import check_choice
    from graphmine.motifs import closure_task
    from graphmine.probgraph import similarity, sketch_neighbourhoods

    assert check_choice("measure", "overlap", ("jaccard", "overlap")) == "overlap"
    # an array or a number never compares equal to a name: refused with the message, no ambiguity
    for bad in (np.array(["cpu", "cuda"]), 0, None, ["cpu"]):
        with pytest.raises(ParameterError, match="device must be one of 'cpu', 'cuda', 'auto', got "):
            registry.check_device(bad)
    H = nx.path_graph(4)
    with pytest.raises(ParameterError, match="measure must be one of 'jaccard', 'overlap', 'common', got 'cos'"):
        similarity(H, measure="cos")
    with pytest.raises(ParameterError, match="scope must be one of .*, got 'some'"):
        sketch_neighbourhoods(H, "kmv", scope="some")
    from graphmine.io.events import events_from_items

    events = events_from_items([[0, 1], [1, 2], [0, 2]], times=[1, 2, 3])
    with pytest.raises(ParameterError, match="candidates must be one of 'auto', 'open', 'wedge', got 'all'"):
        closure_task(events, candidates="all")


def test_integer_options_are_checked_by_one_validator():
    from graphmine.cliques.enumeration import list_cliques
    from graphmine.core.exceptions import check_int
    from graphmine.motifs import clique, motif_prediction_task
    from graphmine.science4cast import generate_temporal_graph
    from graphmine.science4cast.snapshots import sample_pairs

    assert check_int("k", np.int32(4), 3) == 4 and type(check_int("k", np.int64(4))) is int
    H = nx.complete_graph(5)
    rows = np.array([[0, 1, 10000]], np.int64)
    for call, rule in ((lambda: gm.clique_core_number(H, True), "k must be an integer >= 2, got True"),
                       (lambda: list(list_cliques(H, 0)), "k must be an integer >= 1, got 0"),
                       (lambda: gm.clique_communities(H, 2.0), "k must be an integer >= 2, got 2.0"),
                       (lambda: gm.count_all_cliques(H, max_k=0), "max_k must be an integer >= 1, got 0"),
                       (lambda: gm.k_truss(H, "3"), "k must be an integer, got '3'"),
                       (lambda: motif_prediction_task(H, clique(3), n_positives=0),
                        "n_positives must be an integer >= 1"),
                       (lambda: generate_temporal_graph(49), "n_vertices must be an integer >= 50, got 49"),
                       (lambda: sample_pairs(rows, 2000, 0, 5), "years_delta must be an integer >= 1, got 0"),
                       (lambda: gm.count_triangles(H, method="bloom", hashes=17),
                        "hashes must be an integer in 1..16, got 17")):
        with pytest.raises(ParameterError, match=re.escape(rule)):
            call()


def test_seeds_are_checked_by_one_validator():
    from graphmine.core.exceptions import check_seed
    from graphmine.io.generators import kronecker_edges
    from graphmine.science4cast import generate_temporal_graph
    from graphmine.science4cast.blend import bootstrap_aucs

    # the same stream as numpy's for an int or a numpy int; a Generator passes through as it is
    assert check_seed(np.int64(3)).integers(1 << 30, size=4).tolist() == \
        np.random.default_rng(3).integers(1 << 30, size=4).tolist()
    rng = np.random.default_rng(0)
    assert check_seed(rng) is rng
    assert np.array_equal(kronecker_edges(6, seed=np.random.default_rng(5)), kronecker_edges(6, seed=5))
    y = np.array([0, 1, 0, 1, 1, 0])
    s = np.arange(6.0)
    for bad in (-1, 1.5, "7", True):
        rule = f"seed must be None, an integer >= 0 or a numpy Generator, got {bad!r}"
        for call in (lambda: kronecker_edges(6, seed=bad), lambda: generate_temporal_graph(60, seed=bad),
                     lambda: bootstrap_aucs(y, [s], n_boot=5, seed=bad)):
            with pytest.raises(ParameterError, match=re.escape(rule)):
                call()


def test_no_implementation_names_family_backend_and_reason():
    G = gm.as_graph(nx.cycle_graph(4))
    with pytest.raises(NoImplementationError) as info:
        gm.count_four_cycles(G, method="bloom")
    msg = str(info.value)
    assert "count_four_cycles" in msg and "method='bloom'" in msg and "device='cpu'" in msg
    assert isinstance(info.value, ParameterError) and isinstance(info.value, ValueError)


def test_cpu_path_loads_no_backend_module():
    script = ("import sys, networkx as nx, graphmine as gm\n"
              "H = nx.karate_club_graph()\n"
              "gm.count_triangles(H); gm.four_cycles(H); gm.count_cliques(H, 4)\n"
              "print(sorted(m for m in sys.modules if m.startswith(('graphmine.cuda', 'graphmine.distributed',"
              " 'graphmine.probgraph', 'graphmine.nx_backend', 'dask', 'torch', 'numba.cuda'))))\n")
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "[]"


def test_import_graphmine_loads_no_registry_backend():
    script = ("import sys, graphmine\n"
              "print(sorted(m for m in sys.modules if m.startswith(('graphmine.core.registry', 'graphmine.dispatch',"
              " 'numba', 'dask', 'torch'))))\n")
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"


def _run_row(family, backend, method):
    """Run one matrix entry on a small graph; returns the result (or raises)."""
    H = nx.karate_club_graph()
    if backend == "cpu":
        fn = getattr(gm, family, None)
        impl = registry.implementations(family, "cpu")[0]
        G = gm.as_graph(H)
        import inspect

        required = [p for p in inspect.signature(impl.function).parameters.values()
                    if p.default is p.empty and p.kind is p.POSITIONAL_OR_KEYWORD]
        args = (G, 3)[:len(required)]
        if family == "link_scores":
            return impl(G, np.array([[0, 1]]), "jaccard")
        out = impl(*args)
        return list(out) if hasattr(out, "__next__") else out
    if backend == "sketch":
        return getattr(gm.probgraph, family)(H, method=method, seed=1)
    raise AssertionError(f"no runner for back-end {backend}")


@pytest.mark.slow
def test_matrix_equals_what_runs():
    rows = registry.support_matrix()
    names = {r["family"] for r in rows}
    assert {"count_triangles", "count_four_cycles", "four_cycles", "common_neighbor_centrality",
            "count_cliques", "k_truss", "maximal_cliques"} <= names
    for r in rows:
        for method in r.get("cpu", []):
            assert _run_row(r["family"], "cpu", method) is not None, r["family"]
        for method in r.get("sketch", []):
            est = _run_row(r["family"], "sketch", method)
            assert hasattr(est, "estimate"), (r["family"], method)
        # every networkx entry is a function of the backend interface that networkx can call
        from graphmine.nx_backend import BackendInterface

        for fn in r.get("networkx", []):
            assert callable(getattr(BackendInterface, fn)), fn
        # every cuda entry resolves to a callable (run under the simulator in test_cuda/test_cycles)
        for impl in registry.implementations(r["family"], "cuda"):
            assert callable(impl.function)
    # what the matrix says is missing does not run
    G = gm.as_graph(nx.karate_club_graph())
    for r in rows:
        if r["family"] in ("count_triangles", "four_cycles") and "khash" not in r.get("sketch", []):
            with pytest.raises(NoImplementationError):
                registry.select(r["family"], G, method="khash")


def test_matrix_printed_by_the_cli(capsys):
    from graphmine import cli

    assert cli.main(["info", "--backends"]) == 0
    out = capsys.readouterr().out
    assert "count_four_cycles" in out and "sketch" in out and "networkx" in out
    assert out.strip() == registry.format_matrix().strip()


def test_dask_graph_dispatches_to_the_dask_backend():
    pytest.importorskip("distributed")
    from graphmine.distributed import DistributedGraph, local_client

    client = local_client(1, processes=False)
    try:
        D = DistributedGraph(nx.karate_club_graph(), client, partitions=2)
        assert registry.select("count_triangles", D).backend == "dask"
        assert gm.count_triangles(D) == 45
        assert gm.count_cliques(D, 4) == 11
        with pytest.raises(NoImplementationError, match="dask"):
            gm.clustering(D)  # the matrix has no dask entry for it
    finally:
        client.close()
        client.cluster.close()


def test_docs_show_the_generated_matrix():
    import os

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    table = registry.format_matrix(markdown=True)
    for doc in ("README.md", os.path.join("docs", "backends.md")):
        with open(os.path.join(root, doc), encoding="utf-8") as f:
            assert table in f.read(), f"{doc}: the support matrix differs from graphmine.core.registry's"
