"""The PDF edition of the book: structure that the LaTeX builder does not give by itself.

Everything here runs for the LaTeX builder only; the website is not touched. It works on
the single document the LaTeX builder assembles from the whole table of contents, so it
applies to every chapter without knowing any of them.

- **Numbers as on the website**: chapters the table of contents numbers keep their number
  ("Chapter 4", "Theorem 4.2", "(4.3)", "Fig. 4.1"), the others (notation, preliminaries,
  back matter) are unnumbered, as on the website. LaTeX would number every chapter, and
  sphinx-jupyterbook-latex would count theorems and exercises per section.
- **References to an exercise in another chapter** resolve (sphinx-exercise handles
  references within a chapter only).
- **Proofs** get a "Proof" title bar (sphinx-proof leaves it empty in LaTeX) and end with
  a square.
- **Glyphs**: a symbol the current font lacks (DejaVu Sans Mono has no ℓ, FreeMono no ᵀ)
  is taken from a fallback font that has it.
- **Figures inside boxes** (a plot in a solution, say) stay in place instead of floating,
  which LaTeX cannot do out of a box.
- **Outputs that print nothing** in LaTeX (a widget's view, which the PDF drops instead of
  printing its text repr, see ``nb_mime_priority_overrides``) leave no empty output box.
- **Front matter**: the text of the root page becomes an unnumbered chapter after the
  contents, its sections unnumbered headings (not bold paragraphs), and a heading whose
  only content was the web table of contents is dropped. Pages are numbered i, ii, ...
  until the first part, then 1, 2, ...
- **Solutions** move to an appendix, one section per chapter, because print cannot fold
  them away as the website's dropdowns do: a reader should be able to try an exercise
  before seeing its solution. Each exercise says on which page its solution is, and each
  solution on which page its exercise is. The answers to the **self-check questions**
  (``mllib.notebook.self_check``) follow their chapter's solutions, for the same reason;
  the questions stay where they are, with the page of their answers.
- **Verification cells** (folded on the website; CONTRIBUTING.md, "A student's path")
  stay where they are, in smaller type under their one-line summary: a check reads only
  beside the claim it checks, whose variables it uses, and the small type lets a reader
  skip it as the website's fold does. (sphinx-jupyterbook-latex would drop them, as it
  drops every cell tagged ``hide-cell``.)
- **Parts** read as on the website: the caption alone, without LaTeX's "Part II" (a caption
  such as "Part 1: Linear models" numbers itself).
- **Back matter**: the page holding the bibliography becomes an unnumbered chapter, after
  the appendix; a part that holds nothing else is only a contents heading, not a part page.
- The title page's back (see ``_latex/pdfedition.sty``) names the repository, the commit
  the book was built from and the licence, all taken from ``_config.yml`` and git.
"""

import re
import subprocess
import unicodedata

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform


def _is_latex(app):
    return app.builder.format == "latex"


# --- Chapter numbers for theorems, exercises, ... ------------------------------------------


def _chapters(env, root):
    """The chapters in reading order, with the number the website gives each (None: unnumbered)."""
    return [
        (doc, env.toc_secnumbers.get(doc, {}).get(""))
        for doc in env.toctree_includes.get(root, [])
    ]


class ChapterNumbers(SphinxPostTransform):
    """Number theorems, exercises, ... as the website does: "Theorem 4.2" in chapter 4.

    In the LaTeX build, sphinx-jupyterbook-latex counts them per section ("Theorem 4.1.2");
    count them per chapter again. Chapters the website leaves unnumbered keep the website's
    plain numbers. Runs first among the post-transforms, before references and box titles
    read the numbers; the environment was pickled before the write phase.
    """

    default_priority = 1
    builders = ("latex",)

    def run(self):
        env = self.env
        if getattr(env, "pdf_edition_numbered", False):
            return
        env.pdf_edition_numbered = True
        for chapter, number in _chapters(env, self.config.root_doc):
            if number is None:
                continue
            docs = [chapter, *_descendants(env, chapter)]
            figtypes = {
                figtype
                for doc in docs
                for figtype in env.toc_fignumbers.get(doc, {})
            }
            for figtype in figtypes:
                entries = sorted(
                    (position, doc, node_id)
                    for doc in docs
                    for node_id, position in env.toc_fignumbers.get(doc, {})
                    .get(figtype, {})
                    .items()
                )
                for k, (_, doc, node_id) in enumerate(entries, 1):
                    env.toc_fignumbers[doc][figtype][node_id] = (*number, k)


