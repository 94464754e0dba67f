"""The PDF check (.ci/check_pdf.py) must fail on each problem it exists to catch.

Each case feeds it a LaTeX log or source with one problem, as XeTeX and Sphinx write them,
and checks that it is reported; the clean log and source of a good build pass.
"""

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location(
    "check_pdf", ROOT / ".ci" / "check_pdf.py"
)
check_pdf = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check_pdf)

CLEAN_LOG = """\
This is XeTeX, Version 3.141592653-2.6-0.999994 (TeX Live 2022/Debian) (preloaded format=xelatex 2026.11.25)
LaTeX Font Warning: Font shape `U/rsfs/m/n' in size <5.475> not available
(./book.aux) )
Output written on book.pdf (37 pages).
"""


def wrapped(line):
    """Break a line as TeX does in its log, at 79 characters."""
    return "\n".join(line[i : i + 79] for i in range(0, len(line), 79))


def output_block(text):
    """A cell output as Sphinx writes it into book.tex (with its verbatim escapes)."""
    escaped = (
        text.replace("<", r"\PYGZlt{}")
        .replace(">", r"\PYGZgt{}")
        .replace("_", r"\PYGZus{}")
    )
    return (
        "\\begin{sphinxVerbatimOutput}\n\\begin{sphinxuseclass}{cell_output}\n"
        "\\begin{sphinxVerbatim}[commandchars=\\\\\\{\\}]\n"
        + escaped
        + "\n\\end{sphinxVerbatim}\n\\end{sphinxuseclass}\\end{sphinxVerbatimOutput}\n"
    )


def test_a_clean_build_passes():
    tex = "Some prose.\n" + output_block(
        "best h: central 1e-05, forward 2e-08"
    )
    assert check_pdf.log_problems(CLEAN_LOG) == []
    assert check_pdf.tex_problems(tex) == []
    assert check_pdf.page_count(CLEAN_LOG) == 37


@pytest.mark.parametrize(
    "line, expected",
    [
        (
            "! Undefined control sequence.\nl.1086 \\bm\n                {x}",
            "LaTeX error: Undefined control sequence.",
        ),
        (
            "! LaTeX Error: File `bbm.sty' not found.",
            "LaTeX error: LaTeX Error: File `bbm.sty' not found.",
        ),
        (
            wrapped(
                "Missing character: There is no 🚀 (U+1F680) in font [FreeSerif.otf]/OT:script=latn;language=dflt;!"
            ),
            "dropped glyph: Missing character: There is no 🚀 (U+1F680)",
        ),
        (
            wrapped(
                "LaTeX Warning: Hyper reference `chapters/00-preliminaries:lem-prelim-read-off' "
                "on page 12 undefined on input line 956."
            ),
            "undefined reference or citation: chapters/00-preliminaries:lem-prelim-read-off",
        ),
        (
            "LaTeX Warning: Reference `equation:chapters/x:eq-x-loss' on page 3 undefined on input line 10.",
            "undefined reference or citation: equation:chapters/x:eq-x-loss",
        ),
        (
            "LaTeX Warning: Citation `bishop2006' on page 4 undefined on input line 88.",
            "undefined reference or citation: bishop2006",
        ),
        (
            "LaTeX Warning: There were undefined references.",
            "undefined references (see the LaTeX log)",
        ),
    ],
    ids=[
        "error",
        "missing-package",
        "missing-glyph",
        "hyper-reference",
        "reference",
        "citation",
        "undefined-summary",
    ],
)
def test_log_problems_are_reported(line, expected):
    problems = check_pdf.log_problems(
        CLEAN_LOG.replace("(./book.aux)", line + "\n(./book.aux)")
    )
    assert len(problems) == 1 and problems[0].startswith(expected), problems


