"""The networkx backend's per-node triangles (graphmine/cliques/_nx.py): the first call of a process
counts on numpy while the kernels load from numba's cache on a background thread; the later calls
find them loaded and count with them. Run in fresh processes (numba must not be imported yet)."""

import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# the kernels compiled (or loaded) once, so that the cache holds them for the process below
WARM = r"""
import numpy as np
from graphmine._primitives import csr_kernels as ck
from graphmine.cliques import _clique_kernels as tk
from graphmine.core.graph import from_edges
T = from_edges(np.array([[0, 1], [1, 2], [2, 0]], np.int64))
optr, oind = ck._orient_relabel_serial(T.indptr, T.indices, T._rank("degree", 1))
tk._triangles_per_vertex_serial(optr, oind)
"""

CALLS = r"""
import json, sys, warnings
warnings.simplefilter("ignore")
import networkx as nx
H = nx.relabel_nodes(nx.gnm_random_graph(300, 2500, seed=3), lambda v: f"v{v}")
want = nx.triangles(H)
before = "numba" in sys.modules
first = nx.triangles(nx.Graph(H), backend="graphmine")
from graphmine.cliques import _nx, _cpu
_nx._LOADER[0].join()
from graphmine.cliques import _clique_kernels as tk
from graphmine._primitives import csr_kernels as ck
loaded = bool(tk._triangles_per_vertex_serial.overloads) and bool(ck._orient_relabel_serial.overloads)
spent = _cpu._COLD_SPENT[0]
second = nx.triangles(nx.Graph(H), backend="graphmine")
print(json.dumps({"before": before, "first": first == want, "second": second == want, "loaded": loaded,
                  "numpy_first": spent > 0, "numpy_second": _cpu._COLD_SPENT[0] > spent,
                  "threads": __import__("numba").get_num_threads() == __import__("numba").config.NUMBA_NUM_THREADS}))
"""


def _run(code):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""),
               NETWORKX_AUTOMATIC_BACKENDS="", NETWORKX_BACKEND_PRIORITY="")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_first_call_on_numpy_later_calls_on_the_loaded_kernels():
    pytest.importorskip("networkx")
    _run(WARM)
    out = json.loads(_run(CALLS).strip().splitlines()[-1])
    assert not out["before"]  # numba came with the backend's loader, not before
    assert out["first"] and out["second"]  # networkx's counts both times
    assert out["numpy_first"] and not out["numpy_second"]
    assert out["loaded"]
    assert out["threads"]  # numba's thread setting as found
