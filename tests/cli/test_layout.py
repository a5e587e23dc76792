"""The command line's layout: each component's ``cli.py`` registers its subcommands and is
imported only when one of them runs; the top-level parser lists them all by name and help line;
counting from the command line loads neither scipy, matplotlib, torch nor Science4Cast."""

import importlib
import json
import os
import subprocess
import sys

import pytest

from graphmine.cli import COMMANDS, build_parser

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COMPONENT_CLIS = sorted({module for module, _ in COMMANDS.values()})


HEAVY = ("scipy", "matplotlib", "torch", "sklearn", "lightgbm", "tqdm", "networkx", "cffi", "pycparser")
COMPONENTS = ("graphmine.science4cast", "graphmine.probgraph", "graphmine.motifs", "graphmine.graphlets",
              "graphmine.cuda", "graphmine.distributed", "graphmine.io.generators", "graphmine.streaming", "gnn")


# prints the modules a process holds when it ends (the program's exit runs atexit handlers too)
_AT_EXIT = ("import atexit, json, sys\n"
            "atexit.register(lambda: print(json.dumps(sorted(sys.modules)), file=sys.stderr))\n")


def _imported(script, *args):
    """(exit status, stdout, modules loaded) of ``python -c SCRIPT ARGS`` in the repository."""
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    r = subprocess.run([sys.executable, "-c", _AT_EXIT + script, *args], capture_output=True, text=True, env=env,
                       cwd=ROOT, timeout=300)
    return r.returncode, r.stdout, set(json.loads(r.stderr.strip().splitlines()[-1]))


# what `import numba` loads by itself (it imports scipy's top package to check its version)
NUMBA_ALONE = _imported("import numba")[2]


def _probe(*argv):
    """Run the graphmine program; its status, output and the heavy or component modules it loaded
    beyond what numba loads by itself."""
    code, out, mods = _imported("import sys\nsys.argv[0] = 'graphmine'\nfrom graphmine.cli import run\nrun()", *argv)
    extra = sorted(m for m in mods - NUMBA_ALONE if m.split(".")[0] in HEAVY or m.startswith(COMPONENTS))
    return {"code": code, "out": out, "modules": extra}


def test_count_cliques_loads_only_what_counting_uses():
    r = _probe("count-cliques", "ca-GrQc", "-q", "--json")
    assert r["code"] == 0 and json.loads(r["out"])["count"] == 48260  # datasets/README.md
    assert r["modules"] == [], r["modules"]
    r = _probe("count-cliques", "USAir", "-k", "4", "-q")
    assert r["code"] == 0 and "4-cliques: 61,072" in r["out"]  # datasets/README.md
    assert r["modules"] == [], r["modules"]


def test_help_lists_every_command_without_loading_components():
    r = _probe("--help")
    assert r["code"] == 0
    for name in ("count-cliques", "triangles", "info", *COMMANDS):
        assert f"    {name}" in r["out"], name
    for name, (_, help) in COMMANDS.items():
        assert help in r["out"]
    assert not any(m.startswith(("graphmine.science4cast", "graphmine.probgraph", "graphmine.motifs"))
                   for m in r["modules"]), r["modules"]


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_component_command_loads_its_module_only(command):
    r = _probe(command, "--help")
    assert r["code"] == 0 and r["out"].startswith(f"usage: graphmine {command}")
    own = COMMANDS[command][0].rsplit(".", 1)[0]
    others = {m.rsplit(".", 1)[0] for m in COMPONENT_CLIS} - {own}
    assert any(m.startswith(own) for m in r["modules"])
    assert not any(m.startswith(o) for m in r["modules"] for o in others), r["modules"]


@pytest.mark.parametrize("module", COMPONENT_CLIS)
def test_listed_help_lines_are_the_modules_own(module):
    # the top-level table and the module's own register() must say the same
    mod = importlib.import_module(module)
    assert {n: (module, h) for n, h in mod.COMMANDS.items()} == {n: v for n, v in COMMANDS.items() if v[0] == module}
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    listed = {a.dest: a.help for a in sub._choices_actions}
    for name, help in mod.COMMANDS.items():
        assert listed[name] == help
        assert sub.choices[name].prog == f"graphmine {name}"  # the real parser, loaded on look-up
    assert [a.dest for a in sub._choices_actions] == ["count-cliques", "triangles", "info", *COMMANDS]


