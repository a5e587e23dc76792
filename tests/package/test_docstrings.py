"""Every exported name is documented: numpydoc sections for functions and classes.

The exported names are every name in ``__all__`` of the public modules and subpackages of
``graphmine``, ``spatial`` and ``gnn`` (a module is public when no part of its dotted name starts
with an underscore). They are found by walking the source tree, so a new module or a new name in an
``__all__`` is checked without editing this file. Rules:

- function: a summary line; ``Parameters`` when it takes parameters, naming each of them;
  ``Returns`` or ``Yields`` when its body returns a value; ``Examples`` with a doctest (``>>>``);
- class: a summary line, ``Parameters`` naming the constructor's parameters, ``Attributes``
  where instances carry public data attributes, ``Examples`` with a doctest. Record types
  (named tuples, dataclasses) describe their fields once, under ``Attributes``;
- exception, warning, module: a summary line;
- constant: a comment on the line above its assignment or on the same line, or a string right
  after it (an attribute docstring).

Modules whose optional extra is missing are skipped with the extra's name. The docstrings are
absent under ``python -OO``, so the checks skip there.
"""

import ast
import dataclasses
import importlib
import importlib.util
import inspect
import os
import re
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PACKAGES = ("graphmine", "spatial", "gnn")
# top-level module of an optional dependency -> the extra of graphmine that installs it
EXTRAS = {"torch": "gnn", "torch_geometric": "gnn", "sklearn": "ml", "lightgbm": "ml", "dask": "dask",
          "distributed": "dask", "numba_cuda": "cuda"}
PLACEHOLDER = re.compile(r"^[ \t]*\{(?:[A-Z][a-z]+:[ \t]*)?\w+(?:[ \t]*,[ \t]*\w+)*\}[ \t]*$", re.M)
SECTION = re.compile(r"^\s*([A-Z][A-Za-z ]+)\n\s*-{3,}\s*$", re.M)


def public_modules():
    """Dotted names of the public modules and packages, found in the source tree (not imported)."""
    found = []
    for top in PACKAGES:
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, top)):
            dirnames[:] = sorted(d for d in dirnames
                                 if not d.startswith(("_", ".")) and os.path.exists(os.path.join(dirpath, d, "__init__.py")))
            package = os.path.relpath(dirpath, ROOT).replace(os.sep, ".")
            found.append(package)
            found += [f"{package}.{f[:-3]}" for f in sorted(filenames)
                      if f.endswith(".py") and not f.startswith("_")]
    return found


def import_or_skip(name):
    """Import module ``name``; skip the test, naming the extra, when an optional dependency is missing."""
    from graphmine.core.exceptions import MissingDependencyError

    try:
        return importlib.import_module(name)
    except MissingDependencyError as exc:
        pytest.skip(f"{name}: {exc}")
    except ImportError as exc:
        top = (exc.name or "").split(".")[0]
        if top in EXTRAS:
            pytest.skip(f"{name} needs {top}: pip install \"graphmine[{EXTRAS[top]}]\"")
        raise


def sections(doc):
    """{section title: body text} of a numpydoc docstring, plus the summary under ''."""
    doc = inspect.cleandoc(doc or "")
    heads = list(SECTION.finditer(doc))
    out = {"": doc[:heads[0].start()] if heads else doc}
    for i, h in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(doc)
        out[h.group(1).strip()] = doc[h.end():end]
    return out


def documented_names(body):
    """Names described in a Parameters/Attributes section body ('a, b : int' lines at the left margin)."""
    names = set()
    for line in textwrap.dedent(body).splitlines():
        if line and not line[0].isspace():
            for part in line.split(":")[0].split(","):
                names.add(part.strip().lstrip("*"))
    return names


