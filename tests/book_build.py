"""One build of the book per test run, however many pytest-xdist workers ask.

Each xdist worker is a pytest session of its own, so a session-scoped fixture
runs once *per worker*. Left alone, two workers would build the book at the
same time into the same folder, each deleting the other's output and
execution cache. Instead the first worker to ask builds under a file lock and
writes down the outcome with the run's id; every later caller in the same run
waits for the lock, finds the outcome and reuses it (or re-raises the same
failure) instead of building again. A new run builds afresh.
"""

import json
import shutil
from pathlib import Path

from filelock import FileLock

OUTCOME = "test-build-outcome.json"


class BookBuildError(RuntimeError):
    """The build failed; the message ends with the tail of its log."""


def build_once(out, run_id, build):
    """Build into ``out`` once for ``run_id`` and return ``out``.

    ``build(out)`` does the work into an empty ``out`` and returns
    ``(ok, log)``. Only the first caller of a run deletes ``out``; the lock
    keeps every other caller of that run waiting until the outcome is
    written, so no caller sees a half-deleted or half-built folder.
    """
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    outcome_file = out.parent / f"{out.name}.{OUTCOME}"
    with FileLock(out.parent / f"{out.name}.lock"):
        outcome = _read(outcome_file)
        if outcome.get("run") != run_id:
            shutil.rmtree(out, ignore_errors=True)
            outcome_file.unlink(missing_ok=True)
            ok, log = build(out)
            outcome = {"run": run_id, "ok": bool(ok), "log": log[-5000:]}
            outcome_file.write_text(json.dumps(outcome))
    if not outcome["ok"]:
        raise BookBuildError(f"the book build failed:\n{outcome['log']}")
    return out


def build_succeeded(out):
    """Whether the last build into ``out`` succeeded (whichever run made it)."""
    out = Path(out)
    return _read(out.parent / f"{out.name}.{OUTCOME}").get("ok", False)


def _read(path):
    try:
        return json.loads(path.read_text())
    except (FileNotFoundError, json.JSONDecodeError):
        return {}
