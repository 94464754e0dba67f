"""A broken notebook must fail both the tests and the book build.

Each test builds a tiny project in a temporary folder from this book's real
configuration, once with a passing notebook (the control) and once with a
notebook whose assertion fails, and checks the exit status.
"""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
JUPYTER_BOOK = Path(sys.executable).parent / "jupyter-book"


def notebook(check):
    cell = {
        "id": "check",
        "cell_type": "code",
        "execution_count": None,
        "metadata": {},
        "outputs": [],
        "source": [
            "import mllib\n",
            f"assert {check}, 'the derivation is wrong'",
        ],
    }
    title = {
        "id": "title",
        "cell_type": "markdown",
        "metadata": {},
        "source": ["# A chapter"],
    }
    return {
        "cells": [title, cell],
        "metadata": {
            "kernelspec": {
                "name": "python3",
                "display_name": "Python 3",
                "language": "python",
            }
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def run(args, cwd):
    return subprocess.run(
        args, cwd=cwd, capture_output=True, text=True, timeout=600
    )


@pytest.mark.parametrize(
    "check, expected",
    [("1 + 1 == 2", 0), ("1 + 1 == 3", 1)],
    ids=["control", "broken"],
)
def test_nbval_fails_on_a_broken_notebook(tmp_path, check, expected):
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "chapter.ipynb").write_text(json.dumps(notebook(check)))
    result = run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--nbval-lax",
            "-p",
            "no:cacheprovider",
            "chapter.ipynb",
        ],
        tmp_path,
    )
    assert result.returncode == expected, result.stdout[-3000:]
    if expected:
        assert "the derivation is wrong" in result.stdout


def make_book(folder, check):
    shutil.copy(ROOT / "_config.yml", folder)
    shutil.copy(ROOT / "references.bib", folder)
    for support in (
        "_ext",
        "_latex",
    ):  # the local Sphinx extensions and LaTeX files _config.yml loads
        shutil.copytree(
            ROOT / support,
            folder / support,
            ignore=shutil.ignore_patterns("__pycache__"),
        )
    (folder / "intro.md").write_text("# Intro\n\n```{tableofcontents}\n```\n")
    (folder / "bibliography.md").write_text(
        "# Bibliography\n\n```{bibliography}\n```\n"
    )
    (folder / "chapter.ipynb").write_text(json.dumps(notebook(check)))
    (folder / "_toc.yml").write_text(
        "format: jb-book\nroot: intro\nchapters:\n- file: chapter\n- file: bibliography\n"
    )


@pytest.mark.parametrize(
    "flags", [[], ["-W", "-n", "--keep-going"]], ids=["plain", "strict"]
)
@pytest.mark.parametrize(
    "check, expected",
    [("1 + 1 == 2", 0), ("1 + 1 == 3", 1)],
    ids=["control", "broken"],
)
def test_book_build_fails_on_a_broken_notebook(
    tmp_path, flags, check, expected
):
    make_book(tmp_path, check)
    result = run([str(JUPYTER_BOOK), "build", str(tmp_path), *flags], tmp_path)
    log = re.sub(
        r"\x1b\[[0-9;]*m", "", result.stdout + result.stderr
    )  # drop terminal colours
    assert (result.returncode != 0) == bool(expected), log[-4000:]
    if expected:
        assert "AssertionError: the derivation is wrong" in log
    else:
        assert (tmp_path / "_build" / "html" / "chapter.html").exists()
