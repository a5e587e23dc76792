"""The layering of the package, read from the source with ``ast`` (no module is imported).

Imports point down only (CONTRIBUTING.md, "Layers"):

    facade      graphmine/__init__.py (the importer of the registry and of the old layout's module
                names, graphmine/_moved.py), graphmine.cli, graphmine.__main__, the command modules
                (graphmine.<package>.cli)
    components  graphmine.<component>/ (motifs, science4cast), gnn, spatial, _graphmine_nx
    families    graphmine.<family>/: every package that declares a family (read from the generated
                table) and is not a back-end
    back-ends   graphmine.<back-end>/ (cuda, distributed, probgraph, nx_backend): the machinery that
                the families' implementations use (device memory and launches, the Dask graph and its
                tasks, sketches and estimates, networkx conversion)
    core        graphmine.core (graph, validation, registry, the generated tables), graphmine.io,
                graphmine.commands
    base        graphmine._runtime, graphmine._primitives, graphmine.core.exceptions

An import counts wherever it is written (a function-level import too): ``from a.b import c``
is a use of the module ``a.b.c`` if that is a module, else of ``a.b``. A module imported by name
at run time counts too: ``importlib.import_module("name")`` and ``__import__("name")`` with a
literal, and the few places that import names they read from a table (:data:`DYNAMIC`) tie to
every module of that table. There must be no cycle among the modules and none among the
packages; a module may import its own layer and the layers below (components may use each other
one way); and a name imported from another package is public in its module's ``__all__``, from a
module that is not private (Numba kernel modules excepted among themselves: they compose each
other's private @njit helpers; graphmine's private packages _runtime and _primitives are the base
every package may use).
"""

import ast
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PACKAGES = ("graphmine", "gnn", "spatial", "_graphmine_nx")

BACKENDS = ("cuda", "distributed", "probgraph", "nx_backend")
COMPONENTS = ("motifs", "science4cast")
BASE_PACKAGES = ("graphmine._runtime", "graphmine._primitives", "graphmine._moved")
LAYER_NAMES = ["base", "core", "back-ends", "families", "components", "facade"]


def _families():
    """The family folders: the packages of the modules that declare a family (generated table),
    but for the back-ends and components that declare one too (motifs: link_scores)."""
    from graphmine.core import generated

    declaring = {entry["module"].split(".")[1] for entry in generated.FAMILIES.values()}
    return tuple(sorted(declaring - set(BACKENDS) - set(COMPONENTS)))


FAMILIES = _families()


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
TREES = {m: ast.parse(open(p, encoding="utf-8").read(), p) for m, (p, _) in MODULES.items()}


def _table_modules():
    """The modules named by the tables from which the facade imports: the generated tables (the
    registry's importer, graphmine.<name>) and the old layout's new homes (graphmine/_moved.py)."""
    from graphmine._moved import MOVED
    from graphmine.core import generated

    out = set(generated.FACADE.values()) | set(generated.RULES.values()) | set(MOVED.values())
    for entry in generated.FAMILIES.values():
        out.add(entry["module"])
        for modules in entry["backends"].values():
            out.update(modules)
    return out


def _strings_naming_modules(mod):
    return {node.value for node in ast.walk(TREES[mod])
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in MODULES}


#: modules that import modules by names they read at run time -> the modules those names can be
DYNAMIC = {
    "graphmine": _table_modules,  # graphmine/__init__.py: the generated tables' and the moved modules
    "graphmine.cli": lambda: {module for module, _ in __import__("graphmine.core.generated").core.generated.COMMANDS.values()},
    "graphmine._runtime.optional": set,  # third-party optional dependencies, named by the caller
}


def _dynamic_imports(mod):
    """[(target, line)] of importlib.import_module / __import__ calls; a non-literal name is only
    allowed in the modules of :data:`DYNAMIC`, and ties to the modules it can name."""
    out, unexplained = [], []
    for node in ast.walk(TREES[mod]):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
        if name not in ("import_module", "__import__") or not node.args:
            continue
        arg = node.args[0]
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            if arg.value.split(".")[0] in PACKAGES:
                out.append((arg.value, node.lineno))
        elif mod in DYNAMIC:
            out.extend((t, node.lineno) for t in sorted(DYNAMIC[mod]()))
        else:
            unexplained.append(node.lineno)
    return out, unexplained