def test_full_parser_for_tools_that_walk_it():
    # walking the subparsers (as documentation tools do) loads every command module
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    names = dict(sub.choices.items())
    assert set(names) == {"count-cliques", "triangles", "info", *COMMANDS}
    assert all(p.prog == f"graphmine {n}" for n, p in names.items())


def _kernels():
    """(path, function) of every function compiled by numba in graphmine, spatial and gnn."""
    import ast

    for pkg in ("graphmine", "spatial", "gnn"):
        for dirpath, _, filenames in os.walk(os.path.join(ROOT, pkg)):
            for f in filenames:
                if not f.endswith(".py"):
                    continue
                path = os.path.join(dirpath, f)
                for node in ast.walk(ast.parse(open(path, encoding="utf-8").read())):
                    if isinstance(node, ast.FunctionDef) and any(
                            "jit" in ast.unparse(d) or "vectorize" in ast.unparse(d) for d in node.decorator_list):
                        yield path, node


def test_no_kernel_needs_blas_or_cffi():
    # the program sets numba up without scipy.linalg (BLAS) and cffi (graphmine/_runtime/startup.py)
    import ast

    found = 0
    for path, fn in _kernels():
        found += 1
        for node in ast.walk(fn):
            text = ast.unparse(node) if isinstance(node, (ast.Attribute, ast.Name)) else ""
            assert not isinstance(node, ast.BinOp) or not isinstance(node.op, ast.MatMult), (path, fn.name)
            assert not any(w in text for w in ("np.dot", "linalg", "matmul", "np.vdot", "np.inner", "cffi")), \
                (path, fn.name, text)
    assert found > 50  # the walk sees the kernels


def test_lean_setup_leaves_scipy_and_cffi_importable():
    script = ("import sys\n"
              "from graphmine._runtime.startup import lean_numba_setup\n"
              "lean_numba_setup()\n"
              "hidden = [m for m in ('scipy.linalg', 'cffi', 'pycparser') if m in sys.modules]\n"
              "import scipy.linalg\n"
              "import graphmine as gm\n"
              "print(hidden, gm.count_cliques([(0, 1), (1, 2), (2, 0)]), float(scipy.linalg.norm([3.0, 4.0])))\n")
    code, out, _ = _imported(script)
    assert code == 0 and out.split("\n")[0] == "[] 1 5.0"


# a module of cached kernels: a serial and a parallel one (the loads of the second start numba's
# threading layer); what they compute is checked against plain Python below
_CACHED_KERNELS = '''
import numba
import numpy as np

@numba.njit(cache=True)
def wedges(indptr):
    total = 0
    for v in range(indptr.shape[0] - 1):
        d = indptr[v + 1] - indptr[v]
        total += d * (d - 1) // 2
    return total

@numba.njit(cache=True, parallel=True)
def degree_squares(indptr):
    out = np.zeros(indptr.shape[0] - 1, np.int64)
    for v in numba.prange(indptr.shape[0] - 1):
        out[v] = (indptr[v + 1] - indptr[v]) ** 2
    return out.sum()
'''


