"""Build assignments from their master notebooks.

    python assignments/build.py [NAME ...] [--masters DIR] [--out DIR]
                                [--no-release]

For each master ``DIR/<name>/<name>.ipynb`` (or only the NAMEs given;
``--masters`` defaults to the book's public ``assignments/``) this

1. runs ``otter assign``, which executes the solutions against *all* tests,
   public and hidden, and stops the build with the failing test printed if
   any of them fails;
2. writes, under ``--out`` (default ``_build/assignments`` for the book's
   masters, ``DIR/_build`` for others; both git-ignored):
   ``<name>/student/<name>.ipynb`` (solutions removed, public tests only),
   ``<name>/<name>-autograder.json`` (solutions and all tests, for
   ``assignments/grade.py``; keep it as private as the masters) and
   ``<name>/solutions/<name>.ipynb``;
3. checks that the student notebook contains no solution line and no hidden
   test, however short, in its cells or in the tests otter stores in its
   metadata, and that its export cell does not run the tests (otter would
   print a failed one as doctest's transcript);
4. grades the solutions (full marks expected) and the blank student notebook
   (no marks expected) with ``grade.py``'s checker, so that every test can be
   decided from an answer's values alone;
5. unless ``--no-release``, copies the student notebook to
   ``DIR/<name>/student/``, the copy students are given (for the book's
   masters, the one the website, Binder and Colab hand out). Commit it with
   the master.

Exits with status 2 for a bad ``--masters`` folder or an unknown name, and 1,
saying which assignment and why, when a build fails.
"""

import argparse
import ast
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ASSIGNMENTS = Path(__file__).resolve().parent
ROOT = ASSIGNMENTS.parent
sys.path.insert(0, str(ASSIGNMENTS))

from grading import autograder as autograders  # noqa: E402


class UsageError(Exception):
    """A bad folder or name on the command line (exit status 2)."""


def masters(names=None, folder=ASSIGNMENTS):
    """Master notebooks ``folder/<name>/<name>.ipynb``, sorted by name."""
    folder = Path(folder)
    if not folder.is_dir():
        raise UsageError(f"{folder} is not a folder of master notebooks.")
    found = sorted(
        p for p in folder.glob("*/*.ipynb") if p.stem == p.parent.name
    )
    if not found:
        raise UsageError(
            f"{folder} holds no master notebook (expected "
            f"{folder}/<name>/<name>.ipynb)."
        )
    if names:
        missing = set(names) - {p.stem for p in found}
        if missing:
            raise UsageError(
                f"No assignment {', '.join(sorted(missing))} in {folder} "
                f"(there are: {', '.join(p.stem for p in found)})."
            )
        found = [p for p in found if p.stem in names]
    return found


def default_out(folder=ASSIGNMENTS):
    """Where builds go: ``_build/assignments`` for the book's masters, else
    ``DIR/_build``."""
    folder = Path(folder).resolve()
    return (
        ROOT / "_build" / "assignments"
        if folder == ASSIGNMENTS
        else folder / "_build"
    )


def hidden_lines(master):
    """Code and text that must never reach students: the lines students
    write (solutions) and the hidden tests, minus lines that also appear in
    the master's public cells. White space is folded."""
    cells = json.loads(Path(master).read_text())["cells"]
    secret, public, in_solution, in_tests = [], set(), False, False
    for cell in cells:
        source = "".join(cell["source"])
        first = source.strip().splitlines()[0] if source.strip() else ""
        if cell["cell_type"] == "raw":
            in_solution = {
                "# BEGIN SOLUTION": True,
                "# END SOLUTION": False,
            }.get(first, in_solution)
            in_tests = {"# BEGIN TESTS": True, "# END TESTS": False}.get(
                first, in_tests
            )
            continue
        lines = [_fold(line) for line in source.splitlines()]
        if in_tests and first.startswith("#") and "hidden" in first.lower():
            secret += lines[1:]
        elif cell["cell_type"] == "code":
            marked = autograders.solution_lines(source)
            for number, line in enumerate(lines, 1):
                if number in marked:
                    secret.append(_fold(line.removesuffix("# SOLUTION")))
                else:
                    public.add(line)
        elif in_solution:
            secret += lines
        else:
            public.update(lines)
    return [
        line
        for line in dict.fromkeys(secret)
        if line and line not in public and not line.startswith("#")
    ]