def _imports(mod):
    """[(target module, [names imported from it], line)] of every import of ``mod``."""
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
    out.extend((t, [], line) for t, line in _dynamic_imports(mod)[0])
    return [(t, names, line) for t, names, line in out if t in MODULES and t != mod]


def _edges():
    return {m: {t for t, _, _ in _imports(m) if not m.startswith(t + ".")} for m in MODULES}


def _cycles(edges):
    """The strongly connected components with more than one node (Tarjan, iterative)."""
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


def _is_command_module(mod):
    """The command line is the facade: a component's subcommands (graphmine.<component>.cli) are
    loaded by graphmine.cli only, and may use any component (predict-motifs --method seam: gnn)."""
    parts = mod.split(".")
    return parts[0] == "graphmine" and len(parts) == 3 and parts[2] == "cli"


def layer(mod):
    """The layer of a module (an index into LAYER_NAMES)."""
    parts = mod.split(".")
    if parts[0] != "graphmine":
        return 4  # gnn, spatial, _graphmine_nx
    if mod in ("graphmine", "graphmine.cli", "graphmine.__main__") or _is_command_module(mod):
        return 5
    if mod.startswith(BASE_PACKAGES) or mod in ("graphmine.core.exceptions", "graphmine._moved"):
        return 0
    if parts[1] in ("core", "io") or mod == "graphmine.commands":
        return 1
    if parts[1] in BACKENDS:
        return 2
    if parts[1] in FAMILIES:
        return 3
    return 4


def package(mod):
    """The unit of a module for the package-level checks: a family, a component (gnn, spatial and
    _graphmine_nx included), 'graphmine:base' (_runtime, _primitives, the exceptions),
    'graphmine:core' (core, io, the CLI's shared pieces) or 'graphmine:facade' (the facade, the
    command modules and the old layout's aliases)."""
    parts = mod.split(".")
    if parts[0] != "graphmine":
        return parts[0]
    if layer(mod) == 5:
        return "graphmine:facade"
    if layer(mod) == 0:
        return "graphmine:base"
    if layer(mod) == 1:
        return "graphmine:core"
    return ".".join(parts[:2])


def _owner(mod):
    """The unit whose private names a module may use: its package, or for a command module the
    component whose folder holds it."""
    return ".".join(mod.split(".")[:2]) if _is_command_module(mod) else package(mod)


def _is_kernel_module(mod):
    """Numba kernel modules compose each other's @njit helpers by importing them by name."""
    last = mod.split(".")[-1]
    return mod.startswith("graphmine._primitives.") or last.endswith("_kernels")


class _Computed(set):
    """An ``__all__`` computed at import (the facade's, from the generated table): any name."""

    def __contains__(self, name):
        return True


def _all_names(mod):
    for node in TREES[mod].body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__all__" for t in node.targets):
            try:
                return set(ast.literal_eval(node.value))
            except ValueError:
                return _Computed()
    return None


def test_every_module_has_a_layer():
    for mod in MODULES:
        assert 0 <= layer(mod) < len(LAYER_NAMES)


def test_ls_graphmine_shows_the_layers_and_families():
    # one folder per layer and per family; the top level holds only the facade and the old aliases
    top = sorted(f for f in os.listdir(os.path.join(ROOT, "graphmine")) if f != "__pycache__")
    folders = {f for f in top if os.path.isdir(os.path.join(ROOT, "graphmine", f))}
    assert {"core", "io", "_runtime", "_primitives", *FAMILIES} <= folders
    loose = [f for f in top if f.endswith(".py") and f != "__init__.py" and layer(f"graphmine.{f[:-3]}") != 5]
    assert loose == ["_moved.py", "commands.py"], loose
    assert len(top) <= 25, top


def test_dynamic_imports_are_explained():
    wrong = [f"{MODULES[m][0]}:{line}: imports a module by a computed name" for m in MODULES
             for line in _dynamic_imports(m)[1]]
    assert not wrong, "\n".join(wrong)


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
    for mod in MODULES:
        if layer(mod) == 1:
            for target, _, line in _imports(mod):
                assert layer(target) <= 1, f"{MODULES[mod][0]}:{line}: core module {mod} imports {target}"