class VerificationCells(SphinxPostTransform):
    """Keep folded verification cells in the PDF, in small type under their summary.

    Runs before sphinx-jupyterbook-latex's transform (priority 400), which drops
    every cell tagged ``hide-cell``.
    """

    default_priority = 300
    builders = ("latex",)

    def run(self):
        for cell in list(self.document.findall(nodes.container)):
            summary = (
                cell.get("cell_metadata", {})
                .get("mystnb", {})
                .get("code_prompt_show", "")
            )
            if cell.get("nb_element") != "cell_code" or not summary.startswith(
                "Verification: "
            ):
                continue
            cell["classes"] = [
                c for c in cell["classes"] if c != "tag_hide-cell"
            ]
            title = nodes.paragraph(
                "",
                "",
                nodes.strong("", "Verification: "),
                nodes.Text(summary[len("Verification: ") :]),
                classes=["pdf-verification-summary"],
            )
            parent = cell.parent
            at = parent.index(cell)
            parent[at : at + 1] = [
                _raw(r"\begin{pdfeditionverification}"),
                title,
                cell,
                _raw(r"\end{pdfeditionverification}"),
            ]


def _chapter_headings(app, doctree):
    """LaTeX chapter numbers as on the website: numbered chapters keep the website's number,
    the others (front matter, notation, back matter) are unnumbered."""
    chapters = dict(_chapters(app.env, app.config.root_doc))
    for included in list(doctree.findall(addnodes.start_of_file)):
        if included["docname"] not in chapters:
            continue
        number = chapters[included["docname"]]
        command = (
            r"\pdfeditionchapter{%d}" % number[-1]
            if number
            else r"\pdfeditionunnumbered"
        )
        container = included.parent
        container.insert(container.index(included), _raw(command))


def _descendants(env, docname):
    for child in env.toctree_includes.get(docname, []):
        yield child
        yield from _descendants(env, child)


# --- Proof titles ---------------------------------------------------------------------------


def _title_proofs(doctree):
    for box in list(doctree.findall(nodes.admonition)):
        if (
            "proof" not in box["classes"]
            or not box.children
            or isinstance(box[0], nodes.title)
        ):
            continue
        box.insert(0, nodes.title("", "Proof"))
        para = box.next_node(nodes.paragraph)
        if (
            para is not None
            and para.children
            and isinstance(para[0], nodes.Text)
        ):
            text = para[0].astext()
            if text.startswith("Proof. "):
                para.replace(para[0], nodes.Text(text[len("Proof. ") :]))
        end = nodes.raw(
            "", r"\nobreak\hfill\ensuremath{\square}", format="latex"
        )
        if isinstance(box[-1], nodes.paragraph):
            box[-1] += end
        else:
            box += nodes.paragraph("", "", end)


# --- References to exercises in other chapters --------------------------------------------


def _exercise_references(app, doctree):
    """Point numbered references to an exercise in another chapter at its LaTeX label.

    sphinx-exercise rewrites such references within a chapter only; across chapters LaTeX
    gets a label the exercise never defines, and prints "Exercise ??".
    """
    from sphinx_exercise.nodes import (
        exercise_latex_number_reference,
        is_exercise_node,
    )

    registry = getattr(app.env, "sphinx_exercise_registry", {})
    for reference in list(doctree.findall(addnodes.number_reference)):
        label = reference.get("refuri", "").partition("#")[2]
        if (
            reference.get("refid")
            or label not in registry
            or not is_exercise_node(registry[label]["node"])
        ):
            continue
        reference.replace_self(
            exercise_latex_number_reference(
                "", "", nodes.Text(reference.astext()), refid=label
            )
        )


# --- Outputs that print nothing ------------------------------------------------------------


def _prints_in_latex(node):
    if isinstance(node, nodes.raw):
        return "latex" in node.get("format", "").split()
    if isinstance(node, nodes.Text):
        return bool(node.strip())
    return isinstance(node, nodes.image) or any(
        _prints_in_latex(child) for child in node.children
    )


def _drop_empty_outputs(doctree):
    """Remove cell outputs with nothing for LaTeX (a widget, HTML only): an empty output box."""
    from sphinx_jupyterbook_latex.nodes import CellOutput

    for output in list(doctree.findall(CellOutput)):
        if not _prints_in_latex(output):
            output.parent.remove(output)


# --- Front matter ---------------------------------------------------------------------------


def _raw(latex):
    return nodes.raw("", latex + "\n", format="latex")


