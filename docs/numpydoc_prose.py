"""A Griffe extension for the docs build: reST in the numpydoc docstrings, read as Markdown.

Sphinx roles (``:func:`graphmine.as_graph```, ``:class:`~graphmine.Graph```) become code spans (with
``~``, the last name only), ``:math:`x``` and ``.. math::`` blocks become ``$x$`` and ``$$...$$``
(rendered by arithmatex and MathJax).

Prose in numpydoc item sections: some docstrings end an ``Attributes`` or ``Parameters`` section
with a paragraph at the left margin (``The sketch's description (...) is that of SketchResult.``).
numpydoc reads every margin line of such a section as an item name, so the page would show each
line as a nameless entry (and mkdocstrings fails on an empty name). Such a paragraph is moved in
front of its section's heading before the docstring is parsed; its text is unchanged.
"""

import re

from griffe import Extension

ITEM_SECTIONS = {"Attributes", "Parameters", "Other Parameters", "Returns", "Yields", "Raises",
                 "Warns", "Receives"}
_RULE = re.compile(r"^-{3,}\s*$")


_ROLE = re.compile(r":(?:func|class|meth|mod|attr|data|exc|obj|const|ref|py:\w+):`(~?)([^`]*)`")
_INLINE_MATH = re.compile(r":math:`([^`]*)`")
_MATH = re.compile(r"^(\s*)\.\. math::\s*(.*)$")


def _role(m):
    return f"`{m.group(2).rsplit('.', 1)[-1] if m.group(1) else m.group(2)}`"


def markdown_from_rest(text):
    """``text`` with Sphinx roles as code spans and math as ``$...$`` / ``$$...$$``."""
    text = _ROLE.sub(_role, _INLINE_MATH.sub(r"$\1$", text))
    lines, out, i = text.split("\n"), [], 0
    while i < len(lines):
        m = _MATH.match(lines[i])
        if not m:
            out.append(lines[i])
            i += 1
            continue
        indent, body = m.group(1), [m.group(2)] if m.group(2).strip() else []
        i += 1
        while i < len(lines) and (not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > len(indent)):
            body.append(lines[i].strip())
            i += 1
        while body and not body[-1]:
            body.pop()
        while body and not body[0]:
            body.pop(0)
        out += [f"{indent}$$", *(f"{indent}{b}" for b in body), f"{indent}$$", ""]
    return "\n".join(out)


def _is_prose(block):
    """A block (lines between blank lines) written at the margin as sentences, not items."""
    return (all(line and not line[0].isspace() for line in block)
            and block[-1].rstrip().endswith(".")
            and not re.match(r"^\*{0,2}\w+(\s*,\s*\w+)*\s*:\s", block[0]))


def move_prose(text):
    """``text`` with margin paragraphs of item sections moved in front of the section heading."""
    lines = text.split("\n")
    out, section, head_at, i = [], None, None, 0
    while i < len(lines):
        if i + 1 < len(lines) and lines[i].strip() and _RULE.match(lines[i + 1]):
            section, head_at = lines[i].strip(), len(out)
            out += [lines[i], lines[i + 1]]
            i += 2
            continue
        if section in ITEM_SECTIONS and lines[i].strip() and (not out or not out[-1].strip()):
            j = i
            while j < len(lines) and lines[j].strip() and not (j + 1 < len(lines) and _RULE.match(lines[j + 1])):
                j += 1
            block = lines[i:j]
            if _is_prose(block) and head_at is not None:
                out[head_at:head_at] = block + [""]
                head_at += len(block) + 1
                i = j + 1 if j < len(lines) and not lines[j].strip() else j
                continue
        out.append(lines[i])
        i += 1
    return "\n".join(out)


class ProseInSections(Extension):
    """Apply :func:`markdown_from_rest` and :func:`move_prose` to every docstring Griffe loads."""

    def on_instance(self, *, obj, **kwargs):
        if obj.docstring is not None and not getattr(obj, "is_alias", False):
            obj.docstring.value = move_prose(markdown_from_rest(obj.docstring.value))
