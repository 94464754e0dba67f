"""Each assignment built once per test run, as an instructor builds it.

``build(name, request)`` copies the book's master ``name`` into a private
course with ``new_course.py`` and builds it with ``build.py --masters``
(which runs otter's check of the solutions against every test, and grades
the solutions and the blank notebook), into ``_build/test-assignments/
<name>/``. Every test module and every xdist worker that asks for the same
assignment in the same run gets the same build (``book_build.build_once``
keeps the others waiting on a lock); a new run builds afresh.
"""

import subprocess
import sys
import uuid
from pathlib import Path

from book_build import BookBuildError, build_once

ROOT = Path(__file__).resolve().parents[1]
ASSIGNMENTS = ROOT / "assignments"
OUT = ROOT / "_build" / "test-assignments"
_RUN = uuid.uuid4().hex  # without xdist: one id for this process's run


def run_id(request):
    worker = getattr(request.config, "workerinput", {})
    return worker.get("testrunuid") or _RUN


def build(name, request):
    """The private course folder holding the built assignment ``name``:
    ``<course>/<name>/<name>.ipynb``, ``<course>/_build/<name>/...``."""

    def make(out):
        for command in (
            [ASSIGNMENTS / "new_course.py", out, name, "--no-git"],
            [ASSIGNMENTS / "build.py", "--masters", out],
        ):
            done = subprocess.run(
                [sys.executable, *map(str, command)],
                capture_output=True,
                text=True,
                cwd=ROOT,
            )
            if done.returncode:
                return False, done.stdout + done.stderr
        return True, ""

    try:
        return build_once(OUT / name, run_id(request), make)
    except BookBuildError as error:
        log = str(error).split("\n", 1)[-1]
        raise RuntimeError(
            f"building the assignment {name} failed:\n{log}"
        ) from None
