"""Grade a folder of submissions into a CSV, each one in a sandbox.

    python assignments/grade.py NAME SUBMISSIONS [--out grades.csv] [-j N]

NAME is an assignment built by ``assignments/build.py`` (from the book's
masters, or from ``--masters DIR``). SUBMISSIONS is a folder, as downloaded
from a learning platform: notebooks (``.ipynb``), otter export zips, and
anything else students handed in; subfolders are searched too.

Every file gets exactly one row in the CSV, written as soon as it is graded:

* ``student`` (from the platform's file or folder names, one layout for the
  whole folder, see ``--layout`` and ``--student-pattern``), ``submission``
  (the file), ``attempts`` (files of this student) and ``status``:
  ``graded``; ``error`` (the file could not be graded: a link, a FIFO, a
  corrupt file...; the ``error`` column says why); or ``superseded`` (an
  earlier attempt: only each student's latest counts);
* a score per autograded question, ``total`` and ``possible``;
* ``flags``: the submission reached for the grading machinery (patched
  libraries, otter's internals, custom comparisons, processes, files, ...):
  read it. Flags never change a score;
* ``notes`` (cells that raised errors or were stopped), ``seconds``, and the
  file's ``sha256``.

Each student's latest file also gets a feedback file (``--feedback``): per
question, passed or failed, with the message of a failed public test;
hidden tests by name only.

An interrupted run keeps its rows: run the same command again to grade only
the files without a row (or changed since). Written questions are not
graded: read them in the notebooks.

Student code runs in a bubblewrap sandbox (see grading/sandbox.py); the
tests run in a clean process (grading/checker.py) that calls the student's
functions in the sandbox with plain data, so no test ever enters the
sandbox. Without bubblewrap, grading stops, unless you pass --no-sandbox.
assignments/README.md ("How grading protects itself") says what is
guaranteed and what is not.

Exit status: 0 when every file has a row (errors included), 1 when some
were left without one (run the command again), 2 for a bad command line
(unknown assignment, missing folder, no sandbox).
"""

import argparse
import os
import sys
from pathlib import Path

ASSIGNMENTS = Path(__file__).resolve().parent
sys.path.insert(0, str(ASSIGNMENTS))
for _variable in (
    "OPENBLAS_NUM_THREADS",
    "OMP_NUM_THREADS",
    "MKL_NUM_THREADS",
):
    os.environ.setdefault(_variable, "1")

from build import UsageError, default_out, masters  # noqa: E402
from grading.batch import BatchError, grade_folder  # noqa: E402
from grading.sandbox import Limits, SandboxUnavailable  # noqa: E402
from grading.submissions import LAYOUTS  # noqa: E402


def autograder_for(name, masters_folder, autograder=None):
    if autograder:
        if not Path(autograder).is_file():
            raise UsageError(f"{autograder} does not exist.")
        return Path(autograder)
    masters([name], masters_folder)  # the name must be an assignment there
    path = default_out(masters_folder) / name / f"{name}-autograder.json"
    if not path.is_file():
        command = f"python assignments/build.py {name}"
        if Path(masters_folder).resolve() != ASSIGNMENTS:
            command += f" --masters {masters_folder}"
        raise UsageError(f"{path} does not exist: run `{command}` first.")
    return path


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(__doc__.splitlines()[2:]),
    )
    parser.add_argument("name", help="the assignment")
    parser.add_argument(
        "submissions", type=Path, help="folder of submitted files"
    )
    parser.add_argument("--out", type=Path, default=Path("grades.csv"))
    parser.add_argument(
        "--feedback",
        type=Path,
        help="folder for the students' feedback files (default: "
        "OUT-feedback/)",
    )
    parser.add_argument(
        "--masters",
        type=Path,
        default=ASSIGNMENTS,
        help="the folder of masters the assignment was built from",
    )
    parser.add_argument(
        "--autograder",
        type=Path,
        help="an autograder .json (default: from the build)",
    )
    parser.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=1,
        help="submissions graded at a time",
    )
    defaults = Limits()
    parser.add_argument(
        "--timeout",
        type=float,
        default=defaults.timeout,
        help="seconds for a whole submission (default: %(default)g)",
    )
    parser.add_argument(
        "--cell-timeout",
        type=float,
        default=defaults.cell_timeout,
        help="seconds for one cell or test; a cell that runs longer is "
        "stopped and the notebook goes on (default: %(default)g)",
    )
    parser.add_argument(
        "--memory",
        type=int,
        default=defaults.memory_mb,
        help="megabytes of memory per submission (default: %(default)d)",
    )
    parser.add_argument(
        "--student-pattern",
        help="regular expression with a group (?P<student>...) matched "
        "at the start of each file's path in the folder (optionally "
        "(?P<time>YYYY-MM-DD-HH-MM-SS) or (?P<upload>number) to order "
        "attempts); default: the names Canvas, Moodle and Blackboard give "
        "downloads, name_name_12345_..., or one folder per student",
    )
    parser.add_argument(
        "--layout",
        choices=sorted(LAYOUTS),
        help="how the learning platform named the files (default: "
        "detected, one layout for the whole folder)",
    )
    parser.add_argument(
        "--no-sandbox",
        action="store_true",
        help="run student code WITHOUT isolation, as you (dangerous)",
    )
    parser.add_argument(
        "--bwrap", help="the bubblewrap program (default: bwrap)"
    )
    args = parser.parse_args(argv)
    try:
        if not args.submissions.is_dir():
            raise UsageError(f"{args.submissions} is not a folder.")
        if args.jobs < 1 or args.timeout <= 0 or args.cell_timeout <= 0:
            raise UsageError(
                "-j, --timeout and --cell-timeout must be positive."
            )
        autograder = autograder_for(args.name, args.masters, args.autograder)
        feedback = args.feedback or args.out.with_name(
            f"{args.out.stem}-feedback"
        )
        summary = grade_folder(
            autograder,
            args.submissions,
            args.out,
            feedback=feedback,
            jobs=args.jobs,
            limits=Limits(args.timeout, args.cell_timeout, args.memory),
            sandboxed=not args.no_sandbox,
            bwrap=args.bwrap,
            student_pattern=args.student_pattern,
            layout=args.layout,
        )
    except (UsageError, SandboxUnavailable, BatchError) as error:
        print(f"grade.py: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    if summary["ungraded"]:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
