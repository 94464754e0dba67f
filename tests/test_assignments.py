"""The assignment pipeline, end to end, for every master in assignments/.

Build it (which runs the solutions against every test and grades the
solutions and the blank notebook with the checker), run the student notebook
as a student does, export included, then grade a batch in the sandbox: the
blank student notebook (scores 0), the solutions (full marks), the solutions
with the last question left unanswered (partial credit: everything but that
question; the last, because later questions may build on earlier ones), the
plausible mistakes of assignment_mistakes.py, and a notebook that does no
mathematics but looks for the tests to answer from (issue 22: it scores
nothing). tests/test_grading.py holds the other hostile submissions. A
mistake that a public test catches must be explained in one sentence, both
by the notebook's own check and in the grader's feedback (issue 25, item 8).

One module fixture does all of it for every master at once, two at a time
(builds are shared with test_grading.py through assignment_builds), so the
waits of one assignment (a kernel starting, a sandbox) overlap another's
work.
"""

import copy
import csv
import html
import json
import re
import subprocess
import sys
import tempfile
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import assignment_builds
import hostile_submissions
import nbformat
import pytest
import yaml
from assignment_mistakes import MISTAKES, PUBLIC_MISTAKES
from nbclient import NotebookClient
from otter.test_files.ok_test import run_doctest

from mllib.assignment_checks import failure_sentence

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "assignments"))

from build import (  # noqa: E402
    export_runs_tests,
    hidden_lines,
    leaks,
    masters,
    otter_questions,
    unreadable_assertions,
)
from grading.autograder import all_answers, load  # noqa: E402
from grading.batch import grade_folder  # noqa: E402

MASTERS = masters()
NAMES = [master.stem for master in MASTERS]
CONFIG = yaml.safe_load((ROOT / "_config.yml").read_text())
PARTS = ["I", "II", "III", "IV", "V", "VI"]
# The assignment a student exports, and the mistake in it (a public test
# explains it): the example, grad_f's sign flipped.
EXPORTED = "gradients-and-duality"
(EXPORTED_MISTAKE,) = [
    m
    for m in PUBLIC_MISTAKES[EXPORTED]
    if m[1] == "the gradient's sign flipped"
]


class Pipeline:
    """Each master built, its blank student notebook run headless, and a
    batch graded; an error stays with its assignment."""

    def __init__(self, request, folder):
        self.folder = folder
        self.built, self.headless, self.graded = {}, {}, {}
        with ThreadPoolExecutor(2) as pool:
            courses = {
                name: pool.submit(assignment_builds.build, name, request)
                for name in NAMES
            }
            later = {}
            for name, course in courses.items():
                self.built[name] = _outcome(course)
                if isinstance(self.built[name], Exception):
                    continue
                later[name] = (
                    pool.submit(self._headless, name),
                    pool.submit(self._grade, name),
                )
                if name == EXPORTED:
                    exported = pool.submit(self._export)
            for name, (headless, graded) in later.items():
                self.headless[name] = _outcome(headless)
                self.graded[name] = _outcome(graded)
            self.exported = (
                _outcome(exported)
                if EXPORTED in later
                else self.built[EXPORTED]
            )

    def target(self, name):
        course = _result(self.built[name])
        return course / "_build" / name

    def _headless(self, name):
        """The blank student notebook run, then answered, then each public
        mistake checked (see with_public_mistakes)."""
        folder = self.folder / f"headless-{name}"
        folder.mkdir()
        path = folder / f"{name}.ipynb"
        student = json.loads(
            (self.target(name) / "student" / path.name).read_text()
        )
        solutions = json.loads(
            (self.target(name) / "solutions" / path.name).read_text()
        )
        nb = with_public_mistakes(student, solutions, PUBLIC_MISTAKES[name])
        path.write_text(json.dumps(nb))
        return run_student_notebook(path, export=False)

    def _export(self):
        """A student answers every question of EXPORTED, with one mistake
        that a public test catches (EXPORTED_MISTAKE), runs the notebook
        from the top and exports it."""
        folder = self.folder / "export"
        folder.mkdir()
        path = folder / f"{EXPORTED}.ipynb"
        student = ROOT / "assignments" / EXPORTED / "student" / path.name
        solutions = self.target(EXPORTED) / "solutions" / path.name
        nb = with_mistake(
            json.loads(student.read_text()),
            json.loads(solutions.read_text()),
            EXPORTED_MISTAKE,
        )
        path.write_text(json.dumps(nb))
        return folder, path, run_student_notebook(path, export=True)

    def _grade(self, name):
        return grade_batch(MASTERS[NAMES.index(name)], self.target(name),
                           self.folder / f"graded-{name}")  # fmt: skip


