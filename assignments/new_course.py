"""Start a private course: a copy of the book's masters that only you keep.

    python assignments/new_course.py DIR [NAME ...] [--no-git]

The masters in this repository are public practice material: anyone can
read their solutions and hidden tests. To grade for credit, copy them into a
private folder (a private git repository: this command runs `git init`
there), change them (new data, new hidden tests, new questions), and build
and grade from there:

    python assignments/build.py --masters DIR
    python assignments/grade.py NAME SUBMISSIONS/ --masters DIR \
        --out grades.csv

Builds go to DIR/_build (git-ignored there); the student notebooks to hand
out are refreshed in DIR/<name>/student/. Exits with status 2 if DIR exists
and is not empty, or for an unknown assignment.
"""

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

ASSIGNMENTS = Path(__file__).resolve().parent
sys.path.insert(0, str(ASSIGNMENTS))

from build import UsageError, masters  # noqa: E402

README = """# Private course assignments

Copied from the book's public masters by `assignments/new_course.py`. Keep
this folder private: each `<name>/<name>.ipynb` holds the solutions and the
hidden tests, and so does every `_build/<name>/<name>-autograder.json`.

Change the masters before you grade for credit: the book's versions, with
their solutions, are public. From the book's repository:

    python assignments/build.py --masters {folder}
    python assignments/grade.py NAME SUBMISSIONS/ --masters {folder} \
        --out grades.csv

`assignments/README.md` in the book explains the format of a master; hand out
`<name>/student/<name>.ipynb`.
"""

IGNORED = """_build/
.OTTER_LOG
*.zip
.ipynb_checkpoints/
"""


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument(
        "names", nargs="*", help="assignments to copy (default: all)"
    )
    parser.add_argument(
        "--no-git", action="store_true", help="do not run git init"
    )
    args = parser.parse_args(argv)
    try:
        if args.folder.exists() and (
            not args.folder.is_dir() or any(args.folder.iterdir())
        ):
            raise UsageError(
                f"{args.folder} exists and is not an empty folder."
            )
        found = masters(args.names)
    except UsageError as error:
        print(f"new_course.py: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    args.folder.mkdir(parents=True, exist_ok=True)
    for master in found:
        shutil.copytree(
            master.parent,
            args.folder / master.stem,
            ignore=shutil.ignore_patterns("student", ".ipynb_checkpoints"),
        )
    (args.folder / "README.md").write_text(README.format(folder=args.folder))
    (args.folder / ".gitignore").write_text(IGNORED)
    if not args.no_git and shutil.which("git"):
        subprocess.run(
            ["git", "init", "--quiet", str(args.folder)], check=True
        )
    print(
        f"{args.folder}: {len(found)} masters copied "
        f"({', '.join(m.stem for m in found)}). Keep it private, change the "
        f"masters, then: python assignments/build.py --masters {args.folder}"
    )


if __name__ == "__main__":
    main()