def _front_matter(app, doctree):
    from sphinx_jupyterbook_latex.nodes import HiddenCellNode, RootHeader

    root = next(
        (s for s in doctree.children if isinstance(s, nodes.section)), None
    )
    if root is None:
        return
    content = [
        c
        for c in root.children
        if not isinstance(c, (nodes.title, HiddenCellNode))
    ]
    for here, after in zip(content, content[1:] + [None]):
        if isinstance(here, RootHeader) and (
            after is None or isinstance(after, RootHeader)
        ):
            root.remove(
                here
            )  # a heading with nothing under it (it held the web contents)
    if any(
        not isinstance(c, (nodes.title, HiddenCellNode, RootHeader))
        for c in root.children
    ):
        title = app.config.pdf_front_matter_title
        at = 1 if root.children and isinstance(root[0], nodes.title) else 0
        root.insert(at, _raw(r"\pdfeditionfrontmatter{%s}" % _escape(title)))
    main = next(
        (c for c in doctree.children if c.next_node(addnodes.start_of_file)),
        None,
    )
    if main is not None:
        doctree.insert(doctree.index(main), _raw(r"\pdfeditionmainmatter"))


def _visit_root_header(self, node):
    self.body.append("\n\\section*{")


def _depart_root_header(self, node):
    self.body.append("}\n")


# --- Solutions appendix and back matter ------------------------------------------------------


def _documents_of(doctree, condition):
    """Map each node satisfying ``condition`` to the document it came from.

    (Walk down, not up: the LaTeX builder inlines documents without updating parent links.)
    """
    owner = {}
    for included in doctree.findall(addnodes.start_of_file):
        for node in included.findall(condition):
            owner[node] = included[
                "docname"
            ]  # pre-order: an inner document wins
    return owner


def _page_link(label, what):
    link = r"\hfill\hyperref[%s]{%s on page~\pageref*{%s}}" % (
        label,
        what,
        label,
    )
    return nodes.paragraph("", "", nodes.raw("", link, format="latex"))


def _is_self_check_answers(node):
    return isinstance(
        node, nodes.container
    ) and "self-check-answers" in node.get("classes", [])


def _section_titles(doctree, condition):
    """Map each node satisfying ``condition`` to the title of its innermost section."""
    titles = {}
    for section in doctree.findall(nodes.section):
        if not (section.children and isinstance(section[0], nodes.title)):
            continue
        for node in section.findall(condition):
            titles[node] = section[
                0
            ].astext()  # pre-order: an inner section wins
    return titles


def _self_check_answers(doctree):
    """Move each self-check's answers out of the text; leave the page of the answers.

    Returns {chapter: [nodes for the appendix]}.
    """
    titles = _section_titles(doctree, _is_self_check_answers)
    by_chapter = {}
    for k, (answers, chapter) in enumerate(
        _documents_of(doctree, _is_self_check_answers).items()
    ):
        label = "pdf-edition-self-check-%d" % k
        answers.parent.replace(
            answers,
            _page_link(label + "-answers", "Answers"),
        )
        heading = nodes.paragraph(
            "",
            "",
            _raw(r"\phantomsection\label{%s-answers}" % label),
            nodes.strong("", "Self-check: %s" % titles.get(answers, "")),
        )
        answers.insert(0, heading)
        by_chapter.setdefault(chapter, []).append(answers)
    return by_chapter


def _solutions_appendix(app, doctree):
    from sphinx_exercise.nodes import is_exercise_node, solution_node

    env = app.env
    registry = getattr(env, "sphinx_exercise_registry", {})
    exercises = {
        node["label"]: node for node in doctree.findall(is_exercise_node)
    }
    by_chapter = {}
    for solution, chapter in _documents_of(doctree, solution_node).items():
        solution.parent.remove(solution)
        by_chapter.setdefault(chapter, []).append(solution)
        exercise = exercises.get(solution["target_label"])
        if (
            exercise is not None
        ):  # labels as sphinx-exercise writes them in LaTeX
            there = "%s:%s" % (
                registry[solution["target_label"]]["docname"],
                solution["label"],
            )
            exercise += _page_link(there, "Solution")
            solution += _page_link(
                "exercise:" + solution["target_label"], "Exercise"
            )
    for chapter, answers in _self_check_answers(doctree).items():
        by_chapter.setdefault(chapter, []).extend(answers)
    if not by_chapter:
        return None
    order = [sof["docname"] for sof in doctree.findall(addnodes.start_of_file)]
    appendix = nodes.section(ids=["pdf-edition-solutions"])
    appendix += nodes.title("", app.config.pdf_solutions_title)
    appendix += nodes.paragraph("", app.config.pdf_solutions_intro)
    for chapter in sorted(by_chapter, key=order.index):
        solutions = by_chapter[chapter]
        title = env.titles[chapter].astext()
        # docname and names make this section the solutions' "parent document" for the
        # extensions that look one up (sphinx-proof, sphinx-exercise); start_of_file keeps
        # LaTeX labels inside the solutions (figures, equations) those of their chapter.
        section = nodes.section(
            ids=["pdf-edition-solutions-" + nodes.make_id(chapter)],
            names=[title.lower()],
            docname=chapter,
        )
        section += nodes.title("", title)
        moved = addnodes.start_of_file(docname=chapter)
        moved.extend(solutions)
        section += moved
        appendix += section
    return appendix