def _outcome(future):
    try:
        return future.result()
    except Exception as error:  # raised again by the tests of that master
        return error


def _result(outcome):
    if isinstance(outcome, Exception):
        raise outcome
    return outcome


@pytest.fixture(scope="module")
def pipeline(request):
    with tempfile.TemporaryDirectory() as folder:
        yield Pipeline(request, Path(folder))


@pytest.fixture(params=NAMES)
def built(request, pipeline):
    name = request.param
    return MASTERS[NAMES.index(name)], pipeline.target(name)


@pytest.fixture(params=NAMES)
def graded(request, pipeline):
    name = request.param
    rows, feedback = _result(pipeline.graded[name])
    return MASTERS[NAMES.index(name)], rows, feedback


def test_there_are_assignments_for_the_preliminaries_and_every_part():
    page = (ROOT / "assignments.md").read_text()
    covered = set(re.findall(r"\| Part (I{1,3}|IV|VI?|V)\b", page))
    assert set(PARTS) <= covered, (
        f"no assignment for Part {set(PARTS) - covered}"
    )
    # the link shows the chapter's title, "Preliminaries: ..." (no prefix)
    assert "| {doc}`chapters/00-preliminaries` |" in page
    assert len(MASTERS) == len(PARTS) + 1


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
        f"run `python assignments/build.py {name}` and commit "
        f"assignments/{name}/student/"
    )
    assert committed["metadata"]["otter"] == fresh["metadata"]["otter"]


def test_colab_cell_uses_the_configured_repository(built):
    master, _ = built
    text = master.read_text()
    assert f'repo = \\"{CONFIG["repository"]["url"]}\\"' in text
    assert f"assignments/{master.stem}/student" in text


def run_student_notebook(path, export):
    """Execute a student notebook in its folder, as a student does (the
    export cell only if ``export``); return the executed notebook."""
    nb = nbformat.read(path, as_version=4)
    if not export:
        nb.cells = [
            c for c in nb.cells if "\ngrader.export(" not in f"\n{c.source}"
        ]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the test's own kernel's warnings
        NotebookClient(
            nb, timeout=180, resources={"metadata": {"path": str(path.parent)}}
        ).execute()
    return nb


def with_mistake(student, solutions, mistake):
    """The student notebook answered as the solutions answer it, but with
    ``mistake`` (an entry of PUBLIC_MISTAKES) in its answer cell."""
    _, label, right, wrong, _ = mistake
    cells = hostile_submissions.answer_cells(student)
    nb = hostile_submissions.answered(student, solutions, list(cells))
    answers = [nb["cells"][i] for question in cells.values() for i in question]
    sources = ["".join(cell["source"]) for cell in answers]
    assert sum(s.count(right) for s in sources) == 1, f"{label}: changed"
    for cell, source in zip(answers, sources):
        cell["source"] = source.replace(right, wrong)
    return nb


