"""Grade a folder: one CSV row per file, written as soon as it is graded.

A run that is interrupted keeps its rows; running the same command again
grades only the files that have no row yet (or changed since). Each student's
latest attempt is graded; earlier attempts get a row that says so. Every
graded file also gets a feedback file for the student.
"""

import csv
import multiprocessing
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from grading import autograder as autograders
from grading.sandbox import Limits

FIRST = ["student", "submission", "attempts", "status"]
LAST = ["total", "possible", "flags", "error", "notes", "seconds", "sha256"]


class BatchError(ValueError):
    """A batch that cannot start (a grades file of another assignment...)."""


def columns(autograder):
    return FIRST + [q["name"] for q in autograder["questions"]] + LAST


# ----------------------------------------------------------------- workers --
# Each worker is a clean process: it runs the master's code once, starts one
# sandbox per submission and checks what the sandbox reports. It never runs
# student code itself.

_worker = None


class Worker:
    def __init__(self, autograder, limits, sandboxed, bwrap, slot):
        from grading.checker import reference_namespace
        from grading.sandbox import Sandbox

        self.autograder, self.limits = autograder, limits
        self.namespace = reference_namespace(autograder)
        self.given = [
            source
            for source in autograder["reference_cells"]
            if not autograders.solution_lines(source)
        ]
        self.sandbox = Sandbox(enabled=sandboxed, bwrap=bwrap, slot=slot)

    def grade(self, path):
        import tempfile

        from grading import checker, flags, submissions
        from grading.sandbox import converse

        start = time.monotonic()
        autograder = self.autograder
        outcome = {"status": "graded", "error": "", "flags": [], "notes": []}
        try:
            cells = submissions.read_cells(path, autograder["assignment"])
        except submissions.SubmissionError as error:
            return dict(
                outcome,
                status="error",
                error=str(error),
                results=None,
                seconds=time.monotonic() - start,
            )
        public, hidden = [], []
        for question in autograder["questions"]:
            for test in question["tests"]:
                (hidden if test["hidden"] else public).append(
                    [test["id"], test["code"]]
                )
        with tempfile.TemporaryDirectory() as workdir:  # used without sandbox
            transcript = converse(
                self.sandbox,
                self.limits,
                cells,
                autograders.all_answers(autograder),
                public,
                hidden,
                workdir,
            )
        results = checker.check(
            autograder, self.namespace, transcript, self.limits.cell_timeout
        )
        found = flags.scan([source for _, source in cells], self.given)
        found += _runtime_flags(transcript)
        done = transcript.cells_done if transcript.cells_done else {}
        errors = done.get("errors") if type(done.get("errors")) is list else []
        notes = [
            f"cell {e[0] + 1}: {str(e[1])[:200]}"
            for e in errors[:10]
            if type(e) is list and len(e) == 2 and type(e[0]) is int
        ]
        return dict(
            outcome,
            status="error" if transcript.error else "graded",
            error=transcript.error,
            flags=found,
            notes=notes,
            results=None if transcript.cells_done is None else results,
            seconds=time.monotonic() - start,
        )


def _runtime_flags(transcript):
    """What the sandbox reported seeing (untrusted: hints only), grouped:
    "at run time: replaced numpy.allclose; listed /, /work, /root, ..."."""
    reports = [transcript.cells_done or {}, *transcript.phases]
    seen = {}
    for report in reports:
        if type(report) is not dict:
            continue
        patched = report.get("patched")
        for name in patched if type(patched) is list else []:
            seen.setdefault("replaced", []).append(str(name)[:80])
        events = report.get("events")
        for event in events if type(events) is list else []:
            if type(event) is list and len(event) == 2:
                seen.setdefault(str(event[0])[:40], []).append(
                    str(event[1])[:80]
                )
    parts = []
    for action, details in list(seen.items())[:8]:
        details = [d for d in dict.fromkeys(details) if d]
        shown = ", ".join(details[:3]) + (", ..." if len(details) > 3 else "")
        parts.append(f"{action} {shown}".strip())
    found = [f"at run time: {'; '.join(parts)}"] if parts else []
    if transcript.protocol_errors:
        found.append("tampered with the grader's channel")
    return found


def _init(autograder, limits, sandboxed, bwrap, slots):
    global _worker
    _worker = Worker(autograder, limits, sandboxed, bwrap, slots.get())


def _grade(path):
    try:
        return _worker.grade(path)
    except Exception as error:  # a bug of ours must not stop the batch
        return {
            "status": "error",
            "error": f"internal error: {error!r}",
            "flags": [],
            "notes": [],
            "results": None,
            "seconds": 0.0,
        }


# -------------------------------------------------------------------- rows --


