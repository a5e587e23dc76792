"""Every notebook in notebooks/ runs end to end."""

import glob
import os

import pytest

NOTEBOOKS = sorted(glob.glob(os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "notebooks", "*.ipynb")))


def test_notebooks_present():
    assert NOTEBOOKS, "notebooks/ holds no notebook"


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[os.path.basename(p) for p in NOTEBOOKS])
def test_notebook_executes(path, tmp_path):
    nbformat = pytest.importorskip("nbformat")
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    os.environ.setdefault("MPLBACKEND", "Agg")
    client = NotebookClient(nb, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": os.path.dirname(os.path.abspath(path))}})
    client.execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[os.path.basename(p) for p in NOTEBOOKS])
def test_notebooks_are_committed_executed(path):
    """Committed with their outputs, so plots show on a notebook viewer without running anything."""
    nbformat = pytest.importorskip("nbformat")
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code" and c.source.strip()]
    assert code and all(c.get("execution_count") for c in code), "a code cell was never executed"
    counts = [c.execution_count for c in code]
    assert counts == sorted(counts), "cells were executed out of order"
    if any("plt." in c.source or "plot" in c.source for c in code):
        assert any("image/png" in o.get("data", {}) for c in code for o in c.get("outputs", [])), \
            "a plotting notebook without a stored figure"