def with_public_mistakes(student, solutions, mistakes):
    """The blank student notebook, then cells that answer every question as
    the solutions do, then for each mistake: the answer cell with the
    mistake, its question's check (tagged ``public-mistake-<i>``), and the
    right cell again. One kernel runs them all."""
    nb = copy.deepcopy(student)
    cells = hostile_submissions.answer_cells(student)
    answers = [
        "".join(solutions["cells"][i]["source"])
        for question in cells.values()
        for i in question
    ]

    def cell(source, tag=None):
        tags = [tag] if tag else []
        return nbformat.v4.new_code_cell(source, metadata={"tags": tags})

    added = [cell(source) for source in answers]
    for i, (question, label, right, wrong, _) in enumerate(mistakes):
        (source,) = [a for a in answers if right in a]
        assert source.count(right) == 1, f"{label}: the solution changed"
        added += [
            cell(source.replace(right, wrong)),
            cell(f'grader.check("{question}")', f"public-mistake-{i}"),
            cell(source),
        ]
    nb["cells"] += [dict(c, id=f"added-{i}") for i, c in enumerate(added)]
    return nb


FAILED = re.compile(r"^\s+\S.*?: failed: (?P<why>.*)$", re.MULTILINE)
UNREADABLE = (
    "Traceback",
    "doctest",
    'File "',
    "AssertionError",
    "Trying:",
    "Failed example",
)


def unreadable(sentence):
    """Why a failed public test's message is not one readable sentence."""
    if not sentence.strip():
        return "no message"
    if "\n" in sentence.strip() or len(sentence) > 500:
        return "more than a sentence"
    found = [word for word in UNREADABLE if word in sentence]
    return f"contains {found}" if found else None


def shown_sentences(cell):
    """The sentences a check cell's output gives for its failed tests, in
    plain text; and the HTML JupyterLab shows, as text."""
    data = [o.get("data", {}) for o in cell.outputs]
    plain = "\n".join(d.get("text/plain", "") for d in data)
    markup = " ".join(d.get("text/html", "") for d in data)
    text = html.unescape(re.sub(r"<[^>]+>", " ", markup))
    return [m["why"] for m in FAILED.finditer(plain)], text


@pytest.mark.parametrize("name", NAMES)
def test_blank_student_notebook_runs_headless(name, pipeline):
    """The checks of a blank notebook give feedback, not a crash: each
    failed test one sentence, never doctest's transcript (in grader.check's
    HTML, which JupyterLab shows, as in its text, and in grader.check_all's
    text)."""
    nb = _result(pipeline.headless[name])
    checks = [
        c
        for c in nb.cells
        if c.source.startswith("grader.check") and not c.metadata.get("tags")
    ]
    assert len(checks) > 1 and checks[-1].source == "grader.check_all()"
    for check in checks:
        sentences, markup = shown_sentences(check)
        assert sentences, check.outputs
        for sentence in sentences:
            assert not unreadable(sentence), (unreadable(sentence), sentence)
            if check is not checks[-1]:
                assert sentence in markup
        assert not [w for w in UNREADABLE if w in markup], markup


@pytest.mark.parametrize("name", NAMES)
def test_public_tests_explain_mistakes_in_the_notebook(name, pipeline):
    """A student's grader.check after each public mistake: the question's
    failed tests each say, in one sentence, what they checked and found."""
    nb = _result(pipeline.headless[name])
    for i, (question, label, _, _, named) in enumerate(PUBLIC_MISTAKES[name]):
        (check,) = [
            c
            for c in nb.cells
            if f"public-mistake-{i}" in c.metadata.get("tags", [])
        ]
        sentences, markup = shown_sentences(check)
        assert sentences, (label, check.outputs)
        for sentence in sentences:
            assert not unreadable(sentence), (label, sentence)
        assert any(named in s for s in sentences), (label, sentences)
        assert not [w for w in UNREADABLE if w in markup], (label, markup)


def test_every_master_has_the_same_otter_cell():
    """The cell that creates the grader (and keeps the export quiet) is the
    same in every master, so one export, below, checks them all."""
    cells = set()
    for master in MASTERS:
        sources = [
            "".join(c["source"])
            for c in json.loads(master.read_text())["cells"]
        ]
        (cell,) = [s for s in sources if "otter.Notebook(" in s]
        cells.add(cell.replace(master.stem, "NAME"))
    assert len(cells) == 1, cells


