"""How long grading a class takes: 100 submissions with ``-j 2``.

    python benchmarks/bench_grading.py [--students 100] [-j 2] [--masters DIR]

Builds a private course of gradients-and-duality in a temporary folder (or
uses ``--masters DIR``, already built), writes a class of submissions named
as Canvas names them (a third correct, a third with the last question left
out, a third blank), grades them with ``assignments/grade.py`` in the
sandbox, and prints the wall time, the time per submission and the load
average before and after (the machine's other work slows grading: read the
load with the time). Timing is reported here, never asserted in a test.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ASSIGNMENTS = ROOT / "assignments"
sys.path.insert(0, str(ROOT / "tests"))

from hostile_submissions import answer_cells, answered  # noqa: E402

NAME = "gradients-and-duality"


def run(*args):
    done = subprocess.run(
        [sys.executable, *map(str, args)], capture_output=True, text=True
    )
    if done.returncode:
        raise SystemExit(done.stdout + done.stderr)
    return done


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=100)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--masters", type=Path, help="a built course")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        course = args.masters
        if course is None:
            course = tmp / "course"
            started = time.monotonic()
            run(ASSIGNMENTS / "new_course.py", course, NAME, "--no-git")
            run(ASSIGNMENTS / "build.py", "--masters", course)
            print(f"built the course in {time.monotonic() - started:.0f} s")
        built = course / "_build" / NAME
        student = json.loads((built / "student" / f"{NAME}.ipynb").read_text())
        solutions = json.loads(
            (built / "solutions" / f"{NAME}.ipynb").read_text()
        )
        questions = list(answer_cells(student))
        kinds = [
            answered(student, solutions, questions),
            answered(student, solutions, questions[:-1]),
            student,
        ]
        folder = tmp / "submissions"
        folder.mkdir()
        for i in range(args.students):
            name = f"student{i:03d}_{100000 + i}_{900000 + i}_{NAME}.ipynb"
            (folder / name).write_text(json.dumps(kinds[i % 3]))
        load = os.getloadavg()[0]
        started = time.monotonic()
        done = subprocess.run(
            [sys.executable, ASSIGNMENTS / "grade.py", NAME, folder,
             "--masters", course, "--out", tmp / "out" / "grades.csv",
             "-j", str(args.jobs)],
            capture_output=True, text=True,
        )  # fmt: skip
        wall = time.monotonic() - started
        if done.returncode:
            raise SystemExit(done.stderr[-3000:])
        print(done.stderr.strip().splitlines()[-1])
        print(
            f"{args.students} submissions, -j {args.jobs}: {wall:.0f} s "
            f"wall ({wall / args.students:.2f} s each); load average "
            f"{load:.1f} before, {os.getloadavg()[0]:.1f} after, on "
            f"{os.cpu_count()} cores"
        )


if __name__ == "__main__":
    main()
