"""No answer reaches the website: no line of a master's solutions or hidden
tests, however short, in any file of the built book (notebooks' metadata
included). The masters live in assignments/ beside the book's sources; this
reads what the build published (tests/test_assignments.py checks the
assignments themselves)."""

import html
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "assignments"))

from build import hidden_lines, masters, shown, visible_lines  # noqa: E402

MASTERS = masters()


def site_lines(path):
    """The lines of a built file as a reader sees them, white space folded."""
    if path.suffix == ".ipynb":
        return visible_lines(path)
    text = path.read_text(errors="replace")
    if path.suffix == ".html":
        text = html.unescape(re.sub(r"<[^>]+>", "", text))
    return {re.sub(r"\s+", " ", line).strip() for line in text.splitlines()}


def test_built_site_contains_no_solution_or_hidden_test(site):
    """Masters never reach the website."""
    corpus = set()
    for p in site.rglob("*"):
        if p.is_file() and p.suffix in (
            ".html",
            ".js",
            ".ipynb",
            ".md",
            ".txt",
            ".py",
        ):
            corpus |= site_lines(p)
    text = "\n".join(corpus)
    # A generic line such as `rng = np.random.default_rng(3)` may be hidden in
    # a master and also appear in a chapter or in mllib (whose source the
    # chapters display, and which students import anyway); only lines the
    # book's own public sources do not contain count as secrets.
    public = [
        *ROOT.glob("*.md"),
        *ROOT.glob("chapters/*.ipynb"),
        *ROOT.glob("mllib/**/*.py"),
    ]
    book = set()
    for p in public:
        book |= site_lines(p)
    for master in MASTERS:
        secrets = [line for line in hidden_lines(master) if line not in book]
        assert len(secrets) >= 5, (
            f"{master.stem}: too few distinctive hidden lines to test"
        )
        leaked = [line for line in secrets if shown(line, corpus, text)]
        assert not leaked, f"{master.stem}: the website contains {leaked[:3]}"
        # The search itself works: the student notebook's questions are there.
        question = next(
            line
            for line in json.loads(master.read_text())["cells"][1]["source"]
            if len(line) > 40
        )
        assert re.sub(r"\s+", " ", question.strip()) in text
