"""Numbers in a chapter's text come from its computation.

Every decimal, percentage, power of ten or approximate count in a chapter's
prose, captions, alt texts, quiz texts and code comments is glued from the
cell that computes it, is a literal of the chapter's code (a parameter, or the
value an assertion checks), names a reference, or is listed with a reason in
the chapter's metadata. The glue mechanism itself is tested here too: the
value a cell glues is what the website and the PDF print.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typed_numbers import numbers_in, typed_numbers

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = sorted((ROOT / "chapters").glob("*.ipynb"))


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_no_hand_typed_result_numbers(path):
    unexplained, unused = typed_numbers(json.loads(path.read_text()))
    report = [
        f"{typed!r} in {where}: …{context}…"
        for typed, where, context in unexplained
    ]
    assert not report, (
        "numbers typed into the text: glue them from the computation "
        "(mllib.notebook.glue and {eval}`glued.<name>`), assert them, or "
        'list them with a reason in metadata["mllib"]["typed_numbers"]:\n'
        + "\n".join(report)
    )
    assert not unused, f"listed but no longer in the text: {unused}"


@pytest.mark.parametrize(
    "text, found",
    [
        ("the AUC is about 0.84 here", ["0.84"]),
        ("an error of 5.9e-8 and 3.46 × 10⁻⁴", ["5.9e-8", "3.46 × 10⁻⁴"]),
        ("(ii) spends 96% of its δ", ["96%"]),
        ("climbs to about 2×10³", ["2×10³"]),
        ("about 30 updates, and 12 classes", ["30"]),
        ("$R=0.26$ with $\\eta=0.1$", ["0.26", "0.1"]),
        ("Theorem 7.2 and Section 3.1, Python 3.11", []),
        ("see {eq}`eq-06-dual` and [[Platt, 1999]](#platt1999)", []),
        ("glued: {eval}`glued.auc` and 0.5", ["0.5"]),
        ("label fig-12-k3 and file 01-learning-problem.ipynb", []),
        ("of [(2.13)](02-gradient-methods.ipynb#eq-gd-margin-losses)", []),
        ("[(14) of the Preliminaries](00-preliminaries.ipynb#eq-x)", []),
        ("[(0.5)](#platt1999) and (0.5)", ["0.5", "0.5"]),
    ],
)
def test_the_heuristic_finds_typed_numbers_and_only_those(text, found):
    assert [typed for typed, _, _ in numbers_in(text)] == found


def test_a_typed_number_passes_only_as_literal_glue_or_listed():
    def chapter(markdown, code, listed=None):
        nb = {
            "cells": [
                {"cell_type": "code", "metadata": {}, "source": code},
                {"cell_type": "markdown", "metadata": {}, "source": markdown},
            ],
            "metadata": {},
        }
        if listed is not None:
            nb["metadata"]["mllib"] = {"typed_numbers": listed}
        return typed_numbers(nb)

    assert chapter("AUC 0.86", "auc = score()")[0]
    assert not chapter("AUC 0.86", "assert abs(auc - 0.86) < 0.01")[0]
    assert not chapter("AUC {eval}`glued.auc`", "glue(auc=f'{auc:.2f}')")[0]
    listed = {"0.632": "1 − 1/e"}
    assert chapter("mass 0.632", "x = 1", listed) == ([], [])
    assert chapter("mass", "x = 1", listed) == ([], ["0.632"])
    # A comment or a string of the code is text, not a literal.
    assert chapter("", "x = f() # near 0.25")[0]
    assert not chapter("", "x = f(0.25) # near 0.25")[0]
    assert chapter("", "print(f'about 0.4: {x:.2f}')")[0]


BOOK = """\
title: glue test
execute: {execute_notebooks: cache, raise_on_error: true}
sphinx:
  local_extensions: {glued_numbers: _ext/}
"""
NOTEBOOK_CODE = """\
from mllib.notebook import glue
auc = 0.86234
glue(auc=f"{auc:.2f}")
"""


@pytest.fixture(scope="module")
def glue_book(tmp_path_factory):
    """A one-chapter book whose text and caption quote a glued number."""
    import nbformat

    root = tmp_path_factory.mktemp("gluebook")
    (root / "_ext").mkdir()
    (root / "_ext" / "glued_numbers.py").write_text(
        (ROOT / "_ext" / "glued_numbers.py").read_text()
    )
    (root / "_config.yml").write_text(BOOK)
    (root / "_toc.yml").write_text(
        "format: jb-book\nroot: intro\nchapters:\n  - file: chapter\n"
    )
    (root / "intro.md").write_text("# Intro\n")
    figure = {
        "mystnb": {
            "figure": {"caption": "AUC {eval}`glued.auc`.", "name": "fig-t"},
            "image": {"alt": "a line"},
        }
    }
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "P"}
    nb.cells = [
        nbformat.v4.new_code_cell(NOTEBOOK_CODE),
        nbformat.v4.new_markdown_cell("# T\n\nThe AUC is {eval}`glued.auc`."),
        nbformat.v4.new_code_cell(
            "import matplotlib.pyplot as plt\nplt.plot([0, 1])\nplt.show()",
            metadata=figure,
        ),
    ]
    nbformat.write(nb, root / "chapter.ipynb")
    return root


def build(root, builder):
    return subprocess.run(
        [str(Path(sys.executable).parent / "jupyter-book"), "build", str(root)]
        + ["--builder", builder, "-W", "-n", "--keep-going"],
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_website_and_the_pdf_print_the_glued_value(glue_book):
    html = build(glue_book, "html")
    assert html.returncode == 0, html.stdout[-3000:] + html.stderr[-3000:]
    page = (glue_book / "_build" / "html" / "chapter.html").read_text()
    assert 'The AUC is <span class="glued">0.86</span>.' in page
    caption = page[page.index("<figcaption") : page.index("</figcaption>")]
    assert '<span class="glued">0.86</span>' in caption
    latex = build(glue_book, "latex")
    assert latex.returncode == 0, latex.stdout[-3000:] + latex.stderr[-3000:]
    tex = next((glue_book / "_build" / "latex").glob("*.tex")).read_text()
    assert r"The AUC is \DUrole{glued}{0.86}." in tex


def test_a_name_nothing_glued_fails_the_build(glue_book, tmp_path):
    import shutil

    broken = tmp_path / "book"
    shutil.copytree(glue_book, broken, ignore=shutil.ignore_patterns("_build"))
    chapter = broken / "chapter.ipynb"
    chapter.write_text(
        chapter.read_text().replace('glued.auc`."', 'glued.aux`."')
    )
    result = build(broken, "html")
    assert result.returncode != 0
    assert "aux" in result.stdout + result.stderr