def _bibliography_docs(env):
    domain = env.get_domain("cite")
    return {key.docname for key in getattr(domain, "bibliographies", {})}


def _part_headings(app, doctree):
    """Parts as the website shows them: the caption alone, no "Part II" (a caption may carry
    its own number); a part holding only back matter is a contents heading, not a page.

    The part sections are those sphinx-jupyterbook-latex makes from the captions of the
    table of contents: documents of their own, named after the caption.
    """
    back = _bibliography_docs(app.env)
    for included in doctree.findall(addnodes.start_of_file):
        part = included.children[0] if included.children else None
        if included["docname"] in app.env.all_docs or not isinstance(
            part, nodes.section
        ):
            continue
        if not (part.children and isinstance(part[0], nodes.title)):
            continue
        chapters = [
            c["docname"]
            for wrapper in part.children
            if isinstance(wrapper, nodes.compound)
            for c in wrapper.children
            if isinstance(c, addnodes.start_of_file)
        ]
        command = (
            "pdfeditionbackmatterpart"
            if chapters and set(chapters) <= back
            else "pdfeditionpart"
        )
        caption = part[0].astext()
        part.remove(part[0])
        part.insert(0, _raw(r"\%s{%s}" % (command, _escape(caption))))


def _back_matter(app, doctree, appendix):
    """The appendix (if any), then the bibliography's page as an unnumbered chapter."""
    back = [
        sof
        for sof in doctree.findall(addnodes.start_of_file)
        if sof["docname"] in _bibliography_docs(app.env)
    ]
    if back:
        container = back[0].parent
        at = container.index(back[0])
        new = (
            [_raw(r"\pdfeditionappendix"), appendix]
            if appendix is not None
            else []
        )
        container[at:at] = new + [_raw(r"\pdfeditionbackmatter")]
        # Sphinx's LaTeX writer collects every citation into one list at the very end of the
        # document: the bibliography's page goes last so that the list follows its heading
        # instead of running on under the back matter after it.
        container.remove(back[0])
        container.append(back[0])
    elif appendix is not None:
        last = list(doctree.findall(addnodes.start_of_file))[-1]
        container = last.parent
        at = container.index(last) + 1
        container[at:at] = [_raw(r"\pdfeditionappendix"), appendix]


# --- Title page data ------------------------------------------------------------------------

_LATEX_SPECIALS = {c: "\\" + c for c in "&%$#_{}"}
_LATEX_SPECIALS.update(
    {
        "~": r"\textasciitilde{}",
        "^": r"\textasciicircum{}",
        "\\": r"\textbackslash{}",
    }
)


def _escape(text):
    return "".join(_LATEX_SPECIALS.get(c, c) for c in text)


