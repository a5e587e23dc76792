"""The layering of the package, read from the source with ``ast`` (no module is imported).

Imports point down only (CONTRIBUTING.md, "Layers"):

    facade      graphmine/__init__.py, graphmine.dispatch, graphmine.cli
    components  graphmine.<subpackage> (probgraph, motifs, science4cast, distributed, cuda,
                nx_backend), gnn, spatial, _graphmine_nx
    families    graphmine.cliques._cpu, graphmine.cluster._cpu, graphmine.centrality._cpu
    core        graph, validation, io, events, commands, generators, datasets
    base        graphmine.core.exceptions and graphmine's private top-level modules (the kernels
                _*_kernels, _setops; the helpers _threads, _limits, _output, ...)

An import counts wherever it is written (a function-level import too): ``from a.b import c``
is a use of the module ``a.b.c`` if that is a module, else of ``a.b``. There must be no cycle
among the modules at all; a module may import its own layer and the layers below (components
may use each other one way); and a name imported from another module (another subpackage, for
the modules of a subpackage) is public in that module's ``__all__`` (Numba kernel modules
excepted among themselves: they compose each other's private @njit helpers).
"""

import ast
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGES = ("graphmine", "gnn", "spatial", "_graphmine_nx")

FACADE = {"graphmine", "graphmine.dispatch", "graphmine.cli", "graphmine.__main__"}
# families: every other public top-level module (graphmine.cliques._cpu, cluster, cycles, ...)
CORE = {"graphmine.core.graph", "graphmine.core.validation", "graphmine.io.edgelist", "graphmine.io.events", "graphmine.commands",
        "graphmine.io.generators", "graphmine.io.datasets", "graphmine.core.registry"}
LAYER_NAMES = ["base", "core", "families", "components", "facade"]


def _modules():
    """{dotted name: (path, is_package)} of every module of the packages."""
    mods = {}
    for pkg in PACKAGES:
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, pkg)):
            dirnames[:] = [d for d in dirnames if d != "__pycache__"]
            for f in filenames:
                if not f.endswith(".py"):
                    continue
                path = os.path.join(dirpath, f)
                name = os.path.relpath(path, ROOT)[:-3].replace(os.sep, ".")
                is_pkg = name.endswith(".__init__")
                mods[name[:-9] if is_pkg else name] = (path, is_pkg)
    return mods


MODULES = _modules()


def _trees():
    return {m: ast.parse(open(p, encoding="utf-8").read(), p) for m, (p, _) in MODULES.items()}


TREES = _trees()


