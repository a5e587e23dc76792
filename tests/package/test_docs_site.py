"""The documentation site's sources agree with the tree (cheap checks; the site itself is built in CI
with ``mkdocs build --strict``).

- every page in docs/ is in mkdocs.yml's navigation, and every page the navigation names exists;
- every object path of the generated API pages (docs/gen_api.py, ``PAGES``) imports;
- README.md links only to files that exist, and stays at most 150 lines.
"""

import importlib.util
import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOCS = os.path.join(ROOT, "docs")


def gen_api():
    spec = importlib.util.spec_from_file_location("gen_api", os.path.join(DOCS, "gen_api.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def nav_pages():
    """The .md paths named in mkdocs.yml's nav (read as text: no YAML parser needed)."""
    with open(os.path.join(ROOT, "mkdocs.yml"), encoding="utf-8") as f:
        text = f.read()
    nav = text[text.index("\nnav:"):]
    return set(re.findall(r"([\w./-]+\.md)\s*$", nav, re.M))


def test_every_page_is_in_the_nav():
    pages = {f for f in os.listdir(DOCS) if f.endswith(".md")}
    nav = nav_pages()
    assert pages - nav == set(), f"docs pages missing from mkdocs.yml's nav: {sorted(pages - nav)}"
    missing = {p for p in nav if not p.startswith(gen_api().FOLDER + "/") and not os.path.exists(os.path.join(DOCS, p))}
    assert missing == set(), f"mkdocs.yml's nav names pages that do not exist: {sorted(missing)}"


@pytest.mark.parametrize("path", [p for _, _, paths in gen_api().PAGES.values() for p in paths])
def test_api_paths_import(path):
    assert gen_api().resolve(path) is not None


def test_readme_links_exist():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", f.read())
    missing = [link for link in links if "://" not in link and not os.path.exists(os.path.join(ROOT, link))]
    assert missing == [], f"README.md links to missing files: {missing}"


def test_readme_is_a_front_page():
    # the front page stays short (at most 150 lines): details go to docs pages; a generated table
    # that grows (a new family) must be paid for elsewhere on the page
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        lines = f.read().splitlines()
    assert len(lines) <= 150, f"README.md has {len(lines)} lines; move prose into docs/"
