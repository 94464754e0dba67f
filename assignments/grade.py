"""Grade a folder of submissions locally (no Docker) into a CSV of per-question scores.

    python assignments/grade.py NAME SUBMISSIONS [--out grades.csv] [--autograder ZIP]

NAME is an assignment built by ``assignments/build.py`` (its autograder defaults to
``_build/assignments/NAME/NAME-autograder.zip``). SUBMISSIONS is a folder of submitted
notebooks (``.ipynb``) or ``grader.export()`` zips. Each is run with *all* tests, public and
hidden, in the current environment: student code runs unsandboxed, as you, so grade untrusted
submissions inside a throwaway container or virtual machine. Manually graded questions are not
in the CSV; grade them by reading the notebooks.

One row per submission: the file name, one column per autograded question, the total, the
possible total, and an ``error`` column (empty unless the notebook could not be run at all).
"""

import argparse
import csv
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def grade_folder(autograder, submissions):
    """Grade every submission in a folder; return a list of row dicts (see the module docstring)."""
    from otter.api import grade_submission

    files = sorted(p for p in Path(submissions).iterdir() if p.suffix in (".ipynb", ".zip"))
    if not files:
        raise SystemExit(f"No .ipynb or .zip submissions in {submissions}.")
    rows = []
    for path in files:
        results = grade_submission(str(path), str(autograder), quiet=True)
        row = {"submission": path.name}
        for question in sorted(results.results):
            row[question] = round(results.get_score(question), 6)
        row["total"] = round(results.total, 6)
        row["possible"] = round(results.possible, 6)
        row["error"] = str(results.catastrophic_error or "")
        rows.append(row)
        print(f"{path.name}: {row['total']:g} / {row['possible']:g}", file=sys.stderr)
    return rows


def write_csv(rows, out):
    columns = ["submission", *sorted({k for r in rows for k in r} - {"submission", "total", "possible", "error"}),
               "total", "possible", "error"]
    with open(out, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("name")
    parser.add_argument("submissions", type=Path)
    parser.add_argument("--out", type=Path, default=Path("grades.csv"))
    parser.add_argument("--autograder", type=Path)
    args = parser.parse_args(argv)
    autograder = args.autograder or ROOT / "_build" / "assignments" / args.name / f"{args.name}-autograder.zip"
    if not autograder.exists():
        raise SystemExit(f"{autograder} does not exist: run `python assignments/build.py {args.name}` first.")
    write_csv(grade_folder(autograder, args.submissions), args.out)
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