@pytest.mark.parametrize(
    "output",
    [
        "<Figure size 640x480 with 1 Axes>",
        "<Figure size 1000x420 with 2 Axes>",
        "interactive(children=(FloatSlider(value=0.46, description='theta', max=3.14), Output()), "
        "_dom_classes=('widget-interact',))",
        "HBox(children=(HTML(value=''), FloatProgress(value=0.0, max=200.0), HTML(value='')))",
        "FloatSlider(value=0.5, description='eta')",
        "[<matplotlib.lines.Line2D at 0x7f46a1b2c3d0>]",
        "<Axes: xlabel='step h', ylabel='error'>",
        "<IPython.core.display.Math object>",
    ],
    ids=[
        "figure",
        "figure-2",
        "interact",
        "tqdm-bar",
        "slider",
        "line2d",
        "axes",
        "ipython-display",
    ],
)
def test_text_reprs_in_outputs_are_reported(output):
    problems = check_pdf.tex_problems("Prose.\n" + output_block(output))
    assert len(problems) >= 1 and "text repr" in problems[0], problems


def test_a_repr_quoted_in_prose_or_code_is_not_an_output():
    tex = (
        "The figure would print as \\sphinxcode{<Figure size 640x480 with 1 Axes>}.\n"
        "\\begin{sphinxVerbatimInput}widgets.interactive(children=(w,))\\end{sphinxVerbatimInput}\n"
    )
    assert check_pdf.tex_problems(tex) == []


def test_display_maths_left_as_text_is_reported():
    # "$$ ... $$ (label)" in a list item with no blank line before it: MyST reads inline maths
    tex = (
        "using both stationarity conditions (Exercise 5),\n\\$\\(\n\\sum_i\\alpha_i=w^\\top w\n"
        "\\)\\$ (eq\\sphinxhyphen{}svm\\sphinxhyphen{}alpha\\sphinxhyphen{}sum)\n"
    )
    assert check_pdf.tex_problems(tex) == [
        "display maths printed as text between $ signs ($$ not parsed): eq-svm-alpha-sum"
    ]
    fine = (
        "A price of \\$5, inline \\(x\\) and\n\\begin{equation}\\label{equation:ch:eq-a}\n"
        "x = 1\n\\end{equation}\n"
    )
    assert check_pdf.tex_problems(fine) == []


# Two displays as Sphinx writes them; TeX reports a too-wide one at the line that ends it
# (here 8 and 15).
DISPLAYS_TEX = """\
\\sphinxAtStartPar
Fix \\(x\\) and add and subtract \\(m(x)\\):
\\begin{equation}\\label{equation:chapters/01-learning-problem:eq-learn-pointwise-square}
\\begin{split}
\\mathbb E\\bigl[(a-y)^2\\mid x\\bigr]
=\\operatorname{Var}(y\\mid x)+\\bigl(m(x)-a\\bigr)^2 ,
\\end{split}
\\end{equation}
\\sphinxAtStartPar
Chain the definitions:
\\begin{equation*}
\\begin{split}
f_0(x^\\star) = q(\\lambda^\\star,\\nu^\\star) \\le f_0(x^\\star).
\\end{split}
\\end{equation*}\\end{sphinxadmonition}
"""


def test_display_maths_wider_than_the_text_is_reported():
    log = CLEAN_LOG.replace(
        "(./book.aux)",
        "Overfull \\hbox (91.9238pt too wide) detected at line 8\n[]\n\n"
        "Overfull \\hbox (44.99579pt too wide) detected at line 15\n[]\n\n"
        "(./book.aux)",
    )
    wide, narrow = check_pdf.wide_displays(log, DISPLAYS_TEX)
    assert narrow == 0
    assert wide == [
        (
            "display maths 92 pt wider than the text (book.tex line 8, "
            "chapters/01-learning-problem:eq-learn-pointwise-square), break it "
            "over lines: \\mathbb E\\bigl[(a-y)^2\\mid x\\bigr] "
            "=\\operatorname{Var}(y\\mid"
        ),
        (
            "display maths 45 pt wider than the text (book.tex line 15), break "
            "it over lines: f_0(x^\\star) = q(\\lambda^\\star,\\nu^\\star) "
            "\\le f_0(x^\\star)."
        ),
    ]