def _fold(line):
    return re.sub(r"\s+", " ", line).strip()


def visible_lines(notebook):
    """Every line a student can read in a notebook file: cell sources and
    outputs, and every string in its metadata (otter keeps the public tests
    there, rewritten as doctests: the `>>> ` and `... ` prompts are
    removed)."""
    data = json.loads(Path(notebook).read_text())
    strings = []

    def walk(value):
        if isinstance(value, str):
            strings.append(value)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)

    for cell in data["cells"]:
        strings.append("".join(cell["source"]))
        walk(cell.get("outputs", []))
        walk(cell.get("metadata", {}))
    walk(data.get("metadata", {}))
    lines = set()
    for text in strings:
        for line in text.splitlines():
            line = _fold(line)
            lines.add(re.sub(r"^(>>>|\.\.\.) ?", "", line))
            lines.add(line)
    return lines


def leaks(master, notebook):
    """Secret lines of ``master`` that ``notebook`` shows (see ``shown``)."""
    visible = visible_lines(notebook)
    text = "\n".join(visible)
    return [
        line for line in hidden_lines(master) if shown(line, visible, text)
    ]


def shown(line, visible, text):
    """Whether a secret line is one of the ``visible`` lines (any length), or,
    if 25 characters or more, part of one (``text`` joins them), between
    non-identifier characters: `g = f(3)` is not in `rng = f(3)`."""
    if line in visible:
        return True
    if len(line) < 25 or line not in text:  # the fast test first
        return False
    pattern = r"(?<![\w.])" + re.escape(line) + r"(?!\w)"
    return re.search(pattern, text) is not None


def build(master, out, release=True):
    master = Path(master)
    name = master.stem
    target = Path(out) / name
    with tempfile.TemporaryDirectory() as tmp:
        dist = Path(tmp) / "dist"
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "otter",
                "assign",
                "-v",
                master.name,
                str(dist),
            ],
            cwd=master.parent,
            capture_output=True,
            text=True,
        )
        log = result.stdout + result.stderr
        if result.returncode != 0 or "All autograder tests passed" not in log:
            print(log[-6000:])
            raise SystemExit(
                f"{name}: the solutions do not pass every test (see the "
                "otter log above)."
            )
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(dist / "student", target / "student")
        (target / "solutions").mkdir()
        shutil.copy(
            dist / "autograder" / f"{name}.ipynb", target / "solutions"
        )
    autograder = autograders.from_master(master)
    unreadable = unreadable_assertions(autograder)
    if unreadable:
        raise SystemExit(f"{name}: " + "; ".join(unreadable[:5]))
    autograders.save(autograder, target / f"{name}-autograder.json")

    student = target / "student" / f"{name}.ipynb"
    stable_cell_ids(student)
    if export_runs_tests(student):
        raise SystemExit(
            f"{name}: the export cell runs the tests, and otter prints each "
            "failed one as doctest's transcript: set `run_tests: false` "
            "under `export_cell` in the master's ASSIGNMENT CONFIG (the "
            "check_all cell says the same in one sentence a test)"
        )
    leaked = leaks(master, student)
    if leaked:
        raise SystemExit(
            f"{name}: the student notebook contains solution or "
            f"hidden-test lines: {leaked[:3]}"
        )
    self_check(autograder, target / "solutions" / f"{name}.ipynb", student)
    if release:
        published = master.parent / "student"
        if published.exists():
            shutil.rmtree(published)
        shutil.copytree(target / "student", published)
    count = len(autograder["questions"]) + len(autograder["manual"])
    auto = sum(q["points"] for q in autograder["questions"])
    manual = sum(q["points"] for q in autograder["manual"])
    print(
        f"{name}: ok — {count} questions, {auto:g} autograded points, "
        f"{manual:g} manual → {target}"
    )
    return target