def test_names_used_across_packages_are_public():
    wrong = []
    for mod in MODULES:
        for target, names, line in _imports(mod):
            if package(target) in (package(mod), _owner(mod)) or mod.startswith(target + ".") or not names:
                continue
            if target.startswith(BASE_PACKAGES) or (_is_kernel_module(mod) and _is_kernel_module(target)):
                continue
            public = _all_names(target)
            for name in names:
                if name.startswith("_") or (public is not None and name not in public):
                    wrong.append(f"{MODULES[mod][0]}:{line}: {mod} imports {target}.{name}, not in its __all__")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("mod", sorted(m for m in MODULES if not any(p.startswith("_") for p in m.split(".")[1:])
                                       and m.split(".")[0] == "graphmine"))
def test_public_modules_declare_all(mod):
    if mod == "graphmine":  # the facade computes its __all__ from the generated table on first use
        import graphmine

        assert "count_triangles" in graphmine.__all__
        return
    assert _all_names(mod) is not None, f"{MODULES[mod][0]} has no __all__"


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
    # what a package shares is public (graphmine's _runtime and _primitives are the base every
    # package may use; kernel modules compose each other's helpers)
    wrong = []
    for mod in MODULES:
        for target, _, line in _imports(mod):
            if (package(target) in (package(mod), _owner(mod)) or mod.startswith(target + ".")
                    or target.startswith(BASE_PACKAGES)):
                continue
            if _is_kernel_module(mod) and _is_kernel_module(target):
                continue
            if layer(mod) == 5 and target in DYNAMIC["graphmine"]():
                continue  # the loader imports what the declarations name, private modules included
            if any(part.startswith("_") for part in target.split(".")[1:]):
                wrong.append(f"{MODULES[mod][0]}:{line}: {mod} imports {target}, private to {package(target)}")
    assert not wrong, "\n".join(wrong)


def test_the_checks_see_a_cycle():
    # the cycle finder itself, on a graph with one circle and one tail
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_the_checks_see_a_dynamic_import(monkeypatch):
    # an import by a computed name outside DYNAMIC is reported; a literal name is an edge
    tree = ast.parse("import importlib\ndef f(m):\n    importlib.import_module(m)\n    __import__('gnn')\n")
    monkeypatch.setitem(TREES, "graphmine.core.validation", tree)
    edges, unexplained = _dynamic_imports("graphmine.core.validation")
    assert edges == [("gnn", 4)] and unexplained == [3]


def _top_level_names(mod):
    """The names a module defines at its top level (in if/try/with/for blocks too, not in function
    bodies), or None when it may define any name (a module ``__getattr__``, ``globals()`` writes, or
    a star import)."""
    names = set()
    body = list(TREES[mod].body)
    while body:
        node = body.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if node.name == "__getattr__":
                return None
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for a in node.names:
                if a.name == "*":
                    return None
                names.add(a.asname or a.name.split(".")[0])
        if isinstance(node, (ast.If, ast.Try, ast.With, ast.For, ast.While)):
            for field in ("body", "orelse", "finalbody", "handlers"):
                body.extend(getattr(node, field, []))
        if isinstance(node, ast.ExceptHandler):
            body.extend(node.body)
        if any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "globals"
               for n in ast.walk(node) if not isinstance(node, (ast.FunctionDef, ast.ClassDef))):
            return None
    return names


def test_every_imported_name_exists():
    """A ``from x import y`` of the project's own modules names a module or a name x defines, also
    inside a function (a stale name in a rarely run branch, such as a multi-GPU warm-up, would
    otherwise surface as an ImportError on a user's machine only)."""
    missing = []
    for mod in MODULES:
        for target, names, line in _imports(mod):
            defined = _top_level_names(target)
            if defined is None:
                continue
            missing.extend(f"{mod}:{line} imports {name!r} from {target}" for name in names if name not in defined)
    assert not missing, "\n".join(missing)


def test_the_import_check_sees_a_stale_name(monkeypatch):
    fake = "graphmine._runtime._import_probe"
    monkeypatch.setitem(MODULES, fake, ("<probe>", False))
    monkeypatch.setitem(TREES, fake, ast.parse("def f():\n    from .threads import no_such_name\n"))
    with pytest.raises(AssertionError, match="no_such_name"):
        test_every_imported_name_exists()
