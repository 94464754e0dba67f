"""Every reference to another chapter says which chapter (a Sphinx extension).

"Exercise 5", "(14)" or "Kernel SVMs" in chapter 6 does not tell a reader that
the exercise is the Preliminaries', the equation chapter 4's, the section
chapter 7's. Sphinx numbers objects in numbered chapters with the chapter
("Theorem 4.2", "(4.3)", "Fig. 4.1"), but not section titles, page titles or
objects in unnumbered chapters (the Preliminaries). For every link from a
chapter to another chapter whose text does not already name the target
chapter, this appends it, inside the link: " (Chapter 7)", or the short title
of an unnumbered chapter, " (Preliminaries)"; an equation number reads
"(14) of the Preliminaries". Website and PDF alike.
"""

import posixpath
import re

from docutils import nodes
from sphinx import addnodes
from sphinx.builders.latex.nodes import math_reference
from sphinx.transforms.post_transforms import SphinxPostTransform

CHAPTERS = "chapters/"


def chapter_name(env, docname):
    """("Chapter 7", r"\b7\.\d|Chapter 7\b") for a numbered chapter, the short
    title twice for an unnumbered one."""
    number = env.toc_secnumbers.get(docname, {}).get("")
    if number:
        return (
            f"Chapter {number[-1]}",
            rf"\b{number[-1]}\.\d|Chapter {number[-1]}\b",
        )
    short = env.titles[docname].astext().split(":")[0].strip()
    return short, re.escape(short)


def target_document(reference, fromdoc, builder):
    """The document a resolved reference points to, or None."""
    uri = reference.get("refuri", "")
    if not uri or "://" in uri or uri.startswith(("mailto:", "#")):
        return None
    path = uri.split("#")[0]
    if path.startswith("%"):  # LaTeX: "%docname"
        return path[1:]
    suffix = builder.out_suffix if hasattr(builder, "out_suffix") else ".html"
    if not path.endswith(suffix):
        return None
    base = posixpath.dirname(fromdoc)
    return posixpath.normpath(posixpath.join(base, path[: -len(suffix)]))


class ChapterInReferences(SphinxPostTransform):
    """Runs after Sphinx has resolved references (priority 10) and numbered them."""

    default_priority = 20

    def run(self):
        env = self.env
        latex = self.app.builder.format == "latex"
        # The PDF is one document made of all the chapters: find each
        # reference's chapter from the start_of_file node around it.
        owner = {}
        if latex:
            for included in self.document.findall(addnodes.start_of_file):
                for node in included.findall(_is_reference):
                    owner[node] = included["docname"]  # an inner file wins
        for node in list(self.document.findall(_is_reference)):
            source = owner.get(node, env.docname)
            if isinstance(node, nodes.reference):
                if not node.get("internal"):
                    continue
                target = target_document(node, env.docname, self.app.builder)
            else:  # LaTeX's math_reference: the number is LaTeX's
                target = node.get("docname")
            if (
                not target
                or target == source
                or not target.startswith(CHAPTERS)
                or not source.startswith(CHAPTERS)
                or target not in env.titles
            ):
                continue
            name, pattern = chapter_name(env, target)
            if re.search(pattern, node.astext()):
                continue
            numbered = name.startswith("Chapter ")
            if isinstance(node, nodes.reference):
                if re.fullmatch(r"\(\S+\)", node.astext()):  # an equation
                    # "(14) of the Preliminaries", not "(14) (Preliminaries)"
                    node += nodes.Text(f" of the {name}")
                else:
                    node += nodes.Text(f" ({name})")
            elif not numbered:  # LaTeX numbers a chapter's equations (7.3)
                node.parent.insert(
                    node.parent.index(node) + 1,
                    nodes.Text(f" of the {name}"),
                )


def _is_reference(node):
    return isinstance(node, (nodes.reference, math_reference))


def setup(app):
    app.add_post_transform(ChapterInReferences)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