def export_runs_tests(notebook):
    """Whether a notebook's export cell runs the public tests.

    otter's ``grader.export(run_tests=True)`` prints a failed test as
    doctest's whole transcript (each statement tried, a traceback through
    ``doctest.py``), which ``readable_checks()`` cannot reach: it is
    printed, not displayed. The ``grader.check_all()`` cell before it says
    the same in one sentence a test."""
    cells = json.loads(Path(notebook).read_text())["cells"]
    sources = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
    export = re.compile(r"\.export\(.*\brun_tests\s*=\s*True", re.DOTALL)
    return any(export.search(source) for source in sources)


def unreadable_assertions(autograder):
    """Assertions a student could not act on, or that would tell a notebook
    which of them failed.

    A public test's failure reaches the student as its assertion's message
    (the student notebook's checks and the grader's feedback both show that
    sentence), so every public assertion needs one that says what it checked
    and what it found. A message is evaluated only when its assertion fails,
    so no message may call one of the student's functions: the sandbox would
    see the call."""
    answers = set(autograders.all_answers(autograder))
    found = []
    for question in autograder["questions"]:
        for test in question["tests"]:
            for node in ast.walk(ast.parse(test["code"])):
                if not isinstance(node, ast.Assert):
                    continue
                where = f"{test['id']}, `assert {ast.unparse(node.test)}`"
                if node.msg is None and not test["hidden"]:
                    found.append(
                        f"{where} has no message: say what it checked and "
                        "what it found (a shape, a value, a tolerance)"
                    )
                calls = {
                    call.func.id
                    for call in ast.walk(node.msg or ast.Constant(None))
                    if isinstance(call, ast.Call)
                    and isinstance(call.func, ast.Name)
                } & answers
                if calls:
                    found.append(
                        f"{where}: its message calls "
                        f"{', '.join(sorted(calls))} (compute the value "
                        "before the assertion)"
                    )
    return found


def self_check(autograder, solutions, blank):
    """The checker gives the solutions every point and a blank notebook none.

    Both notebooks are the instructor's own, so they run without a sandbox.
    A failure here means a test cannot be decided from values alone (say it
    passes a random generator to a student's function), or a test passes
    without an answer."""
    from grading.batch import Worker
    from grading.sandbox import Limits

    worker = Worker(autograder, Limits(), sandboxed=False, bwrap=None)
    for path, wanted in ((solutions, True), (blank, False)):
        outcome = worker.grade(path)
        wrong = [
            r for r in outcome["results"] or [] if r["passed"] != wanted
        ] or (
            [{"id": outcome["error"], "message": ""}]
            if outcome["error"]
            else []
        )
        if wrong:
            kind = "solutions fail" if wanted else "blank notebook passes"
            details = "; ".join(
                f"{r['id']}: {r['message']}" for r in wrong[:5]
            )
            raise SystemExit(
                f"{autograder['assignment']}: the {kind} {details}"
            )


def stable_cell_ids(path):
    """Replace otter's random cell ids by positional ones, so that rebuilding
    changes nothing."""
    nb = json.loads(path.read_text())
    for i, cell in enumerate(nb["cells"]):
        cell["id"] = f"cell-{i:03d}"
    path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")


def otter_questions(master):
    """The question configurations (``name``, ``points``, ``manual``) in a
    master, in order."""
    import yaml

    questions = []
    for cell in json.loads(Path(master).read_text())["cells"]:
        source = "".join(cell["source"]).strip()
        if cell["cell_type"] == "raw" and source.startswith(
            "# BEGIN QUESTION"
        ):
            questions.append(
                yaml.safe_load(source.removeprefix("# BEGIN QUESTION"))
            )
    return questions


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "names", nargs="*", help="assignments to build (default: all)"
    )
    parser.add_argument(
        "--masters",
        type=Path,
        default=ASSIGNMENTS,
        help="folder of masters, DIR/<name>/<name>.ipynb (default: the "
        "book's)",
    )
    parser.add_argument("--out", type=Path, help="where to write the builds")
    parser.add_argument(
        "--no-release",
        action="store_true",
        help="do not refresh the student copies in DIR/<name>/student/",
    )
    args = parser.parse_args(argv)
    try:
        found = masters(args.names, args.masters)
    except UsageError as error:
        print(f"build.py: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    out = (args.out or default_out(args.masters)).resolve()
    for master in found:
        build(master, out, release=not args.no_release)


if __name__ == "__main__":
    main()