def _git(*args, cwd):
    try:
        return subprocess.run(
            ["git", *args],
            cwd=cwd,
            capture_output=True,
            text=True,
            check=True,
            timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def _title_page_macros(app, config):
    options = config.html_theme_options or {}
    commit = _git("rev-parse", "--short", "HEAD", cwd=app.srcdir)
    build = ""
    if commit:
        dirty = _git(
            "status", "--porcelain", "--untracked-files=no", cwd=app.srcdir
        )
        build = "Built from commit %s%s." % (
            commit,
            " with uncommitted changes" if dirty else "",
        )
    licence = re.sub(r"<[^>]+>", "", options.get("extra_footer", "")).strip()
    macros = {
        "pdfeditionsubtitle": _escape(config.pdf_subtitle),
        "pdfeditionrepository": options.get("repository_url", ""),
        "pdfeditionbuild": _escape(build),
        "pdfeditionlicence": _escape(licence),
    }
    definitions = "".join(
        "\\newcommand{\\%s}{%s}\n" % item for item in macros.items()
    )
    config.latex_elements["preamble"] = (
        definitions + config.latex_elements.get("preamble", "")
    )


# --- Wiring ---------------------------------------------------------------------------------


def _restructure(app, doctree, docname):
    if not _is_latex(app) or docname != app.config.root_doc:
        return
    _title_proofs(doctree)
    _exercise_references(app, doctree)
    _drop_empty_outputs(doctree)
    _front_matter(app, doctree)
    _chapter_headings(app, doctree)
    _part_headings(app, doctree)
    _back_matter(app, doctree, _solutions_appendix(app, doctree))


def _without_floats(visit, depart):
    """Wrap a box's LaTeX visitors so that figures inside it are placed "H", not floated.

    A float cannot leave a box ("LaTeX Error: Not in outer par mode"). Sphinx's own
    admonitions count themselves in ``no_latex_floats``; sphinx-proof's and
    sphinx-exercise's boxes do not, so a figure in a theorem, exercise or solution stops
    the PDF build.
    """

    def counted_visit(self, node):
        visit(
            self, node
        )  # counted after: a visitor that skips the node has no depart
        self.no_latex_floats += 1

    def counted_depart(self, node):
        depart(self, node)
        self.no_latex_floats -= 1

    return counted_visit, counted_depart


def _symbol_codepoints():
    """The characters beyond ASCII that one font of the book may lack and another have:
    symbols, modifier letters (ᵀ), super- and subscripts, letterlike symbols (ℓ, ℝ), the
    mathematical alphanumerics (𝒩) and punctuation other than the dashes, quotes and
    ellipsis of running text (every font has those, and wrapping them would cost
    kerning)."""
    for codepoint in range(0xC0, 0x20000):
        category = unicodedata.category(chr(codepoint))
        if 0x2010 <= codepoint <= 0x201F or codepoint == 0x2026:
            continue
        if (
            category[0] in "SP"
            or category in ("Lm", "No")
            or 0x2100 <= codepoint <= 0x214F
            or 0x1D400 <= codepoint <= 0x1D7FF
        ):
            yield codepoint


def _glyph_fallback():
    """Typeset every symbol through \\pdfeditionchar, which falls back to another font when
    the current one lacks the glyph (no font covers all: DejaVu Sans Mono has no ℓ, FreeMono
    no ᵀ). A character no font has still reaches XeTeX, which reports it as missing.

    Sphinx escapes text and highlighted code for XeLaTeX with two translation tables, empty
    but for ASCII; add the symbols to both.
    """
    from sphinx.util import texescape

    tables = [
        getattr(texescape, name, None)
        for name in (
            "_tex_escape_map_without_unicode",
            "_tex_hlescape_map_without_unicode",
        )
    ]
    for table in filter(None, tables):
        for codepoint in _symbol_codepoints():
            table.setdefault(
                codepoint, r"\pdfeditionchar{%s}" % chr(codepoint)
            )


def _latex_visitors(app):
    if not _is_latex(app):
        return
    _glyph_fallback()
    import sphinx_exercise.nodes
    import sphinx_proof.nodes
    from sphinx_jupyterbook_latex.nodes import RootHeader

    app.add_node(
        RootHeader,
        override=True,
        latex=(_visit_root_header, _depart_root_header),
    )
    handlers = app.registry.translation_handlers.get("latex", {})
    for module in (sphinx_proof.nodes, sphinx_exercise.nodes):
        for box in vars(module).values():
            if (
                isinstance(box, type)
                and issubclass(box, nodes.Admonition)
                and box.__name__ in handlers
            ):
                visit, depart = handlers[box.__name__]
                if visit is not None and depart is not None:
                    handlers[box.__name__] = _without_floats(visit, depart)


def setup(app):
    app.add_config_value("pdf_subtitle", "", "", str)
    app.add_config_value("pdf_front_matter_title", "About this book", "", str)
    app.add_config_value(
        "pdf_solutions_title", "Solutions and answers", "", str
    )
    app.add_config_value(
        "pdf_solutions_intro",
        "The worked solutions of the exercises, chapter by chapter, each with the page of "
        "its exercise, then the answers to the chapter's self-check questions. The code "
        "ran during the build, like every other cell of the book.",
        "",
        str,
    )
    app.add_post_transform(ChapterNumbers)
    app.add_post_transform(VerificationCells)
    app.connect("config-inited", _title_page_macros)
    app.connect("builder-inited", _latex_visitors)
    app.connect("doctree-resolved", _restructure)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