def _row(autograder, submission, outcome):
    row = {
        "student": submission.student,
        "submission": submission.name,
        "attempts": submission.attempts,
        "status": outcome["status"],
        "flags": "; ".join(outcome.get("flags", [])),
        "error": outcome.get("error", ""),
        "notes": "; ".join(outcome.get("notes", [])),
        "seconds": f"{outcome.get('seconds', 0.0):.1f}",
        "sha256": submission.sha256,
        "possible": _number(sum(q["points"] for q in autograder["questions"])),
    }
    results = outcome.get("results")
    if results is not None:
        scores = {q["name"]: 0.0 for q in autograder["questions"]}
        for result in results:
            if result["passed"]:
                scores[result["question"]] += result["points"]
        row.update({name: _number(score) for name, score in scores.items()})
        row["total"] = _number(sum(scores.values()))
    return row


def _number(value):
    return f"{round(value, 6):g}"


def _safe(value):
    """Spreadsheets run cells that start with = + - @ as formulas; file
    names and messages come from students, so such cells are quoted."""
    text = str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _write_rows(path, fields, rows):
    temporary = Path(f"{path}.tmp")
    with open(temporary, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: _safe(v) for k, v in row.items()})
        f.flush()
        os.fsync(f.fileno())
    os.replace(temporary, path)


def _append_row(path, fields, row):
    with open(path, "a", newline="") as f:
        csv.DictWriter(f, fieldnames=fields, extrasaction="ignore").writerow(
            {k: _safe(v) for k, v in row.items()}
        )
        f.flush()
        os.fsync(f.fileno())


def _previous_rows(path, fields):
    """Rows of an earlier run of the same assignment, by (file, sha256)."""
    if not Path(path).exists():
        return {}
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        if reader.fieldnames != fields:
            raise BatchError(
                f"{path} holds grades with other columns (another "
                "assignment?): "
                "choose another --out, or delete it"
            )
        rows = {}
        for row in reader:
            complete = all(row.get(k) is not None for k in fields)
            if (
                complete
                and row["status"] in ("graded", "error")
                and len(row["sha256"]) == 64
            ):
                rows[(row["submission"], row["sha256"])] = row
        return rows


def _progress(count, total, submission, row, outcome):
    """One line per graded file, with its time."""
    score = (
        f"{row['total']}/{row['possible']}" if row.get("total") else "no score"
    )
    text = f"[{count}/{total}] {submission.name}: {score}"
    text += f" in {outcome['seconds']:.1f} s"
    if row["error"]:
        text += f" — error: {row['error']}"
    if row["flags"]:
        text += f" — flags: {row['flags'][:150]}"
    return text


# ---------------------------------------------------------------- feedback --


def feedback_text(autograder, submission, outcome):
    name = autograder["assignment"]
    lines = [f"# Feedback: {name}", "", f"Submission: `{submission.name}`"]
    if submission.attempts > 1:
        lines[-1] += f" (your latest of {submission.attempts} attempts)"
    results = outcome.get("results")
    if results is None:
        lines += [
            "",
            f"Your submission could not be graded: {outcome['error']}.",
        ]
        return "\n".join(lines) + "\n"
    earned = sum(r["points"] for r in results if r["passed"])
    possible = sum(q["points"] for q in autograder["questions"])
    lines += [
        "",
        f"Autograded score: {_number(earned)} / {_number(possible)}.",
    ]
    if autograder["manual"]:
        written = ", ".join(
            f"{q['name']} ({q['points']} points)" for q in autograder["manual"]
        )
        lines[-1] += f" Written questions are graded by hand: {written}."
    if outcome.get("error"):
        lines += ["", f"Grading stopped early: {outcome['error']}."]
    for question in autograder["questions"]:
        mine = [r for r in results if r["question"] == question["name"]]
        score = sum(r["points"] for r in mine if r["passed"])
        lines += [
            "",
            f"## {question['name']}: {_number(score)} / "
            f"{_number(question['points'])}",
            "",
        ]
        for result in mine:
            label = result["id"].removeprefix(f"{question['name']} ")
            verdict = "passed" if result["passed"] else "failed"
            if (
                not result["passed"]
                and not result["hidden"]
                and result["message"]
            ):
                verdict += f": {result['message']}"
            lines.append(f"- {label}: {verdict}")
    if outcome.get("notes"):
        lines += ["", "## Errors in your notebook", ""]
        lines += [f"- {note}" for note in outcome["notes"]]
    return "\n".join(lines) + "\n"


def _feedback_path(folder, submission):
    safe = submission.name.replace("/", "__")
    return Path(folder) / f"{safe}.md"


# ------------------------------------------------------------------- batch --