def _imports(mod):
    """[(target module, [names imported from it], line)] of every import statement in ``mod``."""
    is_pkg = MODULES[mod][1]
    out = []
    for node in ast.walk(TREES[mod]):
        if isinstance(node, ast.Import):
            out.extend((a.name, [], node.lineno) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = mod.split(".") if is_pkg else mod.split(".")[:-1]
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module
            names = []
            for a in node.names:
                sub = f"{target}.{a.name}"
                if sub in MODULES:
                    out.append((sub, [], node.lineno))
                else:
                    names.append(a.name)
            if names:
                out.append((target, names, node.lineno))
    return [(t, names, line) for t, names, line in out if t in MODULES and t != mod]


def _edges():
    return {m: {t for t, _, _ in _imports(m) if not m.startswith(t + ".")} for m in MODULES}


def _cycles(edges):
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return out


def layer(mod):
    """The layer of a module (an index into LAYER_NAMES)."""
    if mod in FACADE:
        return 4
    parts = mod.split(".")
    if parts[0] != "graphmine" or len(parts) > 2 or MODULES[mod][1]:
        return 3  # a subpackage of graphmine, or gnn / spatial / _graphmine_nx
    if mod in CORE:
        return 1
    if parts[1].startswith("_") or mod == "graphmine.core.exceptions":
        return 0
    return 2  # every other public top-level module is an algorithm family


def _unit(mod):
    """Modules of one unit may share private names: a top-level module alone, or a subpackage."""
    parts = mod.split(".")
    return ".".join(parts[:2]) if parts[0] == "graphmine" else parts[0]


def _is_kernel_module(mod):
    """Numba kernel modules compose each other's @njit helpers by importing them by name."""
    last = mod.split(".")[-1]
    return last.startswith("_") and (last.endswith("_kernels") or last in ("_setops", "_estimators"))


def _all_names(mod):
    for node in TREES[mod].body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__all__" for t in node.targets):
            return set(ast.literal_eval(node.value))
    return None


def test_every_module_has_a_layer():
    for mod in MODULES:
        assert 0 <= layer(mod) < len(LAYER_NAMES)


def test_no_import_cycles():
    cycles = _cycles(_edges())
    assert not cycles, "import cycles among modules: " + "; ".join(" <-> ".join(c) for c in cycles)


def test_imports_point_down():
    wrong = []
    for mod in MODULES:
        for target, _, line in _imports(mod):
            if mod.startswith(target + "."):
                continue  # a module's own package
            if layer(target) > layer(mod):
                wrong.append(f"{MODULES[mod][0]}:{line}: {mod} ({LAYER_NAMES[layer(mod)]}) imports "
                             f"{target} ({LAYER_NAMES[layer(target)]})")
    assert not wrong, "\n".join(wrong)


def test_core_imports_no_family_or_component():
    # the strict form of the rule above for the core, named so that a failure says what broke
    for mod in CORE & set(MODULES):
        for target, _, line in _imports(mod):
            assert layer(target) <= 1, f"{MODULES[mod][0]}:{line}: core module {mod} imports {target}"


def test_names_used_across_modules_are_public():
    wrong = []
    for mod in MODULES:
        for target, names, line in _imports(mod):
            if _unit(target) == _unit(mod) or mod.startswith(target + ".") or not names:
                continue
            if _is_kernel_module(mod) and _is_kernel_module(target):
                continue
            public = _all_names(target)
            for name in names:
                private_module = target.split(".")[-1].startswith("_")
                if name.startswith("_") or (not private_module and public is not None and name not in public):
                    wrong.append(f"{MODULES[mod][0]}:{line}: {mod} imports {target}.{name}, not in its __all__")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("mod", sorted(m for m in MODULES if m.split(".")[-1][:1] != "_" and m != "graphmine.__main__"
                                       and m.split(".")[0] == "graphmine"))
def test_public_modules_declare_all(mod):
    assert _all_names(mod) is not None, f"{MODULES[mod][0]} has no __all__"


def package(mod):
    """The package a module belongs to for the package-level checks: a subpackage of graphmine,
    gnn, spatial, _graphmine_nx; graphmine's top-level modules form 'graphmine' (base, core,
    families) and 'graphmine:facade' (the facade, which loads the components)."""
    parts = mod.split(".")
    if parts[0] != "graphmine":
        return parts[0]
    if mod in FACADE:
        return "graphmine:facade"
    if len(parts) > 2 or MODULES[mod][1] and mod != "graphmine":
        return ".".join(parts[:2])
    return "graphmine"


def _package_edges():
    edges = {package(m): set() for m in MODULES}
    for mod, targets in _edges().items():
        for t in targets:
            if package(t) != package(mod) and not mod.startswith(t + "."):
                edges[package(mod)].add(package(t))
    return edges


def test_no_package_cycles():
    # components one way among themselves: no two packages import each other, even through others
    cycles = _cycles(_package_edges())
    assert not cycles, "import cycles among packages: " + "; ".join(" <-> ".join(c) for c in cycles)


def test_no_private_module_of_another_package():
    # what a package shares is public (graphmine's own private top-level modules are the base layer)
    wrong = []
    for mod in MODULES:
        for target, _, line in _imports(mod):
            if package(target) in (package(mod), "graphmine") or mod.startswith(target + "."):
                continue
            if any(part.startswith("_") for part in target.split(".")[1:]):
                wrong.append(f"{MODULES[mod][0]}:{line}: {mod} imports {target}, private to {package(target)}")
    assert not wrong, "\n".join(wrong)


def test_the_checks_see_a_cycle():
    # the cycle finder itself, on a graph with one circle and one tail
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []
