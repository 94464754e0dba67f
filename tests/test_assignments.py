"""The assignment pipeline, end to end, for every master notebook in assignments/.

Build it (which runs the solutions against every test), then grade three submissions with the
autograder: the blank student notebook (scores 0), the solutions (full marks) and the solutions
with the last question left unanswered (partial credit: everything but that question; the last,
because later questions may build on earlier ones).
"""

import copy
import html
import json
import re
import sys
from pathlib import Path

import nbformat
import pytest
import yaml
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "assignments"))

from build import build, hidden_lines, masters, otter_questions  # noqa: E402
from grade import grade_folder  # noqa: E402

MASTERS = masters()
CONFIG = yaml.safe_load((ROOT / "_config.yml").read_text())


def answer_cells(nb):
    """Map question name -> indices of its code answer cells (those just before its check cell)."""
    owners, pending = {}, []
    for i, cell in enumerate(nb["cells"]):
        source = "".join(cell["source"])
        if cell["cell_type"] == "code" and "otter_answer_cell" in cell[
            "metadata"
        ].get("tags", []):
            pending.append(i)
        elif source.startswith('grader.check("'):
            owners[source.split('"')[1]] = pending
            pending = []
    return owners


@pytest.fixture(scope="module", params=MASTERS, ids=lambda p: p.stem)
def built(request, tmp_path_factory):
    master = request.param
    target = build(master, tmp_path_factory.mktemp(master.stem), release=False)
    return master, target


def test_there_are_assignments():
    assert MASTERS


def test_committed_student_copy_is_current(built):
    master, target = built
    name = master.stem
    committed = json.loads(
        (master.parent / "student" / f"{name}.ipynb").read_text()
    )
    fresh = json.loads((target / "student" / f"{name}.ipynb").read_text())
    assert [(c["cell_type"], c["source"]) for c in committed["cells"]] == [
        (c["cell_type"], c["source"]) for c in fresh["cells"]
    ], (
        f"run `python assignments/build.py {name}` and commit assignments/{name}/student/"
    )
    assert committed["metadata"]["otter"] == fresh["metadata"]["otter"]


def test_colab_cell_uses_the_configured_repository(built):
    master, _ = built
    text = master.read_text()
    assert f'repo = \\"{CONFIG["repository"]["url"]}\\"' in text
    assert f"assignments/{master.stem}/student" in text


def test_student_notebook_runs_headless_with_blank_answers(built):
    master, target = built
    path = target / "student" / f"{master.stem}.ipynb"
    nb = nbformat.read(path, as_version=4)
    nb.cells = [
        c for c in nb.cells if "grader.export" not in c.source
    ]  # export writes a zip; not needed here
    NotebookClient(
        nb, timeout=120, resources={"metadata": {"path": str(path.parent)}}
    ).execute()
    checks = [c for c in nb.cells if c.source.startswith('grader.check("')]
    shown = [
        json.dumps([o.get("data", o.get("text")) for o in c.outputs])
        for c in checks
    ]
    assert checks and all("failed" in text for text in shown), (
        shown
    )  # feedback, not a crash


def test_grading_blank_correct_and_partial_submissions(built, tmp_path):
    master, target = built
    name = master.stem
    student = json.loads((target / "student" / f"{name}.ipynb").read_text())
    solutions = json.loads(
        (target / "solutions" / f"{name}.ipynb").read_text()
    )
    autograded = [q for q in otter_questions(master) if not q.get("manual")]
    left_out = autograded[-1]

    partial = copy.deepcopy(student)
    for question, cells in answer_cells(student).items():
        for i in cells:
            if question != left_out["name"]:
                assert (
                    student["cells"][i]["source"][0]
                    == solutions["cells"][i]["source"][0]
                )
                partial["cells"][i]["source"] = solutions["cells"][i]["source"]

    submissions = tmp_path / "submissions"
    submissions.mkdir()
    for label, nb in [
        ("blank", student),
        ("correct", solutions),
        ("partial", partial),
    ]:
        (submissions / f"{label}.ipynb").write_text(json.dumps(nb))
    rows = {
        r["submission"]: r
        for r in grade_folder(target / f"{name}-autograder.zip", submissions)
    }

    possible = sum(q["points"] for q in autograded)
    assert all(
        r["possible"] == possible and not r["error"] for r in rows.values()
    )
    assert rows["blank.ipynb"]["total"] == 0
    assert rows["correct.ipynb"]["total"] == possible
    assert rows["partial.ipynb"][left_out["name"]] == 0
    assert rows["partial.ipynb"]["total"] == possible - left_out["points"]
    for q in autograded[:-1]:
        assert rows["partial.ipynb"][q["name"]] == q["points"]


def test_assignments_page_links_every_student_notebook(built):
    master, _ = built
    page = (ROOT / "assignments.md").read_text()
    path = f"assignments/{master.stem}/student/{master.stem}.ipynb"
    repo = CONFIG["repository"]["url"].removeprefix("https://github.com/")
    assert f"<{path}>" in page, "download link"
    assert (
        f"https://mybinder.org/v2/gh/{repo}/main?urlpath=lab/tree/{path}"
        in page
    )
    assert (
        f"https://colab.research.google.com/github/{repo}/blob/main/{path}"
        in page
    )


def normalised_text(path):
    """Visible text of a built file: tags dropped, entities decoded, white space folded."""
    text = path.read_text(errors="replace")
    if path.suffix == ".ipynb":
        text = "\n".join(
            "".join(c["source"]) for c in json.loads(text)["cells"]
        )
    elif path.suffix == ".html":
        text = html.unescape(re.sub(r"<[^>]+>", "", text))
    return re.sub(r"\s+", " ", text)


def test_built_site_contains_no_solution_or_hidden_test(site):
    """Masters never reach the website: no solution line and no hidden test, in any file."""
    corpus = " ".join(
        normalised_text(p)
        for p in site.rglob("*")
        if p.is_file()
        and p.suffix in (".html", ".js", ".ipynb", ".md", ".txt", ".py")
    )
    # A generic line such as `rng = np.random.default_rng(3)` may be hidden in a master and also
    # appear in a chapter; only lines the book's own sources do not contain count as secrets.
    book_sources = " ".join(
        normalised_text(p)
        for p in [*ROOT.glob("*.md"), *ROOT.glob("chapters/*")]
        if p.suffix in (".md", ".ipynb")
    )
    for master in MASTERS:
        secrets = [re.sub(r"\s+", " ", line) for line in hidden_lines(master)]
        secrets = [line for line in secrets if line not in book_sources]
        assert len(secrets) >= 5, (
            f"{master.stem}: too few distinctive hidden lines to test for leaks"
        )
        leaked = [line for line in secrets if line in corpus]
        assert not leaked, f"{master.stem}: the website contains {leaked[:3]}"
        # The search itself works: the downloadable student notebook's questions are in the corpus.
        question = next(
            line
            for line in json.loads(master.read_text())["cells"][1]["source"]
            if len(line) > 40
        )
        assert re.sub(r"\s+", " ", question.strip()) in corpus


def test_hidden_lines_are_found_and_kept_from_students(built):
    master, target = built
    secrets = hidden_lines(master)
    assert secrets, "a master should have solutions and hidden tests"
    student = (target / "student" / f"{master.stem}.ipynb").read_text()
    assert not [line for line in secrets if line in student]
