"""The API reference pages, generated at build time (an MkDocs hook, see mkdocs.yml).

``PAGES`` says which objects each page documents, by their dotted import path: the pages of the
core, the components and the back-ends are written here (when a module moves, edit the paths here
and nothing else); every algorithm family gets its page from its folder, with nothing to edit: the
families are read from the generated table (:data:`graphmine.core.generated.FAMILIES`), the page
shows the family package and its public modules, its introduction is the package docstring's first
paragraph. The pages, their navigation entries and ``tests/package/test_docs_site.py`` follow. Each page is written as ``api/<slug>.md`` with one mkdocstrings
block (``::: path``) per object; docstrings are read from the imported objects (the python
handler runs with ``force_inspection``), so templates filled at import time by ``fill_doc`` show
their final text.
"""

import importlib
import re

# slug -> (title, one-line introduction, [dotted paths of modules]), in the navigation order; a
# module's page shows what its ``__all__`` exports. The family pages come after the first entry.
_WRITTEN = {
    "graph-io": ("The Graph and I/O", "The CSR graph, the one validator, readers and writers, "
                 "timestamped events, shipped data sets, generators and the exceptions.", [
        "graphmine.core.graph",
        "graphmine.core.validation",
        "graphmine.io",
        "graphmine.io.events",
        "graphmine.io.datasets",
        "graphmine.io.generators",
        "graphmine.core.exceptions",
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
    "streaming": ("Streaming triangle counts", "One-pass triangle estimators of edge streams with "
                  "insertions and deletions in fixed memory (ThinkD, TRIEST, WRS, an exact counter) and "
                  "the stream readers.", [
        "graphmine.streaming",
    ]),
    "spatial": ("Spatial Computer Model", "The simulator, its collectives, selection, sorting, SpMV "
                "and matrix multiplication.", [
        "spatial",
    ]),
    "backends": ("Back-ends", "The registry of families and back-ends, the GPU, the Dask cluster "
                 "and the networkx backend.", [
        "graphmine.core.registry",
        "graphmine.cuda",
        "graphmine.distributed",
        "graphmine.nx_backend",
    ]),
}

def _family_pages():
    """{slug: (title, introduction, [the package and its public modules])} of every family folder."""
    import ast
    import os

    from graphmine.core import generated

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    # the back-ends and components that declare a family too have pages of their own
    others = {"cuda", "distributed", "probgraph", "nx_backend", "motifs", "science4cast"}
    folders = sorted({entry["module"].split(".")[1] for entry in generated.FAMILIES.values()} - others)
    pages = {}
    for folder in folders:
        path = os.path.join(root, "graphmine", folder)
        doc = ast.get_docstring(ast.parse(open(os.path.join(path, "__init__.py"), encoding="utf-8").read())) or ""
        # the first paragraph, its Sphinx roles as code
        intro = re.sub(r":\w+:`~?([\w.]+)`", lambda m: f"`{m.group(1).rsplit('.', 1)[-1]}`",
                       " ".join(doc.split("\n\n")[0].split()))
        modules = [f"graphmine.{folder}"] + [f"graphmine.{folder}.{f[:-3]}" for f in sorted(os.listdir(path))
                                            if f.endswith(".py") and not f.startswith("_") and f != "cli.py"]
        pages[folder.replace("_", "-")] = (folder.replace("_", " ").capitalize(), intro, modules)
    return pages


_first = next(iter(_WRITTEN))
PAGES = {_first: _WRITTEN[_first], **_family_pages(), **{k: v for k, v in _WRITTEN.items() if k != _first}}

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
        lines.append(f"::: {path}")
        exported = getattr(resolve(path), "__all__", None)
        if exported is not None:  # a module: what its __all__ exports, not what it imports
            lines += ["    options:", f"      members: [{', '.join(exported)}]"]
        lines.append("")
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