def test_program_loads_cached_kernels_without_the_compiler_setup(tmp_path):
    # the program's loads from numba's cache leave numba's compiler registries unloaded
    # (graphmine/_runtime/startup.py); a compile afterwards still sets them up and works
    (tmp_path / "lean_probe.py").write_text(_CACHED_KERNELS)
    script = ("import sys\n"
              f"sys.path.insert(0, {str(tmp_path)!r})\n"
              "import numpy as np\n"
              "if sys.argv[1] == 'lean':\n"
              "    from graphmine._runtime.startup import lean_numba_setup\n"
              "    lean_numba_setup()\n"
              "import lean_probe\n"
              "indptr = np.array([0, 3, 5, 6, 6, 10], np.int64)\n"
              "counts = lean_probe.wedges(indptr), lean_probe.degree_squares(indptr)\n"
              "from numba.core import entrypoints\n"
              "print(*counts, 'numba.np.polynomial.polynomial_functions' in sys.modules or "
              "entrypoints._already_initialized)\n"
              "print(sum(lean_probe.wedges.stats.cache_hits.values()), "
              "sum(lean_probe.degree_squares.stats.cache_hits.values()))\n"
              "import numba\n"
              "twice = numba.njit(lambda x: 2 * x)  # compiled here: the compiler sets itself up\n"
              "print(twice(21), lean_probe.wedges(indptr[:3]), entrypoints._already_initialized)\n")
    env_cache = str(tmp_path / "cache")
    old = os.environ.get("NUMBA_CACHE_DIR")
    os.environ["NUMBA_CACHE_DIR"] = env_cache
    try:
        runs = {mode: _imported(script, mode) for mode in ("full", "lean", "lean")}  # the first compiles
    finally:
        if old is None:
            del os.environ["NUMBA_CACHE_DIR"]
        else:
            os.environ["NUMBA_CACHE_DIR"] = old
    degrees = [3, 2, 1, 0, 4]
    wedges = sum(d * (d - 1) // 2 for d in degrees)
    squares = sum(d * d for d in degrees)
    code, out, mods = runs["lean"]
    assert code == 0, out
    first, hits, last = out.split("\n")[:3]
    assert first == f"{wedges} {squares} False"  # computed; no compiler registry or extension loaded for the loads
    assert hits == "1 1"  # both loaded from the cache, not compiled
    assert last == f"42 {sum(d * (d - 1) // 2 for d in degrees[:2])} True"  # extensions set up for the compile
    assert "numba.np.polynomial.polynomial_functions" in mods  # the compile of `twice` set the compiler up


def test_program_budgets_a_parallel_kernels_load_as_a_serial_ones():
    # without numba's compiler setup before a load (the program), a cached parallel kernel's first
    # load costs about a serial one's: small counts stand in for it on numpy only that long
    script = ("import sys\n"
              "from types import SimpleNamespace\n"
              "from graphmine._primitives import small_work as sw\n"
              "class Kernel:\n"
              "    overloads = {}\n"
              "    targetoptions = {'parallel': True}\n"
              "    _cache = SimpleNamespace(_cache_file=SimpleNamespace(_index_path=sw.__file__))  # 'cached'\n"
              "before = sw.work_budget(Kernel())\n"
              "from graphmine._runtime.startup import lean_numba_setup, lean_cache_loads\n"
              "lean_numba_setup()\n"
              "print(before == sw.SMALL_WORK_COLD, lean_cache_loads(), sw.work_budget(Kernel()) == sw.SMALL_WORK_CACHED,\n"
              "      'numba.np.arraymath' in sys.modules)\n")
    code, out, _ = _imported(script)
    assert code == 0 and out.split("\n")[0] == "True True True False", out


def test_load_cached_kernels_loads_the_signatures_kept(tmp_path):
    # numba's cache holds two signatures of a kernel; a predicate on the argument types keeps one
    (tmp_path / "lean_probe.py").write_text(_CACHED_KERNELS)
    fill = (f"import sys; sys.path.insert(0, {str(tmp_path)!r})\n"
            "import numpy as np, lean_probe\n"
            "print(lean_probe.wedges(np.array([0, 2, 3], np.int64)), lean_probe.wedges(np.array([0, 2, 3], np.int32)))\n")
    probe = (f"import sys; sys.path.insert(0, {str(tmp_path)!r})\n"
             "import lean_probe\n"
             "from graphmine._runtime.startup import load_cached_kernels\n"
             "keep = lambda sig: sig[0].dtype.name == 'int32'\n"
             "print(load_cached_kernels([lean_probe.wedges], keep), "
             "[a.dtype.name for sig in lean_probe.wedges.overloads for a in sig])\n")
    old = os.environ.get("NUMBA_CACHE_DIR")
    os.environ["NUMBA_CACHE_DIR"] = str(tmp_path / "cache")
    try:
        filled = _imported(fill)
        code, out, _ = _imported(probe)
    finally:
        if old is None:
            del os.environ["NUMBA_CACHE_DIR"]
        else:
            os.environ["NUMBA_CACHE_DIR"] = old
    assert filled[1].split("\n")[0] == "1 1"  # one wedge at vertex 0 (degree 2), either dtype
    assert code == 0 and out.split("\n")[0] == "(1, 1) ['int32']", out