def test_narrow_overhangs_and_other_overfull_boxes_pass():
    log = CLEAN_LOG.replace(
        "(./book.aux)",
        # a display 3.7 pt too wide: in the margin, counted only
        "Overfull \\hbox (3.72968pt too wide) detected at line 8\n[]\n\n"
        # too wide, but no display ends at line 2 (prose) or 16 (past the end)
        "Overfull \\hbox (20.5pt too wide) detected at line 2\n[]\n\n"
        "Overfull \\hbox (20.5pt too wide) detected at line 16\n[]\n\n"
        # a tall display, a long word in a paragraph, a table
        "Overfull \\vbox (41.98724pt too high) detected at line 15\n []\n\n"
        "Overfull \\hbox (0.76915pt too wide) in paragraph at lines 9--9\n[]\n\n"
        "Overfull \\hbox (2096.71162pt too wide) in alignment at lines 1--3\n"
        " [] [] []\n\n(./book.aux)",
    )
    assert check_pdf.wide_displays(log, DISPLAYS_TEX) == ([], 1)
    assert check_pdf.wide_displays(CLEAN_LOG, DISPLAYS_TEX) == ([], 0)


def test_verbatim_markup_is_removed_before_matching():
    tex = r"\PYG{n}{x}\PYG{o}{=}\PYG{l+s+s2}{\PYGZdq{}}\PYG{l+s+s2}{a\PYGZus{}b}\PYG{l+s+s2}{\PYGZdq{}}"
    assert check_pdf.unescape_verbatim(tex) == 'x="a_b"'


def test_blank_pages_are_reported():
    assert check_pdf.blank_pages(
        ["Part I\n\nGetting started", "  \n\n ", "text"]
    ) == [2]
    assert check_pdf.blank_pages(["a", "b"]) == []


def test_previews_find_the_pages_a_reader_looks_at():
    pages = [
        "Machine Learning",
        "CONTENTS\n1 Notation",
        "Theorem 3.1 (Linear)\nProof\nx",
        "Fig. 3.1: Error of finite differences",
        "Exercise 3.1\nSolution on page 9",
        "Solution to Exercise 3.1",
        "BIBLIOGRAPHY\nBoyd",
    ]
    assert check_pdf.preview_pages(pages) == {
        "title": 1,
        "contents": 2,
        "theorem-and-proof": 3,
        "exercise": 5,
        "solution": 6,
        "figure": 4,
        "bibliography": 7,
    }


def test_main_fails_on_a_problem_and_passes_a_clean_build(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.setattr(
        check_pdf, "page_texts", lambda pdf, body_only=False: ["Title", "Text"]
    )
    monkeypatch.setattr(
        check_pdf.shutil, "which", lambda name: "/usr/bin/" + name
    )
    (tmp_path / "book.pdf").write_bytes(b"%PDF-1.5\n")
    (tmp_path / "book.tex").write_text(output_block("ok"))
    (tmp_path / "book.log").write_text(CLEAN_LOG)
    assert check_pdf.main([str(tmp_path)]) == 0
    assert "37 pages" in capsys.readouterr().out

    (tmp_path / "book.log").write_text(
        CLEAN_LOG.replace("(./book.aux)", "! Emergency stop.\n(./book.aux)")
    )
    assert check_pdf.main([str(tmp_path)]) == 1
    monkeypatch.setattr(
        check_pdf, "page_texts", lambda pdf, body_only=False: ["Title", " "]
    )
    (tmp_path / "book.log").write_text(CLEAN_LOG)
    assert check_pdf.main([str(tmp_path)]) == 1
    assert "blank page: 2" in capsys.readouterr().out


def test_main_fails_without_a_build(tmp_path):
    assert check_pdf.main([str(tmp_path)]) == 1


def test_wrapped_code_lines_are_found_and_sorted_by_length():
    short_line = "x = " + "a" * 75  # 79 characters: must never wrap
    long_line = "y = " + "b" * 90
    tex = (
        "\\begin{sphinxVerbatimInput}[commandchars=\\\\\\{\\}]\n"
        f"\\PYG{{n}}{{{short_line}}}\n{long_line}\n"
        "\\end{sphinxVerbatimInput}\n"
        "\\begin{sphinxVerbatimOutput}\nan output wrapped\n"
        "\\end{sphinxVerbatimOutput}\n"
    )
    pages = [
        f"text\n {short_line[:70]}\u2423\n  \u21aa{short_line[70:]}\n",
        f" {long_line[:80]}\n  \u21aa{long_line[80:]}\n an output\n  \u21aa wrapped\n",
    ]
    short, long, other = check_pdf.wrapped_code(pages, tex)
    assert [page for page, _ in short] == [1]
    assert [page for page, _ in long] == [2]
    assert [page for page, _ in other] == [2]
