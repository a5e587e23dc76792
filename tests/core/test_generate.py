"""The tables generated from the declarations beside the code (graphmine/core/generate.py):
current, complete, equal to what the decorators register at run time, and the facade covers
every family."""

import importlib
import os
import textwrap

import pytest

import graphmine as gm
from graphmine.core import generate, generated, registry


def test_generated_files_are_current():
    # every generated file equals what the declarations make now (run python -m graphmine.core.generate)
    stale = [os.path.relpath(path, generate.ROOT) for path, text in generate.outputs().items()
             if open(path, encoding="utf-8").read() != text]
    assert not stale, f"stale generated files: {stale}; run python -m graphmine.core.generate"


def _tree(tmp_path, source):
    pkg = tmp_path / "graphmine" / "fam"
    pkg.mkdir(parents=True)
    (tmp_path / "graphmine" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text(textwrap.dedent(source))
    return str(tmp_path)


def test_a_declaration_reaches_the_tables(tmp_path):
    root = _tree(tmp_path, '''
        from ..core.registry import declare, implements

        @declare("a new family")
        def new_family(G, *, method="exact", device="cpu"):
            pass

        @implements("new_family", "cpu")
        def _exact(G):
            pass

        implements("new_family", "networkx", name="nx_name", note="a note")(_exact)
        ''')
    found = generate.collect(root)
    families, networkx, facade = generate._tables(found, root)
    assert families["new_family"]["module"] == "graphmine.fam"
    assert families["new_family"]["backends"] == {"cpu": ("graphmine.fam",), "networkx": ("graphmine.fam",)}
    assert families["new_family"]["matrix"] == {"cpu": ("exact",), "networkx": ("nx_name",)}
    assert networkx["nx_name"]["note"] == "a note" and facade["new_family"] == "graphmine.fam"


@pytest.mark.parametrize("source, message", [
    ('from x import implements\nimplements(NAME, "cpu")(f)\n', "must be literals"),
    ('from x import implements\nimplements("nobody_declares", "cpu")(f)\n', "which no module declares"),
    ('from x import declare\n@declare("a")\ndef f(): pass\n@declare("b")\ndef f(): pass\n', "declared twice"),
])
def test_bad_declarations_are_refused_with_file_and_line(tmp_path, source, message):
    root = _tree(tmp_path, source)
    with pytest.raises(gm.ParameterError, match=message) as info:
        generate.collect(root)
    assert os.path.join("graphmine", "fam", "__init__.py") in str(info.value)


def test_check_names_a_stale_file(tmp_path, monkeypatch, capsys):
    path = tmp_path / "generated.py"
    path.write_text("old\n")
    monkeypatch.setattr(generate, "outputs", lambda: {str(path): "new\n"})
    assert generate.main(["--check"]) == 1 and path.read_text() == "old\n"
    assert "generated.py" in capsys.readouterr().out
    assert generate.main([]) == 0 and path.read_text() == "new\n"


def test_tables_equal_the_run_time_declarations():
    # the source read with ast (the table) and the decorators run by importing (the registry)
    # agree on every family, back-end, method and networkx name
    for name, entry in generated.FAMILIES.items():
        fam = registry.family(name)
        assert (fam.summary, fam.returns_graph, fam.function.__module__) == (
            entry["summary"], entry["returns_graph"], entry["module"])
        for backend, shown in entry["matrix"].items():
            impls = registry.implementations(name, backend)
            got = {i.name for i in impls} if backend == "networkx" else {m for i in impls for m in i.methods}
            assert got == set(shown), (name, backend)
    for backend in registry.BACKENDS:
        for impl in registry.declared(backend):
            assert impl.family in generated.FAMILIES, impl


def test_every_family_is_graphmine_dot_name():
    families = registry.families()
    assert set(families) == set(generated.FAMILIES)
    for name, fam in families.items():
        assert getattr(gm, name) is fam.function, name
        assert name in dir(gm) and name in gm.__all__, name


def test_the_facade_names_resolve():
    # every name of graphmine.__all__ and dir(graphmine) imports (no stale entry in the table)
    for name in set(gm.__all__) | set(dir(gm)):
        if not name.startswith("_"):
            assert getattr(gm, name) is not None, name


def test_old_modules_are_aliases_with_a_warning():
    import sys
    import warnings

    from graphmine._moved import MOVED

    for old, new in MOVED.items():
        sys.modules.pop(f"graphmine.{old}", None)
        vars(gm).pop(old, None)
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            module = importlib.import_module(f"graphmine.{old}")
        assert module is importlib.import_module(new), old
        assert any(w.category is DeprecationWarning and new in str(w.message) for w in seen), old
