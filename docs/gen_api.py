"""The API reference pages, generated at build time (an MkDocs hook, see mkdocs.yml).

One dict, ``PAGES``, says which objects each page documents, by their dotted import path. When a
module moves, edit the paths here and nothing else: the pages, their navigation entries and
``tests/test_docs_site.py`` follow. Each page is written as ``api/<slug>.md`` with one mkdocstrings
block (``::: path``) per object; docstrings are read from the imported objects (the python
handler runs with ``force_inspection``), so templates filled at import time by ``fill_doc`` show
their final text.
"""

import importlib

# slug -> (title, one-line introduction, [dotted paths]); the order is the navigation order
PAGES = {
    "graph-io": ("The Graph and I/O", "The CSR graph, the one validator, readers and writers, "
                 "timestamped events, shipped data sets and generators.", [
        "graphmine.validation.as_graph",
        "graphmine.graph.Graph",
        "graphmine.graph.OrientedGraph",
        "graphmine.graph.from_edges",
        "graphmine.graph.from_scipy",
        "graphmine.graph.from_networkx",
        "graphmine.io.read_graph",
        "graphmine.io.read_edges",
        "graphmine.io.EdgeList",
        "graphmine.io.write_edgelist",
        "graphmine.io.write_vertex_table",
        "graphmine.events.read_events",
        "graphmine.events.events_from_items",
        "graphmine.events.TemporalEvents",
        "graphmine.datasets",
        "graphmine.generators",
        "graphmine.exceptions",
    ]),
    "triangles-clustering": ("Triangles and clustering", "Triangle counts (total and per vertex), "
                             "clustering coefficients and transitivity.", [
        "graphmine.dispatch.count_triangles",
        "graphmine.dispatch.triangles",
        "graphmine.dispatch.clustering",
        "graphmine.dispatch.average_clustering",
        "graphmine.dispatch.transitivity",
    ]),
    "cliques": ("Cliques", "k-clique counts, all clique sizes at once, maximal cliques, clique "
                "communities, clique cores and densest subgraphs.", [
        "graphmine.dispatch.count_cliques",
        "graphmine.clique_census.count_all_cliques",
        "graphmine.clique_census.vertex_clique_counts",
        "graphmine.clique_census.edge_clique_counts",
        "graphmine.clique_census.clique_clustering",
        "graphmine.clique_enumeration.maximal_cliques",
        "graphmine.clique_enumeration.maximal_clique_batches",
        "graphmine.clique_enumeration.count_maximal_cliques",
        "graphmine.clique_enumeration.node_clique_number",
        "graphmine.clique_enumeration.enumerate_cliques",
        "graphmine.clique_enumeration.list_cliques",
        "graphmine.clique_enumeration.clique_communities",
        "graphmine.clique_peeling.clique_core_number",
        "graphmine.clique_peeling.densest_clique_subgraph",
        "graphmine.clique_peeling.DensestSubgraph",
    ]),
    "cycles": ("Cycles", "4-cycle counts, total and per vertex.", [
        "graphmine.dispatch.count_four_cycles",
        "graphmine.dispatch.four_cycles",
    ]),
    "truss-cores": ("Truss and cores", "k-trusses, the truss decomposition and core numbers.", [
        "graphmine.dispatch.k_truss",
        "graphmine.truss.truss_decomposition",
        "graphmine.centrality.core_number",
    ]),
    "link-prediction-centrality": ("Link prediction and centrality", "Pair scores and vertex "
                                   "centralities.", [
        "graphmine.dispatch.common_neighbor_centrality",
        "graphmine.link_prediction.non_edges",
        "graphmine.centrality.pagerank",
        "graphmine.centrality.average_neighbor_degree",
    ]),
    "probgraph": ("ProbGraph", "Estimates from neighbourhood sketches (Bloom filters, MinHash, "
                  "KMV), each with its error.", [
        "graphmine.probgraph",
    ]),
    "motifs": ("Motif prediction", "Motif definitions, the evaluation protocol, heuristic scores, "
               "temporal closure prediction and the SEAM graph neural network.", [
        "graphmine.motifs",
        "gnn",
    ]),
    "science4cast": ("Science4Cast", "Temporal link prediction in a growing concept graph: data, "
                     "snapshots and pair features.", [
        "graphmine.science4cast",
    ]),
    "spatial": ("Spatial Computer Model", "The simulator, its collectives, selection, sorting, SpMV "
                "and matrix multiplication.", [
        "spatial",
    ]),
    "backends": ("Back-ends", "The registry of families and back-ends, the GPU, the Dask cluster "
                 "and the networkx backend.", [
        "graphmine.registry",
        "graphmine.cuda",
        "graphmine.distributed",
        "graphmine.nx_backend",
    ]),
}

FOLDER = "api"
# modules that run a program when imported (python -m graphmine)
MAIN_MODULES = ("graphmine.__main__",)


def resolve(path):
    """The object at dotted ``path``: the longest importable module prefix, then attributes."""
    parts = path.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ModuleNotFoundError as exc:
            if exc.name is None or not ".".join(parts[:i]).startswith(exc.name):
                raise  # a missing dependency, not a missing module of the path
            continue
        for attr in parts[i:]:
            obj = getattr(obj, attr)
        return obj
    raise ImportError(f"no module in {path!r}")


def facade_name(path):
    """``graphmine.<name>`` when the top-level package gives the same object, else None."""
    name = path.rsplit(".", 1)[-1]
    if not path.startswith("graphmine."):
        return None
    import graphmine

    if name in getattr(graphmine, "__all__", ()) and getattr(graphmine, name) is resolve(path):
        return f"graphmine.{name}"
    return None


def page_markdown(slug):
    """The Markdown of API page ``slug``."""
    title, intro, paths = PAGES[slug]
    lines = [f"# {title}", "", intro, "", "| object | also reachable as |", "|---|---|"]
    for path in paths:
        lines.append(f"| `{path}` | {f'`{facade_name(path)}`' if facade_name(path) else ''} |")
    lines.append("")
    for path in paths:
        lines += [f"::: {path}", ""]
    return "\n".join(lines)


def nav_entries():
    """[{title: 'api/<slug>.md'}, ...] in ``PAGES`` order."""
    return [{title: f"{FOLDER}/{slug}.md"} for slug, (title, _, _) in PAGES.items()]


# ---- MkDocs hook events -------------------------------------------------------------------------

def on_config(config):
    """Put the generated pages in the navigation, under "API reference".

    The python handler imports every submodule of a documented package, and importing
    ``graphmine.__main__`` would run the command line: an empty module stands in for it. The
    repository root comes first on ``sys.path``, so that the pages document this tree's code.
    """
    import os
    import sys
    import types

    root = os.path.dirname(os.path.abspath(config["config_file_path"]))
    if root not in sys.path:
        sys.path.insert(0, root)
    for name in MAIN_MODULES:
        sys.modules.setdefault(name, types.ModuleType(name, "The ``python -m`` entry point."))
    for item in config["nav"]:
        if isinstance(item, dict) and "API reference" in item:
            item["API reference"] = nav_entries()
    return config


def on_files(files, config):
    """Add the generated API pages to the site's files."""
    from mkdocs.structure.files import File

    for slug in PAGES:
        files.append(File.generated(config, f"{FOLDER}/{slug}.md", content=page_markdown(slug)))
    return files