def grade_folder(
    autograder_path,
    folder,
    out,
    feedback=None,
    jobs=1,
    limits=None,
    sandboxed=True,
    bwrap=None,
    student_pattern=None,
    log=None,
):
    """Grade every file in ``folder`` into the CSV ``out``; return a summary
    dict (graded, errors, superseded, flagged, seconds, rows)."""
    from grading import submissions
    from grading.sandbox import Sandbox

    log = log or (lambda text: print(text, file=sys.stderr, flush=True))
    limits = limits or Limits()
    try:
        autograder = autograders.load(autograder_path)
    except (OSError, ValueError, KeyError) as error:
        raise BatchError(
            f"cannot read the autograder {autograder_path}: {error}"
        ) from error
    fields = columns(autograder)
    out = Path(out)
    feedback = Path(feedback or out.with_name(f"{out.stem}-feedback"))
    sandbox = Sandbox(enabled=sandboxed, bwrap=bwrap)
    sandbox.ensure_private([autograder_path, folder, out, feedback])
    sandbox.check()
    if not sandboxed:
        log(NO_SANDBOX_WARNING)

    files = submissions.collect(folder, student_pattern)
    previous = _previous_rows(out, fields)
    rows, pending = [], []
    for submission in files:
        if not submission.latest:
            row = _row(autograder, submission, {"status": "superseded"})
            row["notes"] = (
                f"superseded by a later attempt of {submission.student}"
            )
            row["seconds"] = ""
            rows.append(row)
        elif (submission.name, submission.sha256) in previous:
            rows.append(previous[(submission.name, submission.sha256)])
        else:
            pending.append(submission)
    _write_rows(out, fields, rows)
    feedback.mkdir(parents=True, exist_ok=True)
    if len(rows) - sum(r["status"] == "superseded" for r in rows):
        log(f"resuming: {len(rows)} files already have a row in {out}")

    start = time.monotonic()
    os.environ.update(
        OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1"
    )
    context = multiprocessing.get_context("spawn")
    slots = context.Queue()
    for slot in range(max(1, jobs)):
        slots.put(slot)
    graded_seconds = []
    ungraded = 0
    with ProcessPoolExecutor(
        max_workers=max(1, min(jobs, len(pending) or 1)),
        mp_context=context,
        initializer=_init,
        initargs=(autograder, limits, sandboxed, bwrap, slots),
    ) as pool:
        futures = {pool.submit(_grade, s.path): s for s in pending}
        for count, future in enumerate(as_completed(futures), 1):
            submission = futures[future]
            try:
                outcome = future.result()
            except BrokenProcessPool:
                # A worker died (it never runs student code: a bug of ours
                # or the machine's memory). The rows so far are safe; a
                # rerun grades the rest.
                ungraded = len(pending) - count + 1
                log(
                    f"a grading worker died: {ungraded} files are left "
                    "without a row; run the same command again to grade them"
                )
                break
            row = _row(autograder, submission, outcome)
            _append_row(out, fields, row)
            rows.append(row)
            graded_seconds.append(outcome["seconds"])
            _feedback_path(feedback, submission).write_text(
                feedback_text(autograder, submission, outcome)
            )
            log(_progress(count, len(pending), submission, row, outcome))
    rows.sort(key=lambda r: (r["student"], r["submission"]))
    _write_rows(out, fields, rows)
    elapsed = time.monotonic() - start
    summary = {
        "files": len(files),
        "ungraded": ungraded,
        "graded": sum(r["status"] == "graded" for r in rows),
        "errors": sum(r["status"] == "error" for r in rows),
        "superseded": sum(r["status"] == "superseded" for r in rows),
        "flagged": sum(bool(r["flags"]) for r in rows),
        "students": len({r["student"] for r in rows}),
        "seconds": elapsed,
        "per_submission": sum(graded_seconds) / len(graded_seconds)
        if graded_seconds
        else 0.0,
        "rows": rows,
    }
    log(
        f"{autograder['assignment']}: {summary['files']} files from "
        f"{summary['students']} students: {summary['graded']} graded, "
        f"{summary['errors']} errors, {summary['superseded']} earlier "
        f"attempts, {summary['flagged']} flagged; {len(graded_seconds)} "
        "graded now "
        f"in {elapsed:.0f} s ({summary['per_submission']:.1f} s each, "
        f"{max(1, jobs)} at a time). Grades: {out}; feedback: {feedback}/"
    )
    if not sandboxed:
        log(NO_SANDBOX_WARNING)
    return summary


NO_SANDBOX_WARNING = """
!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!
!! --no-sandbox: STUDENT CODE RAN AS YOU, with your files, your processes  !!
!! and your network. Scores still come from the clean checker, but a       !!
!! hostile notebook could have read or changed anything you can. Use this  !!
!! only on a machine you are prepared to throw away.                       !!
!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!
"""
