"""Build every assignment from its master notebook.

    python assignments/build.py [NAME ...] [--out DIR] [--no-release]

For each master ``assignments/<name>/<name>.ipynb`` (or only the NAMEs given) this

1. runs ``otter assign``, which executes the solutions against *all* tests, public and
   hidden, and stops the build with the failing test printed if any of them fails;
2. writes, under ``--out`` (default ``_build/assignments``, git-ignored), with stable names:
   ``<name>/student/<name>.ipynb`` (solutions removed, public tests only),
   ``<name>/<name>-autograder.zip`` (all tests, for ``assignments/grade.py``) and
   ``<name>/solutions/<name>.ipynb``;
3. checks that the student notebook contains no solution line and no hidden test;
4. unless ``--no-release``, copies the student notebook to ``assignments/<name>/student/``,
   the committed copy that the website, Binder and Colab hand out. Commit it with the master.

Exits with a non-zero status, saying which assignment and why, on any failure.
"""

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ASSIGNMENTS = Path(__file__).resolve().parent
ROOT = ASSIGNMENTS.parent


def masters(names=None):
    """Master notebooks, ``assignments/<name>/<name>.ipynb``, sorted by name."""
    found = sorted(p for p in ASSIGNMENTS.glob("*/*.ipynb") if p.stem == p.parent.name)
    if names:
        missing = set(names) - {p.stem for p in found}
        if missing:
            raise SystemExit(f"No master notebook for {sorted(missing)} (expected assignments/<name>/<name>.ipynb).")
        found = [p for p in found if p.stem in names]
    return found


def hidden_lines(master):
    """Code lines that must never reach students: solution blocks and hidden tests."""
    cells = json.loads(master.read_text())["cells"]
    secret, public, in_solution, in_tests = [], set(), False, False
    for cell in cells:
        source = "".join(cell["source"])
        first = source.strip().splitlines()[0] if source.strip() else ""
        if cell["cell_type"] == "raw":
            in_solution = {"# BEGIN SOLUTION": True, "# END SOLUTION": False}.get(first, in_solution)
            in_tests = {"# BEGIN TESTS": True, "# END TESTS": False}.get(first, in_tests)
            continue
        lines = [line.strip() for line in source.splitlines()]
        if in_tests and first.lower().startswith("#") and "hidden" in first.lower():
            secret += lines[1:]
        elif cell["cell_type"] == "code":
            inside = False
            for line in lines:
                if line == "# BEGIN SOLUTION":
                    inside = True
                elif line == "# END SOLUTION":
                    inside = False
                elif inside or line.endswith("# SOLUTION"):
                    secret.append(line.removesuffix("# SOLUTION").strip())
                else:
                    public.add(line)
        elif in_solution:
            secret += lines
        else:
            public.update(lines)
    # Lines that also appear in public cells (a hidden test repeating a public set-up line) are
    # not secrets; short or generic lines (e.g. "return x") could legitimately appear elsewhere.
    return [line for line in secret if line not in public and len(line) >= 25 and not line.startswith("#")]


def build(master, out, release):
    name = master.stem
    target = out / name
    with tempfile.TemporaryDirectory() as tmp:
        dist = Path(tmp) / "dist"
        result = subprocess.run(
            [sys.executable, "-m", "otter", "assign", "-v", master.name, str(dist)],
            cwd=master.parent, capture_output=True, text=True,
        )
        log = result.stdout + result.stderr
        if result.returncode != 0 or "All autograder tests passed" not in log:
            print(log[-6000:])
            raise SystemExit(f"{name}: the solutions do not pass every test (see the otter log above).")
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(dist / "student", target / "student")
        (target / "solutions").mkdir()
        shutil.copy(dist / "autograder" / f"{name}.ipynb", target / "solutions" / f"{name}.ipynb")
        (zip_path,) = (dist / "autograder").glob(f"{name}-autograder_*.zip")  # otter timestamps it
        shutil.copy(zip_path, target / f"{name}-autograder.zip")

    student = target / "student" / f"{name}.ipynb"
    stable_cell_ids(student)
    text = student.read_text()
    leaked = [line for line in hidden_lines(master) if line in text]
    if leaked:
        raise SystemExit(f"{name}: the student notebook contains solution or hidden-test lines: {leaked[:3]}")
    if release:
        published = master.parent / "student"
        if published.exists():
            shutil.rmtree(published)
        shutil.copytree(target / "student", published)
    points = {q["name"]: q for q in otter_questions(master)}
    print(f"{name}: ok — {len(points)} questions, "
          f"{sum(q['points'] for q in points.values() if not q.get('manual'))} autograded points, "
          f"{sum(q['points'] for q in points.values() if q.get('manual'))} manual → {target}")
    return target


def stable_cell_ids(path):
    """Replace otter's random cell ids by positional ones, so rebuilding changes nothing."""
    nb = json.loads(path.read_text())
    for i, cell in enumerate(nb["cells"]):
        cell["id"] = f"cell-{i:03d}"
    path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")


def otter_questions(master):
    """The question configurations (``name``, ``points``, ``manual``) in a master, in order."""
    import yaml

    questions = []
    for cell in json.loads(master.read_text())["cells"]:
        source = "".join(cell["source"]).strip()
        if cell["cell_type"] == "raw" and source.startswith("# BEGIN QUESTION"):
            questions.append(yaml.safe_load(source.removeprefix("# BEGIN QUESTION")))
    return questions


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="assignments to build (default: all)")
    parser.add_argument("--out", type=Path, default=ROOT / "_build" / "assignments")
    parser.add_argument("--no-release", action="store_true",
                        help="do not refresh the committed student copies in assignments/<name>/student/")
    args = parser.parse_args(argv)
    for master in masters(args.names):
        build(master, args.out.resolve(), release=not args.no_release)


if __name__ == "__main__":
    main()