def function_node(func):
    """The ast node of ``func``'s definition, or None without source."""
    try:
        src = textwrap.dedent(inspect.getsource(func))
    except (OSError, TypeError):
        return None
    for node in ast.walk(ast.parse(src)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return node
    return None


def own_nodes(node):
    """The nodes of a function body, without those of nested functions and classes."""
    nested = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
    stack = [n for n in node.body if not isinstance(n, nested)]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(child for child in ast.iter_child_nodes(n) if not isinstance(child, nested))


def returns_value(func):
    node = function_node(func)
    if node is None:
        return True
    for n in own_nodes(node):
        if isinstance(n, (ast.Yield, ast.YieldFrom)):
            return True
        if isinstance(n, ast.Return) and n.value is not None and not (
                isinstance(n.value, ast.Constant) and n.value.value is None):
            return True
    return False


def parameters(obj):
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return []
    # private keywords (``_trusted``) are not part of the documented interface
    return [p.name for p in sig.parameters.values() if p.name not in ("self", "cls") and not p.name.startswith("_")]


def public_attributes(cls):
    """Public data attributes of instances: properties and ``self.x = ...`` in the class's methods."""
    attrs = {n for n, v in vars(cls).items() if isinstance(v, property) and not n.startswith("_")}
    for v in vars(cls).values():
        v = getattr(v, "__func__", v)
        node = function_node(v) if inspect.isfunction(v) else None
        for n in own_nodes(node) if node is not None else ():
            for t in getattr(n, "targets", [getattr(n, "target", None)]):
                if (isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"
                        and not t.attr.startswith("_")):
                    attrs.add(t.attr)
    return attrs


def record_fields(cls):
    if dataclasses.is_dataclass(cls):
        # fields inherited from a dataclass base are described in the base's docstring
        own = vars(cls).get("__annotations__", {})
        return [f.name for f in dataclasses.fields(cls) if f.name in own]
    if issubclass(cls, tuple) and hasattr(cls, "_fields"):
        return list(cls._fields)
    return None


def has_example(secs):
    return ">>>" in secs.get("Examples", "")


def check_callable(obj, kind):
    """Problems of a function's or class's docstring, as short phrases."""
    doc = inspect.getdoc(obj) if kind == "function" else obj.__dict__.get("__doc__")
    if not doc or not doc.strip():
        return ["no docstring"]
    if PLACEHOLDER.search(doc):
        return ["an unfilled {placeholder} line (decorate it with graphmine._runtime.docs.fill_doc)"]
    secs = sections(doc)
    problems = []
    if not secs[""].strip():
        problems.append("no summary line")
    if kind == "function":
        target = getattr(obj, "py_func", inspect.unwrap(obj))
        params = parameters(obj)
        if params:
            missing = [p for p in params if p not in documented_names(secs.get("Parameters", ""))]
            if "Parameters" not in secs:
                problems.append("no Parameters section")
            elif missing:
                problems.append(f"Parameters lacks {', '.join(missing)}")
        if returns_value(target) and "Returns" not in secs and "Yields" not in secs:
            problems.append("no Returns/Yields section")
    else:
        fields = record_fields(obj)
        if fields is not None:
            missing = [f for f in fields if f not in documented_names(secs.get("Attributes", ""))]
            if missing:
                problems.append(f"Attributes lacks {', '.join(missing)}")
        else:
            # a constructor inherited from outside these packages (argparse's) is documented there
            init_owner = next(c for c in obj.__mro__ if "__init__" in vars(c))
            params = parameters(obj) if init_owner.__module__.split(".")[0] in PACKAGES else []
            if params:
                missing = [p for p in params if p not in documented_names(secs.get("Parameters", ""))]
                if "Parameters" not in secs:
                    problems.append("no Parameters section")
                elif missing:
                    problems.append(f"Parameters lacks {', '.join(missing)}")
            if public_attributes(obj) and "Attributes" not in secs:
                problems.append("no Attributes section")
    if not has_example(secs):
        problems.append("no Examples section with a doctest")
    return problems


def constant_comment(module, name):
    """Whether the assignment of ``name`` in ``module`` (or where it was imported from) has a comment."""
    seen = set()
    while module.__name__ not in seen:
        seen.add(module.__name__)
        try:
            src = inspect.getsource(module)
        except (OSError, TypeError):
            return False
        lines = src.splitlines()
        tree = ast.parse(src)
        origin = None
        for i, node in enumerate(tree.body):
            targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                first, last = node.lineno - 1, node.end_lineno - 1
                above = lines[first - 1].strip() if first > 0 else ""
                after = tree.body[i + 1] if i + 1 < len(tree.body) else None
                # an attribute docstring (a string right after the assignment) counts too
                docstring = (isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                             and isinstance(after.value.value, str))
                return docstring or above.startswith("#") or "#" in lines[first] or "#" in lines[last]
            if isinstance(node, ast.ImportFrom) and any((a.asname or a.name) == name for a in node.names):
                origin = importlib.util.resolve_name("." * node.level + (node.module or ""), module.__package__) \
                    if node.level else node.module
        if origin is None:
            return False
        module = importlib.import_module(origin)
    return False


def kind_of(obj):
    if inspect.ismodule(obj):
        return "module"
    if inspect.isclass(obj) and obj.__module__.split(".")[0] not in PACKAGES:
        return "constant"  # a type exported as a value (INDPTR_DTYPE = np.int64)
    if inspect.isclass(obj):
        return "exception" if issubclass(obj, BaseException) else "class"
    if callable(obj):
        return "function"
    return "constant"


def problems_of(module, name):
    """(kind, problems) of the exported ``module.name``."""
    obj = getattr(module, name)
    kind = kind_of(obj)
    if kind in ("module", "exception"):
        doc = obj.__doc__ if kind == "module" else obj.__dict__.get("__doc__")
        return kind, ([] if doc and inspect.cleandoc(doc).strip() else ["no summary line"])
    if kind == "constant":
        return kind, ([] if constant_comment(module, name) else ["no comment at its assignment"])
    return kind, check_callable(obj, kind)


MODULES = public_modules()


def test_modules_found():
    # the walk sees the packages' public modules and none of the private ones
    assert {"graphmine", "graphmine.cliques", "graphmine.probgraph.counting", "graphmine.cuda", "spatial",
            "spatial.sorting", "gnn.seam"} <= set(MODULES)
    assert not [m for m in MODULES if any(p.startswith("_") for p in m.split("."))]


def test_sections_parser():
    doc = """Sum.

    Parameters
    ----------
    a, b : int
        Numbers.
    **kw : dict
        Ignored.

    Returns
    -------
    int

    Examples
    --------
    >>> 1 + 2
    3
    """

    def f(a, b, **kw):
        return a + b

    def g(a, c):
        return a

    assert sections(doc).keys() == {"", "Parameters", "Returns", "Examples"}
    assert documented_names(sections(doc)["Parameters"]) == {"a", "b", "kw"}
    f.__doc__ = doc
    assert check_callable(f, "function") == []
    g.__doc__ = doc
    assert check_callable(g, "function") == ["Parameters lacks c"]
    g.__doc__ = "Sum."
    assert check_callable(g, "function") == ["no Parameters section", "no Returns/Yields section",
                                             "no Examples section with a doctest"]


def test_fill_doc():
    from graphmine._runtime import docs as _docs
    from graphmine.core.registry import DEVICES, METHODS

    doc = "Sum.\n\n    Parameters\n    ----------\n    {k, threads}\n    x : int\n        Kept.\n"
    filled = _docs.fill(doc)
    assert filled.splitlines()[4:6] == ["    k : int", "        Clique size, >= 3."]
    assert "    threads : int, optional" in filled and filled.endswith("    x : int\n        Kept.\n")
    assert _docs.fill(None) is None  # python -OO: nothing to fill
    # a whole section of shared entries on one line: heading, underline, entries
    assert _docs.fill("    {Parameters: k}\n").splitlines()[:3] == ["    Parameters", "    ----------", "    k : int"]
    assert PLACEHOLDER.search("    {Parameters: k}") and PLACEHOLDER.search("    {k, threads}")
    with pytest.raises(KeyError, match="nosuch"):
        _docs.fill("    {nosuch}\n")
    # the shared entries name every method and device the registry accepts
    method, device = _docs.PARAMETERS["method"].splitlines()[0], _docs.PARAMETERS["device"].splitlines()[0]
    assert all(repr(m) in method for m in METHODS) and all(repr(d) in device for d in DEVICES)


@pytest.mark.skipif(sys.flags.optimize >= 2, reason="docstrings are stripped under python -OO")
@pytest.mark.parametrize("name", MODULES)
def test_exported_names_documented(name):
    module = import_or_skip(name)
    offenders = []
    for export in getattr(module, "__all__", []):
        kind, problems = problems_of(module, export)
        if problems:
            offenders.append(f"{name}.{export} ({kind}): {'; '.join(problems)}")
    assert not offenders, f"{len(offenders)} exported names lack numpydoc sections:\n" + "\n".join(offenders)


def census():
    """(exported objects, fully documented ones, offenders) over every module that imports here."""
    checked, offenders = {}, {}
    for name in MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        for export in getattr(module, "__all__", []):
            obj = getattr(module, export)
            key = (id(obj), export) if kind_of(obj) == "constant" else id(obj)
            if key in checked:
                continue
            kind, problems = problems_of(module, export)
            checked[key] = f"{name}.{export}"
            if problems:
                offenders[f"{name}.{export}"] = (kind, problems)
    return len(checked), len(checked) - len(offenders), offenders


if __name__ == "__main__":
    total, good, bad = census()
    for where, (kind, problems) in sorted(bad.items()):
        print(f"{where} ({kind}): {'; '.join(problems)}")
    print(f"{good} of {total} exported names fully documented")