def test_export_shows_no_warning_and_leaves_only_ignored_files(pipeline):
    """A student exports: the zip is written without a (red) warning, and git
    ignores what the export leaves beside the notebook."""
    name = EXPORTED
    folder, path, nb = _result(pipeline.exported)
    (export,) = [
        c
        for c in nb.cells
        if c.cell_type == "code" and "\ngrader.export(" in f"\n{c.source}"
    ]
    streams = [o for o in export.outputs if o.output_type == "stream"]
    assert not [o for o in streams if o.name == "stderr"], streams
    assert not [o for o in export.outputs if o.output_type == "error"]
    left = sorted(p.name for p in folder.iterdir() if p != path)
    assert ".OTTER_LOG" in left and any(p.endswith(".zip") for p in left), left
    folder = f"assignments/{name}/student"
    ignored = subprocess.run(
        ["git", "check-ignore", *(f"{folder}/{p}" for p in left)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert sorted(ignored.stdout.split()) == [f"{folder}/{p}" for p in left]


def shown_text(nb):
    """Everything a notebook's outputs show: streams, tracebacks, and each
    display's plain text and HTML (as text)."""
    shown = []
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            shown += [output.get("text", "")] + output.get("traceback", [])
            data = output.get("data", {})
            markup = re.sub(r"<[^>]+>", " ", data.get("text/html", ""))
            shown += [data.get("text/plain", ""), html.unescape(markup)]
    return "\n".join(shown)


def test_a_student_who_exports_a_mistake_reads_sentences(pipeline):
    """What a student sees who runs a notebook with grad_f's sign flipped
    from the top and exports it (issue 25, item 8): the failed public test
    says in one sentence what it checked and found, and nothing the notebook
    shows, its checks, check_all and the export included, is doctest's
    transcript (otter's export would print it if it ran the tests)."""
    _, _, nb = _result(pipeline.exported)
    _, label, _, _, named = EXPORTED_MISTAKE
    text = shown_text(nb)
    checks = [c for c in nb.cells if c.source.startswith("grader.check")]
    for check in checks[:1] + checks[-1:]:  # q1's check, and check_all
        sentences, _ = shown_sentences(check)
        assert any(named in s for s in sentences), (label, check.outputs)
    assert not [w for w in UNREADABLE if w in text], (label, text)


def test_no_export_cell_runs_the_tests(tmp_path):
    """otter's export with run_tests=True prints each failed test as
    doctest's transcript: build.py refuses it, and no student copy has it."""

    def notebook(source):
        path = tmp_path / "nb.ipynb"
        cell = {"cell_type": "code", "source": source.splitlines(True)}
        path.write_text(json.dumps({"cells": [cell]}))
        return path

    assert export_runs_tests(notebook("grader.export(run_tests=True)"))
    assert export_runs_tests(notebook("grader.export(\n    run_tests=True\n)"))
    assert not export_runs_tests(notebook("grader.export(pdf=False)"))
    for master in MASTERS:
        student = master.parent / "student" / master.name
        assert not export_runs_tests(student), student


def grade_batch(master, target, base):
    """One sandboxed batch for an assignment: the blank student notebook,
    the solutions, the solutions without the last question, the plausible
    mistakes of assignment_mistakes.py (the solutions with one change), and
    a notebook that does no mathematics but looks for the tests."""
    name = master.stem
    folder = base / "submissions"
    folder.mkdir(parents=True)
    student = json.loads((target / "student" / f"{name}.ipynb").read_text())
    solutions = (target / "solutions" / f"{name}.ipynb").read_text()
    autograded = [
        q["name"] for q in otter_questions(master) if not q.get("manual")
    ]
    partial = hostile_submissions.answered(
        student, json.loads(solutions), autograded[:-1]
    )
    for label, nb in [
        ("blank", student),
        ("correct", json.loads(solutions)),
        ("partial", partial),
    ]:
        (folder / f"{label}.ipynb").write_text(json.dumps(nb))
    mistakes = [("mistake", m[1:4]) for m in MISTAKES[name]] + [
        ("public_mistake", m[1:4]) for m in PUBLIC_MISTAKES[name]
    ]
    counts = {}
    for kind, (label, right, wrong) in mistakes:
        i = counts[kind] = counts.get(kind, -1) + 1
        nb = json.loads(solutions)
        hits = 0
        for cell in nb["cells"]:
            source = "".join(cell["source"])
            hits += source.count(right) if cell["cell_type"] == "code" else 0
            cell["source"] = source.replace(right, wrong)
        assert hits == 1, f"{name}, {label}: the solution code has changed"
        (folder / f"{kind}_{i}.ipynb").write_text(json.dumps(nb))
    functions = [
        a
        for a in all_answers(load(target / f"{name}-autograder.json"))
        if f"def {a}(" in solutions
    ]
    oracle = hostile_submissions.with_cell(
        student, hostile_submissions._oracle(functions)
    )
    (folder / "cheat_reads_the_tests.ipynb").write_text(json.dumps(oracle))
    constant = hostile_submissions.with_cell(
        student, hostile_submissions.constant_answers(functions)
    )
    (folder / "cheat_constant_answers.ipynb").write_text(json.dumps(constant))
    grade_folder(
        target / f"{name}-autograder.json",
        folder,
        base / "grades.csv",
        jobs=2,
        log=lambda text: None,
    )
    with open(base / "grades.csv", newline="") as f:
        rows = {r["submission"]: r for r in csv.DictReader(f)}
    return rows, base / "grades-feedback"


def test_grading_blank_correct_and_partial_submissions(graded):
    master, rows, _ = graded
    autograded = [q for q in otter_questions(master) if not q.get("manual")]
    left_out = autograded[-1]
    possible = sum(q["points"] for q in autograded)
    assert all(
        float(r["possible"]) == possible and r["status"] == "graded"
        for r in rows.values()
    ), rows
    # No mathematics, only a search for the tests: nothing to find, so it
    # scores exactly what the same functions answering a constant score.
    searched = rows["cheat_reads_the_tests.ipynb"]
    constant = rows["cheat_constant_answers.ipynb"]
    assert searched["total"] == constant["total"], (searched, constant)
    rows = {k: v for k, v in rows.items() if not k.startswith("cheat_")}
    assert float(rows["blank.ipynb"]["total"]) == 0
    assert float(rows["correct.ipynb"]["total"]) == possible
    assert float(rows["partial.ipynb"][left_out["name"]]) == 0
    partial_total = float(rows["partial.ipynb"]["total"])
    assert partial_total == possible - left_out["points"]
    for q in autograded[:-1]:
        assert float(rows["partial.ipynb"][q["name"]]) == q["points"]
    assert not any(r["flags"] for r in rows.values())


def test_hidden_tests_catch_plausible_mistakes(graded):
    """Each mistake of assignment_mistakes.py keeps the right shapes, so the
    question's public tests pass, but a hidden test fails; the questions
    before it keep full marks (later ones may build on it), and nothing is
    flagged."""
    master, rows, feedback = graded
    points = {q["name"]: q["points"] for q in otter_questions(master)}
    for i, (question, label, _, _) in enumerate(MISTAKES[master.stem]):
        row = rows[f"mistake_{i}.ipynb"]
        text = (feedback / f"mistake_{i}.ipynb.md").read_text()
        section = text.split(f"## {question}:")[1].split("\n## ")[0]
        assert "public test 1: passed" in section, (label, section)
        assert not re.search(r"public test \d+: failed", section), (
            label,
            section,
        )
        assert re.search(r"hidden test \d+: failed", section), (label, section)
        earlier = [q for q in points if q in row and q < question]
        assert all(float(row[q]) == points[q] for q in earlier), (label, row)
        assert row["status"] == "graded" and not row["flags"], (label, row)


def public_failures(feedback, question):
    """The messages of the failed public tests of ``question`` in a
    feedback file."""
    section = feedback.split(f"## {question}:")[1].split("\n## ")[0]
    failed = re.findall(
        r"^- public test \d+: failed(.*)$", section, re.MULTILINE
    )
    return [m.removeprefix(": ") for m in failed]


def test_public_tests_explain_mistakes_in_the_feedback(graded):
    """The grader's feedback on each public mistake: the question's failed
    public tests each say, in one sentence, what they checked and found; and
    so does every failed public test of the blank and partial notebooks."""
    master, rows, feedback = graded
    for i, (question, label, _, _, named) in enumerate(
        PUBLIC_MISTAKES[master.stem]
    ):
        text = (feedback / f"public_mistake_{i}.ipynb.md").read_text()
        sentences = public_failures(text, question)
        assert sentences, (label, text)
        for sentence in sentences:
            assert not unreadable(sentence), (label, sentence)
        assert any(named in s for s in sentences), (label, sentences)
        assert rows[f"public_mistake_{i}.ipynb"]["status"] == "graded"
    for label in ("blank", "partial"):
        text = (feedback / f"{label}.ipynb.md").read_text()
        questions = re.findall(r"^## (\w+):", text, re.MULTILINE)
        for question in questions:
            for sentence in public_failures(text, question):
                assert not unreadable(sentence), (label, sentence)


def _doctest(code, cell="/tmp/ipykernel_7/123.py"):
    """What otter's check shows for a test run as a doctest, against a
    function ``f`` defined in a notebook cell (ipykernel's file name)."""
    env = {}
    exec(compile("def f(x):\n    return 1 / x\n", cell, "exec"), env)
    passed, transcript = run_doctest("q1 0", code, env)
    assert not passed
    return failure_sentence("❌ Test case failed\n" + transcript)


def test_a_failed_doctest_becomes_one_sentence():
    message = "f(1) must be 2, but is 1.0"
    assert _doctest(f">>> assert f(1) == 2, {message!r}\n") == message
    assert _doctest(">>> y = f(0)\n>>> assert y == 1, 'never'\n") == (
        "f raised ZeroDivisionError: division by zero"
    )
    assert _doctest(">>> a, b = f(2)\n") == (
        "`a, b = f(2)` raised TypeError: cannot unpack non-iterable float "
        "object"
    )
    assert _doctest(">>> assert f(1) == 2\n") == "`assert f(1) == 2` failed"
    # a function of a library, not of the notebook: the statement is named
    outside = _doctest(">>> y = f(0)\n", cell="/usr/lib/python3/x.py")
    assert outside == "`y = f(0)` raised ZeroDivisionError: division by zero"


def test_public_assertions_need_messages_that_call_no_answer():
    test = {"hidden": False, "id": "q1 public test 1", "points": 1}
    autograder = {
        "questions": [
            {
                "name": "q1",
                "answers": ["f"],
                "tests": [
                    dict(test, code="assert f(1) == 2\n"),
                    dict(test, code="y = f(1)\nassert y == 2, f'{f(3)}'\n"),
                    dict(test, code="y = f(1)\nassert y == 2, f'{y}'\n"),
                    dict(test, code="assert f(1) == 2\n", hidden=True),
                ],
            }
        ],
        "manual": [],
    }
    problems = unreadable_assertions(autograder)
    assert len(problems) == 2, problems
    assert "has no message" in problems[0] and "calls f" in problems[1]


@pytest.mark.parametrize("master", MASTERS, ids=NAMES)
def test_assignments_page_links_every_student_notebook(master):
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


def test_hidden_lines_are_found_and_kept_from_students(built, tmp_path):
    master, target = built
    secrets = hidden_lines(master)
    assert secrets, "a master should have solutions and hidden tests"
    student = target / "student" / f"{master.stem}.ipynb"
    assert not leaks(master, student)
    # The check sees short lines and otter's doctest copies of the tests.
    leaky = json.loads(student.read_text())
    short = min(secrets, key=len)
    leaky["metadata"]["otter"]["tests"]["extra"] = {"code": f">>> {short}\n"}
    copy = tmp_path / "leaky.ipynb"
    copy.write_text(json.dumps(leaky))
    assert leaks(master, copy) == [short]
